#!/usr/bin/env bash
# gpubench's test driver (make test): the layering of the includes
# (tests/layers.sh), the unit tests, the CLI tests on the CUDA build and on
# the CPU-only build, the speculate CLI tests, the harness tests
# (tests/cli-harness.sh, on both builds), the device and CPU tests
# (tests/cli-devices.sh), export (tests/cli-export.sh), make install and
# uninstall with the manual page and completion (tests/install.sh),
# --emit-slurm's job arrays (tests/slurm.sh), the sweeps' --gpus
# (tests/sweep-gpus.sh), the reliability tests (tests/cli-reliability.sh:
# --timeout, signals, outputs, options, failures), the compare and
# benchmark-suite tests, the figure
# and table scripts in --quick mode (fig7, fig8, fig9, pba-tables, detect-tables,
# speculate-figures) and the thesis's numbers beside them, the claims script
# (scripts/claims.sh) and the resumable sweeps (sweep.sh, reproduce-all.sh), a parse of the GPU
# scripts, and a smoke test of the CPU-only binary. Run from the repository
# root. GPUBENCH (default ./gpubench), GPUBENCH_NOCUDA (default
# build/nocuda/gpubench) and UNIT_TESTS (default build/unit_tests) name the
# binaries. The last line is "N passed, N failed" over every suite; the exit
# status is 1 when anything failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
GN=${GPUBENCH_NOCUDA:-build/nocuda/gpubench}
UNIT=${UNIT_TESTS:-build/unit_tests}
total_pass=0
total_fail=0

# run_suite LABEL CMD...: run a suite whose last line is "LABEL: N passed, N failed".
# A suite that ends without that line, or fails without counting a failure,
# counts as one more failure.
run_suite() {
	local label=$1 rc line p f
	shift
	echo "== $label: $*"
	"$@" >"$T_TMP/suite.log" 2>&1
	rc=$?
	grep -v "^$label: [0-9]* passed, [0-9]* failed\$" "$T_TMP/suite.log"
	line=$(tail -n 1 "$T_TMP/suite.log")
	if [[ $line =~ ^$label:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		p=${BASH_REMATCH[1]}
		f=${BASH_REMATCH[2]}
		if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
			echo "FAIL $label exited $rc with no failure counted"
			f=1
		fi
		if [ "$rc" -eq 0 ] && [ "$f" -ne 0 ]; then
			echo "FAIL $label counted $f failures but exited 0"
		fi
	else
		echo "FAIL $label ended without its summary line (exit status $rc)"
		p=0
		f=1
	fi
	echo "$label: $p passed, $f failed"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

cd "$root" || exit 1

run_suite layers "$here/layers.sh"
run_suite unit "$UNIT"
run_suite cli env GPUBENCH="$G" "$here/cli.sh"
if [ -x "$GN" ]; then
	run_suite cli env GPUBENCH="$GN" "$here/cli.sh"
fi
run_suite speculate env GPUBENCH="$G" "$here/speculate.sh"
if [ -x "$GN" ]; then
	run_suite speculate env GPUBENCH="$GN" "$here/speculate.sh"
fi
run_suite cli-list env GPUBENCH="$G" "$here/cli-list.sh"
if [ -x "$GN" ]; then
	run_suite cli-list env GPUBENCH="$GN" "$here/cli-list.sh"
fi
run_suite compare env GPUBENCH="$G" "$here/compare.sh"
run_suite cli-harness env GPUBENCH="$G" "$here/cli-harness.sh"
if [ -x "$GN" ]; then
	run_suite cli-harness env GPUBENCH="$GN" "$here/cli-harness.sh"
fi
run_suite cli-devices env GPUBENCH="$G" GPUBENCH_NOCUDA="$GN" "$here/cli-devices.sh"
run_suite cli-export env GPUBENCH="$G" "$here/cli-export.sh"
run_suite install "$here/install.sh"
run_suite slurm env GPUBENCH="$G" "$here/slurm.sh"
run_suite gpus env GPUBENCH="$G" "$here/sweep-gpus.sh"
run_suite cli-reliability env GPUBENCH="$G" "$here/cli-reliability.sh"

# ---- the STM figures (scripts/fig7.sh to fig13b.sh, csmv-fig1.sh,
# csmv-fig2.sh and csmv-fig3.sh) --quick: a row per workload, engine, panel and point, every one
# verified; --plot-only rebuilds the same CSV; an unverified run or a report
# from another sweep is refused (csmv-fig2's x, the ways, is no column of its own)
for fig in fig7 fig8 fig9 fig10 fig11 fig12a fig12b fig13a fig13b csmv-fig1 csmv-fig2 csmv-fig3; do
	panels=4 algos=prstm,gpustm,gpustm-local
	case $fig in
	fig10 | fig11) wls=skiplist ;;
	fig12*) wls=kmeans panels=1 ;;
	fig13*) wls=graph panels=1 ;;
	csmv-fig1) wls=bank panels=1 algos=csmv,csmv-nocv,csmv-onlycs,csmv-index,jvstm,jvstm-gpu,prstm ;;
	csmv-fig2) wls=memcached panels=1 algos=csmv,csmv-nocv,csmv-onlycs,csmv-index,jvstm,jvstm-gpu,prstm ;;
	csmv-fig3) wls=bank panels=1 algos=csmv,csmv-nocv,csmv-onlycs,jvstm-gpu,csmv-index ;;
	fig9) wls=bank,vacation algos=prstm,prstm-nocm,gpustm,gpustm-local ;;
	*) wls=bank,vacation ;;
	esac
	echo "== $fig: scripts/$fig.sh --quick"
	out=$T_TMP/$fig
	expect_rc "$fig.sh --quick exits 0" 0 bash scripts/$fig.sh --quick --gpubench "$G" --out "$out"
	check "$fig.md exists" test -s "$out/$fig.md"
	if command -v gnuplot >/dev/null 2>&1; then
		check "$fig.png exists (gnuplot is installed)" test -s "$out/$fig.png"
	fi
	check "$fig.csv starts with its header" grep -q '^workload,algo,panel,presort,read_only,x,threads,hash,semantic_ratio,throughput_median,' "$out/$fig.csv"
	# its workloads x its engines x its panels x 2 points, each verified, each panel what its
	# letter says (the read-only share is the x of the CSMV figures)
	check "$fig.csv has a verified row per workload ($wls), engine ($algos), panel ($panels) and point" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
wls, algos = sys.argv[3].split(","), sys.argv[5].split(",")
assert len(rows) == len(algos) * 2 * int(sys.argv[4]) * len(wls), len(rows)
assert {(r["workload"], r["algo"]) for r in rows} == {(w, a) for w in wls for a in algos}
for r in rows:
    assert r["verified"] == "true" and float(r["throughput_median"]) > 0, r
    ro = r["x"] if sys.argv[2] == "read_only" else {"A": "0", "B": "20", "C": "0", "D": "20"}[r["panel"]]
    assert (r["presort"], r["read_only"]) == ({"C": "1", "D": "1"}.get(r["panel"], "0"), ro), r
    # the read-only panels 20% of the threads, the CSMV figures a share of every block
    assert r["read_only_threads"] == ("1" if r["panel"] in "BD" and sys.argv[2] != "read_only" else "0"), r
    assert r["x"] == r[sys.argv[2]], r
' "$out/$fig.csv" "$(case $fig in fig7 | fig10 | fig1?a) echo threads ;; fig8 | fig11 | fig1?b) echo hash ;; fig9) echo semantic_ratio ;; csmv-fig2) echo x ;; csmv-*) echo read_only ;; esac)" "$wls" "$panels" "$algos"
	cp "$out/$fig.csv" "$T_TMP/$fig-first.csv"
	expect_rc "$fig.sh --plot-only exits 0" 0 bash scripts/$fig.sh --plot-only --out "$out"
	check "$fig.sh --plot-only rebuilds the same CSV" cmp "$T_TMP/$fig-first.csv" "$out/$fig.csv"
done
# ---- scripts/csmv-tables.sh: Tables I to IV from the quick Figures 1 and 2 above
ct=$T_TMP/csmv-tables
mkdir -p "$ct"
ln -s "$T_TMP/csmv-fig1" "$ct/fig1"
ln -s "$T_TMP/csmv-fig2" "$ct/fig2"
expect_rc "csmv-tables.sh --tables-only exits 0" 0 bash scripts/csmv-tables.sh --tables-only --out "$ct"
check "csmv-tables.md has Tables I to IV" test "$(grep -c '^## Table I*V*:' "$ct/csmv-tables.md")" = 4
check "csmv-tables.csv: a row per report, commit phases for the multi-versioned engines, totals adding up" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 28, len(rows)  # 7 engines x 2 points x 2 figures
assert {r["algo"] for r in rows} == {"csmv", "csmv-nocv", "csmv-onlycs", "csmv-index", "jvstm", "jvstm-gpu", "prstm"}, rows
for r in rows:
    server = r["algo"].startswith("csmv")
    assert (r["commit_total_us"] != "") == (r["algo"] != "prstm"), r
    assert float(r["time_per_tx_us"]) > 0 and float(r["wasted_per_tx_us"]) >= 0, r
    if server and int(r["commits_update"]):
        parts = sum(float(r[p + "_us"]) for p in ("divergence", "pre_validation", "wait_server", "write_back"))
        assert abs(parts - float(r["commit_total_us"])) <= 1e-6 * parts and float(r["wait_server_us"]) > 0, r
    if r["algo"].startswith("jvstm") and int(r["commits_update"]):
        # JVSTM commits without a server: validation, the record, the write-back; divergence not measured
        parts = sum(float(r[p + "_us"]) for p in ("validation", "record_insert", "write_back"))
        assert abs(parts - float(r["commit_total_us"])) <= 1e-6 * parts and float(r["validation_us"]) > 0, r
        assert r["divergence_us"] == r["wait_server_us"] == r["server_validation_us"] == "", r
' "$ct/csmv-tables.csv"
expect_rc "csmv-tables.sh --tables-only over folders with no reports exits 1" 1 \
	bash scripts/csmv-tables.sh --tables-only --out "$T_TMP/csmv-tables-none"
expect_rc "csmv-tables.sh --backend tpu exits 2" 2 bash scripts/csmv-tables.sh --backend tpu
check "fig9's quick points are 0% and 100% semantic" test "$(cut -d, -f9 "$T_TMP/fig9/fig9.csv" | tail -n +2 | sort -u | paste -sd' ')" = "0 100"
apos="it's a title"
check "a figure title with an apostrophe reaches gnuplot quoted" test "$(bash -c '. scripts/lib/stmfig.sh; stmfig_gp "$1"' _ "$apos")" = "it''s a title"
check "fig11 sweeps the skiplist's hash at 96 threads" test "$(cut -d, -f1,7,8 "$T_TMP/fig11/fig11.csv" | tail -n +2 | sort -u | paste -sd' ')" = "skiplist,96,1 skiplist,96,8"
check "fig10's skiplist reports have no semantic ratio" test "$(cut -d, -f9 "$T_TMP/fig10/fig10.csv" | tail -n +2 | sort -u | paste -sd' ')" = ""
check "csmv-fig1's inquiries read every account, no semantic chains, jvstm on the CPU" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
b = d["config"]["bank"]
assert b["read_only_size"] == b["accounts"] == 300 and d["config"]["semantic_ratio"] == 0, b
assert d["verification"]["read_only_results_checked"] == d["results"]["commits_read_only"] > 0, d["verification"]
' "$T_TMP/csmv-fig1/bank-jvstm-A-x90.json"
check "csmv-fig1 runs prstm's inquiries over every account (its read log)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
b = d["config"]["bank"]; r = d["results"]
assert d["config"]["algo"] == "prstm" and b["read_only_size"] == b["accounts"] == 300, b
assert d["verification"]["verified"] is True and r["commits_read_only"] > 0 and r["abandoned"] == 0, r
' "$T_TMP/csmv-fig1/bank-prstm-A-x90.json"
check "csmv-fig2 sweeps the ways of a 1024-item cache, GET results checked" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["config"]["memcached"]
assert m["ways"] == 16 and m["items"] == 1024 and m["sets"] == 64 and m["set_permille"] == 20, m
assert d["verification"]["read_only_results_checked"] == d["results"]["commits_read_only"] > 0, d["verification"]
' "$T_TMP/csmv-fig2/memcached-jvstm-A-x16.json"
check "fig8 sweeps the hash at 96 threads" test "$(cut -d, -f7,8 "$T_TMP/fig8/fig8.csv" | tail -n +2 | sort -u | paste -sd' ')" = "96,1 96,8"
# --duration and --reps replace the figure's protocol (fig7's: --duration 1 --reps 5)
expect_rc "fig7.sh --duration 0.05 --reps 2 exits 0" 0 bash scripts/fig7.sh --gpubench "$G" --backend cpu \
	--workloads bank --algos prstm --panels A --threads 16 --duration 0.05 --reps 2 --out "$T_TMP/fig7-short"
check "its run has the new protocol, each option once" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["meta"]["argv"]
assert a.count("--duration") == 1 and a[a.index("--duration") + 1] == "0.05", a
assert a.count("--reps") == 1 and a[a.index("--reps") + 1] == "2", a' "$T_TMP/fig7-short/bank-prstm-A-x16.json"
expect_rc "fig7.sh --reps 3 keeps the protocol's --duration 1" 0 bash scripts/fig7.sh --gpubench "$G" --backend cpu \
	--workloads bank --algos prstm --panels A --threads 16 --reps 1 --out "$T_TMP/fig7-reps" -- --accounts 64 --tx-per-thread 4
check "... with --reps 1 in place of 5" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["meta"]["argv"]
assert a[a.index("--duration") + 1] == "1" and a.count("--reps") == 1 and a[a.index("--reps") + 1] == "1", a' \
	"$T_TMP/fig7-reps/bank-prstm-A-x16.json"
for bad in "--duration 0" "--duration x" "--reps 0" "--duration 1 --paper" "--reps 2 --quick"; do
	# shellcheck disable=SC2086 # the options are split on purpose
	expect_rc "fig7.sh $bad exits 2" 2 bash scripts/fig7.sh $bad --out "$T_TMP/fig7-bad"
done
expect_rc "fig7.sh stops at a run that is not verified" 1 bash scripts/fig7.sh --quick --gpubench "$G" \
	--out "$T_TMP/fig7-noverify" --workloads bank --algos prstm --panels A -- --no-verify
expect_err "fig7.sh names the unverified run" "bank-prstm-A-x96 REJECTED" "not verified"
check "an unverified sweep builds nothing" test ! -e "$T_TMP/fig7-noverify/fig7.csv"
mkdir -p "$T_TMP/fig7-mixed"
cp "$T_TMP/fig7"/*.json "$T_TMP/fig7-mixed/"
"$G" stm --workload bank --algo prstm --backend cpu --threads 96 --semantic-ratio 100 --hash 2 --read-only 0 \
	--tx-per-thread 20 --accounts 20000 --reps 1 --quiet --json "$T_TMP/fig7-mixed/bank-prstm-A-x96.json"
expect_rc "fig7.sh --plot-only refuses reports of two sweeps" 1 bash scripts/fig7.sh --plot-only --out "$T_TMP/fig7-mixed"
expect_err "the refusal names the workload and both settings" "mixes bank reports of different settings" "--hash 2"
# --reps and --warmup say how long a point is measured, not what it measures: a point made again
# with one repetition and no warm-up stays in its figure, and the table says so
mkdir -p "$T_TMP/fig7-reps-mixed"
cp "$T_TMP/fig7"/*.json "$T_TMP/fig7-reps-mixed/"
check "a quick fig7 point made again with --reps 2 --warmup 0" python3 -c '
import json, subprocess, sys
g, path = sys.argv[1:]
a = json.load(open(path))["meta"]["argv"]
i = a.index("--reps")
a[i + 1] = "2"
a[a.index("--json") + 1] = path
subprocess.run([g] + a[:i] + ["--warmup", "0"] + a[i:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)' "$G" "$T_TMP/fig7-reps-mixed/bank-prstm-A-x96.json"
expect_rc "fig7.sh --plot-only keeps a point of other repetitions" 0 bash scripts/fig7.sh --plot-only --out "$T_TMP/fig7-reps-mixed"
check "... the markdown names its protocol and adds the reps column" python3 -c '
import sys
t = open(sys.argv[1]).read()
assert "the points\x27 repetitions differ (column reps)" in t and "`--warmup 0 --reps 2` for prstm at 96" in t, t
assert "| algo | threads | median tx/s | min tx/s | max tx/s | abort rate | abandoned | reps |" in t, t
bank_a = t.split("### bank A:")[1].split("###")[0]
reps = {l.split("|")[1].strip() + "@" + l.split("|")[2].strip(): l.split("|")[-2].strip()
        for l in bank_a.splitlines() if l.startswith("| ") and not l.startswith("| algo")}
assert reps["prstm@96"] == "2" and reps["prstm@192"] == "1" and reps["gpustm@96"] == "1", reps
assert "## vacation" in t and "the points\x27 repetitions" not in t.split("## vacation")[1], t' "$T_TMP/fig7-reps-mixed/fig7.md"
check "... and the CSV each point's repetitions" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert sorted((r["workload"], r["algo"], r["panel"], r["x"]) for r in rows if r["reps"] != "1") == [("bank", "prstm", "A", "96")], rows
assert [r["reps"] for r in rows if r["panel"] == "A" and r["x"] == "96" and r["algo"] == "prstm" and r["workload"] == "bank"] == ["2"], rows' \
	"$T_TMP/fig7-reps-mixed/fig7.csv"
sed -i 's/"verified":[[:space:]]*true/"verified": false/' "$T_TMP/fig7-mixed/bank-prstm-A-x96.json"
expect_rc "fig7.sh --plot-only refuses a report that failed verification" 1 \
	bash scripts/fig7.sh --plot-only --out "$T_TMP/fig7-mixed"
expect_err "the refusal names the report" "bank-prstm-A-x96.json: verification FAILED"
# panels B and D: 20% of the threads read-only (--read-only-threads), or with --read-only-mix blocks 20% of
# every thread's transactions; one folder cannot hold both
expect_rc "fig7.sh --read-only-mix blocks exits 0" 0 bash scripts/fig7.sh --gpubench "$G" --backend cpu \
	--workloads bank --algos prstm --panels B --threads 10 --reps 1 --duration 0.01 --read-only-mix blocks \
	--out "$T_TMP/fig7-mix" -- --accounts 200 --tx-per-thread 30
check "... its panel B mixes read-only transactions into every thread" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["read_only_threads"] is False and d["config"]["bank"]["read_only_thread_count"] == 0, d["config"]
assert d["config"]["bank"]["read_only_transactions"] == 60, d["config"]["bank"]' "$T_TMP/fig7-mix/bank-prstm-B-x10.json"
cp "$T_TMP/fig7-mix/bank-prstm-B-x10.json" "$T_TMP/fig7-mix-blocks.json"
expect_rc "fig7.sh's panel B by default: 2 of 10 threads read-only" 0 bash scripts/fig7.sh --gpubench "$G" \
	--backend cpu --workloads bank --algos prstm --panels B --threads 10 --reps 1 --duration 0.01 --out "$T_TMP/fig7-mix" \
	-- --accounts 200 --tx-per-thread 30
check "... as whole threads, the same 60 inquiries" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["read_only_threads"] is True and d["config"]["bank"]["read_only_thread_count"] == 2, d["config"]
assert d["config"]["bank"]["read_only_transactions"] == 60, d["config"]["bank"]' "$T_TMP/fig7-mix/bank-prstm-B-x10.json"
check "fig7.md says panel B's read-only transactions are threads" grep -q "^### bank B: no presort, 20% read-only threads" \
	"$T_TMP/fig7-mix/fig7.md"
cp "$T_TMP/fig7-mix-blocks.json" "$T_TMP/fig7-mix/bank-prstm-B-x11.json"
sed -i 's/"threads":[[:space:]]*10,/"threads": 11,/' "$T_TMP/fig7-mix/bank-prstm-B-x11.json"
expect_rc "fig7.sh --plot-only refuses a panel of both mixes" 1 bash scripts/fig7.sh --plot-only --out "$T_TMP/fig7-mix"
expect_err "the refusal names both" "bank panel B mixes no presort, 20% read-only threads and no presort, 20% read-only"
expect_rc "fig7.sh --read-only-mix rows exits 2" 2 bash scripts/fig7.sh --read-only-mix rows --out "$T_TMP/fig7-bad"
expect_rc "fig12a.sh --read-only-mix blocks exits 2 (no read-only panel)" 2 bash scripts/fig12a.sh --read-only-mix blocks \
	--out "$T_TMP/fig12a-bad"
expect_err "... and says so" "fig12a.sh has no panel with read-only transactions"
expect_rc "fig8.sh --help exits 0" 0 bash scripts/fig8.sh --help
expect_out "fig8.sh --help names its axis and fixed options" "--hash LIST" "--threads 6720 --semantic-ratio 100"
expect_out "fig8.sh --help offers --read-only-mix" "--read-only-mix M" "20% of the"

# ---- scripts/pba-tables.sh --quick: Tables 5.2-5.4 on the CPU implementations
echo "== pba: scripts/pba-tables.sh --quick"
out=$T_TMP/pba
expect_rc "pba-tables.sh --quick exits 0" 0 bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$out"
check "pba-tables.csv exists" test -s "$out/pba-tables.csv"
check "pba-tables.md exists" test -s "$out/pba-tables.md"
check "pba-tables.sh wrote one report per size" test -s "$out/reports/pba-R32-P128.json"
if command -v gnuplot >/dev/null 2>&1; then
	check "pba-speedup.png exists (gnuplot is installed)" test -s "$out/pba-speedup.png"
fi
if [ -s "$out/pba-tables.csv" ]; then
	header=$(sed -n 1p "$out/pba-tables.csv")
	if [[ $header == res,procs,impl,request_median_s,* ]]; then
		pass "pba-tables.csv starts with its header"
	else
		fail "pba-tables.csv starts with its header" "first line: $header"
	fi
	# --quick: resources 16,32 x processes 64,128 x cpu,cpu-fast
	rows=$(($(grep -cv '^[[:space:]]*$' "$out/pba-tables.csv") - 1))
	if [ "$rows" -eq 8 ]; then
		pass "pba-tables.csv has a row per size and implementation (8)"
	else
		fail "pba-tables.csv has a row per size and implementation (8)" "$(cat "$out/pba-tables.csv")"
	fi
	ncols=$(sed -n 1p "$out/pba-tables.csv" | awk -F, '{print NF}')
	check "pba-tables.csv rows have as many fields as the header" \
		awk -F, -v n="$ncols" 'NF && NF != n {bad=1} END {exit bad}' "$out/pba-tables.csv"
	check "pba-tables.csv times are positive, a stream no shorter than its request" \
		awk -F, 'NR > 1 && !($4 > 0 && $8 >= $4) {bad=1} END {exit bad}' "$out/pba-tables.csv"
fi
if [ -s "$out/pba-tables.md" ]; then
	tables=$(grep -c '^| processes |' "$out/pba-tables.md")
	if [ "$tables" -eq 2 ] && grep -q '^## 16 resources$' "$out/pba-tables.md" &&
		grep -q '^## 32 resources$' "$out/pba-tables.md"; then
		pass "pba-tables.md has one table per resource count"
	else
		fail "pba-tables.md has one table per resource count" "$(grep '^##\|^| processes' "$out/pba-tables.md")"
	fi
	check "pba-tables.md shows the GPU implementations it did not run, and thesis numbers it lacks, as -" \
		grep -q '^| 64 | - | - | [0-9.]* [um]*s | [0-9.]* [um]*s | - | - | - | - | - | - | - | - |$' "$out/pba-tables.md"
	check "pba-tables.md names the thesis columns" grep -q \
		'| thesis cpu | thesis K20c gpu-thesis | thesis K20c gpu-thesis over cpu | thesis best gpu-thesis over cpu |$' \
		"$out/pba-tables.md"
	check "pba-tables.md gives the unit of the thesis's run-times" \
		grep -q "^- the thesis's run-times are seconds" "$out/pba-tables.md"
fi
cp "$out/pba-tables.csv" "$T_TMP/pba-first.csv" 2>/dev/null
expect_rc "pba-tables.sh --plot-only exits 0" 0 bash scripts/pba-tables.sh --plot-only --out "$out"
check "pba-tables.sh --plot-only rebuilds the same CSV" cmp "$T_TMP/pba-first.csv" "$out/pba-tables.csv"
expect_rc "pba-tables.sh --procs x exits 2" 2 bash scripts/pba-tables.sh --procs x --out "$T_TMP/pba-bad"
expect_err "pba-tables.sh --procs x names the option" "--procs"
# At a size of Table 5.3 the thesis's numbers stand beside ours, as printed
# (512 x 512 on the K20c: CPU-PBA 0.05 s, GPU-PBA 0.02 s, 1.50x, its best).
expect_rc "pba-tables.sh at a thesis size exits 0" 0 bash scripts/pba-tables.sh --quick --res 512 --procs 512 \
	--gpubench "$G" --out "$T_TMP/pba-thesis"
check "pba-tables.md puts Table 5.3's numbers beside ours at 512 x 512" \
	grep -q '^| 512 | - | - | [0-9.]* [um]*s | [0-9.]* [um]*s | - | - | - | - | 0\.05 s | 0\.02 s | 1\.50x | 1\.50x (K20c) |$' \
	"$T_TMP/pba-thesis/pba-tables.md"

# ---- scripts/detect-tables.sh --quick: Tables 3.2-3.3 and 4.3-4.4 on the CPU detectors
echo "== detect: scripts/detect-tables.sh --quick"
out=$T_TMP/detect
expect_rc "detect-tables.sh --quick exits 0" 0 bash scripts/detect-tables.sh --quick --gpubench "$G" --out "$out"
expect_err "each point's line says how many points are to come, both algorithms counted first, and when they end" \
	"] detect-osdda-64-cpu-bits: " " s; 7 to go, about " " at this pace"
check "the last point's line has nothing to come" grep -q '\] detect-lmdda-32-cpu: .*, [0-9]* s$' "$T_ERR"
check "sweep_duration writes seconds, minutes, hours" \
	test "$(bash -c '. scripts/lib/sweep.sh; sweep_duration 45; sweep_duration 1500; sweep_duration 7500' | paste -sd/)" = \
	"45 s/25 min/2 h 5 min"
check "detect-tables.csv exists" test -s "$out/detect-tables.csv"
check "detect-tables.md exists" test -s "$out/detect-tables.md"
check "detect-tables.sh wrote one osdda report per size and detector" \
	test -s "$out/reports/detect-osdda-128-cpu-bits.json" -a -s "$out/reports/detect-osdda-128-cpu.json"
check "detect-tables.sh wrote one lmdda report per size and detector" \
	test -s "$out/reports/detect-lmdda-32-cpu-bits.json" -a -s "$out/reports/detect-lmdda-32-cpu.json"
check "each report is one detector's run" \
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["config"]["compare"] != [])' \
	"$out/reports/detect-osdda-128-cpu.json"
if command -v gnuplot >/dev/null 2>&1; then
	check "detect-speedup.png exists (gnuplot is installed)" test -s "$out/detect-speedup.png"
fi
if [ -s "$out/detect-tables.csv" ]; then
	header=$(sed -n 1p "$out/detect-tables.csv")
	if [[ $header == algo,procs,res,impl,events,stream_median_s,events_per_s,* ]]; then
		pass "detect-tables.csv starts with its header"
	else
		fail "detect-tables.csv starts with its header" "first line: $header"
	fi
	# --quick: osdda 64,128 and lmdda 16,32 x cpu-bits,cpu
	rows=$(($(grep -cv '^[[:space:]]*$' "$out/detect-tables.csv") - 1))
	if [ "$rows" -eq 8 ]; then
		pass "detect-tables.csv has a row per algorithm, size and detector (8)"
	else
		fail "detect-tables.csv has a row per algorithm, size and detector (8)" "$(cat "$out/detect-tables.csv")"
	fi
	ncols=$(sed -n 1p "$out/detect-tables.csv" | awk -F, '{print NF}')
	check "detect-tables.csv rows have as many fields as the header" \
		awk -F, -v n="$ncols" 'NF && NF != n {bad=1} END {exit bad}' "$out/detect-tables.csv"
	check "detect-tables.csv rows are square systems of 200 events with positive times" \
		awk -F, 'NR > 1 && !($2 == $3 && $5 == 200 && $6 > 0 && $7 > 0 && $13 > 0) {bad=1} END {exit bad}' \
		"$out/detect-tables.csv"
	check "detect-tables.csv gives cpu-bits (the first CPU detector) a speedup over cpu, and cpu none" \
		awk -F, 'NR > 1 && (($4 == "cpu-bits") != ($14 > 0) || $15 != "") {bad=1} END {exit bad}' \
		"$out/detect-tables.csv"
fi
if [ -s "$out/detect-tables.md" ]; then
	thesis_cols='thesis cpu | thesis K20c gpu-initial | thesis K20c gpu | thesis K20c gpu-initial over cpu | thesis K20c gpu over cpu | thesis best gpu over cpu'
	tables=$(grep -cF "| processes x resources | cpu-bits | cpu | cpu-bits over cpu | $thesis_cols |" "$out/detect-tables.md")
	if [ "$tables" -eq 2 ] && grep -q '^## Tables 3.2-3.3: OSDDA' "$out/detect-tables.md" &&
		grep -q '^## Tables 4.3-4.4: LMDDA' "$out/detect-tables.md"; then
		pass "detect-tables.md has one table per algorithm"
	else
		fail "detect-tables.md has one table per algorithm" "$(grep '^##\|^| processes' "$out/detect-tables.md")"
	fi
	check "detect-tables.md has a row per size with two times, a speedup and no thesis numbers (none at 32)" \
		grep -q '^| 32 x 32 | [0-9.]* [um]*s | [0-9.]* [um]*s | [0-9.]*x | - | - | - | - | - | - |$' "$out/detect-tables.md"
	check "detect-tables.md gives the unit of the thesis's run-times" \
		grep -q "^- the thesis's run-times are seconds" "$out/detect-tables.md"
	check "detect-tables.md names the event stream it timed" \
		grep -q '^- event stream: generated, seed 1, 200 events, ' "$out/detect-tables.md"
fi
cp "$out/detect-tables.csv" "$T_TMP/detect-first.csv" 2>/dev/null
expect_rc "detect-tables.sh --plot-only exits 0" 0 bash scripts/detect-tables.sh --plot-only --out "$out"
check "detect-tables.sh --plot-only rebuilds the same CSV" cmp "$T_TMP/detect-first.csv" "$out/detect-tables.csv"
cp -r "$out" "$T_TMP/detect-mixed"
edit_report "$T_TMP/detect-mixed/reports/detect-osdda-64-cpu-bits.json" 'd["config"]["events"] = 300'
expect_rc "detect-tables.sh refuses reports of different streams" 1 \
	bash scripts/detect-tables.sh --plot-only --out "$T_TMP/detect-mixed"
expect_err "detect-tables.sh says the reports mix stream lengths" "mix stream lengths (--events)"
check "detect-tables.sh writes no CSV from a mixed folder" test ! -e "$T_TMP/detect-mixed/detect-tables.csv"
# The detectors of one size run apart: their reports must tell of the same stream.
rm -rf "$T_TMP/detect-mixed" && cp -r "$out" "$T_TMP/detect-mixed"
edit_report "$T_TMP/detect-mixed/reports/detect-lmdda-32-cpu.json" 'd["results"]["decisions"]["granted"] += 1'
expect_rc "detect-tables.sh refuses one size's reports that decided differently" 1 \
	bash scripts/detect-tables.sh --plot-only --out "$T_TMP/detect-mixed"
expect_err "detect-tables.sh names the two reports" \
	"detect-lmdda-32-cpu-bits.json and $T_TMP/detect-mixed/reports/detect-lmdda-32-cpu.json: the lmdda 32 x 32 reports replayed different streams"
rm -rf "$T_TMP/detect-mixed" && cp -r "$out" "$T_TMP/detect-mixed"
edit_report "$T_TMP/detect-mixed/reports/detect-osdda-64-cpu.json" 'd["results"]["impls"][0]["impl"] = "cpu-bits"'
expect_rc "detect-tables.sh refuses a report whose detector is not its name's" 1 \
	bash scripts/detect-tables.sh --plot-only --out "$T_TMP/detect-mixed"
expect_err "detect-tables.sh says which detectors the report holds" "detectors cpu-bits, expected cpu"
rm -rf "$T_TMP/detect-mixed" && cp -r "$out" "$T_TMP/detect-mixed"
cp "$out/reports/detect-osdda-64-cpu.json" "$T_TMP/detect-mixed/reports/detect-osdda-64.json"
expect_rc "detect-tables.sh refuses a detector given twice at one size" 1 \
	bash scripts/detect-tables.sh --plot-only --out "$T_TMP/detect-mixed"
expect_err "detect-tables.sh names both reports" "both give cpu at osdda 64 x 64; keep one"
# A folder of reports of several detectors each (--impl A --compare B, as the
# script made them before) builds the same tables.
mkdir -p "$T_TMP/detect-joint/reports"
for n in 64 128; do
	"$G" detect --algo osdda --procs $n --res $n --protocol stream --events 200 --seed 1 --reps 1 \
		--impl cpu-bits --compare cpu --quiet --json "$T_TMP/detect-joint/reports/detect-osdda-$n.json"
done
expect_rc "detect-tables.sh --plot-only reads reports of two detectors each" 0 \
	bash scripts/detect-tables.sh --plot-only --out "$T_TMP/detect-joint"
check "and gives cpu-bits its speedup over cpu from the same report" \
	awk -F, 'NR > 1 && (($4 == "cpu-bits") != ($14 > 0)) {bad=1} END {exit bad || NR != 5}' \
	"$T_TMP/detect-joint/detect-tables.csv"
expect_rc "detect-tables.sh --osdda-sizes x exits 2" 2 bash scripts/detect-tables.sh --osdda-sizes x --out "$T_TMP/detect-bad"
expect_err "detect-tables.sh --osdda-sizes x names the option" "--osdda-sizes"
# At a size of Tables 3.2-3.3 the thesis's numbers stand beside ours, as printed
# (512 x 512: CPU-OSDDA 0.22 s; K20c initial 0.05 s, 4.40x, bit-packed 0.04 s,
# 5.50x, the best of its three GPUs).
expect_rc "detect-tables.sh at a thesis size exits 0" 0 bash scripts/detect-tables.sh --quick --algos osdda \
	--osdda-sizes 512 --gpubench "$G" --out "$T_TMP/detect-thesis"
check "detect-tables.md puts Tables 3.2-3.3's numbers beside ours at 512 x 512" \
	grep -q '^| 512 x 512 | [0-9.]* [um]*s | [0-9.]* [um]*s | [0-9.]*x | 0\.22 s | 0\.05 s | 0\.04 s | 4\.40x | 5\.50x | 5\.50x (K20c) |$' \
	"$T_TMP/detect-thesis/detect-tables.md"

# ---- scripts/lib/thesis_numbers.py: the thesis's numbers, checked and looked up
echo "== thesis: scripts/lib/thesis_numbers.py"
expect_rc "thesis_numbers.py check exits 0" 0 python3 scripts/lib/thesis_numbers.py check
expect_out "thesis_numbers.py check read all seven tables" "35 rows of tables 3.2, 3.3, 4.3, 4.4, 5.2, 5.3, 5.4: consistent"
# thesis_cells ALGO PROCS RES: the thesis columns of that size, ' | '-joined.
thesis_cells() {
	python3 scripts/lib/thesis_numbers.py cells "$@" | cut -f2 | paste -sd'|' | sed 's/|/ | /g'
}
# One row of every table, as the thesis prints it, and sizes it does not have.
while IFS=';' read -r size want; do
	# shellcheck disable=SC2086
	got=$(thesis_cells $size)
	if [ "$got" = "$want" ]; then
		pass "thesis numbers at $size"
	else
		fail "thesis numbers at $size" "got:  $got" "want: $want"
	fi
done <<'EOF_CELLS'
osdda 8192 8192;1383.97 s | 86.66 s | 4.68 s | 15.97x | 295.72x | 317.42x (GTX 670)
osdda 2048 2048;18.60 s | 1.50 s | 0.23 s | 12.40x | 80.87x | 80.87x (K20c)
lmdda 256 256;32.54 s | 0.50 s | 0.12 s | 64.08x | 270.17x | 812.50x (C2050)
lmdda 1024 1024;6688.14 s | 149.80 s | 77.55 s | 43.65x | 85.24x | 85.24x (K20c)
lmdda 64 64;0.10 s | 0.001 s | 0.0001 s | 100.00x | 100.00x | 100.00x (GTX 670, C2050, K20c)
pba 8192 256;8.34 s | 1.99 s | 3.19x | 3.19x (K20c)
pba 2048 512;0.78 s | 0.30 s | 1.60x | 1.60x (K20c)
pba 4096 1024;6.62 s | 2.63 s | 1.52x | 1.52x (K20c)
osdda 16384 16384;- | - | - | - | - | -
lmdda 2048 2048;- | - | - | - | - | -
pba 512 1024;0.10 s | 0.05 s | 1.00x | 1.00x (K20c)
pba 1024 256;0.13 s | 0.05 s | 1.60x | 1.60x (K20c)
pba 256 256;- | - | - | -
EOF_CELLS
expect_rc "thesis_numbers.py cells of an unknown algorithm exits 2" 2 python3 scripts/lib/thesis_numbers.py cells foo 1 1
# A number mistyped in the data stops the tables: 4.68 s for 4.86 s would
# make Table 3.3's 295.72x (its CPU time over its GPU time) wrong.
cp -r scripts/lib "$T_TMP/lib-typo"
sed -i 's|\t4\.68/295\.72x|\t4.86/295.72x|' "$T_TMP/lib-typo/thesis-numbers.tsv"
check "the mistyped copy differs in one line" \
	test "$(diff scripts/lib/thesis-numbers.tsv "$T_TMP/lib-typo/thesis-numbers.tsv" | grep -c '^>')" = 1
expect_rc "thesis_numbers.py check refuses a mistyped number" 1 python3 "$T_TMP/lib-typo/thesis_numbers.py" check
expect_err "thesis_numbers.py check names the mistyped cell" "table 3.3, 8192 x 8192, Tesla K20c: 4.86/295.72x"
expect_rc "detect_tables.py refuses to build tables on a mistyped number" 1 \
	python3 "$T_TMP/lib-typo/detect_tables.py" table "$T_TMP/detect-thesis/reports" \
	--csv "$T_TMP/typo.csv" --md "$T_TMP/typo.md"
check "detect_tables.py writes nothing then" test ! -e "$T_TMP/typo.csv" -a ! -e "$T_TMP/typo.md"

# ---- scripts/list-table1.sh --quick: Table 1 on the CPU implementations (and PoCL when built)
echo "== list: scripts/list-table1.sh --quick"
out=$T_TMP/list-table1
expect_rc "list-table1.sh --quick exits 0" 0 bash scripts/list-table1.sh --quick --gpubench "$G" --out "$out"
check "list-table1.csv exists" test -s "$out/list-table1.csv"
check "list-table1.md exists" test -s "$out/list-table1.md"
check "list-table1.sh wrote one report per size" test -s "$out/reports/table1-N384.json"
if command -v gnuplot >/dev/null 2>&1; then
	check "list-table1.png exists (gnuplot is installed)" test -s "$out/list-table1.png"
fi
if [ -s "$out/list-table1.csv" ]; then
	nimpl=$(cut -d, -f2 "$out/list-table1.csv" | sed 1d | sort -u | wc -l)
	rows=$(($(grep -cv '^[[:space:]]*$' "$out/list-table1.csv") - 1))
	if [ "$nimpl" -ge 2 ] && [ "$rows" -eq $((3 * nimpl)) ]; then
		pass "list-table1.csv has a row per size and implementation"
	else
		fail "list-table1.csv has a row per size and implementation" "$(cat "$out/list-table1.csv")"
	fi
	check "list-table1.csv: positive times, the paper's C column at 256 nodes" \
		awk -F, 'NR > 1 && !($3 > 0 && $6 > 0 && ($1 != 256 || $11 == 375)) {bad=1} END {exit bad}' \
		"$out/list-table1.csv"
	if grep -q '^list implementation opencl-cpu:' <<<"$("$G" info)"; then
		check "list-table1.csv has opencl-cpu rows (built with OpenCL)" grep -q '^128,opencl-cpu,' "$out/list-table1.csv"
		check "list-table1.md names the OpenCL platform, device type and driver" \
			grep -q '^- OpenCL: opencl-cpu: .* / .* (cpu device, driver ' "$out/list-table1.md"
	fi
fi
if grep -q '^list implementation opencl-cpu:' <<<"$("$G" info)"; then
	# The default columns leave out what cannot run here, saying why: no OpenCL GPU when the
	# loader is shown only the CPU platforms.
	icd_cpu_only "$T_TMP/cpu-vendors"
	expect_rc "list-table1.sh by default runs what it can" 0 env OCL_ICD_VENDORS="$T_TMP/cpu-vendors" \
		bash scripts/list-table1.sh --gpubench "$G" --nodes 128 --reps 1 --out "$T_TMP/list-table1-default"
	expect_err "list-table1.sh says which default column it leaves out and why" \
		"leaving out opencl: " "no OpenCL GPU device found"
	check "list-table1.sh by default keeps opencl-cpu and cpu" \
		grep -q '^128,opencl-cpu,' "$T_TMP/list-table1-default/list-table1.csv"
	expect_rc "list-table1.sh --impls opencl without an OpenCL GPU fails" 1 env \
		OCL_ICD_VENDORS="$T_TMP/cpu-vendors" bash scripts/list-table1.sh --gpubench "$G" --nodes 128 \
		--reps 1 --impls opencl,cpu --out "$T_TMP/list-table1-named"
fi
cp "$out/list-table1.csv" "$T_TMP/table1-first.csv" 2>/dev/null
expect_rc "list-table1.sh --plot-only exits 0" 0 bash scripts/list-table1.sh --plot-only --out "$out"
check "list-table1.sh --plot-only rebuilds the same CSV" cmp "$T_TMP/table1-first.csv" "$out/list-table1.csv"
expect_rc "list-table1.sh --impls nosuch exits 2" 2 bash scripts/list-table1.sh --impls nosuch --out "$T_TMP/t1-bad"
expect_err "list-table1.sh --impls nosuch names it" "nosuch"

# ---- scripts/speculate-figures.sh --quick: Figures 8-11 on the CPU backend
echo "== speculate-figures: scripts/speculate-figures.sh --quick"
out=$T_TMP/specfig
expect_rc "speculate-figures.sh --quick exits 0" 0 bash scripts/speculate-figures.sh --quick \
	--gpubench "$G" --out "$out"
for f in fig8 fig9 fig10 fig11; do
	check "speculate-figures: $f.csv has a header and a row per loop" \
		awk -F, 'NR == 1 && $1 != "loop" {bad=1} END {exit bad || NR != 8}' "$out/$f.csv"
done
check "speculate-figures: every --opt all run is slower or faster than seq by a positive factor" \
	awk -F, 'NR > 1 && !($2 > 0 && $5 > 0) {bad=1} END {exit bad}' "$out/fig8.csv"
check "speculate-figures: gpu-nospec only for fftbench and alvinn" \
	awk -F, 'NR > 1 && (($4 != "") != ($1 == "fftbench" || $1 == "alvinn")) {bad=1} END {exit bad}' \
	"$out/fig9.csv"
check "speculate-figures: cpu-inspect for ocean, trfd and fftbench only, with a positive speedup" \
	awk -F, 'NR > 1 && (($5 != "") != ($1 == "ocean" || $1 == "trfd" || $1 == "fftbench") || ($5 != "" && !($5 > 0))) {bad=1} END {exit bad}' \
	"$out/fig9.csv"
check "speculate-figures: fig9.csv has a cpu-tm column, with a positive speedup for every loop" \
	awk -F, 'NR == 1 && $6 != "cpu-tm" {bad=1} NR > 1 && !($6 > 0) {bad=1} END {exit bad}' "$out/fig9.csv"
check "speculate-figures: trfd redoes everything without localization" \
	awk -F, '$1 == "trfd" && $3 == 100.0 {ok=1} END {exit !ok}' "$out/fig10.csv"
check "speculate-figures: fig10.csv has the w/o opts column (none) and the paper's two" python3 -c '
import csv, sys
rows = {r["loop"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert list(rows["ocean"])[-3:] == ["none", "paper_all", "paper_none"], list(rows["ocean"])
assert float(rows["trfd"]["none"]) == 100.0 and float(rows["trfd"]["paper_none"]) == 100.0, rows["trfd"]
assert float(rows["strcat"]["paper_all"]) == 2.1 and float(rows["fftbench"]["none"]) == 0.0, rows
for r in rows.values():  # one assignment, no localization: a misspeculation redoes everything
    assert float(r["none"]) in (0.0, 100.0), r
' "$out/fig10.csv"
check "speculate-figures: table1.csv has each loop's kind, clause and size beside the paper's row" python3 -c '
import csv, sys
rows = {r["loop"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert list(rows) == ["ocean", "trfd", "fftbench", "mdg", "strcat", "gothic", "alvinn"], list(rows)
for loop, r in rows.items():
    mem = r["paper_irregularity"] == "irregular memory accesses"
    assert r["kind"] == ("irregular-memory" if mem else "irregular-control-flow"), r
    assert (r["clause"] == "") == mem and int(r["iters"]) == 2000 and int(r["elements"]) > 0, r
    assert r["paper_time_share"].endswith("%") and int(r["paper_pragmas"]) >= 1 and r["stands_for"], r
' "$out/table1.csv"
check "speculate-figures.md has Table 1" grep -q '^## Table 1: the loops' "$out/figures.md"
check "speculate-figures: the phases add up to the loop time" \
	awk -F, 'NR > 1 {s=$2+$3+$4+$5+$6+$7+$8; if (s < 99.9 || s > 100.1) bad=1} END {exit bad}' "$out/fig11.csv"
check "speculate-figures.md has the four figures" grep -q '^## Figure 11' "$out/figures.md"
if command -v gnuplot >/dev/null 2>&1; then
	check "speculate-figures.png exists (gnuplot is installed)" test -s "$out/speculate-figures.png"
fi
cp "$out/fig10.csv" "$T_TMP/specfig-first.csv" 2>/dev/null
expect_rc "speculate-figures.sh --plot-only exits 0" 0 bash scripts/speculate-figures.sh --plot-only --out "$out"
check "speculate-figures.sh --plot-only rebuilds the same CSV" cmp "$T_TMP/specfig-first.csv" "$out/fig10.csv"
# ---- the plots: every format, the reports' device and revision in the title, missing bars
# and zero rates marked (what gnuplot wrote, read back from the SVG)
if command -v gnuplot >/dev/null 2>&1; then
	echo "== plots: --format png,svg,pdf"
	rev=$(json_get "$T_TMP/fig9/bank-prstm-A-x0.json" meta.git_revision)
	expect_rc "fig9.sh --plot-only --format png,svg,pdf exits 0" 0 bash scripts/fig9.sh --plot-only \
		--format png,svg,pdf --out "$T_TMP/fig9"
	check "fig9: a PNG, an SVG and a PDF" test -s "$T_TMP/fig9/fig9.png" -a -s "$T_TMP/fig9/fig9.svg" -a -s "$T_TMP/fig9/fig9.pdf"
	check "fig9.pdf is a PDF" test "$(head -c 4 "$T_TMP/fig9/fig9.pdf")" = "%PDF"
	check "fig9.svg is an SVG" grep -q '<svg' "$T_TMP/fig9/fig9.svg"
	check "fig9's title names the device and the revision of its reports" \
		grep -q "CPU .* CPUs); gpubench $rev" "$T_TMP/fig9/fig9.svg"
	expect_rc "fig9.sh --format gif exits 2" 2 bash scripts/fig9.sh --plot-only --format png,gif --out "$T_TMP/fig9"
	expect_err "--format names what it takes" "--format: 'png,gif' is not a comma-separated list of png, svg, pdf"
	check "a new --plot-only removes the formats not asked for" bash -c \
		'bash scripts/fig9.sh --plot-only --out "$1" 2>/dev/null && test -s "$1/fig9.png" -a ! -e "$1/fig9.svg"' _ "$T_TMP/fig9"
	# a median of 0 on a log axis is drawn low and said so
	mkdir -p "$T_TMP/fig9-zero"
	cp "$T_TMP/fig9"/*.json "$T_TMP/fig9-zero/"
	edit_report "$T_TMP/fig9-zero/bank-prstm-A-x100.json" \
		't = d["results"]["throughput_tx_per_s"]; t["median"] = t["min"] = 0'
	expect_rc "fig9.sh --plot-only with a zero throughput exits 0" 0 bash scripts/fig9.sh --plot-only --format svg \
		--out "$T_TMP/fig9-zero"
	check "a zero throughput is marked on the log axis" grep -q '0 (none committed), drawn low' "$T_TMP/fig9-zero/fig9.svg"
	check "no zero, no such mark" test -z "$(bash scripts/fig9.sh --plot-only --format svg --out "$T_TMP/fig9" 2>/dev/null; grep 'none committed' "$T_TMP/fig9/fig9.svg")"
	expect_rc "speculate-figures.sh --plot-only --format svg exits 0" 0 bash scripts/speculate-figures.sh --plot-only \
		--format svg --out "$out"
	check "speculate-figures: a bar a loop does not have is marked n/a (as many as the CSVs lack)" python3 - "$out" <<'PY'
import csv, re, sys
d = sys.argv[1]
# the plotted columns: fig8's four --opt values, fig9's five runs, fig10's five rates (not the paper's)
bars = {"fig8.csv": 5, "fig9.csv": 6, "fig10.csv": 6}
empty = sum(1 for f, n in bars.items() for r in csv.reader(open("%s/%s" % (d, f))) for c in r[1:n] if c == "")
svg = open(d + "/speculate-figures.svg").read()
assert empty > 0 and len(re.findall(r">n/a<", svg)) == empty, (empty, len(re.findall(r">n/a<", svg)))
zeros = sum(1 for r in list(csv.reader(open(d + "/fig10.csv")))[1:] for c in r[1:6] if c != "" and float(c) == 0)
assert zeros > 0 and len(re.findall(r">0<", svg)) >= zeros, (zeros, len(re.findall(r">0<", svg)))
PY
	for gp in scripts/*.gp; do
		check "$(basename "$gp") puts its keys outside the data" \
			test -z "$(grep -E '^ *set key' "$gp" | grep -vE 'outside|below|above')"
		check "$(basename "$gp") opens its output through terminal.gp (every format)" grep -q "^load 'terminal.gp'" "$gp"
	done
fi
rm "$out/reports/spec-ocean-all.json"
expect_rc "speculate-figures.sh refuses a loop without its --opt all report" 1 \
	bash scripts/speculate-figures.sh --plot-only --out "$out"
expect_err "speculate-figures.sh names the missing report" "spec-ocean-all.json"
expect_rc "speculate-figures.sh --reps x exits 2" 2 bash scripts/speculate-figures.sh --reps x --out "$T_TMP/sf-bad"

# ---- scripts/reproduce-all.sh over the outputs above, and every sweep as a
# Slurm job array whose tasks run here, gathered by --plot-only
echo "== reproduce-all: the index, --emit-slurm and the gathering"
ra=$T_TMP/reproduce
mkdir -p "$ra"
cp -r "$T_TMP/fig7" "$ra/fig7"
cp -r "$T_TMP/fig8" "$ra/fig8"
cp -r "$T_TMP/fig9" "$ra/fig9"
cp -r "$T_TMP/pba" "$ra/pba-tables"
cp -r "$T_TMP/detect" "$ra/detect-tables"
cp -r "$T_TMP/specfig" "$ra/speculate-figures"
cp -r "$T_TMP/list-table1" "$ra/list-table1"
# speculate-figures' folder lacks a report (removed above): its section must say FAILED
expect_rc "reproduce-all.sh --plot-only with one script failing exits 1" 1 \
	bash scripts/reproduce-all.sh --plot-only --out "$ra"
expect_err "reproduce-all.sh names the failed script" "speculate-figures FAILED"
check "reproduce-all.sh writes index.md" test -s "$ra/index.md"
# a section per script (17), and the claims'
check "the index has a section per script and the claims" test "$(grep -c '^## [a-z0-9-]*: ' "$ra/index.md")" = 18
check "the index marks the failed script" grep -q '^\*\*FAILED\*\*' "$ra/index.md"
check "the index links the tables and plots" grep -qF '[pba-tables/pba-tables.csv](pba-tables/pba-tables.csv)' "$ra/index.md"
check "the index shows the paper's numbers beside ours (Table 1)" grep -q '| paper OpenCL CPU | paper OpenCL GPU | paper C |' "$ra/index.md"
missing=$(grep -o '](\([^)]*\))' "$ra/index.md" | sed 's/^](\(.*\))$/\1/' | while read -r f; do [ -e "$ra/${f%%#*}" ] || echo "$f"; done)
check "every file the index links exists" test -z "$missing"
for f in scripts/*.sh; do
	name=$(basename "$f" .sh)
	[ "$name" != reproduce-all ] && grep -q -- '--plot-only)' "$f" || continue
	check "reproduce-all.sh runs $name" grep -q "^	\"$name | " scripts/reproduce-all.sh
	check "$name takes --emit-slurm" grep -q -- '--emit-slurm) need_value' "$f"
done
rs=$T_TMP/ra-slurm
expect_rc "reproduce-all.sh --quick --emit-slurm exits 0" 0 bash scripts/reproduce-all.sh --quick --gpubench "$G" \
	--out "$rs/out" --emit-slurm "$rs/jobs"
check "--emit-slurm ran nothing" test -z "$(find "$rs/out" -name '*.json' 2>/dev/null)"
check "submit-all.sh parses" bash -n "$rs/jobs/submit-all.sh"
check "submit-all.sh submits 16 job arrays" test "$(grep -c '^sbatch .*\.slurm$' "$rs/jobs/submit-all.sh")" = 16
for d in "$rs"/jobs/*/; do
	name=$(basename "$d")
	check "$name.slurm parses (bash -n)" bash -n "$d/$name.slurm"
	njobs=$(wc -l <"$d/tasks.txt")
	if grep -q "^#SBATCH --array=1-$njobs\$" "$d/$name.slurm" && [ "$njobs" -gt 0 ] &&
		[ "$(awk '{ for (i = $1; i <= $2; i++) print i }' "$d/tasks.txt" | paste -sd' ')" = "$(seq 1 "$(wc -l <"$d/jobs.txt")" | paste -sd' ')" ]; then
		pass "$name.slurm has one array task per task of tasks.txt ($njobs), which run every line of jobs.txt once"
	else
		fail "$name.slurm has one array task per task of tasks.txt" "$(grep array "$d/$name.slurm")" "$(cat "$d/tasks.txt")"
	fi
	bad=0
	for i in $(seq 1 "$njobs"); do
		SLURM_ARRAY_TASK_ID=$i bash "$d/$name.slurm" >"$T_TMP/task.log" 2>&1 || { bad=1; cat "$T_TMP/task.log"; }
	done
	check "$name: every array task ran and exited 0" test "$bad" = 0
done
expect_rc "a task past the array exits 2" 2 env SLURM_ARRAY_TASK_ID=999 bash "$rs/jobs/pba-tables/pba-tables.slurm"
expect_err "a task past the array says so" "no task 999"
expect_rc "reproduce-all.sh --plot-only gathers the cluster's reports" 0 \
	bash scripts/reproduce-all.sh --plot-only --out "$rs/out"
check "the gathered index has every section and no failure" \
	test "$(grep -c '^## [a-z0-9-]*: ' "$rs/out/index.md")" = 18 -a -z "$(grep FAILED "$rs/out/index.md")"
check "the gathered run has CSMV's Tables I-IV from csmv-fig1's and csmv-fig2's reports" \
	test "$(grep -c '^## Table I*V*:' "$rs/out/csmv-tables/csmv-tables.md")" = 4
check "the gathered index shows the claims" grep -q '^## claims: ' "$rs/out/index.md"
check "the gathered index shows the time per script" grep -q '^## time per script' "$rs/out/index.md"
check "reproduce-all.sh judged the claims of the gathered run" test -s "$rs/out/claims.csv"
check "the gathered pba table has a row per size and implementation (8)" \
	test "$(($(wc -l <"$rs/out/pba-tables/pba-tables.csv") - 1))" = 8
expect_rc "--emit-slurm with --plot-only exits 2" 2 bash scripts/pba-tables.sh --plot-only --out "$ra/pba-tables" \
	--emit-slurm "$rs/x"
expect_err "--emit-slurm with --plot-only says why" "do not go together"

# ---- the claims (docs/claims.md, scripts/claims.sh): every claim has a rule, and a
# run's reports give each a verdict; values set in copied reports give known verdicts
echo "== claims: docs/claims.md and scripts/claims.sh"
expect_rc "claims.py lint: docs/claims.md and claims_rules.py name the same claims" 0 \
	python3 scripts/lib/claims.py lint
nclaims=$(sed -n '/^## Claims$/,/^## Why a claim differs$/p' docs/claims.md | grep -cE '^\| [a-z0-9]+(-[a-z0-9]+)+ \|')
check "docs/claims.md has at least 30 claims ($nclaims)" test "$nclaims" -ge 30
expect_rc "claims.sh judges the gathered quick run" 0 bash scripts/claims.sh --run "$rs/out"
expect_err "claims.sh says how many claims got each verdict" "claims.py: $nclaims claims: " " not run -> "
check "claims.md has a table per document" test "$(grep -c '^## ' "$rs/out/claims.md")" = 5
check "claims.csv: a row per claim, a verdict each, ours and a reason where the verdict needs them" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == int(sys.argv[2]), len(rows)
verdicts = {"reproduced", "reproduced in direction only", "differs", "not run"}
for r in rows:
    assert r["verdict"] in verdicts, r
    assert (r["ours"] == "") == (r["verdict"] == "not run"), r
    assert r["detail"], r
    if r["verdict"] == "differs":
        assert r["reason"], r
        assert (r["reason"] == "reason not measured") == (r["reason_link"] == ""), r
judged = [r for r in rows if r["verdict"] != "not run"]
assert len(judged) >= 30, len(judged)
# the quick run has no 6720-thread, 1% or 99% ROTs or thesis-sized point
for i in ("csmv-fig1-prstm-99", "csmv-table1-commit", "osdda-bitpacked-8192", "prstm-fig9-gpustm-5pct"):
    assert [r["verdict"] for r in rows if r["id"] == i] == ["not run"], i
# the read-only panels are 20% of the threads, and the verdict says so
for i in ("prstm-fig7-readonly", "prstm-fig8-readonly", "prstm-fig10-readonly"):
    d = [r["detail"] for r in rows if r["id"] == i]
    assert len(d) == 1 and "(as 20% of the threads)" in d[0], (i, d)
' "$rs/out/claims.csv" "$nclaims"
mkdir -p "$T_TMP/claims-none"
expect_rc "claims.sh over an empty run exits 0" 0 bash scripts/claims.sh --run "$T_TMP/claims-none"
check "an empty run: every claim not run" test "$(grep -c ',not run,' "$T_TMP/claims-none/claims.csv")" = "$nclaims"
expect_rc "claims.sh over a missing folder exits 1" 1 bash scripts/claims.sh --run "$T_TMP/claims-nosuch"
expect_rc "claims.sh --bogus exits 2" 2 bash scripts/claims.sh --bogus
# csmv-fig2-prstm-4: PR-STM 1.6x CSMV at 4 ways (a ratio claim)
cr=$T_TMP/claims-set
mkdir -p "$cr/csmv-fig2" "$cr/list-table1/reports"
cp "$T_TMP/csmv-fig2/memcached-csmv-A-x4.json" "$T_TMP/csmv-fig2/memcached-prstm-A-x4.json" "$cr/csmv-fig2/"
cp "$T_TMP/list-table1/reports"/table1-N*.json "$cr/list-table1/reports/"
# set_prstm F: PR-STM's median throughput F times CSMV's in the copied reports
set_prstm() {
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
p = json.load(open(sys.argv[2]))
p["results"]["throughput_tx_per_s"]["median"] = float(sys.argv[3]) * c["results"]["throughput_tx_per_s"]["median"]
json.dump(p, open(sys.argv[2], "w"))' "$cr/csmv-fig2/memcached-csmv-A-x4.json" "$cr/csmv-fig2/memcached-prstm-A-x4.json" "$1"
}
# verdict_of ID: the verdict, ratio and reason of one claim in the last judged run
verdict_of() {
	python3 -c '
import csv, sys
r = [r for r in csv.DictReader(open(sys.argv[1])) if r["id"] == sys.argv[2]][0]
print("%s|%s|%s" % (r["verdict"], r["ratio"] and "%.3g" % float(r["ratio"]), r["reason"]))' "$cr/claims.csv" "$1"
}
# reason_of ID: the reason docs/claims.md gives for a claim that differs, as claims.py reads it
reason_of() {
	python3 -c '
import sys
sys.path.insert(0, "scripts/lib")
import claims
r = claims.read_docs("docs/claims.md")[1].get(sys.argv[1])
print(r["why it differs"] if r else "")' "$1"
}
check "docs/claims.md gives csmv-fig2-prstm-4 a reason" test -n "$(reason_of csmv-fig2-prstm-4)"
# the reason is given beside "differs" and "reproduced in direction only"
for want in "1.6|reproduced|1|" "1.2|reproduced|0.75|" "4|reproduced in direction only|2.5|$(reason_of csmv-fig2-prstm-4)" \
	"0.5|differs|0.312|$(reason_of csmv-fig2-prstm-4)"; do
	set_prstm "${want%%|*}"
	bash scripts/claims.sh --run "$cr" 2>/dev/null
	check "PR-STM at ${want%%|*}x CSMV (paper 1.6x): ${want#*|}" test "$(verdict_of csmv-fig2-prstm-4)" = "${want#*|}"
done
check "a claim whose reports are there only in part is not run (csmv-fig2-jvstmgpu-4)" \
	test "$(verdict_of csmv-fig2-jvstmgpu-4)" = "not run||"
# csmv-fig2-jvstmgpu-4 (CSMV 50x JVSTM-GPU at 4 ways): a JVSTM-GPU report at twice CSMV's
# throughput (CSMV's, renamed) makes it differ, with docs/claims.md's reason; judged against a copy
# of docs/claims.md without that reason's row, with "reason not measured"
check "docs/claims.md gives csmv-fig2-jvstmgpu-4 a reason" test -n "$(reason_of csmv-fig2-jvstmgpu-4)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["results"]["throughput_tx_per_s"]["median"] *= 2
json.dump(d, open(sys.argv[2], "w"))' "$cr/csmv-fig2/memcached-csmv-A-x4.json" "$cr/csmv-fig2/memcached-jvstm-gpu-A-x4.json"
bash scripts/claims.sh --run "$cr" 2>/dev/null
check "CSMV at 0.5x JVSTM-GPU (paper 50x): differs, with the reason docs/claims.md measured" \
	test "$(verdict_of csmv-fig2-jvstmgpu-4)" = "differs|0.01|$(reason_of csmv-fig2-jvstmgpu-4)"
grep -vE '^\| csmv-fig2-jvstmgpu-4 \| .* \| docs/[a-z]+\.md#[a-z0-9-]+ \|$' docs/claims.md >"$T_TMP/claims-noreason.md"
check "... the copy of docs/claims.md lost that row alone" \
	test "$(($(wc -l <docs/claims.md) - $(wc -l <"$T_TMP/claims-noreason.md")))" = 1
python3 scripts/lib/claims.py judge "$cr" --docs "$T_TMP/claims-noreason.md" >/dev/null 2>&1
check "... and judged without it: differs, reason not measured" \
	test "$(verdict_of csmv-fig2-jvstmgpu-4)" = "differs|0.01|reason not measured"
rm "$cr/csmv-fig2/memcached-jvstm-gpu-A-x4.json"
# list-c-fastest: the serial C list faster than OpenCL at every size ("in all cases")
set_opencl() {
	python3 -c '
import json, sys
for path in sys.argv[2:]:
    d = json.load(open(path))
    t = {e["impl"]: e for e in d["results"]["impls"]}
    t["opencl-cpu"]["run_seconds"]["median"] = float(sys.argv[1]) * t["cpu"]["run_seconds"]["median"]
    json.dump(d, open(path, "w"))' "$@"
}
if grep -q '"opencl-cpu"' "$cr/list-table1/reports/table1-N128.json"; then
	set_opencl 2 "$cr/list-table1/reports"/table1-N*.json
	bash scripts/claims.sh --run "$cr" 2>/dev/null
	check "OpenCL 2x the C list at every size: reproduced" test "$(verdict_of list-c-fastest)" = "reproduced||"
	set_opencl 0.5 "$cr/list-table1/reports/table1-N128.json"
	bash scripts/claims.sh --run "$cr" 2>/dev/null
	check "OpenCL faster at one size of three: in direction only" \
		test "$(verdict_of list-c-fastest | cut -d'|' -f1)" = "reproduced in direction only"
	set_opencl 0.5 "$cr/list-table1/reports"/table1-N*.json
	bash scripts/claims.sh --run "$cr" 2>/dev/null
	check "OpenCL faster at every size: differs, with the reason docs/claims.md measured" \
		grep -q '^list-c-fastest,.*,differs,.*PoCL runs the OpenCL list on every host core.*,docs/fidelity.md#' "$cr/claims.csv"
	check "claims.md links the section where the reason was measured, from the run's folder" python3 -c '
import os, re, sys
links = re.findall(r"\[measured\]\(([^)#]*)#([^)]*)\)", open(os.path.join(sys.argv[1], "claims.md")).read())
assert links, "no link"
for path, anchor in links:
    assert os.path.isfile(os.path.join(sys.argv[1], path)), path
assert ("lock-free-list-opencl-on-the-gpu-seed-002" in [a for _, a in links]), links
' "$cr"
fi
# csmv-table1-divergence-share: JVSTM-GPU's reports leave divergence null, a profile of its lanes
# judges it. tests/data/ncu/ holds ncu's three exports and nvdisasm's listing as divergence.sh
# writes them, made up so the shares come out by hand: the kernel's counters 24 lanes an
# instruction (25% idle); per instruction 0%, 75% and 50% idle under 10, 30 and 60 samples (52.5%
# by time), the last two in the commit (jvstm.h, and jvgpu_attempt's wait on the ATR in
# jvstm_gpu.cu: 58.3%, 90% of the time). The layout is ncu 2025.3's: a file's block names the file
# and then the kernel, its rows a source line then that line's instructions; the atomic is
# port.h's, inlined into jvstm.h, and listed under both lines (it counts once, as the commit's)
mkdir -p "$cr/csmv-fig1"
cp "$T_TMP/csmv-fig1/bank-jvstm-gpu-A-x10.json" "$cr/csmv-fig1/bank-jvstm-gpu-A-x1.json"
bash scripts/claims.sh --run "$cr" 2>/dev/null
check "JVSTM-GPU's divergence without a profile of its lanes: not run" \
	test "$(verdict_of csmv-table1-divergence-share | cut -d'|' -f1)" = "not run"
cp -r tests/data/ncu "$cr/csmv-fig1/divergence"
lanes_row="| jvstm-gpu | 24 | 25.0% | 52.5% | 58.3% | 90.0% |"
expect_rc "ncu_lanes.py reads ncu's exports" 0 python3 scripts/lib/ncu_lanes.py "$cr/csmv-fig1/divergence"
expect_out "ncu_lanes.py's table: lanes an instruction, idle by instruction and by time, the commit's" \
	"$lanes_row"
check "lanes.json: the kernel's counters, the samples' weights and the commit's lines" python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["jvstm-gpu"]
k, s, c = a["kernel"], a["sampled"], a["commit"]
assert k["warp_instructions"] == 1000 and k["thread_instructions"] == 24000 and k["idle_share_by_instruction"] == 0.25, k
assert k["name"] == "jvstm_gpu_bank_kernel" and k["duration_ns"] == 12e6, k
assert s["samples"] == 100 and abs(s["idle_share_by_time"] - 0.525) < 1e-12, s
assert abs(s["idle_share_by_instruction"] - (1 - 7200 / 12800)) < 1e-12, s
assert c["samples"] == 90 and abs(c["idle_share_by_time"] - 52.5 / 90) < 1e-12 and c["share_of_samples"] == 0.9, c
' "$cr/csmv-fig1/divergence/lanes.json"
bash scripts/claims.sh --run "$cr" 2>/dev/null
check "JVSTM-GPU's divergence from the commit's idle lanes: 58.3% against the paper's 45%, reproduced" \
	test "$(verdict_of csmv-table1-divergence-share)" = "reproduced|1.3|"
check "claims.csv says where the share comes from" grep -q '^csmv-table1-divergence-share,.*58.3% of its commit.s warp time (ncu on the same binary' "$cr/claims.csv"
gzip "$cr/csmv-fig1/divergence"/jvstm-gpu-*sass*
expect_rc "ncu_lanes.py reads the exports gzip'd" 0 python3 scripts/lib/ncu_lanes.py "$cr/csmv-fig1/divergence"
expect_out "the same table from the gzip'd exports" "$lanes_row"
gunzip "$cr/csmv-fig1/divergence"/*.gz
# where ncu's page has no source lines (its sources not found), nvdisasm's listing of the kernel
# gives them, matched to the SASS page instruction by instruction
rm "$cr/csmv-fig1/divergence/jvstm-gpu-cuda-sass.csv"
expect_rc "ncu_lanes.py with the lines of nvdisasm's listing" 0 python3 scripts/lib/ncu_lanes.py "$cr/csmv-fig1/divergence"
expect_out "the same commit share from nvdisasm's lines" "$lanes_row"
check "lanes.json says where the commit's lines came from" python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["jvstm-gpu"]["lines_from"] == "nvdisasm"' "$cr/csmv-fig1/divergence/lanes.json"
sed -i 's|NANOSLEEP R6 ;|NANOSLEEP R6 ;\n        /*0030*/                   BRA `(.L_x_9) ;\n        /*0040*/                   NOP ;|' \
	"$cr/csmv-fig1/divergence/jvstm-gpu-sass-lines.txt"
expect_rc "ncu_lanes.py with a listing padded past the kernel's last instruction" 0 \
	python3 scripts/lib/ncu_lanes.py "$cr/csmv-fig1/divergence"
expect_out "padding after the kernel's last instruction matches" "$lanes_row"
sed -i 's|NANOSLEEP R6 ;|NANOSLEEP R6 ;\n        /*0028*/                   EXIT ;|' "$cr/csmv-fig1/divergence/jvstm-gpu-sass-lines.txt"
expect_rc "ncu_lanes.py with a listing of another build" 0 python3 scripts/lib/ncu_lanes.py "$cr/csmv-fig1/divergence"
expect_out "a listing that does not match the page instruction by instruction gives no commit share" \
	"| jvstm-gpu | 24 | 25.0% | 52.5% | - | - |"
rm "$cr/csmv-fig1/divergence"/jvstm-gpu-*sass.csv
expect_rc "ncu_lanes.py with the kernel's counters alone" 0 python3 scripts/lib/ncu_lanes.py "$cr/csmv-fig1/divergence"
bash scripts/claims.sh --run "$cr" 2>/dev/null
check "without the source counters, the kernel's: 25% against 45%, reproduced (within 2x)" \
	test "$(verdict_of csmv-table1-divergence-share)" = "reproduced|0.556|"
rm -r "$cr/csmv-fig1"
expect_rc "ncu_lanes.py over a folder without exports exits 1" 1 python3 scripts/lib/ncu_lanes.py "$T_TMP"
expect_rc "ncu_lanes.py without a folder exits 2" 2 python3 scripts/lib/ncu_lanes.py
sed -i 's/"verified":[[:space:]]*true/"verified": false/' "$cr/csmv-fig2/memcached-prstm-A-x4.json"
bash scripts/claims.sh --run "$cr" 2>/dev/null
check "a report that did not verify does not count: not run" test "$(verdict_of csmv-fig2-prstm-4)" = "not run||"

# ---- scripts/lib/sweep.sh: resume. A second sweep keeps every report; a changed
# configuration, revision or machine, or a report not complete and verified, is made again.
echo "== sweep: resume"
rm -rf "$T_TMP/resume"
rsw() {
	GPUBENCH_SWEEP_TALLY="$T_TMP/tally" bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$T_TMP/resume" "$@"
}
: >"$T_TMP/tally"
expect_rc "resume: a first sweep exits 0" 0 rsw
check "resume: the first sweep ran its 4 points" test "$(grep -c '^ran [0-9]*$' "$T_TMP/tally")" = 4
cp -r "$T_TMP/resume/reports" "$T_TMP/resume-first"
: >"$T_TMP/tally"
expect_rc "resume: the same sweep again exits 0" 0 rsw
check "resume: the second sweep kept all 4 and ran none" test "$(sort "$T_TMP/tally" | uniq -c | awk '{print $1, $2}')" = "4 kept"
expect_err "resume: it says which points it kept" "[tables 1/4] pba-R16-P64: kept, request median"
check "resume: the kept reports are unchanged" diff -r "$T_TMP/resume-first" "$T_TMP/resume/reports"
check "resume: the table is built again from them" test -s "$T_TMP/resume/pba-tables.csv"
: >"$T_TMP/tally"
expect_rc "resume: a changed configuration exits 0" 0 rsw -- --seed 7
check "resume: a changed configuration runs every point again" test "$(grep -c '^ran ' "$T_TMP/tally")" = 4
expect_err "resume: it says why" "pba-R16-P64: made again: its report was made with other options"
rep=$T_TMP/resume/reports
python3 -c '
import json, sys
def edit(name, fn):
    p = sys.argv[1] + "/" + name
    d = json.load(open(p)); fn(d); json.dump(d, open(p, "w"))
edit("pba-R16-P64.json", lambda d: d["meta"].update(git_revision="0123456789ab"))
edit("pba-R16-P128.json", lambda d: d["verification"].update(verified=None))
edit("pba-R32-P64.json", lambda d: d["meta"].update(complete=False))
' "$rep"
: >"$T_TMP/tally"
expect_rc "resume: a sweep over edited reports exits 0" 0 rsw -- --seed 7
check "resume: another revision's, an unverified and an incomplete report are made again, the fourth kept" \
	test "$(sort "$T_TMP/tally" | sed 's/^ran [0-9]*$/ran/' | uniq -c | awk '{print $1, $2}' | paste -sd,)" = "1 kept,3 ran"
expect_err "resume: it names the other revision and the report that did not verify" \
	"pba-R16-P64: made again: its report was made by revision 0123456789ab; this binary is" \
	"pba-R16-P128: made again: its report is not complete and verified" \
	"pba-R32-P64: made again: its report is not complete and verified"
check "resume: the points made again have reports of this revision, verified" python3 -c '
import glob, json, sys
for p in glob.glob(sys.argv[1] + "/*.json"):
    d = json.load(open(p))
    assert d["meta"]["git_revision"] != "0123456789ab" and d["meta"]["complete"] is True, p
    assert d["verification"]["verified"] is True, p
' "$rep"
# one resume.py answers a whole sweep: a python3 on PATH that logs its arguments
mkdir -p "$T_TMP/shim"
cat >"$T_TMP/shim/python3" <<EOF
#!/bin/sh
echo "\$*" >>"$T_TMP/python-calls"
exec $(command -v python3) "\$@"
EOF
chmod +x "$T_TMP/shim/python3"
: >"$T_TMP/tally"
: >"$T_TMP/python-calls"
expect_rc "resume: a sweep keeping every report exits 0" 0 env PATH="$T_TMP/shim:$PATH" \
	GPUBENCH_SWEEP_TALLY="$T_TMP/tally" bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$T_TMP/resume" -- --seed 7
check "resume: ... it kept all 4" test "$(sort "$T_TMP/tally" | uniq -c | awk '{print $1, $2}')" = "4 kept"
check "resume: one resume.py answered its 4 points, their checks run in it (no python3 of its own)" \
	test "$(grep -c 'resume.py' "$T_TMP/python-calls"),$(grep -c ' check ' "$T_TMP/python-calls")" = "1,0"
# resume.py alone: the machine, and a -dirty revision's report older than the binary
info=$("$G" info --quiet --json -)
rj=$rep/pba-R16-P64.json
args=$(python3 -c 'import json, sys; a = json.load(open(sys.argv[1]))["meta"]["argv"]; i = a.index("--json"); print(" ".join(a[:i] + a[i + 2:]))' "$rj")
# resume.py --serve: NUL-ended fields in (info, then REPORT, #CHECK, CHECK, #ARGS, ARGS),
# a verdict and its text out, one process for every request
cat >"$T_TMP/okcheck.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[-1]))
if d["verification"]["verified"] is not True:
    sys.exit(1)
print("fine", sys.argv[1])
EOF
cp "$rj" "$T_TMP/unverified.json"
edit_report "$T_TMP/unverified.json" 'd["verification"]["verified"] = False'
read -r -a argv_words <<<"$args"
nargs=${#argv_words[@]}
serve_out=$( {
	printf '%s\0' "$info"
	printf '%s\0' "$rj" 3 python3 "$T_TMP/okcheck.py" first "$nargs" "${argv_words[@]}"
	printf '%s\0' "$rj" 3 python3 "$T_TMP/okcheck.py" first "$((nargs + 1))" "${argv_words[@]}" --extra
	printf '%s\0' "$T_TMP/unverified.json" 3 python3 "$T_TMP/okcheck.py" x "$nargs" "${argv_words[@]}"
	printf '%s\0' "$rj" 1 true "$nargs" "${argv_words[@]}"
	printf '%s\0' "$rj" 3 python3 "$T_TMP/okcheck.py" second "$nargs" "${argv_words[@]}"
	printf '%s\0' "$rj" x
} | python3 scripts/lib/resume.py --serve "$G" | tr '\0' '|')
check "resume.py --serve: kept with the check's line, other options, unverified, a check to run, kept, an error" \
	test "$serve_out" = "kept|fine first|other|made with other options|unverified||check||kept|fine second|error|ValueError: a count was expected, not 'x'|"
# a sweep killed before resume.py answers: it ends quietly (status 0, nothing on stderr)
printf '%s\0' "$info" "$rj" 1 true "$nargs" "${argv_words[@]}" |
	python3 scripts/lib/resume.py --serve "$G" 2>"$T_TMP/serve-err" | true
serve_rc=${PIPESTATUS[1]}
check "resume.py --serve with no reader left: status 0 ($serve_rc), no traceback" \
	test "$serve_rc" = 0 -a ! -s "$T_TMP/serve-err"
# the sweep's side: an answerer that has ended is replaced by one for each request
fallback=$(bash -c '
. scripts/lib/sweep.sh
gpubench=$1 json=$2
shift 2
sweep_info=$("$gpubench" info --quiet --json -)
sweep_resume_ask "$json" python3 scripts/lib/pba_tables.py check --impls cpu,cpu-fast -- "$@"
first=$sweep_verdict
kill "$sweep_resume_pid"
wait "$sweep_resume_pid" 2>/dev/null
sweep_resume_ask "$json" python3 scripts/lib/pba_tables.py check --impls cpu,cpu-fast -- "$@"
echo "$first $sweep_verdict"' _ "$G" "$rj" "${argv_words[@]}" 2>&1)
check "sweep_resume_ask: kept before and after its resume.py ended ($fallback)" test "$fallback" = "kept kept"
# shellcheck disable=SC2086 # $args is the report's own argument list
expect_rc "resume.py keeps a report of this binary, options and machine" 0 \
	python3 scripts/lib/resume.py "$rj" "$G" -- $args <<<"$info"
other_host=$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); d["cpu_model"] = "another CPU"; print(json.dumps(d))' "$info")
# shellcheck disable=SC2086
expect_rc "resume.py refuses a report of another host" 1 python3 scripts/lib/resume.py "$rj" "$G" -- $args <<<"$other_host"
expect_out "resume.py says so" "made on another host (cpu_model"
with_gpu=$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); d["devices"] = [{"name": "Some GPU"}]; print(json.dumps(d))' "$info")
cp "$rj" "$T_TMP/resume-keep.json"
if ! grep -q -- '--backend' <<<"$args"; then
	edit_report "$rj" 'd["device"].pop("no_gpu_fallback", None)'
	# shellcheck disable=SC2086
	expect_rc "resume.py refuses an older CPU report (no no_gpu_fallback) on a host with a GPU" 1 \
		python3 scripts/lib/resume.py "$rj" "$G" -- $args <<<"$with_gpu"
fi
edit_report "$rj" 'd["device"]["no_gpu_fallback"] = False'
# shellcheck disable=SC2086
expect_rc "resume.py keeps a CPU report of a run that chose the CPU on a host with a GPU" 0 \
	python3 scripts/lib/resume.py "$rj" "$G" -- $args <<<"$with_gpu"
edit_report "$rj" 'd["device"]["no_gpu_fallback"] = True'
# shellcheck disable=SC2086
expect_rc "resume.py refuses one that fell back to the CPU for want of a GPU" 1 \
	python3 scripts/lib/resume.py "$rj" "$G" -- $args <<<"$with_gpu"
expect_out "resume.py says why" "made on the CPU where no GPU was found; this host has one"
cp "$T_TMP/resume-keep.json" "$rj"
# the field itself: a run that fell back to the CPU says so, one that named a CPU engine does not
"$G" detect --algo osdda --procs 64 --res 64 --reps 1 --json "$T_TMP/fb-auto.json" >/dev/null 2>&1
"$G" detect --algo osdda --procs 64 --res 64 --reps 1 --impl cpu --json "$T_TMP/fb-cpu.json" >/dev/null 2>&1
check "a CPU run for want of a GPU records no_gpu_fallback true, one that named --impl cpu false" \
	python3 -c 'import json, sys; a, b = (json.load(open(p))["device"]["no_gpu_fallback"] for p in sys.argv[1:]); assert (a, b) == (True, False), (a, b)' \
	"$T_TMP/fb-auto.json" "$T_TMP/fb-cpu.json"
dirty=$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]); d["git_revision"] = "0123456789ab-dirty"; print(json.dumps(d))' "$info")
edit_report "$rj" 'd["meta"]["git_revision"] = "0123456789ab-dirty"'
cp "$G" "$T_TMP/resume-bin"
touch -d '1 hour ago' "$T_TMP/resume-bin"
# shellcheck disable=SC2086
expect_rc "resume.py keeps a -dirty revision's report newer than the binary" 0 \
	python3 scripts/lib/resume.py "$rj" "$T_TMP/resume-bin" -- $args <<<"$dirty"
touch "$T_TMP/resume-bin"
touch -d '1 hour ago' "$rj"
# shellcheck disable=SC2086
expect_rc "resume.py refuses a -dirty revision's report older than the binary" 1 \
	python3 scripts/lib/resume.py "$rj" "$T_TMP/resume-bin" -- $args <<<"$dirty"
# reproduce-all: resumable, and the time per script measured and kept
rr=$T_TMP/reproduce-resume
expect_rc "reproduce-all.sh --quick --only pba-tables,detect-tables exits 0" 0 \
	bash scripts/reproduce-all.sh --quick --gpubench "$G" --only pba-tables,detect-tables --out "$rr"
expect_err "reproduce-all.sh prints how long each script took" "reproduce-all.sh: pba-tables took " \
	"reproduce-all.sh: detect-tables took " "8 points run"
expect_rc "reproduce-all.sh --quick again exits 0" 0 \
	bash scripts/reproduce-all.sh --quick --gpubench "$G" --only pba-tables,detect-tables --out "$rr"
expect_err "reproduce-all.sh again runs nothing and keeps every point" \
	"pba-tables took " ": 0 points run (0 s in gpubench), 4 kept"
check "timing.csv has a row per script and session" test "$(tail -n +2 "$rr/timing.csv" | wc -l)" = 4
# the quick run's two sessions in timing.md: pba-tables' 4 points and detect-tables' 8
two_sessions='^| \(pba-tables | 2 | [0-9:]* | 4\|detect-tables | 2 | [0-9:]* | 8\) | '
check "timing.md sums the two sessions: 4 and 8 points run, in 2 sessions" \
	test "$(grep -c "$two_sessions" "$rr/timing.md")" = 2
check "the second run still writes the claims" test -s "$rr/claims.csv"
# a --plot-only session runs no point: timing.csv files it, and timing.md still tables the run it plotted
ro=$T_TMP/reproduce-plot-only
cp -r "$rr" "$ro"
expect_rc "reproduce-all.sh --plot-only over a copy exits 0" 0 \
	bash scripts/reproduce-all.sh --plot-only --only pba-tables,detect-tables --out "$ro"
check "timing.csv files the plot-only session, and timing.md is still the quick run's two sessions" \
	test "$(grep -c ',plot-only,' "$ro/timing.csv")" = 2 -a \
	"$(grep -c "$two_sessions" "$ro/timing.md")" = 2 -a \
	"$(grep -c 'mode quick:' "$ro/timing.md")" = 1
expect_rc "reproduce-all.sh --quick --paper exits 2" 2 bash scripts/reproduce-all.sh --quick --paper --out "$rr"
# --series paper: the STM figures run only the paper's own series; all adds ours to the same folder
rp=$T_TMP/reproduce-series
expect_rc "reproduce-all.sh --series paper exits 0" 0 bash scripts/reproduce-all.sh --quick --gpubench "$G" \
	--only fig12a,csmv-fig2 --series paper --out "$rp"
check "... fig12a ran PR-STM and GPU-STM, csmv-fig2 the paper's three engines" python3 -c '
import csv, sys
got = lambda f: sorted({r["algo"] for r in csv.DictReader(open(f))})
assert got(sys.argv[1]) == ["gpustm", "prstm"], got(sys.argv[1])
assert got(sys.argv[2]) == ["csmv", "jvstm-gpu", "prstm"], got(sys.argv[2])' "$rp/fig12a/fig12a.csv" "$rp/csmv-fig2/csmv-fig2.csv"
expect_rc "reproduce-all.sh --series all then adds our variants" 0 bash scripts/reproduce-all.sh --quick --gpubench "$G" \
	--only fig12a --out "$rp"
expect_err "... keeping the paper's points" "fig12a took " "2 points run" "4 kept"
check "... fig12a has gpustm-local now" grep -q "^kmeans,gpustm-local," "$rp/fig12a/fig12a.csv"
# --preview: the STM figures at the ends of their axes, at the paper's sizes, 0.3 s x 2 a point (written
# as job arrays here, which run nothing: the paper's sizes are for a GPU)
expect_rc "reproduce-all.sh --preview --series paper --emit-slurm exits 0" 0 bash scripts/reproduce-all.sh --preview \
	--series paper --gpubench "$G" --out "$rp/preview" --emit-slurm "$rp/preview-jobs"
check "... job arrays for the 12 STM figures and nothing else" \
	test "$(grep -c '^sbatch .*\.slurm$' "$rp/preview-jobs/submit-all.sh")" = 12 -a ! -e "$rp/preview-jobs/pba-tables"
check "... fig7 at 960 and 9600 threads, PR-STM and GPU-STM, 0.3 s x 2 a point, the paper's sizes" python3 -c '
import sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2 * 2 * 4 * 2, len(lines)  # workloads x engines x panels x points
for l in lines:
    a = l.split()
    assert a[a.index("--threads") + 1] in ("960", "9600") and a[a.index("--algo") + 1] in ("prstm", "gpustm"), l
    assert a[a.index("--duration") + 1] == "0.3" and a[a.index("--reps") + 1] == "2" and "--tx-per-thread" not in a, l
' "$rp/preview-jobs/fig7/jobs.txt"
expect_rc "reproduce-all.sh --preview --only pba-tables exits 2" 2 bash scripts/reproduce-all.sh --preview --only pba-tables \
	--out "$rp/preview"
expect_rc "fig7.sh --preview --duration 1 exits 2" 2 bash scripts/fig7.sh --preview --duration 1 --out "$rp/bad"
expect_rc "reproduce-all.sh --series some exits 2" 2 bash scripts/reproduce-all.sh --series some --out "$rp"
expect_rc "fig7.sh --series paper --algos prstm exits 2" 2 bash scripts/fig7.sh --series paper --algos prstm --out "$rp/bad"
expect_err "... and says the two choose the same" "--series and --algos both choose the engines"
# one machine's run: the same folder resumed on a host of another CPU model stops with status 4
check "the first session wrote machine.json" grep -q '"cpu_logical_cores"' "$rr/machine.json"
gabs="$(cd "$(dirname "$G")" && pwd)/$(basename "$G")"
cat >"$T_TMP/other-gpubench" <<EOF
#!/bin/sh
if [ "\$1" = info ]; then
	"$gabs" "\$@" | python3 -c 'import json, sys; d = json.load(sys.stdin); d["cpu_model"] = "Other CPU"; json.dump(d, sys.stdout)'
else
	exec "$gabs" "\$@"
fi
EOF
chmod +x "$T_TMP/other-gpubench"
expect_rc "reproduce-all.sh resumed on another machine exits 4" 4 \
	bash scripts/reproduce-all.sh --quick --gpubench "$T_TMP/other-gpubench" --only pba-tables --out "$rr"
expect_err "it names both machines and the ways on" "was begun on another machine" "this host: no GPU; host Other CPU" \
	"--new-machine"
check "it ran nothing" test "$(tail -n +2 "$rr/timing.csv" | wc -l)" = 4
# --plan: the points a run would make and keep, and their time at the measured pace; it runs nothing
rq=$T_TMP/reproduce-plan
cp -r "$rr" "$rq"
rm "$(ls "$rq"/detect-tables/reports/*.json | head -n 1)"
expect_rc "reproduce-all.sh --plan exits 0" 0 bash scripts/reproduce-all.sh --plan --quick --gpubench "$G" \
	--only pba-tables,detect-tables,fig12a --out "$rq"
expect_out "... and counts each script's points to keep and to make, with a pace where timing.csv has one" \
	"| pba-tables | 4 | 4 | 0 | nothing to run |" "| detect-tables | 8 | 7 | 1 | " "s a point, over 8 points) |" \
	"| fig12a | 6 | 0 | 6 | unknown: no point of fig12a in quick mode in timing.csv |" "| all | 18 | 11 | 7 | at least " \
	"s (no pace for fig12a) |"
check "... ran nothing, removed no table, made no folder" test "$(tail -n +2 "$rq/timing.csv" | wc -l)" = 4 \
	-a -s "$rq/detect-tables/detect-tables.md" -a -s "$rq/pba-tables/pba-tables.md" -a ! -e "$rq/fig12a"
expect_rc "reproduce-all.sh --plan on another machine exits 0" 0 bash scripts/reproduce-all.sh --plan --quick \
	--gpubench "$T_TMP/other-gpubench" --only pba-tables --out "$rq"
expect_out "... and says a run there would exit 4 and keep nothing" "was begun on another machine" "| pba-tables | 4 | 0 | 4 |"
check "... and leaves machine.json as it was" cmp -s "$rr/machine.json" "$rq/machine.json"
# timing.py pace: a script's seconds a point over every session of its mode, and the estimate for MAKE points
tc=$T_TMP/pace.csv
printf '%s\n' date_utc,revision,mode,script,status,wall_s,points_run,points_kept,run_s \
	2026-01-01T00:00:00Z,a,full,fig7,ok,40,3,0,31 2026-01-02T00:00:00Z,b,full,fig7,ok,20,1,5,9 \
	2026-01-02T00:00:00Z,b,quick,fig7,ok,9,9,0,9 >"$tc"
check "timing.py pace sums run_s over points_run across sessions of the mode" \
	test "$(python3 scripts/lib/timing.py pace "$tc" full fig7)" = "10.00 4"
check "... and with MAKE prices those points at the printed pace, rounded up" \
	test "$(python3 scripts/lib/timing.py pace "$tc" full fig7 7)" = "10.00 4 70" \
	-a "$(python3 scripts/lib/timing.py pace "$tc" quick fig7 3)" = "1.00 9 3"
check "... and says none where the script ran no point in that mode" \
	test "$(python3 scripts/lib/timing.py pace "$tc" full fig8 7)" = "- 0 -" \
	-a "$(python3 scripts/lib/timing.py pace "$T_TMP/absent.csv" full fig7)" = "- 0"
expect_rc "reproduce-all.sh --plan --max-seconds 60 exits 2" 2 bash scripts/reproduce-all.sh --plan --max-seconds 60 --out "$rq"
expect_rc "reproduce-all.sh --new-machine makes it this machine's run" 0 \
	bash scripts/reproduce-all.sh --quick --gpubench "$T_TMP/other-gpubench" --only pba-tables --out "$rr" --new-machine
check "machine.json names the new machine" grep -q '"Other CPU"' "$rr/machine.json"
expect_err "its points are made again there" "pba-tables took " ": 4 points run"
expect_rc "reproduce-all.sh --new-machine --plot-only exits 2" 2 bash scripts/reproduce-all.sh --plot-only --new-machine --out "$rr"
# --max-seconds: no point starts past the budget; the same command again goes on
rb=$T_TMP/reproduce-budget
expect_rc "reproduce-all.sh --max-seconds 0 stops with status 3" 3 \
	bash scripts/reproduce-all.sh --quick --gpubench "$G" --only pba-tables,detect-tables --out "$rb" --max-seconds 0
expect_err "reproduce-all.sh --max-seconds 0 starts no point and says how to go on" \
	"[tables 1/4] pba-R16-P64: not started: the time budget is spent" \
	"stopped in pba-tables at --max-seconds 0; run the same command again to go on"
check "a stopped run writes no index and no claims" test ! -e "$rb/index.md" -a ! -e "$rb/claims.csv"
check "timing.csv marks the session stopped, detect-tables not reached" \
	test "$(tail -n +2 "$rb/timing.csv" | cut -d, -f4,5,7 | paste -sd' ')" = "pba-tables,stopped,0"
expect_rc "reproduce-all.sh --max-seconds x exits 2" 2 bash scripts/reproduce-all.sh --quick --max-seconds x --out "$rb"
expect_rc "reproduce-all.sh --max-seconds with --plot-only exits 2" 2 \
	bash scripts/reproduce-all.sh --plot-only --max-seconds 5 --out "$rb"
# a point that outlasts the budget ends; the next does not start (a binary 3 s slower a point)
printf '#!/bin/sh\n[ "$1" = info ] || case " $* " in *" --json "*) sleep 3 ;; esac\nexec "%s" "$@"\n' "$(cd "$(dirname "$G")" && pwd)/$(basename "$G")" \
	>"$T_TMP/slow-gpubench"
chmod +x "$T_TMP/slow-gpubench"
: >"$T_TMP/tally"
# (a deadline 4 s away: the first point starts however slowly the sweep starts on a loaded
# machine, and the next, expected to take 3 s, cannot end by it)
expect_rc "a sweep past its deadline exits 3" 3 env GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 4)) \
	GPUBENCH_SWEEP_TALLY="$T_TMP/tally" bash scripts/pba-tables.sh --quick --gpubench "$T_TMP/slow-gpubench" --out "$rb/slow"
check "the point under way when the budget ran out ended, no other started" \
	test "$(sed 's/^ran [0-9]*$/ran/' "$T_TMP/tally" | paste -sd,)" = "ran"
check "its report is whole" python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["meta"]["complete"] and d["verification"]["verified"]' \
	"$rb/slow/reports/pba-R16-P64.json"
: >"$T_TMP/tally"
expect_rc "the same sweep without a budget goes on and exits 0" 0 env GPUBENCH_SWEEP_TALLY="$T_TMP/tally" \
	bash scripts/pba-tables.sh --quick --gpubench "$T_TMP/slow-gpubench" --out "$rb/slow"
check "it keeps the point made and runs the other 3" \
	test "$(sort "$T_TMP/tally" | sed 's/^ran [0-9]*$/ran/' | uniq -c | awk '{print $1, $2}' | paste -sd,)" = "1 kept,3 ran"
# the longest point so far (3 s) would not end by a deadline 6 s away: one point, not two
: >"$T_TMP/tally"
expect_rc "a sweep whose next point would outlast its deadline exits 3" 3 env GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 6)) \
	GPUBENCH_SWEEP_TALLY="$T_TMP/tally" bash scripts/pba-tables.sh --quick --gpubench "$T_TMP/slow-gpubench" --out "$rb/ahead"
check "it ran one point, the second not started as it would have ended past the deadline" \
	test "$(sed 's/^ran [0-9]*$/ran/' "$T_TMP/tally" | paste -sd,)" = "ran"
expect_err "it says why" "would be before it ended (the longest point so far took "
expect_rc "a deadline that is no time exits 2" 2 env GPUBENCH_SWEEP_DEADLINE=soon \
	bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$rb/bad"
# killed where timeout(1) signals the run and its children: the script it was in is recorded
# "killed" with what it made (how many points end first depends on the machine's load; 4 of
# 3 s each cannot all end in 8 s)
rk=$T_TMP/reproduce-killed
expect_rc "reproduce-all.sh killed by timeout(1) in its first script" 124 timeout -s TERM 8 \
	bash scripts/reproduce-all.sh --quick --gpubench "$T_TMP/slow-gpubench" --only pba-tables --out "$rk"
expect_err "it says where it was killed and how to go on" "killed by SIGTERM in pba-tables" \
	"run the same command again to go on"
check "timing.csv records pba-tables killed, its points run those with a report, and timing.md the same" python3 -c '
import csv, glob, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/timing.csv")))
assert [(r["script"], r["status"]) for r in rows] == [("pba-tables", "killed")], rows
made = len(glob.glob(sys.argv[1] + "/pba-tables/reports/*.json"))
assert int(rows[0]["points_run"]) == made < 4 and int(rows[0]["wall_s"]) >= 1, (rows, made)
assert "| pba-tables | 1 | " in open(sys.argv[1] + "/timing.md").read()' "$rk"
expect_rc "the same command again goes on and exits 0" 0 \
	bash scripts/reproduce-all.sh --quick --gpubench "$G" --only pba-tables --out "$rk"
# --point-timeout: a point still running after it is stopped (SIGINT), its report removed and
# its log kept; its script's other points go on, then the script fails without tables and the run
# goes on; the same command again makes what is missing (here the P128 points hang until SIGINT)
cat >"$T_TMP/hang-gpubench" <<EOF
#!/bin/bash
trap 'kill \$! 2>/dev/null; exit 130' INT
case " \$* " in *" --json "*-P128.json*) sleep 60 & wait \$! ;; esac
exec "$(cd "$(dirname "$G")" && pwd)/$(basename "$G")" "\$@"
EOF
chmod +x "$T_TMP/hang-gpubench"
rt=$T_TMP/reproduce-timeout
expect_rc "reproduce-all.sh --point-timeout 1 over two hanging points fails" 1 bash scripts/reproduce-all.sh --quick \
	--gpubench "$T_TMP/hang-gpubench" --only pba-tables,list-table1 --out "$rt" --point-timeout 1
expect_err "it names each point stopped, and its script" "pba-R16-P128 TIMED OUT: stopped after 1 s" \
	"pba-R32-P128 TIMED OUT: stopped after 1 s" \
	"pba-tables.sh: 2 point(s) stopped by the point timeout: no table or plot" "failed: pba-tables"
check "the other points were made, the stopped ones left no report and kept their logs, no table" python3 -c '
import glob, os, sys
d = sys.argv[1] + "/pba-tables/reports"
made = sorted(os.path.basename(p) for p in glob.glob(d + "/*.json"))
assert made == ["pba-R16-P64.json", "pba-R32-P64.json"], made
assert os.path.exists(d + "/pba-R16-P128.log") and not os.path.exists(sys.argv[1] + "/pba-tables/pba-tables.md")
' "$rt"
check "the run went on with the next script" test -s "$rt/list-table1/list-table1.md"
expect_rc "the same command with a gpubench that ends goes on and exits 0" 0 bash scripts/reproduce-all.sh --quick \
	--gpubench "$G" --only pba-tables,list-table1 --out "$rt" --point-timeout 60
check "it made the two stopped points and kept the rest" test -s "$rt/pba-tables/pba-tables.md" -a \
	"$(tail -n 2 "$rt/timing.csv" | cut -d, -f4,5,7,8 | paste -sd' ')" = "pba-tables,ok,2,2 list-table1,ok,0,$(ls "$rt"/list-table1/reports/*.json | wc -l)"
expect_rc "reproduce-all.sh --point-timeout 0 exits 2" 2 bash scripts/reproduce-all.sh --quick --point-timeout 0 --out "$rt"
expect_rc "a point timeout that is no time exits 2" 2 env GPUBENCH_SWEEP_POINT_TIMEOUT=soon \
	bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$rt/bad"
expect_err "it names the variable" "GPUBENCH_SWEEP_POINT_TIMEOUT: 'soon' is not a whole number of seconds"
expect_rc "reproduce-all.sh --point-timeout with --plot-only exits 2" 2 \
	bash scripts/reproduce-all.sh --plot-only --point-timeout 5 --out "$rt"
# detect-tables tells how long a detector's next size should take: a report at
# 64 x 64 said to have taken 1000 s forecasts 4000 s at 128 x 128 (N^2 from one size)
fc=$rb/forecast
expect_rc "detect-tables.sh makes one size's report" 0 bash scripts/detect-tables.sh --quick --algos osdda \
	--osdda-sizes 64 --impls cpu --gpubench "$G" --out "$fc"
edit_report "$fc/reports/detect-osdda-64-cpu.json" 'd["results"]["impls"][0]["stream_seconds"]["median"] = 1000.0'
forecast() { python3 scripts/lib/detect_tables.py forecast "$fc/reports" --algo osdda "$@"; }
check "detect_tables.py forecast grows the time as N^2 from one smaller size" \
	test "$(forecast --impl cpu --size 128)" = 4000
cp "$fc/reports/detect-osdda-64-cpu.json" "$T_TMP/fc-32.json"
edit_report "$T_TMP/fc-32.json" 'd["results"]["impls"][0]["stream_seconds"]["median"] = 125.0'
cp "$T_TMP/fc-32.json" "$fc/reports/detect-osdda-32-cpu.json"
check "from two sizes, as the detector grew between them (8x a doubling: N^3)" \
	test "$(forecast --impl cpu --size 128)" = 8000
rm "$fc/reports/detect-osdda-32-cpu.json"
check "and 0 for a detector without a smaller size" test "$(forecast --impl cpu-bits --size 128)" = 0
expect_rc "a point expected to outlast the deadline is not started" 3 env GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 100)) \
	bash scripts/detect-tables.sh --quick --algos osdda --osdda-sizes 64,128 --impls cpu --gpubench "$G" --out "$fc"
expect_err "it says how long it is expected to take" \
	"detect-osdda-128-cpu: not started: the time budget is spent or would be before it ended (the point is expected to take about 4000 s)"
check "and runs nothing" test ! -e "$fc/reports/detect-osdda-128-cpu.json"
: >"$T_TMP/session"
expect_rc "a point longer than the whole budget starts as the session's first" 0 env \
	GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 100)) GPUBENCH_SWEEP_BUDGET=100 GPUBENCH_SWEEP_SESSION="$T_TMP/session" \
	bash scripts/detect-tables.sh --quick --algos osdda --osdda-sizes 64,128 --impls cpu --gpubench "$G" --out "$fc"
expect_err "it says so" "detect-osdda-128-cpu: expected to take about 4000 s, longer than the whole time budget (100 s): started as the session's first point"
check "the session's file has its line" grep -q '^ran [0-9]*$' "$T_TMP/session"
rm "$fc/reports/detect-osdda-128-cpu.json"
expect_rc "... but not once the session has run a point" 3 env \
	GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 100)) GPUBENCH_SWEEP_BUDGET=100 GPUBENCH_SWEEP_SESSION="$T_TMP/session" \
	bash scripts/detect-tables.sh --quick --algos osdda --osdda-sizes 64,128 --impls cpu --gpubench "$G" --out "$fc"
expect_err "it says when it will start" "expected to take about 4000 s); it starts when it is the first point a session runs"
# the STM figures tell how long a point should take from the reports of its workload:
# its own earlier one, another series' growth from a point both have, or its own growth
sf=$rb/stm-forecast
mkdir -p "$sf"
for r in bank-prstm-A-x1:2 bank-prstm-A-x4:10 bank-gpustm-A-x1:4 vacation-prstm-A-x1:1 vacation-prstm-A-x2:3 \
	skiplist-prstm-A-x1:5 skiplist-prstm-A-x2:4 graph-prstm-A-x1:50 memcached-prstm-A-x1:2 memcached-prstm-A-x4:10 \
	memcached-gpustm-A-x1:4 memcached-gpustm-A-x2:8; do
	printf '{"meta": {"complete": true}, "results": {"wall_seconds": %s}}\n' "${r#*:}" >"$sf/${r%:*}.json"
done
printf '{"meta": {"complete": false}, "results": {"wall_seconds": 1}}\n' >"$sf/graph-gpustm-A-x1.json"
sfc() { python3 scripts/lib/report2csv.py forecast "$sf" "$1" --points 1,2,4; }
check "report2csv.py forecast: a point's own earlier report, a fifth and 2 s added (2 s: 5)" \
	test "$(sfc bank-prstm-A-x1)" = 5
check "... another engine's growth from a point both have (4 x 10 / 2 = 20 s: 26)" \
	test "$(sfc bank-gpustm-A-x4)" = 26
check "... from the nearest point both series have (memcached: gpustm's x2 is nearer, but only x1 is prstm's)" \
	test "$(sfc memcached-gpustm-A-x4)" = 26
check "... its own growth a step at a time (3 s, 3x a step: 9 s: 13)" test "$(sfc vacation-prstm-A-x4)" = 13
check "... never shrinking (5 s then 4 s: 4 s: 7)" test "$(sfc skiplist-prstm-A-x4)" = 7
check "... 0 from nothing of its series, an incomplete report, or another workload" \
	test "$(sfc graph-gpustm-A-x1)" = 0 -a "$(sfc kmeans-prstm-A-x1)" = 0
mkdir -p "$sf/fig"
printf '{"meta": {"complete": true}, "results": {"wall_seconds": 5000}}\n' >"$sf/fig/graph-prstm-A-x1.json"
expect_rc "fig13b.sh does not start a point its forecast puts past the deadline" 3 \
	env GPUBENCH_SWEEP_DEADLINE=$(($(date +%s) + 1000)) bash scripts/fig13b.sh --quick --gpubench "$G" \
	--algos prstm --hash 1 --out "$sf/fig"
expect_err "... and says how long it should take" \
	"graph-prstm-A-x1: not started: the time budget is spent or would be before it ended (the point is expected to take about 6002 s)"

# ---- scripts/lib/sweep.sh: a script that defaults to a dist/ older than
# ./gpubench says so; a failed run stops a sweep
echo "== sweep: a stale dist/"
mkdir -p "$T_TMP/stale/dist/bin"
cp "$G" "$T_TMP/stale/gpubench"
cp "$G" "$T_TMP/stale/dist/bin/gpubench"
touch -d '1 hour ago' "$T_TMP/stale/dist/bin/gpubench"
expect_rc "pba-tables.sh --quick runs dist/bin/gpubench by default" 0 \
	bash -c 'cd "$1" && bash "$2/scripts/pba-tables.sh" --quick --out out' sh "$T_TMP/stale" "$root"
expect_err "pba-tables.sh says dist/bin/gpubench is older than ./gpubench" \
	"pba-tables.sh: note: running dist/bin/gpubench, which is older than ./gpubench"
expect_rc "a sweep whose run fails exits 1" 1 \
	bash scripts/pba-tables.sh --quick --gpubench "$G" --out "$T_TMP/pba-fail" -- --bogus
expect_err "a failed sweep names the run and shows gpubench's message" \
	"pba-R16-P64 FAILED: gpubench exited 2" "unknown option '--bogus'" "no table or plot is made"
check "a failed sweep writes no table" test ! -e "$T_TMP/pba-fail/pba-tables.csv"
expect_rc "fig7.sh --threads without a value exits 2" 2 bash scripts/fig7.sh --threads --quick
expect_err "fig7.sh names the option that needs a value" "fig7.sh: option --threads needs a value"
expect_rc "fig9.sh --semantic-ratio with a bad list exits 2" 2 bash scripts/fig9.sh --semantic-ratio 5,x
expect_err "fig9.sh says what is wrong with the list" "--semantic-ratio: '5,x' is not a comma-separated list"

# ---- the GPU scripts (run on a GPU machine) at least parse, and the
# sanitizer script says what it lacks
echo "== gpu scripts: tests/gpu/*.sh"
for f in tests/gpu/*.sh; do
	check "bash -n $f" bash -n "$f"
done
expect_rc "sanitize.sh without compute-sanitizer exits 1" 1 \
	env COMPUTE_SANITIZER=/nonexistent/compute-sanitizer GPUBENCH="$G" bash tests/gpu/sanitize.sh
expect_out "sanitize.sh names what it did not find" "compute-sanitizer: /nonexistent/compute-sanitizer" \
	"sanitize-gpu: 0 passed, 1 failed"
check "sanitize.sh without compute-sanitizer runs nothing else (stderr empty)" test ! -s "$T_ERR"
expect_rc "check.sh with an unknown CHECK_GPU_PARTS exits 1 before running anything" 1 \
	env CHECK_GPU_PARTS=stm,bogus GPUBENCH="$G" bash tests/gpu/check.sh
expect_out "check.sh names the unknown part and the parts" "part that does not exist: bogus" \
	"devices stm stm-mv avoid detect speculate list reliability"
expect_rc "check.sh run directly, CHECK_GPU_PARTS unset, reaches its own checks" 1 \
	env -u CHECK_GPU_PARTS GPUBENCH=/nonexistent/gpubench bash tests/gpu/check.sh
expect_out "check.sh without CHECK_GPU_PARTS names the missing binary" "/nonexistent/gpubench is an executable"
check "check.sh without CHECK_GPU_PARTS: no unset-variable error" test -z "$(grep "unbound variable" "$T_ERR")"
# stm's checks are in two pieces, around stm-mv's
check "every part of check.sh has its if and its fi" test \
	"$(grep -c '^if part [a-z-]*; then$' tests/gpu/check.sh) $(grep -c '^fi # part [a-z-]*$' tests/gpu/check.sh)" = "9 9"
# common/port.h's diagnostic builds of the ticket (one atomic a lane; a warp sync before the shuffle:
# docs/stm.md, GPU-STM) compile
if command -v nvcc >/dev/null 2>&1; then
	for flag in GB_TICKET_PER_LANE GB_TICKET_SYNCWARP; do
		check "GPU-STM's kernels compile with -D$flag" nvcc -std=c++17 -I. -arch=sm_90 \
			-Xcompiler "-Wall -Wextra -Werror" -Werror all-warnings -D$flag -O3 -c \
			-o "$T_TMP/ticket-$flag.o" stm/gpustm/gpustm_gpu_set16.cu
	done
fi

# ---- the CPU-only build
echo "== nocuda: $GN"
if [ -x "$GN" ]; then
	expect_rc "nocuda: info exits 0" 0 "$GN" info
	expect_out "nocuda: info lists only the cpu backend" "backends compiled in: cpu"
	check "nocuda: info does not list a gpu backend" test -z "$(grep '^backends compiled in:.*gpu' "$T_OUT")"
	expect_rc "nocuda: info --quiet --json - exits 0" 0 "$GN" info --quiet --json -
	json_check "nocuda: info JSON has no gpu backend and no device" "$T_OUT" '
assert d["backends"] == ["cpu"], d["backends"]
assert d["devices"] == [], d["devices"]
assert "without CUDA" in d["no_device_reason"], d["no_device_reason"]
assert d["cuda_driver_version"] == 0 and d["cuda_runtime_version"] == 0
assert all(e["backends"] == ["cpu"] for e in d["engines"]["stm"]), d["engines"]'
	expect_rc "nocuda: a tiny stm run verifies" 0 "$GN" stm --threads 8 --accounts 64 --tx-per-thread 6 \
		--reps 1 --warmup 0 --json "$T_TMP/nocuda.json"
	check "nocuda: auto picks the CPU without a fallback note" test -z "$(grep -i 'on the CPU backend' "$T_ERR")"
	json_check "nocuda: the run's report" "$T_TMP/nocuda.json" '
assert d["config"]["backend"] == "cpu" and d["device"]["backend"] == "cpu"
assert d["meta"]["build_flags"].startswith("cpu-only"), d["meta"]["build_flags"]
assert d["verification"]["verified"] is True
assert d["results"]["commits"] == d["config"]["bank"]["transactions"] == 48
assert d["results"]["abandoned"] == 0'
	expect_rc "nocuda: --backend gpu exits 2" 2 "$GN" stm --backend gpu --threads 8 --accounts 64 --tx-per-thread 6
	expect_err "nocuda: --backend gpu says the binary was built without CUDA" "built without CUDA"
else
	fail "nocuda: $GN is not an executable"
fi

echo "scripts + gpu scripts + nocuda: $T_PASS passed, $T_FAIL failed"
total_pass=$((total_pass + T_PASS))
total_fail=$((total_fail + T_FAIL))
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
