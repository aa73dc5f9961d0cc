/*
 * test_abbot.c - The Abbot's module (abbot.c) under the records.
 *
 * tests/abbot/run.sh proves the rules end to end on the acceptance records;
 * these tests pin what the records cannot reach or show only as a number:
 * the table (one abbot a colour, apart from the followers, that may be taken
 * back; the code of an abbot written without the expansion), the module's
 * deployment check on each kind, and its generator hook, which takes the
 * abbot back only from an incomplete feature and scores it as "return
 * abbot" does.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/abbot.h"
#include "rules/module.h"
#include "referee/referee.h"

#include <stdlib.h>
#include <string.h>

struct fixture {
	struct carc_tileset_cache *cache;
	struct carc_record rec;
	struct carc_diag_sink sink;
	struct carc_game *g;
	const struct carc_play_hooks *hooks; /* the abbot module's */
};

static struct fixture *fx(void **state) { return *state; }

/* A game of the base rules with The Abbot, on the tile set with the
 * gardens, as a record makes it; red and blue. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	static const char text[] = "[Expansions \"abbot\"]\n[Seats \"red blue\"]\n\n1. red Eg 0,-1 180 abbot C\n";
	if (!carc_parse_string(text, sizeof text - 1, "t.cgn", f->cache, carc_rules_registry(),
			       &f->rec, &f->sink) || !f->rec.tileset)
		return -1;
	f->g = carc_game_new();
	f->hooks = carc_ruleset_get(CARC_RULES_ABBOT)->play;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = fx(state);
	carc_game_free(f->g);
	carc_record_free(&f->rec);
	carc_tileset_cache_free(f->cache);
	carc_diag_free(&f->sink);
	free(f);
	return 0;
}

static void start(struct fixture *f)
{
	carc_game_start(f->g, f->rec.tileset, f->rec.rules, 3, f->rec.seats, f->rec.nseats, 7, 0, f->rec.start_tile, 0);
}

static int tile(struct fixture *f, const char *id)
{
	int t = carc_tileset_find(f->rec.tileset, id, strlen(id));
	assert_true(t >= 0);
	return t;
}

static int role(struct fixture *f, const char *name)
{
	int r = carc_ruleset_role(f->rec.rules, name, strlen(name));
	assert_true(r >= 0);
	return r;
}

/* Places a tile, as a legal turn does. */
static int place(struct fixture *f, const char *id, int x, int y, int deg, int colour, int turn)
{
	struct carc_place_problem why;
	int t = tile(f, id);
	assert_int_equal(carc_game_check_place(f->g, t, deg / 90, x, y, &why), 0);
	carc_game_draw(f->g, t);
	return carc_game_place(f->g, t, deg / 90, x, y, colour, turn);
}

static uint32_t centre(struct fixture *f, int placement)
{
	return carc_game_feature_root(f->g, placement, carc_game_spot_feature(f->g, placement, CARC_SPOT_C));
}

static void test_abbot_table(void **state)
{
	struct fixture *f = fx(state);
	const struct carc_ruleset *x = carc_ruleset_get(CARC_RULES_ABBOT);
	assert_true(x->expansion);
	assert_int_equal(x->off_code, CARC_E275);
	/* the composed game: the base roles, then the abbot */
	int abbot = role(f, "abbot");
	assert_int_equal(abbot, 4);
	const struct carc_role *r = &f->rec.rules->roles[abbot];
	assert_int_equal(r->own, 1);
	assert_true(r->recall && r->returns && !r->hut);
	assert_ptr_equal(carc_ruleset_expansion_with_role("ABBOT", 5), x);
	assert_null(carc_ruleset_expansion_with_role("monk", 4));
	/* the record's turn parsed as a deployment of the abbot */
	assert_int_equal(f->rec.moves[0].role, abbot);
	assert_int_equal(f->rec.moves[0].recall, -1);
}

static void test_abbot_check_deploy_by_kind(void **state)
{
	struct fixture *f = fx(state);
	start(f);
	const struct carc_role *roles = f->rec.rules->roles;
	int abbot = role(f, "abbot"), monk = role(f, "monk"), thief = role(f, "thief");
	int eg = place(f, "Eg", 0, -1, 180, CARC_RED, 1);
	int b = place(f, "B", 1, -1, 0, CARC_BLUE, 2);
	int v = place(f, "V", -1, -1, 90, CARC_RED, 3);
	struct carc_buf why = {0};
	/* the abbot on a garden and on a cloister; a monk on a cloister */
	assert_int_equal(f->hooks->check_deploy(f->g, centre(f, eg), &roles[abbot], CARC_RED, &why), 0);
	assert_int_equal(f->hooks->check_deploy(f->g, centre(f, b), &roles[abbot], CARC_RED, &why), 0);
	assert_int_equal(f->hooks->check_deploy(f->g, centre(f, b), &roles[monk], CARC_RED, &why), 0);
	assert_int_equal(why.len, 0);
	/* no other figure on a garden */
	assert_int_equal(f->hooks->check_deploy(f->g, centre(f, eg), &roles[monk], CARC_RED, &why), CARC_E271);
	assert_string_equal(carc_buf_cstr(&why), "a monk on the garden at C of Eg (0,-1), but only the abbot stands on a garden");
	carc_buf_reset(&why);
	/* the abbot nowhere else; a thief on a road is none of the module's business */
	uint32_t road = carc_game_feature_root(f->g, v, carc_game_spot_feature(f->g, v, CARC_SPOT_W));
	assert_int_equal(f->hooks->check_deploy(f->g, road, &roles[abbot], CARC_RED, &why), CARC_E270);
	carc_buf_reset(&why);
	assert_int_equal(f->hooks->check_deploy(f->g, road, &roles[thief], CARC_RED, &why), 0);
	/* once red's abbot is on the map, red has none to deploy; blue has */
	carc_game_deploy(f->g, eg, carc_game_spot_feature(f->g, eg, CARC_SPOT_C), CARC_SPOT_C, CARC_RED, abbot, 1);
	assert_int_equal(carc_game_role_supply(f->g, CARC_RED, abbot), 0);
	assert_int_equal(carc_game_supply(f->g, CARC_RED), 7);
	assert_int_equal(f->hooks->check_deploy(f->g, centre(f, b), &roles[abbot], CARC_RED, &why), CARC_E272);
	assert_non_null(strstr(carc_buf_cstr(&why), "red's one abbot stands on the garden at C of Eg (0,-1), deployed on turn 1"));
	carc_buf_reset(&why);
	assert_int_equal(f->hooks->check_deploy(f->g, centre(f, b), &roles[abbot], CARC_BLUE, &why), 0);
	carc_buf_free(&why);
}

static void test_abbot_gen_recall(void **state)
{
	struct fixture *f = fx(state);
	start(f);
	int abbot = role(f, "abbot");
	struct carc_buf line = {0};
	/* no abbot on the map: nothing to take back, whatever the roll */
	assert_false(f->hooks->gen_recall(f->g, CARC_RED, 1, 0, &line));
	int eg = place(f, "Eg", 0, -1, 180, CARC_RED, 1);
	carc_game_deploy(f->g, eg, carc_game_spot_feature(f->g, eg, CARC_SPOT_C), CARC_SPOT_C, CARC_RED, abbot, 1);
	place(f, "U", -1, 0, 90, CARC_BLUE, 2);
	place(f, "U", 1, 0, 90, CARC_RED, 3);
	/* three rolls in four keep it on the map; blue has no abbot there */
	assert_false(f->hooks->gen_recall(f->g, CARC_RED, 3, 1, &line));
	assert_false(f->hooks->gen_recall(f->g, CARC_BLUE, 3, 0, &line));
	assert_int_equal(line.len, 0);
	/* the fourth takes it back: 1 + the three tiles above the garden */
	assert_true(f->hooks->gen_recall(f->g, CARC_RED, 3, 4, &line));
	assert_string_equal(carc_buf_cstr(&line), " return abbot");
	assert_int_equal(carc_game_score(f->g, CARC_RED), 4);
	assert_int_equal(carc_game_points_from(f->g, CARC_RED, CARC_SRC_OTHER), 4);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, CARC_EV_ABBOT_RETURN);
	assert_int_equal(carc_game_role_supply(f->g, CARC_RED, abbot), 1);
	carc_buf_free(&line);
}

static void test_abbot_gen_recall_not_from_a_completed_garden(void **state)
{
	struct fixture *f = fx(state);
	start(f);
	int abbot = role(f, "abbot");
	/* the garden's eight neighbours, then the garden (as in
	 * tests/abbot/abbot-quick-points.cgn) with the abbot, not yet scored */
	place(f, "U", -1, 0, 90, CARC_RED, 1);
	place(f, "U", 1, 0, 90, CARC_BLUE, 2);
	place(f, "V", -1, -1, 270, CARC_RED, 3);
	place(f, "V", 1, -1, 0, CARC_BLUE, 4);
	place(f, "V", -1, -2, 90, CARC_RED, 5);
	place(f, "V", 1, -2, 180, CARC_BLUE, 6);
	place(f, "B", 0, -2, 0, CARC_RED, 7);
	int ug = place(f, "Ug", 0, -1, 90, CARC_BLUE, 8);
	carc_game_deploy(f->g, ug, carc_game_spot_feature(f->g, ug, CARC_SPOT_C), CARC_SPOT_C, CARC_BLUE, abbot, 8);
	struct carc_buf line = {0};
	assert_false(f->hooks->gen_recall(f->g, CARC_BLUE, 8, 0, &line));
	assert_int_equal(line.len, 0);
	/* the turn's scoring scores it 9 and returns the abbot */
	carc_game_score_completed(f->g, 8);
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 9);
	assert_int_equal(carc_game_role_supply(f->g, CARC_BLUE, abbot), 1);
	carc_buf_free(&line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_abbot_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abbot_check_deploy_by_kind, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abbot_gen_recall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abbot_gen_recall_not_from_a_completed_garden, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
