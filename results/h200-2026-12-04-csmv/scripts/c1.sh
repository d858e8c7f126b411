#!/usr/bin/env bash
# check-gpu: stm and stm-mv parts
cd dist
mkdir -p /tmp/o/c1
nvidia-smi > /tmp/o/c1/smi.txt 2>&1
t0=$(date +%s)
CHECK_GPU_PARTS=stm,stm-mv GPUBENCH=bin/gpubench timeout 560 bash tests/gpu/check.sh > /tmp/o/c1/check-stm.txt 2>&1
echo "rc=$? secs=$(( $(date +%s) - t0 ))" >> /tmp/o/c1/check-stm.txt
tar czf $OUT/c1.tgz -C /tmp/o c1
