/*
 * standings.h - a tournament's table from the outcomes of its games
 * (event.h): points per win, draw and loss, what a level score means, byes
 * and technical results, matches of several games, and the tie-breaks by
 * name (man/carc-standings.1 defines each). carc standings prints it; carc
 * pair ranks players with it. Time and memory are linear in the number of
 * games (and the sort of the players): each tie-break is a pass over the
 * players' games.
 */
#ifndef CARC_STANDINGS_H
#define CARC_STANDINGS_H

#include "cli/event.h"

enum carc_level { CARC_LEVEL_DRAW, CARC_LEVEL_SECOND, CARC_LEVEL_FIRST, CARC_LEVEL_SEED };

enum carc_tiebreak {
	CARC_TB_WINS, CARC_TB_BUCHHOLZ, CARC_TB_CUT1, CARC_TB_MEDIAN1, CARC_TB_SB, CARC_TB_SB_BEFORE,
	CARC_TB_PROGRESSIVE, CARC_TB_DIFF, CARC_TB_FOR, CARC_TB_AGAINST, CARC_TB_H2H, CARC_TB_SECOND,
	CARC_TB_BYE_LAST, CARC_TB_LOT, CARC_TB_GAME_DIFF, CARC_TB_GAMES_WON,
	CARC_TB_COUNT
};
#define CARC_MAX_TIEBREAKS 16
const char *carc_tiebreak_name(int tb);                /* "buchholz-cut1" */
int carc_tiebreak_lookup(const char *p, size_t len);   /* names and aliases (solkoff1...); -1 if none */

struct carc_standings_opts {
	double win, draw, loss;                /* tournament points */
	enum carc_level level;
	enum carc_tiebreak tiebreaks[CARC_MAX_TIEBREAKS];
	int ntiebreaks;
	bool matches;                          /* the games of one Match are one duel */
	uint64_t lot_seed;                     /* the draw of lots (tie-break lot) */
};

/* One player's line. Counts are of units: games, or duels with matches. */
struct carc_standing {
	const char *player;
	size_t rank;                           /* from 1; tied players share it */
	unsigned long games, wins, draws, losses, byes;
	unsigned long games_won, games_lost;   /* single games (with matches: within the duels) */
	unsigned long second;                  /* games played not as the starting player */
	double points;
	long long score_for, score_against;
	double tb[CARC_TB_COUNT];              /* every tie-break's value */
};

struct carc_standings;
struct carc_standings *carc_standings_new(const struct carc_standings_opts *opt);
/* Counts a game (its outcome, counted: carc_outcome_of said nothing against
 * it). Games may come in any order: they are taken by round (a number),
 * date and time of day, then in the order added. */
void carc_standings_add(struct carc_standings *sd, const struct carc_outcome *o);
/* Ranks the players: by points, then each tie-break in turn among the
 * players still level. Returns them in rank order (n of them); valid until
 * carc_standings_free. */
const struct carc_standing *carc_standings_rank(struct carc_standings *sd, size_t *n);
/* How a counted game ended, as the table counts it: the seat that won it
 * (the level rule applied), -1 for a draw. By the order added (from 0);
 * after carc_standings_rank. */
int carc_standings_game_winner(const struct carc_standings *sd, size_t game);
/* The players' names, each once, in the order first counted. */
const struct carc_names *carc_standings_names(const struct carc_standings *sd);
void carc_standings_free(struct carc_standings *sd);

#endif
