/*
 * test_diag.c - the diagnostics module (diag.c) and its table (diag_codes.h).
 *
 * Every message carc prints goes through this module, and the promise to
 * users is that each one has a code, a severity, an entry in the notation's
 * table and an input that triggers it. The first tests hold the table to
 * that promise: every code in diag_codes.h has a row in notation/cgn.md and
 * a tests/diag/CODE.cgn that expects it (tests/diag/run.sh then proves the
 * input really triggers it). The rest pin how a message is located and
 * shown: line and column counted in characters from a game's first line,
 * malformed bytes counted and shown safely, and the GNU format with the
 * source line and a caret under the token, also for a very long line.
 * Paths are relative to the repository root, where make check runs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct carc_buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		carc_buf_add(&b, chunk, n);
	fclose(f);
	carc_buf_cstr(&b);
	return b.data;
}

static const char *severity_word(enum carc_severity s)
{
	return s == CARC_SEV_ERROR ? "error" : s == CARC_SEV_WARNING ? "warning" : "note";
}

/* The table in notation/cgn.md and diag_codes.h list the same codes. */
static void test_diag_every_code_in_the_spec_table(void **state)
{
	(void)state;
	char *spec = read_all("notation/cgn.md");
	assert_non_null(spec);
	int missing = 0;
	for (int c = 0; c < CARC_CODE_COUNT; c++) {
		/* | E201 | error | cell-taken | ... | ... | */
		char row[128];
		snprintf(row, sizeof row, "\n| %s | %s | %s | ", carc_code_str(c), severity_word(carc_code_severity(c)),
			 carc_code_name(c));
		if (!strstr(spec, row)) {
			fprintf(stderr, "notation/cgn.md has no row '%s'\n", row + 1);
			missing++;
		}
	}
	/* and every row of a code is a code carc has */
	for (const char *p = strstr(spec, "\n| "); p; p = strstr(p + 1, "\n| ")) {
		char code[8] = "";
		if (sscanf(p, "\n| %7s |", code) == 1 && strlen(code) == 4 && (code[0] == 'E' || code[0] == 'W') &&
		    code[1] >= '0' && code[1] <= '9' && carc_code_lookup(code) == CARC_CODE_COUNT) {
			fprintf(stderr, "notation/cgn.md has a row for %s, which is not a code\n", code);
			missing++;
		}
	}
	free(spec);
	assert_int_equal(missing, 0);
}

static void test_diag_every_code_has_an_input(void **state)
{
	(void)state;
	int missing = 0;
	for (int c = 0; c < CARC_CODE_COUNT; c++) {
		char path[64], want[64];
		snprintf(path, sizeof path, "tests/diag/%s.cgn", carc_code_str(c));
		snprintf(want, sizeof want, "; expect: %s", carc_code_str(c));
		char *text = read_all(path);
		if (!text || !strstr(text, want)) {
			fprintf(stderr, "%s is missing, or does not say '%s'\n", path, want);
			missing++;
		}
		free(text);
	}
	assert_int_equal(missing, 0);
}

static void test_diag_codes_unique_and_found_by_name(void **state)
{
	(void)state;
	for (int c = 0; c < CARC_CODE_COUNT; c++) {
		const char *s = carc_code_str(c);
		assert_int_equal(strlen(s), 4);
		assert_int_equal(carc_code_lookup(s), c);
		/* W codes are warnings; E codes are errors, or notes */
		if (s[0] == 'W')
			assert_int_equal(carc_code_severity(c), CARC_SEV_WARNING);
		else
			assert_int_not_equal(carc_code_severity(c), CARC_SEV_WARNING);
		assert_true(strlen(carc_code_summary(c)) > 10);
		for (int d = 0; d < c; d++) {
			assert_string_not_equal(carc_code_str(d), s);
			assert_string_not_equal(carc_code_name(d), carc_code_name(c));
		}
	}
	assert_int_equal(carc_code_lookup("E999"), CARC_CODE_COUNT);
	assert_string_equal(carc_code_name(CARC_E201), "cell-taken");
}

static void test_diag_line_and_column(void **state)
{
	(void)state;
	static const char text[] = "[Event \"x\"]\r\n"       /* 10 */
				   "1. red U\t0,0 90\n"        /* 11 */
				   "; Ren\xc3\xa9" "e \xe9 x\n"; /* 12: é is 2 bytes, then a lone Latin-1 byte */
	struct carc_src src = {"t.cgn", text, sizeof text - 1, 10};
	unsigned line, col;
	carc_src_position(&src, 0, &line, &col);
	assert_int_equal(line, 10);
	assert_int_equal(col, 1);
	carc_src_position(&src, 12, &line, &col); /* the LF of CR LF */
	assert_int_equal(line, 10);
	assert_int_equal(col, 13);
	const char *u = strchr(text, 'U');
	carc_src_position(&src, (size_t)(u - text), &line, &col);
	assert_int_equal(line, 11);
	assert_int_equal(col, 8);
	carc_src_position(&src, (size_t)(u - text) + 2, &line, &col); /* after the tab: a tab is one column */
	assert_int_equal(col, 10);
	const char *e = strstr(text, "e \xe9");
	carc_src_position(&src, (size_t)(e - text), &line, &col); /* after é: one column for two bytes */
	assert_int_equal(line, 12);
	assert_int_equal(col, 7);
	carc_src_position(&src, (size_t)(e - text) + 4, &line, &col); /* the lone byte was one column */
	assert_int_equal(col, 11);
	carc_src_position(&src, sizeof text + 100, &line, &col); /* past the end: the end */
	assert_int_equal(line, 13);
	assert_int_equal(col, 1);
}

static void test_diag_utf8_length(void **state)
{
	(void)state;
	assert_int_equal(carc_utf8_len("\xc3\xa9", 2), 2);
	assert_int_equal(carc_utf8_len("\xe2\x82\xac", 3), 3);        /* the euro sign */
	assert_int_equal(carc_utf8_len("\xf0\x9f\x8e\xb2", 4), 4);    /* a die */
	assert_int_equal(carc_utf8_len("\xc3\xa9", 1), 0);            /* cut short */
	assert_int_equal(carc_utf8_len("\xc0\xaf", 2), 0);            /* overlong */
	assert_int_equal(carc_utf8_len("\xe0\x80\xaf", 3), 0);        /* overlong */
	assert_int_equal(carc_utf8_len("\xed\xa0\x80", 3), 0);        /* a surrogate */
	assert_int_equal(carc_utf8_len("\xf4\x90\x80\x80", 4), 0);    /* above U+10FFFF */
	assert_int_equal(carc_utf8_len("\xa9", 1), 0);                /* a lone continuation byte */
	assert_int_equal(carc_utf8_len("\xc3(", 2), 0);
	assert_int_equal(carc_utf8_len("\xc2\x9b", 2), 0);            /* U+009B, a C1 control */
	assert_int_equal(carc_utf8_len("\xc2\xa0", 2), 2);            /* U+00A0, no-break space */
}

/* Formats one diagnostic of text at [off, off + len). */
static char *format(const char *text, unsigned base_line, enum carc_code code, size_t off, size_t len,
		    const char *message, bool color)
{
	struct carc_src src = {"club.cgn", text, strlen(text), base_line};
	struct carc_diag d = {code, carc_code_severity(code), &src, off, len, message};
	struct carc_buf out = {0};
	carc_diag_format(&out, &d, color);
	carc_buf_cstr(&out);
	return out.data;
}

static void test_diag_gnu_format_with_caret(void **state)
{
	(void)state;
	static const char text[] = "[Seats \"red green\"]\n\n3. red U 0,0 90\n4. green E 0,1 180\n";
	size_t off = strstr(text, "0,0") - text;
	char *s = format(text, 7, CARC_E201, off, 3, "turn 3, red: cell 0,0 already holds the start tile", false);
	assert_string_equal(s, "club.cgn:9:10: error[E201]: turn 3, red: cell 0,0 already holds the start tile\n"
			       " 9 | 3. red U 0,0 90\n"
			       "   |          ^~~\n");
	free(s);

	s = format(text, 1, CARC_W001, strstr(text, "4.") - text, 1, "game 1 is unfinished", false);
	assert_string_equal(s, "club.cgn:4:1: warning[W001]: game 1 is unfinished\n"
			       " 4 | 4. green E 0,1 180\n"
			       "   | ^\n");
	free(s);

	/* no place: the message alone */
	struct carc_diag d = {CARC_E001, CARC_SEV_ERROR, NULL, 0, 0, "x.cgn: cannot open: No such file or directory"};
	struct carc_buf out = {0};
	carc_diag_format(&out, &d, false);
	assert_string_equal(carc_buf_cstr(&out), "error[E001]: x.cgn: cannot open: No such file or directory\n");
	carc_buf_free(&out);

	/* colour: the same words with ANSI escapes around them */
	s = format(text, 7, CARC_E201, off, 3, "m", true);
	assert_non_null(strstr(s, "\033[1;31merror[E201]:\033[0m m\n"));
	assert_non_null(strstr(s, "\033[1;31m^~~\033[0m\n"));
	free(s);
}

static void test_diag_caret_under_characters_not_bytes(void **state)
{
	(void)state;
	/* é is two bytes and one column; the lone \xe9 byte is shown as '?';
	 * a tab and a control character are shown as blanks */
	static const char text[] = "[Red \"Ren\xc3\xa9" "e \xe9\"]\t\x01 x\n";
	size_t off = strchr(text, 'x') - text;
	char *s = format(text, 1, CARC_E005, off, 1, "m", false);
	assert_string_equal(s, "club.cgn:1:19: error[E005]: m\n"
			       " 1 | [Red \"Ren\xc3\xa9" "e ?\"]   x\n"
			       "   |                   ^\n");
	free(s);
	off = strchr(text, '\xc3') - text;
	s = format(text, 1, CARC_E005, off, 5, "m", false); /* 5 bytes: é, e, blank, \xe9: 4 characters */
	assert_non_null(strstr(s, "\n   |          ^~~~\n")); /* column 10 */
	free(s);
}

static void test_diag_long_line_shows_a_window(void **state)
{
	(void)state;
	size_t n = 5000;
	char *text = malloc(n + 32);
	memset(text, 'x', n);
	memcpy(text + 3000, "BAD", 3);
	strcpy(text + n, "\nnext line\n");
	char *s = format(text, 1, CARC_E028, 3000, 3, "m", false);
	assert_true(strncmp(s, "club.cgn:1:3001: error[E028]: m\n 1 | ...", 40) == 0);
	/* the window is short, and the caret sits under BAD */
	char *src_line = strchr(s, '\n') + 1;
	char *caret_line = strchr(src_line, '\n') + 1;
	assert_true(strlen(src_line) < 400);
	const char *bad = strstr(src_line, "BAD");
	const char *caret = strchr(caret_line, '^');
	assert_non_null(bad);
	assert_non_null(caret);
	assert_int_equal(bad - src_line, caret - caret_line);
	assert_true(strncmp(caret, "^~~\n", 4) == 0);
	free(s);
	free(text);
}

struct count_ctx {
	int calls;
	char last[128];
};

static void remember(void *ctx, const struct carc_diag *d)
{
	struct count_ctx *c = ctx;
	c->calls++;
	snprintf(c->last, sizeof c->last, "%s %s", carc_code_str(d->code), d->message);
}

static void test_diag_sink_counts_and_formats_the_message(void **state)
{
	(void)state;
	struct count_ctx ctx = {0};
	struct carc_diag_sink sink = {remember, &ctx};
	carc_diag_report(&sink, CARC_E022, NULL, 0, 0, "'%s' is not a tile of tile set %s", "Z", "base");
	carc_diag_report(&sink, CARC_W001, NULL, 0, 0, "unfinished");
	carc_diag_report(&sink, CARC_E022, NULL, 0, 0, "again");
	assert_int_equal(ctx.calls, 3);
	assert_string_equal(ctx.last, "E022 again");
	assert_int_equal(sink.errors, 2);
	assert_int_equal(sink.warnings, 1);
	assert_int_equal(sink.counts[CARC_E022], 2);
	assert_int_equal(sink.counts[CARC_W001], 1);
	carc_diag_free(&sink);
	/* without a callback the diagnostics are only counted */
	struct carc_diag_sink quiet = {0};
	carc_diag_report(&quiet, CARC_E201, NULL, 0, 0, "x");
	assert_int_equal(quiet.errors, 1);
	assert_int_equal(quiet.counts[CARC_E201], 1);
	carc_diag_free(&quiet);
}

/* Appends "CODE message;" for each diagnostic. */
static void append(void *ctx, const struct carc_diag *d)
{
	carc_buf_printf(ctx, "%s %s;", carc_code_str(d->code), d->message);
}

/* Held messages come out by line, those of one line in the order they
 * came; a message about another text flushes what is held before it. */
static void test_diag_held_messages_come_in_line_order(void **state)
{
	(void)state;
	static const char text[] = "[Seats \"red green\"]\n1. red U -1,0 90\n2. green E 0,1 180\n";
	struct carc_src game = {"g.cgn", text, sizeof text - 1, 1};
	struct carc_src other = {"tiles.yaml", "a: b\n", 5, 1};
	struct carc_buf out = {0};
	struct carc_diag_sink sink = {append, &out};
	carc_diag_hold(&sink, &game);
	carc_diag_report(&sink, CARC_E026, &game, 50, 1, "line 3");
	carc_diag_report(&sink, CARC_E209, &game, 25, 1, "line 2, first");
	carc_diag_report(&sink, CARC_W001, &game, 20, 1, "line 2, second");
	carc_diag_report(&sink, CARC_E007, &game, 8, 1, "line 1");
	assert_string_equal(carc_buf_cstr(&out), ""); /* held */
	assert_int_equal(sink.errors, 3);             /* but counted */
	carc_diag_flush(&sink);
	assert_string_equal(carc_buf_cstr(&out), "E007 line 1;E209 line 2, first;W001 line 2, second;E026 line 3;");
	carc_buf_reset(&out);
	carc_diag_report(&sink, CARC_E212, &game, 40, 1, "held");
	carc_diag_report(&sink, CARC_E103, &other, 0, 1, "tile set");
	carc_diag_report(&sink, CARC_E020, &game, 21, 1, "after");
	carc_diag_flush(&sink);
	carc_diag_flush(&sink); /* nothing left */
	assert_string_equal(carc_buf_cstr(&out), "E212 held;E103 tile set;E020 after;");
	carc_diag_free(&sink);
	carc_buf_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag_every_code_in_the_spec_table),
		cmocka_unit_test(test_diag_every_code_has_an_input),
		cmocka_unit_test(test_diag_codes_unique_and_found_by_name),
		cmocka_unit_test(test_diag_line_and_column),
		cmocka_unit_test(test_diag_utf8_length),
		cmocka_unit_test(test_diag_gnu_format_with_caret),
		cmocka_unit_test(test_diag_caret_under_characters_not_bytes),
		cmocka_unit_test(test_diag_long_line_shows_a_window),
		cmocka_unit_test(test_diag_sink_counts_and_formats_the_message),
		cmocka_unit_test(test_diag_held_messages_come_in_line_order),
	};
	return cmocka_run_group_tests_name("diag", tests, NULL, NULL);
}
