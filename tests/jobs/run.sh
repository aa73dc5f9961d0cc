#!/bin/sh
# tests/jobs/run.sh - every command that reads games gives with -j N what it
# gives with -j 1, byte for byte.
#
#   CARC=build/carc sh tests/jobs/run.sh
#
# check, score (text, JSON, YAML, CSV; --projected, --turn), stats (text,
# JSON, CSV), standings (text, JSON, CSV) and filter (games, --ids,
# --dedupe, --where) run with -j 2 and -j 3 over: the samples, the test
# records (tests/*/*.cgn), 1,500 generated games with faults put into some
# of them (syntax errors, illegal moves, false claims, comment lines, CR LF)
# as one file (cut into parts), as several files (a file to a thread), from
# standard input and compressed (read by one thread, refereed by the
# others); each output (standard output, standard error and exit status)
# must be that of -j 1. Then tests/jobs/odd.sh: check -j over a few
# hundred archives made to lead readers astray. Prints "N passed, N failed".
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
cd "$top" || exit 2

# the archive: 1,500 games; every 97th with a rotation that is no angle,
# every 89th with a tile moved one square, every 83rd with a false claim;
# a comment line before every 50th; CR LF from game 1,200 on; players named
"$CARC" gen --games 1500 --seed 31 >"$tmp/gen.cgn" || bad "carc gen failed"
awk '
	/^\[Event / { g++; t = 0; if (g % 50 == 0) print "; game " g " follows" }
	/^\[Seats / { print; n = split(substr($0, 9, length($0) - 10), seat, " ")
		for (i = 1; i <= n; i++) printf "[%s \"P%d\"]\n", toupper(substr(seat[i], 1, 1)) substr(seat[i], 2), (g * 7 + i * 3) % 11
		next }
	/^ *[0-9]+[.+] / { t++
		if (g % 97 == 0 && t == 5) sub(/ (0|90|180|270) /, " 45 ")
		if (g % 89 == 0 && t == 7) { split($4, xy, ","); sub(/ -?[0-9]+,-?[0-9]+ /, " " xy[1] + 1 "," xy[2] " ") }
		if (g % 83 == 0 && !c[g] && sub(/= [a-z]+ [0-9]+/, "&1")) c[g] = 1
	}
	{ if (g >= 1200) print $0 "\r"; else print }
' "$tmp/gen.cgn" >"$tmp/all.cgn"
grep -q '^\[Red "P' "$tmp/all.cgn" && ok || bad "no player names in the archive"
awk '/^\[Event / { g++ } { print > (dir "/part" (g % 3) ".cgn") }' dir="$tmp" "$tmp/all.cgn"
gzip -c "$tmp/all.cgn" >"$tmp/all.cgn.gz"
tests=$(ls tests/*/*.cgn | grep -v '^tests/hostile/')

# same WHAT CMD...: CMD with -j 2 and -j 3 prints what it prints with -j 1
# (standard output, standard error, exit status)
same() {
	what=$1
	shift
	"$CARC" "$@" -j 1 >"$tmp/o1" 2>"$tmp/e1" </dev/null
	echo "exit $?" >>"$tmp/e1"
	for j in 2 3; do
		"$CARC" "$@" -j $j >"$tmp/o$j" 2>"$tmp/e$j" </dev/null
		echo "exit $?" >>"$tmp/e$j"
		if cmp -s "$tmp/o1" "$tmp/o$j" && cmp -s "$tmp/e1" "$tmp/e$j"; then ok; else
			bad "$what: -j $j differs from -j 1: carc $*"
			diff "$tmp/o1" "$tmp/o$j" | head -n 4
			diff "$tmp/e1" "$tmp/e$j" | head -n 4
		fi
	done
}
# from standard input: the same, with the input on standard input
same_in() {
	what=$1
	in=$2
	shift 2
	"$CARC" "$@" -j 1 >"$tmp/o1" 2>"$tmp/e1" <"$in"
	echo "exit $?" >>"$tmp/e1"
	"$CARC" "$@" -j 2 >"$tmp/o2" 2>"$tmp/e2" <"$in"
	echo "exit $?" >>"$tmp/e2"
	if cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/e1" "$tmp/e2"; then ok; else
		bad "$what: -j 2 differs from -j 1: carc $* < $in"
		diff "$tmp/o1" "$tmp/o2" | head -n 4
	fi
}

a=$tmp/all.cgn
parts="$tmp/part0.cgn $tmp/part1.cgn $tmp/part2.cgn"
"$CARC" check -q "$a" >"$tmp/summary"
grep -q ' [1-9][0-9]* invalid' "$tmp/summary" && ok || bad "no invalid game in the archive: $(cat "$tmp/summary")"

# check
same "check" check "$a"
same "check --format json" check --format json "$a"
same "check, several files" check --max-errors 5 $parts
same "check, a file missing" check --format json "$tmp/part0.cgn" "$tmp/missing.cgn" "$tmp/part1.cgn"
same "check, the samples" check samples/*.cgn
same "check, the test records" check --format json $tests
same "check, compressed" check "$tmp/all.cgn.gz"
same_in "check, standard input" "$a" check --format json -

# score: every format, on one file
for f in text json yaml csv; do
	same "score --format $f" score --format $f "$a"
done
same "score --projected" score --format json --projected "$tmp/part1.cgn"
same "score --turn 30" score --turn 30 --format csv "$tmp/part2.cgn"
same "score, compressed" score --format json "$tmp/all.cgn.gz"
same_in "score, standard input" "$a" score --format yaml -
for f in samples/*.cgn; do
	same "score of $f" score --format json "$f"
done

# stats
for f in text json csv; do
	same "stats --format $f" stats --format $f "$a"
done
same "stats, several files" stats --format json $parts
same "stats, a file missing" stats "$tmp/part0.cgn" "$tmp/missing.cgn" "$tmp/part1.cgn"
same "stats, the samples and test records" stats --format json samples/*.cgn $tests
same "stats, compressed" stats "$tmp/all.cgn.gz"
same_in "stats, standard input" "$a" stats --format csv -

# standings
for f in text json csv; do
	same "standings --format $f" standings --format $f "$a"
done
same "standings --include-invalid, several files" standings --include-invalid --tiebreak h2h,wins $parts
same "standings, the test records" standings $tests
same_in "standings, standard input" "$a" standings --format json -

# filter
same "filter --valid" filter --valid "$a"
same "filter --where" filter --where 'city.tiles>=8' --where 'farm.points>=12' "$a"
same "filter --invalid --ids" filter --invalid --ids "$a"
same "filter --dedupe, several files" filter --dedupe "$a" $parts
same "filter --player, compressed" filter --player P3 "$tmp/all.cgn.gz"
same "filter, the test records" filter --code E003 --code E002 $tests
same_in "filter, standard input" "$a" filter --winner P5 -

# -j takes a number from 1 to 256
for c in check score stats standings filter; do
	"$CARC" $c -j 0 "$a" >/dev/null 2>"$tmp/err"
	[ $? = 2 ] && grep -q -- '--jobs takes a number from 1 to 256' "$tmp/err" && ok || bad "$c -j 0 is not refused"
done

# check -j over odd archives
line=$(CARC=$CARC sh tests/jobs/odd.sh ${ODD_ARCHIVES:-200} | tee "$tmp/odd" | tail -n 1)
grep '^FAIL' "$tmp/odd" | head -n 10
p=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
f=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
[ -n "$p" ] || bad "tests/jobs/odd.sh printed no summary"
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-0}))

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
