/*
 * solo.h - the official solo variant: one person plays three (or four)
 * colours, and a feature pays only a colour that is last on the track.
 *
 * The referee (referee.c) drives a solo game through the module's hooks
 * (carc_rules_solo, at the end of solo.c), which call the functions below, one
 * per step of a turn that the variant changes: whose turn it is (a colour
 * whose stack is used up is passed over), the draw (each colour has its own
 * stack), the deployment that must be made, the order in which the features
 * completed by one tile are scored, the end (after the last tile, or after
 * a follower had to be deployed and none was left), the final award of 2
 * points per follower left on the map, and the Result. The rules engine
 * (game.c) pays a feature through the award hook installed here.
 *
 * Everything a report needs stays in the state after the game: the track as
 * it stood before every scoring event, how each turn's scoring order was
 * decided, why the game ended, and the result (the last colour's score).
 * The rulings taken where the rule book is silent are in the comment at the
 * top of solo.c and in notation/solo.md.
 */
#ifndef CARC_SOLO_H
#define CARC_SOLO_H

#include "engine/game.h"
#include "notation/record.h"

/* Its event kind (engine/game.h: from CARC_EV_MODULE, unique in the registry). */
enum { CARC_EV_SOLO_END = CARC_EV_MODULE }; /* 2 points for a follower left on the map */

#define CARC_SOLO_START_SCORE 1 /* the first colour's marker starts on 1, the next on 2, ... */
#define CARC_SOLO_FOLLOWER_POINTS 2 /* each follower left on the map at the end */

struct carc_solo;

/* How the referee reports a problem: through its own fault(), which prefixes
 * "turn N, colour:" and remembers the game's first error. msg is the text
 * after the prefix. */
typedef void (*carc_solo_report_fn)(void *ctx, enum carc_code code, struct carc_span at, const char *msg);

/* ---- the referee's hooks ---- */

/* Starts a solo game on g (already set up by carc_game_start): the starting
 * scores 1, 2, 3 (4) in seat order, the stacks and the award hook. Returns
 * the state for this game, kept in *cache and reused from game to game. */
struct carc_solo *carc_solo_begin(struct carc_solo **cache, const struct carc_record *rec, struct carc_game *g,
				  carc_solo_report_fn report, void *ctx);
void carc_solo_free(struct carc_solo *s);

/* Whose turn: seat is the seat that would play next in plain rotation. A seat
 * whose stack is used up is passed over, unless its colour is the one that
 * the record plays (then the draw reports the empty stack instead of a turn
 * out of order). Returns the seat that plays. */
int carc_solo_seat(struct carc_solo *s, int seat, int record_colour);
/* The move draws a tile from its colour's stack. Reports E302 and returns
 * false when that stack is used up (the tile is still taken from the supply
 * by the caller, as the record says). */
bool carc_solo_draw(struct carc_solo *s, const struct carc_move *m, int turn);
/* After the placement and deployment of a turn: checks that a follower was
 * deployed when one could be (E301), notes the forced end when one had to be
 * but none was left, scores the completed features in the recorded order
 * (E304-E306 for a bad order) or the order that earns the most (E307 note),
 * and keeps the track for the reports. placement is -1 when the tile could
 * not be placed. */
void carc_solo_turn(struct carc_solo *s, const struct carc_move *m, int placement, int turn);
/* True when the game ended because a follower had to be deployed and none
 * was left. */
bool carc_solo_forced_end(const struct carc_solo *s);
/* A turn line after a forced end: reports E303 and returns true; returns
 * false (nothing reported) when the game ended some other way. */
bool carc_solo_after_end(struct carc_solo *s, const struct carc_move *m);
/* The solo final scoring: 2 points per follower left on the map, each paid
 * only if its colour is last at that moment, in the EndOrder order (E308,
 * E309 for entries that name no follower or one twice) and then the order
 * that earns the most (E307 note when that matters). */
void carc_solo_score_final(struct carc_solo *s);
/* Stops reporting: after the referee's run, for a final scoring of a
 * position part-way (project.c), whose messages would go to a referee that
 * has returned. */
void carc_solo_quiet(struct carc_solo *s);
/* Compares the Result tag with the track: every colour it names must have
 * that score (E213); a Result that leaves colours out must name a colour that
 * is last (E310), since it then states the game's result. */
void carc_solo_check_result(struct carc_solo *s);

/* ---- for reports ---- */

/* The number of tiles in each seat's stack (seat order), and how many the
 * colour has drawn so far. */
int carc_solo_stack(const struct carc_solo *s, int seat);
int carc_solo_drawn(const struct carc_solo *s, int colour);
int carc_solo_start_score(const struct carc_solo *s, int colour);
/* The track just before scoring event number event (an index into
 * carc_game_events), indexed by colour. */
const int *carc_solo_track_before(const struct carc_solo *s, size_t event);
/* Why a scoring event paid or did not pay, in words, appended to out:
 *   "red is last: red 1, green 2, blue 3"
 *   "red is not last: red 14, green 9, blue 11"
 *   "red and green hold it, neither is last: red 14, green 12, blue 9"
 *   "nobody holds it"
 * Returns true when the event left out a colour that held the majority. */
bool carc_solo_explain(const struct carc_solo *s, size_t event, struct carc_buf *out);

enum carc_solo_order {
	CARC_SOLO_ORDER_NONE,   /* nothing to choose: fewer than two features held, or every order pays the same */
	CARC_SOLO_ORDER_GIVEN,  /* the record gave the order (order ... or EndOrder) */
	CARC_SOLO_ORDER_CHOSEN, /* carc chose the order that earns the most (and said so in an E307 note) */
};
/* How the scoring order of a turn (turn 0: the final award) was decided. */
enum carc_solo_order carc_solo_order_of(const struct carc_solo *s, int turn);

/* Why and when the game ended: 0 while it goes on; otherwise the turn after
 * which it ended. *forced is true for the forced end, and then *colour is the
 * colour that had to deploy a follower and had none. */
int carc_solo_end(const struct carc_solo *s, bool *forced, int *colour);
/* The game's result: the score of the colour last on the track, and in
 * *last the colours that share that score (bit per colour). */
int carc_solo_result(const struct carc_solo *s, uint8_t *last);

/* ---- for carc gen: playing a solo game without a record ---- */

/* Starts a solo game on g (already set up by carc_game_start) for the seats
 * in order of play: starting scores, stacks, the award hook. */
struct carc_solo *carc_solo_begin_play(struct carc_solo **cache, struct carc_game *g, const uint8_t *seats,
				       int nseats);
/* True when the placement has a free feature: a road, city or cloister with
 * no follower on it, which the colour must then take if it has a follower. */
bool carc_solo_has_free_feature(struct carc_solo *s, int placement);
/* Ends the game after this turn: colour had to deploy and had none left. */
void carc_solo_forced_end_by(struct carc_solo *s, int colour, int turn);
/* Scores what the placement completed in the order that earns the most; when
 * two or more of those features hold followers, appends " order REF..." (the
 * order used, as the turn line writes it) to order_out. */
void carc_solo_score_best(struct carc_solo *s, int placement, int turn, struct carc_buf *order_out);
/* The final award in the order that earns the most; appends the order used to
 * endorder_out as an EndOrder value ("x,y:SPOT ..."; empty when no follower
 * is left on the map). */
void carc_solo_final_best(struct carc_solo *s, struct carc_buf *endorder_out);
/* How a completed feature (root) is written in an order: a spot of the
 * placed tile, or x,y:SPOT for a cloister around it. */
void carc_solo_order_ref(struct carc_game *g, int placement, uint32_t root, struct carc_buf *out);

/* ---- the pieces, exposed for tests ---- */

/* The size of the stack of seat (0-based) when total tiles are split among
 * nseats colours: as even as possible, the earlier seats taking the extra
 * tiles (71 tiles: 24 24 23; four colours: 18 18 18 17). */
int carc_solo_stack_size(int total, int nseats, int seat);

/* The lowest-on-track rule: of winners (the colours holding the majority),
 * the ones paid when the track stands at score[] (by colour; seated says
 * who plays): all of them if one of them is last (ties for last count as
 * last), none otherwise. */
uint8_t carc_solo_paid(const int *score, uint8_t seated, uint8_t winners);

/* One thing to score in some order: a completed feature (winners: the
 * majority colours) or a follower left on the map (its colour alone). */
struct carc_solo_item {
	uint8_t winners;
	int points;
};
/* Finds the order of items that pays the most points in all, from the track
 * score[]; among those it keeps the one whose last colour ends highest, then
 * the first in the items' own order. Writes the order (indices into items)
 * to order[] and returns the points it pays. *matters (may be NULL) is set
 * when some other order would leave the track different. n is at most
 * CARC_SOLO_MAX_ITEMS. */
#define CARC_SOLO_MAX_ITEMS 64
int carc_solo_best_order(const int *score, uint8_t seated, const struct carc_solo_item *items, int n, int *order,
			 bool *matters);

#endif
