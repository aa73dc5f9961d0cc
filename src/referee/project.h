/*
 * project.h - projected finals: what each colour would have if the game
 * ended after a given turn (the final scoring of the rule set applied to
 * the board as that turn left it: unfinished roads, cities and cloisters,
 * farms; solo's followers left on the map; hunters' river systems and
 * meadows).
 *
 * The engine cannot undo a final scoring, so each step is replayed from
 * the start on a scratch engine and scored there: a game of n turns costs
 * about n/2 replays of itself. Nothing of this runs unless asked for
 * (carc score --projected, carc render --format html); check never calls it.
 */
#ifndef CARC_PROJECT_H
#define CARC_PROJECT_H

#include "referee/referee.h"

/* The most turns projected: the replays cost turns^2 / 2 turn plays, and no
 * game played from a tile set's supply comes near (72 base tiles, 91 land
 * and bonus tiles in Hunters and Gatherers, a few discards); only a record
 * that keeps placing tiles the supply no longer has can be longer. */
enum { CARC_PROJECT_MAX_TURNS = 1000 };

struct carc_projector;

struct carc_projector *carc_projector_new(void);
void carc_projector_free(struct carc_projector *p);

/* Called once a step, before its final scoring: step 0 is the start tile
 * alone, step k (1..nturns) the position after res->turns[k - 1]; g is the
 * scratch engine in that position, its result r. */
typedef void (*carc_project_fn)(void *ctx, size_t step, struct carc_game *g, const struct carc_result *r);

/* Projects every step of res, a game refereed with opts (edition; its
 * stop limits are ignored: res->turns says how far to go). Returns
 * res->nturns + 1 rows of CARC_COLOURS totals, indexed by step then colour,
 * valid until the next call; NULL when the game was not refereed or has more
 * than CARC_PROJECT_MAX_TURNS turns. fn may be
 * NULL. Diagnostics of the replays are dropped (the caller's run had them). */
const int *carc_project(struct carc_projector *p, const struct carc_result *res, const struct carc_referee_opts *opts,
			carc_project_fn fn, void *ctx);

#endif
