/*
 * cmd_ratings.c - carc ratings: Elo ratings over an archive of games.
 *
 * The games are read once (played.h says how a game's outcome is read),
 * kept as a few numbers each, put in time order (Date, then Time, then
 * the order of the files and of the games in them) and rated in that
 * order (elo.h): per game (each two-player game an update; a game of more
 * players is every pair of them, with K divided by the number of
 * opponents, all from the ratings before the game) or per match (the
 * games sharing an Event and a Match tag are one duel: one update from
 * games won, with carcassonne.gg's margin factor). Memory: a row per game
 * or duel and one per player; time: the games, and one sort of them.
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/elo.h"
#include "cli/played.h"
#include "common/json.h"
#include "output/report.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A game or a duel to rate. */
struct item {
	uint32_t date, time;        /* indices into the dates and times tables (0: none) */
	uint32_t file, line, index; /* where it is (a duel: its first game) */
	uint64_t seq;               /* the order read */
	uint8_t nseats;
	uint32_t players[CARC_COLOURS];
	double result[CARC_COLOURS]; /* a game: places as results; a duel: games won */
	uint32_t format;            /* a duel's Format: N of "BoN", 0 when none */
	bool broken;                /* a duel whose games have other players */
};

struct player {
	double rating;
	unsigned long games, wins, draws, losses;
};

struct ratings {
	double start, k, scale;
	bool per_match, gg;
	enum played_level level;
	enum carc_archive_format format;
	bool history;
	const char *event;
	struct carc_names names, dates, times, files, duels, seen;
	struct player *players;
	size_t players_cap;
	struct item *items;
	size_t nitems, items_cap;
	unsigned long rated, not_rated, left_out;
	bool invalid;
	uint64_t seq;
	struct carc_buf key;
};

static uint32_t player_of(struct ratings *rt, const char *name)
{
	size_t i = carc_names_intern(&rt->names, name);
	if (i >= rt->players_cap) {
		size_t cap = rt->players_cap ? 2 * rt->players_cap : 64;
		rt->players = xrealloc(rt->players, cap * sizeof *rt->players);
		for (size_t j = rt->players_cap; j < cap; j++)
			rt->players[j] = (struct player){.rating = rt->start};
		rt->players_cap = cap;
	}
	return (uint32_t)i;
}

static struct item *new_item(struct ratings *rt)
{
	if (rt->nitems == rt->items_cap) {
		rt->items_cap = rt->items_cap ? 2 * rt->items_cap : 256;
		rt->items = xrealloc(rt->items, rt->items_cap * sizeof *rt->items);
	}
	struct item *it = &rt->items[rt->nitems++];
	memset(it, 0, sizeof *it);
	return it;
}

/* The index of s in a table whose index 0 is the empty string. */
static uint32_t intern0(struct carc_names *n, const char *s)
{
	if (!n->count)
		carc_names_intern(n, "");
	return (uint32_t)carc_names_intern(n, s ? s : "");
}

static void say_left_out(struct ratings *rt, const struct carc_archive_game *game, const char *why)
{
	rt->left_out++;
	fprintf(stderr, "carc ratings: %s:%u: game %u left out: %s\n", game->file, game->rec->src.base_line,
		game->rec->index, why);
}

static void each_game(void *ctx, const struct carc_archive_game *game)
{
	struct ratings *rt = ctx;
	struct played p;
	const char *why = played_read(game, rt->level, &p);
	if (rt->event && (!p.event || strcmp(p.event, rt->event)))
		return;
	rt->seq++;
	if (why) {
		if (game->errors)
			rt->invalid = true;
		say_left_out(rt, game, why);
		return;
	}
	bool rated = PLAYED_OVER_THE_BOARD(p.kind) || (rt->gg && p.kind == PLAYED_NO_SHOW);
	if (!rated) {
		rt->not_rated++;
		return;
	}
	if (rt->per_match && p.nseats != 2) {
		say_left_out(rt, game, "a duel is of two players");
		return;
	}
	uint32_t who[CARC_COLOURS];
	for (int s = 0; s < p.nseats; s++)
		who[s] = player_of(rt, p.names[s]);
	struct item *it = NULL;
	if (rt->per_match) {
		carc_buf_reset(&rt->key);
		carc_buf_printf(&rt->key, "%s%c%s", p.event ? p.event : "", 0x1f, p.match ? p.match : "");
		if (!p.match) /* a game without a Match tag is a duel of its own */
			carc_buf_printf(&rt->key, "%c%llu", 0x1f, (unsigned long long)rt->seq);
		size_t before = rt->duels.count;
		size_t d = carc_names_intern(&rt->duels, carc_buf_cstr(&rt->key));
		if (d < before) {
			it = &rt->items[d];
			bool same = (it->players[0] == who[0] && it->players[1] == who[1]) ||
				    (it->players[0] == who[1] && it->players[1] == who[0]);
			if (!same) {
				it->broken = true;
				say_left_out(rt, game, "its Match tag names a duel of other players");
				return;
			}
			if (p.winner >= 0) {
				it->result[it->players[0] == who[p.winner] ? 0 : 1] += 1;
			} else {
				it->result[0] += 0.5;
				it->result[1] += 0.5;
			}
			if (p.format_games && !it->format)
				it->format = p.format_games;
			/* the duel is rated at the time of its earliest game */
			int c = strcmp(p.date ? p.date : "", carc_names_get(&rt->dates, it->date));
			if (!c)
				c = strcmp(p.time, carc_names_get(&rt->times, it->time));
			if (c < 0) {
				it->date = intern0(&rt->dates, p.date);
				it->time = intern0(&rt->times, p.time);
				it->file = intern0(&rt->files, game->file);
				it->line = game->rec->src.base_line;
				it->index = game->rec->index;
			}
			rt->rated++;
			return;
		}
		it = new_item(rt);
		it->nseats = 2;
		it->players[0] = who[0];
		it->players[1] = who[1];
		if (p.winner >= 0)
			it->result[p.winner] = 1;
		else
			it->result[0] = it->result[1] = 0.5;
		it->format = p.format_games;
	} else {
		it = new_item(rt);
		it->nseats = (uint8_t)p.nseats;
		for (int s = 0; s < p.nseats; s++) {
			it->players[s] = who[s];
			if (p.nseats == 2)
				it->result[s] = p.winner < 0 ? 0.5 : p.winner == s;
			else
				it->result[s] = p.has_scores ? p.scores[s] : p.winner == s;
		}
	}
	it->date = intern0(&rt->dates, p.date);
	it->time = intern0(&rt->times, p.time);
	it->file = intern0(&rt->files, game->file);
	it->line = game->rec->src.base_line;
	it->index = game->rec->index;
	it->seq = rt->seq;
	rt->rated++;
}

static const struct ratings *sorting; /* qsort has no context argument */

static int by_time(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	int c = strcmp(carc_names_get(&sorting->dates, a->date), carc_names_get(&sorting->dates, b->date));
	if (!c)
		c = strcmp(carc_names_get(&sorting->times, a->time), carc_names_get(&sorting->times, b->time));
	if (!c)
		c = a->seq < b->seq ? -1 : a->seq > b->seq;
	return c;
}

/* ---- rating, and the history ---- */

struct out {
	struct ratings *rt;
	FILE *f;
	struct carc_buf b;
	unsigned long rows;
};

static void history_row(struct out *o, const struct item *it, uint32_t player, uint32_t opponent, double result,
			double before, double after)
{
	struct ratings *rt = o->rt;
	struct carc_buf *b = &o->b;
	carc_buf_reset(b);
	const char *name = carc_names_get(&rt->names, player);
	const char *opp = opponent == UINT32_MAX ? "" : carc_names_get(&rt->names, opponent);
	const char *date = carc_names_get(&rt->dates, it->date), *time = carc_names_get(&rt->times, it->time);
	const char *file = carc_names_get(&rt->files, it->file);
	if (rt->format == CARC_FORMAT_JSON) {
		carc_buf_adds(b, o->rows ? ",\n" : "\n");
		carc_buf_adds(b, "{\"date\":");
		carc_json_cstr(b, date);
		carc_buf_adds(b, ",\"time\":");
		carc_json_cstr(b, time);
		carc_buf_adds(b, ",\"file\":");
		carc_json_cstr(b, file);
		carc_buf_printf(b, ",\"line\":%u,\"game\":%u,\"player\":", it->line, it->index);
		carc_json_cstr(b, name);
		carc_buf_adds(b, ",\"opponent\":");
		if (opponent == UINT32_MAX)
			carc_buf_adds(b, "null");
		else
			carc_json_cstr(b, opp);
		carc_buf_printf(b, ",\"result\":%g,\"before\":%.2f,\"after\":%.2f,\"change\":%.2f}", result, before,
				after, after - before);
	} else {
		const char *fields[] = {date, time, file};
		for (int i = 0; i < 3; i++) {
			carc_report_csv_field(b, fields[i], strlen(fields[i]));
			carc_buf_addc(b, ',');
		}
		carc_buf_printf(b, "%u,%u,", it->line, it->index);
		carc_report_csv_field(b, name, strlen(name));
		carc_buf_addc(b, ',');
		carc_report_csv_field(b, opp, strlen(opp));
		carc_buf_printf(b, ",%g,%.2f,%.2f,%.2f\n", result, before, after, after - before);
	}
	fwrite(b->data, 1, b->len, o->f);
	o->rows++;
}

static void tally(struct player *pl, double result)
{
	pl->games++;
	if (result > 0.5)
		pl->wins++;
	else if (result < 0.5)
		pl->losses++;
	else
		pl->draws++;
}

static void rate(struct ratings *rt, struct out *history)
{
	sorting = rt;
	if (rt->nitems) /* (qsort takes no NULL, even for none) */
		qsort(rt->items, rt->nitems, sizeof *rt->items, by_time);
	double delta[CARC_COLOURS];
	for (size_t i = 0; i < rt->nitems; i++) {
		const struct item *it = &rt->items[i];
		if (it->broken)
			continue;
		if (it->nseats == 2) {
			struct player *a = &rt->players[it->players[0]], *b = &rt->players[it->players[1]];
			double sa, margin = 1.0;
			if (rt->per_match) {
				double wa = it->result[0], wb = it->result[1];
				sa = wa > wb ? 1 : wa < wb ? 0 : 0.5;
				unsigned n = it->format ? it->format : elo_format_n(NULL, (unsigned)(wa > wb ? wa : wb));
				margin = elo_margin(wa, wb, n);
			} else {
				sa = it->result[0];
			}
			double ra = a->rating, rb = b->rating;
			elo_update(&a->rating, &b->rating, sa, rt->k, rt->scale, margin);
			tally(a, sa);
			tally(b, 1 - sa);
			if (history) {
				history_row(history, it, it->players[0], it->players[1], sa, ra, a->rating);
				history_row(history, it, it->players[1], it->players[0], 1 - sa, rb, b->rating);
			}
			continue;
		}
		/* a game of more players: every pair, from the ratings before it */
		int n = it->nseats;
		double k = rt->k / (n - 1);
		for (int s = 0; s < n; s++)
			delta[s] = 0;
		for (int s = 0; s < n; s++)
			for (int t = 0; t < n; t++) {
				if (s == t)
					continue;
				double score = it->result[s] > it->result[t] ? 1 : it->result[s] < it->result[t] ? 0 : 0.5;
				double e = elo_expected(rt->players[it->players[s]].rating,
							rt->players[it->players[t]].rating, rt->scale);
				delta[s] += k * (score - e);
			}
		double best = it->result[0];
		int tops = 0;
		for (int s = 1; s < n; s++)
			if (it->result[s] > best)
				best = it->result[s];
		for (int s = 0; s < n; s++)
			tops += it->result[s] == best;
		for (int s = 0; s < n; s++) {
			struct player *pl = &rt->players[it->players[s]];
			double before = pl->rating;
			double result = it->result[s] == best ? (tops == 1 ? 1 : 0.5) : 0;
			pl->rating += delta[s];
			tally(pl, result);
			if (history)
				history_row(history, it, it->players[s], UINT32_MAX, result, before, pl->rating);
		}
	}
}

/* ---- the table ---- */

static const struct ratings *ranking;
static int by_rating(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double a = ranking->players[i].rating, b = ranking->players[j].rating;
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(carc_names_get(&ranking->names, i), carc_names_get(&ranking->names, j));
}

static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void table(struct ratings *rt, FILE *f)
{
	size_t n = rt->names.count;
	size_t *order = xmalloc((n ? n : 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	ranking = rt;
	qsort(order, n, sizeof *order, by_rating);
	struct carc_buf b = {0};
	const char *unit = rt->per_match ? "duel" : "game";
	if (rt->format == CARC_FORMAT_JSON) {
		carc_buf_printf(&b, "{\"start\":%g,\"k\":%g,\"scale\":%g,\"per\":\"%s\",\"preset\":%s,\"rated\":%lu,"
				    "\"not_rated\":%lu,\"left_out\":%lu,\"players\":[",
				rt->start, rt->k, rt->scale, unit, rt->gg ? "\"gg\"" : "null", rt->rated, rt->not_rated,
				rt->left_out);
		for (size_t i = 0; i < n; i++) {
			const struct player *p = &rt->players[order[i]];
			carc_buf_printf(&b, "%s{\"rank\":%zu,\"player\":", i ? "," : "", i + 1);
			carc_json_cstr(&b, carc_names_get(&rt->names, order[i]));
			carc_buf_printf(&b, ",\"rating\":%.2f,\"%ss\":%lu,\"wins\":%lu,\"draws\":%lu,\"losses\":%lu}",
					p->rating, unit, p->games, p->wins, p->draws, p->losses);
		}
		carc_buf_adds(&b, "]}\n");
	} else if (rt->format == CARC_FORMAT_CSV) {
		carc_buf_printf(&b, "rank,player,rating,%ss,wins,draws,losses\n", unit);
		for (size_t i = 0; i < n; i++) {
			const struct player *p = &rt->players[order[i]];
			const char *name = carc_names_get(&rt->names, order[i]);
			carc_buf_printf(&b, "%zu,", i + 1);
			carc_report_csv_field(&b, name, strlen(name));
			carc_buf_printf(&b, ",%.2f,%lu,%lu,%lu,%lu\n", p->rating, p->games, p->wins, p->draws,
					p->losses);
		}
	} else {
		carc_buf_printf(&b, "Ratings (Elo: start %g, K %g, scale %g, per %s%s; %lu game%s rated",
				rt->start, rt->k, rt->scale, unit, rt->gg ? ", carcassonne.gg's rule" : "", rt->rated,
				rt->rated == 1 ? "" : "s");
		if (rt->not_rated)
			carc_buf_printf(&b, ", %lu not rated (byes and results decided off the board)", rt->not_rated);
		if (rt->left_out)
			carc_buf_printf(&b, ", %lu left out", rt->left_out);
		carc_buf_adds(&b, ")\n\n");
		size_t width = 6;
		for (size_t i = 0; i < n; i++)
			if (text_width(carc_names_get(&rt->names, i)) > width)
				width = text_width(carc_names_get(&rt->names, i));
		carc_buf_printf(&b, "rank  player%*s   rating  %ss  won  drawn  lost\n", (int)(width - 6), "", unit);
		for (size_t i = 0; i < n; i++) {
			const struct player *p = &rt->players[order[i]];
			const char *name = carc_names_get(&rt->names, order[i]);
			carc_buf_printf(&b, "%4zu  %s%*s  %7.2f  %5lu  %3lu  %5lu  %4lu\n", i + 1, name,
					(int)(width - text_width(name)), "", p->rating, p->games, p->wins, p->draws,
					p->losses);
		}
	}
	fwrite(b.data, 1, b.len, f);
	carc_buf_free(&b);
	free(order);
}

/* ---- options ---- */

static bool number_option(const char *arg, double lo, double hi, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(arg, &end);
	if (end == arg || *end || errno || !(x >= lo && x <= hi))
		return false;
	*v = x;
	return true;
}

static void help(void)
{
	printf("usage: carc ratings [OPTIONS] FILE...|-\n\n"
	       "Elo ratings of the players of the games, rated in time order: by the Date\n"
	       "tag, then the Time tag, then the order of the files and of the games in\n"
	       "them. Each player starts at the start rating; after a game (or a duel),\n"
	       "each one's rating R becomes R + K * (S - E) * M, where S is the result (1 a\n"
	       "win, 0.5 level, 0 a loss), E = 1 / (1 + 10^((R_opponent - R) / scale)) the\n"
	       "expected result and M the margin factor (1 per game). Games won over the\n"
	       "board are rated, and 1-0, time forfeits and admin decisions; byes,\n"
	       "no-shows, withdrawals and disqualifications are not. A game of more than\n"
	       "two players rates every pair in it, with K divided by the opponents.\n\n"
	       "options:\n"
	       "  -f, --format FORMAT  text (default), json or csv\n"
	       "      --history        every rating change instead of the table (csv or\n"
	       "                       json; text means csv)\n"
	       "      --per game|match  game (default): each game an update; match: the\n"
	       "                       games sharing an Event and a Match tag are one duel,\n"
	       "                       rated once from games won (S: more 1, equal 0.5;\n"
	       "                       a level game is half a game won each),\n"
	       "                       with M = 1 + (won - lost - 1) / N for a best of N\n"
	       "                       (N from the Format tag, \"Bo3\"; else 1, 3, 5 from\n"
	       "                       the winner's 1, 2, 3 games; else 3)\n"
	       "      --preset gg      carcassonne.gg's rule: per match, start 1500, K 32,\n"
	       "                       scale 400, no-show duels rated, a duel recorded\n"
	       "                       twice (same date, time, players, games and format)\n"
	       "                       rated once\n"
	       "      --start R        the start rating (default 1500)\n"
	       "      --rating NAME=R  NAME's rating before the first game rated (a\n"
	       "                       rating carried over from earlier events); repeatable\n"
	       "  -k, --k K            the K factor (default 32)\n"
	       "      --scale S        the scale (default 400)\n"
	       "      --level RULE     a level final score of two players: draw (default),\n"
	       "                       second (the second player wins) or first\n"
	       "  -e, --event NAME     rate only the games whose Event tag is NAME\n"
	       "  -o, --output FILE    write to FILE\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME     name standard input NAME in messages and output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "Games that cannot be rated are named on standard error.\n"
	       "exit status: 0 done, 1 a game is invalid (named, left out), 2 could not run.\n");
}

int cmd_ratings(int argc, char **argv)
{
	enum { OPT_HISTORY = 256, OPT_PER, OPT_PRESET, OPT_START, OPT_SCALE, OPT_LEVEL, OPT_RATING };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},  {"history", no_argument, NULL, OPT_HISTORY},
		{"per", required_argument, NULL, OPT_PER}, {"preset", required_argument, NULL, OPT_PRESET},
		{"start", required_argument, NULL, OPT_START}, {"k", required_argument, NULL, 'k'},
		{"rating", required_argument, NULL, OPT_RATING},
		{"scale", required_argument, NULL, OPT_SCALE}, {"level", required_argument, NULL, OPT_LEVEL},
		{"event", required_argument, NULL, 'e'},   {"output", required_argument, NULL, 'o'},
		CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		{"help", no_argument, NULL, 'h'},          {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct ratings rt = {.start = 1500, .k = 32, .scale = 400, .format = CARC_FORMAT_TEXT};
	const char *output = NULL;
	bool per_set = false;
	static const char *given[1024]; /* the --rating NAME=R, in order */
	size_t ngiven = 0;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:k:e:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!carc_archive_format(optarg, &rt.format))
				return carc_usage_error("ratings", "--format is text, json or csv, not '%s'", optarg);
			break;
		case OPT_HISTORY:
			rt.history = true;
			break;
		case OPT_PER:
			if (strcmp(optarg, "game") && strcmp(optarg, "match"))
				return carc_usage_error("ratings", "--per is game or match, not '%s'", optarg);
			rt.per_match = !strcmp(optarg, "match");
			per_set = true;
			break;
		case OPT_PRESET:
			if (strcmp(optarg, "gg"))
				return carc_usage_error("ratings", "--preset is gg, not '%s'", optarg);
			rt.gg = true;
			break;
		case OPT_RATING: {
			const char *eq = strrchr(optarg, '=');
			double r;
			if (!eq || eq == optarg || !number_option(eq + 1, -1e6, 1e6, &r))
				return carc_usage_error("ratings", "--rating takes NAME=RATING (Anna=1612.5), not '%s'",
							optarg);
			if (ngiven == CARC_ARRAY_LEN(given))
				return carc_usage_error("ratings", "at most %zu --rating options", CARC_ARRAY_LEN(given));
			given[ngiven++] = optarg;
			break;
		}
		case OPT_START:
			if (!number_option(optarg, -1e6, 1e6, &rt.start))
				return carc_usage_error("ratings", "--start takes a number, not '%s'", optarg);
			break;
		case 'k':
			if (!number_option(optarg, 0, 1e4, &rt.k))
				return carc_usage_error("ratings", "--k takes a number from 0 to 10000, not '%s'", optarg);
			break;
		case OPT_SCALE:
			if (!number_option(optarg, 1, 1e6, &rt.scale))
				return carc_usage_error("ratings", "--scale takes a number from 1 to 1000000, not '%s'",
							optarg);
			break;
		case OPT_LEVEL:
			if (!played_level_option(optarg, &rt.level))
				return carc_usage_error("ratings", "--level is draw, second or first, not '%s'", optarg);
			break;
		case 'e':
			rt.event = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("ratings", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("ratings", c, argv);
		}
	}
	if (optind >= argc)
		return carc_usage_error("ratings", "no input: give one or more files, or - for standard input");
	if (rt.gg) {
		if (per_set && !rt.per_match)
			return carc_usage_error("ratings", "--preset gg rates per match, not per game");
		rt.per_match = true;
	}
	/* the ratings given, after --start (which the others start from) */
	struct carc_buf name = {0};
	for (size_t i = 0; i < ngiven; i++) {
		const char *eq = strrchr(given[i], '=');
		double r = 0;
		number_option(eq + 1, -1e6, 1e6, &r);
		carc_buf_reset(&name);
		carc_buf_add(&name, given[i], (size_t)(eq - given[i]));
		uint32_t who = player_of(&rt, carc_buf_cstr(&name)); /* (it may move rt.players) */
		rt.players[who].rating = r;
	}
	carc_buf_free(&name);
	struct carc_output to;
	if (!carc_output_open(&to, "ratings", output))
		return CARC_EXIT_TROUBLE;
	struct carc_archive_totals t = {0};
	carc_archive_each(argv + optind, argc - optind, true, 1, each_game, &rt, &t);
	if (rt.gg) { /* a duel recorded twice is rated once */
		for (size_t i = 0; i < rt.nitems; i++) {
			struct item *it = &rt.items[i];
			uint32_t lo = it->players[0] < it->players[1] ? 0 : 1;
			carc_buf_reset(&rt.key);
			carc_buf_printf(&rt.key, "%s\x1f%s\x1f%u\x1f%u\x1f%g\x1f%g\x1f%u",
					carc_names_get(&rt.dates, it->date), carc_names_get(&rt.times, it->time),
					it->players[lo], it->players[!lo], it->result[lo], it->result[!lo],
					it->format);
			size_t before = rt.seen.count;
			if (carc_names_intern(&rt.seen, carc_buf_cstr(&rt.key)) < before && !it->broken) {
				it->broken = true;
				fprintf(stderr, "carc ratings: %s:%u: game %u: a duel recorded twice, rated once\n",
					carc_names_get(&rt.files, it->file), it->line, it->index);
			}
		}
	}
	struct out history = {.rt = &rt, .f = to.f};
	if (rt.history) {
		if (rt.format == CARC_FORMAT_JSON)
			fputs("[", to.f);
		else
			fputs("date,time,file,line,game,player,opponent,result,before,after,change\n", to.f);
	}
	rate(&rt, rt.history ? &history : NULL);
	if (rt.history) {
		if (rt.format == CARC_FORMAT_JSON)
			fputs("\n]\n", to.f);
	} else {
		table(&rt, to.f);
	}
	carc_buf_free(&history.b);
	free(rt.players);
	free(rt.items);
	carc_names_free(&rt.names);
	carc_names_free(&rt.dates);
	carc_names_free(&rt.times);
	carc_names_free(&rt.files);
	carc_names_free(&rt.duels);
	carc_names_free(&rt.seen);
	carc_buf_free(&rt.key);
	bool ok = !t.unreadable && !t.trouble;
	if (!carc_output_close(&to, ok) || !ok)
		return CARC_EXIT_TROUBLE;
	return rt.invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
