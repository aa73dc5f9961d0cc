/*
 * test_gen.c - the random game generator (gen.c).
 *
 * The generator is only useful if its games are legal and its randomness is
 * reproducible, so these tests pin the PRNG to its published reference
 * values, prove that a seed gives the same games and another seed other
 * games, and replay generated games through the parser and the referee:
 * every game must be legal and finished, and the referee's score after every
 * turn must equal what the generator's engine had at that turn. They also
 * cover the edges: no deployment at rate 0, discards, and the player counts
 * and editions the generator refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"
#include "referee/referee.h"

#include <stdlib.h>
#include <string.h>

static struct carc_gen *new_gen(int players, double deploy, double claims, uint64_t seed)
{
	struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_BASE), .players = players,
				  .deploy_rate = deploy, .claim_rate = claims, .seed = seed};
	const char *why = NULL;
	struct carc_gen *gen = carc_gen_new(&o, &why);
	assert_non_null(gen);
	assert_null(why);
	return gen;
}

/* splitmix64 from seed 1234567 starts 6457827717110365317, 3203168211198807973,
 * ...; xoshiro256** from the state {1, 2, 3, 4} starts 11520, 0, 1509978240,
 * 1215971899390074240 (the reference implementations' test values). */
static void test_gen_rng_reference_values(void **state)
{
	(void)state;
	struct carc_rng r;
	carc_rng_seed(&r, 1234567);
	assert_true(r.s[0] == 6457827717110365317u);
	assert_true(r.s[1] == 3203168211198807973u);
	r.s[0] = 1, r.s[1] = 2, r.s[2] = 3, r.s[3] = 4;
	assert_true(carc_rng_next(&r) == 11520u);
	assert_true(carc_rng_next(&r) == 0u);
	assert_true(carc_rng_next(&r) == 1509978240u);
	assert_true(carc_rng_next(&r) == 1215971899390074240u);
}

static void test_gen_rng_below_is_in_range_and_covers_it(void **state)
{
	(void)state;
	struct carc_rng r;
	carc_rng_seed(&r, 99);
	int hits[7] = {0};
	for (int i = 0; i < 70000; i++) {
		uint32_t v = carc_rng_below(&r, 7);
		assert_true(v < 7);
		hits[v]++;
	}
	for (int v = 0; v < 7; v++) /* 10000 expected; 5 sigma is about 475 */
		assert_in_range(hits[v], 9500, 10500);
	for (int i = 0; i < 100; i++)
		assert_int_equal(carc_rng_below(&r, 1), 0);
	assert_false(carc_rng_chance(&r, 0.0));
	assert_true(carc_rng_chance(&r, 1.0));
}

static void test_gen_same_seed_same_games(void **state)
{
	(void)state;
	struct carc_gen *a = new_gen(3, 0.5, 0.2, 7), *b = new_gen(3, 0.5, 0.2, 7), *c = new_gen(3, 0.5, 0.2, 8);
	struct carc_buf ta = {0}, tb = {0}, tc = {0};
	for (uint64_t k = 0; k < 3; k++) {
		carc_buf_reset(&ta), carc_buf_reset(&tb), carc_buf_reset(&tc);
		carc_gen_game(a, k, &ta);
		carc_gen_game(b, k, &tb);
		carc_gen_game(c, k, &tc);
		assert_string_equal(carc_buf_cstr(&ta), carc_buf_cstr(&tb));
		assert_string_not_equal(carc_buf_cstr(&ta), carc_buf_cstr(&tc));
	}
	/* Game k depends on k alone, not on the games generated before it. */
	carc_buf_reset(&tb);
	struct carc_gen *d = new_gen(3, 0.5, 0.2, 7);
	carc_gen_game(d, 2, &tb);
	assert_string_equal(carc_buf_cstr(&ta), carc_buf_cstr(&tb));
	carc_buf_free(&ta), carc_buf_free(&tb), carc_buf_free(&tc);
	carc_gen_free(a), carc_gen_free(b), carc_gen_free(c), carc_gen_free(d);
}

/* Per-turn scores seen by the generator's hook. */
struct seen {
	int nturns;
	int scores[128][CARC_COLOURS];
	int discards;
};

static void record_turn(void *ctx, struct carc_game *g, int turn, int colour, bool discard)
{
	(void)turn, (void)colour;
	struct seen *s = ctx;
	if (discard) {
		s->discards++;
		return;
	}
	assert_true(s->nturns < 128);
	for (int c = 0; c < CARC_COLOURS; c++)
		s->scores[s->nturns][c] = carc_game_score(g, c);
	s->nturns++;
}

/* Replays text through the parser and the referee; returns the errors. */
static unsigned referee(const struct carc_buf *text, struct carc_result *res, struct carc_game *g,
			struct carc_record *rec, struct carc_tileset_cache *cache)
{
	struct carc_diag_sink sink = {0};
	assert_true(carc_parse_string(text->data, text->len, "gen.cgn", cache, carc_rules_registry(), rec, &sink));
	carc_referee_run(res, rec, g, &sink, NULL);
	unsigned errors = sink.errors + sink.warnings;
	carc_diag_free(&sink);
	return errors;
}

static void test_gen_games_replay_clean_turn_by_turn(void **state)
{
	(void)state;
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_buf text = {0};
	for (int players = 1; players <= 7; players++) {
		struct carc_gen *gen = new_gen(players, 0.6, 0.3, (uint64_t)players * 31);
		for (uint64_t k = 0; k < 8; k++) {
			struct seen seen = {0};
			carc_gen_on_turn(gen, record_turn, &seen);
			carc_buf_reset(&text);
			carc_gen_game(gen, k, &text);
			assert_int_equal(referee(&text, &res, g, &rec, cache), 0);
			assert_true(res.finished);
			assert_true(res.final_scored);
			assert_int_equal(rec.nseats, players);
			size_t placed = 0;
			for (size_t i = 0; i < res.nturns; i++) {
				if (res.turns[i].discard)
					continue;
				assert_true(placed < (size_t)seen.nturns);
				assert_memory_equal(res.turns[i].scores, seen.scores[placed], sizeof seen.scores[0]);
				placed++;
			}
			assert_int_equal(placed, seen.nturns);
			assert_int_equal(placed + (size_t)seen.discards, 71); /* every land tile but the start */
			for (int c = 0; c < CARC_COLOURS; c++)
				assert_int_equal(res.scores[c], carc_game_score(carc_gen_engine(gen), c));
		}
		carc_gen_free(gen);
	}
	carc_buf_free(&text);
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_tileset_cache_free(cache);
}

/* Nobody deploys: nothing scores, and no turn line names a role. */
static void test_gen_rate_zero_deploys_nothing(void **state)
{
	(void)state;
	struct carc_gen *gen = new_gen(4, 0.0, 0.0, 5);
	struct carc_buf text = {0};
	carc_gen_game(gen, 0, &text);
	const struct carc_ruleset *rs = carc_ruleset_get(CARC_RULES_BASE);
	for (int r = 0; r < rs->nroles; r++)
		assert_null(strstr(text.data, rs->roles[r].name));
	assert_null(strstr(text.data, " = "));
	size_t n;
	carc_game_followers(carc_gen_engine(gen), &n);
	assert_int_equal(n, 0);
	for (int c = 0; c < CARC_COLOURS; c++)
		assert_int_equal(carc_game_score(carc_gen_engine(gen), c), 0);
	assert_non_null(strstr(text.data, "[Result \""));
	carc_buf_free(&text);
	carc_gen_free(gen);
}

/* A base game whose draw order leaves a tile with no legal place is rare
 * (about one game in 70): find one, and check its discard is legal. */
static void test_gen_discards_are_legal(void **state)
{
	(void)state;
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_buf text = {0};
	struct carc_gen *gen = new_gen(2, 0.5, 0.1, 1);
	bool found = false;
	for (uint64_t k = 0; k < 2000 && !found; k++) {
		carc_buf_reset(&text);
		carc_gen_game(gen, k, &text);
		if (!strstr(text.data, "discard"))
			continue;
		found = true;
		assert_int_equal(referee(&text, &res, g, &rec, cache), 0);
		assert_true(res.finished);
	}
	assert_true(found);
	carc_gen_free(gen);
	carc_buf_free(&text);
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_tileset_cache_free(cache);
}

/* A tile set where nothing fits next to the start tile: every draw is a
 * discard, and the hook hears each one. */
static void test_gen_tile_that_fits_nowhere_is_discarded(void **state)
{
	(void)state;
	static const char yaml[] =
		"name: nofit\ntitle: nothing fits\nterrains: [field, city]\n"
		"kinds:\n  - {name: city, class: enclosure, terrain: city}\n"
		"  - {name: field, class: area, terrain: field}\n"
		"tiles:\n"
		"  - id: S\n    count: 1\n    start: true\n    edges: field field field field\n"
		"    features:\n      - {kind: field, halves: NNW NNE ENE ESE SSE SSW WSW WNW}\n"
		"  - id: C\n    count: 3\n    edges: city city city city\n"
		"    features:\n      - {kind: city, edges: N E S W}\n";
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_parse(yaml, sizeof yaml - 1, "nofit", &sink);
	assert_non_null(ts);
	struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_BASE), .tileset = ts, .players = 2,
				  .deploy_rate = 1, .seed = 3};
	struct carc_gen *gen = carc_gen_new(&o, NULL);
	assert_non_null(gen);
	struct seen seen = {0};
	carc_gen_on_turn(gen, record_turn, &seen);
	struct carc_buf text = {0};
	carc_gen_game(gen, 0, &text);
	assert_int_equal(seen.discards, 3);
	assert_int_equal(seen.nturns, 0);
	int lines = 0;
	for (const char *p = text.data; (p = strstr(p, " C discard")); p++)
		lines++;
	assert_int_equal(lines, 3);
	carc_buf_free(&text);
	carc_gen_free(gen);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

static void test_gen_refuses_what_it_cannot_play(void **state)
{
	(void)state;
	const char *why = NULL;
	struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_BASE), .seed = 1};
	o.players = 8;
	assert_null(carc_gen_new(&o, &why));
	assert_non_null(strstr(why, "players"));
	o.players = 2;
	o.edition = 4;
	assert_null(carc_gen_new(&o, &why));
	assert_non_null(strstr(why, "edition"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_rng_reference_values),
		cmocka_unit_test(test_gen_rng_below_is_in_range_and_covers_it),
		cmocka_unit_test(test_gen_same_seed_same_games),
		cmocka_unit_test(test_gen_games_replay_clean_turn_by_turn),
		cmocka_unit_test(test_gen_rate_zero_deploys_nothing),
		cmocka_unit_test(test_gen_discards_are_legal),
		cmocka_unit_test(test_gen_tile_that_fits_nowhere_is_discarded),
		cmocka_unit_test(test_gen_refuses_what_it_cannot_play),
	};
	return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}
