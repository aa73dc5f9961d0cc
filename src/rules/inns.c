/*
 * inns.c - Inns & Cathedrals, an expansion of the base game (with The River
 * and The Abbot too). Rules: RULINGS.md, "Inns & Cathedrals and Traders &
 * Builders"; notation: notation/cgn.md, section 8; tiles: tilesets/inns.yaml
 * (IA..IQ, the cathedral IK twice, IBg and IHg with The Abbot), which join
 * the base set's land tiles.
 *
 * What the engine already does, from data: the inn and the cathedral are
 * attributes the tile set declares (inn on a road, cathedral on a city),
 * summed over a feature's tiles; the large follower is one figure a colour
 * written as any of four roles (big knight, big thief, big monk, big
 * farmer: the pool "large follower", a supply of its own of 1), which counts 2 in a
 * majority (weight_more 1) and scores as a follower; the field of IH that
 * touches no edge is an area at spot I.
 *
 * What this module adds:
 *   - values (engine hook feature_value, adjusting the base game's): a road
 *     with one inn or more scores 2 a tile when completed, 0 when open at
 *     the end; a city with a cathedral (one or two) 3 a tile and 3 a pennant
 *     when completed, 0 when open at the end (a cathedral city has at least
 *     5 tiles: the small-city rule never meets it); the event's items are
 *     the inns of a road, the pennants of a city;
 *   - events (engine hook score_event): such a feature's events are of the
 *     kinds inn, inn-open, cathedral, cathedral-open (inns.h), so that the
 *     reports name them;
 *   - the deployment rules (play hook check_deploy): the large follower not
 *     on a garden (E280, The Abbot's garden: only the abbot goes there), and
 *     not deployed while the colour's one stands on the map (E281); a record
 *     that writes it while the expansion is off gets E282 (off_code);
 *   - the generator: the large follower is deployed as any role is (its
 *     kinds, its supply and check_deploy keep it legal).
 * No turn is touched otherwise (usual_untouched): the base game's fast path
 * plays every turn that deploys no large follower.
 */
#include "rules/inns.h"
#include "rules/module.h"

#include <string.h>

/* ---- values ---- */

/* The attributes inn and cathedral of a tile set (-1: it has none), looked
 * up by name once per tile set, not on every feature scored: each thread
 * keeps the last ones (carc check -j runs games on several threads). */
struct inns_attrs {
	unsigned long serial; /* the tile set's serial they were looked up for */
	const struct carc_tileset *ts;
	int inn, cathedral;
};

static const struct inns_attrs *inns_attrs(const struct carc_tileset *ts)
{
	static _Thread_local struct inns_attrs at;
	if (at.ts == ts && at.serial == ts->serial)
		return &at;
	at.ts = ts;
	at.serial = ts->serial;
	at.inn = carc_tileset_attr(ts, "inn", strlen("inn"));
	at.cathedral = carc_tileset_attr(ts, "cathedral", strlen("cathedral"));
	return &at;
}

/* The feature's inns (a path) or cathedrals (an enclosure), by its class;
 * 0 for other classes or a tile set without the attribute. */
static int feature_items(struct carc_game *g, uint32_t root, int *klass)
{
	const struct carc_tileset *ts = carc_game_tileset(g);
	*klass = ts->kinds[carc_game_feature_kind(g, root)].klass;
	if (*klass != CARC_CLASS_PATH && *klass != CARC_CLASS_ENCLOSURE)
		return 0;
	const struct inns_attrs *at = inns_attrs(ts);
	int attr = *klass == CARC_CLASS_PATH ? at->inn : at->cathedral;
	return attr < 0 ? 0 : carc_game_feature_attr(g, root, attr);
}

/* The feature_value hook: an inn's road, a cathedral's city. */
static int feature_value(struct carc_game *g, uint32_t root, int tiles, bool complete, int value, uint16_t *items)
{
	int klass, n = feature_items(g, root, &klass);
	if (!n)
		return value;
	if (klass == CARC_CLASS_PATH) {
		*items = (uint16_t)n; /* the inns, named in the event */
		return complete ? 2 * tiles : 0;
	}
	/* a cathedral: *items already holds the pennants */
	return complete ? 3 * tiles + 3 * *items : 0;
}

/* The score_event hook: the kind of an inn's or a cathedral's event. */
static void score_event(struct carc_game *g, struct carc_event *ev)
{
	if (ev->type != CARC_EV_COMPLETED && ev->type != CARC_EV_INCOMPLETE)
		return;
	int klass, n = feature_items(g, ev->feature, &klass);
	if (!n)
		return;
	bool complete = ev->type == CARC_EV_COMPLETED;
	if (klass == CARC_CLASS_PATH)
		ev->type = (uint8_t)(complete ? CARC_EV_INN : CARC_EV_INN_OPEN);
	else
		ev->type = (uint8_t)(complete ? CARC_EV_CATHEDRAL : CARC_EV_CATHEDRAL_OPEN);
}

/* ---- the large follower ---- */

/* Whether role is one of the large follower's (its pool). */
static bool is_large(const struct carc_role *role)
{
	return role->pool && !strcmp(role->pool, "large follower");
}

/* The colour's large follower on the map, or NULL. */
static const struct carc_follower *large_on_map(const struct carc_game *g, int colour)
{
	size_t n;
	const struct carc_follower *f = carc_game_followers(g, &n);
	const struct carc_ruleset *rs = carc_game_rules(g);
	for (size_t i = 0; i < n; i++)
		if (f[i].active && f[i].colour == colour && is_large(&rs->roles[f[i].role]))
			return &f[i];
	return NULL;
}

/* The check_deploy hook. */
static enum carc_code check_deploy(struct carc_game *g, uint32_t root, const struct carc_role *role, int colour,
				   struct carc_buf *why)
{
	if (!is_large(role))
		return 0;
	const char *kind = carc_game_tileset(g)->kinds[carc_game_feature_kind(g, root)].name;
	if (!strcmp(kind, "garden")) {
		carc_buf_printf(why, "a %s on ", role->name);
		carc_game_feature_name(g, root, why);
		carc_buf_adds(why, ", but the large follower never stands on a garden (only the abbot does)");
		return CARC_E280;
	}
	const struct carc_follower *f = large_on_map(g, colour);
	if (!f)
		return 0;
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	const struct carc_ruleset *rs = carc_game_rules(g);
	carc_buf_printf(why, "a second large follower, but %s's one large follower stands as %s on ", carc_colour_name(colour),
			rs->roles[f->role].name);
	carc_game_feature_name(g, carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0)), why);
	carc_buf_printf(why, ", deployed on turn %d at %d,%d", f->turn, pl[f->placement].x, pl[f->placement].y);
	return CARC_E281;
}

static const struct carc_engine_hooks engine_hooks = {
	.feature_value = feature_value,
	.score_event = score_event,
};

static const struct carc_play_hooks play_hooks = {
	/* no turn is this module's alone (a large follower's deployment goes
	 * through check_deploy all the same: the engine's one call deploys no
	 * figure of its own supply) */
	.usual_untouched = true,
	.check_deploy = check_deploy,
};

static const struct carc_rules_words words = {
	.event_names = {
		[CARC_EV_INN] = "inn", [CARC_EV_INN_OPEN] = "inn-open",
		[CARC_EV_CATHEDRAL] = "cathedral", [CARC_EV_CATHEDRAL_OPEN] = "cathedral-open",
	},
	.event_prefix = {
		[CARC_EV_INN_OPEN] = "an inn left open: ",
		[CARC_EV_CATHEDRAL] = "a cathedral in ",
		[CARC_EV_CATHEDRAL_OPEN] = "a cathedral left open: ",
	},
	.item_by_event = {
		[CARC_EV_INN] = {"inn", "inns"}, [CARC_EV_INN_OPEN] = {"inn", "inns"},
		[CARC_EV_CATHEDRAL] = {"pennant", "pennants"}, [CARC_EV_CATHEDRAL_OPEN] = {"pennant", "pennants"},
	},
	.tile = NULL, /* the base rule set's */
};

const struct carc_ruleset carc_rules_inns = {
	.id = CARC_RULES_INNS, .name = "inns-cathedrals", .title = "Inns & Cathedrals",
	.expansion = true,
	.off_code = CARC_E282,
	.joins = "base",
	.tileset = "inns",
	.nroles = 4,
	.roles = {
		/* one large follower a colour (the pool "large follower"), apart from the
		 * followers; counts 2 in a majority */
		{"big knight", {"city"}, true, false, 1, false, 1, "large follower"},
		{"big thief", {"road"}, true, false, 1, false, 1, "large follower"},
		{"big monk", {"cloister"}, true, false, 1, false, 1, "large follower"},
		{"big farmer", {"field"}, false, false, 1, false, 1, "large follower"},
	},
	.engine = &engine_hooks,
	.play = &play_hooks,
	.words = &words,
};
