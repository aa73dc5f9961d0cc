/*
 * report_text.c - the score report for people (text) and for spreadsheets
 * (CSV): two writers of the walk (report.h). A CSV row's "scored" field is
 * the text's list of scorings, so both share event_text. No printf on the
 * paths a turn takes (decimal.h).
 */
#include "output/report.h"

#include "common/decimal.h"
#include "common/width.h"

#include <string.h>

/* ---- text ---- */

struct text {
	struct carc_buf *out;
	const struct carc_report_head *h;
	const struct carc_record *rec;
	bool color;
	bool quiet;    /* not refereed: the head says so, nothing follows */
	bool in_final; /* between final_begin and final_end */
	size_t events; /* the events written on this line, or in the final scoring */
	int held[CARC_MAX_TALLIES][CARC_COLOURS]; /* the rules' tallies after the last turn written */
};

static const char *const ansi[CARC_COLOURS] = {"\033[31m", "\033[32m", "\033[34m", "\033[33m", "\033[90m",
					       "\033[37m", "\033[35m"};

/* Appends a literal: its length known when compiling, so copied inline. */
#define ADD_LIT(out, lit) carc_buf_add((out), (lit), sizeof(lit) - 1)

static void colour_word(struct carc_buf *out, int c, bool color)
{
	if (color)
		carc_buf_adds(out, ansi[c]);
	carc_buf_adds(out, carc_colour_name(c));
	if (color)
		ADD_LIT(out, "\033[0m");
}

/* " (name)" after a colour with a player's name */
static void player_name(struct carc_buf *out, const struct carc_record *rec, int colour)
{
	const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + colour);
	if (name) {
		ADD_LIT(out, " (");
		carc_buf_adds(out, name);
		carc_buf_addc(out, ')');
	}
}

/* The colours of mask, in seat order, ", " between; each followed by
 * " +points" when points >= 0, by its player's name when names. */
static bool colour_list(struct carc_buf *out, const struct carc_record *rec, uint8_t mask, bool color,
			bool first, long points, bool names)
{
	for (int s = 0; s < rec->nseats; s++) {
		int c = rec->seats[s];
		if (!(mask & (1u << c)))
			continue;
		if (!first)
			ADD_LIT(out, ", ");
		colour_word(out, c, color);
		if (points >= 0) {
			ADD_LIT(out, " +");
			carc_buf_addint(out, points);
		}
		if (names)
			player_name(out, rec, c);
		first = false;
	}
	return first;
}

/* "city (2 tiles, 1 pennant): green +6" */
static void event_text(struct carc_buf *out, const struct carc_record *rec, const struct carc_report_event *it,
		       bool color)
{
	const struct carc_event *ev = it->ev;
	carc_buf_adds(out, it->lead);
	carc_buf_adds(out, it->feature);
	if (ev->type == CARC_EV_FARM) {
		ADD_LIT(out, " as a farm (");
		carc_buf_addint(out, ev->cities);
		carc_buf_adds(out, ev->cities == 1 ? " city" : " cities");
	} else {
		ADD_LIT(out, " (");
		carc_buf_addint(out, ev->tiles);
		ADD_LIT(out, " tile");
		if (ev->tiles != 1)
			carc_buf_addc(out, 's');
	}
	if (ev->items) {
		ADD_LIT(out, ", ");
		carc_buf_addint(out, ev->items);
		carc_buf_addc(out, ' ');
		carc_buf_adds(out, ev->items == 1 ? it->bonus_one : it->bonus_many);
	}
	ADD_LIT(out, "): ");
	if (!ev->winners && !ev->skipped) {
		ADD_LIT(out, "nobody");
		return;
	}
	bool first = true;
	if (ev->bonus_to & ev->winners) { /* points more to some winners (The Traders' pig) */
		for (int s = 0; s < rec->nseats; s++)
			if (ev->winners >> rec->seats[s] & 1)
				first = colour_list(out, rec, (uint8_t)(1u << rec->seats[s]), color, first,
						    carc_event_points_of(ev, rec->seats[s]), false);
	} else {
		first = colour_list(out, rec, ev->winners, color, true, ev->points, false);
	}
	for (int s = 0; s < rec->nseats; s++) {
		int c = rec->seats[s];
		if (!(ev->skipped & (1u << c)))
			continue;
		if (!first)
			ADD_LIT(out, ", ");
		colour_word(out, c, color);
		ADD_LIT(out, " not paid");
		first = false;
	}
	if (it->why) {
		ADD_LIT(out, " (");
		carc_buf_adds(out, it->why);
		carc_buf_addc(out, ')');
	}
}

static void pad_to(struct carc_buf *out, size_t line_start, size_t col)
{
	if (out->len - line_start < col)
		carc_buf_spaces(out, col - (out->len - line_start));
}

/* The colours' names (or values) in columns of 7. */
static void seat_columns(struct carc_buf *out, const struct carc_record *rec, const int *v)
{
	for (int s = 0; s < rec->nseats; s++)
		if (v)
			carc_buf_addint_w(out, v[rec->seats[s]], 7);
		else
			carc_buf_adds_w(out, carc_colour_name(rec->seats[s]), 7);
}

/* "Standings after turn 4: red 3, green 6" */
static void totals_line(struct text *t, const char *what, int turn, const int *v)
{
	struct carc_buf *out = t->out;
	carc_buf_adds(out, what);
	carc_buf_addint(out, turn);
	carc_buf_addc(out, ':');
	for (int s = 0; s < t->rec->nseats; s++) {
		carc_buf_adds(out, s ? ", " : " ");
		colour_word(out, t->rec->seats[s], t->color);
		carc_buf_addc(out, ' ');
		carc_buf_addint(out, v[t->rec->seats[s]]);
	}
	carc_buf_addc(out, '\n');
}

static void text_head(void *w, const struct carc_report_head *h)
{
	struct text *t = w;
	const struct carc_record *rec = h->rec;
	struct carc_buf *out = t->out;
	const char *ev_name = carc_record_tag(rec, CARC_TAG_EVENT), *date = carc_record_tag(rec, CARC_TAG_DATE);
	t->h = h;
	t->rec = rec;
	carc_buf_printf(out, "Game %u of %s", rec->index, rec->src.name);
	if (ev_name)
		carc_buf_printf(out, ": %s", ev_name);
	if (date)
		carc_buf_printf(out, " (%s)", date);
	carc_buf_printf(out, "\nRules %s, edition %d, tile set %s\nPlayers:", rec->rules->name, h->res->edition,
			rec->tileset ? rec->tileset->name : "?");
	for (int s = 0; s < rec->nseats; s++) {
		carc_buf_adds(out, s ? ", " : " ");
		colour_word(out, rec->seats[s], t->color);
		player_name(out, rec, rec->seats[s]);
	}
	carc_buf_addc(out, '\n');
	if (h->res->result_only) {
		/* a game whose moves were not recorded: its outcome, as written */
		carc_buf_adds(out, "Not refereed: the moves of this game were not recorded.\n");
		if (rec->termination)
			carc_buf_printf(out, "Termination: %s\n", carc_termination_name(rec->termination));
		if (rec->winner < CARC_COLOURS) {
			carc_buf_adds(out, "Winner: ");
			colour_word(out, rec->winner, t->color);
			player_name(out, rec, rec->winner);
			carc_buf_addc(out, '\n');
		}
		if (h->res->final_scored) {
			carc_buf_adds(out, "Final scores (the Result, taken as written):");
			for (int s = 0; s < rec->nseats; s++)
				carc_buf_printf(out, "%s%s %d", s ? ", " : " ", carc_colour_name(rec->seats[s]),
						h->res->scores[rec->seats[s]]);
			carc_buf_addc(out, '\n');
		}
		t->quiet = true;
	} else if (!h->res->refereed) {
		carc_buf_adds(out, "Not refereed: the tags have errors (see the messages).\n");
		t->quiet = true;
	}
}

/* the per-turn table's columns */
enum { C_TURN = 0, C_PLAYER = 6, C_TILE = 14, C_AT = 20, C_ROT = 30, C_DEPLOY = 35, C_SCORES = 48 };

static void text_turns_begin(void *w)
{
	struct text *t = w;
	struct carc_buf *out = t->out;
	size_t nseats = (size_t)t->rec->nseats;
	bool projected = t->h->opts->projected;
	if (t->quiet)
		return;
	size_t ls = out->len;
	if (projected) { /* a line over the two groups of columns */
		carc_buf_addc(out, '\n');
		ls = out->len;
		pad_to(out, ls, C_SCORES + 7 * nseats - 5);
		carc_buf_adds(out, "score");
		pad_to(out, ls, C_SCORES + 7 * nseats + 2 + 7 * nseats - 9);
		carc_buf_adds(out, "projected");
		ls = out->len;
	}
	static const struct { size_t col; const char *name; } head[] = {
		{C_PLAYER, "player"}, {C_TILE, "tile"}, {C_AT, "at"}, {C_ROT, "rot"}, {C_DEPLOY, "deploy"}};
	carc_buf_adds(out, "\n turn");
	ls++;
	for (size_t i = 0; i < CARC_ARRAY_LEN(head); i++) {
		pad_to(out, ls, head[i].col);
		carc_buf_adds(out, head[i].name);
	}
	pad_to(out, ls, C_SCORES);
	seat_columns(out, t->rec, NULL);
	if (projected) {
		carc_buf_adds(out, "  ");
		seat_columns(out, t->rec, NULL);
	}
	carc_buf_adds(out, "  scored\n");
}

static void text_turn_begin(void *w, const struct carc_report_turn *it)
{
	struct text *t = w;
	struct carc_buf *out = t->out;
	const struct carc_turn *turn = it->turn;
	if (t->quiet)
		return;
	size_t ls = out->len;
	carc_buf_addint_w(out, turn->number, 4);
	carc_buf_addc(out, turn->bonus ? '+' : ' ');
	pad_to(out, ls, C_PLAYER);
	size_t before = out->len;
	colour_word(out, turn->colour, t->color);
	ls += out->len - before - strlen(carc_colour_name(turn->colour)); /* escapes take no columns */
	pad_to(out, ls, C_TILE);
	carc_buf_add(out, it->tile, it->tile_len);
	pad_to(out, ls, C_AT);
	if (turn->discard) {
		carc_buf_adds(out, "discard");
	} else {
		carc_buf_addint(out, it->x);
		carc_buf_addc(out, ',');
		carc_buf_addint(out, it->y);
		pad_to(out, ls, C_ROT);
		carc_buf_addint(out, it->rotation);
		pad_to(out, ls, C_DEPLOY);
		if (it->role) {
			carc_buf_adds(out, it->role);
			carc_buf_addc(out, ' ');
			carc_buf_adds(out, it->spot);
		} else if (it->recall) {
			carc_buf_adds(out, "return ");
			carc_buf_adds(out, it->recall);
		}
	}
	pad_to(out, ls, C_SCORES);
	seat_columns(out, t->rec, it->scores);
	if (it->projected) {
		carc_buf_adds(out, "  ");
		seat_columns(out, t->rec, it->projected);
	}
	if (turn->illegal)
		carc_buf_adds(out, "  ILLEGAL");
	t->events = 0;
}

static void text_event(void *w, const struct carc_report_event *it)
{
	struct text *t = w;
	if (t->quiet)
		return;
	if (t->in_final) /* a line each */
		carc_buf_adds(t->out, "  ");
	else /* on the turn's line */
		carc_buf_adds(t->out, t->events ? "; " : "  ");
	t->events++;
	event_text(t->out, t->rec, it, t->color);
	if (t->in_final)
		carc_buf_addc(t->out, '\n');
}

/* Under a turn that changed the rules' tallies (Traders & Builders' goods
 * tokens), a line with the tallies that changed, as they stand after it,
 * and who gained or lost: "        held: wine red 0, blue 1 (blue +1)".
 * Nothing for rules that keep no tallies, nor for a turn that changed none. */
static void held_changes(struct text *t, const struct carc_report_turn *it)
{
	int n = it->ntallies < CARC_MAX_TALLIES ? it->ntallies : CARC_MAX_TALLIES, written = 0;
	for (int i = 0; i < n; i++) {
		bool changed = false;
		for (int k = 0; k < t->rec->nseats; k++)
			changed |= it->tallies[i][t->rec->seats[k]] != t->held[i][t->rec->seats[k]];
		if (!changed)
			continue;
		carc_buf_adds(t->out, written++ ? "; " : "        held: ");
		carc_buf_printf(t->out, "%s ", it->tally_names[i]);
		for (int k = 0; k < t->rec->nseats; k++) {
			int c = t->rec->seats[k];
			if (k)
				ADD_LIT(t->out, ", ");
			colour_word(t->out, c, t->color);
			carc_buf_printf(t->out, " %d", it->tallies[i][c]);
		}
		ADD_LIT(t->out, " (");
		for (int k = 0, m = 0; k < t->rec->nseats; k++) {
			int c = t->rec->seats[k], d = it->tallies[i][c] - t->held[i][c];
			if (!d)
				continue;
			if (m++)
				ADD_LIT(t->out, ", ");
			colour_word(t->out, c, t->color);
			carc_buf_printf(t->out, " %+d", d);
		}
		carc_buf_addc(t->out, ')');
		memcpy(t->held[i], it->tallies[i], sizeof t->held[i]);
	}
	if (written)
		carc_buf_addc(t->out, '\n');
}

static void text_turn_end(void *w, const struct carc_report_turn *it)
{
	struct text *t = w;
	if (t->quiet)
		return;
	if (it->order && !strcmp(it->order, "chosen"))
		carc_buf_adds(t->out, "  [order chosen by carc]");
	carc_buf_addc(t->out, '\n');
	held_changes(t, it);
}

static void text_final_begin(void *w)
{
	struct text *t = w;
	if (t->quiet)
		return;
	carc_buf_adds(t->out, "\nFinal scoring\n");
	t->in_final = true;
	t->events = 0;
}

static void text_final_end(void *w)
{
	struct text *t = w;
	if (!t->quiet && !t->events)
		carc_buf_adds(t->out, "  nothing to score\n");
	t->in_final = false;
}

static void text_breakdown(void *w, const struct carc_report_breakdown *b)
{
	struct text *t = w;
	struct carc_buf *out = t->out;
	const struct carc_record *rec = t->rec;
	if (t->quiet)
		return;
	/* the numbers start at column 26, or further when a label of the
	 * rule set needs it (solo's "followers left on the map") */
	size_t col = 26;
	for (int src = 0; src < CARC_SRC_COUNT; src++)
		if (2 + strlen(b->label[src]) + 1 > col)
			col = 2 + strlen(b->label[src]) + 1;
	carc_buf_adds(out, "\nBreakdown");
	size_t ls = out->len - 9;
	pad_to(out, ls, col);
	seat_columns(out, rec, NULL);
	carc_buf_addc(out, '\n');
	for (int src = 0; src < CARC_SRC_COUNT; src++) {
		bool any = b->always[src]; /* the others only when they paid */
		for (int s = 0; s < rec->nseats && !any; s++)
			any = b->points[src][rec->seats[s]] != 0;
		if (!any)
			continue;
		ls = out->len;
		carc_buf_adds(out, "  ");
		carc_buf_adds(out, b->label[src]);
		pad_to(out, ls, col);
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_addint_w(out, b->points[src][rec->seats[s]], 7);
		carc_buf_addc(out, '\n');
	}
	ls = out->len;
	carc_buf_adds(out, "  total");
	pad_to(out, ls, col);
	seat_columns(out, rec, b->total);
	carc_buf_addc(out, '\n');
}

/* "Held at the end: wine red 1, blue 2; grain ...": the rules' tallies. */
static void tallies_line(struct text *t, const struct carc_report_standings *s)
{
	if (!s->ntallies)
		return;
	if (t->h->final)
		carc_buf_adds(t->out, "\nHeld at the end: ");
	else
		carc_buf_printf(t->out, "Held after turn %d: ", s->after_turn);
	for (int i = 0; i < s->ntallies; i++) {
		carc_buf_printf(t->out, "%s%s ", i ? "; " : "", s->tally_names[i]);
		for (int k = 0; k < t->rec->nseats; k++) {
			int c = t->rec->seats[k];
			if (k)
				ADD_LIT(t->out, ", ");
			colour_word(t->out, c, t->color);
			carc_buf_printf(t->out, " %d", s->tallies[i][c]);
		}
	}
	carc_buf_addc(t->out, '\n');
}

static void text_standings(void *w, const struct carc_report_standings *s)
{
	struct text *t = w;
	const struct carc_report_opts *o = t->h->opts;
	const struct carc_result *res = t->h->res;
	if (t->quiet)
		return;
	if (t->h->final) {
		tallies_line(t, s);
		return;
	}
	totals_line(t, "\nStandings after turn ", s->after_turn, s->scores);
	if (s->projected)
		totals_line(t, "Projected final after turn ", s->after_turn, s->projected);
	tallies_line(t, s);
	if (!o->turn)
		carc_buf_adds(t->out, "No final scoring: the game is unfinished (--final scores it as if it ended here).\n");
	else if (res->finished)
		carc_buf_printf(t->out, "The game ended on turn %d; its final scoring is shown without --turn.\n",
				res->last_turn);
}

static void text_outcome(void *w, const struct carc_report_outcome *o)
{
	struct text *t = w;
	struct carc_buf *out = t->out;
	const struct carc_record *rec = t->rec;
	if (t->quiet || !o->final)
		return;
	if (o->no_winner) {
		if (o->forced && o->forced_colour >= 0) {
			carc_buf_printf(out, "\nThe game ended after turn %d: ", o->end_turn);
			colour_word(out, o->forced_colour, t->color);
			carc_buf_adds(out, " had to deploy a follower and had none left.\n");
		}
		carc_buf_printf(out, "\nResult: %d (the score of the colour last on the track: ", o->result);
		colour_list(out, rec, o->last, t->color, true, -1, false);
		carc_buf_adds(out, ")\n");
		return;
	}
	carc_buf_adds(out, __builtin_popcount(o->winners) > 1 ? "\nWinners (tied): " : "\nWinner: ");
	colour_list(out, rec, o->winners, t->color, true, -1, true);
	for (int s = 0; s < rec->nseats; s++)
		if (o->winners & (1u << rec->seats[s])) {
			carc_buf_printf(out, " with %d points", t->h->res->scores[rec->seats[s]]);
			break;
		}
	carc_buf_addc(out, '\n');
}

static void text_features_begin(void *w)
{
	struct text *t = w;
	carc_buf_adds(t->out, "\nFeatures\n");
}

/* "  the city at N of E (0,1): 2 tiles, 1 pennant, complete; followers:
 * red knight (turn 1, on the map); turn 2: red +4" */
static void text_feature(void *w, const struct carc_report_feature *f)
{
	struct text *t = w;
	struct carc_buf *out = t->out;
	carc_buf_adds(out, "  ");
	carc_buf_adds(out, f->name);
	carc_buf_printf(out, ": %d tile%s", f->ntiles, f->ntiles == 1 ? "" : "s");
	for (size_t i = 0; i < f->ncounts; i++)
		if (f->counts[i].n)
			carc_buf_printf(out, ", %d %s", f->counts[i].n, f->counts[i].n == 1 ? f->counts[i].one : f->counts[i].key);
	carc_buf_adds(out, f->complete ? ", complete" : "");
	for (size_t i = 0; i < f->nfollowers; i++) {
		const struct carc_follower *fl = f->followers[i];
		carc_buf_adds(out, i ? ", " : "; followers: ");
		colour_word(out, fl->colour, t->color);
		carc_buf_printf(out, " %s (turn %d, %s)", t->rec->rules->roles[fl->role].name, fl->turn,
				fl->active ? "on the map" : "taken off");
	}
	for (size_t i = 0; i < f->nevents; i++) {
		const struct carc_event *ev = f->events[i];
		carc_buf_adds(out, "; ");
		if (ev->turn)
			carc_buf_printf(out, "turn %d: ", ev->turn);
		else
			carc_buf_adds(out, "final: ");
		if (colour_list(out, t->rec, ev->winners, t->color, true, ev->points, false))
			carc_buf_adds(out, "nobody");
	}
	carc_buf_addc(out, '\n');
}

static const struct carc_report_writer text_writer = {
	.head = text_head,
	.turns_begin = text_turns_begin,
	.turn_begin = text_turn_begin,
	.event = text_event,
	.turn_end = text_turn_end,
	.final_begin = text_final_begin,
	.final_end = text_final_end,
	.breakdown = text_breakdown,
	.standings = text_standings,
	.outcome = text_outcome,
	.features_begin = text_features_begin,
	.feature = text_feature,
};

void carc_report_text(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o)
{
	struct text t = {.out = out, .color = o->color};
	carc_report_walk(res, o, &text_writer, &t);
}

/* ---- CSV ---- */

/* Does a CSV field with this text need quotes? */
static bool csv_quoted(const char *s, size_t n)
{
	if (n > 16)
		return memchr(s, ',', n) || memchr(s, '"', n) || memchr(s, '\n', n) || memchr(s, '\r', n);
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			return true;
	return false;
}

/* Would a spreadsheet take this cell for a formula? OWASP's list of first
 * characters (= + - @, tab, carriage return), except a plain number (-3,
 * +1.5), which stays a number. */
static bool csv_formula(const char *s, size_t n)
{
	if (!n || !(s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r'))
		return false;
	size_t i = 1, digits = 0;
	if (s[0] != '+' && s[0] != '-')
		return true;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (digits && i < n && s[i] == '.')
		for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
	return !digits || i < n || s[n - 1] == '.';
}

/* Writes one CSV field: quoted when it holds a comma, quote or line end
 * (RFC 4180), and a cell a spreadsheet would take for a formula quoted with
 * a ' before it, as OWASP advises ("=1+2" is written "'=1+2"). */
static void csv_field(struct carc_buf *out, const char *s, size_t n)
{
	if (n && csv_formula(s, n)) {
		carc_buf_adds(out, "\"'");
	} else if (!csv_quoted(s, n)) {
		carc_buf_add(out, s, n);
		return;
	} else {
		carc_buf_addc(out, '"');
	}
	for (const char *q; n && (q = memchr(s, '"', n)); n -= (size_t)(q + 1 - s), s = q + 1) {
		carc_buf_add(out, s, (size_t)(q + 1 - s));
		carc_buf_addc(out, '"');
	}
	carc_buf_add(out, s, n);
	carc_buf_addc(out, '"');
}

void carc_report_csv_field(struct carc_buf *out, const char *s, size_t n)
{
	csv_field(out, s, n);
}

/* ---- cells of the other commands' text tables ---- */

/* s as shown, at most CARC_CELL_MAX columns (then cut, with "…");
 * returns its columns. */
static size_t cell_text(struct carc_buf *out, const char *s)
{
	size_t n = strnlen(s, 4 * CARC_CELL_MAX + 4); /* (enough for the cap's characters and one more) */
	struct carc_buf shown = {0};
	carc_text_shown(&shown, s, n);
	/* columns, as a terminal shows them (a Chinese character two, a
	 * combining accent none); keep: the bytes that fit in CARC_CELL_MAX - 1 */
	size_t chars = 0, i = 0, keep = 0, keptw = 0, len;
	for (; i < shown.len; i += len) {
		int w = carc_utf8_width(shown.data + i, shown.len - i, &len);
		if (chars + (size_t)w <= CARC_CELL_MAX - 1 && keep == i) {
			keep = i + len;
			keptw = chars + (size_t)w;
		}
		chars += (size_t)w;
	}
	bool cut = chars > CARC_CELL_MAX || s[n];
	if (cut) {
		carc_buf_add(out, shown.data, keep);
		carc_buf_adds(out, "\xe2\x80\xa6"); /* U+2026 */
		chars = keptw + 1;
	} else {
		carc_buf_add(out, shown.data, shown.len);
	}
	carc_buf_free(&shown);
	return chars;
}

size_t carc_report_cell_width(const char *s)
{
	struct carc_buf scratch = {0};
	size_t w = cell_text(&scratch, s);
	carc_buf_free(&scratch);
	return w;
}

void carc_report_cell(struct carc_buf *out, const char *s, size_t width, bool pad)
{
	size_t w = cell_text(out, s);
	if (width > CARC_CELL_MAX)
		width = CARC_CELL_MAX;
	for (; pad && w < width; w++)
		carc_buf_addc(out, ' ');
}

void carc_report_csv_header(struct carc_buf *out, bool projected)
{
	carc_buf_adds(out, "file,game,line,offset,id,turn,colour,tile,x,y,rotation,deploy,scored");
	for (int c = 0; c < CARC_COLOURS; c++) {
		carc_buf_addc(out, ',');
		carc_buf_adds(out, carc_colour_name(c));
	}
	for (int c = 0; projected && c < CARC_COLOURS; c++) {
		carc_buf_adds(out, ",projected_");
		carc_buf_adds(out, carc_colour_name(c));
	}
	carc_buf_adds(out, ",held\n");
}

/* A short text padded with zeros to 16 bytes, so that it is copied whole
 * (no call, no branch on its length); made when first needed. */
struct word {
	char text[16];
	uint8_t len;
	bool tried, made;
};

/* Makes w of a, or of "a b" when b is given; false when too long. */
static bool word_ready(struct word *w, const char *a, const char *b)
{
	if (w->tried)
		return w->made;
	size_t na = strlen(a), nb = b ? strlen(b) : 0, n = na + (b ? 1 + nb : 0);
	w->tried = true;
	w->made = n <= sizeof w->text;
	if (w->made) {
		memcpy(w->text, a, na);
		if (b) {
			w->text[na] = ' ';
			memcpy(w->text + na + 1, b, nb);
		}
		w->len = (uint8_t)n;
	}
	return w->made;
}

static char *word_put(char *d, const struct word *w)
{
	memcpy(d, w->text, sizeof w->text);
	return d + w->len;
}

/* Copies n bytes of s, 16 at a time: up to 15 bytes past n are read from
 * s (which has them) and written at d (which has room). */
static char *put_padded(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i += 16)
		memcpy(d + i, s + i, 16);
	return d + n;
}

struct csv {
	struct carc_buf *out;
	const struct carc_report_head *h;
	struct word colour[CARC_COLOURS];
	struct word deploy[CARC_MAX_ROLES][CARC_SPOT_COUNT]; /* "farmer NNW", by role and spot */
	struct carc_buf game;  /* the first columns of every row: file,game,line,offset,id */
	struct carc_buf cell;  /* the "scored" field being made */
	struct carc_buf held;  /* the "held" field of the total row (the tallies at the end) */
	uint8_t seated[CARC_COLOURS]; /* the seated colours, in colour order ... */
	uint8_t gap[CARC_COLOURS];    /* ... each after this many commas */
	int nseated;
	uint8_t tail;                 /* the commas after the last */
	bool quiet;            /* not refereed: no rows */
	bool in_final;         /* between final_begin and final_end: a row an event */
	size_t events;         /* in the cell */
	int nheld;             /* the tallies in held (0: none) */
};

static void csv_head(void *w, const struct carc_report_head *h)
{
	struct csv *c = w;
	const struct carc_record *rec = h->rec;
	c->h = h;
	c->quiet = !h->res->refereed;
	unsigned mask = 0;
	for (int s = 0; s < rec->nseats; s++)
		mask |= 1u << rec->seats[s];
	int last = -1;
	for (int k = 0; k < CARC_COLOURS; k++)
		if (mask >> k & 1) {
			c->seated[c->nseated] = (uint8_t)k;
			c->gap[c->nseated++] = (uint8_t)(k - last);
			last = k;
		}
	c->tail = (uint8_t)(CARC_COLOURS - 1 - last);
	csv_field(&c->game, rec->src.name, strlen(rec->src.name));
	carc_buf_addc(&c->game, ',');
	carc_buf_addint(&c->game, rec->index);
	carc_buf_addc(&c->game, ',');
	carc_buf_addint(&c->game, rec->src.base_line);
	carc_buf_addc(&c->game, ',');
	char num[CARC_DECIMAL_MAX];
	char *p = num + sizeof num;
	uint64_t u = h->opts->offset;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	carc_buf_add(&c->game, p, (size_t)(num + sizeof num - p));
	carc_buf_addc(&c->game, ',');
	carc_buf_adds(&c->game, h->id);
	carc_buf_reserve(&c->game, 16); /* (for put_padded) */
}

/* The values of v for the seated colours (seated[], in colour order, after
 * gap[] commas each), and the commas of the colours after them; returns
 * the end. */
static char *csv_values(const struct csv *c, char *d, const int *v)
{
	for (int i = 0; i < c->nseated; i++) {
		memset(d, ',', 8);
		d += c->gap[i];
		d = carc_decimal_put(d, v[c->seated[i]]);
	}
	memset(d, ',', 8);
	return d + c->tail;
}

/* "wine red 1, blue 2; grain red 0, blue 0; ...": the rules' tallies, as
 * the text's Held line words them (no colours), the seated colours in
 * order of play. */
static void held_text(struct carc_buf *out, const struct carc_record *rec, int n, const char *const *names,
		      const int (*tallies)[CARC_COLOURS])
{
	for (int i = 0; i < n; i++) {
		if (i)
			ADD_LIT(out, "; ");
		carc_buf_adds(out, names[i]);
		for (int k = 0; k < rec->nseats; k++) {
			int col = rec->seats[k];
			carc_buf_adds(out, k ? ", " : " ");
			carc_buf_adds(out, carc_colour_name(col));
			carc_buf_addc(out, ' ');
			carc_buf_addint(out, tallies[i][col]);
		}
	}
}

/* Ends a row: the "held" field (empty when the rules keep no tallies). */
static void csv_row_end(struct csv *c, int n, const char *const *names, const int (*tallies)[CARC_COLOURS])
{
	if (!n) {
		ADD_LIT(c->out, ",\n");
		return;
	}
	c->held.len = 0;
	held_text(&c->held, c->h->rec, n, names, tallies);
	carc_buf_addc(c->out, ',');
	csv_field(c->out, c->held.data, c->held.len);
	carc_buf_addc(c->out, '\n');
}

/* The scores of the seated colours (others empty); then, with --projected,
 * the projections (empty when v is); the row's end is the caller's. */
static void csv_scores(struct csv *c, const int *scores, const int *projected)
{
	struct carc_buf *out = c->out;
	int groups = c->h->opts->projected ? 2 : 1;
	carc_buf_reserve(out, (size_t)groups * (CARC_COLOURS * (CARC_DECIMAL_MAX + 1) + 8) + 1);
	char *d = out->data + out->len;
	for (int group = 0; group < groups; group++) {
		const int *v = group ? projected : scores;
		if (v) {
			d = csv_values(c, d, v);
		} else {
			memset(d, ',', CARC_COLOURS);
			d += CARC_COLOURS;
		}
	}
	*d = '\0';
	out->len = (size_t)(d - out->data);
}

/* Whether a tile's name goes into CSV as it is, and is short. */
static bool csv_plain_tile(const char *s, size_t n)
{
	return n <= 8 && !csv_quoted(s, n);
}

enum { ROW_ROOM = 16 + 1 + CARC_DECIMAL_MAX + 2 + 16 + 1 + 8 + 3 * (1 + CARC_DECIMAL_MAX) + 1 + 16 + 2 };

/* A usual row's first fields (those of csv_turn_begin) written at once;
 * false (nothing written) when a word is too long, the tile needs quotes
 * or a figure is taken back. */
static bool csv_row_begin(struct csv *c, const struct carc_report_turn *it)
{
	const struct carc_turn *t = it->turn;
	struct word *colour = &c->colour[t->colour];
	struct word none = {.tried = true, .made = true}; /* (no deployment: an empty word) */
	struct word *deploy = it->role && !t->discard ? &c->deploy[it->role_id][it->spot_id] : &none;
	if (it->recall || !word_ready(colour, carc_colour_name(t->colour), NULL) ||
	    !word_ready(deploy, it->role, it->spot) || !csv_plain_tile(it->tile, it->tile_len))
		return false;
	struct carc_buf *out = c->out;
	carc_buf_reserve(out, c->game.len + ROW_ROOM);
	char *d = put_padded(out->data + out->len, c->game.data, c->game.len);
	*d++ = ',';
	d = carc_decimal_put(d, t->number);
	*d = '+';
	d += t->bonus;
	*d++ = ',';
	d = word_put(d, colour);
	*d++ = ',';
	for (size_t i = 0; i < it->tile_len; i++)
		*d++ = it->tile[i];
	if (t->discard) {
		memcpy(d, ",,,,discard,", 12);
		d += 12;
	} else {
		*d++ = ',';
		d = carc_decimal_put(d, it->x);
		*d++ = ',';
		d = carc_decimal_put(d, it->y);
		*d++ = ',';
		d = carc_decimal_put(d, it->rotation);
		*d++ = ',';
		d = word_put(d, deploy);
		*d++ = ',';
	}
	*d = '\0';
	out->len = (size_t)(d - out->data);
	return true;
}

static void csv_turn_begin(void *w, const struct carc_report_turn *it)
{
	struct csv *c = w;
	struct carc_buf *out = c->out;
	const struct carc_turn *t = it->turn;
	if (c->quiet)
		return;
	c->cell.len = 0;
	c->events = 0;
	if (csv_row_begin(c, it))
		return;
	carc_buf_add(out, c->game.data, c->game.len);
	carc_buf_addc(out, ',');
	carc_buf_addint(out, t->number);
	if (t->bonus)
		carc_buf_addc(out, '+');
	carc_buf_addc(out, ',');
	carc_buf_adds(out, carc_colour_name(t->colour));
	carc_buf_addc(out, ',');
	csv_field(out, it->tile, it->tile_len);
	if (t->discard) { /* no x, y or rotation; "discard" in deploy */
		carc_buf_adds(out, ",,,,discard,");
	} else {
		carc_buf_addc(out, ',');
		carc_buf_addint(out, it->x);
		carc_buf_addc(out, ',');
		carc_buf_addint(out, it->y);
		carc_buf_addc(out, ',');
		carc_buf_addint(out, it->rotation);
		carc_buf_addc(out, ',');
		if (it->role) {
			carc_buf_adds(out, it->role);
			carc_buf_addc(out, ' ');
			carc_buf_adds(out, it->spot);
		} else if (it->recall) {
			carc_buf_adds(out, "return ");
			carc_buf_adds(out, it->recall);
		}
		carc_buf_addc(out, ',');
	}
}

static void csv_event(void *w, const struct carc_report_event *it)
{
	struct csv *c = w;
	if (c->quiet)
		return;
	if (c->in_final) {
		carc_buf_add(c->out, c->game.data, c->game.len);
		carc_buf_adds(c->out, ",final,,,,,,,");
		c->cell.len = 0;
		event_text(&c->cell, c->h->rec, it, false);
		csv_field(c->out, c->cell.data, c->cell.len);
		csv_scores(c, NULL, NULL);
		csv_row_end(c, 0, NULL, NULL);
		return;
	}
	if (c->events++)
		carc_buf_adds(&c->cell, "; ");
	event_text(&c->cell, c->h->rec, it, false);
}

static void csv_final_begin(void *w)
{
	struct csv *c = w;
	c->in_final = true;
}

static void csv_turn_end(void *w, const struct carc_report_turn *it)
{
	struct csv *c = w;
	if (c->quiet)
		return;
	csv_field(c->out, c->cell.data ? c->cell.data : "", c->cell.len);
	csv_scores(c, it->scores, it->projected);
	csv_row_end(c, it->ntallies, it->tally_names, it->tallies);
}

/* The standings come before the outcome: the tallies at the end, kept for
 * the total row. */
static void csv_standings(void *w, const struct carc_report_standings *s)
{
	struct csv *c = w;
	c->nheld = 0;
	if (c->quiet || !s->ntallies)
		return;
	c->nheld = s->ntallies;
	c->held.len = 0;
	held_text(&c->held, c->h->rec, s->ntallies, s->tally_names, s->tallies);
}

static void csv_outcome(void *w, const struct carc_report_outcome *o)
{
	struct csv *c = w;
	if (c->quiet || !o->final)
		return;
	carc_buf_add(c->out, c->game.data, c->game.len);
	carc_buf_adds(c->out, ",total,,,,,,,");
	csv_scores(c, c->h->res->scores, NULL);
	if (c->nheld) {
		carc_buf_addc(c->out, ',');
		csv_field(c->out, c->held.data, c->held.len);
		carc_buf_addc(c->out, '\n');
	} else {
		ADD_LIT(c->out, ",\n");
	}
}

static const struct carc_report_writer csv_writer = {
	.head = csv_head,
	.turn_begin = csv_turn_begin,
	.event = csv_event,
	.turn_end = csv_turn_end,
	.final_begin = csv_final_begin,
	.standings = csv_standings,
	.outcome = csv_outcome,
};

void carc_report_csv(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o)
{
	struct csv c = {.out = out};
	carc_report_walk(res, o, &csv_writer, &c);
	carc_buf_free(&c.game);
	carc_buf_free(&c.cell);
	carc_buf_free(&c.held);
}
