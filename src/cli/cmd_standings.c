/*
 * cmd_standings.c - carc standings: a tournament table from game records.
 *
 * Each game's outcome (cli/event.h: players, final scores, who won and how)
 * goes to the standings (cli/standings.h), which rank the players by
 * points and the tie-breaks chosen, by name; this file reads the options
 * (a preset sets points, the level rule, matches and tie-breaks, and the
 * options given override it) and writes the table as text, JSON, CSV or one
 * HTML page. Left out, and listed: games with an error (unless
 * --include-invalid), without final scores or a winner, solo games, games of
 * one player that are not byes, and games where one name sits on two seats.
 * Memory: the games' outcomes (a few words a seat), the players, and the
 * left-out games through a temporary file.
 */
#include "common/width.h"
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "cli/standings.h"
#include "notation/gameid.h"
#include "common/json.h"
#include "output/report.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

enum { FORMAT_HTML = CARC_FORMAT_CSV + 1 };

struct standings {
	int format;
	struct carc_standings_opts opt;
	bool include_invalid;
	const char *event;          /* --event: only the games of this event */
	struct carc_standings *table;
	struct carc_names events, rounds;
	unsigned long counted, left_out, listed;
	bool invalid;               /* a game with an error was seen */
	bool any_bye;
	FILE *listing;              /* the left-out games, as the format writes them */
	FILE *played;               /* html: every counted game, a row each */
	struct carc_buf line;
};

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

static void copy_listing(FILE *from, FILE *out)
{
	char block[8192];
	size_t n;
	rewind(from);
	while ((n = fread(block, 1, sizeof block, from)) > 0)
		fwrite(block, 1, n, out);
}

/* A text into HTML: &, <, >, " and ' escaped. */
static void html_text(struct carc_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': carc_buf_adds(b, "&amp;"); break;
		case '<': carc_buf_adds(b, "&lt;"); break;
		case '>': carc_buf_adds(b, "&gt;"); break;
		case '"': carc_buf_adds(b, "&quot;"); break;
		case '\'': carc_buf_adds(b, "&#39;"); break;
		default: carc_buf_addc(b, *s);
		}
	}
}

/* html: the counted game as a row of the page's list of games. */
static void played_row(struct standings *sd, const struct carc_outcome *o)
{
	struct carc_buf *b = &sd->line;
	carc_buf_reset(b);
	carc_buf_adds(b, "<tr><td>");
	html_text(b, o->round ? o->round : "");
	carc_buf_adds(b, "</td><td>");
	if (o->board)
		carc_buf_printf(b, "%d", o->board);
	carc_buf_adds(b, "</td><td>");
	for (int s = 0; s < o->nseats; s++) {
		if (s)
			carc_buf_adds(b, " &ndash; ");
		html_text(b, o->player[s]);
	}
	carc_buf_adds(b, "</td><td>");
	if (o->scores)
		for (int s = 0; s < o->nseats; s++)
			carc_buf_printf(b, "%s%d", s ? " &ndash; " : "", o->score[s]);
	carc_buf_adds(b, "</td><td>");
	if (o->termination)
		html_text(b, carc_termination_name(o->termination));
	if (o->winner >= 0 && !o->bye) {
		carc_buf_adds(b, o->termination ? ": " : "");
		html_text(b, o->player[o->winner]);
		carc_buf_adds(b, " wins");
	} else if (!o->bye && o->top && (o->top & (o->top - 1))) {
		carc_buf_adds(b, "level score");
	}
	carc_buf_adds(b, "</td></tr>\n");
	fwrite(b->data, 1, b->len, sd->played);
}

static void each_game(void *ctx, const struct carc_archive_game *game)
{
	struct standings *sd = ctx;
	const struct carc_record *rec = game->rec;
	if (sd->event) {
		const char *event = carc_record_tag(rec, CARC_TAG_EVENT);
		if (!event || strcmp(event, sd->event))
			return;
	}
	if (game->errors)
		sd->invalid = true;
	struct carc_buf why = {0};
	struct carc_outcome o;
	const char *reason = carc_outcome_of(game, sd->include_invalid, &o, &why);
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
	sd->any_bye |= o.bye;
	if (o.event)
		carc_names_intern(&sd->events, o.event);
	if (o.round)
		carc_names_intern(&sd->rounds, o.round);
	carc_standings_add(sd->table, &o);
	if (sd->played)
		played_row(sd, &o);
}

/* ---- the four shapes ---- */

/* A tie-break's value as shown: points against and byes as counts (they
 * rank lower when larger), the draw of lots to 4 places. */
static void tb_value(struct carc_buf *b, const struct carc_standing *r, int tb)
{
	if (tb == CARC_TB_AGAINST)
		carc_buf_printf(b, "%lld", r->score_against);
	else if (tb == CARC_TB_BYE_LAST)
		carc_buf_printf(b, "%lu", r->byes);
	else if (tb == CARC_TB_LOT)
		carc_buf_printf(b, "%.4f", r->tb[tb]);
	else if (tb == CARC_TB_DIFF)
		carc_buf_printf(b, r->tb[tb] > 0 ? "%+g" : "%g", r->tb[tb]);
	else
		carc_buf_printf(b, "%g", r->tb[tb]);
}

/* The tie-breaks that have a column of their own (wins, for, against and
 * diff are among the fixed columns). */
static bool own_column(int tb)
{
	return tb != CARC_TB_WINS && tb != CARC_TB_FOR && tb != CARC_TB_AGAINST && tb != CARC_TB_DIFF;
}

static const char *const level_names[] = {"draw", "second", "first", "seed"};

static void describe(struct carc_buf *o, const struct standings *sd)
{
	carc_buf_printf(o, " (%lu %s counted, %zu round%s; points: win %g, draw %g, loss %g", sd->counted,
			sd->counted == 1 ? "game" : "games", sd->rounds.count, sd->rounds.count == 1 ? "" : "s",
			sd->opt.win, sd->opt.draw, sd->opt.loss);
	if (sd->opt.level != CARC_LEVEL_DRAW)
		carc_buf_printf(o, "; a level score: %s", level_names[sd->opt.level]);
	if (sd->opt.matches)
		carc_buf_adds(o, "; matches");
	carc_buf_adds(o, "; tie-breaks: ");
	for (int k = 0; k < sd->opt.ntiebreaks; k++)
		carc_buf_printf(o, "%s%s", k ? ", " : "", carc_tiebreak_name(sd->opt.tiebreaks[k]));
	if (!sd->opt.ntiebreaks)
		carc_buf_adds(o, "none");
	carc_buf_adds(o, ")");
}

static void text_report(struct standings *sd, const struct carc_standing *rows, size_t n, FILE *out)
{
	struct carc_buf o = {0};
	carc_buf_adds(&o, "Standings");
	if (sd->events.count == 1)
		carc_buf_printf(&o, ": %s", carc_names_get(&sd->events, 0));
	else if (sd->events.count > 1)
		carc_buf_printf(&o, " of %zu events", sd->events.count);
	describe(&o, sd);
	carc_buf_adds(&o, "\n\n");
	size_t width = 6; /* at most CARC_CELL_MAX: a longer name is cut, not padded for */
	for (size_t i = 0; i < n; i++)
		if (carc_report_cell_width(rows[i].player) > width)
			width = carc_report_cell_width(rows[i].player);
	if (width > CARC_CELL_MAX)
		width = CARC_CELL_MAX;
	carc_buf_printf(&o, "rank  player%*s  %s  won  drawn  lost", (int)(width - 6), "", sd->opt.matches ? "matches" : "games");
	if (sd->opt.matches)
		carc_buf_adds(&o, "  games won  games lost");
	if (sd->any_bye)
		carc_buf_adds(&o, "  byes");
	carc_buf_adds(&o, "  points  for  against  diff");
	size_t col[CARC_MAX_TIEBREAKS];
	for (int k = 0; k < sd->opt.ntiebreaks; k++)
		if (own_column(sd->opt.tiebreaks[k])) {
			const char *name = carc_tiebreak_name(sd->opt.tiebreaks[k]);
			col[k] = strlen(name) > 6 ? strlen(name) : 6;
			carc_buf_printf(&o, "  %*s", (int)col[k], name);
		}
	carc_buf_addc(&o, '\n');
	struct carc_buf v = {0};
	for (size_t i = 0; i < n; i++) {
		const struct carc_standing *p = &rows[i];
		char rank[32];
		bool shared = (i && rows[i - 1].rank == p->rank) || (i + 1 < n && rows[i + 1].rank == p->rank);
		snprintf(rank, sizeof rank, "%zu%s", p->rank, shared ? "=" : "");
		long long diff = p->score_for - p->score_against;
		carc_buf_printf(&o, "%4s  ", rank);
		carc_report_cell(&o, p->player, width, true);
		carc_buf_printf(&o, "  %*lu  %3lu  %5lu  %4lu", sd->opt.matches ? 7 : 5, p->games, p->wins, p->draws,
				p->losses);
		if (sd->opt.matches)
			carc_buf_printf(&o, "  %9lu  %10lu", p->games_won, p->games_lost);
		if (sd->any_bye)
			carc_buf_printf(&o, "  %4lu", p->byes);
		carc_buf_printf(&o, diff ? "  %6g  %3lld  %7lld  %+4lld" : "  %6g  %3lld  %7lld  %4lld", p->points,
				p->score_for, p->score_against, diff);
		for (int k = 0; k < sd->opt.ntiebreaks; k++)
			if (own_column(sd->opt.tiebreaks[k])) {
				carc_buf_reset(&v);
				tb_value(&v, p, sd->opt.tiebreaks[k]);
				carc_buf_printf(&o, "  %*s", (int)col[k], carc_buf_cstr(&v));
			}
		carc_buf_addc(&o, '\n');
	}
	carc_buf_free(&v);
	fwrite(o.data, 1, o.len, out);
	if (sd->listed) {
		fputs("\nGames not counted, or counted although invalid:\n", out);
		copy_listing(sd->listing, out);
	}
	carc_buf_free(&o);
}

static void json_report(struct standings *sd, const struct carc_standing *rows, size_t n, FILE *out)
{
	struct carc_buf o = {0};
	carc_buf_adds(&o, "{\"events\":[");
	for (size_t i = 0; i < sd->events.count; i++) {
		if (i)
			carc_buf_addc(&o, ',');
		carc_json_cstr(&o, carc_names_get(&sd->events, i));
	}
	carc_buf_printf(&o, "],\"rounds\":%zu,\"games\":%lu,\"left_out\":%lu,"
			    "\"points\":{\"win\":%g,\"draw\":%g,\"loss\":%g},\"level\":\"%s\",\"matches\":%s,\"tiebreaks\":[",
			sd->rounds.count, sd->counted, sd->left_out, sd->opt.win, sd->opt.draw, sd->opt.loss,
			level_names[sd->opt.level], sd->opt.matches ? "true" : "false");
	for (int k = 0; k < sd->opt.ntiebreaks; k++)
		carc_buf_printf(&o, "%s\"%s\"", k ? "," : "", carc_tiebreak_name(sd->opt.tiebreaks[k]));
	carc_buf_adds(&o, "],\"players\":[");
	struct carc_buf v = {0};
	for (size_t i = 0; i < n; i++) {
		const struct carc_standing *p = &rows[i];
		carc_buf_printf(&o, "%s{\"rank\":%zu,\"player\":", i ? "," : "", p->rank);
		carc_json_cstr(&o, p->player);
		carc_buf_adds(&o, ",\"name\":");
		carc_json_cstr(&o, p->player);
		carc_buf_printf(&o, ",\"games\":%lu,\"wins\":%lu,\"draws\":%lu,\"losses\":%lu,\"byes\":%lu,"
				    "\"games_won\":%lu,\"games_lost\":%lu,\"points\":%g,"
				    "\"for\":%lld,\"against\":%lld,\"diff\":%lld,\"buchholz\":%g",
				p->games, p->wins, p->draws, p->losses, p->byes, p->games_won, p->games_lost, p->points,
				p->score_for, p->score_against, p->score_for - p->score_against, p->tb[CARC_TB_BUCHHOLZ]);
		for (int k = 0; k < sd->opt.ntiebreaks; k++) {
			int tb = sd->opt.tiebreaks[k];
			if (tb == CARC_TB_WINS || tb == CARC_TB_FOR || tb == CARC_TB_AGAINST || tb == CARC_TB_DIFF ||
			    tb == CARC_TB_BUCHHOLZ)
				continue; /* (given above, by that name) */
			carc_buf_reset(&v);
			tb_value(&v, p, tb);
			carc_buf_printf(&o, ",\"%s\":%s", carc_tiebreak_name(tb),
					carc_buf_cstr(&v)[0] == '+' ? carc_buf_cstr(&v) + 1 : carc_buf_cstr(&v));
		}
		carc_buf_adds(&o, ",\"tiebreaks\":{");
		for (int k = 0; k < sd->opt.ntiebreaks; k++) {
			carc_buf_reset(&v);
			tb_value(&v, p, sd->opt.tiebreaks[k]);
			carc_buf_printf(&o, "%s\"%s\":%s", k ? "," : "", carc_tiebreak_name(sd->opt.tiebreaks[k]),
					carc_buf_cstr(&v)[0] == '+' ? carc_buf_cstr(&v) + 1 : carc_buf_cstr(&v));
		}
		carc_buf_adds(&o, "}}");
	}
	carc_buf_free(&v);
	carc_buf_adds(&o, "],\"listed\":[");
	fwrite(o.data, 1, o.len, out);
	copy_listing(sd->listing, out);
	fputs("]}\n", out);
	carc_buf_free(&o);
}

static void csv_report(struct standings *sd, const struct carc_standing *rows, size_t n, FILE *out)
{
	struct carc_buf o = {0}, v = {0};
	carc_buf_adds(&o, "rank,name,games,wins,draws,losses,points,for,against,diff,buchholz");
	if (sd->any_bye || sd->opt.matches)
		carc_buf_adds(&o, ",byes,games_won,games_lost");
	for (int k = 0; k < sd->opt.ntiebreaks; k++)
		if (own_column(sd->opt.tiebreaks[k]) && sd->opt.tiebreaks[k] != CARC_TB_BUCHHOLZ)
			carc_buf_printf(&o, ",%s", carc_tiebreak_name(sd->opt.tiebreaks[k]));
	carc_buf_addc(&o, '\n');
	for (size_t i = 0; i < n; i++) {
		const struct carc_standing *p = &rows[i];
		carc_buf_printf(&o, "%zu,", p->rank);
		carc_report_csv_field(&o, p->player, strlen(p->player));
		carc_buf_printf(&o, ",%lu,%lu,%lu,%lu,%g,%lld,%lld,%lld,%g", p->games, p->wins, p->draws, p->losses,
				p->points, p->score_for, p->score_against, p->score_for - p->score_against,
				p->tb[CARC_TB_BUCHHOLZ]);
		if (sd->any_bye || sd->opt.matches)
			carc_buf_printf(&o, ",%lu,%lu,%lu", p->byes, p->games_won, p->games_lost);
		for (int k = 0; k < sd->opt.ntiebreaks; k++)
			if (own_column(sd->opt.tiebreaks[k]) && sd->opt.tiebreaks[k] != CARC_TB_BUCHHOLZ) {
				carc_buf_reset(&v);
				tb_value(&v, p, sd->opt.tiebreaks[k]);
				carc_buf_printf(&o, ",%s", carc_buf_cstr(&v)[0] == '+' ? carc_buf_cstr(&v) + 1 : carc_buf_cstr(&v));
			}
		carc_buf_addc(&o, '\n');
	}
	fwrite(o.data, 1, o.len, out);
	carc_buf_free(&o);
	carc_buf_free(&v);
}

/* One page, self-contained: its style inside, no script, no link out;
 * every text from a record escaped. */
static void html_report(struct standings *sd, const struct carc_standing *rows, size_t n, FILE *out)
{
	struct carc_buf o = {0}, v = {0};
	carc_buf_adds(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
			  "<title>");
	struct carc_buf title = {0};
	carc_buf_adds(&title, "Standings");
	if (sd->events.count == 1)
		carc_buf_printf(&title, ": %s", carc_names_get(&sd->events, 0));
	html_text(&o, carc_buf_cstr(&title));
	carc_buf_adds(&o, "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
			  "td,th{border:1px solid #999;padding:2px 8px;text-align:right}td:nth-child(2),th:nth-child(2)"
			  "{text-align:left}</style>\n</head>\n<body>\n<h1>");
	html_text(&o, carc_buf_cstr(&title));
	carc_buf_free(&title);
	carc_buf_adds(&o, "</h1>\n<p>");
	struct carc_buf d = {0};
	describe(&d, sd);
	d.data[--d.len] = '\0'; /* (without its parentheses) */
	html_text(&o, carc_buf_cstr(&d) + 2);
	carc_buf_free(&d);
	carc_buf_adds(&o, "</p>\n<table>\n<tr><th>rank</th><th>player</th><th>");
	carc_buf_adds(&o, sd->opt.matches ? "matches" : "games");
	carc_buf_adds(&o, "</th><th>won</th><th>drawn</th><th>lost</th><th>games won</th><th>games lost</th><th>byes</th>"
			  "<th>points</th><th>for</th><th>against</th><th>diff</th>");
	for (int k = 0; k < sd->opt.ntiebreaks; k++)
		if (own_column(sd->opt.tiebreaks[k]))
			carc_buf_printf(&o, "<th>%s</th>", carc_tiebreak_name(sd->opt.tiebreaks[k]));
	carc_buf_adds(&o, "</tr>\n");
	for (size_t i = 0; i < n; i++) {
		const struct carc_standing *p = &rows[i];
		carc_buf_printf(&o, "<tr><td>%zu</td><td>", p->rank);
		html_text(&o, p->player);
		carc_buf_printf(&o, "</td><td>%lu</td><td>%lu</td><td>%lu</td><td>%lu</td><td>%lu</td><td>%lu</td><td>%lu</td>"
				    "<td>%g</td><td>%lld</td><td>%lld</td><td>%lld</td>",
				p->games, p->wins, p->draws, p->losses, p->games_won, p->games_lost, p->byes, p->points,
				p->score_for, p->score_against, p->score_for - p->score_against);
		for (int k = 0; k < sd->opt.ntiebreaks; k++)
			if (own_column(sd->opt.tiebreaks[k])) {
				carc_buf_reset(&v);
				tb_value(&v, p, sd->opt.tiebreaks[k]);
				carc_buf_adds(&o, "<td>");
				html_text(&o, carc_buf_cstr(&v));
				carc_buf_adds(&o, "</td>");
			}
		carc_buf_adds(&o, "</tr>\n");
	}
	carc_buf_adds(&o, "</table>\n<h2>Games</h2>\n<table>\n<tr><th>round</th><th>board</th><th>players (the first "
			  "started)</th><th>score</th><th>result</th></tr>\n");
	fwrite(o.data, 1, o.len, out);
	copy_listing(sd->played, out);
	fputs("</table>\n", out);
	if (sd->listed) {
		fputs("<h2>Games not counted, or counted although invalid</h2>\n<pre>", out);
		rewind(sd->listing);
		char block[4096];
		size_t got;
		while ((got = fread(block, 1, sizeof block - 1, sd->listing)) > 0) {
			block[got] = '\0';
			carc_buf_reset(&v);
			html_text(&v, block);
			fwrite(v.data, 1, v.len, out);
		}
		fputs("</pre>\n", out);
	}
	fputs("</body>\n</html>\n", out);
	carc_buf_free(&o);
	carc_buf_free(&v);
}
/* ---- options ---- */

/* --points W,D,L: three numbers (decimals allowed). */
static bool parse_points(const char *arg, struct carc_standings_opts *opt)
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
	opt->win = v[0];
	opt->draw = v[1];
	opt->loss = v[2];
	return true;
}

/* --tiebreak LIST: names (standings.h), comma-separated, each once; "none"
 * for none. */
static bool parse_tiebreaks(const char *arg, struct carc_standings_opts *opt)
{
	opt->ntiebreaks = 0;
	if (!strcmp(arg, "none"))
		return true;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		int found = carc_tiebreak_lookup(p, len);
		if (found < 0 || opt->ntiebreaks == CARC_MAX_TIEBREAKS)
			return false;
		for (int k = 0; k < opt->ntiebreaks; k++)
			if ((int)opt->tiebreaks[k] == found)
				return false;
		opt->tiebreaks[opt->ntiebreaks++] = (enum carc_tiebreak)found;
		if (!p[len])
			return true;
		p += len + 1;
	}
}

/* The events' systems (carc-standings(1), PRESETS). */
struct preset {
	const char *name;
	double win, draw, loss;
	enum carc_level level;
	bool matches;
	const char *tiebreaks;
};
static const struct preset presets[] = {
	{"wc", 1, 0, 0, CARC_LEVEL_SEED, false, "buchholz-cut1,diff"},
	{"ua", 1, 0, 0, CARC_LEVEL_SECOND, false, "wins,buchholz-cut1,buchholz-median1,diff,sb-before,bye-last"},
	{"gg", 1, 0, 0, CARC_LEVEL_SECOND, true, "game-diff,games-won,h2h,diff,lot"},
	{"co", 1, 0, 0, CARC_LEVEL_SECOND, false, "wins,buchholz-cut1,buchholz-median1,h2h,diff"},
};

static void help(void)
{
	printf("usage: carc standings [OPTIONS] FILE...|-\n\n"
	       "Referee every game of the files (a game whose moves were not recorded is\n"
	       "counted by its Result, Termination and Winner) and print the tournament\n"
	       "table of their players (named by the colour tags: [Red \"Anna\"]).\n"
	       "The sole highest score wins a game; a level highest score is what --level\n"
	       "says; a Winner tag decides; a bye is a win without points; a technical\n"
	       "result (time forfeit, no-show, ...) is a win and a loss without points.\n"
	       "Points against are the highest score of the others in each game. Games\n"
	       "with an error, without final scores or a winner, solo games and games of\n"
	       "one player (but byes) are listed and left out.\n\n"
	       "options:\n"
	       "  -f, --format FORMAT  text (default), json (one object), csv, or html (one\n"
	       "                       self-contained page: the table and every game)\n"
	       "  -P, --preset NAME    an event's system: wc (World Championship), ua\n"
	       "                       (Ukrainian championship), gg (carcassonne.gg duels),\n"
	       "                       co (Colombia); the options given override it\n"
	       "  -p, --points W,D,L   tournament points of a win, a draw, a loss (default\n"
	       "                       2,1,0; decimals allowed)\n"
	       "  -l, --level RULE     a level top score: draw (default), second (the\n"
	       "                       player who moved later wins), first, or seed (the\n"
	       "                       better placed before the game)\n"
	       "  -t, --tiebreak LIST  how players level on points are ranked, in order\n"
	       "                       (default buchholz,diff,for): wins, buchholz,\n"
	       "                       buchholz-cut1 (solkoff1), buchholz-median1\n"
	       "                       (solkoff2), sb, sb-before, progressive, diff, for,\n"
	       "                       against, h2h, second, bye-last, lot, game-diff,\n"
	       "                       games-won; none for none: the tied share a rank\n"
	       "                       (man carc-standings defines each)\n"
	       "  -m, --matches        the games sharing a Match tag are one duel: the\n"
	       "                       table counts duels, and games won and lost\n"
	       "      --seed N         the draw of lots of tie-break lot (default 0)\n"
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
	enum { OPT_INCLUDE_INVALID = 256, OPT_SEED };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},   {"points", required_argument, NULL, 'p'},
		{"tiebreak", required_argument, NULL, 't'}, {"event", required_argument, NULL, 'e'},
		{"preset", required_argument, NULL, 'P'},   {"level", required_argument, NULL, 'l'},
		{"matches", no_argument, NULL, 'm'},        {"seed", required_argument, NULL, OPT_SEED},
		{"include-invalid", no_argument, NULL, OPT_INCLUDE_INVALID},
		{"output", required_argument, NULL, 'o'},   CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		CARC_JOBS_OPTION,
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},        {NULL, 0, NULL, 0},
	};
	struct standings sd = {.format = CARC_FORMAT_TEXT};
	struct carc_standings_opts opt = {.win = 2, .draw = 1, .loss = 0,
					  .tiebreaks = {CARC_TB_BUCHHOLZ, CARC_TB_DIFF, CARC_TB_FOR}, .ntiebreaks = 3};
	/* what was given, over the preset, whatever the order */
	const char *points = NULL, *tiebreaks = NULL, *level = NULL;
	bool matches = false;
	const char *output = NULL;
	int jobs = 1;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:p:t:e:P:l:mo:j:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': {
			enum carc_archive_format f;
			if (!strcmp(optarg, "html"))
				sd.format = FORMAT_HTML;
			else if (carc_archive_format(optarg, &f))
				sd.format = (int)f;
			else
				return carc_usage_error("standings", "--format is text, json, csv or html, not '%s'", optarg);
			break;
		}
		case 'P': {
			const struct preset *ps = NULL;
			for (size_t k = 0; k < sizeof presets / sizeof *presets; k++)
				if (!strcmp(optarg, presets[k].name))
					ps = &presets[k];
			if (!ps)
				return carc_usage_error("standings", "--preset is wc, ua, gg or co, not '%s'", optarg);
			opt.win = ps->win, opt.draw = ps->draw, opt.loss = ps->loss;
			opt.level = ps->level;
			opt.matches = ps->matches;
			parse_tiebreaks(ps->tiebreaks, &opt);
			break;
		}
		case 'p':
			points = optarg;
			break;
		case 't':
			tiebreaks = optarg;
			break;
		case 'l':
			level = optarg;
			break;
		case 'm':
			matches = true;
			break;
		case OPT_SEED: {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || optarg[0] == '-')
				return carc_usage_error("standings", "--seed takes a whole number, not '%s'", optarg);
			opt.lot_seed = v;
			break;
		}
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
	if (points && !parse_points(points, &opt))
		return carc_usage_error("standings", "--points takes three numbers W,D,L, as in 2,1,0, not '%s'", points);
	if (tiebreaks && !parse_tiebreaks(tiebreaks, &opt))
		return carc_usage_error("standings",
					"--tiebreak takes a list of wins, buchholz, buchholz-cut1, buchholz-median1, sb, "
					"sb-before, progressive, diff, for, against, h2h, second, bye-last, lot, game-diff, "
					"games-won (each once), or none, not '%s'",
					tiebreaks);
	if (level) {
		int found = -1;
		for (int k = 0; k < 4; k++)
			if (!strcmp(level, level_names[k]))
				found = k;
		if (found < 0)
			return carc_usage_error("standings", "--level is draw, second, first or seed, not '%s'", level);
		opt.level = (enum carc_level)found;
	}
	if (matches)
		opt.matches = true;
	sd.opt = opt;
	if (optind >= argc)
		return carc_usage_error("standings", "no input: give one or more files, or - for standard input");
	sd.listing = tmpfile();
	sd.played = sd.format == FORMAT_HTML ? tmpfile() : NULL;
	if (!sd.listing || (sd.format == FORMAT_HTML && !sd.played)) {
		fprintf(stderr, "carc standings: cannot make a temporary file: %s\n", strerror(errno));
		if (sd.listing)
			fclose(sd.listing);
		return CARC_EXIT_TROUBLE;
	}
	struct carc_output to;
	if (!carc_output_open(&to, "standings", output)) {
		fclose(sd.listing);
		if (sd.played)
			fclose(sd.played);
		return CARC_EXIT_TROUBLE;
	}
	sd.table = carc_standings_new(&sd.opt);
	struct carc_archive_totals t = {0};
	carc_archive_each(argv + optind, argc - optind, true, jobs, each_game, &sd, &t);
	carc_names_warn_alike(carc_standings_names(sd.table), "standings");
	size_t n;
	const struct carc_standing *rows = carc_standings_rank(sd.table, &n);
	if (sd.format == CARC_FORMAT_JSON)
		json_report(&sd, rows, n, to.f);
	else if (sd.format == CARC_FORMAT_CSV)
		csv_report(&sd, rows, n, to.f);
	else if (sd.format == FORMAT_HTML)
		html_report(&sd, rows, n, to.f);
	else
		text_report(&sd, rows, n, to.f);
	bool listed = !ferror(sd.listing) && !(sd.played && ferror(sd.played));
	fclose(sd.listing);
	if (sd.played)
		fclose(sd.played);
	carc_standings_free(sd.table);
	carc_names_free(&sd.events);
	carc_names_free(&sd.rounds);
	carc_buf_free(&sd.line);
	bool ok = !t.unreadable && !t.trouble && listed;
	if (!listed)
		fprintf(stderr, "carc standings: cannot write the temporary list of games\n");
	if (!carc_output_close(&to, ok))
		return CARC_EXIT_TROUBLE;
	if (!ok)
		return CARC_EXIT_TROUBLE;
	return sd.invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
