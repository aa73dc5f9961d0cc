#!/bin/sh
# tests/bench/standings.sh - carc standings on a large event: 10,000 players
# and 100,000 games whose moves were not recorded (results alone, 20 rounds
# of 5,000 boards, a level score now and then), under each preset and with
# h2h first (which counts over the tied players' own games: all of them are
# tied on a level field). The games are made here with awk (a fixed
# pseudo-random sequence, so the file is the same on every machine) and
# cached in tests/bench/corpus/. The target: each run within 5 seconds of
# CPU on one core (linear in the games; the table of names cannot be slowed
# by chosen names: archive.c's carc_names).
#
#   CARC=build/carc sh tests/bench/standings.sh
#   BENCH_STANDINGS_GAMES=20000 ...   a smaller event (default 100000)
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-./carc}
GAMES=${BENCH_STANDINGS_GAMES:-100000}
PLAYERS=$((GAMES / 10))
dir=tests/bench/corpus
mkdir -p "$dir"
file=$dir/event-$GAMES.cgn
if [ ! -s "$file" ]; then
	echo "bench: generating $GAMES results into $file (once; cached) ..." >&2
	awk -v games="$GAMES" -v players="$PLAYERS" 'BEGIN {
		x = 12345
		per = players / 2
		for (g = 0; g < games; g++) {
			x = (x * 16807) % 2147483647; a = x % players
			x = (x * 16807) % 2147483647; b = x % players
			if (b == a) b = (a + 1) % players
			x = (x * 16807) % 2147483647; sa = 40 + x % 80
			x = (x * 16807) % 2147483647; sb = 40 + x % 80
			printf "[Event \"Bench\"]\n[Round \"%d\"]\n[Board \"%d\"]\n[Seats \"red green\"]\n", int(g / per) + 1, g % per + 1
			printf "[Red \"Player %d\"]\n[Green \"Player %d\"]\n[Result \"red %d, green %d\"]\n\n", a, b, sa, sb
		}
	}' >"$file.tmp" && mv "$file.tmp" "$file" || exit 2
fi
echo "bench: $file: $GAMES games, $PLAYERS players"
status=0
for opts in "" "--preset ua" "--preset wc" "--preset gg" "--preset co" "-t h2h,buchholz-cut1,sb,progressive"; do
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S %M' -o "$dir/standings.time" "$CARC" standings $opts "$file" >/dev/null 2>&1
		read -r user sys kb <"$dir/standings.time"
		secs=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
		printf 'standings %-40s %6.2f s cpu   peak %6.1f MB\n' "${opts:-(defaults)}" "$secs" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')"
		if awk -v s="$secs" 'BEGIN { exit !(s > 5) }'; then
			echo "bench: standings $opts: over the 5 s target"
			status=1
		fi
	else
		"$CARC" standings $opts "$file" >/dev/null 2>&1
	fi
done
rm -f "$dir/standings.time"
exit $status
