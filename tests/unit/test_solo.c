/*
 * test_solo.c - the solo variant (solo.c).
 *
 * The solo scoring rule is easy to get subtly wrong: a feature pays only a
 * colour last on the track, ties for last count, a tied majority is paid in
 * full when one of its colours is last, and when a tile completes several
 * features the order changes who is paid. These tests pin the pieces one by
 * one (the stack split, the lowest-on-track rule, the search for the order
 * that earns the most and whether the order matters), then replay the rule
 * book's three worked examples through the parser and the referee and check
 * the track, the events and the words a report prints for them, and the
 * must-deploy rule, the forced end and the final award. Last, games that
 * carc gen plays by the same rules must referee without a diagnostic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"
#include "referee/referee.h"
#include "rules/solo.h"

#include <stdlib.h>
#include <string.h>

#define R (1u << CARC_RED)
#define G (1u << CARC_GREEN)
#define B (1u << CARC_BLUE)
#define Y (1u << CARC_YELLOW)
#define RGB ((uint8_t)(R | G | B))

static void test_solo_stacks_split_as_the_rule_book_says(void **state)
{
	(void)state;
	assert_int_equal(carc_solo_stack_size(71, 3, 0), 24);
	assert_int_equal(carc_solo_stack_size(71, 3, 1), 24);
	assert_int_equal(carc_solo_stack_size(71, 3, 2), 23);
	/* four colours: as even as possible, the first seats take the extra tiles */
	assert_int_equal(carc_solo_stack_size(71, 4, 0), 18);
	assert_int_equal(carc_solo_stack_size(71, 4, 1), 18);
	assert_int_equal(carc_solo_stack_size(71, 4, 2), 18);
	assert_int_equal(carc_solo_stack_size(71, 4, 3), 17);
	for (int n = 3; n <= 4; n++) {
		int sum = 0;
		for (int s = 0; s < n; s++)
			sum += carc_solo_stack_size(71, n, s);
		assert_int_equal(sum, 71);
	}
}

static void test_solo_paid_only_when_last(void **state)
{
	(void)state;
	int score[CARC_COLOURS] = {0};
	score[CARC_RED] = 14, score[CARC_GREEN] = 9, score[CARC_BLUE] = 11;
	assert_int_equal(carc_solo_paid(score, RGB, R), 0);      /* red is not last */
	assert_int_equal(carc_solo_paid(score, RGB, G), G);      /* green is */
	assert_int_equal(carc_solo_paid(score, RGB, R | B), 0);  /* neither is last */
	assert_int_equal(carc_solo_paid(score, RGB, R | G), R | G); /* one of them is: both paid */
	score[CARC_BLUE] = 9;                                    /* a tie for last counts as last */
	assert_int_equal(carc_solo_paid(score, RGB, B), B);
	assert_int_equal(carc_solo_paid(score, RGB, G), G);
	assert_int_equal(carc_solo_paid(score, RGB, 0), 0);      /* nobody holds it */
}

/* The rule book's third example: yellow 1, red 2, green 3 on the track; one
 * tile completes yellow's road (3), green's city (4) and red's road (4). Only
 * yellow road, red road, green city pays all three. */
static void test_solo_best_order_rule_book_three_features(void **state)
{
	(void)state;
	int score[CARC_COLOURS] = {0};
	score[CARC_YELLOW] = 1, score[CARC_RED] = 2, score[CARC_GREEN] = 3;
	uint8_t seated = (uint8_t)(Y | R | G);
	struct carc_solo_item items[3] = {{R, 4}, {G, 4}, {Y, 3}}; /* red road, green city, yellow road */
	int order[3];
	bool matters = false;
	assert_int_equal(carc_solo_best_order(score, seated, items, 3, order, &matters), 11);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 1);
	assert_true(matters);
}

static void test_solo_best_order_when_order_does_not_matter(void **state)
{
	(void)state;
	int score[CARC_COLOURS] = {0};
	score[CARC_RED] = 1, score[CARC_GREEN] = 20, score[CARC_BLUE] = 20;
	/* red is far behind: both of red's features pay in either order */
	struct carc_solo_item items[3] = {{R, 3}, {R, 4}, {0, 9}};
	int order[3];
	bool matters = true;
	assert_int_equal(carc_solo_best_order(score, RGB, items, 3, order, &matters), 7);
	assert_false(matters);
	assert_int_equal(order[0], 0); /* the items' own order when nothing is gained */
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 2); /* nobody holds it: last */
	/* one feature held by a colour that is not last: nothing to choose */
	struct carc_solo_item one[1] = {{G, 5}};
	assert_int_equal(carc_solo_best_order(score, RGB, one, 1, order, &matters), 0);
	assert_false(matters);
}

/* Red 1, green 1, blue 10, and red's and green's roads of 2: either order
 * pays both and ends red 3, green 3, so there is nothing to choose and the
 * items' own order is kept. Then red 1, green 2, blue 2 with green and blue
 * sharing a city of 4 and red a road of 5: the city first pays nothing (red
 * is last), the road first lifts red to 6 and the city then pays green and
 * blue 4 each, 13 in all. */
static void test_solo_best_order_ties_and_result(void **state)
{
	(void)state;
	int score[CARC_COLOURS] = {0};
	score[CARC_RED] = 1, score[CARC_GREEN] = 1, score[CARC_BLUE] = 10;
	struct carc_solo_item items[2] = {{R, 2}, {G, 2}};
	int order[2];
	bool matters = true;
	assert_int_equal(carc_solo_best_order(score, RGB, items, 2, order, &matters), 4);
	assert_int_equal(order[0], 0);
	assert_false(matters);
	score[CARC_GREEN] = 2, score[CARC_BLUE] = 2;
	struct carc_solo_item two[2] = {{G | B, 4}, {R, 5}};
	assert_int_equal(carc_solo_best_order(score, RGB, two, 2, order, &matters), 13);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	assert_true(matters);
}

/* The final award: one item per follower. Red 1, green 2, blue 3, each with
 * three followers left: every follower can be paid, 18 points, if the lowest
 * colour is always awarded next. */
static void test_solo_best_order_final_award(void **state)
{
	(void)state;
	int score[CARC_COLOURS] = {0};
	score[CARC_RED] = 1, score[CARC_GREEN] = 2, score[CARC_BLUE] = 3;
	struct carc_solo_item items[9];
	for (int i = 0; i < 9; i++)
		items[i] = (struct carc_solo_item){(uint8_t)(i % 3 == 0 ? R : i % 3 == 1 ? G : B), 2};
	int order[9];
	bool matters = false;
	assert_int_equal(carc_solo_best_order(score, RGB, items, 9, order, &matters), 18);
	assert_true(matters);
	/* played in that order, the track ends red 7, green 8, blue 9 */
	int track[CARC_COLOURS];
	memcpy(track, score, sizeof track);
	for (int k = 0; k < 9; k++) {
		uint8_t paid = carc_solo_paid(track, RGB, items[order[k]].winners);
		assert_int_equal(paid, items[order[k]].winners);
		for (int c = 0; c < CARC_COLOURS; c++)
			if (paid & (1u << c))
				track[c] += 2;
	}
	assert_int_equal(track[CARC_RED], 7);
	assert_int_equal(track[CARC_GREEN], 8);
	assert_int_equal(track[CARC_BLUE], 9);
}

/* ---- through the parser and the referee ---- */

struct codes {
	int n;
	enum carc_code code[32];
	unsigned line[32];
};

static void collect(void *ctx, const struct carc_diag *d)
{
	struct codes *c = ctx;
	if (c->n < 32) {
		unsigned line = 0, col;
		if (d->src)
			carc_src_position(d->src, d->off, &line, &col);
		c->code[c->n] = d->code;
		c->line[c->n++] = line;
	}
}

struct fixture {
	struct carc_tileset_cache *cache;
	struct carc_record rec;
	struct carc_result res;
	struct carc_game *g;
	struct carc_diag_sink sink;
	struct codes codes;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	f->g = carc_game_new();
	f->sink.emit = collect;
	f->sink.ctx = &f->codes;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	carc_result_free(&f->res);
	carc_record_free(&f->rec);
	carc_game_free(f->g);
	carc_tileset_cache_free(f->cache);
	carc_diag_free(&f->sink);
	free(f);
	return 0;
}

/* The solo module's state for the game just refereed (NULL: none). */
static const struct carc_solo *solo_of(const struct fixture *f)
{
	for (int k = 0; k < f->res.nmods; k++)
		if (f->res.mods[k]->id == CARC_RULES_SOLO)
			return f->res.mod_state[k];
	return NULL;
}

static void referee(struct fixture *f, const char *text)
{
	f->codes.n = 0;
	assert_true(carc_parse_string(text, strlen(text), "solo.cgn", f->cache, carc_rules_registry(),
				      &f->rec, &f->sink));
	carc_referee_run(&f->res, &f->rec, f->g, &f->sink, NULL);
	assert_non_null(solo_of(f));
}

static bool has_code(const struct fixture *f, enum carc_code code, unsigned line)
{
	for (int i = 0; i < f->codes.n; i++)
		if (f->codes.code[i] == code && (!line || f->codes.line[i] == line))
			return true;
	return false;
}

/* "дорога Красных ... 3 деления": green completes red's 3-tile road; red is
 * last (1), so red moves 3. The starting scores are 1, 2, 3 in seat order. */
static void test_solo_rule_book_red_road(void **state)
{
	struct fixture *f = *state;
	referee(f, "[Rules \"solo\"]\n[Seats \"red green blue\"]\n\n"
		   "1. red   W 1,0 0     thief W\n"
		   "2. green A -1,0 270  monk C\n");
	assert_int_equal(carc_solo_start_score(solo_of(f), CARC_RED), 1);
	assert_int_equal(carc_solo_start_score(solo_of(f), CARC_BLUE), 3);
	assert_int_equal(f->res.turns[1].scores[CARC_RED], 4);
	assert_int_equal(f->res.turns[1].scores[CARC_GREEN], 2);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(f->res.turns[1].nevents, 1);
	const struct carc_event *e = &ev[f->res.turns[1].first_event];
	assert_int_equal(e->winners, R);
	assert_int_equal(e->points, 3);
	struct carc_buf why = {0};
	assert_false(carc_solo_explain(solo_of(f), f->res.turns[1].first_event, &why));
	assert_string_equal(carc_buf_cstr(&why), "red is last: red 1, green 2, blue 3");
	carc_buf_free(&why);
	assert_int_equal(carc_game_supply(f->g, CARC_RED), 4); /* followers always return */
}

/* The shared city: red's and green's knights tie for it, red is last, and
 * both move 8. */
static void test_solo_rule_book_shared_city(void **state)
{
	struct fixture *f = *state;
	referee(f, "[Rules \"solo\"]\n[Seats \"red green blue\"]\n\n"
		   "1. red   N 0,1 180   knight S\n"
		   "2. green K 1,0 0     knight N\n"
		   "3. blue  N 1,1 270   -\n");
	assert_false(has_code(f, CARC_E301, 0)); /* blue's tile has no free feature */
	assert_int_equal(f->res.turns[2].scores[CARC_RED], 9);
	assert_int_equal(f->res.turns[2].scores[CARC_GREEN], 10);
	assert_int_equal(f->res.turns[2].scores[CARC_BLUE], 3);
	struct carc_buf why = {0};
	carc_solo_explain(solo_of(f), f->res.turns[2].first_event, &why);
	assert_string_equal(carc_buf_cstr(&why), "red and green hold it, red is last: red 1, green 2, blue 3");
	carc_buf_free(&why);
}

static const char *const three_features =
	"[Rules \"solo\"]\n[Seats \"yellow red green\"]\n\n"
	"1. yellow W -1,0 0    thief S\n"
	"2. red    V 1,0 0     thief W\n"
	"3. green  E 0,-1 90   knight E\n"
	"4. yellow A 2,0 0     thief S\n"
	"5. red    V 2,-1 90   -\n";

/* The tile that completes three features: with no order written, carc finds
 * yellow road, red road, green city, pays all three and says so (E307). */
static void test_solo_rule_book_three_features_chosen(void **state)
{
	struct fixture *f = *state;
	char text[1024];
	snprintf(text, sizeof text, "%s6. green  L 1,-1 270  thief S\n", three_features);
	referee(f, text);
	assert_true(has_code(f, CARC_E307, 9));
	assert_int_equal(carc_solo_order_of(solo_of(f), 6), CARC_SOLO_ORDER_CHOSEN);
	const struct carc_turn *t = &f->res.turns[5];
	assert_int_equal(t->scores[CARC_YELLOW], 4);
	assert_int_equal(t->scores[CARC_RED], 6);
	assert_int_equal(t->scores[CARC_GREEN], 7);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(t->nevents, 3);
	assert_int_equal(ev[t->first_event].winners, Y);
	assert_int_equal(ev[t->first_event + 1].winners, R);
	assert_int_equal(ev[t->first_event + 2].winners, G);
	const int *before = carc_solo_track_before(solo_of(f), t->first_event + 2);
	assert_non_null(before);
	assert_int_equal(before[CARC_RED], 6); /* green's city is scored after red's road */
}

/* The same tile with order E W N (yellow road, green city, red road): green
 * is not last when its city is scored, and the report says why. */
static void test_solo_rule_book_three_features_given_order(void **state)
{
	struct fixture *f = *state;
	char text[1024];
	snprintf(text, sizeof text, "%s6. green  L 1,-1 270  thief S  order E W N\n", three_features);
	referee(f, text);
	assert_false(has_code(f, CARC_E307, 0));
	assert_int_equal(carc_solo_order_of(solo_of(f), 6), CARC_SOLO_ORDER_GIVEN);
	const struct carc_turn *t = &f->res.turns[5];
	assert_int_equal(t->scores[CARC_YELLOW], 4);
	assert_int_equal(t->scores[CARC_RED], 6);
	assert_int_equal(t->scores[CARC_GREEN], 3);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(ev[t->first_event + 1].skipped, G);
	struct carc_buf why = {0};
	assert_true(carc_solo_explain(solo_of(f), t->first_event + 1, &why));
	assert_string_equal(carc_buf_cstr(&why), "green is not last: yellow 4, red 2, green 3");
	carc_buf_free(&why);
}

static void test_solo_bad_order_entries(void **state)
{
	struct fixture *f = *state;
	char text[1024];
	snprintf(text, sizeof text, "%s6. green  L 1,-1 270  thief S  order E E S 9,9:C N W\n", three_features);
	referee(f, text);
	assert_true(has_code(f, CARC_E306, 9)); /* E twice */
	assert_true(has_code(f, CARC_E304, 9)); /* S: the new road, not complete */
	assert_true(has_code(f, CARC_E305, 9)); /* 9,9 holds no tile */
	/* the good entries still set the order: yellow road, red road, green city */
	assert_int_equal(f->res.turns[5].scores[CARC_GREEN], 7);
}

static void test_solo_must_deploy(void **state)
{
	struct fixture *f = *state;
	referee(f, "[Rules \"solo\"]\n[Seats \"red green blue\"]\n\n"
		   "1. red   W 1,0 0     thief W\n"
		   "2. green A -1,0 270  -\n"
		   "3. blue  U 2,0 90\n");
	assert_true(has_code(f, CARC_E301, 5)); /* the cloister was free */
	assert_true(has_code(f, CARC_E301, 6)); /* U's road is free: the junction ended red's road */
	assert_int_equal(f->res.errors, 2);
}

/* Three followers each, every turn deploys one, nothing returns: on turn 10
 * red has a free feature and no follower, so the game ends after it; the
 * followers left on the map then pay 2 each to a colour that is last. */
static const char *const forced =
	"[Rules \"solo\"]\n[Seats \"red green blue\"]\n[Followers \"3\"]\n\n"
	"1. red   B 0,-1 0    monk C\n"
	"2. green B 1,-1 0    monk C\n"
	"3. blue  B -1,-1 0   monk C\n"
	"4. red   B 2,-1 0    monk C\n"
	"5. green E 3,-1 180  knight S\n"
	"6. blue  E -2,-1 180 knight S\n"
	"7. red   E 4,-1 180  knight S\n"
	"8. green E -3,-1 180 knight S\n"
	"9. blue  E 5,-1 180  knight S\n"
	"10. red  A -4,-1 0\n";

static void test_solo_forced_end_and_final_award(void **state)
{
	struct fixture *f = *state;
	referee(f, forced);
	assert_int_equal(f->res.errors, 0);
	assert_true(f->res.finished);
	assert_true(f->res.final_scored);
	bool was_forced = false;
	int colour = -1;
	assert_int_equal(carc_solo_end(solo_of(f), &was_forced, &colour), 10);
	assert_true(was_forced);
	assert_int_equal(colour, CARC_RED);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 7);
	assert_int_equal(carc_game_score(f->g, CARC_GREEN), 8);
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 9);
	uint8_t last = 0;
	assert_int_equal(carc_solo_result(solo_of(f), &last), 7);
	assert_int_equal(last, R);
	assert_true(has_code(f, CARC_E307, 0));
	assert_int_equal(carc_solo_order_of(solo_of(f), 0), CARC_SOLO_ORDER_CHOSEN);
}

static void test_solo_turn_after_forced_end(void **state)
{
	struct fixture *f = *state;
	char text[1024];
	snprintf(text, sizeof text, "%s11. green U 6,-1 0\n", forced);
	referee(f, text);
	assert_true(has_code(f, CARC_E303, 15));
}

/* EndOrder: blue's three followers first, then red's and green's monks.
 * Blue (3) is not last, so its followers pay nothing; red (1) is paid, 3;
 * green (2) is paid, 4. That leaves red 3, green 4, blue 3 with two red and
 * two green followers unnamed: red, last with blue, is paid once (5), and
 * then blue is last with none left, so nothing else pays, in any order:
 * red 5, green 4, blue 3, and carc has nothing to choose. */
static void test_solo_end_order_given(void **state)
{
	struct fixture *f = *state;
	char text[2048];
	snprintf(text, sizeof text, "[EndOrder \"-1,-1:C -2,-1:S 5,-1:S 0,-1:C 1,-1:C\"]\n%s", forced);
	referee(f, text);
	assert_int_equal(f->res.errors, 0);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 5);
	assert_int_equal(carc_game_score(f->g, CARC_GREEN), 4);
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 3);
	assert_false(has_code(f, CARC_E307, 0));
	assert_int_equal(carc_solo_order_of(solo_of(f), 0), CARC_SOLO_ORDER_GIVEN);
}

static void test_solo_end_order_errors(void **state)
{
	struct fixture *f = *state;
	char text[2048];
	snprintf(text, sizeof text, "[EndOrder \"0,-1:C 0,-1:C 0,0:N 7,7:C 0,-1:N\"]\n%s", forced);
	referee(f, text);
	assert_true(has_code(f, CARC_E309, 1)); /* 0,-1:C twice */
	assert_true(has_code(f, CARC_E308, 1)); /* nobody on the start tile's city, no tile at 7,7, a field */
	int e308 = 0;
	for (int i = 0; i < f->codes.n; i++)
		e308 += f->codes.code[i] == CARC_E308;
	assert_int_equal(e308, 3);
}

static void test_solo_result_may_name_the_last_colour_only(void **state)
{
	struct fixture *f = *state;
	char text[2048];
	snprintf(text, sizeof text, "[Result \"red 7\"]\n%s", forced);
	referee(f, text);
	assert_int_equal(f->res.errors, 0);
	snprintf(text, sizeof text, "[Result \"blue 9\"]\n%s", forced);
	referee(f, text);
	assert_true(has_code(f, CARC_E310, 0));
	snprintf(text, sizeof text, "[Result \"red 7, green 8, blue 10\"]\n%s", forced);
	referee(f, text);
	assert_true(has_code(f, CARC_E213, 0));
	assert_false(has_code(f, CARC_E310, 0));
}

/* carc gen --rules solo: every game referees clean (its claims and Result
 * included), needs no E307 note (it writes its orders), and ends either
 * with the supply or by a forced end. */
static void test_solo_generated_games_referee_clean(void **state)
{
	struct fixture *f = *state;
	for (int players = 3; players <= 4; players++) {
		struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_SOLO), .players = players,
					  .claim_rate = 0.3, .seed = 40 + (uint64_t)players};
		const char *why = NULL;
		struct carc_gen *gen = carc_gen_new(&o, &why);
		assert_non_null(gen);
		struct carc_buf text = {0};
		for (uint64_t k = 0; k < 60; k++) {
			carc_buf_reset(&text);
			carc_gen_game(gen, k, &text);
			unsigned errors = f->sink.errors, warnings = f->sink.warnings;
			referee(f, carc_buf_cstr(&text));
			assert_int_equal(f->sink.errors, errors);
			assert_int_equal(f->sink.warnings, warnings);
			assert_int_equal(f->codes.n, 0);
			assert_true(f->res.finished);
			bool was_forced = false;
			assert_true(carc_solo_end(solo_of(f), &was_forced, NULL) > 0);
			assert_true(was_forced || carc_game_supply_left(f->g) == 0);
		}
		carc_buf_free(&text);
		carc_gen_free(gen);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_solo_stacks_split_as_the_rule_book_says),
		cmocka_unit_test(test_solo_paid_only_when_last),
		cmocka_unit_test(test_solo_best_order_rule_book_three_features),
		cmocka_unit_test(test_solo_best_order_when_order_does_not_matter),
		cmocka_unit_test(test_solo_best_order_ties_and_result),
		cmocka_unit_test(test_solo_best_order_final_award),
		cmocka_unit_test_setup_teardown(test_solo_rule_book_red_road, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_rule_book_shared_city, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_rule_book_three_features_chosen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_rule_book_three_features_given_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_bad_order_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_must_deploy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_forced_end_and_final_award, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_turn_after_forced_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_end_order_given, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_end_order_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_result_may_name_the_last_colour_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_solo_generated_games_referee_clean, setup, teardown),
	};
	return cmocka_run_group_tests_name("solo", tests, NULL, NULL);
}
