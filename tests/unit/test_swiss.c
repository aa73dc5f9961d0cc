/*
 * test_swiss.c - the Swiss pairing (cli/swiss.c): every guarantee that
 * swiss.h states, checked after every round of 500 random tournaments (6
 * to 60 players, 3 to 9 rounds, random results, absences and
 * withdrawals), the maximum matching against an exhaustive search, and the
 * cases the facts file names (a greedy pairing that needs backtracking;
 * fields where rematches cannot be avoided).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/swiss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 64

/* A small, fixed generator, so the tournaments are the same on every run. */
static uint64_t rng_state;
static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005u + 1442695040888963407u;
	return (unsigned)((rng_state >> 33) % n);
}

static bool met_matrix[MAXP][MAXP];
static size_t rank_to_id[MAXP];

static bool met_ranked(void *ctx, size_t a, size_t b)
{
	(void)ctx;
	return met_matrix[rank_to_id[a]][rank_to_id[b]];
}

/* ---- the matching, against an exhaustive search ---- */

static size_t brute_matching(const bool *ok, size_t m, unsigned used)
{
	size_t i = 0;
	while (i < m && (used >> i & 1))
		i++;
	if (i >= m)
		return 0;
	size_t best = brute_matching(ok, m, used | 1u << i); /* i unmatched */
	for (size_t j = i + 1; j < m; j++)
		if (!(used >> j & 1) && ok[i * m + j]) {
			size_t s = 1 + brute_matching(ok, m, used | 1u << i | 1u << j);
			if (s > best)
				best = s;
		}
	return best;
}

static void test_swiss_matching_exact(void **state)
{
	(void)state;
	rng_state = 7;
	bool ok[14 * 14];
	for (int round = 0; round < 3000; round++) {
		size_t m = 1 + rnd(14);
		unsigned density = 1 + rnd(9);
		memset(ok, 0, sizeof ok);
		for (size_t i = 0; i < m; i++)
			for (size_t j = i + 1; j < m; j++)
				ok[i * m + j] = ok[j * m + i] = rnd(10) < density;
		assert_int_equal(swiss_max_matching(ok, m), brute_matching(ok, m, 0));
	}
}

/* ---- fixed cases ---- */

static void plain_field(struct swiss_player *p, size_t n)
{
	memset(p, 0, n * sizeof *p);
	memset(met_matrix, 0, sizeof met_matrix);
	for (size_t i = 0; i < n; i++) {
		p[i].active = true;
		rank_to_id[i] = i;
	}
}

static void meet(struct swiss_player *p, size_t a, size_t b)
{
	met_matrix[a][b] = met_matrix[b][a] = true;
	p[a].opponents++;
	p[b].opponents++;
}

/* Six players where only 5 and 6 have met: 1-2, 3-4 would leave 5-6; the
 * pairing must find 1-2, 3-5, 4-6 (facts file, 3.3 item 2). */
static void test_swiss_backtracks(void **state)
{
	(void)state;
	struct swiss_player p[6];
	plain_field(p, 6);
	meet(p, 4, 5);
	struct swiss_round r;
	swiss_pair_round(p, 6, met_ranked, NULL, &r);
	assert_int_equal(r.ngames, 3);
	assert_int_equal(r.rematches, 0);
	for (size_t g = 0; g < r.ngames; g++)
		assert_false(met_matrix[r.games[g].first][r.games[g].second]);
	swiss_round_free(&r);
}

static size_t rematches_when_all_met(size_t n, bool star)
{
	struct swiss_player p[6];
	plain_field(p, n);
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			if (!star || a == 0)
				meet(p, a, b);
	struct swiss_round r;
	swiss_pair_round(p, n, met_ranked, NULL, &r);
	size_t again = 0;
	for (size_t g = 0; g < r.ngames; g++)
		again += met_matrix[r.games[g].first][r.games[g].second];
	assert_int_equal(again, r.rematches);
	swiss_round_free(&r);
	return again;
}

/* Four who have all met need 2 rematches, six 3, a star (1 has met 2-6,
 * nobody else has met) exactly 1 (facts file, 3.3 item 2). */
static void test_swiss_fewest_rematches(void **state)
{
	(void)state;
	assert_int_equal(rematches_when_all_met(4, false), 2);
	assert_int_equal(rematches_when_all_met(6, false), 3);
	assert_int_equal(rematches_when_all_met(6, true), 1);
}

/* The starter: fewer starts; equal, alternate; a third start running is
 * avoided even against the balance. */
static void test_swiss_starter(void **state)
{
	(void)state;
	struct swiss_player a = {.balance = 1, .last_role = 'F', .streak = 1};
	struct swiss_player b = {.balance = 0, .last_role = 'S', .streak = 1};
	bool forced;
	assert_false(swiss_a_starts(&a, &b, &forced)); /* b started fewer times */
	assert_false(forced);
	b = (struct swiss_player){.balance = 1, .last_role = 'F', .streak = 1};
	a = (struct swiss_player){.balance = 1, .last_role = 'S', .streak = 1};
	assert_true(swiss_a_starts(&a, &b, &forced)); /* a was second last */
	a = (struct swiss_player){.balance = 0, .last_role = 'F', .streak = 2}; /* F F after S S */
	b = (struct swiss_player){.balance = 1, .last_role = 'S', .streak = 1};
	assert_false(swiss_a_starts(&a, &b, &forced)); /* not F F F, though a started fewer times */
	assert_false(forced);
	b = (struct swiss_player){.balance = 2, .last_role = 'F', .streak = 2};
	swiss_a_starts(&a, &b, &forced);
	assert_true(forced); /* both have started twice running */
}

/* ---- random tournaments ---- */

struct entrant {
	double score;
	unsigned byes, starts, seconds;
	char roles[16];   /* the roles of the games played, in order */
	unsigned nroles;
	unsigned opponents;
	bool withdrawn;
};

static bool breaks(const struct swiss_player *x, const struct swiss_player *y)
{
	return (x->last_role == 'F' && x->streak >= 2) || (y->last_role == 'S' && y->streak >= 2) ||
	       x->balance + 1 > 2 || y->balance - 1 < -2;
}

/* The fewest rematches pairing the active players not in `out` needs. */
static size_t fewest(const struct swiss_player *p, size_t n, const bool *out)
{
	size_t idx[MAXP], m = 0;
	for (size_t i = 0; i < n; i++)
		if (p[i].active && !out[i])
			idx[m++] = i;
	static bool ok[MAXP * MAXP];
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < m; j++)
			ok[i * m + j] = i != j && !met_ranked(NULL, idx[i], idx[j]);
	return m / 2 - swiss_max_matching(ok, m);
}

static int by_standing(const void *x, const void *y, const struct entrant *e)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	if (e[a].score != e[b].score)
		return e[a].score > e[b].score ? -1 : 1;
	return a < b ? -1 : a > b;
}
static const struct entrant *sort_field;
static int cmp_standing(const void *x, const void *y)
{
	return by_standing(x, y, sort_field);
}

/* Checks one round's pairing of p[0..n) against every guarantee. */
static void check_round(const struct swiss_player *p, size_t n, const struct swiss_round *r)
{
	bool seen[MAXP] = {0}, out[MAXP] = {0};
	size_t active = 0;
	for (size_t i = 0; i < n; i++)
		active += p[i].active;
	/* 1: everyone active once, nobody else */
	assert_int_equal(r->ngames, active / 2);
	assert_int_equal(r->bye != SWISS_NONE, active % 2);
	if (r->bye != SWISS_NONE) {
		assert_true(p[r->bye].active);
		seen[r->bye] = true;
	}
	for (size_t g = 0; g < r->ngames; g++) {
		size_t a = r->games[g].first, b = r->games[g].second;
		assert_true(p[a].active && p[b].active && a != b);
		assert_false(seen[a] || seen[b]);
		seen[a] = seen[b] = true;
		assert_int_equal(r->games[g].rematch, met_ranked(NULL, a, b));
	}
	/* 3: the bye, then 2: the fewest rematches */
	size_t best = (size_t)-1;
	if (r->bye != SWISS_NONE) {
		unsigned least = ~0u;
		for (size_t i = 0; i < n; i++)
			if (p[i].active && p[i].byes < least)
				least = p[i].byes;
		assert_int_equal(p[r->bye].byes, least);
		for (size_t i = 0; i < n; i++) {
			if (!p[i].active || p[i].byes != least)
				continue;
			out[i] = true;
			size_t f = fewest(p, n, out);
			out[i] = false;
			if (f < best)
				best = f;
		}
		out[r->bye] = true;
		assert_int_equal(fewest(p, n, out), best);
		for (size_t i = r->bye + 1; i < n; i++) { /* nobody lower would do as well */
			if (!p[i].active || p[i].byes != least)
				continue;
			bool keep = out[r->bye];
			out[r->bye] = false;
			out[i] = true;
			assert_true(fewest(p, n, out) > best);
			out[i] = false;
			out[r->bye] = keep;
		}
	} else {
		best = fewest(p, n, out);
	}
	assert_int_equal(r->rematches, best);
	/* 4: each game's upper player is the top one left, and every
	 * opponent the order puts before the chosen one would break 2 */
	size_t budget = best;
	for (size_t g = 0; g < r->ngames; g++) {
		size_t a = r->games[g].first < r->games[g].second ? r->games[g].first : r->games[g].second;
		size_t b = a == r->games[g].first ? r->games[g].second : r->games[g].first;
		for (size_t i = 0; i < a; i++)
			assert_true(!p[i].active || out[i]);
		out[a] = true;
		/* the candidates before b: higher score groups, or b's group
		 * with a role-compatible player first */
		bool b_compatible = !breaks(&p[a], &p[b]) || !breaks(&p[b], &p[a]);
		for (size_t c = a + 1; c < n; c++) {
			if (!p[c].active || out[c] || c == b)
				continue;
			bool c_compatible = !breaks(&p[a], &p[c]) || !breaks(&p[c], &p[a]);
			bool before = p[c].score > p[b].score ||
				      (p[c].score == p[b].score &&
				       ((c_compatible && !b_compatible) || (c_compatible == b_compatible && c < b)));
			if (!before)
				continue;
			bool again = met_ranked(NULL, a, c);
			out[c] = true;
			bool fits = again <= budget && fewest(p, n, out) <= budget - again;
			out[c] = false;
			assert_false(fits);
		}
		out[b] = true;
		budget -= r->games[g].rematch;
		/* 5: the starter */
		const struct swiss_player *f = &p[r->games[g].first], *s = &p[r->games[g].second];
		if (breaks(f, s))
			assert_true(breaks(s, f) && r->games[g].role_forced);
		else
			assert_false(r->games[g].role_forced);
		if (!breaks(s, f) && !breaks(f, s))
			assert_true(f->balance <= s->balance);
	}
}

static void test_swiss_random_tournaments(void **state)
{
	(void)state;
	rng_state = 2026;
	unsigned long rounds_checked = 0, forced = 0, rematches = 0;
	for (int t = 0; t < 500; t++) {
		size_t n = 6 + rnd(55);
		unsigned rounds = 3 + rnd(7);
		struct entrant e[MAXP];
		memset(e, 0, sizeof e);
		memset(met_matrix, 0, sizeof met_matrix);
		for (unsigned round = 1; round <= rounds; round++) {
			size_t order[MAXP];
			for (size_t i = 0; i < n; i++)
				order[i] = i;
			sort_field = e;
			qsort(order, n, sizeof *order, cmp_standing);
			struct swiss_player p[MAXP];
			size_t active = 0;
			for (size_t k = 0; k < n; k++) {
				const struct entrant *x = &e[order[k]];
				rank_to_id[k] = order[k];
				if (!x->withdrawn && rnd(50) == 0 && round > 1)
					e[order[k]].withdrawn = true;
				p[k] = (struct swiss_player){
					.score = x->score, .byes = x->byes,
					.balance = (int)x->starts - (int)x->seconds,
					.opponents = x->opponents,
					.active = !x->withdrawn && rnd(12) != 0};
				if (x->nroles) {
					p[k].last_role = x->roles[x->nroles - 1];
					for (unsigned j = x->nroles; j-- > 0 && x->roles[j] == p[k].last_role;)
						p[k].streak++;
				}
				active += p[k].active;
			}
			if (active < 2)
				continue;
			struct swiss_round r, again;
			swiss_pair_round(p, n, met_ranked, NULL, &r);
			check_round(p, n, &r);
			/* 6: the same input, the same round */
			swiss_pair_round(p, n, met_ranked, NULL, &again);
			assert_int_equal(r.ngames, again.ngames);
			assert_int_equal(r.bye, again.bye);
			for (size_t g = 0; g < r.ngames; g++) {
				assert_int_equal(r.games[g].first, again.games[g].first);
				assert_int_equal(r.games[g].second, again.games[g].second);
			}
			swiss_round_free(&again);
			rounds_checked++;
			forced += r.role_forced;
			rematches += r.rematches;
			/* play the round */
			if (r.bye != SWISS_NONE) {
				e[rank_to_id[r.bye]].score += 1;
				e[rank_to_id[r.bye]].byes++;
			}
			for (size_t g = 0; g < r.ngames; g++) {
				size_t a = rank_to_id[r.games[g].first], b = rank_to_id[r.games[g].second];
				if (!met_matrix[a][b]) {
					e[a].opponents++;
					e[b].opponents++;
				}
				met_matrix[a][b] = met_matrix[b][a] = true;
				e[a].starts++;
				e[b].seconds++;
				e[a].roles[e[a].nroles++] = 'F';
				e[b].roles[e[b].nroles++] = 'S';
				e[rnd(2) ? a : b].score += 1;
			}
			swiss_round_free(&r);
		}
	}
	printf("# %lu rounds checked; %lu rematches (each the fewest possible), %lu games where both "
	       "choices of starter broke the role rule\n",
	       rounds_checked, rematches, forced);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_swiss_matching_exact),
		cmocka_unit_test(test_swiss_backtracks),
		cmocka_unit_test(test_swiss_fewest_rematches),
		cmocka_unit_test(test_swiss_starter),
		cmocka_unit_test(test_swiss_random_tournaments),
	};
	return cmocka_run_group_tests_name("swiss", tests, NULL, NULL);
}
