/*
 * played.h - what a game of a tournament says for pairing and ratings:
 * who sat where, who won and how the result came about (over the board,
 * or decided off it: a Termination tag), and the tags that order and
 * group games (Event, Round, Date, Time, Board, Match, Format).
 *
 * The outcome itself is the notation's and the standings' (event.h:
 * carc_outcome_of): the Winner tag, else the final scores (refereed from
 * the moves, or the Result of a game without moves); here a level score
 * of two players is settled by enum played_level, and the Termination
 * becomes a kind that says whether the players met over the board.
 */
#ifndef CARC_PLAYED_H
#define CARC_PLAYED_H

#include "cli/event.h"

enum played_level { PLAYED_LEVEL_DRAW, PLAYED_LEVEL_SECOND, PLAYED_LEVEL_FIRST };

enum played_kind {
	PLAYED_BOARD,          /* played and scored (no Termination tag) */
	PLAYED_ONE_ZERO,       /* "1-0": a win recorded without points */
	PLAYED_TIME_FORFEIT,   /* "time forfeit" */
	PLAYED_ADMIN,          /* "admin decision" */
	PLAYED_NO_SHOW,        /* "no-show" */
	PLAYED_WITHDRAWAL,     /* "withdrawal" */
	PLAYED_DISQUALIFIED,   /* "disqualification" */
	PLAYED_BYE,            /* "bye": one seat */
	PLAYED_KINDS
};
extern const char *const played_kind_names[PLAYED_KINDS];

/* Whether the players met over the board (the kinds before no-show). */
#define PLAYED_OVER_THE_BOARD(kind) ((kind) <= PLAYED_ADMIN)

struct played {
	enum played_kind kind;
	int nseats;
	const char *names[CARC_COLOURS];   /* in seat order: the first started */
	int scores[CARC_COLOURS];          /* by seat, when has_scores */
	bool has_scores;
	int winner;                        /* the winning seat, -1 for a draw */
	const char *event, *round, *date, *match; /* NULL when absent */
	const char *time;                  /* "19:30:00", "" when absent */
	unsigned format_games;             /* Format "BoN": N, 0 when absent */
	char time_text[16];
	struct carc_outcome outcome;       /* as the standings count it (event.h) */
};

/* Reads game into *p (its strings valid while the game is). NULL, or why
 * the game cannot count (a short phrase for a listing). */
const char *played_read(const struct carc_archive_game *game, enum played_level level, struct played *p);

/* --level draw|second|first: false when arg is none of them. */
bool played_level_option(const char *arg, enum played_level *level);

#endif
