/*
 * cgn_token.c - the CGN tokeniser, within one line: byte classes, words,
 * blanks and comments (the small steps are static inline in cgn_int.h;
 * here are their slow ways: comments, bytes that are not ASCII, bad
 * bytes); the names of colours, spots and tags; and the diagnostics of the
 * parser at a position of the game's text (cgn_report).
 */
#include "notation/cgn_token.h"

#include "common/suggest.h"

#include <stdio.h>

const char *const cgn_colour_names[CARC_COLOURS] = {"red", "green", "blue", "yellow", "black", "gray", "pink"};
const char *const cgn_spot_names[CARC_SPOT_COUNT] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW",
							 "N", "E", "S", "W", "C", "I"};
const char *const cgn_tag_names[CARC_TAG_UNKNOWN] = {
	"Event", "Site", "Date", "Round", "Rules", "Tileset", "Edition", "Seats", "Followers", "Huts",
	"Start", "Table", "EndOrder", "Result", "Expansions",
	"Board", "Match", "Format", "Time", "Termination", "Winner",
	"Red", "Green", "Blue", "Yellow", "Black", "Gray", "Pink"};

/* Byte classes of the tokeniser. A word runs over W and H (checked UTF-8)
 * bytes; S bytes end it; B bytes are blanks; C bytes are never text.
 * Every line the tokeniser reads ends at a stop: a newline (inside a line,
 * newlines occur only within { comments }), the closing quote of a tag's
 * value, or the NUL kept after the end of the input. So the loops over
 * words and blanks need no bounds check. */

const unsigned char cgn_byte_class[256] = {
	C, C, C, C, C, C, C, C, C, B, S, C, C, B, C, C, /* 0x00: tab, CR blanks; newline */
	C, C, C, C, C, C, C, C, C, C, C, C, C, C, C, C, /* 0x10 */
	B, W, S, W, W, W, W, W, W, W, W, W, S, W, W, W, /* 0x20: space, '"', ',' */
	W, W, W, W, W, W, W, W, W, W, W, S, W, S, W, W, /* 0x30: ';' '=' */
	W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, /* 0x40 */
	W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, /* 0x50 */
	W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W, /* 0x60 */
	W, W, W, W, W, W, W, W, W, W, W, S, W, W, W, C, /* 0x70: '{', DEL */
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,
	H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H, H,
};
const char *carc_colour_name(int colour) { return colour >= 0 && colour < CARC_COLOURS ? cgn_colour_names[colour] : "?"; }
const char *carc_spot_name(int spot) { return spot >= 0 && spot < CARC_SPOT_COUNT ? cgn_spot_names[spot] : "?"; }
/* A word of 3 to 6 bytes at p as a number that is the same for the same
 * word in any case: its first two bytes, its middle two and its last two
 * (which cover it, whatever its length, and read nothing past it), in
 * lower case (see ieq). */
static FAST_PATH uint64_t colour_key(const char *p, size_t len)
{
	const unsigned char *b = (const unsigned char *)p;
	size_t mid = len / 2 - 1, last = len - 2;
	uint64_t key = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[mid] << 16 | (uint64_t)b[mid + 1] << 24 |
		       (uint64_t)b[last] << 32 | (uint64_t)b[last + 1] << 40;
	return key | UINT64_C(0x202020202020);
}

static FAST_PATH int colour_lookup(const char *p, size_t len)
{
	/* The colour a word may be is given by its second and third letters,
	 * as in fast_colour (their case does not change it), so it is compared
	 * with one name, without a branch on which (Grey, a second name, is
	 * only tried when that fails). The names' colour_key, lowest byte
	 * first: "re" "re" "ed" is red. */
	static const struct {
		uint64_t key;
		uint8_t len, colour;
	} by_slot[8] = {
		{UINT64_C(0x646565726572), 3, CARC_RED},  {UINT64_C(0x6b6e6e696970), 4, CARC_PINK},
		{UINT64_C(0x776f6c6c6579), 6, CARC_YELLOW}, {UINT64_C(0x6b63616c6c62), 5, CARC_BLACK},
		{UINT64_C(0x796161727267), 4, CARC_GRAY}, {UINT64_C(0x6e6565727267), 5, CARC_GREEN},
		{UINT64_C(0x6575756c6c62), 4, CARC_BLUE}, {0, 0, 0}};
	const uint64_t grey = UINT64_C(0x796565727267);
	if (len < 3 || len > 6)
		return -1;
	uint64_t key = colour_key(p, len);
	int slot = ((p[1] ^ p[2]) >> 2) & 7;
	if (key == by_slot[slot].key && len == by_slot[slot].len)
		return by_slot[slot].colour;
	return len == 4 && key == grey ? CARC_GRAY : -1;
}

int carc_colour_lookup(const char *p, size_t len) { return colour_lookup(p, len); }

int carc_spot_lookup(const char *p, size_t len)
{
	if (len == 1) {
		switch (p[0]) {
		case 'N': case 'n': return CARC_SPOT_N;
		case 'E': case 'e': return CARC_SPOT_E;
		case 'S': case 's': return CARC_SPOT_S;
		case 'W': case 'w': return CARC_SPOT_W;
		case 'C': case 'c': return CARC_SPOT_C;
		case 'I': case 'i': return CARC_SPOT_I;
		}
	} else if (len == 3) {
		static const char half[8][4] = {"nnw", "nne", "ene", "ese", "sse", "ssw", "wsw", "wnw"};
		for (int i = 0; i < 8; i++)
			if (ieq(p, half[i], 3))
				return i;
	}
	return -1;
}

const char *carc_tag_name(int id)
{
	return id >= 0 && id < CARC_TAG_UNKNOWN ? cgn_tag_names[id] : NULL;
}

static const char *const termination_names[CARC_TERM_COUNT] = {
	"", "bye", "time forfeit", "no-show", "withdrawal", "disqualification", "admin decision", "1-0"};

const char *carc_termination_name(int kind)
{
	return kind > CARC_TERM_NONE && kind < CARC_TERM_COUNT ? termination_names[kind] : "";
}

int carc_termination_lookup(const char *p, size_t len)
{
	for (int k = CARC_TERM_NONE + 1; k < CARC_TERM_COUNT; k++)
		if (carc_slice_ieq(p, len, termination_names[k]))
			return k;
	return -1;
}

int carc_tag_lookup(const char *p, size_t len)
{
	/* The known names by their first letter (ids + 1, 0 ends a list), so
	 * that a name is compared with one or two of them, not all 28. */
	enum { R = CARC_TAG_KNOWN + 1 }; /* a colour's id + 1 is R + colour */
	static const uint8_t by_letter[26][4] = {
		['b' - 'a'] = {R + CARC_BLUE, R + CARC_BLACK, CARC_TAG_BOARD + 1},
		['d' - 'a'] = {CARC_TAG_DATE + 1},
		['e' - 'a'] = {CARC_TAG_EVENT + 1, CARC_TAG_EDITION + 1, CARC_TAG_ENDORDER + 1, CARC_TAG_EXPANSIONS + 1},
		['f' - 'a'] = {CARC_TAG_FOLLOWERS + 1, CARC_TAG_FORMAT + 1},
		['g' - 'a'] = {R + CARC_GREEN, R + CARC_GRAY},
		['h' - 'a'] = {CARC_TAG_HUTS + 1},
		['m' - 'a'] = {CARC_TAG_MATCH + 1},
		['p' - 'a'] = {R + CARC_PINK},
		['r' - 'a'] = {CARC_TAG_RULES + 1, CARC_TAG_RESULT + 1, CARC_TAG_ROUND + 1, R + CARC_RED},
		['s' - 'a'] = {CARC_TAG_SEATS + 1, CARC_TAG_SITE + 1, CARC_TAG_START + 1},
		['t' - 'a'] = {CARC_TAG_TILESET + 1, CARC_TAG_TABLE + 1, CARC_TAG_TIME + 1, CARC_TAG_TERMINATION + 1},
		['w' - 'a'] = {CARC_TAG_WINNER + 1},
		['y' - 'a'] = {R + CARC_YELLOW},
	};
	unsigned letter = len ? (unsigned)((p[0] | 0x20) - 'a') : 26;
	if (letter >= 26)
		return CARC_TAG_UNKNOWN;
	for (int k = 0; k < 4 && by_letter[letter][k]; k++) {
		int id = by_letter[letter][k] - 1;
		const char *name = cgn_tag_names[id];
		/* the names are letters, and (c | 0x20) is one only when c is it,
		 * in either case */
		size_t i = 0;
		while (i < len && name[i] && (p[i] | 0x20) == (name[i] | 0x20))
			i++;
		if (i == len && !name[i])
			return id;
	}
	if (carc_slice_ieq(p, len, "Grey"))
		return CARC_TAG_KNOWN + CARC_GRAY;
	return CARC_TAG_UNKNOWN;
}
/* The record's source must point into the buffer, which may have moved. */
struct carc_src *cgn_src_of(struct parser *ps)
{
	ps->rec->src.text = ps->r->buf + ps->r->game;
	ps->rec->src.len = ps->r->len - ps->r->game;
	return &ps->rec->src;
}

void cgn_report(struct parser *ps, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ps->rec->syntax_errors++;
	ps->line_bad = true;
	carc_diag_report(ps->sink, code, cgn_src_of(ps), off, len ? len : 1, "%s", msg);
}
static void add_comment(struct parser *ps, size_t off, size_t len, bool trailing)
{
	struct carc_record *rec = ps->rec;
	if (rec->ncomments >= MAX_COMMENTS) {
		if (!ps->comments_capped)
			cgn_report(ps, CARC_E034, off, 1, "more than %d comments in one game; the rest of its comments are dropped",
				   MAX_COMMENTS);
		ps->comments_capped = true;
		return;
	}
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
/* Stops reading the input after the current game, which keeps what was
 * read of it but cannot be refereed. */
void cgn_give_up_input(struct parser *ps)
{
	ps->r->given_up = true;
	ps->r->lost = true;
	ps->rec->header_errors++;
}

/* Reports the bad byte at `at`. A NUL byte means binary data: the rest of
 * the input is skipped. So is the rest after MAX_BAD_TEXT lines with bad
 * bytes. */
void cgn_bad_byte(struct cursor *c, size_t at)
{
	struct parser *ps = c->ps;
	unsigned char b = (unsigned char)c->buf[at];
	bool give_up = b == 0 || ++ps->r->bad_text >= MAX_BAD_TEXT;
	const char *rest = give_up ? "; the rest of the input is skipped" : "";
	if (b == 0)
		cgn_report(ps, CARC_E002, at, 1, "NUL byte: this is not a text file%s", rest);
	else if (b < 0x20 || b == 0x7f)
		cgn_report(ps, CARC_E002, at, 1, "control character 0x%02x in the text%s", b, rest);
	else if (b == 0xc2 && at + 1 < c->end && (unsigned char)c->buf[at + 1] >= 0x80 &&
		 (unsigned char)c->buf[at + 1] < 0xa0)
		cgn_report(ps, CARC_E002, at, 1, "control character U+%04X in the text%s", (unsigned char)c->buf[at + 1], rest);
	else
		cgn_report(ps, CARC_E002, at, 1, "malformed UTF-8 (byte 0x%02x); CGN files are UTF-8 text%s", b, rest);
	if (give_up)
		cgn_give_up_input(ps);
}

/* Checks that [from, to) is text: UTF-8 without control characters other
 * than tab, CR and newline. Reports the first bad byte. */
static bool check_text(struct cursor *c, size_t from, size_t to)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	for (size_t i = from; i < to;) {
		int k = cgn_byte_class[s[i]];
		if (k == W || k == B || k == S) {
			i++;
			continue;
		}
		size_t n = k == H ? carc_utf8_len(c->buf + i, to - i) : 0;
		if (!n) {
			cgn_bad_byte(c, i);
			return false;
		}
		i += n;
	}
	return true;
}

/* The comments (and the blanks between them) at c->p. */
SLOW_PATH void cgn_skip_comments(struct cursor *c, bool trailing)
{
	while (c->p < c->end && !c->value) {
		char ch = c->buf[c->p];
		if (is_blank(ch)) {
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
			if (check_text(c, from, c->p))
				add_comment(c->ps, from, c->p - from, trailing);
		} else {
			return;
		}
	}
}
/* The rest of a word that holds a byte other than printable ASCII. */
SLOW_PATH size_t cgn_word_slow(struct cursor *c, size_t start, size_t i)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	for (;;) {
		while (i < c->end && cgn_byte_class[s[i]] == W)
			i++;
		if (i >= c->end || cgn_byte_class[s[i]] == B || cgn_byte_class[s[i]] == S)
			break;
		size_t n = cgn_byte_class[s[i]] == H ? carc_utf8_len(c->buf + i, c->end - i) : 0;
		if (!n) {
			cgn_bad_byte(c, i);
			c->p = c->end;
			return 0;
		}
		i += n;
	}
	c->p = i;
	if (i > start)
		c->last = i;
	return i - start;
}

/* ---- did you mean ---- */

static _Thread_local char dym_text[80];

static const char *dym(const struct carc_suggest *sg)
{
	const char *best = carc_suggest_best(sg);
	if (!best)
		return "";
	snprintf(dym_text, sizeof dym_text, "; did you mean %s?", best);
	return dym_text;
}

const char *cgn_dym_colour(const char *word, size_t n)
{
	struct carc_suggest sg;
	carc_suggest_begin(&sg, word, n);
	for (int i = 0; i < CARC_COLOURS; i++)
		carc_suggest_try(&sg, cgn_colour_names[i]);
	return dym(&sg);
}

const char *cgn_dym_spot(const char *word, size_t n)
{
	struct carc_suggest sg;
	carc_suggest_begin(&sg, word, n);
	for (int i = 0; i < CARC_SPOT_COUNT; i++)
		carc_suggest_try(&sg, cgn_spot_names[i]);
	return dym(&sg);
}

const char *cgn_dym_tile(const struct carc_tileset *ts, const char *word, size_t n)
{
	struct carc_suggest sg;
	carc_suggest_begin(&sg, word, n);
	for (int i = 0; i < ts->ntiles; i++)
		carc_suggest_try(&sg, ts->tiles[i].id);
	return dym(&sg);
}

const char *cgn_dym_role(const struct carc_ruleset *rs, const char *word, size_t n)
{
	struct carc_suggest sg;
	carc_suggest_begin(&sg, word, n);
	for (int i = 0; i < rs->nroles; i++)
		carc_suggest_try(&sg, rs->roles[i].name);
	return dym(&sg);
}

const char *cgn_near_tag(const char *name, size_t n)
{
	/* the colours' names in German and French, as a player may write the
	 * tag of a colour's player: [Rot "Anna"] (lower case, for ieq) */
	static const struct {
		const char *word;
		int colour;
	} other[] = {
		{"rot", CARC_RED},     {"gruen", CARC_GREEN}, {"blau", CARC_BLUE},   {"gelb", CARC_YELLOW},
		{"schwarz", CARC_BLACK}, {"grau", CARC_GRAY}, {"rosa", CARC_PINK},   {"rouge", CARC_RED},
		{"vert", CARC_GREEN},  {"bleu", CARC_BLUE},   {"jaune", CARC_YELLOW}, {"noir", CARC_BLACK},
		{"gris", CARC_GRAY},   {"rose", CARC_PINK},
	};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (strlen(other[i].word) == n && ieq(name, other[i].word, n))
			return carc_tag_name(CARC_TAG_KNOWN + other[i].colour);
	struct carc_suggest sg;
	carc_suggest_begin(&sg, name, n);
	for (int id = 0; id < CARC_TAG_UNKNOWN; id++)
		carc_suggest_try(&sg, carc_tag_name(id));
	return carc_suggest_best(&sg);
}
