#!/bin/sh
# tests/stats/run.sh - carc stats, standings and filter on a hand-made archive.
#
# cup.cgn holds six games on the five-tile set mini.yaml (the start tile D,
# then E E U U: complete after four turns), small enough to work out every
# figure by hand. The games (red first; scores from their Result tags, which
# carc check confirms, and their comments):
#   1 Mini cup, round 1, 2026-01-10: Anna (red) 3, Boris (green) 5
#       red: road of 3 tiles at the end; green: closed 2-tile city 4 + 1-tile city 1
#   2 Mini cup, round 2, 2026-02-14: Chloé (red) 6, Anna (green) 4
#       red: road 3 + farm 3 (its field borders the closed city); green: city 4
#   3 Mini cup, round 3, 2026-03-07: Anna (red) 4, Boris (green) 4, Chloé (blue) 0
#   4 Mini cup, round 3: Boris (red) 3, Chloé (green) 5, a false claim: E212
#   5 Mini cup, round 4: Anna (red) 0, Chloé (green) 4 after two turns: W001
#   6 Friendly, Table 3 x 1: Dmitri (red) 0, Anna (green) 0, two discards
# The largest features of a complete game (1, 2, 3: the same map; 6: a row):
#   road 3 tiles in each; city 2 (D + E at 0,1) in 1-3, 1 in 6; field 5 in
#   1-3 (north of the road: U -1,0, D, U 1,0, E -1,1 and E 0,1, whose fields
#   meet), 3 in 6 (a row of three on either side of the road).
# Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
cd "$top/tests/stats" || exit 2
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

# same NAME EXPECTED-FILE GOT-FILE
same() {
	if cmp -s "$2" "$3"; then ok; else
		bad "$1: - expected + got:"
		diff "$2" "$3" | sed -n 's/^</  -/p; s/^>/  +/p' | head -n 30
	fi
}

# is_json NAME FILE: the file is one JSON document (when python3 can tell)
is_json() {
	command -v python3 >/dev/null 2>&1 || return 0
	if python3 -c 'import json,sys; json.load(sys.stdin)' <"$2"; then ok; else bad "$1 is not JSON"; fi
}

# status NAME WANT GOT
status() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: exit status $3, expected $2"; fi
}

# ---- carc stats ----
#
# Games 6: valid 5 (4 has an error), finished 5 (5 is not), complete 4
# (valid and finished: 1, 2, 3, 6). Players named: Anna, Boris, Chloé, Dmitri.
# Scores of complete games with 2 players: 3 5 (game 1), 6 4 (2), 0 0 (6):
#   all six: mean 18/6 = 3, squares of the deviations 0+4+9+1+9+9 = 32,
#     sample variance 32/5 = 6.4, sd 2.53; min 0, max 6
#   seat 1: 3 6 0: mean 3, (0+9+9)/2 = 9, sd 3.00; seat 2: 5 4 0: mean 3,
#     (4+1+9)/2 = 7, sd 2.65
# With 3 players (game 3): 4 4 0: mean 2.67, ((4/3)^2 * 2 + (8/3)^2)/2 =
#   16/3, sd 2.31.
# Points of the complete games: roads 3 + 3 + 3 at the end (games 1-3; the
# road of game 6 has no thief) = 9, 2.25 a game of 4; cities 4 + 4 + 4
# during play and 1 + 1 at the end = 14, 3.50; farms 3 (game 2), 0.75; in
# all 26: shares 9/26 = 34.6%, 14/26 = 53.8%, 3/26 = 11.5%.
# Decided by farms: game 2 only (without the farm red has 3 < green's 4);
# of 4 complete games with winners (6 is a shared win at 0): 25.0%.
# Largest features (see above): road 3 everywhere (sd 0); city 2 2 2 1:
# mean 1.75, deviations .25 .25 .25 -.75, (3 * .0625 + .5625)/3 = .25, sd
# 0.50; field 5 5 5 3: mean 4.50, (3 * .25 + 2.25)/3 = 1, sd 1.00. The game
# named is the first with the largest: game 1, whose text starts on line 1.
cat >"$tmp/want" <<'EOF'
Games: 6 in 1 file (0 unreadable): 5 valid, 1 invalid; 5 finished, 4 complete
Rules: base 6
Players: 4 named, 0 seats without a name
Seats: 2 players in 5 games, 3 players in 1 game

Diagnostics (games with each):
  E212  claim-mismatch           1
  W001  unfinished-game          1

Scores of complete games:
  rules    players seat  scores     mean       sd    min    max
  base           2  all       6     3.00     2.53      0      6
  base           2    1       3     3.00     3.00      0      6
  base           2    2       3     3.00     2.65      0      5
  base           3  all       3     2.67     2.31      0      4
  base           3    1       1     4.00     0.00      4      4
  base           3    2       1     4.00     0.00      4      4
  base           3    3       1     0.00     0.00      0      0

Points of complete games by source:
  rules    source              play       end     total    a game   share
  base     roads                  0         9         9      2.25   34.6%
  base     cities                12         2        14      3.50   53.8%
  base     cloisters              0         0         0      0.00    0.0%
  base     farms                  0         3         3      0.75   11.5%
  base     other                  0         0         0      0.00    0.0%

Decided by farms (a winner would not have won without farm points):
  base     1 of 4 complete games (25.0%)

Discards: 2 in 1 game; most in one game 2 (cup.cgn:80, game 6)

Largest features of complete games (tiles):
  base     road       largest   3 (cup.cgn:1, game 1); each game's largest: mean 3.00, sd 0.00
  base     city       largest   2 (cup.cgn:1, game 1); each game's largest: mean 1.75, sd 0.50
  base     field      largest   5 (cup.cgn:1, game 1); each game's largest: mean 4.50, sd 1.00
EOF
"$CARC" stats cup.cgn >"$tmp/got" 2>"$tmp/err"
status "stats" 0 $?
same "stats (text)" "$tmp/want" "$tmp/got"
[ -s "$tmp/err" ] && bad "stats wrote to standard error: $(head -n 3 "$tmp/err")" || ok

# The same figures in JSON: the games named carry their ids.
"$CARC" stats --format json cup.cgn >"$tmp/got"
status "stats --format json" 0 $?
id1=$("$CARC" filter --ids cup.cgn | sed -n 1p)
id6=$("$CARC" filter --ids cup.cgn | sed -n 6p)
for want in '"games":6,"valid":5,"invalid":1,"finished":5,"complete":4' \
	'"players":{"named":4,"unnamed_seats":0},"seats":{"2":5,"3":1},"codes":{"E212":1,"W001":1}' \
	'{"rules":"base","players":2,"seat":null,"scores":6,"mean":3,"sd":2.52982,"min":0,"max":6}' \
	'{"rules":"base","players":3,"seat":3,"scores":1,"mean":0,"sd":0,"min":0,"max":0}' \
	'{"rules":"base","source":"farms","play":0,"end":3,"total":3,"per_game":0.75,"share":0.115385}' \
	'"farms":[{"rules":"base","games":4,"decided":1,"share":0.25}]' \
	"\"discards\":{\"total\":2,\"games\":1,\"most\":2,\"file\":\"cup.cgn\",\"game\":6,\"line\":80,\"id\":\"$id6\"}" \
	"{\"rules\":\"base\",\"kind\":\"city\",\"tiles\":2,\"mean\":1.75,\"sd\":0.5,\"file\":\"cup.cgn\",\"game\":1,\"line\":1,\"id\":\"$id1\"}"; do
	if grep -qF -- "$want" "$tmp/got"; then ok; else bad "stats --format json lacks $want"; fi
done
is_json "stats --format json" "$tmp/got"

# CSV: one row a figure.
"$CARC" stats --format csv cup.cgn >"$tmp/got"
status "stats --format csv" 0 $?
for want in 'section,rules,players,seat,key,count,total,mean,sd,min,max' 'games,,,,complete,4,,,,,' \
	'scores,base,2,1,,3,,3.00,3.00,0,6' 'points,base,,,cities,4,14,3.50,,,' 'farms_decided,base,,,,4,1,0.2500,,,' \
	'discards,,,,,1,2,,,,2' 'largest,base,,,field,4,,4.50,1.00,3,5'; do
	if grep -qxF -- "$want" "$tmp/got"; then ok; else bad "stats --format csv lacks the row $want"; fi
done

# Bad input is a clear error, and the figures of the rest still come.
"$CARC" stats cup.cgn no-such-file.cgn >"$tmp/got" 2>"$tmp/err"
status "stats with a missing file" 2 $?
if grep -q '^no-such-file.cgn: error\[E001\]: cannot open' "$tmp/err" && grep -q '^Games: 6 in 2 files (1 unreadable)' "$tmp/got"; then ok; else
	bad "stats with a missing file: $(cat "$tmp/err")"
fi
"$CARC" stats --format xml cup.cgn 2>"$tmp/err"
status "stats --format xml" 2 $?

# ---- carc standings ----
#
# Mini cup only (--event), points 2 1 0: game 1 Boris beats Anna 5-3; game 2
# Chloé beats Anna 6-4; game 3 Anna and Boris draw at 4, Chloé loses; 4 and 5
# are left out (E212; unfinished without a Result).
#   Anna:  3 games, 0 won, 1 drawn, 2 lost: 1 point; for 3+4+4 = 11, against
#          (the best other score) 5+6+4 = 15, -4
#   Boris: 2 games, 1 won, 1 drawn: 3 points; for 5+4 = 9, against 3+4 = 7, +2
#   Chloé: 2 games, 1 won, 1 lost: 2 points; for 6+0 = 6, against 4+4 = 8, -2
# Buchholz, the points of each opponent once a meeting: Boris met Anna
# twice and Chloé once: 2*1 + 2 = 4; Chloé met Anna twice and Boris once:
# 2*1 + 3 = 5; Anna met Boris twice and Chloé twice: 2*3 + 2*2 = 10.
cat >"$tmp/want" <<'EOF'
Standings: Mini cup (3 games counted, 3 rounds; points: win 2, draw 1, loss 0; tie-breaks: buchholz, diff, for)

rank  player  games  won  drawn  lost  points  for  against  diff  buchholz
   1  Boris       2    1      1     0       3    9        7    +2         4
   2  Chloé       2    1      0     1       2    6        8    -2         5
   3  Anna        3    0      1     2       1   11       15    -4        10

Games not counted, or counted although invalid:
cup.cgn:55: game 4 (round 3) left out: invalid: E212
cup.cgn:69: game 5 (round 4) left out: unfinished, with no Result: no final scores
EOF
"$CARC" standings --event "Mini cup" cup.cgn >"$tmp/got" 2>"$tmp/err"
status "standings (an invalid game listed)" 1 $?
same "standings --event" "$tmp/want" "$tmp/got"

# Points 1 1 0 (a draw as good as a win): Boris 2, Anna 1, Chloé 1: Anna
# and Chloé are level, and each tie-break decides in its own way:
#   buchholz: Anna 2*2 + 2*1 = 6, Chloé 2*1 + 1*2 = 4: Anna
#   diff: Anna -4, Chloé -2: Chloé
#   h2h: game 2 Chloé won, game 3 Anna (4 to 0): 1 each, still level; then
#     for (11 to 6) gives Anna, wins (0 to 1) Chloé, and nothing more: both 2=
# standings_order TIEBREAKS EXPECTED-ORDER
standings_order() {
	got=$("$CARC" standings -e "Mini cup" -p 1,1,0 -t "$1" cup.cgn 2>/dev/null |
		awk '/^rank/ {on = 1; next} on && NF > 3 {printf "%s%s %s", sep, $1, $2; sep = ", "} /^$/ {on = 0}')
	if [ "$got" = "$2" ]; then ok; else bad "standings -p 1,1,0 -t $1: '$got', expected '$2'"; fi
}
standings_order buchholz,diff,for "1 Boris, 2 Anna, 3 Chloé"
standings_order diff "1 Boris, 2 Chloé, 3 Anna"
standings_order h2h,for "1 Boris, 2 Anna, 3 Chloé"
standings_order h2h,wins "1 Boris, 2 Chloé, 3 Anna"
standings_order h2h "1 Boris, 2= Anna, 2= Chloé"
standings_order none "1 Boris, 2= Anna, 2= Chloé"

# --include-invalid counts game 4 (Chloé beats Boris 5-3) and still lists it:
# Chloé 3 games, 2 won: 4 points, for 11, against 11; Boris 3 games, 1 won,
# 1 drawn, 1 lost: 3 points, for 12, against 12; Anna as before. Buchholz:
# Chloé met Anna twice, Boris twice: 2 + 6 = 8; Boris: Anna twice, Chloé
# twice: 2 + 8 = 10; Anna: Boris twice, Chloé twice: 6 + 8 = 14.
cat >"$tmp/want" <<'EOF'
   1  Chloé       3    2      0     1       4   11       11     0         8
   2  Boris       3    1      1     1       3   12       12     0        10
   3  Anna        3    0      1     2       1   11       15    -4        14
cup.cgn:55: game 4 (round 3) counted although invalid: E212
EOF
"$CARC" standings -e "Mini cup" --include-invalid cup.cgn 2>&1 | grep -E '^ +[0-9]|) counted although invalid' >"$tmp/got"
same "standings --include-invalid" "$tmp/want" "$tmp/got"

# JSON and CSV of the whole file (game 6, the Friendly, counts: Dmitri and
# Anna draw 0-0). Anna: 4 games, 0 won, 2 drawn, 2 points.
"$CARC" standings --format json cup.cgn >"$tmp/got" 2>"$tmp/err"
status "standings --format json" 1 $?
id4=$("$CARC" filter --ids cup.cgn | sed -n 4p)
for want in '"events":["Mini cup","Friendly"],"rounds":3,"games":4,"left_out":2' \
	'{"rank":2,"player":"Anna","name":"Anna","games":4,"wins":0,"draws":2,"losses":2,"byes":0,"games_won":0,"games_lost":2,"points":2,"for":11,"against":15,"diff":-4,' \
	"{\"file\":\"cup.cgn\",\"game\":4,\"line\":55,\"id\":\"$id4\",\"round\":\"3\",\"counted\":false,\"reason\":\"invalid: E212\",\"codes\":[\"E212\"]}"; do
	if grep -qF -- "$want" "$tmp/got"; then ok; else bad "standings --format json lacks $want"; fi
done
is_json "standings --format json" "$tmp/got"
cat >"$tmp/want" <<'EOF'
rank,name,games,wins,draws,losses,points,for,against,diff,buchholz
1,Boris,2,1,1,0,3,9,7,2,6
2,Anna,4,0,2,2,2,11,15,-4,11
3,Chloé,2,1,0,1,2,6,8,-2,7
4,Dmitri,1,0,1,0,1,0,0,0,2
EOF
"$CARC" standings --format csv cup.cgn >"$tmp/got" 2>"$tmp/err"
same "standings --format csv" "$tmp/want" "$tmp/got"
if grep -q '^carc standings: cup.cgn:55: game 4 (round 3) left out: invalid: E212' "$tmp/err"; then ok; else
	bad "standings --format csv does not list game 4 on standard error"
fi
"$CARC" standings --tiebreak h2h,h2h cup.cgn 2>/dev/null
status "standings --tiebreak h2h,h2h" 2 $?
"$CARC" standings --points 2,1 cup.cgn 2>/dev/null
status "standings --points 2,1" 2 $?

# ---- carc filter ----
#
# Everything selected: the file itself, byte for byte, CRLF kept; the games
# of an event and the rest make the file again.
"$CARC" filter cup.cgn >"$tmp/got"
status "filter (all)" 0 $?
same "filter (all) is the file" cup.cgn "$tmp/got"
sed 's/$/\r/' cup.cgn >"$tmp/crlf.cgn"
cp mini.yaml "$tmp/"
"$CARC" filter "$tmp/crlf.cgn" >"$tmp/got"
same "filter (all) of a CRLF file" "$tmp/crlf.cgn" "$tmp/got"
{ "$CARC" filter -t 'Event=Mini cup' cup.cgn; "$CARC" filter -t 'Event!=mini CUP' cup.cgn; } >"$tmp/got"
same "filter: an event and the rest" cup.cgn "$tmp/got"

# games CONDITIONS... : the numbers of the games selected ("1 3")
games() {
	"$CARC" filter "$@" cup.cgn 2>"$tmp/err" | "$CARC" check --format json - 2>/dev/null |
		sed -n 's/.*"tags":{.*"Round":"\([^"]*\)".*/R\1/p; t; s/.*"Red":"Dmitri".*/F/p' >"$tmp/rounds"
	tr '\n' ' ' <"$tmp/rounds" | sed 's/ $//'
}
# expect WANT CONDITIONS... (WANT: the games' rounds, R1 ... R4, and F for the Friendly)
expect() {
	want=$1
	shift
	got=$(games "$@")
	if [ "$got" = "$want" ]; then ok; else bad "filter $*: '$got', expected '$want'"; fi
}
expect "R1 R2 R3 R3 R4" -t 'Event=mini cup'
expect "R1 R2 R3 R3 R4" -t 'Event~CUP'
expect "R3 R3 R4" -t 'Round>=3'
expect "R2 R3 R3 R4 F" -t 'Round!=1'
expect "R2 R3" -t 'Date>=2026-02-01'
expect "R1 R2" -t 'Date < 2026-03-01'
expect "R1 R2 R3 R3 R4 F" -t 'Rules=base'
expect "" -t 'Rules=solo'
expect "R2 R3 R3 R4" -p 'chloé'
expect "R1 R3" --winner Boris
expect "R1 R3 R3 F" --winner green
expect "R1 R2 R3 R4 F" --valid
expect "R3" --invalid
expect "R3" --code E212
expect "R4" --code W001
# figures: scores (game 5 unfinished: 0 and 4 as it stopped)
expect "R2" -w 'score>=6'
expect "R3 R4 F" -w 'low=0'
expect "R1 R2 R3 R4" -w 'margin >= 2'
expect "R3" -w 'players=3'
expect "R4" -w 'turns<3'
expect "F" -w 'discards>=1'
expect "R1 R2 R3 R3 R4" -w 'city.tiles>=2'
expect "R1 R2 R3 R3" -w 'field.tiles>=5'
expect "R2" -w 'farm.points>=3'
expect "R1 R2 R3 R3" -w 'road.points>=3'
expect "R2" -w 'field.points>=3'
expect "" -w 'cloister.points>=1'
expect "R1 R2 R3 R3 R4" -w 'city.points=4'
# Hunters and Gatherers: a meadow's points are its hunters' final scoring,
# as a field's are its farmers'.
n_meadow=$("$CARC" filter -w 'meadow.points>=1' "$top"/tests/hunters/*.cgn | grep -c '^\[Rules')
n_farm=$("$CARC" filter -w 'farm.points>=1' "$top"/tests/hunters/*.cgn | grep -c '^\[Rules')
if [ "$n_meadow" -ge 1 ] && [ "$n_meadow" = "$n_farm" ]; then ok; else
	bad "filter -w meadow.points>=1: $n_meadow games, farm.points>=1: $n_farm"
fi
# conditions together: all must hold
expect "R1 R2" -p Anna -w 'score>=5'
expect "R2" -p Anna -w 'score>=5' -t 'Round=2'

# --ids: one id a selected game; --dedupe: a game met again (here the file
# twice, and its canonical form from carc fmt, which has the same ids) is
# written once.
"$CARC" filter --ids cup.cgn >"$tmp/ids"
if [ "$(wc -l <"$tmp/ids")" -eq 6 ] && [ "$(sort -u "$tmp/ids" | wc -l)" -eq 6 ] &&
	! grep -qv '^[0-9a-f]\{32\}$' "$tmp/ids"; then ok; else bad "filter --ids: $(cat "$tmp/ids")"; fi
cat cup.cgn cup.cgn | "$CARC" filter --dedupe - >"$tmp/got"
same "filter --dedupe (the file twice)" cup.cgn "$tmp/got"
"$CARC" fmt cup.cgn >"$tmp/fmt.cgn" 2>/dev/null
cat cup.cgn "$tmp/fmt.cgn" | "$CARC" filter -u --ids - >"$tmp/got"
same "filter --dedupe --ids (a file and its fmt form)" "$tmp/ids" "$tmp/got"

# filter | check | stats compose: the valid games' figures (a record on standard input
# reaches its tile set here only through --tileset-path).
"$CARC" filter --valid cup.cgn | "$CARC" stats --tileset-path . - >"$tmp/got"
if grep -q '^Games: 5 in 1 file (0 unreadable): 5 valid, 0 invalid; 4 finished, 4 complete$' "$tmp/got"; then ok; else
	bad "filter --valid | stats: $(head -n 1 "$tmp/got")"
fi

# Nothing selected: exit 1 and no output; usage errors: exit 2.
"$CARC" filter -p Nobody cup.cgn >"$tmp/got"
status "filter (none selected)" 1 $?
[ -s "$tmp/got" ] && bad "filter (none selected) wrote something" || ok
for args in "-t Event" "-t 1x=2" "-w foo>=1" "-w score>=x" "-w city.size>1" "-c X999"; do
	# shellcheck disable=SC2086
	"$CARC" filter $args cup.cgn >/dev/null 2>"$tmp/err"
	s=$?
	if [ $s = 2 ] && grep -q '^carc filter: ' "$tmp/err"; then ok; else bad "filter $args: exit $s, $(cat "$tmp/err")"; fi
done
"$CARC" filter cup.cgn no-such-file.cgn >/dev/null 2>"$tmp/err"
status "filter with a missing file" 2 $?

# stats --players: each named player's figures, as worked out by hand from
# the games above (complete: 1, 2, 3, 6; a win is the top score, shared
# too): Anna 5 games, 4 complete, 2 wins (3 and 6), mean (3+4+4+0)/4 = 2.75;
# Boris 3, 2, 2 wins, mean 4.5, cities 5+4; Chloé 4, 2, 1 win, mean 3, road
# 3 and farm 3; Dmitri 1, 1, 1 win (0 all), in text, CSV and JSON.
for f in txt csv json; do
	case $f in txt) fmt=text ;; *) fmt=$f ;; esac
	"$CARC" stats --players --format $fmt cup.cgn >"$tmp/got" 2>"$tmp/err"
	same "stats --players --format $fmt" cup-players.$f "$tmp/got"
done
[ -s "$tmp/err" ] && bad "stats --players cup.cgn: a warning: $(cat "$tmp/err")" || ok

# Names of every width align by display width (names.cgn: Chinese, combining
# accents written apart, 30 letters), and Chloe and Chloé get one warning
# from stats and from standings, and stay two players.
for cmd in "stats --players" standings; do
	name=$(echo "$cmd" | cut -d' ' -f1)
	# shellcheck disable=SC2086
	"$CARC" $cmd names.cgn >"$tmp/got" 2>"$tmp/err"
	same "$cmd names.cgn" names-$name.txt "$tmp/got"
	if [ "$(cat "$tmp/err")" = "carc $name: warning: players 'Chloe' and 'Chloé' differ only in case or accents; they are counted as two players" ]; then
		ok
	else
		bad "$cmd names.cgn: the warning about Chloe and Chloé: $(cat "$tmp/err")"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
