/* engine.js - carc recorder's engine: the library's C built for wasm32-wasi
 * (src/wasm/recorder.c over api/carc.h), loaded from the page itself.
 *
 * This file only moves strings in and out of the module and gives it the
 * few WASI calls its C library makes (no file, no clock it needs, no
 * network). Every rule is the engine's: nothing here knows a tile, a
 * feature or a score. It also runs under node (tests/recorder), where it
 * is required as a module.
 *
 * makeEngine(bytes) -> {newGame, open, enter, moves, play, undo, state,
 * cgn, tiles, preview, orders}; each throws an Error with the engine's message when the
 * engine refuses (err.code: the CARC_E* code, -5 for an illegal move). */
"use strict";
function makeEngine(bytes) {
	let mem = null;
	const enc = new TextEncoder(), dec = new TextDecoder();
	const view = () => new DataView(mem.buffer);
	const wasi = {
		fd_write(fd, iovs, n, nwritten) {
			/* stdout, stderr: the engine never prints; counted as written */
			let total = 0;
			for (let i = 0; i < n; i++)
				total += view().getUint32(iovs + 8 * i + 4, true);
			view().setUint32(nwritten, total, true);
			return 0;
		},
		fd_close() { return 8; },
		fd_seek() { return 8; },
		fd_read() { return 8; },
		fd_fdstat_get() { return 8; },
		fd_fdstat_set_flags() { return 8; },
		fd_filestat_get() { return 8; },
		fd_prestat_get() { return 8; },        /* EBADF: no folder is open to the engine */
		fd_prestat_dir_name() { return 8; },
		path_open() { return 44; },             /* ENOENT: no file */
		environ_sizes_get(count, size) { view().setUint32(count, 0, true); view().setUint32(size, 0, true); return 0; },
		environ_get() { return 0; },
		args_sizes_get(count, size) { view().setUint32(count, 0, true); view().setUint32(size, 0, true); return 0; },
		args_get() { return 0; },
		clock_time_get(id, prec, out) { view().setBigUint64(out, BigInt(Date.now()) * 1000000n, true); return 0; },
		random_get(buf, len) {
			const a = new Uint8Array(mem.buffer, buf, len);
			for (let i = 0; i < len; i++) a[i] = (Math.random() * 256) | 0;
			return 0;
		},
		proc_exit(code) { throw new Error("the engine stopped (" + code + ")"); },
		sched_yield() { return 0; },
	};
	const module = new WebAssembly.Module(bytes);
	const imports = { wasi_snapshot_preview1: {} };
	for (const imp of WebAssembly.Module.imports(module))
		if (imp.module === "wasi_snapshot_preview1")
			imports.wasi_snapshot_preview1[imp.name] = wasi[imp.name] || (() => 52); /* ENOSYS */
	const inst = new WebAssembly.Instance(module, imports);
	const x = inst.exports;
	mem = x.memory;
	if (x._initialize)
		x._initialize();

	function put(text) {
		const b = enc.encode(text);
		const p = x.rec_input(b.length);
		new Uint8Array(mem.buffer, p, b.length).set(b);
		return b.length;
	}
	function output() {
		return dec.decode(new Uint8Array(mem.buffer, x.rec_output(), x.rec_output_len()));
	}
	function call(rc) {
		if (rc !== 0) {
			const e = new Error(output());
			e.code = rc;
			throw e;
		}
		return output();
	}
	return {
		/* setup: {players: [{colour, name}], rules, expansions, edition} */
		newGame(setup) {
			const s = setup || {};
			const players = s.players || [{ colour: "red" }, { colour: "green" }];
			const lines = [s.rules || "base",
				Array.isArray(s.expansions) ? s.expansions.join(" ") : (s.expansions || ""),
				String(s.edition || 0)];
			for (const p of players) {
				const pl = typeof p === "string" ? { colour: p } : p;
				lines.push(String(pl.colour) + (pl.name ? " " + String(pl.name).replace(/\n/g, " ") : ""));
			}
			call(x.rec_new(put(lines.join("\n"))));
		},
		open(cgn) { call(x.rec_open(put(cgn))); },
		enter(tile) { call(x.rec_enter(put(String(tile)))); },
		moves() { return JSON.parse(call(x.rec_moves())); },
		play(move) { call(x.rec_play(put(moveText(move)))); },
		undo() { call(x.rec_undo()); },
		state() { return JSON.parse(call(x.rec_state())); },
		cgn(extraTags) { return call(x.rec_cgn(put(extraTags || ""))); },
		tiles() { return JSON.parse(call(x.rec_tiles())); },
		/* what a move would score, played on a copy: {move, outcome:
		 * {order, paid, scores, events}} */
		preview(move) { return JSON.parse(call(x.rec_preview(put(moveText(move))))); },
		/* a solo turn's scoring order: {features, best, orders} */
		orders(move) { return JSON.parse(call(x.rec_orders(put(moveText(move))))); },
	};
}

/* A move, a string or an object: its text (an object's order, when it
 * has one, written after its text). */
function moveText(move) {
	if (typeof move === "string")
		return move;
	if (!move.text)
		return formatMove(move);
	return move.order && !/ order /.test(move.text) ? move.text + " order " + move.order : move.text;
}

/* A move object as CGN writes it after the colour (the engine reads it). */
function formatMove(m) {
	if (m.discard)
		return m.tile + " discard";
	let s = (m.tile || "") + " " + m.x + "," + m.y + " " + m.rotation;
	if (m.role)
		s += " " + m.role + " " + m.spot;
	else if (m.recall)
		s += " return " + m.recall;
	if (m.order)
		s += " order " + m.order;
	return s.trim();
}

if (typeof module !== "undefined" && module.exports)
	module.exports = { makeEngine, formatMove };
