/*
 * tileset_play.c - a game's own tile set: the tiles in play (the types of
 * the expansions played, less those they replace) and tile sets joined (an
 * expansion's own tiles before a base set's).
 */
#include "notation/tileset_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Tile sets get a new serial when loaded and whenever their tiles change
 * (carc_tileset_play), so that what a game derived from them is redone. */
static _Atomic unsigned long serials;

unsigned long tileset_new_serial(void) { return ++serials; }

/* Orders tile types: those in play first, each group in file order. */
static int by_play_order(const void *a, const void *b)
{
	const struct carc_tile *x = a, *y = b;
	/* set aside: count 0 (see select_tiles) */
	int ox = x->count == 0, oy = y->count == 0;
	if (ox != oy)
		return ox - oy;
	return (int)x->order - (int)y->order;
}

/* Puts in play the types of the expansions in mask and those of no
 * expansion, less the tiles the played ones replace; sets the others aside
 * after them. Types set aside are marked by a count of 0 while sorting. */
void tileset_select_tiles(struct carc_tileset *ts, unsigned mask)
{
	int all = ts->ntiles + ts->nextra;
	for (int i = 0; i < all; i++) /* back to file order */
		while (ts->tiles[i].order != i) {
			struct carc_tile tmp = ts->tiles[ts->tiles[i].order];
			ts->tiles[ts->tiles[i].order] = ts->tiles[i];
			ts->tiles[i] = tmp;
		}
	for (int i = 0; i < all; i++) {
		struct carc_tile *t = &ts->tiles[i];
		t->count = !t->expansion || (mask & (1u << (t->expansion - 1))) ? t->box_count : 0;
	}
	for (int i = 0; i < all; i++) {
		struct carc_tile *t = &ts->tiles[i];
		if (t->count && t->replaces >= 0)
			ts->tiles[t->replaces].count -= t->count;
	}
	qsort(ts->tiles, (size_t)all, sizeof *ts->tiles, by_play_order);
	ts->ntiles = 0;
	while (ts->ntiles < all && ts->tiles[ts->ntiles].count)
		ts->ntiles++;
	ts->nextra = all - ts->ntiles;
	for (int i = ts->ntiles; i < all; i++)
		ts->tiles[i].count = ts->tiles[i].box_count;
	ts->playing = mask;
	ts->start_tile = -1;
	ts->last_tile = -1;
	ts->total = ts->bonus_total = 0;
	memset(ts->by_letter, 0, sizeof ts->by_letter);
	memset(ts->by_pair, 0, sizeof ts->by_pair);
	for (int i = 0; i < ts->ntiles; i++) {
		struct carc_tile *t = &ts->tiles[i];
		if (t->bonus)
			ts->bonus_total += t->count;
		else
			ts->total += t->count;
		if (t->start && ts->start_tile < 0 && !t->bonus)
			ts->start_tile = i;
		if (t->last && ts->last_tile < 0)
			ts->last_tile = i;
		if (t->id[1] == '\0' && (unsigned char)t->id[0] < 128)
			ts->by_letter[(unsigned char)t->id[0]] = (uint8_t)(i + 1);
		else if (t->id[1] && t->id[2] == '\0' && (unsigned char)t->id[0] < 128 && (unsigned char)t->id[1] < 128)
			ts->by_pair[(unsigned char)t->id[0]][(unsigned char)t->id[1]] = (uint8_t)(i + 1);
	}
}

void carc_tileset_play(struct carc_tileset *ts, const char *words, size_t len)
{
	unsigned mask = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && (words[i] == ' ' || words[i] == ',' || words[i] == '\t'))
			i++;
		size_t j = i;
		while (j < len && words[j] != ' ' && words[j] != ',' && words[j] != '\t')
			j++;
		int x = j > i ? carc_tileset_expansion(ts, words + i, j - i) : -1;
		if (x >= 0)
			mask |= 1u << x;
		i = j;
	}
	tileset_select_tiles(ts, mask);
	ts->serial = tileset_new_serial();
}

/* ---- tile sets joined: a game's own set ---- */

/* Index of name in names (count of them), added at the end when absent;
 * -1 when there is no room for it (max). */
static int merge_name(char (*names)[CARC_ID_MAX + 1], int *count, int max, const char *name)
{
	for (int i = 0; i < *count; i++)
		if (!strcmp(names[i], name))
			return i;
	if (*count == max)
		return -1;
	memcpy(names[*count], name, CARC_ID_MAX + 1);
	return (*count)++;
}

/* Copies one tile type of from into to (types in file order), its kinds,
 * terrains and expansion renamed by the maps; base: the index of from's
 * first type in to. */
static void copy_tile(struct carc_tile *t, const struct carc_tile *from, const int *kind_map,
		      const int *terrain_map, const int *expansion_map, const int *attr_map, int base, bool keep_start)
{
	*t = *from;
	for (int f = 0; f < t->nfeatures; f++) { /* the set's own attributes renumbered */
		memset(t->features[f].attr + CARC_ATTR_COUNT, 0, CARC_MAX_ATTRS - CARC_ATTR_COUNT);
		for (int a = CARC_ATTR_COUNT; a < CARC_MAX_ATTRS; a++)
			if (from->features[f].attr[a])
				t->features[f].attr[attr_map[a]] = from->features[f].attr[a];
	}
	t->name = from->name ? xstrdup(from->name) : NULL;
	t->count = t->box_count;
	t->start = from->start && keep_start;
	t->order = (uint16_t)(base + from->order);
	t->replaces = (int16_t)(from->replaces >= 0 ? base + from->replaces : -1);
	t->expansion = (uint8_t)(from->expansion ? expansion_map[from->expansion - 1] + 1 : 0);
	for (int f = 0; f < t->nfeatures; f++)
		t->features[f].kind = (uint8_t)kind_map[from->features[f].kind];
	for (int e = 0; e < 4; e++)
		t->edge_terrain[e] = (uint8_t)terrain_map[from->edge_terrain[e]];
	for (int r = 0; r < 4; r++) {
		uint32_t packed = 0;
		for (int e = 0; e < 4; e++)
			packed |= (uint32_t)carc_tile_edge(t, r, e) << (8 * e);
		t->rot_edges[r] = packed;
	}
}

/* Adds the types of from (in file order) to ts after those it has, its
 * kinds, terrains and expansions merged by name; false when they do not
 * fit. The start tile is the first set's that has one. */
static bool add_tiles(struct carc_tileset *ts, const struct carc_tileset *from, bool keep_start)
{
	int kind_map[CARC_MAX_KINDS], terrain_map[CARC_MAX_TERRAINS], expansion_map[CARC_MAX_EXPANSIONS];
	int attr_map[CARC_MAX_ATTRS];
	if (!ts->nattrs)
		tileset_known_attrs(ts);
	for (int i = 0; i < CARC_MAX_ATTRS; i++)
		attr_map[i] = i < CARC_ATTR_COUNT ? i : 0; /* (a slot no feature fills) */
	for (int i = CARC_ATTR_COUNT; i < from->nattrs; i++)
		if ((attr_map[i] = merge_name(ts->attrs, &ts->nattrs, CARC_MAX_ATTRS, from->attrs[i])) < 0)
			return false;
	for (int i = 0; i < from->nterrains; i++)
		if ((terrain_map[i] = merge_name(ts->terrains, &ts->nterrains, CARC_MAX_TERRAINS, from->terrains[i])) < 0)
			return false;
	for (int i = 0; i < from->nexpansions; i++)
		if ((expansion_map[i] = merge_name(ts->expansions, &ts->nexpansions, CARC_MAX_EXPANSIONS,
						   from->expansions[i])) < 0)
			return false;
	for (int i = 0; i < from->nkinds; i++) {
		const struct carc_kind *k = &from->kinds[i];
		int j = carc_tileset_kind(ts, k->name);
		if (j < 0) {
			if (ts->nkinds == CARC_MAX_KINDS)
				return false;
			j = ts->nkinds++;
			ts->kinds[j] = *k;
			ts->kinds[j].terrain = (uint8_t)(k->terrain == CARC_NO_FEATURE ? CARC_NO_FEATURE
											 : terrain_map[k->terrain]);
		} else if (ts->kinds[j].klass != k->klass) {
			return false;
		}
		kind_map[i] = j;
	}
	int have = ts->ntiles + ts->nextra, more = from->ntiles + from->nextra;
	if (have + more > CARC_MAX_TILE_TYPES)
		return false;
	/* one id, one tile: a second tile of the same id could never be named */
	for (int i = 0; i < more; i++)
		if (carc_tileset_find(ts, from->tiles[i].id, strlen(from->tiles[i].id)) >= 0)
			return false;
	ts->tiles = xrealloc(ts->tiles, (size_t)(have + more) * sizeof *ts->tiles);
	for (int i = 0; i < more; i++) {
		const struct carc_tile *t = &from->tiles[i];
		copy_tile(&ts->tiles[have + t->order], t, kind_map, terrain_map, expansion_map, attr_map, have,
			  keep_start);
	}
	ts->ntiles = have + more;
	ts->nextra = 0;
	return true;
}

struct carc_tileset *carc_tileset_join(const struct carc_tileset *const *sets, int n)
{
	struct carc_tileset *ts = xcalloc(1, sizeof *ts);
	struct carc_buf name = {0};
	for (int i = 0; i < n; i++)
		carc_buf_printf(&name, "%s%s", i ? "+" : "", sets[i]->name);
	ts->name = xstrdup(carc_buf_cstr(&name));
	carc_buf_free(&name);
	const struct carc_tileset *last = sets[n - 1]; /* the base set: its title, rules and note */
	ts->title = last->title ? xstrdup(last->title) : NULL;
	ts->rules = last->rules ? xstrdup(last->rules) : NULL;
	ts->note = last->note ? xstrdup(last->note) : NULL;
	bool ok = true, started = false;
	long all = 0;
	for (int i = 0; i < n && ok; i++) {
		/* the start tile: the first set's that has one (a set of an
		 * expansion's tiles that joins the base supply has none) */
		bool keep = !started && sets[i]->start_tile >= 0;
		started |= keep;
		ok = add_tiles(ts, sets[i], keep);
		ts->provisional |= sets[i]->provisional;
	}
	for (int i = 0; i < ts->ntiles && ok; i++)
		all += ts->tiles[i].box_count;
	if (!ok || all > CARC_MAX_TILES) {
		carc_tileset_free(ts);
		return NULL;
	}
	tileset_select_tiles(ts, 0);
	ts->serial = tileset_new_serial();
	return ts;
}
