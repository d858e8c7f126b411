#!/usr/bin/env bash
# A stand-in for gpubench on a machine with GPUs, for the tests of the sweeps'
# --gpus (tests/sweep-gpus.sh) on one without: a run (one with --json FILE) drops
# its --device N and runs on the CPU (--backend gpu becomes cpu) with the
# real binary, then its report's meta.argv is made what the real binary would
# have recorded (--device and --backend as asked). An option given again (a test's
# smaller --threads after the suite's) replaces its earlier value, since the
# real binary refuses an option given twice. Everything else goes to the real
# binary unchanged. The environment:
#   FAKE_GPUBENCH       the real binary
#   FAKE_GPUS_RECORD    a file that gets "start DEVICE NAME TIME" and "end DEVICE
#                       NAME TIME" for every run (DEVICE "-" without --device;
#                       NAME the report's file name; TIME seconds since the epoch)
#   FAKE_GPUS_SLEEP     seconds each run lasts at least (default 0)
#   FAKE_GPUS_FAIL      a run whose report path contains this text exits 1
#   FAKE_GPUS_HANG      a run whose report path contains this text first sleeps 20 s
#                       (SIGINT does not stop it: a script's background job ignores it)
set -u
real=${FAKE_GPUBENCH:?FAKE_GPUBENCH names the real gpubench}
device=- json="" prev=""
args=()
for a in "$@"; do
	case $prev in
	--device) device=$a; prev=""; continue ;;
	--json) json=$a ;;
	esac
	prev=$a
	[[ $a == --device ]] && continue
	args+=("$a")
done
[[ -n $json && $json != - ]] || exec "$real" "$@"
for i in "${!args[@]}"; do
	[[ ${args[i]} == gpu && ${args[i - 1]:-} == --backend ]] && args[i]=cpu
done
# the last value of an option given twice, at its first place
declare -A at=()
kept=()
i=0
while ((i < ${#args[@]})); do
	a=${args[i]}
	if [[ $a == --* && $((i + 1)) -lt ${#args[@]} && ${args[i + 1]} != --* ]]; then
		if [[ -n ${at[$a]:-} ]]; then
			kept[at[$a] + 1]=${args[i + 1]}
		else
			at[$a]=${#kept[@]}
			kept+=("$a" "${args[i + 1]}")
		fi
		i=$((i + 2))
	else
		kept+=("$a")
		i=$((i + 1))
	fi
done
args=("${kept[@]}")
name=$(basename "$json" .json)
echo "start $device $name $(date +%s.%N)" >>"${FAKE_GPUS_RECORD:?}"
sleep "${FAKE_GPUS_SLEEP:-0}"
[[ -z ${FAKE_GPUS_HANG:-} || $json != *"$FAKE_GPUS_HANG"* ]] || sleep 20
rc=0
if [[ -n ${FAKE_GPUS_FAIL:-} && $json == *"$FAKE_GPUS_FAIL"* ]]; then
	echo "gpubench: error: CUDA error: an illegal memory access was encountered (fake)" >&2
	rc=1
else
	"$real" "${args[@]}" || rc=$?
fi
if [[ $rc == 0 ]]; then
	python3 - "$json" "$@" <<'PY' || rc=1
import json, sys
path, argv = sys.argv[1], sys.argv[2:]
with open(path) as f:
    doc = json.load(f)
doc["meta"]["argv"] = argv
with open(path, "w") as f:
    json.dump(doc, f)
PY
fi
echo "end $device $name $(date +%s.%N)" >>"$FAKE_GPUS_RECORD"
exit "$rc"
