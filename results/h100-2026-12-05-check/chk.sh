#!/bin/bash
# make check-gpu at the reference revision, in two parts
set -u
O=/tmp/o/chk; mkdir -p $O
cd dist
S=$(date +%s)
el(){ echo "[$(( $(date +%s)-S ))s] $*" >> $O/log.txt; tar -C /tmp/o -czf $OUT/chk.tgz chk; }
nvidia-smi > $O/smi.txt 2>&1; bin/gpubench info > $O/info.txt 2>&1; bin/gpubench --version >> $O/info.txt; el start
CHECK_GPU_PARTS=stm,stm-mv GPUBENCH=bin/gpubench timeout 360 tests/gpu/check.sh > $O/check-stm.txt 2>&1; el "check-stm rc=$?"
CHECK_GPU_PARTS=devices,avoid,detect,speculate,list,reliability GPUBENCH=bin/gpubench timeout $((585 - ($(date +%s)-S))) tests/gpu/check.sh > $O/check-rest.txt 2>&1; el "check-rest rc=$?"
cat $O/log.txt; tail -3 $O/check-stm.txt $O/check-rest.txt
