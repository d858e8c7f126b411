#!/bin/bash
# The wide sets and memcached's paper layout before and after, on one GPU machine: each line runs
# the previous build (BASE, 3478466: sets of 16 words, memcached's one-word keys and values,
# CSMV_MAX_SET 8) and this build (dist). Run from the repository root with OUT and BASE set; the
# reports go to $OUT/reports.tgz and the summary to $OUT/summary.md.
set -u
O=$OUT; OLD=$BASE/bin/gpubench; NEW=dist/bin/gpubench
mkdir -p /tmp/wide
nvidia-smi -L > $O/gpu.txt 2>&1
t_start=$(date +%s)
run() { # label, binary, arguments...
	local label=$1 bin=$2
	shift 2
	if [ $(( $(date +%s) - t_start )) -gt "${BUDGET:-500}" ]; then
		echo "$label skipped: out of time" >> $O/log.txt
		return
	fi
	local t0=$(date +%s%N) rc
	timeout 100 "$bin" "$@" --quiet --json /tmp/wide/$label.json > /tmp/wide/$label.out 2>&1
	rc=$?
	echo "$label rc=$rc $((($(date +%s%N) - t0) / 1000000)) ms: $*" >> $O/log.txt
}
S0=(--threads 6720 --hash 1 --semantic-ratio 0 --reps 5)
# PR-STM's bank (its sets of 8 words) with the 64-bit masks of the wide kernels
run prstm-bank-before $OLD stm --algo prstm --compare prstm-nocm "${S0[@]}"
run prstm-bank-after $NEW stm --algo prstm --compare prstm-nocm "${S0[@]}"
# graph: 15 edges a transaction (before and after), all neighbours (the paper's transaction, after)
G=(--workload graph --algo prstm --compare gpustm,gpustm-local --threads 6720 --reps 3)
run graph15-before $OLD stm "${G[@]}" --edges-per-tx 15
run graph15-after $NEW stm "${G[@]}" --edges-per-tx 15
run graph0-after $NEW stm "${G[@]}" --edges-per-tx 0
# memcached, Fig. 2's configuration: before (compact), after in the paper's layout and compact
M=(--workload memcached --items 1048576 --threads 1792 --block-size 64 --set-permille 2 --reps 3)
for w in 4 32 256; do
	run mc$w-before $OLD stm "${M[@]}" --ways $w --algo prstm --compare csmv,csmv-nocv,csmv-onlycs,jvstm-gpu
	run mc$w-after $NEW stm "${M[@]}" --ways $w --algo prstm --compare csmv,csmv-nocv,csmv-onlycs,jvstm-gpu
	run mc$w-after-compact $NEW stm "${M[@]}" --ways $w --algo prstm --compare csmv,csmv-nocv,csmv-onlycs,jvstm-gpu \
		--key-words 1 --value-words 1
done
# CSMV's bank (the paper's 28 blocks of 64 clients, 6000 accounts): group requests of 8 words, then 16
B=(--algo csmv --compare csmv-nocv,csmv-onlycs,jvstm-gpu --threads 1792 --block-size 64 --accounts 6000
	--semantic-ratio 0 --read-only-size 6000 --tx-per-thread 20 --reps 3)
for ro in 10 90; do
	run csmv-ro$ro-before $OLD stm "${B[@]}" --read-only $ro
	run csmv-ro$ro-after $NEW stm "${B[@]}" --read-only $ro
done
tar czf $O/reports.tgz -C /tmp wide
python3 results/h200-2026-11-28-fidelity/summarize.py /tmp/wide > $O/summary.md 2>&1
