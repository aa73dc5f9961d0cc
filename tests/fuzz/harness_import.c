/*
 * harness_import.c - libFuzzer entry point over the JSON reader and the
 * importers of other programs' games.
 *
 * The input is a JSON file. It is read by the strict reader (jsonread.c),
 * and when it is JSON the reader's table of positions is checked against
 * the text: every value, key and item must be found where its token starts
 * (a '{' for an object, a '"' for a string or key, a digit or '-' for a
 * number, ...), each after the one before it in the text. Then the input
 * goes through every importer in the table below (an importer added later
 * is one more line there), with every diagnostic formatted with its source
 * line and caret; what an importer writes must read back as CGN without a
 * syntax error. A finding is a crash, a sanitizer report, a leak, a
 * timeout, or an abort() of one of these checks.
 *
 * Build and run: sh tests/fuzz/fuzz.sh import (see tests/fuzz/README.md).
 */
#include "rules/rules.h"
#include "import/jcz.h"
#include "common/jsonread.h"
#include "notation/record.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef bool (*import_fn)(const struct carc_src *src, const char *name, struct carc_buf *out,
			  struct carc_diag_sink *sink);

static const struct {
	const char *name;
	import_fn fn;
} importers[] = {
	{"jcz", carc_jcz_import},
};

static void format_diag(void *ctx, const struct carc_diag *d)
{
	struct carc_buf *b = ctx;
	carc_buf_reset(b);
	carc_diag_format(b, d, (d->code & 1) != 0);
}

static void wrong(const char *what, size_t off)
{
	fprintf(stderr, "fuzz: %s (at byte %zu)\n", what, off);
	abort();
}

struct walk {
	const struct carc_json_doc *doc;
	const char *text;
	size_t len, last; /* the offset of the last span seen */
	bool any;
};

/* The span must lie in the text, after the last one, and start as a token
 * of that type starts. */
static void expect_at(struct walk *w, struct carc_json_span at, const json_t *v, bool key)
{
	if (at.off >= w->len || at.len == 0 || at.len > w->len - at.off)
		wrong("a span outside the text", at.off);
	if (w->any && at.off <= w->last)
		wrong("a span not after the one before it", at.off);
	w->last = at.off;
	w->any = true;
	char c = w->text[at.off];
	bool ok;
	if (key) {
		ok = c == '"';
	} else {
		switch (json_typeof(v)) {
		case JSON_OBJECT: ok = c == '{' && at.len == 1; break;
		case JSON_ARRAY: ok = c == '[' && at.len == 1; break;
		case JSON_STRING: ok = c == '"' && w->text[at.off + at.len - 1] == '"'; break;
		case JSON_INTEGER:
		case JSON_REAL: ok = c == '-' || (c >= '0' && c <= '9'); break;
		case JSON_TRUE: ok = at.len == 4 && !memcmp(w->text + at.off, "true", 4); break;
		case JSON_FALSE: ok = at.len == 5 && !memcmp(w->text + at.off, "false", 5); break;
		default: ok = at.len == 4 && !memcmp(w->text + at.off, "null", 4); break;
		}
	}
	if (!ok)
		wrong(key ? "a key's span is not a string" : "a value's span is not a token of its type", at.off);
}

static void walk(struct walk *w, const json_t *v, struct carc_json_span at)
{
	expect_at(w, at, v, false);
	struct carc_json_span own;
	if (carc_json_where(w->doc, v, &own) && (own.off != at.off || own.len != at.len))
		wrong("a node is found at two places", at.off);
	if (json_is_object(v)) {
		const char *key;
		json_t *val;
		json_object_foreach((json_t *)v, key, val) {
			struct carc_json_span k, s;
			if (!carc_json_member_where(w->doc, v, key, &k, &s))
				wrong("a member is not found", at.off);
			expect_at(w, k, NULL, true);
			walk(w, val, s);
		}
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++) {
			struct carc_json_span s;
			if (!carc_json_item_where(w->doc, v, i, &s))
				wrong("an item is not found", at.off);
			walk(w, json_array_get(v, i), s);
		}
	}
}

static void check_reader(const struct carc_src *src, struct carc_diag_sink *sink)
{
	struct carc_json_doc *doc = carc_json_read(src, CARC_E501, sink);
	if (!doc)
		return;
	struct walk w = {doc, src->text, src->len, 0, false};
	struct carc_json_span at;
	if (!carc_json_where(doc, carc_json_root(doc), &at))
		wrong("the root is not found", 0);
	walk(&w, carc_json_root(doc), at);
	carc_json_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct carc_buf msg = {0};
	struct carc_diag_sink sink = {format_diag, &msg};
	struct carc_src src = {"fuzz.json", (const char *)data, size, 1};
	check_reader(&src, &sink);
	for (size_t i = 0; i < sizeof importers / sizeof importers[0]; i++) {
		struct carc_buf out = {0};
		struct carc_src s = {"fuzz.json", (const char *)data, size, 1};
		bool ok = importers[i].fn(&s, "fuzz.json", &out, &sink);
		if (ok) {
			struct carc_record rec = {0};
			struct carc_diag_sink quiet = {0};
			struct carc_tileset_cache *cache = carc_tileset_cache_new();
			if (!carc_parse_string(out.data ? out.data : "", out.len, "import.cgn", cache, carc_rules_registry(),
					       &rec, &quiet) ||
			    rec.syntax_errors) {
				fprintf(stderr, "fuzz: %s import wrote a record that does not read back:\n%s\n",
					importers[i].name, out.data ? out.data : "");
				abort();
			}
			carc_record_free(&rec);
			carc_diag_free(&quiet);
			carc_tileset_cache_free(cache);
		} else if (out.len) {
			fprintf(stderr, "fuzz: %s import failed but wrote something\n", importers[i].name);
			abort();
		}
		carc_buf_free(&out);
	}
	carc_diag_free(&sink);
	carc_buf_free(&msg);
	return 0;
}
