#!/bin/sh
# tests/fresh/examples.sh - the README's examples that type carc by name
# ("    $ carc ..." lines, from its Archives section on), run as a user
# types them after the quick start: with sh, from the top of the
# repository, finding carc on PATH. What each prints (standard output and
# error) must be the indented lines after it. make check puts the folder of
# $CARC (build/) first on PATH, as the README's `export PATH` does;
# tests/fresh/run.sh runs it after `make install` instead. Prints "N
# passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
passed=0
failed=0
if [ -n "${CARC:-}" ]; then
	[ "$(basename "$CARC")" = carc ] || { echo "skip: CARC=$CARC is not named carc"; echo "0 passed, 0 failed"; exit 0; }
	PATH=$(cd "$(dirname "$CARC")" && pwd):$PATH
	export PATH
fi
if ! command -v carc >/dev/null 2>&1; then
	echo "FAIL carc is not on PATH: the README says make install (or export PATH=\"\$PWD/build:\$PATH\")"
	echo "0 passed, 1 failed"
	exit 1
fi
ex=$(mktemp -d) || exit 2
trap 'rm -rf "$ex"' EXIT
awk -v dir="$ex" '
	/^    \$ carc / { n++; sub(/^    \$ /, ""); print > (dir "/" n ".cmd"); close(dir "/" n ".cmd"); on = 1; next }
	on && (/^    / || /^$/) { sub(/^    /, ""); print > (dir "/" n ".want"); next }
	{ on = 0 }' README.md
for cmd in "$ex"/*.cmd; do
	[ -f "$cmd" ] || { echo "FAIL README.md has no \"\$ carc\" example"; failed=$((failed + 1)); break; }
	want=${cmd%.cmd}.want
	[ -f "$want" ] || : >"$want"
	NO_COLOR=1 sh -c "$(cat "$cmd")" >"$ex/got" 2>&1
	sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}' "$want" >"$ex/want"
	if cmp -s "$ex/got" "$ex/want"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL README example '$(cat "$cmd")' prints otherwise: $(diff "$ex/want" "$ex/got" | head -n 10)"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
