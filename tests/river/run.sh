#!/bin/sh
# tests/river/run.sh - The River: the hand-worked records of issue 21,
# checked by carc.
#
#   CARC=build/carc sh tests/river/run.sh
#
# The records of this folder that play The River (their Expansions tag
# names it; README.md lists them all):
#   - every *.cgn is a small legal game built around one rule, its scores
#     worked out by hand in its comment and written as claims and a Result
#     tag: `carc check` must exit 0 with no diagnostic but W001 (the record
#     stops early);
#   - every illegal/*.cgn breaks one rule and says where in a line
#     "; expect: E26x, line N, ...": `carc check` must exit 1 and report
#     that code on that line.
# Ends with "N passed, N failed".
dir=$(dirname "$0")
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$(pwd)/$CARC ;; esac
tmp=${TMPDIR:-/tmp}/carc-river.$$
trap 'rm -f "$tmp" "$tmp".*' EXIT INT TERM
passed=0
failed=0

fail() {
	echo "FAIL $1: $2"
	sed 's/^/    /' "$tmp" | head -n 12
	failed=$((failed + 1))
}

plays_river() {
	grep -qi '^\[Expansions "[^"]*river' "$1"
}

for f in "$dir"/*.cgn; do
	[ -f "$f" ] && plays_river "$f" || continue
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	others=$(grep -E ':[0-9]+:[0-9]+: (error|warning|note)\[' "$tmp" | grep -v 'warning\[W001\]')
	if [ $status -ne 0 ]; then
		fail "$f" "exit status $status, expected 0"
	elif [ -n "$others" ]; then
		fail "$f" "unexpected diagnostics"
	else
		passed=$((passed + 1))
	fi
done

for f in "$dir"/illegal/*.cgn; do
	[ -f "$f" ] && plays_river "$f" || continue
	expect=$(sed -n 's/^; expect: \(E[0-9][0-9]*\), line \([0-9][0-9]*\).*/\1 \2/p' "$f" | head -n 1)
	if [ -z "$expect" ]; then
		: >"$tmp"
		fail "$f" "no '; expect: E..., line N' line"
		continue
	fi
	code=${expect% *}
	line=${expect#* }
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	if [ $status -ne 1 ]; then
		fail "$f" "exit status $status, expected 1"
	elif ! grep -q "^$f:$line:[0-9]*: error\[$code\]" "$tmp"; then
		fail "$f" "expected error[$code] on line $line"
	elif grep -v "^$f:$line:" "$tmp" | grep -q ': error\['; then
		fail "$f" "an error other than the one expected"
	else
		passed=$((passed + 1))
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
