/*
 * test_api_live.c - a game played through <carc.h> keeps its replay open
 * (src/api/play.c, match.c; carc_referee_step, carc_record_add_turn,
 * carc_game_copy, carc_referee_clone and the modules' clone hooks).
 *
 * The promise is that a move costs one step, not the game, and that a
 * clone costs the game's size, not a replay; and that neither changes a
 * verdict. So: a whole game played move by move takes exactly one referee
 * step a move (the match's counter of moves refereed, which a replay of
 * the whole game would raise by the game's length); and random games of
 * every rule set and expansion are cloned at every turn, the clone and
 * the game going on with different moves, each then held to what the
 * reader and referee of `carc check` make of its CGN from scratch: no
 * error, and the same scores.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/api_int.h"

#include <stdlib.h>
#include <string.h>

static const carc_setup setups[] = {
	{.rules = "base", .players = 2},
	{.rules = "base", .players = 5, .edition = 1},
	{.rules = "base", .expansions = "river", .players = 3},
	{.rules = "base", .expansions = "abbot", .players = 4},
	{.rules = "base", .expansions = "river abbot", .players = 2},
	{.rules = "base", .expansions = "inns-cathedrals", .players = 3},
	{.rules = "base", .expansions = "traders-builders", .players = 2},
	{.rules = "base", .expansions = "river abbot inns-cathedrals traders-builders", .players = 3},
	{.rules = "solo", .players = 3},
	{.rules = "solo", .expansions = "river", .players = 4},
	{.rules = "hunters", .players = 2},
	{.rules = "hunters", .players = 4},
};

static carc_move_spec *moves;
static int moves_cap;

static int legal(carc_match *m)
{
	int n = carc_match_legal_moves(m, moves, moves_cap);
	if (n > moves_cap) {
		moves_cap = n;
		moves = realloc(moves, (size_t)moves_cap * sizeof *moves);
		n = carc_match_legal_moves(m, moves, moves_cap);
	}
	assert_true(n > 0);
	return n;
}

static uint64_t rng = 88172645463325252u;
static unsigned roll(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Draws and plays move pick(n) of the legal ones; false when the game is over. */
static bool play_one(carc_match *m, int skip)
{
	if (carc_match_over(m) || carc_match_to_move(m) < 0)
		return false;
	assert_int_equal(carc_match_draw(m, NULL), CARC_OK);
	int n = legal(m);
	int k = (int)roll((unsigned)n);
	if (n > 1 && k == skip)
		k = (k + 1) % n;
	int rc = carc_match_play(m, &moves[k]);
	if (rc)
		fail_msg("move refused: %s", carc_match_error(m));
	return true;
}

/* The game as check sees it from its CGN alone: no error, and m's scores. */
static void same_as_check(carc_match *m)
{
	size_t len = carc_match_cgn(m, NULL, 0);
	char *text = malloc(len + 1);
	carc_match_cgn(m, text, len + 1);
	char why[256];
	carc_records *r = carc_records_open_memory(text, len, "<clone>", why, sizeof why);
	assert_non_null(r);
	carc_match *read = NULL;
	assert_int_equal(carc_records_next(r, &read), CARC_OK);
	if (!carc_match_valid(read)) {
		carc_diagnostic d;
		for (int i = 0; i < carc_match_ndiagnostics(read); i++)
			if (!carc_match_diagnostic(read, i, &d) && d.severity == CARC_SEVERITY_ERROR)
				print_error("%d:%d: %s %s\n", d.line, d.column, d.code, d.message);
		fail_msg("check finds errors in:\n%s", text);
	}
	assert_int_equal(carc_match_nplayers(read), carc_match_nplayers(m));
	for (int s = 0; s < carc_match_nplayers(m); s++)
		assert_int_equal(carc_match_score(read, s), carc_match_score(m, s));
	assert_int_equal(carc_match_over(read), carc_match_over(m));
	carc_match_free(read);
	carc_records_close(r);
	free(text);
}

/* A game of 70-odd moves: each move one step, the game never replayed. */
static void test_api_live_one_step_a_move(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
		carc_setup s = setups[i];
		s.seed = 11 + i;
		carc_match *m = carc_match_new(&s, NULL, 0);
		assert_non_null(m);
		carc_match_to_move(m); /* the replay opened: the header, no move yet */
		unsigned long before = m->steps;
		size_t played = 0;
		while (play_one(m, -1)) {
			played++;
			assert_int_equal(m->steps - before, played); /* one step, whatever the game's length */
			assert_true(m->live);
		}
		if (played == 0)
			fail_msg("setup %zu: %zu moves, over %d, to move %d: %s", i, played, carc_match_over(m), carc_match_to_move(m), carc_match_error(m));
		assert_int_equal(m->rec.nmoves, played);
		same_as_check(m);
		carc_match_free(m);
	}
}

/* A clone at every turn goes on with another move, and the game with its
 * own: both as check sees them. */
static void test_api_live_clone_every_turn(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof setups / sizeof setups[0]; i++) {
		for (uint64_t seed = 1; seed <= 2; seed++) {
			carc_setup s = setups[i];
			s.seed = seed * 1000 + i;
			carc_match *m = carc_match_new(&s, NULL, 0);
			assert_non_null(m);
			for (int turn = 0;; turn++) {
				carc_match_to_move(m);
				carc_match *c = carc_match_clone(m);
				assert_non_null(c);
				bool live = c->live; /* copied, not to be replayed */
				if (!carc_match_over(m))
					assert_true(live);
				unsigned long steps = c->steps;
				/* the clone: another move than the game's next, and a few more */
				for (int k = 0; k < 3 && play_one(c, 0); k++)
					;
				if (live) /* a step a move on the clone too */
					assert_int_equal(c->steps - steps, c->rec.nmoves - m->rec.nmoves);
				if (turn % 7 == 0 || carc_match_over(c))
					same_as_check(c);
				carc_match_free(c);
				if (!play_one(m, -1))
					break;
			}
			assert_true(carc_match_over(m));
			same_as_check(m);
			carc_match_free(m);
		}
	}
}

/* A clone is a game of its own: what is played on one is not on the other,
 * and a clone of a clone goes on from where it was made. */
static void test_api_live_clone_independent(void **state)
{
	(void)state;
	carc_setup s = {.rules = "base", .expansions = "river abbot traders-builders", .players = 3, .seed = 4};
	carc_match *m = carc_match_new(&s, NULL, 0);
	for (int k = 0; k < 15; k++)
		assert_true(play_one(m, -1));
	carc_match *c = carc_match_clone(m);
	size_t n = m->rec.nmoves;
	for (int k = 0; k < 10; k++)
		assert_true(play_one(c, -1));
	assert_int_equal(m->rec.nmoves, n);
	carc_match *cc = carc_match_clone(c);
	carc_match_free(c); /* the clone's clone stands alone */
	while (play_one(cc, -1))
		;
	same_as_check(cc);
	while (play_one(m, -1))
		;
	same_as_check(m);
	carc_match_free(cc);
	carc_match_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_live_one_step_a_move),
		cmocka_unit_test(test_api_live_clone_every_turn),
		cmocka_unit_test(test_api_live_clone_independent),
	};
	int rc = cmocka_run_group_tests_name("api_live", tests, NULL, NULL);
	free(moves);
	return rc;
}
