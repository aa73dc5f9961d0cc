/*
 * gen.h - random legal games, for the tests, the benchmark and the fuzzer.
 *
 * The generator plays whole games through the rules engine (game.h): the
 * supply is shuffled from the tile set, each drawn tile goes to a uniformly
 * chosen legal position and rotation (or is discarded when it fits nowhere),
 * a follower is deployed, with a given probability, on a uniformly chosen
 * legal (role, feature) pair of the tile just placed, at a uniformly chosen
 * spot of that feature, and some turns carry claims of the running scores.
 * The game is written as canonical CGN with the final scores in [Result].
 *
 * Everything random comes from one xoshiro256** stream seeded through
 * splitmix64, so the same seed gives the same games on every machine. Game k
 * of a run (from 0) is seeded from the run's seed and k alone: generating 10
 * games or 1000 with the same seed gives the same first 10.
 *
 * Rule sets plug in through a small table in gen.c (what a turn may or must
 * deploy, how the game ends); a rule set without an entry is refused by
 * carc_gen_new() with a message.
 */
#ifndef CARC_GEN_H
#define CARC_GEN_H

#include "engine/game.h"
#include "rules/rules.h"
#include "notation/tileset.h"
#include "common/util.h"

#include <stdint.h>

struct carc_gen_opts {
	const struct carc_ruleset *rules;
	/* expansions added to the rules (rules.h: tables with .expansion), in
	 * the order the Expansions tag writes them */
	const struct carc_ruleset *expansions[CARC_MAX_EXPANSIONS];
	int nexpansions;
	const struct carc_tileset *tileset; /* NULL: the rule set's default, loaded by carc_gen_new (with
					       expansions: the game's own set, assembled as for a record) */
	int players;          /* seats; 0: the rule set's default */
	int edition;          /* 0: no Edition tag (the default, 3rd) */
	double deploy_rate;   /* chance of deploying when a deployment is legal, 0..1 */
	double claim_rate;    /* chance that a turn carries claims, 0..1 */
	uint64_t seed;
};

/* Called after each turn of a generated game, once the turn's features are
 * scored: the invariant tests look at the engine here. turn is the turn
 * number; discard is true for a tile that fitted nowhere. */
typedef void (*carc_gen_turn_fn)(void *ctx, struct carc_game *g, int turn, int colour, bool discard);

struct carc_gen;

/* A generator, or NULL when the rule set (or its tile set) cannot be
 * generated yet; then *why says so in one sentence. */
struct carc_gen *carc_gen_new(const struct carc_gen_opts *opts, const char **why);
void carc_gen_free(struct carc_gen *gen);

/* Sets the per-turn hook (NULL to clear). */
void carc_gen_on_turn(struct carc_gen *gen, carc_gen_turn_fn fn, void *ctx);

/* Plays game number index of the run (from 0) and appends its CGN text to
 * out: tags, a blank line, one turn per line. */
void carc_gen_game(struct carc_gen *gen, uint64_t index, struct carc_buf *out);

/* The seats of the game being generated (from a turn hook) or of the last
 * one, in order of play; returns their number. */
int carc_gen_seats(const struct carc_gen *gen, uint8_t seats[CARC_COLOURS]);

/* The engine of the last generated game (its final state), for tests. */
struct carc_game *carc_gen_engine(struct carc_gen *gen);

/* The legal deployments of colour c on placement pl, the tile just placed
 * (of the game's rule set and tile set, which g plays): each role that may
 * stand on each feature of the tile, with a figure of it in supply, on a
 * feature nobody holds (a hut: any), that no module's check_deploy refuses
 * (mods: the game's modules with play hooks, nmods of them). Writes out
 * (CARC_MAX_FEATURES * CARC_MAX_ROLES at most) and returns the count. The
 * generator deploys one of these; the library lists them as legal moves. */
struct carc_deploy_choice {
	uint8_t role;
	uint8_t feature;
};
struct carc_play_hooks;
int carc_deploy_choices(struct carc_game *g, const struct carc_play_hooks *const *mods, int nmods, int pl, int c,
			struct carc_deploy_choice *out);

/* The PRNG, exposed for tests and tools that need reproducible randomness. */
struct carc_rng {
	uint64_t s[4];
};
void carc_rng_seed(struct carc_rng *rng, uint64_t seed);
uint64_t carc_rng_next(struct carc_rng *rng);
/* A uniform integer in [0, n), n > 0, without modulo bias. */
uint32_t carc_rng_below(struct carc_rng *rng, uint32_t n);
/* True with probability p. */
bool carc_rng_chance(struct carc_rng *rng, double p);

#endif
