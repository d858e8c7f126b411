#!/usr/bin/env bash
# The layering of docs/harness.md, checked on every #include "..." line of
# the sources: common/ -> api/ -> workloads/ -> engines (stm/, speculation/,
# structures/, deadlock/) -> cmd/ -> main.c. A file may include its own
# layer and the layers below it, never one above: an include that runs back
# up is a type in the wrong place. Engines do not rank among themselves.
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

layer_name() {
	local names=(common api workloads engine cmd main.c tests)
	echo "${names[$1]}"
}

# violations DIR: one line per include in DIR that runs up a layer; status 0.
violations() {
	local dir=$1 file line text target from to
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
mkdir -p "$fake/common" "$fake/api" "$fake/workloads" "$fake/stm" "$fake/deadlock" "$fake/cmd"
printf '#include "common/port.h"\n#include "api/tx.h"\n' >"$fake/common/a.h"
printf '#include "common/port.h"\n# include "workloads/bank.h"\n' >"$fake/api/tx.h"
printf '#include "api/tx.h"\n#include <stdio.h>\n  #include "stm/stm.h"\n' >"$fake/workloads/bank.h"
printf '#include "workloads/bank.h"\n#include "deadlock/rag.h"\n#include "cmd/cmd.h"\n' >"$fake/stm/prstm.cu"
printf '#include "stm/stm.h"\n#include "list_kernel_source.h"\n' >"$fake/deadlock/rag.c"
printf '#include "stm/stm.h"\n#include "workloads/bank.h"\n' >"$fake/cmd/stm.c"
want='api/tx.h:2: includes workloads/bank.h (api may not include workloads)
common/a.h:2: includes api/tx.h (common may not include api)
stm/prstm.cu:3: includes cmd/cmd.h (engine may not include cmd)
workloads/bank.h:3: includes stm/stm.h (workloads may not include engine)'
got=$(violations "$fake")
if [ "$got" = "$want" ]; then
	pass "the check finds every include up a layer in a sample tree, and only those"
else
	fail "the check finds every include up a layer in a sample tree, and only those" \
		"expected:" "$want" "found:" "$got"
fi

summary layers
