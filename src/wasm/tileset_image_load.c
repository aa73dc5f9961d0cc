/*
 * tileset_image_load.c - the tile-set loader's entry points in the build
 * without libyaml (the WebAssembly engine of carc recorder's page,
 * CARC_NO_YAML): a bundled set is a copy of the image the host build made
 * of it with the one YAML reader (src/tools/tileset_image.c,
 * notation/tileset_image.h); any other tile set is refused. In place of
 * notation/tileset_yaml.c and tileset_schema.c, which the wasm build leaves
 * out (Makefile, WASM_SKIP).
 */
#include "notation/tileset_image.h"
#include "notation/tileset_int.h"
#include "common/diag.h"

#include <stdlib.h>
#include <string.h>

struct carc_tileset *tileset_parse_text(const char *text, size_t len, const char *name, struct carc_diag_sink *sink,
					bool trusted)
{
	for (const struct carc_tileset_image *im = carc_tileset_images; trusted && im->name; im++) {
		if (strcmp(im->name, name))
			continue;
		struct carc_tileset *ts = xcalloc(1, sizeof *ts);
		*ts = *im->set;
		int n = ts->ntiles + ts->nextra;
		ts->tiles = xcalloc(n ? (size_t)n : 1, sizeof *ts->tiles);
		memcpy(ts->tiles, im->tiles, (size_t)n * sizeof *ts->tiles);
		for (int i = 0; i < n; i++)
			ts->tiles[i].name = im->tiles[i].name ? xstrdup(im->tiles[i].name) : NULL;
		ts->name = im->set->name ? xstrdup(im->set->name) : NULL;
		ts->title = im->set->title ? xstrdup(im->set->title) : NULL;
		ts->rules = im->set->rules ? xstrdup(im->set->rules) : NULL;
		ts->note = im->set->note ? xstrdup(im->set->note) : NULL;
		ts->serial = tileset_new_serial();
		ts->source = xstrndup(text, len);
		ts->source_len = len;
		return ts;
	}
	struct carc_src src = {name, text, len, 1};
	carc_diag_report(sink, CARC_E101, &src, 0, 0,
			 "this build of carc reads only the bundled tile sets (it has no YAML reader)");
	return NULL;
}

struct carc_tileset *carc_tileset_parse(const char *text, size_t len, const char *name, struct carc_diag_sink *sink)
{
	return tileset_parse_text(text, len, name, sink, false);
}
