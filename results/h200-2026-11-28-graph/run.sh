#!/bin/bash
# graph's transaction as the paper's (all neighbours) on the GPU: every engine that runs graph on
# check-gpu's graph configurations, verified; compute-sanitizer on the graph kernels; the numbers
# before (dist-base, a 7-neighbour split by default) and after; and the csmv-index-onlycs fix of
# the csmv-server branch (dist-csmv). Run from the repository root with OUT set.
set -u
G=dist/bin/gpubench; n=0; f=0
check() { # name, stm arguments...
	local name=$1; shift; n=$((n + 1))
	if "$G" stm --backend gpu --workload graph --reps 2 --warmup 1 --quiet "$@" > /tmp/g.out 2>&1; then
		echo "PASS $name" >> $OUT/graph-check.txt
	else
		f=$((f + 1)); echo "FAIL $name: $(tail -2 /tmp/g.out)" >> $OUT/graph-check.txt
	fi
}
for a in prstm gpustm gpustm-local; do
	check "$a paper's sizes, 15 edges a transaction" --algo $a --threads 6720 --edges-per-tx 15
	check "$a 1M vertices, all neighbours" --algo $a --threads 6720 --edges 1500000
	check "$a 2000 dense vertices, 7 edges, hash 4" --algo $a --threads 1536 --vertices 2000 --edges 50000 --edges-per-tx 7 --hash 4
	check "$a 2000 vertices, all neighbours, hash 4" --algo $a --threads 1536 --vertices 2000 --edges 3000 --hash 4
	check "$a 100000 vertices, 3 edges a transaction" --algo $a --threads 6720 --vertices 100000 --edges 1000000 --edges-per-tx 3
done
"$G" stm --backend gpu --workload graph --algo prstm --threads 6720 > /tmp/g.out 2>&1
echo "default on the paper's graph: exit $? $(tail -1 /tmp/g.out)" >> $OUT/graph-check.txt
echo "graph-check: $((n - f)) passed, $f failed" >> $OUT/graph-check.txt
n=0; f=0
for a in prstm gpustm gpustm-local; do for t in memcheck racecheck synccheck initcheck; do
	for e in "--edges 1200" "--edges 3000 --edges-per-tx 7"; do
		n=$((n + 1))
		compute-sanitizer --tool $t --error-exitcode 9 --print-limit 5 $G stm --backend gpu --algo $a \
			--workload graph --threads 512 --vertices 500 $e --reps 1 --warmup 0 --quiet > /tmp/s.log 2>&1 ||
			{ f=$((f + 1)); echo "FAIL $t $a $e: $(tail -3 /tmp/s.log)" >> $OUT/sanitize-graph.txt; }
	done
done; done
echo "sanitize-graph: $((n - f)) passed, $f failed" >> $OUT/sanitize-graph.txt
for ro in 10 50 90; do
	dist-csmv/bin/gpubench stm --backend gpu --algo csmv-index-onlycs --threads 1792 --block-size 64 --accounts 6000 \
		--semantic-ratio 0 --read-only $ro --read-only-size 6000 --tx-per-thread 20 --quiet > /tmp/c.out 2>&1
	echo "csmv-index-onlycs, $ro% read-only: exit $? $(tail -1 /tmp/c.out)" >> $OUT/csmv-fix.txt
done
mkdir -p /tmp/gr
B=(--backend gpu --workload graph --threads 6720 --reps 3 --quiet)
dist-base/bin/gpubench stm "${B[@]}" --algo prstm --compare gpustm --json /tmp/gr/before-default7.json
$G stm "${B[@]}" --algo prstm --compare gpustm,gpustm-local --edges-per-tx 7 --json /tmp/gr/after-7.json
$G stm "${B[@]}" --algo prstm --compare gpustm,gpustm-local --edges-per-tx 15 --json /tmp/gr/after-15.json
$G stm "${B[@]}" --algo prstm --compare gpustm,gpustm-local --edges 1500000 --json /tmp/gr/after-all-1.5M-edges.json
python3 results/h200-2026-11-28-fidelity/summarize.py /tmp/gr > $OUT/graph-summary.md 2>&1
tar czf $OUT/graph-reports.tgz -C /tmp gr
