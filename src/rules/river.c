/*
 * river.c - The River (the 12 river tiles of the base-game box), an
 * expansion of the base game and of the solo variant: its tiles (bundled
 * tile set "river") open the game before the land tiles, the spring at
 * 0,0 as the start tile. The river takes no follower and never scores.
 *
 * The tiles are data (tilesets/river.yaml): a river is a path on its own
 * terrain, which fields meet on either side, so that the river splits
 * fields as a road does; the spring RA is the start tile and the lake RL is
 * marked last. What the rules add to that is here, as hooks:
 *   - the engine (check_place): a river tile must continue the river, its
 *     river edge joining the open end; no immediate U-turn, a bend placed
 *     onto a bend that turns the same way; the lake only after the other
 *     river tiles. carc_game_check_place asks it last, so a tile's legal
 *     places (the generator's choices, a discard's check) follow it.
 *   - the engine (closed_complete): the river never scores; it is never
 *     complete, so it never makes a scoring event, during play or after.
 *   - the referee (draw): a land tile drawn while river tiles remain.
 *   - the referee (check_deploy): no follower on the river, whatever its
 *     role.
 *   - the generator (gen_may_draw): the river tiles first, the lake last of
 *     them, then the land tiles.
 * A river tile is a tile with a feature of the kind named "river"; the lake
 * is the set's tile marked last. Nothing here knows a tile id.
 * Rules: RULINGS.md, "The River and The Abbot"; notation: notation/cgn.md.
 */
#include "rules/module.h"

#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a tile set holds of the river, derived once per tile set ---- */

struct river_tiles {
	unsigned long serial; /* the tile set's serial it was derived for */
	const struct carc_tileset *ts;
	int kind;             /* the kind "river", or -1 */
	int lake;             /* the tile marked last, or -1 */
	uint8_t edges[CARC_MAX_TILE_TYPES]; /* the tile's river edges (unturned), 0 for a land tile */
	int nriver;           /* the river tile types, listed in river[] */
	uint8_t river[CARC_MAX_TILE_TYPES];
};

/* The river of the game's tile set: each thread keeps the last one it
 * derived (carc check -j runs games on several threads). */
static const struct river_tiles *river_tiles(const struct carc_tileset *ts)
{
	static _Thread_local struct river_tiles rt;
	if (rt.ts == ts && rt.serial == ts->serial)
		return &rt;
	rt.ts = ts;
	rt.serial = ts->serial;
	rt.kind = carc_tileset_kind(ts, "river");
	rt.lake = ts->last_tile;
	rt.nriver = 0;
	for (int i = 0; i < ts->ntiles && i < CARC_MAX_TILE_TYPES; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		uint8_t e = 0;
		for (int f = 0; f < t->nfeatures && rt.kind >= 0; f++)
			if (t->features[f].kind == rt.kind)
				e |= t->features[f].edges;
		/* a river tile with no river edge cannot be: the loader checks coverage */
		rt.edges[i] = e;
		if (e)
			rt.river[rt.nriver++] = (uint8_t)i;
	}
	return &rt;
}

static bool is_river_tile(const struct river_tiles *rt, int tile)
{
	return tile >= 0 && tile < CARC_MAX_TILE_TYPES && rt->edges[tile];
}

/* River tiles left in the supply; the lake left out when but_lake. */
static int river_left(const struct carc_game *g, const struct river_tiles *rt, bool but_lake)
{
	/* the river types only: a few among a hundred and more (this is asked
	 * on every draw while the river lasts) */
	int n = 0;
	for (int k = 0; k < rt->nriver; k++)
		if (!(but_lake && rt->river[k] == rt->lake))
			n += carc_game_tiles_left(g, rt->river[k]);
	return n;
}

/* ---- the course of the river ---- */

static const int step_x[4] = {0, 1, 0, -1}, step_y[4] = {1, 0, -1, 0};
static const char *const heading[4] = {"north", "east", "south", "west"};
static const char *const edge_word[4] = {"north", "east", "south", "west"};

static int popcount4(unsigned m)
{
	return (int)(m & 1) + (int)(m >> 1 & 1) + (int)(m >> 2 & 1) + (int)(m >> 3 & 1);
}

/* The lowest edge of a mask. */
static int first_edge(unsigned m)
{
	for (int e = 0; e < 4; e++)
		if (m >> e & 1)
			return e;
	return -1;
}

/* How a bend turns the river that enters it by edge in and leaves by edge
 * out: 1 to the right, 3 to the left, 0 straight on (or no bend). */
static int turn_of(int in, int out)
{
	int going = (in + 2) & 3; /* entering by the west edge, it flows east */
	return (out - going) & 3;
}

/* The open end of the river: a river edge of a placed tile that faces an
 * empty cell; the latest placed when a faulty record has left several.
 * Returns the placement, or -1 (the lake has closed the river); *edge gets
 * the board edge. */
static int open_end(const struct carc_game *g, const struct river_tiles *rt, int *edge)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	for (size_t i = n; i-- > 0;) {
		const struct carc_placement *p = &pl[i];
		unsigned m = carc_rot_edges(rt->edges[p->tile], p->rot);
		for (int e = 0; e < 4; e++)
			if (m >> e & 1 && carc_game_at(g, p->x + step_x[e], p->y + step_y[e]) < 0) {
				*edge = e;
				return (int)i;
			}
	}
	return -1;
}

/* The engine's check_place hook (game.h). */
static int check_place(const struct carc_game *g, int tile, int rot, int x, int y, char *why, size_t size)
{
	const struct carc_tileset *ts = carc_game_tileset(g);
	const struct river_tiles *rt = river_tiles(ts);
	if (!is_river_tile(rt, tile))
		return 0; /* a land tile: drawn too early is the referee's draw check */
	const struct carc_tile *t = &ts->tiles[tile];
	unsigned mine = carc_rot_edges(rt->edges[tile], rot);
	unsigned joined = 0;
	for (int e = 0; e < 4; e++)
		if (mine >> e & 1 && carc_game_at(g, x + step_x[e], y + step_y[e]) >= 0)
			joined |= 1u << e;
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	if (!joined) {
		if (!size)
			return CARC_E260; /* only the code asked for (legal_places) */
		int edge, end = open_end(g, rt, &edge);
		int at = snprintf(why, size, "tile %s at %d,%d turned %d does not continue the river: no river edge of it "
				  "meets a placed tile", t->id, x, y, rot * 90);
		if (end >= 0 && at >= 0 && (size_t)at < size)
			snprintf(why + at, size - (size_t)at, "; the river's open end is the %s edge of %s (%d,%d), at %d,%d",
				 edge_word[edge], ts->tiles[pl[end].tile].id, pl[end].x, pl[end].y,
				 pl[end].x + step_x[edge], pl[end].y + step_y[edge]);
		return CARC_E260;
	}
	if (tile == rt->lake) {
		int left = river_left(g, rt, true);
		if (left) {
			snprintf(why, size, "the lake %s comes last of the river tiles, but %d other river tile%s still in "
				 "the supply", t->id, left, left == 1 ? " is" : "s are");
			return CARC_E262;
		}
	}
	/* an immediate U-turn: this bend onto a bend that turns the same way */
	if (popcount4(mine) != 2 || (mine == 0x5 || mine == 0xa))
		return 0; /* not a bend */
	int in = first_edge(joined);
	int out = first_edge(mine & ~(1u << in));
	int q = carc_game_at(g, x + step_x[in], y + step_y[in]);
	const struct carc_placement *p = &pl[q];
	unsigned theirs = carc_rot_edges(rt->edges[p->tile], p->rot);
	if (popcount4(theirs) != 2 || theirs == 0x5 || theirs == 0xa)
		return 0; /* the river comes from a straight, the spring or a bridge */
	int their_out = (in + 2) & 3;
	int their_in = first_edge(theirs & ~(1u << their_out));
	int turn = turn_of(in, out);
	if (their_in < 0 || turn != turn_of(their_in, their_out))
		return 0;
	if (!size)
		return CARC_E261;
	const char *side = turn == 1 ? "right" : "left";
	int n = snprintf(why, size, "tile %s at %d,%d turned %d makes an immediate U-turn: it turns the river %s, from %s "
			 "to %s, directly after the bend %s at %d,%d", t->id, x, y, rot * 90, side,
			 heading[(in + 2) & 3], heading[out], ts->tiles[p->tile].id, p->x, p->y);
	if (n >= 0 && (size_t)n < size)
		snprintf(why + n, size - (size_t)n, ", which on turn %d turned it %s too (two bends in a row may not turn "
			 "the same way)", p->turn, side);
	return CARC_E261;
}

/* The engine's closed_complete hook: a closed river (the spring joined to
 * the lake) is never complete, so it never scores; roads are as ever. */
static bool closed_complete(struct carc_game *g, uint32_t root)
{
	const struct river_tiles *rt = river_tiles(carc_game_tileset(g));
	return carc_game_feature_kind(g, root) != rt->kind;
}

/* The engine's checks_tile hook: check_place refuses river tiles only. */
static bool checks_tile(const struct carc_tileset *ts, int tile)
{
	return is_river_tile(river_tiles(ts), tile);
}

static const struct carc_engine_hooks engine_hooks = {
	.closed_complete = closed_complete,
	.closed_classes = 1u << CARC_CLASS_PATH,
	.closed_final = true,
	.check_place = check_place,
	.checks_tile = checks_tile,
};

/* ---- the referee ---- */

/* The referee's state: the game, and whether the river tiles are all
 * drawn (the supply never grows, so once none is left none ever is). */
struct river_state {
	struct carc_rules_plain plain;
	bool dry;
};

static void *begin(void **cache, const struct carc_record *rec, struct carc_game *g, carc_rules_fault_fn fault,
		   void *ctx)
{
	(void)rec;
	if (!*cache)
		*cache = xcalloc(1, sizeof(struct river_state));
	struct river_state *s = *cache;
	*s = (struct river_state){{g, fault, ctx}, false};
	return s;
}

static void *clone(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g, void *ctx)
{
	const struct river_state *from = st;
	struct river_state *s = begin(cache, rec, g, from->plain.fault, ctx);
	s->dry = from->dry;
	return s;
}

/* The untouched hook: a turn that plays a river tile, and once the river
 * tiles are drawn every turn, is the base game's as far as this module's
 * turn hooks go: draw has nothing to say of a river tile; check_place,
 * asked by the engine, refuses river tiles only (checks_tile), so the
 * engine's one call leaves their placement to the referee's place, which
 * asks it; and a follower goes onto the river only by check_deploy, which
 * the engine's one call never passes (no role may stand on it). Only a land
 * tile while river tiles are left takes the long way, for draw's E263. */
static bool untouched(void *st, const struct carc_move *m)
{
	struct river_state *s = st;
	if (s->dry)
		return true;
	const struct river_tiles *rt = river_tiles(carc_game_tileset(s->plain.g));
	if (is_river_tile(rt, m->tile))
		return true;
	s->dry = river_left(s->plain.g, rt, false) == 0;
	return s->dry;
}

/* The draw: a land tile only once every river tile is drawn. */
static void draw(void *st, const struct carc_move *m, int count)
{
	struct carc_rules_plain *s = &((struct river_state *)st)->plain;
	(void)count;
	const struct carc_tileset *ts = carc_game_tileset(s->g);
	const struct river_tiles *rt = river_tiles(ts);
	if (is_river_tile(rt, m->tile))
		return;
	int left = river_left(s->g, rt, false);
	if (!left)
		return;
	char msg[256];
	snprintf(msg, sizeof msg, "tile %s is a land tile, but the river tiles are drawn first and %d %s still in the "
		 "supply", ts->tiles[m->tile].id, left, left == 1 ? "is" : "are");
	s->fault(s->ctx, CARC_E263, m->tile_span, msg);
}

/* No follower on the river. */
static enum carc_code check_deploy(struct carc_game *g, uint32_t root, const struct carc_role *role, int colour,
				   struct carc_buf *why)
{
	(void)colour;
	const struct river_tiles *rt = river_tiles(carc_game_tileset(g));
	if (rt->kind < 0 || carc_game_feature_kind(g, root) != rt->kind)
		return 0;
	carc_buf_printf(why, "a %s on ", role->name);
	carc_game_feature_name(g, root, why);
	carc_buf_adds(why, ", but no follower may stand on the river");
	return CARC_E264;
}

/* ---- the generator ---- */

/* Whether the tile may be drawn now: a river tile but the lake while any
 * is left, then the lake, then the land tiles. */
static bool gen_may_draw(const struct carc_game *g, int tile)
{
	const struct river_tiles *rt = river_tiles(carc_game_tileset(g));
	if (river_left(g, rt, true))
		return is_river_tile(rt, tile) && tile != rt->lake;
	if (rt->lake >= 0 && carc_game_tiles_left(g, rt->lake))
		return tile == rt->lake;
	return true;
}

/* ---- the module ---- */

static const struct carc_play_hooks play_hooks = {
	.untouched = untouched,
	.begin = begin,
	.free = free,
	.clone = clone,
	.draw = draw,
	.check_deploy = check_deploy,
	.gen_may_draw = gen_may_draw,
};

static const struct carc_rules_words words = {
	.tile = NULL, /* the base rule set's */
};

const struct carc_ruleset carc_rules_river = {
	.id = CARC_RULES_RIVER, .name = "river", .title = "The River",
	.expansion = true,
	.tileset = "river",
	.joins = "base solo",
	.engine = &engine_hooks,
	.play = &play_hooks,
	.words = &words,
};
