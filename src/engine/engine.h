/*
 * engine.h - the engine's private header: its data structures and the small
 * functions its files share (board.c, features.c, farms.c, game.c), in the
 * manner of SQLite's sqliteInt.h. Nothing outside src/engine/ includes it;
 * the engine's interface is game.h.
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
#ifndef CARC_ENGINE_H
#define CARC_ENGINE_H

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
	uint8_t count[8];    /* per colour (7 used), its figures' weights in the majority summed
				(carc_role_weight: a follower 1, so in the base game its followers),
				added as one word */
	uint32_t fhead;      /* roots: 1 + one of its followers (huts excepted), 0 for none;
				the others follow it in the circular list fnext */
};

/* A segment's attributes: a count for each attribute of the tile set (the
 * known ones and those it declares, tileset.h), added as four words. */
#define ATTR_SLOTS 16
typedef uint16_t seg_attrs[ATTR_SLOTS];
_Static_assert(CARC_MAX_ATTRS <= ATTR_SLOTS, "a segment's attributes fit in seg_attrs");
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

/* True when the feature (by root) holds figures (huts excepted), whatever
 * they weigh in the majority: its list of them (fhead) is not empty. */
static inline bool has_followers(const struct seg *root)
{
	return root->fhead != 0;
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
	uint8_t place_checked; /* the rule set's check_place hook may refuse it (read_hooks) */
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
	/* carc_game_play: bit k of may_stand[r]: role r may stand on kind k (none for a
	 * hut or a role with a supply of its own: build_roles) */
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
	uint16_t hut_roles;  /* bit r: role r of may_stand_rules is a hut */
	uint16_t returning_roles; /* bit r: role r returns to the followers' supply when scored (a role
				    with a supply of its own, carc_role.own, has what is not on the map) */
	uint8_t role_weight[CARC_MAX_ROLES]; /* what a figure of role r adds to count[] (carc_role_weight) */

	carc_award_fn award;
	void *award_ctx;

	/* the rule set's engine hooks (carc_engine_hooks), read at the start:
	 * those of each module that sets them, in calling order (read_hooks) */
	int nvalue_hooks, nevent_hooks, nclosed_hooks, nplace_hooks;
	int (*value_hooks[1 + CARC_MAX_EXPANSIONS])(struct carc_game *g, uint32_t root, int tiles, bool complete,
						   int value, uint16_t *items);
	void (*event_hooks[1 + CARC_MAX_EXPANSIONS])(struct carc_game *g, struct carc_event *ev);
	bool (*closed_hooks[1 + CARC_MAX_EXPANSIONS])(struct carc_game *g, uint32_t root);
	unsigned closed_classes_of[1 + CARC_MAX_EXPANSIONS];
	const struct carc_engine_hooks *place_hooks[1 + CARC_MAX_EXPANSIONS];
	bool closed_hook;       /* some module has a closed_complete hook */
	unsigned closed_classes; /* the union of their classes */
	void (*final_hook)(struct carc_game *g);
	bool place_hook;        /* some module has a check_place hook */
	bool any_place_checked; /* some orient's place_checked is set */
	const void *place_checked_by; /* ... by which rule set (checks_tile) */
	unsigned long place_checked_for; /* ... for which tile set (serial) */
	bool closed_final;   /* closed_complete's no is final: such a feature waits for nothing */
	uint32_t *waiting;   /* closed features closed_hook found not complete yet (roots) */
	size_t nwaiting, waiting_cap;
};

_Static_assert(offsetof(struct carc_game, max_x) == offsetof(struct carc_game, min_x) + 4 &&
		       offsetof(struct carc_game, min_y) == offsetof(struct carc_game, min_x) + 8 &&
		       offsetof(struct carc_game, max_y) == offsetof(struct carc_game, min_x) + 12,
	       "widen_bounds reads and writes the bounds as one vector");

static const int dx[4] = {0, 1, 0, -1};
static const int dy[4] = {1, 0, -1, 0};

static inline int cell_index(const struct carc_game *g, int x, int y)
{
	if (x < -g->radius || x > g->radius || y < -g->radius || y > g->radius)
		return -1;
	return (x + g->radius) + (y + g->radius) * g->dim;
}

/* A cell strictly inside the grid has all 8 neighbours in the grid, so the
 * hot paths below index around it without bounds checks. Tiles are only ever
 * put on such cells (the grid is larger than any legal map). */
static inline bool inside(const struct carc_game *g, int x, int y)
{
	unsigned span = 2 * (unsigned)g->radius - 1; /* -radius < x < radius */
	return (unsigned)x + (unsigned)g->radius - 1 < span && (unsigned)y + (unsigned)g->radius - 1 < span;
}

/* The root of segment s. */
static HOT_INLINE uint32_t find_in(struct seg *segs, uint32_t s)
{
	return segs[s].parent;
}

static inline uint32_t find(struct carc_game *g, uint32_t s)
{
	return find_in(g->segs, s);
}

/* Attribute a of the feature whose root is root. */
static inline int seg_attr(const struct carc_game *g, uint32_t root, int a)
{
	return g->segs[root].has_attr ? g->attrs[root][a] : 0;
}

/* How many of the 8 cells around a placement are taken (0 for one off the
 * grid: it touches nothing). */
static HOT_INLINE int taken_around(const struct carc_game *g, const struct carc_placement *p)
{
	if (!inside(g, p->x, p->y))
		return 0;
	return g->grid[(p->x + g->radius) + (p->y + g->radius) * g->dim].around;
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

/* Room for one more follower. */
static inline void follower_room(struct carc_game *g)
{
	if (g->nfollowers == g->followers_cap) {
		g->followers_cap = g->followers_cap ? 2 * g->followers_cap : 32;
		g->followers = xrealloc(g->followers, g->followers_cap * sizeof *g->followers);
		g->fnext = xrealloc(g->fnext, g->followers_cap * sizeof *g->fnext);
	}
}

/* Takes the followers off a scored feature; those whose role returns go
 * back to the supply (a role's own supply is its figures off the map). */
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
	for (unsigned w = winners & (winners - 1); w; w &= w - 1) {
		c = (unsigned)carc_lowest_bit(w);
		g->totals.score[c] += points;
		g->from[c][source] += points;
	}
}

/* The value of a feature under the game's rules. complete: during play.
 * Chosen by class without a branch: the class of the next feature scored
 * is a coin toss. */
int carc_engine_adjust_value(struct carc_game *g, uint32_t root, int tiles, bool complete, int value,
			     uint16_t *items);

static HOT_INLINE int feature_value(struct carc_game *g, uint32_t root, int tiles, bool complete, uint16_t *bonus)
{
	const struct seg *s = &g->segs[root];
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
	int value = (tiles & is_path) | (enclosure & is_enclosure) | (site & is_site);
	if (g->nvalue_hooks) /* the modules adjust the base game's value */
		value = carc_engine_adjust_value(g, root, tiles, complete, value, bonus);
	return value;
}

/* The modules' score_event hooks on an event filled and not yet paid. */
void carc_engine_score_event(struct carc_game *g, struct carc_event *ev);

/* Pays an event: its points to every winner, and bonus more to those in
 * bonus_to; the score_event hooks first, when the rule set has some. */
static HOT_INLINE void pay_event(struct carc_game *g, struct carc_event *ev)
{
	if (g->nevent_hooks)
		carc_engine_score_event(g, ev);
	pay(g, ev->winners, ev->points, ev->source);
	if (ev->bonus_to & ev->winners)
		pay(g, ev->bonus_to & ev->winners, ev->bonus, ev->source);
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
		.items = pennants,
		.points = (int16_t)points,
		.winners = paid,
		.skipped = (uint8_t)(winners & ~paid),
	};
	memcpy(ev->followers, s->count, sizeof ev->followers);
	if (g->nevent_hooks) {
		pay_event(g, ev);
	} else {
		pay(g, paid, points, source);
	}
	s->scored = 1;
	s->pending = 0;
	lift_followers(g, root);
}

/* ---- shared between the engine's files ---- */

/* Closed features that the rule set's closed_complete hook found not yet
 * complete (features.c): taken off this turn's completion list and kept
 * waiting; after each placement, those complete now join the list. */
void carc_engine_settle_pending(struct carc_game *g);
void carc_engine_recheck_waiting(struct carc_game *g);

#endif
