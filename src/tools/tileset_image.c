/*
 * tileset_image.c - build tool: the bundled tile sets as C data, for the
 * WebAssembly build of the engine (make wasm; carc recorder's page).
 *
 *   tileset_image OUT.c NAME...
 *
 * libyaml is not built for WebAssembly, and a second tile-set reader would
 * be a second place for the rules of carc-tileset(5) to drift. So the host
 * build reads each bundled set with the library's one reader
 * (carc_tileset_load) and writes what it made, field by field, as C
 * initializers; the wasm build of tileset.c (CARC_NO_YAML) copies these in
 * place of parsing. Linked with libcarc.a; not part of the library.
 *
 * The sizes asserted below are those of the structs dumped here on x86-64:
 * a field added to them stops the build until it is dumped too.
 */
#include "notation/tileset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(struct carc_feature) == 28, "struct carc_feature changed: dump the new field (a field in padding does not change its size: check test_tileset_image too)");
_Static_assert(sizeof(struct carc_tile) == 528, "struct carc_tile changed: dump the new field");
_Static_assert(sizeof(struct carc_tileset) == 17360, "struct carc_tileset changed: dump the new field");

/* a string literal, for an array of char */
static void lit(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 32 || c > 126)
			fprintf(out, "\\%03o", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* a char * field: NULL or a literal (the copy, tileset.c, duplicates it) */
static void str(FILE *out, const char *s)
{
	if (!s) {
		fputs("NULL", out);
		return;
	}
	fputs("(char *)", out);
	lit(out, s);
}

static void bytes(FILE *out, const uint8_t *b, int n)
{
	fputc('{', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%u", i ? "," : "", b[i]);
	fputc('}', out);
}

static void tile(FILE *out, const struct carc_tile *t)
{
	fputs("\t{.id = ", out);
	lit(out, t->id);
	fputs(", .name = ", out);
	str(out, t->name);
	fprintf(out, ", .count = %u, .start = %d, .bonus = %d, .nfeatures = %u,\n\t .edge_terrain = ", t->count, t->start,
		t->bonus, t->nfeatures);
	bytes(out, t->edge_terrain, 4);
	fputs(", .edge_feature = ", out);
	bytes(out, t->edge_feature, 4);
	fputs(", .half_feature = ", out);
	bytes(out, t->half_feature, 8);
	fprintf(out, ", .centre_feature = %u, .inner_feature = %u,\n\t .rot_edges = {%uu, %uu, %uu, %uu},\n\t .features = {", t->centre_feature, t->inner_feature,
		t->rot_edges[0], t->rot_edges[1], t->rot_edges[2], t->rot_edges[3]);
	for (int f = 0; f < t->nfeatures; f++) {
		const struct carc_feature *ft = &t->features[f];
		fprintf(out, "\n\t\t{%u, %u, %u, %u, %u, ", ft->kind, ft->edges, ft->halves, ft->end, ft->borders);
		bytes(out, ft->attr, CARC_MAX_ATTRS);
		fprintf(out, ", .inner = %d, .line = %u},", ft->inner, ft->line);
	}
	fprintf(out, "},\n\t .line = %u, .expansion = %u, .last = %d, .box_count = %u, .replaces = %d, .order = %u},\n",
		t->line, t->expansion, t->last, t->box_count, t->replaces, t->order);
}

static void names(FILE *out, const char *field, const char (*n)[CARC_ID_MAX + 1], int count)
{
	fprintf(out, "\t.%s = {", field);
	for (int i = 0; i < count; i++) {
		lit(out, n[i]);
		fputs(", ", out);
	}
	fputs("},\n", out);
}

static void set(FILE *out, int k, const struct carc_tileset *ts)
{
	int n = ts->ntiles + ts->nextra;
	fprintf(out, "static const struct carc_tile tiles_%d[%d] = {\n", k, n ? n : 1);
	for (int i = 0; i < n; i++)
		tile(out, &ts->tiles[i]);
	fprintf(out, "};\n\nstatic const struct carc_tileset set_%d = {\n\t.name = ", k);
	str(out, ts->name);
	fputs(", .title = ", out);
	str(out, ts->title);
	fputs(", .rules = ", out);
	str(out, ts->rules);
	fputs(", .note = ", out);
	str(out, ts->note);
	fprintf(out, ",\n\t.joins = %d, .provisional = %d, .nterrains = %d, .nkinds = %d, .nattrs = %d,\n", ts->joins, ts->provisional,
		ts->nterrains, ts->nkinds, ts->nattrs);
	names(out, "terrains", ts->terrains, ts->nterrains);
	fputs("\t.kinds = {", out);
	for (int i = 0; i < ts->nkinds; i++) {
		fputs("{", out);
		lit(out, ts->kinds[i].name);
		fprintf(out, ", %u, %u}, ", ts->kinds[i].klass, ts->kinds[i].terrain);
	}
	fputs("},\n", out);
	names(out, "attrs", ts->attrs, ts->nattrs);
	fprintf(out, "\t.ntiles = %d, .start_tile = %d, .total = %d, .bonus_total = %d,\n\t.by_letter = {", ts->ntiles,
		ts->start_tile, ts->total, ts->bonus_total);
	for (int i = 0; i < 128; i++)
		if (ts->by_letter[i])
			fprintf(out, "[%d] = %u, ", i, ts->by_letter[i]);
	fputs("},\n\t.by_pair = {", out);
	for (int i = 0; i < 128; i++)
		for (int j = 0; j < 128; j++)
			if (ts->by_pair[i][j])
				fprintf(out, "[%d][%d] = %u, ", i, j, ts->by_pair[i][j]);
	fprintf(out, "},\n\t.nexpansions = %d,\n", ts->nexpansions);
	names(out, "expansions", ts->expansions, ts->nexpansions);
	fprintf(out, "\t.playing = %uu, .nextra = %d, .last_tile = %d,\n};\n\n", ts->playing, ts->nextra, ts->last_tile);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: tileset_image OUT.c NAME...\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	fputs("/* Generated by src/tools/tileset_image.c from the bundled tile sets: do not edit. */\n"
	      "#include \"notation/tileset_image.h\"\n\n#include <stddef.h>\n\n", out);
	for (int k = 2; k < argc; k++) {
		struct carc_diag_sink sink = {0};
		struct carc_tileset *ts = carc_tileset_load(argv[k], &sink, NULL, 0, 0);
		if (!ts || sink.errors) {
			fprintf(stderr, "tileset_image: the bundled tile set %s does not load\n", argv[k]);
			return 1;
		}
		set(out, k, ts);
		carc_tileset_free(ts);
	}
	fputs("const struct carc_tileset_image carc_tileset_images[] = {\n", out);
	for (int k = 2; k < argc; k++) {
		fputs("\t{", out);
		lit(out, argv[k]);
		fprintf(out, ", &set_%d, tiles_%d},\n", k, k);
	}
	fprintf(out, "\t{NULL, NULL, NULL}\n};\n");
	if (fclose(out)) {
		perror(argv[1]);
		return 2;
	}
	return 0;
}
