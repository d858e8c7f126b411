#!/usr/bin/env bash
# Figure 2 of Nunes et al. ("Debunking the CPU+GPU processing with transactional
# memory", section V), MemcachedGPU: throughput as the cache's associativity
# grows from 4 to 256 ways at 1M items, keys drawn from a zipfian popularity,
# 99.8% GETs (read-only transactions that scan a set) and 0.2% SETs. The
# workload is docs/stm.md's "The memcached workload"; everything else is in
# scripts/lib/stmfig.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/stmfig.sh
. "$here/lib/stmfig.sh"

fig_name=csmv-fig2
fig_title="CSMV Figure 2: memcached throughput against the associativity of the cache"
fig_axis=ways
fig_axis_label="ways (associativity)"
fig_points=4,8,16,32,64,128,256
fig_quick_points=4,16
fig_fixed=(--items 1048576 --threads 1792 --block-size 64 --set-permille 2)
fig_quick_fixed=(--items 1024 --keys 2048 --threads 96 --block-size 32 --set-permille 20)
fig_quick_sizes="--tx-per-thread 20"
fig_logx=1
fig_workloads=memcached
fig_algos=csmv,csmv-nocv,csmv-onlycs,csmv-index,jvstm,jvstm-gpu,prstm
fig_paper_algos=csmv,jvstm-gpu,prstm
fig_metrics="throughput abort_rate"
fig_panel_title="99.8% GETs, zipfian keys"
stmfig_panels=("A")
fig_panels_about="One panel, A: the associativity swept (memcached has no semantic conflicts to
presort, and its GET share is --set-permille, not --read-only)."
fig_algos_about="Engines: CSMV, its ablations, JVSTM on CPU threads (jvstm, the host baseline;
with --backend gpu it still runs on the CPU) and JVSTM-GPU (jvstm-gpu, JVSTM
ported directly to the GPU; on the CPU backend it runs jvstm's algorithm) and
PR-STM, which keeps a read set for GETs (up to 4 x --ways + 8 words in the
paper's layout of 16-byte keys and 32-byte values) and logs the reads past its
set in global memory. GPU-STM runs only the compact layout (one word a key and
a value), up to 15 ways (gpubench stm exits 2 otherwise): to draw it, run
--algos prstm,gpustm --ways 4,8 --out DIR -- --key-words 1 --value-words 1
into a folder of its own."
fig_about="Figure 2 of Nunes et al. (CSMV, section V): MemcachedGPU's cache of 1M items,
16-byte keys and 32-byte values (4 and 8 words), keys of a zipfian popularity, 99.8% GETs, 1792 threads in blocks of 64,
throughput and abort rate as the associativity grows from 4 to 256 ways."
stmfig_main "$@"
