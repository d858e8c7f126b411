#!/usr/bin/env bash
# Figure 12, graph A, of Shen et al. 2020 (PR-STM), kmeans: committed transactions
# per second as the number of threads grows (hash 1) (sections 4.6-4.9).
# kmeans has no read-only transactions and nothing to presort, so its one panel,
# A, is the paper's one graph; everything else is in scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig12a
fig_title="Figure 12A: kmeans throughput with increasing threads (hash 1)"
fig_axis=threads
fig_axis_label="threads"
fig_points=960,1920,2880,3840,4800,5760,6720,7680,8640,9600
fig_quick_points=96,192
fig_fixed=(--hash 1)
fig_quick_fixed=("${fig_fixed[@]}")
fig_logx=0
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_workloads=kmeans
stmfig_panels=("A")
fig_panels_about="One panel, A: no presort, no read-only transactions (kmeans has neither)."
fig_about="Figure 12, graph A, of Shen et al. 2020 (PR-STM): kmeans throughput as the number
of threads grows (hash 1), PR-STM and GPU-STM side by side."
stmfig_main "$@"
