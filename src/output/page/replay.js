/* replay.js - the replay page of carc render --format html.
 *
 * The data (element #carc-data) is made by carc: per game, the report of
 * carc score --format json --projected, and per step (0: the start tile,
 * k: after the k-th turn line) the supply, the followers left and the
 * followers taken off. The boards are SVG drawn by carc with every tile,
 * follower and mark tagged with its steps; this script only shows and hides
 * them, fills the panels and draws the score chart. It loads nothing. */
"use strict";
(function () {
	const DATA = JSON.parse(document.getElementById("carc-data").textContent);
	const COLOURS = { red: "#d7263d", green: "#2e9e44", blue: "#1f5fd1", yellow: "#f2c500",
		black: "#262626", gray: "#8c8c8c", pink: "#ee6fb5" };
	const $ = (id) => document.getElementById(id);
	const SVGNS = "http://www.w3.org/2000/svg";
	let game = 0;   /* index into DATA.games */
	let step = 0;   /* 0 .. turns.length */
	let revealed = false; /* the final scoring shown before the end ("show final") */
	let finalShown = null; /* whether the panels now show the final scoring */

	function el(tag, attrs, ...children) {
		const e = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (k === "class") e.className = v;
			else e.setAttribute(k, v);
		}
		for (const c of children) e.append(c);
		return e;
	}
	function svg(tag, attrs) {
		const e = document.createElementNS(SVGNS, tag);
		for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
		return e;
	}
	function swatch(colour) {
		const s = el("span", { class: "swatch", "aria-hidden": "true" });
		s.style.background = COLOURS[colour] || "#777";
		return s;
	}

	const G = () => DATA.games[game];
	const report = () => G().report;
	const turns = () => report().turns;
	const seats = () => report().players.map((p) => p.colour);

	function playerLabel(p) {
		return p.name ? p.colour + " (" + p.name + ")" : p.colour;
	}
	function turnLabel(t) {
		return String(t.turn) + (t.bonus ? "+" : "");
	}
	function moveWords(t) {
		let s = t.colour + " " + t.tile;
		if (t.discard) return s + " discarded";
		s += " at " + t.x + "," + t.y + " turned " + t.rotation;
		if (t.deploy) s += ", " + t.deploy.role + " " + t.deploy.spot;
		else if (t.return) s += ", " + t.return + " taken back";
		return s;
	}
	/* An event as carc score words it: "the city at N of D (0,0) (3 tiles,
	 * 1 pennant): green +8". */
	function eventWords(ev) {
		let s = ((G().prefix || {})[ev.type] || "") + ev.feature;
		if (ev.type === "farm") s += " as a farm (" + ev.cities + (ev.cities === 1 ? " city" : " cities");
		else s += " (" + ev.tiles + " tile" + (ev.tiles === 1 ? "" : "s");
		for (const k of ["pennants", "fish", "mushrooms", "animals"])
			if (ev[k]) s += ", " + ev[k] + " " + (ev[k] === 1 && k !== "fish" ? k.slice(0, -1) : k);
		s += "): ";
		if (!ev.scored.length) return s + "nobody";
		s += ev.scored.map((c) => c + " +" + ev.points).join(", ");
		if (ev.not_scored) s += "; not paid: " + ev.not_scored.join(", ");
		return s;
	}

	/* The totals on the track at a step; step 0 is where the track starts. */
	function scoresAt(k) {
		if (k > 0) return turns()[k - 1].scores;
		const r = report(), out = {};
		for (const c of seats()) {
			const b = r.breakdown && r.breakdown[c];
			out[c] = b && typeof b.start === "number" ? b.start : 0;
		}
		return out;
	}
	function projectedAt(k) {
		return k > 0 ? turns()[k - 1].projected : G().projected_start;
	}
	/* The fragment's turn: "turn=N" is the last step numbered N; a step
	 * that is not the last of its number is "step=K". */
	function stepOfTurn(n) {
		let found = 0;
		turns().forEach((t, i) => { if (t.turn <= n) found = i + 1; });
		return found;
	}
	function fragmentOf(k) {
		let f = DATA.games.length > 1 ? "game=" + (game + 1) + "&" : "";
		if (k === 0) return f + "turn=0";
		const n = turns()[k - 1].turn;
		return f + (stepOfTurn(n) === k ? "turn=" + n : "step=" + k);
	}
	function readFragment() {
		const h = location.hash.replace(/^#/, "");
		const args = {};
		for (const part of h.split("&")) {
			const [k, v] = part.split("=");
			if (k && v !== undefined && /^\d+$/.test(v)) args[k] = parseInt(v, 10);
		}
		return args;
	}

	/* The steps with an error, in order. */
	function errorSteps() {
		const out = [];
		for (const n of G().notes) if (n.severity === "error" && n.step && !out.includes(n.step)) out.push(n.step);
		turns().forEach((t, i) => { if (!t.legal && !out.includes(i + 1)) out.push(i + 1); });
		return out.sort((a, b) => a - b);
	}
	/* Where a game opens: its first error, else its end. */
	function openingStep() {
		const e = errorSteps();
		return e.length ? e[0] : turns().length;
	}
	/* Events worth something: a "+0" line says nothing. */
	const worth = (ev) => ev.points !== 0 || !ev.scored.length;

	/* ---- the panels of a game, made once per game ---- */

	function buildGame() {
		const r = report();
		const tags = r.tags || {};
		const bits = [];
		if (tags.Date) bits.push(tags.Date);
		bits.push(G().rules || r.rules + " rules");
		bits.push(r.players.map(playerLabel).join(", "));
		const head = [(tags.Event ? "" : r.file + ", game " + r.game + " · ") + bits.join(" · ") + " · "];
		const errs = errorSteps();
		if (r.valid) {
			head.push("valid");
		} else {
			const words = r.errors + " error" + (r.errors === 1 ? "" : "s");
			head.push(errs.length ? el("a", { id: "errors-link", href: "#" + fragmentOf(errs[0]),
				title: "Go to the first error" }, words) : words);
		}
		$("subtitle").replaceChildren(...head);
		/* the title follows the game chosen */
		const multi = DATA.games.length > 1;
		const title = tags.Event ? tags.Event + (multi ? " (game " + r.game + ")" : "") :
			r.file + (multi ? ", game " + r.game : "");
		$("title").textContent = title;
		document.title = title + " - carc replay";
		$("next-error").hidden = errs.length === 0;
		document.querySelectorAll(".board").forEach((b, i) => { b.hidden = i !== game; });
		const slider = $("slider");
		slider.max = String(turns().length);
		revealed = false;
		finalShown = null;
		buildTable();
		const notes = G().notes.filter((n) => n.step === null);
		$("notes").replaceChildren(...notes.map((n) => el("li", { class: n.severity === "error" ? "diag" : "" }, n.message)));
		$("notes-panel").hidden = notes.length === 0;
		/* each tile's tooltip: the tile, where, how turned, and when */
		const board = document.getElementById("board-" + game);
		if (board && !board.dataset.titled) {
			board.dataset.titled = "1";
			for (const g of board.querySelectorAll("g.tile")) {
				const title = g.querySelector("title");
				const k = +g.dataset.s, t = k ? turns()[k - 1] : null;
				if (title) title.textContent += t ? " at " + t.x + "," + t.y + " turned " + t.rotation + ", turn " +
					turnLabel(t) + " (" + t.colour + ")" : " at 0,0, the start tile";
			}
		}
		fitBoard();
	}

	function buildTable() {
		const head = el("tr", {}, el("th", { scope: "col" }, "Turn"), el("th", { scope: "col" }, "Player"),
			el("th", { scope: "col" }, "Move"));
		for (const c of seats()) head.append(el("th", { scope: "col", class: "num" }, swatch(c), c));
		head.append(el("th", { scope: "col" }, "Scored"));
		$("turns").tHead.replaceChildren(head);
		const rows = [];
		const start = el("tr", { "data-step": "0" }, el("td", {}, el("button", { class: "go", type: "button",
			"aria-label": "Show the start" }, "0")), el("td", {}, ""), el("td", {}, "start tile " + G().start + " at 0,0"));
		for (const c of seats()) start.append(el("td", { class: "num" }, String(scoresAt(0)[c])));
		start.append(el("td", {}, ""));
		rows.push(start);
		turns().forEach((t, i) => {
			const k = i + 1;
			const move = t.discard ? t.tile + " discarded" : t.tile + " " + t.x + "," + t.y + " " + t.rotation +
				(t.deploy ? " " + t.deploy.role + " " + t.deploy.spot : t.return ? " return " + t.return : "");
			const tr = el("tr", { "data-step": String(k) },
				el("td", {}, el("button", { class: "go", type: "button", "aria-label": "Show turn " + turnLabel(t) }, turnLabel(t))),
				el("td", {}, swatch(t.colour), t.colour), el("td", {}, move));
			for (const c of seats()) tr.append(el("td", { class: "num" }, String(t.scores[c])));
			const cell = el("td", {});
			for (const ev of t.scored.filter(worth)) cell.append(el("div", {}, eventWords(ev)));
			const diags = G().notes.filter((n) => n.step === k);
			for (const n of diags) cell.append(el("div", { class: n.severity === "error" ? "diag" : "" }, n.message));
			if (!t.legal) {
				tr.classList.add("illegal");
				tr.querySelector(".go").setAttribute("aria-label", "Show turn " + turnLabel(t) + ", an illegal move");
			}
			tr.append(cell);
			rows.push(tr);
		});
		$("turns").tBodies[0].replaceChildren(...rows);
	}

	/* The chart: a line per colour through its total at every step, and a
	 * last step for the final scoring. */
	function chartSeries() {
		const r = report(), n = turns().length;
		const withFinal = finalShown;
		const series = {};
		for (const c of seats()) {
			const v = [];
			for (let k = 0; k <= n; k++) v.push(scoresAt(k)[c]);
			if (r.final_scoring && withFinal) v.push(r.scores[c]);
			series[c] = v;
		}
		return series;
	}
	function buildChart() {
		const series = chartSeries();
		const points = Object.values(series)[0].length;
		let top = 10;
		for (const v of Object.values(series)) for (const y of v) top = Math.max(top, y);
		/* five to ten lines at a round step */
		const ystep = [2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((d) => top / d <= 8) || Math.ceil(top / 8);
		const ymax = Math.ceil(top / ystep) * ystep;
		const W = 600, H = 260, L = 40, R = 14, T = 10, B = 30;
		const pw = W - L - R, ph = H - T - B;
		const xOf = (i) => L + (points > 1 ? (i * pw) / (points - 1) : 0);
		const yOf = (v) => T + ph - (v * ph) / ymax;
		const s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", id: "chart-svg",
			"aria-label": "Scores over the game: " + seats().map((c) => c + " " + series[c][series[c].length - 1]).join(", "),
			"data-ymax": ymax, "data-left": L, "data-top": T, "data-width": pw, "data-height": ph });
		for (let y = 0; y <= ymax; y += ystep) {
			s.append(svg("line", { x1: L, x2: L + pw, y1: yOf(y), y2: yOf(y), stroke: "#e2dccf" }));
			const t = svg("text", { x: L - 6, y: yOf(y) + 4, "text-anchor": "end", "font-size": 11, fill: "#666" });
			t.textContent = String(y);
			s.append(t);
		}
		const n = turns().length;
		const tick = n > 40 ? 10 : 5;
		let labelled = -1; /* the turn numbers at a round step, each once (discards share a number) */
		const fin = report().final_scoring && finalShown;
		for (let k = 0; k <= n - (fin ? tick / 2 : 0); k++) {
			const num = k ? turns()[k - 1].turn : 0;
			if (num % tick || num === labelled) continue;
			labelled = num;
			const t = svg("text", { x: xOf(k), y: T + ph + 16, "text-anchor": "middle", "font-size": 11, fill: "#666" });
			t.textContent = String(num);
			s.append(t);
		}
		if (fin) {
			const t = svg("text", { x: xOf(n + 1), y: T + ph + 16, "text-anchor": "end", "font-size": 11, fill: "#666" });
			t.textContent = "final";
			s.append(t);
		}
		s.append(svg("line", { id: "chart-now", x1: L, x2: L, y1: T, y2: T + ph, stroke: "#ff9800", "stroke-width": 2 }));
		for (const c of seats()) {
			const pts = series[c].map((v, i) => xOf(i).toFixed(2) + "," + yOf(v).toFixed(2)).join(" ");
			const line = svg("polyline", { points: pts, fill: "none", stroke: COLOURS[c] || "#777", "stroke-width": 2.5,
				"stroke-linejoin": "round", class: "series", "data-colour": c, "data-values": series[c].join(",") });
			const title = svg("title", {});
			title.textContent = c;
			line.append(title);
			s.append(line);
			s.append(svg("circle", { class: "now-dot", "data-colour": c, r: 4, fill: COLOURS[c] || "#777", stroke: "#fff" }));
		}
		s.xOf = xOf;
		s.yOf = yOf;
		const legend = el("p", { class: "legend" });
		for (const c of seats()) legend.append(swatch(c), c + " ");
		$("chart").replaceChildren(s, legend);
	}

	function buildFinal() {
		const r = report(), box = $("final");
		if (!r.final_scoring) {
			box.replaceChildren(el("p", {}, r.finished ? "No final scoring." :
				"The game is unfinished: no final scoring. The projected final at each turn is beside the board."));
			return;
		}
		const parts = [];
		const list = el("ul", {});
		const events = r.final.filter(worth);
		for (const ev of events) list.append(el("li", {}, eventWords(ev)));
		if (!events.length) list.append(el("li", {}, "nothing to score"));
		if (events.length < r.final.length) {
			const zero = r.final.length - events.length;
			parts.push(el("p", { class: "hint" }, zero + (zero === 1 ? " feature" : " features") + " scored nothing."));
		}
		parts.push(list);
		const t = el("table", { id: "breakdown" });
		t.append(el("caption", {}, "The breakdown of every player's points by source"));
		const head = el("tr", {}, el("th", { scope: "col" }, "Source"));
		for (const c of seats()) head.append(el("th", { scope: "col", class: "num" }, swatch(c), c));
		t.append(el("thead", {}, head));
		const body = el("tbody", {});
		const rows = [];
		/* the rows of carc score's text, in its words: those of the rules
		 * always, the others when someone scored from them */
		const at = (b, path) => path.reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), b) || 0;
		for (const src of G().sources || []) {
			const get = (b) => at(b, src.path);
			if (src.always || seats().some((c) => get(r.breakdown[c]) !== 0)) rows.push([src.label, get]);
		}
		rows.push(["total", (b) => b.total]);
		for (const [label, get] of rows) {
			const tr = el("tr", { "data-source": label }, el("th", { scope: "row" }, label));
			for (const c of seats()) tr.append(el("td", { class: "num", "data-colour": c }, String(get(r.breakdown[c]))));
			body.append(tr);
		}
		t.append(body);
		parts.push(el("div", { class: "scroll-x" }, t));
		if (r.winners) parts.push(el("p", { id: "winners" }, (r.winners.length > 1 ? "Winners (tied): " : "Winner: ") +
			r.winners.join(", ") + " with " + r.scores[r.winners[0]] + " points"));
		if (typeof r.result === "number") parts.push(el("p", { id: "winners" }, "Result: " + r.result + " (the score of " +
			r.last.join(", ") + ", last on the track)"));
		box.replaceChildren(...parts);
	}

	/* ---- a step ---- */

	function show(k, opts) {
		const n = turns().length;
		k = Math.max(0, Math.min(n, k | 0));
		step = k;
		const board = document.getElementById("board-" + game);
		for (const g of board.querySelectorAll("g.tile")) g.style.display = +g.dataset.s <= k ? "" : "none";
		for (const g of board.querySelectorAll("g.follower")) {
			const on = +g.dataset.s <= k && (g.dataset.e === undefined || +g.dataset.e > k);
			g.style.display = on ? "" : "none";
		}
		for (const g of board.querySelectorAll("g.mark")) {
			const on = g.dataset.m !== undefined ? +g.dataset.m === k : +g.dataset.s <= k;
			g.style.display = on ? "" : "none";
		}
		const t = k ? turns()[k - 1] : null;
		const heading = t ? "Turn " + turnLabel(t) + " of " + (n ? turns()[n - 1].turn : 0) : "Start";
		$("now-heading").textContent = heading;
		$("move").textContent = t ? moveWords(t) + (t.legal ? "" : " (illegal)") : "The start tile " + G().start + " at 0,0.";
		$("move").className = t && !t.legal ? "bad" : "";
		const slider = $("slider");
		slider.value = String(k);
		const words = t ? "turn " + turnLabel(t) + ": " + moveWords(t) : "the start";
		slider.setAttribute("aria-valuetext", words);
		$("first").disabled = $("prev").disabled = k === 0;
		$("last").disabled = $("next").disabled = k === n;
		/* no spoilers: the final scoring and the winner at the end, or when asked */
		const fin = revealed || k === n;
		if (fin !== finalShown) {
			finalShown = fin;
			$("final").hidden = !fin;
			$("final-hidden").hidden = fin;
			if (fin) buildFinal();
			buildChart();
		}
		/* what the turn scored, who came back, what was wrong */
		const ev = $("events");
		const parts = [];
		if (t && t.scored.filter(worth).length) {
			parts.push(el("h3", {}, "Scored"));
			parts.push(el("ul", {}, ...t.scored.filter(worth).map((e) => el("li", {}, eventWords(e)))));
		}
		const back = G().steps[k] ? G().steps[k].returned : [];
		if (back.length) {
			parts.push(el("h3", {}, "Followers returned"));
			parts.push(el("ul", {}, ...back.map((w) => el("li", {}, w))));
		}
		ev.replaceChildren(...parts);
		const diags = G().notes.filter((d) => d.step === k && k > 0);
		$("diagnostics").replaceChildren(...(diags.length ? [el("h3", {}, "Messages"),
			el("ul", {}, ...diags.map((d) => el("li", { class: d.severity === "error" ? "diag" : "" }, d.message)))] : []));
		/* the standings */
		const sc = scoresAt(k), pr = projectedAt(k) || {}, st = G().steps[k] || {};
		const rows = report().players.map((p) => el("tr", { "data-colour": p.colour },
			el("th", { scope: "row" }, swatch(p.colour), playerLabel(p)),
			el("td", { class: "num score" }, String(sc[p.colour])),
			el("td", { class: "num projected" }, pr[p.colour] === undefined ? "" : String(pr[p.colour])),
			el("td", { class: "num followers" }, st.supply ? String(st.supply[p.colour]) +
				(st.figures && st.figures[p.colour] ? ", " + st.figures[p.colour] : "") : "")));
		$("standing").tBodies[0].replaceChildren(...rows);
		if (st.left) {
			const left = Object.entries(st.left).map(([id, c]) => id + "\u00d7" + c).join(" ");
			$("supply-summary").textContent = "Supply: " + st.land_left + " tile" + (st.land_left === 1 ? "" : "s") +
				" left" + (st.bonus_left ? ", and " + st.bonus_left + " bonus" : "");
			$("supply-list").textContent = left || "empty";
		}
		/* the table and the chart follow */
		for (const tr of $("turns").tBodies[0].rows) {
			const cur = +tr.dataset.step === k;
			tr.classList.toggle("current", cur);
			if (cur) tr.setAttribute("aria-current", "step");
			else tr.removeAttribute("aria-current");
		}
		const row = $("turns").querySelector("tr.current");
		if (row && !(opts && opts.noScroll)) {
			const box = row.closest(".scroll");
			const top = row.offsetTop - box.clientHeight / 2;
			box.scrollTop = Math.max(0, top);
		}
		const chart = $("chart-svg");
		if (chart) {
			const x = chart.xOf(k);
			const now = $("chart-now");
			now.setAttribute("x1", x);
			now.setAttribute("x2", x);
			for (const dot of chart.querySelectorAll(".now-dot")) {
				dot.setAttribute("cx", x);
				dot.setAttribute("cy", chart.yOf(sc[dot.dataset.colour]));
			}
		}
		$("boards").setAttribute("aria-label", "The board " + (t ? "after turn " + turnLabel(t) : "at the start"));
		$("announce").textContent = (t ? "Turn " + turnLabel(t) + ", " + words.replace(/^turn [^:]*: /, "") : "Start") +
			". " + report().players.map((p) => p.colour + " " + sc[p.colour]).join(", ");
		if (!(opts && opts.keepHash)) {
			const frag = "#" + fragmentOf(k);
			if (location.hash !== frag) history.replaceState(null, "", frag);
		}
	}

	function chooseGame(i, k, opts) {
		game = Math.max(0, Math.min(DATA.games.length - 1, i));
		$("game").value = String(game);
		buildGame();
		if (!(opts && opts.defer)) show(k, opts);
	}

	function fromFragment() {
		const a = readFragment();
		const g = a.game ? a.game - 1 : game;
		if (g !== game || !$("turns").tBodies[0].rows.length) {
			game = Math.max(0, Math.min(DATA.games.length - 1, g));
			$("game").value = String(game);
			buildGame();
		}
		let k = 0;
		if (a.step !== undefined) k = a.step;
		else if (a.turn !== undefined) k = Math.max(0, stepOfTurn(a.turn));
		show(k, { keepHash: true });
	}

	/* ---- the board's pan and zoom: its viewBox, moved by drag, pinch, wheel and buttons ---- */

	const boardSvg = () => document.querySelector("#board-" + game + " svg");
	function baseBox(s) {
		if (!s.dataset.base) s.dataset.base = s.getAttribute("viewBox");
		return s.dataset.base.split(/[ ,]+/).map(Number);
	}
	function boxOf(s) { return s.getAttribute("viewBox").split(/[ ,]+/).map(Number); }
	function setBox(s, b) {
		const base = baseBox(s);
		/* from an eighth of the board to one and a half times it, never lost off the edge */
		const w = Math.max(base[2] / 8, Math.min(base[2] * 1.5, b[2]));
		const h = w * b[3] / b[2];
		const cx = Math.max(base[0], Math.min(base[0] + base[2], b[0] + b[2] / 2));
		const cy = Math.max(base[1], Math.min(base[1] + base[3], b[1] + b[3] / 2));
		s.setAttribute("viewBox", [cx - w / 2, cy - h / 2, w, h].map((v) => v.toFixed(1)).join(" "));
	}
	/* units of the viewBox per screen pixel (the picture is fitted, "meet") */
	function unitsPerPixel(s) {
		const r = s.getBoundingClientRect(), b = boxOf(s);
		return Math.max(b[2] / Math.max(1, r.width), b[3] / Math.max(1, r.height));
	}
	/* the point of the board under a screen point */
	function boardPoint(s, x, y) {
		const r = s.getBoundingClientRect(), b = boxOf(s), u = unitsPerPixel(s);
		return [b[0] + b[2] / 2 + (x - r.left - r.width / 2) * u, b[1] + b[3] / 2 + (y - r.top - r.height / 2) * u];
	}
	/* zoom by factor f (below 1: closer) keeping the board point at (px, py) in place */
	function zoomBy(f, px, py) {
		const s = boardSvg();
		if (!s) return;
		const b = boxOf(s);
		const [ax, ay] = px === undefined ? [b[0] + b[2] / 2, b[1] + b[3] / 2] : [px, py];
		setBox(s, [ax - (ax - b[0]) * f, ay - (ay - b[1]) * f, b[2] * f, b[3] * f]);
	}
	function fitBoard() {
		const s = boardSvg();
		if (s) s.setAttribute("viewBox", baseBox(s).join(" "));
	}
	function panBy(s, dx, dy) {
		const b = boxOf(s), u = unitsPerPixel(s);
		setBox(s, [b[0] - dx * u, b[1] - dy * u, b[2], b[3]]);
	}
	const pointers = new Map();
	let pinch = null;
	const boards = $("boards");
	boards.addEventListener("pointerdown", (e) => {
		const s = boardSvg();
		if (!s) return;
		pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
		try { boards.setPointerCapture(e.pointerId); } catch (err) { /* a pointer the browser does not know */ }
		s.classList.add("dragging");
		pinch = null;
	});
	boards.addEventListener("pointermove", (e) => {
		const s = boardSvg(), p = pointers.get(e.pointerId);
		if (!s || !p) return;
		if (pointers.size === 1) {
			panBy(s, e.clientX - p.x, e.clientY - p.y);
		} else if (pointers.size === 2) {
			const [a, b] = [...pointers.values()];
			const before = Math.hypot(a.x - b.x, a.y - b.y);
			p.x = e.clientX;
			p.y = e.clientY;
			const after = Math.hypot(a.x - b.x, a.y - b.y);
			const mid = boardPoint(s, (a.x + b.x) / 2, (a.y + b.y) / 2);
			if (before > 0 && after > 0) zoomBy(before / after, mid[0], mid[1]);
			pinch = true;
		}
		p.x = e.clientX;
		p.y = e.clientY;
	});
	const lift = (e) => {
		pointers.delete(e.pointerId);
		if (!pointers.size) {
			const s = boardSvg();
			if (s) s.classList.remove("dragging");
		}
	};
	boards.addEventListener("pointerup", lift);
	boards.addEventListener("pointercancel", lift);
	boards.addEventListener("wheel", (e) => {
		const s = boardSvg();
		if (!s) return;
		e.preventDefault();
		const [px, py] = boardPoint(s, e.clientX, e.clientY);
		zoomBy(Math.pow(1.0015, e.deltaY * (e.deltaMode === 1 ? 30 : 1)), px, py);
	}, { passive: false });
	$("zoom-in").addEventListener("click", () => zoomBy(1 / 1.25));
	$("zoom-out").addEventListener("click", () => zoomBy(1.25));
	$("zoom-fit").addEventListener("click", fitBoard);

	/* ---- set up ---- */

	const picker = $("game");
	DATA.games.forEach((g, i) => {
		const tags = g.report.tags || {};
		const label = "Game " + g.report.game + (tags.Event ? ": " + tags.Event : "") +
			" (" + g.report.players.map((p) => p.colour).join(", ") + ")" + (g.report.valid ? "" : " - invalid");
		picker.append(el("option", { value: String(i) }, label));
	});
	$("game-picker").hidden = DATA.games.length < 2;
	picker.addEventListener("change", () => { chooseGame(+picker.value, 0, { defer: true }); show(openingStep()); });
	$("show-final").addEventListener("click", () => { revealed = true; show(step, { noScroll: true }); });
	$("next-error").addEventListener("click", () => {
		const e = errorSteps();
		show(e.find((k) => k > step) || e[0]);
	});
	$("first").addEventListener("click", () => show(0));
	$("prev").addEventListener("click", () => show(step - 1));
	$("next").addEventListener("click", () => show(step + 1));
	$("last").addEventListener("click", () => show(turns().length));
	$("slider").addEventListener("input", () => show(+$("slider").value));
	$("turns").addEventListener("click", (e) => {
		const tr = e.target.closest("tr[data-step]");
		if (tr) show(+tr.dataset.step, { noScroll: true });
	});
	document.addEventListener("keydown", (e) => {
		if (e.altKey || e.ctrlKey || e.metaKey) return;
		const tag = e.target.tagName;
		if (e.target.id === "slider" || tag === "SELECT" || tag === "TEXTAREA" ||
			(tag === "INPUT" && e.target.type !== "range")) return;
		const zoom = { "+": 1 / 1.25, "=": 1 / 1.25, "-": 1.25, "0": 0 }[e.key];
		if (zoom !== undefined) {
			e.preventDefault();
			if (zoom) zoomBy(zoom); else fitBoard();
			return;
		}
		if ((e.key === "e" || e.key === "E") && errorSteps().length) {
			$("next-error").click();
			return;
		}
		const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: turns().length }[e.key];
		if (to === undefined) return;
		e.preventDefault();
		show(to);
	});
	window.addEventListener("hashchange", fromFragment);
	$("made-by").textContent = "Made by carc " + DATA.version + " (carc render --format html). This page loads nothing from the network.";
	if (!location.hash) {
		game = 0;
		$("game").value = "0";
		buildGame();
		show(DATA.open_turn >= 0 ? Math.max(0, stepOfTurn(DATA.open_turn)) : openingStep());
	} else {
		fromFragment();
	}
})();
