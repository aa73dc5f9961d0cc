#!/bin/sh
# tests/hostile/writes.sh - what carc writes from a stranger's input must be
# safe for whoever reads it: no tag injected into imported CGN through a
# comment, no terminal escape or bidirectional control in a message, no
# formula in a CSV cell, no ill-formed SVG; and filter copies a game byte for
# byte. Each case failed before issue 30 was fixed.
#
#   CARC=build/carc sh tests/hostile/writes.sh
#
# Prints "N passed, N failed".
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
# check NAME CONDITION...: the command succeeds
check() {
	name=$1
	shift
	if "$@"; then pass; else fail "$name"; fi
}
ESC=$(printf '\033')
RLO=$(printf '\342\200\256') # U+202E RIGHT-TO-LEFT OVERRIDE
# has_no_escape FILE: no ESC byte, no other C0 control but newline, no U+202E
has_no_escape() {
	! LC_ALL=C grep -q "[$(printf '\001-\011\013-\037\177')]" "$1" && ! grep -qF "$RLO" "$1"
}

# ---- 1. an importer's comment cannot write tags ----

# appVersion and the file's name are copied into the opening comment: a
# newline in either would end the comment and write [Followers "99"].
sed 's/"appVersion": "5.7.0"/"appVersion": "5.7.0\\n[Followers \\"99\\"]\\n; "/' \
	"$top/tests/import/tiny-city-rule.jcz" >version.jcz
"$CARC" import version.jcz >out.cgn 2>err
check "import: a newline in appVersion exits 0" test $? -eq 0
check "import: a newline in appVersion writes no tag" sh -c '! grep -q "^\[Followers" out.cgn'
check "import: the imported game still checks" sh -c '"$0" check -q out.cgn >/dev/null' "$CARC"
nl_name=$(printf 'a\n[Followers "9"]\nb.jcz')
cp "$top/tests/import/tiny-city-rule.jcz" "$nl_name"
"$CARC" import "$nl_name" >out.cgn 2>err
check "import: a newline in the file's name exits 0" test $? -eq 0
check "import: a newline in the file's name writes no tag" sh -c '! grep -q "^\[Followers" out.cgn'
printf 'https://www.carcassonnelab.com/#/0/0/O/?players=a,b&colors=red,blue\n' >"$nl_name"
"$CARC" import --from carcassonnelab "$nl_name" >out.cgn 2>err
check "import --from carcassonnelab: a newline in the file's name writes no tag" \
	sh -c '! grep -q "^\[Followers" out.cgn && grep -q "^\[Seats" out.cgn'

# ---- 3. filter copies a game byte for byte or not at all ----

# A comment line over 64 KiB (E003): the reader keeps its first bytes only,
# and what is left reads as a valid game with another id.
{
	printf '[Seats "red green"]\n; %s\n\n1. red U -1,0 90\n\n' "$(head -c 70000 /dev/zero | tr '\0' x)"
	printf '[Seats "red green"]\n\n1. red U -1,0 90\n'
} >longline.cgn
"$CARC" filter longline.cgn >out 2>err
check "filter: a game with a line over 64 KiB: exit 2" test $? -eq 2
check "filter: a game with a line over 64 KiB: named on stderr" grep -q 'longline.cgn:1: game 1 is left out' err
tail -n 3 longline.cgn >want
check "filter: the other game is copied byte for byte, the cut one not at all" cmp -s out want
"$CARC" filter --ids longline.cgn >out 2>err
check "filter --ids: no id for the cut game" test "$(wc -l <out)" -eq 1
# every byte that filter writes is a byte of its input, in order (all its
# games are whole): the output is the input
"$CARC" gen -n 3 -s 5 >three.cgn
"$CARC" filter three.cgn | cmp -s - three.cgn
check "filter: whole games are copied byte for byte" test $? -eq 0

# ---- 4. one long name does not pad every row of a table ----

long=$(printf '%060000d' 0 | tr 0 n)
for i in 0 1 2 3 4 5 6 7 8 9; do
	name=q$i
	[ $i -eq 0 ] && name=$long
	printf '[Seats "red green"]\n[Red "%s"]\n[Green "p%d"]\n[Result "red 0, green 0"]\n\n1. red U -1,0 90\n\n' "$name" $i
done >wide.cgn
"$CARC" standings wide.cgn >out 2>err
check "standings: a 60,000-byte name: exit 0" test $? -eq 0
check "standings: no line of the table over 200 bytes" test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' out)" -le 200
check "standings: the long name is cut with an ellipsis" grep -q "nnnnnnn…" out
check "standings: the output is small" test "$(wc -c <out)" -lt 5000
"$CARC" standings --format json wide.cgn >out 2>err
check "standings --format json: the name is whole" grep -q "$long" out

# ---- 5. messages that quote the input show it as the source line does ----

# E533 quotes a colour, E531 a character of the stack, E532 one of a move:
# each with an escape sequence and a right-to-left override in it.
printf 'https://www.carcassonnelab.com/#/0/0/O/?players=a,b&colors=red,%s[2Jx%s\n' "$ESC" "$RLO" >e533.txt
printf 'https://www.carcassonnelab.com/#/0/0/O%s/?players=a,b&colors=red,blue\n' "$ESC" >e531.txt
printf 'https://www.carcassonnelab.com/#/0/0/FQ/1%s10?players=a,b&colors=red,blue\n' "$ESC" >e532.txt
for code in 533 531 532; do
	"$CARC" import --from carcassonnelab e$code.txt >/dev/null 2>err
	check "E$code: refused" grep -q "error\[E$code\]" err
	check "E$code: no control or bidi character in the message" has_no_escape err
done
# a file name with an escape in it, in the message's position
esc_name=$(printf 'x%s]0;owned\007.cgn' "$ESC")
printf '[Seats "red green"]\n\n1. red U -1,0 90 thief Q\n' >"$esc_name"
"$CARC" check "$esc_name" >/dev/null 2>err
check "check: an escape in the file's name is not written" has_no_escape err
check "check: the message is still there" grep -q 'error\[' err

# ---- 5. CSV cells that a spreadsheet would run are neutralised ----

printf '[Seats "red green blue yellow"]\n[Red "=HYPERLINK(\\"http://x\\")"]\n[Green "@SUM(A1)"]\n' >formula.cgn
printf '[Blue "+1+2"]\n[Yellow "-5"]\n[Result "red 0, green 0, blue 0, yellow 0"]\n\n' >>formula.cgn
printf '1. red U -1,0 90\n' >>formula.cgn
"$CARC" standings --format csv formula.cgn >out 2>err
check "standings csv: =formula quoted with '" grep -qF '"'"'"'=HYPERLINK(""http://x"")"' out
check "standings csv: @formula quoted with '" grep -qF '"'"'"'@SUM(A1)"' out
check "standings csv: +formula quoted with '" grep -qF '"'"'"'+1+2"' out
check "standings csv: a number stays a number" grep -q '^[0-9]*,-5,' out
check "standings csv: no cell begins with = + @" sh -c '! grep -q ",[=+@]" out'
cp formula.cgn =cmd.cgn
"$CARC" score --format csv =cmd.cgn >out 2>err
check "score csv: a file name that is a formula is quoted with '" grep -qF '"'"'"'=cmd.cgn"' out

# ---- 5. SVG is well-formed XML whatever a name holds ----

# U+FFFE and U+FFFF are valid UTF-8 but not XML characters; < and & must be
# escaped.
printf '[Seats "red green"]\n[Red "a\357\277\276b\357\277\277c<&d"]\n[Green "x"]\n\n' >ff.cgn
printf '1. red U -1,0 90 thief E\n' >>ff.cgn
"$CARC" render ff.cgn -o ff.svg 2>err
check "render: a name with U+FFFE and U+FFFF is drawn" test -s ff.svg
if command -v xmllint >/dev/null 2>&1; then
	check "render: the SVG is well-formed (xmllint)" xmllint --noout ff.svg
elif command -v python3 >/dev/null 2>&1; then
	check "render: the SVG is well-formed (python3 xml.etree)" \
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' ff.svg
else
	echo "skipped: neither xmllint nor python3 to parse the SVG"
fi

# ---- 6. export writes no URL its own import refuses or changes ----

long=$(printf '%0201d' 0 | tr 0 x)
printf '[Seats "red green"]\n[Red "a\tb"]\n\n1. red U -1,0 90\n' >tab.cgn
printf '[Seats "red green"]\n[Green "%s"]\n\n1. red U -1,0 90\n' "$long" >long.cgn
for f in tab long; do
	"$CARC" export --to carcassonnelab $f.cgn >out 2>err
	check "export: a name with a $f: exit 2" test $? -eq 2
	check "export: a name with a $f: E540 at its tag" grep -q "^$f.cgn:[23]:1: error\[E540\]" err
	check "export: a name with a $f: no URL" test ! -s out
done

# ---- 6. a --where kind that no tile set has is an error ----

"$CARC" gen -n 3 -s 5 >three.cgn
"$CARC" filter -w 'citty.tiles<100' three.cgn >out 2>err
check "filter -w citty.tiles: exit 2" test $? -eq 2
check "filter -w citty.tiles: no game selected" test ! -s out
check "filter -w citty.tiles: the kinds named, the close one suggested" \
	grep -q "no game's tile set has a feature kind 'citty' (the kinds are road, city.*did you mean 'city'" err
"$CARC" filter -w 'city.tiles<100' three.cgn >out 2>err
check "filter -w city.tiles: selects" test $? -eq 0

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
