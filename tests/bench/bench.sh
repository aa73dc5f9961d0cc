#!/bin/sh
# tests/bench/bench.sh - throughput and memory of carc check and carc score.
#
#   make bench                    (builds ./carc, then runs this)
#   CARC=build/carc sh tests/bench/bench.sh
#   BENCH_GAMES=20000 ...         a smaller corpus (default 100000)
#   BENCH_RUNS=5 ...              best of N timed runs (default 3)
#
# The corpus is BENCH_GAMES complete random base games from carc gen (2 to 5
# players, a quarter each), in one file, cached in tests/bench/corpus/
# (git-ignored) and rebuilt when carc gen's output for it changes. Each
# command reads the whole file on one core. Figures are from the best of
# BENCH_RUNS runs by CPU time (user + system, from /usr/bin/time; the machine
# is shared, so wall time is shown beside it), with the peak resident memory;
# without /usr/bin/time, wall time only and no memory. The target for carc
# check is 100,000 games/s. Then check -j 2 on the same file against -j 1,
# by wall time: the ratio of throughputs (the target is 1.7 on an idle
# 2-core machine).
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
corpus=$dir/base-$GAMES.cgn
stamp=$dir/base-$GAMES.stamp
mkdir -p "$dir"
[ -x "$CARC" ] || { echo "bench: $CARC is not built (make carc)"; exit 2; }

# The corpus is four runs of carc gen; its stamp is the head of each run, so
# a change in the generator (or the canonical layout) rebuilds it.
quarter=$((GAMES / 4))
want=$(for p in 2 3 4 5; do "$CARC" gen --players $p --seed $p --games 2; done | cksum)
if [ ! -s "$corpus" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "bench: generating $GAMES games into $corpus (once; cached) ..."
	start=$(date +%s)
	rm -f "$corpus.tmp"
	for p in 2 3 4 5; do
		n=$quarter
		[ $p -eq 5 ] && n=$((GAMES - 3 * quarter))
		"$CARC" gen --players $p --seed $p --games $n >>"$corpus.tmp" || exit 2
		[ $p -eq 5 ] || echo >>"$corpus.tmp"
	done
	mv "$corpus.tmp" "$corpus"
	echo "$want" >"$stamp"
	echo "bench: generated in $(($(date +%s) - start)) s"
fi
bytes=$(wc -c <"$corpus")
mb=$(echo "$bytes" | awk '{ printf "%.1f", $1 / 1e6 }')
echo "bench: corpus $corpus: $GAMES games, $mb MB"

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

# run NAME COMMAND...: the best of RUNS runs by CPU time (with the clock
# around it), and the peak RSS.
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
		-v ghz="$best_ghz" 'BEGIN {
		t = secs > 0 ? secs : 0.01
		printf "%-20s %7.2f s cpu (%.2f s wall) %9.0f games/s %7.1f MB/s   peak %6.1f MB\n", name, secs, wall,
			games / t, bytes / 1e6 / t, kb / 1024
		if (ghz > 0)
			printf "%-20s at %.2f GHz (read before and after the run): %.0f cycles a game\n", "", ghz,
				t * ghz * 1e9 / games }'
}

echo "bench: one core, best of $RUNS runs"
run "check" "$CARC" check -q "$corpus"
if "$CARC" score --format json samples/club-night.cgn >/dev/null 2>&1 ||
	[ $? -eq 1 ]; then
	run "score --format json" "$CARC" score --format json "$corpus"
else
	echo "score --format json       skipped: carc score --format json does not work yet"
fi

# -j 2 on the one file against -j 1: throughput is games per second of wall
# time, so the figure means something only when both cores are idle (on a
# shared machine, run it when nothing else does; the load average is
# printed beside it). The best of RUNS wall times of each.
fastest() { # the best wall time of RUNS runs of COMMAND...
	b=""
	k=0
	while [ $k -lt "$RUNS" ]; do
		s0=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		w=$(echo "$s0 $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }')
		if [ -z "$b" ] || awk -v a="$b" -v c="$w" 'BEGIN { exit !(c + 0 < a + 0) }'; then b=$w; fi
		k=$((k + 1))
	done
	echo "$b"
}
w1=$(fastest "$CARC" check -q -j 1 "$corpus")
w2=$(fastest "$CARC" check -q -j 2 "$corpus")
awk -v a="$w1" -v b="$w2" -v games="$GAMES" -v load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" 'BEGIN {
	printf "check -j 1 / -j 2     %.2f s / %.2f s wall: %.0f and %.0f games/s, -j 2 gives %.2f times the throughput (load average %s)\n",
		a, b, games / a, games / b, a / b, load }'
rm -f "$dir/time.out" "$dir/stderr.out"
CARC="$CARC" BENCH_GAMES="$GAMES" BENCH_RUNS="$RUNS" sh tests/bench/jobs.sh
