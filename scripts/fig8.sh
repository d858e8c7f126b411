#!/usr/bin/env bash
# Figure 8 of Shen et al. 2020 (PR-STM), bank and vacation: committed
# transactions per second as the lock coverage (--hash, data words per lock)
# grows, 6720 threads, 100% semantic transactions; panels A-D and everything
# else in scripts/lib/stmfig.sh. The paper does not print its hash values;
# powers of two from 1 to 256 span one word per lock to many.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=fig8
fig_title="Figure 8: throughput with increasing lock coverage (6720 threads, 100% semantic)"
fig_axis=hash
fig_axis_label="hash: data words covered by one lock"
fig_points=1,2,4,8,16,32,64,128,256
fig_quick_points=1,8
fig_fixed=(--threads 6720 --semantic-ratio 100)
fig_quick_fixed=(--threads 96 --semantic-ratio 100)
fig_logx=1
# each point at least 1 s of device time a repetition, 5 repetitions (--paper: 5 s x 10)
fig_protocol=(--duration 1 --reps 5)
fig_about="Figure 8 of Shen et al. 2020 (PR-STM): bank and vacation throughput as one
lock covers more data words (--hash), PR-STM and GPU-STM side by side."
stmfig_main "$@"
