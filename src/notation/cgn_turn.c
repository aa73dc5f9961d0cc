/*
 * cgn_turn.c - the grammar of turn lines: the general parser.
 *
 * Reads any turn line (cgn_parse_move), one function per rule of the
 * grammar (see cgn_int.h), and reports what is wrong with it, positioned.
 * The fast path (cgn_fast.c) reads the plain lines; every other line comes
 * here. Claims (cgn_parse_claims) are also the value of the Result tag,
 * spot references (cgn_parse_spot_ref) that of EndOrder.
 */
#include "notation/cgn_token.h"

/* Reports that the line ends before `what`, just after its last word. */
static void expect_more(struct cursor *c, const char *what)
{
	cgn_report(c->ps, CARC_E029, c->last, 1, "the turn ends here; expected %s", what);
}

/* claim = "=" score { "," score } ; the list without its "=", up to the end
 * of the cursor, into rec->claims (also the value of the Result tag). */
bool cgn_parse_claims(struct cursor *c, enum carc_code code, uint32_t *first, uint16_t *count, const char *what)
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
			cgn_report(c->ps, code, c->p < c->end ? c->p : c->last, 1,
				   "%s: expected a colour and its points, as in 'red 12, green 8'", what);
			return false;
		}
		int col = carc_colour_lookup(c->buf + s, n);
		if (col < 0) {
			cgn_report(c->ps, code, s, n, "%s: '%.*s' is not a colour (red green blue yellow black gray pink)%s",
				   what, (int)n, c->buf + s, cgn_dym_colour(c->buf + s, n));
			return false;
		}
		if (seen & (1u << col)) {
			cgn_report(c->ps, code, s, n, "%s: %s is given twice", what, carc_colour_name(col));
			return false;
		}
		seen |= 1u << col;
		skip_space(c, true);
		size_t ns, nn = word(c, &ns);
		long pts;
		if (c->ps->line_bad)
			return false;
		if (!nn || !parse_int(c->buf + ns, nn, 0, 99999, &pts)) {
			cgn_report(c->ps, code, nn ? ns : s, nn ? nn : n, "%s: %s needs its points, a whole number from 0 to 99999",
				   what, carc_colour_name(col));
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
			cgn_report(c->ps, code, wn ? ws : c->p, wn, "%s: expected a comma before '%.*s', as in 'red 12, green 8'",
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

/* spot-ref = SPOT | COORD ":" SPOT ; the word at s. Reports with `code`. */
bool cgn_parse_spot_ref(struct cursor *c, size_t s, size_t n, enum carc_code code, const char *what,
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
			cgn_report(c->ps, code, s, end - s, "%s: '%.*s' is not a spot or x,y:SPOT", what, (int)(end - s),
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
		cgn_report(c->ps, code, it->span.off, it->span.len, "%s: '%.*s' is not a spot (N E S W, NNW NNE ... WNW, C, I)%s",
			   what, (int)it->span.len, c->buf + it->span.off, cgn_dym_spot(spot, spot_len));
		return false;
	}
	it->spot = (uint8_t)sp;
	return true;
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
			cgn_report(c->ps, CARC_E028, c->p, 1, "unexpected '%c' in the order", c->buf[c->p]);
			return false;
		}
		if (!cgn_parse_spot_ref(c, s, n, CARC_E026, "order", &it))
			return false;
		GROW(rec, order, norder, order_cap);
		rec->order[rec->norder++] = it;
	}
	m->order_count = (uint16_t)(rec->norder - m->order_first);
	if (!m->order_count) {
		cgn_report(c->ps, CARC_E029, kw, 5, "order needs at least one spot: the features in the order they score");
		return false;
	}
	return true;
}

/* The role named by the word at s: its index in the game's roles; -1,
 * reported, when it is none (nor reported when the rules are unknown). A
 * role of an expansion the game does not play gets the expansion's code. */
static int role_words(struct parser *ps, const char *name, size_t len, size_t s, size_t n);
static int role_word(struct parser *ps, const char *buf, size_t s, size_t n)
{
	return role_words(ps, buf + s, n, s, n);
}

/* The role named name (len bytes: one word, or two words with one blank
 * between them), written at s (n bytes) of the line: as role_word. */
static int role_words(struct parser *ps, const char *name, size_t len, size_t s, size_t n)
{
	const struct carc_ruleset *rs = ps->rec->rules;
	int role = -1;
	for (int i = 0; i < rs->nroles && role < 0; i++)
		if (len == ps->r->role_len[i] && ieq(name, rs->roles[i].name, len))
			role = i;
	if (role >= 0 || ps->rules_bad)
		return role;
	const struct carc_ruleset *x = carc_rulesets_expansion_with_role(ps->r->rules, name, len);
	if (x && x->off_code) {
		cgn_report(ps, (enum carc_code)x->off_code, s, n,
			   "'%.*s' is a figure of %s, which this game does not play (add [Expansions \"%s\"])", (int)len,
			   name, x->title, x->name);
		return -1;
	}
	char roles[256] = "";
	for (int i = 0; i < rs->nroles; i++)
		snprintf(roles + strlen(roles), sizeof roles - strlen(roles), "%s%s", i ? ", " : "", rs->roles[i].name);
	if (carc_spot_lookup(name, len) >= 0)
		cgn_report(ps, CARC_E025, s, n, "'%.*s' is a spot; write the role first, as in %s %.*s", (int)len, name,
			   rs->roles[0].name, (int)len, name);
	else
		cgn_report(ps, CARC_E025, s, n, "'%.*s' is not a role in %s games (%s)%s", (int)len, name, rs->name, roles,
			   cgn_dym_role(rs, name, len));
	return -1;
}

/* deploy = [ ROLE-WORD ] ROLE SPOT ; the first word is at s. A role word
 * is the first of a two-word role's name in some rule set ("big" of "big
 * knight": carc_rulesets_role_word_before): the role is then both words, written
 * with blanks between them and read as if one blank. */
static bool parse_deploy(struct cursor *c, struct carc_move *m, size_t s, size_t n)
{
	struct parser *ps = c->ps;
	int role;
	size_t rn = n; /* the role's span: one word or both */
	if (carc_rulesets_role_word_before(ps->r->rules, c->buf + s, n)) {
		skip_space(c, true);
		size_t s2, n2 = word(c, &s2);
		if (ps->line_bad)
			return false;
		if (!n2) {
			expect_more(c, "a role after the role word (as in big knight N)");
			return false;
		}
		char name[64];
		if (n + 1 + n2 >= sizeof name) {
			cgn_report(ps, CARC_E025, s, s2 + n2 - s, "'%.*s' is not a role", (int)(s2 + n2 - s), c->buf + s);
			return false;
		}
		memcpy(name, c->buf + s, n);
		name[n] = ' ';
		memcpy(name + n + 1, c->buf + s2, n2);
		rn = s2 + n2 - s;
		role = role_words(ps, name, n + 1 + n2, s, rn);
	} else {
		role = role_word(ps, c->buf, s, n);
	}
	if (role < 0 && !ps->rules_bad)
		return false;
	m->role = (int8_t)role;
	m->role_span = span(s, rn);
	skip_space(c, true);
	size_t ss, sn = word(c, &ss);
	if (ps->line_bad)
		return false;
	if (!sn) {
		expect_more(c, "a spot after the role (N E S W, NNW NNE ENE ESE SSE SSW WSW WNW, C or I)");
		return false;
	}
	int spot = carc_spot_lookup(c->buf + ss, sn);
	if (spot < 0) {
		cgn_report(ps, CARC_E026, ss, sn, "'%.*s' is not a spot: an edge N E S W, a half-edge NNW NNE ENE ESE SSE "
			   "SSW WSW WNW, C or I%s", (int)sn, c->buf + ss, cgn_dym_spot(c->buf + ss, sn));
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

/* recall = "return" ROLE ; the figure taken back instead of deploying
 * (The Abbot's "return abbot"), after the keyword at kw. */
static bool parse_return(struct cursor *c, struct carc_move *m, size_t kw)
{
	struct parser *ps = c->ps;
	const struct carc_ruleset *rs = ps->rec->rules;
	skip_space(c, true);
	size_t s, n = 0;
	if (!at_end(c) && c->buf[c->p] != '=')
		n = word(c, &s);
	if (ps->line_bad)
		return false;
	if (!n) {
		expect_more(c, "the role of the figure taken back after 'return', as in return abbot");
		return false;
	}
	int role = role_word(ps, c->buf, s, n);
	if (role < 0 && !ps->rules_bad)
		return false;
	if (role >= 0 && !rs->roles[role].recall) {
		char roles[128] = "";
		for (int i = 0; i < rs->nroles; i++)
			if (rs->roles[i].recall)
				snprintf(roles + strlen(roles), sizeof roles - strlen(roles), "%s%s", roles[0] ? ", " : "",
					 rs->roles[i].name);
		if (roles[0])
			cgn_report(ps, CARC_E025, s, n, "a %s is not taken back: return takes back only the %s", rs->roles[role].name,
				   roles);
		else
			cgn_report(ps, CARC_E025, s, n, "a %s is not taken back: return takes back no figure in %s games",
				   rs->roles[role].name, rs->name);
		return false;
	}
	m->recall = (int8_t)role;
	m->role_span = span(s, n);
	m->deploy_span = span(kw, s + n - kw);
	return true;
}

/* turn-mark = NUMBER "." | NUMBER "+" | "+" ; when the line starts with one */
static bool parse_turn_mark(struct cursor *c, struct carc_move *m)
{
	struct parser *ps = c->ps;
	if (!(c->p < c->end && ((c->buf[c->p] >= '0' && c->buf[c->p] <= '9') || c->buf[c->p] == '+')))
		return true;
	size_t s, n = word(c, &s);
	if (!n)
		return false;
	char last = c->buf[s + n - 1];
	long num = -1;
	bool ok = (last == '.' || last == '+') && (n == 1 ? last == '+' : parse_int(c->buf + s, n - 1, 1, 99999, &num));
	if (!ok) {
		size_t d = 0;
		while (d < n && c->buf[s + d] >= '0' && c->buf[s + d] <= '9')
			d++;
		if (d && d < n - 1 && (c->buf[s + d] == '.' || c->buf[s + d] == '+'))
			cgn_report(ps, CARC_E020, s, n, "'%.*s': put a blank after the turn number %.*s", (int)n, c->buf + s,
				   (int)d + 1, c->buf + s);
		else
			cgn_report(ps, CARC_E020, s, n,
				   "'%.*s' is not a turn number; write it as 12. (or 12+ for a bonus turn), from 1 to 99999",
				   (int)n, c->buf + s);
		return false;
	}
	m->number = span(s, n);
	m->turn = (int32_t)num;
	m->bonus = last == '+';
	return true;
}

/* The next word after blanks, where the `where` of the turn should be: its
 * length, its start in *s; 0 when there is none (reported: `what` was
 * expected there) or it has a bad byte (reported by word). */
static size_t expected_word(struct cursor *c, size_t *s, const char *where, const char *what)
{
	skip_space(c, true);
	size_t n = word(c, s);
	if (c->ps->line_bad)
		return 0;
	if (!n) {
		if (c->p < c->end)
			cgn_report(c->ps, CARC_E028, c->p, 1, "unexpected '%c' where the %s should be", c->buf[c->p], where);
		else
			expect_more(c, what);
	}
	return n;
}

/* COLOUR TILE */
static bool parse_colour_tile(struct cursor *c, struct carc_move *m)
{
	struct parser *ps = c->ps;
	const struct carc_tileset *ts = ps->rec->tileset;
	size_t s, n;
	if (!(n = expected_word(c, &s, "colour", "a colour")))
		return false;
	int col = carc_colour_lookup(c->buf + s, n);
	if (col < 0) {
		cgn_report(ps, CARC_E021, s, n, "'%.*s' is not a colour (red green blue yellow black gray pink)%s", (int)n,
			   c->buf + s, cgn_dym_colour(c->buf + s, n));
		return false;
	}
	m->colour = (uint8_t)col;
	m->colour_span = span(s, n);
	if (!(n = expected_word(c, &s, "tile", "the tile drawn")))
		return false;
	m->tile_span = span(s, n);
	if (ts && !ps->rules_bad) {
		unsigned char l = (unsigned char)c->buf[s];
		int t = n == 1 && l < 128 && ts->by_letter[l] ? ts->by_letter[l] - 1 : carc_tileset_find(ts, c->buf + s, n);
		/* a garden tile without The Abbot: its plain twin */
		if (t < 0 && (t = carc_tileset_find_twin(ts, c->buf + s, n, NULL)) >= 0)
			ps->rec->twins = true;
		if (t < 0) {
			cgn_report(ps, CARC_E022, s, n, "'%.*s' is not a tile of tile set %s (carc tiles lists them)%s", (int)n,
				   c->buf + s, ts->name, cgn_dym_tile(ts, c->buf + s, n));
			return false;
		}
		m->tile = (uint16_t)t;
	}
	return true;
}

/* Skips blanks to the next word of the deployment part: false at its end
 * (the line's, or the claim's '='); else the word's start and length. */
static bool next_word(struct cursor *c, size_t *s, size_t *n)
{
	skip_space(c, true);
	if (at_end(c) || c->buf[c->p] == '=')
		return false;
	*n = word(c, s);
	return true;
}

/* [ deploy | recall ] [ order ] ; after the rotation, up to the claim or the end */
static bool parse_deploy_order(struct cursor *c, struct carc_move *m)
{
	struct parser *ps = c->ps;
	struct carc_record *rec = ps->rec;
	size_t s, n;
	if (!next_word(c, &s, &n))
		return true;
	if (ps->line_bad)
		return false;
	if (!n) {
		cgn_report(ps, CARC_E028, c->p, 1, "unexpected '%c' after the rotation", c->buf[c->p]);
		return false;
	}
	if (!is_keyword(c, s, n, "order", 5)) {
		if (n == 1 && c->buf[s] == '-')
			m->deploy_span = span(s, 1);
		else if (is_keyword(c, s, n, "return", 6) ? !parse_return(c, m, s) : !parse_deploy(c, m, s, n))
			return false;
		if (!next_word(c, &s, &n))
			return true;
		if (ps->line_bad)
			return false;
		if (!n || !is_keyword(c, s, n, "order", 5)) {
			cgn_report(ps, CARC_E028, n ? s : c->p, n, "unexpected '%.*s' after the deployment",
				   (int)(n ? n : 1), c->buf + (n ? s : c->p));
			return false;
		}
	}
	if (!(rec->rules->flags & CARC_RS_ORDERS) && !ps->rules_bad) {
		cgn_report(ps, CARC_E028, s, n, "'order' is only written in solo games");
		return false;
	}
	return parse_order(c, m, s);
}

/* placement = POSITION ROTATION [ deploy ] [ order ] ; the position's first
 * word is at s */
static bool parse_placement(struct cursor *c, struct carc_move *m, size_t s, size_t n)
{
	struct parser *ps = c->ps;
	size_t cend = s + n;
	if (!parse_coord(c, s, n, &m->x, &m->y, &cend)) {
		if (!ps->line_bad)
			cgn_report(ps, CARC_E023, s, cend - s,
				   "'%.*s' is not a position: write x,y with whole numbers from %d to %d, no blanks",
				   (int)(cend - s), c->buf + s, -MAX_COORD, MAX_COORD);
		return false;
	}
	m->coord_span = span(s, cend - s);
	if (!(n = expected_word(c, &s, "rotation", "a rotation (0, 90, 180 or 270)")))
		return false;
	const char *w = c->buf + s;
	int rot = n == 1 && w[0] == '0' ? 0
		  : n == 2 && !memcmp(w, "90", 2) ? 1
		  : n == 3 && !memcmp(w, "180", 3) ? 2
		  : n == 3 && !memcmp(w, "270", 3) ? 3 : -1;
	if (rot < 0) {
		cgn_report(ps, CARC_E024, s, n, "'%.*s' is not a rotation: 0, 90, 180 or 270 degrees clockwise", (int)n, w);
		return false;
	}
	m->rot = (uint8_t)rot;
	m->rot_span = span(s, n);
	return parse_deploy_order(c, m);
}

/* [ claim ] ; what is left of the line: a claim, or nothing */
static bool parse_claim_tail(struct cursor *c, struct carc_move *m)
{
	struct parser *ps = c->ps;
	skip_space(c, true);
	if (at_end(c))
		return true;
	if (c->buf[c->p] != '=') {
		size_t s, n = word(c, &s);
		if (ps->line_bad)
			return false;
		cgn_report(ps, CARC_E028, n ? s : c->p, n, "unexpected '%.*s'; a turn line ends with an optional claim "
			   "= colour points, ...", (int)(n ? n : 1), c->buf + (n ? s : c->p));
		return false;
	}
	size_t cs = c->p++;
	if (!cgn_parse_claims(c, CARC_E027, &m->claim_first, &m->claim_count, "claim"))
		return false;
	m->has_claim = true;
	m->claim_span = span(cs, c->last - cs);
	return true;
}

/* turn-line = [ turn-mark ] COLOUR TILE ( placement | "discard" ) [ claim ] ;
 * into a new move of the record, marked bad (with the first error reported)
 * when it is not one */
void cgn_parse_move(struct parser *ps)
{
	struct carc_record *rec = ps->rec;
	struct cursor c = {ps, ps->text, ps->line_start, ps->line_end, ps->line_start};
	skip_space(&c, false); /* comments before the turn, on its line */
	struct carc_move *m = cgn_new_move(rec);
	rec->has_moves = true;
	size_t line_from = c.p;
	size_t s, n;
	if (!parse_turn_mark(&c, m) || !parse_colour_tile(&c, m) ||
	    !(n = expected_word(&c, &s, "position", "a position x,y and a rotation, or discard")))
		goto bad;
	if (is_keyword(&c, s, n, "discard", 7)) {
		m->discard = true;
		m->coord_span = span(s, n);
	} else if (!parse_placement(&c, m, s, n)) {
		goto bad;
	}
	if (!parse_claim_tail(&c, m))
		goto bad;
	m->line = span(line_from, c.last - line_from);
	return;
bad:
	m->bad = true;
	size_t e = c.end;
	while (e > line_from && is_blank(c.buf[e - 1]))
		e--;
	m->line = span(line_from, e - line_from);
}

