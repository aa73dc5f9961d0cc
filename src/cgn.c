/*
 * cgn.c - the CGN reader and parser.
 *
 * Grammar (the full specification is notation/cgn.md):
 *
 *   file      = { game } ;
 *   game      = { tag-line } { move-line } ;   a tag line after movetext
 *                                              starts the next game
 *   tag-line  = "[" NAME STRING "]" ;
 *   move-line = [ turn-mark ] COLOUR TILE ( placement | "discard" ) [ claim ] ;
 *   turn-mark = NUMBER "." | NUMBER "+" | "+" ;
 *   placement = COORD ROTATION [ deploy ] [ order ] ;
 *   deploy    = "-" | ROLE SPOT ;
 *   order     = "order" spot-ref { spot-ref } ;
 *   spot-ref  = SPOT | COORD ":" SPOT ;
 *   claim     = "=" COLOUR NUMBER { "," COLOUR NUMBER } ;
 *   comment   = ";" ... end of line | "{" ... "}" ;  anywhere between tokens
 *
 * The reader keeps the text of the current game in one buffer, reading the
 * input in blocks, and drops it when the next game is read; spans in the
 * record are offsets into that text. One line is one turn, except that a
 * { comment } may run over several lines. Each function below parses one
 * rule of the grammar; on a syntax error it reports, marks the move bad and
 * the rest of the line is skipped, so that every error of a game is seen.
 */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 65536
#define KEEP_OF_LONG_LINE 256
#define MAX_COORD 1000000

static const char *const colour_names[CARC_COLOURS] = {"red", "green", "blue", "yellow", "black", "gray", "pink"};
static const char *const spot_names[CARC_SPOT_COUNT] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW",
							 "N", "E", "S", "W", "C"};
static const char *const tag_names[CARC_TAG_KNOWN] = {
	"Event", "Site", "Date", "Round", "Rules", "Tileset", "Edition", "Seats", "Followers", "Huts",
	"Start", "Table", "EndOrder", "Result"};

const char *carc_colour_name(int colour) { return colour >= 0 && colour < CARC_COLOURS ? colour_names[colour] : "?"; }
const char *carc_spot_name(int spot) { return spot >= 0 && spot < CARC_SPOT_COUNT ? spot_names[spot] : "?"; }

int carc_colour_lookup(const char *p, size_t len)
{
	int c;
	switch (len ? p[0] | 0x20 : 0) {
	case 'r': c = CARC_RED; break;
	case 'g': c = len >= 3 && (p[2] | 0x20) == 'e' ? CARC_GREEN : CARC_GRAY; break;
	case 'b': c = len >= 3 && (p[2] | 0x20) == 'u' ? CARC_BLUE : CARC_BLACK; break;
	case 'y': c = CARC_YELLOW; break;
	case 'p': c = CARC_PINK; break;
	default: return -1;
	}
	if (carc_slice_ieq(p, len, colour_names[c]))
		return c;
	if (c == CARC_GRAY && carc_slice_ieq(p, len, "grey"))
		return CARC_GRAY;
	return -1;
}

int carc_spot_lookup(const char *p, size_t len)
{
	for (int i = 0; i < CARC_SPOT_COUNT; i++)
		if (carc_slice_ieq(p, len, spot_names[i]))
			return i;
	return -1;
}

const char *carc_tag_name(int id)
{
	if (id >= 0 && id < CARC_TAG_KNOWN)
		return tag_names[id];
	if (id >= CARC_TAG_KNOWN && id < CARC_TAG_UNKNOWN) {
		static const char *const cap[CARC_COLOURS] = {"Red", "Green", "Blue", "Yellow", "Black", "Gray", "Pink"};
		return cap[id - CARC_TAG_KNOWN];
	}
	return NULL;
}

int carc_tag_lookup(const char *p, size_t len)
{
	for (int i = 0; i < CARC_TAG_UNKNOWN; i++)
		if (carc_slice_eq(p, len, carc_tag_name(i)))
			return i;
	return CARC_TAG_UNKNOWN;
}

/* ---- the reader: input blocks, logical lines ---- */

struct carc_reader {
	FILE *f;
	const char *name;
	struct carc_tileset_cache *cache;
	char *alloc;       /* the allocation; buf points into it at the current game */
	size_t alloc_cap;
	char *buf;         /* buf[0] is the first byte of the current game */
	size_t len, cap;   /* bytes held from buf on, and room from buf on */
	size_t pos;        /* start of the next line */
	unsigned line;     /* line number at pos */
	bool eof, failed;
	unsigned games;
	int read_errno;
};

struct carc_reader *carc_reader_new(FILE *f, const char *name, struct carc_tileset_cache *cache)
{
	struct carc_reader *r = xcalloc(1, sizeof *r);
	r->f = f;
	r->name = name;
	r->cache = cache;
	r->line = 1;
	r->alloc_cap = r->cap = 1 << 16;
	r->alloc = r->buf = xmalloc(r->cap);
	return r;
}

void carc_reader_free(struct carc_reader *r)
{
	if (!r)
		return;
	free(r->alloc);
	free(r);
}

bool carc_reader_failed(const struct carc_reader *r) { return r->failed; }

/* Reads one more block. Returns false at the end of the input. */
static bool fill(struct carc_reader *r)
{
	if (r->eof)
		return false;
	if (r->cap - r->len < 4096 && r->buf != r->alloc) {
		/* Move the current game to the front: done once a block, not once a game. */
		memmove(r->alloc, r->buf, r->len);
		r->buf = r->alloc;
		r->cap = r->alloc_cap;
	}
	if (r->cap - r->len < 4096) {
		r->alloc_cap *= 2;
		r->alloc = r->buf = xrealloc(r->alloc, r->alloc_cap);
		r->cap = r->alloc_cap;
	}
	if (!r->f) {
		r->eof = true;
		return false;
	}
	size_t n = fread(r->buf + r->len, 1, r->cap - r->len, r->f);
	r->len += n;
	if (n == 0) {
		if (ferror(r->f)) {
			r->failed = true;
			r->read_errno = errno;
		}
		r->eof = true;
		return false;
	}
	return true;
}

struct parser {
	struct carc_reader *r;
	struct carc_record *rec;
	struct carc_diag_sink *sink;
	size_t line_start, line_end; /* the logical line being parsed, in r->buf */
	bool multiline;              /* it may hold newlines (a { comment }) */
	bool in_moves;
	bool line_bad;
};

/* The record's source must point into the buffer, which may have moved. */
static struct carc_src *src_of(struct parser *ps)
{
	ps->rec->src.text = ps->r->buf;
	ps->rec->src.len = ps->r->len;
	return &ps->rec->src;
}

static void report(struct parser *ps, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
	CARC_PRINTF(5, 6);

static void report(struct parser *ps, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ps->rec->syntax_errors++;
	ps->line_bad = true;
	carc_diag_report(ps->sink, code, src_of(ps), off, len, "%s", msg);
}

/* Finds the end of the logical line that starts at r->pos: the first newline
 * that is not inside a { comment } or a tag's "string". Reads more input as
 * needed; cuts over-long lines to their first bytes. Returns false when there
 * is no line left. */
static bool next_line(struct parser *ps)
{
	struct carc_reader *r = ps->r;
	size_t scan = r->pos;
	bool in_brace = false, in_string = false, in_semicolon = false, is_tag = false, first = true;
	size_t brace_at = 0;

	/* Fast path: the line is in the buffer and has no { comment. */
	const char *eol = r->pos < r->len ? memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
	if (eol && (size_t)(eol - (r->buf + r->pos)) <= MAX_LINE && !memchr(r->buf + r->pos, 0x7b, (size_t)(eol - (r->buf + r->pos)))) {
		ps->line_start = r->pos;
		ps->line_end = (size_t)(eol - r->buf);
		ps->multiline = false;
		return true;
	}
	ps->multiline = true;

	for (;;) {
		if (scan >= r->len) {
			if (!fill(r)) {
				if (scan == r->pos)
					return false;
				if (in_brace)
					report(ps, CARC_E004, brace_at, 1, "comment opened with { is not closed before the end of the input");
				ps->line_start = r->pos;
				ps->line_end = scan;
				return true;
			}
			continue;
		}
		if (!in_brace && !in_string && !in_semicolon) {
			/* Fast path: jump to the next byte that matters. */
			const char *p = r->buf + scan, *end = r->buf + r->len;
			while (p < end && *p != '\n' && *p != '{' && *p != ';' && *p != '"' && *p != '[') {
				if (first && *p != ' ' && *p != '\t')
					first = false;
				p++;
			}
			scan = (size_t)(p - r->buf);
			if (scan >= r->len)
				continue;
		}
		char c = r->buf[scan];
		if (scan - r->pos > MAX_LINE && !in_brace) {
			/* Keep the first bytes for the message; drop the rest of the line. */
			size_t keep = r->pos + KEEP_OF_LONG_LINE;
			report(ps, CARC_E003, r->pos, 1, "line longer than %d bytes; it is skipped", MAX_LINE);
			size_t tail = r->len - scan;
			memmove(r->buf + keep, r->buf + scan, tail);
			r->len = keep + tail;
			scan = keep;
			for (;;) {
				char *nl = memchr(r->buf + scan, '\n', r->len - scan);
				if (nl) {
					size_t rest = r->len - (size_t)(nl - r->buf);
					memmove(r->buf + keep, nl, rest);
					r->len = keep + rest;
					break;
				}
				r->len = keep;
				if (!fill(r))
					break;
			}
			ps->line_start = r->pos;
			ps->line_end = keep;
			ps->line_bad = true;
			return true;
		}
		if (in_brace) {
			char *close = memchr(r->buf + scan, '}', r->len - scan);
			if (!close) {
				size_t old = r->len;
				if (!fill(r)) {
					scan = r->len;
					continue;
				}
				scan = old;
				continue;
			}
			scan = (size_t)(close - r->buf) + 1;
			in_brace = false;
			continue;
		}
		if (in_string) {
			if (c == '\\' && scan + 1 < r->len)
				scan += 2;
			else if (c == '"' || c == '\n')
				in_string = false, scan += (c == '"');
			else
				scan++;
			continue;
		}
		if (c == '\n') {
			ps->line_start = r->pos;
			ps->line_end = scan;
			return true;
		}
		if (in_semicolon) {
			char *nl = memchr(r->buf + scan, '\n', r->len - scan);
			scan = nl ? (size_t)(nl - r->buf) : r->len;
			continue;
		}
		if (c == '[' && first)
			is_tag = true;
		first = false;
		if (c == '{') {
			in_brace = true;
			brace_at = scan;
		} else if (c == ';') {
			in_semicolon = true;
		} else if (c == '"' && is_tag) {
			in_string = true;
		}
		scan++;
	}
}

/* Moves past the current line. */
static void consume_line(struct parser *ps)
{
	struct carc_reader *r = ps->r;
	if (ps->multiline)
		for (size_t i = r->pos; i < ps->line_end; i++)
			if (r->buf[i] == '\n')
				r->line++;
	r->pos = ps->line_end;
	if (r->pos < r->len && r->buf[r->pos] == '\n') {
		r->pos++;
		r->line++;
	}
}

/* ---- record arrays ---- */

#define GROW(rec, arr, n, cap)                                                   \
	do {                                                                     \
		if ((rec)->n == (rec)->cap) {                                    \
			(rec)->cap = (rec)->cap ? 2 * (rec)->cap : 16;           \
			(rec)->arr = xrealloc((rec)->arr, (rec)->cap * sizeof *(rec)->arr); \
		}                                                                \
	} while (0)

static void add_comment(struct parser *ps, size_t off, size_t len, bool trailing)
{
	struct carc_record *rec = ps->rec;
	GROW(rec, comments, ncomments, comments_cap);
	struct carc_comment *c = &rec->comments[rec->ncomments++];
	c->span = (struct carc_span){(uint32_t)off, (uint32_t)len};
	if (ps->in_moves) {
		c->place = trailing ? CARC_AFTER_MOVE : CARC_BEFORE_MOVE;
		c->index = (uint32_t)(trailing ? rec->nmoves - 1 : rec->nmoves);
	} else {
		c->place = trailing ? CARC_AFTER_TAG : CARC_BEFORE_TAG;
		c->index = (uint32_t)(trailing ? rec->ntags - 1 : rec->ntags);
	}
}

void carc_record_free(struct carc_record *rec)
{
	free(rec->tags);
	free(rec->moves);
	free(rec->claims);
	free(rec->order);
	free(rec->comments);
	carc_buf_free(&rec->text);
	memset(rec, 0, sizeof *rec);
}

const char *carc_tag_text(const struct carc_record *rec, const struct carc_tag *tag)
{
	return rec->text.data + tag->text;
}

const char *carc_record_tag(const struct carc_record *rec, int tag_id)
{
	int i = rec->tag_index[tag_id];
	return i < 0 ? NULL : carc_tag_text(rec, &rec->tags[i]);
}

/* ---- the scanner within a line ---- */

struct cursor {
	struct parser *ps;
	const char *buf;
	size_t p, end;
};

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Checks the byte at c->p: plain ASCII is fine; a control byte or malformed
 * UTF-8 is reported. Returns the length of the character, 0 when bad. */
static size_t char_len(struct cursor *c, size_t at)
{
	unsigned char b = (unsigned char)c->buf[at];
	if (b >= 0x20 && b < 0x7f)
		return 1;
	if (b == '\t' || b == '\r' || b == '\n')
		return 1;
	size_t n = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
	if (b >= 0xf5)
		n = 0;
	if (n && at + n <= c->end) {
		for (size_t i = 1; i < n; i++)
			if (((unsigned char)c->buf[at + i] & 0xc0) != 0x80)
				return 0;
		return n;
	}
	return 0;
}

static void bad_byte(struct cursor *c, size_t at)
{
	unsigned char b = (unsigned char)c->buf[at];
	if (b == 0)
		report(c->ps, CARC_E002, at, 1, "NUL byte: this does not look like a text file");
	else if (b < 0x20 || b == 0x7f)
		report(c->ps, CARC_E002, at, 1, "control character 0x%02x in the text", b);
	else
		report(c->ps, CARC_E002, at, 1, "malformed UTF-8 (byte 0x%02x)", b);
}

/* Checks that [from, to) is well-formed text. */
static bool check_text(struct cursor *c, size_t from, size_t to)
{
	for (size_t i = from; i < to;) {
		unsigned char b = (unsigned char)c->buf[i];
		if (b >= 0x20 && b < 0x7f) {
			i++;
			continue;
		}
		size_t n = char_len(c, i);
		if (!n) {
			bad_byte(c, i);
			return false;
		}
		i += n;
	}
	return true;
}

/* Skips blanks and comments; records the comments. */
static void skip_space(struct cursor *c, bool trailing)
{
	while (c->p < c->end) {
		char ch = c->buf[c->p];
		if (is_space(ch)) {
			c->p++;
		} else if (ch == ';') {
			size_t from = c->p;
			c->p = c->end;
			if (check_text(c, from, c->end))
				add_comment(c->ps, from, c->end - from, trailing);
		} else if (ch == '{') {
			size_t from = c->p;
			const char *close = memchr(c->buf + c->p, '}', c->end - c->p);
			c->p = close ? (size_t)(close - c->buf) + 1 : c->end;
			if (check_text(c, from, c->p) && close)
				add_comment(c->ps, from, c->p - from, trailing);
		} else {
			return;
		}
	}
}

static bool at_end(struct cursor *c) { return c->p >= c->end; }

/* A word: everything up to a blank, a comment, '=' or ','. Bad bytes are
 * reported. Returns its length (0 at the end or on a bad byte). */
static size_t word(struct cursor *c, size_t *start)
{
	*start = c->p;
	size_t i = c->p;
	while (i < c->end) {
		unsigned char b = (unsigned char)c->buf[i];
		if (b > ' ' && b < 0x7f && b != ';' && b != '{' && b != '=' && b != ',') {
			i++;
			continue;
		}
		if (b == ' ' || b == '\t' || b == '\r' || b == ';' || b == '{' || b == '=' || b == ',')
			break;
		if (b < 0x20 || b >= 0x7f) {
			size_t n = char_len(c, i);
			if (!n || b < 0x20 || b == 0x7f) {
				bad_byte(c, i);
				c->p = c->end;
				return 0;
			}
			i += n;
			continue;
		}
		i++;
	}
	c->p = i;
	return i - *start;
}

/* Parses a whole decimal number from a slice; false if it is not one. */
static bool parse_int(const char *s, size_t n, long lo, long hi, long *out)
{
	size_t i = 0;
	bool neg = false;
	if (n && (s[0] == '-' || s[0] == '+')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == n || n - i > 9)
		return false;
	long v = 0;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (neg)
		v = -v;
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static struct carc_span span(size_t from, size_t len)
{
	return (struct carc_span){(uint32_t)from, (uint32_t)len};
}

/* claim-list = COLOUR NUMBER { "," COLOUR NUMBER } ; into rec->claims. */
static bool parse_claims(struct cursor *c, enum carc_code code, uint16_t *first, uint16_t *count, const char *what)
{
	struct carc_record *rec = c->ps->rec;
	size_t begin = rec->nclaims;
	unsigned seen = 0;
	for (;;) {
		skip_space(c, true);
		size_t s, n = word(c, &s);
		if (c->ps->line_bad)
			return false;
		if (!n) {
			report(c->ps, code, c->p < c->end ? c->p : (c->end ? c->end - 1 : 0), 1,
			       "%s: expected a colour and its points, as in 'red 12, green 8'", what);
			return false;
		}
		int col = carc_colour_lookup(c->buf + s, n);
		if (col < 0) {
			report(c->ps, code, s, n, "%s: '%.*s' is not a colour", what, (int)n, c->buf + s);
			return false;
		}
		if (seen & (1u << col)) {
			report(c->ps, code, s, n, "%s: %s is given twice", what, colour_names[col]);
			return false;
		}
		seen |= 1u << col;
		skip_space(c, true);
		size_t ns, nn = word(c, &ns);
		long pts;
		if (c->ps->line_bad)
			return false;
		if (!nn || !parse_int(c->buf + ns, nn, 0, 100000, &pts) || c->buf[ns] == '-' || c->buf[ns] == '+') {
			report(c->ps, code, nn ? ns : s, nn ? nn : n, "%s: %s needs a score, a whole number",
			       what, colour_names[col]);
			return false;
		}
		GROW(rec, claims, nclaims, claims_cap);
		rec->claims[rec->nclaims++] = (struct carc_claim){(uint8_t)col, (int32_t)pts, span(s, ns + nn - s),
								   span(ns, nn)};
		skip_space(c, true);
		if (c->p < c->end && c->buf[c->p] == ',') {
			c->p++;
			continue;
		}
		break;
	}
	*first = (uint16_t)begin;
	*count = (uint16_t)(rec->nclaims - begin);
	return true;
}

/* ---- tags ---- */

static void parse_tag(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	struct cursor c = {ps, ps->r->buf, ps->line_start, ps->line_end};
	skip_space(&c, false);
	size_t tag_start = c.p;
	c.p++; /* '[' */
	while (c.p < c.end && is_space(c.buf[c.p]))
		c.p++;
	size_t ns = c.p;
	while (c.p < c.end && ((c.buf[c.p] >= 'A' && c.buf[c.p] <= 'Z') || (c.buf[c.p] >= 'a' && c.buf[c.p] <= 'z') ||
			       (c.buf[c.p] >= '0' && c.buf[c.p] <= '9') || c.buf[c.p] == '_'))
		c.p++;
	size_t nlen = c.p - ns;
	if (nlen == 0 || !(c.buf[ns] >= 'A' && c.buf[ns] <= 'Z') ) {
		report(ps, CARC_E005, ns < c.end ? ns : tag_start, 1,
		       "a tag is [Name \"value\"], its name a word starting with a capital letter");
		return;
	}
	while (c.p < c.end && is_space(c.buf[c.p]))
		c.p++;
	if (c.p >= c.end || c.buf[c.p] != '"') {
		report(ps, CARC_E005, c.p < c.end ? c.p : c.end - 1, 1, "tag %.*s: expected its value in double quotes",
		       (int)nlen, c.buf + ns);
		return;
	}
	size_t vs = ++c.p;
	size_t text_at = rec->text.len;
	while (c.p < c.end && c.buf[c.p] != '"') {
		if (c.buf[c.p] == '\\' && c.p + 1 < c.end && (c.buf[c.p + 1] == '"' || c.buf[c.p + 1] == '\\'))
			c.p++;
		unsigned char b = (unsigned char)c.buf[c.p];
		size_t n = b >= 0x20 && b < 0x7f ? 1 : char_len(&c, c.p);
		if (!n || b < 0x20 || b == 0x7f) {
			if (b == '\t') {
				n = 1;
			} else {
				bad_byte(&c, c.p);
				return;
			}
		}
		carc_buf_add(&rec->text, c.buf + c.p, n);
		c.p += n;
	}
	if (c.p >= c.end) {
		report(ps, CARC_E005, vs - 1, 1, "tag %.*s: the value's closing quote is missing", (int)nlen, c.buf + ns);
		return;
	}
	size_t ve = c.p++;
	carc_buf_addc(&rec->text, '\0');
	while (c.p < c.end && is_space(c.buf[c.p]))
		c.p++;
	if (c.p >= c.end || c.buf[c.p] != ']') {
		report(ps, CARC_E005, c.p < c.end ? c.p : c.end - 1, 1, "tag %.*s: expected ] after the value",
		       (int)nlen, c.buf + ns);
		return;
	}
	c.p++;
	int id = carc_tag_lookup(c.buf + ns, nlen);
	for (size_t i = 0; i < rec->ntags; i++) {
		struct carc_tag *t = &rec->tags[i];
		if (t->name.len == nlen && !memcmp(c.buf + t->name.off, c.buf + ns, nlen)) {
			unsigned line, col;
			carc_src_position(src_of(ps), t->span.off, &line, &col);
			report(ps, CARC_E006, ns, nlen, "tag %.*s is already given on line %u", (int)nlen, c.buf + ns, line);
			return;
		}
	}
	GROW(rec, tags, ntags, tags_cap);
	struct carc_tag *t = &rec->tags[rec->ntags];
	t->span = span(tag_start, c.p - tag_start);
	t->name = span(ns, nlen);
	t->value = span(vs, ve - vs);
	t->text = (uint32_t)text_at;
	t->text_len = (uint32_t)(rec->text.len - 1 - text_at);
	if (id != CARC_TAG_UNKNOWN)
		rec->tag_index[id] = (int)rec->ntags;
	rec->ntags++;
	skip_space(&c, true);
	if (!at_end(&c))
		report(ps, CARC_E005, c.p, 1, "unexpected text after the tag; one tag per line");
}

/* ---- the header: known tags' values, defaults ---- */

static void header_error(struct parser *ps, enum carc_code code, int tag, const char *fmt, ...)
	CARC_PRINTF(4, 5);

static void header_error(struct parser *ps, enum carc_code code, int tag, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const struct carc_tag *t = &ps->rec->tags[ps->rec->tag_index[tag]];
	ps->rec->header_errors++;
	report(ps, code, t->value.off, t->value.len ? t->value.len : 1, "%s", msg);
}

static bool is_leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static void check_date(struct parser *ps, const char *v)
{
	long y, m, d;
	static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool ok = strlen(v) == 10 && v[4] == '-' && v[7] == '-' && parse_int(v, 4, 1, 9999, &y) &&
		  parse_int(v + 5, 2, 1, 12, &m) && parse_int(v + 8, 2, 1, 31, &d) && v[5] != '+' && v[8] != '+' &&
		  d <= days[m - 1] && !(m == 2 && d == 29 && !is_leap(y));
	if (!ok)
		header_error(ps, CARC_E009, CARC_TAG_DATE, "Date '%s' is not a date written YYYY-MM-DD", v);
}

static void parse_seats(struct parser *ps, const char *v)
{
	struct carc_record *rec = ps->rec;
	unsigned seen = 0;
	rec->nseats = 0;
	for (const char *p = v; *p;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		size_t n = strcspn(p, " ,\t");
		if (!n)
			break;
		int col = carc_colour_lookup(p, n);
		char w[64];
		snprintf(w, sizeof w, "%.*s", (int)(n < 40 ? n : 40), p);
		if (col < 0) {
			header_error(ps, CARC_E010, CARC_TAG_SEATS,
				     "Seats: '%s' is not a colour (red green blue yellow black gray pink)", w);
			return;
		}
		if (seen & (1u << col)) {
			header_error(ps, CARC_E010, CARC_TAG_SEATS, "Seats: %s sits twice", w);
			return;
		}
		seen |= 1u << col;
		rec->seats[rec->nseats++] = (uint8_t)col;
		p += n;
	}
	if (rec->nseats < rec->rules->min_seats || rec->nseats > rec->rules->max_seats)
		header_error(ps, CARC_E010, CARC_TAG_SEATS, "Seats: '%s' has %d colours; %s rules seat %d to %d",
			     v, rec->nseats, rec->rules->name, rec->rules->min_seats, rec->rules->max_seats);
	rec->seats_given = true;
}

static bool number_tag(struct parser *ps, int tag, long lo, long hi, int *out)
{
	const char *v = carc_record_tag(ps->rec, tag);
	long n;
	if (!v)
		return false;
	if (!parse_int(v, strlen(v), lo, hi, &n) || v[0] == '+') {
		header_error(ps, CARC_E011, tag, "%s '%s' is not valid (a whole number from %ld to %ld)",
			     carc_tag_name(tag), v, lo, hi);
		return false;
	}
	*out = (int)n;
	return true;
}

/* Resolves the known tags once the header is complete. */
static void finish_header(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const char *v;

	rec->rules = carc_ruleset_get(CARC_RULES_BASE);
	if ((v = carc_record_tag(rec, CARC_TAG_RULES))) {
		const struct carc_ruleset *rs = carc_ruleset_find(v, strlen(v));
		if (rs)
			rec->rules = rs;
		else
			header_error(ps, CARC_E007, CARC_TAG_RULES, "Rules '%s' is not a rule set (base, solo, hunters)", v);
	}
	const struct carc_ruleset *rs = rec->rules;
	rec->edition = 3;
	if ((v = carc_record_tag(rec, CARC_TAG_EDITION))) {
		if (!strcmp(v, "1") || !strcmp(v, "2") || !strcmp(v, "3"))
			rec->edition = v[0] - '0';
		else
			header_error(ps, CARC_E008, CARC_TAG_EDITION, "Edition '%s' is not 1, 2 or 3", v);
	}
	if ((v = carc_record_tag(rec, CARC_TAG_DATE)))
		check_date(ps, v);
	if ((v = carc_record_tag(rec, CARC_TAG_SEATS)))
		parse_seats(ps, v);
	rec->followers = rs->followers;
	number_tag(ps, CARC_TAG_FOLLOWERS, rs->min_followers, rs->max_followers, &rec->followers);
	rec->huts = rs->huts;
	number_tag(ps, CARC_TAG_HUTS, 0, 99, &rec->huts);

	const char *tsname = rs->tileset;
	struct carc_span tsspan = {0, 0};
	const struct carc_src *tssrc = NULL;
	if (rec->tag_index[CARC_TAG_TILESET] >= 0) {
		const struct carc_tag *t = &rec->tags[rec->tag_index[CARC_TAG_TILESET]];
		tsname = carc_tag_text(rec, t);
		tsspan = t->value;
		tssrc = src_of(ps);
	}
	unsigned before = ps->sink->errors;
	rec->tileset = carc_tileset_cache_get(ps->r->cache, tsname, ps->sink, tssrc, tsspan.off, tsspan.len);
	if (!rec->tileset) {
		unsigned n = ps->sink->errors - before;
		rec->syntax_errors += n ? n : 1;
		rec->header_errors += n ? n : 1;
	}

	if (rec->tileset) {
		rec->start_tile = rec->tileset->start_tile;
		rec->start_rot = 0;
	}
	if ((v = carc_record_tag(rec, CARC_TAG_START)) && rec->tileset) {
		const char *sp = strchr(v, ' ');
		long deg;
		int tile = sp ? carc_tileset_find(rec->tileset, v, (size_t)(sp - v)) : -1;
		if (tile < 0 || !parse_int(sp + 1, strlen(sp + 1), 0, 270, &deg) || deg % 90 || sp[1] == '+' ||
		    sp[1] == '-')
			header_error(ps, CARC_E013, CARC_TAG_START, "Start '%s' is not a tile of the tile set and a rotation "
				     "(0, 90, 180 or 270), as in \"D 0\"", v);
		else if (rec->tileset->tiles[tile].bonus)
			header_error(ps, CARC_E013, CARC_TAG_START, "Start '%s': a bonus tile cannot start the game", v);
		else
			rec->start_tile = tile, rec->start_rot = (int)(deg / 90);
	}
	if ((v = carc_record_tag(rec, CARC_TAG_TABLE))) {
		long w, h;
		const char *x = strchr(v, 'x');
		bool ok = false;
		if (x) {
			size_t a = (size_t)(x - v), b = strlen(x + 1);
			while (a && v[a - 1] == ' ')
				a--;
			const char *hs = x + 1;
			while (*hs == ' ')
				hs++, b--;
			ok = parse_int(v, a, 1, 1000, &w) && parse_int(hs, b, 1, 1000, &h) && v[0] != '-' && v[0] != '+' &&
			     hs[0] != '-' && hs[0] != '+';
		}
		if (ok)
			rec->table_w = (int)w, rec->table_h = (int)h;
		else
			header_error(ps, CARC_E011, CARC_TAG_TABLE, "Table '%s' is not a size in tiles, as in \"12 x 10\"", v);
	}
	if (rec->tag_index[CARC_TAG_RESULT] >= 0) {
		const struct carc_tag *t = &rec->tags[rec->tag_index[CARC_TAG_RESULT]];
		struct cursor c = {ps, ps->r->buf, t->value.off, t->value.off + t->value.len};
		unsigned before_errors = rec->syntax_errors;
		bool saved = ps->line_bad;
		if (parse_claims(&c, CARC_E012, &rec->result_first, &rec->result_count, "Result")) {
			skip_space(&c, true);
			if (!at_end(&c))
				report(ps, CARC_E012, c.p, 1, "Result: unexpected text after the scores");
		}
		if (rec->syntax_errors == before_errors) {
			rec->has_result = true;
			rec->result_span = t->value;
		} else {
			rec->header_errors++;
		}
		ps->line_bad = saved;
	}
}

/* ---- moves ---- */

static bool parse_order(struct cursor *c, struct carc_move *m)
{
	struct carc_record *rec = c->ps->rec;
	m->has_order = true;
	m->order_first = (uint16_t)rec->norder;
	for (;;) {
		skip_space(c, true);
		if (at_end(c) || c->buf[c->p] == '=')
			break;
		size_t s, n = word(c, &s);
		if (!n)
			return false;
		struct carc_order_item it = {.span = span(s, n)};
		const char *spot = c->buf + s;
		size_t spot_len = n;
		if (c->p < c->end && c->buf[c->p] == ',') {
			/* x,y:SPOT */
			long x, y;
			size_t ys, yn;
			c->p++;
			yn = word(c, &ys);
			const char *col = yn ? memchr(c->buf + ys, ':', yn) : NULL;
			if (!col || !parse_int(c->buf + s, n, -MAX_COORD, MAX_COORD, &x) ||
			    !parse_int(c->buf + ys, (size_t)(col - (c->buf + ys)), -MAX_COORD, MAX_COORD, &y)) {
				report(c->ps, CARC_E026, s, (ys + yn) - s, "order: expected a spot or x,y:SPOT");
				return false;
			}
			it.has_coord = true;
			it.x = (int32_t)x;
			it.y = (int32_t)y;
			spot = col + 1;
			spot_len = (size_t)(c->buf + ys + yn - spot);
			it.span = span(s, ys + yn - s);
		}
		int sp = carc_spot_lookup(spot, spot_len);
		if (sp < 0) {
			report(c->ps, CARC_E026, it.span.off, it.span.len, "order: '%.*s' is not a spot", (int)it.span.len,
			       c->buf + it.span.off);
			return false;
		}
		it.spot = (uint8_t)sp;
		GROW(rec, order, norder, order_cap);
		rec->order[rec->norder++] = it;
	}
	m->order_count = (uint16_t)(rec->norder - m->order_first);
	if (!m->order_count) {
		report(c->ps, CARC_E028, c->p ? c->p - 1 : 0, 1, "order needs at least one spot");
		return false;
	}
	return true;
}

static void expect_more(struct cursor *c, const char *what)
{
	size_t at = c->end;
	while (at > c->ps->line_start && is_space(c->buf[at - 1]))
		at--;
	report(c->ps, CARC_E029, at > 0 ? at - 1 : 0, 1, "the turn ends here; expected %s", what);
}

/* deploy = ROLE SPOT ; the role word is at s. */
static bool parse_deploy(struct cursor *c, struct carc_move *m, size_t s, size_t n)
{
	struct parser *ps = c->ps;
	const struct carc_ruleset *rs = ps->rec->rules;
	int role = carc_ruleset_role(rs, c->buf + s, n);
	if (role < 0) {
		char roles[128] = "";
		for (int i = 0; i < rs->nroles; i++)
			snprintf(roles + strlen(roles), sizeof roles - strlen(roles), "%s%s", i ? ", " : "",
				 rs->roles[i].name);
		report(ps, CARC_E025, s, n, "'%.*s' is not a role in %s games (%s)", (int)n, c->buf + s, rs->name, roles);
		return false;
	}
	m->role = (int8_t)role;
	m->role_span = span(s, n);
	skip_space(c, true);
	size_t ss, sn = word(c, &ss);
	if (ps->line_bad)
		return false;
	if (!sn) {
		expect_more(c, "a spot after the role (N, NNE, ..., C)");
		return false;
	}
	int spot = carc_spot_lookup(c->buf + ss, sn);
	if (spot < 0) {
		report(ps, CARC_E026, ss, sn, "'%.*s' is not a spot: an edge N E S W, a half-edge NNW NNE ENE ESE SSE "
		       "SSW WSW WNW, or C", (int)sn, c->buf + ss);
		return false;
	}
	m->spot = (uint8_t)spot;
	m->deploy_span = span(s, ss + sn - s);
	return true;
}

static void parse_move(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const struct carc_tileset *ts = rec->tileset;
	struct cursor c = {ps, ps->r->buf, ps->line_start, ps->line_end};
	GROW(rec, moves, nmoves, moves_cap);
	struct carc_move *m = &rec->moves[rec->nmoves++];
	memset(m, 0, sizeof *m);
	m->turn = -1;
	m->role = -1;
	rec->has_moves = true;

	skip_space(&c, false);
	size_t line_from = c.p;
	size_t s, n;

	/* turn-mark */
	if (c.p < c.end && ((c.buf[c.p] >= '0' && c.buf[c.p] <= '9') || c.buf[c.p] == '+')) {
		n = word(&c, &s);
		if (!n)
			goto bad;
		char last = c.buf[s + n - 1];
		long num = -1;
		bool ok = (last == '.' || last == '+') && (n == 1 ? last == '+' : parse_int(c.buf + s, n - 1, 1, 99999, &num));
		if (n > 1 && (c.buf[s] == '+' || c.buf[s] == '-'))
			ok = false;
		if (!ok) {
			report(ps, CARC_E020, s, n, "'%.*s' is not a turn number; write it as 12. (or 12+ for a bonus turn)",
			       (int)n, c.buf + s);
			goto bad;
		}
		m->number = span(s, n);
		m->turn = (int32_t)num;
		m->bonus = last == '+';
	}
	/* colour */
	skip_space(&c, true);
	n = word(&c, &s);
	if (ps->line_bad)
		goto bad;
	if (!n) {
		expect_more(&c, "a colour");
		goto bad;
	}
	int col = carc_colour_lookup(c.buf + s, n);
	if (col < 0) {
		report(ps, CARC_E021, s, n, "'%.*s' is not a colour (red green blue yellow black gray pink)", (int)n,
		       c.buf + s);
		goto bad;
	}
	m->colour = (uint8_t)col;
	m->colour_span = span(s, n);
	/* tile */
	skip_space(&c, true);
	n = word(&c, &s);
	if (ps->line_bad)
		goto bad;
	if (!n) {
		expect_more(&c, "the tile drawn");
		goto bad;
	}
	m->tile_span = span(s, n);
	if (ts) {
		int t = carc_tileset_find(ts, c.buf + s, n);
		if (t < 0) {
			report(ps, CARC_E022, s, n, "'%.*s' is not a tile of tile set %s", (int)n, c.buf + s, ts->name);
			goto bad;
		}
		m->tile = (uint16_t)t;
	}
	/* placement or discard */
	skip_space(&c, true);
	n = word(&c, &s);
	if (ps->line_bad)
		goto bad;
	if (!n) {
		expect_more(&c, "a position x,y and a rotation, or discard");
		goto bad;
	}
	if (carc_slice_ieq(c.buf + s, n, "discard")) {
		m->discard = true;
		m->coord_span = span(s, n);
	} else {
		long x, y;
		size_t ys = 0, yn = 0;
		bool ok = parse_int(c.buf + s, n, -MAX_COORD, MAX_COORD, &x) && c.buf[s] != '+';
		if (ok && c.p < c.end && c.buf[c.p] == ',') {
			c.p++;
			yn = word(&c, &ys);
			if (ps->line_bad)
				goto bad;
			ok = yn && parse_int(c.buf + ys, yn, -MAX_COORD, MAX_COORD, &y) && c.buf[ys] != '+';
		} else {
			ok = false;
		}
		size_t cend = yn ? ys + yn : c.p;
		if (!ok) {
			report(ps, CARC_E023, s, cend - s,
			       "'%.*s' is not a position: write x,y with whole numbers from %d to %d, no spaces",
			       (int)(cend - s), c.buf + s, -MAX_COORD, MAX_COORD);
			goto bad;
		}
		m->x = (int32_t)x;
		m->y = (int32_t)y;
		m->coord_span = span(s, cend - s);
		/* rotation */
		skip_space(&c, true);
		n = word(&c, &s);
		if (ps->line_bad)
			goto bad;
		if (!n) {
			expect_more(&c, "a rotation (0, 90, 180 or 270)");
			goto bad;
		}
		long deg;
		if (!parse_int(c.buf + s, n, 0, 270, &deg) || deg % 90 || c.buf[s] == '-' || c.buf[s] == '+') {
			report(ps, CARC_E024, s, n, "'%.*s' is not a rotation: 0, 90, 180 or 270 degrees clockwise", (int)n,
			       c.buf + s);
			goto bad;
		}
		m->rot = (uint8_t)(deg / 90);
		m->rot_span = span(s, n);
		/* deploy */
		bool want_order = false;
		skip_space(&c, true);
		if (!at_end(&c) && c.buf[c.p] != '=') {
			n = word(&c, &s);
			if (ps->line_bad)
				goto bad;
			if (carc_slice_ieq(c.buf + s, n, "order")) {
				want_order = true;
			} else if (n == 1 && c.buf[s] == '-') {
				m->deploy_span = span(s, 1);
			} else if (!parse_deploy(&c, m, s, n)) {
				goto bad;
			}
			skip_space(&c, true);
			if (!want_order && !at_end(&c) && c.buf[c.p] != '=') {
				n = word(&c, &s);
				if (ps->line_bad)
					goto bad;
				if (!carc_slice_ieq(c.buf + s, n, "order")) {
					report(ps, CARC_E028, s, n ? n : 1, "unexpected '%.*s' after the deployment", (int)n,
					       c.buf + s);
					goto bad;
				}
				want_order = true;
			}
			if (want_order) {
				if (rec->rules->id != CARC_RULES_SOLO) {
					report(ps, CARC_E028, s, n, "'order' is only written in solo games");
					goto bad;
				}
				if (!parse_order(&c, m))
					goto bad;
			}
		}
	}
	/* claim */
	skip_space(&c, true);
	if (!at_end(&c)) {
		if (c.buf[c.p] != '=') {
			n = word(&c, &s);
			if (ps->line_bad)
				goto bad;
			report(ps, CARC_E028, s, n ? n : 1, "unexpected '%.*s'; a turn line ends with an optional claim "
			       "= colour points, ...", (int)(n ? n : 1), c.buf + s);
			goto bad;
		}
		size_t cs = c.p++;
		if (!parse_claims(&c, CARC_E027, &m->claim_first, &m->claim_count, "claim"))
			goto bad;
		m->has_claim = true;
		m->claim_span = span(cs, c.p - cs);
		skip_space(&c, true);
		if (!at_end(&c)) {
			n = word(&c, &s);
			report(ps, CARC_E028, c.p > s ? s : c.p, n ? n : 1, "unexpected text after the claim");
			goto bad;
		}
	}
	{
		size_t e = c.end;
		while (e > line_from && is_space(c.buf[e - 1]))
			e--;
		m->line = span(line_from, e - line_from);
	}
	return;
bad:
	m->bad = true;
	m->line = span(line_from, ps->line_end - line_from);
}

/* Infers the seats from the order in which colours first play. */
static void infer_seats(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	unsigned seen = 0;
	rec->nseats = 0;
	for (size_t i = 0; i < rec->nmoves; i++) {
		const struct carc_move *m = &rec->moves[i];
		if (m->bad || (seen & (1u << m->colour)))
			continue;
		seen |= 1u << m->colour;
		rec->seats[rec->nseats++] = m->colour;
	}
	if (rec->nseats == 0)
		for (int i = 0; i < rec->rules->default_seats; i++)
			rec->seats[rec->nseats++] = (uint8_t)i;
}

static void reset_record(struct carc_record *rec)
{
	rec->ntags = rec->nmoves = rec->nclaims = rec->norder = rec->ncomments = 0;
	carc_buf_reset(&rec->text);
	carc_buf_addc(&rec->text, '\0'); /* offset 0 is the empty string */
	for (int i = 0; i < CARC_TAG_UNKNOWN; i++)
		rec->tag_index[i] = -1;
	rec->rules = carc_ruleset_get(CARC_RULES_BASE);
	rec->tileset = NULL;
	rec->edition = 3;
	rec->nseats = 0;
	rec->seats_given = false;
	rec->followers = rec->huts = 0;
	rec->start_tile = rec->start_rot = 0;
	rec->table_w = rec->table_h = 0;
	rec->has_result = false;
	rec->result_first = rec->result_count = 0;
	rec->syntax_errors = rec->header_errors = 0;
	rec->has_moves = false;
}

bool carc_reader_next(struct carc_reader *r, struct carc_record *rec, struct carc_diag_sink *sink)
{
	/* Drop the previous game's text: the buffer now starts at this game. */
	if (r->pos) {
		r->buf += r->pos;
		r->len -= r->pos;
		r->cap -= r->pos;
		r->pos = 0;
	}
	reset_record(rec);
	rec->src = (struct carc_src){r->name, r->buf, r->len, r->line};
	struct parser ps = {.r = r, .rec = rec, .sink = sink};
	bool any = false, header_done = false;

	while (next_line(&ps)) {
		ps.line_bad = false;
		size_t p = ps.line_start;
		while (p < ps.line_end && is_space(r->buf[p]))
			p++;
		if (p < ps.line_end && r->buf[p] == '[') {
			if (ps.in_moves)
				break; /* the next game's first tag */
			any = true;
			parse_tag(&ps);
		} else if (p == ps.line_end) {
			/* blank line */
		} else if (r->buf[p] == ';' || r->buf[p] == '{') {
			struct cursor c = {&ps, r->buf, p, ps.line_end};
			skip_space(&c, false);
			if (!at_end(&c) && !ps.line_bad) {
				/* Text after a { comment } on the same line: a move. */
				ps.line_start = c.p;
				goto move;
			}
		} else {
		move:
			any = true;
			if (!header_done) {
				finish_header(&ps);
				header_done = true;
			}
			ps.in_moves = true;
			parse_move(&ps);
		}
		consume_line(&ps);
	}
	if (!any && !rec->ncomments)
		return false;
	r->games++;
	rec->index = r->games;
	if (!header_done)
		finish_header(&ps);
	if (!rec->seats_given && !rec->header_errors)
		infer_seats(&ps);
	src_of(&ps);
	rec->src.len = r->pos;
	return true;
}

bool carc_parse_string(const char *text, size_t len, const char *name, struct carc_tileset_cache *cache,
		       struct carc_record *rec, struct carc_diag_sink *sink)
{
	struct carc_reader *r = carc_reader_new(NULL, name, cache);
	r->alloc = r->buf = xrealloc(r->alloc, len + 1);
	memcpy(r->buf, text, len);
	r->len = len;
	r->alloc_cap = r->cap = len + 1;
	r->eof = true;
	bool got = carc_reader_next(r, rec, sink);
	/* The record points into the reader's buffer: hand it over. */
	static _Thread_local char *keep;
	free(keep);
	keep = r->alloc;
	rec->src.text = r->buf;
	r->alloc = r->buf = NULL;
	carc_reader_free(r);
	return got;
}
