#!/usr/bin/env bash
# CLI tests of `gpubench speculate` on the CPU backend: options, error paths,
# exit codes and the JSON report. Tiny loops: each run takes well under a
# second. GPUBENCH names the binary (default ./gpubench). Last line:
# "speculate: N passed, N failed"; exit status 1 when any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
R=$T_TMP
if [ ! -x "$G" ]; then
	echo "speculate: $G is not an executable (set GPUBENCH)"
	echo "speculate: 0 passed, 1 failed"
	exit 1
fi
S=("$G" speculate --backend cpu --cpu-workers 3 --reps 1 --quiet)

# ---- help
expect_rc "help speculate exits 0" 0 "$G" help speculate
expect_out "help speculate documents every option and loop" "usage: gpubench speculate" --loop \
	--iters --density --work --clause --opt --compare --backend --cpu-workers --threshold \
	--clean-run --max-assignment --schedule --reps --seed --timeout --no-verify --json --quiet \
	ocean trfd fftbench mdg strcat gothic alvinn chain figure3 no-mo no-co no-sched none gpu-nospec
cp "$T_OUT" "$T_TMP/help.txt"
expect_rc "speculate --help exits 0" 0 "$G" speculate --help
check "speculate --help prints the same as help speculate" cmp -s "$T_OUT" "$T_TMP/help.txt"
expect_rc "--help lists speculate" 0 "$G" --help
expect_out "--help lists speculate" "speculate"
expect_rc "info lists the loops" 0 "$G" info --quiet --json "$R/info.json"
json_check "info JSON lists every loop" "$R/info.json" '
assert [e["loop"] for e in d["engines"]["speculate"]] == ["ocean", "trfd", "fftbench", "mdg",
    "strcat", "gothic", "alvinn", "chain", "figure3"]'
json_check "info JSON lists every baseline --compare takes, in the order they run" "$R/info.json" '
b = d["engines"]["speculate_baselines"]
assert [e["name"] for e in b] == ["seq", "cpu-tm", "cpu-spec", "cpu-inspect", "gpu-nospec"], b
assert {e["name"]: e["backends"] for e in b}["cpu-tm"] == ["cpu"], b
assert "transaction" in {e["name"]: e["summary"] for e in b}["cpu-tm"], b'
expect_rc "info lists the baselines" 0 "$G" info
expect_out "info lists cpu-tm" "speculate baseline cpu-tm: the paper's CPU speculation"
expect_rc "speculate --help lists cpu-tm" 0 "$G" speculate --help
expect_out "speculate --help lists cpu-tm" "cpu-tm (the paper's CPU speculation"

# ---- usage errors: exit 2, naming the option
bad() {
	local name=$1 text=$2
	shift 2
	expect_rc "$name exits 2" 2 "$G" speculate "$@"
	expect_err "$name names the problem" "$text"
}
bad "--loop nosuch" "ocean|trfd|fftbench|mdg|strcat|gothic|alvinn|chain|figure3" --loop nosuch
bad "--iters 0" "--iters" --iters 0
bad "--schedule nosuch" "--schedule" --schedule nosuch
bad "--iters x" "--iters" --iters x
bad "--density above the loop's maximum" "--density" --loop ocean --density 2
bad "--density 0 for figure3" "figure3 needs a density above 0" --loop figure3 --density 0
bad "--compare naming a baseline twice" "option --compare: seq is named twice" --loop mdg --compare seq,seq
bad "--density that underflows to 0" "too close to 0 for a double" --loop mdg --density 1e-400
expect_rc "--density 1e-310, a subnormal, is a value in range" 0 "$G" speculate --backend cpu --loop mdg \
	--density 1e-310 --iters 50 --reps 1 --quiet
bad "--work for a loop without one" "no work knob" --loop fftbench --work 3
bad "--opt nosuch" "all|no-mo|no-co|no-sched|none" --opt nosuch
bad "--compare nosuch" "seq|cpu-tm|cpu-spec|cpu-inspect|gpu-nospec" --compare seq,nosuch
bad "--compare cpu-inspect on a control-flow loop" "cpu-inspect runs the irregular-memory loops" --loop mdg \
	--compare cpu-inspect
bad "--compare with an empty name" "empty name" --compare seq,
bad "--compare gpu-nospec on a loop with dependences" "runtime dependences" --loop ocean --compare gpu-nospec
bad "--compare gpu-nospec above density 0" "runtime dependences" --loop alvinn --density 0.1 --compare gpu-nospec
bad "--clause on a memory loop" "control-flow loops" --loop ocean --clause "(+1)"
bad "--clause without parentheses" "--clause" --loop mdg --clause "+1"
bad "--clause with an empty range" "empty range" --loop mdg --clause "(+4:+1)"
bad "--backend nosuch" "--backend" --backend nosuch
bad "--reps 0" "--reps" --reps 0
bad "--threshold 2" "--threshold" --threshold 2
bad "an unknown option" "--frobnicate" --frobnicate
bad "a stray operand" "unexpected argument" extra
bad "--json without a value" "needs a value" --json

# ---- a run of every loop under every --opt: verified, with a consistent report
for loop in ocean trfd fftbench mdg strcat gothic alvinn chain figure3; do
	for opt in all no-mo no-co no-sched none; do
		f=$R/$loop-$opt.json
		expect_rc "$loop --opt $opt verifies" 0 "${S[@]}" --loop "$loop" --iters 3000 --opt "$opt" \
			--density 0.01 --seed 3 --json "$f"
		json_check "$loop --opt $opt report" "$f" '
r = d["results"]; c = d["config"]; v = d["verification"]
assert d["meta"]["subcommand"] == "speculate" and d["meta"]["complete"] is True
assert c["loop"] == "'"$loop"'" and c["opt"] == "'"$opt"'" and c["iters"] == 3000
assert c["backend"] == "cpu" and d["device"]["backend"] == "cpu" and c["cpu_workers"] == 3
assert v["verified"] is True and v["message"] == "", v
for k in ("assignments", "assignments_misspeculated", "assignment_min", "assignment_max",
          "iterations_speculated", "iterations_misspeculated", "iterations_reexecuted",
          "iterations_deferred", "wrong_elements", "detections", "raw_war_assignments",
          "waw_assignments", "bytes_to_device", "bytes_from_device", "reps_completed"):
    assert isint(r[k]), (k, r[k])
assert r["reps_completed"] == 1
assert 1 <= r["assignment_min"] <= r["assignment_max"] <= 3000
assert r["iterations_speculated"] >= 3000
assert r["assignments_misspeculated"] <= r["assignments"]
assert r["misspeculation_rate"] == r["iterations_reexecuted"] / 3000.0
# mdg, strcat, gothic and alvinn write their whole array before reading it: it is not copied in
assert r["bytes_to_device"] >= (0 if c["loop"] in ("mdg", "strcat", "gothic", "alvinn") else 4 * c["elements"])
assert r["bytes_from_device"] > 0
ph = r["phase_seconds"]
assert sorted(ph) == sorted(["inputs", "setup", "scheduling", "computation", "check", "commit", "recovery"])
assert all(ph[k]["n"] == 1 and ph[k]["median"] >= 0 for k in ph)
assert abs(sum(ph[k]["median"] for k in ph) - r["loop_seconds"]["median"]) <= 1e-9 + 1e-6 * r["loop_seconds"]["median"]
assert (c["kind"] == "irregular-control-flow") == (c["clause"] is not None)
if "'"$opt"'" in ("no-sched", "none"):
    assert r["assignments"] == 1 or c["clause"] == "(+0:end)", r["assignments"]
if "'"$opt"'" in ("no-mo", "none"):
    assert r["iterations_reexecuted"] % 1 == 0 and r["iterations_deferred"] == 0'
	done
done
json_check "ocean: no-co copies more than all" "$R/ocean-no-co.json" '
import json
a = json.load(open("'"$R"'/ocean-all.json"))["results"]
assert d["results"]["bytes_to_device"] > a["bytes_to_device"]
assert d["results"]["bytes_from_device"] > a["bytes_from_device"]'
json_check "figure3: no-mo re-executes at least what all does" "$R/figure3-no-mo.json" '
import json
a = json.load(open("'"$R"'/figure3-all.json"))["results"]
assert d["results"]["iterations_reexecuted"] >= a["iterations_reexecuted"] > 0'
json_check "figure3: none runs one assignment and, once detection fires, redoes all of it" \
	"$R/figure3-none.json" '
import json
r = d["results"]
assert r["assignments"] == 1 and r["detections"] == 1 and r["iterations_reexecuted"] == 3000, r
assert r["misspeculation_rate"] == 1.0
a = json.load(open("'"$R"'/figure3-no-co.json"))["results"]
assert r["bytes_to_device"] >= a["bytes_to_device"] // a["assignments"]'
json_check "gothic: the all-subsequent branch defers iterations" "$R/gothic-all.json" '
r = d["results"]
assert r["iterations_deferred"] > 0 and r["assignments"] > 1 and r["iterations_reexecuted"] > 0'
json_check "fftbench at density 0.01 has RAW/WAR or WAW assignments" "$R/fftbench-all.json" '
r = d["results"]
assert r["raw_war_assignments"] + r["waw_assignments"] > 0 and r["iterations_reexecuted"] > 0'

# ---- baselines and speedups
expect_rc "speculate --compare seq,cpu-spec,gpu-nospec (fftbench)" 0 $(t_less S --reps) --loop fftbench \
	--iters 4096 --compare seq,cpu-spec,gpu-nospec --reps 2 --json "$R/cmp.json"
json_check "baselines report: each verified, speedups from medians" "$R/cmp.json" '
r = d["results"]; b = r["baselines"]
assert [x["name"] for x in b] == ["seq", "cpu-spec", "gpu-nospec"], b
assert d["config"]["compare"] == ["seq", "cpu-spec", "gpu-nospec"]
for x in b:
    assert x["verified"] is True and x["loop_seconds"]["n"] == 2
    s = r["speedup_over"][x["name"]]
    assert abs(s - x["loop_seconds"]["median"] / r["loop_seconds"]["median"]) < 1e-9 * max(1, s)
assert b[0]["iterations_reexecuted"] == 4096 and b[0]["backend"] == "cpu"
assert b[2]["iterations_reexecuted"] == 0 and b[2]["assignments"] == 1
assert r["iterations_reexecuted"] == 0 and r["detections"] == 0'
expect_rc "speculate --compare seq,cpu-inspect (ocean, two workers)" 0 $(t_less S --cpu-workers --reps) --loop ocean \
	--iters 20000 --density 0.01 --cpu-workers 2 --compare seq,cpu-inspect --reps 2 --json "$R/inspect.json"
json_check "cpu-inspect report: verified, every iteration run once, in parallel or in order" "$R/inspect.json" '
b = d["results"]["baselines"]
assert [x["name"] for x in b] == ["seq", "cpu-inspect"], b
x = b[1]
assert x["verified"] is True and x["loop_seconds"]["n"] == 2
assert x["iterations_speculated"] + x["iterations_reexecuted"] == 20000, x
assert 0 < x["iterations_reexecuted"] < 20000 and x["iterations_misspeculated"] == 0, x
assert x["phase_seconds"]["check"]["median"] > 0 and x["phase_seconds"]["computation"]["median"] > 0'
expect_rc "the summary names each baseline" 0 "$G" speculate --backend cpu --loop alvinn --iters 500 \
	--reps 1 --compare seq,cpu-spec,gpu-nospec
expect_out "the summary names each baseline" "seq " "cpu-spec " "gpu-nospec" "verified     yes"
check "the summary gives each baseline's speedup from the same medians as the report" \
	test "$(grep -cE '^  (seq|cpu-spec|gpu-nospec) +loop [0-9.e+-]+ s \(median of 1\), cpu backend, verified, speculative is [0-9.]+x (faster|slower)$' "$T_OUT")" = 3

# ---- cpu-spec: speculation designed for the host's cores, with its own counters
cpu_spec_common='
x = {b["name"]: b for b in d["results"]["baselines"]}["cpu-spec"]; n = d["config"]["iters"]
assert x["verified"] is True and x["backend"] == "cpu", x
for k in ("assignments", "assignments_misspeculated", "assignment_min", "assignment_max",
          "iterations_speculated", "iterations_misspeculated", "iterations_reexecuted",
          "iterations_deferred", "wrong_elements", "detections", "raw_war_assignments",
          "waw_assignments", "bytes_to_device", "bytes_from_device"):
    assert isint(x[k]), (k, x[k])
assert x["bytes_to_device"] == 0 and x["bytes_from_device"] == 0   # nothing is copied
assert x["iterations_speculated"] >= n and 1 <= x["assignment_min"] <= x["assignment_max"] <= n
assert x["assignments_misspeculated"] <= x["assignments"] and x["detections"] <= x["assignments"]
assert x["misspeculation_rate"] == x["iterations_reexecuted"] / float(n)
ph = x["phase_seconds"]
assert ph["inputs"]["median"] == 0 and ph["setup"]["median"] == 0
assert abs(sum(ph[k]["median"] for k in ph) - x["loop_seconds"]["median"]) <= 1e-9 + 1e-6 * x["loop_seconds"]["median"]
s = d["results"]["speedup_over"]["cpu-spec"]
assert abs(s - x["loop_seconds"]["median"] / d["results"]["loop_seconds"]["median"]) < 1e-9 * max(1, s)
'
expect_rc "cpu-spec on dense dependences (figure3)" 0 "${S[@]}" --loop figure3 --iters 100000 \
	--density 8 --compare cpu-spec --json "$R/cpuspec-mem.json"
json_check "cpu-spec on dense dependences: RAW re-executions, rounds of at most n/m" \
	"$R/cpuspec-mem.json" "$cpu_spec_common"'
assert x["iterations_reexecuted"] > 0 and x["raw_war_assignments"] > 0
assert x["wrong_elements"] == x["iterations_reexecuted"]          # one write per iteration
assert x["assignment_max"] <= d["config"]["elements"] and x["iterations_deferred"] == 0
assert x["phase_seconds"]["commit"]["median"] > 0'
expect_rc "cpu-spec on an all-subsequent branch (gothic)" 0 "${S[@]}" --loop gothic --iters 20000 \
	--density 0.01 --compare cpu-spec --json "$R/cpuspec-cf.json"
json_check "cpu-spec on gothic: branches recovered, what ran past them deferred" "$R/cpuspec-cf.json" \
	"$cpu_spec_common"'
assert x["iterations_reexecuted"] > 0   # how far workers ran past a branch depends on timing
assert x["iterations_misspeculated"] == x["iterations_reexecuted"] + x["iterations_deferred"]
assert x["raw_war_assignments"] == 0 and x["waw_assignments"] == 0 and x["wrong_elements"] == 0
assert x["assignment_max"] == 20000 and x["assignments"] > 1'
expect_rc "cpu-spec without dependences (alvinn)" 0 "${S[@]}" --loop alvinn --iters 20000 \
	--compare cpu-spec --json "$R/cpuspec-none.json"
json_check "cpu-spec on alvinn: one round, nothing re-executed" "$R/cpuspec-none.json" \
	"$cpu_spec_common"'
assert x["assignments"] == 1 and x["iterations_reexecuted"] == 0 and x["detections"] == 0'
expect_rc "cpu-spec on one worker" 0 $(t_less S --cpu-workers) --loop ocean --iters 20000 --cpu-workers 1 \
	--compare cpu-spec --json "$R/cpuspec-one.json"
json_check "cpu-spec on one worker runs the loop sequentially" "$R/cpuspec-one.json" \
	"$cpu_spec_common"'
assert x["iterations_reexecuted"] == 0 and x["detections"] == 0 and d["config"]["cpu_workers"] == 1'
expect_rc "cpu-spec on ocean, more workers than cores" 0 $(t_less S --cpu-workers --reps) --loop ocean --iters 40000 \
	--density 0.01 --cpu-workers 6 --reps 2 --compare cpu-spec --json "$R/cpuspec-ocean.json"
json_check "cpu-spec on ocean: reads across chunks re-executed in order, one write each" \
	"$R/cpuspec-ocean.json" "$cpu_spec_common"'
assert x["iterations_reexecuted"] > 0 and x["raw_war_assignments"] > 0
assert x["wrong_elements"] == x["iterations_reexecuted"] == x["iterations_misspeculated"]
assert x["waw_assignments"] == 0 and x["iterations_deferred"] == 0 and d["config"]["cpu_workers"] == 6'

# ---- cpu-tm: the paper's CPU speculation, each iteration a transaction committed in loop order
cpu_tm_common='
x = {b["name"]: b for b in d["results"]["baselines"]}["cpu-tm"]; n = d["config"]["iters"]
assert x["verified"] is True and x["backend"] == "cpu", x
assert x["bytes_to_device"] == 0 and x["bytes_from_device"] == 0   # nothing is copied
# every iteration runs once, and once more per abort; an aborted iteration aborts at least once
assert x["iterations_speculated"] == n + x["iterations_reexecuted"], x
assert x["iterations_misspeculated"] <= x["iterations_reexecuted"], x
assert x["iterations_deferred"] == 0 and x["wrong_elements"] == 0 and x["waw_assignments"] == 0, x
assert x["detections"] == x["assignments_misspeculated"] <= x["assignments"], x
assert 1 <= x["assignment_min"] <= x["assignment_max"] <= n
assert x["misspeculation_rate"] == x["iterations_reexecuted"] / float(n)
ph = x["phase_seconds"]
assert ph["inputs"]["median"] == 0 and ph["setup"]["median"] == 0 and ph["computation"]["median"] > 0
assert abs(sum(ph[k]["median"] for k in ph) - x["loop_seconds"]["median"]) <= 1e-9 + 1e-6 * x["loop_seconds"]["median"]
'
for L in ocean trfd fftbench figure3 mdg strcat gothic alvinn chain; do
	expect_rc "cpu-tm on $L, three workers" 0 $(t_less S --cpu-workers --reps) --loop "$L" --iters 6000 --cpu-workers 3 \
		--reps 2 --compare seq,cpu-tm --json "$R/cputm-$L.json"
	json_check "cpu-tm on $L: verified, every abort one more run" "$R/cputm-$L.json" "$cpu_tm_common"
done
expect_rc "cpu-tm on one worker" 0 $(t_less S --cpu-workers) --loop figure3 --density 8 --iters 20000 --cpu-workers 1 \
	--compare cpu-tm --json "$R/cputm-one.json"
json_check "cpu-tm on one worker: nothing commits between a transaction's begin and its commit" \
	"$R/cputm-one.json" "$cpu_tm_common"'
assert x["iterations_reexecuted"] == 0 and x["detections"] == 0 and d["config"]["cpu_workers"] == 1'
expect_rc "cpu-tm on dense dependences, more workers than cores (figure3)" 0 $(t_less S --cpu-workers) --loop figure3 \
	--density 8 --iters 20000 --cpu-workers 6 --compare cpu-tm --json "$R/cputm-dense.json"
json_check "cpu-tm on dense dependences: verified" "$R/cputm-dense.json" "$cpu_tm_common"'
assert d["config"]["cpu_workers"] == 6'
expect_rc "cpu-tm and a branch that rescales every later iteration (mdg, dense)" 0 $(t_less S --cpu-workers) --loop mdg \
	--density 0.05 --iters 4000 --cpu-workers 4 --compare cpu-tm --json "$R/cputm-mdg.json"
json_check "cpu-tm on mdg: scalars and array equal the sequential loop's" "$R/cputm-mdg.json" "$cpu_tm_common"

# ---- the runs are reproducible
expect_rc "a seeded run" 0 "${S[@]}" --loop ocean --iters 20000 --seed 9 --json "$R/s1.json"
expect_rc "the same seeded run again" 0 "${S[@]}" --loop ocean --iters 20000 --seed 9 --json "$R/s2.json"
json_check "the same seed gives the same assignments and misspeculations" "$R/s2.json" '
import json
a = json.load(open("'"$R"'/s1.json"))["results"]; r = d["results"]
for k in ("assignments", "iterations_reexecuted", "wrong_elements", "assignment_min", "bytes_to_device"):
    assert a[k] == r[k], (k, a[k], r[k])
assert r["iterations_reexecuted"] > 0'

# ---- the schedule after a branch: wide (the default) against the paper's
expect_rc "gothic under the paper's schedule" 0 "${S[@]}" --loop gothic --iters 60000 --density 0.01 \
	--seed 2 --schedule paper --json "$R/sched-paper.json"
expect_rc "gothic under the wide schedule (the default)" 0 "${S[@]}" --loop gothic --iters 60000 \
	--density 0.01 --seed 2 --json "$R/sched-wide.json"
json_check "the wide schedule: the same branches in fewer, longer assignments" "$R/sched-wide.json" '
import json
p = json.load(open("'"$R"'/sched-paper.json")); r = d["results"]; q = p["results"]
assert d["config"]["schedule"] == "wide" and p["config"]["schedule"] == "paper"
assert d["verification"]["verified"] is True and p["verification"]["verified"] is True
assert r["iterations_reexecuted"] == q["iterations_reexecuted"] > 100, (r, q)
assert r["assignments_misspeculated"] == q["assignments_misspeculated"]
assert 4 * r["assignments"] < 3 * q["assignments"], (r["assignments"], q["assignments"])
assert r["assignment_min"] > q["assignment_min"]'
expect_rc "gothic under the lookahead" 0 "${S[@]}" --loop gothic --iters 60000 --density 0.01 --seed 2 \
	--schedule lookahead --json "$R/sched-la.json"
json_check "the lookahead: the same branches in fewer rounds than wide, each counted once" "$R/sched-la.json" '
import json
w = json.load(open("'"$R"'/sched-wide.json"))["results"]; r = d["results"]
assert d["config"]["schedule"] == "lookahead" and d["verification"]["verified"] is True
assert r["iterations_reexecuted"] == w["iterations_reexecuted"]
assert 3 * r["assignments"] < 2 * w["assignments"], (r["assignments"], w["assignments"])
assert r["assignments_misspeculated"] <= r["assignments"] < r["iterations_reexecuted"]'

# ---- verification: a wrong clause is caught
expect_rc "a wrong --clause fails verification with exit 3" 3 "${S[@]}" --loop gothic --iters 3000 \
	--density 0.01 --clause "(+1)" --json "$R/wrong.json"
expect_err "a wrong --clause says what failed" "verification failed"
json_check "a wrong --clause: the report says so" "$R/wrong.json" '
v = d["verification"]
assert v["verified"] is False and "differs from the sequential loop" in v["message"], v
assert d["config"]["clause"] == "(+1)"'
expect_rc "--clause (+0:end) on chain is conservative and verifies" 0 "${S[@]}" --loop chain \
	--iters 3000 --density 0.01 --clause "(+0:end)" --json "$R/cons.json"
expect_rc "--clause with an absolute and a relative item verifies" 0 "${S[@]}" --loop chain \
	--iters 3000 --density 0.01 --seed 3 --clause "(+1,5)" --json "$R/abs.json"
json_check "the absolute item marks iteration 5 as well" "$R/abs.json" '
import json
c = json.load(open("'"$R"'/chain-all.json"))["results"]
assert d["config"]["clause"] == "(+1,5)"
assert d["results"]["iterations_reexecuted"] > c["iterations_reexecuted"], (d["results"], c)'
expect_rc "--clause with a range verifies" 0 "${S[@]}" --loop alvinn --iters 3000 --density 0.01 \
	--clause "(-2:+2)" --json "$R/range.json"
expect_rc "--no-verify" 0 "${S[@]}" --loop mdg --iters 300 --no-verify --json "$R/nov.json"
json_check "--no-verify: verified is null" "$R/nov.json" '
assert d["verification"]["verified"] is None and d["config"]["verify"] is False'
expect_rc "--json - writes the report to stdout" 0 "${S[@]}" --loop trfd --iters 300 --json -
json_check "--json -: the report parses" "$T_OUT" '
assert d["results"]["iterations_reexecuted"] == 2 and d["results"]["waw_assignments"] == 1'
# Commit and recovery, word by word. trfd writes its whole array in one
# assignment and, a memory loop, stays on the device: commit puts its one
# wrong element back there, recovery replays the two writers of that element
# (two levels) from their traces, and the array crosses to the host once.
json_check "trfd: the copies of commit and recovery" "$T_OUT" '
r = d["results"]
assert d["config"]["elements"] == 300 and r["assignments"] == 1 and r["wrong_elements"] == 1
# in: array, 8 counters, the plan (the number of levels, 2, then 3 offsets and 2 rows)
assert r["bytes_to_device"] == 4 * 300 + 4 * 8 + 4 * 6, r["bytes_to_device"]
# out: counters x3 (check, localization, the replay check), 2 rows of 5 words, the array
assert r["bytes_from_device"] == 3 * 4 * 8 + 4 * 10 + 4 * 300, r["bytes_from_device"]'
# The host commit of Figure 7 (--opt no-mo keeps it): a clean assignment that
# wrote few of a large array's elements has them gathered, index and value.
expect_rc "figure3 over a sparse array" 0 "${S[@]}" --loop figure3 --iters 300 --density 0.0001 \
	--opt no-mo --json -
json_check "figure3: commit gathers the 300 written elements, not the array" "$T_OUT" '
r = d["results"]
assert d["config"]["elements"] == 3000000 and r["assignments"] == 1 and r["detections"] == 0
assert r["bytes_from_device"] == 4 * 8 + 8 * 300, r["bytes_from_device"]'

# ---- timeout: exit 1, the report marked incomplete. The delay makes the reference run's first
# look at the clock outlast --timeout: the run stops after generation, before the first repetition.
expect_rc "--timeout before the first repetition exits 1" 1 env GPUBENCH_TEST_DELAY_US=400000 "${S[@]}" \
	--loop ocean --iters 200000 --timeout 0.2 --json "$R/to.json"
expect_err "--timeout says so" "--timeout"
json_check "--timeout: incomplete report" "$R/to.json" '
assert d["meta"]["complete"] is False and d["results"]["reps_completed"] == 0
assert d["results"]["loop_seconds"]["median"] is None'

# ---- --backend gpu without a GPU: 1 (CUDA build, no device) or 2 (CPU-only build)
run "$G" speculate --backend gpu --iters 10
if [ "$RC" = 1 ] || [ "$RC" = 2 ]; then
	pass "--backend gpu without a GPU fails with 1 or 2"
else
	fail "--backend gpu without a GPU fails with 1 or 2" "$(t_context)"
fi
if [ "$RC" = 2 ]; then
	expect_err "--backend gpu on a CPU-only build says it was built without CUDA" "built without CUDA"
fi

summary speculate
