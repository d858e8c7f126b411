#!/bin/bash
# PR-STM before (dist-base: the build of 8094dc6) and after (dist), the list's mixed workload, the
# sanitizers on the PR-STM bank kernels and make check-gpu, on one GPU machine. Run from the
# repository root with OUT set; reports go to $OUT/reports.tgz, the log to $OUT/log.txt,
# check-gpu's output to $OUT/check-gpu.txt. Argument: runs (default) or check-gpu.
set -u
O=$OUT; OLD=dist-base/bin/gpubench; NEW=dist/bin/gpubench; R=/tmp/prstm-reports
mkdir -p $R
nvidia-smi -L > $O/gpu.txt 2>&1
run() { # label, binary, arguments...
	local label=$1 bin=$2 t0 rc
	shift 2
	t0=$(date +%s%N)
	timeout 200 "$bin" "$@" --json $R/$label.json > $R/$label.out 2>&1
	rc=$?
	echo "$label rc=$rc $((($(date +%s%N) - t0) / 1000000)) ms: $* | $(grep -E '^  (prstm|gpu-tail|gpu|cpu-lockfree-tail) ' $R/$label.out | tr -s ' ' | tr '\n' ';')" >> $O/log.txt
}
if [ "${1:-runs}" = runs ]; then
for b in before after; do
	bin=$NEW; [ $b = before ] && bin=$OLD
	run sem0-6720-$b $bin stm --algo prstm --threads 6720 --semantic-ratio 0 --duration 1 --reps 3
	run sem0-26880-$b $bin stm --algo prstm --threads 26880 --semantic-ratio 0 --reps 5
	run default-$b $bin stm --algo prstm --threads 6720 --reps 5
done
run sem0-6720-paper-after $NEW stm --algo prstm --threads 6720 --semantic-ratio 0 --paper
run list-mixed-after $NEW list --op mixed --nodes 100000 --threads 65536 --impl gpu-tail --compare gpu,cpu-lockfree-tail --reps 3
for tool in memcheck racecheck synccheck; do
	timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $NEW stm --algo prstm --threads 256 --block-size 64 --accounts 1024 --semantic-ratio 50 --tx-per-thread 20 --reps 1 --warmup 0 > $R/san-bank-$tool.out 2>&1
	echo "sanitizer $tool bank rc=$? $(tail -1 $R/san-bank-$tool.out)" >> $O/log.txt
	timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $NEW stm --algo prstm --workload skiplist --threads 256 --block-size 64 --tx-per-thread 8 --reps 1 --warmup 0 > $R/san-skiplist-$tool.out 2>&1
	echo "sanitizer $tool skiplist rc=$? $(tail -1 $R/san-skiplist-$tool.out)" >> $O/log.txt
done
tar czf $O/reports.tgz -C $R .
else
timeout 560 make check-gpu GPUBENCH=$NEW > $O/check-gpu.txt 2>&1
echo "check-gpu rc=$? $(tail -1 $O/check-gpu.txt)" >> $O/log.txt
fi
cat $O/log.txt
