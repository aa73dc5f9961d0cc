/*
 * cmd_render.c - carc render: the map of a game as an SVG, PNG or PDF picture,
 * or a replay page of its games in HTML (replay.c).
 *
 * The same position as carc show (the turn asked for, else the first
 * illegal move, else the end of the game), drawn from the tile set's shapes
 * (svg.c): followers as meeples of their colour with their role letter, the
 * last placed tile outlined, illegal moves framed in red, a legend with the
 * scores at that turn. --highlight marks a cell; --features colours every
 * feature by the colour(s) holding it. --format png or pdf draws that SVG
 * through librsvg (raster.c), loaded only then.
 */
#include "cli/cli.h"
#include "output/raster.h"
#include "output/replay.h"
#include "output/svg.h"
#include "cli/view.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void help(void)
{
	printf("usage: carc render [OPTIONS] FILE|-\n\n"
	       "Draw the map of a recorded game as a standalone SVG picture: tiles drawn\n"
	       "from their tile set, followers as meeples of their colour with their role\n"
	       "letter (a large follower larger; a builder and a pig as themselves), the\n"
	       "last placed tile outlined, a legend with the scores. Without\n"
	       "--turn: the end of the game, or its first illegal move, framed in red.\n"
	       "--format png or pdf draws the same picture as a PNG image or a PDF page.\n\n"
	       "options:\n"
	       "  -g, --game N          the Nth game of the file (default 1)\n"
	       "  -t, --turn N          the map after turn N (0: the start tile alone)\n"
	       "  -o, --output FILE     write the picture to FILE instead of standard output\n"
	       "  -H, --highlight X,Y   mark the cell X,Y\n"
	       "  -f, --features        colour each feature by the colour that holds it\n"
	       "  -F, --format FORMAT   svg (default), png or pdf: the same picture as a PNG\n"
	       "                        image or a one-page PDF, drawn by librsvg (loaded\n"
	       "                        only then); not written to a terminal; or html: one\n"
	       "                        self-contained page that replays every game of FILE\n"
	       "                        (or --game N) turn by turn, with the turn table, a\n"
	       "                        score chart, the final breakdown, the supply and the\n"
	       "                        projected final\n"
	       "      --width PX        a PNG's width in pixels, from 1 to 16384 (a PDF's\n"
	       "                        at 96 to the inch); the height follows\n"
	       "      --scale F         the size times F, up to 100 (default 1: a tile is\n"
	       "                        80 pixels); at most 16384 pixels a side, 64 Mi in all\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME      name standard input NAME in messages and output\n"
	       "  -h, --help            show this help\n"
	       "  -V, --version         show the version\n\n"
	       "exit status: 0 the game is valid, 1 it has an illegal move, a false claim\n"
	       "or a syntax error (the picture is still drawn), 2 could not run.\n");
}

static long number(const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long n = strtol(s, &end, 10);
	if (!*s || *end || errno || n < lo || n > hi)
		return -1;
	return n;
}

/* Where a PNG or PDF may go (-o FILE, or standard output that is not a
 * terminal), and librsvg loaded: checked before the game is read. */
static bool raster_ready(const char *output, const char *what)
{
	if ((!output || !strcmp(output, "-")) && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "carc render: will not write a %s to a terminal: give -o FILE, or redirect standard "
				"output to a file or a pipe\n", what);
		return false;
	}
	struct carc_buf why = {0};
	bool ok = carc_raster_load(&why);
	if (!ok)
		fprintf(stderr, "carc render: %s\n", carc_buf_cstr(&why));
	carc_buf_free(&why);
	return ok;
}

static bool parse_cell(const char *s, int32_t *x, int32_t *y)
{
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (end == s || *end != ',' || errno || a < -100000 || a > 100000)
		return false;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || errno || b < -100000 || b > 100000)
		return false;
	*x = (int32_t)a;
	*y = (int32_t)b;
	return true;
}

int cmd_render(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"game", required_argument, NULL, 'g'},      {"turn", required_argument, NULL, 't'},
		{"output", required_argument, NULL, 'o'},    {"highlight", required_argument, NULL, 'H'},
		{"features", no_argument, NULL, 'f'},        {"help", no_argument, NULL, 'h'},
		CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		{"version", no_argument, NULL, 'V'},
		{"format", required_argument, NULL, 'F'},    {"width", required_argument, NULL, 'w'},
		{"scale", required_argument, NULL, 's'},     {NULL, 0, NULL, 0},
	};
	enum { FORMAT_SVG, FORMAT_PNG, FORMAT_PDF, FORMAT_HTML } format = FORMAT_SVG;
	bool game_given = false;
	struct carc_raster_options raster = {CARC_RASTER_PNG, 0, 0, NULL};
	long game = 1, turn = -1;
	const char *output = NULL;
	bool features = false, highlight = false;
	int32_t hx = 0, hy = 0;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":g:t:o:H:fF:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if ((game = number(optarg, 1, 1000000000)) < 0)
				return carc_usage_error("render", "--game takes a number from 1, not '%s'", optarg);
			game_given = true;
			break;
		case 't':
			if ((turn = number(optarg, 0, 100000)) < 0)
				return carc_usage_error("render", "--turn takes a number from 0, not '%s'", optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'H':
			if (!parse_cell(optarg, &hx, &hy))
				return carc_usage_error("render", "--highlight takes a cell x,y such as -1,2, not '%s'",
							optarg);
			highlight = true;
			break;
		case 'f':
			features = true;
			break;
		case 'F':
			if (!strcmp(optarg, "svg"))
				format = FORMAT_SVG;
			else if (!strcmp(optarg, "png"))
				format = FORMAT_PNG;
			else if (!strcmp(optarg, "pdf"))
				format = FORMAT_PDF;
			else if (!strcmp(optarg, "html"))
				format = FORMAT_HTML;
			else
				return carc_usage_error("render", "--format is svg, png, pdf or html, not '%s'", optarg);
			break;
		case 'w':
			if ((raster.width = (int)number(optarg, 1, CARC_RASTER_MAX_SIDE)) < 0)
				return carc_usage_error("render", "--width takes a number of pixels from 1 to %d, not '%s'",
							CARC_RASTER_MAX_SIDE, optarg);
			break;
		case 's': {
			char *end;
			raster.scale = strtod(optarg, &end);
			if (!*optarg || *end || !(raster.scale > 0 && raster.scale <= CARC_RASTER_MAX_SCALE))
				return carc_usage_error("render", "--scale takes a number above 0 and at most %g, such as 1.5, "
							"not '%s'", CARC_RASTER_MAX_SCALE, optarg);
			break;
		}
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("render", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("render", c, argv);
		}
	}
	const char *path;
	if (carc_one_input("render", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	if (raster.width && raster.scale)
		return carc_usage_error("render", "give --width or --scale, not both");
	if ((format == FORMAT_SVG || format == FORMAT_HTML) && (raster.width || raster.scale))
		return carc_usage_error("render", "--%s is for --format png or pdf", raster.width ? "width" : "scale");
	if (format == FORMAT_HTML && (features || highlight))
		return carc_usage_error("render", "--%s draws one picture: it does not go with --format html",
					features ? "features" : "highlight");
	if (format == FORMAT_HTML)
		return carc_render_html(path, output, game_given ? game : 0, turn);
	raster.format = format == FORMAT_PDF ? CARC_RASTER_PDF : CARC_RASTER_PNG;
	if (format != FORMAT_SVG && !raster_ready(output, format == FORMAT_PDF ? "PDF" : "PNG"))
		return CARC_EXIT_TROUBLE;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_scene s;
	int status = carc_scene_load(&s, "render", path, (int)game, (int)turn, &sink);
	if (s.view.ts) {
		const struct carc_record *rec = &s.rec;
		s.view.features = features;
		if (highlight && s.view.ncells < (int)CARC_ARRAY_LEN(s.view.cells))
			s.view.cells[s.view.ncells++] = (struct carc_view_cell){hx, hy, CARC_MARK_HIGHLIGHT};
		struct carc_buf title = {0}, sub = {0}, score_label = {0};
		const char *event = carc_record_tag(rec, CARC_TAG_EVENT);
		const char *date = carc_record_tag(rec, CARC_TAG_DATE);
		carc_buf_adds(&title, event ? event : carc_input_name(path));
		if (date)
			carc_buf_printf(&title, ", %s", date);
		if (game > 1 || !event)
			carc_buf_printf(&title, " (game %ld)", game);
		carc_scene_describe(&s, &sub);
		struct carc_buf rules = {0};
		carc_scene_rules(&s, &rules);
		carc_buf_adds(&score_label, s.final ? "Final scores" : s.lines ? "Scores after this turn" : "Scores");
		struct carc_svg_legend legend = {carc_buf_cstr(&title), carc_buf_cstr(&sub), NULL,
						 carc_buf_cstr(&score_label)};
		legend.rules = carc_buf_cstr(&rules);
		struct carc_buf note = {0};
		if (s.first_error) {
			carc_buf_printf(&note, "Illegal move, framed in red: %s", s.first_error);
			legend.note = carc_buf_cstr(&note);
		} else if (s.illegal_shown) {
			legend.note = "This turn is the first illegal move (framed in red); see the messages of carc check.";
		}
		struct carc_buf supply[CARC_ARRAY_LEN(legend.players)] = {{0}};
		for (int i = 0; i < rec->nseats && i < (int)CARC_ARRAY_LEN(legend.players); i++) {
			int col = rec->seats[i];
			carc_scene_supply(&s, col, &supply[i]);
			legend.players[legend.nplayers++] = (struct carc_svg_player){
				(uint8_t)col, carc_record_tag(rec, CARC_TAG_KNOWN + col), s.scores[col],
				carc_buf_cstr(&supply[i])};
		}
		char role_key[CARC_MAX_ROLES][40];
		const char *role_names[CARC_MAX_ROLES];
		for (int r = 0; r < rec->rules->nroles; r++) {
			snprintf(role_key[r], sizeof role_key[r], "%c %s", s.role_letter[r], rec->rules->roles[r].name);
			role_names[r] = role_key[r];
		}
		legend.role_names = role_names;
		legend.nroles = rec->rules->nroles;

		struct carc_buf svg = {0};
		carc_svg_map(&svg, &s.view, s.shapes, &legend);
		struct carc_buf why = {0};
		raster.title = carc_buf_cstr(&title);
		if (format != FORMAT_SVG && !carc_raster(&svg, &raster, &why)) {
			fprintf(stderr, "carc render: %s\n", carc_buf_cstr(&why));
			status = CARC_EXIT_TROUBLE;
		} else if (!carc_output_write("render", output, svg.data, svg.len)) {
			status = CARC_EXIT_TROUBLE;
		}
		carc_buf_free(&svg);
		carc_buf_free(&why);
		carc_buf_free(&title);
		carc_buf_free(&sub);
		carc_buf_free(&rules);
		for (size_t i = 0; i < CARC_ARRAY_LEN(supply); i++)
			carc_buf_free(&supply[i]);
		carc_buf_free(&score_label);
		carc_buf_free(&note);
	}
	carc_scene_free(&s);
	carc_diag_free(&sink);
	carc_buf_free(&printer.buf);
	return status;
}
