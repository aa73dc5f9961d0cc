/*
 * jsonread.c - strict, bounded, located JSON on top of jansson.
 *
 * Two passes over the text. The scan (below) is carc's own: a loop with an
 * explicit stack that checks the RFC 8259 grammar byte by byte and records
 * the span of every value and key in text order; it owns every message
 * about the text and stops at the first cap exceeded, so its time is linear
 * in the bytes read and its memory bounded by the caps. jansson then builds
 * the tree from text already known to be good (it can still refuse a
 * duplicate key or a number too large for it), and a walk over the tree in
 * the scan's order files each node's span under the node's address.
 */
#include "common/jsonread.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A node (or an object key's text) and what the scan knows of it. */
struct entry {
	const void *ptr;
	uint32_t ev;   /* index into spans */
	uint32_t kids; /* arrays: index into kids of the items' span indexes */
};

struct carc_json_doc {
	json_t *root;
	struct carc_json_span *spans; /* every value and key, in text order */
	size_t nspans;
	uint32_t *kids;
	size_t nkids;
	struct entry *table; /* open addressing, by ptr */
	size_t cap;          /* a power of two */
};

/* ---- the scan ---- */

struct scan {
	const struct carc_src *src;
	const unsigned char *p;
	size_t n, i;
	enum carc_code code;
	struct carc_diag_sink *sink;
	struct carc_json_span *spans;
	size_t nspans, cap;
};

static void problem(struct scan *s, size_t off, size_t len, const char *fmt, ...) CARC_PRINTF(4, 5);

static void problem(struct scan *s, size_t off, size_t len, const char *fmt, ...)
{
	struct carc_buf msg = {0};
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	carc_diag_report(s->sink, s->code, s->src, off, len, "%s", carc_buf_cstr(&msg));
	carc_buf_free(&msg);
}

static bool record(struct scan *s, size_t off, size_t len)
{
	if (s->nspans == CARC_JSON_MAX_TOKENS) {
		problem(s, off, len ? len : 1, "the JSON text has more than %u values and keys", CARC_JSON_MAX_TOKENS);
		return false;
	}
	if (s->nspans == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->spans = xrealloc(s->spans, s->cap * sizeof *s->spans);
	}
	s->spans[s->nspans++] = (struct carc_json_span){off, len};
	return true;
}

static void skip_space(struct scan *s)
{
	while (s->i < s->n && (s->p[s->i] == ' ' || s->p[s->i] == '\t' || s->p[s->i] == '\n' || s->p[s->i] == '\r'))
		s->i++;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

static int hex_value(unsigned char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The code unit of \uXXXX at p (6 bytes available), or -1. */
static long escape_unit(const unsigned char *p)
{
	long v = 0;
	for (int k = 2; k < 6; k++) {
		int h = hex_value(p[k]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* The length of the well-formed UTF-8 sequence (2 to 4 bytes) at p, or 0.
 * Unlike carc_utf8_len, C1 controls are text here: JSON allows them. */
static size_t utf8_seq(const unsigned char *p, size_t avail)
{
	size_t len;
	uint32_t cp, min;
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		len = 2, cp = p[0] & 0x1Fu, min = 0x80;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		len = 3, cp = p[0] & 0x0Fu, min = 0x800;
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		len = 4, cp = p[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	if (avail < len)
		return 0;
	for (size_t k = 1; k < len; k++) {
		if ((p[k] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[k] & 0x3Fu);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/* A string from the opening quote at s->i, its span recorded. */
static bool scan_string(struct scan *s)
{
	size_t start = s->i++;
	while (s->i < s->n) {
		unsigned char c = s->p[s->i];
		if (c == '"') {
			s->i++;
			return record(s, start, s->i - start);
		}
		if (c < 0x20) {
			problem(s, s->i, 1, "a control character (U+%04X) must be written as an escape in a JSON string", c);
			return false;
		}
		if (c >= 0x80) {
			size_t len = utf8_seq(s->p + s->i, s->n - s->i);
			if (!len) {
				problem(s, s->i, 1, "byte 0x%02X is not part of well-formed UTF-8 text", c);
				return false;
			}
			s->i += len;
			continue;
		}
		if (c != '\\') {
			s->i++;
			continue;
		}
		if (s->i + 1 >= s->n)
			break;
		unsigned char e = s->p[s->i + 1];
		if (e != 'u') {
			if (!strchr("\"\\/bfnrt", e) || !e) {
				problem(s, s->i, 2, "'\\%c' is not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
					e >= 0x21 && e < 0x7f ? e : '?');
				return false;
			}
			s->i += 2;
			continue;
		}
		long u = s->i + 6 <= s->n ? escape_unit(s->p + s->i) : -1;
		if (u < 0) {
			problem(s, s->i, 2, "'\\u' is followed by four hexadecimal digits in JSON");
			return false;
		}
		if (u == 0) {
			problem(s, s->i, 6, "'\\u0000' (a NUL character) cannot be taken: no name or text carc writes can "
				"hold one");
			return false;
		}
		if (u >= 0xDC00 && u <= 0xDFFF) {
			problem(s, s->i, 6, "'\\u%04lX' is the second half of a surrogate pair with no first half", u);
			return false;
		}
		if (u >= 0xD800 && u <= 0xDBFF) {
			long low = s->i + 12 <= s->n && s->p[s->i + 6] == '\\' && s->p[s->i + 7] == 'u'
				   ? escape_unit(s->p + s->i + 6) : -1;
			if (low < 0xDC00 || low > 0xDFFF) {
				problem(s, s->i, 6, "'\\u%04lX' is the first half of a surrogate pair, and no second half "
					"(\\uDC00 to \\uDFFF) follows it", u);
				return false;
			}
			s->i += 6;
		}
		s->i += 6;
	}
	problem(s, start, 1, "this string is not closed before the end of the text");
	return false;
}

/* A number per RFC 8259: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool scan_number(struct scan *s)
{
	size_t start = s->i;
	const unsigned char *p = s->p;
	size_t i = s->i, n = s->n;
	if (p[i] == '-')
		i++;
	if (i < n && p[i] == '0') {
		i++;
		if (i < n && is_digit(p[i])) {
			problem(s, start, i + 1 - start, "a JSON number does not start with 0 and more digits (no leading "
				"zeros)");
			return false;
		}
	} else if (i < n && is_digit(p[i])) {
		while (i < n && is_digit(p[i]))
			i++;
	} else {
		problem(s, start, 1, "a '-' is followed by a digit in a JSON number");
		return false;
	}
	if (i < n && p[i] == '.') {
		i++;
		if (i >= n || !is_digit(p[i])) {
			problem(s, start, i - start, "a '.' in a JSON number is followed by a digit");
			return false;
		}
		while (i < n && is_digit(p[i]))
			i++;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < n && (p[i] == '+' || p[i] == '-'))
			i++;
		if (i >= n || !is_digit(p[i])) {
			problem(s, start, i - start, "an exponent in a JSON number has digits");
			return false;
		}
		while (i < n && is_digit(p[i]))
			i++;
	}
	s->i = i;
	return record(s, start, i - start);
}

/* What cannot start a value, said in a few words. */
static void not_a_value(struct scan *s, bool after_comma)
{
	size_t i = s->i;
	unsigned char c = s->p[i];
	if (is_word(c)) {
		size_t end = i;
		while (end < s->n && is_word(s->p[end]) && end - i < 32)
			end++;
		problem(s, i, end - i, "'%.*s' is not a JSON value (a \"string\", a number, an array, an object, true, "
			"false or null)", (int)(end - i), (const char *)s->p + i);
	} else if (after_comma && (c == ']' || c == '}')) {
		problem(s, i, 1, "a value is missing after the comma (a trailing comma is not JSON)");
	} else if (c == '/') {
		problem(s, i, 1, "comments are not JSON");
	} else if (c == '\'') {
		problem(s, i, 1, "a JSON string is in double quotes");
	} else if (c == ',' || c == ']' || c == '}' || c == ':') {
		problem(s, i, 1, "a value is missing here");
	} else if (c > 0x20 && c < 0x7f) {
		problem(s, i, 1, "'%c' cannot start a JSON value", c);
	} else {
		problem(s, i, 1, "byte 0x%02X cannot start a JSON value", c);
	}
}

/* The text ends inside the container that opened at off. */
static void ends_inside(struct scan *s, char bracket, size_t off)
{
	unsigned line, col;
	carc_src_position(s->src, off, &line, &col);
	problem(s, s->n, 0, "the text ends inside the %s opened at line %u, column %u",
		bracket == '[' ? "array" : "object", line, col);
}

/* An object key and its ':' at s->i. */
static bool scan_key(struct scan *s, bool after_comma, size_t open_at)
{
	skip_space(s);
	if (s->i == s->n || s->p[s->i] != '"') {
		if (s->i == s->n)
			ends_inside(s, '{', open_at);
		else if (after_comma && s->p[s->i] == '}')
			problem(s, s->i, 1, "a member is missing after the comma (a trailing comma is not JSON)");
		else if (s->p[s->i] == '/')
			problem(s, s->i, 1, "comments are not JSON");
		else
			problem(s, s->i, 1, "an object key is a \"string\"");
		return false;
	}
	if (!scan_string(s))
		return false;
	skip_space(s);
	if (s->i == s->n) {
		ends_inside(s, '{', open_at);
		return false;
	}
	if (s->p[s->i] != ':') {
		problem(s, s->i, 1, "a ':' is expected after the key");
		return false;
	}
	s->i++;
	return true;
}

/* Scans the whole text: true when it is one JSON value within the caps. */
static bool scan(struct scan *s)
{
	char stack[CARC_JSON_MAX_DEPTH]; /* '[' or '{' of each open container */
	size_t open_at[CARC_JSON_MAX_DEPTH];
	int depth = 0;
	bool after_comma = false, want_key = false;
	if (s->n - s->i > CARC_JSON_MAX_BYTES) {
		problem(s, s->i + CARC_JSON_MAX_BYTES, 1, "the JSON text is longer than %u MiB", CARC_JSON_MAX_BYTES >> 20);
		return false;
	}
	for (;;) {
		if (want_key) {
			if (!scan_key(s, after_comma, open_at[depth - 1]))
				return false;
			want_key = after_comma = false;
		}
		/* a value is expected */
		skip_space(s);
		if (s->i == s->n) {
			if (depth == 0)
				problem(s, s->i, 0, "the input is empty: a JSON value is expected");
			else
				ends_inside(s, stack[depth - 1], open_at[depth - 1]);
			return false;
		}
		unsigned char c = s->p[s->i];
		bool ok = true;
		if (c == '[' || c == '{') {
			if (depth == CARC_JSON_MAX_DEPTH) {
				problem(s, s->i, 1, "the JSON nests deeper than %d arrays and objects", CARC_JSON_MAX_DEPTH);
				return false;
			}
			if (!record(s, s->i, 1))
				return false;
			open_at[depth] = s->i;
			stack[depth++] = (char)c;
			s->i++;
			skip_space(s);
			if (s->i < s->n && s->p[s->i] == (c == '[' ? ']' : '}')) {
				s->i++;
				depth--;
			} else {
				want_key = c == '{';
				after_comma = false;
				continue;
			}
		} else if (c == '"') {
			ok = scan_string(s);
		} else if (c == '-' || is_digit(c)) {
			ok = scan_number(s);
		} else if (c == 't' && s->n - s->i >= 4 && !memcmp(s->p + s->i, "true", 4)) {
			ok = record(s, s->i, 4), s->i += 4;
		} else if (c == 'f' && s->n - s->i >= 5 && !memcmp(s->p + s->i, "false", 5)) {
			ok = record(s, s->i, 5), s->i += 5;
		} else if (c == 'n' && s->n - s->i >= 4 && !memcmp(s->p + s->i, "null", 4)) {
			ok = record(s, s->i, 4), s->i += 4;
		} else {
			not_a_value(s, after_comma);
			return false;
		}
		if (!ok)
			return false;
		/* after a value: a comma, a closing bracket, or the end */
		for (;;) {
			skip_space(s);
			if (depth == 0) {
				if (s->i < s->n) {
					problem(s, s->i, 1, "text after the end of the JSON value");
					return false;
				}
				return true;
			}
			char top = stack[depth - 1];
			if (s->i == s->n) {
				ends_inside(s, top, open_at[depth - 1]);
				return false;
			}
			c = s->p[s->i];
			if (c == (top == '[' ? ']' : '}')) {
				s->i++;
				depth--;
				continue;
			}
			if (c != ',') {
				if (c == '/')
					problem(s, s->i, 1, "comments are not JSON");
				else
					problem(s, s->i, 1, "a ',' or '%c' is expected here", top == '[' ? ']' : '}');
				return false;
			}
			s->i++;
			after_comma = true;
			want_key = top == '{';
			break;
		}
	}
}

/* ---- the positions table ---- */

static size_t slot_of(const struct carc_json_doc *d, const void *ptr)
{
	uint64_t h = (uint64_t)(uintptr_t)ptr * 0x9E3779B97F4A7C15u;
	size_t i = (size_t)(h >> 32) & (d->cap - 1);
	while (d->table[i].ptr && d->table[i].ptr != ptr)
		i = (i + 1) & (d->cap - 1);
	return i;
}

static void put(struct carc_json_doc *d, const void *ptr, size_t ev, size_t kids)
{
	struct entry *e = &d->table[slot_of(d, ptr)];
	*e = (struct entry){ptr, (uint32_t)ev, (uint32_t)kids};
}

static const struct entry *get(const struct carc_json_doc *d, const void *ptr)
{
	if (!ptr || !d->cap)
		return NULL;
	const struct entry *e = &d->table[slot_of(d, ptr)];
	return e->ptr ? e : NULL;
}

static bool shared(const json_t *v)
{
	return json_is_true(v) || json_is_false(v) || json_is_null(v);
}

/* Pairs v and everything in it with the spans from *next on, in the scan's
 * order: a value, then for an object each key and its value. */
static bool walk(struct carc_json_doc *d, json_t *v, size_t *next)
{
	size_t ev = (*next)++;
	if (ev >= d->nspans)
		return false;
	if (json_is_object(v)) {
		put(d, v, ev, 0);
		const char *key;
		json_t *val;
		json_object_foreach(v, key, val) {
			if (*next >= d->nspans)
				return false;
			put(d, key, (*next)++, 0);
			if (!walk(d, val, next))
				return false;
		}
	} else if (json_is_array(v)) {
		size_t k0 = d->nkids, n = json_array_size(v);
		if (n > d->nspans - d->nkids)
			return false;
		d->nkids += n;
		put(d, v, ev, k0);
		for (size_t i = 0; i < n; i++) {
			d->kids[k0 + i] = (uint32_t)*next;
			if (!walk(d, json_array_get(v, i), next))
				return false;
		}
	} else if (!shared(v)) {
		put(d, v, ev, 0);
	}
	return true;
}

/* The span that starts last before off (the token jansson was reading). */
static size_t span_before(const struct scan *s, size_t off)
{
	size_t lo = 0, hi = s->nspans; /* the answer is in [lo, hi) */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->spans[mid].off < off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void jansson_problem(struct scan *s, const json_error_t *err, size_t base)
{
	struct carc_json_span at = s->nspans ? s->spans[span_before(s, base + (size_t)err->position)]
					      : (struct carc_json_span){0, 0};
	const char *tok = (const char *)s->p + at.off;
	int shown = at.len > 60 ? 60 : (int)at.len;
	switch (json_error_code(err)) {
	case json_error_duplicate_key:
		problem(s, at.off, at.len, "the key %.*s%s appears twice in one object", shown, tok,
			(size_t)shown < at.len ? "..." : "");
		break;
	case json_error_numeric_overflow:
		problem(s, at.off, at.len, "the number %.*s%s is too large", shown, tok,
			(size_t)shown < at.len ? "..." : "");
		break;
	default:
		problem(s, at.off, at.len, "cannot read the JSON: %s", err->text);
		break;
	}
}

struct carc_json_doc *carc_json_read(const struct carc_src *src, enum carc_code code,
				     struct carc_diag_sink *sink)
{
	struct scan s = {.src = src, .p = (const unsigned char *)(src->text ? src->text : ""), .n = src->len,
			 .code = code, .sink = sink};
	if (s.n >= 3 && !memcmp(s.p, "\xef\xbb\xbf", 3))
		s.i = 3;
	size_t base = s.i;
	if (!scan(&s)) {
		free(s.spans);
		return NULL;
	}
	json_error_t err;
	json_t *root = json_loadb((const char *)s.p + base, s.n - base, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
	if (!root) {
		jansson_problem(&s, &err, base);
		free(s.spans);
		return NULL;
	}
	struct carc_json_doc *d = xcalloc(1, sizeof *d);
	d->root = root;
	d->spans = s.spans;
	d->nspans = s.nspans;
	d->kids = xmalloc(s.nspans * sizeof *d->kids);
	d->cap = 16;
	while (d->cap < 2 * s.nspans)
		d->cap *= 2;
	d->table = xcalloc(d->cap, sizeof *d->table);
	size_t next = 0;
	if (!walk(d, root, &next) || next != d->nspans) {
		/* never expected: jansson read the text otherwise than the scan */
		problem(&s, 0, 0, "the JSON tree does not match its text; this is a bug in carc, please report it");
		carc_json_free(d);
		return NULL;
	}
	return d;
}

void carc_json_free(struct carc_json_doc *doc)
{
	if (!doc)
		return;
	json_decref(doc->root);
	free(doc->spans);
	free(doc->kids);
	free(doc->table);
	free(doc);
}

json_t *carc_json_root(const struct carc_json_doc *doc)
{
	return doc->root;
}

bool carc_json_where(const struct carc_json_doc *doc, const json_t *v, struct carc_json_span *at)
{
	if (v && v == doc->root) {
		*at = doc->spans[0];
		return true;
	}
	const struct entry *e = shared(v) ? NULL : get(doc, v);
	if (!e)
		return false;
	*at = doc->spans[e->ev];
	return true;
}

bool carc_json_member_where(const struct carc_json_doc *doc, const json_t *obj, const char *key,
			    struct carc_json_span *key_at, struct carc_json_span *value_at)
{
	void *it = json_is_object(obj) ? json_object_iter_at((json_t *)obj, key) : NULL;
	const struct entry *e = it ? get(doc, json_object_iter_key(it)) : NULL;
	if (!e)
		return false;
	if (key_at)
		*key_at = doc->spans[e->ev];
	if (value_at)
		*value_at = doc->spans[e->ev + 1]; /* a value follows its key */
	return true;
}

bool carc_json_item_where(const struct carc_json_doc *doc, const json_t *arr, size_t i, struct carc_json_span *at)
{
	const struct entry *e = json_is_array(arr) ? get(doc, arr) : NULL;
	if (!e || i >= json_array_size(arr))
		return false;
	*at = doc->spans[doc->kids[e->kids + i]];
	return true;
}

const char *carc_json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "true or false";
	default:
		return "null";
	}
}
