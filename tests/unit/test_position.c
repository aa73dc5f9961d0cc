/*
 * test_position.c - line and column of a byte offset, with the memo.
 *
 * carc_src_position() remembers the last position it computed in a source,
 * so that the messages of a game with an error on every line cost linear
 * time. These tests prove that the memo never changes an answer: offsets
 * asked for forwards, backwards, repeated, in another text at the same
 * address, and in a source whose base line differs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "common/diag.h"

static const char text[] = "ab\ncd\n\nefgh\n\xc3\xa9x\n";

/* Line and column computed from scratch, the slow obvious way. */
static void expected(size_t off, unsigned base, unsigned *line, unsigned *col)
{
	*line = base;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

static void check_order(const size_t *offs, size_t n, unsigned base)
{
	struct carc_src src = {"t", text, sizeof text - 1, base};
	for (size_t i = 0; i < n; i++) {
		unsigned l, c, el, ec;
		carc_src_position(&src, offs[i], &l, &c);
		expected(offs[i], base, &el, &ec);
		assert_int_equal(l, el);
		assert_int_equal(c, ec);
	}
}

static void test_position_forwards_backwards_repeated(void **state)
{
	(void)state;
	const size_t fwd[] = {0, 1, 2, 3, 4, 6, 7, 8, 11, 12, 14, 15, 16};
	const size_t back[] = {16, 12, 7, 3, 0, 14, 14, 2, 8};
	check_order(fwd, sizeof fwd / sizeof fwd[0], 1);
	check_order(back, sizeof back / sizeof back[0], 1);
	check_order(back, sizeof back / sizeof back[0], 40);
}

static void test_position_memo_follows_the_text(void **state)
{
	(void)state;
	char buf[32];
	memcpy(buf, "x\ny\nz\n", 7);
	struct carc_src src = {"t", buf, 6, 1};
	unsigned l, c;
	carc_src_position(&src, 4, &l, &c);
	assert_int_equal(l, 3);
	/* another game at the same address starts a new source value */
	memcpy(buf, "\n\n\n\n\n\n", 7);
	src = (struct carc_src){"t", buf, 6, 10};
	carc_src_position(&src, 5, &l, &c);
	assert_int_equal(l, 15);
	assert_int_equal(c, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_position_forwards_backwards_repeated),
		cmocka_unit_test(test_position_memo_follows_the_text),
	};
	return cmocka_run_group_tests_name("position", tests, NULL, NULL);
}
