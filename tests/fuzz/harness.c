/*
 * harness.c - libFuzzer entry point over the CGN reader and the referee.
 *
 * The input is a whole CGN file. It is read game by game through the
 * streaming reader (the path carc check takes), each game is replayed by the
 * referee twice (as recorded, and with final scoring forced, which exercises
 * final and farm scoring on unfinished games), and every diagnostic is
 * formatted with its source line and caret, so the positions the parser and
 * the referee report are exercised too. Nothing is printed: a finding is a
 * crash, a sanitizer report, a leak or a timeout.
 *
 * Build and run: sh tests/fuzz/fuzz.sh (see tests/fuzz/README.md).
 */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!cache)
		cache = carc_tileset_cache_new(); /* kept for the whole run: bundled sets only */
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
		carc_referee_run(&res, &rec, g, &sink, NULL);
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
