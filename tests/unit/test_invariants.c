/*
 * test_invariants.c - what must hold after every turn of every game.
 *
 * Random legal games (gen.h) are played through the rules engine, and after
 * each turn, once the turn's features are scored, the engine is checked
 * against invariants that no single hand-written test pins down:
 *   - followers: for each colour, those on the map plus those in supply
 *     equal the starting number (none is created or lost; farmers stay);
 *   - a feature's follower counts (kept at its union-find root) equal the
 *     followers actually standing on it;
 *   - a completed road, city or cloister holds no follower (it was scored
 *     and its followers came back in the turn that completed it);
 *   - scores never decrease, during play or in final scoring;
 *   - the supply shrinks by exactly one tile a turn (a bonus turn of Hunters
 *     and Gatherers draws from the bonus stack instead).
 * Several player counts, deployment rates and all three editions are used,
 * so that followers run out, features merge under several colours, and
 * every farm-scoring rule runs; then the solo variant and Hunters and
 * Gatherers, whose games the generator plays by their own rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"

#include <string.h>

struct watch {
	int followers;               /* at the start, per seated colour */
	uint8_t seated;
	int last[CARC_COLOURS];      /* scores after the previous turn */
	int supply_before;
	int turns, deployed_max, completed_checks;
	struct carc_gen *gen;
	int bonus_before;
};

static void check_followers(struct watch *w, struct carc_game *g)
{
	size_t nf;
	const struct carc_follower *fs = carc_game_followers(g, &nf);
	const struct carc_ruleset *rs = carc_game_rules(g);
	int on_map[CARC_COLOURS] = {0};
	int deployed = 0;
	for (size_t i = 0; i < nf; i++) {
		const struct carc_follower *f = &fs[i];
		if (!f->active || rs->roles[f->role].hut)
			continue;
		on_map[f->colour]++;
		deployed++;
		size_t np;
		const struct carc_placement *pl = carc_game_placements(g, &np);
		uint32_t root = carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
		/* a completed feature holds no followers */
		assert_false(carc_game_feature_complete(g, root));
		/* the root's count agrees with the followers standing on it */
		int standing = 0;
		for (size_t j = 0; j < nf; j++)
			if (fs[j].active && !rs->roles[fs[j].role].hut && fs[j].colour == f->colour &&
			    carc_game_feature_root(g, fs[j].placement, (int)(fs[j].segment - pl[fs[j].placement].seg0)) == root)
				standing++;
		assert_int_equal(carc_game_feature_followers(g, root)[f->colour], standing);
		w->completed_checks++;
	}
	if (deployed > w->deployed_max)
		w->deployed_max = deployed;
	for (int c = 0; c < CARC_COLOURS; c++) {
		if (!(w->seated & (1u << c))) {
			assert_int_equal(on_map[c], 0);
			continue;
		}
		assert_int_equal(on_map[c] + carc_game_supply(g, c), w->followers);
	}
}

static void check_scores(struct watch *w, struct carc_game *g)
{
	for (int c = 0; c < CARC_COLOURS; c++) {
		int s = carc_game_score(g, c);
		assert_true(s >= w->last[c]);
		w->last[c] = s;
	}
}

static void after_turn(void *ctx, struct carc_game *g, int turn, int colour, bool discard)
{
	struct watch *w = ctx;
	(void)turn;
	if (w->turns == 0) {
		/* first call: learn the seats and the supply */
		uint8_t seats[CARC_COLOURS];
		int n = carc_gen_seats(w->gen, seats);
		for (int s = 0; s < n; s++)
			w->seated |= (uint8_t)(1u << seats[s]);
		w->supply_before = carc_game_supply_left(g) + 1;
		w->bonus_before = carc_game_bonus_left(g); /* turn 1 is never a bonus turn */
	}
	int land = w->supply_before - carc_game_supply_left(g), bonus = w->bonus_before - carc_game_bonus_left(g);
	assert_int_equal(land + bonus, 1);
	w->supply_before = carc_game_supply_left(g);
	w->bonus_before = carc_game_bonus_left(g);
	assert_true(w->seated & (1u << colour));
	(void)discard;
	check_followers(w, g);
	check_scores(w, g);
	w->turns++;
}

static void play_rules(enum carc_ruleset_id rules, int players, int edition, double deploy_rate, uint64_t seed,
		       int games)
{
	struct carc_gen_opts o = {.rules = carc_ruleset_get(rules), .players = players,
				  .edition = edition, .deploy_rate = deploy_rate, .claim_rate = 0, .seed = seed};
	struct carc_gen *gen = carc_gen_new(&o, NULL);
	assert_non_null(gen);
	struct carc_buf text = {0};
	int most_deployed = 0, checks = 0;
	for (int k = 0; k < games; k++) {
		struct watch w = {.followers = o.rules->followers, .gen = gen};
		carc_gen_on_turn(gen, after_turn, &w);
		carc_buf_reset(&text);
		carc_gen_game(gen, (uint64_t)k, &text);
		if (rules == CARC_RULES_BASE) {
			assert_int_equal(w.turns, 71);
			assert_int_equal(carc_game_supply_left(carc_gen_engine(gen)), 0);
		} else {
			assert_true(w.turns > 0);
		}
		/* final scoring took every follower off roads, cities and cloisters
		 * and scores went on not decreasing */
		check_scores(&w, carc_gen_engine(gen));
		most_deployed = w.deployed_max > most_deployed ? w.deployed_max : most_deployed;
		checks += w.completed_checks;
	}
	/* the games did put followers on the map */
	if (deploy_rate > 0) {
		assert_true(most_deployed > 0);
		assert_true(checks > 0);
	}
	carc_buf_free(&text);
	carc_gen_free(gen);
}

static void play(int players, int edition, double deploy_rate, uint64_t seed, int games)
{
	play_rules(CARC_RULES_BASE, players, edition, deploy_rate, seed, games);
}

static void test_invariants_two_players_third_edition(void **state)
{
	(void)state;
	play(2, 3, 0.5, 11, 30);
}

static void test_invariants_followers_run_out(void **state)
{
	(void)state;
	/* deploying whenever possible empties the supplies often */
	play(3, 2, 1.0, 12, 20);
}

static void test_invariants_many_players_first_edition(void **state)
{
	(void)state;
	play(6, 1, 0.7, 13, 15);
}

static void test_invariants_solitaire_and_no_followers(void **state)
{
	(void)state;
	play(1, 0, 0.3, 14, 10);
	play(4, 0, 0.0, 15, 5);
}

static void test_invariants_solo(void **state)
{
	(void)state;
	play_rules(CARC_RULES_SOLO, 3, 0, 1.0, 16, 20);
	play_rules(CARC_RULES_SOLO, 4, 0, 1.0, 17, 10);
}

static void test_invariants_hunters(void **state)
{
	(void)state;
	play_rules(CARC_RULES_HUNTERS, 2, 0, 0.6, 18, 20);
	play_rules(CARC_RULES_HUNTERS, 5, 0, 0.9, 19, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariants_two_players_third_edition),
		cmocka_unit_test(test_invariants_followers_run_out),
		cmocka_unit_test(test_invariants_many_players_first_edition),
		cmocka_unit_test(test_invariants_solitaire_and_no_followers),
		cmocka_unit_test(test_invariants_solo),
		cmocka_unit_test(test_invariants_hunters),
	};
	return cmocka_run_group_tests_name("invariants", tests, NULL, NULL);
}
