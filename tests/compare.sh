#!/usr/bin/env bash
# CLI tests of gpubench compare and scripts/bench-suite.sh on the CPU backend:
# the verdicts on reports with known samples, the refusals (schema version,
# device, configuration, report shape, an output over an input, nothing
# compared), the exit statuses, the cv and threshold shown, the JSON and
# markdown outputs, folders matched by configuration, real runs (two of the
# same build do not differ, a run slowed with GPUBENCH_TEST_DELAY_US is a
# regression), the suite and its A/B mode (alternated processes, merged
# samples, the interleaved rule). GPUBENCH names the binary. Last line:
# "compare: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "compare: $G is not an executable (set GPUBENCH)"
	echo "compare: 0 passed, 1 failed"
	exit 1
fi
D=$T_TMP

# ---------------------------------------------------------------- help and usage

expect_rc "help compare exits 0" 0 "$G" help compare
expect_out "help compare documents every option and the exit statuses" "usage: gpubench compare" \
	--threshold --metric --allow-different-device --json --markdown --sort --verdict --quiet "4 a regression"
check "help compare fits in 80 columns" awk 'length($0) > 80 {bad=1} END {exit bad}' "$T_OUT"
expect_rc "--help lists compare" 0 "$G" --help
expect_out "--help lists compare and exit status 4" "compare" "4 regression found by compare"

# A real report to derive the synthetic ones from (tiny, verified).
expect_rc "a tiny stm run for the fixtures" 0 "$G" stm --backend cpu --threads 8 --accounts 64 \
	--tx-per-thread 6 --reps 5 --warmup 0 --quiet --json "$D/real.json"
json_check "stm reports carry their per-repetition samples" "$D/real.json" '
t = d["results"]["throughput_tx_per_s"]
assert len(t["samples"]) == 5 == t["n"], t
assert sorted(t["samples"])[2] == t["median"], t'

# mk OUT [python statements on d]: OUT is real.json edited; helper s(list)
# sets the throughput samples (and their median).
mk() {
	python3 - "$D/real.json" "$1" "${2:-}" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
def s(values):
    t = d["results"]["throughput_tx_per_s"]
    t["samples"] = values
    t["n"] = len(values)
    t["median"] = statistics.median(values)
    t["min"], t["max"] = min(values), max(values)
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
}
steady="[100.0, 101.0, 99.0, 100.5, 99.5]"
mk "$D/base.json" "s($steady)"
mk "$D/slower.json" "s([v * 0.8 for v in $steady])"
mk "$D/faster.json" "s([v * 1.25 for v in $steady])"
mk "$D/slight.json" "s([v * 0.97 for v in $steady])"
mk "$D/noisy-base.json" "s([100.0, 60.0, 140.0, 90.0, 110.0])"
mk "$D/noisy-new.json" "s([80.0, 130.0, 70.0, 95.0, 105.0])"
mk "$D/zero.json" "s([0.0, 0.0, 0.0, 0.0, 0.0])"
mk "$D/three-base.json" "s([100.0, 101.0, 99.0])"
mk "$D/three.json" "s([80.0, 81.0, 79.0])"
mk "$D/unverified.json" 's([v * 0.8 for v in '"$steady"']); d["verification"]["verified"] = False'
mk "$D/incomplete.json" 'd["meta"]["complete"] = False'
mk "$D/schema2.json" 'd["meta"]["schema_version"] = 2'
mk "$D/otherdev.json" 'd["device"]["cpu_model"] = "Another CPU"'
mk "$D/otherconf.json" 'd["config"]["threads"] = 16'
mk "$D/nosamples.json" 'del d["results"]["throughput_tx_per_s"]["samples"]'

expect_rc "one argument exits 2" 2 "$G" compare "$D/base.json"
expect_err "one argument says what compare needs" "needs two reports or two folders"
expect_rc "a missing file exits 2" 2 "$G" compare "$D/base.json" "$D/nosuch.json"
expect_err "a missing file is named" "nosuch.json"
echo '{"meta":' >"$D/broken.json"
expect_rc "a file that is not JSON exits 2" 2 "$G" compare "$D/base.json" "$D/broken.json"
expect_err "the bad file is named" "broken.json is not JSON"
"$G" info --quiet --json "$D/info.json"
expect_rc "an info document exits 2" 2 "$G" compare "$D/base.json" "$D/info.json"
expect_err "an info document is not a run report" "is not a gpubench run report"
expect_rc "a report and a folder exit 2" 2 "$G" compare "$D/base.json" "$D"
expect_rc "--threshold x exits 2" 2 "$G" compare --threshold x "$D/base.json" "$D/slower.json"
expect_err "--threshold x names the option" "--threshold"
expect_rc "--json - without --quiet exits 2" 2 "$G" compare --json - "$D/base.json" "$D/slower.json"

# ---------------------------------------------------------------- verdicts

expect_rc "a report against itself: exit 0" 0 "$G" compare "$D/base.json" "$D/base.json"
expect_out "a report against itself is unchanged" "throughput_tx_per_s" "unchanged"
expect_rc "20% less throughput, steady samples: regression, exit 4" 4 "$G" compare "$D/base.json" "$D/slower.json"
expect_out "the regression row: medians, change, p, verdict" "throughput_tx_per_s" "100" "80" "-20.0%" \
	"0.008" "REGRESSION"
expect_err "the summary counts the regression" "1 regressions"
expect_rc "throughput down to 0: regression, exit 4" 4 "$G" compare "$D/base.json" "$D/zero.json"
expect_out "the drop to 0 is a change of -100%, no sign flip" "-100.0%" "REGRESSION"
expect_rc "throughput up from 0: no size to a change, exit 2" 2 "$G" compare "$D/zero.json" "$D/base.json"
expect_out "up from 0 says why" "untested: the base median is 0"
expect_rc "25% more throughput: improvement, exit 0" 0 "$G" compare "$D/base.json" "$D/faster.json"
expect_out "the improvement row" "+25.0%" "improvement"
expect_rc "3% less: below the 5% floor, exit 0" 0 "$G" compare "$D/base.json" "$D/slight.json"
expect_out "3% less is unchanged" "-3.0%" "unchanged"
expect_rc "--threshold 1 makes 3% less a regression" 4 "$G" compare --threshold 1 "$D/base.json" "$D/slight.json"
expect_rc "--threshold 50 lets 20% less pass" 0 "$G" compare --threshold 50 "$D/base.json" "$D/slower.json"
expect_out "--threshold 50 is shown" "50.0%" "unchanged"
expect_rc "noisy samples whose ranks overlap: exit 0" 0 "$G" compare --threshold 1 "$D/noisy-base.json" "$D/noisy-new.json"
expect_out "noisy samples are within noise" "within-noise"
expect_rc "noisy samples widen the default threshold" 0 "$G" compare "$D/noisy-base.json" "$D/noisy-new.json"
expect_out "the default threshold comes from the spread" "unchanged"
check "the noise threshold is above the 5% floor" grep -Eq ' (4[0-9]|[5-9][0-9]|1[0-9][0-9])\.[0-9]%  unchanged' "$T_OUT"
expect_rc "three repetitions a side cannot show a regression" 0 "$G" compare "$D/three-base.json" "$D/three.json"
expect_out "three against three: p is 0.1 at best" "0.100" "within-noise"
expect_err "three repetitions: a note says they are too few" "too few repetitions"
expect_rc "five against three can" 4 "$G" compare "$D/base.json" "$D/three.json"
expect_rc "no samples: untested, so nothing compared: exit 2" 2 "$G" compare "$D/base.json" "$D/nosamples.json"
expect_out "no samples is said, with the side" "untested: no per-repetition samples in the new report"
expect_err "nothing tested is said" "nothing to compare: no metric of the base had samples on both sides"

# ---------------------------------------------------------------- refusals

expect_rc "an unverified report: exit 3 before 4" 3 "$G" compare "$D/base.json" "$D/unverified.json"
expect_err "the unverified report is named" "unverified.json did not verify"
expect_rc "an incomplete report: exit 3" 3 "$G" compare "$D/base.json" "$D/incomplete.json"
expect_err "the incomplete report is named" "incomplete.json is incomplete"
expect_rc "another schema version: exit 2" 2 "$G" compare "$D/base.json" "$D/schema2.json"
expect_err "another schema version is refused clearly" "schema2.json has report schema version 2" \
	"reads version 1"
expect_rc "another device: exit 2" 2 "$G" compare "$D/base.json" "$D/otherdev.json"
expect_err "another device is refused clearly" "Another CPU" "not comparable" "--allow-different-device"
expect_rc "--allow-different-device compares them: exit 0" 0 "$G" compare --allow-different-device \
	"$D/base.json" "$D/otherdev.json"
expect_out "--allow-different-device adds a warning row" "WARNING: different devices" "Another CPU"
expect_rc "another configuration: nothing comparable, exit 2" 2 "$G" compare "$D/base.json" "$D/otherconf.json"
expect_out "another configuration is said, with the difference" "not comparable: config.threads 8 vs 16"
expect_err "another configuration: nothing to compare" "nothing to compare"

# compare never writes over what it reads: --json on an input, or into an input folder
cp "$D/base.json" "$D/keep.json"
sum_before=$(cksum <"$D/keep.json")
expect_rc "--json equal to the base report: exit 2" 2 "$G" compare --json "$D/keep.json" "$D/keep.json" "$D/slower.json"
expect_err "--json over the base report is refused, naming it" "option --json: $D/keep.json is the base report"
check "--json over the base report: the base is untouched" test "$(cksum <"$D/keep.json")" = "$sum_before"
expect_rc "--json equal to the new report: exit 2" 2 "$G" compare --json "$D/keep.json" "$D/slower.json" "$D/keep.json"
expect_err "--json over the new report is refused" "is the new report"
ln -s keep.json "$D/keep-link.json"
expect_rc "--json through a symlink to the base: exit 2" 2 "$G" compare --json "$D/keep-link.json" \
	"$D/keep.json" "$D/slower.json"
mkdir -p "$D/ra" "$D/rb"
expect_rc "--json spelled with ./ and ..: exit 2" 2 "$G" compare --json "$D/ra/.././keep.json" \
	"$D/keep.json" "$D/slower.json"
check "--json refusals: the base is still the same report" test "$(cksum <"$D/keep.json")" = "$sum_before"
cp "$D/base.json" "$D/ra/bank.json"
cp "$D/slower.json" "$D/rb/bank.json"
expect_rc "--json inside the base folder: exit 2" 2 "$G" compare --json "$D/ra/cmp.json" "$D/ra" "$D/rb"
expect_err "--json inside the base folder is refused, naming it" "option --json: $D/ra/cmp.json is inside the base folder $D/ra"
check "--json inside the base folder: nothing written there" test ! -e "$D/ra/cmp.json"
expect_rc "--json in a new subfolder of the new folder: exit 2" 2 "$G" compare --json "$D/rb/sub/cmp.json" "$D/ra" "$D/rb"
expect_err "--json inside the new folder is refused" "is inside the new folder"
expect_rc "--json over a report of the new folder: exit 2" 2 "$G" compare --json "$D/rb/bank.json" "$D/ra" "$D/rb"
expect_rc "--json beside the folders is written: exit 4" 4 "$G" compare --json "$D/ra-rb.json" "$D/ra" "$D/rb"
check "--json beside the folders: the comparison is there" test -s "$D/ra-rb.json"

# nothing compared is never a pass
mk "$D/renamed-metric.json" 't = d["results"].pop("throughput_tx_per_s"); d["results"]["other_tx_per_s"] = t'
expect_rc "a new report with none of the base's metrics: exit 2" 2 "$G" compare "$D/base.json" "$D/renamed-metric.json"
expect_out "the missing metric is shown on both sides" "only-in-base" "only-in-new"
expect_err "the missing metric is named" "metric throughput_tx_per_s is not in the new report" "nothing to compare"
mkdir -p "$D/na" "$D/nb"
cp "$D/base.json" "$D/na/bank.json"
cp "$D/otherconf.json" "$D/nb/other.json"
expect_rc "folders with no common report: exit 2" 2 "$G" compare "$D/na" "$D/nb"
expect_err "folders with no common report: nothing to compare" "bank.json: no report in the new folder" \
	"nothing to compare: no pair of reports with the same configuration"
mk "$D/zero.json" 's([0.0, 0.0, 0.0, 0.0, 0.0])'
mk "$D/widgets.json" 'd["results"]["widgets"] = dict(d["results"]["throughput_tx_per_s"])'
expect_rc "a median of 0: nothing tested, exit 2" 2 "$G" compare "$D/zero.json" "$D/base.json"
expect_out "a median of 0 says why in words" "untested: the base median is 0, so a change has no size"
expect_rc "a metric that is neither time nor rate beside a tested one: exit 0" 0 "$G" compare \
	"$D/widgets.json" "$D/widgets.json"
expect_out "neither time nor rate says why in words" "widgets" "untested: neither a time nor a rate"

# a report's shape is checked before it is trusted
mk "$D/nocomplete.json" 'del d["meta"]["complete"]'
mk "$D/strcomplete.json" 'd["meta"]["complete"] = "yes"'
mk "$D/noverified.json" 'del d["verification"]["verified"]'
mk "$D/strverified.json" 'd["verification"]["verified"] = "true"'
mk "$D/noverification.json" 'del d["verification"]'
mk "$D/nullverified.json" 'd["verification"]["verified"] = None'
expect_rc "meta.complete missing: exit 2" 2 "$G" compare "$D/base.json" "$D/nocomplete.json"
expect_err "meta.complete missing: the file and the field are named" \
	"nocomplete.json: meta.complete is missing; a run report has true or false there"
expect_rc "meta.complete a string: exit 2" 2 "$G" compare "$D/strcomplete.json" "$D/base.json"
expect_err "meta.complete a string: its value is shown" 'strcomplete.json: meta.complete is "yes"'
expect_rc "verification.verified missing: exit 2" 2 "$G" compare "$D/base.json" "$D/noverified.json"
expect_err "verification.verified missing: named" "noverified.json: verification.verified is missing"
expect_rc "verification.verified a string: exit 2" 2 "$G" compare "$D/base.json" "$D/strverified.json"
expect_err "verification.verified a string: its value is shown" 'strverified.json: verification.verified is "true"'
expect_rc "no verification block: exit 2" 2 "$G" compare "$D/base.json" "$D/noverification.json"
expect_rc "verification.verified null (--no-verify) is compared: exit 0" 0 "$G" compare "$D/base.json" \
	"$D/nullverified.json"
expect_out "verified null reads as not checked" "(not checked)"
mkdir -p "$D/shape"
cp "$D/base.json" "$D/shape/a.json"
cp "$D/nocomplete.json" "$D/shape/b.json"
expect_rc "a malformed report inside a folder: exit 2" 2 "$G" compare "$D/shape" "$D/shape"
expect_err "a malformed report inside a folder is named" "shape/b.json: meta.complete is missing"

# ---------------------------------------------------------------- noise

expect_rc "noise: cv of each side" 4 "$G" compare "$D/base.json" "$D/slower.json"
expect_out "noise: the table shows each side's cv" "cv base" "cv new" "0.8%"
expect_err "noise: the summary says the threshold used" \
	"threshold per metric from its noise (3 robust spreads, at least 5%)"
expect_rc "noise: cv above an explicit threshold" 0 "$G" compare --threshold 1 "$D/noisy-base.json" "$D/noisy-new.json"
expect_out "noise: the row says it is noisy" "29.2%" "within-noise (NOISY: cv above the threshold)"
expect_err "noise: a warning names the noisy metric, and the threshold is said" \
	"1 metrics vary between repetitions more than their threshold" "throughput_tx_per_s (cv 29.2% > 1.0%)" \
	"threshold 1% (--threshold)"
expect_rc "noise: --json carries both cvs and the flag" 0 "$G" compare --threshold 1 --json "$D/noisy.json" \
	"$D/noisy-base.json" "$D/noisy-new.json"
json_check "noise: cv in the comparison document" "$D/noisy.json" '
m = d["results"]["pairs"][0]["metrics"][0]
assert abs(m["base_cv_pct"] - 29.15) < 0.01 and m["noisy"] is True, m
assert m["new_cv_pct"] > 20 and m["threshold_pct"] == 1, m'

# ---------------------------------------------------------------- outputs

expect_rc "--markdown: exit 4" 4 "$G" compare --markdown "$D/base.json" "$D/slower.json"
expect_out "--markdown prints a table" \
	"| report | metric | base | new | change | p | cv base | cv new | threshold | verdict |" \
	"| base.json ~ slower.json | throughput_tx_per_s | 100 | 80 | -20.0% | 0.008 | 0.8% | 0.8% | 5.0% | **regression** |"
expect_out "--markdown says the threshold and the test under the table" "Mann-Whitney U test" \
	"threshold per metric from its noise (3 robust spreads, at least 5%); beyond noise: p < 0.05."
check "--markdown starts with what was compared, the devices, revisions and units" python3 - "$T_OUT" \
	"$(json_get "$D/base.json" meta.git_revision)" "$(json_get "$D/slower.json" meta.git_revision)" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0].startswith("**gpubench compare**: base `") and "base.json`, new `" in lines[0], lines[0]
dev = [l for l in lines if l.startswith("| devices | ")]
rev = [l for l in lines if l.startswith("| revisions | ")]
assert len(dev) == 1 and dev[0].count(" | ") == 2, dev
assert rev == ["| revisions | %s | %s |" % (sys.argv[2], sys.argv[3])], (rev, sys.argv[2:])
assert any(l.startswith("Units: ") and "`_seconds` seconds" in l for l in lines), lines
assert lines.index([l for l in lines if l.startswith("Units: ")][0]) < lines.index("| report | metric | base | new | change | p | cv base | cv new | threshold | verdict |")
PY
check "--markdown ends with the summary line stderr has" test "$(tail -n 1 "$T_OUT")" = "**$(grep '^gpubench: compare: ' "$T_ERR" | sed 's/^gpubench: //')**"
expect_rc "--json PATH: exit 4" 4 "$G" compare --json "$D/cmp.json" "$D/base.json" "$D/slower.json"
json_check "--json: the comparison as a document" "$D/cmp.json" '
assert d["meta"]["subcommand"] == "compare" and d["meta"]["schema_version"] == 1
assert d["config"]["test"] == "mann-whitney-u" and d["config"]["alpha"] == 0.05
assert d["config"]["threshold_pct"] is None
p = d["results"]["pairs"]
assert len(p) == 1 and p[0]["status"] == "compared" and p[0]["subcommand"] == "stm", p
m = p[0]["metrics"]
assert len(m) == 1, m
m = m[0]
assert m["name"] == "throughput_tx_per_s" and m["better"] == "higher", m
assert m["base_median"] == 100 and m["new_median"] == 80 and abs(m["change_pct"] + 20) < 1e-9, m
assert m["base_samples"] == 5 and m["new_samples"] == 5, m
assert abs(m["p_value"] - 2 / 252) < 1e-9 and m["beyond_noise"] is True, m
assert m["threshold_pct"] == 5 and m["verdict"] == "regression", m
c = d["results"]["counts"]
assert c["pairs_compared"] == 1 and c["regression"] == 1 and c["unchanged"] == 0, c
assert d["verification"]["verified"] is True'
expect_rc "--json - --quiet: only JSON on stdout" 0 "$G" compare --json - --quiet "$D/base.json" "$D/base.json"
json_check "--json - is one document" "$T_OUT" 'assert d["results"]["counts"]["unchanged"] == 1'

# ---------------------------------------------------------------- metrics

expect_rc "an avoid run for --metric" 0 "$G" avoid --procs 64 --res 16 --reps 5 --quiet --json "$D/avoid.json"
expect_rc "avoid against itself" 0 "$G" compare "$D/avoid.json" "$D/avoid.json"
expect_out "the default metrics are the per-implementation ones" "impls.cpu-fast.stream_seconds" \
	"impls.cpu-fast.request_seconds"
check "the default metrics leave the nested ones out" test -z "$(grep 'phase' "$T_OUT")"
expect_rc "--metric stream_seconds" 0 "$G" compare --metric stream_seconds "$D/avoid.json" "$D/avoid.json"
check "--metric NAME keeps only that metric" test "$(grep -c '^  impls\.' "$T_OUT")" = 1
expect_rc "--metric with a glob" 0 "$G" compare --metric 'impls.*.re*_seconds' "$D/avoid.json" "$D/avoid.json"
check "--metric GLOB keeps request and release" test "$(grep -c '^  impls\.' "$T_OUT")" = 2
expect_rc "--metric all on speculate" 0 "$G" speculate --backend cpu --loop ocean --iters 20000 --reps 4 \
	--quiet --json "$D/spec.json"
expect_rc "speculate --metric all" 0 "$G" compare --metric all "$D/spec.json" "$D/spec.json"
expect_out "--metric all adds the phases" "loop_seconds" "phase_seconds.computation"

# ---------------------------------------------------------------- folders

mkdir -p "$D/fa/sub" "$D/fb"
cp "$D/base.json" "$D/fa/bank.json"
cp "$D/avoid.json" "$D/fa/sub/avoid.json"
cp "$D/spec.json" "$D/fa/spec.json"
cp "$D/slower.json" "$D/fb/renamed-bank.json"
cp "$D/avoid.json" "$D/fb/avoid.json"
cp "$D/otherconf.json" "$D/fb/spec.json"
cp "$D/cmp.json" "$D/fb/comparison.json"
expect_rc "folders: matched by configuration, a regression found" 4 "$G" compare "$D/fa" "$D/fb"
expect_out "folders: the renamed report is paired by its configuration" "bank.json ~ renamed-bank.json" \
	"REGRESSION" "sub/avoid.json ~ avoid.json"
expect_out "folders: a report of the same name and another configuration is not comparable" \
	"spec.json: speculate" "not comparable: subcommand speculate vs stm"
expect_err "folders: documents that are not run reports are left out" "1 JSON files that are not run reports"
mkdir -p "$D/fc"
cp "$D/avoid.json" "$D/fc/avoid.json"
cp "$D/faster.json" "$D/fc/bank.json"
cp "$D/noisy-new.json" "$D/fc/extra.json"
expect_rc "folders: a base report missing from new: exit 2" 2 "$G" compare "$D/fa" "$D/fc"
expect_out "folders: a report only on one side is said" "spec.json: speculate" "only-in-base" \
	"extra.json: stm" "only-in-new"
expect_err "folders: the missing report is named, and why the comparison fails" \
	"spec.json: no report in the new folder has its subcommand and configuration" \
	"1 of the base's reports or metrics were not compared"
cp "$D/spec.json" "$D/fc/spec-renamed.json"
expect_rc "folders without a regression, a report only in new: exit 0" 0 "$G" compare "$D/fa" "$D/fc"
expect_err "folders: every base report compared" "3 pairs compared" "0 only in base, 1 only in new"
mkdir -p "$D/empty"
expect_rc "an empty folder: exit 2" 2 "$G" compare "$D/fa" "$D/empty"
expect_err "an empty folder is named" "no run reports in"

# ---------------------------------------------------------------- real runs

# Two runs of one build, and one slowed on purpose. The CPU of a shared CI
# machine can halve its speed between two runs, so the same-build check allows
# a 300% change; the slowed runs are more than 5 times slower. The stm run has
# no semantic chains and 400 transactions a repetition: 48 chained ones took
# under a millisecond, and a worker's lost time slice moved their median 4x.
# It runs on one worker: with two on a VM whose two cores other builds use, a
# worker preempted while holding locks made the other spin, and one run of
# the same build was 28 times slower than the other.
AVOID=(avoid --procs 64 --res 16 --events 20 --reps 5 --quiet)
STM=(stm --backend cpu --cpu-workers 1 --threads 8 --accounts 64 --tx-per-thread 50 --semantic-ratio 0 --reps 5
	--warmup 0 --quiet)
"$G" "${AVOID[@]}" --json "$D/run1-avoid.json"
"$G" "${AVOID[@]}" --json "$D/run2-avoid.json"
"$G" "${STM[@]}" --json "$D/run1-stm.json"
"$G" "${STM[@]}" --json "$D/run2-stm.json"
expect_rc "same build, avoid: no regression" 0 "$G" compare --threshold 300 "$D/run1-avoid.json" "$D/run2-avoid.json"
expect_rc "same build, stm: no regression" 0 "$G" compare --threshold 300 "$D/run1-stm.json" "$D/run2-stm.json"
expect_rc "GPUBENCH_TEST_DELAY_US=x exits 2" 2 env GPUBENCH_TEST_DELAY_US=x "$G" "${STM[@]}"
expect_err "GPUBENCH_TEST_DELAY_US=x is named" "GPUBENCH_TEST_DELAY_US: 'x'"
expect_rc "a slowed avoid run" 0 env GPUBENCH_TEST_DELAY_US=20000 "$G" "${AVOID[@]}" --json "$D/slow-avoid.json"
json_check "a slowed report says so" "$D/slow-avoid.json" 'assert d["meta"]["test_delay_us"] == 20000'
check "a normal report has no test_delay_us" test -z "$(grep test_delay_us "$D/run1-avoid.json")"
expect_rc "slowed avoid: a regression" 4 "$G" compare --threshold 300 "$D/run1-avoid.json" "$D/slow-avoid.json"
expect_out "slowed avoid: the stream time is the regression" "impls.cpu-fast.stream_seconds" "REGRESSION"
# a nested metric is judged by its block's name: phase_seconds.scheduling is a time
SPEC=(speculate --backend cpu --loop mdg --iters 200 --reps 5 --quiet)
"$G" "${SPEC[@]}" --json "$D/run1-spec.json"
expect_rc "a slowed speculate run" 0 env GPUBENCH_TEST_DELAY_US=20000 "$G" "${SPEC[@]}" --json "$D/slow-spec.json"
expect_rc "slowed speculate: a nested phase time is a regression" 4 "$G" compare --metric phase_seconds.scheduling \
	"$D/run1-spec.json" "$D/slow-spec.json"
expect_out "slowed speculate: phase_seconds.scheduling is the regression" "phase_seconds.scheduling" "REGRESSION"
# a --metric that matches nothing would turn a gate off: exit 2, naming it
expect_rc "--metric naming nothing exits 2" 2 "$G" compare --metric nosuchmetric "$D/run1-spec.json" "$D/slow-spec.json"
expect_err "--metric naming nothing says so" "option --metric: nosuchmetric matches no metric"
expect_rc "compare --json '' exits 2 before comparing" 2 "$G" compare --json '' "$D/run1-spec.json" "$D/slow-spec.json"
expect_err "compare --json '' names the option" "option --json: the path is empty"
expect_rc "a slowed stm run" 0 env GPUBENCH_TEST_DELAY_US=200000 "$G" "${STM[@]}" --json "$D/slow-stm.json"
expect_rc "slowed stm: a regression at the default threshold" 4 "$G" compare "$D/run1-stm.json" "$D/slow-stm.json"
expect_out "slowed stm: throughput is the regression" "throughput_tx_per_s" "REGRESSION"
# --sort verdict puts the regression's report and row first; --verdict shows only its rows, and
# the summary and exit status still count every row
mkdir -p "$D/sort-base" "$D/sort-new"
cp "$D/run1-avoid.json" "$D/sort-base/a-avoid.json"
cp "$D/run1-avoid.json" "$D/sort-new/a-avoid.json"
cp "$D/run1-stm.json" "$D/sort-base/b-stm.json"
cp "$D/slow-stm.json" "$D/sort-new/b-stm.json"
expect_rc "--sort input: exit 4" 4 "$G" compare "$D/sort-base" "$D/sort-new"
check "--sort input: the reports in their order" test "$(grep -o '^[ab]-[a-z]*.json' "$T_OUT" | xargs)" = \
	"a-avoid.json b-stm.json"
expect_rc "--sort verdict: exit 4" 4 "$G" compare --sort verdict "$D/sort-base" "$D/sort-new"
check "--sort verdict: the regression's report first" test "$(grep -o '^[ab]-[a-z]*.json' "$T_OUT" | xargs)" = \
	"b-stm.json a-avoid.json"
expect_rc "--verdict regression: exit 4" 4 "$G" compare --verdict regression "$D/sort-base" "$D/sort-new"
check "--verdict regression: only the regression's report and row" test \
	"$(grep -c 'REGRESSION' "$T_OUT") $(grep -c '^[ab]-' "$T_OUT") $(grep -c 'unchanged' "$T_OUT")" = "1 1 0"
expect_err "--verdict regression: the summary counts every pair" "2 pairs compared (1 regressions"
expect_rc "--markdown --verdict unchanged,within-noise" 4 "$G" compare --markdown --verdict unchanged,within-noise \
	"$D/sort-base" "$D/sort-new"
check "--markdown --verdict: no regression row, the filter said under the table" \
	test "$(grep -c '| regression\|\*\*regression' "$T_OUT")" = 0 -a "$(grep -c 'shown (--verdict)' "$T_OUT")" = 1
expect_rc "--verdict bogus exits 2" 2 "$G" compare --verdict bogus "$D/sort-base" "$D/sort-new"
expect_err "--verdict bogus names the verdicts" "'bogus' is no verdict" "within-noise"
expect_rc "--sort bogus exits 2" 2 "$G" compare --sort bogus "$D/sort-base" "$D/sort-new"

# ---------------------------------------------------------------- the suite

expect_rc "bench-suite.sh --list --cpu" 0 bash "$root/scripts/bench-suite.sh" --cpu --list
expect_out "the suite covers every subcommand" "suite version" " stm " " avoid " " detect " " speculate " " list "
nruns=$(bash "$root/scripts/bench-suite.sh" --cpu --list | grep -c '^  ')
expect_rc "bench-suite.sh --cpu runs" 0 bash "$root/scripts/bench-suite.sh" --cpu --gpubench "$G" --out "$D/suite"
check "the suite wrote a report per run ($nruns)" test "$(find "$D/suite" -name '*.json' | wc -l)" = "$nruns"
check "the suite wrote its version and command lines" grep -q "^gpubench benchmark suite version" "$D/suite/SUITE"
check "the suite's progress gives each run's cv" grep -q "stm-bank: stm, verified, cpu backend, cv [0-9.]*%" "$T_ERR"
mkdir -p "$D/suite-renamed"
for f in "$D"/suite/*.json; do cp "$f" "$D/suite-renamed/x-$(basename "$f")"; done
expect_rc "the suite against itself, renamed: exit 0" 0 "$G" compare "$D/suite" "$D/suite-renamed"
expect_err "every suite report is paired" "$nruns pairs compared" "0 only in base, 0 only in new"
expect_rc "bench-suite.sh --compare exits with compare's status" 2 bash "$root/scripts/bench-suite.sh" --cpu \
	--gpubench "$G" --out "$D/suite2" --compare "$D/nosuch"
expect_rc "bench-suite.sh --out and --update-baseline exit 2" 2 bash "$root/scripts/bench-suite.sh" --cpu \
	--update-baseline --out "$D/x"
expect_rc "bench-suite.sh --bogus exits 2" 2 bash "$root/scripts/bench-suite.sh" --bogus
expect_rc "bench-suite.sh --only two runs" 0 bash "$root/scripts/bench-suite.sh" --cpu --list --only list-insert,stm-bank
check "--only keeps the named runs, in the suite's order" test "$(grep '^  ' "$T_OUT" | awk '{print $1}' | xargs)" = \
	"stm-bank list-insert"
expect_rc "bench-suite.sh --only an unknown name: exit 2" 2 bash "$root/scripts/bench-suite.sh" --cpu --only nosuch
expect_err "--only names the unknown run" "no run named 'nosuch'"
expect_rc "bench-suite.sh --only runs only those" 0 bash "$root/scripts/bench-suite.sh" --cpu --gpubench "$G" \
	--only list-insert --out "$D/only"
check "--only: one report" test "$(find "$D/only" -name '*.json' | wc -l)" = 1
# The GPU variant's command lines are valid: each runs (on a GPU), or stops only for
# want of one: no device (exit 1), or a binary built without CUDA (exit 2, saying so);
# never for an option it does not take or a value out of range.
bash "$root/scripts/bench-suite.sh" --list | grep '^  ' >"$D/gpu-runs"
gpu_run_parses() {
	case $RC in
	0) return 0 ;;
	1) grep -qE "needs a GPU|no NVIDIA GPU" "$T_ERR" ;;
	2) grep -qE "built without CUDA|not built into this binary: needs a CUDA build" "$T_ERR" ;;
	*) return 1 ;;
	esac
}
while read -r name _ args; do
	case " $args " in *" --backend "*) backend=() ;; *) backend=(--backend gpu) ;; esac
	# shellcheck disable=SC2086 # the run's options are words
	run "$G" $args "${backend[@]}" --json "$D/gpu-run.json"
	check "the GPU run $name parses its options (status $RC: $(tail -n 1 "$T_ERR" | cut -c 1-60))" gpu_run_parses
done <"$D/gpu-runs"
run "$G" detect --algo osdda --impl gpu-stream --procs 0 --backend gpu
check "a GPU run with a bad value is not taken for one that parses" test "$RC" = 2 -a "$(gpu_run_parses && echo yes)" != yes
check "the GPU suite runs detect's gpu-stream and list's gpu-tail" grep -q "gpu-stream.*gpu-tail" \
	<(tr '\n' ' ' <"$D/gpu-runs")

# ---------------------------------------------------------------- the A/B mode

expect_rc "--ab with --rounds 3: exit 2" 2 bash "$root/scripts/bench-suite.sh" --cpu --ab "$G" --rounds 3
expect_err "--rounds 3 is refused, saying why" "option --rounds: '3'" "the rank test needs 4 a side"
expect_rc "--rounds without --ab: exit 2" 2 bash "$root/scripts/bench-suite.sh" --cpu --rounds 4
expect_rc "--ab with --compare: exit 2" 2 bash "$root/scripts/bench-suite.sh" --cpu --ab "$G" --compare "$D/suite"
expect_rc "--ab with no binary there: exit 2" 2 bash "$root/scripts/bench-suite.sh" --cpu --ab "$D/nosuch" \
	--gpubench "$G" --out "$D/ab-none"
AB=(bash "$root/scripts/bench-suite.sh" --cpu --gpubench "$G" --rounds 4)
run "${AB[@]}" --ab "$G" --only stm-bank,list-insert --out "$D/ab"
check "A/B of one binary: compare's status, 0 or 4 (measured, not asserted: docs/ci.md)" test "$RC" = 0 -o "$RC" = 4
check "A/B: a merged report per run on each side" test "$(find "$D/ab/base" "$D/ab/new" -name "*.json" | wc -l)" = 4
check "A/B: the comparison as markdown and JSON" test -s "$D/ab/compare.md" -a -s "$D/ab/compare.json"
check "A/B: SUITE names both binaries, the rounds and their order" grep -q "4 processes of each binary a run, in the order ABBAABBA" "$D/ab/SUITE"
json_check "A/B: each side's sample i is the median of its process i, the sides of one session" "$D/ab/base/list-insert.json" '
import json, os
root = "'"$D/ab"'"
new = json.load(open(os.path.join(root, "new", "list-insert.json")))
for side, doc in (("base", d), ("new", new)):
    i = doc["meta"]["interleaved"]
    assert i["side"] == side and i["processes"] == 4 and i["order"] == "ABBAABBA", i
    m = doc["results"]["impls"][0]["run_seconds"]
    raw = [json.load(open(os.path.join(root, "runs", side, "r%d" % r, "list-insert.json")))
           for r in range(1, 5)]
    assert m["samples"] == [x["results"]["impls"][0]["run_seconds"]["median"] for x in raw], (m, side)
    assert m["n"] == 4 and m["median"] == sorted(m["samples"])[1] / 2 + sorted(m["samples"])[2] / 2, m
    assert doc["meta"]["complete"] is True and doc["verification"]["verified"] is True
assert d["meta"]["interleaved"]["session"] == new["meta"]["interleaved"]["session"]
assert d["config"] == new["config"]'
check "A/B: the processes ran in the order ABBAABBA" test "$(ls -tr --time=ctime "$D"/ab/runs/*/r*/list-insert.json |
	sed 's|.*/runs/\([a-z]*\)/.*|\1|' | sed 's/base/A/; s/new/B/' | tr -d '\n')" = ABBAABBA
json_check "A/B: compare reads the pairs as interleaved" "$D/ab/compare.json" '
p = d["results"]["pairs"]
assert len(p) == 2 and all(x["interleaved"] is True and x["status"] == "compared" for x in p), p
m = [r for x in p for r in x["metrics"] if r["verdict"] != "untested"]
assert m and all(r["threshold_pct"] == 5 and abs(r["alpha"] - 0.05 / len(m)) < 1e-12 for r in m), m'
expect_rc "A/B folders compared again, with --threshold 300: exit 0" 0 "$G" compare --threshold 300 \
	"$D/ab/base" "$D/ab/new"
expect_out "A/B: the table says the pair is interleaved" "interleaved (A/B session"
expect_err "A/B: the rule is said, alpha shared over the metrics" "beyond noise: p < 0.025 (0.05 over the 2 interleaved metrics)"
# the new binary slowed on purpose, each repetition 100 ms longer: a regression however loaded the machine
printf '#!/bin/sh\nGPUBENCH_TEST_DELAY_US=100000 exec %s "$@"\n' "$(cd "$(dirname "$G")" && pwd)/$(basename "$G")" \
	>"$D/slow-gpubench"
chmod +x "$D/slow-gpubench"
expect_rc "A/B with the new binary slowed: exit 4" 4 bash "$root/scripts/bench-suite.sh" --cpu --ab "$G" \
	--gpubench "$D/slow-gpubench" --rounds 4 --only list-insert --out "$D/ab-slow"
expect_out "A/B slowed: the regression row" "interleaved (A/B session" "impls.cpu-lockfree.run_seconds" "REGRESSION"
check "A/B slowed: the markdown table has it" grep -q "regression" "$D/ab-slow/compare.md"
expect_rc "suite_merge.py refuses reports of two configurations" 1 python3 "$root/scripts/lib/suite_merge.py" \
	--session S --side base --order ABBA --out "$D/merged.json" "$D/base.json" "$D/otherconf.json"
expect_err "suite_merge.py names the two reports and the block" "base.json and" "otherconf.json differ in config"
check "suite_merge.py: nothing written" test ! -e "$D/merged.json"
# what the GPU monitor sampled differs between processes of one run (a sample more or less): not
# a different device; the merged report's during_timing covers every process
# dt SAMPLES SM_MIN SM_MEAN REASONS THROTTLED: a during_timing block, as Python
dt() {
	echo "{'samples': $1, 'busy_samples': $1, 'sm_clock_mhz': {'min': $2, 'max': 1980, 'mean': $3}," \
		"'memory_clock_mhz': {'min': 3201, 'max': 3201, 'mean': 3201}, 'clock_reasons': $4, 'throttled': $5}"
}
mk "$D/dt1.json" "d['device']['during_timing'] = $(dt 13 1980 1980 "[]" False)"
mk "$D/dt2.json" "d['device']['during_timing'] = $(dt 14 1755 1800 "['sw_power_cap']" True)"
expect_rc "suite_merge.py: processes whose monitor took 13 and 14 samples merge" 0 \
	python3 "$root/scripts/lib/suite_merge.py" --session S --side base --order AB --out "$D/merged-dt.json" \
	"$D/dt1.json" "$D/dt2.json"
json_check "suite_merge.py: during_timing over both processes" "$D/merged-dt.json" '
t = d["device"]["during_timing"]
assert t["samples"] == 27 and t["busy_samples"] == 27, t
assert t["sm_clock_mhz"]["min"] == 1755 and t["sm_clock_mhz"]["max"] == 1980, t
assert abs(t["sm_clock_mhz"]["mean"] - (13 * 1980 + 14 * 1800) / 27) < 1e-9, t
assert t["clock_reasons"] == ["sw_power_cap"] and t["throttled"] is True, t'
mk "$D/dt3.json" "d['device']['during_timing'] = $(dt 13 1980 1980 "[]" False); d['device']['name'] = 'Other GPU'"
expect_rc "suite_merge.py: another device name is still refused" 1 python3 "$root/scripts/lib/suite_merge.py" \
	--session S --side base --order AB --out "$D/merged-dt3.json" "$D/dt1.json" "$D/dt3.json"
expect_err "suite_merge.py: says the device differs" "differ in device"
# synthetic A/B reports: interleaved samples get the 5% threshold, others three spreads
spread="[100.0, 110.0, 90.0, 105.0, 95.0, 102.0, 98.0, 108.0]"
mk "$D/ab-base.json" "s($spread); d['meta']['interleaved'] = {'session': 'S1', 'side': 'base'}"
mk "$D/ab-new.json" "s([v * 0.82 for v in $spread]); d['meta']['interleaved'] = {'session': 'S1', 'side': 'new'}"
mk "$D/ab-other.json" "s([v * 0.82 for v in $spread]); d['meta']['interleaved'] = {'session': 'S2', 'side': 'new'}"
expect_rc "interleaved sides of one session, 18% slower: a regression at the 5% threshold" 4 "$G" compare \
	"$D/ab-base.json" "$D/ab-new.json"
expect_out "interleaved: the 5% threshold" "interleaved (A/B session S1)" "5.0%  REGRESSION"
expect_rc "sides of two sessions: the spread's threshold, unchanged" 0 "$G" compare "$D/ab-base.json" "$D/ab-other.json"
check "two sessions: not read as interleaved" test -z "$(grep interleaved "$T_OUT")"

# ---------------------------------------------------------------- gate quality

expect_rc "gate-quality.sh --help" 0 bash "$root/scripts/gate-quality.sh" --help
expect_out "gate-quality.sh --help says what it measures" "false-alarm and detection rates" "--resume"
expect_rc "gate-quality.sh --modes x: exit 2" 2 bash "$root/scripts/gate-quality.sh" --modes x
expect_rc "gate-quality.sh --pairs 0: exit 2" 2 bash "$root/scripts/gate-quality.sh" --pairs 0
expect_rc "gate-quality.sh --rounds 3: exit 2 before measuring" 2 bash "$root/scripts/gate-quality.sh" --cpu \
	--gpubench "$G" --rounds 3 --out "$D/no-gate"
expect_err "gate-quality.sh --rounds 3 is refused, saying why" "option --rounds: '3'" "the rank test needs 4 a side"
check "gate-quality.sh --rounds 3 measured nothing" test ! -e "$D/no-gate"
expect_rc "gate-quality.sh --resume without a measurement: exit 2" 2 bash "$root/scripts/gate-quality.sh" --cpu \
	--gpubench "$G" --resume --out "$D/no-gate"
expect_rc "gate-quality.sh: one A/B pair of each kind" 0 bash "$root/scripts/gate-quality.sh" --cpu --gpubench "$G" \
	--pairs 1 --modes ab --only list-insert --rounds 4 --out "$D/gate"
json_check "gate-quality.sh: a delay sized for the run, one same and one slow pair, a summary" "$D/ab/compare.json" '
import csv
gate = "'"$D/gate"'"
rows = lambda f: list(csv.DictReader(open(gate + "/" + f), delimiter="\t"))
d = rows("delays.tsv")
assert len(d) == 1 and d[0]["run"] == "list-insert" and d[0]["metric"] == "impls.cpu-lockfree.run_seconds", d
assert int(d[0]["delay_us"]) >= 1, d
p = rows("pairs.tsv")
assert [(x["mode"], x["kind"], x["pair"]) for x in p] == [("ab", "same", "1"), ("ab", "slow", "1")], p
assert all(x["status"] in ("0", "4") for x in p), p
m = rows("metrics.tsv")
assert any(x["sized"] == "1" and x["kind"] == "slow" and x["report"] == "list-insert" for x in m), m
s = open(gate + "/summary.md").read()
assert "| A/B, interleaved | " in s and " of 1 (" in s and "| list-insert | impls.cpu-lockfree.run_seconds |" in s, s'
check "gate-quality.sh: its working reports are gone" test ! -e "$D/gate/work"
expect_rc "gate-quality.sh --resume adds a pair" 0 bash "$root/scripts/gate-quality.sh" --cpu --gpubench "$G" \
	--pairs 1 --modes ab --only list-insert --rounds 4 --out "$D/gate" --resume
check "gate-quality.sh --resume: pair 2 added, the delay kept" test "$(cut -f3 "$D/gate/pairs.tsv" | xargs)" = \
	"pair 1 1 2 2" -a "$(wc -l <"$D/gate/delays.tsv")" = 2
check "gate-quality.sh --resume: ENV says which binary and options added the pairs" \
	grep -q "^resumed .* with gpubench .*--pairs 1 --modes ab --only list-insert --rounds 4 --resume\$" "$D/gate/ENV"
# A run whose wall time grows far faster than its measure (a latency timed per event, as avoid's
# on a GPU) stops the sizing once a trial takes 8 times the undelayed run (at least 10 s) with the
# measure 20% longer: here 1 us of delay adds 1 ms to the run and 4e-5 to the measure, so the
# trial of 10000 us (an 11 s run, +40%) sizes 2500 us for 10%, where doubling would have asked
# for 50000 us runs of 51 s.
mkdir -p "$D/gate-wall"
check "gate_quality.py calibrate stops at a run 8 times as long" python3 - "$root/scripts/lib" "$D/gate-wall" <<'PY'
import sys, types
sys.path.insert(0, sys.argv[1])
import gate_quality as g
def fake(gpubench, args, delay, wall=None):
    if wall is not None:
        wall.append(1 + delay * 1e-3)
    return "impls.gpu.stream_seconds", 1 + delay * 4e-5
g.measure = fake
g.cmd_calibrate(types.SimpleNamespace(gpubench="x", run_args=[], slowdown=10, run="avoid", dir=sys.argv[2]))
row = g.read_tsv(sys.argv[2] + "/delays.tsv")[0]
assert (row["trial_us"], row["delay_us"]) == ("10000", "2500"), row
PY

# the recorded baseline is of this suite version and reads as a set of verified reports
version=$(sed -n 's/^suite_version=//p' "$root/scripts/bench-suite.sh")
check "results/baseline-cpu is of the suite's version ($version)" \
	grep -q "^gpubench benchmark suite version $version (cpu)\$" "$root/results/baseline-cpu/SUITE"
expect_rc "results/baseline-cpu against itself: exit 0" 0 "$G" compare "$root/results/baseline-cpu" \
	"$root/results/baseline-cpu"
expect_err "results/baseline-cpu: one verified report per suite run" "$nruns pairs compared"
check "results/baseline-gpu is of the suite's version ($version)" \
	grep -q "^gpubench benchmark suite version $version (gpu)\$" "$root/results/baseline-gpu/SUITE"
expect_rc "results/baseline-gpu against itself: exit 0" 0 "$G" compare "$root/results/baseline-gpu" \
	"$root/results/baseline-gpu"
expect_err "results/baseline-gpu: one verified report per suite run" "$nruns pairs compared"

summary compare
