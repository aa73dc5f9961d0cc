/*
 * test_split.c - where carc check -j cuts one file (cli/split.c).
 *
 * A cut must be where the reader of the whole file starts a game, with the
 * line and the number of games before it that the reader counts: the scan
 * is compared with the reader on files of many games with empty lines,
 * comment lines between games (a cut then starts at them), CR LF, a byte
 * order mark, a last line without a newline, and blocks larger than the
 * scan's. What the scan cannot know ('[' lines inside a { comment } of
 * many lines) it must not take for a cut when the comment opens on the
 * line before; other such lines are for the reader to find out
 * (tests/archive proves the output the same whatever the cuts).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/rules.h"
#include "cli/split.h"
#include "common/util.h"
#include "notation/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Game g of a file, in one of a few layouts. */
static void add_game(struct carc_buf *b, unsigned g, bool crlf)
{
	const char *nl = crlf ? "\r\n" : "\n";
	if (g % 7 == 3)
		carc_buf_printf(b, "; game %u follows%s%s{ and a note }%s", g, nl, nl, nl);
	carc_buf_printf(b, "[Event \"game %u\"]%s", g, nl);
	if (g % 5 == 1)
		carc_buf_printf(b, "  [Round \"%u\"]%s", g, nl);
	carc_buf_printf(b, "[Seats \"red green\"]%s%s", nl, nl);
	for (unsigned t = 1; t <= 3 + g % 4; t++)
		carc_buf_printf(b, "%2u. %s U %u,0 90%s%s", t, t % 2 ? "red" : "green", t,
				g % 3 == 0 && t == 2 ? " { a turn's note }" : "", nl);
	if (g % 4 == 2)
		carc_buf_printf(b, "%s%s", nl, nl);
}

struct game_start {
	uint64_t off;
	unsigned line, index;
};

/* The games of text as the reader finds them. */
static size_t read_games(const char *text, size_t len, struct game_start *out, size_t max)
{
	FILE *f = fmemopen((void *)text, len, "r");
	assert_non_null(f);
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(f, "t.cgn", cache, carc_rules_registry());
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	size_t n = 0;
	while (carc_reader_next(r, &rec, &sink) && n < max)
		out[n++] = (struct game_start){carc_reader_game_offset(r), rec.src.base_line, rec.index};
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_diag_free(&sink);
	fclose(f);
	return n;
}

/* Every cut of the scan (asked for each from the one after the last) is a
 * game the reader starts there, on that line, after that many games; and
 * the scan finds the start of every game but the first. */
static void every_cut_is_a_game(const char *text, size_t len, size_t games)
{
	struct game_start *starts = xcalloc(games + 1, sizeof *starts);
	size_t n = read_games(text, len, starts, games + 1);
	assert_int_equal(n, games);
	FILE *f = fmemopen((void *)text, len, "r");
	assert_non_null(f);
	struct carc_split_scan s;
	carc_split_scan_init(&s, f);
	struct carc_cut cut;
	uint64_t from = 1;
	size_t found = 0;
	while (carc_split_next(&s, from, &cut)) {
		assert_true(cut.off >= from);
		size_t k = 1;
		while (k < n && starts[k].off != cut.off)
			k++;
		assert_true(k < n);
		assert_int_equal(cut.line, starts[k].line);
		assert_int_equal(cut.games + 1, starts[k].index);
		found++;
		from = cut.off + 1;
	}
	assert_int_equal(found, n - 1);
	carc_split_scan_free(&s);
	fclose(f);
	free(starts);
}

static void test_split_cuts_are_games(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	for (unsigned g = 1; g <= 200; g++)
		add_game(&b, g, false);
	every_cut_is_a_game(b.data, b.len, 200);
	carc_buf_free(&b);
}

static void test_split_crlf_bom_no_last_newline(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_buf_adds(&b, "\xEF\xBB\xBF");
	for (unsigned g = 1; g <= 100; g++)
		add_game(&b, g, true);
	carc_buf_adds(&b, "[Event \"last\"]\r\n1. red U 1,0 0");
	every_cut_is_a_game(b.data, b.len, 101);
	carc_buf_free(&b);
}

/* More than the scan's block of 1 MiB, so that cuts and the lines before
 * them fall across its refills. */
static void test_split_across_blocks(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	unsigned g = 0;
	while (b.len < 3u << 20) {
		g++;
		add_game(&b, g, g % 2);
	}
	every_cut_is_a_game(b.data, b.len, g);
	carc_buf_free(&b);
}

/* A file that starts with turns: its first game has no tags, and the games
 * counted before a cut include it. */
static void test_split_first_game_without_tags(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_buf_adds(&b, "; no tags\n1. red U 1,0 0\n");
	for (unsigned g = 1; g <= 20; g++)
		add_game(&b, g, false);
	every_cut_is_a_game(b.data, b.len, 21);
	carc_buf_free(&b);
}

/* A { comment } that a turn line opens goes on over the lines after it:
 * a '[' line there is no game's start, and no cut. */
static void test_split_not_in_an_open_comment(void **state)
{
	(void)state;
	static const char text[] = "[Event \"a\"]\n1. red U 1,0 0 { a note\n[Event \"not a tag\"]\n}\n"
				   "[Event \"b\"]\n1. red U 1,0 0\n";
	FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
	struct carc_split_scan s;
	carc_split_scan_init(&s, f);
	struct carc_cut cut;
	assert_true(carc_split_next(&s, 1, &cut));
	assert_int_equal(cut.off, strstr(text, "[Event \"b\"]") - text);
	assert_int_equal(cut.line, 5);
	assert_int_equal(cut.games, 1);
	assert_false(carc_split_next(&s, cut.off + 1, &cut));
	carc_split_scan_free(&s);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_cuts_are_games),
		cmocka_unit_test(test_split_crlf_bom_no_last_newline),
		cmocka_unit_test(test_split_across_blocks),
		cmocka_unit_test(test_split_first_game_without_tags),
		cmocka_unit_test(test_split_not_in_an_open_comment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
