#!/usr/bin/env bash
# Figure 12, graph B, of Shen et al. 2020 (PR-STM), kmeans: committed transactions
# per second as one lock covers more data words (--hash) at 6720 threads, as
# section 4.7 says ("in experiments of manipulating hash number, the thread
# number was set at 6720"; Figures 11 and 13 B are at 1536).
# kmeans's data words are 3 per cluster (48 at the paper's 16 clusters), so the
# hash goes up to 48, in steps that keep a cluster's words under one lock or not.
# kmeans has no read-only transactions and nothing to presort, so its one panel,
# A, is the paper's one graph; everything else is in scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig12b
fig_title="Figure 12B: kmeans throughput with increasing lock coverage (6720 threads)"
fig_axis=hash
fig_axis_label="hash: data words covered by one lock"
fig_points=1,2,3,6,12,24,48
fig_quick_points=1,3
fig_fixed=(--threads 6720)
fig_quick_fixed=(--threads 96)
fig_logx=1
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_workloads=kmeans
stmfig_panels=("A")
fig_panels_about="One panel, A: no presort, no read-only transactions (kmeans has neither)."
fig_about="Figure 12, graph B, of Shen et al. 2020 (PR-STM): kmeans throughput as one lock
covers more data words (--hash) at 6720 threads, PR-STM and GPU-STM side by side."
stmfig_main "$@"
