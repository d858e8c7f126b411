#!/usr/bin/env bash
# Figure 10 of Shen et al. 2020 (PR-STM), skiplist: committed transactions per
# second as threads grow from 960 to 9600, hash 1 (section 4.5); panels A-D and
# everything else in scripts/lib/stmfig.sh. The skiplist has no semantic
# transactions and presorting changes nothing in it (docs/stm.md), so C and D
# repeat A and B, as the paper's panels do.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig10
fig_title="Figure 10: skiplist throughput with increasing threads (hash 1)"
fig_axis=threads
fig_axis_label="threads"
fig_points=960,1920,2880,3840,4800,5760,6720,7680,8640,9600
fig_quick_points=96,192
fig_fixed=(--hash 1)
fig_quick_fixed=("${fig_fixed[@]}")
fig_logx=0
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_workloads=skiplist
fig_about="Figure 10 of Shen et al. 2020 (PR-STM): skiplist throughput as the number of
threads grows, PR-STM and GPU-STM side by side."
stmfig_main "$@"
