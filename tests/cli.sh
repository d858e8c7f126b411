#!/usr/bin/env bash
# CLI integration tests of gpubench on the CPU backend: option handling, exit
# codes, messages and the JSON report. Tiny sizes: every run takes well under
# a second. GPUBENCH names the binary (default ./gpubench). Last line:
# "cli: N passed, N failed"; exit status 1 when any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "cli: $G is not an executable (set GPUBENCH)"
	echo "cli: 0 passed, 1 failed"
	exit 1
fi
# A tiny, fast bank run on the CPU backend.
TINY=(--backend cpu --threads 8 --accounts 64 --tx-per-thread 6 --reps 1 --warmup 0)

# ---------------------------------------------------------------- top level

expect_rc "--help exits 0" 0 "$G" --help
expect_out "--help lists the subcommands" "usage: gpubench" "stm" "info" "Exit status"
cp "$T_OUT" "$T_TMP/help.txt"
expect_rc "-h exits 0" 0 "$G" -h
check "-h prints the same as --help" cmp -s "$T_OUT" "$T_TMP/help.txt"
expect_rc "help without a subcommand exits 0" 0 "$G" help
check "help prints the same as --help" cmp -s "$T_OUT" "$T_TMP/help.txt"

expect_rc "help stm exits 0" 0 "$G" help stm
expect_out "help stm documents every option" "usage: gpubench stm" --algo --workload --backend \
	--threads --block-size --cpu-workers --hash --max-passes --no-tags --accounts \
	--tx-per-thread --semantic-ratio --read-only --transfers-per-tx --read-only-size --initial-balance \
	--presort --seed --reps --duration --warmup --paper --timeout --verify-every \
	--no-verify --json --quiet --compare --retry-limit --customers --room-types --rooms \
	--room-interval --initial-keys --key-range --capacity --levels prstm prstm-nocm gpustm bank vacation skiplist \
	--points --clusters --iterations --points-per-tx kmeans --vertices --edges --edges-per-tx --max-label graph \
	--items --ways --key-words --value-words --keys --zipf --set-permille memcached "does not apply to --workload memcached" \
	"does not apply to --workload kmeans" "Staged workloads"
cp "$T_OUT" "$T_TMP/help-stm.txt"
# a help text is not a format string: its '%' is printed as it is
check "help stm prints memcached's 99.8% GETs as written" grep -q "the paper: 99.8%" "$T_TMP/help-stm.txt"
expect_rc "stm --help exits 0" 0 "$G" stm --help
check "stm --help prints the same as help stm" cmp -s "$T_OUT" "$T_TMP/help-stm.txt"
expect_rc "stm -h exits 0" 0 "$G" stm -h
check "stm --help writes nothing on stderr" test ! -s "$T_ERR"

expect_rc "help info exits 0" 0 "$G" help info
expect_out "help info documents its options" "usage: gpubench info" --json --quiet
expect_rc "info --help exits 0" 0 "$G" info --help

expect_rc "help nosuch exits 2" 2 "$G" help nosuch
expect_err "help nosuch names it" "nosuch"
check "help nosuch prints nothing on stdout" test ! -s "$T_OUT"

expect_rc "--version exits 0" 0 "$G" --version
version_line=$(cat "$T_OUT")
if [[ $version_line =~ ^gpubench\ ([0-9]+\.[0-9]+\.[0-9]+)\ \(git\ ([^\)]+)\)$ ]]; then
	pass "--version prints version and git revision"
	G_VERSION=${BASH_REMATCH[1]}
	G_REV=${BASH_REMATCH[2]}
else
	fail "--version prints version and git revision" "got: $version_line"
	G_VERSION=unknown
	G_REV=unknown
fi
if [[ $G_REV =~ ^[0-9a-f]{7,40}(-dirty)?$ || $G_REV == unknown ]]; then
	pass "--version revision looks like git describe"
else
	fail "--version revision looks like git describe" "revision: $G_REV"
fi
expect_rc "-V exits 0" 0 "$G" -V
check "-V prints the same as --version" test "$(cat "$T_OUT")" = "$version_line"

expect_rc "no arguments exits 2" 2 "$G"
expect_err "no arguments prints the usage on stderr" "usage: gpubench"
check "no arguments prints nothing on stdout" test ! -s "$T_OUT"
expect_rc "unknown subcommand exits 2" 2 "$G" frobnicate
expect_err "unknown subcommand is named" "frobnicate"

# ---------------------------------------------------------------- option errors

expect_rc "stm unknown option exits 2" 2 "$G" stm --frobnicate 3
expect_err "stm unknown option is named" "--frobnicate"
expect_rc "stm unknown short option exits 2" 2 "$G" stm -x
expect_err "stm unknown short option is named" "-x"
expect_rc "info unknown option exits 2" 2 "$G" info --frobnicate
expect_err "info unknown option is named" "--frobnicate"
expect_rc "stm stray argument exits 2" 2 "$G" stm "${TINY[@]}" stray
expect_err "stm stray argument is named" "stray"
expect_rc "info stray argument exits 2" 2 "$G" info stray
expect_rc "stm missing value exits 2" 2 "$G" stm --threads
expect_err "stm missing value names the option" "--threads" "needs a value"
expect_rc "stm missing value of --json exits 2" 2 "$G" stm "${TINY[@]}" --json
expect_err "stm missing --json value names the option" "--json"
expect_rc "info missing value exits 2" 2 "$G" info --json
expect_err "info missing value names the option" "--json"

# Numeric options: name, lowest, highest accepted (as the message prints them).
numeric_opts=(
	"threads 1 524288"
	"block-size 0 1024"
	"cpu-workers 1 4096"
	"hash 1 2147483647"
	"max-passes 1 1000000000"
	"accounts 2 2147483647"
	"tx-per-thread 1 100000000"
	"semantic-ratio 0 100"
	"read-only 0 100"
	"transfers-per-tx 1 4"
	"read-only-size 0 2147483647"
	"initial-balance 1 100000000"
	"seed 0 18446744073709551615"
	"stall-timeout 0.001 86400"
	"retry-limit 1 1000000000"
	"customers 1 16777216"
	"room-types 1 65536"
	"rooms 1 1000000"
	"room-interval 1 4096"
	"points 1 4000000"
	"clusters 1 65536"
	"iterations 1 1000"
	"points-per-tx 0 4000000"
	"vertices 2 134217728"
	"edges 1 1073741824"
	"edges-per-tx 0 63"
	"max-label 1 1000000000"
	"reps 1 100000"
	"duration 0 86400"
	"warmup 0 1000"
	"warmup-time 0 3600"
	"timeout 0.001 864000"
	"verify-every 1 4294967295"
)
for spec in "${numeric_opts[@]}"; do
	read -r opt lo hi <<<"$spec"
	range="accepted: $lo..$hi"
	bad=(abc "" -1 12x 99999999999999999999999)
	if [ "$hi" != 18446744073709551615 ]; then
		if [[ $hi == *.* || $opt == duration || $opt == timeout ]]; then
			bad+=("${hi}1")
		else
			bad+=("$(python3 -c "print($hi + 1)")")
		fi
	fi
	case $lo in
	0) ;;
	0.001) bad+=(0.0001 0) ;;
	*) bad+=("$(python3 -c "print($lo - 1)")") ;;
	esac
	for v in "${bad[@]}"; do
		run "$G" stm --backend cpu "--$opt" "$v"
		if [ "$RC" = 2 ] && grep -qF -- "--$opt" "$T_ERR" && grep -qF -- "$range" "$T_ERR"; then
			pass "--$opt '$v' is refused"
		else
			fail "--$opt '$v' is refused with exit 2, the option and '$range'" "$(t_context)"
		fi
	done
done
# Values at both ends of a range are accepted (checked through the report below).
expect_rc "--block-size 33 exits 2" 2 "$G" stm "${TINY[@]}" --block-size 33
expect_err "--block-size 33 says why" "--block-size" "multiple of 32"
expect_rc "--hash above --accounts exits 2" 2 "$G" stm $(t_less TINY --accounts) --accounts 10 --hash 11
expect_err "--hash above --accounts names both" "--hash" "the 10 data words of --workload bank (--accounts)" "1..10"
expect_rc "--hash equal to --accounts is accepted" 0 "$G" stm $(t_less TINY --accounts) --accounts 10 --hash 10 --quiet
expect_rc "threads x tx-per-thread over the limit exits 2" 2 "$G" stm --backend cpu --threads 524288 --tx-per-thread 4097
expect_err "threads x tx-per-thread message" "--threads 524288" "--tx-per-thread 4097" "table limit"
expect_rc "--algo nosuch exits 2" 2 "$G" stm "${TINY[@]}" --algo nosuch
expect_err "--algo nosuch lists the engines" "--algo" "nosuch" "accepted: prstm|prstm-nocm|gpustm"
expect_rc "--workload nosuch exits 2" 2 "$G" stm "${TINY[@]}" --workload nosuch
expect_err "--workload nosuch lists the workloads" "--workload" "accepted: bank"
expect_rc "--compare naming the --algo exits 2" 2 "$G" stm "${TINY[@]}" --compare prstm
expect_err "--compare naming the --algo says so" "option --compare: prstm is the --algo itself"
expect_rc "--compare with an unknown engine exits 2" 2 "$G" stm "${TINY[@]}" --compare nosuch
expect_err "--compare nosuch lists the engines" "option --compare: unknown engine 'nosuch' (accepted: prstm"
expect_rc "--verify-every 0 exits 2 in stm, where checks are turned off by --no-verify" 2 "$G" stm "${TINY[@]}" \
	--verify-every 0
expect_rc "--compare naming an engine twice exits 2" 2 "$G" stm "${TINY[@]}" --compare gpustm,gpustm
expect_err "--compare naming an engine twice says so" "option --compare: gpustm is named twice"
expect_rc "a prstm option with --algo gpustm exits 2" 2 "$G" stm "${TINY[@]}" --algo gpustm --max-passes 5
expect_err "a prstm option with --algo gpustm names both" "option --max-passes applies to prstm only, not to --algo gpustm"
expect_rc "a gpustm option with --algo prstm exits 2" 2 "$G" stm "${TINY[@]}" --retry-limit 5
expect_err "a gpustm option with --algo prstm names both" \
	"option --retry-limit applies to gpustm, gpustm-local only, not to --algo prstm"
expect_rc "a gpustm option is accepted when gpustm is compared" 0 "$G" stm "${TINY[@]}" --compare gpustm \
	--retry-limit 5 --no-tags --quiet
expect_rc "--backend nosuch exits 2" 2 "$G" stm --backend nosuch
expect_err "--backend nosuch lists the backends" "--backend" "nosuch" "auto|gpu|cpu"

# Info first: it tells whether this binary has a GPU backend and a device.
expect_rc "info --json - exits 0" 0 "$G" info --json -
json_check "info --json - prints only JSON on stdout" "$T_OUT" 'assert "backends" in d'
expect_rc "info --quiet --json - exits 0" 0 "$G" info --quiet --json -
cp "$T_OUT" "$T_TMP/info.json"
json_check "info JSON has backends, devices and engines" "$T_TMP/info.json" '
assert isinstance(d["backends"], list) and "cpu" in d["backends"], d["backends"]
assert isinstance(d["devices"], list)
stm = d["engines"]["stm"]
assert isinstance(stm, list) and any(e["name"] == "prstm" for e in stm), stm
for e in stm:
    assert "cpu" in e["backends"] and isinstance(e["summary"], str) and e["summary"]
assert d["gpubench_version"] == "'"$G_VERSION"'", d["gpubench_version"]
assert d["git_revision"] == "'"$G_REV"'", d["git_revision"]
assert isinstance(d["cpu_model"], str) and isint(d["cpu_logical_cores"]) and d["cpu_logical_cores"] >= 1
if not d["devices"]:
    assert isinstance(d["no_device_reason"], str) and d["no_device_reason"]
'
has_gpu_backend=$(python3 -c 'import json,sys; print(int("gpu" in json.load(open(sys.argv[1]))["backends"]))' "$T_TMP/info.json" 2>/dev/null || echo 0)
ndevices=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$T_TMP/info.json" 2>/dev/null || echo 0)
run "$G" info
check "info lists the backends" grep -q '^backends compiled in: cpu' "$T_OUT"
check "info lists the engine" grep -q '^stm engine prstm' "$T_OUT"
check "info lists the workloads" grep -q '^stm workload bank: ' "$T_OUT"
check "info lists vacation" grep -q '^stm workload vacation: ' "$T_OUT"
check "info lists skiplist" grep -q '^stm workload skiplist: ' "$T_OUT"
check "info lists kmeans" grep -q '^stm workload kmeans: ' "$T_OUT"
check "info lists graph" grep -q '^stm workload graph: ' "$T_OUT"
check "info lists memcached" grep -q '^stm workload memcached: ' "$T_OUT"
json_check "info JSON: STM engines carry their limits and workloads" "$T_TMP/info.json" '
e = {x["name"]: x for x in d["engines"]["stm"]}
for name in ("prstm", "gpustm", "gpustm-local"): # graph transactions of up to 64 words
    p = e[name]
    assert p["max_threads"] == 524288 and p["max_words_per_transaction"] == 64, p
    assert p["max_words_by_workload"] == {"bank": 8, "vacation": 8, "skiplist": 16, "kmeans": 8, "graph": 64,
                                          "memcached": 16}, p
    assert p["workloads"] == ["bank", "vacation", "skiplist", "kmeans", "graph", "memcached"] and p["cannot_run"] == [], p
# prstm logs read-only transactions past its sets on the bank and memcached (its read log); gpustm does not
assert e["prstm"]["max_read_only_words_by_workload"] == {"bank": 8 + (1 << 24), "memcached": 16 + (1 << 24)}, e["prstm"]
assert e["gpustm"]["max_read_only_words_by_workload"] == {}, e["gpustm"]
for name in ("csmv", "csmv-nocv", "csmv-onlycs", "csmv-index", "csmv-index-nocv", "csmv-index-onlycs", "jvstm",
             "jvstm-gpu"):
    assert e[name]["workloads"] == ["bank", "memcached"] and len(e[name]["cannot_run"]) == 4, e[name]
w = d["engines"]["stm_workloads"]
assert [x["name"] for x in w] == ["bank", "vacation", "skiplist", "kmeans", "graph", "memcached"], w
assert all(x["summary"] for x in w), w
for x in e.values():
    assert isinstance(x["cannot_run"], list) and all(x["name"] in s for s in x["cannot_run"]), x
# a GPU implementation is built exactly when the binary has a GPU backend
cuda = "gpu" in d["backends"]
for sub in ("detect", "avoid", "list"):
    for x in d["engines"][sub]:
        if x["gpu"] and x.get("platform") in (None, "gpu"):
            assert x["built"] is cuda, (sub, x)'
expect_rc "info --quiet exits 0" 0 "$G" info --quiet
check "info --quiet prints nothing" test ! -s "$T_OUT"
expect_rc "info --json PATH exits 0" 0 "$G" info --quiet --json "$T_TMP/info2.json"
json_check "info --json PATH writes the same document" "$T_TMP/info2.json" '
import json
other = json.load(open("'"$T_TMP/info.json"'"))
assert sorted(d) == sorted(other), (sorted(d), sorted(other))
assert d["backends"] == other["backends"] and d["engines"] == other["engines"]
'

if [ "$ndevices" = 0 ]; then
	if [ "$has_gpu_backend" = 1 ]; then
		expect_rc "--backend gpu without a GPU exits 1" 1 "$G" stm "${TINY[@]/cpu/gpu}"
		expect_err "--backend gpu without a GPU says why" "--backend gpu"
		expect_rc "--backend auto without a GPU falls back to the CPU" 0 "$G" stm "${TINY[@]/cpu/auto}" --json "$T_TMP/auto.json"
		expect_err "--backend auto notes the fallback" "CPU backend"
		json_check "--backend auto reports the cpu backend" "$T_TMP/auto.json" '
assert d["config"]["backend"] == "cpu" and d["device"]["backend"] == "cpu"'
	else
		expect_rc "--backend gpu in a CPU-only build exits 2" 2 "$G" stm "${TINY[@]/cpu/gpu}"
		expect_err "--backend gpu in a CPU-only build says so" "built without CUDA"
	fi
fi

expect_rc "an impossible bank table exits 2" 2 "$G" stm --backend cpu --accounts 2 \
	--initial-balance 1 --semantic-ratio 0 --threads 100 --tx-per-thread 10 --reps 1
expect_err "an impossible bank table says what to change" "--initial-balance 1" "too small"

# ---------------------------------------------------------------- the report

R=$T_TMP/reports
mkdir -p "$R"
expect_rc "stm --json PATH exits 0" 0 "$G" stm --backend cpu --threads 16 --cpu-workers 3 \
	--accounts 100 --tx-per-thread 10 --semantic-ratio 50 --read-only 20 --transfers-per-tx 2 \
	--initial-balance 5000 --seed 99 --hash 2 --reps 3 --warmup 1 --json "$R/full.json"
check "stm --json PATH prints the summary on stdout" grep -q '^  verified     yes' "$T_OUT"
json_check "report: top level has the five blocks in order" "$R/full.json" '
assert list(d) == ["meta", "device", "config", "results", "verification"], list(d)'
json_check "report: meta" "$R/full.json" '
import re
m = d["meta"]
for k in ["schema_version", "gpubench_version", "git_revision", "build_flags", "subcommand", "argv", "date_utc", "host", "complete"]:
    assert k in m, k
assert m["schema_version"] == 1 and isint(m["schema_version"])
assert m["gpubench_version"] == "'"$G_VERSION"'", m["gpubench_version"]
assert m["git_revision"] == "'"$G_REV"'", m["git_revision"]
assert isinstance(m["build_flags"], str) and m["build_flags"]
assert m["subcommand"] == "stm"
assert m["argv"] == ["stm", "--backend", "cpu", "--threads", "16", "--cpu-workers", "3", "--accounts", "100", "--tx-per-thread", "10", "--semantic-ratio", "50", "--read-only", "20", "--transfers-per-tx", "2", "--initial-balance", "5000", "--seed", "99", "--hash", "2", "--reps", "3", "--warmup", "1", "--json", "'"$R/full.json"'"], m["argv"]
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", m["date_utc"]), m["date_utc"]
assert isinstance(m["host"], str) and m["host"]
assert m["complete"] is True'
json_check "report: device" "$R/full.json" '
v = d["device"]
assert v["backend"] == "cpu"
assert isinstance(v["cpu_model"], str) and v["cpu_model"]
assert isint(v["cpu_logical_cores"]) and v["cpu_logical_cores"] >= 1
assert v["cpu_workers"] == 3, v["cpu_workers"]'
json_check "report: config" "$R/full.json" '
c = d["config"]
want = dict(algo="prstm", workload="bank", backend="cpu", threads=16, hash=2, max_passes=1000000,
            stall_timeout_s=1,
            priority_tags=True, reps=3, duration_s=0, warmup=1, verify=True, verify_every=1,
            timeout_s=600, paper=False, cpu_workers=3, block_size=0, warmup_time_s=0.2)
for k, v in want.items():
    assert c[k] == v and type(c[k]) == type(v), (k, c[k], v)
b = c["bank"]
want = dict(accounts=100, tx_per_thread=10, semantic_ratio=50, read_only=20, transfers_per_tx=2,
            initial_balance=5000, presort=False, seed=99, transactions=160)
for k, v in want.items():
    assert b[k] == v and type(b[k]) == type(v), (k, b[k], v)
# per thread: 2 read-only, 8 updates, 1 chain (3 entries), 5 non-semantic
assert b["read_only_transactions"] == 32, b
assert b["chains"] == 16 and b["deposits"] == 16 and b["withdrawals"] == 16, b
assert b["transfers"] == 16 + 80, b
assert b["deposits"] + b["withdrawals"] + b["transfers"] + b["read_only_transactions"] == b["transactions"]'
json_check "report: the run compares nothing, and gives up nothing past a retry limit" "$R/full.json" '
assert d["config"]["compare"] == [] and d["results"]["compare"] == [], (d["config"]["compare"], d["results"]["compare"])
assert d["config"]["tx_per_thread"] == 10 and d["results"]["retry_limit_reached"] == 0'
json_check "report: results" "$R/full.json" '
r = d["results"]
ntx = d["config"]["bank"]["transactions"]
ro = d["config"]["bank"]["read_only_transactions"]
t = r["throughput_tx_per_s"]
assert sorted(t) == ["max", "mean", "median", "min", "n", "samples", "stdev"], sorted(t)
assert len(t["samples"]) == 3 and min(t["samples"]) == t["min"] and max(t["samples"]) == t["max"], t
assert sorted(t["samples"])[1] == t["median"], t
assert t["n"] == 3 and isint(t["n"])
assert 0 < t["min"] <= t["median"] <= t["max"], t
assert t["min"] <= t["mean"] <= t["max"] and t["stdev"] >= 0, t
assert r["reps_completed"] == 3
assert r["batches"] == 3, r["batches"]
assert r["transactions_per_batch"] == ntx
assert r["device_seconds"] > 0 and r["wall_seconds"] >= r["device_seconds"], (r["device_seconds"], r["wall_seconds"])
assert r["abandoned"] == 0 and r["threads_gave_up"] == 0 and r["threads_timed_out"] == 0
assert r["commits"] == 3 * ntx, (r["commits"], ntx)
assert r["commits_update"] + r["commits_read_only"] == r["commits"]
assert r["commits_read_only"] == 3 * ro, r["commits_read_only"]
a = r["aborts"]
for k in ["total", "conflict", "conflict_locked", "conflict_priority", "validation", "semantic"]:
    assert isint(a[k]) and a[k] >= 0, (k, a[k])
assert a["conflict"] == a["conflict_locked"] + a["conflict_priority"], a
assert a["total"] == a["conflict"] + a["validation"] + a["semantic"], a
assert abs(r["abort_rate"] - a["total"] / (a["total"] + r["commits"])) < 1e-9, r["abort_rate"]
assert r["time_per_tx_ns"] > 0 and 0 <= r["wasted_per_tx_ns"] <= r["time_per_tx_ns"]
assert 0 <= r["wasted_fraction"] <= 1
assert abs(r["wasted_per_tx_ns"] / r["time_per_tx_ns"] - r["wasted_fraction"]) < 1e-6
ph = r["committed_phases_ns"]
assert ph["read"] > 0 and ph["validate"] > 0 and ph["commit"] > 0, ph
# the phases split the committed attempts: their sum is the time of those attempts per commit
assert abs(ph["read"] + ph["validate"] + ph["commit"] - (r["time_per_tx_ns"] - r["wasted_per_tx_ns"])) < 1e-6 * r["time_per_tx_ns"] + 1e-9, (ph, r["time_per_tx_ns"], r["wasted_per_tx_ns"])
assert isint(r["passes_max"]) and r["passes_max"] >= 0
assert "thread_time_per_tx_ns" in r and r["thread_time_per_tx_ns"] is None, r.get("thread_time_per_tx_ns")  # GPU kernels only
for k in ["reps_completed", "batches", "transactions_per_batch", "commits", "commits_update", "commits_read_only", "abandoned", "passes_max", "threads_gave_up", "threads_stalled", "threads_timed_out"]:
    assert isint(r[k]), k'
json_check "report: verification" "$R/full.json" '
v = d["verification"]
assert v["verified"] is True
assert isinstance(v["method"], str) and v["method"] != "none"
assert v["batches_verified"] == 3 and v["batches_total"] == 3
assert v["message"] == ""
assert v["money_before"] == 100 * 5000 and v["money_after"] == 100 * 5000, (v["money_before"], v["money_after"])
# everything committed and the table nets to zero: every account is back at 5000
assert v["min_balance"] == 5000, v["min_balance"]
assert v["balances_fnv1a"] == fnv1a_balances([5000] * 100), v["balances_fnv1a"]'
check "report: no temporary file left" test -z "$(find "$R" -name '*.tmp.*')"

# Edges of numeric ranges are accepted.
expect_rc "range ends are accepted" 0 "$G" stm --backend cpu --threads 2 --accounts 2 --hash 2 \
	--tx-per-thread 1 --semantic-ratio 0 --read-only 100 --transfers-per-tx 4 --initial-balance 100000000 \
	--seed 18446744073709551615 --reps 1 --warmup 0 --duration 0 --timeout 864000 --max-passes 1 \
	--verify-every 4294967295 --block-size 1024 --cpu-workers 4096 --quiet --json "$R/edges.json"
json_check "range ends are reported" "$R/edges.json" '
c = d["config"]
assert c["block_size"] == 1024 and c["cpu_workers"] == 2 and c["hash"] == 2, c
assert c["verify_every"] == 4294967295 and c["timeout_s"] == 864000
assert c["bank"]["seed"] == 18446744073709551615, c["bank"]["seed"]
assert c["bank"]["transfers_per_tx"] == 4 and c["bank"]["initial_balance"] == 100000000
assert d["results"]["commits"] == 2 and d["results"]["commits_read_only"] == 2
assert d["results"]["gpu_block_size"] == 0
assert d["verification"]["verified"] is True'
expect_rc "a 12-digit seed runs" 0 "$G" stm "${TINY[@]}" --seed 123456789012 --quiet --json "$R/seed.json"
json_check "the report keeps a 12-digit seed exactly" "$R/seed.json" '
assert d["config"]["bank"]["seed"] == 123456789012, d["config"]["bank"]["seed"]'

# --json - prints exactly one JSON document on stdout.
expect_rc "stm --json - exits 0" 0 "$G" stm "${TINY[@]}" --json -
json_check "stm --json - prints only JSON on stdout" "$T_OUT" '
assert d["meta"]["subcommand"] == "stm" and d["verification"]["verified"] is True'
check "stm --json - keeps notes on stderr" grep -q "generated" "$T_ERR"

# --quiet
expect_rc "stm --quiet exits 0" 0 "$G" stm "${TINY[@]}" --quiet
check "stm --quiet prints nothing on stdout" test ! -s "$T_OUT"
check "stm --quiet prints nothing on stderr" test ! -s "$T_ERR"
expect_rc "stm --quiet --json PATH exits 0" 0 "$G" stm "${TINY[@]}" --quiet --json "$R/quiet.json"
check "stm --quiet --json PATH prints nothing" test ! -s "$T_OUT" -a ! -s "$T_ERR"
json_check "stm --quiet still writes the report" "$R/quiet.json" 'assert d["verification"]["verified"] is True'
expect_rc "stm without --quiet prints the summary" 0 "$G" stm "${TINY[@]}"
expect_out "the summary names backend, commits and verification" "cpu backend" "commits" "verified     yes"

# --no-verify
expect_rc "stm --no-verify exits 0" 0 "$G" stm $(t_less TINY --reps) --reps 2 --no-verify --json "$R/noverify.json"
json_check "--no-verify reports verified null" "$R/noverify.json" '
v = d["verification"]
assert "verified" in v and v["verified"] is None, v
assert v["method"] == "none" and v["batches_verified"] == 0 and v["batches_total"] == 2, v
assert v["message"] == "--no-verify or --verify-every 0", v
assert "balances_fnv1a" not in v
assert d["config"]["verify"] is False
assert d["results"]["commits"] == 2 * d["config"]["bank"]["transactions"]'
check "--no-verify says so in the summary" grep -q "not checked" "$T_OUT"

# --seed reproducibility. One logical thread, no tags, one pass: the chain
# steps that come out of order are abandoned, so the final balances depend on
# the table (and so on the seed) but not on timing.
SEEDRUN=(--backend cpu --threads 1 --accounts 20 --tx-per-thread 60 --semantic-ratio 100
	--no-tags --max-passes 1 --reps 1 --warmup 0 --quiet)
expect_rc "seed 5, first run" 0 "$G" stm "${SEEDRUN[@]}" --seed 5 --json "$R/s5a.json"
expect_rc "seed 5, second run" 0 "$G" stm "${SEEDRUN[@]}" --seed 5 --json "$R/s5b.json"
expect_rc "seed 6" 0 "$G" stm "${SEEDRUN[@]}" --seed 6 --json "$R/s6.json"
json_check "seed run abandons and verifies" "$R/s5a.json" '
assert d["results"]["abandoned"] > 0 and d["verification"]["verified"] is True, d["results"]["abandoned"]
assert d["config"]["priority_tags"] is False and d["config"]["max_passes"] == 1'
h5a=$(json_get "$R/s5a.json" verification.balances_fnv1a 2>/dev/null)
h5b=$(json_get "$R/s5b.json" verification.balances_fnv1a 2>/dev/null)
h6=$(json_get "$R/s6.json" verification.balances_fnv1a 2>/dev/null)
if [ -n "$h5a" ] && [ "$h5a" = "$h5b" ]; then pass "same seed, same balances"; else fail "same seed, same balances" "$h5a vs $h5b"; fi
if [ -n "$h6" ] && [ "$h5a" != "$h6" ]; then pass "different seed, different balances"; else fail "different seed, different balances" "$h5a vs $h6"; fi
a5a=$(json_get "$R/s5a.json" results.abandoned 2>/dev/null)
a5b=$(json_get "$R/s5b.json" results.abandoned 2>/dev/null)
check "same seed, same abandoned count" test -n "$a5a" -a "$a5a" = "$a5b"

# --paper: duration 5 and 10 repetitions, explicit values win.
expect_rc "--paper with explicit --reps and --duration runs" 0 "$G" stm $(t_less TINY --reps) --paper --reps 1 --duration 0.01 --quiet --json "$R/paper.json"
json_check "--paper keeps explicit --reps and --duration" "$R/paper.json" '
c = d["config"]
assert c["paper"] is True and c["reps"] == 1 and c["duration_s"] == 0.01, c
assert d["results"]["reps_completed"] == 1 and d["results"]["batches"] >= 1'
# Without explicit values --paper would run 50 s; a tiny --timeout stops it at once. The delay
# makes the first timed interval after generation outlast --timeout: the run stops after
# generation, before the first batch, and the report has its whole config.
expect_rc "--paper alone (stopped by --timeout) exits 1" 1 env GPUBENCH_TEST_DELAY_US=200000 "$G" stm \
	$(t_less TINY --reps) --paper --timeout 0.1 --quiet --json "$R/paper2.json"
json_check "--paper sets duration 5 and 10 repetitions" "$R/paper2.json" '
c = d["config"]
assert c["paper"] is True and c["duration_s"] == 5 and c["reps"] == 10, (c["duration_s"], c["reps"])'

# --max-passes 1 with semantic chains spread over threads: abandoned, still verified. Eight
# workers on any core count: few workers step their lanes in an order that lets every chain
# finish in one pass, and then nothing is abandoned.
expect_rc "--max-passes 1 exits 0" 0 "$G" stm --backend cpu --threads 32 --accounts 50 --tx-per-thread 12 \
	--semantic-ratio 100 --max-passes 1 --cpu-workers 8 --reps 2 --warmup 0 --quiet --json "$R/passes.json"
json_check "--max-passes 1 abandons and verifies" "$R/passes.json" '
r = d["results"]
ntx = d["config"]["bank"]["transactions"]
assert r["abandoned"] > 0 and r["threads_gave_up"] > 0, (r["abandoned"], r["threads_gave_up"])
assert r["commits"] + r["abandoned"] == 2 * ntx, (r["commits"], r["abandoned"], ntx)
assert r["passes_max"] <= 1, r["passes_max"]
assert d["verification"]["verified"] is True and d["config"]["max_passes"] == 1'

# A timed run of rounds that a --max-passes give-up halts before --duration says so, in the summary and
# in meta.warnings (its abandoned count is 0: rounds leave nothing finished for good)
expect_rc "--max-passes 1 with --duration exits 0" 0 "$G" stm --backend cpu --threads 32 --accounts 50 \
	--tx-per-thread 12 --semantic-ratio 100 --max-passes 1 --cpu-workers 8 --duration 0.2 --reps 1 --warmup 0 \
	--json "$R/halted.json"
expect_out "the summary says the timed run halted" "halted" "not --duration 0.2 s: WARNING" "--max-passes"
json_check "a halted timed run warns in meta.warnings" "$R/halted.json" '
r = d["results"]
assert r["timed_run"] == "rounds" and r["threads_gave_up"] > 0 and r["abandoned"] == 0, r
w = d["meta"]["warnings"]
assert len(w) == 1 and "stopped before --duration" in w[0], w'

# --timeout: a run cut short exits 1 and says so in the report.
expect_rc "--timeout 0.01 exits 1" 1 env GPUBENCH_TEST_DELAY_US=20000 "$G" stm --backend cpu --threads 64 \
	--accounts 1000 --tx-per-thread 100 --reps 3 --timeout 0.01 --json "$R/timeout.json"
expect_err "--timeout says the report is incomplete" "--timeout" "incomplete"
json_check "--timeout marks the report incomplete" "$R/timeout.json" '
assert d["meta"]["complete"] is False
assert d["config"]["timeout_s"] == 0.01
r = d["results"]
assert r["reps_completed"] < 3, r["reps_completed"]
assert r["throughput_tx_per_s"]["n"] == r["reps_completed"]
if r["reps_completed"] == 0:
    assert r["throughput_tx_per_s"]["median"] is None
if d["verification"]["batches_verified"] == 0:
    assert d["verification"]["verified"] is None'
check "--timeout leaves no temporary file" test -z "$(find "$R" -name '*.tmp.*')"

# --duration: one run per repetition in which threads sweep their blocks round
# after round; --verify-every 2 checks every other run.
expect_rc "--verify-every 2 --duration exits 0" 0 "$G" stm $(t_less TINY --reps) --reps 3 --verify-every 2 --duration 0.05 --quiet --json "$R/every.json"
json_check "--duration runs rounds, --verify-every 2 checks every other run" "$R/every.json" '
v = d["verification"]; r = d["results"]
assert r["timed_run"] == "rounds", r["timed_run"]
assert v["method"] == "final balances = start + commit counts x amounts", v["method"]
n = v["batches_total"]
assert n == r["batches"] == 3 and r["reps_completed"] == 3, (n, r["batches"])
assert v["batches_verified"] == 2, v["batches_verified"]
assert v["verified"] is True
assert r["device_seconds"] >= 3 * 0.05
assert r["throughput_tx_per_s"]["n"] == 3'
# a --duration under a nanosecond is still a timed run of rounds (it was 0 ns, one pass, checked as rounds)
expect_rc "--duration 1e-10 exits 0" 0 "$G" stm --backend cpu --threads 1 --tx-per-thread 1 --accounts 2 --reps 1 \
	--warmup 0 --duration 1e-10 --quiet --json "$R/dur-tiny.json"
json_check "--duration 1e-10: a timed run of rounds, verified" "$R/dur-tiny.json" '
r = d["results"]
assert r["timed_run"] == "rounds" and r["commits"] >= 1, r
assert d["verification"]["verified"] is True'
expect_rc "--duration without semantic chains exits 0" 0 "$G" stm $(t_less TINY --accounts) --semantic-ratio 0 --read-only 20 \
	--accounts 200 --duration 0.1 --quiet --json "$R/rounds.json"
json_check "--duration wraps the table: more commits than transactions, all verified" "$R/rounds.json" '
v = d["verification"]; r = d["results"]
assert r["timed_run"] == "rounds" and v["verified"] is True, v
assert r["commits"] > 3 * d["config"]["bank"]["transactions"], r["commits"]
assert r["commits_read_only"] > 0 and r["threads_timed_out"] == 0
assert v["money_before"] == v["money_after"] == 200 * 1000
assert 0.1 <= r["device_seconds"] < 2, r["device_seconds"]'

# --timeout stops a run in progress between transactions (the threads poll
# the clock; a batch cut the same way is a unit test, where the cut does not
# depend on how fast this machine generates tables): what committed is checked.
t0=$(date +%s.%N)
expect_rc "--timeout in the middle of a --duration run exits 1" 1 "$G" stm $(t_less TINY --accounts) --semantic-ratio 0 \
	--accounts 200 --duration 60 --timeout 0.3 --quiet --json "$R/cut2.json"
check "--timeout 0.3 ends a 60 s run within 5 s" awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { exit !(b - a < 5) }'
json_check "--timeout mid-run: incomplete, what committed is verified" "$R/cut2.json" '
v = d["verification"]; r = d["results"]
assert d["meta"]["complete"] is False and r["timed_run"] == "rounds"
assert r["threads_timed_out"] == 8 and r["commits"] > 0 and r["reps_completed"] == 0
assert v["verified"] is True and r["device_seconds"] < 5, (v, r["device_seconds"])'

# --timeout before any repetition of either engine: no throughput, no speedup, nothing claimed.
expect_rc "--compare cut short before a repetition exits 1" 1 env GPUBENCH_TEST_DELAY_US=200000 "$G" stm \
	--backend cpu --threads 64 --accounts 1000 --tx-per-thread 100 --compare gpustm --timeout 0.1 \
	--json "$R/compare-cut.json"
json_check "--compare cut short: speedup and verdicts null, why unverified" "$R/compare-cut.json" '
r = d["results"]; v = d["verification"]; (g,) = r["compare"]
assert d["meta"]["complete"] is False and r["reps_completed"] == 0 and g["reps_completed"] == 0, r
assert r["throughput_tx_per_s"]["median"] is None and g["throughput_tx_per_s"]["n"] == 0, g
assert g["speedup_of_algo"] is None and g["verified"] is None and g["batches_verified"] == 0, g
assert v["verified"] is None and v["batches_verified"] == 0 and "--timeout" in v["message"], v'
expect_out "--compare cut short: the summary says so" "  prstm        no repetition finished" \
	"  gpustm       no repetition finished" "  incomplete   --timeout 0.1 s reached"

# gpustm: GPU-STM as the paper compares against, and --compare
expect_rc "stm --algo gpustm runs and verifies" 0 "$G" stm $(t_less TINY --reps) --algo gpustm --semantic-ratio 0 \
	--reps 2 --quiet --json "$R/gpustm.json"
# On the CPU backend a thread descheduled while it holds locks can make another abort 100 times
# on a loaded machine, so the default run asserts the accounting, and a run with a limit no
# load reaches asserts that every transaction commits.
json_check "gpustm report: verified, the paper's retry limit, every transaction committed or counted" "$R/gpustm.json" '
c = d["config"]; r = d["results"]; n = r["retry_limit_reached"]
assert c["algo"] == "gpustm" and c["retry_limit"] == 100 and c["compare"] == [], c
assert r["commits"] + n == 2 * c["bank"]["transactions"] and r["abandoned"] == n, r
assert r["aborts"]["conflict_priority"] == 0 and r["passes_max"] == 1, r
assert d["verification"]["verified"] is True'
expect_rc "stm --algo gpustm --retry-limit 1000000000 runs and verifies" 0 "$G" stm $(t_less TINY --reps) \
	--algo gpustm --semantic-ratio 0 --retry-limit 1000000000 --reps 2 --quiet --json "$R/gpustm-nolimit.json"
json_check "gpustm report: with no reachable retry limit every transaction commits" "$R/gpustm-nolimit.json" '
c = d["config"]; r = d["results"]
assert c["retry_limit"] == 1000000000, c
assert r["commits"] == 2 * c["bank"]["transactions"] and r["abandoned"] == 0 and r["retry_limit_reached"] == 0, r
assert d["verification"]["verified"] is True'
expect_rc "gpustm at --retry-limit 1 on semantic chains gives transactions up, counted" 0 "$G" stm --backend cpu \
	--algo gpustm --threads 32 --accounts 50 --tx-per-thread 12 --retry-limit 1 --reps 1 --warmup 0 \
	--json "$R/gpustm-limit.json"
expect_out "the summary says how many were given up at the retry limit" "retry limit" "--retry-limit 1 attempts"
json_check "gpustm report: every transaction past the retry limit counted and abandoned" "$R/gpustm-limit.json" '
r = d["results"]; n = r["retry_limit_reached"]
assert n > 0 and r["abandoned"] == n and r["commits"] + n == d["config"]["bank"]["transactions"], r
assert d["config"]["retry_limit"] == 1
assert d["verification"]["verified"] is True
w = d["meta"]["warnings"]
assert len(w) == 1 and ("%d transactions were abandoned" % n) in w[0] and "--retry-limit" in w[0], w'
expect_out "the abandoned hint names gpustm's own option only" "(see --retry-limit)"
expect_rc "a --compare engine that abandons transactions" 0 "$G" stm --backend cpu --algo prstm --compare gpustm \
	--threads 32 --accounts 50 --tx-per-thread 12 --retry-limit 1 --reps 1 --warmup 0 --quiet \
	--json "$R/gpustm-limit-compare.json"
json_check "a --compare engine's abandoned transactions are a warning of their own, named" \
	"$R/gpustm-limit-compare.json" '
n = d["results"]["compare"][0]["abandoned"]
w = [x for x in d["meta"]["warnings"] if x.startswith("gpustm: ")]
assert n > 0 and len(w) == 1 and ("%d transactions were abandoned" % n) in w[0], d["meta"]["warnings"]'
# nothing committed: the times per transaction divide by zero and are null
expect_rc "kmeans cut before its first batch exits 1" 1 env GPUBENCH_TEST_DELAY_US=200000 "$G" stm --backend cpu \
	--workload kmeans --points 2000 --threads 64 --timeout 0.1 --reps 1 --warmup 0 --quiet --json "$R/kmeans-cut.json"
json_check "no commit: time_per_tx_ns, wasted_per_tx_ns, wasted_fraction and cycles_per_ns are null" \
	"$R/kmeans-cut.json" '
r = d["results"]
assert r["commits"] == 0, r["commits"]
assert r["time_per_tx_ns"] is None and r["wasted_per_tx_ns"] is None and r["wasted_fraction"] is None, r
assert r["cycles_per_ns"] is None and all(v is None for v in r["committed_phases_ns"].values()), r'
expect_rc "gpustm --duration runs batches" 0 "$G" stm $(t_less TINY --accounts) --algo gpustm --semantic-ratio 0 \
	--accounts 200 --duration 0.05 --json "$R/gpustm-duration.json"
expect_err "gpustm --duration says why it runs batches" "gpustm: --duration runs as repeated batches"
json_check "gpustm --duration: batches, verified" "$R/gpustm-duration.json" '
r = d["results"]
assert r["timed_run"] == "batches" and r["batches"] >= 1 and r["device_seconds"] >= 0.05, r
assert d["verification"]["verified"] is True'
# every batch from the initial data: a batch that gives chain steps up leaves money behind, and
# batches run from where the last one left it met fewer and fewer semantic conflicts (after
# 1375 batches: 0.55 given up a batch against 365 in one, the abort rate 27% against 98%)
GD=(stm --backend cpu --algo gpustm --threads 64 --accounts 1024 --tx-per-thread 20 --semantic-ratio 100
	--hash 1 --reps 1 --warmup 0)
expect_rc "gpustm, one batch of a 100%-semantic bank" 0 "$G" "${GD[@]}" --json "$R/gpustm-one.json"
expect_rc "gpustm, the same under --duration" 0 "$G" "${GD[@]}" --duration 0.2 --json "$R/gpustm-batches.json"
json_check "gpustm --duration: each batch gives up as much as one batch alone" "$R/gpustm-batches.json" '
import json
one = json.load(open("'"$R/gpustm-one.json"'"))["results"]
r = d["results"]
assert one["batches"] == 1 and one["abandoned"] > 50, one
assert r["batches"] >= 3 and d["verification"]["verified"] is True, r
assert r["abandoned"] / r["batches"] >= 0.5 * one["abandoned"], (r["abandoned"], r["batches"], one["abandoned"])
assert r["abort_rate"] >= 0.8 * one["abort_rate"], (r["abort_rate"], one["abort_rate"])'
# (no reachable retry limit: see the gpustm report above)
expect_rc "stm --compare gpustm runs both on the same table" 0 "$G" stm $(t_less TINY --reps) --semantic-ratio 0 \
	--reps 2 --compare gpustm --retry-limit 1000000000 --json "$R/compare.json"
expect_out "the summary gives the compared engine and the speedup" "  gpustm       " "prstm is "
json_check "--compare: each engine verified, with its speedup" "$R/compare.json" '
c = d["config"]; r = d["results"]; v = d["verification"]
assert c["algo"] == "prstm" and c["compare"] == ["gpustm"], c
ntx = c["bank"]["transactions"]
assert r["commits"] == 2 * ntx and v["verified"] is True, (r["commits"], v)
(g,) = r["compare"]
assert g["algo"] == "gpustm" and g["verified"] is True and g["batches_verified"] == 2, g
assert g["commits"] == 2 * ntx and g["abandoned"] == 0 and g["reps_completed"] == 2, g
assert g["transactions_per_batch"] == ntx and g["throughput_tx_per_s"]["n"] == 2
assert abs(g["speedup_of_algo"] - r["throughput_tx_per_s"]["median"] / g["throughput_tx_per_s"]["median"]) < 1e-9 * g["speedup_of_algo"], g["speedup_of_algo"]
assert g["message"] == "" and "speedup_of_algo" not in r and "speedup_over" not in r, g
assert v["batches_verified"] == 2 and v["batches_total"] == 2, v'
expect_rc "stm --algo gpustm --compare prstm at high contention" 0 "$G" stm --backend cpu --algo gpustm \
	--compare prstm --threads 512 --cpu-workers 16 --accounts 16 --hash 4 --transfers-per-tx 2 --semantic-ratio 0 \
	--read-only 20 --initial-balance 100000 --tx-per-thread 4 --reps 2 --warmup 0 --quiet --json "$R/compare-hot.json"
json_check "high contention: both engines verified" "$R/compare-hot.json" '
r = d["results"]
assert d["verification"]["verified"] is True and r["compare"][0]["verified"] is True
assert r["compare"][0]["algo"] == "prstm" and r["commits"] + r["abandoned"] == 2 * d["config"]["bank"]["transactions"]'

# vacation: both engines, the oracle's STAMP rules, and options that belong to another workload
VAC=(--backend cpu --workload vacation --threads 16 --tx-per-thread 10 --customers 40 --room-types 6 --rooms 3
	--reps 2 --warmup 0)
expect_rc "vacation on prstm, compared with gpustm" 0 "$G" stm "${VAC[@]}" --read-only 20 --compare gpustm \
	--json "$R/vacation.json"
expect_out "the vacation summary" "prstm on vacation, cpu backend, 16 threads, 40 customers, 6 room types of 3 rooms" \
	"rooms held + free = rooms of every type" "  gpustm       "
json_check "vacation report: config, both engines verified by the STAMP rules" "$R/vacation.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; w = c["vacation"]
assert c["workload"] == "vacation" and c["read_only"] == 20 and c["presort"] is False, c
assert w["customers"] == 40 and w["room_types"] == 6 and w["rooms"] == 3 and w["room_interval"] == 100, w
assert w["transactions"] == 160 and w["queries"] == 32 and w["bookings"] == w["cancellations"] == 64, w
assert w["data_words"] == 6 * 100 + 40, w
assert "bank" not in c
assert v["verified"] is True and "STAMP" in v["method"] and len(v["data_fnv1a"]) == 16, v
assert r["commits"] == 2 * 160 and r["abandoned"] == 0 and r["commits_read_only"] == 2 * 32, r
assert v["reservations"] == 0 and v["rooms_free"] == 18, v
g = r["compare"][0]
assert g["algo"] == "gpustm" and g["verified"] is True and g["abandoned"] == g["retry_limit_reached"], g'
expect_rc "vacation presorted on gpustm without a reachable retry limit commits everything" 0 "$G" stm "${VAC[@]}" \
	--algo gpustm --presort --retry-limit 1000000000 --quiet --json "$R/vacation-presort.json"
json_check "vacation presorted: everything committed and cancelled" "$R/vacation-presort.json" '
r = d["results"]; v = d["verification"]
assert r["abandoned"] == 0 and r["commits"] == 2 * 160 and v["verified"] is True and v["reservations"] == 0'
expect_rc "vacation --duration runs batches" 0 "$G" stm "${VAC[@]}" --duration 0.05 --quiet --json "$R/vacation-d.json"
json_check "vacation --duration: batches, verified" "$R/vacation-d.json" '
assert d["results"]["timed_run"] == "batches" and d["verification"]["verified"] is True'
expect_rc "a bank option with --workload vacation exits 2" 2 "$G" stm "${VAC[@]}" --accounts 10
expect_err "a bank option with vacation names both" "option --accounts belongs to --workload bank, not to --workload vacation"
expect_rc "a vacation option with the bank exits 2" 2 "$G" stm "${TINY[@]}" --rooms 4
expect_err "a vacation option with the bank names both" "option --rooms belongs to --workload vacation, not to --workload bank"
expect_rc "--hash above vacation's data words exits 2" 2 "$G" stm "${VAC[@]}" --hash 641
expect_err "--hash above vacation's data words says what they are" "option --hash: 641 exceeds the 640 data words" \
	"--customers)" "1..640"

# skiplist: both engines, compare, rounds, the oracle, and options that belong to another workload
SKL=(--backend cpu --workload skiplist --threads 24 --cpu-workers 6 --tx-per-thread 20 --initial-keys 20
	--capacity 2000 --levels 4 --reps 2 --warmup 0)
expect_rc "skiplist on prstm, compared with gpustm" 0 "$G" stm "${SKL[@]}" --read-only 20 --compare gpustm \
	--json "$R/skiplist.json"
expect_out "the skiplist summary" "prstm on skiplist, cpu backend, 24 threads, 20 initial keys of 1..40, 4 levels, 2000 nodes" \
	"replayed in commit order, equal word for word, every level sorted and a subset of the level below" \
	"  gpustm       "
json_check "skiplist report: config, both engines verified by the replay" "$R/skiplist.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; w = c["skiplist"]
assert c["workload"] == "skiplist" and c["read_only"] == 20 and c["presort"] is False, c
assert w["initial_keys"] == 20 and w["key_range"] == 40 and w["capacity"] == 2000 and w["levels"] == 4, w
assert w["transactions"] == 480 and w["lookups"] == 24 * 4 and w["inserts"] == w["deletes"] == 24 * 8, w
assert w["key_owners"] == 24 and w["nodes_used"] == 1 + 20 + 24 * 8 and w["data_words"] == 2000 * 5, w
assert 1 <= w["max_height"] <= 4, w
assert "bank" not in c and "vacation" not in c
assert v["verified"] is True and "skip list" in v["method"] and len(v["data_fnv1a"]) == 16, v
assert v["keys"] == 20 and 1 <= v["top_level"] <= 4, v
assert r["commits"] == 2 * 480 and r["abandoned"] == 0 and r["commits_read_only"] == 2 * 96, r
assert r["aborts"]["semantic"] == 0, r
g = r["compare"][0]
assert g["algo"] == "gpustm" and g["verified"] is True and g["abandoned"] == g["retry_limit_reached"], g'
expect_rc "skiplist at high contention: 64 threads on 16 keys, 8 levels (16-word sets)" 0 "$G" stm $(t_less SKL --threads --cpu-workers --initial-keys --levels) \
	--threads 64 --cpu-workers 16 --initial-keys 8 --key-range 16 --levels 8 --compare gpustm --retry-limit 1000000 \
	--json "$R/skiplist-hot.json"
expect_err "skiplist with more threads than keys says who runs lookups only" "48 threads own no key and run lookups only"
json_check "skiplist at high contention: everything committed, verified" "$R/skiplist-hot.json" '
r = d["results"]; g = r["compare"][0]
assert d["verification"]["verified"] is True and g["verified"] is True
assert r["abandoned"] == 0 and g["abandoned"] == 0 and r["commits"] == g["commits"] == 2 * 64 * 20, r
assert d["config"]["skiplist"]["key_owners"] == 16'
expect_rc "skiplist --duration on prstm runs rounds" 0 "$G" stm "${SKL[@]}" --read-only 20 --duration 0.05 --quiet \
	--json "$R/skiplist-d.json"
json_check "skiplist --duration: rounds, verified from the commit counts" "$R/skiplist-d.json" '
r = d["results"]; v = d["verification"]
assert r["timed_run"] == "rounds" and v["verified"] is True and "prefix" in v["method"], (r["timed_run"], v)
assert r["commits"] > 480 and r["abandoned"] == 0, r'
expect_rc "skiplist --duration on gpustm runs batches" 0 "$G" stm "${SKL[@]}" --algo gpustm --duration 0.05 \
	--quiet --json "$R/skiplist-gd.json"
json_check "skiplist gpustm --duration: batches, verified" "$R/skiplist-gd.json" '
assert d["results"]["timed_run"] == "batches" and d["verification"]["verified"] is True'
expect_rc "a skiplist option with the bank exits 2" 2 "$G" stm "${TINY[@]}" --levels 3
expect_err "a skiplist option with the bank names both" "option --levels belongs to --workload skiplist, not to --workload bank"
expect_rc "a vacation option with the skiplist exits 2" 2 "$G" stm "${SKL[@]}" --customers 10
expect_err "a vacation option with the skiplist names both" "option --customers belongs to --workload vacation, not to --workload skiplist"
# --help's range of --levels is what the engines' 16-word sets hold: 2L words an update
expect_rc "--levels beyond the engines' sets exits 2" 2 "$G" stm $(t_less SKL --levels) --levels 9
expect_err "--levels beyond the engines' sets is out of --levels' range" "option --levels: 9 is out of range (accepted: 1..8)"
expect_rc "help stm gives --levels the range the engines run" 0 "$G" help stm
expect_out "help stm: --levels 1..8" "(1..8, default 5)"
expect_rc "--levels 17 exits 2" 2 "$G" stm $(t_less SKL --levels) --levels 17
expect_rc "more initial keys than keys exits 2" 2 "$G" stm "${SKL[@]}" --key-range 10
expect_err "more initial keys than keys says what to change" "--initial-keys 20 exceeds --key-range 10" "raise --key-range"
expect_rc "a pool too small for the inserts exits 2" 2 "$G" stm $(t_less SKL --capacity) --capacity 100
expect_err "a pool too small for the inserts says so" "more than --capacity 100"
expect_rc "--hash above the skiplist's data words exits 2" 2 "$G" stm "${SKL[@]}" --hash 10001
expect_err "--hash above the skiplist's data words says what they are" "option --hash: 10001 exceeds" \
	"the 10000 data words of --workload skiplist (--capacity x (--levels + 1))"

# kmeans and graph: staged workloads, a batch per stage, passes checked whole
KM=(--backend cpu --workload kmeans --threads 32 --points 3000 --clusters 4 --iterations 4 --points-per-tx 1 --reps 2
	--warmup 0)
expect_rc "kmeans on prstm, compared with gpustm" 0 "$G" stm "${KM[@]}" --compare gpustm --json "$R/kmeans.json"
expect_out "the kmeans summary" "prstm on kmeans, cpu backend, 32 threads, 3000 points, 4 clusters, at most 4 iterations, runs of 1 points" \
	"  passes       2 complete" "update stages in them" "serial k-means" "  gpustm       "
json_check "kmeans report: config, passes of stages, both engines verified against a serial k-means" "$R/kmeans.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; k = c["kmeans"]
assert c["workload"] == "kmeans" and c["read_only"] == 0 and c["presort"] is False, c
assert k["points"] == 3000 and k["clusters"] == 4 and k["iterations"] == 4 and k["coord_range"] == 1024, k
assert k["points_per_tx"] == 1 and k["transactions_first_iteration"] == 3000, k
assert k["tx_per_thread"] == 94 == c["tx_per_thread"], k
assert k["data_words"] == 12 and 1 <= k["reference_iterations"] <= 4, k
it = k["reference_iterations"]
assert r["passes"] == 2 and r["stages"] == r["batches"] >= 2 * it and r["transactions_per_batch"] == 3000, r
assert r["commits"] == 2 * 3000 * it and r["commits_read_only"] == 0 and r["abandoned"] == 0, r
assert v["verified"] is True and "serial k-means" in v["method"] and v["batches_verified"] == r["batches"], v
assert v["iterations"] == it and v["points_counted"] == 3000 and v["clusters_nonempty"] == 4 and v["sse"] > 0, v
assert len(v["data_fnv1a"]) == 16 and "bank" not in c and "vacation" not in c, v
g = r["compare"][0]
assert g["algo"] == "gpustm" and g["verified"] is True and g["passes"] == 2, g
assert g["commits"] == r["commits"] and g["abandoned"] == 0, g'
expect_rc "kmeans on gpustm at --retry-limit 1 runs given-up transactions again" 0 "$G" stm $(t_less KM --threads --clusters) --algo gpustm \
	--retry-limit 1 --threads 256 --clusters 2 --quiet --json "$R/kmeans-limit.json"
json_check "kmeans at --retry-limit 1: every point added once per iteration all the same" "$R/kmeans-limit.json" '
r = d["results"]; it = d["config"]["kmeans"]["reference_iterations"]
assert r["commits"] == 2 * 3000 * it and r["abandoned"] == 0, r
assert d["verification"]["verified"] is True and d["verification"]["iterations"] == it'
expect_rc "kmeans by a thread's points" 0 "$G" stm $(t_less KM --points-per-tx) --points-per-tx 0 --compare gpustm --quiet \
	--json "$R/kmeans-runs.json"
json_check "kmeans by a thread's points: one transaction per cluster of each thread's 94 points" "$R/kmeans-runs.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; k = c["kmeans"]
assert k["points_per_tx"] == 94 and 32 <= k["transactions_first_iteration"] <= 32 * 4, k
assert r["transactions_per_batch"] == 32 * 4 and c["tx_per_thread"] == (k["transactions_first_iteration"] + 31) // 32, r
assert v["verified"] is True and v["points_counted"] == 3000 and v["iterations"] == k["reference_iterations"], v
assert r["compare"][0]["verified"] is True'
expect_rc "kmeans --duration runs passes" 0 "$G" stm "${KM[@]}" --duration 0.05 --quiet --json "$R/kmeans-d.json"
json_check "kmeans --duration: passes back to back, verified" "$R/kmeans-d.json" '
r = d["results"]
assert r["timed_run"] == "batches" and r["passes"] >= 2 and d["verification"]["verified"] is True, r'
expect_rc "kmeans --read-only 0 is accepted" 0 "$G" stm "${KM[@]}" --read-only 0 --quiet
expect_rc "kmeans --read-only 20 exits 2" 2 "$G" stm "${KM[@]}" --read-only 20
expect_err "kmeans --read-only 20 says kmeans has none" "option --read-only does not apply to --workload kmeans" \
	"kmeans has no read-only transactions"
expect_rc "kmeans --presort exits 2" 2 "$G" stm "${KM[@]}" --presort
expect_err "kmeans --presort says why" "option --presort does not apply to --workload kmeans"
expect_rc "kmeans --tx-per-thread exits 2" 2 "$G" stm "${KM[@]}" --tx-per-thread 10
expect_err "kmeans --tx-per-thread names --points" "option --tx-per-thread does not apply to --workload kmeans" "--points"
expect_rc "a kmeans option with the bank exits 2" 2 "$G" stm "${TINY[@]}" --clusters 4
expect_err "a kmeans option with the bank names both" "option --clusters belongs to --workload kmeans, not to --workload bank"
expect_rc "a bank option with kmeans exits 2" 2 "$G" stm "${KM[@]}" --accounts 10
expect_err "a bank option with kmeans names both" "option --accounts belongs to --workload bank, not to --workload kmeans"
expect_rc "more clusters than points exits 2" 2 "$G" stm $(t_less KM --points --clusters) --points 10 --clusters 11
expect_err "more clusters than points says so" "--clusters 11 exceeds --points 10"
expect_rc "--hash above kmeans's data words exits 2" 2 "$G" stm "${KM[@]}" --hash 13
expect_err "--hash above kmeans's data words says what they are" \
	"option --hash: 13 exceeds the 12 data words of --workload kmeans (--clusters x 3) (accepted: 1..12)"

# graph: GRA runs the paper's transaction (all of a vertex's neighbours: the default) on a graph whose
# largest degree the 16-word sets hold; GR the bounded variant, --edges-per-tx 7, on a denser graph
# whose largest degree they do not, but the 64-word builds do
GRA=(--backend cpu --workload graph --threads 32 --vertices 2000 --edges 3000 --reps 2 --warmup 0)
expect_rc "graph with all neighbours on prstm, compared with gpustm and gpustm-local" 0 "$G" stm "${GRA[@]}" \
	--compare gpustm,gpustm-local --json "$R/graph-all.json"
expect_out "the graph summary says the transaction is the paper's" \
	"prstm on graph, cpu backend, 32 threads, 2000 vertices, 3000 edges, all neighbours per transaction (the paper's; largest degree"
json_check "graph with all neighbours: one transaction per vertex, 1 + the largest degree words, all verified" "$R/graph-all.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; g = c["graph"]
assert g["edges_per_tx"] == 0 and g["all_neighbours"] is True and g["vertices_split"] == 0, g
assert 8 <= g["max_degree"] <= 15 and g["neighbours_per_transaction"] == g["max_degree"], g
assert g["max_words_per_transaction"] == g["max_degree"] + 1, g
# one transaction per vertex with a neighbour: all but the isolated vertices, each a component of its own
assert 2000 - g["components"] + 1 <= g["round0_transactions"] < 2000 and g["largest_component"] > 1000, g
assert v["verified"] is True and r["passes"] == 2 and r["abandoned"] == 0, (r, v)
assert [x["algo"] for x in r["compare"]] == ["gpustm", "gpustm-local"], r["compare"]
assert all(x["verified"] is True and x["passes"] == 2 for x in r["compare"]), r["compare"]'
expect_rc "graph with all neighbours past 16 words on the 64-word builds" 0 "$G" stm --backend cpu --workload graph \
	--threads 32 --vertices 2000 --edges 8000 --reps 1 --warmup 0 --compare gpustm,gpustm-local \
	--retry-limit 1000000000 --quiet --json "$R/graph-wide.json"
json_check "graph on the 64-word builds: one transaction per vertex, past 16 words, all verified" "$R/graph-wide.json" '
g = d["config"]["graph"]; r = d["results"]
assert g["all_neighbours"] is True and 16 <= g["max_degree"] <= 63, g
assert g["max_words_per_transaction"] == g["max_degree"] + 1 and g["vertices_split"] == 0, g
assert d["verification"]["verified"] is True and r["abandoned"] == 0, d["verification"]
assert [x["algo"] for x in r["compare"]] == ["gpustm", "gpustm-local"], r["compare"]
assert all(x["verified"] is True and x["abandoned"] == 0 for x in r["compare"]), r["compare"]'
# past 32 words: the 64-bit masks over prstm's sets (prstm_mask), with --hash 4 sharing locks in a set
expect_rc "graph with all neighbours past 32 words, --hash 4, prstm and gpustm" 0 "$G" stm --backend cpu \
	--workload graph --threads 64 --vertices 2000 --edges 30000 --hash 4 --reps 2 --warmup 0 --compare gpustm \
	--retry-limit 1000000000 --quiet --json "$R/graph-64.json"
json_check "graph past 32 words: verified, nothing abandoned" "$R/graph-64.json" '
g = d["config"]["graph"]; r = d["results"]
assert 33 <= g["max_degree"] <= 63 and g["max_words_per_transaction"] == g["max_degree"] + 1, g
assert d["verification"]["verified"] is True and r["abandoned"] == 0, d["verification"]
assert r["compare"][0]["verified"] is True and r["compare"][0]["abandoned"] == 0, r["compare"]'
expect_rc "graph with all neighbours past the 64-word sets exits 2" 2 "$G" stm --backend cpu --workload graph \
	--threads 32 --vertices 2000 --edges 60000 --reps 1 --warmup 0 --algo gpustm
expect_err "graph with all neighbours past the sets names the degree, the engine and --edges-per-tx" \
	"graph: --edges-per-tx 0 (all, the paper's transaction) sends a vertex's value to all its neighbours, and this graph's largest degree is " \
	"but gpustm runs graph transactions of at most 64: set --edges-per-tx 1..63 to split"
expect_rc "graph --edges-per-tx 64 exits 2" 2 "$G" stm --backend cpu --workload graph --edges-per-tx 64
GR=(--backend cpu --workload graph --threads 32 --vertices 2000 --edges 8000 --edges-per-tx 7 --reps 2 --warmup 0)
expect_rc "graph on prstm, compared with gpustm" 0 "$G" stm "${GR[@]}" --compare gpustm --json "$R/graph.json"
expect_out "the graph summary" "prstm on graph, cpu backend, 32 threads, 2000 vertices, 8000 edges, up to 7 neighbours per transaction (split, not the paper's: " \
	"  passes       2 complete" "rounds in them" "connected component" "  gpustm       "
json_check "graph report: config, rounds, both engines verified against the components' minima" "$R/graph.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; g = c["graph"]
assert c["workload"] == "graph" and g["vertices"] == 2000 and g["edges"] == 8000 and g["csr_entries"] == 16000, g
assert g["edges_per_tx"] == 7 and g["max_label"] == 10000 and g["max_words_per_transaction"] == 8, g
assert g["all_neighbours"] is False and g["neighbours_per_transaction"] == 7 and 0 < g["vertices_split"] < 2000, g
assert g["round0_transactions"] >= 16000 / 7 and g["components"] >= 1 and g["data_words"] == 2000, g
assert r["passes"] == 2 and r["stages"] == r["batches"] >= 4, r
assert r["transactions_per_batch"] == g["round0_transactions"] and r["abandoned"] == 0, r
assert r["commits"] >= 2 * g["round0_transactions"] and r["commits_read_only"] > 0, r
assert v["verified"] is True and "connected components" in v["method"], v
assert v["components"] == g["components"] and v["largest_component"] == g["largest_component"], v
assert 2 <= v["rounds"] <= r["stages"] - 2 and 0 < v["vertices_lowered"] < 2000, v
x = r["compare"][0]
assert x["algo"] == "gpustm" and x["verified"] is True and x["passes"] == 2, x'
expect_rc "graph at --edges-per-tx 2 --hash 4 on gpustm" 0 "$G" stm $(t_less GR --edges-per-tx) --algo gpustm --edges-per-tx 2 --hash 4 \
	--quiet --json "$R/graph-small.json"
json_check "graph at --edges-per-tx 2: smaller transactions, verified" "$R/graph-small.json" '
g = d["config"]["graph"]
assert g["max_words_per_transaction"] == 3 and g["round0_transactions"] >= 8000, g
assert d["verification"]["verified"] is True'
expect_rc "graph --duration runs passes" 0 "$G" stm "${GR[@]}" --duration 0.05 --quiet --json "$R/graph-d.json"
json_check "graph --duration: passes back to back, verified" "$R/graph-d.json" '
r = d["results"]
assert r["timed_run"] == "batches" and r["passes"] >= 2 and d["verification"]["verified"] is True, r'
expect_rc "graph --edges-per-tx 15 on prstm's 16-word sets" 0 "$G" stm $(t_less GR --edges-per-tx) --edges-per-tx 15 --quiet \
	--json "$R/graph-15.json"
json_check "graph at --edges-per-tx 15: 16-word transactions, verified" "$R/graph-15.json" '
g = d["config"]["graph"]
assert g["max_words_per_transaction"] == 16 and g["neighbours_per_transaction"] == 15, g
assert d["verification"]["verified"] is True'
expect_rc "graph --read-only 20 exits 2" 2 "$G" stm "${GR[@]}" --read-only 20
expect_err "graph --read-only 20 names graph" "option --read-only does not apply to --workload graph"
expect_rc "a graph option with vacation exits 2" 2 "$G" stm "${VAC[@]}" --vertices 10
expect_err "a graph option with vacation names both" "option --vertices belongs to --workload graph, not to --workload vacation"
expect_rc "a kmeans option with graph exits 2" 2 "$G" stm "${GR[@]}" --points 10
expect_err "a kmeans option with graph names both" "option --points belongs to --workload kmeans, not to --workload graph"

# --cpu-workers above --threads is clamped
expect_rc "--cpu-workers above --threads runs" 0 "$G" stm "${TINY[@]}" --cpu-workers 50 --quiet --json "$R/workers.json"
json_check "--cpu-workers is clamped to --threads" "$R/workers.json" '
assert d["config"]["cpu_workers"] == 8 and d["device"]["cpu_workers"] == 8'

# presort and read-only
expect_rc "--presort --read-only 20 --transfers-per-tx 3 runs" 0 "$G" stm $(t_less TINY --reps) --presort --read-only 20 \
	--transfers-per-tx 3 --semantic-ratio 50 --reps 2 --quiet --json "$R/presort.json"
json_check "--presort run verifies with every transaction committed" "$R/presort.json" '
r = d["results"]; b = d["config"]["bank"]
assert b["presort"] is True and b["read_only"] == 20 and b["transfers_per_tx"] == 3
assert r["commits"] == 2 * b["transactions"] and r["abandoned"] == 0
assert r["commits_read_only"] == 2 * b["read_only_transactions"] > 0
assert d["verification"]["verified"] is True'

# --read-only-size: inquiries as large as the engines' read sets run; prstm logs longer ones' reads past
# its set (its read log), gpustm refuses them before anything runs, naming itself, its capacity and the option
expect_rc "--read-only-size 8 (the engines' read sets) runs on both engines" 0 "$G" stm "${TINY[@]}" \
	--read-only 50 --read-only-size 8 --compare gpustm --quiet --json "$R/ro8.json"
json_check "--read-only-size 8: every inquiry read 8 accounts and both engines verified" "$R/ro8.json" '
b = d["config"]["bank"]; r = d["results"]
assert b["read_only_size"] == 8 and b["read_only_transactions"] == r["commits_read_only"] > 0, (b, r)
assert d["verification"]["verified"] is True and r["compare"][0]["verified"] is True'
expect_rc "--read-only-size 9: prstm logs the ninth read" 0 "$G" stm "${TINY[@]}" --read-only 20 --read-only-size 9 \
	--quiet --json "$R/ro9.json"
json_check "--read-only-size 9 on prstm verifies with every inquiry committed" "$R/ro9.json" '
b = d["config"]["bank"]; r = d["results"]
assert b["read_only_size"] == 9 and r["commits_read_only"] == b["read_only_transactions"] > 0, (b, r)
assert d["verification"]["verified"] is True and r["abandoned"] == 0, r'
expect_rc "prstm runs inquiries over every account beside csmv and jvstm" 0 "$G" stm --backend cpu --threads 96 \
	--accounts 300 --tx-per-thread 10 --reps 1 --warmup 0 --algo prstm --compare csmv,jvstm \
	--semantic-ratio 0 --read-only 50 --read-only-size 300 --quiet --json "$R/prstm-ro300.json"
json_check "prstm's inquiries over every account: verified, every one committed" "$R/prstm-ro300.json" '
r = d["results"]; b = d["config"]["bank"]
assert b["read_only_size"] == 300 and r["commits"] == 960 and r["commits_read_only"] == b["read_only_transactions"], r
assert d["verification"]["verified"] is True and r["abandoned"] == 0, r
assert all(c["verified"] is True for c in r["compare"]), r["compare"]'
# an inquiry longer than the CPU backend's time window (a million accounts: milliseconds, the window at
# most 200 us) commits when the commits counted since it started prove its versions: here, alone, none
expect_rc "prstm's inquiry over a million accounts, alone, commits" 0 "$G" stm --backend cpu --threads 1 \
	--tx-per-thread 1 --accounts 1000000 --read-only 100 --read-only-size 1000000 --reps 1 --warmup 0 \
	--timeout 60 --quiet --json "$R/prstm-ro1m.json"
json_check "the million-account inquiry committed on its first attempt, verified" "$R/prstm-ro1m.json" '
r = d["results"]
assert r["commits_read_only"] == 1 and r["aborts"]["total"] == 0 and r["abandoned"] == 0, r
assert d["verification"]["verified"] is True and d["meta"]["complete"] is True'
# --read-only-size without inquiries: a sweep may keep it across --read-only 0, so it runs and says so
expect_rc "--read-only-size with --read-only 0 runs" 0 "$G" stm "${TINY[@]}" --read-only 0 --read-only-size 8 \
	--json "$R/ro-size-none.json"
expect_err "--read-only-size with --read-only 0 says it has no effect" \
	"--read-only-size 8 has no effect: --read-only 0 runs no balance inquiries"
# --read-only-threads: the share as whole threads, the last ones, on each workload with read-only transactions
expect_rc "--read-only-threads on the bank, prstm beside gpustm" 0 "$G" stm --backend cpu --threads 10 --accounts 200 \
	--tx-per-thread 30 --reps 1 --warmup 0 --read-only 20 --read-only-threads --compare gpustm --quiet \
	--json "$R/ro-threads.json"
json_check "--read-only-threads: 2 of 10 threads hold the 60 inquiries, both engines verified" "$R/ro-threads.json" '
b = d["config"]["bank"]; r = d["results"]
assert d["config"]["read_only_threads"] is True and b["read_only_thread_count"] == 2, b
assert b["read_only_transactions"] == 60 == r["commits_read_only"], (b, r)
assert d["verification"]["verified"] is True and r["compare"][0]["verified"] is True'
expect_rc "--read-only 20 without --read-only-threads: every thread updates" 0 "$G" stm --backend cpu --threads 10 \
	--accounts 200 --tx-per-thread 30 --reps 1 --warmup 0 --read-only 20 --quiet --json "$R/ro-blocks.json"
json_check "without --read-only-threads: no read-only thread, the same 60 inquiries" "$R/ro-blocks.json" '
b = d["config"]["bank"]
assert d["config"]["read_only_threads"] is False and b["read_only_thread_count"] == 0, b
assert b["read_only_transactions"] == 60, b'
expect_rc "--read-only-threads on vacation and skiplist verifies" 0 "$G" stm "${VAC[@]}" --read-only 20 \
	--read-only-threads --compare gpustm --quiet --json "$R/ro-threads-vac.json"
json_check "--read-only-threads on vacation: 3 of 16 threads query" "$R/ro-threads-vac.json" '
assert d["config"]["vacation"]["read_only_thread_count"] == 3 and d["verification"]["verified"] is True, d["config"]'
expect_rc "--read-only-threads on the skiplist with rounds verifies" 0 "$G" stm "${SKL[@]}" --read-only 25 \
	--read-only-threads --duration 0.05 --quiet --json "$R/ro-threads-skl.json"
json_check "--read-only-threads on the skiplist: 6 of 24 threads look up only" "$R/ro-threads-skl.json" '
w = d["config"]["skiplist"]
assert w["read_only_thread_count"] == 6 and w["key_owners"] <= 18 and d["verification"]["verified"] is True, w'
expect_rc "--read-only-threads with a share of a thread says how it rounds" 0 "$G" stm "${TINY[@]}" --read-only 20 \
	--read-only-threads
expect_err "--read-only-threads rounds 1.6 threads to 2" "--read-only 20 of --threads 8 as whole threads is 2 read-only threads (25%)"
expect_rc "kmeans --read-only-threads exits 2" 2 "$G" stm --workload kmeans --read-only-threads
expect_err "kmeans --read-only-threads says why" "option --read-only-threads does not apply to --workload kmeans"
expect_rc "--read-only-size above gpustm's read set exits 2" 2 "$G" stm "${TINY[@]}" --algo gpustm --read-only-size 200
expect_err "--read-only-size above gpustm's read set names engine, capacity and option" \
	"gpustm runs bank transactions of at most 8 words" "(--read-only-size) touch up to 200"
expect_rc "--read-only-size 0 is the transfers' 2K accounts" 0 "$G" stm "${TINY[@]}" --read-only 20 \
	--transfers-per-tx 3 --quiet --json "$R/ro0.json"
json_check "--read-only-size 0 reads 2 x --transfers-per-tx accounts" "$R/ro0.json" '
assert d["config"]["bank"]["read_only_size"] == 6'
expect_rc "--read-only-size with vacation exits 2" 2 "$G" stm "${VAC[@]}" --read-only-size 2
expect_err "--read-only-size belongs to the bank" "option --read-only-size belongs to --workload bank"

# csmv: read-only transactions keep no read set, so an inquiry may read every account; every
# inquiry's sum is checked against the replay at its snapshot
expect_rc "csmv and its ablations run inquiries over every account" 0 "$G" stm --backend cpu --threads 96 \
	--accounts 300 --tx-per-thread 10 --reps 1 --warmup 0 --algo csmv --compare csmv-nocv,csmv-onlycs \
	--semantic-ratio 0 --read-only 50 --read-only-size 300 --quiet --json "$R/csmv.json"
json_check "csmv: verified, inquiry sums checked, versions reported" "$R/csmv.json" '
v = d["verification"]; r = d["results"]
assert v["verified"] is True and v["read_only_results_checked"] == r["commits_read_only"] > 0, (v, r)
assert 1 <= r["versions"]["kept_peak"] <= 8 and r["abandoned"] == 0, r
assert [c["algo"] for c in r["compare"]] == ["csmv-nocv", "csmv-onlycs"], r["compare"]
assert all(c["verified"] is True for c in r["compare"]), r["compare"]
# the commit phases of an update, each a time per committed update; the server answers every one
cp = r["commit_phases_ns"]
assert set(cp) == {"divergence", "pre_validation", "wait_server", "server_validation", "server_insert",
                   "write_back"}, cp
assert all(x >= 0 for x in cp.values()) and cp["wait_server"] > 0 and cp["server_validation"] > 0, cp'
# the paper's server (receiver, --server-workers workers, a ring of --atr-records write sets) against
# csmv-index's (one server, the ATR indexed by word): every name verifies; one worker and the smallest
# ring on 16 accounts make snapshots older than the ring, which abort and retry, and still verify
expect_rc "csmv on the paper's server beside csmv-index and its ablations" 0 "$G" stm --backend cpu \
	--threads 128 --accounts 16 --initial-balance 100000 --tx-per-thread 30 --reps 1 --warmup 0 \
	--algo csmv --compare csmv-index,csmv-index-nocv,csmv-index-onlycs --server-workers 1 --atr-records 64 \
	--semantic-ratio 0 --read-only 10 --read-only-size 16 --quiet --json "$R/csmv-server.json"
json_check "csmv-server: all verified, the server options in the config, validation timed on both" \
	"$R/csmv-server.json" '
r = d["results"]; c = d["config"]
assert d["verification"]["verified"] is True and r["aborts"]["validation"] > 0, r
assert c["server_workers"] == 1 and c["atr_records"] == 64, c
assert [x["algo"] for x in r["compare"]] == ["csmv-index", "csmv-index-nocv", "csmv-index-onlycs"], r["compare"]
assert all(x["verified"] is True for x in r["compare"]), r["compare"]
assert r["commit_phases_ns"]["server_validation"] > 0, r'
for algo in csmv-nocv csmv-onlycs; do
	expect_rc "$algo on 31 server workers verifies" 0 "$G" stm --backend cpu --threads 128 --accounts 16 \
		--initial-balance 100000 --tx-per-thread 10 --reps 1 --warmup 0 --algo $algo --server-workers 31 \
		--semantic-ratio 0 --read-only 10 --read-only-size 16 --quiet
done
expect_rc "--server-workers 0 exits 2" 2 "$G" stm "${TINY[@]}" --algo csmv --server-workers 0
expect_rc "--server-workers 32 exits 2" 2 "$G" stm "${TINY[@]}" --algo csmv --server-workers 32
expect_rc "--atr-records 63 exits 2" 2 "$G" stm "${TINY[@]}" --algo csmv --atr-records 63
expect_rc "--atr-records 4097 exits 2" 2 "$G" stm "${TINY[@]}" --algo csmv --atr-records 4097
expect_rc "--server-workers with csmv-index (no such server) exits 2" 2 "$G" stm "${TINY[@]}" \
	--algo csmv-index --server-workers 2
# --duration runs csmv's and jvstm's batches back to back, each from what the last one left: every
# batch starts on its words' newest values as their only versions, or reclamation would wait forever
for algo in csmv jvstm; do
	expect_rc "$algo --duration: batches back to back" 0 timeout 120 "$G" stm --backend cpu --algo "$algo" \
		--threads 64 --accounts 1000 --tx-per-thread 5 --semantic-ratio 0 --read-only 20 --read-only-size 1000 \
		--duration 1 --reps 1 --warmup 0 --quiet --json "$R/$algo-duration.json"
	json_check "$algo --duration: several batches, each verified, sums checked" "$R/$algo-duration.json" '
r = d["results"]; v = d["verification"]
assert r["timed_run"] == "batches" and r["batches"] >= 2, r
assert v["verified"] is True and v["batches_verified"] == r["batches"] and r["abandoned"] == 0, (r, v)
assert v["read_only_results_checked"] > 0, v'
done
expect_rc "--read-only-size 65 of 64 accounts exits 2" 2 "$G" stm "${TINY[@]}" --read-only 20 --read-only-size 65
expect_err "--read-only-size 65 of 64 accounts says why" "--read-only-size 65 exceeds --accounts 64"
expect_rc "--read-only-size above --accounts exits 2" 2 "$G" stm "${TINY[@]}" --algo csmv --read-only-size 300
expect_err "--read-only-size above --accounts says why" "--read-only-size 300 exceeds --accounts 64"

# jvstm: JVSTM on CPU threads, the host baseline; the same oracle as csmv, and no GPU backend
expect_rc "jvstm runs inquiries over every account beside csmv" 0 "$G" stm --backend cpu --threads 96 \
	--accounts 300 --tx-per-thread 10 --reps 1 --warmup 0 --algo jvstm --compare csmv \
	--semantic-ratio 0 --read-only 50 --read-only-size 300 --quiet --json "$R/jvstm.json"
json_check "jvstm: verified in commit order, inquiry sums checked, versions reported" "$R/jvstm.json" '
v = d["verification"]; r = d["results"]
assert d["config"]["algo"] == "jvstm" and d["config"]["backend"] == "cpu", d["config"]
assert v["verified"] is True and v["read_only_results_checked"] == r["commits_read_only"] > 0, (v, r)
assert r["commits"] == 960 and r["abandoned"] == 0, r
assert 1 <= r["versions"]["kept_peak"] <= 8, r
# its own commit: validation (waits for the ATR included), the record, the write-back
cp = r["commit_phases_ns"]
assert set(cp) == {"divergence", "validation", "record_insert", "write_back"} and cp["divergence"] is None, cp
assert cp["validation"] > 0 and cp["record_insert"] > 0 and cp["write_back"] > 0, cp
assert [c["algo"] for c in r["compare"]] == ["csmv"] and r["compare"][0]["verified"] is True, r'
expect_rc "jvstm with semantic chains verifies" 0 "$G" stm "${TINY[@]}" --algo jvstm --read-only 20 --quiet
expect_rc "jvstm --backend gpu exits 2" 2 "$G" stm $(t_less TINY --backend) --algo jvstm --backend gpu
expect_err "jvstm --backend gpu says it has no GPU backend" "--backend gpu: jvstm is JVSTM on CPU threads" \
	"has no GPU backend"
expect_rc "--compare jvstm with --backend gpu exits 2" 2 "$G" stm $(t_less TINY --backend) --algo csmv --compare jvstm \
	--backend gpu
expect_err "--compare jvstm with --backend gpu names jvstm" "jvstm is JVSTM on CPU threads"
expect_rc "jvstm does not run vacation" 2 "$G" stm "${VAC[@]}" --algo jvstm
expect_err "jvstm on vacation says why" "jvstm does not run the vacation workload"

# jvstm-gpu: JVSTM ported to the GPU; on the CPU backend it runs jvstm's CPU backend, the same oracle
json_check "info: jvstm is CPU-only, jvstm-gpu is not, and neither commits through a server" "$T_TMP/info.json" '
e = {x["name"]: x for x in d["engines"]["stm"]}
assert e["jvstm"]["cpu_only"] is True and e["jvstm-gpu"]["cpu_only"] is False, (e["jvstm"], e["jvstm-gpu"])
assert "JVSTM-GPU" in e["jvstm-gpu"]["summary"] and "same algorithm as jvstm" in e["jvstm-gpu"]["summary"], e'
expect_rc "jvstm-gpu on the CPU runs inquiries over every account beside jvstm" 0 "$G" stm --backend cpu \
	--threads 96 --accounts 300 --tx-per-thread 10 --reps 1 --warmup 0 --algo jvstm-gpu --compare jvstm \
	--semantic-ratio 0 --read-only 50 --read-only-size 300 --quiet --json "$R/jvstm-gpu.json"
json_check "jvstm-gpu: verified in commit order, inquiry sums checked, versions reported" "$R/jvstm-gpu.json" '
v = d["verification"]; r = d["results"]
assert d["config"]["algo"] == "jvstm-gpu" and d["config"]["backend"] == "cpu", d["config"]
assert v["verified"] is True and v["read_only_results_checked"] == r["commits_read_only"] > 0, (v, r)
assert r["commits"] == 960 and r["abandoned"] == 0, r
assert 1 <= r["versions"]["kept_peak"] <= 8, r
cp = r["commit_phases_ns"]  # jvstm's, as on the CPU it runs jvstm's backend
assert set(cp) == {"divergence", "validation", "record_insert", "write_back"} and cp["divergence"] is None, cp
assert cp["validation"] > 0 and cp["record_insert"] > 0 and cp["write_back"] > 0, cp
assert [c["algo"] for c in r["compare"]] == ["jvstm"] and r["compare"][0]["verified"] is True, r'
expect_rc "jvstm-gpu with semantic chains verifies" 0 "$G" stm $(t_less TINY --backend) --algo jvstm-gpu --backend cpu \
	--read-only 20 --quiet
expect_rc "jvstm-gpu does not run vacation" 2 "$G" stm "${VAC[@]}" --algo jvstm-gpu
expect_err "jvstm-gpu on vacation says why" "jvstm-gpu does not run the vacation workload"

# memcached: GETs read a set's ways (read-only), SETs replace or evict by LRU; every engine, the replay,
# and GET results checked at their snapshots where the engine records them (csmv, jvstm); the paper's
# layout (4-word keys, 8-word values) by default, the compact one (1 and 1) where gpustm runs
MEMC=(--backend cpu --workload memcached --items 64 --keys 200 --threads 96 --cpu-workers 4 --tx-per-thread 10
	--set-permille 200 --reps 2 --warmup 0)
# gpustm without its retry limit: 96 threads on 4 workers of a busy 2-core machine have been
# seen to spend 100 attempts on one transaction, and then the run gives it up
expect_rc "memcached on csmv, compared with prstm, prstm-nocm and jvstm" 0 "$G" stm "${MEMC[@]}" --algo csmv \
	--compare prstm,prstm-nocm,jvstm --json "$R/memcached.json"
expect_out "the memcached summary" "csmv on memcached, cpu backend, 96 threads, 64 items in 8 sets of 8 ways, keys of 4 words and values of 8, 200 keys (zipf 0.99), 200 per mille SETs" \
	"replayed in commit order, every set's keys distinct, whole and of that set, values whole, LRU stamps distinct and within its clock" \
	"GET results (the value's digest) equal the replay at their snapshot" "  jvstm        "
json_check "memcached report: config, every engine verified, GET results checked" "$R/memcached.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; w = c["memcached"]
assert c["workload"] == "memcached" and "bank" not in c, c
assert w["items"] == 64 and w["ways"] == 8 and w["sets"] == 8 and w["keys"] == 200 and w["zipf"] == 0.99, w
assert w["key_words"] == 4 and w["value_words"] == 8, w
assert w["set_permille"] == 200 and w["transactions"] == 960 and w["gets"] + w["sets_issued"] == 960, w
assert 150 <= w["sets_issued"] <= 250 and w["data_words"] == 8 * (8 * (4 + 8 + 1) + 1), w
assert v["verified"] is True and "LRU" in v["method"] and v["items"] == 64 and v["evictions"] > 0, v
assert v["read_only_results_checked"] == r["commits_read_only"] == 2 * w["gets"], (v, r)
assert r["commits"] == 2 * 960 and r["abandoned"] == 0, r
assert [x["algo"] for x in r["compare"]] == ["prstm", "prstm-nocm", "jvstm"], r["compare"]
assert all(x["verified"] is True and x["abandoned"] == 0 for x in r["compare"]), r["compare"]'
expect_rc "memcached, compact layout, on gpustm, compared with prstm and csmv" 0 "$G" stm "${MEMC[@]}" \
	--key-words 1 --value-words 1 --algo gpustm --compare prstm,csmv --retry-limit 1000000000 --json "$R/memcached-compact.json"
json_check "memcached, compact layout: one word a key and a value, every engine verified" "$R/memcached-compact.json" '
r = d["results"]; w = d["config"]["memcached"]
assert w["key_words"] == 1 and w["value_words"] == 1 and w["data_words"] == 8 * 25, w
assert d["verification"]["verified"] is True and r["commits"] == 2 * 960 and r["abandoned"] == 0, r
assert all(x["verified"] is True and x["commits"] == 2 * 960 for x in r["compare"]), r["compare"]'
expect_rc "memcached's paper layout on gpustm exits 2" 2 "$G" stm "${MEMC[@]}" --algo gpustm
expect_err "gpustm on the paper layout names the words and the compact layout" \
	"gpustm runs memcached transactions of at most 16 words" "--key-words 4 --value-words 8" \
	"--key-words 1 --value-words 1, reads --ways + 1) touch up to 40"
expect_rc "memcached's paper layout on gpustm-local exits 2" 2 "$G" stm "${MEMC[@]}" --algo gpustm-local
expect_rc "memcached --key-words 5 exits 2" 2 "$G" stm "${MEMC[@]}" --key-words 5
expect_rc "memcached --value-words 0 exits 2" 2 "$G" stm "${MEMC[@]}" --value-words 0
expect_rc "memcached on jvstm-gpu (CPU backend), compared with jvstm" 0 "$G" stm "${MEMC[@]}" --algo jvstm-gpu \
	--compare jvstm --quiet --json "$R/memcached-jvgpu.json"
json_check "memcached on jvstm-gpu: verified, GET results checked, as jvstm" "$R/memcached-jvgpu.json" '
c = d["config"]; r = d["results"]; v = d["verification"]; w = c["memcached"]
assert c["algo"] == "jvstm-gpu" and c["backend"] == "cpu", c
assert v["verified"] is True and v["read_only_results_checked"] == r["commits_read_only"] == 2 * w["gets"] > 0, (v, r)
assert r["commits"] == 2 * 960 and r["abandoned"] == 0 and 1 <= r["versions"]["kept_peak"] <= 8, r
assert [x["algo"] for x in r["compare"]] == ["jvstm"] and r["compare"][0]["verified"] is True, r["compare"]'
# gpustm without its retry limit: at this contention 100 attempts can run out, and the check is that all commit
expect_rc "memcached at high contention: 4 sets, half SETs, 128 threads" 0 "$G" stm $(t_less MEMC --items --keys --threads --set-permille) --items 16 --ways 4 \
	--keys 24 --set-permille 500 --threads 128 --key-words 1 --value-words 1 --compare gpustm,csmv-onlycs --retry-limit 1000000000 --quiet \
	--json "$R/memcached-hot.json"
json_check "memcached at high contention: everything committed, verified" "$R/memcached-hot.json" '
r = d["results"]
assert d["verification"]["verified"] is True and r["abandoned"] == 0 and r["commits"] == 2 * 1280, r
assert all(x["verified"] is True and x["commits"] == 2 * 1280 for x in r["compare"]), r["compare"]'
expect_rc "memcached with 256 ways on csmv (GETs keep no read set)" 0 "$G" stm $(t_less MEMC --items) --items 1024 --ways 256 \
	--algo csmv --quiet
expect_rc "memcached with 256 ways on prstm (GETs past its set in the read log)" 0 "$G" stm $(t_less MEMC --items) \
	--items 1024 --ways 256 --compare csmv --quiet --json "$R/memcached-prstm256.json"
json_check "memcached with 256 ways on prstm: verified, every GET committed" "$R/memcached-prstm256.json" '
r = d["results"]; w = d["config"]["memcached"]
assert d["config"]["algo"] == "prstm" and w["ways"] == 256, d["config"]
assert d["verification"]["verified"] is True and r["abandoned"] == 0 and r["commits"] == 2 * 960, r
assert r["commits_read_only"] == 2 * w["gets"] > 0 and r["compare"][0]["verified"] is True, r'
expect_rc "memcached --ways 16 on prstm (17 words: the read log's first entry)" 0 "$G" stm "${MEMC[@]}" --ways 16 \
	--key-words 1 --value-words 1 --quiet
expect_rc "memcached --ways 16 on gpustm exits 2" 2 "$G" stm "${MEMC[@]}" --ways 16 --key-words 1 --value-words 1 \
	--algo gpustm
expect_err "memcached --ways beyond gpustm's sets says so" "gpustm runs memcached transactions of at most 16 words"
expect_rc "memcached --ways 3 exits 2" 2 "$G" stm "${MEMC[@]}" --ways 3
expect_rc "memcached --ways 257 exits 2" 2 "$G" stm "${MEMC[@]}" --ways 257 --algo csmv
expect_rc "memcached --read-only exits 2" 2 "$G" stm "${MEMC[@]}" --read-only 50
expect_err "memcached --read-only says what sets the mix" "option --read-only does not apply to --workload memcached" \
	"--set-permille"
expect_rc "memcached --semantic-ratio exits 2" 2 "$G" stm "${MEMC[@]}" --semantic-ratio 10
expect_rc "memcached --presort exits 2" 2 "$G" stm "${MEMC[@]}" --presort
expect_rc "a memcached option with the bank exits 2" 2 "$G" stm "${TINY[@]}" --ways 8
expect_err "a memcached option with the bank names both" "option --ways belongs to --workload memcached, not to --workload bank"
expect_rc "memcached --items below --ways exits 2" 2 "$G" stm $(t_less MEMC --items) --items 4 --ways 8
expect_err "memcached --items below --ways says so" "--items 4 is fewer than one set of --ways 8"

# prstm-nocm, PR-STM without its semantic contention manager: every workload prstm runs, verified beside
# prstm. Where no transaction meets a semantic conflict, nothing is abandoned; vacation's bookings of sold-out
# rooms retry in place until --stall-timeout, and what they leave is abandoned, never wrong.
nocm_check() { # a name, a python condition on r (results), then stm's arguments
	local name=$1 cond=$2
	shift 2
	expect_rc "prstm-nocm on $name, compared with prstm" 0 "$G" stm "$@" --algo prstm-nocm --compare prstm \
		--stall-timeout 0.05 --quiet --json "$R/nocm-$name.json"
	json_check "prstm-nocm on $name verifies, as prstm does" "$R/nocm-$name.json" '
r = d["results"]; p = r["compare"][0]
assert d["config"]["algo"] == "prstm-nocm" and d["verification"]["verified"] is True, d["verification"]
assert p["algo"] == "prstm" and p["verified"] is True and p["abandoned"] == 0, p
assert r["commits"] + r["abandoned"] == p["commits"] or d["config"]["workload"] in ("kmeans", "graph"), (r, p)
assert '"$cond"', r'
}
nocm_check bank-presorted 'r["abandoned"] == 0 and r["commits"] == 48' "${TINY[@]}" --semantic-ratio 100 --presort
nocm_check vacation 'r["commits"] > 0' "${VAC[@]}"
nocm_check skiplist 'r["abandoned"] == 0 and r["aborts"]["semantic"] == 0' "${SKL[@]}"
nocm_check kmeans 'r["abandoned"] == 0 and r["aborts"]["semantic"] == 0' "${KM[@]}"
nocm_check graph 'r["abandoned"] == 0 and r["aborts"]["semantic"] == 0' "${GR[@]}"
nocm_check memcached 'r["abandoned"] == 0 and r["aborts"]["semantic"] == 0' "${MEMC[@]}"
expect_rc "prstm-nocm on an unsorted semantic bank table" 0 "$G" stm "${TINY[@]}" --semantic-ratio 100 \
	--algo prstm-nocm --compare prstm --stall-timeout 0.05 --json "$R/nocm-bank.json"
expect_out "prstm-nocm names what abandons its work" "prstm-nocm " "(see --stall-timeout)"
json_check "prstm-nocm retries semantic conflicts and stalls where prstm postpones them" "$R/nocm-bank.json" '
r = d["results"]; p = r["compare"][0]
assert d["verification"]["verified"] is True and p["verified"] is True, (d["verification"], p)
assert r["abandoned"] > 0 and r["aborts"]["semantic"] > r["abandoned"], r
assert p["abandoned"] == 0 and p["commits"] == 48, p
assert "max_passes" in d["config"] and "stall_timeout_s" in d["config"], d["config"]'
expect_rc "a prstm-only option with --algo prstm-nocm exits 2" 2 "$G" stm "${TINY[@]}" --algo prstm-nocm --no-tags
expect_err "a prstm-only option with --algo prstm-nocm names prstm" "option --no-tags applies to prstm only, not to --algo prstm-nocm"
# gpustm-local: GPU-STM with its logs thread-local, beside gpustm (logs in global memory, the original's):
# both on the same table of every workload GPU-STM runs, each verified; without a reachable retry
# limit, so that every transaction commits on both and their commit counts agree (but on the graph,
# whose rounds until the fixpoint depend on the order transactions commit in)
gl_check='
c = d["config"]; r = d["results"]; v = d["verification"]
assert c["algo"] == "gpustm-local" and c["compare"] == ["gpustm"], c
assert v["verified"] is True and r["abandoned"] == 0 and r["commits"] > 0, (r, v)
(g,) = r["compare"]
assert g["algo"] == "gpustm" and g["verified"] is True and g["abandoned"] == 0 and g["commits"] > 0, g
assert g["reps_completed"] == r["reps_completed"] and g["batches_verified"] == g["batches"], (g, r)
assert c["workload"] == "graph" or g["commits"] == r["commits"], (g["commits"], r["commits"])'
for wl in bank vacation skiplist kmeans graph memcached; do
	case $wl in
	bank) args=($(t_less TINY --reps) --semantic-ratio 0 --reps 2) ;;
	vacation) args=("${VAC[@]}" --read-only 20 --presort) ;; # presorted: no booking meets a sold-out type
	skiplist) args=($(t_less SKL --levels) --read-only 20 --levels 8) ;;
	kmeans) args=("${KM[@]}") ;;
	graph) args=("${GR[@]}") ;;
	memcached) args=("${MEMC[@]}" --key-words 1 --value-words 1) ;; # gpustm runs the compact layout
	esac
	expect_rc "$wl on gpustm-local, compared with gpustm" 0 "$G" stm "${args[@]}" --algo gpustm-local \
		--compare gpustm --retry-limit 1000000000 --quiet --json "$R/gl-$wl.json"
	json_check "$wl on gpustm-local and gpustm: both verified, the same commits" "$R/gl-$wl.json" "$gl_check"
done
expect_rc "info lists gpustm-local" 0 "$G" info
expect_out "info: gpustm keeps its logs in global memory, gpustm-local thread-local" \
	"stm engine gpustm (" "lock log in global memory" "stm engine gpustm-local (" "in thread-local memory"

# --semantic-ratio is stm's: vacation's non-semantic updates are price changes
expect_rc "vacation --semantic-ratio 40 runs" 0 "$G" stm "${VAC[@]}" --semantic-ratio 40 --quiet --json "$R/vac-sem.json"
json_check "vacation --semantic-ratio 40: price changes mixed in, verified" "$R/vac-sem.json" '
v = d["config"]["vacation"]; r = d["results"]
assert v["semantic_ratio"] == 40 and d["config"]["semantic_ratio"] == 40
assert v["price_changes"] > 0 and v["bookings"] == v["cancellations"] > 0, v
assert d["verification"]["verified"] is True and r["abandoned"] == 0, r'
expect_rc "vacation --semantic-ratio below 100 with --room-interval 1 exits 2" 2 "$G" stm "${VAC[@]}" \
	--semantic-ratio 50 --room-interval 1
expect_err "price changes need a price word" "need --room-interval 2 or more"

# The report file: written atomically, errors exit 1.
expect_rc "--json into a missing directory exits 1" 1 "$G" stm "${TINY[@]}" --quiet --json "$R/missing/dir/r.json"
expect_err "--json into a missing directory says so" "missing/dir"
mkdir -p "$R/adir"
expect_rc "--json onto a directory exits 1" 1 "$G" stm "${TINY[@]}" --quiet --json "$R/adir"
check "a failed report write leaves no temporary file" test -z "$(find "$R" -name '*.tmp.*')"
expect_rc "--json overwrites an existing report" 0 "$G" stm "${TINY[@]}" --seed 3 --quiet --json "$R/quiet.json"
json_check "the overwritten report is the new one" "$R/quiet.json" 'assert d["config"]["bank"]["seed"] == 3'
check "no temporary files anywhere" test -z "$(find "$T_TMP" -name '*.tmp.*')"

# ---- gpubench avoid
expect_rc "avoid --help exits 0" 0 "$G" avoid --help
expect_out "avoid --help lists the implementations" "cpu-fast"
expect_rc "help avoid exits 0" 0 "$G" help avoid
expect_rc "avoid --impl nosuch exits 2" 2 "$G" avoid --impl nosuch
expect_err "avoid --impl nosuch lists the accepted ones" "cpu|cpu-fast"
expect_rc "avoid --compare with an unknown one exits 2" 2 "$G" avoid --compare cpu,nosuch
expect_rc "avoid --procs 1 exits 2" 2 "$G" avoid --procs 1
expect_err "avoid --procs 1 names the range" "--procs"
expect_rc "avoid --workload nosuch exits 2" 2 "$G" avoid --workload nosuch
expect_rc "avoid --trace of a missing file exits 2" 2 "$G" avoid --trace "$R/no-such.trace"
expect_rc "avoid worst case, both implementations" 0 "$G" avoid --procs 65 --res 7 --events 6 --compare cpu \
	--reps 2 --quiet --json "$R/avoid.json"
json_check "avoid report: worst case decided and timed" "$R/avoid.json" '
c = d["config"]; v = d["verification"]
assert d["meta"]["subcommand"] == "avoid" and v["verified"] is True and v["events_checked"] == 6
assert c["impl"] == "cpu-fast" and c["compare"] == ["cpu"] and c["procs"] == 65 and c["res"] == 7
impls = {x["impl"]: x for x in d["results"]["impls"]}
for name in ("cpu-fast", "cpu"):
    x = impls[name]
    assert x["decisions"]["granted"] == 3 and x["decisions"]["released"] == 3, x["decisions"]
    assert x["mismatches"] == 0 and x["final_state_matches"] is True
    assert x["stream_seconds"]["n"] == 2 and x["request_seconds"]["n"] == 3
    assert x["phase_seconds"]["safety_check"] > 0
assert impls["cpu"]["safety_steps_max"] == 64
assert impls["cpu"]["speedup_of_impl"] > 0'
cat > "$R/avoid.trace" <<'TRACE'
# the textbook example: 5 processes, 3 resources
processes 5
resources 3
available 10 5 7
max 0 7 5 3
max 1 3 2 2
max 2 9 0 2
max 3 2 2 2
max 4 4 3 3
request 0 0 1 0
request 1 2 0 0
request 2 3 0 2
request 3 2 1 1
request 4 0 0 2
request 1 1 0 2
request 4 3 3 0
request 0 0 2 0
release 1 0:1
TRACE
expect_rc "avoid replays a trace" 0 "$G" avoid --trace "$R/avoid.trace" --impl cpu --decisions "$R/avoid.dec" --quiet
check "avoid decisions: the textbook outcomes" diff -u - "$R/avoid.dec" <<'DEC'
0 request 0 granted
1 request 1 granted
2 request 2 granted
3 request 3 granted
4 request 4 granted
5 request 1 granted
6 request 4 denied-unavailable
7 request 0 denied-unsafe
8 release 1 released
DEC
expect_rc "avoid --unsafe-share outside 0..1 exits 2" 2 "$G" avoid --workload unsafe-mix --unsafe-share 1.5
expect_err "avoid --unsafe-share names the range" "--unsafe-share"
expect_rc "avoid --unsafe-share without unsafe-mix exits 2" 2 "$G" avoid --unsafe-share 0.5
expect_err "avoid --unsafe-share says where it applies" "unsafe-mix"
expect_rc "avoid unsafe-mix on the CPU implementations" 0 "$G" avoid --workload unsafe-mix --unsafe-share 0.6 \
	--procs 300 --res 40 --events 500 --impl cpu-fast --compare cpu --reps 1 --quiet --json "$R/avoid-mix.json"
json_check "avoid unsafe-mix report: about 60% of the requests unsafe" "$R/avoid-mix.json" '
c = d["config"]; x = d["results"]["impls"][0]["decisions"]
assert c["workload"] == "unsafe-mix" and abs(c["unsafe_share"] - 0.6) < 1e-12
req = x["granted"] + x["denied-unsafe"]
assert x["denied-invalid"] == 0 and x["denied-unavailable"] == 0
assert 0.45 < x["denied-unsafe"] / req < 0.75, x
assert d["verification"]["verified"] is True'
json_check "avoid random report: no unsafe share in config" "$R/avoid.json" '
assert d["config"]["unsafe_share"] is None'
# without a GPU: 1 (the machine lacks it); in a CPU-only build: 2 (this binary lacks it, whatever the machine)
no_gpu_rc=$([ "$has_gpu_backend" = 1 ] && echo 1 || echo 2)
no_gpu_why=$([ "$has_gpu_backend" = 1 ] && echo "needs a GPU" || echo "is not built into this binary")
if [ "$ndevices" = 0 ]; then
	expect_rc "avoid --impl gpu without a GPU exits $no_gpu_rc" "$no_gpu_rc" "$G" avoid --impl gpu --procs 10 --res 2
	expect_err "avoid --impl gpu says why it cannot run" "$no_gpu_why"
	expect_rc "avoid --compare gpu-thesis without a GPU exits $no_gpu_rc" "$no_gpu_rc" "$G" avoid \
		--compare gpu-thesis --procs 10 --res 2
	expect_rc "avoid falls back to cpu-fast without a GPU" 0 "$G" avoid --procs 10 --res 2 --events 4 --json "$R/avoid-fb.json"
	expect_err "avoid says it fell back" "cpu-fast"
	json_check "avoid fallback report names cpu-fast" "$R/avoid-fb.json" '
assert d["config"]["impl"] == "cpu-fast" and d["device"]["backend"] == "cpu"'
fi
printf 'processes 2\nresources 1\navailable 1\nmax 0 1\nmax 1 1\nrelease 0 1\n' >"$R/bad.trace"
expect_rc "avoid: a trace releasing what is not held exits 2" 2 "$G" avoid --trace "$R/bad.trace"
expect_err "avoid: the message names the line" "bad.trace:6:"
printf 'processes 1048576\nresources 1048576\n' >"$R/huge.trace"
expect_rc "avoid: a trace declaring a matrix past the limit exits 2" 2 "$G" avoid --trace "$R/huge.trace"
expect_err "avoid: it names the line and the limit --procs x --res has" "huge.trace:2:" "2147483648-cell matrix limit"

# ---- gpubench detect
expect_rc "detect --help exits 0" 0 "$G" detect --help
expect_out "detect --help lists the detectors" "cpu-bits" "osdda" "lmdda"
expect_rc "help detect exits 0" 0 "$G" help detect
expect_rc "detect --algo nosuch exits 2" 2 "$G" detect --algo nosuch
expect_err "detect --algo nosuch lists the algorithms" "osdda|lmdda"
expect_rc "detect --impl nosuch exits 2" 2 "$G" detect --impl nosuch
expect_err "detect --impl nosuch lists the detectors" "cpu|cpu-bits"
expect_rc "detect --compare with an unknown one exits 2" 2 "$G" detect --compare cpu,nosuch
expect_rc "detect --procs 0 exits 2" 2 "$G" detect --procs 0
expect_err "detect --procs 0 names the range" "--procs"
expect_rc "detect --units with osdda exits 2" 2 "$G" detect --units 2
expect_err "detect --units with osdda says why" "lmdda"
expect_rc "detect --units 3-2 exits 2" 2 "$G" detect --algo lmdda --units 3-2
expect_rc "detect --units 0 exits 2" 2 "$G" detect --algo lmdda --units 0
expect_rc "detect --deadlock-share 2 exits 2" 2 "$G" detect --deadlock-share 2
expect_rc "detect --trace of a missing file exits 2" 2 "$G" detect --trace "$R/no-such.trace"
expect_rc "detect --trace with --events exits 2" 2 "$G" detect --trace "$R/no-such.trace" --events 5
expect_rc "detect osdda, both detectors" 0 "$G" detect --procs 67 --res 45 --events 3000 --compare cpu \
	--reps 2 --quiet --json "$R/detect.json" --emit-trace "$R/detect.trace" --decisions "$R/detect.dec"
json_check "detect osdda report: decided, verified and timed" "$R/detect.json" '
c = d["config"]; r = d["results"]; v = d["verification"]
assert d["meta"]["subcommand"] == "detect" and c["algo"] == "osdda" and c["impl"] == "cpu-bits"
assert c["procs"] == 67 and c["res"] == 45 and c["units_min"] == 1 and c["units_max"] == 1
assert v["verified"] is True and v["events_checked"] == 3000
assert sum(r["decisions"].values()) == 3000 and r["deadlocks"] == r["decisions"]["deadlock"]
for k in ("granted", "blocked", "released", "regranted", "deadlock"):
    assert r["decisions"][k] > 0, k
impls = {x["impl"]: x for x in r["impls"]}
assert set(impls) == {"cpu", "cpu-bits"}
for x in impls.values():
    assert x["mismatches"] == 0 and x["stream_seconds"]["n"] == 2 and x["matrix_bytes"] > 0
    assert x["event_seconds"]["granted"]["n"] == r["decisions"]["granted"]
assert impls["cpu"]["speedup_of_impl"] > 0'
check "detect --decisions has a line per event" test "$(wc -l <"$R/detect.dec")" = 3000
expect_rc "detect replays its emitted trace" 0 "$G" detect --trace "$R/detect.trace" --impl cpu \
	--decisions "$R/detect2.dec" --quiet
check "detect: the replayed trace gives the same decisions" diff -u "$R/detect.dec" "$R/detect2.dec"
for algo in osdda lmdda; do
	expect_rc "detect $algo --impl cpu-stream replays the trace, timed by the stream" 0 "$G" detect \
		--algo "$algo" --procs 300 --res 200 --events 20000 --deadlock-share 0.1 --impl cpu-stream \
		--compare cpu-bits --reps 2 --quiet --json "$R/detect-cs.json" --decisions "$R/detect-cs.dec"
	json_check "detect $algo cpu-stream: verified, no time per event" "$R/detect-cs.json" '
r = d["results"]
assert d["verification"]["verified"] is True and d["verification"]["events_checked"] == 20000
cs, cb = r["impls"]
assert cs["impl"] == "cpu-stream" and cs["mismatches"] == 0 and cs["stream_seconds"]["n"] == 2
assert all(v["n"] == 0 for v in cs["event_seconds"].values())
assert cb["event_seconds"]["granted"]["n"] == r["decisions"]["granted"] > 0
assert r["decisions"]["deadlock"] > 0 and r["decisions"]["regranted"] > 0'
done
expect_rc "detect lmdda with unit ranges, both detectors" 0 "$G" detect --algo lmdda --procs 15 --res 13 \
	--units 1-3 --events 800 --compare cpu --reps 1 --quiet --json "$R/detect-l.json"
json_check "detect lmdda report" "$R/detect-l.json" '
c = d["config"]; r = d["results"]
assert c["algo"] == "lmdda" and c["units_min"] >= 1 and c["units_max"] <= 3 and c["units_max"] > 1
assert d["verification"]["verified"] is True
assert r["decisions"]["blocked"] > 0 and r["decisions"]["regranted"] > 0'
# --protocol thesis (the default without --events or --trace): what Tables 3.2-4.4 time.
expect_rc "detect osdda --protocol thesis: the build of a 40 x 24 RAG, every CPU detector" 0 "$G" detect \
	--procs 40 --res 24 --impl cpu-serial --compare cpu,cpu-bits,cpu-stream --reps 2 --quiet \
	--json "$R/detect-th.json"
json_check "detect osdda thesis: procs + res events, all timed, verified" "$R/detect-th.json" '
c = d["config"]; r = d["results"]
assert c["protocol"] == "thesis" and c["events"] == 64 and c["timed_from"] == 0 and c["timed_events"] == 64
assert c["generated_build_events"] is None
assert d["verification"]["verified"] is True and d["verification"]["events_checked"] == 64
assert sum(r["decisions"].values()) == 64 and r["decisions"]["blocked"] > 0
impls = {x["impl"]: x for x in r["impls"]}
assert set(impls) == {"cpu-serial", "cpu", "cpu-bits", "cpu-stream"}
for x in impls.values():
    assert x["mismatches"] == 0 and x["stream_seconds"]["n"] == 2
    assert abs(x["events_per_s"] * x["stream_seconds"]["median"] - 64) < 1e-6 * 64'
expect_rc "detect lmdda --protocol thesis: one release after the build" 0 "$G" detect --algo lmdda \
	--procs 20 --res 12 --units 1-3 --impl cpu-serial --compare cpu,cpu-bits,cpu-stream --reps 2 --quiet \
	--json "$R/detect-thl.json" --decisions "$R/detect-thl.dec"
json_check "detect lmdda thesis: the timed event follows the build, verified" "$R/detect-thl.json" '
c = d["config"]; r = d["results"]
assert c["protocol"] == "thesis" and c["generated_build_events"] >= 32 and c["timed_events"] == 1
assert c["events"] == c["timed_from"] + 1 and 0 < c["timed_from"] < c["generated_build_events"]
assert d["verification"]["verified"] is True and d["verification"]["events_checked"] == c["events"]
for x in r["impls"]:
    assert x["mismatches"] == 0 and x["stream_seconds"]["n"] == 2, x["impl"]
    assert abs(x["events_per_s"] * x["stream_seconds"]["median"] - 1) < 1e-6, x["impl"]'
check "detect lmdda thesis: the timed event is a release that moves an edge" \
	sh -c 'tail -n 1 "$1" | grep -Eq " release .* (released|regranted)"' sh "$R/detect-thl.dec"
# one process and one resource: no recomputing release in the first 4 events; a longer stream of the seed has one
expect_rc "detect lmdda --protocol thesis at 1 x 1 finds its release in a longer stream" 0 "$G" detect --algo lmdda \
	--procs 1 --res 1 --units 1-3 --impl cpu-serial --compare cpu-bits --reps 1 --quiet --json "$R/detect-th1.json"
json_check "detect lmdda thesis at 1 x 1: the timed release past the first stream, verified" "$R/detect-th1.json" '
c = d["config"]
assert c["generated_build_events"] >= 4 and c["timed_events"] == 1 and d["verification"]["verified"] is True, c'
check "detect lmdda thesis: the build reaches its RAG by grants, then blocked requests, no release" \
	sh -c 'head -n -1 "$1" | awk "\$2 != \"request\" || \$5 !~ /^(granted|blocked)\$/ || (\$5 == \"granted\" && b) {bad = 1; exit} \$5 == \"blocked\" {b = 1} END {exit bad || !b}"' \
	sh "$R/detect-thl.dec"
expect_rc "detect --protocol thesis with --events exits 2" 2 "$G" detect --protocol thesis --events 50
expect_err "detect --protocol thesis --events names --protocol stream" "--protocol stream"
expect_rc "detect --protocol thesis with --trace exits 2" 2 "$G" detect --protocol thesis --trace "$R/detect.trace"
expect_rc "detect --protocol stream: the 2000-event default stream" 0 "$G" detect --protocol stream \
	--procs 30 --res 30 --reps 1 --quiet --json "$R/detect-st.json"
json_check "detect --protocol stream report" "$R/detect-st.json" '
c = d["config"]
assert c["protocol"] == "stream" and c["events"] == 2000 and c["timed_from"] == 0'
json_check "detect --events alone selects the stream protocol" "$R/detect.json" '
assert d["config"]["protocol"] == "stream" and d["config"]["timed_events"] == 3000'
expect_rc "detect --deadlock-share 0 has no deadlocks" 0 "$G" detect --procs 40 --res 40 --events 2000 \
	--deadlock-share 0 --quiet --json "$R/detect-0.json"
json_check "detect --deadlock-share 0 report" "$R/detect-0.json" '
assert d["results"]["deadlocks"] == 0'
expect_rc "detect --verify-every 0 skips the oracle" 0 "$G" detect --procs 10 --res 10 --events 100 \
	--verify-every 0 --quiet --json "$R/detect-nv.json"
json_check "detect --verify-every 0 report" "$R/detect-nv.json" '
assert d["verification"]["verified"] is None and d["verification"]["events_checked"] == 0'
printf 'processes 2\nresources 2\nrequest 0 0\nrelease 1 0\n' >"$R/bad-detect.trace"
expect_rc "detect: a trace releasing what is not held exits 2" 2 "$G" detect --trace "$R/bad-detect.trace"
expect_err "detect: the message names the line" ":4:"
printf 'processes 2\nresources 1\nrequest 0 0\nrequest 1 0\nrequest 1 0\n' >"$R/bad-detect2.trace"
expect_rc "detect: a request by a blocked process exits 2" 2 "$G" detect --trace "$R/bad-detect2.trace"
expect_err "detect: the message says the process is blocked" "blocked"
expect_rc "detect --help exits 0" 0 "$G" detect --help
expect_out "detect --help lists the GPU detectors" "gpu-graph" "gpu-initial" "gpu-stream" "gpu-event"
if [ "$ndevices" = 0 ]; then
	expect_rc "detect --impl gpu without a GPU exits $no_gpu_rc" "$no_gpu_rc" "$G" detect --impl gpu --procs 10 \
		--res 10 --events 10
	expect_err "detect --impl gpu says why it cannot run" "$no_gpu_why"
	expect_rc "detect --compare gpu-graph without a GPU exits $no_gpu_rc" "$no_gpu_rc" "$G" detect --algo lmdda \
		--compare gpu-graph --procs 10 --res 10 --events 10
	expect_rc "detect --impl gpu-stream without a GPU exits $no_gpu_rc" "$no_gpu_rc" "$G" detect --algo lmdda \
		--impl gpu-stream --procs 10 --res 10 --events 10
	expect_err "detect --impl gpu-stream says why it cannot run" "$no_gpu_why"
	expect_rc "detect falls back to cpu-bits without a GPU" 0 "$G" detect --procs 10 --res 10 --events 20 \
		--json "$R/detect-fb.json"
	expect_err "detect says it fell back" "cpu-bits"
	json_check "detect fallback report names cpu-bits" "$R/detect-fb.json" '
assert d["config"]["impl"] == "cpu-bits" and d["device"]["backend"] == "cpu"'
fi

# scripts/lib/rag_window.py: the longest prefix of disjoint footprints commits a round
printf 'processes 4\nresources 4\nunits 1\nrequest 0 0\nrequest 1 1\nrequest 2 2\nrequest 3 3\n' >"$R/win-apart.trace"
printf 'processes 4\nresources 4\nunits 1\nrequest 0 0\nrequest 1 0\nrequest 2 0\nrelease 0 0\n' >"$R/win-one.trace"
expect_rc "rag_window.py runs on a trace" 0 python3 scripts/lib/rag_window.py "$R/win-apart.trace" --window 8 --window 2
expect_out "rag_window.py: four events on four resources are one round of a window of 8" \
	"window 8: 4 events in 1 rounds, 4.0 events a round"
expect_out "rag_window.py: and two rounds of a window of 2" "window 2: 4 events in 2 rounds"
expect_rc "rag_window.py runs on a contended trace" 0 python3 scripts/lib/rag_window.py "$R/win-one.trace" --window 8
expect_out "rag_window.py: events on one resource commit one a round" "window 8: 4 events in 4 rounds, 1.0 events a round"
expect_rc "rag_window.py refuses multi-unit traces" 1 python3 scripts/lib/rag_window.py <(printf 'processes 1\nresources 1\nunits 0 2\n')

summary cli
