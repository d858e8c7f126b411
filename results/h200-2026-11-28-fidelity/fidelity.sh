#!/bin/bash
# The faithful engines and baselines before and after (CSMV's server aside: see README.md), on one GPU machine: each line runs the
# previous build (dist-base) with the command of its time, then this build (dist) with the paper's
# design and our variant side by side. Run from the repository root with OUT set; the reports go
# to $OUT/reports.tgz and the summary to $OUT/summary.md (summarize.py).
set -u
O=$OUT; OLD=dist-base/bin/gpubench; NEW=dist/bin/gpubench
mkdir -p /tmp/fid
nvidia-smi -L > $O/gpu.txt 2>&1
run() { # label, binary, arguments...
	local label=$1 bin=$2
	shift 2
	local t0=$(date +%s%N) rc
	timeout 150 "$bin" "$@" --quiet --json /tmp/fid/$label.json > /tmp/fid/$label.out 2>&1
	rc=$?
	echo "$label rc=$rc $((($(date +%s%N) - t0) / 1000000)) ms: $*" >> $O/log.txt
}
S0=(--threads 6720 --hash 1 --semantic-ratio 0 --reps 5)
# PR-STM without its contention manager (seed 000, 3.4): the manager's cost, and its gain
run prstm-sem0-before $OLD stm --algo prstm "${S0[@]}"
run prstm-sem0-after $NEW stm --algo prstm --compare prstm-nocm "${S0[@]}"
run prstm-presort-after $NEW stm --algo prstm --compare prstm-nocm --threads 6720 --hash 1 --semantic-ratio 100 --presort --reps 5
run prstm-sem100-after $NEW stm --algo prstm --compare prstm-nocm --threads 6720 --hash 1 --semantic-ratio 100 --stall-timeout 0.1 --reps 3
# GPU-STM's logs in global memory (the original's) against thread-local (ours, before)
run gpustm-bank-before $OLD stm --algo gpustm --compare prstm "${S0[@]}" --accounts 65536 --tx-per-thread 100
run gpustm-bank-after $NEW stm --algo gpustm --compare gpustm-local,prstm "${S0[@]}" --accounts 65536 --tx-per-thread 100
for wl in skiplist memcached; do
	extra=(); [ $wl = memcached ] && extra=(--ways 8 --retry-limit 1000000000)
	run gpustm-$wl-before $OLD stm --workload $wl --algo gpustm --compare prstm --threads 6720 --reps 3 "${extra[@]}"
	run gpustm-$wl-after $NEW stm --workload $wl --algo gpustm --compare gpustm-local,prstm --threads 6720 --reps 3 "${extra[@]}"
done
# detect under the thesis's protocol (seed 004): the GPU detectors beside the serial CPU ones
for n in 512 1024 2048; do
	run detect-osdda$n-after $NEW detect --algo osdda --procs $n --res $n --impl gpu --compare gpu-stream,cpu-serial,cpu-bits --reps 3
done
for n in 64 128; do
	run detect-lmdda$n-after $NEW detect --algo lmdda --procs $n --res $n --units 1-4 --impl gpu --compare gpu-stream,cpu-serial,cpu-bits --reps 3
done
# speculate's TM baseline (seed 003) on the host's cores; the GPU and seq before and after the body change
for L in ocean mdg gothic; do
	run spec-$L-before $OLD speculate --backend gpu --loop $L --compare seq,cpu-spec --reps 5
	run spec-$L-after $NEW speculate --backend gpu --loop $L --compare seq,cpu-tm,cpu-spec --reps 5
done
tar czf $O/reports.tgz -C /tmp fid
python3 results/h200-2026-11-28-fidelity/summarize.py /tmp/fid > $O/summary.md 2>&1
