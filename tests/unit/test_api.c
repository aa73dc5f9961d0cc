/*
 * test_api.c - the play group of <carc.h> (src/api/play.c, match.c).
 *
 * A library is only useful if what it says about a game is what carc
 * check says: these tests play games through the API and hold it to the
 * referee. Every listed legal move is accepted and every other placement
 * refused; a refused move leaves the game as it was, with check's code
 * and message; clones are independent; the draw keeps to the supply; moves
 * go to text and back; random games are carc gen's, seed for seed; and
 * the version macro and function agree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/carc.h"
#include "import/gen.h"
#include "rules/rules.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static carc_match *new_game(const char *rules, const char *expansions, int players, uint64_t seed)
{
	carc_setup s = {.rules = rules, .expansions = expansions, .players = players, .seed = seed};
	char why[256] = "";
	carc_match *m = carc_match_new(&s, why, sizeof why);
	if (!m)
		fail_msg("carc_match_new: %s", why);
	return m;
}

static char *cgn(carc_match *m)
{
	size_t n = carc_match_cgn(m, NULL, 0);
	char *text = malloc(n + 1);
	assert_int_equal(carc_match_cgn(m, text, n + 1), n);
	return text;
}

static void test_api_version(void **state)
{
	(void)state;
	assert_string_equal(carc_version(), CARC_VERSION_STRING);
	assert_int_equal(carc_version_number(), CARC_VERSION_NUMBER);
	assert_int_equal(CARC_VERSION_NUMBER,
			 CARC_VERSION_MAJOR * 10000 + CARC_VERSION_MINOR * 100 + CARC_VERSION_PATCH);
	for (int rc = CARC_ERANGE; rc <= CARC_END; rc++)
		assert_string_not_equal(carc_strerror(rc), "unknown return code");
	assert_string_equal(carc_strerror(-100), "unknown return code");
}

static void test_api_setup_refused(void **state)
{
	(void)state;
	char why[256] = "";
	carc_setup s = {.rules = "chess"};
	assert_null(carc_match_new(&s, why, sizeof why));
	assert_non_null(strstr(why, "chess"));
	s = (carc_setup){.rules = "hunters", .expansions = "river"};
	assert_null(carc_match_new(&s, why, sizeof why));
	assert_non_null(strstr(why, "river")); /* check's own message (E0xx) */
	s = (carc_setup){.colours = "red purple"};
	assert_null(carc_match_new(&s, why, sizeof why));
	s = (carc_setup){.colours = "red green", .players = 3};
	assert_null(carc_match_new(&s, NULL, 0));
}

static void test_api_turn_order_of_calls(void **state)
{
	(void)state;
	carc_match *m = new_game("base", NULL, 2, 3);
	carc_move_spec mv[8];
	assert_int_equal(carc_match_legal_moves(m, mv, 8), CARC_ESTATE); /* nothing drawn */
	assert_int_equal(carc_match_play_text(m, "D 0,1 0"), CARC_ESTATE);
	assert_null(carc_match_drawn(m));
	assert_int_equal(carc_match_draw(m, NULL), CARC_OK);
	assert_non_null(carc_match_drawn(m));
	assert_int_equal(carc_match_draw(m, NULL), CARC_ESTATE);
	assert_int_equal(carc_match_to_move(m), 0);
	carc_match_free(m);
}

/* Every listed move is accepted (on a clone), and a placement off the list
 * is refused with check's E201, E202 or E203. */
static void test_api_legal_moves_are_legal(void **state)
{
	(void)state;
	carc_match *m = new_game("base", "abbot", 3, 11);
	carc_move_spec *mv = NULL;
	for (int turn = 0; turn < 25; turn++) {
		assert_int_equal(carc_match_draw(m, NULL), CARC_OK);
		int n = carc_match_legal_moves(m, NULL, 0);
		assert_true(n > 0);
		mv = realloc(mv, (size_t)n * sizeof *mv);
		assert_int_equal(carc_match_legal_moves(m, mv, n), n);
		for (int i = 0; i < n; i += 1 + n / 12) {
			carc_match *c = carc_match_clone(m);
			if (carc_match_play(c, &mv[i]) != CARC_OK)
				fail_msg("legal move %d of turn %d refused: %s", i, turn + 1, carc_match_error(c));
			carc_match_free(c);
		}
		/* off the list: a cell next to no tile */
		carc_move_spec far = mv[0];
		far.x = 500;
		far.y = 500;
		far.role[0] = far.spot[0] = far.recall[0] = 0;
		far.discard = 0;
		assert_int_equal(carc_match_play(m, &far), CARC_EILLEGAL);
		carc_diagnostic d;
		assert_int_equal(carc_match_last_diagnostic(m, &d), CARC_OK);
		assert_string_equal(d.code, "E202");
		assert_int_equal(d.severity, CARC_SEVERITY_ERROR);
		assert_non_null(strstr(d.message, "shares no edge with a placed tile"));
		assert_int_equal(carc_match_play(m, &mv[(size_t)turn % (size_t)n]), CARC_OK);
	}
	free(mv);
	carc_match_free(m);
}

/* A refused move leaves the game as it was, the tile still drawn. */
static void test_api_refusal_changes_nothing(void **state)
{
	(void)state;
	carc_setup s = {.colours = "red green", .seed = 5};
	carc_match *m = carc_match_new(&s, NULL, 0);
	carc_match_draw(m, NULL);
	char *before = cgn(m);
	char tile[16];
	strcpy(tile, carc_match_drawn(m));
	carc_move_spec on_start = {0};
	strcpy(on_start.tile, tile);
	assert_int_equal(carc_match_play(m, &on_start), CARC_EILLEGAL);
	carc_diagnostic d;
	carc_match_last_diagnostic(m, &d);
	assert_string_equal(d.code, "E201");
	assert_string_equal(d.message, "turn 1, red: cell 0,0 already holds the start tile");
	assert_non_null(strstr(carc_match_error(m), "E201"));
	char *after = cgn(m);
	assert_string_equal(before, after);
	assert_string_equal(carc_match_drawn(m), tile);
	/* another tile than the one drawn is not a move of this turn */
	carc_move_spec other = on_start;
	strcpy(other.tile, strcmp(tile, "A") ? "A" : "B");
	assert_int_equal(carc_match_play(m, &other), CARC_EINVAL);
	free(before);
	free(after);
	carc_match_free(m);
}

static void test_api_clone_is_independent(void **state)
{
	(void)state;
	carc_match *m = new_game("hunters", NULL, 2, 8);
	carc_move_spec mv[1024];
	for (int t = 0; t < 6; t++) {
		carc_match_draw(m, NULL);
		assert_true(carc_match_legal_moves(m, mv, 1024) > 0);
		assert_int_equal(carc_match_play(m, &mv[0]), CARC_OK);
	}
	char *before = cgn(m);
	int left = carc_match_supply_left(m);
	carc_match *c = carc_match_clone(m);
	char *copy = cgn(c);
	assert_string_equal(before, copy);
	for (int t = 0; t < 6; t++) {
		carc_match_draw(c, NULL);
		carc_match_legal_moves(c, mv, 1024);
		assert_int_equal(carc_match_play(c, &mv[0]), CARC_OK);
	}
	char *after = cgn(m);
	assert_string_equal(before, after);
	assert_int_equal(carc_match_supply_left(m), left);
	assert_true(carc_match_supply_left(c) < left);
	/* the same draws on both from here: the supply was copied */
	carc_match *d = carc_match_clone(m);
	carc_match_draw(m, NULL);
	carc_match_draw(d, NULL);
	assert_string_equal(carc_match_drawn(m), carc_match_drawn(d));
	free(before);
	free(copy);
	free(after);
	carc_match_free(c);
	carc_match_free(d);
	carc_match_free(m);
}

/* The draw: a named tile while one is left, then none. */
static void test_api_named_draw(void **state)
{
	(void)state;
	carc_match *m = new_game("base", NULL, 2, 1);
	assert_int_equal(carc_match_draw(m, "Z9"), CARC_EINVAL);
	carc_move_spec mv[1024];
	/* the base set has one C tile (and no start copy of it) */
	assert_int_equal(carc_match_draw(m, "C"), CARC_OK);
	assert_string_equal(carc_match_drawn(m), "C");
	assert_true(carc_match_legal_moves(m, mv, 1024) > 0);
	assert_int_equal(carc_match_play(m, &mv[0]), CARC_OK);
	assert_int_equal(carc_match_draw(m, "C"), CARC_EINVAL);
	carc_match_free(m);
}

/* A whole game ends, with its scores in [Result] as the referee has them. */
static void test_api_whole_game(void **state)
{
	(void)state;
	carc_match *m = new_game("base", "river", 3, 21);
	carc_move_spec mv[2048];
	int turns = 0;
	while (carc_match_to_move(m) >= 0) {
		assert_int_equal(carc_match_draw(m, NULL), CARC_OK);
		int n = carc_match_legal_moves(m, mv, 2048);
		assert_true(n > 0 && n <= 2048);
		assert_int_equal(carc_match_play(m, &mv[n - 1]), CARC_OK);
		turns++;
	}
	assert_true(turns >= 83); /* 71 land tiles and 12 river tiles, the source set aside */
	assert_true(carc_match_over(m));
	assert_int_equal(carc_match_supply_left(m), 0);
	assert_true(carc_match_final(m));
	assert_int_equal(carc_match_draw(m, NULL), CARC_ESTATE);
	char *text = cgn(m);
	char want[128];
	snprintf(want, sizeof want, "[Result \"%s %d, %s %d, %s %d\"]", carc_match_colour(m, 0), carc_match_score(m, 0),
		 carc_match_colour(m, 1), carc_match_score(m, 1), carc_match_colour(m, 2), carc_match_score(m, 2));
	assert_non_null(strstr(text, want));
	free(text);
	carc_match_free(m);
}

/* The number of the turn to play is the one the referee gives its line:
 * the same after a discard, the earning turn's with bonus set on a bonus
 * turn (N+), before the draw and after it; -1 at the end. */
static void test_api_turn_number(void **state)
{
	(void)state;
	carc_move_spec mv[2048];
	int bonuses = 0, discards = 0;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		carc_match *m = new_game(seed % 2 ? "hunters" : "base", NULL, 2, seed);
		while (carc_match_to_move(m) >= 0) {
			int bonus = -1, number = carc_match_turn_number(m, &bonus);
			assert_int_equal(carc_match_draw(m, NULL), CARC_OK);
			int again = -1;
			assert_int_equal(carc_match_turn_number(m, &again), number);
			assert_int_equal(again, bonus);
			int n = carc_match_legal_moves(m, mv, 2048);
			assert_true(n > 0 && n <= 2048);
			assert_int_equal(carc_match_play(m, &mv[n - 1]), CARC_OK);
			carc_turn_info t;
			assert_int_equal(carc_match_turn(m, carc_match_nturns(m) - 1, &t), CARC_OK);
			assert_int_equal(t.number, number);
			assert_int_equal(t.bonus, bonus);
			bonuses += bonus;
			discards += mv[n - 1].discard;
		}
		int bonus = 7;
		assert_int_equal(carc_match_turn_number(m, &bonus), -1);
		assert_int_equal(bonus, 0);
		carc_match_free(m);
	}
	assert_true(bonuses > 0);
	print_message("turn numbers: %d bonus turns, %d discards\n", bonuses, discards);
}

static void test_api_move_text(void **state)
{
	(void)state;
	const char *lines[] = {"U 1,0 90 thief W", "D discard", "V 0,-2 270 return abbot", "K 3,4 180",
			       "E 0,1 0 knight N order N 0,1:E", "L 2,2 0 large follower NNE",
			       "V 0,-2 270 return large follower"};
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		carc_move_spec mv;
		assert_int_equal(carc_move_parse(lines[i], &mv), CARC_OK);
		char back[128];
		assert_int_equal(carc_move_format(&mv, back, sizeof back), strlen(lines[i]));
		assert_string_equal(back, lines[i]);
	}
	carc_move_spec mv;
	assert_int_equal(carc_move_parse("U 1,0", &mv), CARC_ESYNTAX);
	assert_int_equal(carc_move_parse("U x,0 90", &mv), CARC_ESYNTAX);
	assert_int_equal(carc_move_parse("U 1,0 90 thief", &mv), CARC_ESYNTAX);
	assert_int_equal(carc_move_parse("D discard now", &mv), CARC_ESYNTAX);
	assert_int_equal(carc_move_parse("U 1,0 90 return", &mv), CARC_ESYNTAX);
	assert_int_equal(carc_move_parse("U 1,0 90 -", &mv), CARC_OK);
	assert_string_equal(mv.role, "");
	assert_int_equal(carc_move_parse("U 1,0 90 farmer NNEE", &mv), CARC_ESYNTAX);
	char small[4];
	carc_move_parse("U 1,0 90 thief W", &mv);
	assert_int_equal(carc_move_format(&mv, small, sizeof small), 16);
	assert_string_equal(small, "U 1");
}

/* carc_generator_game is carc gen's text, game for game. */
static void test_api_generator_is_gen(void **state)
{
	(void)state;
	carc_setup s = {.rules = "solo", .expansions = "river", .players = 3, .seed = 9, .deploy_rate = -1,
			.claim_rate = -1};
	carc_generator *gen = carc_generator_new(&s, NULL, 0);
	assert_non_null(gen);
	struct carc_gen_opts o = {.rules = carc_ruleset_find("solo", 4), .players = 3, .deploy_rate = 0.5,
				  .claim_rate = 0.1, .seed = 9, .nexpansions = 1};
	o.expansions[0] = carc_ruleset_find("river", 5);
	struct carc_gen *ref = carc_gen_new(&o, NULL);
	for (uint64_t k = 0; k < 3; k++) {
		size_t n = carc_generator_game(gen, k, NULL, 0);
		char *text = malloc(n + 1);
		carc_generator_game(gen, k, text, n + 1);
		struct carc_buf want = {0};
		carc_gen_game(ref, k, &want);
		assert_int_equal(n, want.len);
		assert_memory_equal(text, want.data, n);
		carc_buf_free(&want);
		free(text);
	}
	carc_gen_free(ref);
	carc_generator_free(gen);
	char why[128];
	s.expansions = "dragons";
	assert_null(carc_generator_new(&s, why, sizeof why));
	assert_non_null(strstr(why, "dragons"));
}

/* A whole game played on a thread, and its CGN. */
static void *play_game(void *arg)
{
	carc_match *m = arg;
	carc_move_spec mv[2048];
	while (carc_match_to_move(m) >= 0) {
		carc_match_draw(m, NULL);
		int n = carc_match_legal_moves(m, mv, 2048);
		if (n <= 0 || carc_match_play(m, &mv[n / 2]) != CARC_OK)
			return NULL;
	}
	return cgn(m);
}

/* Handles on different threads at once, clones of one game among them,
 * play as they do one at a time: no state is shared but what is locked. */
static void test_api_threads(void **state)
{
	(void)state;
	enum { N = 4 };
	carc_match *first = new_game("base", "river", 2, 77);
	carc_match *games[N];
	for (int i = 0; i < N; i++)
		games[i] = i % 2 ? carc_match_clone(first) : new_game("hunters", NULL, 3, (uint64_t)i);
	pthread_t th[N];
	for (int i = 0; i < N; i++)
		assert_int_equal(pthread_create(&th[i], NULL, play_game, games[i]), 0);
	char *alone = play_game(first);
	assert_non_null(alone);
	for (int i = 0; i < N; i++) {
		void *text;
		pthread_join(th[i], &text);
		assert_non_null(text);
		if (i % 2)
			assert_string_equal(text, alone);
		else {
			carc_match *again = new_game("hunters", NULL, 3, (uint64_t)i);
			char *want = play_game(again);
			assert_string_equal(text, want);
			free(want);
			carc_match_free(again);
		}
		free(text);
		carc_match_free(games[i]);
	}
	free(alone);
	carc_match_free(first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_version),
		cmocka_unit_test(test_api_setup_refused),
		cmocka_unit_test(test_api_turn_order_of_calls),
		cmocka_unit_test(test_api_legal_moves_are_legal),
		cmocka_unit_test(test_api_refusal_changes_nothing),
		cmocka_unit_test(test_api_clone_is_independent),
		cmocka_unit_test(test_api_named_draw),
		cmocka_unit_test(test_api_whole_game),
		cmocka_unit_test(test_api_turn_number),
		cmocka_unit_test(test_api_move_text),
		cmocka_unit_test(test_api_generator_is_gen),
		cmocka_unit_test(test_api_threads),
	};
	return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
