/*
 * cgn_fast.h - the fast path's loop over plain turn lines, for the reader.
 *
 * These functions are static inline, and the one that reads a run of
 * lines, cgn_read_plain_turns, is compiled into the reader's loop
 * (carc_reader_next, cgn_read.c), where the parser's state is the
 * reader's own local: called across files instead, the loop takes about
 * 900 instructions a game more (1.3% of check on 2,000 generated games,
 * by cachegrind). The rest of the fast path, out of line, is cgn_fast.c.
 */
#ifndef CARC_CGN_FAST_H
#define CARC_CGN_FAST_H

#include "notation/cgn_token.h"

/* What the loop below calls out of line (cgn_fast.c): the claims of a
 * turn line (about one line in ten has claims, and their loop, inlined in
 * the loop over the lines, would cost every line registers: spills,
 * reloads), more room for moves, and the cap on a game's turns. */
OUT_OF_LINE size_t cgn_parse_claims_fast(struct carc_reader *r, struct carc_record *rec, const unsigned char *b,
					 size_t i, size_t limit, size_t from, size_t last, struct carc_move *m);
OUT_OF_LINE void cgn_more_moves(struct parser *ps);
SLOW_PATH bool cgn_turns_over_cap(struct parser *ps, size_t first, size_t n, size_t start);
/* A turn number at b[i] (a digit) that is not one of one or two digits
 * and ". ": its digits and the ". " after them, 1 to TURN_MARKS - 2 (the
 * mark table's); returns the number of digits, the number in *v; 0 when
 * it is not such a number (the general parser's). Out of line: lines long
 * enough to be read without their mark (those with claims) have numbers of
 * one or two digits but in long games, and its loop would cost them. */
SLOW_PATH size_t cgn_turn_number_fast(const unsigned char *b, size_t i, uint32_t *v);

/* The turn lines that carc gen and carc fmt write, and most people do:
 *   [N.] colour TILE x,y ROT [role SPOT | -] [= colour points, ...]
 * words apart by runs of spaces, colours, roles and spots in their usual
 * case, a one-letter tile, no comments, are read by the fast path below;
 * so are tiles of two and three letters (RA, IBg), and, in the lines the
 * general reader finds (ext), the roles of two words (big knight N) and
 * "return ROLE" in the deployment's place.
 * It takes nothing else: at the first byte it does not expect it refuses
 * the line, and the general parser reads it (and reports what is wrong with
 * it, if anything). So it may be strict; what it must never do is read a
 * line into anything but what parse_move makes of it: the same move, claims
 * and spans. tests/unit/test_cgn_fast.c compares the two on many generated
 * and altered games.
 *
 * A word ends at a byte <= ' ': a space or the line's end, or another
 * control character, which then fails whatever test comes next (a tab
 * included: blanks are spaces here; and a CR not before the newline).
 *
 * Blanks are skipped and words compared 8 bytes at a time, and a line's
 * words found from masks of its first 64 bytes (parse_move_window). Such
 * loads may reach past the line's end and the input's, up to 70 bytes past
 * the NUL after the input (the reader keeps SLACK bytes there); every test
 * gives the same answer whatever those bytes are, as it is decided by the
 * bytes up to the first one that fails it (or up to the line's newline),
 * and the NUL fails every test. */

/* Whether the line ends at b[*i]: its newline, or a CR and its newline.
 * Moves *i to the newline. */
static FAST_PATH bool at_line_end(const unsigned char *b, size_t *i)
{
	if (b[*i] == '\n')
		return true;
	if (b[*i] != '\r' || b[*i + 1] != '\n')
		return false;
	++*i;
	return true;
}

/* At most max (2 to 8) decimal digits at b[i]: how many, their value in *v;
 * 0 when there are none, or more. Most numbers in a turn line have one
 * or two digits: those take no loop, nor a branch on which they are. */
static FAST_PATH size_t fast_digits(const unsigned char *b, size_t i, size_t max, uint32_t *v)
{
	uint32_t d0 = (uint32_t)b[i] - '0', d1 = (uint32_t)b[i + 1] - '0';
	if (d0 > 9)
		return 0;
	uint32_t two = d1 <= 9;
	uint32_t x = d0 + ((9 * d0 + d1) & -two); /* d0, or 10 * d0 + d1 */
	size_t n = 1 + two;
	for (unsigned d; (d = (unsigned)b[i + n] - '0') <= 9; x = x * 10 + d)
		if (++n > max)
			return 0;
	*v = x;
	return n;
}

/* A number of one or two decimal digits at b[i]: how many, the number in
 * *v; 0 when there is none. It may go on: the caller checks the byte after
 * it, which turns away longer numbers (to the general parser), as no turn
 * numbers or coordinates but those of very long games have more digits. */
static FAST_PATH size_t fast_small_number(const unsigned char *b, size_t i, uint32_t *v)
{
	unsigned d0 = (unsigned)b[i] - '0', d1 = (unsigned)b[i + 1] - '0';
	if (d0 > 9)
		return 0;
	bool two = d1 <= 9;
	*v = two ? d0 * 10 + d1 : d0;
	return 1 + two;
}

/* A coordinate: [-]NUMBER of one or two digits (see fast_small_number) at
 * b[i]: its length, its value in *v; 0 when there is none. */
static FAST_PATH size_t fast_coord(const unsigned char *b, size_t i, int32_t *v)
{
	unsigned neg = b[i] == '-';
	uint32_t x;
	size_t n = fast_small_number(b, i + neg, &x);
	if (!n)
		return 0;
	*v = (int32_t)((x ^ -neg) + neg); /* -x when neg */
	return n + neg;
}

/* The word w (as word_at reads it) starts with the word fw. */
static FAST_PATH bool starts_with(uint64_t w, const struct fast_word *fw)
{
	return ((w ^ word_at((const unsigned char *)fw->text)) & fw->mask) == 0;
}

/* A colour in lower case and a space at b[i]: true, with its length in *n
 * and the colour in *col; false for anything else ("grey", capitals: the
 * general parser takes those). */
static FAST_PATH bool fast_colour(const unsigned char *b, size_t i, size_t *n, int *col)
{
	/* Each colour has a slot of its own, given by its second and third
	 * letters: ((b[1] ^ b[2]) >> 2) & 7. So the colour is found with one
	 * comparison (of the name and a space), and no branch on which it may
	 * be. No word fits slot 7: one of 8 NULs would be in slot 0. */
	static const struct fast_word colours[8] = {
		{"red ", LOW_BYTES(4), 3, CARC_RED}, {"pink ", LOW_BYTES(5), 4, CARC_PINK},
		{"yellow ", LOW_BYTES(7), 6, CARC_YELLOW}, {"black ", LOW_BYTES(6), 5, CARC_BLACK},
		{"gray ", LOW_BYTES(5), 4, CARC_GRAY}, {"green ", LOW_BYTES(6), 5, CARC_GREEN},
		{"blue ", LOW_BYTES(5), 4, CARC_BLUE}, {"", LOW_BYTES(8), 0, 0}
	};
	uint64_t w = word_at(b + i);
	const struct fast_word *c = &colours[(w ^ w >> 8) >> 10 & 7];
	*n = c->len;
	*col = c->value;
	return starts_with(w, c);
}

/* A rotation at b[i], ended by a blank or the line's end: true, with its
 * length in *n and the quarter turns in *rot; false when there is none. */
static FAST_PATH bool fast_rotation(const unsigned char *b, size_t i, size_t *n, int *rot)
{
	/* in slot (b[0] + (b[0] >> 2)) & 3, different for 0, 1, 2 and 9 */
	static const struct fast_word rotations[4] = {
		{"0", LOW_BYTES(1), 1, 0}, {"180", LOW_BYTES(3), 3, 2},
		{"270", LOW_BYTES(3), 3, 3}, {"90", LOW_BYTES(2), 2, 1}
	};
	uint64_t w = word_at(b + i);
	const struct fast_word *r = &rotations[(w + (w >> 2)) & 3];
	*n = r->len;
	*rot = r->value;
	return starts_with(w, r) && (w >> (8 * r->len) & 0xff) <= ' ';
}

/* The role of the rule set, if any, whose name the word at b[i] may start
 * with (see role_slot); whether it does is for the caller to check. */
static FAST_PATH const struct fast_word *role_at(const struct carc_reader *r, const unsigned char *b, size_t i)
{
	return &r->roles[role_slot(word_at(b + i))];
}

/* A spot in upper case at b[i], ended by a blank or the line's end: its
 * length, the spot in *spot; 0 when there is none. A spot of one letter
 * or of three is looked up in the same table (see spot_slot), with no
 * branch on which it is. */
static FAST_PATH size_t fast_spot(const struct carc_reader *r, const unsigned char *b, size_t i, int *spot)
{
	uint64_t w = word_at(b + i);
	uint64_t three = (w >> 8 & 0xff) > ' '; /* a half-edge, or no spot */
	uint64_t key = w & (0xff | (0xffff00 & -three));
	const struct spot_slot *e = &r->spots[spot_slot(key)];
	size_t n = 1 + 2 * three;
	*spot = e->spot;
	return n & -(size_t)((e->key == key) & ((w >> (8 * n) & 0xff) <= ' '));
}

/* The first 64 bytes at p, as masks: bit k for p[k]. Bytes from 0x80 on
 * are in neither (a line that holds one is not a plain turn line). */
struct window {
	uint64_t word;  /* bytes above ' ' */
	uint64_t text;  /* bytes from ' ' on: not control characters */
};

static FAST_PATH struct window window_at(const unsigned char *p)
{
	struct window win = {0, 0};
#if defined(__SSE2__)
	/* (signed comparisons, one instruction each: the bytes from 0x80 on are
	 * below both bounds) */
	const __m128i sp = _mm_set1_epi8(' '), below_sp = _mm_set1_epi8(' ' - 1);
#define WINDOW_PART(k)                                                                                           \
	do {                                                                                                     \
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * (k)));                     \
		uint64_t word = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, sp));                             \
		uint64_t text = (unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, below_sp));                       \
		win.word |= word << (16 * (k));                                                                 \
		win.text |= text << (16 * (k));                                                                 \
	} while (0)
	WINDOW_PART(0);
	WINDOW_PART(1);
	WINDOW_PART(2);
	WINDOW_PART(3);
#undef WINDOW_PART
#else
	for (int k = 0; k < 64; k++) {
		win.word |= (uint64_t)(p[k] > ' ' && p[k] < 0x80) << k;
		win.text |= (uint64_t)(p[k] >= ' ' && p[k] < 0x80) << k;
	}
#endif
	return win;
}

/* The lowest bit set in *set, which is taken out of it: the offset of the
 * next word (see parse_move_window). The set is never empty here: it holds
 * the line's end until that is taken, and that byte (a CR or the newline)
 * fails every test, so that no word is asked for after it. */
static FAST_PATH size_t next_word(uint64_t *set)
{
	size_t k = (size_t)carc_lowest_bit(*set);
	*set &= *set - 1;
	return k;
}

/* The next word of a turn line: from the word starts of its window when
 * windowed (see parse_move_window), else past the spaces at b[after]. */
#define NEXT_WORD(after) (windowed ? base + next_word(&starts) : skip_spaces(b, (after)))

/* Turn numbers count up one by one, so the fast path knows the mark a
 * turn line should start with: the number after the last line's (or none
 * after a line without one). It compares the line's first 4 bytes with
 * that mark, "7. " or "12. " as word_at reads them (mask: the bytes that
 * count), at once, and reads the digits of another one by one. The marks
 * of 0 and from 100 on (three digits) match nothing: a number of three
 * digits, up to TURN_MARKS - 2, is read digit by digit (games with the big
 * expansions pass turn 99: 114 land tiles with Inns & Cathedrals and
 * Traders & Builders); a longer one is the general parser's. */
struct turn_mark {
	uint32_t text, mask;
	uint32_t len;  /* of the number and its "." */
	int32_t turn;  /* the number (16 bytes an entry: indexed by a shift) */
};
#define TURN_MARK_1(d) {(uint32_t)('0' + (d)) | (uint32_t)'.' << 8 | (uint32_t)' ' << 16, 0xffffff, 2, (d)}
#define TURN_MARK_2(t, o)                                                                                 \
	{(uint32_t)('0' + (t)) | (uint32_t)('0' + (o)) << 8 | (uint32_t)'.' << 16 | (uint32_t)' ' << 24, \
	 0xffffffff, 3, 10 * (t) + (o)}
#define TURN_MARKS_10(t)                                                                                  \
	TURN_MARK_2(t, 0), TURN_MARK_2(t, 1), TURN_MARK_2(t, 2), TURN_MARK_2(t, 3), TURN_MARK_2(t, 4), \
	TURN_MARK_2(t, 5), TURN_MARK_2(t, 6), TURN_MARK_2(t, 7), TURN_MARK_2(t, 8), TURN_MARK_2(t, 9)
#define NO_MARK {1, 0, 0, 0} /* (text & 0 is never 1) */
#define NO_MARKS_5 NO_MARK, NO_MARK, NO_MARK, NO_MARK, NO_MARK
#define NO_MARKS_50 NO_MARKS_5, NO_MARKS_5, NO_MARKS_5, NO_MARKS_5, NO_MARKS_5, \
	NO_MARKS_5, NO_MARKS_5, NO_MARKS_5, NO_MARKS_5, NO_MARKS_5
#define TURN_MARKS 256
static const struct turn_mark turn_marks[TURN_MARKS] = {
	{1, 0, 0, 0},
	TURN_MARK_1(1), TURN_MARK_1(2), TURN_MARK_1(3), TURN_MARK_1(4), TURN_MARK_1(5),
	TURN_MARK_1(6), TURN_MARK_1(7), TURN_MARK_1(8), TURN_MARK_1(9),
	TURN_MARKS_10(1), TURN_MARKS_10(2), TURN_MARKS_10(3), TURN_MARKS_10(4), TURN_MARKS_10(5),
	TURN_MARKS_10(6), TURN_MARKS_10(7), TURN_MARKS_10(8), TURN_MARKS_10(9),
	NO_MARKS_50, NO_MARKS_50, NO_MARKS_50, NO_MARKS_5, NO_MARK /* 100 to 255 */
};
_Static_assert(sizeof turn_marks / sizeof *turn_marks == TURN_MARKS, "a turn mark for each number");
#undef NO_MARK
#undef NO_MARKS_5
#undef NO_MARKS_50
#undef TURN_MARK_1
#undef TURN_MARK_2
#undef TURN_MARKS_10

/* The turn_marks index of the mark that should follow a move numbered
 * turn (-1: none): 0 when there is none that the table holds. */
static size_t next_mark(int32_t turn)
{
	return turn >= 0 && turn < TURN_MARKS - 1 ? (size_t)turn + 1 : 0;
}

_Static_assert(offsetof(struct carc_move, has_order) > offsetof(struct carc_move, deploy_span) &&
		       offsetof(struct carc_move, has_order) < offsetof(struct carc_move, has_claim) &&
		       offsetof(struct carc_move, has_order) < offsetof(struct carc_move, order_count) &&
		       offsetof(struct carc_move, has_order) < offsetof(struct carc_move, claim_first) &&
		       offsetof(struct carc_move, has_order) < offsetof(struct carc_move, claim_span),
	       "turn_words clears a move's order and claims from has_order to the end");

/* A tile of two letters or three at b[i], its word ended by a space (b: a
 * line whose bytes are all below 0x80): into m, true; false when it is
 * none. */
SLOW_PATH bool fast_tile_pair(const struct carc_tileset *ts, const unsigned char *b, size_t i, struct carc_move *m);

/* Where a deployment that does not start with a role of one word ends:
 * next, the start of the word after it (0: none that the fast path reads);
 * last, the end of its last word. */
struct role_words {
	size_t next, last;
};

/* The deployment at b[s] that starts with a word of roles_ext: "big knight
 * N" (the role is both words, whatever the blanks between them) or "return
 * abbot" (a figure taken back, no spot), read into m as the general parser
 * reads them, word after word. */
static SLOW_PATH struct role_words fast_role_words(const struct carc_reader *r, const unsigned char *b, size_t s,
						   struct carc_move *m)
{
	struct role_words none = {0, 0};
	const struct fast_word *role = &r->roles_ext[role_slot(word_at(b + s))];
	if (!starts_with(word_at(b + s), role) || b[s + role->len] != ' ')
		return none;
	bool back = role->value == FAST_RETURN;
	size_t i = skip_spaces(b, s + role->len + 1), n, last;
	const struct fast_word *second = back ? role_at(r, b, i) : &r->roles2[role_slot(word_at(b + i))];
	/* (an empty slot, len 0, would match the NUL after the input) */
	if (!second->len || !starts_with(word_at(b + i), second) || b[i + second->len] > ' ')
		return none;
	if (back) {
		if (!(r->recall_roles >> second->value & 1))
			return none; /* not taken back: the general parser says so */
		m->recall = (int8_t)second->value;
		m->role_span = span(i, second->len);
		last = i + second->len;
		m->deploy_span = span(s, last - s);
		return (struct role_words){skip_spaces(b, last), last};
	}
	if (b[i + second->len] != ' ')
		return none;
	m->role = (int8_t)second->value;
	m->role_span = span(s, i + second->len - s);
	i = skip_spaces(b, i + second->len + 1);
	int k;
	if (!(n = fast_spot(r, b, i, &k)))
		return none;
	m->spot = (uint8_t)k;
	m->spot_span = span(i, n);
	last = i + n;
	m->deploy_span = span(s, last - s);
	return (struct role_words){skip_spaces(b, last), last};
}

/* Reads the turn line whose first word is at b[i] (b: the game's text,
 * tiles: the tile set's by_letter), when it is a plain one that ends by
 * offset limit, into m, and its claims into the record (counted). Returns
 * the offset of the line's newline, and the caller counts the move; 0 when
 * the line is not plain, and then nothing is counted. Every field of m is
 * set (those of its claims twice, when it has some). Windowed, the words
 * after the first are the set bits of starts (offsets from b[base]; the
 * last one, at b[mark], is the line's end, its newline at b[nl] or a CR
 * before it); otherwise each is found past the spaces after the one
 * before. expect: the turn_marks index of the mark expected. ext (for the
 * general reader's lines, which are few: cgn_parse_turn_line_fast, word
 * after word): tiles of two and three letters, and deployments that do not
 * start with a role of one word (fast_role_words), are read too; without
 * it they are left to the caller's other ways, and the code of the plain
 * lines is what it was before ext. */
static FAST_PATH size_t turn_words(struct carc_reader *r, struct carc_record *rec, const uint8_t *tiles,
				   const unsigned char *b, size_t i,
				   size_t limit, struct carc_move *m, size_t expect, bool windowed, uint64_t starts,
				   size_t base, size_t mark, size_t nl, bool ext)
{
	const size_t from = i;
	size_t n, s, last;
	uint32_t v;
	int k;

	m->bonus = m->discard = m->bad = false;
	/* no order, and no claims until some are read: the fields from
	 * has_order on, which end the move, in a few wide stores */
	memset(&m->has_order, 0, sizeof *m - offsetof(struct carc_move, has_order));
	/* turn-mark: NUMBER "." (the one expected, or read digit by digit:
	 * what the second way makes of the first's is the same) */
	const struct turn_mark *tm = &turn_marks[expect];
	if (((uint32_t)word_at(b + i) & tm->mask) == tm->text) {
		m->number = span(i, tm->len);
		m->turn = tm->turn;
		i = NEXT_WORD(i + tm->len + 1); /* past the first space */
	} else if ((n = fast_small_number(b, i, &v))) {
		/* (a number of three digits, or none that is right: out of line) */
		if ((v < 1 || memcmp(b + i + n, ". ", 2)) && !(n = cgn_turn_number_fast(b, i, &v)))
			return 0;
		m->number = span(i, n + 1);
		m->turn = (int32_t)v;
		i = NEXT_WORD(i + n + 2); /* past the first space */
	} else {
		m->number = span(0, 0);
		m->turn = -1;
	}
	/* colour */
	if (!fast_colour(b, i, &n, &k))
		return 0;
	m->colour = (uint8_t)k;
	m->colour_span = span(i, n);
	i = NEXT_WORD(i + n + 1);
	/* tile: one letter (windowed, no byte of the line is from 0x80 on:
	 * tiles[] has an entry for each of them), or else two (The River's
	 * RA, the garden tiles' Eg) or three (IBg), out of line: the
	 * one-letter way stays as it was (windowed, the next word's start does
	 * not depend on the length of this one) */
	if ((!windowed && b[i] >= 128) || !tiles[b[i]] || b[i + 1] != ' ') {
		if (ext && !windowed) {
			/* (a byte from 0x80 on is the general parser's:
			 * fast_tile_pair looks at the low 7 bits) */
			if (b[i] >= 128 || b[i + 1] >= 128 || b[i + 2] >= 128 || !fast_tile_pair(rec->tileset, b, i, m))
				return 0;
		} else if (!windowed || !fast_tile_pair(rec->tileset, b, i, m)) {
			return 0;
		}
	} else {
		m->tile = (uint16_t)(tiles[b[i]] - 1);
		m->tile_span = span(i, 1);
	}
	i = NEXT_WORD(i + (ext && !windowed ? m->tile_span.len : 1) + 1);
	/* position x,y */
	s = i;
	if (!(n = fast_coord(b, i, &m->x)) || b[i + n] != ',')
		return 0;
	i += n + 1;
	if (!(n = fast_coord(b, i, &m->y)) || b[i + n] > ' ')
		return 0;
	i += n;
	m->coord_span = span(s, i - s);
	i = NEXT_WORD(i);
	/* rotation */
	if (!fast_rotation(b, i, &n, &k))
		return 0;
	m->rot = (uint8_t)k;
	m->rot_span = span(i, n);
	last = i + n; /* the end of the last word */
	i = NEXT_WORD(last);

	/* deployment: "-", or a role and a spot, or none */
	{ /* role and recall, -1 both, as one store */
		static const int8_t none[2] = {-1, -1};
		memcpy(&m->role, none, sizeof none);
	}
	m->role_span = span(0, 0);
	m->spot = 0;
	m->spot_span = span(0, 0);
	m->deploy_span = span(0, 0);
	if (b[i] == '-') {
		if (b[i + 1] > ' ')
			return 0;
		m->deploy_span = span(i, 1);
		last = i + 1;
		i = NEXT_WORD(last);
	} else if (b[i] >= 'a' && b[i] <= 'z') {
		s = i;
		const struct fast_word *role = role_at(r, b, i);
		if (!starts_with(word_at(b + i), role) || b[i + role->len] != ' ') {
			/* not a role: "big knight", "return abbot", out of line,
			 * and only in the line-by-line way (ext: the general
			 * reader's, cgn_parse_turn_line_fast), so that the way
			 * of the plain lines stays as it was */
			if (!ext)
				return 0;
			struct role_words rw = fast_role_words(r, b, i, m);
			if (!rw.next)
				return 0; /* "order" (solo), or no word of the game's */
			i = rw.next, last = rw.last;
			goto claims;
		}
		m->role = (int8_t)role->value;
		m->role_span = span(s, role->len);
		i = NEXT_WORD(i + role->len + 1);
		if (!(n = fast_spot(r, b, i, &k)))
			return 0;
		m->spot = (uint8_t)k;
		m->spot_span = span(i, n);
		last = i + n;
		m->deploy_span = span(s, last - s);
		i = NEXT_WORD(last);
	}
claims:
	/* the line's end, or a claim: "=" colour points { "," colour points } */
	if (b[i] != '=') {
		if (windowed ? i != mark : !at_line_end(b, &i) || i > limit)
			return 0;
		m->line = span(from, last - from);
		return windowed ? nl : i;
	}
	/* (windowed, they end at the newline when they are plain: the next
	 * line's start need not wait for them to be read) */
	size_t end = cgn_parse_claims_fast(r, rec, b, i, limit, from, last, m);
	return windowed ? (end ? nl : 0) : end;
}

#undef NEXT_WORD

/* parse_move_fast: the line whose first word is at b[i], word after word. */
static FAST_PATH size_t parse_move_fast(struct carc_reader *r, struct carc_record *rec, const uint8_t *tiles,
					const unsigned char *b,
					size_t i, size_t limit, struct carc_move *m)
{
	return turn_words(r, rec, tiles, b, i, limit, m, 0, false, 0, 0, 0, 0, false);
}

/* parse_move_fast, for a line that starts at b[start] (before its blanks)
 * and has its newline within 63 bytes: the same checks on the same bytes,
 * and the same results. Only the way from word to word is another: word
 * after word, each step waits for the length of the word before; here the
 * words' offsets are taken from masks of the whole line, made at once, and
 * the processor may check every word at the same time.
 *
 * The words are the runs of bytes above ' '. Word after word, only spaces
 * are skipped between them, and each word must end as it should (with a
 * space after the colour, the tile and the role, a blank after the
 * others), so the lines accepted are those whose blanks before the newline
 * are all spaces but for a CR right before it, and whose words, as runs,
 * are the ones read. So the first byte below ' ' (or from 0x80 on) must be
 * the newline, or a CR and the newline; lines with another are refused at
 * once. For the rest, the word after the last one, or after the last word
 * of a line that has fewer, is that byte (a mark in the set of word
 * starts), which fails every test but the line's end. (The words need not
 * wait for whether it is a CR: only the next line's start does.)
 * expect: as for turn_words. */
static FAST_PATH size_t parse_move_window(struct carc_reader *r, struct carc_record *rec, const uint8_t *tiles,
					  const unsigned char *b,
					  size_t start, struct carc_move *m, size_t expect)
{
	const unsigned char *w = b + start;
	struct window win = window_at(w);
	size_t end = (size_t)carc_lowest_bit(~win.text | UINT64_C(1) << 63);
	if (end > 62) /* longer lines: the general fast path */
		return parse_move_fast(r, rec, tiles, b, skip_spaces(b, start), start + MAX_LINE, m);
	size_t nl = end + (w[end] == '\r');
	if (w[nl] != '\n')
		return 0;
	/* (the starts of words past the end, in the next line, may stay in
	 * the set: the end is taken before them, and nothing after it) */
	uint64_t starts = (win.word & ~(win.word << 1)) | UINT64_C(1) << end;
	size_t f = next_word(&starts);
	return turn_words(r, rec, tiles, b, start + f, start + MAX_LINE, m, expect, true, starts, start, start + end,
			  start + nl, false);
}

/* Among the turns: reads the plain turn lines from r->pos on with the fast
 * path, straight from the buffer, without looking for their ends first,
 * up to the first line that is not one (or is longer than MAX_LINE, or is
 * not complete in the buffer: the general reader takes those). Returns
 * whether it read any. */
static FAST_PATH bool cgn_read_plain_turns(struct parser *ps)
{
	struct carc_reader *r = ps->r;
	struct carc_record *rec = ps->rec;
	if (!fast_turns(ps))
		return false;
	const unsigned char *b = (const unsigned char *)r->buf + r->game;
	const uint8_t *tiles = rec->tileset->by_letter;
	size_t start = r->pos - r->game, first = rec->nmoves;
	GROW(rec, moves, nmoves, moves_cap); /* (so that rec->moves is not NULL) */
	/* the next move, and the end of the room for them: a pointer each, as
	 * the loop has few registers to spare (and locals, not rec's fields,
	 * which every byte stored to a move might change as far as the compiler
	 * knows) */
	struct carc_move *m = rec->moves + first, *room = rec->moves + rec->moves_cap;
	size_t expect = first ? next_mark(m[-1].turn) : 1;
	for (;; m++) {
		if (m == room) {
			rec->nmoves = (size_t)(m - rec->moves);
			cgn_more_moves(ps);
			m = rec->moves + rec->nmoves;
			room = rec->moves + rec->moves_cap;
		}
		size_t end = parse_move_window(r, rec, tiles, b, start, m, expect);
		if (!end)
			break;
		start = end + 1; /* past the newline */
		/* (the fast path reads turn numbers up to TURN_MARKS - 2: m->turn
		 * is -1, or 1 to TURN_MARKS - 2, and this is next_mark(m->turn)) */
		expect = (size_t)(m->turn + 1);
	}
	size_t n = (size_t)(m - rec->moves);
	if (n > MAX_TURNS)
		return cgn_turns_over_cap(ps, first, n, start);
	if (n == first)
		return false;
	rec->nmoves = n;
	r->pos = r->game + start;
	r->line += (unsigned)(n - first);
	rec->has_moves = true;
	return true;
}

#endif
