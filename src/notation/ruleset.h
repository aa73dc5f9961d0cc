/*
 * ruleset.h - a rule set as data, the rule sets a reader may read (a view
 * of a registry), and the lookups in them.
 *
 * A rule set is one module under src/rules/, a single table, struct
 * carc_ruleset (rules/rules.h says more): its data, which the notation and
 * the engine read (its name, roles, supplies and seats, default tile set,
 * what a record may write), and pointers to its hooks, only declared here.
 * The data is declared at the lowest layer that reads it, so that neither
 * the notation nor the engine includes src/rules/ (common/ knows no game:
 * a rule set names tile sets, features and roles, which start here).
 *
 * The notation never calls the registry, which sits above it (rules/rules.c
 * reaches every module and through them the engine). Whoever opens a reader
 * hands it the rule sets a record may name as a struct carc_rulesets: for
 * carc, carc_rules_registry() of rules/rules.h. Nothing here is global: a
 * view is read-only data, shared freely between threads.
 */
#ifndef CARC_RULESET_H
#define CARC_RULESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- a rule set, as data ---- */

#define CARC_MAX_RULESETS 16  /* room for the registry to grow (arrays indexed by id) */
#define CARC_MAX_EXPANSIONS 8 /* expansions in one game */

/* Roles of one game, the composed rule set's (its base rule set's, then each
 * expansion's): the base game's 4, an abbot, a large follower's 4 (a role
 * each: big knight, big thief, big monk, big farmer), a builder, a pig.
 * A deployment is packed in a byte with its role in 4 bits (gameid.c). */
#define CARC_MAX_ROLES 12

struct carc_role {
	const char *name;     /* knight */
	const char *kinds[2]; /* feature kinds it may stand on: "city" */
	bool returns;         /* comes back when its feature is scored */
	bool hut;             /* taken from the second supply (Hunters and Gatherers' huts) */
	uint8_t own;          /* a supply of its own: this many figures of each colour, taken from it
				 and returned to it (The Abbot's abbot: 1); 0: the followers' (or the huts') */
	bool recall;          /* may be taken back instead of deploying: "return ROLE" (the abbot) */
	int8_t weight_more;   /* how much more than a follower it counts in a feature's majority:
				 0 a follower (counts 1), 1 a large follower (2), -1 a figure that
				 never counts (a builder, a pig: 0); carc_role_weight() */
	const char *pool;     /* with own: roles of one pool share that supply (NULL: the role's alone),
				 and the pool's name names the figure: the large follower is one figure
				 a colour, written as whichever role it plays ("big knight", "big
				 farmer": its roles' pool "large follower"); carc_role_supply_name() */
};

/* What a figure of the role counts in a feature's majority (the engine's
 * features.c, board.c, farms.c: its owners are the colours of the largest
 * sum): 1 + weight_more. */
static inline int carc_role_weight(const struct carc_role *r)
{
	return 1 + r->weight_more;
}

/* What a record of the rule set may write beyond the base notation, and
 * how its games are read. */
enum {
	CARC_RS_ORDERS = 1u << 0,       /* turn lines may give a scoring order ("order"), the header EndOrder */
	CARC_RS_BONUS_TURNS = 1u << 1,  /* turns written N+ */
	CARC_RS_NO_WINNER = 1u << 2,    /* one person plays every colour: a result, no winner or opponents */
	CARC_RS_ANY_END = 1u << 3,      /* the game may end before the supply is used up (play hook) */
	CARC_RS_START_SCORES = 1u << 4, /* colours start with points on the track (CARC_SRC_START) */
};

struct carc_engine_hooks; /* engine/game.h */
struct carc_play_hooks;   /* rules/module.h */
struct carc_rules_words;  /* rules/module.h */

struct carc_ruleset {
	int id;                  /* its index in the registry (enum carc_ruleset_id, rules/rules.h) */
	const char *name;        /* as in the Rules tag */
	const char *title;
	bool expansion;          /* added to a base rule set, not played alone */
	int off_code;            /* an expansion: the code (enum carc_code) of a record that writes one
				    of its roles while it is not on; 0: the notation's E025 */
	unsigned flags;          /* CARC_RS_* */
	const char *tileset;     /* default tile set; an expansion's own tiles, played before the base set's
				  * (The River), or NULL when its tiles are in the base set (The Abbot) */
	int followers;           /* default followers per colour */
	int min_followers, max_followers;
	int huts;                /* default huts per colour (0: none) */
	int min_seats, max_seats;
	int default_seats;       /* colours when Seats is missing and cannot be inferred */
	int nroles;
	struct carc_role roles[CARC_MAX_ROLES];
	const struct carc_engine_hooks *engine; /* NULL: the base engine's rules alone */
	const struct carc_play_hooks *play;     /* NULL: the base turn */
	const struct carc_rules_words *words;   /* never NULL */
	const char *joins;       /* an expansion: the base rule sets it may join, blank-separated */
	/* a composed rule set (carc_rules_compose): the engine hooks of each of
	 * its modules that has some, in calling order, which the engine
	 * combines (engine/game.h); 0 for a module's own table, whose engine
	 * is its only one */
	int nengines;
	const struct carc_engine_hooks *engines[1 + CARC_MAX_EXPANSIONS];
};

/* ---- the rule sets a reader knows ---- */


/* The rule sets a reader knows. */
struct carc_rulesets {
	/* every rule set, base rule sets and expansions, in the registry's
	 * order: sets[i]->id == i */
	const struct carc_ruleset *const *sets;
	int count;
	const struct carc_ruleset *default_rules; /* when a record names none */
	/* The rule set a game plays: base with the expansions (as
	 * carc_rules_compose in rules/rules.h), or NULL when they cannot be
	 * played together; then conflict says why (false: more roles than a
	 * game holds). */
	const struct carc_ruleset *(*compose)(const struct carc_ruleset *base,
					      const struct carc_ruleset *const *expansions, int n);
	bool (*conflict)(const struct carc_ruleset *const *mods, int n, char *why, size_t size);
};

/* By name, case-insensitively; NULL if none. */
const struct carc_ruleset *carc_rulesets_find(const struct carc_rulesets *v, const char *name, size_t len);
/* The names of v's rule sets that are not expansions (expansions false),
 * or of its expansions, for messages: "base, solo or hunters", "river or
 * abbot"; cut to size. */
void carc_rulesets_names(const struct carc_rulesets *v, bool expansions, char *names, size_t size);
/* The first expansion of v that has a role of that name (case-
 * insensitive), or NULL: for the message of a role written in a game that
 * does not play it. */
const struct carc_ruleset *carc_rulesets_expansion_with_role(const struct carc_rulesets *v, const char *name,
							     size_t len);
/* Reads the expansions named in words (len bytes, blank- or comma-
 * separated, any case) for the base rule set: each name that is no
 * expansion of v, is named again or does not go with base goes to fault,
 * with its offset and length in words and a message; the others go into
 * out (CARC_MAX_EXPANSIONS of room) in v's order, so that one combination
 * has one order. Returns their number; *names gets how many words there
 * were (0: the list names nothing, for the caller to say). */
typedef void (*carc_expansion_fault_fn)(void *ctx, size_t off, size_t len, const char *msg);
int carc_rulesets_read_expansions(const struct carc_rulesets *v, const struct carc_ruleset *base, const char *words,
				  size_t len, const struct carc_ruleset **out, int *names, carc_expansion_fault_fn fault,
				  void *ctx);

/* Whether the word (len bytes, any case) is the first of some role's two
 * words ("big" of "big knight": a module's variant of a role, with its own
 * weight, supply and kinds) in any rule set of v, so that the notation
 * reads the next word with it. */
bool carc_rulesets_role_word_before(const struct carc_rulesets *v, const char *word, size_t len);

/* ---- one rule set's data ---- */

/* Whether the expansion may join the base rule set (its joins list). */
bool carc_ruleset_joins(const struct carc_ruleset *expansion, const struct carc_ruleset *base);
/* Role index by name (case-insensitive), or -1. */
int carc_ruleset_role(const struct carc_ruleset *rs, const char *name, size_t len);
/* Whether two roles of a rule set share a supply of their own (the same
 * role, or the same carc_role.pool). */
bool carc_roles_share_supply(const struct carc_role *a, const struct carc_role *b);
/* The name of the supply of its own that role r draws from, for the list
 * of a colour's figures: its pool's ("large follower") or its own
 * ("abbot"); NULL when an earlier role of its pool names it already, or the
 * role has no supply of its own. */
const char *carc_role_supply_name(const struct carc_ruleset *rs, int r);

/* The letter of each role of a rule set, drawn on its followers: the
 * first letter of its name not taken by an earlier role; a two-word role
 * whose second word is an earlier role ("big knight") takes that role's
 * letter (it is drawn larger: its weight). */
void carc_role_letters(const struct carc_ruleset *rs, char *letters);

#endif
