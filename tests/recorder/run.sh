#!/bin/sh
# tests/recorder/run.sh - carc recorder: the command, the WebAssembly engine
# against the command line's, and the page in Chromium.
#
#   CARC=build/carc BUILD=build sh tests/recorder/run.sh
#
# 1. `carc recorder --help` and `carc --help` name the command; with the
#    engine built in, `carc recorder -o FILE` writes one self-contained page
#    (its CSP forbids every request, no src= or href= that loads anything);
#    without it, the command says which packages are missing and exits 2.
# 2. The legal moves of every turn of RECORDER_GAMES (default 200)
#    generated games of each rule set (base; base with The River and The
#    Abbot; solo; solo with The River; Hunters and Gatherers) are listed by
#    the WebAssembly engine under node (legal.js over BUILD/carc.wasm) and by
#    the same export layer built for this machine over libcarc
#    (BUILD/recorder-legal): the lists must be identical, turn by turn.
#    And the turn to play as that engine numbers it, and the tiles its
#    picker offers, at every turn of the base and Hunters games (turns.js).
#    And a solo turn's scoring order: every order of the features a tile
#    completes, through the page's engine, gives carc score's totals for
#    the game written with that order (orders.js; RECORDER_ORDER_GAMES
#    solo and solo+River games, default 5000, those with an order line).
# 3. The page in headless Chromium (tests/browser/recorder.js), when
#    Chromium and playwright-core are there (as tests/browser/run.sh).
# What cannot run for want of the toolchain, node or Chromium is skipped
# with the reason. Prints "N passed, N failed".
top=$(cd "$(dirname "$0")/../.." && pwd)
CARC=${CARC:-build/carc}
BUILD=${BUILD:-build}
games=${RECORDER_GAMES:-200}
passed=0
failed=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

"$CARC" recorder --help >"$tmp/help" 2>&1 && grep -q 'window.carc' "$tmp/help" && ok || bad "carc recorder --help"
"$CARC" --help | grep -q '^  recorder ' && ok || bad "carc --help lists recorder"
"$CARC" recorder extra >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "carc recorder FILE is a usage error (exit 2)"

if ! "$CARC" recorder -o "$tmp/page.html" 2>"$tmp/err"; then
	st=$?
	[ $st -eq 2 ] && grep -q 'built without' "$tmp/err" && [ ! -s "$tmp/page.html" ] && ok ||
		bad "without its engine carc recorder says so and exits 2 (exit $st: $(cat "$tmp/err"))"
	if WASM_CC=${WASM_CC:-clang} sh "$top/tests/wasm.sh" >/dev/null 2>&1; then
		bad "the WebAssembly toolchain is here but carc has no engine: $(cat "$tmp/err")"
	else
		echo "skip: the WebAssembly engine is not built: $(cat "$BUILD/recorder-missing.txt" 2>/dev/null)"
	fi
	echo "$passed passed, $failed failed"
	[ $failed -eq 0 ]
	exit
fi
ok
grep -q "default-src 'none'" "$tmp/page.html" && ok || bad "the page's CSP forbids requests"
if grep -n -E '<(script|img|link|iframe)[^>]* (src|href)=' "$tmp/page.html" | head -n 3 | grep -q .; then
	bad "the page loads nothing from elsewhere"
else
	ok
fi
size=$(wc -c <"$tmp/page.html")
[ "$size" -lt 2000000 ] && ok || bad "the page is under 2 MB ($size bytes)"

if ! command -v node >/dev/null 2>&1; then
	echo "skip: the WebAssembly engine against the command line's: no node"
else
	for set in "base" "base river abbot" "solo" "solo river" "hunters" "base inns-cathedrals traders-builders"; do
		rules=${set%% *}
		x=${set#"$rules"}
		x=${x# }
		name=$(echo "$set" | tr ' ' -)
		"$CARC" gen -r "$rules" ${x:+-x "$x"} -n "$games" -s 35 -o "$tmp/$name.cgn" || { bad "carc gen $set"; continue; }
		"$BUILD/recorder-legal" "$tmp/$name.cgn" >"$tmp/$name.native" 2>"$tmp/$name.native.err" ||
			{ bad "$name: the command line's engine refused a generated move: $(head -n 1 "$tmp/$name.native.err")"; continue; }
		node "$top/tests/recorder/legal.js" "$BUILD/carc.wasm" "$tmp/$name.cgn" >"$tmp/$name.wasm" 2>"$tmp/$name.wasm.err" ||
			{ bad "$name: the WebAssembly engine refused a generated move: $(head -n 1 "$tmp/$name.wasm.err")"; continue; }
		turns=$(wc -l <"$tmp/$name.native")
		if [ "$turns" -gt "$games" ] && cmp -s "$tmp/$name.native" "$tmp/$name.wasm"; then
			ok
			echo "ok   $name: the legal moves of $turns turns of $games games agree"
		else
			bad "$name: the engines' legal moves differ ($turns turns): $(diff "$tmp/$name.native" "$tmp/$name.wasm" | head -n 3 | tr '\n' ' ')"
		fi
	done
	# The turn to play as the page's engine numbers it (state().turn,
	#    .bonus) is the record's at every turn, and its picker offers the
	#    bonus tiles alone on a bonus turn and none of them on another
	#    (turns.js); the games must hold discards and bonus turns (Hunters
	#    and Gatherers' from the bonus stack, the builder's from the land).
	for name in base hunters base-inns-cathedrals-traders-builders; do
		[ -s "$tmp/$name.cgn" ] || continue
		if node "$top/tests/recorder/turns.js" "$BUILD/carc.wasm" "$tmp/$name.cgn" >"$tmp/$name.turns" 2>"$tmp/$name.turns.err"; then
			# "turns N discards N after a discard N bonus N"
			read -r _ nt _ _ _ _ _ na _ nb <"$tmp/$name.turns"
			if [ "$nt" -gt "$games" ] && { [ "$name" != base ] || [ "$na" -gt 0 ]; } &&
				{ [ "$name" = base ] || [ "$nb" -gt 0 ]; }; then
				ok
				echo "ok   $name: the page numbers $nt turns as the record does ($na after a discard, $nb bonus turns)"
			else
				bad "$name: the games do not test the turn numbers: $(cat "$tmp/$name.turns")"
			fi
		else
			bad "$name: the page's turn numbers or picker: $(head -n 3 "$tmp/$name.turns.err" | tr '\n' ' ')"
		fi
	done
	# A solo turn's scoring order (orders.js): where a tile completes two
	#    or more held features, every order of them through the page's
	#    engine, against `carc check` and `carc score` of the game written
	#    with that order. Such turns are rare in random solo games (the
	#    followers run out), so many games are generated and those with an
	#    order line walked.
	for set in "solo" "solo river"; do
		rules=${set%% *}
		x=${set#"$rules"}
		x=${x# }
		name=orders-$(echo "$set" | tr ' ' -)
		"$CARC" gen -r "$rules" ${x:+-x "$x"} -n "${RECORDER_ORDER_GAMES:-5000}" -s 35 -o "$tmp/$name.cgn" ||
			{ bad "carc gen $set"; continue; }
		if node "$top/tests/recorder/orders.js" "$BUILD/carc.wasm" "$tmp/$name.cgn" "$CARC" "$tmp" \
			>"$tmp/$name.out" 2>"$tmp/$name.err"; then
			# "games N turns N with-orders N orders N features N max, ..."
			read -r _ _ _ _ _ nw _ no _ _ <"$tmp/$name.out"
			if [ "$nw" -gt 0 ] && [ "$no" -gt "$nw" ]; then
				ok
				echo "ok   $name: $(cat "$tmp/$name.out")"
			else
				bad "$name: no turn to test the scoring order on: $(cat "$tmp/$name.out")"
			fi
		else
			bad "$name: the scoring orders: $(head -n 3 "$tmp/$name.err" | tr '\n' ' ')"
		fi
	done
fi

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
missing=""
[ -x "$CHROMIUM" ] || missing="$missing chromium ($CHROMIUM)"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -d "$top/tests/browser/node_modules/playwright-core" ] || missing="$missing playwright-core (cd tests/browser && npm ci)"
if [ "${CARC_BROWSER:-}" = skip ]; then
	echo "skip: the recorder's page in Chromium: CARC_BROWSER=skip"
elif [ -n "$missing" ]; then
	echo "skip: the recorder's page in Chromium needs:$missing"
else
	CHROMIUM=$CHROMIUM CARC=$CARC BUILD=$BUILD node "$top/tests/browser/recorder.js" >"$tmp/browser" 2>&1
	cat "$tmp/browser"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/browser" | tail -n 1)
	if [ -z "$line" ]; then
		bad "the recorder's browser tests stopped: $(tail -n 3 "$tmp/browser" | tr '\n' ' ')"
	else
		passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
		failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
	fi
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
