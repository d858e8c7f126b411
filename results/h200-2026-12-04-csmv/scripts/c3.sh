#!/usr/bin/env bash
# sanitizer on stm, CSMV paper's server vs index server
cd dist
O=/tmp/o/c3; mkdir -p $O
t1=$(date +%s)
GPUBENCH=bin/gpubench timeout 330 bash tests/gpu/sanitize.sh stm > $O/sanitize-stm.txt 2>&1
echo "rc=$? secs=$(( $(date +%s) - t1 ))" >> $O/sanitize-stm.txt
B=(--threads 1792 --block-size 64 --accounts 6000 --semantic-ratio 0 --read-only-size 6000 --tx-per-thread 5 --reps 1)
for ro in 10 90; do
  timeout 60 bin/gpubench stm --algo csmv --compare csmv-nocv,csmv-onlycs,csmv-index,csmv-index-nocv,csmv-index-onlycs,jvstm-gpu "${B[@]}" --read-only $ro --json $O/bank-ro$ro.json > $O/bank-ro$ro.txt 2>&1; echo "rc=$?" >> $O/bank-ro$ro.txt
done
M=(--workload memcached --items 1048576 --threads 1792 --block-size 64 --set-permille 2 --reps 1)
for w in 4 256; do
  timeout 60 bin/gpubench stm "${M[@]}" --ways $w --algo csmv --compare csmv-nocv,csmv-onlycs,csmv-index,jvstm-gpu --json $O/mc$w.json > $O/mc$w.txt 2>&1; echo "rc=$?" >> $O/mc$w.txt
done
tar czf $OUT/c3.tgz -C /tmp/o c3
