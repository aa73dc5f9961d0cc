#!/bin/sh
# tests/pair/run.sh - carc pair and carc ratings from the command line.
#
# The pairing's guarantees are proven over 500 random tournaments by the
# unit test test_swiss; here: the players file (its grammar and its
# faults), round 1 (by rating, by draw number, at random), a later round
# from results, a knock-out from seeding to the final, and ratings worked
# by hand:
#
# league.cgn, per game (K 32, scale 400, start 1500), in time order:
#   1 (01-01 19:00) Anna beats Boris: E = 0.5, Anna 1516, Boris 1484
#   2 (01-01 20:00) Boris - Chloé 70-70, a draw: E_Boris = 1/(1+10^(16/400))
#     = 0.476984; Boris 1484 + 32 * 0.023016 = 1484.74, Chloé 1499.26
#   3 (01-03) Chloé beats Anna: E_Chloé = 1/(1+10^(16.7365/400)) = 0.475940;
#     Chloé 1499.26 + 32 * 0.524060 = 1516.03, Anna 1516 - 16.77 = 1499.23
#   a bye and a no-show: not rated.
# --level second (game 2 won by Chloé, who moved second): Anna 1499.97,
#   Boris 1468.74, Chloé 1531.30. --preset gg (each game its own duel; the
#   no-show, Boris over Chloé, rated, Bo1: M = 1): Anna 1499.23, Boris
#   1502.17, Chloé 1498.60.
# duels.cgn, per match: M1 (02-01) Anna 2-0 Boris in a Bo3, M = 4/3: Anna
#   1521.33, Boris 1478.67; M2 (its first game 02-02) Boris 2-1 Chloé, M = 1:
#   E_Boris = 0.469347, Boris 1495.65, Chloé 1483.02; 02-04 Chloé beats Anna
#   (1-0, Bo1): E_Chloé = 0.445142, Chloé 1500.78, Anna 1503.58.
#
# The rounds carc pair writes are cut into a file a game (split below) to
# append each one's result; ratings read the fixtures whole.
# Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
cd "$top/tests/pair" || exit 2
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

# same NAME EXPECTED GOT (strings)
same() {
	if [ "$2" = "$3" ]; then ok; else
		bad "$1: expected:"
		printf '%s\n' "$2" | sed 's/^/  -/' | head -n 30
		printf '%s\n' "$3" | sed 's/^/  +/' | head -n 30
	fi
}
status() { if [ "$2" = "$3" ]; then ok; else bad "$1: exit status $3, expected $2"; fi; }
has() { if printf '%s\n' "$3" | grep -qF -- "$2"; then ok; else bad "$1: no '$2' in: $3"; fi; }

# split FILE DIR: each game (a paragraph) of FILE into DIR/NN.cgn
split() {
	mkdir -p "$2"
	awk -v dir="$2" 'BEGIN { RS = "" } { n++; f = sprintf("%s/%02d.cgn", dir, n); print $0 > f; close(f) }' "$1"
}

# ---- ratings ----
# the facts' worked duel of carcassonne.gg's Elo, through the command: the
# players' ratings before it given with --rating
out=$("$CARC" ratings --preset gg --rating A=1450.23 --rating B=1462.07 --format csv no-show-duel.cgn 2>&1)
same "ratings --rating, the worked gg duel" "rank,player,rating,duels,wins,draws,losses
1,A,1472.29,1,1,0,0
2,B,1440.01,1,0,0,1" "$out"
out=$("$CARC" ratings --rating A1450 no-show-duel.cgn 2>&1)
status "ratings --rating without =" 2 $?
has "ratings --rating without =" "--rating takes NAME=RATING" "$out"
out=$("$CARC" ratings league.cgn 2>&1)
status "ratings league" 0 $?
same "ratings league" "Ratings (Elo: start 1500, K 32, scale 400, per game; 3 games rated, 2 not rated (byes and results decided off the board))

rank  player   rating  games  won  drawn  lost
   1  Chloé   1516.03      2    1      1     0
   2  Anna    1499.23      2    1      0     1
   3  Boris   1484.74      2    0      1     1" "$out"
out=$("$CARC" ratings --level second --format csv league.cgn)
same "ratings --level second" "rank,player,rating,games,wins,draws,losses
1,Chloé,1531.30,2,2,0,0
2,Anna,1499.97,2,1,0,1
3,Boris,1468.74,2,0,0,2" "$out"
out=$("$CARC" ratings --preset gg --format csv league.cgn)
same "ratings --preset gg" "rank,player,rating,duels,wins,draws,losses
1,Boris,1502.17,3,1,1,1
2,Anna,1499.23,2,1,0,1
3,Chloé,1498.60,3,1,1,1" "$out"
out=$("$CARC" ratings --history league.cgn | cut -d, -f1,2,6-)
same "ratings --history" "date,time,player,opponent,result,before,after,change
2026-01-01,19:00:00,Anna,Boris,1,1500.00,1516.00,16.00
2026-01-01,19:00:00,Boris,Anna,0,1500.00,1484.00,-16.00
2026-01-01,20:00:00,Boris,Chloé,0.5,1484.00,1484.74,0.74
2026-01-01,20:00:00,Chloé,Boris,0.5,1500.00,1499.26,-0.74
2026-01-03,,Chloé,Anna,1,1499.26,1516.03,16.77
2026-01-03,,Anna,Chloé,0,1516.00,1499.23,-16.77" "$out"
if command -v python3 >/dev/null 2>&1; then
	out=$("$CARC" ratings --format json league.cgn | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s=%.2f" % (r["player"], r["rating"]) for r in d["players"]))')
	same "ratings json" "Chloé=1516.03 Anna=1499.23 Boris=1484.74" "$out"
	out=$("$CARC" ratings --history --format json league.cgn | python3 -c '
import json, sys
print(len(json.load(sys.stdin)))')
	same "ratings --history json" "6" "$out"
fi
split duels.cgn "$tmp/duels"
out=$("$CARC" ratings --per match --format csv "$tmp"/duels/*.cgn)
same "ratings --per match" "rank,player,rating,duels,wins,draws,losses
1,Anna,1503.58,2,1,0,1
2,Chloé,1500.78,2,1,0,1
3,Boris,1495.65,2,1,0,1" "$out"
out=$("$CARC" ratings --per match --history "$tmp"/duels/*.cgn | sed -n 2p | cut -d, -f6-)
same "a Bo3 won 2-0: M = 4/3" "Anna,Boris,1,1500.00,1521.33,21.33" "$out"
# a duel recorded twice: rated once under gg, twice otherwise
cp "$tmp/duels/01.cgn" "$tmp/duels/01b.cgn"
cp "$tmp/duels/02.cgn" "$tmp/duels/02b.cgn"
sed -i 's/"M1"/"M1 again"/' "$tmp/duels/01b.cgn" "$tmp/duels/02b.cgn"
out=$("$CARC" ratings --preset gg --format csv "$tmp"/duels/*.cgn 2>&1)
has "gg: a duplicate duel" "a duel recorded twice, rated once" "$out"
has "gg: a duplicate duel" "1,Anna,1503.58" "$out"
out=$("$CARC" ratings --per match --format csv "$tmp"/duels/*.cgn 2>&1)
case $out in *"1,Anna,1503.58"*) bad "per match rates a repeated duel once without gg" ;; *) ok ;; esac
"$CARC" ratings --per round league.cgn >/dev/null 2>&1
status "ratings --per round" 2 $?
"$CARC" ratings --preset gg --per game league.cgn >/dev/null 2>&1
status "ratings --preset gg --per game" 2 $?
"$CARC" ratings --k -1 league.cgn >/dev/null 2>&1
status "ratings --k -1" 2 $?
printf '[Event "League"]\n[Seats "red green"]\n[Red "A"]\n[Green "B"]\n[Termination "resigned"]\n[Winner "red"]\n' \
	>"$tmp/unknown.cgn"
out=$("$CARC" ratings "$tmp/unknown.cgn" 2>&1)
has "an unknown Termination" "unknown.cgn:1: game 1 left out: invalid: E035" "$out"
"$CARC" ratings "$tmp/unknown.cgn" >/dev/null 2>&1
status "an unknown Termination" 1 $?

# ---- pair: the players file ----
cat >"$tmp/players.txt" <<'EOF'
; Club cup 2026
Anna 1850
Boris 1720
Chloé 1900
Dmitri
"Eve 2" 1600 ; a name ending in a number
Femke 1500 absent
Gus withdrawn
EOF
out=$("$CARC" pair --players "$tmp/players.txt" --event "Club cup")
status "pair round 1" 0 $?
# by rating: Chloé, Anna, Boris, Eve 2, Dmitri (no rating); the last takes
# the bye; halves: Chloé - Boris (the first half starts on board 1), Anna -
# Eve 2 (the second half starts on board 2)
same "pair round 1" '[Event "Club cup"]
[Round "1"]
[Board "1"]
[Seats "red green"]
[Red "Chloé"]
[Green "Boris"]

[Event "Club cup"]
[Round "1"]
[Board "2"]
[Seats "red green"]
[Red "Eve 2"]
[Green "Anna"]

[Event "Club cup"]
[Round "1"]
[Board "3"]
[Seats "red"]
[Red "Dmitri"]
[Termination "bye"]' "$out"
printf '%s\n' "$out" >"$tmp/round1.cgn"
split "$tmp/round1.cgn" "$tmp/r1"
echo '[Result "red 80, green 70"]' >>"$tmp/r1/01.cgn"
echo '[Result "red 75, green 75"]' >>"$tmp/r1/02.cgn"
# after round 1: Chloé 1, Dmitri 1 (bye), Anna and Eve 2 0.5 (level), Boris
# 0. Boris, the lowest, takes the bye. Chloé - Dmitri would leave Anna -
# Eve 2, who have met: so Chloé meets Anna (Anna, second in round 1, starts),
# and Dmitri meets Eve 2 (Eve 2 started: Dmitri starts).
out=$("$CARC" pair --players "$tmp/players.txt" "$tmp"/r1/*.cgn | grep -E '^\[(Round|Board|Red|Green|Termination)')
same "pair round 2" '[Round "2"]
[Board "1"]
[Red "Anna"]
[Green "Chloé"]
[Round "2"]
[Board "2"]
[Red "Dmitri"]
[Green "Eve 2"]
[Round "2"]
[Board "3"]
[Red "Boris"]
[Termination "bye"]' "$out"
# --level second: Anna moved second and won round 1's level game
out=$("$CARC" pair --level second --players "$tmp/players.txt" "$tmp"/r1/*.cgn | grep -E '^\[(Red|Green)' | head -n 2)
same "pair --level second" '[Red "Anna"]
[Green "Chloé"]' "$out"
# a game without a result
cp "$tmp/round1.cgn" "$tmp/r1/03.cgn"
split "$tmp/round1.cgn" "$tmp/r1b"
out=$("$CARC" pair --players "$tmp/players.txt" "$tmp"/r1b/*.cgn 2>&1)
status "pair: a game without a result" 1 $?
has "pair: a game without a result" "01.cgn:1: game 1 (round 1) cannot be counted: unfinished, with no Result: no final scores" "$out"

# faults of the players file: file, line, column
printf 'Anna\n"Boris" 1700 maybe\n' >"$tmp/p1.txt"
out=$("$CARC" pair -p "$tmp/p1.txt" -e X 2>&1)
status "players: a bad word" 1 $?
has "players: a bad word" "p1.txt:2:14: 'maybe' is neither a rating (a number) nor absent or withdrawn" "$out"
# without quotes, the name runs to the last word that is no number or status
printf 'Anna\nBoris 1700 maybe\n' >"$tmp/p1b.txt"
out=$("$CARC" pair -p "$tmp/p1b.txt" -e X | grep Green)
same "players: a name with a number inside" '[Green "Boris 1700 maybe"]' "$out"
printf 'Anna\n  Boris\nAnna 1500\n' >"$tmp/p2.txt"
out=$("$CARC" pair -p "$tmp/p2.txt" -e X 2>&1)
has "players: a name twice" "p2.txt:3:1: 'Anna' is listed twice (first on line 1)" "$out"
printf 'Anna\n"Boris\n' >"$tmp/p3.txt"
out=$("$CARC" pair -p "$tmp/p3.txt" -e X 2>&1)
has "players: an open quote" "p3.txt:2:1: the quoted name has no closing quote" "$out"
printf 'Anna\n\001Boris\n' >"$tmp/p4.txt"
out=$("$CARC" pair -p "$tmp/p4.txt" -e X 2>&1)
has "players: a control character" "p4.txt:2:1: a control character" "$out"
printf 'Anna\nBoris\n' >"$tmp/p5.txt"
out=$("$CARC" pair -p "$tmp/p5.txt" "$tmp"/r1/01.cgn 2>&1)
status "pair: a player not in the file" 1 $?
has "pair: a player not in the file" "'Chloé' is not in the players file" "$out"
"$CARC" pair -p "$tmp/p5.txt" >/dev/null 2>&1
status "pair: round 1 without --event" 2 $?
"$CARC" pair -e X >/dev/null 2>&1
status "pair: no --players" 2 $?
"$CARC" pair -p "$tmp/nonexistent" -e X >/dev/null 2>&1
status "pair: no players file" 2 $?
printf 'Anna\nBo\377ris\n' >"$tmp/p7.txt"
out=$("$CARC" pair -p "$tmp/p7.txt" -e X 2>&1)
status "players: not UTF-8" 1 $?
has "players: not UTF-8" "p7.txt:2:3: malformed UTF-8 (byte 0xff)" "$out"
printf '\357\273\277Anna\nBoris\n' >"$tmp/p8.txt"
out=$("$CARC" pair -p "$tmp/p8.txt" -e X | grep Red)
same "players: a byte-order mark" '[Red "Anna"]' "$out"
"$CARC" pair -p "$tmp/p8.txt" -e "$(printf 'X\001')" >/dev/null 2>&1
status "pair: a control character in --event" 2 $?
# a name in quotes is written back escaped
printf '"Le \\"Roi\\""\nBoris\n' >"$tmp/p6.txt"
out=$("$CARC" pair -p "$tmp/p6.txt" -e X | grep Red)
same "pair: a quote in a name" '[Red "Le \"Roi\""]' "$out"

# ---- round 1 by draw numbers (the Ukrainian way), and at random ----
printf 'Anna 8\nBoris 3\nChloé 5\nDmitri 2\n' >"$tmp/draw.txt"
out=$("$CARC" pair -p "$tmp/draw.txt" -e X --draw-numbers | grep -E '^\[(Red|Green)' | tr '\n' ' ')
# numbers 2, 3, 5, 8 give 2-5 and 3-8 (facts file, 3.1)
same "pair --draw-numbers" '[Red "Dmitri"] [Green "Chloé"] [Red "Anna"] [Green "Boris"] ' "$out"
printf 'Anna 8\nBoris 3\nChloé 5\nDmitri 2\nEve 9\n' >"$tmp/draw5.txt"
out=$("$CARC" pair -p "$tmp/draw5.txt" -e X --draw-numbers | tail -n 2 | tr '\n' ' ')
same "pair --draw-numbers, odd" '[Red "Eve"] [Termination "bye"] ' "$out"
printf 'Anna\nBoris 3\n' >"$tmp/draw2.txt"
out=$("$CARC" pair -p "$tmp/draw2.txt" -e X --draw-numbers 2>&1)
has "pair --draw-numbers without a number" "draw2.txt:1: Anna has no draw number" "$out"
a=$("$CARC" pair -p eight.txt -e X --seed 7)
b=$("$CARC" pair -p eight.txt -e X --seed 7)
c=$("$CARC" pair -p eight.txt -e X --seed 8)
same "pair --seed: the same seed, the same round" "$a" "$b"
if [ "$a" != "$c" ]; then ok; else bad "pair --seed 7 and 8 give the same round"; fi
n=$(printf '%s\n' "$a" | grep -c '^\[Red')
same "pair --seed: four games" 4 "$n"

# ---- knock-out ----
split swiss8.cgn "$tmp/k8"
out=$("$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn | grep -E '^\[(Round|Red|Green)' | tr '\n' ' ')
same "knock-out QF" '[Round "QF"] [Red "Anna"] [Green "Hana"] [Round "QF"] [Red "Dmitri"] [Green "Eve"] [Round "QF"] [Red "Boris"] [Green "Gus"] [Round "QF"] [Red "Chloé"] [Green "Femke"] ' "$out"
"$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn >"$tmp/qf.cgn"
split "$tmp/qf.cgn" "$tmp/qf"
echo '[Result "red 80, green 70"]' >>"$tmp/qf/01.cgn"   # Anna
echo '[Result "red 60, green 70"]' >>"$tmp/qf/02.cgn"   # Eve beats Dmitri
out=$("$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/01.cgn "$tmp"/qf/02.cgn 2>&1)
status "knock-out: half a round" 1 $?
has "knock-out: half a round" "round QF is not complete: Boris - Gus has no game" "$out"
echo '[Result "red 90, green 70"]' >>"$tmp/qf/03.cgn"   # Boris
echo '[Result "red 70, green 70"]' >>"$tmp/qf/04.cgn"   # level: Chloé, the better seed
out=$("$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn | grep -E '^\[(Round|Red|Green)' | tr '\n' ' ')
same "knock-out SF" '[Round "SF"] [Red "Anna"] [Green "Eve"] [Round "SF"] [Red "Boris"] [Green "Chloé"] ' "$out"
"$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn >"$tmp/sf.cgn"
split "$tmp/sf.cgn" "$tmp/sf"
echo '[Result "red 70, green 80"]' >>"$tmp/sf/01.cgn"   # Eve
echo '[Result "red 90, green 80"]' >>"$tmp/sf/02.cgn"   # Boris
out=$("$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn "$tmp"/sf/*.cgn | grep -E '^\[(Round|Red|Green)' | tr '\n' ' ')
same "knock-out F: the better seed starts" '[Round "F"] [Red "Boris"] [Green "Eve"] ' "$out"
"$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn "$tmp"/sf/*.cgn >"$tmp/f.cgn"
echo '[Result "red 70, green 80"]' >>"$tmp/f.cgn"
out=$("$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn "$tmp"/sf/*.cgn "$tmp/f.cgn" 2>&1)
status "knock-out over" 0 $?
same "knock-out over" "carc pair: the final is decided: Eve wins the knock-out" "$out"
# the match for third place: the semi-finals' losers, Anna (seed 1) and
# Chloé (seed 3), written with the final, then on its own once the final
# is in, then its winner said
# after_sf OPTION... FILE...: carc pair --knockout 8 on the games up to the
# semi-finals, and FILEs
after_sf() { "$CARC" pair -p eight.txt --knockout 8 "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn "$tmp"/sf/*.cgn "$@"; }
out=$(after_sf --third-place | grep -E '^\[(Round|Board|Red|Green)' | tr '\n' ' ')
same "knock-out F and 3rd" '[Round "F"] [Board "1"] [Red "Boris"] [Green "Eve"] [Round "3rd"] [Board "1"] [Red "Anna"] [Green "Chloé"] ' "$out"
out=$(after_sf --third-place "$tmp/f.cgn" 2>"$tmp/err" | grep -E '^\[(Round|Red|Green)' | tr '\n' ' ')
same "knock-out: the final in, 3rd to play" '[Round "3rd"] [Red "Anna"] [Green "Chloé"] ' "$out"
has "knock-out: the final in, 3rd to play" "the final is decided: Eve wins the knock-out" "$(cat "$tmp/err")"
after_sf --third-place >"$tmp/f3.cgn"
split "$tmp/f3.cgn" "$tmp/f3"
cp "$tmp/f3/02.cgn" "$tmp/3rd.cgn"
cp "$tmp/f3/02.cgn" "$tmp/3rd-level.cgn"
echo '[Result "red 60, green 75"]' >>"$tmp/3rd.cgn"         # Chloé
echo '[Result "red 70, green 70"]' >>"$tmp/3rd-level.cgn"   # level: Anna, the better seed
out=$(after_sf --third-place "$tmp/f.cgn" "$tmp/3rd.cgn" 2>&1)
status "knock-out over, 3rd too" 0 $?
same "knock-out over, 3rd too" "carc pair: the final is decided: Eve wins the knock-out
carc pair: the match for third place is decided: Chloé is third" "$out"
out=$(after_sf --third-place "$tmp/3rd-level.cgn" 2>&1 >/dev/null)
has "knock-out: a level match for third place" "Anna is third" "$out"
out=$(after_sf "$tmp/3rd.cgn" 2>&1)
status "a 3rd game without --third-place" 1 $?
has "a 3rd game without --third-place" "3rd.cgn:1: game 1 is of round 3rd, the match for third place, which is played only with --third-place" "$out"
sed 's/"Chloé"/"Eve"/' "$tmp/3rd.cgn" >"$tmp/3rd-bad.cgn"
out=$(after_sf --third-place "$tmp/3rd-bad.cgn" 2>&1)
status "a 3rd game of the wrong players" 1 $?
has "a 3rd game of the wrong players" "game 1: Anna - Eve is not a match of round 3rd of the bracket" "$out"
out=$("$CARC" pair -p eight.txt --knockout 8 --third-place "$tmp"/k8/*.cgn "$tmp"/qf/*.cgn "$tmp/f.cgn" 2>&1)
status "a final before the semi-finals" 1 $?
has "a final before the semi-finals" "f.cgn:1: game 1: Boris - Eve is of a later round than SF, which is not played yet" "$out"
out=$("$CARC" pair -p eight.txt --knockout 2 --third-place "$tmp"/k8/*.cgn 2>&1)
status "pair --knockout 2 --third-place" 2 $?
has "pair --knockout 2 --third-place" "--third-place is a match of the semi-finals' losers: it takes --knockout 4 or more" "$out"
"$CARC" pair -p eight.txt --third-place "$tmp"/k8/*.cgn >/dev/null 2>&1
status "pair --third-place without --knockout" 2 $?
"$CARC" pair -p eight.txt --knockout 6 "$tmp"/k8/*.cgn >/dev/null 2>&1
status "pair --knockout 6" 2 $?
out=$("$CARC" pair -p eight.txt --knockout 16 "$tmp"/k8/*.cgn 2>&1)
status "pair --knockout 16 of 8" 1 $?

# ---- random tournaments, end to end ----
out=$(sh ./random.sh "$CARC" "$tmp")
printf '%s\n' "$out" | grep '^FAIL'
line=$(printf '%s\n' "$out" | tail -n 1)
passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
failed=$((failed + $(echo "$line" | cut -d' ' -f3)))

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
