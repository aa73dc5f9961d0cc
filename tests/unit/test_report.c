/*
 * test_report.c - the structured reports of carc score.
 *
 * JSON and YAML are written through one emitter interface so that they carry
 * the same document; these tests prove it by loading both outputs with
 * libyaml (JSON is YAML's flow style, so the JSON must load too, which also
 * proves it is well-formed) and comparing the two trees node by node. They
 * also pin down the schema's key facts on a small hand-checked game, the
 * type of scalars in YAML (a tile named E stays a string), the breakdown
 * adding up to the total and its text rows lining up in every rule set, and
 * the CSV having one row per turn.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "output/emit.h"
#include "import/gen.h"
#include "referee/project.h"
#include "notation/gameid.h"
#include "output/report.h"
#include "json_strict.h"
#include "yaml_same.h"

static const char game_text[] =
	"[Event \"Club night\"]\n"
	"[Seats \"red green\"]\n"
	"[Red \"Anna\"]\n"
	"[Green \"Boris\"]\n"
	"\n"
	"1. red   U -1,0 90   thief E\n"
	"2. green E 0,1 180   knight S     ; closes the start tile's city\n"
	"3. red   V 1,0 0     farmer NNE   = red 0, green 4\n"
	"4. green K 0,-1 270  knight W\n";

struct fixture {
	struct carc_tileset_cache *cache;
	struct carc_record rec;
	struct carc_result res;
	struct carc_game *game;
	struct carc_diag_sink sink;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	f->game = carc_game_new();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	carc_result_free(&f->res);
	carc_record_free(&f->rec);
	carc_game_free(f->game);
	carc_tileset_cache_free(f->cache);
	carc_diag_free(&f->sink);
	free(f);
	return 0;
}

static void play(struct fixture *f, const char *text, const struct carc_referee_opts *opts)
{
	assert_true(carc_parse_string(text, strlen(text), "test.cgn", f->cache, carc_rules_registry(),
				      &f->rec, &f->sink));
	carc_referee_run(&f->res, &f->rec, f->game, &f->sink, opts);
}

/* Writes the report with one emitter into a string. */
static char *render(struct fixture *f, bool yaml, const struct carc_report_opts *o)
{
	char *data = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&data, &len);
	struct carc_emitter *e = yaml ? carc_emitter_yaml(out) : carc_emitter_json(out);
	carc_report_doc(e, &f->res, o);
	assert_true(carc_emitter_close(e));
	fclose(out);
	size_t at;
	const char *err = yaml ? NULL : json_strict_lines(data, len, &at);
	if (err)
		fail_msg("the JSON report is not strict JSON: %s at offset %zu of\n%s", err, at, data);
	return data;
}

static void load(const char *text, yaml_document_t *doc)
{
	yaml_parser_t parser;
	assert_true(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	int ok = yaml_parser_load(&parser, doc);
	if (!ok)
		fprintf(stderr, "libyaml: %s at offset %zu\n", parser.problem, parser.problem_mark.index);
	assert_true(ok);
	assert_non_null(yaml_document_get_root_node(doc));
	yaml_parser_delete(&parser);
}

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	assert_int_equal(map->type, YAML_MAPPING_NODE);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		if (!strcmp((const char *)k->data.scalar.value, key))
			return yaml_document_get_node(d, p->value);
	}
	fail_msg("no key %s", key);
	return NULL;
}

static const char *text_of(yaml_node_t *n)
{
	assert_int_equal(n->type, YAML_SCALAR_NODE);
	return (const char *)n->data.scalar.value;
}

static void assert_json_equals_yaml(struct fixture *f, const struct carc_report_opts *o)
{
	char *json = render(f, false, o), *yaml = render(f, true, o);
	yaml_document_t dj, dy;
	load(json, &dj);
	load(yaml, &dy);
	const char *why = NULL;
	if (!yaml_same(&dj, yaml_document_get_root_node(&dj), &dy, yaml_document_get_root_node(&dy), &why))
		fail_msg("JSON and YAML differ at %s\n--- JSON\n%s--- YAML\n%s", why, json, yaml);
	yaml_document_delete(&dj);
	yaml_document_delete(&dy);
	free(json);
	free(yaml);
}

static void test_report_json_and_yaml_carry_the_same_document(void **state)
{
	struct fixture *f = *state;
	play(f, game_text, NULL);
	struct carc_report_opts plain = {0}, features = {.features = true}, turn = {.turn = 2};
	assert_json_equals_yaml(f, &plain);
	assert_json_equals_yaml(f, &features);
	assert_json_equals_yaml(f, &turn);
	struct carc_referee_opts final = {.final_anyway = true};
	play(f, game_text, &final);
	assert_json_equals_yaml(f, &plain);
	assert_json_equals_yaml(f, &features);
	/* with the projected finals of --projected */
	struct carc_projector *p = carc_projector_new();
	struct carc_report_opts projected = {.projected = carc_project(p, &f->res, &final, NULL, NULL)};
	assert_non_null(projected.projected);
	assert_json_equals_yaml(f, &projected);
	carc_projector_free(p);
}

static void test_report_document_facts(void **state)
{
	struct fixture *f = *state;
	play(f, game_text, NULL);
	struct carc_report_opts o = {0};
	char *json = render(f, false, &o);
	yaml_document_t d;
	load(json, &d);
	yaml_node_t *root = yaml_document_get_root_node(&d);
	assert_string_equal(text_of(get(&d, root, "rules")), "base");
	assert_string_equal(text_of(get(&d, root, "finished")), "false");
	assert_string_equal(text_of(get(&d, root, "final_scoring")), "false");
	yaml_node_t *turns = get(&d, root, "turns");
	assert_int_equal(turns->data.sequence.items.top - turns->data.sequence.items.start, 4);
	yaml_node_t *t2 = yaml_document_get_node(&d, turns->data.sequence.items.start[1]);
	assert_string_equal(text_of(get(&d, t2, "tile")), "E");
	yaml_node_t *scored = get(&d, t2, "scored");
	assert_int_equal(scored->data.sequence.items.top - scored->data.sequence.items.start, 1);
	yaml_node_t *ev = yaml_document_get_node(&d, scored->data.sequence.items.start[0]);
	assert_string_equal(text_of(get(&d, ev, "feature")), "the city at N of D (0,0)");
	assert_string_equal(text_of(get(&d, ev, "points")), "4");
	assert_string_equal(text_of(get(&d, get(&d, root, "scores"), "green")), "4");
	assert_string_equal(text_of(get(&d, get(&d, root, "scores"), "red")), "0");
	assert_string_equal(text_of(get(&d, root, "winners")), "null");
	yaml_document_delete(&d);
	free(json);
}

/* A tile id or a spot that reads like a YAML boolean or number must stay a
 * string: "E" and "N" are fine plain, but "y" or "12" would not be. */
static void test_report_yaml_quotes_what_would_change_type(void **state)
{
	char *data = NULL;
	size_t len = 0;
	(void)state;
	FILE *out = open_memstream(&data, &len);
	struct carc_emitter *e = carc_emitter_yaml(out);
	carc_emit_doc_begin(e);
	carc_emit_seq_begin(e);
	carc_emit_str(e, "y");
	carc_emit_str(e, "12");
	carc_emit_str(e, "E");
	carc_emit_str(e, "");
	carc_emit_int(e, 12);
	carc_emit_bool(e, true);
	carc_emit_seq_end(e);
	carc_emit_doc_end(e);
	assert_true(carc_emitter_close(e));
	fclose(out);
	assert_non_null(strstr(data, "- \"y\"\n"));
	assert_non_null(strstr(data, "- \"12\"\n"));
	assert_non_null(strstr(data, "- E\n"));
	assert_non_null(strstr(data, "- \"\"\n"));
	assert_non_null(strstr(data, "- 12\n"));
	assert_non_null(strstr(data, "- true\n"));
	free(data);
}

static void test_report_breakdown_adds_up(void **state)
{
	struct fixture *f = *state;
	struct carc_referee_opts final = {.final_anyway = true};
	play(f, game_text, &final);
	for (int s = 0; s < f->rec.nseats; s++) {
		int c = f->rec.seats[s], sum = 0;
		for (int src = 0; src < CARC_SRC_COUNT; src++)
			sum += carc_game_points_from(f->game, c, src);
		assert_int_equal(sum, f->res.scores[c]);
	}
	/* red's thief on the road U-D-V (3 tiles, both ends open) scores 3 at the
	 * end; green's knight on K's city scores 1; green's farm scores nothing:
	 * red's farmer is on the only farm, which borders green's 2-tile city (3). */
	assert_int_equal(carc_game_points_from(f->game, CARC_RED, CARC_SRC_END_PATH), 3);
	assert_int_equal(carc_game_points_from(f->game, CARC_GREEN, CARC_SRC_PLAY_ENCLOSURE), 4);
	assert_int_equal(carc_game_points_from(f->game, CARC_GREEN, CARC_SRC_END_ENCLOSURE), 1);
	assert_int_equal(carc_game_points_from(f->game, CARC_RED, CARC_SRC_AREA), 3);
}

static void test_report_csv_rows(void **state)
{
	struct fixture *f = *state;
	play(f, game_text, NULL);
	struct carc_buf out = {0};
	struct carc_report_opts o = {.offset = 12345};
	carc_report_csv_header(&out, false);
	carc_report_csv(&out, &f->res, &o);
	int lines = 0;
	for (size_t i = 0; i < out.len; i++)
		lines += out.data[i] == '\n';
	assert_int_equal(lines, 1 + 4);
	/* file,game,line,offset,id: the id the game has */
	char id[CARC_GAME_ID_HEX + 1], want[64];
	snprintf(want, sizeof want, "test.cgn,1,1,12345,%s,2,", carc_game_id_hex(carc_game_id(f->res.rec), id));
	assert_non_null(strstr(out.data, want));
	assert_non_null(strstr(out.data, ",2,green,E,0,1,180,knight S,\"the city at N of D (0,0) (2 tiles): green +4\",0,4,"));
	carc_buf_free(&out);
}

/* The text breakdown is a table: its header and every row, whatever the
 * rule set names its rows (solo's "followers left on the map" is the
 * longest), end in the same column. */
static void test_report_breakdown_rows_line_up(void **state)
{
	struct fixture *f = *state;
	static const int rules[] = {CARC_RULES_BASE, CARC_RULES_SOLO, CARC_RULES_HUNTERS};
	for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
		struct carc_gen_opts go = {.rules = carc_ruleset_get(rules[r]), .deploy_rate = 0.5, .seed = 1};
		const char *why = NULL;
		struct carc_gen *gen = carc_gen_new(&go, &why);
		assert_non_null(gen);
		struct carc_buf text = {0}, out = {0};
		carc_gen_game(gen, 0, &text);
		carc_gen_free(gen);
		play(f, carc_buf_cstr(&text), NULL);
		assert_true(f->res.final_scored);
		struct carc_report_opts o = {0};
		carc_report_text(&out, &f->res, &o);
		const char *line = strstr(carc_buf_cstr(&out), "\nBreakdown");
		assert_non_null(line);
		line++;
		size_t width = strcspn(line, "\n"), rows = 0;
		for (; *line && *line != '\n'; rows++) {
			size_t len = strcspn(line, "\n");
			if (len != width)
				fail_msg("%s: this breakdown row is %zu columns, the header %zu:\n%.*s",
					 go.rules->name, len, width, (int)len, line);
			line += len + (line[len] == '\n');
		}
		assert_true(rows > 2);
		if (rules[r] == CARC_RULES_SOLO) /* the row under test is there */
			assert_non_null(strstr(carc_buf_cstr(&out), "  followers left on the map "));
		carc_buf_free(&text);
		carc_buf_free(&out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_report_json_and_yaml_carry_the_same_document, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_document_facts, setup, teardown),
		cmocka_unit_test(test_report_yaml_quotes_what_would_change_type),
		cmocka_unit_test_setup_teardown(test_report_breakdown_adds_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_csv_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_breakdown_rows_line_up, setup, teardown),
	};
	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
