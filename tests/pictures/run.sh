#!/bin/sh
# tests/pictures/run.sh - the pictures of carc tiles, show and render.
#
#   CARC=build/carc sh tests/pictures/run.sh
#
# Every SVG made here is checked with a real XML parser (xmllint from
# libxml2-utils, else python3's xml.etree; when neither is installed those
# checks are skipped with a message). carc show and carc render must work on
# every game of every sample and test record given below, in every rule set.
# When Debian's chromium is installed, one map is rendered to PNG in headless
# Chromium and the PNG must not be blank (it is not installed here: the test
# is skipped with a message otherwise). Ends with "N passed, N failed, N
# skipped".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
case $CARC in /*) ;; *) CARC=$top/$CARC ;; esac
export NO_COLOR=1
passed=0
failed=0
skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top" || exit 2

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $*"; }

if command -v xmllint >/dev/null 2>&1; then
	xml_ok() { xmllint --noout "$1" 2>"$tmp/xml.err"; }
	parser=xmllint
elif command -v python3 >/dev/null 2>&1 && python3 -c 'import xml.etree.ElementTree' 2>/dev/null; then
	xml_ok() { python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" 2>"$tmp/xml.err"; }
	parser=python3
else
	parser=
	echo "SKIP XML checks: neither xmllint (libxml2-utils) nor python3 is installed"
fi

# check_svg NAME FILE: well-formed, one svg element, at least one tile
check_svg() {
	if [ ! -s "$2" ]; then
		bad "$1: no SVG written"
		return
	fi
	if ! grep -q '<g><title>tile ' "$2"; then
		bad "$1: no tile drawn"
		return
	fi
	if [ -z "$parser" ]; then
		skip "$1: not parsed (no XML parser)"
		return
	fi
	if xml_ok "$2"; then ok; else bad "$1: not well-formed XML ($parser): $(head -n 3 "$tmp/xml.err")"; fi
}

# --- carc tiles --svg ---
n=0
for ts in base hunters tests/golden/tiles-custom/stone.yaml; do
	n=$((n + 1))
	if [ "$ts" = hunters ] && ! "$CARC" tiles --tileset hunters >/dev/null 2>&1; then
		skip "tiles --svg --tileset hunters: no bundled hunters tile set"
		continue
	fi
	if "$CARC" tiles --svg --tileset "$ts" -o "$tmp/sheet$n.svg"; then
		check_svg "tiles --svg --tileset $ts" "$tmp/sheet$n.svg"
	else
		bad "tiles --svg --tileset $ts: exit status $?"
	fi
done
"$CARC" tiles --svg D V X >"$tmp/some.svg"
if [ "$(grep -c '<g><title>tile ' "$tmp/some.svg")" = 3 ]; then ok; else bad "tiles --svg D V X: not 3 tiles"; fi
check_svg "tiles --svg D V X" "$tmp/some.svg"

# --- carc show and carc render on every game ---
records=$(ls samples/*.cgn tests/golden/show-*/*.cgn 2>/dev/null)
# the folder of the custom tile set that tests/golden/show-hunters names
tp="--tileset-path tests/golden/tiles-custom"
for f in $records; do
	g=1
	while [ $g -le 50 ]; do
		"$CARC" show $tp --game $g "$f" >"$tmp/show.txt" 2>"$tmp/show.err"
		st=$?
		if [ $st = 2 ] && grep -q "not a game $g" "$tmp/show.err"; then
			break
		fi
		name="$f game $g"
		if [ $st -gt 1 ]; then
			bad "show $name: exit status $st: $(head -n 2 "$tmp/show.err")"
		elif ! grep -q 'key: ' "$tmp/show.txt"; then
			bad "show $name: no map"
		else
			ok
		fi
		"$CARC" show $tp --ascii --game $g "$f" >"$tmp/ascii.txt" 2>/dev/null
		if LC_ALL=C grep -q '[^ -~]' "$tmp/ascii.txt"; then bad "show --ascii $name: not plain ASCII"; else ok; fi
		for opts in "" "--features" "--turn 0" "--highlight 2,-3 --features"; do
			# shellcheck disable=SC2086
			"$CARC" render $tp $opts --game $g -o "$tmp/map.svg" "$f" 2>"$tmp/render.err"
			st=$?
			if [ $st -gt 1 ]; then
				bad "render $opts $name: exit status $st: $(head -n 2 "$tmp/render.err")"
			else
				check_svg "render $opts $name" "$tmp/map.svg"
			fi
		done
		g=$((g + 1))
	done
done

# the illegal move is outlined in red, the last tile in orange
"$CARC" render tests/golden/show-illegal/slip.cgn >"$tmp/slip.svg" 2>/dev/null
if [ $? = 1 ] && grep -q '<title>an illegal move</title>' "$tmp/slip.svg" && grep -q 'error\[E203\]' "$tmp/slip.svg"; then
	ok
else
	bad "render of an illegal move: no red frame or no message"
fi

# --- a real browser draws the picture ---
browser=
for b in chromium chromium-browser; do
	command -v $b >/dev/null 2>&1 && browser=$b && break
done
if [ -z "$browser" ]; then
	skip "headless browser: Debian's chromium is not installed"
elif ! command -v python3 >/dev/null 2>&1; then
	skip "headless browser: python3 is needed to read the PNG"
else
	"$CARC" render --features samples/club-night.cgn -o "$tmp/club.svg" 2>/dev/null
	profile=$(mktemp -d)
	timeout 120 $browser --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --window-size=800,600 --screenshot="$tmp/club.png" \
		"file://$tmp/club.svg" >"$tmp/chromium.log" 2>&1
	rm -rf "$profile"
	if [ ! -s "$tmp/club.png" ]; then
		bad "headless $browser wrote no PNG: $(tail -n 2 "$tmp/chromium.log")"
	elif python3 "$top/tests/pictures/png_colours.py" "$tmp/club.png" >"$tmp/colours.txt"; then
		ok
	else
		bad "headless $browser: the PNG looks blank: $(cat "$tmp/colours.txt")"
	fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
