#!/bin/sh
# tests/tournament/run.sh - carc standings against tables worked out by hand.
#
#   CARC=build/carc sh tests/tournament/run.sh
#
# expected/PRESET.csv holds, for swiss.cgn (README.md: the event and the
# working), the ranks, names, points and the preset's tie-break values as
# they were worked out by hand; expected/example-ua.csv the same for the
# facts file's worked example (worked-example.cgn). Each is compared with
# the columns of the same names in carc standings --format csv, and the
# order of the players with the text, JSON and HTML tables. Prints
# "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/tests/tournament
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

# pick HEADER_FILE CSV: the columns of CSV named in HEADER_FILE's first line
pick() {
	awk -F, -v want="$(head -n 1 "$1")" '
		NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) col[$i] = i
			  for (k = 1; k <= n; k++) if (!(w[k] in col)) { print "no column " w[k]; exit 1 }
			  print want; next }
		{ line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? "," : "") $col[w[k]]; print line }' "$2"
}

check() { # NAME PRESET INPUT EXPECTED
	"$CARC" standings --preset "$2" --format csv "$3" >"$tmp/csv" 2>"$tmp/err" || { bad "$1: csv: exit $? $(head -n 1 "$tmp/err")"; return; }
	pick "$4" "$tmp/csv" >"$tmp/got"
	if diff "$4" "$tmp/got" >"$tmp/diff"; then ok; else bad "$1: csv differs from the hand table:"; cat "$tmp/diff"; fi
	tail -n +2 "$4" | cut -d, -f2 >"$tmp/order"
	"$CARC" standings --preset "$2" "$3" | awk '/^ +[0-9]+=? / { print $2 }' >"$tmp/text"
	if diff "$tmp/order" "$tmp/text" >/dev/null; then ok; else bad "$1: text order"; fi
	"$CARC" standings --preset "$2" --format json "$3" | grep -o '"rank":[0-9]*,"player":"[^"]*"' |
		sed 's/.*"player":"\(.*\)"/\1/' >"$tmp/json"
	if diff "$tmp/order" "$tmp/json" >/dev/null; then ok; else bad "$1: json order"; fi
	"$CARC" standings --preset "$2" --format html "$3" >"$tmp/html"
	sed '/<h2>Games/q' "$tmp/html" | grep -o '^<tr><td>[0-9]*</td><td>[^<]*</td>' | sed 's/.*<td>\([^<]*\)<\/td>$/\1/' >"$tmp/hrows"
	if diff "$tmp/order" "$tmp/hrows" >/dev/null; then ok; else bad "$1: html order"; fi
	# the page holds nothing from outside: no script, no address
	if grep -qiE '<script|<link|src=|href=|url\(|https?:' "$tmp/html"; then bad "$1: html links out"; else ok; fi
}

for p in ua co gg wc; do
	check "swiss --preset $p" "$p" "$dir/swiss.cgn" "$dir/expected/$p.csv"
done
check "worked example --preset ua" ua "$dir/worked-example.cgn" "$dir/expected/example-ua.csv"

# options given override the preset, whatever their order
for args in "--level second --preset wc" "--preset wc --level second"; do
	"$CARC" standings $args -t buchholz-cut1,diff "$dir/swiss.cgn" | head -n 1 >"$tmp/head"
	if grep -qF 'a level score: second; tie-breaks: buchholz-cut1, diff)' "$tmp/head"; then ok; else bad "$args: $(cat "$tmp/head")"; fi
done

# HTML escapes what a record says: a name with markup in it
printf '[Event "<b>Cup</b>"]\n[Seats "red green"]\n[Red "<script>alert(1)</script>"]\n[Green "A&B \\"q\\" '"'"'s"]\n[Result "red 2, green 1"]\n' >"$tmp/evil.cgn"
"$CARC" standings --format html "$tmp/evil.cgn" >"$tmp/evil.html"
if grep -q '<script\|<b>' "$tmp/evil.html"; then bad "html: markup from a record is not escaped"; else ok; fi
if grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/evil.html" && grep -qF 'A&amp;B &quot;q&quot; &#39;s' "$tmp/evil.html"; then ok; else bad "html: escaped names missing"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
