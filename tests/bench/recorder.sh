#!/bin/sh
# tests/bench/recorder.sh - carc recorder's figures for make bench: the
# page's size (and its engine's), and the time the page's WebAssembly engine
# takes to list the legal moves of a tile, run by node (as a browser runs
# it): the mean over every turn of generated base games, and the slowest.
#
#   CARC=./carc BUILD=build sh tests/bench/recorder.sh
CARC=${CARC:-./carc}
BUILD=${BUILD:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -f "$BUILD/carc.wasm" ]; then
	echo "recorder: skipped: the WebAssembly engine is not built ($(cat "$BUILD/recorder-missing.txt" 2>/dev/null))"
	exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
"$CARC" recorder -o "$tmp/page.html" || exit 2
echo "recorder: the page $(wc -c <"$tmp/page.html") bytes, its engine $(wc -c <"$BUILD/carc.wasm") bytes of WebAssembly"
if ! command -v node >/dev/null 2>&1; then
	echo "recorder: the time to list legal moves: skipped: no node"
	exit 0
fi
"$CARC" gen -n 5 -s 3 -o "$tmp/games.cgn" || exit 2
node - "$top/src/output/recorder/engine.js" "$BUILD/carc.wasm" "$tmp/games.cgn" <<'JS'
const fs = require("fs");
const [enginePath, wasm, games] = process.argv.slice(2);
const engine = require(enginePath).makeEngine(fs.readFileSync(wasm));
let header = [], inTurns = false, times = [], n = 0;
for (const line of fs.readFileSync(games, "utf8").split("\n")) {
	if (line.startsWith("[")) {
		if (inTurns) { header = []; inTurns = false; }
		header.push(line);
		continue;
	}
	const m = /^\s*\d+[.+]\s+\S+\s+([^=\n]*?)\s*(=.*)?$/.exec(line);
	if (!m || !m[1])
		continue;
	if (!inTurns) { inTurns = true; engine.open(header.join("\n") + "\n"); }
	const move = m[1].trim().split(/\s+/).join(" ");
	engine.enter(move.split(" ")[0]);
	const t0 = process.hrtime.bigint();
	n += engine.moves().length;
	times.push(Number(process.hrtime.bigint() - t0) / 1e6);
	engine.play(move);
}
const mean = times.reduce((a, b) => a + b, 0) / times.length;
console.log("recorder: the legal moves of a tile (WebAssembly, node " + process.version + "): mean " + mean.toFixed(2) +
	" ms, slowest " + Math.max(...times).toFixed(2) + " ms, over " + times.length + " turns of 5 base games (" +
	(n / times.length).toFixed(0) + " moves a turn)");
JS
