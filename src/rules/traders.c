/*
 * traders.c - Traders & Builders (the second big expansion), an expansion
 * of the base game. Facts: RULINGS.md, "Inns & Cathedrals and Traders &
 * Builders"; notation: notation/traders.md.
 *
 * What the data already does: its 24 tiles (bundled tile set
 * "traders-builders", shuffled into the land tiles) carry their goods as
 * attributes of their cities (wine, grain, cloth); the builder and the pig
 * are roles with a supply of their own, one a colour, that weigh 0 in a
 * majority (carc_role.weight_more -1), so they never decide who owns a
 * feature; the builder returns when its road or city is scored, the pig
 * stays to the end as a farmer does.
 *
 * What this module adds, as hooks:
 *   - deployment (check_deploy): the builder only on a road or city (E291)
 *     where its colour has a follower (E290), the pig only on a field (E293)
 *     where its colour has a farmer (E294), one of each a colour on the map
 *     (E292, E295);
 *   - the builder's double turn: a turn whose tile extends the road or city
 *     of its colour's builder, deployed on an earlier turn, may be followed
 *     by a bonus turn N+ of the same colour, its tile the next land tile
 *     (is_bonus, turn_begin, turn_end); a bonus turn that is not owed is
 *     E296, one after a bonus turn E297 (no chain); the last tile of the
 *     supply earns none (RULINGS 8);
 *   - goods: the colour that places the tile completing a city takes its
 *     tokens (derived from the scoring events: carc_traders_tokens); at the
 *     end, each good's majority holders score 10 each (score_final, after
 *     the base game's final scoring: events CARC_EV_WINE.., source
 *     CARC_SRC_GOODS);
 *   - the pig (engine hook score_event): a farm's scoring event pays each
 *     winner whose pig stands in it one more point a city it supplies (3rd
 *     and 2nd edition: every completed city the farm borders; 1st edition,
 *     city by city: a city bordered by a farm holding the pig), as a
 *     per-winner bonus (carc_event.bonus, bonus_to), shown in the breakdown
 *     under pigs (CARC_SRC_PIGS);
 *   - the generator: builders and pigs go where check_deploy allows, the
 *     double turn is always played (gen_bonus_due).
 * The builder and pig are known by their role names; goods by attribute
 * names. Nothing here knows a tile id.
 */
#include "rules/traders.h"
#include "rules/module.h"

#include "common/util.h"

#include <stdlib.h>
#include <string.h>

const char *const carc_goods_names[CARC_GOODS_KINDS] = {"wine", "grain", "cloth"};

/* ---- the figures ---- */

static bool is_builder(const struct carc_role *role)
{
	return role->name[0] == 'b' && !strcmp(role->name, "builder");
}

static bool is_pig(const struct carc_role *role)
{
	return role->name[0] == 'p' && !strcmp(role->name, "pig");
}

/* The root of the feature a figure stands on. */
static uint32_t follower_root(struct carc_game *g, const struct carc_follower *f)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	return carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
}

/* The colour's figure on the map that is_role says, or NULL. */
static const struct carc_follower *figure_on_map(const struct carc_game *g, int colour,
						 bool (*is_role)(const struct carc_role *))
{
	size_t n;
	const struct carc_follower *f = carc_game_followers(g, &n);
	const struct carc_ruleset *rs = carc_game_rules(g);
	for (size_t i = 0; i < n; i++)
		if (f[i].active && f[i].colour == colour && is_role(&rs->roles[f[i].role]))
			return &f[i];
	return NULL;
}

static const char *kind_name(const struct carc_game *g, uint32_t root)
{
	return carc_game_tileset(g)->kinds[carc_game_feature_kind(g, root)].name;
}

/* Where the colour's figure (the one on the map) stands, for messages. */
static void say_where(struct carc_game *g, const struct carc_follower *f, struct carc_buf *why)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	carc_game_feature_name(g, follower_root(g, f), why);
	carc_buf_printf(why, ", deployed on turn %d at %d,%d", f->turn, pl[f->placement].x, pl[f->placement].y);
}

/* The check_deploy hook: the builder and the pig. */
static enum carc_code check_deploy(struct carc_game *g, uint32_t root, const struct carc_role *role, int colour,
				   struct carc_buf *why)
{
	bool builder = is_builder(role);
	if (!builder && !is_pig(role))
		return 0;
	const char *kind = kind_name(g, root);
	const char *name = carc_colour_name(colour);
	if (builder ? strcmp(kind, "road") && strcmp(kind, "city") : strcmp(kind, "field") != 0) {
		carc_buf_printf(why, "a %s on ", role->name);
		carc_game_feature_name(g, root, why);
		carc_buf_adds(why, builder ? ", but the builder stands only on a road or a city"
					   : ", but the pig stands only on a field");
		return builder ? CARC_E291 : CARC_E293;
	}
	const struct carc_follower *on = figure_on_map(g, colour, builder ? is_builder : is_pig);
	if (on) {
		carc_buf_printf(why, "a second %s, but %s's one %s stands on ", role->name, name, role->name);
		say_where(g, on, why);
		return builder ? CARC_E292 : CARC_E295;
	}
	if (carc_game_feature_followers(g, root)[colour] == 0) {
		carc_buf_printf(why, "a %s on ", role->name);
		carc_game_feature_name(g, root, why);
		carc_buf_printf(why, ", where %s has no %s: the %s joins its owner's %s", name,
				builder ? "follower" : "farmer", role->name, builder ? "knight or thief" : "farmer");
		return builder ? CARC_E290 : CARC_E294;
	}
	return 0;
}

/* ---- the builder's double turn ---- */

/* The builder of the colour that placed the last tile, on the map before
 * that tile was placed (deployed on an earlier turn), whose road or city
 * the tile extends: the follower, or NULL. A builder whose feature the tile
 * completed has come back already, but it stood there when the tile was
 * placed: it counts (RULINGS; the second tile still comes). A feature
 * completed before cannot grow, so a builder back from one never counts. */
static const struct carc_follower *builder_extended(struct carc_game *g)
{
	size_t np, nf;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_follower *f = carc_game_followers(g, &nf);
	if (!np)
		return NULL;
	int last = (int)np - 1, colour = pl[last].colour, turn = pl[last].turn;
	const struct carc_ruleset *rs = carc_game_rules(g);
	int nfeat = carc_game_tileset(g)->tiles[pl[last].tile].nfeatures;
	for (size_t i = nf; i-- > 0;) {
		if (f[i].colour != colour || f[i].turn >= turn || !is_builder(&rs->roles[f[i].role]))
			continue;
		uint32_t root = follower_root(g, &f[i]);
		for (int k = 0; k < nfeat; k++)
			if (carc_game_feature_root(g, last, k) == root)
				return &f[i];
	}
	return NULL;
}

/* A refereed game's state. */
struct traders_game {
	struct carc_game *g;
	carc_rules_fault_fn fault;
	void *ctx;
	int due;          /* the colour owed a bonus turn, or CARC_NO_COLOUR */
	int due_turn;     /* the turn that earned it */
	uint32_t due_feature;
	int bonus_played; /* the number of the last bonus turn played, or -1 */
	int lost_turn;    /* a turn whose double turn was lost: the supply was used up, or -1 */
	/* the game's builders, deployed or back (indices into its followers,
	 * in the order deployed), as of its first scanned followers: the
	 * followers only grow during a game, so each is looked at once
	 * (builders), not on every turn */
	size_t scanned;
	uint32_t *builders;
	size_t nbuilders, builders_cap;
	int builder_role;        /* the builder's index in the game's roles, or -1 */
	uint8_t builder_colours; /* bit c: a line of colour c deployed a builder (or tried) */
};

static void *begin(void **cache, const struct carc_record *rec, struct carc_game *g, carc_rules_fault_fn fault,
		   void *ctx)
{
	(void)rec;
	struct traders_game *t = *cache ? *cache : (*cache = xcalloc(1, sizeof *t));
	uint32_t *builders = t->builders;
	size_t cap = t->builders_cap;
	*t = (struct traders_game){g, fault, ctx, CARC_NO_COLOUR, -1, 0, -1, -1, 0, builders, 0, cap, -1, 0};
	const struct carc_ruleset *rs = carc_game_rules(g);
	for (int i = 0; i < rs->nroles && t->builder_role < 0; i++)
		if (is_builder(&rs->roles[i]))
			t->builder_role = i;
	return t;
}

/* The clone hook: the state, its list of builders copied. */
static void *clone(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g, void *ctx)
{
	(void)rec;
	const struct traders_game *from = st;
	struct traders_game *t = *cache ? *cache : (*cache = xcalloc(1, sizeof *t));
	uint32_t *list = t->builders;
	size_t cap = t->builders_cap;
	*t = *from;
	t->g = g;
	t->ctx = ctx;
	if (cap < from->nbuilders) {
		cap = from->nbuilders;
		list = xrealloc(list, cap * sizeof *list);
	}
	if (from->nbuilders)
		memcpy(list, from->builders, from->nbuilders * sizeof *list);
	t->builders = list;
	t->builders_cap = cap;
	return t;
}

static void free_game(void *cache)
{
	struct traders_game *t = cache;
	if (t)
		free(t->builders);
	free(t);
}

/* The game's builders, deployed or back, brought up to date with its
 * followers: the list, its length in *n. */
static const uint32_t *builders(struct traders_game *t, size_t *n)
{
	size_t nf;
	const struct carc_follower *f = carc_game_followers(t->g, &nf);
	if (t->scanned < nf) {
		const struct carc_ruleset *rs = carc_game_rules(t->g);
		for (size_t i = t->scanned; i < nf; i++) {
			if (!is_builder(&rs->roles[f[i].role]))
				continue;
			if (t->nbuilders == t->builders_cap) {
				t->builders_cap = t->builders_cap ? 2 * t->builders_cap : 8;
				t->builders = xrealloc(t->builders, t->builders_cap * sizeof *t->builders);
			}
			t->builders[t->nbuilders++] = (uint32_t)i;
		}
		t->scanned = nf;
	}
	*n = t->nbuilders;
	return t->builders;
}

/* builder_extended, from the game's builders alone (the same builders in
 * the same order: the others are not looked at). */
static const struct carc_follower *builder_extended_by(struct traders_game *t)
{
	struct carc_game *g = t->g;
	size_t np, nf, nb;
	const uint32_t *b = builders(t, &nb);
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_follower *f = carc_game_followers(g, &nf);
	if (!np || !nb)
		return NULL;
	int last = (int)np - 1, colour = pl[last].colour, turn = pl[last].turn;
	int nfeat = -1; /* the roots of the tile's features, once a builder may have extended one */
	uint32_t roots[CARC_MAX_FEATURES];
	for (size_t j = nb; j-- > 0;) {
		const struct carc_follower *fb = &f[b[j]];
		if (fb->colour != colour || fb->turn >= turn)
			continue;
		if (nfeat < 0) {
			nfeat = carc_game_tileset(g)->tiles[pl[last].tile].nfeatures;
			for (int k = 0; k < nfeat; k++)
				roots[k] = carc_game_feature_root(g, last, k);
		}
		uint32_t root = follower_root(g, fb);
		for (int k = 0; k < nfeat; k++)
			if (roots[k] == root)
				return fb;
	}
	return NULL;
}


static bool is_bonus(void *st, const struct carc_move *m)
{
	(void)st;
	return m->bonus;
}

static void report(struct traders_game *t, enum carc_code code, struct carc_span at, const char *fmt, ...)
	CARC_PRINTF(4, 5);

static void report(struct traders_game *t, enum carc_code code, struct carc_span at, const char *fmt, ...)
{
	struct carc_buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	t->fault(t->ctx, code, at, carc_buf_cstr(&b));
	carc_buf_free(&b);
}

/* The turn_begin hook: a usual turn lets a double turn owed go (it is the
 * player's to take: RULINGS 3); a bonus turn must be owed, to its colour. */
static void turn_begin(void *st, const struct carc_move *m, bool bonus, int turn)
{
	struct traders_game *t = st;
	struct carc_span number = m->number.len ? m->number : m->colour_span;
	if (!bonus) {
		t->due = CARC_NO_COLOUR;
		return;
	}
	if (t->due == CARC_NO_COLOUR) {
		if (t->bonus_played == turn && turn > 0)
			report(t, CARC_E297, number, "a bonus turn after the bonus turn %d+: the builder's double turn "
			       "never earns another, whatever its tile extends", turn);
		else if (t->lost_turn == turn && turn > 0)
			report(t, CARC_E296, number, "no bonus turn is owed: turn %d extended the builder's feature with "
			       "the last tile of the supply, and the double turn is lost", turn);
		else if (turn <= 0)
			report(t, CARC_E296, number, "a bonus turn before the first turn: only a turn whose tile extends "
			       "the road or city of its colour's builder earns one");
		else
			report(t, CARC_E296, number, "no bonus turn is owed: the tile of turn %d extended no road or city "
			       "where its colour's builder stood before that turn", turn);
		return;
	}
	if (m->colour != t->due) {
		struct carc_buf name = {0};
		carc_game_feature_name(t->g, t->due_feature, &name);
		report(t, CARC_E206, m->colour_span, "the bonus turn after turn %d is %s's, whose tile extended %s, "
		       "where %s's builder stands; not %s's", t->due_turn, carc_colour_name(t->due), carc_buf_cstr(&name),
		       carc_colour_name(t->due), carc_colour_name(m->colour));
		carc_buf_free(&name);
	} else if (m->turn >= 0 && m->turn != t->due_turn) {
		report(t, CARC_E207, number, "numbered %d+, but the bonus turn follows turn %d: %d+", m->turn, t->due_turn,
		       t->due_turn);
	}
}

/* The turn_end hook: whether the turn earned a double turn. (Also the
 * short_turn_end hook: every usual turn, and whatever turn a builder is
 * deployed on, comes here.) */
static void turn_end(void *st, const struct carc_move *m, bool bonus, int turn, size_t first_event)
{
	(void)first_event;
	struct traders_game *t = st;
	if (m->role >= 0 && m->role == t->builder_role)
		t->builder_colours |= (uint8_t)(1u << m->colour);
	if (bonus) {
		if (m->discard && t->due != CARC_NO_COLOUR)
			return; /* the tile fit nowhere: the bonus turn draws another */
		t->due = CARC_NO_COLOUR;
		t->bonus_played = turn;
		return;
	}
	t->due = CARC_NO_COLOUR;
	if (!(t->builder_colours >> m->colour & 1))
		return; /* no builder of this colour has stood on the map */
	size_t np;
	const struct carc_placement *pl = carc_game_placements(t->g, &np);
	if (m->discard || !np || pl[np - 1].turn != turn || pl[np - 1].colour != m->colour)
		return; /* no tile placed this turn */
	const struct carc_follower *b = builder_extended_by(t);
	if (!b)
		return;
	if (carc_game_supply_left(t->g) == 0) {
		t->lost_turn = turn;
		return;
	}
	t->due = m->colour;
	t->due_turn = turn;
	t->due_feature = follower_root(t->g, b);
}

/* ---- the pig ---- */

/* Whether the farm (by root) borders the city (by root). */
static bool farm_borders(struct carc_game *g, uint32_t farm, uint32_t city)
{
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_tileset *ts = carc_game_tileset(g);
	int n = carc_game_feature_placements(g, farm, NULL, 0);
	int *at = xmalloc(((size_t)n + 1) * sizeof *at);
	n = carc_game_feature_placements(g, farm, at, n);
	bool found = false;
	for (int i = 0; i < n && !found; i++) {
		const struct carc_tile *tile = &ts->tiles[pl[at[i]].tile];
		for (int f = 0; f < tile->nfeatures && !found; f++) {
			if (!tile->features[f].borders || carc_game_feature_root(g, at[i], f) != farm)
				continue;
			for (int b = 0; b < tile->nfeatures && !found; b++)
				found = (tile->features[f].borders >> b & 1) && carc_game_feature_root(g, at[i], b) == city;
		}
	}
	free(at);
	return found;
}

/* The completed cities the farm (by root) borders. */
static int farm_cities(struct carc_game *g, uint32_t farm)
{
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_tileset *ts = carc_game_tileset(g);
	int n = carc_game_feature_placements(g, farm, NULL, 0);
	int *at = xmalloc(((size_t)n + 1) * sizeof *at);
	n = carc_game_feature_placements(g, farm, at, n);
	uint32_t *seen = xmalloc(((size_t)n * CARC_MAX_FEATURES + 1) * sizeof *seen);
	int nseen = 0;
	for (int i = 0; i < n; i++) {
		const struct carc_tile *tile = &ts->tiles[pl[at[i]].tile];
		for (int f = 0; f < tile->nfeatures; f++) {
			if (!tile->features[f].borders || carc_game_feature_root(g, at[i], f) != farm)
				continue;
			for (int b = 0; b < tile->nfeatures; b++) {
				if (!(tile->features[f].borders >> b & 1))
					continue;
				uint32_t city = carc_game_feature_root(g, at[i], b);
				bool dup = false;
				for (int k = 0; k < nseen && !dup; k++)
					dup = seen[k] == city;
				if (!dup && carc_game_feature_complete(g, city))
					seen[nseen++] = city;
			}
		}
	}
	free(at);
	free(seen);
	return nseen;
}

/* The engine's score_event hook: a farm's event pays each winner whose pig
 * stands in it one point more a city (RULINGS 5). In the 3rd and 2nd
 * editions the event is a farm's (its feature the farm): the pig's owner
 * scores every completed city the farm borders at 4 (2nd edition: a city
 * it scores once, through whichever farm, is scored through the pig's).
 * In the 1st edition the event is a city's (its feature the city): a winner
 * whose pig stands in a farm bordering it scores 5. */
static void score_event(struct carc_game *g, struct carc_event *ev)
{
	if (ev->type != CARC_EV_FARM || !ev->winners)
		return;
	size_t n;
	const struct carc_follower *f = carc_game_followers(g, &n);
	const struct carc_ruleset *rs = carc_game_rules(g);
	const struct carc_tileset *ts = carc_game_tileset(g);
	bool city_event = ts->kinds[ev->kind].klass != CARC_CLASS_AREA;
	for (size_t i = 0; i < n; i++) {
		if (!f[i].active || !(ev->winners >> f[i].colour & 1) || !is_pig(&rs->roles[f[i].role]))
			continue;
		uint32_t farm = follower_root(g, &f[i]);
		if (city_event) {
			if (farm_borders(g, farm, ev->feature)) {
				ev->bonus_to |= (uint8_t)(1u << f[i].colour);
				ev->bonus = 1;
			}
		} else if (farm == ev->feature) {
			ev->bonus_to |= (uint8_t)(1u << f[i].colour);
			ev->bonus = (int16_t)farm_cities(g, farm);
		}
	}
}

/* ---- goods ---- */

/* The attribute of each good in the game's tile set, or -1. */
static void goods_attrs(const struct carc_tileset *ts, int attr[CARC_GOODS_KINDS])
{
	for (int k = 0; k < CARC_GOODS_KINDS; k++)
		attr[k] = carc_tileset_attr(ts, carc_goods_names[k], strlen(carc_goods_names[k]));
}

void carc_traders_tokens(struct carc_game *g, size_t nevents, int tokens[CARC_GOODS_KINDS][CARC_COLOURS])
{
	memset(tokens, 0, sizeof(int) * CARC_GOODS_KINDS * CARC_COLOURS);
	const struct carc_tileset *ts = carc_game_tileset(g);
	int attr[CARC_GOODS_KINDS];
	goods_attrs(ts, attr);
	if (attr[0] < 0 && attr[1] < 0 && attr[2] < 0)
		return;
	size_t ne, np;
	const struct carc_event *ev = carc_game_events(g, &ne);
	const struct carc_placement *pl = carc_game_placements(g, &np);
	if (nevents > ne)
		nevents = ne;
	/* the colour that placed the tile of each turn, the last placement of
	 * the turn by a colour (a bonus turn's tile is the same colour's): one
	 * pass over the placements, not one for every city completed */
	int last_turn = 0;
	for (size_t p = 0; p < np; p++)
		last_turn = pl[p].turn > last_turn ? pl[p].turn : last_turn;
	uint8_t *placed_by = xmalloc((size_t)last_turn + 1);
	memset(placed_by, CARC_NO_COLOUR, (size_t)last_turn + 1);
	for (size_t p = 0; p < np; p++)
		if (pl[p].colour != CARC_NO_COLOUR)
			placed_by[pl[p].turn] = pl[p].colour;
	for (size_t i = 0; i < nevents; i++) {
		if (ev[i].type != CARC_EV_COMPLETED || ts->kinds[ev[i].kind].klass != CARC_CLASS_ENCLOSURE)
			continue;
		int colour = ev[i].turn <= last_turn ? placed_by[ev[i].turn] : CARC_NO_COLOUR;
		if (colour == CARC_NO_COLOUR)
			continue;
		for (int k = 0; k < CARC_GOODS_KINDS; k++)
			if (attr[k] >= 0)
				tokens[k][colour] += carc_game_feature_attr(g, ev[i].feature, attr[k]);
	}
	free(placed_by);
}

/* The first completed city that held the good, for naming its event. */
static uint32_t first_city_with(struct carc_game *g, int attr)
{
	size_t ne;
	const struct carc_event *ev = carc_game_events(g, &ne);
	const struct carc_tileset *ts = carc_game_tileset(g);
	for (size_t i = 0; i < ne; i++)
		if (ev[i].type == CARC_EV_COMPLETED && ts->kinds[ev[i].kind].klass == CARC_CLASS_ENCLOSURE &&
		    carc_game_feature_attr(g, ev[i].feature, attr) > 0)
			return ev[i].feature;
	return 0;
}

/* After the base game's final scoring: the pigs' points shown apart (from
 * the farms' events of the final scoring, from first on), then each
 * good's bonus, 10 to every colour holding the most tokens of it. */
static void score_goods(struct carc_game *g, size_t first)
{
	size_t ne;
	const struct carc_event *ev = carc_game_events(g, &ne);
	for (size_t i = first; i < ne; i++) {
		if (ev[i].type != CARC_EV_FARM || !ev[i].bonus)
			continue;
		for (int c = 0; c < CARC_COLOURS; c++)
			if ((ev[i].bonus_to & ev[i].winners) >> c & 1) {
				carc_game_add_points(g, c, -ev[i].bonus, ev[i].source);
				carc_game_add_points(g, c, ev[i].bonus, CARC_SRC_PIGS);
			}
	}
	int tokens[CARC_GOODS_KINDS][CARC_COLOURS];
	carc_traders_tokens(g, ne, tokens);
	int attr[CARC_GOODS_KINDS];
	goods_attrs(carc_game_tileset(g), attr);
	for (int k = 0; k < CARC_GOODS_KINDS; k++) {
		int most = 0;
		for (int c = 0; c < CARC_COLOURS; c++)
			most = tokens[k][c] > most ? tokens[k][c] : most;
		if (!most)
			continue; /* nobody holds it: nobody is paid */
		uint32_t city = first_city_with(g, attr[k]);
		struct carc_event *e = carc_game_add_event(g);
		e->type = (uint8_t)(CARC_EV_WINE + k);
		e->kind = (uint8_t)carc_game_feature_kind(g, city);
		e->source = CARC_SRC_GOODS;
		e->feature = city;
		e->tiles = (uint16_t)carc_game_feature_tiles(g, city);
		e->items = (uint16_t)most;
		e->points = 10;
		for (int c = 0; c < CARC_COLOURS; c++) {
			e->followers[c] = (uint8_t)(tokens[k][c] > 255 ? 255 : tokens[k][c]);
			if (tokens[k][c] == most)
				e->winners |= (uint8_t)(1u << c);
		}
		uint8_t winners = e->winners;
		for (int c = 0; c < CARC_COLOURS; c++)
			if (winners >> c & 1)
				carc_game_add_points(g, c, 10, CARC_SRC_GOODS);
	}
}

/* The score_final hook: the base game's final scoring, then the goods. */
static void score_final(void *st)
{
	struct traders_game *t = st;
	size_t first;
	carc_game_events(t->g, &first);
	carc_game_score_final(t->g);
	score_goods(t->g, first);
}

/* ---- the generator ---- */

/* (its state: a traders_game of which only g is used, so that the free
 * hook frees either) */
static void *gen_begin(void **cache, struct carc_game *g, const uint8_t *seats, int nseats, size_t nsupply)
{
	(void)seats, (void)nseats, (void)nsupply;
	struct traders_game *t = *cache ? *cache : (*cache = xcalloc(1, sizeof *t));
	t->g = g;
	return t;
}

/* The generator always takes the double turn (as JCloisterZone does). */
static bool gen_bonus_due(struct carc_game *g, size_t first_event)
{
	(void)first_event;
	return builder_extended(g) != NULL;
}

static void gen_score_final(void *st, struct carc_buf *end_order)
{
	(void)end_order;
	struct traders_game *t = st;
	size_t first;
	carc_game_events(t->g, &first);
	carc_game_score_final(t->g);
	score_goods(t->g, first);
}

/* The tallies hook: each colour's goods tokens (wine, grain, cloth). */
static int tallies(struct carc_game *g, size_t nevents, const char **names, int (*counts)[CARC_COLOURS], int max)
{
	int tokens[CARC_GOODS_KINDS][CARC_COLOURS];
	carc_traders_tokens(g, nevents, tokens);
	int n = 0;
	for (int k = 0; k < CARC_GOODS_KINDS && n < max; k++, n++) {
		names[n] = carc_goods_names[k];
		memcpy(counts[n], tokens[k], sizeof tokens[k]);
	}
	return n;
}

static const struct carc_engine_hooks engine_hooks = {
	.score_event = score_event,
};

static const struct carc_play_hooks play_hooks = {
	/* every usual turn is the base game's, as far as the turn itself goes
	 * (builders and pigs, of supplies of their own, always go through
	 * check_deploy; the pig's points are the engine's score_event hook,
	 * which applies on every path); whether it earns a bonus turn is
	 * short_turn_end's (turn_end) to see after it. A usual turn owes
	 * turn_begin nothing but dropping a bonus turn owed, which turn_end
	 * does first. Bonus turns (N+) are all this module's. */
	.usual_untouched = true,
	.begin = begin,
	.free = free_game,
	.clone = clone,
	.is_bonus = is_bonus,
	.turn_begin = turn_begin,
	.check_deploy = check_deploy,
	.turn_end = turn_end,
	.short_turn_end = turn_end,
	.score_final = score_final,
	.tallies = tallies,
	.gen_begin = gen_begin,
	.gen_bonus_due = gen_bonus_due,
	.gen_score_final = gen_score_final,
};

static const struct carc_rules_words words = {
	.source_keys = {[CARC_SRC_GOODS] = "goods", [CARC_SRC_PIGS] = "pigs"},
	.source_names = {[CARC_SRC_GOODS] = "goods (10 a good)", [CARC_SRC_PIGS] = "pigs"},
	.event_names = {[CARC_EV_WINE] = "wine", [CARC_EV_GRAIN] = "grain", [CARC_EV_CLOTH] = "cloth"},
	.event_prefix = {
		[CARC_EV_WINE] = "the most wine tokens, the first from ",
		[CARC_EV_GRAIN] = "the most grain tokens, the first from ",
		[CARC_EV_CLOTH] = "the most cloth tokens, the first from ",
	},
	.item_by_event = {
		[CARC_EV_WINE] = {"token", "tokens"}, [CARC_EV_GRAIN] = {"token", "tokens"},
		[CARC_EV_CLOTH] = {"token", "tokens"},
	},
	.tile = NULL, /* the base rule set's */
};

const struct carc_ruleset carc_rules_traders = {
	.id = CARC_RULES_TRADERS, .name = "traders-builders", .title = "Traders & Builders",
	.expansion = true,
	.off_code = CARC_E298,
	.flags = CARC_RS_BONUS_TURNS,
	.tileset = "traders-builders",
	.joins = "base",
	.nroles = 2,
	.roles = {
		/* one of each a colour, apart from the followers; never counted in
		 * a majority */
		{"builder", {"road", "city"}, true, false, 1, false, -1},
		{"pig", {"field"}, false, false, 1, false, -1},
	},
	.engine = &engine_hooks,
	.play = &play_hooks,
	.words = &words,
};
