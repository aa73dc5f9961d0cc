#!/bin/sh
# tests/hostile/reader.sh - the CGN reader against inputs that never end or
# are far too big (notation/cgn.md, "Limits").
#
#   CARC=build/carc sh tests/hostile/reader.sh
#
# Each case must end within a time limit (so that a regression fails here
# instead of hanging the suite) with its diagnostic, a position and the
# documented exit status, in bounded memory: the peak resident memory is
# measured with /usr/bin/time when it is installed, else the run gets a
# ulimit -v. Under the sanitizers (ASAN_OPTIONS set, as make asan does),
# which reserve far more memory of their own, the bound is wider. Nothing
# large is kept in the repository: the big inputs are made here by awk,
# printf and yes. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# Memory bound in KiB: a few tens of MB (the caps keep a game under 1 MiB
# of text; a million-turn game took 300 MB before them).
limit=65536
[ -n "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}" ] && limit=524288
have_time=0
[ -x /usr/bin/time ] && have_time=1

# measure CMD...: runs CMD (a carc command line) on this standard input
# with a time limit and the memory bound, output to $tmp/out and $tmp/err;
# leaves its exit status in $tmp/status and its peak memory (KiB, or "?")
# in $tmp/mem (files, since a pipeline may run it in a subshell).
measure() {
	echo "?" >mem
	if [ $have_time = 1 ]; then
		timeout 30 /usr/bin/time -f %M -o mem "$@" >out 2>err
	elif [ -z "${ASAN_OPTIONS:-}${UBSAN_OPTIONS:-}" ]; then
		(ulimit -v $((limit * 4)) && exec timeout 30 "$@") >out 2>err
	else
		timeout 30 "$@" >out 2>err
	fi
	echo $? >status
}

# bounded CMD...: measure, with standard input from /dev/null; sets status
# and mem.
bounded() {
	measure "$@" </dev/null
	status=$(cat status) mem=$(tail -n 1 mem)
}

# piped PRODUCER CMD...: measure, with standard input from the endless
# command PRODUCER (a shell command line), through a pipe.
piped() {
	producer=$1
	shift
	sh -c "$producer" 2>/dev/null | measure "$@"
	status=$(cat status) mem=$(tail -n 1 mem)
}

# expect NAME STATUS NEEDLE...: the last run exited with STATUS, within the
# memory bound, and its standard error holds every NEEDLE (fixed strings).
expect() {
	name=$1 want=$2
	shift 2
	ok=1
	if [ "$status" -ge 124 ] && [ "$want" -lt 124 ]; then
		fail "$name: hung or crashed (status $status)"
		ok=0
	elif [ "$status" != "$want" ]; then
		fail "$name: exit status $status, expected $want"
		ok=0
	fi
	if [ "$mem" != "?" ] && [ -n "$mem" ] && [ "$mem" -gt $limit ]; then
		fail "$name: peak memory $mem KiB, more than $limit"
		ok=0
	fi
	for needle; do
		if ! grep -qF -- "$needle" err; then
			fail "$name: '$needle' not on standard error"
			ok=0
		fi
	done
	[ $ok = 1 ] && pass || head -n 6 err | cut -c 1-160 | sed 's/^/  | /'
}

# ---- endless inputs ----

# /dev/zero: binary data at once (E002), whatever the command.
for cmd in check fmt show; do
	bounded "$CARC" $cmd /dev/zero
	expect "$cmd /dev/zero" 1 "/dev/zero:1:1: error[E002]: NUL byte"
done

# An endless line without a newline, through a pipe: cut (E003), and the
# game it is in passes 1 MiB (E031), which ends the reading.
piped "tr '\\000' a </dev/zero" "$CARC" check -
expect "endless line" 1 "<stdin>:1:1: error[E003]" "<stdin>:1:1: error[E031]"
piped "printf '[Seats \"red green\"]\\n1. red U -1,0 90 ; '; tr '\\000' x </dev/zero" "$CARC" fmt -
expect "endless line, fmt" 1 "<stdin>:2:1: error[E003]" "<stdin>:2:1: error[E031]"

# An endless stream of tag lines: the tag cap (E033) on the 1001st, then
# the game that never ends is too long (E031).
piped "yes '[Seats \"red green\"]'" "$CARC" check -
expect "endless tags" 1 "<stdin>:2:2: error[E006]" "<stdin>:1001:1: error[E033]" "error[E031]: game 1 is longer"
n=$(grep -c 'error\[E006\]' err)
[ "$n" -eq 999 ] && pass || fail "endless tags: $n E006 messages, expected 999 (one per tag line up to the cap)"

# An endless stream of turns, of blank lines, of comment lines.
piped "yes '1. red U -1,0 90'" "$CARC" check -
expect "endless turns" 1 "<stdin>:8193:1: error[E032]" "error[E031]"
piped "yes ''" "$CARC" check -
expect "endless blank lines" 1 "error[E031]: game 1 is longer"
piped "yes '; a comment'" "$CARC" show -
expect "endless comments, show" 1 "<stdin>:10001:1: error[E034]" "error[E031]"

# ---- too big ----

# A million-turn game, plain turn lines (the fast path) and numbered ones
# (the general path past turn 99): refused at the turn cap, then at the
# byte cap, in bounded memory and a few seconds.
awk 'BEGIN { print "[Seats \"red green\"]"; print ""; for (i = 1; i <= 1000000; i++) print (i % 2 ? "red" : "green") " U " i ",0 90" }' >million.cgn
bounded "$CARC" check million.cgn
expect "million plain turns" 1 "million.cgn:8195:1: error[E032]: more than 8192 turns" "error[E031]"
awk 'BEGIN { print "[Seats \"red green\"]"; print ""; for (i = 1; i <= 1000000; i++) print i ". " (i % 2 ? "red" : "green") " U " i ",0 90" }' >million.cgn
bounded "$CARC" score --format json million.cgn
expect "million numbered turns, score" 1 "million.cgn:8195:1: error[E032]" "error[E031]"

# Past the turn cap but within the byte cap, the next game is still read.
awk 'BEGIN { print "[Seats \"red green\"]"; for (i = 1; i <= 9000; i++) print "red U " i ",0 90"; print "[Seats \"red green\"]"; print "1. red Q 0,1 45" }' >turns.cgn
bounded "$CARC" check turns.cgn
expect "turn cap, next game" 1 "turns.cgn:8194:1: error[E032]" "turns.cgn:9003:14: error[E024]"
grep -q "^2 games, 0 valid, 2 invalid" out && pass || fail "turn cap, next game: $(cat out)"

# ---- NUL runs ----

# A run of NUL bytes longer than a line stops reading the input with E002
# (binary data), not as a long line (E003) after which the rest is read.
{
	printf '[Seats "red green"]\n\n1. red U -1,0 90\n'
	head -c 100000 /dev/zero
	printf '\n[Seats "red green"]\n\n1. red Q 0,1 45\n'
} >nul.cgn
bounded "$CARC" check nul.cgn
expect "NUL run" 1 "nul.cgn:4:1: error[E002]: NUL byte: this is not a text file; the rest of the input is skipped"
grep -q 'E003\|E024' err && fail "NUL run: read on after the NUL bytes" || pass
# ... also when the NUL bytes come after the first 256 bytes of a long line
{
	printf '[Seats "red green"]\n1. red U -1,0 90 ; '
	head -c 70000 /dev/zero | tr '\000' x
	head -c 100000 /dev/zero
	printf '\n[Seats "red green"]\n1. red Q 0,1 45\n'
} >nul.cgn
bounded "$CARC" fmt nul.cgn
expect "NUL run in a long line" 1 "nul.cgn:2:1: error[E002]: NUL byte at byte 70020 of this line"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
