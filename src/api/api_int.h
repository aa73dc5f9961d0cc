/*
 * api_int.h - what the files of src/api/ share behind <carc.h>.
 *
 * A carc_match is the text of one CGN game and, built from it when needed,
 * its record (notation) and its replay (referee, engine). Both groups keep
 * to that: a game read from a file holds the game's text as read, a game
 * played here holds the header it was started with and a line per turn
 * played, and every question about it is answered by the reader and the
 * referee of `carc check` over that text. So no rule, reader or writer
 * exists twice, and a played move is refused by the very check that would
 * flag its line in a record. A move played costs one line and one turn,
 * not the game: the reader adds the line to the record
 * (carc_record_add_turn) and the referee's walk, kept open, takes one step
 * (carc_referee_step; carc_match.live).
 *
 *   match.c   the handle, the replay (api_replay), diagnostics, version,
 *             return codes, the state queries on scores and supply
 *   read.c    records from files, memory and streams; tags, turns, tiles,
 *             features and followers (group 1)
 *   play.c    new games, the draw, legal moves, play, clone, CGN, random
 *             games (group 2)
 */
#ifndef CARC_API_INT_H
#define CARC_API_INT_H

#include "api/carc.h"
#include "common/diag.h"
#include "common/util.h"
#include "engine/game.h"
#include "notation/record.h"
#include "notation/tileset.h"
#include "referee/referee.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* What a game and its clones share: the tile sets loaded, behind a lock
 * (clones may live on different threads), counted. */
struct api_shared {
	struct carc_tileset_cache *cache;
	pthread_mutex_t lock;
	atomic_int refs;
};

struct api_shared *api_shared_new(void);
struct api_shared *api_shared_ref(struct api_shared *s);
void api_shared_unref(struct api_shared *s);

/* A diagnostic kept by a match: message at diag_text + msg (the text may
 * move, so an offset). */
struct api_diag {
	char code[8];
	int severity;
	size_t msg;
	unsigned line, column;
};

struct api_play; /* play.c: the supply, the tile drawn, the seat to move */
void api_play_free(struct api_play *p);

struct carc_match {
	struct api_shared *shared;
	char *name;              /* the file, for diagnostics */
	struct carc_buf text;    /* the game's CGN text */
	unsigned base_line;      /* line of text[0] in the file, from 1 */
	unsigned index;          /* the game's number in the file, from 1 */
	struct carc_record start_only; /* rec with no turns, replayed for position 0 (api_replay): kept
				     here, as a module's state keeps a pointer to the record it referees */

	/* Built from text by api_replay, and stale when text changes. */
	bool built;              /* rec is parsed from text */
	struct carc_record rec;
	struct carc_game *g;
	struct carc_result res;
	int replayed;            /* turns the replay in g and res stands after; CARC_POSITION_END: all */
	/* A played game's replay kept open (carc_referee_begin), at its last
	 * move, so that a move is one step (play.c): the record is the text's,
	 * g and res stand after every move, and the referee's walk goes on
	 * from there. Any other replay of the game (a position part-way, the
	 * diagnostics, a projection) closes it; the next move opens it again,
	 * replaying the game once (api_live). */
	bool live;
	unsigned long steps;     /* moves refereed, by the steps and by api_live (carc_match_work) */
	int position;            /* the position asked for (carc_match_seek) */

	/* The diagnostics of the whole game, as check gives them. */
	bool diagnosed;
	struct api_diag *diags;
	size_t ndiags, diags_cap;
	struct carc_buf diag_text;
	unsigned errors;

	struct api_play *play;   /* NULL: a game read from a record */
	char error[256];         /* carc_match_error */
};

/* A match over the len bytes of text (copied): game number index of file
 * name, whose first line is line base_line. shared: taken (a reference). */
carc_match *api_match_new(struct api_shared *shared, const char *name, const char *text, size_t len,
			  unsigned base_line, unsigned index);

/* Brings m's record and replay to turns (CARC_POSITION_END: the whole game
 * with its final scoring as check does it), parsing text again if it
 * changed. Messages go to sink (NULL: dropped). CARC_OK, or CARC_ESYNTAX
 * when the text holds no game. */
int api_replay(carc_match *m, int turns, struct carc_diag_sink *sink);

/* Opens the live replay of a played game (see carc_match.live) at its
 * last move, unless it is open: CARC_OK, or CARC_ESYNTAX. */
int api_live(carc_match *m);

/* Collects the game's diagnostics (a whole replay) into m->diags. */
int api_diagnose(carc_match *m);

/* A diagnostic as the public struct. */
void api_diag_out(const carc_match *m, const struct api_diag *d, carc_diagnostic *out);

/* Sets m->error (printf style); returns rc. */
int api_fail(carc_match *m, int rc, const char *fmt, ...) CARC_PRINTF(3, 4);

/* Copies a string into a fixed field, cut to fit. */
void api_copy(char *dst, size_t cap, const char *src);

/* snprintf-style output of a buffer: see carc.h. */
size_t api_out(const struct carc_buf *b, char *buf, size_t cap);

/* Writes why (cap bytes) when not NULL. */
void api_why(char *why, size_t cap, const char *msg);

#endif
