/* orders.js - a solo turn's scoring order through the page's engine,
 * against the command line's referee.
 *
 * For every turn of every game of a CGN file of solo games (carc gen),
 * the engine lists the completed features the move holds (engine.orders:
 * the move without its order) and what every order of them gives. Where
 * there are two or more:
 *   - the orders listed are every permutation of the features, once each,
 *     the first the engine's best, which is the order carc gen wrote;
 *   - each feature's ref names it by a spot of the placed tile or
 *     x,y:SPOT, and lists the cells it covers, the placed tile among them
 *     when the ref is a spot of it;
 *   - engine.preview of the move with each order gives what the list says;
 *   - the game is written again with each order in turn on that turn's line
 *     (and no Result, no claims), as many games as orders, into one file
 *     in DIR: the native `carc check` must pass every game of it, and the
 *     totals after that turn in the native `carc score --format json` must
 *     be those the engine gave for that order.
 * And the order the page writes survives: a turn played with an order that
 * is not the best (the first such turn of the file) is written in the CGN
 * with that order; undoing it and playing it again, and reopening the CGN,
 * give the same CGN and scores.
 *
 *   node orders.js ENGINE.wasm FILE.cgn CARC DIR
 *
 * Prints "games N turns N with-orders N orders N features N max, the order
 * changes the scores on N" and exits 0, or
 * the first disagreements on standard error and exits 1. */
"use strict";
const fs = require("fs");
const path = require("path");
const { makeEngine } = require(path.resolve(__dirname, "../../src/output/recorder/engine.js"));
const { spawnSync } = require("child_process");
const [wasm, file, carc, dir] = process.argv.slice(2);
const engine = makeEngine(fs.readFileSync(wasm));
const text = fs.readFileSync(file, "utf8");

let wrong = 0;
function fault(msg) {
	if (wrong++ < 8)
		process.stderr.write(msg + "\n");
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

/* the games of the file: header lines and turn lines */
const games = [];
for (const line of text.split("\n")) {
	if (line.startsWith("[")) {
		if (!games.length || games[games.length - 1].turns.length)
			games.push({ header: [], turns: [] });
		games[games.length - 1].header.push(line);
		continue;
	}
	const m = /^(\s*\d+[.+]\s+\S+\s+)([^=\n]*?)\s*(=.*)?$/.exec(line);
	if (m && m[2] && games.length)
		games[games.length - 1].turns.push({ lead: m[1], move: m[2].trim().split(/\s+/).join(" ") });
}

const withoutOrder = (mv) => mv.replace(/ order .*$/, "");
let turns = 0, withOrders = 0, orders = 0, most = 0, differ = 0, kept = false;
const variants = [], expected = [];

let skipped = 0;
for (const [gi, game] of games.entries()) {
	/* carc gen writes an order wherever two or more completed features
	 * are held: the games without one are left out (ONLY_ORDERS=0 walks
	 * them too) */
	if (process.env.ONLY_ORDERS !== "0" && !game.turns.some((t) => / order /.test(t.move))) {
		skipped++;
		continue;
	}
	engine.open(game.header.join("\n") + "\n");
	for (const [ti, turn] of game.turns.entries()) {
		const where = "game " + (gi + 1) + ", turn line " + (ti + 1) + " (" + turn.move + ")";
		const tile = turn.move.split(" ")[0];
		turns++;
		engine.enter(tile);
		if (/ discard$/.test(turn.move)) {
			engine.play(turn.move);
			continue;
		}
		const plain = withoutOrder(turn.move);
		const o = engine.orders(plain);
		const n = o.features.length;
		const given = turn.move === plain ? "" : turn.move.slice(plain.length + 7);
		if (n < 2) {
			if (o.orders.length || o.best || given)
				fault(where + ": " + n + " held features, yet orders " + o.orders.length + ", best '" + o.best + "'");
			engine.play(turn.move);
			continue;
		}
		withOrders++;
		most = Math.max(most, n);
		const refs = o.features.map((f) => f.ref);
		if (o.best !== refs.join(" "))
			fault(where + ": the best order '" + o.best + "' is not the features' order " + refs.join(" "));
		if (given !== o.best)
			fault(where + ": carc gen wrote order '" + given + "', the engine's best is '" + o.best + "'");
		const want = n <= 4 ? factorial(n) : 1;
		const listed = o.orders.map((x) => x.order);
		if (o.orders.length !== want || new Set(listed).size !== want || listed[0] !== o.best ||
		    !listed.every((l) => same(l.split(" ").slice().sort(), refs.slice().sort())))
			fault(where + ": " + o.orders.length + " orders listed for " + n + " features: " + listed.join(" | "));
		differ += o.orders.some((x) => !same(x.scores, o.orders[0].scores));
		const tilePlaced = turn.move.split(" ")[1].split(",").map(Number);
		for (const f of o.features) {
			const onTile = f.cells.find((c) => c.x === tilePlaced[0] && c.y === tilePlaced[1]);
			const m = /^(-?\d+),(-?\d+):(\w+)$/.exec(f.ref);
			const ok = m ? f.cells.some((c) => c.x === Number(m[1]) && c.y === Number(m[2]) && c.spots.includes(m[3]))
				: onTile && onTile.spots.includes(f.ref);
			if (!ok || !f.feature || !f.holders.length)
				fault(where + ": feature " + JSON.stringify(f) + " is not lit where its ref names it");
		}
		for (const x of o.orders) {
			orders++;
			const p = engine.preview(plain + " order " + x.order);
			if (!same(p.outcome, x))
				fault(where + ": preview of order " + x.order + " gives " + JSON.stringify(p.outcome.scores) +
				      ", the list " + JSON.stringify(x.scores));
			/* the game again, this turn's order replaced */
			const lines = game.header.filter((h) => !/^\[Result\s/.test(h));
			game.turns.forEach((t, k) => {
				const mv = k === ti ? plain + " order " + x.order : t.move;
				lines.push(t.lead + mv); /* no claims: the totals after this turn change */
			});
			variants.push(lines.join("\n") + "\n");
			expected.push({ where: where + ", order " + x.order, turn: ti, scores: x.scores });
		}
		/* an order that is not the best, played, undone, played, reopened */
		if (!kept && o.orders.length > 1 && !same(o.orders[1].scores, o.orders[0].scores)) {
			kept = true;
			const other = o.orders[1];
			const mv = plain + " order " + other.order;
			engine.play(mv);
			const cgn = engine.cgn(), st = engine.state();
			const scores = {};
			for (const p of st.players)
				scores[p.colour] = p.score;
			if (!cgn.split("\n").some((l) => l.trim().split(/\s+/).join(" ").endsWith(" " + mv)) ||
			    !same(scores, other.scores))
				fault(where + ": played with order " + other.order + ", the CGN lacks it or the scores " +
				      JSON.stringify(scores) + " are not " + JSON.stringify(other.scores));
			engine.undo();
			engine.enter(tile);
			engine.play(mv);
			if (engine.cgn() !== cgn)
				fault(where + ": undone and played again with order " + other.order + ", the CGN differs");
			engine.open(cgn);
			if (engine.cgn() !== cgn || !same(engine.state().players, st.players))
				fault(where + ": the CGN with order " + other.order + " reopened is not the same game");
			/* back to the recorded game */
			engine.undo();
			engine.enter(tile);
		}
		engine.play(turn.move);
	}
}
if (!kept)
	fault("no turn with an order that changes the scores: the games test nothing");
/* the native referee on every game written with another order */
const outCgn = path.join(dir, path.basename(file, ".cgn") + "-orders.cgn");
fs.writeFileSync(outCgn, variants.join("\n"));
const chk = spawnSync(carc, ["check", "-q", outCgn], { encoding: "utf8" });
if (chk.status !== 0)
	fault("carc check " + outCgn + " (exit " + chk.status + "): " + (chk.stdout + chk.stderr).split("\n").slice(0, 3).join(" "));
const sc = spawnSync(carc, ["score", "--format", "json", outCgn], { encoding: "utf8", maxBuffer: 1 << 30 });
const native = sc.stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
if (native.length !== expected.length)
	fault("carc score gave " + native.length + " games for " + expected.length + " orders");
for (let i = 0; i < expected.length && i < native.length; i++) {
	const e = expected[i], t = native[i].turns[e.turn];
	if (!t || !same(t.scores, e.scores))
		fault(e.where + ": the engine's totals after the turn " + JSON.stringify(e.scores) + ", carc score's " +
		      JSON.stringify(t && t.scores));
}
process.stdout.write("games " + (games.length - skipped) + " turns " + turns + " with-orders " + withOrders +
		     " orders " + orders + " features " + most + " max, the order changes the scores on " + differ + "\n");
if (wrong)
	process.stderr.write(wrong + " disagreements\n");
process.exit(wrong ? 1 : 0);
