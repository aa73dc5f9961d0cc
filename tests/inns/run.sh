#!/bin/sh
# tests/inns/run.sh - Inns & Cathedrals' acceptance tests (issue 32).
#
#   CARC=build/carc sh tests/inns/run.sh
#
# Every tests/inns/*.cgn is a legal game built around one rule of the
# expansion (an inn, two inns, a cathedral, the large follower's weight, its
# return, the field that touches no edge, a garden with The Abbot), its
# scores worked out by hand in its comment and written as claims and a
# Result: `carc check` must exit 0 with no diagnostic but W001, and so must
# its form by `carc fmt`, which `carc fmt --check` finds canonical. Every
# illegal record (tests/inns/illegal/*.cgn and tests/diag/E28*.cgn) names its
# code and place in a comment line "; expect: CODE at LINE:COL": `carc
# check` must exit 1 and report that code there first. Then generated games
# (1000 each by default: INNS_GAMES): inns alone, with The River and The
# Abbot, and with 6 players; they check clean, carc fmt leaves them as they
# are, and they deploy the large follower. Last, JCloisterZone's two test
# games (../shared/reference/jcz, skipped when absent) import and score as
# JCloisterZone asserts: inns 8/0, cathedrals 15/0. Ends with "N passed, N
# failed, N skipped".
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/inns
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
tmp=${TMPDIR:-/tmp}/carc-inns.$$
trap 'rm -f "$tmp" "$tmp.cgn" "$tmp.2.cgn"' EXIT INT TERM
passed=0
failed=0
skipped=0
GAMES=${INNS_GAMES:-1000}

fail() {
	echo "FAIL $1: $2"
	sed 's/^/    /' "$tmp" | head -n 12
	failed=$((failed + 1))
}

for f in "$dir"/*.cgn; do
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	others=$(grep -E ':[0-9]+:[0-9]+: (error|warning|note)\[' "$tmp" | grep -v 'warning\[W001\]')
	if [ $status -ne 0 ]; then
		fail "$f" "exit status $status, expected 0"
	elif [ -n "$others" ]; then
		fail "$f" "unexpected diagnostics"
	elif ! "$CARC" fmt "$f" >"$tmp.cgn" 2>"$tmp" || ! "$CARC" check "$tmp.cgn" >/dev/null 2>"$tmp" ||
		grep -E ':[0-9]+:[0-9]+: (error|warning|note)\[' "$tmp" | grep -qv 'warning\[W001\]'; then
		fail "$f" "its form by carc fmt does not check the same"
	elif ! "$CARC" fmt --check "$tmp.cgn" >"$tmp" 2>&1; then
		fail "$f" "carc fmt's form is not canonical"
	else
		passed=$((passed + 1))
	fi
done

for f in "$dir"/illegal/*.cgn "$top"/tests/diag/E28*.cgn; do
	[ -f "$f" ] || continue
	where=$(sed -n 's/^; expect: \(E[0-9]*\) at \([0-9]*:[0-9]*\).*/\1 \2/p' "$f" | head -n 1)
	if [ -z "$where" ]; then
		: >"$tmp"
		fail "$f" "no '; expect: CODE at LINE:COL' line"
		continue
	fi
	code=${where% *} at=${where#* }
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	first=$(grep -E ':[0-9]+:[0-9]+: error\[' "$tmp" | head -n 1)
	if [ $status -ne 1 ]; then
		fail "$f" "exit status $status, expected 1"
	elif ! printf '%s\n' "$first" | grep -q ":$at: error\[$code\]"; then
		fail "$f" "expected error[$code] at $at first"
	else
		passed=$((passed + 1))
	fi
done

# gen_games NAME OPTIONS...: $GAMES generated games
gen_games() {
	name=$1
	shift
	if ! "$CARC" gen "$@" --games "$GAMES" --seed 32 >"$tmp.cgn" 2>"$tmp"; then
		fail "$name" "carc gen failed"
		return
	fi
	"$CARC" check "$tmp.cgn" >"$tmp" 2>&1
	if ! grep -q "^$GAMES games, $GAMES valid, 0 invalid" "$tmp"; then
		fail "$name" "$GAMES games do not all check clean"
	elif ! "$CARC" fmt "$tmp.cgn" >"$tmp.2.cgn" 2>"$tmp" || ! cmp -s "$tmp.cgn" "$tmp.2.cgn"; then
		fail "$name" "carc fmt changes the games"
	elif ! grep -q ' big [a-z]* [A-Z]' "$tmp.cgn"; then
		: >"$tmp"
		fail "$name" "no large follower deployed"
	else
		passed=$((passed + 1))
	fi
}
gen_games "inns-cathedrals" --expansions inns-cathedrals
gen_games "inns-cathedrals river abbot" --expansions "inns-cathedrals river abbot"
gen_games "6 players" --expansions "inns-cathedrals river abbot" --players 6

# JCloisterZone's test games: imported, they score as its tests assert.
jcz=$top/../shared/reference/jcz
# jcz_game FILE RESULT
jcz_game() {
	if [ ! -f "$jcz/$1" ]; then
		echo "skip: $1: JCloisterZone's test game is not there ($jcz absent)"
		skipped=$((skipped + 1))
		return
	fi
	if ! "$CARC" import --from jcz "$jcz/$1" >"$tmp.cgn" 2>"$tmp"; then
		fail "$1" "import --from jcz failed"
	elif ! "$CARC" score --final --format csv "$tmp.cgn" >"$tmp.2.cgn" 2>"$tmp"; then
		fail "$1" "carc score failed"
	elif ! grep -q ",total,.*,$2,,,,,$" "$tmp.2.cgn"; then
		cp "$tmp.2.cgn" "$tmp"
		fail "$1" "expected the final scores $2"
	else
		passed=$((passed + 1))
	fi
}
jcz_game inns-scoring.jcz "8,0"
jcz_game cathedrals-scoring.jcz "15,0"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
