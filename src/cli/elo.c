/*
 * elo.c - Elo ratings (elo.h).
 */
#include "cli/elo.h"

#include <math.h>
#include <string.h>

double elo_expected(double ra, double rb, double scale)
{
	return 1.0 / (1.0 + pow(10.0, (rb - ra) / scale));
}

double elo_margin(double won, double lost, unsigned n)
{
	double hi = won > lost ? won : lost, lo = won > lost ? lost : won;
	if (hi - lo < 1 || !n)
		return 1.0;
	return 1.0 + (hi - lo - 1) / (double)n;
}

unsigned elo_format_n(const char *format, unsigned winner_games)
{
	if (format && (format[0] == 'B' || format[0] == 'b') && (format[1] == 'o' || format[1] == 'O') &&
	    format[2] >= '1' && format[2] <= '9' &&
	    (!format[3] || (format[3] >= '0' && format[3] <= '9' && !format[4])))
		return (unsigned)(format[2] - '0') * (format[3] ? 10 : 1) + (format[3] ? (unsigned)(format[3] - '0') : 0);
	switch (winner_games) {
	case 1:
		return 1;
	case 2:
		return 3;
	case 3:
		return 5;
	default:
		return 3;
	}
}

void elo_update(double *ra, double *rb, double sa, double k, double scale, double margin)
{
	double ea = elo_expected(*ra, *rb, scale);
	double a = *ra + k * (sa - ea) * margin;
	double b = *rb + k * ((1.0 - sa) - (1.0 - ea)) * margin;
	*ra = a;
	*rb = b;
}
