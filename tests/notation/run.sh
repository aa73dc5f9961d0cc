#!/bin/sh
# tests/notation/run.sh - every example in the notation documents parses.
#
#   CARC=build/carc sh tests/notation/run.sh
#
# Each fenced block marked ```cgn in notation/*.md is written to a file of
# its own and given to carc check. The block passes when it holds at least
# one game, carc reports no syntax error (E0xx) and no tile-set error (E1xx),
# and carc neither crashes nor hangs. Rule errors (E2xx and up) are allowed:
# an example may show what carc says about an illegal move. Prints
# "N passed, N failed", naming each failing block by its document and line.
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for doc in "$top"/notation/*.md; do
	name=$(basename "$doc" .md)
	# example-<first line of the block>.cgn for each block
	awk -v dir="$tmp" -v name="$name" '
		/^```cgn[ \t]*$/ { inside = 1; file = dir "/" name "-" NR + 1 ".cgn"; printf "" >file; next }
		/^```/ && inside { inside = 0; close(file); next }
		inside { print >>file }
	' "$doc"
	for example in "$tmp/$name"-*.cgn; do
		[ -f "$example" ] || continue
		line=${example##*-}
		line=${line%.cgn}
		where="notation/$name.md:$line"
		(cd "$top/notation" && timeout 10 "$CARC" check "$example" >"$tmp/out" 2>"$tmp/err")
		status=$?
		if [ "$status" -gt 1 ] || grep -q 'error\[E[01][0-9][0-9]\]' "$tmp/err" ||
			! grep -q '^[1-9][0-9]* games\{0,1\},' "$tmp/out"; then
			failed=$((failed + 1))
			echo "FAIL $where: the example does not parse (carc check exit status $status)"
			sed "s|$tmp/||" "$tmp/err" | head -n 12 | sed 's/^/  | /'
		else
			passed=$((passed + 1))
		fi
		rm -f "$example"
	done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
