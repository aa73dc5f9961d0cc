/*
 * montecarlo.c - a tiny Monte Carlo search: seat 0 tries each legal move of
 * its drawn tile on a clone, plays a few random turns on from there
 * (PLAYOUTS playouts of DEPTH turns, every seat at random) and takes the
 * move whose playouts leave it the best projected lead; the other seats
 * play at random. Writes the game as CGN.
 *
 *   cc montecarlo.c $(pkg-config --cflags --libs carc) -o montecarlo
 *   ./montecarlo [SEED [PLAYOUTS [DEPTH]]] | carc check -
 */
#include <carc.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

static carc_move_spec *moves;
static int cap;

/* The legal moves of the drawn tile, in moves; their count. */
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

/* A random turn; 0 when the game is over. */
static int random_turn(carc_match *m)
{
	if (carc_match_to_move(m) < 0 || carc_match_draw(m, NULL) != CARC_OK)
		return 0;
	int n = legal(m);
	return n > 0 && carc_match_play(m, &moves[rand() % n]) == CARC_OK;
}

static int lead(carc_match *m, int seat)
{
	int mine = carc_match_projected(m, seat), best = INT_MIN;
	for (int s = 0; s < carc_match_nplayers(m); s++)
		if (s != seat && carc_match_projected(m, s) > best)
			best = carc_match_projected(m, s);
	return mine - best;
}

int main(int argc, char **argv)
{
	unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	int playouts = argc > 2 ? atoi(argv[2]) : 4, depth = argc > 3 ? atoi(argv[3]) : 4;
	srand(seed);
	carc_setup setup = {.players = 2, .seed = seed};
	char why[256];
	carc_match *m = carc_match_new(&setup, why, sizeof why);
	if (!m) {
		fprintf(stderr, "montecarlo: %s\n", why);
		return 2;
	}
	int seat;
	while ((seat = carc_match_to_move(m)) >= 0) {
		if (seat != 0) {
			if (!random_turn(m))
				break;
			continue;
		}
		carc_match_draw(m, NULL);
		int n = legal(m);
		carc_move_spec *mine = malloc((size_t)n * sizeof *mine);
		for (int i = 0; i < n; i++)
			mine[i] = moves[i];
		int best = 0;
		long best_total = LONG_MIN;
		for (int i = 0; i < n; i++) {
			long total = 0;
			for (int k = 0; k < playouts; k++) {
				carc_match *c = carc_match_clone(m);
				carc_match_play(c, &mine[i]);
				for (int d = 0; d < depth && random_turn(c); d++)
					;
				total += lead(c, 0);
				carc_match_free(c);
			}
			if (total > best_total) {
				best_total = total;
				best = i;
			}
		}
		int rc = carc_match_play(m, &mine[best]);
		free(mine);
		if (rc != CARC_OK) {
			fprintf(stderr, "montecarlo: %s\n", carc_match_error(m));
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
