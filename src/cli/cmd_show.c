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
#include "cli/cli.h"
#include "cli/view.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

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

static void legend(struct carc_buf *out, const struct carc_scene *s, bool color)
{
	const struct carc_record *rec = &s->rec;
	int namew = 0;
	for (int i = 0; i < rec->nseats; i++) {
		const char *who = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[i]);
		if (who && (int)strlen(who) > namew)
			namew = (int)strlen(who);
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
		carc_buf_printf(out, "%-6s %-*s %4d", carc_colour_name(c), namew, who ? who : "", s->scores[c]);
		carc_buf_adds(out, "   ");
		carc_scene_supply(s, c, out);
		carc_buf_addc(out, '\n');
	}
	carc_buf_adds(out, "followers:");
	for (int r = 0; r < rec->rules->nroles; r++)
		carc_buf_printf(out, " %c %s%s", s->role_letter[r], rec->rules->roles[r].name,
				r + 1 < rec->rules->nroles ? "," : "\n");
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"game", required_argument, NULL, 'g'}, {"turn", required_argument, NULL, 't'},
		{"ascii", no_argument, NULL, 'a'},      CARC_TILESET_PATH_OPTION,
		{"label", required_argument, NULL, CARC_OPT_LABEL},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},    {NULL, 0, NULL, 0},
	};
	long game = 1, turn = -1;
	bool ascii = false;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":g:t:ahV", longopts, NULL)) != -1) {
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
		struct carc_buf out = {0};
		const char *event = carc_record_tag(&s.rec, CARC_TAG_EVENT);
		const char *date = carc_record_tag(&s.rec, CARC_TAG_DATE);
		carc_buf_printf(&out, "%s, game %ld", carc_input_name(path), game);
		if (event)
			carc_buf_printf(&out, ": %s", event);
		if (date)
			carc_buf_printf(&out, "%s%s", event ? ", " : ": ", date);
		carc_buf_adds(&out, " (");
		carc_scene_rules(&s, &out);
		carc_buf_printf(&out, "; tile set %s)\n", s.rec.tileset->name);
		carc_scene_describe(&s, &out);
		if (s.lines)
			carc_buf_printf(&out, " (line %d)", s.turn_line);
		carc_buf_addc(&out, '\n');
		if (s.illegal_shown)
			carc_buf_printf(&out, "this is the first illegal move; its tile is framed with %s\n",
					ascii ? "!" : "┏━┓");
		else if (s.lines)
			carc_buf_printf(&out, "the last tile placed is framed with %s\n", ascii ? "+-+" : "┌─┐");
		if (s.bad_line && (!s.lines || s.turn_line < s.bad_line) && s.lines == (int)s.res.nturns)
			carc_buf_printf(&out, "line %d has a syntax error: the game is not played beyond it\n",
					s.bad_line);
		carc_buf_addc(&out, '\n');
		carc_picture_map(&out, &s.view, s.shapes, ascii, color);
		carc_buf_addc(&out, '\n');
		if (s.first_error)
			carc_buf_printf(&out, "%s\n", s.first_error);
		legend(&out, &s, color);
		carc_buf_addc(&out, '\n');
		carc_buf_adds(&out, "key: ");
		carc_picture_key(&out, s.rec.tileset, ascii);
		fwrite(out.data, 1, out.len, stdout);
		carc_buf_free(&out);
	}
	carc_scene_free(&s);
	carc_diag_free(&sink);
	carc_buf_free(&printer.buf);
	if (!carc_stdout_done("show"))
		return CARC_EXIT_TROUBLE;
	return status;
}
