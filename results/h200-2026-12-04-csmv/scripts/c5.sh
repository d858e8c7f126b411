#!/usr/bin/env bash
cd dist
O=/tmp/o/c5; mkdir -p $O
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
t1=$(date +%s)
for tool in racecheck memcheck; do
 for algo in csmv csmv-nocv csmv-onlycs; do
  timeout 60 $CS --tool $tool --error-exitcode 9 --print-limit 20 bin/gpubench stm --quiet --backend gpu --algo $algo --threads 256 --block-size 64 --accounts 300 --semantic-ratio 0 --read-only 20 --read-only-size 300 --tx-per-thread 4 --reps 1 --warmup 0 > $O/$tool-$algo.txt 2>&1
  echo "$tool $algo rc=$?" >> $O/summary.txt
 done
 timeout 60 $CS --tool $tool --error-exitcode 9 --print-limit 20 bin/gpubench stm --quiet --backend gpu --algo csmv --workload memcached --threads 256 --block-size 64 --items 4096 --ways 8 --tx-per-thread 6 --reps 1 --warmup 0 > $O/$tool-csmv-mc.txt 2>&1
 echo "$tool csmv-mc rc=$?" >> $O/summary.txt
done
echo "secs=$(( $(date +%s) - t1 ))" >> $O/summary.txt
B=(--threads 1792 --block-size 64 --accounts 6000 --semantic-ratio 0 --read-only-size 6000 --tx-per-thread 20 --reps 3)
for ro in 10; do
timeout 50 bin/gpubench stm --algo csmv --compare csmv-nocv,csmv-onlycs,csmv-index,jvstm-gpu "${B[@]}" --read-only $ro --json $O/bank-ro$ro.json > $O/bank-ro$ro.txt 2>&1; echo "rc=$?" >> $O/bank-ro$ro.txt
done
tar czf $OUT/c5.tgz -C /tmp/o c5
