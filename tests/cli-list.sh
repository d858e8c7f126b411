#!/usr/bin/env bash
# CLI integration tests of gpubench list on the CPU implementations: option
# handling, exit codes, the JSON report, every workload on every CPU
# implementation with many more threads than cores, heap exhaustion, and the
# opencl implementation when this binary has it. GPUBENCH names the binary
# (default ./gpubench). Last line: "cli-list: N passed, N failed"; exit
# status 1 when any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x "$G" ]; then
	echo "cli-list: $G is not an executable (set GPUBENCH)"
	echo "cli-list: 0 passed, 1 failed"
	exit 1
fi
R=$T_TMP/reports
mkdir -p "$R"
CPU_IMPLS=cpu,cpu-tail,cpu-lockfree-tail

expect_rc "help list exits 0" 0 "$G" help list
expect_out "help list documents every option" "usage: gpubench list" --op --nodes --threads --ops \
	--impl --compare --superblocks --superblock-size --cpu-workers --opencl-platform --opencl-device --reps --seed \
	--no-verify --json --quiet cpu-lockfree-tail gpu-tail opencl opencl-cpu
cp "$T_OUT" "$T_TMP/help-list.txt"
expect_rc "list --help exits 0" 0 "$G" list --help
check "list --help prints the same as help list" cmp -s "$T_OUT" "$T_TMP/help-list.txt"
expect_rc "--help lists the list subcommand" 0 "$G" --help
expect_out "--help names list" "list "
expect_rc "info lists the list implementations" 0 "$G" info
expect_out "info names every list implementation" "list implementation cpu-lockfree:" \
	"list implementation cpu:" "list implementation gpu-tail"

expect_rc "list --op nosuch exits 2" 2 "$G" list --op nosuch
expect_err "list --op nosuch names the option" "--op"
expect_rc "list --impl nosuch exits 2" 2 "$G" list --impl nosuch
expect_err "list --impl nosuch lists the accepted ones" "cpu|cpu-tail|cpu-lockfree"
expect_rc "list --compare with an unknown one exits 2" 2 "$G" list --compare cpu,nosuch
expect_rc "list --nodes 0 exits 2" 2 "$G" list --nodes 0
expect_err "list --nodes 0 names the option" "--nodes"
expect_rc "list --superblock-size 1000 exits 2" 2 "$G" list --superblock-size 1000 --impl cpu
expect_err "list --superblock-size 1000 says why" "multiple of 256"
expect_rc "list --superblocks 1 exits 2" 2 "$G" list --superblocks 1 --impl cpu
expect_rc "list --ops without mixed exits 2" 2 "$G" list --op insert --ops 10
expect_err "list --ops says where it applies" "--op mixed"
expect_rc "list stray operand exits 2" 2 "$G" list stray
expect_rc "list --frobnicate exits 2" 2 "$G" list --frobnicate
expect_err "list --frobnicate is named" "--frobnicate"
expect_rc "list: a starting list larger than the heap exits 1" 1 "$G" list --op delete --nodes 5000 \
	--superblocks 4 --impl cpu-lockfree --quiet
expect_err "list: the message names the heap" "cannot hold the 5000 starting nodes"

# Every workload on every CPU implementation: 4x more workers than cores at least.
for op in insert delete mixed; do
	expect_rc "list --op $op on the CPU implementations" 0 "$G" list --op "$op" --nodes 1500 --threads 300 \
		--impl cpu-lockfree --compare "$CPU_IMPLS" --cpu-workers 12 --reps 2 --seed 3 --quiet \
		--json "$R/$op.json"
	json_check "list --op $op report" "$R/$op.json" '
c = d["config"]; r = d["results"]; v = d["verification"]
op = c["op"]
assert d["meta"]["subcommand"] == "list" and d["meta"]["complete"] is True
assert v["verified"] is True and v["reps_checked"] == 8 and v["message"] == "", v
assert c["nodes"] == 1500 and c["threads"] == 300 and c["cpu_workers"] == 12 and c["reps"] == 2
assert c["superblocks"] == 64 and c["superblock_size"] == 4096 and c["heap_bytes"] == 64 * 4096
impls = {x["impl"]: x for x in r["impls"]}
assert list(impls) == ["cpu-lockfree", "cpu", "cpu-tail", "cpu-lockfree-tail"], list(impls)
want_nodes = {"insert": 1500, "delete": 0}.get(op)
counts = c["op_counts"]
for name, x in impls.items():
    assert x["verified"] is True and x["run_seconds"]["n"] == 2 and x["run_seconds"]["median"] > 0
    assert x["ops_per_s"] > 0 and x["failed_allocs"] == 0
    oc = x["outcomes"]
    assert oc["add"]["done"] + oc["add"]["out_of_heap"] == counts["add"]
    assert oc["get"]["done"] + oc["get"]["missing"] == counts["get"]
    assert oc["delete"]["done"] + oc["delete"]["missing"] == counts["delete"]
    for k in ("add", "get", "delete"):
        assert x["op_seconds"][k]["n"] == counts[k], (name, k)
    if want_nodes is not None:
        assert x["list_nodes"] == want_nodes, (name, x["list_nodes"])
    if name.startswith("cpu-lockfree"):
        # the walks: a get or delete reads at least one next word; an add walks to the end
        # (the tail variant appends without a walk)
        st = x["op_steps"]
        for k in ("add", "get", "delete"):
            assert st[k]["n"] == counts[k], (name, k, st[k])
        for k in ("get", "delete"):
            assert counts[k] == 0 or st[k]["min"] >= 1, (name, k, st[k])
        if counts["add"]:
            assert (st["add"]["max"] == 0) == (name == "cpu-lockfree-tail"), (name, st["add"])
            assert name == "cpu-lockfree-tail" or st["add"]["min"] >= 1, st["add"]
        h = x["heap"]
        assert h["live_blocks"] == x["list_nodes"] + x["nodes_in_deletion"]
        assert h["bytes_in_use"] == 16 * h["live_blocks"] and h["bookkeeping_bytes"] == 4096
        assert h["overhead_bytes"] == h["bookkeeping_bytes"] + 4096 * h["superblocks_used"] - h["bytes_in_use"]
    else:
        assert x["heap"] is None and x["nodes_in_deletion"] == 0 and x["op_steps"] is None
    if name != "cpu-lockfree":
        assert x["speedup_of_impl"] > 0
nodes = {x["list_nodes"] for x in impls.values()}
assert len(nodes) == 1, nodes
if op == "mixed":
    assert counts["add"] > 0 and counts["get"] > 0 and counts["delete"] > 0
    assert sum(counts.values()) == c["ops"] == 1500'
done

expect_rc "list: heap exhaustion is counted, not a crash" 0 "$G" list --op insert --nodes 3000 --threads 3000 \
	--superblocks 4 --impl cpu-lockfree --compare cpu-lockfree-tail --cpu-workers 8 --reps 1 --quiet \
	--json "$R/exhaust.json"
json_check "list exhaustion report: 768 nodes fit, the rest fail" "$R/exhaust.json" '
assert d["verification"]["verified"] is True
for x in d["results"]["impls"]:
    assert x["list_nodes"] == 768 and x["failed_allocs"] == 3000 - 768, x
    assert x["outcomes"]["add"]["out_of_heap"] == 3000 - 768
    assert x["heap"]["superblocks_free"] == 0 and x["heap"]["live_blocks"] == 768'

expect_rc "list summary on stdout" 0 "$G" list --nodes 200 --impl cpu-lockfree --compare cpu --reps 1
expect_out "list summary names the run and says verified" "gpubench list: insert, 200 nodes" "verified" \
	"heap         64 x 4096 bytes, 200 blocks in use (3200 bytes)"
expect_rc "list --no-verify" 0 "$G" list --nodes 100 --impl cpu --no-verify --quiet --json "$R/nv.json"
json_check "list --no-verify report" "$R/nv.json" '
assert d["verification"]["verified"] is None and d["verification"]["reps_checked"] == 0'
# The default superblock grows with a run whose nodes would fill more than 1024 of 4096 bytes:
# 400000 nodes (+ a quarter) = 8 MB -> 8192 bytes; --superblock-size given is kept.
expect_rc "list big run: default superblock size" 0 "$G" list --nodes 400000 --impl cpu-tail --reps 1 \
	--warmup 0 --quiet --json "$R/bigsb.json"
json_check "list big run: 8192-byte superblocks, at most 1024 for the nodes" "$R/bigsb.json" '
c = d["config"]
assert c["superblock_size"] == 8192, c["superblock_size"]
assert c["superblocks"] <= 1024 + 64, c["superblocks"]'
expect_rc "list big run: --superblock-size kept" 0 "$G" list --nodes 400000 --impl cpu-lockfree-tail --reps 1 \
	--warmup 0 --quiet --superblock-size 4096 --json "$R/bigsb4k.json"
json_check "list big run: --superblock-size 4096 kept" "$R/bigsb4k.json" '
assert d["config"]["superblock_size"] == 4096'
expect_rc "list --json - prints only JSON" 0 "$G" list --nodes 50 --impl cpu-tail --reps 1 --json -
json_check "list --json - is a report" "$T_OUT" 'assert d["config"]["impl"] == "cpu-tail"'

# nodes past the heap's 4 GiB: refused before anything runs, naming --nodes and how many fit; the
# range --help gives is what --op insert fits, and mixed (twice the keys) fits half of it
expect_rc "list --nodes past the heap's 4 GiB exits 2" 2 "$G" list --nodes 300000000 --impl cpu-tail
expect_err "list --nodes past the heap is out of --nodes' range" \
	"option --nodes: 300000000 is out of range (accepted: 1..214119219)"
expect_rc "list --op mixed past the heap exits 2" 2 "$G" list --op mixed --nodes 107059610 --impl cpu-lockfree
expect_err "list --op mixed past the heap names --nodes and the most that fit" "option --nodes: 107059610 nodes" \
	"at most 107059609 with --op mixed"
# the top of the ranges runs: stopped by a --timeout in generation (exit 1), not refused (exit 2)
expect_rc "list --nodes at the top of its range is accepted" 1 "$G" list --op insert --nodes 214119219 \
	--impl cpu-lockfree --timeout 0.001 --quiet
expect_rc "list --op mixed at half the top is accepted" 1 "$G" list --op mixed --nodes 107059609 \
	--impl cpu-lockfree --timeout 0.001 --quiet
# (or refused for the host memory it needs, which names --ops too: exit 1 either way)
expect_rc "list --ops at the top of its range is accepted with the default threads" 1 "$G" list --op mixed \
	--nodes 3000 --ops 2080374784 --impl cpu-lockfree --timeout 0.001 --quiet
check "list --ops at its top is within every limit of --ops and --threads" \
	test -z "$(grep -e 'out of range' -e 'slots' "$T_ERR")"
expect_rc "list --ops past its top exits 2" 2 "$G" list --op mixed --ops 2080374785
expect_err "list --ops past its top names the option" "option --ops: 2080374785 is out of range"
if grep -q '^list implementation gpu (not built: ' <<<"$("$G" info)"; then
	expect_rc "list --impl gpu in a CPU-only build exits 2" 2 "$G" list --impl gpu --nodes 10
	expect_err "list --impl gpu says it is not built" "not built"
elif ! grep -q '^devices: none' <<<"$("$G" info)"; then
	:
else
	expect_rc "list --impl gpu without a GPU exits 1" 1 "$G" list --impl gpu --nodes 10
	expect_err "list --impl gpu says why" "needs a GPU"
fi
if grep -q '^list implementation opencl-cpu:' <<<"$("$G" info)"; then
	expect_rc "list --impl opencl-cpu on every workload" 0 "$G" list --impl opencl-cpu --op mixed --nodes 300 \
		--threads 256 --ops 3000 --reps 2 --quiet --json "$R/opencl.json"
	json_check "list opencl-cpu report names platform, CPU device and driver, and verifies" "$R/opencl.json" '
x = d["results"]["impls"][0]
assert x["platform"] == "opencl" and " / " in x["where"], x["where"]
cl = x["opencl"]
assert cl["device_type"] == "cpu" and cl["platform"] and cl["device"] and cl["driver_version"], cl
assert x["where"] == cl["platform"] + " / " + cl["device"], (x["where"], cl)
assert d["config"]["opencl_platform"] == "" and d["config"]["opencl_device"] == 0
assert d["verification"]["verified"] is True'
	expect_rc "list --opencl-device past the last device exits 1" 1 "$G" list --impl opencl-cpu --opencl-device 999 --nodes 10
	expect_err "list --opencl-device says how many there are" "OpenCL CPU devices found"
	for op in insert delete; do
		expect_rc "list --impl opencl-cpu --op $op" 0 "$G" list --impl opencl-cpu --op "$op" --nodes 1000 \
			--threads 1000 --reps 1 --quiet
	done
	# The platform by part of its name, by index, and one that matches nothing.
	plat=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"]["impls"][0]["opencl"]["platform"])' "$R/opencl.json")
	word=$(awk '{print tolower($1)}' <<<"$plat")
	expect_rc "list --opencl-platform by part of the name (any case)" 0 "$G" list --impl opencl-cpu \
		--opencl-platform "$word" --nodes 64 --reps 1 --quiet --json "$R/opencl-plat.json"
	json_check "list --opencl-platform is recorded and ran on that platform" "$R/opencl-plat.json" "
x = d['results']['impls'][0]
assert d['config']['opencl_platform'] == '$word', d['config']
assert x['opencl']['platform'] == '$plat', x['opencl']"
	expect_rc "list --opencl-platform matching nothing exits 1" 1 "$G" list --impl opencl-cpu \
		--opencl-platform no-such-platform --nodes 10
	expect_err "list --opencl-platform matching nothing lists the platforms" "no OpenCL CPU device found" \
		"matching --opencl-platform no-such-platform" "$plat"
	# opencl wants an OpenCL GPU and never falls back to the CPU: with the loader shown only
	# this machine's CPU platforms (OCL_ICD_VENDORS), it refuses and says how to get one.
	icd_cpu_only "$T_TMP/cpu-vendors"
	expect_rc "list --impl opencl without an OpenCL GPU exits 1" 1 env OCL_ICD_VENDORS="$T_TMP/cpu-vendors" \
		"$G" list --impl opencl --nodes 10
	expect_err "list --impl opencl without a GPU says so, what there is and how to add NVIDIA's" \
		"no OpenCL GPU device found" "1 cpu" "opencl-cpu runs the kernel on an OpenCL CPU device" \
		"scripts/opencl-icd.sh"
fi
expect_rc "opencl-icd.sh --help exits 0" 0 bash scripts/opencl-icd.sh --help
expect_out "opencl-icd.sh --help says what it prints" "OCL_ICD_VENDORS"
expect_rc "opencl-icd.sh rejects an unknown option" 2 bash scripts/opencl-icd.sh --bogus

# --timeout: a run cut short reports only the repetitions that finished, marked incomplete.
expect_rc "list --timeout before the first repetition ends exits 1" 1 "$G" list --impl cpu --op insert \
	--nodes 20000 --reps 3 --timeout 0.02 --quiet --json "$R/timeout0.json"
expect_err "list --timeout says it was reached" "--timeout 0.02 s reached"
json_check "list --timeout: nothing finished, nothing claimed" "$R/timeout0.json" '
assert d["meta"]["complete"] is False
assert d["config"]["timeout_s"] == 0.02
x = d["results"]["impls"][0]
assert x["reps_completed"] == 0 and x["run_seconds"]["n"] == 0 and x["verified"] is None, x
assert d["verification"]["verified"] is None and d["verification"]["reps_checked"] == 0'
expect_rc "list --timeout between implementations exits 1" 1 "$G" list --impl cpu-tail --compare cpu \
	--op insert --nodes 60000 --reps 2 --timeout 0.3 --quiet --json "$R/timeout1.json"
json_check "list --timeout: the finished implementation is reported and verified" "$R/timeout1.json" '
assert d["meta"]["complete"] is False
a, b = d["results"]["impls"]
assert a["impl"] == "cpu-tail" and a["reps_completed"] == 2 and a["verified"] is True, a
assert b["reps_completed"] < 2, b
assert d["verification"]["verified"] is True
assert d["verification"]["reps_checked"] == a["reps_completed"] + b["reps_completed"]'
expect_rc "list --timeout in the first of two implementations exits 1" 1 "$G" list --impl cpu \
	--compare cpu-tail --op insert --nodes 20000 --reps 3 --timeout 0.02 --quiet --json "$R/timeout2.json"
json_check "list --timeout in the first implementation: both reported, nothing claimed" "$R/timeout2.json" '
assert d["meta"]["complete"] is False
a, b = d["results"]["impls"]
assert a["impl"] == "cpu" and b["impl"] == "cpu-tail", (a["impl"], b["impl"])
assert b["reps_completed"] == 0 and b["verified"] is None, b
assert d["verification"]["verified"] is None'
expect_rc "list --timeout 0 exits 2" 2 "$G" list --timeout 0
expect_err "list --timeout 0 names the option" "--timeout"
expect_rc "list in time is complete" 0 "$G" list --impl cpu-lockfree --nodes 200 --reps 2 --quiet \
	--json "$R/intime.json"
json_check "list in time: complete, every repetition" "$R/intime.json" '
assert d["meta"]["complete"] is True and d["config"]["timeout_s"] == 600
assert d["results"]["impls"][0]["reps_completed"] == 2 and d["verification"]["reps_checked"] == 2'

summary cli-list
