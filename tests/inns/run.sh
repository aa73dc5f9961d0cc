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
# are, and they deploy the large follower. (JCloisterZone's two test games
# are transcribed by hand as inn-scores-double.cgn and cathedral.cgn, with
# the scores its tests assert: inns 8/0, cathedrals 15/0.) Ends with "N
# passed, N failed, N skipped".
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/inns
. "$top/tests/lib.sh"
suite_begin inns
GAMES=${INNS_GAMES:-1000}

for f in "$dir"/*.cgn; do
	check_legal "$f"
done

for f in "$dir"/illegal/*.cgn "$top"/tests/diag/E28*.cgn; do
	[ -f "$f" ] || continue
	check_illegal "$f"
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

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
