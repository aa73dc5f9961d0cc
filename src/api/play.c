/*
 * play.c - group 2 of <carc.h>: a new game played move by move, its legal
 * moves, clones, its CGN, and random games.
 *
 * A played game is a CGN record that grows by a line a move: the header it
 * was started with, then a turn line for each move played. Playing a move
 * writes its line and has check's reader and referee replay the game (see
 * api_int.h); an error on the line refuses the move with check's code and
 * message, and the line goes. The library adds only what a record does not
 * say: the shuffled supply and the tile drawn from it (as `carc gen` deals
 * it), and the list of legal moves, which comes from the engine's
 * placements (carc_game_legal_places) and the deployments of the
 * generator (carc_deploy_choices) on a scratch copy of the engine with the
 * tile placed.
 */
#include "api/api_int.h"
#include "import/gen.h"
#include "notation/format.h"
#include "rules/module.h"
#include "rules/rules.h"
#include "rules/solo.h"

#include <stdlib.h>
#include <string.h>

struct api_play {
	size_t header_len;          /* the text before the first turn line */
	struct carc_rng rng;
	uint16_t *supply;           /* land tiles in draw order, then the bonus tiles */
	uint8_t *taken;
	size_t nsupply, total;      /* land tiles; with the bonus tiles */
	/* the land tiles are drawn from stacks: one for the game, or one a
	 * seat (the solo variant's: its gen_draw hook) */
	int nstacks;
	size_t stack_next[CARC_COLOURS], stack_end[CARC_COLOURS];
	size_t bonus_next;
	bool bonus_due;             /* the next turn is a bonus turn (gen_bonus_due) */
	int drawn;                  /* the tile drawn, -1: none */
	int drawn_seat;
	bool drawn_bonus;
	bool must_deploy;           /* gen_must_deploy */
	/* a scratch replay for the deployments of each placement */
	struct carc_game *scratch;
	int32_t *xs, *ys;
	uint8_t *rots;
	int places_cap;
	struct api_diag last;       /* the refused move's diagnostic */
	struct carc_buf last_text;
	bool has_last;
};

/* A bonus turn draws from the bonus stack (Hunters and Gatherers' gold),
 * or, in a tile set with none (The Traders' builder), the next land tile
 * of the stack the seat draws from, as carc gen does. */
static bool bonus_from_land(const struct api_play *p)
{
	return p->total == p->nsupply;
}

/* Is a tile left for a bonus turn of seat? */
static bool bonus_left(const struct api_play *p, int seat)
{
	int k = p->nstacks == 1 ? 0 : seat;
	return bonus_from_land(p) ? p->stack_next[k] < p->stack_end[k] : p->bonus_next < p->total;
}

void api_play_free(struct api_play *p)
{
	if (!p)
		return;
	free(p->supply);
	free(p->taken);
	carc_game_free(p->scratch);
	free(p->xs);
	free(p->ys);
	free(p->rots);
	carc_buf_free(&p->last_text);
	free(p);
}

/* ---- moves as text ---- */

size_t carc_move_format(const carc_move_spec *mv, char *buf, size_t cap)
{
	struct carc_buf b = {0};
	if (mv) {
		carc_buf_adds(&b, mv->tile);
		if (mv->discard) {
			carc_buf_adds(&b, " discard");
		} else {
			carc_buf_printf(&b, " %d,%d %d", mv->x, mv->y, mv->rotation);
			if (mv->role[0])
				carc_buf_printf(&b, " %s %s", mv->role, mv->spot);
			else if (mv->recall[0])
				carc_buf_printf(&b, " return %s", mv->recall);
			if (mv->order[0])
				carc_buf_printf(&b, " order %s", mv->order);
		}
	}
	size_t n = api_out(&b, buf, cap);
	if (!b.len && buf && cap)
		buf[0] = 0;
	carc_buf_free(&b);
	return n;
}

/* The next blank-separated word of *p, into w (cap bytes); false at the
 * end or when it does not fit. */
static bool word(const char **p, char *w, size_t cap)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = 0;
	while (s[n] && s[n] != ' ' && s[n] != '\t')
		n++;
	if (!n || n >= cap)
		return false;
	memcpy(w, s, n);
	w[n] = 0;
	*p = s + n;
	return true;
}

int carc_move_parse(const char *text, carc_move_spec *mv)
{
	if (!text || !mv)
		return CARC_EINVAL;
	memset(mv, 0, sizeof *mv);
	const char *p = text;
	char w[64];
	if (!word(&p, mv->tile, sizeof mv->tile) || !word(&p, w, sizeof w))
		return CARC_ESYNTAX;
	if (!strcmp(w, "discard")) {
		mv->discard = 1;
		return word(&p, w, sizeof w) ? CARC_ESYNTAX : CARC_OK;
	}
	char end;
	if (sscanf(w, "%d,%d%c", &mv->x, &mv->y, &end) != 2 || !word(&p, w, sizeof w) ||
	    sscanf(w, "%d%c", &mv->rotation, &end) != 1)
		return CARC_ESYNTAX;
	/* the rest: [ "return" ROLE | ROLE... SPOT | "-" ] [ "order" ...];
	 * a role may be more than one word, the spot is the last */
	char words[8][64];
	int n = 0;
	bool order = false;
	while (n < 8 && word(&p, words[n], sizeof words[n])) {
		if (!strcmp(words[n], "order")) {
			order = true;
			break;
		}
		n++;
	}
	if (order) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || strlen(p) >= sizeof mv->order)
			return CARC_ESYNTAX;
		api_copy(mv->order, sizeof mv->order, p);
	} else if (n == 8) {
		return CARC_ESYNTAX;
	}
	if (n == 0 || (n == 1 && !strcmp(words[0], "-")))
		return CARC_OK;
	char *into = mv->role;
	size_t cap = sizeof mv->role;
	int first = 0, last = n - 1;
	if (!strcmp(words[0], "return")) {
		into = mv->recall;
		cap = sizeof mv->recall;
		first = 1;
		last = n;
	} else {
		if (n < 2 || strlen(words[n - 1]) >= sizeof mv->spot)
			return CARC_ESYNTAX;
		api_copy(mv->spot, sizeof mv->spot, words[n - 1]);
	}
	if (first >= last)
		return CARC_ESYNTAX;
	struct carc_buf b = {0};
	for (int i = first; i < last; i++)
		carc_buf_printf(&b, "%s%s", i > first ? " " : "", words[i]);
	bool fits = b.len < cap;
	api_copy(into, cap, carc_buf_cstr(&b));
	carc_buf_free(&b);
	return fits ? CARC_OK : CARC_ESYNTAX;
}

/* ---- a new game ---- */

/* The words of a blank-separated list, each looked up by fn; false with
 * why when one is unknown. */
static void fail_why(char *why, size_t cap, const char *fmt, const char *what)
{
	if (why && cap)
		snprintf(why, cap, fmt, what);
}

/* The modules of the game (with play hooks). */
static int modules(const carc_match *m, const struct carc_play_hooks **mods)
{
	const struct carc_ruleset *all[1 + CARC_MAX_EXPANSIONS];
	int n = carc_rules_of(&m->rec, all), k = 0;
	for (int i = 0; i < n; i++)
		if (all[i]->play)
			mods[k++] = all[i]->play;
	return k;
}

/* Deals the supply as `carc gen` does: the land tiles (the start tile
 * taken out) shuffled, the bonus tiles shuffled after them. */
static void deal(carc_match *m, const struct carc_play_hooks **mods, int nmods)
{
	struct api_play *p = m->play;
	const struct carc_tileset *ts = m->rec.tileset;
	p->supply = xmalloc((size_t)(ts->total + ts->bonus_total + 1) * sizeof *p->supply);
	p->taken = xcalloc((size_t)(ts->total + ts->bonus_total + 1), 1);
	p->nsupply = 0;
	for (int i = 0; i < ts->ntiles; i++) {
		if (ts->tiles[i].bonus)
			continue;
		int n = ts->tiles[i].count - (i == m->rec.start_tile);
		for (int k = 0; k < n; k++)
			p->supply[p->nsupply++] = (uint16_t)i;
	}
	for (size_t i = p->nsupply; i > 1; i--) {
		size_t j = carc_rng_below(&p->rng, (uint32_t)i);
		uint16_t t = p->supply[i - 1];
		p->supply[i - 1] = p->supply[j];
		p->supply[j] = t;
	}
	p->total = p->bonus_next = p->nsupply;
	for (int i = 0; i < ts->ntiles; i++)
		for (int k = 0; ts->tiles[i].bonus && k < ts->tiles[i].count; k++)
			p->supply[p->total++] = (uint16_t)i;
	for (size_t i = p->total - p->nsupply; i > 1; i--) {
		size_t j = carc_rng_below(&p->rng, (uint32_t)i);
		uint16_t t = p->supply[p->nsupply + i - 1];
		p->supply[p->nsupply + i - 1] = p->supply[p->nsupply + j];
		p->supply[p->nsupply + j] = t;
	}
	bool per_seat = false;
	for (int k = 0; k < nmods; k++) {
		per_seat |= mods[k]->gen_draw != NULL;
		p->must_deploy |= mods[k]->gen_must_deploy;
	}
	p->nstacks = per_seat ? m->rec.nseats : 1;
	size_t at = 0;
	for (int i = 0; i < p->nstacks; i++) {
		p->stack_next[i] = at;
		at += per_seat ? (size_t)carc_solo_stack_size((int)p->nsupply, m->rec.nseats, i) : p->nsupply;
		p->stack_end[i] = at;
	}
}

carc_match *carc_match_new(const carc_setup *setup, char *why, size_t cap)
{
	carc_setup none = {0};
	const carc_setup *s = setup ? setup : &none;
	const struct carc_ruleset *rs = s->rules ? carc_ruleset_find(s->rules, strlen(s->rules)) : carc_ruleset_default();
	if (!rs || rs->expansion) {
		fail_why(why, cap, "no base rule set is called \"%s\"", s->rules);
		return NULL;
	}
	struct carc_rng rng;
	carc_rng_seed(&rng, s->seed);
	uint8_t seats[CARC_COLOURS];
	int nseats = 0;
	if (s->colours) {
		const char *q = s->colours;
		char w[32];
		while (word(&q, w, sizeof w)) {
			int c = carc_colour_lookup(w, strlen(w));
			if (c < 0 || nseats == CARC_COLOURS) {
				fail_why(why, cap, "\"%s\" is not a colour of the notation (or one too many)", w);
				return NULL;
			}
			seats[nseats++] = (uint8_t)c;
		}
		if (s->players && s->players != nseats) {
			api_why(why, cap, "players and colours disagree");
			return NULL;
		}
	} else {
		int players = s->players ? s->players : rs->default_seats;
		if (players < 1 || players > CARC_COLOURS) {
			api_why(why, cap, "the number of players is outside 1 to 8");
			return NULL;
		}
		/* random colours, as carc gen chooses them */
		uint8_t all[CARC_COLOURS];
		for (int c = 0; c < CARC_COLOURS; c++)
			all[c] = (uint8_t)c;
		for (int i = 0; i < players; i++) {
			int j = i + (int)carc_rng_below(&rng, (uint32_t)(CARC_COLOURS - i));
			uint8_t t = all[i];
			all[i] = all[j];
			all[j] = t;
			seats[i] = all[i];
		}
		nseats = players;
	}
	struct carc_buf h = {0};
	carc_buf_printf(&h, "[Rules \"%s\"]\n", rs->name);
	if (s->expansions && strspn(s->expansions, " \t") < strlen(s->expansions))
		carc_buf_printf(&h, "[Expansions \"%s\"]\n", s->expansions);
	if (s->edition)
		carc_buf_printf(&h, "[Edition \"%d\"]\n", s->edition);
	carc_buf_adds(&h, "[Seats \"");
	for (int i = 0; i < nseats; i++)
		carc_buf_printf(&h, "%s%s", i ? " " : "", carc_colour_name(seats[i]));
	carc_buf_adds(&h, "\"]\n\n");

	carc_match *m = api_match_new(api_shared_new(), "<game>", h.data, h.len, 1, 1);
	carc_buf_free(&h);
	m->play = xcalloc(1, sizeof *m->play);
	m->play->header_len = m->text.len;
	m->play->rng = rng;
	m->play->drawn = -1;
	api_diagnose(m);
	if (m->errors || !m->rec.tileset || m->rec.header_errors) {
		const char *msg = "the game cannot be set up";
		for (size_t i = 0; i < m->ndiags; i++)
			if (m->diags[i].severity == CARC_SEVERITY_ERROR) {
				msg = m->diag_text.data + m->diags[i].msg;
				break;
			}
		api_why(why, cap, msg);
		carc_match_free(m);
		return NULL;
	}
	const struct carc_play_hooks *mods[1 + CARC_MAX_EXPANSIONS];
	int nmods = modules(m, mods);
	deal(m, mods, nmods);
	m->play->scratch = carc_game_new();
	return m;
}

carc_match *carc_match_clone(const carc_match *m)
{
	if (!m)
		return NULL;
	carc_match *c = api_match_new(api_shared_ref(m->shared), m->name, m->text.data, m->text.len, m->base_line,
				      m->index);
	c->position = m->position;
	if (m->play) {
		const struct api_play *p = m->play;
		struct api_play *q = xcalloc(1, sizeof *q);
		*q = *p;
		q->supply = xmalloc((p->total + 1) * sizeof *q->supply);
		memcpy(q->supply, p->supply, p->total * sizeof *q->supply);
		q->taken = xmalloc(p->total + 1);
		memcpy(q->taken, p->taken, p->total);
		q->scratch = carc_game_new();
		q->xs = q->ys = NULL;
		q->rots = NULL;
		q->places_cap = 0;
		q->last_text = (struct carc_buf){0};
		carc_buf_add(&q->last_text, p->last_text.data, p->last_text.len);
		c->play = q;
		/* a game at its last move, its replay open: the record, the
		 * engine, the result and the modules' states copied (their
		 * size, not a replay); else the clone replays its text when
		 * first asked */
		if (m->live && m->position == CARC_POSITION_END) {
			carc_record_copy(&c->rec, &m->rec);
			carc_game_copy(c->g, m->g);
			if (carc_referee_clone(&c->res, &m->res, &c->rec, c->g)) {
				c->built = c->live = true;
				c->replayed = CARC_POSITION_END;
			} else {
				carc_record_free(&c->rec);
			}
		}
	}
	return c;
}

/* ---- whose turn, the draw ---- */

/* The played game at its last turn. */
static int current(carc_match *m)
{
	if (!m)
		return CARC_EINVAL;
	if (!m->play)
		return api_fail(m, CARC_ESTATE, "a game read from a record is not played on");
	m->position = CARC_POSITION_END;
	return api_live(m);
}

/* Where the referee's walk of the turns played leaves the game: the seat
 * whose turn comes next in plain rotation and its number. After a discard
 * the same colour draws again under the same number; a bonus turn (N+)
 * takes the number of the turn that earned it and moves no seat on. */
static int walk_on(const carc_match *m, int *number)
{
	const struct carc_result *res = &m->res;
	*number = 1;
	if (!res->nturns || !m->rec.nseats)
		return 0;
	const struct carc_turn *t = &res->turns[res->nturns - 1];
	int seat = 0;
	for (int s = 0; s < m->rec.nseats; s++)
		if (m->rec.seats[s] == t->colour)
			seat = s;
	*number = res->last_turn + (t->discard && !t->bonus ? 0 : 1);
	return t->discard && !t->bonus ? seat : (seat + 1) % m->rec.nseats;
}

/* The seat to draw next: plain rotation (the referee's), passing over a
 * seat whose stack is used up (solo); -1 when the game is over. */
static int next_seat(carc_match *m)
{
	struct api_play *p = m->play;
	if (carc_match_over(m))
		return -1;
	if (p->drawn >= 0)
		return p->drawn_seat;
	int number;
	int seat = walk_on(m, &number);
	if (p->bonus_due) /* the bonus turn is the seat's that earned it */
		return m->rec.nseats ? (seat + m->rec.nseats - 1) % m->rec.nseats : 0;
	for (int k = 0; k < p->nstacks; k++) {
		int i = p->nstacks == 1 ? 0 : (seat + k) % p->nstacks;
		if (p->stack_next[i] < p->stack_end[i])
			return p->nstacks == 1 ? seat : i;
	}
	return -1;
}

int carc_match_to_move(const carc_match *m)
{
	carc_match *w = (carc_match *)m;
	if (current(w))
		return -1;
	return next_seat(w);
}

/* The number of the turn to play: plain rotation's (walk_on), or on a
 * bonus turn the number of the last turn, which earned it (or, after a
 * bonus tile discarded, the bonus turn's own), as the referee gives a line
 * marked "+" the number before its count. */
static int turn_number(carc_match *m, int *bonus)
{
	const struct api_play *p = m->play;
	bool b = p->drawn >= 0 ? p->drawn_bonus : p->bonus_due;
	int number;
	walk_on(m, &number);
	if (b)
		number = m->res.last_turn;
	if (bonus)
		*bonus = b;
	return number;
}

int carc_match_turn_number(const carc_match *m, int *bonus)
{
	carc_match *w = (carc_match *)m;
	if (bonus)
		*bonus = 0;
	if (current(w) || next_seat(w) < 0)
		return -1;
	return turn_number(w, bonus);
}

const char *carc_match_drawn(const carc_match *m)
{
	if (!m || !m->play || m->play->drawn < 0 || !m->rec.tileset)
		return NULL;
	return m->rec.tileset->tiles[m->play->drawn].id;
}

/* Whether every module lets the tile be drawn now (The River's first). */
static bool may_draw(carc_match *m, int tile)
{
	const struct carc_play_hooks *mods[1 + CARC_MAX_EXPANSIONS];
	int n = modules(m, mods);
	for (int k = 0; k < n; k++)
		if (mods[k]->gen_may_draw && !mods[k]->gen_may_draw(m->g, tile))
			return false;
	return true;
}

int carc_match_draw(carc_match *m, const char *tile)
{
	int rc = current(m);
	if (rc)
		return rc;
	struct api_play *p = m->play;
	if (p->drawn >= 0)
		return api_fail(m, CARC_ESTATE, "tile %s is drawn and not played yet", carc_match_drawn(m));
	int seat = next_seat(m);
	if (seat < 0)
		return api_fail(m, CARC_ESTATE, "the game is over");
	const struct carc_tileset *ts = m->rec.tileset;
	int want = -1;
	if (tile) {
		want = carc_tileset_find(ts, tile, strlen(tile));
		if (want < 0)
			return api_fail(m, CARC_EINVAL, "the tile set has no tile %s", tile);
	}
	size_t from, end;
	bool from_bonus = p->bonus_due && !bonus_from_land(p);
	if (from_bonus) {
		from = p->bonus_next;
		end = p->total;
	} else {
		int k = p->nstacks == 1 ? 0 : seat;
		from = p->stack_next[k];
		end = p->stack_end[k];
	}
	/* the slot: the front of the stack; or, when a tile is named or the
	 * rules do not let the front's be drawn now (The River's first), the
	 * first slot after it not yet drawn (wrapping over the land tiles, as
	 * carc gen's draw_slot does) whose tile is the one named or may be;
	 * swapped to the front */
	if (from >= end)
		return api_fail(m, CARC_ESTATE, "no tile is left to draw");
	size_t got = from;
	if (want >= 0 ? p->supply[from] != want : !may_draw(m, p->supply[from])) {
		size_t lo = from_bonus ? p->nsupply : 0, n = from_bonus ? p->total - p->nsupply : p->nsupply;
		got = end;
		for (size_t k = 1; k < n && got == end; k++) {
			size_t i = lo + (from - lo + k) % n;
			if (!p->taken[i] && (want >= 0 ? p->supply[i] == want : may_draw(m, p->supply[i])))
				got = i;
		}
		if (got == end && want >= 0)
			return api_fail(m, CARC_EINVAL, "no tile %s is left %s", tile,
					from_bonus ? "among the bonus tiles" : "in the supply");
		if (got == end)
			got = from;
	}
	uint16_t t = p->supply[from];
	p->supply[from] = p->supply[got];
	p->supply[got] = t;
	p->taken[from] = 1;
	if (from_bonus)
		p->bonus_next++;
	else
		p->stack_next[p->nstacks == 1 ? 0 : seat]++;
	p->drawn = p->supply[from];
	p->drawn_seat = seat;
	p->drawn_bonus = p->bonus_due;
	return CARC_OK;
}

/* ---- legal moves ---- */

static void add_move(carc_move_spec *out, int max, int *n, const carc_move_spec *mv)
{
	if (*n < max)
		out[*n] = *mv;
	(*n)++;
}

/* The scratch engine made a copy of the game's (carc_game_copy: its
 * size, not a replay), for a placement tried on it. A module's award
 * function (solo) is not the scratch's: the engine's own pays there. */
static void scratch_copy(carc_match *m)
{
	carc_game_copy(m->play->scratch, m->g);
	carc_game_set_award(m->play->scratch, NULL, NULL);
}

int carc_match_legal_moves(carc_match *m, carc_move_spec *out, int max)
{
	int rc = current(m);
	if (rc)
		return rc;
	struct api_play *p = m->play;
	if (p->drawn < 0)
		return api_fail(m, CARC_ESTATE, "no tile is drawn");
	if (max < 0 || (max > 0 && !out))
		return CARC_EINVAL;
	const struct carc_tileset *ts = m->rec.tileset;
	const struct carc_ruleset *rs = m->rec.rules;
	int tile = p->drawn, colour = m->rec.seats[p->drawn_seat];
	int turn = turn_number(m, NULL);
	carc_move_spec mv = {0};
	api_copy(mv.tile, sizeof mv.tile, ts->tiles[tile].id);
	size_t np;
	carc_game_placements(m->g, &np);
	int cap = ((int)np * 4 + 4) * 4;
	if (cap > p->places_cap) {
		p->places_cap = cap;
		p->xs = xrealloc(p->xs, (size_t)cap * sizeof *p->xs);
		p->ys = xrealloc(p->ys, (size_t)cap * sizeof *p->ys);
		p->rots = xrealloc(p->rots, (size_t)cap * sizeof *p->rots);
	}
	int nplaces = carc_game_legal_places(m->g, tile, p->xs, p->ys, p->rots, cap);
	if (nplaces > cap)
		nplaces = cap;
	int n = 0;
	if (nplaces == 0) {
		mv.discard = 1;
		add_move(out, max, &n, &mv);
		return n;
	}
	const struct carc_play_hooks *mods[1 + CARC_MAX_EXPANSIONS];
	int nmods = modules(m, mods);
	bool recalls = false;
	for (int k = 0; k < nmods; k++)
		recalls |= mods[k]->gen_recall != NULL;
	/* a figure to deploy at all? (else no scratch replay is needed) */
	bool figures = false;
	for (int r = 0; r < rs->nroles && !figures; r++)
		figures = carc_game_role_supply(m->g, colour, r) > 0;
	for (int i = 0; i < nplaces; i++) {
		mv.x = p->xs[i];
		mv.y = p->ys[i];
		mv.rotation = p->rots[i] * 90;
		mv.role[0] = mv.spot[0] = mv.recall[0] = 0;
		if (!figures && !recalls) {
			add_move(out, max, &n, &mv);
			continue;
		}
		scratch_copy(m);
		struct carc_game *g = p->scratch;
		carc_game_draw(g, tile);
		int pl = carc_game_place(g, tile, p->rots[i], p->xs[i], p->ys[i], colour, turn);
		struct carc_deploy_choice choices[CARC_MAX_FEATURES * CARC_MAX_ROLES];
		int nc = figures ? carc_deploy_choices(g, mods, nmods, pl, colour, choices) : 0;
		if (!(p->must_deploy && nc))
			add_move(out, max, &n, &mv);
		for (int k = 0; k < nc; k++)
			for (int s = 0; s < CARC_SPOT_COUNT; s++)
				if (carc_game_spot_feature(g, pl, s) == choices[k].feature) {
					carc_move_spec d = mv;
					api_copy(d.role, sizeof d.role, rs->roles[choices[k].role].name);
					api_copy(d.spot, sizeof d.spot, carc_spot_name(s));
					add_move(out, max, &n, &d);
				}
		/* a figure taken back in place of a deployment (The Abbot) */
		for (int k = 0; k < nmods && !(p->must_deploy && nc); k++) {
			struct carc_buf line = {0};
			if (mods[k]->gen_recall && mods[k]->gen_recall(g, colour, turn, 0, &line)) {
				carc_move_spec r = mv;
				const char *q = carc_buf_cstr(&line);
				char w[16];
				if (word(&q, w, sizeof w) && !strcmp(w, "return") && word(&q, r.recall, sizeof r.recall))
					add_move(out, max, &n, &r);
				carc_buf_free(&line);
				break;
			}
			carc_buf_free(&line);
		}
	}
	return n;
}

/* ---- play ---- */

int carc_match_last_diagnostic(const carc_match *m, carc_diagnostic *out)
{
	if (!m || !out || !m->play || !m->play->has_last)
		return CARC_EINVAL;
	const struct api_play *p = m->play;
	memcpy(out->code, p->last.code, sizeof out->code);
	out->severity = p->last.severity;
	out->message = p->last_text.data;
	out->file = m->name;
	out->line = p->last.line;
	out->column = p->last.column;
	return CARC_OK;
}

/* The messages of one move (a line read, a step refereed): the first
 * error kept, as check would give it first (they are all on the line). */
struct move_diags {
	const carc_match *m;
	bool has;
	struct api_diag first;
	struct carc_buf text;
};

static void first_error(void *ctx, const struct carc_diag *d)
{
	struct move_diags *md = ctx;
	if (md->has || d->severity != CARC_SEV_ERROR)
		return;
	md->has = true;
	api_copy(md->first.code, sizeof md->first.code, carc_code_str(d->code));
	md->first.severity = CARC_SEVERITY_ERROR;
	md->first.msg = 0;
	md->first.line = md->first.column = 0;
	if (d->src && d->src->text)
		carc_src_position(d->src, d->off, &md->first.line, &md->first.column);
	carc_buf_reset(&md->text);
	carc_buf_adds(&md->text, d->message);
	carc_buf_cstr(&md->text);
}

int carc_match_play(carc_match *m, const carc_move_spec *mv)
{
	int rc = current(m);
	if (rc)
		return rc;
	struct api_play *p = m->play;
	if (!mv)
		return api_fail(m, CARC_EINVAL, "no move");
	if (p->drawn < 0)
		return api_fail(m, CARC_ESTATE, "no tile is drawn");
	const char *id = m->rec.tileset->tiles[p->drawn].id;
	if (mv->tile[0] && strcmp(mv->tile, id))
		return api_fail(m, CARC_EINVAL, "the tile drawn is %s, not %s", id, mv->tile);
	carc_move_spec full = *mv;
	api_copy(full.tile, sizeof full.tile, id);
	char text[256];
	if (carc_move_format(&full, text, sizeof text) >= sizeof text)
		return api_fail(m, CARC_EINVAL, "the move is too long");
	int colour = m->rec.seats[p->drawn_seat];
	struct carc_buf line = {0};
	carc_buf_printf(&line, "%s%s %s", p->drawn_bonus ? "+ " : "", carc_colour_name(colour), text);
	/* The line read into the record and refereed, one step of the walk
	 * kept open: check's reader and referee on the one new line. What the
	 * record had before, to take the line back when refused. */
	struct carc_record *rec = &m->rec;
	size_t nmoves = rec->nmoves, nclaims = rec->nclaims, norder = rec->norder, ncomments = rec->ncomments;
	size_t src_len = rec->src.len;
	unsigned syntax_errors = rec->syntax_errors, read_warnings = rec->read_warnings;
	bool twins = rec->twins, has_moves = rec->has_moves;
	struct move_diags md = {.m = m};
	struct carc_diag_sink sink = {.emit = first_error, .ctx = &md};
	bool read = carc_record_add_turn(rec, m->name, carc_rules_registry(), line.data, line.len, &sink);
	int step = CARC_STEP_NONE;
	if (read && !sink.errors) {
		step = carc_referee_step(&m->res, nmoves, &sink);
		m->steps++;
		if (step == CARC_STEP_OVER && !sink.errors)
			carc_referee_finish(&m->res, &sink);
	}
	m->diagnosed = false;
	if (!read || sink.errors || (step != CARC_STEP_PLAYED && step != CARC_STEP_OVER)) {
		/* refused: check's first error, and the game as it was: the
		 * record without the line, and the replay made again from it
		 * when next needed (the engine took what it could of the move) */
		if (md.has) {
			p->last = md.first;
			carc_buf_reset(&p->last_text);
			carc_buf_adds(&p->last_text, md.text.data);
		} else {
			memset(&p->last, 0, sizeof p->last);
			api_copy(p->last.code, sizeof p->last.code, "E000");
			p->last.severity = CARC_SEVERITY_ERROR;
			carc_buf_reset(&p->last_text);
			carc_buf_adds(&p->last_text, "the move cannot be played");
		}
		carc_buf_cstr(&p->last_text);
		p->has_last = true;
		rec->nmoves = nmoves;
		rec->nclaims = nclaims;
		rec->norder = norder;
		rec->ncomments = ncomments;
		rec->src.len = src_len;
		rec->syntax_errors = syntax_errors;
		rec->read_warnings = read_warnings;
		rec->twins = twins;
		rec->has_moves = has_moves;
		rec->src.memo_text = NULL;
		if (step != CARC_STEP_NONE)
			m->live = false, m->replayed = -2; /* the engine took the move in part: replayed again */
		carc_buf_free(&line);
		carc_buf_free(&md.text);
		carc_diag_free(&sink);
		return api_fail(m, CARC_EILLEGAL, "%s: %s", p->last.code, p->last_text.data);
	}
	carc_buf_add(&m->text, line.data, line.len);
	carc_buf_addc(&m->text, '\n');
	carc_buf_free(&line);
	carc_buf_free(&md.text);
	carc_diag_free(&sink);
	p->drawn = -1;
	/* a bonus turn next (Hunters and Gatherers: a forest with gold; The
	 * Traders: the builder's feature extended), the same colour's, while a
	 * tile is left for it (bonus_left); a bonus tile that fits nowhere is
	 * discarded and the next drawn */
	bool left = bonus_left(p, p->drawn_seat);
	if (p->drawn_bonus) {
		p->bonus_due = mv->discard && left;
	} else {
		p->bonus_due = false;
		const struct carc_play_hooks *mods[1 + CARC_MAX_EXPANSIONS];
		int nmods = modules(m, mods);
		for (int k = 0; k < nmods; k++)
			if (mods[k]->gen_bonus_due && !mv->discard && m->res.nturns && left &&
			    !carc_match_over(m) &&
			    mods[k]->gen_bonus_due(m->g, m->res.turns[m->res.nturns - 1].first_event))
				p->bonus_due = true;
	}
	return CARC_OK;
}

int carc_match_play_text(carc_match *m, const char *move)
{
	carc_move_spec mv;
	if (carc_move_parse(move, &mv))
		return api_fail(m, CARC_ESYNTAX, "\"%s\" is not a move as CGN writes it", move ? move : "");
	return carc_match_play(m, &mv);
}

/* ---- CGN ---- */

size_t carc_match_cgn(carc_match *m, char *buf, size_t cap)
{
	struct carc_buf out = {0};
	if (m && m->play && current(m) == CARC_OK) {
		/* the header, with the final scores as Result when the game is
		 * over, and the turns */
		struct carc_buf text = {0};
		size_t h = m->play->header_len - 1; /* before the blank line */
		carc_buf_add(&text, m->text.data, h);
		if (carc_match_over(m)) {
			carc_buf_adds(&text, "[Result \"");
			for (int s = 0; s < m->rec.nseats; s++)
				carc_buf_printf(&text, "%s%s %d", s ? ", " : "", carc_colour_name(m->rec.seats[s]),
						carc_game_score(m->g, m->rec.seats[s]));
			carc_buf_adds(&text, "\"]\n");
		}
		carc_buf_add(&text, m->text.data + h, m->text.len - h);
		struct carc_record rec = {0};
		struct carc_diag_sink quiet = {0};
		pthread_mutex_lock(&m->shared->lock);
		bool got = carc_parse_string(text.data, text.len, m->name, m->shared->cache, carc_rules_registry(), &rec, &quiet);
		pthread_mutex_unlock(&m->shared->lock);
		if (got)
			carc_format_record(&rec, &out);
		carc_record_free(&rec);
		carc_diag_free(&quiet);
		carc_buf_free(&text);
	} else if (m && api_replay(m, m->position, NULL) == CARC_OK) {
		carc_format_record(&m->rec, &out);
	}
	size_t n = api_out(&out, buf, cap);
	if (!out.len && buf && cap)
		buf[0] = 0;
	carc_buf_free(&out);
	return n;
}

/* ---- random games ---- */

struct carc_generator {
	struct carc_gen *gen;
	struct carc_buf out;
};

carc_generator *carc_generator_new(const carc_setup *setup, char *why, size_t cap)
{
	carc_setup none = {0};
	const carc_setup *s = setup ? setup : &none;
	struct carc_gen_opts o = {.rules = carc_ruleset_default(), .deploy_rate = 0.5, .claim_rate = 0.1,
				  .seed = s->seed, .players = s->players, .edition = s->edition};
	if (s->deploy_rate >= 0)
		o.deploy_rate = s->deploy_rate > 1 ? 1 : s->deploy_rate;
	if (s->claim_rate >= 0)
		o.claim_rate = s->claim_rate > 1 ? 1 : s->claim_rate;
	if (s->rules && !(o.rules = carc_ruleset_find(s->rules, strlen(s->rules)))) {
		fail_why(why, cap, "no rule set is called \"%s\"", s->rules);
		return NULL;
	}
	if (s->colours) {
		api_why(why, cap, "random games choose their colours: give players, not colours");
		return NULL;
	}
	const char *q = s->expansions ? s->expansions : "";
	char w[32];
	while (word(&q, w, sizeof w)) {
		const struct carc_ruleset *e = carc_ruleset_find(w, strlen(w));
		if (!e || !e->expansion || o.nexpansions == CARC_MAX_EXPANSIONS) {
			fail_why(why, cap, "no expansion is called \"%s\"", w);
			return NULL;
		}
		o.expansions[o.nexpansions++] = e;
	}
	const char *reason = NULL;
	struct carc_gen *gen = carc_gen_new(&o, &reason);
	if (!gen) {
		api_why(why, cap, reason ? reason : "the game cannot be generated");
		return NULL;
	}
	carc_generator *g = xcalloc(1, sizeof *g);
	g->gen = gen;
	return g;
}

size_t carc_generator_game(carc_generator *gen, uint64_t index, char *buf, size_t cap)
{
	if (!gen) {
		if (buf && cap)
			buf[0] = 0;
		return 0;
	}
	carc_buf_reset(&gen->out);
	carc_gen_game(gen->gen, index, &gen->out);
	return api_out(&gen->out, buf, cap);
}

void carc_generator_free(carc_generator *gen)
{
	if (!gen)
		return;
	carc_gen_free(gen->gen);
	carc_buf_free(&gen->out);
	free(gen);
}
