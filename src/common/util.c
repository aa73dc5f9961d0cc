/*
 * util.c - checked allocation, growable buffers and string slices.
 */
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n)
{
	fprintf(stderr, "carc: out of memory (%zu bytes)\n", n);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *xcalloc_lines(size_t count, size_t size)
{
	size_t n = count * size, lines = (n + 63) / 64 * 64;
	void *p = aligned_alloc(64, lines ? lines : 64);
	if (!p)
		out_of_memory(n);
	memset(p, 0, lines ? lines : 64);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void carc_buf_grow(struct carc_buf *b, size_t extra)
{
	if (extra > SIZE_MAX / 2 - b->len)
		out_of_memory(SIZE_MAX); /* no such room, and cap would wrap round */
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void carc_buf_addc_slow(struct carc_buf *b, char c)
{
	carc_buf_reserve(b, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
}

void carc_buf_adds(struct carc_buf *b, const char *s)
{
	carc_buf_add(b, s, strlen(s));
}

void carc_buf_vprintf(struct carc_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	char small[256];
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n < sizeof small) {
		carc_buf_add(b, small, (size_t)n);
	} else {
		carc_buf_reserve(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
		b->len += (size_t)n;
	}
	va_end(ap2);
}

void carc_buf_printf(struct carc_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *carc_buf_cstr(struct carc_buf *b)
{
	carc_buf_reserve(b, 0);
	b->data[b->len] = '\0';
	return b->data;
}

void carc_buf_reset(struct carc_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void carc_buf_free(struct carc_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

bool carc_slice_eq(const char *p, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != p[i] || !s[i])
			return false;
	return s[n] == '\0';
}

bool carc_slice_ieq(const char *p, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++) {
		char a = p[i], c = s[i];
		if (!c)
			return false;
		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (a != c)
			return false;
	}
	return s[n] == '\0';
}
