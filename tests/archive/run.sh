#!/bin/sh
# tests/archive/run.sh - archives: one file on every core, compressed files,
# and the same games found again after GNU parallel splits a file.
#
#   CARC=build/carc sh tests/archive/run.sh
#
# Over 2,000 games from carc gen, with faults put into some of them (a
# syntax error, an illegal move, a false claim), comment lines between
# games and CR LF line ends in part of the file, this proves that:
# check -j N on one file (or standard input) prints byte for byte what -j 1
# does, text and JSON, with --max-errors too, also where a plain file is
# cut into parts: over the diagnostic corpus and over files made to lead
# the cuts astray, to end the input mid-file, or to be small; its memory
# does not grow with the input; each game's offset is where its line starts; .gz and .zst
# inputs check exactly like the plain text, and cut or damaged ones are a
# clear error; --label names standard input; and, when GNU parallel is
# installed, that split runs (--pipe, --pipepart) give the same 2,000
# distinct ids as the whole run. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
same() { # what, file, file
	if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; diff "$2" "$3" | head -n 5; fi
}

# The archive: 2,000 games; every 97th with a rotation that is no angle
# (a syntax error), every 89th with a tile moved one square (an illegal
# move, most often), every 83rd with a false claim on its first claim; a
# comment line before every 50th; CR LF in the games from 1,500 on.
"$CARC" gen --games 2000 --seed 23 >"$tmp/gen.cgn" || bad "carc gen failed"
awk '
	/^\[Event / { g++; t = 0; if (g % 50 == 0) print "; game " g " follows\r" }
	/^[0-9]+[.+] / { t++
		if (g % 97 == 0 && t == 5) sub(/ (0|90|180|270) /, " 45 ")
		if (g % 89 == 0 && t == 7) { split($4, xy, ","); sub(/ -?[0-9]+,-?[0-9]+ /, " " xy[1] + 1 "," xy[2] " ") }
		if (g % 83 == 0 && !c[g] && sub(/= [a-z]+ [0-9]+/, "&1")) c[g] = 1
	}
	{ if (g >= 1500) print $0 "\r"; else print }
' "$tmp/gen.cgn" >"$tmp/all.cgn"
games=$(grep -c '^\[Event ' "$tmp/all.cgn")
[ "$games" = 2000 ] && ok || bad "the archive has $games games, not 2000"

# -j on one file: the same bytes, in the same order, whatever N
"$CARC" check --format json "$tmp/all.cgn" >"$tmp/j1.json" 2>"$tmp/j1.jerr"
s1=$?
"$CARC" check "$tmp/all.cgn" >"$tmp/j1.out" 2>"$tmp/j1.err"
[ $s1 = 1 ] && ok || bad "check of the archive: exit $s1, expected 1 (some games are invalid)"
invalid=$(grep -c '"valid":false' "$tmp/j1.json")
[ "$invalid" -ge 40 ] && ok || bad "only $invalid invalid games: the faults did not take"
for j in 2 3; do
	"$CARC" check -j $j --format json "$tmp/all.cgn" >"$tmp/j$j.json" 2>"$tmp/j$j.jerr"
	same "check -j $j --format json" "$tmp/j1.json" "$tmp/j$j.json"
	"$CARC" check -j $j "$tmp/all.cgn" >"$tmp/j$j.out" 2>"$tmp/j$j.err"
	same "check -j $j (summary)" "$tmp/j1.out" "$tmp/j$j.out"
	same "check -j $j (messages)" "$tmp/j1.err" "$tmp/j$j.err"
done
"$CARC" check -j 1 --max-errors 7 "$tmp/all.cgn" >"$tmp/m1.out" 2>"$tmp/m1.err"
"$CARC" check -j 2 --max-errors 7 "$tmp/all.cgn" >"$tmp/m2.out" 2>"$tmp/m2.err"
same "check -j 2 --max-errors 7" "$tmp/m1.err" "$tmp/m2.err"
"$CARC" check -j 2 --format json --label "$tmp/all.cgn" - <"$tmp/all.cgn" >"$tmp/stdin.json" 2>/dev/null
same "check -j 2 of standard input, --label" "$tmp/j1.json" "$tmp/stdin.json"
"$CARC" check -j 2 --label "$tmp/all.cgn" - <"$tmp/all.cgn" >/dev/null 2>"$tmp/stdin.err"
same "check -j 2 of standard input, messages" "$tmp/j1.err" "$tmp/stdin.err"

# -j N on one plain file cuts it into parts at lines where games start,
# each read by a reader of its own (parts of at least 16 KiB: a file of
# some 100 KiB or more is cut), and checks each cut against the reader of
# the part before. alike NAME FILE: text (messages, summary, exit status)
# and JSON of -j 2, 3 and 8 are those of -j 1, byte for byte.
alike() {
	"$CARC" check "$2" >"$tmp/a1.out" 2>&1
	echo "exit $?" >>"$tmp/a1.out"
	"$CARC" check --format json "$2" >"$tmp/a1.json" 2>&1
	echo "exit $?" >>"$tmp/a1.json"
	for j in 2 3 8; do
		"$CARC" check -j $j "$2" >"$tmp/a$j.out" 2>&1
		echo "exit $?" >>"$tmp/a$j.out"
		same "$1: check -j $j" "$tmp/a1.out" "$tmp/a$j.out"
		"$CARC" check -j $j --format json "$2" >"$tmp/a$j.json" 2>&1
		echo "exit $?" >>"$tmp/a$j.json"
		same "$1: check -j $j --format json" "$tmp/a1.json" "$tmp/a$j.json"
	done
}
# games N FROM: N games of the archive from game FROM on
games() {
	awk -v n="$1" -v from="$2" '/^\[Event / { g++ } g >= from && g < from + n' "$tmp/gen.cgn"
}
# every file of the diagnostic corpus (but those that are not CGN), each
# after 5 games
for f in "$top"/tests/diag/*.cgn; do
	grep -q '^; \(input\|command\|generate\):' "$f" && continue
	games 5 $(($(wc -l <"$tmp/corpus" 2>/dev/null || echo 0) % 1900 + 1))
	cat "$f"
	echo
done >"$tmp/corpus"
alike "the diagnostic corpus" "$tmp/corpus"
# where a cut could be wrong: '[' lines inside { comments } of many lines
# after a turn (the scan takes the one after a line of the comment that
# looks like a turn for a game's start, and a cut: the parts after it are
# read again), and a ; comment with a { in it before a game
games 300 1 | awk '/^\[Event / { g++; if (g % 40 == 0) print "{ a note\n[Event \"not a tag\"]\nthat goes on\n[Event \"nor this\"]\n}"
	if (g % 40 == 20) { print "; the next game follows { a note"; print "[Round \"3\"] }" } } { print }' \
	| sed 's/^\(29\. [a-z]* [A-Z] [-0-9,]* *[0-9]*\) *$/\1 { about this turn\n[Event "in a comment"] }/' >"$tmp/cuts.cgn"
grep -q '^\[Event "in a comment"\] }' "$tmp/cuts.cgn" && ok || bad "no '[' line inside a comment in the test file"
alike "'[' lines in comments" "$tmp/cuts.cgn"
# lines with bad bytes (the input is given up at the eighth) in many parts:
# seven of them, then nine
for n in 7 9; do
	games 400 1 | awk -v n="$n" '/^\[Event / { g++; if (g % 40 == 0 && k++ < n) print "; bad \001 byte" } { print }' >"$tmp/bytes$n.cgn"
	alike "$n lines with bad bytes" "$tmp/bytes$n.cgn"
done
# a game longer than 1 MiB (E031) and a NUL byte (E002), mid-file: the rest
# of the input is skipped
{ games 100 1; awk 'BEGIN { print "[Event \"long\"]"; for (i = 0; i < 40000; i++) print "; " i " a comment of the long game" }'
  games 100 101; } >"$tmp/long.cgn"
alike "a game longer than 1 MiB" "$tmp/long.cgn"
{ games 100 1; printf '[Event "nul"]\n1. red \000 0,0 0\n'; games 100 101; } >"$tmp/nul.cgn"
alike "a NUL byte" "$tmp/nul.cgn"
# a byte order mark, CR LF everywhere, no newline at the end
{ printf '\357\273\277'; games 150 1 | sed 's/$/\r/'; printf '[Event "last"]\n1. red U 0,-1 0'; } >"$tmp/crlf.cgn"
alike "CR LF, a byte order mark, no last newline" "$tmp/crlf.cgn"
# comment lines between games (they go with the next), at every game
games 200 1 | awk '/^\[Event / { print "; before game " ++g; print "" } { print }' >"$tmp/between.cgn"
alike "comment lines between games" "$tmp/between.cgn"
# small: empty, one game, fewer games than threads
: >"$tmp/empty.cgn"
alike "an empty file" "$tmp/empty.cgn"
games 1 1 >"$tmp/one.cgn"
alike "one game" "$tmp/one.cgn"
games 3 1 >"$tmp/three.cgn"
alike "three games" "$tmp/three.cgn"

# every game's offset is the start of the line it is said to start on
sed -n 's/.*"line":\([0-9]*\),"offset":\([0-9]*\),.*/\1 \2/p' "$tmp/j1.json" >"$tmp/where"
bad_offsets=0
while read -r line offset; do
	a=$(tail -c +$((offset + 1)) "$tmp/all.cgn" | head -n 1)
	b=$(sed -n "${line}p" "$tmp/all.cgn")
	[ "$a" = "$b" ] || bad_offsets=$((bad_offsets + 1))
	[ $((offset == 0)) = 1 ] || [ "$(tail -c +"$offset" "$tmp/all.cgn" | head -c 1 | od -An -c | tr -d ' ')" = '\n' ] \
		|| bad_offsets=$((bad_offsets + 1))
done <<EOT
$(awk 'NR % 97 == 1 || NR == 2000' "$tmp/where")
EOT
[ $bad_offsets = 0 ] && ok || bad "$bad_offsets offsets are not where their lines start"

# memory: flat whatever the size of the input (ten times the archive
# through standard input takes no more than once, give or take 8 MiB)
if [ -x /usr/bin/time ]; then
	for n in 1 10; do
		i=0
		while [ $i -lt $n ]; do cat "$tmp/all.cgn"; i=$((i + 1)); done |
			/usr/bin/time -f %M -o "$tmp/rss$n" "$CARC" check -q -j 2 - >/dev/null 2>&1
	done
	r1=$(tail -n 1 "$tmp/rss1")
	r10=$(tail -n 1 "$tmp/rss10")
	[ "$r10" -le $((r1 + 8192)) ] && ok || bad "check -j 2 of 10 copies took ${r10} KiB, of one ${r1} KiB"
	# and cut into parts (the readers, the scan, the parts held waiting
	# for their turn: what a part holds grows with it, up to 4 MiB of text)
	for n in 1 10; do
		i=0
		while [ $i -lt $n ]; do cat "$tmp/all.cgn"; i=$((i + 1)); done >"$tmp/copies.cgn"
		/usr/bin/time -f %M -o "$tmp/rss$n" "$CARC" check -q -j 2 "$tmp/copies.cgn" >/dev/null 2>&1
	done
	rm -f "$tmp/copies.cgn"
	r1=$(tail -n 1 "$tmp/rss1")
	r10=$(tail -n 1 "$tmp/rss10")
	[ "$r10" -le $((r1 + 8192)) ] && ok || bad "check -j 2 of a file of 10 copies took ${r10} KiB, of one ${r1} KiB"
else
	echo "skip: no /usr/bin/time to measure memory"
fi

# compressed: the same report as the text, from a file and from standard input
for z in gzip zstd; do
	command -v $z >/dev/null 2>&1 || { echo "skip: no $z"; continue; }
	ext=$([ $z = gzip ] && echo gz || echo zst)
	$z -c <"$tmp/all.cgn" >"$tmp/all.cgn.$ext"
	"$CARC" check --format json --label "$tmp/all.cgn" - <"$tmp/all.cgn.$ext" >"$tmp/$ext.json" 2>/dev/null
	same "check of the .$ext archive on standard input" "$tmp/j1.json" "$tmp/$ext.json"
	"$CARC" check -j 2 "$tmp/all.cgn.$ext" >"$tmp/$ext.out" 2>"$tmp/$ext.err"
	s=$?
	sed "s|$tmp/all.cgn.$ext|$tmp/all.cgn|" "$tmp/$ext.err" >"$tmp/$ext.err2"
	same "check -j 2 of the .$ext archive (messages)" "$tmp/j1.err" "$tmp/$ext.err2"
	[ $s = 1 ] && ok || bad "check of the .$ext archive: exit $s, expected 1"
	size=$(wc -c <"$tmp/all.cgn.$ext")
	head -c $((size / 2)) "$tmp/all.cgn.$ext" >"$tmp/cut.$ext"
	"$CARC" check "$tmp/cut.$ext" >"$tmp/cut.out" 2>"$tmp/cut.err"
	s=$?
	if [ $s = 2 ] && grep -q "^$tmp/cut.$ext: error\[E001\]: cannot read: the $z data is cut short at byte [0-9]* of the file, after [0-9]* bytes of text$" "$tmp/cut.err"; then
		ok
	else
		bad "a cut .$ext: exit $s, and: $(cat "$tmp/cut.err")"
	fi
done

# --label names standard input in every command that reads records
head -n 20 "$tmp/gen.cgn" | sed 's/ 90 / 45 /' >"$tmp/one.cgn"
for cmd in "check" "score" "fmt" "show" "render"; do
	"$CARC" $cmd --label club.cgn - <"$tmp/one.cgn" >/dev/null 2>"$tmp/label.err"
	grep -q '^club.cgn:[0-9]*:[0-9]*: error' "$tmp/label.err" && ok || bad "$cmd --label: $(head -n 1 "$tmp/label.err")"
done
"$CARC" score --format csv --label club.cgn - <"$tmp/one.cgn" 2>/dev/null | sed -n 2p | grep -q '^club.cgn,1,1,0,[0-9a-f]\{32\},' \
	&& ok || bad "score --format csv --label: no club.cgn,1,1,0,ID row"
"$CARC" check --label '' - </dev/null >/dev/null 2>&1
[ $? = 2 ] && ok || bad "an empty --label is not refused"

# many machines: GNU parallel's pieces give the ids of the whole run
sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/j1.json" | sort >"$tmp/ids.whole"
n=$(uniq "$tmp/ids.whole" | wc -l)
[ "$n" = 2000 ] && ok || bad "the whole run has $n distinct ids, not 2000"
if command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	parallel --pipe --recstart '[Event' --block 200k -k -j 2 "$CARC" check --format json --label all.cgn - \
		<"$tmp/all.cgn" 2>/dev/null >"$tmp/pipe.json"
	sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' "$tmp/pipe.json" | sort >"$tmp/ids.pipe"
	same "ids of parallel --pipe" "$tmp/ids.whole" "$tmp/ids.pipe"
	parallel --pipepart -a "$tmp/all.cgn" --recstart '[Event' --block 300k -j 2 "$CARC" check --format json \
		--label all.cgn - 2>/dev/null | sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' | sort >"$tmp/ids.part"
	same "ids of parallel --pipepart" "$tmp/ids.whole" "$tmp/ids.part"
	pieces=$(grep -c '"game":1,' "$tmp/pipe.json")
	[ "$pieces" -ge 2 ] && ok || bad "parallel --pipe made $pieces piece(s): nothing was split"
else
	echo "skip: GNU parallel is not installed"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
