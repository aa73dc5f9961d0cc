/*
 * test_svg.c - the SVG writer: tile sheets and maps.
 *
 * Whether a browser shows the pictures is tested by tests/pictures/run.sh
 * (an XML parser on every SVG the tests make, and headless Chromium when it
 * is installed). Here the writer's own promises are pinned down: text is
 * escaped so that any player name or tile name stays well-formed, every tile
 * of a sheet is drawn once with its id under it, elements open and close in
 * pairs, and a map carries its followers, marks and legend.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "output/svg.h"

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Every element is closed: as many <g ... > as </g>, <text as </text>, and
 * the document is one svg element. */
static void assert_balanced(const char *svg)
{
	assert_int_equal(strncmp(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44), 0);
	assert_int_equal(count(svg, "<svg"), 1);
	assert_int_equal(count(svg, "</svg>\n"), 1);
	size_t len = strlen(svg);
	assert_string_equal(svg + len - 7, "</svg>\n");
	assert_int_equal(count(svg, "<g>") + count(svg, "<g "), count(svg, "</g>"));
	assert_int_equal(count(svg, "<text"), count(svg, "</text>"));
	assert_int_equal(count(svg, "<title>"), count(svg, "</title>"));
	/* no raw ampersand outside an entity */
	for (const char *p = strchr(svg, '&'); p; p = strchr(p + 1, '&'))
		assert_true(!strncmp(p, "&amp;", 5) || !strncmp(p, "&lt;", 4) || !strncmp(p, "&gt;", 4) ||
			    !strncmp(p, "&quot;", 6) || !strncmp(p, "&apos;", 6) || !strncmp(p, "&#", 2));
}

static struct carc_tileset *base_set(void)
{
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("base", &sink, NULL, 0, 0);
	assert_non_null(ts);
	carc_diag_free(&sink);
	return ts;
}

static void test_svg_escape(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_svg_escape(&b, "Anna & \"Boris\" <3 'x'\x01\tÄ");
	assert_string_equal(carc_buf_cstr(&b), "Anna &amp; &quot;Boris&quot; &lt;3 &apos;x&apos;\tÄ");
	carc_buf_free(&b);
}

static void test_svg_sheet_draws_every_tile_once(void **state)
{
	(void)state;
	struct carc_tileset *ts = base_set();
	int all[24];
	for (int i = 0; i < 24; i++)
		all[i] = i;
	struct carc_buf b = {0};
	carc_svg_tile_sheet(&b, ts, all, 24);
	const char *svg = carc_buf_cstr(&b);
	assert_balanced(svg);
	assert_int_equal(count(svg, "<g><title>tile "), 24);
	assert_int_equal(count(svg, "incl. start"), 1);
	assert_non_null(strstr(svg, "<g><title>tile D: ")); /* its name follows */
	/* the id under each tile, in large type */
	assert_int_equal(count(svg, "font-size=\"20\" font-weight=\"bold\""), 24);
	/* a pennant on each type that has one (C F M O Q S), a cloister on A and B */
	assert_int_equal(count(svg, "<title>pennant</title>"), 6);
	assert_int_equal(count(svg, "<title>cloister</title>"), 2);
	carc_buf_free(&b);
	carc_tileset_free(ts);
}

static void test_svg_map_has_followers_marks_and_legend(void **state)
{
	(void)state;
	struct carc_tileset *ts = base_set();
	struct carc_view_tile tiles[2] = {
		{.x = 0, .y = 0, .tile = (uint16_t)carc_tileset_find(ts, "D", 1)},
		{.x = 0, .y = 1, .tile = (uint16_t)carc_tileset_find(ts, "E", 1), .rot = 2, .mark = CARC_MARK_LAST},
	};
	tiles[0].owners[0] = 1u << CARC_RED | 1u << CARC_BLUE; /* a tie on the city: striped */
	struct carc_view_follower fl[2] = {
		{.tile = 0, .feature = 1, .colour = CARC_RED, .letter = 'T', .role = "thief"},
		{.tile = 1, .feature = 1, .colour = CARC_BLUE, .letter = 'F', .role = "farmer"},
	};
	struct carc_view v = {.ts = ts, .tiles = tiles, .ntiles = 2, .followers = fl, .nfollowers = 2,
			      .cells = {{3, -2, CARC_MARK_HIGHLIGHT}}, .ncells = 1, .features = true};
	struct carc_svg_legend legend = {"Club <night>", "after turn 1", "turn 2 was illegal", "Scores"};
	legend.players[0] = (struct carc_svg_player){CARC_RED, "Anna & co", 12, "5 followers in supply, 1 abbot"};
	legend.players[1] = (struct carc_svg_player){CARC_BLUE, NULL, 3, NULL};
	legend.rules = "base rules, edition 3";
	legend.nplayers = 2;
	struct carc_shape_cache *c = carc_shape_cache_new(ts);
	struct carc_buf b = {0};
	carc_svg_map(&b, &v, c, &legend);
	const char *svg = carc_buf_cstr(&b);
	assert_balanced(svg);
	assert_int_equal(count(svg, "<g><title>tile "), 2);
	assert_non_null(strstr(svg, "<title>red thief</title>"));
	assert_non_null(strstr(svg, "<title>blue farmer</title>"));
	assert_non_null(strstr(svg, "rotate(-90)")); /* the farmer lies down */
	assert_non_null(strstr(svg, "<title>the last tile placed</title>"));
	assert_non_null(strstr(svg, "<title>highlighted cell</title>"));
	assert_non_null(strstr(svg, "<pattern id=\"own5\"")); /* red and blue share the city */
	assert_non_null(strstr(svg, "fill=\"url(#own5)\""));
	assert_non_null(strstr(svg, "Club &lt;night&gt;"));
	assert_non_null(strstr(svg, "red (Anna &amp; co)"));
	assert_non_null(strstr(svg, ">12</text>"));
	assert_non_null(strstr(svg, "turn 2 was illegal"));
	assert_non_null(strstr(svg, ">base rules, edition 3<"));
	assert_non_null(strstr(svg, ">5 followers in supply, 1 abbot</text>"));
	assert_int_equal(count(svg, "in supply"), 1); /* blue's is left out */
	/* each follower on the map has its colour's letter on a badge, not the legend's meeples */
	assert_int_equal(count(svg, "<g class=\"badge\""), 2);
	/* the highlighted cell widens the map: x runs from 0 to 3, y from -2 to 1 */
	assert_non_null(strstr(svg, ">3</text>"));
	assert_non_null(strstr(svg, ">-2</text>"));
	carc_buf_free(&b);
	carc_shape_cache_free(c);
	carc_tileset_free(ts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg_escape),
		cmocka_unit_test(test_svg_sheet_draws_every_tile_once),
		cmocka_unit_test(test_svg_map_has_followers_marks_and_legend),
	};
	return cmocka_run_group_tests_name("svg", tests, NULL, NULL);
}
