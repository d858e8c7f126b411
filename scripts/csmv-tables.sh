#!/usr/bin/env bash
# Tables I to IV of Nunes et al. (CSMV): an update transaction's commit phases
# (Tables I and III) and the total and wasted time per transaction (Tables II
# and IV), on the bank over the share of read-only transactions and on
# memcached over the ways, built from the runs of Figures 1 and 2
# (scripts/csmv-fig1.sh and scripts/csmv-fig2.sh), as the paper's tables are.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"

usage() {
	cat <<'EOF2'
usage: scripts/csmv-tables.sh [options] [-- extra gpubench stm options]

Runs scripts/csmv-fig1.sh into DIR/fig1 and scripts/csmv-fig2.sh into
DIR/fig2, or the folders --fig1 and --fig2 name (every engine of those
figures: csmv, csmv-nocv, csmv-onlycs, csmv-index, jvstm, jvstm-gpu and prstm; a
point whose verified report is already there is kept), then builds
DIR/csmv-tables.md and DIR/csmv-tables.csv from their reports:
  Table I   (bank) and Table III (memcached): an update transaction's commit
            for the multi-versioned engines, in microseconds per committed
            update: for CSMV's, waiting for the other lanes of its group
            (divergence), pre-validation, waiting for the server's answer (the
            server's validation and record insert happen then), write-back;
            for jvstm and jvstm-gpu, which commit without a server,
            validation, record insert and write-back (their divergence is not
            measured)
  Table II  (bank) and Table IV (memcached): total and wasted time per
            committed transaction for every engine
jvstm is JVSTM on CPU threads; jvstm-gpu is the paper's JVSTM-GPU; prstm, which
keeps no versions, has Table II and IV rows only.

  --gpubench PATH   binary to run (default: dist/bin/gpubench if present, else
                    ./gpubench)
  --out DIR         where the figures' folders and the tables go (default
                    results/local/csmv-tables)
  --backend B       gpu, cpu or auto, for both figures (default auto; --quick:
                    cpu)
  --quick           the figures' tiny sizes, for CI
  --fig1 DIR1       Figure 1's folder (default DIR/fig1)
  --fig2 DIR2       Figure 2's folder (default DIR/fig2)
  --tables-only     run nothing: build the tables from the reports already in
                    the figures' folders (e.g. fetched from a GPU machine)
  --gpus LIST       comma-separated GPU indices (e.g. 0,1): both figures run
                    their points side by side, one process a GPU (see
                    scripts/csmv-fig1.sh --help)
  -h, --help        this text

Options after -- go to every gpubench stm run of both figures. Every run must
be complete and verified. Exit status: 0 when every run succeeded and
verified, 1 otherwise, 2 on a usage error.
EOF2
}

gpubench=""
out="results/local/csmv-tables"
backend=""
quick=0
tables_only=0
fig1=""
fig2=""
gpus=""
extra=()
while [[ $# -gt 0 ]]; do
	case $1 in
	--gpubench) need_value "$@"; gpubench=$2; shift 2 ;;
	--out) need_value "$@"; out=$2; shift 2 ;;
	--backend)
		need_value "$@"
		case $2 in gpu | cpu | auto) backend=$2 ;; *) die_usage "--backend: '$2' is not gpu, cpu or auto" ;; esac
		shift 2
		;;
	--quick) quick=1; shift ;;
	--fig1) need_value "$@"; fig1=$2; shift 2 ;;
	--fig2) need_value "$@"; fig2=$2; shift 2 ;;
	--tables-only) tables_only=1; shift ;;
	--gpus) sweep_set_gpus "$@"; gpus=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	--) shift; extra=("$@"); break ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done

fig1=${fig1:-$out/fig1}
fig2=${fig2:-$out/fig2}
mkdir -p "$out"
if [[ $tables_only == 0 ]]; then
	sweep_gpubench
	args=(--gpubench "$gpubench")
	[[ -n $backend ]] && args+=(--backend "$backend")
	[[ $quick == 1 ]] && args+=(--quick)
	[[ -z $gpus ]] || args+=(--gpus "$gpus")
	echo "$sweep_name: Figure 1: scripts/csmv-fig1.sh --out $fig1 ${args[*]}"
	bash "$here/csmv-fig1.sh" "${args[@]}" --out "$fig1" -- "${extra[@]}"
	echo "$sweep_name: Figure 2: scripts/csmv-fig2.sh --out $fig2 ${args[*]}"
	bash "$here/csmv-fig2.sh" "${args[@]}" --out "$fig2" -- "${extra[@]}"
fi
python3 "$here/lib/csmv_tables.py" "$out" "$fig1" "$fig2"
