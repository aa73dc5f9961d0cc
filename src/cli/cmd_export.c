/*
 * cmd_export.c - carc export: games of a CGN file for other programs.
 *
 * One target so far: --to carcassonnelab, one CarcassonneLab replay URL a
 * line for each game of the file, in order. A game the URL cannot carry,
 * or one with a syntax error, gets its messages on standard error and no
 * line; the exit status is then 2. The URLs are written when the whole
 * file has been read.
 */
#include "import/clab.h"
#include "cli/cli.h"
#include "rules/rules.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

static void help(void)
{
	printf("usage: carc export --to carcassonnelab [-o OUT] FILE|-\n\n"
	       "Write each game of a CGN file as a CarcassonneLab replay URL, one a line,\n"
	       "so that a game recorded at the table can be opened in that viewer. Only\n"
	       "what the URL carries is written: tiles, positions, rotations, followers,\n"
	       "discards (#/0/0.K/: K tiles placed before it), and the players' names\n"
	       "and colours. Claims, Result and other tags are left out. A game the URL\n"
	       "cannot carry (other rules, tile set, start tile, edition, followers or\n"
	       "table; a colour other than red, green, blue, yellow and black; a tile\n"
	       "more than 57 from the start) is an error at its place in the file, and\n"
	       "that game gives no URL.\n\n"
	       "options:\n"
	       "  -t, --to FORMAT      the output format: carcassonnelab (the only one)\n"
	       "  -o, --output FILE    write the URLs to FILE instead of standard output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 every game exported, 2 a game could not be exported or the\n"
	       "file could not be read (usage, unreadable file, syntax error).\n");
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"to", required_argument, NULL, 't'},   {"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},       {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL, *path;
	bool to = false;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":t:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "carcassonnelab"))
				return carc_usage_error("export", "--to takes carcassonnelab, not '%s'", optarg);
			to = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("export", c, argv);
		}
	}
	if (!to)
		return carc_usage_error("export", "say what to write: --to carcassonnelab");
	if (carc_one_input("export", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	FILE *in = carc_open_input_or_say(path);
	if (!in)
		return CARC_EXIT_TROUBLE;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(in, carc_input_name(path), cache, carc_rules_registry());
	struct carc_record rec = {0};
	struct carc_buf out = {0};
	int status = CARC_EXIT_OK;
	while (carc_reader_next(r, &rec, &sink))
		if (rec.syntax_errors || !rec.tileset || !carc_clab_export(&rec, &out, &sink))
			status = CARC_EXIT_TROUBLE;
	if (carc_reader_error(r)) {
		carc_say_cannot(carc_input_name(path), "read", carc_reader_error(r));
		status = CARC_EXIT_TROUBLE;
	}
	struct carc_output o;
	if (carc_output_open(&o, "export", output)) {
		fwrite(out.data ? out.data : "", 1, out.len, o.f);
		if (!carc_output_close(&o, true))
			status = CARC_EXIT_TROUBLE;
	} else {
		status = CARC_EXIT_TROUBLE;
	}
	carc_buf_free(&out);
	carc_buf_free(&printer.buf);
	carc_diag_free(&sink);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_close_input(in);
	return status;
}
