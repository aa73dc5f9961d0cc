/*
 * test_gameid.c - a game's id (gameid.c).
 *
 * The id is what ties a line of output to its record across files, splits
 * and machines, and what --dedupe trusts, so these tests pin both halves of
 * its promise: what must not change it (line endings, spaces, comments,
 * case, the order of tags and claims, turn numbers left out, the carc fmt
 * form, where the game sits in its file) and what must (each field of a
 * tag or a turn). A pinned id proves it is the same on every machine and
 * from one version to the next; a thousand generated games prove that
 * different games get different ids.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "notation/format.h"
#include "notation/gameid.h"
#include "import/gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char club[] = "[Event \"Club night\"]\n"
			   "[Date \"2026-11-20\"]\n"
			   "[Seats \"red green\"]\n"
			   "[Red \"Anna\"]\n"
			   "[Green \"Boris\"]\n"
			   "\n"
			   "1. red   U -1,0 90   thief E\n"
			   "2. green E 0,1 180   knight S     ; closes the start tile's city: quick points\n"
			   "3. red   V 1,0 0     farmer NNE   = red 0, green 4\n"
			   "4. green K 0,-1 270  knight W\n";

/* The id of the first game of text, as hex. */
static const char *id_of(const char *text, char out[CARC_GAME_ID_HEX + 1])
{
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	assert_true(carc_parse_string(text, strlen(text), "t.cgn", cache, carc_rules_registry(), &rec, &sink));
	carc_game_id_hex(carc_game_id(&rec), out);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
	return out;
}

static void assert_same_id(const char *a, const char *b)
{
	char x[CARC_GAME_ID_HEX + 1], y[CARC_GAME_ID_HEX + 1];
	assert_string_equal(id_of(a, x), id_of(b, y));
}

static void assert_other_id(const char *a, const char *b)
{
	char x[CARC_GAME_ID_HEX + 1], y[CARC_GAME_ID_HEX + 1];
	assert_string_not_equal(id_of(a, x), id_of(b, y));
}

/* club with the first occurrence of from replaced by to. */
static char *edited(const char *from, const char *to)
{
	const char *at = strstr(club, from);
	assert_non_null(at);
	size_t n = strlen(club) - strlen(from) + strlen(to) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%.*s%s%s", (int)(at - club), club, to, at + strlen(from));
	return s;
}

static void assert_edit_keeps(const char *from, const char *to)
{
	char *s = edited(from, to);
	assert_same_id(club, s);
	free(s);
}

static void assert_edit_changes(const char *from, const char *to)
{
	char *s = edited(from, to);
	assert_other_id(club, s);
	free(s);
}

static void test_gameid_pinned_and_hex(void **state)
{
	(void)state;
	char hex[CARC_GAME_ID_HEX + 1];
	id_of(club, hex);
	assert_int_equal(strlen(hex), CARC_GAME_ID_HEX);
	assert_int_equal(strspn(hex, "0123456789abcdef"), CARC_GAME_ID_HEX);
	/* the same on every machine and in every version (ID_VERSION 1): if
	 * this changes, every id ever printed changes with it */
	assert_string_equal(hex, "a04aba36766a989c686645b4bb38855c");
	struct carc_game_id id = {UINT64_C(0x0123456789abcdef), UINT64_C(0xfedcba9876543210)};
	assert_string_equal(carc_game_id_hex(id, hex), "0123456789abcdeffedcba9876543210");
}

static void test_gameid_layout_does_not_count(void **state)
{
	(void)state;
	/* line endings */
	char crlf[sizeof club * 2], *p = crlf;
	for (const char *s = club; *s; s++) {
		if (*s == '\n')
			*p++ = '\r';
		*p++ = *s;
	}
	*p = '\0';
	assert_same_id(club, crlf);
	/* spaces, comments, case, numbers left out, tag and claim order */
	assert_same_id(club, "; a club night\n"
			     "[Seats \"RED,  Green\"]\n"
			     "  [event   \"Club night\"]   ; where\n"
			     "[GREEN \"Boris\"] {the winner}\n"
			     "[Date \"2026-11-20\"]\n"
			     "[red \"Anna\"]\n"
			     "red U -1,0 90 Thief e\n"
			     "{ several\n lines }  green\tE 0,1 180 knight s\n"
			     "3. Red V 1,0 0 farmer nne =green 4,red 0 ; claims\n"
			     "GREEN K 0,-1 270 KNIGHT W\n");
	/* where it sits in its file: the second game of one */
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	char *two = edited("[Event", "[Event \"Other\"]\n\n1. red U -1,0 90\n\n[Event");
	FILE *f = fmemopen(two, strlen(two), "r");
	struct carc_reader *r = carc_reader_new(f, "two.cgn", cache, carc_rules_registry());
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	assert_true(carc_reader_next(r, &rec, &sink));
	assert_true(carc_reader_next(r, &rec, &sink));
	char x[CARC_GAME_ID_HEX + 1], y[CARC_GAME_ID_HEX + 1];
	assert_string_equal(carc_game_id_hex(carc_game_id(&rec), x), id_of(club, y));
	carc_reader_free(r);
	fclose(f);
	free(two);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
}

static void test_gameid_fmt_keeps_it(void **state)
{
	(void)state;
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	const char *odd = "[green \"Boris\"][Rules \"BASE\"][Seats \"Red Green\"][Result \"green 4, red 0\"]\n"
			  "red U -1,0 90 thief E\ngreen E 0,1 180 ; c\nred D discard\n";
	assert_true(carc_parse_string(odd, strlen(odd), "t.cgn", cache, carc_rules_registry(), &rec, &sink));
	struct carc_buf canon = {0};
	carc_format_record(&rec, &canon);
	char x[CARC_GAME_ID_HEX + 1], y[CARC_GAME_ID_HEX + 1];
	carc_game_id_hex(carc_game_id(&rec), x);
	assert_string_not_equal(carc_buf_cstr(&canon), odd);
	assert_string_equal(x, id_of(carc_buf_cstr(&canon), y));
	carc_buf_free(&canon);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
}

static void test_gameid_content_counts(void **state)
{
	(void)state;
	assert_edit_changes("Club night", "Club Night");       /* a tag's value, case included */
	assert_edit_changes("[Date \"2026-11-20\"]\n", "");   /* a tag left out */
	assert_edit_changes("[Red", "[Venue \"x\"]\n[Red");    /* an unknown tag */
	assert_edit_changes("red green", "green red");         /* the order of seats */
	assert_edit_changes("U -1,0 90", "U -1,0 270");        /* rotation */
	assert_edit_changes("U -1,0 90", "U 0,-1 90");         /* place */
	assert_edit_changes("E 0,1", "F 0,1");                 /* tile */
	assert_edit_changes("thief E", "thief W");             /* spot */
	assert_edit_changes("thief E", "farmer E");            /* role */
	assert_edit_changes("   thief E", "");                 /* no deployment */
	assert_edit_changes("green 4", "green 5");             /* a claim */
	assert_edit_changes("2. green", "7. green");           /* a wrong number written stays */
	assert_edit_changes("4. green K 0,-1 270  knight W\n", ""); /* a turn less */
	/* and what must not */
	assert_edit_keeps("4. green", "green");
	assert_edit_keeps("thief E", "THIEF e");
	assert_edit_keeps("Anna", "Anna");
}

static void test_gameid_bad_lines_by_text(void **state)
{
	(void)state;
	/* a line with a syntax error counts by its text, blanks collapsed */
	char *a = edited("4. green K 0,-1 270", "4. green K 0,-1  275");
	char *b = edited("4. green K 0,-1 270", "4.  green\tK 0,-1 275 ");
	char *c = edited("4. green K 0,-1 270", "4. green K 0,-1 276");
	assert_same_id(a, b);
	assert_other_id(a, c);
	free(a);
	free(b);
	free(c);
}

/* A tournament's tags (Board, Match, Format, Time, Termination, Winner)
 * count as known tags: by meaning, wherever they are written; a game
 * without them keeps its id (pinned above, and golden ids everywhere); a
 * game without turns (a result alone) has an id like any other. */
static void test_gameid_tournament_tags(void **state)
{
	(void)state;
	const char *a = "[Event \"Cup\"]\n[Board \"2\"]\n[Seats \"red green\"]\n[Termination \"no-show\"]\n"
			"[Winner \"red\"]\n";
	const char *b = "[Event \"Cup\"]\n[winner \"RED\"]\n[termination \"No-Show\"]\n[Seats \"red, green\"]\n"
			"[BOARD \"2\"]\n";
	assert_same_id(a, b);
	assert_other_id(a, "[Event \"Cup\"]\n[Board \"3\"]\n[Seats \"red green\"]\n[Termination \"no-show\"]\n"
			   "[Winner \"red\"]\n");
	assert_other_id(a, "[Event \"Cup\"]\n[Board \"2\"]\n[Seats \"red green\"]\n[Termination \"no-show\"]\n"
			   "[Winner \"green\"]\n");
	/* each tag under a number of its own: the same value under two names differs */
	assert_other_id("[Event \"Cup\"]\n[Match \"2\"]\n[Seats \"red\"]\n[Termination \"bye\"]\n",
			"[Event \"Cup\"]\n[Board \"2\"]\n[Seats \"red\"]\n[Termination \"bye\"]\n");
	assert_other_id("[Event \"Cup\"]\n[Time \"10:00\"]\n[Seats \"red\"]\n[Termination \"bye\"]\n",
			"[Event \"Cup\"]\n[Format \"10:00\"]\n[Seats \"red\"]\n[Termination \"bye\"]\n");
}

static int cmp_id(const void *a, const void *b) { return memcmp(a, b, sizeof(struct carc_game_id)); }

static void test_gameid_generated_games_differ(void **state)
{
	(void)state;
	const char *why = NULL;
	struct carc_gen_opts o = {.rules = carc_ruleset_get(CARC_RULES_BASE), .deploy_rate = 0.5, .claim_rate = 0.1,
				  .seed = 23};
	struct carc_gen *gen = carc_gen_new(&o, &why);
	assert_non_null(gen);
	enum { N = 1000 };
	struct carc_game_id *ids = calloc(N, sizeof *ids);
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	struct carc_buf text = {0};
	for (int i = 0; i < N; i++) {
		carc_buf_reset(&text);
		carc_gen_game(gen, (uint64_t)i, &text);
		assert_true(carc_parse_string(text.data, text.len, "g.cgn", cache, carc_rules_registry(), &rec, &sink));
		ids[i] = carc_game_id(&rec);
	}
	qsort(ids, N, sizeof *ids, cmp_id);
	for (int i = 1; i < N; i++)
		assert_true(ids[i - 1].hi != ids[i].hi || ids[i - 1].lo != ids[i].lo);
	carc_buf_free(&text);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
	carc_gen_free(gen);
	free(ids);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gameid_pinned_and_hex),
		cmocka_unit_test(test_gameid_layout_does_not_count),
		cmocka_unit_test(test_gameid_fmt_keeps_it),
		cmocka_unit_test(test_gameid_content_counts),
		cmocka_unit_test(test_gameid_bad_lines_by_text),
		cmocka_unit_test(test_gameid_tournament_tags),
		cmocka_unit_test(test_gameid_generated_games_differ),
	};
	return cmocka_run_group_tests_name("gameid", tests, NULL, NULL);
}
