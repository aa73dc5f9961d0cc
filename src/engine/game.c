/*
 * game.c - the rules engine: map, features (union-find), followers, scoring.
 *
 * Segments. Feature f of the placement p is segment seg0(p) + f. Each segment
 * has a place in a circular list of the members of its feature, so a
 * feature's tiles can be walked when it is scored, and names its feature's
 * root (parent): when two features merge, the members of the smaller one
 * are renamed, so finding a root is one look-up and a segment is renamed at
 * most log2(segments) times. Only roots carry totals:
 *   open      edges of the feature not yet matched by a neighbour
 *             (paths and enclosures: complete when it reaches 0)
 *   size      segments
 *   attrs     pennants, fish, ... summed: kept beside the segments, in
 *             g->attrs, and only for the features that have any (has_attr),
 *             so that the segments stay 32 bytes
 *   count[c]  followers of colour c on it
 *   fhead     its followers on the map (huts excepted): a circular list
 *             through g->fnext, so scoring lifts them without a search
 * Two segments that meet across an edge are merged and the merged feature's
 * open count drops by 2 (one edge on each side), also when they were already
 * one feature (a road closing a loop).
 *
 * The map is a grid of cells that know, besides the placement on them, what
 * the placements around them ask of them, so that a turn reads the cell it
 * is played on rather than its neighbours: the terrain each edge must have
 * (need), how many of the 8 cells around are taken (around) and whether a
 * site (cloister) is among them (sites_near). Cloisters (class site)
 * complete when their cell has 8 taken cells around it.
 */
#include "engine/game.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* For the few small functions of the placement's inner loops, which gcc
 * would otherwise call. */
#if defined(__GNUC__) || defined(__clang__)
#define HOT_INLINE __attribute__((always_inline)) inline
#else
#define HOT_INLINE inline
#endif

struct seg {
	uint32_t parent;
	uint32_t next;       /* circular list of the feature's members */
	uint16_t placement;
	uint8_t feature;     /* index in the tile type */
	uint8_t kind;
	uint8_t klass;
	uint8_t scored;      /* the feature has been scored (roots) */
	uint8_t pending;     /* on this turn's completion list (roots) */
	uint8_t has_attr;    /* g->attrs[the segment] holds its attributes (else all 0) */
	int16_t open;
	uint16_t size;
	uint8_t count[8];    /* followers per colour (7 used), added as one word */
	uint32_t fhead;      /* roots: 1 + one of its followers (huts excepted), 0 for none;
				the others follow it in the circular list fnext */
};

/* A segment's attributes: 11 used, added as three words. */
#define ATTR_SLOTS 12
typedef uint16_t seg_attrs[ATTR_SLOTS];
_Static_assert(CARC_ATTR_COUNT <= ATTR_SLOTS, "a segment's attributes fit in seg_attrs");
_Static_assert(sizeof(struct seg) == 32, "segments are 32 bytes: two per cache line half");
_Static_assert(offsetof(struct seg, next) == offsetof(struct seg, parent) + 4, "new_segment writes both as one word");

/* Adds the open edges, the sizes and the follower counts of b to a, as two
 * words (open, size and count[0..3], then count[4..7]): no lane can
 * overflow (open is at most 4 a segment and never below 0, at most a few
 * hundred followers in a game). */
static inline void add_totals(struct seg *a, const struct seg *b)
{
	uint64_t x, y;
	memcpy(&x, &a->open, 8);
	memcpy(&y, &b->open, 8);
	x += y;
	memcpy(&a->open, &x, 8);
	uint32_t u, v;
	memcpy(&u, &a->count[4], 4);
	memcpy(&v, &b->count[4], 4);
	u += v;
	memcpy(&a->count[4], &u, 4);
}
_Static_assert(offsetof(struct seg, size) == offsetof(struct seg, open) + 2 &&
		       offsetof(struct seg, count) == offsetof(struct seg, open) + 4,
	       "add_totals adds open, size and the counts as two words");

/* Adds the attributes b to a, a word at a time (no lane can overflow: at
 * most a few hundred items in a game). */
static inline void add_attrs(uint16_t *a, const uint16_t *b)
{
	for (int i = 0; i < ATTR_SLOTS; i += 4) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		x += y;
		memcpy(a + i, &x, 8);
	}
}

/* True when the feature (by root) holds followers: count[c] is the number of
 * colour c's followers on the map that stand on it (huts excepted), kept by
 * carc_game_deploy, join and lift_followers, so a zero word means none. */
static inline bool has_followers(const struct seg *root)
{
	uint64_t x;
	memcpy(&x, root->count, 8);
	return x != 0;
}

/* A tile type turned by a rotation, as placement needs it: which of its
 * features lies at each board edge and half-edge, counting only the features
 * that join across that edge (paths and enclosures across edges, areas
 * across half-edges), so that placing a tile looks nothing else up. These
 * are its join slots: slot 3e is board edge e, slots 3e + 1 and 3e + 2 its
 * half-edges 2e and 2e + 1, so that the joins across an edge come in the
 * order that join_edge makes them (path, then the halves). */
struct orient {
	_Alignas(64) uint8_t slot[12]; /* the path or enclosure crossing edge e (slot 3e), the areas
				  covering half-edges 2e, 2e + 1 (slots 3e + 1, 3e + 2); or CARC_NO_FEATURE */
	uint8_t across[12];  /* across[s]: slot[3 * ((e + 2) & 3) + (0, 2, 1 for k 0, 1, 2)] for
				s = 3e + k, the slot that meets slot s of a neighbour across its edge e */
	uint16_t joins;      /* bit s: slot s holds a feature, but slot 3e + 2 not when every edge
				of its terrain has one area on both halves (carc_game_start) */
	uint16_t closing;    /* bit f: feature f is a path or an enclosure (completes when closed) */
	uint32_t edges;      /* edge terrains, byte e = board edge e (carc_tile.rot_edges) */
	uint8_t spot[CARC_SPOT_COUNT]; /* the feature at each spot, or CARC_NO_FEATURE */
	uint8_t closes_alone;/* one of them has no edge: it is complete when placed */
	uint8_t any_attr;    /* one of its features has attributes (has_attr) */
	uint8_t site;        /* the centre is a site (a cloister) */
	uint8_t nfeatures;   /* the tile's */
	uint8_t bonus;       /* a bonus tile (hunters), drawn from its own supply */
};
/* one cache line a table: a turn reads its tile's and its neighbours' */
_Static_assert(sizeof(struct orient) == 64, "an orientation table is one cache line");

/* A cell of the map. */
struct cell {
	uint16_t placement;  /* placement index + 1, 0 when empty */
	uint8_t around;      /* taken cells among the 8 around it */
	uint8_t sites_near;  /* sites (cloisters) not yet complete among the 8 around it */
	uint32_t need;       /* byte e: 1 + the terrain its edge e must have, 0 when free */
};

_Static_assert(sizeof(struct cell) == 8, "place_tile adds to a cell as one word");

/* What a placement adds to the 8 cells around it (see place_tile), in the
 * order of the table below: 1 to around, 1 to sites_near for a site, and
 * to the need of the 4 cells across its edges, 1 + the terrain of its edge
 * that faces them. Read as words and added as words, a cell at a time:
 * no field can carry into the next (around and sites_near are at most 8,
 * and a need byte is 0 until the one tile that faces it is placed, which
 * is this one). One table (64 bytes) per tile type and rotation. */
struct bumps {
	_Alignas(64) struct cell at[8];
};
enum { BUMP_NW, BUMP_N, BUMP_NE, BUMP_E, BUMP_SE, BUMP_S, BUMP_SW, BUMP_W };

struct carc_game {
	const struct carc_tileset *ts;
	const struct carc_ruleset *rules;
	int edition;
	uint8_t seated;      /* bit c: colour c plays */

	/* map */
	int radius, dim;     /* the grid covers -radius..radius on both axes */
	struct cell *grid;
	size_t grid_cells;
	int step[4];         /* grid offsets across edges N E S W */
	int table_w, table_h;
	int32_t min_x, max_x, min_y, max_y;

	struct carc_placement *placed;
	size_t nplaced, placed_cap;
	struct seg *segs;
	size_t nsegs, segs_cap;
	seg_attrs *attrs;       /* per segment: its attributes, when has_attr */
	struct seg *templates;  /* per tile type and feature: a new segment, ready to copy */
	seg_attrs *tattrs;      /* per tile type and feature: the template's attributes */
	struct orient *orient;  /* per tile type and rotation (tile * 4 + rot) */
	struct bumps *bumps;    /* per tile type and rotation: what it adds to the cells around */
	uint16_t *borders;      /* per tile type and feature: carc_feature.borders */
	/* carc_game_play: bit k of may_stand[r]: role r may stand on kind k */
	uint16_t may_stand[CARC_MAX_ROLES];
	const struct carc_ruleset *may_stand_rules;
	unsigned long may_stand_for; /* the serial of the tile set */
	unsigned long templates_for; /* the serial of their tile set */
	bool by_terrain;        /* a tile that fits joins by its own slots alone (carc_game_start) */
	int slot_step[12];      /* grid offsets across the edge of each join slot (struct orient) */

	/* supply */
	int *left;           /* per tile type */
	int *count0;         /* per tile type: how many the set has (with the templates) */
	int land0, bonus0;   /* their sums, land tiles and bonus tiles */
	int start_tile;
	int ntypes;
	int bonus_left;         /* land tiles left: totals.land_left */

	/* players */
	int supply[CARC_COLOURS];
	int huts[CARC_COLOURS];
	struct carc_totals totals; /* scores, events so far, land tiles left */
	int from[CARC_COLOURS][CARC_SRC_COUNT];
	struct carc_follower *followers;
	size_t nfollowers, followers_cap;
	uint32_t *fnext;     /* per follower: the next on its feature (see seg.fhead) */

	/* scoring */
	struct carc_event *events;
	size_t events_cap;      /* events so far: totals.nevents */
	uint32_t pending[64];
	int npending;
	uint32_t *stamp;     /* per placement, for counting distinct tiles */
	size_t stamp_cap;
	uint32_t epoch;      /* the current mark in stamp and mark (next_epoch) */
	uint32_t *mark;      /* per segment: cities already counted for a farm */
	size_t mark_cap;     /* entries in mark and in edges */
	uint64_t *edges;     /* per segment and a spare: score_farms' scratch (farm_edge) */
	uint16_t *farm_of;   /* per segment: score_farms' scratch (a farm root's index) */
	uint32_t *links;     /* score_farms' scratch: each farm's cities */
	size_t links_cap;
	uint64_t *rootmap;   /* followed_roots' scratch: a bit per segment */
	size_t rootmap_cap;  /* in words */
	uint64_t seated_lanes; /* byte c is 0xff when colour c plays (majority) */
	uint8_t hut_roles;   /* bit r: role r of may_stand_rules is a hut */
	uint8_t returning_roles; /* bit r: role r returns to the supply when scored */

	carc_award_fn award;
	void *award_ctx;

	/* the rule set's engine hooks (carc_engine_hooks), read at the start */
	int (*value_hook)(struct carc_game *g, uint32_t root, int tiles, bool complete, uint16_t *items);
	bool (*closed_hook)(struct carc_game *g, uint32_t root);
	unsigned closed_classes;
	void (*final_hook)(struct carc_game *g);
	uint32_t *waiting;   /* closed features closed_hook found not complete yet (roots) */
	size_t nwaiting, waiting_cap;
};

static const int dx[4] = {0, 1, 0, -1};
static const int dy[4] = {1, 0, -1, 0};

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

const struct carc_tileset *carc_game_tileset(const struct carc_game *g) { return g->ts; }
const struct carc_ruleset *carc_game_rules(const struct carc_game *g) { return g->rules; }

static inline int cell_index(const struct carc_game *g, int x, int y)
{
	if (x < -g->radius || x > g->radius || y < -g->radius || y > g->radius)
		return -1;
	return (x + g->radius) + (y + g->radius) * g->dim;
}

/* The placement at a cell, or -1: for callers outside the hot paths. */
int carc_game_at(const struct carc_game *g, int x, int y)
{
	int i = cell_index(g, x, y);
	return i < 0 ? -1 : (int)g->grid[i].placement - 1;
}

/* A cell strictly inside the grid has all 8 neighbours in the grid, so the
 * hot paths below index around it without bounds checks. Tiles are only ever
 * put on such cells (the grid is larger than any legal map). */
static inline bool inside(const struct carc_game *g, int x, int y)
{
	unsigned span = 2 * (unsigned)g->radius - 1; /* -radius < x < radius */
	return (unsigned)x + (unsigned)g->radius - 1 < span && (unsigned)y + (unsigned)g->radius - 1 < span;
}

static const uint8_t popcount4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

static HOT_INLINE uint32_t find_in(struct seg *segs, uint32_t s);
static void recheck_waiting(struct carc_game *g);

static inline uint32_t find(struct carc_game *g, uint32_t s)
{
	return find_in(g->segs, s);
}

/* Attribute a of the feature whose root is root. */
static inline int seg_attr(const struct carc_game *g, uint32_t root, int a)
{
	return g->segs[root].has_attr ? g->attrs[root][a] : 0;
}

void carc_game_start(struct carc_game *g, const struct carc_tileset *ts, const struct carc_ruleset *rules,
		     int edition, const uint8_t *seats, int nseats, int followers, int huts,
		     int start_tile, int start_rot)
{
	/* Clear what the previous game left on the grid: the cells of its
	 * tiles and those around them, all within its bounds widened by one. */
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
	if (g->templates_for != ts->serial) {
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
				for (int a = 0; a < CARC_ATTR_COUNT; a++) {
					g->tattrs[i * CARC_MAX_FEATURES + f][a] = tf->attr[a];
					s->has_attr |= tf->attr[a] != 0;
				}
			}
		free(g->borders);
		g->borders = xcalloc((size_t)ts->ntiles * CARC_MAX_FEATURES, sizeof *g->borders);
		for (int i = 0; i < ts->ntiles; i++)
			for (int f = 0; f < ts->tiles[i].nfeatures; f++)
				g->borders[i * CARC_MAX_FEATURES + f] = ts->tiles[i].features[f].borders;
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
						      : t->centre_feature;
				o->site = t->centre_feature != CARC_NO_FEATURE &&
					  tmpl[t->centre_feature].klass == CARC_CLASS_SITE;
				for (int sl = 0; sl < 12; sl++) {
					int k = sl % 3, oe = (sl / 3 + 2) & 3;
					o->across[sl] = o->slot[3 * oe + (k ? 3 - k : 0)];
				}
			}
		/* Whether a tile that fits (its edges show the terrains of their
		 * neighbours') joins across an edge just where its own slots hold
		 * features: so when every edge of a terrain has the same slots
		 * (the class of its path or enclosure, or none; areas on both of
		 * its halves, or on neither), the neighbour's match. The tile-set
		 * rules (tileset.c) seem to make it true of every set; it is
		 * checked rather than assumed, and where it fails carc_game_play
		 * joins as carc_game_place does. Where every edge
		 * of a terrain has one area on both halves (fields), the second
		 * half's join would repeat the first's: it is left out of joins. */
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
		g->templates_for = ts->serial;
	}
	/* The supply: the whole set but the start tile. */
	memcpy(g->left, g->count0, (size_t)ts->ntiles * sizeof *g->left);
	g->left[start_tile]--;
	g->totals.land_left = g->land0 - !ts->tiles[start_tile].bonus;
	g->bonus_left = g->bonus0 - ts->tiles[start_tile].bonus;
	if (g->may_stand_rules != rules || g->may_stand_for != ts->serial) {
		for (int r = 0; r < CARC_MAX_ROLES; r++) {
			g->may_stand[r] = 0;
			for (int k = 0; r < rules->nroles && k < ts->nkinds; k++) {
				const struct carc_role *role = &rules->roles[r];
				if (!strcmp(role->kinds[0], ts->kinds[k].name) ||
				    (role->kinds[1] && !strcmp(role->kinds[1], ts->kinds[k].name)))
					g->may_stand[r] |= (uint16_t)(1u << k);
			}
		}
		g->hut_roles = g->returning_roles = 0;
		for (int r = 0; r < rules->nroles; r++) {
			if (rules->roles[r].hut)
				g->hut_roles |= (uint8_t)(1u << r);
			if (rules->roles[r].returns)
				g->returning_roles |= (uint8_t)(1u << r);
		}
		g->may_stand_rules = rules;
		g->may_stand_for = ts->serial;
	}
	g->ts = ts;
	g->start_tile = start_tile;
	g->rules = rules;
	g->edition = edition;
	/* once a game, but a game is short: without a branch per colour */
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
	memset(g->totals.score, 0, sizeof g->totals.score);
	memset(g->from, 0, sizeof g->from);
	g->nplaced = g->nsegs = g->nfollowers = g->totals.nevents = 0;
	g->npending = 0;
	g->table_w = g->table_h = 0;
	g->award = NULL;
	g->award_ctx = NULL;
	const struct carc_engine_hooks *hk = rules->engine;
	g->value_hook = hk ? hk->feature_value : NULL;
	g->closed_hook = hk ? hk->closed_complete : NULL;
	g->closed_classes = hk && hk->closed_complete ? hk->closed_classes : 0;
	g->final_hook = hk ? hk->score_final : NULL;
	g->nwaiting = 0;
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

/* How many of the 8 cells around a placement are taken (0 for one off the
 * grid: it touches nothing). */
static HOT_INLINE int taken_around(const struct carc_game *g, const struct carc_placement *p)
{
	if (!inside(g, p->x, p->y))
		return 0;
	return g->grid[(p->x + g->radius) + (p->y + g->radius) * g->dim].around;
}

/* ---- placement ---- */

int carc_game_check_place(const struct carc_game *g, int tile, int rot, int x, int y,
			  struct carc_place_problem *why)
{
	struct carc_place_problem dummy;
	if (!why)
		why = &dummy;
	int c = cell_index(g, x, y);
	if (c >= 0 && g->grid[c].placement) {
		why->code = CARC_E201;
		return CARC_E201;
	}
	const struct carc_tile *t = &g->ts->tiles[tile];
	uint32_t mine = t->rot_edges[rot & 3];
	int neighbours = 0;
	if (c >= 0 && inside(g, x, y)) {
		for (int e = 0; e < 4; e++) {
			int n = (int)g->grid[c + g->step[e]].placement - 1;
			if (n < 0)
				continue;
			neighbours++;
			const struct carc_placement *p = &g->placed[n];
			uint8_t theirs = (uint8_t)(g->ts->tiles[p->tile].rot_edges[p->rot] >> (8 * ((e + 2) & 3)));
			uint8_t m = (uint8_t)(mine >> (8 * e));
			if (m != theirs) {
				why->code = CARC_E203;
				why->edge = e;
				why->mine = m;
				why->theirs = theirs;
				why->nx = x + dx[e];
				why->ny = y + dy[e];
				return CARC_E203;
			}
		}
	}
	if (!neighbours) {
		why->code = CARC_E202;
		return CARC_E202;
	}
	if (g->table_w > 0) {
		int32_t lo_x = x < g->min_x ? x : g->min_x, hi_x = x > g->max_x ? x : g->max_x;
		int32_t lo_y = y < g->min_y ? y : g->min_y, hi_y = y > g->max_y ? y : g->max_y;
		if (hi_x - lo_x + 1 > g->table_w || hi_y - lo_y + 1 > g->table_h) {
			why->code = CARC_E216;
			return CARC_E216;
		}
	}
	return 0;
}

/* Lists every empty cell next to a placed tile, once: a cell is listed by
 * the earliest placement next to it. Returns the count, writing at most max. */
static int frontier(const struct carc_game *g, int32_t *xs, int32_t *ys, int max)
{
	int n = 0;
	for (size_t i = 0; i < g->nplaced; i++) {
		const struct carc_placement *p = &g->placed[i];
		for (int e = 0; e < 4; e++) {
			int x = p->x + dx[e], y = p->y + dy[e];
			int c = cell_index(g, x, y);
			if (c < 0 || g->grid[c].placement)
				continue;
			bool earlier = false;
			for (int f = 0; f < 4 && !earlier; f++) {
				int o = carc_game_at(g, x + dx[f], y + dy[f]);
				earlier = o >= 0 && (size_t)o < i;
			}
			if (earlier)
				continue;
			if (n < max) {
				xs[n] = x;
				ys[n] = y;
			}
			n++;
		}
	}
	return n;
}

int carc_game_legal_places(const struct carc_game *g, int tile, int32_t *xs, int32_t *ys, uint8_t *rots, int max)
{
	int cap = (int)g->nplaced * 4 + 4;
	int32_t *fx = xmalloc((size_t)cap * sizeof *fx), *fy = xmalloc((size_t)cap * sizeof *fy);
	int nf = frontier(g, fx, fy, cap);
	int n = 0;
	for (int i = 0; i < nf && i < cap; i++)
		for (int r = 0; r < 4; r++)
			if (carc_game_check_place(g, tile, r, fx[i], fy[i], NULL) == 0) {
				if (n < max) {
					xs[n] = fx[i];
					ys[n] = fy[i];
					rots[n] = (uint8_t)r;
				}
				n++;
			}
	free(fx);
	free(fy);
	return n;
}

bool carc_game_find_fit(const struct carc_game *g, int tile, int *x, int *y, int *rot)
{
	int32_t xs[1], ys[1];
	uint8_t rots[1];
	if (carc_game_legal_places(g, tile, xs, ys, rots, 1) == 0)
		return false;
	*x = xs[0];
	*y = ys[0];
	*rot = rots[0];
	return true;
}

/* Takes a completed site at cell out of the count of sites near each of
 * the 8 cells around it (place_tile counts it in: struct bumps). */
static void uncount_site(struct cell *cell, int dim)
{
	for (int ddy = -dim; ddy <= dim; ddy += dim) {
		cell[ddy - 1].sites_near--;
		if (ddy)
			cell[ddy].sites_near--;
		cell[ddy + 1].sites_near--;
	}
}

/* Adds a placement's bump (struct bumps) to the cell next to it, as one
 * word; returns the cell's new word. */
static HOT_INLINE uint64_t bump_cell(struct cell *c, const struct cell *bump)
{
	uint64_t v, b;
	memcpy(&v, c, sizeof v);
	memcpy(&b, bump, sizeof b);
	v += b;
	memcpy(c, &v, sizeof v);
	return v;
}

/* Marks the sites (cloisters) around the placement at cell that have just
 * got their eighth neighbour as complete, row by row from the north-west. */
static void complete_sites(struct carc_game *g, struct cell *cell)
{
	for (int ddy = 1; ddy >= -1; ddy--)
		for (int ddx = -1; ddx <= 1; ddx++) {
			struct cell *c = &cell[ddx + ddy * g->dim];
			int n = (int)c->placement - 1;
			if (n < 0 || c->around != 8)
				continue;
			struct carc_placement *q = &g->placed[n];
			const struct carc_tile *qt = &g->ts->tiles[q->tile];
			if (qt->centre_feature == CARC_NO_FEATURE || c->around != 8 || q->site_scored)
				continue;
			uint32_t r = q->seg0 + qt->centre_feature;
			if (g->segs[r].klass != CARC_CLASS_SITE)
				continue;
			q->site_scored = 1;
			uncount_site(c, g->dim);
			if (g->npending < 64) {
				g->segs[r].pending = 1;
				g->pending[g->npending++] = r;
			}
		}
}

/* The root of segment s. */
static HOT_INLINE uint32_t find_in(struct seg *segs, uint32_t s)
{
	return segs[s].parent;
}

/* Merges the features of segments a and b, which meet across an edge: the
 * larger feature's root (the first one's when they are the same size)
 * becomes the root. Returns whether the merged feature has no open edge
 * left. */
static HOT_INLINE bool join(struct seg *segs, seg_attrs *attrs, uint32_t *fnext, uint32_t a, uint32_t b, bool edge)
{
	uint32_t ra = find_in(segs, a), rb = find_in(segs, b);
	if (ra != rb) {
		/* which is larger is a coin toss to the branch predictor: chosen
		 * without a branch */
		uint32_t swap = -(uint32_t)(segs[ra].size < segs[rb].size); /* all ones or 0 */
		uint32_t diff = (ra ^ rb) & swap;
		ra ^= diff;
		rb ^= diff;
		struct seg *A = &segs[ra], *B = &segs[rb];
		/* B's members renamed: B itself, then the others (most often
		 * none: B is the smaller) */
		B->parent = ra;
		for (uint32_t m = B->next; m != rb; m = segs[m].next)
			segs[m].parent = ra;
		add_totals(A, B); /* open, size, count */
		if (B->has_attr) {
			if (A->has_attr)
				add_attrs(attrs[ra], attrs[rb]);
			else
				memcpy(attrs[ra], attrs[rb], sizeof attrs[ra]);
			A->has_attr = 1;
		}
		A->scored |= B->scored;
		/* splice the member lists */
		uint32_t an = A->next;
		A->next = B->next;
		B->next = an;
		if (B->fhead) {
			if (!A->fhead) {
				A->fhead = B->fhead;
			} else {
				uint32_t t = fnext[A->fhead - 1];
				fnext[A->fhead - 1] = fnext[B->fhead - 1];
				fnext[B->fhead - 1] = t;
			}
		}
	}
	/* edge is fixed where join is inlined but for one loop (place_tile),
	 * where it changes from join to join: without a branch */
	segs[ra].open = (int16_t)(segs[ra].open - 2 * edge);
	return edge & (segs[ra].open == 0);
}

/* Room for one more placement. carc_game_start sizes the arrays for the
 * whole tile set, but a record can place more tiles than the set holds (a
 * tile over the supply is reported, E204, and still placed). */
static void make_room(struct carc_game *g, int nfeatures)
{
	if (g->nplaced == g->placed_cap) {
		size_t cap = g->placed_cap ? 2 * g->placed_cap : 16;
		g->placed = xrealloc(g->placed, cap * sizeof *g->placed);
		g->stamp = xrealloc(g->stamp, cap * sizeof *g->stamp);
		memset(g->stamp + g->stamp_cap, 0, (cap - g->stamp_cap) * sizeof *g->stamp);
		g->placed_cap = g->stamp_cap = cap;
	}
	if (g->nsegs + (size_t)nfeatures > g->segs_cap) {
		size_t cap = 2 * g->segs_cap + CARC_MAX_FEATURES;
		g->segs = xrealloc(g->segs, cap * sizeof *g->segs);
		g->attrs = xrealloc(g->attrs, cap * sizeof *g->attrs);
		g->segs_cap = cap;
	}
}

/* The edges of a cell with a neighbour across, bit e for edge e, from its
 * need (which edges are taken is a coin toss to the branch predictor: a
 * loop over the taken ones mispredicts once, at its end, rather than once
 * per edge). */
static inline unsigned edges_taken(uint32_t need)
{
	uint32_t set = ((need | ((need & 0x7F7F7F7Fu) + 0x7F7F7F7Fu)) & 0x80808080u) >> 7; /* bits 0, 8, 16, 24 */
	return (unsigned)((set * 0x204081u) >> 21) & 0xFu;
}

/* Joins the features of a new placement (its table mo, its first segment
 * seg0) with those of the placement across its edge e (that cell's grid
 * entry, 0 when empty): the path or enclosure across the edge, when both
 * have one of the same class, then the areas of its two halves (the second
 * half is skipped when it joins the same two features as the first). */
static HOT_INLINE bool join_edge(struct seg *restrict segs, seg_attrs *restrict attrs, uint32_t *restrict fnext,
				  const struct carc_placement *placed, const struct orient *orient,
				  const struct orient *mo, uint32_t seg0, uint16_t entry, int e)
{
	if (!entry)
		return false;
	const struct carc_placement *q = &placed[entry - 1];
	const struct orient *qo = &orient[q->orient];
	uint32_t qseg0 = q->seg0;
	uint8_t mf = mo->slot[3 * e], qf = qo->across[3 * e];
	bool closed = false;
	if (mf != CARC_NO_FEATURE && qf != CARC_NO_FEATURE && segs[seg0 + mf].klass == segs[qseg0 + qf].klass)
		closed = join(segs, attrs, fnext, seg0 + mf, qseg0 + qf, true);
	uint8_t a0 = mo->slot[3 * e + 1], b0 = qo->across[3 * e + 1];
	uint8_t a1 = mo->slot[3 * e + 2], b1 = qo->across[3 * e + 2];
	if (a0 != CARC_NO_FEATURE && b0 != CARC_NO_FEATURE)
		join(segs, attrs, fnext, seg0 + a0, qseg0 + b0, false);
	if (a1 != CARC_NO_FEATURE && b1 != CARC_NO_FEATURE && (a1 != a0 || b1 != b0))
		join(segs, attrs, fnext, seg0 + a1, qseg0 + b1, false);
	return closed;
}

/* The join slots (struct orient) of the edges in a set (bit e: edge e). */
static const uint16_t edge_slots[16] = {
	0x000, 0x007, 0x038, 0x03f, 0x1c0, 0x1c7, 0x1f8, 0x1ff,
	0xe00, 0xe07, 0xe38, 0xe3f, 0xfc0, 0xfc7, 0xff8, 0xfff,
};
/* bit s: slot s is an edge's path or enclosure (its join closes an edge) */
#define EDGE_SLOTS 0x249u

/* Joins the feature in the lowest join slot of todo (struct orient) of a
 * new placement (its table mo, its first segment seg0, its cell) with the
 * neighbour's that meets it (step: grid offsets by slot); whether that
 * closed a path or an enclosure. */
static HOT_INLINE bool join_slot(struct seg *restrict segs, seg_attrs *restrict attrs, uint32_t *restrict fnext,
				 const struct carc_placement *placed, const struct orient *orient,
				 const struct orient *mo, uint32_t seg0, const struct cell *cell, const int *step,
				 unsigned todo)
{
	int sl = carc_lowest_bit(todo);
	const struct carc_placement *q = &placed[cell[step[sl]].placement - 1];
	const struct orient *qo = &orient[q->orient];
	return join(segs, attrs, fnext, seg0 + mo->slot[sl], q->seg0 + qo->across[sl], EDGE_SLOTS >> sl & 1);
}

/* What new_segment adds to the first 16 bytes of a template: seg0 to
 * parent and to next, pi to placement; with SSE2, as one vector (x86 is
 * little-endian: placement is the low bits of the second word), else as
 * two words. */
#if defined(__SSE2__)
typedef __m128i seg_add;

static HOT_INLINE seg_add seg_add_for(uint32_t seg0, uint16_t pi)
{
	return _mm_set_epi64x((long long)pi, (long long)((uint64_t)seg0 * 0x100000001u));
}
#else
typedef struct {
	uint64_t w[2];
} seg_add;

static HOT_INLINE seg_add seg_add_for(uint32_t seg0, uint16_t pi)
{
	struct seg add = {.parent = seg0, .next = seg0, .placement = pi};
	seg_add a;
	memcpy(a.w, &add, sizeof a.w);
	return a;
}
#endif
_Static_assert(CARC_MAX_FEATURES >= 8, "place_tile copies 8 templates to the room for CARC_MAX_FEATURES");
_Static_assert(offsetof(struct seg, placement) < 16 && offsetof(struct seg, open) >= 16,
	       "new_segment adds to the first 16 bytes and copies the rest");

/* Makes s from its template t, feature f of the placement whose first
 * segment and index give add (seg_add_for): its own root (seg0 + f) and
 * the only member of its feature. The template's parent and next are f and
 * its placement 0, so that this is an add to the first 16 bytes (no field
 * can carry into the next) and a copy of the rest: with SSE2, two vectors. */
static HOT_INLINE void new_segment(struct seg *s, const struct seg *t, seg_add add)
{
#if defined(__SSE2__)
	__m128i lo = _mm_loadu_si128((const __m128i *)(const void *)t);
	__m128i hi = _mm_loadu_si128((const __m128i *)(const void *)((const char *)t + 16));
	_mm_storeu_si128((__m128i *)(void *)s, _mm_add_epi64(lo, add));
	_mm_storeu_si128((__m128i *)(void *)((char *)s + 16), hi);
#else
	uint64_t w[4];
	memcpy(w, t, sizeof w);
	w[0] += add.w[0];
	w[1] += add.w[1];
	memcpy(s, w, sizeof w);
#endif
}

/* Puts the feature of segment s on this turn's completion list if it has
 * just been closed (once: a repeat finds it pending). */
static HOT_INLINE void note_closed(struct carc_game *g, struct seg *segs, uint32_t s)
{
	uint32_t r = find_in(segs, s);
	struct seg *root = &segs[r];
	if (root->open == 0 && !root->scored && !root->pending && g->npending < 64) {
		root->pending = 1;
		g->pending[g->npending++] = r;
	}
}

_Static_assert(offsetof(struct carc_game, max_x) == offsetof(struct carc_game, min_x) + 4 &&
		       offsetof(struct carc_game, min_y) == offsetof(struct carc_game, min_x) + 8 &&
		       offsetof(struct carc_game, max_y) == offsetof(struct carc_game, min_x) + 12,
	       "widen_bounds reads and writes the bounds as one vector");

/* Widens the bounds of the placed tiles to take in x,y. With SSE2, as one
 * vector: x,x,y,y against min_x, max_x, min_y, max_y, each lane taking
 * x or y where the bound is greater (a minimum) or not (a maximum; when
 * equal, either is the same). */
static HOT_INLINE void widen_bounds(struct carc_game *g, int32_t x, int32_t y)
{
#if defined(__SSE2__)
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)&g->min_x);
	__m128i v = _mm_shuffle_epi32(_mm_unpacklo_epi32(_mm_cvtsi32_si128(x), _mm_cvtsi32_si128(y)),
				      _MM_SHUFFLE(1, 1, 0, 0));
	__m128i take = _mm_xor_si128(_mm_cmpgt_epi32(b, v), _mm_set_epi32(-1, 0, -1, 0));
	b = _mm_xor_si128(b, _mm_and_si128(_mm_xor_si128(b, v), take));
	_mm_storeu_si128((__m128i *)(void *)&g->min_x, b);
#else
	g->min_x = x < g->min_x ? x : g->min_x;
	g->max_x = x > g->max_x ? x : g->max_x;
	g->min_y = y < g->min_y ? y : g->min_y;
	g->max_y = y > g->max_y ? y : g->max_y;
#endif
}

/* carc_game_place, inlined into carc_game_play; cell is the tile's grid
 * cell, NULL when the tile is not strictly inside the grid. */
static HOT_INLINE int place_tile(struct carc_game *g, int tile, int rot, int x, int y, int colour, int turn,
				 struct cell *cell, bool fitted)
{
	rot &= 3;
	const struct orient *mo = &g->orient[tile * 4 + rot];
	int nf = mo->nfeatures;
	if (g->nplaced == g->placed_cap || g->nsegs + CARC_MAX_FEATURES > g->segs_cap)
		make_room(g, CARC_MAX_FEATURES);
	struct seg *restrict segs = g->segs;
	seg_attrs *restrict attrs = g->attrs;
	struct carc_placement *placed = g->placed;
	const struct orient *orient = g->orient;
	uint32_t *restrict fnext = g->fnext;
	size_t pi = g->nplaced++;
	uint32_t seg0 = (uint32_t)g->nsegs;
	struct carc_placement *p = &placed[pi];
	*p = (struct carc_placement){.x = x, .y = y, .tile = (uint16_t)tile, .rot = (uint8_t)rot,
				     .colour = (uint8_t)colour, .turn = (uint16_t)turn, .seg0 = seg0,
				     .orient = (uint16_t)(tile * 4 + rot)};
	for (int i = 0; i < g->npending; i++)
		segs[find_in(segs, g->pending[i])].pending = 0;
	g->npending = 0;
	widen_bounds(g, x, y);

	/* The tile's features: fresh segments from the templates. The first
	 * four are copied whatever the tile has (most have at most four, and
	 * the copies past its features are overwritten by the next tile): a
	 * loop whose length changes from turn to turn costs a mispredicted
	 * branch at its end. So are the next four for a tile with more (one
	 * in nine in the base game): a loop from 4 would end, mispredicted,
	 * on those tiles too. */
	const struct seg *tmpl = &g->templates[tile * CARC_MAX_FEATURES];
	seg_add add = seg_add_for(seg0, (uint16_t)pi);
	struct seg *ns = &segs[seg0];
	new_segment(&ns[0], &tmpl[0], add);
	new_segment(&ns[1], &tmpl[1], add);
	new_segment(&ns[2], &tmpl[2], add);
	new_segment(&ns[3], &tmpl[3], add);
	if (nf > 4) {
		new_segment(&ns[4], &tmpl[4], add);
		new_segment(&ns[5], &tmpl[5], add);
		new_segment(&ns[6], &tmpl[6], add);
		new_segment(&ns[7], &tmpl[7], add);
		for (int f = 8; f < nf; f++)
			new_segment(&ns[f], &tmpl[f], add);
	}
	/* Attributes are written only for the tiles that have some (pennants:
	 * one tile in seven in the base game): a branch mispredicted now and
	 * then costs less than writing a cache line that is not needed. */
	if (mo->any_attr) {
		/* four whatever the tile has, as above: a copy of a length that
		 * changes is a branch in memcpy */
		const seg_attrs *ta = &g->tattrs[tile * CARC_MAX_FEATURES];
		memcpy(&attrs[seg0], ta, 4 * sizeof *attrs);
		if (nf > 4) {
			memcpy(&attrs[seg0 + 4], &ta[4], 4 * sizeof *attrs);
			for (int f = 8; f < nf; f++)
				memcpy(&attrs[seg0 + f], &ta[f], sizeof *attrs);
		}
	}
	g->nsegs += (size_t)nf;
	if (!cell)
		return (int)pi; /* far off the map (an illegal move): touches nothing */
	int dim = g->dim;
	cell->placement = (uint16_t)(pi + 1);

	/* Join the features that meet across each shared edge: the path or
	 * enclosure across it, then the areas of its two halves (the second
	 * half is skipped when it joins the same two features as the first). */
	bool closed = mo->closes_alone; /* a path or enclosure may be complete */
	unsigned taken = edges_taken(cell->need);
	if (fitted && g->by_terrain) {
		/* A tile that fits, of a set whose terrains tell the joins
		 * (by_terrain): its own slots say what joins across its taken
		 * edges, in the same order, with no test of the neighbour's
		 * features (each one a coin toss to the branch predictor): one
		 * loop over the joins, which tests only whether there is
		 * another. Every edge has one (todo is 0 only for a set whose
		 * edges can have none): the first is made before the first
		 * test. */
		unsigned todo = mo->joins & edge_slots[taken];
		if (todo) {
			closed |= join_slot(segs, attrs, fnext, placed, orient, mo, seg0, cell, g->slot_step, todo);
			for (todo &= todo - 1; todo; todo &= todo - 1)
				closed |= join_slot(segs, attrs, fnext, placed, orient, mo, seg0, cell, g->slot_step, todo);
		}
	} else {
		for (; taken; taken &= taken - 1) {
			int e = carc_lowest_bit(taken);
			closed |= join_edge(segs, attrs, fnext, placed, orient, mo, seg0, cell[g->step[e]].placement, e);
		}
	}

	/* What the tile asks of the cells across its edges, and its place in
	 * the counts of the cells around it (struct bumps). Whether one of the
	 * cells now has all 8 around it taken is bit 3 of the around bytes of
	 * their words or-ed (around is at most 8). */
	const struct cell *bump = g->bumps[tile * 4 + rot].at;
	struct cell *up = cell + dim, *down = cell - dim;
	uint64_t words = bump_cell(&up[-1], &bump[BUMP_NW]) | bump_cell(&up[0], &bump[BUMP_N]) |
			 bump_cell(&up[1], &bump[BUMP_NE]) | bump_cell(&cell[1], &bump[BUMP_E]) |
			 bump_cell(&down[1], &bump[BUMP_SE]) | bump_cell(&down[0], &bump[BUMP_S]) |
			 bump_cell(&down[-1], &bump[BUMP_SW]) | bump_cell(&cell[-1], &bump[BUMP_W]);
	struct cell ored;
	memcpy(&ored, &words, sizeof ored);
	unsigned full = ored.around >> 3 & 1;
	/* A site (cloister) is complete when its cell has 8 taken cells around:
	 * this tile's own, placed in a hole, or one of the sites around not yet
	 * complete (then one of the cells around is full; complete_sites finds
	 * which, if any). Whether a site is around is a coin toss: decided
	 * without a branch. */
	bool site_done = (mo->site & (cell->around == 8)) | ((cell->sites_near != 0) & full);

	/* What did this placement complete? Paths and enclosures of the new tile
	 * (only when a join across an edge left one with no open edge: about
	 * one turn in ten), then sites: its own and its neighbours', row by row
	 * from the north-west. */
	if (closed)
		for (unsigned m = mo->closing; m; m &= m - 1)
			note_closed(g, segs, seg0 + (uint32_t)carc_lowest_bit(m));
	if (site_done)
		complete_sites(g, cell);
	return (int)pi;
}

int carc_game_place(struct carc_game *g, int tile, int rot, int x, int y, int colour, int turn)
{
	struct cell *cell = inside(g, x, y) ? &g->grid[(x + g->radius) + (y + g->radius) * g->dim] : NULL;
	int pi = place_tile(g, tile, rot, x, y, colour, turn, cell, false);
	if (g->nwaiting)
		recheck_waiting(g);
	return pi;
}

/* ---- features ---- */

int carc_game_spot_feature(const struct carc_game *g, int placement, int spot)
{
	const struct carc_placement *p = &g->placed[placement];
	const struct carc_tile *t = &g->ts->tiles[p->tile];
	if (spot <= CARC_SPOT_WNW)
		return carc_tile_half(t, p->rot, spot);
	if (spot <= CARC_SPOT_W)
		return carc_tile_edge_feature(t, p->rot, spot - CARC_SPOT_N);
	return t->centre_feature;
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
	return !(g->closed_classes >> g->segs[root].klass & 1) || g->closed_hook(g, root);
}

bool carc_game_feature_complete(struct carc_game *g, uint32_t root)
{
	root = find(g, root);
	return root_complete(g, root) && (!g->closed_hook || closed_complete(g, root));
}

/* With a closed_complete hook: takes the features it finds not complete off
 * this turn's completion list and keeps them waiting. */
static void settle_pending(struct carc_game *g)
{
	int n = 0;
	for (int i = 0; i < g->npending; i++) {
		uint32_t r = find(g, g->pending[i]);
		if (g->segs[r].scored || closed_complete(g, r)) {
			g->pending[n++] = g->pending[i];
			continue;
		}
		g->segs[r].pending = 0;
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
static void recheck_waiting(struct carc_game *g)
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

/* A fresh mark for g->stamp and g->mark, different from every mark left in
 * them; when the counter wraps, both are cleared. */
static inline uint32_t next_epoch(struct carc_game *g)
{
	if (++g->epoch == 0) {
		memset(g->stamp, 0, g->stamp_cap * sizeof *g->stamp);
		if (g->mark)
			memset(g->mark, 0, g->mark_cap * sizeof *g->mark);
		g->epoch = 1;
	}
	return g->epoch;
}

/* The distinct tiles of a feature (by root): its members walked, with a
 * stamp per placement. Counted without a branch: whether a member lies on
 * a tile already seen is unpredictable. The walk goes four members at a
 * time, round the circular list past its end when the feature has fewer
 * (a member seen again adds nothing): most features have at most four, and
 * a loop whose length changes from feature to feature costs a mispredicted
 * branch at its end. */
static inline int count_tiles(struct carc_game *g, uint32_t root)
{
	uint32_t epoch = next_epoch(g);
	const struct seg *segs = g->segs;
	uint32_t *restrict stamp = g->stamp;
	int n = 0, left = segs[root].size;
	uint32_t s = root;
	do {
		for (int k = 0; k < 4; k++) {
			uint16_t pl = segs[s].placement;
			n += stamp[pl] != epoch;
			stamp[pl] = epoch;
			s = segs[s].next;
		}
		left -= 4;
	} while (left > 0);
	return n;
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
 * covers, or C; in board orientation. */
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
	carc_buf_printf(out, "the %s at %s of %s (%d,%d)", g->ts->kinds[g->segs[best].kind].name,
			carc_spot_name(segment_spot(g, best)), g->ts->tiles[p->tile].id, p->x, p->y);
}

void carc_game_each_feature(struct carc_game *g, carc_feature_fn fn, void *ctx)
{
	for (uint32_t s = 0; s < g->nsegs; s++)
		if (g->segs[s].parent == s)
			fn(ctx, s);
}

/* ---- followers ---- */

int carc_game_supply(const struct carc_game *g, int colour) { return g->supply[colour]; }
int carc_game_huts(const struct carc_game *g, int colour) { return g->huts[colour]; }

/* Room for one more follower. */
static inline void follower_room(struct carc_game *g)
{
	if (g->nfollowers == g->followers_cap) {
		g->followers_cap = g->followers_cap ? 2 * g->followers_cap : 32;
		g->followers = xrealloc(g->followers, g->followers_cap * sizeof *g->followers);
		g->fnext = xrealloc(g->fnext, g->followers_cap * sizeof *g->fnext);
	}
}

void carc_game_deploy(struct carc_game *g, int placement, int feature, int spot, int colour, int role, int turn)
{
	const struct carc_role *r = &g->rules->roles[role];
	if (r->hut) {
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
		root->count[colour]++;
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

/* Room for n more events, so that put_event need not look. */
static inline void reserve_events(struct carc_game *g, size_t n)
{
	if (g->totals.nevents + n > g->events_cap) {
		size_t cap = g->events_cap ? 2 * g->events_cap : 64;
		while (cap < g->totals.nevents + n)
			cap *= 2;
		g->events_cap = cap;
		g->events = xrealloc(g->events, cap * sizeof *g->events);
	}
}

/* The next event, not cleared: there must be room (reserve_events). */
static inline struct carc_event *put_event(struct carc_game *g)
{
	return &g->events[g->totals.nevents++];
}

static inline struct carc_event *new_event(struct carc_game *g)
{
	reserve_events(g, 1);
	struct carc_event *ev = put_event(g);
	memset(ev, 0, sizeof *ev);
	return ev;
}

struct carc_event *carc_game_add_event(struct carc_game *g)
{
	return new_event(g);
}


#if !defined(__SSE2__)
/* Lane by lane, the larger of a and b: four 16-bit lanes, each holding a
 * value below 256, so that a lane's bit 8 can take the borrow of a - b. */
static inline uint64_t lane_max(uint64_t a, uint64_t b)
{
	const uint64_t nine = 0x0100010001000100u;  /* bit 8 of each lane */
	uint64_t ge = ((a | nine) - b) & nine;      /* bit 8 stays where a >= b */
	return b ^ ((a ^ b) & (ge - (ge >> 8)));    /* ge - (ge >> 8): 0xff there */
}

/* The largest of the 8 bytes of x: odd bytes against even ones, then the
 * four maxima folded, halves then quarters. */
static inline unsigned max_byte(uint64_t x)
{
	const uint64_t low = 0x00ff00ff00ff00ffu;
	uint64_t m = lane_max(x & low, x >> 8 & low);
	m = lane_max(m, m >> 32);
	m = lane_max(m, m >> 16);
	return (unsigned)(m & 0xff);
}
#endif

/* The colours with the most followers on a feature, among the seated ones
 * (lanes: g->seated_lanes): bit c for colour c; 0 when it holds none of
 * theirs. Branch-free, on the 7 counts read as one word: a feature's owners
 * are a coin toss for the branch predictor. With SSE2, the largest count
 * is found in a vector register (three byte maxima), else in a word. */
static inline uint8_t majority(const uint8_t *count, uint64_t lanes)
{
	uint64_t x;
	memcpy(&x, count, 8);
	x &= lanes;
#if defined(__SSE2__)
	__m128i v = _mm_loadl_epi64((const __m128i *)(const void *)&x);
	__m128i m = _mm_max_epu8(v, _mm_srli_epi64(v, 32));
	m = _mm_max_epu8(m, _mm_srli_epi64(m, 16));
	m = _mm_max_epu8(m, _mm_srli_epi64(m, 8));
	/* byte 0 of m is the largest: spread over the low 8 bytes */
	m = _mm_shufflelo_epi16(_mm_unpacklo_epi8(m, m), 0);
	unsigned at_best = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, m));
	unsigned best = (unsigned)_mm_cvtsi128_si32(m) & 0xffu;
	/* the unseated lanes hold 0: they are at best only when best is 0 */
	return (uint8_t)(at_best & 0x7fu & -(unsigned)(best != 0));
#else
	const uint64_t ones = 0x0101010101010101u, low7 = 0x7f7f7f7f7f7f7f7fu;
	unsigned best = max_byte(x);
	/* the bytes equal to best are the zero bytes of y: their bit 7 is the
	 * only one clear in (low 7 bits + 0x7f) | y | 0x7f, carry-free */
	uint64_t y = x ^ (best * ones);
	uint64_t at_best = ~(((y & low7) + low7) | y | low7) & lanes;
	/* gather bit 7 of byte c into bit c (the products cannot collide) */
	uint8_t winners = (uint8_t)(((at_best >> 7) * 0x0102040810204080u) >> 56);
	return (uint8_t)(winners & -(unsigned)(best != 0));
#endif
}

uint8_t carc_game_majority(const struct carc_game *g, const uint8_t *count)
{
	uint8_t c8[8] = {0};
	memcpy(c8, count, CARC_COLOURS);
	return majority(c8, g->seated_lanes);
}

/* Takes the followers off a scored feature; those whose role returns go
 * back to the supply. */
static HOT_INLINE void lift_followers(struct carc_game *g, uint32_t root)
{
	struct seg *s = &g->segs[root];
	if (!s->fhead)
		return;
	uint32_t h = s->fhead - 1, i = h;
	do {
		struct carc_follower *f = &g->followers[i];
		f->active = 0;
		g->supply[f->colour] += g->returning_roles >> f->role & 1;
		i = g->fnext[i];
	} while (i != h);
	s->fhead = 0;
	memset(s->count, 0, sizeof s->count);
}

/* Pays points to each colour of winners (bit c: colour c), from source.
 * The first winner is paid without a branch (nothing, to colour 0, when
 * there is none): whether a feature has a winner is a coin toss; more than
 * one (a tie) is rare. */
static HOT_INLINE void pay(struct carc_game *g, unsigned winners, int points, int source)
{
	unsigned c = (unsigned)carc_lowest_bit(winners | 0x100u) & 7u; /* 0 when none */
	int first = points & -(int)(winners != 0);
	g->totals.score[c] += first;
	g->from[c][source] += first;
	for (unsigned w = winners & (winners - 1); w; w &= w - 1)
		carc_game_add_points(g, carc_lowest_bit(w), points, source);
}

/* The value of a feature under the game's rules. complete: during play.
 * Chosen by class without a branch: the class of the next feature scored
 * is a coin toss. */
static HOT_INLINE int feature_value(struct carc_game *g, uint32_t root, int tiles, bool complete, uint16_t *bonus)
{
	const struct seg *s = &g->segs[root];
	*bonus = 0;
	if (g->value_hook)
		return g->value_hook(g, root, tiles, complete, bonus);
	unsigned klass = s->klass;
	/* attrs[root] holds the feature's attributes only with has_attr: else
	 * they are read from no_attrs, hot, rather than from a line of attrs
	 * that may not be in the cache; the address chosen without a branch
	 * (which features have attributes is a coin toss) */
	static const seg_attrs no_attrs;
	uintptr_t own = (uintptr_t)g->attrs[root], none = (uintptr_t)no_attrs;
	const uint16_t *attrs = (const uint16_t *)(none ^ ((own ^ none) & -(uintptr_t)(s->has_attr != 0)));
	int pennants = attrs[CARC_ATTR_PENNANT];
	int enclosure, site;
	if (complete) {
		bool small = (g->edition < 3) & (tiles == 2);
		enclosure = small ? 2 + pennants : 2 * tiles + 2 * pennants;
		site = 9;
	} else {
		enclosure = tiles + pennants;
		site = 1 + taken_around(g, &g->placed[s->placement]);
	}
	int is_path = -(int)(klass == CARC_CLASS_PATH), is_enclosure = -(int)(klass == CARC_CLASS_ENCLOSURE);
	int is_site = -(int)(klass == CARC_CLASS_SITE);
	*bonus = (uint16_t)(pennants & is_enclosure);
	return (tiles & is_path) | (enclosure & is_enclosure) | (site & is_site);
}

/* The source of a feature's points by class (index: klass & 7), during play
 * and at the end. */
static const uint8_t play_source[8] = {CARC_SRC_PLAY_PATH, CARC_SRC_PLAY_ENCLOSURE, CARC_SRC_PLAY_SITE,
				       CARC_SRC_OTHER, CARC_SRC_OTHER, CARC_SRC_OTHER, CARC_SRC_OTHER, CARC_SRC_OTHER};
static const uint8_t end_source[8] = {CARC_SRC_END_PATH, CARC_SRC_END_ENCLOSURE, CARC_SRC_END_SITE,
				      CARC_SRC_OTHER, CARC_SRC_OTHER, CARC_SRC_OTHER, CARC_SRC_OTHER, CARC_SRC_OTHER};
_Static_assert(CARC_CLASS_PATH == 0 && CARC_CLASS_ENCLOSURE == 1 && CARC_CLASS_SITE == 2,
	       "play_source and end_source are indexed by class");

/* Scores a feature (by root): one event, the points, its followers lifted.
 * There must be room for the event (reserve_events). Inlined into its
 * callers, each with complete fixed. */
static HOT_INLINE void score_feature(struct carc_game *g, uint32_t root, int turn, bool complete)
{
	struct seg *s = &g->segs[root];
	int tiles = count_tiles(g, root);
	uint8_t source = (complete ? play_source : end_source)[s->klass & 7];
	uint16_t pennants;
	int points = feature_value(g, root, tiles, complete, &pennants);
	/* 0 when it holds no follower of a seated colour */
	uint8_t winners = majority(s->count, g->seated_lanes);
	uint8_t paid = winners;
	if (g->award && winners)
		paid = g->award(g->award_ctx, g, winners, points);
	struct carc_event *ev = put_event(g);
	*ev = (struct carc_event){
		.type = complete ? CARC_EV_COMPLETED : CARC_EV_INCOMPLETE,
		.kind = s->kind,
		.source = source,
		.turn = (uint16_t)turn,
		.feature = root,
		.tiles = (uint16_t)tiles,
		.pennants = pennants,
		.points = (int16_t)points,
		.winners = paid,
		.skipped = (uint8_t)(winners & ~paid),
	};
	memcpy(ev->followers, s->count, sizeof ev->followers);
	pay(g, paid, points, source);
	s->scored = 1;
	s->pending = 0;
	lift_followers(g, root);
}

int carc_game_completed(struct carc_game *g, uint32_t *roots, int max)
{
	if (g->closed_hook)
		settle_pending(g);
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
		settle_pending(g);
	reserve_events(g, (size_t)g->npending);
	for (int i = 0; i < g->npending; i++) {
		uint32_t r = find(g, g->pending[i]);
		if (!g->segs[r].scored)
			score_feature(g, r, turn, true);
	}
	g->npending = 0;
	return (int)(g->totals.nevents - before);
}

/* ---- a whole turn ---- */

/* carc_game_check_place(...) == 0, without the why; *at is then the cell. */
static inline bool fits(struct carc_game *g, const struct orient *mo, int x, int y, struct cell **at)
{
	if (!inside(g, x, y))
		return false; /* no neighbour there */
	struct cell *cell = &g->grid[(x + g->radius) + (y + g->radius) * g->dim];
	*at = cell;
	uint32_t need = cell->need;
	if (cell->placement || !need)
		return false; /* taken, or no neighbour */
	/* the bytes of need that are not 0, as 0xFF */
	uint32_t set = (need | ((need & 0x7F7F7F7Fu) + 0x7F7F7F7Fu)) & 0x80808080u;
	uint32_t mask = (set >> 7) * 0xFFu;
	if (((mo->edges + 0x01010101u) & mask) != need)
		return false; /* an edge that does not match */
	if (g->table_w > 0) {
		int32_t lo_x = x < g->min_x ? x : g->min_x, hi_x = x > g->max_x ? x : g->max_x;
		int32_t lo_y = y < g->min_y ? y : g->min_y, hi_y = y > g->max_y ? y : g->max_y;
		if (hi_x - lo_x + 1 > g->table_w || hi_y - lo_y + 1 > g->table_h)
			return false;
	}
	return true;
}

int carc_game_play(struct carc_game *g, int tile, int rot, int x, int y, int colour, int turn, int role, int spot,
		   int *placement)
{
	rot &= 3;
	const struct orient *mo = &g->orient[tile * 4 + rot];
	struct cell *cell;
	if (g->left[tile] <= 0 || !fits(g, mo, x, y, &cell)) {
		*placement = -1;
		return CARC_PLAY_NONE;
	}
	g->left[tile]--; /* carc_game_draw */
	if (mo->bonus)
		g->bonus_left--;
	else
		g->totals.land_left--;
	int pi = place_tile(g, tile, rot, x, y, colour, turn, cell, true);
	*placement = pi;
	if (g->nwaiting)
		recheck_waiting(g);
	if (role >= 0) {
		/* the four reasons to refuse tested as one: each is rare, but
		 * four branches after the joins, whose outcomes fill the branch
		 * predictor's history, cost more than the reads (the kind of
		 * feature f & 15 is read for no feature too: some feature's) */
		int f = (unsigned)spot < CARC_SPOT_COUNT ? mo->spot[spot] : CARC_NO_FEATURE;
		unsigned kind = g->templates[tile * CARC_MAX_FEATURES + (f & (CARC_MAX_FEATURES - 1))].kind;
		if ((f == CARC_NO_FEATURE) | g->rules->roles[role].hut | (g->supply[colour] <= 0) |
		    !(g->may_stand[role] >> kind & 1))
			return CARC_PLAY_PLACED;
		uint32_t seg = g->placed[pi].seg0 + (uint32_t)f;
		struct seg *root = &g->segs[find(g, seg)];
		if (has_followers(root))
			return CARC_PLAY_PLACED; /* occupied */
		/* carc_game_deploy, for a follower (not a hut) from a supply that
		 * has one, on a feature that holds none (fhead 0) */
		follower_room(g);
		uint32_t fi = (uint32_t)g->nfollowers++;
		g->followers[fi] = (struct carc_follower){
			(uint8_t)colour, (uint8_t)role, 1, (uint8_t)spot, seg, (uint16_t)turn, (uint16_t)pi};
		g->supply[colour]--;
		root->count[colour]++;
		g->fnext[fi] = fi;
		root->fhead = fi + 1;
	}
	if (g->npending)
		carc_game_score_completed(g, turn);
	return CARC_PLAY_DONE;
}

/* ---- final scoring ---- */

/* A member of a farm that borders cities, for score_farms, as one word:
 * the first segment of its placement (bits 0-31), the features of the
 * placement it borders (carc_feature.borders, bits 32-47) and the farm
 * (its index, bits 48-63). */
typedef uint64_t farm_edge;

/* Every farm counted holds a follower: 7 colours x 99 followers at most
 * (rules.c), so MAX_FARMS cannot cut one off. */
enum { MAX_FARMS = CARC_COLOURS * 99 + 1 };
_Static_assert(MAX_FARMS <= 65536 && CARC_MAX_FEATURES <= 16, "a farm edge holds a farm and its borders");

/* Room for final scoring's scratch: a map of a bit per segment
 * (followed_roots); per segment, a mark, a farm edge and a farm index, and
 * a spare edge (score_farms). */
static void final_room(struct carc_game *g)
{
	size_t words = (g->nsegs + 63) / 64;
	if (g->rootmap_cap < words) {
		g->rootmap_cap = words;
		g->rootmap = xrealloc(g->rootmap, g->rootmap_cap * sizeof *g->rootmap);
	}
	if (g->mark_cap < g->nsegs) {
		size_t cap = g->segs_cap; /* at least nsegs: sized once per tile set */
		g->mark = xrealloc(g->mark, cap * sizeof *g->mark);
		memset(g->mark + g->mark_cap, 0, (cap - g->mark_cap) * sizeof *g->mark);
		g->edges = xrealloc(g->edges, (cap + 1) * sizeof *g->edges);
		g->farm_of = xrealloc(g->farm_of, cap * sizeof *g->farm_of);
		g->mark_cap = cap;
	}
}

enum { ROOT_FEATURES, ROOT_FARMS, ROOT_NOTHING };

/* What a feature that holds a follower that counts (on the map, not a hut)
 * is to final scoring, by its class (& 7) and whether it has been scored:
 * ROOT_FEATURES for an unscored road, city or cloister, ROOT_FARMS for a
 * farm, else ROOT_NOTHING. */
static const uint8_t root_kind[8][2] = {
	[CARC_CLASS_PATH] = {ROOT_FEATURES, ROOT_NOTHING},
	[CARC_CLASS_ENCLOSURE] = {ROOT_FEATURES, ROOT_NOTHING},
	[CARC_CLASS_SITE] = {ROOT_FEATURES, ROOT_NOTHING},
	[CARC_CLASS_AREA] = {ROOT_FARMS, ROOT_FARMS},
	[CARC_CLASS_LAKE] = {ROOT_NOTHING, ROOT_NOTHING},
	[5] = {ROOT_FEATURES, ROOT_NOTHING},
	[6] = {ROOT_FEATURES, ROOT_NOTHING},
	[7] = {ROOT_FEATURES, ROOT_NOTHING},
};
_Static_assert(CARC_CLASS_COUNT <= 5, "root_kind covers every class");

/* Takes root r, which holds a follower that counts, into features or farms
 * by its kind (root_kind), without a branch: it is written to both and
 * counted in at most one, while there is room (max). */
static inline void take_root(const struct seg *segs, uint32_t r, uint32_t *features, int *nfe, uint32_t *farms,
			     int *nfa, int max)
{
	unsigned kind = root_kind[segs[r].klass & 7][segs[r].scored != 0];
	features[*nfe] = r;
	farms[*nfa] = r;
	*nfe += (int)((kind == ROOT_FEATURES) & (*nfe < max));
	*nfa += (int)((kind == ROOT_FARMS) & (*nfa < max));
}

/* The roots of the features that hold followers on the map (huts excepted),
 * each once, in segment order (the order of final scoring): the unscored
 * roads, cities and cloisters into features, the farms into farms, at most
 * max of each (the lowest; the rules allow no more followers than that, so
 * none is left out); features and farms have room for max + 1. One pass
 * over the followers sets a bit per root that holds one that counts, in a
 * map, which drops repeats and sorts (a follower that does not count sets
 * a bit of 0, so that no test on it needs a branch); each root is then
 * told by its kind once (take_root), rather than once per follower. When
 * the map is at most 63 words, a word of flags says which words hold bits,
 * and one loop takes the roots out, a root a turn: a loop per word would
 * end, mispredicted, once each. */
static void followed_roots(struct carc_game *g, uint32_t *features, int *nfeatures, uint32_t *farms, int *nfarms,
			   int max)
{
	size_t words = (g->nsegs + 63) / 64;
	uint64_t *map = g->rootmap;
	const struct seg *segs = g->segs;
	memset(map, 0, words * sizeof *map);
	uint64_t busy = 0; /* bit w: map[w] has bits (up to word 63) */
	unsigned hut_roles = g->hut_roles;
	for (size_t i = 0; i < g->nfollowers; i++) {
		const struct carc_follower *f = &g->followers[i];
		uint32_t r = segs[f->segment].parent;
		uint64_t counts = (f->active != 0) & ~(hut_roles >> f->role) & 1u;
		map[r / 64] |= counts << (r % 64);
		busy |= counts << (r / 64 % 64);
	}
	int nfe = 0, nfa = 0;
	if (words < 64) {
		while (busy) {
			size_t w = (size_t)carc_lowest_bit(busy);
			uint64_t x = map[w];
			take_root(segs, (uint32_t)(w * 64 + (size_t)carc_lowest_bit(x)), features, &nfe, farms, &nfa,
				  max);
			x &= x - 1;
			map[w] = x;
			busy &= ~((uint64_t)(x == 0) << w);
		}
	} else {
		for (size_t w = 0; w < words; w++)
			for (uint64_t x = map[w]; x; x &= x - 1)
				take_root(segs, (uint32_t)(w * 64 + (size_t)carc_lowest_bit(x)), features, &nfe, farms,
					  &nfa, max);
	}
	*nfeatures = nfe;
	*nfarms = nfa;
}

struct farm {
	uint32_t root;
	uint8_t owners;
	uint16_t tiles;
	uint32_t first_city, ncities; /* into the city list */
};

/* n fresh marks for g->stamp and g->mark, the first returned, different
 * from every mark left in them; when the counter would wrap, both are
 * cleared. */
static uint32_t next_epochs(struct carc_game *g, uint32_t n)
{
	if (g->epoch > UINT32_MAX - n) {
		memset(g->stamp, 0, g->stamp_cap * sizeof *g->stamp);
		if (g->mark)
			memset(g->mark, 0, g->mark_cap * sizeof *g->mark);
		g->epoch = 0;
	}
	uint32_t first = g->epoch + 1;
	g->epoch += n;
	return first;
}

/* The completed cities of the farm edges (nedges of them, farm after farm),
 * one a turn: each once per farm (a mark per city root, epoch0 + the farm's
 * index), in the order of the edges, counted in farms[].ncities and listed
 * in grouped, farm after farm (room for a city per bit of every edge's
 * borders, and a spare, written and not counted). Returns the count listed. */
static int link_cities(struct carc_game *g, const farm_edge *edges, size_t nedges, uint32_t epoch0, struct farm *farms,
		       uint32_t *grouped)
{
	const struct seg *segs = g->segs;
	uint32_t *mark = g->mark;
	int nlinks = 0;
	size_t e = 0;
	farm_edge x = edges[0];
	uint32_t bits = (uint32_t)(x >> 32) & 0xffffu;
	while (e < nedges) {
		uint32_t f = (uint32_t)(x >> 48), fe = epoch0 + f;
		uint32_t cr = segs[(uint32_t)x + (uint32_t)carc_lowest_bit(bits)].parent;
		/* borders names cities (tileset.c), which are complete when closed
		 * (an open one marked is never counted all the same) */
		bool fresh = (segs[cr].open == 0) & (mark[cr] != fe);
		mark[cr] = fe;
		grouped[nlinks] = cr;
		nlinks += fresh;
		farms[f].ncities += fresh;
		bits &= bits - 1;
		size_t next = bits == 0;
		e += next;
		x = edges[e];
		bits = next ? (uint32_t)(x >> 32) & 0xffffu : bits;
	}
	return nlinks;
}

/* Farms: every area feature with farmers (roots, in segment order), and the
 * completed cities it borders, each once. */
static void score_farms(struct carc_game *g, const uint32_t *roots, int nroots)
{
	struct farm farms[MAX_FARMS + 1];
	int nfarms = 0;

	/* The farms with owners, each with a mark of its own (epoch0 + its
	 * index) for its tiles and its cities. All their members are walked in
	 * one loop, as one list: swapping the next members of two roots joins
	 * their circular lists, so with each farm's root swapped with the
	 * previous farm's as the farms are found, the list from the member
	 * after the first farm's root holds farm 0, then farm 1, ..., each from
	 * the member after its root round to the root. (Their own next members
	 * are put back after the walk, from next0.) The swaps are made without
	 * a branch on whether a root has owners: a root swapped with itself is
	 * left as it is. */
	struct seg *segs = g->segs;
	uint16_t *farm_of = g->farm_of;
	uint32_t next0[MAX_FARMS + 1];
	uint32_t prev = 0; /* the last farm's root */
	for (int i = 0; i < nroots; i++) {
		uint32_t s0 = roots[i];
		uint8_t owners = majority(segs[s0].count, g->seated_lanes);
		farms[nfarms] = (struct farm){.root = s0, .owners = owners};
		next0[nfarms] = segs[s0].next;
		farm_of[s0] = (uint16_t)nfarms;
		uint32_t a = nfarms ? prev : s0, b = owners ? s0 : a;
		uint32_t t = segs[a].next;
		segs[a].next = segs[b].next;
		segs[b].next = t;
		prev = b;
		nfarms += owners != 0;
	}
	if (!nfarms)
		return;

	/* The walk (a pointer chase, each member's farm read from its root:
	 * farm_of) counts the tiles with a stamp per placement (seen[i]: the
	 * count after farm i) and notes the members that border cities, both
	 * without a branch. Then the cities of the noted members, one a turn
	 * (link_cities). Most of these tests are coin tosses for the branch
	 * predictor, and a loop per farm or per member would end, mispredicted,
	 * once each: hence the arithmetic and the single loops. */
	const struct carc_placement *placed = g->placed;
	const uint16_t *tile_borders = g->borders;
	uint32_t *stamp = g->stamp;
	farm_edge *edges = g->edges;
	int seen[MAX_FARMS];
	uint32_t epoch0 = next_epochs(g, (uint32_t)nfarms);
	uint32_t start = next0[0];
	int tiles = 0;
	size_t nedges = 0;
	uint32_t sg = start;
	do {
		const struct seg *m = &segs[sg];
		uint32_t f = farm_of[m->parent], pl = m->placement, epoch = epoch0 + f;
		tiles += stamp[pl] != epoch;
		stamp[pl] = epoch;
		uint64_t b = tile_borders[placed[pl].tile * CARC_MAX_FEATURES + m->feature];
		edges[nedges] = (sg - m->feature) | b << 32 | (uint64_t)f << 48;
		nedges += b != 0;
		seen[f] = tiles;
		sg = m->next;
	} while (sg != start);
	/* each farm's cities, farm after farm; a farm's first_city and ncities
	 * say where its own are */
	if (g->links_cap < 16 * nedges + 1) {
		g->links_cap = 16 * nedges + 1;
		g->links = xrealloc(g->links, g->links_cap * sizeof *g->links);
	}
	uint32_t *grouped = g->links;
	int nlinks = link_cities(g, edges, nedges, epoch0, farms, grouped);
	for (uint32_t i = 0, first = 0; i < (uint32_t)nfarms; i++) {
		segs[farms[i].root].next = next0[i];
		farms[i].tiles = (uint16_t)(seen[i] - (i ? seen[i - 1] : 0));
		farms[i].first_city = first;
		first += farms[i].ncities;
	}

	if (g->edition == 3) {
		reserve_events(g, (size_t)nfarms);
		for (int fi = 0; fi < nfarms; fi++) {
			struct farm *fm = &farms[fi];
			struct carc_event *ev = put_event(g);
			*ev = (struct carc_event){
				.type = CARC_EV_FARM,
				.kind = segs[fm->root].kind,
				.source = CARC_SRC_AREA,
				.feature = fm->root,
				.tiles = fm->tiles,
				.cities = (uint16_t)fm->ncities,
				.points = (int16_t)(3 * fm->ncities),
				.winners = fm->owners,
			};
			memcpy(ev->followers, segs[fm->root].count, sizeof ev->followers);
			pay(g, fm->owners, ev->points, CARC_SRC_AREA);
		}
	} else if (g->edition == 2) {
		/* A colour scores a city once, from the first of its farms that borders it. */
		uint8_t *credited = xcalloc((size_t)nlinks + 1, 1);
		for (int fi = 0; fi < nfarms; fi++) {
			struct farm *fm = &farms[fi];
			for (int c = 0; c < CARC_COLOURS; c++) {
				if (!(fm->owners & (1u << c)))
					continue;
				int fresh = 0;
				for (uint32_t j = fm->first_city; j < fm->first_city + fm->ncities; j++) {
					bool done = false;
					for (int k = 0; k < nlinks && !done; k++)
						done = grouped[k] == grouped[j] && (credited[k] & (1u << c));
					if (!done) {
						credited[j] |= (uint8_t)(1u << c);
						fresh++;
					}
				}
				struct carc_event *ev = new_event(g);
				ev->type = CARC_EV_FARM;
				ev->kind = g->segs[fm->root].kind;
				ev->source = CARC_SRC_AREA;
				ev->feature = fm->root;
				ev->tiles = fm->tiles;
				ev->cities = (uint16_t)fresh;
				ev->points = (int16_t)(3 * fresh);
				memcpy(ev->followers, g->segs[fm->root].count, sizeof ev->followers);
				ev->winners = (uint8_t)(1u << c);
				carc_game_add_points(g, c, ev->points, CARC_SRC_AREA);
			}
		}
		free(credited);
	} else {
		/* 1st edition: city by city (in segment order), the farmers of all
		 * farms bordering it. */
		uint32_t *order = xmalloc(((size_t)nlinks + 1) * sizeof *order);
		int ncities = 0;
		for (int j = 0; j < nlinks; j++) {
			int k = ncities;
			while (k > 0 && order[k - 1] > grouped[j])
				k--;
			if (k > 0 && order[k - 1] == grouped[j])
				continue;
			memmove(order + k + 1, order + k, (size_t)(ncities - k) * sizeof *order);
			order[k] = grouped[j];
			ncities++;
		}
		for (int oi = 0; oi < ncities; oi++) {
			int j = 0;
			while (grouped[j] != order[oi])
				j++;
			uint8_t count[8] = {0}; /* majority reads a word: CARC_COLOURS and a spare */
			for (int fi = 0; fi < nfarms; fi++) {
				struct farm *fm = &farms[fi];
				bool borders = false;
				for (uint32_t k = fm->first_city; k < fm->first_city + fm->ncities && !borders; k++)
					borders = grouped[k] == grouped[j];
				if (borders)
					for (int c = 0; c < CARC_COLOURS; c++)
						count[c] = (uint8_t)(count[c] + g->segs[fm->root].count[c]);
			}
			uint8_t owners = majority(count, g->seated_lanes);
			struct carc_event *ev = new_event(g);
			ev->type = CARC_EV_FARM;
			ev->kind = g->segs[grouped[j]].kind;
			ev->source = CARC_SRC_AREA;
			ev->feature = grouped[j];
			ev->tiles = (uint16_t)carc_game_feature_tiles(g, grouped[j]);
			ev->cities = 1;
			ev->points = 4;
			memcpy(ev->followers, count, sizeof ev->followers);
			ev->winners = owners;
			for (int c = 0; c < CARC_COLOURS; c++)
				if (owners & (1u << c))
					carc_game_add_points(g, c, 4, CARC_SRC_AREA);
		}
		free(order);
	}
}

void carc_game_score_final(struct carc_game *g)
{
	if (g->final_hook) {
		g->final_hook(g); /* the rule set's own */
		return;
	}
	/* Unfinished roads, cities and cloisters with followers, in segment
	 * order; then the farms. */
	enum { MAX_ROOTS = CARC_COLOURS * 99 + 1 }; /* each holds a follower: 7 x 99 at most */
	uint32_t features[MAX_ROOTS + 1], farms[MAX_ROOTS + 1];
	int nfeatures, nfarms;
	final_room(g);
	followed_roots(g, features, &nfeatures, farms, &nfarms, MAX_ROOTS);
	reserve_events(g, (size_t)nfeatures);
	for (int i = 0; i < nfeatures; i++)
		score_feature(g, features[i], 0, false);
	score_farms(g, farms, nfarms);
}
