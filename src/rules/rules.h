/*
 * rules.h - the rule-set interface: what a rule set is, as data and hooks.
 *
 * A rule set is one module under src/rules/ (base.c, solo.c, hunters.c),
 * each a single table, struct carc_ruleset, in the manner of SQLite's VFS or
 * SGFC's property table: data that every layer may read (its name, roles,
 * supplies and seats, default tile set, what the notation allows), and
 * pointers to its hooks, grouped by the layer that calls them:
 *   - engine: the values of features, whether a closed feature is complete,
 *     who is paid, final scoring (struct carc_engine_hooks, engine/game.h);
 *   - play: the referee's and the generator's hooks for what a turn may do
 *     beyond the base turn, deployment checks, the header and tile-set
 *     checks, per-game state (struct carc_play_hooks, rules/module.h);
 *   - words: the keys and names its reports need (struct carc_rules_words,
 *     rules/module.h).
 * Only the pointers are declared here, so that the notation layer can read
 * the data without seeing the layers above it. A game holds a base rule set
 * (rec->rules) and any number of expansions (rec->expansions), each called
 * in that order; rules.c is the registry. Nothing outside src/rules/ tests
 * which rule set is on: it reads the data or calls the hooks.
 */
#ifndef CARC_RULES_H
#define CARC_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The registry's order (rules.c); also each table's index there. Code
 * outside src/rules/ does not name them: it iterates carc_ruleset_at(). */
enum carc_ruleset_id {
	CARC_RULES_BASE, CARC_RULES_SOLO, CARC_RULES_HUNTERS, /* base rule sets */
	CARC_RULES_RIVER, CARC_RULES_ABBOT,                  /* expansions */
	CARC_RULES_INNS,                                     /* Inns & Cathedrals */
	CARC_RULES_TRADERS,                                  /* (traders.c) */
	CARC_RULES_COUNT
};
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
	const char *pool;     /* with own: roles of one pool share that supply (NULL: the role's alone):
				 the large follower is one figure a colour, written as whichever role
				 it plays ("big knight", "big farmer": its roles' pool "big") */
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
	enum carc_ruleset_id id; /* its index in the registry */
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

/* The registry: every rule set, in id order. */
int carc_ruleset_count(void);
const struct carc_ruleset *carc_ruleset_at(int index);
/* The base game's rules: the default when a record names none. */
const struct carc_ruleset *carc_ruleset_default(void);
const struct carc_ruleset *carc_ruleset_get(enum carc_ruleset_id id);
/* By name, case-insensitively; NULL if none. */
const struct carc_ruleset *carc_ruleset_find(const char *name, size_t len);
/* The names of the rule sets that are not expansions, for messages: "base,
 * solo or hunters"; of the expansions: "river or abbot". */
const char *carc_ruleset_names(void);
const char *carc_ruleset_expansion_names(void);
/* Reads the expansions named in words (len bytes, blank- or comma-
 * separated, any case) for the base rule set: each name that is no
 * expansion, is named again or does not go with base goes to fault, with
 * its offset and length in words and a message; the others go into out
 * (CARC_MAX_EXPANSIONS of room) in registry order, so that one combination
 * has one order. Returns their number; *names gets how many words there
 * were (0: the list names nothing, for the caller to say). */
typedef void (*carc_expansion_fault_fn)(void *ctx, size_t off, size_t len, const char *msg);
int carc_rules_read_expansions(const struct carc_ruleset *base, const char *words, size_t len,
			       const struct carc_ruleset **out, int *names, carc_expansion_fault_fn fault, void *ctx);
/* Whether the expansion may join the base rule set (its joins list). */
bool carc_ruleset_joins(const struct carc_ruleset *expansion, const struct carc_ruleset *base);
/* The rule set a game plays: base with the expansions (in registry order,
 * none twice): base's id, name, flags, play hooks and words; its roles
 * followed by each expansion's; the flags' union; every module's engine
 * hooks in calling order (engines[], which the engine combines: game.h),
 * and merged field by field into engine, the last module that sets one
 * shown; a follower count and the second supply from the base unless an
 * expansion gives them. Returns base itself when n is 0. Built once per
 * combination for the whole process (thread-safe), never freed. NULL when
 * the roles do not fit in CARC_MAX_ROLES, or when two of the modules
 * replace the same step (carc_rules_conflict). */
const struct carc_ruleset *carc_rules_compose(const struct carc_ruleset *base,
					      const struct carc_ruleset *const *expansions, int n);
/* Whether the modules (a base rule set and expansions, in calling order)
 * cannot be played together: two of them set a hook that replaces a step
 * of the game (module.h: seat, score_turn, score_final, ..., and the
 * engine's score_final); then why says which, and carc_rules_compose
 * refuses them (NULL). */
bool carc_rules_conflict(const struct carc_ruleset *const *mods, int n, char *why, size_t size);
/* The first expansion of the registry that has a role of that name
 * (case-insensitive), or NULL: for the message of a role written in a game
 * that does not play it. */
const struct carc_ruleset *carc_ruleset_expansion_with_role(const char *name, size_t len);
/* Role index by name (case-insensitive), or -1. */
int carc_ruleset_role(const struct carc_ruleset *rs, const char *name, size_t len);
/* A role's name is one word ("knight") or two: a role word before a role
 * ("big knight": a module's variant of a role, with its own weight, supply
 * and kinds). Whether the word (len bytes, any case) is the first of some
 * role's two words in any rule set of the registry, so that the notation
 * reads the next word with it. */
bool carc_role_word_before(const char *word, size_t len);
/* Whether two roles of a rule set share a supply of their own (the same
 * role, or the same carc_role.pool). */
bool carc_roles_share_supply(const struct carc_role *a, const struct carc_role *b);

/* The letter of each role of a rule set, drawn on its followers: the
 * first letter of its name not taken by an earlier role; a two-word role
 * whose second word is an earlier role ("big knight") takes that role's
 * letter (it is drawn larger: its weight). */
void carc_role_letters(const struct carc_ruleset *rs, char *letters);

#endif
