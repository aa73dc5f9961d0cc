#!/bin/sh
# tests/hostile/projected.sh - a record that keeps placing tiles the supply
# no longer has can be thousands of turns long; a projection replays the
# game once per turn, so carc score --projected and carc render --format
# html refuse such a game with a message (status 2) at once instead of
# working for minutes, and still take a game of ordinary length.
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
if command -v timeout >/dev/null 2>&1; then limit="timeout 20"; else limit=""; fi
awk 'BEGIN { print "[Seats \"red green\"]\n"; for (i = 1; i <= 1500; i++) printf "%d. %s U %d,0 90\n", i, i % 2 ? "red" : "green", i }' >"$tmp/long.cgn"
for cmd in "score --projected" "score --projected --format csv" "render --format html"; do
	$limit "$CARC" $cmd "$tmp/long.cgn" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ $status -eq 2 ] && grep -q "game 1 has 1500 turns, more than the 1000 that a projection replays" "$tmp/err"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL carc $cmd on a 1500-turn game: status $status; $(grep -v '^ ' "$tmp/err" | tail -n 1)"
	fi
done
head -n 1002 "$tmp/long.cgn" >"$tmp/short.cgn" # 1000 turns: projected
$limit "$CARC" score --projected --format csv "$tmp/short.cgn" >"$tmp/out" 2>/dev/null
status=$?
rows=$(grep -c ',projected_red\|^[^,]*,1,[0-9]' "$tmp/out")
if [ $status -eq 1 ] && [ "$rows" -eq 1001 ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL carc score --projected on a 1000-turn game: status $status, $rows rows"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
