# shellcheck shell=bash
# Shared helpers of the gpubench shell tests (tests/cli.sh, tests/run.sh,
# tests/gpu/check.sh). Source it; it needs bash and, for JSON, python3.
#
#   t_init                     make $T_TMP (removed on exit)
#   pass NAME / fail NAME [WHY]
#   check NAME CMD...          pass when CMD succeeds
#   run CMD...                 run CMD, stdout -> $T_OUT, stderr -> $T_ERR, status -> $RC
#   expect_rc NAME RC CMD...   run CMD and check its exit status
#   expect_err NAME TEXT...    the last run's stderr contains every TEXT (fixed strings)
#   expect_out NAME TEXT...    the same for stdout
#   json_get FILE PATH         print a field (dotted path; lists by index), JSON-encoded
#                              unless it is a string
#   json_check NAME FILE CODE  python CODE with d = the parsed FILE; passes when it
#                              runs without an exception (use assert with messages)
#   edit_report FILE CODE      python CODE with d = the parsed FILE, then d written back
#   summary LABEL              print "LABEL: N passed, N failed"; status 1 on failure
#   pba_fan_trace FILE N       write an avoid trace whose second safety iteration has
#                              N - 1 candidates (see below)

T_PASS=0
T_FAIL=0
T_TMP=
RC=0
T_OUT=
T_ERR=

t_init() {
	T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gpubench-test.XXXXXX") || exit 1
	# shellcheck disable=SC2064
	trap "rm -rf '$T_TMP'" EXIT
	T_OUT=$T_TMP/stdout
	T_ERR=$T_TMP/stderr
	: >"$T_OUT"
	: >"$T_ERR"
}

pass() {
	T_PASS=$((T_PASS + 1))
	if [ -n "${TEST_VERBOSE:-}" ]; then
		echo "ok   $1"
	fi
	return 0
}

# fail NAME [WHY...]: WHY lines are indented under the failure.
fail() {
	local name=$1
	shift
	T_FAIL=$((T_FAIL + 1))
	echo "FAIL $name"
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" | sed -n '1,20s/^/     /p'
	fi
	return 1
}

check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "command failed: $*"; fi
}

run() {
	"$@" >"$T_OUT" 2>"$T_ERR"
	RC=$?
	return 0
}

# The tail of the last run's output, for failure messages.
t_context() {
	echo "exit status $RC"
	if [ -s "$T_ERR" ]; then
		echo "stderr:"
		tail -n 5 "$T_ERR"
	fi
	if [ -s "$T_OUT" ]; then
		echo "stdout:"
		tail -n 5 "$T_OUT"
	fi
}

expect_rc() {
	local name=$1 want=$2
	shift 2
	run "$@"
	if [ "$RC" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "expected exit status $want: $*" "$(t_context)"
	fi
}

_expect_text() {
	local name=$1 file=$2 what=$3
	shift 3
	local t missing=()
	for t in "$@"; do
		if ! grep -qF -- "$t" "$file"; then
			missing+=("$t")
		fi
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "$name"
	else
		fail "$name" "$what lacks: ${missing[*]}" "$what was:" "$(head -c 1500 "$file")"
	fi
}

expect_err() {
	local name=$1
	shift
	_expect_text "$name" "$T_ERR" stderr "$@"
}

expect_out() {
	local name=$1
	shift
	_expect_text "$name" "$T_OUT" stdout "$@"
}

json_get() {
	python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    v = json.load(f)
for k in sys.argv[2].split('.'):
    if k == '':
        continue
    v = v[int(k)] if isinstance(v, list) else v[k]
print(v if isinstance(v, str) else json.dumps(v))
PY
}

json_check() {
	local name=$1 file=$2 code=$3 msg
	if msg=$(python3 - "$file" "$code" 2>&1 <<'PY'
import json, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
except Exception as e:
    print("cannot parse %s as JSON: %s" % (sys.argv[1], e))
    sys.exit(1)
def isint(x):
    return isinstance(x, int) and not isinstance(x, bool)
def isnum(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)
def fnv1a_balances(values):
    h = 0xcbf29ce484222325
    for v in values:
        v &= 0xFFFFFFFF
        for k in range(4):
            h ^= (v >> (8 * k)) & 0xFF
            h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h
try:
    exec(sys.argv[2], {"d": d, "isint": isint, "isnum": isnum, "fnv1a_balances": fnv1a_balances})
except AssertionError as e:
    print("assertion failed: %s" % (e if str(e) else "(no message)"))
    sys.exit(1)
except Exception as e:
    print("%s: %s" % (type(e).__name__, e))
    sys.exit(1)
PY
	); then
		pass "$name"
	else
		fail "$name" "$msg"
	fi
}

edit_report() {
	python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
exec(sys.argv[2])
with open(sys.argv[1], "w") as f:
    json.dump(d, f)
PY
}

summary() {
	echo "$1: $T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ]
}

# An avoid trace of N processes and one resource with N - 1 units: process 0
# claims them all, every other process one. Process 0 takes every unit, so the
# first safety iteration finishes only process 0 and the second finds all the
# others able to finish at once, more candidates than a chain kernel has
# slots when N is large; then it releases them. Twice.
pba_fan_trace() {
	local file=$1 n=$2 i
	{
		echo "processes $n"
		echo "resources 1"
		echo "available $((n - 1))"
		echo "max 0 $((n - 1))"
		for ((i = 1; i < n; i++)); do
			echo "max $i 1"
		done
		for i in 1 2; do
			echo "request 0 $((n - 1))"
			echo "release 0 $((n - 1))"
		done
	} >"$file"
}

# icd_cpu_only DIR: DIR holds the system's OpenCL .icd files but NVIDIA's, for OCL_ICD_VENDORS:
# the ICD loader then shows only the machine's other (CPU) platforms.
icd_cpu_only() {
	local f
	mkdir -p "$1"
	for f in /etc/OpenCL/vendors/*.icd; do
		if [ -e "$f" ] && ! grep -q nvidia "$f"; then
			cp "$f" "$1/"
		fi
	done
}

# t_less ARRAY OPT...: the words of the array named ARRAY less each OPT and the value after it,
# one a line, for a test that gives OPT another value (gpubench refuses an option given twice).
# Use it unquoted, $(t_less TINY --reps): the words must hold no white space.
t_less() {
	local -n _t_words=$1
	local i=0 o drop
	shift
	while [ "$i" -lt "${#_t_words[@]}" ]; do
		drop=0
		for o in "$@"; do
			if [ "${_t_words[$i]}" = "$o" ]; then
				drop=1
			fi
		done
		if [ "$drop" = 1 ]; then
			i=$((i + 2))
			continue
		fi
		printf '%s\n' "${_t_words[$i]}"
		i=$((i + 1))
	done
}
