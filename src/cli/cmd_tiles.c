/*
 * cmd_tiles.c - carc tiles: the tile types of a tile set, drawn.
 *
 * Lists every tile type with its count and a small picture of it (Unicode,
 * or ASCII with --ascii), so a person recording a game at the table can find
 * a tile's letter; with IDs, only those. --svg draws the set as one sheet
 * (the reference card kept at the table). --check validates a tile-set file
 * and prints its totals. The pictures come from the tile-set data alone
 * (picture.c, svg.c).
 */
#include "common/width.h"
#include "cli/cli.h"
#include "rules/module.h"
#include "output/picture.h"
#include "output/svg.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* Size of a tile's picture in the list, in characters. */
enum { PIC_W = 11, PIC_H = 5, PER_ROW = 5 };

static void help(void)
{
	printf("usage: carc tiles [OPTIONS] [ID...]\n\n"
	       "List the tile types of a tile set with their counts and draw each one,\n"
	       "so that a tile's letter is easy to find; with IDs, only those types.\n\n"
	       "options:\n"
	       "  -t, --tileset NAME|PATH  a bundled tile set or a tile-set file (default base)\n"
	       "  -x, --expansions LIST    with the tiles of these expansions, as a record's\n"
	       "                           Expansions tag names them (\"abbot\": the garden tiles;\n"
	       "                           --tileset inns lists Inns & Cathedrals' own,\n"
	       "                           --tileset traders-builders Traders & Builders')\n"
	       "  -a, --ascii              draw with plain ASCII instead of Unicode\n"
	       "  -s, --svg                draw the tiles as one SVG sheet, the id under each\n"
	       "  -o, --output FILE        write to FILE instead of standard output\n"
	       "  -c, --check FILE         validate a tile-set file and print its totals\n"
	       "  -h, --help               show this help\n"
	       "  -V, --version            show the version\n\n"
	       "exit status: 0 done (with --check: the tile set is valid), 2 could not run\n"
	       "(usage, unknown tile set or id, invalid tile set).\n");
}

/* "D: 4 start", "B1: 2 bonus" */
static void tile_label(char *buf, size_t size, const struct carc_tileset *ts, int i)
{
	const struct carc_tile *t = &ts->tiles[i];
	snprintf(buf, size, "%s: %u%s", t->id, (unsigned)t->count,
		 i == ts->start_tile ? " start" : t->bonus ? " bonus" : "");
}

static void list_text(struct carc_buf *out, const struct carc_tileset *ts, const int *sel, int nsel, bool ascii)
{
	carc_buf_printf(out, "%s: %s\n", ts->name, ts->title ? ts->title : ts->name);
	if (ts->provisional)
		carc_buf_printf(out, "provisional: not the printed distribution%s%s\n", ts->note ? ": " : "",
				ts->note ? ts->note : "");
	else if (ts->note)
		carc_buf_printf(out, "note: %s\n", ts->note);
	if (ts->start_tile >= 0)
		carc_buf_printf(out, "%d tiles in %d types, the start tile (%s) included", ts->total, ts->ntiles,
				ts->tiles[ts->start_tile].id);
	else /* an expansion's tiles for the base supply (inns) */
		carc_buf_printf(out, "%d tiles in %d types, no start tile (the base set's starts the game)", ts->total,
				ts->ntiles);
	if (ts->bonus_total)
		carc_buf_printf(out, ", and %d bonus tile%s", ts->bonus_total, ts->bonus_total == 1 ? "" : "s");
	carc_buf_adds(out, ".\n");

	struct carc_shape_cache *shapes = carc_shape_cache_new(ts);
	const int cell = PIC_W + 4; /* frame and a gap of two */
	for (int row = 0; row < nsel; row += PER_ROW) {
		int n = nsel - row < PER_ROW ? nsel - row : PER_ROW;
		struct carc_canvas cv;
		carc_canvas_init(&cv, n * cell, PIC_H + 3);
		for (int k = 0; k < n; k++) {
			int i = sel[row + k], x = k * cell;
			char label[48];
			tile_label(label, sizeof label, ts, i);
			carc_canvas_text(&cv, x, 0, label, 0);
			carc_canvas_put(&cv, x, 1, ascii ? "+" : "┌", 0);
			carc_canvas_put(&cv, x + PIC_W + 1, 1, ascii ? "+" : "┐", 0);
			carc_canvas_put(&cv, x, PIC_H + 2, ascii ? "+" : "└", 0);
			carc_canvas_put(&cv, x + PIC_W + 1, PIC_H + 2, ascii ? "+" : "┘", 0);
			for (int c = 1; c <= PIC_W; c++) {
				carc_canvas_put(&cv, x + c, 1, ascii ? "-" : "─", 0);
				carc_canvas_put(&cv, x + c, PIC_H + 2, ascii ? "-" : "─", 0);
			}
			for (int r = 2; r < PIC_H + 2; r++) {
				carc_canvas_put(&cv, x, r, ascii ? "|" : "│", 0);
				carc_canvas_put(&cv, x + PIC_W + 1, r, ascii ? "|" : "│", 0);
			}
			carc_picture_tile(&cv, x + 1, 2, PIC_W, PIC_H, ts, carc_shape_get(shapes, i), 0, ascii);
		}
		carc_buf_addc(out, '\n');
		carc_canvas_render(&cv, out, false);
		carc_canvas_free(&cv);
	}
	carc_shape_cache_free(shapes);

	carc_buf_addc(out, '\n');
	int idw = 2;
	for (int k = 0; k < nsel; k++)
		if ((int)carc_str_width(ts->tiles[sel[k]].id) > idw) /* in columns, for ids beyond ASCII */
			idw = (int)carc_str_width(ts->tiles[sel[k]].id);
	for (int k = 0; k < nsel; k++) {
		const struct carc_tile *t = &ts->tiles[sel[k]];
		carc_buf_add_padded(out, t->id, (size_t)idw, false);
		carc_buf_printf(out, " %3u  %s", (unsigned)t->count, t->name ? t->name : "");
		if (sel[k] == ts->start_tile)
			carc_buf_printf(out, "%sincluding the start tile", t->name ? "; " : "");
		if (t->bonus)
			carc_buf_printf(out, "%sbonus tile", t->name ? "; " : "");
		carc_buf_addc(out, '\n');
	}
	carc_buf_addc(out, '\n');
	carc_picture_key(out, ts, ascii);
}

/* The totals of a tile set, for --check. */
static void totals(struct carc_buf *out, const struct carc_tileset *ts, const char *name)
{
	carc_buf_printf(out, "%s: tile set %s", name, ts->name);
	if (ts->title)
		carc_buf_printf(out, " (%s)", ts->title);
	if (ts->rules) {
		const struct carc_ruleset *rs = carc_ruleset_find(ts->rules, strlen(ts->rules));
		carc_buf_printf(out, ", for the %s %s", ts->rules, rs && rs->expansion ? "expansion" : "rules");
	}
	carc_buf_adds(out, "\n");
	if (ts->provisional)
		carc_buf_printf(out, "provisional: not the printed distribution%s%s\n", ts->note ? ": " : "",
				ts->note ? ts->note : "");
	else if (ts->note)
		carc_buf_printf(out, "note: %s\n", ts->note);
	if (ts->start_tile >= 0)
		carc_buf_printf(out, "tiles: %d (the start tile, %s, included), bonus tiles: %d, types: %d\n", ts->total,
				ts->tiles[ts->start_tile].id, ts->bonus_total, ts->ntiles);
	else
		carc_buf_printf(out, "tiles: %d (no start tile: the base set's), bonus tiles: %d, types: %d\n", ts->total,
				ts->bonus_total, ts->ntiles);
	long edges[CARC_MAX_TERRAINS] = {0}, kinds[CARC_MAX_KINDS] = {0}, attrs[CARC_MAX_ATTRS] = {0};
	for (int i = 0; i < ts->ntiles; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		for (int e = 0; e < 4; e++)
			edges[t->edge_terrain[e]] += t->count;
		for (int f = 0; f < t->nfeatures; f++) {
			kinds[t->features[f].kind] += t->count;
			for (int a = 0; a < ts->nattrs; a++) /* the known ones and the set's own */
				attrs[a] += (long)t->features[f].attr[a] * t->count;
		}
	}
	carc_buf_adds(out, "edges:");
	for (int e = 0; e < ts->nterrains; e++)
		carc_buf_printf(out, "%s %s %ld", e ? "," : "", ts->terrains[e], edges[e]);
	carc_buf_adds(out, "\nfeatures:");
	for (int k = 0, n = 0; k < ts->nkinds; k++)
		if (!carc_kind_aside(ts, k))
			carc_buf_printf(out, "%s %s %ld", n++ ? "," : "", ts->kinds[k].name, kinds[k]);
	carc_buf_adds(out, "\nattributes:");
	int n = 0;
	for (int a = 0; a < ts->nattrs; a++)
		if (attrs[a])
			carc_buf_printf(out, "%s %s %ld", n++ ? "," : "", ts->attrs[a], attrs[a]);
	carc_buf_adds(out, n ? "\n" : " none\n");
}

/* Puts the expansions named in play; false, with a message, when the set
 * names none of that name. */
static bool play(struct carc_tileset *ts, const char *list)
{
	for (const char *w = list; *w;) {
		size_t len = strcspn(w, " ,\t");
		if (len && carc_tileset_expansion(ts, w, len) < 0) {
			struct carc_buf names = {0};
			for (int i = 0; i < ts->nexpansions; i++)
				carc_buf_printf(&names, "%s%s", i ? ", " : "", ts->expansions[i]);
			fprintf(stderr, "carc tiles: tile set %s has no tiles of an expansion '%.*s' (%s%s)\n", ts->name,
				(int)len, w, ts->nexpansions ? "it has: " : "it has none",
				carc_buf_cstr(&names));
			carc_buf_free(&names);
			return false;
		}
		w += len + strspn(w + len, " ,\t");
	}
	carc_tileset_play(ts, list, strlen(list));
	return true;
}

static int check(const char *path, const char *expansions, FILE *out)
{
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	const char *name = carc_input_name(path);
	struct carc_tileset *ts = NULL;
	FILE *f = carc_open_input(path);
	if (f) {
		size_t len = 0;
		char *text = carc_tileset_read(f, &len);
		int err = errno;
		carc_close_input(f);
		if (!text && err == EFBIG) {
			struct carc_src whole = {.name = name}; /* no text: the file as a whole */
			carc_diag_report(&sink, CARC_E101, &whole, 0, 0, "larger than 64 MiB, the most a tile-set file "
					 "may be (it was not read further)");
			fprintf(out, "%s: not a valid tile set: 1 error\n", name);
			carc_diag_free(&sink);
			carc_buf_free(&printer.buf);
			return CARC_EXIT_TROUBLE;
		}
		if (!text) {
			carc_say_cannot(name, "read", err);
			carc_buf_free(&printer.buf);
			return CARC_EXIT_TROUBLE;
		}
		ts = carc_tileset_parse(text, len, name, &sink);
		free(text);
	} else if (carc_bundled_text(path, &(size_t){0})) {
		ts = carc_tileset_load(path, &sink, NULL, 0, 0);
	} else {
		carc_say_cannot(name, "open", errno);
		carc_buf_free(&printer.buf);
		return CARC_EXIT_TROUBLE;
	}
	int status = CARC_EXIT_OK;
	if (ts && expansions && !play(ts, expansions)) {
		status = CARC_EXIT_TROUBLE;
	} else if (ts) {
		/* a tile set made for a rule set must also fit its rules (E401) */
		if (carc_rules_report_tileset(ts, name, &sink))
			status = CARC_EXIT_TROUBLE;
		struct carc_buf b = {0};
		totals(&b, ts, name);
		fwrite(b.data, 1, b.len, out);
		carc_buf_free(&b);
		carc_tileset_free(ts);
	} else {
		fprintf(out, "%s: not a valid tile set: %u error%s\n", name, sink.errors, sink.errors == 1 ? "" : "s");
		status = CARC_EXIT_TROUBLE;
	}
	carc_diag_free(&sink);
	carc_buf_free(&printer.buf);
	return status;
}

int cmd_tiles(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"tileset", required_argument, NULL, 't'}, {"ascii", no_argument, NULL, 'a'},
		{"svg", no_argument, NULL, 's'},           {"output", required_argument, NULL, 'o'},
		{"check", required_argument, NULL, 'c'},   {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},       {"expansions", required_argument, NULL, 'x'},
		{NULL, 0, NULL, 0},
	};
	const char *tileset = "base", *output = NULL, *check_path = NULL, *expansions = NULL;
	bool ascii = false, svg = false;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":t:aso:c:x:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			tileset = optarg;
			break;
		case 'a':
			ascii = true;
			break;
		case 's':
			svg = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'c':
			check_path = optarg;
			break;
		case 'x':
			expansions = optarg;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("tiles", c, argv);
		}
	}
	if (check_path && (svg || optind < argc))
		return carc_usage_error("tiles", "--check takes a file and no tile ids or --svg");
	struct carc_output to;
	if (!carc_output_open(&to, "tiles", output))
		return CARC_EXIT_TROUBLE;
	FILE *out = to.f;
	int status = CARC_EXIT_OK;
	if (check_path) {
		status = check(check_path, expansions, out);
		goto done;
	}

	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_src cmd = {.name = "carc tiles"}; /* where a missing tile set is reported */
	struct carc_tileset *ts = carc_tileset_load(tileset, &sink, &cmd, 0, 0);
	carc_diag_free(&sink);
	carc_buf_free(&printer.buf);
	if (!ts || (expansions && !play(ts, expansions))) {
		carc_tileset_free(ts);
		status = CARC_EXIT_TROUBLE;
		goto done;
	}
	int *sel = xcalloc((size_t)ts->ntiles + (size_t)(argc - optind) + 1, sizeof *sel);
	int nsel = 0;
	if (optind == argc)
		for (int i = 0; i < ts->ntiles; i++)
			sel[nsel++] = i;
	for (int a = optind; a < argc; a++) {
		int i = carc_tileset_find(ts, argv[a], strlen(argv[a]));
		if (i < 0) {
			for (int x = ts->ntiles; x < ts->ntiles + ts->nextra; x++)
				if (!strcmp(ts->tiles[x].id, argv[a]) && ts->tiles[x].expansion)
					i = x;
			if (i >= 0)
				fprintf(stderr, "carc tiles: tile %s of tile set %s exists only with the expansion %s "
					"(--expansions %s)\n", argv[a], ts->name, ts->expansions[ts->tiles[i].expansion - 1],
					ts->expansions[ts->tiles[i].expansion - 1]);
			else
				fprintf(stderr, "carc tiles: tile set %s has no tile '%s'\n", ts->name, argv[a]);
			status = CARC_EXIT_TROUBLE;
			continue;
		}
		sel[nsel++] = i;
	}
	if (status == CARC_EXIT_OK) {
		struct carc_buf b = {0};
		if (svg)
			carc_svg_tile_sheet(&b, ts, sel, nsel);
		else
			list_text(&b, ts, sel, nsel, ascii);
		fwrite(b.data, 1, b.len, out);
		carc_buf_free(&b);
	}
	free(sel);
	carc_tileset_free(ts);
done:
	if (!carc_output_close(&to, status != CARC_EXIT_TROUBLE))
		status = CARC_EXIT_TROUBLE;
	return status;
}
