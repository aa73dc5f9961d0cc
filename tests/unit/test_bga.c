/*
 * test_bga.c - Board Game Arena's tile types and meeple zones (bga.c) and
 * CarcassonneLab URLs (clab.c).
 *
 * The table of BGA types is checked zone by zone: every zone of a type
 * names a feature of its base tile, every feature has exactly one zone,
 * and, when the facts are beside the repository ($CARC_SHARED, by default
 * ../shared: reference/bga/FORMAT.md and reference/base-tiles.yaml), each
 * zone names the very feature the facts give for it (compared by its
 * terrain and the edges or half-edges it covers), and each type has the
 * letter and the quarter turns the facts give. A wrong entry fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/rules.h"
#include "import/bga.h"
#include "import/clab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static const struct carc_tileset *base_tiles(void)
{
	static struct carc_tileset *ts;
	if (!ts) {
		struct carc_diag_sink sink = {0};
		ts = carc_tileset_load("base", &sink, NULL, 0, 0);
		carc_diag_free(&sink);
	}
	assert_non_null(ts);
	return ts;
}

static void test_bga_types_are_the_24_base_tiles(void **state)
{
	(void)state;
	const struct carc_tileset *ts = base_tiles();
	unsigned seen = 0;
	assert_null(carc_bga_type(0));
	assert_null(carc_bga_type(25));
	for (long type = 1; type <= CARC_BGA_TYPES; type++) {
		const struct carc_bga_type *bt = carc_bga_type(type);
		assert_non_null(bt);
		assert_int_equal(bt->type, type);
		assert_true(bt->turn < 4);
		int tile = carc_bga_tile(ts, bt);
		assert_true(tile >= 0);
		assert_false(seen & (1u << tile));
		seen |= 1u << tile;
		assert_ptr_equal(carc_bga_type_of(bt->letter), bt);
	}
	assert_int_equal(ts->ntiles, CARC_BGA_TYPES);
}

static void test_bga_zones_name_every_feature_once(void **state)
{
	(void)state;
	const struct carc_tileset *ts = base_tiles();
	for (long type = 1; type <= CARC_BGA_TYPES; type++) {
		const struct carc_bga_type *bt = carc_bga_type(type);
		const struct carc_tile *t = &ts->tiles[carc_bga_tile(ts, bt)];
		int zones_of[CARC_MAX_FEATURES] = {0};
		for (long pos = 0; pos <= CARC_BGA_MAX_POS + 1; pos++) {
			int f = carc_bga_zone_feature(ts, bt, pos);
			if (f < 0)
				continue;
			assert_true(pos >= 1 && pos <= CARC_BGA_MAX_POS);
			assert_true(f < t->nfeatures);
			zones_of[f]++;
			assert_int_equal(carc_bga_feature_zone(ts, bt, f), pos);
		}
		for (int f = 0; f < t->nfeatures; f++)
			if (zones_of[f] != 1)
				fail_msg("type %ld (%s): feature %d has %d zones", type, t->id, f, zones_of[f]);
	}
	/* U has zones 1, 3 and 4 */
	const struct carc_bga_type *u = carc_bga_type(16);
	assert_int_equal(carc_bga_zone_feature(ts, u, 2), -1);
	assert_true(carc_bga_zone_feature(ts, u, 3) >= 0);
}

/* ---- against the facts beside the repository ---- */

static char *slurp(const char *path)
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
	return b.data;
}

static const char *shared_dir(void)
{
	const char *dir = getenv("CARC_SHARED");
	return dir && *dir ? dir : "../shared";
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

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
}

/* The edges or half-edges a list of the reference names, as a mask. */
static unsigned mask_of(yaml_document_t *doc, yaml_node_t *list, const char *const *names, int count)
{
	unsigned m = 0;
	if (!list || list->type != YAML_SEQUENCE_NODE)
		return 0;
	for (yaml_node_item_t *i = list->data.sequence.items.start; i < list->data.sequence.items.top; i++)
		for (int k = 0; k < count; k++)
			if (!strcmp(scalar(yaml_document_get_node(doc, *i)), names[k]))
				m |= 1u << k;
	return m;
}

/* The reference's feature fid of tile letter. */
static yaml_node_t *ref_feature(yaml_document_t *doc, char letter, const char *fid)
{
	yaml_node_t *tiles = map_get(doc, yaml_document_get_root_node(doc), "tiles");
	for (yaml_node_item_t *i = tiles->data.sequence.items.start; i < tiles->data.sequence.items.top; i++) {
		yaml_node_t *t = yaml_document_get_node(doc, *i);
		if (scalar(map_get(doc, t, "letter"))[0] != letter)
			continue;
		yaml_node_t *fs = map_get(doc, t, "features");
		for (yaml_node_item_t *j = fs->data.sequence.items.start; j < fs->data.sequence.items.top; j++) {
			yaml_node_t *f = yaml_document_get_node(doc, *j);
			if (!strcmp(scalar(map_get(doc, f, "id")), fid))
				return f;
		}
	}
	return NULL;
}

/* Whether our feature f of t is the reference's feature rf. */
static bool same_feature(const struct carc_tileset *ts, const struct carc_tile *t, int f, yaml_document_t *doc,
			 yaml_node_t *rf)
{
	static const char *const edges[] = {"N", "E", "S", "W"};
	static const char *const halves[] = {"Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"};
	const struct carc_feature *ft = &t->features[f];
	const char *kind = ts->kinds[ft->kind].name, *type = scalar(map_get(doc, rf, "type"));
	if (strcmp(kind, type))
		return false;
	if (!strcmp(kind, "cloister"))
		return t->centre_feature == f;
	if (!strcmp(kind, "field"))
		return ft->halves == mask_of(doc, map_get(doc, rf, "half_edges"), halves, 8);
	return ft->edges == mask_of(doc, map_get(doc, rf, "edges"), edges, 4);
}

static void test_bga_table_matches_the_facts(void **state)
{
	(void)state;
	char path[600];
	snprintf(path, sizeof path, "%s/reference/bga/FORMAT.md", shared_dir());
	char *format = slurp(path);
	snprintf(path, sizeof path, "%s/reference/base-tiles.yaml", shared_dir());
	char *tiles = slurp(path);
	if (!format || !tiles) {
		print_message("skipped: %s/reference is absent (set CARC_SHARED)\n", shared_dir());
		free(format);
		free(tiles);
		skip();
		return;
	}
	yaml_document_t doc;
	yaml_parser_t p;
	assert_true(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)tiles, strlen(tiles));
	assert_true(yaml_parser_load(&p, &doc));
	yaml_parser_delete(&p);
	const struct carc_tileset *ts = base_tiles();
	int rows = 0, zones = 0;
	/* rows: | 14 | L | 0 | 1: road2, 2: road0, ... | */
	for (char *line = format; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		int type, turn, used;
		char letter;
		if (sscanf(line, "| %d | %c | %d | %n", &type, &letter, &turn, &used) != 3)
			continue;
		rows++;
		const struct carc_bga_type *bt = carc_bga_type(type);
		assert_non_null(bt);
		if (bt->letter != letter || bt->turn != turn)
			fail_msg("type %d: the table says %c turned %d, the facts %c turned %d", type, bt->letter, bt->turn,
				 letter, turn);
		const struct carc_tile *t = &ts->tiles[carc_bga_tile(ts, bt)];
		const char *q = line + used;
		int pos, n;
		char fid[16];
		while (sscanf(q, "%d: %15[a-z0-9]%n", &pos, fid, &n) == 2) {
			yaml_node_t *rf = ref_feature(&doc, letter, fid);
			assert_non_null(rf);
			int f = carc_bga_zone_feature(ts, bt, pos);
			if (f < 0 || !same_feature(ts, t, f, &doc, rf))
				fail_msg("type %d (%c) zone %d: the table names feature %d, not the facts' %s", type, letter, pos,
					 f, fid);
			zones++;
			q += n;
			while (*q == ',' || *q == ' ')
				q++;
		}
	}
	assert_int_equal(rows, CARC_BGA_TYPES);
	assert_int_equal(zones, 83);
	yaml_document_delete(&doc);
	free(format);
	free(tiles);
}

static void test_bga_colours_and_spots(void **state)
{
	(void)state;
	assert_int_equal(carc_bga_colour("ff0000", 6), CARC_RED);
	assert_int_equal(carc_bga_colour("#008000", 7), CARC_GREEN);
	assert_int_equal(carc_bga_colour("0000FF", 6), CARC_BLUE);
	assert_int_equal(carc_bga_colour("ffa500", 6), CARC_YELLOW);
	assert_int_equal(carc_bga_colour("000000", 6), CARC_BLACK);
	assert_int_equal(carc_bga_colour("00ffff", 6), -1);
	const struct carc_tileset *ts = base_tiles();
	/* D's road (zone 1) turned 90: it crosses N and S, named N */
	const struct carc_bga_type *d = carc_bga_type(15);
	const struct carc_tile *t = &ts->tiles[carc_bga_tile(ts, d)];
	assert_int_equal(carc_bga_spot(t, 1, carc_bga_zone_feature(ts, d, 1)), CARC_SPOT_N);
	/* its southern field (zone 4) turned 180: half-edges NNW NNE ENE WNW, named N (both halves) */
	assert_int_equal(carc_bga_spot(t, 2, carc_bga_zone_feature(ts, d, 4)), CARC_SPOT_N);
	/* B's cloister */
	const struct carc_bga_type *b = carc_bga_type(20);
	assert_int_equal(carc_bga_spot(&ts->tiles[carc_bga_tile(ts, b)], 3, carc_bga_zone_feature(ts, b, 1)),
			 CARC_SPOT_C);
}

/* Import and export are inverse: a URL, read and written, comes back. */
static void test_clab_url_round_trip(void **state)
{
	(void)state;
	static const char url[] = "https://www.carcassonnelab.com/#/0/0/SSHv/12b1211121L12214?players=Ann,"
				  "Bj%C3%B6rn&colors=green,black\n";
	struct carc_src src = {"url", url, strlen(url), 1};
	struct carc_diag_sink sink = {0};
	struct carc_buf cgn = {0}, back = {0};
	assert_true(carc_clab_import(&src, NULL, &cgn, &sink));
	assert_non_null(strstr(cgn.data, "[Black \"Bj\xc3\xb6rn\"]"));
	assert_non_null(strstr(cgn.data, "4. black U 1,-1 0   farmer E"));
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	assert_true(carc_parse_string(cgn.data, cgn.len, "cgn", cache, carc_rules_registry(), &rec, &sink));
	assert_true(carc_clab_export(&rec, &back, &sink));
	assert_string_equal(back.data, url);
	assert_int_equal(sink.errors, 0);
	carc_record_free(&rec);
	carc_tileset_cache_free(cache);
	carc_buf_free(&cgn);
	carc_buf_free(&back);
	carc_diag_free(&sink);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bga_types_are_the_24_base_tiles),
		cmocka_unit_test(test_bga_zones_name_every_feature_once),
		cmocka_unit_test(test_bga_table_matches_the_facts),
		cmocka_unit_test(test_bga_colours_and_spots),
		cmocka_unit_test(test_clab_url_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
