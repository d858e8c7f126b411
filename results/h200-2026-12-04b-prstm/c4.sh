#!/bin/bash
# call 4: PR-STM with the next entry loaded on passed-over steps (dist) against c3d799c (old-dist); check-gpu list; sanitizers on the changed kernel
set -u
O=/tmp/o/c4; mkdir -p $O
N=dist/bin/gpubench; B=results/local/old-dist/bin/gpubench
S=$(date +%s)
el(){ echo "[$(( $(date +%s)-S ))s] $*" >> $O/log.txt; tar -C /tmp/o -czf $OUT/c4.tgz c4; }
$N info > $O/info.txt 2>&1; el start
for k in 1 2; do
  $N stm --threads 6720 --reps 5 > $O/default-new-$k.txt 2>&1; el "default new $k rc=$?"
  $B stm --threads 6720 --reps 5 > $O/default-old-$k.txt 2>&1; el "default old $k rc=$?"
done
$N stm --threads 6720 --semantic-ratio 0 --reps 5 > $O/sr0-new.txt 2>&1; el "sr0 new rc=$?"
$B stm --threads 6720 --semantic-ratio 0 --reps 5 > $O/sr0-old.txt 2>&1; el "sr0 old rc=$?"
CS=/usr/local/cuda/bin/compute-sanitizer; [ -x $CS ] || CS=compute-sanitizer
for t in racecheck memcheck; do
  timeout 40 $CS --tool $t --error-exitcode 9 $N stm --backend gpu --threads 512 --accounts 64 --hash 8 --initial-balance 100000 --tx-per-thread 4 --reps 1 --warmup 0 --semantic-ratio 100 >> $O/sanitize.txt 2>&1; echo "SAN $t rc=$?" >> $O/sanitize.txt; el "san $t"
done
CHECK_GPU_PARTS=list GPUBENCH=$N timeout $((185 - ($(date +%s)-S))) tests/gpu/check.sh > $O/check-list.txt 2>&1; el "check-list rc=$?"
