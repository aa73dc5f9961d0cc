/*
 * tileset_schema.c - a tile set's document walked key by key: its terrains,
 * kinds, attributes and expansions, its tiles and their features, the
 * stacks, and the top level.
 *
 * The derived tables (which feature covers each edge and half-edge, the edge
 * terrains packed per rotation) are computed here once, so the rules engine
 * never searches a tile's feature list. The format is specified in
 * notation/tileset.md and man carc-tileset(5); the rules it checks are listed
 * there under "Derived rules".
 */
#include "notation/tileset_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The names of enum carc_path_end, in its order. */
static const char *const end_names[] = {"cloister", "city", "junction", "crossroads", "spring", "lake", "volcano"};

/* ---- terrains and kinds ---- */

static void terrain_name(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	if (ts->nterrains == CARC_MAX_TERRAINS) {
		if (!ld->too_many_terrains)
			tileset_fail_word(ld, CARC_E109, n, w, len, "more than %d terrains", CARC_MAX_TERRAINS);
		ld->too_many_terrains = true;
		return;
	}
	if (len > CARC_ID_MAX) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "terrain name '%.*s' is longer than %d characters", (int)len, w,
			  CARC_ID_MAX);
		return;
	}
	if (carc_tileset_terrain(ts, w, len) >= 0) {
		tileset_fail_word(ld, CARC_E108, n, w, len, "terrain '%.*s' is named twice", (int)len, w);
		return;
	}
	memcpy(ts->terrains[ts->nterrains], w, len);
	ts->terrains[ts->nterrains][len] = '\0';
	ts->nterrains++;
}

/* An attribute the set declares (its attributes key): a new name. */
static void attribute_name(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	char word[CARC_ID_MAX + 1] = {0}; /* all of it copied into the set: no stray bytes */
	snprintf(word, sizeof word, "%.*s", (int)(len > CARC_ID_MAX ? CARC_ID_MAX : len), w);
	if (len > CARC_ID_MAX || !tileset_valid_id(word)) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not a valid attribute name (letters, digits and "
			  "_ - + / ., at most %d, not starting with a digit)", (int)len, w, CARC_ID_MAX);
		return;
	}
	static const char *const feature_keys[] = {"kind", "edges", "halves", "borders", "end"};
	if (carc_tileset_attr(ts, w, len) >= 0 ||
	    tileset_name_index(feature_keys, (int)CARC_ARRAY_LEN(feature_keys), word, len) >= 0) {
		tileset_fail_word(ld, CARC_E108, n, w, len, "attribute '%.*s' is named twice (or is a key of a feature, or "
			  "one every tile set knows)", (int)len, w);
		return;
	}
	if (ts->nattrs == CARC_MAX_ATTRS) {
		tileset_fail_word(ld, CARC_E109, n, w, len, "more than %d attributes, the %d every set knows included",
			  CARC_MAX_ATTRS, CARC_ATTR_COUNT);
		return;
	}
	memcpy(ts->attrs[ts->nattrs++], word, sizeof word);
}

static void expansion_name(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	char word[CARC_ID_MAX + 1];
	snprintf(word, sizeof word, "%.*s", (int)(len > CARC_ID_MAX ? CARC_ID_MAX : len), w);
	if (len > CARC_ID_MAX || !tileset_valid_id(word)) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not a valid expansion name (letters, digits and "
			  "_ - + / ., at most %d, not starting with a digit)", (int)len, w, CARC_ID_MAX);
		return;
	}
	if (carc_tileset_expansion(ts, w, len) >= 0) {
		tileset_fail_word(ld, CARC_E108, n, w, len, "expansion '%.*s' is named twice", (int)len, w);
		return;
	}
	if (ts->nexpansions == CARC_MAX_EXPANSIONS) {
		tileset_fail_word(ld, CARC_E109, n, w, len, "more than %d expansions", CARC_MAX_EXPANSIONS);
		return;
	}
	memcpy(ts->expansions[ts->nexpansions++], word, len + 1);
}

static void parse_kinds(struct loader *ld, yaml_node_t *seq)
{
	struct carc_tileset *ts = ld->ts;
	if (seq->type != YAML_SEQUENCE_NODE) {
		tileset_fail(ld, CARC_E103, seq, "kinds must be a list of {name, class, terrain} mappings, not %s", tileset_node_shape(seq));
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
		yaml_node_t *m = tileset_node_at(ld, *it);
		if (m->type != YAML_MAPPING_NODE) {
			tileset_fail(ld, CARC_E103, m, "each kind must be a mapping such as {name: road, class: path, terrain: road}");
			continue;
		}
		if (ts->nkinds == CARC_MAX_KINDS) {
			tileset_fail(ld, CARC_E109, m, "more than %d kinds of feature", CARC_MAX_KINDS);
			return;
		}
		struct carc_kind k = {.klass = 0xff, .terrain = CARC_NO_FEATURE};
		const yaml_node_t *terrain_node = NULL;
		bool named = false, classed = false; /* given, maybe refused */
		struct keys keys = {0, "in a kind"};
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = tileset_node_at(ld, p->key), *vn = tileset_node_at(ld, p->value);
			const char *key = tileset_scalar(kn), *v;
			if (!key) {
				tileset_fail(ld, CARC_E103, kn, "a key must be a word, not %s", tileset_node_shape(kn));
			} else if (!strcmp(key, "name")) {
				if (tileset_key_once(ld, &keys, 0, kn) && (v = tileset_want_scalar(ld, vn, "a kind's name"))) {
					named = true;
					if (!tileset_valid_id(v))
						tileset_fail(ld, CARC_E104, vn, "'%s' is not a valid kind name (letters, digits and _ - + / ., "
						     "at most %d, not starting with a digit)", v, CARC_ID_MAX);
					else if (carc_tileset_kind(ts, v) >= 0)
						tileset_fail(ld, CARC_E108, vn, "kind '%s' is defined twice", v);
					else
						snprintf(k.name, sizeof k.name, "%s", v);
				}
			} else if (!strcmp(key, "class")) {
				classed = true;
				if (tileset_key_once(ld, &keys, 1, kn) && (v = tileset_want_scalar(ld, vn, "a kind's class"))) {
					int c = tileset_name_index(tileset_class_names, CARC_CLASS_COUNT, v, strlen(v));
					if (c < 0)
						tileset_fail(ld, CARC_E104, vn, "'%s' is not a class (path, enclosure, site, area, lake)", v);
					else
						k.klass = (uint8_t)c;
				}
			} else if (!strcmp(key, "terrain")) {
				if (tileset_key_once(ld, &keys, 2, kn) && (v = tileset_want_scalar(ld, vn, "a kind's terrain"))) {
					terrain_node = vn;
					int t = carc_tileset_terrain(ts, v, strlen(v));
					if (t < 0)
						tileset_fail(ld, CARC_E104, vn, "'%s' is not one of the tile set's terrains", v);
					else
						k.terrain = (uint8_t)t;
				}
			} else {
				tileset_fail(ld, CARC_E103, kn, "unknown key '%s' in a kind (name, class, terrain)", key);
			}
		}
		if (!k.name[0] || k.klass == 0xff) {
			if (!named || !classed)
				tileset_fail(ld, CARC_E103, m, "a kind needs a name and a class");
			continue;
		}
		bool centre = k.klass == CARC_CLASS_SITE || k.klass == CARC_CLASS_LAKE;
		if (centre && terrain_node)
			tileset_fail(ld, CARC_E103, terrain_node, "kind '%s' of class %s lies in the centre and has no terrain",
			     k.name, tileset_class_names[k.klass]);
		if (!centre && !terrain_node)
			tileset_fail(ld, CARC_E103, m, "kind '%s' needs the terrain its edges show", k.name);
		/* Edges match by terrain and features join by class: a terrain
		 * shown by kinds of two classes would let a road meet a field. */
		for (int i = 0; i < ts->nkinds && !centre && k.terrain != CARC_NO_FEATURE; i++)
			if (ts->kinds[i].terrain == k.terrain && ts->kinds[i].klass != k.klass) {
				tileset_fail(ld, CARC_E104, terrain_node, "terrain '%s' is already shown by kind '%s' of class %s; "
				     "a terrain belongs to kinds of one class", ts->terrains[k.terrain], ts->kinds[i].name,
				     tileset_class_names[ts->kinds[i].klass]);
				break;
			}
		ts->kinds[ts->nkinds++] = k;
	}
}

/* ---- features ---- */

struct mask_arg {
	uint8_t mask;
	const char *what;
};

static void edge_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct mask_arg *m = arg;
	int e = tileset_name_index(carc_edge_names, 4, w, len);
	if (e < 0) {
		int h = tileset_name_index(carc_half_names, 8, w, len);
		if (h >= 0)
			tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is a half-edge; %s names whole edges (N, E, S or W)",
				  (int)len, w, m->what);
		else
			tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not an edge (N, E, S or W) in %s", (int)len, w,
				  m->what);
		return;
	}
	if (m->mask & (1u << e))
		tileset_fail_word(ld, CARC_E104, n, w, len, "edge %s is named twice in %s", carc_edge_names[e], m->what);
	m->mask |= (uint8_t)(1u << e);
}

static void half_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct mask_arg *m = arg;
	int h = tileset_name_index(carc_half_names, 8, w, len);
	if (h < 0) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not a half-edge (NNW NNE ENE ESE SSE SSW WSW WNW) in %s",
			  (int)len, w, m->what);
		return;
	}
	if (m->mask & (1u << h))
		tileset_fail_word(ld, CARC_E104, n, w, len, "half-edge %s is named twice in %s", carc_half_names[h], m->what);
	m->mask |= (uint8_t)(1u << h);
}

/* What the loader keeps of a feature while its tile is being read. */
struct feature_src {
	const yaml_node_t *node;
	const yaml_node_t *borders; /* the borders value, checked once all edges are known */
};

/* Keys of a feature, numbered for tileset_key_once(); attributes follow. */
enum { FK_KIND, FK_EDGES, FK_HALVES, FK_BORDERS, FK_END, FK_INNER, FK_ATTR };

/* Reads one feature into tile->features[tile->nfeatures]; counts it when
 * it has a kind. */
static void parse_feature(struct loader *ld, struct carc_tile *tile, yaml_node_t *m, struct feature_src *fs)
{
	struct carc_tileset *ts = ld->ts;
	struct carc_feature *f = &tile->features[tile->nfeatures];
	memset(f, 0, sizeof *f);
	f->kind = CARC_NO_FEATURE;
	f->end = CARC_NO_FEATURE;
	f->line = m->start_mark.line + 1;
	fs->node = m;
	fs->borders = NULL;
	const yaml_node_t *edges_node = NULL, *halves_node = NULL, *end_node = NULL;
	struct mask_arg edges = {0, "edges"}, halves = {0, "halves"};
	bool kind_given = false, words_bad = false; /* already reported */

	if (m->type == YAML_SCALAR_NODE) { /* shorthand: "- cloister" */
		int k = carc_tileset_kind(ts, tileset_scalar(m));
		if (k < 0)
			tileset_fail(ld, CARC_E104, m, "'%s' is not one of the tile set's kinds", tileset_scalar(m));
		f->kind = (uint8_t)k;
		kind_given = true;
	} else if (m->type != YAML_MAPPING_NODE) {
		tileset_fail(ld, CARC_E103, m, "each feature must be a mapping such as {kind: road, edges: E W}");
		return;
	} else {
		struct keys keys = {0, "in a feature"};
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = tileset_node_at(ld, p->key), *vn = tileset_node_at(ld, p->value);
			const char *key = tileset_scalar(kn), *v;
			int a;
			long num;
			if (!key) {
				tileset_fail(ld, CARC_E103, kn, "a key must be a word, not %s", tileset_node_shape(kn));
			} else if (!strcmp(key, "kind")) {
				kind_given = true;
				if (tileset_key_once(ld, &keys, FK_KIND, kn) && (v = tileset_want_scalar(ld, vn, "kind"))) {
					int k = carc_tileset_kind(ts, v);
					if (k < 0)
						tileset_fail(ld, CARC_E104, vn, "'%s' is not one of the tile set's kinds", v);
					else
						f->kind = (uint8_t)k;
				}
			} else if (!strcmp(key, "edges")) {
				if (tileset_key_once(ld, &keys, FK_EDGES, kn)) {
					unsigned before = ld->errors;
					edges_node = vn;
					tileset_each_word(ld, vn, "edges", edge_word, &edges);
					words_bad |= ld->errors != before;
				}
			} else if (!strcmp(key, "halves")) {
				if (tileset_key_once(ld, &keys, FK_HALVES, kn)) {
					unsigned before = ld->errors;
					halves_node = vn;
					tileset_each_word(ld, vn, "halves", half_word, &halves);
					words_bad |= ld->errors != before;
				}
			} else if (!strcmp(key, "borders")) {
				if (tileset_key_once(ld, &keys, FK_BORDERS, kn))
					fs->borders = vn;
			} else if (!strcmp(key, "end")) {
				if (tileset_key_once(ld, &keys, FK_END, kn) && (v = tileset_want_scalar(ld, vn, "end"))) {
					end_node = vn;
					int e = tileset_name_index(end_names, (int)CARC_ARRAY_LEN(end_names), v, strlen(v));
					if (e < 0)
						tileset_fail(ld, CARC_E104, vn, "'%s' is not a road or river end "
						     "(cloister, city, junction, crossroads, spring, lake, volcano)", v);
					else
						f->end = (uint8_t)e;
				}
			} else if (!strcmp(key, "inner")) {
				if (tileset_key_once(ld, &keys, FK_INNER, kn))
					tileset_want_bool(ld, vn, "inner", &f->inner);
			} else if ((a = carc_tileset_attr(ld->ts, key, strlen(key))) >= 0) {
				if (tileset_key_once(ld, &keys, FK_ATTR + a, kn) && tileset_want_int(ld, vn, key, 0, 99, &num))
					f->attr[a] = (uint8_t)num;
			} else {
				struct carc_buf own = {0};
				for (int i = CARC_ATTR_COUNT; i < ld->ts->nattrs; i++) {
					carc_buf_adds(&own, ", ");
					carc_buf_adds(&own, ld->ts->attrs[i]);
				}
				tileset_fail(ld, CARC_E103, kn, "unknown key '%s' in a feature (kind, edges, halves, borders, end, inner, "
				     "or an attribute: pennant, fish, gold, deer, mammoth, tiger, aurochs, mushroom, fire, "
				     "shrine, volcano%s; the set's attributes key declares others)", key, carc_buf_cstr(&own));
				carc_buf_free(&own);
			}
		}
	}
	if (f->kind == CARC_NO_FEATURE) {
		if (!kind_given)
			tileset_fail(ld, CARC_E103, m, "a feature needs a kind (one of the tile set's kinds)");
		return;
	}
	const struct carc_kind *k = &ts->kinds[f->kind];
	if (end_node && k->klass != CARC_CLASS_PATH)
		tileset_fail(ld, CARC_E103, end_node, "end says what stops a road or river; a %s (class %s) has none", k->name,
		     tileset_class_names[k->klass]);
	switch ((enum carc_class)k->klass) {
	case CARC_CLASS_PATH:
		if (halves_node)
			tileset_fail(ld, CARC_E103, halves_node, "a %s runs through the middle of its edges and covers no "
			     "half-edges: the features beside it do", k->name);
		if (!edges.mask && !words_bad)
			tileset_fail(ld, CARC_E103, edges_node ? edges_node : m, "a %s needs the edges it leaves by", k->name);
		f->edges = edges.mask;
		break;
	case CARC_CLASS_ENCLOSURE:
		if (!edges.mask && !words_bad)
			tileset_fail(ld, CARC_E103, edges_node ? edges_node : m, "a %s needs the edges it covers", k->name);
		f->edges = edges.mask;
		for (int e = 0; e < 4; e++)
			if (edges.mask & (1u << e))
				f->halves |= (uint8_t)(3u << (2 * e));
		if (halves_node && halves.mask != f->halves)
			tileset_fail(ld, CARC_E105, halves_node, "a %s covers exactly the halves of its edges", k->name);
		break;
	case CARC_CLASS_AREA:
		if (edges_node)
			tileset_fail(ld, CARC_E103, edges_node, "a %s is given by its half-edges (halves), not edges", k->name);
		if (f->inner && halves_node)
			tileset_fail(ld, CARC_E103, halves_node, "an inner %s touches no edge: it covers no half-edges", k->name);
		else if (!halves.mask && !words_bad && !f->inner)
			tileset_fail(ld, CARC_E103, halves_node ? halves_node : m, "a %s needs the half-edges it covers (or inner: "
			     "true, for one that touches no edge)", k->name);
		f->halves = halves.mask;
		for (int e = 0; e < 4; e++)
			if (((halves.mask >> (2 * e)) & 3) == 3)
				f->edges |= (uint8_t)(1u << e);
		break;
	case CARC_CLASS_SITE:
	case CARC_CLASS_LAKE:
		if (edges_node || halves_node)
			tileset_fail(ld, CARC_E103, edges_node ? edges_node : halves_node,
			     "a %s lies in the centre of the tile and covers no edge", k->name);
		break;
	default:
		break;
	}
	if (f->inner && k->klass != CARC_CLASS_AREA)
		tileset_fail(ld, CARC_E103, m, "inner: true is for an area that touches no edge; a %s (class %s) is not one",
		     k->name, tileset_class_names[k->klass]);
	tile->nfeatures++;
}

struct borders_arg {
	struct carc_tile *tile;
	struct carc_feature *f;
};

static void border_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct borders_arg *b = arg;
	int e = tileset_name_index(carc_edge_names, 4, w, len);
	if (e < 0) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not an edge: borders names an edge (N, E, S or W) of "
			  "each city it touches", (int)len, w);
		return;
	}
	uint8_t fi = b->tile->edge_feature[e];
	if (fi == CARC_NO_FEATURE || ld->ts->kinds[b->tile->features[fi].kind].klass != CARC_CLASS_ENCLOSURE) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "tile %s: borders names edge %s, but no city (no feature of class "
			  "enclosure) fills edge %s", b->tile->id, carc_edge_names[e], carc_edge_names[e]);
		return;
	}
	b->f->borders |= (uint16_t)(1u << fi);
}

/* Appends "N E S W"-style words for the bits of mask to buf. */
static void add_names(struct carc_buf *b, const char *const *names, int count, unsigned mask)
{
	bool first = true;
	for (int i = 0; i < count; i++)
		if (mask & (1u << i)) {
			carc_buf_printf(b, "%s%s", first ? "" : " ", names[i]);
			first = false;
		}
}

/* Fills the derived tables of a tile and checks the derived rules: its
 * features cover each edge and half-edge exactly once, the edges line agrees
 * with them, borders names cities. */
static void finish_tile(struct loader *ld, struct carc_tile *t, const yaml_node_t *tn,
			const yaml_node_t *edges_node, bool edges_given, const struct feature_src *fs)
{
	struct carc_tileset *ts = ld->ts;
	memset(t->edge_feature, CARC_NO_FEATURE, sizeof t->edge_feature);
	memset(t->half_feature, CARC_NO_FEATURE, sizeof t->half_feature);
	t->centre_feature = t->inner_feature = CARC_NO_FEATURE;
	/* An area takes an edge only where no road or city crosses it. */
	uint8_t crossed = 0;
	for (int i = 0; i < t->nfeatures; i++)
		if (ts->kinds[t->features[i].kind].klass != CARC_CLASS_AREA)
			crossed |= t->features[i].edges;
	for (int i = 0; i < t->nfeatures; i++)
		if (ts->kinds[t->features[i].kind].klass == CARC_CLASS_AREA)
			t->features[i].edges &= (uint8_t)~crossed;
	for (int i = 0; i < t->nfeatures; i++) {
		struct carc_feature *f = &t->features[i];
		uint8_t klass = ts->kinds[f->kind].klass;
		const char *name = ts->kinds[f->kind].name;
		for (int e = 0; e < 4; e++) {
			if (!(f->edges & (1u << e)))
				continue;
			uint8_t other = t->edge_feature[e];
			if (other != CARC_NO_FEATURE)
				tileset_fail(ld, CARC_E105, fs[i].node, "tile %s: edge %s is covered twice, by the %s on line %u and "
				     "by this %s", t->id, carc_edge_names[e], ts->kinds[t->features[other].kind].name,
				     t->features[other].line, name);
			else
				t->edge_feature[e] = (uint8_t)i;
		}
		for (int h = 0; h < 8; h++) {
			if (!(f->halves & (1u << h)))
				continue;
			uint8_t other = t->half_feature[h];
			if (other != CARC_NO_FEATURE)
				tileset_fail(ld, CARC_E105, fs[i].node, "tile %s: half-edge %s is covered twice, by the %s on line %u "
				     "and by this %s", t->id, carc_half_names[h], ts->kinds[t->features[other].kind].name,
				     t->features[other].line, name);
			else
				t->half_feature[h] = (uint8_t)i;
		}
		if (f->inner && klass == CARC_CLASS_AREA) {
			uint8_t other = t->inner_feature;
			if (other != CARC_NO_FEATURE)
				tileset_fail(ld, CARC_E105, fs[i].node, "tile %s: the %s on line %u is already its inner area; a tile "
				     "has at most one (spot I)", t->id, ts->kinds[t->features[other].kind].name,
				     t->features[other].line);
			else
				t->inner_feature = (uint8_t)i;
		}
		if (klass == CARC_CLASS_SITE || klass == CARC_CLASS_LAKE) {
			uint8_t other = t->centre_feature;
			if (other != CARC_NO_FEATURE)
				tileset_fail(ld, CARC_E105, fs[i].node, "tile %s: the %s on line %u already fills the centre; a tile "
				     "has at most one feature there", t->id, ts->kinds[t->features[other].kind].name,
				     t->features[other].line);
			else
				t->centre_feature = (uint8_t)i;
		}
	}
	unsigned bare = 0;
	for (int h = 0; h < 8; h++)
		if (t->half_feature[h] == CARC_NO_FEATURE)
			bare |= 1u << h;
	if (bare) {
		struct carc_buf b = {0};
		add_names(&b, carc_half_names, 8, bare);
		tileset_fail(ld, CARC_E105, tn, "tile %s: no feature covers half-edge%s %s", t->id, (bare & (bare - 1)) ? "s" : "",
		     carc_buf_cstr(&b));
		carc_buf_free(&b);
	}
	uint8_t derived[4];
	bool all_edges = true;
	for (int e = 0; e < 4; e++) {
		uint8_t fi = t->edge_feature[e];
		if (fi == CARC_NO_FEATURE) {
			all_edges = false;
			uint8_t a = t->half_feature[2 * e], b = t->half_feature[2 * e + 1];
			if (a != CARC_NO_FEATURE && b != CARC_NO_FEATURE) /* two areas, nothing between them */
				tileset_fail(ld, CARC_E105, fs[b].node, "tile %s: the halves of edge %s belong to two features (lines "
				     "%u and %u) and no road or other path crosses the edge between them", t->id,
				     carc_edge_names[e], t->features[a].line, t->features[b].line);
			continue;
		}
		derived[e] = ts->kinds[t->features[fi].kind].terrain;
		if (derived[e] == CARC_NO_FEATURE) /* its kind was refused a terrain, already reported */
			all_edges = false;
	}
	if (all_edges) {
		bool same = true;
		for (int e = 0; e < 4; e++)
			same &= !edges_given || t->edge_terrain[e] == derived[e];
		if (!same)
			tileset_fail(ld, CARC_E106, edges_node, "tile %s: edges says '%s %s %s %s', but its features make the edges "
			     "%s %s %s %s (N E S W)", t->id, ts->terrains[t->edge_terrain[0]],
			     ts->terrains[t->edge_terrain[1]], ts->terrains[t->edge_terrain[2]],
			     ts->terrains[t->edge_terrain[3]], ts->terrains[derived[0]], ts->terrains[derived[1]],
			     ts->terrains[derived[2]], ts->terrains[derived[3]]);
		memcpy(t->edge_terrain, derived, 4);
	}
	for (int i = 0; i < t->nfeatures; i++) {
		if (!fs[i].borders)
			continue;
		struct carc_feature *f = &t->features[i];
		if (ts->kinds[f->kind].klass != CARC_CLASS_AREA) {
			tileset_fail(ld, CARC_E103, fs[i].borders, "only a field (a feature of class area) has borders; this is a %s",
			     ts->kinds[f->kind].name);
			continue;
		}
		struct borders_arg b = {t, f};
		tileset_each_word(ld, fs[i].borders, "borders", border_word, &b);
	}
	for (int r = 0; r < 4; r++) {
		uint32_t packed = 0;
		for (int e = 0; e < 4; e++)
			packed |= (uint32_t)carc_tile_edge(t, r, e) << (8 * e);
		t->rot_edges[r] = packed;
	}
}

struct terrain_arg {
	struct carc_tile *tile;
	int count;
	bool ok;
};

static void edge_terrain(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct terrain_arg *t = arg;
	int i = carc_tileset_terrain(ld->ts, w, len);
	if (i < 0) {
		tileset_fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not one of the tile set's terrains", (int)len, w);
		t->ok = false;
	} else if (t->count < 4) {
		t->tile->edge_terrain[t->count] = (uint8_t)i;
	}
	t->count++;
}

/* Keys of a tile, numbered for tileset_key_once(). */
enum { TK_ID, TK_COUNT, TK_START, TK_BONUS, TK_NAME, TK_EDGES, TK_FEATURES, TK_EXPANSION, TK_REPLACES, TK_LAST };

/* Reads one tile type into ts->tiles[ts->ntiles]; start is set to the node of
 * its start key, if any. */
static void parse_tile(struct loader *ld, yaml_node_t *m, const yaml_node_t **start)
{
	struct carc_tileset *ts = ld->ts;
	*start = NULL;
	if (m->type != YAML_MAPPING_NODE) {
		tileset_fail(ld, CARC_E103, m, "each tile must be a mapping with id, count, edges and features, not %s",
		     tileset_node_shape(m));
		return;
	}
	struct carc_tile *t = &ts->tiles[ts->ntiles];
	memset(t, 0, sizeof *t);
	t->line = m->start_mark.line + 1;
	yaml_node_t *edges_node = NULL, *features_node = NULL;
	bool id_given = false;
	struct keys keys = {0, "in a tile"};
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = tileset_node_at(ld, p->key), *vn = tileset_node_at(ld, p->value);
		const char *key = tileset_scalar(kn), *v;
		if (!key) {
			tileset_fail(ld, CARC_E103, kn, "a key must be a word, not %s", tileset_node_shape(kn));
		} else if (!strcmp(key, "id")) {
			if (tileset_key_once(ld, &keys, TK_ID, kn) && (v = tileset_want_scalar(ld, vn, "id"))) {
				id_given = true;
				if (!tileset_valid_id(v))
					tileset_fail(ld, CARC_E104, vn, "'%s' is not a valid tile id (letters, digits and _ - + / ., "
					     "at most %d, not starting with a digit)", v, CARC_ID_MAX);
				else if (carc_tileset_find(ts, v, strlen(v)) >= 0)
					tileset_fail(ld, CARC_E108, vn, "tile id '%s' is used twice (first on line %u)", v,
					     ts->tiles[carc_tileset_find(ts, v, strlen(v))].line);
				else
					snprintf(t->id, sizeof t->id, "%s", v);
			}
		} else if (!strcmp(key, "count")) {
			if (tileset_key_once(ld, &keys, TK_COUNT, kn) && (v = tileset_want_scalar(ld, vn, "count"))) {
				char *end;
				errno = 0;
				long num = strtol(v, &end, 10);
				if (*v == '\0' || *v == ' ' || *end != '\0' || num < 1)
					tileset_fail(ld, CARC_E103, vn, "count must be a whole number of tiles, 1 or more, not '%s'", v);
				else if (errno || num > CARC_MAX_TILES)
					tileset_fail(ld, CARC_E109, vn, "count %s is more than a tile set may hold (%d tiles)", v,
					     CARC_MAX_TILES);
				else
					t->count = (uint16_t)num;
			}
		} else if (!strcmp(key, "start")) {
			if (tileset_key_once(ld, &keys, TK_START, kn)) {
				*start = vn;
				bool yes = false;
				tileset_want_bool(ld, vn, "start", &yes);
				t->start = yes;
				ld->start_claims += yes;
			}
		} else if (!strcmp(key, "bonus")) {
			if (tileset_key_once(ld, &keys, TK_BONUS, kn))
				tileset_want_bool(ld, vn, "bonus", &t->bonus);
		} else if (!strcmp(key, "name")) {
			if (tileset_key_once(ld, &keys, TK_NAME, kn) && (v = tileset_want_scalar(ld, vn, "name")))
				t->name = xstrdup(v);
		} else if (!strcmp(key, "expansion")) {
			if (tileset_key_once(ld, &keys, TK_EXPANSION, kn) && (v = tileset_want_scalar(ld, vn, "expansion"))) {
				int x = carc_tileset_expansion(ts, v, strlen(v));
				if (x < 0) {
					struct carc_buf names = {0};
					for (int i = 0; i < ts->nexpansions; i++)
						carc_buf_printf(&names, "%s%s", i ? ", " : "", ts->expansions[i]);
					tileset_fail(ld, CARC_E104, vn, "'%s' is not an expansion this set names (%s)", v,
					     ts->nexpansions ? carc_buf_cstr(&names) : "it names none: list them in expansions "
					     "at the top level");
					carc_buf_free(&names);
				} else
					t->expansion = (uint8_t)(x + 1);
			}
		} else if (!strcmp(key, "replaces")) {
			if (tileset_key_once(ld, &keys, TK_REPLACES, kn) && tileset_want_scalar(ld, vn, "replaces"))
				ld->replaces[ts->ntiles] = vn;
		} else if (!strcmp(key, "last")) {
			if (tileset_key_once(ld, &keys, TK_LAST, kn) && tileset_want_bool(ld, vn, "last", &t->last) && t->last)
				ld->lasts[ts->ntiles] = vn;
		} else if (!strcmp(key, "edges")) {
			if (tileset_key_once(ld, &keys, TK_EDGES, kn))
				edges_node = vn;
		} else if (!strcmp(key, "features")) {
			if (tileset_key_once(ld, &keys, TK_FEATURES, kn))
				features_node = vn;
		} else {
			tileset_fail(ld, CARC_E103, kn, "unknown key '%s' in a tile (id, count, start, bonus, last, expansion, "
			     "replaces, name, edges, features)", key);
		}
	}
	if (!t->id[0]) {
		if (!id_given)
			tileset_fail(ld, CARC_E103, m, "a tile needs an id");
		free(t->name);
		return;
	}
	if (!(keys.seen & (1u << TK_COUNT)))
		tileset_fail(ld, CARC_E103, m, "tile %s needs a count", t->id);
	t->box_count = t->count;
	t->order = (uint16_t)ts->ntiles;
	t->replaces = -1;
	if (!features_node || features_node->type != YAML_SEQUENCE_NODE) {
		if (features_node)
			tileset_fail(ld, CARC_E103, features_node, "tile %s: features must be a list, not %s", t->id,
			     tileset_node_shape(features_node));
		else
			tileset_fail(ld, CARC_E103, m, "tile %s needs a list of features", t->id);
		ts->ntiles++;
		return;
	}
	struct feature_src fs[CARC_MAX_FEATURES];
	unsigned before = ld->errors;
	for (yaml_node_item_t *it = features_node->data.sequence.items.start;
	     it < features_node->data.sequence.items.top && !ld->stop; it++) {
		if (t->nfeatures == CARC_MAX_FEATURES) {
			tileset_fail(ld, CARC_E109, tileset_node_at(ld, *it), "tile %s has more than %d features", t->id, CARC_MAX_FEATURES);
			break;
		}
		parse_feature(ld, t, tileset_node_at(ld, *it), &fs[t->nfeatures]);
	}
	/* Coverage is checked only when every feature was read: a feature
	 * that was refused would leave follow-on gaps. */
	bool features_read = ld->errors == before;
	bool edges_given = false;
	if (edges_node) {
		struct terrain_arg ta = {t, 0, true};
		tileset_each_word(ld, edges_node, "edges", edge_terrain, &ta);
		if (ta.ok && ta.count != 4)
			tileset_fail(ld, CARC_E103, edges_node, "tile %s: edges lists %d terrain%s; it needs 4, in the order N E S W",
			     t->id, ta.count, ta.count == 1 ? "" : "s");
		edges_given = ta.ok && ta.count == 4;
	}
	if (features_read)
		finish_tile(ld, t, m, edges_node, edges_given, fs);
	ts->ntiles++;
}

/* The start tile, the last one and the tiles of expansions, once every type
 * was read: all types are still in file order, tiles[i].order == i. */
static void check_stacks(struct loader *ld, const yaml_node_t *tiles, const yaml_node_t **starts)
{
	struct carc_tileset *ts = ld->ts;
	int start = -1, last = -1;
	long all = 0;
	/* replaced[i]: tiles of type i that expansions take out of play, all of
	 * them together, so that no mix of expansions leaves it fewer than none */
	long replaced[CARC_MAX_TILE_TYPES] = {0};
	for (int i = 0; i < ts->ntiles; i++) {
		struct carc_tile *t = &ts->tiles[i];
		all += t->count;
		if (t->start) {
			if (t->bonus)
				tileset_fail(ld, CARC_E107, starts[i], "tile %s: the start tile cannot be a bonus tile", t->id);
			else if (t->expansion)
				tileset_fail(ld, CARC_E107, starts[i], "tile %s: the start tile cannot belong to an expansion "
				     "(%s)", t->id, ts->expansions[t->expansion - 1]);
			else if (start >= 0)
				tileset_fail(ld, CARC_E107, starts[i], "tile %s is marked start: true, and so is tile %s (line %u): "
				     "exactly one tile type holds the start tile", t->id, ts->tiles[start].id,
				     ts->tiles[start].line);
			else
				start = i;
		}
		if (t->last) {
			if (t->start || t->bonus)
				tileset_fail(ld, CARC_E107, ld->lasts[i], "tile %s: the tile drawn last cannot be the %s tile", t->id,
				     t->start ? "start" : "a bonus");
			else if (last >= 0)
				tileset_fail(ld, CARC_E107, ld->lasts[i], "tile %s is marked last: true, and so is tile %s (line %u): "
				     "at most one tile type is drawn last", t->id, ts->tiles[last].id,
				     ts->tiles[last].line);
			else
				last = i;
		}
		const yaml_node_t *rn = ld->replaces[i];
		if (!rn)
			continue;
		const char *v = tileset_scalar(rn);
		int r = carc_tileset_find(ts, v, strlen(v));
		if (!t->expansion)
			tileset_fail(ld, CARC_E103, rn, "tile %s replaces %s but belongs to no expansion: only a tile of an "
			     "expansion takes another's place", t->id, v);
		else if (r < 0)
			tileset_fail(ld, CARC_E104, rn, "tile %s replaces '%s', which is no tile type of this set", t->id, v);
		else if (ts->tiles[r].expansion)
			tileset_fail(ld, CARC_E104, rn, "tile %s replaces %s, which belongs to an expansion itself: only a "
			     "tile that is always in play can be replaced", t->id, v);
		else if (ts->tiles[r].bonus != t->bonus)
			tileset_fail(ld, CARC_E104, rn, "tile %s replaces %s: one is a bonus tile and the other not", t->id, v);
		else if (memcmp(ts->tiles[r].edge_terrain, t->edge_terrain, sizeof t->edge_terrain))
			/* it is the other tile with the expansion's part printed
			 * on it, and plays as that tile without the expansion */
			tileset_fail(ld, CARC_E104, rn, "tile %s replaces %s, whose edges are not its own: a tile that takes "
				     "another's place is that tile with the expansion's part added", t->id, v);
		else if ((replaced[r] += t->count) > ts->tiles[r].count - ts->tiles[r].start)
			tileset_fail(ld, CARC_E104, rn, "tile %s makes %ld tiles of %s replaced, which has only %d%s", t->id,
			     replaced[r], v, ts->tiles[r].count - ts->tiles[r].start,
			     ts->tiles[r].start ? " besides the start tile" : "");
		else
			t->replaces = (int16_t)r;
	}
	/* a set of an expansion's tiles that join a base set's supply (joins:
	 * true) may leave the start tile to that set */
	if (start < 0 && ld->start_claims == 0 && !ts->joins)
		tileset_fail(ld, CARC_E107, tiles, "no tile type is marked start: true; exactly one must hold the start tile "
			     "(or the set says joins: true)");
	if (all > CARC_MAX_TILES)
		tileset_fail(ld, CARC_E109, tiles, "%ld tiles in all; a tile set may hold at most %d", all, CARC_MAX_TILES);
}

/* Keys of the top level, numbered for tileset_key_once(). */
enum { TOP_NAME, TOP_TITLE, TOP_RULES, TOP_NOTE, TOP_PROVISIONAL, TOP_TERRAINS, TOP_KINDS, TOP_TILES,
       TOP_EXPANSIONS, TOP_ATTRIBUTES, TOP_JOINS };

void tileset_parse_top(struct loader *ld, yaml_node_t *root)
{
	struct carc_tileset *ts = ld->ts;
	if (!root) {
		tileset_fail(ld, CARC_E103, NULL, "the file is empty: a tile set is a mapping with name, terrains, kinds and tiles");
		return;
	}
	if (root->type != YAML_MAPPING_NODE) {
		tileset_fail(ld, CARC_E103, root, "the file holds %s; a tile set is a mapping with name, terrains, kinds and tiles",
		     tileset_node_shape(root));
		return;
	}
	yaml_node_t *terrains = NULL, *kinds = NULL, *tiles = NULL, *expansions = NULL, *attributes = NULL;
	struct keys keys = {0, "at the top level"};
	char **text_keys[] = {[TOP_NAME] = &ts->name, [TOP_TITLE] = &ts->title, [TOP_RULES] = &ts->rules,
			      [TOP_NOTE] = &ts->note};
	static const char *const top_names[] = {"name", "title", "rules", "note", "provisional",
						"terrains", "kinds", "tiles", "expansions", "attributes", "joins"};
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = tileset_node_at(ld, p->key), *vn = tileset_node_at(ld, p->value);
		const char *key = tileset_scalar(kn), *v;
		int k = key ? tileset_name_index(top_names, (int)CARC_ARRAY_LEN(top_names), key, strlen(key)) : -1;
		if (!key) {
			tileset_fail(ld, CARC_E103, kn, "a key must be a word, not %s", tileset_node_shape(kn));
		} else if (k < 0) {
			tileset_fail(ld, CARC_E103, kn, "unknown key '%s' (name, title, rules, note, provisional, joins, "
			     "expansions, attributes, terrains, kinds, tiles)", key);
		} else if (!tileset_key_once(ld, &keys, k, kn)) {
			continue;
		} else if (k <= TOP_NOTE) {
			if ((v = tileset_want_scalar(ld, vn, key)))
				*text_keys[k] = xstrdup(v);
		} else if (k == TOP_PROVISIONAL) {
			tileset_want_bool(ld, vn, "provisional", &ts->provisional);
		} else if (k == TOP_JOINS) {
			tileset_want_bool(ld, vn, "joins", &ts->joins);
		} else if (k == TOP_TERRAINS) {
			terrains = vn;
		} else if (k == TOP_KINDS) {
			kinds = vn;
		} else if (k == TOP_EXPANSIONS) {
			expansions = vn;
		} else if (k == TOP_ATTRIBUTES) {
			attributes = vn;
		} else {
			tiles = vn;
		}
	}
	if (!(keys.seen & (1u << TOP_NAME)))
		tileset_fail(ld, CARC_E103, root, "the tile set needs a name");
	if (!terrains || !kinds || !tiles) {
		const char *missing[3];
		int nm = 0;
		if (!terrains)
			missing[nm++] = "terrains";
		if (!kinds)
			missing[nm++] = "kinds";
		if (!tiles)
			missing[nm++] = "tiles";
		tileset_fail(ld, CARC_E103, root, "the tile set needs %s%s%s%s%s", missing[0], nm == 3 ? ", " : nm == 2 ? " and " : "",
		     nm > 1 ? missing[1] : "", nm == 3 ? " and " : "", nm == 3 ? missing[2] : "");
		return;
	}
	tileset_each_word(ld, terrains, "terrains", terrain_name, ts);
	if (expansions)
		tileset_each_word(ld, expansions, "expansions", expansion_name, ts);
	tileset_known_attrs(ts);
	if (attributes)
		tileset_each_word(ld, attributes, "attributes", attribute_name, ts);
	parse_kinds(ld, kinds);
	if (tiles->type != YAML_SEQUENCE_NODE) {
		tileset_fail(ld, CARC_E103, tiles, "tiles must be a list, not %s", tileset_node_shape(tiles));
		return;
	}
	size_t n = (size_t)(tiles->data.sequence.items.top - tiles->data.sequence.items.start);
	if (n > CARC_MAX_TILE_TYPES) {
		tileset_fail(ld, CARC_E109, tileset_node_at(ld, tiles->data.sequence.items.start[CARC_MAX_TILE_TYPES]),
		     "more than %d tile types", CARC_MAX_TILE_TYPES);
		n = CARC_MAX_TILE_TYPES;
	}
	ts->tiles = xcalloc(n ? n : 1, sizeof *ts->tiles);
	const yaml_node_t **starts = xcalloc(n ? n : 1, sizeof *starts);
	ld->replaces = xcalloc(n ? n : 1, sizeof *ld->replaces);
	ld->lasts = xcalloc(n ? n : 1, sizeof *ld->lasts);
	for (size_t i = 0; i < n && !ld->stop; i++)
		parse_tile(ld, tileset_node_at(ld, tiles->data.sequence.items.start[i]), &starts[ts->ntiles]);
	if (!ld->stop)
		check_stacks(ld, tiles, starts);
	free(starts);
	free(ld->replaces);
	free(ld->lasts);
	if (!ld->stop)
		tileset_select_tiles(ts, 0);
}
