#!/usr/bin/env bash
# Tests of make install and make uninstall, into a temporary DESTDIR: the
# binary, scripts, documentation, manual page and bash and zsh completion
# where PREFIX puts them; help texts of the installed binary naming the
# installed documentation; the manual page rendering without warnings; the
# completion scripts completing from the registries; an installed script
# running; make dist with the manual page and completion; uninstall leaving
# no file. Run from the repository root after the
# build (it installs ./gpubench, built as GPUBENCH was). Last line:
# "install: N passed, N failed".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
t_init

G=${GPUBENCH:-./gpubench}
if [ ! -x ./gpubench ] || [ ! -f Makefile ]; then
	echo "install: run from the repository root after make"
	echo "install: 0 passed, 1 failed"
	exit 1
fi
# The build ./gpubench is, so that make install installs it as it is, rebuilding nothing.
cuda=$(./gpubench info --quiet --json - | python3 -c 'import json, sys; print(int("gpu" in json.load(sys.stdin)["backends"]))')
D=$T_TMP/dest
P=/opt/gpubench-test
I=$D$P

expect_rc "make install DESTDIR=... PREFIX=$P exits 0" 0 make -s install CUDA="$cuda" DESTDIR="$D" PREFIX="$P"
check "the binary is installed, as built" cmp ./gpubench "$I/bin/gpubench"
check "the binary is executable" test -x "$I/bin/gpubench"
for f in README.md report-schema.md harness.md compare.md ci.md stm.md; do
	check "the documentation has $f" test -s "$I/share/doc/gpubench/$f"
done
check "the figure scripts are installed, executable" test -x "$I/share/gpubench/scripts/fig7.sh"
check "the scripts' helpers are installed" test -s "$I/share/gpubench/scripts/lib/report2csv.py"
check "the manual page is installed" test -s "$I/share/man/man1/gpubench.1"
check "the bash completion is installed" test -s "$I/share/bash-completion/completions/gpubench"
check "the zsh completion is installed" test -s "$I/share/zsh/site-functions/_gpubench"

# ---------------------------------------------------------------- help texts name the installed documentation
run "$I/bin/gpubench" stm --help
check "installed: --json's help names the installed report schema" \
	grep -qF "$I/share/doc/gpubench/report-schema.md" "$T_OUT"
run "$I/bin/gpubench" avoid --help
check "installed: --trace's help names the installed trace format" \
	grep -qF "$I/share/doc/gpubench/avoid-trace.md" "$T_OUT"
doc_refs=$(grep -o "$I/share/doc/gpubench/[a-z-]*\.md" "$T_OUT")
missing=$(for f in $doc_refs; do [ -f "$f" ] || echo "$f"; done)
check "every document the installed help names is there" test -z "$missing"
run ./gpubench stm --help
check "the build's help keeps docs/ (a checkout)" grep -qE "(^| )docs/report-schema.md" "$T_OUT"

# ---------------------------------------------------------------- the manual page
man1=$I/share/man/man1/gpubench.1
check "the manual page names the documentation where it is installed, without DESTDIR" \
	grep -qF -- "$(sed 's/-/\\-/g; s|/|/\\:|g' <<<"$P/share/doc/gpubench/report-schema.md")" "$man1"
check "the manual page has no DESTDIR in it" test -z "$(grep -F "$D" "$man1")"
check "the manual page has a section per subcommand" \
	test "$(grep -c '^\.SS "gpubench ' "$man1")" = "$(./gpubench --help | sed -n '/^subcommands:/,/^$/p' | grep -c '^  [a-z]')"
# every option of every subcommand's --help is in the page
for sub in stm avoid detect speculate list compare export info; do
	opts=$(./gpubench "$sub" --help | grep -o '^  --[a-z-]*' | sed 's/^  --//' | sort -u)
	lacking=$(for o in $opts; do grep -qF -- "\\-\\-$(sed 's/-/\\-/g' <<<"$o")" "$man1" || echo "$o"; done)
	check "the manual page has every option of $sub" test -z "$lacking"
done
if command -v groff >/dev/null 2>&1; then
	groff -man -Tascii -P-bu -ww "$man1" >"$T_TMP/man.txt" 2>"$T_TMP/man.err"
	check "groff renders the manual page without a warning" test ! -s "$T_TMP/man.err" || cat "$T_TMP/man.err"
	check "the rendered page shows an option with its value" grep -q -- '--device N' "$T_TMP/man.txt"
fi

# ---------------------------------------------------------------- completion
bc=$I/share/bash-completion/completions/gpubench
check "the bash completion parses" bash -n "$bc"
complete_bash() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpubench; echo "${COMPREPLY[*]}"' \
		_ "$bc" "$@"
}
check "bash: subcommands" test "$(complete_bash gpubench ex)" = export
check "bash: an option of the subcommand" test "$(complete_bash gpubench stm --thr)" = --threads
check "bash: --algo from stm's engine registry" test "$(complete_bash gpubench stm --algo prstm)" = "prstm prstm-nocm"
check "bash: --compare completes a list's last item" \
	test "$(complete_bash gpubench avoid --compare cpu,gpu-)" = "cpu,gpu-thesis"
check "bash: --workload from the workload registry" test "$(complete_bash gpubench stm --workload me)" = memcached
check "bash: a choice's values" test "$(complete_bash gpubench export --format c)" = "csv columns"
check "bash: --loop from speculate's loops" test "$(complete_bash gpubench speculate --loop fft)" = fftbench
check "bash: a number takes no word" test -z "$(complete_bash gpubench stm --threads '')"
check "bash: --device is completed everywhere it is" test "$(complete_bash gpubench list --dev)" = --device
zc=$I/share/zsh/site-functions/_gpubench
check "the zsh completion starts with #compdef" test "$(head -n 1 "$zc")" = "#compdef gpubench"
check "the zsh completion names every subcommand" \
	test "$(grep -cE "^	[a-z]+\)$" "$zc")" = "$(($(./gpubench --help | sed -n '/^subcommands:/,/^$/p' | grep -c '^  [a-z]') + 1))"
if command -v zsh >/dev/null 2>&1; then
	check "the zsh completion parses" zsh -n "$zc"
	# complete_zsh LINE: the command line after a TAB in an interactive zsh with the completion on $fpath
	complete_zsh() {
		zsh -f -c '
zmodload zsh/zpty
zpty z "zsh -f -i"
zpty -w z "PROMPT=\">>\"; fpath=($2 \$fpath); autoload -U compinit; compinit -u -D; gpubench() { :; }"
zpty -w -n z "$1"$'"'"'\t'"'"'
out=
for i in {1..40}; do sleep 0.1; while zpty -r -t z chunk 2>/dev/null; do out+=$chunk; done; done
zpty -d z
print -r -- "$out"' _ "$1" "$(dirname "$zc")" | tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | tail -n 1
	}
	check "zsh: --algo from stm's engine registry" grep -q 'stm --algo prstm-nocm *$' <<<"$(complete_zsh 'gpubench stm --algo prstm-')"
	check "zsh: an option of the subcommand" grep -q 'detect --proto[a-z]* *$' <<<"$(complete_zsh 'gpubench detect --proto')"
fi
check "help --completion fish exits 2" test "$(./gpubench help --completion fish >/dev/null 2>&1; echo $?)" = 2

# ---------------------------------------------------------------- an installed script runs
expect_rc "the installed pba-tables.sh --quick runs with the installed binary" 0 \
	bash "$I/share/gpubench/scripts/pba-tables.sh" --quick --gpubench "$I/bin/gpubench" --out "$T_TMP/pba"
check "it wrote its table" test -s "$T_TMP/pba/pba-tables.csv"

# ---------------------------------------------------------------- make dist: the manual page and completion beside the binary
expect_rc "make dist DIST=... exits 0" 0 make -s dist CUDA="$cuda" DIST="$T_TMP/dist"
check "dist: the binary runs" "$T_TMP/dist/bin/gpubench" --version
check "dist: the manual page is there" test -s "$T_TMP/dist/share/man/man1/gpubench.1"
check "dist: the manual page names the docs beside it" grep -q 'docs/\\:report' "$T_TMP/dist/share/man/man1/gpubench.1"
check "dist: the bash and zsh completion are there" test -s "$T_TMP/dist/share/bash-completion/completions/gpubench" \
	-a -s "$T_TMP/dist/share/zsh/site-functions/_gpubench"
check "dist: the docs and scripts are there" test -s "$T_TMP/dist/docs/claims.md" -a -x "$T_TMP/dist/scripts/fig7.sh"
if command -v man >/dev/null; then
	check "dist: man -l renders the manual page" sh -c "MANWIDTH=80 man -l '$T_TMP/dist/share/man/man1/gpubench.1' 2>&1 | grep -q 'gpubench compare'"
fi

# ---------------------------------------------------------------- uninstall
expect_rc "make uninstall exits 0" 0 make -s uninstall CUDA="$cuda" DESTDIR="$D" PREFIX="$P"
check "uninstall leaves no file" test -z "$(find "$D" -type f -o -type l)"
check "uninstall removes gpubench's own folders" test ! -e "$I/share/gpubench" -a ! -e "$I/share/doc/gpubench"
expect_rc "uninstall again (nothing there) exits 0" 0 make -s uninstall CUDA="$cuda" DESTDIR="$D" PREFIX="$P"

summary install
