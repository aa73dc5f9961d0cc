/*
 * test_jsonread.c - the strict JSON reader (jsonread.c).
 *
 * Valid JSON is read as jansson reads it (surrogate pairs into UTF-8, keys
 * in their order); each thing RFC 8259 does not allow, and each cap, is
 * refused with its own message at the right line and column; and every
 * value, key and item of a document can be found back in the text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/jsonread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct first {
	unsigned line, col, n;
	char msg[256];
};

static void keep_first(void *ctx, const struct carc_diag *d)
{
	struct first *f = ctx;
	if (f->n++ == 0) {
		carc_src_position(d->src, d->off, &f->line, &f->col);
		snprintf(f->msg, sizeof f->msg, "%s", d->message);
	}
}

/* Reads len bytes of text (strlen when len is 0); *f gets the first problem. */
static struct carc_json_doc *read_text(const char *text, size_t len, struct first *f)
{
	memset(f, 0, sizeof *f);
	struct carc_src src = {"t.json", text, len ? len : strlen(text), 1};
	struct carc_diag_sink sink = {keep_first, f};
	struct carc_json_doc *d = carc_json_read(&src, CARC_E501, &sink);
	assert_int_equal(sink.errors, d ? 0 : 1);
	carc_diag_free(&sink);
	return d;
}

static void expect_refused_n(const char *text, size_t len, unsigned line, unsigned col, const char *words)
{
	struct first f;
	struct carc_json_doc *d = read_text(text, len, &f);
	if (d)
		fail_msg("accepted: %s", text);
	if (f.line != line || f.col != col || !strstr(f.msg, words))
		fail_msg("%s: got %u:%u \"%s\", expected %u:%u \"%s\"", text, f.line, f.col, f.msg, line, col, words);
}

static void expect_refused(const char *text, unsigned line, unsigned col, const char *words)
{
	expect_refused_n(text, 0, line, col, words);
}

static void test_jsonread_refuses_what_rfc8259_does_not_allow(void **state)
{
	(void)state;
	expect_refused("", 1, 1, "empty");
	expect_refused("  \n ", 2, 2, "empty");
	expect_refused("[1, 2,]", 1, 7, "trailing comma");
	expect_refused("{\"a\": 1,\n}", 2, 1, "trailing comma");
	expect_refused("{\"a\": 1, \"a\": 2}", 1, 10, "\"a\" appears twice");
	expect_refused("{\"a\": {\"b\": 1, \"b\": 2}}", 1, 16, "\"b\" appears twice");
	expect_refused("[01]", 1, 2, "leading zeros");
	expect_refused("[-01]", 1, 2, "leading zeros");
	expect_refused("[1.]", 1, 2, "'.'");
	expect_refused("[.5]", 1, 2, "'.' cannot start");
	expect_refused("[1e]", 1, 2, "exponent");
	expect_refused("[-]", 1, 2, "'-'");
	expect_refused("[+1]", 1, 2, "'+' cannot start");
	expect_refused("[NaN]", 1, 2, "'NaN' is not a JSON value");
	expect_refused("[Infinity]", 1, 2, "'Infinity' is not");
	expect_refused("[tru]", 1, 2, "'tru' is not");
	expect_refused("[truex]", 1, 6, "a ',' or ']' is expected");
	expect_refused("{\"a\": yes}", 1, 7, "'yes' is not");
	expect_refused("// c\n{}", 1, 1, "comments");
	expect_refused("{\"a\": 1 /* c */}", 1, 9, "comments");
	expect_refused("['a']", 1, 2, "double quotes");
	expect_refused("{a: 1}", 1, 2, "key is a \"string\"");
	expect_refused("{\"a\" 1}", 1, 6, "':'");
	expect_refused("{\"a\": 1} {\"b\": 2}", 1, 10, "after the end");
	expect_refused("[1 2]", 1, 4, "a ',' or ']'");
	expect_refused("[1,\n[2,\n", 3, 1, "ends inside the array opened at line 2, column 1");
	expect_refused("\"abc", 1, 1, "not closed");
	expect_refused("\"a\tb\"", 1, 3, "control character (U+0009)");
	expect_refused("\"a\\x\"", 1, 3, "'\\x' is not a JSON escape");
	expect_refused("\"\\u12G4\"", 1, 2, "four hexadecimal digits");
	expect_refused("\"\\u12\"", 1, 2, "four hexadecimal digits");
	expect_refused("[1e999999]", 1, 2, "too large");
	expect_refused("[123456789012345678901234567890]", 1, 2, "too large");
	/* the column counts characters: é is one column, two bytes */
	expect_refused("{\"é\": x}", 1, 7, "'x' is not");
	/* a byte-order mark is skipped, and positions stay in the file's bytes */
	expect_refused("\xef\xbb\xbf[1,]", 1, 5, "trailing comma"); /* the mark is a column */
}

static void test_jsonread_strings_nul_and_surrogates(void **state)
{
	(void)state;
	struct first f;
	/* U+1F600 as a surrogate pair, U+00E9 as an escape and raw, a C1 control */
	struct carc_json_doc *d = read_text("[\"\\ud83d\\ude00\", \"\\u00e9\\u00E9\", \"\xc3\xa9\", \"\xc2\x85\"]", 0, &f);
	assert_non_null(d);
	json_t *a = carc_json_root(d);
	assert_string_equal(json_string_value(json_array_get(a, 0)), "\xf0\x9f\x98\x80");
	assert_string_equal(json_string_value(json_array_get(a, 1)), "\xc3\xa9\xc3\xa9");
	assert_string_equal(json_string_value(json_array_get(a, 2)), "\xc3\xa9");
	assert_string_equal(json_string_value(json_array_get(a, 3)), "\xc2\x85");
	carc_json_free(d);
	/* NUL, whether escaped or raw, is refused at its place, never cut short */
	expect_refused("{\"name\": \"Da\\u0000vid\"}", 1, 13, "NUL");
	expect_refused_n("[\"Da\0vid\"]", 10, 1, 5, "control character (U+0000)");
	expect_refused_n("[1]\0", 4, 1, 4, "after the end");
	expect_refused("[\"\\ud83d\"]", 1, 3, "first half of a surrogate pair");
	expect_refused("[\"\\ud83dx\"]", 1, 3, "first half of a surrogate pair");
	expect_refused("[\"\\ud83d\\u0041\"]", 1, 3, "first half of a surrogate pair");
	expect_refused("[\"\\ude00\"]", 1, 3, "second half");
	/* malformed UTF-8: a lone continuation, an overlong form, a surrogate, past U+10FFFF, cut short */
	expect_refused("[\"a\x80\"]", 1, 4, "0x80 is not part of well-formed UTF-8");
	expect_refused("[\"\xc0\xaf\"]", 1, 3, "0xC0");
	expect_refused("[\"\xed\xa0\x80\"]", 1, 3, "0xED");
	expect_refused("[\"\xf4\x90\x80\x80\"]", 1, 3, "0xF4");
	expect_refused("[\"\xe2\x82\"]", 1, 3, "0xE2");
	expect_refused("[\xff]", 1, 2, "0xFF cannot start");
}

static void test_jsonread_caps_answer_at_once(void **state)
{
	(void)state;
	/* 100,000 nested '[': refused at the 65th, in well under a second */
	size_t n = 100000;
	char *deep = malloc(2 * n + 1);
	assert_non_null(deep);
	memset(deep, '[', n);
	memset(deep + n, ']', n);
	deep[2 * n] = 0;
	clock_t t0 = clock();
	expect_refused(deep, 1, CARC_JSON_MAX_DEPTH + 1, "deeper than 64");
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
	/* exactly 64 levels are fine */
	char ok[2 * CARC_JSON_MAX_DEPTH + 1];
	memset(ok, '[', CARC_JSON_MAX_DEPTH);
	memset(ok + CARC_JSON_MAX_DEPTH, ']', CARC_JSON_MAX_DEPTH);
	ok[2 * CARC_JSON_MAX_DEPTH] = 0;
	struct first f;
	struct carc_json_doc *d = read_text(ok, 0, &f);
	assert_non_null(d);
	carc_json_free(d);
	/* objects count as levels too */
	for (size_t i = 0; i < n / 5; i++)
		memcpy(deep + 5 * i, "{\"a\":", 5);
	expect_refused(deep, 1, 5 * CARC_JSON_MAX_DEPTH + 1, "deeper than 64");
	free(deep);
	/* more values than the cap: refused at the first one past it */
	size_t count = CARC_JSON_MAX_TOKENS + 1;
	char *many = malloc(2 * count + 2);
	assert_non_null(many);
	many[0] = '[';
	for (size_t i = 0; i < count; i++)
		memcpy(many + 1 + 2 * i, "0,", 2);
	many[2 * count] = ']';
	many[2 * count + 1] = 0;
	expect_refused(many, 1, 2 * (CARC_JSON_MAX_TOKENS - 1) + 2, "more than 1048576 values");
	free(many);
}

static void test_jsonread_size_cap(void **state)
{
	(void)state;
	size_t len = CARC_JSON_MAX_BYTES + 2;
	char *big = malloc(len);
	assert_non_null(big);
	memset(big, ' ', len);
	big[0] = '1';
	struct first f;
	assert_null(read_text(big, len, &f));
	assert_non_null(strstr(f.msg, "longer than 64 MiB"));
	/* just at the cap is fine */
	struct carc_json_doc *d = read_text(big, CARC_JSON_MAX_BYTES, &f);
	assert_non_null(d);
	carc_json_free(d);
	free(big);
}

/* The span of v as text. */
static void expect_span(const char *text, struct carc_json_span at, const char *want)
{
	if (at.len != strlen(want) || memcmp(text + at.off, want, at.len))
		fail_msg("span %zu+%zu is \"%.*s\", expected \"%s\"", at.off, at.len, (int)at.len, text + at.off, want);
}

static void test_jsonread_finds_every_node_in_the_text(void **state)
{
	(void)state;
	const char *text = "{\"b\": [true, null, 1.5, {\"x\": false}, \"s\\n\"],\n"
			   " \"a\": {\"k\": null, \"j\": -12}, \"c\": [[], {}], \"é\": 7}";
	struct first f;
	struct carc_json_doc *d = read_text(text, 0, &f);
	assert_non_null(d);
	json_t *root = carc_json_root(d);
	struct carc_json_span at, key;
	assert_true(carc_json_where(d, root, &at));
	expect_span(text, at, "{");
	/* keys in their order, each found with its value */
	const char *order[] = {"b", "a", "c", "é"};
	const char *values[] = {"[", "{", "[", "7"};
	size_t i = 0;
	const char *k;
	json_t *v;
	json_object_foreach(root, k, v) {
		assert_string_equal(k, order[i]);
		char quoted[16];
		snprintf(quoted, sizeof quoted, "\"%s\"", k);
		assert_true(carc_json_member_where(d, root, k, &key, &at));
		expect_span(text, key, quoted);
		expect_span(text, at, values[i]);
		assert_true(carc_json_where(d, v, &at));
		expect_span(text, at, values[i]);
		i++;
	}
	assert_int_equal(i, 4);
	json_t *b = json_object_get(root, "b");
	const char *items[] = {"true", "null", "1.5", "{", "\"s\\n\""};
	for (i = 0; i < 5; i++) {
		assert_true(carc_json_item_where(d, b, i, &at));
		expect_span(text, at, items[i]);
	}
	assert_false(carc_json_item_where(d, b, 5, &at));
	/* true, false and null are shared by jansson: found through their container only */
	assert_false(carc_json_where(d, json_array_get(b, 0), &at));
	assert_true(carc_json_where(d, json_array_get(b, 2), &at));
	expect_span(text, at, "1.5");
	json_t *x = json_array_get(b, 3);
	assert_true(carc_json_member_where(d, x, "x", &key, &at));
	expect_span(text, at, "false");
	json_t *a = json_object_get(root, "a");
	assert_true(carc_json_member_where(d, a, "j", NULL, &at));
	expect_span(text, at, "-12");
	assert_true(carc_json_where(d, json_object_get(a, "j"), &at));
	expect_span(text, at, "-12");
	assert_false(carc_json_member_where(d, a, "zz", &key, &at));
	assert_false(carc_json_member_where(d, b, "k", &key, &at));
	json_t *c = json_object_get(root, "c");
	assert_true(carc_json_item_where(d, c, 1, &at));
	expect_span(text, at, "{");
	assert_int_equal(at.off, strstr(text, "{}") - text);
	/* a node of another document is not found */
	json_t *other = json_integer(3);
	assert_false(carc_json_where(d, other, &at));
	json_decref(other);
	assert_string_equal(carc_json_type_name(b), "an array");
	assert_string_equal(carc_json_type_name(json_array_get(b, 1)), "null");
	carc_json_free(d);
	/* a scalar root, with a byte-order mark */
	d = read_text("\xef\xbb\xbf true ", 0, &f);
	assert_non_null(d);
	assert_true(carc_json_where(d, carc_json_root(d), &at));
	assert_int_equal(at.off, 4);
	assert_int_equal(at.len, 4);
	carc_json_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonread_refuses_what_rfc8259_does_not_allow),
		cmocka_unit_test(test_jsonread_strings_nul_and_surrogates),
		cmocka_unit_test(test_jsonread_caps_answer_at_once),
		cmocka_unit_test(test_jsonread_size_cap),
		cmocka_unit_test(test_jsonread_finds_every_node_in_the_text),
	};
	return cmocka_run_group_tests_name("jsonread", tests, NULL, NULL);
}
