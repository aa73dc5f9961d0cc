/*
 * cmd_check.c - carc check: validate every game of every file.
 *
 * Diagnostics go to standard error in GNU format; the last line on standard
 * output sums up: "N games, N valid, N invalid, N unreadable". With
 * --format json, standard output has one JSON object per game instead (JSON
 * Lines) and the diagnostics are inside them. With -j N the games are read
 * and refereed by N threads (cli/jobs.h), and what each made is printed in
 * the order of the files and their games, so the output does not depend on
 * -j; --max-errors counts the error messages of the whole run, in that
 * order.
 */
#include "cli/cli.h"
#include "cli/jobs.h"
#include "notation/gameid.h"
#include "common/input.h"
#include "common/json.h"
#include "referee/referee.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct check_opts {
	bool quiet, werror, json, color;
	unsigned max_errors;
	int jobs;
};

/* The run: what the games made, summed in file order. */
struct check_run {
	const struct check_opts *opt;
	struct carc_printer *printer;
	unsigned games, valid, invalid;
	unsigned results;    /* games whose moves were not recorded: not refereed */
};

static void json_game(struct carc_buf *out, const char *name, const struct carc_record *rec, uint64_t offset,
		      const struct carc_result *res, bool valid, const char *diags)
{
	char id[CARC_GAME_ID_HEX + 1];
	carc_buf_adds(out, "{\"file\":");
	carc_json_cstr(out, name);
	carc_buf_printf(out, ",\"game\":%u,\"line\":%u,\"offset\":%llu,\"id\":\"%s\",", rec->index,
			rec->src.base_line, (unsigned long long)offset, carc_game_id_hex(carc_game_id(rec), id));
	carc_buf_printf(out, "\"valid\":%s,\"finished\":%s,\"errors\":%u,\"warnings\":%u,", valid ? "true" : "false",
			res->finished ? "true" : "false", res->errors, res->warnings);
	if (res->result_only) /* the moves were not recorded: nothing was refereed */
		carc_buf_adds(out, "\"refereed\":false,\"result_only\":true,");
	carc_buf_printf(out, "\"rules\":\"%s\",\"turns\":%d,\"scores\":{", rec->rules->name, res->last_turn);
	for (int s = 0; s < rec->nseats; s++)
		carc_buf_printf(out, "%s\"%s\":%d", s ? "," : "", carc_colour_name(rec->seats[s]),
				res->scores[rec->seats[s]]);
	carc_buf_adds(out, "},\"tags\":{");
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_tag *t = &rec->tags[i];
		if (i)
			carc_buf_addc(out, ',');
		carc_json_string(out, rec->src.text + t->name.off, t->name.len);
		carc_buf_addc(out, ':');
		carc_json_string(out, carc_tag_text(rec, t), t->text_len);
	}
	carc_buf_printf(out, "},\"diagnostics\":[%s]}\n", diags);
}

/* A game refereed (in the thread that read it): its verdict, a byte, and
 * with --format json its line. */
static void check_work(void *ctx, const struct carc_jobs_game *game, struct carc_jobs_out *out)
{
	const struct check_run *c = ctx;
	const struct carc_result *res = game->res;
	bool valid = res->errors == 0 && !(c->opt->werror && res->warnings);
	struct carc_buf *data = carc_jobs_data(out);
	carc_buf_addc(data, valid ? (res->result_only ? 'V' : 'v') : (res->result_only ? 'X' : 'x'));
	if (c->opt->json)
		json_game(data, game->file, game->rec, game->offset, res, valid, game->json);
}

/* The game's turn: counted, and its JSON line printed. */
static void check_take(void *ctx, const char *data, size_t len)
{
	struct check_run *c = ctx;
	c->games++;
	c->results += data[0] == 'V' || data[0] == 'X';
	if (data[0] == 'v' || data[0] == 'V')
		c->valid++;
	else
		c->invalid++;
	if (len > 1)
		fwrite(data + 1, 1, len - 1, stdout);
}

/* A file that cannot be opened or read to the end (what: "open" or "read";
 * err: the errno): its message, E001, and in JSON an object of its own
 * after those of the games read before the failure, if any. */
static void check_cannot(void *ctx, const char *name, const char *what, int err)
{
	struct check_run *c = ctx;
	struct carc_src whole = {.name = name}; /* no text: the file as a whole */
	struct carc_buf msg = {0};
	carc_buf_printf(&msg, "cannot %s: %s", what, carc_input_strerror(err));
	struct carc_diag d = {CARC_E001, CARC_SEV_ERROR, &whole, 0, 0, carc_buf_cstr(&msg)};
	if (c->opt->json) {
		static const char *const sev[] = {"error", "warning", "note"};
		struct carc_buf line = {0};
		carc_buf_adds(&line, "{\"file\":");
		carc_json_cstr(&line, name);
		carc_buf_printf(&line, ",\"unreadable\":true,\"diagnostics\":[{\"code\":\"%s\",\"severity\":\"%s\",",
				carc_code_str(d.code), sev[d.severity]);
		carc_buf_adds(&line, "\"file\":");
		carc_json_cstr(&line, name);
		carc_buf_adds(&line, ",\"message\":");
		carc_json_cstr(&line, d.message);
		carc_buf_adds(&line, "}]}\n");
		fwrite(line.data, 1, line.len, stdout);
		carc_buf_free(&line);
	} else {
		carc_print_diag(c->printer, &d);
	}
	carc_buf_free(&msg);
}

static void help(void)
{
	printf("usage: carc check [OPTIONS] FILE...|-\n\n"
	       "Validate every game in every file: syntax, tile sets, the rules of play,\n"
	       "claims and results. Diagnostics go to standard error; the last line on\n"
	       "standard output sums up: N games, N valid, N invalid, N unreadable.\n"
	       "A game whose moves were not recorded (its tags alone, with a Result or a\n"
	       "Termination) is not refereed: its tags are checked and its Result taken\n"
	       "as its final score; the summary counts such games.\n\n"
	       "options:\n"
	       "  -q, --quiet          print only the summary line\n"
	       "  -m, --max-errors N   print at most N error messages in all, then only\n"
	       "                       warnings (0: no limit; checking goes on)\n"
	       "  -W, --werror         count warnings (such as an unfinished game) as errors\n"
	       "  -f, --format FORMAT  text (default) or json: one JSON object per game\n"
	       "  -j, --jobs N         use N threads: N files at a time, or one file's\n"
	       "                       games shared among them (the output is the same)\n"
	       "      --label NAME     name standard input NAME in messages and output\n"
	       CARC_TILESET_PATH_HELP
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 every game valid, 1 a game is invalid, 2 could not run\n"
	       "(usage, unreadable file, bad tile set, output not written).\n");
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"quiet", no_argument, NULL, 'q'},     {"max-errors", required_argument, NULL, 'm'},
		{"werror", no_argument, NULL, 'W'},    {"format", required_argument, NULL, 'f'},
		{"jobs", required_argument, NULL, 'j'}, CARC_TILESET_PATH_OPTION,
		{"label", required_argument, NULL, CARC_OPT_LABEL},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},   {NULL, 0, NULL, 0},
	};
	struct check_opts opt = {.jobs = 1};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":qm:Wf:j:hV", longopts, NULL)) != -1) {
		char *end;
		long n;
		switch (c) {
		case 'q':
			opt.quiet = true;
			break;
		case 'm':
			n = strtol(optarg, &end, 10);
			if (*end || n < 0 || n > 1000000)
				return carc_usage_error("check", "--max-errors takes a whole number, not '%s'", optarg);
			opt.max_errors = (unsigned)n;
			break;
		case 'W':
			opt.werror = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				opt.json = true;
			else if (strcmp(optarg, "text"))
				return carc_usage_error("check", "--format is text or json, not '%s'", optarg);
			break;
		case 'j':
			if (!carc_jobs_option("check", optarg, &opt.jobs))
				return CARC_EXIT_TROUBLE;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("check", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("check", c, argv);
		}
	}
	if (optind >= argc)
		return carc_usage_error("check", "no input: give one or more files, or - for standard input");
	opt.color = !opt.json && carc_use_color(stderr);

	/* the one printer of the run, so --max-errors counts every file */
	struct carc_printer printer = {stderr, opt.color, opt.max_errors, 0, opt.quiet, {0}};
	struct check_run cr = {&opt, &printer, 0, 0, 0, 0};
	struct carc_jobs run = {.jobs = opt.jobs, .diags = opt.json ? CARC_JOBS_JSON : CARC_JOBS_PRINT,
				.printer = &printer, .referee = true, .opts = {.no_turns = true}, .ctx = &cr,
				.work = check_work, .take = check_take, .cannot = check_cannot};
	struct carc_jobs_totals t = {0};
	carc_jobs_run(&run, argv + optind, argc - optind, &t);
	carc_buf_free(&printer.buf);
	if (!opt.json) {
		printf("%u game%s, %u valid, %u invalid, %u unreadable", cr.games, cr.games == 1 ? "" : "s", cr.valid,
		       cr.invalid, t.unreadable);
		if (cr.results) /* what was not refereed is said */
			printf(" (%u with results only, not refereed)", cr.results);
		putchar('\n');
	}
	if (!carc_stdout_done("check"))
		return CARC_EXIT_TROUBLE;
	if (t.unreadable || t.trouble)
		return CARC_EXIT_TROUBLE;
	return cr.invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
