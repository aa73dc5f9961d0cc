/*
 * cmd_score.c - carc score: the scores turn by turn and the final breakdown.
 *
 * Every game of the input is refereed (its diagnostics go to standard
 * error, as with check) and reported on standard output in the chosen
 * format. Reports stream: one game at a time, whatever the file holds.
 * With -j N the games are refereed and their reports written by N threads
 * (cli/jobs.h), each into memory, and printed here in the order of the
 * games: the same bytes as with one thread.
 */
#include "cli/cli.h"
#include "cli/jobs.h"
#include "referee/project.h"
#include "output/report.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum format { FMT_TEXT, FMT_JSON, FMT_YAML, FMT_CSV };

static void help(void)
{
	printf("usage: carc score [OPTIONS] FILE|-\n\n"
	       "Referee every game of FILE and print the scores after every turn, the final\n"
	       "scoring and the breakdown of each player's points by source (completed\n"
	       "roads, cities and cloisters during play, incomplete ones at the end, farms),\n"
	       "with the winner(s). Diagnostics go to standard error, as with carc check.\n\n"
	       "options:\n"
	       "  -f, --format FORMAT  text (default), json (one object per game and line),\n"
	       "                       yaml (one document per game) or csv\n"
	       "  -t, --turn N         the standings after turn N, as the score track showed\n"
	       "                       them (no final scoring); a game without turn N is\n"
	       "                       refused\n"
	       "  -F, --features       list every feature: tiles, pennants, followers, points\n"
	       "  -e, --edition E      score farms and small cities by edition 1, 2 or 3,\n"
	       "                       whatever the Edition tag says\n"
	       "      --final          score an unfinished game as if it ended after its last\n"
	       "                       turn (a game stopped by agreement)\n"
	       "  -p, --projected      also each turn's projected final: what every colour\n"
	       "                       would have if the game ended after that turn\n"
	       "  -g, --game N         report only the Nth game of the file\n"
	       "  -o, --output FILE    write the report to FILE\n"
	       "  -j, --jobs N         use N threads (the output is the same)\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME     name standard input NAME in messages and output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 every game valid, 1 a game is invalid, 2 could not run.\n");
}

/* What the options asked for. */
struct score_args {
	enum format format;
	struct carc_report_opts ro;
	struct carc_referee_opts opts;
	bool projected;
	long game_wanted;
	const char *output;
	int jobs;
};

/* The options; -1 to go on, else the exit status. */
static int score_options(int argc, char **argv, struct score_args *a)
{
	enum { OPT_FINAL = 256 };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'}, {"turn", required_argument, NULL, 't'},
		{"features", no_argument, NULL, 'F'},     {"edition", required_argument, NULL, 'e'},
		{"final", no_argument, NULL, OPT_FINAL},  {"game", required_argument, NULL, 'g'},
		{"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},      {"projected", no_argument, NULL, 'p'},
		CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		CARC_JOBS_OPTION,                         {NULL, 0, NULL, 0},
	};
	static const char *const formats[] = {[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_YAML] = "yaml",
					      [FMT_CSV] = "csv"};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:t:Fe:g:o:pj:hV", longopts, NULL)) != -1) {
		char *end;
		long n;
		switch (c) {
		case 'f':
			for (a->format = 0; a->format <= FMT_CSV && strcmp(optarg, formats[a->format]); a->format++)
				;
			if (a->format > FMT_CSV)
				return carc_usage_error("score", "--format is text, json, yaml or csv, not '%s'", optarg);
			break;
		case 't':
			n = strtol(optarg, &end, 10);
			if (*end || *optarg == '\0' || n < 1 || n > 100000)
				return carc_usage_error("score", "--turn takes a turn number, not '%s'", optarg);
			a->ro.turn = (int)n;
			break;
		case 'F':
			a->ro.features = true;
			break;
		case 'e':
			if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "3"))
				return carc_usage_error("score", "--edition is 1, 2 or 3, not '%s'", optarg);
			a->opts.edition = optarg[0] - '0';
			break;
		case OPT_FINAL:
			a->opts.final_anyway = true;
			break;
		case 'p':
			a->projected = true;
			break;
		case 'g':
			n = strtol(optarg, &end, 10);
			if (*end || *optarg == '\0' || n < 1)
				return carc_usage_error("score", "--game takes a game number from 1, not '%s'", optarg);
			a->game_wanted = n;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'j':
			if (!carc_jobs_option("score", optarg, &a->jobs))
				return CARC_EXIT_TROUBLE;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("score", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("score", c, argv);
		}
	}
	return -1;
}

/* A run over one input: what it found, and the reports not yet written. */
struct score_run {
	struct score_args *a;
	FILE *out;
	struct carc_buf text;   /* the reports not yet written */
	bool batch;             /* ... kept until BATCH bytes (not on a terminal) */
	unsigned long games;    /* games read */
	int read_error;         /* the input could not be read to the end */
	bool invalid, trouble, found, emit_failed;
};

/* A report is a few KB a game: written 64 KB at a time, not a write or
 * two a game. */
enum { BATCH = 1 << 16 };

/* Writes the reports kept, when they reach BATCH bytes or all is true. */
static void score_flush(struct score_run *s, bool all)
{
	if (!all && s->batch && s->text.len < BATCH)
		return;
	/* nothing kept is no write: an empty buffer has no data (NULL), and
	 * fwrite's pointer must not be NULL even for 0 bytes */
	if (s->text.len)
		fwrite(s->text.data, 1, s->text.len, s->out);
	carc_buf_reset(&s->text);
}

/* What a thread keeps from game to game: its own report options (a game's
 * offset and projection go in them), emitter and projector. */
struct score_worker {
	const struct score_args *a;
	struct carc_report_opts ro;
	struct carc_emitter *em;
	struct carc_projector *projector;
};

static void *score_worker_new(void *ctx)
{
	const struct score_run *s = ctx;
	const struct score_args *a = s->a;
	struct score_worker *w = xcalloc(1, sizeof *w);
	*w = (struct score_worker){a, a->ro,
				   a->format == FMT_JSON ? carc_emitter_json(NULL)
				   : a->format == FMT_YAML ? carc_emitter_yaml(NULL) : NULL,
				   a->projected ? carc_projector_new() : NULL};
	return w;
}

static void score_worker_free(void *wctx)
{
	struct score_worker *w = wctx;
	if (w->em)
		carc_emitter_close(w->em);
	carc_projector_free(w->projector);
	free(w);
}

/* What a game's first byte of data says. */
enum { GAME_INVALID = 1, GAME_TROUBLE = 2, GAME_EMIT_FAILED = 4 };

/* Reports the game refereed (in the thread that read it): its report, then
 * a byte of flags (last, so that with one thread, where the report is
 * written straight into the reports kept, take drops the byte and copies
 * nothing). */
static void score_work(void *wctx, const struct carc_jobs_game *game, struct carc_jobs_out *out)
{
	struct score_worker *w = wctx;
	const struct score_args *a = w->a;
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	struct carc_buf *data = carc_jobs_data(out);
	unsigned flags = res->errors ? GAME_INVALID : 0;
	/* --turn past the game's last turn is refused, as show and render
	 * refuse it (turns as the referee numbers them, up to where it
	 * could replay the game) */
	int last = res->nturns ? res->turns[res->nturns - 1].number : 0;
	if (a->ro.turn && rec->tileset && res->refereed && last < a->ro.turn) {
		carc_jobs_say(out, "carc score: game %u has %d turn%s, not a turn %d\n", rec->index, last,
			      last == 1 ? "" : "s", a->ro.turn);
		carc_buf_addc(data, (char)(flags | GAME_TROUBLE));
		return;
	}
	w->ro.offset = game->offset;
	if (w->projector) {
		w->ro.projected = carc_project(w->projector, res, &a->opts, NULL, NULL);
		if (!w->ro.projected && res->refereed) {
			struct carc_buf msg = {0};
			carc_too_long_message(&msg, "score", rec, res->nturns);
			carc_jobs_say(out, "%s", carc_buf_cstr(&msg));
			carc_buf_free(&msg);
			carc_buf_addc(data, (char)(flags | GAME_TROUBLE));
			return; /* not reported: its report would lack what was asked */
		}
	}
	if (a->format == FMT_TEXT) {
		if (rec->index > 1 && !a->game_wanted)
			carc_buf_addc(data, '\n');
		carc_report_text(data, res, &w->ro);
	} else if (a->format == FMT_CSV) {
		carc_report_csv(data, res, &w->ro);
	} else {
		carc_emitter_into(w->em, data);
		carc_report_doc(w->em, res, &w->ro);
		carc_emitter_back(w->em, data);
		if (w->em->failed)
			flags |= GAME_EMIT_FAILED;
	}
	carc_buf_addc(data, (char)flags);
}

/* A game's turn (in file order): its report written. */
static void score_take(void *ctx, const char *data, size_t len)
{
	struct score_run *s = ctx;
	unsigned flags = (unsigned char)data[len - 1];
	s->found = true;
	s->invalid |= flags & GAME_INVALID;
	s->trouble |= (flags & GAME_TROUBLE) != 0;
	s->emit_failed |= (flags & GAME_EMIT_FAILED) != 0;
	if (s->text.len && data + len == s->text.data + s->text.len)
		s->text.len--; /* one thread: the report is in place; the flags dropped */
	else
		carc_buf_add(&s->text, data, len - 1);
	score_flush(s, false);
}

/* The input could not be read to the end: said at the end. */
static void score_cannot(void *ctx, const char *name, const char *what, int err)
{
	struct score_run *s = ctx;
	if (!strcmp(what, "open"))
		carc_say_cannot(name, what, err);
	s->read_error = err;
}

/* The messages and the exit status at the end. */
static int score_status(const struct score_args *a, const struct score_run *s, const char *path, bool written,
			bool emitted)
{
	if (s->read_error) {
		carc_say_cannot(carc_input_name(path), "read", s->read_error);
		return CARC_EXIT_TROUBLE;
	}
	if (!written)
		return CARC_EXIT_TROUBLE;
	if (!emitted) { /* libyaml refused an event */
		fprintf(stderr, "carc score: cannot write %s: the YAML emitter failed\n",
			a->output ? a->output : "standard output");
		return CARC_EXIT_TROUBLE;
	}
	if (!s->games) /* the outputs of zero games: nothing, or the CSV header */
		fprintf(stderr, "carc score: %s holds no game\n", carc_input_name(path));
	if (a->game_wanted && !s->found) {
		fprintf(stderr, "carc score: %s has %lu game%s, no game %ld\n", carc_input_name(path), s->games,
			s->games == 1 ? "" : "s", a->game_wanted);
		return CARC_EXIT_TROUBLE;
	}
	if (s->trouble)
		return CARC_EXIT_TROUBLE;
	return s->invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}

int cmd_score(int argc, char **argv)
{
	struct score_args a = {.jobs = 1};
	int status = score_options(argc, argv, &a);
	if (status >= 0)
		return status;
	const char *path;
	if (carc_one_input("score", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	if (strcmp(path, "-")) { /* (said before the output is opened; read by the run) */
		FILE *in = carc_open_input_or_say(path);
		if (!in)
			return CARC_EXIT_TROUBLE;
		carc_close_input(in);
	}
	struct carc_output to;
	if (!carc_output_open(&to, "score", a.output))
		return CARC_EXIT_TROUBLE;
	a.ro.color = a.format == FMT_TEXT && !a.output && carc_use_color(stdout);
	/* --turn N: the turns numbered up to N, as the referee numbers them
	 * (a discard keeps the number, a bonus turn N+ is turn N's, a line
	 * by a colour that does not play is none) */
	a.opts.stop_turn = a.ro.turn;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct score_run s = {.a = &a, .out = to.f, .batch = !isatty(fileno(to.f))};
	if (a.format == FMT_CSV)
		carc_report_csv_header(&s.text, a.projected);
	struct carc_jobs run = {.jobs = a.jobs, .diags = CARC_JOBS_PRINT, .printer = &printer, .referee = true,
				.opts = a.opts, .only_game = a.game_wanted > 0 ? (unsigned long)a.game_wanted : 0,
				.ctx = &s, .worker_new = score_worker_new, .worker_free = score_worker_free,
				.work = score_work, .take = score_take, .cannot = score_cannot, .direct_data = &s.text};
	struct carc_jobs_totals t = {0};
	carc_jobs_run(&run, (char *const *)&path, 1, &t);
	s.games = t.games;
	s.trouble |= t.trouble;
	score_flush(&s, true);
	bool emitted = !s.emit_failed;
	carc_buf_free(&s.text);
	carc_buf_free(&printer.buf);
	/* -o FILE is replaced only by a report of every game asked for */
	bool written = carc_output_close(&to, emitted && !s.read_error && !(a.game_wanted && !s.found) && !s.trouble);
	return score_status(&a, &s, path, written, emitted);
}
