#!/bin/bash
# The 2-GPU sweep timing (docs/cluster.md): fig7's bank panel A, prstm, on --gpus 0 then --gpus 0,1.
# Copied into dist/ (make dist) and run there with OUT set: bash dist/gpus-timing.sh.
cd "$(dirname "$0")" || exit 1
O=$OUT
nvidia-smi -L > $O/gpus.txt 2>&1
F="--gpubench bin/gpubench --workloads bank --panels A --algos prstm"
for g in 0 0,1; do
	d=/tmp/gpus-${g/,/-}
	rm -rf $d
	s=$(date +%s%N)
	timeout 110 scripts/fig7.sh $F --gpus $g --out $d > $O/fig7-gpus-${g/,/-}.log 2>&1
	echo "--gpus $g rc=$? $(( ($(date +%s%N) - s) / 1000000 )) ms" | tee -a $O/timing.txt
done
diff <(cut -d, -f1-4 /tmp/gpus-0/fig7.csv) <(cut -d, -f1-4 /tmp/gpus-0-1/fig7.csv) > $O/diff.txt && echo "same points" | tee -a $O/timing.txt
tar czf $O/reports.tgz -C /tmp gpus-0 gpus-0-1
