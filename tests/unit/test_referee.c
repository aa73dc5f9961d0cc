/*
 * test_referee.c - the turn flow of the referee, beyond single rules.
 *
 * The rules themselves are proved in test_game.c and by the records under
 * tests/rules; this file checks what the referee does around them: which
 * turn an error is charged to (a turn after the end must not mark the last
 * legal turn illegal), a position part-way through a game (stop_after) never
 * getting final scoring (and being finished only when the supply was used up
 * by then), a whole generated game checking clean with its
 * claims, and the referee going on after an illegal move.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "import/gen.h"
#include "referee/referee.h"

struct fixture {
	struct carc_tileset_cache *cache;
	struct carc_record rec;
	struct carc_result res;
	struct carc_game *game;
	struct carc_diag_sink sink;
	struct carc_buf text;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	f->game = carc_game_new();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	carc_result_free(&f->res);
	carc_record_free(&f->rec);
	carc_game_free(f->game);
	carc_tileset_cache_free(f->cache);
	carc_diag_free(&f->sink);
	carc_buf_free(&f->text);
	free(f);
	return 0;
}

/* A complete random base game, its claims and Result written by carc gen. */
static void generated_game(struct fixture *f, uint64_t seed)
{
	struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_BASE), .players = 3, .deploy_rate = 0.5,
				  .claim_rate = 0.3, .seed = seed};
	const char *why = NULL;
	struct carc_gen *gen = carc_gen_new(&o, &why);
	assert_non_null(gen);
	carc_buf_reset(&f->text);
	carc_gen_game(gen, 0, &f->text);
	carc_gen_free(gen);
}

static void play(struct fixture *f, const struct carc_referee_opts *opts)
{
	memset(f->sink.counts, 0, sizeof f->sink.counts);
	f->sink.errors = f->sink.warnings = 0;
	assert_true(carc_parse_string(f->text.data, f->text.len, "test.cgn", f->cache, carc_rules_registry(),
				      &f->rec, &f->sink));
	carc_referee_run(&f->res, &f->rec, f->game, &f->sink, opts);
}

static void test_referee_generated_game_is_clean(void **state)
{
	struct fixture *f = *state;
	generated_game(f, 42);
	play(f, NULL);
	assert_int_equal(f->sink.errors, 0);
	assert_int_equal(f->sink.warnings, 0);
	assert_true(f->res.finished);
	assert_true(f->res.final_scored);
	assert_true(f->rec.has_result);
	for (size_t i = 0; i < f->res.nturns; i++)
		assert_false(f->res.turns[i].illegal);
}

static void test_referee_turn_after_the_end_is_charged_to_itself(void **state)
{
	struct fixture *f = *state;
	generated_game(f, 43);
	/* one more turn after the last tile */
	carc_buf_adds(&f->text, "99. red U 100,100 0\n");
	play(f, NULL);
	assert_int_equal(f->sink.counts[CARC_E215], 1);
	assert_true(f->res.finished);     /* the game did end, and is scored as it ended */
	assert_true(f->res.final_scored);
	for (size_t i = 0; i < f->res.nturns; i++)
		assert_false(f->res.turns[i].illegal);
}

static void test_referee_stop_after_never_scores_the_end(void **state)
{
	struct fixture *f = *state;
	generated_game(f, 44);
	play(f, NULL);
	size_t all = f->rec.nmoves;
	assert_true(f->res.final_scored);
	struct carc_referee_opts part = {.stop_after = (int)all}; /* every line, but "a position" */
	play(f, &part);
	assert_false(f->res.final_scored);
	assert_true(f->res.finished); /* but the supply was used up by then */
	assert_int_equal(f->sink.counts[CARC_W001], 0);
	assert_int_equal(f->res.nturns, all);
	part.stop_after = 10;
	play(f, &part);
	assert_int_equal(f->res.nturns, 10);
	assert_false(f->res.final_scored);
	assert_false(f->res.finished);
	assert_int_equal(f->sink.counts[CARC_E213], 0); /* the Result is not compared part-way */
}

static void test_referee_goes_on_after_an_illegal_move(void **state)
{
	struct fixture *f = *state;
	carc_buf_reset(&f->text);
	carc_buf_adds(&f->text, "[Seats \"red green\"]\n\n"
				"1. red U -1,0 90 thief E\n"
				"2. green E 0,1 0\n"           /* E's city faces north: the start's city meets a field */
				"3. red V 1,0 0 farmer NNE\n"
				"4. green K 5,5 270\n"         /* not adjacent */
				"5. red U 0,-1 0\n");          /* road meets the start tile's field */
	play(f, NULL);
	assert_int_equal(f->sink.counts[CARC_E203], 2);
	assert_int_equal(f->sink.counts[CARC_E202], 1);
	assert_int_equal(f->res.nturns, 5);
	assert_false(f->res.turns[0].illegal);
	assert_true(f->res.turns[1].illegal);
	assert_false(f->res.turns[2].illegal);
	assert_true(f->res.turns[3].illegal);
	assert_true(f->res.turns[4].illegal);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_referee_generated_game_is_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_referee_turn_after_the_end_is_charged_to_itself, setup, teardown),
		cmocka_unit_test_setup_teardown(test_referee_stop_after_never_scores_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_referee_goes_on_after_an_illegal_move, setup, teardown),
	};
	return cmocka_run_group_tests_name("referee", tests, NULL, NULL);
}
