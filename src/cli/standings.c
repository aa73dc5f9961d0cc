/*
 * standings.c - a tournament's table (standings.h).
 *
 * Three passes, each linear: the games in their order (round, date, time,
 * then as added), deciding level scores (--level: seed needs the points
 * before the game); the units (a game, or with matches a duel of the games
 * sharing a Match tag) in the order of their first game, for the counts and
 * the tie-breaks that depend on when a result came (progressive,
 * sb-before); then each player's units once more, for those that need the
 * final points of the opponents (Buchholz and its cuts, Sonneborn-Berger).
 * Head to head depends on who is tied, so it is counted when ranking, over
 * the tied players' units only: one pass over the units per tie-break.
 */
#include "cli/standings.h"

#include <stdlib.h>
#include <string.h>

static const char *const tb_names[CARC_TB_COUNT] = {
	"wins", "buchholz", "buchholz-cut1", "buchholz-median1", "sb", "sb-before", "progressive", "diff", "for",
	"against", "h2h", "second", "bye-last", "lot", "game-diff", "games-won"};

const char *carc_tiebreak_name(int tb) { return tb >= 0 && tb < CARC_TB_COUNT ? tb_names[tb] : "?"; }

int carc_tiebreak_lookup(const char *p, size_t len)
{
	for (int t = 0; t < CARC_TB_COUNT; t++)
		if (strlen(tb_names[t]) == len && !strncmp(p, tb_names[t], len))
			return t;
	if (len == 8 && !strncmp(p, "solkoff1", 8))
		return CARC_TB_CUT1;
	if (len == 8 && !strncmp(p, "solkoff2", 8))
		return CARC_TB_MEDIAN1;
	return -1;
}

/* A game as added. */
struct game {
	uint32_t seat0;              /* its seats in sd->seats */
	uint8_t nseats;
	bool scores, technical, bye;
	int8_t winner;               /* as recorded; then as counted (the level rule): -1 a draw */
	uint8_t top;                 /* seats with the top score */
	long round;                  /* the Round tag as a number, 0 when it is none */
	char date[11];
	int32_t time;
	uint32_t match;              /* 1 + the index of its Match (with the event) in sd->matches; 0: none */
	size_t added;
};

struct seat {
	uint32_t player;
	int32_t score;
};

/* One counted unit: a game, or a duel. */
struct useat {
	uint32_t player;
	int32_t key;                 /* its place: higher beats lower, equal draws */
	int32_t score_for, score_against;
	uint16_t won, lost;          /* single games */
	bool scored;                 /* score_for and score_against count */
};
struct unit {
	uint8_t n;
	bool bye;
	size_t first;                /* the position of its first game in the order of games */
	struct useat s[CARC_COLOURS];
};

struct appearance {
	uint32_t unit;
	uint8_t seat;
};

struct carc_standings {
	struct carc_standings_opts opt;
	struct carc_names names, matches;
	struct game *games;
	size_t ngames, games_cap;
	struct seat *seats;
	size_t nseats, seats_cap;
	struct carc_standing *rows;  /* by player index, then ranked */
	struct unit *units;
	size_t nunits;
	struct appearance *apps;     /* each player's units: apps[app0[p] .. app0[p + 1]) */
	size_t *app0;
	struct carc_standing *ranked;
	int8_t *winner_of;           /* by the order added: the seat that won as counted, -1 a draw */
};

struct carc_standings *carc_standings_new(const struct carc_standings_opts *opt)
{
	struct carc_standings *sd = xcalloc(1, sizeof *sd);
	sd->opt = *opt;
	return sd;
}

const struct carc_names *carc_standings_names(const struct carc_standings *sd)
{
	return &sd->names;
}

void carc_standings_free(struct carc_standings *sd)
{
	if (!sd)
		return;
	carc_names_free(&sd->names);
	carc_names_free(&sd->matches);
	free(sd->games);
	free(sd->seats);
	free(sd->rows);
	free(sd->units);
	free(sd->apps);
	free(sd->app0);
	free(sd->ranked);
	free(sd->winner_of);
	free(sd);
}

static long round_number(const char *r)
{
	long n = 0;
	if (!r || !*r)
		return 0;
	for (const char *p = r; *p; p++) {
		if (*p < '0' || *p > '9' || n > 100000000)
			return 0;
		n = n * 10 + (*p - '0');
	}
	return n;
}

void carc_standings_add(struct carc_standings *sd, const struct carc_outcome *o)
{
	if (sd->ngames == sd->games_cap) {
		sd->games_cap = sd->games_cap ? 2 * sd->games_cap : 256;
		sd->games = xrealloc(sd->games, sd->games_cap * sizeof *sd->games);
	}
	struct game *g = &sd->games[sd->ngames];
	memset(g, 0, sizeof *g);
	g->added = sd->ngames++;
	g->seat0 = (uint32_t)sd->nseats;
	g->nseats = (uint8_t)o->nseats;
	g->scores = o->scores && !o->technical && !o->bye;
	g->technical = o->technical;
	g->bye = o->bye;
	g->winner = (int8_t)o->winner;
	g->top = (uint8_t)o->top;
	g->round = round_number(o->round);
	if (o->date)
		snprintf(g->date, sizeof g->date, "%s", o->date);
	g->time = o->time_of_day;
	if (sd->opt.matches && o->match) {
		struct carc_buf key = {0};
		carc_buf_printf(&key, "%s\x1f%s", o->event ? o->event : "", o->match);
		g->match = (uint32_t)carc_names_intern(&sd->matches, carc_buf_cstr(&key)) + 1;
		carc_buf_free(&key);
	}
	for (int s = 0; s < o->nseats; s++) {
		if (sd->nseats == sd->seats_cap) {
			sd->seats_cap = sd->seats_cap ? 2 * sd->seats_cap : 512;
			sd->seats = xrealloc(sd->seats, sd->seats_cap * sizeof *sd->seats);
		}
		size_t p = carc_names_intern(&sd->names, o->player[s]);
		sd->seats[sd->nseats++] = (struct seat){(uint32_t)p, o->score[s]};
	}
}

/* The order of games: round, date, time of day, then as added. */
static int by_game_order(const void *a, const void *b)
{
	const struct game *g = a, *h = b;
	if (g->round != h->round)
		return g->round < h->round ? -1 : 1;
	int d = strcmp(g->date, h->date);
	if (d)
		return d;
	if (g->time != h->time)
		return g->time < h->time ? -1 : 1;
	return g->added < h->added ? -1 : g->added > h->added;
}

/* Decides each level score by the level rule, in the order of games; the
 * seed is the standing before the game: more points, then more wins, then
 * the player met first in the input (registration order). */
static void decide_levels(struct carc_standings *sd, double *points, unsigned long *wins)
{
	for (size_t i = 0; i < sd->ngames; i++) {
		struct game *g = &sd->games[i];
		const struct seat *st = &sd->seats[g->seat0];
		if (g->winner < 0 && g->top && (g->top & (g->top - 1))) {
			int pick = -1;
			for (int s = 0; s < g->nseats; s++) {
				if (!(g->top >> s & 1))
					continue;
				if (sd->opt.level == CARC_LEVEL_SECOND)
					pick = s; /* the last of the level seats to move */
				else if (sd->opt.level == CARC_LEVEL_FIRST && pick < 0)
					pick = s;
				else if (sd->opt.level == CARC_LEVEL_SEED) {
					uint32_t p = st[s].player, q = pick >= 0 ? st[pick].player : 0;
					if (pick < 0 || points[p] > points[q] || (points[p] == points[q] && wins[p] > wins[q]) ||
					    (points[p] == points[q] && wins[p] == wins[q] && p < q))
						pick = s;
				}
			}
			g->winner = (int8_t)pick; /* (draw: -1) */
		}
		for (int s = 0; s < g->nseats; s++) {
			uint32_t p = st[s].player;
			if (g->bye || g->winner == s) {
				points[p] += sd->opt.win;
				wins[p]++;
			} else if (g->winner < 0 && (g->top >> s & 1)) {
				points[p] += sd->opt.draw;
			} else {
				points[p] += sd->opt.loss;
			}
		}
	}
}

/* The game's seats into unit u: places, scores, games won and lost. */
static void add_to_unit(struct carc_standings *sd, struct unit *u, const struct game *g)
{
	const struct seat *st = &sd->seats[g->seat0];
	int best_other[CARC_COLOURS];
	for (int s = 0; s < g->nseats; s++) {
		best_other[s] = 0;
		bool first = true;
		for (int t = 0; t < g->nseats; t++)
			if (t != s && (first || st[t].score > best_other[s]))
				best_other[s] = st[t].score, first = false;
	}
	for (int s = 0; s < g->nseats; s++) {
		int k = 0;
		while (k < u->n && u->s[k].player != st[s].player)
			k++;
		if (k == u->n) {
			if (u->n == CARC_COLOURS)
				continue; /* (a duel of more players than a game seats: the rest are not counted) */
			u->s[u->n++] = (struct useat){.player = st[s].player};
		}
		struct useat *us = &u->s[k];
		if (g->scores) {
			us->scored = true;
			us->score_for += st[s].score;
			us->score_against += best_other[s];
		}
		if (g->bye || g->winner == s)
			us->won++;
		else if (!(g->winner < 0 && (g->top >> s & 1)))
			us->lost++;
	}
}

static void build_units(struct carc_standings *sd)
{
	size_t nmatches = sd->matches.count;
	size_t *match_unit = xmalloc((nmatches ? nmatches : 1) * sizeof *match_unit);
	for (size_t m = 0; m < nmatches; m++)
		match_unit[m] = SIZE_MAX;
	sd->units = xcalloc(sd->ngames ? sd->ngames : 1, sizeof *sd->units);
	sd->nunits = 0;
	for (size_t i = 0; i < sd->ngames; i++) {
		const struct game *g = &sd->games[i];
		struct unit *u;
		if (g->match && match_unit[g->match - 1] != SIZE_MAX) {
			u = &sd->units[match_unit[g->match - 1]];
		} else {
			if (g->match)
				match_unit[g->match - 1] = sd->nunits;
			u = &sd->units[sd->nunits++];
			u->first = i;
			u->bye = g->bye;
		}
		add_to_unit(sd, u, g);
		if (!g->match) { /* a game alone: its places are its result's */
			const struct seat *st = &sd->seats[g->seat0];
			for (int s = 0; s < u->n; s++) {
				int k = 0;
				while (k < g->nseats && st[k].player != u->s[s].player)
					k++;
				u->s[s].key = g->bye || g->winner == k ? 2 : g->winner < 0 && (g->top >> k & 1) ? 1 : 0;
			}
		}
	}
	for (size_t i = 0; i < sd->nunits; i++) { /* duels: by games won */
		struct unit *u = &sd->units[i];
		if (sd->games[u->first].match)
			for (int s = 0; s < u->n; s++)
				u->s[s].key = u->s[s].won;
		if (u->n == 1)
			u->bye = true; /* (a duel of one player: won without an opponent) */
	}
	free(match_unit);
}

/* The unit's result for seat s: 2 won, 1 drawn, 0 lost. */
static int unit_result(const struct unit *u, int s)
{
	if (u->bye)
		return 2;
	int better = 0, equal = 0;
	for (int t = 0; t < u->n; t++) {
		if (t == s)
			continue;
		better += u->s[t].key > u->s[s].key;
		equal += u->s[t].key == u->s[s].key;
	}
	return better ? 0 : equal ? 1 : 2;
}

static double result_points(const struct carc_standings *sd, int result)
{
	return result == 2 ? sd->opt.win : result == 1 ? sd->opt.draw : sd->opt.loss;
}

static uint64_t mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* Counts and the tie-breaks that do not depend on who is tied. */
static void count(struct carc_standings *sd)
{
	size_t np = sd->names.count;
	sd->rows = xcalloc(np ? np : 1, sizeof *sd->rows);
	for (size_t p = 0; p < np; p++)
		sd->rows[p].player = carc_names_get(&sd->names, p);
	if (sd->ngames) /* (qsort takes no NULL, even for none) */
		qsort(sd->games, sd->ngames, sizeof *sd->games, by_game_order);
	double *points = xcalloc(np ? np : 1, sizeof *points);
	unsigned long *wins = xcalloc(np ? np : 1, sizeof *wins);
	decide_levels(sd, points, wins);
	sd->winner_of = xmalloc(sd->ngames ? sd->ngames : 1);
	for (size_t i = 0; i < sd->ngames; i++)
		sd->winner_of[sd->games[i].added] = sd->games[i].winner;
	for (size_t i = 0; i < sd->ngames; i++) { /* games as the second player */
		const struct game *g = &sd->games[i];
		for (int s = 1; s < g->nseats; s++)
			sd->rows[sd->seats[g->seat0 + s].player].second++;
	}
	build_units(sd);
	/* the units in order: counts, progressive, sb-before */
	for (size_t i = 0; i < sd->nunits; i++) {
		const struct unit *u = &sd->units[i];
		int result[CARC_COLOURS];
		for (int s = 0; s < u->n; s++)
			result[s] = unit_result(u, s);
		for (int s = 0; s < u->n; s++) /* (the opponents' wins before this unit) */
			if (result[s] == 2)
				for (int t = 0; t < u->n; t++)
					if (t != s)
						sd->rows[u->s[s].player].tb[CARC_TB_SB_BEFORE] += (double)sd->rows[u->s[t].player].wins;
		for (int s = 0; s < u->n; s++) {
			const struct useat *us = &u->s[s];
			struct carc_standing *r = &sd->rows[us->player];
			r->games++;
			r->byes += u->bye;
			r->wins += result[s] == 2;
			r->draws += result[s] == 1;
			r->losses += result[s] == 0;
			r->points += result_points(sd, result[s]);
			r->tb[CARC_TB_PROGRESSIVE] += r->points;
			r->games_won += us->won;
			r->games_lost += us->lost;
			if (us->scored) {
				r->score_for += us->score_for;
				r->score_against += us->score_against;
			}
		}
	}
	/* each player's units */
	sd->app0 = xcalloc(np + 1, sizeof *sd->app0);
	size_t napps = 0;
	for (size_t i = 0; i < sd->nunits; i++)
		for (int s = 0; s < sd->units[i].n; s++)
			sd->app0[sd->units[i].s[s].player + 1]++, napps++;
	for (size_t p = 0; p < np; p++)
		sd->app0[p + 1] += sd->app0[p];
	sd->apps = xmalloc((napps ? napps : 1) * sizeof *sd->apps);
	size_t *fill = xmalloc((np ? np : 1) * sizeof *fill);
	memcpy(fill, sd->app0, (np ? np : 1) * sizeof *fill);
	for (size_t i = 0; i < sd->nunits; i++)
		for (int s = 0; s < sd->units[i].n; s++)
			sd->apps[fill[sd->units[i].s[s].player]++] = (struct appearance){(uint32_t)i, (uint8_t)s};
	free(fill);
	/* the tie-breaks of the opponents' final points */
	for (size_t p = 0; p < np; p++) {
		struct carc_standing *r = &sd->rows[p];
		double sum = 0, lo = 0, hi = 0, sb = 0;
		size_t values = 0;
		for (size_t a = sd->app0[p]; a < sd->app0[p + 1]; a++) {
			const struct unit *u = &sd->units[sd->apps[a].unit];
			int s = sd->apps[a].seat;
			if (u->bye) { /* a bye: an opponent worth 0 */
				lo = values ? (lo < 0 ? lo : 0) : 0;
				hi = values ? (hi > 0 ? hi : 0) : 0;
				values++;
				continue;
			}
			for (int t = 0; t < u->n; t++) {
				if (t == s)
					continue;
				double v = sd->rows[u->s[t].player].points;
				sum += v;
				lo = values && lo < v ? lo : v;
				hi = values && hi > v ? hi : v;
				values++;
				if (u->s[s].key > u->s[t].key)
					sb += v;
				else if (u->s[s].key == u->s[t].key)
					sb += v / 2;
			}
		}
		r->tb[CARC_TB_BUCHHOLZ] = sum;
		r->tb[CARC_TB_CUT1] = values >= 2 ? sum - lo : 0;
		r->tb[CARC_TB_MEDIAN1] = values >= 3 ? sum - lo - hi : 0;
		r->tb[CARC_TB_SB] = sb;
		r->tb[CARC_TB_WINS] = (double)r->wins;
		r->tb[CARC_TB_DIFF] = (double)(r->score_for - r->score_against);
		r->tb[CARC_TB_FOR] = (double)r->score_for;
		r->tb[CARC_TB_AGAINST] = -(double)r->score_against; /* fewer points against ranks higher */
		r->tb[CARC_TB_SECOND] = (double)r->second;
		r->tb[CARC_TB_BYE_LAST] = -(double)r->byes;
		uint64_t h = UINT64_C(1469598103934665603);
		for (const char *c = r->player; *c; c++)
			h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
		r->tb[CARC_TB_LOT] = (double)(mix64(h ^ mix64(sd->opt.lot_seed)) >> 11) / 9007199254740992.0;
		r->tb[CARC_TB_GAME_DIFF] = (double)r->games_won - (double)r->games_lost;
		r->tb[CARC_TB_GAMES_WON] = (double)r->games_won;
	}
	free(points);
	free(wins);
}

/* ---- ranking ---- */

static const struct carc_standings *sorting; /* qsort has no context argument */
static int sort_key;                           /* the tie-break being sorted by; -1: points */

static double key_of(const struct carc_standing *r, int k)
{
	return k < 0 ? r->points : r->tb[sorting->opt.tiebreaks[k]];
}

static int by_key(const void *a, const void *b)
{
	const struct carc_standing *p = &sorting->rows[*(const uint32_t *)a], *q = &sorting->rows[*(const uint32_t *)b];
	double x = key_of(p, sort_key), y = key_of(q, sort_key);
	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(p->player, q->player);
}

static bool tied(const struct carc_standings *sd, uint32_t p, uint32_t q, int nkeys)
{
	if (sd->rows[p].points != sd->rows[q].points)
		return false;
	for (int k = 0; k < nkeys; k++)
		if (sd->rows[p].tb[sd->opt.tiebreaks[k]] != sd->rows[q].tb[sd->opt.tiebreaks[k]])
			return false;
	return true;
}

const struct carc_standing *carc_standings_rank(struct carc_standings *sd, size_t *n)
{
	count(sd);
	size_t np = sd->names.count;
	uint32_t *order = xmalloc((np ? np : 1) * sizeof *order);
	uint32_t *group = xcalloc(np ? np : 1, sizeof *group); /* 1 + the first place of a player's tied group */
	for (size_t i = 0; i < np; i++)
		order[i] = (uint32_t)i;
	sorting = sd;
	sort_key = -1;
	qsort(order, np, sizeof *order, by_key);
	for (int k = 0; k < sd->opt.ntiebreaks; k++) {
		bool h2h = sd->opt.tiebreaks[k] == CARC_TB_H2H;
		for (size_t a = 0; a < np;) {
			size_t b = a + 1;
			while (b < np && tied(sd, order[a], order[b], k))
				b++;
			if (h2h) {
				/* the points each scored against the others of the group,
				 * from the units of its players only */
				for (size_t i = a; i < b; i++)
					group[order[i]] = (uint32_t)a + 1;
				for (size_t i = a; i < b; i++) {
					uint32_t p = order[i];
					double sum = 0;
					for (size_t x = sd->app0[p]; x < sd->app0[p + 1] && b - a > 1; x++) {
						const struct unit *u = &sd->units[sd->apps[x].unit];
						int s = sd->apps[x].seat;
						for (int t = 0; t < u->n; t++)
							if (t != s && group[u->s[t].player] == a + 1)
								sum += u->s[s].key > u->s[t].key    ? sd->opt.win
								       : u->s[s].key == u->s[t].key ? sd->opt.draw
												    : sd->opt.loss;
					}
					sd->rows[p].tb[CARC_TB_H2H] = sum;
				}
			}
			sort_key = k;
			if (b - a > 1)
				qsort(order + a, b - a, sizeof *order, by_key);
			a = b;
		}
	}
	sd->ranked = xmalloc((np ? np : 1) * sizeof *sd->ranked);
	for (size_t i = 0; i < np; i++) {
		sd->ranked[i] = sd->rows[order[i]];
		sd->ranked[i].rank = i && tied(sd, order[i - 1], order[i], sd->opt.ntiebreaks) ? sd->ranked[i - 1].rank : i + 1;
	}
	free(order);
	free(group);
	*n = np;
	return sd->ranked;
}

int carc_standings_game_winner(const struct carc_standings *sd, size_t game)
{
	return sd->winner_of && game < sd->ngames ? sd->winner_of[game] : -1;
}
