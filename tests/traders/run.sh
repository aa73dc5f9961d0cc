#!/bin/sh
# tests/traders/run.sh - Traders & Builders' acceptance records (issue 32).
#
#   CARC=build/carc sh tests/traders/run.sh
#
# Every tests/traders/*.cgn is a legal game built around one rule (goods to
# the completer, a tie on goods, the builder's double turn, a builder's road
# completed by the tile that earns it, the pig in each farm edition, six
# players), its scores worked out by hand in its comment and written as
# claims and a Result: `carc check` must exit 0 with no diagnostic but W001
# (the unfinished-game warning), and its form by `carc fmt` must check the
# same and be canonical. Every tests/traders/illegal/*.cgn names its code and
# line in a comment line "; expect: ENNN at line N": `carc check` must exit
# 1 and report that code at that line first. Then random games (`carc gen`,
# 1000 with the expansion alone, 1000 with The River and The Abbot too, 1000
# of six players with Inns & Cathedrals, The River and The Abbot): they
# check clean, carc fmt leaves them byte for byte, and they deploy builders
# and pigs and play double turns. Ends with "N passed, N failed, N skipped".
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/traders
. "$top/tests/lib.sh"
suite_begin traders

for f in "$dir"/*.cgn; do
	[ -f "$f" ] || continue
	check_legal "$f"
done

for f in "$dir"/illegal/*.cgn; do
	[ -f "$f" ] || continue
	check_illegal "$f"
done

# The breakdown names the goods and the pigs: pig.cgn's 4 are farms 3,
# pigs 1; goods-to-the-completer.cgn's blue 10 are goods.
"$CARC" score "$dir/pig.cgn" 2>/dev/null >"$tmp"
if grep -q '^  farms  *3  *0$' "$tmp" && grep -q '^  pigs  *1  *0$' "$tmp" &&
	grep -q 'as a farm (1 city): red +4' "$tmp"; then
	passed=$((passed + 1))
else
	fail "pig.cgn's breakdown" "expected farms 3, pigs 1 and the farm's event red +4"
fi
"$CARC" score --format json "$dir/goods-to-the-completer.cgn" 2>/dev/null >"$tmp"
if grep -q '"goods":10' "$tmp" && grep -q '"type":"wine"' "$tmp"; then
	passed=$((passed + 1))
else
	fail "goods-to-the-completer.cgn in JSON" "expected a wine event and goods 10 in the breakdown"
fi

# The tile set: 24 tiles (no start tile of their own), goods 9 wine, 6
# grain, 5 cloth; with The Abbot, two of them show gardens; listed and drawn.
"$CARC" tiles --check traders-builders >"$tmp" 2>&1
if grep -q '^tiles: 24 (no start tile' "$tmp" && grep -q '^attributes: wine 9, grain 6, cloth 5$' "$tmp" &&
	"$CARC" tiles --check traders-builders --expansions abbot 2>&1 | grep -q 'garden 2' &&
	"$CARC" tiles --tileset traders-builders 2>&1 | grep -q '^24 tiles in 24 types, no start tile' &&
	"$CARC" tiles --tileset traders-builders --expansions abbot TKg TUg 2>&1 | grep -q '^TKg: 1 *TUg: 1'; then
	passed=$((passed + 1))
else
	fail "carc tiles traders-builders" "expected 24 tiles, goods 9/6/5, TKg and TUg with The Abbot"
fi

# carc stats counts the goods bonus and the pigs' points among the sources.
"$CARC" gen --expansions traders-builders --games 40 --seed 7 >"$tmp.cgn" 2>/dev/null
"$CARC" stats "$tmp.cgn" >"$tmp" 2>&1
if grep -Eq '^  base +goods +0 +[1-9][0-9]* ' "$tmp" && grep -Eq '^  base +pigs +0 +[1-9][0-9]* ' "$tmp"; then
	passed=$((passed + 1))
else
	fail "carc stats of traders games" "expected rows goods and pigs"
fi

# Goods tokens per colour after every turn and at the end: in goods-tie.cgn
# blue holds 1 wine from turn 2, red 1 from turn 7 (JSON tallies; text
# "Held ...").
"$CARC" score --format json "$dir/goods-tie.cgn" 2>/dev/null >"$tmp"
wine=$(grep -o '"tallies":{"wine":{[^}]*}' "$tmp" | sed 's/.*"wine"://' | tr '\n' ' ')
if [ "$wine" = '{"red":0,"blue":0} {"red":0,"blue":1} {"red":0,"blue":1} {"red":0,"blue":1} {"red":0,"blue":1} {"red":0,"blue":1} {"red":1,"blue":1} {"red":1,"blue":1} ' ] &&
	"$CARC" score --turn 3 "$dir/goods-tie.cgn" 2>/dev/null | grep -q '^Held after turn 3: wine red 0, blue 1; grain red 0, blue 0; cloth red 0, blue 0$' &&
	"$CARC" score "$dir/goods-tie.cgn" 2>/dev/null | grep -q '^Held at the end: wine red 1, blue 1;'; then
	passed=$((passed + 1))
else
	fail "goods tokens in the reports" "expected tallies after turns 1, 2, the end, and Held lines in text"
fi

# ... and in CSV: the last column, held, after turn 2 (blue's wine from the
# city of D it closed) and on the total row (red 1 from turn 7); a base game
# keeps it empty.
"$CARC" score --format csv "$dir/goods-tie.cgn" 2>/dev/null >"$tmp"
if head -n 1 "$tmp" | grep -q ',pink,held$' &&
	grep -q '^[^,]*,1,1,0,[0-9a-f]*,2,blue,.*,"wine red 0, blue 1; grain red 0, blue 0; cloth red 0, blue 0"$' "$tmp" &&
	grep -q '^[^,]*,1,1,0,[0-9a-f]*,total,.*,"wine red 1, blue 1; grain red 0, blue 0; cloth red 0, blue 0"$' "$tmp" &&
	"$CARC" score --format csv "$top/tests/golden/data/three-games.cgn" 2>/dev/null | sed -n 2p | grep -q '0,$'; then
	passed=$((passed + 1))
else
	fail "goods tokens in CSV" "expected a held column with each colour's goods after turn 2 and at the end"
fi

# gen_games EXPANSIONS COUNT [OPTIONS]: COUNT generated games with the
# expansions (and the options of carc gen)
gen_games() {
	what="gen --expansions '$1'"
	if ! "$CARC" gen --expansions "$1" --games "$2" --seed 32 $3 >"$tmp.cgn" 2>"$tmp"; then
		fail "$what" "carc gen failed"
		return
	fi
	"$CARC" check "$tmp.cgn" >"$tmp" 2>&1
	if ! grep -q "^$2 games, $2 valid, 0 invalid" "$tmp"; then
		fail "$what" "$2 games do not all check clean"
	elif ! "$CARC" fmt --check "$tmp.cgn" >"$tmp" 2>&1; then
		fail "$what" "carc fmt changes the games"
	elif ! grep -q ' builder [NESW]' "$tmp.cgn" || ! grep -q ' pig [NESW]' "$tmp.cgn" ||
		! grep -q '^ *[0-9]*+ ' "$tmp.cgn"; then
		: >"$tmp"
		fail "$what" "no builder, no pig or no double turn"
	else
		passed=$((passed + 1))
	fi
}
gen_games traders-builders "${TRADERS_GAMES:-1000}"
gen_games "river abbot traders-builders" "${TRADERS_RIVER_ABBOT_GAMES:-1000}"
# both big expansions
gen_games "inns-cathedrals traders-builders" "${TRADERS_BOTH_GAMES:-1000}"
# with Inns & Cathedrals too, six players (the sixth colour plays)
gen_games "inns-cathedrals traders-builders river abbot" "${TRADERS_BIG_BOX_GAMES:-1000}" "--players 6"

# With both big expansions, each event is reported under its own kind: the
# inns' and the goods' kinds were once the same numbers, and an inn scored
# as "wine", a cathedral as "grain".
"$CARC" gen --expansions "inns-cathedrals traders-builders" --games 200 --seed 3 >"$tmp.cgn" 2>"$tmp"
"$CARC" score --format json "$tmp.cgn" >"$tmp.json" 2>"$tmp"
inns=$(grep -o '"type":"inn"' "$tmp.json" | wc -l)
wine=$(grep -o '"type":"wine"' "$tmp.json" | wc -l)
# (the wine bonus is one event a game at most)
if [ "$inns" -gt 0 ] && grep -q '"type":"cathedral"' "$tmp.json" && [ "$wine" -le 200 ]; then
	passed=$((passed + 1))
else
	fail "inns and goods apart" "$inns inn events, $wine wine events in 200 games"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
