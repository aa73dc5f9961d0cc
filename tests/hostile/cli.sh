#!/bin/sh
# tests/hostile/cli.sh - what a stranger's record, or a stranger to carc,
# gets from the commands: a game's messages in the order of its lines,
# whichever part of carc found them; score --turn past a game's end refused
# as show and render refuse it; score of a file without a game.
#
#   CARC=build/carc sh tests/hostile/cli.sh
#
# Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# same NAME WANT GOT: the two texts are equal.
same() {
	if [ "$2" = "$3" ]; then
		pass
	else
		fail "$1: expected"
		printf '%s\n' "$2" | sed 's/^/  want | /'
		printf '%s\n' "$3" | sed 's/^/  got  | /'
	fi
}

# ---- a game's messages in the order of its lines ----

# Found in this order: the syntax error of line 7 while reading, then the
# referee's false claim of line 5 (the replay stops at line 7).
cat >order.cgn <<'EOF'
[Seats "red green"]
[Event "order"]

1. red U -1,0 90 thief E
2. green E 0,1 180 knight S = green 5
3. red V 1,0 0 farmer NNE
4. green K 0,-1 270 knight W please
EOF
want='order.cgn:5:31: error[E212]
order.cgn:7:30: error[E028]'
for cmd in check score show; do
	timeout 20 "$CARC" $cmd order.cgn >/dev/null 2>err
	same "$cmd: messages in line order" "$want" "$(grep -o '^order.cgn:[0-9]*:[0-9]*: [a-z]*\[[A-Z0-9]*\]' err)"
done
timeout 20 "$CARC" check --format json order.cgn >out 2>/dev/null
same "check --format json: messages in line order" '"line":5
"line":7' "$(grep -o '"line":[0-9]*' out | sed 1d)"

# The same with errors of the tags: the tags' values are read after them.
cat >tags.cgn <<'EOF'
[Seats "red green"]
[Date "2026-13-01"]
[Event "x"] trailing
[Result "red 1 green 2"]
1. red U -1,0 90
EOF
timeout 20 "$CARC" check tags.cgn >/dev/null 2>err
same "check: tag messages in line order" 'tags.cgn:2:8: error[E009]
tags.cgn:3:13: error[E005]
tags.cgn:4:16: error[E012]' "$(grep -o '^tags.cgn:[0-9]*:[0-9]*: [a-z]*\[[A-Z0-9]*\]' err)"

# ---- score --turn past the end ----

sample=$top/samples/club-night.cgn
for format in text json yaml csv; do
	timeout 20 "$CARC" score --format $format --turn 5 "$sample" >out 2>err
	status=$?
	if [ $status = 2 ] && grep -qx "carc score: game 1 has 4 turns, not a turn 5" err; then
		pass
	else
		fail "score --format $format --turn 5 of a 4-turn game: status $status, $(cat err)"
	fi
done
timeout 20 "$CARC" show --turn 5 "$sample" >/dev/null 2>err
grep -qx "carc show: game 1 has 4 turns, not a turn 5" err && pass || fail "show --turn 5: $(cat err)"
timeout 20 "$CARC" score --turn 4 "$sample" >out 2>err
status=$?
[ $status = 0 ] && grep -q "^Standings after turn 4: red 0, green 4" out && pass ||
	fail "score --turn 4 of a 4-turn game: status $status"

# ---- score of a file without a game ----

: >empty.cgn
printf '; only a comment\n\n' >comments.cgn
for f in empty.cgn comments.cgn; do
	for format in text json yaml csv; do
		timeout 20 "$CARC" score --format $format $f >out 2>err
		status=$?
		case $format in
		csv) want='file,game,line,offset,id,turn,colour,tile,x,y,rotation,deploy,scored,red,green,blue,yellow,black,gray,pink,held' ;;
		*) want= ;;
		esac
		if [ $status = 0 ] && [ "$(cat out)" = "$want" ] && grep -qx "carc score: $f holds no game" err; then
			pass
		else
			fail "score --format $format $f: status $status, stdout '$(cat out)', stderr '$(cat err)'"
		fi
	done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
