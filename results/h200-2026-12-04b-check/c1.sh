#!/bin/bash
# call 1: make check-gpu in two parts, the detect and list sanitizers, list and PR-STM timings
set -u
O=/tmp/o/c1; mkdir -p $O
cd dist
S=$(date +%s)
el(){ echo "[$(( $(date +%s)-S ))s] $*" >> $O/log.txt; tar -C /tmp/o -czf $OUT/c1.tgz c1; }
nvidia-smi > $O/smi.txt 2>&1; bin/gpubench info > $O/info.txt 2>&1; el start
CHECK_GPU_PARTS=stm,stm-mv GPUBENCH=bin/gpubench timeout 320 tests/gpu/check.sh > $O/check-stm.txt 2>&1; el "check-stm rc=$?"
CHECK_GPU_PARTS=devices,avoid,detect,speculate,list,reliability GPUBENCH=bin/gpubench timeout 170 tests/gpu/check.sh > $O/check-rest.txt 2>&1; el "check-rest rc=$?"
bin/gpubench list --op mixed --nodes 100000 --threads 65536 --impl gpu-tail --compare gpu,cpu-lockfree-tail --reps 3 > $O/list-mixed.txt 2>&1; el "list rc=$?"
bin/gpubench stm --threads 6720 --reps 5 > $O/prstm-default.txt 2>&1; el "prstm rc=$?"
GPUBENCH=bin/gpubench timeout $((560 - ($(date +%s)-S))) tests/gpu/sanitize.sh detect list > $O/sanitize-detect-list.txt 2>&1; el "sanitize rc=$?"
