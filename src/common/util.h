/*
 * util.h - small helpers shared by every module: checked allocation,
 * a growable byte buffer, string slices, and bits.
 *
 * Allocation failure is not recoverable in carc: the x* functions print one
 * line and exit with status 2 ("could not run").
 */
#ifndef CARC_UTIL_H
#define CARC_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#define CARC_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__) || defined(__clang__)
#define CARC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CARC_PRINTF(f, a)
#endif

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* xcalloc on a 64-byte boundary (a cache line), for tables read in the hot
 * paths; freed with free(). */
void *xcalloc_lines(size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* A growable byte buffer. data is always NUL-terminated when len > 0 or
 * after carc_buf_cstr(). */
struct carc_buf {
	char *data;
	size_t len;
	size_t cap;
};

void carc_buf_grow(struct carc_buf *b, size_t extra);
/* Room for extra more bytes and the NUL after them. */
static inline void carc_buf_reserve(struct carc_buf *b, size_t extra)
{
	if (extra >= b->cap - b->len) /* (cap is 0, or more than len) */
		carc_buf_grow(b, extra);
}
/* Appends n bytes; inline, for the writers' inner loops. */
static inline void carc_buf_add(struct carc_buf *b, const void *p, size_t n)
{
	carc_buf_reserve(b, n);
	if (n) /* p may be NULL for an empty slice */
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}
void carc_buf_addc_slow(struct carc_buf *b, char c);
/* Appends one byte; inline, for the writers' inner loops. */
static inline void carc_buf_addc(struct carc_buf *b, char c)
{
	if (b->len + 2 <= b->cap) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
	} else {
		carc_buf_addc_slow(b, c);
	}
}
void carc_buf_adds(struct carc_buf *b, const char *s);
void carc_buf_printf(struct carc_buf *b, const char *fmt, ...) CARC_PRINTF(2, 3);
void carc_buf_vprintf(struct carc_buf *b, const char *fmt, va_list ap);
const char *carc_buf_cstr(struct carc_buf *b);
void carc_buf_reset(struct carc_buf *b);
void carc_buf_free(struct carc_buf *b);

/* The index of the lowest set bit of a non-zero word. */
static inline int carc_lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_ctzll(x);
#else
	int b = 0;
	while (!(x & 1)) {
		x >>= 1;
		b++;
	}
	return b;
#endif
}

/* Case-sensitive comparison of a slice with a C string. */
bool carc_slice_eq(const char *p, size_t n, const char *s);
/* ASCII case-insensitive comparison of a slice with a C string. */
bool carc_slice_ieq(const char *p, size_t n, const char *s);

#endif
