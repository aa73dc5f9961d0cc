#!/bin/sh
# tests/pictures/run.sh - the pictures of carc tiles, show and render.
#
#   CARC=build/carc sh tests/pictures/run.sh
#
# Every SVG made here is checked with a real XML parser (xmllint from
# libxml2-utils, else python3's xml.etree; when neither is installed those
# checks are skipped with a message). carc show and carc render must work on
# every game of every sample and test record given below, in every rule set.
# carc render --format png and pdf (through librsvg) must write pictures of
# the right size, a PDF of one page with the right media box, and refuse bad
# sizes, a terminal and a missing library (CARC_LIBRSVG names a wrong one).
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

# --- the Big Box's figures: tests/golden/show-bigbox/bigbox.cgn ---
# The builder and the pig are figures of their own (class builder, pig),
# a large follower is drawn larger (class large, scale 1.35), each with
# its colour's badge; the big farmer on IH's walled-in field (spot I)
# stands inside IH, away from its edges; with --features that field is
# coloured by its owner; the text report says who got the wine token on
# the turn it was won, and has the goods and pigs rows.
bb=tests/golden/show-bigbox/bigbox.cgn
"$CARC" render "$bb" >"$tmp/bb.svg" 2>/dev/null
check_svg "render $bb" "$tmp/bb.svg"
if grep -q '<g class="builder" transform="[^"]*"><title>red builder</title><path d="M0,-17' "$tmp/bb.svg"; then
	ok
else
	bad "render $bb: no builder figure"
fi
if grep -q '<g class="pig" transform="[^"]*"><title>blue pig</title>' "$tmp/bb.svg" &&
	grep -q '<ellipse cx="17.5" cy="-1.5" rx="2.6" ry="3.2"' "$tmp/bb.svg"; then
	ok
else
	bad "render $bb: no pig with its snout"
fi
if grep -q '<g class="large" transform="[^"]* scale(1.35)"><title>red big thief</title>' "$tmp/bb.svg"; then
	ok
else
	bad "render $bb: the large thief is not drawn larger"
fi
# every figure has its colour's badge: 5 figures on the map
if [ "$(grep -o '<g class="badge"' "$tmp/bb.svg" | wc -l)" = 5 ]; then ok; else bad "render $bb: not 5 badges"; fi
# the big farmer at I: inside IH's tile, at least 20 units from its edges
tile=$(grep -A1 '<g><title>tile IH:' "$tmp/bb.svg" | sed -n 's/.*translate(\([0-9.]*\),\([0-9.]*\)) rotate.*/\1 \2/p')
farmer=$(sed -n 's/.*<g class="large" transform="translate(\([0-9.]*\),\([0-9.]*\))[^"]*"><title>blue big farmer.*/\1 \2/p' "$tmp/bb.svg")
if [ -n "$tile" ] && [ -n "$farmer" ] && echo "$tile $farmer" |
	awk '{ exit !($3 > $1 + 20 && $3 < $1 + 80 && $4 > $2 + 20 && $4 < $2 + 80) }'; then
	ok
else
	bad "render $bb: the farmer at I ($farmer) is not inside IH ($tile)"
fi
"$CARC" render --features "$bb" >"$tmp/bbf.svg" 2>/dev/null
check_svg "render --features $bb" "$tmp/bbf.svg"
# IH's field, owned by blue: the whole tile, shaded blue, under the caps
if grep -A4 '<g><title>tile IH:' "$tmp/bbf.svg" | grep -q '<polygon points="0.0,0.0 100.0,0.0 100.0,100.0 0.0,100.0" fill="#1f5fd1" fill-opacity="0.6"/>'; then
	ok
else
	bad "render --features $bb: IH's walled-in field is not coloured by its owner"
fi
# the replay page draws its board with the same figures, each shown from its step
"$CARC" render --format html "$bb" -o "$tmp/bb.html" 2>/dev/null
if grep -q '<g class="follower" data-s="5"><g class="builder"' "$tmp/bb.html" &&
	grep -q '<g class="follower" data-s="6"><g class="pig"' "$tmp/bb.html" &&
	grep -q '<g class="follower" data-s="3"><g class="large"' "$tmp/bb.html"; then
	ok
else
	bad "render --format html $bb: the replay board lacks the builder, the pig or the large thief"
fi
"$CARC" score "$bb" >"$tmp/bb.txt" 2>/dev/null
if grep -q '^   2  blue' "$tmp/bb.txt" && grep -q '^        held: wine red 0, blue 1 (blue +1)$' "$tmp/bb.txt" &&
	grep -q '^  goods (10 a good)  *0  *10$' "$tmp/bb.txt" && grep -q '^  pigs  *0  *2$' "$tmp/bb.txt" &&
	[ "$(grep -c 'held:' "$tmp/bb.txt")" = 1 ]; then
	ok
else
	bad "score $bb: no goods line under turn 2, or no goods and pigs rows"
fi
"$CARC" score samples/club-night.cgn >"$tmp/club.txt" 2>/dev/null
if grep -q 'held:\|goods\|pigs' "$tmp/club.txt"; then bad "score of a base game: a goods line or row"; else ok; fi
"$CARC" show "$bb" >"$tmp/bb-show.txt" 2>/dev/null
if grep -q 'TTr' "$tmp/bb-show.txt" && grep -q 'Br' "$tmp/bb-show.txt" && grep -q 'Pb' "$tmp/bb-show.txt" &&
	grep -q 'FFb' "$tmp/bb-show.txt" && grep -q 'B builder, P pig' "$tmp/bb-show.txt"; then
	ok
else
	bad "show $bb: the large thief, builder, pig or big farmer is not shown, or not in the key"
fi

# --- carc show fits the terminal: --width ---
# Every game of every sample fits in 80 columns (display width: wc -L in a
# UTF-8 locale), plain and in ASCII; a map cut to fit says what it left
# out; the default when standard output is no terminal is 80; a width too
# narrow for a tile is refused.
if printf 'x\n' | LC_ALL=C.UTF-8 wc -L >/dev/null 2>&1; then
	for f in samples/*.cgn; do
		g=1
		while "$CARC" show --width 80 --game $g "$f" >"$tmp/w80.txt" 2>/dev/null || [ $? = 1 ]; do
			for a in "" --ascii; do
				# shellcheck disable=SC2086
				"$CARC" show --width 80 $a --game $g "$f" >"$tmp/w80.txt" 2>/dev/null
				w=$(LC_ALL=C.UTF-8 wc -L <"$tmp/w80.txt")
				if [ -s "$tmp/w80.txt" ] && [ "$w" -le 80 ]; then ok; else bad "show --width 80 $a $f game $g: $w columns"; fi
			done
			g=$((g + 1))
		done
	done
	"$CARC" show samples/full-game-2-players.cgn >"$tmp/default.txt" 2>/dev/null
	w=$(LC_ALL=C.UTF-8 wc -L <"$tmp/default.txt")
	if [ "$w" -le 80 ] && grep -q '^the map is cut to fit 80 columns: x from' "$tmp/default.txt"; then
		ok
	else
		bad "show of a wide map, not on a terminal: $w columns, or no word of the cut"
	fi
	"$CARC" show --width 200 samples/full-game-2-players.cgn >"$tmp/wide.txt" 2>/dev/null
	if [ "$(LC_ALL=C.UTF-8 wc -L <"$tmp/wide.txt")" -gt 80 ] && ! grep -q 'the map is cut' "$tmp/wide.txt"; then
		ok
	else
		bad "show --width 200: the map was cut, or is no wider than 80"
	fi
	"$CARC" show --width 40 --ascii samples/full-game-5-players.cgn >"$tmp/w40.txt" 2>/dev/null
	if [ "$(LC_ALL=C.UTF-8 wc -L <"$tmp/w40.txt")" -le 40 ] && grep -q 'left out' "$tmp/w40.txt"; then
		ok
	else
		bad "show --width 40: wider than 40 or no word of what was left out"
	fi
else
	skip "show --width: wc -L does not count columns here"
fi
"$CARC" show --width 10 samples/club-night.cgn >/dev/null 2>"$tmp/w10.err"
if [ $? = 2 ] && grep -q -- '--width takes a number of columns from 30' "$tmp/w10.err"; then ok; else bad "show --width 10 is not refused"; fi

# --- the legends count every figure once, in every rule set ---
# At the end of a game of each rule set, each colour's figures of each kind
# (followers, huts, abbots) standing on the map of carc show, plus those the
# legend says are in supply, are as many as it had in supply at the start
# (--turn 0, an empty map); carc render's legend says the same as show's,
# and both name the rules and expansions.
# figures FILE: "COLOUR KIND N" per line, from carc show --ascii's legend
figures() {
	awk '/^(final scores|scores after this turn|scores):$/ { on = 1; next }
		/^followers:/ { on = 0 }
		on && NF { line = $0; c = $2
			if (match(line, /[0-9]+ followers? in supply/)) print c, "follower", substr(line, RSTART, RLENGTH) + 0
			rest = substr(line, RSTART + RLENGTH); n = split(rest, part, ", ")
			for (i = 2; i <= n; i++) { split(part[i], w, " "); k = w[2]; sub(/s$/, "", k); print c, k, w[1] + 0 } }' "$1"
}
# on_map FILE: "COLOUR KIND N" for the figures drawn on the map of carc show --ascii
on_map() {
	awk 'NR > 2 && /^(final scores|scores after this turn|scores):$/ { exit }
		/^followers:/ { exit }
		NR > 3 { print }' "$1" >"$tmp/map-only.txt"
	roles=$(sed -n 's/^followers: //p' "$1")
	awk -v roles="$roles" 'BEGIN { n = split(roles, r, ", ")
			for (i = 1; i <= n; i++) { split(r[i], w, " "); kind[w[1]] = w[2] }
			col["r"] = "red"; col["g"] = "green"; col["b"] = "blue"; col["y"] = "yellow"
			col["k"] = "black"; col["a"] = "gray"; col["p"] = "pink" }
		{ line = $0
			while (match(line, /[A-Z][a-z]/)) { l = substr(line, RSTART, 1); c = substr(line, RSTART + 1, 1)
				if ((l in kind) && (c in col)) {
					k = kind[l] == "hut" || kind[l] == "abbot" ? kind[l] : "follower"
					count[col[c] " " k]++ }
				line = substr(line, RSTART + 2) } }
		END { for (x in count) print x, count[x] }' "$tmp/map-only.txt"
}
for game in "base 2" "solo 3" "hunters 3" "base 4 river" "base 2 abbot" "base 3 river,abbot" "solo 3 river"; do
	set -- $game
	x=${3:+--expansions $3}
	# shellcheck disable=SC2086
	"$CARC" gen --rules "$1" --players "$2" $x --seed 7 -o "$tmp/end.cgn" 2>/dev/null
	"$CARC" show --ascii --width 100000 "$tmp/end.cgn" >"$tmp/end.txt" 2>/dev/null
	"$CARC" show --ascii --width 100000 --turn 0 "$tmp/end.cgn" >"$tmp/start.txt" 2>/dev/null
	figures "$tmp/start.txt" | sort >"$tmp/start.fig"
	{ figures "$tmp/end.txt"; on_map "$tmp/end.txt"; } |
		awk '{ n[$1 " " $2] += $3 } END { for (k in n) print k, n[k] }' | sort >"$tmp/end.fig"
	if [ -s "$tmp/start.fig" ] && grep -q '^final scores:$' "$tmp/end.txt" &&
		[ "$(on_map "$tmp/end.txt" | wc -l)" -gt 0 ] && cmp -s "$tmp/start.fig" "$tmp/end.fig"; then
		ok
	else
		bad "$game: at the end, the figures on the map and in supply are not those of the start:" \
			"$(tr '\n' ';' <"$tmp/start.fig") vs $(tr '\n' ';' <"$tmp/end.fig")"
	fi
	"$CARC" render "$tmp/end.cgn" -o "$tmp/end.svg" 2>/dev/null
	want=$(sed -n 's/^  . [a-z]* .* [0-9]*   \([0-9]* follower.*\)$/\1/p' "$tmp/end.txt" | tr '\n' ';')
	got=$(grep -o '>[0-9]* followers\{0,1\} in supply[^<]*<' "$tmp/end.svg" | tr -d '<>' | tr '\n' ';')
	if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else bad "$game: render's legend says '$got', show's '$want'"; fi
	rules="$1 rules"
	[ "$1" = base ] && rules="$rules, edition 3"
	case $3 in
	river) rules="$rules, with The River" ;;
	abbot) rules="$rules, with The Abbot" ;;
	river,abbot) rules="$rules, with The River and The Abbot" ;;
	esac
	# the legend's text, its wrapped lines joined
	if head -n 1 "$tmp/end.txt" | grep -qF "$rules" &&
		tr '\n' ' ' <"$tmp/end.svg" | sed 's/<[^>]*>/ /g; s/  */ /g' | grep -qF "$rules"; then
		ok
	else
		bad "$game: the rules are not named '$rules' in show's heading and render's legend: $(head -n 1 "$tmp/end.txt")"
	fi
done

# --- carc render --format png and pdf (librsvg, loaded at run time) ---
# The pixels are tested by tests/unit/test_raster.c; here the command line:
# sizes, where the bytes go, the PDF's page, and every refusal.
# png_size FILE: "WIDTH HEIGHT" from the IHDR, or nothing when not a PNG
png_size() {
	[ "$(head -c 8 "$1" | od -A n -t x1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return
	od -A n -t u1 -j 16 -N 8 "$1" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8}'
}
# refuses NAME STATUS MESSAGE ARGS...: carc render ARGS exits STATUS, says MESSAGE, writes nothing to stdout
refuses() {
	name=$1 want=$2 msg=$3
	shift 3
	"$CARC" render "$@" >"$tmp/refused.out" 2>"$tmp/refused.err"
	st=$?
	if [ $st != "$want" ]; then
		bad "render $name: exit status $st, not $want: $(tail -n 2 "$tmp/refused.err")"
	elif ! grep -qF -- "$msg" "$tmp/refused.err"; then
		bad "render $name: no message '$msg': $(tail -n 2 "$tmp/refused.err")"
	elif [ -s "$tmp/refused.out" ]; then
		bad "render $name: wrote to standard output"
	else
		ok
	fi
}
club=samples/club-night.cgn
if ! "$CARC" render --format png "$club" >"$tmp/club.png" 2>"$tmp/png.err" && grep -q 'cannot be loaded' "$tmp/png.err"; then
	skip "render --format png and pdf: $(head -n 1 "$tmp/png.err")"
else
	# standard output when it is a pipe or a file: the SVG's size (562 x 298)
	if [ "$(png_size "$tmp/club.png")" = "562 298" ]; then ok; else bad "render --format png: not a 562 x 298 PNG: $(png_size "$tmp/club.png")"; fi
	"$CARC" render --format png --width 1000 "$club" 2>/dev/null | cat >"$tmp/piped.png"
	if [ "$(png_size "$tmp/piped.png")" = "1000 530" ]; then ok; else bad "render --format png --width 1000 | cat: $(png_size "$tmp/piped.png")"; fi
	"$CARC" render --format png --scale 0.5 --turn 0 -o "$tmp/half.png" "$club" 2>/dev/null
	if [ "$(png_size "$tmp/half.png")" = "201 109" ]; then ok; else bad "render --format png --scale 0.5 --turn 0: $(png_size "$tmp/half.png")"; fi
	# the five-player sample's last turn, and an illegal move: exit 1, the picture still drawn
	"$CARC" render --format png samples/full-game-5-players.cgn >"$tmp/five.png" 2>/dev/null
	if [ $? = 0 ] && [ "$(png_size "$tmp/five.png")" = "1362 1018" ]; then ok; else bad "render --format png of the 5-player sample: $(png_size "$tmp/five.png")"; fi
	"$CARC" render --format png -o "$tmp/slip.png" tests/golden/show-illegal/slip.cgn 2>/dev/null
	st=$?
	if [ $st = 1 ] && [ -n "$(png_size "$tmp/slip.png")" ]; then ok; else bad "render --format png of an illegal move: status $st"; fi
	# a PDF of one page, its media box the picture's pixels at 96 to the inch
	for opts in ":421.5 223.5" "--width 800:600 318" "--scale 2:843 447"; do
		o=${opts%%:*} box=${opts#*:}
		# shellcheck disable=SC2086
		"$CARC" render --format pdf $o -o "$tmp/club.pdf" "$club" 2>/dev/null
		pages=$(grep -a -c '/Type /Page\b' "$tmp/club.pdf")
		if [ "$(head -c 5 "$tmp/club.pdf")" != "%PDF-" ]; then
			bad "render --format pdf $o: not a PDF"
		elif [ "$pages" != 1 ] || ! grep -a -q '/Count 1$' "$tmp/club.pdf"; then
			bad "render --format pdf $o: $pages pages, not one"
		elif ! grep -a -q "/MediaBox \[ 0 0 $box \]" "$tmp/club.pdf"; then
			bad "render --format pdf $o: media box $(grep -a -o '/MediaBox [^]]*]' "$tmp/club.pdf"), not 0 0 $box"
		else
			ok
		fi
	done
	if grep -a -q '/Title (Club night, 2026-11-20)' "$tmp/club.pdf"; then ok; else bad "render --format pdf: no title"; fi
	# refusals: options, sizes, a terminal, a missing library; -o FILE left as it was
	refuses "--format gif" 2 "--format is svg, png, pdf or html, not 'gif'" --format gif "$club"
	for w in 0 16385 -3 12x ""; do
		refuses "--width '$w'" 2 "--width takes a number of pixels from 1 to 16384, not '$w'" --format png --width "$w" "$club"
	done
	for f in 0 -1 100.5 nan inf 1e999 2x ""; do
		refuses "--scale '$f'" 2 "--scale takes a number above 0 and at most 100, such as 1.5, not '$f'" --format png --scale "$f" "$club"
	done
	refuses "--width and --scale" 2 "give --width or --scale, not both" --format png --width 100 --scale 2 "$club"
	refuses "--width with svg" 2 "--width is for --format png or pdf" --width 100 "$club"
	refuses "--scale without --format" 2 "--scale is for --format png or pdf" --scale 2 "$club"
	echo "left alone" >"$tmp/kept.png"
	refuses "--scale 100" 2 "the picture would be 56200 x 29800 pixels; carc draws at most 16384 a side and 67108864 in all" \
		--format png --scale 100 -o "$tmp/kept.png" "$club"
	refuses "pdf --scale 40" 2 "the picture would be 22480 x 11920 pixels" --format pdf --scale 40 -o "$tmp/kept.png" "$club"
	refuses "--width 16384 of a tall map" 2 "the picture would be 16384 x 12246 pixels" \
		--format png --width 16384 -o "$tmp/kept.png" samples/full-game-5-players.cgn
	CARC_LIBRSVG=librsvg-missing.so.0 refuses "without librsvg" 2 \
		"carc render: PNG and PDF pictures need the librsvg library, which cannot be loaded (librsvg-missing.so.0: cannot open shared object file: No such file or directory); install it (Debian and Ubuntu: apt-get install librsvg2-2)" \
		--format pdf -o "$tmp/kept.png" "$club"
	if grep -qx "left alone" "$tmp/kept.png"; then ok; else bad "a refused render changed its -o file"; fi
	# the library is loaded only for PNG and PDF
	if CARC_LIBRSVG=librsvg-missing.so.0 "$CARC" render -o "$tmp/plain.svg" "$club" 2>/dev/null; then ok; else bad "render to SVG needs librsvg"; fi
	if command -v script >/dev/null 2>&1; then
		script -qec "$CARC render --format png $club" /dev/null >"$tmp/tty.out" 2>&1
		st=$?
		if [ $st = 2 ] && grep -q "carc render: will not write a PNG to a terminal: give -o FILE, or redirect standard output to a file or a pipe" "$tmp/tty.out"; then
			ok
		else
			bad "render --format png to a terminal: status $st: $(head -n 2 "$tmp/tty.out")"
		fi
	else
		skip "render --format png to a terminal: no script(1) to make one"
	fi
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
