#!/usr/bin/env bash
# check-gpu rest, sanitizer on detect+list, LMDDA and list measurements
cd dist
O=/tmp/o/c2; mkdir -p $O
t0=$(date +%s)
CHECK_GPU_PARTS=devices,avoid,detect,speculate,list,reliability GPUBENCH=bin/gpubench timeout 250 bash tests/gpu/check.sh > $O/check-rest.txt 2>&1
echo "rc=$? secs=$(( $(date +%s) - t0 ))" >> $O/check-rest.txt
t1=$(date +%s)
GPUBENCH=bin/gpubench timeout 200 bash tests/gpu/sanitize.sh detect list > $O/sanitize-detect-list.txt 2>&1
echo "rc=$? secs=$(( $(date +%s) - t1 ))" >> $O/sanitize-detect-list.txt
timeout 60 bin/gpubench detect --algo lmdda --procs 8192 --res 8192 --units 1-4 --events 163840 --seed 1 --reps 1 --impl gpu-stream --compare cpu-bits,cpu-stream --json $O/lmdda8192.json > $O/lmdda8192.txt 2>&1; echo "rc=$?" >> $O/lmdda8192.txt
timeout 60 bin/gpubench list --op mixed --nodes 100000 --threads 65536 --impl gpu-tail --compare gpu,cpu-lockfree-tail --reps 3 --json $O/list-mixed.json > $O/list-mixed.txt 2>&1; echo "rc=$?" >> $O/list-mixed.txt
tar czf $OUT/c2.tgz -C /tmp/o c2
