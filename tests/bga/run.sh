#!/bin/sh
# tests/bga/run.sh - Board Game Arena's real replay logs, when they are at hand.
#
#   CARC=build/carc [CARC_SHARED=DIR] sh tests/bga/run.sh
#
# The six public replay logs of real BGA games live beside the repository,
# in $CARC_SHARED/reference/bga/logs/ (CARC_SHARED defaults to ../shared from
# the repository's top folder); they are others' data and never committed.
# Without them every check here is skipped and counted as passed. For each
# log: carc import --from bga converts it; carc check of the result is valid
# with claims on its scoring turns and a Result, which means that BGA's own
# score after every scoring turn and its final scores agree with carc's
# referee; a tampered claim is caught; and the game written as a
# CarcassonneLab URL imports back to the same moves, and exports to the
# same URL. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
shared=${CARC_SHARED:-$top/../shared}
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

logs=$shared/reference/bga/logs
if ! ls "$logs"/*.json >/dev/null 2>&1; then
	echo "skipped: no BGA logs in $logs (set CARC_SHARED)"
	echo "1 passed, 0 failed"
	exit 0
fi

# The moves of a record: its turn lines without claims.
moves() {
	grep -E '^ *[0-9]+\. ' "$1" | sed 's/ *=.*//; s/ *$//'
}

for log in "$logs"/*.json; do
	name=$(basename "$log" .json)
	if ! "$CARC" import --from bga "$log" >"$tmp/$name.cgn" 2>"$tmp/err"; then
		fail "$name: import: $(head -n 1 "$tmp/err")"
		continue
	fi
	pass
	claims=$(grep -c ' = ' "$tmp/$name.cgn")
	if "$CARC" check --werror "$tmp/$name.cgn" >"$tmp/out" 2>&1 && [ "$claims" -gt 0 ] &&
		grep -q '^\[Result ' "$tmp/$name.cgn" && [ "$(moves "$tmp/$name.cgn" | wc -l)" -eq 71 ]; then
		pass
	else
		fail "$name: check of the import ($claims claims):"
		head -n 5 "$tmp/out" | sed 's/^/  | /'
	fi
	# one point more in the first claim must be caught (E212)
	awk '!done && / = / { sub(/ = [a-z]+ [0-9]+/, "&1"); done = 1 } { print }' "$tmp/$name.cgn" >"$tmp/bad.cgn"
	if "$CARC" check "$tmp/bad.cgn" 2>&1 | grep -q 'error\[E212\]'; then pass; else fail "$name: a false claim passes"; fi
	# CarcassonneLab: out and back
	if "$CARC" export --to carcassonnelab "$tmp/$name.cgn" >"$tmp/url" 2>"$tmp/err" &&
		"$CARC" import --from carcassonnelab "$tmp/url" >"$tmp/back.cgn" 2>>"$tmp/err" &&
		moves "$tmp/$name.cgn" >"$tmp/a" && moves "$tmp/back.cgn" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b" &&
		"$CARC" export --to carcassonnelab "$tmp/back.cgn" | cmp -s - "$tmp/url"; then
		pass
	else
		fail "$name: CarcassonneLab round trip:"
		head -n 3 "$tmp/err" | sed 's/^/  | /'
		diff "$tmp/a" "$tmp/b" | head -n 5
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
