/*
 * cmd_fmt.c - carc fmt: rewrite records in canonical form.
 *
 * Each game is parsed and written back canonically (format.c). A game with
 * a syntax error is written back exactly as it was, its errors reported, and
 * the exit status is 1, so fmt never loses text it does not understand.
 */
#include "cli.h"
#include "format.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
	printf("usage: carc fmt [OPTIONS] FILE|-\n\n"
	       "Write the games of FILE in canonical CGN: tags in a fixed order, turn\n"
	       "numbers filled in, columns aligned, spacing and case normalised, comments\n"
	       "kept. Formatting canonical text changes nothing.\n\n"
	       "options:\n"
	       "  -o, --output FILE  write to FILE instead of standard output\n"
	       "  -c, --check        write nothing; exit 1 if FILE is not in canonical form\n"
	       "  -h, --help         show this help\n"
	       "  -V, --version      show the version\n\n"
	       "exit status: 0 done (or canonical), 1 a game has a syntax error (it is\n"
	       "copied unchanged) or --check found a difference, 2 could not run.\n");
}

/* The game's own text without the blank lines that end it. */
static size_t trimmed_len(const struct carc_record *rec)
{
	size_t n = rec->src.len;
	while (n && (rec->src.text[n - 1] == '\n' || rec->src.text[n - 1] == ' ' || rec->src.text[n - 1] == '\t' ||
		     rec->src.text[n - 1] == '\r'))
		n--;
	return n;
}

int cmd_fmt(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'}, {"check", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL;
	bool check = false;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:chV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'c':
			check = true;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("fmt", c, argv);
		}
	}
	const char *path;
	if (carc_one_input("fmt", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	FILE *in = carc_open_input_or_say(path);
	if (!in)
		return CARC_EXIT_TROUBLE;
	struct carc_output to;
	if (!carc_output_open(&to, "fmt", check ? NULL : output)) {
		carc_close_input(in);
		return CARC_EXIT_TROUBLE;
	}
	FILE *out = to.f;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(in, carc_input_name(path), cache);
	struct carc_record rec = {0};
	struct carc_buf text = {0};
	int status = CARC_EXIT_OK;
	bool first = true, differs = false;
	while (carc_reader_next(r, &rec, &sink)) {
		carc_buf_reset(&text);
		if (!first)
			carc_buf_addc(&text, '\n');
		size_t game_at = text.len;
		if (rec.syntax_errors) {
			carc_buf_add(&text, rec.src.text, trimmed_len(&rec));
			carc_buf_addc(&text, '\n');
			/* a tile set that cannot be loaded is "could not run" (2) */
			int s = rec.tileset ? CARC_EXIT_INVALID : CARC_EXIT_TROUBLE;
			status = status > s ? status : s;
		} else {
			carc_format_record(&rec, &text);
		}
		if (check) {
			size_t n = trimmed_len(&rec), m = text.len - game_at;
			while (m && text.data[game_at + m - 1] == '\n')
				m--;
			if (n != m || memcmp(rec.src.text, text.data + game_at, n)) {
				if (!differs)
					fprintf(stderr, "%s: game %u (line %u) is not in canonical form\n", carc_input_name(path),
						rec.index, rec.src.base_line);
				differs = true;
			}
		} else {
			fwrite(text.data, 1, text.len, out);
		}
		first = false;
	}
	if (carc_reader_error(r)) {
		carc_say_cannot(carc_input_name(path), "read", carc_reader_error(r));
		status = CARC_EXIT_TROUBLE;
	}
	carc_buf_free(&text);
	carc_buf_free(&printer.buf);
	carc_diag_free(&sink);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_close_input(in);
	/* a file that could not be read to the end is not replaced */
	if (!carc_output_close(&to, status != CARC_EXIT_TROUBLE))
		return CARC_EXIT_TROUBLE;
	if (differs && status == CARC_EXIT_OK)
		status = CARC_EXIT_INVALID;
	return status;
}
