/*
 * report.c - the score report's one walk (report.h): what a report holds,
 * in which order, as typed items for the writers (report_doc.c for JSON
 * and YAML, report_text.c for text and CSV).
 *
 * Everything that differs by rule set is in the first section, in small
 * functions: the writers never ask which rules are on.
 */
#include "output/report.h"
#include "notation/gameid.h"

#include <stdlib.h>
#include <string.h>

/* ---- what differs by rule set ---- */

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

/* The breakdown's keys and labels, and which rows text shows even at 0:
 * the sources up to farms; in hunters, unfinished features never pay. */
static void breakdown_words(const struct carc_result *res, struct carc_report_breakdown *b)
{
	for (int src = 0; src < CARC_SRC_COUNT; src++) {
		b->key[src] = hunters(res) ? hunters_keys[src] : source_keys[src];
		b->label[src] = hunters(res) ? hunters_names[src] : source_names[src];
		b->always[src] = src <= CARC_SRC_FARM &&
				 !(hunters(res) && (src == CARC_SRC_PLAY_SITE || src >= CARC_SRC_END_PATH));
	}
	if (res->solo)
		b->label[CARC_SRC_OTHER] = "followers left on the map";
	b->has_start = res->rec->rules->id == CARC_RULES_SOLO;
}

/* What ev->pennants counts: pennants in the base game; in Hunters and
 * Gatherers fish (rivers, river systems), mushroom tiles (forests) or game
 * animals left after the tigers (meadows). Plural adds "s" except for fish.
 * And the words before a solo game's last followers. */
static void event_words(const struct carc_result *res, struct carc_report_event *it)
{
	const struct carc_event *ev = it->ev;
	it->lead = ev->type == CARC_EV_SOLO_END ? "a follower left on " : "";
	if (!hunters(res)) {
		it->bonus_one = "pennant", it->bonus_many = "pennants";
	} else if (ev->type == CARC_EV_MEADOW) {
		it->bonus_one = "animal", it->bonus_many = "animals";
	} else if (ev->type == CARC_EV_RIVER_SYSTEM ||
		   res->rec->tileset->kinds[ev->kind].klass == CARC_CLASS_PATH) {
		it->bonus_one = "fish", it->bonus_many = "fish";
	} else {
		it->bonus_one = "mushroom", it->bonus_many = "mushrooms";
	}
}

/* The things a feature of --features counts, by its class: pennants in the
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

/* Solo games: whether the order of the turn's scorings was given or chosen. */
static const char *solo_order(const struct carc_result *res, int turn)
{
	if (!res->solo)
		return NULL;
	switch (carc_solo_order_of(res->solo, turn)) {
	case CARC_SOLO_ORDER_GIVEN:
		return "given";
	case CARC_SOLO_ORDER_CHOSEN:
		return "chosen";
	default:
		return NULL;
	}
}

/* The outcome of a finished report: the winners, or solo's result. */
static void outcome(const struct carc_result *res, struct carc_report_outcome *out)
{
	out->solo = res->solo != NULL;
	out->forced_colour = -1;
	if (!out->final)
		return;
	if (!res->solo) {
		out->winners = carc_result_winners(res);
		return;
	}
	out->result = carc_solo_result(res->solo, &out->last);
	out->end_turn = carc_solo_end(res->solo, &out->forced, &out->forced_colour);
}

/* ---- the walk ---- */

static const char *const event_types[] = {"completed", "incomplete", "farm", "solo-end", "river-system",
					      "meadow"};

/* The walk's state: the writer, and room reused from item to item. */
struct walk {
	const struct carc_report_writer *wr;
	void *w;
	const struct carc_result *res;
	const struct carc_event *events;
	size_t nevents;
	struct carc_buf name, why;
	const struct carc_follower **followers;
	const struct carc_event **feature_events;
};

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
	return o->projected ? &o->projected[step * CARC_COLOURS] : NULL;
}

static void walk_event(struct walk *k, const struct carc_event *ev)
{
	const struct carc_result *res = k->res;
	if (!k->wr->event)
		return;
	struct carc_report_event it = {.ev = ev, .type = event_types[ev->type],
				       .kind = res->rec->tileset->kinds[ev->kind].name};
	carc_buf_reset(&k->name);
	carc_game_feature_name(res->game, ev->feature, &k->name);
	it.feature = carc_buf_cstr(&k->name);
	event_words(res, &it);
	carc_buf_reset(&k->why);
	if (solo_why(res, ev, &k->why))
		it.why = carc_buf_cstr(&k->why);
	k->wr->event(k->w, &it);
}

static void walk_turns(struct walk *k, const struct carc_report_head *h)
{
	const struct carc_record *rec = h->rec;
	if (k->wr->turns_begin)
		k->wr->turns_begin(k->w);
	for (size_t i = 0; i < h->nturns; i++) {
		const struct carc_turn *t = &h->res->turns[i];
		const struct carc_move *m = &rec->moves[t->move];
		struct carc_report_turn it = {.turn = t, .tile = rec->src.text + m->tile_span.off,
					      .tile_len = m->tile_span.len, .x = m->x, .y = m->y,
					      .rotation = m->rot * 90, .order = solo_order(h->res, t->number),
					      .scores = t->scores, .projected = projected_row(h->opts, i + 1)};
		if (!t->discard && m->role >= 0) {
			it.role = rec->rules->roles[m->role].name;
			it.spot = carc_spot_name(m->spot);
			it.role_id = m->role;
			it.spot_id = m->spot;
		}
		if (k->wr->turn_begin)
			k->wr->turn_begin(k->w, &it);
		for (uint32_t e = 0; e < t->nevents; e++)
			walk_event(k, &k->events[t->first_event + e]);
		if (k->wr->turn_end)
			k->wr->turn_end(k->w, &it);
	}
	if (k->wr->turns_end)
		k->wr->turns_end(k->w);
}

static void walk_final(struct walk *k)
{
	const struct carc_result *res = k->res;
	if (k->wr->final_begin)
		k->wr->final_begin(k->w);
	for (size_t e = res->final_first_event; e < k->nevents; e++)
		walk_event(k, &k->events[e]);
	if (k->wr->final_end)
		k->wr->final_end(k->w);
	if (!k->wr->breakdown)
		return;
	struct carc_report_breakdown b = {.total = res->scores};
	breakdown_words(res, &b);
	for (int src = 0; src < CARC_SRC_COUNT; src++)
		for (int c = 0; c < CARC_COLOURS; c++)
			b.points[src][c] = carc_game_points_from(res->game, c, src);
	k->wr->breakdown(k->w, &b);
}

/* The standings: after the last turn shown or, with final scoring, at the
 * end. Before any turn they are where the track starts (0, or the solo
 * starting positions). */
static void walk_standings(struct walk *k, const struct carc_report_head *h)
{
	const struct carc_result *res = h->res;
	int start[CARC_COLOURS];
	struct carc_report_standings s = {.after_turn = h->nturns ? res->turns[h->nturns - 1].number : 0};
	if (res->refereed) {
		if (!h->opts->turn && res->final_scored) {
			s.scores = res->scores;
		} else if (h->nturns) {
			s.scores = res->turns[h->nturns - 1].scores;
		} else {
			for (int c = 0; c < CARC_COLOURS; c++)
				start[c] = carc_game_points_from(res->game, c, CARC_SRC_START);
			s.scores = start;
		}
		s.projected = projected_row(h->opts, h->nturns);
	}
	if (k->wr->standings)
		k->wr->standings(k->w, &s);
}

/* Does follower f stand on the feature with this root? */
static bool stands_on(struct carc_game *g, const struct carc_placement *pl, const struct carc_follower *f,
		      uint32_t root)
{
	return carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0)) == root;
}

static void walk_feature(void *ctx, uint32_t root)
{
	struct walk *k = ctx;
	const struct carc_result *res = k->res;
	struct carc_game *g = res->game;
	int kind = carc_game_feature_kind(g, root);
	int cells[1024];
	struct carc_report_count counts[8];
	struct carc_report_feature f = {.kind = res->rec->tileset->kinds[kind].name,
					.complete = carc_game_feature_complete(g, root), .cells = cells,
					.counts = counts, .followers = k->followers, .events = k->feature_events};
	carc_buf_reset(&k->name);
	carc_game_feature_name(g, root, &k->name);
	f.name = carc_buf_cstr(&k->name);
	f.ntiles = carc_game_feature_placements(g, root, cells, 1024);
	f.ncells = f.ntiles < 1024 ? f.ntiles : 1024;
	for (const struct feature_item *it = feature_items(res, kind); it->key; it++)
		counts[f.ncounts++] = (struct carc_report_count){it->key, it->one, carc_game_feature_attr(g, root, it->attr)};
	size_t np, nf;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	for (size_t i = 0; i < nf; i++)
		if (stands_on(g, pl, &fl[i], root))
			k->followers[f.nfollowers++] = &fl[i];
	for (size_t i = 0; i < k->nevents; i++)
		if (k->events[i].feature == root)
			k->feature_events[f.nevents++] = &k->events[i];
	k->wr->feature(k->w, &f);
}

static void walk_features(struct walk *k)
{
	size_t nf;
	carc_game_followers(k->res->game, &nf);
	k->followers = xcalloc(nf + 1, sizeof *k->followers);
	k->feature_events = xcalloc(k->nevents + 1, sizeof *k->feature_events);
	if (k->wr->features_begin)
		k->wr->features_begin(k->w);
	carc_game_each_feature(k->res->game, walk_feature, k);
	if (k->wr->features_end)
		k->wr->features_end(k->w);
	free(k->followers);
	free(k->feature_events);
}

void carc_report_walk(const struct carc_result *res, const struct carc_report_opts *o,
		      const struct carc_report_writer *wr, void *w)
{
	const struct carc_record *rec = res->rec;
	struct walk k = {.wr = wr, .w = w, .res = res};
	if (res->game && res->refereed)
		k.events = carc_game_events(res->game, &k.nevents);
	char id[CARC_GAME_ID_HEX + 1];
	struct carc_report_head h = {.res = res, .rec = rec, .opts = o,
				     .id = carc_game_id_hex(carc_game_id(rec), id),
				     .final = res->final_scored && !o->turn, .nturns = shown_turns(res, o)};
	if (wr->head)
		wr->head(w, &h);
	walk_turns(&k, &h);
	if (h.final)
		walk_final(&k);
	walk_standings(&k, &h);
	struct carc_report_outcome out = {.final = h.final};
	outcome(res, &out);
	if (wr->outcome)
		wr->outcome(w, &out);
	if (o->features && res->refereed && wr->feature)
		walk_features(&k);
	if (wr->end)
		wr->end(w);
	carc_buf_free(&k.name);
	carc_buf_free(&k.why);
}
