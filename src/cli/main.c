/*
 * main.c - the carc command: dispatches to a subcommand from a table.
 */
#include "cli/cli.h"

#include <string.h>

static const struct carc_command commands[] = {
	{"check", cmd_check, "validate game records against the rules"},
	{"score", cmd_score, "turn-by-turn scores and the final breakdown"},
	{"fmt", cmd_fmt, "rewrite a record in canonical form"},
	{"tiles", cmd_tiles, "list and draw the tiles of a tile set"},
	{"show", cmd_show, "draw the map of a game in the terminal"},
	{"render", cmd_render, "draw a game as an SVG, PNG or PDF picture, or a replay page"},
	{"recorder", cmd_recorder, "write the page that records a game at the table, offline"},
	{"gen", cmd_gen, "write random complete legal games"},
	{"import", cmd_import, "convert JCloisterZone, BGA or CarcassonneLab games into CGN"},
	{"export", cmd_export, "write games as CarcassonneLab replay URLs"},
	{"stats", cmd_stats, "statistics of an archive of games"},
	{"standings", cmd_standings, "a tournament table from the games of an event"},
	{"filter", cmd_filter, "select the games that meet conditions"},
	{"pair", cmd_pair, "the next round of a Swiss tournament or a knock-out"},
	{"ratings", cmd_ratings, "Elo ratings of the players of an archive"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: carc COMMAND [OPTIONS] [FILE...]\n\n"
		     "A referee for recorded Carcassonne games (CGN, see cgn(5)).\n\ncommands:\n");
	for (size_t i = 0; i < CARC_ARRAY_LEN(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'carc COMMAND --help' describes a command; 'man carc' has the details.\n"
		     "Exit status: 0 all games valid, 1 a syntax error, an illegal move or a false claim,\n"
		     "2 could not run.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return CARC_EXIT_TROUBLE;
	}
	const char *name = argv[1];
	int status = -1;
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		status = CARC_EXIT_OK;
	} else if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		status = carc_print_version();
	}
	for (size_t i = 0; status < 0 && i < CARC_ARRAY_LEN(commands); i++)
		if (!strcmp(name, commands[i].name))
			status = commands[i].run(argc - 1, argv + 1);
	if (status >= 0) {
		/* what the commands leave unchecked (--help, --version): a lost
		 * write is "could not run" too */
		if (!carc_stdout_done(NULL))
			status = CARC_EXIT_TROUBLE;
		/* diagnostics that could not be written (2>/dev/full): the
		 * verdict they carry was lost, so the run could not be done */
		if (fflush(stderr) != 0 || ferror(stderr))
			status = CARC_EXIT_TROUBLE;
		return status;
	}
	fprintf(stderr, "carc: '%s' is not a command; see 'carc --help'\n", name);
	return CARC_EXIT_TROUBLE;
}
