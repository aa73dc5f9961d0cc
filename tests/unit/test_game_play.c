/*
 * test_game_play.c - carc_game_play, a whole turn in one call (game.c).
 *
 * The referee plays ordinary turns through carc_game_play and falls back to
 * the separate steps (carc_game_draw, carc_game_check_place, carc_game_place,
 * carc_game_deploy, carc_game_score_completed) only for what it hands back.
 * That is only right if the one call leaves the engine exactly as the steps
 * do. These tests replay generated games, and copies with moves changed into
 * illegal ones (taken cells, clashing edges, tiles out of the supply, spots
 * without a feature, occupied features, roles on the wrong kind), on two
 * engines, one by the steps and one by carc_game_play, and compare after
 * every turn: placements, followers, supplies, scores and scoring events.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"
#include "notation/record.h"

#include <stdlib.h>
#include <string.h>

/* The deployment as the referee makes it: nothing without a feature at the
 * spot, of a kind the role may stand on, and a follower (or hut) in the
 * supply; an occupied feature is reported and still taken. */
static void deploy_steps(struct carc_game *g, const struct carc_move *m, int pl, int turn)
{
	const struct carc_ruleset *rs = carc_game_rules(g);
	const struct carc_tileset *ts = carc_game_tileset(g);
	const struct carc_role *role = &rs->roles[m->role];
	int f = carc_game_spot_feature(g, pl, m->spot);
	if (f == CARC_NO_FEATURE)
		return;
	const char *kind = ts->kinds[ts->tiles[m->tile].features[f].kind].name;
	if (strcmp(role->kinds[0], kind) && (!role->kinds[1] || strcmp(role->kinds[1], kind)))
		return;
	if (role->hut ? carc_game_huts(g, m->colour) <= 0 : carc_game_supply(g, m->colour) <= 0)
		return;
	carc_game_deploy(g, pl, f, m->spot, m->colour, m->role, turn);
}

/* A turn by the separate steps, as the referee takes them. */
static int turn_steps(struct carc_game *g, const struct carc_move *m, int turn)
{
	if (carc_game_tiles_left(g, m->tile) > 0)
		carc_game_draw(g, m->tile);
	if (carc_game_check_place(g, m->tile, m->rot, m->x, m->y, NULL) == CARC_E201)
		return -1; /* not physically possible: skipped */
	int pl = carc_game_place(g, m->tile, m->rot, m->x, m->y, m->colour, turn);
	if (m->role >= 0)
		deploy_steps(g, m, pl, turn);
	carc_game_score_completed(g, turn);
	return pl;
}

/* The same turn through carc_game_play, and the steps for what it hands back. */
static int turn_play(struct carc_game *g, const struct carc_move *m, int turn)
{
	int pl;
	int st = carc_game_play(g, m->tile, m->rot, m->x, m->y, m->colour, turn, m->role, m->spot, &pl);
	if (st == CARC_PLAY_NONE) {
		assert_int_equal(pl, -1);
		return turn_steps(g, m, turn);
	}
	assert_true(pl >= 0);
	if (st == CARC_PLAY_PLACED) {
		assert_true(m->role >= 0);
		deploy_steps(g, m, pl, turn);
		carc_game_score_completed(g, turn);
	}
	return pl;
}

static void assert_same_engines(struct carc_game *a, struct carc_game *b)
{
	size_t na, nb;
	const struct carc_placement *pa = carc_game_placements(a, &na), *pb = carc_game_placements(b, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(pa, pb, na * sizeof *pa);
	const struct carc_follower *fa = carc_game_followers(a, &na), *fb = carc_game_followers(b, &nb);
	assert_int_equal(na, nb);
	for (size_t i = 0; i < na; i++) {
		assert_int_equal(fa[i].colour, fb[i].colour);
		assert_int_equal(fa[i].role, fb[i].role);
		assert_int_equal(fa[i].active, fb[i].active);
		assert_int_equal(fa[i].spot, fb[i].spot);
		assert_int_equal(fa[i].segment, fb[i].segment);
		assert_int_equal(fa[i].turn, fb[i].turn);
		assert_int_equal(fa[i].placement, fb[i].placement);
	}
	const struct carc_event *ea = carc_game_events(a, &na), *eb = carc_game_events(b, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(ea, eb, na * sizeof *ea);
	for (int c = 0; c < CARC_COLOURS; c++) {
		assert_int_equal(carc_game_score(a, c), carc_game_score(b, c));
		assert_int_equal(carc_game_supply(a, c), carc_game_supply(b, c));
		for (int s = 0; s < CARC_SRC_COUNT; s++)
			assert_int_equal(carc_game_points_from(a, c, s), carc_game_points_from(b, c, s));
	}
	assert_int_equal(carc_game_supply_left(a), carc_game_supply_left(b));
	const struct carc_tileset *ts = carc_game_tileset(a);
	for (int t = 0; t < ts->ntiles; t++)
		assert_int_equal(carc_game_tiles_left(a, t), carc_game_tiles_left(b, t));
	/* the same features, by root, with the same followers */
	carc_game_placements(a, &na);
	for (size_t i = 0; i < na; i++) {
		const struct carc_tile *t = &ts->tiles[pa[i].tile];
		for (int f = 0; f < t->nfeatures; f++) {
			uint32_t ra = carc_game_feature_root(a, (int)i, f), rb = carc_game_feature_root(b, (int)i, f);
			assert_int_equal(ra, rb);
			assert_memory_equal(carc_game_feature_followers(a, ra), carc_game_feature_followers(b, rb),
					    CARC_COLOURS);
		}
	}
}

/* Changes some moves of a record into illegal ones, the same way each time. */
static void spoil(struct carc_rng *rng, struct carc_move *m, const struct carc_tileset *ts)
{
	switch (carc_rng_below(rng, 6)) {
	case 0: m->x = 0, m->y = 0; break;                       /* the start tile's cell */
	case 1: m->rot = (uint8_t)((m->rot + 1) & 3); break;     /* edges may clash */
	case 2: m->x += 5; break;                                /* no neighbour, likely */
	case 3: m->tile = (uint16_t)carc_rng_below(rng, (uint32_t)ts->ntiles); break;
	case 4: m->spot = (uint8_t)carc_rng_below(rng, CARC_SPOT_COUNT); if (m->role < 0) m->role = 0; break;
	default: m->role = (int8_t)carc_rng_below(rng, 4); m->spot = (uint8_t)carc_rng_below(rng, CARC_SPOT_COUNT); break;
	}
}

static void replay(uint64_t seed, int players, double spoil_rate, int games)
{
	struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_BASE), .players = players, .deploy_rate = 0.7,
				  .seed = seed};
	const char *why = NULL;
	struct carc_gen *gen = carc_gen_new(&o, &why);
	assert_non_null(gen);
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_game *a = carc_game_new(), *b = carc_game_new();
	struct carc_rng rng;
	carc_rng_seed(&rng, seed);
	struct carc_buf text = {0};
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	for (int k = 0; k < games; k++) {
		carc_buf_reset(&text);
		carc_gen_game(gen, (uint64_t)k, &text);
		assert_true(carc_parse_string(text.data, text.len, "game.cgn", cache, carc_rules_registry(),
					      &rec, &sink));
		assert_non_null(rec.tileset);
		carc_game_start(a, rec.tileset, rec.rules, rec.edition, rec.seats, rec.nseats, rec.followers, rec.huts,
				rec.start_tile, rec.start_rot);
		carc_game_start(b, rec.tileset, rec.rules, rec.edition, rec.seats, rec.nseats, rec.followers, rec.huts,
				rec.start_tile, rec.start_rot);
		for (size_t i = 0; i < rec.nmoves; i++) {
			struct carc_move m = rec.moves[i];
			if (m.discard)
				continue;
			if (carc_rng_chance(&rng, spoil_rate))
				spoil(&rng, &m, rec.tileset);
			int turn = (int)i + 1;
			assert_int_equal(turn_play(a, &m, turn), turn_steps(b, &m, turn));
			assert_same_engines(a, b);
		}
		carc_game_score_final(a);
		carc_game_score_final(b);
		assert_same_engines(a, b);
	}
	carc_record_free(&rec);
	carc_buf_free(&text);
	carc_game_free(a);
	carc_game_free(b);
	carc_tileset_cache_free(cache);
	carc_gen_free(gen);
}

/* Legal games: every turn is played in one call, or handed back for the
 * deployment only when it is occupied or out of followers. */
static void test_game_play_legal_games_equal_the_steps(void **state)
{
	(void)state;
	for (int players = 2; players <= 5; players++)
		replay(500 + (uint64_t)players, players, 0.0, 12);
}

/* Games with illegal moves: what carc_game_play refuses, the steps do. */
static void test_game_play_illegal_moves_equal_the_steps(void **state)
{
	(void)state;
	replay(601, 2, 0.2, 12);
	replay(602, 4, 0.5, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_game_play_legal_games_equal_the_steps),
		cmocka_unit_test(test_game_play_illegal_moves_equal_the_steps),
	};
	return cmocka_run_group_tests_name("game_play", tests, NULL, NULL);
}
