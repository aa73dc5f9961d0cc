/*
 * split.c - where a CGN file may be cut into parts (split.h).
 */
#include "cli/split.h"
#include "common/util.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* BLOCK bytes are read at a time; KEEP bytes before them are kept, to look
 * back in; '[' is looked for only MARGIN bytes short of the end of what was
 * read, so that its whole line (if it is a cut) is in the buffer. */
enum { BLOCK = 1 << 20, KEEP = 1 << 16, MARGIN = 4097, MAX_CUT_LINE = 4096 };

void carc_split_scan_init(struct carc_split_scan *s, FILE *f)
{
	*s = (struct carc_split_scan){.f = f, .buf = xmalloc(KEEP + BLOCK), .line = 1};
}

void carc_split_scan_free(struct carc_split_scan *s)
{
	free(s->buf);
	s->buf = NULL;
}

static unsigned count_newlines(const char *p, size_t n)
{
	unsigned lines = 0;
	size_t i = 0;
#if defined(__SSE2__)
	/* 16 bytes at a time, each newline adding 1 to its byte's count (a
	 * match is -1), the counts summed before they can overflow */
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
	while (i + 16 <= n) {
		__m128i acc = zero;
		for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16)
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i)), nl));
		__m128i sum = _mm_sad_epu8(acc, zero);
		lines += (unsigned)_mm_cvtsi128_si32(sum) + (unsigned)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
	}
#endif
	for (const char *q = p + i, *e = p + n; (q = memchr(q, '\n', (size_t)(e - q))); q++)
		lines++;
	return lines;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Reads the next block behind the last KEEP bytes of the buffer. */
static bool refill(struct carc_split_scan *s)
{
	if (s->eof)
		return false;
	size_t drop = s->len > KEEP ? s->len - KEEP : 0;
	if (s->at < drop) /* (at is at least len - MARGIN) */
		drop = s->at;
	if (s->counted < drop) {
		s->line += count_newlines(s->buf + s->counted, drop - s->counted);
		s->counted = drop;
	}
	memmove(s->buf, s->buf + drop, s->len - drop);
	s->len -= drop;
	s->at -= drop;
	s->counted -= drop;
	s->buf_off += drop;
	size_t n = fread(s->buf + s->len, 1, BLOCK, s->f);
	s->len += n;
	if (n == 0)
		s->eof = true;
	return n > 0;
}

/* The first byte that is not a blank in buf[from, to), or '\n'. */
static char first_of(const char *buf, size_t from, size_t to)
{
	while (from < to && is_blank(buf[from]))
		from++;
	return from < to ? buf[from] : '\n';
}

/* What starts a text: if its first line that is not empty or a comment is
 * no tag, the first game starts there, not at a '[' line. */
static void begin(struct carc_split_scan *s)
{
	s->begun = true;
	if (s->len >= 3 && !memcmp(s->buf, "\xEF\xBB\xBF", 3))
		s->text_start = s->at = 3; /* a byte order mark: not text */
	for (size_t i = s->at; i < s->len;) {
		const char *nl = memchr(s->buf + i, '\n', s->len - i);
		size_t e = nl ? (size_t)(nl - s->buf) : s->len;
		char c = first_of(s->buf, i, e);
		if (c != '\n' && c != ';' && c != '{') {
			if (c != '[')
				s->games = 1;
			return;
		}
		i = e + 1;
	}
}

/* What the line buf[b, e) is by its first bytes, as the reader tells it:
 * '\n' empty, '[' a tag, ';' a comment (';', or { comments } alone), 'T' a
 * turn, '?' not known (a { that the line does not close: the comment may
 * go on over the lines after it). */
static char line_kind(const char *buf, size_t b, size_t e)
{
	bool braces = false;
	for (;;) {
		while (b < e && is_blank(buf[b]))
			b++;
		if (b == e)
			return braces ? ';' : '\n';
		if (buf[b] != '{')
			break;
		const char *close = memchr(buf + b, '}', e - b);
		if (!close)
			return '?';
		b = (size_t)(close - buf) + 1;
		braces = true;
	}
	if (buf[b] == '[' || buf[b] == ';')
		return buf[b];
	for (const char *open = memchr(buf + b, '{', e - b); open; open = memchr(open + 1, '{', (size_t)(buf + e - open - 1)))
		if (!memchr(open, '}', (size_t)(buf + e - open)))
			return '?';
	return 'T';
}

/* What the lines before the line at ls (in buf) are, back to the last that
 * is not empty or a comment: 'T' a turn, '[' a tag, 0 none (the start of
 * the text), '?' not known (the buffer does not go back so far, or a { is
 * open). *tail: where the comment lines after the turn begin (the game's
 * start), or ls when there are none. */
static char before(const struct carc_split_scan *s, size_t ls, size_t *tail)
{
	*tail = ls;
	for (;;) {
		if (s->buf_off + ls <= s->text_start)
			return 0;
		if (ls == 0)
			return '?';
		size_t e = ls - 1; /* the newline that ends the line before */
		size_t b = e, lo = s->buf_off < s->text_start ? (size_t)(s->text_start - s->buf_off) : 0;
		while (b > lo && s->buf[b - 1] != '\n')
			b--;
		if (b == 0 && s->buf_off > s->text_start)
			return '?'; /* its start may be further back */
		char k = line_kind(s->buf, b, e);
		if (k != '\n' && k != ';')
			return k;
		if (k == ';')
			*tail = b;
		ls = b;
	}
}

bool carc_split_next(struct carc_split_scan *s, uint64_t from, struct carc_cut *cut)
{
	for (;;) {
		size_t limit = s->eof ? s->len : s->len > MARGIN ? s->len - MARGIN : 0;
		const char *p = s->at < limit ? memchr(s->buf + s->at, '[', limit - s->at) : NULL;
		if (!p) {
			s->at = limit > s->at ? limit : s->at;
			if (!refill(s) && s->at >= s->len)
				return false;
			if (!s->begun)
				begin(s);
			continue;
		}
		size_t i = (size_t)(p - s->buf);
		s->at = i + 1;
		size_t ls = i; /* the line's start, if only blanks are before the '[' */
		while (ls > 0 && is_blank(s->buf[ls - 1]))
			ls--;
		if (s->buf_off + ls > s->text_start && (ls == 0 || s->buf[ls - 1] != '\n'))
			continue; /* not the first of its line (or not known to be) */
		size_t start;
		char prev = before(s, ls, &start);
		if (prev != 'T' && !(prev == 0 && !s->games))
			continue; /* a tag of the game that is open */
		s->games++;
		if (prev != 'T' || s->buf_off + start < from)
			continue;
		const char *nl = memchr(s->buf + i, '\n', s->len - i);
		if ((nl ? (size_t)(nl - s->buf) : s->len) - ls > MAX_CUT_LINE)
			continue;
		s->line += count_newlines(s->buf + s->counted, start - s->counted);
		s->counted = start;
		*cut = (struct carc_cut){s->buf_off + start, s->line, s->games - 1};
		return true;
	}
}
