/*
 * elo.h - Elo ratings, as carcassonne.gg computes them (the facts file
 * tournaments.md, section 5): pure arithmetic, no files, no names.
 *
 *   expected score  E_A = 1 / (1 + 10^((R_B - R_A) / scale))
 *   update          R'_A = R_A + K * (S_A - E_A) * M, and likewise for B
 *   margin factor   M = 1 + (g_winner - g_loser - 1) / N for a duel won
 *                   g_winner to g_loser in a best of N; 1 for a level duel
 *                   and whenever no margin is asked for.
 */
#ifndef CARC_ELO_H
#define CARC_ELO_H

#include <stdbool.h>

/* E_A, the expected score of a player rated ra against one rated rb. */
double elo_expected(double ra, double rb, double scale);

/* The margin factor of a duel of a best of n won won:lost (either way;
 * a level game counts half to each). */
double elo_margin(double won, double lost, unsigned n);

/* N of a duel's format: "Bo3" gives 3 (any "BoN", N from 1 to 99, case as
 * written); otherwise inferred from the winner's games as carcassonne.gg
 * does: 1 -> 1, 2 -> 3, 3 -> 5, anything else 3. */
unsigned elo_format_n(const char *format, unsigned winner_games);

/* Updates both ratings after a game or duel in which A scored sa (1 a
 * win, 0.5 level, 0 a loss), from the ratings before it. */
void elo_update(double *ra, double *rb, double sa, double k, double scale, double margin);

#endif
