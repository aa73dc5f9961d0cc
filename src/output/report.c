/*
 * report.c - the score report in its three shapes.
 */
#include "output/report.h"
#include "notation/gameid.h"

#include <string.h>

static const char *const source_keys[CARC_SRC_COUNT] = {
	[CARC_SRC_PLAY_PATH] = "roads", [CARC_SRC_PLAY_ENCLOSURE] = "cities", [CARC_SRC_PLAY_SITE] = "cloisters",
	[CARC_SRC_END_PATH] = "roads", [CARC_SRC_END_ENCLOSURE] = "cities", [CARC_SRC_END_SITE] = "cloisters",
	[CARC_SRC_FARM] = "farms", [CARC_SRC_OTHER] = "other", [CARC_SRC_START] = "start"};
static const char *const source_names[CARC_SRC_COUNT] = {
	[CARC_SRC_PLAY_PATH] = "completed roads", [CARC_SRC_PLAY_ENCLOSURE] = "completed cities",
	[CARC_SRC_PLAY_SITE] = "completed cloisters", [CARC_SRC_END_PATH] = "roads at the end",
	[CARC_SRC_END_ENCLOSURE] = "cities at the end", [CARC_SRC_END_SITE] = "cloisters at the end",
	[CARC_SRC_FARM] = "farms", [CARC_SRC_OTHER] = "other", [CARC_SRC_START] = "starting score"};


/* Hunters and Gatherers names the same sources after its own features. */
static const char *const hunters_keys[CARC_SRC_COUNT] = {
	[CARC_SRC_PLAY_PATH] = "rivers", [CARC_SRC_PLAY_ENCLOSURE] = "forests", [CARC_SRC_PLAY_SITE] = "sites",
	[CARC_SRC_END_PATH] = "rivers", [CARC_SRC_END_ENCLOSURE] = "forests", [CARC_SRC_END_SITE] = "sites",
	[CARC_SRC_FARM] = "meadows", [CARC_SRC_OTHER] = "river_systems", [CARC_SRC_START] = "start"};
static const char *const hunters_names[CARC_SRC_COUNT] = {
	[CARC_SRC_PLAY_PATH] = "completed rivers", [CARC_SRC_PLAY_ENCLOSURE] = "completed forests",
	[CARC_SRC_PLAY_SITE] = "completed sites", [CARC_SRC_END_PATH] = "rivers at the end",
	[CARC_SRC_END_ENCLOSURE] = "forests at the end", [CARC_SRC_END_SITE] = "sites at the end",
	[CARC_SRC_FARM] = "meadows (hunters)", [CARC_SRC_OTHER] = "river systems (huts)",
	[CARC_SRC_START] = "starting score"};

const char *carc_report_source_key(int rules, int source)
{
	return (rules == CARC_RULES_HUNTERS ? hunters_keys : source_keys)[source];
}

static bool hunters(const struct carc_result *res) { return res->rec->rules->id == CARC_RULES_HUNTERS; }

static const char *source_key(const struct carc_result *res, int src)
{
	return hunters(res) ? hunters_keys[src] : source_keys[src];
}

/* What ev->pennants counts: pennants in the base game; in Hunters and
 * Gatherers fish (rivers, river systems), mushroom tiles (forests) or game
 * animals left after the tigers (meadows). Singular; plural adds "s" except
 * for fish. */
static const char *bonus_word(const struct carc_result *res, const struct carc_event *ev)
{
	if (!hunters(res))
		return "pennant";
	if (ev->type == CARC_EV_MEADOW)
		return "animal";
	if (ev->type == CARC_EV_RIVER_SYSTEM)
		return "fish";
	return res->rec->tileset->kinds[ev->kind].klass == CARC_CLASS_PATH ? "fish" : "mushroom";
}

static const char *bonus_key(const struct carc_result *res, const struct carc_event *ev)
{
	const char *w = bonus_word(res, ev);
	return !strcmp(w, "pennant") ? "pennants" : !strcmp(w, "fish") ? "fish" : !strcmp(w, "animal") ? "animals"
														: "mushrooms";
}

/* The items a feature of --features lists, by its class: pennants in the
 * base game and solo; in Hunters and Gatherers fish (rivers, lakes), gold
 * and mushrooms (forests), and the animals, fires and shrines of meadows. */
struct feature_item {
	const char *key;  /* its key in JSON and YAML, and its plural in text */
	const char *one;  /* its singular in text */
	int attr;
};
static const struct feature_item base_items[] = {{"pennants", "pennant", CARC_ATTR_PENNANT}, {NULL, NULL, 0}};
static const struct feature_item river_items[] = {{"fish", "fish", CARC_ATTR_FISH}, {NULL, NULL, 0}};
static const struct feature_item forest_items[] = {
	{"gold", "gold nugget", CARC_ATTR_GOLD}, {"mushrooms", "mushroom", CARC_ATTR_MUSHROOM}, {NULL, NULL, 0}};
static const struct feature_item meadow_items[] = {
	{"deer", "deer", CARC_ATTR_DEER},     {"mammoths", "mammoth", CARC_ATTR_MAMMOTH},
	{"aurochs", "aurochs", CARC_ATTR_AUROCHS}, {"tigers", "tiger", CARC_ATTR_TIGER},
	{"fires", "fire", CARC_ATTR_FIRE},     {"shrines", "shrine", CARC_ATTR_SHRINE},
	{NULL, NULL, 0}};
static const struct feature_item no_items[] = {{NULL, NULL, 0}};

static const struct feature_item *feature_items(const struct carc_result *res, int kind)
{
	if (!hunters(res))
		return base_items;
	switch (res->rec->tileset->kinds[kind].klass) {
	case CARC_CLASS_PATH:
	case CARC_CLASS_LAKE:
		return river_items;
	case CARC_CLASS_ENCLOSURE:
		return forest_items;
	case CARC_CLASS_AREA:
		return meadow_items;
	default:
		return no_items;
	}
}

static const char *const event_types[] = {"completed", "incomplete", "farm", "solo-end", "river-system",
					      "meadow"};

/* The feature words of a tile set may differ (river, forest): the breakdown
 * keys name the class; the kinds come from the tile set. */
static const char *kind_name(const struct carc_result *res, int kind)
{
	return res->rec->tileset->kinds[kind].name;
}

static const char *player_name(const struct carc_record *rec, int colour)
{
	return carc_record_tag(rec, CARC_TAG_KNOWN + colour);
}

static void emit_colours(struct carc_emitter *e, const struct carc_record *rec, uint8_t mask)
{
	carc_emit_seq_begin(e);
	for (int s = 0; s < rec->nseats; s++)
		if (mask & (1u << rec->seats[s]))
			carc_emit_str(e, carc_colour_name(rec->seats[s]));
	carc_emit_seq_end(e);
}

static void emit_scores(struct carc_emitter *e, const struct carc_record *rec, const int *scores)
{
	carc_emit_map_begin(e);
	for (int s = 0; s < rec->nseats; s++) {
		carc_emit_key(e, carc_colour_name(rec->seats[s]));
		carc_emit_int(e, scores[rec->seats[s]]);
	}
	carc_emit_map_end(e);
}

/* Solo games: why the event paid or did not ("red is not last: ..."). */
static bool solo_why(const struct carc_result *res, const struct carc_event *ev, struct carc_buf *out)
{
	if (!res->solo)
		return false;
	size_t n;
	const struct carc_event *all = carc_game_events(res->game, &n);
	carc_solo_explain(res->solo, (size_t)(ev - all), out);
	return true;
}

static void emit_event(struct carc_emitter *e, const struct carc_result *res, const struct carc_event *ev)
{
	const struct carc_record *rec = res->rec;
	struct carc_buf name = {0};
	carc_game_feature_name(res->game, ev->feature, &name);
	carc_emit_map_begin(e);
	carc_emit_key(e, "type");
	carc_emit_str(e, event_types[ev->type]);
	carc_emit_key(e, "kind");
	carc_emit_str(e, kind_name(res, ev->kind));
	carc_emit_key(e, "feature");
	carc_emit_str(e, carc_buf_cstr(&name));
	carc_emit_key(e, "tiles");
	carc_emit_int(e, ev->tiles);
	carc_emit_key(e, bonus_key(res, ev));
	carc_emit_int(e, ev->pennants);
	if (ev->type == CARC_EV_FARM) {
		carc_emit_key(e, "cities");
		carc_emit_int(e, ev->cities);
	}
	carc_emit_key(e, "points");
	carc_emit_int(e, ev->points);
	carc_emit_key(e, "followers");
	carc_emit_map_begin(e);
	for (int s = 0; s < rec->nseats; s++)
		if (ev->followers[rec->seats[s]]) {
			carc_emit_key(e, carc_colour_name(rec->seats[s]));
			carc_emit_int(e, ev->followers[rec->seats[s]]);
		}
	carc_emit_map_end(e);
	carc_emit_key(e, "scored");
	emit_colours(e, rec, ev->winners);
	if (ev->skipped) {
		carc_emit_key(e, "not_scored");
		emit_colours(e, rec, ev->skipped);
	}
	carc_buf_reset(&name);
	if (solo_why(res, ev, &name)) {
		carc_emit_key(e, "why");
		carc_emit_str(e, carc_buf_cstr(&name));
	}
	carc_emit_map_end(e);
	carc_buf_free(&name);
}

/* The turns shown: all, or up to o->turn. */
static size_t shown_turns(const struct carc_result *res, const struct carc_report_opts *o)
{
	if (!o->turn)
		return res->nturns;
	size_t n = 0;
	while (n < res->nturns && res->turns[n].number <= o->turn)
		n++;
	return n;
}

/* The projected totals after step k (0: the start, k: turns[k - 1]). */
static const int *projected_row(const struct carc_report_opts *o, size_t step)
{
	return &o->projected[step * CARC_COLOURS];
}

/* The standings: after the last turn shown or, with final scoring, at the
 * end. Before any turn they are where the track starts (0, or the solo
 * starting positions), kept in start[]. */
static const int *standings(const struct carc_result *res, const struct carc_report_opts *o,
			    int start[CARC_COLOURS])
{
	size_t n = shown_turns(res, o);
	if (!o->turn && res->final_scored)
		return res->scores;
	if (n)
		return res->turns[n - 1].scores;
	for (int c = 0; c < CARC_COLOURS; c++)
		start[c] = carc_game_points_from(res->game, c, CARC_SRC_START);
	return start;
}

/* Does follower f stand on the feature with this root? */
static bool stands_on(struct carc_game *g, const struct carc_placement *pl, const struct carc_follower *f,
		      uint32_t root)
{
	return carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0)) == root;
}

struct feature_walk {
	struct carc_emitter *e;
	const struct carc_result *res;
	const struct carc_event *events;
	size_t nevents;
};

static void emit_feature(void *ctx, uint32_t root)
{
	struct feature_walk *w = ctx;
	const struct carc_result *res = w->res;
	const struct carc_record *rec = res->rec;
	struct carc_game *g = res->game;
	struct carc_emitter *e = w->e;
	struct carc_buf name = {0};
	int kind = carc_game_feature_kind(g, root);
	carc_game_feature_name(g, root, &name);
	carc_emit_map_begin(e);
	carc_emit_key(e, "feature");
	carc_emit_str(e, carc_buf_cstr(&name));
	carc_emit_key(e, "kind");
	carc_emit_str(e, kind_name(res, kind));
	carc_emit_key(e, "complete");
	carc_emit_bool(e, carc_game_feature_complete(g, root));
	int cells[1024];
	int n = carc_game_feature_placements(g, root, cells, 1024);
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	carc_emit_key(e, "tiles");
	carc_emit_seq_begin(e);
	for (int i = 0; i < n && i < 1024; i++) {
		char at[64];
		snprintf(at, sizeof at, "%s %d,%d", rec->tileset->tiles[pl[cells[i]].tile].id, pl[cells[i]].x,
			 pl[cells[i]].y);
		carc_emit_str(e, at);
	}
	carc_emit_seq_end(e);
	for (const struct feature_item *it = feature_items(res, kind); it->key; it++) {
		carc_emit_key(e, it->key);
		carc_emit_int(e, carc_game_feature_attr(g, root, it->attr));
	}
	carc_emit_key(e, "followers");
	carc_emit_seq_begin(e);
	size_t nf;
	const struct carc_follower *f = carc_game_followers(g, &nf);
	for (size_t i = 0; i < nf; i++) {
		if (!stands_on(g, pl, &f[i], root))
			continue;
		carc_emit_map_begin(e);
		carc_emit_key(e, "colour");
		carc_emit_str(e, carc_colour_name(f[i].colour));
		carc_emit_key(e, "role");
		carc_emit_str(e, rec->rules->roles[f[i].role].name);
		carc_emit_key(e, "turn");
		carc_emit_int(e, f[i].turn);
		carc_emit_key(e, "on_map");
		carc_emit_bool(e, f[i].active);
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);
	carc_emit_key(e, "scoring");
	carc_emit_seq_begin(e);
	for (size_t i = 0; i < w->nevents; i++) {
		const struct carc_event *ev = &w->events[i];
		if (ev->feature != root)
			continue;
		carc_emit_map_begin(e);
		carc_emit_key(e, "turn");
		if (ev->turn)
			carc_emit_int(e, ev->turn);
		else
			carc_emit_str(e, "final");
		carc_emit_key(e, "points");
		carc_emit_int(e, ev->points);
		carc_emit_key(e, "scored");
		emit_colours(e, rec, ev->winners);
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);
	carc_emit_map_end(e);
	carc_buf_free(&name);
}

void carc_report_doc(struct carc_emitter *e, const struct carc_result *res, const struct carc_report_opts *o)
{
	const struct carc_record *rec = res->rec;
	size_t nev;
	const struct carc_event *events = res->game && res->refereed ? carc_game_events(res->game, &nev) : NULL;
	if (!events)
		nev = 0;

	carc_emit_doc_begin(e);
	carc_emit_map_begin(e);
	carc_emit_key(e, "file");
	carc_emit_str(e, rec->src.name);
	carc_emit_key(e, "game");
	carc_emit_int(e, rec->index);
	carc_emit_key(e, "line");
	carc_emit_int(e, rec->src.base_line);
	carc_emit_key(e, "offset");
	carc_emit_int(e, (long)o->offset);
	char id[CARC_GAME_ID_HEX + 1];
	carc_emit_key(e, "id");
	carc_emit_str(e, carc_game_id_hex(carc_game_id(rec), id));
	carc_emit_key(e, "tags");
	carc_emit_map_begin(e);
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_tag *t = &rec->tags[i];
		carc_emit_keyn(e, rec->src.text + t->name.off, t->name.len);
		carc_emit_strn(e, carc_tag_text(rec, t), t->text_len);
	}
	carc_emit_map_end(e);
	carc_emit_key(e, "rules");
	carc_emit_str(e, rec->rules->name);
	carc_emit_key(e, "tileset");
	if (rec->tileset)
		carc_emit_str(e, rec->tileset->name);
	else
		carc_emit_null(e);
	carc_emit_key(e, "edition");
	carc_emit_int(e, res->edition);
	carc_emit_key(e, "players");
	carc_emit_seq_begin(e);
	for (int s = 0; s < rec->nseats; s++) {
		carc_emit_map_begin(e);
		carc_emit_key(e, "colour");
		carc_emit_str(e, carc_colour_name(rec->seats[s]));
		carc_emit_key(e, "name");
		const char *name = player_name(rec, rec->seats[s]);
		if (name)
			carc_emit_str(e, name);
		else
			carc_emit_null(e);
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);
	carc_emit_key(e, "valid");
	carc_emit_bool(e, res->errors == 0);
	carc_emit_key(e, "errors");
	carc_emit_int(e, res->errors);
	carc_emit_key(e, "warnings");
	carc_emit_int(e, res->warnings);
	carc_emit_key(e, "refereed");
	carc_emit_bool(e, res->refereed);
	carc_emit_key(e, "finished");
	carc_emit_bool(e, res->finished);
	bool final = res->final_scored && !o->turn;
	carc_emit_key(e, "final_scoring");
	carc_emit_bool(e, final);
	if (o->turn) {
		carc_emit_key(e, "after_turn");
		carc_emit_int(e, o->turn);
	}

	size_t nturns = shown_turns(res, o);
	carc_emit_key(e, "turns");
	carc_emit_seq_begin(e);
	for (size_t i = 0; i < nturns; i++) {
		const struct carc_turn *t = &res->turns[i];
		const struct carc_move *m = &rec->moves[t->move];
		carc_emit_map_begin(e);
		carc_emit_key(e, "turn");
		carc_emit_int(e, t->number);
		carc_emit_key(e, "colour");
		carc_emit_str(e, carc_colour_name(t->colour));
		carc_emit_key(e, "tile");
		carc_emit_strn(e, rec->src.text + m->tile_span.off, m->tile_span.len);
		if (t->bonus) {
			carc_emit_key(e, "bonus");
			carc_emit_bool(e, true);
		}
		if (t->discard) {
			carc_emit_key(e, "discard");
			carc_emit_bool(e, true);
		} else {
			carc_emit_key(e, "x");
			carc_emit_int(e, m->x);
			carc_emit_key(e, "y");
			carc_emit_int(e, m->y);
			carc_emit_key(e, "rotation");
			carc_emit_int(e, m->rot * 90);
			carc_emit_key(e, "deploy");
			if (m->role >= 0) {
				carc_emit_map_begin(e);
				carc_emit_key(e, "role");
				carc_emit_str(e, rec->rules->roles[m->role].name);
				carc_emit_key(e, "spot");
				carc_emit_str(e, carc_spot_name(m->spot));
				carc_emit_map_end(e);
			} else {
				carc_emit_null(e);
			}
		}
		carc_emit_key(e, "legal");
		carc_emit_bool(e, !t->illegal);
		if (res->solo && carc_solo_order_of(res->solo, t->number) != CARC_SOLO_ORDER_NONE) {
			carc_emit_key(e, "order");
			carc_emit_str(e, carc_solo_order_of(res->solo, t->number) == CARC_SOLO_ORDER_GIVEN ? "given"
														: "chosen");
		}
		carc_emit_key(e, "scored");
		carc_emit_seq_begin(e);
		for (uint32_t k = 0; k < t->nevents; k++)
			emit_event(e, res, &events[t->first_event + k]);
		carc_emit_seq_end(e);
		carc_emit_key(e, "scores");
		emit_scores(e, rec, t->scores);
		if (o->projected) {
			carc_emit_key(e, "projected");
			emit_scores(e, rec, projected_row(o, i + 1));
		}
		carc_emit_map_end(e);
	}
	carc_emit_seq_end(e);

	if (final) {
		carc_emit_key(e, "final");
		carc_emit_seq_begin(e);
		for (size_t k = res->final_first_event; k < nev; k++)
			emit_event(e, res, &events[k]);
		carc_emit_seq_end(e);
		carc_emit_key(e, "breakdown");
		carc_emit_map_begin(e);
		for (int s = 0; s < rec->nseats; s++) {
			int c = rec->seats[s];
			carc_emit_key(e, carc_colour_name(c));
			carc_emit_map_begin(e);
			carc_emit_key(e, "play");
			carc_emit_map_begin(e);
			for (int src = CARC_SRC_PLAY_PATH; src <= CARC_SRC_PLAY_SITE; src++) {
				carc_emit_key(e, source_key(res, src));
				carc_emit_int(e, carc_game_points_from(res->game, c, src));
			}
			carc_emit_map_end(e);
			carc_emit_key(e, "end");
			carc_emit_map_begin(e);
			for (int src = CARC_SRC_END_PATH; src <= CARC_SRC_END_SITE; src++) {
				carc_emit_key(e, source_key(res, src));
				carc_emit_int(e, carc_game_points_from(res->game, c, src));
			}
			carc_emit_map_end(e);
			carc_emit_key(e, source_key(res, CARC_SRC_FARM));
			carc_emit_int(e, carc_game_points_from(res->game, c, CARC_SRC_FARM));
			carc_emit_key(e, source_key(res, CARC_SRC_OTHER));
			carc_emit_int(e, carc_game_points_from(res->game, c, CARC_SRC_OTHER));
			if (rec->rules->id == CARC_RULES_SOLO) {
				carc_emit_key(e, "start");
				carc_emit_int(e, carc_game_points_from(res->game, c, CARC_SRC_START));
			}
			carc_emit_key(e, "total");
			carc_emit_int(e, res->scores[c]);
			carc_emit_map_end(e);
		}
		carc_emit_map_end(e);
	}
	int start[CARC_COLOURS];
	const int *sc = res->refereed ? standings(res, o, start) : NULL;
	carc_emit_key(e, "scores");
	if (sc)
		emit_scores(e, rec, sc);
	else
		carc_emit_null(e);
	if (o->projected && res->refereed) {
		carc_emit_key(e, "projected");
		emit_scores(e, rec, projected_row(o, nturns));
	}
	carc_emit_key(e, "winners");
	if (final && !res->solo) {
		emit_colours(e, rec, carc_result_winners(res));
	} else {
		carc_emit_null(e); /* solo: there is a result, not a winner */
	}
	if (res->solo && final) {
		uint8_t last;
		carc_emit_key(e, "result");
		carc_emit_int(e, carc_solo_result(res->solo, &last));
		carc_emit_key(e, "last");
		emit_colours(e, rec, last);
		bool forced = false;
		int who = -1, end = carc_solo_end(res->solo, &forced, &who);
		carc_emit_key(e, "end");
		carc_emit_map_begin(e);
		carc_emit_key(e, "turn");
		carc_emit_int(e, end);
		carc_emit_key(e, "forced");
		carc_emit_bool(e, forced);
		if (forced && who >= 0) {
			carc_emit_key(e, "colour");
			carc_emit_str(e, carc_colour_name(who));
		}
		carc_emit_map_end(e);
	}
	if (o->features && res->refereed) {
		struct feature_walk w = {e, res, events, nev};
		carc_emit_key(e, "features");
		carc_emit_seq_begin(e);
		carc_game_each_feature(res->game, emit_feature, &w);
		carc_emit_seq_end(e);
	}
	carc_emit_map_end(e);
	carc_emit_doc_end(e);
}

/* ---- text ---- */

static const char *const ansi[CARC_COLOURS] = {"\033[31m", "\033[32m", "\033[34m", "\033[33m", "\033[90m",
					       "\033[37m", "\033[35m"};

static void colour_word(struct carc_buf *out, int c, const struct carc_report_opts *o)
{
	if (o->color)
		carc_buf_printf(out, "%s%s\033[0m", ansi[c], carc_colour_name(c));
	else
		carc_buf_adds(out, carc_colour_name(c));
}

/* "city (2 tiles, 1 pennant): green +6" */
static void event_text(struct carc_buf *out, const struct carc_result *res, const struct carc_event *ev,
		       const struct carc_report_opts *o)
{
	const struct carc_record *rec = res->rec;
	if (ev->type == CARC_EV_SOLO_END)
		carc_buf_adds(out, "a follower left on ");
	carc_game_feature_name(res->game, ev->feature, out);
	if (ev->type == CARC_EV_FARM)
		carc_buf_printf(out, " as a farm (%d %s", ev->cities, ev->cities == 1 ? "city" : "cities");
	else
		carc_buf_printf(out, " (%d tile%s", ev->tiles, ev->tiles == 1 ? "" : "s");
	if (ev->pennants) {
		const char *w = bonus_word(res, ev);
		carc_buf_printf(out, ", %d %s%s", ev->pennants, w, ev->pennants == 1 || !strcmp(w, "fish") ? "" : "s");
	}
	carc_buf_adds(out, "): ");
	if (!ev->winners && !ev->skipped) {
		carc_buf_adds(out, "nobody");
		return;
	}
	bool first = true;
	for (int s = 0; s < rec->nseats; s++) {
		int c = rec->seats[s];
		if (!(ev->winners & (1u << c)))
			continue;
		carc_buf_adds(out, first ? "" : ", ");
		colour_word(out, c, o);
		carc_buf_printf(out, " +%d", ev->points);
		first = false;
	}
	for (int s = 0; s < rec->nseats; s++) {
		int c = rec->seats[s];
		if (!(ev->skipped & (1u << c)))
			continue;
		carc_buf_adds(out, first ? "" : ", ");
		colour_word(out, c, o);
		carc_buf_adds(out, " not paid");
		first = false;
	}
	if (res->solo) {
		carc_buf_adds(out, " (");
		solo_why(res, ev, out);
		carc_buf_addc(out, ')');
	}
}

/* The name of a row of the text breakdown. */
static const char *breakdown_label(const struct carc_result *res, int src)
{
	if (res->solo && src == CARC_SRC_OTHER)
		return "followers left on the map";
	return hunters(res) ? hunters_names[src] : source_names[src];
}

static void pad_to(struct carc_buf *out, size_t line_start, size_t col)
{
	while (out->len - line_start < col)
		carc_buf_addc(out, ' ');
}

/* "Projected final after turn 4: red 3, green 6" */
static void projected_line(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o,
			   size_t nturns)
{
	const struct carc_record *rec = res->rec;
	carc_buf_printf(out, "Projected final after turn %d:", nturns ? res->turns[nturns - 1].number : 0);
	for (int s = 0; s < rec->nseats; s++) {
		carc_buf_adds(out, s ? ", " : " ");
		colour_word(out, rec->seats[s], o);
		carc_buf_printf(out, " %d", projected_row(o, nturns)[rec->seats[s]]);
	}
	carc_buf_addc(out, '\n');
}

void carc_report_text(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o)
{
	const struct carc_record *rec = res->rec;
	const char *ev_name = carc_record_tag(rec, CARC_TAG_EVENT), *date = carc_record_tag(rec, CARC_TAG_DATE);
	carc_buf_printf(out, "Game %u of %s", rec->index, rec->src.name);
	if (ev_name)
		carc_buf_printf(out, ": %s", ev_name);
	if (date)
		carc_buf_printf(out, " (%s)", date);
	carc_buf_printf(out, "\nRules %s, edition %d, tile set %s\nPlayers:", rec->rules->name, res->edition,
			rec->tileset ? rec->tileset->name : "?");
	for (int s = 0; s < rec->nseats; s++) {
		const char *name = player_name(rec, rec->seats[s]);
		carc_buf_adds(out, s ? ", " : " ");
		colour_word(out, rec->seats[s], o);
		if (name)
			carc_buf_printf(out, " (%s)", name);
	}
	carc_buf_addc(out, '\n');
	if (!res->refereed) {
		carc_buf_adds(out, "Not refereed: the tags have errors (see the messages).\n");
		return;
	}
	size_t nev;
	const struct carc_event *events = carc_game_events(res->game, &nev);

	/* the per-turn table */
	enum { C_TURN = 0, C_PLAYER = 6, C_TILE = 14, C_AT = 20, C_ROT = 30, C_DEPLOY = 35, C_SCORES = 48 };
	size_t ls = out->len;
	if (o->projected) { /* a line over the two groups of columns */
		carc_buf_addc(out, '\n');
		ls = out->len;
		pad_to(out, ls, C_SCORES + 7 * (size_t)rec->nseats - 5);
		carc_buf_adds(out, "score");
		pad_to(out, ls, C_SCORES + 7 * (size_t)rec->nseats + 2 + 7 * (size_t)rec->nseats - 9);
		carc_buf_adds(out, "projected");
		ls = out->len;
	}
	carc_buf_adds(out, "\n turn");
	ls++;
	pad_to(out, ls, C_PLAYER);
	carc_buf_adds(out, "player");
	pad_to(out, ls, C_TILE);
	carc_buf_adds(out, "tile");
	pad_to(out, ls, C_AT);
	carc_buf_adds(out, "at");
	pad_to(out, ls, C_ROT);
	carc_buf_adds(out, "rot");
	pad_to(out, ls, C_DEPLOY);
	carc_buf_adds(out, "deploy");
	pad_to(out, ls, C_SCORES);
	for (int s = 0; s < rec->nseats; s++)
		carc_buf_printf(out, "%7s", carc_colour_name(rec->seats[s]));
	if (o->projected) {
		carc_buf_adds(out, "  ");
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_printf(out, "%7s", carc_colour_name(rec->seats[s]));
	}
	carc_buf_adds(out, "  scored\n");
	size_t nturns = shown_turns(res, o);
	for (size_t i = 0; i < nturns; i++) {
		const struct carc_turn *t = &res->turns[i];
		const struct carc_move *m = &rec->moves[t->move];
		ls = out->len;
		carc_buf_printf(out, "%4d%s", t->number, t->bonus ? "+" : " ");
		pad_to(out, ls, C_PLAYER);
		size_t before = out->len;
		colour_word(out, t->colour, o);
		ls += out->len - before - strlen(carc_colour_name(t->colour)); /* escapes take no columns */
		pad_to(out, ls, C_TILE);
		carc_buf_add(out, rec->src.text + m->tile_span.off, m->tile_span.len);
		pad_to(out, ls, C_AT);
		if (t->discard) {
			carc_buf_adds(out, "discard");
		} else {
			carc_buf_printf(out, "%d,%d", m->x, m->y);
			pad_to(out, ls, C_ROT);
			carc_buf_printf(out, "%d", m->rot * 90);
			pad_to(out, ls, C_DEPLOY);
			if (m->role >= 0)
				carc_buf_printf(out, "%s %s", rec->rules->roles[m->role].name, carc_spot_name(m->spot));
		}
		pad_to(out, ls, C_SCORES);
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_printf(out, "%7d", t->scores[rec->seats[s]]);
		if (o->projected) {
			carc_buf_adds(out, "  ");
			for (int s = 0; s < rec->nseats; s++)
				carc_buf_printf(out, "%7d", projected_row(o, i + 1)[rec->seats[s]]);
		}
		if (t->illegal)
			carc_buf_adds(out, "  ILLEGAL");
		for (uint32_t k = 0; k < t->nevents; k++) {
			carc_buf_adds(out, k ? "; " : "  ");
			event_text(out, res, &events[t->first_event + k], o);
		}
		if (res->solo && carc_solo_order_of(res->solo, t->number) == CARC_SOLO_ORDER_CHOSEN)
			carc_buf_adds(out, "  [order chosen by carc]");
		carc_buf_addc(out, '\n');
	}

	if (o->turn || !res->final_scored) {
		int start[CARC_COLOURS];
		const int *sc = standings(res, o, start);
		carc_buf_printf(out, "\nStandings after turn %d:", nturns ? res->turns[nturns - 1].number : 0);
		for (int s = 0; s < rec->nseats; s++) {
			carc_buf_adds(out, s ? ", " : " ");
			colour_word(out, rec->seats[s], o);
			carc_buf_printf(out, " %d", sc[rec->seats[s]]);
		}
		carc_buf_addc(out, '\n');
		if (o->projected)
			projected_line(out, res, o, nturns);
		if (!o->turn)
			carc_buf_adds(out, "No final scoring: the game is unfinished (--final scores it as if it ended here).\n");
		else if (res->finished)
			carc_buf_printf(out, "The game ended on turn %d; its final scoring is shown without --turn.\n",
					res->last_turn);
	} else {
		carc_buf_adds(out, "\nFinal scoring\n");
		if (res->final_first_event == nev)
			carc_buf_adds(out, "  nothing to score\n");
		for (size_t k = res->final_first_event; k < nev; k++) {
			carc_buf_adds(out, "  ");
			event_text(out, res, &events[k], o);
			carc_buf_addc(out, '\n');
		}
		/* the numbers start at column 26, or further when a label of the
		 * rule set needs it (solo's "followers left on the map") */
		size_t col = 26;
		for (int src = 0; src < CARC_SRC_COUNT; src++)
			if (2 + strlen(breakdown_label(res, src)) + 1 > col)
				col = 2 + strlen(breakdown_label(res, src)) + 1;
		carc_buf_adds(out, "\nBreakdown");
		ls = out->len - 9;
		pad_to(out, ls, col);
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_printf(out, "%7s", carc_colour_name(rec->seats[s]));
		carc_buf_addc(out, '\n');
		for (int src = 0; src < CARC_SRC_COUNT; src++) {
			/* the others only when they paid; in hunters, unfinished features never pay */
			bool any = src <= CARC_SRC_FARM && !(hunters(res) && (src == CARC_SRC_PLAY_SITE || src >= CARC_SRC_END_PATH));
			for (int s = 0; s < rec->nseats && !any; s++)
				any = carc_game_points_from(res->game, rec->seats[s], src) != 0;
			if (!any)
				continue;
			ls = out->len;
			carc_buf_printf(out, "  %s", breakdown_label(res, src));
			pad_to(out, ls, col);
			for (int s = 0; s < rec->nseats; s++)
				carc_buf_printf(out, "%7d", carc_game_points_from(res->game, rec->seats[s], src));
			carc_buf_addc(out, '\n');
		}
		ls = out->len;
		carc_buf_adds(out, "  total");
		pad_to(out, ls, col);
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_printf(out, "%7d", res->scores[rec->seats[s]]);
		carc_buf_addc(out, '\n');
		if (res->solo) {
			bool forced = false;
			int who = -1, end = carc_solo_end(res->solo, &forced, &who);
			if (forced && who >= 0) {
				carc_buf_printf(out, "\nThe game ended after turn %d: ", end);
				colour_word(out, who, o);
				carc_buf_adds(out, " had to deploy a follower and had none left.\n");
			}
			uint8_t last;
			int result = carc_solo_result(res->solo, &last);
			carc_buf_printf(out, "\nResult: %d (the score of the colour last on the track: ", result);
			bool first = true;
			for (int s = 0; s < rec->nseats; s++)
				if (last & (1u << rec->seats[s])) {
					carc_buf_adds(out, first ? "" : ", ");
					colour_word(out, rec->seats[s], o);
					first = false;
				}
			carc_buf_adds(out, ")\n");
		} else {
			uint8_t w = carc_result_winners(res);
			int nw = __builtin_popcount(w);
			carc_buf_adds(out, nw > 1 ? "\nWinners (tied): " : "\nWinner: ");
			bool first = true;
			for (int s = 0; s < rec->nseats; s++)
				if (w & (1u << rec->seats[s])) {
					carc_buf_adds(out, first ? "" : ", ");
					colour_word(out, rec->seats[s], o);
					const char *name = player_name(rec, rec->seats[s]);
					if (name)
						carc_buf_printf(out, " (%s)", name);
					first = false;
				}
			for (int s = 0; s < rec->nseats; s++)
				if (w & (1u << rec->seats[s])) {
					carc_buf_printf(out, " with %d points", res->scores[rec->seats[s]]);
					break;
				}
			carc_buf_addc(out, '\n');
		}
	}
	if (o->features) {
		carc_buf_adds(out, "\nFeatures\n");
		size_t np, nf;
		const struct carc_placement *pl = carc_game_placements(res->game, &np);
		const struct carc_follower *fl = carc_game_followers(res->game, &nf);
		for (size_t p = 0; p < np; p++) {
			const struct carc_tile *tile = &rec->tileset->tiles[pl[p].tile];
			for (int f = 0; f < tile->nfeatures; f++) {
				uint32_t root = carc_game_feature_root(res->game, (int)p, f);
				if (root != pl[p].seg0 + (uint32_t)f)
					continue;
				carc_buf_adds(out, "  ");
				carc_game_feature_name(res->game, root, out);
				int cells[1024];
				int n = carc_game_feature_placements(res->game, root, cells, 1024);
				carc_buf_printf(out, ": %d tile%s", n, n == 1 ? "" : "s");
				for (const struct feature_item *it =
					     feature_items(res, carc_game_feature_kind(res->game, root));
				     it->key; it++) {
					int k = carc_game_feature_attr(res->game, root, it->attr);
					if (k)
						carc_buf_printf(out, ", %d %s", k, k == 1 ? it->one : it->key);
				}
				carc_buf_adds(out, carc_game_feature_complete(res->game, root) ? ", complete" : "");
				/* its followers, in the order they were deployed: "red thief (turn 1, on the map)" */
				bool any = false;
				for (size_t i = 0; i < nf; i++) {
					if (!stands_on(res->game, pl, &fl[i], root))
						continue;
					carc_buf_adds(out, any ? ", " : "; followers: ");
					colour_word(out, fl[i].colour, o);
					carc_buf_printf(out, " %s (turn %d, %s)", rec->rules->roles[fl[i].role].name, fl[i].turn,
							fl[i].active ? "on the map" : "taken off");
					any = true;
				}
				for (size_t k = 0; k < nev; k++)
					if (events[k].feature == root) {
						carc_buf_adds(out, "; ");
						if (events[k].turn)
							carc_buf_printf(out, "turn %d: ", events[k].turn);
						else
							carc_buf_adds(out, "final: ");
						bool first = true;
						for (int s = 0; s < rec->nseats; s++)
							if (events[k].winners & (1u << rec->seats[s])) {
								carc_buf_adds(out, first ? "" : ", ");
								colour_word(out, rec->seats[s], o);
								carc_buf_printf(out, " +%d", events[k].points);
								first = false;
							}
						if (first)
							carc_buf_adds(out, "nobody");
					}
				carc_buf_addc(out, '\n');
			}
		}
	}
}

/* ---- CSV ---- */

static void csv_field(struct carc_buf *out, const char *s, size_t n)
{
	bool quote = false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			quote = true;
	if (!quote) {
		carc_buf_add(out, s, n);
		return;
	}
	carc_buf_addc(out, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			carc_buf_addc(out, '"');
		carc_buf_addc(out, s[i]);
	}
	carc_buf_addc(out, '"');
}

void carc_report_csv_field(struct carc_buf *out, const char *s, size_t n)
{
	csv_field(out, s, n);
}

void carc_report_csv_header(struct carc_buf *out, bool projected)
{
	carc_buf_adds(out, "file,game,line,offset,id,turn,colour,tile,x,y,rotation,deploy,scored");
	for (int c = 0; c < CARC_COLOURS; c++)
		carc_buf_printf(out, ",%s", carc_colour_name(c));
	for (int c = 0; projected && c < CARC_COLOURS; c++)
		carc_buf_printf(out, ",projected_%s", carc_colour_name(c));
	carc_buf_adds(out, "\n");
}

/* The first columns of a row: file,game,line,offset,id (id: the game's, in hex). */
static void csv_game(struct carc_buf *out, const struct carc_record *rec, const struct carc_report_opts *o,
		     const char *id)
{
	csv_field(out, rec->src.name, strlen(rec->src.name));
	carc_buf_printf(out, ",%u,%u,%llu,%s", rec->index, rec->src.base_line, (unsigned long long)o->offset, id);
}

static void csv_scores(struct carc_buf *out, const struct carc_record *rec, const int *scores,
		       const struct carc_report_opts *o, const int *projected)
{
	for (int group = 0; group < (o->projected ? 2 : 1); group++) {
		const int *v = group ? projected : scores;
		for (int c = 0; c < CARC_COLOURS; c++) {
			bool seated = false;
			for (int s = 0; s < rec->nseats; s++)
				seated |= rec->seats[s] == c;
			if (seated && v)
				carc_buf_printf(out, ",%d", v[c]);
			else
				carc_buf_addc(out, ',');
		}
	}
	carc_buf_addc(out, '\n');
}

void carc_report_csv(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o)
{
	const struct carc_record *rec = res->rec;
	if (!res->refereed)
		return;
	size_t nev;
	const struct carc_event *events = carc_game_events(res->game, &nev);
	struct carc_report_opts plain = *o;
	plain.color = false;
	struct carc_buf cell = {0};
	char id[CARC_GAME_ID_HEX + 1];
	carc_game_id_hex(carc_game_id(rec), id);
	size_t nturns = shown_turns(res, o);
	for (size_t i = 0; i < nturns; i++) {
		const struct carc_turn *t = &res->turns[i];
		const struct carc_move *m = &rec->moves[t->move];
		csv_game(out, rec, o, id);
		carc_buf_printf(out, ",%d%s,%s,", t->number, t->bonus ? "+" : "", carc_colour_name(t->colour));
		csv_field(out, rec->src.text + m->tile_span.off, m->tile_span.len);
		if (t->discard) /* no x, y or rotation; "discard" in deploy */
			carc_buf_adds(out, ",,,,discard,");
		else if (m->role >= 0)
			carc_buf_printf(out, ",%d,%d,%d,%s %s,", m->x, m->y, m->rot * 90, rec->rules->roles[m->role].name,
					carc_spot_name(m->spot));
		else
			carc_buf_printf(out, ",%d,%d,%d,,", m->x, m->y, m->rot * 90);
		carc_buf_reset(&cell);
		for (uint32_t k = 0; k < t->nevents; k++) {
			carc_buf_adds(&cell, k ? "; " : "");
			event_text(&cell, res, &events[t->first_event + k], &plain);
		}
		csv_field(out, cell.data ? cell.data : "", cell.len);
		csv_scores(out, rec, t->scores, o, o->projected ? projected_row(o, i + 1) : NULL);
	}
	if (res->final_scored && !o->turn) {
		for (size_t k = res->final_first_event; k < nev; k++) {
			csv_game(out, rec, o, id);
			carc_buf_adds(out, ",final,,,,,,,");
			carc_buf_reset(&cell);
			event_text(&cell, res, &events[k], &plain);
			csv_field(out, cell.data, cell.len);
			csv_scores(out, rec, NULL, o, NULL);
		}
		csv_game(out, rec, o, id);
		carc_buf_adds(out, ",total,,,,,,,");
		csv_scores(out, rec, res->scores, o, NULL);
	}
	carc_buf_free(&cell);
}
