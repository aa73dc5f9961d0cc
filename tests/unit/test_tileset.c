/*
 * test_tileset.c - tile sets: the bundled base set and the loader (tileset*.c).
 *
 * Every record ever written depends on the base set: a wrong edge, a missing
 * pennant or a field that forgets which city it borders changes scores
 * silently, and a tile turned the wrong way changes what every rotation in a
 * record means. So the base set is proved three ways: by the totals the
 * rule book's distribution implies (72 tiles, 10 pennants, 6 cloisters, 115
 * field, 94 road and 79 city edges, each tile's edges and half-edges covered
 * exactly once); tile by tile against the fact table in
 * ../shared/reference/base-tiles.yaml (orientation included); and, up to
 * rotation, against JCloisterZone's basic.xml beside it. The rotation
 * helpers every placement goes through are checked in every rotation. Then
 * the loader: for each tile-set code E101-E109 a set of malformed inputs,
 * each of which must be refused with that code at the right line and column
 * and nothing else (the byte checks, the YAML checks, the schema and every
 * derived rule), plus hostile input that must not crash or hang. Positions
 * are asserted, not just codes, because a message that points at the wrong
 * place is a wrong message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "notation/tileset.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* ---- a sink that keeps what was reported ---- */

#define MAX_SEEN 128

struct seen_diag {
	enum carc_code code;
	unsigned line, col; /* 0 when there is no position */
	char message[600];
};

struct seen {
	int n;
	struct seen_diag d[MAX_SEEN];
};

static void keep(void *ctx, const struct carc_diag *d)
{
	struct seen *s = ctx;
	if (s->n == MAX_SEEN)
		return;
	struct seen_diag *k = &s->d[s->n++];
	k->code = d->code;
	k->line = k->col = 0;
	if (d->src)
		carc_src_position(d->src, d->off, &k->line, &k->col);
	snprintf(k->message, sizeof k->message, "%s", d->message);
}

static void print_seen(const struct seen *s)
{
	for (int i = 0; i < s->n; i++)
		print_message("  %s at %u:%u: %s\n", carc_code_str(s->d[i].code), s->d[i].line, s->d[i].col,
			      s->d[i].message);
}

/* Parses text; the seen diagnostics are left in *s. */
static struct carc_tileset *parse(const char *text, size_t len, struct seen *s)
{
	memset(s, 0, sizeof *s);
	struct carc_diag_sink sink = {keep, s};
	struct carc_tileset *ts = carc_tileset_parse(text, len, "test.yaml", &sink);
	carc_diag_free(&sink);
	return ts;
}

static struct carc_tileset *load_base(void)
{
	struct seen s;
	memset(&s, 0, sizeof s);
	struct carc_diag_sink sink = {keep, &s};
	struct carc_tileset *ts = carc_tileset_load("base", &sink, NULL, 0, 0);
	print_seen(&s);
	assert_non_null(ts);
	carc_diag_free(&sink);
	return ts;
}

static const struct carc_tile *tile(const struct carc_tileset *ts, const char *id)
{
	int i = carc_tileset_find(ts, id, strlen(id));
	assert_true(i >= 0);
	return &ts->tiles[i];
}

static int kind_of(const struct carc_tileset *ts, const struct carc_tile *t, int f)
{
	return ts->kinds[t->features[f].kind].klass;
}

/* ---- the base set: totals and coverage ---- */

static void test_tileset_base_totals(void **state)
{
	(void)state;
	struct carc_tileset *ts = load_base();
	assert_string_equal(ts->name, "base");
	assert_int_equal(ts->ntiles, 24);
	for (int i = 0; i < 24; i++) {
		char id[2] = {(char)('A' + i), 0};
		assert_string_equal(ts->tiles[i].id, id); /* A to X, in order */
		assert_false(ts->tiles[i].bonus);
	}
	assert_int_equal(ts->total, 72);
	assert_int_equal(ts->bonus_total, 0);
	assert_false(ts->provisional);
	assert_string_equal(ts->tiles[ts->start_tile].id, "D");
	assert_int_equal(ts->tiles[ts->start_tile].count, 4);

	int field = carc_tileset_terrain(ts, "field", 5), road = carc_tileset_terrain(ts, "road", 4),
	    city = carc_tileset_terrain(ts, "city", 4);
	assert_true(field >= 0 && road >= 0 && city >= 0);
	int edges[CARC_MAX_TERRAINS] = {0}, pennants = 0, cloisters = 0, starts = 0;
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		starts += t->start;
		for (int e = 0; e < 4; e++)
			edges[t->edge_terrain[e]] += t->count;
		for (int f = 0; f < t->nfeatures; f++) {
			pennants += t->count * t->features[f].attr[CARC_ATTR_PENNANT];
			if (kind_of(ts, t, f) == CARC_CLASS_SITE)
				cloisters += t->count;
		}
	}
	assert_int_equal(starts, 1);
	assert_int_equal(pennants, 10);
	assert_int_equal(cloisters, 6);
	assert_int_equal(edges[field], 115);
	assert_int_equal(edges[road], 94);
	assert_int_equal(edges[city], 79);
	assert_int_equal(edges[field] + edges[road] + edges[city], 4 * 72);
	carc_tileset_free(ts);
}

/* Recomputes coverage from the features' own masks, not from the loader's
 * derived tables, so that the two are checked against each other. */
static void test_tileset_base_covers_each_edge_and_half_once(void **state)
{
	(void)state;
	struct carc_tileset *ts = load_base();
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		int edge_cover[4] = {0}, half_cover[8] = {0}, centre = 0;
		for (int f = 0; f < t->nfeatures; f++) {
			const struct carc_feature *ft = &t->features[f];
			int klass = kind_of(ts, t, f);
			for (int e = 0; e < 4; e++)
				if (ft->edges & (1u << e)) {
					edge_cover[e]++;
					assert_int_equal(t->edge_feature[e], f);
					assert_int_equal(t->edge_terrain[e], ts->kinds[ft->kind].terrain);
				}
			for (int h = 0; h < 8; h++)
				if (ft->halves & (1u << h)) {
					half_cover[h]++;
					assert_int_equal(t->half_feature[h], f);
				}
			if (klass == CARC_CLASS_PATH)
				assert_int_equal(ft->halves, 0); /* a road lies between halves */
			if (klass == CARC_CLASS_ENCLOSURE)
				for (int e = 0; e < 4; e++) /* a city takes both halves of its edges */
					assert_int_equal((ft->halves >> (2 * e)) & 3, (ft->edges >> e) & 1 ? 3 : 0);
			if (klass == CARC_CLASS_SITE) {
				centre++;
				assert_int_equal(t->centre_feature, f);
				assert_int_equal(ft->edges | ft->halves, 0);
			}
			if (ft->borders) {
				assert_int_equal(klass, CARC_CLASS_AREA);
				for (int b = 0; b < t->nfeatures; b++)
					if (ft->borders & (1u << b))
						assert_int_equal(kind_of(ts, t, b), CARC_CLASS_ENCLOSURE);
			}
		}
		for (int e = 0; e < 4; e++) {
			if (edge_cover[e] != 1)
				print_message("tile %s edge %s covered %d times\n", t->id, carc_edge_names[e], edge_cover[e]);
			assert_int_equal(edge_cover[e], 1);
		}
		for (int h = 0; h < 8; h++) {
			if (half_cover[h] != 1)
				print_message("tile %s half %s covered %d times\n", t->id, carc_half_names[h], half_cover[h]);
			assert_int_equal(half_cover[h], 1);
		}
		assert_true(centre <= 1);
		if (!centre)
			assert_int_equal(t->centre_feature, CARC_NO_FEATURE);
	}
	carc_tileset_free(ts);
}

/* A few tiles whose pictured orientation records depend on, as the issue
 * states them: D has its city north and its road west-east, V its road from
 * the south edge to the west edge. */
static void test_tileset_base_pictured_orientation(void **state)
{
	(void)state;
	struct carc_tileset *ts = load_base();
	int field = carc_tileset_terrain(ts, "field", 5), road = carc_tileset_terrain(ts, "road", 4),
	    city = carc_tileset_terrain(ts, "city", 4);
	const struct carc_tile *d = tile(ts, "D"), *v = tile(ts, "V");
	const uint8_t d_edges[4] = {(uint8_t)city, (uint8_t)road, (uint8_t)field, (uint8_t)road};
	const uint8_t v_edges[4] = {(uint8_t)field, (uint8_t)field, (uint8_t)road, (uint8_t)road};
	assert_memory_equal(d->edge_terrain, d_edges, 4);
	assert_memory_equal(v->edge_terrain, v_edges, 4);
	/* D's road is one feature crossing E and W; the field north of it
	 * borders the city, the one south of it does not */
	assert_int_equal(d->edge_feature[CARC_E], d->edge_feature[CARC_W]);
	const struct carc_feature *north_field = &d->features[d->half_feature[2]]; /* ENE */
	const struct carc_feature *south_field = &d->features[d->half_feature[4]]; /* SSE */
	assert_int_equal(north_field->borders, 1u << d->edge_feature[CARC_N]);
	assert_int_equal(south_field->borders, 0);
	assert_int_equal(d->half_feature[2], d->half_feature[7]); /* ENE and WNW: one field */
	carc_tileset_free(ts);
}

/* ---- the rotation helpers ---- */

static void test_tileset_rotation_of_masks(void **state)
{
	(void)state;
	for (int r = 0; r < 8; r++) { /* 4..7 wrap around like 0..3 */
		for (unsigned m = 0; m < 16; m++) {
			unsigned want = 0;
			for (int e = 0; e < 4; e++)
				if (m & (1u << e))
					want |= 1u << ((e + r) & 3);
			assert_int_equal(carc_rot_edges((uint8_t)m, r), want);
		}
		for (unsigned m = 0; m < 256; m++) {
			unsigned want = 0;
			for (int h = 0; h < 8; h++)
				if (m & (1u << h))
					want |= 1u << ((h + 2 * r) & 7);
			assert_int_equal(carc_rot_halves((uint8_t)m, r), want);
		}
	}
	/* spelled out: a quarter turn clockwise takes north to east and the
	 * west half of the north edge (NNW) to the north half of the east (ENE) */
	assert_int_equal(carc_rot_edges(1u << CARC_N, 1), 1u << CARC_E);
	assert_int_equal(carc_rot_edges(1u << CARC_W, 1), 1u << CARC_N);
	assert_int_equal(carc_rot_halves(1u << 0, 1), 1u << 2);
	assert_int_equal(carc_rot_halves(1u << 7, 1), 1u << 1); /* WNW -> NNE */
	assert_int_equal(carc_rot_halves(1u << 5, 2), 1u << 1); /* SSW -> NNE */
}

static void test_tileset_rotation_of_tiles(void **state)
{
	(void)state;
	struct carc_tileset *ts = load_base();
	int field = carc_tileset_terrain(ts, "field", 5), road = carc_tileset_terrain(ts, "road", 4),
	    city = carc_tileset_terrain(ts, "city", 4);
	/* D turned 90: the city faces east, the road runs north-south */
	const struct carc_tile *d = tile(ts, "D");
	assert_int_equal(carc_tile_edge(d, 1, CARC_E), city);
	assert_int_equal(carc_tile_edge(d, 1, CARC_N), road);
	assert_int_equal(carc_tile_edge(d, 1, CARC_S), road);
	assert_int_equal(carc_tile_edge(d, 1, CARC_W), field);
	assert_int_equal(carc_tile_edge(d, 2, CARC_S), city);
	assert_int_equal(carc_tile_edge(d, 3, CARC_W), city);
	/* V turned 180: its road goes from the north edge to the east edge */
	const struct carc_tile *v = tile(ts, "V");
	assert_int_equal(carc_tile_edge(v, 2, CARC_N), road);
	assert_int_equal(carc_tile_edge(v, 2, CARC_E), road);
	assert_int_equal(carc_tile_edge(v, 2, CARC_S), field);
	assert_int_equal(carc_tile_edge_feature(v, 2, CARC_N), carc_tile_edge_feature(v, 2, CARC_E));

	/* every tile, every rotation: the turned tables agree with the turned
	 * masks of each feature, and the packed edges with carc_tile_edge */
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		for (int r = 0; r < 4; r++) {
			for (int e = 0; e < 4; e++) {
				uint8_t f = carc_tile_edge_feature(t, r, e);
				assert_true(f < t->nfeatures);
				assert_true(carc_rot_edges(t->features[f].edges, r) & (1u << e));
				assert_int_equal(carc_tile_edge(t, r, e), ts->kinds[t->features[f].kind].terrain);
				assert_int_equal((t->rot_edges[r] >> (8 * e)) & 0xff, carc_tile_edge(t, r, e));
				/* a quarter turn more moves the edge one step clockwise */
				assert_int_equal(carc_tile_edge(t, (r + 1) & 3, (e + 1) & 3), carc_tile_edge(t, r, e));
			}
			for (int h = 0; h < 8; h++) {
				uint8_t f = carc_tile_half(t, r, h);
				assert_true(f < t->nfeatures);
				assert_true(carc_rot_halves(t->features[f].halves, r) & (1u << h));
				assert_int_equal(carc_tile_half(t, (r + 1) & 3, (h + 2) & 7), f);
			}
		}
		for (int e = 0; e < 4; e++)
			assert_int_equal(carc_tile_edge(t, 4, e), carc_tile_edge(t, 0, e));
	}
	carc_tileset_free(ts);
}

/* ---- the reference tables ---- */

/* CARC_REFERENCE, else $CARC_SHARED/reference (as the other suites take
 * the shared folder), else ../shared/reference beside the repository. */
static const char *reference_dir(void)
{
	static char buf[1024];
	const char *dir = getenv("CARC_REFERENCE"), *shared = getenv("CARC_SHARED");
	if (dir && *dir)
		return dir;
	if (shared && *shared) {
		snprintf(buf, sizeof buf, "%s/reference", shared);
		return buf;
	}
	return "../shared/reference";
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct carc_buf b = {0};
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		carc_buf_add(&b, chunk, n);
	fclose(f);
	carc_buf_cstr(&b);
	*len = b.len;
	return b.data;
}

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *m, const char *key)
{
	if (!m || m->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

static const char *str(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int seq_len(yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : 0;
}

static yaml_node_t *seq_at(yaml_document_t *doc, yaml_node_t *n, int i)
{
	return yaml_document_get_node(doc, n->data.sequence.items.start[i]);
}

/* The reference's half-edge names, in carc's order NNW NNE ENE ... WNW. */
static int ref_half(const char *s)
{
	static const char *const names[8] = {"Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"};
	for (int h = 0; h < 8; h++)
		if (!strcmp(s, names[h]))
			return h;
	fail_msg("unknown half-edge '%s' in the reference", s);
	return -1;
}

static int edge_index(const char *s)
{
	for (int e = 0; e < 4; e++)
		if (!strcmp(s, carc_edge_names[e]))
			return e;
	fail_msg("unknown edge '%s' in the reference", s);
	return -1;
}

static bool load_reference(yaml_document_t *doc)
{
	char path[512];
	snprintf(path, sizeof path, "%s/base-tiles.yaml", reference_dir());
	size_t len;
	char *text = slurp(path, &len);
	if (!text) {
		print_message("skipped: %s is absent (the fact tables live in ../shared/reference beside the "
			      "repository, or set CARC_REFERENCE)\n", path);
		return false;
	}
	yaml_parser_t p;
	assert_true(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	assert_true(yaml_parser_load(&p, doc));
	yaml_parser_delete(&p);
	free(text);
	return true;
}

/* Compares one tile with its entry in the reference, feature by feature:
 * kinds, edges, half-edges, pennants, road ends and which cities each
 * field borders. Each of our features must be matched exactly once. */
/* Failures name the tile and the comparison that failed. */
#define EXPECT(cond)                                                                             \
	do {                                                                                     \
		if (!(cond))                                                                     \
			fail_msg("tile %s: %s is false (line %d)", letter, #cond, __LINE__);      \
	} while (0)
#define EXPECT_EQ(a, b)                                                                          \
	do {                                                                                     \
		long long x_ = (long long)(a), y_ = (long long)(b);                              \
		if (x_ != y_)                                                                    \
			fail_msg("tile %s: %s is %lld, the reference says %lld", letter, #a, x_, y_); \
	} while (0)
#define EXPECT_STR(a, b)                                                                         \
	do {                                                                                     \
		if (strcmp((a), (b)))                                                            \
			fail_msg("tile %s: %s is '%s', the reference says '%s'", letter, #a, (a), (b)); \
	} while (0)

static void compare_with_reference(const struct carc_tileset *ts, yaml_document_t *doc, yaml_node_t *rt)
{
	const char *letter = str(map_get(doc, rt, "letter"));
	assert_non_null(letter);
	const struct carc_tile *t = tile(ts, letter);
	EXPECT_EQ(t->count, atoi(str(map_get(doc, rt, "count"))));
	EXPECT_EQ(t->start, !strcmp(str(map_get(doc, rt, "includes_start_tile")), "true"));
	yaml_node_t *edges = map_get(doc, rt, "edges");
	for (int e = 0; e < 4; e++)
		EXPECT_STR(ts->terrains[t->edge_terrain[e]], str(map_get(doc, edges, carc_edge_names[e])));

	yaml_node_t *features = map_get(doc, rt, "features");
	int n = seq_len(features);
	EXPECT_EQ(n, t->nfeatures);
	int match[CARC_MAX_FEATURES]; /* reference feature -> ours */
	char ref_ids[CARC_MAX_FEATURES][32];
	bool used[CARC_MAX_FEATURES] = {0};
	bool pennant = false, cloister = false;
	for (int i = 0; i < n; i++) {
		yaml_node_t *rf = seq_at(doc, features, i);
		const char *type = str(map_get(doc, rf, "type"));
		snprintf(ref_ids[i], sizeof ref_ids[i], "%s", str(map_get(doc, rf, "id")));
		uint8_t em = 0, hm = 0;
		yaml_node_t *list = map_get(doc, rf, "edges");
		for (int k = 0; k < seq_len(list); k++)
			em |= (uint8_t)(1u << edge_index(str(seq_at(doc, list, k))));
		list = map_get(doc, rf, "half_edges");
		for (int k = 0; k < seq_len(list); k++)
			hm |= (uint8_t)(1u << ref_half(str(seq_at(doc, list, k))));
		match[i] = -1;
		for (int f = 0; f < t->nfeatures && match[i] < 0; f++) {
			const struct carc_feature *ft = &t->features[f];
			if (used[f] || strcmp(ts->kinds[ft->kind].name, type))
				continue;
			if (!strcmp(type, "road") && ft->edges == em)
				match[i] = f;
			else if (!strcmp(type, "city") && ft->edges == em && ft->halves == hm)
				match[i] = f;
			else if (!strcmp(type, "field") && ft->halves == hm)
				match[i] = f;
			else if (!strcmp(type, "cloister"))
				match[i] = f;
		}
		if (match[i] < 0)
			fail_msg("tile %s: reference feature %s (%s) has no counterpart", letter, ref_ids[i], type);
		used[match[i]] = true;
		const struct carc_feature *ft = &t->features[match[i]];
		if (!strcmp(type, "road")) {
			const char *end = str(map_get(doc, rf, "ends_on_tile"));
			static const char *const ends[] = {"cloister", "city", "junction", "crossroads"};
			if (!end || !strcmp(end, "null") || !*end) {
				EXPECT_EQ(ft->end, CARC_NO_FEATURE);
			} else {
				EXPECT(ft->end < 4);
				EXPECT_STR(ends[ft->end], end);
			}
		}
		if (!strcmp(type, "city")) {
			bool p = !strcmp(str(map_get(doc, rf, "pennant")), "true");
			EXPECT_EQ(ft->attr[CARC_ATTR_PENNANT], p ? 1 : 0);
			pennant |= p;
		} else {
			EXPECT_EQ(ft->attr[CARC_ATTR_PENNANT], 0);
		}
		cloister |= !strcmp(type, "cloister");
	}
	/* the fields' borders, now that every city has its counterpart */
	for (int i = 0; i < n; i++) {
		yaml_node_t *rf = seq_at(doc, features, i);
		if (strcmp(str(map_get(doc, rf, "type")), "field"))
			continue;
		yaml_node_t *touches = map_get(doc, rf, "touches_cities");
		unsigned want = 0;
		for (int k = 0; k < seq_len(touches); k++) {
			const char *city = str(seq_at(doc, touches, k));
			int j = 0;
			while (j < n && strcmp(ref_ids[j], city))
				j++;
			EXPECT(j < n);
			want |= 1u << match[j];
		}
		EXPECT_EQ(t->features[match[i]].borders, want);
	}
	EXPECT_EQ(pennant, !strcmp(str(map_get(doc, rt, "pennant")), "true"));
	EXPECT_EQ(cloister, !strcmp(str(map_get(doc, rt, "cloister")), "true"));
	EXPECT_EQ(cloister, t->centre_feature != CARC_NO_FEATURE);
}

static void test_tileset_base_matches_reference(void **state)
{
	(void)state;
	yaml_document_t doc;
	if (!load_reference(&doc)) {
		skip();
		return;
	}
	struct carc_tileset *ts = load_base();
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	yaml_node_t *tiles = map_get(&doc, root, "tiles");
	assert_int_equal(seq_len(tiles), ts->ntiles);
	for (int i = 0; i < seq_len(tiles); i++)
		compare_with_reference(ts, &doc, seq_at(&doc, tiles, i));
	yaml_node_t *totals = map_get(&doc, map_get(&doc, root, "meta"), "totals");
	assert_int_equal(atoi(str(map_get(&doc, totals, "tiles"))), ts->total);
	yaml_document_delete(&doc);
	carc_tileset_free(ts);
}

/* ---- JCloisterZone's basic.xml, compared up to rotation ---- */

struct jcz_tile {
	char id[32];
	int count; /* in tile-set basic:1 */
	bool cloister, garden;
	int nroads, ncities, nfarms, nrivers;
	uint8_t road[8], city[8], farm[8], farm_cities[8], river[8]; /* edges / half-edges masks */
	bool pennant[8];
};

/* JCZ names half-edges by edge and side, looking out from the centre:
 * NL is the left (west) half of the north edge. */
static int jcz_half(const char *w, size_t n)
{
	static const char *const names[8] = {"NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"};
	for (int h = 0; h < 8; h++)
		if (carc_slice_eq(w, n, names[h]))
			return h;
	return -1;
}

static uint8_t jcz_mask(const char *s, const char *end, bool halves)
{
	uint8_t m = 0;
	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\n' || *s == '\t'))
			s++;
		const char *w = s;
		while (s < end && *s != ' ' && *s != '\n' && *s != '\t')
			s++;
		if (s == w)
			break;
		int i = halves ? jcz_half(w, (size_t)(s - w)) : -1;
		if (!halves)
			for (int e = 0; e < 4; e++)
				if (carc_slice_eq(w, (size_t)(s - w), carc_edge_names[e]))
					i = e;
		if (i < 0)
			fail_msg("unknown direction '%.*s' in basic.xml", (int)(s - w), w);
		m |= (uint8_t)(1u << i);
	}
	return m;
}

/* The value of attribute name="..." inside [tag, tag_end), or NULL. */
static const char *jcz_attr(const char *tag, const char *tag_end, const char *name, size_t *len)
{
	char pat[40];
	snprintf(pat, sizeof pat, " %s=\"", name);
	const char *a = strstr(tag, pat);
	if (!a || a > tag_end)
		return NULL;
	a += strlen(pat);
	const char *q = strchr(a, '"');
	*len = (size_t)(q - a);
	return a;
}

/* Reads the tiles of a JCZ file and their counts in tile-set set_id. */
static int jcz_read_set(const char *xml, const char *set_id, struct jcz_tile *out, int max)
{
	int n = 0;
	const char *sets = strstr(xml, "<sets>");
	assert_non_null(sets);
	for (const char *p = strstr(xml, "<tile id=\""); p && p < sets; p = strstr(p, "<tile id=\"")) {
		assert_true(n < max);
		struct jcz_tile *t = &out[n++];
		memset(t, 0, sizeof *t);
		p += 10;
		const char *q = strchr(p, '"');
		snprintf(t->id, sizeof t->id, "%.*s", (int)(q - p), p);
		const char *end = strstr(p, "</tile>");
		for (const char *e = strchr(q, '<'); e && e < end; e = strchr(e + 1, '<')) {
			const char *tag_end = strchr(e, '>');
			const char *text = tag_end + 1, *text_end = strchr(text, '<');
			size_t len;
			const char *v;
			if (!strncmp(e, "<cloister", 9)) {
				t->cloister = true;
			} else if (!strncmp(e, "<garden", 7)) {
				t->garden = true;
			} else if (!strncmp(e, "<river>", 7)) {
				t->river[t->nrivers++] = jcz_mask(text, text_end, false);
			} else if (!strncmp(e, "<road>", 6)) {
				t->road[t->nroads++] = jcz_mask(text, text_end, false);
			} else if (!strncmp(e, "<city", 5) && (e[5] == '>' || e[5] == ' ')) {
				v = jcz_attr(e, tag_end, "pennant", &len);
				t->pennant[t->ncities] = v && carc_slice_eq(v, len, "yes");
				t->city[t->ncities++] = jcz_mask(text, text_end, false);
			} else if (!strncmp(e, "<farm", 5) && (e[5] == '>' || e[5] == ' ')) {
				v = jcz_attr(e, tag_end, "city", &len);
				t->farm_cities[t->nfarms] = v ? jcz_mask(v, v + len, false) : 0;
				t->farm[t->nfarms++] = jcz_mask(text, text_end, true);
			}
		}
		p = end;
	}
	char set_tag[64];
	snprintf(set_tag, sizeof set_tag, "<tile-set id=\"%s\"", set_id);
	const char *set = strstr(sets, set_tag);
	assert_non_null(set);
	const char *set_end = strstr(set, "</tile-set>");
	for (const char *r = strstr(set, "<ref count=\""); r && r < set_end; r = strstr(r + 1, "<ref count=\"")) {
		int count = atoi(r + 12);
		const char *id = strstr(r, "tile=\"") + 6;
		for (int i = 0; i < n; i++)
			if (carc_slice_eq(id, (size_t)(strchr(id, '"') - id), out[i].id))
				out[i].count = count;
	}
	return n;
}

/* A file beside the fact tables (jcz/river.xml), or NULL, saying so, when
 * it is absent: the test is then skipped. */
static char *reference_file(const char *name)
{
	char path[512];
	size_t len;
	snprintf(path, sizeof path, "%s/%s", reference_dir(), name);
	char *text = slurp(path, &len);
	if (!text)
		print_message("skipped: %s is absent\n", path);
	return text;
}

/* JCZ's basic.xml and the fact tables, both, or NULL (said why): the tests
 * that compare them are then skipped. */
static char *load_basic_xml(yaml_document_t *doc)
{
	char *xml = reference_file("jcz/basic.xml");
	if (xml && !load_reference(doc)) {
		free(xml);
		return NULL;
	}
	return xml;
}

static const struct jcz_tile *jcz_find(const struct jcz_tile *jt, int n, const char *id)
{
	for (int k = 0; k < n; k++)
		if (!strcmp(jt[k].id, id))
			return &jt[k];
	fail_msg("JCZ has no tile %s", id);
	return NULL;
}

static int jcz_read(const char *xml, struct jcz_tile *out, int max)
{
	return jcz_read_set(xml, "basic:1", out, max);
}

static int first_bit(unsigned m)
{
	for (int i = 0; i < 8; i++)
		if (m & (1u << i))
			return i;
	fail_msg("an empty mask");
	return 0;
}

/* Whether each of JCZ's n paths (edge masks), turned by r, is one feature
 * of kind `kind` on our tile, crossing exactly those edges. */
static bool paths_match(const struct carc_tileset *ts, const struct carc_tile *t, const uint8_t *masks, int n,
			const char *kind, int r)
{
	for (int i = 0; i < n; i++) {
		uint8_t e = carc_rot_edges(masks[i], r);
		uint8_t f = t->edge_feature[first_bit(e)];
		if (strcmp(ts->kinds[t->features[f].kind].name, kind) || t->features[f].edges != e)
			return false;
	}
	return true;
}

/* Whether our tile is the JCZ tile turned by r quarter turns. */
static bool jcz_same(const struct carc_tileset *ts, const struct carc_tile *t, const struct jcz_tile *j, int r)
{
	int roads = 0, cities = 0, fields = 0, rivers = 0;
	bool cloister = false, garden = false;
	for (int f = 0; f < t->nfeatures; f++) {
		const char *k = ts->kinds[t->features[f].kind].name;
		roads += !strcmp(k, "road");
		cities += !strcmp(k, "city");
		fields += !strcmp(k, "field");
		rivers += !strcmp(k, "river");
		cloister |= !strcmp(k, "cloister");
		garden |= !strcmp(k, "garden");
	}
	if (roads != j->nroads || cities != j->ncities || fields != j->nfarms || cloister != j->cloister ||
	    rivers != j->nrivers || garden != j->garden)
		return false;
	if (!paths_match(ts, t, j->river, j->nrivers, "river", r))
		return false;
	if (!paths_match(ts, t, j->road, j->nroads, "road", r))
		return false;
	for (int i = 0; i < j->ncities; i++) {
		uint8_t e = carc_rot_edges(j->city[i], r);
		uint8_t f = t->edge_feature[first_bit(e)];
		if (strcmp(ts->kinds[t->features[f].kind].name, "city") || t->features[f].edges != e ||
		    (t->features[f].attr[CARC_ATTR_PENNANT] > 0) != j->pennant[i])
			return false;
	}
	for (int i = 0; i < j->nfarms; i++) {
		uint8_t h = carc_rot_halves(j->farm[i], r);
		uint8_t f = t->half_feature[first_bit(h)];
		if (strcmp(ts->kinds[t->features[f].kind].name, "field") || t->features[f].halves != h)
			return false;
		unsigned borders = 0;
		uint8_t ce = carc_rot_edges(j->farm_cities[i], r);
		for (int e = 0; e < 4; e++)
			if (ce & (1u << e))
				borders |= 1u << t->edge_feature[e];
		if (t->features[f].borders != borders)
			return false;
	}
	return true;
}

static void test_tileset_base_matches_jcz_up_to_rotation(void **state)
{
	(void)state;
	yaml_document_t doc;
	char *xml = load_basic_xml(&doc);
	if (!xml) {
		skip();
		return;
	}
	static struct jcz_tile jt[64];
	int n = jcz_read(xml, jt, 64);
	assert_true(n >= 24);
	struct carc_tileset *ts = load_base();
	yaml_node_t *tiles = map_get(&doc, yaml_document_get_root_node(&doc), "tiles");
	int total = 0;
	for (int i = 0; i < seq_len(tiles); i++) {
		yaml_node_t *rt = seq_at(&doc, tiles, i);
		const char *letter = str(map_get(&doc, rt, "letter")), *jid = str(map_get(&doc, rt, "jcz_id"));
		const struct carc_tile *t = tile(ts, letter);
		const struct jcz_tile *j = NULL;
		for (int k = 0; k < n; k++)
			if (!strcmp(jt[k].id, jid))
				j = &jt[k];
		assert_non_null(j);
		assert_int_equal(t->count, j->count);
		total += j->count;
		bool same = false;
		for (int r = 0; r < 4 && !same; r++)
			same = jcz_same(ts, t, j, r);
		if (!same)
			fail_msg("tile %s is not JCZ's %s in any rotation", letter, jid);
	}
	assert_int_equal(total, 72);
	carc_tileset_free(ts);
	yaml_document_delete(&doc);
	free(xml);
}

/* The river set against JCZ's river.xml: each id is the JCZ tile the issue
 * names, in JCZ's orientation (rotation 0), with JCZ's counts: river/1:1
 * without the abbot (two plain bends), river/1:2 with it (a garden bend). */
static void test_tileset_river_matches_jcz(void **state)
{
	(void)state;
	char *xml = reference_file("jcz/river.xml");
	if (!xml) {
		skip();
		return;
	}
	static const char *const ids[][2] = {
		{"RA", "RI/s"},      {"RB", "RI.1/CIRI"}, {"RC", "RI.1/CICI"}, {"RD", "RI.1/IFI"},
		{"RE", "RI.1/CcII"}, {"RG", "RI.1/II"},   {"RJ", "RI.1/IIG"},  {"RH", "RI.1/LIRI"},
		{"RI", "RI.1/RrII"}, {"RK", "RI.1/RIrI"}, {"RL", "RI.1/I.e"},
	};
	static const char *const sets[2] = {"river/1:1", "river/1:2"};
	struct carc_tileset *ts = carc_tileset_load("river", &(struct carc_diag_sink){0}, NULL, 0, 0);
	assert_non_null(ts);
	for (int abbot = 0; abbot < 2; abbot++) {
		static struct jcz_tile jt[64];
		int n = jcz_read_set(xml, sets[abbot], jt, 64);
		carc_tileset_play(ts, abbot ? "abbot" : "", abbot ? 5 : 0);
		int total = 0, jcz_total = 0;
		for (int k = 0; k < n; k++)
			if (!strncmp(jt[k].id, "RI/", 3) || !strncmp(jt[k].id, "RI.1/", 5))
				jcz_total += jt[k].count;
		for (size_t i = 0; i < CARC_ARRAY_LEN(ids); i++) {
			const struct jcz_tile *j = jcz_find(jt, n, ids[i][1]);
			int ti = carc_tileset_find(ts, ids[i][0], strlen(ids[i][0]));
			if (j->count == 0) { /* not in this set: set aside */
				if (ti >= 0)
					fail_msg("%s is in play in %s, where JCZ has no %s", ids[i][0], sets[abbot], ids[i][1]);
				continue;
			}
			if (ti < 0)
				fail_msg("%s is not in play in %s", ids[i][0], sets[abbot]);
			const struct carc_tile *t = &ts->tiles[ti];
			if (t->count != j->count)
				fail_msg("%s: %u tiles, JCZ's %s in %s has %d", ids[i][0], (unsigned)t->count, ids[i][1],
					 sets[abbot], j->count);
			if (!jcz_same(ts, t, j, 0))
				fail_msg("%s is not JCZ's %s at rotation 0", ids[i][0], ids[i][1]);
			total += t->count;
		}
		assert_int_equal(total, jcz_total);
		assert_int_equal(ts->total, 12);
		assert_string_equal(ts->tiles[ts->start_tile].id, "RA");
		assert_true(ts->last_tile >= 0);
		assert_string_equal(ts->tiles[ts->last_tile].id, "RL");
	}
	carc_tileset_free(ts);
	free(xml);
}

/* The base set's garden tiles against JCZ's basic:2 (the tiles with
 * gardens): with the abbot, each letter and its garden copy have JCZ's
 * counts, the copy is JCZ's garden tile in some rotation, and it is the
 * plain letter in the same orientation with a garden added. */
static void test_tileset_gardens_match_jcz(void **state)
{
	(void)state;
	yaml_document_t doc;
	char *xml = load_basic_xml(&doc);
	if (!xml) {
		skip();
		return;
	}
	static struct jcz_tile jt[64];
	int n = jcz_read_set(xml, "basic:2", jt, 64);
	static const char *const gardens[][2] = {
		{"E", "BA/CG"},   {"H", "BA/CFCG"}, {"I", "BA/CCG"},  {"M", "BA/Cc+G"},
		{"N", "BA/CcG"},  {"R", "BA/CccG"}, {"U", "BA/RFrG"}, {"V", "BA/RrG"},
	};
	struct carc_tileset *ts = load_base();
	carc_tileset_play(ts, "abbot", 5);
	assert_int_equal(ts->total, 72);
	assert_int_equal(ts->ntiles, 32);
	yaml_node_t *tiles = map_get(&doc, yaml_document_get_root_node(&doc), "tiles");
	for (int i = 0; i < seq_len(tiles); i++) {
		yaml_node_t *rt = seq_at(&doc, tiles, i);
		const char *letter = str(map_get(&doc, rt, "letter")), *jid = str(map_get(&doc, rt, "jcz_id"));
		const struct carc_tile *t = tile(ts, letter);
		const struct jcz_tile *plain = jcz_find(jt, n, jid);
		if (t->count != plain->count)
			fail_msg("with the abbot %s has %u tiles, JCZ's %s in basic:2 %d", letter, (unsigned)t->count, jid,
				 plain->count);
	}
	for (size_t g = 0; g < CARC_ARRAY_LEN(gardens); g++) {
		char id[8];
		snprintf(id, sizeof id, "%sg", gardens[g][0]);
		const struct carc_tile *t = tile(ts, id), *p = tile(ts, gardens[g][0]);
		const struct jcz_tile *j = jcz_find(jt, n, gardens[g][1]);
		assert_true(j->garden);
		if (t->count != j->count)
			fail_msg("%s: %u tiles, JCZ's %s %d", id, (unsigned)t->count, gardens[g][1], j->count);
		bool same = false;
		for (int r = 0; r < 4 && !same; r++)
			same = jcz_same(ts, t, j, r);
		if (!same)
			fail_msg("%s is not JCZ's %s in any rotation", id, gardens[g][1]);
		/* the plain letter's features, in its orientation, and a garden */
		assert_int_equal(t->nfeatures, p->nfeatures + 1);
		for (int f = 0; f < p->nfeatures; f++) {
			assert_int_equal(t->features[f].kind, p->features[f].kind);
			assert_int_equal(t->features[f].edges, p->features[f].edges);
			assert_int_equal(t->features[f].halves, p->features[f].halves);
			assert_int_equal(t->features[f].borders, p->features[f].borders);
			assert_memory_equal(t->features[f].attr, p->features[f].attr, sizeof t->features[f].attr);
		}
		assert_string_equal(ts->kinds[t->features[p->nfeatures].kind].name, "garden");
		assert_int_equal(t->centre_feature, p->nfeatures);
	}
	carc_tileset_free(ts);
	yaml_document_delete(&doc);
	free(xml);
}

/* ---- the loader: what it accepts ---- */

/* A small valid tile set. HEAD is lines 1-8, TILE_D lines 9-17, so text
 * appended after them starts on line 18. */
#define HEAD                                                  \
	"name: tiny\n"                                        \
	"terrains: [field, road, city]\n"                     \
	"kinds:\n"                                            \
	"  - {name: road, class: path, terrain: road}\n"      \
	"  - {name: city, class: enclosure, terrain: city}\n" \
	"  - {name: cloister, class: site}\n"                 \
	"  - {name: field, class: area, terrain: field}\n"    \
	"tiles:\n"
#define TILE_D                                                  \
	"  - id: D\n"                                           \
	"    count: 2\n"                                        \
	"    start: true\n"                                     \
	"    edges: city road field road\n"                     \
	"    features:\n"                                       \
	"      - {kind: city, edges: N}\n"                      \
	"      - {kind: road, edges: E W}\n"                    \
	"      - {kind: field, halves: ENE WNW, borders: N}\n"  \
	"      - {kind: field, halves: ESE SSE SSW WSW}\n"
#define ALL_HALVES "NNW NNE ENE ESE SSE SSW WSW WNW"

static void test_tileset_loads_a_small_set(void **state)
{
	(void)state;
	static const char text[] = HEAD TILE_D
		"  - id: B\n"
		"    count: 3\n"
		"    name: a cloister\n"
		"    features:\n"
		"      - {kind: field, halves: " ALL_HALVES "}\n"
		"      - cloister\n";
	struct seen s;
	struct carc_tileset *ts = parse(text, strlen(text), &s);
	print_seen(&s);
	assert_non_null(ts);
	assert_int_equal(s.n, 0);
	assert_int_equal(ts->ntiles, 2);
	assert_int_equal(ts->total, 5);
	assert_int_equal(ts->start_tile, 0);
	const struct carc_tile *b = tile(ts, "B");
	assert_string_equal(b->name, "a cloister");
	assert_int_equal(b->nfeatures, 2);
	assert_int_equal(b->centre_feature, 1);
	assert_int_equal(b->line, 18);
	assert_int_equal(b->features[1].line, 23);
	/* edges were left out: the features say what they are */
	for (int e = 0; e < 4; e++)
		assert_string_equal(ts->terrains[b->edge_terrain[e]], "field");
	assert_int_equal(carc_tileset_find(ts, "X", 1), -1);
	assert_int_equal(carc_tileset_kind(ts, "cloister"), 2);
	assert_int_equal(carc_tileset_kind(ts, "river"), -1);
	assert_int_equal(carc_tileset_terrain(ts, "city", 4), 2);
	carc_tileset_free(ts);
}

/* The spellings the format allows for the same thing load the same tile. */
/* Tiles of an expansion are set aside until it is played, then stand in for
 * the tiles they replace; playing nothing puts the set back as it was. */
static void test_tileset_plays_expansions(void **state)
{
	(void)state;
	static const char text[] = "expansions: [abbot, other]\n" HEAD TILE_D
		"  - {id: B, count: 3, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n"
		"  - {id: Bg, count: 1, expansion: abbot, replaces: B, features: [cloister, {kind: field, halves: "
		ALL_HALVES "}]}\n"
		"  - {id: Dx, count: 1, expansion: other, replaces: D, features: [{kind: city, edges: N}, "
		"{kind: road, edges: E W}, {kind: field, halves: ENE WNW, borders: N}, "
		"{kind: field, halves: ESE SSE SSW WSW}]}\n"
		"  - {id: X, count: 1, last: true, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n";
	struct seen s;
	struct carc_tileset *ts = parse(text, strlen(text), &s);
	print_seen(&s);
	assert_non_null(ts);
	assert_int_equal(ts->nexpansions, 2);
	assert_int_equal(ts->ntiles, 3);
	assert_int_equal(ts->nextra, 2);
	assert_int_equal(ts->total, 6);
	assert_int_equal(carc_tileset_find(ts, "Bg", 2), -1);
	/* set aside, it is named as its twin (RULINGS: a garden without The Abbot) */
	int aside = -1;
	assert_int_equal(carc_tileset_find_twin(ts, "Bg", 2, &aside), carc_tileset_find(ts, "B", 1));
	assert_string_equal(ts->tiles[aside].id, "Bg");
	assert_int_equal(ts->tiles[aside].count, 1);
	assert_int_equal(carc_tileset_find_twin(ts, "Dx", 2, NULL), carc_tileset_find(ts, "D", 1));
	assert_int_equal(carc_tileset_find_twin(ts, "B", 1, NULL), -1);
	assert_int_equal(carc_tileset_find_twin(ts, "Bx", 2, NULL), -1);
	assert_string_equal(ts->tiles[ts->last_tile].id, "X");
	for (int round = 0; round < 2; round++) {
		unsigned long serial = ts->serial;
		carc_tileset_play(ts, "ABBOT, nosuch", 13);
		assert_true(ts->serial != serial); /* what a game derived from the tiles is redone */
		assert_int_equal(ts->ntiles, 4);
		assert_int_equal(ts->total, 6);
		assert_int_equal(tile(ts, "B")->count, 2);
		assert_int_equal(tile(ts, "Bg")->count, 1);
		assert_int_equal(carc_tileset_find(ts, "Bg", 2), 2); /* the file's order */
		assert_int_equal(carc_tileset_find_twin(ts, "Bg", 2, NULL), -1); /* in play: itself */
		assert_int_equal(carc_tileset_find_twin(ts, "Dx", 2, NULL), carc_tileset_find(ts, "D", 1));
		assert_string_equal(ts->tiles[ts->start_tile].id, "D");
		assert_string_equal(ts->tiles[ts->last_tile].id, "X");
		carc_tileset_play(ts, "abbot other", 11);
		assert_int_equal(ts->ntiles, 5);
		assert_int_equal(tile(ts, "D")->count, 1);
		assert_int_equal(ts->total, 6);
		carc_tileset_play(ts, "", 0);
		assert_int_equal(ts->ntiles, 3);
		assert_int_equal(ts->nextra, 2);
		assert_int_equal(tile(ts, "B")->count, 3);
		assert_int_equal(carc_tileset_find(ts, "X", 1), 2);
	}
	carc_tileset_free(ts);

	/* the bundled sets: the plain base game is the 72 tiles in 24 types */
	ts = load_base();
	assert_int_equal(ts->ntiles, 24);
	assert_int_equal(ts->total, 72);
	assert_int_equal(ts->nextra, 8);
	assert_true(carc_kind_aside(ts, carc_tileset_kind(ts, "garden")));
	carc_tileset_play(ts, "abbot", 5);
	assert_int_equal(ts->ntiles, 32);
	assert_int_equal(ts->total, 72);
	assert_int_equal(tile(ts, "V")->count, 8);
	assert_int_equal(tile(ts, "Vg")->count, 1);
	assert_false(carc_kind_aside(ts, carc_tileset_kind(ts, "garden")));
	carc_tileset_free(ts);
}

static void test_tileset_accepts_equivalent_spellings(void **state)
{
	(void)state;
	static const char text[] =
		"name: tiny\n"
		"terrains: field road city\n"
		"kinds: [{name: road, class: path, terrain: road}, {name: city, class: enclosure, terrain: city},\n"
		"        {name: field, class: area, terrain: field}]\n"
		"tiles:\n"
		"  - id: D\n"
		"    count: 2\n"
		"    start: Yes\n"
		"    edges: [city, road, field, road]\n"
		"    features:\n"
		"      - {kind: city, edges: [N], halves: NNW NNE}\n"
		"      - {kind: road, edges: 'E, W'}\n"
		"      - kind: field\n"
		"        halves: [ENE, WNW]\n"
		"        borders: [N]\n"
		"      - {kind: field, halves: \"ESE,SSE,SSW,WSW\"}\n";
	struct seen s;
	struct carc_tileset *ts = parse(text, strlen(text), &s);
	print_seen(&s);
	assert_non_null(ts);
	static const char canonical[] = HEAD TILE_D;
	struct carc_tileset *want = parse(canonical, strlen(canonical), &s);
	assert_non_null(want);
	const struct carc_tile *a = tile(ts, "D"), *b = tile(want, "D");
	assert_true(a->start);
	assert_int_equal(a->nfeatures, b->nfeatures);
	assert_memory_equal(a->edge_feature, b->edge_feature, 4);
	assert_memory_equal(a->half_feature, b->half_feature, 8);
	assert_memory_equal(a->rot_edges, b->rot_edges, sizeof a->rot_edges);
	for (int f = 0; f < a->nfeatures; f++) {
		assert_int_equal(a->features[f].edges, b->features[f].edges);
		assert_int_equal(a->features[f].halves, b->features[f].halves);
		assert_int_equal(a->features[f].borders, b->features[f].borders);
	}
	carc_tileset_free(ts);
	carc_tileset_free(want);
}

/* Both bundled sets load, and a bundled name wins over a file path. */
static void test_tileset_bundled_sets_load(void **state)
{
	(void)state;
	assert_true(carc_bundled_count() >= 1);
	for (size_t i = 0; i < carc_bundled_count(); i++) {
		struct seen s;
		memset(&s, 0, sizeof s);
		struct carc_diag_sink sink = {keep, &s};
		struct carc_tileset *ts = carc_tileset_load(carc_bundled_name(i), &sink, NULL, 0, 0);
		print_seen(&s);
		assert_non_null(ts);
		assert_string_equal(ts->name, carc_bundled_name(i));
		/* a start tile, unless the set holds an expansion's tiles that join
		 * a base set's (joins: true: Inns & Cathedrals', Traders & Builders') */
		assert_true(ts->start_tile >= 0 || ts->joins);
		carc_tileset_free(ts);
		carc_diag_free(&sink);
	}
	size_t len = 0;
	assert_null(carc_bundled_text("no-such-set", &len));
}

static void test_tileset_cache_loads_once(void **state)
{
	(void)state;
	struct carc_tileset_cache *c = carc_tileset_cache_new();
	struct carc_diag_sink sink = {0};
	const struct carc_tileset *a = carc_tileset_cache_get(c, "base", &sink, NULL, 0, 0);
	const struct carc_tileset *b = carc_tileset_cache_get(c, "base", &sink, NULL, 0, 0);
	assert_non_null(a);
	assert_ptr_equal(a, b);
	assert_null(carc_tileset_cache_get(c, "no/such/file.yaml", &sink, NULL, 0, 0));
	assert_null(carc_tileset_cache_get(c, "no/such/file.yaml", &sink, NULL, 0, 0));
	assert_int_equal(sink.counts[CARC_E101], 2); /* failures are reported each time */
	carc_tileset_cache_free(c);
	carc_diag_free(&sink);
}

/* A game with The River and The Abbot: the river set's tiles before the
 * base set's, in one set; the spring the start tile, D an ordinary tile of
 * 4; kinds and terrains merged by name; the gardens in play; remembered. */
/* Inns & Cathedrals' set has no start tile: joined before the base set, the
 * start tile is the base set's D; IBg and IHg replace IB and IH with The
 * Abbot only. */
static void test_tileset_joins_inns_and_base(void **state)
{
	(void)state;
	struct carc_tileset_cache *c = carc_tileset_cache_new();
	struct carc_diag_sink sink = {0};
	const struct carc_tileset *sets[2] = {carc_tileset_cache_get(c, "inns", &sink, NULL, 0, 0),
					      carc_tileset_cache_get(c, "base", &sink, NULL, 0, 0)};
	assert_non_null(sets[0]);
	assert_non_null(sets[1]);
	assert_int_equal(sets[0]->start_tile, -1);
	const struct carc_tileset *ts = carc_tileset_cache_join(c, sets, 2, "inns-cathedrals");
	assert_non_null(ts);
	assert_int_equal(ts->total, 18 + 72);
	assert_string_equal(ts->tiles[ts->start_tile].id, "D");
	assert_int_equal(tile(ts, "IK")->count, 2);
	assert_int_equal(tile(ts, "IB")->count, 1);
	int ibg = carc_tileset_find(ts, "IBg", 3); /* set aside without The Abbot */
	assert_true(ibg < 0 || ibg >= ts->ntiles);
	ts = carc_tileset_cache_join(c, sets, 2, "inns-cathedrals abbot");
	assert_non_null(ts);
	assert_int_equal(ts->total, 18 + 72);
	assert_int_equal(tile(ts, "IBg")->count, 1);
	assert_int_equal(tile(ts, "IHg")->count, 1);
	int ib = carc_tileset_find(ts, "IB", 2), ih = carc_tileset_find(ts, "IH", 2); /* replaced: none left */
	assert_true(ib < 0 || ib >= ts->ntiles || ts->tiles[ib].count == 0);
	assert_true(ih < 0 || ih >= ts->ntiles || ts->tiles[ih].count == 0);
	assert_string_equal(ts->tiles[ts->start_tile].id, "D");
	carc_tileset_cache_free(c);
	carc_diag_free(&sink);
}

static void test_tileset_joins_river_and_base(void **state)
{
	(void)state;
	struct carc_tileset_cache *c = carc_tileset_cache_new();
	struct carc_diag_sink sink = {0};
	const struct carc_tileset *sets[2] = {carc_tileset_cache_get(c, "river", &sink, NULL, 0, 0),
					      carc_tileset_cache_get(c, "base", &sink, NULL, 0, 0)};
	assert_non_null(sets[0]);
	assert_non_null(sets[1]);
	const struct carc_tileset *ts = carc_tileset_cache_join(c, sets, 2, "river abbot");
	assert_non_null(ts);
	assert_ptr_equal(ts, carc_tileset_cache_join(c, sets, 2, "river abbot"));
	assert_ptr_not_equal(ts, carc_tileset_cache_join(c, sets, 2, "river"));
	assert_int_equal(ts->total, 12 + 72);
	assert_string_equal(ts->tiles[ts->start_tile].id, "RA");
	assert_string_equal(ts->tiles[ts->last_tile].id, "RL");
	assert_int_equal(tile(ts, "D")->count, 4);
	assert_false(tile(ts, "D")->start);
	assert_int_equal(tile(ts, "RJ")->count, 1); /* the garden bend, with the abbot */
	assert_int_equal(tile(ts, "RG")->count, 1);
	assert_int_equal(tile(ts, "Eg")->count, 1);
	assert_int_equal(tile(ts, "E")->count, 4);
	assert_int_equal(carc_tileset_find(ts, "RA", 2), 0); /* the river's tiles first */
	/* one kind of each name, its class and terrain carried over */
	int river = carc_tileset_kind(ts, "river"), garden = carc_tileset_kind(ts, "garden");
	assert_true(river >= 0 && garden >= 0);
	assert_int_equal(ts->kinds[river].klass, CARC_CLASS_PATH);
	assert_string_equal(ts->terrains[ts->kinds[river].terrain], "river");
	for (int k = 0; k < ts->nkinds; k++)
		for (int j = 0; j < k; j++)
			assert_string_not_equal(ts->kinds[k].name, ts->kinds[j].name);
	/* the base set's tiles keep their edges: U is road on N and S */
	const struct carc_tile *u = tile(ts, "U");
	assert_string_equal(ts->terrains[u->edge_terrain[0]], "road");
	assert_string_equal(ts->kinds[u->features[0].kind].name, sets[1]->kinds[tile(sets[1], "U")->features[0].kind].name);
	/* without the abbot: two plain bends, no garden tiles */
	const struct carc_tileset *plain = carc_tileset_cache_join(c, sets, 2, "river");
	assert_int_equal(tile(plain, "RG")->count, 2);
	assert_int_equal(carc_tileset_find(plain, "RJ", 2), -1);
	assert_int_equal(carc_tileset_find(plain, "Eg", 2), -1);
	assert_int_equal(plain->total, 84);
	/* the sets joined are untouched */
	assert_int_equal(sets[1]->total, 72);
	assert_string_equal(sets[1]->tiles[sets[1]->start_tile].id, "D");
	carc_tileset_cache_free(c);
	carc_diag_free(&sink);
}

/* ---- the loader: what it refuses ---- */

struct bad_case {
	const char *what;
	const char *text;
	size_t len; /* 0: strlen(text) */
	enum carc_code code;
	unsigned line, col; /* of the first diagnostic */
	int count;          /* diagnostics in all */
};

#define CASE(what, text, code, line, col, count) {what, text, 0, CARC_##code, line, col, count}

static const struct bad_case bad_cases[] = {
	/* E102: not text, not YAML */
	{"a NUL byte", "name: tiny\nterr\0ains: []\n", 24, CARC_E102, 2, 5, 1},
	{"a PNG header", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, CARC_E102, 1, 1, 1},
	CASE("malformed UTF-8", "name: caf\xc3\n", E102, 1, 10, 1),
	CASE("an overlong UTF-8 form", "name: \xc0\xafx\n", E102, 1, 7, 1),
	CASE("a list never closed", "name: tiny\nterrains: [field, road\nkinds: []\n", E102, 3, 6, 1),
	CASE("a tab for indentation", "name: tiny\n\tterrains: [a]\n", E102, 2, 1, 1),
	CASE("a cut-off file", HEAD "  - {id: D, count", E102, 9, 18, 1),
	CASE("two documents", "name: a\n---\nname: b\n", E102, 2, 1, 1),
	CASE("an undefined alias", "name: *nothing\n", E102, 1, 7, 1),
	CASE("nesting too deep", "a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
	     E102, 1, 35, 1),
	CASE("a control character", "name: a\x01z\n", E102, 1, 8, 1),

	/* E103: the shape of the file */
	CASE("an empty file", "", E103, 1, 1, 1),
	CASE("only a comment", "# nothing here\n", E103, 1, 1, 1),
	CASE("a list at the top", "- name: tiny\n- tiles: []\n", E103, 1, 1, 1),
	CASE("a single value", "tiny\n", E103, 1, 1, 1),
	CASE("an unknown top-level key", HEAD TILE_D "colour: red\n", E103, 18, 1, 1),
	CASE("a top-level key twice", HEAD TILE_D "name: again\n", E103, 18, 1, 1),
	CASE("no name", "terrains: [field]\nkinds: [{name: field, class: area, terrain: field}]\ntiles:\n"
	     "  - {id: A, count: 1, start: true, features: [{kind: field, halves: " ALL_HALVES "}]}\n", E103, 1, 1, 1),
	CASE("no tiles", "name: tiny\nterrains: [field]\nkinds: []\n", E103, 1, 1, 1),
	CASE("tiles not a list", "name: tiny\nterrains: [field]\nkinds: []\ntiles: {id: A}\n", E103, 4, 8, 1),
	CASE("kinds not a list", "name: tiny\nterrains: [field]\nkinds: road\ntiles: []\n", E103, 3, 8, 2),
	CASE("a kind without a class", "name: t\nterrains: [field]\nkinds:\n  - {name: field, terrain: field}\n"
	     "tiles: []\n", E103, 4, 5, 2),
	CASE("a kind with no terrain", "name: t\nterrains: [field]\nkinds:\n  - {name: field, class: area}\n"
	     "tiles: []\n", E103, 4, 5, 2),
	CASE("a kind whose terrain key is misspelt (once a crash)", "name: tiny\nterrains: [field, road, city]\nkinds:\n"
	     "  - {name: road, class: path, terrain: road}\n  - {name: city, class: enclosure, terrain: city}\n"
	     "  - {name: cloister, class: site}\n  - {name: field, class: area, terrail: field}\ntiles:\n" TILE_D,
	     E103, 7, 32, 2),
	CASE("a site with a terrain", "name: t\nterrains: [field]\nkinds:\n"
	     "  - {name: cloister, class: site, terrain: field}\ntiles: []\n", E103, 4, 44, 2),
	CASE("an unknown key in a tile", HEAD TILE_D "  - id: B\n    count: 1\n    colour: blue\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 20, 5, 1),
	CASE("a key given twice in a tile", HEAD TILE_D "  - id: B\n    count: 1\n    count: 2\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 20, 5, 1),
	CASE("a tile that is a list", HEAD TILE_D "  - [B, 1]\n", E103, 18, 5, 1),
	CASE("a tile without an id", HEAD TILE_D "  - count: 1\n    features: [cloister]\n", E103, 18, 5, 1),
	CASE("a count that is a word", HEAD TILE_D "  - id: B\n    count: two\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 19, 12, 1),
	CASE("a count of zero", HEAD TILE_D "  - id: B\n    count: 0\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 19, 12, 1),
	CASE("a negative count", HEAD TILE_D "  - id: B\n    count: -3\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 19, 12, 1),
	CASE("a tile without a count", HEAD TILE_D "  - id: B\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 18, 5, 1),
	CASE("a tile without features", HEAD TILE_D "  - id: B\n    count: 1\n", E103, 18, 5, 1),
	CASE("features not a list", HEAD TILE_D "  - id: B\n    count: 1\n    features: cloister\n", E103, 20, 15, 1),
	CASE("start neither true nor false", HEAD TILE_D "  - id: B\n    count: 1\n    start: maybe\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E103, 20, 12, 1),
	CASE("an id that is a list", HEAD TILE_D "  - id: [B]\n    count: 1\n", E103, 18, 9, 2),
	CASE("a feature without a kind", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {halves: " ALL_HALVES "}\n", E103, 21, 9, 1),
	CASE("an unknown key in a feature", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: " ALL_HALVES ", colour: red}\n", E103, 21, 64, 1),
	CASE("a key that is a list", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: " ALL_HALVES ", [x]: 1}\n", E103, 21, 64, 1),
	CASE("a road with halves", HEAD TILE_D "  - id: U\n    count: 1\n    features:\n"
	     "      - {kind: road, edges: N S, halves: NNW}\n", E103, 21, 42, 1),
	CASE("a road without edges", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: " ALL_HALVES "}\n      - road\n", E103, 22, 9, 1),
	CASE("a field with edges", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, edges: N, halves: " ALL_HALVES "}\n", E103, 21, 30, 1),
	CASE("a cloister with edges", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: " ALL_HALVES "}\n      - {kind: cloister, edges: N}\n", E103, 22, 33, 1),
	CASE("a road with borders", HEAD "  - id: D\n    count: 2\n    start: true\n    features:\n"
	     "      - {kind: city, edges: N}\n      - {kind: road, edges: E W, borders: N}\n"
	     "      - {kind: field, halves: ENE WNW, borders: N}\n      - {kind: field, halves: ESE SSE SSW WSW}\n",
	     E103, 14, 43, 1),
	CASE("an end on a city", HEAD "  - id: D\n    count: 2\n    start: true\n    features:\n"
	     "      - {kind: city, edges: N, end: city}\n      - {kind: road, edges: E W}\n"
	     "      - {kind: field, halves: ENE WNW, borders: N}\n      - {kind: field, halves: ESE SSE SSW WSW}\n",
	     E103, 13, 37, 1),
	CASE("an edges line of three", HEAD "  - id: D\n    count: 2\n    start: true\n    edges: city road field\n"
	     "    features:\n      - {kind: city, edges: N}\n      - {kind: road, edges: E W}\n"
	     "      - {kind: field, halves: ENE WNW, borders: N}\n      - {kind: field, halves: ESE SSE SSW WSW}\n",
	     E103, 12, 12, 1),
	CASE("a pennant count that is a word", HEAD "  - id: D\n    count: 2\n    start: true\n    features:\n"
	     "      - {kind: city, edges: N, pennant: yes}\n      - {kind: road, edges: E W}\n"
	     "      - {kind: field, halves: ENE WNW, borders: N}\n      - {kind: field, halves: ESE SSE SSW WSW}\n",
	     E103, 13, 41, 1),

	/* E104: a value that names nothing */
	CASE("an unknown kind", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: meadow, halves: " ALL_HALVES "}\n", E104, 21, 16, 1),
	CASE("an unknown terrain on an edge", HEAD "  - id: D\n    count: 2\n    start: true\n"
	     "    edges: city road lava road\n    features:\n      - {kind: city, edges: N}\n"
	     "      - {kind: road, edges: E W}\n      - {kind: field, halves: ENE WNW, borders: N}\n"
	     "      - {kind: field, halves: ESE SSE SSW WSW}\n", E104, 12, 22, 1),
	CASE("a misspelt half-edge", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: NNW NNE ENE ESE SSE SSW WSW NWN}\n", E104, 21, 59, 1),
	CASE("a half-edge where an edge belongs", HEAD TILE_D "  - id: U\n    count: 1\n    features:\n"
	     "      - {kind: road, edges: N SSE}\n", E104, 21, 31, 1),
	CASE("an edge that does not exist", HEAD TILE_D "  - id: U\n    count: 1\n    features:\n"
	     "      - {kind: road, edges: N X}\n", E104, 21, 31, 1),
	CASE("an edge named twice", HEAD TILE_D "  - id: U\n    count: 1\n    features:\n"
	     "      - {kind: road, edges: [N, S, N]}\n", E104, 21, 36, 1),
	CASE("an unknown class", "name: t\nterrains: [water]\nkinds:\n  - {name: river, class: stream, terrain: water}\n"
	     "tiles: []\n", E104, 4, 26, 2),
	CASE("a kind on an unknown terrain", "name: t\nterrains: [field]\nkinds:\n"
	     "  - {name: field, class: area, terrain: grass}\ntiles: []\n", E104, 4, 41, 2),
	CASE("a terrain shared by two classes", "name: t\nterrains: [field, road]\nkinds:\n"
	     "  - {name: road, class: path, terrain: road}\n  - {name: field, class: area, terrain: road}\n"
	     "tiles: []\n", E104, 5, 41, 2),
	CASE("an unknown road end", HEAD TILE_D "  - id: A\n    count: 1\n    features:\n"
	     "      - {kind: road, edges: S, end: bridge}\n      - {kind: field, halves: " ALL_HALVES "}\n"
	     "      - cloister\n", E104, 21, 37, 1),
	CASE("borders naming a field's edge", HEAD "  - id: D\n    count: 2\n    start: true\n    features:\n"
	     "      - {kind: city, edges: N}\n      - {kind: road, edges: E W}\n"
	     "      - {kind: field, halves: ENE WNW, borders: S}\n      - {kind: field, halves: ESE SSE SSW WSW}\n",
	     E104, 15, 49, 1),
	CASE("borders naming no edge", HEAD "  - id: D\n    count: 2\n    start: true\n    features:\n"
	     "      - {kind: city, edges: N}\n      - {kind: road, edges: E W}\n"
	     "      - {kind: field, halves: ENE WNW, borders: N city}\n      - {kind: field, halves: ESE SSE SSW WSW}\n",
	     E104, 15, 51, 1),
	CASE("a tile id that starts with a digit", HEAD TILE_D "  - id: 1A\n    count: 1\n", E104, 18, 9, 1),
	CASE("a tile id with a blank", HEAD TILE_D "  - id: A B\n    count: 1\n", E104, 18, 9, 1),

	/* E105: the features do not cover the tile exactly once */
	CASE("a half-edge nobody covers", HEAD TILE_D "  - id: U\n    count: 1\n    features:\n"
	     "      - {kind: road, edges: N S}\n      - {kind: field, halves: NNE ENE ESE SSE}\n"
	     "      - {kind: field, halves: SSW WSW WNW}\n", E105, 18, 5, 1),
	CASE("an edge covered twice", HEAD TILE_D "  - id: E\n    count: 1\n    features:\n"
	     "      - {kind: city, edges: N}\n      - {kind: road, edges: N}\n"
	     "      - {kind: field, halves: ENE ESE SSE SSW WSW WNW, borders: N}\n", E105, 22, 9, 1),
	CASE("a half-edge covered twice", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: " ALL_HALVES "}\n      - {kind: field, halves: ENE}\n      - cloister\n",
	     E105, 22, 9, 1),
	CASE("two cloisters", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: " ALL_HALVES "}\n      - cloister\n      - cloister\n", E105, 23, 9, 1),
	CASE("an edge split between two fields", HEAD TILE_D "  - id: B\n    count: 1\n    features:\n"
	     "      - {kind: field, halves: NNW ENE ESE SSE SSW WSW WNW}\n      - {kind: field, halves: NNE}\n",
	     E105, 22, 9, 1),
	CASE("a city that claims half an edge", HEAD TILE_D "  - id: E\n    count: 1\n    features:\n"
	     "      - {kind: city, edges: N, halves: NNW}\n"
	     "      - {kind: field, halves: ENE ESE SSE SSW WSW WNW, borders: N}\n", E105, 21, 40, 1),

	/* E106: the edges line disagrees with the features */
	CASE("an edges line that disagrees", HEAD "  - id: D\n    count: 2\n    start: true\n"
	     "    edges: city road road road\n    features:\n      - {kind: city, edges: N}\n"
	     "      - {kind: road, edges: E W}\n      - {kind: field, halves: ENE WNW, borders: N}\n"
	     "      - {kind: field, halves: ESE SSE SSW WSW}\n", E106, 12, 12, 1),

	/* E107: the start tile */
	CASE("no start tile", HEAD "  - id: B\n    count: 1\n    features: [cloister, {kind: field, halves: " ALL_HALVES
	     "}]\n", E107, 9, 3, 1),
	CASE("two start tiles", HEAD TILE_D "  - id: B\n    count: 1\n    start: true\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E107, 20, 12, 1),
	CASE("a bonus start tile", HEAD "  - id: B\n    count: 1\n    start: true\n    bonus: true\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E107, 11, 12, 1),

	/* E108: a name used twice */
	CASE("two tiles with one id", HEAD TILE_D "  - id: D\n    count: 1\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E108, 18, 9, 1),
	CASE("two kinds with one name", "name: t\nterrains: [field]\nkinds:\n"
	     "  - {name: field, class: area, terrain: field}\n  - {name: field, class: area, terrain: field}\n"
	     "tiles:\n  - {id: A, count: 1, start: true, features: [{kind: field, halves: " ALL_HALVES "}]}\n",
	     E108, 5, 12, 1),
	CASE("a terrain named twice", "name: t\nterrains: [field, road, field]\nkinds: []\ntiles: []\n", E108, 2, 25, 2),

	/* E109: sizes */
	CASE("seventeen features", HEAD TILE_D "  - id: B\n    count: 1\n    features: [cloister, cloister, cloister, "
	     "cloister, cloister, cloister, cloister, cloister, cloister, cloister, cloister, cloister, cloister, cloister, "
	     "cloister, cloister, cloister]\n", E109, 20, 176, 1),
	CASE("a count over 1000", HEAD TILE_D "  - id: B\n    count: 1001\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E109, 19, 12, 1),
	CASE("more than 1000 tiles in all", HEAD TILE_D "  - id: B\n    count: 999\n"
	     "    features: [cloister, {kind: field, halves: " ALL_HALVES "}]\n", E109, 9, 3, 1),
	CASE("nine terrains", "name: t\nterrains: a b c d e f g h i\nkinds: []\ntiles: []\n", E109, 2, 27, 2),
	CASE("thirteen kinds", "name: t\nterrains: [t]\nkinds: [{name: a, class: site}, {name: b, class: site}, "
	     "{name: c, class: site}, {name: d, class: site}, {name: e, class: site}, {name: f, class: site}, "
	     "{name: g, class: site}, {name: h, class: site}, {name: i, class: site}, {name: j, class: site}, "
	     "{name: k, class: site}, {name: l, class: site}, {name: m, class: site}]\ntiles: []\n", E109, 3, 297, 2),
	CASE("a list of too many words", HEAD "  - id: D\n    count: 2\n    start: true\n    features:\n"
	     "      - {kind: city, edges: N}\n      - {kind: road, edges: E W}\n"
	     "      - {kind: field, halves: ENE WNW, borders: N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N "
	     "N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N N}\n"
	     "      - {kind: field, halves: ESE SSE SSW WSW}\n", E109, 15, 177, 1),
	/* tiles of an expansion, and the tile drawn last */
	CASE("an expansion the set does not name", HEAD TILE_D "  - {id: B, count: 1, expansion: abbot, features: "
	     "[cloister, {kind: field, halves: " ALL_HALVES "}]}\n", E104, 18, 34, 1),
	CASE("replaces without an expansion", "expansions: [abbot]\n" HEAD TILE_D "  - {id: B, count: 1, replaces: D, "
	     "features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n", E103, 19, 33, 1),
	CASE("replaces no such tile", "expansions: [abbot]\n" HEAD TILE_D "  - {id: B, count: 1, expansion: abbot, "
	     "replaces: Q, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n", E104, 19, 51, 1),
	CASE("replaces more tiles than there are", "expansions: [abbot]\n" HEAD TILE_D "  - {id: B, count: 2, "
	     "expansion: abbot, replaces: D, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n",
	     E104, 19, 51, 1),
	CASE("two expansions replacing one tile twice", "expansions: [a, b]\n" HEAD TILE_D
	     "  - {id: B, count: 1, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n"
	     "  - {id: Ba, count: 1, expansion: a, replaces: B, features: [cloister, {kind: field, halves: "
	     ALL_HALVES "}]}\n"
	     "  - {id: Bb, count: 1, expansion: b, replaces: B, features: [cloister, {kind: field, halves: "
	     ALL_HALVES "}]}\n", E104, 21, 48, 1),
	CASE("replaces a tile of an expansion", "expansions: [abbot]\n" HEAD TILE_D "  - {id: B, count: 1, "
	     "expansion: abbot, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n"
	     "  - {id: C, count: 1, expansion: abbot, replaces: B, features: [cloister, {kind: field, halves: "
	     ALL_HALVES "}]}\n", E104, 20, 51, 1),
	CASE("a start tile of an expansion", "expansions: [abbot]\n" HEAD "  - {id: D, count: 1, start: true, "
	     "expansion: abbot, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n", E107, 10, 30, 1),
	CASE("two tiles drawn last", "expansions: [abbot]\n" HEAD TILE_D
	     "  - {id: B, count: 1, last: true, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n"
	     "  - {id: C, count: 1, last: true, features: [cloister, {kind: field, halves: " ALL_HALVES "}]}\n",
	     E107, 20, 29, 1),
	CASE("the start tile drawn last", HEAD "  - {id: D, count: 1, start: true, last: yes, features: "
	     "[cloister, {kind: field, halves: " ALL_HALVES "}]}\n", E107, 9, 42, 1),
	CASE("an expansion named twice", "expansions: [abbot, abbot]\n" HEAD TILE_D, E108, 1, 21, 1),
	CASE("nine expansions", "expansions: a b c d e f g h i\n" HEAD TILE_D, E109, 1, 29, 1),
	CASE("too many terrains, said once", "name: t\nterrains: a b c d e f g h i j k l\nkinds: []\ntiles: []\n", E109, 2,
	     27, 2),
};

static void test_tileset_refuses_malformed_sets(void **state)
{
	(void)state;
	int failed = 0;
	for (size_t i = 0; i < CARC_ARRAY_LEN(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct seen s;
		size_t len = c->len ? c->len : strlen(c->text);
		struct carc_tileset *ts = parse(c->text, len, &s);
		bool ok = !ts && s.n == c->count && s.d[0].code == c->code && s.d[0].line == c->line &&
			  s.d[0].col == c->col;
		if (!ok) {
			print_message("%s: expected %d diagnostic(s), the first %s at %u:%u; got %d%s\n", c->what, c->count,
				      carc_code_str(c->code), c->line, c->col, s.n, ts ? " and a tile set" : "");
			print_seen(&s);
			failed++;
		}
		carc_tileset_free(ts);
	}
	assert_int_equal(failed, 0);
}

/* Every code E102-E109 has at least one case above; E101 is the file. */
static void test_tileset_every_code_has_a_case(void **state)
{
	(void)state;
	for (enum carc_code code = CARC_E102; code <= CARC_E109; code++) {
		bool found = false;
		for (size_t i = 0; i < CARC_ARRAY_LEN(bad_cases); i++)
			found |= bad_cases[i].code == code;
		if (!found)
			fail_msg("no malformed tile set triggers %s", carc_code_str(code));
	}
}

static void test_tileset_missing_file_points_at_the_tag(void **state)
{
	(void)state;
	static const char record[] = "[Event \"x\"]\n[Tileset \"no/such/set.yaml\"]\n";
	struct carc_src src = {"game.cgn", record, sizeof record - 1, 1};
	struct seen s;
	memset(&s, 0, sizeof s);
	struct carc_diag_sink sink = {keep, &s};
	size_t off = (size_t)(strstr(record, "no/such") - record);
	assert_null(carc_tileset_load("no/such/set.yaml", &sink, &src, off, 16));
	assert_int_equal(s.n, 1);
	assert_int_equal(s.d[0].code, CARC_E101);
	assert_int_equal(s.d[0].line, 2);
	assert_int_equal(s.d[0].col, 11);
	assert_non_null(strstr(s.d[0].message, "no/such/set.yaml"));
	assert_non_null(strstr(s.d[0].message, "base")); /* names the bundled sets */
	/* a directory is not a tile set either, and says so */
	assert_null(carc_tileset_load(".", &sink, &src, off, 16));
	assert_int_equal(s.d[1].code, CARC_E101);
	assert_non_null(strstr(s.d[1].message, "directory"));
	carc_diag_free(&sink);
}

/* More tile types than a set may hold: one message, not one per extra. */
static void test_tileset_too_many_types(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_buf_adds(&b, HEAD TILE_D);
	for (int i = 0; i < CARC_MAX_TILE_TYPES + 9; i++)
		carc_buf_printf(&b, "  - {id: T%d, count: 1, features: [cloister, {kind: field, halves: " ALL_HALVES
				"}]}\n", i);
	struct seen s;
	struct carc_tileset *ts = parse(b.data, b.len, &s);
	assert_null(ts);
	print_seen(&s);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.d[0].code, CARC_E109);
	assert_int_equal(s.d[0].line, 18 + CARC_MAX_TILE_TYPES - 1); /* the first tile too many */
	carc_buf_free(&b);
}

/* A file full of mistakes gets the first 100 messages, then a word that
 * the rest are not shown. */
static void test_tileset_stops_after_100_errors(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_buf_adds(&b, HEAD TILE_D);
	for (int i = 0; i < 150; i++)
		carc_buf_printf(&b, "  - {id: D, count: 1, features: [cloister]}\n");
	struct seen s;
	memset(&s, 0, sizeof s);
	struct carc_diag_sink sink = {keep, &s};
	assert_null(carc_tileset_parse(b.data, b.len, "many.yaml", &sink));
	assert_int_equal(sink.errors, 100);
	assert_int_equal(s.d[0].code, CARC_E108);
	assert_non_null(strstr(s.d[99].message, "not checked"));
	carc_diag_free(&sink);
	carc_buf_free(&b);
}

/* Columns count characters and positions survive CR LF line ends and a
 * byte-order mark (libyaml's own marks count characters, not bytes). */
static void test_tileset_positions_with_unicode_and_crlf(void **state)
{
	(void)state;
	struct seen s;
	static const char utf8[] = HEAD TILE_D
		"  - {id: B, name: \"J\xc3\xa4ger und Sammler \xe2\x80\x94 \xf0\x9f\x8c\xb2\", count: x}\n";
	assert_null(parse(utf8, strlen(utf8), &s));
	assert_int_equal(s.d[0].code, CARC_E103);
	assert_int_equal(s.d[0].line, 18);
	assert_int_equal(s.d[0].col, 51); /* the x, counted in characters (57 in bytes) */

	struct carc_buf b = {0};
	carc_buf_adds(&b, "\xef\xbb\xbf");
	for (const char *p = HEAD TILE_D "  - id: B\n    count: 1\n    colour: blue\n"; *p; p++) {
		if (*p == '\n')
			carc_buf_addc(&b, '\r');
		carc_buf_addc(&b, *p);
	}
	assert_null(parse(b.data, b.len, &s));
	assert_int_equal(s.n, 2);
	assert_int_equal(s.d[0].code, CARC_E103);
	assert_int_equal(s.d[0].line, 20);
	assert_int_equal(s.d[0].col, 5);
	carc_buf_free(&b);
}

/* A long value quoted in a message is cut, on a character boundary. */
static void test_tileset_long_values_are_cut(void **state)
{
	(void)state;
	struct carc_buf b = {0};
	carc_buf_adds(&b, HEAD TILE_D "  - id: B\n    count: 1\n    features:\n      - {kind: ");
	for (int i = 0; i < 400; i++)
		carc_buf_adds(&b, "\xc3\xa9"); /* e acute */
	carc_buf_adds(&b, ", halves: " ALL_HALVES "}\n");
	struct seen s;
	assert_null(parse(b.data, b.len, &s));
	assert_int_equal(s.n, 1);
	assert_int_equal(s.d[0].code, CARC_E104);
	const char *m = s.d[0].message;
	size_t n = strlen(m);
	assert_true(n < 600);
	assert_string_equal(m + n - 3, "...");
	for (size_t i = 0; i < n;) {
		size_t w = (unsigned char)m[i] < 0x80 ? 1 : carc_utf8_len(m + i, n - i);
		assert_true(w > 0);
		i += w;
	}
	carc_buf_free(&b);
}

/* Random bytes and random cuts of a valid file: always refused or loaded,
 * never a crash (the sanitizer build runs this too). */
static void test_tileset_survives_garbage(void **state)
{
	(void)state;
	size_t len;
	const char *base = carc_bundled_text("base", &len);
	assert_non_null(base);
	unsigned seed = 12345;
	char *buf = malloc(len + 1);
	for (int round = 0; round < 300; round++) {
		size_t n = (size_t)(round * 7919) % len;
		memcpy(buf, base, n);
		for (int k = 0; k < round % 5; k++) { /* a few flipped bytes */
			seed = seed * 1103515245u + 12345u;
			if (n)
				buf[(seed >> 8) % n] = (char)(seed >> 24);
		}
		struct seen s;
		struct carc_tileset *ts = parse(buf, n, &s);
		assert_true(ts ? s.n == 0 : s.n > 0);
		carc_tileset_free(ts);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tileset_base_totals),
		cmocka_unit_test(test_tileset_base_covers_each_edge_and_half_once),
		cmocka_unit_test(test_tileset_base_pictured_orientation),
		cmocka_unit_test(test_tileset_rotation_of_masks),
		cmocka_unit_test(test_tileset_rotation_of_tiles),
		cmocka_unit_test(test_tileset_base_matches_reference),
		cmocka_unit_test(test_tileset_base_matches_jcz_up_to_rotation),
		cmocka_unit_test(test_tileset_river_matches_jcz),
		cmocka_unit_test(test_tileset_gardens_match_jcz),
		cmocka_unit_test(test_tileset_loads_a_small_set),
		cmocka_unit_test(test_tileset_accepts_equivalent_spellings),
		cmocka_unit_test(test_tileset_plays_expansions),
		cmocka_unit_test(test_tileset_bundled_sets_load),
		cmocka_unit_test(test_tileset_cache_loads_once),
		cmocka_unit_test(test_tileset_joins_river_and_base),
		cmocka_unit_test(test_tileset_joins_inns_and_base),
		cmocka_unit_test(test_tileset_refuses_malformed_sets),
		cmocka_unit_test(test_tileset_every_code_has_a_case),
		cmocka_unit_test(test_tileset_missing_file_points_at_the_tag),
		cmocka_unit_test(test_tileset_too_many_types),
		cmocka_unit_test(test_tileset_stops_after_100_errors),
		cmocka_unit_test(test_tileset_positions_with_unicode_and_crlf),
		cmocka_unit_test(test_tileset_long_values_are_cut),
		cmocka_unit_test(test_tileset_survives_garbage),
	};
	return cmocka_run_group_tests_name("tileset", tests, NULL, NULL);
}
