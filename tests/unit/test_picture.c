/*
 * test_picture.c - the shapes of tiles and their terminal pictures.
 *
 * Pictures are generated from the tile-set data, so the tests check the
 * shapes against that data rather than against drawings: for every tile of
 * the base set and of a stone-age set (rivers, lakes, forests, meadows and
 * a kind no other set has), a point just inside each half-edge shows the
 * feature that covers that half-edge, each edge's middle shows the feature
 * crossing it, and each feature's label point (where its symbols and
 * follower go) shows that feature. A few terminal pictures are pinned down
 * exactly, turned and not, along with the canvas and the looks of kinds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "output/picture.h"
#include "output/svg.h"

static const char stone_yaml[] =
	"name: stone\n"
	"terrains: [meadow, river, forest]\n"
	"kinds:\n"
	"  - {name: river, class: path, terrain: river}\n"
	"  - {name: forest, class: enclosure, terrain: forest}\n"
	"  - {name: meadow, class: area, terrain: meadow}\n"
	"  - {name: lake, class: lake}\n"
	"  - {name: swamp, class: area, terrain: meadow}\n"
	"tiles:\n"
	"  - id: A\n"
	"    count: 1\n"
	"    start: true\n"
	"    edges: forest meadow river meadow\n"
	"    features:\n"
	"      - {kind: forest, edges: N, gold: 1}\n"
	"      - {kind: river, edges: S, end: volcano, volcano: 1}\n"
	"      - {kind: meadow, halves: ENE ESE SSE, deer: 2}\n"
	"      - {kind: meadow, halves: SSW WSW WNW}\n"
	"  - id: B\n"
	"    count: 1\n"
	"    edges: meadow river meadow river\n"
	"    features:\n"
	"      - {kind: lake, fish: 3}\n"
	"      - {kind: river, edges: E, end: lake}\n"
	"      - {kind: river, edges: W, end: lake}\n"
	"      - {kind: meadow, halves: NNW NNE ENE WNW}\n"
	"      - {kind: meadow, halves: ESE SSE SSW WSW}\n"
	"  - id: C\n"
	"    count: 1\n"
	"    edges: forest forest forest meadow\n"
	"    features:\n"
	"      - {kind: forest, edges: N E S}\n"
	"      - {kind: swamp, halves: WSW WNW}\n"
	"  - id: D\n"
	"    count: 1\n"
	"    edges: forest meadow forest meadow\n"
	"    features:\n"
	"      - {kind: forest, edges: N S}\n"
	"      - {kind: meadow, halves: ENE ESE}\n"
	"      - {kind: meadow, halves: WSW WNW}\n";

static struct carc_tileset *base_set(void)
{
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("base", &sink, NULL, 0, 0);
	assert_non_null(ts);
	carc_diag_free(&sink);
	return ts;
}

static struct carc_tileset *stone_set(void)
{
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_parse(stone_yaml, sizeof stone_yaml - 1, "stone", &sink);
	assert_int_equal(sink.errors, 0);
	assert_non_null(ts);
	carc_diag_free(&sink);
	return ts;
}

/* Checks every tile of ts against its own data. */
static void check_shapes(const struct carc_tileset *ts)
{
	struct carc_tile_shape *s = malloc(sizeof *s);
	assert_non_null(s);
	/* a point just inside each half-edge: 1/4 and 3/4 along the edge */
	static const struct carc_pt half_pt[8] = {{0.25f, 0.02f}, {0.75f, 0.02f}, {0.98f, 0.25f}, {0.98f, 0.75f},
						  {0.75f, 0.98f}, {0.25f, 0.98f}, {0.02f, 0.75f}, {0.02f, 0.25f}};
	static const struct carc_pt edge_pt[4] = {{0.5f, 0.02f}, {0.98f, 0.5f}, {0.5f, 0.98f}, {0.02f, 0.5f}};
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		carc_tile_shape(ts, i, s);
		for (int h = 0; h < 8; h++) {
			int got = carc_shape_hit(ts, s, half_pt[h], false);
			if (got != t->half_feature[h])
				fail_msg("tile %s: half-edge %s shows feature %d, not %d", t->id, carc_half_names[h], got,
					 t->half_feature[h]);
		}
		for (int e = 0; e < 4; e++) {
			int got = carc_shape_hit(ts, s, edge_pt[e], false);
			if (got != t->edge_feature[e])
				fail_msg("tile %s: edge %s shows feature %d, not %d", t->id, carc_edge_names[e], got,
					 t->edge_feature[e]);
		}
		for (int f = 0; f < t->nfeatures; f++) {
			int got = carc_shape_hit(ts, s, s->f[f].label, false);
			if (got != f)
				fail_msg("tile %s: the label of feature %d (%.2f,%.2f) shows feature %d", t->id, f,
					 s->f[f].label.x, s->f[f].label.y, got);
		}
	}
	free(s);
}

static void test_picture_base_shapes_match_tile_data(void **state)
{
	(void)state;
	struct carc_tileset *ts = base_set();
	check_shapes(ts);
	carc_tileset_free(ts);
}

static void test_picture_stone_shapes_match_tile_data(void **state)
{
	(void)state;
	struct carc_tileset *ts = stone_set();
	check_shapes(ts);
	carc_tileset_free(ts);
}

/* The Big Box's sets: the fields that touch no edge (IH, TM, TN, TP, TX;
 * spot I) show at their label points, so that a farmer there stands in
 * its field, and the sets' own attributes have glyphs of their own. */
static void test_picture_inner_fields_show(void **state)
{
	(void)state;
	static const char *const sets[] = {"inns", "traders-builders"};
	for (size_t k = 0; k < 2; k++) {
		struct carc_diag_sink sink = {0};
		struct carc_tileset *ts = carc_tileset_load(sets[k], &sink, NULL, 0, 0);
		assert_non_null(ts);
		carc_diag_free(&sink);
		check_shapes(ts);
		int inner = 0;
		struct carc_tile_shape *s = malloc(sizeof *s);
		assert_non_null(s);
		for (int i = 0; i < ts->ntiles; i++) {
			const struct carc_tile *t = &ts->tiles[i];
			if (t->inner_feature == CARC_NO_FEATURE)
				continue;
			inner++;
			carc_tile_shape(ts, i, s);
			assert_int_equal(s->f[t->inner_feature].nregions, 1);
			/* it shows at its label, not at the tile's edges */
			assert_int_equal(carc_shape_hit(ts, s, s->f[t->inner_feature].label, false), t->inner_feature);
		}
		assert_true(inner >= (k ? 4 : 1));
		free(s);
		for (int a = CARC_ATTR_COUNT; a < ts->nattrs; a++)
			assert_string_not_equal(carc_attr_glyph(ts, a, true), "?");
		carc_tileset_free(ts);
	}
}

static void test_picture_turn_is_clockwise(void **state)
{
	(void)state;
	struct carc_pt p = carc_pt_turn((struct carc_pt){0.5f, 0}, 1); /* north middle -> east middle */
	assert_true(p.x == 1 && p.y == 0.5f);
	p = carc_pt_turn((struct carc_pt){0.5f, 0}, 3); /* -> west middle */
	assert_true(p.x == 0 && p.y == 0.5f);
	p = carc_pt_turn((struct carc_pt){0.25f, 0}, 2); /* NNW -> SSE */
	assert_true(p.x == 0.75f && p.y == 1);
}

/* Draws tile id turned rot on a w x h canvas and returns its text. */
static char *draw(const struct carc_tileset *ts, const char *id, int rot, bool ascii)
{
	struct carc_shape_cache *c = carc_shape_cache_new(ts);
	struct carc_canvas cv;
	carc_canvas_init(&cv, 7, 3);
	int i = carc_tileset_find(ts, id, strlen(id));
	assert_true(i >= 0);
	carc_picture_tile(&cv, 0, 0, 7, 3, ts, carc_shape_get(c, i), rot, ascii);
	struct carc_buf b = {0};
	carc_canvas_render(&cv, &b, false);
	carc_canvas_free(&cv);
	carc_shape_cache_free(c);
	carc_buf_cstr(&b);
	return b.data;
}

static void test_picture_start_tile_in_ascii(void **state)
{
	(void)state;
	struct carc_tileset *ts = base_set();
	char *d = draw(ts, "D", 0, true);
	assert_string_equal(d, ".#####.\n"
			       "-------\n"
			       ".......\n");
	free(d);
	/* turned a quarter clockwise: the city on the east, the road north-south */
	d = draw(ts, "D", 1, true);
	assert_string_equal(d, "...|..#\n"
			       "...|.##\n"
			       "...|..#\n");
	free(d);
	carc_tileset_free(ts);
}

static void test_picture_junction_and_cloister_in_unicode(void **state)
{
	(void)state;
	struct carc_tileset *ts = base_set();
	char *w = draw(ts, "W", 0, false);
	assert_string_equal(w, "·······\n"
			       "═══╦═══\n"
			       "···║···\n");
	free(w);
	char *a = draw(ts, "A", 0, false);
	assert_string_equal(a, "·······\n"
			       "···†···\n"
			       "···║···\n");
	free(a);
	char *c = draw(ts, "C", 0, false); /* the whole tile is city, with its pennant */
	assert_non_null(strstr(c, "♦"));
	assert_null(strstr(c, "·"));
	free(c);
	carc_tileset_free(ts);
}

static void test_picture_lake_fish_and_river(void **state)
{
	(void)state;
	struct carc_tileset *ts = stone_set();
	char *b = draw(ts, "B", 0, true);
	/* rivers to the lake from east and west, three fish written "3<" on it */
	assert_string_equal(b, ".......\n"
			       "~~o3<~~\n"
			       ".......\n");
	free(b);
	carc_tileset_free(ts);
}

static void test_picture_canvas_trims_and_colours(void **state)
{
	(void)state;
	struct carc_canvas cv;
	carc_canvas_init(&cv, 6, 2);
	carc_canvas_text(&cv, 0, 0, "ab", 0);
	carc_canvas_text(&cv, 1, 1, "é", 31);
	struct carc_buf b = {0};
	carc_canvas_render(&cv, &b, false);
	assert_string_equal(carc_buf_cstr(&b), "ab\n é\n");
	carc_buf_reset(&b);
	carc_canvas_render(&cv, &b, true);
	assert_string_equal(carc_buf_cstr(&b), "ab\n \033[31mé\033[0m\n");
	/* a follower: a negative code, white on its colour */
	carc_canvas_put(&cv, 3, 0, "K", -(1 + 0));
	carc_buf_reset(&b);
	carc_canvas_render(&cv, &b, true);
	assert_string_equal(carc_buf_cstr(&b), "ab \033[1;97;41mK\033[0m\n \033[31mé\033[0m\n");
	carc_buf_free(&b);
	carc_canvas_free(&cv);
}

static void test_picture_kind_looks(void **state)
{
	(void)state;
	struct carc_tileset *ts = stone_set();
	int river = carc_tileset_kind(ts, "river"), swamp = carc_tileset_kind(ts, "swamp");
	int meadow = carc_tileset_kind(ts, "meadow");
	assert_true(carc_kind_look(ts, river)->water);
	/* an unknown kind takes its class's look by rank: swamp is the second area kind */
	assert_string_equal(carc_kind_look(ts, swamp)->ascii, ",");
	assert_string_equal(carc_kind_look(ts, meadow)->ascii, ".");
	assert_int_equal(carc_colour_letter(0), 'r');
	assert_int_equal(carc_colour_letter(4), 'k');
	assert_string_equal(carc_attr_glyph(ts, CARC_ATTR_PENNANT, true), "*");
	assert_string_equal(carc_attr_glyph(NULL, CARC_ATTR_PENNANT, false), "♦");
	carc_tileset_free(ts);
}

static void test_picture_key_names_every_kind_and_attribute(void **state)
{
	(void)state;
	struct carc_tileset *ts = stone_set();
	struct carc_buf b = {0};
	carc_picture_key(&b, ts, true);
	assert_string_equal(carc_buf_cstr(&b),
			    "~ river  % forest  . meadow  o lake  , swamp  < fish  $ gold  d deer  A volcano\n");
	carc_buf_free(&b);
	carc_tileset_free(ts);
}

static void test_picture_map_frames_marks_and_followers(void **state)
{
	(void)state;
	struct carc_tileset *ts = base_set();
	struct carc_view_tile tiles[2] = {
		{.x = 0, .y = 0, .tile = (uint16_t)carc_tileset_find(ts, "D", 1), .rot = 0},
		{.x = 1, .y = 0, .tile = (uint16_t)carc_tileset_find(ts, "V", 1), .rot = 0, .mark = CARC_MARK_ILLEGAL},
	};
	struct carc_view_follower fl = {.tile = 0, .feature = 1, .colour = 1, .letter = 'T', .role = "thief"};
	struct carc_view v = {.ts = ts, .tiles = tiles, .ntiles = 2, .followers = &fl, .nfollowers = 1};
	struct carc_shape_cache *c = carc_shape_cache_new(ts);
	struct carc_buf b = {0};
	carc_picture_map(&b, &v, c, true, false);
	/* x above the middle of each tile, y left of its middle row; the frame in the gutters */
	assert_string_equal(carc_buf_cstr(&b), "      0       1\n"
					       "          !!!!!!!!!\n"
					       "   .#####.!.......!\n"
					       "0  ---Tg--!---+...!\n"
					       "   .......!...|...!\n"
					       "          !!!!!!!!!\n");
	carc_buf_free(&b);
	carc_shape_cache_free(c);
	carc_tileset_free(ts);
}

/* The river and a garden on the map, as show and render will draw a game
 * with The River and The Abbot: the spring, the river through a bridge
 * tile to the garden bend (an abbot on its garden), the lake below it. */
static void test_picture_river_and_garden_on_the_map(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("river", &sink, NULL, 0, 0);
	assert_non_null(ts);
	carc_tileset_play(ts, "abbot", 5);
	struct carc_view_tile tiles[4] = {
		{.x = 0, .y = 0, .tile = (uint16_t)carc_tileset_find(ts, "RA", 2), .rot = 0},
		{.x = 1, .y = 0, .tile = (uint16_t)carc_tileset_find(ts, "RB", 2), .rot = 0},
		{.x = 2, .y = 0, .tile = (uint16_t)carc_tileset_find(ts, "RJ", 2), .rot = 0},
		{.x = 2, .y = -1, .tile = (uint16_t)carc_tileset_find(ts, "RL", 2), .rot = 1, .mark = CARC_MARK_LAST},
	};
	int garden = ts->tiles[tiles[2].tile].centre_feature;
	assert_string_equal(ts->kinds[ts->tiles[tiles[2].tile].features[garden].kind].name, "garden");
	struct carc_view_follower fl = {.tile = 2, .feature = (uint8_t)garden, .colour = 0, .letter = 'A',
					.role = "abbot"};
	struct carc_view v = {.ts = ts, .tiles = tiles, .ntiles = 4, .followers = &fl, .nfollowers = 1};
	struct carc_shape_cache *c = carc_shape_cache_new(ts);
	struct carc_buf b = {0};
	carc_picture_map(&b, &v, c, true, false);
	/* the spring (+) where the river starts; the road of RB crosses the
	 * river (|, not ~); the garden (%) with the abbot beside the bend */
	assert_string_equal(carc_buf_cstr(&b), "       0       1       2\n"
					       "\n"
					       "    ....... .#####. ....%Ar\n"
					       " 0  ...+~~~ ~~~|~~~ ~~~~...\n"
					       "    ....... ...|... ...~...\n"
					       "                   +-------+\n"
					       "                   |...~...|\n"
					       "-1                 |..ooo..|\n"
					       "                   |.......|\n"
					       "                   +-------+\n");
	b.len = 0;
	carc_picture_map(&b, &v, c, false, false);
	assert_non_null(strstr(carc_buf_cstr(&b), "····✿Ar\n"));
	assert_non_null(strstr(carc_buf_cstr(&b), " 0  ···•≈≈≈ ≈≈≈║≈≈≈ ≈≈≈≈···\n"));
	b.len = 0;
	carc_picture_key(&b, ts, true);
	assert_string_equal(carc_buf_cstr(&b), "- road  # city  @ cloister  . field  ~ river  o lake  % garden\n");
	b.len = 0;
	carc_svg_map(&b, &v, c, NULL);
	const char *svg = carc_buf_cstr(&b);
	assert_non_null(strstr(svg, "<title>garden</title>"));      /* the flower bed, */
	assert_null(strstr(svg, "<title>cloister</title>"));        /* not a cloister */
	assert_non_null(strstr(svg, "stroke=\"#2a5c96\""));          /* the river's banks */
	assert_non_null(strstr(svg, "fill=\"#bfe3ff\""));            /* the spring */
	assert_non_null(strstr(svg, "fill=\"#3d84d0\""));            /* the lake */
	carc_buf_free(&b);
	carc_shape_cache_free(c);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

static void test_picture_axis_leaves_out_long_empty_runs(void **state)
{
	(void)state;
	struct carc_view_tile tiles[4] = {{.x = 0}, {.x = 2}, {.x = 3}, {.x = 900000}};
	struct carc_view v = {.tiles = tiles, .ntiles = 4, .cells = {{-4, 0, CARC_MARK_HIGHLIGHT}}, .ncells = 1};
	struct carc_axis a;
	carc_view_axis(&v, false, &a);
	/* -4, then 3 empty columns left out; 0, 1 (one empty column kept), 2, 3; then 900000 after a gap */
	assert_int_equal(a.n, 6);
	static const int32_t want[6] = {-4, 0, 1, 2, 3, 900000};
	static const bool gap[6] = {false, true, false, false, false, true};
	for (int i = 0; i < 6; i++) {
		assert_int_equal(a.slot[i].value, want[i]);
		assert_int_equal(a.slot[i].gap, gap[i]);
	}
	assert_int_equal(carc_axis_find(&a, 900000), 5);
	assert_int_equal(carc_axis_find(&a, 5), -1);
	carc_axis_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_picture_base_shapes_match_tile_data),
		cmocka_unit_test(test_picture_stone_shapes_match_tile_data),
		cmocka_unit_test(test_picture_inner_fields_show),
		cmocka_unit_test(test_picture_turn_is_clockwise),
		cmocka_unit_test(test_picture_start_tile_in_ascii),
		cmocka_unit_test(test_picture_junction_and_cloister_in_unicode),
		cmocka_unit_test(test_picture_lake_fish_and_river),
		cmocka_unit_test(test_picture_canvas_trims_and_colours),
		cmocka_unit_test(test_picture_kind_looks),
		cmocka_unit_test(test_picture_key_names_every_kind_and_attribute),
		cmocka_unit_test(test_picture_map_frames_marks_and_followers),
		cmocka_unit_test(test_picture_river_and_garden_on_the_map),
		cmocka_unit_test(test_picture_axis_leaves_out_long_empty_runs),
	};
	return cmocka_run_group_tests_name("picture", tests, NULL, NULL);
}
