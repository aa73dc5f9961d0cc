/*
 * test_elo.c - Elo arithmetic (cli/elo.c): the worked example of the facts
 * file (tournaments.md, section 5: a carcassonne.gg duel, Bo3 won 2-0, and
 * the ratings it stored), the margin factors it lists, and how a duel's N
 * is read from its format or inferred.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/elo.h"

#include <math.h>

static void test_elo_worked_example(void **state)
{
	(void)state;
	double a = 1450.23, b = 1462.07;
	assert_true(fabs(elo_expected(a, b, 400) - 0.48297) < 0.000005);
	double m = elo_margin(2, 0, elo_format_n("Bo3", 2));
	assert_true(fabs(m - 4.0 / 3.0) < 1e-12);
	elo_update(&a, &b, 1.0, 32, 400, m);
	assert_true(fabs(a - 1472.29) < 0.005);
	assert_true(fabs(b - 1440.01) < 0.005);
}

static void test_elo_margins(void **state)
{
	(void)state;
	assert_true(fabs(elo_margin(2, 1, 3) - 1.0) < 1e-12);
	assert_true(fabs(elo_margin(0, 2, 3) - 4.0 / 3.0) < 1e-12);
	assert_true(fabs(elo_margin(3, 0, 5) - 1.4) < 1e-12);
	assert_true(fabs(elo_margin(3, 1, 5) - 1.2) < 1e-12);
	assert_true(fabs(elo_margin(3, 2, 5) - 1.0) < 1e-12);
	assert_true(fabs(elo_margin(1, 1, 3) - 1.0) < 1e-12);
	assert_true(fabs(elo_margin(1, 0, 1) - 1.0) < 1e-12);
}

static void test_elo_format(void **state)
{
	(void)state;
	assert_int_equal(elo_format_n("Bo5", 1), 5);
	assert_int_equal(elo_format_n("bo3", 3), 3);
	assert_int_equal(elo_format_n("Bo11", 1), 11);
	assert_int_equal(elo_format_n(NULL, 1), 1);
	assert_int_equal(elo_format_n(NULL, 2), 3);
	assert_int_equal(elo_format_n("league", 3), 5);
	assert_int_equal(elo_format_n("Bo", 4), 3);
	assert_int_equal(elo_format_n("Bo0", 4), 3);
	assert_int_equal(elo_format_n("Bo123", 2), 3);
}

/* Two equal players: the winner gains K/2, the loser loses it; a level
 * game moves nothing; the sum is kept. */
static void test_elo_even(void **state)
{
	(void)state;
	double a = 1500, b = 1500;
	elo_update(&a, &b, 1.0, 32, 400, 1.0);
	assert_true(fabs(a - 1516) < 1e-9 && fabs(b - 1484) < 1e-9);
	double c = 1600, d = 1400;
	elo_update(&c, &d, 0.5, 32, 400, 1.0);
	assert_true(fabs(c + d - 3000) < 1e-9);
	assert_true(fabs(c - (1600 + 32 * (0.5 - 1 / (1 + pow(10, -0.5))))) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elo_worked_example),
		cmocka_unit_test(test_elo_margins),
		cmocka_unit_test(test_elo_format),
		cmocka_unit_test(test_elo_even),
	};
	return cmocka_run_group_tests_name("elo", tests, NULL, NULL);
}
