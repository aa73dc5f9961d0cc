/*
 * cmd_standings.c - carc standings: a tournament table from game records.
 *
 * A player is a name from a colour tag ([Red "Anna"]); a seat without one
 * is named by its colour. In a game with final scoring:
 *   - won: the player's score is the highest and nobody else has it;
 *     drawn: the highest, shared; lost: any other;
 *   - points for: the player's score; points against: the highest score
 *     among the others (so the difference is the margin by which the
 *     player won, or lost, that game: the usual two-player difference, and
 *     0 for a draw in any game);
 *   - head to head, between two players of a game: the one with more points
 *     beat the other (the tournament points of a win, draw or loss).
 * Left out, and listed: games with an error (unless --include-invalid),
 * without final scoring (unfinished without a Result), solo games, games of
 * one player and games where one name sits on two seats.
 * Memory: one row per player and one per pair of players who met, whatever
 * the number of games; left-out games are listed through a temporary file.
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "notation/gameid.h"
#include "common/json.h"
#include "output/report.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum tiebreak { TB_H2H, TB_BUCHHOLZ, TB_WINS, TB_DIFF, TB_FOR, TB_COUNT };
static const char *const tiebreak_names[TB_COUNT] = {"h2h", "buchholz", "wins", "diff", "for"};
#define MAX_TIEBREAKS 8

struct player {
	unsigned long games, wins, draws, losses;
	double points;              /* tournament points */
	long long score_for, score_against;
	double buchholz;
	double keys[MAX_TIEBREAKS]; /* the tie-breaks' values, as ranked */
	size_t rank;                /* from 1 */
};

/* Two players who met: keyed by both indices, lower first. */
struct pair {
	uint64_t key;               /* (lo << 32 | hi) + 1; 0: an empty slot */
	unsigned long meetings;
	double lo_points, hi_points; /* head to head: each one's points against the other */
};

struct standings {
	enum carc_archive_format format;
	double win, draw, loss;
	enum tiebreak tiebreaks[MAX_TIEBREAKS];
	int ntiebreaks;
	bool include_invalid;
	const char *event;          /* --event: only the games of this event */
	struct carc_names names;
	struct player *players;
	size_t players_cap;
	struct pair *pairs;
	size_t npairs, pairs_cap;
	struct carc_names events, rounds;
	unsigned long counted, left_out, listed;
	bool invalid;               /* a game with an error was seen */
	FILE *listing;              /* the left-out games, as the format writes them */
	struct carc_buf line;
};

static size_t pair_slot(const struct pair *pairs, size_t cap, uint64_t key)
{
	size_t s = (size_t)(key * 0x9e3779b97f4a7c15u >> 20) & (cap - 1);
	while (pairs[s].key && pairs[s].key != key)
		s = (s + 1) & (cap - 1);
	return s;
}

static uint64_t pair_key(size_t a, size_t b)
{
	size_t lo = a < b ? a : b, hi = a < b ? b : a;
	return ((uint64_t)lo << 32 | hi) + 1;
}

/* The pair of two players who met, or NULL. */
static const struct pair *pair_find(const struct standings *sd, size_t a, size_t b)
{
	if (!sd->pairs_cap)
		return NULL;
	const struct pair *pr = &sd->pairs[pair_slot(sd->pairs, sd->pairs_cap, pair_key(a, b))];
	return pr->key ? pr : NULL;
}

/* The pair of two players, added when they meet for the first time. */
static struct pair *pair_of(struct standings *sd, size_t a, size_t b)
{
	uint64_t key = pair_key(a, b);
	if (2 * (sd->npairs + 1) > sd->pairs_cap) { /* keep it at most half full */
		size_t cap = sd->pairs_cap ? 2 * sd->pairs_cap : 256;
		struct pair *pairs = xcalloc(cap, sizeof *pairs);
		for (size_t i = 0; i < sd->pairs_cap; i++)
			if (sd->pairs[i].key)
				pairs[pair_slot(pairs, cap, sd->pairs[i].key)] = sd->pairs[i];
		free(sd->pairs);
		sd->pairs = pairs;
		sd->pairs_cap = cap;
	}
	struct pair *pr = &sd->pairs[pair_slot(sd->pairs, sd->pairs_cap, key)];
	if (!pr->key) {
		*pr = (struct pair){.key = key};
		sd->npairs++;
	}
	return pr;
}

static size_t player_of(struct standings *sd, const char *name)
{
	size_t i = carc_names_intern(&sd->names, name);
	if (i >= sd->players_cap) {
		size_t cap = sd->players_cap ? 2 * sd->players_cap : 64;
		sd->players = xrealloc(sd->players, cap * sizeof *sd->players);
		memset(sd->players + sd->players_cap, 0, (cap - sd->players_cap) * sizeof *sd->players);
		sd->players_cap = cap;
	}
	return i;
}

static double result_points(const struct standings *sd, int mine, int theirs)
{
	return mine > theirs ? sd->win : mine == theirs ? sd->draw : sd->loss;
}

/* Lists a game that is left out (or counted although invalid). */
static void list_game(struct standings *sd, const struct carc_archive_game *game, const char *reason, bool counted)
{
	const struct carc_record *rec = game->rec;
	const char *round = carc_record_tag(rec, CARC_TAG_ROUND);
	struct carc_buf *b = &sd->line;
	carc_buf_reset(b);
	if (sd->format == CARC_FORMAT_JSON) {
		carc_buf_adds(b, "{\"file\":");
		carc_json_cstr(b, game->file);
		char id[CARC_GAME_ID_HEX + 1];
		carc_buf_printf(b, ",\"game\":%u,\"line\":%u,\"id\":\"%s\",\"round\":", rec->index, rec->src.base_line,
				carc_game_id_hex(carc_game_id(rec), id));
		if (round)
			carc_json_cstr(b, round);
		else
			carc_buf_adds(b, "null");
		carc_buf_printf(b, ",\"counted\":%s,\"reason\":", counted ? "true" : "false");
		carc_json_cstr(b, reason);
		carc_buf_adds(b, ",\"codes\":[");
		const char *sep = "";
		for (int c = 0; c < CARC_CODE_COUNT; c++)
			if (game->codes[c] && carc_code_severity((enum carc_code)c) == CARC_SEV_ERROR) {
				carc_buf_printf(b, "%s\"%s\"", sep, carc_code_str((enum carc_code)c));
				sep = ",";
			}
		carc_buf_adds(b, "]}");
	} else {
		carc_buf_printf(b, "%s:%u: game %u", game->file, rec->src.base_line, rec->index);
		if (round)
			carc_buf_printf(b, " (round %s)", round);
		carc_buf_printf(b, " %s: %s\n", counted ? "counted although invalid" : "left out", reason);
	}
	if (sd->format == CARC_FORMAT_CSV) {
		fprintf(stderr, "carc standings: %s", b->data);
	} else {
		if (sd->format == CARC_FORMAT_JSON && sd->listed)
			fputc(',', sd->listing);
		fwrite(b->data, 1, b->len, sd->listing);
	}
	sd->listed++;
}

/* Why a game cannot be counted, or NULL. */
static const char *unfit(struct standings *sd, const struct carc_archive_game *game, struct carc_buf *why)
{
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	carc_buf_reset(why);
	if (game->errors) {
		carc_buf_adds(why, "invalid:");
		for (int c = 0; c < CARC_CODE_COUNT; c++)
			if (game->codes[c] && carc_code_severity((enum carc_code)c) == CARC_SEV_ERROR)
				carc_buf_printf(why, " %s", carc_code_str((enum carc_code)c));
		if (!sd->include_invalid || !res->refereed)
			return carc_buf_cstr(why);
	}
	if (rec->rules->flags & CARC_RS_NO_WINNER) {
		carc_buf_printf(why, "a %s game has no opponents", rec->rules->name);
		return carc_buf_cstr(why);
	}
	if (rec->nseats < 2)
		return "a game of one player";
	if (!res->final_scored)
		return "unfinished, with no Result: no final scores";
	for (int s = 0; s < rec->nseats; s++)
		for (int t = s + 1; t < rec->nseats; t++)
			if (!strcmp(carc_archive_player(rec, s), carc_archive_player(rec, t))) {
				carc_buf_reset(why);
				carc_buf_printf(why, "%s plays two seats", carc_archive_player(rec, s));
				return carc_buf_cstr(why);
			}
	return NULL;
}

static void each_game(void *ctx, const struct carc_archive_game *game)
{
	struct standings *sd = ctx;
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	if (sd->event) {
		const char *event = carc_record_tag(rec, CARC_TAG_EVENT);
		if (!event || strcmp(event, sd->event))
			return;
	}
	if (game->errors)
		sd->invalid = true;
	struct carc_buf why = {0};
	const char *reason = unfit(sd, game, &why);
	if (reason) {
		sd->left_out++;
		list_game(sd, game, reason, false);
		carc_buf_free(&why);
		return;
	}
	if (game->errors) /* its codes, past the "invalid: " of a reason */
		list_game(sd, game, carc_buf_cstr(&why) + strlen("invalid: "), true);
	carc_buf_free(&why);
	sd->counted++;
	const char *event = carc_record_tag(rec, CARC_TAG_EVENT);
	if (event)
		carc_names_intern(&sd->events, event);
	const char *round = carc_record_tag(rec, CARC_TAG_ROUND);
	if (round)
		carc_names_intern(&sd->rounds, round);
	size_t who[CARC_COLOURS];
	int best = 0, tops = 0;
	for (int s = 0; s < rec->nseats; s++) {
		who[s] = player_of(sd, carc_archive_player(rec, s));
		int score = res->scores[rec->seats[s]];
		if (!s || score > best) {
			best = score;
			tops = 1;
		} else if (score == best) {
			tops++;
		}
	}
	for (int s = 0; s < rec->nseats; s++) {
		struct player *p = &sd->players[who[s]];
		int score = res->scores[rec->seats[s]];
		int against = 0;
		bool first = true;
		for (int t = 0; t < rec->nseats; t++) {
			int other = res->scores[rec->seats[t]];
			if (t != s && (first || other > against)) {
				against = other;
				first = false;
			}
		}
		p->games++;
		if (score == best && tops == 1) {
			p->wins++;
			p->points += sd->win;
		} else if (score == best) {
			p->draws++;
			p->points += sd->draw;
		} else {
			p->losses++;
			p->points += sd->loss;
		}
		p->score_for += score;
		p->score_against += against;
		for (int t = s + 1; t < rec->nseats; t++) {
			struct pair *pr = pair_of(sd, who[s], who[t]);
			int other = res->scores[rec->seats[t]];
			bool s_low = who[s] < who[t];
			pr->meetings++;
			*(s_low ? &pr->lo_points : &pr->hi_points) += result_points(sd, score, other);
			*(s_low ? &pr->hi_points : &pr->lo_points) += result_points(sd, other, score);
		}
	}
}

/* ---- ranking ---- */

struct rank_ctx {
	const struct standings *sd;
	int key;                    /* the tie-break being sorted by, -1: points */
};
static struct rank_ctx ranking; /* qsort has no context argument */

static int by_key(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct player *p = &ranking.sd->players[i], *q = &ranking.sd->players[j];
	double x = ranking.key < 0 ? p->points : p->keys[ranking.key];
	double y = ranking.key < 0 ? q->points : q->keys[ranking.key];
	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(carc_names_get(&ranking.sd->names, i), carc_names_get(&ranking.sd->names, j));
}

/* Ties so far: players at order[a] and order[b] are equal on points and
 * the first nkeys tie-breaks. */
static bool tied(const struct standings *sd, const size_t *order, size_t a, size_t b, int nkeys)
{
	const struct player *p = &sd->players[order[a]], *q = &sd->players[order[b]];
	if (p->points != q->points)
		return false;
	for (int k = 0; k < nkeys; k++)
		if (p->keys[k] != q->keys[k])
			return false;
	return true;
}

/* A tie-break's value for the player order[i] among the tied players
 * order[a..b) (head to head looks only at them). */
static double tiebreak_value(const struct standings *sd, enum tiebreak tb, const size_t *order, size_t i, size_t a,
			     size_t b)
{
	const struct player *p = &sd->players[order[i]];
	switch (tb) {
	case TB_H2H: {
		double sum = 0;
		for (size_t j = a; j < b; j++) {
			if (j == i)
				continue;
			const struct pair *pr = pair_find(sd, order[i], order[j]);
			if (pr)
				sum += order[i] < order[j] ? pr->lo_points : pr->hi_points;
		}
		return sum;
	}
	case TB_BUCHHOLZ:
		return p->buchholz;
	case TB_WINS:
		return (double)p->wins;
	case TB_DIFF:
		return (double)(p->score_for - p->score_against);
	default:
		return (double)p->score_for;
	}
}

/* Sorts the players: by points, then by each tie-break among the players
 * still tied; the name orders the players left tied, who share a rank. */
static size_t *rank_players(struct standings *sd)
{
	size_t n = sd->names.count;
	size_t *order = xmalloc((n ? n : 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	/* Buchholz: the points of every opponent met, once a meeting */
	for (size_t s = 0; s < sd->pairs_cap; s++) {
		const struct pair *pr = &sd->pairs[s];
		if (!pr->key)
			continue;
		size_t lo = (size_t)((pr->key - 1) >> 32), hi = (size_t)((pr->key - 1) & 0xffffffffu);
		sd->players[lo].buchholz += (double)pr->meetings * sd->players[hi].points;
		sd->players[hi].buchholz += (double)pr->meetings * sd->players[lo].points;
	}
	ranking = (struct rank_ctx){sd, -1};
	qsort(order, n, sizeof *order, by_key);
	for (int k = 0; k < sd->ntiebreaks; k++) {
		for (size_t a = 0; a < n;) {
			size_t b = a + 1;
			while (b < n && tied(sd, order, a, b, k))
				b++;
			for (size_t i = a; i < b; i++)
				sd->players[order[i]].keys[k] = tiebreak_value(sd, sd->tiebreaks[k], order, i, a, b);
			ranking.key = k;
			qsort(order + a, b - a, sizeof *order, by_key);
			a = b;
		}
	}
	for (size_t i = 0; i < n; i++)
		sd->players[order[i]].rank = i && tied(sd, order, i - 1, i, sd->ntiebreaks)
						     ? sd->players[order[i - 1]].rank : i + 1;
	return order;
}

/* ---- the three shapes ---- */

/* Columns of a name in a terminal: UTF-8 characters, not bytes. */
static size_t text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void copy_listing(struct standings *sd, FILE *out)
{
	char block[8192];
	size_t n;
	rewind(sd->listing);
	while ((n = fread(block, 1, sizeof block, sd->listing)) > 0)
		fwrite(block, 1, n, out);
}

static void tiebreak_list(struct carc_buf *o, const struct standings *sd, const char *sep)
{
	for (int k = 0; k < sd->ntiebreaks; k++)
		carc_buf_printf(o, "%s%s", k ? sep : "", tiebreak_names[sd->tiebreaks[k]]);
}

static void text_report(struct standings *sd, const size_t *order, FILE *out)
{
	struct carc_buf o = {0};
	size_t n = sd->names.count;
	carc_buf_adds(&o, "Standings");
	if (sd->events.count == 1)
		carc_buf_printf(&o, ": %s", carc_names_get(&sd->events, 0));
	else if (sd->events.count > 1)
		carc_buf_printf(&o, " of %zu events", sd->events.count);
	carc_buf_printf(&o, " (%lu game%s counted, %zu round%s; points: win %g, draw %g, loss %g; tie-breaks: ",
			sd->counted, sd->counted == 1 ? "" : "s", sd->rounds.count, sd->rounds.count == 1 ? "" : "s",
			sd->win, sd->draw, sd->loss);
	if (sd->ntiebreaks)
		tiebreak_list(&o, sd, ", ");
	else
		carc_buf_adds(&o, "none");
	carc_buf_adds(&o, ")\n\n");
	size_t width = 6;
	for (size_t i = 0; i < n; i++)
		if (text_width(carc_names_get(&sd->names, i)) > width)
			width = text_width(carc_names_get(&sd->names, i));
	carc_buf_printf(&o, "rank  player%*s  games  won  drawn  lost  points  for  against  diff  buchholz\n",
			(int)(width - 6), "");
	for (size_t i = 0; i < n; i++) {
		const struct player *p = &sd->players[order[i]];
		const char *name = carc_names_get(&sd->names, order[i]);
		char rank[32];
		bool shared = (i && sd->players[order[i - 1]].rank == p->rank) ||
			      (i + 1 < n && sd->players[order[i + 1]].rank == p->rank);
		snprintf(rank, sizeof rank, "%zu%s", p->rank, shared ? "=" : "");
		long long diff = p->score_for - p->score_against;
		carc_buf_printf(&o, diff ? "%4s  %s%*s  %5lu  %3lu  %5lu  %4lu  %6g  %3lld  %7lld  %+4lld  %8g\n"
					 : "%4s  %s%*s  %5lu  %3lu  %5lu  %4lu  %6g  %3lld  %7lld  %4lld  %8g\n",
				rank, name, (int)(width - text_width(name)), "", p->games, p->wins, p->draws, p->losses,
				p->points, p->score_for, p->score_against, diff, p->buchholz);
	}
	fwrite(o.data, 1, o.len, out);
	if (sd->listed) {
		fputs("\nGames not counted, or counted although invalid:\n", out);
		copy_listing(sd, out);
	}
	carc_buf_free(&o);
}

static void json_report(struct standings *sd, const size_t *order, FILE *out)
{
	struct carc_buf o = {0};
	carc_buf_adds(&o, "{\"events\":[");
	for (size_t i = 0; i < sd->events.count; i++) {
		if (i)
			carc_buf_addc(&o, ',');
		carc_json_cstr(&o, carc_names_get(&sd->events, i));
	}
	carc_buf_printf(&o, "],\"rounds\":%zu,\"games\":%lu,\"left_out\":%lu,"
			    "\"points\":{\"win\":%g,\"draw\":%g,\"loss\":%g},\"tiebreaks\":[",
			sd->rounds.count, sd->counted, sd->left_out, sd->win, sd->draw, sd->loss);
	for (int k = 0; k < sd->ntiebreaks; k++)
		carc_buf_printf(&o, "%s\"%s\"", k ? "," : "", tiebreak_names[sd->tiebreaks[k]]);
	carc_buf_adds(&o, "],\"players\":[");
	for (size_t i = 0; i < sd->names.count; i++) {
		const struct player *p = &sd->players[order[i]];
		carc_buf_printf(&o, "%s{\"rank\":%zu,\"name\":", i ? "," : "", p->rank);
		carc_json_cstr(&o, carc_names_get(&sd->names, order[i]));
		carc_buf_printf(&o, ",\"games\":%lu,\"wins\":%lu,\"draws\":%lu,\"losses\":%lu,\"points\":%g,"
				    "\"for\":%lld,\"against\":%lld,\"diff\":%lld,\"buchholz\":%g,\"tiebreaks\":{",
				p->games, p->wins, p->draws, p->losses, p->points, p->score_for, p->score_against,
				p->score_for - p->score_against, p->buchholz);
		for (int k = 0; k < sd->ntiebreaks; k++)
			carc_buf_printf(&o, "%s\"%s\":%g", k ? "," : "", tiebreak_names[sd->tiebreaks[k]], p->keys[k]);
		carc_buf_adds(&o, "}}");
	}
	carc_buf_adds(&o, "],\"listed\":[");
	fwrite(o.data, 1, o.len, out);
	copy_listing(sd, out);
	fputs("]}\n", out);
	carc_buf_free(&o);
}

static void csv_report(struct standings *sd, const size_t *order, FILE *out)
{
	struct carc_buf o = {0};
	carc_buf_adds(&o, "rank,name,games,wins,draws,losses,points,for,against,diff,buchholz\n");
	for (size_t i = 0; i < sd->names.count; i++) {
		const struct player *p = &sd->players[order[i]];
		const char *name = carc_names_get(&sd->names, order[i]);
		carc_buf_printf(&o, "%zu,", p->rank);
		carc_report_csv_field(&o, name, strlen(name));
		carc_buf_printf(&o, ",%lu,%lu,%lu,%lu,%g,%lld,%lld,%lld,%g\n", p->games, p->wins, p->draws, p->losses,
				p->points, p->score_for, p->score_against, p->score_for - p->score_against, p->buchholz);
	}
	fwrite(o.data, 1, o.len, out);
	carc_buf_free(&o);
}

/* ---- options ---- */

/* --points W,D,L: three numbers (decimals allowed). */
static bool parse_points(const char *arg, struct standings *sd)
{
	double v[3];
	const char *p = arg;
	for (int i = 0; i < 3; i++) {
		char *end;
		errno = 0;
		v[i] = strtod(p, &end);
		if (end == p || errno || v[i] < -1000 || v[i] > 1000 || v[i] != v[i])
			return false;
		p = end;
		if (i < 2 && *p++ != ',')
			return false;
	}
	if (*p)
		return false;
	sd->win = v[0];
	sd->draw = v[1];
	sd->loss = v[2];
	return true;
}

/* --tiebreak LIST: names from tiebreak_names, comma-separated, each once;
 * "none" for none. */
static bool parse_tiebreaks(const char *arg, struct standings *sd)
{
	sd->ntiebreaks = 0;
	if (!strcmp(arg, "none"))
		return true;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		int found = -1;
		for (int t = 0; t < TB_COUNT; t++)
			if (strlen(tiebreak_names[t]) == len && !strncmp(p, tiebreak_names[t], len))
				found = t;
		if (found < 0 || sd->ntiebreaks == MAX_TIEBREAKS)
			return false;
		for (int k = 0; k < sd->ntiebreaks; k++)
			if ((int)sd->tiebreaks[k] == found)
				return false;
		sd->tiebreaks[sd->ntiebreaks++] = (enum tiebreak)found;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

static void help(void)
{
	printf("usage: carc standings [OPTIONS] FILE...|-\n\n"
	       "Referee every game of the files and print the tournament table of their\n"
	       "players (named by the colour tags: [Red \"Anna\"]): games, wins, draws,\n"
	       "losses, tournament points, points for and against and their difference.\n"
	       "The sole highest score wins a game; a shared highest score is a draw for\n"
	       "those who share it; everyone else loses. Points against are the highest\n"
	       "score of the others in each game. Games with an error, without final\n"
	       "scoring, solo games and games of one player are listed and left out.\n\n"
	       "options:\n"
	       "  -f, --format FORMAT  text (default), json (one object) or csv\n"
	       "  -p, --points W,D,L   tournament points of a win, a draw, a loss (default\n"
	       "                       2,1,0; decimals allowed)\n"
	       "  -t, --tiebreak LIST  how players level on points are ranked, in order\n"
	       "                       (default buchholz,diff,for): h2h (points in the\n"
	       "                       games among the tied players), buchholz (the\n"
	       "                       points of every opponent met), wins, diff, for;\n"
	       "                       none for none: the tied share their rank\n"
	       "  -e, --event NAME     count only the games whose Event tag is NAME\n"
	       "      --include-invalid  count games with errors too (still listed)\n"
	       "  -o, --output FILE    write the table to FILE\n"
	       "  -j, --jobs N         use N threads (the output is the same)\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME     name standard input NAME in messages and output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 every game valid, 1 a game is invalid (listed), 2 could not run.\n");
}

int cmd_standings(int argc, char **argv)
{
	enum { OPT_INCLUDE_INVALID = 256 };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},   {"points", required_argument, NULL, 'p'},
		{"tiebreak", required_argument, NULL, 't'}, {"event", required_argument, NULL, 'e'},
		{"include-invalid", no_argument, NULL, OPT_INCLUDE_INVALID},
		{"output", required_argument, NULL, 'o'},   CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		CARC_JOBS_OPTION,
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},        {NULL, 0, NULL, 0},
	};
	struct standings sd = {.format = CARC_FORMAT_TEXT, .win = 2, .draw = 1, .loss = 0,
			       .tiebreaks = {TB_BUCHHOLZ, TB_DIFF, TB_FOR}, .ntiebreaks = 3};
	const char *output = NULL;
	int jobs = 1;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:p:t:e:o:j:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!carc_archive_format(optarg, &sd.format))
				return carc_usage_error("standings", "--format is text, json or csv, not '%s'", optarg);
			break;
		case 'p':
			if (!parse_points(optarg, &sd))
				return carc_usage_error("standings", "--points takes three numbers W,D,L, as in 2,1,0, not '%s'",
							optarg);
			break;
		case 't':
			if (!parse_tiebreaks(optarg, &sd))
				return carc_usage_error("standings",
							"--tiebreak takes a list of h2h, buchholz, wins, diff, for (each once), "
							"or none, not '%s'",
							optarg);
			break;
		case 'e':
			sd.event = optarg;
			break;
		case OPT_INCLUDE_INVALID:
			sd.include_invalid = true;
			break;
		case 'j':
			if (!carc_jobs_option("standings", optarg, &jobs))
				return CARC_EXIT_TROUBLE;
			break;
		case 'o':
			output = optarg;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("standings", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("standings", c, argv);
		}
	}
	if (optind >= argc)
		return carc_usage_error("standings", "no input: give one or more files, or - for standard input");
	sd.listing = tmpfile();
	if (!sd.listing) {
		fprintf(stderr, "carc standings: cannot make a temporary file: %s\n", strerror(errno));
		return CARC_EXIT_TROUBLE;
	}
	struct carc_output to;
	if (!carc_output_open(&to, "standings", output)) {
		fclose(sd.listing);
		return CARC_EXIT_TROUBLE;
	}
	struct carc_archive_totals t = {0};
	carc_archive_each(argv + optind, argc - optind, true, jobs, each_game, &sd, &t);
	size_t *order = rank_players(&sd);
	if (sd.format == CARC_FORMAT_JSON)
		json_report(&sd, order, to.f);
	else if (sd.format == CARC_FORMAT_CSV)
		csv_report(&sd, order, to.f);
	else
		text_report(&sd, order, to.f);
	bool listed = !ferror(sd.listing);
	fclose(sd.listing);
	free(order);
	free(sd.players);
	free(sd.pairs);
	carc_names_free(&sd.names);
	carc_names_free(&sd.events);
	carc_names_free(&sd.rounds);
	carc_buf_free(&sd.line);
	bool ok = !t.unreadable && !t.trouble && listed;
	if (!listed)
		fprintf(stderr, "carc standings: cannot write the temporary list of games left out\n");
	if (!carc_output_close(&to, ok))
		return CARC_EXIT_TROUBLE;
	if (!ok)
		return CARC_EXIT_TROUBLE;
	return sd.invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
