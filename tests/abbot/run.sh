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
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
tmp=${TMPDIR:-/tmp}/carc-abbot.$$
trap 'rm -f "$tmp" "$tmp.cgn"' EXIT INT TERM
passed=0
failed=0

fail() {
	echo "FAIL $1: $2"
	sed 's/^/    /' "$tmp" | head -n 12
	failed=$((failed + 1))
}

for f in "$dir"/abbot-*.cgn "$top"/tests/abbot/*.cgn; do
	[ -f "$f" ] || continue
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

for f in "$dir"/illegal/abbot-*.cgn "$dir"/illegal/monk-on-a-garden.cgn "$dir"/illegal/second-abbot.cgn \
	"$dir"/illegal/return-abbot-*.cgn; do
	[ -f "$f" ] || continue
	code=$(sed -n 's/^; expect: \(E[0-9][0-9]*\) at line \([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
	line=$(sed -n 's/^; expect: \(E[0-9][0-9]*\) at line \([0-9][0-9]*\).*/\2/p' "$f" | head -n 1)
	if [ -z "$code" ]; then
		: >"$tmp"
		fail "$f" "no '; expect: E... at line N' line"
		continue
	fi
	"$CARC" check "$f" >/dev/null 2>"$tmp"
	status=$?
	first=$(grep -E ':[0-9]+:[0-9]+: error\[' "$tmp" | head -n 1)
	if [ $status -ne 1 ]; then
		fail "$f" "exit status $status, expected 1"
	elif ! printf '%s\n' "$first" | grep -q ":$line:[0-9]*: error\[$code\]"; then
		fail "$f" "expected error[$code] at line $line first"
	else
		passed=$((passed + 1))
	fi
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
