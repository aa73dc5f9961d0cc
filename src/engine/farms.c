/*
 * farms.c - final scoring: unfinished features with followers, then the
 * farms (each farm's completed cities, by edition), unless the rule set's
 * score_final hook replaces it.
 */
#include "engine/engine.h"

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
		/* borders names cities (tileset_schema.c), which are complete when closed
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
/* The farms with owners, each with a mark of its own (epoch0 + its index)
 * for its tiles and its cities. All their members are walked in one loop,
 * as one list: swapping the next members of two roots joins their circular
 * lists, so with each farm's root swapped with the previous farm's as the
 * farms are found, the list from the member after the first farm's root
 * holds farm 0, then farm 1, ..., each from the member after its root round
 * to the root. (Their own next members are put back after the walk, from
 * next0.) The swaps are made without a branch on whether a root has owners:
 * a root swapped with itself is left as it is. Returns the farms found. */
static int find_farms(struct carc_game *g, const uint32_t *roots, int nroots, struct farm *farms, uint32_t *next0)
{
	int nfarms = 0;
	struct seg *segs = g->segs;
	uint16_t *farm_of = g->farm_of;
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
	return nfarms;
}

/* The walk (a pointer chase, each member's farm read from its root:
 * farm_of) counts the tiles with a stamp per placement (seen[i]: the count
 * after farm i) and notes the members that border cities, both without a
 * branch. Then the cities of the noted members, one a turn (link_cities).
 * Most of these tests are coin tosses for the branch predictor, and a loop
 * per farm or per member would end, mispredicted, once each: hence the
 * arithmetic and the single loops. Fills each farm's tiles and cities (in
 * g->links, farm after farm) and returns the number of links. */
static int walk_farms(struct carc_game *g, struct farm *farms, int nfarms, const uint32_t *next0)
{
	struct seg *segs = g->segs;
	const uint16_t *farm_of = g->farm_of;
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
	return nlinks;
}

/* 3rd edition: each farm 3 points a completed city it borders, to its owners. */
static void pay_farms_3(struct carc_game *g, const struct farm *farms, int nfarms)
{
	struct seg *segs = g->segs;
	reserve_events(g, (size_t)nfarms);
	for (int fi = 0; fi < nfarms; fi++) {
		const struct farm *fm = &farms[fi];
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
		pay_event(g, ev);
	}
}

/* 2nd edition: a colour scores a city once, from the first of its farms
 * that borders it. */
static void pay_farms_2(struct carc_game *g, const struct farm *farms, int nfarms, const uint32_t *grouped, int nlinks)
{
	uint8_t *credited = xcalloc((size_t)nlinks + 1, 1);
	for (int fi = 0; fi < nfarms; fi++) {
		const struct farm *fm = &farms[fi];
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
			pay_event(g, ev);
		}
	}
	free(credited);
}

/* 1st edition: city by city (in segment order), the farmers of all farms
 * bordering it. */
static void pay_farms_1(struct carc_game *g, const struct farm *farms, int nfarms, const uint32_t *grouped, int nlinks)
{
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
			const struct farm *fm = &farms[fi];
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
		pay_event(g, ev);
	}
	free(order);
}

static void score_farms(struct carc_game *g, const uint32_t *roots, int nroots)
{
	struct farm farms[MAX_FARMS + 1];
	uint32_t next0[MAX_FARMS + 1];
	int nfarms = find_farms(g, roots, nroots, farms, next0);
	if (!nfarms)
		return;
	int nlinks = walk_farms(g, farms, nfarms, next0);
	if (g->edition == 3)
		pay_farms_3(g, farms, nfarms);
	else if (g->edition == 2)
		pay_farms_2(g, farms, nfarms, g->links, nlinks);
	else
		pay_farms_1(g, farms, nfarms, g->links, nlinks);
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
