/*
 * greedy.c - a greedy player: for the drawn tile it tries every legal move
 * on a clone of the game and takes the one after which its projected final
 * score (what it would have if the game ended then) leads the best other
 * seat's by the most. Writes the game as CGN.
 *
 *   cc greedy.c $(pkg-config --cflags --libs carc) -o greedy
 *   ./greedy [RULES [EXPANSIONS [PLAYERS [SEED]]]] | carc check -
 */
#include <carc.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The seat's projected lead over the best other seat. */
static int lead(carc_match *m, int seat)
{
	int mine = carc_match_projected(m, seat), best = INT_MIN;
	for (int s = 0; s < carc_match_nplayers(m); s++)
		if (s != seat && carc_match_projected(m, s) > best)
			best = carc_match_projected(m, s);
	return best == INT_MIN ? mine : mine - best;
}

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
		fprintf(stderr, "greedy: %s\n", why);
		return 2;
	}
	carc_move_spec *moves = NULL;
	int cap = 0, seat;
	while ((seat = carc_match_to_move(m)) >= 0) {
		if (carc_match_draw(m, NULL) != CARC_OK)
			break;
		int n = carc_match_legal_moves(m, moves, cap);
		if (n > cap) {
			cap = n;
			moves = realloc(moves, (size_t)cap * sizeof *moves);
			n = carc_match_legal_moves(m, moves, cap);
		}
		int best = 0, best_lead = INT_MIN;
		for (int i = 0; i < n; i++) {
			carc_match *c = carc_match_clone(m);
			if (carc_match_play(c, &moves[i]) == CARC_OK) {
				int l = lead(c, seat);
				if (l > best_lead) {
					best_lead = l;
					best = i;
				}
			}
			carc_match_free(c);
		}
		if (n <= 0 || carc_match_play(m, &moves[best]) != CARC_OK) {
			fprintf(stderr, "greedy: %s\n", carc_match_error(m));
			return 1;
		}
	}
	size_t len = carc_match_cgn(m, NULL, 0);
	char *text = malloc(len + 1);
	carc_match_cgn(m, text, len + 1);
	fputs(text, stdout);
	free(text);
	free(moves);
	carc_match_free(m);
	return 0;
}
