/*
 * scores.c - a program outside the tree, built against the installed
 * libcarc with pkg-config alone (tests/api/run.sh): for every game of each
 * file it prints the diagnostics as `carc check` prints their first line,
 * then the game's scores as `carc score --format json` gives them
 * ("game N: red 12, green 7"), so that the two can be compared.
 */
#include <carc.h>

#include <stdio.h>

static const char *const severity[] = {"error", "warning", "note"};

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		char why[256];
		carc_records *r = carc_records_open(argv[a], why, sizeof why);
		if (!r) {
			printf("%s: cannot open: %s\n", argv[a], why);
			continue;
		}
		carc_match *m;
		int game = 0, rc;
		while ((rc = carc_records_next(r, &m)) == CARC_OK) {
			game++;
			for (int i = 0; i < carc_match_ndiagnostics(m); i++) {
				carc_diagnostic d;
				carc_match_diagnostic(m, i, &d);
				if (d.line)
					printf("%s:%u:%u: %s[%s]: %s\n", d.file, d.line, d.column, severity[d.severity], d.code,
					       d.message);
				else
					printf("%s: %s[%s]: %s\n", d.file, severity[d.severity], d.code, d.message);
			}
			printf("%s game %d:", argv[a], game);
			for (int s = 0; s < carc_match_nplayers(m); s++)
				printf("%s %s %d", s ? "," : "", carc_match_colour(m, s), carc_match_score(m, s));
			printf("\n");
			carc_match_free(m);
		}
		if (rc != CARC_END)
			printf("%s: %s\n", argv[a], carc_records_error(r));
		carc_records_close(r);
	}
	return 0;
}
