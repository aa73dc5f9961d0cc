/*
 * swiss.c - one round of a Swiss tournament (swiss.h says what it
 * guarantees and why it is linear in large fields).
 *
 * The pairing goes down the ranking: the top unpaired player p takes the
 * first acceptable opponent in this order: the score groups below p from
 * the top, and within a group the players p is role-compatible with
 * (guarantee 5 holds for one choice of starter) before the others, each
 * part in ranking order. An opponent is acceptable when the players left
 * after the game can still be paired with the rematches left in the
 * round's budget (the fewest any complete pairing needs). While more than
 * 2r + 2 players would be left (r: the most opponents any of them has
 * met), every player left may still meet at least half of the others, so
 * a pairing without rematch exists whatever is chosen (Dirac's theorem:
 * such a graph has a Hamiltonian cycle); below that size the question is
 * put to a maximum matching.
 */
#include "cli/swiss.h"
#include "common/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- maximum matching (Edmonds' blossoms) ---- */

struct blossom {
	const bool *ok;
	size_t m;
	int *match, *parent, *base, *queue;
	bool *used, *in_blossom, *seen;
};

static int common_base(struct blossom *b, int x, int y)
{
	memset(b->seen, 0, b->m * sizeof *b->seen);
	for (;;) {
		x = b->base[x];
		b->seen[x] = true;
		if (b->match[x] < 0)
			break;
		x = b->parent[b->match[x]];
	}
	for (;;) {
		y = b->base[y];
		if (b->seen[y])
			return y;
		y = b->parent[b->match[y]];
	}
}

static void mark_path(struct blossom *b, int v, int top, int child)
{
	while (b->base[v] != top) {
		b->in_blossom[b->base[v]] = b->in_blossom[b->base[b->match[v]]] = true;
		b->parent[v] = child;
		child = b->match[v];
		v = b->parent[b->match[v]];
	}
}

/* An augmenting path from root: its free end, or -1. */
static int find_path(struct blossom *b, int root)
{
	int m = (int)b->m;
	for (int i = 0; i < m; i++) {
		b->used[i] = false;
		b->parent[i] = -1;
		b->base[i] = i;
	}
	int head = 0, tail = 0;
	b->used[root] = true;
	b->queue[tail++] = root;
	while (head < tail) {
		int v = b->queue[head++];
		for (int to = 0; to < m; to++) {
			if (!b->ok[(size_t)v * b->m + (size_t)to] || b->base[v] == b->base[to] || b->match[v] == to)
				continue;
			if (to == root || (b->match[to] >= 0 && b->parent[b->match[to]] >= 0)) {
				int top = common_base(b, v, to);
				memset(b->in_blossom, 0, b->m * sizeof *b->in_blossom);
				mark_path(b, v, top, to);
				mark_path(b, to, top, v);
				for (int i = 0; i < m; i++)
					if (b->in_blossom[b->base[i]]) {
						b->base[i] = top;
						if (!b->used[i]) {
							b->used[i] = true;
							b->queue[tail++] = i;
						}
					}
			} else if (b->parent[to] < 0) {
				b->parent[to] = v;
				if (b->match[to] < 0)
					return to;
				b->used[b->match[to]] = true;
				b->queue[tail++] = b->match[to];
			}
		}
	}
	return -1;
}

size_t swiss_max_matching(const bool *ok, size_t m)
{
	if (m < 2)
		return 0;
	struct blossom b = {.ok = ok, .m = m};
	b.match = xmalloc(4 * m * sizeof *b.match);
	b.parent = b.match + m;
	b.base = b.match + 2 * m;
	b.queue = b.match + 3 * m;
	b.used = xcalloc(3 * m, sizeof *b.used);
	b.in_blossom = b.used + m;
	b.seen = b.used + 2 * m;
	size_t size = 0;
	for (size_t i = 0; i < m; i++)
		b.match[i] = -1;
	for (size_t i = 0; i < m; i++) /* a greedy start saves most searches */
		for (size_t j = i + 1; j < m && b.match[i] < 0; j++)
			if (b.match[j] < 0 && ok[i * m + j]) {
				b.match[i] = (int)j;
				b.match[j] = (int)i;
				size++;
			}
	for (size_t i = 0; i < m; i++) {
		if (b.match[i] >= 0)
			continue;
		int v = find_path(&b, (int)i);
		if (v < 0)
			continue;
		size++;
		while (v >= 0) {
			int pv = b.parent[v], next = b.match[pv];
			b.match[v] = pv;
			b.match[pv] = v;
			v = next;
		}
	}
	free(b.match);
	free(b.used);
	return size;
}

/* ---- the starter ---- */

/* Whether x starting against y breaks rule 5. */
static bool role_breaks(const struct swiss_player *x, const struct swiss_player *y)
{
	return (x->last_role == 'F' && x->streak >= 2) || (y->last_role == 'S' && y->streak >= 2) ||
	       x->balance + 1 > 2 || y->balance - 1 < -2;
}

bool swiss_a_starts(const struct swiss_player *a, const struct swiss_player *b, bool *forced)
{
	bool a_bad = role_breaks(a, b), b_bad = role_breaks(b, a);
	*forced = a_bad && b_bad;
	if (a_bad != b_bad)
		return !a_bad;
	if (a->balance != b->balance)
		return a->balance < b->balance;
	if (a->last_role != b->last_role) {
		if (a->last_role == 'S' || b->last_role == 'F')
			return true;
		if (b->last_role == 'S' || a->last_role == 'F')
			return false;
	}
	return true;
}

static bool compatible(const struct swiss_player *a, const struct swiss_player *b)
{
	return !role_breaks(a, b) || !role_breaks(b, a);
}

/* ---- the round ---- */

struct pairing {
	const struct swiss_player *p;
	size_t n;
	swiss_met_fn met;
	void *ctx;
	bool *taken;          /* paired, given the bye, or inactive */
	size_t r;             /* the most opponents any active player has met */
	size_t *left;         /* scratch: the players left, for the matching */
	bool *ok;             /* scratch: their adjacency */
};

/* The fewest rematches a complete pairing of the players not taken needs
 * (their number even). */
static size_t fewest_rematches(struct pairing *pg)
{
	size_t m = 0;
	for (size_t i = 0; i < pg->n; i++)
		if (!pg->taken[i])
			pg->left[m++] = i;
	for (size_t i = 0; i < m; i++) {
		pg->ok[i * m + i] = false;
		for (size_t j = i + 1; j < m; j++)
			pg->ok[i * m + j] = pg->ok[j * m + i] = !pg->met(pg->ctx, pg->left[i], pg->left[j]);
	}
	return m / 2 - swiss_max_matching(pg->ok, m);
}

/* Whether m players left (m even) are surely pairable without rematch. */
static bool surely_pairable(const struct pairing *pg, size_t m)
{
	return m >= 2 * pg->r + 2;
}

static void add_game(struct pairing *pg, struct swiss_round *out, size_t a, size_t b, bool rematch)
{
	bool forced;
	bool a_first = swiss_a_starts(&pg->p[a], &pg->p[b], &forced);
	out->games[out->ngames++] = (struct swiss_game){
		.first = a_first ? a : b, .second = a_first ? b : a, .rematch = rematch, .role_forced = forced};
	out->rematches += rematch;
	out->role_forced += forced;
}

void swiss_pair_round(const struct swiss_player *p, size_t n, swiss_met_fn met, void *ctx, struct swiss_round *out)
{
	*out = (struct swiss_round){.bye = SWISS_NONE};
	struct pairing pg = {.p = p, .n = n, .met = met, .ctx = ctx};
	pg.taken = xcalloc(n ? n : 1, sizeof *pg.taken);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		pg.taken[i] = !p[i].active;
		if (p[i].active) {
			m++;
			if (p[i].opponents > pg.r)
				pg.r = p[i].opponents;
		}
	}
	out->games = xmalloc((m / 2 + 1) * sizeof *out->games);
	/* the matching's scratch, for the at most 2r + 3 players (or all)
	 * it is asked about */
	size_t cap = 2 * pg.r + 4 < m ? 2 * pg.r + 4 : m;
	pg.left = xmalloc((cap + 1) * sizeof *pg.left);
	pg.ok = xmalloc((cap * cap + 1) * sizeof *pg.ok);

	if (m % 2) { /* the bye: the fewest byes, from the bottom */
		unsigned fewest = ~0u;
		for (size_t i = 0; i < n; i++)
			if (p[i].active && p[i].byes < fewest)
				fewest = p[i].byes;
		size_t best = SWISS_NONE, best_rematches = (size_t)-1;
		for (size_t i = n; i-- > 0;) {
			if (!p[i].active || p[i].byes != fewest)
				continue;
			size_t rematches = 0;
			if (!surely_pairable(&pg, m - 1)) {
				pg.taken[i] = true;
				rematches = fewest_rematches(&pg);
				pg.taken[i] = false;
			}
			if (rematches < best_rematches) {
				best = i;
				best_rematches = rematches;
			}
			if (!rematches)
				break;
		}
		out->bye = best;
		pg.taken[best] = true;
		m--;
	}

	size_t budget = 0; /* rematches still to be used */
	bool exact = !surely_pairable(&pg, m);
	if (exact)
		budget = fewest_rematches(&pg);
	size_t head = 0;
	while (m) {
		while (pg.taken[head])
			head++;
		size_t a = head;
		pg.taken[a] = true;
		if (!exact && !surely_pairable(&pg, m - 2))
			exact = true; /* (a pairing without rematch is still there) */
		size_t chosen = SWISS_NONE;
		bool rematch = false;
		/* the score groups below a, each as two passes: compatible
		 * players first, then the others */
		for (size_t g = a + 1; chosen == SWISS_NONE;) {
			while (g < n && pg.taken[g])
				g++;
			if (g >= n)
				break;
			size_t end = g;
			while (end < n && (pg.taken[end] || p[end].score == p[g].score))
				end++;
			for (int pass = 0; pass < 2 && chosen == SWISS_NONE; pass++)
				for (size_t b = g; b < end && chosen == SWISS_NONE; b++) {
					if (pg.taken[b] || compatible(&p[a], &p[b]) != !pass)
						continue;
					bool again = met(ctx, a, b);
					if (again && (!exact || !budget))
						continue;
					if (exact) {
						pg.taken[b] = true;
						bool fits = fewest_rematches(&pg) <= budget - again;
						pg.taken[b] = false;
						if (!fits)
							continue;
					}
					chosen = b;
					rematch = again;
				}
			g = end;
		}
		if (chosen == SWISS_NONE) /* cannot be: the budget is what a pairing needs */
			abort();
		pg.taken[chosen] = true;
		budget -= rematch;
		add_game(&pg, out, a, chosen, rematch);
		m -= 2;
	}
	free(pg.taken);
	free(pg.left);
	free(pg.ok);
}

void swiss_round_free(struct swiss_round *r)
{
	free(r->games);
	r->games = NULL;
}
