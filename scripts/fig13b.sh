#!/usr/bin/env bash
# Figure 13, graph B, of Shen et al. 2020 (PR-STM), graph: committed transactions
# per second as one lock covers more data words (--hash) at 1536 threads
# (sections 4.6-4.9).
# graph has no read-only transactions and nothing to presort, so its one panel,
# A, is the paper's one graph; everything else is in scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig13b
fig_title="Figure 13B: graph throughput with increasing lock coverage (1536 threads)"
fig_axis=hash
fig_axis_label="hash: data words covered by one lock"
fig_points=1,2,4,8,16,32,64,128,256
fig_quick_points=1,8
fig_fixed=(--threads 1536)
fig_quick_fixed=(--threads 96)
fig_logx=1
fig_workloads=graph
stmfig_panels=("A")
fig_panels_about="One panel, A: no presort, no read-only transactions (graph has neither)."
fig_about="Figure 13, graph B, of Shen et al. 2020 (PR-STM): graph throughput as one lock
covers more data words (--hash) at 1536 threads, PR-STM and GPU-STM side by side."
stmfig_main "$@"
