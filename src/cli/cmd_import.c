/*
 * cmd_import.c - carc import: games saved by other programs, into CGN.
 *
 * Reads each input whole (a .jcz file or a BGA log is one JSON value, a
 * CarcassonneLab file one URL a line; a URL may also be the argument),
 * converts it with the importer of --from (carc_jcz_import(),
 * carc_bga_import(), carc_clab_import_each()) and writes the games, in
 * canonical CGN, to standard output or to the file named by -o, one after
 * another, each as soon as it is converted: memory holds the input and one
 * game, never the output. A file (a URL) that cannot be converted gets its
 * diagnostics on standard error and no game in the output; the exit status
 * is then 2.
 */
#include "import/bga.h"
#include "import/clab.h"
#include "cli/cli.h"
#include "import/jcz.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT (64u << 20)

static void help(void)
{
	printf("usage: carc import [--from jcz|bga|carcassonnelab] [-o OUT.cgn] FILE...|-\n\n"
	       "Convert games recorded by other programs into canonical CGN. The games go\n"
	       "to standard output (or OUT.cgn), one after another. Base games convert,\n"
	       "and from JCloisterZone games with The River I and The Abbot too, and from\n"
	       "JCloisterZone 4 saves with Inns & Cathedrals and Traders & Builders: any other\n"
	       "expansion's set, tile, figure or rule, or an input that is malformed or\n"
	       "contradicts itself, is an error naming the element and its line and\n"
	       "column, and that input gives no game.\n\n"
	       "formats:\n"
	       "  jcz             a JCloisterZone .jcz file, one game (the default); The\n"
	       "                  River I and The Abbot become [Expansions \"river abbot\"]\n"
	       "                  (JCZ 5); a JCZ 4 save (slots, setup.expansions) with the\n"
	       "                  Big Box: big knight, builder, pig, the bonus turn N+\n"
	       "  bga             a Board Game Arena replay log (JSON), one game: tiles,\n"
	       "                  meeples, discards, a claim after each scoring turn and\n"
	       "                  the final scores as Result, so carc check verifies BGA\n"
	       "  carcassonnelab  a CarcassonneLab replay URL given as the argument, or a\n"
	       "                  file of such URLs, one game a line: tiles, meeples\n"
	       "                  and discards (#/0/0.K/), no scores\n\n"
	       "options:\n"
	       "  -f, --from FORMAT    the input format (above)\n"
	       "  -o, --output FILE    write the CGN to FILE instead of standard output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 every input converted, 2 an input could not be read or\n"
	       "converted (usage, unreadable file, an expansion carc does not convert,\n"
	       "malformed).\n");
}

/* Reads a whole input into b; false (errno set) on a read error. */
static bool read_all(FILE *f, struct carc_buf *b)
{
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (b->len + n > MAX_INPUT) {
			errno = EFBIG;
			return false;
		}
		carc_buf_add(b, chunk, n);
	}
	return !ferror(f);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* An importer: the text of src to games appended to out. */
typedef bool (*importer_fn)(const struct carc_src *src, const char *name, struct carc_buf *out,
			    struct carc_diag_sink *sink);

/* Where the games go: the output, a blank line between two. */
struct games_out {
	FILE *f;
	bool any;
};

static void write_game(void *ctx, const char *cgn, size_t len)
{
	struct games_out *out = ctx;
	if (out->any)
		fputc('\n', out->f);
	fwrite(cgn, 1, len, out->f);
	out->any = true;
}

/* Converts one input, writing its games to out. */
static bool import_file(const char *path, importer_fn convert, struct carc_printer *printer, struct games_out *out)
{
	const char *name = carc_input_name(path);
	struct carc_diag_sink sink = {carc_print_diag, printer};
	bool url = convert == carc_clab_import && strstr(path, "://");
	FILE *f = url ? NULL : carc_open_input(path);
	struct carc_buf text = {0};
	bool ok = url || (f && read_all(f, &text));
	if (url) { /* the argument is the text */
		name = "<url>";
		carc_buf_adds(&text, path);
		path = "-";
	}
	if (!ok) {
		struct carc_src whole = {.name = name}; /* no text: the file as a whole */
		carc_diag_report(&sink, CARC_E001, &whole, 0, 0, "cannot %s: %s", f ? "read" : "open", strerror(errno));
	} else {
		struct carc_src src = {name, text.data ? text.data : "", text.len, 1};
		const char *shown = strcmp(path, "-") ? base_name(path) : NULL;
		if (convert == carc_clab_import) { /* a file of URLs: a game at a time */
			ok = carc_clab_import_each(&src, shown, write_game, out, &sink);
		} else {
			struct carc_buf game = {0};
			ok = convert(&src, shown, &game, &sink);
			if (ok && game.len)
				write_game(out, game.data, game.len);
			carc_buf_free(&game);
		}
	}
	carc_close_input(f);
	carc_buf_free(&text);
	carc_diag_free(&sink);
	return ok;
}

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"from", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},       {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	importer_fn convert = carc_jcz_import;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "jcz"))
				convert = carc_jcz_import;
			else if (!strcmp(optarg, "bga"))
				convert = carc_bga_import;
			else if (!strcmp(optarg, "carcassonnelab"))
				convert = carc_clab_import;
			else
				return carc_usage_error("import", "--from takes jcz (JCloisterZone), bga (Board Game Arena) "
							"or carcassonnelab, not '%s'", optarg);
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
			return carc_option_error("import", c, argv);
		}
	}
	if (optind >= argc)
		return carc_usage_error("import", "no input: give one or more files, or - for standard input");

	struct carc_output to;
	if (!carc_output_open(&to, "import", output))
		return CARC_EXIT_TROUBLE;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct games_out out = {to.f, false};
	bool all = true;
	for (int i = optind; i < argc; i++)
		all &= import_file(argv[i], convert, &printer, &out);
	int status = all ? CARC_EXIT_OK : CARC_EXIT_TROUBLE;
	if (!carc_output_close(&to, true))
		status = CARC_EXIT_TROUBLE;
	carc_buf_free(&printer.buf);
	return status;
}
