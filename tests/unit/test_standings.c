/*
 * test_standings.c - the tournament table's module (cli/standings.c), fed
 * outcomes directly, as carc pair and carc ratings may.
 *
 * End to end, tests/tournament compares whole tables with ones worked out
 * by hand; these pin the rules one at a time: what each --level does with a
 * level score (seed: the standing before the game), that a bye is a win
 * without points and worth 0 in its player's Buchholz list, that a
 * technical result counts no score, that head to head looks only at the
 * tied players, that the games are taken by round whatever order they come
 * in, and that the draw of lots follows its seed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/standings.h"

#include <string.h>

static struct carc_outcome game(const char *round, const char *a, const char *b, int sa, int sb)
{
	struct carc_outcome o;
	memset(&o, 0, sizeof o);
	o.nseats = 2;
	o.player[0] = a, o.player[1] = b;
	o.score[0] = sa, o.score[1] = sb;
	o.scores = true;
	o.round = round;
	o.time_of_day = -1;
	o.winner = sa > sb ? 0 : sb > sa ? 1 : -1;
	o.top = sa > sb ? 1 : sb > sa ? 2 : 3;
	return o;
}

static struct carc_outcome bye(const char *round, const char *a)
{
	struct carc_outcome o;
	memset(&o, 0, sizeof o);
	o.nseats = 1;
	o.player[0] = a;
	o.round = round;
	o.time_of_day = -1;
	o.winner = 0;
	o.bye = true;
	o.termination = CARC_TERM_BYE;
	return o;
}

static const struct carc_standing *row(const struct carc_standing *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].player, name))
			return &rows[i];
	fail_msg("no row for %s", name);
	return NULL;
}

static struct carc_standings_opts opts(enum carc_level level)
{
	struct carc_standings_opts o = {.win = 1, .draw = 0.5, .loss = 0, .level = level};
	return o;
}

static void test_standings_level_rules(void **state)
{
	(void)state;
	/* Ann and Bob level at 70 (Ann started); Bob had won round 1 */
	struct carc_outcome g1 = game("1", "Bob", "Cid", 80, 60), g2 = game("2", "Ann", "Bob", 70, 70);
	const enum carc_level levels[] = {CARC_LEVEL_DRAW, CARC_LEVEL_SECOND, CARC_LEVEL_FIRST, CARC_LEVEL_SEED};
	const double ann[] = {0.5, 0, 1, 0}, bob[] = {1.5, 2, 1, 2};
	for (int k = 0; k < 4; k++) {
		struct carc_standings_opts o = opts(levels[k]);
		struct carc_standings *sd = carc_standings_new(&o);
		carc_standings_add(sd, &g2); /* (out of order: round 2 first) */
		carc_standings_add(sd, &g1);
		size_t n;
		const struct carc_standing *rows = carc_standings_rank(sd, &n);
		assert_int_equal(n, 3);
		assert_true(row(rows, n, "Ann")->points == ann[k]);
		assert_true(row(rows, n, "Bob")->points == bob[k]);
		assert_int_equal(carc_standings_game_winner(sd, 0),
				 levels[k] == CARC_LEVEL_DRAW ? -1 : levels[k] == CARC_LEVEL_FIRST ? 0 : 1);
		carc_standings_free(sd);
	}
}

static void test_standings_bye_and_technical(void **state)
{
	(void)state;
	struct carc_standings_opts o = opts(CARC_LEVEL_DRAW);
	o.tiebreaks[0] = CARC_TB_BUCHHOLZ, o.tiebreaks[1] = CARC_TB_CUT1, o.tiebreaks[2] = CARC_TB_BYE_LAST;
	o.ntiebreaks = 3;
	struct carc_standings *sd = carc_standings_new(&o);
	struct carc_outcome g1 = game("1", "Ann", "Bob", 90, 50), b1 = bye("1", "Cid");
	struct carc_outcome g2 = game("2", "Cid", "Ann", 0, 0), b2 = bye("2", "Bob");
	g2.scores = false, g2.technical = true, g2.termination = CARC_TERM_TIME_FORFEIT, g2.winner = 0, g2.top = 0;
	carc_standings_add(sd, &g1);
	carc_standings_add(sd, &b1);
	carc_standings_add(sd, &g2);
	carc_standings_add(sd, &b2);
	size_t n;
	const struct carc_standing *rows = carc_standings_rank(sd, &n);
	const struct carc_standing *cid = row(rows, n, "Cid"), *ann = row(rows, n, "Ann"), *bob = row(rows, n, "Bob");
	assert_true(cid->points == 2 && cid->byes == 1 && cid->wins == 2);
	assert_int_equal(cid->score_for, 0);   /* a bye and a forfeit: no score */
	assert_int_equal(ann->score_for, 90);  /* the forfeit adds nothing */
	assert_int_equal(ann->score_against, 50);
	assert_true(cid->tb[CARC_TB_BUCHHOLZ] == 1);  /* bye 0 + Ann 1 */
	assert_true(cid->tb[CARC_TB_CUT1] == 1);      /* the bye's 0 dropped */
	assert_true(bob->tb[CARC_TB_BUCHHOLZ] == 1);  /* Ann 1 + bye 0 */
	assert_true(cid->tb[CARC_TB_BYE_LAST] == -1);
	assert_string_equal(rows[0].player, "Cid");
	carc_standings_free(sd);
}

static void test_standings_h2h_among_the_tied(void **state)
{
	(void)state;
	struct carc_standings_opts o = opts(CARC_LEVEL_DRAW);
	o.tiebreaks[0] = CARC_TB_H2H;
	o.ntiebreaks = 1;
	struct carc_standings *sd = carc_standings_new(&o);
	/* Dan and Eve both on 1 point; Eve beat Dan; Dan beat Fay, who is not tied */
	struct carc_outcome g[] = {game("1", "Eve", "Dan", 70, 60), game("2", "Dan", "Fay", 80, 50),
				   game("3", "Gil", "Eve", 90, 40), game("3", "Fay", "Gil", 10, 20)};
	for (size_t i = 0; i < 4; i++)
		carc_standings_add(sd, &g[i]);
	size_t n;
	const struct carc_standing *rows = carc_standings_rank(sd, &n);
	assert_string_equal(rows[0].player, "Gil");
	assert_string_equal(rows[1].player, "Eve");
	assert_string_equal(rows[2].player, "Dan");
	assert_true(rows[1].tb[CARC_TB_H2H] == 1 && rows[2].tb[CARC_TB_H2H] == 0);
	assert_int_equal(rows[1].rank, 2);
	assert_int_equal(rows[2].rank, 3);
	carc_standings_free(sd);
}

static void test_standings_lot_follows_its_seed(void **state)
{
	(void)state;
	double v[2];
	for (int k = 0; k < 2; k++) {
		struct carc_standings_opts o = opts(CARC_LEVEL_DRAW);
		o.tiebreaks[0] = CARC_TB_LOT;
		o.ntiebreaks = 1;
		o.lot_seed = (uint64_t)k;
		struct carc_standings *sd = carc_standings_new(&o);
		struct carc_outcome g = game("1", "Ann", "Bob", 50, 50);
		carc_standings_add(sd, &g);
		size_t n;
		const struct carc_standing *rows = carc_standings_rank(sd, &n);
		v[k] = row(rows, n, "Ann")->tb[CARC_TB_LOT];
		assert_true(rows[0].rank == 1 && rows[1].rank == 2); /* the lot leaves no tie */
		assert_true(v[k] >= 0 && v[k] < 1);
		carc_standings_free(sd);
	}
	assert_true(v[0] != v[1]);
}

static void test_standings_tiebreak_names(void **state)
{
	(void)state;
	for (int t = 0; t < CARC_TB_COUNT; t++) {
		const char *name = carc_tiebreak_name(t);
		assert_int_equal(carc_tiebreak_lookup(name, strlen(name)), t);
	}
	assert_int_equal(carc_tiebreak_lookup("solkoff1", 8), CARC_TB_CUT1);
	assert_int_equal(carc_tiebreak_lookup("solkoff2", 8), CARC_TB_MEDIAN1);
	assert_int_equal(carc_tiebreak_lookup("solkoff", 7), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_standings_level_rules),
		cmocka_unit_test(test_standings_bye_and_technical),
		cmocka_unit_test(test_standings_h2h_among_the_tied),
		cmocka_unit_test(test_standings_lot_follows_its_seed),
		cmocka_unit_test(test_standings_tiebreak_names),
	};
	return cmocka_run_group_tests_name("standings", tests, NULL, NULL);
}
