/*
 * test_tileset_image.c - the bundled tile sets as C data (the image that
 * carc recorder's WebAssembly engine reads in place of YAML, made by
 * src/tools/tileset_image.c) hold exactly what the one reader makes of the
 * YAML: every field of every set and of every tile and feature, so that the
 * page plays with the very tile sets of the command line. The generated
 * file is compiled into this test as it is into the engine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "notation/tileset_image.h"

#include <string.h>

#include "wasm/tileset_image.c"

static void same_str(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

static void same_tile(const struct carc_tile *a, const struct carc_tile *b)
{
	assert_string_equal(a->id, b->id);
	same_str(a->name, b->name);
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->start, b->start);
	assert_int_equal(a->bonus, b->bonus);
	assert_int_equal(a->nfeatures, b->nfeatures);
	assert_memory_equal(a->edge_terrain, b->edge_terrain, sizeof a->edge_terrain);
	assert_memory_equal(a->edge_feature, b->edge_feature, sizeof a->edge_feature);
	assert_memory_equal(a->half_feature, b->half_feature, sizeof a->half_feature);
	assert_int_equal(a->centre_feature, b->centre_feature);
	assert_int_equal(a->inner_feature, b->inner_feature);
	assert_memory_equal(a->rot_edges, b->rot_edges, sizeof a->rot_edges);
	for (int f = 0; f < a->nfeatures; f++) {
		const struct carc_feature *x = &a->features[f], *y = &b->features[f];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->edges, y->edges);
		assert_int_equal(x->halves, y->halves);
		assert_int_equal(x->end, y->end);
		assert_int_equal(x->borders, y->borders);
		assert_memory_equal(x->attr, y->attr, sizeof x->attr);
		assert_int_equal(x->inner, y->inner);
		assert_int_equal(x->line, y->line);
	}
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->expansion, b->expansion);
	assert_int_equal(a->last, b->last);
	assert_int_equal(a->box_count, b->box_count);
	assert_int_equal(a->replaces, b->replaces);
	assert_int_equal(a->order, b->order);
}

static void same_set(const struct carc_tileset *a, const struct carc_tileset *b)
{
	same_str(a->name, b->name);
	same_str(a->title, b->title);
	same_str(a->rules, b->rules);
	same_str(a->note, b->note);
	assert_int_equal(a->provisional, b->provisional);
	assert_int_equal(a->joins, b->joins);
	assert_int_equal(a->nterrains, b->nterrains);
	assert_memory_equal(a->terrains, b->terrains, sizeof a->terrains);
	assert_int_equal(a->nkinds, b->nkinds);
	for (int k = 0; k < a->nkinds; k++) {
		assert_string_equal(a->kinds[k].name, b->kinds[k].name);
		assert_int_equal(a->kinds[k].klass, b->kinds[k].klass);
		assert_int_equal(a->kinds[k].terrain, b->kinds[k].terrain);
	}
	assert_int_equal(a->nattrs, b->nattrs);
	assert_memory_equal(a->attrs, b->attrs, sizeof a->attrs);
	assert_int_equal(a->ntiles, b->ntiles);
	assert_int_equal(a->start_tile, b->start_tile);
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->bonus_total, b->bonus_total);
	assert_memory_equal(a->by_letter, b->by_letter, sizeof a->by_letter);
	assert_memory_equal(a->by_pair, b->by_pair, sizeof a->by_pair);
	assert_int_equal(a->nexpansions, b->nexpansions);
	assert_memory_equal(a->expansions, b->expansions, sizeof a->expansions);
	assert_int_equal(a->playing, b->playing);
	assert_int_equal(a->nextra, b->nextra);
	assert_int_equal(a->last_tile, b->last_tile);
}

static void test_tileset_image_equals_the_reader(void **state)
{
	(void)state;
	int n = 0;
	for (const struct carc_tileset_image *im = carc_tileset_images; im->name; im++, n++) {
		struct carc_diag_sink sink = {0};
		struct carc_tileset *ts = carc_tileset_load(im->name, &sink, NULL, 0, 0);
		assert_non_null(ts);
		same_set(im->set, ts);
		for (int i = 0; i < ts->ntiles + ts->nextra; i++)
			same_tile(&im->tiles[i], &ts->tiles[i]);
		carc_tileset_free(ts);
		carc_diag_free(&sink);
	}
	/* every bundled set has its image */
	assert_int_equal((size_t)n, carc_bundled_count());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tileset_image_equals_the_reader),
	};
	return cmocka_run_group_tests_name("tileset_image", tests, NULL, NULL);
}
