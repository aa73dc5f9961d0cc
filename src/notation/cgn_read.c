/*
 * cgn_read.c - the CGN reader: input blocks, logical lines, games.
 *
 * A game is its tag lines and then its turn lines: a tag line after a turn
 * line starts the next game (carc_reader_next). Comment lines between a
 * game's last turn and the next game's tags belong to the next game. The
 * values of known tags are read once the tags are complete
 * (cgn_finish_header, in cgn_header.c).
 *
 * The reader keeps the text of the current game, and at most one line of
 * look-ahead, in one buffer; it compacts the buffer only when a read needs
 * room, so a file of any number of games is read in the memory of its
 * largest game. Spans in the record are offsets from the start of the game's
 * text. A logical line is one physical line, or several when a { comment }
 * runs over them; its end is found in one pass that looks for the newline
 * and a '{' at once (scan_line), and the slow way only when the line holds
 * a '{'. Each line is then tokenised once, in place (cgn_token.c): no token
 * is copied or allocated. On a syntax error the line is reported, marked bad
 * and the rest of it skipped, so that every error of a game is seen. Most
 * lines take none of this way: empty lines, the next game's first tag,
 * plain tag lines (cgn_read_plain_tag) and plain turn lines
 * (cgn_read_plain_turns) are told by their first byte, or read straight
 * from the buffer. The caps on a game's size (MAX_LINE and the rest, in
 * cgn_int.h) are applied here.
 */
#include "notation/cgn_fast.h"

/* Ends the text read so far with a NUL (the stop the tokeniser relies on,
 * see cgn_byte_class) and SLACK more zero bytes, so that the fast path for turn
 * lines may load the 64 bytes from any line's start, and a word of 8 bytes
 * at any offset up to 64 past it, without reading beyond the buffer. None
 * of them is ever counted as input. The buffer always has room for them. */
static void end_text(struct carc_reader *r)
{
	memset(r->buf + r->len, 0, 1 + SLACK);
}

struct carc_reader *carc_reader_new(FILE *f, const char *name, struct carc_tileset_cache *cache,
				    const struct carc_rulesets *rules)
{
	struct carc_reader *r = xcalloc(1, sizeof *r);
	r->f = f;
	r->name = name;
	r->cache = cache;
	r->rules = rules;
	r->line = r->game_line = 1;
	r->cap = 2 * BLOCK;
	r->buf = xmalloc(r->cap);
	end_text(r);
	for (int k = 0; k < SPOT_SLOTS; k++)
		r->spots[k].key = ~UINT64_C(0);
	for (int sp = 0; sp < CARC_SPOT_COUNT; sp++) {
		uint64_t key = word_of(cgn_spot_names[sp], strlen(cgn_spot_names[sp]));
		struct spot_slot *e = &r->spots[spot_slot(key)];
		if (e->key == ~UINT64_C(0))
			*e = (struct spot_slot){key, (uint8_t)sp};
	}
	for (int id = 0; id <= CARC_TAG_UNKNOWN; id++) {
		const char *tag = id < CARC_TAG_UNKNOWN ? cgn_tag_names[id] : "Grey";
		size_t n = strlen(tag);
		uint64_t key = word_of(tag, n < 8 ? n : 8) | (UINT64_C(0x2020202020202020) & LOW_BYTES(n < 8 ? n : 8));
		struct tag_slot *e = &r->tag_names[tag_slot(key)];
		if (e->len)
			abort(); /* two known names in one slot: choose another multiplier (cgn_int.h) */
		*e = (struct tag_slot){key, (uint8_t)n, {0, 0, 0}, (uint8_t)(id < CARC_TAG_UNKNOWN ? id : CARC_TAG_KNOWN + CARC_GRAY)};
		for (size_t i = 8; i < n && i < 11; i++)
			e->tail[i - 8] = (char)(tag[i] | 0x20);
	}
	return r;
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

/* Offset of the first c at or after r->pos + *at and at most at r->pos +
 * limit, reading more input as needed; r->len when there is none (*at is
 * then past limit, or the input has ended). Offsets relative to r->pos
 * survive the buffer moving. The search never looks past r->pos + limit,
 * even when the buffer holds more: what is found must not depend on how
 * much input happens to have been read (a '}' more than 65536 bytes after
 * its '{' is no close, wherever the reads ended). */
static size_t find_byte(struct carc_reader *r, size_t *at, char c, size_t limit)
{
	for (;;) {
		size_t from = r->pos + *at;
		size_t end = r->len - r->pos > limit ? r->pos + limit + 1 : r->len;
		char *hit = from < end ? memchr(r->buf + from, c, end - from) : NULL;
		if (hit) {
			*at = (size_t)(hit - r->buf) - r->pos;
			return (size_t)(hit - r->buf);
		}
		*at = end - r->pos;
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
			/* closed by the first '}' at most MAX_LINE bytes after it */
			size_t from = i, j = i + 1;
			size_t close = find_byte(r, &j, '}', from + MAX_LINE);
			if (close < r->len) {
				i = j + 1;
				continue;
			}
			/* Not closed: report it, and let the comment end with its line. */
			li->flags |= LINE_OPEN_BRACE | (j > from + MAX_LINE ? LINE_BRACE_LIMIT : 0);
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
		if (cgn_byte_class[(unsigned char)c] != B)
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

/* A line that cannot be parsed (cut, or after binary data) still counts as
 * a turn, so that the referee stops there rather than misnumber the rest. */
static void add_bad_move(struct parser *ps, size_t from, size_t to)
{
	struct carc_record *rec = ps->rec;
	struct carc_move *m = cgn_new_move(rec);
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
	if (rec->nseats == 0 && rec->has_result) /* a game without turns: its Result's colours */
		for (unsigned k = 0; k < rec->result_count; k++) {
			uint8_t colour = rec->claims[rec->result_first + k].colour;
			if (colour < CARC_COLOURS && !(seen & (1u << colour))) {
				seen |= 1u << colour;
				rec->seats[rec->nseats++] = colour;
			}
		}
	if (rec->nseats == 0)
		for (int i = 0; i < rec->rules->default_seats; i++)
			rec->seats[rec->nseats++] = (uint8_t)i;
}

static void reset_record(struct carc_record *rec, const struct carc_rulesets *rules)
{
	rec->rules = rules->default_rules; /* first: rules need not outlive the call below */
	rec->ntags = rec->nmoves = rec->nclaims = rec->norder = rec->ncomments = 0;
	carc_buf_reset(&rec->text);
	carc_buf_addc(&rec->text, '\0'); /* offset 0 is the empty string */
	for (int i = 0; i < CARC_TAG_UNKNOWN; i++)
		rec->tag_index[i] = -1;
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
	rec->board = rec->format_games = 0;
	rec->time_of_day = -1;
	rec->termination = CARC_TERM_NONE;
	rec->winner = CARC_NO_COLOUR;
	rec->has_end_order = false;
	rec->end_order_first = rec->end_order_count = 0;
	rec->syntax_errors = rec->header_errors = rec->read_warnings = 0;
	rec->has_moves = false;
	rec->twins = false;
}

/* Reports what scanning found wrong with the line. Returns false when the
 * line was cut and is not to be parsed. */
static bool line_problems(struct parser *ps, const struct line *li)
{
	struct carc_reader *r = ps->r;
	if (li->flags & LINE_NUL) { /* in a line too long to be read whole */
		size_t kept = li->end - li->start;
		if (r->cut_nul < kept)
			cgn_report(ps, CARC_E002, li->start - r->game + r->cut_nul, 1,
				   "NUL byte: this is not a text file; the rest of the input is skipped");
		else
			cgn_report(ps, CARC_E002, li->start - r->game, 1,
				   "NUL byte at byte %zu of this line: this is not a text file; the rest of the input is skipped",
				   r->cut_nul + 1);
		cgn_give_up_input(ps);
		return false;
	}
	if (li->flags & LINE_OPEN_BRACE)
		cgn_report(ps, CARC_E004, li->brace - r->game, 1, "this { comment is not closed %s; it is taken to end with its line",
			   li->flags & LINE_BRACE_LIMIT ? "within 65536 bytes" : "before the end of the input");
	if (!(li->flags & LINE_CUT))
		return true;
	cgn_report(ps, CARC_E003, li->start - r->game, 1, "line longer than %d bytes; it is skipped", MAX_LINE);
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
			cgn_bad_byte(&c, (size_t)(cr - ps->text));
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
		cgn_report(ps, CARC_E033, off, 1, "more than %d tag lines in one game; the rest of its tags are skipped",
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
		cgn_report(ps, CARC_E032, from, to - from, "more than %d turns in one game; the rest of its turns are skipped",
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
	cgn_report(ps, CARC_E031, off, 1,
		   "game %u is longer than %d bytes, the most a game may have; the rest of the input is skipped",
		   r->games + 1, MAX_GAME);
	cgn_give_up_input(ps);
	r->peeked = false;
}

/* Starts the next game at r->pos (or at the line the last one ended at):
 * the record emptied, the comment lines carried over from the last game's
 * tail given to it. Returns false when the input was given up. */
static bool start_game(struct carc_reader *r, struct carc_record *rec)
{
	reset_record(rec, r->rules);
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
	return true;
}

/* What kind of line li is: the first character after its blanks and
 * { comments } ('\n' for none), with where its blanks end in *p, and
 * whether it holds comments only. */
static char line_kind(const struct carc_reader *r, const struct line *li, size_t *p, bool *comments_only)
{
	size_t b = li->start;
	while (b < li->end && is_blank(r->buf[b]))
		b++;
	size_t q = b;
	while (q < li->end && r->buf[q] == '{') {
		const char *close = memchr(r->buf + q, '}', li->end - q);
		q = close ? (size_t)(close - r->buf) + 1 : li->end;
		while (q < li->end && is_blank(r->buf[q]))
			q++;
	}
	char first = q < li->end ? r->buf[q] : '\n';
	*p = b;
	*comments_only = first == ';' || (first == '\n' && q > b);
	return first;
}

/* A line that was cut (or ends in binary data), reported by line_problems:
 * a tag that is lost, or a turn that cannot be refereed. */
static void cut_line_seen(struct parser *ps, const struct line *li, char first, size_t p, bool comments_only)
{
	struct carc_reader *r = ps->r;
	if (first == '[') {
		ps->rec->header_errors++;
	} else if (!comments_only && first != '\n') {
		if (!ps->header_done) {
			cgn_finish_header(ps);
			ps->header_done = true;
		}
		ps->in_moves = true;
		ps->tail = false;
		if (turn_allowed(ps, p - r->game, li->end - r->game))
			add_bad_move(ps, p - r->game, li->end - r->game);
	} else if (comments_only) {
		ps->tail = false; /* a faulty line stays with the game that reported it */
	}
	ps->any = true;
}

/* A line of comments only: after the game's turns, where its tail starts
 * (comment lines before the next game's tags belong to that game). */
static void comment_line(struct parser *ps, const struct line *li)
{
	struct cursor c = {ps, ps->text, ps->line_start, ps->line_end, ps->line_start};
	if ((ps->in_moves || ps->rec->ntags) && !ps->tail) { /* (after the tags of a game without turns, too) */
		ps->tail = true;
		ps->tail_rel = li->start - ps->r->game;
		ps->tail_line = ps->r->line;
		ps->tail_comments = ps->rec->ncomments;
	}
	skip_space(&c, false);
	if (ps->line_bad || (li->flags & LINE_OPEN_BRACE))
		ps->tail = false; /* a faulty line stays with the game that reported it */
}

/* A turn line. Returns false for the game's first turn when the fast path
 * may read it: it is left where it is, for cgn_read_plain_turns to read
 * with the rest (when it is plain; else it comes back here). */
static bool turn_line(struct parser *ps, const struct line *li)
{
	ps->tail = false;
	ps->any = true;
	if (!ps->header_done) {
		cgn_finish_header(ps);
		ps->header_done = true;
		ps->in_moves = true;
		if (!(li->flags & LINE_SLOW) && !ps->line_bad && fast_turns(ps))
			return false;
	}
	ps->in_moves = true;
	if (!turn_allowed(ps, ps->line_start, ps->line_end))
		; /* past the cap: skipped */
	else if (!fast_turns(ps) || ps->line_bad || !cgn_parse_turn_line_fast(ps))
		cgn_parse_move(ps);
	return true;
}

/* Whether the tag line whose '[' is at p (in the reader's buffer) is an
 * Event tag, and the game has one: then it starts the next game, as a tag
 * after a turn does, so that games without turns (results alone) follow
 * each other. */
static bool repeats_event(const struct parser *ps, size_t p)
{
	if (ps->rec->tag_index[CARC_TAG_EVENT] < 0)
		return false;
	const char *b = ps->r->buf + p + 1;
	while (is_blank(*b))
		b++;
	char after = b[5]; /* (the buffer holds the line and a NUL after the input) */
	bool name_goes_on = (after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
			    (after >= '0' && after <= '9') || after == '_';
	return b[0] && b[1] && b[2] && b[3] && b[4] && ieq(b, "event", 5) && !name_goes_on;
}

/* Reads the logical line li, found by scan_line. Returns false when it is
 * the next game's first tag, kept as the look-ahead. */
static bool read_line(struct parser *ps, struct line *li)
{
	struct carc_reader *r = ps->r;
	ps->text = r->buf + r->game;
	ps->line_bad = false;
	size_t p;
	bool comments_only;
	char first = line_kind(r, li, &p, &comments_only);
	if (first == '[' && (ps->in_moves || repeats_event(ps, p))) {
		r->peek = *li;
		r->peeked = true;
		r->peek_dropped = li->flags & LINE_CUT ? r->cut_dropped : 0;
		return false;
	}
	if (!line_problems(ps, li)) {
		cut_line_seen(ps, li, first, p, comments_only);
		consume_line(r, li);
		return true;
	}
	ps->line_bad = false; /* an open { does not spoil the turn before it */
	ps->line_start = p - r->game;
	ps->line_end = li->end - r->game;
	if (li->flags & (LINE_CR | LINE_SLOW)) /* (most lines have no CR) */
		lone_cr(ps, li);
	if (first == '[') {
		ps->any = true;
		ps->tail = false;
		if (tag_line_allowed(ps, ps->line_start)) {
			cgn_parse_tag(ps);
			if (ps->line_bad)
				ps->rec->header_errors++; /* what the tag said is not known */
		}
	} else if (comments_only) {
		comment_line(ps, li);
	} else if (first != '\n' && !turn_line(ps, li)) {
		return true; /* not consumed: the fast path reads it */
	}
	consume_line(r, li);
	return true;
}

/* The comment lines after the game's last turn, before the next game's
 * tags, are that game's: moved from the record to the reader's carry. */
static void carry_tail(struct parser *ps)
{
	struct carc_reader *r = ps->r;
	struct carc_record *rec = ps->rec;
	size_t shift = ps->tail_rel;
	r->ncarry = 0;
	for (size_t i = ps->tail_comments; i < rec->ncomments; i++) {
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
	rec->ncomments = ps->tail_comments;
}

/* Ends the game whose lines have been read: its size checked, its header
 * finished, its seats inferred, and where the next game starts. Returns
 * false when there was no game. */
static bool end_game(struct parser *ps)
{
	struct carc_reader *r = ps->r;
	struct carc_record *rec = ps->rec;
	size_t end = r->peeked ? (ps->tail ? r->game + ps->tail_rel : r->peek.start) : r->pos;
	if (end - r->game + r->dropped > MAX_GAME) {
		game_too_long(ps, end);
		ps->any = true;
	}
	if (!ps->any && !rec->syntax_errors) {
		/* no game: rec keeps the comments of the rest of the text, if any
		 * (a file of comments only), for fmt */
		r->ncarry = 0;
		return false;
	}
	r->games++;
	rec->index = r->games;
	ps->text = r->buf + r->game;
	if (!ps->header_done)
		cgn_finish_header(ps);
	if (!rec->seats_given && !rec->header_errors)
		infer_seats(ps);
	cgn_check_outcome(ps);
	cgn_src_of(ps);
	rec->src.len = end - r->game;
	/* (a look-ahead line that was cut is the next game's) */
	rec->text_cut = r->dropped > (r->peeked ? r->peek_dropped : 0) || r->given_up;
	if (r->peeked) {
		/* the next game starts at its carried comments, or its first tag */
		r->game = end;
		r->game_line = ps->tail ? ps->tail_line : r->line;
		/* (bytes the next game's first line dropped, if it was cut, are after end) */
		bool cut = r->cut_lost && r->origin + r->peek.start == r->cut_abs + r->cut_lost;
		r->game_off = r->origin + end - (cut ? r->cut_lost : 0);
	}
	return true;
}

bool carc_reader_next(struct carc_reader *r, struct carc_record *rec, struct carc_diag_sink *sink)
{
	if (!start_game(r, rec))
		return false;
	struct parser ps = {.r = r, .rec = rec, .sink = sink};
	for (;;) {
		struct line li;
		if (!r->peeked && !r->given_up) {
			if (ps.header_done && cgn_read_plain_turns(&ps))
				ps.tail = false;
			/* Lines that the first byte tells, without scanning them:
			 * an empty line (nothing to do but count it), the next
			 * game's first tag (unless comment lines before it are
			 * to be carried over to it: see comment_line), a plain
			 * tag. (The byte after the input is a NUL.) */
			char c0 = r->buf[r->pos];
			if (c0 == '\n') {
				r->pos++;
				r->line++;
				ps.line_bad = false;
				continue;
			}
			if (c0 == '[' && carc_cgn_fast_turns) {
				if (ps.in_moves && !ps.tail)
					break;
				if (!ps.in_moves && cgn_read_plain_tag(&ps)) {
					ps.any = true;
					ps.tail = false;
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
		if (!read_line(&ps, &li))
			break;
	}
	if (ps.tail && r->peeked)
		carry_tail(&ps);
	return end_game(&ps);
}

bool carc_parse_string(const char *text, size_t len, const char *name, struct carc_tileset_cache *cache,
		       const struct carc_rulesets *rules, struct carc_record *rec, struct carc_diag_sink *sink)
{
	return carc_parse_string_at(text, len, name, cache, rules, rec, sink, 1, 0);
}

bool carc_parse_string_at(const char *text, size_t len, const char *name, struct carc_tileset_cache *cache,
			  const struct carc_rulesets *rules, struct carc_record *rec, struct carc_diag_sink *sink,
			  unsigned line, unsigned games)
{
	struct carc_reader *r = carc_reader_new(NULL, name, cache, rules);
	if (line > 1 || games)
		carc_reader_start_at(r, line, line > 1, games);
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
	rec->own_cap = r->cap;
	rec->src.text = r->buf + r->game;
	r->buf = NULL;
	carc_reader_free(r);
	return got;
}

bool carc_record_add_turn(struct carc_record *rec, const char *name, const struct carc_rulesets *rules,
			  const char *line, size_t len, struct carc_diag_sink *sink)
{
	if (!rec->own_text || !rec->rules || memchr(line, '\n', len))
		return false;
	/* the line and its newline after the game's text, and the zero bytes
	 * the reader keeps after its input (end_text); the buffer grows by
	 * doubling, so that a game played line by line costs linear time */
	size_t off = (size_t)(rec->src.text - rec->own_text), end = off + rec->src.len;
	size_t need = end + len + 1 + 1 + SLACK;
	if (need > rec->own_cap) {
		size_t cap = 2 * rec->own_cap > need ? 2 * rec->own_cap : need;
		rec->own_text = xrealloc(rec->own_text, cap);
		rec->own_cap = cap;
		rec->src.text = rec->own_text + off;
	}
	memcpy(rec->own_text + end, line, len);
	rec->own_text[end + len] = '\n';
	/* a reader over the record's text, as it stands after the header, for
	 * the general parser: the game's rule set's roles (set_roles), and the
	 * rule sets a record may name */
	struct carc_reader r = {.name = name, .rules = rules, .buf = rec->own_text, .len = end + len + 1,
				.cap = rec->own_cap, .game = off, .line = 1, .game_line = 1};
	end_text(&r);
	cgn_set_roles(&r, rec->rules);
	struct parser ps = {.r = &r, .rec = rec, .sink = sink, .text = rec->own_text + off,
			    .line_start = end - off, .line_end = end - off + len, .in_moves = true,
			    .header_done = true, .any = true};
	cgn_src_of(&ps);
	size_t before = rec->nmoves;
	if (turn_allowed(&ps, ps.line_start, ps.line_end))
		cgn_parse_move(&ps);
	cgn_src_of(&ps);
	r.buf = NULL; /* the record's */
	return rec->nmoves == before + 1 && !rec->moves[before].bad && !ps.line_bad;
}

void carc_record_copy(struct carc_record *dst, const struct carc_record *src)
{
	carc_record_free(dst);
	*dst = *src;
#define COPY_ARRAY(arr, n, cap)                                                              \
	do {                                                                                 \
		dst->arr = NULL;                                                             \
		dst->cap = src->n;                                                           \
		if (src->n) {                                                                \
			dst->arr = xmalloc(src->n * sizeof *dst->arr);                       \
			memcpy(dst->arr, src->arr, src->n * sizeof *dst->arr);               \
		}                                                                            \
	} while (0)
	COPY_ARRAY(tags, ntags, tags_cap);
	COPY_ARRAY(moves, nmoves, moves_cap);
	COPY_ARRAY(claims, nclaims, claims_cap);
	COPY_ARRAY(order, norder, order_cap);
	COPY_ARRAY(comments, ncomments, comments_cap);
#undef COPY_ARRAY
	dst->text = (struct carc_buf){0};
	carc_buf_add(&dst->text, src->text.data, src->text.len);
	if (src->own_text) {
		size_t off = (size_t)(src->src.text - src->own_text), n = off + src->src.len;
		dst->own_cap = n + 1 + SLACK;
		dst->own_text = xmalloc(dst->own_cap);
		memcpy(dst->own_text, src->own_text, n);
		memset(dst->own_text + n, 0, 1 + SLACK);
		dst->src.text = dst->own_text + off;
	}
	dst->src.memo_text = NULL;
}
