#!/usr/bin/env bash
# Figure 7 of Shen et al. 2020 (PR-STM), bank and vacation: committed
# transactions per second as threads grow from 960 to 9600, 100% semantic
# transactions, hash 1; panels A-D and everything else in scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig7
fig_title="Figure 7: throughput with increasing threads (100% semantic, hash 1)"
fig_axis=threads
fig_axis_label="threads"
fig_points=960,1920,2880,3840,4800,5760,6720,7680,8640,9600
fig_quick_points=96,192
fig_fixed=(--semantic-ratio 100 --hash 1)
fig_quick_fixed=("${fig_fixed[@]}")
fig_logx=0
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_about="Figure 7 of Shen et al. 2020 (PR-STM): bank and vacation throughput as the
number of threads grows, PR-STM and GPU-STM side by side."
stmfig_main "$@"
