/* recorder.js - carc recorder's page: setup, the tile picker, the board,
 * the figures, the scores and the record, around the engine (engine.js).
 *
 * The page asks the engine for everything a rule decides: which tiles may
 * be entered now, the legal moves of the tile entered (and so the places
 * to light, the rotations that fit there, the figures that may be placed),
 * whether a move is refused, what scored and why, the scores, followers
 * left and projected final, and the CGN. It keeps only what is the
 * table's: the view of the board, the clocks, the choice being made, and a
 * copy of the record in local storage so that a reload loses nothing.
 *
 * In a solo game, a move whose tile completes two or more features that
 * followers hold goes through one more step before it is played: the order
 * in which they were scored (the engine lists them and what each order
 * gives; its best order is chosen until the player taps), written in the
 * record as "order ...".
 *
 * window.carc: newGame({players, rules, expansions, edition}), enter(tile),
 * moves(), play(move), undo(), scores(), cgn(), and open(cgn), state(),
 * orders(move), preview(move). */
(function () {
"use strict";
const STORE = "carc-recorder";
const FILL = { red: "#d7312e", green: "#2f8f3a", blue: "#2f63c7", yellow: "#f2c230", black: "#222222",
	gray: "#8c8c8c", pink: "#f08ab8" };
const COLOURS = Object.keys(FILL);
/* where a figure stands on a tile of 100 x 100, by spot (board orientation) */
const SPOT_XY = { NNW: [30, 10], NNE: [70, 10], ENE: [90, 30], ESE: [90, 70], SSE: [70, 90], SSW: [30, 90],
	WSW: [10, 70], WNW: [10, 30], N: [50, 18], E: [82, 50], S: [50, 82], W: [18, 50], C: [50, 50], I: [50, 50] };
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");

function status(msg) { $("status").textContent = msg || ""; }

let engine = null;
try {
	const bin = atob(CARC_WASM);
	const bytes = new Uint8Array(bin.length);
	for (let i = 0; i < bin.length; i++)
		bytes[i] = bin.charCodeAt(i);
	engine = makeEngine(bytes);
} catch (e) {
	status("The engine cannot start in this browser: " + e.message);
}

let opts = { tournament: false, clock: false };
let clock = {};        /* colour -> seconds on the clock */
let pics = {};         /* tile id -> SVG markup of the tile upright */
let picsKey = "";
let st = null;         /* the engine's state */
let legal = null;      /* the legal moves of the tile entered */
let pick = null;       /* {x, y, rotation, move, order}: the choice being made */
let viewBox = null;    /* [x, y, w, h] of the board in world units */

/* ---- the clock, as a tag of the record ---- */
function hms(s) {
	const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
	return h + ":" + String(m).padStart(2, "0") + ":" + String(sec).padStart(2, "0");
}
function clockTag() {
	if (!opts.clock || !st)
		return "";
	return "[Clock \"" + st.players.map((p) => p.colour + " " + hms(clock[p.colour] || 0)).join(", ") + "\"]\n";
}
function readClock(cgn) {
	const m = /^\[Clock\s+"([^"]*)"\]/mi.exec(cgn);
	clock = {};
	if (!m)
		return false;
	for (const part of m[1].split(",")) {
		const w = part.trim().split(/\s+/);
		const t = (w[1] || "").split(":").map(Number);
		if (w[0] && t.length === 3 && t.every((n) => n >= 0))
			clock[w[0].toLowerCase()] = t[0] * 3600 + t[1] * 60 + t[2];
	}
	return true;
}

/* ---- storage: the record and the tile entered ---- */
function save() {
	if (!st)
		return;
	try {
		localStorage.setItem(STORE, JSON.stringify({ cgn: engine.cgn(clockTag()), drawn: st.drawn, opts: opts }));
	} catch (e) { /* private mode: nothing kept */ }
}

/* ---- the game, through the engine ---- */
function refresh() {
	st = engine.state();
	const key = st.rules + "|" + st.expansions;
	if (key !== picsKey) {
		pics = engine.tiles();
		picsKey = key;
	}
	legal = st.drawn ? engine.moves() : null;
	if (pick && !(legal && legal.some((m) => m.x === pick.x && m.y === pick.y)))
		pick = null;
	render();
	save();
}

function newGame(setup) {
	engine.newGame(setup);
	clock = {};
	pick = null;
	viewBox = null;
	refresh();
	show("game");
	return st;
}
function openRecord(text) {
	engine.open(text);
	opts.clock = readClock(text) || opts.clock;
	pick = null;
	viewBox = null;
	refresh();
	show("game");
	return st;
}
function enter(tile) {
	engine.enter(tile);
	pick = null;
	refresh();
	return legal;
}
function play(move) {
	let text = move;
	if (typeof move !== "string") {
		const m = Object.assign({}, move);
		if (!m.tile && st && st.drawn)
			m.tile = st.drawn;
		text = m.text && m.tile === move.tile ? m.text + (m.order && !/ order /.test(m.text) ? " order " + m.order : "")
			: formatMove(m);
	} else if (st && st.drawn && !text.trim().startsWith(st.drawn + " ")) {
		text = st.drawn + " " + text.trim();
	}
	engine.play(text);
	pick = null;
	refresh();
	return st.last;
}
function undo() {
	engine.undo();
	pick = null;
	refresh();
	return st;
}

/* ---- rendering ---- */
function show(which) {
	$("setup").hidden = which !== "setup";
	$("game").hidden = which !== "game";
	if (which === "setup" && !$("players").children.length) {
		addPlayer("red", "");
		addPlayer("green", "");
	}
}

function render() {
	renderScores();
	renderBoard();
	renderTurn();
	renderScored();
	$("cgn").value = engine.cgn(clockTag());
}

function renderScores() {
	const box = $("scores");
	box.innerHTML = st.players.map((p, i) =>
		"<div class=\"score" + (i === st.toMove ? " to-move" : "") + "\" data-colour=\"" + esc(p.colour) + "\">" +
		"<span class=\"swatch\" style=\"background:" + (FILL[p.colour] || "#999") + "\"></span>" +
		"<span class=\"name\">" + esc(p.name || p.colour) + "</span><br>" +
		"<span class=\"pts\" data-score>" + p.score + "</span> " +
		"<span class=\"small\">" + p.followers + " followers left</span>" +
		(opts.tournament ? "" : "<br><span class=\"small\" data-projected>projected " + p.projected + "</span>") +
		(opts.clock ? "<br><span class=\"small\" data-clock>" + hms(clock[p.colour] || 0) + "</span>" : "") +
		"</div>").join("");
}

function tileMarkup(id, x, y, rotation, extra) {
	return "<g transform=\"translate(" + x * 100 + "," + -y * 100 + ") rotate(" + rotation + " 50 50)\"" +
		(extra || "") + ">" + (pics[id] || "<rect width=\"100\" height=\"100\" fill=\"#ccc\"/>") + "</g>";
}

/* the builder: a standing figure taller and narrower than a follower's
 * disc; the pig: a pig facing east (as carc render draws them) */
const BUILDER_PATH = "M0,-17C3,-17 4.2,-14.8 3.4,-12C6,-11.2 7.4,-9.6 7.4,-7L7,3C7,4.5 5,4.5 5,3L5,-2L6,16H1.4" +
	"L0,8L-1.4,16H-6L-5,-2L-5,3C-5,4.5 -7,4.5 -7,3L-7.4,-7C-7.4,-9.6 -6,-11.2 -3.4,-12C-4.2,-14.8 -3,-17 0,-17Z";

/* A figure by its role: "builder" and "pig" as themselves, "big ROLE" (the
 * large follower) a disc a third larger with ROLE's letter, any other a
 * disc with its role's letter; data-figure names which. */
function figureMarkup(colour, role, x, y, spot, extra) {
	const p = SPOT_XY[spot] || [50, 50];
	const fill = FILL[colour] || "#999";
	const big = /^big /.test(role || "");
	const figure = role === "builder" ? "builder" : role === "pig" ? "pig" : big ? "large" : "follower";
	let body;
	if (figure === "builder") {
		body = "<path d=\"" + BUILDER_PATH + "\" transform=\"scale(1.3)\" fill=\"" + fill +
			"\" stroke=\"#fff\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>";
	} else if (figure === "pig") {
		const part = " fill=\"" + fill + "\" stroke=\"#fff\" stroke-width=\"2\"";
		body = "<g transform=\"scale(1.25)\"><path d=\"M-10,3V10M-5,4V10M5,4V10M10,3V10\" stroke=\"#fff\" " +
			"stroke-width=\"5\" stroke-linecap=\"round\"/><path d=\"M-10,3V10M-5,4V10M5,4V10M10,3V10\" stroke=\"" +
			fill + "\" stroke-width=\"2.6\" stroke-linecap=\"round\"/><ellipse cx=\"-1\" cy=\"0\" rx=\"13\" ry=\"8\"" +
			part + "/><circle cx=\"11\" cy=\"-3\" r=\"6.5\"" + part + "/><path d=\"M8,-8L9.5,-14L14,-9Z\"" + part +
			"/><ellipse cx=\"17.5\" cy=\"-1.5\" rx=\"2.6\" ry=\"3.2\"" + part +
			"/><circle cx=\"12.5\" cy=\"-4.5\" r=\"1.2\" fill=\"#fff\"/></g>";
	} else {
		const word = big ? role.slice(4) : role || "?";
		body = "<circle r=\"" + (big ? 17.5 : 13) + "\" fill=\"" + fill + "\" stroke=\"#fff\" stroke-width=\"3\"/>" +
			"<text class=\"figure-label\" text-anchor=\"middle\" dy=\"7\">" + esc(word[0].toUpperCase()) + "</text>";
	}
	return "<g" + (extra || "") + " data-figure=\"" + figure + "\" transform=\"translate(" + (x * 100 + p[0]) + "," +
		(-y * 100 + p[1]) + ")\">" + body + "<title>" + esc(colour + " " + role + " " + spot) + "</title></g>";
}

function places() {
	const seen = new Map();
	for (const m of legal || [])
		if (!m.discard && !seen.has(m.x + "," + m.y))
			seen.set(m.x + "," + m.y, { x: m.x, y: m.y });
	return [...seen.values()];
}

function fitView() {
	let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
	for (const t of st.board.concat(places())) {
		x0 = Math.min(x0, t.x); x1 = Math.max(x1, t.x);
		y0 = Math.min(y0, -t.y); y1 = Math.max(y1, -t.y);
	}
	const svg = $("board");
	const ratio = (svg.clientWidth || 360) / (svg.clientHeight || 300);
	let w = (x1 - x0 + 1) * 100 + 40, h = (y1 - y0 + 1) * 100 + 40;
	if (w / h < ratio) w = h * ratio; else h = w / ratio;
	const cx = (x0 + x1 + 1) * 50, cy = (y0 + y1 + 1) * 50;
	viewBox = [cx - w / 2, cy - h / 2, w, h];
}

function applyView() {
	$("board").setAttribute("viewBox", viewBox.map((v) => v.toFixed(1)).join(" "));
}

/* whether every tile and lit place is in view (else the view is fitted) */
function allInView() {
	return st.board.concat(places()).every((t) => t.x * 100 >= viewBox[0] && (t.x + 1) * 100 <= viewBox[0] + viewBox[2] &&
		-t.y * 100 >= viewBox[1] && (1 - t.y) * 100 <= viewBox[1] + viewBox[3]);
}

function renderBoard() {
	if (!viewBox || (!pick && !allInView()))
		fitView();
	let s = "";
	for (const t of st.board)
		s += tileMarkup(t.id, t.x, t.y, t.rotation);
	for (const f of st.figures)
		s += figureMarkup(f.colour, f.role, f.x, f.y, f.spot);
	if (legal) {
		for (const p of places())
			if (!pick || pick.x !== p.x || pick.y !== p.y)
				s += "<rect class=\"place\" data-x=\"" + p.x + "\" data-y=\"" + p.y + "\" x=\"" + (p.x * 100 + 3) +
					"\" y=\"" + (-p.y * 100 + 3) + "\" width=\"94\" height=\"94\" rx=\"8\"><title>" + p.x + "," + p.y +
					"</title></rect>";
		if (pick) {
			s += tileMarkup(st.drawn, pick.x, pick.y, pick.rotation, " opacity=\"0.9\"");
			s += "<rect class=\"place chosen\" data-x=\"" + pick.x + "\" data-y=\"" + pick.y + "\" x=\"" +
				(pick.x * 100 + 3) + "\" y=\"" + (-pick.y * 100 + 3) + "\" width=\"94\" height=\"94\" rx=\"8\"/>";
			const colour = st.players[st.toMove] ? st.players[st.toMove].colour : "gray";
			for (const m of choices())
				if (m.role && (!pick.order || pick.move === m))
					s += figureMarkup(colour, m.role, pick.x, pick.y, m.spot,
						" class=\"spot\" data-move=\"" + esc(m.text) + "\" opacity=\"" +
						(pick.move === m ? 1 : 0.45) + "\"");
		}
	}
	if (pick && pick.order)
		s += orderMarkup(pick.order);
	$("board").innerHTML = s;
	applyView();
}

/* ---- a solo turn's order of scoring ---- */

/* Where a feature's ref ("E", or "0,1:C" for a cloister around the tile)
 * is on the board. */
function refAt(ref) {
	const m = /^(-?\d+),(-?\d+):(\w+)$/.exec(ref);
	return m ? { x: Number(m[1]), y: Number(m[2]), spot: m[3] } : { x: pick.x, y: pick.y, spot: ref };
}
/* The features lit and numbered on the board: the one last tapped over
 * the cells and spots it covers, each a badge with its place in the order. */
function orderMarkup(ord) {
	let s = "";
	const lit = ord.features.find((f) => f.ref === ord.lit);
	if (lit)
		for (const c of lit.cells) {
			s += "<rect class=\"lit-cell\" x=\"" + (c.x * 100 + 2) + "\" y=\"" + (-c.y * 100 + 2) +
				"\" width=\"96\" height=\"96\" rx=\"6\"/>";
			for (const sp of c.spots) {
				const p = SPOT_XY[sp] || [50, 50];
				s += "<circle class=\"lit-spot\" r=\"6\" cx=\"" + (c.x * 100 + p[0]) + "\" cy=\"" + (-c.y * 100 + p[1]) + "\"/>";
			}
		}
	orderNow(ord).forEach((ref, i) => {
		const a = refAt(ref), p = SPOT_XY[a.spot] || [50, 50];
		const on = ord.seq && ord.seq.includes(ref);
		s += "<g class=\"order-badge\" data-ref=\"" + esc(ref) + "\" transform=\"translate(" + (a.x * 100 + p[0]) + "," +
			(-a.y * 100 + p[1]) + ")\"><circle r=\"15\" fill=\"" + (on || !ord.seq ? "#1d1d1d" : "#8a7a5a") +
			"\" stroke=\"#f2c94c\" stroke-width=\"3\"/><text text-anchor=\"middle\" dy=\"6\">" + (i + 1) +
			"</text><title>" + esc(ref) + "</title></g>";
	});
	return s;
}
/* The order the move will be played with: the features tapped, then the
 * others as the engine would score them (all of it the engine's answer). */
function orderNow(ord) {
	return ord.outcome.order.split(" ");
}
/* The order step for the chosen move, or null when there is nothing to
 * choose: not a solo game, or fewer than two held features completed. */
function orderStep(move) {
	if (!move || move.discard || !st || st.rules !== "solo")
		return null;
	const o = engine.orders(move.text);
	if (o.features.length < 2 || !o.orders.length)
		return null;
	return { features: o.features, best: o.best, orders: o.orders, seq: null, lit: null, outcome: o.orders[0] };
}
/* A tap on a feature: the next in the order, or taken out of it. */
function tapFeature(ref) {
	const ord = pick && pick.order;
	if (!ord || !ord.features.some((f) => f.ref === ref))
		return;
	let seq = ord.seq ? ord.seq.slice() : [];
	seq = seq.includes(ref) ? seq.filter((r) => r !== ref) : seq.concat([ref]);
	ord.seq = seq.length ? seq : null;
	ord.lit = ref;
	ord.outcome = ord.seq ? engine.preview(pick.move.text + " order " + seq.join(" ")).outcome : ord.orders[0];
	renderBoard();
	renderTurn();
}
function bestOrder() {
	if (!pick || !pick.order)
		return;
	pick.order.seq = null;
	pick.order.outcome = pick.order.orders[0];
	renderBoard();
	renderTurn();
}
function who(colour) {
	const p = st.players.find((q) => q.colour === colour);
	return p && p.name ? p.name : colour;
}
function scoresLine(scores) {
	return Object.keys(scores).map((c) => who(c) + " " + scores[c]).join(", ");
}
function renderOrder() {
	const ord = pick && pick.order;
	$("order").hidden = !ord;
	if (!ord)
		return;
	const now = orderNow(ord);
	$("order-list").innerHTML = now.map((ref, i) => {
		const f = ord.features.find((g) => g.ref === ref) || { feature: ref, holders: [] };
		const on = ord.seq && ord.seq.includes(ref);
		return "<button type=\"button\" data-ref=\"" + esc(ref) + "\" class=\"" + (on ? "on" : "") +
			(ord.lit === ref ? " lit" : "") + "\"><span class=\"n\">" + (i + 1) + "</span><span>" + esc(f.feature) +
			" (" + esc(ref) + "): " + esc(f.holders.map(who).join(" and ")) + "</span></button>";
	}).join("");
	const best = ord.orders[0];
	let line = "Scored in this order: " + esc(scoresLine(ord.outcome.scores)) + " (" + ord.outcome.paid + " points paid).";
	if (ord.outcome.order !== best.order)
		line += " The best order (" + esc(best.order) + ") gives " + esc(scoresLine(best.scores)) + " (" + best.paid + ").";
	else
		line += " This is the order that earns the most.";
	$("order-outcome").innerHTML = line;
}
function confirmMove() {
	if (!pick || !pick.move)
		return;
	if (pick.order)
		return play(pick.move.text + " order " + pick.order.outcome.order);
	const ord = orderStep(pick.move);
	if (!ord)
		return play(pick.move.text);
	pick.order = ord;
	renderBoard();
	renderTurn();
}

/* the legal moves at the chosen place and rotation */
function choices() {
	if (!pick || !legal)
		return [];
	return legal.filter((m) => !m.discard && m.x === pick.x && m.y === pick.y && m.rotation === pick.rotation);
}
function rotationsAt(x, y) {
	const r = [];
	for (const m of legal || [])
		if (!m.discard && m.x === x && m.y === y && !r.includes(m.rotation))
			r.push(m.rotation);
	return r;
}
function choosePlace(x, y) {
	const rots = rotationsAt(x, y);
	if (!rots.length)
		return;
	if (pick && pick.x === x && pick.y === y) {
		pick.rotation = rots[(rots.indexOf(pick.rotation) + 1) % rots.length];
	} else {
		pick = { x: x, y: y, rotation: rots[0] };
	}
	const c = choices();
	pick.move = c.find((m) => !m.role && !m.recall) || null;
	pick.order = null;
	renderBoard();
	renderTurn();
}
function chooseMove(text) {
	if (!pick)
		return;
	pick.move = choices().find((m) => m.text === text) || null;
	pick.order = null;
	renderBoard();
	renderTurn();
}

function renderTurn() {
	const over = st.over;
	const who = st.players[st.toMove];
	/* the turn's number is the engine's: a discard keeps it, a bonus turn
	 * is the number of the turn that earned it with a "+" */
	const name = (who ? (who.name || who.colour) : "") + (over ? "" : " (turn " + st.turn + (st.bonus ? "+, a bonus turn" : "") + ")");
	let prompt;
	if (over)
		prompt = "The game is over." + (st.final ? " Final scores above." : "");
	else if (!st.drawn)
		prompt = name + ": which tile was drawn? (" + st.supplyLeft + " left)";
	else if (legal && legal.length === 1 && legal[0].discard)
		prompt = name + ": tile " + st.drawn + " fits nowhere; it is discarded and another drawn.";
	else if (!pick)
		prompt = name + ": tap a lit place for tile " + st.drawn + ".";
	else if (pick.order)
		prompt = name + ": tile " + st.drawn + " completes " + pick.order.features.length +
			" features that followers hold. In which order were they scored? Then Play.";
	else
		prompt = name + ": tile " + st.drawn + " at " + pick.x + "," + pick.y + " turned " + pick.rotation +
			"°. Tap it again to turn it; choose a figure, then Play.";
	$("prompt").textContent = prompt;
	const rots = pick ? rotationsAt(pick.x, pick.y) : [];
	$("rotate").hidden = !pick || rots.length < 2 || !!pick.order;
	$("discard").hidden = !(legal && legal.length === 1 && legal[0].discard);
	$("confirm").hidden = !pick;
	$("confirm").disabled = !(pick && pick.move);
	$("undo").disabled = !(st.moves > 0 || st.drawn);
	renderOrder();
	const d = $("deploys");
	d.innerHTML = "";
	d.hidden = !!(pick && pick.order);
	for (const m of choices()) {
		const b = document.createElement("button");
		b.type = "button";
		b.textContent = m.role ? m.role + " " + m.spot : m.recall ? "return " + m.recall : "no figure";
		b.dataset.move = m.text;
		if (pick.move === m)
			b.classList.add("on");
		d.appendChild(b);
	}
	const pk = $("picker");
	pk.hidden = !!st.drawn || over;
	if (!pk.hidden) {
		pk.innerHTML = st.supply.map((t) =>
			"<button type=\"button\" data-tile=\"" + esc(t.id) + "\"" + (t.left > 0 && t.now ? "" : " disabled") +
			" aria-label=\"tile " + esc(t.id) + ", " + t.left + " left\">" +
			"<svg viewBox=\"0 0 100 100\" aria-hidden=\"true\">" + (pics[t.id] || "") + "</svg>" +
			"<span class=\"count\">" + esc(t.id) + " ×" + t.left + (t.bonus ? " bonus" : "") + "</span></button>").join("");
	}
}

function eventLine(ev) {
	const pts = Object.keys(ev.points).map((c) => {
		const p = st.players.find((q) => q.colour === c);
		return (p && p.name ? p.name : c) + " +" + ev.points[c];
	}).join(", ");
	return "<li>" + esc(ev.feature) + ": " + esc(ev.what) + ", " + ev.tiles + " tile" + (ev.tiles === 1 ? "" : "s") +
		(ev.items ? ", " + ev.items + " bonus item" + (ev.items === 1 ? "" : "s") : "") + ": " +
		esc(pts || "no one scores") + (ev.why ? " (" + esc(ev.why) + ")" : "") + "</li>";
}

function renderScored() {
	let s = "";
	if (st.last) {
		const who = st.players.find((p) => p.colour === st.last.colour);
		s += "<p>Turn " + st.last.turn + (st.last.bonus ? "+" : "") + ", " + esc(who && who.name ? who.name : st.last.colour) + ": " +
			esc(st.last.move) + (st.last.events.length ? "" : ": nothing scored") + "</p>";
		if (st.last.events.length)
			s += "<ul>" + st.last.events.map(eventLine).join("") + "</ul>";
	}
	if (st.finalEvents.length)
		s += "<p>Final scoring:</p><ul>" + st.finalEvents.map(eventLine).join("") + "</ul>";
	$("scored").innerHTML = s;
}

/* ---- the board: tap, pan, pinch, wheel ---- */
function worldAt(clientX, clientY) {
	const r = $("board").getBoundingClientRect();
	return [viewBox[0] + (clientX - r.left) / r.width * viewBox[2],
		viewBox[1] + (clientY - r.top) / r.height * viewBox[3]];
}
function zoomAt(factor, clientX, clientY) {
	const w = Math.min(Math.max(viewBox[2] / factor, 150), 20000);
	const f = viewBox[2] / w;
	const p = worldAt(clientX, clientY);
	viewBox = [p[0] - (p[0] - viewBox[0]) / f, p[1] - (p[1] - viewBox[1]) / f, w, viewBox[3] / f];
	applyView();
}
const pointers = new Map();
let gesture = null;
function boardEvents() {
	const svg = $("board");
	svg.addEventListener("pointerdown", (e) => {
		pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
		gesture = pointers.size === 1 ? "tap" : "pinch";
	});
	svg.addEventListener("pointermove", (e) => {
		const p = pointers.get(e.pointerId);
		if (!p)
			return;
		if (pointers.size === 1) {
			if (Math.hypot(e.clientX - p.x0, e.clientY - p.y0) > 8)
				gesture = "pan";
			if (gesture === "pan") {
				const r = svg.getBoundingClientRect();
				viewBox[0] -= (e.clientX - p.x) / r.width * viewBox[2];
				viewBox[1] -= (e.clientY - p.y) / r.height * viewBox[3];
				applyView();
			}
		} else if (pointers.size === 2) {
			const [a, b] = [...pointers.values()];
			const before = Math.hypot(a.x - b.x, a.y - b.y);
			p.x = e.clientX;
			p.y = e.clientY;
			const after = Math.hypot(a.x - b.x, a.y - b.y);
			if (before > 0 && after > 0)
				zoomAt(after / before, (a.x + b.x) / 2, (a.y + b.y) / 2);
			return;
		}
		p.x = e.clientX;
		p.y = e.clientY;
	});
	const end = (e) => {
		if (!pointers.has(e.pointerId))
			return;
		pointers.delete(e.pointerId);
		if (gesture === "tap" && e.type === "pointerup")
			tapAt(e);
		if (!pointers.size)
			gesture = null;
	};
	svg.addEventListener("pointerup", end);
	svg.addEventListener("pointercancel", end);
	svg.addEventListener("wheel", (e) => {
		e.preventDefault();
		zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
	}, { passive: false });
}
function tapAt(e) {
	if (!legal || !st.drawn)
		return;
	const badge = e.target.closest && e.target.closest("[data-ref]");
	if (badge && pick && pick.order) {
		guard(tapFeature)(badge.getAttribute("data-ref"));
		return;
	}
	const spot = e.target.closest && e.target.closest("[data-move]");
	if (spot) {
		chooseMove(spot.getAttribute("data-move"));
		return;
	}
	const w = worldAt(e.clientX, e.clientY);
	const x = Math.floor(w[0] / 100), y = -Math.floor(w[1] / 100);
	if (rotationsAt(x, y).length)
		choosePlace(x, y);
}

/* ---- setup ---- */
function addPlayer(colour, name) {
	const rows = $("players");
	if (rows.children.length >= COLOURS.length)
		return;
	const used = [...rows.querySelectorAll("select")].map((s) => s.value);
	colour = colour || COLOURS.find((c) => !used.includes(c));
	const row = document.createElement("div");
	row.className = "player-row";
	row.innerHTML = "<select aria-label=\"Colour\">" + COLOURS.map((c) => "<option value=\"" + c + "\"" +
		(c === colour ? " selected" : "") + ">" + c + "</option>").join("") + "</select>" +
		"<input type=\"text\" aria-label=\"Name\" placeholder=\"name\" value=\"" + esc(name || "") + "\">" +
		"<button type=\"button\" aria-label=\"Remove this player\">×</button>";
	row.querySelector("button").addEventListener("click", () => row.remove());
	rows.appendChild(row);
}
function setupFromForm() {
	return {
		players: [...$("players").children].map((r) => ({ colour: r.querySelector("select").value,
			name: r.querySelector("input").value.trim() })),
		rules: $("rules").value,
		expansions: [...$("expansions").querySelectorAll("input:checked")].map((i) => i.value),
		edition: Number($("edition").value),
	};
}

function guard(fn) {
	return function () {
		try {
			status("");
			return fn.apply(this, arguments);
		} catch (e) {
			status(e.message);
		}
	};
}

function wire() {
	$("add-player").addEventListener("click", () => addPlayer());
	$("start").addEventListener("click", guard(() => {
		opts.tournament = $("tournament").checked;
		opts.clock = $("clock-on").checked;
		newGame(setupFromForm());
	}));
	$("open-pasted").addEventListener("click", guard(() => openRecord($("open-text").value)));
	$("open-file").addEventListener("change", () => {
		const f = $("open-file").files[0];
		if (f)
			f.text().then(guard((t) => openRecord(t)));
	});
	$("picker").addEventListener("click", guard((e) => {
		const b = e.target.closest("button[data-tile]");
		if (b && !b.disabled) {
			enter(b.dataset.tile);
			/* the board, where the tile goes, in view */
			$("board-wrap").scrollIntoView({ block: "start" });
		}
	}));
	$("deploys").addEventListener("click", (e) => {
		const b = e.target.closest("button[data-move]");
		if (b)
			chooseMove(b.dataset.move);
	});
	$("rotate").addEventListener("click", () => pick && choosePlace(pick.x, pick.y));
	$("confirm").addEventListener("click", guard(() => confirmMove()));
	$("order-list").addEventListener("click", guard((e) => {
		const b = e.target.closest("button[data-ref]");
		if (b)
			tapFeature(b.dataset.ref);
	}));
	$("order-best").addEventListener("click", guard(() => bestOrder()));
	$("order-back").addEventListener("click", () => {
		if (pick) {
			pick.order = null;
			renderBoard();
			renderTurn();
		}
	});
	$("discard").addEventListener("click", guard(() => play(legal[0].text)));
	$("undo").addEventListener("click", guard(() => undo()));
	$("zoom-in").addEventListener("click", () => { const r = $("board").getBoundingClientRect(); zoomAt(1.3, r.left + r.width / 2, r.top + r.height / 2); });
	$("zoom-out").addEventListener("click", () => { const r = $("board").getBoundingClientRect(); zoomAt(1 / 1.3, r.left + r.width / 2, r.top + r.height / 2); });
	$("zoom-fit").addEventListener("click", () => { fitView(); applyView(); });
	$("copy").addEventListener("click", () => {
		const t = $("cgn");
		t.select();
		if (navigator.clipboard)
			navigator.clipboard.writeText(t.value).then(() => status("Copied."), () => document.execCommand("copy"));
		else
			document.execCommand("copy");
	});
	$("download").addEventListener("click", () => {
		const a = document.createElement("a");
		a.href = URL.createObjectURL(new Blob([engine.cgn(clockTag())], { type: "text/plain" }));
		a.download = "game.cgn";
		document.body.appendChild(a);
		a.click();
		a.remove();
	});
	$("share").addEventListener("click", () => {
		const link = location.href.split("#")[0] + "#cgn=" + encodeURIComponent(engine.cgn(clockTag()));
		$("share-a").href = link;
		$("share-link").hidden = false;
		if (navigator.clipboard)
			navigator.clipboard.writeText(link).then(() => status("The link is copied: it holds the whole record."), () => {});
	});
	$("new-game").addEventListener("click", () => {
		if (!st || st.moves === 0 || confirm("Start a new game? This one stays in its CGN only if you saved it."))
			show("setup");
	});
	boardEvents();
	setInterval(() => {
		if (!opts.clock || !st || st.over || st.toMove < 0 || $("game").hidden || document.hidden)
			return;
		const c = st.players[st.toMove].colour;
		clock[c] = (clock[c] || 0) + 1;
		const el = document.querySelector(".score[data-colour=\"" + c + "\"] [data-clock]");
		if (el)
			el.textContent = hms(clock[c]);
		if (clock[c] % 5 === 0)
			save();
	}, 1000);
}

/* a link that holds a record (#cgn=...): the game it holds */
function openLink() {
	if (!location.hash.startsWith("#cgn="))
		return false;
	try {
		openRecord(decodeURIComponent(location.hash.slice(5)));
		return true;
	} catch (e) {
		status("The record in the link cannot be continued: " + e.message);
		return false;
	}
}

function start() {
	if (!engine)
		return;
	wire();
	window.addEventListener("hashchange", openLink);
	let opened = openLink();
	if (!opened) {
		try {
			const saved = JSON.parse(localStorage.getItem(STORE) || "null");
			if (saved && saved.cgn) {
				opts = Object.assign(opts, saved.opts || {});
				openRecord(saved.cgn);
				if (saved.drawn)
					enter(saved.drawn);
				opened = true;
			}
		} catch (e) {
			status("The game kept in this browser cannot be continued: " + e.message);
		}
	}
	if (!opened)
		show("setup");
}

window.carc = {
	newGame: (setup) => newGame(setup),
	open: (cgn) => openRecord(cgn),
	enter: (tile) => enter(tile),
	moves: () => engine.moves(),
	play: (move) => play(move),
	undo: () => undo(),
	scores: () => engine.state().players.map((p) => ({ colour: p.colour, name: p.name, score: p.score,
		followers: p.followers, projected: p.projected })),
	state: () => engine.state(),
	orders: (move) => engine.orders(move || (pick && pick.move && pick.move.text) || ""),
	preview: (move) => engine.preview(move),
	cgn: () => engine.cgn(clockTag()),
	options: (o) => { Object.assign(opts, o || {}); if (st) render(); return Object.assign({}, opts); },
};

if (document.readyState === "loading")
	document.addEventListener("DOMContentLoaded", start);
else
	start();
})();
