/*
 * decimal.h - integers in decimal, and spaces, appended to a carc_buf
 * without printf: the writers (score's reports, fmt) write a few numbers
 * an event, and formatting them with printf was most of what they cost.
 */
#ifndef CARC_DECIMAL_H
#define CARC_DECIMAL_H

#include "common/util.h"

enum { CARC_DECIMAL_MAX = 24 }; /* room for any long and its sign */

/* v in decimal, ending at end: returns where it starts. */
static inline char *carc_decimal(char *end, long v)
{
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	char *p = end;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return p;
}

/* carc_decimal3[u], u below 1000: u's digits, zeros to 3 bytes, then
 * their count; copied whole, so that most numbers of a report are one
 * load and one store, with no branch on how many digits they have. */
extern const char carc_decimal3[1000][4];

/* u (1000 or more) in decimal at d: returns its end. */
char *carc_decimal_long(char *d, unsigned long u);

/* Writes v in decimal at d (up to CARC_DECIMAL_MAX bytes, whatever v; a
 * few bytes past the number's end may be written over): returns its end. */
static inline char *carc_decimal_put(char *d, long v)
{
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	*d = '-';
	d += v < 0;
	if (u >= 1000)
		return carc_decimal_long(d, u);
	memcpy(d, carc_decimal3[u], 4);
	return d + carc_decimal3[u][3];
}

/* Appends v in decimal, right-aligned in width columns (printf's "%*ld"). */
static inline void carc_buf_addint_w(struct carc_buf *b, long v, size_t width)
{
	carc_buf_reserve(b, width + CARC_DECIMAL_MAX);
	char *d = b->data + b->len;
	char *end = carc_decimal_put(d, v);
	size_t n = (size_t)(end - d);
	if (width > n) {
		memmove(d + width - n, d, n);
		memset(d, ' ', width - n);
		n = width;
	}
	b->len += n;
	b->data[b->len] = '\0';
}

/* Appends v in decimal (printf's "%ld"). */
static inline void carc_buf_addint(struct carc_buf *b, long v)
{
	carc_buf_addint_w(b, v, 0);
}

/* Appends n spaces. */
static inline void carc_buf_spaces(struct carc_buf *b, size_t n)
{
	carc_buf_reserve(b, n);
	memset(b->data + b->len, ' ', n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Appends s right-aligned in width columns (printf's "%*s"). */
static inline void carc_buf_adds_w(struct carc_buf *b, const char *s, size_t width)
{
	size_t n = strlen(s);
	if (width > n)
		carc_buf_spaces(b, width - n);
	carc_buf_add(b, s, n);
}

#endif
