/*
 * base.c - the base game: the rules the engine plays when a module changes
 * nothing. Its table is data alone: four roles, seven followers, two to
 * seven seats (one for practice), the words of its reports. No hooks: the
 * engine's own scoring (game.c) is the base game's.
 */
#include "rules/module.h"

static const struct carc_rules_item pennants[] = {{"pennants", "pennant", CARC_ATTR_PENNANT}, {NULL, NULL, 0}};

static const struct carc_rules_words base_words = {
	.source_keys = {
		[CARC_SRC_PLAY_PATH] = "roads", [CARC_SRC_PLAY_ENCLOSURE] = "cities", [CARC_SRC_PLAY_SITE] = "cloisters",
		[CARC_SRC_END_PATH] = "roads", [CARC_SRC_END_ENCLOSURE] = "cities", [CARC_SRC_END_SITE] = "cloisters",
		[CARC_SRC_AREA] = "farms", [CARC_SRC_OTHER] = "other", [CARC_SRC_START] = "start",
	},
	.source_names = {
		[CARC_SRC_PLAY_PATH] = "completed roads", [CARC_SRC_PLAY_ENCLOSURE] = "completed cities",
		[CARC_SRC_PLAY_SITE] = "completed cloisters", [CARC_SRC_END_PATH] = "roads at the end",
		[CARC_SRC_END_ENCLOSURE] = "cities at the end", [CARC_SRC_END_SITE] = "cloisters at the end",
		[CARC_SRC_AREA] = "farms", [CARC_SRC_OTHER] = "other", [CARC_SRC_START] = "starting score",
	},
	.shown_sources = (1u << (CARC_SRC_AREA + 1)) - 1, /* every row up to the farms */
	.event_names = {[CARC_EV_COMPLETED] = "completed", [CARC_EV_INCOMPLETE] = "incomplete", [CARC_EV_FARM] = "farm"},
	.item_by_class = {
		[CARC_CLASS_PATH] = {"pennant", "pennants"}, [CARC_CLASS_ENCLOSURE] = {"pennant", "pennants"},
		[CARC_CLASS_SITE] = {"pennant", "pennants"}, [CARC_CLASS_AREA] = {"pennant", "pennants"},
		[CARC_CLASS_LAKE] = {"pennant", "pennants"},
	},
	.tile = "tile",
	.feature_items = {
		[CARC_CLASS_PATH] = pennants, [CARC_CLASS_ENCLOSURE] = pennants, [CARC_CLASS_SITE] = pennants,
		[CARC_CLASS_AREA] = pennants, [CARC_CLASS_LAKE] = pennants,
	},
};

const struct carc_ruleset carc_rules_base = {
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
	.words = &base_words,
};
