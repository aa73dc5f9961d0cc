/*
 * rules.c - the table of rule sets.
 */
#include "rules/rules.h"

#include "common/util.h"

static const struct carc_ruleset rulesets[CARC_RULES_COUNT] = {
	[CARC_RULES_BASE] = {
		.id = CARC_RULES_BASE, .name = "base", .title = "Carcassonne (base game)",
		.tileset = "base", .followers = 7, .min_followers = 1, .max_followers = 99,
		.min_seats = 1, .max_seats = 7, .default_seats = 2,
		.nroles = 4,
		.roles = {
			{"knight", {"city"}, true, false},
			{"thief", {"road"}, true, false},
			{"monk", {"cloister"}, true, false},
			{"farmer", {"field"}, false, false},
		},
	},
	[CARC_RULES_SOLO] = {
		.id = CARC_RULES_SOLO, .name = "solo", .title = "Carcassonne solo variant",
		.tileset = "base", .followers = 4, .min_followers = 3, .max_followers = 99,
		.min_seats = 3, .max_seats = 4, .default_seats = 3,
		.nroles = 3,
		.roles = {
			{"knight", {"city"}, true, false},
			{"thief", {"road"}, true, false},
			{"monk", {"cloister"}, true, false},
		},
	},
	[CARC_RULES_HUNTERS] = {
		.id = CARC_RULES_HUNTERS, .name = "hunters", .title = "Hunters and Gatherers",
		.tileset = "hunters", .followers = 5, .min_followers = 1, .max_followers = 99, .huts = 2,
		.min_seats = 1, .max_seats = 7, .default_seats = 2,
		.nroles = 4,
		.roles = {
			{"gatherer", {"forest"}, true, false},
			{"fisher", {"river"}, true, false},
			{"hunter", {"meadow"}, false, false},
			{"hut", {"river", "lake"}, false, true},
		},
	},
};

const struct carc_ruleset *carc_ruleset_get(enum carc_ruleset_id id)
{
	return &rulesets[id];
}

const struct carc_ruleset *carc_ruleset_find(const char *name, size_t len)
{
	for (int i = 0; i < CARC_RULES_COUNT; i++)
		if (carc_slice_ieq(name, len, rulesets[i].name))
			return &rulesets[i];
	return NULL;
}

int carc_ruleset_role(const struct carc_ruleset *rs, const char *name, size_t len)
{
	for (int i = 0; i < rs->nroles; i++)
		if (carc_slice_ieq(name, len, rs->roles[i].name))
			return i;
	return -1;
}
