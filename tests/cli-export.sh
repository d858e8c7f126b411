#!/usr/bin/env bash
# CLI tests of gpubench export: reports of every subcommand, files and
# folders, as CSV and markdown; each value in the table is the report's; the
# options' errors. GPUBENCH names the binary (default ./gpubench). Last line:
# "cli-export: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "cli-export: $G is not an executable (set GPUBENCH)"
	echo "cli-export: 0 passed, 1 failed"
	exit 1
fi
R=$T_TMP/reports
mkdir -p "$R/sub/deeper"

# One small report of every subcommand that runs, each with a compared implementation.
expect_rc "stm report" 0 "$G" stm --backend cpu --threads 8 --accounts 64 --tx-per-thread 6 --reps 2 \
	--compare gpustm --quiet --json "$R/stm.json"
expect_rc "avoid report" 0 "$G" avoid --impl cpu-fast --compare cpu --procs 16 --res 4 --events 10 --reps 2 \
	--quiet --json "$R/sub/avoid.json"
expect_rc "detect report" 0 "$G" detect --impl cpu-bits --compare cpu --procs 32 --res 32 --events 200 --reps 2 \
	--quiet --json "$R/sub/detect.json"
expect_rc "speculate report" 0 "$G" speculate --loop ocean --iters 2000 --backend cpu --compare seq,cpu-spec \
	--reps 2 --quiet --json "$R/sub/deeper/spec.json"
expect_rc "list report" 0 "$G" list --impl cpu-lockfree --compare cpu --nodes 128 --reps 2 --quiet \
	--json "$R/list.json"
"$G" info --quiet --json "$R/info.json"
echo "not json at all" >"$R/notes.txt"

# ---------------------------------------------------------------- CSV of a folder
expect_rc "export a folder as CSV exits 0" 0 "$G" export "$R"
cp "$T_OUT" "$T_TMP/all.csv"
expect_err "the info document is skipped with a note" "1 JSON file that is not run reports skipped"
check "every row's value is its report's (each implementation of each subcommand, by column path)" python3 - \
	"$T_TMP/all.csv" "$R" <<'PY'
import csv, json, os, sys
rows = list(csv.DictReader(open(sys.argv[1])))
root = sys.argv[2]
def stats(x, k): return x[k]["median"]
want = []  # (report, entry, role, column, value)
d = json.load(open(os.path.join(root, "stm.json")))
want += [("stm.json", "prstm", "run", "throughput_tx_per_s.median", stats(d["results"], "throughput_tx_per_s")),
         ("stm.json", "gpustm", "compared", "throughput_tx_per_s.median", stats(d["results"]["compare"][0], "throughput_tx_per_s")),
         ("stm.json", "gpustm", "compared", "abandoned", d["results"]["compare"][0]["abandoned"])]
for name, arr in (("sub/avoid.json", "impls"), ("sub/detect.json", "impls"), ("list.json", "impls")):
    d = json.load(open(os.path.join(root, name)))
    for k, e in enumerate(d["results"][arr]):
        key = "stream_seconds" if "stream_seconds" in e else [c for c in e if isinstance(e[c], dict) and "median" in e[c]][0]
        want.append((name, e["impl"], "compared" if k else "run", key + ".min", e[key]["min"]))
d = json.load(open(os.path.join(root, "sub/detect.json")))
want.append(("sub/detect.json", "cpu", "compared", "results.decisions.granted", d["results"]["decisions"]["granted"]))
d = json.load(open(os.path.join(root, "sub/deeper/spec.json")))
want += [("sub/deeper/spec.json", "speculate", "run", "loop_seconds.median", stats(d["results"], "loop_seconds")),
         ("sub/deeper/spec.json", "cpu-spec", "compared", "loop_seconds.max", d["results"]["baselines"][1]["loop_seconds"]["max"])]
assert len(rows) == 2 + 2 + 2 + 3 + 2, len(rows)
for rep, entry, role, col, value in want:
    mine = [r for r in rows if r["report"] == os.path.join(root, rep) and r["entry"] == entry]
    assert len(mine) == 1, (rep, entry, [(r["report"], r["entry"]) for r in rows])
    r = mine[0]
    assert r["role"] == role and r["verified"] == "true" and r["complete"] == "true", r
    got = r[col]
    assert (float(got) == float(value)) if isinstance(value, (int, float)) else got == str(value), (rep, entry, col, got, value)
# the report's own blocks on every row; compare's list joined
for r in rows:
    assert r["subcommand"] in ("stm", "avoid", "detect", "speculate", "list") and r["git_revision"], r
    assert r["device.backend"] == "cpu" and int(r["device.cpus_usable"]) >= 1, r
assert {r["config.compare"] for r in rows if r["subcommand"] == "speculate"} == {"seq+cpu-spec"}
# rows in report name order, then entry order
assert [r["entry"] for r in rows if r["subcommand"] == "speculate"] == ["speculate", "seq", "cpu-spec"]
PY

# ---------------------------------------------------------------- choosing
expect_rc "export --subcommand avoid exits 0" 0 "$G" export --subcommand avoid "$R"
check "--subcommand keeps one subcommand's rows" test "$(tail -n +2 "$T_OUT" | cut -d, -f2 | sort -u)" = avoid
expect_rc "export --columns exits 0" 0 "$G" export --columns entry,role,config.procs,stream_seconds.median \
	"$R/sub/avoid.json"
check "--columns: exactly those columns, in that order" test "$(head -n 1 "$T_OUT")" = \
	"entry,role,config.procs,stream_seconds.median"
check "--columns: a row per implementation" test "$(tail -n +2 "$T_OUT" | cut -d, -f1-3 | paste -sd' ')" = \
	"cpu-fast,run,16 cpu,compared,16"
expect_rc "export --columns nosuch exits 2" 2 "$G" export --columns entry,nosuch "$R/sub/avoid.json"
expect_err "--columns names the missing column" "option --columns: no column 'nosuch'"
expect_rc "export --format columns exits 0" 0 "$G" export --format columns "$R/list.json"
check "--format columns lists the names, one a line" grep -qx 'config.nodes' "$T_OUT"
check "--format columns has no duplicates" test "$(sort "$T_OUT" | uniq -d | wc -l)" = 0

# ---------------------------------------------------------------- markdown
expect_rc "export --format markdown exits 0" 0 "$G" export --format markdown "$R/stm.json" "$R/sub/avoid.json"
cp "$T_OUT" "$T_TMP/md"
check "markdown: a section per subcommand" test "$(grep -c '^## ' "$T_TMP/md")" = 2
check "markdown: what every row shares is listed above the table" grep -qx -- '- `config.procs`: 16' "$T_TMP/md"
check "markdown: the tables' rows, numbers right-aligned" python3 - "$T_TMP/md" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
heads = [i for i, l in enumerate(lines) if l.startswith("| report | entry |")]
assert len(heads) == 2, heads
for h in heads:
    cols = [c.strip() for c in lines[h].strip("|").split("|")]
    align = [c.strip() for c in lines[h + 1].strip("|").split("|")]
    assert len(cols) == len(align), (cols, align)
    body = []
    for l in lines[h + 2:]:
        if not l.startswith("|"):
            break
        body.append([c.strip() for c in l.strip("|").split("|")])
    assert len(body) == 2 and all(len(b) == len(cols) for b in body), body
    assert not any(c.endswith((".min", ".max")) for c in cols), cols
    for c, a in zip(cols, align):
        if c.endswith(".median"):
            assert a == "---:", (c, a)
    assert [b[cols.index("role")] for b in body] == ["run", "compared"], body
PY

# ---------------------------------------------------------------- output and errors
expect_rc "export --output PATH exits 0" 0 "$G" export --output "$T_TMP/out.csv" "$R"
check "--output writes what stdout would" cmp "$T_TMP/out.csv" "$T_TMP/all.csv"
check "--output leaves stdout empty" test ! -s "$T_OUT"
expect_rc "export --output into a missing folder exits 1" 1 "$G" export --output "$T_TMP/nope/x.csv" "$R"
expect_rc "export with no path exits 2" 2 "$G" export
expect_err "export says to name a report" "name at least one report or folder"
expect_rc "export of a missing path exits 2" 2 "$G" export "$T_TMP/missing.json"
expect_rc "export of a folder without run reports exits 2" 2 "$G" export "$T_TMP/reports/../reports/sub/deeper/.." --subcommand stm
expect_err "export names what it found none of" "no run report of stm in"
expect_rc "export of a file that is not JSON exits 2" 2 "$G" export "$R/notes.txt"
expect_rc "export --format pdf exits 2" 2 "$G" export --format pdf "$R"
mkdir -p "$T_TMP/comma"
cp "$R/list.json" "$T_TMP/comma/a,b.json"
expect_rc "a report whose name has a comma exports" 0 "$G" export --columns report,entry "$T_TMP/comma"
check "CSV quotes a field with a comma" grep -qF "\"$T_TMP/comma/a,b.json\",cpu-lockfree" "$T_OUT"
# ---------------------------------------------------------------- outputs over inputs, links, empty folders
L=$T_TMP/links
mkdir -p "$L/d" "$L/empty/none"
cp "$R/stm.json" "$L/d/"
cp "$R/stm.json" "$L/one.json"
ln -s .. "$L/d/up"
expect_rc "--output over the report it reads exits 2" 2 "$G" export --output "$L/one.json" "$L/one.json"
expect_err "it names the option and the report" "option --output" "is the report"
check "the report is still a report" python3 -c 'import json, sys; json.load(open(sys.argv[1]))["meta"]' "$L/one.json"
expect_rc "a .json --output inside a folder it reads exits 2" 2 "$G" export --output "$L/d/t.json" "$L/d"
expect_err "it says why" "is inside the folder" "not ending in .json"
expect_rc "a .csv --output inside a folder it reads is fine" 0 "$G" export --output "$L/d/t.csv" "$L/d"
rm -f "$L/d/t.csv"
expect_rc "a folder with a link back up exits 0" 0 "$G" export "$L/d"
cp "$T_OUT" "$T_TMP/links.csv"
check "the link back up is followed once: every report once" python3 -c '
import sys
p = sys.argv[2]
rows = [l.split(",")[0] for l in open(sys.argv[1]) if l.strip()][1:]
# d/stm.json and d/up/one.json, each with its compared engine; d/up/d is d again
assert sorted(set(rows)) == [p + "/d/stm.json", p + "/d/up/one.json"] and len(rows) == 4, rows
' "$T_TMP/links.csv" "$L"
expect_rc "an empty folder (and one of empty folders) exits 2" 2 "$G" export "$L/empty"
expect_err "it says there is no report" "no run report in"

expect_rc "export --help exits 0" 0 "$G" export --help
expect_out "export --help shows its usage and formats" "usage: gpubench export [options] PATH..." "markdown"
expect_rc "gpubench --help lists export" 0 "$G" --help
expect_out "the subcommand list has export" "  export "

summary cli-export
