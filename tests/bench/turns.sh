#!/bin/sh
# tests/bench/turns.sh - what a turn of a game with expansions costs against
# a turn of the base game, in instructions (cachegrind: a count that does
# not move with the machine's load or clock).
#
#   make bench                     (runs this last)
#   CARC=build/carc sh tests/bench/turns.sh
#   TURNS_GAMES=500 ...            fewer games (default 2000)
#   TURNS_COMBOS='abbot;inns-cathedrals river' ...
#                                  these combinations instead (any
#                                  expansions carc gen -x takes, a
#                                  combination to a line or between ';')
#
# Each line plays carc gen --games N --seed 1, with the expansions of the
# line (-x), through carc check -q under cachegrind, and divides its
# instructions by the game's turn lines (bonus turns included). The target
# (issue 32): a game with expansions at most 1.5 times a base game a turn,
# so that modules keep the base game's fast path on the turns they leave
# alone. A combination is one line of COMBOS below (or of TURNS_COMBOS); a
# new expansion adds its own. A combination with an expansion this carc does
# not have (carc gen -x refuses it) is skipped, and says so. Without
# valgrind it says so and stops.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-./carc}
GAMES=${TURNS_GAMES:-2000}
dir=tests/bench/corpus
mkdir -p "$dir"
[ -x "$CARC" ] || { echo "turns: $CARC is not built (make carc)"; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "turns: skipped: valgrind (cachegrind) is not installed"; exit 0; }

COMBOS=${TURNS_COMBOS:-'river abbot
river
abbot
inns-cathedrals traders-builders
inns-cathedrals traders-builders river abbot
inns-cathedrals
inns-cathedrals river abbot
traders-builders'}
COMBOS=$(echo "$COMBOS" | tr ';' '\n')

# instructions NAME [EXPANSIONS]: prints "turns instructions" of check -q on
# the generated games, or nothing when carc gen cannot make them.
instructions() {
	file=$dir/turns-$1-$GAMES.cgn
	if [ -n "$2" ]; then
		"$CARC" gen --games "$GAMES" --seed 1 -x "$2" >"$file" 2>/dev/null || { rm -f "$file"; return; }
	else
		"$CARC" gen --games "$GAMES" --seed 1 >"$file" || { rm -f "$file"; return; }
	fi
	turns=$(grep -cE '^ *[0-9]+\+?\. ' "$file")
	refs=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$CARC" check -q "$file" 2>&1 |
		sed -n 's/.*I *refs: *//p' | tr -d ,)
	rm -f "$file"
	echo "$turns $refs"
}

set -- $(instructions base "")
[ $# -eq 2 ] || { echo "turns: carc gen failed"; exit 2; }
base_turns=$1 base_refs=$2
printf 'turns: carc check -q on carc gen --games %s --seed 1, by cachegrind\n' "$GAMES"
awk -v t="$base_turns" -v r="$base_refs" 'BEGIN {
	printf "%-22s %7d turns %14.0f instructions %6.0f a turn\n", "base", t, r, r / t }'
echo "$COMBOS" | while IFS= read -r x; do
	[ -n "$x" ] || continue
	set -- $(instructions "$(echo "$x" | tr ' ' -)" "$x")
	if [ $# -ne 2 ]; then
		printf '%-22s skipped: carc gen -x "%s" fails (an expansion this carc does not have)\n' "-x \"$x\"" "$x"
		continue
	fi
	awk -v name="-x \"$x\"" -v t="$1" -v r="$2" -v bt="$base_turns" -v br="$base_refs" 'BEGIN {
		ratio = (r / t) / (br / bt)
		printf "%-22s %7d turns %14.0f instructions %6.0f a turn  %.2f x base (target 1.5: %s)\n",
			name, t, r, r / t, ratio, ratio <= 1.5 ? "met" : "MISSED" }'
done
