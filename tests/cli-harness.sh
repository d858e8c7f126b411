#!/usr/bin/env bash
# CLI integration tests of what every subcommand shares: output paths (--json,
# --decisions, --emit-trace), option messages, --impl/--compare, --timeout,
# verification counts, memory estimates, help layout and progress. GPUBENCH
# names the binary (default ./gpubench). Last line: "cli-harness: N passed,
# N failed"; exit status 1 when any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "cli-harness: $G is not an executable (set GPUBENCH)"
	echo "cli-harness: 0 passed, 1 failed"
	exit 1
fi
G=$(cd "$(dirname "$G")" && pwd)/$(basename "$G")
R=$T_TMP/out
mkdir -p "$R"
AVOID=(avoid --impl cpu-fast --procs 64 --res 8 --events 20 --reps 1)
DETECT=(detect --impl cpu-bits --procs 32 --res 32 --events 200 --reps 1)

# ---------------------------------------------------------------- output paths
# A symlink is followed: the link stays, its target gets the report.
echo old >"$R/target.json"
ln -s target.json "$R/link.json"
expect_rc "--json onto a symlink exits 0" 0 "$G" "${AVOID[@]}" --quiet --json "$R/link.json"
check "--json keeps the symlink a symlink" test -L "$R/link.json"
json_check "--json writes the report into the symlink's target" "$R/target.json" \
	'assert d["meta"]["subcommand"] == "avoid"'

# A FIFO is written in place, not replaced by a regular file.
mkfifo "$R/fifo"
timeout 10 cat "$R/fifo" >"$R/fifo.out" &
reader=$!
expect_rc "--json onto a FIFO exits 0" 0 timeout 20 "$G" "${AVOID[@]}" --quiet --json "$R/fifo"
wait "$reader"
check "--json leaves the FIFO a FIFO" test -p "$R/fifo"
json_check "the FIFO's reader gets the report" "$R/fifo.out" 'assert d["meta"]["subcommand"] == "avoid"'
mkfifo "$R/fifo2"
timeout 10 cat "$R/fifo2" >"$R/fifo2.out" &
reader=$!
expect_rc "--decisions onto a FIFO exits 0" 0 timeout 20 "$G" "${AVOID[@]}" --quiet --decisions "$R/fifo2"
wait "$reader"
check "--decisions leaves the FIFO a FIFO" test -p "$R/fifo2"
check "the FIFO's reader gets the decisions" grep -q '^0 request ' "$R/fifo2.out"
mkfifo "$R/fifo3"
timeout 10 cat "$R/fifo3" >"$R/fifo3.out" &
reader=$!
expect_rc "--emit-trace onto a FIFO exits 0" 0 timeout 20 "$G" "${DETECT[@]}" --quiet --emit-trace "$R/fifo3"
wait "$reader"
check "--emit-trace leaves the FIFO a FIFO" test -p "$R/fifo3"
check "the FIFO's reader gets the trace" grep -q '^processes 32$' "$R/fifo3.out"
check "no temporary file is left beside the outputs" test -z "$(find "$R" -name '*.tmp.*')"

# Empty, duplicated and overwriting paths are usage errors, found before the run.
expect_rc "--json '' exits 2" 2 "$G" "${AVOID[@]}" --json ''
expect_err "--json '' says the path is empty" "option --json: the path is empty"
expect_rc "--json and --decisions on one file exit 2" 2 "$G" "${AVOID[@]}" --json "$R/same" --decisions "$R/./same"
expect_err "the message names both options" "--json and --decisions both write"
check "nothing is written when two outputs collide" test ! -e "$R/same"
expect_rc "--json - and --decisions - exit 2" 2 "$G" "${AVOID[@]}" --json - --decisions -
expect_err "two outputs on standard output are named" "both write to standard output"
"$G" "${DETECT[@]}" --quiet --emit-trace "$R/in.trace"
cp "$R/in.trace" "$R/in.trace.orig"
expect_rc "--emit-trace onto the --trace input exits 2" 2 "$G" detect --impl cpu-bits --reps 1 \
	--trace "$R/in.trace" --emit-trace "$R/in.trace"
expect_err "the message says the input would be overwritten" "--emit-trace would overwrite the --trace input"
check "the --trace input is left as it was" cmp "$R/in.trace" "$R/in.trace.orig"
expect_rc "--decisions onto the --trace input exits 2" 2 "$G" detect --impl cpu-bits --reps 1 \
	--trace "$R/in.trace" --decisions "$R/in.trace"
expect_rc "--json onto the --trace input exits 2" 2 "$G" detect --impl cpu-bits --reps 1 \
	--trace "$R/in.trace" --json "$R/../out/in.trace"
check "the --trace input is still as it was" cmp "$R/in.trace" "$R/in.trace.orig"

# An output that cannot be written fails before the run, naming its option.
expect_rc "a bad --decisions path exits 1" 1 "$G" "${AVOID[@]}" --json "$R/good.json" --decisions "$R/no/such/dir"
expect_err "the bad --decisions path is named with its option" "option --decisions: cannot write $R/no/such/dir"
check "no summary: the run did not start" test ! -s "$T_OUT"
expect_rc "a bad --json path exits 1 before a speculate run" 1 "$G" speculate --loop ocean --iters 1000 --reps 1 \
	--json "$R/no/such.json"
expect_err "the bad --json path is named with its option" "option --json: cannot write"
check "no summary from a speculate run whose --json cannot be written" test ! -s "$T_OUT"
for sub in stm list info; do
	expect_rc "$sub: a --json directory exits 1" 1 "$G" "$sub" --json "$R"
	expect_err "$sub: the --json directory is named" "option --json: cannot write $R: Is a directory"
done
# A directory whose permissions allow writing but that takes no new file (procfs).
if [ -d /proc/self ]; then
	expect_rc "a --json in /proc exits 1 before the run" 1 "$G" speculate --loop mdg --iters 300 --reps 1 \
		--json /proc/gpubench-report.json
	expect_err "the /proc --json path is named with its option" "option --json: cannot write /proc/gpubench-report.json"
	check "no summary from a run whose --json /proc cannot hold" test ! -s "$T_OUT"
fi
check "no temporary file anywhere" test -z "$(find "$T_TMP" -name '*.tmp.*' -o -name '*.probe.*')"

# ---------------------------------------------------------------- option messages
expect_rc "--quiet=1 exits 2" 2 "$G" avoid --quiet=1
expect_err "--quiet=1 says the flag takes no value" "option '--quiet' takes no value"
check "--quiet=1 prints no control character" test -z "$(tr -d '[:print:]\n' <"$T_ERR")"
expect_rc "an ambiguous prefix exits 2" 2 "$G" stm --re 3
expect_err "an ambiguous prefix is called ambiguous, with the candidates" "'--re' is ambiguous" "--reps" "--read-only"
expect_rc "avoid --trace with --procs exits 2" 2 "$G" avoid --trace "$R/in.trace" --procs 8
expect_err "avoid names the generator options --trace excludes" "--trace replays a stream" "--procs"
expect_rc "detect --trace with --res exits 2" 2 "$G" detect --trace "$R/in.trace" --res 8
expect_err "detect names the generator options --trace excludes" "--trace replays a stream" "--res"

# ---------------------------------------------------------------- --impl and --compare
expect_rc "avoid --compare naming the --impl exits 2" 2 "$G" "${AVOID[@]}" --compare cpu,cpu-fast
expect_err "the message says it is the --impl itself" "cpu-fast is the --impl itself"
expect_rc "detect --compare naming a detector twice exits 2" 2 "$G" "${DETECT[@]}" --compare cpu,cpu
expect_err "the message says it is named twice" "cpu is named twice"
expect_rc "list --compare naming the --impl exits 2" 2 "$G" list --impl cpu --compare cpu
expect_rc "a slower --impl runs" 0 "$G" avoid --impl cpu --compare cpu-fast --procs 512 --res 64 --events 10 --reps 3
expect_out "a slower --impl is called slower" "cpu is "
check "a speedup below 1 is never called faster" test -z "$(grep -E 'is 0\.[0-9]*x faster' "$T_OUT")"

# ---------------------------------------------------------------- verification counts
expect_rc "detect --verify-every 2^64-1 exits 0" 0 "$G" "${DETECT[@]}" --verify-every 18446744073709551615 \
	--json "$R/every.json"
json_check "detect --verify-every 2^64-1 checks the first event only" "$R/every.json" '
v = d["verification"]
assert v["events_checked"] == 1, v
assert v["verified"] is True, v'
expect_rc "detect --verify-every 7 exits 0" 0 "$G" "${DETECT[@]}" --verify-every 7
expect_out "detect's summary says how many events were checked" "29 of 200 events checked"
# (the delay makes the reference run's first look at the clock outlast --timeout: the run stops
# after generation, before the first repetition)
expect_rc "speculate cut short before a repetition exits 1" 1 env GPUBENCH_TEST_DELAY_US=400000 "$G" speculate \
	--loop ocean --iters 200000 --reps 1 --timeout 0.2 --json "$R/spec-timeout.json"
json_check "speculate with no repetition finished is not verified (null)" "$R/spec-timeout.json" '
assert d["meta"]["complete"] is False
assert d["results"]["reps_completed"] == 0
assert d["verification"]["verified"] is None, d["verification"]
assert d["verification"]["reps_checked"] == 0'

# ---------------------------------------------------------------- top level
expect_rc "gpubench -v exits 0" 0 "$G" -v
cp "$T_OUT" "$R/v.txt"
expect_rc "gpubench --version exits 0" 0 "$G" --version
check "-v prints what --version prints" cmp "$R/v.txt" "$T_OUT"
expect_rc "info exits 0" 0 "$G" info
check "info's first line is the --version line" test "$(head -n 1 "$T_OUT")" = "$(cat "$R/v.txt")"
# info walks every subcommand's registry through one shape.
"$G" info >"$R/info.txt"
"$G" --help >"$R/help.txt"
expect_rc "info --quiet --json exits 0" 0 "$G" info --quiet --json "$R/info.json"
json_check "info: every registry in one shape" "$R/info.json" '
e = d["engines"]
assert list(e) == ["stm", "stm_workloads", "avoid", "detect", "speculate", "speculate_baselines", "list"], list(e)
for cmd in ("stm", "avoid", "detect", "list"):
    for x in e[cmd]:
        assert {"name", "summary", "backends", "gpu", "built"} <= set(x), (cmd, x)
        assert x["gpu"] == (x["backends"] == ["gpu"]), (cmd, x)
assert all(set(x) == {"loop", "summary"} for x in e["speculate"]), e["speculate"]
for x in e["speculate_baselines"]:
    assert {"name", "summary", "backends", "gpu", "built"} <= set(x), x
assert all(x["algo"] in ("osdda", "lmdda") for x in e["detect"])
assert all(x["platform"] in ("cpu", "gpu", "opencl") for x in e["list"])
lines = open("'"$R/info.txt"'").read().splitlines()
def not_built(x):
    return " (not built: %s)" % x["unavailable"] if "unavailable" in x else ""
# one line per entry: an entry this build lacks says why, an stm engine ends with the workloads it runs
for cmd, what in (("stm", "engine"), ("avoid", "implementation"), ("speculate", "loop"), ("list", "implementation")):
    for x in e[cmd]:
        name = x.get("name", x.get("loop"))
        end = ": " + x["summary"] + ("; runs " + ", ".join(x["workloads"]) if cmd == "stm" else "")
        mine = [l for l in lines if l.startswith("%s %s %s " % (cmd, what, name)) or l.startswith("%s %s %s:" % (cmd, what, name))]
        assert len(mine) == 1 and mine[0].endswith(end) and not_built(x) in mine[0], (cmd, name, mine)
for x in e["detect"]:
    assert ("detect %s detector %s%s: %s" % (x["algo"], x["name"], not_built(x), x["summary"])) in lines, x
assert not any("does not run" in l for l in lines), "info lists what an engine does not run"
stm_help = [l for l in open("'"$R/help.txt"'").read().splitlines() if l.startswith("  stm ")]
assert len(stm_help) == 1 and ("on %d workloads" % len(e["stm_workloads"])) in stm_help[0], stm_help'
expect_rc "gpubench --help stm exits 0" 0 "$G" --help stm
cp "$T_OUT" "$R/help-stm.txt"
expect_rc "gpubench help stm exits 0" 0 "$G" help stm
check "--help stm prints stm's help" cmp "$R/help-stm.txt" "$T_OUT"
for sub in stm detect avoid speculate list compare export info; do
	"$G" "$sub" --help >"$R/help-$sub.txt" 2>&1
done
check "every option row parts its name from its text, and every example line is whole" python3 - "$R" <<'PY'
import re, sys
for sub in "stm detect avoid speculate list compare export info".split():
    for l in open("%s/help-%s.txt" % (sys.argv[1], sub)).read().splitlines():
        # "  --opencl-platform NAME" fills the 24 columns: its text goes on the next line, not against it
        assert not re.match(r"  --[a-z0-9-]+ [A-Z][A-Z0-9,.]*[a-z(]", l), (sub, l)
        assert l.strip() != "Example:", (sub, "an example cut from its command")
PY

# ---------------------------------------------------------------- trace errors
: >"$R/empty.trace"
expect_rc "avoid: an empty trace exits 2" 2 "$G" avoid --impl cpu-fast --trace "$R/empty.trace"
expect_err "avoid: an empty trace is called empty, not line 0" "empty.trace: empty file: "
expect_rc "detect: an empty trace exits 2" 2 "$G" detect --impl cpu-bits --trace "$R/empty.trace"
expect_err "detect: an empty trace is called empty, not line 0" "empty.trace: empty file: "
printf 'processes 2\nresources 1\nbogus\n' >"$R/bad.trace"
expect_rc "avoid: a bad trace line exits 2" 2 "$G" avoid --impl cpu-fast --trace "$R/bad.trace"
expect_err "avoid names the line as FILE:LINE:" "bad.trace:3: "
expect_rc "detect: a bad trace line exits 2" 2 "$G" detect --impl cpu-bits --trace "$R/bad.trace"
expect_err "detect names the line as FILE:LINE:" "bad.trace:3: "

# ---------------------------------------------------------------- memory estimates
# Sizes at the top of the advertised ranges fail before allocating, naming
# the option and the largest value that fits (4 GB of address space here).
expect_rc "stm --accounts 2^31-1 exits 1 under a 4 GB limit" 1 \
	bash -c 'ulimit -v 4000000 && exec "$@"' sh "$G" stm --backend cpu --accounts 2147483647
expect_err "stm --accounts names the option and what fits" "stm: --accounts 2147483647 needs about" \
	"the largest --accounts that fits is"
expect_rc "stm --threads 524288 exits 1 under a 4 GB limit" 1 \
	bash -c 'ulimit -v 4000000 && exec "$@"' sh "$G" stm --backend cpu --threads 524288
expect_err "stm --threads names both options of the table and what fits" \
	"stm: --threads 524288 x --tx-per-thread 1000 need about" "at most --threads "
# the option that pushed it over, given with the default --threads: named, and what of it fits
expect_rc "stm --tx-per-thread 100000000 exits 1 under a 4 GB limit" 1 \
	bash -c 'ulimit -v 4000000 && exec "$@"' sh "$G" stm --backend cpu --threads 20 --tx-per-thread 100000000
expect_err "stm --tx-per-thread names itself and what fits" \
	"stm: --threads 20 x --tx-per-thread 100000000 need about" "at most --tx-per-thread "
expect_rc "avoid --procs 1048576 --res 2048 exits 1 under a 4 GB limit" 1 \
	bash -c 'ulimit -v 4000000 && exec "$@"' sh "$G" avoid --impl cpu-fast --procs 1048576 --res 2048
expect_err "avoid --procs names --procs and --res and what fits" \
	"avoid: --procs 1048576 x --res 2048 need about" "at most --procs "
# detect: the detector's own matrices, checked before the stream is generated
expect_rc "detect lmdda cpu-serial at 30000 x 30000 exits 1 under a 4 GB limit" 1 \
	bash -c 'ulimit -v 4000000 && exec "$@"' sh "$G" detect --algo lmdda --procs 30000 --res 30000 --impl cpu-serial
expect_err "detect names the detector, the memory and the largest square system that fits" \
	"detect: lmdda cpu-serial at 30000 processes x 30000 resources needs about 4.0 GiB of host memory" \
	"the largest square system it fits is --procs "
expect_rc "detect osdda cpu among others at 2^20 x 2^20 exits 1 at once" 1 \
	timeout 20 "$G" detect --procs 1048576 --res 1048576 --impl cpu-bits --compare cpu
expect_err "detect names the detector that does not fit, and how to leave it out" \
	"detect: osdda cpu at 1048576 processes x 1048576 resources needs about 5120" \
	"(or leave it out of --impl and --compare)"

# ---------------------------------------------------------------- abandoned transactions
# One logical thread without tags meets chain steps out of order and, in one pass, abandons
# them, whatever the machine's timing (several threads on several workers may not).
expect_rc "stm with abandoned transactions exits 0" 0 "$G" stm --backend cpu --threads 1 --no-tags --accounts 64 \
	--tx-per-thread 40 --initial-balance 1 --max-passes 1 --reps 1 --warmup 0 --json "$R/abandoned.json"
expect_out "the summary warns about abandoned transactions" "transactions never committed: WARNING"
json_check "the report warns about abandoned transactions" "$R/abandoned.json" '
n = d["results"]["abandoned"]
assert n > 0, n
w = d["meta"]["warnings"]
assert len(w) == 1 and ("%d transactions were abandoned" % n) in w[0], w'
expect_rc "stm without abandoned transactions exits 0" 0 "$G" stm --backend cpu --threads 8 --accounts 64 \
	--tx-per-thread 6 --reps 1 --warmup 0 --json "$R/clean.json"
json_check "a clean run has no warnings" "$R/clean.json" 'assert d["meta"]["warnings"] == [], d["meta"]'

# ---------------------------------------------------------------- help
for sub in stm avoid detect speculate list info; do
	expect_rc "help $sub exits 0" 0 "$G" help "$sub"
	wide=$(awk 'length > 80' "$T_OUT")
	if [ -z "$wide" ]; then pass "help $sub fits 80 columns"; else fail "help $sub fits 80 columns" "$wide"; fi
done
# Every numeric option of every subcommand shows its range in the help.
for sub in stm avoid detect speculate list; do
	"$G" help "$sub" >"$T_OUT" 2>"$T_ERR"
	norange=$(python3 - "$T_OUT" <<'PY'
import re, sys
paras = []
for line in open(sys.argv[1]).read().splitlines():
    m = re.match(r"^  --([a-z-]+) (\S+)\s", line)
    if m:
        paras.append([m.group(1), m.group(2), line])
    elif paras and line.startswith("        ") and not line.strip().startswith("--"):
        paras[-1][2] += " " + line.strip()
print(" ".join("--" + p[0] for p in paras if p[1] in ("N", "M", "E", "K", "S", "F", "B", "T", "P", "U|LO-HI")
               and ".." not in p[2]))
PY
	)
	if [ -z "$norange" ]; then pass "help $sub: every numeric option shows its range"; else
		fail "help $sub: every numeric option shows its range" "without a range: $norange"; fi
done
expect_rc "gpubench --help exits 0" 0 "$G" --help
check "gpubench --help fits 80 columns" test -z "$(awk 'length > 80' "$T_OUT")"
# Options as rows: every numeric option of avoid shows its range and default.
expect_rc "help avoid exits 0" 0 "$G" help avoid
tr '\n' ' ' <"$T_OUT" | tr -s ' ' >"$R/help-avoid.txt"
for want in "--procs N processes (2..1048576, default 1024)" "--res M resources (1..65536, default 256)" \
	"--events E events in the generated stream (1..100000000, default 20)" \
	"--unsafe-share F unsafe-mix: share of the requests made unsafe (0..1, default 0.25)" \
	"--reps N timed repetitions of the whole stream (1..100000, default 3)" \
	"--warmup N untimed repetitions of the whole stream before them (0..1000, default 0)" \
	"--timeout S stop after S seconds" "--verify-every K check every K-th decision" \
	"--seed N seed of the generator (0..18446744073709551615, default 1)" \
	"--backend WHERE where to run" "(auto|gpu|cpu, default auto)" "--no-verify" "--quiet" "--json PATH"; do
	if grep -qF -- "$want" "$R/help-avoid.txt"; then pass "help avoid: $want"; else
		fail "help avoid: $want" "$(cat "$R/help-avoid.txt")"; fi
done

# ---------------------------------------------------------------- shared options on avoid
expect_rc "avoid --procs 1 exits 2 with the range" 2 "$G" avoid --procs 1
expect_err "the range message comes from the row" "option --procs: 1 is out of range (accepted: 2..1048576)"
expect_rc "avoid --backend cpu runs cpu-fast without a note" 0 "$G" avoid --backend cpu --procs 64 --res 8 \
	--reps 1 --warmup 2 --seed 5 --verify-every 3 --json "$R/avoid-shared.json"
check "avoid --backend cpu prints no fallback note" test -z "$(grep -i note "$T_ERR")"
json_check "avoid's config has the shared options" "$R/avoid-shared.json" '
c = d["config"]
assert c["impl"] == "cpu-fast", c
assert c["reps"] == 1 and c["warmup"] == 2 and c["seed"] == 5, c
assert c["verify"] is True and c["verify_every"] == 3 and c["timeout_s"] == 600, c
assert d["verification"]["events_checked"] == 7, d["verification"]
assert d["results"]["impls"][0]["reps_completed"] == 1'
expect_rc "avoid --impl cpu --backend gpu exits 2" 2 "$G" avoid --impl cpu --backend gpu
expect_err "avoid says where --impl runs" "--impl cpu runs on the CPU, not on --backend gpu"
expect_rc "avoid --no-verify exits 0" 0 "$G" "${AVOID[@]}" --no-verify --json "$R/avoid-nov.json"
json_check "avoid --no-verify is verified null" "$R/avoid-nov.json" '
assert d["verification"]["verified"] is None and d["config"]["verify"] is False'
expect_rc "avoid --timeout cuts a long run short with exit 1" 1 "$G" avoid --impl cpu --procs 4096 --res 512 \
	--events 2000 --timeout 0.5 --json "$R/avoid-timeout.json"
expect_err "avoid says the timeout was reached" "--timeout 0.5 s reached"
json_check "avoid's cut-short report is incomplete and unverified" "$R/avoid-timeout.json" '
assert d["meta"]["complete"] is False
assert d["verification"]["verified"] is None, d["verification"]'

# ---------------------------------------------------------------- shared options on detect
expect_rc "help detect exits 0" 0 "$G" help detect
tr '\n' ' ' <"$T_OUT" | tr -s ' ' >"$R/help-detect.txt"
for want in "--procs N processes (1..1048576, default 1024)" "--res M resources (1..1048576, default 1024)" \
	"--events E events in the generated stream (--protocol stream; thesis: procs + res) (1..100000000, default 2000)" \
	"--protocol NAME what one run-time covers" \
	"--release-share F share of events that release a held unit (0..1, default 0.4)" \
	"--timeout S" "--no-verify" "--warmup N" "--backend WHERE"; do
	if grep -qF -- "$want" "$R/help-detect.txt"; then pass "help detect: $want"; else
		fail "help detect: $want" "$(cat "$R/help-detect.txt")"; fi
done
expect_rc "detect --no-verify exits 0" 0 "$G" "${DETECT[@]}" --no-verify --warmup 1 --json "$R/detect-nov.json"
json_check "detect --no-verify: verified null, nothing checked, shared config" "$R/detect-nov.json" '
v = d["verification"]; c = d["config"]
assert v["verified"] is None and v["events_checked"] == 0, v
assert c["verify"] is False and c["verify_every"] == 0 and c["warmup"] == 1 and c["timeout_s"] == 600, c'
expect_rc "detect --backend cpu runs cpu-bits" 0 "$G" detect --backend cpu --procs 32 --res 32 --events 100 \
	--reps 1 --json "$R/detect-cpu.json"
json_check "detect --backend cpu picked cpu-bits" "$R/detect-cpu.json" 'assert d["config"]["impl"] == "cpu-bits"'
expect_rc "detect --timeout cuts a long run short with exit 1" 1 "$G" detect --impl cpu \
	--procs 4096 --res 4096 --events 200000 --timeout 0.5 --json "$R/detect-timeout.json"
expect_err "detect says the timeout was reached" "--timeout 0.5 s reached"
json_check "detect's cut-short report is incomplete and unverified" "$R/detect-timeout.json" '
assert d["meta"]["complete"] is False
assert d["verification"]["verified"] is None, d["verification"]
assert d["results"]["impls"][0]["reps_completed"] < 3'

# ---------------------------------------------------------------- shared options on speculate
expect_rc "speculate --warmup 1 --verify-every 2 --reps 3 exits 0" 0 "$G" speculate --backend cpu --loop ocean \
	--iters 20000 --reps 3 --warmup 1 --verify-every 2 --json "$R/spec-shared.json"
json_check "speculate: warm-up untimed, every 2nd repetition checked" "$R/spec-shared.json" '
c = d["config"]; v = d["verification"]
assert c["warmup"] == 1 and c["reps"] == 3 and c["verify_every"] == 2 and c["verify"] is True, c
assert d["results"]["reps_completed"] == 3 and d["results"]["loop_seconds"]["n"] == 3
assert v["verified"] is True and v["reps_checked"] == 2, v'
expect_rc "speculate --no-verify exits 0" 0 "$G" speculate --backend cpu --loop ocean --iters 20000 --reps 1 \
	--no-verify --json "$R/spec-nov.json"
json_check "speculate --no-verify: null, nothing checked" "$R/spec-nov.json" '
assert d["verification"]["verified"] is None and d["config"]["verify_every"] == 0'

# ---------------------------------------------------------------- shared options on list
expect_rc "help list exits 0" 0 "$G" help list
tr '\n' ' ' <"$T_OUT" | tr -s ' ' >"$R/help-list.txt"
for want in "(1..214119219, default 4096)" "(1..67108864)" "(2..16777215)" \
	"--superblock-size B bytes per superblock, a multiple of 256 (default 4096, the paper's, or" "(256..16777216)" \
	"(insert|delete|mixed, default insert)" \
	"--reps N timed repetitions of the whole workload (1..100000, default 3)" \
	"--timeout S stop after S seconds" "--verify-every K check every K-th timed repetition" \
	"--warmup N" "--backend WHERE" "--no-verify" "--quiet" "--json PATH" "cpu-lockfree-tail"; do
	if grep -qF -- "$want" "$R/help-list.txt"; then pass "help list: $want"; else
		fail "help list: $want" "$(cat "$R/help-list.txt")"; fi
done
expect_rc "list --nodes 0 exits 2 with the range" 2 "$G" list --nodes 0
expect_err "list's range message comes from the row" "option --nodes: 0 is out of range (accepted: 1..214119219)"
expect_rc "list --backend cpu runs cpu-lockfree without a note" 0 "$G" list --backend cpu --nodes 300 \
	--reps 3 --warmup 2 --seed 5 --verify-every 2 --compare cpu --json "$R/list-shared.json"
check "list --backend cpu prints no fallback note" test -z "$(grep -i note "$T_ERR")"
json_check "list's config has the shared options; every 2nd timed repetition is checked" "$R/list-shared.json" '
c = d["config"]; v = d["verification"]
assert c["impl"] == "cpu-lockfree" and c["compare"] == ["cpu"], c
assert c["reps"] == 3 and c["warmup"] == 2 and c["seed"] == 5, c
assert c["verify"] is True and c["verify_every"] == 2 and c["timeout_s"] == 600, c
assert c["threads"] == 300 and c["superblocks"] == 64, c
assert v["verified"] is True and v["reps_checked"] == 4, v
assert [x["reps_completed"] for x in d["results"]["impls"]] == [3, 3]'
expect_rc "list --impl cpu --backend gpu exits 2" 2 "$G" list --impl cpu --backend gpu
expect_err "list says where --impl runs" "--impl cpu runs on the CPU, not on --backend gpu"
expect_rc "list --verify-every 0 exits 0" 0 "$G" list --impl cpu --nodes 50 --reps 1 --verify-every 0 \
	--json "$R/list-nov.json"
json_check "list --verify-every 0 checks nothing, like --no-verify" "$R/list-nov.json" '
v = d["verification"]; c = d["config"]
assert v["verified"] is None and v["reps_checked"] == 0, v
assert c["verify"] is False and c["verify_every"] == 0, c'

# ---------------------------------------------------------------- one result model
# The summary and the report are rendered from one model: every entry's line
# carries the median, repetitions, rate and speedup the report holds.
same_model() { # NAME REPORT SUMMARY: every entry's summary line against the report
	local msg
	if msg=$(python3 - "$2" "$3" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
r = d["results"]
sub = d["meta"]["subcommand"]
if "impls" in r:
    entries = r["impls"]
    names = [e["impl"] for e in entries]
    speedups = [None] + [e["speedup_of_impl"] for e in entries[1:]]
elif sub == "stm":
    entries = [r] + r["compare"]
    names = [d["config"]["algo"]] + [e["algo"] for e in r["compare"]]
    speedups = [None] + [e["speedup_of_algo"] for e in r["compare"]]
else:
    entries = [r] + r["baselines"]
    names = ["speculative"] + [b["name"] for b in r["baselines"]]
    speedups = [None] + [r["speedup_over"][n] for n in names[1:]]
# the stats block the line leads with, the words before its median, and its unit
lead = {"avoid": ("stream_seconds", "stream ", "s"), "detect": ("stream_seconds", "stream ", "s"),
        "list": ("run_seconds", "", "s"), "speculate": ("loop_seconds", "loop ", "s"),
        "stm": ("throughput_tx_per_s", "", "committed tx/s")}[sub]
rate = {"avoid": ("events_per_s", "events/s"), "detect": ("events_per_s", "events/s"),
        "list": ("ops_per_s", "ops/s")}.get(sub)
def near(shown, value, digits):
    # the summary rounds to a few significant digits
    return abs(float(shown) - value) <= 0.6 * 10 ** (1 - digits) * abs(value)
assert len(entries) >= 2, names
for name, e, s in zip(names, entries, speedups):
    t = e[lead[0]]
    pat = r"^  %s +%s(\S+) %s \(median of (\d+)(?:, cv ([0-9.]+)%%)?\)" % (re.escape(name), lead[1],
                                                                           re.escape(lead[2]))
    if rate:
        pat += r", (\S+) %s" % re.escape(rate[1])
    line = [m for m in (re.match(pat, l) for l in text) if m]
    assert len(line) == 1, "no one summary line matches %r" % pat
    m = line[0]
    assert int(m.group(2)) == t["n"] == e["reps_completed"], (m.group(0), t)
    assert near(m.group(1), t["median"], 4), (m.group(0), t)
    # the cv of the repetitions: stdev over mean, to a tenth of a percent
    assert (m.group(3) is None) == (t["n"] < 2), (m.group(0), t)
    if t["n"] > 1:
        assert abs(float(m.group(3)) - 100 * t["stdev"] / t["mean"]) <= 0.051, (m.group(0), t)
    if rate:
        assert near(m.group(4), e[rate[0]], 4), (m.group(0), e[rate[0]])
    if s is not None:
        m = re.search(r"%s is (\S+)x (faster|slower)$" % re.escape(names[0]), m.string)
        assert m and m.group(2) == ("faster" if s >= 1 else "slower"), (m and m.string, s)
        assert near(m.group(1), s if s >= 1 else 1 / s, 3), (m.string, s)
v = d["verification"]
assert v["verified"] is True and v["message"] == "", v
assert [l for l in text if l.startswith("  verified     yes: ")], text
PY
	); then pass "$1"; else fail "$1" "$msg"; fi
}
expect_rc "avoid --compare: summary and report" 0 "$G" "${AVOID[@]/--reps/--warmup}" --reps 3 --compare cpu --json "$R/m-avoid.json"
same_model "avoid: the summary shows the report's numbers" "$R/m-avoid.json" "$T_OUT"
expect_rc "detect --compare: summary and report" 0 "$G" "${DETECT[@]/--reps/--warmup}" --reps 2 --compare cpu --json "$R/m-detect.json"
same_model "detect: the summary shows the report's numbers" "$R/m-detect.json" "$T_OUT"
expect_rc "list --compare: summary and report" 0 "$G" list --impl cpu --compare cpu-tail,cpu-lockfree --nodes 300 \
	--reps 2 --json "$R/m-list.json"
same_model "list: the summary shows the report's numbers" "$R/m-list.json" "$T_OUT"
expect_rc "speculate --compare: summary and report" 0 "$G" speculate --backend cpu --loop alvinn --iters 2000 \
	--reps 2 --compare seq,cpu-spec --json "$R/m-spec.json"
same_model "speculate: the summary shows the report's numbers" "$R/m-spec.json" "$T_OUT"
expect_rc "stm --compare: summary and report" 0 "$G" stm --backend cpu --threads 8 --accounts 64 --tx-per-thread 6 \
	--semantic-ratio 0 --reps 3 --warmup 0 --compare gpustm --json "$R/m-stm.json"
same_model "stm: the summary shows the report's numbers" "$R/m-stm.json" "$T_OUT"

# A run cut short before any repetition: nothing is claimed, in the report or the summary. The
# delay makes the oracle's first look at the clock outlast --timeout: the run stops after
# generation, before the first repetition.
expect_rc "avoid cut short before a repetition exits 1" 1 env GPUBENCH_TEST_DELAY_US=400000 "$G" avoid --impl cpu \
	--compare cpu-fast --procs 4096 --res 512 --events 2000 --timeout 0.2 --json "$R/m-avoid-cut.json"
json_check "avoid cut short: no speedup, no final state, why unverified" "$R/m-avoid-cut.json" '
a, b = d["results"]["impls"]
assert a["reps_completed"] == 0 and a["events_per_s"] is None and a["final_state_matches"] is None, a
assert b["speedup_of_impl"] is None, b
v = d["verification"]
assert v["verified"] is None and v["events_checked"] == 0 and "--timeout" in v["message"], v'
expect_out "avoid cut short: the summary says no repetition finished" "  cpu          no repetition finished" \
	"  verified     not checked (--timeout came before a checked repetition finished)" \
	"  incomplete   --timeout 0.2 s reached"
expect_rc "speculate cut short with a baseline exits 1" 1 env GPUBENCH_TEST_DELAY_US=400000 "$G" speculate \
	--backend cpu --loop ocean --iters 200000 --reps 1 --timeout 0.2 --compare seq --json "$R/m-spec-cut.json"
json_check "speculate cut short: the baseline is not called verified" "$R/m-spec-cut.json" '
b = d["results"]["baselines"][0]
assert b["name"] == "seq" and b["verified"] is None and b["loop_seconds"]["n"] == 0, b
assert d["results"]["speedup_over"]["seq"] is None, d["results"]["speedup_over"]'
expect_rc "detect --no-verify: why nothing was checked" 0 "$G" "${DETECT[@]}" --no-verify --json "$R/m-nov.json"
json_check "detect --no-verify says why in verification.message" "$R/m-nov.json" '
v = d["verification"]
assert v["verified"] is None and v["method"] == "none", v
assert v["message"] == "--no-verify or --verify-every 0", v
assert "mismatches" not in d["results"]["impls"][0]'
expect_out "detect --no-verify: the summary says the same" \
	"  verified     not checked (--no-verify or --verify-every 0)"

# ---------------------------------------------------------------- make deps
check "make deps runs scripts/deps.sh" bash -c 'make -n deps | grep -qx "scripts/deps.sh"'
check ".ci/run installs through scripts/deps.sh" grep -qx 'scripts/deps.sh' .ci/run
check "scripts/deps.sh --list names cJSON" bash -c 'scripts/deps.sh --list | grep -q "^libcjson-dev "'

# ---------------------------------------------------------------- progress
# On a terminal a long run shows a progress line; into a file a line of its own every 30 s, so
# a short run writes none there (the interval itself: tests/unit/test_measure.c).
if script -qec true /dev/null >/dev/null 2>&1; then
	script -qec "$G avoid --impl cpu --procs 2048 --res 256 --events 400 --reps 1 --no-verify --timeout 1" \
		"$R/tty.log" >/dev/null 2>&1
	check "avoid shows a progress line on a terminal" grep -q 'cpu [0-9]*/400 (' "$R/tty.log"
	script -qec "$G avoid --impl cpu --procs 2048 --res 256 --events 400 --reps 1 --no-verify --quiet --timeout 1" \
		"$R/tty-quiet.log" >/dev/null 2>&1
	check "--quiet turns the progress line off" test -z "$(grep '/400 (' "$R/tty-quiet.log")"
	# The loop draws it for every subcommand: list and speculate count repetitions.
	# The line is drawn at most four times a second, so each run lasts well over
	# a quarter second even on a fast machine (8 repetitions of about 0.15 s).
	script -qec "$G list --impl cpu --nodes 20000 --reps 8 --no-verify" "$R/tty-list.log" >/dev/null 2>&1
	check "list shows a progress line on a terminal" grep -q 'cpu [1-7]/8 (' "$R/tty-list.log"
	script -qec "$G speculate --backend cpu --loop ocean --iters 4000000 --reps 8 --no-verify" \
		"$R/tty-spec.log" >/dev/null 2>&1
	check "speculate shows a progress line on a terminal" grep -q 'speculative [1-7]/8 (' "$R/tty-spec.log"
	check "the progress line estimates the time left once a repetition is done" \
		grep -qE 'speculative [1-7]/8 \([0-9]+%, about [0-9]+ (s|min [0-9]+ s) left\)' "$R/tty-spec.log"
	# stm's --duration repetitions count milliseconds of device time
	script -qec "$G stm --backend cpu --threads 8 --accounts 200 --tx-per-thread 6 --semantic-ratio 0 \
		--duration 0.6 --reps 2 --warmup 0 --no-verify" "$R/tty-stm.log" >/dev/null 2>&1
	check "stm shows a progress line on a terminal" grep -q 'prstm [0-9]*/1200 (' "$R/tty-stm.log"
fi
"$G" avoid --impl cpu --procs 2048 --res 256 --events 400 --reps 1 --no-verify --timeout 1 >"$T_OUT" 2>"$T_ERR"
check "no progress line into a file within the first 30 s" test -z "$(grep '/400 (' "$T_ERR")"

# --verify-threads: --duration's batches checked on host threads while the next ones run, the
# same checks settled in batch order; a wrong batch is reported the same way either side.
VT=(stm --algo gpustm --backend cpu --threads 32 --accounts 2048 --tx-per-thread 50 --duration 0.1
	--reps 2 --warmup 0)
expect_rc "stm --verify-threads 3 exits 0" 0 "$G" "${VT[@]}" --verify-threads 3 --json "$R/vt3.json"
json_check "stm --verify-threads 3: every batch checked and verified, the threads in the config" "$R/vt3.json" '
c, r, v = d["config"], d["results"], d["verification"]
assert c["verify_threads"] == 3, c["verify_threads"]
assert v["verified"] is True and r["batches"] > 2, (v, r["batches"])
assert v["batches_verified"] == v["batches_total"] == r["batches"], (v, r["batches"])'
expect_rc "stm --verify-threads 2 --verify-every 3 exits 0" 0 "$G" "${VT[@]}" --verify-threads 2 --verify-every 3 \
	--json "$R/vt-every3.json"
json_check "stm --verify-threads 2 --verify-every 3: a third of the batches checked" \
	"$R/vt-every3.json" '
v, n = d["verification"], d["results"]["batches"]
assert v["verified"] is True and v["batches_total"] == n, (v, n)
assert abs(v["batches_verified"] - n / 3) <= 1, (v, n)'
expect_rc "stm on the CPU backend checks between batches by default" 0 "$G" "${VT[@]}" --json "$R/vt-def.json"
json_check "stm's default --verify-threads on the CPU backend is 0" "$R/vt-def.json" '
assert d["config"]["verify_threads"] == 0, d["config"]["verify_threads"]
assert d["verification"]["verified"] is True'
for vt in 0 3; do
	GPUBENCH_TEST_BAD_BATCH=3 run "$G" "${VT[@]}" --verify-threads $vt --json "$R/vt-bad$vt.json"
	check "a wrong third batch fails verification (--verify-threads $vt): exit 3" test "$RC" = 3
	expect_err "a wrong third batch is named (--verify-threads $vt)" "rep 0 batch 3: commit stamps are not a permutation"
	json_check "a wrong third batch: the report counts it (--verify-threads $vt)" "$R/vt-bad$vt.json" '
v = d["verification"]
assert v["verified"] is False and "batch 3:" in v["message"], v
assert v["batches_verified"] == v["batches_total"] == d["results"]["batches"], v'
done
# the checksum of the last checked batch's words, taken once a repetition: a table that commits
# whole nets to zero, so every batch leaves every account at its initial balance, either side
# (a batch takes about 0.02 s alone and 0.06 s beside another test suite: --duration 0.5 gives
# every repetition more than one batch either way)
for vt in 0 3; do
	expect_rc "csmv's batches, every one committed (--verify-threads $vt)" 0 "$G" stm --algo csmv --backend cpu \
		--threads 32 --accounts 512 --tx-per-thread 20 --semantic-ratio 0 --duration 0.5 --reps 2 --warmup 0 \
		--verify-threads $vt --json "$R/vt-sum$vt.json"
	json_check "the last batch's checksum is of the initial balances (--verify-threads $vt)" "$R/vt-sum$vt.json" '
r, v = d["results"], d["verification"]
assert r["timed_run"] == "batches" and r["batches"] > 2 and r["abandoned"] == 0, r
assert v["verified"] is True and v["balances_fnv1a"] == fnv1a_balances([1000] * 512), v'
done
expect_rc "stm --verify-threads 257 exits 2" 2 "$G" "${VT[@]}" --verify-threads 257
expect_err "stm --verify-threads 257 says the range" "--verify-threads" "0..256"

summary cli-harness
