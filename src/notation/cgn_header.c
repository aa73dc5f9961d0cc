/*
 * cgn_header.c - tag lines and the header's meaning.
 *
 * A tag line, [Name "value"], is read by cgn_parse_tag, or by
 * cgn_read_plain_tag straight from the buffer when it is a plain one; a tag
 * given twice is reported (unknown names are found in a small hash table,
 * known ones by the slot of their first 8 bytes). Once a game's tags are
 * complete, cgn_finish_header gives the known ones their meaning: the rule
 * set, its roles and tile set, the edition, seats, followers, huts, start
 * tile, table, EndOrder and Result, with the rule set's defaults for what
 * is not given.
 */
#include "notation/cgn_token.h"

/* Puts the word name (n bytes, 3 to 8 lower-case letters: the fast path
 * reads a role as one word and hashes its first 3 bytes; it takes
 * lower-case names only, as the general parser reads them) into the slot of
 * table its first bytes give, with value, unless the slot holds another
 * word: false then, or when the word is not one the fast path can read. */
static bool fast_role_word(struct fast_word *table, const char *name, size_t n, uint8_t value)
{
	if (n < 3 || n > 8)
		return false;
	for (size_t k = 0; k < n; k++)
		if (name[k] < 'a' || name[k] > 'z')
			return false;
	uint64_t w = word_of(name, n);
	struct fast_word *e = &table[role_slot(w)];
	if (e->len == 0) {
		memcpy(e->text, name, n);
		e->mask = LOW_BYTES(n);
		e->len = (uint8_t)n;
		e->value = value;
		return true;
	}
	return e->len == n && !memcmp(e->text, name, n) && e->value == value;
}

/* Fills the role tables and role lengths for the rule set rs, unless they
 * are for it already. An empty slot holds a word that nothing matches:
 * its first byte would have to be both a NUL and the space after it. The
 * roles of one word go to roles[]; the keyword "return", when a role is
 * taken back, and the first word of the roles of two words (one for all of
 * them: Inns & Cathedrals' "big") to roles_ext[], their second words to
 * roles2[]. A word that would share a slot with another is left out, and
 * its lines go to the general parser. */
void cgn_set_roles(struct carc_reader *r, const struct carc_ruleset *rs)
{
	if (r->roles_for == rs)
		return;
	r->roles_for = rs;
	for (int k = 0; k < ROLE_SLOTS; k++) {
		r->roles[k] = (struct fast_word){"", LOW_BYTES(1), 0, 0};
		r->roles_ext[k] = r->roles2[k] = (struct fast_word){"", LOW_BYTES(1), 0, 0};
	}
	r->recall_roles = 0;
	const char *prefix = NULL;
	size_t prefix_len = 0;
	for (int i = 0; i < rs->nroles; i++) {
		const char *name = rs->roles[i].name;
		size_t n = strlen(name);
		r->role_len[i] = n;
		if (!strchr(name, ' '))
			fast_role_word(r->roles, name, n, (uint8_t)i);
		if (rs->roles[i].recall)
			r->recall_roles |= 1u << i;
	}
	if (r->recall_roles && !fast_role_word(r->roles_ext, "return", 6, FAST_RETURN))
		r->recall_roles = 0;
	for (int i = 0; i < rs->nroles; i++) {
		const char *name = rs->roles[i].name, *space = strchr(name, ' ');
		if (!space || strchr(space + 1, ' '))
			continue;
		size_t n1 = (size_t)(space - name);
		if (prefix && (n1 != prefix_len || memcmp(name, prefix, n1)))
			continue; /* a second first word: the general parser's */
		if (!prefix && !fast_role_word(r->roles_ext, name, n1, FAST_ROLE_PREFIX))
			continue;
		prefix = name, prefix_len = n1;
		fast_role_word(r->roles2, space + 1, strlen(space + 1), (uint8_t)i);
	}
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
	/* no known name is longer than 11 */
	if (e->key != key || e->len != n ||
	    (n > 8 && ((p[8] | 0x20) != e->tail[0] ||
		       (n > 9 && ((p[9] | 0x20) != e->tail[1] || (n > 10 && (p[10] | 0x20) != e->tail[2]))))))
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

const char *carc_tag_text(const struct carc_record *rec, const struct carc_tag *tag)
{
	return rec->text.data + tag->text;
}

const char *carc_record_tag(const struct carc_record *rec, int tag_id)
{
	int i = rec->tag_index[tag_id];
	return i < 0 ? NULL : carc_tag_text(rec, &rec->tags[i]);
}

/* An unknown tag's name, at ns (nlen bytes), the first time in the game:
 * warned about (W003) when it is close to a known one, which it is most
 * likely meant to be. */
static SLOW_PATH void near_tag(struct parser *ps, size_t ns, size_t nlen)
{
	const char *known = cgn_near_tag(ps->text + ns, nlen);
	if (!known)
		return;
	ps->rec->read_warnings++;
	carc_diag_report(ps->sink, CARC_W003, cgn_src_of(ps), ns, nlen,
			 "tag %.*s is not a tag carc knows, and is kept as it is; did you mean %s?", (int)nlen,
			 ps->text + ns, known);
}

/* tag-line = "[" NAME STRING "]" ; NAME is a letter and then letters,
 * digits and '_'; STRING is "..." where \" and \\ stand for " and \. */
void cgn_parse_tag(struct parser *ps)
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
		cgn_report(ps, CARC_E005, ns < c.end ? ns : tag_start, 1,
			   "a tag is [Name \"value\"], its name a word of letters, digits and _");
		return;
	}
	while (c.p < c.end && is_blank(c.buf[c.p]))
		c.p++;
	if (c.p >= c.end || c.buf[c.p] != '"') {
		cgn_report(ps, CARC_E005, c.p < c.end ? c.p : c.end - 1, 1, "tag %.*s: expected its value in double quotes",
			   (int)nlen, c.buf + ns);
		return;
	}
	size_t vs = ++c.p;
	size_t text_at = rec->text.len;
	for (size_t run = c.p;;) {
		c.p = skip_plain_value(s, c.p);
		while (c.p < c.end && cgn_byte_class[s[c.p]] <= S && s[c.p] != '"' && s[c.p] != '\\' && s[c.p] != '\n')
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
		size_t n = cgn_byte_class[s[c.p]] == H ? carc_utf8_len(c.buf + c.p, c.end - c.p) : 0;
		if (!n) {
			cgn_bad_byte(&c, c.p);
			return;
		}
		run = c.p;
		c.p += n;
	}
	if (c.p >= c.end || s[c.p] != '"') {
		cgn_report(ps, CARC_E005, vs - 1, 1, "tag %.*s: the value's closing quote is missing", (int)nlen, c.buf + ns);
		return;
	}
	size_t ve = c.p++;
	carc_buf_addc(&rec->text, '\0');
	while (c.p < c.end && is_blank(c.buf[c.p]))
		c.p++;
	if (c.p >= c.end || c.buf[c.p] != ']') {
		cgn_report(ps, CARC_E005, c.p < c.end ? c.p : c.end - 1, 1, "tag %.*s: expected ] after the value",
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
			cgn_report(ps, CARC_E006, ns, nlen, "tag %.*s is already given on line %u; a game has each tag once",
				   (int)nlen, c.buf + ns, (unsigned)t->line);
		else
			cgn_report(ps, CARC_E006, ns, nlen,
				   "tag %.*s is already given on line %u, as %.*s; a game has each tag once", (int)nlen,
				   c.buf + ns, (unsigned)t->line, (int)t->name.len, c.buf + t->name.off);
		return;
	}
	if (slot) {
		*slot = (uint32_t)rec->ntags + 1;
		ps->r->names_used++;
		near_tag(ps, ns, nlen);
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
		cgn_report(ps, CARC_E005, c.p, 1, "unexpected text after the tag; one tag per line");
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
	cgn_report(ps, code, t->value.off, t->value.len, "%s", msg);
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
		int col = carc_colour_lookup(p, n);
		int shown = n < 40 ? (int)n : 40;
		if (col < 0) {
			header_error(ps, CARC_E010, CARC_TAG_SEATS,
				     "Seats: '%.*s' is not a colour (red green blue yellow black gray pink)%s", shown, p,
				     cgn_dym_colour(p, n));
			return;
		}
		if (seen & (1u << col)) {
			header_error(ps, CARC_E010, CARC_TAG_SEATS, "Seats: %s sits twice", carc_colour_name(col));
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

/* EndOrder = spot-ref { spot-ref }, each x,y:SPOT (solo games). */
static void parse_end_order(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const struct carc_tag *t = &rec->tags[rec->tag_index[CARC_TAG_ENDORDER]];
	struct cursor c = {ps, ps->text, t->value.off, t->value.off + t->value.len, t->value.off, true};
	bool saved = ps->line_bad;
	ps->line_bad = false;
	size_t first = rec->norder;
	if (!(rec->rules->flags & CARC_RS_ORDERS)) {
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
			cgn_report(ps, CARC_E030, c.p, 1, "EndOrder: unexpected '%c'; write x,y:SPOT for each follower",
				   c.buf[c.p]);
			break;
		}
		if (!cgn_parse_spot_ref(&c, s, n, CARC_E030, "EndOrder", &it))
			break;
		if (!it.has_coord) {
			cgn_report(ps, CARC_E030, s, n, "EndOrder: '%.*s' needs the tile's position, as in 0,1:%s", (int)n,
				   c.buf + s, carc_spot_name(it.spot));
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

/* Expansions = names of expansions, blank- or comma-separated, any case and
 * order, none twice, each one that may join the Rules. Kept in registry
 * order, so that one combination is one rule set and one tile set. Each
 * problem is E014 at the word. */
static void expansion_fault(void *ctx, size_t off, size_t len, const char *msg)
{
	struct parser *ps = ctx;
	const struct carc_tag *t = &ps->rec->tags[ps->rec->tag_index[CARC_TAG_EXPANSIONS]];
	ps->rec->header_errors++;
	cgn_report(ps, CARC_E014, t->value.off + off, len, "%s", msg);
}

/* The messages of a Rules tag that names no rule set (E007) and of an
 * Expansions tag that names no expansion (E014), with the names the reader
 * knows: kept out of cgn_finish_header, which runs for every game. */
static SLOW_PATH void no_rule_set(struct parser *ps, const char *v)
{
	char list[256];
	carc_rulesets_names(ps->r->rules, false, list, sizeof list);
	header_error(ps, CARC_E007, CARC_TAG_RULES, "Rules '%s' is not a rule set: %s", v, list);
	ps->rules_bad = true;
}

static SLOW_PATH void no_expansion(struct parser *ps)
{
	char list[256];
	carc_rulesets_names(ps->r->rules, true, list, sizeof list);
	header_error(ps, CARC_E014, CARC_TAG_EXPANSIONS, "Expansions names no expansion: %s", list);
}

static void parse_expansions(struct parser *ps, const char *v)
{
	struct carc_record *rec = ps->rec;
	int names;
	const struct carc_rulesets *known = ps->r->rules;
	rec->nexpansions = carc_rulesets_read_expansions(known, ps->rules_bad ? NULL : rec->rules, v, strlen(v),
							 rec->expansions, &names, expansion_fault, ps);
	if (!names)
		no_expansion(ps);
	const struct carc_ruleset *game = known->compose(rec->rules, rec->expansions, rec->nexpansions);
	if (game) {
		rec->rules = game;
	} else {
		const struct carc_ruleset *mods[1 + CARC_MAX_EXPANSIONS] = {rec->rules};
		char why[256];
		memcpy(mods + 1, rec->expansions, (size_t)rec->nexpansions * sizeof *mods);
		if (known->conflict(mods, 1 + rec->nexpansions, why, sizeof why))
			header_error(ps, CARC_E014, CARC_TAG_EXPANSIONS, "%s", why);
		else
			header_error(ps, CARC_E014, CARC_TAG_EXPANSIONS, "these expansions bring more roles than a game "
				     "can hold (%d)", CARC_MAX_ROLES);
		rec->nexpansions = 0;
	}
}

/* The tile set of a game with expansions: the expansions' own tiles (The
 * River's) before the base set's, the expansions' tiles in play. */
static void expansion_tiles(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const struct carc_tileset *base = rec->tileset;
	bool loaded;
	rec->tileset = carc_tileset_cache_expand(ps->r->cache, base, rec->expansions, rec->nexpansions, ps->sink, &loaded);
	if (rec->tileset || !loaded)
		return;
	/* why: a tile id that both have, or more than a tile set holds */
	for (int i = 0; i < rec->nexpansions; i++) {
		const struct carc_ruleset *x = rec->expansions[i];
		const struct carc_tileset *own = x->tileset ? carc_tileset_cache_get(ps->r->cache, x->tileset, ps->sink,
										     NULL, 0, 0) : NULL;
		for (int t = 0; own && t < own->ntiles + own->nextra; t++)
			if (carc_tileset_find(base, own->tiles[t].id, strlen(own->tiles[t].id)) >= 0) {
				header_error(ps, CARC_E014, carc_record_tag(rec, CARC_TAG_TILESET) ? CARC_TAG_TILESET
								   : CARC_TAG_EXPANSIONS,
					     "tile set '%s' has a tile %s, and so has expansion %s: a game with both "
					     "could never tell them apart", carc_record_tag(rec, CARC_TAG_TILESET) ?
					     carc_record_tag(rec, CARC_TAG_TILESET) : base->name, own->tiles[t].id, x->name);
				return;
			}
	}
	header_error(ps, CARC_E014, CARC_TAG_EXPANSIONS, "the tiles of these expansions and of tile set '%s' do "
		     "not fit in one tile set", base->name);
}

/* ---- a tournament's tags: Board, Time, Match, Format, Termination, Winner ---- */

/* A fault in the value of tag id: the game is invalid, but what the tag
 * says does not change the play, so it is still refereed. */
static void tag_fault(struct parser *ps, enum carc_code code, int tag, const char *fmt, ...) CARC_PRINTF(4, 5);

static void tag_fault(struct parser *ps, enum carc_code code, int tag, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const struct carc_tag *t = &ps->rec->tags[ps->rec->tag_index[tag]];
	cgn_report(ps, code, t->value.len ? t->value.off : t->value.off - 1, t->value.len ? t->value.len : 2, "%s", msg);
}

/* Time = HH:MM:SS (or HH:MM), a time of day: seconds since midnight, or -1. */
static int32_t time_of_day(const char *v)
{
	size_t n = strlen(v);
	long h, m, sec = 0;
	if ((n != 5 && n != 8) || v[2] != ':' || !parse_int(v, 2, 0, 23, &h) || !parse_int(v + 3, 2, 0, 59, &m))
		return -1;
	if (n == 8 && (v[5] != ':' || !parse_int(v + 6, 2, 0, 59, &sec)))
		return -1;
	return (int32_t)(h * 3600 + m * 60 + sec);
}

/* The values of Board, Time, Match, Format, Termination and Winner, each
 * on its own (cgn_check_outcome checks them together, with the turns). */
static void tournament_tags(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const char *v;
	long n;
	if ((v = carc_record_tag(rec, CARC_TAG_BOARD))) {
		if (parse_int(v, strlen(v), 1, 99999, &n))
			rec->board = (int)n;
		else
			tag_fault(ps, CARC_E016, CARC_TAG_BOARD, "Board '%.40s' is not a table number, a whole number from 1 "
				  "to 99999", v);
	}
	if ((v = carc_record_tag(rec, CARC_TAG_TIME))) {
		rec->time_of_day = time_of_day(v);
		if (rec->time_of_day < 0)
			tag_fault(ps, CARC_E017, CARC_TAG_TIME, "Time '%.40s' is not a time of day written HH:MM:SS, as in "
				  "19:30:00", v);
	}
	const char *match = carc_record_tag(rec, CARC_TAG_MATCH);
	if (match && !match[strspn(match, " \t")])
		tag_fault(ps, CARC_E018, CARC_TAG_MATCH, "Match is empty: it names the duel the game is part of, the "
			  "same in each of its games, as in \"R1-B3\"");
	if ((v = carc_record_tag(rec, CARC_TAG_FORMAT))) {
		if (!((v[0] | 0x20) == 'b' && (v[1] | 0x20) == 'o' && parse_int(v + 2, strlen(v + 2), 1, 99, &n)))
			tag_fault(ps, CARC_E019, CARC_TAG_FORMAT, "Format '%.40s' is not a match's length BoN (best of N "
				  "games, N from 1 to 99), as in \"Bo3\"", v);
		else if (!match)
			tag_fault(ps, CARC_E019, CARC_TAG_FORMAT, "Format is the length of a match: give the game's Match "
				  "tag too");
		else
			rec->format_games = (int)n;
	}
	if ((v = carc_record_tag(rec, CARC_TAG_TERMINATION))) {
		int kind = carc_termination_lookup(v, strlen(v));
		if (kind > 0)
			rec->termination = (uint8_t)kind;
		else
			tag_fault(ps, CARC_E035, CARC_TAG_TERMINATION, "Termination '%.40s' is not a kind of result: bye, "
				  "time forfeit, no-show, withdrawal, disqualification, admin decision or 1-0", v);
	}
	if ((v = carc_record_tag(rec, CARC_TAG_WINNER))) {
		size_t len = strlen(v), b = strspn(v, " \t");
		while (len > b && (v[len - 1] == ' ' || v[len - 1] == '\t'))
			len--;
		int colour = carc_colour_lookup(v + b, len - b);
		if (colour >= 0)
			rec->winner = (uint8_t)colour;
		else
			tag_fault(ps, CARC_E036, CARC_TAG_WINNER, "Winner '%.40s' is not a colour (red green blue yellow "
				  "black gray pink)", v);
	}
}

bool carc_record_result_only(const struct carc_record *rec)
{
	return rec->nmoves == 0 && (rec->has_result || rec->termination != CARC_TERM_NONE);
}

/* The span of tag id, to point at. */
static struct carc_span tag_at(const struct carc_record *rec, int id)
{
	return rec->tags[rec->tag_index[id]].span;
}

/* The outcome's tags together, once the game's turns and seats are known
 * (notation/cgn.md, "Tournaments"): a bye is a record of one seat and
 * nothing else; a result decided off the board names its winner and, when
 * no game was played (no-show, 1-0), has no scores; the Winner sits and
 * agrees with the scores when they decide; a game without turns gives every
 * seat's score. */
void cgn_check_outcome(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	bool saved = ps->line_bad;
	int kind = rec->termination;
	bool has_result = rec->tag_index[CARC_TAG_RESULT] >= 0, has_winner = rec->tag_index[CARC_TAG_WINNER] >= 0;
	bool seated = false;
	for (int s = 0; s < rec->nseats; s++)
		seated |= rec->seats[s] == rec->winner;
	if (rec->winner < CARC_COLOURS && !seated && !rec->header_errors) {
		tag_fault(ps, CARC_E036, CARC_TAG_WINNER, "Winner %s does not play in this game",
			  carc_colour_name(rec->winner));
		rec->winner = CARC_NO_COLOUR;
	}
	if (kind == CARC_TERM_BYE) {
		struct carc_span at = tag_at(rec, CARC_TAG_TERMINATION);
		if (rec->nseats != 1)
			cgn_report(ps, CARC_E037, at.off, at.len, "a bye is a record of the one player who has it: Seats "
				   "names one colour, not %d", rec->nseats);
		if (rec->nmoves)
			cgn_report(ps, CARC_E037, rec->moves[0].line.off, rec->moves[0].line.len,
				   "a bye is not played: it has no turns");
		if (has_result)
			cgn_report(ps, CARC_E037, tag_at(rec, CARC_TAG_RESULT).off, tag_at(rec, CARC_TAG_RESULT).len,
				   "a bye has no score: it is a win without points");
	} else if (kind != CARC_TERM_NONE) {
		struct carc_span at = tag_at(rec, CARC_TAG_TERMINATION);
		bool unplayed = kind == CARC_TERM_NO_SHOW || kind == CARC_TERM_ONE_ZERO;
		if (!has_winner && (kind != CARC_TERM_ADMIN_DECISION || !has_result))
			cgn_report(ps, CARC_E038, at.off, at.len, "a result by %s names its winner: add [Winner \"COLOUR\"]%s",
				   carc_termination_name(kind), kind == CARC_TERM_ADMIN_DECISION ? ", or the Result decided" : "");
		if (unplayed && has_result)
			cgn_report(ps, CARC_E038, tag_at(rec, CARC_TAG_RESULT).off, tag_at(rec, CARC_TAG_RESULT).len,
				   "a result by %s has no score: leave the Result out", carc_termination_name(kind));
		if (unplayed && rec->nmoves)
			cgn_report(ps, CARC_E038, rec->moves[0].line.off, rec->moves[0].line.len,
				   "a result by %s has no turns: the game was not played", carc_termination_name(kind));
		if (rec->nseats < 2 && !rec->header_errors)
			cgn_report(ps, CARC_E038, at.off, at.len, "a result by %s is between players: Seats names %d colour%s",
				   carc_termination_name(kind), rec->nseats, rec->nseats == 1 ? "" : "s");
	}
	if (has_result && rec->has_result && rec->nmoves == 0 && kind != CARC_TERM_BYE) {
		/* a game without turns: its Result is its final score, every seat's */
		unsigned named = 0;
		for (unsigned k = 0; k < rec->result_count; k++)
			named |= 1u << rec->claims[rec->result_first + k].colour;
		for (int s = 0; s < rec->nseats; s++)
			if (!(named >> rec->seats[s] & 1)) {
				struct carc_span at = rec->result_span;
				cgn_report(ps, CARC_E039, at.off, at.len ? at.len : 1, "the moves of this game are not recorded, "
					   "so its Result is its final score and names every seat: %s is missing",
					   carc_colour_name(rec->seats[s]));
				break;
			}
	}
	if (rec->winner < CARC_COLOURS && rec->has_result && (kind == CARC_TERM_NONE || kind == CARC_TERM_ADMIN_DECISION)) {
		/* when the scores name a sole winner, the Winner is that one */
		int best = -1, tops = 0, top = -1;
		for (unsigned k = 0; k < rec->result_count; k++) {
			const struct carc_claim *cl = &rec->claims[rec->result_first + k];
			if (cl->points > best)
				best = cl->points, tops = 1, top = cl->colour;
			else if (cl->points == best)
				tops++;
		}
		if (tops == 1 && top != rec->winner)
			tag_fault(ps, CARC_E036, CARC_TAG_WINNER, "Winner %s, but the Result gives %s the highest score, %d",
				  carc_colour_name(rec->winner), carc_colour_name(top), best);
	}
	ps->line_bad = saved;
}

/* Resolves the known tags once the header is complete, and fills in the
 * defaults of the rule set. */
void cgn_finish_header(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	const char *v;
	bool saved = ps->line_bad;

	rec->rules = ps->r->rules->default_rules;
	if ((v = carc_record_tag(rec, CARC_TAG_RULES))) {
		/* most often the one the last game named (no two rule sets
		 * have the same name in any case, so it is the one
		 * carc_rulesets_find finds) */
		const struct carc_ruleset *rs = ps->r->rules_named;
		if (!rs || !same_name(v, rs->name))
			rs = carc_rulesets_find(ps->r->rules, v, strlen(v));
		if (rs) {
			rec->rules = ps->r->rules_named = rs;
		} else {
			no_rule_set(ps, v);
		}
	}
	rec->nexpansions = 0;
	if ((v = carc_record_tag(rec, CARC_TAG_EXPANSIONS)))
		parse_expansions(ps, v);
	const struct carc_ruleset *rs = rec->rules;
	cgn_set_roles(ps->r, rs);
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
	tournament_tags(ps);
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
	/* the loader's messages (a tile set's own errors) are the sink's that
	 * cgn_report did not count */
	unsigned before = ps->sink->errors, counted_before = rec->syntax_errors;
	struct carc_reader *r = ps->r;
	if (named_by == CARC_TAG_TILESET) {
		/* a path from a stranger: tileset_path.c applies the path policy */
		rec->tileset = carc_tileset_for_record(r->cache, r->name, carc_record_tag(rec, CARC_TAG_TILESET),
						       ps->sink, cgn_src_of(ps), at.off, at.len ? at.len : 1);
	} else if (tsname == r->tileset_name) {
		/* the rule set's (not a Tileset tag's), as in the last game: the
		 * cache has it (and would find it by its name) */
		rec->tileset = r->tileset;
	} else {
		rec->tileset = carc_tileset_cache_get(r->cache, tsname, ps->sink, named_by >= 0 ? cgn_src_of(ps) : NULL,
						      at.off, at.len ? at.len : 1);
		if (rec->tileset) {
			r->tileset_name = tsname;
			r->tileset = rec->tileset;
		}
	}
	if (rec->tileset && named_by == CARC_TAG_TILESET && rec->tileset->rules) {
		/* a set of an expansion's own tiles opens no game alone */
		const struct carc_tileset *ts = rec->tileset;
		const struct carc_ruleset *x = carc_rulesets_find(r->rules, ts->rules, strlen(ts->rules));
		if (x && x->expansion) {
			header_error(ps, CARC_E015, CARC_TAG_TILESET, "tile set '%s' holds only the tiles of the expansion %s, "
				     "which are played before a tile set's land tiles: write [Expansions \"%s\"]", ts->name,
				     x->name, x->name);
			rec->tileset = NULL;
		}
	}
	if (rec->tileset && rec->nexpansions)
		expansion_tiles(ps);
	if (!rec->tileset) {
		unsigned counted = rec->syntax_errors - counted_before;
		unsigned n = ps->sink->errors - before - counted;
		if (!n && !counted)
			n = 1;
		rec->syntax_errors += n;
		rec->header_errors += n;
	}
	if (rec->tileset && rec->tileset->start_tile < 0) {
		/* a set whose tiles join a base set's (joins: true), played alone */
		header_error(ps, CARC_E107, CARC_TAG_TILESET, "tile set '%s' has no start tile: its tiles join a base "
			     "set's supply (joins: true) and are not played alone", rec->tileset->name);
		rec->tileset = NULL;
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
		if (!cgn_result_fast(ps, t))
			cgn_parse_claims(&c, CARC_E012, &rec->result_first, &rec->result_count, "Result");
		if (!ps->line_bad) {
			rec->has_result = true;
			rec->result_span = t->value;
		} else {
			rec->header_errors++;
		}
	}
	ps->line_bad = saved;
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
bool cgn_read_plain_tag(struct parser *ps)
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
		near_tag(ps, ns, nlen);
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

