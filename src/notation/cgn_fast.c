/*
 * cgn_fast.c - the fast path for turn lines: plain ones, and their claims
 * (and plain Result tags), read straight from the reader's buffer.
 *
 * What it reads, and how, is described in cgn_fast.h, whose loop over the
 * lines the reader compiles into its own; here is what that loop calls out
 * of line: the claims of a line (and a claim text that repeats the line
 * before's, compared as text and copied), the Result tag, a single turn
 * line found by the general reader, room for more moves and the cap on a
 * game's turns. It takes only lines whose record it can make exactly as
 * the general parser (cgn_turn.c) would, and refuses any other at its
 * first unexpected byte. tests/unit/test_cgn_fast.c compares the two.
 */
#include "notation/cgn_fast.h"

bool carc_cgn_fast_turns = true;

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

/* Whether a and b agree in their first len bytes, compared 16 (or 8) at a
 * time: the reader keeps bytes after the text (see end_text), so the last
 * loads may read past both. */
static FAST_PATH bool same_bytes(const unsigned char *a, const unsigned char *b, size_t len)
{
#if defined(__SSE2__)
	for (size_t k = 0; k < len; k += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + k));
		__m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b + k));
		unsigned differ = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) & 0xffff;
		if (len - k < 16)
			differ &= (1u << (len - k)) - 1;
		if (differ)
			return false;
	}
	return true;
#else
	uint64_t diff = 0;
	size_t k = 0;
	for (; k + 8 <= len; k += 8)
		diff |= word_at(a + k) ^ word_at(b + k);
	if (k < len)
		diff |= (word_at(a + k) ^ word_at(b + k)) & LOW_BYTES(len - k);
	return diff == 0;
#endif
}

/* Room for n claims after the record's nclaims. (Out of line: the array
 * grows a few times a file, and the call would cost same_claims registers
 * on every line.) */
static SLOW_PATH void more_claims(struct carc_record *rec, size_t n)
{
	while (rec->nclaims + n > rec->claims_cap)
		rec->claims_cap = rec->claims_cap ? 2 * rec->claims_cap : 16;
	rec->claims = xrealloc(rec->claims, rec->claims_cap * sizeof *rec->claims);
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
	if (rec->nclaims + n > rec->claims_cap)
		more_claims(rec, n);
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

/* Claims not written as the last ones, at b[i] (the "="): read by
 * claims_fast up to the line's end (by offset limit), and then the ones
 * same_claims compares the next line's with. Returns the offset of the
 * line's newline, with the end of the last claim in *last and the index
 * past them in *past; 0 when they are not plain. Out of line: most claims
 * repeat the line before's, and this path's registers would cost those. */
static OUT_OF_LINE size_t new_claims(struct carc_reader *r, struct carc_record *rec, const unsigned char *b, size_t i,
				     size_t limit, size_t *last, size_t *past)
{
	size_t cs = i;
	if (!(i = claims_fast(rec, b, i, ',', past, last)) || !at_line_end(b, &i) || i > limit)
		return 0;
	r->claims_len = (uint32_t)(*last - cs);
	r->claims_count = (uint32_t)(*past - rec->nclaims);
	return i;
}

/* The claims of the turn line that starts at b[from] and whose words up
 * to the "=" at b[i] turn_words has read into m (the last one ending
 * at b[last]): reads them, and finishes m. Returns the offset of the line's
 * newline; 0 when the claims are not plain. */
size_t cgn_parse_claims_fast(struct carc_reader *r, struct carc_record *rec, const unsigned char *b, size_t i,
			     size_t limit, size_t from, size_t last, struct carc_move *m)
{
	size_t cs = i, past, e;
	if (r->claims_len && (e = same_claims(r, rec, b, i)) && at_line_end(b, &e) && e <= limit) {
		last = i + r->claims_len;
		i = e;
		past = rec->nclaims + r->claims_count;
	} else if (!(i = new_claims(r, rec, b, i, limit, &last, &past))) {
		return 0;
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
bool cgn_result_fast(struct parser *ps, const struct carc_tag *t)
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
/* parse_move_fast, and the deployments that do not start with a role of one
 * word ("big knight N", "return abbot": fast_role_words), and tiles of two
 * or three letters: for the lines the general reader finds (out of line: the
 * plain lines' ways stay as they were). */
static SLOW_PATH size_t parse_move_fast_ext(struct carc_reader *r, struct carc_record *rec, const uint8_t *tiles,
					    const unsigned char *b, size_t i, size_t limit, struct carc_move *m)
{
	return turn_words(r, rec, tiles, b, i, limit, m, 0, false, 0, 0, 0, 0, true);
}

/* Reads the turn line at ps->line_start (found by the general reader) with
 * the fast path, when it is a plain one. */
bool cgn_parse_turn_line_fast(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	GROW(rec, moves, nmoves, moves_cap);
	struct carc_move *m = &rec->moves[rec->nmoves];
	if (parse_move_fast_ext(ps->r, rec, rec->tileset->by_letter, (const unsigned char *)ps->text, ps->line_start,
				ps->line_end, m) != ps->line_end)
		return false;
	rec->nmoves++;
	rec->has_moves = true;
	return true;
}

/* Room for more moves in read_plain_turns, whose moves fill rec->moves up
 * to rec->nmoves, its end: the array doubled; or once it holds more than
 * MAX_TURNS, the same room again from the move after the first one past the
 * cap (which is kept: the general reader takes over at its line), with the
 * lines so read counted in ps->over_lines. So the loop needs no test of its
 * own for the cap. */
void cgn_more_moves(struct parser *ps)
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
SLOW_PATH bool cgn_turns_over_cap(struct parser *ps, size_t first, size_t n, size_t start)
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


SLOW_PATH size_t cgn_turn_number_fast(const unsigned char *b, size_t i, uint32_t *v)
{
	size_t n = fast_digits(b, i, 3, v);
	if (!n || *v < 1 || *v >= TURN_MARKS - 1 || memcmp(b + i + n, ". ", 2))
		return 0;
	return n;
}

SLOW_PATH bool fast_tile_pair(const struct carc_tileset *ts, const unsigned char *b, size_t i, struct carc_move *m)
{
	if (b[i + 1] <= ' ')
		return false;
	if (b[i + 2] > ' ' && b[i + 3] == ' ') {
		/* three letters (the garden tiles of the big expansions with The
		 * Abbot: IBg, TKg), looked up as the general parser does; a
		 * twin, or no tile, is its to say */
		int t = carc_tileset_find(ts, (const char *)b + i, 3);
		if (t < 0)
			return false;
		m->tile = (uint16_t)t;
		m->tile_span = span(i, 3);
		return true;
	}
	if (b[i + 2] != ' ' || !ts->by_pair[b[i] & 127][b[i + 1] & 127])
		return false;
	m->tile = (uint16_t)(ts->by_pair[b[i] & 127][b[i + 1] & 127] - 1);
	m->tile_span = span(i, 2);
	return true;
}
