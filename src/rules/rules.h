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
 * The table itself, the data, is declared below the notation, in
 * notation/ruleset.h (with only the pointers to the hooks), so that the
 * notation and the engine read it without seeing this layer; this header
 * adds the registry, which reaches every module. A game holds a base rule set
 * (rec->rules) and any number of expansions (rec->expansions), each called
 * in that order; rules.c is the registry. Nothing outside src/rules/ tests
 * which rule set is on: it reads the data or calls the hooks.
 */
#ifndef CARC_RULES_H
#define CARC_RULES_H

#include "notation/ruleset.h"

/* The registry's order (rules.c); also each table's index there
 * (struct carc_ruleset's id). Code outside src/rules/ does not name them:
 * it iterates carc_ruleset_at(). */
enum carc_ruleset_id {
	CARC_RULES_BASE, CARC_RULES_SOLO, CARC_RULES_HUNTERS, /* base rule sets */
	CARC_RULES_RIVER, CARC_RULES_ABBOT,                  /* expansions */
	CARC_RULES_INNS,                                     /* Inns & Cathedrals */
	CARC_RULES_TRADERS,                                  /* (traders.c) */
	CARC_RULES_COUNT
};
_Static_assert(CARC_RULES_COUNT <= CARC_MAX_RULESETS, "room for the registry (notation/ruleset.h)");

/* The registry: every rule set, in id order. */
/* As a reader takes it (notation/ruleset.h): what carc_reader_new and
 * carc_parse_string are given, so that the notation reads the rule sets
 * without calling up into this layer. Static data: never freed. */
const struct carc_rulesets *carc_rules_registry(void);
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
/* carc_rulesets_read_expansions (notation/ruleset.h) in the registry. */
int carc_rules_read_expansions(const struct carc_ruleset *base, const char *words, size_t len,
			       const struct carc_ruleset **out, int *names, carc_expansion_fault_fn fault, void *ctx);
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
/* carc_rulesets_role_word_before (notation/ruleset.h) in the registry: a
 * role's name is one word ("knight") or two, a role word before a role
 * ("big knight"). */
bool carc_role_word_before(const char *word, size_t len);

#endif
