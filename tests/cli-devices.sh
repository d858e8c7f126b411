#!/usr/bin/env bash
# CLI tests of choosing and naming where a run happens, on a machine without a
# GPU: --device on every subcommand that runs (used, refused or recorded as
# unused), CUDA_VISIBLE_DEVICES recorded, the NVIDIA driver read through NVML
# when a libnvidia-ml.so.1 is there (a stand-in built from tests/stub/) and its
# absence said otherwise, and the CPUs a process may use (taskset) as the CPU
# baselines' default and in the report. GPUBENCH names the CUDA build (default
# ./gpubench), GPUBENCH_NOCUDA the CPU-only one (default build/nocuda/gpubench;
# skipped when absent). Last line: "cli-devices: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
GN=${GPUBENCH_NOCUDA:-build/nocuda/gpubench}
if [ ! -x "$G" ]; then
	echo "cli-devices: $G is not an executable (set GPUBENCH)"
	echo "cli-devices: 0 passed, 1 failed"
	exit 1
fi
R=$T_TMP/out
mkdir -p "$R"
STM=(stm --backend cpu --threads 8 --accounts 64 --tx-per-thread 6 --reps 1)
cuda_build=$("$G" info --quiet --json - | python3 -c 'import json, sys; print(int("gpu" in json.load(sys.stdin)["backends"]))')
ngpus=$("$G" info --quiet --json - | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["devices"]))')

# ---------------------------------------------------------------- --device, a shared row
for sub in stm avoid detect speculate list; do
	expect_rc "$sub --help exits 0" 0 "$G" "$sub" --help
	expect_out "$sub --help lists --device among the common options" "--device N" "CUDA_VISIBLE_DEVICES"
	expect_rc "$sub --device x exits 2" 2 "$G" "$sub" --device x
	expect_err "$sub --device x names the option" "option --device" "'x'"
	expect_rc "$sub --device 1024 exits 2" 2 "$G" "$sub" --device 1024
done
for sub in compare info; do
	run "$G" "$sub" --help
	check "$sub has no --device (it runs nothing on a device)" test -z "$(grep -- '--device' "$T_OUT")"
done

# ---------------------------------------------------------------- --device where there is no GPU
if [ "$cuda_build" = 1 ] && [ "$ngpus" = 0 ]; then
	expect_rc "stm --device 1 --backend cpu runs" 0 "$G" "${STM[@]}" --device 1 --json "$R/cpu-dev.json"
	expect_err "it says on stderr that --device was not used" "note: --device 1 is not used: the run is on the CPU"
	json_check "the report records the unused --device in meta.warnings" "$R/cpu-dev.json" '
assert "--device 1 was not used: the run is on the CPU" in d["meta"]["warnings"], d["meta"]["warnings"]
assert d["device"]["backend"] == "cpu" and "uuid" not in d["device"], d["device"]
assert "device" not in d["config"], d["config"]'
	expect_rc "avoid --impl cpu-fast --device 0 runs and records it unused" 0 "$G" avoid --impl cpu-fast \
		--procs 16 --res 4 --events 10 --reps 1 --device 0 --quiet --json "$R/avoid-dev.json"
	json_check "avoid's report says --device 0 was not used" "$R/avoid-dev.json" '
assert any("--device 0 was not used" in w for w in d["meta"]["warnings"]), d["meta"]["warnings"]'
	expect_rc "stm --device 0 --backend gpu without a GPU exits 1" 1 "$G" stm --backend gpu --device 0 --threads 8
	expect_rc "a run without --device records no warning about it" 0 "$G" "${STM[@]}" --quiet --json "$R/cpu.json"
	json_check "no --device, no warning" "$R/cpu.json" '
assert not any("--device" in w for w in d["meta"]["warnings"]), d["meta"]["warnings"]'
fi
if [ -x "$GN" ]; then
	expect_rc "CPU-only build: stm --device 0 exits 2" 2 "$GN" "${STM[@]}" --device 0
	expect_err "CPU-only build: --device says the build has no device to choose" \
		"option --device: this gpubench was built without CUDA"
	expect_rc "CPU-only build: list --device 0 exits 2 as well" 2 "$GN" list --impl cpu --nodes 16 --device 0
	expect_rc "CPU-only build: without --device the run goes on" 0 "$GN" "${STM[@]}" --quiet
fi

# ---------------------------------------------------------------- CUDA_VISIBLE_DEVICES and NVML in info
expect_rc "info --json with CUDA_VISIBLE_DEVICES=1,0 exits 0" 0 env CUDA_VISIBLE_DEVICES=1,0 "$G" info --quiet --json "$R/info-vis.json"
json_check "info records CUDA_VISIBLE_DEVICES as it was" "$R/info-vis.json" '
assert d["cuda_visible_devices"] == "1,0", d["cuda_visible_devices"]'
expect_rc "info shows CUDA_VISIBLE_DEVICES" 0 env CUDA_VISIBLE_DEVICES=1,0 "$G" info
expect_out "info's listing has CUDA_VISIBLE_DEVICES" "CUDA_VISIBLE_DEVICES=1,0"
expect_rc "info --json without CUDA_VISIBLE_DEVICES exits 0" 0 env -u CUDA_VISIBLE_DEVICES "$G" info --quiet --json "$R/info.json"
json_check "info: CUDA_VISIBLE_DEVICES unset is null" "$R/info.json" '
assert d["cuda_visible_devices"] is None, d["cuda_visible_devices"]'
if [ -z "$(ldconfig -p 2>/dev/null | grep libnvidia-ml.so.1)" ]; then
	json_check "info without NVML: no driver version, and why" "$R/info.json" '
assert d["driver_version"] is None and "libnvidia-ml.so.1" in d["nvml_error"], d'
	run "$G" info
	expect_out "info's listing says the driver is unknown and why" "NVIDIA driver: unknown (NVML not loaded: "
fi
# A stand-in libnvidia-ml.so.1: the driver's version as it prints it, and a failing nvmlInit.
stub=$T_TMP/nvml
mkdir -p "$stub"
if ${CC:-cc} -shared -fPIC -o "$stub/libnvidia-ml.so.1" "$here/stub/nvml_stub.c" 2>"$T_TMP/cc.log"; then
	for bin in "$G" "$GN"; do
		[ -x "$bin" ] || continue
		expect_rc "info with NVML exits 0 ($bin)" 0 env LD_LIBRARY_PATH="$stub" "$bin" info
		expect_out "info names the driver as it prints its version ($bin)" "NVIDIA driver: 580.159.04 (NVML)"
		expect_rc "info --json with NVML exits 0 ($bin)" 0 env LD_LIBRARY_PATH="$stub" "$bin" info --quiet --json "$R/info-nvml.json"
		json_check "info JSON: driver_version from NVML ($bin)" "$R/info-nvml.json" '
assert d["driver_version"] == "580.159.04" and "nvml_error" not in d, d'
	done
	expect_rc "info when nvmlInit fails exits 0" 0 env LD_LIBRARY_PATH="$stub" NVML_STUB_INIT_FAILS=1 "$G" info --quiet --json "$R/info-noinit.json"
	json_check "info says why NVML is not usable" "$R/info-noinit.json" '
assert d["driver_version"] is None and d["nvml_error"] == "nvmlInit: Driver Not Loaded", d'
else
	fail "the NVML stand-in compiles" "$(cat "$T_TMP/cc.log")"
fi

# ---------------------------------------------------------------- the CPUs a process may use
if command -v taskset >/dev/null 2>&1; then
	first=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
	for bin in "$G" "$GN"; do
		[ -x "$bin" ] || continue
		expect_rc "stm under taskset -c $first exits 0 ($bin)" 0 taskset -c "$first" "$bin" "${STM[@]}" --quiet --json "$R/stm-1cpu.json"
		json_check "stm under taskset: one usable CPU, one CPU worker ($bin)" "$R/stm-1cpu.json" '
dev = d["device"]
assert dev["cpus_usable"] == 1 and dev["cpu_affinity"] == "'"$first"'", dev
assert dev["cpu_workers"] == 1, dev
assert dev["cpu_logical_cores"] >= 1, dev'
		expect_rc "speculate under taskset exits 0 ($bin)" 0 taskset -c "$first" "$bin" speculate --loop ocean \
			--iters 2000 --backend cpu --compare cpu-spec --reps 1 --quiet --json "$R/spec-1cpu.json"
		json_check "speculate under taskset: its CPU baselines get one worker ($bin)" "$R/spec-1cpu.json" '
assert d["config"]["cpu_workers"] == 1 and d["device"]["cpus_usable"] == 1, (d["config"], d["device"])'
		expect_rc "list under taskset exits 0 ($bin)" 0 taskset -c "$first" "$bin" list --impl cpu-lockfree \
			--nodes 128 --reps 1 --quiet --json "$R/list-1cpu.json"
		json_check "list under taskset: cpu-lockfree gets one worker ($bin)" "$R/list-1cpu.json" '
assert d["config"]["cpu_workers"] == 1, d["config"]'
		expect_rc "--cpu-workers still overrides the default ($bin)" 0 taskset -c "$first" "$bin" "${STM[@]}" \
			--cpu-workers 2 --quiet --json "$R/stm-2w.json"
		json_check "--cpu-workers 2 under taskset -c $first gives 2 workers ($bin)" "$R/stm-2w.json" '
assert d["device"]["cpu_workers"] == 2 and d["device"]["cpus_usable"] == 1, d["device"]'
	done
	expect_rc "info under taskset exits 0" 0 taskset -c "$first" "$G" info
	expect_out "info's host line says how many CPUs this process may use" "this process may use 1 (affinity $first, "
fi
expect_rc "a report without taskset exits 0" 0 "$G" "${STM[@]}" --quiet --json "$R/stm-all.json"
json_check "without taskset the usable CPUs are the affinity mask's (as Python sees it)" "$R/stm-all.json" '
import os
dev = d["device"]
assert dev["cpus_usable"] <= len(os.sched_getaffinity(0)) and dev["cpus_usable"] >= 1, dev
assert dev["cpu_workers"] == min(dev["cpus_usable"], 8), dev
assert "cgroup_cpu_quota" in dev, dev'

summary cli-devices
