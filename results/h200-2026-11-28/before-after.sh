#!/bin/bash
# Before/after on one GPU: the benchmark suite and the STM headline commands with the previous
# build (dist-base) and this one (dist), in turn, then gpubench compare on each pair.
set -u
O=$OUT; OLD=dist-base/bin/gpubench; NEW=dist/bin/gpubench
nvidia-smi -L > $O/gpu.txt 2>&1
$OLD info > $O/info-old.txt 2>&1; $NEW info > $O/info-new.txt 2>&1
mkdir -p /tmp/old /tmp/new
for b in old new; do
  bin=$OLD; [ $b = new ] && bin=$NEW
  scripts/bench-suite.sh --gpubench $bin --out /tmp/$b/suite > /tmp/$b/suite.log 2>&1 || echo "suite $b failed" >> $O/log.txt
done
i=0
while IFS= read -r cmd; do
  i=$((i+1))
  for b in old new; do
    bin=$OLD; [ $b = new ] && bin=$NEW
    timeout 120 $bin $cmd --json /tmp/$b/h$i.json --quiet > /tmp/$b/h$i.out 2>&1; echo "h$i $b rc=$? $cmd" >> $O/log.txt
  done
done <<'CMDS'
stm --algo prstm --threads 6720 --semantic-ratio 0 --reps 5
stm --algo prstm --threads 6720 --reps 5
stm --algo gpustm --retry-limit 100 --threads 960 --reps 5
stm --workload memcached --algo csmv --ways 64 --reps 5
stm --algo csmv --accounts 6000 --threads 1792 --block-size 64 --semantic-ratio 0 --read-only 90 --read-only-size 6000 --tx-per-thread 20 --reps 5
stm --algo prstm --workload skiplist --reps 5
stm --algo prstm --workload kmeans --reps 3
stm --algo prstm --workload graph --reps 3
stm --algo prstm --workload vacation --reps 5
stm --algo gpustm --workload skiplist --reps 5
stm --algo prstm --workload memcached --ways 256 --reps 3
CMDS
$NEW compare /tmp/old /tmp/new > $O/compare.txt 2>&1; echo "compare rc=$?" >> $O/log.txt
$NEW compare --markdown /tmp/old /tmp/new > $O/compare.md 2>/dev/null
tar czf $O/reports.tgz -C /tmp old new
