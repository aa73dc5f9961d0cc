/*
 * board.c - the map: whether a tile fits, where it may go, and placing it:
 * its features become segments joined to their neighbours' across its
 * edges, sites counted around it; and the one-call turn (carc_game_play).
 * The hot path of a turn is here, with the joins inlined.
 */
#include "engine/engine.h"

/* ---- placement ---- */

/* The placement at a cell, or -1: for callers outside the hot paths. */
int carc_game_at(const struct carc_game *g, int x, int y)
{
	int i = cell_index(g, x, y);
	return i < 0 ? -1 : (int)g->grid[i].placement - 1;
}

int carc_game_check_place(const struct carc_game *g, int tile, int rot, int x, int y,
			  struct carc_place_problem *why)
{
	struct carc_place_problem dummy;
	size_t rule_size = why ? sizeof why->rule : 0; /* no reason in words when only the code is asked */
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
	/* the modules' checks in turn: the first refusal wins */
	for (int k = 0; k < g->nplace_hooks; k++) {
		why->rule[0] = 0;
		why->code = g->place_hooks[k]->check_place(g, tile, rot & 3, x, y, why->rule, rule_size);
		if (why->code)
			return why->code;
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
		carc_engine_recheck_waiting(g);
	return pi;
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
	if (g->left[tile] <= 0 || !fits(g, mo, x, y, &cell) || mo->place_checked) {
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
		carc_engine_recheck_waiting(g);
	if (role >= 0) {
		/* the three reasons to refuse tested as one (a hut, or a role
		 * with a supply of its own, may stand on no kind here:
		 * build_roles): each is rare, but three branches after the
		 * joins, whose outcomes fill the branch predictor's history,
		 * cost more than the reads (the kind of feature f & 15 is read
		 * for no feature too: some feature's) */
		int f = (unsigned)spot < CARC_SPOT_COUNT ? mo->spot[spot] : CARC_NO_FEATURE;
		unsigned kind = g->templates[tile * CARC_MAX_FEATURES + (f & (CARC_MAX_FEATURES - 1))].kind;
		if ((f == CARC_NO_FEATURE) | (g->supply[colour] <= 0) | !(g->may_stand[role] >> kind & 1))
			return CARC_PLAY_PLACED;
		uint32_t seg = g->placed[pi].seg0 + (uint32_t)f;
		struct seg *root = &g->segs[find(g, seg)];
		if (has_followers(root))
			return CARC_PLAY_PLACED; /* occupied */
		/* carc_game_deploy, for a follower (not a hut, nor a role with a
		 * supply of its own) from a supply that has one, on a feature
		 * that holds none (fhead 0) */
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
