#!/bin/sh
# tests/solo/run.sh - the solo variant's records.
#
# Each tests/solo/*.cgn is checked with `carc check`. The record says in its
# own comments what must come out:
#   ; expect: E301 W001   at the end of a line: the diagnostics (any severity)
#                         that must be reported on that line, and no others
#   ; exit: 1             anywhere: the exit status (0 when absent)
# Every diagnostic carc prints must be expected and every expected one
# printed, so a record with no expect comments must check clean. The scores
# are checked by the records' own claims and Result tags, worked out by hand
# in their header comments. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$top"/tests/solo/*.cgn; do
	name=$(basename "$f")
	"$CARC" check "$f" >"$tmp/out" 2>"$tmp/err"
	status=$?
	# "file:LINE:COL: severity[CODE]: ..." -> "LINE CODE"
	sed -n 's/^.*:\([0-9][0-9]*\):[0-9][0-9]*: [a-z]*\[\([A-Z][0-9][0-9]*\)\]: .*$/\1 \2/p' "$tmp/err" | sort >"$tmp/got"
	awk '{
		if (match($0, /; *expect:[ A-Z0-9]*/)) {
			s = substr($0, RSTART, RLENGTH)
			sub(/; *expect:/, "", s)
			n = split(s, code, " ")
			for (i = 1; i <= n; i++)
				print NR, code[i]
		}
	}' "$f" | sort >"$tmp/want"
	want_status=$(sed -n 's/^.*; *exit: *\([0-9][0-9]*\).*$/\1/p' "$f" | head -n 1)
	want_status=${want_status:-0}
	ok=1
	if [ "$status" != "$want_status" ]; then
		echo "FAIL $name: exit status $status, expected $want_status"
		ok=0
	fi
	if ! cmp -s "$tmp/got" "$tmp/want"; then
		echo "FAIL $name: diagnostics (line code) differ, - expected + got:"
		diff "$tmp/want" "$tmp/got" | sed -n 's/^</  -/p; s/^>/  +/p'
		sed 's/^/    /' "$tmp/err" | head -n 20
		ok=0
	fi
	if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
