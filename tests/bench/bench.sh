#!/bin/sh
# tests/bench/bench.sh - throughput and memory of carc's commands, each
# against a parse-only floor and against carc check.
#
#   make bench                    (builds ./carc and the floor, then runs this)
#   CARC=build/carc sh tests/bench/bench.sh
#   BENCH_GAMES=20000 ...         a smaller corpus (default 100000)
#   BENCH_RUNS=5 ...              best of N timed runs (default 3)
#   FLOOR=build/bench/floor ...   the floor program (default: built here with $CC)
#
# Two corpora of BENCH_GAMES complete random base games from carc gen (2 to
# 5 players, a quarter each), each in one file, cached in tests/bench/corpus/
# (git-ignored) and rebuilt when carc gen's output for it changes: "claims",
# with a claim on every turn (--claim-rate 1), and "plain", with none
# (--claim-rate 0; the Result tag still has the final scores); and a third,
# "claims4", of 4-player games only, every player's score claimed on every
# turn (the shape of JCloisterZone's exports), on which check's instructions
# are also counted against the floor's by cachegrind. On each, one
# core reads the whole file with: the floor (tests/bench/floor.c: lines and
# every number of the turns and claims, no rules), carc check, carc score
# --format json and csv, and carc fmt. Each line gives the command's time as
# a ratio to the floor's and to check's (the targets: check within 2.0
# times the floor on the claims corpus; score within 2.5 times check, fmt
# within 3), games/s, MB/s and the peak resident memory. Figures are from
# the best of BENCH_RUNS runs by CPU time (user + system, from
# /usr/bin/time; the machine is shared, so wall time is shown beside it);
# without /usr/bin/time, wall time only and no memory. The target for carc
# check is 100,000 games/s. Then tests/bench/jobs.sh: check -j 2 on one
# file against -j 1, by wall time, with a control run that shows whether
# two cores were free (the target is 1.7 on an idle 2-core machine), and
# score --format json -j 2 against -j 1. Then tests/bench/standings.sh:
# carc standings on 100,000 results of 10,000 players, under each preset
# (the target: 5 s each); tests/bench/tourney.sh: pair and ratings; last,
# tests/bench/turns.sh: instructions a turn of games with expansions against
# the base game's (cachegrind; the target is 1.5).
#
# A shared virtual machine's host changes the clock its cores run at from
# one second to the next, and the time of the same work with it; so the
# clock is read before and after each timed run (tests/bench/clock.c, built
# with $CC, default cc) and the best run's cycles per game are printed too,
# a figure that does not move with the clock.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-./carc}
GAMES=${BENCH_GAMES:-100000}
RUNS=${BENCH_RUNS:-3}
dir=tests/bench/corpus
mkdir -p "$dir"
[ -x "$CARC" ] || { echo "bench: $CARC is not built (make carc)"; exit 2; }

# corpus NAME RATE [PLAYERS]: the file of GAMES games with claim rate RATE
# (2 to 5 players, a quarter each, or PLAYERS in every game), made once and
# cached. Its stamp is the head of each run of carc gen, so a change in the
# generator (or the canonical layout) rebuilds it.
corpus() {
	file=$dir/$1-$GAMES.cgn
	stamp=$dir/$1-$GAMES.stamp
	quarter=$((GAMES / 4))
	players=${3:-2 3 4 5}
	want=$(for p in $players; do "$CARC" gen --players $p --seed $p --claim-rate "$2" --games 2; done | cksum)
	if [ ! -s "$file" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
		echo "bench: generating $GAMES games into $file (once; cached) ..." >&2
		start=$(date +%s)
		rm -f "$file.tmp"
		if [ -n "$3" ]; then
			"$CARC" gen --players "$3" --seed "$3" --claim-rate "$2" --games "$GAMES" >"$file.tmp" || exit 2
		else
			for p in 2 3 4 5; do
				n=$quarter
				[ $p -eq 5 ] && n=$((GAMES - 3 * quarter))
				"$CARC" gen --players $p --seed $p --claim-rate "$2" --games $n >>"$file.tmp" || exit 2
				[ $p -eq 5 ] || echo >>"$file.tmp"
			done
		fi
		mv "$file.tmp" "$file"
		echo "$want" >"$stamp"
		echo "bench: generated in $(($(date +%s) - start)) s" >&2
	fi
	echo "$file"
}

have_time=0
[ -x /usr/bin/time ] && have_time=1

# The clock reader; without it (no compiler, another processor), no cycles.
clock=$dir/clock
if ! "${CC:-cc}" -O2 -o "$clock" tests/bench/clock.c 2>/dev/null || ! "$clock" >/dev/null; then
	clock=""
fi
# ghz: the clock now, or nothing
ghz() {
	[ -n "$clock" ] && "$clock"
}

# The floor: make bench builds it; else it is built here.
if [ -z "$FLOOR" ]; then
	FLOOR=$dir/floor
	"${CC:-cc}" -std=c11 -O2 -o "$FLOOR" tests/bench/floor.c || { echo "bench: cannot build the floor"; exit 2; }
fi

# run NAME COMMAND...: the best of RUNS runs by CPU time (with the clock
# around it), and the peak RSS, printed with the ratios to $floor_secs and
# $check_secs (when set); the best time is left in $best.
run() {
	name=$1
	shift
	best=""
	best_ghz=""
	peak=0
	i=0
	while [ $i -lt "$RUNS" ]; do
		g0=$(ghz)
		if [ $have_time -eq 1 ]; then
			/usr/bin/time -f '%e %U %S %M' -o "$dir/time.out" "$@" >/dev/null 2>"$dir/stderr.out"
			status=$?
			read -r wall user sys kb <"$dir/time.out"
			secs=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
		else
			s0=$(date +%s.%N)
			"$@" >/dev/null 2>"$dir/stderr.out"
			status=$?
			wall=$(echo "$s0 $(date +%s.%N)" | awk '{ printf "%.2f", $2 - $1 }')
			secs=$wall
			kb=0
		fi
		if [ "$status" -gt 1 ]; then
			echo "bench: $name: exit status $status: $(head -n 1 "$dir/stderr.out")"
			best=""
			return 1
		fi
		g1=$(ghz)
		if [ -z "$best" ] || awk -v a="$best" -v b="$secs" 'BEGIN { exit !(b + 0 < a + 0) }'; then
			best=$secs
			best_wall=$wall
			best_ghz=$(awk -v a="$g0" -v b="$g1" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", (a + b) / 2 }')
		fi
		[ "$kb" -gt "$peak" ] && peak=$kb
		i=$((i + 1))
	done
	awk -v name="$name" -v secs="$best" -v wall="$best_wall" -v kb="$peak" -v games="$GAMES" -v bytes="$bytes" \
		-v ghz="$best_ghz" -v floor="$floor_secs" -v check="$check_secs" 'BEGIN {
		t = secs > 0 ? secs : 0.01
		ratio = ""
		if (floor > 0)
			ratio = sprintf("%5.2f x floor", t / floor)
		if (check > 0)
			ratio = ratio sprintf(" %5.2f x check", t / check)
		printf "%-20s %7.2f s cpu (%.2f s wall) %s\n", name, secs, wall, ratio
		printf "%-20s %9.0f games/s %7.1f MB/s   peak %6.1f MB", "", games / t, bytes / 1e6 / t, kb / 1024
		if (ghz > 0)
			printf "   %.0f cycles a game at %.2f GHz", t * ghz * 1e9 / games, ghz
		printf "\n" }'
}

# works COMMAND...: whether the command runs (exit 0 or 1) on a sample
works() {
	"$@" samples/club-night.cgn >/dev/null 2>&1 || [ $? -eq 1 ]
}

# commands FILE: every command on FILE, the floor and check first
commands() {
	bytes=$(wc -c <"$1")
	echo "bench: $1: $GAMES games, $(echo "$bytes" | awk '{ printf "%.1f", $1 / 1e6 }') MB, one core, best of $RUNS runs"
	floor_secs=""
	check_secs=""
	run "floor" "$FLOOR" "$1" && floor_secs=$best
	run "check" "$CARC" check -q "$1" && check_secs=$best
	for f in json csv; do
		if works "$CARC" score --format $f; then
			run "score --format $f" "$CARC" score --format $f "$1"
		else
			echo "score --format $f    skipped: it does not work yet"
		fi
	done
	run "fmt" "$CARC" fmt "$1"
}

# instructions FILE: check's and the floor's instructions on the first
# 2,000 games of FILE, by cachegrind (a count that the load of a shared
# machine does not move, where the times above do), and their ratio.
instructions() {
	command -v valgrind >/dev/null 2>&1 || { echo "instructions: skipped: valgrind (cachegrind) is not installed"; return 0; }
	awk '/^\[Event /{n++} n<=2000' "$1" >"$dir/head.cgn"
	fi=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$FLOOR" "$dir/head.cgn" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d ,)
	ci=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$CARC" check -q "$dir/head.cgn" 2>&1 >/dev/null |
		sed -n 's/.*I *refs: *//p' | tr -d ,)
	rm -f "$dir/head.cgn"
	awk -v f="$fi" -v c="$ci" 'BEGIN { if (f > 0 && c > 0)
		printf "instructions on 2000 games (cachegrind): floor %.1f M, check %.1f M: %.2f x floor\n", f / 1e6, c / 1e6, c / f }'
}

claims=$(corpus claims 1) || exit 2
plain=$(corpus plain 0) || exit 2
claims4=$(corpus claims4 1 4) || exit 2
commands "$claims"
commands "$plain"
# every player's score claimed on every turn of 4-player games, as
# JCloisterZone's exports have them (the target: check within 2.4 times
# the floor)
commands "$claims4"
instructions "$claims4"

rm -f "$dir/time.out" "$dir/stderr.out"
CARC="$CARC" BENCH_GAMES="$GAMES" BENCH_RUNS="$RUNS" sh tests/bench/jobs.sh
CARC="$CARC" sh tests/bench/standings.sh
CARC="$CARC" BENCH_RUNS="$RUNS" sh tests/bench/tourney.sh
CARC="$CARC" sh tests/bench/turns.sh
if [ -n "$API_BENCH" ] && [ -x "$API_BENCH" ]; then
	"$API_BENCH" "${BENCH_API_GAMES:-200}"
	# and carc gen itself, the command, for the same number of games
	t0=$(date +%s.%N)
	"$CARC" gen --games "$((${BENCH_API_GAMES:-200} * 20))" >/dev/null
	t1=$(date +%s.%N)
	echo "$t0 $t1 ${BENCH_API_GAMES:-200}" | awk '{ n = $3 * 20; printf "carc gen            %8.1f games/s   %6.3f ms a game (wall, with its output)\n", n / ($2 - $1), ($2 - $1) * 1e3 / n }'
fi
BUILD="${BUILD:-build}" CARC="$CARC" sh tests/bench/python.sh
BUILD="${BUILD:-build}" CARC="$CARC" sh tests/bench/recorder.sh
