/*
 * clab.c - CarcassonneLab replay URLs into CGN and out of it (clab.h; the
 * encoding is in notation/bga.md).
 *
 * The stack is a number of up to a thousand base-24 digits, so it is kept
 * as an array of octal digits (the URL's own form: one base64url character
 * is two of them) and converted by long division or multiplication.
 */
#include "import/clab.h"

#include "import/bga.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

/* The moves' alphabet: value = index (no 0, I, O or l). */
static const char move_chars[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
static const char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#define MAX_ABS (int)(sizeof move_chars - 2) /* the largest |x| or |y|: 57 */
#define MAX_MOVES 1000                        /* no tile set has more tiles */
#define MAX_STACK_CHARS 1000                  /* 1001 base-24 digits need 766 */
#define MAX_NAME 200                          /* bytes of a player's name */
#define SIGN_X 16
#define SIGN_Y 32

/* The colours a URL can name, in CGN's words. */
static bool url_colour(int c)
{
	return c == CARC_RED || c == CARC_GREEN || c == CARC_BLUE || c == CARC_YELLOW || c == CARC_BLACK;
}

static int char_value(const char *alphabet, char c)
{
	const char *p = c ? strchr(alphabet, c) : NULL;
	return p ? (int)(p - alphabet) : -1;
}

/* ---- reading ---- */

struct cconv {
	const struct carc_src *src;
	struct carc_diag_sink *sink;
	struct carc_tileset_cache *cache;
	const struct carc_tileset *ts;
	const struct carc_ruleset *rules;
	struct carc_buf cgn;
	unsigned errors;
};

static void cfail(struct cconv *cv, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
	CARC_PRINTF(5, 6);

static void cfail(struct cconv *cv, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
{
	va_list ap;
	struct carc_buf msg = {0};
	va_start(ap, fmt);
	carc_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	carc_diag_report(cv->sink, code, cv->src, off, len ? len : 1, "%s", carc_buf_cstr(&msg));
	carc_buf_free(&msg);
	cv->errors++;
}

/* The stack's characters as base-24 digits, most significant first: exactly
 * want of them, or -1 after reporting. */
static int stack_digits(struct cconv *cv, size_t off, size_t len, int want, uint8_t *out)
{
	const char *s = cv->src->text + off;
	uint8_t *oct = xmalloc(2 * len);
	for (size_t i = 0; i < len; i++) {
		int v = char_value(b64_chars, s[i]);
		if (v < 0) {
			cfail(cv, CARC_E531, off + i, 1, "'%c' is not a base64url character (A-Z a-z 0-9 - _) in the tile "
			      "stack", s[i]);
			free(oct);
			return -1;
		}
		oct[2 * i] = (uint8_t)(v >> 3);
		oct[2 * i + 1] = (uint8_t)(v & 7);
	}
	/* long division by 24, most significant octal digit first */
	int n = 0;
	size_t len8 = 2 * len, first = 0;
	uint8_t digits[MAX_MOVES + 2];
	while (first < len8) {
		unsigned rem = 0;
		for (size_t i = first; i < len8; i++) {
			unsigned cur = rem * 8 + oct[i];
			oct[i] = (uint8_t)(cur / 24);
			rem = cur % 24;
		}
		while (first < len8 && !oct[first])
			first++;
		if (n == want) {
			cfail(cv, CARC_E531, off, len, "the tile stack holds more tiles than the start tile and one for "
			      "each of the %d moves and discards", want - 1);
			free(oct);
			return -1;
		}
		digits[n++] = (uint8_t)rem;
	}
	free(oct);
	if (n < want) { /* (the start tile's digit, 14, is never a leading zero) */
		cfail(cv, CARC_E531, off, len, "the tile stack holds %d tiles, too few for the start tile and one for each "
		      "of the %d moves and discards", n, want - 1);
		return -1;
	}
	for (int i = 0; i < want; i++)
		out[i] = digits[want - 1 - i];
	return want;
}

/* Appends the percent-decoded value of a query item ('+' is itself, as the
 * encoder writes a blank %20; control characters are blanked later in the
 * tag); false if an escape is malformed, is %00, or the bytes are not UTF-8. */
static bool percent_decode(const char *s, size_t n, struct carc_buf *out)
{
	size_t start = out->len;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			carc_buf_addc(out, s[i]);
			continue;
		}
		int hi = i + 2 < n ? char_value("0123456789abcdef", (char)(s[i + 1] | 0x20)) : -1;
		int lo = i + 2 < n ? char_value("0123456789abcdef", (char)(s[i + 2] | 0x20)) : -1;
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
			return false;
		carc_buf_addc(out, (char)(hi * 16 + lo));
		i += 2;
	}
	for (size_t i = start; i < out->len;) {
		unsigned char c = (unsigned char)out->data[i];
		size_t k = c < 0x80 ? 1 : carc_utf8_len(out->data + i, out->len - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

/* The query's value for key (after "key="), or NULL. */
static const char *query_value(const char *q, size_t n, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	for (size_t i = 0; i < n;) {
		size_t end = i;
		while (end < n && q[end] != '&')
			end++;
		if (end - i > klen && !memcmp(q + i, key, klen) && q[i + klen] == '=') {
			*len = end - i - klen - 1;
			return q + i + klen + 1;
		}
		i = end + 1;
	}
	return NULL;
}

/* The comma-separated items of a query value: count, and item i's slice. */
static int list_items(const char *v, size_t n, const char **item, size_t *len, int max)
{
	int k = 0;
	for (size_t i = 0; i <= n && k <= max;) {
		size_t end = i;
		while (end < n && v[end] != ',')
			end++;
		if (k < max) {
			item[k] = v + i;
			len[k] = end - i;
		}
		k++;
		i = end + 1;
	}
	return k;
}

/* Whether a name holds nothing but blanks and control characters (C0, DEL
 * and C1, which a tag's value turns into blanks): no name at all. */
static bool blank(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
			p++;
		else if (*p > ' ' && *p != 0x7f)
			return false;
	}
	return true;
}

/* Reads players= and colors=: the seats' colours and names into tags;
 * returns the number of seats, or 0 after reporting. */
static int read_players(struct cconv *cv, size_t qoff, size_t qlen, struct carc_buf *tags, int seats[5])
{
	const char *q = cv->src->text + qoff;
	size_t clen = 0, plen = 0;
	const char *colors = query_value(q, qlen, "colors", &clen), *players = query_value(q, qlen, "players", &plen);
	if (!colors) {
		cfail(cv, CARC_E533, qoff, qlen, "the URL has no colors= (the players' colours)");
		return 0;
	}
	const char *citem[6], *pitem[6];
	size_t cl[6], pl[6];
	int n = list_items(colors, clen, citem, cl, 6);
	if (n > 5) {
		cfail(cv, CARC_E533, (size_t)(colors - cv->src->text), clen, "colors= names %s colours; a game has 1 to 5",
		      "more than 5");
		return 0;
	}
	int np = players ? list_items(players, plen, pitem, pl, 6) : 0;
	if (players && np != n) {
		cfail(cv, CARC_E533, (size_t)(players - cv->src->text), plen, "players= names %d player%s but colors= %d",
		      np, np == 1 ? "" : "s", n);
		return 0;
	}
	unsigned taken = 0;
	for (int i = 0; i < n; i++) {
		int c = carc_colour_lookup(citem[i], cl[i]);
		if (c < 0 || !url_colour(c) || (taken & (1u << c))) {
			cfail(cv, CARC_E533, (size_t)(citem[i] - cv->src->text), cl[i], "'%.*s' is %s", (int)cl[i], citem[i],
			      c >= 0 && url_colour(c) ? "named twice in colors=" : "not a colour of the URL's (red, green, "
			      "blue, yellow, black)");
			return 0;
		}
		taken |= 1u << c;
		seats[i] = c;
	}
	carc_buf_adds(tags, "[Seats \"");
	for (int i = 0; i < n; i++)
		carc_buf_printf(tags, "%s%s", i ? " " : "", carc_colour_name(seats[i]));
	carc_buf_adds(tags, "\"]\n");
	struct carc_buf name = {0};
	for (int i = 0; i < np; i++) {
		carc_buf_reset(&name);
		if (!percent_decode(pitem[i], pl[i], &name) || name.len > MAX_NAME) {
			cfail(cv, CARC_E533, (size_t)(pitem[i] - cv->src->text), pl[i], "player name %d is %s", i + 1,
			      name.len > MAX_NAME ? "longer than 200 bytes" : "not percent-encoded UTF-8");
			carc_buf_free(&name);
			return 0;
		}
		if (!blank(carc_buf_cstr(&name))) { /* (a blank name is none: it would not come back) */
			char tag[16];
			snprintf(tag, sizeof tag, "%s", carc_colour_name(seats[i]));
			tag[0] = (char)(tag[0] - 'a' + 'A');
			carc_bga_add_tag(tags, tag, carc_buf_cstr(&name));
		}
	}
	carc_buf_free(&name);
	return n;
}

/* One URL at off (len bytes, blanks trimmed) to one game appended to cgn. */
static bool read_url(struct cconv *cv, size_t off, size_t len, const char *name, unsigned line)
{
	const char *s = cv->src->text + off, *hash = NULL;
	for (size_t i = 0; i + 1 < len && !hash; i++)
		if (s[i] == '#' && s[i + 1] == '/')
			hash = s + i;
	if (!hash) {
		cfail(cv, CARC_E530, off, len, "not a CarcassonneLab replay URL (https://www.carcassonnelab.com/#/0/0/"
		      "STACK/MOVES?players=...&colors=...): no \"#/\"");
		return false;
	}
	size_t at = (size_t)(hash - s) + 2;
	if (len - at < 4 || memcmp(s + at, "0/0", 3) || (s[at + 3] != '/' && s[at + 3] != '.')) {
		cfail(cv, CARC_E530, off + at, len - at < 4 ? len - at : 4, "the URL's version is not 0/0/ or 0/0.K/ "
		      "(the only ones carc reads)");
		return false;
	}
	at += 3;
	/* the discards: ".K" each, K the number of tiles placed before it */
	int discard_at[MAX_MOVES + 1], ndiscards = 0;
	while (s[at] == '.') {
		size_t k0 = ++at;
		long k = 0;
		while (at < len && s[at] >= '0' && s[at] <= '9' && k <= MAX_MOVES)
			k = k * 10 + (s[at++] - '0');
		if (at == k0 || k > MAX_MOVES || ndiscards == MAX_MOVES) {
			cfail(cv, CARC_E530, off + k0 - 1, at - k0 + 1, "a discard is '.K', K the number of tiles placed "
			      "before it (0 to %d, at most %d discards)", MAX_MOVES, MAX_MOVES);
			return false;
		}
		if (ndiscards && k < discard_at[ndiscards - 1]) {
			cfail(cv, CARC_E530, off + k0 - 1, at - k0 + 1, "a discard after %ld placed tiles follows one after "
			      "%d; discards are written in the order they were drawn", k, discard_at[ndiscards - 1]);
			return false;
		}
		discard_at[ndiscards++] = (int)k;
	}
	if (at == len || s[at] != '/') {
		cfail(cv, CARC_E530, off + at, 1, "the URL's version 0/0 is not followed by '/' or '.K' (a discard)");
		return false;
	}
	at++;
	size_t stack = at;
	while (at < len && s[at] != '/' && s[at] != '?')
		at++;
	size_t stack_len = at - stack;
	if (at == len || s[at] != '/' || !stack_len) {
		cfail(cv, CARC_E530, off + stack, stack_len, "the URL has no %s after 0/0/",
		      stack_len ? "'/' and moves" : "tile stack");
		return false;
	}
	size_t moves = ++at;
	while (at < len && s[at] != '?')
		at++;
	size_t moves_len = at - moves, query = at < len ? at + 1 : len;
	int nmoves = (int)(moves_len / 4);
	if (moves_len % 4 || nmoves + ndiscards > MAX_MOVES) {
		cfail(cv, CARC_E532, off + moves, moves_len, "the moves are %zu characters; they should be 4 a turn, for "
		      "at most %d turns and discards", moves_len, MAX_MOVES);
		return false;
	}
	if (ndiscards && discard_at[ndiscards - 1] > nmoves) {
		cfail(cv, CARC_E530, off + (size_t)(hash - s) + 2, stack - (size_t)(hash - s) - 3, "a discard after %d "
		      "placed tiles, but the URL has %d moves", discard_at[ndiscards - 1], nmoves);
		return false;
	}
	if (stack_len > MAX_STACK_CHARS) {
		cfail(cv, CARC_E531, off + stack, stack_len, "the tile stack is longer than %d characters",
		      MAX_STACK_CHARS);
		return false;
	}
	struct carc_buf tags = {0};
	int seats[5];
	int n = read_players(cv, off + query, len - query, &tags, seats);
	uint8_t digits[MAX_MOVES + 1];
	if (!n || stack_digits(cv, off + stack, stack_len, nmoves + ndiscards + 1, digits) < 0) {
		carc_buf_free(&tags);
		return false;
	}
	if (digits[0] != 14) {
		cfail(cv, CARC_E531, off + stack, stack_len, "the stack begins with tile type %d, not the start tile's "
		      "15 (D)", digits[0] + 1);
		carc_buf_free(&tags);
		return false;
	}
	if (name)
		carc_import_comment(&cv->cgn, "Imported from %s line %u, a CarcassonneLab URL, by carc import", name, line);
	else
		carc_import_comment(&cv->cgn, "Imported from a CarcassonneLab URL by carc import");
	carc_buf_add(&cv->cgn, tags.data, tags.len);
	carc_buf_addc(&cv->cgn, '\n');
	carc_buf_free(&tags);
	int drawn = 1, next_discard = 0; /* stack digits used: the start tile's first */
	for (int i = 0; i <= nmoves; i++) {
		/* the tiles discarded after i placements, by the player whose turn it is */
		for (; next_discard < ndiscards && discard_at[next_discard] == i; next_discard++) {
			const struct carc_bga_type *dt = carc_bga_type(digits[drawn++] + 1);
			carc_buf_printf(&cv->cgn, "%s %s discard\n", carc_colour_name(seats[i % n]),
					cv->ts->tiles[carc_bga_tile(cv->ts, dt)].id);
		}
		if (i == nmoves)
			break;
		const char *m = s + moves + 4 * (size_t)i;
		size_t moff = off + moves + 4 * (size_t)i;
		int col = char_value(move_chars, m[0]), row = char_value(move_chars, m[1]),
		    code = char_value(move_chars, m[2]);
		int bad = col < 0 ? 0 : row < 0 ? 1 : code < 0 || (code & ~(3 | SIGN_X | SIGN_Y)) ? 2
			: !(m[3] >= '0' && m[3] <= '9') ? 3 : -1;
		if (bad >= 0) {
			static const char *const what[] = {"column", "row", "rotation", "meeple position (a digit)"};
			cfail(cv, CARC_E532, moff + (size_t)bad, 1, "move %d: '%c' is not a %s", i + 1, m[bad], what[bad]);
			return false;
		}
		const struct carc_bga_type *bt = carc_bga_type(digits[drawn++] + 1);
		int tile = carc_bga_tile(cv->ts, bt), rot = (bt->turn + code) & 3;
		int x = code & SIGN_X ? -col : col, y = code & SIGN_Y ? row : -row; /* CGN's y = -row */
		carc_buf_printf(&cv->cgn, "%s %s %d,%d %d", carc_colour_name(seats[i % n]), cv->ts->tiles[tile].id, x, y,
				rot * 90);
		if (m[3] != '0') {
			int f = carc_bga_zone_feature(cv->ts, bt, m[3] - '0');
			if (f < 0) {
				cfail(cv, CARC_E532, moff + 3, 1, "move %d: tile type %d (%s) has no meeple position %c", i + 1,
				      bt->type, cv->ts->tiles[tile].id, m[3]);
				return false;
			}
			const struct carc_tile *t = &cv->ts->tiles[tile];
			int role = carc_bga_role(cv->rules, cv->ts->kinds[t->features[f].kind].name);
			carc_buf_printf(&cv->cgn, " %s %s", cv->rules->roles[role].name,
					carc_spot_name(carc_bga_spot(t, rot, f)));
		}
		carc_buf_addc(&cv->cgn, '\n');
	}
	return true;
}

bool carc_clab_import_each(const struct carc_src *src, const char *name,
			   void (*game)(void *ctx, const char *cgn, size_t len), void *ctx,
			   struct carc_diag_sink *sink)
{
	struct cconv cv = {.src = src, .sink = sink};
	cv.cache = carc_tileset_cache_new();
	cv.rules = carc_ruleset_default();
	cv.ts = carc_tileset_cache_get(cv.cache, cv.rules->tileset, sink, NULL, 0, 0);
	bool ok = cv.ts != NULL, all = ok;
	struct carc_buf one = {0};
	unsigned line = 1, urls = 0;
	for (size_t i = 0; ok && i < src->len; line++) {
		size_t end = i;
		while (end < src->len && src->text[end] != '\n')
			end++;
		size_t a = i, b = end;
		while (a < b && strchr(" \t\r", src->text[a]))
			a++;
		while (b > a && strchr(" \t\r", src->text[b - 1]))
			b--;
		if (a < b && src->text[a] != '#') {
			carc_buf_reset(&cv.cgn);
			carc_buf_reset(&one);
			urls++;
			cv.errors = 0;
			if (read_url(&cv, a, b - a, name, line) && carc_bga_finish(&cv.cgn, cv.cache, &one, src, sink))
				game(ctx, one.data, one.len);
			else
				all = false;
		}
		i = end + 1;
	}
	if (ok && !urls) {
		carc_diag_report(sink, CARC_E530, src, 0, 0, "no CarcassonneLab URL in the input");
		all = false;
	}
	carc_buf_free(&one);
	carc_buf_free(&cv.cgn);
	if (cv.cache)
		carc_tileset_cache_free(cv.cache);
	return all;
}

/* carc_clab_import's games, a blank line between them. */
static void append_game(void *ctx, const char *cgn, size_t len)
{
	struct carc_buf *games = ctx;
	if (games->len)
		carc_buf_addc(games, '\n');
	carc_buf_add(games, cgn, len);
}

bool carc_clab_import(const struct carc_src *src, const char *name, struct carc_buf *out,
		      struct carc_diag_sink *sink)
{
	struct carc_buf games = {0};
	bool ok = carc_clab_import_each(src, name, append_game, &games, sink);
	if (ok)
		carc_buf_add(out, games.data, games.len);
	carc_buf_free(&games);
	return ok;
}

/* ---- writing ---- */

/* A tag's span in the record, or the record's start when it is absent. */
static struct carc_span tag_span(const struct carc_record *rec, int tag)
{
	struct carc_span none = {0, 1};
	return rec->tag_index[tag] >= 0 ? rec->tags[rec->tag_index[tag]].span : none;
}

static void refuse(const struct carc_record *rec, struct carc_diag_sink *sink, struct carc_span at,
		   const char *fmt, ...) CARC_PRINTF(4, 5);

static void refuse(const struct carc_record *rec, struct carc_diag_sink *sink, struct carc_span at,
		   const char *fmt, ...)
{
	va_list ap;
	struct carc_buf msg = {0};
	va_start(ap, fmt);
	carc_buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	carc_diag_report(sink, CARC_E540, &rec->src, at.off, at.len, "%s; a CarcassonneLab URL cannot carry it",
			 carc_buf_cstr(&msg));
	carc_buf_free(&msg);
}

/* What the tags say that a URL cannot; false after reporting. */
static bool export_tags(const struct carc_record *rec, struct carc_diag_sink *sink)
{
	const char *ts = carc_record_tag(rec, CARC_TAG_TILESET), *start = carc_record_tag(rec, CARC_TAG_START);
	const struct carc_tile *d = rec->tileset ? &rec->tileset->tiles[rec->start_tile] : NULL;
	bool ok = true;
	if (rec->rules != carc_ruleset_default() || rec->nexpansions) {
		refuse(rec, sink, tag_span(rec, CARC_TAG_RULES), "the game is played by the %s rules", rec->rules->name);
		ok = false;
	}
	if (ts && strcmp(ts, "base")) {
		refuse(rec, sink, tag_span(rec, CARC_TAG_TILESET), "the tile set is '%s', not the base game's", ts);
		ok = false;
	}
	if (start && (!d || strcmp(d->id, "D") || rec->start_rot)) {
		refuse(rec, sink, tag_span(rec, CARC_TAG_START), "the start tile is %s, not D turned 0", start);
		ok = false;
	}
	if (rec->edition != 3) {
		refuse(rec, sink, tag_span(rec, CARC_TAG_EDITION), "the game is scored by edition %d (the URL's viewer "
		       "scores edition 3)", rec->edition);
		ok = false;
	}
	if (rec->followers != 7) {
		refuse(rec, sink, tag_span(rec, CARC_TAG_FOLLOWERS), "each colour has %d followers, not 7", rec->followers);
		ok = false;
	}
	if (rec->table_w) {
		refuse(rec, sink, tag_span(rec, CARC_TAG_TABLE), "the table has an edge");
		ok = false;
	}
	for (int i = 0; i < rec->nseats; i++)
		if (!url_colour(rec->seats[i]) || rec->nseats > 5) {
			refuse(rec, sink, tag_span(rec, CARC_TAG_SEATS), "%s plays (the URL knows red, green, blue, yellow "
			       "and black, five seats at most)", carc_colour_name(rec->seats[i]));
			return false;
		}
	/* a name import would refuse, or would not give back as it is */
	for (int i = 0; i < rec->nseats; i++) {
		const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[i]);
		size_t n = name ? strlen(name) : 0;
		bool control = false;
		for (size_t k = 0; k < n && !control; k++)
			control = (unsigned char)name[k] < 0x20 || name[k] == 0x7f ||
				  ((unsigned char)name[k] == 0xC2 && k + 1 < n && (unsigned char)name[k + 1] <= 0x9F);
		if (n > MAX_NAME || control) {
			refuse(rec, sink, tag_span(rec, CARC_TAG_KNOWN + rec->seats[i]), "%s's name %s",
			       carc_colour_name(rec->seats[i]), n > MAX_NAME ? "is longer than 200 bytes" :
			       "holds a control character (a tab), which import would turn into a blank");
			ok = false;
		}
	}
	return ok;
}

/* The zone of the follower a move deploys (0: none); -1 after reporting. */
static int export_zone(const struct carc_record *rec, const struct carc_move *m, const struct carc_bga_type *bt,
		       struct carc_diag_sink *sink)
{
	if (m->role < 0)
		return 0;
	const struct carc_tileset *ts = rec->tileset;
	const struct carc_tile *t = &ts->tiles[m->tile];
	int f = carc_bga_spot_feature(t, m->rot, m->spot);
	if (f < 0) {
		refuse(rec, sink, m->spot_span, "no feature of %s lies at %s", t->id, carc_spot_name(m->spot));
		return -1;
	}
	const char *kind = ts->kinds[t->features[f].kind].name;
	if (carc_bga_role(rec->rules, kind) != m->role) {
		refuse(rec, sink, m->role_span, "a %s on a %s", rec->rules->roles[m->role].name, kind);
		return -1;
	}
	return carc_bga_feature_zone(ts, bt, f);
}

/* Appends s percent-encoded as the encoder does (letters, digits and
 * -_.!~*'() as they are). */
static void percent_encode(struct carc_buf *out, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-_.!~*'()", *p))
			carc_buf_addc(out, (char)*p);
		else
			carc_buf_printf(out, "%%%02X", *p);
	}
}

bool carc_clab_export(const struct carc_record *rec, struct carc_buf *out, struct carc_diag_sink *sink)
{
	if (!export_tags(rec, sink))
		return false;
	/* the stack as octal digits, least significant first: 14 (type 15, D), then each tile */
	uint8_t *oct = xcalloc(4 * (rec->nmoves + 2), 1);
	size_t noct = 1;
	oct[0] = 6, oct[1] = 1; /* 14 = 016 */
	noct = 2;
	struct carc_buf moves = {0}, discards = {0};
	bool ok = true;
	size_t placed = 0; /* the turn: tiles placed so far */
	for (size_t i = 0; i < rec->nmoves && ok; i++) {
		const struct carc_move *m = &rec->moves[i];
		const struct carc_tile *t = &rec->tileset->tiles[m->tile];
		const struct carc_bga_type *bt = t->id[1] ? NULL : carc_bga_type_of(t->id[0]);
		int zone = 0;
		ok = false;
		if (m->colour != rec->seats[placed % (size_t)rec->nseats])
			refuse(rec, sink, m->colour_span, "%s plays turn %zu, out of the seats' order", carc_colour_name(m->colour),
			       placed + 1);
		else if (!bt)
			refuse(rec, sink, m->tile_span, "tile %s is not a base tile", t->id);
		else if (m->discard) /* ".K": K tiles were placed before it; the stack holds it */
			ok = (carc_buf_printf(&discards, ".%zu", placed), true);
		else if (m->x < -MAX_ABS || m->x > MAX_ABS || m->y < -MAX_ABS || m->y > MAX_ABS)
			refuse(rec, sink, m->coord_span, "%d,%d is more than %d tiles from the start tile", m->x, m->y, MAX_ABS);
		else if ((zone = export_zone(rec, m, bt, sink)) >= 0)
			ok = true;
		if (!ok)
			break;
		/* the stack: times 24, plus the type's digit */
		unsigned carry = (unsigned)bt->type - 1;
		for (size_t k = 0; k < noct || carry; k++) {
			unsigned v = (k < noct ? oct[k] * 24u : 0) + carry;
			oct[k] = (uint8_t)(v & 7);
			carry = v >> 3;
			if (k >= noct)
				noct = k + 1;
		}
		if (m->discard)
			continue;
		placed++;
		int by = -m->y, ori = (m->rot - bt->turn) & 3;
		int code = ori + (m->x < 0 ? SIGN_X : 0) + (by < 0 ? SIGN_Y : 0);
		carc_buf_printf(&moves, "%c%c%c%d", move_chars[abs(m->x)], move_chars[abs(by)], move_chars[code], zone);
	}
	if (ok) {
		carc_buf_adds(out, "https://www.carcassonnelab.com/#/0/0");
		carc_buf_add(out, discards.data, discards.len);
		carc_buf_addc(out, '/');
		if (noct & 1)
			oct[noct++] = 0;
		for (size_t k = noct; k >= 2; k -= 2)
			carc_buf_addc(out, b64_chars[oct[k - 1] * 8 + oct[k - 2]]);
		carc_buf_addc(out, '/');
		carc_buf_add(out, moves.data, moves.len);
		carc_buf_adds(out, "?players=");
		for (int i = 0; i < rec->nseats; i++) {
			const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[i]);
			if (i)
				carc_buf_addc(out, ',');
			percent_encode(out, name ? name : "");
		}
		carc_buf_adds(out, "&colors=");
		for (int i = 0; i < rec->nseats; i++)
			carc_buf_printf(out, "%s%s", i ? "," : "", carc_colour_name(rec->seats[i]));
		carc_buf_addc(out, '\n');
	}
	free(oct);
	carc_buf_free(&moves);
	carc_buf_free(&discards);
	return ok;
}
