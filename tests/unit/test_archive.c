/*
 * test_archive.c - the pass that carc stats, standings and filter share
 * (archive.c).
 *
 * The commands' figures are proved end to end in tests/stats; these tests
 * pin what they rest on: each game is handed over once, in file order, with
 * its own diagnostics counted (not those of the game before it), a file
 * that cannot be read is counted and the pass goes on; the names table
 * keeps one index per distinct name through its growth, and its work stays
 * linear even for names written to collide under FNV-1a (the unkeyed hash
 * it had); and the seat of a player without a name tag is named by its
 * colour.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "cli/archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two games: the first with a false claim (E212) and unfinished (W001),
 * the second unfinished only, with one name tag. */
static const char two_games[] = "[Seats \"red green\"]\n"
				"[Red \"Anna\"]\n"
				"\n"
				"1. red U -1,0 90 thief E = red 1\n"
				"\n"
				"[Seats \"red green\"]\n"
				"[Green \"Boris\"]\n"
				"\n"
				"1. red U -1,0 90\n";

struct seen {
	int games;
	unsigned index[4];
	unsigned errors[4];
	unsigned e212[4], w001[4];
	char player[4][2][16];
	bool refereed;
};

static void collect(void *ctx, const struct carc_archive_game *game)
{
	struct seen *s = ctx;
	int i = s->games++;
	if (i >= 4)
		return;
	s->index[i] = game->rec->index;
	s->errors[i] = game->errors;
	s->e212[i] = game->codes[CARC_E212];
	s->w001[i] = game->codes[CARC_W001];
	s->refereed = game->res != NULL;
	for (int seat = 0; seat < 2 && seat < game->rec->nseats; seat++)
		snprintf(s->player[i][seat], sizeof s->player[i][seat], "%s", carc_archive_player(game->rec, seat));
}

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/carc-test-archive-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Each game with its own counts, in file order, and the same with the
 * games read and refereed by 2 and 3 threads (two files: a file to a
 * thread, one of them missing). */
static void test_archive_each_game_its_own_counts(void **state)
{
	(void)state;
	char *path = write_temp(two_games);
	char *paths[] = {path, (char *)"/nonexistent/carc-test-archive.cgn"};
	for (int jobs = 1; jobs <= 3; jobs++) {
		struct seen s = {0};
		struct carc_archive_totals t = {0};
		carc_archive_each(paths, 2, true, jobs, collect, &s, &t); /* (says E001 of the missing file) */
		assert_int_equal(s.games, 2);
		assert_true(s.refereed);
		assert_int_equal(s.index[0], 1);
		assert_int_equal(s.index[1], 2);
		assert_int_equal(s.e212[0], 1);
		assert_int_equal(s.w001[0], 1);
		assert_int_equal(s.errors[0], 1);
		assert_int_equal(s.e212[1], 0); /* not carried over from game 1 */
		assert_int_equal(s.w001[1], 1);
		assert_int_equal(s.errors[1], 0);
		assert_string_equal(s.player[0][0], "Anna");
		assert_string_equal(s.player[0][1], "green");
		assert_string_equal(s.player[1][0], "red");
		assert_string_equal(s.player[1][1], "Boris");
		assert_int_equal(t.files, 2);
		assert_int_equal(t.unreadable, 1);
		assert_int_equal(t.games, 2);
		assert_false(t.trouble);
	}
	remove(path);
	free(path);
}

static void test_archive_read_only_pass(void **state)
{
	(void)state;
	char *path = write_temp(two_games);
	struct seen s = {0};
	struct carc_archive_totals t = {0};
	carc_archive_each(&path, 1, false, 2, collect, &s, &t);
	assert_int_equal(s.games, 2);
	assert_false(s.refereed);
	assert_int_equal(s.w001[0], 0); /* the referee's warning: not refereed */
	remove(path);
	free(path);
}

static void test_archive_names_through_growth(void **state)
{
	(void)state;
	struct carc_names n = {0};
	char name[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "player %d", i);
		assert_int_equal(carc_names_intern(&n, name), (size_t)i);
	}
	for (int i = 4999; i >= 0; i -= 7) {
		snprintf(name, sizeof name, "player %d", i);
		assert_int_equal(carc_names_intern(&n, name), (size_t)i);
		assert_string_equal(carc_names_get(&n, (size_t)i), name);
	}
	assert_int_equal(n.count, 5000);
	assert_int_equal(carc_names_intern(&n, ""), 5000);
	assert_int_equal(carc_names_intern(&n, "Chloé"), 5001);
	assert_int_equal(carc_names_intern(&n, "chloé"), 5002); /* names are exact */
	carc_names_free(&n);
	assert_int_equal(n.count, 0);
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* A name "pNNNNNxyz" whose FNV-1a hash is 0 in its low 16 bits, so that all
 * such names share one slot in any table of up to 65536 slots hashed by
 * FNV-1a. The low bits of FNV-1a's state depend only on the low bits
 * before: after x and y the state's low 16 bits must be a printable byte
 * z, and then (state ^ z) * prime is 0 in them. */
static void colliding_name(int i, char name[16])
{
	for (int x = '!'; x <= '~'; x++)
		for (int y = '!'; y <= '~'; y++) {
			snprintf(name, 16, "p%05d%c%c", i, x, y);
			uint32_t low = fnv1a(name) & 0xffff;
			if (low >= '!' && low <= '~') {
				name[8] = (char)low;
				name[9] = '\0';
				return;
			}
		}
	fail_msg("no colliding name for %d", i);
}

static void test_archive_names_colliding_fnv(void **state)
{
	(void)state;
	enum { N = 4000 };
	struct carc_names n = {0};
	char name[16];
	for (int i = 0; i < N; i++) {
		colliding_name(i, name);
		assert_int_equal(fnv1a(name) & 0xffff, 0); /* the input is hostile */
		assert_int_equal(carc_names_intern(&n, name), (size_t)i);
	}
	/* Under FNV-1a every name would probe every name before it: N * N / 2
	 * = 8,000,000 probes. Under a keyed hash, a table at most half full
	 * takes about 2.5 probes an insertion, growth included (linear probing,
	 * Knuth); 10 an insertion is a bound that random keys pass with
	 * overwhelming probability and a quadratic table fails by 200 times. */
	assert_true(n.probes < 10 * (size_t)N);
	for (int i = 0; i < N; i += 97) {
		colliding_name(i, name);
		assert_int_equal(carc_names_intern(&n, name), (size_t)i);
	}
	assert_int_equal(n.count, N);
	carc_names_free(&n);
}

static void test_archive_format_names(void **state)
{
	(void)state;
	enum carc_archive_format f = CARC_FORMAT_TEXT;
	assert_true(carc_archive_format("json", &f));
	assert_int_equal(f, CARC_FORMAT_JSON);
	assert_true(carc_archive_format("csv", &f));
	assert_int_equal(f, CARC_FORMAT_CSV);
	assert_true(carc_archive_format("text", &f));
	assert_int_equal(f, CARC_FORMAT_TEXT);
	assert_false(carc_archive_format("yaml", &f));
	assert_false(carc_archive_format("JSON", &f));
	assert_int_equal(f, CARC_FORMAT_TEXT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_archive_each_game_its_own_counts),
		cmocka_unit_test(test_archive_read_only_pass),
		cmocka_unit_test(test_archive_names_through_growth),
		cmocka_unit_test(test_archive_names_colliding_fnv),
		cmocka_unit_test(test_archive_format_names),
	};
	return cmocka_run_group_tests_name("archive", tests, NULL, NULL);
}
