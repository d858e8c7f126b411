#!/usr/bin/env bash
# The layering of docs/harness.md, checked on every #include "..." line of
# the sources: common/ -> api/ -> workloads/ -> engines (stm/, speculation/,
# structures/, deadlock/) -> cmd/ -> main.c. A file may include its own
# layer and the layers below it, never one above: an include that runs back
# up is a type in the wrong place. Within a layer, families stay apart: the
# engine folders do not include each other, an STM engine family
# (stm/prstm/, stm/csmv/, ...) includes only itself, the shared backends
# (stm/backend/) and the contract at stm/'s top, which in turn include no
# family (stm/registry.c, which lists them, excepted), and a subcommand's
# workloads (workloads/stm/, ...) include no other subcommand's.
# Includes without a folder (generated headers found through -I) are not
# checked. With a directory argument, checks that tree instead of the
# repository (the self-test below uses it); the last line is
# "layers: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# layer_of PATH: the rank of the folder PATH starts with, or nothing for
# folders outside the layering.
layer_of() {
	case $1 in
	common/*) echo 0 ;;
	api/*) echo 1 ;;
	workloads/*) echo 2 ;;
	stm/* | speculation/* | structures/* | deadlock/*) echo 3 ;;
	cmd/*) echo 4 ;;
	main.c) echo 5 ;;
	tests/*) echo 6 ;;
	esac
}

# family_of PATH: the family a file belongs to within its layer, or nothing
# for a file that belongs to none (the contract at stm/'s top, stm/backend/,
# the layers without families).
family_of() {
	local sub=${1#*/}
	case $1 in
	stm/backend/*) ;;
	stm/*/* | workloads/*/*) echo "${1%%/*}/${sub%%/*}" ;;
	deadlock/* | speculation/* | structures/*) echo "${1%%/*}" ;;
	esac
}

# crosses FROM TO: why an include from FROM of TO, on one layer, crosses
# families (nothing when it does not).
crosses() {
	local ff tf
	ff=$(family_of "$1")
	tf=$(family_of "$2")
	[ "$1" = stm/registry.c ] && return
	if [ "${1%%/*}" != "${2%%/*}" ] && [ "${1%%/*}" != workloads ]; then
		echo "engines do not include each other"
	elif [ -n "$tf" ] && [ "$ff" != "$tf" ]; then
		case $tf in
		stm/*) echo "an STM engine family is included only by itself and stm/registry.c" ;;
		workloads/*) echo "workload families do not include each other" ;;
		*) echo "engines do not include each other" ;;
		esac
	fi
}

layer_name() {
	local names=(common api workloads engine cmd main.c tests)
	echo "${names[$1]}"
}

# violations DIR: one line per include in DIR that runs up a layer; status 0.
violations() {
	local dir=$1 file line text target from to why
	(
		cd "$dir" || exit 1
		find common api workloads stm speculation structures deadlock cmd main.c -type f \
			\( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.cl' \) \
			2>/dev/null | sort | while read -r file; do
			from=$(layer_of "$file")
			grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
				while IFS=: read -r line text; do
					target=${text#*\"}
					target=${target%%\"*}
					to=$(layer_of "$target")
					if [ -n "$to" ] && [ "$to" -gt "$from" ]; then
						echo "$file:$line: includes $target ($(layer_name "$from") may not include $(layer_name "$to"))"
					elif [ -n "$to" ] && [ "$to" -eq "$from" ]; then
						why=$(crosses "$file" "$target")
						[ -n "$why" ] && echo "$file:$line: includes $target ($why)"
					fi
				done
		done
	)
}

if [ $# -gt 0 ]; then
	out=$(violations "$1")
	[ -n "$out" ] && echo "$out"
	[ -z "$out" ]
	exit
fi

# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init
root=$(cd "$here/.." && pwd)

out=$(violations "$root")
if [ -z "$out" ]; then
	pass "no include runs up a layer"
else
	fail "no include runs up a layer" "$out"
fi

# The check itself: a tree with one include up each kind of step, and allowed ones beside them.
fake=$T_TMP/fake
mkdir -p "$fake/common" "$fake/api" "$fake/workloads/stm" "$fake/workloads/list" "$fake/stm/prstm" \
	"$fake/stm/csmv" "$fake/stm/backend" "$fake/deadlock" "$fake/cmd"
printf '#include "common/port.h"\n#include "api/tx.h"\n' >"$fake/common/a.h"
printf '#include "common/port.h"\n# include "workloads/stm/bank.h"\n' >"$fake/api/tx.h"
printf '#include "api/tx.h"\n#include <stdio.h>\n  #include "stm/stm.h"\n#include "workloads/list/list_gen.h"\n' \
	>"$fake/workloads/stm/bank.h"
printf '#include "workloads/stm/bank.h"\n#include "deadlock/rag.h"\n#include "cmd/cmd.h"\n' >"$fake/stm/prstm/prstm.cu"
printf '#include "stm/stm.h"\n#include "stm/backend/stm_gpu.h"\n#include "stm/csmv/csmv.h"\n' >"$fake/stm/prstm/prstm.h"
printf '#include "stm/prstm/prstm.h"\n#include "stm/stm.h"\n' >"$fake/stm/backend/stm_gpu.h"
printf '#include "stm/prstm/prstm.h"\n#include "stm/csmv/csmv.h"\n' >"$fake/stm/registry.c"
printf '#include "stm/stm.h"\n#include "list_kernel_source.h"\n' >"$fake/deadlock/rag.c"
printf '#include "stm/stm.h"\n#include "workloads/stm/bank.h"\n' >"$fake/cmd/stm.c"
want='api/tx.h:2: includes workloads/stm/bank.h (api may not include workloads)
common/a.h:2: includes api/tx.h (common may not include api)
deadlock/rag.c:1: includes stm/stm.h (engines do not include each other)
stm/backend/stm_gpu.h:1: includes stm/prstm/prstm.h (an STM engine family is included only by itself and stm/registry.c)
stm/prstm/prstm.cu:2: includes deadlock/rag.h (engines do not include each other)
stm/prstm/prstm.cu:3: includes cmd/cmd.h (engine may not include cmd)
stm/prstm/prstm.h:3: includes stm/csmv/csmv.h (an STM engine family is included only by itself and stm/registry.c)
workloads/stm/bank.h:3: includes stm/stm.h (workloads may not include engine)
workloads/stm/bank.h:4: includes workloads/list/list_gen.h (workload families do not include each other)'
got=$(violations "$fake")
if [ "$got" = "$want" ]; then
	pass "the check finds every include up a layer in a sample tree, and only those"
else
	fail "the check finds every include up a layer in a sample tree, and only those" \
		"expected:" "$want" "found:" "$got"
fi

summary layers
