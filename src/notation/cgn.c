/*
 * cgn.c - the CGN reader and parser.
 *
 * Grammar (notation/cgn.md, section 10, is the full specification; this is
 * exactly what the functions below accept, one function per rule):
 *
 *   file       = { line } ;
 *   line       = [ blanks ] [ tag-line | turn-line ] [ blanks ] end-of-line ;
 *   tag-line   = "[" [ spaces ] NAME [ spaces ] STRING [ spaces ] "]" ;   parse_tag
 *   turn-line  = [ turn-mark blanks ] COLOUR blanks TILE blanks           parse_move
 *                ( placement | "discard" ) [ claim ] ;
 *   turn-mark  = NUMBER "." | NUMBER "+" | "+" ;
 *   placement  = POSITION blanks ROTATION [ blanks deploy ] [ blanks order ] ;
 *   deploy     = "-" | ROLE blanks SPOT ;                                 parse_deploy
 *   order      = "order" blanks spot-ref { blanks spot-ref } ;  solo     parse_order
 *   spot-ref   = SPOT | POSITION ":" SPOT ;                               parse_spot_ref
 *   claim      = [ blanks ] "=" [ blanks ] score                          parse_claims
 *                { [ blanks ] "," [ blanks ] score } ;
 *   score      = COLOUR blanks POINTS ;
 *   POSITION   = INTEGER "," INTEGER ;                                    parse_coord
 *   blanks     = ( blank | comment ) { blank | comment } ;                skip_space
 *   spaces     = blank { blank } ;  blank = " " | tab ;
 *   comment    = ";" ... end of line | "{" ... "}" ;  "{ }" may span lines
 *
 * A game is its tag lines and then its turn lines: a tag line after a turn
 * line starts the next game (carc_reader_next). Comment lines between a
 * game's last turn and the next game's tags belong to the next game. The
 * values of known tags are read once the tags are complete (finish_header).
 *
 * The reader keeps the text of the current game, and at most one line of
 * look-ahead, in one buffer; it compacts the buffer only when a read needs
 * room, so a file of any number of games is read in the memory of its
 * largest game. Spans in the record are offsets from the start of the game's
 * text. A logical line is one physical line, or several when a { comment }
 * runs over them; its end is found in one pass that looks for the newline
 * and a '{' at once (scan_line), and the slow way only when the line holds
 * a '{'. Each line is then tokenised once, in place: no token is
 * copied or allocated. On a syntax error the line is reported, marked bad
 * and the rest of it skipped, so that every error of a game is seen. Most
 * lines take none of this way: empty lines, the next game's first tag,
 * plain tag lines (read_plain_tag) and plain turn lines (read_plain_turns)
 * are told by their first byte, or read straight from the buffer.
 */
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

static const char *const colour_names[CARC_COLOURS] = {"red", "green", "blue", "yellow", "black", "gray", "pink"};
static const char *const spot_names[CARC_SPOT_COUNT] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW",
							 "N", "E", "S", "W", "C"};
static const char *const tag_names[CARC_TAG_UNKNOWN] = {
	"Event", "Site", "Date", "Round", "Rules", "Tileset", "Edition", "Seats", "Followers", "Huts",
	"Start", "Table", "EndOrder", "Result",
	"Red", "Green", "Blue", "Yellow", "Black", "Gray", "Pink"};

/* Byte classes of the tokeniser. A word runs over W and H (checked UTF-8)
 * bytes; S bytes end it; B bytes are blanks; C bytes are never text.
 * Every line the tokeniser reads ends at a stop: a newline (inside a line,
 * newlines occur only within { comments }), the closing quote of a tag's
 * value, or the NUL kept after the end of the input. So the loops over
 * words and blanks need no bounds check. */
enum { W, B, S, H, C };
static const unsigned char byte_class[256] = {
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

const char *carc_colour_name(int colour) { return colour >= 0 && colour < CARC_COLOURS ? colour_names[colour] : "?"; }
const char *carc_spot_name(int spot) { return spot >= 0 && spot < CARC_SPOT_COUNT ? spot_names[spot] : "?"; }

#if defined(__GNUC__) || defined(__clang__)
#define SLOW_PATH __attribute__((noinline, cold))
#define FAST_PATH __attribute__((always_inline)) inline
#define OUT_OF_LINE __attribute__((noinline))
#else
#define SLOW_PATH
#define FAST_PATH inline
#define OUT_OF_LINE
#endif

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

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
static uint64_t word_of(const char *s, size_t n)
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
	return id >= 0 && id < CARC_TAG_UNKNOWN ? tag_names[id] : NULL;
}

int carc_tag_lookup(const char *p, size_t len)
{
	/* The known names by their first letter (ids + 1, 0 ends a list), so
	 * that a name is compared with one or two of them, not all 21. */
	enum { R = CARC_TAG_KNOWN + 1 }; /* a colour's id + 1 is R + colour */
	static const uint8_t by_letter[26][4] = {
		['b' - 'a'] = {R + CARC_BLUE, R + CARC_BLACK},
		['d' - 'a'] = {CARC_TAG_DATE + 1},
		['e' - 'a'] = {CARC_TAG_EVENT + 1, CARC_TAG_EDITION + 1, CARC_TAG_ENDORDER + 1},
		['f' - 'a'] = {CARC_TAG_FOLLOWERS + 1},
		['g' - 'a'] = {R + CARC_GREEN, R + CARC_GRAY},
		['h' - 'a'] = {CARC_TAG_HUTS + 1},
		['p' - 'a'] = {R + CARC_PINK},
		['r' - 'a'] = {CARC_TAG_RULES + 1, CARC_TAG_RESULT + 1, CARC_TAG_ROUND + 1, R + CARC_RED},
		['s' - 'a'] = {CARC_TAG_SEATS + 1, CARC_TAG_SITE + 1, CARC_TAG_START + 1},
		['t' - 'a'] = {CARC_TAG_TILESET + 1, CARC_TAG_TABLE + 1},
		['y' - 'a'] = {R + CARC_YELLOW},
	};
	unsigned letter = len ? (unsigned)((p[0] | 0x20) - 'a') : 26;
	if (letter >= 26)
		return CARC_TAG_UNKNOWN;
	for (int k = 0; k < 4 && by_letter[letter][k]; k++) {
		int id = by_letter[letter][k] - 1;
		const char *name = tag_names[id];
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
 * first 8 bytes, in lower case, give: the multiplier gives each of the 21
 * names, and Grey, a slot of its own. The one name longer than 8 bytes,
 * Followers, has its 9th compared on its own. */
#define TAG_SLOTS 32
static inline unsigned tag_slot(uint64_t key) { return (unsigned)((key * UINT64_C(0xf0b6719690197f63)) >> 59); }

/* A known tag name, lower case, as tag_slot takes it; len 0 for an empty
 * slot (no name is empty). */
struct tag_slot {
	uint64_t key;
	uint8_t len;
	char ninth;   /* the 9th letter of a longer name */
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
	/* the claims that the fast path read last in this game (claims_len 0:
	 * none): where their text is in the game's, its length, and which of
	 * the record's claims they are (see same_claims) */
	uint32_t claims_at, claims_len, claims_first, claims_count;
	/* the tile set that the last game's rule set named, from the cache */
	const char *tileset_name;
	const struct carc_tileset *tileset;
	size_t role_len[CARC_MAX_ROLES]; /* of roles_for's role names */
};

/* Ends the text read so far with a NUL (the stop the tokeniser relies on,
 * see byte_class) and SLACK more zero bytes, so that the fast path for turn
 * lines may load the 64 bytes from any line's start, and a word of 8 bytes
 * at any offset up to 64 past it, without reading beyond the buffer. None
 * of them is ever counted as input. The buffer always has room for them. */
static void end_text(struct carc_reader *r)
{
	memset(r->buf + r->len, 0, 1 + SLACK);
}

struct carc_reader *carc_reader_new(FILE *f, const char *name, struct carc_tileset_cache *cache)
{
	struct carc_reader *r = xcalloc(1, sizeof *r);
	r->f = f;
	r->name = name;
	r->cache = cache;
	r->line = r->game_line = 1;
	r->cap = 2 * BLOCK;
	r->buf = xmalloc(r->cap);
	end_text(r);
	for (int k = 0; k < SPOT_SLOTS; k++)
		r->spots[k].key = ~UINT64_C(0);
	for (int sp = 0; sp < CARC_SPOT_COUNT; sp++) {
		uint64_t key = word_of(spot_names[sp], strlen(spot_names[sp]));
		struct spot_slot *e = &r->spots[spot_slot(key)];
		if (e->key == ~UINT64_C(0))
			*e = (struct spot_slot){key, (uint8_t)sp};
	}
	for (int id = 0; id <= CARC_TAG_UNKNOWN; id++) {
		const char *tag = id < CARC_TAG_UNKNOWN ? tag_names[id] : "Grey";
		size_t n = strlen(tag);
		uint64_t key = word_of(tag, n < 8 ? n : 8) | (UINT64_C(0x2020202020202020) & LOW_BYTES(n < 8 ? n : 8));
		r->tag_names[tag_slot(key)] = (struct tag_slot){key, (uint8_t)n, (char)(n > 8 ? tag[8] | 0x20 : 0),
								 (uint8_t)(id < CARC_TAG_UNKNOWN ? id : CARC_TAG_KNOWN + CARC_GRAY)};
	}
	return r;
}

/* Fills the role table and role lengths for the rule set rs, unless they
 * are for it already. An empty slot holds a word that nothing matches:
 * its first byte would have to be both a NUL and the space after it. */
static void set_roles(struct carc_reader *r, const struct carc_ruleset *rs)
{
	if (r->roles_for == rs)
		return;
	r->roles_for = rs;
	for (int k = 0; k < ROLE_SLOTS; k++)
		r->roles[k] = (struct fast_word){"", LOW_BYTES(1), 0, 0};
	for (int i = 0; i < rs->nroles; i++) {
		const char *name = rs->roles[i].name;
		size_t n = strlen(name);
		r->role_len[i] = n;
		/* the fast path reads a role as one word and hashes its first 3
		 * bytes; it takes lower-case names only (so does the general parser) */
		bool lower_case = n >= 3 && n <= 8;
		for (size_t k = 0; k < n && lower_case; k++)
			lower_case = name[k] >= 'a' && name[k] <= 'z';
		if (!lower_case)
			continue;
		uint64_t w = word_of(name, n);
		struct fast_word *e = &r->roles[role_slot(w)];
		if (e->len == 0) {
			memcpy(e->text, name, n);
			e->mask = LOW_BYTES(n);
			e->len = (uint8_t)n;
			e->value = (uint8_t)i;
		}
	}
}

void carc_reader_free(struct carc_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->carry);
	free(r->names);
	free(r);
}

int carc_reader_error(const struct carc_reader *r) { return r->error; }
uint64_t carc_reader_game_offset(const struct carc_reader *r) { return r->rec_off; }

void carc_reader_start_at(struct carc_reader *r, unsigned line, uint64_t offset, unsigned games)
{
	r->line = r->game_line = line;
	r->origin = offset;
	r->games = games;
	if (offset > 0)
		r->started = true; /* not the input's start: no byte order mark here */
}
bool carc_reader_lost_text(const struct carc_reader *r) { return r->lost; }

size_t carc_reader_memory(const struct carc_reader *r)
{
	return sizeof *r + r->cap + r->carry_cap * sizeof *r->carry;
}

/* Reads one more block, first moving the current game to the front of the
 * buffer when that makes room. Returns false at the end of the input. */
static bool fill(struct carc_reader *r)
{
	if (r->eof)
		return false;
	if (!r->f) {
		r->eof = true;
		return false;
	}
	if (r->cap - r->len < BLOCK && r->game > 0) {
		size_t d = r->game;
		memmove(r->buf, r->buf + d, r->len - d);
		r->len -= d;
		r->pos -= d;
		r->game = 0;
		r->origin += d;
		if (r->peeked)
			r->peek.start -= d, r->peek.end -= d, r->peek.brace -= d;
	}
	if (r->cap - r->len < BLOCK) {
		r->cap *= 2;
		r->buf = xrealloc(r->buf, r->cap);
	}
	errno = 0; /* what a failed read leaves in it is its reason */
	size_t n = fread(r->buf + r->len, 1, r->cap - r->len - 1 - SLACK, r->f);
	r->len += n;
	end_text(r);
	if (n == 0) {
		if (ferror(r->f))
			r->error = errno ? errno : EIO;
		r->eof = true;
		return false;
	}
	return true;
}

/* Offset of the first c at or after r->pos + *at, reading more input as
 * needed; r->len when there is none. Offsets relative to r->pos survive the
 * buffer moving. Gives up (returns r->len) once the search would pass
 * r->pos + limit. */
static size_t find_byte(struct carc_reader *r, size_t *at, char c, size_t limit)
{
	for (;;) {
		size_t from = r->pos + *at;
		char *hit = memchr(r->buf + from, c, r->len - from);
		if (hit) {
			*at = (size_t)(hit - r->buf) - r->pos;
			return (size_t)(hit - r->buf);
		}
		*at = r->len - r->pos;
		if (*at > limit || !fill(r))
			return r->len;
	}
}

/* Cuts a logical line that is longer than MAX_LINE (it has been scanned up
 * to r->pos + i, outside any { comment }) to its first bytes: drops the rest
 * up to the next newline, reading and discarding input as it goes, so that
 * memory stays bounded. Newlines inside the dropped part (of { comments }
 * the line ran over) are kept, so that line numbers stay right. Stops
 * reading the input (as at its end) at a NUL byte, which means binary data
 * (LINE_NUL, r->cut_nul: where in the line), and once the game with what is
 * dropped of it passes MAX_GAME bytes: an endless line ends there. */
static void cut_line(struct carc_reader *r, struct line *li, size_t i)
{
	char *b = r->buf + r->pos;
	uint64_t line_abs = r->origin + r->pos;
	size_t keep = KEEP_OF_LONG_LINE;
	char *nl = memchr(b, '\n', keep);
	if (nl)
		keep = (size_t)(nl - b); /* show the first physical line */
	size_t scanned = i < r->len - r->pos ? i : r->len - r->pos;
	const char *nul = memchr(b, '\0', scanned);
	li->flags |= LINE_CUT;
	r->lost = true;
	r->cut_dropped = 0;
	if (nul) {
		r->cut_nul = (size_t)(nul - b);
		li->flags |= LINE_NUL;
		r->len = r->pos + keep;
		li->end = r->len;
		end_text(r);
		r->eof = true; /* binary data: nothing more is read */
		return;
	}
	size_t w = keep;
	for (size_t k = keep; k < scanned; k++)
		if (b[k] == '\n')
			b[w++] = '\n';
	size_t from = i; /* relative to r->pos, which fill() may move */
	for (;;) {
		size_t at = r->pos + from;
		char *e = at < r->len ? memchr(r->buf + at, '\n', r->len - at) : NULL;
		size_t seg = e ? (size_t)(e - r->buf) : r->len; /* the end of what is dropped now */
		nul = at < seg ? memchr(r->buf + at, '\0', seg - at) : NULL;
		if (nul) {
			r->cut_nul = (size_t)(nul - r->buf) - r->pos + r->cut_dropped;
			li->flags |= LINE_NUL;
			r->eof = true;
			e = NULL;
			seg = r->len;
		}
		size_t gone = seg - r->pos - w;
		r->cut_dropped += gone;
		r->dropped += gone;
		if (r->pos - r->game + w + r->dropped > MAX_GAME && r->full_at == SIZE_MAX)
			r->full_at = r->pos - r->game;
		if (e) {
			size_t rest = r->len - seg;
			r->origin += gone;
			memmove(r->buf + r->pos + w, e, rest);
			r->len = r->pos + w + rest;
			end_text(r);
			break;
		}
		r->origin += r->len - (r->pos + w);
		r->len = r->pos + w;
		end_text(r);
		from = w;
		if (r->len - r->game + r->dropped > MAX_GAME)
			r->eof = true; /* an endless line: the game is too long (E031) */
		if (!fill(r))
			break;
	}
	li->end = r->pos + w;
	r->cut_abs = line_abs;
	r->cut_lost = r->origin + r->pos - line_abs;
}

/* Finds the logical line that starts at r->pos: up to the first newline that
 * is not inside a { comment } or a tag's "value". A { that is not closed
 * before the end of the input, or within MAX_LINE bytes, is reported (later,
 * through the flags) and taken to end with its line. Returns false when
 * there is no line left. */
static SLOW_PATH bool scan_line_slow(struct carc_reader *r, struct line *li)
{
	li->flags = LINE_SLOW;
	/* All input comes in through here (the other ways read only what the
	 * buffer holds): a game that has passed MAX_GAME bytes reads no more,
	 * and carc_reader_next reports it. */
	if (r->pos - r->game + r->dropped > MAX_GAME)
		return false;
	if (r->pos >= r->len && !fill(r))
		return false;
	size_t at = 0;
	size_t nl = find_byte(r, &at, '\n', MAX_LINE);
	if (nl - r->pos > MAX_LINE) {
		cut_line(r, li, at);
		return true;
	}
	if (!memchr(r->buf + r->pos, '{', nl - r->pos)) {
		li->end = nl; /* no { in the line */
		return true;
	}

	/* A { in the line: scan it byte by byte. */
	bool first = true, is_tag = false;
	size_t i = 0; /* relative to r->pos */
	for (;;) {
		if (r->pos + i >= r->len && !fill(r)) {
			li->end = r->len;
			return true;
		}
		if (i > MAX_LINE) {
			cut_line(r, li, i);
			return true;
		}
		char c = r->buf[r->pos + i];
		if (c == '\n') {
			li->end = r->pos + i;
			return true;
		}
		if (c == ';') {
			size_t e = find_byte(r, &i, '\n', MAX_LINE);
			if (e - r->pos > MAX_LINE) {
				cut_line(r, li, i);
				return true;
			}
			li->end = e;
			return true;
		}
		if (c == '{') {
			size_t from = i, j = i + 1;
			size_t close = find_byte(r, &j, '}', MAX_LINE);
			if (close < r->len) {
				i = j + 1;
				continue;
			}
			/* Not closed: report it, and let the comment end with its line. */
			li->flags |= LINE_OPEN_BRACE | (j > MAX_LINE ? LINE_BRACE_LIMIT : 0);
			li->brace = from; /* relative until the end: the buffer may move */
			size_t k = from;
			size_t e = find_byte(r, &k, '\n', MAX_LINE);
			if (e - r->pos > MAX_LINE) {
				cut_line(r, li, k);
				return true;
			}
			li->end = e;
			return true;
		}
		if (c == '"' && is_tag) {
			/* a tag's value: up to its closing quote, or the end of the line */
			for (i++; r->pos + i < r->len || fill(r); i++) {
				char d = r->buf[r->pos + i];
				if (d == '\\' && r->pos + i + 1 >= r->len)
					fill(r); /* the escaped character is in the next block */
				if (d == '\\' && r->pos + i + 1 < r->len && r->buf[r->pos + i + 1] != '\n')
					i++;
				else if (d == '"' || d == '\n')
					break;
				if (i > MAX_LINE)
					break;
			}
			if (r->pos + i < r->len && r->buf[r->pos + i] == '"')
				i++;
			continue;
		}
		if (first && c == '[')
			is_tag = true;
		if (byte_class[(unsigned char)c] != B)
			first = false;
		i++;
	}
}

static inline bool scan_line(struct carc_reader *r, struct line *li)
{
	/* the common case: a newline in the buffer, no { before it */
#if defined(__SSE2__)
	/* Lines are short: both at once, 32 bytes at a time (most lines are
	 * done in one step), without the calls of two memchr(); and whether
	 * the line has a CR, for lone_cr. (The bytes after the input are
	 * zeros: see end_text.) */
	const __m128i newline = _mm_set1_epi8('\n'), brace = _mm_set1_epi8('{'), cr = _mm_set1_epi8('\r');
	uint64_t crs = 0; /* CRs before the 32 bytes */
	for (size_t i = r->pos; i < r->len && i - r->pos <= MAX_LINE; i += 32) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(r->buf + i));
		__m128i u = _mm_loadu_si128((const __m128i *)(const void *)(r->buf + i + 16));
		uint64_t hit = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, newline), _mm_cmpeq_epi8(v, brace))) |
			       (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(u, newline),
									   _mm_cmpeq_epi8(u, brace))) << 16;
		uint64_t in = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, cr)) |
			      (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(u, cr)) << 16;
		if (hit) {
			unsigned k = (unsigned)carc_lowest_bit(hit);
			size_t nl = i + k;
			if (r->buf[nl] != '\n' || nl - r->pos > MAX_LINE)
				break;
			li->start = r->pos;
			li->end = nl;
			li->flags = crs | (in & ((UINT64_C(1) << k) - 1)) ? LINE_CR : 0;
			return true;
		}
		crs |= in;
	}
#else
	const char *p = r->buf + r->pos;
	const char *nl = r->pos < r->len ? memchr(p, '\n', r->len - r->pos) : NULL;
	if (nl && nl - p <= MAX_LINE && !memchr(p, '{', (size_t)(nl - p))) {
		li->start = r->pos;
		li->end = (size_t)(nl - r->buf);
		li->flags = memchr(p, '\r', (size_t)(nl - p)) ? LINE_CR : 0;
		return true;
	}
#endif
	if (!scan_line_slow(r, li))
		return false;
	li->start = r->pos;
	if (li->flags & LINE_OPEN_BRACE)
		li->brace += r->pos;
	return true;
}

/* Moves past the line li, counting its newlines. */
static inline void consume_line(struct carc_reader *r, const struct line *li)
{
	if (li->flags & LINE_SLOW) /* it may span lines */
		for (const char *p = r->buf + li->start, *e = r->buf + li->end; (p = memchr(p, '\n', (size_t)(e - p))); p++)
			r->line++;
	r->pos = li->end;
	if (r->pos < r->len && r->buf[r->pos] == '\n') {
		r->pos++;
		r->line++;
	}
}

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
};

/* The record's source must point into the buffer, which may have moved. */
static struct carc_src *src_of(struct parser *ps)
{
	ps->rec->src.text = ps->r->buf + ps->r->game;
	ps->rec->src.len = ps->r->len - ps->r->game;
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
	carc_diag_report(ps->sink, code, src_of(ps), off, len ? len : 1, "%s", msg);
}

/* ---- record arrays ---- */

#define GROW(rec, arr, n, cap)                                                              \
	do {                                                                                \
		if ((rec)->n == (rec)->cap) {                                               \
			(rec)->cap = (rec)->cap ? 2 * (rec)->cap : 16;                      \
			(rec)->arr = xrealloc((rec)->arr, (rec)->cap * sizeof *(rec)->arr); \
		}                                                                           \
	} while (0)

static void add_comment(struct parser *ps, size_t off, size_t len, bool trailing)
{
	struct carc_record *rec = ps->rec;
	if (rec->ncomments >= MAX_COMMENTS) {
		if (!ps->comments_capped)
			report(ps, CARC_E034, off, 1, "more than %d comments in one game; the rest of its comments are dropped",
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

void carc_record_free(struct carc_record *rec)
{
	free(rec->tags);
	free(rec->moves);
	free(rec->claims);
	free(rec->order);
	free(rec->comments);
	free(rec->own_text);
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

/* ---- the tokeniser, within one line ---- */

struct cursor {
	struct parser *ps;
	const char *buf;  /* the game's text */
	size_t p, end;
	size_t last;      /* end of the last word read */
	bool value;       /* inside a tag's value: ; and { are not comments */
};

static bool is_blank(char c) { return byte_class[(unsigned char)c] == B; }

/* Stops reading the input after the current game, which keeps what was
 * read of it but cannot be refereed. */
static void give_up_input(struct parser *ps)
{
	ps->r->given_up = true;
	ps->r->lost = true;
	ps->rec->header_errors++;
}

/* Reports the bad byte at `at`. A NUL byte means binary data: the rest of
 * the input is skipped. So is the rest after MAX_BAD_TEXT lines with bad
 * bytes. */
static void bad_byte(struct cursor *c, size_t at)
{
	struct parser *ps = c->ps;
	unsigned char b = (unsigned char)c->buf[at];
	bool give_up = b == 0 || ++ps->r->bad_text >= MAX_BAD_TEXT;
	const char *rest = give_up ? "; the rest of the input is skipped" : "";
	if (b == 0)
		report(ps, CARC_E002, at, 1, "NUL byte: this is not a text file%s", rest);
	else if (b < 0x20 || b == 0x7f)
		report(ps, CARC_E002, at, 1, "control character 0x%02x in the text%s", b, rest);
	else if (b == 0xc2 && at + 1 < c->end && (unsigned char)c->buf[at + 1] >= 0x80 &&
		 (unsigned char)c->buf[at + 1] < 0xa0)
		report(ps, CARC_E002, at, 1, "control character U+%04X in the text%s", (unsigned char)c->buf[at + 1], rest);
	else
		report(ps, CARC_E002, at, 1, "malformed UTF-8 (byte 0x%02x); CGN files are UTF-8 text%s", b, rest);
	if (give_up)
		give_up_input(ps);
}

/* Checks that [from, to) is text: UTF-8 without control characters other
 * than tab, CR and newline. Reports the first bad byte. */
static bool check_text(struct cursor *c, size_t from, size_t to)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	for (size_t i = from; i < to;) {
		int k = byte_class[s[i]];
		if (k == W || k == B || k == S) {
			i++;
			continue;
		}
		size_t n = k == H ? carc_utf8_len(c->buf + i, to - i) : 0;
		if (!n) {
			bad_byte(c, i);
			return false;
		}
		i += n;
	}
	return true;
}

/* The comments (and the blanks between them) at c->p. */
static SLOW_PATH void skip_comments(struct cursor *c, bool trailing)
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

/* Skips blanks and comments, recording the comments. */
static inline void skip_space(struct cursor *c, bool trailing)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	size_t p = c->p, end = c->end;
	while (byte_class[s[p]] == B) /* stops at the line's end: see byte_class */
		p++;
	c->p = p;
	if (p < end && (s[p] == ';' || s[p] == '{'))
		skip_comments(c, trailing);
}

static bool at_end(struct cursor *c) { return c->p >= c->end; }

/* The rest of a word that holds a byte other than printable ASCII. */
static SLOW_PATH size_t word_slow(struct cursor *c, size_t start, size_t i)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	for (;;) {
		while (i < c->end && byte_class[s[i]] == W)
			i++;
		if (i >= c->end || byte_class[s[i]] == B || byte_class[s[i]] == S)
			break;
		size_t n = byte_class[s[i]] == H ? carc_utf8_len(c->buf + i, c->end - i) : 0;
		if (!n) {
			bad_byte(c, i);
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

/* A word: everything up to a blank, a comment, '=' or ','. A bad byte is
 * reported (the line is then bad). Returns its length, 0 at the end of the
 * line or on a bad byte. */
static inline size_t word(struct cursor *c, size_t *start)
{
	const unsigned char *s = (const unsigned char *)c->buf;
	size_t from = c->p, i = from, end = c->end;
	*start = from;
	while (byte_class[s[i]] == W) /* stops at the line's end: see byte_class */
		i++;
	if (i < end && byte_class[s[i]] >= H)
		return word_slow(c, from, i);
	c->p = i;
	if (i > from)
		c->last = i;
	return i - from;
}

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

static struct carc_span span(size_t from, size_t len)
{
	return (struct carc_span){(uint32_t)from, (uint32_t)len};
}

/* Reports that the line ends before `what`, just after its last word. */
static void expect_more(struct cursor *c, const char *what)
{
	report(c->ps, CARC_E029, c->last, 1, "the turn ends here; expected %s", what);
}

/* claim = "=" score { "," score } ; the list without its "=", up to the end
 * of the cursor, into rec->claims (also the value of the Result tag). */
static bool parse_claims(struct cursor *c, enum carc_code code, uint32_t *first, uint16_t *count, const char *what)
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
			report(c->ps, code, c->p < c->end ? c->p : c->last, 1,
			       "%s: expected a colour and its points, as in 'red 12, green 8'", what);
			return false;
		}
		int col = carc_colour_lookup(c->buf + s, n);
		if (col < 0) {
			report(c->ps, code, s, n, "%s: '%.*s' is not a colour (red green blue yellow black gray pink)",
			       what, (int)n, c->buf + s);
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
		if (!nn || !parse_int(c->buf + ns, nn, 0, 99999, &pts)) {
			report(c->ps, code, nn ? ns : s, nn ? nn : n, "%s: %s needs its points, a whole number from 0 to 99999",
			       what, colour_names[col]);
			return false;
		}
		GROW(rec, claims, nclaims, claims_cap);
		rec->claims[rec->nclaims++] = (struct carc_claim){(uint8_t)col, (int32_t)pts, span(s, ns + nn - s),
								   span(ns, nn)};
		skip_space(c, true);
		if (at_end(c))
			break;
		if (c->buf[c->p] != ',') {
			size_t ws, wn = word(c, &ws);
			if (c->ps->line_bad)
				return false;
			report(c->ps, code, wn ? ws : c->p, wn, "%s: expected a comma before '%.*s', as in 'red 12, green 8'",
			       what, (int)(wn ? wn : 1), c->buf + (wn ? ws : c->p));
			return false;
		}
		c->p++;
	}
	*first = (uint32_t)begin;
	*count = (uint16_t)(rec->nclaims - begin);
	return true;
}

/* COORD = INTEGER "," INTEGER, no blanks; the first word is at s. */
static bool parse_coord(struct cursor *c, size_t s, size_t n, int32_t *x, int32_t *y, size_t *end)
{
	long vx = 0, vy = 0;
	size_t ys = 0, yn = 0;
	bool ok = parse_int(c->buf + s, n, -MAX_COORD, MAX_COORD, &vx);
	if (c->p < c->end && c->buf[c->p] == ',') {
		c->p++;
		yn = word(c, &ys);
		if (c->ps->line_bad)
			return false;
		ok = ok && yn && parse_int(c->buf + ys, yn, -MAX_COORD, MAX_COORD, &vy);
	} else {
		ok = false;
	}
	*end = yn ? ys + yn : c->p;
	if (!ok)
		return false;
	*x = (int32_t)vx;
	*y = (int32_t)vy;
	return true;
}

/* ---- tags ---- */

/* Past the letters, digits and '_' from s[p] on (a tag's name), 16 at a
 * time, without a branch on each byte. A line ends at a newline or the NUL
 * after the input, neither of which is one, so this never passes its end;
 * it reads at most 15 bytes past it. */
static FAST_PATH size_t skip_name(const unsigned char *s, size_t p)
{
#if defined(__SSE2__)
	const __m128i case_bit = _mm_set1_epi8(0x20), a = _mm_set1_epi8('a' - 1), z = _mm_set1_epi8('z' + 1);
	const __m128i zero = _mm_set1_epi8('0' - 1), nine = _mm_set1_epi8('9' + 1), underscore = _mm_set1_epi8('_');
	for (;; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
		__m128i l = _mm_or_si128(v, case_bit); /* a letter, lower case (see ieq) */
		/* (signed comparisons: the bytes from 0x80 on are below both) */
		__m128i letter = _mm_and_si128(_mm_cmpgt_epi8(l, a), _mm_cmplt_epi8(l, z));
		__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(v, zero), _mm_cmplt_epi8(v, nine));
		__m128i name = _mm_or_si128(_mm_or_si128(letter, digit), _mm_cmpeq_epi8(v, underscore));
		unsigned other = ~(unsigned)_mm_movemask_epi8(name) & 0xffff;
		if (other)
			return p + (size_t)carc_lowest_bit(other);
	}
#else
	while ((s[p] >= 'A' && s[p] <= 'Z') || (s[p] >= 'a' && s[p] <= 'z') || (s[p] >= '0' && s[p] <= '9') || s[p] == '_')
		p++;
	return p;
#endif
}

/* Past the bytes from s[p] on that a tag's value keeps as they are,
 * printable ASCII but '"' and '\\', counted 16 (or 8) at a time: stops at
 * the first other byte, where the caller reads on. A line ends at a newline
 * or the NUL after the input, so this never passes its end; it reads at most
 * 15 bytes past it. */
static FAST_PATH size_t skip_plain_value(const unsigned char *s, size_t p)
{
#if defined(__SSE2__)
	const __m128i space = _mm_set1_epi8(' '), del = _mm_set1_epi8(0x7f);
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	for (;; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
		/* (a signed comparison: the bytes from 0x80 on are below ' ') */
		__m128i other = _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)),
					     _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
		unsigned at = (unsigned)_mm_movemask_epi8(other);
		if (at)
			return p + (size_t)carc_lowest_bit(at);
	}
#else
	/* (In each mask below, a borrow or carry from one byte to the next
	 * only comes from a byte that is marked itself: the lowest mark is
	 * exact.) */
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
	for (;; p += 8) {
		uint64_t w = word_at(s + p);
		uint64_t control = (w - 0x20 * ones) & ~w;     /* a byte < 0x20 */
		uint64_t beyond = (w + ones) | w;              /* a byte > 0x7e */
		uint64_t quote = w ^ '"' * ones, backslash = w ^ '\\' * ones;
		quote = (quote - ones) & ~quote;               /* a byte '"' */
		backslash = (backslash - ones) & ~backslash;   /* a byte '\\' */
		uint64_t other = (control | beyond | quote | backslash) & high;
		if (other)
			return p + first_nonzero_byte(other);
	}
#endif
}

/* The known tag (carc_tag_lookup) named by the n bytes at p, letters,
 * digits and '_', in the reader's buffer (8 bytes from p may be read). */
static FAST_PATH int known_tag(const struct carc_reader *r, const unsigned char *p, size_t n)
{
	size_t k = n < 8 ? n : 8;
	/* Setting bit 0x20 lowers a capital letter, and turns no other byte
	 * into a lower-case letter (see ieq) */
	uint64_t key = (word_at(p) | UINT64_C(0x2020202020202020)) & LOW_BYTES(k);
	const struct tag_slot *e = &r->tag_names[tag_slot(key)];
	if (e->key != key || e->len != n || (n > 8 && (p[8] | 0x20) != e->ninth))
		return CARC_TAG_UNKNOWN;
	return e->id;
}

/* The slot of an unknown tag name (any case) in the reader's table. */
static uint32_t *name_slot(struct carc_reader *r, const struct carc_record *rec, const char *buf, const char *name,
			   size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t k = 0; k < n; k++)
		h = (h ^ (unsigned char)lower(name[k])) * 16777619u;
	for (size_t i = h & (r->names_cap - 1);; i = (i + 1) & (r->names_cap - 1)) {
		uint32_t e = r->names[i];
		if (!e)
			return &r->names[i];
		const struct carc_tag *t = &rec->tags[e - 1];
		bool same = t->name.len == n;
		for (size_t k = 0; k < n && same; k++)
			same = lower(buf[t->name.off + k]) == lower(name[k]);
		if (same)
			return &r->names[i];
	}
}

/* An unknown tag name (name, n bytes) given before in this game: its tag's
 * index; else -1, with *slot where to note it. The table grows (all its
 * names placed again) to stay at most half full. */
static int unknown_tag(struct parser *ps, const char *name, size_t n, uint32_t **slot)
{
	struct carc_reader *r = ps->r;
	const struct carc_record *rec = ps->rec;
	const char *buf = ps->text;
	if (2 * (r->names_used + 1) > r->names_cap) {
		free(r->names);
		r->names_cap = r->names_cap ? 2 * r->names_cap : 16;
		r->names = xcalloc(r->names_cap, sizeof *r->names);
		for (size_t i = 0; i < rec->ntags; i++) {
			const struct carc_tag *t = &rec->tags[i];
			if (carc_tag_lookup(buf + t->name.off, t->name.len) == CARC_TAG_UNKNOWN)
				*name_slot(r, rec, buf, buf + t->name.off, t->name.len) = (uint32_t)i + 1;
		}
	}
	uint32_t *s = name_slot(r, rec, buf, name, n);
	if (*s)
		return (int)*s - 1;
	*slot = s;
	return -1;
}

/* tag-line = "[" NAME STRING "]" ; NAME is a letter and then letters,
 * digits and '_'; STRING is "..." where \" and \\ stand for " and \. */
static void parse_tag(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	struct cursor c = {ps, ps->text, ps->line_start, ps->line_end, ps->line_start};
	const unsigned char *s = (const unsigned char *)c.buf;
	skip_space(&c, false);
	size_t tag_start = c.p;
	c.p++; /* '[' */
	while (c.p < c.end && is_blank(c.buf[c.p]))
		c.p++;
	size_t ns = c.p;
	c.p = skip_name(s, c.p);
	if (c.p > c.end) /* (it is not: see skip_name) */
		c.p = c.end;
	size_t nlen = c.p - ns;
	if (nlen == 0 || !((c.buf[ns] | 0x20) >= 'a' && (c.buf[ns] | 0x20) <= 'z')) {
		report(ps, CARC_E005, ns < c.end ? ns : tag_start, 1,
		       "a tag is [Name \"value\"], its name a word of letters, digits and _");
		return;
	}
	while (c.p < c.end && is_blank(c.buf[c.p]))
		c.p++;
	if (c.p >= c.end || c.buf[c.p] != '"') {
		report(ps, CARC_E005, c.p < c.end ? c.p : c.end - 1, 1, "tag %.*s: expected its value in double quotes",
		       (int)nlen, c.buf + ns);
		return;
	}
	size_t vs = ++c.p;
	size_t text_at = rec->text.len;
	for (size_t run = c.p;;) {
		c.p = skip_plain_value(s, c.p);
		while (c.p < c.end && byte_class[s[c.p]] <= S && s[c.p] != '"' && s[c.p] != '\\' && s[c.p] != '\n')
			c.p++;
		carc_buf_add(&rec->text, c.buf + run, c.p - run);
		if (c.p >= c.end || s[c.p] == '"' || s[c.p] == '\n')
			break;
		if (s[c.p] == '\\') {
			if (c.p + 1 < c.end && (s[c.p + 1] == '"' || s[c.p + 1] == '\\'))
				c.p++; /* the escaped character is added with the next run */
			run = c.p;
			c.p++;
			continue;
		}
		size_t n = byte_class[s[c.p]] == H ? carc_utf8_len(c.buf + c.p, c.end - c.p) : 0;
		if (!n) {
			bad_byte(&c, c.p);
			return;
		}
		run = c.p;
		c.p += n;
	}
	if (c.p >= c.end || s[c.p] != '"') {
		report(ps, CARC_E005, vs - 1, 1, "tag %.*s: the value's closing quote is missing", (int)nlen, c.buf + ns);
		return;
	}
	size_t ve = c.p++;
	carc_buf_addc(&rec->text, '\0');
	while (c.p < c.end && is_blank(c.buf[c.p]))
		c.p++;
	if (c.p >= c.end || c.buf[c.p] != ']') {
		report(ps, CARC_E005, c.p < c.end ? c.p : c.end - 1, 1, "tag %.*s: expected ] after the value",
		       (int)nlen, c.buf + ns);
		return;
	}
	c.p++;
	/* Given before: a known tag under either of its names (Grey is Gray),
	 * or an unknown one of the same name in any case. */
	int id = known_tag(ps->r, s + ns, nlen);
	uint32_t *slot = NULL;
	int before = id != CARC_TAG_UNKNOWN ? rec->tag_index[id] : unknown_tag(ps, c.buf + ns, nlen, &slot);
	if (before >= 0) {
		const struct carc_tag *t = &rec->tags[before];
		bool same_name = t->name.len == nlen;
		for (size_t k = 0; k < nlen && same_name; k++)
			same_name = lower(c.buf[t->name.off + k]) == lower(c.buf[ns + k]);
		if (same_name)
			report(ps, CARC_E006, ns, nlen, "tag %.*s is already given on line %u; a game has each tag once",
			       (int)nlen, c.buf + ns, (unsigned)t->line);
		else
			report(ps, CARC_E006, ns, nlen,
			       "tag %.*s is already given on line %u, as %.*s; a game has each tag once", (int)nlen,
			       c.buf + ns, (unsigned)t->line, (int)t->name.len, c.buf + t->name.off);
		return;
	}
	if (slot) {
		*slot = (uint32_t)rec->ntags + 1;
		ps->r->names_used++;
	}
	GROW(rec, tags, ntags, tags_cap);
	struct carc_tag *t = &rec->tags[rec->ntags];
	t->span = span(tag_start, c.p - tag_start);
	t->name = span(ns, nlen);
	t->value = span(vs, ve - vs);
	t->text = (uint32_t)text_at;
	t->text_len = (uint32_t)(rec->text.len - 1 - text_at);
	t->line = ps->r->line; /* the line's first; a { comment } before the tag may run over lines */
	for (const char *q = c.buf + ps->line_start, *e = c.buf + tag_start; q < e && (q = memchr(q, '\n', (size_t)(e - q)));
	     q++)
		t->line++;
	if (id != CARC_TAG_UNKNOWN)
		rec->tag_index[id] = (int)rec->ntags;
	rec->ntags++;
	skip_space(&c, true);
	if (!at_end(&c) && !ps->line_bad)
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
	report(ps, code, t->value.off, t->value.len, "%s", msg);
}

static bool is_leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* Date = YYYY-MM-DD, a day of the calendar. */
static void check_date(struct parser *ps, const char *v)
{
	long y, m, d;
	static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool ok = strlen(v) == 10 && v[4] == '-' && v[7] == '-' && parse_int(v, 4, 1, 9999, &y) &&
		  parse_int(v + 5, 2, 1, 12, &m) && parse_int(v + 8, 2, 1, 31, &d) && d <= days[m - 1] &&
		  !(m == 2 && d == 29 && !is_leap(y));
	if (!ok)
		header_error(ps, CARC_E009, CARC_TAG_DATE, "Date '%s' is not a day written YYYY-MM-DD, as in 2026-11-20", v);
}

/* Seats = colours separated by blanks or commas, each once. */
static void parse_seats(struct parser *ps, const char *v)
{
	struct carc_record *rec = ps->rec;
	unsigned seen = 0;
	rec->nseats = 0;
	for (const char *p = v; *p;) {
		while (*p == ' ' || *p == ',' || *p == '\t')
			p++;
		size_t n = 0; /* (as strcspn(p, " ,\t"), without a call for a word) */
		while (p[n] && p[n] != ' ' && p[n] != ',' && p[n] != '\t')
			n++;
		if (!n)
			break;
		int col = colour_lookup(p, n);
		int shown = n < 40 ? (int)n : 40;
		if (col < 0) {
			header_error(ps, CARC_E010, CARC_TAG_SEATS,
				     "Seats: '%.*s' is not a colour (red green blue yellow black gray pink)", shown, p);
			return;
		}
		if (seen & (1u << col)) {
			header_error(ps, CARC_E010, CARC_TAG_SEATS, "Seats: %s sits twice", colour_names[col]);
			return;
		}
		seen |= 1u << col;
		rec->seats[rec->nseats++] = (uint8_t)col;
		p += n;
	}
	const struct carc_ruleset *rs = rec->rules;
	if (rec->nseats < rs->min_seats || rec->nseats > rs->max_seats) {
		if (rs->min_seats == rs->max_seats)
			header_error(ps, CARC_E010, CARC_TAG_SEATS, "Seats: %d colour%s; %s games seat %d", rec->nseats,
				     rec->nseats == 1 ? "" : "s", rs->name, rs->min_seats);
		else
			header_error(ps, CARC_E010, CARC_TAG_SEATS, "Seats: %d colour%s; %s games seat %d to %d",
				     rec->nseats, rec->nseats == 1 ? "" : "s", rs->name, rs->min_seats, rs->max_seats);
		return;
	}
	rec->seats_given = true;
}

static void number_tag(struct parser *ps, int tag, long lo, long hi, int *out)
{
	const char *v = carc_record_tag(ps->rec, tag);
	long n;
	if (!v)
		return;
	if (!parse_int(v, strlen(v), lo, hi, &n)) {
		header_error(ps, CARC_E011, tag, "%s '%s' is not a whole number from %ld to %ld (%s games)",
			     carc_tag_name(tag), v, lo, hi, ps->rec->rules->name);
		return;
	}
	*out = (int)n;
}

/* Start = TILE ROTATION, as in "D 0". */
static void parse_start(struct parser *ps, const char *v)
{
	struct carc_record *rec = ps->rec;
	const struct carc_tileset *ts = rec->tileset;
	const char *p = v;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strcspn(p, " \t");
	int tile = carc_tileset_find(ts, p, n);
	const char *r = p + n;
	while (*r == ' ' || *r == '\t')
		r++;
	size_t rn = strcspn(r, " \t");
	long deg = -1;
	bool rot_ok = (rn == 1 && !strncmp(r, "0", 1)) || (rn == 2 && !strncmp(r, "90", 2)) ||
		      (rn == 3 && (!strncmp(r, "180", 3) || !strncmp(r, "270", 3)));
	if (rot_ok)
		parse_int(r, rn, 0, 270, &deg);
	const char *after = r + rn;
	while (*after == ' ' || *after == '\t')
		after++;
	if (tile < 0)
		header_error(ps, CARC_E013, CARC_TAG_START, "Start '%s': '%.*s' is not a tile of tile set %s", v,
			     (int)(n < 20 ? n : 20), p, ts->name);
	else if (!rot_ok || *after)
		header_error(ps, CARC_E013, CARC_TAG_START,
			     "Start '%s' is a tile and a rotation (0, 90, 180 or 270), as in \"D 0\"", v);
	else if (ts->tiles[tile].bonus)
		header_error(ps, CARC_E013, CARC_TAG_START, "Start '%s': a bonus tile cannot start the game", v);
	else
		rec->start_tile = tile, rec->start_rot = (int)(deg / 90);
}

/* Table = WIDTH "x" HEIGHT, in tiles, as in "12 x 10". */
static void parse_table(struct parser *ps, const char *v)
{
	struct carc_record *rec = ps->rec;
	long w, h;
	const char *x = strpbrk(v, "xX");
	bool ok = false;
	if (x) {
		const char *ws = v, *we = x, *hs = x + 1, *he = v + strlen(v);
		while (ws < we && is_blank(*ws))
			ws++;
		while (we > ws && is_blank(we[-1]))
			we--;
		while (hs < he && is_blank(*hs))
			hs++;
		while (he > hs && is_blank(he[-1]))
			he--;
		ok = parse_int(ws, (size_t)(we - ws), 1, 1000, &w) && parse_int(hs, (size_t)(he - hs), 1, 1000, &h);
	}
	if (ok)
		rec->table_w = (int)w, rec->table_h = (int)h;
	else
		header_error(ps, CARC_E011, CARC_TAG_TABLE,
			     "Table '%s' is not a size in tiles, two whole numbers from 1 to 1000, as in \"12 x 10\"", v);
}

/* spot-ref = SPOT | COORD ":" SPOT ; the word at s. Reports with `code`. */
static bool parse_spot_ref(struct cursor *c, size_t s, size_t n, enum carc_code code, const char *what,
			   struct carc_order_item *it)
{
	*it = (struct carc_order_item){.span = span(s, n)};
	const char *spot = c->buf + s;
	size_t spot_len = n;
	if (c->p < c->end && c->buf[c->p] == ',') {
		size_t end;
		const char *colon = NULL;
		long y;
		size_t ys = c->p + 1;
		c->p++;
		size_t yn = word(c, &ys);
		if (c->ps->line_bad)
			return false;
		end = ys + yn;
		colon = yn ? memchr(c->buf + ys, ':', yn) : NULL;
		long x;
		if (!colon || !parse_int(c->buf + s, n, -MAX_COORD, MAX_COORD, &x) ||
		    !parse_int(c->buf + ys, (size_t)(colon - (c->buf + ys)), -MAX_COORD, MAX_COORD, &y)) {
			report(c->ps, code, s, end - s, "%s: '%.*s' is not a spot or x,y:SPOT", what, (int)(end - s),
			       c->buf + s);
			return false;
		}
		it->has_coord = true;
		it->x = (int32_t)x;
		it->y = (int32_t)y;
		spot = colon + 1;
		spot_len = (size_t)(c->buf + end - spot);
		it->span = span(s, end - s);
	}
	int sp = carc_spot_lookup(spot, spot_len);
	if (sp < 0) {
		report(c->ps, code, it->span.off, it->span.len, "%s: '%.*s' is not a spot (N E S W, NNW NNE ... WNW, C)",
		       what, (int)it->span.len, c->buf + it->span.off);
		return false;
	}
	it->spot = (uint8_t)sp;
	return true;
}

/* EndOrder = spot-ref { spot-ref }, each x,y:SPOT (solo games). */
static void parse_end_order(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const struct carc_tag *t = &rec->tags[rec->tag_index[CARC_TAG_ENDORDER]];
	struct cursor c = {ps, ps->text, t->value.off, t->value.off + t->value.len, t->value.off, true};
	bool saved = ps->line_bad;
	ps->line_bad = false;
	size_t first = rec->norder;
	if (rec->rules->id != CARC_RULES_SOLO) {
		header_error(ps, CARC_E030, CARC_TAG_ENDORDER, "EndOrder is only given in solo games");
		goto out;
	}
	for (;;) {
		skip_space(&c, true);
		if (at_end(&c))
			break;
		size_t s, n = word(&c, &s);
		struct carc_order_item it;
		if (ps->line_bad)
			break;
		if (!n) {
			report(ps, CARC_E030, c.p, 1, "EndOrder: unexpected '%c'; write x,y:SPOT for each follower",
			       c.buf[c.p]);
			break;
		}
		if (!parse_spot_ref(&c, s, n, CARC_E030, "EndOrder", &it))
			break;
		if (!it.has_coord) {
			report(ps, CARC_E030, s, n, "EndOrder: '%.*s' needs the tile's position, as in 0,1:%s", (int)n,
			       c.buf + s, spot_names[it.spot]);
			break;
		}
		GROW(rec, order, norder, order_cap);
		rec->order[rec->norder++] = it;
	}
	if (ps->line_bad) {
		rec->header_errors++;
		rec->norder = first;
	} else {
		rec->has_end_order = true;
		rec->end_order_first = (uint32_t)first;
		rec->end_order_count = (uint16_t)(rec->norder - first);
	}
out:
	ps->line_bad = saved;
}

static bool result_fast(struct parser *ps, const struct carc_tag *t);

/* v equals name, in any case (as carc_slice_ieq compares). */
static bool same_name(const char *v, const char *name)
{
	for (;; v++, name++) {
		if (lower(*v) != lower(*name))
			return false;
		if (!*v)
			return true;
	}
}

/* Resolves the known tags once the header is complete, and fills in the
 * defaults of the rule set. */
static void finish_header(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const char *v;
	bool saved = ps->line_bad;

	rec->rules = carc_ruleset_get(CARC_RULES_BASE);
	if ((v = carc_record_tag(rec, CARC_TAG_RULES))) {
		/* most often the last game's (no two rule sets have the same
		 * name in any case, so it is the one carc_ruleset_find finds) */
		const struct carc_ruleset *rs = ps->r->roles_for;
		if (!rs || !same_name(v, rs->name))
			rs = carc_ruleset_find(v, strlen(v));
		if (rs) {
			rec->rules = rs;
		} else {
			header_error(ps, CARC_E007, CARC_TAG_RULES, "Rules '%s' is not a rule set: base, solo or hunters", v);
			ps->rules_bad = true;
		}
	}
	const struct carc_ruleset *rs = rec->rules;
	set_roles(ps->r, rs);
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
	if (rec->tag_index[CARC_TAG_FOLLOWERS] >= 0)
		number_tag(ps, CARC_TAG_FOLLOWERS, rs->min_followers, rs->max_followers, &rec->followers);
	rec->huts = rs->huts;
	if (rec->tag_index[CARC_TAG_HUTS] >= 0)
		number_tag(ps, CARC_TAG_HUTS, 0, 99, &rec->huts);
	if ((v = carc_record_tag(rec, CARC_TAG_TABLE)))
		parse_table(ps, v);

	/* The tile set: messages about a missing one point at the tag that named it. */
	const char *tsname = rs->tileset;
	struct carc_span at = {0, 0};
	int named_by = rec->tag_index[CARC_TAG_TILESET] >= 0 ? CARC_TAG_TILESET
		       : rec->tag_index[CARC_TAG_RULES] >= 0 ? CARC_TAG_RULES : -1;
	if (named_by >= 0)
		at = rec->tags[rec->tag_index[named_by]].value;
	unsigned before = ps->sink->errors;
	struct carc_reader *r = ps->r;
	if (named_by == CARC_TAG_TILESET) {
		/* a path from a stranger: tileset.c applies the path policy */
		rec->tileset = carc_tileset_for_record(r->cache, r->name, carc_record_tag(rec, CARC_TAG_TILESET),
						       ps->sink, src_of(ps), at.off, at.len ? at.len : 1);
	} else if (tsname == r->tileset_name) {
		/* the rule set's (not a Tileset tag's), as in the last game: the
		 * cache has it (and would find it by its name) */
		rec->tileset = r->tileset;
	} else {
		rec->tileset = carc_tileset_cache_get(r->cache, tsname, ps->sink, named_by >= 0 ? src_of(ps) : NULL,
						      at.off, at.len ? at.len : 1);
		if (rec->tileset) {
			r->tileset_name = tsname;
			r->tileset = rec->tileset;
		}
	}
	if (!rec->tileset) {
		unsigned n = ps->sink->errors - before;
		rec->syntax_errors += n ? n : 1;
		rec->header_errors += n ? n : 1;
	}
	if (rec->tileset) {
		rec->start_tile = rec->tileset->start_tile;
		rec->start_rot = 0;
		if ((v = carc_record_tag(rec, CARC_TAG_START)))
			parse_start(ps, v);
	}
	if (rec->tag_index[CARC_TAG_ENDORDER] >= 0)
		parse_end_order(ps);
	if (rec->tag_index[CARC_TAG_RESULT] >= 0) {
		const struct carc_tag *t = &rec->tags[rec->tag_index[CARC_TAG_RESULT]];
		struct cursor c = {ps, ps->text, t->value.off, t->value.off + t->value.len, t->value.off, true};
		ps->line_bad = false;
		if (!result_fast(ps, t))
			parse_claims(&c, CARC_E012, &rec->result_first, &rec->result_count, "Result");
		if (!ps->line_bad) {
			rec->has_result = true;
			rec->result_span = t->value;
		} else {
			rec->header_errors++;
		}
	}
	ps->line_bad = saved;
}

/* ---- turns ---- */

/* order = "order" spot-ref { spot-ref } ; after the keyword. */
static bool parse_order(struct cursor *c, struct carc_move *m, size_t kw)
{
	struct carc_record *rec = c->ps->rec;
	m->has_order = true;
	m->order_first = (uint32_t)rec->norder;
	for (;;) {
		skip_space(c, true);
		if (at_end(c) || c->buf[c->p] == '=')
			break;
		size_t s, n = word(c, &s);
		struct carc_order_item it;
		if (c->ps->line_bad)
			return false;
		if (!n) {
			report(c->ps, CARC_E028, c->p, 1, "unexpected '%c' in the order", c->buf[c->p]);
			return false;
		}
		if (!parse_spot_ref(c, s, n, CARC_E026, "order", &it))
			return false;
		GROW(rec, order, norder, order_cap);
		rec->order[rec->norder++] = it;
	}
	m->order_count = (uint16_t)(rec->norder - m->order_first);
	if (!m->order_count) {
		report(c->ps, CARC_E029, kw, 5, "order needs at least one spot: the features in the order they score");
		return false;
	}
	return true;
}

/* deploy = ROLE SPOT ; the role word is at s. */
static bool parse_deploy(struct cursor *c, struct carc_move *m, size_t s, size_t n)
{
	struct parser *ps = c->ps;
	const struct carc_ruleset *rs = ps->rec->rules;
	int role = -1;
	for (int i = 0; i < rs->nroles && role < 0; i++)
		if (n == ps->r->role_len[i] && ieq(c->buf + s, rs->roles[i].name, n))
			role = i;
	if (role < 0 && !ps->rules_bad) {
		char roles[128] = "";
		for (int i = 0; i < rs->nroles; i++)
			snprintf(roles + strlen(roles), sizeof roles - strlen(roles), "%s%s", i ? ", " : "",
				 rs->roles[i].name);
		if (carc_spot_lookup(c->buf + s, n) >= 0)
			report(ps, CARC_E025, s, n, "'%.*s' is a spot; write the role first, as in %s %.*s", (int)n,
			       c->buf + s, rs->roles[0].name, (int)n, c->buf + s);
		else
			report(ps, CARC_E025, s, n, "'%.*s' is not a role in %s games (%s)", (int)n, c->buf + s, rs->name,
			       roles);
		return false;
	}
	m->role = (int8_t)role;
	m->role_span = span(s, n);
	skip_space(c, true);
	size_t ss, sn = word(c, &ss);
	if (ps->line_bad)
		return false;
	if (!sn) {
		expect_more(c, "a spot after the role (N E S W, NNW NNE ENE ESE SSE SSW WSW WNW, or C)");
		return false;
	}
	int spot = carc_spot_lookup(c->buf + ss, sn);
	if (spot < 0) {
		report(ps, CARC_E026, ss, sn, "'%.*s' is not a spot: an edge N E S W, a half-edge NNW NNE ENE ESE SSE "
		       "SSW WSW WNW, or C", (int)sn, c->buf + ss);
		return false;
	}
	m->spot = (uint8_t)spot;
	m->spot_span = span(ss, sn);
	m->deploy_span = span(s, ss + sn - s);
	return true;
}

/* The word at s is the keyword kw (lower case), in any case. */
static inline bool is_keyword(struct cursor *c, size_t s, size_t n, const char *kw, size_t kwlen)
{
	return n == kwlen && ieq(c->buf + s, kw, n);
}

/* move-line = [ turn-mark ] COLOUR TILE ( placement | "discard" ) [ claim ] */
static void parse_move(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const struct carc_tileset *ts = rec->tileset;
	struct cursor c = {ps, ps->text, ps->line_start, ps->line_end, ps->line_start};
	skip_space(&c, false); /* comments before the turn, on its line */
	GROW(rec, moves, nmoves, moves_cap);
	struct carc_move *m = &rec->moves[rec->nmoves++];
	memset(m, 0, sizeof *m);
	m->turn = -1;
	m->role = -1;
	rec->has_moves = true;
	size_t line_from = c.p;
	size_t s, n;

	/* turn-mark */
	if (c.p < c.end && ((c.buf[c.p] >= '0' && c.buf[c.p] <= '9') || c.buf[c.p] == '+')) {
		n = word(&c, &s);
		if (!n)
			goto bad;
		char last = c.buf[s + n - 1];
		long num = -1;
		bool ok = (last == '.' || last == '+') &&
			  (n == 1 ? last == '+' : parse_int(c.buf + s, n - 1, 1, 99999, &num));
		if (!ok) {
			size_t d = 0;
			while (d < n && c.buf[s + d] >= '0' && c.buf[s + d] <= '9')
				d++;
			if (d && d < n - 1 && (c.buf[s + d] == '.' || c.buf[s + d] == '+'))
				report(ps, CARC_E020, s, n, "'%.*s': put a blank after the turn number %.*s", (int)n, c.buf + s,
				       (int)d + 1, c.buf + s);
			else
				report(ps, CARC_E020, s, n,
				       "'%.*s' is not a turn number; write it as 12. (or 12+ for a bonus turn), from 1 to 99999",
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
		if (c.p < c.end)
			report(ps, CARC_E028, c.p, 1, "unexpected '%c' where the colour should be", c.buf[c.p]);
		else
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
		if (c.p < c.end)
			report(ps, CARC_E028, c.p, 1, "unexpected '%c' where the tile should be", c.buf[c.p]);
		else
			expect_more(&c, "the tile drawn");
		goto bad;
	}
	m->tile_span = span(s, n);
	if (ts && !ps->rules_bad) {
		unsigned char l = (unsigned char)c.buf[s];
		int t = n == 1 && l < 128 && ts->by_letter[l] ? ts->by_letter[l] - 1 : carc_tileset_find(ts, c.buf + s, n);
		if (t < 0) {
			report(ps, CARC_E022, s, n, "'%.*s' is not a tile of tile set %s (carc tiles lists them)", (int)n,
			       c.buf + s, ts->name);
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
		if (c.p < c.end)
			report(ps, CARC_E028, c.p, 1, "unexpected '%c' where the position should be", c.buf[c.p]);
		else
			expect_more(&c, "a position x,y and a rotation, or discard");
		goto bad;
	}
	if (is_keyword(&c, s, n, "discard", 7)) {
		m->discard = true;
		m->coord_span = span(s, n);
	} else {
		size_t cend = s + n;
		if (!parse_coord(&c, s, n, &m->x, &m->y, &cend)) {
			if (!ps->line_bad)
				report(ps, CARC_E023, s, cend - s,
				       "'%.*s' is not a position: write x,y with whole numbers from %d to %d, no blanks",
				       (int)(cend - s), c.buf + s, -MAX_COORD, MAX_COORD);
			goto bad;
		}
		m->coord_span = span(s, cend - s);
		/* rotation */
		skip_space(&c, true);
		n = word(&c, &s);
		if (ps->line_bad)
			goto bad;
		if (!n) {
			if (c.p < c.end)
				report(ps, CARC_E028, c.p, 1, "unexpected '%c' where the rotation should be", c.buf[c.p]);
			else
				expect_more(&c, "a rotation (0, 90, 180 or 270)");
			goto bad;
		}
		const char *w = c.buf + s;
		int rot = n == 1 && w[0] == '0' ? 0
			  : n == 2 && !memcmp(w, "90", 2) ? 1
			  : n == 3 && !memcmp(w, "180", 3) ? 2
			  : n == 3 && !memcmp(w, "270", 3) ? 3 : -1;
		if (rot < 0) {
			report(ps, CARC_E024, s, n, "'%.*s' is not a rotation: 0, 90, 180 or 270 degrees clockwise", (int)n, w);
			goto bad;
		}
		m->rot = (uint8_t)rot;
		m->rot_span = span(s, n);
		/* deploy, order */
		skip_space(&c, true);
		if (!at_end(&c) && c.buf[c.p] != '=') {
			n = word(&c, &s);
			if (ps->line_bad)
				goto bad;
			if (!n) {
				report(ps, CARC_E028, c.p, 1, "unexpected '%c' after the rotation", c.buf[c.p]);
				goto bad;
			}
			if (!is_keyword(&c, s, n, "order", 5)) {
				if (n == 1 && c.buf[s] == '-')
					m->deploy_span = span(s, 1);
				else if (!parse_deploy(&c, m, s, n))
					goto bad;
				skip_space(&c, true);
				if (!at_end(&c) && c.buf[c.p] != '=') {
					n = word(&c, &s);
					if (ps->line_bad)
						goto bad;
					if (!n || !is_keyword(&c, s, n, "order", 5)) {
						report(ps, CARC_E028, n ? s : c.p, n, "unexpected '%.*s' after the deployment",
						       (int)(n ? n : 1), c.buf + (n ? s : c.p));
						goto bad;
					}
				}
			}
			if (n && is_keyword(&c, s, n, "order", 5)) {
				if (rec->rules->id != CARC_RULES_SOLO && !ps->rules_bad) {
					report(ps, CARC_E028, s, n, "'order' is only written in solo games");
					goto bad;
				}
				if (!parse_order(&c, m, s))
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
			report(ps, CARC_E028, n ? s : c.p, n, "unexpected '%.*s'; a turn line ends with an optional claim "
			       "= colour points, ...", (int)(n ? n : 1), c.buf + (n ? s : c.p));
			goto bad;
		}
		size_t cs = c.p++;
		if (!parse_claims(&c, CARC_E027, &m->claim_first, &m->claim_count, "claim"))
			goto bad;
		m->has_claim = true;
		m->claim_span = span(cs, c.last - cs);
	}
	m->line = span(line_from, c.last - line_from);
	return;
bad:
	m->bad = true;
	{
		size_t e = c.end;
		while (e > line_from && is_blank(c.buf[e - 1]))
			e--;
		m->line = span(line_from, e - line_from);
	}
}

/* ---- turns: the fast path ---- */

bool carc_cgn_fast_turns = true;

/* The turn lines that carc gen and carc fmt write, and most people do:
 *   [N.] colour TILE x,y ROT [role SPOT | -] [= colour points, ...]
 * words apart by runs of spaces, colours, roles and spots in their usual
 * case, a one-letter tile, no comments, are read by the fast path below.
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

static OUT_OF_LINE size_t parse_claims_fast(const struct parser *ps, const unsigned char *b, size_t i, size_t limit,
					    size_t from, size_t last, struct carc_move *m);

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
 * of 0 and of 100 (three digits) match nothing. */
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
#define TURN_MARKS 101
static const struct turn_mark turn_marks[TURN_MARKS] = {
	{1, 0, 0, 0},
	TURN_MARK_1(1), TURN_MARK_1(2), TURN_MARK_1(3), TURN_MARK_1(4), TURN_MARK_1(5),
	TURN_MARK_1(6), TURN_MARK_1(7), TURN_MARK_1(8), TURN_MARK_1(9),
	TURN_MARKS_10(1), TURN_MARKS_10(2), TURN_MARKS_10(3), TURN_MARKS_10(4), TURN_MARKS_10(5),
	TURN_MARKS_10(6), TURN_MARKS_10(7), TURN_MARKS_10(8), TURN_MARKS_10(9),
	{1, 0, 0, 0},
};
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

/* Reads the turn line whose first word is at b[i] (b: the game's text,
 * tiles: the tile set's by_letter), when it is a plain one that ends by
 * offset limit, into m, and its claims into the record (counted). Returns
 * the offset of the line's newline, and the caller counts the move; 0 when
 * the line is not plain, and then nothing is counted. Every field of m is
 * set (those of its claims twice, when it has some). Windowed, the words
 * after the first are the set bits of starts (offsets from b[base]; the
 * last one, at b[mark], is the line's end, its newline at b[nl] or a CR
 * before it); otherwise each is found past the spaces after the one
 * before. expect: the turn_marks index of the mark expected. */
static FAST_PATH size_t turn_words(const struct parser *ps, const uint8_t *tiles, const unsigned char *b, size_t i,
				   size_t limit, struct carc_move *m, size_t expect, bool windowed, uint64_t starts,
				   size_t base, size_t mark, size_t nl)
{
	const struct carc_reader *r = ps->r;
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
		if (v < 1 || memcmp(b + i + n, ". ", 2))
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
	 * tiles[] has an entry for each of them) */
	if ((!windowed && b[i] >= 128) || !tiles[b[i]] || b[i + 1] != ' ')
		return 0;
	m->tile = (uint16_t)(tiles[b[i]] - 1);
	m->tile_span = span(i, 1);
	i = NEXT_WORD(i + 2);
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
	m->role = -1;
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
		if (!starts_with(word_at(b + i), role) || b[i + role->len] != ' ')
			return 0; /* not a role, or "order" (solo) */
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
	/* the line's end, or a claim: "=" colour points { "," colour points } */
	if (b[i] != '=') {
		if (windowed ? i != mark : !at_line_end(b, &i) || i > limit)
			return 0;
		m->line = span(from, last - from);
		return windowed ? nl : i;
	}
	/* (windowed, they end at the newline when they are plain: the next
	 * line's start need not wait for them to be read) */
	size_t end = parse_claims_fast(ps, b, i, limit, from, last, m);
	return windowed ? (end ? nl : 0) : end;
}

#undef NEXT_WORD

/* parse_move_fast: the line whose first word is at b[i], word after word. */
static FAST_PATH size_t parse_move_fast(const struct parser *ps, const uint8_t *tiles, const unsigned char *b,
					size_t i, size_t limit, struct carc_move *m)
{
	return turn_words(ps, tiles, b, i, limit, m, 0, false, 0, 0, 0, 0);
}

/* One plain claim of claims_fast, from b[i + 1] on (b[i] is the "=", the
 * "," or the quote before it): reads it into the record's claims at *at,
 * which it moves on, and its colour into *seen. Returns the offset past it
 * and the spaces after it, with its end in *last; 0 when it is not plain. */
static FAST_PATH size_t claim_fast(struct carc_record *rec, const unsigned char *b, size_t i, unsigned char close,
				   size_t *at, unsigned *seen, size_t *last)
{
	size_t n, s;
	uint32_t v;
	int k;
	i = skip_spaces(b, i + 1); /* past the "=" or "," */
	s = i;
	if (!fast_colour(b, i, &n, &k) || (*seen & (1u << k)))
		return 0;
	*seen |= 1u << k;
	i = skip_spaces(b, i + n + 1);
	size_t ns = i;
	if (!(n = fast_digits(b, i, 5, &v)) || (b[i + n] > ' ' && b[i + n] != ',' && b[i + n] != close))
		return 0;
	i += n;
	if (*at == rec->claims_cap) {
		rec->claims_cap = rec->claims_cap ? 2 * rec->claims_cap : 16;
		rec->claims = xrealloc(rec->claims, rec->claims_cap * sizeof *rec->claims);
	}
	rec->claims[(*at)++] = (struct carc_claim){(uint8_t)k, (int32_t)v, span(s, i - s), span(ns, n)};
	*last = i;
	return skip_spaces(b, i);
}

/* Plain claims, "colour points" { "," "colour points" } with spaces for
 * blanks and colours in lower case, from b[i + 1] on (b[i] is the "=" or
 * the quote before them), each ended by a blank, a ',' or the byte close:
 * reads them into the record's claims after its nclaims, without counting
 * them. Returns the offset past them and the spaces after them, with the
 * end of the last one in *last and the index past it in *past; 0 when they
 * are not plain. */
static FAST_PATH size_t claims_fast(struct carc_record *rec, const unsigned char *b, size_t i, unsigned char close,
				    size_t *past, size_t *last)
{
	size_t at = rec->nclaims;
	unsigned seen = 0;
	if (!(i = claim_fast(rec, b, i, close, &at, &seen, last)))
		return 0;
	/* Whether a second claim follows is tested apart from whether more do:
	 * one claim or two (or as many as the players) is the common case, and
	 * in one branch that ends a loop after one pass or two the predictor
	 * would miss one of them. */
	if (b[i] == ',') {
		do {
			if (!(i = claim_fast(rec, b, i, close, &at, &seen, last)))
				return 0;
		} while (b[i] == ',');
	}
	*past = at;
	return i;
}

/* Whether the words of a and b agree in their first len bytes (8 at a
 * time: the reader keeps bytes after the text, see end_text). */
static FAST_PATH bool same_bytes(const unsigned char *a, const unsigned char *b, size_t len)
{
	uint64_t diff = 0;
	size_t k = 0;
	for (; k + 8 <= len; k += 8)
		diff |= word_at(a + k) ^ word_at(b + k);
	if (k < len)
		diff |= (word_at(a + k) ^ word_at(b + k)) & LOW_BYTES(len - k);
	return diff == 0;
}

/* Claims written as on the last turn line whose claims the fast path read
 * (the reader's claims_at, claims_len: the text from its "=" to the end
 * of its last claim), byte for byte, at b[i]: the usual case where scores
 * change on few turns. They mean what those meant, at other offsets: the
 * same claims are copied after the record's nclaims (not counted), their
 * spans moved by the distance between the lines. Returns the offset past
 * them and the spaces after them; 0 when the text differs. (Whether the
 * line ends there is the caller's test: a digit or "," more fails it.) */
static FAST_PATH size_t same_claims(const struct carc_reader *r, struct carc_record *rec, const unsigned char *b,
				    size_t i)
{
	size_t len = r->claims_len, n = r->claims_count, e = i + len;
	if (!same_bytes(b + i, b + r->claims_at, len))
		return 0;
	if (rec->nclaims + n > rec->claims_cap) {
		while (rec->nclaims + n > rec->claims_cap)
			rec->claims_cap = rec->claims_cap ? 2 * rec->claims_cap : 16;
		rec->claims = xrealloc(rec->claims, rec->claims_cap * sizeof *rec->claims);
	}
	const struct carc_claim *from = rec->claims + r->claims_first;
	struct carc_claim *to = rec->claims + rec->nclaims;
	uint32_t d = (uint32_t)(i - r->claims_at);
	for (size_t k = 0; k < n; k++) {
		to[k] = from[k];
		to[k].span.off += d;
		to[k].points_span.off += d;
	}
	return skip_spaces(b, e);
}

/* The claims of the turn line that starts at b[from] and whose words up
 * to the "=" at b[i] turn_words has read into m (the last one ending
 * at b[last]): reads them, and finishes m. Returns the offset of the line's
 * newline; 0 when the claims are not plain. Out of line: about one line
 * in ten has claims, and their loop, inlined in the loop over the lines,
 * cost every line registers (spills, reloads). */
static OUT_OF_LINE size_t parse_claims_fast(const struct parser *ps, const unsigned char *b, size_t i, size_t limit,
					    size_t from, size_t last, struct carc_move *m)
{
	struct carc_record *rec = ps->rec;
	struct carc_reader *r = ps->r;
	size_t cs = i, past, e;
	if (r->claims_len && (e = same_claims(r, rec, b, i)) && at_line_end(b, &e) && e <= limit) {
		last = i + r->claims_len;
		i = e;
		past = rec->nclaims + r->claims_count;
	} else {
		if (!(i = claims_fast(rec, b, i, ',', &past, &last)) || !at_line_end(b, &i) || i > limit)
			return 0;
		r->claims_len = (uint32_t)(last - cs);
		r->claims_count = (uint32_t)(past - rec->nclaims);
	}
	r->claims_at = (uint32_t)cs;
	r->claims_first = (uint32_t)rec->nclaims;
	m->has_claim = true;
	m->claim_first = (uint32_t)rec->nclaims;
	m->claim_count = (uint16_t)(past - rec->nclaims);
	m->claim_span = span(cs, last - cs);
	m->line = span(from, last - from);
	rec->nclaims = past;
	return i;
}

/* The value of the Result tag t, read as parse_claims reads it when it is
 * plain (as claims_fast takes them, up to the closing quote): true, with
 * its claims in the record and counted; false for the general parser. */
static bool result_fast(struct parser *ps, const struct carc_tag *t)
{
	struct carc_record *rec = ps->rec;
	size_t past = 0, last = 0, end = t->value.off + t->value.len; /* its closing quote */
	if (!carc_cgn_fast_turns || claims_fast(rec, (const unsigned char *)ps->text, t->value.off - 1, '"', &past,
						&last) != end)
		return false;
	rec->result_first = (uint32_t)rec->nclaims;
	rec->result_count = (uint16_t)(past - rec->nclaims);
	rec->nclaims = past;
	return true;
}

/* Among the tags: reads the tag line at r->pos with a path of its own when
 * it is a plain one, [Name "value"] with spaces only between its parts, a
 * value of printable ASCII but '"' and '\\', nothing after the ']' but
 * spaces and the newline (or CR LF), and a name not given before in this
 * game: what parse_tag makes of it, without finding the line's end first,
 * tokenising it and sorting its blanks and comments. Such a line is one
 * logical line (a '{' in the value starts no comment: see scan_line_slow),
 * and it has no byte that lone_cr or line_problems would report. Returns
 * false, having changed nothing the general reader sees, for any other
 * line: the general reader takes it, and reports what is wrong with it. */
static bool read_plain_tag(struct parser *ps)
{
	struct carc_reader *r = ps->r;
	struct carc_record *rec = ps->rec;
	ps->text = r->buf + r->game;
	const unsigned char *s = (const unsigned char *)ps->text;
	size_t start = r->pos - r->game; /* its '[' */
	size_t ns = start + 1, p = skip_name(s, ns), nlen = p - ns;
	if (nlen == 0 || !((s[ns] | 0x20) >= 'a' && (s[ns] | 0x20) <= 'z'))
		return false;
	while (s[p] == ' ')
		p++;
	if (s[p] != '"')
		return false;
	size_t vs = ++p;
	p = skip_plain_value(s, p); /* (stops at the NUL after the input) */
	if (s[p] != '"')
		return false;
	size_t ve = p++;
	while (s[p] == ' ')
		p++;
	if (s[p] != ']')
		return false;
	size_t te = ++p;
	while (s[p] == ' ')
		p++;
	p += s[p] == '\r';
	if (s[p] != '\n' || p - start > MAX_LINE)
		return false;
	int id = known_tag(r, s + ns, nlen);
	uint32_t *slot = NULL;
	int before = id != CARC_TAG_UNKNOWN ? rec->tag_index[id] : unknown_tag(ps, ps->text + ns, nlen, &slot);
	if (before >= 0 || ps->tag_lines >= MAX_TAGS)
		return false;
	ps->tag_lines++;
	if (slot) {
		*slot = (uint32_t)rec->ntags + 1;
		r->names_used++;
	}
	/* the value and its NUL into the text arena, 16 bytes at a time (a
	 * few in all, not worth a call of memcpy): the line, and the reader's
	 * buffer, go on past the value (see end_text), and the arena is given
	 * room for the last 16 */
	size_t text_at = rec->text.len, n = ve - vs;
	carc_buf_reserve(&rec->text, n + 16);
	char *d = rec->text.data + text_at;
	for (size_t k = 0; k < n; k += 16)
		memcpy(d + k, s + vs + k, 16);
	d[n] = d[n + 1] = '\0'; /* (and the arena's own NUL after it) */
	rec->text.len += n + 1;
	GROW(rec, tags, ntags, tags_cap);
	struct carc_tag *t = &rec->tags[rec->ntags];
	t->span = span(start, te - start);
	t->name = span(ns, nlen);
	t->value = span(vs, ve - vs);
	t->text = (uint32_t)text_at;
	t->text_len = (uint32_t)n;
	t->line = r->line;
	if (id != CARC_TAG_UNKNOWN)
		rec->tag_index[id] = (int)rec->ntags;
	rec->ntags++;
	ps->line_bad = false;
	r->pos = r->game + p + 1;
	r->line++;
	return true;
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
static FAST_PATH size_t parse_move_window(const struct parser *ps, const uint8_t *tiles, const unsigned char *b,
					  size_t start, struct carc_move *m, size_t expect)
{
	const unsigned char *w = b + start;
	struct window win = window_at(w);
	size_t end = (size_t)carc_lowest_bit(~win.text | UINT64_C(1) << 63);
	if (end > 62) /* longer lines: the general fast path */
		return parse_move_fast(ps, tiles, b, skip_spaces(b, start), start + MAX_LINE, m);
	size_t nl = end + (w[end] == '\r');
	if (w[nl] != '\n')
		return 0;
	/* (the starts of words past the end, in the next line, may stay in
	 * the set: the end is taken before them, and nothing after it) */
	uint64_t starts = (win.word & ~(win.word << 1)) | UINT64_C(1) << end;
	size_t f = next_word(&starts);
	return turn_words(ps, tiles, b, start + f, start + MAX_LINE, m, expect, true, starts, start, start + end,
			  start + nl);
}

/* Reads the turn line at ps->line_start (found by the general reader) with
 * the fast path, when it is a plain one. */
static bool parse_turn_line_fast(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	GROW(rec, moves, nmoves, moves_cap);
	struct carc_move *m = &rec->moves[rec->nmoves];
	if (parse_move_fast(ps, rec->tileset->by_letter, (const unsigned char *)ps->text, ps->line_start, ps->line_end,
			    m) != ps->line_end)
		return false;
	rec->nmoves++;
	rec->has_moves = true;
	return true;
}

/* Whether the fast path may read this game's turns: its tile set and roles
 * are known. */
static bool fast_turns(const struct parser *ps)
{
	return carc_cgn_fast_turns && ps->rec->tileset && !ps->rules_bad;
}

/* Room for more moves in read_plain_turns, whose moves fill rec->moves up
 * to rec->nmoves, its end: the array doubled; or once it holds more than
 * MAX_TURNS, the same room again from the move after the first one past the
 * cap (which is kept: the general reader takes over at its line), with the
 * lines so read counted in ps->over_lines. So the loop needs no test of its
 * own for the cap. */
static OUT_OF_LINE void more_moves(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	if (rec->nmoves > MAX_TURNS) {
		ps->over_lines += rec->nmoves - (MAX_TURNS + 1);
		rec->nmoves = MAX_TURNS + 1;
		return;
	}
	GROW(rec, moves, nmoves, moves_cap);
}

/* read_plain_turns has read past MAX_TURNS turns (the moves up to m = moves
 * + n, and ps->over_lines more lines), the last line ending before start:
 * the general reader is to report the first turn past the cap, at its line;
 * once it has, the turns after it are skipped. Returns whether a turn was
 * kept. */
static SLOW_PATH bool turns_over_cap(struct parser *ps, size_t first, size_t n, size_t start)
{
	struct carc_reader *r = ps->r;
	struct carc_record *rec = ps->rec;
	size_t lines = n - first + ps->over_lines;
	ps->over_lines = 0;
	rec->has_moves = true;
	if (ps->turns_capped) {
		r->pos = r->game + start;
		r->line += (unsigned)lines;
		return false;
	}
	rec->nmoves = MAX_TURNS;
	r->pos = r->game + rec->moves[MAX_TURNS].line.off;
	r->line += (unsigned)(MAX_TURNS - first);
	return MAX_TURNS > first;
}

/* Among the turns: reads the plain turn lines from r->pos on with the fast
 * path, straight from the buffer, without looking for their ends first,
 * up to the first line that is not one (or is longer than MAX_LINE, or is
 * not complete in the buffer: the general reader takes those). Returns
 * whether it read any. */
static FAST_PATH bool read_plain_turns(struct parser *ps)
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
			more_moves(ps);
			m = rec->moves + rec->nmoves;
			room = rec->moves + rec->moves_cap;
		}
		size_t end = parse_move_window(ps, tiles, b, start, m, expect);
		if (!end)
			break;
		start = end + 1; /* past the newline */
		/* (the fast path reads numbers of two digits at most: m->turn
		 * is -1, or 1 to 99, and this is next_mark(m->turn)) */
		expect = (size_t)(m->turn + 1);
	}
	size_t n = (size_t)(m - rec->moves);
	if (n > MAX_TURNS)
		return turns_over_cap(ps, first, n, start);
	if (n == first)
		return false;
	rec->nmoves = n;
	r->pos = r->game + start;
	r->line += (unsigned)(n - first);
	rec->has_moves = true;
	return true;
}

/* A line that cannot be parsed (cut, or after binary data) still counts as
 * a turn, so that the referee stops there rather than misnumber the rest. */
static void add_bad_move(struct parser *ps, size_t from, size_t to)
{
	struct carc_record *rec = ps->rec;
	GROW(rec, moves, nmoves, moves_cap);
	struct carc_move *m = &rec->moves[rec->nmoves++];
	memset(m, 0, sizeof *m);
	m->turn = -1;
	m->role = -1;
	m->bad = true;
	m->line = span(from, to - from);
	rec->has_moves = true;
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
	rec->result_span = (struct carc_span){0, 0};
	rec->has_end_order = false;
	rec->end_order_first = rec->end_order_count = 0;
	rec->syntax_errors = rec->header_errors = 0;
	rec->has_moves = false;
}

/* Reports what scanning found wrong with the line. Returns false when the
 * line was cut and is not to be parsed. */
static bool line_problems(struct parser *ps, const struct line *li)
{
	struct carc_reader *r = ps->r;
	if (li->flags & LINE_NUL) { /* in a line too long to be read whole */
		size_t kept = li->end - li->start;
		if (r->cut_nul < kept)
			report(ps, CARC_E002, li->start - r->game + r->cut_nul, 1,
			       "NUL byte: this is not a text file; the rest of the input is skipped");
		else
			report(ps, CARC_E002, li->start - r->game, 1,
			       "NUL byte at byte %zu of this line: this is not a text file; the rest of the input is skipped",
			       r->cut_nul + 1);
		give_up_input(ps);
		return false;
	}
	if (li->flags & LINE_OPEN_BRACE)
		report(ps, CARC_E004, li->brace - r->game, 1, "this { comment is not closed %s; it is taken to end with its line",
		       li->flags & LINE_BRACE_LIMIT ? "within 65536 bytes" : "before the end of the input");
	if (!(li->flags & LINE_CUT))
		return true;
	report(ps, CARC_E003, li->start - r->game, 1, "line longer than %d bytes; it is skipped", MAX_LINE);
	return false;
}

/* A CR is a blank only before its newline (CR LF): anywhere else in the
 * line li it is a control character, E002 (the first one), and the line is
 * read as if it were a blank. (Plain turn lines never get here with one.) */
static SLOW_PATH void lone_cr(struct parser *ps, const struct line *li)
{
	const char *b = ps->r->buf;
	for (const char *cr = memchr(b + li->start, '\r', li->end - li->start); cr;
	     cr = memchr(cr + 1, '\r', (size_t)(b + li->end - cr - 1))) {
		if (cr[1] != '\n') {
			struct cursor c = {ps, ps->text, ps->line_start, ps->line_end, ps->line_start};
			bad_byte(&c, (size_t)(cr - ps->text));
			return;
		}
	}
}

/* Whether the tag line at off may be read: at most MAX_TAGS of a game are.
 * The first one past them is reported, and the game cannot be refereed. */
static bool tag_line_allowed(struct parser *ps, size_t off)
{
	if (++ps->tag_lines <= MAX_TAGS)
		return true;
	if (ps->tag_lines == MAX_TAGS + 1) {
		report(ps, CARC_E033, off, 1, "more than %d tag lines in one game; the rest of its tags are skipped",
		       MAX_TAGS);
		ps->rec->header_errors++;
	}
	ps->tag_lines = MAX_TAGS + 2; /* (no wrap, however many) */
	return false;
}

/* Whether the turn line [from, to) may be read: at most MAX_TURNS of a game
 * are. The first one past them is reported and kept as a line that cannot
 * be replayed, so that the replay stops there; the rest are skipped. */
static bool turn_allowed(struct parser *ps, size_t from, size_t to)
{
	if (ps->rec->nmoves < MAX_TURNS)
		return true;
	if (!ps->turns_capped) {
		ps->turns_capped = true;
		report(ps, CARC_E032, from, to - from, "more than %d turns in one game; the rest of its turns are skipped",
		       MAX_TURNS);
		add_bad_move(ps, from, to);
	}
	return false;
}

/* The game, up to end, has more than MAX_GAME bytes: a game that never ends
 * (an endless stream, a file of some other kind). Reported at the line in
 * which it passes the cap; the rest of the input is skipped, since no next
 * game can be told from it. */
static SLOW_PATH void game_too_long(struct parser *ps, size_t end)
{
	struct carc_reader *r = ps->r;
	size_t off = MAX_GAME > r->dropped ? MAX_GAME - r->dropped : 0;
	const char *text = r->buf + r->game;
	if (r->full_at != SIZE_MAX) /* it passed the cap in a line cut */
		off = r->full_at;
	if (off > end - r->game)
		off = end - r->game;
	while (off > 0 && text[off - 1] != '\n')
		off--;
	report(ps, CARC_E031, off, 1,
	       "game %u is longer than %d bytes, the most a game may have; the rest of the input is skipped",
	       r->games + 1, MAX_GAME);
	give_up_input(ps);
	r->peeked = false;
}

bool carc_reader_next(struct carc_reader *r, struct carc_record *rec, struct carc_diag_sink *sink)
{
	reset_record(rec);
	if (r->names_used) { /* the last game's unknown tags */
		memset(r->names, 0, r->names_cap * sizeof *r->names);
		r->names_used = 0;
	}
	if (!r->started) {
		r->started = true;
		/* a UTF-8 byte order mark is not part of the text */
		if ((r->len >= 3 || fill(r)) && r->len >= 3 && !memcmp(r->buf, "\xEF\xBB\xBF", 3))
			r->pos = r->game = 3;
	}
	if (r->given_up)
		return false;
	/* The game starts where the previous one ended, or (when that one ended
	 * at this game's first tag) where it said, with the comment lines carried
	 * over from its tail. */
	if (!r->peeked) {
		r->game = r->pos;
		r->game_line = r->line;
		r->game_off = r->origin + r->pos;
		r->ncarry = 0;
	}
	r->claims_len = 0;
	r->dropped = r->peeked ? r->peek_dropped : 0;
	r->full_at = SIZE_MAX;
	r->rec_off = r->game_off;
	rec->src = (struct carc_src){r->name, r->buf + r->game, r->len - r->game, r->game_line};
	for (size_t i = 0; i < r->ncarry; i++) {
		GROW(rec, comments, ncomments, comments_cap);
		rec->comments[rec->ncomments++] = r->carry[i];
	}
	r->ncarry = 0;

	struct parser ps = {.r = r, .rec = rec, .sink = sink};
	bool any = false, header_done = false;
	/* comment lines after the last turn: where they start */
	bool tail = false;
	size_t tail_rel = 0, tail_comments = 0; /* tail_rel: from the game's start */
	unsigned tail_line = 0;

	for (;;) {
		struct line li;
		if (!r->peeked && !r->given_up) {
			if (header_done && read_plain_turns(&ps))
				tail = false;
			/* Lines that the first byte tells, without scanning them:
			 * an empty line (nothing to do but count it), the next
			 * game's first tag (unless comment lines before it are
			 * to be carried over to it: see below), a plain tag.
			 * (The byte after the input is a NUL.) */
			char c0 = r->buf[r->pos];
			if (c0 == '\n') {
				r->pos++;
				r->line++;
				ps.line_bad = false;
				continue;
			}
			if (c0 == '[' && carc_cgn_fast_turns) {
				if (ps.in_moves && !tail)
					break;
				if (!ps.in_moves && read_plain_tag(&ps)) {
					any = true;
					continue;
				}
			}
		}
		if (r->peeked) {
			li = r->peek;
			r->peeked = false;
		} else if (r->given_up || !scan_line(r, &li)) {
			break;
		}
		ps.text = r->buf + r->game;
		ps.line_bad = false;
		/* What kind of line: the first character after blanks and { comments } */
		size_t p = li.start;
		while (p < li.end && is_blank(r->buf[p]))
			p++;
		size_t q = p;
		while (q < li.end && r->buf[q] == '{') {
			const char *close = memchr(r->buf + q, '}', li.end - q);
			q = close ? (size_t)(close - r->buf) + 1 : li.end;
			while (q < li.end && is_blank(r->buf[q]))
				q++;
		}
		char first = q < li.end ? r->buf[q] : '\n';
		bool comments_only = first == ';' || (first == '\n' && q > p);
		if (first == '[' && ps.in_moves) {
			/* the next game's first tag */
			r->peek = li;
			r->peeked = true;
			r->peek_dropped = li.flags & LINE_CUT ? r->cut_dropped : 0;
			break;
		}
		if (!line_problems(&ps, &li)) {
			/* a cut line: a tag that is lost, or a turn that cannot be refereed */
			if (first == '[') {
				rec->header_errors++;
			} else if (!comments_only && first != '\n') {
				if (!header_done) {
					finish_header(&ps);
					header_done = true;
				}
				ps.in_moves = true;
				tail = false;
				if (turn_allowed(&ps, p - r->game, li.end - r->game))
					add_bad_move(&ps, p - r->game, li.end - r->game);
			} else if (comments_only) {
				tail = false; /* a faulty line stays with the game that reported it */
			}
			any = true;
			consume_line(r, &li);
			continue;
		}
		ps.line_bad = false; /* an open { does not spoil the turn before it */
		ps.line_start = p - r->game;
		ps.line_end = li.end - r->game;
		if (li.flags & (LINE_CR | LINE_SLOW)) /* (most lines have no CR) */
			lone_cr(&ps, &li);
		if (first == '[') {
			any = true;
			if (tag_line_allowed(&ps, ps.line_start)) {
				parse_tag(&ps);
				if (ps.line_bad)
					rec->header_errors++; /* what the tag said is not known */
			}
		} else if (comments_only) {
			struct cursor c = {&ps, ps.text, ps.line_start, ps.line_end, ps.line_start};
			if (ps.in_moves && !tail) {
				tail = true;
				tail_rel = li.start - r->game;
				tail_line = r->line;
				tail_comments = rec->ncomments;
			}
			skip_space(&c, false);
			if (ps.line_bad || (li.flags & LINE_OPEN_BRACE))
				tail = false; /* a faulty line stays with the game that reported it */
		} else if (first != '\n') {
			tail = false;
			any = true;
			if (!header_done) {
				finish_header(&ps);
				header_done = true;
				ps.in_moves = true;
				/* The first turn: read_plain_turns reads it with the
				 * rest when it is plain (else it comes back here). */
				if (!(li.flags & LINE_SLOW) && !ps.line_bad && fast_turns(&ps))
					continue;
			}
			ps.in_moves = true;
			if (!turn_allowed(&ps, ps.line_start, ps.line_end))
				; /* past the cap: skipped */
			else if (!fast_turns(&ps) || ps.line_bad || !parse_turn_line_fast(&ps))
				parse_move(&ps);
		}
		consume_line(r, &li);
	}
	if (tail && r->peeked) {
		/* The comment lines before the next game's tags are its own. */
		size_t shift = tail_rel;
		r->ncarry = 0;
		for (size_t i = tail_comments; i < rec->ncomments; i++) {
			if (r->ncarry == r->carry_cap) {
				r->carry_cap = r->carry_cap ? 2 * r->carry_cap : 8;
				r->carry = xrealloc(r->carry, r->carry_cap * sizeof *r->carry);
			}
			struct carc_comment cm = rec->comments[i];
			cm.span.off -= (uint32_t)shift;
			cm.place = CARC_BEFORE_TAG;
			cm.index = 0;
			r->carry[r->ncarry++] = cm;
		}
		rec->ncomments = tail_comments;
	}
	size_t end = r->peeked ? (tail ? r->game + tail_rel : r->peek.start) : r->pos;
	if (end - r->game + r->dropped > MAX_GAME) {
		game_too_long(&ps, end);
		any = true;
	}
	if (!any && !rec->syntax_errors) {
		/* no game: rec keeps the comments of the rest of the text, if any
		 * (a file of comments only), for fmt */
		r->ncarry = 0;
		return false;
	}
	r->games++;
	rec->index = r->games;
	ps.text = r->buf + r->game;
	if (!header_done)
		finish_header(&ps);
	if (!rec->seats_given && !rec->header_errors)
		infer_seats(&ps);
	src_of(&ps);
	rec->src.len = end - r->game;
	if (r->peeked) {
		/* the next game starts at its carried comments, or its first tag */
		r->game = end;
		r->game_line = tail ? tail_line : r->line;
		/* (bytes the next game's first line dropped, if it was cut, are after end) */
		bool cut = r->cut_lost && r->origin + r->peek.start == r->cut_abs + r->cut_lost;
		r->game_off = r->origin + end - (cut ? r->cut_lost : 0);
	}
	return true;
}

bool carc_parse_string(const char *text, size_t len, const char *name, struct carc_tileset_cache *cache,
		       struct carc_record *rec, struct carc_diag_sink *sink)
{
	struct carc_reader *r = carc_reader_new(NULL, name, cache);
	free(r->buf);
	r->buf = xmalloc(len + 1 + SLACK);
	memcpy(r->buf, text, len);
	r->len = len;
	r->cap = len + 1 + SLACK;
	end_text(r);
	r->eof = true;
	bool got = carc_reader_next(r, rec, sink);
	/* The record points into the reader's buffer: hand it over. */
	free(rec->own_text);
	rec->own_text = r->buf;
	rec->src.text = r->buf + r->game;
	r->buf = NULL;
	carc_reader_free(r);
	return got;
}
