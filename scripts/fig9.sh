#!/usr/bin/env bash
# Figure 9 of Shen et al. 2020 (PR-STM), bank and vacation: committed
# transactions per second as the ratio of semantic transactions grows from 0%
# to 100%, 6720 threads, hash 1; panels A-D and everything else in
# scripts/lib/stmfig.sh. The printed caption swaps the presort panels; the text
# (twice) has A and B unsorted, C and D sorted, as in Figures 7 and 8, and so
# do we. Beside PR-STM and GPU-STM, PR-STM without its semantic contention
# manager (prstm-nocm), the baseline of the manager's cost, which the paper
# discusses with this figure (section 4.3) and in section 3.4. Vacation's
# semantic ratio is that of its bookings against its price changes
# (docs/stm.md).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig9
fig_title="Figure 9: throughput with increasing ratio of semantic transactions (6720 threads, hash 1)"
fig_axis=semantic-ratio
fig_axis_label="semantic transactions (% of update transactions)"
fig_points=0,5,10,25,50,75,100
fig_quick_points=0,100
fig_fixed=(--threads 6720 --hash 1)
fig_quick_fixed=(--threads 96 --hash 1)
fig_logx=0
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_about="Figure 9 of Shen et al. 2020 (PR-STM): bank and vacation throughput as the
share of semantic transactions grows, PR-STM and GPU-STM side by side."
fig_algos=prstm,prstm-nocm,gpustm,gpustm-local
# PR-STM without its manager is a series of the paper too: its overhead is measured against it
fig_paper_algos=prstm,prstm-nocm,gpustm
fig_algos_about="prstm-nocm is PR-STM without its semantic contention manager, the version
the paper measures the manager's 15% overhead against (section 3.4, Fig. 5A):
a semantic conflict retries in place. At 0% semantic the two PR-STMs differ
by the manager's cost alone; with semantic transactions and no presort, a
withdrawal whose deposit comes later in its own block never commits, and
--stall-timeout (1 s) abandons the rest of that block. Leave it out with
--algos prstm,gpustm,gpustm-local."
stmfig_main "$@"
