/*
 * test_hunters.c - Hunters and Gatherers (hunters.c) and its tile set.
 *
 * The records in tests/hunters/ prove the rules end to end through the
 * parser and the referee; these tests pin the pieces underneath. The bundled
 * tile set must have the rule book's totals, the documented start tile,
 * every terrain and item, and say that it is provisional. The values are
 * checked on the engine directly, with small tile sets written here: a
 * river counts each lake at its ends once, a forest its mushroom tiles, a
 * meadow its animals with tigers, fire and shrines; river systems join
 * through lakes but not through springs; huts block huts only. The
 * bonus-turn bookkeeping is driven turn by turn with a fault collector.
 * Last, games generated on the bundled set (carc gen --rules hunters) must
 * replay clean, with the referee's score after every turn, bonus turns
 * included, equal to the generator's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"
#include "rules/hunters.h"
#include "referee/referee.h"

#include <stdlib.h>
#include <string.h>

enum { GATHERER, FISHER, HUNTER, HUT }; /* the hunters rule set's roles, in order */

static const char *const small_set =
	"name: small\n"
	"rules: hunters\n"
	"terrains: [meadow, river, forest]\n"
	"kinds:\n"
	"  - {name: river, class: path, terrain: river}\n"
	"  - {name: forest, class: enclosure, terrain: forest}\n"
	"  - {name: meadow, class: area, terrain: meadow}\n"
	"  - {name: lake, class: lake}\n"
	"tiles:\n"
	"  - {id: J, count: 1, start: true, features: [{kind: lake, fish: 3},\n"
	"     {kind: river, edges: N, end: lake}, {kind: river, edges: E, end: lake},\n"
	"     {kind: river, edges: S, end: lake}, {kind: river, edges: W, end: lake},\n"
	"     {kind: meadow, halves: NNE ENE}, {kind: meadow, halves: ESE SSE},\n"
	"     {kind: meadow, halves: SSW WSW}, {kind: meadow, halves: WNW NNW}]}\n"
	"  - {id: D, count: 4, features: [{kind: river, edges: S W}, {kind: meadow, halves: SSW WSW},\n"
	"     {kind: meadow, halves: NNW NNE ENE ESE SSE WNW}]}\n"
	"  - {id: K, count: 2, features: [{kind: river, edges: N, end: spring}, {kind: river, edges: S, end: spring},\n"
	"     {kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW}]}\n"
	"  - {id: G, count: 2, features: [{kind: lake, fish: 1}, {kind: river, edges: S, end: lake},\n"
	"     {kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW}]}\n"
	"  - {id: L, count: 3, features: [{kind: forest, edges: N}, {kind: meadow, halves: ENE ESE SSE SSW WSW WNW}]}\n"
	"  - {id: Lg, count: 2, features: [{kind: forest, edges: N, gold: 1},\n"
	"     {kind: meadow, halves: ENE ESE SSE SSW WSW WNW}]}\n"
	"  - {id: Q, count: 2, features: [{kind: forest, edges: E W}, {kind: meadow, halves: NNW NNE},\n"
	"     {kind: meadow, halves: SSE SSW}]}\n"
	"  - {id: Z, count: 4, features: [{kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW, deer: 2, tiger: 1}]}\n"
	"  - {id: ZT, count: 1, features: [{kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW, tiger: 2, mammoth: 1}]}\n"
	"  - {id: ZF, count: 1, features: [{kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW, fire: 1}]}\n"
	"  - {id: ZS, count: 1, features: [{kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW, shrine: 1}]}\n"
	"  - {id: mush, count: 1, bonus: true, features: [{kind: forest, edges: N, mushroom: 1},\n"
	"     {kind: meadow, halves: ENE ESE SSE SSW WSW WNW}]}\n"
	"  - {id: fire, count: 2, bonus: true, features: [{kind: meadow, halves: NNW NNE ENE ESE SSE SSW WSW WNW, fire: 1}]}\n";

struct fixture {
	struct carc_tileset *ts;
	struct carc_game *g;
	struct carc_diag_sink sink;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->ts = carc_tileset_parse(small_set, strlen(small_set), "small", &f->sink);
	assert_non_null(f->ts);
	f->g = carc_game_new();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	carc_game_free(f->g);
	carc_tileset_free(f->ts);
	carc_diag_free(&f->sink);
	free(f);
	return 0;
}

static int tile(const struct fixture *f, const char *id)
{
	int t = carc_tileset_find(f->ts, id, strlen(id));
	assert_true(t >= 0);
	return t;
}

/* Starts a game of red and blue on the small set, with a start tile of
 * the caller's choice. */
static void start(struct fixture *f, const char *start_id)
{
	static const uint8_t seats[] = {CARC_RED, CARC_BLUE};
	carc_game_start(f->g, f->ts, carc_ruleset_get(CARC_RULES_HUNTERS), 3, seats, 2, 5, 2, tile(f, start_id), 0);
}

/* Draws and places a tile, deploys role at spot (role < 0: nobody), scores
 * what it completed. Returns the placement. */
static int play(struct fixture *f, const char *id, int x, int y, int rot, int colour, int role, int spot)
{
	int t = tile(f, id);
	assert_int_equal(carc_game_check_place(f->g, t, rot, x, y, NULL), 0);
	carc_game_draw(f->g, t);
	int p = carc_game_place(f->g, t, rot, x, y, colour, 1);
	if (role >= 0) {
		int feat = carc_game_spot_feature(f->g, p, spot);
		assert_true(feat != CARC_NO_FEATURE);
		carc_game_deploy(f->g, p, feat, spot, colour, role, 1);
	}
	carc_game_score_completed(f->g, 1);
	return p;
}

/* ---- the bundled tile set ---- */

static void test_hunters_bundled_set_has_the_rule_book_totals(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("hunters", &sink, NULL, 0, 0);
	assert_non_null(ts);
	assert_int_equal(ts->total, 79);
	assert_int_equal(ts->bonus_total, 12);
	assert_string_equal(ts->rules, "hunters");
	assert_true(ts->provisional);
	assert_non_null(ts->note);
	assert_non_null(strstr(ts->note, "not the printed one"));
	assert_non_null(strstr(ts->source, "PROVISIONAL"));
	assert_int_equal(carc_hunters_check_tileset(ts, NULL, NULL), 0);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

/* The start tile: a volcano; forest on two adjacent edges, a river on one,
 * meadow on one. */
static void test_hunters_bundled_start_tile_is_the_volcano(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("hunters", &sink, NULL, 0, 0);
	assert_non_null(ts);
	const struct carc_tile *t = &ts->tiles[ts->start_tile];
	int forest = carc_tileset_terrain(ts, "forest", 6), river = carc_tileset_terrain(ts, "river", 5),
	    meadow = carc_tileset_terrain(ts, "meadow", 6);
	int volcano = 0, forests = 0, rivers = 0, meadows = 0, forest_mask = 0;
	for (int f = 0; f < t->nfeatures; f++)
		volcano += t->features[f].attr[CARC_ATTR_VOLCANO];
	for (int e = 0; e < 4; e++) {
		forests += t->edge_terrain[e] == forest;
		rivers += t->edge_terrain[e] == river;
		meadows += t->edge_terrain[e] == meadow;
		if (t->edge_terrain[e] == forest)
			forest_mask |= 1 << e;
	}
	assert_int_equal(volcano, 1);
	assert_int_equal(forests, 2);
	assert_int_equal(rivers, 1);
	assert_int_equal(meadows, 1);
	assert_true(forest_mask == 0x3 || forest_mask == 0x6 || forest_mask == 0xc || forest_mask == 0x9);
	assert_false(t->bonus);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

/* Every item of the game appears, each where the rules count it; the four
 * bonus kinds (fire, mushrooms, aurochs, shrine) are on bonus tiles only,
 * and gold on land tiles only (a bonus tile never earns a bonus turn). */
static void test_hunters_bundled_set_uses_every_item(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("hunters", &sink, NULL, 0, 0);
	assert_non_null(ts);
	int land[CARC_ATTR_COUNT] = {0}, bonus[CARC_ATTR_COUNT] = {0};
	int lake_tiles = 0, spring_rivers = 0;
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		for (int f = 0; f < t->nfeatures; f++) {
			for (int a = 0; a < CARC_ATTR_COUNT; a++)
				(t->bonus ? bonus : land)[a] += t->count * t->features[f].attr[a];
			spring_rivers += t->features[f].end == CARC_END_SPRING;
		}
		lake_tiles += t->centre_feature != CARC_NO_FEATURE;
	}
	assert_int_equal(land[CARC_ATTR_PENNANT] + bonus[CARC_ATTR_PENNANT], 0);
	assert_int_equal(land[CARC_ATTR_FISH], 13);
	assert_int_equal(land[CARC_ATTR_GOLD], 6);
	assert_true(land[CARC_ATTR_DEER] > 0 && land[CARC_ATTR_MAMMOTH] > 0 && land[CARC_ATTR_TIGER] > 0);
	assert_int_equal(land[CARC_ATTR_VOLCANO], 1);
	assert_int_equal(bonus[CARC_ATTR_GOLD], 0);
	for (int a = CARC_ATTR_AUROCHS; a <= CARC_ATTR_SHRINE; a++) {
		assert_int_equal(land[a], 0);
		assert_int_equal(bonus[a], 3);
	}
	assert_true(lake_tiles > 0);
	assert_true(spring_rivers > 0);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

struct problems {
	int count;
	char first[200];
};

static void keep(void *ctx, unsigned line, const char *msg)
{
	struct problems *p = ctx;
	(void)line;
	if (!p->count++)
		snprintf(p->first, sizeof p->first, "%s", msg);
}

static void test_hunters_base_set_does_not_fit(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("base", &sink, NULL, 0, 0);
	assert_non_null(ts);
	struct problems p = {0};
	assert_int_equal(carc_hunters_check_tileset(ts, keep, &p), 3); /* no river, forest, meadow */
	assert_int_equal(p.count, 3);
	assert_non_null(strstr(p.first, "no kind 'river'"));
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

/* ---- values ---- */

/* A river from the lake of J around three bends back into the same lake:
 * 4 tiles + its 3 fish once = 7 to the fisher, not 4 + 6. */
static void test_hunters_river_counts_each_lake_once(void **state)
{
	struct fixture *f = *state;
	start(f, "J");
	play(f, "D", 0, 1, 3, CARC_RED, FISHER, CARC_SPOT_S);
	play(f, "D", 1, 0, 1, CARC_BLUE, -1, 0);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 0);
	play(f, "D", 1, 1, 0, CARC_BLUE, -1, 0);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 7);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].tiles, 4);
	assert_int_equal(ev[0].items, 3); /* the fish counted */
}

/* A river between two lakes scores both; one ending at a spring scores its
 * lake only. */
static void test_hunters_river_counts_the_lakes_at_both_ends(void **state)
{
	struct fixture *f = *state;
	start(f, "J");
	/* J's north river, then a lake of 1 fish whose river faces it */
	play(f, "G", 0, 1, 0, CARC_RED, FISHER, CARC_SPOT_S);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 2 + 3 + 1);
	/* J's east river to a spring: K turned 90 has rivers W and E */
	play(f, "K", 1, 0, 1, CARC_BLUE, FISHER, CARC_SPOT_W);
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 2 + 3);
}

/* A forest scores 2 per tile + 2 per tile with mushrooms. */
static void test_hunters_forest_counts_mushroom_tiles(void **state)
{
	struct fixture *f = *state;
	start(f, "J");
	/* J has rivers on every edge: the forest grows beside G, a lake whose
	 * river closes J's north river (nobody's) */
	play(f, "G", 0, 1, 0, CARC_RED, -1, 0);
	play(f, "mush", 1, 1, 1, CARC_RED, GATHERER, CARC_SPOT_E); /* turned 90: forest E, mushrooms */
	assert_int_equal(carc_game_score(f->g, CARC_RED), 0);
	play(f, "L", 2, 1, 3, CARC_BLUE, -1, 0);                    /* turned 270: forest W, closes it */
	assert_int_equal(carc_game_score(f->g, CARC_RED), 2 * 2 + 2);
}

/* Unfinished rivers and forests score nothing at the end, whoever holds
 * them; meadows and river systems do. */
static void test_hunters_final_scores_no_unfinished_river_or_forest(void **state)
{
	struct fixture *f = *state;
	start(f, "J");
	play(f, "D", 0, 1, 3, CARC_RED, FISHER, CARC_SPOT_S);
	play(f, "G", -1, 1, 0, CARC_BLUE, -1, 0);
	play(f, "Q", -1, 2, 0, CARC_BLUE, GATHERER, CARC_SPOT_E);
	carc_game_score_final(f->g);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 0);
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 0);
	size_t n;
	carc_game_events(f->g, &n);
	assert_int_equal(n, 0);
}

/* ---- meadows ---- */

/* Z has 2 deer and a tiger: one deer left, 2 points; with a fire in the
 * meadow, no tiger: 4. */
static void test_hunters_meadow_tigers_and_fire(void **state)
{
	struct fixture *f = *state;
	start(f, "Z");
	play(f, "Z", 1, 0, 0, CARC_RED, HUNTER, CARC_SPOT_NNW); /* 4 deer, 2 tigers */
	play(f, "Z", 0, 1, 0, CARC_BLUE, -1, 0);                /* 6 deer, 3 tigers */
	carc_game_score_final(f->g);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 2 * (6 - 3));
}

static void test_hunters_meadow_fire_removes_every_tiger(void **state)
{
	struct fixture *f = *state;
	start(f, "Z");
	play(f, "Z", 1, 0, 0, CARC_RED, HUNTER, CARC_SPOT_NNW);
	play(f, "ZF", 0, 1, 0, CARC_BLUE, -1, 0);
	carc_game_score_final(f->g);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 2 * 4);
}

/* Tigers never eat more deer than there are, and eat nothing else: 2 deer,
 * 3 tigers and a mammoth are worth the mammoth alone. */
static void test_hunters_meadow_extra_tigers_cost_nothing(void **state)
{
	struct fixture *f = *state;
	start(f, "Z");
	play(f, "ZT", 1, 0, 0, CARC_RED, HUNTER, CARC_SPOT_NNW);
	carc_game_score_final(f->g);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 2);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, CARC_EV_MEADOW);
	assert_int_equal(ev[0].items, 1); /* the animals scored */
	assert_int_equal(ev[0].winners, 1u << CARC_RED);
}

/* The hunter on the shrine scores the meadow alone, however many hunters
 * the others have there. (The engine takes the hunters as given: in play
 * they arrive by meadows joined later.) */
static void test_hunters_meadow_shrine_hunter_scores_alone(void **state)
{
	struct fixture *f = *state;
	start(f, "Z");
	play(f, "ZS", 1, 0, 0, CARC_BLUE, HUNTER, CARC_SPOT_NNW);
	play(f, "Z", -1, 0, 0, CARC_RED, HUNTER, CARC_SPOT_NNW);
	play(f, "Z", 0, 1, 0, CARC_RED, HUNTER, CARC_SPOT_NNW);
	carc_game_score_final(f->g); /* 6 deer - 3 tigers: 3 animals */
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 6);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 0);
}

/* A meadow with a shrine and no hunter on the shrine scores nobody. */
static void test_hunters_meadow_shrine_without_its_hunter(void **state)
{
	struct fixture *f = *state;
	start(f, "Z");
	play(f, "ZS", 1, 0, 0, CARC_BLUE, -1, 0);
	play(f, "Z", -1, 0, 0, CARC_RED, HUNTER, CARC_SPOT_NNW);
	carc_game_score_final(f->g);
	assert_int_equal(carc_game_score(f->g, CARC_RED), 0);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].winners, 0);
	assert_int_equal(ev[0].points, 2 * (4 - 2)); /* 4 deer, 2 tigers */
}

/* ---- river systems and huts ---- */

/* A hut blocks a hut anywhere in the river system, across lakes, but not
 * across a spring; it never blocks a fisher. */
static void test_hunters_systems_join_through_lakes_not_springs(void **state)
{
	struct fixture *f = *state;
	start(f, "J");
	play(f, "D", 0, 1, 3, CARC_RED, HUT, CARC_SPOT_S);
	/* J's east river: the same system through J's lake */
	int k = play(f, "K", 1, 0, 1, CARC_BLUE, -1, 0);
	uint32_t east = carc_game_feature_root(f->g, k, carc_game_spot_feature(f->g, k, CARC_SPOT_W));
	uint32_t far = carc_game_feature_root(f->g, k, carc_game_spot_feature(f->g, k, CARC_SPOT_E));
	const struct carc_follower *hut = carc_hunters_system_hut(f->g, east);
	assert_non_null(hut);
	assert_int_equal(hut->colour, CARC_RED);
	assert_null(carc_hunters_system_hut(f->g, far)); /* beyond K's spring */
	/* a fisher is not blocked by the hut */
	assert_null(carc_game_feature_occupant(f->g, east));
}

/* Huts score their river system at the end: all its lakes' fish. */
static void test_hunters_system_scores_every_lake(void **state)
{
	struct fixture *f = *state;
	start(f, "J");
	play(f, "G", 0, 1, 0, CARC_BLUE, HUT, CARC_SPOT_C); /* a lake of 1 joined to J's (3) */
	carc_game_score_final(f->g);
	assert_int_equal(carc_game_score(f->g, CARC_BLUE), 4);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(ev[n - 1].type, CARC_EV_RIVER_SYSTEM);
	assert_int_equal(ev[n - 1].items, 4);
}

/* ---- bonus turns ---- */

struct faults {
	int count;
	enum carc_code last;
};

static void collect(void *ctx, enum carc_code code, struct carc_span at, const char *msg)
{
	struct faults *fs = ctx;
	(void)at;
	(void)msg;
	fs->count++;
	fs->last = code;
}

static struct carc_move move(const struct fixture *f, const char *id, int colour, bool bonus, int number)
{
	struct carc_move m;
	memset(&m, 0, sizeof m);
	m.tile = (uint16_t)tile(f, id);
	m.colour = (uint8_t)colour;
	m.bonus = bonus;
	m.turn = number;
	m.role = -1;
	return m;
}

/* A regular placement completing a forest with gold owes its player a
 * bonus turn: only that player may play it, and a regular turn skips it. */
static void test_hunters_bonus_turn_is_owed_by_gold(void **state)
{
	struct fixture *f = *state;
	struct carc_hunters_turns h;
	struct faults fs = {0};
	carc_hunters_turns_start(&h);
	start(f, "Q"); /* forest W-E */

	struct carc_move m1 = move(f, "Lg", CARC_RED, false, 1);
	carc_hunters_turn_begin(&h, f->g, &m1, false, 1, collect, &fs);
	size_t ev0;
	carc_game_events(f->g, &ev0);
	play(f, "Lg", 1, 0, 3, CARC_RED, -1, 0); /* gold cap W: the forest is still open at Q's W */
	carc_hunters_turn_end(&h, f->g, &m1, false, 1, ev0);
	assert_int_equal(h.due, CARC_NO_COLOUR);

	struct carc_move m2 = move(f, "L", CARC_BLUE, false, 2);
	carc_hunters_turn_begin(&h, f->g, &m2, false, 2, collect, &fs);
	carc_game_events(f->g, &ev0);
	play(f, "L", -1, 0, 1, CARC_BLUE, -1, 0); /* cap E: closes Q-Lg-L, gold */
	carc_hunters_turn_end(&h, f->g, &m2, false, 2, ev0);
	assert_int_equal(h.due, CARC_BLUE);
	assert_int_equal(h.due_turn, 2);
	assert_int_equal(fs.count, 0);

	/* red may not play it; blue's is the bonus turn, with a bonus tile */
	struct carc_move m3 = move(f, "fire", CARC_RED, true, 2);
	assert_true(carc_hunters_is_bonus(&h, f->g, &m3));
	carc_hunters_turn_begin(&h, f->g, &m3, true, 2, collect, &fs);
	assert_int_equal(fs.count, 1);
	assert_int_equal(fs.last, CARC_E206);

	/* a regular turn while it is owed skips it */
	struct carc_hunters_turns skip = h;
	struct carc_move m4 = move(f, "L", CARC_RED, false, 3);
	carc_hunters_turn_begin(&skip, f->g, &m4, false, 3, collect, &fs);
	assert_int_equal(fs.last, CARC_E403);
	assert_int_equal(skip.due, CARC_NO_COLOUR);
}

static void test_hunters_bonus_turn_needs_a_bonus_tile(void **state)
{
	struct fixture *f = *state;
	struct carc_hunters_turns h;
	struct faults fs = {0};
	carc_hunters_turns_start(&h);
	start(f, "Q");
	struct carc_move land = move(f, "L", CARC_RED, true, 1);
	carc_hunters_turn_begin(&h, f->g, &land, true, 1, collect, &fs);
	assert_int_equal(fs.count, 2); /* not earned, and a land tile */
	assert_int_equal(fs.last, CARC_E405);
	struct carc_move bonus_tile = move(f, "fire", CARC_RED, false, 1);
	assert_false(carc_hunters_is_bonus(&h, f->g, &bonus_tile));
	carc_hunters_turn_begin(&h, f->g, &bonus_tile, false, 1, collect, &fs);
	assert_int_equal(fs.last, CARC_E404);
}

/* ---- generated games ---- */

struct seen {
	int nturns, discards;
	int scores[256][CARC_COLOURS];
};

static void record_turn(void *ctx, struct carc_game *g, int turn, int colour, bool discard)
{
	(void)turn, (void)colour;
	struct seen *s = ctx;
	if (discard) {
		s->discards++;
		return;
	}
	assert_true(s->nturns < 256);
	for (int c = 0; c < CARC_COLOURS; c++)
		s->scores[s->nturns][c] = carc_game_score(g, c);
	s->nturns++;
}

static void test_hunters_generated_games_replay_clean(void **state)
{
	(void)state;
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_buf text = {0};
	int bonus_turns = 0, huts = 0;
	for (int players = 2; players <= 5; players++) {
		struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_HUNTERS), .players = players,
					  .deploy_rate = 0.6, .claim_rate = 0.3, .seed = (uint64_t)players * 17};
		const char *why = NULL;
		struct carc_gen *gen = carc_gen_new(&o, &why);
		assert_non_null(gen);
		for (uint64_t k = 0; k < 10; k++) {
			struct seen seen = {0};
			carc_gen_on_turn(gen, record_turn, &seen);
			carc_buf_reset(&text);
			carc_gen_game(gen, k, &text);
			struct carc_diag_sink sink = {0};
			assert_true(carc_parse_string(text.data, text.len, "gen.cgn", cache, carc_rules_registry(),
						      &rec, &sink));
			carc_referee_run(&res, &rec, g, &sink, NULL);
			assert_int_equal(sink.errors + sink.warnings, 0);
			carc_diag_free(&sink);
			assert_true(res.finished && res.final_scored);
			size_t placed = 0, land = 0;
			for (size_t i = 0; i < res.nturns; i++) {
				bonus_turns += res.turns[i].bonus;
				land += !res.turns[i].bonus;
				if (res.turns[i].discard)
					continue;
				assert_true(placed < (size_t)seen.nturns);
				assert_memory_equal(res.turns[i].scores, seen.scores[placed], sizeof seen.scores[0]);
				placed++;
			}
			assert_int_equal(placed, seen.nturns);
			assert_int_equal(land, 78); /* every land tile but the start, discards included */
			size_t nf;
			const struct carc_follower *fl = carc_game_followers(g, &nf);
			for (size_t i = 0; i < nf; i++)
				huts += fl[i].role == HUT;
			for (int c = 0; c < CARC_COLOURS; c++)
				assert_int_equal(res.scores[c], carc_game_score(carc_gen_engine(gen), c));
		}
		carc_gen_free(gen);
	}
	assert_true(bonus_turns > 0); /* the seeds are chosen so that gold is found */
	assert_true(huts > 0);
	carc_buf_free(&text);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_game_free(g);
	carc_tileset_cache_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hunters_bundled_set_has_the_rule_book_totals),
		cmocka_unit_test(test_hunters_bundled_start_tile_is_the_volcano),
		cmocka_unit_test(test_hunters_bundled_set_uses_every_item),
		cmocka_unit_test(test_hunters_base_set_does_not_fit),
		cmocka_unit_test_setup_teardown(test_hunters_river_counts_each_lake_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_river_counts_the_lakes_at_both_ends, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_forest_counts_mushroom_tiles, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_final_scores_no_unfinished_river_or_forest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_meadow_tigers_and_fire, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_meadow_fire_removes_every_tiger, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_meadow_extra_tigers_cost_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_meadow_shrine_hunter_scores_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_meadow_shrine_without_its_hunter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_systems_join_through_lakes_not_springs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_system_scores_every_lake, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_bonus_turn_is_owed_by_gold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hunters_bonus_turn_needs_a_bonus_tile, setup, teardown),
		cmocka_unit_test(test_hunters_generated_games_replay_clean),
	};
	return cmocka_run_group_tests_name("hunters", tests, NULL, NULL);
}
