/*
 * test_width.c - the display width of text (common/width.c) and the name
 * fold of the warnings about names that differ only in case or accents.
 * Widths decide whether tables and carets line up in a terminal: a wide
 * character takes two columns, a combining accent none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "common/width.h"

static void test_width_of_names(void **state)
{
	(void)state;
	assert_int_equal(carc_str_width("Anna"), 4);
	assert_int_equal(carc_str_width("\xe7\x8e\x8b\xe8\x8a\xb3"), 4);            /* 王芳 */
	assert_int_equal(carc_str_width("Zoe\xcc\x88 A\xcc\x8angstro\xcc\x88m"), 12); /* decomposed */
	assert_int_equal(carc_str_width("Zo\xc3\xab"), 3);                            /* Zoë, one character */
	assert_int_equal(carc_str_width("\xef\xbc\xa1"), 2);                          /* fullwidth A */
	assert_int_equal(carc_str_width("a\xe2\x80\x8b" "b"), 2);                     /* a zero-width space */
	assert_int_equal(carc_str_width("\xf0\x9f\x98\x80"), 2);                      /* an emoji */
	assert_int_equal(carc_str_width("\xff" "a"), 2);                              /* a bad byte counts one */
	assert_int_equal(carc_char_width(0x303F), 1);                                 /* a half-width ideographic space */
	assert_int_equal(carc_char_width(0x3000), 2);
	assert_int_equal(carc_char_width(0x0301), 0);
}

static void test_width_padding(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_buf_add_padded(&b, "\xe7\x8e\x8b\xe8\x8a\xb3", 6, false);
	carc_buf_adds(&b, "|");
	carc_buf_add_padded(&b, "ab", 4, true);
	assert_string_equal(carc_buf_cstr(&b), "\xe7\x8e\x8b\xe8\x8a\xb3  |  ab");
	carc_buf_free(&b);
}

static void fold_is(const char *name, const char *want)
{
	struct carc_buf b = {0};
	carc_name_fold(&b, name);
	assert_string_equal(carc_buf_cstr(&b), want);
	carc_buf_free(&b);
}

static void test_width_name_fold(void **state)
{
	(void)state;
	fold_is("Chlo\xc3\xa9", "chloe");                        /* Chloé */
	fold_is("CHLOE", "chloe");
	fold_is("Zoe\xcc\x88 A\xcc\x8angstro\xcc\x88m", "zoe angstrom"); /* accents apart */
	fold_is("\xc3\x85ngstr\xc3\xb6m", "angstrom");          /* Ångström */
	fold_is("\xc5\x81ukasz", "lukasz");                      /* Łukasz */
	fold_is("\xe7\x8e\x8b\xe8\x8a\xb3", "\xe7\x8e\x8b\xe8\x8a\xb3");
	fold_is("Stra\xc3\x9f" "e", "stra\xc3\x9f" "e");         /* ß is no accented s */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width_of_names),
		cmocka_unit_test(test_width_padding),
		cmocka_unit_test(test_width_name_fold),
	};
	return cmocka_run_group_tests_name("width", tests, NULL, NULL);
}
