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
#include "rules/module.h"

#include <stdlib.h>
#include <string.h>

/* ---- what differs by rule set: the modules' words and hooks ---- */

/* The breakdown's keys and labels, which rows text shows even at 0, and
 * whether the documents give the starting score. */
static void breakdown_words(const struct carc_result *res, struct carc_report_breakdown *b)
{
	const struct carc_record *rec = res->rec;
	unsigned shown = carc_rules_shown_sources(rec);
	for (int src = 0; src < CARC_SRC_COUNT; src++) {
		b->key[src] = carc_rules_game_source_key(rec, src);
		b->label[src] = carc_rules_source_name(rec, src);
		b->always[src] = shown >> src & 1;
	}
	b->has_start = (carc_rules_flags(rec) & CARC_RS_START_SCORES) != 0;
}

/* Why the event paid or did not, when a module says ("red is not last: ..."). */
static bool event_why(const struct carc_result *res, const struct carc_event *ev, struct carc_buf *out)
{
	size_t n;
	const struct carc_event *all = carc_game_events(res->game, &n);
	return carc_result_explain(res, (size_t)(ev - all), out);
}

/* Whether the order of the turn's scorings was given or chosen, when a
 * module keeps one. */
static const char *turn_order(const struct carc_result *res, int turn)
{
	static const char *const how[] = {NULL, "given", "chosen"};
	int h = carc_result_order_of(res, turn);
	return h > 0 && h < 3 ? how[h] : NULL;
}

/* The outcome of a finished report: the winners, or the result of a game
 * with no winner. */
static void outcome(const struct carc_result *res, struct carc_report_outcome *out)
{
	out->no_winner = (carc_rules_flags(res->rec) & CARC_RS_NO_WINNER) != 0;
	out->forced_colour = -1;
	if (!out->final)
		return;
	if (!out->no_winner) {
		out->winners = carc_result_winners(res);
		return;
	}
	out->result = carc_result_game_result(res, &out->last);
	out->end_turn = carc_result_ended(res, &out->forced, &out->forced_colour);
}

void carc_report_rules_words(const struct carc_record *rec, int edition, struct carc_buf *out)
{
	carc_buf_printf(out, "%s rules", rec->rules->name);
	if (rec->rules->id == CARC_RULES_BASE && edition)
		carc_buf_printf(out, ", edition %d", edition);
	for (int i = 0; i < rec->nexpansions; i++)
		carc_buf_printf(out, "%s%s", i == 0 ? ", with " : i + 1 < rec->nexpansions ? ", " : " and ",
				rec->expansions[i]->title);
}

/* ---- the walk ---- */

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
	/* the modules' words for events, looked up once a walk (NULL: not
	 * yet): by event kind, and the item words also by feature kind */
	const char *type_name[CARC_EV_KINDS], *lead[CARC_EV_KINDS];
	const char *item[CARC_EV_KINDS][CARC_MAX_KINDS][2];
	/* the rules' tallies after a turn, or at the end (carc_rules_tallies) */
	const char *tally_names[CARC_MAX_TALLIES];
	int tallies[CARC_MAX_TALLIES][CARC_COLOURS];
};

/* An event's kind, the words before its feature and what ev->items counts
 * (one, more), from the modules' words (carc_rules_*). */
static void event_words(struct walk *k, struct carc_report_event *it)
{
	const struct carc_record *rec = k->res->rec;
	const struct carc_event *ev = it->ev;
	if (ev->type >= CARC_EV_KINDS || ev->kind >= CARC_MAX_KINDS) { /* (none such: kept for safety) */
		it->type = carc_rules_event_name(rec, ev->type);
		it->lead = carc_rules_event_prefix(rec, ev->type);
		it->bonus_one = carc_rules_item_word(rec, ev, false);
		it->bonus_many = carc_rules_item_word(rec, ev, true);
		return;
	}
	if (!k->type_name[ev->type]) {
		k->type_name[ev->type] = carc_rules_event_name(rec, ev->type);
		k->lead[ev->type] = carc_rules_event_prefix(rec, ev->type);
	}
	const char **item = k->item[ev->type][ev->kind];
	if (!item[0]) {
		item[0] = carc_rules_item_word(rec, ev, false);
		item[1] = carc_rules_item_word(rec, ev, true);
	}
	it->type = k->type_name[ev->type];
	it->lead = k->lead[ev->type];
	it->bonus_one = item[0];
	it->bonus_many = item[1];
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
	return o->projected ? &o->projected[step * CARC_COLOURS] : NULL;
}

static void walk_event(struct walk *k, const struct carc_event *ev)
{
	const struct carc_result *res = k->res;
	if (!k->wr->event)
		return;
	struct carc_report_event it = {.ev = ev, .kind = res->rec->tileset->kinds[ev->kind].name};
	carc_buf_reset(&k->name);
	carc_game_feature_name(res->game, ev->feature, &k->name);
	it.feature = carc_buf_cstr(&k->name);
	event_words(k, &it);
	carc_buf_reset(&k->why);
	if (event_why(res, ev, &k->why))
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
					      .rotation = m->rot * 90, .order = turn_order(h->res, t->number),
					      .scores = t->scores, .projected = projected_row(h->opts, i + 1)};
		if (!t->discard && m->role >= 0) {
			it.role = rec->rules->roles[m->role].name;
			it.spot = carc_spot_name(m->spot);
			it.role_id = m->role;
			it.spot_id = m->spot;
		} else if (!t->discard && m->recall >= 0) {
			it.recall = rec->rules->roles[m->recall].name;
		}
		it.ntallies = carc_rules_tallies(rec, h->res->game, t->first_event + t->nevents, k->tally_names,
						 k->tallies, CARC_MAX_TALLIES);
		it.tally_names = k->tally_names;
		it.tallies = (const int(*)[CARC_COLOURS])k->tallies;
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
 * end. Before any turn they are where the track starts (0, or a rule
 * set's starting scores). */
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
		const struct carc_turn *last = h->nturns ? &res->turns[h->nturns - 1] : NULL;
		size_t upto = !h->opts->turn && res->final_scored ? k->nevents
			      : last ? last->first_event + last->nevents : 0;
		s.ntallies = carc_rules_tallies(h->rec, res->game, upto, k->tally_names, k->tallies, CARC_MAX_TALLIES);
		s.tally_names = k->tally_names;
		s.tallies = (const int(*)[CARC_COLOURS])k->tallies;
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
	int klass = res->rec->tileset->kinds[kind].klass;
	for (const struct carc_rules_item *it = carc_rules_feature_items(res->rec, klass); it->key; it++)
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
