#!/usr/bin/env bash
# GPU checks of gpubench (make check-gpu), for a machine with a CUDA GPU: the
# PR-STM bank on the GPU backend over thread counts, lock coverage (hash),
# semantic ratios, presort, read-only and multi-leg transfers, every run
# verified by the serial replay; a high-contention configuration; and cross
# checks against the CPU backend; GPU-STM (gpustm, and gpustm-local, its logs
# thread-local) on the bank, beside PR-STM; vacation, skiplist, kmeans and graph
# on all three; memcached on prstm, gpustm, gpustm-local, csmv and jvstm-gpu; CSMV, its ablations, JVSTM-GPU and PR-STM's read log on the bank; the
# banker's algorithm (avoid) on the GPU
# against the oracle and the CPU implementations; the deadlock detectors
# (detect) on the GPU against the oracle and cpu-bits; speculate's loops on
# the GPU against the sequential loop and the CPU backend's decisions; the
# lock-free lists (list) on the GPU, verified on every workload; which card
# ran: --device on every subcommand, CUDA_VISIBLE_DEVICES, the UUID, PCI bus
# id, driver version and clocks while timed that reports record (against
# nvidia-smi where it is installed); a CUDA error in the middle of a run of
# every subcommand, two processes on one GPU, --timeout and SIGINT on GPU
# runs. Needs bash and python3, no compiler.
#
#   GPUBENCH=dist/bin/gpubench tests/gpu/check.sh
#
# Works from the repository (tests/gpu/check.sh, helpers in tests/lib.sh) and
# from dist/ (dist/tests/gpu/check.sh, helpers copied beside it). Last line:
# "check-gpu: N passed, N failed"; exit status 1 when any failed.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -f "$here/../lib.sh" ]; then
	# shellcheck source=tests/lib.sh
	. "$here/../lib.sh"
elif [ -f "$here/lib.sh" ]; then
	# shellcheck source=tests/lib.sh
	. "$here/lib.sh"
else
	echo "check-gpu: cannot find lib.sh beside $here or in its parent"
	echo "check-gpu: 0 passed, 1 failed"
	exit 1
fi
t_init
G=${GPUBENCH:-./gpubench}
R=$T_TMP/reports
mkdir -p "$R"
start=$(date +%s)

# CHECK_GPU_PARTS (e.g. "stm", "stm-mv" or "devices,avoid,detect,speculate,list,reliability"): only
# those parts, so that the checks can run in pieces where one command may take only a few
# minutes (a CI step's limit); unset, every part. The parts: devices, stm (PR-STM and GPU-STM on
# every workload but memcached), stm-mv (memcached on every engine, and CSMV, its ablations and
# JVSTM-GPU on the bank), avoid, detect, speculate, list, reliability.
check_gpu_parts="devices stm stm-mv avoid detect speculate list reliability"
parts=${CHECK_GPU_PARTS:-}
parts=${parts//,/ }
for p in $parts; do
	[[ " $check_gpu_parts " == *" $p "* ]] || {
		fail "CHECK_GPU_PARTS names a part that does not exist: $p (the parts: $check_gpu_parts)"
		summary check-gpu
		exit 1
	}
done
part() {
	[ -z "$parts" ] || [[ " $parts " == *" $1 "* ]]
}
n=0

if [ ! -x "$G" ]; then
	fail "$G is an executable (set GPUBENCH)"
	summary check-gpu
	exit 1
fi

# Is there a GPU backend and a device?
run "$G" info --quiet --json "$T_TMP/info.json"
json_check "info: a GPU backend and at least one device" "$T_TMP/info.json" '
assert "gpu" in d["backends"], "this binary has no GPU backend: %s" % d["backends"]
assert len(d["devices"]) >= 1, "no device: %s" % d.get("no_device_reason")
assert any("gpu" in e["backends"] for e in d["engines"]["stm"])' || {
	summary check-gpu
	exit 1
}
echo "device: $(json_get "$T_TMP/info.json" devices.0.name) (compute capability $(json_get "$T_TMP/info.json" devices.0.compute_capability))"


if part devices; then
# ---- which card ran: --device on every subcommand, CUDA_VISIBLE_DEVICES, the
# device block's UUID, PCI bus id, driver version (NVML) and clocks while timed
ndev=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$T_TMP/info.json")
last=$((ndev - 1))
json_check "info: each GPU's UUID, PCI bus id and NVML clocks, the driver version as the driver prints it" "$T_TMP/info.json" '
import re
assert re.fullmatch(r"\d+\.\d+(\.\d+)?", d["driver_version"] or ""), (d["driver_version"], d.get("nvml_error"))
for x in d["devices"]:
    assert re.fullmatch(r"GPU-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", x["uuid"]), x
    assert re.fullmatch(r"[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-9a-fA-F]", x["pci_bus_id"]), x
    n = x["nvml"]
    assert n and n["sm_clock_mhz"] > 0 and n["max_sm_clock_mhz"] >= n["sm_clock_mhz"] > 0, n
    assert n["max_memory_clock_mhz"] > 0 and isinstance(n["throttled"], bool), n'
if command -v nvidia-smi >/dev/null 2>&1; then
	nvidia-smi --query-gpu=uuid,pci.bus_id,driver_version --format=csv,noheader >"$T_TMP/smi.csv" 2>/dev/null
	json_check "info's UUIDs, PCI bus ids and driver version are nvidia-smi's" "$T_TMP/info.json" '
rows = [[c.strip() for c in l.split(",")] for l in open("'"$T_TMP/smi.csv"'") if l.strip()]
for x in d["devices"]:
    mine = [r for r in rows if r[0] == x["uuid"]]
    assert len(mine) == 1, (x["uuid"], rows)
    assert mine[0][1].lower().endswith(x["pci_bus_id"].lower()[-12:]), (mine[0], x["pci_bus_id"])
    assert mine[0][2] == d["driver_version"], (mine[0], d["driver_version"])'
fi
uuid_last=$(json_get "$T_TMP/info.json" "devices.$last.uuid")
# CUDA_VISIBLE_DEVICES as the reports must record it: a Python literal
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then vis_py="\"$CUDA_VISIBLE_DEVICES\""; else vis_py=None; fi
# device_check NAME FILE INDEX UUID VISIBLE [BUSY]: the report names the card and its clocks while
# timed (BUSY 1: a repetition long enough for the 100 ms sampler to find the GPU at work).
device_check() {
	json_check "$1" "$2" '
dev = d["device"]
assert dev["backend"] == "gpu" and dev["index"] == '"$3"' and dev["uuid"] == "'"$4"'", dev
assert dev["cuda_visible_devices"] == ('"$5"'), dev["cuda_visible_devices"]
assert dev["driver_version"] and dev["pci_bus_id"], dev
t = dev["during_timing"]
assert t["samples"] >= 2 * d["config"].get("reps", 1), t
assert t["busy_samples"] >= '"${6:-0}"', t
assert t["sm_clock_mhz"]["min"] > 0 and t["sm_clock_mhz"]["max"] >= t["sm_clock_mhz"]["min"], t
assert t["memory_clock_mhz"]["min"] > 0 and isinstance(t["throttled"], bool), t
assert d["verification"]["verified"] is True'
}
for spec in "stm --backend gpu --threads 2048 --accounts 4096 --tx-per-thread 50 --duration 0.5 --reps 3" \
	"avoid --impl gpu --procs 256 --res 64 --events 200 --reps 2" \
	"detect --impl gpu-stream --procs 256 --res 256 --events 2000 --reps 2" \
	"speculate --backend gpu --loop ocean --iters 200000 --reps 2" \
	"list --impl gpu-tail --nodes 4096 --reps 2"; do
	read -r -a words <<<"$spec"
	expect_rc "${words[0]} --device $last exits 0" 0 "$G" "${words[@]}" --device "$last" --quiet --json "$R/dev-${words[0]}.json"
	device_check "${words[0]} --device $last: the report names device $last ($uuid_last)" "$R/dev-${words[0]}.json" \
		"$last" "$uuid_last" "$vis_py" "$([ "${words[0]}" = stm ] && echo 1 || echo 0)"
done
expect_rc "stm --device $ndev (one past the last) exits 2" 2 "$G" stm --backend gpu --device "$ndev" --threads 64
expect_err "the message names the devices there are" "option --device: there is no CUDA device $ndev here: $ndev visible"
expect_rc "CUDA_VISIBLE_DEVICES=<the last GPU's UUID> stm --device 0 exits 0" 0 env CUDA_VISIBLE_DEVICES="$uuid_last" \
	"$G" stm --backend gpu --device 0 --threads 256 --accounts 4096 --tx-per-thread 20 --reps 1 --quiet --json "$R/dev-vis.json"
device_check "CUDA_VISIBLE_DEVICES: device 0 is the card it names, and the report records the variable" "$R/dev-vis.json" \
	0 "$uuid_last" "\"$uuid_last\""
expect_rc "stm --device $last --backend cpu on a GPU machine exits 0" 0 "$G" stm --backend cpu --device "$last" \
	--threads 64 --accounts 4096 --tx-per-thread 10 --reps 1 --quiet --json "$R/dev-cpu.json"
json_check "a CPU run records that --device was not used" "$R/dev-cpu.json" '
assert any("--device '"$last"' was not used" in w for w in d["meta"]["warnings"]), d["meta"]["warnings"]
assert "uuid" not in d["device"], d["device"]'
fi # part devices

if part stm; then
# gpu_bank NAME REPS ARGS...: a verified GPU run that must commit every transaction.
gpu_bank() {
	local name=$1 reps=$2 f t0
	shift 2
	n=$((n + 1))
	f=$R/run$n.json
	t0=$(date +%s.%N)
	run "$G" stm --backend gpu --reps "$reps" --warmup 1 --quiet --json "$f" "$@"
	if [ -n "${CHECK_GPU_TIMES:-}" ]; then
		awk -v a="$t0" -v b="$(date +%s.%N)" -v n="$name" 'BEGIN { printf "%6.2f s  %s\n", b - a, n }'
	fi
	if [ "$RC" != 0 ]; then
		fail "$name: exit 0" "$G stm --backend gpu $*" "$(t_context)"
		return
	fi
	json_check "$name" "$f" '
r = d["results"]; v = d["verification"]; b = d["config"]["bank"]
assert d["meta"]["complete"] is True
assert d["device"]["backend"] == "gpu" and d["config"]["backend"] == "gpu"
assert isinstance(d["device"]["name"], str) and d["device"]["sm_count"] > 0
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == v["batches_total"] == r["batches"] == '"$reps"', (v["batches_verified"], r["batches"])
# A shuffled table of semantic chains can strand its last transactions (one
# chain spending money another deposited); the stall detector then abandons
# them. Everything else must commit in full.
may_strand = b["semantic_ratio"] > 0 and not b["presort"]
if may_strand and r["abandoned"]:
    assert r["threads_stalled"] > 0, "abandoned %d without a stall: %s" % (r["abandoned"], " ".join(d["meta"]["argv"]))
else:
    assert r["abandoned"] == 0, "abandoned %d (threads gave up: %d, stalled %d): %s" % (r["abandoned"], r["threads_gave_up"], r["threads_stalled"], " ".join(d["meta"]["argv"]))
assert r["threads_gave_up"] == 0 and r["threads_timed_out"] == 0
assert r["commits"] + r["abandoned"] == '"$reps"' * b["transactions"], (r["commits"], r["abandoned"], b["transactions"])
assert r["commits_read_only"] == '"$reps"' * b["read_only_transactions"]
assert v["min_balance"] >= 0
if r["abandoned"] == 0:
    assert v["money_before"] == v["money_after"] == b["accounts"] * b["initial_balance"]
    assert v["balances_fnv1a"] == fnv1a_balances([b["initial_balance"]] * b["accounts"])
assert r["throughput_tx_per_s"]["n"] == '"$reps"' and r["throughput_tx_per_s"]["min"] > 0
bs = r["gpu_block_size"]
assert bs > 0 and bs % 32 == 0 and bs <= 1024, bs
a = r["aborts"]
assert a["total"] == a["conflict"] + a["validation"] + a["semantic"]
ph = r["committed_phases_ns"]
assert ph["read"] > 0 and ph["validate"] > 0 and ph["commit"] > 0, ph
# the time of each thread in the kernel holds its attempts and what lies between them
assert r["thread_time_per_tx_ns"] >= r["time_per_tx_ns"] > 0, (r["thread_time_per_tx_ns"], r["time_per_tx_ns"])'
}

# ---- the matrix: threads x hash x semantic ratio, presort alternating
i=0
for threads in 32 960 6720; do
	for hash in 1 4 64; do
		for sem in 0 50 100; do
			i=$((i + 1))
			extra=()
			label="threads $threads hash $hash semantic $sem"
			if [ $((i % 2)) -eq 0 ]; then
				extra+=(--presort)
				label+=" presort"
			fi
			if [ $((i % 3)) -eq 0 ]; then
				extra+=(--read-only 20)
				label+=" read-only 20"
			fi
			# (two legs over 64-account locks at 6720 threads is a 10 s livelock-ish
			# crawl on an H100: left out to keep the check short)
			if [ $((i % 4)) -eq 1 ] && ! [ "$threads" = 6720 -a "$hash" = 64 ]; then
				extra+=(--transfers-per-tx 2)
				label+=" K=2"
			fi
			gpu_bank "$label" 1 --threads "$threads" --hash "$hash" --semantic-ratio "$sem" \
				--accounts 4096 --tx-per-thread 40 --initial-balance 10000 --seed "$i" \
				"${extra[@]}"
		done
	done
done
# the paper's mixes at the default thread count, two repetitions
gpu_bank "threads 6720 semantic 100 read-only 20" 2 --threads 6720 --accounts 65536 --tx-per-thread 100 --read-only 20
gpu_bank "threads 6720 semantic 100 presort read-only 20" 2 --threads 6720 --accounts 65536 --tx-per-thread 100 --read-only 20 --presort
# the read-only share as whole threads (Figs. 7-11's panels B and D), on its own and presorted
gpu_bank "threads 6720 semantic 100 read-only 20 threads" 2 --threads 6720 --accounts 65536 --tx-per-thread 100 --read-only 20 --read-only-threads
gpu_bank "threads 6720 semantic 100 presort read-only 20 threads" 2 --threads 6720 --accounts 65536 --tx-per-thread 100 --read-only 20 --presort --read-only-threads
gpu_bank "threads 6720 semantic 0 K=2" 2 --threads 6720 --accounts 65536 --tx-per-thread 100 --semantic-ratio 0 --transfers-per-tx 2
gpu_bank "threads 960 block size 64, no tags" 1 --threads 960 --block-size 64 --no-tags --accounts 4096 --tx-per-thread 40 --semantic-ratio 50 --presort
# prstm-nocm, PR-STM without its semantic contention manager: presorted chains and no semantic work commit in
# full; shuffled chains retry in place and stall (no inquiries: a stalled thread abandons what follows)
gpu_bank "prstm-nocm threads 6720 semantic 100 presort read-only 20" 2 --algo prstm-nocm --threads 6720 --accounts 65536 --tx-per-thread 100 --read-only 20 --presort
gpu_bank "prstm-nocm threads 6720 semantic 0" 2 --algo prstm-nocm --threads 6720 --accounts 65536 --tx-per-thread 100 --semantic-ratio 0
gpu_bank "prstm-nocm threads 960 semantic 100 shuffled" 1 --algo prstm-nocm --threads 960 --accounts 4096 --tx-per-thread 40 --stall-timeout 0.1

# ---- high contention: 64 accounts, 8 per lock, 2048 threads
for sem in 0 50 100; do
	gpu_bank "high contention semantic $sem presort" 1 --threads 2048 --accounts 64 --hash 8 \
		--initial-balance 100000 --tx-per-thread 20 --semantic-ratio "$sem" --read-only 20 --presort
done
gpu_bank "high contention semantic 0 K=2" 1 --threads 2048 --accounts 64 --hash 8 \
	--initial-balance 100000 --tx-per-thread 20 --semantic-ratio 0 --transfers-per-tx 2
gpu_bank "high contention semantic 50 shuffled" 1 --threads 2048 --accounts 64 --hash 8 \
	--initial-balance 100000 --tx-per-thread 20 --semantic-ratio 50

# ---- timed runs: one kernel per repetition, threads sweep their blocks round
# after round until the device clock says stop; the final balances must equal
# the start plus every commit's amounts (status words count commits).
# gpu_rounds NAME SECONDS ARGS...: two repetitions of a timed run.
gpu_rounds() {
	local name=$1 secs=$2 f
	shift 2
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --reps 2 --warmup 1 --duration "$secs" --quiet --json "$f" "$@"
	if [ "$RC" != 0 ]; then
		fail "$name: exit 0" "$G stm --backend gpu --duration $secs $*" "$(t_context)"
		return
	fi
	json_check "$name" "$f" '
r = d["results"]; v = d["verification"]; b = d["config"]["bank"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu"
assert r["timed_run"] == "rounds", r["timed_run"]
assert v["method"] == "final balances = start + commit counts x amounts", v["method"]
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == 2 and r["reps_completed"] == 2
assert r["threads_timed_out"] == 0 and r["threads_gave_up"] == 0
secs = '"$secs"'
# a thread stranded by semantic chains stalls and halts the run early
assert r["device_seconds"] < 2 * secs + 4, r["device_seconds"]
if r["threads_stalled"] == 0:
    assert 2 * secs <= r["device_seconds"], r["device_seconds"]
if b["semantic_ratio"] == 0 or b["presort"]:
    assert r["threads_stalled"] == 0
    assert r["commits"] > 2 * b["transactions"], (r["commits"], b["transactions"])
assert v["min_balance"] >= 0
if b["semantic_ratio"] == 0:
    assert v["money_before"] == v["money_after"] == b["accounts"] * b["initial_balance"]
assert r["throughput_tx_per_s"]["min"] > 0'
}
gpu_rounds "timed run: 6720 threads semantic 0" 1 --threads 6720 --accounts 65536 --tx-per-thread 100 --semantic-ratio 0
gpu_rounds "timed run: 6720 threads semantic 0 read-only 20 K=2" 0.5 --threads 6720 --accounts 65536 \
	--tx-per-thread 100 --semantic-ratio 0 --read-only 20 --transfers-per-tx 2
gpu_rounds "timed run: 6720 threads semantic 100 presort" 0.5 --threads 6720 --accounts 65536 --tx-per-thread 99 --presort
gpu_rounds "timed run: 960 threads semantic 100 shuffled" 0.5 --threads 960 --accounts 4096 --tx-per-thread 30 \
	--initial-balance 10000
gpu_rounds "timed run: high contention 2048 threads, 8 locks" 0.5 --threads 2048 --accounts 64 --hash 8 \
	--initial-balance 100000 --tx-per-thread 5 --semantic-ratio 0 --transfers-per-tx 2
gpu_rounds "timed run: 26880 threads" 0.5 --threads 26880 --accounts 262144 --tx-per-thread 50 --semantic-ratio 0

# ---- --timeout stops a running kernel: 4 million 4-leg transfers serialised
# on one lock cannot finish in 2 s; the threads stop between transactions and
# what committed is replayed and verified.
t0=$(date +%s)
run "$G" stm --backend gpu --threads 2048 --accounts 64 --hash 64 --transfers-per-tx 4 --semantic-ratio 0 \
	--initial-balance 100000000 --tx-per-thread 2000 --reps 1 --warmup 0 --timeout 2 --quiet --json "$R/timeout.json"
t1=$(date +%s)
check "--timeout 2 on a serialised table exits 1" test "$RC" = 1
check "--timeout 2 ends the run within 15 s (took $((t1 - t0)) s)" test $((t1 - t0)) -lt 15
json_check "--timeout 2: incomplete, the committed part verified" "$R/timeout.json" '
r = d["results"]; v = d["verification"]; b = d["config"]["bank"]
assert d["meta"]["complete"] is False and d["device"]["backend"] == "gpu"
assert r["batches"] == 1 and r["threads_timed_out"] > 0, (r["batches"], r["threads_timed_out"])
assert 0 < r["commits"] < b["transactions"] and r["commits"] + r["abandoned"] == b["transactions"]
assert v["verified"] is True and v["batches_verified"] == 1, v'
t0=$(date +%s)
run "$G" stm --backend gpu --threads 6720 --accounts 65536 --tx-per-thread 100 --semantic-ratio 0 \
	--duration 60 --reps 1 --warmup 0 --timeout 3 --quiet --json "$R/timeout2.json"
t1=$(date +%s)
check "--timeout 3 in a 60 s timed run exits 1" test "$RC" = 1
check "--timeout 3 ends the timed run within 15 s (took $((t1 - t0)) s)" test $((t1 - t0)) -lt 15
json_check "--timeout 3 in a timed run: incomplete, verified" "$R/timeout2.json" '
r = d["results"]; v = d["verification"]
assert d["meta"]["complete"] is False and r["timed_run"] == "rounds"
assert r["threads_timed_out"] == 6720 and r["reps_completed"] == 0 and r["commits"] > 0
assert v["verified"] is True, v'
# The crawl configuration of the issue, at the default 1000 transactions per
# thread: it must end by itself or at --timeout, verified either way.
t0=$(date +%s)
run "$G" stm --backend gpu --threads 2048 --accounts 64 --hash 64 --transfers-per-tx 4 --semantic-ratio 0 \
	--initial-balance 1000000 --reps 1 --timeout 20 --quiet --json "$R/crawl.json"
t1=$(date +%s)
echo "crawl configuration: exit $RC after $((t1 - t0)) s"
check "one lock, 2048 threads, 4 legs: exit 0 or 1 (timeout)" test "$RC" = 0 -o "$RC" = 1
check "one lock, 2048 threads, 4 legs: ends within 30 s" test $((t1 - t0)) -lt 30
json_check "one lock, 2048 threads, 4 legs: verified" "$R/crawl.json" '
assert d["verification"]["verified"] is True, d["verification"]'
echo "crawl configuration: $(json_get "$R/crawl.json" results.commits) commits in" \
	"$(json_get "$R/crawl.json" results.device_seconds) s of device time, abort rate" \
	"$(json_get "$R/crawl.json" results.abort_rate), complete $(json_get "$R/crawl.json" meta.complete)"

# ---- cross checks against the CPU backend
# cross NAME EXPECT_ALL ARGS...: run on both backends, compare.
cross() {
	local name=$1 all=$2 b
	shift 2
	for b in gpu cpu; do
		run "$G" stm --backend "$b" --reps 1 --warmup 0 --quiet --json "$R/cross-$b.json" "$@"
		if [ "$RC" != 0 ]; then
			fail "$name: $b exits 0" "$(t_context)"
			return
		fi
	done
	json_check "$name: both backends verify" "$R/cross-gpu.json" '
import json
c = json.load(open("'"$R/cross-cpu.json"'"))
for x, b in ((d, "gpu"), (c, "cpu")):
    assert x["config"]["backend"] == b
    assert x["verification"]["verified"] is True, (b, x["verification"]["message"])
    if '"$all"':
        assert x["results"]["abandoned"] == 0, (b, x["results"]["abandoned"])
        assert x["results"]["commits"] == x["config"]["bank"]["transactions"], b
assert d["config"]["bank"] == c["config"]["bank"]'
}
# cross_same NAME ARGS...: one logical thread: identical outcome on both backends.
cross_same() {
	local name=$1
	shift
	cross "$name" 0 --threads 1 "$@"
	json_check "$name: identical outcome" "$R/cross-gpu.json" '
import json
c = json.load(open("'"$R/cross-cpu.json"'"))
g, k = d["results"], c["results"]
assert d["verification"]["balances_fnv1a"] == c["verification"]["balances_fnv1a"], (d["verification"]["balances_fnv1a"], c["verification"]["balances_fnv1a"])
for key in ("commits", "commits_update", "commits_read_only", "abandoned", "passes_max"):
    assert g[key] == k[key], (key, g[key], k[key])
assert g["aborts"]["semantic"] == k["aborts"]["semantic"], (g["aborts"], k["aborts"])
assert g["aborts"]["conflict"] == k["aborts"]["conflict"] == 0
assert d["verification"]["min_balance"] == c["verification"]["min_balance"]'
}
cross_same "1 thread, everything commits" --accounts 50 --tx-per-thread 500 --semantic-ratio 50 --read-only 20 --seed 3
# no tags and one pass: the chain steps met out of order are abandoned, so the
# final balances depend on the exact schedule
cross_same "1 thread, no tags, one pass" --accounts 50 --tx-per-thread 500 --semantic-ratio 100 --no-tags --max-passes 1 --seed 4
cross_same "1 thread, hash 4, K=3, one pass" --accounts 64 --hash 4 --tx-per-thread 300 --semantic-ratio 60 \
	--transfers-per-tx 3 --read-only 20 --no-tags --max-passes 1 --seed 5
json_check "the one-pass cross check abandoned something" "$R/cross-gpu.json" '
assert d["results"]["abandoned"] > 0'
cross "960 threads, semantic 50, presort" 1 --threads 960 --accounts 2048 --tx-per-thread 20 --semantic-ratio 50 --presort --read-only 20
cross "256 threads, hash 4, semantic 0, K=2" 1 --threads 256 --accounts 512 --hash 4 --tx-per-thread 20 --semantic-ratio 0 --transfers-per-tx 2

# ---- gpustm: GPU-STM's kernel on the same tables, every run verified. Without
# semantic conflicts (none, or presorted) nothing is given up; with shuffled
# semantic chains every transaction given up at the retry limit is counted
# and is exactly what the oracle finds abandoned.
# Both GPU-STM engines: gpustm (logs in global memory) and gpustm-local (logs thread-local).
gpustm_bank() {
	local name=$1 f algo
	shift
	for algo in gpustm gpustm-local; do
		n=$((n + 1))
		f=$R/run$n.json
		run "$G" stm --backend gpu --algo "$algo" --reps 2 --warmup 1 --quiet --json "$f" "$@"
		if [ "$RC" != 0 ]; then
			fail "$algo $name: exit 0" "$G stm --backend gpu --algo $algo $*" "$(t_context)"
			continue
		fi
		gpustm_bank_check "$algo $name" "$f" "$algo"
	done
}
gpustm_bank_check() {
	json_check "$1" "$2" '
r = d["results"]; v = d["verification"]; b = d["config"]["bank"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu" and d["config"]["algo"] == "'"$3"'"
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == 2
assert r["abandoned"] == r["retry_limit_reached"], (r["abandoned"], r["retry_limit_reached"])
# at most one thread per four locks (accounts / hash): a transaction then meets its retry
# limit of 100 too rarely to see; past that (6720 threads on 16384 locks) one sometimes does
if (b["semantic_ratio"] == 0 or b["presort"]) and \
        d["config"]["threads"] * 4 * d["config"]["hash"] <= d["config"]["bank"]["accounts"]:
    assert r["abandoned"] == 0, "given up %d: %s" % (r["abandoned"], " ".join(d["meta"]["argv"]))
assert r["commits"] + r["abandoned"] == 2 * b["transactions"]
assert r["threads_timed_out"] == 0 and r["aborts"]["conflict_priority"] == 0
assert r["throughput_tx_per_s"]["n"] == 2
assert r["thread_time_per_tx_ns"] >= r["time_per_tx_ns"] > 0, (r["thread_time_per_tx_ns"], r["time_per_tx_ns"])'
}
for threads in 960 6720; do
	for hash in 1 4; do
		gpustm_bank "threads $threads hash $hash semantic 0" --threads "$threads" --hash "$hash" \
			--accounts 65536 --tx-per-thread 40 --semantic-ratio 0 --read-only 20
		gpustm_bank "threads $threads hash $hash semantic 100 presort" --threads "$threads" --hash "$hash" \
			--accounts 65536 --tx-per-thread 39 --presort
		gpustm_bank "threads $threads hash $hash semantic 100 shuffled" --threads "$threads" --hash "$hash" \
			--accounts 65536 --tx-per-thread 39
	done
done
# At high contention GPU-STM's lanes abort each other symmetrically (no priority rule) and some
# transactions reach --retry-limit: they are given up and reported, and the rest verifies.
gpustm_bank "high contention, 8 locks, K=2" --threads 2048 --accounts 64 --hash 8 --initial-balance 100000 \
	--tx-per-thread 20 --semantic-ratio 0 --transfers-per-tx 2
# GPU-STM's two layouts on one table, on the GPU: the same commits (nothing given up), both verified
expect_rc "stm --algo gpustm --compare gpustm-local on the GPU" 0 "$G" stm --backend gpu --algo gpustm \
	--compare gpustm-local --threads 6720 --accounts 65536 --tx-per-thread 100 --semantic-ratio 0 \
	--retry-limit 1000000000 --reps 2 --quiet --json "$R/compare-gpustm-local.json"
json_check "--compare gpustm-local on the GPU: both verified, the same commits" "$R/compare-gpustm-local.json" '
r = d["results"]; (g,) = r["compare"]
assert d["verification"]["verified"] is True and g["verified"] is True and g["algo"] == "gpustm-local"
assert r["abandoned"] == g["abandoned"] == 0 and r["commits"] == g["commits"], (r["commits"], g["commits"])'
# both engines on one table, on the GPU
expect_rc "stm --compare gpustm on the GPU" 0 "$G" stm --backend gpu --threads 6720 --accounts 65536 \
	--tx-per-thread 100 --semantic-ratio 0 --compare gpustm --reps 2 --quiet --json "$R/compare.json"
json_check "--compare gpustm on the GPU: both verified, a speedup" "$R/compare.json" '
r = d["results"]
assert d["verification"]["verified"] is True and r["compare"][0]["verified"] is True
assert r["compare"][0]["algo"] == "gpustm" and r["compare"][0]["speedup_of_algo"] > 0'
# one logical thread: the same outcome on both backends, retries and give-ups included
cross_same "gpustm 1 thread, semantic chains given up" --algo gpustm --accounts 50 --tx-per-thread 500 \
	--semantic-ratio 60 --read-only 20 --seed 6
json_check "gpustm's cross check gave transactions up" "$R/cross-gpu.json" '
assert d["results"]["retry_limit_reached"] > 0'
cross "gpustm 960 threads, hash 4, semantic 0, K=2" 0 --algo gpustm --threads 960 --accounts 2048 --hash 4 \
	--tx-per-thread 20 --semantic-ratio 0 --transfers-per-tx 2
cross_same "gpustm-local 1 thread, semantic chains given up" --algo gpustm-local --accounts 50 \
	--tx-per-thread 500 --semantic-ratio 60 --read-only 20 --seed 6
cross "gpustm-local 960 threads, hash 4, semantic 0, K=2" 0 --algo gpustm-local --threads 960 --accounts 2048 \
	--hash 4 --tx-per-thread 20 --semantic-ratio 0 --transfers-per-tx 2

# ---- vacation on the GPU, both engines, verified by the replay and STAMP's rules
gpu_vacation() {
	local name=$1 f
	shift
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --workload vacation --reps 2 --warmup 1 --quiet --json "$f" "$@"
	if [ "$RC" != 0 ]; then
		fail "vacation $name: exit 0" "$G stm --backend gpu --workload vacation $*" "$(t_context)"
		return
	fi
	json_check "vacation $name" "$f" '
r = d["results"]; v = d["verification"]; w = d["config"]["vacation"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu"
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == 2
assert r["threads_timed_out"] == 0 and r["threads_gave_up"] == 0
assert r["abandoned"] == r["retry_limit_reached"], (r["abandoned"], r["retry_limit_reached"])
assert r["commits"] + r["abandoned"] == 2 * w["transactions"]
assert r["commits_read_only"] <= 2 * w["queries"] <= r["commits_read_only"] + r["abandoned"]
if r["abandoned"] == 0:
    assert v["reservations"] == 0 and v["rooms_free"] == w["room_types"] * w["rooms"], v'
}
for algo in prstm gpustm gpustm-local; do
	gpu_vacation "$algo, 6720 threads, the paper's sizes" --algo "$algo" --threads 6720 --tx-per-thread 100
	gpu_vacation "$algo, 6720 threads, presort, read-only 20" --algo "$algo" --threads 6720 --tx-per-thread 100 \
		--presort --read-only 20
	gpu_vacation "$algo, 2048 threads, 50 customers, hash 4" --algo "$algo" --threads 2048 --tx-per-thread 20 \
		--customers 50 --room-types 8 --rooms 10 --room-interval 2 --hash 4
	gpu_vacation "$algo, 6720 threads, presort, read-only 20 threads" --algo "$algo" --threads 6720 \
		--tx-per-thread 100 --presort --read-only 20 --read-only-threads
done

# ---- skiplist on the GPU, both engines, verified by the replay on the oracle's own skip list; every set
# capacity (levels 1: 2 words, 2: 4, 4: 8, 5 and 8: 16); rounds verified from the commit counts
gpu_skiplist() {
	local name=$1 f
	shift
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --workload skiplist --reps 2 --warmup 1 --quiet --json "$f" "$@"
	if [ "$RC" != 0 ]; then
		fail "skiplist $name: exit 0" "$G stm --backend gpu --workload skiplist $*" "$(t_context)"
		return
	fi
	json_check "skiplist $name" "$f" '
r = d["results"]; v = d["verification"]; w = d["config"]["skiplist"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu"
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == 2
assert r["threads_timed_out"] == 0 and r["threads_gave_up"] == 0 and r["threads_stalled"] == 0
assert r["abandoned"] == r["retry_limit_reached"], (r["abandoned"], r["retry_limit_reached"])
if r["timed_run"] == "batches":
    assert r["commits"] + r["abandoned"] == 2 * w["transactions"]
if r["abandoned"] == 0:
    assert r["aborts"]["semantic"] == 0, r["aborts"]
    if r["timed_run"] == "batches":
        assert v["keys"] == w["initial_keys"], v'
}
for algo in prstm gpustm gpustm-local; do
	gpu_skiplist "$algo, 6720 threads, the paper's sizes" --algo "$algo" --threads 6720 --tx-per-thread 100
	gpu_skiplist "$algo, 1536 threads, read-only 20, hash 4" --algo "$algo" --threads 1536 --tx-per-thread 100 \
		--read-only 20 --hash 4
	gpu_skiplist "$algo, 1536 threads, read-only 20 threads" --algo "$algo" --threads 1536 --tx-per-thread 100 \
		--read-only 20 --read-only-threads
	limit=()
	[ "$algo" != prstm ] && limit=(--retry-limit 1000000000)
	for levels in 1 2 4 8; do
		gpu_skiplist "$algo, 2048 threads on 64 keys, $levels levels" --algo "$algo" --threads 2048 \
			--tx-per-thread 20 --initial-keys 32 --key-range 64 --capacity 100000 --levels "$levels" \
			--read-only 10 "${limit[@]}"
	done
done
gpu_skiplist "prstm, 6720 threads, 1 s rounds" --algo prstm --threads 6720 --tx-per-thread 100 --duration 1 \
	--read-only 20
gpu_skiplist "prstm, 6720 threads, 1 s rounds, read-only 20 threads" --algo prstm --threads 6720 \
	--tx-per-thread 100 --duration 1 --read-only 20 --read-only-threads

fi # part stm

if part stm-mv; then
# ---- memcached on the GPU: prstm's kernels of 8 and 16 words and of 16 with the read log, gpustm's wide kernel, csmv's and
# jvstm-gpu's; every batch replayed, every set a strict LRU order, csmv's and jvstm-gpu's GET results
# checked at their snapshots
gpu_memcached() {
	local name=$1 f
	shift
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --workload memcached --reps 2 --warmup 1 --quiet --json "$f" "$@"
	if [ "$RC" != 0 ]; then
		fail "memcached $name: exit 0" "$G stm --backend gpu --workload memcached $*" "$(t_context)"
		return
	fi
	json_check "memcached $name" "$f" '
r = d["results"]; v = d["verification"]; w = d["config"]["memcached"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu"
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == 2
assert r["threads_timed_out"] == 0 and r["threads_gave_up"] == 0 and r["threads_stalled"] == 0
assert r["commits"] + r["abandoned"] == 2 * w["transactions"], r
if d["config"]["algo"].startswith(("csmv", "jvstm")):
    assert v["read_only_results_checked"] > 0, v'
}
for ways in 4 8; do
	# the paper's layout (4-word keys, 8-word values): prstm's kernel of 16 words with the read log
	gpu_memcached "prstm, $ways ways, 6720 threads" --algo prstm --ways "$ways" --threads 6720 --tx-per-thread 100
	# the compact layout (one word each): prstm's kernels of 8 and 16 words, gpustm's wide kernel
	gpu_memcached "prstm, compact, $ways ways, 6720 threads" --algo prstm --ways "$ways" --threads 6720 \
		--tx-per-thread 100 --key-words 1 --value-words 1
	for algo in gpustm gpustm-local; do
		gpu_memcached "$algo, compact, $ways ways, 6720 threads" --algo "$algo" --ways "$ways" --threads 6720 \
			--tx-per-thread 100 --retry-limit 1000000000 --key-words 1 --value-words 1
	done
done
for algo in csmv csmv-nocv csmv-onlycs csmv-index jvstm-gpu prstm; do # prstm: its kernel with the read log
	gpu_memcached "$algo, 256 ways, 1792 threads" --algo "$algo" --ways 256 --threads 1792 --block-size 64 \
		--tx-per-thread 100
done
gpu_memcached "prstm, compact, 16 ways (one read past the wide set), 6720 threads" --algo prstm --ways 16 \
	--threads 6720 --tx-per-thread 100 --key-words 1 --value-words 1
gpu_memcached "prstm, 4 sets at half SETs, 2048 threads" --algo prstm --items 16 --ways 4 --keys 24 \
	--set-permille 500 --threads 2048 --tx-per-thread 10

# ---- CSMV, its ablations, JVSTM-GPU and PR-STM (its kernel with the read log) on the bank: the paper's 28
# blocks of 64 clients on 6000 accounts, read-only transactions reading every account; every batch replayed,
# every read-only sum of the multi-versioned engines checked at its snapshot
gpu_csmv() {
	local name=$1 f
	shift
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --reps 2 --warmup 1 --quiet --json "$f" "$@"
	if [ "$RC" != 0 ]; then
		fail "csmv bank $name: exit 0" "$G stm --backend gpu $*" "$(t_context)"
		return
	fi
	json_check "csmv bank $name" "$f" '
r = d["results"]; v = d["verification"]; b = d["config"]["bank"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu"
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == 2
assert r["threads_timed_out"] == 0 and r["threads_gave_up"] == 0 and r["abandoned"] == 0, r
assert r["commits"] == 2 * b["transactions"] and r["commits_read_only"] == 2 * b["read_only_transactions"]
assert v["money_before"] == v["money_after"]
if d["config"]["algo"] == "prstm":
    assert "versions" not in r and "read_only_results_checked" not in v, (r, v)
else:
    # the oracle checks every read-only sum of a batch, or a sample of them spread over its stamps
    assert 0 < v["read_only_results_checked"] <= r["commits_read_only"], v
    assert 1 <= r["versions"]["kept_peak"] <= 8, r["versions"]
if d["config"]["algo"] == "prstm":
    pass
elif d["config"]["algo"].startswith("csmv"):
    cp = r["commit_phases_ns"]
    assert all(x >= 0 for x in cp.values()) and cp["wait_server"] > 0 and cp["server_validation"] > 0, cp
else:
    # jvstm-gpu commits without a server: validation, the record, the write-back; divergence not measured
    cp = r["commit_phases_ns"]
    assert set(cp) == {"divergence", "validation", "record_insert", "write_back"} and cp["divergence"] is None, cp
    assert cp["validation"] > 0 and cp["record_insert"] > 0 and cp["write_back"] > 0, cp'
}
for algo in csmv csmv-nocv csmv-onlycs csmv-index csmv-index-nocv csmv-index-onlycs jvstm-gpu prstm; do
	for ro in 10 50 90; do # exact shares of 10 transactions a thread
		gpu_csmv "$algo, 1792 clients, $ro% read-only of 6000 accounts" --algo "$algo" --threads 1792 \
			--block-size 64 --accounts 6000 --semantic-ratio 0 --read-only "$ro" --read-only-size 6000 \
			--tx-per-thread 20
	done
done
gpu_csmv "csmv, 1792 clients on 64 accounts, K=2" --algo csmv --threads 1792 --block-size 64 --accounts 64 \
	--initial-balance 100000 --semantic-ratio 0 --read-only 10 --transfers-per-tx 2 --tx-per-thread 10
# --duration: csmv's and jvstm-gpu's batches back to back, each from the initial data (every word's
# newest value rebased to timestamp 0 before it starts)
for algo in csmv jvstm-gpu; do
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --algo "$algo" --threads 1792 --block-size 64 --accounts 6000 --semantic-ratio 0 \
		--read-only 10 --read-only-size 6000 --tx-per-thread 20 --duration 1 --reps 1 --warmup 0 --quiet --json "$f"
	if [ "$RC" != 0 ]; then
		fail "$algo --duration 1: exit 0" "$G stm --backend gpu --algo $algo ... --duration 1" "$(t_context)"
	else
		json_check "$algo --duration 1: batches back to back, every one verified" "$f" '
r = d["results"]; v = d["verification"]
assert d["device"]["backend"] == "gpu" and r["timed_run"] == "batches" and r["batches"] >= 2, r
assert v["verified"] is True and v["batches_verified"] == r["batches"] and r["abandoned"] == 0, (r, v)'
	fi
done
# prstm's read log at high contention: inquiries over all 64 accounts against transfers on them
gpu_csmv "prstm, 1792 threads on 64 accounts, inquiries over all of them" --algo prstm --threads 1792 \
	--block-size 64 --accounts 64 --initial-balance 100000 --semantic-ratio 0 --read-only 10 --read-only-size 64 \
	--transfers-per-tx 2 --tx-per-thread 10
# jvstm-gpu at high contention: the ATR's lock taken by lanes of the same warps, reclamation waits
gpu_csmv "jvstm-gpu, 1792 threads on 64 accounts, K=2" --algo jvstm-gpu --threads 1792 --block-size 64 \
	--accounts 64 --initial-balance 100000 --semantic-ratio 0 --read-only 10 --transfers-per-tx 2 \
	--tx-per-thread 10

fi # part stm-mv

if part stm; then
# ---- kmeans and graph on the GPU, both engines: every stage replayed, every pass
# against the serial k-means or the connected components' minima
gpu_staged() {
	local wl=$1 name=$2 f
	shift 2
	n=$((n + 1))
	f=$R/run$n.json
	run "$G" stm --backend gpu --workload "$wl" --reps 2 --warmup 1 --quiet --json "$f" "$@"
	if [ "$RC" != 0 ]; then
		fail "$wl $name: exit 0" "$G stm --backend gpu --workload $wl $*" "$(t_context)"
		return
	fi
	json_check "$wl $name" "$f" '
r = d["results"]; v = d["verification"]; c = d["config"]
assert d["meta"]["complete"] is True and d["device"]["backend"] == "gpu"
assert v["verified"] is True, v["message"]
assert v["batches_verified"] == r["batches"] == r["stages"] and r["passes"] == 2, r
assert r["threads_timed_out"] == 0 and r["threads_gave_up"] == 0 and r["threads_stalled"] == 0
assert r["abandoned"] == 0, r["abandoned"]  # leftovers of a stage run again in the next
if c["workload"] == "kmeans":
    it = c["kmeans"]["reference_iterations"]
    assert v["iterations"] == it and v["points_counted"] == c["kmeans"]["points"], v
else:
    assert v["components"] == c["graph"]["components"] and v["rounds"] >= 2, v'
}
for algo in prstm gpustm gpustm-local; do
	gpu_staged kmeans "$algo, 6720 threads, the paper's sizes" --algo "$algo" --threads 6720
	gpu_staged kmeans "$algo, 2048 threads, 2 clusters, hash 3" --algo "$algo" --threads 2048 --points 100000 \
		--clusters 2 --hash 3
	gpu_staged kmeans "$algo, 6720 threads, a point per transaction" --algo "$algo" --threads 6720 \
		--points 100000 --points-per-tx 1 --iterations 3
	gpu_staged graph "$algo, 6720 threads, the paper's sizes, 15 edges per transaction" --algo "$algo" \
		--threads 6720 --edges-per-tx 15
	gpu_staged graph "$algo, 6720 threads, 1M vertices, all neighbours per transaction" --algo "$algo" \
		--threads 6720 --edges 1500000
	gpu_staged graph "$algo, 1536 threads, 2000 dense vertices, hash 4" --algo "$algo" --threads 1536 \
		--vertices 2000 --edges 50000 --edges-per-tx 7 --hash 4
	gpu_staged graph "$algo, 1536 threads, 2000 vertices, all neighbours, hash 4" --algo "$algo" --threads 1536 \
		--vertices 2000 --edges 3000 --hash 4
	gpu_staged graph "$algo, 6720 threads, 3 edges per transaction" --algo "$algo" --threads 6720 \
		--vertices 100000 --edges 1000000 --edges-per-tx 3
done
# the paper's graph with the paper's transaction (largest degree 46): the kernels of 64 words;
# 2000 vertices of degrees past 16 and 32: prstm's kernels of 32 and 64 words, gpustm's of 64, hash 4
for algo in prstm gpustm gpustm-local; do
	gpu_staged graph "$algo, 6720 threads, the paper's graph, all neighbours per transaction" --algo "$algo" \
		--threads 6720
	gpu_staged graph "$algo, 1536 threads, 2000 vertices, all neighbours past 16 words, hash 4" --algo "$algo" \
		--threads 1536 --vertices 2000 --edges 8000 --hash 4
	gpu_staged graph "$algo, 1536 threads, 2000 vertices, all neighbours past 32 words" --algo "$algo" \
		--threads 1536 --vertices 2000 --edges 30000
done
fi # part stm

if part avoid; then
# ---- gpubench avoid: both GPU implementations decide every event as the
# oracle does and end in its state (exit 4 otherwise), beside the CPU ones.
avoid_same() {
	local name=$1
	shift
	expect_rc "avoid $name: gpu, gpu-thesis, cpu, cpu-fast agree with the oracle" 0 \
		"$G" avoid --impl gpu --compare gpu-thesis,cpu,cpu-fast --reps 1 --quiet --json "$R/avoid.json" "$@"
	json_check "avoid $name: every implementation verified" "$R/avoid.json" '
assert d["verification"]["verified"] is True
for x in d["results"]["impls"]:
    assert x["mismatches"] == 0 and x["final_state_matches"] is True, x["impl"]
assert d["device"]["backend"] == "gpu"'
}
avoid_same "worst case 65x7" --workload worst-case --procs 65 --res 7 --events 6
avoid_same "worst case 1000x33" --workload worst-case --procs 1000 --res 33 --events 4
avoid_same "random 777x129" --workload random --procs 777 --res 129 --events 300 --seed 5
avoid_same "random 3000x1100 (J above one block)" --workload random --procs 3000 --res 1100 --events 60 --seed 6
avoid_same "unsafe-mix 500x64" --workload unsafe-mix --unsafe-share 0.5 --procs 500 --res 64 --events 400 --seed 7
json_check "avoid unsafe-mix: unsafe requests were denied" "$R/avoid.json" '
assert d["results"]["impls"][0]["decisions"]["denied-unsafe"] > 100'
avoid_same "unsafe-mix 2x1" --workload unsafe-mix --unsafe-share 0.9 --procs 2 --res 1 --events 50
avoid_same "random 40x40000 (work[] in global memory)" --workload random --procs 40 --res 40000 --events 30
pba_fan_trace "$R/fan.trace" 30000
avoid_same "30000 candidates at once (two passes of the chain's slots)" --trace "$R/fan.trace"
json_check "avoid fan: two safety iterations a request" "$R/avoid.json" '
assert d["results"]["impls"][0]["safety_steps_max"] == 2'
expect_rc "avoid: the default implementation is gpu when there is a GPU" 0 \
	"$G" avoid --procs 100 --res 10 --events 4 --quiet --json "$R/avoid-default.json"
json_check "avoid: report names gpu and the device" "$R/avoid-default.json" '
assert d["config"]["impl"] == "gpu" and d["device"]["backend"] == "gpu"'
cat > "$R/textbook.trace" <<'TRACE'
# the textbook system: 5 processes, 3 resources
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
release 1 3 0 2
request 4 3 3 0
TRACE
for impl in gpu gpu-thesis; do
	expect_rc "avoid --impl $impl replays the textbook trace" 0 \
		"$G" avoid --impl "$impl" --trace "$R/textbook.trace" --decisions "$R/$impl.dec" --quiet
	check "avoid --impl $impl: the textbook decisions" diff -u "$R/gpu.dec" "$R/$impl.dec"
done
expect_rc "avoid --impl cpu replays the textbook trace" 0 \
	"$G" avoid --impl cpu --trace "$R/textbook.trace" --decisions "$R/cpu.dec" --quiet
check "avoid: gpu decisions equal cpu decisions on the textbook trace" diff -u "$R/cpu.dec" "$R/gpu.dec"
fi # part avoid

if part detect; then
# ---- gpubench detect: every GPU detector decides every event as the oracle
# does (exit 3 otherwise), and its decisions equal cpu-bits' line by line.
detect_same() {
	local name=$1 algo=$2
	shift 2
	expect_rc "detect $algo $name: gpu, gpu-graph, gpu-initial, gpu-stream, gpu-event, cpu-bits agree with the oracle" 0 \
		"$G" detect --algo "$algo" --impl gpu --compare gpu-graph,gpu-initial,gpu-stream,gpu-event,cpu-bits --reps 1 \
		--verify-every 1 --quiet --json "$R/detect.json" --decisions "$R/detect-gpu.dec" "$@"
	json_check "detect $algo $name: every detector verified on every event" "$R/detect.json" '
v = d["verification"]
assert v["verified"] is True and v["events_checked"] == d["config"]["events"], v
assert [x["impl"] for x in d["results"]["impls"]] == ["gpu", "gpu-graph", "gpu-initial", "gpu-stream", "gpu-event", "cpu-bits"]
for x in d["results"]["impls"]:
    assert x["mismatches"] == 0, x["impl"]
assert d["device"]["backend"] == "gpu"'
	expect_rc "detect $algo $name: cpu-bits decisions" 0 "$G" detect --algo "$algo" --impl cpu-bits \
		--reps 1 --quiet --decisions "$R/detect-cpu.dec" "$@"
	check "detect $algo $name: gpu decisions equal cpu-bits decisions" diff -u "$R/detect-cpu.dec" "$R/detect-gpu.dec"
}
detect_same "1x1" osdda --procs 1 --res 1 --events 50
detect_same "7x5" osdda --procs 7 --res 5 --events 2000 --deadlock-share 0.2 --seed 3
detect_same "33x31" osdda --procs 33 --res 31 --events 3000 --deadlock-share 0.1 --seed 4
detect_same "100x17" osdda --procs 100 --res 17 --events 3000 --seed 5
detect_same "17x100" osdda --procs 17 --res 100 --events 3000 --seed 6
detect_same "1000x1000" osdda --procs 1000 --res 1000 --events 4000 --seed 7
detect_same "2049x513 (rows of 65 words)" osdda --procs 2049 --res 513 --events 3000 --seed 8
detect_same "5000x9000 (rows beyond a block)" osdda --procs 5000 --res 9000 --events 2000 --seed 9
detect_same "1x1" lmdda --procs 1 --res 1 --units 2 --events 50
detect_same "7x5 units 1-3" lmdda --procs 7 --res 5 --units 1-3 --events 1500 --deadlock-share 0.2 --seed 3
detect_same "33x31 units 1" lmdda --procs 33 --res 31 --units 1 --events 1500 --deadlock-share 0.1 --seed 4
detect_same "65x63 units 1-4" lmdda --procs 65 --res 63 --units 1-4 --events 1500 --seed 5
detect_same "129x127 units 2" lmdda --procs 129 --res 127 --units 2 --events 1000 --seed 6
detect_same "300x40 units 1-2" lmdda --procs 300 --res 40 --units 1-2 --events 1000 --seed 7
expect_rc "detect lmdda 1025x1100 (beyond the thesis's 1024): gpu and gpu-graph verified" 0 \
	"$G" detect --algo lmdda --impl gpu --compare gpu-graph,cpu-bits --procs 1025 --res 1100 --units 1-3 \
	--events 600 --reps 1 --quiet --json "$R/detect-big.json"
json_check "detect lmdda 1025x1100: no mismatch" "$R/detect-big.json" '
assert d["verification"]["verified"] is True
assert all(x["mismatches"] == 0 for x in d["results"]["impls"])'
# The thesis's protocol (the default without --events): OSDDA times the build of the RAG, LMDDA one
# release that recomputes reachability after it; every GPU detector beside the serial CPU ones.
for a in "osdda --procs 512 --res 512" "lmdda --procs 64 --res 64 --units 1-4"; do
	read -r -a targs <<<"$a"
	expect_rc "detect ${targs[0]} thesis protocol: the GPU detectors and cpu-serial, verified" 0 \
		"$G" detect --algo "${targs[@]}" --impl gpu --compare gpu-graph,gpu-initial,gpu-stream,cpu-serial,cpu-bits \
		--reps 2 --quiet --json "$R/detect-thesis.json"
	json_check "detect ${targs[0]} thesis protocol: every detector verified, the timed events as documented" \
		"$R/detect-thesis.json" '
c = d["config"]
assert c["protocol"] == "thesis" and d["verification"]["verified"] is True, (c, d["verification"])
assert all(x["mismatches"] == 0 for x in d["results"]["impls"])
assert (c["algo"] == "osdda" and c["timed_events"] == c["procs"] + c["res"]) or \
    (c["algo"] == "lmdda" and c["timed_events"] == 1), c'
done
# gpu-stream: state in shared memory up to its limit and in global memory past it, entries of 16
# bits and (past 65534 processes or resources) of 32, windows of events beyond one launch, and the
# decisions equal cpu-bits' line by line.
detect_stream() {
	local name=$1 algo=$2
	shift 2
	expect_rc "detect $algo $name: gpu-stream agrees with the oracle" 0 \
		"$G" detect --algo "$algo" --impl gpu-stream --compare cpu-bits --reps 2 --quiet \
		--json "$R/detect-stream.json" --decisions "$R/detect-stream.dec" "$@"
	json_check "detect $algo $name: gpu-stream verified on every event" "$R/detect-stream.json" '
v = d["verification"]
assert v["verified"] is True and v["events_checked"] == d["config"]["events"], v
assert all(x["mismatches"] == 0 for x in d["results"]["impls"])
assert d["results"]["impls"][0]["event_seconds"]["granted"]["n"] == 0'
	expect_rc "detect $algo $name: cpu-bits decisions" 0 "$G" detect --algo "$algo" --impl cpu-bits \
		--reps 1 --quiet --decisions "$R/detect-cpu.dec" "$@"
	check "detect $algo $name: gpu-stream decisions equal cpu-bits decisions" \
		diff -u "$R/detect-cpu.dec" "$R/detect-stream.dec"
}
detect_stream "8192x8192 (state in shared memory)" osdda --procs 8192 --res 8192 --events 20000 --seed 11
detect_stream "20000x20000 (16-bit entries, state in shared memory)" osdda --procs 20000 --res 20000 \
	--events 20000 --seed 12
detect_stream "30000x30000 (16-bit entries, state in global memory)" osdda --procs 30000 --res 30000 \
	--events 20000 --seed 18
detect_stream "70000x70000 (32-bit entries, state in global memory)" osdda --procs 70000 --res 70000 \
	--events 20000 --seed 19
detect_stream "500x500, 1.2M events (two windows)" osdda --procs 500 --res 500 --events 1200000 \
	--deadlock-share 0.1 --seed 13
detect_stream "1024x1024 units 1-4" lmdda --procs 1024 --res 1024 --units 1-4 --events 20000 --seed 14
detect_stream "4096x4096 units 1-4 (state in shared memory)" lmdda --procs 4096 --res 4096 --units 1-4 \
	--events 20000 --seed 15
detect_stream "8192x8192 units 1-4 (16-bit entries, state in shared memory)" lmdda --procs 8192 --res 8192 --units 1-4 \
	--events 20000 --seed 16
detect_stream "16384x16384 units 1-4 (16-bit entries, state in global memory)" lmdda --procs 16384 \
	--res 16384 --units 1-4 --events 20000 --seed 20
detect_stream "70000x1024 units 1-4 (32-bit entries)" lmdda --procs 70000 --res 1024 --units 1-4 \
	--events 20000 --seed 21
detect_stream "300x300 units 1-40, 1.2M events (two windows)" lmdda --procs 300 --res 300 --units 1-40 \
	--events 1200000 --deadlock-share 0.1 --seed 17
expect_rc "detect lmdda 20x20: gpu agrees with the thesis's cpu" 0 \
	"$G" detect --algo lmdda --impl gpu --compare cpu --procs 20 --res 20 --units 1-2 --events 800 --reps 1 --quiet
expect_rc "detect: the default detector is gpu when there is a GPU" 0 \
	"$G" detect --procs 50 --res 50 --events 100 --reps 1 --quiet --json "$R/detect-default.json"
json_check "detect: report names gpu and the device" "$R/detect-default.json" '
assert d["config"]["impl"] == "gpu" and d["device"]["backend"] == "gpu"
assert d["results"]["impls"][0]["matrix_bytes"] > 0'
expect_rc "detect: matrices that cannot fit exit 1 before allocating" 1 \
	"$G" detect --impl gpu-initial --procs 1048576 --res 1048576 --events 1 --reps 1 --quiet
expect_err "detect: the message gives required and available memory" "of device memory but only"
fi # part detect

if part speculate; then
# ---- gpubench speculate: every loop under every --opt on the GPU, verified
# bit for bit against the sequential loop (exit 3 otherwise), and the same
# assignments, misspeculations and copies back as the CPU backend: detection
# reads addresses and branch conditions, never raced values, so both must
# agree (the CPU backend uses the inputs in place, so only copies to the
# device differ).
spec_same() {
	local name=$1 b
	shift
	for b in gpu cpu; do
		run "$G" speculate --backend "$b" --reps 1 --quiet --json "$R/spec-$b.json" "$@"
		if [ "$RC" != 0 ]; then
			fail "speculate $name: $b exits 0" "$G speculate --backend $b $*" "$(t_context)"
			return
		fi
	done
	json_check "speculate $name: gpu verified, same decisions as cpu" "$R/spec-gpu.json" '
import json
c = json.load(open("'"$R/spec-cpu.json"'"))
assert d["device"]["backend"] == "gpu" and d["verification"]["verified"] is True
for k in ("assignments", "assignments_misspeculated", "iterations_reexecuted", "iterations_deferred",
          "wrong_elements", "detections", "raw_war_assignments", "waw_assignments",
          "bytes_from_device", "assignment_min", "assignment_max"):
    assert d["results"][k] == c["results"][k], (k, d["results"][k], c["results"][k])'
}
for loop in ocean trfd fftbench mdg strcat gothic alvinn chain figure3; do
	for opt in all no-mo no-co no-sched none; do
		spec_same "$loop $opt" --loop "$loop" --opt "$opt" --iters 30000 --density 0.01 --seed 4
	done
done
spec_same "ocean, one-iteration assignments" --loop ocean --iters 3000 --max-assignment 1
spec_same "ocean, shorter than one assignment" --loop ocean --iters 5 --work 1
spec_same "figure3, dense: 16 iterations per element" --loop figure3 --iters 50000 --density 16 \
	--opt no-sched --max-assignment 4096
spec_same "chain, Figure 6(a) at density 0.3" --loop chain --iters 100000 --density 0.3
spec_same "alvinn, Figure 6(b) at density 0.3" --loop alvinn --iters 20000 --density 0.3
spec_same "gothic, Figure 6(c) with a range clause" --loop gothic --iters 50000 --clause "(-1:end)"
for loop in gothic strcat mdg; do
	spec_same "$loop, the lookahead" --loop "$loop" --schedule lookahead --iters 60000 --density 0.01 --seed 4
done
spec_same "gothic, the lookahead at the default size" --loop gothic --schedule lookahead
spec_same "ocean at its default size (commit and recovery on the device)" --loop ocean
spec_same "ocean in one assignment (replay levels of a launch each)" --loop ocean --iters 200000 \
	--opt no-sched
spec_same "mdg at its default size" --loop mdg
# Device-decided rounds: batches of up to 4096 rounds in one block, and wide rounds, one
# launch each, when the interval schedule outgrows a block (strcat's growing buffer).
spec_same "gothic at its default size (device-decided rounds)" --loop gothic
spec_same "strcat at its default size (rounds in one block, then wide rounds)" --loop strcat
spec_same "gothic, rounds with heavier iterations" --loop gothic --iters 200000 --work 64 \
	--density 0.05
expect_rc "speculate: a wrong clause fails verification on the GPU" 3 \
	"$G" speculate --backend gpu --loop gothic --iters 30000 --clause "(+1)" --reps 1 --quiet
expect_rc "speculate: fftbench against gpu-nospec and cpu-spec" 0 \
	"$G" speculate --backend gpu --loop fftbench --compare seq,cpu-spec,gpu-nospec --reps 2 --quiet \
	--json "$R/spec-cmp.json"
json_check "speculate: every baseline verified" "$R/spec-cmp.json" '
assert all(b["verified"] is True for b in d["results"]["baselines"])
assert d["results"]["baselines"][2]["backend"] == "gpu"'
# The paper's CPU baseline beside a GPU run, on a memory and a control-flow loop: cpu-tm runs on
# the host's cores whatever the backend, and is verified like the GPU run.
for loop in ocean gothic; do
	expect_rc "speculate: $loop against cpu-tm and cpu-spec" 0 \
		"$G" speculate --backend gpu --loop "$loop" --iters 100000 --compare seq,cpu-tm,cpu-spec --reps 2 \
		--quiet --json "$R/spec-tm-$loop.json"
	json_check "speculate: $loop's cpu-tm verified, on the CPU, every abort one more run" "$R/spec-tm-$loop.json" '
b = {x["name"]: x for x in d["results"]["baselines"]}
assert all(x["verified"] is True for x in b.values()) and d["verification"]["verified"] is True
t = b["cpu-tm"]
assert t["backend"] == "cpu" and t["iterations_speculated"] == d["config"]["iters"] + t["iterations_reexecuted"]'
done
fi # part speculate

if part list; then
# ---- gpubench list: both GPU lists on every workload, each repetition
# verified by the per-thread replay, beside the CPU lock-free lists.
list_gpu() {
	local name=$1
	shift
	expect_rc "list $name: gpu, gpu-tail, cpu-lockfree-tail verified" 0 \
		"$G" list --impl gpu --compare gpu-tail,cpu-lockfree-tail --reps 2 --quiet --json "$R/list.json" "$@"
	json_check "list $name: every implementation verified on the GPU" "$R/list.json" '
assert d["verification"]["verified"] is True and d["device"]["backend"] == "gpu"
counts = d["config"]["op_counts"]
for x in d["results"]["impls"]:
    assert x["verified"] is True and x["run_seconds"]["median"] > 0, x["impl"]
    assert x["heap"]["live_blocks"] == x["list_nodes"] + x["nodes_in_deletion"]
    # every operation counted its walks: a get or delete reads a next word at least
    st = x["op_steps"]
    assert all(st[k]["n"] == counts[k] for k in ("add", "get", "delete")), (x["impl"], st)
    assert all(counts[k] == 0 or st[k]["min"] >= 1 for k in ("get", "delete")), (x["impl"], st)'
}
list_gpu "insert 4096" --op insert --nodes 4096
list_gpu "insert 20000 by 1000 threads" --op insert --nodes 20000 --threads 1000
list_gpu "delete 4096 adjacent" --op delete --nodes 4096
list_gpu "mixed 2000 x 50000 ops, 4096 threads" --op mixed --nodes 2000 --threads 4096 --ops 50000 --seed 3
list_gpu "mixed 100 keys, 320 threads (contention)" --op mixed --nodes 100 --threads 320 --ops 32000 --seed 4
list_gpu "insert 100000 into a 4-superblock heap (exhaustion)" --op insert --nodes 100000 --superblocks 4
json_check "list exhaustion: 768 nodes fit, the rest are failed allocations" "$R/list.json" '
for x in d["results"]["impls"]:
    assert x["list_nodes"] == 768 and x["failed_allocs"] == 100000 - 768, x["impl"]'
expect_rc "list: gpu-tail inserts a million nodes" 0 "$G" list --impl gpu-tail --op insert --nodes 1000000 \
	--threads 1000000 --reps 2 --quiet --json "$R/list-1m.json"
json_check "list: a million nodes, verified" "$R/list-1m.json" '
x = d["results"]["impls"][0]
assert d["verification"]["verified"] is True and x["list_nodes"] == 1000000'
# The OpenCL list on the GPU (Table 1's OpenCL GPU column): NVIDIA's OpenCL, registered with the
# ICD loader for these runs by scripts/opencl-icd.sh where the system does not list it.
if grep -q '^list implementation opencl:' <<<"$("$G" info)"; then
	icd=$(bash scripts/opencl-icd.sh) && icd_rc=0 || icd_rc=$?
	if [ "$icd_rc" = 0 ]; then
		saved_vendors=${OCL_ICD_VENDORS-unset}
		eval "$icd"
		expect_rc "list: opencl runs on the NVIDIA GPU through its OpenCL, mixed, verified" 0 \
			"$G" list --impl opencl --op mixed --nodes 2000 --threads 4096 --ops 40000 --reps 2 --quiet \
			--json "$R/list-cl.json"
		json_check "list: opencl names the NVIDIA platform, a GPU device and its driver" "$R/list-cl.json" '
x = d["results"]["impls"][0]["opencl"]
assert "nvidia" in (x["platform"] + x["vendor"]).lower() and x["device_type"] == "gpu", x
assert x["driver_version"] and x["device"], x
assert d["verification"]["verified"] is True'
		expect_rc "list: opencl, opencl-cpu and cpu insert 2048 nodes (Table 1's columns), verified" 0 \
			"$G" list --impl opencl --compare opencl-cpu,cpu --op insert --nodes 2048 --reps 2 --quiet \
			--json "$R/list-cl-t1.json"
		expect_rc "list: --opencl-platform NVIDIA picks it by name" 0 "$G" list --impl opencl \
			--opencl-platform nvidia --nodes 256 --reps 1 --quiet
		if [ "$saved_vendors" = unset ]; then unset OCL_ICD_VENDORS; else export OCL_ICD_VENDORS=$saved_vendors; fi
	else
		echo "check-gpu: no libnvidia-opencl.so.1 here: the OpenCL GPU runs are skipped"
	fi
fi
expect_rc "list: the default implementation is gpu when there is a GPU" 0 \
	"$G" list --nodes 256 --reps 1 --quiet --json "$R/list-default.json"
json_check "list: report names gpu" "$R/list-default.json" '
assert d["config"]["impl"] == "gpu" and d["device"]["backend"] == "gpu"'
fi # part list

if part reliability; then
# ---- reliability on the GPU: a CUDA error in the middle of a run (injected with
# GPUBENCH_TEST_FAULT=1: the first checked CUDA call after one timed repetition fails) ends the
# run with the error named, exit 1, the finished repetition shown as incomplete and a report
# already at the --json path untouched; two gpubench processes share one GPU and both verify;
# --timeout and SIGINT end GPU runs with the report of what finished.
for fault in "stm --backend gpu --threads 6720 --tx-per-thread 100 --reps 3 --warmup 0" \
	"avoid --impl gpu --procs 512 --res 64 --events 40 --reps 3" \
	"detect --impl gpu --procs 256 --res 256 --events 400 --reps 3" \
	"speculate --backend gpu --loop ocean --iters 200000 --reps 3" \
	"list --impl gpu --nodes 2048 --reps 3"; do
	# shellcheck disable=SC2086
	set -- $fault
	echo '{"an": "earlier report"}' >"$R/fault-$1.json"
	cp "$R/fault-$1.json" "$R/fault-$1.before"
	expect_rc "$1: a CUDA error after the first repetition exits 1" 1 \
		env GPUBENCH_TEST_FAULT=1 timeout 300 "$G" "$@" --json "$R/fault-$1.json"
	expect_err "$1: the CUDA error is named" "CUDA error while" "injected by GPUBENCH_TEST_FAULT" \
		"no report was written"
	expect_out "$1: the finished repetition is shown, marked incomplete" "(median of 1)" \
		"incomplete   a runtime failure: the numbers cover what finished"
	check "$1: the report already at --json is untouched" cmp -s "$R/fault-$1.json" "$R/fault-$1.before"
done
check "a CUDA error leaves no temporary report" test -z "$(find "$R" -name 'fault-*.tmp.*')"

# two processes on one GPU: each verified, each complete
"$G" stm --backend gpu --threads 6720 --reps 5 --quiet --json "$R/shared-a.json" &
shared_a=$!
"$G" stm --backend gpu --threads 6720 --reps 5 --compare gpustm --quiet --json "$R/shared-b.json" &
shared_b=$!
wait "$shared_a"
rc_a=$?
wait "$shared_b"
rc_b=$?
check "two stm runs sharing the GPU both exit 0" test "$rc_a$rc_b" = 00
for f in shared-a shared-b; do
	json_check "$f: verified and complete beside another process on the GPU" "$R/$f.json" '
assert d["meta"]["complete"] is True and d["verification"]["verified"] is True, d["verification"]
assert d["device"]["backend"] == "gpu" and d["results"]["abandoned"] == 0'
done
"$G" list --impl gpu --op mixed --nodes 20000 --threads 65536 --reps 3 --quiet --json "$R/shared-list.json" &
shared_a=$!
"$G" avoid --impl gpu --procs 2048 --res 256 --events 40 --reps 3 --quiet --json "$R/shared-avoid.json"
rc_b=$?
wait "$shared_a"
check "list and avoid sharing the GPU both exit 0" test "$?$rc_b" = 00

# --timeout bounds generation and the run (the H100 took 48.6 s for this at --timeout 5)
t0=$(date +%s)
expect_rc "stm --threads 524288 --timeout 5 exits 1" 1 "$G" stm --backend gpu --threads 524288 --timeout 5 \
	--quiet --json "$R/big-timeout.json"
check "stm --threads 524288 --timeout 5 ends within 20 s" test $(($(date +%s) - t0)) -lt 20
json_check "stm --threads 524288 --timeout 5: the report says so" "$R/big-timeout.json" '
assert d["meta"]["complete"] is False and d["meta"]["stopped_by"] == "timeout", d["meta"]'
# a list that cannot finish in a lifetime is said to before it starts
t0=$(date +%s)
expect_rc "list --impl gpu --nodes 200000000 --timeout 5 exits 1" 1 "$G" list --impl gpu --op insert \
	--nodes 200000000 --timeout 5 --quiet --json "$R/list-forever.json"
expect_err "list --nodes 200000000 warns before the run" "gpu needs at least" "will cut the run short"
check "list --nodes 200000000 --timeout 5 ends within 20 s" test $(($(date +%s) - t0)) -lt 20
# SIGINT ends a GPU run the way --timeout does
"$G" stm --backend gpu --threads 6720 --reps 100000 --warmup 0 --quiet --json "$R/sigint.json" \
	2>"$T_TMP/sigint.err" &
sig_pid=$!
sleep 5
t0=$(date +%s)
kill -INT "$sig_pid"
wait "$sig_pid"
check "SIGINT during a GPU run exits 1" test $? = 1
check "SIGINT ends the GPU run within 15 s" test $(($(date +%s) - t0)) -lt 15
json_check "SIGINT: the report of what finished, marked incomplete" "$R/sigint.json" '
assert d["meta"]["complete"] is False and d["meta"]["stopped_by"] == "SIGINT", d["meta"]
assert d["results"]["reps_completed"] >= 1 and d["verification"]["verified"] is True'
fi # part reliability

echo "check-gpu: $n GPU bank runs and the cross checks took $(($(date +%s) - start)) s"
summary check-gpu
