/*
 * test_interface.c - the rule-set interface, piece by piece, with modules
 * made for the test (no module of the registry has these hooks yet):
 *   - a role's weight in majorities (a large follower 2, a builder 0), in a
 *     feature's final scoring and in a farm's;
 *   - engine hooks that compose: each module's feature_value in calling
 *     order, each given what the one before made of the base game's value;
 *     score_event likewise, with points paid more to some winners;
 *   - hooks that cannot compose (two modules that replace one step) refused
 *     when the game's rule set is composed, with a message naming both;
 *   - attributes a tile set declares (inn, wine), counted by the engine
 *     over a feature's tiles, merged by name when sets are joined; and the
 *     ways to declare or use one wrongly.
 * The map: the start tile D at 0,0 (city N, road W-E) and a straight road U
 * at -1,0 turned 90 (road W-E): one road of two tiles, open at both ends, and
 * one field south of it over both tiles.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/game.h"
#include "rules/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RED = CARC_RED, GREEN = CARC_GREEN, BLUE = CARC_BLUE };
enum { KNIGHT, THIEF, FARMER, BIG_THIEF, BIG_FARMER, BUILDER };

/* The base game's roles but the monk, a large thief and farmer, a builder. */
static const struct carc_ruleset weighted = {
	.id = CARC_RULES_BASE, .name = "weighted", .title = "test", .followers = 7,
	.nroles = 6,
	.roles = {
		{"knight", {"city"}, true, false, 0, false, 0},
		{"thief", {"road"}, true, false, 0, false, 0},
		{"farmer", {"field"}, false, false, 0, false, 0},
		{"bigthief", {"road"}, true, false, 1, false, 1},
		{"bigfarmer", {"field"}, false, false, 1, false, 1},
		{"builder", {"road", "city"}, true, false, 1, false, -1},
	},
};

/* More roles than the 6 of old: the base game's 4, an abbot, and a large
 * follower written as four two-word roles that share one figure a colour
 * (pool "big"), a builder, a pig: 11. */
enum { M_KNIGHT, M_THIEF, M_MONK, M_FARMER, M_ABBOT, M_BIG_KNIGHT, M_BIG_THIEF, M_BIG_MONK, M_BIG_FARMER, M_BUILDER,
       M_PIG };
static const struct carc_ruleset many = {
	.id = CARC_RULES_BASE, .name = "many", .title = "test", .followers = 7,
	.nroles = 11,
	.roles = {
		{"knight", {"city"}, true, false, 0, false, 0, NULL},
		{"thief", {"road"}, true, false, 0, false, 0, NULL},
		{"monk", {"cloister"}, true, false, 0, false, 0, NULL},
		{"farmer", {"field"}, false, false, 0, false, 0, NULL},
		{"abbot", {"cloister", "garden"}, true, false, 1, true, 0, NULL},
		{"big knight", {"city"}, true, false, 1, false, 1, "big"},
		{"big thief", {"road"}, true, false, 1, false, 1, "big"},
		{"big monk", {"cloister"}, true, false, 1, false, 1, "big"},
		{"big farmer", {"field"}, false, false, 1, false, 1, "big"},
		{"builder", {"road", "city"}, true, false, 1, false, -1, NULL},
		{"pig", {"field"}, false, false, 1, false, -1, NULL},
	},
};
_Static_assert(CARC_MAX_ROLES >= 11, "the Big Box's roles fit");

struct fixture {
	struct carc_tileset_cache *cache;
	const struct carc_tileset *ts;
	struct carc_game *g;
	struct carc_diag_sink sink;
	int road_pl; /* the placement of U */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	f->ts = carc_tileset_cache_get(f->cache, "base", &f->sink, NULL, 0, 0);
	f->g = carc_game_new();
	*state = f;
	return f->ts ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	carc_game_free(f->g);
	carc_tileset_cache_free(f->cache);
	carc_diag_free(&f->sink);
	free(f);
	return 0;
}

/* Starts a game of rules for red, green and blue; places U at -1,0. */
static void start(struct fixture *f, const struct carc_ruleset *rules)
{
	static const uint8_t seats[] = {RED, GREEN, BLUE};
	carc_game_start(f->g, f->ts, rules, 3, seats, 3, 7, 0, f->ts->start_tile, 0);
	int u = carc_tileset_find(f->ts, "U", 1);
	assert_int_equal(carc_game_check_place(f->g, u, 1, -1, 0, NULL), 0);
	carc_game_draw(f->g, u);
	f->road_pl = carc_game_place(f->g, u, 1, -1, 0, RED, 1);
	assert_int_equal(carc_game_score_completed(f->g, 1), 0);
}

/* Deploys a figure of role onto the feature at spot of placement pl. */
static uint32_t deploy(struct fixture *f, int pl, const char *spot, int colour, int role)
{
	int sp = carc_spot_lookup(spot, strlen(spot));
	int feature = carc_game_spot_feature(f->g, pl, sp);
	assert_int_not_equal(feature, CARC_NO_FEATURE);
	carc_game_deploy(f->g, pl, feature, sp, colour, role, 1);
	return carc_game_feature_root(f->g, pl, feature);
}

/* The last final-scoring event of the given type. */
static const struct carc_event *final_event(struct fixture *f, int type)
{
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n), *found = NULL;
	for (size_t i = 0; i < n; i++)
		if (ev[i].type == type)
			found = &ev[i];
	assert_non_null(found);
	return found;
}

/* ---- weights ---- */

/* A large thief (2) against one thief (1): red alone scores the road (2
 * tiles, 1 a tile at the end: 2). */
static void test_weight_large_follower_wins_a_road(void **state)
{
	struct fixture *f = *state;
	start(f, &weighted);
	uint32_t road = deploy(f, f->road_pl, "E", RED, BIG_THIEF);
	deploy(f, 0, "W", GREEN, THIEF);
	const uint8_t *count = carc_game_feature_followers(f->g, road);
	assert_int_equal(count[RED], 2);
	assert_int_equal(count[GREEN], 1);
	carc_game_score_final(f->g);
	const struct carc_event *ev = final_event(f, CARC_EV_INCOMPLETE);
	assert_int_equal(ev->winners, 1u << RED);
	assert_int_equal(carc_game_score(f->g, RED), 2);
	assert_int_equal(carc_game_score(f->g, GREEN), 0);
}

/* A large thief (2) against two thieves (2): a tie, both score in full. */
static void test_weight_large_follower_ties_two(void **state)
{
	struct fixture *f = *state;
	start(f, &weighted);
	deploy(f, f->road_pl, "E", RED, BIG_THIEF);
	deploy(f, 0, "W", GREEN, THIEF);
	deploy(f, 0, "W", GREEN, THIEF);
	carc_game_score_final(f->g);
	assert_int_equal(final_event(f, CARC_EV_INCOMPLETE)->winners, (1u << RED) | (1u << GREEN));
	assert_int_equal(carc_game_score(f->g, RED), 2);
	assert_int_equal(carc_game_score(f->g, GREEN), 2);
}

/* A builder weighs nothing: it occupies the road, but a road with only a
 * builder has no owner, and beside a thief the thief's colour wins. */
static void test_weight_builder_counts_nothing(void **state)
{
	struct fixture *f = *state;
	start(f, &weighted);
	uint32_t road = deploy(f, f->road_pl, "E", RED, BUILDER);
	assert_int_equal(carc_game_feature_followers(f->g, road)[RED], 0);
	assert_non_null(carc_game_feature_occupant(f->g, road));
	uint8_t none[CARC_COLOURS] = {0};
	assert_int_equal(carc_game_majority(f->g, carc_game_feature_followers(f->g, road)), carc_game_majority(f->g, none));
	deploy(f, 0, "W", GREEN, THIEF);
	carc_game_score_final(f->g);
	assert_int_equal(final_event(f, CARC_EV_INCOMPLETE)->winners, 1u << GREEN);
	assert_int_equal(carc_game_score(f->g, RED), 0);
	assert_int_equal(carc_game_supply(f->g, GREEN), 7); /* the thief came back */
}

/* Farms: a large farmer (2) against a green and a blue farmer (1 each): red
 * alone owns the field (it borders no completed city: 0 points). */
static void test_weight_large_farmer_owns_a_farm(void **state)
{
	struct fixture *f = *state;
	start(f, &weighted);
	deploy(f, f->road_pl, "SSW", RED, BIG_FARMER);
	deploy(f, 0, "SSW", GREEN, FARMER);
	deploy(f, 0, "SSE", BLUE, FARMER);
	carc_game_score_final(f->g);
	const struct carc_event *ev = final_event(f, CARC_EV_FARM);
	assert_int_equal(ev->winners, 1u << RED);
	assert_int_equal(ev->followers[RED], 2);
	assert_int_equal(ev->followers[GREEN], 1);
}

/* ---- engine hooks that compose ---- */

static char calls[16]; /* the order the hooks were called in */

static void called(char c)
{
	size_t n = strlen(calls);
	if (n + 1 < sizeof calls) {
		calls[n] = c;
		calls[n + 1] = '\0';
	}
}

static int given; /* the value module A was given */

static int double_value(struct carc_game *g, uint32_t root, int tiles, bool complete, int value, uint16_t *items)
{
	(void)g, (void)root, (void)tiles, (void)complete, (void)items;
	called('A');
	given = value;
	return 2 * value;
}

static int add_one(struct carc_game *g, uint32_t root, int tiles, bool complete, int value, uint16_t *items)
{
	(void)g, (void)root, (void)tiles, (void)complete, (void)items;
	called('B');
	return value + 1;
}

/* Red gets 3 more than the other winners of every event it wins. */
static void red_bonus(struct carc_game *g, struct carc_event *ev)
{
	(void)g;
	called('E');
	ev->bonus_to = (uint8_t)(ev->winners & (1u << RED));
	ev->bonus = 3;
}

static const struct carc_engine_hooks engine_a = {.feature_value = double_value};
static const struct carc_engine_hooks engine_b = {.feature_value = add_one, .score_event = red_bonus};
static void replace_final(struct carc_game *g) { (void)g; }
static const struct carc_engine_hooks engine_final = {.score_final = replace_final};
static int replace_seat(void *st, int seat, int colour) { (void)st, (void)colour; return seat; }
static const struct carc_play_hooks play_seat = {.seat = replace_seat};
static const struct carc_rules_words no_words = {.tile = NULL};

static const struct carc_ruleset mod_a = {
	.id = CARC_RULES_COUNT, .name = "double", .expansion = true, .joins = "base",
	.engine = &engine_a, .words = &no_words,
};
static const struct carc_ruleset mod_b = {
	.id = CARC_RULES_COUNT + 1, .name = "plusone", .expansion = true, .joins = "base",
	.engine = &engine_b, .words = &no_words,
};
static const struct carc_ruleset mod_final1 = {
	.id = CARC_RULES_COUNT + 2, .name = "final1", .expansion = true, .joins = "base",
	.engine = &engine_final, .words = &no_words,
};
static const struct carc_ruleset mod_final2 = {
	.id = CARC_RULES_COUNT + 3, .name = "final2", .expansion = true, .joins = "base",
	.engine = &engine_final, .words = &no_words,
};
static const struct carc_ruleset mod_seat1 = {
	.id = CARC_RULES_COUNT + 4, .name = "seat1", .expansion = true, .joins = "base",
	.play = &play_seat, .words = &no_words,
};
static const struct carc_ruleset mod_seat2 = {
	.id = CARC_RULES_COUNT + 5, .name = "seat2", .expansion = true, .joins = "base",
	.play = &play_seat, .words = &no_words,
};

/* The rule set with the two modules' engine hooks in the order given. */
static void rules_with(struct carc_ruleset *rs, const struct carc_ruleset *first, const struct carc_ruleset *second)
{
	*rs = weighted;
	rs->nengines = 2;
	rs->engines[0] = first->engine;
	rs->engines[1] = second->engine;
}

/* Eleven roles: the last of them deploy and weigh as declared; the four
 * roles of pool "big" are one figure of each colour (deploying one as a
 * thief leaves none as a farmer), which comes back when its road scores;
 * the abbot's own supply is apart. */
static void test_roles_many_and_a_shared_supply(void **state)
{
	struct fixture *f = *state;
	start(f, &many);
	assert_int_equal(carc_game_role_supply(f->g, RED, M_BIG_FARMER), 1);
	assert_int_equal(carc_game_role_supply(f->g, RED, M_PIG), 1);
	uint32_t road = deploy(f, f->road_pl, "E", RED, M_BIG_THIEF);
	assert_int_equal(carc_game_feature_followers(f->g, road)[RED], 2);
	assert_int_equal(carc_game_role_supply(f->g, RED, M_BIG_FARMER), 0);
	assert_int_equal(carc_game_role_supply(f->g, RED, M_BIG_KNIGHT), 0);
	assert_int_equal(carc_game_role_supply(f->g, GREEN, M_BIG_KNIGHT), 1);
	assert_int_equal(carc_game_role_supply(f->g, RED, M_ABBOT), 1);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	deploy(f, 0, "S", RED, M_PIG); /* the field south of the road: weighs nothing */
	deploy(f, 0, "SSE", GREEN, M_FARMER);
	carc_game_score_final(f->g);
	const struct carc_event *ev = final_event(f, CARC_EV_FARM);
	assert_int_equal(ev->winners, 1u << GREEN);
	/* the road scored at the end: the figure is back in its own supply */
	assert_int_equal(carc_game_role_supply(f->g, RED, M_BIG_FARMER), 1);
	assert_true(carc_roles_share_supply(&many.roles[M_BIG_MONK], &many.roles[M_BIG_KNIGHT]));
	assert_false(carc_roles_share_supply(&many.roles[M_BIG_MONK], &many.roles[M_ABBOT]));
}

/* A two-word role takes the letter of the role it varies ("big knight":
 * K, drawn larger); the others the first letter of their name not taken. */
static void test_roles_letters(void **state)
{
	(void)state;
	char letters[CARC_MAX_ROLES];
	carc_role_letters(&many, letters);
	assert_memory_equal(letters, "KTMFAKTMFBP", 11);
}

/* Composed, base + A + B: A's hook is given the base game's value of the
 * road (2 tiles, incomplete: 2) and doubles it, then B adds one: 5. */
static void test_compose_values_in_calling_order(void **state)
{
	struct fixture *f = *state;
	const struct carc_ruleset *xs[2] = {&mod_a, &mod_b};
	const struct carc_ruleset *rs = carc_rules_compose(carc_ruleset_default(), xs, 2);
	assert_non_null(rs);
	assert_int_equal(rs->nengines, 2);
	assert_ptr_equal(rs->engines[0], &engine_a);
	assert_ptr_equal(rs->engines[1], &engine_b);
	start(f, rs);
	uint32_t road = deploy(f, f->road_pl, "E", RED, carc_ruleset_role(rs, "thief", 5));
	calls[0] = '\0';
	assert_int_equal(carc_game_feature_value(f->g, road), 5);
	assert_string_equal(calls, "AB");
	assert_int_equal(given, 2);
}

/* The other order: (2 + 1) * 2 = 6. */
static void test_compose_values_other_order(void **state)
{
	struct fixture *f = *state;
	struct carc_ruleset rs;
	rules_with(&rs, &mod_b, &mod_a);
	start(f, &rs);
	uint32_t road = deploy(f, f->road_pl, "E", RED, THIEF);
	calls[0] = '\0';
	assert_int_equal(carc_game_feature_value(f->g, road), 6);
	assert_string_equal(calls, "BA");
	assert_int_equal(given, 3);
}

/* Per-winner points: red and green tie on the road (value 5: base 2,
 * doubled, plus one); the event hook gives red 3 more: red 8, green 5. */
static void test_compose_event_pays_some_winners_more(void **state)
{
	struct fixture *f = *state;
	struct carc_ruleset rs;
	rules_with(&rs, &mod_a, &mod_b);
	start(f, &rs);
	deploy(f, f->road_pl, "E", RED, THIEF);
	deploy(f, 0, "W", GREEN, THIEF);
	calls[0] = '\0';
	carc_game_score_final(f->g);
	const struct carc_event *ev = final_event(f, CARC_EV_INCOMPLETE);
	assert_int_equal(ev->points, 5);
	assert_int_equal(ev->bonus_to, 1u << RED);
	assert_int_equal(carc_event_points_of(ev, RED), 8);
	assert_int_equal(carc_event_points_of(ev, GREEN), 5);
	assert_int_equal(carc_event_points_of(ev, BLUE), 0);
	assert_int_equal(carc_game_score(f->g, RED), 8);
	assert_int_equal(carc_game_score(f->g, GREEN), 5);
	assert_int_equal(carc_game_points_from(f->g, RED, CARC_SRC_END_PATH), 8);
	assert_non_null(strchr(calls, 'E'));
}

/* Two modules that replace one step cannot be played together: refused
 * when composed, with both named; one of them alone composes. */
static void test_compose_refuses_two_replacing_hooks(void **state)
{
	(void)state;
	const struct carc_ruleset *finals[2] = {&mod_final1, &mod_final2};
	assert_null(carc_rules_compose(carc_ruleset_default(), finals, 2));
	assert_non_null(carc_rules_compose(carc_ruleset_default(), finals, 1));
	const struct carc_ruleset *mods[3] = {carc_ruleset_default(), &mod_final1, &mod_final2};
	char why[256];
	assert_true(carc_rules_conflict(mods, 3, why, sizeof why));
	assert_non_null(strstr(why, "final1 and final2"));
	assert_non_null(strstr(why, "score_final"));
	const struct carc_ruleset *seats[3] = {carc_ruleset_default(), &mod_seat1, &mod_seat2};
	assert_true(carc_rules_conflict(seats, 3, why, sizeof why));
	assert_non_null(strstr(why, "seat1 and seat2"));
	const struct carc_ruleset *fine[3] = {carc_ruleset_default(), &mod_a, &mod_b};
	assert_false(carc_rules_conflict(fine, 3, why, sizeof why));
}

/* Every combination the registry allows composes: no two registered
 * modules replace the same step. */
static void test_compose_registry_pairs(void **state)
{
	(void)state;
	for (int b = 0; b < carc_ruleset_count(); b++) {
		const struct carc_ruleset *base = carc_ruleset_at(b);
		if (base->expansion)
			continue;
		const struct carc_ruleset *xs[CARC_MAX_EXPANSIONS];
		int n = 0;
		for (int x = 0; x < carc_ruleset_count(); x++)
			if (carc_ruleset_at(x)->expansion && carc_ruleset_joins(carc_ruleset_at(x), base))
				xs[n++] = carc_ruleset_at(x);
		if (n)
			assert_non_null(carc_rules_compose(base, xs, n));
	}
}

/* ---- attributes a tile set declares ---- */

/* Two straight roads, each with an inn (an attribute this set declares) and
 * one with two of a good: joined on the map, the road counts both inns. */
static const char inns_set[] =
	"name: inns\n"
	"attributes: [inn, wine]\n"
	"terrains: [field, road]\n"
	"kinds:\n"
	"  - {name: road, class: path, terrain: road}\n"
	"  - {name: field, class: area, terrain: field}\n"
	"tiles:\n"
	"  - id: Xs\n"
	"    count: 1\n"
	"    start: true\n"
	"    edges: field road field road\n"
	"    features:\n"
	"      - {kind: road, edges: E W, inn: 1}\n"
	"      - {kind: field, halves: NNW NNE ENE WNW}\n"
	"      - {kind: field, halves: ESE SSE SSW WSW}\n"
	"  - id: Xt\n"
	"    count: 2\n"
	"    edges: field road field road\n"
	"    features:\n"
	"      - {kind: road, edges: E W, inn: 1, wine: 2}\n"
	"      - {kind: field, halves: NNW NNE ENE WNW}\n"
	"      - {kind: field, halves: ESE SSE SSW WSW}\n";

static void test_attributes_declared_and_summed(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_parse(inns_set, sizeof inns_set - 1, "inns.yaml", &sink);
	assert_non_null(ts);
	int inn = carc_tileset_attr(ts, "inn", 3), wine = carc_tileset_attr(ts, "wine", 4);
	assert_int_equal(inn, CARC_ATTR_COUNT); /* after the known ones, in the order named */
	assert_int_equal(wine, CARC_ATTR_COUNT + 1);
	assert_int_equal(carc_tileset_attr(ts, "pennant", 7), CARC_ATTR_PENNANT);
	assert_int_equal(carc_tileset_attr(ts, "cloth", 5), -1);
	struct carc_game *g = carc_game_new();
	static const uint8_t seats[] = {RED, GREEN};
	carc_game_start(g, ts, carc_ruleset_default(), 3, seats, 2, 7, 0, ts->start_tile, 0);
	int t = carc_tileset_find(ts, "Xt", 2);
	carc_game_draw(g, t);
	int p = carc_game_place(g, t, 0, 1, 0, RED, 1);
	uint32_t road = carc_game_feature_root(g, p, carc_game_spot_feature(g, p, carc_spot_lookup("W", 1)));
	assert_int_equal(carc_game_feature_attr(g, road, inn), 2);
	assert_int_equal(carc_game_feature_attr(g, road, wine), 2);
	assert_int_equal(carc_game_feature_attr(g, road, CARC_ATTR_PENNANT), 0);
	/* joined before the base set (as an expansion's own tiles are): the
	 * names merged, the counts kept */
	const struct carc_tileset *base = carc_tileset_load("base", &sink, NULL, 0, 0);
	assert_non_null(base);
	const struct carc_tileset *sets[2] = {ts, base};
	struct carc_tileset *joined = carc_tileset_join(sets, 2);
	assert_non_null(joined);
	int jinn = carc_tileset_attr(joined, "inn", 3), jt = carc_tileset_find(joined, "Xt", 2);
	assert_true(jinn >= CARC_ATTR_COUNT);
	assert_int_equal(joined->tiles[jt].features[0].attr[jinn], 1);
	assert_int_equal(joined->tiles[jt].features[0].attr[carc_tileset_attr(joined, "wine", 4)], 2);
	carc_tileset_free(joined);
	carc_tileset_free((struct carc_tileset *)base);
	carc_game_free(g);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

static void keep_code(void *ctx, const struct carc_diag *d)
{
	carc_buf_printf(ctx, "%d %s\n", (int)d->code, d->message);
}

/* An attribute used but not declared, or declared twice, is refused. */
static void test_attributes_refused(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to;
		int code;
	} cases[] = {
		{"attributes: [inn, wine]", "attributes: [inn]", CARC_E103},       /* wine: not declared */
		{"attributes: [inn, wine]", "attributes: [inn, inn, wine]", CARC_E108},
		{"attributes: [inn, wine]", "attributes: [inn, wine, pennant]", CARC_E108},
		{"attributes: [inn, wine]", "attributes: [inn, wine, kind]", CARC_E108},
		{"attributes: [inn, wine]", "attributes: [inn, wine, 9lives]", CARC_E104},
		{"attributes: [inn, wine]", "attributes: [inn, wine, a, b, c, d, e]", CARC_E109},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct carc_buf text = {0}, msgs = {0};
		const char *at = strstr(inns_set, cases[i].from);
		carc_buf_add(&text, inns_set, (size_t)(at - inns_set));
		carc_buf_adds(&text, cases[i].to);
		carc_buf_adds(&text, at + strlen(cases[i].from));
		struct carc_diag_sink sink = {.emit = keep_code, .ctx = &msgs};
		struct carc_tileset *ts = carc_tileset_parse(text.data, text.len, "bad.yaml", &sink);
		assert_null(ts);
		char want[16];
		snprintf(want, sizeof want, "%d ", cases[i].code);
		if (strncmp(carc_buf_cstr(&msgs), want, strlen(want)))
			fail_msg("case %zu: want %d, got: %s", i, cases[i].code, carc_buf_cstr(&msgs));
		carc_diag_free(&sink);
		carc_buf_free(&text);
		carc_buf_free(&msgs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_weight_large_follower_wins_a_road, setup, teardown),
		cmocka_unit_test_setup_teardown(test_weight_large_follower_ties_two, setup, teardown),
		cmocka_unit_test_setup_teardown(test_weight_builder_counts_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_weight_large_farmer_owns_a_farm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_roles_many_and_a_shared_supply, setup, teardown),
		cmocka_unit_test(test_roles_letters),
		cmocka_unit_test_setup_teardown(test_compose_values_in_calling_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compose_values_other_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compose_event_pays_some_winners_more, setup, teardown),
		cmocka_unit_test(test_compose_refuses_two_replacing_hooks),
		cmocka_unit_test(test_compose_registry_pairs),
		cmocka_unit_test(test_attributes_declared_and_summed),
		cmocka_unit_test(test_attributes_refused),
	};
	return cmocka_run_group_tests_name("rule-set interface", tests, NULL, NULL);
}
