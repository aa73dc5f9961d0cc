/*
 * abbot.c - The Abbot (the gardens and the abbot of the base-game box), an
 * expansion of the base game: eight land tiles show a garden (the garden
 * copies of base.yaml and RJ of river.yaml, in play with it); each colour
 * has one abbot, which stands on a cloister or a garden of the tile just
 * placed. Rules: RULINGS.md, "The River and The Abbot"; notation:
 * notation/cgn.md.
 */
#include "rules/module.h"

static const struct carc_rules_words words = {
	.tile = NULL, /* the base rule set's */
};

const struct carc_ruleset carc_rules_abbot = {
	.id = CARC_RULES_ABBOT, .name = "abbot", .title = "The Abbot",
	.expansion = true,
	.joins = "base",
	.nroles = 1,
	.roles = {
		{"abbot", {"cloister", "garden"}, true, false},
	},
	.words = &words,
};
