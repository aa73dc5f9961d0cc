/*
 * cgn_int.h - what the files of the CGN reader share, and no one else sees
 * (the public interface is record.h).
 *
 * The reader is one stage a file:
 *   cgn_read.c    the reader: input blocks, logical lines, the caps on a
 *                 game's size, where one game ends and the next begins
 *                 (carc_reader_next), carc_parse_string
 *   cgn_token.c   the tokeniser (its header cgn_token.h): byte classes, words,
 *                 blanks and comments
 *                 within one line; names of colours, spots and tags;
 *                 diagnostics at a position (cgn_report)
 *   cgn_header.c  tag lines and the header's meaning: the known tags'
 *                 values, the rule set, the tile set and the defaults
 *   cgn_turn.c    the grammar of turn lines, the general parser: every
 *                 line the fast path refuses, and what is wrong with it
 *   cgn_fast.h    the fast path: plain turn lines, their claims and plain
 *   cgn_fast.c    Result tags read straight from the buffer, a word (8
 *                 bytes) or a window (64 bytes) at a time; it refuses
 *                 anything else, which then goes to the general parser.
 *                 Its loop over the lines (cgn_fast.h, static inline) is
 *                 compiled into the reader's; what it calls out of line
 *                 (claims, Result tags, room for moves, the cap on turns)
 *                 is cgn_fast.c
 *
 * Grammar (notation/cgn.md, section 10, is the full specification; this is
 * exactly what the functions named accept, one function per rule):
 *
 *   file       = { line } ;
 *   line       = [ blanks ] [ tag-line | turn-line ] [ blanks ] end-of-line ;
 *   tag-line   = "[" [ spaces ] NAME [ spaces ] STRING [ spaces ] "]" ;   cgn_parse_tag
 *   turn-line  = [ turn-mark blanks ] COLOUR blanks TILE blanks           cgn_parse_move
 *                ( placement | "discard" ) [ claim ] ;
 *   turn-mark  = NUMBER "." | NUMBER "+" | "+" ;
 *   placement  = POSITION blanks ROTATION [ blanks ( deploy | recall ) ]
 *                [ blanks order ] ;
 *   deploy     = "-" | ROLE blanks SPOT ;                                 parse_deploy
 *   recall     = "return" blanks ROLE ;  a role taken back (The Abbot)    parse_return
 *   order      = "order" blanks spot-ref { blanks spot-ref } ;  solo     parse_order
 *   spot-ref   = SPOT | POSITION ":" SPOT ;                               cgn_parse_spot_ref
 *   claim      = [ blanks ] "=" [ blanks ] score                          cgn_parse_claims
 *                { [ blanks ] "," [ blanks ] score } ;
 *   score      = COLOUR blanks POINTS ;
 *   POSITION   = INTEGER "," INTEGER ;                                    parse_coord
 *   blanks     = ( blank | comment ) { blank | comment } ;                skip_space
 *   spaces     = blank { blank } ;  blank = " " | tab ;
 *   comment    = ";" ... end of line | "{" ... "}" ;  "{ }" may span lines
 *
 * Functions shared between the files are named cgn_; the small ones that
 * the hot loops need are static inline here.
 */
#ifndef CARC_CGN_INT_H
#define CARC_CGN_INT_H

#include "notation/record.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The reader's resource policy (notation/cgn.md, "Limits"): each cap below
 * has its own diagnostic, and together they bound the memory a game takes,
 * whatever the input. The checks cost nothing per plain turn: the turns are
 * counted when their array grows, the bytes once per line or run of plain
 * turns, tags and comments on their own (slower) paths. */
#define MAX_LINE 65536       /* bytes in a logical line (E003) */
#define MAX_GAME (1 << 20)   /* bytes of a game, what is dropped of long lines included (E031) */
#define MAX_TURNS 8192       /* turn lines of a game (E032); a capacity GROW reaches (16 << k) */
#define MAX_TAGS 1000        /* tag lines of a game (E033) */
#define MAX_COMMENTS 10000   /* comments of a game (E034) */
#define KEEP_OF_LONG_LINE 256 /* what is kept of a longer one, for the message */
#define MAX_COORD 1000000
#define MAX_BAD_TEXT 8       /* lines with bad bytes before a file is given up */
#define BLOCK 65536
#define SLACK 128            /* zero bytes after the input's NUL: see end_text */
#if defined(__GNUC__) || defined(__clang__)
#define SLOW_PATH __attribute__((noinline, cold))
#define FAST_PATH __attribute__((always_inline)) inline
#define OUT_OF_LINE __attribute__((noinline))
#else
#define SLOW_PATH
#define FAST_PATH inline
#define OUT_OF_LINE
#endif

static inline char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* p[0..n) equals w, a word of lower-case letters, in any case. (Setting
 * bit 0x20 lowers a capital letter, and turns no other byte into a
 * lower-case letter.) */
static inline bool ieq(const char *p, const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((p[i] | 0x20) != w[i])
			return false;
	return true;
}

/* Words of 8 bytes: the fast path for turn lines (below) compares words
 * and skips blanks 8 bytes at a time. */

/* The 8 bytes at p, as a number whose lowest byte is p[0]. */
static FAST_PATH uint64_t word_at(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The n bytes (at most 8) of s as word_at reads them. */
static inline uint64_t word_of(const char *s, size_t n)
{
	uint64_t w = 0;
	for (size_t k = 0; k < n; k++)
		w |= (uint64_t)(unsigned char)s[k] << (8 * k);
	return w;
}

/* A mask of the first n bytes (1 to 8) of a word. */
#define LOW_BYTES(n) (~UINT64_C(0) >> (64 - 8 * (n)))

/* The index of the first byte of w that is not 0; w is not 0. */
static FAST_PATH unsigned first_nonzero_byte(uint64_t w) { return (unsigned)carc_lowest_bit(w) / 8; }

/* Past the spaces at b[i]. Whether there are none or a few (aligned
 * columns) changes from word to word, so they are counted a word at a time
 * without a branch on the first byte, which the predictor would miss. */
static FAST_PATH size_t skip_spaces(const unsigned char *b, size_t i)
{
	for (;; i += 8) {
		uint64_t w = word_at(b + i) ^ 0x2020202020202020u;
		if (w)
			return i + first_nonzero_byte(w);
	}
}
/* A word the fast path for turn lines (below) looks for: its bytes,
 * padded with zeros to 8, a mask of those to compare, its length and what
 * it means. */
struct fast_word {
	char text[8];
	uint64_t mask;
	uint8_t len;
	uint8_t value;
};

/* The fast path finds a spot, and a role of the game's rule set, by the
 * slot of a table that its first bytes give: a multiplicative hash, with a
 * multiplier chosen so that the 13 spots, and the 8 roles of the rule sets
 * (knight thief monk farmer gatherer fisher hunter hut, by their first 3
 * letters), each have a slot of their own. A role of some other rule set
 * that would share a slot is left out of the table, and its lines go to
 * the general parser. */
#define SPOT_SLOTS 16
#define ROLE_SLOTS 16
/* the values of roles_ext[]: the first word of a role of two (its second
 * in roles2[]), and the keyword "return" */
#define FAST_ROLE_PREFIX 0xff
#define FAST_RETURN 0xfe
static inline unsigned spot_slot(uint64_t key) { return (unsigned)((key * UINT64_C(0x45f4fa408b20615b)) >> 60); }
static inline unsigned role_slot(uint64_t w)
{
	return (unsigned)(((w & 0xffffff) * UINT64_C(0xcc623af8783354e7)) >> 60);
}

/* A spot: its name in upper case as word_at reads it (one letter or three),
 * ~0 for an empty slot. */
struct spot_slot {
	uint64_t key;
	uint8_t spot;
};

/* The reader finds a known tag name the same way, by the slot that its
 * first 8 bytes, in lower case, give: the multiplier gives each of the 28
 * names, and Grey, a slot of its own (carc_reader_new stops the program if
 * two ever share one, so any test finds it). The names longer than 8 bytes, Followers, Expansions
 * and Termination, have their 9th to 11th compared on their own. */
#define TAG_SLOTS 64
static inline unsigned tag_slot(uint64_t key) { return (unsigned)((key * UINT64_C(0xba7725a3d454f36d)) >> 58); }

/* A known tag name, lower case, as tag_slot takes it; len 0 for an empty
 * slot (no name is empty). */
struct tag_slot {
	uint64_t key;
	uint8_t len;
	char tail[3]; /* the 9th to 11th letters of a longer name */
	uint8_t id;
};

/* ---- the reader: input blocks, logical lines ---- */

enum { LINE_CUT = 1, LINE_OPEN_BRACE = 2, LINE_BRACE_LIMIT = 4, LINE_SLOW = 8, LINE_CR = 16, LINE_NUL = 32 };

/* A logical line, in absolute offsets into the reader's buffer. */
struct line {
	size_t start, end;    /* end: its newline, or the end of the input */
	unsigned flags;       /* LINE_CR: it may hold a CR (LINE_SLOW: so may it) */
	size_t brace;         /* LINE_OPEN_BRACE: where the unclosed { is */
};

struct carc_reader {
	FILE *f;
	const char *name;
	struct carc_tileset_cache *cache;
	const struct carc_rulesets *rules; /* the rule sets a record may name */
	const struct carc_ruleset *rules_named; /* the one the last Rules tag named, or NULL */
	char *buf;
	size_t len, cap;
	size_t game;          /* start of the current game's text */
	unsigned game_line;   /* its line number */
	size_t pos;           /* start of the next line */
	unsigned line;        /* line number at pos */
	bool eof, started, given_up;
	bool lost;           /* carc_reader_lost_text */
	int error;           /* carc_reader_error */
	bool peeked;          /* peek is the next game's first line, already scanned */
	struct line peek;
	unsigned games;
	unsigned bad_text;    /* lines with bad bytes so far */
	/* bytes dropped of the current game's long lines (they count towards
	 * MAX_GAME), of the last line cut, of the look-ahead line; and where
	 * in the last line cut its first NUL byte is (LINE_NUL) */
	size_t dropped, cut_dropped, peek_dropped, cut_nul;
	size_t full_at;       /* the line cut in which the game passed MAX_GAME, or SIZE_MAX */
	/* Byte offsets in the input: origin + i is the offset of buf[i] (for
	 * text after the last cut line, which has the bytes it dropped added
	 * in); game_off is the current game's, rec_off the last record's. The
	 * last cut line started at cut_abs and dropped cut_lost bytes. */
	uint64_t origin, game_off, rec_off, cut_abs, cut_lost;
	/* comment lines after the last turn, carried to the next game */
	struct carc_comment *carry;
	size_t ncarry, carry_cap;
	/* the game's tags of unknown names, for finding one given twice in
	 * constant time: an open-addressing table of tag index + 1 (0: free),
	 * names_cap a power of two at least twice names_used */
	uint32_t *names;
	size_t names_used, names_cap;
	/* for the fast path: the spots, and the roles of roles_for, by slot */
	struct spot_slot spots[SPOT_SLOTS];
	struct tag_slot tag_names[TAG_SLOTS]; /* the known tag names */
	const struct carc_ruleset *roles_for;
	struct fast_word roles[ROLE_SLOTS];
	/* the words that begin a deployment without being roles, looked at
	 * when the word is none of roles[]: the first word of the roles of two
	 * words (Inns & Cathedrals' "big" of "big knight"), FAST_ROLE_PREFIX,
	 * whose second words are in roles2[]; and "return", FAST_RETURN, when
	 * some roles are taken back (The Abbot's), a bit each in recall_roles */
	struct fast_word roles_ext[ROLE_SLOTS], roles2[ROLE_SLOTS];
	uint32_t recall_roles;
	/* the claims that the fast path read last in this game (claims_len 0:
	 * none): where their text is in the game's, its length, and which of
	 * the record's claims they are (see same_claims) */
	uint32_t claims_at, claims_len, claims_first, claims_count;
	/* the tile set that the last game's rule set named, from the cache */
	const char *tileset_name;
	const struct carc_tileset *tileset;
	size_t role_len[CARC_MAX_ROLES]; /* of roles_for's role names */
};
/* ---- the parser's state ---- */

struct parser {
	struct carc_reader *r;
	struct carc_record *rec;
	struct carc_diag_sink *sink;
	const char *text;            /* r->buf + r->game, refreshed for each line */
	size_t line_start, line_end; /* the line being parsed, relative to text */
	bool in_moves;
	bool line_bad;               /* an error was reported on this line */
	bool rules_bad;              /* the Rules tag named no rule set: tiles, roles unchecked */
	unsigned tag_lines;          /* of this game, counted against MAX_TAGS */
	size_t over_lines;           /* see more_moves */
	bool turns_capped, comments_capped; /* MAX_TURNS, MAX_COMMENTS reached (and reported) */
	bool any;                    /* a line of the game was read */
	bool header_done;            /* cgn_finish_header has run */
	/* comment lines after the last turn (see comment_line): whether there
	 * are, where they start (from the game's start), their line and the
	 * first of their comments */
	bool tail;
	size_t tail_rel, tail_comments;
	unsigned tail_line;
};
/* Fills the reader's role table and role lengths for the rule set rs,
 * unless they are for it already (cgn_header.c). */
void cgn_set_roles(struct carc_reader *r, const struct carc_ruleset *rs);

/* ---- record arrays ---- */

#define GROW(rec, arr, n, cap)                                                              \
	do {                                                                                \
		if ((rec)->n == (rec)->cap) {                                               \
			(rec)->cap = (rec)->cap ? 2 * (rec)->cap : 16;                      \
			(rec)->arr = xrealloc((rec)->arr, (rec)->cap * sizeof *(rec)->arr); \
		}                                                                           \
	} while (0)

/* A new move at the end of the record's, for the general parser: empty,
 * with no number, deployment or figure taken back. */
static inline struct carc_move *cgn_new_move(struct carc_record *rec)
{
	GROW(rec, moves, nmoves, moves_cap);
	struct carc_move *m = &rec->moves[rec->nmoves++];
	memset(m, 0, sizeof *m);
	m->turn = -1;
	m->role = -1;
	m->recall = -1;
	return m;
}

struct cursor; /* the tokeniser's (cgn_token.h) */

/* Parses a whole decimal number from a slice, with an optional '-' when lo
 * is negative; false if it is not one or out of [lo, hi]. */
static inline bool parse_int(const char *s, size_t n, long lo, long hi, long *out)
{
	size_t i = 0;
	bool neg = false;
	if (n && s[0] == '-' && lo < 0) {
		neg = true;
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

static inline struct carc_span span(size_t from, size_t len)
{
	return (struct carc_span){(uint32_t)from, (uint32_t)len};
}

/* ---- between the files ---- */

/* cgn_header.c */
void cgn_parse_tag(struct parser *ps);
bool cgn_read_plain_tag(struct parser *ps);
void cgn_finish_header(struct parser *ps);
void cgn_check_outcome(struct parser *ps);

/* cgn_turn.c */
bool cgn_parse_claims(struct cursor *c, enum carc_code code, uint32_t *first, uint16_t *count, const char *what);
bool cgn_parse_spot_ref(struct cursor *c, size_t s, size_t n, enum carc_code code, const char *what,
			struct carc_order_item *it);
void cgn_parse_move(struct parser *ps);

/* cgn_fast.c */
bool cgn_result_fast(struct parser *ps, const struct carc_tag *t);
bool cgn_parse_turn_line_fast(struct parser *ps);


/* Whether the fast path may read this game's turns: its tile set and roles
 * are known. */
static inline bool fast_turns(const struct parser *ps)
{
	return carc_cgn_fast_turns && ps->rec->tileset && !ps->rules_bad;
}

#endif
