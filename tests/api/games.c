/*
 * games.c - random games played through the API (tests/api/run.sh):
 *
 *   games N       N games, a turn at a time, each with a random legal move,
 *                 over every rule set and expansion there is, written as CGN
 *                 one after the other (carc check must find them all valid);
 *   games illegal plays a game a few turns, then a move on a taken cell:
 *                 prints the code and message of the refusal on the first
 *                 line, then the game's CGN with the refused move's line,
 *                 for carc check to say the same.
 */
#include <carc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const carc_setup setups[] = {
	{.rules = "base", .players = 2}, {.rules = "base", .players = 5},
	{.rules = "base", .expansions = "river", .players = 3},
	{.rules = "base", .expansions = "abbot", .players = 4},
	{.rules = "base", .expansions = "river abbot", .players = 2},
	{.rules = "base", .players = 3, .edition = 1}, {.rules = "base", .players = 2, .edition = 2},
	{.rules = "solo", .players = 3}, {.rules = "solo", .expansions = "river", .players = 4},
	{.rules = "hunters", .players = 2}, {.rules = "hunters", .players = 4},
};

static carc_move_spec *moves;
static int cap;

static int legal(carc_match *m)
{
	int n = carc_match_legal_moves(m, moves, cap);
	if (n > cap) {
		cap = n;
		moves = realloc(moves, (size_t)cap * sizeof *moves);
		n = carc_match_legal_moves(m, moves, cap);
	}
	return n;
}

static char *cgn(carc_match *m)
{
	size_t len = carc_match_cgn(m, NULL, 0);
	char *text = malloc(len + 1);
	carc_match_cgn(m, text, len + 1);
	return text;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "illegal")) {
		carc_setup s = {.players = 2, .colours = "red green", .seed = 5};
		carc_match *m = carc_match_new(&s, NULL, 0);
		for (int t = 0; t < 3; t++) {
			carc_match_draw(m, NULL);
			legal(m);
			carc_match_play(m, &moves[0]);
		}
		carc_match_draw(m, NULL);
		carc_move_spec bad = {0};
		snprintf(bad.tile, sizeof bad.tile, "%s", carc_match_drawn(m));
		if (carc_match_play(m, &bad) != CARC_EILLEGAL) { /* 0,0: the start tile's cell */
			fprintf(stderr, "games: a move on the start tile was not refused\n");
			return 1;
		}
		carc_diagnostic d;
		carc_match_last_diagnostic(m, &d);
		printf("%s: %s\n", d.code, d.message);
		char *text = cgn(m);
		char line[128];
		carc_move_format(&bad, line, sizeof line);
		printf("%s%s %s\n", text, carc_match_colour(m, carc_match_to_move(m)), line);
		free(text);
		carc_match_free(m);
		return 0;
	}
	int games = argc > 1 ? atoi(argv[1]) : 100;
	int nsetups = (int)(sizeof setups / sizeof *setups);
	for (int k = 0; k < games; k++) {
		carc_setup s = setups[k % nsetups];
		s.seed = (uint64_t)k;
		char why[256];
		carc_match *m = carc_match_new(&s, why, sizeof why);
		if (!m) {
			fprintf(stderr, "games: %s\n", why);
			return 1;
		}
		while (carc_match_to_move(m) >= 0) {
			int n;
			if (carc_match_draw(m, NULL) || (n = legal(m)) <= 0 ||
			    carc_match_play(m, &moves[rand() % n]) != CARC_OK) {
				fprintf(stderr, "games: game %d: %s\n", k, carc_match_error(m));
				return 1;
			}
		}
		char *text = cgn(m);
		printf("%s%s", k ? "\n" : "", text);
		free(text);
		carc_match_free(m);
	}
	free(moves);
	return 0;
}
