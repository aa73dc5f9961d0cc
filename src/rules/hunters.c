/*
 * hunters.c - Hunters and Gatherers: values, final scoring, huts, bonus turns.
 *
 * River systems. The engine joins river segments across tile edges but never
 * joins a river to a lake: a lake ends the rivers that reach it. A river
 * system is the larger whole the huts own: every river and lake connected
 * through lakes, bounded by springs and the edge of the map. It is built on
 * demand as a second union-find over the game's segments: each river segment
 * is joined with the root of its river, and each river that ends at a lake
 * (end: lake) with the lake of its tile. Only river and lake segments take
 * part; the others stay alone.
 *
 * Everything here goes through the engine's public interface (game.h), so
 * the engine keeps one job: the board and its features.
 */
#include "rules/hunters.h"
#include "rules/module.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static const struct carc_feature *tile_feature(const struct carc_game *g, const struct carc_placement *p, int f)
{
	return &carc_game_tileset(g)->tiles[p->tile].features[f];
}

static int feature_class(const struct carc_game *g, const struct carc_placement *p, int f)
{
	const struct carc_tileset *ts = carc_game_tileset(g);
	return ts->kinds[tile_feature(g, p, f)->kind].klass;
}

/* The lake in the centre of a placed tile (its feature index), or -1. */
static int tile_lake(const struct carc_game *g, const struct carc_placement *p)
{
	const struct carc_tile *t = &carc_game_tileset(g)->tiles[p->tile];
	if (t->centre_feature == CARC_NO_FEATURE)
		return -1;
	return feature_class(g, p, t->centre_feature) == CARC_CLASS_LAKE ? t->centre_feature : -1;
}

/* Segments in the game: the last placement's first segment plus its features. */
static uint32_t segment_count(const struct carc_game *g)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	if (!n)
		return 0;
	return pl[n - 1].seg0 + carc_game_tileset(g)->tiles[pl[n - 1].tile].nfeatures;
}

/* The root of the feature a follower stands on. */
static uint32_t follower_root(struct carc_game *g, const struct carc_follower *f)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	return carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
}

static bool is_hut(const struct carc_game *g, const struct carc_follower *f)
{
	return carc_game_rules(g)->roles[f->role].hut;
}

/* ---- the tile set ---- */

static int problem(carc_hunters_problem_fn fn, void *ctx, unsigned line, const char *fmt, ...) CARC_PRINTF(4, 5);

static int problem(carc_hunters_problem_fn fn, void *ctx, unsigned line, const char *fmt, ...)
{
	if (fn) {
		struct carc_buf b = {0};
		va_list ap;
		va_start(ap, fmt);
		carc_buf_vprintf(&b, fmt, ap);
		va_end(ap);
		fn(ctx, line, carc_buf_cstr(&b));
		carc_buf_free(&b);
	}
	return 1;
}

/* Where the rules count each item: the class of feature it belongs on. */
static int item_class(int attr)
{
	switch (attr) {
	case CARC_ATTR_FISH:
		return CARC_CLASS_LAKE;
	case CARC_ATTR_GOLD:
	case CARC_ATTR_MUSHROOM:
		return CARC_CLASS_ENCLOSURE;
	case CARC_ATTR_DEER:
	case CARC_ATTR_MAMMOTH:
	case CARC_ATTR_TIGER:
	case CARC_ATTR_AUROCHS:
	case CARC_ATTR_FIRE:
	case CARC_ATTR_SHRINE:
		return CARC_CLASS_AREA;
	default:
		return -1; /* pennants are not counted; the volcano is a picture */
	}
}

int carc_hunters_check_tileset(const struct carc_tileset *ts, carc_hunters_problem_fn fn, void *ctx)
{
	static const struct {
		const char *name;
		int klass;
	} need[] = {{"river", CARC_CLASS_PATH}, {"forest", CARC_CLASS_ENCLOSURE}, {"meadow", CARC_CLASS_AREA}};
	int n = 0;
	for (size_t i = 0; i < CARC_ARRAY_LEN(need); i++) {
		int k = carc_tileset_kind(ts, need[i].name);
		if (k < 0)
			n += problem(fn, ctx, 0, "tile set %s has no kind '%s' (class %s), which the %s stands on", ts->name,
				     need[i].name, carc_class_name(need[i].klass),
				     i == 0 ? "fisher" : i == 1 ? "gatherer" : "hunter");
		else if (ts->kinds[k].klass != need[i].klass)
			n += problem(fn, ctx, 0, "tile set %s: kind '%s' is of class %s, not %s", ts->name, need[i].name,
				     carc_class_name(ts->kinds[k].klass), carc_class_name(need[i].klass));
	}
	int lake = carc_tileset_kind(ts, "lake");
	if (lake >= 0 && ts->kinds[lake].klass != CARC_CLASS_LAKE)
		n += problem(fn, ctx, 0, "tile set %s: kind 'lake' is of class %s, not lake", ts->name,
			     carc_class_name(ts->kinds[lake].klass));
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		bool has_lake = t->centre_feature != CARC_NO_FEATURE &&
				ts->kinds[t->features[t->centre_feature].kind].klass == CARC_CLASS_LAKE;
		for (int f = 0; f < t->nfeatures; f++) {
			const struct carc_feature *ft = &t->features[f];
			const struct carc_kind *k = &ts->kinds[ft->kind];
			if (k->klass == CARC_CLASS_PATH && ft->end == CARC_END_LAKE && !has_lake)
				n += problem(fn, ctx, ft->line, "tile %s: the %s ends at a lake, but the tile has no lake", t->id,
					     k->name);
			for (int a = 0; a < CARC_ATTR_COUNT; a++) {
				int want = item_class(a);
				if (!ft->attr[a] || want < 0 || want == k->klass)
					continue;
				n += problem(fn, ctx, ft->line, "tile %s: %s on a %s is never counted; it belongs on a feature "
					     "of class %s", t->id, carc_attr_name((enum carc_attr)a), k->name,
					     carc_class_name((enum carc_class)want));
			}
		}
	}
	return n;
}

struct located {
	struct carc_diag_sink *sink;
	struct carc_src src;
};

static void report_at_line(void *ctx, unsigned line, const char *msg)
{
	struct located *lc = ctx;
	size_t off = 0;
	for (unsigned l = 1; l < line && off < lc->src.len; off++)
		if (lc->src.text[off] == '\n')
			l++;
	while (off < lc->src.len && (lc->src.text[off] == ' ' || lc->src.text[off] == '-'))
		off++; /* to the feature itself */
	size_t len = 0;
	while (off + len < lc->src.len && lc->src.text[off + len] != '\n')
		len++;
	carc_diag_report(lc->sink, CARC_E401, &lc->src, off, len ? len : 1, "%s", msg);
}

int carc_hunters_report_tileset(const struct carc_tileset *ts, const char *name, struct carc_diag_sink *sink)
{
	if (!ts->rules || strcmp(ts->rules, "hunters"))
		return 0;
	struct located lc = {sink, {name, ts->source, ts->source_len, 1}};
	return carc_hunters_check_tileset(ts, report_at_line, &lc);
}

struct first_problem {
	struct carc_buf msg;
	unsigned line;
};

static void keep_first(void *ctx, unsigned line, const char *msg)
{
	struct first_problem *fp = ctx;
	if (fp->msg.len)
		return;
	carc_buf_adds(&fp->msg, msg);
	fp->line = line;
}

void carc_hunters_check_record(const struct carc_record *rec, struct carc_diag_sink *sink)
{
	/* A tile set that fits is not checked again for every game of a file
	 * (one per thread: carc check -j runs games in threads). */
	static _Thread_local unsigned long fits_serial;
	if (rec->tileset->serial && rec->tileset->serial == fits_serial)
		return;
	struct first_problem fp = {{0}, 0};
	int n = carc_hunters_check_tileset(rec->tileset, keep_first, &fp);
	if (!n)
		fits_serial = rec->tileset->serial;
	if (n) {
		int tag = rec->tag_index[CARC_TAG_TILESET] >= 0 ? CARC_TAG_TILESET : CARC_TAG_RULES;
		struct carc_span at = rec->tag_index[tag] >= 0 ? rec->tags[rec->tag_index[tag]].value : (struct carc_span){0, 0};
		struct carc_buf more = {0};
		const char *file = carc_record_tag(rec, CARC_TAG_TILESET);
		if (fp.line)
			carc_buf_printf(&more, " (%s, line %u)", file ? file : rec->rules->tileset, fp.line);
		if (n > 1)
			carc_buf_printf(&more, "; and %d more problem%s", n - 1, n > 2 ? "s" : "");
		carc_diag_report(sink, CARC_E401, &rec->src, at.off, at.len ? at.len : 1,
				 "the tile set does not fit the hunters rules: %s%s", carc_buf_cstr(&fp.msg),
				 carc_buf_cstr(&more));
		carc_buf_free(&more);
	}
	carc_buf_free(&fp.msg);
}

/* ---- values during play ---- */

/* The placements a feature covers, each once: a malloc'ed array of *n. */
static int *feature_placements(struct carc_game *g, uint32_t root, int *n)
{
	size_t np;
	carc_game_placements(g, &np);
	int *at = xmalloc((np ? np : 1) * sizeof *at);
	*n = carc_game_feature_placements(g, root, at, (int)np);
	if (*n > (int)np)
		*n = (int)np;
	return at;
}

/* Fish in the lakes at the ends of a river (by root): each lake once, even
 * when both ends of the river reach it. */
static int river_fish(struct carc_game *g, uint32_t root)
{
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	int n, fish = 0;
	int *at = feature_placements(g, root, &n);
	for (int k = 0; k < n; k++) {
		const struct carc_placement *p = &pl[at[k]];
		int lake = tile_lake(g, p);
		if (lake < 0)
			continue;
		const struct carc_tile *t = &carc_game_tileset(g)->tiles[p->tile];
		for (int f = 0; f < t->nfeatures; f++)
			if (t->features[f].end == CARC_END_LAKE && feature_class(g, p, f) == CARC_CLASS_PATH &&
			    carc_game_feature_root(g, at[k], f) == root) {
				fish += t->features[lake].attr[CARC_ATTR_FISH];
				break;
			}
	}
	free(at);
	return fish;
}

/* Tiles of a forest (by root) that show mushrooms: each tile once. */
static int forest_mushroom_tiles(struct carc_game *g, uint32_t root)
{
	if (!carc_game_feature_attr(g, root, CARC_ATTR_MUSHROOM))
		return 0;
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	int n, tiles = 0;
	int *at = feature_placements(g, root, &n);
	for (int k = 0; k < n; k++) {
		const struct carc_placement *p = &pl[at[k]];
		const struct carc_tile *t = &carc_game_tileset(g)->tiles[p->tile];
		for (int f = 0; f < t->nfeatures; f++)
			if (t->features[f].attr[CARC_ATTR_MUSHROOM] && feature_class(g, p, f) == CARC_CLASS_ENCLOSURE &&
			    carc_game_feature_root(g, at[k], f) == root) {
				tiles++;
				break;
			}
	}
	free(at);
	return tiles;
}

int carc_hunters_feature_value(struct carc_game *g, uint32_t root, int tiles, bool complete, uint16_t *items)
{
	*items = 0;
	if (!complete)
		return 0;
	switch (carc_game_tileset(g)->kinds[carc_game_feature_kind(g, root)].klass) {
	case CARC_CLASS_PATH: {
		int fish = river_fish(g, root);
		*items = (uint16_t)fish;
		return tiles + fish;
	}
	case CARC_CLASS_ENCLOSURE: {
		int mushrooms = forest_mushroom_tiles(g, root);
		*items = (uint16_t)mushrooms;
		return 2 * tiles + 2 * mushrooms;
	}
	default:
		return 0;
	}
}

/* ---- river systems ---- */

struct systems {
	uint32_t *parent;  /* per segment */
	uint32_t nsegs;
};

static uint32_t sys_find(struct systems *sy, uint32_t s)
{
	while (sy->parent[s] != s) {
		sy->parent[s] = sy->parent[sy->parent[s]];
		s = sy->parent[s];
	}
	return s;
}

static void sys_join(struct systems *sy, uint32_t a, uint32_t b)
{
	a = sys_find(sy, a);
	b = sys_find(sy, b);
	if (a == b)
		return;
	if (a < b)
		sy->parent[b] = a; /* the earliest segment is the root: systems come out in play order */
	else
		sy->parent[a] = b;
}

static void systems_build(struct carc_game *g, struct systems *sy)
{
	sy->nsegs = segment_count(g);
	sy->parent = xmalloc((sy->nsegs ? sy->nsegs : 1) * sizeof *sy->parent);
	for (uint32_t s = 0; s < sy->nsegs; s++)
		sy->parent[s] = s;
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	for (size_t i = 0; i < n; i++) {
		const struct carc_tile *t = &carc_game_tileset(g)->tiles[pl[i].tile];
		int lake = tile_lake(g, &pl[i]);
		for (int f = 0; f < t->nfeatures; f++) {
			if (feature_class(g, &pl[i], f) != CARC_CLASS_PATH)
				continue;
			uint32_t s = pl[i].seg0 + (uint32_t)f;
			sys_join(sy, s, carc_game_feature_root(g, (int)i, f));
			if (lake >= 0 && t->features[f].end == CARC_END_LAKE)
				sys_join(sy, s, pl[i].seg0 + (uint32_t)lake);
		}
	}
}

/* The placement a segment belongs to (placements hold ascending segments). */
static int segment_placement(const struct carc_game *g, uint32_t seg)
{
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (pl[mid].seg0 <= seg)
			lo = mid;
		else
			hi = mid;
	}
	return (int)lo;
}

/* A set of roots, small: a river system has a few rivers and lakes. */
struct roots {
	uint32_t *root;
	int n, cap;
};

static bool roots_add(struct roots *rs, uint32_t r)
{
	for (int i = 0; i < rs->n; i++)
		if (rs->root[i] == r)
			return false;
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 16;
		rs->root = xrealloc(rs->root, (size_t)rs->cap * sizeof *rs->root);
	}
	rs->root[rs->n++] = r;
	return true;
}

/* Collects the river system of a river (by root) or a lake: its rivers'
 * roots and its lakes, walking from river to lake and lake to river. The
 * whole-map union-find (systems_build) is for the final scoring; this walk
 * costs only the size of one system, for each hut put down. */
static void system_walk(struct carc_game *g, uint32_t root, struct roots *rs)
{
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_tileset *ts = carc_game_tileset(g);
	roots_add(rs, root);
	for (int i = 0; i < rs->n; i++) {
		uint32_t r = rs->root[i];
		int klass = ts->kinds[carc_game_feature_kind(g, r)].klass;
		if (klass == CARC_CLASS_LAKE) {
			int p = segment_placement(g, r);
			const struct carc_tile *t = &ts->tiles[pl[p].tile];
			for (int f = 0; f < t->nfeatures; f++)
				if (t->features[f].end == CARC_END_LAKE && feature_class(g, &pl[p], f) == CARC_CLASS_PATH)
					roots_add(rs, carc_game_feature_root(g, p, f));
		} else if (klass == CARC_CLASS_PATH) {
			int n;
			int *at = feature_placements(g, r, &n);
			for (int k = 0; k < n; k++) {
				const struct carc_placement *q = &pl[at[k]];
				int lake = tile_lake(g, q);
				if (lake < 0)
					continue;
				const struct carc_tile *t = &ts->tiles[q->tile];
				for (int f = 0; f < t->nfeatures; f++)
					if (t->features[f].end == CARC_END_LAKE && feature_class(g, q, f) == CARC_CLASS_PATH &&
					    carc_game_feature_root(g, at[k], f) == r) {
						roots_add(rs, q->seg0 + (uint32_t)lake);
						break;
					}
			}
			free(at);
		}
	}
}

const struct carc_follower *carc_hunters_system_hut(struct carc_game *g, uint32_t root)
{
	size_t nf;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	bool any = false;
	for (size_t i = 0; i < nf && !any; i++)
		any = fl[i].active && is_hut(g, &fl[i]);
	if (!any)
		return NULL;
	struct roots rs = {NULL, 0, 0};
	system_walk(g, root, &rs);
	const struct carc_follower *hut = NULL;
	for (size_t i = 0; i < nf && !hut; i++) {
		if (!fl[i].active || !is_hut(g, &fl[i]))
			continue;
		uint32_t r = follower_root(g, &fl[i]);
		for (int k = 0; k < rs.n && !hut; k++)
			if (rs.root[k] == r)
				hut = &fl[i];
	}
	free(rs.root);
	return hut;
}

struct system_total {
	uint32_t first;        /* its earliest segment */
	uint16_t tiles, fish;
	uint8_t huts[CARC_COLOURS];
	int last_placement;    /* for counting each tile once */
};

/* Every river system with a hut: 1 point per fish in all its lakes to the
 * colours with the most huts on it. */
static void score_river_systems(struct carc_game *g)
{
	struct systems sy;
	systems_build(g, &sy);
	uint32_t *index = xcalloc(sy.nsegs ? sy.nsegs : 1, sizeof *index); /* system root -> total + 1 */
	struct system_total *tot = NULL;
	size_t ntot = 0;
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	for (size_t i = 0; i < n; i++) {
		const struct carc_tile *t = &carc_game_tileset(g)->tiles[pl[i].tile];
		for (int f = 0; f < t->nfeatures; f++) {
			int klass = feature_class(g, &pl[i], f);
			if (klass != CARC_CLASS_PATH && klass != CARC_CLASS_LAKE)
				continue;
			uint32_t s = pl[i].seg0 + (uint32_t)f, r = sys_find(&sy, s);
			if (!index[r]) {
				tot = xrealloc(tot, (ntot + 1) * sizeof *tot);
				memset(&tot[ntot], 0, sizeof *tot);
				tot[ntot].first = r;
				tot[ntot].last_placement = -1;
				index[r] = (uint32_t)++ntot;
			}
			struct system_total *st = &tot[index[r] - 1];
			if (st->last_placement != (int)i) {
				st->last_placement = (int)i;
				st->tiles++;
			}
			if (klass == CARC_CLASS_LAKE)
				st->fish = (uint16_t)(st->fish + t->features[f].attr[CARC_ATTR_FISH]);
		}
	}
	size_t nf;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	for (size_t i = 0; i < nf; i++)
		if (fl[i].active && is_hut(g, &fl[i]) && fl[i].segment < sy.nsegs) {
			uint32_t r = sys_find(&sy, fl[i].segment);
			if (index[r])
				tot[index[r] - 1].huts[fl[i].colour]++;
		}
	/* systems were numbered in order of their earliest segment */
	for (size_t k = 0; k < ntot; k++) {
		struct system_total *st = &tot[k];
		uint8_t winners = carc_game_majority(g, st->huts);
		if (!winners)
			continue;
		/* name it by the feature of its earliest segment */
		size_t p = 0;
		while (p + 1 < n && pl[p + 1].seg0 <= st->first)
			p++;
		int f = (int)(st->first - pl[p].seg0);
		struct carc_event *ev = carc_game_add_event(g);
		ev->type = CARC_EV_RIVER_SYSTEM;
		ev->kind = tile_feature(g, &pl[p], f)->kind;
		ev->source = CARC_SRC_OTHER;
		ev->feature = carc_game_feature_root(g, (int)p, f);
		ev->tiles = st->tiles;
		ev->items = st->fish;
		ev->points = (int16_t)st->fish;
		ev->winners = winners;
		memcpy(ev->followers, st->huts, sizeof ev->followers);
		for (int c = 0; c < CARC_COLOURS; c++)
			if (winners & (1u << c))
				carc_game_add_points(g, c, st->fish, CARC_SRC_OTHER);
	}
	free(tot);
	free(index);
	free(sy.parent);
}

/* ---- meadows ---- */

/* The colours of the hunters standing on a shrine of the meadow (by root). */
static uint8_t shrine_hunters(struct carc_game *g, uint32_t root)
{
	size_t n, np;
	const struct carc_follower *fl = carc_game_followers(g, &n);
	const struct carc_placement *pl = carc_game_placements(g, &np);
	uint8_t colours = 0;
	for (size_t i = 0; i < n; i++) {
		if (!fl[i].active || is_hut(g, &fl[i]))
			continue;
		int f = (int)(fl[i].segment - pl[fl[i].placement].seg0);
		if (tile_feature(g, &pl[fl[i].placement], f)->attr[CARC_ATTR_SHRINE] && follower_root(g, &fl[i]) == root)
			colours |= (uint8_t)(1u << fl[i].colour);
	}
	return colours;
}

/* Every meadow with a hunter: 2 per deer, mammoth and aurochs to the colours
 * with the most hunters on it. Each tiger eats one deer of its meadow, unless
 * the meadow has a fire; a meadow with a shrine scores only for the hunters
 * standing on the shrine. */
static void score_meadows(struct carc_game *g)
{
	uint32_t nsegs = segment_count(g);
	uint8_t *seen = xcalloc(nsegs ? nsegs : 1, 1);
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	for (size_t i = 0; i < n; i++) {
		const struct carc_tile *t = &carc_game_tileset(g)->tiles[pl[i].tile];
		for (int f = 0; f < t->nfeatures; f++) {
			if (feature_class(g, &pl[i], f) != CARC_CLASS_AREA)
				continue;
			uint32_t r = carc_game_feature_root(g, (int)i, f);
			if (r >= nsegs || seen[r])
				continue;
			seen[r] = 1;
			const uint8_t *hunters = carc_game_feature_followers(g, r);
			uint8_t winners = carc_game_majority(g, hunters);
			if (!winners)
				continue;
			int deer = carc_game_feature_attr(g, r, CARC_ATTR_DEER);
			int tigers = carc_game_feature_attr(g, r, CARC_ATTR_TIGER);
			if (carc_game_feature_attr(g, r, CARC_ATTR_FIRE))
				tigers = 0;
			deer = deer > tigers ? deer - tigers : 0;
			int animals = deer + carc_game_feature_attr(g, r, CARC_ATTR_MAMMOTH) +
				      carc_game_feature_attr(g, r, CARC_ATTR_AUROCHS);
			if (carc_game_feature_attr(g, r, CARC_ATTR_SHRINE))
				winners = shrine_hunters(g, r);
			struct carc_event *ev = carc_game_add_event(g);
			ev->type = CARC_EV_MEADOW;
			ev->kind = t->features[f].kind;
			ev->source = CARC_SRC_AREA;
			ev->feature = r;
			ev->tiles = (uint16_t)carc_game_feature_tiles(g, r);
			ev->items = (uint16_t)animals;
			ev->points = (int16_t)(2 * animals);
			ev->winners = winners;
			memcpy(ev->followers, hunters, sizeof ev->followers);
			for (int c = 0; c < CARC_COLOURS; c++)
				if (winners & (1u << c))
					carc_game_add_points(g, c, 2 * animals, CARC_SRC_AREA);
		}
	}
	free(seen);
}

void carc_hunters_score_final(struct carc_game *g)
{
	score_river_systems(g);
	score_meadows(g);
}

/* ---- huts ---- */

/* The check_deploy hook: one hut per river system when it is put down. */
static enum carc_code check_deploy(struct carc_game *g, uint32_t root, const struct carc_role *role, int colour,
				   struct carc_buf *why)
{
	(void)colour;
	const struct carc_follower *hut = role->hut ? carc_hunters_system_hut(g, root) : NULL;
	if (!hut)
		return 0;
	size_t n;
	const struct carc_placement *pl = carc_game_placements(g, &n);
	struct carc_buf name = {0};
	carc_game_feature_name(g, root, &name);
	carc_buf_printf(why, "a hut on %s, but its river system already holds %s's hut, put down on turn %d at %d,%d "
			"(one hut per river system; systems joined later may hold several)",
			carc_buf_cstr(&name), carc_colour_name(hut->colour), hut->turn, pl[hut->placement].x,
			pl[hut->placement].y);
	carc_buf_free(&name);
	return CARC_E406;
}

/* ---- bonus turns ---- */

void carc_hunters_turns_start(struct carc_hunters_turns *h)
{
	memset(h, 0, sizeof *h);
	h->due = CARC_NO_COLOUR;
	h->bonus_turn = h->bonus_gold_turn = h->empty_turn = -1;
}

static bool is_bonus_tile(const struct carc_game *g, int tile)
{
	return carc_game_tileset(g)->tiles[tile].bonus;
}

bool carc_hunters_is_bonus(const struct carc_hunters_turns *h, const struct carc_game *g, const struct carc_move *m)
{
	if (m->bonus)
		return true;
	return h->due != CARC_NO_COLOUR && m->colour == h->due && is_bonus_tile(g, m->tile);
}

static void report(carc_hunters_fault_fn fault, void *ctx, enum carc_code code, struct carc_span at,
		   const char *fmt, ...) CARC_PRINTF(5, 6);

static void report(carc_hunters_fault_fn fault, void *ctx, enum carc_code code, struct carc_span at,
		   const char *fmt, ...)
{
	struct carc_buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	fault(ctx, code, at, carc_buf_cstr(&b));
	carc_buf_free(&b);
}

void carc_hunters_turn_begin(struct carc_hunters_turns *h, struct carc_game *g, const struct carc_move *m,
			     bool bonus, int turn, carc_hunters_fault_fn fault, void *ctx)
{
	const struct carc_tile *t = &carc_game_tileset(g)->tiles[m->tile];
	struct carc_span number = m->number.len ? m->number : m->colour_span;
	if (!bonus) {
		if (h->due != CARC_NO_COLOUR) {
			struct carc_buf name = {0};
			carc_game_feature_name(g, h->due_forest, &name);
			report(fault, ctx, CARC_E403, m->line,
			       "%s completed %s, which has a gold nugget, on turn %d: the bonus turn %d+ with a tile of the "
			       "bonus stack comes before turn %d", carc_colour_name(h->due), carc_buf_cstr(&name), h->due_turn,
			       h->due_turn, turn);
			carc_buf_free(&name);
			h->due = CARC_NO_COLOUR; /* skipped: the game goes on */
		}
		if (t->bonus)
			report(fault, ctx, CARC_E404, m->tile_span, "tile %s is a bonus tile: it is drawn only in a bonus turn "
			       "(N+), earned by completing a forest with a gold nugget", t->id);
		return;
	}
	if (h->due == CARC_NO_COLOUR) {
		if (h->bonus_gold_turn == turn)
			report(fault, ctx, CARC_E402, number, "no bonus turn is owed: the forest with gold completed on turn "
			       "%d+ was completed by a bonus tile, and a bonus tile never earns another", turn);
		else if (h->bonus_turn == turn)
			report(fault, ctx, CARC_E402, number, "turn %d has had its bonus turn: one bonus turn per turn, "
			       "however many forests with gold it completed", turn);
		else if (h->empty_turn == turn)
			report(fault, ctx, CARC_E402, number, "no bonus turn is owed: the bonus stack was empty when turn "
			       "%d completed a forest with gold", turn);
		else if (turn <= 0)
			report(fault, ctx, CARC_E402, number, "a bonus turn before the first turn: only a turn that "
			       "completes a forest with a gold nugget earns one");
		else
			report(fault, ctx, CARC_E402, number, "no bonus turn is owed: turn %d completed no forest with a "
			       "gold nugget", turn);
	} else {
		if (m->colour != h->due)
			report(fault, ctx, CARC_E206, m->colour_span, "the bonus turn after turn %d is %s's, who placed the "
			       "tile that completed the forest with gold, not %s's", h->due_turn, carc_colour_name(h->due),
			       carc_colour_name(m->colour));
		if (!m->bonus)
			report(fault, ctx, CARC_E207, number, "this is the bonus turn earned on turn %d: write it %d+",
			       h->due_turn, h->due_turn);
		else if (m->turn >= 0 && m->turn != h->due_turn)
			report(fault, ctx, CARC_E207, number, "numbered %d+, but the bonus turn follows turn %d: %d+",
			       m->turn, h->due_turn, h->due_turn);
	}
	if (!t->bonus)
		report(fault, ctx, CARC_E405, m->tile_span, "a bonus turn draws from the bonus stack, but %s is a land tile",
		       t->id);
}

/* A forest with gold among the events from first on, or UINT32_MAX. */
static uint32_t gold_forest(struct carc_game *g, size_t first)
{
	size_t n;
	const struct carc_event *ev = carc_game_events(g, &n);
	const struct carc_tileset *ts = carc_game_tileset(g);
	for (size_t i = first; i < n; i++)
		if (ev[i].type == CARC_EV_COMPLETED && ts->kinds[ev[i].kind].klass == CARC_CLASS_ENCLOSURE &&
		    carc_game_feature_attr(g, ev[i].feature, CARC_ATTR_GOLD) > 0)
			return ev[i].feature;
	return UINT32_MAX;
}

bool carc_hunters_gold_completed(struct carc_game *g, size_t first_event)
{
	return gold_forest(g, first_event) != UINT32_MAX;
}

void carc_hunters_turn_end(struct carc_hunters_turns *h, struct carc_game *g, const struct carc_move *m,
			   bool bonus, int turn, size_t first_event)
{
	if (bonus) {
		if (m->discard) {
			/* set aside: the next bonus tile is drawn, while there is one */
			if (carc_game_bonus_left(g) == 0)
				h->due = CARC_NO_COLOUR;
			return;
		}
		h->due = CARC_NO_COLOUR;
		h->bonus_turn = turn;
		if (gold_forest(g, first_event) != UINT32_MAX)
			h->bonus_gold_turn = turn;
		return;
	}
	h->due = CARC_NO_COLOUR;
	if (m->discard)
		return;
	uint32_t forest = gold_forest(g, first_event);
	if (forest == UINT32_MAX)
		return;
	if (carc_game_bonus_left(g) == 0) {
		h->empty_turn = turn;
		return;
	}
	if (carc_game_supply_left(g) == 0)
		return; /* the last land tile ends the game: no bonus turn follows it */
	h->due = m->colour;
	h->due_turn = turn;
	h->due_forest = forest;
}

/* ---- forests: complete only when they enclose no empty cell ---- */

/* The closed_complete hook (RULINGS: a forest is complete when it has no
 * open edge and encloses no empty cell). An empty cell is enclosed when
 * every 4-connected path of cells from it to far away passes through a cell
 * holding part of the forest: a flood from the border of the forest's
 * bounding box, widened by one, through the cells that hold none of it,
 * must reach every empty cell within the box. */
static bool forest_complete(struct carc_game *g, uint32_t root)
{
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	int n;
	int *at = feature_placements(g, root, &n);
	int32_t x0 = INT32_MAX, x1 = INT32_MIN, y0 = INT32_MAX, y1 = INT32_MIN;
	for (int k = 0; k < n; k++) {
		const struct carc_placement *p = &pl[at[k]];
		x0 = p->x < x0 ? p->x : x0;
		x1 = p->x > x1 ? p->x : x1;
		y0 = p->y < y0 ? p->y : y0;
		y1 = p->y > y1 ? p->y : y1;
	}
	if (n < 8 || x1 - x0 < 2 || y1 - y0 < 2) {
		free(at); /* fewer than 8 tiles, or less than 3 wide or high, cannot ring a cell */
		return true;
	}
	x0--, y0--, x1++, y1++;
	size_t w = (size_t)(x1 - x0 + 1), h = (size_t)(y1 - y0 + 1);
	/* per cell: 1 forest, 2 reached; and a stack of cells to visit */
	uint8_t *cell = xcalloc(w * h, 1);
	uint32_t *stack = xmalloc(w * h * sizeof *stack);
	for (int k = 0; k < n; k++)
		cell[(size_t)(pl[at[k]].x - x0) + (size_t)(pl[at[k]].y - y0) * w] = 1;
	free(at);
	size_t top = 0;
	for (size_t i = 0; i < w * h; i++) {
		size_t x = i % w, y = i / w;
		if ((x == 0 || y == 0 || x == w - 1 || y == h - 1) && !cell[i]) {
			cell[i] = 2;
			stack[top++] = (uint32_t)i;
		}
	}
	while (top) {
		size_t i = stack[--top], x = i % w, y = i / w;
		size_t next[4] = {x > 0 ? i - 1 : i, x + 1 < w ? i + 1 : i, y > 0 ? i - w : i, y + 1 < h ? i + w : i};
		for (int d = 0; d < 4; d++)
			if (!cell[next[d]]) {
				cell[next[d]] = 2;
				stack[top++] = (uint32_t)next[d];
			}
	}
	bool complete = true;
	for (size_t i = 0; i < w * h && complete; i++)
		if (!cell[i] && carc_game_at(g, x0 + (int)(i % w), y0 + (int)(i / w)) < 0)
			complete = false;
	free(cell);
	free(stack);
	return complete;
}

/* ---- the module ---- */

/* A refereed game's state: the bonus-turn bookkeeping and where faults go. */
struct hunters_game {
	struct carc_game *g;
	carc_rules_fault_fn fault;
	void *ctx;
	struct carc_hunters_turns turns;
};

static void *begin(void **cache, const struct carc_record *rec, struct carc_game *g, carc_rules_fault_fn fault,
		   void *ctx)
{
	(void)rec;
	struct hunters_game *h = *cache ? *cache : (*cache = xcalloc(1, sizeof *h));
	h->g = g;
	h->fault = fault;
	h->ctx = ctx;
	carc_hunters_turns_start(&h->turns);
	return h;
}

static void *clone(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g, void *ctx)
{
	const struct hunters_game *from = st;
	struct hunters_game *h = begin(cache, rec, g, from->fault, ctx);
	h->turns = from->turns;
	return h;
}

static bool is_bonus(void *st, const struct carc_move *m)
{
	struct hunters_game *h = st;
	return carc_hunters_is_bonus(&h->turns, h->g, m);
}

static void turn_begin(void *st, const struct carc_move *m, bool bonus, int turn)
{
	struct hunters_game *h = st;
	carc_hunters_turn_begin(&h->turns, h->g, m, bonus, turn, h->fault, h->ctx);
}

static void turn_end(void *st, const struct carc_move *m, bool bonus, int turn, size_t first_event)
{
	struct hunters_game *h = st;
	carc_hunters_turn_end(&h->turns, h->g, m, bonus, turn, first_event);
}

/* The engine's feature_value hook: the values of Hunters and Gatherers in
 * place of the base game's (value), which it does not adjust. */
static int feature_value(struct carc_game *g, uint32_t root, int tiles, bool complete, int value, uint16_t *items)
{
	(void)value;
	return carc_hunters_feature_value(g, root, tiles, complete, items);
}

static const struct carc_engine_hooks engine_hooks = {
	.feature_value = feature_value,
	.closed_complete = forest_complete,
	.closed_classes = 1u << CARC_CLASS_ENCLOSURE,
	.score_final = carc_hunters_score_final, /* river systems and meadows; unfinished rivers and forests: nothing */
};

static const struct carc_play_hooks play_hooks = {
	.check_record = carc_hunters_check_record,
	.begin = begin,
	.free = free,
	.clone = clone,
	.is_bonus = is_bonus,
	.turn_begin = turn_begin,
	.check_deploy = check_deploy,
	.turn_end = turn_end,
	.report_tileset = carc_hunters_report_tileset,
	.gen_bonus_due = carc_hunters_gold_completed,
};

static const struct carc_rules_item river_items[] = {{"fish", "fish", CARC_ATTR_FISH}, {NULL, NULL, 0}};
static const struct carc_rules_item forest_items[] = {
	{"gold", "gold nugget", CARC_ATTR_GOLD}, {"mushrooms", "mushroom", CARC_ATTR_MUSHROOM}, {NULL, NULL, 0}};
static const struct carc_rules_item meadow_items[] = {
	{"deer", "deer", CARC_ATTR_DEER},     {"mammoths", "mammoth", CARC_ATTR_MAMMOTH},
	{"aurochs", "aurochs", CARC_ATTR_AUROCHS}, {"tigers", "tiger", CARC_ATTR_TIGER},
	{"fires", "fire", CARC_ATTR_FIRE},     {"shrines", "shrine", CARC_ATTR_SHRINE},
	{NULL, NULL, 0}};
static const struct carc_rules_item no_items[] = {{NULL, NULL, 0}};

static const struct carc_rules_words words = {
	.source_keys = {
		[CARC_SRC_PLAY_PATH] = "rivers", [CARC_SRC_PLAY_ENCLOSURE] = "forests", [CARC_SRC_PLAY_SITE] = "sites",
		[CARC_SRC_END_PATH] = "rivers", [CARC_SRC_END_ENCLOSURE] = "forests", [CARC_SRC_END_SITE] = "sites",
		[CARC_SRC_AREA] = "meadows", [CARC_SRC_OTHER] = "river_systems", [CARC_SRC_START] = "start",
	},
	.source_names = {
		[CARC_SRC_PLAY_PATH] = "completed rivers", [CARC_SRC_PLAY_ENCLOSURE] = "completed forests",
		[CARC_SRC_PLAY_SITE] = "completed sites", [CARC_SRC_END_PATH] = "rivers at the end",
		[CARC_SRC_END_ENCLOSURE] = "forests at the end", [CARC_SRC_END_SITE] = "sites at the end",
		[CARC_SRC_AREA] = "meadows (hunters)", [CARC_SRC_OTHER] = "river systems (huts)",
		[CARC_SRC_START] = "starting score",
	},
	/* unfinished features never pay, and the meadows' row shows only when
	 * someone scored from it: only these rows always show */
	.shown_sources = 1u << CARC_SRC_PLAY_PATH | 1u << CARC_SRC_PLAY_ENCLOSURE,
	.event_names = {[CARC_EV_RIVER_SYSTEM] = "river-system", [CARC_EV_MEADOW] = "meadow"},
	.item_by_event = {[CARC_EV_RIVER_SYSTEM] = {"fish", "fish"}, [CARC_EV_MEADOW] = {"animal", "animals"}},
	.item_by_class = {
		[CARC_CLASS_PATH] = {"fish", "fish"}, [CARC_CLASS_LAKE] = {"fish", "fish"},
		[CARC_CLASS_ENCLOSURE] = {"mushroom", "mushrooms"}, [CARC_CLASS_SITE] = {"mushroom", "mushrooms"},
		[CARC_CLASS_AREA] = {"mushroom", "mushrooms"},
	},
	.tile = "land tile",
	.feature_items = {
		[CARC_CLASS_PATH] = river_items, [CARC_CLASS_LAKE] = river_items, [CARC_CLASS_ENCLOSURE] = forest_items,
		[CARC_CLASS_AREA] = meadow_items, [CARC_CLASS_SITE] = no_items,
	},
};

const struct carc_ruleset carc_rules_hunters = {
	.id = CARC_RULES_HUNTERS, .name = "hunters", .title = "Hunters and Gatherers",
	.flags = CARC_RS_BONUS_TURNS,
	.tileset = "hunters", .followers = 5, .min_followers = 1, .max_followers = 99, .huts = 2,
	.min_seats = 1, .max_seats = 7, .default_seats = 2,
	.nroles = 4,
	.roles = {
		{"gatherer", {"forest"}, true, false},
		{"fisher", {"river"}, true, false},
		{"hunter", {"meadow"}, false, false},
		{"hut", {"river", "lake"}, false, true},
	},
	.engine = &engine_hooks,
	.play = &play_hooks,
	.words = &words,
};
