/*
 * random.c - a random player: draws each tile, lists its legal moves,
 * plays one of them chosen at random, and writes the game as CGN.
 *
 *   cc random.c $(pkg-config --cflags --libs carc) -o random
 *   ./random [RULES [EXPANSIONS [PLAYERS [SEED]]]] | carc check -
 */
#include <carc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	carc_setup setup = {0};
	setup.rules = argc > 1 ? argv[1] : "base";
	setup.expansions = argc > 2 && strcmp(argv[2], "-") ? argv[2] : NULL;
	setup.players = argc > 3 ? atoi(argv[3]) : 2;
	setup.seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
	char why[256];
	carc_match *m = carc_match_new(&setup, why, sizeof why);
	if (!m) {
		fprintf(stderr, "random: %s\n", why);
		return 2;
	}
	srand((unsigned)setup.seed);
	carc_move_spec *moves = NULL;
	int cap = 0;
	while (carc_match_to_move(m) >= 0) {
		if (carc_match_draw(m, NULL) != CARC_OK) {
			fprintf(stderr, "random: %s\n", carc_match_error(m));
			return 1;
		}
		int n = carc_match_legal_moves(m, moves, cap);
		if (n > cap) {
			cap = n;
			moves = realloc(moves, (size_t)cap * sizeof *moves);
			n = carc_match_legal_moves(m, moves, cap);
		}
		if (n <= 0 || carc_match_play(m, &moves[rand() % n]) != CARC_OK) {
			fprintf(stderr, "random: %s\n", carc_match_error(m));
			return 1;
		}
	}
	size_t len = carc_match_cgn(m, NULL, 0);
	char *text = malloc(len + 1);
	carc_match_cgn(m, text, len + 1);
	fputs(text, stdout);
	for (int s = 0; s < carc_match_nplayers(m); s++)
		fprintf(stderr, "%s %d\n", carc_match_colour(m, s), carc_match_score(m, s));
	free(text);
	free(moves);
	carc_match_free(m);
	return 0;
}
