#!/bin/sh
# tests/jobs/odd.sh - check -j N against -j 1 over archives made odd.
#
#   CARC=build/carc sh tests/jobs/odd.sh [ARCHIVES]
#
# carc check -j N cuts a plain file into parts, each read by a reader of
# its own, and promises the output of -j 1 byte for byte. The reader's
# verdict must then depend on nothing but the text: not on where its reads
# end nor on where a part starts. This makes ARCHIVES archives (200 by
# default; a few of them past 1 MB) from the games of carc gen, each with
# its own mix, in two to eight places, of what can lead a reader or the
# scan for cuts astray: { comments } of every length, many closed just
# within or just past 65536 bytes of their '{' (E004), some with '[' lines
# inside, some never closed; ; comments that make a line longer than 65536
# bytes (E003); and in some archives CR LF line ends, a byte order mark,
# no newline at the end. Each is checked with -j 1, 2, 3 and 8 as text (messages, summary,
# exit status), with -j 1 and 3 as JSON too, and every fourth from standard
# input with -j 2; every output must be that of -j 1. Prints "N passed, N
# failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
count=${1:-200}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

"$CARC" gen --games 600 --seed 7 >"$tmp/gen.cgn" || bad "carc gen failed"

# odd SEED GAMES: an archive of GAMES games of gen.cgn (from a place the
# seed picks), made odd as the seed says
odd() {
	awk -v seed="$1" -v want="$2" '
	function filler(n,   s, k, t, len) { # n bytes or a little more of comment text, in lines
		s = ""
		for (len = 0; len < n; len += length(t)) {
			k = int(rand() * 5)
			if (k == 0) t = "[Event \"inside a comment\"]\n"
			else if (k == 1) t = " 3. red U 1,0 90\n"
			else if (k == 2) t = "\n"
			else t = "some words of a long note, line after line " int(rand() * 1000) "\n"
			s = s t
		}
		return s
	}
	function longtext(n,   s) { s = "x"; while (length(s) < n) s = s s; return substr(s, 1, n) }
	function far() { # a distance around 65536, or anything
		k = int(rand() * 6)
		if (k == 0) return 65536 - int(rand() * 40)
		if (k == 1) return 65536 + int(rand() * 40)
		if (k == 2) return 66000 + int(rand() * 134000)
		if (k == 3) return int(rand() * 200)
		return 64000 + int(rand() * 12000)
	}
	BEGIN { srand(seed); from = int(rand() * 500); crlf = rand() < 0.3; mixed = rand() < 0.2
		rate = (2 + rand() * 6) / (want * 75) # two to eight odd places (a game has some 75 lines)
		if (rand() < 0.15) printf "\357\273\277" }
	/^\[Event / { g++; if (g > from + want) exit }
	g <= from { next }
	{
		line = $0
		eol = (crlf || (mixed && g % 2)) ? "\r\n" : "\n"
		r = rand()
		if (r < rate * 0.6 && line ~ /^ *[0-9]+\. /) {
			# a { on a turn line, closed far away, or never
			printf "%s {", line
			t = filler(far())
			if (rand() < 0.9) t = t "}"
			printf "%s%s", t, eol
		} else if (r < rate && line ~ /^\[Event /) {
			# (as often as the others: an Event line is one in 75)
			# a comment line before a game: { ... } over lines, or ;
			if (rand() < 0.5) printf "{%s}%s", filler(far()), eol
			else printf "; a note before the game {%s", eol
			printf "%s%s", line, eol
		} else if (r < rate * 0.8 && line ~ /^ *[0-9]+\. /) {
			# a line too long
			printf "%s ; %s%s", line, longtext(65500 + int(rand() * 100)), eol
		} else if (r < rate * 0.9) {
			printf "%s%s{ never closed%s", line, eol, eol
		} else {
			printf "%s%s", line, eol
		}
	}
	END { if (seed % 5 == 0) printf "[Event \"last\"]\n1. red U 0,-1 0" }
	' "$tmp/gen.cgn"
}

# check -j $1 of $2 (- $2: from standard input, named $2): the text
# (messages, summary, exit status) in $tmp/out, and with -j 1 and 3 the
# JSON in $tmp/out.json
run() {
	if [ "$1" = - ]; then
		shift
		"$CARC" check -j "$1" --label "$2" - <"$2" >"$tmp/out" 2>&1
	else
		"$CARC" check -j "$1" "$2" >"$tmp/out" 2>&1
	fi
	echo "exit $?" >>"$tmp/out"
	if [ "$1" = 1 ] || [ "$1" = 3 ]; then # (the same games and messages, in other words)
		"$CARC" check -j "$1" --format json "$2" >"$tmp/out.json" 2>&1
		echo "exit $?" >>"$tmp/out.json"
	fi
}
# like N WHAT: the output of the last run is that of -j 1
like() {
	if cmp -s "$tmp/one" "$tmp/out" && { [ "$1" != 3 ] || cmp -s "$tmp/one.json" "$tmp/out.json"; }; then
		ok
	else
		bad "archive $k ($n games): $2 differs from -j 1"
		diff "$tmp/one" "$tmp/out" | head -n 6
		cp "$tmp/a.cgn" "${TMPDIR:-/tmp}/carc-odd-$k.cgn" && echo "     kept as ${TMPDIR:-/tmp}/carc-odd-$k.cgn"
	fi
}

k=0
while [ $k -lt "$count" ]; do
	k=$((k + 1))
	n=$((k % 7 * 6 + 4))
	[ $((k % 50)) = 0 ] && n=400 # a few larger ones
	odd $k $n >"$tmp/a.cgn"
	run 1 "$tmp/a.cgn"
	mv "$tmp/out" "$tmp/one"
	mv "$tmp/out.json" "$tmp/one.json"
	for j in 2 3 8; do
		run $j "$tmp/a.cgn"
		like $j "check -j $j"
	done
	if [ $((k % 4)) = 0 ]; then
		run - 2 "$tmp/a.cgn"
		like 2 "check -j 2 of standard input"
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
