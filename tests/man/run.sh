#!/bin/sh
# tests/man/run.sh - the man pages render cleanly and match the commands.
#
# Every page under man/ must render without a warning (mandoc -Tlint when
# mandoc is installed, else groff -man -Tutf8 -ww: the UTF-8 device knows the
# box-drawing characters the pages of show and tiles print, which groff's
# default device does not). A page with a real fault must give the same
# linter a warning, or the check itself is broken. Every command in `carc --help`
# must have a page man/carc-COMMAND.1 listed in carc(1), and every long
# option that `carc COMMAND --help` prints must appear in that page, so the
# documentation cannot silently fall behind the code. Prints
# "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
CARC=${CARC:-build/carc}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

lint() {
	if command -v mandoc >/dev/null 2>&1; then
		mandoc -Tlint -W warning "$1" 2>&1
	else
		groff -man -Tutf8 -ww -z "$1" 2>&1
	fi
}
if command -v mandoc >/dev/null 2>&1 || command -v groff >/dev/null 2>&1; then
	for page in man/*.1 man/*.3 man/*.5; do
		out=$(lint "$page")
		if [ -z "$out" ]; then ok; else bad "$page renders with warnings: $out"; fi
	done
	# a page with an unknown macro and an unknown character: not clean
	broken=$(mktemp)
	printf '.TH BROKEN 1\n.SH NAME\nbroken\n.XY unknown macro\n\\[nosuchglyph]\n' >"$broken"
	if [ -n "$(lint "$broken")" ]; then ok; else bad "the man-page linter finds no fault in a broken page"; fi
	rm -f "$broken"
else
	bad "neither mandoc nor groff is installed to lint the man pages (tests/deps.sh installs groff-base)"
fi

commands=$("$CARC" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ -n "$commands" ] || bad "carc --help lists no commands"
for cmd in $commands; do
	page=man/carc-$cmd.1
	if [ ! -f "$page" ]; then
		bad "carc $cmd has no page $page"
		continue
	fi
	ok
	if grep -q "carc\\\\-$cmd (1)" man/carc.1; then ok; else bad "carc(1) does not refer to carc-$cmd(1)"; fi
	# long options from --help, e.g. "  -f, --format FORMAT" or "      --final"
	for opt in $("$CARC" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		# in roff a dash is written \- ; accept both
		roff=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
		name=${opt#--}
		# man macros write \-\-name; mdoc writes Fl Fl name
		if grep -q -- "$roff" "$page" || grep -q -- "$opt" "$page" || grep -q -- "Fl Fl $name" "$page"; then
			ok
		else
			bad "$page does not document $opt (from carc $cmd --help)"
		fi
	done
done
# The README's examples: each "    $ build/carc ..." line of it is run from the
# top of the repository (with $CARC for build/carc), and what it prints, on
# standard error and standard output, must be the indented lines after it.
examples=$(mktemp -d)
awk -v dir="$examples" '
	/^    \$ build\/carc / { n++; sub(/^    \$ build\/carc /, ""); print > (dir "/" n ".cmd"); close(dir "/" n ".cmd"); on = 1; next }
	on && (/^    / || /^$/) { sub(/^    /, ""); print > (dir "/" n ".want"); next }
	{ on = 0 }' README.md
[ -n "$(ls "$examples")" ] || bad "README.md has no example to run"
for cmd in "$examples"/*.cmd; do
	[ -f "$cmd" ] || continue
	want=${cmd%.cmd}.want
	# shellcheck disable=SC2046
	NO_COLOR=1 "$CARC" $(cat "$cmd") >"$examples/got" 2>&1
	# (the expected output without its trailing blank lines)
	sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}' "$want" >"$examples/want"
	if cmp -s "$examples/got" "$examples/want"; then
		ok
	else
		bad "README example 'carc $(cat "$cmd")' prints otherwise: $(diff "$examples/want" "$examples/got" | head -n 10)"
	fi
done
rm -rf "$examples"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
