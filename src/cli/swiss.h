/*
 * swiss.h - one round of a Swiss tournament for two-player games: who
 * meets whom, who starts, who has the bye. Pure: no files, no names; the
 * caller (carc pair) gives the players in ranking order and says who has
 * met whom.
 *
 * The system: Monrad-style score-group pairing with backtracking (as the
 * World Championship's Swiss rounds and Scandinavian events pair: take the
 * top unpaired player and give them the nearest player below), made exact
 * by a maximum-matching test, so that it guarantees, every round:
 *   1. each active player is in exactly one game, or is the one bye (an
 *      odd number of active players), and no inactive player is paired;
 *   2. the fewest rematches any complete pairing of the round allows (none
 *      when a pairing without one exists);
 *   3. the bye goes to the lowest-ranked player among those with the
 *      fewest byes (so nobody has two while an active player has none)
 *      whose bye still leaves the fewest rematches;
 *   4. from the top, each player meets the highest-ranked unpaired player
 *      whose game still leaves the rest of the round a pairing with the
 *      fewest rematches, role-compatible players of a score group before
 *      the others of that group (see 5): score groups from the top, and a
 *      player floats down only as far as guarantee 2 needs;
 *   5. in each game the starting player is chosen so that nobody plays the
 *      same role (first or second) three games running and nobody's
 *      starts outnumber their games as second, or the reverse, by more
 *      than 2, whenever one of the two choices of starter for that game
 *      avoids it; then the player who started fewer times (counted as
 *      starts minus games as second, so a missed round does not count),
 *      then the one who was second in their last game, then the
 *      higher-ranked;
 *   6. the same input gives the same round (no randomness).
 * Cost: linear in the players while the field is larger than twice the
 * most opponents anyone has met (a graph in which everybody may still meet
 * at least half of the others always has a pairing without rematch:
 * Dirac's theorem), and an O(m^3) matching on the last m players below
 * that size.
 */
#ifndef CARC_SWISS_H
#define CARC_SWISS_H

#include <stdbool.h>
#include <stddef.h>

/* A player's state before the round, as the games so far give it. */
struct swiss_player {
	double score;          /* the pairing score (wins, byes included) */
	unsigned byes;
	int balance;           /* games started minus games played second */
	char last_role;        /* 'F' started, 'S' second in the last game played; 0 none */
	unsigned streak;       /* how many games running with last_role */
	unsigned opponents;    /* distinct opponents met */
	bool active;           /* to be paired this round */
};

/* Whether players a and b (indices) have met. */
typedef bool (*swiss_met_fn)(void *ctx, size_t a, size_t b);

struct swiss_game {
	size_t first, second;  /* player indices; first starts */
	bool rematch;
	bool role_forced;      /* both choices of starter break rule 5 */
};

struct swiss_round {
	struct swiss_game *games;   /* in board order: the top player's game first */
	size_t ngames;
	size_t bye;                 /* the player with the bye, SWISS_NONE when none */
	size_t rematches, role_forced;
};
#define SWISS_NONE ((size_t)-1)

/* Pairs the active players of p[0..n) (index 0 ranked highest) into out
 * (its games array allocated here; free with swiss_round_free). */
void swiss_pair_round(const struct swiss_player *p, size_t n, swiss_met_fn met, void *ctx,
		      struct swiss_round *out);
void swiss_round_free(struct swiss_round *r);

/* The starter rule (guarantee 5) for players a and b, a ranked higher:
 * true when a starts. *forced: both choices break the rule. */
bool swiss_a_starts(const struct swiss_player *a, const struct swiss_player *b, bool *forced);

/* The size of a maximum matching of the m vertices whose adjacency is
 * ok[i * m + j] (symmetric, diagonal false): Edmonds' blossom algorithm,
 * O(m^3). Exposed for the tests. */
size_t swiss_max_matching(const bool *ok, size_t m);

#endif
