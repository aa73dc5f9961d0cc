/* legal.js - the WebAssembly side of the comparison in tests/recorder: the
 * same lines as legal.c, from the page's engine (build/carc.wasm) run by
 * node through the page's own loader (src/output/recorder/engine.js).
 *
 *   node legal.js [-v] ENGINE.wasm FILE.cgn */
"use strict";
const fs = require("fs");
const path = require("path");
const { makeEngine } = require(path.resolve(__dirname, "../../src/output/recorder/engine.js"));
const args = process.argv.slice(2);
const verbose = args[0] === "-v";
if (verbose)
	args.shift();
const engine = makeEngine(fs.readFileSync(args[0]));
const lines = fs.readFileSync(args[1], "utf8").split("\n");
let header = [], inTurns = false, game = 0, turn = 0, status = 0;
const out = [];
function hash(texts) {
	let h = 2166136261;
	for (const t of texts) {
		for (const b of Buffer.from(t + "|", "utf8"))
			h = Math.imul(h ^ b, 16777619) >>> 0;
	}
	return h.toString(16).padStart(8, "0");
}
for (const line of lines) {
	if (line.startsWith("[")) {
		if (inTurns) {
			header = [];
			inTurns = false;
		}
		header.push(line);
		continue;
	}
	const m = /^\s*\d+[.+]\s+\S+\s+([^=\n]*?)\s*(=.*)?$/.exec(line);
	if (!m || !m[1])
		continue;
	const move = m[1], tile = move.split(" ")[0];
	if (!inTurns) {
		inTurns = true;
		game++;
		turn = 0;
		engine.open(header.join("\n") + "\n");
	}
	turn++;
	engine.enter(tile);
	const texts = engine.moves().map((x) => x.text).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	out.push(game + "." + turn + " " + tile + " " + texts.length + " " + hash(texts));
	if (verbose)
		for (const t of texts)
			out.push("  " + t);
	try {
		engine.play(move);
	} catch (e) {
		process.stderr.write("game " + game + " turn " + turn + ": " + move + " refused: " + e.message + "\n");
		status = 1;
	}
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
process.exit(status);
