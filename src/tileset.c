/*
 * tileset.c - loading and checking tile sets (YAML, through libyaml).
 *
 * The whole file is loaded as a libyaml document, then walked. Every problem
 * is reported with the position of the node it concerns, and the walk goes on
 * so that one run shows all of them; the tile set is returned only when there
 * were none. Derived tables (which feature covers each edge and half-edge, the
 * packed edge terrains per rotation) are computed here once, so the rules
 * engine never has to search a tile's feature list.
 */
#include "tileset.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

const char *const carc_edge_names[4] = {"N", "E", "S", "W"};
const char *const carc_half_names[8] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"};

static const char *const class_names[CARC_CLASS_COUNT] = {"path", "enclosure", "site", "area", "lake"};
static const char *const attr_names[CARC_ATTR_COUNT] = {
	"pennant", "fish", "gold", "deer", "mammoth", "tiger", "aurochs",
	"mushroom", "fire", "shrine", "volcano"};

const char *carc_class_name(enum carc_class c) { return class_names[c]; }
const char *carc_attr_name(enum carc_attr a) { return attr_names[a]; }

struct loader {
	yaml_document_t doc;
	struct carc_src src;
	struct carc_diag_sink *sink;
	struct carc_tileset *ts;
	unsigned errors;
};

static void fail(struct loader *ld, enum carc_code code, const yaml_node_t *node, const char *fmt, ...)
	CARC_PRINTF(4, 5);

static void fail(struct loader *ld, enum carc_code code, const yaml_node_t *node, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t off = node ? node->start_mark.index : 0;
	size_t len = node ? node->end_mark.index - node->start_mark.index : 0;
	if (node && node->type != YAML_SCALAR_NODE)
		len = 1;
	ld->errors++;
	carc_diag_report(ld->sink, code, &ld->src, off, len, "%s", msg);
}

static yaml_node_t *node_at(struct loader *ld, int id)
{
	return yaml_document_get_node(&ld->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Expects a scalar; reports and returns NULL otherwise. */
static const char *want_scalar(struct loader *ld, const yaml_node_t *n, const char *what)
{
	const char *s = scalar(n);
	if (!s)
		fail(ld, CARC_E103, n, "%s must be a single value", what);
	return s;
}

static bool want_int(struct loader *ld, const yaml_node_t *n, const char *what, long lo, long hi, long *out)
{
	const char *s = want_scalar(ld, n, what);
	if (!s)
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno || v < lo || v > hi) {
		fail(ld, CARC_E103, n, "%s must be a whole number from %ld to %ld, not '%s'", what, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

static bool want_bool(struct loader *ld, const yaml_node_t *n, const char *what, bool *out)
{
	const char *s = want_scalar(ld, n, what);
	if (!s)
		return false;
	if (!strcmp(s, "true") || !strcmp(s, "yes")) {
		*out = true;
		return true;
	}
	if (!strcmp(s, "false") || !strcmp(s, "no")) {
		*out = false;
		return true;
	}
	fail(ld, CARC_E103, n, "%s must be true or false, not '%s'", what, s);
	return false;
}

static bool valid_id(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CARC_ID_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '+' || c == '/' || c == '.'))
			return false;
	}
	return !(s[0] >= '0' && s[0] <= '9') && s[0] != '-' && s[0] != '+';
}

/* Splits a scalar (or a sequence of scalars) into words, calling fn on each. */
typedef bool (*word_fn)(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg);

static void each_word(struct loader *ld, const yaml_node_t *n, const char *what, word_fn fn, void *arg)
{
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
			yaml_node_t *item = node_at(ld, *it);
			const char *s = want_scalar(ld, item, what);
			if (s)
				fn(ld, item, s, strlen(s), arg);
		}
		return;
	}
	const char *s = want_scalar(ld, n, what);
	if (!s)
		return;
	while (*s) {
		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		size_t len = strcspn(s, " ,\t");
		if (len)
			fn(ld, n, s, len, arg);
		s += len;
	}
}

static int name_index(const char *const *names, int count, const char *w, size_t len)
{
	for (int i = 0; i < count; i++)
		if (carc_slice_eq(w, len, names[i]))
			return i;
	return -1;
}

struct mask_arg {
	uint8_t mask;
	const char *what;
};

static bool edge_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct mask_arg *m = arg;
	int e = name_index(carc_edge_names, 4, w, len);
	if (e < 0) {
		fail(ld, CARC_E104, n, "'%.*s' is not an edge (N, E, S or W) in %s", (int)len, w, m->what);
		return false;
	}
	if (m->mask & (1u << e))
		fail(ld, CARC_E104, n, "edge %s is named twice in %s", carc_edge_names[e], m->what);
	m->mask |= (uint8_t)(1u << e);
	return true;
}

static bool half_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct mask_arg *m = arg;
	int h = name_index(carc_half_names, 8, w, len);
	if (h < 0) {
		fail(ld, CARC_E104, n, "'%.*s' is not a half-edge (NNW NNE ENE ESE SSE SSW WSW WNW) in %s",
		     (int)len, w, m->what);
		return false;
	}
	if (m->mask & (1u << h))
		fail(ld, CARC_E104, n, "half-edge %s is named twice in %s", carc_half_names[h], m->what);
	m->mask |= (uint8_t)(1u << h);
	return true;
}

struct terrain_arg {
	struct carc_tile *tile;
	int count;
	bool ok;
};

static bool terrain_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct terrain_arg *t = arg;
	int i = carc_tileset_terrain(ld->ts, w, len);
	if (i < 0) {
		fail(ld, CARC_E104, n, "'%.*s' is not one of the tile set's terrains", (int)len, w);
		t->ok = false;
	} else if (t->count < 4) {
		t->tile->edge_terrain[t->count] = (uint8_t)i;
	}
	t->count++;
	return true;
}

static bool string_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	if (ts->nterrains == CARC_MAX_TERRAINS) {
		fail(ld, CARC_E109, n, "more than %d terrains", CARC_MAX_TERRAINS);
		return false;
	}
	if (len > CARC_ID_MAX || len == 0) {
		fail(ld, CARC_E104, n, "terrain name '%.*s' is longer than %d characters", (int)len, w, CARC_ID_MAX);
		return false;
	}
	if (carc_tileset_terrain(ts, w, len) >= 0) {
		fail(ld, CARC_E104, n, "terrain '%.*s' is named twice", (int)len, w);
		return false;
	}
	memcpy(ts->terrains[ts->nterrains], w, len);
	ts->terrains[ts->nterrains][len] = '\0';
	ts->nterrains++;
	return true;
}

static void parse_kinds(struct loader *ld, yaml_node_t *seq)
{
	struct carc_tileset *ts = ld->ts;
	if (seq->type != YAML_SEQUENCE_NODE) {
		fail(ld, CARC_E103, seq, "kinds must be a list");
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
		yaml_node_t *m = node_at(ld, *it);
		if (m->type != YAML_MAPPING_NODE) {
			fail(ld, CARC_E103, m, "each kind must be a mapping with name, class and terrain");
			continue;
		}
		if (ts->nkinds == CARC_MAX_KINDS) {
			fail(ld, CARC_E109, m, "more than %d kinds of feature", CARC_MAX_KINDS);
			return;
		}
		struct carc_kind k = {.klass = 0xff, .terrain = CARC_NO_FEATURE};
		const yaml_node_t *terrain_node = NULL;
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
			const char *key = scalar(kn), *v;
			if (!key) {
				fail(ld, CARC_E103, kn, "a key must be a word");
			} else if (!strcmp(key, "name")) {
				if ((v = want_scalar(ld, vn, "a kind's name"))) {
					if (!valid_id(v))
						fail(ld, CARC_E104, vn, "'%s' is not a valid kind name", v);
					else if (carc_tileset_kind(ts, v) >= 0)
						fail(ld, CARC_E108, vn, "kind '%s' is defined twice", v);
					else
						snprintf(k.name, sizeof k.name, "%s", v);
				}
			} else if (!strcmp(key, "class")) {
				if ((v = want_scalar(ld, vn, "a kind's class"))) {
					int c = name_index(class_names, CARC_CLASS_COUNT, v, strlen(v));
					if (c < 0)
						fail(ld, CARC_E104, vn, "'%s' is not a class (path, enclosure, site, area, lake)", v);
					else
						k.klass = (uint8_t)c;
				}
			} else if (!strcmp(key, "terrain")) {
				terrain_node = vn;
				if ((v = want_scalar(ld, vn, "a kind's terrain"))) {
					int t = carc_tileset_terrain(ts, v, strlen(v));
					if (t < 0)
						fail(ld, CARC_E104, vn, "'%s' is not one of the tile set's terrains", v);
					else
						k.terrain = (uint8_t)t;
				}
			} else {
				fail(ld, CARC_E103, kn, "unknown key '%s' in a kind (name, class, terrain)", key);
			}
		}
		if (!k.name[0] || k.klass == 0xff) {
			fail(ld, CARC_E103, m, "a kind needs a name and a class");
			continue;
		}
		bool centre = k.klass == CARC_CLASS_SITE || k.klass == CARC_CLASS_LAKE;
		if (centre && terrain_node)
			fail(ld, CARC_E103, terrain_node, "kind '%s' of class %s lies in the centre and has no terrain",
			     k.name, class_names[k.klass]);
		if (!centre && k.terrain == CARC_NO_FEATURE && !terrain_node)
			fail(ld, CARC_E103, m, "kind '%s' needs the terrain its edges show", k.name);
		ts->kinds[ts->nkinds++] = k;
	}
}

static void parse_feature(struct loader *ld, struct carc_tile *tile, yaml_node_t *m,
			  const yaml_node_t **borders_node)
{
	struct carc_tileset *ts = ld->ts;
	struct carc_feature *f = &tile->features[tile->nfeatures];
	memset(f, 0, sizeof *f);
	f->kind = CARC_NO_FEATURE;
	f->end = CARC_NO_FEATURE;
	f->line = m->start_mark.line + 1;
	*borders_node = NULL;
	const yaml_node_t *edges_node = NULL, *halves_node = NULL;
	struct mask_arg edges = {0, "edges"}, halves = {0, "halves"};

	if (m->type == YAML_SCALAR_NODE) { /* shorthand: "- cloister" */
		int k = carc_tileset_kind(ts, scalar(m));
		if (k < 0)
			fail(ld, CARC_E104, m, "'%s' is not one of the tile set's kinds", scalar(m));
		f->kind = (uint8_t)k;
	} else if (m->type != YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, m, "each feature must be a mapping such as {kind: road, edges: E W}");
		return;
	} else {
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
			const char *key = scalar(kn), *v;
			int a;
			long num;
			if (!key) {
				fail(ld, CARC_E103, kn, "a key must be a word");
			} else if (!strcmp(key, "kind")) {
				if ((v = want_scalar(ld, vn, "kind"))) {
					int k = carc_tileset_kind(ts, v);
					if (k < 0)
						fail(ld, CARC_E104, vn, "'%s' is not one of the tile set's kinds", v);
					else
						f->kind = (uint8_t)k;
				}
			} else if (!strcmp(key, "edges")) {
				edges_node = vn;
				each_word(ld, vn, "edges", edge_word, &edges);
			} else if (!strcmp(key, "halves")) {
				halves_node = vn;
				each_word(ld, vn, "halves", half_word, &halves);
			} else if (!strcmp(key, "borders")) {
				*borders_node = vn;
			} else if (!strcmp(key, "end")) {
				static const char *const ends[] = {"cloister", "city", "junction", "crossroads",
								   "spring", "lake", "volcano"};
				if ((v = want_scalar(ld, vn, "end"))) {
					int e = name_index(ends, (int)CARC_ARRAY_LEN(ends), v, strlen(v));
					if (e < 0)
						fail(ld, CARC_E104, vn, "'%s' is not a road or river end "
						     "(cloister, city, junction, crossroads, spring, lake, volcano)", v);
					else
						f->end = (uint8_t)e;
				}
			} else if ((a = name_index(attr_names, CARC_ATTR_COUNT, key, strlen(key))) >= 0) {
				if (want_int(ld, vn, key, 0, 99, &num))
					f->attr[a] = (uint8_t)num;
			} else {
				fail(ld, CARC_E103, kn, "unknown key '%s' in a feature", key);
			}
		}
	}
	if (f->kind == CARC_NO_FEATURE) {
		if (m->type == YAML_MAPPING_NODE)
			fail(ld, CARC_E103, m, "a feature needs a kind");
		return;
	}
	const struct carc_kind *k = &ts->kinds[f->kind];
	switch ((enum carc_class)k->klass) {
	case CARC_CLASS_PATH:
		if (halves_node)
			fail(ld, CARC_E103, halves_node, "a %s runs through the middle of its edges and covers no "
			     "half-edges: the fields beside it do", k->name);
		if (!edges.mask)
			fail(ld, CARC_E103, edges_node ? edges_node : m, "a %s needs the edges it leaves by", k->name);
		f->edges = edges.mask;
		break;
	case CARC_CLASS_ENCLOSURE:
		if (!edges.mask)
			fail(ld, CARC_E103, edges_node ? edges_node : m, "a %s needs the edges it covers", k->name);
		f->edges = edges.mask;
		for (int e = 0; e < 4; e++)
			if (edges.mask & (1u << e))
				f->halves |= (uint8_t)(3u << (2 * e));
		if (halves_node && halves.mask != f->halves)
			fail(ld, CARC_E105, halves_node, "a %s covers exactly the halves of its edges", k->name);
		break;
	case CARC_CLASS_AREA:
		if (edges_node)
			fail(ld, CARC_E103, edges_node, "a %s is given by its half-edges (halves), not edges", k->name);
		if (!halves.mask)
			fail(ld, CARC_E103, halves_node ? halves_node : m, "a %s needs the half-edges it covers", k->name);
		f->halves = halves.mask;
		for (int e = 0; e < 4; e++)
			if (((halves.mask >> (2 * e)) & 3) == 3)
				f->edges |= (uint8_t)(1u << e);
		break;
	case CARC_CLASS_SITE:
	case CARC_CLASS_LAKE:
		if (edges_node || halves_node)
			fail(ld, CARC_E103, edges_node ? edges_node : halves_node,
			     "a %s lies in the centre of the tile and covers no edge", k->name);
		break;
	default:
		break;
	}
	tile->nfeatures++;
}

struct borders_arg {
	struct carc_tile *tile;
	struct carc_feature *f;
};

static bool border_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct borders_arg *b = arg;
	int e = name_index(carc_edge_names, 4, w, len);
	if (e < 0) {
		fail(ld, CARC_E104, n, "'%.*s' is not an edge: borders names the edge of each bordering feature",
		     (int)len, w);
		return false;
	}
	uint8_t fi = b->tile->edge_feature[e];
	if (fi == CARC_NO_FEATURE || ld->ts->kinds[b->tile->features[fi].kind].klass != CARC_CLASS_ENCLOSURE) {
		fail(ld, CARC_E104, n, "borders %s: no city-like feature crosses edge %s", carc_edge_names[e],
		     carc_edge_names[e]);
		return false;
	}
	b->f->borders |= (uint16_t)(1u << fi);
	return true;
}

/* Fills the derived tables of a tile and checks that its features cover each
 * edge and half-edge exactly once. */
static void finish_tile(struct loader *ld, struct carc_tile *t, yaml_node_t *tn, yaml_node_t *edges_node,
			bool edges_given, const yaml_node_t *const *borders)
{
	struct carc_tileset *ts = ld->ts;
	memset(t->edge_feature, CARC_NO_FEATURE, sizeof t->edge_feature);
	memset(t->half_feature, CARC_NO_FEATURE, sizeof t->half_feature);
	t->centre_feature = CARC_NO_FEATURE;
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
		for (int e = 0; e < 4; e++) {
			if (!(f->edges & (1u << e)))
				continue;
			if (t->edge_feature[e] != CARC_NO_FEATURE)
				fail(ld, CARC_E105, tn, "tile %s: edge %s is covered by two features (lines %u and %u)",
				     t->id, carc_edge_names[e], t->features[t->edge_feature[e]].line, f->line);
			t->edge_feature[e] = (uint8_t)i;
		}
		for (int h = 0; h < 8; h++) {
			if (!(f->halves & (1u << h)))
				continue;
			if (t->half_feature[h] != CARC_NO_FEATURE)
				fail(ld, CARC_E105, tn, "tile %s: half-edge %s is covered by two features (lines %u and %u)",
				     t->id, carc_half_names[h], t->features[t->half_feature[h]].line, f->line);
			t->half_feature[h] = (uint8_t)i;
		}
		if (klass == CARC_CLASS_SITE || klass == CARC_CLASS_LAKE) {
			if (t->centre_feature != CARC_NO_FEATURE)
				fail(ld, CARC_E105, tn, "tile %s has two features in its centre", t->id);
			t->centre_feature = (uint8_t)i;
		}
	}
	for (int e = 0; e < 4; e++) {
		if (t->edge_feature[e] == CARC_NO_FEATURE) {
			fail(ld, CARC_E105, tn, "tile %s: no feature covers edge %s", t->id, carc_edge_names[e]);
			continue;
		}
		uint8_t terrain = ts->kinds[t->features[t->edge_feature[e]].kind].terrain;
		if (edges_given && t->edge_terrain[e] != terrain)
			fail(ld, CARC_E106, edges_node, "tile %s: edge %s is %s by its features but %s in edges",
			     t->id, carc_edge_names[e], ts->terrains[terrain], ts->terrains[t->edge_terrain[e]]);
		t->edge_terrain[e] = terrain;
	}
	for (int h = 0; h < 8; h++)
		if (t->half_feature[h] == CARC_NO_FEATURE)
			fail(ld, CARC_E105, tn, "tile %s: no feature covers half-edge %s", t->id, carc_half_names[h]);
	for (int i = 0; i < t->nfeatures; i++) {
		if (!borders[i])
			continue;
		struct carc_feature *f = &t->features[i];
		if (ts->kinds[f->kind].klass != CARC_CLASS_AREA) {
			fail(ld, CARC_E103, borders[i], "only a field-like feature borders others");
			continue;
		}
		struct borders_arg b = {t, f};
		each_word(ld, borders[i], "borders", border_word, &b);
	}
	for (int r = 0; r < 4; r++) {
		uint32_t packed = 0;
		for (int e = 0; e < 4; e++)
			packed |= (uint32_t)carc_tile_edge(t, r, e) << (8 * e);
		t->rot_edges[r] = packed;
	}
}

static void parse_tile(struct loader *ld, yaml_node_t *m)
{
	struct carc_tileset *ts = ld->ts;
	if (m->type != YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, m, "each tile must be a mapping with id, count, edges and features");
		return;
	}
	if (ts->ntiles == CARC_MAX_TILE_TYPES) {
		fail(ld, CARC_E109, m, "more than %d tile types", CARC_MAX_TILE_TYPES);
		return;
	}
	struct carc_tile *t = &ts->tiles[ts->ntiles];
	memset(t, 0, sizeof *t);
	t->line = m->start_mark.line + 1;
	yaml_node_t *edges_node = NULL, *features_node = NULL;
	bool have_count = false;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
		const char *key = scalar(kn), *v;
		long num;
		if (!key) {
			fail(ld, CARC_E103, kn, "a key must be a word");
		} else if (!strcmp(key, "id")) {
			if ((v = want_scalar(ld, vn, "id"))) {
				if (!valid_id(v))
					fail(ld, CARC_E104, vn, "'%s' is not a valid tile id (letters, digits and _ - + / ., "
					     "at most %d, not starting with a digit)", v, CARC_ID_MAX);
				else if (carc_tileset_find(ts, v, strlen(v)) >= 0)
					fail(ld, CARC_E108, vn, "tile id '%s' is used twice", v);
				else
					snprintf(t->id, sizeof t->id, "%s", v);
			}
		} else if (!strcmp(key, "count")) {
			if (want_int(ld, vn, "count", 1, CARC_MAX_TILES, &num)) {
				t->count = (uint16_t)num;
				have_count = true;
			}
		} else if (!strcmp(key, "start")) {
			want_bool(ld, vn, "start", &t->start);
		} else if (!strcmp(key, "bonus")) {
			want_bool(ld, vn, "bonus", &t->bonus);
		} else if (!strcmp(key, "name")) {
			if ((v = want_scalar(ld, vn, "name"))) {
				free(t->name);
				t->name = xstrdup(v);
			}
		} else if (!strcmp(key, "edges")) {
			edges_node = vn;
		} else if (!strcmp(key, "features")) {
			features_node = vn;
		} else {
			fail(ld, CARC_E103, kn, "unknown key '%s' in a tile", key);
		}
	}
	if (!t->id[0]) {
		fail(ld, CARC_E103, m, "a tile needs an id");
		free(t->name);
		return;
	}
	if (!have_count)
		fail(ld, CARC_E103, m, "tile %s needs a count", t->id);
	if (!features_node || features_node->type != YAML_SEQUENCE_NODE) {
		fail(ld, CARC_E103, features_node ? features_node : m, "tile %s needs a list of features", t->id);
		ts->ntiles++;
		return;
	}
	const yaml_node_t *borders[CARC_MAX_FEATURES] = {0};
	for (yaml_node_item_t *it = features_node->data.sequence.items.start;
	     it < features_node->data.sequence.items.top; it++) {
		if (t->nfeatures == CARC_MAX_FEATURES) {
			fail(ld, CARC_E109, features_node, "tile %s has more than %d features", t->id, CARC_MAX_FEATURES);
			break;
		}
		uint8_t before = t->nfeatures;
		const yaml_node_t *b = NULL;
		parse_feature(ld, t, node_at(ld, *it), &b);
		if (t->nfeatures > before)
			borders[before] = b;
	}
	bool edges_given = false;
	if (edges_node) {
		struct terrain_arg ta = {t, 0, true};
		each_word(ld, edges_node, "edges", terrain_word, &ta);
		if (ta.count != 4)
			fail(ld, CARC_E103, edges_node, "tile %s: edges lists %d terrains, not 4 (N E S W)", t->id, ta.count);
		edges_given = ta.ok && ta.count == 4;
	}
	finish_tile(ld, t, m, edges_node, edges_given, borders);
	ts->ntiles++;
}

static void parse_top(struct loader *ld, yaml_node_t *root)
{
	struct carc_tileset *ts = ld->ts;
	if (!root || root->type != YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, root, "a tile set is a mapping with name, terrains, kinds and tiles");
		return;
	}
	yaml_node_t *terrains = NULL, *kinds = NULL, *tiles = NULL;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
		const char *key = scalar(kn), *v;
		if (!key) {
			fail(ld, CARC_E103, kn, "a key must be a word");
		} else if (!strcmp(key, "name")) {
			if ((v = want_scalar(ld, vn, "name")))
				ts->name = xstrdup(v);
		} else if (!strcmp(key, "title")) {
			if ((v = want_scalar(ld, vn, "title")))
				ts->title = xstrdup(v);
		} else if (!strcmp(key, "rules")) {
			if ((v = want_scalar(ld, vn, "rules")))
				ts->rules = xstrdup(v);
		} else if (!strcmp(key, "note")) {
			if ((v = want_scalar(ld, vn, "note")))
				ts->note = xstrdup(v);
		} else if (!strcmp(key, "provisional")) {
			want_bool(ld, vn, "provisional", &ts->provisional);
		} else if (!strcmp(key, "terrains")) {
			terrains = vn;
		} else if (!strcmp(key, "kinds")) {
			kinds = vn;
		} else if (!strcmp(key, "tiles")) {
			tiles = vn;
		} else {
			fail(ld, CARC_E103, kn, "unknown key '%s' (name, title, rules, note, provisional, terrains, "
			     "kinds, tiles)", key);
		}
	}
	if (!ts->name)
		fail(ld, CARC_E103, root, "the tile set needs a name");
	if (!terrains || !kinds || !tiles) {
		fail(ld, CARC_E103, root, "the tile set needs terrains, kinds and tiles");
		return;
	}
	each_word(ld, terrains, "terrains", string_word, ts);
	parse_kinds(ld, kinds);
	if (tiles->type != YAML_SEQUENCE_NODE) {
		fail(ld, CARC_E103, tiles, "tiles must be a list");
		return;
	}
	size_t n = (size_t)(tiles->data.sequence.items.top - tiles->data.sequence.items.start);
	ts->tiles = xcalloc(n ? n : 1, sizeof *ts->tiles);
	for (yaml_node_item_t *it = tiles->data.sequence.items.start; it < tiles->data.sequence.items.top; it++)
		parse_tile(ld, node_at(ld, *it));

	ts->start_tile = -1;
	int starts = 0;
	long total = 0, bonus = 0;
	for (int i = 0; i < ts->ntiles; i++) {
		struct carc_tile *t = &ts->tiles[i];
		if (t->bonus)
			bonus += t->count;
		else
			total += t->count;
		if (t->start) {
			starts++;
			if (t->bonus)
				fail(ld, CARC_E107, root, "the start tile %s cannot be a bonus tile", t->id);
			ts->start_tile = i;
		}
		if (t->id[1] == '\0' && (unsigned char)t->id[0] < 128)
			ts->by_letter[(unsigned char)t->id[0]] = (uint8_t)(i + 1 > 255 ? 0 : i + 1);
	}
	if (starts == 0)
		fail(ld, CARC_E107, tiles, "no tile type is marked start: true");
	else if (starts > 1)
		fail(ld, CARC_E107, tiles, "%d tile types are marked start: true; exactly one must be", starts);
	if (total + bonus > CARC_MAX_TILES)
		fail(ld, CARC_E109, tiles, "%ld tiles in all; at most %d are allowed", total + bonus, CARC_MAX_TILES);
	ts->total = (int)total;
	ts->bonus_total = (int)bonus;
}

struct carc_tileset *carc_tileset_parse(const char *text, size_t len, const char *name,
					struct carc_diag_sink *sink)
{
	struct loader ld = {.sink = sink};
	ld.src = (struct carc_src){name, text, len, 1};
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		carc_diag_report(sink, CARC_E102, NULL, 0, 0, "%s: cannot start the YAML parser", name);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &ld.doc)) {
		size_t off = parser.problem_mark.index;
		carc_diag_report(sink, CARC_E102, &ld.src, off, 1, "%s%s%s", parser.problem ? parser.problem : "YAML error",
				 parser.context ? " " : "", parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return NULL;
	}
	yaml_parser_delete(&parser);

	static _Atomic unsigned long serials;
	ld.ts = xcalloc(1, sizeof *ld.ts);
	ld.ts->serial = ++serials;
	ld.ts->source = xstrndup(text, len);
	ld.ts->source_len = len;
	parse_top(&ld, yaml_document_get_root_node(&ld.doc));
	yaml_document_delete(&ld.doc);
	if (ld.errors) {
		carc_tileset_free(ld.ts);
		return NULL;
	}
	return ld.ts;
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct carc_buf b = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		carc_buf_add(&b, chunk, n);
		if (b.len > (64u << 20))
			break;
	}
	bool bad = ferror(f) || b.len > (64u << 20);
	fclose(f);
	if (bad) {
		carc_buf_free(&b);
		errno = bad ? EFBIG : errno;
		return NULL;
	}
	carc_buf_cstr(&b);
	*len = b.len;
	return b.data;
}

struct carc_tileset *carc_tileset_load(const char *name_or_path, struct carc_diag_sink *sink,
				       const struct carc_src *src, size_t off, size_t len)
{
	size_t text_len;
	const char *text = carc_bundled_text(name_or_path, &text_len);
	if (text)
		return carc_tileset_parse(text, text_len, name_or_path, sink);
	char *data = read_file(name_or_path, &text_len);
	if (!data) {
		struct carc_buf names = {0};
		for (size_t i = 0; i < carc_bundled_count(); i++)
			carc_buf_printf(&names, "%s%s", i ? ", " : "", carc_bundled_name(i));
		carc_diag_report(sink, CARC_E101, src, off, len,
				 "tile set '%s' is neither bundled (%s) nor a readable file: %s",
				 name_or_path, carc_buf_cstr(&names), strerror(errno));
		carc_buf_free(&names);
		return NULL;
	}
	struct carc_tileset *ts = carc_tileset_parse(data, text_len, name_or_path, sink);
	free(data);
	return ts;
}

void carc_tileset_free(struct carc_tileset *ts)
{
	if (!ts)
		return;
	for (int i = 0; i < ts->ntiles; i++)
		free(ts->tiles[i].name);
	free(ts->tiles);
	free(ts->name);
	free(ts->title);
	free(ts->rules);
	free(ts->note);
	free(ts->source);
	free(ts);
}

int carc_tileset_find(const struct carc_tileset *ts, const char *id, size_t len)
{
	if (len == 1 && (unsigned char)id[0] < 128 && ts->by_letter[(unsigned char)id[0]])
		return ts->by_letter[(unsigned char)id[0]] - 1;
	for (int i = 0; i < ts->ntiles; i++)
		if (carc_slice_eq(id, len, ts->tiles[i].id))
			return i;
	return -1;
}

int carc_tileset_kind(const struct carc_tileset *ts, const char *name)
{
	for (int i = 0; i < ts->nkinds; i++)
		if (!strcmp(ts->kinds[i].name, name))
			return i;
	return -1;
}

int carc_tileset_terrain(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int i = 0; i < ts->nterrains; i++)
		if (carc_slice_eq(name, len, ts->terrains[i]))
			return i;
	return -1;
}

struct cache_entry {
	char *name;
	struct carc_tileset *ts;
};

struct carc_tileset_cache {
	struct cache_entry *entries;
	size_t count;
};

struct carc_tileset_cache *carc_tileset_cache_new(void)
{
	return xcalloc(1, sizeof(struct carc_tileset_cache));
}

const struct carc_tileset *carc_tileset_cache_get(struct carc_tileset_cache *c, const char *name_or_path,
						  struct carc_diag_sink *sink, const struct carc_src *src,
						  size_t off, size_t len)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].name, name_or_path))
			return c->entries[i].ts;
	struct carc_tileset *ts = carc_tileset_load(name_or_path, sink, src, off, len);
	if (!ts)
		return NULL;
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){xstrdup(name_or_path), ts};
	return ts;
}

void carc_tileset_cache_free(struct carc_tileset_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->count; i++) {
		free(c->entries[i].name);
		carc_tileset_free(c->entries[i].ts);
	}
	free(c->entries);
	free(c);
}
