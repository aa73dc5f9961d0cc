/*
 * cmd_show.c - carc show: the map of a game in the terminal.
 *
 * Each tile is a small block of characters showing the terrain on its edges
 * (picture.c), followers are a role letter and a colour letter ("Kr": red
 * knight), coordinates run along the margins. Without --turn the map is the
 * end of the game, or, when the record has an illegal move, the map just
 * after the first one with the offending tile framed. The game's
 * diagnostics go to standard error as carc check prints them.
 */
#include "common/width.h"
#include "cli/cli.h"
#include "cli/view.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* The narrowest --width: a tile and its margins. */
enum { MIN_WIDTH = 30, MAX_WIDTH = 100000 };

static void help(void)
{
	printf("usage: carc show [OPTIONS] FILE|-\n\n"
	       "Draw the map of a recorded game in the terminal: each tile a block showing\n"
	       "its terrain, followers as a role letter and a colour letter (Kr: a red\n"
	       "knight), coordinates on the margins. Without --turn: the end of the game,\n"
	       "or the map at its first illegal move with the offending tile framed.\n\n"
	       "options:\n"
	       "  -g, --game N     the Nth game of the file (default 1)\n"
	       "  -t, --turn N     the map after turn N (0: the start tile alone)\n"
	       "  -a, --ascii      draw with plain ASCII instead of Unicode\n"
	       "  -w, --width N    fit in N columns (default: the terminal's width, or 80\n"
	       "                   when not a terminal): a wider map is cut to the columns\n"
	       "                   around the last tile placed, and says so; long lines wrap\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME\n"
	       "                   name standard input NAME in messages and output\n"
	       "  -h, --help       show this help\n"
	       "  -V, --version    show the version\n\n"
	       "exit status: 0 the game is valid, 1 it has an illegal move, a false claim\n"
	       "or a syntax error (the map is still drawn), 2 could not run.\n");
}

/* Parses a whole number from lo to hi for option opt; -1 when it is not one. */
static long number(const char *s, long lo, long hi)
{
	char *end;
	long n = strtol(s, &end, 10);
	if (!*s || *end || n < lo || n > hi)
		return -1;
	return n;
}

/* The columns a line takes on a terminal: its characters, less the SGR
 * escapes of colour. */
static int line_width(const char *s, size_t len)
{
	int w = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\033') {
			while (i < len && s[i] != 'm')
				i++;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	}
	return w;
}

/* The widest line of text. */
static int text_width(const struct carc_buf *b)
{
	int widest = 0;
	const char *s = b->data ? b->data : "", *end = s + b->len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		int w = line_width(s, len);
		if (w > widest)
			widest = w;
		s += len + 1;
	}
	return widest;
}

/* Appends text to out with every line longer than width broken at its
 * blanks, the rest of a broken line indented by four. */
static void add_wrapped(struct carc_buf *out, const struct carc_buf *text, int width)
{
	const char *s = text->data ? text->data : "", *end = s + text->len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end;
		int indent = 0;
		while (line_width(s, (size_t)(stop - s)) + indent > width) {
			/* the last blank that leaves the part before it within width */
			const char *cut = NULL;
			for (const char *p = s + 1; p < stop; p++)
				if (*p == ' ' && line_width(s, (size_t)(p - s)) + indent <= width)
					cut = p;
			if (!cut)
				break; /* one word longer than the width: it stays whole */
			carc_buf_add(out, s, (size_t)(cut - s));
			carc_buf_adds(out, "\n    ");
			indent = 4;
			s = cut;
			while (s < stop && *s == ' ')
				s++;
		}
		carc_buf_add(out, s, (size_t)(stop - s));
		if (nl)
			carc_buf_addc(out, '\n');
		s = stop + 1;
	}
}

/* The tiles, followers and marks of v in the columns lo to hi, into out's
 * arrays (room for all of v's). */
static void crop_view(const struct carc_view *v, int32_t lo, int32_t hi, struct carc_view *out, uint32_t *index)
{
	struct carc_view_tile *tiles = out->tiles;
	struct carc_view_follower *followers = out->followers;
	*out = *v;
	out->tiles = tiles;
	out->followers = followers;
	out->ntiles = out->nfollowers = 0;
	out->ncells = 0;
	for (size_t i = 0; i < v->ntiles; i++) {
		index[i] = UINT32_MAX;
		if (v->tiles[i].x >= lo && v->tiles[i].x <= hi) {
			index[i] = (uint32_t)out->ntiles;
			out->tiles[out->ntiles++] = v->tiles[i];
		}
	}
	for (size_t i = 0; i < v->nfollowers; i++)
		if (index[v->followers[i].tile] != UINT32_MAX) {
			out->followers[out->nfollowers] = v->followers[i];
			out->followers[out->nfollowers++].tile = index[v->followers[i].tile];
		}
	for (int i = 0; i < v->ncells; i++)
		if (v->cells[i].x >= lo && v->cells[i].x <= hi)
			out->cells[out->ncells++] = v->cells[i];
}

/* Draws the map of s within width columns: when the whole map is wider,
 * the widest run of columns around the marked tile (the illegal move, else
 * the last tile placed) that fits, with a line saying what was left out. */
static void fit_map(struct carc_buf *out, struct carc_scene *s, bool ascii, bool color, int width)
{
	struct carc_buf map = {0};
	const struct carc_view *v = &s->view;
	carc_picture_map(&map, v, s->shapes, ascii, color);
	if (text_width(&map) <= width || !v->ntiles) {
		carc_buf_add(out, map.data, map.len);
		carc_buf_free(&map);
		return;
	}
	int32_t xmin = v->tiles[0].x, xmax = v->tiles[0].x, focus = v->tiles[0].x;
	int best = -1;
	for (size_t i = 0; i < v->ntiles; i++) {
		int32_t x = v->tiles[i].x;
		xmin = x < xmin ? x : xmin;
		xmax = x > xmax ? x : xmax;
		if (v->tiles[i].mark > best) {
			best = v->tiles[i].mark;
			focus = x;
		}
	}
	for (int i = 0; i < v->ncells; i++)
		if (v->cells[i].mark == CARC_MARK_ILLEGAL)
			focus = v->cells[i].x;
	struct carc_view part;
	part.tiles = xcalloc(v->ntiles + 1, sizeof *part.tiles);
	part.followers = xcalloc(v->nfollowers + 1, sizeof *part.followers);
	uint32_t *index = xcalloc(v->ntiles + 1, sizeof *index);
	/* widen the window a column at a time, on the side with more left to show */
	int32_t lo = focus, hi = focus;
	for (;;) {
		bool grew = false;
		for (int side = 0; side < 2; side++) {
			bool left = (hi - focus > focus - lo) == (side == 0);
			int32_t nlo = lo - (left && lo > xmin), nhi = hi + (!left && hi < xmax);
			if (nlo == lo && nhi == hi)
				continue;
			crop_view(v, nlo, nhi, &part, index);
			carc_buf_reset(&map);
			carc_picture_map(&map, &part, s->shapes, ascii, color);
			if (text_width(&map) > width)
				continue;
			lo = nlo;
			hi = nhi;
			grew = true;
			break;
		}
		if (!grew)
			break;
	}
	crop_view(v, lo, hi, &part, index);
	carc_buf_reset(&map);
	carc_picture_map(&map, &part, s->shapes, ascii, color);
	carc_buf_add(out, map.data, map.len);
	struct carc_buf say = {0};
	carc_buf_printf(&say, "\nthe map is cut to fit %d columns: x from %d to %d of %d to %d shown", width, (int)lo,
			(int)hi, (int)xmin, (int)xmax);
	if (lo > xmin)
		carc_buf_printf(&say, "; columns %d to %d left out", (int)xmin, (int)lo - 1);
	if (hi < xmax)
		carc_buf_printf(&say, "%s columns %d to %d left out", lo > xmin ? " and" : ";", (int)hi + 1, (int)xmax);
	carc_buf_adds(&say, " (--width sets the width)\n");
	add_wrapped(out, &say, width);
	carc_buf_free(&say);
	free(index);
	free(part.tiles);
	free(part.followers);
	carc_buf_free(&map);
}

/* The terminal's width when standard output is one, else 80. */
static int default_width(void)
{
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= MIN_WIDTH)
		return ws.ws_col;
	return 80;
}

static void legend(struct carc_buf *out, const struct carc_scene *s, bool color)
{
	const struct carc_record *rec = &s->rec;
	int namew = 0;
	for (int i = 0; i < rec->nseats; i++) {
		const char *who = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[i]);
		if (who && (int)carc_str_width(who) > namew) /* in columns: 王芳 takes four */
			namew = (int)carc_str_width(who);
	}
	carc_buf_printf(out, "%s:\n", s->final ? "final scores" : s->lines ? "scores after this turn" : "scores");
	for (int i = 0; i < rec->nseats; i++) {
		int c = rec->seats[i];
		const char *who = carc_record_tag(rec, CARC_TAG_KNOWN + c);
		if (color)
			carc_buf_printf(out, "  \033[%sm%c\033[0m ",
					(const char *const[]){"1;97;41", "1;97;42", "1;97;44", "1;30;43", "1;97;40",
							      "1;97;100", "1;97;45"}[c], carc_colour_letter(c));
		else
			carc_buf_printf(out, "  %c ", carc_colour_letter(c));
		carc_buf_printf(out, "%-6s ", carc_colour_name(c));
		carc_buf_add_padded(out, who ? who : "", (size_t)namew, false);
		carc_buf_printf(out, " %4d", s->scores[c]);
		carc_buf_adds(out, "   ");
		carc_scene_supply(s, c, out);
		carc_buf_addc(out, '\n');
	}
	carc_buf_adds(out, "followers:");
	for (int r = 0; r < rec->rules->nroles; r++) {
		carc_buf_printf(out, " %c", s->role_letter[r]);
		if (carc_role_weight(&rec->rules->roles[r]) > 1) /* a large follower: drawn larger, its letter twice */
			carc_buf_addc(out, s->role_letter[r]);
		carc_buf_printf(out, " %s%s", rec->rules->roles[r].name, r + 1 < rec->rules->nroles ? "," : "\n");
	}
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"game", required_argument, NULL, 'g'}, {"turn", required_argument, NULL, 't'},
		{"ascii", no_argument, NULL, 'a'},      {"width", required_argument, NULL, 'w'},
		CARC_TILESET_PATH_OPTION,
		{"label", required_argument, NULL, CARC_OPT_LABEL},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},    {NULL, 0, NULL, 0},
	};
	long game = 1, turn = -1, width = 0;
	bool ascii = false;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":g:t:aw:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if ((game = number(optarg, 1, 1000000000)) < 0)
				return carc_usage_error("show", "--game takes a number from 1, not '%s'", optarg);
			break;
		case 't':
			if ((turn = number(optarg, 0, 100000)) < 0)
				return carc_usage_error("show", "--turn takes a number from 0, not '%s'", optarg);
			break;
		case 'a':
			ascii = true;
			break;
		case 'w':
			if ((width = number(optarg, MIN_WIDTH, MAX_WIDTH)) < 0)
				return carc_usage_error("show", "--width takes a number of columns from %d, not '%s'", MIN_WIDTH,
							optarg);
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("show", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("show", c, argv);
		}
	}
	const char *path;
	if (carc_one_input("show", argc, argv, &path))
		return CARC_EXIT_TROUBLE;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	struct carc_scene s;
	int status = carc_scene_load(&s, "show", path, (int)game, (int)turn, &sink);
	if (s.view.ts) {
		bool color = carc_use_color(stdout);
		int cols = width ? (int)width : default_width();
		struct carc_buf out = {0}, text = {0};
		const char *event = carc_record_tag(&s.rec, CARC_TAG_EVENT);
		const char *date = carc_record_tag(&s.rec, CARC_TAG_DATE);
		carc_buf_printf(&text, "%s, game %ld", carc_input_name(path), game);
		if (event)
			carc_buf_printf(&text, ": %s", event);
		if (date)
			carc_buf_printf(&text, "%s%s", event ? ", " : ": ", date);
		carc_buf_adds(&text, " (");
		carc_scene_rules(&s, &text);
		carc_buf_printf(&text, "; tile set %s)\n", s.rec.tileset->name);
		carc_scene_describe(&s, &text);
		if (s.lines)
			carc_buf_printf(&text, " (line %d)", s.turn_line);
		carc_buf_addc(&text, '\n');
		if (s.illegal_shown)
			carc_buf_printf(&text, "this is the first illegal move; its tile is framed with %s\n",
					ascii ? "!" : "┏━┓");
		else if (s.lines)
			carc_buf_printf(&text, "the last tile placed is framed with %s\n", ascii ? "+-+" : "┌─┐");
		if (s.bad_line && (!s.lines || s.turn_line < s.bad_line) && s.lines == (int)s.res.nturns)
			carc_buf_printf(&text, "line %d has a syntax error: the game is not played beyond it\n",
					s.bad_line);
		carc_buf_addc(&text, '\n');
		add_wrapped(&out, &text, cols);
		fit_map(&out, &s, ascii, color, cols);
		carc_buf_reset(&text);
		carc_buf_addc(&text, '\n');
		if (s.first_error)
			carc_buf_printf(&text, "%s\n", s.first_error);
		legend(&text, &s, color);
		carc_buf_addc(&text, '\n');
		carc_buf_adds(&text, "key: ");
		carc_picture_key(&text, s.rec.tileset, ascii);
		add_wrapped(&out, &text, cols);
		fwrite(out.data, 1, out.len, stdout);
		carc_buf_free(&out);
		carc_buf_free(&text);
	}
	carc_scene_free(&s);
	carc_diag_free(&sink);
	carc_buf_free(&printer.buf);
	if (!carc_stdout_done("show"))
		return CARC_EXIT_TROUBLE;
	return status;
}
