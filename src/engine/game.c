/*
 * game.c - a game's life: the engine set up for a tile set and rules (the
 * tables of every tile type and rotation, the rule set's engine hooks read
 * once), the supply, the totals and the accessors. The data structures are
 * described in engine.h.
 */
#include "engine/engine.h"

struct carc_game *carc_game_new(void)
{
	return xcalloc(1, sizeof(struct carc_game));
}

void carc_game_free(struct carc_game *g)
{
	if (!g)
		return;
	free(g->grid);
	free(g->waiting);
	free(g->placed);
	free(g->segs);
	free(g->attrs);
	free(g->templates);
	free(g->tattrs);
	free(g->orient);
	free(g->bumps);
	free(g->left);
	free(g->count0);
	free(g->followers);
	free(g->fnext);
	free(g->borders);
	free(g->events);
	free(g->stamp);
	free(g->mark);
	free(g->edges);
	free(g->farm_of);
	free(g->links);
	free(g->rootmap);
	free(g);
}

/* A copy of the n elements of size bytes at p (NULL for none); lines: on
 * cache lines, as xcalloc_lines allocates. */
static void *dup_array(const void *p, size_t n, size_t size, bool lines)
{
	if (!p)
		return NULL;
	void *q = lines ? xcalloc_lines(n ? n : 1, size) : xmalloc(n ? n * size : 1);
	if (n)
		memcpy(q, p, n * size);
	return q;
}

static size_t ntiles_of(const struct carc_game *g)
{
	return g->ts ? (size_t)g->ts->ntiles : 0;
}

/* Clears the cells of g's tiles and those around them, as size_grid does. */
static void clear_map(struct carc_game *g)
{
	int r = g->radius;
	int x0 = g->min_x - 1 < -r ? -r : g->min_x - 1, x1 = g->max_x + 1 > r ? r : g->max_x + 1;
	int y0 = g->min_y - 1 < -r ? -r : g->min_y - 1, y1 = g->max_y + 1 > r ? r : g->max_y + 1;
	for (int y = y0; y <= y1; y++)
		memset(&g->grid[(x0 + r) + (y + r) * g->dim], 0, (size_t)(x1 - x0 + 1) * sizeof *g->grid);
}

void carc_game_copy(struct carc_game *dst, const struct carc_game *src)
{
	if (dst == src)
		return;
	/* dst's grid is kept when it has the size, cleared where its tiles
	 * were; and its tables of the tile types (templates, orients, bumps,
	 * borders) when they were built for the same tile set and rules */
	struct cell *grid = dst->grid;
	if (grid && dst->dim == src->dim && dst->nplaced) {
		clear_map(dst);
	} else if (grid && dst->dim != src->dim) {
		free(grid);
		grid = NULL;
	}
	if (!grid && src->grid)
		grid = xcalloc(src->grid_cells, sizeof *grid);
	bool same_tables = dst->ts == src->ts && src->ts && dst->templates_for == src->templates_for &&
			   dst->place_checked_by == src->place_checked_by &&
			   dst->place_checked_for == src->place_checked_for &&
			   dst->any_place_checked == src->any_place_checked && dst->templates && dst->orient &&
			   dst->bumps && dst->borders && dst->tattrs;
	struct seg *templates = dst->templates;
	seg_attrs *tattrs = dst->tattrs;
	struct orient *orient = dst->orient;
	struct bumps *bumps = dst->bumps;
	uint16_t *borders = dst->borders;
	if (!same_tables) {
		free(templates);
		free(tattrs);
		free(orient);
		free(bumps);
		free(borders);
	}
	/* the other arrays: dst's own kept when they have the room, and only
	 * what src uses copied into them (the rest is written before it is
	 * read: new segments from the templates, new followers, new events),
	 * but for the stamps and marks, which are compared with the epoch, and
	 * final scoring's scratch, copied whole */
	const struct carc_game old = *dst;
	*dst = *src;
	dst->grid = grid;
#define TAKE(arr, old_cap, cap, used)                                                                     \
	do {                                                                                              \
		dst->arr = old.arr;                                                                       \
		if (!src->arr) {                                                                          \
			free(dst->arr);                                                                   \
			dst->arr = NULL;                                                                  \
			break;                                                                            \
		}                                                                                         \
		if (!dst->arr || (old_cap) < (cap)) {                                                     \
			free(dst->arr);                                                                   \
			dst->arr = xmalloc((cap) ? (cap) * sizeof *dst->arr : 1);                         \
		}                                                                                         \
		if (used)                                                                                 \
			memcpy(dst->arr, src->arr, (used) * sizeof *dst->arr);                            \
	} while (0)
	TAKE(waiting, old.waiting_cap, src->waiting_cap, src->nwaiting);
	TAKE(placed, old.placed_cap, src->placed_cap, src->nplaced);
	TAKE(stamp, old.stamp_cap, src->stamp_cap, src->stamp_cap);
	TAKE(segs, old.segs_cap, src->segs_cap, src->nsegs);
	TAKE(attrs, old.segs_cap, src->segs_cap, src->nsegs);
	TAKE(left, (size_t)old.ntypes, (size_t)src->ntypes, (size_t)src->ntypes);
	TAKE(count0, old.ts ? (size_t)old.ts->ntiles : 0, ntiles_of(src), ntiles_of(src));
	TAKE(followers, old.followers_cap, src->followers_cap, src->nfollowers);
	TAKE(fnext, old.followers_cap, src->followers_cap, src->nfollowers);
	TAKE(events, old.events_cap, src->events_cap, src->totals.nevents);
	TAKE(mark, old.mark_cap, src->mark_cap, src->mark_cap);
	TAKE(edges, old.mark ? old.mark_cap + 1 : 0, src->mark_cap + 1, src->mark_cap + 1);
	TAKE(farm_of, old.mark_cap, src->mark_cap, src->mark_cap);
	TAKE(links, old.links_cap, src->links_cap, src->links_cap);
	TAKE(rootmap, old.rootmap_cap, src->rootmap_cap, src->rootmap_cap);
#undef TAKE
	if (grid && src->nplaced) { /* the cells of src's tiles and those around them */
		int r = src->radius;
		int x0 = src->min_x - 1 < -r ? -r : src->min_x - 1, x1 = src->max_x + 1 > r ? r : src->max_x + 1;
		int y0 = src->min_y - 1 < -r ? -r : src->min_y - 1, y1 = src->max_y + 1 > r ? r : src->max_y + 1;
		for (int y = y0; y <= y1; y++) {
			size_t at = (size_t)(x0 + r) + (size_t)(y + r) * (size_t)src->dim;
			memcpy(&grid[at], &src->grid[at], (size_t)(x1 - x0 + 1) * sizeof *grid);
		}
	}
	size_t ntiles = ntiles_of(src);
	if (same_tables) {
		dst->templates = templates;
		dst->tattrs = tattrs;
		dst->orient = orient;
		dst->bumps = bumps;
		dst->borders = borders;
	} else {
		dst->templates = dup_array(src->templates, ntiles * CARC_MAX_FEATURES, sizeof *src->templates, true);
		dst->tattrs = dup_array(src->tattrs, ntiles * CARC_MAX_FEATURES, sizeof *src->tattrs, false);
		dst->orient = dup_array(src->orient, ntiles * 4, sizeof *src->orient, true);
		dst->bumps = dup_array(src->bumps, ntiles * 4, sizeof *src->bumps, true);
		dst->borders = dup_array(src->borders, ntiles * CARC_MAX_FEATURES, sizeof *src->borders, false);
	}
}

const struct carc_tileset *carc_game_tileset(const struct carc_game *g) { return g->ts; }
const struct carc_ruleset *carc_game_rules(const struct carc_game *g) { return g->rules; }

static const uint8_t popcount4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* The grid for a tile set: cleared where the previous game left tiles (the
 * cells of its tiles and those around them, within its bounds widened by
 * one), made anew when its size changes. */
static void size_grid(struct carc_game *g, const struct carc_tileset *ts)
{
	if (g->grid && g->nplaced) {
		int r = g->radius;
		int x0 = g->min_x - 1 < -r ? -r : g->min_x - 1, x1 = g->max_x + 1 > r ? r : g->max_x + 1;
		int y0 = g->min_y - 1 < -r ? -r : g->min_y - 1, y1 = g->max_y + 1 > r ? r : g->max_y + 1;
		for (int y = y0; y <= y1; y++)
			memset(&g->grid[(x0 + r) + (y + r) * g->dim], 0, (size_t)(x1 - x0 + 1) * sizeof *g->grid);
	}
	int radius = ts->total + ts->bonus_total + 2;
	if (radius != g->radius || !g->grid) {
		free(g->grid);
		g->radius = radius;
		g->dim = 2 * radius + 1;
		g->grid_cells = (size_t)g->dim * (size_t)g->dim;
		g->grid = xcalloc(g->grid_cells, sizeof *g->grid);
		const int step[4] = {g->dim, 1, -g->dim, -1};
		memcpy(g->step, step, sizeof step);
		for (int sl = 0; sl < 12; sl++)
			g->slot_step[sl] = step[sl / 3];
	}
}

/* Room for every placement and segment of a game of the tile set. */
static void size_arrays(struct carc_game *g, const struct carc_tileset *ts)
{
	size_t tiles = (size_t)(ts->total + ts->bonus_total) + 1;
	if (g->placed_cap < tiles) {
		g->placed_cap = tiles;
		g->placed = xrealloc(g->placed, tiles * sizeof *g->placed);
		g->stamp = xrealloc(g->stamp, tiles * sizeof *g->stamp);
		memset(g->stamp + g->stamp_cap, 0, (tiles - g->stamp_cap) * sizeof *g->stamp);
		g->stamp_cap = tiles;
	}
	/* g->stamp keeps the last game's marks: all older than the next epoch. */
	size_t segs = tiles * CARC_MAX_FEATURES;
	if (g->segs_cap < segs) {
		g->segs_cap = segs;
		g->segs = xrealloc(g->segs, segs * sizeof *g->segs);
		g->attrs = xrealloc(g->attrs, segs * sizeof *g->attrs);
	}
	if (g->ntypes < ts->ntiles)
		g->left = xrealloc(g->left, (size_t)ts->ntiles * sizeof *g->left);
	g->ntypes = ts->ntiles;
}

/* A new segment of each feature of each tile type, ready to copy, and the
 * features' attributes and borders. */
static void build_templates(struct carc_game *g, const struct carc_tileset *ts)
{
	free(g->templates);
	g->templates = xcalloc_lines((size_t)ts->ntiles * CARC_MAX_FEATURES, sizeof *g->templates);
	free(g->tattrs);
	g->tattrs = xcalloc((size_t)ts->ntiles * CARC_MAX_FEATURES, sizeof *g->tattrs);
	/* parent and next f: new_segment adds the first segment */
	for (int i = 0; i < ts->ntiles * CARC_MAX_FEATURES; i++)
		g->templates[i].parent = g->templates[i].next = (uint32_t)(i % CARC_MAX_FEATURES);
	for (int i = 0; i < ts->ntiles; i++)
		for (int f = 0; f < ts->tiles[i].nfeatures; f++) {
			const struct carc_feature *tf = &ts->tiles[i].features[f];
			struct seg *s = &g->templates[i * CARC_MAX_FEATURES + f];
			s->feature = (uint8_t)f;
			s->kind = tf->kind;
			s->klass = ts->kinds[tf->kind].klass;
			s->size = 1;
			if (s->klass == CARC_CLASS_PATH || s->klass == CARC_CLASS_ENCLOSURE)
				s->open = (int16_t)popcount4[tf->edges & 15];
			for (int a = 0; a < CARC_MAX_ATTRS; a++) {
				g->tattrs[i * CARC_MAX_FEATURES + f][a] = tf->attr[a];
				s->has_attr |= tf->attr[a] != 0;
			}
		}
	free(g->borders);
	g->borders = xcalloc((size_t)ts->ntiles * CARC_MAX_FEATURES, sizeof *g->borders);
	for (int i = 0; i < ts->ntiles; i++)
		for (int f = 0; f < ts->tiles[i].nfeatures; f++)
			g->borders[i * CARC_MAX_FEATURES + f] = ts->tiles[i].features[f].borders;
}

/* The tables of each tile type and rotation (struct orient). */
static void build_orients(struct carc_game *g, const struct carc_tileset *ts)
{
	free(g->orient);
	g->orient = xcalloc_lines((size_t)ts->ntiles * 4, sizeof *g->orient);
	for (int i = 0; i < ts->ntiles; i++)
		for (int r = 0; r < 4; r++) {
			const struct carc_tile *t = &ts->tiles[i];
			const struct seg *tmpl = &g->templates[i * CARC_MAX_FEATURES];
			struct orient *o = &g->orient[i * 4 + r];
			for (int e = 0; e < 4; e++) {
				uint8_t f = carc_tile_edge_feature(t, r, e);
				bool joins = f != CARC_NO_FEATURE && (tmpl[f].klass == CARC_CLASS_PATH ||
								       tmpl[f].klass == CARC_CLASS_ENCLOSURE);
				o->slot[3 * e] = joins ? f : CARC_NO_FEATURE;
				for (int k = 0; k < 2; k++) {
					f = carc_tile_half(t, r, 2 * e + k);
					o->slot[3 * e + 1 + k] = f != CARC_NO_FEATURE &&
									 tmpl[f].klass == CARC_CLASS_AREA
								 ? f
								 : CARC_NO_FEATURE;
				}
			}
			for (int f = 0; f < t->nfeatures; f++)
				if (tmpl[f].klass == CARC_CLASS_PATH || tmpl[f].klass == CARC_CLASS_ENCLOSURE) {
					o->closing |= (uint16_t)(1u << f);
					o->closes_alone |= tmpl[f].open == 0;
				}
			for (int f = 0; f < t->nfeatures; f++)
				o->any_attr |= tmpl[f].has_attr;
			o->nfeatures = t->nfeatures;
			o->edges = t->rot_edges[r];
			o->bonus = t->bonus;
			for (int sp = 0; sp < CARC_SPOT_COUNT; sp++)
				o->spot[sp] = sp <= CARC_SPOT_WNW ? carc_tile_half(t, r, sp)
					      : sp <= CARC_SPOT_W ? carc_tile_edge_feature(t, r, sp - CARC_SPOT_N)
					      : sp == CARC_SPOT_C ? t->centre_feature : t->inner_feature;
			o->site = t->centre_feature != CARC_NO_FEATURE &&
				  tmpl[t->centre_feature].klass == CARC_CLASS_SITE;
			for (int sl = 0; sl < 12; sl++) {
				int k = sl % 3, oe = (sl / 3 + 2) & 3;
				o->across[sl] = o->slot[3 * oe + (k ? 3 - k : 0)];
			}
		}
}

/* Whether a tile that fits (its edges show the terrains of their
 * neighbours') joins across an edge just where its own slots hold features:
 * so when every edge of a terrain has the same slots (the class of its path
 * or enclosure, or none; areas on both of its halves, or on neither), the
 * neighbour's match. The tile-set rules (tileset_schema.c) seem to make it true of
 * every set; it is checked rather than assumed, and where it fails
 * carc_game_play joins as carc_game_place does. Where every edge of a
 * terrain has one area on both halves (fields), the second half's join
 * would repeat the first's: it is left out of joins. */
static void check_by_terrain(struct carc_game *g, const struct carc_tileset *ts)
{
	uint8_t sig[CARC_MAX_TERRAINS];
	bool twins[CARC_MAX_TERRAINS];
	memset(sig, 0xff, sizeof sig);
	memset(twins, 1, sizeof twins);
	g->by_terrain = true;
	for (int i = 0; i < ts->ntiles; i++)
		for (int e = 0; e < 4; e++) {
			const struct orient *o = &g->orient[i * 4];
			const struct seg *tmpl = &g->templates[i * CARC_MAX_FEATURES];
			uint8_t f = o->slot[3 * e], a = o->slot[3 * e + 1], b = o->slot[3 * e + 2];
			unsigned terr = o->edges >> (8 * e) & 0xff;
			uint8_t mine = (uint8_t)((f != CARC_NO_FEATURE ? 1 + tmpl[f].klass : 0) |
						 (a != CARC_NO_FEATURE) << 2);
			if (terr >= CARC_MAX_TERRAINS || (a != CARC_NO_FEATURE) != (b != CARC_NO_FEATURE)) {
				g->by_terrain = false;
				continue;
			}
			if (sig[terr] == 0xff)
				sig[terr] = mine;
			g->by_terrain &= sig[terr] == mine;
			twins[terr] &= a == b;
		}
	for (int i = 0; i < ts->ntiles * 4; i++) {
		struct orient *o = &g->orient[i];
		for (int sl = 0; sl < 12; sl++) {
			unsigned terr = o->edges >> (8 * (sl / 3)) & 0xff;
			bool twin = sl % 3 == 2 && terr < CARC_MAX_TERRAINS && twins[terr];
			o->joins |= (uint16_t)((o->slot[sl] != CARC_NO_FEATURE && !twin) << sl);
		}
	}
}

/* What a placement of each tile type and rotation adds to the cells around. */
static void build_bumps(struct carc_game *g, const struct carc_tileset *ts)
{
	free(g->bumps);
	g->bumps = xcalloc_lines((size_t)ts->ntiles * 4, sizeof *g->bumps);
	for (int i = 0; i < ts->ntiles * 4; i++) {
		const struct orient *o = &g->orient[i];
		struct bumps *b = &g->bumps[i];
		for (int k = 0; k < 8; k++) {
			b->at[k].around = 1;
			b->at[k].sites_near = o->site;
		}
		/* the cell across edge e needs, at its edge (e + 2) & 3,
		 * 1 + the terrain of edge e: the bytes of asks */
		uint32_t asks = o->edges + 0x01010101u;
		asks = asks << 16 | asks >> 16;
		b->at[BUMP_N].need = asks & 0x00FF0000u; /* north: its south edge */
		b->at[BUMP_E].need = asks & 0xFF000000u; /* east: its west edge */
		b->at[BUMP_S].need = asks & 0x000000FFu; /* south: its north edge */
		b->at[BUMP_W].need = asks & 0x0000FF00u; /* west: its east edge */
	}
}

/* How many tiles of each type the set has: land and bonus tiles. */
static void count_set(struct carc_game *g, const struct carc_tileset *ts)
{
	free(g->count0);
	g->count0 = xmalloc((size_t)ts->ntiles * sizeof *g->count0);
	g->land0 = g->bonus0 = 0;
	for (int i = 0; i < ts->ntiles; i++) {
		g->count0[i] = ts->tiles[i].count;
		if (ts->tiles[i].bonus)
			g->bonus0 += g->count0[i];
		else
			g->land0 += g->count0[i];
	}
}

/* Which kinds each role may stand on (carc_game_play: none for a hut, a
 * role with a supply of its own or one that does not weigh 1, whose
 * deployment it leaves to the caller), what each weighs in majorities,
 * which roles are huts, which return when scored and to which supply. */
static void build_roles(struct carc_game *g, const struct carc_ruleset *rules, const struct carc_tileset *ts)
{
	/* the roles past the rule set's own stand nowhere and weigh 1 */
	memset(g->may_stand, 0, sizeof g->may_stand);
	memset(g->role_weight, 1, sizeof g->role_weight);
	for (int r = 0; r < rules->nroles; r++) {
		/* (and a role that does not weigh 1 in majorities: carc_game_play
		 * counts 1) */
		bool special = rules->roles[r].hut || rules->roles[r].own || rules->roles[r].weight_more;
		g->role_weight[r] = (uint8_t)carc_role_weight(&rules->roles[r]);
		for (int k = 0; !special && k < ts->nkinds; k++) {
			const struct carc_role *role = &rules->roles[r];
			if (!strcmp(role->kinds[0], ts->kinds[k].name) ||
			    (role->kinds[1] && !strcmp(role->kinds[1], ts->kinds[k].name)))
				g->may_stand[r] |= (uint16_t)(1u << k);
		}
	}
	g->hut_roles = g->returning_roles = 0;
	for (int r = 0; r < rules->nroles; r++) {
		const struct carc_role *role = &rules->roles[r];
		if (role->hut)
			g->hut_roles |= (uint16_t)(1u << r);
		if (role->returns && !role->own)
			g->returning_roles |= (uint16_t)(1u << r);
	}
	g->may_stand_rules = rules;
	g->may_stand_for = ts->serial;
}

/* The colours that play, their lanes for majority() and their supplies:
 * once a game, but a game is short: without a branch per colour. */
static void seat(struct carc_game *g, const uint8_t *seats, int nseats, int followers, int huts)
{
	unsigned seated = 0;
	for (int i = 0; i < nseats; i++)
		seated |= 1u << seats[i];
	g->seated = (uint8_t)seated;
	uint64_t lanes = 0;
	for (int c = 0; c < CARC_COLOURS; c++) {
		int in = -(int)(seated >> c & 1); /* all ones when c plays */
		lanes |= (uint64_t)(uint8_t)in << (8 * c);
		g->supply[c] = followers & in;
		g->huts[c] = huts & in;
	}
	g->seated_lanes = lanes;
}

/* The rule set's engine hooks, read once a game: those of each of its
 * modules, in calling order (rules.h engines[]; a module's own table: its
 * engine alone), for the engine to combine (game.h). A hook no module sets
 * costs the base game's path nothing but a test of a field. */
static void read_hooks(struct carc_game *g, const struct carc_ruleset *rules)
{
	const struct carc_engine_hooks *const *list = rules->engines;
	int n = rules->nengines;
	if (!n && rules->engine) {
		list = &rules->engine;
		n = 1;
	}
	g->nvalue_hooks = g->nevent_hooks = g->nclosed_hooks = g->nplace_hooks = 0;
	g->closed_classes = 0;
	g->closed_final = true;
	g->final_hook = NULL;
	for (int k = 0; k < n; k++) {
		const struct carc_engine_hooks *hk = list[k];
		if (hk->feature_value)
			g->value_hooks[g->nvalue_hooks++] = hk->feature_value;
		if (hk->score_event)
			g->event_hooks[g->nevent_hooks++] = hk->score_event;
		if (hk->closed_complete) {
			g->closed_classes_of[g->nclosed_hooks] = hk->closed_classes;
			g->closed_hooks[g->nclosed_hooks++] = hk->closed_complete;
			g->closed_classes |= hk->closed_classes;
			g->closed_final &= hk->closed_final;
		}
		if (hk->check_place)
			g->place_hooks[g->nplace_hooks++] = hk;
		if (hk->score_final)
			g->final_hook = hk->score_final; /* one at most (carc_rules_compose) */
	}
	g->closed_hook = g->nclosed_hooks > 0;
	g->closed_final &= g->closed_hook;
	g->place_hook = g->nplace_hooks > 0;
	g->nwaiting = 0;
	/* the tiles check_place may refuse leave the one-call turn: marked in
	 * their tables (cleared only when a game before marked some; asked
	 * again only for other rules or another tile set) */
	const void *by = g->place_hook ? (const void *)rules : NULL;
	if ((g->any_place_checked || g->place_hook) &&
	    (by != g->place_checked_by || g->place_checked_for != g->ts->serial)) {
		g->place_checked_by = by;
		g->place_checked_for = g->ts->serial;
		g->any_place_checked = false;
		for (int i = 0; i < g->ts->ntiles; i++) {
			bool checked = false;
			for (int k = 0; k < g->nplace_hooks && !checked; k++)
				checked = !g->place_hooks[k]->checks_tile || g->place_hooks[k]->checks_tile(g->ts, i);
			for (int r = 0; r < 4; r++)
				g->orient[i * 4 + r].place_checked = checked;
			g->any_place_checked |= checked;
		}
	}
}

void carc_game_start(struct carc_game *g, const struct carc_tileset *ts, const struct carc_ruleset *rules,
		     int edition, const uint8_t *seats, int nseats, int followers, int huts,
		     int start_tile, int start_rot)
{
	size_grid(g, ts);
	size_arrays(g, ts);
	if (g->templates_for != ts->serial) {
		build_templates(g, ts);
		build_orients(g, ts);
		check_by_terrain(g, ts);
		build_bumps(g, ts);
		count_set(g, ts);
		g->templates_for = ts->serial;
	}
	/* The supply: the whole set but the start tile. */
	memcpy(g->left, g->count0, (size_t)ts->ntiles * sizeof *g->left);
	g->left[start_tile]--;
	g->totals.land_left = g->land0 - !ts->tiles[start_tile].bonus;
	g->bonus_left = g->bonus0 - ts->tiles[start_tile].bonus;
	if (g->may_stand_rules != rules || g->may_stand_for != ts->serial)
		build_roles(g, rules, ts);
	g->ts = ts;
	g->start_tile = start_tile;
	g->rules = rules;
	g->edition = edition;
	seat(g, seats, nseats, followers, huts);
	memset(g->totals.score, 0, sizeof g->totals.score);
	memset(g->from, 0, sizeof g->from);
	g->nplaced = g->nsegs = g->nfollowers = g->totals.nevents = 0;
	g->npending = 0;
	g->table_w = g->table_h = 0;
	g->award = NULL;
	g->award_ctx = NULL;
	read_hooks(g, rules);
	g->min_x = g->max_x = g->min_y = g->max_y = 0;
	carc_game_place(g, start_tile, start_rot, 0, 0, CARC_NO_COLOUR, 0);
}

void carc_game_set_table(struct carc_game *g, int w, int h)
{
	g->table_w = w;
	g->table_h = h;
}

void carc_game_set_award(struct carc_game *g, carc_award_fn fn, void *ctx)
{
	g->award = fn;
	g->award_ctx = ctx;
}

int carc_game_tiles_left(const struct carc_game *g, int tile) { return g->left[tile]; }

int carc_game_tiles_drawn(const struct carc_game *g, int tile)
{
	return g->ts->tiles[tile].count - (tile == g->start_tile) - g->left[tile];
}

int carc_game_supply_left(const struct carc_game *g) { return g->totals.land_left; }
int carc_game_bonus_left(const struct carc_game *g) { return g->bonus_left; }

void carc_game_draw(struct carc_game *g, int tile)
{
	if (g->left[tile] <= 0)
		return;
	g->left[tile]--;
	if (g->ts->tiles[tile].bonus)
		g->bonus_left--;
	else
		g->totals.land_left--;
}

int carc_game_supply(const struct carc_game *g, int colour) { return g->supply[colour]; }
int carc_game_huts(const struct carc_game *g, int colour) { return g->huts[colour]; }
int carc_game_role_supply(const struct carc_game *g, int colour, int role)
{
	const struct carc_role *r = &g->rules->roles[role];
	if (r->hut)
		return g->huts[colour];
	if (!r->own)
		return g->supply[colour];
	/* a supply of its own: the figures of the colour not on the map, of
	 * the role or of any role of its pool (carc_role.pool) */
	int left = (g->seated >> colour & 1) ? r->own : 0;
	if (!r->pool) { /* the role's alone (The Abbot's abbot) */
		for (size_t i = 0; i < g->nfollowers; i++)
			left -= g->followers[i].active && g->followers[i].role == role && g->followers[i].colour == colour;
		return left;
	}
	for (size_t i = 0; i < g->nfollowers; i++) {
		const struct carc_follower *f = &g->followers[i];
		left -= f->active && f->colour == colour && carc_roles_share_supply(r, &g->rules->roles[f->role]);
	}
	return left;
}

int carc_game_score(const struct carc_game *g, int colour) { return g->totals.score[colour]; }
const int *carc_game_scores(const struct carc_game *g) { return g->totals.score; }
int carc_game_points_from(const struct carc_game *g, int colour, int source) { return g->from[colour][source]; }

void carc_game_add_points(struct carc_game *g, int colour, int points, int source)
{
	g->totals.score[colour] += points;
	g->from[colour][source] += points;
}

const struct carc_totals *carc_game_totals(const struct carc_game *g) { return &g->totals; }

const struct carc_event *carc_game_events(const struct carc_game *g, size_t *count)
{
	*count = g->totals.nevents;
	return g->events;
}

const struct carc_placement *carc_game_placements(const struct carc_game *g, size_t *count)
{
	*count = g->nplaced;
	return g->placed;
}

const struct carc_follower *carc_game_followers(const struct carc_game *g, size_t *count)
{
	*count = g->nfollowers;
	return g->followers;
}

struct carc_event *carc_game_add_event(struct carc_game *g)
{
	return new_event(g);
}

uint8_t carc_game_majority(const struct carc_game *g, const uint8_t *count)
{
	uint8_t c8[8] = {0};
	memcpy(c8, count, CARC_COLOURS);
	return majority(c8, g->seated_lanes);
}
