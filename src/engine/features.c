/*
 * features.c - features as a whole: what stands on them, their names and
 * tiles, followers deployed onto them, when they are complete (with the
 * rule set's closed_complete hook) and their scoring during play.
 */
#include "engine/engine.h"
#include "common/decimal.h"

/* ---- features ---- */

int carc_game_spot_feature(const struct carc_game *g, int placement, int spot)
{
	const struct carc_placement *p = &g->placed[placement];
	const struct carc_tile *t = &g->ts->tiles[p->tile];
	if (spot <= CARC_SPOT_WNW)
		return carc_tile_half(t, p->rot, spot);
	if (spot <= CARC_SPOT_W)
		return carc_tile_edge_feature(t, p->rot, spot - CARC_SPOT_N);
	return spot == CARC_SPOT_C ? t->centre_feature : t->inner_feature;
}

uint32_t carc_game_feature_root(struct carc_game *g, int placement, int feature)
{
	return find(g, g->placed[placement].seg0 + (uint32_t)feature);
}

const uint8_t *carc_game_feature_followers(struct carc_game *g, uint32_t root)
{
	return g->segs[find(g, root)].count;
}

const struct carc_follower *carc_game_feature_occupant(struct carc_game *g, uint32_t root)
{
	root = find(g, root);
	if (!has_followers(&g->segs[root]))
		return NULL;
	/* the first deployed of its followers (huts block only huts: hunters.c) */
	uint32_t h = g->segs[root].fhead - 1, first = h;
	for (uint32_t i = g->fnext[h]; i != h; i = g->fnext[i])
		if (i < first)
			first = i;
	return &g->followers[first];
}

/* carc_game_feature_complete, for a root. */
static inline bool root_complete(const struct carc_game *g, uint32_t root)
{
	const struct seg *s = &g->segs[root];
	if (s->klass == CARC_CLASS_SITE)
		return taken_around(g, &g->placed[s->placement]) == 8;
	/* a path or an enclosure (classes 0 and 1) with no open edge */
	return (s->klass <= CARC_CLASS_ENCLOSURE) & (s->open == 0);
}

/* Whether a closed feature is complete by the rule set's closed_complete
 * hook (true when it sets none for the feature's class). */
static bool closed_complete(struct carc_game *g, uint32_t root)
{
	unsigned klass = g->segs[root].klass;
	for (int k = 0; k < g->nclosed_hooks; k++)
		if (g->closed_classes_of[k] >> klass & 1 && !g->closed_hooks[k](g, root))
			return false; /* complete only when every module says so */
	return true;
}

/* The modules' feature_value hooks in turn, each adjusting the value the
 * one before made (feature_value: the base game's first). */
int carc_engine_adjust_value(struct carc_game *g, uint32_t root, int tiles, bool complete, int value,
			     uint16_t *items)
{
	for (int k = 0; k < g->nvalue_hooks; k++)
		value = g->value_hooks[k](g, root, tiles, complete, value, items);
	return value;
}

void carc_engine_score_event(struct carc_game *g, struct carc_event *ev)
{
	for (int k = 0; k < g->nevent_hooks; k++)
		g->event_hooks[k](g, ev);
}

bool carc_game_feature_complete(struct carc_game *g, uint32_t root)
{
	root = find(g, root);
	return root_complete(g, root) && (!g->closed_hook || closed_complete(g, root));
}

/* With a closed_complete hook: takes the features it finds not complete off
 * this turn's completion list and keeps them waiting (unless its no is
 * final: closed_final). */
void carc_engine_settle_pending(struct carc_game *g)
{
	int n = 0;
	for (int i = 0; i < g->npending; i++) {
		uint32_t r = find(g, g->pending[i]);
		if (g->segs[r].scored || closed_complete(g, r)) {
			g->pending[n++] = g->pending[i];
			continue;
		}
		g->segs[r].pending = 0;
		if (g->closed_final)
			continue; /* never complete: nothing to wait for */
		if (g->nwaiting == g->waiting_cap) {
			g->waiting_cap = g->waiting_cap ? 2 * g->waiting_cap : 16;
			g->waiting = xrealloc(g->waiting, g->waiting_cap * sizeof *g->waiting);
		}
		g->waiting[g->nwaiting++] = r;
	}
	g->npending = n;
}

/* After a placement, while features wait (settle_pending): those complete
 * now join the completion list. A closed feature gains no segment, so its
 * root stays its root. */
void carc_engine_recheck_waiting(struct carc_game *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->nwaiting; i++) {
		uint32_t r = g->waiting[i];
		if (!closed_complete(g, r)) {
			g->waiting[n++] = r;
		} else if (!g->segs[r].pending && g->npending < 64) {
			g->segs[r].pending = 1;
			g->pending[g->npending++] = r;
		}
	}
	g->nwaiting = n;
}

int carc_game_feature_kind(const struct carc_game *g, uint32_t root)
{
	return g->segs[root].kind;
}

int carc_game_feature_tiles(struct carc_game *g, uint32_t root)
{
	return count_tiles(g, find(g, root));
}

int carc_game_feature_placements(struct carc_game *g, uint32_t root, int *out, int max)
{
	root = find(g, root);
	next_epoch(g);
	int n = 0;
	uint32_t s = root;
	do {
		uint16_t pl = g->segs[s].placement;
		if (g->stamp[pl] != g->epoch) {
			g->stamp[pl] = g->epoch;
			if (n < max)
				out[n] = pl;
			n++;
		}
		s = g->segs[s].next;
	} while (s != root);
	/* members are in list order: sort the few written */
	int w = n < max ? n : max;
	for (int i = 1; i < w; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

int carc_game_feature_attr(struct carc_game *g, uint32_t root, int attr)
{
	return seg_attr(g, find(g, root), attr);
}

/* The spot by which a segment is named: an edge it crosses, a half-edge it
 * covers, I for an inner area, or C; in board orientation. */
static int segment_spot(const struct carc_game *g, uint32_t s)
{
	const struct seg *sg = &g->segs[s];
	const struct carc_placement *p = &g->placed[sg->placement];
	const struct carc_feature *f = &g->ts->tiles[p->tile].features[sg->feature];
	if (sg->klass == CARC_CLASS_PATH || sg->klass == CARC_CLASS_ENCLOSURE) {
		uint8_t m = carc_rot_edges(f->edges, p->rot);
		for (int e = 0; e < 4; e++)
			if (m & (1u << e))
				return CARC_SPOT_N + e;
	}
	if (sg->klass == CARC_CLASS_AREA) {
		uint8_t m = carc_rot_halves(f->halves, p->rot);
		for (int h = 0; h < 8; h++)
			if (m & (1u << h))
				return h;
		if (f->inner)
			return CARC_SPOT_I;
	}
	return CARC_SPOT_C;
}

void carc_game_feature_name(struct carc_game *g, uint32_t root, struct carc_buf *out)
{
	root = find(g, root);
	uint32_t best = root, s = root;
	do {
		if (g->segs[s].placement < g->segs[best].placement ||
		    (g->segs[s].placement == g->segs[best].placement && s < best))
			best = s;
		s = g->segs[s].next;
	} while (s != root);
	const struct carc_placement *p = &g->placed[g->segs[best].placement];
	/* "the %s at %s of %s (%d,%d)", without printf: once per event of a
	 * report, where printf was a fifth of what score --format json cost */
	carc_buf_adds(out, "the ");
	carc_buf_adds(out, g->ts->kinds[g->segs[best].kind].name);
	carc_buf_adds(out, " at ");
	carc_buf_adds(out, carc_spot_name(segment_spot(g, best)));
	carc_buf_adds(out, " of ");
	carc_buf_adds(out, g->ts->tiles[p->tile].id);
	carc_buf_reserve(out, 4 + 2 * CARC_DECIMAL_MAX);
	char *d = out->data + out->len;
	*d++ = ' ';
	*d++ = '(';
	d = carc_decimal_put(d, p->x);
	*d++ = ',';
	d = carc_decimal_put(d, p->y);
	*d++ = ')';
	*d = '\0';
	out->len = (size_t)(d - out->data);
}

void carc_game_each_feature(struct carc_game *g, carc_feature_fn fn, void *ctx)
{
	for (uint32_t s = 0; s < g->nsegs; s++)
		if (g->segs[s].parent == s)
			fn(ctx, s);
}

/* ---- followers ---- */

void carc_game_deploy(struct carc_game *g, int placement, int feature, int spot, int colour, int role, int turn)
{
	const struct carc_role *r = &g->rules->roles[role];
	if (r->own) {
		/* a supply of its own: what is not on the map */
	} else if (r->hut) {
		if (g->huts[colour] > 0)
			g->huts[colour]--;
	} else if (g->supply[colour] > 0) {
		g->supply[colour]--;
	}
	follower_room(g);
	uint32_t seg = g->placed[placement].seg0 + (uint32_t)feature;
	uint32_t fi = (uint32_t)g->nfollowers++;
	g->followers[fi] = (struct carc_follower){
		(uint8_t)colour, (uint8_t)role, 1, (uint8_t)spot, seg, (uint16_t)turn, (uint16_t)placement};
	if (!r->hut) {
		struct seg *root = &g->segs[find(g, seg)];
		root->count[colour] = (uint8_t)(root->count[colour] + g->role_weight[role]);
		if (!root->fhead) {
			g->fnext[fi] = fi;
		} else {
			g->fnext[fi] = g->fnext[root->fhead - 1];
			g->fnext[root->fhead - 1] = fi;
		}
		root->fhead = fi + 1;
	}
}

/* ---- scoring ---- */

int carc_game_completed(struct carc_game *g, uint32_t *roots, int max)
{
	if (g->closed_hook)
		carc_engine_settle_pending(g);
	int n = 0;
	for (int i = 0; i < g->npending; i++) {
		uint32_t r = find(g, g->pending[i]);
		if (g->segs[r].scored)
			continue;
		if (n < max)
			roots[n] = r;
		n++;
	}
	return n;
}

void carc_game_score_feature(struct carc_game *g, uint32_t root, int turn)
{
	root = find(g, root);
	if (!g->segs[root].scored) {
		reserve_events(g, 1);
		score_feature(g, root, turn, true);
	}
}

void carc_game_score_now(struct carc_game *g, uint32_t root, int turn, int type, int source)
{
	root = find(g, root);
	reserve_events(g, 1);
	score_feature(g, root, turn, false);
	/* score_feature paid as the final scoring does: the points move to
	 * the source asked for */
	struct carc_event *ev = &g->events[g->totals.nevents - 1];
	for (unsigned w = ev->winners; w; w &= w - 1) {
		int c = carc_lowest_bit(w);
		g->from[c][ev->source] -= ev->points;
		g->from[c][source] += ev->points;
	}
	ev->type = (uint8_t)type;
	ev->source = (uint8_t)source;
}

int carc_game_feature_value(struct carc_game *g, uint32_t root)
{
	uint16_t bonus;
	root = find(g, root);
	return feature_value(g, root, carc_game_feature_tiles(g, root), carc_game_feature_complete(g, root), &bonus);
}

int carc_game_score_completed(struct carc_game *g, int turn)
{
	size_t before = g->totals.nevents;
	if (g->closed_hook)
		carc_engine_settle_pending(g);
	reserve_events(g, (size_t)g->npending);
	for (int i = 0; i < g->npending; i++) {
		uint32_t r = find(g, g->pending[i]);
		if (!g->segs[r].scored)
			score_feature(g, r, turn, true);
	}
	g->npending = 0;
	return (int)(g->totals.nevents - before);
}
