#!/bin/sh
# tests/bench/tourney.sh - carc pair and carc ratings on a large event:
# 10,000 players and 100,000 result-only games (20 rounds of 5,000 games,
# players met at random, random scores, a Date, a Time and a Match tag on
# each), made once with awk and cached in tests/bench/corpus/ (git-ignored).
# Times, best of BENCH_RUNS (default 3) by CPU time when /usr/bin/time is
# there: carc pair (round 21: every player has met up to 20 opponents),
# carc ratings per game, per match and --history. The target: each within a
# few seconds; they are linear in the games (one pass, hashed name and pair
# tables, one sort of the games for ratings).
#
#   make bench                      (called by bench.sh)
#   CARC=build/carc sh tests/bench/tourney.sh
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-./carc}
RUNS=${BENCH_RUNS:-3}
PLAYERS=${BENCH_PLAYERS:-10000}
ROUNDS=${BENCH_ROUNDS:-20}
dir=tests/bench/corpus
mkdir -p "$dir"
[ -x "$CARC" ] || { echo "bench: $CARC is not built (make carc)"; exit 2; }
players=$dir/tourney-$PLAYERS.txt
games=$dir/tourney-$PLAYERS-$ROUNDS.cgn
if [ ! -s "$games" ] || [ ! -s "$players" ]; then
	echo "bench: generating $PLAYERS players and $((PLAYERS / 2 * ROUNDS)) games into $games (once; cached) ..." >&2
	awk -v n="$PLAYERS" 'BEGIN { for (i = 1; i <= n; i++) printf "Player %05d %d\n", i, 1000 + (i * 7919) % 1500 }' \
		>"$players.tmp" && mv "$players.tmp" "$players"
	awk -v n="$PLAYERS" -v rounds="$ROUNDS" 'BEGIN {
		srand(2026)
		for (r = 1; r <= rounds; r++) {
			for (i = 1; i <= n; i++) p[i] = i
			for (i = n; i > 1; i--) { j = int(rand() * i) + 1; t = p[i]; p[i] = p[j]; p[j] = t }
			for (b = 1; 2 * b <= n; b++) {
				a = 60 + int(rand() * 60); c = 60 + int(rand() * 60)
				printf "[Event \"Bench open\"]\n[Date \"2026-%02d-%02d\"]\n[Round \"%d\"]\n", 1 + int(r / 28), 1 + r % 28, r
				printf "[Seats \"red green\"]\n[Red \"Player %05d\"]\n[Green \"Player %05d\"]\n", p[2 * b - 1], p[2 * b]
				printf "[Result \"red %d, green %d\"]\n[Time \"%02d:%02d:00\"]\n[Board \"%d\"]\n[Match \"%d-%d\"]\n\n", a, c, 10 + int(b / 600), int(b / 10) % 60, b, r, b
			}
		}
	}' >"$games.tmp" && mv "$games.tmp" "$games"
fi

have_time=false
[ -x /usr/bin/time ] && have_time=true
# run NAME COMMAND...: the best of RUNS
run() {
	name=$1
	shift
	best=""
	for i in $(seq "$RUNS"); do
		if $have_time; then
			/usr/bin/time -f '%U %S %e %M' -o "$dir/tourney-time.out" "$@" >/dev/null 2>"$dir/tourney-err.out" || {
				echo "$name: failed:"; head -n 5 "$dir/tourney-err.out"; return 1; }
			t=$(awk '{ printf "%.2f %.2f %d", $1 + $2, $3, $4 / 1024 }' "$dir/tourney-time.out")
		else
			s=$(date +%s.%N)
			"$@" >/dev/null 2>"$dir/tourney-err.out" || { echo "$name: failed"; return 1; }
			t=$(echo "$s $(date +%s.%N)" | awk '{ printf "%.2f %.2f 0", $2 - $1, $2 - $1 }')
		fi
		cpu=${t%% *}
		if [ -z "$best" ] || awk -v a="$cpu" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best=$t; fi
	done
	echo "$best" | awk -v name="$name" '{ printf "%-24s cpu %6.2f s  wall %6.2f s  peak %5d MB\n", name, $1, $2, $3 }'
}

echo "tourney: $PLAYERS players, $((PLAYERS / 2 * ROUNDS)) games ($(du -m "$games" | cut -f1) MB)"
run "pair (round $((ROUNDS + 1)))" "$CARC" pair --players "$players" "$games"
run "ratings" "$CARC" ratings "$games"
run "ratings --per match" "$CARC" ratings --per match "$games"
run "ratings --history" "$CARC" ratings --history "$games"
rm -f "$dir/tourney-time.out" "$dir/tourney-err.out"
