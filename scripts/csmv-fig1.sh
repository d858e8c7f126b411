#!/usr/bin/env bash
# Figure 1 of Nunes et al. ("Debunking the CPU+GPU processing with transactional
# memory", section IV-B), the bank: throughput (1a) and abort rate (1b) as the
# share of read-only transactions grows from 1% to 99%. 6000 accounts, 28 blocks
# of 64 threads, read-only transactions that sum every account, update
# transactions that transfer between two accounts (no semantic chains: the
# paper's bank has none). Everything else is in scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=csmv-fig1
fig_title="CSMV Figure 1: bank throughput and abort rate against the share of read-only transactions"
fig_axis=read-only
fig_axis_label="read-only transactions (%)"
fig_points=1,10,25,50,75,90,99
fig_quick_points=10,90
# --initial-balance: the generator keeps every transfer possible in any order, so 177k transfers
# over 6000 accounts need more than the default 1000 a account
fig_fixed=(--accounts 6000 --threads 1792 --block-size 64 --semantic-ratio 0 --transfers-per-tx 1
	--read-only-size 6000 --initial-balance 1000000)
fig_quick_fixed=(--accounts 300 --threads 96 --block-size 32 --semantic-ratio 0 --transfers-per-tx 1
	--read-only-size 300)
fig_quick_sizes="--tx-per-thread 20"
fig_logx=0
fig_workloads=bank
fig_algos=csmv,csmv-nocv,csmv-onlycs,csmv-index,jvstm,jvstm-gpu,prstm
fig_paper_algos=csmv,jvstm,jvstm-gpu,prstm
fig_metrics="throughput abort_rate"
fig_panel_title="every inquiry sums every account"
stmfig_panels=("A")
fig_panels_about="One panel, A: no presort, the read-only share swept (the paper's bank has no
semantic chains to presort)."
fig_algos_about="Engines: CSMV, its ablations, JVSTM on CPU threads (jvstm, the host baseline;
with --backend gpu it still runs on the CPU) and JVSTM-GPU (jvstm-gpu, JVSTM
ported directly to the GPU; on the CPU backend it runs jvstm's algorithm) and
PR-STM, the paper's single-versioned STM, which logs an inquiry's reads past its
8-word set in global memory and validates all 6000 at commit. GPU-STM is left
out: its read set holds 8 words (gpubench stm exits 2 on longer inquiries); to
draw it at 8 accounts per inquiry, run --algos prstm,gpustm --out DIR --
--read-only-size 8 into a folder of its own."
fig_about="Figure 1 of Nunes et al. (CSMV, section IV-B): the bank with 6000 accounts,
1792 threads in blocks of 64, read-only transactions summing every account,
throughput and abort rate as the read-only share grows from 1% to 99%."
stmfig_main "$@"
