#!/usr/bin/env bash
# Figure 13, graph A, of Shen et al. 2020 (PR-STM), graph: committed transactions
# per second as the number of threads grows (hash 1) (sections 4.6-4.9).
# graph has no read-only transactions and nothing to presort, so its one panel,
# A, is the paper's one graph; everything else is in scripts/lib/stmfig.sh.
# The paper's graph (1 million vertices, 10 million edges: gpubench's default
# sizes) has degrees past 40, and a transaction that sends to all of a vertex's
# neighbours (the paper's, gpubench's default) needs sets of 1 + the degree
# words (47 at the default seed): this runs it, on the engines' 64-word builds
# (measured on an H200: docs/fidelity.md). -- --edges-per-tx 15 runs our bounded
# variant, each vertex's neighbours split over transactions of at most 15.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig13a
fig_title="Figure 13A: graph throughput with increasing threads (hash 1)"
fig_axis=threads
fig_axis_label="threads"
fig_points=960,1920,2880,3840,4800,5760,6720,7680,8640,9600
fig_quick_points=96,192
fig_fixed=(--hash 1)
fig_quick_fixed=("${fig_fixed[@]}")
fig_logx=0
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_workloads=graph
stmfig_panels=("A")
fig_panels_about="One panel, A: no presort, no read-only transactions (graph has neither)."
fig_about="Figure 13, graph A, of Shen et al. 2020 (PR-STM): graph throughput as the number
of threads grows (hash 1), PR-STM and GPU-STM side by side.
The paper's graph (1M vertices, 10M edges) with the paper's transaction: a vertex's
value sent to all its neighbours (largest degree 46, transactions of 47 words, on
the engines' 64-word builds). Our bounded variant, each vertex's neighbours split
over transactions of at most 15 words: -- --edges-per-tx 15 (into an --out of its own)."
stmfig_main "$@"
