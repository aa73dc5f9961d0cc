/*
 * recorder.c - the engine of carc recorder's page: a thin layer of exports
 * over libcarc's play API (api/carc.h), built for wasm32-wasi (make wasm).
 *
 * The page holds one game. Every rule comes from the library: the legal
 * moves (carc_match_legal_moves), a move refused with check's code and
 * message (carc_match_play), the scores and the projected final, the CGN.
 * This file adds only what a page at the table needs around them:
 *   - strings in and out through one buffer each (rec_input, rec_output),
 *     and answers as JSON for the page's script;
 *   - the players' names and other tags a setup does not take (written
 *     into the CGN as tags: [Red "Anna"]);
 *   - undo and continuing a record: the game is set up again and its moves
 *     played again through the same API (a game is a text replayed by the
 *     referee anyway, api_int.h), so an undone move leaves nothing behind;
 *   - what a turn scored and why, the tiles left, the board, in the
 *     engine's and the referee's own words (api_int.h gives the replay);
 *   - what a move would score before it is played, and in a solo game the
 *     features a tile completes and what each order of scoring them gives
 *     (rec_preview, rec_orders): the move played on a copy of the game
 *     (carc_match_clone), as the referee plays it, never scored here.
 * It never decides a rule: a tile the rules do not let be drawn now is
 * marked by the rule set's own hook, a move is the library's to refuse.
 *
 * Every export returns 0 or a negative CARC_E* code; after a failure the
 * output holds the message.
 */
#include "api/api_int.h"
#include "output/picture.h"
#include "output/svg.h"
#include "common/json.h"
#include "notation/format.h"
#include "rules/module.h"
#include "rules/rules.h"
#include "rules/solo.h"

#include <stdlib.h>
#include <string.h>

#ifdef __wasm__
#define EXPORT(name) __attribute__((export_name(#name)))
#else
#define EXPORT(name)
#endif

/* the setup the game was made with, to make it again (undo, a record) */
struct setup {
	char rules[16];
	char expansions[64];
	int edition;
	char colours[96];
	char names[CARC_COLOURS][64]; /* by colour; "" for none */
	char tags[512];               /* more tag lines kept from a record */
};

static carc_match *game;
static struct setup cur;
static char **played;             /* the moves played, as carc_move_format writes them */
static size_t nplayed, played_cap;
static struct carc_buf in, out;

EXPORT(rec_input) char *rec_input(size_t len);
EXPORT(rec_output) const char *rec_output(void);
EXPORT(rec_output_len) size_t rec_output_len(void);
EXPORT(rec_new) int rec_new(size_t len);
EXPORT(rec_open) int rec_open(size_t len);
EXPORT(rec_enter) int rec_enter(size_t len);
EXPORT(rec_moves) int rec_moves(void);
EXPORT(rec_play) int rec_play(size_t len);
EXPORT(rec_undo) int rec_undo(void);
EXPORT(rec_state) int rec_state(void);
EXPORT(rec_cgn) int rec_cgn(size_t len);
EXPORT(rec_tiles) int rec_tiles(void);
EXPORT(rec_preview) int rec_preview(size_t len);
EXPORT(rec_orders) int rec_orders(size_t len);

/* A buffer of len bytes for the page to write its input into. */
char *rec_input(size_t len)
{
	carc_buf_reset(&in);
	carc_buf_grow(&in, len + 1);
	in.len = len;
	in.data[len] = 0;
	return in.data;
}

const char *rec_output(void) { return out.data ? out.data : ""; }
size_t rec_output_len(void) { return out.len; }

static int fail(int rc, const char *msg)
{
	carc_buf_reset(&out);
	carc_buf_adds(&out, msg);
	carc_buf_cstr(&out);
	return rc;
}

static void forget_moves(void)
{
	for (size_t i = 0; i < nplayed; i++)
		free(played[i]);
	nplayed = 0;
}

static void keep_move(const char *text)
{
	if (nplayed == played_cap) {
		played_cap = played_cap ? 2 * played_cap : 128;
		played = xrealloc(played, played_cap * sizeof *played);
	}
	played[nplayed++] = xstrdup(text);
}

/* Sets the game up from s; NULL with the reason in out. */
static carc_match *set_up(const struct setup *s)
{
	carc_setup st = {0};
	st.rules = s->rules[0] ? s->rules : NULL;
	st.expansions = s->expansions[0] ? s->expansions : NULL;
	st.edition = s->edition;
	st.colours = s->colours;
	char why[256];
	carc_match *m = carc_match_new(&st, why, sizeof why);
	if (!m)
		fail(CARC_EINVAL, why);
	return m;
}

/* The game of s with moves[0..n) played again; NULL with the message in
 * out when one is refused. */
static carc_match *replay(const struct setup *s, char *const *moves, size_t n)
{
	carc_match *m = set_up(s);
	for (size_t i = 0; m && i < n; i++) {
		carc_move_spec mv;
		int rc = carc_move_parse(moves[i], &mv);
		if (!rc)
			rc = carc_match_draw(m, mv.tile);
		if (!rc)
			rc = carc_match_play(m, &mv);
		if (rc) {
			carc_buf_reset(&out);
			carc_buf_printf(&out, "move %zu (%s): %s", i + 1, moves[i],
					carc_match_error(m)[0] ? carc_match_error(m) : carc_strerror(rc));
			carc_buf_cstr(&out);
			carc_match_free(m);
			return NULL;
		}
	}
	return m;
}

/* The next line of *p (without its newline) into w; false at the end. */
static bool next_line(const char **p, char *w, size_t cap)
{
	if (!**p)
		return false;
	size_t n = strcspn(*p, "\n");
	snprintf(w, cap, "%.*s", (int)n, *p);
	*p += n + ((*p)[n] == '\n');
	return true;
}

/* A new game. The input, a line each: the rules (base, solo, hunters),
 * the expansions (blank-separated, may be empty), the edition (0: the
 * default), then a line a player in order of play: "colour name". */
int rec_new(size_t len)
{
	(void)len;
	struct setup s = {0};
	const char *p = in.data ? in.data : "";
	char line[128], ed[16] = "";
	next_line(&p, s.rules, sizeof s.rules);
	next_line(&p, s.expansions, sizeof s.expansions);
	next_line(&p, ed, sizeof ed);
	s.edition = atoi(ed);
	size_t at = 0;
	while (next_line(&p, line, sizeof line)) {
		size_t n = strcspn(line, " ");
		int c = carc_colour_lookup(line, n);
		if (c < 0) {
			carc_buf_reset(&out);
			carc_buf_printf(&out, "\"%.*s\" is not a colour of the notation", (int)n, line);
			carc_buf_cstr(&out);
			return CARC_EINVAL;
		}
		if (line[n] == ' ')
			snprintf(s.names[c], sizeof s.names[c], "%s", line + n + 1);
		at += (size_t)snprintf(s.colours + at, sizeof s.colours - at, "%s%s", at ? " " : "", carc_colour_name(c));
		if (at >= sizeof s.colours)
			return fail(CARC_EINVAL, "too many players");
	}
	carc_match *m = set_up(&s);
	if (!m)
		return CARC_EINVAL;
	carc_match_free(game);
	game = m;
	cur = s;
	forget_moves();
	return fail(CARC_OK, "");
}

/* The text of a move of a record: from the tile to the claims. */
static void move_text(const struct carc_record *rec, const struct carc_move *mv, struct carc_buf *b)
{
	const char *t = rec->src.text;
	uint32_t from = mv->tile_span.off, to = mv->line.off + mv->line.len;
	if (mv->has_claim && mv->claim_span.off > from)
		to = mv->claim_span.off;
	while (to > from && (t[to - 1] == ' ' || t[to - 1] == '\t' || t[to - 1] == '='))
		to--;
	carc_buf_reset(b);
	carc_buf_add(b, t + from, to - from);
	carc_buf_cstr(b);
}

/* Continues a record (the CGN text in the input): its setup from its tags,
 * each of its moves played again through the API. Tags a setup does not
 * take are refused when they change the game (Tileset, Followers, Huts,
 * Start, Table), and kept as they are when they do not. */
int rec_open(size_t len)
{
	struct carc_record rec = {0};
	struct carc_diag_sink quiet = {0};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	bool got = carc_parse_string(in.data ? in.data : "", len, "<record>", cache, carc_rules_registry(), &rec, &quiet);
	int rc = CARC_OK;
	struct setup s = {0};
	struct carc_buf b = {0};
	if (!got || !rec.rules || rec.header_errors || quiet.errors) {
		rc = fail(CARC_ESYNTAX, "the text is not a CGN game this page can read (carc check says why)");
		goto done;
	}
	static const int refused[] = {CARC_TAG_TILESET, CARC_TAG_FOLLOWERS, CARC_TAG_HUTS, CARC_TAG_START,
				      CARC_TAG_TABLE};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		if (rec.tag_index[refused[i]] >= 0) {
			carc_buf_printf(&b, "the page plays games set up as its own setup does: no %s tag",
					carc_tag_name(refused[i]));
			rc = fail(CARC_EINVAL, carc_buf_cstr(&b));
			goto done;
		}
	snprintf(s.rules, sizeof s.rules, "%s", rec.rules->name);
	for (int i = 0, at = 0; i < rec.nexpansions; i++)
		at += snprintf(s.expansions + at, sizeof s.expansions - (size_t)at, "%s%s", i ? " " : "",
			       rec.expansions[i]->name);
	s.edition = rec.tag_index[CARC_TAG_EDITION] >= 0 ? rec.edition : 0;
	for (int i = 0, at = 0; i < rec.nseats; i++)
		at += snprintf(s.colours + at, sizeof s.colours - (size_t)at, "%s%s", i ? " " : "",
			       carc_colour_name(rec.seats[i]));
	for (int c = 0; c < CARC_COLOURS; c++) {
		const char *name = carc_record_tag(&rec, CARC_TAG_KNOWN + c);
		snprintf(s.names[c], sizeof s.names[c], "%s", name ? name : "");
	}
	/* tags kept as they are: those a tournament or a person adds */
	for (size_t i = 0, at = 0; i < rec.ntags; i++) {
		const struct carc_tag *tg = &rec.tags[i];
		int id = carc_tag_lookup(rec.src.text + tg->name.off, tg->name.len);
		if (id == CARC_TAG_RULES || id == CARC_TAG_EXPANSIONS || id == CARC_TAG_EDITION ||
		    id == CARC_TAG_SEATS || id == CARC_TAG_RESULT || (id >= CARC_TAG_KNOWN && id < CARC_TAG_UNKNOWN))
			continue;
		/* the page's clock: the page writes it anew */
		if (id == CARC_TAG_UNKNOWN && carc_slice_ieq(rec.src.text + tg->name.off, tg->name.len, "Clock"))
			continue;
		int n = snprintf(s.tags + at, sizeof s.tags - at, "%.*s\n", (int)tg->span.len, rec.src.text + tg->span.off);
		if (n < 0 || (size_t)n >= sizeof s.tags - at) {
			s.tags[at] = 0;
			break;
		}
		at += (size_t)n;
	}
	char **moves = xcalloc(rec.nmoves + 1, sizeof *moves);
	for (size_t i = 0; i < rec.nmoves; i++) {
		move_text(&rec, &rec.moves[i], &b);
		moves[i] = xstrdup(carc_buf_cstr(&b));
	}
	carc_match *m = replay(&s, moves, rec.nmoves);
	if (m) {
		carc_match_free(game);
		game = m;
		cur = s;
		forget_moves();
		for (size_t i = 0; i < rec.nmoves; i++)
			keep_move(moves[i]);
		fail(CARC_OK, "");
	} else {
		rc = CARC_EILLEGAL;
	}
	for (size_t i = 0; i < rec.nmoves; i++)
		free(moves[i]);
	free(moves);
done:
	carc_buf_free(&b);
	carc_record_free(&rec);
	carc_diag_free(&quiet);
	carc_tileset_cache_free(cache);
	return rc;
}

/* The drawn tile: its id in the input. */
int rec_enter(size_t len)
{
	(void)len;
	if (!game)
		return fail(CARC_ESTATE, "no game");
	int rc = carc_match_draw(game, in.data ? in.data : "");
	return rc ? fail(rc, carc_match_error(game)) : fail(CARC_OK, "");
}

static void move_json(struct carc_buf *b, const carc_move_spec *mv)
{
	char text[256];
	carc_move_format(mv, text, sizeof text);
	carc_buf_adds(b, "{\"tile\":");
	carc_json_cstr(b, mv->tile);
	if (mv->discard) {
		carc_buf_adds(b, ",\"discard\":true");
	} else {
		carc_buf_printf(b, ",\"x\":%d,\"y\":%d,\"rotation\":%d", mv->x, mv->y, mv->rotation);
		if (mv->role[0]) {
			carc_buf_adds(b, ",\"role\":");
			carc_json_cstr(b, mv->role);
			carc_buf_adds(b, ",\"spot\":");
			carc_json_cstr(b, mv->spot);
		}
		if (mv->recall[0]) {
			carc_buf_adds(b, ",\"recall\":");
			carc_json_cstr(b, mv->recall);
		}
		if (mv->order[0]) {
			carc_buf_adds(b, ",\"order\":");
			carc_json_cstr(b, mv->order);
		}
	}
	carc_buf_adds(b, ",\"text\":");
	carc_json_cstr(b, text);
	carc_buf_adds(b, "}");
}

/* The legal moves of the drawn tile, as a JSON array. */
int rec_moves(void)
{
	if (!game)
		return fail(CARC_ESTATE, "no game");
	int n = carc_match_legal_moves(game, NULL, 0);
	if (n < 0)
		return fail(n, carc_match_error(game));
	carc_move_spec *mv = xcalloc((size_t)n + 1, sizeof *mv);
	n = carc_match_legal_moves(game, mv, n);
	carc_buf_reset(&out);
	carc_buf_adds(&out, "[");
	for (int i = 0; i < n; i++) {
		if (i)
			carc_buf_adds(&out, ",\n");
		move_json(&out, &mv[i]);
	}
	carc_buf_adds(&out, "]");
	carc_buf_cstr(&out);
	free(mv);
	return CARC_OK;
}

/* Plays the move written in the input as CGN writes it ("U 1,0 90 thief W",
 * "D discard"); refused with check's code and message. */
int rec_play(size_t len)
{
	(void)len;
	if (!game)
		return fail(CARC_ESTATE, "no game");
	carc_move_spec mv;
	int rc = carc_move_parse(in.data ? in.data : "", &mv);
	if (rc)
		return fail(rc, "that is not a move as CGN writes it");
	if (!mv.tile[0] && carc_match_drawn(game))
		snprintf(mv.tile, sizeof mv.tile, "%s", carc_match_drawn(game));
	rc = carc_match_play(game, &mv);
	if (rc)
		return fail(rc, carc_match_error(game));
	char text[256];
	carc_move_format(&mv, text, sizeof text);
	keep_move(text);
	return fail(CARC_OK, "");
}

/* Takes back the tile entered and not played, or else the last move. */
int rec_undo(void)
{
	if (!game)
		return fail(CARC_ESTATE, "no game");
	size_t n = nplayed;
	if (!carc_match_drawn(game)) {
		if (!n)
			return fail(CARC_ESTATE, "nothing to undo");
		n--;
	}
	carc_match *m = replay(&cur, played, n);
	if (!m)
		return CARC_EILLEGAL;
	carc_match_free(game);
	game = m;
	while (nplayed > n)
		free(played[--nplayed]);
	return fail(CARC_OK, "");
}

/* What an event is, in words: "completed", "final", "farm", or the rule
 * set's own word for its kind of event. */
static const char *event_word(const struct carc_event *ev)
{
	switch (ev->type) {
	case CARC_EV_COMPLETED: return "completed";
	case CARC_EV_INCOMPLETE: return "unfinished at the end";
	case CARC_EV_FARM: return "farm";
	default: return "scored";
	}
}

static void events_json(struct carc_buf *b, carc_match *m, size_t first, size_t count)
{
	size_t nev;
	const struct carc_event *evs = carc_game_events(m->g, &nev);
	const struct carc_tileset *ts = m->rec.tileset;
	struct carc_buf t = {0};
	carc_buf_adds(b, "[");
	for (size_t i = first; i < first + count && i < nev; i++) {
		const struct carc_event *ev = &evs[i];
		if (i > first)
			carc_buf_adds(b, ",");
		carc_buf_adds(b, "{\"what\":");
		carc_json_cstr(b, event_word(ev));
		carc_buf_adds(b, ",\"kind\":");
		carc_json_cstr(b, ev->kind < ts->nkinds ? ts->kinds[ev->kind].name : "");
		carc_buf_reset(&t);
		carc_game_feature_name(m->g, ev->feature, &t);
		carc_buf_adds(b, ",\"feature\":");
		carc_json_cstr(b, carc_buf_cstr(&t));
		carc_buf_printf(b, ",\"tiles\":%u,\"items\":%u,\"points\":{", ev->tiles, ev->items);
		int k = 0;
		for (int s = 0; s < m->rec.nseats; s++) {
			int c = m->rec.seats[s];
			if (ev->winners >> c & 1)
				carc_buf_printf(b, "%s\"%s\":%d", k++ ? "," : "", carc_colour_name(c),
						carc_event_points_of(ev, c));
		}
		carc_buf_adds(b, "}");
		carc_buf_reset(&t);
		if (carc_result_explain(&m->res, i, &t)) {
			carc_buf_adds(b, ",\"why\":");
			carc_json_cstr(b, carc_buf_cstr(&t));
		}
		carc_buf_adds(b, "}");
	}
	carc_buf_adds(b, "]");
	carc_buf_free(&t);
}

/* Whether the game's rules let the tile be drawn now (The River's tiles
 * first): the rule set's own hook, as the library's draw asks it. */
static bool may_draw(carc_match *m, int tile)
{
	for (int k = 0; k < m->res.nmods; k++) {
		const struct carc_play_hooks *h = m->res.mods[k]->play;
		if (h && h->gen_may_draw && !h->gen_may_draw(m->g, tile))
			return false;
	}
	return true;
}

/* The game as the page shows it, one JSON object: players (colour, name,
 * score, followers left, projected final), whose turn and its number as
 * the library gives it (a bonus turn N+: bonus), the tile drawn, the tiles
 * left by type (now: drawable this turn; on a bonus turn only the bonus
 * tiles, or the land tiles in a set with no bonus stack (The Traders'
 * builder), on another no bonus tile, as the library's draw takes them), the
 * board, the figures on it, what the last turn
 * and the final scoring scored, whether the game is over. */
int rec_state(void)
{
	if (!game)
		return fail(CARC_ESTATE, "no game");
	carc_match *m = game;
	int to_move = carc_match_to_move(m); /* (replays the game to its end) */
	int bonus = 0, number = carc_match_turn_number(m, &bonus);
	if (api_replay(m, CARC_POSITION_END, NULL) != CARC_OK)
		return fail(CARC_ESTATE, "the game cannot be replayed");
	const struct carc_tileset *ts = m->rec.tileset;
	struct carc_buf *b = &out;
	carc_buf_reset(b);
	carc_buf_adds(b, "{\"rules\":");
	carc_json_cstr(b, cur.rules[0] ? cur.rules : "base");
	carc_buf_adds(b, ",\"expansions\":");
	carc_json_cstr(b, cur.expansions);
	carc_buf_printf(b, ",\"edition\":%d,\"turn\":%d,\"bonus\":%s,\"toMove\":%d,\"over\":%s,\"final\":%s,\"moves\":%zu,\"drawn\":",
			m->res.edition, number, bonus ? "true" : "false", to_move, carc_match_over(m) ? "true" : "false",
			carc_match_final(m) ? "true" : "false", nplayed);
	const char *drawn = carc_match_drawn(m);
	if (drawn)
		carc_json_cstr(b, drawn);
	else
		carc_buf_adds(b, "null");
	carc_buf_printf(b, ",\"supplyLeft\":%d,\"supply\":[", carc_match_supply_left(m));
	int k = 0;
	bool from_bonus = bonus && ts->bonus_total > 0;
	for (int i = 0; i < ts->ntiles; i++) {
		int left = carc_game_tiles_left(m->g, i);
		if (!ts->tiles[i].count)
			continue;
		carc_buf_printf(b, "%s{\"id\":", k++ ? "," : "");
		carc_json_cstr(b, ts->tiles[i].id);
		carc_buf_printf(b, ",\"left\":%d,\"bonus\":%s,\"now\":%s}", left, ts->tiles[i].bonus ? "true" : "false",
				left > 0 && !ts->tiles[i].bonus == !from_bonus && may_draw(m, i) ? "true" : "false");
	}
	carc_buf_adds(b, "],\"board\":[");
	size_t np, nf;
	const struct carc_placement *pl = carc_game_placements(m->g, &np);
	for (size_t i = 0; i < np; i++) {
		carc_buf_printf(b, "%s{\"id\":", i ? "," : "");
		carc_json_cstr(b, ts->tiles[pl[i].tile].id);
		carc_buf_printf(b, ",\"x\":%d,\"y\":%d,\"rotation\":%d,\"turn\":%u}", (int)pl[i].x, (int)pl[i].y,
				pl[i].rot * 90, pl[i].turn);
	}
	carc_buf_adds(b, "],\"figures\":[");
	const struct carc_follower *fl = carc_game_followers(m->g, &nf);
	const struct carc_ruleset *rs = carc_game_rules(m->g);
	k = 0;
	for (size_t i = 0; i < nf; i++) {
		if (!fl[i].active)
			continue;
		carc_buf_printf(b, "%s{\"colour\":\"%s\",\"role\":", k++ ? "," : "", carc_colour_name(fl[i].colour));
		carc_json_cstr(b, fl[i].role < rs->nroles ? rs->roles[fl[i].role].name : "");
		carc_buf_printf(b, ",\"x\":%d,\"y\":%d,\"spot\":\"%s\"}", (int)pl[fl[i].placement].x,
				(int)pl[fl[i].placement].y, carc_spot_name(fl[i].spot));
	}
	carc_buf_adds(b, "],\"last\":");
	if (m->res.nturns) {
		const struct carc_turn *t = &m->res.turns[m->res.nturns - 1];
		carc_buf_printf(b, "{\"turn\":%u,\"bonus\":%s,\"colour\":\"%s\",\"move\":", t->number,
				t->bonus ? "true" : "false", carc_colour_name(t->colour));
		carc_json_cstr(b, nplayed ? played[nplayed - 1] : "");
		carc_buf_adds(b, ",\"events\":");
		events_json(b, m, t->first_event, t->nevents);
		carc_buf_adds(b, "}");
	} else {
		carc_buf_adds(b, "null");
	}
	carc_buf_adds(b, ",\"finalEvents\":");
	if (m->res.final_scored) {
		size_t nev;
		carc_game_events(m->g, &nev);
		events_json(b, m, m->res.final_first_event, nev - m->res.final_first_event);
	} else {
		carc_buf_adds(b, "[]");
	}
	/* the players last: the projected final replays the game */
	int n = carc_match_nplayers(m);
	int scores[CARC_COLOURS], left[CARC_COLOURS], proj[CARC_COLOURS];
	for (int s = 0; s < n; s++) {
		scores[s] = carc_match_score(m, s);
		left[s] = carc_match_followers_left(m, s);
	}
	for (int s = 0; s < n; s++)
		proj[s] = carc_match_projected(m, s);
	carc_buf_adds(b, ",\"players\":[");
	for (int s = 0; s < n; s++) {
		int c = carc_colour_lookup(carc_match_colour(m, s), strlen(carc_match_colour(m, s)));
		carc_buf_printf(b, "%s{\"colour\":\"%s\",\"name\":", s ? "," : "", carc_match_colour(m, s));
		carc_json_cstr(b, c >= 0 ? cur.names[c] : "");
		carc_buf_printf(b, ",\"score\":%d,\"followers\":%d,\"projected\":%d}", scores[s], left[s], proj[s]);
	}
	carc_buf_adds(b, "]}");
	carc_buf_cstr(b);
	return CARC_OK;
}

/* Appends a tag line, its value escaped as the notation says. */
static void tag_line(struct carc_buf *b, const char *name, const char *value)
{
	carc_buf_printf(b, "[%s \"", name);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			carc_buf_addc(b, '\\');
		if (*p != '\n' && *p != '\r')
			carc_buf_addc(b, *p);
	}
	carc_buf_adds(b, "\"]\n");
}

/* The game as CGN: the library's canonical text with the players' names,
 * the tags kept from a record and the tag lines in the input (the page's
 * clock) after its tags. */
int rec_cgn(size_t len)
{
	if (!game)
		return fail(CARC_ESTATE, "no game");
	size_t n = carc_match_cgn(game, NULL, 0);
	char *text = xmalloc(n + 1);
	carc_match_cgn(game, text, n + 1);
	struct carc_buf extra = {0};
	for (int c = 0; c < CARC_COLOURS; c++)
		if (cur.names[c][0]) {
			char tag[16];
			snprintf(tag, sizeof tag, "%s", carc_colour_name(c));
			tag[0] = (char)(tag[0] - 'a' + 'A');
			tag_line(&extra, tag, cur.names[c]);
		}
	carc_buf_adds(&extra, cur.tags);
	if (in.data && len)
		carc_buf_add(&extra, in.data, len);
	const char *blank = strstr(text, "\n\n");
	size_t at = blank ? (size_t)(blank - text) + 1 : n;
	carc_buf_reset(&out);
	carc_buf_add(&out, text, at);
	carc_buf_add(&out, extra.data, extra.len);
	carc_buf_add(&out, text + at, n - at);
	carc_buf_cstr(&out);
	carc_buf_free(&extra);
	free(text);
	return CARC_OK;
}

/* The pictures of the game's tile types, drawn by svg.c as carc render
 * draws them: a JSON object, tile id to the SVG markup of the tile upright
 * in a 100 x 100 box. */
int rec_tiles(void)
{
	if (!game)
		return fail(CARC_ESTATE, "no game");
	if (api_replay(game, CARC_POSITION_END, NULL) != CARC_OK)
		return fail(CARC_ESTATE, "the game cannot be replayed");
	const struct carc_tileset *ts = game->rec.tileset;
	struct carc_shape_cache *shapes = carc_shape_cache_new(ts);
	struct carc_buf svg = {0};
	carc_buf_reset(&out);
	carc_buf_adds(&out, "{");
	for (int i = 0; i < ts->ntiles; i++) {
		carc_buf_reset(&svg);
		carc_svg_tile(&svg, ts, shapes, i);
		carc_buf_adds(&out, i ? ",\n" : "");
		carc_json_cstr(&out, ts->tiles[i].id);
		carc_buf_adds(&out, ":");
		carc_json_cstr(&out, carc_buf_cstr(&svg));
	}
	carc_buf_adds(&out, "}");
	carc_buf_cstr(&out);
	carc_buf_free(&svg);
	carc_shape_cache_free(shapes);
	return CARC_OK;
}

/* ---- a move tried on a copy: its scores, a solo turn's order ---- */

/* The scoring orders listed in full up to this many features (4! = 24
 * copies of the game played); with more, the page asks for the order the
 * player taps (rec_preview). */
#define ORDERS_LISTED 4

/* The move of the input, its tile the one drawn when it names none; the
 * reason in out when it is not a move. */
static int read_move(carc_move_spec *mv)
{
	if (!game)
		return fail(CARC_ESTATE, "no game");
	if (carc_move_parse(in.data ? in.data : "", mv))
		return fail(CARC_ESYNTAX, "that is not a move as CGN writes it");
	if (!mv->tile[0] && carc_match_drawn(game))
		snprintf(mv->tile, sizeof mv->tile, "%s", carc_match_drawn(game));
	return CARC_OK;
}

/* The game with mv played on a copy, replayed to its end; NULL with the
 * library's message in out when the move is refused. */
static carc_match *try_move(const carc_move_spec *mv)
{
	carc_match *c = carc_match_clone(game);
	if (!c) {
		fail(CARC_ENOMEM, "out of memory");
		return NULL;
	}
	int rc = carc_match_play(c, mv);
	if (!rc)
		rc = api_replay(c, CARC_POSITION_END, NULL);
	if (rc) {
		fail(rc, carc_match_error(c)[0] ? carc_match_error(c) : carc_strerror(rc));
		carc_match_free(c);
		return NULL;
	}
	return c;
}

/* The completed features of the copy's last turn that someone holds (a
 * feature nobody holds pays nobody, and where it comes in an order does
 * not matter), in the order the turn scored them: their events' indexes
 * into ev[], at most max; returns how many. */
static int held_events(carc_match *c, size_t *ev, int max)
{
	const struct carc_turn *t = &c->res.turns[c->res.nturns - 1];
	size_t nev;
	const struct carc_event *evs = carc_game_events(c->g, &nev);
	int n = 0;
	for (size_t i = t->first_event; i < t->first_event + t->nevents && i < nev; i++)
		if (evs[i].type == CARC_EV_COMPLETED && (evs[i].winners | evs[i].skipped) && n < max)
			ev[n++] = i;
	return n;
}

/* How the order names the feature of event e: a spot of the tile placed,
 * or x,y:SPOT for a cloister around it (as the referee writes it). */
static void order_ref(carc_match *c, size_t e, struct carc_buf *b)
{
	const struct carc_turn *t = &c->res.turns[c->res.nturns - 1];
	size_t nev;
	const struct carc_event *evs = carc_game_events(c->g, &nev);
	carc_solo_order_ref(c->g, t->placement, evs[e].feature, b);
}

/* The order the copy's last turn scored its held features in, as the turn
 * line writes it after "order" ("" when fewer than two are held). */
static void order_used(carc_match *c, struct carc_buf *b)
{
	size_t ev[CARC_SOLO_MAX_ITEMS];
	int n = held_events(c, ev, CARC_SOLO_MAX_ITEMS);
	carc_buf_reset(b);
	for (int i = 0; n >= 2 && i < n; i++) {
		if (i)
			carc_buf_addc(b, ' ');
		order_ref(c, ev[i], b);
	}
	carc_buf_cstr(b);
}

/* The outcome of the copy's last turn: "order" (as above), "paid" (the
 * points its events paid in all), "scores" (colour: total after the turn,
 * carc score's running totals), "events" (as rec_state's). */
static void outcome_json(struct carc_buf *b, carc_match *c)
{
	const struct carc_turn *t = &c->res.turns[c->res.nturns - 1];
	size_t nev;
	const struct carc_event *evs = carc_game_events(c->g, &nev);
	struct carc_buf ord = {0};
	order_used(c, &ord);
	carc_buf_adds(b, "{\"order\":");
	carc_json_cstr(b, carc_buf_cstr(&ord));
	int paid = 0;
	for (size_t i = t->first_event; i < t->first_event + t->nevents && i < nev; i++)
		for (int col = 0; col < CARC_COLOURS; col++)
			paid += carc_event_points_of(&evs[i], col);
	carc_buf_printf(b, ",\"paid\":%d,\"scores\":{", paid);
	for (int s = 0; s < c->rec.nseats; s++)
		carc_buf_printf(b, "%s\"%s\":%d", s ? "," : "", carc_colour_name(c->rec.seats[s]),
				t->scores[c->rec.seats[s]]);
	carc_buf_adds(b, "},\"events\":");
	events_json(b, c, t->first_event, t->nevents);
	carc_buf_adds(b, "}");
	carc_buf_free(&ord);
}

/* What the move in the input (as rec_play takes it, "order" and all)
 * would score, played on a copy of the game: rec_play's refusal when it
 * is illegal, else {"move", and outcome_json's fields}. The game is left
 * as it was. */
int rec_preview(size_t len)
{
	(void)len;
	carc_move_spec mv;
	int rc = read_move(&mv);
	if (rc)
		return rc;
	carc_match *c = try_move(&mv);
	if (!c)
		return CARC_EILLEGAL;
	char text[256];
	carc_move_format(&mv, text, sizeof text);
	struct carc_buf b = {0};
	carc_buf_adds(&b, "{\"move\":");
	carc_json_cstr(&b, text);
	carc_buf_adds(&b, ",\"outcome\":");
	outcome_json(&b, c);
	carc_buf_adds(&b, "}");
	carc_buf_reset(&out);
	carc_buf_add(&out, b.data, b.len);
	carc_buf_cstr(&out);
	carc_buf_free(&b);
	carc_match_free(c);
	return CARC_OK;
}

/* The feature of event e as the page shows and lights it: its ref in an
 * order, its name, kind, holders, and the cells it covers with the spots
 * of each that are on it. */
static void held_json(struct carc_buf *b, carc_match *c, size_t e)
{
	size_t nev, np;
	const struct carc_event *ev = &carc_game_events(c->g, &nev)[e];
	const struct carc_placement *pl = carc_game_placements(c->g, &np);
	const struct carc_tileset *ts = c->rec.tileset;
	struct carc_buf t = {0};
	order_ref(c, e, &t);
	carc_buf_adds(b, "{\"ref\":");
	carc_json_cstr(b, carc_buf_cstr(&t));
	carc_buf_reset(&t);
	carc_game_feature_name(c->g, ev->feature, &t);
	carc_buf_adds(b, ",\"feature\":");
	carc_json_cstr(b, carc_buf_cstr(&t));
	carc_buf_adds(b, ",\"kind\":");
	carc_json_cstr(b, ev->kind < ts->nkinds ? ts->kinds[ev->kind].name : "");
	carc_buf_printf(b, ",\"tiles\":%u,\"holders\":[", ev->tiles);
	int k = 0;
	for (int s = 0; s < c->rec.nseats; s++)
		if ((ev->winners | ev->skipped) >> c->rec.seats[s] & 1)
			carc_buf_printf(b, "%s\"%s\"", k++ ? "," : "", carc_colour_name(c->rec.seats[s]));
	carc_buf_adds(b, "],\"cells\":[");
	int n = carc_game_feature_placements(c->g, ev->feature, NULL, 0);
	int *at = xcalloc((size_t)n + 1, sizeof *at);
	n = carc_game_feature_placements(c->g, ev->feature, at, n);
	for (int i = 0; i < n; i++) {
		carc_buf_printf(b, "%s{\"x\":%d,\"y\":%d,\"spots\":[", i ? "," : "", (int)pl[at[i]].x, (int)pl[at[i]].y);
		k = 0;
		for (int sp = 0; sp < CARC_SPOT_COUNT; sp++) {
			int f = carc_game_spot_feature(c->g, at[i], sp);
			if (f != CARC_NO_FEATURE && carc_game_feature_root(c->g, at[i], f) == ev->feature)
				carc_buf_printf(b, "%s\"%s\"", k++ ? "," : "", carc_spot_name(sp));
		}
		carc_buf_adds(b, "]}");
	}
	carc_buf_adds(b, "]}");
	free(at);
	carc_buf_free(&t);
}

/* The next permutation of p[0..n) in lexicographic order; false after
 * the last. */
static bool next_permutation(int *p, int n)
{
	int i = n - 2;
	while (i >= 0 && p[i] >= p[i + 1])
		i--;
	if (i < 0)
		return false;
	int j = n - 1;
	while (p[j] <= p[i])
		j--;
	int t = p[i];
	p[i] = p[j];
	p[j] = t;
	for (int a = i + 1, z = n - 1; a < z; a++, z--) {
		t = p[a];
		p[a] = p[z];
		p[z] = t;
	}
	return true;
}

/* A solo turn's scoring order, for the move in the input (its own order,
 * if any, left out): the completed features that someone holds, in the
 * order that earns the most, as the referee chooses it when no order is
 * written ("features": held_json each; "best": that order as a turn line
 * writes it); and "orders": what each order of them gives (outcome_json,
 * "order" and all), every permutation from the best when there are two to
 * ORDERS_LISTED features, the best alone beyond (the page asks rec_preview
 * for the order tapped). Fewer than two held features, or another rule
 * set than solo: "features" lists them, "orders" is empty, nothing to
 * choose. The game is left as it was. */
int rec_orders(size_t len)
{
	(void)len;
	carc_move_spec mv;
	int rc = read_move(&mv);
	if (rc)
		return rc;
	mv.order[0] = 0;
	carc_match *c = try_move(&mv);
	if (!c)
		return CARC_EILLEGAL;
	bool solo = carc_game_rules(c->g)->flags & CARC_RS_ORDERS;
	size_t ev[CARC_SOLO_MAX_ITEMS];
	int n = solo ? held_events(c, ev, CARC_SOLO_MAX_ITEMS) : 0;
	struct carc_buf b = {0}, best = {0};
	order_used(c, &best);
	carc_buf_adds(&b, "{\"features\":[");
	for (int i = 0; i < n; i++) {
		if (i)
			carc_buf_adds(&b, ",");
		held_json(&b, c, ev[i]);
	}
	carc_buf_adds(&b, "],\"best\":");
	carc_json_cstr(&b, carc_buf_cstr(&best));
	carc_buf_adds(&b, ",\"orders\":[");
	if (n >= 2) {
		char refs[CARC_SOLO_MAX_ITEMS][24];
		for (int i = 0; i < n; i++) {
			struct carc_buf r = {0};
			order_ref(c, ev[i], &r);
			snprintf(refs[i], sizeof refs[i], "%s", carc_buf_cstr(&r));
			carc_buf_free(&r);
		}
		int perm[CARC_SOLO_MAX_ITEMS];
		for (int i = 0; i < n; i++)
			perm[i] = i;
		int k = 0;
		do {
			carc_move_spec mo = mv;
			size_t at = 0;
			for (int i = 0; i < n && at < sizeof mo.order; i++)
				at += (size_t)snprintf(mo.order + at, sizeof mo.order - at, "%s%s", i ? " " : "",
						       refs[perm[i]]);
			if (at >= sizeof mo.order) {
				rc = fail(CARC_EINVAL, "the order is too long to write");
				break;
			}
			carc_match *o = try_move(&mo);
			if (!o) {
				rc = CARC_EILLEGAL;
				break;
			}
			if (k++)
				carc_buf_adds(&b, ",");
			outcome_json(&b, o);
			carc_match_free(o);
		} while (n <= ORDERS_LISTED && next_permutation(perm, n));
	}
	carc_buf_adds(&b, "]}");
	if (!rc) {
		carc_buf_reset(&out);
		carc_buf_add(&out, b.data, b.len);
		carc_buf_cstr(&out);
	}
	carc_buf_free(&b);
	carc_buf_free(&best);
	carc_match_free(c);
	return rc;
}
