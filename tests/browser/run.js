/* tests/browser/run.js - the replay page (carc render --format html) in a
 * real browser: headless Chromium driven by playwright-core.
 *
 *   CARC=build/carc BUILD=build CHROMIUM=/usr/bin/chromium node tests/browser/run.js
 *
 * Pages of the bundled samples (one game, a 5-player game, fifteen games
 * with a selector), of one game picked with --game, of generated solo and
 * Hunters and Gatherers games and of a game with an illegal move are
 * opened from files. For each: no console error, no page
 * error and no request but the page itself; the keyboard (arrows, Home,
 * End), the slider, the buttons, a fragment link (#turn=N, also followed
 * on hashchange) and a click on a table row all move the board (the tiles
 * and followers shown match the turn); the chart's lines hold, point by
 * point, the totals of `carc score --format json` and are drawn where those
 * values say; the projected column is that of `carc score --projected`;
 * the final breakdown equals carc score's, row by row in its words. Every
 * page is tried at a phone's size (390x844, touch) and a desktop's
 * (1280x900): the page never scrolls sideways (generated games of 1 to 6
 * players too), the board zooms and pans by wheel, drag, pinch and its
 * buttons, no final scoring or winner shows before the end unless "show
 * final" is pressed, a page opens at the end of a game or at the first
 * error of an invalid one, the header and breakdown name every rule set
 * and expansion in carc's words, and the page names its file by its base
 * name only. Screenshots go to BUILD/browser/ for a person to look at.
 * Prints "N passed, N failed". */
"use strict";
const { chromium } = require("playwright-core");
const { execFileSync } = require("child_process");
const fs = require("fs");
const path = require("path");

const top = path.resolve(__dirname, "../..");
const CARC = path.resolve(top, process.env.CARC || "build/carc");
const BUILD = path.resolve(top, process.env.BUILD || "build");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = path.join(BUILD, "browser");
fs.mkdirSync(shots, { recursive: true });

let passed = 0, failed = 0;
function check(name, ok, detail) {
	if (ok) {
		passed++;
	} else {
		failed++;
		console.log("FAIL " + name + (detail ? ": " + detail : ""));
	}
}
function same(a, b) {
	return JSON.stringify(a) === JSON.stringify(b);
}

/* carc's own answers, to compare the page with */
function carc(args) {
	try {
		return execFileSync(CARC, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
	} catch (e) {
		return e.stdout; /* status 1: an invalid game, still reported */
	}
}
function scoreJson(file, extra) {
	return carc(["score", "--format", "json", ...(extra || []), file]).trim().split("\n").map((l) => JSON.parse(l));
}
function renderPage(file, name, extra) {
	const out = path.join(shots, name + ".html");
	carc(["render", "--format", "html", "-o", out, ...(extra || []), file]);
	return out;
}

/* The two sizes every page is tried at. */
const PHONE = { width: 390, height: 844, touch: true, name: "phone" };
const DESKTOP = { width: 1280, height: 900, touch: false, name: "desktop" };

/* carc score's text breakdown: { label: [values by seat] } in its order. */
function textBreakdown(file, game) {
	const text = carc(["score", "--game", String(game), file]).split("\n");
	const from = text.findIndex((l) => l.startsWith("Breakdown"));
	const rows = [];
	for (let i = from + 1; from >= 0 && i < text.length && text[i].startsWith("  "); i++) {
		const m = text[i].match(/^  (.*?)\s+(-?\d+(?:\s+-?\d+)*)$/);
		if (m) rows.push([m[1], m[2].trim().split(/\s+/).map(Number)]);
	}
	return rows;
}

/* Whether the page scrolls sideways, or (on a phone) is laid out wider
 * than the screen and shrunk to fit. */
async function sideways(page) {
	const width = page.viewportSize().width;
	return page.evaluate((w) => document.documentElement.scrollWidth > w + 1 || window.innerWidth > w + 1, width);
}

/* Opens a page and watches it: console errors, page errors, requests. */
async function open(browser, file, hash, size) {
	size = size || DESKTOP;
	const page = await browser.newPage({ viewport: { width: size.width, height: size.height }, hasTouch: size.touch,
		isMobile: size.touch });
	const url = "file://" + file;
	const trouble = [], requests = [];
	page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") trouble.push(m.type() + ": " + m.text()); });
	page.on("pageerror", (e) => trouble.push("page error: " + e.message));
	page.on("request", (r) => { if (r.url().split("#")[0] !== url) requests.push(r.url()); });
	await page.goto(url + (hash || ""));
	await page.waitForSelector("#turns tbody tr");
	return { page, url, trouble, requests };
}

/* What the page shows: its step, heading, the tiles and followers on the
 * board, the standings. With ks, the same after moving the slider to each
 * step of ks in turn (in one round trip: the host may be slow). */
async function states(page, ks) {
	return page.evaluate((ks) => {
		const one = () => {
			const board = [...document.querySelectorAll(".board")].find((b) => !b.hidden);
			const shown = (sel) => [...board.querySelectorAll(sel)].filter((g) => g.style.display !== "none").length;
			const cur = document.querySelector("#turns tr.current");
			return {
				slider: +document.getElementById("slider").value,
				heading: document.getElementById("now-heading").textContent,
				hash: location.hash,
				tiles: shown("g.tile"),
				followers: shown("g.follower"),
				row: cur ? +cur.dataset.step : -1,
				standing: [...document.querySelectorAll("#standing tbody tr")].map((tr) => ({
					colour: tr.dataset.colour,
					score: +tr.querySelector(".score").textContent,
					projected: +tr.querySelector(".projected").textContent,
				})),
			};
		};
		if (!ks) return one();
		const slider = document.getElementById("slider");
		return ks.map((k) => {
			slider.value = String(k);
			slider.dispatchEvent(new Event("input", { bubbles: true }));
			return one();
		});
	}, ks || null);
}
const state = (page) => states(page);

/* The tiles on the board after step k: the start tile and every placement
 * so far (a discard, or a tile on a taken cell, places none). */
function tilesAt(json, k) {
	let n = 1;
	for (let i = 0; i < k; i++) {
		const t = json.turns[i];
		if (!t.discard) n++;
	}
	return n;
}

async function testGame(browser, label, file, json, projected, opts) {
	const size = opts.size || DESKTOP;
	label += " (" + size.name + ")";
	const { page, trouble, requests } = await open(browser, file, opts.hash, size);
	const n = json.turns.length;
	/* where it opens: the first error of an invalid game, else the end */
	if (!opts.hash && opts.select === undefined) {
		const bad = json.turns.findIndex((t) => !t.legal) + 1;
		const want = bad > 0 ? bad : json.valid ? n : -1;
		const at = +(await page.$eval("#slider", (e) => e.value));
		if (want >= 0) check(label + ": the page opens at " + (bad > 0 ? "the first illegal move" : "the end"), at === want,
			"at " + at + ", not " + want);
		check(label + ": no sideways scroll at the opening", !(await sideways(page)));
	}
	if (opts.select !== undefined) {
		await page.selectOption("#game", String(opts.select));
		check(label + ": the game selector shows the game's turns",
			(await page.locator("#turns tbody tr").count()) === n + 1);
	}
	/* keyboard */
	await page.locator("body").click({ position: { x: 5, y: 5 } });
	await page.keyboard.press("End");
	let s = await state(page);
	check(label + ": End shows the last turn", s.slider === n && s.row === n, JSON.stringify(s));
	check(label + ": the board at the end holds every placed tile", s.tiles === tilesAt(json, n), s.tiles + " tiles");
	await page.screenshot({ path: path.join(shots, label + "-end.png"), fullPage: false });
	await page.keyboard.press("Home");
	s = await state(page);
	check(label + ": Home shows the start", s.slider === 0 && s.tiles === 1 && s.followers === 0, JSON.stringify(s));
	const steps = Math.min(n, 6);
	for (let i = 0; i < steps; i++) await page.keyboard.press("ArrowRight");
	s = await state(page);
	check(label + ": the right arrow steps turn by turn", s.slider === steps && s.row === steps &&
		s.tiles === tilesAt(json, steps), JSON.stringify(s));
	await page.keyboard.press("ArrowLeft");
	s = await state(page);
	check(label + ": the left arrow steps back", s.slider === steps - 1, JSON.stringify(s));
	/* the slider, and every step's scores and projection on the way */
	let scoresOk = true, projOk = true, tilesOk = true, why = "";
	const ks = json.turns.map((t, i) => i + 1);
	const all = await states(page, ks);
	for (const k of ks) {
		s = all[k - 1];
		const t = json.turns[k - 1];
		for (const st of s.standing) {
			if (st.score !== t.scores[st.colour]) { scoresOk = false; why = "turn " + k + " " + st.colour; }
			if (st.projected !== projected.turns[k - 1].projected[st.colour]) { projOk = false; why = "projected turn " + k; }
		}
		if (s.tiles !== tilesAt(json, k) || s.slider !== k) { tilesOk = false; why = "tiles at " + k + ": " + s.tiles; }
	}
	check(label + ": the slider moves the board turn by turn", tilesOk, why);
	check(label + ": the scores beside the board are carc score's, turn by turn", scoresOk, why);
	check(label + ": the projected finals are carc score --projected's, turn by turn", projOk, why);
	/* the slider by the keyboard, as a screen-reader user moves it */
	await page.focus("#slider");
	await page.keyboard.press("Home");
	await page.keyboard.press("ArrowRight");
	s = await state(page);
	check(label + ": the slider answers the keyboard", s.slider === 1 && s.row === 1, JSON.stringify(s));
	/* buttons */
	await page.click("#last");
	await page.click("#prev");
	s = await state(page);
	check(label + ": the buttons move the board", s.slider === n - 1, JSON.stringify(s));
	/* a click on a row of the table */
	const pick = Math.max(1, Math.floor(n / 2));
	await page.locator('#turns tbody tr[data-step="' + pick + '"] td').nth(2).click();
	s = await state(page);
	check(label + ": a click on a table row shows that turn", s.slider === pick && s.row === pick, JSON.stringify(s));
	const want = json.turns[pick - 1].turn;
	check(label + ": the address keeps the turn", s.hash.includes("turn=" + want) || s.hash.includes("step=" + pick), s.hash);
	await page.screenshot({ path: path.join(shots, label + "-middle.png"), fullPage: true });
	/* a fragment change, as a link within the page or a pasted address */
	await page.evaluate((h) => { location.hash = h; }, (opts.gamePrefix || "") + "turn=" + json.turns[0].turn);
	await page.waitForFunction(() => +document.getElementById("slider").value === 1);
	s = await state(page);
	check(label + ": a changed fragment moves the board", s.slider === 1, JSON.stringify(s));
	/* no spoilers: before the end, no final scoring, winner or final point */
	if (json.final_scoring && n > 1) {
		const early = await page.evaluate(() => ({
			hidden: document.getElementById("final").hidden,
			winner: !!document.querySelector("#winners") && !document.getElementById("final").hidden,
			points: document.querySelector("#chart-svg polyline.series").dataset.values.split(",").length,
			button: !document.getElementById("final-hidden").hidden,
		}));
		check(label + ": no final scoring, winner or final point on the chart before the end",
			early.hidden && !early.winner && early.points === n + 1 && early.button, JSON.stringify(early));
		await page.click("#show-final");
		const shown = await page.evaluate(() => ({
			hidden: document.getElementById("final").hidden, slider: +document.getElementById("slider").value,
			points: document.querySelector("#chart-svg polyline.series").dataset.values.split(",").length,
		}));
		check(label + ": 'show final' shows the final scoring where the board is", !shown.hidden && shown.slider === 1 &&
			shown.points === n + 2, JSON.stringify(shown));
	}
	/* the chart: a line per colour through carc score's totals */
	const chart = await page.evaluate(() => {
		const c = document.getElementById("chart-svg");
		return {
			ymax: +c.dataset.ymax, top: +c.dataset.top, height: +c.dataset.height,
			lines: [...c.querySelectorAll("polyline.series")].map((p) => ({
				colour: p.dataset.colour, values: p.dataset.values.split(",").map(Number),
				ys: p.getAttribute("points").split(" ").map((xy) => +xy.split(",")[1]),
			})),
		};
	});
	let chartOk = chart.lines.length === json.players.length, chartWhy = "";
	for (const line of chart.lines) {
		const want = [0];
		for (const t of json.turns) want.push(t.scores[line.colour]);
		if (json.final_scoring && n > 1) want.push(json.scores[line.colour]);
		if (json.rules === "solo") want[0] = line.values[0]; /* where the track starts */
		if (!same(line.values, want)) { chartOk = false; chartWhy = line.colour + " " + line.values + " vs " + want; }
		const drawn = line.ys.map((y) => Math.round(((chart.top + chart.height - y) * chart.ymax) / chart.height));
		if (!same(drawn, line.values)) { chartOk = false; chartWhy = line.colour + " drawn at " + drawn; }
	}
	check(label + ": the chart's points are carc score's totals, turn by turn", chartOk, chartWhy);
	/* the final breakdown */
	if (json.final_scoring && n > 1) {
		const table = await page.evaluate(() => [...document.querySelectorAll("#breakdown tbody tr")].map((tr) =>
			[tr.dataset.source, [...tr.querySelectorAll("td")].map((td) => +td.textContent)]));
		const want = textBreakdown(json.file, json.game);
		check(label + ": the final breakdown is carc score's, its rows in its words", want.length > 0 && same(table, want),
			JSON.stringify(table) + " vs " + JSON.stringify(want));
		if (json.rules !== "solo") { /* solo's text adds why a colour was not paid */
			const text = carc(["score", "--game", String(json.game), json.file]).split("\n");
			const from = text.indexOf("Final scoring") + 1;
			const want = [];
			for (let i = from; from > 0 && i < text.length && text[i].startsWith("  "); i++)
				if (!/ \+0$/.test(text[i])) want.push(text[i].trim()); /* the page leaves out "+0" */
			const shown = await page.$$eval("#final li", (li) => li.map((l) => l.textContent));
			check(label + ": the final scoring's events read as carc score prints them", same(shown, want),
				JSON.stringify(shown.slice(0, 2)) + " vs " + JSON.stringify(want.slice(0, 2)));
		}
	}
	/* the basics of access: every control named, the board and chart labelled */
	const unnamed = await page.evaluate(() => [...document.querySelectorAll("button, input, select")]
		.filter((e) => !(e.getAttribute("aria-label") || e.labels && e.labels.length || e.textContent.trim()))
		.map((e) => e.outerHTML.slice(0, 60)));
	check(label + ": every control has a name", unnamed.length === 0, unnamed.join(" "));
	check(label + ": the board and chart are labelled images", await page.evaluate(() =>
		!!document.getElementById("boards").getAttribute("aria-label") &&
		!!document.getElementById("chart-svg").getAttribute("aria-label")));
	/* the board zooms and pans: the wheel, a drag, a pinch, the buttons, fit */
	const box = () => page.evaluate(() => document.querySelector(".board:not([hidden]) svg").getAttribute("viewBox")
		.split(/[ ,]+/).map(Number));
	const board = await page.$(".board:not([hidden]) svg");
	if (board) {
		await page.click("#zoom-fit");
		const whole = await box();
		await board.scrollIntoViewIfNeeded();
		const r = await board.boundingBox();
		const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
		await page.mouse.move(cx, cy);
		await page.mouse.wheel(0, -400);
		await page.waitForTimeout(50);
		const wheeled = await box();
		check(label + ": the wheel zooms the board in", wheeled[2] < whole[2] * 0.9, whole + " -> " + wheeled);
		await page.mouse.move(cx, cy);
		await page.mouse.down();
		await page.mouse.move(cx - 60, cy - 40, { steps: 4 });
		await page.mouse.up();
		const dragged = await box();
		check(label + ": a drag pans the board", dragged[0] > wheeled[0] && dragged[1] > wheeled[1] &&
			dragged[2] === wheeled[2], wheeled + " -> " + dragged);
		await page.click("#zoom-fit");
		/* two fingers moving apart (touch pointers, as a phone sends them) */
		await page.evaluate(([x, y]) => {
			const t = document.getElementById("boards");
			const ev = (type, id, px) => t.dispatchEvent(new PointerEvent(type, { pointerId: id, pointerType: "touch",
				clientX: px, clientY: y, bubbles: true, isPrimary: id === 11 }));
			ev("pointerdown", 11, x - 20);
			ev("pointerdown", 12, x + 20);
			for (let d = 20; d <= 80; d += 10) {
				ev("pointermove", 11, x - d);
				ev("pointermove", 12, x + d);
			}
			ev("pointerup", 11, x - 80);
			ev("pointerup", 12, x + 80);
		}, [cx, cy]);
		const pinched = await box();
		check(label + ": a pinch zooms the board in", pinched[2] < whole[2] * 0.6, whole + " -> " + pinched);
		await page.click("#zoom-fit");
		await page.click("#zoom-in");
		const zoomed = await box();
		await page.click("#zoom-out");
		await page.click("#zoom-out");
		const out = await box();
		check(label + ": the + and - buttons zoom", zoomed[2] < whole[2] && out[2] > zoomed[2], whole + " " + zoomed + " " + out);
		await page.click("#zoom-fit");
		check(label + ": fit shows the whole board", same(await box(), whole));
	}
	/* touch targets: every button and the slider at least 44 px both ways */
	const small = await page.evaluate(() => [...document.querySelectorAll("button, input, select")]
		.filter((e) => e.offsetParent !== null)
		.map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
		.filter(([, r]) => r.width < 43.5 || r.height < 43.5).map(([id, r]) => id + " " + Math.round(r.width) + "x" +
			Math.round(r.height)));
	check(label + ": touch targets are 44 px at least", small.length === 0, small.slice(0, 5).join(", "));
	/* the end: the final scoring is there, and the page still fits */
	await page.click("#last");
	check(label + ": no sideways scroll at the end", !(await sideways(page)));
	const dir = path.dirname(json.file);
	const text = await page.evaluate(() => document.documentElement.outerHTML);
	check(label + ": the page names its file by its base name, never the path given",
		dir === "." || !text.includes(dir + "/"), dir);
	await page.screenshot({ path: path.join(shots, label.replace(/[^\w-]+/g, "-") + "-full.png"), fullPage: true });
	if (opts.extra) await opts.extra(page);
	check(label + ": no console error or warning", trouble.length === 0, trouble.join("; "));
	check(label + ": no network request", requests.length === 0, requests.join(" "));
	await page.close();
}

(async () => {
	const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
	const samples = path.join(top, "samples");
	for (const size of [PHONE, DESKTOP]) {
		for (const name of ["club-night", "full-game-2-players", "full-game-5-players"]) {
			const file = path.join(samples, name + ".cgn");
			const page = renderPage(file, name);
			await testGame(browser, name, page, scoreJson(file)[0], scoreJson(file, ["--projected"])[0], { size });
		}
	}
	/* fifteen games on one page: the selector, and a fragment naming a game */
	{
		const file = path.join(samples, "rule-book-examples.cgn");
		const page = renderPage(file, "rule-book-examples");
		const all = scoreJson(file), proj = scoreJson(file, ["--projected"]);
		await testGame(browser, "rule-book-examples-game-4", page, all[3], proj[3], { select: 3, gamePrefix: "game=4&",
			extra: async (p) => check("rule-book-examples: the title follows the game picker",
				(await p.title()).includes("game 4") && (await p.$eval("#title", (e) => e.textContent)).includes("game 4"),
				await p.title()) });
		await testGame(browser, "rule-book-examples-link-game-9", page, all[8], proj[8],
			{ hash: "#game=9&turn=1", gamePrefix: "game=9&", size: PHONE,
				extra: async (p) => check("rule-book-examples: a link picks the game", (await p.$eval("#game", (s) => s.value)) === "8") });
		/* --game N: that game alone, no selector */
		const one = renderPage(file, "rule-book-examples-game-2", ["--game", "2"]);
		await testGame(browser, "rule-book-examples-game-2", one, all[1], proj[1], {
			extra: async (p) => check("--game 2: no game selector", await p.$eval("#game-picker", (e) => e.hidden)),
		});
	}
	/* 1 to 6 players (solo: one player's three colours), at both sizes: never a sideways scroll */
	for (const size of [PHONE, DESKTOP]) {
		for (const [rules, players] of [["solo", 3], ["base", 2], ["base", 3], ["base", 4], ["base", 5], ["base", 6]]) {
			const file = path.join(shots, "players-" + rules + "-" + players + ".cgn");
			carc(["gen", "--rules", rules, "--players", String(players), "--seed", "5", "-o", file]);
			const page = renderPage(file, "players-" + rules + "-" + players);
			const { page: p } = await open(browser, page, "", size);
			let wide = [];
			for (const to of ["#first", "#last"]) {
				await p.click(to);
				if (await sideways(p)) wide.push(to);
			}
			await p.click("#show-final").catch(() => {});
			if (await sideways(p)) wide.push("final");
			check(rules + " " + players + " players (" + size.name + "): no sideways scroll", wide.length === 0, wide.join(" "));
			if (players === 6) await p.screenshot({ path: path.join(shots, "players-6-" + size.name + ".png"), fullPage: true });
			await p.close();
		}
	}
	/* every rule set and expansion: the header names them as carc does, the
	 * breakdown has carc score's rows in its words, the move column writes
	 * "return abbot" */
	const sets = [["solo", 3, ""], ["hunters", 3, ""], ["base", 2, "river"], ["base", 2, "abbot"],
		["base", 3, "river,abbot"], ["solo", 3, "river"]];
	for (const [rules, players, x] of sets) {
		const name = rules + (x ? "-" + x.replace(",", "-") : "");
		const file = path.join(shots, name + ".cgn");
		carc(["gen", "--rules", rules, "--players", String(players), "--seed", "3", "--deploy-rate", "0.9",
			...(x ? ["--expansions", x] : []), "-o", file]);
		const page = renderPage(file, name);
		const json = scoreJson(file)[0];
		await testGame(browser, name, page, json, scoreJson(file, ["--projected"])[0], {
			size: rules === "solo" ? PHONE : DESKTOP,
			extra: async (p) => {
				const head = carc(["show", "--width", "1000", file]).split("\n")[0];
				const words = head.slice(head.lastIndexOf("(") + 1, head.lastIndexOf(";"));
				const sub = await p.$eval("#subtitle", (e) => e.textContent);
				check(name + ": the header names the rules and expansions as carc show does (" + words + ")",
					words.length > 5 && sub.includes(words), sub);
				const returns = json.turns.filter((t) => t.return).length;
				if (x.includes("abbot")) {
					const shown = await p.$$eval("#turns tbody td:nth-child(3)", (tds) =>
						tds.filter((td) => / return abbot$/.test(td.textContent)).length);
					check(name + ": the move column writes return abbot", shown === returns, shown + " of " + returns);
					const col = await p.$eval("#standing tbody td.followers", (td) => td.textContent);
					check(name + ": the followers column counts the abbot", /abbot/.test(col), col);
				}
			},
		});
	}
	/* an illegal move: marked on the board and in the table with its message */
	for (const size of [PHONE, DESKTOP]) {
		const file = path.join(top, "tests/diag/E209.cgn");
		const page = renderPage(file, "illegal-E209");
		const json = scoreJson(file)[0], proj = scoreJson(file, ["--projected"])[0];
		const bad = json.turns.findIndex((t) => !t.legal) + 1;
		await testGame(browser, "illegal-E209", page, json, proj, { size,
			extra: async (p) => {
				await p.evaluate((k) => { location.hash = "turn=" + k; }, json.turns[bad - 1].turn);
				await p.waitForFunction((k) => +document.getElementById("slider").value === k, bad);
				const seen = await p.evaluate(() => {
					const row = document.querySelector("#turns tr.current");
					const marks = [...document.querySelectorAll(".board:not([hidden]) g.mark")]
						.filter((g) => g.style.display !== "none").map((g) => g.textContent);
					return { illegal: row.classList.contains("illegal"), row: row.textContent,
						panel: document.getElementById("diagnostics").textContent, marks };
				});
				check("illegal-E209: the table marks the illegal move with its message",
					seen.illegal && seen.row.includes("E209"), seen.row);
				check("illegal-E209: the panel gives the message", seen.panel.includes("error[E209]"), seen.panel);
				check("illegal-E209: the board frames the illegal move", seen.marks.some((m) => m.includes("E209")),
					JSON.stringify(seen.marks));
				/* the error count is a link to the first error; "next error" goes there too */
				await p.click("#first");
				await p.click("#errors-link");
				await p.waitForFunction((k) => +document.getElementById("slider").value === k, bad);
				await p.click("#first");
				await p.click("#next-error");
				const at = +(await p.$eval("#slider", (e) => e.value));
				check("illegal-E209: the error count and next error lead to the error", at === bad, "at " + at);
				await p.screenshot({ path: path.join(shots, "illegal-E209-marked.png") });
			},
		});
	}
	/* a game with several illegal moves: it opens at the first, next error steps through them */
	{
		const file = path.join(shots, "two-errors.cgn");
		fs.writeFileSync(file, fs.readFileSync(path.join(samples, "club-night.cgn"), "utf8")
			.replace(/^2\. green E 0,1 180/m, "2. green E 5,5 180").replace(/^4\. green K 0,-1 270/m, "4. green K 9,9 270"));
		const json = scoreJson(file)[0];
		const bads = json.turns.map((t, i) => (t.legal ? 0 : i + 1)).filter((k) => k);
		const page = renderPage(file, "two-errors");
		const { page: p } = await open(browser, page, "", PHONE);
		const seen = [+(await p.$eval("#slider", (e) => e.value))];
		for (let i = 0; i < bads.length; i++) {
			await p.click("#next-error");
			seen.push(+(await p.$eval("#slider", (e) => e.value)));
		}
		check("two errors: the page opens at the first error, next error steps through them and back to the first",
			bads.length >= 2 && same(seen, [...bads, bads[0]]), JSON.stringify(seen) + " vs " + JSON.stringify(bads));
		await p.close();
	}
	await browser.close();
	console.log(passed + " passed, " + failed + " failed");
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log("FAIL the browser tests stopped: " + (e && e.stack || e));
	console.log(passed + " passed, " + (failed + 1) + " failed");
	process.exit(1);
});
