#!/usr/bin/env bash
cd dist
O=/tmp/o/c4; mkdir -p $O
B=(--threads 1792 --block-size 64 --accounts 6000 --semantic-ratio 0 --read-only-size 6000 --tx-per-thread 5 --reps 1)
timeout 60 bin/gpubench stm --algo csmv --compare csmv-nocv,csmv-onlycs,csmv-index,csmv-index-nocv,csmv-index-onlycs,jvstm-gpu "${B[@]}" --read-only 10 --json $O/bank-ro10.json > $O/bank-ro10.txt 2>&1; echo "rc=$?" >> $O/bank-ro10.txt
M=(--workload memcached --items 1048576 --threads 1792 --block-size 64 --set-permille 2 --reps 1)
for w in 4 256; do
  timeout 40 bin/gpubench stm "${M[@]}" --ways $w --algo csmv --compare csmv-nocv,csmv-onlycs,csmv-index --json $O/mc$w.json > $O/mc$w.txt 2>&1; echo "rc=$?" >> $O/mc$w.txt
done
t1=$(date +%s)
SANITIZE_TOOLS=racecheck GPUBENCH=bin/gpubench timeout 150 bash tests/gpu/sanitize.sh stm > $O/racecheck-stm.txt 2>&1
echo "rc=$? secs=$(( $(date +%s) - t1 ))" >> $O/racecheck-stm.txt
t0=$(date +%s)
CHECK_GPU_PARTS=stm-mv GPUBENCH=bin/gpubench timeout 200 bash tests/gpu/check.sh > $O/check-stm-mv.txt 2>&1
echo "rc=$? secs=$(( $(date +%s) - t0 ))" >> $O/check-stm-mv.txt
tar czf $OUT/c4.tgz -C /tmp/o c4
