/*
 * rules.h - rule sets: base, solo, hunters.
 *
 * A rule set names its roles (the jobs a follower can take, each tied to a
 * kind of feature of the tile set), its default tile set and supplies, and the
 * scoring values of each feature class. The parser takes role names from
 * here, the referee takes everything else; nothing outside this module knows
 * which roles exist.
 */
#ifndef CARC_RULES_H
#define CARC_RULES_H

#include <stdbool.h>
#include <stddef.h>

enum carc_ruleset_id { CARC_RULES_BASE, CARC_RULES_SOLO, CARC_RULES_HUNTERS, CARC_RULES_COUNT };

#define CARC_MAX_ROLES 6

struct carc_role {
	const char *name;     /* knight */
	const char *kinds[2]; /* feature kinds it may stand on: "city" */
	bool returns;         /* comes back when its feature is scored */
	bool hut;             /* taken from the hut supply (Hunters and Gatherers) */
};

struct carc_ruleset {
	enum carc_ruleset_id id;
	const char *name;        /* as in the Rules tag */
	const char *title;
	const char *tileset;     /* default tile set */
	int followers;           /* default followers per colour */
	int min_followers, max_followers;
	int huts;                /* default huts per colour (0: none) */
	int min_seats, max_seats;
	int default_seats;       /* colours when Seats is missing and cannot be inferred */
	int nroles;
	struct carc_role roles[CARC_MAX_ROLES];
};

const struct carc_ruleset *carc_ruleset_get(enum carc_ruleset_id id);
/* By name, case-insensitively; NULL if none. */
const struct carc_ruleset *carc_ruleset_find(const char *name, size_t len);
/* Role index by name (case-insensitive), or -1. */
int carc_ruleset_role(const struct carc_ruleset *rs, const char *name, size_t len);

#endif
