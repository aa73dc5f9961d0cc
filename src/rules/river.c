/*
 * river.c - The River (the 12 river tiles of the base-game box), an
 * expansion of the base game and of the solo variant: its tiles (bundled
 * tile set "river") open the game before the land tiles, the spring at
 * 0,0 as the start tile. The river takes no follower and never scores.
 * Rules: RULINGS.md, "The River and The Abbot"; notation: notation/cgn.md.
 */
#include "rules/module.h"

static const struct carc_rules_words words = {
	.tile = NULL, /* the base rule set's */
};

const struct carc_ruleset carc_rules_river = {
	.id = CARC_RULES_RIVER, .name = "river", .title = "The River",
	.expansion = true,
	.tileset = "river",
	.joins = "base solo",
	.words = &words,
};
