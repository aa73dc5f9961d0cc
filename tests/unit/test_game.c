/*
 * test_game.c - the rules engine (game.h), one test per rule of the base game.
 *
 * Each test lays a small map on the base tile set through the engine's API,
 * as the referee would (check, draw, place, deploy, score), and asserts what
 * the rules make of it: whether a placement is legal and why not, what the
 * supply holds, which features are complete, who scores how much and which
 * followers come back; then final scoring under the three farm editions. The
 * maps are the ones of the hand-worked records in tests/rules/, whose comments
 * show the arithmetic. A few rules belong to the referee rather than the
 * engine (turn order, a discard that fits, the role a spot takes, a follower
 * from an empty supply); those are tested here through carc_referee_run on a
 * record given as text. Every test would fail if its rule were broken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "engine/game.h"
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { RED = CARC_RED, GREEN = CARC_GREEN, BLUE = CARC_BLUE, YELLOW = CARC_YELLOW };

struct fixture {
	struct carc_tileset_cache *cache;
	const struct carc_tileset *ts;
	const struct carc_ruleset *rules;
	struct carc_game *g;
	struct carc_diag_sink sink;
	int turn;
};

static struct fixture *fx(void **state) { return *state; }

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	f->ts = carc_tileset_cache_get(f->cache, "base", &f->sink, NULL, 0, 0);
	f->rules = carc_ruleset_get(CARC_RULES_BASE);
	f->g = carc_game_new();
	*state = f;
	return f->ts ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = fx(state);
	carc_game_free(f->g);
	carc_tileset_cache_free(f->cache);
	carc_diag_free(&f->sink);
	free(f);
	return 0;
}

static int tile(struct fixture *f, const char *id)
{
	int t = carc_tileset_find(f->ts, id, strlen(id));
	assert_true(t >= 0);
	return t;
}

static int role(struct fixture *f, const char *name)
{
	int r = carc_ruleset_role(f->rules, name, strlen(name));
	assert_true(r >= 0);
	return r;
}

/* A new game on the base tile set: the seated colours, followers each, the
 * edition; the start tile D at 0,0. */
static void start(struct fixture *f, int edition, int followers, const uint8_t *seats, int nseats)
{
	carc_game_start(f->g, f->ts, f->rules, edition, seats, nseats, followers, 0, f->ts->start_tile, 0);
	f->turn = 0;
}

static void start2(struct fixture *f, int edition)
{
	static const uint8_t seats[] = {RED, GREEN};
	start(f, edition, 7, seats, 2);
}

/* Places the tile (which must be legal there), deploys a follower when role
 * is given, and scores what the placement completed, as a turn does.
 * Returns the placement. */
static int play(struct fixture *f, const char *id, int x, int y, int deg, int colour, const char *role_name,
		const char *spot_name)
{
	int t = tile(f, id);
	struct carc_place_problem why;
	assert_int_equal(carc_game_check_place(f->g, t, deg / 90, x, y, &why), 0);
	assert_true(carc_game_tiles_left(f->g, t) > 0);
	carc_game_draw(f->g, t);
	f->turn++;
	int p = carc_game_place(f->g, t, deg / 90, x, y, colour, f->turn);
	if (role_name) {
		int spot = carc_spot_lookup(spot_name, strlen(spot_name));
		int feature = carc_game_spot_feature(f->g, p, spot);
		assert_int_not_equal(feature, CARC_NO_FEATURE);
		uint32_t root = carc_game_feature_root(f->g, p, feature);
		assert_null(carc_game_feature_occupant(f->g, root));
		assert_true(carc_game_supply(f->g, colour) > 0);
		carc_game_deploy(f->g, p, feature, spot, colour, role(f, role_name), f->turn);
	}
	carc_game_score_completed(f->g, f->turn);
	return p;
}

/* The root of the feature at a spot of a placement. */
static uint32_t at(struct fixture *f, int placement, const char *spot_name)
{
	int feature = carc_game_spot_feature(f->g, placement, carc_spot_lookup(spot_name, strlen(spot_name)));
	assert_int_not_equal(feature, CARC_NO_FEATURE);
	return carc_game_feature_root(f->g, placement, feature);
}

static int score(struct fixture *f, int colour) { return carc_game_score(f->g, colour); }

/* ---- placement ---- */

static void test_game_place_cell_taken(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	struct carc_place_problem why;
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 0, 0, &why), CARC_E201);
	assert_int_equal(why.code, CARC_E201);
}

static void test_game_place_needs_an_edge_not_a_corner(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	struct carc_place_problem why;
	/* a cloister (fields all round) touching the start tile only at a corner */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 1, 1, &why), CARC_E202);
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, -1, -1, NULL), CARC_E202);
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 5, 0, NULL), CARC_E202);
	/* and by its south edge (field to field) it fits */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 0, -1, NULL), 0);
}

static void test_game_place_edge_mismatch_names_edge_and_terrains(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	struct carc_place_problem why;
	/* U unturned runs north-south: its west edge is field, D's east edge road */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "U"), 0, 1, 0, &why), CARC_E203);
	assert_int_equal(why.edge, 3);
	assert_string_equal(f->ts->terrains[why.mine], "field");
	assert_string_equal(f->ts->terrains[why.theirs], "road");
	assert_int_equal(why.nx, 0);
	assert_int_equal(why.ny, 0);
	/* turned 90 it runs west-east and fits */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "U"), 1, 1, 0, NULL), 0);
	/* a city edge against D's city: E turned 180 has its cap south */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "E"), 2, 0, 1, NULL), 0);
	assert_int_equal(carc_game_check_place(f->g, tile(f, "E"), 0, 0, 1, &why), CARC_E203);
	assert_int_equal(why.edge, 2);
	assert_string_equal(f->ts->terrains[why.mine], "field");
	assert_string_equal(f->ts->terrains[why.theirs], "city");
}

static void test_game_place_every_shared_edge_must_match(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	/* a hole at 0,-1 with fields on all four sides: D above, caps facing away
	 * west, east and south */
	play(f, "U", 1, 0, 90, RED, NULL, NULL);
	play(f, "U", -1, 0, 90, GREEN, NULL, NULL);
	play(f, "E", -1, -1, 270, RED, NULL, NULL);
	play(f, "E", 1, -1, 90, GREEN, NULL, NULL);
	play(f, "E", -1, -2, 270, RED, NULL, NULL);
	play(f, "E", 0, -2, 180, GREEN, NULL, NULL);
	/* A's one road meets a field on whichever side it is turned to: each
	 * rotation fails on a different edge, so all four are checked */
	struct carc_place_problem why;
	static const int road_edge[4] = {2, 3, 0, 1}; /* S, W, N, E */
	for (int r = 0; r < 4; r++) {
		assert_int_equal(carc_game_check_place(f->g, tile(f, "A"), r, 0, -1, &why), CARC_E203);
		assert_int_equal(why.edge, road_edge[r]);
		assert_string_equal(f->ts->terrains[why.mine], "road");
	}
	/* B, fields all round, fits */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 0, -1, NULL), 0);
	/* at -2,0 the only neighbour, U -1,0, shows a road to the west: U turned
	 * 90 continues it, E 270 (cap west, field east) clashes on its east edge */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "U"), 1, -2, 0, NULL), 0);
	assert_int_equal(carc_game_check_place(f->g, tile(f, "E"), 3, -2, 0, &why), CARC_E203);
	assert_int_equal(why.edge, 1);
	/* at 0,1 the only neighbour, D, shows city: B (field south) clashes */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "E"), 2, 0, 1, NULL), 0);
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 0, 1, &why), CARC_E203);
	assert_int_equal(why.edge, 2);
}

static void test_game_place_west_edge_and_south_edge_both_checked(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "V", 1, 0, 0, RED, NULL, NULL);    /* north edge: field */
	play(f, "E", 0, 1, 180, GREEN, NULL, NULL); /* east edge: field */
	struct carc_place_problem why;
	/* at 1,1 the west neighbour shows field, the south neighbour field */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "B"), 0, 1, 1, NULL), 0);
	/* U unturned: west field matches, south road clashes */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "U"), 0, 1, 1, &why), CARC_E203);
	assert_int_equal(why.edge, 2);
	/* E 270: south field matches, west city clashes */
	assert_int_equal(carc_game_check_place(f->g, tile(f, "E"), 3, 1, 1, &why), CARC_E203);
	assert_int_equal(why.edge, 3);
}

/* ---- supply ---- */

static void test_game_supply_counts(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	assert_int_equal(carc_game_supply_left(f->g), 71);  /* 72 less the start tile */
	assert_int_equal(carc_game_tiles_left(f->g, tile(f, "D")), 3);
	assert_int_equal(carc_game_tiles_left(f->g, tile(f, "V")), 9);
	assert_int_equal(carc_game_tiles_left(f->g, tile(f, "U")), 8);
	assert_int_equal(carc_game_tiles_left(f->g, tile(f, "C")), 1);
	int v = tile(f, "V");
	for (int i = 0; i < 9; i++)
		carc_game_draw(f->g, v);
	assert_int_equal(carc_game_tiles_left(f->g, v), 0);
	assert_int_equal(carc_game_tiles_drawn(f->g, v), 9);
	assert_int_equal(carc_game_supply_left(f->g), 62);
	/* a 10th V is not there to draw */
	carc_game_draw(f->g, v);
	assert_int_equal(carc_game_tiles_left(f->g, v), 0);
	assert_int_equal(carc_game_supply_left(f->g), 62);
	/* the tile set's counts add up to 72 */
	int total = 0;
	for (int t = 0; t < f->ts->ntiles; t++)
		total += f->ts->tiles[t].count;
	assert_int_equal(total, 72);
}

/* ---- discard ---- */

static void test_game_find_fit_names_a_legal_place(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	for (int t = 0; t < f->ts->ntiles; t++) {
		int x, y, r;
		/* on the start map every base tile fits somewhere */
		assert_true(carc_game_find_fit(f->g, t, &x, &y, &r));
		assert_int_equal(carc_game_check_place(f->g, t, r, x, y, NULL), 0);
	}
	/* C (city on all four sides) fits only against D's city, at 0,1 */
	int32_t xs[8], ys[8];
	uint8_t rots[8];
	int n = carc_game_legal_places(f->g, tile(f, "C"), xs, ys, rots, 8);
	assert_int_equal(n, 4);
	for (int i = 0; i < n; i++) {
		assert_int_equal(xs[i], 0);
		assert_int_equal(ys[i], 1);
	}
}

/* A tile set where the road tile fits nowhere next to the all-city start. */
static const char odd_tiles[] =
	"name: odd\n"
	"title: a tile that fits nowhere\n"
	"rules: base\n"
	"terrains: [field, road, city]\n"
	"kinds:\n"
	"  - {name: road, class: path, terrain: road}\n"
	"  - {name: city, class: enclosure, terrain: city}\n"
	"  - {name: cloister, class: site}\n"
	"  - {name: field, class: area, terrain: field}\n"
	"tiles:\n"
	"  - id: C\n"
	"    count: 2\n"
	"    start: true\n"
	"    edges: city city city city\n"
	"    features:\n"
	"      - {kind: city, edges: N E S W}\n"
	"  - id: X\n"
	"    count: 1\n"
	"    edges: road road road road\n"
	"    features:\n"
	"      - {kind: road, edges: N, end: crossroads}\n"
	"      - {kind: road, edges: E, end: crossroads}\n"
	"      - {kind: road, edges: S, end: crossroads}\n"
	"      - {kind: road, edges: W, end: crossroads}\n"
	"      - {kind: field, halves: NNW WNW}\n"
	"      - {kind: field, halves: NNE ENE}\n"
	"      - {kind: field, halves: ESE SSE}\n"
	"      - {kind: field, halves: SSW WSW}\n";

static void test_game_find_fit_fails_when_nothing_fits(void **state)
{
	struct fixture *f = fx(state);
	struct carc_tileset *ts = carc_tileset_parse(odd_tiles, sizeof odd_tiles - 1, "odd", &f->sink);
	assert_non_null(ts);
	static const uint8_t seats[] = {RED, GREEN};
	carc_game_start(f->g, ts, f->rules, 3, seats, 2, 7, 0, ts->start_tile, 0);
	int x = 99, y = 99, r = 9;
	int xt = carc_tileset_find(ts, "X", 1), ct = carc_tileset_find(ts, "C", 1);
	assert_false(carc_game_find_fit(f->g, xt, &x, &y, &r));
	assert_int_equal(carc_game_legal_places(f->g, xt, NULL, NULL, NULL, 0), 0);
	/* the other city tile does fit, on all four sides */
	assert_true(carc_game_find_fit(f->g, ct, &x, &y, &r));
	assert_int_equal(carc_game_legal_places(f->g, ct, NULL, NULL, NULL, 0), 16);
	carc_game_start(f->g, f->ts, f->rules, 3, seats, 2, 7, 0, f->ts->start_tile, 0);
	carc_tileset_free(ts);
}

/* ---- the referee's share: turn order, discards, roles, supply ---- */

/* Referees a record given as text; returns the error count and fills the
 * per-code counts of f->sink (cleared first). */
static unsigned referee_text(struct fixture *f, const char *text, struct carc_result *res)
{
	carc_diag_free(&f->sink);
	memset(&f->sink, 0, sizeof f->sink);
	struct carc_record rec = {0};
	assert_true(carc_parse_string(text, strlen(text), "test.cgn", f->cache, carc_rules_registry(), &rec, &f->sink));
	carc_referee_run(res, &rec, f->g, &f->sink, NULL);
	unsigned errors = res->errors;
	carc_record_free(&rec);
	return errors;
}

static void test_game_turn_order_follows_seats(void **state)
{
	struct fixture *f = fx(state);
	struct carc_result res = {0};
	assert_int_equal(referee_text(f, "[Seats \"green red\"]\n1. green E 0,1 180 -\n2. red V 1,0 0 -\n"
					 "3. green U -1,0 90 -\n", &res), 0);
	assert_int_equal(res.last_turn, 3);
	assert_int_equal(referee_text(f, "[Seats \"green red\"]\n1. red E 0,1 180 -\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E206], 1);
	assert_int_equal(referee_text(f, "[Seats \"red green blue\"]\n1. red E 0,1 180 -\n2. blue V 1,0 0 -\n",
				      &res), 1);
	assert_int_equal(f->sink.counts[CARC_E206], 1);
	carc_result_free(&res);
}

static void test_game_discard_keeps_the_turn(void **state)
{
	struct fixture *f = fx(state);
	char path[] = "/tmp/carc-test-game-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, odd_tiles, sizeof odd_tiles - 1), (ssize_t)(sizeof odd_tiles - 1));
	close(fd);
	char text[512];
	/* X fits nowhere: red discards it and draws again, still turn 1; the
	 * supply (one C, one X) is then used up and the game is over */
	snprintf(text, sizeof text, "[Tileset \"%s\"]\n[Seats \"red green\"]\n1. red X discard\n1. red C 0,1 0 -\n",
		 path);
	/* a record may name a file by its absolute path only in a folder it was given */
	assert_true(carc_tileset_allow_dir("/tmp"));
	struct carc_result res = {0};
	unsigned errors = referee_text(f, text, &res);
	assert_int_equal(errors, 0);
	assert_int_equal(f->sink.counts[CARC_E205], 0);
	assert_int_equal(f->sink.counts[CARC_E206], 0);
	assert_int_equal(f->sink.counts[CARC_E207], 0);
	assert_true(res.finished);
	/* numbering the redrawn turn 2, and giving it to the next colour, is
	 * one mistake: one error, which says that the same colour draws again */
	snprintf(text, sizeof text, "[Tileset \"%s\"]\n[Seats \"red green\"]\n1. red X discard\n2. green C 0,1 0 -\n",
		 path);
	assert_int_equal(referee_text(f, text, &res), 1);
	assert_int_equal(f->sink.counts[CARC_E206], 0);
	assert_int_equal(f->sink.counts[CARC_E207], 1);
	unlink(path);
	carc_tileset_allow_none();
	/* in the base game V fits at once: discarding it is illegal */
	assert_int_equal(referee_text(f, "[Seats \"red green\"]\n1. red V discard\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E205], 1);
	carc_result_free(&res);
}

static void test_game_referee_role_must_match_feature(void **state)
{
	struct fixture *f = fx(state);
	struct carc_result res = {0};
	/* U 90 at 1,0: road at E, fields at N and S */
	assert_int_equal(referee_text(f, "1. red U 1,0 90 knight E\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E210], 1);
	assert_int_equal(referee_text(f, "1. red U 1,0 90 thief N\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E210], 1);
	assert_int_equal(referee_text(f, "1. red U 1,0 90 monk C\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E211], 1);
	assert_int_equal(referee_text(f, "1. red U 1,0 90 farmer N\n", &res), 0);
	assert_int_equal(referee_text(f, "1. red U 1,0 90 thief E\n", &res), 0);
	assert_int_equal(referee_text(f, "1. red B 0,-1 0 monk C\n", &res), 0);
	carc_result_free(&res);
}

static void test_game_referee_empty_supply(void **state)
{
	struct fixture *f = fx(state);
	struct carc_result res = {0};
	/* one follower each: red's farmer stays, so red has none on turn 3 */
	assert_int_equal(referee_text(f, "[Followers \"1\"]\n1. red V 1,0 0 farmer N\n2. green E 0,1 180 -\n"
					 "3. red E 2,0 90 knight E\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E208], 1);
	/* a knight that scored at once comes back: red can deploy again */
	assert_int_equal(referee_text(f, "[Followers \"1\"]\n1. red E 0,1 180 knight S\n2. green V 1,0 0 -\n"
					 "3. red E 2,0 90 knight E\n", &res), 0);
	carc_result_free(&res);
}

static void test_game_referee_tile_not_in_supply(void **state)
{
	struct fixture *f = fx(state);
	struct carc_result res = {0};
	/* there is one C */
	assert_int_equal(referee_text(f, "[Seats \"red green\"]\n1. red C 0,1 0 -\n2. green C 1,1 0 -\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E204], 1);
	/* and four D, one of which is the start tile: the 4th D drawn is too many */
	assert_int_equal(referee_text(f, "[Seats \"red green\"]\n1. red D 1,0 0 -\n2. green D 2,0 0 -\n"
					 "3. red D 3,0 0 -\n", &res), 0);
	assert_int_equal(referee_text(f, "[Seats \"red green\"]\n1. red D 1,0 0 -\n2. green D 2,0 0 -\n"
					 "3. red D 3,0 0 -\n4. green D 4,0 0 -\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E204], 1);
	carc_result_free(&res);
}

static void test_game_referee_own_follower_blocks(void **state)
{
	struct fixture *f = fx(state);
	struct carc_result res = {0};
	assert_int_equal(referee_text(f, "[Seats \"red green\"]\n1. red U 1,0 90 thief E\n2. green E 0,1 180 -\n"
					 "3. red U 2,0 90 thief E\n", &res), 1);
	assert_int_equal(f->sink.counts[CARC_E209], 1);
	/* the same tile without a thief is fine, and so is a farmer beside the road */
	assert_int_equal(referee_text(f, "[Seats \"red green\"]\n1. red U 1,0 90 thief E\n2. green E 0,1 180 -\n"
					 "3. red U 2,0 90 farmer N\n", &res), 0);
	carc_result_free(&res);
}

/* ---- deployment ---- */

static void test_game_deploy_takes_from_supply(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	play(f, "U", 1, 0, 90, RED, "thief", "E");
	assert_int_equal(carc_game_supply(f->g, RED), 6);
	assert_int_equal(carc_game_supply(f->g, GREEN), 7);
	size_t n;
	const struct carc_follower *fl = carc_game_followers(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(fl[0].colour, RED);
	assert_true(fl[0].active);
	assert_int_equal(fl[0].turn, 1);
}

static void test_game_deploy_feature_occupied_across_tiles(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int u1 = play(f, "U", 1, 0, 90, RED, "thief", "E");
	/* a second straight road joins red's road: occupied, by red himself */
	int u2 = play(f, "U", 2, 0, 90, GREEN, NULL, NULL);
	const struct carc_follower *occ = carc_game_feature_occupant(f->g, at(f, u2, "E"));
	assert_non_null(occ);
	assert_int_equal(occ->colour, RED);
	assert_int_equal(occ->turn, 1);
	assert_int_equal(occ->placement, u1);
	/* so is the far end, on the start tile */
	assert_non_null(carc_game_feature_occupant(f->g, at(f, 0, "W")));
	/* the fields either side of the road are free */
	assert_null(carc_game_feature_occupant(f->g, at(f, u2, "N")));
	assert_null(carc_game_feature_occupant(f->g, at(f, u2, "S")));
	const uint8_t *count = carc_game_feature_followers(f->g, at(f, u2, "W"));
	assert_int_equal(count[RED], 1);
	assert_int_equal(count[GREEN], 0);
}

static void test_game_deploy_fields_joined_by_a_cloister(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "B", 0, -1, 0, RED, "farmer", "N"); /* the field south of D's road */
	/* the cloister A 270 ends D's road; its field runs round the road's end
	 * and joins D's strip north of the road to red's field */
	int a = play(f, "A", -1, 0, 270, GREEN, NULL, NULL);
	const struct carc_follower *occ = carc_game_feature_occupant(f->g, at(f, a, "N"));
	assert_non_null(occ);
	assert_int_equal(occ->colour, RED);
	assert_int_equal(at(f, a, "N"), at(f, 0, "WNW"));
	assert_int_equal(at(f, a, "N"), at(f, 0, "SSW"));
	/* but not D's city */
	assert_int_not_equal(at(f, a, "N"), at(f, 0, "N"));
}

/* ---- completion ---- */

static void test_game_road_complete_when_both_ends_stop(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int a = play(f, "A", 1, 0, 90, RED, "thief", "W"); /* ends at the cloister */
	assert_false(carc_game_feature_complete(f->g, at(f, a, "W")));
	assert_int_equal(score(f, RED), 0);
	play(f, "W", -1, 0, 0, GREEN, NULL, NULL);          /* ends at the junction */
	assert_true(carc_game_feature_complete(f->g, at(f, a, "W")));
	assert_int_equal(carc_game_feature_tiles(f->g, at(f, a, "W")), 3);
	assert_int_equal(score(f, RED), 3);
	assert_int_equal(score(f, GREEN), 0);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	/* the junction's other arms are roads of their own, open */
	int w = carc_game_at(f->g, -1, 0);
	assert_false(carc_game_feature_complete(f->g, at(f, w, "S")));
	assert_int_not_equal(at(f, w, "S"), at(f, w, "W"));
}

static void test_game_road_loop_is_complete(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int v = play(f, "V", 0, -1, 270, RED, "thief", "E");
	play(f, "V", 1, -1, 0, GREEN, NULL, NULL);
	play(f, "V", 0, -2, 180, RED, NULL, NULL);
	assert_false(carc_game_feature_complete(f->g, at(f, v, "E")));
	assert_int_equal(score(f, RED), 0);
	play(f, "V", 1, -2, 90, GREEN, NULL, NULL);
	assert_true(carc_game_feature_complete(f->g, at(f, v, "E")));
	assert_int_equal(score(f, RED), 4);
}

static void test_game_road_loop_through_junction_counts_tile_once(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int w = play(f, "W", 0, -1, 0, RED, "thief", "E");
	play(f, "V", 1, -1, 0, GREEN, NULL, NULL);
	play(f, "V", 1, -2, 90, RED, NULL, NULL);
	play(f, "V", 0, -2, 180, GREEN, NULL, NULL);
	/* both arms of W are in the road: 4 tiles, not 5 segments */
	assert_int_equal(at(f, w, "E"), at(f, w, "S"));
	assert_int_equal(carc_game_feature_tiles(f->g, at(f, w, "E")), 4);
	assert_int_equal(score(f, RED), 4);
}

static void test_game_city_complete_when_closed(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int m = play(f, "M", 0, 1, 180, RED, "knight", "S");
	assert_false(carc_game_feature_complete(f->g, at(f, m, "S")));
	assert_int_equal(score(f, RED), 0);
	play(f, "E", 1, 1, 270, GREEN, NULL, NULL);
	assert_true(carc_game_feature_complete(f->g, at(f, m, "S")));
	/* 3 tiles x 2 + 1 pennant x 2 */
	assert_int_equal(score(f, RED), 8);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, CARC_EV_COMPLETED);
	assert_int_equal(ev[0].tiles, 3);
	assert_int_equal(ev[0].items, 1);
	assert_int_equal(ev[0].points, 8);
	assert_int_equal(ev[0].winners, 1u << RED);
	assert_int_equal(ev[0].turn, 2);
}

static void test_game_city_counts_each_tile_once(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int i = play(f, "I", 0, -1, 180, RED, "knight", "W");
	play(f, "N", -1, -1, 180, GREEN, NULL, NULL);
	play(f, "M", -1, -2, 90, RED, NULL, NULL);
	assert_int_not_equal(at(f, i, "W"), at(f, i, "S"));
	play(f, "N", 0, -2, 0, GREEN, NULL, NULL);
	/* both caps of I are now one city of 4 tiles and 1 pennant: 10 */
	assert_int_equal(at(f, i, "W"), at(f, i, "S"));
	assert_int_equal(carc_game_feature_tiles(f->g, at(f, i, "W")), 4);
	assert_int_equal(score(f, RED), 10);
}

static void test_game_two_cities_on_one_tile(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int i = play(f, "I", 0, 1, 90, RED, "knight", "S");
	assert_int_equal(score(f, RED), 4);
	assert_false(carc_game_feature_complete(f->g, at(f, i, "E")));
	play(f, "E", 1, 1, 270, GREEN, "knight", "W");
	assert_int_equal(score(f, GREEN), 4);
	assert_int_equal(score(f, RED), 4);
}

static void test_game_cloister_completed_by_diagonal_neighbour(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int b = play(f, "B", 0, -1, 0, RED, "monk", "C");
	play(f, "U", 1, 0, 90, GREEN, NULL, NULL);
	play(f, "U", -1, 0, 90, RED, NULL, NULL);
	play(f, "E", -1, -1, 270, GREEN, NULL, NULL);
	play(f, "E", 1, -1, 90, RED, NULL, NULL);
	play(f, "E", -1, -2, 270, GREEN, NULL, NULL);
	play(f, "E", 0, -2, 180, RED, NULL, NULL);
	assert_false(carc_game_feature_complete(f->g, at(f, b, "C")));
	assert_int_equal(score(f, RED), 0);
	/* the 8th neighbour touches the cloister only at a corner */
	play(f, "E", 1, -2, 90, GREEN, NULL, NULL);
	assert_true(carc_game_feature_complete(f->g, at(f, b, "C")));
	assert_int_equal(score(f, RED), 9);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].turn, 8);
	/* final scoring does not score it again */
	carc_game_score_final(f->g);
	assert_int_equal(score(f, RED), 9);
}

static void test_game_cloister_quick_points_in_a_hole(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "U", 1, 0, 90, RED, NULL, NULL);
	play(f, "U", -1, 0, 90, GREEN, NULL, NULL);
	play(f, "E", -1, -1, 270, RED, NULL, NULL);
	play(f, "E", 1, -1, 90, GREEN, NULL, NULL);
	play(f, "E", -1, -2, 270, RED, NULL, NULL);
	play(f, "E", 0, -2, 180, GREEN, NULL, NULL);
	play(f, "E", 1, -2, 90, RED, NULL, NULL);
	play(f, "B", 0, -1, 0, GREEN, "monk", "C");
	assert_int_equal(score(f, GREEN), 9);
	assert_int_equal(carc_game_supply(f->g, GREEN), 7);
}

/* ---- majority, ties, quick points, returns ---- */

static void test_game_tie_scores_every_tied_player(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "A", 1, 0, 90, RED, "thief", "W");
	play(f, "U", 0, -1, 90, GREEN, "thief", "E");
	play(f, "V", -1, -1, 180, RED, NULL, NULL);
	play(f, "V", -1, 0, 270, GREEN, NULL, NULL);
	const uint8_t *count = carc_game_feature_followers(f->g, at(f, 0, "E"));
	assert_int_equal(count[RED], 1);
	assert_int_equal(count[GREEN], 1);
	play(f, "W", 1, -1, 0, RED, NULL, NULL);
	assert_int_equal(score(f, RED), 6);
	assert_int_equal(score(f, GREEN), 6);
}

static void test_game_tie_two_two_third_at_one(void **state)
{
	struct fixture *f = fx(state);
	static const uint8_t seats[] = {RED, GREEN, BLUE};
	start(f, 3, 7, seats, 3);
	play(f, "K", 1, 0, 0, RED, "knight", "N");
	play(f, "E", 2, 0, 0, GREEN, "knight", "N");
	play(f, "E", 3, 0, 0, BLUE, "knight", "N");
	play(f, "J", -1, 0, 0, RED, "knight", "N");
	play(f, "R", 0, 1, 180, GREEN, "knight", "S");
	play(f, "R", 1, 1, 180, BLUE, NULL, NULL);
	play(f, "R", 2, 1, 180, RED, NULL, NULL);
	play(f, "N", 3, 1, 270, GREEN, NULL, NULL);
	assert_int_equal(score(f, RED) + score(f, GREEN) + score(f, BLUE), 0);
	play(f, "N", -1, 1, 180, BLUE, NULL, NULL);
	assert_int_equal(score(f, RED), 20);
	assert_int_equal(score(f, GREEN), 20);
	assert_int_equal(score(f, BLUE), 0);
	/* every knight, the loser's too, is back */
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	assert_int_equal(carc_game_supply(f->g, GREEN), 7);
	assert_int_equal(carc_game_supply(f->g, BLUE), 7);
}

static void test_game_minority_follower_returns_without_scoring(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "K", 1, 0, 0, RED, "knight", "N");
	play(f, "J", -1, 0, 0, GREEN, "knight", "N");
	play(f, "R", 0, 1, 180, RED, "knight", "S");
	play(f, "N", 1, 1, 270, GREEN, "farmer", "N");
	assert_int_equal(carc_game_supply(f->g, GREEN), 5);
	play(f, "N", -1, 1, 180, RED, NULL, NULL);
	assert_int_equal(score(f, RED), 12);
	assert_int_equal(score(f, GREEN), 0);
	/* green's knight is back; his farmer is not */
	assert_int_equal(carc_game_supply(f->g, GREEN), 6);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(ev[n - 1].followers[RED], 2);
	assert_int_equal(ev[n - 1].followers[GREEN], 1);
	assert_int_equal(ev[n - 1].winners, 1u << RED);
}

static void test_game_quick_points_return_the_follower(void **state)
{
	struct fixture *f = fx(state);
	static const uint8_t seats[] = {RED, GREEN};
	start(f, 3, 1, seats, 2);
	play(f, "E", 0, 1, 180, RED, "knight", "S");
	assert_int_equal(score(f, RED), 4);
	assert_int_equal(carc_game_supply(f->g, RED), 1);
	play(f, "W", -1, 0, 0, GREEN, NULL, NULL);
	play(f, "A", 1, 0, 90, RED, "thief", "W");
	assert_int_equal(score(f, RED), 7);
	assert_int_equal(carc_game_supply(f->g, RED), 1);
}

static void test_game_unoccupied_feature_scores_nobody(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	int e = play(f, "E", 0, 1, 180, GREEN, NULL, NULL);
	assert_true(carc_game_feature_complete(f->g, at(f, e, "S")));
	assert_int_equal(score(f, RED) + score(f, GREEN), 0);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].winners, 0);
	assert_int_equal(ev[0].points, 4);
}

static void test_game_one_tile_completes_two_features(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "W", -1, 0, 0, RED, "thief", "E");
	play(f, "E", 0, 1, 180, GREEN, NULL, NULL);
	play(f, "E", 1, 1, 180, RED, "knight", "S");
	assert_int_equal(carc_game_supply(f->g, RED), 5);
	play(f, "L", 1, 0, 0, GREEN, NULL, NULL);
	assert_int_equal(score(f, RED), 3 + 4);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
}

static void test_game_farmers_never_return(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "V", 1, 0, 0, GREEN, "farmer", "N");
	play(f, "E", 0, 1, 180, RED, "knight", "S"); /* the farm's city closes */
	assert_int_equal(score(f, RED), 4);
	assert_int_equal(carc_game_supply(f->g, GREEN), 6);
	size_t n;
	const struct carc_follower *fl = carc_game_followers(f->g, &n);
	int active_farmers = 0;
	for (size_t i = 0; i < n; i++)
		active_farmers += fl[i].active && fl[i].colour == GREEN;
	assert_int_equal(active_farmers, 1);
	carc_game_score_final(f->g);
	/* nor at the end: the farmer scores the city, 3, and stays counted */
	assert_int_equal(score(f, GREEN), 3);
	assert_int_equal(carc_game_supply(f->g, GREEN), 6);
}

/* ---- final scoring ---- */

static void test_game_final_incomplete_features(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "M", 0, 1, 180, RED, "knight", "S");
	play(f, "U", 1, 0, 90, GREEN, "thief", "W");
	play(f, "B", 0, -1, 0, RED, "monk", "C");
	play(f, "U", -1, 0, 90, GREEN, NULL, NULL);
	assert_int_equal(score(f, RED) + score(f, GREEN), 0);
	carc_game_score_final(f->g);
	/* city 2 tiles + 1 pennant = 3; cloister 1 + 3 neighbours = 4; road 3 */
	assert_int_equal(score(f, RED), 3 + 4);
	assert_int_equal(score(f, GREEN), 3);
	assert_int_equal(carc_game_points_from(f->g, RED, CARC_SRC_END_ENCLOSURE), 3);
	assert_int_equal(carc_game_points_from(f->g, RED, CARC_SRC_END_SITE), 4);
	assert_int_equal(carc_game_points_from(f->g, GREEN, CARC_SRC_END_PATH), 3);
}

static void test_game_final_incomplete_majority(void **state)
{
	struct fixture *f = fx(state);
	static const uint8_t seats[] = {GREEN, BLUE, CARC_BLACK};
	start(f, 3, 7, seats, 3);
	play(f, "K", 1, 0, 0, GREEN, "knight", "N");
	play(f, "E", 0, -1, 180, BLUE, "knight", "S");
	play(f, "R", 0, 1, 180, CARC_BLACK, "knight", "S");
	play(f, "E", 2, 0, 0, GREEN, "knight", "N");
	play(f, "G", 0, -2, 90, BLUE, NULL, NULL);
	play(f, "R", 1, 1, 180, CARC_BLACK, NULL, NULL);
	play(f, "M", 2, 1, 270, GREEN, NULL, NULL);
	carc_game_score_final(f->g);
	assert_int_equal(score(f, GREEN), 7);
	assert_int_equal(score(f, BLUE), 2);
	assert_int_equal(score(f, CARC_BLACK), 0);
}

static void test_game_farm_counts_a_city_once(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "E", 0, 1, 180, RED, "knight", "S");
	play(f, "V", 1, 0, 0, GREEN, "farmer", "N");
	play(f, "B", 1, 1, 0, RED, NULL, NULL);
	carc_game_score_final(f->g);
	assert_int_equal(score(f, GREEN), 3);
	assert_int_equal(score(f, RED), 4);
}

static void test_game_farm_only_completed_cities(void **state)
{
	struct fixture *f = fx(state);
	static const uint8_t seats[] = {BLUE, RED};
	start(f, 3, 7, seats, 2);
	play(f, "E", 0, 1, 180, BLUE, NULL, NULL);
	play(f, "E", -1, 1, 270, RED, "farmer", "N"); /* its own cap stays open */
	play(f, "V", 1, 0, 0, BLUE, "farmer", "N");
	play(f, "E", 2, 0, 90, RED, NULL, NULL);
	play(f, "E", 3, 0, 270, BLUE, NULL, NULL);
	carc_game_score_final(f->g);
	assert_int_equal(score(f, BLUE), 6);
	assert_int_equal(score(f, RED), 3);
}

static void test_game_farmer_tie_and_majority(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "E", 0, 1, 180, RED, "knight", "S");
	play(f, "V", 1, 0, 0, GREEN, "farmer", "N");
	play(f, "B", -1, 1, 0, RED, "farmer", "N");
	play(f, "B", 1, 1, 0, GREEN, NULL, NULL);
	const uint8_t *count = carc_game_feature_followers(f->g, at(f, 0, "ENE"));
	assert_int_equal(count[RED], 1);
	assert_int_equal(count[GREEN], 1);
	play(f, "B", 0, -1, 0, RED, "farmer", "N");
	play(f, "A", -1, 0, 270, GREEN, NULL, NULL);
	count = carc_game_feature_followers(f->g, at(f, 0, "ENE"));
	assert_int_equal(count[RED], 2);
	assert_int_equal(count[GREEN], 1);
	carc_game_score_final(f->g);
	assert_int_equal(score(f, RED), 4 + 3);
	assert_int_equal(score(f, GREEN), 0);
}

static void test_game_farmer_tie_both_own(void **state)
{
	struct fixture *f = fx(state);
	start2(f, 3);
	play(f, "E", 0, 1, 180, RED, "knight", "S");
	play(f, "V", 1, 0, 0, GREEN, "farmer", "N");
	play(f, "B", -1, 1, 0, RED, "farmer", "N");
	play(f, "B", 1, 1, 0, GREEN, NULL, NULL);
	carc_game_score_final(f->g);
	assert_int_equal(score(f, RED), 4 + 3);
	assert_int_equal(score(f, GREEN), 3);
}

/* The footnote of 003: one city, three farms; blue's farmers on two of
 * them, yellow's on the third. */
static void footnote(struct fixture *f, int edition)
{
	static const uint8_t seats[] = {BLUE, YELLOW};
	start(f, edition, 7, seats, 2);
	play(f, "F", 0, 1, 90, BLUE, "farmer", "E");
	play(f, "E", 0, 2, 180, YELLOW, NULL, NULL);
	play(f, "V", 1, 0, 0, BLUE, "farmer", "N");
	play(f, "B", -1, 1, 0, YELLOW, "farmer", "N");
	assert_int_equal(score(f, BLUE) + score(f, YELLOW), 0);
	carc_game_score_final(f->g);
}

static void test_game_farm_edition_3_per_farm(void **state)
{
	struct fixture *f = fx(state);
	footnote(f, 3);
	assert_int_equal(score(f, BLUE), 6);
	assert_int_equal(score(f, YELLOW), 3);
}

static void test_game_farm_edition_2_city_once_per_player(void **state)
{
	struct fixture *f = fx(state);
	footnote(f, 2);
	assert_int_equal(score(f, BLUE), 3);
	assert_int_equal(score(f, YELLOW), 3);
}

static void test_game_farm_edition_1_city_majority(void **state)
{
	struct fixture *f = fx(state);
	footnote(f, 1);
	assert_int_equal(score(f, BLUE), 4);
	assert_int_equal(score(f, YELLOW), 0);
}

/* Two cities X (3 tiles) and Y (2 tiles), four farms (farm-editions-N.cgn). */
static void two_cities(struct fixture *f, int edition)
{
	start2(f, edition);
	play(f, "F", 0, 1, 90, RED, "farmer", "E");
	play(f, "E", 0, 2, 180, GREEN, "knight", "S");
	play(f, "V", 1, 0, 0, RED, "farmer", "N");
	play(f, "B", -1, 1, 0, GREEN, "farmer", "N");
	play(f, "E", 2, 0, 90, RED, NULL, NULL);
	play(f, "E", 3, 0, 270, GREEN, "knight", "W");
	play(f, "B", 0, -1, 0, RED, NULL, NULL);
	play(f, "B", 4, 0, 0, GREEN, "farmer", "N");
	carc_game_score_final(f->g);
}

static void test_game_farm_editions_two_cities(void **state)
{
	struct fixture *f = fx(state);
	two_cities(f, 3);
	assert_int_equal(score(f, RED), 9);
	assert_int_equal(score(f, GREEN), 8 + 4 + 6);
	two_cities(f, 2);
	assert_int_equal(score(f, RED), 6);
	assert_int_equal(score(f, GREEN), 8 + 2 + 6);
	two_cities(f, 1);
	/* X: red 2 farmers to green 1; Y: red 1, green 1, a tie */
	assert_int_equal(score(f, RED), 8);
	assert_int_equal(score(f, GREEN), 8 + 2 + 4);
}

static void test_game_small_city_rule_editions(void **state)
{
	struct fixture *f = fx(state);
	for (int ed = 1; ed <= 3; ed++) {
		start2(f, ed);
		play(f, "I", 0, 1, 90, RED, "knight", "S");     /* 2 tiles */
		play(f, "E", 0, -1, 180, GREEN, "knight", "S");
		play(f, "M", 0, -2, 0, RED, NULL, NULL);
		play(f, "E", -1, -2, 90, GREEN, NULL, NULL);    /* 3 tiles + pennant */
		assert_int_equal(score(f, RED), ed == 3 ? 4 : 2);
		assert_int_equal(score(f, GREEN), 8);
	}
}

static void test_game_city_bordering_three_farms(void **state)
{
	struct fixture *f = fx(state);
	static const uint8_t seats[] = {RED, GREEN, BLUE};
	start(f, 3, 7, seats, 3);
	play(f, "F", 0, 1, 90, RED, "farmer", "E");
	play(f, "E", 0, 2, 180, GREEN, "knight", "S");
	play(f, "B", -1, 1, 0, BLUE, "farmer", "N");
	play(f, "V", 1, 0, 0, RED, NULL, NULL);
	play(f, "B", 2, 0, 0, GREEN, "farmer", "N");
	carc_game_score_final(f->g);
	assert_int_equal(score(f, RED), 3);
	assert_int_equal(score(f, GREEN), 8 + 3);
	assert_int_equal(score(f, BLUE), 3);
}

/* ---- a role with a supply of its own, a feature scored now ---- */

/* The base game with a fifth role that has a supply of its own, one a
 * colour (as The Abbot's abbot): the engine's generic data, without the
 * module. One table, so that the engine's cache of a game's roles (by the
 * table's address) always sees the same. */
static const struct carc_ruleset *with_own_role(const struct carc_ruleset *base)
{
	static struct carc_ruleset rs;
	rs = *base;
	rs.roles[rs.nroles++] = (struct carc_role){"prior", {"cloister"}, true, false, 1, true};
	return &rs;
}

static void test_game_own_supply_apart_from_the_followers(void **state)
{
	struct fixture *f = fx(state);
	f->rules = with_own_role(f->rules);
	start2(f, 3);
	int prior = role(f, "prior");
	assert_int_equal(carc_game_role_supply(f->g, RED, prior), 1);
	assert_int_equal(carc_game_role_supply(f->g, BLUE, prior), 0); /* not seated */
	/* carc_game_play leaves its deployment to the caller */
	int t = tile(f, "B"), pl = -1;
	int cloister = carc_spot_lookup("C", 1);
	assert_int_equal(carc_game_play(f->g, t, 0, 0, -1, RED, 1, prior, cloister, &pl), CARC_PLAY_PLACED);
	carc_game_deploy(f->g, pl, carc_game_spot_feature(f->g, pl, cloister), cloister, RED, prior, 1);
	carc_game_score_completed(f->g, 1);
	assert_int_equal(carc_game_role_supply(f->g, RED, prior), 0);
	assert_int_equal(carc_game_supply(f->g, RED), 7);
	assert_int_equal(carc_game_role_supply(f->g, RED, role(f, "monk")), 7);
	f->rules = carc_ruleset_get(CARC_RULES_BASE);
}

static void test_game_score_now_as_at_the_end_and_lift(void **state)
{
	struct fixture *f = fx(state);
	f->rules = with_own_role(f->rules);
	start2(f, 3);
	int p = play(f, "B", 0, -1, 0, RED, "prior", "C");
	play(f, "U", -1, 0, 90, GREEN, NULL, NULL);
	play(f, "U", 1, 0, 90, RED, NULL, NULL);
	/* the cloister and its neighbours D, U, U: 1 + 3, to red, now */
	carc_game_score_now(f->g, at(f, p, "C"), 3, CARC_EV_MODULE + 7, CARC_SRC_OTHER);
	assert_int_equal(score(f, RED), 4);
	assert_int_equal(carc_game_points_from(f->g, RED, CARC_SRC_OTHER), 4);
	assert_int_equal(carc_game_points_from(f->g, RED, CARC_SRC_END_SITE), 0);
	size_t n;
	const struct carc_event *ev = carc_game_events(f->g, &n);
	assert_int_equal(n, 1);
	assert_int_equal(ev[0].type, CARC_EV_MODULE + 7);
	assert_int_equal(ev[0].source, CARC_SRC_OTHER);
	assert_int_equal(ev[0].turn, 3);
	assert_int_equal(ev[0].points, 4);
	assert_int_equal(ev[0].winners, 1u << RED);
	/* lifted, and back in its own supply */
	const struct carc_follower *fl = carc_game_followers(f->g, &n);
	assert_false(fl[0].active);
	assert_int_equal(carc_game_role_supply(f->g, RED, role(f, "prior")), 1);
	assert_null(carc_game_feature_occupant(f->g, at(f, p, "C")));
	/* the final scoring does not score it again */
	carc_game_score_final(f->g);
	assert_int_equal(score(f, RED), 4);
	f->rules = carc_ruleset_get(CARC_RULES_BASE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_place_cell_taken),
		cmocka_unit_test(test_game_place_needs_an_edge_not_a_corner),
		cmocka_unit_test(test_game_place_edge_mismatch_names_edge_and_terrains),
		cmocka_unit_test(test_game_place_every_shared_edge_must_match),
		cmocka_unit_test(test_game_place_west_edge_and_south_edge_both_checked),
		cmocka_unit_test(test_game_supply_counts),
		cmocka_unit_test(test_game_find_fit_names_a_legal_place),
		cmocka_unit_test(test_game_find_fit_fails_when_nothing_fits),
		cmocka_unit_test(test_game_turn_order_follows_seats),
		cmocka_unit_test(test_game_discard_keeps_the_turn),
		cmocka_unit_test(test_game_referee_role_must_match_feature),
		cmocka_unit_test(test_game_referee_empty_supply),
		cmocka_unit_test(test_game_referee_tile_not_in_supply),
		cmocka_unit_test(test_game_referee_own_follower_blocks),
		cmocka_unit_test(test_game_deploy_takes_from_supply),
		cmocka_unit_test(test_game_own_supply_apart_from_the_followers),
		cmocka_unit_test(test_game_score_now_as_at_the_end_and_lift),
		cmocka_unit_test(test_game_deploy_feature_occupied_across_tiles),
		cmocka_unit_test(test_game_deploy_fields_joined_by_a_cloister),
		cmocka_unit_test(test_game_road_complete_when_both_ends_stop),
		cmocka_unit_test(test_game_road_loop_is_complete),
		cmocka_unit_test(test_game_road_loop_through_junction_counts_tile_once),
		cmocka_unit_test(test_game_city_complete_when_closed),
		cmocka_unit_test(test_game_city_counts_each_tile_once),
		cmocka_unit_test(test_game_two_cities_on_one_tile),
		cmocka_unit_test(test_game_cloister_completed_by_diagonal_neighbour),
		cmocka_unit_test(test_game_cloister_quick_points_in_a_hole),
		cmocka_unit_test(test_game_tie_scores_every_tied_player),
		cmocka_unit_test(test_game_tie_two_two_third_at_one),
		cmocka_unit_test(test_game_minority_follower_returns_without_scoring),
		cmocka_unit_test(test_game_quick_points_return_the_follower),
		cmocka_unit_test(test_game_unoccupied_feature_scores_nobody),
		cmocka_unit_test(test_game_one_tile_completes_two_features),
		cmocka_unit_test(test_game_farmers_never_return),
		cmocka_unit_test(test_game_final_incomplete_features),
		cmocka_unit_test(test_game_final_incomplete_majority),
		cmocka_unit_test(test_game_farm_counts_a_city_once),
		cmocka_unit_test(test_game_farm_only_completed_cities),
		cmocka_unit_test(test_game_farmer_tie_and_majority),
		cmocka_unit_test(test_game_farmer_tie_both_own),
		cmocka_unit_test(test_game_farm_edition_3_per_farm),
		cmocka_unit_test(test_game_farm_edition_2_city_once_per_player),
		cmocka_unit_test(test_game_farm_edition_1_city_majority),
		cmocka_unit_test(test_game_farm_editions_two_cities),
		cmocka_unit_test(test_game_small_city_rule_editions),
		cmocka_unit_test(test_game_city_bordering_three_farms),
	};
	return cmocka_run_group_tests_name("game", tests, setup, teardown);
}
