/*
 * harness_tileset.c - libFuzzer entry point over the tile-set loader.
 *
 * The input is the text of a tile-set file. It is loaded as carc tiles
 * --check loads it (carc_tileset_parse: the UTF-8 check, the YAML event
 * pass with its caps, the tree, the schema), and every diagnostic is
 * formatted with its source line and caret, so the positions the loader
 * computes are exercised too. A tile set that loads must hold together:
 * each tile found by its own id, a start tile (none only in a set whose
 * tiles join a base set's, joins: true), every feature's kind known,
 * and each edge and half-edge it claims pointing back at it; and it goes
 * through the Hunters and Gatherers check and a score-free walk of its
 * tables. A finding is a crash, a sanitizer report, a leak, a timeout, or
 * an abort() of one of these checks.
 *
 * Build and run: sh tests/fuzz/fuzz.sh tileset (see tests/fuzz/README.md).
 */
#include "rules/hunters.h"
#include "notation/tileset.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void format_diag(void *ctx, const struct carc_diag *d)
{
	struct carc_buf *b = ctx;
	carc_buf_reset(b);
	carc_diag_format(b, d, (d->code & 1) != 0);
}

static void broken(const struct carc_tileset *ts, int tile, const char *what)
{
	fprintf(stderr, "fuzz: tile set %s, tile %d: %s\n", ts->name ? ts->name : "?", tile, what);
	abort();
}

static void check_tables(const struct carc_tileset *ts)
{
	if (ts->ntiles < 1 || ts->start_tile >= ts->ntiles || (ts->start_tile < 0 && !ts->joins))
		broken(ts, -1, "no start tile in range");
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		if (carc_tileset_find(ts, t->id, strlen(t->id)) != i)
			broken(ts, i, "the tile is not found by its own id");
		for (int f = 0; f < t->nfeatures; f++)
			if (t->features[f].kind >= ts->nkinds)
				broken(ts, i, "a feature of no known kind");
		for (int e = 0; e < 4; e++) {
			uint8_t f = t->edge_feature[e];
			if (f != CARC_NO_FEATURE && (f >= t->nfeatures || !(t->features[f].edges & (1u << e))))
				broken(ts, i, "an edge points at a feature that does not claim it");
			if (t->edge_terrain[e] >= ts->nterrains)
				broken(ts, i, "an edge of no known terrain");
		}
		for (int h = 0; h < 8; h++) {
			uint8_t f = t->half_feature[h];
			if (f != CARC_NO_FEATURE && (f >= t->nfeatures || !(t->features[f].halves & (1u << h))))
				broken(ts, i, "a half-edge points at a feature that does not claim it");
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct carc_buf msg = {0};
	struct carc_diag_sink sink = {format_diag, &msg};
	struct carc_tileset *ts = carc_tileset_parse((const char *)data, size, "fuzz.yaml", &sink);
	if (ts && sink.errors)
		broken(ts, -1, "a tile set was returned with errors");
	if (!ts && !sink.errors) {
		fprintf(stderr, "fuzz: no tile set and no error\n");
		abort();
	}
	if (ts) {
		check_tables(ts);
		carc_hunters_report_tileset(ts, "fuzz.yaml", &sink);
		carc_tileset_free(ts);
	}
	carc_diag_free(&sink);
	carc_buf_free(&msg);
	return 0;
}
