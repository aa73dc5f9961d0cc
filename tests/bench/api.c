/*
 * api.c - the library's speed (make bench, tests/bench/api.sh): complete
 * random games played through <carc.h> (draw, list the legal moves, pick
 * one, play) per second, the legal-move listings among them per second,
 * and random games written by carc_generator_game (`carc gen`'s code) per
 * second for comparison. One core, CPU time.
 *
 *   api GAMES
 */
#include <carc.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int games = argc > 1 ? atoi(argv[1]) : 200;
	carc_move_spec *moves = NULL;
	int cap = 0;
	long listings = 0;
	double listing_secs = 0;
	srand(1);
	double t0 = cpu();
	for (int k = 0; k < games; k++) {
		carc_setup s = {.players = 2 + k % 4, .seed = (uint64_t)k};
		carc_match *m = carc_match_new(&s, NULL, 0);
		while (carc_match_to_move(m) >= 0) {
			carc_match_draw(m, NULL);
			double l0 = cpu();
			int n = carc_match_legal_moves(m, moves, cap);
			if (n > cap) {
				cap = n;
				moves = realloc(moves, (size_t)cap * sizeof *moves);
				n = carc_match_legal_moves(m, moves, cap);
			}
			listing_secs += cpu() - l0;
			listings++;
			if (n <= 0 || carc_match_play(m, &moves[rand() % n]) != CARC_OK) {
				fprintf(stderr, "api: %s\n", carc_match_error(m));
				return 1;
			}
		}
		carc_match_free(m);
	}
	double played = cpu() - t0;
	carc_setup s = {.players = 2, .seed = 1, .deploy_rate = -1, .claim_rate = -1};
	carc_generator *gen = carc_generator_new(&s, NULL, 0);
	char *buf = malloc(1 << 16);
	int gen_games = games * 20;
	t0 = cpu();
	for (int k = 0; k < gen_games; k++)
		carc_generator_game(gen, (uint64_t)k, buf, 1 << 16);
	double generated = cpu() - t0;
	printf("api: %d complete random base games played through carc.h (draw, legal moves, pick, play), one core\n",
	       games);
	printf("api play            %8.1f games/s   %6.2f ms a game\n", games / played, played * 1e3 / games);
	printf("api legal moves     %8.0f listings/s (%ld listings, %.2f s)\n", listings / listing_secs, listings,
	       listing_secs);
	printf("api generator (gen) %8.1f games/s   %6.3f ms a game: %.0f x faster than play through the API\n",
	       gen_games / generated, generated * 1e3 / gen_games, (gen_games / generated) / (games / played));
	carc_generator_free(gen);
	free(buf);
	free(moves);
	return 0;
}
