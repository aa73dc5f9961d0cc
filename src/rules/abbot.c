/*
 * abbot.c - The Abbot (the gardens and the abbot of the base-game box, since
 * 2014), an expansion of the base game. Rules: RULINGS.md, "The River and
 * The Abbot"; notation: notation/cgn.md, section 8.
 *
 * What the engine already does: gardens are a kind of class site in the
 * tile set (garden tiles Eg Hg Ig Mg Ng Rg Ug Vg, and RJ of the river), so
 * they complete and score as cloisters do: 9 when surrounded, 1 and each
 * neighbour present at the end. The abbot is a role with a supply of its
 * own, one a colour (carc_role.own), which stands on a cloister or a
 * garden and comes back when its feature is scored; it may be taken back
 * instead of deploying ("return abbot", carc_role.recall).
 *
 * What this module adds:
 *   - the deployment rules (play hook check_deploy, asked before the
 *     referee's own checks): the abbot only on a cloister or a garden
 *     (E270), no other figure on a garden (E271), a colour's one abbot not
 *     deployed again while it is on the map (E272);
 *   - "return abbot" (play hook recall): after the tile is placed and before
 *     the turn's scoring, the colour's abbot comes back and its feature
 *     scores at once as at the end, the tile just placed counted
 *     (carc_game_score_now: an event of kind CARC_EV_ABBOT_RETURN, its
 *     points from CARC_SRC_OTHER); refused when no abbot of the colour is
 *     on the map (E273) or when the turn completes its feature (E274),
 *     which then scores 9 in the turn's scoring and returns the abbot as
 *     any follower (RULINGS: a completed feature cannot be "returned");
 *   - a record that writes the abbot while the expansion is off gets E275
 *     from the reader (off_code);
 *   - the generator: the abbot is deployed as any role is (its kinds and its
 *     supply keep it legal), and taken back now and then (gen_recall);
 *   - the words of the reports: the event kind abbot-return, and the
 *     breakdown's rows.
 */
#include "rules/abbot.h"
#include "rules/module.h"

#include <stdlib.h>
#include <string.h>

/* ---- the abbot on the map ---- */

/* Whether role is the abbot (the game's rule set is composed: its roles
 * are the base game's followed by the expansions', so the abbot is known
 * by its name). */
static bool is_abbot(const struct carc_role *role)
{
	return role->name[0] == 'a' && !strcmp(role->name, "abbot"); /* (asked on every deployment checked) */
}

/* The colour's abbot on the map, or NULL. */
static const struct carc_follower *abbot_on_map(const struct carc_game *g, int colour)
{
	size_t n;
	const struct carc_follower *f = carc_game_followers(g, &n);
	const struct carc_ruleset *rs = carc_game_rules(g);
	for (size_t i = 0; i < n; i++)
		if (f[i].active && f[i].colour == colour && is_abbot(&rs->roles[f[i].role]))
			return &f[i];
	return NULL;
}

/* The root of the feature a figure stands on. */
static uint32_t follower_root(struct carc_game *g, const struct carc_follower *f)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	return carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
}

static const char *kind_name(const struct carc_game *g, uint32_t root)
{
	return carc_game_tileset(g)->kinds[carc_game_feature_kind(g, root)].name;
}

/* ---- the referee ---- */

/* The check_deploy hook. */
static enum carc_code check_deploy(struct carc_game *g, uint32_t root, const struct carc_role *role, int colour,
				   struct carc_buf *why)
{
	const char *kind = kind_name(g, root);
	bool garden = kind[0] == 'g' && !strcmp(kind, "garden");
	if (!is_abbot(role)) {
		/* a figure of a supply of its own (Inns & Cathedrals' large
		 * follower) is its module's to refuse there, with its own code */
		if (!garden || role->own)
			return 0;
		carc_buf_printf(why, "a %s on ", role->name);
		carc_game_feature_name(g, root, why);
		carc_buf_adds(why, ", but only the abbot stands on a garden");
		return CARC_E271;
	}
	if (!garden && strcmp(kind, "cloister")) {
		carc_buf_adds(why, "an abbot on ");
		carc_game_feature_name(g, root, why);
		carc_buf_adds(why, ", but the abbot stands only on a cloister or a garden");
		return CARC_E270;
	}
	const struct carc_follower *f = abbot_on_map(g, colour);
	if (!f)
		return 0;
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	carc_buf_printf(why, "a second abbot, but %s's one abbot stands on ", carc_colour_name(colour));
	carc_game_feature_name(g, follower_root(g, f), why);
	carc_buf_printf(why, ", deployed on turn %d at %d,%d (return abbot takes it back)", f->turn,
			pl[f->placement].x, pl[f->placement].y);
	return CARC_E272;
}

/* "return abbot": the abbot back, its feature scored as at the end (0),
 * or the code of why not with the reason in why. */
static enum carc_code take_back(struct carc_game *g, int colour, int turn, struct carc_buf *why)
{
	const struct carc_follower *f = abbot_on_map(g, colour);
	if (!f) {
		carc_buf_printf(why, "return abbot, but %s has no abbot on the map", carc_colour_name(colour));
		return CARC_E273;
	}
	uint32_t root = follower_root(g, f);
	if (carc_game_feature_complete(g, root)) {
		carc_buf_adds(why, "return abbot from ");
		carc_game_feature_name(g, root, why);
		carc_buf_adds(why, ", which this turn completes: it scores 9 in the turn's scoring, and the abbot "
				   "comes back then");
		return CARC_E274;
	}
	carc_game_score_now(g, root, turn, CARC_EV_ABBOT_RETURN, CARC_SRC_OTHER);
	return 0;
}

/* The recall hook. */
static void recall(void *st, const struct carc_move *m, int placement, int turn)
{
	struct carc_rules_plain *a = st;
	if (placement < 0 || !is_abbot(&carc_game_rules(a->g)->roles[m->recall]))
		return;
	struct carc_buf why = {0};
	enum carc_code code = take_back(a->g, m->colour, turn, &why);
	if (code)
		a->fault(a->ctx, code, m->deploy_span, carc_buf_cstr(&why));
	carc_buf_free(&why);
}

/* ---- the generator ---- */

/* The gen_recall hook: one turn in four without a deployment takes the
 * colour's abbot back, when it may be. */
static bool gen_recall(struct carc_game *g, int colour, int turn, uint64_t roll, struct carc_buf *line)
{
	if (roll % 4)
		return false;
	const struct carc_follower *f = abbot_on_map(g, colour);
	if (!f || carc_game_feature_complete(g, follower_root(g, f)))
		return false;
	struct carc_buf why = {0};
	enum carc_code code = take_back(g, colour, turn, &why);
	carc_buf_free(&why);
	if (code)
		return false;
	carc_buf_adds(line, " return abbot");
	return true;
}

/* The untouched hook: a turn that takes no figure back is the base game's
 * (the abbot, a figure of its own supply, and any figure on a garden, on
 * which no base role may stand, never pass the engine's one call: their
 * deployment goes through check_deploy all the same). */
static bool untouched(void *st, const struct carc_move *m)
{
	(void)st;
	return m->recall < 0;
}

static const struct carc_play_hooks play_hooks = {
	.untouched = untouched,
	.begin = carc_rules_begin_plain,
	.free = free,
	.clone = carc_rules_clone_plain,
	.check_deploy = check_deploy,
	.recall = recall,
	.gen_recall = gen_recall,
};

static const struct carc_rules_words words = {
	.source_names = {
		[CARC_SRC_PLAY_SITE] = "completed cloisters and gardens",
		[CARC_SRC_END_SITE] = "cloisters and gardens at the end",
		[CARC_SRC_OTHER] = "abbots taken back",
	},
	.event_names = {[CARC_EV_ABBOT_RETURN] = "abbot-return"},
	.event_prefix = {[CARC_EV_ABBOT_RETURN] = "the abbot taken back from "},
	.tile = NULL, /* the base rule set's */
};

const struct carc_ruleset carc_rules_abbot = {
	.id = CARC_RULES_ABBOT, .name = "abbot", .title = "The Abbot",
	.expansion = true,
	.off_code = CARC_E275,
	.joins = "base",
	.nroles = 1,
	.roles = {
		/* one a colour, apart from the followers; may be taken back */
		{"abbot", {"cloister", "garden"}, true, false, 1, true},
	},
	.play = &play_hooks,
	.words = &words,
};
