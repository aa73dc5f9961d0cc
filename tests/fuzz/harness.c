/*
 * harness.c - libFuzzer entry point over the CGN reader and the referee.
 *
 * The input is a whole CGN file. It is read game by game through the
 * streaming reader (the path carc check takes), each game is replayed by the
 * referee twice (as recorded, and with final scoring forced, which exercises
 * final and farm scoring on unfinished games), and every diagnostic is
 * formatted with its source line and caret, so the positions the parser and
 * the referee report are exercised too. A game without syntax errors is also
 * written in canonical form (carc fmt), and the canonical text must parse
 * without errors, format to itself, and referee to the same diagnostics (by
 * code and count) and scores as the original: formatting may change the
 * layout, never the game. Turn numbers are the exception: fmt writes them as
 * they should be, so E207 (wrong turn number) is not compared.
 * A finding is a crash, a sanitizer report, a leak, a timeout, or an abort()
 * of one of these checks, which prints the two texts. Setting
 * CARC_FUZZ_NO_FMT=1 leaves the formatting checks out.
 *
 * Build and run: sh tests/fuzz/fuzz.sh (see tests/fuzz/README.md).
 */
#include "format.h"
#include "referee.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void format_diag(void *ctx, const struct carc_diag *d)
{
	struct carc_buf *b = ctx;
	carc_buf_reset(b);
	carc_diag_format(b, d, (d->code & 1) != 0);
}

static struct carc_tileset_cache *cache;
static int check_fmt = -1;

static void mismatch(const char *what, const struct carc_buf *a, const struct carc_buf *b)
{
	fprintf(stderr, "fuzz: %s\n--- first ---\n%s\n--- second ---\n%s\n", what, a ? a->data : "",
		b ? b->data : "");
	abort();
}

/* The canonical text of a valid-syntax game must parse cleanly, be its own
 * canonical text, and referee like the original: res, and counts, the
 * diagnostics its referee run reported by code. */
static void check_format(const struct carc_record *rec, const struct carc_result *res, const unsigned *counts)
{
	struct carc_buf once = {0}, twice = {0};
	carc_format_record(rec, &once);
	carc_buf_cstr(&once);
	struct carc_diag_sink sink = {0};
	struct carc_record again = {0};
	struct carc_result res2 = {0};
	struct carc_game *g = carc_game_new();
	bool got = carc_parse_string(once.data ? once.data : "", once.len, "fmt.cgn", cache, &again, &sink);
	if (got) {
		if (again.syntax_errors)
			mismatch("the canonical text has syntax errors", &once, NULL);
		carc_format_record(&again, &twice);
		carc_buf_cstr(&twice);
		if (once.len != twice.len || memcmp(once.data, twice.data, once.len))
			mismatch("formatting the canonical text changes it", &once, &twice);
		unsigned before[CARC_CODE_COUNT];
		memcpy(before, sink.counts, sizeof before);
		carc_referee_run(&res2, &again, g, &sink, NULL);
		bool same = res2.finished == res->finished && !memcmp(res2.scores, res->scores, sizeof res->scores);
		for (int c = 0; c < CARC_CODE_COUNT; c++)
			if (c != CARC_E207 && sink.counts[c] - before[c] != counts[c]) {
				fprintf(stderr, "fuzz: %s: %u in the original, %u in the canonical text\n",
					carc_code_str((enum carc_code)c), counts[c], sink.counts[c] - before[c]);
				same = false;
			}
		if (!same)
			mismatch("the canonical text referees differently", &once, NULL);
	} else if (rec->nmoves || rec->ntags) {
		mismatch("the canonical text of a game holds no game", &once, NULL);
	}
	carc_game_free(g);
	carc_result_free(&res2);
	carc_record_free(&again);
	carc_diag_free(&sink);
	carc_buf_free(&once);
	carc_buf_free(&twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!cache)
		cache = carc_tileset_cache_new(); /* kept for the whole run */
	if (check_fmt < 0) {
		const char *no = getenv("CARC_FUZZ_NO_FMT");
		check_fmt = !(no && *no && strcmp(no, "0"));
	}
	FILE *f = fmemopen((void *)(size ? data : (const uint8_t *)""), size ? size : 1, "rb");
	if (!f)
		return 0;
	if (!size)
		fgetc(f); /* fmemopen refuses size 0: read the one byte away */
	struct carc_buf text = {0};
	struct carc_diag_sink sink = {.emit = format_diag, .ctx = &text};
	struct carc_reader *r = carc_reader_new(f, "fuzz.cgn", cache);
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_referee_opts forced = {.final_anyway = true};
	while (carc_reader_next(r, &rec, &sink)) {
		unsigned before[CARC_CODE_COUNT], counts[CARC_CODE_COUNT];
		memcpy(before, sink.counts, sizeof before);
		carc_referee_run(&res, &rec, g, &sink, NULL);
		for (int c = 0; c < CARC_CODE_COUNT; c++)
			counts[c] = sink.counts[c] - before[c];
		if (check_fmt && rec.syntax_errors == 0)
			check_format(&rec, &res, counts);
		carc_referee_run(&res, &rec, g, &sink, &forced);
		(void)carc_result_winners(&res);
	}
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_reader_free(r);
	fclose(f);
	carc_diag_free(&sink);
	carc_buf_free(&text);
	return 0;
}
