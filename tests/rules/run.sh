#!/bin/sh
# tests/rules/run.sh - the hand-worked rule records, checked by carc.
#
#   CARC=build/carc sh tests/rules/run.sh
#
# Every tests/rules/*.cgn is a small legal game built around one rule, with
# its scores worked out by hand in its comment and written as claims and a
# Result tag: `carc check` must exit 0 and print no diagnostic, except the
# W001 warning that a short record is an unfinished game (a full game must
# not even have that). Every tests/rules/illegal/*.cgn breaks one rule and
# names the code it must draw in a line "; expect: E2xx": `carc check` must
# exit 1 and report that code, on line N when the line goes on ", line N"
# ("; expect: E261, line 10"), and no other error. Ends with "N passed, N
# failed".
#
#   sh tests/rules/run.sh DIR [PATTERN]
#
# checks the records of DIR instead, only those with a line that matches
# the grep PATTERN when it is given (tests/river/run.sh: the records that
# play The River).
dir=${1:-$(dirname "$0")}
select=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib.sh"
suite_begin rules

# whether record $1 is one to check
selected() {
	[ -f "$1" ] && { [ -z "$select" ] || grep -q "$select" "$1"; }
}

for f in "$dir"/*.cgn; do
	selected "$f" || continue
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	# diagnostics other than the unfinished-game warning
	others=$(grep -E ':[0-9]+:[0-9]+: (error|warning|note)\[' "$tmp" | grep -v 'warning\[W001\]')
	if [ $status -ne 0 ]; then
		fail "$f" "exit status $status, expected 0"
	elif [ -n "$others" ]; then
		fail "$f" "unexpected diagnostics"
	elif grep -q '^\[Event "full game' "$f" && grep -q 'W001' "$tmp"; then
		fail "$f" "a full game is reported unfinished"
	else
		passed=$((passed + 1))
	fi
done

for f in "$dir"/illegal/*.cgn; do
	selected "$f" || continue
	code=$(sed -n 's/^; expect: \(E[0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
	line=$(sed -n 's/^; expect: E[0-9]*, line \([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
	if [ -z "$code" ]; then
		: >"$tmp"
		fail "$f" "no '; expect: E...' line"
		continue
	fi
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	if [ $status -ne 1 ]; then
		fail "$f" "exit status $status, expected 1"
	elif ! grep -q "error\[$code\]" "$tmp"; then
		fail "$f" "expected error[$code]"
	elif [ -n "$line" ] && ! grep -q "^$f:$line:[0-9]*: error\[$code\]" "$tmp"; then
		fail "$f" "expected error[$code] on line $line"
	elif [ -n "$line" ] && grep -v "^$f:$line:" "$tmp" | grep -q ': error\['; then
		fail "$f" "an error other than the one expected"
	else
		passed=$((passed + 1))
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
