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
 * the final breakdown equals carc score's. Screenshots go to
 * BUILD/browser/ for a person to look at. Prints "N passed, N failed". */
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

/* Opens a page and watches it: console errors, page errors, requests. */
async function open(browser, file, hash) {
	const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
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
	const { page, trouble, requests } = await open(browser, file, opts.hash);
	const n = json.turns.length;
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
		if (json.final_scoring) want.push(json.scores[line.colour]);
		if (json.rules === "solo") want[0] = line.values[0]; /* where the track starts */
		if (!same(line.values, want)) { chartOk = false; chartWhy = line.colour + " " + line.values + " vs " + want; }
		const drawn = line.ys.map((y) => Math.round(((chart.top + chart.height - y) * chart.ymax) / chart.height));
		if (!same(drawn, line.values)) { chartOk = false; chartWhy = line.colour + " drawn at " + drawn; }
	}
	check(label + ": the chart's points are carc score's totals, turn by turn", chartOk, chartWhy);
	/* the final breakdown */
	if (json.final_scoring) {
		const table = await page.evaluate(() => {
			const out = {};
			for (const tr of document.querySelectorAll("#breakdown tbody tr"))
				for (const td of tr.querySelectorAll("td"))
					(out[td.dataset.colour] = out[td.dataset.colour] || {})[tr.dataset.source] = +td.textContent;
			return out;
		});
		let ok = true, bwhy = "";
		for (const p of json.players) {
			const b = json.breakdown[p.colour], t = table[p.colour] || {};
			const want = { total: b.total };
			for (const [k, v] of Object.entries(b.play)) want["completed " + k] = v;
			for (const [k, v] of Object.entries(b.end)) want[k + " at the end"] = v;
			for (const [k, v] of Object.entries(b)) if (typeof v === "number" && k !== "total") want[k.replace(/_/g, " ")] = v;
			if (!same(Object.keys(want).sort().map((k) => [k, want[k]]), Object.keys(t).sort().map((k) => [k, t[k]]))) {
				ok = false;
				bwhy = p.colour + ": " + JSON.stringify(t) + " vs " + JSON.stringify(want);
			}
		}
		check(label + ": the final breakdown is carc score's", ok, bwhy);
		if (json.rules !== "solo") { /* solo's text adds why a colour was not paid */
			const text = carc(["score", "--game", String(json.game), json.file]).split("\n");
			const from = text.indexOf("Final scoring") + 1;
			const want = [];
			for (let i = from; from > 0 && i < text.length && text[i].startsWith("  "); i++) want.push(text[i].trim());
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
	if (opts.extra) await opts.extra(page);
	check(label + ": no console error or warning", trouble.length === 0, trouble.join("; "));
	check(label + ": no network request", requests.length === 0, requests.join(" "));
	await page.close();
}

(async () => {
	const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
	const samples = path.join(top, "samples");
	for (const name of ["club-night", "full-game-2-players", "full-game-5-players"]) {
		const file = path.join(samples, name + ".cgn");
		const page = renderPage(file, name);
		await testGame(browser, name, page, scoreJson(file)[0], scoreJson(file, ["--projected"])[0], {});
	}
	/* fifteen games on one page: the selector, and a fragment naming a game */
	{
		const file = path.join(samples, "rule-book-examples.cgn");
		const page = renderPage(file, "rule-book-examples");
		const all = scoreJson(file), proj = scoreJson(file, ["--projected"]);
		await testGame(browser, "rule-book-examples-game-4", page, all[3], proj[3], { select: 3, gamePrefix: "game=4&" });
		await testGame(browser, "rule-book-examples-link-game-9", page, all[8], proj[8],
			{ hash: "#game=9&turn=1", gamePrefix: "game=9&",
				extra: async (p) => check("rule-book-examples: a link picks the game", (await p.$eval("#game", (s) => s.value)) === "8") });
		/* --game N: that game alone, no selector */
		const one = renderPage(file, "rule-book-examples-game-2", ["--game", "2"]);
		await testGame(browser, "rule-book-examples-game-2", one, all[1], proj[1], {
			extra: async (p) => check("--game 2: no game selector", await p.$eval("#game-picker", (e) => e.hidden)),
		});
	}
	/* the other rule sets: a solo game (the track starts at 1, 2, 3) and Hunters and Gatherers */
	for (const [rules, players] of [["solo", 3], ["hunters", 3]]) {
		const file = path.join(shots, rules + ".cgn");
		carc(["gen", "--rules", rules, "--players", String(players), "--seed", "3", "-o", file]);
		const page = renderPage(file, rules);
		await testGame(browser, rules, page, scoreJson(file)[0], scoreJson(file, ["--projected"])[0], {});
	}
	/* an illegal move: marked on the board and in the table with its message */
	{
		const file = path.join(top, "tests/diag/E209.cgn");
		const page = renderPage(file, "illegal-E209");
		const json = scoreJson(file)[0], proj = scoreJson(file, ["--projected"])[0];
		const bad = json.turns.findIndex((t) => !t.legal) + 1;
		await testGame(browser, "illegal-E209", page, json, proj, {
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
				await p.screenshot({ path: path.join(shots, "illegal-E209-marked.png") });
			},
		});
	}
	await browser.close();
	console.log(passed + " passed, " + failed + " failed");
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log("FAIL the browser tests stopped: " + (e && e.stack || e));
	console.log(passed + " passed, " + (failed + 1) + " failed");
	process.exit(1);
});
