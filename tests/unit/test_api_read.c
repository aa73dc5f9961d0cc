/*
 * test_api_read.c - the read group of <carc.h> (src/api/read.c) and the map
 * at a position.
 *
 * The corpora are compared with carc score and check by tests/api and
 * tests/python; these pin what those cannot see from outside, and run
 * under the sanitizers (make asan), which the Python tests cannot: every
 * kind of input (a path, memory, gzip in memory, a caller's stream that
 * stays open, damaged data, nothing at all), games that outlive their
 * records, diagnostics as values in the order of their lines, tag names
 * written snprintf style, each turn's running scores, and the tiles,
 * features and followers after any turn.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "api/carc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* Two games: the first places a tile on the start tile's cell (E201) and
 * stops (W001); the second is four legal turns. */
static const char TWO_GAMES[] = "[Event \"one\"]\n"
				"[Seats \"red green\"]\n"
				"\n"
				"1. red U 0,0 0\n"
				"\n"
				"[Event \"two\"]\n"
				"[Seats \"red green\"]\n"
				"[Red \"Anna \\\"A\\\"\"]\n"
				"\n"
				"1. red U -1,0 90  thief E\n"
				"2. green E 0,1 180  knight S\n"
				"3. red V 1,0 0  farmer NNE\n"
				"4. green K 0,-1 270  knight W\n";

static carc_records *open_text(const char *text, size_t len)
{
	char why[256] = "";
	carc_records *r = carc_records_open_memory(text, len, "two.cgn", why, sizeof why);
	if (!r)
		fail_msg("open_memory: %s", why);
	return r;
}

/* What the two games say, whatever they were read from. */
static void check_two(carc_records *r)
{
	carc_match *one, *two, *none = (carc_match *)1;
	assert_int_equal(carc_records_next(r, &one), CARC_OK);
	assert_int_equal(carc_records_next(r, &two), CARC_OK);
	assert_int_equal(carc_records_next(r, &none), CARC_END);
	assert_null(none);
	assert_int_equal(carc_records_next(r, &none), CARC_END);
	carc_records_close(r); /* the games stay */

	assert_string_equal(carc_match_tag(one, "EVENT"), "one");
	assert_false(carc_match_valid(one));
	assert_int_equal(carc_match_ndiagnostics(one), 2);
	carc_diagnostic d;
	assert_int_equal(carc_match_diagnostic(one, 0, &d), CARC_OK);
	assert_string_equal(d.code, "E201");
	assert_int_equal(d.severity, CARC_SEVERITY_ERROR);
	assert_string_equal(d.file, "two.cgn");
	assert_int_equal(d.line, 4);
	assert_int_equal(d.column, 10);
	assert_non_null(strstr(d.message, "0,0"));
	assert_int_equal(carc_match_diagnostic(one, 1, &d), CARC_OK);
	assert_string_equal(d.code, "W001");
	assert_int_equal(d.severity, CARC_SEVERITY_WARNING);
	assert_int_equal(carc_match_diagnostic(one, 2, &d), CARC_ERANGE);

	assert_true(carc_match_valid(two));
	assert_int_equal(carc_match_ntags(two), 3);
	char name[8];
	assert_int_equal(carc_match_tag_name(two, 2, name, sizeof name), 3);
	assert_string_equal(name, "Red");
	assert_string_equal(carc_match_tag_value(two, 2), "Anna \"A\"");
	assert_null(carc_match_tag_value(two, 3));
	assert_int_equal(carc_match_tag_name(two, 0, name, 3), 5); /* cut: "Ev" */
	assert_string_equal(name, "Ev");
	assert_int_equal(carc_match_nturns(two), 4);
	carc_turn_info t;
	assert_int_equal(carc_match_turn(two, 1, &t), CARC_OK);
	assert_int_equal(t.number, 2);
	assert_string_equal(t.colour, "green");
	assert_string_equal(t.move.tile, "E");
	assert_int_equal(t.move.rotation, 180);
	assert_string_equal(t.move.role, "knight");
	assert_string_equal(t.move.spot, "S");
	assert_int_equal(t.line, 11);
	assert_int_equal(t.scores[0], 0); /* red */
	assert_int_equal(t.scores[1], 4); /* green: the city closed */
	assert_int_equal(carc_match_turn(two, 4, &t), CARC_ERANGE);
	carc_match_free(one);
	carc_match_free(two);
}

static void test_read_memory(void **state)
{
	(void)state;
	check_two(open_text(TWO_GAMES, sizeof TWO_GAMES - 1));
}

static void test_read_gzip_memory(void **state)
{
	(void)state;
	uLongf len = compressBound(sizeof TWO_GAMES) + 64;
	unsigned char *gz = malloc(len);
	z_stream z = {0};
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)TWO_GAMES;
	z.avail_in = sizeof TWO_GAMES - 1;
	z.next_out = gz;
	z.avail_out = (uInt)len;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = z.total_out;
	deflateEnd(&z);
	check_two(open_text((const char *)gz, n));

	/* the same cut short: the reading fails, saying where */
	carc_records *r = open_text((const char *)gz, n / 2);
	carc_match *m = NULL;
	int rc;
	while ((rc = carc_records_next(r, &m)) == CARC_OK)
		carc_match_free(m);
	assert_int_equal(rc, CARC_EIO);
	assert_non_null(strstr(carc_records_error(r), "cut short"));
	carc_records_close(r);
	free(gz);
}

static void test_read_stream_stays_open(void **state)
{
	(void)state;
	FILE *f = fmemopen((void *)TWO_GAMES, sizeof TWO_GAMES - 1, "rb");
	assert_non_null(f);
	char why[256] = "";
	carc_records *r = carc_records_open_stream(f, "two.cgn", why, sizeof why);
	assert_non_null(r);
	check_two(r);
	assert_int_equal(fseek(f, 0, SEEK_SET), 0); /* still the caller's, and open */
	assert_int_equal(fgetc(f), '[');
	fclose(f);
}

static void test_read_nothing(void **state)
{
	(void)state;
	carc_match *m = NULL;
	carc_records *r = open_text("", 0);
	assert_int_equal(carc_records_next(r, &m), CARC_END);
	assert_string_equal(carc_records_error(r), "");
	carc_records_close(r);
	r = open_text("; a comment and nothing else\n", 29);
	assert_int_equal(carc_records_next(r, &m), CARC_END);
	carc_records_close(r);

	char why[256] = "";
	assert_null(carc_records_open("/nonexistent/games.cgn", why, sizeof why));
	assert_non_null(strstr(why, "/nonexistent/games.cgn"));
	assert_null(carc_records_open(NULL, why, sizeof why));
	assert_null(carc_records_open_stream(NULL, NULL, why, sizeof why));
	assert_int_equal(carc_records_next(NULL, &m), CARC_EINVAL);
	carc_records_close(NULL);
}

static void test_read_the_map_at_a_position(void **state)
{
	(void)state;
	carc_records *r = open_text(TWO_GAMES, sizeof TWO_GAMES - 1);
	carc_match *m;
	assert_int_equal(carc_records_next(r, &m), CARC_OK);
	carc_match_free(m);
	assert_int_equal(carc_records_next(r, &m), CARC_OK);
	carc_records_close(r);

	/* the end: the start tile and four */
	assert_int_equal(carc_match_ntiles(m), 5);
	carc_tile_info ti;
	assert_int_equal(carc_match_tile(m, 0, &ti), CARC_OK);
	assert_string_equal(ti.id, "D");
	assert_int_equal(ti.turn, 0);
	assert_string_equal(ti.colour, "");
	assert_int_equal(carc_match_tile(m, 4, &ti), CARC_OK);
	assert_string_equal(ti.id, "K");
	assert_int_equal(ti.x, 0);
	assert_int_equal(ti.y, -1);
	assert_int_equal(ti.rotation, 270);
	assert_string_equal(ti.colour, "green");
	assert_int_equal(carc_match_tile(m, 5, &ti), CARC_ERANGE);
	/* red's thief, red's farmer and green's second knight stand; green's
	 * first knight went home with its city */
	assert_int_equal(carc_match_nfollowers(m), 3);

	/* after turn 2: the city it closed, scored for green */
	assert_int_equal(carc_match_seek(m, 2), CARC_OK);
	assert_int_equal(carc_match_ntiles(m), 3);
	assert_int_equal(carc_match_nfollowers(m), 1);
	carc_follower_info fo;
	assert_int_equal(carc_match_follower(m, 0, &fo), CARC_OK);
	assert_string_equal(fo.colour, "red");
	assert_string_equal(fo.role, "thief");
	assert_int_equal(fo.tile, 1);
	assert_string_equal(fo.spot, "E");
	assert_int_equal(fo.turn, 1);
	carc_feature_info fe;
	assert_int_equal(carc_match_feature(m, fo.feature, &fe), CARC_OK);
	assert_string_equal(fe.kind, "road");
	assert_int_equal(fe.followers, 1);
	assert_int_equal(fe.owners, 1); /* seat 0, red */
	assert_false(fe.complete);
	int city = -1, n = carc_match_nfeatures(m);
	for (int i = 0; i < n; i++) {
		assert_int_equal(carc_match_feature(m, i, &fe), CARC_OK);
		if (!strcmp(fe.name, "the city at N of D (0,0)"))
			city = i;
	}
	assert_true(city >= 0);
	assert_int_equal(carc_match_feature(m, city, &fe), CARC_OK);
	assert_true(fe.complete);
	assert_true(fe.scored);
	assert_int_equal(fe.points, 4);
	assert_int_equal(fe.followers, 0);
	int tiles[8];
	assert_int_equal(carc_match_feature_tiles(m, city, tiles, 8), 2);
	assert_int_equal(tiles[0], 0);
	assert_int_equal(tiles[1], 2);
	assert_int_equal(carc_match_feature_tiles(m, city, NULL, 0), 2);
	assert_int_equal(carc_match_feature(m, n, &fe), CARC_ERANGE);

	/* before any turn: the start tile alone */
	assert_int_equal(carc_match_seek(m, 0), CARC_OK);
	assert_int_equal(carc_match_ntiles(m), 1);
	assert_int_equal(carc_match_nfollowers(m), 0);
	/* the turns are the whole game's wherever the position is */
	assert_int_equal(carc_match_nturns(m), 4);
	carc_match_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_memory),
		cmocka_unit_test(test_read_gzip_memory),
		cmocka_unit_test(test_read_stream_stays_open),
		cmocka_unit_test(test_read_nothing),
		cmocka_unit_test(test_read_the_map_at_a_position),
	};
	return cmocka_run_group_tests_name("api_read", tests, NULL, NULL);
}
