/*
 * hunters.h - Hunters and Gatherers (2002): what the base engine does not know.
 *
 * The engine (game.c) already places tiles, joins rivers, forests and meadows
 * and closes rivers and forests by their open edges; the referee
 * (referee.c) already walks the turns. This module, one table of hooks
 * (carc_rules_hunters, at the end of hunters.c), adds the rest:
 *   - values: a completed river is worth 1 per tile + the fish of the lakes at
 *     its ends, a completed forest 2 per tile + 2 per mushroom tile; nothing is
 *     worth anything unfinished (engine hook feature_value);
 *   - forests: complete only when closed and enclosing no empty cell (engine
 *     hook closed_complete);
 *   - final scoring: river systems (rivers joined through lakes) to the hut
 *     majority, 1 per fish; meadows to the hunter majority, 2 per deer,
 *     mammoth and aurochs, tigers eating deer unless a fire burns, the shrine's
 *     hunter alone scoring a meadow with a shrine (engine hook score_final);
 *   - huts: one per river system when it is put down (play hook check_deploy);
 *   - bonus turns: a regular turn that completes a forest with a gold nugget is
 *     followed by one bonus turn of the player who placed the tile, with a tile
 *     from the bonus stack (play hooks is_bonus, turn_begin, turn_end).
 * Rulings where the rule book is silent are in notation/ and RULINGS: the
 * game ends after the last land tile, so a bonus earned by it is not played;
 * each lake's fish count once per river even when both ends reach it; a
 * meadow with a shrine and no hunter on the shrine scores nobody.
 */
#ifndef CARC_HUNTERS_H
#define CARC_HUNTERS_H

#include "engine/game.h"
#include "notation/record.h"

/* Its event kinds (engine/game.h: from CARC_EV_MODULE, unique in the registry). */
enum {
	CARC_EV_RIVER_SYSTEM = CARC_EV_MODULE + 1, /* huts on a river system */
	CARC_EV_MEADOW = CARC_EV_MODULE + 2,       /* hunters on a meadow (items: the animals scored) */
};

/* ---- the tile set ---- */

/* Called once per problem with the line of the tile set it concerns (0 for
 * the tile set as a whole). */
typedef void (*carc_hunters_problem_fn)(void *ctx, unsigned line, const char *msg);

/* Checks that a tile set fits the rules: kinds river (path), forest
 * (enclosure) and meadow (area), a lake kind of class lake if any, every
 * river ending at a lake on a tile that has one, and each item where the
 * rules count it (fish on lakes; gold and mushrooms on forests; animals,
 * fire and shrines on meadows). Returns the number of problems, each
 * reported to fn (which may be NULL). */
int carc_hunters_check_tileset(const struct carc_tileset *ts, carc_hunters_problem_fn fn, void *ctx);

/* For a tile set made for the hunters rules (rules: hunters), reports each
 * problem carc_hunters_check_tileset() finds as E401 at its line of the
 * tile-set file, named name (carc tiles --check). Returns their number; 0
 * for other tile sets. */
int carc_hunters_report_tileset(const struct carc_tileset *ts, const char *name, struct carc_diag_sink *sink);

/* Reports E401 when a hunters record's tile set does not fit the rules: the
 * first problem, at the Tileset tag (or the Rules tag), with how many more
 * there are. The game is still refereed. */
void carc_hunters_check_record(const struct carc_record *rec, struct carc_diag_sink *sink);

/* ---- scoring (game.c) ---- */

/* The value of a river or forest (by root) completed during play; 0 for
 * anything incomplete or of another class. *items gets the fish (rivers)
 * or mushroom tiles (forests) counted. */
int carc_hunters_feature_value(struct carc_game *g, uint32_t root, int tiles, bool complete, uint16_t *items);

/* Final scoring: river systems, then meadows, each as one event. Unfinished
 * rivers and forests score nothing and make no event. */
void carc_hunters_score_final(struct carc_game *g);

/* A hut already standing on the river system of a river or lake (by root),
 * or NULL. */
const struct carc_follower *carc_hunters_system_hut(struct carc_game *g, uint32_t root);

/* ---- turns (referee.c) ---- */

/* How a problem found in a turn reaches the referee, which adds the turn and
 * colour and reports it. */
typedef void (*carc_hunters_fault_fn)(void *ctx, enum carc_code code, struct carc_span at, const char *msg);

/* The bonus-turn bookkeeping of one game. */
struct carc_hunters_turns {
	uint8_t due;            /* colour owed a bonus turn, CARC_NO_COLOUR if none */
	int due_turn;           /* the turn that earned it */
	uint32_t due_forest;    /* a gold forest it completed (root), for messages */
	int bonus_turn;         /* the last turn whose bonus turn was played */
	int bonus_gold_turn;    /* the last turn whose bonus tile completed a gold forest */
	int empty_turn;         /* the last turn that found the bonus stack empty */
};

void carc_hunters_turns_start(struct carc_hunters_turns *h);

/* Whether a line is a bonus turn: written N+ (or +), or, while a bonus turn
 * is owed, the owed colour playing a bonus tile with a regular number (a
 * slip that turn_begin reports). */
bool carc_hunters_is_bonus(const struct carc_hunters_turns *h, const struct carc_game *g,
			   const struct carc_move *m);

/* Checks a line before its tile is drawn: a bonus turn must be owed, to its
 * colour, numbered as the turn that earned it, with a bonus tile; a regular
 * turn must not skip an owed bonus turn nor draw a bonus tile. turn is the
 * line's number (for a bonus turn, the turn before it). */
void carc_hunters_turn_begin(struct carc_hunters_turns *h, struct carc_game *g, const struct carc_move *m,
			     bool bonus, int turn, carc_hunters_fault_fn fault, void *ctx);

/* After the line is played and scored (its events from first_event on):
 * owes a bonus turn when a regular placement completed a forest with gold,
 * the bonus stack has tiles and land tiles are left. */
void carc_hunters_turn_end(struct carc_hunters_turns *h, struct carc_game *g, const struct carc_move *m,
			   bool bonus, int turn, size_t first_event);

/* Whether the events from first_event on complete a forest with a gold
 * nugget (for the generator; the referee uses turn_end). */
bool carc_hunters_gold_completed(struct carc_game *g, size_t first_event);

#endif
