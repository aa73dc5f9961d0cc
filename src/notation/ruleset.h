/*
 * ruleset.h - the rule sets a reader may read, as data: a view of a
 * registry, and the lookups in it.
 *
 * The notation reads a rule set's data (its name, roles, seats, default
 * tile set, what a record may write) but never calls the registry, which
 * sits above it (rules/rules.c, which reaches every module and through
 * them the engine). Whoever opens a reader hands it the rule sets it may
 * name as a struct carc_rulesets: for carc, carc_rules_registry() of
 * rules/rules.h. Nothing here is global: a view is read-only data, shared
 * freely between threads.
 */
#ifndef CARC_RULESET_H
#define CARC_RULESET_H

#include "rules/rules.h"

#include <stdbool.h>
#include <stddef.h>

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
/* Whether rs is one of v's own tables (not a composed rule set). */
static inline bool carc_rulesets_holds(const struct carc_rulesets *v, const struct carc_ruleset *rs)
{
	return (int)rs->id < v->count && v->sets[rs->id] == rs;
}
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
 * words ("big" of "big knight") in any rule set of v, so that the notation
 * reads the next word with it. */
bool carc_rulesets_role_word_before(const struct carc_rulesets *v, const char *word, size_t len);

/* Whether the expansion may join the base rule set (its joins list). */
bool carc_ruleset_joins(const struct carc_ruleset *expansion, const struct carc_ruleset *base);
/* Role index by name (case-insensitive), or -1. */
int carc_ruleset_role(const struct carc_ruleset *rs, const char *name, size_t len);
/* The letter of each role of a rule set, drawn on its followers: the
 * first letter of its name not taken by an earlier role. */
void carc_role_letters(const struct carc_ruleset *rs, char *letters);

#endif
