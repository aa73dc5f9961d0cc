/*
 * cmd_stats.c - carc stats: the figures of an archive of games.
 *
 * One pass over every game (archive.c), each refereed once; what is kept is
 * a fixed set of sums (by rule set, number of players and seat) and a few
 * small tables (feature kinds, player names), so memory grows with the
 * players and kinds, not with the games. Which games count where:
 *   - every game: the counts of games, rule sets, seats, diagnostics and
 *     discards;
 *   - complete games (valid, and the supply used up or the solo game's
 *     forced end, so with final scoring): scores, points by source, farms
 *     and the largest features.
 * Spread is the sample standard deviation (n - 1; 0 for one score).
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "notation/gameid.h"
#include "common/json.h"
#include "common/width.h"
#include "output/report.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS CARC_COLOURS

/* Count, mean and spread by Welford's running sums, and the extremes. */
struct spread {
	unsigned long n;
	double mean, m2;
	long min, max;
};

static void spread_add(struct spread *s, long x)
{
	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	double d = (double)x - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * ((double)x - s->mean);
}

/* The square root by Newton's steps from above, which fall until they
 * reach it (no libm to link for one call). */
static double square_root(double x)
{
	if (x <= 0)
		return 0;
	double r = x > 1 ? x : 1;
	for (int i = 0; i < 2000; i++) {
		double next = 0.5 * (r + x / r);
		if (next >= r)
			break;
		r = next;
	}
	return r;
}

static double spread_sd(const struct spread *s)
{
	return s->n > 1 ? square_root(s->m2 / (double)(s->n - 1)) : 0.0;
}

/* A game named in the output: the largest feature's. */
struct game_ref {
	char *file;
	unsigned game, line;
	char id[CARC_GAME_ID_HEX + 1];
};

/* The largest features of one kind of one rule set. */
struct largest {
	int rules;
	char *kind;
	struct spread per_game; /* each complete game's largest of the kind */
	struct game_ref where;  /* the game of the largest of all (the first found) */
};

struct stats {
	unsigned long games, valid, invalid, finished, complete;
	unsigned long by_rules[CARC_MAX_RULESETS];
	unsigned long by_seats[MAX_SEATS + 1];
	unsigned long codes[CARC_CODE_COUNT];          /* games with each code */
	struct carc_names names;                       /* named players */
	unsigned long unnamed;                         /* seats without a name tag */
	/* scores of complete games: [rules][players][seat], seat 0 for all seats */
	struct spread scores[CARC_MAX_RULESETS][MAX_SEATS + 1][MAX_SEATS + 1];
	unsigned long complete_by_rules[CARC_MAX_RULESETS];
	long long points[CARC_MAX_RULESETS][CARC_SRC_COUNT];
	unsigned long farm_games[CARC_MAX_RULESETS], farm_decided[CARC_MAX_RULESETS];
	unsigned long discards, discard_games, discard_most;
	/* complete games: the features scored by a module's own event kinds
	 * (Inns & Cathedrals' inn, inn-open, cathedral, cathedral-open), by
	 * kind: how many, the points they paid, the kind's name */
	unsigned long kind_count[CARC_EV_KINDS];
	long kind_points[CARC_EV_KINDS];
	const char *kind_name[CARC_EV_KINDS];
	struct game_ref discard_where;
	struct largest *largest;
	size_t nlargest, largest_cap;
	struct player *players;                        /* by index in names */
	size_t players_cap;
};

/* A named player's figures (--players): the games they sat in, and over
 * their complete games the wins (the top score, alone or shared), the sum
 * of their scores and their points by source. */
struct player {
	unsigned long games, complete, wins;
	long long score;
	long long points[CARC_SRC_COUNT];
};

static struct player *player_of(struct stats *st, size_t i)
{
	if (i >= st->players_cap) {
		size_t cap = st->players_cap ? 2 * st->players_cap : 32;
		while (cap <= i)
			cap *= 2;
		st->players = xrealloc(st->players, cap * sizeof *st->players);
		memset(st->players + st->players_cap, 0, (cap - st->players_cap) * sizeof *st->players);
		st->players_cap = cap;
	}
	return &st->players[i];
}

static void set_ref(struct game_ref *ref, const struct carc_archive_game *game)
{
	if (!ref->file || strcmp(ref->file, game->file)) {
		free(ref->file);
		ref->file = xstrdup(game->file);
	}
	ref->game = game->rec->index;
	ref->line = game->rec->src.base_line;
	carc_game_id_hex(carc_game_id(game->rec), ref->id);
}

static struct largest *largest_of(struct stats *st, int rules, const char *kind)
{
	for (size_t i = 0; i < st->nlargest; i++)
		if (st->largest[i].rules == rules && !strcmp(st->largest[i].kind, kind))
			return &st->largest[i];
	if (st->nlargest == st->largest_cap) {
		st->largest_cap = st->largest_cap ? 2 * st->largest_cap : 8;
		st->largest = xrealloc(st->largest, st->largest_cap * sizeof *st->largest);
	}
	struct largest *l = &st->largest[st->nlargest++];
	*l = (struct largest){.rules = rules, .kind = xstrdup(kind)};
	return l;
}

/* Roads, cities and fields (and their kin in other tile sets): the kinds
 * whose size varies; a cloister is always one tile. */
static bool sized_kind(const struct carc_kind *k)
{
	return k->klass == CARC_CLASS_PATH || k->klass == CARC_CLASS_ENCLOSURE || k->klass == CARC_CLASS_AREA;
}

/* A complete game: its scores, points, farms and largest features. */
static void add_complete(struct stats *st, const struct carc_archive_game *game)
{
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	int rules = rec->rules->id;
	st->complete++;
	st->complete_by_rules[rules]++;
	for (int s = 0; s < rec->nseats && rec->nseats <= MAX_SEATS; s++) {
		long score = res->scores[rec->seats[s]];
		spread_add(&st->scores[rules][rec->nseats][0], score);
		spread_add(&st->scores[rules][rec->nseats][s + 1], score);
		for (int src = 0; src < CARC_SRC_COUNT; src++)
			st->points[rules][src] += carc_archive_points_from(game, rec->seats[s], src);
	}
	/* decided by farms: a winner would not have won without the farms */
	uint8_t winners = carc_archive_winners(game);
	if (winners) {
		int best = -1;
		for (int s = 0; s < rec->nseats; s++) {
			int c = rec->seats[s];
			int without = res->scores[c] - carc_archive_points_from(game, c, CARC_SRC_AREA);
			if (without > best)
				best = without;
		}
		bool decided = false;
		for (int s = 0; s < rec->nseats; s++) {
			int c = rec->seats[s];
			if ((winners & (1u << c)) &&
			    res->scores[c] - carc_archive_points_from(game, c, CARC_SRC_AREA) < best)
				decided = true;
		}
		st->farm_games[rules]++;
		st->farm_decided[rules] += decided;
	}
	size_t nev;
	const struct carc_event *ev = carc_archive_events(game, &nev);
	for (size_t i = 0; i < nev; i++) {
		int t = ev[i].type;
		if (t < CARC_EV_MODULE || t >= CARC_EV_KINDS)
			continue;
		const char *name = carc_rules_event_name(rec, t);
		if (!name)
			continue;
		st->kind_name[t] = name; /* (static words of a module) */
		st->kind_count[t]++;
		for (int s = 0; s < rec->nseats; s++)
			st->kind_points[t] += carc_event_points_of(&ev[i], rec->seats[s]);
	}
	int tiles[CARC_MAX_KINDS];
	carc_archive_largest(game, tiles);
	const struct carc_tileset *ts = rec->tileset;
	for (int k = 0; k < ts->nkinds && k < CARC_MAX_KINDS; k++) {
		if (!sized_kind(&ts->kinds[k]))
			continue;
		struct largest *l = largest_of(st, rules, ts->kinds[k].name);
		if (!l->per_game.n || tiles[k] > l->per_game.max)
			set_ref(&l->where, game);
		spread_add(&l->per_game, tiles[k]);
	}
}

static void each_game(void *ctx, const struct carc_archive_game *game)
{
	struct stats *st = ctx;
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	st->games++;
	bool valid = game->errors == 0;
	if (valid)
		st->valid++;
	else
		st->invalid++;
	if (res->finished)
		st->finished++;
	st->by_rules[rec->rules->id]++;
	if (rec->nseats <= MAX_SEATS)
		st->by_seats[rec->nseats]++;
	for (int code = 0; code < CARC_CODE_COUNT; code++)
		if (game->codes[code])
			st->codes[code]++;
	bool complete = valid && res->refereed && res->finished && res->final_scored && rec->tileset;
	uint8_t winners = complete ? carc_archive_winners(game) : 0;
	for (int s = 0; s < rec->nseats; s++) {
		int c = rec->seats[s];
		const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + c);
		if (!name) {
			st->unnamed++;
			continue;
		}
		struct player *p = player_of(st, carc_names_intern(&st->names, name));
		p->games++;
		if (!complete)
			continue;
		p->complete++;
		p->wins += (winners >> c) & 1;
		p->score += res->scores[c];
		for (int src = 0; src < CARC_SRC_COUNT; src++)
			p->points[src] += carc_archive_points_from(game, c, src);
	}
	unsigned long discards = 0;
	for (size_t i = 0; i < rec->nmoves; i++)
		discards += rec->moves[i].discard;
	if (discards) {
		st->discards += discards;
		st->discard_games++;
		if (discards > st->discard_most) {
			st->discard_most = discards;
			set_ref(&st->discard_where, game);
		}
	}
	if (complete)
		add_complete(st, game);
}

/* ---- the three shapes ---- */

static const char *rules_name(int id) { return carc_ruleset_at(id)->name; }

/* The sources of points shown, in order: play (completed) and end
 * (incomplete) of the three classes, farms, other. */
static const int play_sources[3] = {CARC_SRC_PLAY_PATH, CARC_SRC_PLAY_ENCLOSURE, CARC_SRC_PLAY_SITE};
static const int end_sources[3] = {CARC_SRC_END_PATH, CARC_SRC_END_ENCLOSURE, CARC_SRC_END_SITE};

/* Points of a class (0-2: path, enclosure, site), 3 farms, 4 other: during
 * play, at the end. */
static void feature_points(const struct stats *st, int rules, int f, long long *play, long long *end)
{
	*play = f < 3 ? st->points[rules][play_sources[f]] : 0;
	*end = f < 3 ? st->points[rules][end_sources[f]] : st->points[rules][f == 3 ? CARC_SRC_AREA : CARC_SRC_OTHER];
}

static const char *feature_key(int rules, int f)
{
	return carc_rules_source_key(carc_ruleset_at(rules), f < 3 ? play_sources[f] : f == 3 ? CARC_SRC_AREA : CARC_SRC_OTHER);
}

static long long total_points(const struct stats *st, int rules)
{
	long long sum = 0;
	for (int src = 0; src < CARC_SRC_COUNT; src++)
		if (src != CARC_SRC_START)
			sum += st->points[rules][src];
	return sum;
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

/* The rows of the scores table, in the order every shape writes them: by
 * rule set, players, then seat (0: all seats together). */
struct score_row {
	int rules, players, seat;
	const struct spread *sp;
};
#define MAX_SCORE_ROWS (CARC_MAX_RULESETS * MAX_SEATS * (MAX_SEATS + 1))

static size_t score_rows(const struct stats *st, struct score_row *rows)
{
	size_t n = 0;
	for (int r = 0; r < carc_ruleset_count(); r++)
		for (int p = 1; p <= MAX_SEATS; p++)
			for (int s = 0; s <= p; s++)
				if (st->scores[r][p][s].n)
					rows[n++] = (struct score_row){r, p, s, &st->scores[r][p][s]};
	return n;
}

/* The rows of points by source: the five sources of each rule set with
 * complete games. */
struct points_row {
	int rules;
	const char *source;
	long long play, end, total;
	double per_game, share;
};
#define MAX_POINTS_ROWS (CARC_MAX_RULESETS * (5 + CARC_SRC_COUNT - CARC_SRC_MODULE))

/* The key of a source a module declares (CARC_SRC_MODULE on: Traders &
 * Builders' goods and pigs), from the module of the registry that names it. */
static const char *module_source_key(int src)
{
	for (int r = 0; r < carc_ruleset_count(); r++) {
		const char *k = carc_rules_source_key(carc_ruleset_at(r), src);
		if (k)
			return k;
	}
	return "module";
}

static size_t points_rows(const struct stats *st, struct points_row *rows)
{
	size_t n = 0;
	for (int r = 0; r < carc_ruleset_count(); r++) {
		if (!st->complete_by_rules[r])
			continue;
		long long all = total_points(st, r);
		for (int f = 0; f < 5; f++) {
			struct points_row *row = &rows[n++];
			row->rules = r;
			row->source = feature_key(r, f);
			feature_points(st, r, f, &row->play, &row->end);
			row->total = row->play + row->end;
			row->per_game = ratio((double)row->total, (double)st->complete_by_rules[r]);
			row->share = ratio((double)row->total, (double)all);
		}
		/* then the sources the game's expansions declare, where they paid
		 * anything (points at the end: the goods bonus, the pigs') */
		for (int src = CARC_SRC_MODULE; src < CARC_SRC_COUNT; src++) {
			if (!st->points[r][src])
				continue;
			struct points_row *row = &rows[n++];
			row->rules = r;
			row->source = module_source_key(src);
			row->play = 0;
			row->end = row->total = st->points[r][src];
			row->per_game = ratio((double)row->total, (double)st->complete_by_rules[r]);
			row->share = ratio((double)row->total, (double)all);
		}
	}
	return n;
}

static void text_report(struct carc_buf *o, const struct stats *st, const struct carc_archive_totals *t)
{
	carc_buf_printf(o, "Games: %lu in %u file%s (%u unreadable): %lu valid, %lu invalid; %lu finished, %lu complete\n",
			st->games, t->files, t->files == 1 ? "" : "s", t->unreadable, st->valid, st->invalid,
			st->finished, st->complete);
	carc_buf_adds(o, st->games ? "Rules:" : "Rules: none");
	for (int r = 0; r < carc_ruleset_count(); r++)
		if (st->by_rules[r])
			carc_buf_printf(o, " %s %lu", rules_name(r), st->by_rules[r]);
	carc_buf_printf(o, "\nPlayers: %zu named, %lu seat%s without a name\n", st->names.count, st->unnamed,
			st->unnamed == 1 ? "" : "s");
	carc_buf_adds(o, st->games ? "Seats:" : "Seats: none");
	const char *sep = " ";
	for (int n = 0; n <= MAX_SEATS; n++)
		if (st->by_seats[n]) {
			carc_buf_printf(o, "%s%d player%s in %lu game%s", sep, n, n == 1 ? "" : "s", st->by_seats[n],
					st->by_seats[n] == 1 ? "" : "s");
			sep = ", ";
		}
	carc_buf_adds(o, "\n\nDiagnostics (games with each):\n");
	bool any = false;
	for (int code = 0; code < CARC_CODE_COUNT; code++)
		if (st->codes[code]) {
			carc_buf_printf(o, "  %s  %-24s %lu\n", carc_code_str((enum carc_code)code),
					carc_code_name((enum carc_code)code), st->codes[code]);
			any = true;
		}
	if (!any)
		carc_buf_adds(o, "  none\n");
	carc_buf_printf(o, "\nScores of complete games:\n  %-8s %7s %4s %7s %8s %8s %6s %6s\n", "rules", "players",
			"seat", "scores", "mean", "sd", "min", "max");
	struct score_row srows[MAX_SCORE_ROWS];
	size_t nrows = score_rows(st, srows);
	for (size_t i = 0; i < nrows; i++) {
		const struct score_row *row = &srows[i];
		char seat[8];
		snprintf(seat, sizeof seat, "%d", row->seat);
		carc_buf_printf(o, "  %-8s %7d %4s %7lu %8.2f %8.2f %6ld %6ld\n", rules_name(row->rules), row->players,
				row->seat ? seat : "all", row->sp->n, row->sp->mean, spread_sd(row->sp), row->sp->min,
				row->sp->max);
	}
	carc_buf_printf(o, "\nPoints of complete games by source:\n  %-8s %-14s %9s %9s %9s %9s %7s\n", "rules",
			"source", "play", "end", "total", "a game", "share");
	struct points_row prows[MAX_POINTS_ROWS];
	nrows = points_rows(st, prows);
	for (size_t i = 0; i < nrows; i++) {
		const struct points_row *row = &prows[i];
		carc_buf_printf(o, "  %-8s %-14s %9lld %9lld %9lld %9.2f %6.1f%%\n", rules_name(row->rules), row->source,
				row->play, row->end, row->total, row->per_game, 100.0 * row->share);
	}
	carc_buf_adds(o, "\nDecided by farms (a winner would not have won without farm points):\n");
	any = false;
	for (int r = 0; r < carc_ruleset_count(); r++)
		if (st->farm_games[r]) {
			carc_buf_printf(o, "  %-8s %lu of %lu complete game%s (%.1f%%)\n", rules_name(r), st->farm_decided[r],
					st->farm_games[r], st->farm_games[r] == 1 ? "" : "s",
					100.0 * ratio((double)st->farm_decided[r], (double)st->farm_games[r]));
			any = true;
		}
	if (!any)
		carc_buf_adds(o, "  no complete game with winners\n");
	carc_buf_printf(o, "\nDiscards: %lu in %lu game%s", st->discards, st->discard_games,
			st->discard_games == 1 ? "" : "s");
	if (st->discard_most)
		carc_buf_printf(o, "; most in one game %lu (%s:%u, game %u)", st->discard_most, st->discard_where.file,
				st->discard_where.line, st->discard_where.game);
	bool kinds = false;
	for (int k = CARC_EV_MODULE; k < CARC_EV_KINDS; k++)
		if (st->kind_count[k]) {
			if (!kinds)
				carc_buf_adds(o, "\n\nFeatures scored by an expansion's rules (complete games):");
			kinds = true;
			carc_buf_printf(o, "\n  %-16s %lu, %ld points", st->kind_name[k], st->kind_count[k], st->kind_points[k]);
		}
	carc_buf_adds(o, "\n\nLargest features of complete games (tiles):\n");
	if (!st->nlargest)
		carc_buf_adds(o, "  none\n");
	for (size_t i = 0; i < st->nlargest; i++) {
		const struct largest *l = &st->largest[i];
		carc_buf_printf(o, "  %-8s %-10s largest %3ld (%s:%u, game %u); each game's largest: mean %.2f, sd %.2f\n",
				rules_name(l->rules), l->kind, l->per_game.max, l->where.file, l->where.line,
				l->where.game, l->per_game.mean, spread_sd(&l->per_game));
	}
}

static void json_ref(struct carc_buf *o, const struct game_ref *ref)
{
	carc_buf_adds(o, ",\"file\":");
	carc_json_cstr(o, ref->file);
	carc_buf_printf(o, ",\"game\":%u,\"line\":%u,\"id\":\"%s\"", ref->game, ref->line, ref->id);
}

static void json_report(struct carc_buf *o, const struct stats *st, const struct carc_archive_totals *t)
{
	carc_buf_printf(o, "{\"files\":%u,\"unreadable\":%u,\"games\":%lu,\"valid\":%lu,\"invalid\":%lu,"
			   "\"finished\":%lu,\"complete\":%lu,\"rules\":{",
			t->files, t->unreadable, st->games, st->valid, st->invalid, st->finished, st->complete);
	const char *sep = "";
	for (int r = 0; r < carc_ruleset_count(); r++)
		if (st->by_rules[r]) {
			carc_buf_printf(o, "%s\"%s\":%lu", sep, rules_name(r), st->by_rules[r]);
			sep = ",";
		}
	carc_buf_printf(o, "},\"players\":{\"named\":%zu,\"unnamed_seats\":%lu},\"seats\":{", st->names.count,
			st->unnamed);
	sep = "";
	for (int n = 0; n <= MAX_SEATS; n++)
		if (st->by_seats[n]) {
			carc_buf_printf(o, "%s\"%d\":%lu", sep, n, st->by_seats[n]);
			sep = ",";
		}
	carc_buf_adds(o, "},\"codes\":{");
	sep = "";
	for (int code = 0; code < CARC_CODE_COUNT; code++)
		if (st->codes[code]) {
			carc_buf_printf(o, "%s\"%s\":%lu", sep, carc_code_str((enum carc_code)code), st->codes[code]);
			sep = ",";
		}
	carc_buf_adds(o, "},\"scores\":[");
	struct score_row srows[MAX_SCORE_ROWS];
	size_t nrows = score_rows(st, srows);
	for (size_t i = 0; i < nrows; i++) {
		const struct score_row *row = &srows[i];
		carc_buf_printf(o, "%s{\"rules\":\"%s\",\"players\":%d,\"seat\":", i ? "," : "", rules_name(row->rules),
				row->players);
		if (row->seat)
			carc_buf_printf(o, "%d", row->seat);
		else
			carc_buf_adds(o, "null");
		carc_buf_printf(o, ",\"scores\":%lu,\"mean\":%.6g,\"sd\":%.6g,\"min\":%ld,\"max\":%ld}", row->sp->n,
				row->sp->mean, spread_sd(row->sp), row->sp->min, row->sp->max);
	}
	carc_buf_adds(o, "],\"points\":[");
	struct points_row prows[MAX_POINTS_ROWS];
	nrows = points_rows(st, prows);
	for (size_t i = 0; i < nrows; i++) {
		const struct points_row *row = &prows[i];
		carc_buf_printf(o, "%s{\"rules\":\"%s\",\"source\":\"%s\",\"play\":%lld,\"end\":%lld,\"total\":%lld,"
				   "\"per_game\":%.6g,\"share\":%.6g}",
				i ? "," : "", rules_name(row->rules), row->source, row->play, row->end, row->total,
				row->per_game, row->share);
	}
	carc_buf_adds(o, "],\"farms\":[");
	sep = "";
	for (int r = 0; r < carc_ruleset_count(); r++)
		if (st->farm_games[r]) {
			carc_buf_printf(o, "%s{\"rules\":\"%s\",\"games\":%lu,\"decided\":%lu,\"share\":%.6g}", sep,
					rules_name(r), st->farm_games[r], st->farm_decided[r],
					ratio((double)st->farm_decided[r], (double)st->farm_games[r]));
			sep = ",";
		}
	carc_buf_printf(o, "],\"discards\":{\"total\":%lu,\"games\":%lu,\"most\":%lu", st->discards,
			st->discard_games, st->discard_most);
	if (st->discard_most)
		json_ref(o, &st->discard_where);
	carc_buf_adds(o, "}");
	bool kinds = false; /* the features scored by an expansion's rules, when there are some */
	for (int k = CARC_EV_MODULE; k < CARC_EV_KINDS; k++)
		if (st->kind_count[k]) {
			carc_buf_adds(o, kinds ? "," : ",\"scored_by_kind\":[");
			kinds = true;
			carc_buf_adds(o, "{\"kind\":");
			carc_json_cstr(o, st->kind_name[k]);
			carc_buf_printf(o, ",\"count\":%lu,\"points\":%ld}", st->kind_count[k], st->kind_points[k]);
		}
	if (kinds)
		carc_buf_adds(o, "]");
	carc_buf_adds(o, ",\"largest\":[");
	for (size_t i = 0; i < st->nlargest; i++) {
		const struct largest *l = &st->largest[i];
		carc_buf_printf(o, "%s{\"rules\":\"%s\",\"kind\":", i ? "," : "", rules_name(l->rules));
		carc_json_cstr(o, l->kind);
		carc_buf_printf(o, ",\"tiles\":%ld,\"mean\":%.6g,\"sd\":%.6g", l->per_game.max, l->per_game.mean,
				spread_sd(&l->per_game));
		json_ref(o, &l->where);
		carc_buf_addc(o, '}');
	}
	carc_buf_adds(o, "]}\n");
}

/* CSV: one row per figure, in long form. */
static void csv_row(struct carc_buf *o, const char *section, const char *rules, int players, int seat,
		    const char *key, double count, const char *rest)
{
	carc_buf_printf(o, "%s,%s,", section, rules ? rules : "");
	if (players >= 0)
		carc_buf_printf(o, "%d", players);
	carc_buf_addc(o, ',');
	if (seat > 0)
		carc_buf_printf(o, "%d", seat);
	else if (!seat)
		carc_buf_adds(o, "all");
	carc_buf_addc(o, ',');
	if (key)
		carc_report_csv_field(o, key, strlen(key));
	carc_buf_printf(o, ",%.10g,%s\n", count, rest ? rest : ",,,,");
}

static void csv_report(struct carc_buf *o, const struct stats *st, const struct carc_archive_totals *t)
{
	char rest[256];
	carc_buf_adds(o, "section,rules,players,seat,key,count,total,mean,sd,min,max\n");
	csv_row(o, "files", NULL, -1, -1, "given", t->files, NULL);
	csv_row(o, "files", NULL, -1, -1, "unreadable", t->unreadable, NULL);
	csv_row(o, "games", NULL, -1, -1, "all", (double)st->games, NULL);
	csv_row(o, "games", NULL, -1, -1, "valid", (double)st->valid, NULL);
	csv_row(o, "games", NULL, -1, -1, "invalid", (double)st->invalid, NULL);
	csv_row(o, "games", NULL, -1, -1, "finished", (double)st->finished, NULL);
	csv_row(o, "games", NULL, -1, -1, "complete", (double)st->complete, NULL);
	for (int r = 0; r < carc_ruleset_count(); r++)
		if (st->by_rules[r])
			csv_row(o, "rules", rules_name(r), -1, -1, NULL, (double)st->by_rules[r], NULL);
	csv_row(o, "players", NULL, -1, -1, "named", (double)st->names.count, NULL);
	csv_row(o, "players", NULL, -1, -1, "unnamed_seats", (double)st->unnamed, NULL);
	for (int n = 0; n <= MAX_SEATS; n++)
		if (st->by_seats[n])
			csv_row(o, "seats", NULL, n, -1, NULL, (double)st->by_seats[n], NULL);
	for (int code = 0; code < CARC_CODE_COUNT; code++)
		if (st->codes[code])
			csv_row(o, "code", NULL, -1, -1, carc_code_str((enum carc_code)code), (double)st->codes[code], NULL);
	struct score_row srows[MAX_SCORE_ROWS];
	size_t nrows = score_rows(st, srows);
	for (size_t i = 0; i < nrows; i++) {
		const struct score_row *row = &srows[i];
		snprintf(rest, sizeof rest, ",%.2f,%.2f,%ld,%ld", row->sp->mean, spread_sd(row->sp), row->sp->min,
			 row->sp->max);
		csv_row(o, "scores", rules_name(row->rules), row->players, row->seat, NULL, (double)row->sp->n, rest);
	}
	struct points_row prows[MAX_POINTS_ROWS];
	nrows = points_rows(st, prows);
	for (size_t i = 0; i < nrows; i++) {
		const struct points_row *row = &prows[i];
		snprintf(rest, sizeof rest, "%lld,%.2f,,,", row->total, row->per_game);
		csv_row(o, "points", rules_name(row->rules), -1, -1, row->source,
			(double)st->complete_by_rules[row->rules], rest);
	}
	for (int r = 0; r < carc_ruleset_count(); r++)
		if (st->farm_games[r]) {
			snprintf(rest, sizeof rest, "%lu,%.4f,,,", st->farm_decided[r],
				 ratio((double)st->farm_decided[r], (double)st->farm_games[r]));
			csv_row(o, "farms_decided", rules_name(r), -1, -1, NULL, (double)st->farm_games[r], rest);
		}
	snprintf(rest, sizeof rest, "%lu,,,,%lu", st->discards, st->discard_most);
	csv_row(o, "discards", NULL, -1, -1, NULL, (double)st->discard_games, rest);
	for (int k = CARC_EV_MODULE; k < CARC_EV_KINDS; k++)
		if (st->kind_count[k]) {
			snprintf(rest, sizeof rest, "%ld,,,,", st->kind_points[k]);
			csv_row(o, "scored_by_kind", NULL, -1, -1, st->kind_name[k], (double)st->kind_count[k], rest);
		}
	for (size_t i = 0; i < st->nlargest; i++) {
		const struct largest *l = &st->largest[i];
		snprintf(rest, sizeof rest, ",%.2f,%.2f,%ld,%ld", l->per_game.mean, spread_sd(&l->per_game),
			 l->per_game.min, l->per_game.max);
		csv_row(o, "largest", rules_name(l->rules), -1, -1, l->kind, (double)l->per_game.n, rest);
	}
}

/* ---- --players: the figures of each named player ---- */

/* Points by source for players, over every rule set: the sources in the
 * order of carc_source, each with a key of its own. */
static const struct {
	const char *key;
	int src[3];
} player_sources[] = {
	{"roads", {CARC_SRC_PLAY_PATH, CARC_SRC_END_PATH, -1}},
	{"cities", {CARC_SRC_PLAY_ENCLOSURE, CARC_SRC_END_ENCLOSURE, -1}},
	{"cloisters", {CARC_SRC_PLAY_SITE, CARC_SRC_END_SITE, -1}},
	{"farms", {CARC_SRC_AREA, -1, -1}},
	{"other", {CARC_SRC_OTHER, -1, -1}},
};
#define NPLAYER_SOURCES (sizeof player_sources / sizeof player_sources[0])

static long long player_points(const struct player *p, size_t k)
{
	long long sum = 0;
	for (int i = 0; i < 3 && player_sources[k].src[i] >= 0; i++)
		sum += p->points[player_sources[k].src[i]];
	return sum;
}

static double player_mean(const struct player *p)
{
	return ratio((double)p->score, (double)p->complete);
}

static int by_name(const void *a, const void *b, void *names)
{
	return strcmp(carc_names_get(names, *(const size_t *)a), carc_names_get(names, *(const size_t *)b));
}

/* The players in the order of their names (bytes). */
static size_t *players_in_order(const struct stats *st)
{
	size_t n = st->names.count;
	size_t *order = xmalloc((n ? n : 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort: the names are few next to the games */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && by_name(&order[j - 1], &order[j], (void *)&st->names) > 0; j--) {
			size_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	return order;
}

static void players_text(struct carc_buf *o, const struct stats *st)
{
	size_t n = st->names.count, width = 6;
	for (size_t i = 0; i < n; i++)
		if (carc_str_width(carc_names_get(&st->names, i)) > width)
			width = carc_str_width(carc_names_get(&st->names, i));
	size_t *order = players_in_order(st);
	carc_buf_printf(o, "Players (%zu named; wins, mean and points over their complete games):\n\n", n);
	carc_buf_add_padded(o, "player", width, false);
	carc_buf_adds(o, "  games  complete  wins    mean");
	for (size_t k = 0; k < NPLAYER_SOURCES; k++)
		carc_buf_printf(o, "  %9s", player_sources[k].key);
	carc_buf_addc(o, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct player *p = &st->players[order[i]];
		carc_buf_add_padded(o, carc_names_get(&st->names, order[i]), width, false);
		carc_buf_printf(o, "  %5lu  %8lu  %4lu  %6.2f", p->games, p->complete, p->wins, player_mean(p));
		for (size_t k = 0; k < NPLAYER_SOURCES; k++)
			carc_buf_printf(o, "  %9lld", player_points(p, k));
		carc_buf_addc(o, '\n');
	}
	if (!n)
		carc_buf_adds(o, "  none\n");
	free(order);
}

static void players_json(struct carc_buf *o, const struct stats *st)
{
	size_t *order = players_in_order(st);
	carc_buf_adds(o, "{\"players\":[");
	for (size_t i = 0; i < st->names.count; i++) {
		const struct player *p = &st->players[order[i]];
		carc_buf_adds(o, i ? ",{\"name\":" : "{\"name\":");
		carc_json_cstr(o, carc_names_get(&st->names, order[i]));
		carc_buf_printf(o, ",\"games\":%lu,\"complete\":%lu,\"wins\":%lu,\"mean\":%.6g,\"points\":{", p->games,
				p->complete, p->wins, player_mean(p));
		for (size_t k = 0; k < NPLAYER_SOURCES; k++)
			carc_buf_printf(o, "%s\"%s\":%lld", k ? "," : "", player_sources[k].key, player_points(p, k));
		carc_buf_adds(o, "}}");
	}
	carc_buf_adds(o, "]}\n");
	free(order);
}

static void players_csv(struct carc_buf *o, const struct stats *st)
{
	size_t *order = players_in_order(st);
	carc_buf_adds(o, "player,games,complete,wins,mean");
	for (size_t k = 0; k < NPLAYER_SOURCES; k++)
		carc_buf_printf(o, ",%s", player_sources[k].key);
	carc_buf_addc(o, '\n');
	for (size_t i = 0; i < st->names.count; i++) {
		const struct player *p = &st->players[order[i]];
		const char *name = carc_names_get(&st->names, order[i]);
		carc_report_csv_field(o, name, strlen(name));
		carc_buf_printf(o, ",%lu,%lu,%lu,%.2f", p->games, p->complete, p->wins, player_mean(p));
		for (size_t k = 0; k < NPLAYER_SOURCES; k++)
			carc_buf_printf(o, ",%lld", player_points(p, k));
		carc_buf_addc(o, '\n');
	}
	free(order);
}

static void help(void)
{
	printf("usage: carc stats [OPTIONS] FILE...|-\n\n"
	       "Referee every game of the files and print the figures of the whole: games,\n"
	       "valid and invalid, games with each diagnostic code, rule sets, players and\n"
	       "seats; over the complete games (valid, played to the end): the mean, spread\n"
	       "(sample standard deviation), lowest and highest scores by number of players\n"
	       "and by seat, points by source (roads, cities, cloisters, farms, other; the\n"
	       "Hunters and Gatherers' rivers, forests, meadows), the share of games decided\n"
	       "by farms (a winner would not have won without them), discards, and the\n"
	       "largest road, city and field (in tiles). Diagnostics are counted, not printed.\n"
	       "Two player names that differ only in case or accents (Chloe, Chloé) get a\n"
	       "warning: they are counted as two players.\n\n"
	       "options:\n"
	       "  -f, --format FORMAT  text (default), json (one object) or csv (one row a figure)\n"
	       "  -p, --players        instead, each named player's figures: games, complete\n"
	       "                       games, wins (the top score, alone or shared), mean score\n"
	       "                       and points by source (roads, cities, cloisters, farms,\n"
	       "                       other) over their complete games\n"
	       "  -o, --output FILE    write the figures to FILE\n"
	       "  -j, --jobs N         use N threads (the output is the same)\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME     name standard input NAME in messages and output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 the figures were written (invalid games are among them),\n"
	       "2 could not run (usage, unreadable file, bad tile set, output not written).\n");
}

static void stats_free(struct stats *st)
{
	carc_names_free(&st->names);
	free(st->players);
	for (size_t i = 0; i < st->nlargest; i++) {
		free(st->largest[i].kind);
		free(st->largest[i].where.file);
	}
	free(st->largest);
	free(st->discard_where.file);
	free(st);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
		{"players", no_argument, NULL, 'p'},
		CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		CARC_JOBS_OPTION,
		{"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	enum carc_archive_format format = CARC_FORMAT_TEXT;
	const char *output = NULL;
	bool players = false;
	int jobs = 1;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:o:pj:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!carc_archive_format(optarg, &format))
				return carc_usage_error("stats", "--format is text, json or csv, not '%s'", optarg);
			break;
		case 'j':
			if (!carc_jobs_option("stats", optarg, &jobs))
				return CARC_EXIT_TROUBLE;
			break;
		case 'o':
			output = optarg;
			break;
		case 'p':
			players = true;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("stats", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("stats", c, argv);
		}
	}
	if (optind >= argc)
		return carc_usage_error("stats", "no input: give one or more files, or - for standard input");
	struct carc_output to;
	if (!carc_output_open(&to, "stats", output))
		return CARC_EXIT_TROUBLE;
	struct stats *st = xcalloc(1, sizeof *st);
	struct carc_archive_totals t = {0};
	carc_archive_each(argv + optind, argc - optind, true, jobs, each_game, st, &t);
	carc_names_warn_alike(&st->names, "stats");
	struct carc_buf out = {0};
	if (players && format == CARC_FORMAT_JSON)
		players_json(&out, st);
	else if (players && format == CARC_FORMAT_CSV)
		players_csv(&out, st);
	else if (players)
		players_text(&out, st);
	else if (format == CARC_FORMAT_JSON)
		json_report(&out, st, &t);
	else if (format == CARC_FORMAT_CSV)
		csv_report(&out, st, &t);
	else
		text_report(&out, st, &t);
	fwrite(out.data, 1, out.len, to.f);
	carc_buf_free(&out);
	stats_free(st);
	bool ok = !t.unreadable && !t.trouble;
	if (!carc_output_close(&to, ok))
		return CARC_EXIT_TROUBLE;
	return ok ? CARC_EXIT_OK : CARC_EXIT_TROUBLE;
}
