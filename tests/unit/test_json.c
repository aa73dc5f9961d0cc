/*
 * test_json.c - the JSON writer: string escaping and the emitter's numbers.
 *
 * carc_json_string writes straight into its buffer, a word of 8 plain bytes
 * at a time and a chunk of the input at a time; here its output is pinned
 * down byte for byte, on each kind of byte (plain, quote, backslash,
 * newline and tab, other controls, DEL, C1 controls, UTF-8 of each length,
 * bytes that are not well-formed UTF-8) at every offset of a word, and on random strings of every
 * length up to well past a chunk, against a plain writer that takes a byte
 * at a time (the rules of RFC 8259, as json.h states them).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/diag.h"
#include "output/emit.h"
#include "common/decimal.h"
#include "common/json.h"
#include "json_strict.h"

/* The reference: one byte at a time, with snprintf. */
static void reference(struct carc_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	char tmp[8];
	carc_buf_addc(out, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = p[i];
		size_t n;
		if (c == '"' || c == '\\') {
			snprintf(tmp, sizeof tmp, "\\%c", c);
			carc_buf_adds(out, tmp);
			i++;
		} else if (c == '\n') {
			carc_buf_adds(out, "\\n");
			i++;
		} else if (c == '\t') {
			carc_buf_adds(out, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(tmp, sizeof tmp, "\\u%04x", c);
			carc_buf_adds(out, tmp);
			i++;
		} else if (c < 0x80) {
			carc_buf_addc(out, (char)c);
			i++;
		} else if (c == 0xc2 && i + 1 < len && p[i + 1] < 0xa0 && p[i + 1] >= 0x80) {
			snprintf(tmp, sizeof tmp, "\\u%04x", p[i + 1]);
			carc_buf_adds(out, tmp);
			i += 2;
		} else if ((n = carc_utf8_len((const char *)p + i, len - i)) != 0) {
			carc_buf_add(out, p + i, n);
			i += n;
		} else {
			carc_buf_adds(out, "\\ufffd");
			i++;
		}
	}
	carc_buf_addc(out, '"');
}

/* carc_json_string of s[0..len), appended to a buffer that already holds
 * some text, equals the reference, and the buffer stays NUL-terminated. */
static void assert_escapes_like_reference(const char *s, size_t len)
{
	struct carc_buf got = {0}, want = {0};
	carc_buf_adds(&got, "[1,");
	carc_buf_adds(&want, "[1,");
	carc_json_string(&got, s, len);
	reference(&want, s, len);
	assert_int_equal(got.len, want.len);
	assert_memory_equal(got.data, want.data, want.len);
	assert_int_equal(got.data[got.len], '\0');
	carc_buf_addc(&got, ']');
	size_t at;
	assert_null(json_strict_check(got.data, got.len, &at));
	carc_buf_free(&got);
	carc_buf_free(&want);
}

static char *json_of(const char *s, size_t len)
{
	struct carc_buf b = {0};
	carc_json_string(&b, s, len);
	return b.data;
}

static void test_json_escapes_each_kind_of_byte(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} cases[] = {
		{"", 0, "\"\""},
		{"knight", 6, "\"knight\""},
		{"say \"hi\"", 8, "\"say \\\"hi\\\"\""},
		{"a\\b", 3, "\"a\\\\b\""},
		{"1\n2\t3", 5, "\"1\\n2\\t3\""},
		{"\r\x01\x1f\x7f", 4, "\"\\u000d\\u0001\\u001f\\u007f\""},
		{"nul\0in", 6, "\"nul\\u0000in\""},
		{"caf\xc3\xa9", 5, "\"caf\xc3\xa9\""},                     /* 2 bytes */
		{"\xe2\x82\xac 5", 5, "\"\xe2\x82\xac 5\""},               /* 3 bytes */
		{"\xf0\x9f\x82\xa1", 4, "\"\xf0\x9f\x82\xa1\""},           /* 4 bytes */
		{"\xc3", 1, "\"\\ufffd\""},                                /* cut short */
		{"\xc3(", 2, "\"\\ufffd(\""},                              /* no continuation */
		{"\xc0\xaf", 2, "\"\\ufffd\\ufffd\""},                     /* overlong lead */
		{"\xf5\x80\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* past U+10FFFF */
		{"\x80x", 2, "\"\\ufffdx\""},                              /* a lone continuation */
		{"\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\""},              /* overlong, 3 bytes */
		{"\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\""},              /* a surrogate */
		{"\xf4\x90\x80\x80", 4, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""}, /* U+110000 */
		{"\xc2\x85|\xc2\x9f|\xc2\xa0", 8, "\"\\u0085|\\u009f|\xc2\xa0\""}, /* C1 controls; NBSP */
		{"12345678\"abcdefgh", 17, "\"12345678\\\"abcdefgh\""},    /* words around a quote */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = json_of(cases[i].in, cases[i].len);
		assert_string_equal(got, cases[i].out);
		free(got);
		assert_escapes_like_reference(cases[i].in, cases[i].len);
	}
}

/* Each special byte at each offset of the first two words of a string of
 * plain bytes, for lengths around a word: the words that hold it are
 * written a byte at a time, the others as words. */
static void test_json_special_byte_at_every_offset(void **state)
{
	(void)state;
	static const unsigned char specials[] = {'"', '\\', '\n', '\t', 0x00, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xc3, 0xff};
	char s[40];
	for (size_t len = 1; len <= 24; len++)
		for (size_t at = 0; at < len; at++)
			for (size_t k = 0; k < sizeof specials; k++) {
				for (size_t i = 0; i < len; i++)
					s[i] = (char)('a' + i % 26);
				s[at] = (char)specials[k];
				assert_escapes_like_reference(s, len);
			}
}

/* Random strings, mostly plain with a few bytes of every kind, of every
 * length up to past two chunks (4,096 bytes each): UTF-8 characters cross
 * the chunks' ends. */
static void test_json_random_strings_match_reference(void **state)
{
	(void)state;
	static const char *const pieces[] = {"\"", "\\", "\n", "\t", "\x01", "\x7f", "\xc3\xa9", "\xe2\x82\xac",
					     "\xf0\x9f\x82\xa1", "\xc3", "\xff", "\xe2\x82", "\xc2\x85", "\xed\xa0\x80"};
	enum { MAX = 9000 };
	char *s = malloc(MAX + 8);
	assert_non_null(s);
	unsigned long x = 12345;
	for (int round = 0; round < 600; round++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		size_t len = round < 300 ? (size_t)round : (size_t)(x >> 33) % MAX;
		size_t n = 0;
		while (n < len) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			unsigned r = (unsigned)(x >> 40);
			if (r % 16 == 0) {
				const char *pc = pieces[(r >> 4) % (sizeof pieces / sizeof pieces[0])];
				size_t pl = strlen(pc);
				if (n + pl > len)
					pl = len - n;
				memcpy(s + n, pc, pl);
				n += pl;
			} else {
				s[n++] = (char)(' ' + (r >> 4) % 95);
			}
		}
		assert_escapes_like_reference(s, len);
	}
	/* a character of 4 bytes across a chunk's end, at each offset */
	for (size_t at = 4090; at < 4100; at++) {
		memset(s, 'x', 4200);
		memcpy(s + at, "\xf0\x9f\x82\xa1", 4);
		assert_escapes_like_reference(s, 4200);
	}
	/* nothing but controls: the worst case, 6 bytes a byte (at these
	 * lengths, less room than that would be past the buffer's end, which
	 * the sanitizer build sees) */
	memset(s, '\x01', MAX);
	static const size_t lengths[] = {700, 1000, 3000, 4096, MAX};
	for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
		assert_escapes_like_reference(s, lengths[i]);
	free(s);
}

/* The emitter's integers, from a long's least to its greatest, in JSON and
 * in YAML. */
static void test_json_emit_int(void **state)
{
	(void)state;
	static const long values[] = {0, 7, -7, 10, -10, 99, 100, -100, 65535, 1000000007L, LONG_MAX, LONG_MIN};
	for (int yaml = 0; yaml <= 1; yaml++) {
		char *text = NULL;
		size_t size = 0;
		FILE *out = open_memstream(&text, &size);
		assert_non_null(out);
		struct carc_emitter *e = yaml ? carc_emitter_yaml(out) : carc_emitter_json(out);
		carc_emit_doc_begin(e);
		carc_emit_seq_begin(e);
		for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
			carc_emit_int(e, values[i]);
		carc_emit_seq_end(e);
		carc_emit_doc_end(e);
		assert_true(carc_emitter_close(e));
		fclose(out);
		char want[512] = "";
		size_t w = 0;
		for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
			if (yaml)
				w += (size_t)snprintf(want + w, sizeof want - w, "- %ld\n", values[i]);
			else
				w += (size_t)snprintf(want + w, sizeof want - w, "%s%ld", i ? "," : "", values[i]);
		}
		if (yaml) {
			assert_non_null(strstr(text, want));
		} else {
			char whole[600];
			snprintf(whole, sizeof whole, "[%s]\n", want);
			assert_string_equal(text, whole);
		}
		free(text);
	}
}

/* Commas between the elements of every container, at every depth (well past
 * the 32 levels the emitter once kept a flag for), after every kind of
 * element: each level is a map whose "k" holds the next level inside an
 * array, between an empty map, a string, a number, true, null and an empty
 * array. */
/* decimal.h against snprintf: every sign and length, every number of its
 * table, LONG_MIN, widths. */
static void test_decimal_matches_printf(void **state)
{
	(void)state;
	const long values[] = {0, 1, -1, 9, 10, -10, 99, 100, 12345, -98765, 1000000007L, LONG_MAX, LONG_MIN};
	struct carc_buf b = {0};
	char want[64];
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		for (size_t w = 0; w < 25; w += 3) {
			carc_buf_reset(&b);
			carc_buf_adds(&b, "x");
			carc_buf_addint_w(&b, values[i], w);
			snprintf(want, sizeof want, "x%*ld", (int)w, values[i]);
			assert_string_equal(b.data, want);
			carc_buf_reset(&b);
			carc_buf_addint(&b, values[i]);
			snprintf(want, sizeof want, "%ld", values[i]);
			assert_string_equal(b.data, want);
		}
	for (long v = -1100; v <= 1100; v++) { /* each entry of the table, and past it */
		carc_buf_reset(&b);
		carc_buf_addint(&b, v);
		snprintf(want, sizeof want, "%ld", v);
		assert_string_equal(b.data, want);
	}
	carc_buf_reset(&b);
	carc_buf_spaces(&b, 3);
	carc_buf_adds_w(&b, "red", 7);
	carc_buf_adds_w(&b, "yellow", 2);
	assert_string_equal(b.data, "       redyellow");
	carc_buf_free(&b);
}

static void test_json_emit_nesting(void **state)
{
	(void)state;
	enum { LEVELS = 200 };
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	assert_non_null(out);
	struct carc_emitter *e = carc_emitter_json(out);
	carc_emit_doc_begin(e);
	for (int i = 0; i < LEVELS; i++) {
		carc_emit_map_begin(e);
		carc_emit_key(e, "k");
		carc_emit_seq_begin(e);
		carc_emit_map_begin(e);
		carc_emit_map_end(e);
		carc_emit_str(e, "s");
		carc_emit_int(e, i);
	}
	for (int i = 0; i < LEVELS; i++) {
		carc_emit_bool(e, true);
		carc_emit_null(e);
		carc_emit_seq_begin(e);
		carc_emit_seq_end(e);
		carc_emit_seq_end(e);
		carc_emit_key(e, "n");
		carc_emit_int(e, -1);
		carc_emit_map_end(e);
	}
	carc_emit_doc_end(e);
	assert_true(carc_emitter_close(e));
	fclose(out);
	struct carc_buf want = {0};
	for (int i = 0; i < LEVELS; i++)
		carc_buf_printf(&want, "{\"k\":[{},\"s\",%d,", i);
	for (int i = 0; i < LEVELS; i++)
		carc_buf_printf(&want, "true,null,[]],\"n\":-1}%s", i + 1 < LEVELS ? "," : "");
	carc_buf_addc(&want, '\n');
	assert_string_equal(text, carc_buf_cstr(&want));
	size_t at;
	assert_null(json_strict_lines(text, strlen(text), &at));
	carc_buf_free(&want);
	free(text);
}

/* The strict checker the tests and the fuzzer hold carc's JSON to: what it
 * accepts, and that it refuses each thing it is there to refuse. */
static void test_json_strict_checker(void **state)
{
	(void)state;
	static const char *const good[] = {
		"0", "-0", "1.5e+10", "-12E-3", "\"\"", "\"a\\\"\\/\\b\\f\\n\\r\\t\\u00e9\"", "\"\\ud83c\\udca1\"",
		"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x82\xa1\"", "true", "false", "null", "[]", "{}", " [ 1 , [ ] , { } ] \n",
		"{\"a\":1,\"b\":{\"a\":2},\"c\":[{\"a\":3}]}",
	};
	static const struct {
		const char *text;
		size_t at; /* where it is found */
	} bad[] = {
		{"", 0}, {"01", 1}, {"1.", 2}, {"-", 1}, {"1e", 2}, {".5", 0}, {"+1", 0}, {"tru", 0}, {"nul", 0},
		{"[1,]", 3}, {"[1 2]", 3}, {"{\"a\" 1}", 5}, {"{a:1}", 1}, {"{\"a\":1,}", 7}, {"[", 1}, {"{", 1},
		{"\"abc", 4}, {"\"\x01\"", 1}, {"\"\\x\"", 3}, {"\"\\u12G4\"", 3}, {"\"\\udc00\"", 7},
		{"\"\\ud800\"", 7}, {"\"\\ud800\\u0041\"", 13}, {"\"\xc0\x80\"", 1}, {"\"\xed\xa0\x80\"", 1},
		{"\"\xf4\x90\x80\x80\"", 1}, {"\"\xe2\x82\"", 1}, {"\"\x80\"", 1}, {"\"\xff\"", 1},
		{"1 2", 2}, {"[1]x", 3}, {"{\"a\":1,\"a\":2}", 7},
	};
	size_t at;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		const char *err = json_strict_check(good[i], strlen(good[i]), &at);
		if (err)
			fail_msg("'%s' refused: %s at %zu", good[i], err, at);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *err = json_strict_check(bad[i].text, strlen(bad[i].text), &at);
		if (!err)
			fail_msg("'%s' accepted", bad[i].text);
		if (at != bad[i].at)
			fail_msg("'%s': %s at %zu, not at %zu", bad[i].text, err, at, bad[i].at);
	}
	/* too deep: refused, not a crash */
	char deep[2 * JSON_STRICT_MAX_DEPTH + 4];
	memset(deep, '[', JSON_STRICT_MAX_DEPTH + 1);
	memset(deep + JSON_STRICT_MAX_DEPTH + 1, ']', JSON_STRICT_MAX_DEPTH + 1);
	assert_non_null(json_strict_check(deep, 2 * JSON_STRICT_MAX_DEPTH + 2, &at));
	assert_null(json_strict_check(deep + 1, 2 * JSON_STRICT_MAX_DEPTH, &at));
	/* JSON Lines: every line a value, each ended by its newline */
	static const char lines[] = "{}\n[1]\n", cut[] = "{}\n[1]", empty[] = "{}\n\n[1]\n", split[] = "{}\n[1,\n2]\n";
	assert_null(json_strict_lines(lines, strlen(lines), &at));
	assert_non_null(json_strict_lines(cut, strlen(cut), &at));
	assert_int_equal(at, 6);
	assert_non_null(json_strict_lines(empty, strlen(empty), &at));
	assert_int_equal(at, 3);
	assert_non_null(json_strict_lines(split, strlen(split), &at));
	assert_int_equal(at, 6);
}

/* YAML: texts that would read back as other types are quoted, keys as well
 * as values, and a text that is not UTF-8 is written with U+FFFD, as in
 * JSON, rather than stopping libyaml's emitter. */
static void test_yaml_scalars(void **state)
{
	(void)state;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	assert_non_null(out);
	struct carc_emitter *e = carc_emitter_yaml(out);
	carc_emit_doc_begin(e);
	carc_emit_map_begin(e);
	static const char *const typed[] = {"y", "N", "On", "null", "~", "0x1F", "2026-11-20", "<<", "=", ".inf", "-3", "+1",
					    "1:20"};
	for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++) {
		carc_emit_key(e, typed[i]);
		carc_emit_str(e, typed[i]);
	}
	carc_emit_key(e, "plain");
	carc_emit_str(e, "Anna Karenina");
	carc_emit_key(e, "bad");
	carc_emit_strn(e, "a\xff\xed\xa0\x80" "b", 6);
	carc_emit_map_end(e);
	carc_emit_doc_end(e);
	assert_true(carc_emitter_close(e));
	fclose(out);
	for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++) {
		char line[64];
		snprintf(line, sizeof line, "\n\"%s\": \"%s\"\n", typed[i], typed[i]);
		if (!strstr(text, line))
			fail_msg("%s is not quoted in\n%s", typed[i], text);
	}
	assert_non_null(strstr(text, "\nplain: Anna Karenina\n"));
	/* each of the 4 bytes that are not UTF-8 is one U+FFFD */
	assert_non_null(strstr(text, "\nbad: a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" "b\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_escapes_each_kind_of_byte),
		cmocka_unit_test(test_json_special_byte_at_every_offset),
		cmocka_unit_test(test_json_random_strings_match_reference),
		cmocka_unit_test(test_json_emit_int),
		cmocka_unit_test(test_decimal_matches_printf),
		cmocka_unit_test(test_json_emit_nesting),
		cmocka_unit_test(test_json_strict_checker),
		cmocka_unit_test(test_yaml_scalars),
	};
	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
