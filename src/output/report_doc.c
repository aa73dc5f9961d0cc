/*
 * report_doc.c - the score report as a JSON or YAML document: a writer of
 * the walk (report.h) onto an emitter (emit.h). Keys are made once (the
 * literal ones by the compiler, the colours' per game), so that writing one
 * is a copy.
 */
#include "output/report.h"

#include "common/json.h"

#include <string.h>

/* A key made when first needed, for a game. */
struct slot {
	bool tried, made;
	struct carc_key k;
};

struct doc {
	struct carc_emitter *e;
	const struct carc_report_head *h;
	const struct carc_record *rec;
	/* the colours, and the words of a game's turns and events, by their indexes */
	struct slot colour[CARC_COLOURS], spot[CARC_SPOT_COUNT], role[CARC_MAX_ROLES], kind[CARC_MAX_KINDS], type[CARC_EV_KINDS], bonus,
		source[CARC_SRC_COUNT];
	const char *bonus_text; /* the text of bonus */
	bool json;              /* JSON, and every seat's colour made as a key: the usual parts of
				   a turn are written in one piece (json_turn_begin) */
};

/* Whether s holds text as a key (made when first needed, once a game). */
static bool slot_ready(struct slot *s, const char *text)
{
	if (!s->tried) {
		s->tried = true;
		s->made = carc_key_make(&s->k, text);
	}
	return s->made;
}

/* text as a key or as a string value, from its slot */
static void slot_text(struct doc *d, struct slot *s, const char *text, bool as_key)
{
	if (slot_ready(s, text))
		carc_emit_k(d->e, &s->k, as_key);
	else if (as_key)
		carc_emit_key(d->e, text);
	else
		carc_emit_str(d->e, text);
}

static void slot_str(struct doc *d, struct slot *s, const char *text) { slot_text(d, s, text, false); }
static void slot_key(struct doc *d, struct slot *s, const char *text) { slot_text(d, s, text, true); }

/* A colour as a key or as a value. */
static void colour_key(struct doc *d, int c) { slot_key(d, &d->colour[c], carc_colour_name(c)); }
static void colour_str(struct doc *d, int c) { slot_str(d, &d->colour[c], carc_colour_name(c)); }

enum { COLOURS_ROOM = 2 + CARC_COLOURS * (1 + sizeof(struct carc_key)) };
static char *json_colours(const struct doc *d, char *p, uint8_t mask);

static void emit_colours(struct doc *d, uint8_t mask)
{
	if (d->json) {
		carc_emit_json_done(d->e, json_colours(d, carc_emit_json_room(d->e, COLOURS_ROOM), mask));
		return;
	}
	carc_emit_seq_begin(d->e);
	for (int s = 0; s < d->rec->nseats; s++)
		if (mask & (1u << d->rec->seats[s]))
			colour_str(d, d->rec->seats[s]);
	carc_emit_seq_end(d->e);
}

/* "red": v */
static void colour_int(struct doc *d, int c, long v)
{
	if (d->colour[c].made) {
		carc_emit_key_int(d->e, &d->colour[c].k, v);
	} else {
		carc_emit_key(d->e, carc_colour_name(c));
		carc_emit_int(d->e, v);
	}
}

/* ---- JSON: a turn's usual parts in one piece ---- */

enum {
	SCORES_ROOM = 2 + CARC_COLOURS * (1 + sizeof(struct carc_key) + CARC_DECIMAL_MAX),
	TURN_ROOM = 320, /* (the pieces of json_turn_begin, each at its widest) */
	TILE_MAX = 8,
};

/* {"red":12,"blue":7} at p, the seats' scores: returns its end. */
static char *json_scores(const struct doc *d, char *p, const int *scores)
{
	*p++ = '{';
	for (int s = 0; s < d->rec->nseats; s++) {
		int c = d->rec->seats[s];
		*p = ',';
		p += s != 0;
		p = carc_json_k(p, &d->colour[c].k, true);
		p = carc_decimal_put(p, scores[c]);
	}
	*p++ = '}';
	return p;
}

/* ["red","blue"] at p, the seats of mask: returns its end. (Every seat is
 * written, and kept or not: no branch on which colours are in mask.) */
static char *json_colours(const struct doc *d, char *p, uint8_t mask)
{
	*p++ = '[';
	bool any = false;
	for (int s = 0; s < d->rec->nseats; s++) {
		int c = d->rec->seats[s];
		bool in = mask >> c & 1;
		char *start = p;
		*p = ',';
		p += any;
		p = carc_json_k(p, &d->colour[c].k, false);
		p = in ? p : start;
		any |= in;
	}
	*p++ = ']';
	return p;
}

/* {"red":1} at p, the seats with a count that is not 0: returns its end. */
static char *json_counts(const struct doc *d, char *p, const uint8_t *count)
{
	*p++ = '{';
	bool any = false;
	for (int s = 0; s < d->rec->nseats; s++) {
		int c = d->rec->seats[s];
		bool in = count[c] != 0;
		char *start = p;
		*p = ',';
		p += any;
		p = carc_json_k(p, &d->colour[c].k, true);
		p = carc_decimal_put(p, count[c]);
		p = in ? p : start;
		any |= in;
	}
	*p++ = '}';
	return p;
}

/* Whether a tile's name goes into JSON as it is (short, printable ASCII,
 * no quote or backslash). */
static bool plain_tile(const char *s, size_t n)
{
	if (n > TILE_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			return false;
	}
	return true;
}

/* A usual turn (no bonus, discard, order or figure taken back; a plain tile name; its words
 * made as keys) up to its opened "scored" list, written at once: the same
 * bytes as doc_turn_begin's calls give. false (nothing written) for any
 * other turn. */
static bool json_turn_begin(struct doc *d, const struct carc_report_turn *it)
{
	const struct carc_turn *t = it->turn;
	if (!d->json || t->bonus || t->discard || it->order || it->recall || !d->colour[t->colour].made ||
	    !plain_tile(it->tile, it->tile_len))
		return false;
	if (it->role && !(slot_ready(&d->role[it->role_id], it->role) && slot_ready(&d->spot[it->spot_id], it->spot)))
		return false;
	struct carc_emitter *e = d->e;
	char *p = carc_emit_json_room(e, TURN_ROOM);
	p = CARC_JSON_LIT(p, "{\"turn\":");
	p = carc_decimal_put(p, t->number);
	p = CARC_JSON_LIT(p, ",\"colour\":");
	p = carc_json_k(p, &d->colour[t->colour].k, false);
	p = CARC_JSON_LIT(p, ",\"tile\":\"");
	for (size_t i = 0; i < it->tile_len; i++)
		*p++ = it->tile[i];
	p = CARC_JSON_LIT(p, "\",\"x\":");
	p = carc_decimal_put(p, it->x);
	p = CARC_JSON_LIT(p, ",\"y\":");
	p = carc_decimal_put(p, it->y);
	p = CARC_JSON_LIT(p, ",\"rotation\":");
	p = carc_decimal_put(p, it->rotation);
	if (it->role) {
		p = CARC_JSON_LIT(p, ",\"deploy\":{\"role\":");
		p = carc_json_k(p, &d->role[it->role_id].k, false);
		p = CARC_JSON_LIT(p, ",\"spot\":");
		p = carc_json_k(p, &d->spot[it->spot_id].k, false);
		*p++ = '}';
	} else {
		p = CARC_JSON_LIT(p, ",\"deploy\":null");
	}
	p = CARC_JSON_LIT(p, ",\"legal\":");
	memcpy(p, t->illegal ? "false" : "true ", 5);
	p += 4 + t->illegal;
	p = CARC_JSON_LIT(p, ",\"scored\":[");
	carc_emit_json_done(e, p);
	e->first = true;
	return true;
}

/* The end of a turn (doc_turn_end) written at once. */
static void json_turn_end(struct doc *d, const struct carc_report_turn *it)
{
	struct carc_emitter *e = d->e;
	char *p = carc_emit_json_tail(e, 2 * SCORES_ROOM + 32);
	p = CARC_JSON_LIT(p, "],\"scores\":");
	p = json_scores(d, p, it->scores);
	if (it->projected) {
		p = CARC_JSON_LIT(p, ",\"projected\":");
		p = json_scores(d, p, it->projected);
	}
	*p++ = '}';
	carc_emit_json_done(e, p);
	e->first = false;
}

enum { EVENT_ROOM = 4 * sizeof(struct carc_key) + 4 * (16 + CARC_DECIMAL_MAX) + 2 * SCORES_ROOM };

/* A usual event (all its words made as keys; nobody skipped, no why) in
 * two pieces around its feature's name: the same bytes as doc_event's
 * calls give. false (nothing written) for any other event. */
static bool json_event(struct doc *d, const struct carc_report_event *it)
{
	const struct carc_event *ev = it->ev;
	if (!d->json || ev->skipped || it->why || (ev->bonus_to & ev->winners) || !slot_ready(&d->type[ev->type & (CARC_EV_KINDS - 1)], it->type) ||
	    !slot_ready(&d->kind[ev->kind], it->kind) || !slot_ready(&d->bonus, it->bonus_many))
		return false;
	struct carc_emitter *e = d->e;
	char *p = carc_emit_json_room(e, EVENT_ROOM);
	p = CARC_JSON_LIT(p, "{\"type\":");
	p = carc_json_k(p, &d->type[ev->type & (CARC_EV_KINDS - 1)].k, false);
	p = CARC_JSON_LIT(p, ",\"kind\":");
	p = carc_json_k(p, &d->kind[ev->kind].k, false);
	p = CARC_JSON_LIT(p, ",\"feature\":");
	carc_emit_json_done(e, p);
	carc_json_cstr(&e->buf, it->feature);
	p = carc_emit_json_tail(e, EVENT_ROOM);
	p = CARC_JSON_LIT(p, ",\"tiles\":");
	p = carc_decimal_put(p, ev->tiles);
	*p++ = ',';
	p = carc_json_k(p, &d->bonus.k, true);
	p = carc_decimal_put(p, ev->items);
	if (ev->type == CARC_EV_FARM) {
		p = CARC_JSON_LIT(p, ",\"cities\":");
		p = carc_decimal_put(p, ev->cities);
	}
	p = CARC_JSON_LIT(p, ",\"points\":");
	p = carc_decimal_put(p, ev->points);
	p = CARC_JSON_LIT(p, ",\"followers\":");
	p = json_counts(d, p, ev->followers);
	p = CARC_JSON_LIT(p, ",\"scored\":");
	p = json_colours(d, p, ev->winners);
	*p++ = '}';
	carc_emit_json_done(e, p);
	e->first = false;
	return true;
}

static void emit_scores(struct doc *d, const int *scores)
{
	if (d->json) {
		carc_emit_json_done(d->e, json_scores(d, carc_emit_json_room(d->e, SCORES_ROOM), scores));
		return;
	}
	carc_emit_map_begin(d->e);
	for (int s = 0; s < d->rec->nseats; s++)
		colour_int(d, d->rec->seats[s], scores[d->rec->seats[s]]);
	carc_emit_map_end(d->e);
}

static void emit_int_field(struct carc_emitter *e, const struct carc_key *k, long v)
{
	carc_emit_key_int(e, k, v);
}

static void emit_str_or_null(struct carc_emitter *e, const struct carc_key *k, const char *s)
{
	carc_emit_keyk(e, k);
	if (s)
		carc_emit_str(e, s);
	else
		carc_emit_null(e);
}

static void doc_players(struct doc *d)
{
	const struct carc_record *rec = d->rec;
	struct carc_emitter *e = d->e;
	carc_emit_keyk(e, CARC_KEY("players"));
	carc_emit_seq_begin(e);
	for (int s = 0; s < rec->nseats; s++) {
		carc_emit_map_begin(e);
		carc_emit_keyk(e, CARC_KEY("colour"));
		colour_str(d, rec->seats[s]);
		emit_str_or_null(e, CARC_KEY("name"), carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[s]));
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);
}

static void doc_head(void *w, const struct carc_report_head *h)
{
	struct doc *d = w;
	const struct carc_record *rec = h->rec;
	const struct carc_result *res = h->res;
	struct carc_emitter *e = d->e;
	d->h = h;
	d->rec = rec;
	memset(d->spot, 0, sizeof d->spot);
	memset(d->role, 0, sizeof d->role);
	memset(d->kind, 0, sizeof d->kind);
	memset(d->type, 0, sizeof d->type);
	memset(d->source, 0, sizeof d->source);
	d->bonus_text = NULL;
	carc_emit_doc_begin(e);
	carc_emit_map_begin(e);
	carc_emit_keyk(e, CARC_KEY("file"));
	carc_emit_str(e, rec->src.name);
	emit_int_field(e, CARC_KEY("game"), rec->index);
	emit_int_field(e, CARC_KEY("line"), rec->src.base_line);
	emit_int_field(e, CARC_KEY("offset"), (long)h->opts->offset);
	carc_emit_keyk(e, CARC_KEY("id"));
	carc_emit_str(e, h->id);
	carc_emit_keyk(e, CARC_KEY("tags"));
	carc_emit_map_begin(e);
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_tag *t = &rec->tags[i];
		carc_emit_keyn(e, rec->src.text + t->name.off, t->name.len);
		carc_emit_strn(e, carc_tag_text(rec, t), t->text_len);
	}
	carc_emit_map_end(e);
	emit_str_or_null(e, CARC_KEY("rules"), rec->rules->name);
	emit_str_or_null(e, CARC_KEY("tileset"), rec->tileset ? rec->tileset->name : NULL);
	emit_int_field(e, CARC_KEY("edition"), res->edition);
	doc_players(d);
	d->json = !e->yaml;
	for (int s = 0; s < rec->nseats; s++)
		d->json &= d->colour[rec->seats[s]].made;
	carc_emit_keyk(e, CARC_KEY("valid"));
	carc_emit_bool(e, res->errors == 0);
	emit_int_field(e, CARC_KEY("errors"), res->errors);
	emit_int_field(e, CARC_KEY("warnings"), res->warnings);
	carc_emit_keyk(e, CARC_KEY("refereed"));
	carc_emit_bool(e, res->refereed);
	if (res->result_only) { /* (only then: the moves were not recorded) */
		carc_emit_keyk(e, CARC_KEY("result_only"));
		carc_emit_bool(e, true);
	}
	carc_emit_keyk(e, CARC_KEY("finished"));
	carc_emit_bool(e, res->finished);
	carc_emit_keyk(e, CARC_KEY("final_scoring"));
	carc_emit_bool(e, h->final);
	if (h->opts->turn)
		emit_int_field(e, CARC_KEY("after_turn"), h->opts->turn);
}

static void doc_seq_begin(void *w, const struct carc_key *k)
{
	struct doc *d = w;
	carc_emit_keyk(d->e, k);
	carc_emit_seq_begin(d->e);
}

static void doc_turns_begin(void *w) { doc_seq_begin(w, CARC_KEY("turns")); }
static void doc_final_begin(void *w) { doc_seq_begin(w, CARC_KEY("final")); }
static void doc_features_begin(void *w) { doc_seq_begin(w, CARC_KEY("features")); }

static void doc_seq_end(void *w)
{
	struct doc *d = w;
	carc_emit_seq_end(d->e);
}

static void doc_turn_begin(void *w, const struct carc_report_turn *it)
{
	struct doc *d = w;
	struct carc_emitter *e = d->e;
	const struct carc_turn *t = it->turn;
	if (json_turn_begin(d, it))
		return;
	carc_emit_map_begin(e);
	emit_int_field(e, CARC_KEY("turn"), t->number);
	if (d->colour[t->colour].made) {
		carc_emit_key_strk(e, CARC_KEY("colour"), &d->colour[t->colour].k);
	} else {
		carc_emit_keyk(e, CARC_KEY("colour"));
		colour_str(d, t->colour);
	}
	carc_emit_keyk(e, CARC_KEY("tile"));
	carc_emit_strn(e, it->tile, it->tile_len);
	if (t->bonus) {
		carc_emit_keyk(e, CARC_KEY("bonus"));
		carc_emit_bool(e, true);
	}
	if (t->discard) {
		carc_emit_keyk(e, CARC_KEY("discard"));
		carc_emit_bool(e, true);
	} else {
		emit_int_field(e, CARC_KEY("x"), it->x);
		emit_int_field(e, CARC_KEY("y"), it->y);
		emit_int_field(e, CARC_KEY("rotation"), it->rotation);
		carc_emit_keyk(e, CARC_KEY("deploy"));
		if (it->role) {
			carc_emit_map_begin(e);
			carc_emit_keyk(e, CARC_KEY("role"));
			slot_str(d, &d->role[it->role_id], it->role);
			carc_emit_keyk(e, CARC_KEY("spot"));
			slot_str(d, &d->spot[it->spot_id], it->spot);
			carc_emit_map_end(e);
		} else {
			carc_emit_null(e);
		}
		if (it->recall) {
			carc_emit_keyk(e, CARC_KEY("return"));
			carc_emit_str(e, it->recall);
		}
	}
	carc_emit_keyk(e, CARC_KEY("legal"));
	carc_emit_bool(e, !t->illegal);
	if (it->order) {
		carc_emit_keyk(e, CARC_KEY("order"));
		carc_emit_str(e, it->order);
	}
	doc_seq_begin(w, CARC_KEY("scored"));
}

/* The rules' tallies (goods tokens): "tallies": {name: {colour: n}}. */
static void emit_tallies(struct doc *d, int n, const char *const *names, const int (*counts)[CARC_COLOURS])
{
	if (!n)
		return;
	carc_emit_keyk(d->e, CARC_KEY("tallies"));
	carc_emit_map_begin(d->e);
	for (int i = 0; i < n; i++) {
		carc_emit_key(d->e, names[i]);
		emit_scores(d, counts[i]);
	}
	carc_emit_map_end(d->e);
}

static void doc_turn_end(void *w, const struct carc_report_turn *it)
{
	struct doc *d = w;
	if (d->json && !it->ntallies) {
		json_turn_end(d, it);
		return;
	}
	carc_emit_seq_end(d->e);
	carc_emit_keyk(d->e, CARC_KEY("scores"));
	emit_scores(d, it->scores);
	if (it->projected) {
		carc_emit_keyk(d->e, CARC_KEY("projected"));
		emit_scores(d, it->projected);
	}
	emit_tallies(d, it->ntallies, it->tally_names, it->tallies);
	carc_emit_map_end(d->e);
}

static void doc_event(void *w, const struct carc_report_event *it)
{
	struct doc *d = w;
	struct carc_emitter *e = d->e;
	const struct carc_event *ev = it->ev;
	if (d->bonus_text != it->bonus_many) { /* (a game has one or a few) */
		d->bonus_text = it->bonus_many;
		d->bonus.tried = false;
	}
	if (json_event(d, it))
		return;
	carc_emit_map_begin(e);
	carc_emit_keyk(e, CARC_KEY("type"));
	slot_str(d, &d->type[ev->type & (CARC_EV_KINDS - 1)], it->type);
	carc_emit_keyk(e, CARC_KEY("kind"));
	slot_str(d, &d->kind[ev->kind], it->kind);
	carc_emit_keyk(e, CARC_KEY("feature"));
	carc_emit_str(e, it->feature);
	emit_int_field(e, CARC_KEY("tiles"), ev->tiles);
	slot_key(d, &d->bonus, it->bonus_many);
	carc_emit_int(e, ev->items);
	if (ev->type == CARC_EV_FARM)
		emit_int_field(e, CARC_KEY("cities"), ev->cities);
	emit_int_field(e, CARC_KEY("points"), ev->points);
	carc_emit_keyk(e, CARC_KEY("followers"));
	carc_emit_map_begin(e);
	for (int s = 0; s < d->rec->nseats; s++)
		if (ev->followers[d->rec->seats[s]])
			colour_int(d, d->rec->seats[s], ev->followers[d->rec->seats[s]]);
	carc_emit_map_end(e);
	carc_emit_keyk(e, CARC_KEY("scored"));
	emit_colours(d, ev->winners);
	if (ev->bonus_to & ev->winners) { /* points more to some winners (The Traders' pig) */
		carc_emit_keyk(e, CARC_KEY("bonus"));
		carc_emit_map_begin(e);
		for (int s = 0; s < d->rec->nseats; s++)
			if ((ev->bonus_to & ev->winners) >> d->rec->seats[s] & 1)
				colour_int(d, d->rec->seats[s], ev->bonus);
		carc_emit_map_end(e);
	}
	if (ev->skipped) {
		carc_emit_keyk(e, CARC_KEY("not_scored"));
		emit_colours(d, ev->skipped);
	}
	if (it->why) {
		carc_emit_keyk(e, CARC_KEY("why"));
		carc_emit_str(e, it->why);
	}
	carc_emit_map_end(e);
}

/* The sources from first to last of the breakdown, as one map. */
static void doc_sources(struct doc *d, const struct carc_report_breakdown *b, int c, int first, int last)
{
	for (int src = first; src <= last; src++) {
		slot_key(d, &d->source[src], b->key[src]);
		carc_emit_int(d->e, b->points[src][c]);
	}
}

static void doc_breakdown(void *w, const struct carc_report_breakdown *b)
{
	struct doc *d = w;
	struct carc_emitter *e = d->e;
	carc_emit_keyk(e, CARC_KEY("breakdown"));
	carc_emit_map_begin(e);
	for (int s = 0; s < d->rec->nseats; s++) {
		int c = d->rec->seats[s];
		colour_key(d, c);
		carc_emit_map_begin(e);
		carc_emit_keyk(e, CARC_KEY("play"));
		carc_emit_map_begin(e);
		doc_sources(d, b, c, CARC_SRC_PLAY_PATH, CARC_SRC_PLAY_SITE);
		carc_emit_map_end(e);
		carc_emit_keyk(e, CARC_KEY("end"));
		carc_emit_map_begin(e);
		doc_sources(d, b, c, CARC_SRC_END_PATH, CARC_SRC_END_SITE);
		carc_emit_map_end(e);
		doc_sources(d, b, c, CARC_SRC_AREA, CARC_SRC_OTHER);
		if (b->has_start)
			doc_sources(d, b, c, CARC_SRC_START, CARC_SRC_START);
		for (int src = CARC_SRC_MODULE; src < CARC_SRC_COUNT; src++)
			if (b->key[src]) /* a source a module of the game declares and names */
				doc_sources(d, b, c, src, src);
		emit_int_field(e, CARC_KEY("total"), b->total[c]);
		carc_emit_map_end(e);
	}
	carc_emit_map_end(e);
}

static void doc_standings(void *w, const struct carc_report_standings *s)
{
	struct doc *d = w;
	carc_emit_keyk(d->e, CARC_KEY("scores"));
	if (s->scores)
		emit_scores(d, s->scores);
	else
		carc_emit_null(d->e);
	if (s->projected) {
		carc_emit_keyk(d->e, CARC_KEY("projected"));
		emit_scores(d, s->projected);
	}
	emit_tallies(d, s->ntallies, s->tally_names, s->tallies);
}

static void doc_outcome(void *w, const struct carc_report_outcome *o)
{
	struct doc *d = w;
	struct carc_emitter *e = d->e;
	carc_emit_keyk(e, CARC_KEY("winners"));
	if (o->final && !o->no_winner)
		emit_colours(d, o->winners);
	else
		carc_emit_null(e); /* no winner: there is a result instead */
	if (!o->no_winner || !o->final)
		return;
	emit_int_field(e, CARC_KEY("result"), o->result);
	carc_emit_keyk(e, CARC_KEY("last"));
	emit_colours(d, o->last);
	carc_emit_keyk(e, CARC_KEY("end"));
	carc_emit_map_begin(e);
	emit_int_field(e, CARC_KEY("turn"), o->end_turn);
	carc_emit_keyk(e, CARC_KEY("forced"));
	carc_emit_bool(e, o->forced);
	if (o->forced && o->forced_colour >= 0) {
		carc_emit_keyk(e, CARC_KEY("colour"));
		colour_str(d, o->forced_colour);
	}
	carc_emit_map_end(e);
}

static void doc_feature_scoring(struct doc *d, const struct carc_report_feature *f)
{
	struct carc_emitter *e = d->e;
	doc_seq_begin(d, CARC_KEY("scoring"));
	for (size_t i = 0; i < f->nevents; i++) {
		const struct carc_event *ev = f->events[i];
		carc_emit_map_begin(e);
		carc_emit_keyk(e, CARC_KEY("turn"));
		if (ev->turn)
			carc_emit_int(e, ev->turn);
		else
			carc_emit_str(e, "final");
		emit_int_field(e, CARC_KEY("points"), ev->points);
		carc_emit_keyk(e, CARC_KEY("scored"));
		emit_colours(d, ev->winners);
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);
}

static void doc_feature(void *w, const struct carc_report_feature *f)
{
	struct doc *d = w;
	struct carc_emitter *e = d->e;
	size_t np;
	const struct carc_placement *pl = carc_game_placements(d->h->res->game, &np);
	carc_emit_map_begin(e);
	carc_emit_keyk(e, CARC_KEY("feature"));
	carc_emit_str(e, f->name);
	carc_emit_keyk(e, CARC_KEY("kind"));
	carc_emit_str(e, f->kind);
	carc_emit_keyk(e, CARC_KEY("complete"));
	carc_emit_bool(e, f->complete);
	doc_seq_begin(d, CARC_KEY("tiles"));
	for (int i = 0; i < f->ncells; i++) {
		const struct carc_placement *p = &pl[f->cells[i]];
		char at[64];
		snprintf(at, sizeof at, "%s %d,%d", d->rec->tileset->tiles[p->tile].id, p->x, p->y);
		carc_emit_str(e, at);
	}
	carc_emit_seq_end(e);
	for (size_t i = 0; i < f->ncounts; i++) {
		carc_emit_key(e, f->counts[i].key);
		carc_emit_int(e, f->counts[i].n);
	}
	doc_seq_begin(d, CARC_KEY("followers"));
	for (size_t i = 0; i < f->nfollowers; i++) {
		const struct carc_follower *fl = f->followers[i];
		carc_emit_map_begin(e);
		carc_emit_keyk(e, CARC_KEY("colour"));
		colour_str(d, fl->colour);
		emit_str_or_null(e, CARC_KEY("role"), d->rec->rules->roles[fl->role].name);
		emit_int_field(e, CARC_KEY("turn"), fl->turn);
		carc_emit_keyk(e, CARC_KEY("on_map"));
		carc_emit_bool(e, fl->active);
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);
	doc_feature_scoring(d, f);
	carc_emit_map_end(e);
}

static void doc_end(void *w)
{
	struct doc *d = w;
	carc_emit_map_end(d->e);
	carc_emit_doc_end(d->e);
}

static const struct carc_report_writer doc_writer = {
	.head = doc_head,
	.turns_begin = doc_turns_begin,
	.turn_begin = doc_turn_begin,
	.event = doc_event,
	.turn_end = doc_turn_end,
	.turns_end = doc_seq_end,
	.final_begin = doc_final_begin,
	.final_end = doc_seq_end,
	.breakdown = doc_breakdown,
	.standings = doc_standings,
	.outcome = doc_outcome,
	.features_begin = doc_features_begin,
	.feature = doc_feature,
	.features_end = doc_seq_end,
	.end = doc_end,
};

void carc_report_doc(struct carc_emitter *e, const struct carc_result *res, const struct carc_report_opts *o)
{
	struct doc d = {.e = e};
	carc_report_walk(res, o, &doc_writer, &d);
}
