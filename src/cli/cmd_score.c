/*
 * cmd_score.c - carc score: the scores turn by turn and the final breakdown.
 *
 * Every game of the input is refereed (its diagnostics go to standard
 * error, as with check) and reported on standard output in the chosen
 * format. Reports stream: one game at a time, whatever the file holds.
 */
#include "cli/cli.h"
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
		{NULL, 0, NULL, 0},
	};
	static const char *const formats[] = {[FMT_TEXT] = "text", [FMT_JSON] = "json", [FMT_YAML] = "yaml",
					      [FMT_CSV] = "csv"};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:t:Fe:g:o:phV", longopts, NULL)) != -1) {
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

/* A run over one input: its state, and what it found. */
struct score_run {
	struct score_args *a;
	FILE *out;
	struct carc_diag_sink sink;
	struct carc_result res;
	struct carc_emitter *em;
	struct carc_buf text;   /* text and CSV: the reports not yet written */
	bool batch;             /* ... kept until BATCH bytes (not on a terminal) */
	struct carc_projector *projector;
	unsigned index;
	bool invalid, trouble, found;
};

/* A report is a few KB a game: written 64 KB at a time, not a write or
 * two a game. */
enum { BATCH = 1 << 16 };

/* Writes the text reports kept, when they reach BATCH bytes or all is
 * true. */
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

/* Referees and reports the game just read. */
static void score_game(struct score_run *s, struct carc_reader *r, struct carc_record *rec, struct carc_game *g)
{
	struct score_args *a = s->a;
	struct carc_result *res = &s->res;
	s->found = true;
	/* --turn N: the turns numbered up to N, as the referee numbers them
	 * (a discard keeps the number, a bonus turn N+ is turn N's, a line
	 * by a colour that does not play is none) */
	a->opts.stop_turn = a->ro.turn;
	a->ro.offset = carc_reader_game_offset(r);
	carc_referee_run(res, rec, g, &s->sink, &a->opts);
	carc_diag_flush(&s->sink);
	s->trouble |= !rec->tileset;
	s->invalid |= res->errors != 0;
	/* --turn past the game's last turn is refused, as show and render
	 * refuse it (turns as the referee numbers them, up to where it
	 * could replay the game) */
	int last = res->nturns ? res->turns[res->nturns - 1].number : 0;
	if (a->ro.turn && rec->tileset && res->refereed && last < a->ro.turn) {
		fprintf(stderr, "carc score: game %u has %d turn%s, not a turn %d\n", s->index, last,
			last == 1 ? "" : "s", a->ro.turn);
		s->trouble = true;
		return;
	}
	if (s->projector) {
		a->ro.projected = carc_project(s->projector, res, &a->opts, NULL, NULL);
		if (!a->ro.projected && res->refereed) {
			carc_say_too_long("score", rec, res->nturns);
			s->trouble = true;
			return; /* not reported: its report would lack what was asked */
		}
	}
	if (a->format == FMT_TEXT) {
		if (s->index > 1 && !a->game_wanted)
			carc_buf_addc(&s->text, '\n');
		carc_report_text(&s->text, res, &a->ro);
	} else if (a->format == FMT_CSV) {
		carc_report_csv(&s->text, res, &a->ro);
	} else {
		carc_report_doc(s->em, res, &a->ro);
	}
	score_flush(s, false);
}

/* Every game of in (or the one of --game); the reader's error (0: none). */
static int score_input(struct score_run *s, FILE *in, const char *path)
{
	struct score_args *a = s->a;
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(in, carc_input_name(path), cache);
	struct carc_record rec = {0};
	struct carc_game *g = carc_game_new();
	struct carc_diag_sink quiet = {0};
	carc_diag_hold(&s->sink, &rec.src); /* each game's messages in the order of its lines */
	while (carc_reader_next(r, &rec, a->game_wanted && (long)s->index + 1 != a->game_wanted ? &quiet : &s->sink)) {
		s->index++;
		if (!a->game_wanted || (long)s->index == a->game_wanted)
			score_game(s, r, &rec, g);
	}
	carc_diag_flush(&s->sink); /* (of a game not asked for by --game) */
	int read_error = carc_reader_error(r);
	carc_game_free(g);
	carc_result_free(&s->res);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_diag_free(&quiet);
	return read_error;
}

/* The messages and the exit status at the end. */
static int score_status(const struct score_args *a, const struct score_run *s, const char *path, int read_error,
			bool written, bool emitted)
{
	if (read_error) {
		carc_say_cannot(carc_input_name(path), "read", read_error);
		return CARC_EXIT_TROUBLE;
	}
	if (!written)
		return CARC_EXIT_TROUBLE;
	if (!emitted) { /* libyaml refused an event */
		fprintf(stderr, "carc score: cannot write %s: the YAML emitter failed\n",
			a->output ? a->output : "standard output");
		return CARC_EXIT_TROUBLE;
	}
	if (!s->index) /* the outputs of zero games: nothing, or the CSV header */
		fprintf(stderr, "carc score: %s holds no game\n", carc_input_name(path));
	if (a->game_wanted && !s->found) {
		fprintf(stderr, "carc score: %s has %u game%s, no game %ld\n", carc_input_name(path), s->index,
			s->index == 1 ? "" : "s", a->game_wanted);
		return CARC_EXIT_TROUBLE;
	}
	if (s->trouble)
		return CARC_EXIT_TROUBLE;
	return s->invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}

int cmd_score(int argc, char **argv)
{
	struct score_args a = {0};
	int status = score_options(argc, argv, &a);
	if (status >= 0)
		return status;
	const char *path;
	if (carc_one_input("score", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	FILE *in = carc_open_input_or_say(path);
	if (!in)
		return CARC_EXIT_TROUBLE;
	struct carc_output to;
	if (!carc_output_open(&to, "score", a.output)) {
		carc_close_input(in);
		return CARC_EXIT_TROUBLE;
	}
	a.ro.color = a.format == FMT_TEXT && !a.output && carc_use_color(stdout);
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct score_run s = {.a = &a, .out = to.f, .sink = {carc_print_diag, &printer},
			      .em = a.format == FMT_JSON ? carc_emitter_json(to.f)
				    : a.format == FMT_YAML ? carc_emitter_yaml(to.f) : NULL,
			      .projector = a.projected ? carc_projector_new() : NULL};
	if (a.format == FMT_CSV)
		carc_report_csv_header(&s.text, a.projected);
	s.batch = !isatty(fileno(to.f));
	int read_error = score_input(&s, in, path);
	score_flush(&s, true);
	bool emitted = !s.em || carc_emitter_close(s.em);
	carc_projector_free(s.projector);
	carc_close_input(in);
	carc_buf_free(&s.text);
	carc_buf_free(&printer.buf);
	carc_diag_free(&s.sink);
	/* -o FILE is replaced only by a report of every game asked for */
	bool written = carc_output_close(&to, emitted && !read_error && !(a.game_wanted && !s.found) && !s.trouble);
	return score_status(&a, &s, path, read_error, written, emitted);
}
