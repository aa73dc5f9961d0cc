/*
 * decimal.c - the table behind carc_decimal_put (decimal.h), and numbers
 * past it.
 */
#include "common/decimal.h"

/* The entry of 100 h + 10 t + o: its digits from the first that is not a
 * leading zero, zeros after them, and how many there are. */
#define DIGITS(h, t, o)                                                                      \
	{(char)('0' + ((h) ? (h) : (t) ? (t) : (o))), (char)((h) ? '0' + (t) : (t) ? '0' + (o) : 0), \
	 (char)((h) ? '0' + (o) : 0), (char)((h) ? 3 : (t) ? 2 : 1)}
#define TENS(h, t)                                                                                          \
	DIGITS(h, t, 0), DIGITS(h, t, 1), DIGITS(h, t, 2), DIGITS(h, t, 3), DIGITS(h, t, 4), DIGITS(h, t, 5), \
		DIGITS(h, t, 6), DIGITS(h, t, 7), DIGITS(h, t, 8), DIGITS(h, t, 9)
#define HUNDREDS(h)                                                                                          \
	TENS(h, 0), TENS(h, 1), TENS(h, 2), TENS(h, 3), TENS(h, 4), TENS(h, 5), TENS(h, 6), TENS(h, 7), TENS(h, 8), \
		TENS(h, 9)

const char carc_decimal3[1000][4] = {HUNDREDS(0), HUNDREDS(1), HUNDREDS(2), HUNDREDS(3), HUNDREDS(4),
				     HUNDREDS(5), HUNDREDS(6), HUNDREDS(7), HUNDREDS(8), HUNDREDS(9)};

char *carc_decimal_long(char *d, unsigned long u)
{
	size_t n = 1;
	for (unsigned long t = u; t >= 10; t /= 10)
		n++;
	char *end = d + n;
	do {
		*--end = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	return d + n;
}
