#!/bin/sh
# tests/abbot/run.sh - The Abbot's acceptance records (issue 21), which live
# in tests/river/ with The River's.
#
#   CARC=build/carc sh tests/abbot/run.sh
#
# Every tests/river/abbot-*.cgn, and tests/abbot/*.cgn (more of the same:
# quick points, the abbot deployed again after its return), is a legal game
# built around one rule of The Abbot, its scores worked out by hand in its comment and written as claims
# and a Result: `carc check` must exit 0 with no diagnostic but W001 (the
# unfinished-game warning), and so must its form by `carc fmt` ("return
# abbot" written back as read), which `carc fmt --check` finds canonical.
# Every illegal abbot record (tests/river/illegal/abbot-*, monk-on-a-garden,
# second-abbot, return-abbot-*) names its code and line in a comment line
# "; expect: E27x at line N, ...": `carc check` must exit 1 and report that
# code at that line, and no error before it. Then random games (`carc gen
# --expansions abbot`, 1000, and with The River too, 200): they check clean,
# carc fmt leaves them as they are, and they deploy the abbot and take it
# back. Ends with "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/river
. "$top/tests/lib.sh"
suite_begin abbot

for f in "$dir"/abbot-*.cgn "$top"/tests/abbot/*.cgn; do
	[ -f "$f" ] || continue
	check_legal "$f"
done

for f in "$dir"/illegal/abbot-*.cgn "$dir"/illegal/monk-on-a-garden.cgn "$dir"/illegal/second-abbot.cgn \
	"$dir"/illegal/return-abbot-*.cgn; do
	[ -f "$f" ] || continue
	check_illegal "$f"
done

# gen_games EXPANSIONS COUNT: COUNT generated games with the expansions
gen_games() {
	what="gen --expansions '$1'"
	if ! "$CARC" gen --expansions "$1" --games "$2" --seed 27 >"$tmp.cgn" 2>"$tmp"; then
		fail "$what" "carc gen failed"
		return
	fi
	"$CARC" check "$tmp.cgn" >"$tmp" 2>&1
	if ! grep -q "^$2 games, $2 valid, 0 invalid" "$tmp"; then
		fail "$what" "$2 games do not all check clean"
	elif ! "$CARC" fmt --check "$tmp.cgn" >"$tmp" 2>&1; then
		fail "$what" "carc fmt changes the games"
	elif ! grep -q ' abbot C' "$tmp.cgn" || ! grep -q ' return abbot' "$tmp.cgn"; then
		: >"$tmp"
		fail "$what" "no abbot deployed, or none taken back"
	else
		passed=$((passed + 1))
	fi
}
gen_games abbot "${ABBOT_GAMES:-1000}"
gen_games "river abbot" "${ABBOT_RIVER_GAMES:-200}"

# A base game after a game with The Abbot in one file has no abbot: the
# second game's is E275 at its line (the reader once took the last game's
# composed rule set for the second game's Rules tag).
"$CARC" check "$top/tests/fuzz/regressions/005-base-game-after-an-abbot-game.cgn" >/dev/null 2>"$tmp"
if grep -q ':12:[0-9]*: error\[E275\]' "$tmp" && ! grep -q ':8:[0-9]*: error' "$tmp"; then
	passed=$((passed + 1))
else
	fail "a base game after an abbot game" "expected E275 at line 12 only"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
