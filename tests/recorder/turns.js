/* turns.js - what the page's engine says of the turn to play, against the
 * record that carc gen wrote and the referee numbers: at every turn of
 * every game of a CGN file, before the tile is entered and after,
 *   - state().turn is the number of the turn's line and state().bonus
 *     whether it is a bonus turn ("N+"): after a discard the same colour
 *     draws again under the same number, a bonus turn takes the number of
 *     the turn that earned it;
 *   - the picker's tiles (state().supply, those with now) are the bonus
 *     tiles on a bonus turn (the land tiles in a set with no bonus stack:
 *     The Traders' builder) and none of them on another, and the tile the
 *     record drew is among them.
 *
 *   node turns.js ENGINE.wasm FILE.cgn
 *
 * Prints "turns N discards N bonus N" and exits 0, or the first
 * disagreements on standard error and exits 1. */
"use strict";
const fs = require("fs");
const path = require("path");
const { makeEngine } = require(path.resolve(__dirname, "../../src/output/recorder/engine.js"));
const [wasm, file] = process.argv.slice(2);
const engine = makeEngine(fs.readFileSync(wasm));
const lines = fs.readFileSync(file, "utf8").split("\n");
let header = [], inTurns = false, game = 0, turns = 0, discards = 0, bonuses = 0, wrong = 0, afterDiscard = 0;
function fault(msg) {
	if (wrong++ < 5)
		process.stderr.write(msg + "\n");
}
function checkState(where, number, bonus, tile) {
	const st = engine.state();
	if (st.turn !== number || st.bonus !== bonus)
		fault(where + ": the engine says turn " + st.turn + (st.bonus ? "+" : "") + ", the record " + number +
		      (bonus ? "+" : ""));
	if (tile === null)
		return;
	const now = st.supply.filter((t) => t.now);
	const stack = st.supply.some((t) => t.bonus);
	const odd = now.filter((t) => t.bonus !== (bonus && stack));
	if (odd.length)
		fault(where + ": on a" + (bonus ? " bonus" : "n ordinary") + " turn the picker offers " +
		      odd.map((t) => t.id + (t.bonus ? " (bonus)" : "")).join(" "));
	if (!now.some((t) => t.id === tile))
		fault(where + ": the picker does not offer the tile drawn, " + tile);
}
let lastDiscard = false;
for (const line of lines) {
	if (line.startsWith("[")) {
		if (inTurns) {
			header = [];
			inTurns = false;
		}
		header.push(line);
		continue;
	}
	const m = /^\s*(\d+)([.+])\s+\S+\s+([^=\n]*?)\s*(=.*)?$/.exec(line);
	if (!m || !m[3])
		continue;
	const number = Number(m[1]), bonus = m[2] === "+", move = m[3], tile = move.split(" ")[0];
	if (!inTurns) {
		inTurns = true;
		game++;
		engine.open(header.join("\n") + "\n");
		lastDiscard = false;
	}
	turns++;
	const where = "game " + game + ", line " + line.trim();
	afterDiscard += lastDiscard;
	checkState(where + " (before the draw)", number, bonus, tile);
	engine.enter(tile);
	checkState(where + " (the tile entered)", number, bonus, null);
	try {
		engine.play(move);
	} catch (e) {
		fault(where + ": refused: " + e.message);
	}
	lastDiscard = / discard$/.test(move);
	discards += lastDiscard;
	bonuses += bonus;
}
process.stdout.write("turns " + turns + " discards " + discards + " after a discard " + afterDiscard + " bonus " +
		     bonuses + "\n");
if (wrong)
	process.stderr.write(wrong + " disagreements\n");
process.exit(wrong ? 1 : 0);
