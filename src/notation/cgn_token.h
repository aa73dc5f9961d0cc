/*
 * cgn_token.h - the tokeniser of CGN (cgn_token.c), private to the reader:
 * byte classes, the cursor over one line, blanks, comments and words, and
 * the reports of the parser.
 */
#ifndef CARC_CGN_TOKEN_H
#define CARC_CGN_TOKEN_H

#include "notation/cgn_int.h"

/* Byte classes of the tokeniser (cgn_token.c). A word runs over W and H
 * (checked UTF-8) bytes; S bytes end it; B bytes are blanks; C bytes are
 * never text. Every line the tokeniser reads ends at a stop: a newline
 * (inside a line, newlines occur only within { comments }), the closing
 * quote of a tag's value, or the NUL kept after the end of the input. So
 * the loops over words and blanks need no bounds check. */
enum { W, B, S, H, C };
extern const unsigned char cgn_byte_class[256];

/* the names of the colours, spots and known tags, by number */
extern const char *const cgn_colour_names[CARC_COLOURS];
extern const char *const cgn_spot_names[CARC_SPOT_COUNT];
extern const char *const cgn_tag_names[CARC_TAG_UNKNOWN];

/* ---- the tokeniser, within one line ---- */

struct cursor {
	struct parser *ps;
	const char *buf;  /* the game's text */
	size_t p, end;
	size_t last;      /* end of the last word read */
	bool value;       /* inside a tag's value: ; and { are not comments */
};

/* the slow ways of skip_space and word (cgn_token.c) */
SLOW_PATH void cgn_skip_comments(struct cursor *c, bool trailing);
SLOW_PATH size_t cgn_word_slow(struct cursor *c, size_t start, size_t i);

static inline bool is_blank(char c) { return cgn_byte_class[(unsigned char)c] == B; }
/* Skips blanks and comments, recording the comments. */
static inline void skip_space(struct cursor *c, bool trailing)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	size_t p = c->p, end = c->end;
	while (cgn_byte_class[s[p]] == B) /* stops at the line's end: see cgn_byte_class */
		p++;
	c->p = p;
	if (p < end && (s[p] == ';' || s[p] == '{'))
		cgn_skip_comments(c, trailing);
}

static inline bool at_end(struct cursor *c) { return c->p >= c->end; }
/* A word: everything up to a blank, a comment, '=' or ','. A bad byte is
 * reported (the line is then bad). Returns its length, 0 at the end of the
 * line or on a bad byte. */
static inline size_t word(struct cursor *c, size_t *start)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	size_t from = c->p, i = from, end = c->end;
	*start = from;
	while (cgn_byte_class[s[i]] == W) /* stops at the line's end: see cgn_byte_class */
		i++;
	if (i < end && cgn_byte_class[s[i]] >= H)
		return cgn_word_slow(c, from, i);
	c->p = i;
	if (i > from)
		c->last = i;
	return i - from;
}

/* ---- reports ---- */

struct carc_src *cgn_src_of(struct parser *ps);
void cgn_report(struct parser *ps, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
	CARC_PRINTF(5, 6);
void cgn_give_up_input(struct parser *ps);
void cgn_bad_byte(struct cursor *c, size_t at);

/* "Did you mean": for a message about the word (n bytes) that is not one of
 * the known words, "; did you mean X?" when one is close (common/suggest.h),
 * else "". The text lasts until the next call on the thread. Error path only. */
SLOW_PATH const char *cgn_dym_colour(const char *word, size_t n);
SLOW_PATH const char *cgn_dym_spot(const char *word, size_t n);
SLOW_PATH const char *cgn_dym_tile(const struct carc_tileset *ts, const char *word, size_t n);
SLOW_PATH const char *cgn_dym_role(const struct carc_ruleset *rs, const char *word, size_t n);
/* The known tag name close to an unknown one (Seat: Seats), or one that is
 * a colour's name in German or French (Rot: Red); NULL when there is none. */
SLOW_PATH const char *cgn_near_tag(const char *name, size_t n);

#endif
