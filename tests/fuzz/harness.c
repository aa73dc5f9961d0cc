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
 * code and count, E207 for a wrong turn number included: fmt keeps the
 * numbers written) and scores as the original: formatting may change the
 * layout, never the game.
 * Every game's score reports are written too (carc score --features),
 * after the game as recorded and with final scoring forced:
 * the JSON must be strict JSON, one document a line (json_strict.h, which
 * shares nothing with carc's writer), the YAML must load (libyaml) and be
 * the JSON's document, types included (yaml_same.h), and
 * every CSV record must have as many fields as the header; the text report
 * is written for the sanitizers alone.
 * A finding is a crash, a sanitizer report, a leak, a timeout, or an abort()
 * of one of these checks, which prints the two texts. Setting
 * CARC_FUZZ_NO_FMT=1 leaves the formatting checks out.
 *
 * Build and run: sh tests/fuzz/fuzz.sh (see tests/fuzz/README.md).
 */
#include "../unit/json_strict.h"
#include "../unit/yaml_same.h"
#include "output/emit.h"
#include "notation/format.h"
#include "referee/referee.h"
#include "output/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

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
	bool got = carc_parse_string(once.data ? once.data : "", once.len, "fmt.cgn", cache, carc_rules_registry(),
				     &again, &sink);
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
			if (sink.counts[c] - before[c] != counts[c]) {
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

/* The fields of each CSV record (RFC 4180: quoted fields may hold commas,
 * quotes doubled and newlines), checked against the header's count. */
static void check_csv(const struct carc_buf *csv)
{
	size_t i = 0, n = csv->len, want = 0, fields = 1;
	const char *s = csv->data;
	while (i < n) {
		if (s[i] == '"') {
			for (i++;; i++) {
				if (i >= n)
					mismatch("CSV: a quoted field without its closing quote", csv, NULL);
				if (s[i] == '"' && (i + 1 >= n || s[i + 1] != '"'))
					break;
				i += s[i] == '"';
			}
			i++;
			if (i < n && s[i] != ',' && s[i] != '\n')
				mismatch("CSV: text after a quoted field", csv, NULL);
			continue;
		}
		if (s[i] == ',') {
			fields++;
		} else if (s[i] == '\n') {
			if (!want)
				want = fields;
			else if (fields != want)
				mismatch("CSV: a record with another number of fields than the header", csv, NULL);
			fields = 1;
		} else if (s[i] == '\r') {
			mismatch("CSV: a CR outside quotes", csv, NULL);
		}
		i++;
	}
	if (n && s[n - 1] != '\n')
		mismatch("CSV: the last record without its newline", csv, NULL);
}

/* A report written through the JSON or the YAML emitter, into *text. */
static void write_doc(const struct carc_result *res, const struct carc_report_opts *o, bool yaml,
		      struct carc_buf *text)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&doc, &len);
	if (!out)
		abort();
	struct carc_emitter *e = yaml ? carc_emitter_yaml(out) : carc_emitter_json(out);
	carc_report_doc(e, res, o);
	bool closed = carc_emitter_close(e);
	fclose(out);
	*text = (struct carc_buf){doc, len, len};
	if (!closed)
		mismatch(yaml ? "the YAML emitter failed" : "the JSON emitter failed", text, NULL);
}

/* Loads a report with libyaml (JSON is YAML's flow style), or stops. */
static void load_doc(const struct carc_buf *text, const char *what, yaml_document_t *d)
{
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text->data, text->len);
	if (!yaml_parser_load(&p, d) || !yaml_document_get_root_node(d)) {
		fprintf(stderr, "fuzz: %s at offset %zu\n", p.problem ? p.problem : "no document", p.problem_offset);
		mismatch(what, text, NULL);
	}
	yaml_parser_delete(&p);
}

/* The score reports of a refereed game, in every format (see the top),
 * with --features: the plain report is the same less the feature list, and
 * writing each twice would halve the fuzzer's speed again. JSON must be
 * strict JSON, and the JSON and YAML documents the same tree with the same
 * types, as a YAML 1.1 reader types them (yaml_same.h). */
static void check_reports(const struct carc_result *res)
{
	struct carc_report_opts o = {.features = true};
	struct carc_buf json, yaml;
	write_doc(res, &o, false, &json);
	write_doc(res, &o, true, &yaml);
	size_t at;
	const char *err = json_strict_lines(json.data, json.len, &at);
	if (err) {
		fprintf(stderr, "fuzz: %s at offset %zu\n", err, at);
		mismatch("the JSON report is not strict JSON", &json, NULL);
	}
	yaml_document_t dj, dy;
	load_doc(&json, "libyaml cannot load the JSON report", &dj);
	load_doc(&yaml, "the YAML report does not load", &dy);
	const char *why = NULL;
	if (!yaml_same(&dj, yaml_document_get_root_node(&dj), &dy, yaml_document_get_root_node(&dy), &why)) {
		fprintf(stderr, "fuzz: JSON and YAML differ at %s\n", why);
		mismatch("the JSON and YAML reports differ", &json, &yaml);
	}
	yaml_document_delete(&dj);
	yaml_document_delete(&dy);
	carc_buf_free(&json);
	carc_buf_free(&yaml);

	struct carc_buf text = {0}, csv = {0};
	carc_report_text(&text, res, &o);
	carc_report_csv_header(&csv, false);
	carc_report_csv(&csv, res, &o);
	carc_buf_cstr(&csv);
	check_csv(&csv);
	carc_buf_free(&text);
	carc_buf_free(&csv);
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
	struct carc_reader *r = carc_reader_new(f, "fuzz.cgn", cache, carc_rules_registry());
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
		check_reports(&res);
		carc_referee_run(&res, &rec, g, &sink, &forced);
		(void)carc_result_winners(&res);
		check_reports(&res);
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
