/*
 * harness_bga.c - libFuzzer entry point over the Board Game Arena log and
 * CarcassonneLab URL importers (src/import/bga.c, src/import/clab.c) and the URL writer.
 *
 * The input is given to both importers as it is. Every diagnostic is
 * formatted with its source line and caret, so the positions they report
 * are exercised too. Whatever converts must be canonical CGN that parses
 * without errors; a game imported from URLs must export (carc export --to
 * carcassonnelab) and import again to the same record. A finding is a
 * crash, a sanitizer report, a leak, a timeout, or an abort() of one of
 * these checks, which prints the two texts.
 *
 * Build: as harness.c (tests/fuzz/fuzz.sh), with this file in its place.
 */
#include "rules/rules.h"
#include "import/bga.h"
#include "import/clab.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void format_diag(void *ctx, const struct carc_diag *d)
{
	struct carc_buf *b = ctx;
	carc_buf_reset(b);
	carc_diag_format(b, d, false);
}

static void mismatch(const char *what, const struct carc_buf *a, const struct carc_buf *b)
{
	fprintf(stderr, "fuzz: %s\n--- first ---\n%s\n--- second ---\n%s\n", what, a && a->data ? a->data : "",
		b && b->data ? b->data : "");
	abort();
}

/* Every game of text parses without errors; URLs' games go out and back. */
static void check_games(struct carc_tileset_cache *cache, const struct carc_buf *cgn, bool url)
{
	struct carc_diag_sink none = {0};
	struct carc_record rec = {0};
	/* games are separated by a blank line before their opening comment */
	for (size_t at = 0; at < cgn->len;) {
		const char *next = strstr(cgn->data + at, "\n\n;");
		size_t end = next ? (size_t)(next - cgn->data) + 1 : cgn->len;
		struct carc_buf one = {0}, urlbuf = {0}, back = {0};
		carc_buf_add(&one, cgn->data + at, end - at);
		if (!carc_parse_string(one.data, one.len, "fuzz", cache, carc_rules_registry(),
				       &rec, &none) || none.errors)
			mismatch("an imported game does not read back", &one, NULL);
		if (url) {
			struct carc_diag_sink sink = {0};
			if (!carc_clab_export(&rec, &urlbuf, &sink))
				mismatch("an imported URL game does not export", &one, NULL);
			struct carc_src src = {"url", urlbuf.data, urlbuf.len, 1};
			if (!carc_clab_import(&src, NULL, &back, &sink))
				mismatch("an exported URL does not import", &urlbuf, NULL);
			/* the opening comments differ (a file's line, the argument): compare from the tags */
			const char *a = strchr(one.data, '['), *b = back.data ? strchr(back.data, '[') : NULL;
			if (!a || !b || strcmp(a, b))
				mismatch("a URL game does not come back from its URL", &one, &back);
			carc_diag_free(&sink);
		}
		carc_buf_free(&one);
		carc_buf_free(&urlbuf);
		carc_buf_free(&back);
		at = end + 1;
	}
	carc_record_free(&rec);
	carc_diag_free(&none);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct carc_tileset_cache *cache;
	if (!cache)
		cache = carc_tileset_cache_new();
	struct carc_buf scratch = {0};
	struct carc_src src = {"fuzz", (const char *)data, size, 1};
	for (int k = 0; k < 2; k++) {
		struct carc_diag_sink sink = {format_diag, &scratch};
		struct carc_buf out = {0};
		bool ok = k ? carc_clab_import(&src, "fuzz", &out, &sink) : carc_bga_import(&src, "fuzz", &out, &sink);
		if (ok)
			check_games(cache, &out, k == 1);
		else if (out.len)
			mismatch("a refused input left output", &out, NULL);
		carc_buf_free(&out);
		carc_diag_free(&sink);
	}
	carc_buf_free(&scratch);
	return 0;
}
