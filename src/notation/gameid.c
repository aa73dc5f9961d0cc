/*
 * gameid.c - a game's id: its canonical content, as words, through a hash.
 *
 * The record is walked in the order carc fmt writes it and each part is
 * put as 64-bit words: a word saying what comes (a tag of a known name, a
 * turn, ...), then its fields packed, or a text as its length and its
 * bytes, little-endian whatever the machine. Every part's length is known
 * before its bytes, so two different games give two different streams of
 * words. The stream goes through two lanes of 64 bits, each a chain of
 * steps that cannot map two states to one (xor or add, multiply by an odd
 * constant, rotate), with different constants and shapes so that one
 * input does not collide in both; a final mix spreads every bit of both.
 * A turn is two words (three or more with a long tile name or far-off
 * coordinates), so the id costs little beside refereeing the turn.
 */
#include "notation/gameid.h"

#include <string.h>

/* Raise when what goes into the id changes: the ids of old runs are then
 * no longer comparable, and the seed says so. */
#define ID_VERSION 1

#define COORD_FIT (1 << 20)

/* A turn's deployment is packed in 8 bits: role + 1 in 4, spot in 4. */
_Static_assert(CARC_MAX_ROLES < 15 && CARC_SPOT_COUNT <= 16, "a deployment fits in a byte");

enum part {
	PART_TAG = 1,    /* a known tag: | id << 8 */
	PART_OTHER_TAG,  /* an unknown (or repeated) tag: its name, its value */
	PART_RESULT,
	PART_MOVES,      /* | count << 8 */
	PART_TURN,
	PART_BAD_TURN,   /* a line with a syntax error: its text */
	PART_ORDER,      /* | count << 8 */
	PART_CLAIMS,     /* | count << 8 */
	PART_TEXT,       /* | length << 8, then the bytes */
};

struct hasher {
	uint64_t a, b;
};

static inline uint64_t rotl(uint64_t x, int k) { return x << k | x >> (64 - k); }

static inline void put(struct hasher *h, uint64_t w)
{
	h->a = rotl((h->a ^ w) * UINT64_C(0x9e3779b97f4a7c15), 31);
	h->b = (rotl(h->b, 27) + w) * UINT64_C(0xc2b2ae3d27d4eb4f);
}

/* A text's bytes as they are (mode 0), in lower case (1), or with every
 * run of blanks as one space and none at either end (2). */
enum { TEXT_RAW, TEXT_LOWER, TEXT_COLLAPSED };

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

static void put_text(struct hasher *h, const char *p, size_t n, int mode)
{
	size_t len = n;
	if (mode == TEXT_COLLAPSED) {
		while (n && blank(p[n - 1]))
			n--;
		while (n && blank(*p))
			p++, n--;
		len = 0;
		for (size_t i = 0; i < n; i++)
			len += !(blank(p[i]) && blank(p[i + 1])); /* (p[n - 1] is not blank) */
	}
	put(h, PART_TEXT | (uint64_t)len << 8);
	uint64_t word = 0;
	unsigned k = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (mode == TEXT_LOWER && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		else if (mode == TEXT_COLLAPSED && blank((char)c)) {
			if (blank(p[i + 1]))
				continue;
			c = ' ';
		}
		word |= (uint64_t)c << (8 * k);
		if (++k == 8) {
			put(h, word);
			word = 0;
			k = 0;
		}
	}
	if (k)
		put(h, word);
}

static void put_span(struct hasher *h, const struct carc_record *rec, struct carc_span s, int mode)
{
	put_text(h, rec->src.text + s.off, s.len, mode);
}

static void put_value(struct hasher *h, const struct carc_record *rec, const struct carc_tag *t, int mode)
{
	put_text(h, carc_tag_text(rec, t), t->text_len, mode);
}

/* Claims (a turn's or the Result's) by colour, whatever order they were
 * written in; two of one colour (an error) keep theirs. */
static void put_claims(struct hasher *h, const struct carc_record *rec, uint32_t first, unsigned count)
{
	put(h, PART_CLAIMS | (uint64_t)count << 8);
	/* most often one claim per colour: each where its colour says, and
	 * taken in colour order by the bits of the colours seen */
	uint8_t at[CARC_COLOURS];
	unsigned seen = 0, k = 0;
	for (; k < count && count <= CARC_COLOURS; k++) {
		unsigned colour = rec->claims[first + k].colour;
		if (colour >= CARC_COLOURS || (seen >> colour & 1))
			break;
		seen |= 1u << colour;
		at[colour] = (uint8_t)k;
	}
	if (k == count) {
		for (; seen; seen &= seen - 1) {
			int colour = carc_lowest_bit(seen);
			put(h, (uint64_t)colour | (uint64_t)(uint32_t)rec->claims[first + at[colour]].points << 32);
		}
		return;
	}
	for (int colour = 0; colour < CARC_COLOURS; colour++) /* (two of one colour: an error) */
		for (unsigned i = 0; i < count; i++) {
			const struct carc_claim *cl = &rec->claims[first + i];
			if (cl->colour == colour)
				put(h, (uint64_t)colour | (uint64_t)(uint32_t)cl->points << 32);
		}
}

/* Seats: each word a colour (whatever its case or spelling, grey or gray)
 * or, when it is none, its text in lower case. */
static void put_seats(struct hasher *h, const char *v, size_t n)
{
	size_t i = 0;
	for (;;) {
		while (i < n && (v[i] == ' ' || v[i] == ',' || v[i] == '\t'))
			i++;
		if (i == n)
			break;
		size_t s = i;
		while (i < n && v[i] != ' ' && v[i] != ',' && v[i] != '\t')
			i++;
		int colour = carc_colour_lookup(v + s, i - s);
		if (colour >= 0)
			put(h, (uint64_t)colour);
		else
			put_text(h, v + s, i - s, TEXT_LOWER);
	}
	put(h, CARC_COLOURS); /* the end of the list */
}

/* A tag's number in the id: the numbers of the first version of the id,
 * when the known tags ended at Result; the tags known since (Expansions,
 * then Board, Match, Format, Time, Termination and Winner) come after them
 * all, in that order, so that no id of a game without them changed. */
static uint64_t tag_number(int id)
{
	enum { LEGACY_KNOWN = CARC_TAG_EXPANSIONS, LEGACY_UNKNOWN = LEGACY_KNOWN + CARC_COLOURS };
	if (id < CARC_TAG_EXPANSIONS)
		return (uint64_t)id;
	if (id < CARC_TAG_KNOWN) /* Expansions and the tournament's tags */
		return LEGACY_UNKNOWN + 1 + (uint64_t)(id - CARC_TAG_EXPANSIONS);
	return (uint64_t)(id - CARC_TAG_KNOWN + LEGACY_KNOWN); /* a colour's, or an unknown tag */
}

static void put_tags(struct hasher *h, const struct carc_record *rec)
{
	for (int id = 0; id < CARC_TAG_UNKNOWN; id++) {
		int i = rec->tag_index[id];
		if (i < 0 || id == CARC_TAG_RESULT)
			continue;
		const struct carc_tag *t = &rec->tags[i];
		put(h, PART_TAG | tag_number(id) << 8);
		if (id == CARC_TAG_SEATS || id == CARC_TAG_WINNER) /* colours, however spelt */
			put_seats(h, carc_tag_text(rec, t), t->text_len);
		else /* (carc fmt writes these two in lower case) */
			put_value(h, rec, t, id == CARC_TAG_RULES || id == CARC_TAG_TERMINATION ? TEXT_LOWER : TEXT_RAW);
	}
	/* unknown tags and repeated known ones, in the order written */
	for (size_t i = 0; i < rec->ntags; i++) {
		bool indexed = false;
		for (int id = 0; id < CARC_TAG_UNKNOWN && !indexed; id++)
			indexed = rec->tag_index[id] == (int)i;
		if (indexed)
			continue;
		const struct carc_tag *t = &rec->tags[i];
		int id = carc_tag_lookup(rec->src.text + t->name.off, t->name.len);
		put(h, PART_OTHER_TAG | tag_number(id) << 8);
		if (id == CARC_TAG_UNKNOWN)
			put_span(h, rec, t->name, TEXT_RAW);
		put_value(h, rec, t, TEXT_RAW);
	}
	int r = rec->tag_index[CARC_TAG_RESULT];
	if (r >= 0) {
		put(h, PART_RESULT | (uint64_t)rec->has_result << 8);
		if (rec->has_result)
			put_claims(h, rec, rec->result_first, rec->result_count);
		else
			put_value(h, rec, &rec->tags[r], TEXT_RAW);
	}
}

/* The number a turn has (as carc fmt writes it when none is written): a
 * discard keeps it for the next line; a bonus turn has its turn's. */
static int32_t turn_number(const struct carc_move *m, int32_t *turn)
{
	int32_t number = m->bonus ? (*turn > 1 ? *turn - 1 : 1) : *turn;
	if (!m->bonus && !m->discard && *turn < INT32_MAX)
		(*turn)++;
	return number;
}

static void put_move(struct hasher *h, const struct carc_record *rec, const struct carc_move *m, int32_t number,
		     int32_t expected)
{
	if (m->bad) {
		put(h, PART_BAD_TURN);
		put_span(h, rec, m->line, TEXT_COLLAPSED);
		return;
	}
	bool deploys = !m->discard & (m->role >= 0); /* (no branch: it is as likely as not) */
	uint64_t deploy = ((uint64_t)(m->role + 1) | (uint64_t)m->spot << 4) & -(uint64_t)deploys;
	if (!m->discard && m->recall >= 0) /* "return ROLE": spot 15, which no deployment has */
		deploy = (uint64_t)(m->recall + 1) | (uint64_t)15 << 4;
	int32_t x = m->discard ? 0 : m->x, y = m->discard ? 0 : m->y;
	const unsigned char *t = (const unsigned char *)rec->src.text + m->tile_span.off;
	/* Most turns, in one word (bit 63 set, bit 62 clear): the number is
	 * the one the turn has, x and y fit in 12 bits, the tile's name is
	 * one byte and nothing is ordered. */
	if (number == expected && !m->has_order && m->tile_span.len == 1 && x >= -2048 && x < 2048 && y >= -2048 &&
	    y < 2048) {
		put(h, (uint64_t)(x + 2048) | (uint64_t)(y + 2048) << 12 | (uint64_t)t[0] << 24 | deploy << 32 |
			       (uint64_t)m->colour << 40 | (uint64_t)(m->discard ? 0 : m->rot) << 43 |
			       (uint64_t)m->discard << 45 | (uint64_t)m->bonus << 46 | (uint64_t)m->has_claim << 47 |
			       UINT64_C(1) << 63);
		if (m->has_claim)
			put_claims(h, rec, m->claim_first, m->claim_count);
		return;
	}
	/* else one word for what the turn is (bit 63 clear) */
	uint64_t flags = (uint64_t)m->discard | (uint64_t)m->bonus << 1 | (uint64_t)m->has_order << 2 |
			 (uint64_t)m->has_claim << 3;
	put(h, PART_TURN | flags << 8 | (uint64_t)m->colour << 12 | (uint64_t)(m->discard ? 0 : m->rot) << 16 |
		       deploy << 18 | (uint64_t)(uint32_t)number << 32);
	/* where and which tile in one word when they fit (bits 63 and 62
	 * set): x and y in 21 bits each, the name in 16, its length in 2;
	 * else each its own word(s) */
	uint32_t n = m->tile_span.len;
	if (n <= 2 && x >= -COORD_FIT && x < COORD_FIT && y >= -COORD_FIT && y < COORD_FIT) {
		uint64_t name = n == 0 ? 0 : n == 1 ? t[0] : (uint64_t)t[0] | (uint64_t)t[1] << 8;
		put(h, (uint64_t)(x + COORD_FIT) | (uint64_t)(y + COORD_FIT) << 21 | name << 42 | (uint64_t)n << 58 |
			       UINT64_C(3) << 62);
	} else {
		put(h, (uint64_t)(uint32_t)x | (uint64_t)(uint32_t)y << 32);
		put_span(h, rec, m->tile_span, TEXT_RAW); /* (its length word has bit 63 clear) */
	}
	if (m->has_order) {
		put(h, PART_ORDER | (uint64_t)m->order_count << 8);
		for (unsigned k = 0; k < m->order_count; k++) {
			const struct carc_order_item *it = &rec->order[m->order_first + k];
			put(h, (uint64_t)it->has_coord | (uint64_t)it->spot << 8);
			if (it->has_coord)
				put(h, (uint64_t)(uint32_t)it->x | (uint64_t)(uint32_t)it->y << 32);
		}
	}
	if (m->has_claim)
		put_claims(h, rec, m->claim_first, m->claim_count);
}

/* The final mix of one lane: every bit of the input moves every bit out. */
static uint64_t fmix(uint64_t x, uint64_t k1, uint64_t k2)
{
	x ^= x >> 33;
	x *= k1;
	x ^= x >> 29;
	x *= k2;
	x ^= x >> 32;
	return x;
}

struct carc_game_id carc_game_id(const struct carc_record *rec)
{
	struct hasher h = {UINT64_C(0x243f6a8885a308d3) ^ ID_VERSION, UINT64_C(0x13198a2e03707344)};
	put_tags(&h, rec);
	put(&h, PART_MOVES | (uint64_t)rec->nmoves << 8);
	int32_t turn = 1;
	for (size_t i = 0; i < rec->nmoves; i++) {
		const struct carc_move *m = &rec->moves[i];
		int32_t expected = turn_number(m, &turn);
		put_move(&h, rec, m, m->turn >= 0 ? m->turn : expected, expected); /* (the one written counts) */
	}
	uint64_t x = fmix(h.a, UINT64_C(0xff51afd7ed558ccd), UINT64_C(0xc4ceb9fe1a85ec53));
	uint64_t y = fmix(h.b, UINT64_C(0xbf58476d1ce4e5b9), UINT64_C(0x94d049bb133111eb));
	struct carc_game_id id;
	id.hi = fmix(x ^ y, UINT64_C(0xff51afd7ed558ccd), UINT64_C(0xc4ceb9fe1a85ec53));
	id.lo = fmix(y + id.hi, UINT64_C(0xbf58476d1ce4e5b9), UINT64_C(0x94d049bb133111eb));
	return id;
}

char *carc_game_id_hex(struct carc_game_id id, char out[CARC_GAME_ID_HEX + 1])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		out[i] = digits[(id.hi >> (60 - 4 * i)) & 15];
		out[16 + i] = digits[(id.lo >> (60 - 4 * i)) & 15];
	}
	out[CARC_GAME_ID_HEX] = '\0';
	return out;
}
