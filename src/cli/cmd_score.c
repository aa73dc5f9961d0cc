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

int cmd_score(int argc, char **argv)
{
	enum { OPT_FINAL = 256 };
	bool projected = false;
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'}, {"turn", required_argument, NULL, 't'},
		{"features", no_argument, NULL, 'F'},     {"edition", required_argument, NULL, 'e'},
		{"final", no_argument, NULL, OPT_FINAL},  {"game", required_argument, NULL, 'g'},
		{"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},      {"projected", no_argument, NULL, 'p'},
		CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		{NULL, 0, NULL, 0},
	};
	enum format format = FMT_TEXT;
	struct carc_report_opts ro = {0};
	struct carc_referee_opts opts = {0};
	long game_wanted = 0;
	const char *output = NULL;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:t:Fe:g:o:phV", longopts, NULL)) != -1) {
		char *end;
		long n;
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "text"))
				format = FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				format = FMT_JSON;
			else if (!strcmp(optarg, "yaml"))
				format = FMT_YAML;
			else if (!strcmp(optarg, "csv"))
				format = FMT_CSV;
			else
				return carc_usage_error("score", "--format is text, json, yaml or csv, not '%s'", optarg);
			break;
		case 't':
			n = strtol(optarg, &end, 10);
			if (*end || *optarg == '\0' || n < 1 || n > 100000)
				return carc_usage_error("score", "--turn takes a turn number, not '%s'", optarg);
			ro.turn = (int)n;
			break;
		case 'F':
			ro.features = true;
			break;
		case 'e':
			if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "3"))
				return carc_usage_error("score", "--edition is 1, 2 or 3, not '%s'", optarg);
			opts.edition = optarg[0] - '0';
			break;
		case OPT_FINAL:
			opts.final_anyway = true;
			break;
		case 'p':
			projected = true;
			break;
		case 'g':
			n = strtol(optarg, &end, 10);
			if (*end || *optarg == '\0' || n < 1)
				return carc_usage_error("score", "--game takes a game number from 1, not '%s'", optarg);
			game_wanted = n;
			break;
		case 'o':
			output = optarg;
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
	const char *path;
	if (carc_one_input("score", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	FILE *in = carc_open_input_or_say(path);
	if (!in)
		return CARC_EXIT_TROUBLE;
	struct carc_output to;
	if (!carc_output_open(&to, "score", output)) {
		carc_close_input(in);
		return CARC_EXIT_TROUBLE;
	}
	FILE *out = to.f;
	ro.color = format == FMT_TEXT && !output && carc_use_color(stdout);

	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(in, carc_input_name(path), cache);
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_emitter *em = format == FMT_JSON ? carc_emitter_json(out)
				  : format == FMT_YAML ? carc_emitter_yaml(out) : NULL;
	struct carc_buf text = {0};
	struct carc_projector *projector = projected ? carc_projector_new() : NULL;
	bool invalid = false, trouble = false, found = false;
	if (format == FMT_CSV) {
		carc_report_csv_header(&text, projected);
		fwrite(text.data, 1, text.len, out);
	}
	unsigned index = 0;
	struct carc_diag_sink quiet = {0};
	carc_diag_hold(&sink, &rec.src); /* each game's messages in the order of its lines */
	while (carc_reader_next(r, &rec, game_wanted && (long)index + 1 != game_wanted ? &quiet : &sink)) {
		index++;
		if (game_wanted && (long)index != game_wanted)
			continue;
		found = true;
		/* --turn N: the turns numbered up to N, as the referee numbers them
		 * (a discard keeps the number, a bonus turn N+ is turn N's, a line
		 * by a colour that does not play is none) */
		opts.stop_turn = ro.turn;
		ro.offset = carc_reader_game_offset(r);
		carc_referee_run(&res, &rec, g, &sink, &opts);
		carc_diag_flush(&sink);
		if (!rec.tileset)
			trouble = true;
		if (res.errors)
			invalid = true;
		/* --turn past the game's last turn is refused, as show and render
		 * refuse it (turns as the referee numbers them, up to where it
		 * could replay the game) */
		int last = res.nturns ? res.turns[res.nturns - 1].number : 0;
		if (ro.turn && rec.tileset && res.refereed && last < ro.turn) {
			fprintf(stderr, "carc score: game %u has %d turn%s, not a turn %d\n", index, last,
				last == 1 ? "" : "s", ro.turn);
			trouble = true;
			continue;
		}
		if (projector) {
			ro.projected = carc_project(projector, &res, &opts, NULL, NULL);
			if (!ro.projected && res.refereed) {
				carc_say_too_long("score", &rec, res.nturns);
				trouble = true;
				continue; /* not reported: its report would lack what was asked */
			}
		}
		carc_buf_reset(&text);
		switch (format) {
		case FMT_TEXT:
			if (index > 1 && !game_wanted)
				carc_buf_addc(&text, '\n');
			carc_report_text(&text, &res, &ro);
			break;
		case FMT_CSV:
			carc_report_csv(&text, &res, &ro);
			break;
		default:
			carc_report_doc(em, &res, &ro);
			break;
		}
		fwrite(text.data, 1, text.len, out);
	}
	carc_diag_flush(&sink); /* (of a game not asked for by --game) */
	int read_error = carc_reader_error(r);
	bool emitted = !em || carc_emitter_close(em);
	carc_projector_free(projector);
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_close_input(in);
	carc_buf_free(&text);
	carc_buf_free(&printer.buf);
	carc_diag_free(&sink);
	carc_diag_free(&quiet);
	/* -o FILE is replaced only by a report of every game asked for */
	bool written = carc_output_close(&to, emitted && !read_error && !(game_wanted && !found) && !trouble);
	if (read_error) {
		carc_say_cannot(carc_input_name(path), "read", read_error);
		return CARC_EXIT_TROUBLE;
	}
	if (!written)
		return CARC_EXIT_TROUBLE;
	if (!emitted) { /* libyaml refused an event */
		fprintf(stderr, "carc score: cannot write %s: the YAML emitter failed\n", output ? output : "standard output");
		return CARC_EXIT_TROUBLE;
	}
	if (!index) /* the outputs of zero games: nothing, or the CSV header */
		fprintf(stderr, "carc score: %s holds no game\n", carc_input_name(path));
	if (game_wanted && !found) {
		fprintf(stderr, "carc score: %s has %u game%s, no game %ld\n", carc_input_name(path), index,
			index == 1 ? "" : "s", game_wanted);
		return CARC_EXIT_TROUBLE;
	}
	if (trouble)
		return CARC_EXIT_TROUBLE;
	return invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
