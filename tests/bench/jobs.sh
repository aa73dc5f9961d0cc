#!/bin/sh
# tests/bench/jobs.sh - carc check -j 2 against -j 1 on one big file, and
# carc score --format json -j 2 against -j 1.
#
#   make bench                      (bench.sh calls this last)
#   CARC=build/carc sh tests/bench/jobs.sh
#   BENCH_GAMES=20000 ...           the corpus of bench.sh with that many
#                                   games (default 100000), generated and
#                                   cached as bench.sh does when missing
#   BENCH_RUNS=5 ...                best of N runs of each (default 3)
#
# Throughput is games per second of wall time, so the ratio means something
# only when both cores are idle: the load average before and after is
# printed beside it (on a shared machine, run it when nothing else does).
# The target is 1.7 on an idle 2-core machine. As a control, two runs of
# -j 1 at once: they take as long as one when two cores are free, and up
# to twice as long when the machine gives no more than one. The CPU time of each is
# shown too: what -j 2 costs more in all (the scan for cuts, a reader a
# part), whatever the load. The two runs must print the same summary. Then
# the same for score --format json, whose reports the threads write too
# (compared by their checksum: the output is large).
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-./carc}
GAMES=${BENCH_GAMES:-100000}
RUNS=${BENCH_RUNS:-3}
dir=tests/bench/corpus
corpus=$dir/base-$GAMES.cgn
[ -x "$CARC" ] || { echo "jobs: $CARC is not built (make carc)"; exit 2; }
mkdir -p "$dir"
if [ ! -s "$corpus" ]; then
	corpus=$dir/jobs-$GAMES.cgn
	echo "jobs: generating $GAMES games into $corpus (once; cached) ..."
	[ -s "$corpus" ] || "$CARC" gen --games "$GAMES" --seed 1 >"$corpus" || exit 2
fi

# best COMMAND...: the best wall time of RUNS runs, and that run's CPU time
best() {
	b=""
	k=0
	while [ $k -lt "$RUNS" ]; do
		s0=$(date +%s.%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$dir/jobs.time" "$@" >"$dir/jobs.out" 2>/dev/null
		else
			"$@" >"$dir/jobs.out" 2>/dev/null
			echo "0 0" >"$dir/jobs.time"
		fi
		w=$(echo "$s0 $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }')
		if [ -z "$b" ] || awk -v a="$b" -v c="$w" 'BEGIN { exit !(c + 0 < a + 0) }'; then
			b=$w
			cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$dir/jobs.time")
		fi
		k=$((k + 1))
	done
	echo "$b $cpu"
}
load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
set -- $(best "$CARC" check -q -j 1 "$corpus")
w1=$1 c1=$2
cp "$dir/jobs.out" "$dir/jobs.out1"
set -- $(best "$CARC" check -q -j 2 "$corpus")
w2=$1 c2=$2
if ! cmp -s "$dir/jobs.out1" "$dir/jobs.out"; then
	echo "jobs: check -j 2 does not print what -j 1 does: $(cat "$dir/jobs.out") / $(cat "$dir/jobs.out1")"
	rm -f "$dir/jobs.time" "$dir/jobs.out" "$dir/jobs.out1"
	exit 1
fi
wp=""
k=0
while [ $k -lt "$RUNS" ]; do # the control: two runs of -j 1 at once
	s0=$(date +%s.%N)
	"$CARC" check -q -j 1 "$corpus" >/dev/null 2>&1 &
	"$CARC" check -q -j 1 "$corpus" >/dev/null 2>&1
	wait
	w=$(echo "$s0 $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }')
	if [ -z "$wp" ] || awk -v a="$wp" -v c="$w" 'BEGIN { exit !(c + 0 < a + 0) }'; then wp=$w; fi
	k=$((k + 1))
done
# score --format json: its output checked by a checksum (it is some GB)
set -- $(best sh -c '"$0" score --format json -j 1 "$1" | cksum' "$CARC" "$corpus")
s1=$1 sc1=$2
cp "$dir/jobs.out" "$dir/jobs.out1"
set -- $(best sh -c '"$0" score --format json -j 2 "$1" | cksum' "$CARC" "$corpus")
s2=$1 sc2=$2
if ! cmp -s "$dir/jobs.out1" "$dir/jobs.out"; then
	echo "jobs: score --format json -j 2 does not print what -j 1 does (checksums $(cat "$dir/jobs.out") / $(cat "$dir/jobs.out1"))"
	rm -f "$dir/jobs.time" "$dir/jobs.out" "$dir/jobs.out1"
	exit 1
fi
load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
rm -f "$dir/jobs.time" "$dir/jobs.out" "$dir/jobs.out1"
awk -v a="$w1" -v b="$w2" -v ca="$c1" -v cb="$c2" -v p="$wp" -v games="$GAMES" -v l0="$load0" -v l1="$load1" \
	-v cores="$(nproc 2>/dev/null)" 'BEGIN {
	printf "check -j 1 / -j 2 on one file: %.2f s / %.2f s wall (%.2f / %.2f s cpu): %.0f and %.0f games/s\n",
		a, b, ca, cb, games / a, games / b
	printf "check -j 2 gives %.2f times the throughput of -j 1 (target 1.7; %s cores, load average %s before, %s after)\n",
		a / b, cores, l0, l1
	printf "control: two runs of -j 1 at once take %.2f times as long as one (1.00 when two cores are free)\n", p / a }'
awk -v a="$s1" -v b="$s2" -v ca="$sc1" -v cb="$sc2" -v games="$GAMES" 'BEGIN {
	printf "score --format json -j 1 / -j 2 on one file: %.2f s / %.2f s wall (%.2f / %.2f s cpu): %.0f and %.0f games/s\n",
		a, b, ca, cb, games / a, games / b
	printf "score --format json -j 2 gives %.2f times the throughput of -j 1\n", a / b }'
