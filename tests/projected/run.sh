#!/bin/sh
# tests/projected/run.sh - the projected final (carc score --projected) of a
# game's last turn is its final score.
#
#   CARC=build/carc sh tests/projected/run.sh
#
# For every game of the bundled samples and of games from carc gen (base
# games of 2 to 5 players in the three editions, solo games of three and
# four colours, Hunters and Gatherers), the projection after the last turn
# equals the final total of every colour whenever final scoring was done
# (a finished game, or an unfinished one with a Result or --final). The
# projection replays the game independently of the run that scored it, so
# the two agreeing is a real check of both. The hand-worked positions are
# golden tests (tests/golden/score-projected*). One test per game, and one
# per file for its replay page (carc render --format html, which projects
# every step as well); prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
GAMES=${PROJECTED_GAMES:-6}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# Reads carc score --projected --format csv; prints one line per game:
# "ok GAME" or "FAIL GAME last-projection final". The last 14 fields are
# the 7 scores and the 7 projections (only the "scored" field is quoted,
# and it comes before them).
compare() {
	awk -F, 'NR > 1 {
		game = $2 # (file,game,line,offset,id,turn,...)
		if ($6 ~ /^[0-9]+\+?$/) {
			last[game] = ""
			for (i = NF - 6; i <= NF; i++)
				last[game] = last[game] "," $i
		} else if ($6 == "total") {
			total = ""
			for (i = NF - 13; i <= NF - 7; i++)
				total = total "," $i
			if (last[game] == total)
				print "ok " game
			else
				print "FAIL " game " " last[game] " " total
		}
	}'
}

check_file() { # label file [extra options]
	label=$1
	file=$2
	shift 2
	"$CARC" score --projected --final --format csv "$@" "$file" >"$tmp/out.csv" 2>/dev/null
	status=$?
	if [ $status -ge 2 ]; then
		failed=$((failed + 1))
		echo "FAIL $label: carc score exited with $status"
		return
	fi
	compare <"$tmp/out.csv" >"$tmp/verdicts"
	if [ ! -s "$tmp/verdicts" ]; then
		failed=$((failed + 1))
		echo "FAIL $label: no game had a final scoring"
		return
	fi
	while read -r verdict rest; do
		if [ "$verdict" = ok ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "FAIL $label game $rest"
		fi
	done <"$tmp/verdicts"
}

# The replay page projects every step too: it must be written (status 0
# or 1), whatever the rule set.
pages() { # label file
	"$CARC" render --format html -o "$tmp/page.html" "$2" 2>/dev/null
	status=$?
	if [ $status -le 1 ] && [ -s "$tmp/page.html" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $1: carc render --format html exited with $status"
	fi
}

for f in "$top"/samples/*.cgn; do
	check_file "$(basename "$f")" "$f"
done
for e in 1 2; do
	check_file "full-game-2-players.cgn, edition $e" "$top/samples/full-game-2-players.cgn" --edition $e
done
for spec in "base 2 1" "base 3 2" "base 4 3" "base 5 1" "solo 3 2" "solo 4 3" "hunters 2 3" "hunters 4 3"; do
	set -- $spec
	"$CARC" gen --rules "$1" --players "$2" --games "$GAMES" --seed "$3$2" --edition "$3" -o "$tmp/gen.cgn" 2>/dev/null ||
		"$CARC" gen --rules "$1" --players "$2" --games "$GAMES" --seed "$3$2" -o "$tmp/gen.cgn"
	check_file "gen $*" "$tmp/gen.cgn"
	pages "gen $*" "$tmp/gen.cgn"
done
# a solo game whose EndOrder names followers that are not on the map yet
# at the earlier steps (their projections once reported to a referee that
# had returned, and crashed)
"$CARC" gen --rules solo --seed 3 -o "$tmp/solo.cgn"
check_file "gen solo, seed 3" "$tmp/solo.cgn"
pages "gen solo, seed 3" "$tmp/solo.cgn"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
