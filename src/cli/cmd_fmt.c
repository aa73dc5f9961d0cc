/*
 * cmd_fmt.c - carc fmt: rewrite records in canonical form.
 *
 * Each game is parsed and written back canonically (format.c). A game with
 * a syntax error is written back exactly as it was, its errors reported, and
 * the exit status is 1, so fmt never loses text it does not understand; but
 * for what the reader drops to bound its memory (carc_reader_lost_text),
 * which fmt reports, and for which it does not replace -o's file.
 */
#include "cli/cli.h"
#include "notation/format.h"
#include "rules/rules.h"

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
	       "  -c, --check        write nothing; exit 1 if FILE is not byte for byte\n"
	       "                     in canonical form, naming the first line that is not\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME   name standard input NAME in messages and output\n"
	       "  -h, --help         show this help\n"
	       "  -V, --version      show the version\n\n"
	       "exit status: 0 done (or canonical), 1 a game has a syntax error (it is\n"
	       "copied unchanged) or --check found a difference, 2 could not run.\n");
}

/* --check: the input read a second time, to compare with what fmt would
 * write, byte for byte: the whole file, blank lines between games, a byte
 * order mark and the end of the file included. */
struct compare {
	FILE *f;          /* the input again (a second handle on FILE, or the
			     copy of standard input) */
	unsigned line;    /* the line of the next byte */
	bool differs;
};

/* Whether the next n bytes of the input are s (then consumed); at the
 * first that differs, c->line is its line. */
static bool same_as_input(struct compare *c, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int ch = getc(c->f);
		if (ch != (unsigned char)s[i])
			return false;
		c->line += ch == '\n';
	}
	return true;
}

/* The game's own text as it was, up to the end of its last line that is
 * not blank (its newline, and a CR before it, included), without the
 * blank lines after it. */
static size_t trimmed_len(const struct carc_record *rec)
{
	const char *s = rec->src.text;
	size_t n = rec->src.len, end;
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	const char *nl = n < rec->src.len ? memchr(s + n, '\n', rec->src.len - n) : NULL;
	end = nl ? (size_t)(nl - s) + 1 : rec->src.len;
	return end;
}

/* The options; -1 to go on, else the exit status. */
static int fmt_options(int argc, char **argv, const char **output, bool *check)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'}, {"check", no_argument, NULL, 'c'},
		CARC_TILESET_PATH_OPTION,
		{"label", required_argument, NULL, CARC_OPT_LABEL},
		{"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:chV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			*output = optarg;
			break;
		case 'c':
			*check = true;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("fmt", c, optarg))
				return CARC_EXIT_TROUBLE;
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
	return -1;
}

/* --check reads the input twice: FILE through a second handle (cmp->f),
 * and standard input from a copy in memory (*copy, which *in then reads).
 * false, said, if that cannot be done. */
static bool open_compare(struct compare *cmp, FILE **in, const char *path, char **copy)
{
	size_t copy_len = 0;
	if (*in == stdin) {
		FILE *mem = open_memstream(copy, &copy_len);
		char chunk[65536];
		size_t n;
		while (mem && (n = fread(chunk, 1, sizeof chunk, stdin)) > 0)
			fwrite(chunk, 1, n, mem);
		if (!mem || ferror(stdin) || fclose(mem)) {
			carc_say_cannot(carc_input_name(path), "read", errno ? errno : EIO);
			return false;
		}
		*in = fmemopen(copy_len ? *copy : (char *)"", copy_len ? copy_len : 1, "rb");
		cmp->f = fmemopen(copy_len ? *copy : (char *)"", copy_len ? copy_len : 1, "rb");
		if (*in && !copy_len)
			getc(*in); /* (fmemopen refuses size 0: its one byte read away) */
		if (cmp->f && !copy_len)
			getc(cmp->f);
	} else {
		cmp->f = carc_open_input(path);
	}
	if (!*in || !cmp->f) {
		carc_say_cannot(carc_input_name(path), "open", errno);
		if (*in && *in != stdin)
			fclose(*in);
		return false;
	}
	return true;
}

/* A game's text in the output: canonical, or as it was when it has syntax
 * errors (then the exit status is at least *status's). */
static void game_text(const struct carc_record *rec, struct carc_buf *text, int *status)
{
	if (!rec->syntax_errors) {
		carc_format_record(rec, text);
		return;
	}
	size_t n = trimmed_len(rec);
	carc_buf_add(text, rec->src.text, n);
	if (!n || rec->src.text[n - 1] != '\n')
		carc_buf_addc(text, '\n'); /* the end of the file */
	/* a tile set that cannot be loaded is "could not run" (2) */
	int s = rec->tileset ? CARC_EXIT_INVALID : CARC_EXIT_TROUBLE;
	*status = *status > s ? *status : s;
}

int cmd_fmt(int argc, char **argv)
{
	const char *output = NULL;
	bool check = false;
	int status = fmt_options(argc, argv, &output, &check);
	if (status >= 0)
		return status;
	const char *path;
	if (carc_one_input("fmt", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	FILE *in = carc_open_input_or_say(path);
	if (!in)
		return CARC_EXIT_TROUBLE;
	struct compare cmp = {NULL, 1, false};
	char *copy = NULL;
	if (check && !open_compare(&cmp, &in, path, &copy)) {
		free(copy);
		return CARC_EXIT_TROUBLE;
	}
	struct carc_output to;
	if (!carc_output_open(&to, "fmt", check ? NULL : output)) {
		carc_close_input(in);
		return CARC_EXIT_TROUBLE;
	}
	FILE *out = to.f;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(in, carc_input_name(path), cache, carc_rules_registry());
	struct carc_record rec = {0};
	struct carc_buf text = {0};
	status = CARC_EXIT_OK;
	bool first = true, reported = false;
	carc_diag_hold(&sink, &rec.src); /* each game's messages in the order of its lines */
	while (carc_reader_next(r, &rec, &sink)) {
		carc_diag_flush(&sink);
		carc_buf_reset(&text);
		if (!first)
			carc_buf_addc(&text, '\n');
		game_text(&rec, &text, &status);
		if (check) {
			if (!cmp.differs && !same_as_input(&cmp, text.data, text.len)) {
				fprintf(stderr, "%s:%u: not in canonical form (game %u)\n", carc_input_name(path), cmp.line,
					rec.index);
				cmp.differs = reported = true;
			}
		} else {
			fwrite(text.data, 1, text.len, out);
		}
		first = false;
	}
	/* A text without games: its comments, if any, are kept. */
	if (first && rec.ncomments) {
		carc_buf_reset(&text);
		carc_format_record(&rec, &text);
		if (check)
			cmp.differs = !same_as_input(&cmp, text.data, text.len);
		else
			fwrite(text.data, 1, text.len, out);
	}
	/* --check: and nothing after that */
	if (check && !cmp.differs && getc(cmp.f) != EOF)
		cmp.differs = true;
	if (cmp.differs && !reported)
		fprintf(stderr, "%s:%u: not in canonical form%s\n", carc_input_name(path), cmp.line,
			first ? "" : " (after the last game)");
	if (carc_reader_error(r)) {
		carc_say_cannot(carc_input_name(path), "read", carc_reader_error(r));
		status = CARC_EXIT_TROUBLE;
	}
	/* Text the reader dropped (a line past 65536 bytes, the rest after
	 * binary data) is not in the output: -o's file is then not replaced. */
	bool lost = carc_reader_lost_text(r);
	if (lost && !check)
		fprintf(stderr, "carc fmt: %s: the text skipped (E002, E003, E031) is not in the output%s\n",
			carc_input_name(path), output && strcmp(output, "-") ? "; it is left as it was" : "");
	carc_buf_free(&text);
	carc_buf_free(&printer.buf);
	carc_diag_free(&sink);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_close_input(in);
	if (cmp.f)
		carc_close_input(cmp.f);
	free(copy);
	/* a file that could not be read to the end, or not kept whole, is not
	 * replaced */
	if (!carc_output_close(&to, status != CARC_EXIT_TROUBLE && !lost))
		return CARC_EXIT_TROUBLE;
	if (lost && to.path)
		return CARC_EXIT_TROUBLE;
	if (cmp.differs && status == CARC_EXIT_OK)
		status = CARC_EXIT_INVALID;
	return status;
}
