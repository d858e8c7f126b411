#!/bin/bash
# call 3: LMDDA gpu-stream with the warp search (dist) against a036f2e (old-dist), check-gpu's detect, sanitizers
set -u
O=/tmp/o/c3; mkdir -p $O
N=dist/bin/gpubench; B=results/local/old-dist/bin/gpubench
S=$(date +%s)
el(){ echo "[$(( $(date +%s)-S ))s] $*" >> $O/log.txt; tar -C /tmp/o -czf $OUT/c3.tgz c3; }
$N info > $O/info.txt 2>&1; el start
for n in 8192 4096 2048 1024; do
  $N detect --algo lmdda --procs $n --res $n --units 1-4 --events $((20*n)) --seed 1 --reps 1 --impl gpu-stream --compare cpu-bits,cpu-stream > $O/dense$n.txt 2>&1; el "dense $n rc=$?"
  $B detect --algo lmdda --procs $n --res $n --units 1-4 --events $((20*n)) --seed 1 --reps 1 --impl gpu-stream > $O/dense$n-old.txt 2>&1; el "dense $n old rc=$?"
done
$N detect --algo lmdda --procs 1024 --res 1024 --units 1-4 --events 20480 --seed 1 --reps 3 --impl gpu-stream --compare cpu-bits,cpu-stream > $O/lmdda1024.txt 2>&1; el "1024 rc=$?"
$B detect --algo lmdda --procs 1024 --res 1024 --units 1-4 --events 20480 --seed 1 --reps 3 --impl gpu-stream > $O/lmdda1024-old.txt 2>&1; el "1024 old rc=$?"
CHECK_GPU_PARTS=detect GPUBENCH=$N timeout 150 tests/gpu/check.sh > $O/check-detect.txt 2>&1; el "check-detect rc=$?"
CS=/usr/local/cuda/bin/compute-sanitizer; [ -x $CS ] || CS=compute-sanitizer
for t in racecheck memcheck synccheck initcheck; do
  for a in "--procs 40 --res 37 --units 1-3 --events 5000 --deadlock-share 0.2 --compare gpu-event" "--procs 512 --res 512 --units 1-4 --events 10240" "--procs 70000 --res 64 --units 1-3 --events 3000 --deadlock-share 0.2"; do
    timeout 100 $CS --tool $t --error-exitcode 9 $N detect --algo lmdda --impl gpu-stream $a --reps 1 --seed 3 >> $O/sanitize.txt 2>&1; echo "SAN $t [$a] rc=$?" >> $O/sanitize.txt
  done; el "sanitize $t"
done
