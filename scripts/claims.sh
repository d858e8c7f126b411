#!/usr/bin/env bash
# The verdict on every quantitative claim of the five documents (docs/claims.md)
# from the reports of one run of scripts/reproduce-all.sh (which calls this at
# its end): DIR/claims.md and DIR/claims.csv. The rules that measure each claim
# are scripts/lib/claims_rules.py; the verdicts scripts/lib/claims.py.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/lib/sweep.sh
. "$here/lib/sweep.sh"

usage() {
	cat <<'EOF'
usage: scripts/claims.sh --run DIR

Reads the complete, verified reports of DIR, a folder scripts/reproduce-all.sh
wrote (DIR/fig7/, DIR/csmv-fig1/, DIR/speculate-figures/reports/, ...; a
results/ folder of a reference run), and writes DIR/claims.md and
DIR/claims.csv: for every claim of docs/claims.md, its section, the paper's
value, ours, ours over the paper's, the verdict (reproduced, reproduced in
direction only, differs, not run) and how ours was measured; for a claim that
differs, the reason docs/claims.md lists as measured, with its section, or
"reason not measured". A claim whose reports the run lacks is "not run".

  --run DIR      the run's folder (default results/local/reproduce-all)
  -h, --help     this text

claims.csv columns: id, document, section, claim, paper (as docs/claims.md
words it), ours, ratio (ours / the paper's number, where it has one), verdict,
detail (what ours is: the points, engines and values it comes from), reason,
reason_link (the docs section where the reason was measured).

Exit status: 0 when the files were written, 1 otherwise, 2 on a usage error.
EOF
}

run=results/local/reproduce-all
while [[ $# -gt 0 ]]; do
	case $1 in
	--run) need_value "$@"; run=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die_usage "unknown option '$1'" ;;
	esac
done
command -v python3 >/dev/null || { echo "claims.sh: python3 is required" >&2; exit 1; }
[[ -d $run ]] || { echo "claims.sh: no folder '$run'" >&2; exit 1; }
python3 "$here/lib/claims.py" judge "$run" >&2
