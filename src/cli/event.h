/*
 * event.h - a game as a tournament counts it: who played, in which seat,
 * with what final score, who won and how (on the board, by a level score
 * or off the board), and where the game sits in its event (event, round,
 * board, match, date and time). carc standings builds its table from it;
 * carc pair and carc ratings read the same outcome.
 */
#ifndef CARC_EVENT_H
#define CARC_EVENT_H

#include "cli/archive.h"

struct carc_outcome {
	int nseats;
	const char *player[CARC_COLOURS]; /* by seat (seat 0 started): the colour tag's name, or the colour */
	uint8_t colour[CARC_COLOURS];
	int score[CARC_COLOURS];          /* by seat: the final score (0 when !scores) */
	bool scores;                      /* the final scores count: a game played to its end, or a Result */
	int winner;                       /* the seat that won, -1 when no seat alone has the top score and
					     no Winner tag says (a level score: the standings' --level decides) */
	unsigned top;                     /* the seats (bit per seat) with the top score, when winner is -1 */
	enum carc_termination termination; /* decided off the board (CARC_TERM_NONE: on it) */
	bool technical;                   /* a result decided off the board: no score counts for or against */
	bool bye;                         /* a one-seat record of a bye: a win without an opponent */
	const char *event, *round, *match, *date; /* the tags, NULL when absent */
	int board;                        /* 0 when absent */
	int format_games;                 /* Format "BoN": N, 0 when absent */
	int32_t time_of_day;              /* Time, seconds since midnight; -1 when absent */
};

/* The outcome of a game; NULL, or why a tournament cannot count it (a
 * game with errors, unless include_invalid and it was refereed; a solo
 * game; one player, not a bye; no final scores and no winner; one name on
 * two seats), written in why. */
const char *carc_outcome_of(const struct carc_archive_game *game, bool include_invalid, struct carc_outcome *o,
			    struct carc_buf *why);

#endif
