#!/bin/sh
# tests/river/run.sh - The River: the hand-worked records of issue 21 and
# generated games, checked by carc.
#
#   CARC=build/carc sh tests/river/run.sh
#
# The records of this folder that play The River (their Expansions tag
# names it; README.md lists them all), by tests/rules/run.sh:
#   - every *.cgn is a small legal game built around one rule, its scores
#     worked out by hand in its comment and written as claims and a Result
#     tag: `carc check` must exit 0 with no diagnostic but W001 (the record
#     stops early);
#   - every illegal/*.cgn breaks one rule and says where in a line
#     "; expect: E26x, line N, ...": `carc check` must exit 1 and report
#     that code on that line.
# Then random games (`carc gen --expansions river`, with the base rules and
# with solo) must check clean and be canonical: `carc fmt` leaves them as
# they are: the issue's 1000 games with the base rules and 200 in solo (a
# few seconds; RIVER_GAMES and RIVER_SOLO_GAMES change the counts). Ends
# with "N passed, N failed".
dir=$(dirname "$0")
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$(pwd)/$CARC ;; esac
export CARC
tmp=${TMPDIR:-/tmp}/carc-river.$$
trap 'rm -f "$tmp" "$tmp".*' EXIT INT TERM

# the records, by the harness of tests/rules
sh "$dir/../rules/run.sh" "$dir" '^\[Expansions "[^"]*[Rr][Ii][Vv][Ee][Rr]' >"$tmp.records"
status=$?
grep -v '^[0-9]* passed, [0-9]* failed$' "$tmp.records"
passed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp.records")
failed=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp.records")
[ $status -eq 0 ] || [ "${failed:-0}" -gt 0 ] || failed=1
passed=${passed:-0}
failed=${failed:-1}

fail() {
	echo "FAIL $1: $2"
	sed 's/^/    /' "$tmp" | head -n 12
	failed=$((failed + 1))
}

# gen_games RULES COUNT: COUNT games of RULES with the river check clean
# (a full game: not even W001) and come back from fmt unchanged.
gen_games() {
	if ! "$CARC" gen --rules "$1" --expansions river --games "$2" --seed 21 >"$tmp.cgn" 2>"$tmp"; then
		fail "gen --rules $1 --expansions river" "carc gen failed"
		return
	fi
	if ! "$CARC" check "$tmp.cgn" >"$tmp.out" 2>"$tmp" || [ -s "$tmp" ] ||
		! grep -q "^$2 games, $2 valid" "$tmp.out"; then
		cat "$tmp.out" >>"$tmp"
		fail "gen --rules $1 --expansions river" "$2 games do not all check clean"
	elif ! "$CARC" fmt "$tmp.cgn" >"$tmp.fmt" 2>"$tmp" || ! cmp -s "$tmp.cgn" "$tmp.fmt"; then
		fail "gen --rules $1 --expansions river" "carc fmt changes the games"
	elif [ "$(grep -c '^\[Expansions "river"\]$' "$tmp.cgn")" -ne "$2" ]; then
		: >"$tmp"
		fail "gen --rules $1 --expansions river" "not every game has [Expansions \"river\"]"
	elif ! "$CARC" score --format json "$tmp.cgn" >"$tmp.out" 2>"$tmp" || ! grep -q '"kind":"road"' "$tmp.out" ||
		grep -q '"kind":"river"' "$tmp.out"; then
		fail "gen --rules $1 --expansions river" "a scoring event of the river (it never scores)"
	else
		passed=$((passed + 1))
	fi
}
# usage_error WANT OPTION...: carc gen with the options exits 2 and says WANT.
usage_error() {
	want=$1
	shift
	"$CARC" gen "$@" >/dev/null 2>"$tmp"
	status=$?
	if [ $status -ne 2 ] || ! grep -qF "$want" "$tmp"; then
		fail "gen $*" "exit status $status, expected 2 and '$want'"
	else
		passed=$((passed + 1))
	fi
}
usage_error "does not go with the rules hunters" --rules hunters --expansions river
usage_error "'inns' is not an expansion: river, abbot, inns-cathedrals or traders-builders" --expansions river,inns

gen_games base "${RIVER_GAMES:-1000}"
gen_games solo "${RIVER_SOLO_GAMES:-200}"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
