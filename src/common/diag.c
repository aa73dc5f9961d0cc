/*
 * diag.c - the diagnostics table, reporting and GNU-style formatting.
 */
#include "common/diag.h"

#include "common/width.h"

#include <stdlib.h>
#include <string.h>

struct code_info {
	const char *str;
	enum carc_severity severity;
	const char *name;
	const char *summary;
};

static const struct code_info codes[CARC_CODE_COUNT] = {
#define CARC_X(code, sev, name, summary) {#code, CARC_SEV_##sev, name, summary},
	CARC_DIAG_LIST(CARC_X)
#undef CARC_X
};

const char *carc_code_str(enum carc_code code) { return codes[code].str; }
const char *carc_code_name(enum carc_code code) { return codes[code].name; }
const char *carc_code_summary(enum carc_code code) { return codes[code].summary; }
enum carc_severity carc_code_severity(enum carc_code code) { return codes[code].severity; }

enum carc_code carc_code_lookup(const char *s)
{
	for (int i = 0; i < CARC_CODE_COUNT; i++)
		if (strcmp(codes[i].str, s) == 0)
			return (enum carc_code)i;
	return CARC_CODE_COUNT;
}

/* A message held for carc_diag_flush. */
struct carc_held_diag {
	enum carc_code code;
	enum carc_severity severity;
	size_t off, len;
	size_t line_start; /* the sort key, found when flushed */
	bool late;         /* after every line (carc_diag_hold_late) */
	size_t seq;        /* the order it came in */
	size_t message;    /* offset into held_text */
};

#define MAX_HELD 16384

static void hold_diag(struct carc_diag_sink *sink, const struct carc_diag *d)
{
	if (sink->nheld == sink->held_cap) {
		sink->held_cap = sink->held_cap ? 2 * sink->held_cap : 16;
		sink->held = xrealloc(sink->held, sink->held_cap * sizeof *sink->held);
	}
	size_t at = sink->held_text.len;
	carc_buf_adds(&sink->held_text, d->message);
	carc_buf_addc(&sink->held_text, '\0');
	sink->held[sink->nheld] =
		(struct carc_held_diag){d->code, d->severity, d->off, d->len, 0, sink->hold_late, sink->nheld, at};
	if (++sink->nheld == MAX_HELD)
		carc_diag_flush(sink);
}

/* Whether the well-formed UTF-8 character of n bytes at p is a bidirectional
 * control: the embeddings, overrides and isolates (U+202A to U+202E, U+2066
 * to U+2069) and the marks (U+061C, U+200E, U+200F), which reorder the text
 * shown around them (a quoted name could make a line read otherwise). */
static bool bidi_control(const unsigned char *p, size_t n)
{
	if (n == 2)
		return p[0] == 0xd8 && p[1] == 0x9c; /* U+061C */
	if (n != 3 || p[0] != 0xe2)
		return false;
	if (p[1] == 0x80)
		return p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae);
	return p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9;
}

/* Appends the character at text[i] as it is shown: control characters (C0,
 * DEL, C1) and bidirectional controls as a blank, a byte that is not UTF-8
 * as '?'. Returns its length in bytes. */
static size_t add_shown_char(struct carc_buf *out, const char *text, size_t i, size_t end)
{
	unsigned char ch = (unsigned char)text[i];
	if (ch < 0x80) {
		carc_buf_addc(out, (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch);
		return 1;
	}
	size_t n = carc_utf8_len(text + i, end - i);
	if (!n) {
		carc_buf_addc(out, '?'); /* (a C1 control too: its two bytes are two columns) */
		return 1;
	}
	if (bidi_control((const unsigned char *)text + i, n))
		carc_buf_addc(out, ' ');
	else
		carc_buf_add(out, text + i, n);
	return n;
}

void carc_text_shown(struct carc_buf *out, const char *text, size_t n)
{
	for (size_t i = 0; i < n;)
		i += add_shown_char(out, text, i, n);
}

/* Whether text holds anything carc_text_shown would change. */
static bool text_needs_showing(const char *text, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch < 0x20 || ch == 0x7f)
			return true;
		if (ch >= 0x80) {
			size_t k = carc_utf8_len(text + i, n - i);
			if (!k || bidi_control((const unsigned char *)text + i, k))
				return true;
			i += k - 1;
		}
	}
	return false;
}

void carc_diag_report(struct carc_diag_sink *sink, enum carc_code code,
		      const struct carc_src *src, size_t off, size_t len,
		      const char *fmt, ...)
{
	struct carc_diag d = {code, codes[code].severity, src, off, len, NULL};
	if (d.severity == CARC_SEV_ERROR)
		sink->errors++;
	else if (d.severity == CARC_SEV_WARNING)
		sink->warnings++;
	sink->counts[code]++;
	sink->reported++;
	if (!sink->emit)
		return;
	carc_buf_reset(&sink->scratch);
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&sink->scratch, fmt, ap);
	va_end(ap);
	/* A message may quote the input (a name, a URL, a line of a log): it
	 * is shown as the source line is, so that no input can put a terminal
	 * escape, a line of its own or reordered text into it. */
	if (text_needs_showing(sink->scratch.data, sink->scratch.len)) {
		struct carc_buf shown = {0};
		carc_text_shown(&shown, sink->scratch.data, sink->scratch.len);
		carc_buf_free(&sink->scratch);
		sink->scratch = shown;
	}
	d.message = carc_buf_cstr(&sink->scratch);
	if (sink->hold) {
		if (src == sink->hold) {
			hold_diag(sink, &d);
			return;
		}
		carc_diag_flush(sink);
	}
	sink->emit(sink->ctx, &d);
}

void carc_diag_free(struct carc_diag_sink *sink)
{
	carc_buf_free(&sink->scratch);
	free(sink->held);
	carc_buf_free(&sink->held_text);
	sink->held = NULL;
	sink->nheld = sink->held_cap = 0;
}

void carc_diag_hold(struct carc_diag_sink *sink, const struct carc_src *game)
{
	sink->hold = game;
}

static int by_line(const void *a, const void *b)
{
	const struct carc_held_diag *x = a, *y = b;
	if (x->late != y->late)
		return x->late ? 1 : -1;
	if (x->line_start != y->line_start)
		return x->line_start < y->line_start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void carc_diag_flush(struct carc_diag_sink *sink)
{
	if (!sink->nheld)
		return;
	const struct carc_src *src = sink->hold;
	for (size_t i = 0; i < sink->nheld; i++) {
		struct carc_held_diag *h = &sink->held[i];
		size_t s = h->off < src->len ? h->off : src->len;
		while (s > 0 && src->text[s - 1] != '\n')
			s--;
		h->line_start = s;
	}
	qsort(sink->held, sink->nheld, sizeof *sink->held, by_line);
	size_t n = sink->nheld;
	sink->nheld = 0; /* (emit may report again: it goes after these) */
	for (size_t i = 0; i < n; i++) {
		const struct carc_held_diag *h = &sink->held[i];
		struct carc_diag d = {h->code, h->severity, src, h->off, h->len, sink->held_text.data + h->message};
		sink->emit(sink->ctx, &d);
	}
	carc_buf_reset(&sink->held_text);
}

size_t carc_utf8_len(const char *p, size_t avail)
{
	const unsigned char *s = (const unsigned char *)p;
	if (avail < 2 || s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	size_t n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (avail < n)
		return 0;
	/* the second byte's range excludes overlong forms, surrogates and
	 * code points above U+10FFFF */
	unsigned char lo = 0x80, hi = 0xbf;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi || (s[0] == 0xc2 && s[1] < 0xa0)) /* C1 controls are not text */
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Bytes of the character at text[i] (before end): a UTF-8 character, or one
 * byte. */
static size_t char_len(const char *text, size_t i, size_t end)
{
	if ((unsigned char)text[i] < 0x80)
		return 1;
	size_t n = carc_utf8_len(text + i, end - i);
	return n ? n : 1;
}

void carc_src_position(const struct carc_src *src, size_t off, unsigned *line, unsigned *col)
{
	/* Messages come mostly in increasing order: continue from the last
	 * position asked for in the same text (the memo is a cache, not part of
	 * the source's value, hence the cast). */
	struct carc_src *memo = (struct carc_src *)src;
	unsigned l = src->base_line, c = 1;
	if (off > src->len)
		off = src->len;
	size_t from = 0;
	if (memo->memo_text == src->text && src->text && memo->memo_off <= off) {
		l = memo->memo_line;
		from = memo->memo_line_start;
	}
	for (const char *nl; (nl = memchr(src->text + from, '\n', off - from)) != NULL;) {
		l++;
		from = (size_t)(nl - src->text) + 1;
	}
	memo->memo_text = src->text;
	memo->memo_off = off;
	memo->memo_line_start = from;
	memo->memo_line = l;
	for (size_t i = from; i < off; c++)
		i += char_len(src->text, i, src->len);
	*line = l;
	*col = c;
}

#define SHOWN_BYTES 160 /* of a long line, the bytes shown around the spot */

void carc_diag_format(struct carc_buf *out, const struct carc_diag *d, bool color)
{
	static const char *sev_word[] = {"error", "warning", "note"};
	static const char *sev_color[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	unsigned line = 0, col = 0;

	if (d->src) { /* the file's name, shown as the message is (it may hold anything) */
		carc_buf_adds(out, bold);
		carc_text_shown(out, d->src->name, strlen(d->src->name));
		if (d->src->text) {
			carc_src_position(d->src, d->off, &line, &col);
			carc_buf_printf(out, ":%u:%u", line, col);
		}
		carc_buf_printf(out, ":%s ", reset);
	}
	carc_buf_printf(out, "%s%s[%s]:%s %s\n", color ? sev_color[d->severity] : "",
			sev_word[d->severity], codes[d->code].str, reset, d->message);
	if (!d->src || d->src->len == 0 || !d->src->text)
		return;

	/* The source line, or a window of it around the spot when it is long. */
	const char *text = d->src->text;
	size_t off = d->off > d->src->len ? d->src->len : d->off;
	size_t s = off, e = off;
	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (e < d->src->len && text[e] != '\n')
		e++;
	if (e > s && text[e - 1] == '\r')
		e--;
	bool cut_front = false, cut_back = false;
	if (e - s > SHOWN_BYTES) {
		size_t from = off > s + SHOWN_BYTES / 2 ? off - SHOWN_BYTES / 2 : s;
		for (int k = 0; k < 3 && from > s && ((unsigned char)text[from] & 0xc0) == 0x80; k++)
			from--;
		cut_front = from > s;
		s = from;
		if (e - s > SHOWN_BYTES) {
			e = s + SHOWN_BYTES;
			cut_back = true;
		}
	}
	char num[16];
	int w = snprintf(num, sizeof num, "%u", line);
	carc_buf_printf(out, " %s | %s", num, cut_front ? "..." : "");
	for (size_t i = s; i < e;)
		i += add_shown_char(out, text, i, e);
	carc_buf_printf(out, "%s\n %*s | %s", cut_back ? "..." : "", w, "", cut_front ? "   " : "");
	if (off < s)
		off = s;
	/* the caret by display width: a wide character (CJK) takes two
	 * columns, a combining mark none */
	size_t i = s, len;
	while (i < off && i < e) {
		for (int k = carc_utf8_width(text + i, e - i, &len); k > 0; k--)
			carc_buf_addc(out, ' ');
		i += len;
	}
	carc_buf_adds(out, color ? sev_color[d->severity] : "");
	carc_buf_addc(out, '^');
	size_t cols = 1;
	if (i < e) {
		cols = (size_t)carc_utf8_width(text + i, e - i, &len);
		i += len;
	}
	for (size_t k = cols; k > 1; k--)
		carc_buf_addc(out, '~');
	while (i < off + d->len && i < e) {
		for (int k = carc_utf8_width(text + i, e - i, &len); k > 0; k--)
			carc_buf_addc(out, '~');
		i += len;
	}
	carc_buf_adds(out, reset);
	carc_buf_addc(out, '\n');
}
