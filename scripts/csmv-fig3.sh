#!/usr/bin/env bash
# Figure 3 of Nunes et al. ("Debunking the CPU+GPU processing with transactional
# memory", section IV-C): the ablations of CSMV on the bank of Figure 1 (6000
# accounts, 28 blocks of 64 threads, read-only transactions that sum every
# account), throughput as the share of read-only transactions grows: CSMV,
# CSMV-NoCV (no collaborative validation) and CSMV-onlyCS (only the client-server
# design) on the paper's server, and JVSTM-GPU, which the paper draws beside them
# ("We include in the plots also CSMV and JVSTM-GPU"), and csmv-index (CSMV on a
# server whose ATR is indexed by word). Everything else is in scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=csmv-fig3
fig_title="CSMV Figure 3: bank throughput of the CSMV ablations against the share of read-only transactions"
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
fig_algos=csmv,csmv-nocv,csmv-onlycs,jvstm-gpu,csmv-index
fig_paper_algos=csmv,csmv-nocv,csmv-onlycs,jvstm-gpu
fig_panel_title="every inquiry sums every account"
stmfig_panels=("A")
fig_panels_about="One panel, A: no presort, the read-only share swept (the paper's bank has no
semantic chains to presort)."
fig_algos_about="Engines: CSMV, CSMV-NoCV and CSMV-onlyCS (section IV-C) on the paper's server,
and JVSTM-GPU (jvstm-gpu, JVSTM ported directly to the GPU; on the CPU backend it
runs jvstm's algorithm), as the paper draws them; csmv-index, CSMV on the server
with the ATR indexed by word (--algos with csmv-index-nocv,csmv-index-onlycs adds
its ablations); --algos ...,jvstm adds JVSTM on CPU threads. The abort rates are
Figure 1's (the paper omits them)."
fig_about="Figure 3 of Nunes et al. (CSMV, section IV-C): the bank of Figure 1, throughput
of CSMV, its ablations and JVSTM-GPU as the read-only share grows from 1% to 99%."
stmfig_main "$@"
