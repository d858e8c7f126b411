#!/usr/bin/env bash
# Figure 11 of Shen et al. 2020 (PR-STM), skiplist: committed transactions per
# second as the lock coverage (--hash) grows, 1536 threads (section 4.5); panels
# A-D and everything else in scripts/lib/stmfig.sh. The paper does not print
# its hash values; powers of two from 1 to 256, as Figure 8.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig11
fig_title="Figure 11: skiplist throughput with increasing lock coverage (1536 threads)"
fig_axis=hash
fig_axis_label="hash: data words covered by one lock"
fig_points=1,2,4,8,16,32,64,128,256
fig_quick_points=1,8
fig_fixed=(--threads 1536)
fig_quick_fixed=(--threads 96)
fig_logx=1
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_workloads=skiplist
fig_about="Figure 11 of Shen et al. 2020 (PR-STM): skiplist throughput as one lock covers
more data words (--hash) at 1536 threads, PR-STM and GPU-STM side by side."
stmfig_main "$@"
