/*
 * test_referee_fast.c - the referee's one-call turn against its general path.
 *
 * A game whose rule-set modules have no play hooks (the base game) plays
 * its ordinary turns through carc_game_play, one engine call a turn, and
 * its turns in order by a short way of its own (referee.c); every other
 * turn goes through the separate checks. carc_referee_fast_turns = false
 * sends every turn the general way. The fast way is only allowed to be
 * faster: for every record under tests/rules, tests/solo, tests/hunters
 * and samples/, and for generated games of every rule set (with claims on
 * many turns), refereed both ways, with and without turn records, the
 * messages, the verdict, the turn records, the scoring events and the
 * scores must be identical.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"
#include "referee/referee.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void keep_message(void *ctx, const struct carc_diag *d)
{
	carc_buf_printf(ctx, "%d %zu %zu %s\n", (int)d->code, d->off, d->len, d->message);
}

/* One refereeing: its messages, and the result as text. */
static void referee(const struct carc_record *rec, bool fast, bool no_turns, struct carc_game *g,
		    struct carc_result *res, struct carc_buf *out)
{
	struct carc_buf msgs = {0};
	struct carc_diag_sink sink = {.emit = keep_message, .ctx = &msgs};
	struct carc_referee_opts o = {.no_turns = no_turns};
	carc_referee_fast_turns = fast;
	carc_referee_run(res, rec, g, &sink, &o);
	carc_referee_fast_turns = true;
	carc_buf_reset(out);
	carc_buf_add(out, msgs.data, msgs.len);
	carc_buf_printf(out, "refereed %d finished %d final %d errors %u warnings %u last %d first-final %u\n",
			res->refereed, res->finished, res->final_scored, res->errors, res->warnings, res->last_turn,
			res->final_first_event);
	for (int c = 0; c < CARC_COLOURS; c++)
		carc_buf_printf(out, "%d ", res->scores[c]);
	carc_buf_printf(out, "\n%zu turns\n", res->nturns);
	for (size_t i = 0; i < res->nturns; i++) {
		const struct carc_turn *t = &res->turns[i];
		carc_buf_printf(out, "turn %u %u %d %d %d %u %d %u %u:", t->move, t->number, t->bonus, t->discard,
				t->illegal, t->colour, t->placement, t->first_event, t->nevents);
		for (int c = 0; c < CARC_COLOURS; c++)
			carc_buf_printf(out, " %d", t->scores[c]);
		carc_buf_addc(out, '\n');
	}
	if (res->refereed) {
		size_t n;
		const struct carc_event *ev = carc_game_events(g, &n);
		for (size_t i = 0; i < n; i++) {
			carc_buf_printf(out, "event %u %u %u %u %u %u %u %u %d %u %u:", ev[i].type, ev[i].kind, ev[i].source,
					ev[i].turn, ev[i].feature, ev[i].tiles, ev[i].items, ev[i].cities, ev[i].points,
					ev[i].winners, ev[i].skipped);
			for (int c = 0; c < CARC_COLOURS; c++)
				carc_buf_printf(out, " %u", ev[i].followers[c]);
			carc_buf_addc(out, '\n');
		}
		for (int c = 0; c < CARC_COLOURS; c++)
			carc_buf_printf(out, "supply %d %d\n", carc_game_supply(g, c), carc_game_huts(g, c));
	}
	carc_diag_free(&sink);
	carc_buf_free(&msgs);
}

static char top[4096]; /* the folder the tests start in (a failed test may leave another) */

/* Two engines and results, one for each way, kept from game to game. */
struct bench {
	struct carc_tileset_cache *cache;
	struct carc_game *g[2];
	struct carc_result res[2];
	struct carc_record rec;
	struct carc_buf out[2];
};

static void bench_init(struct bench *b)
{
	memset(b, 0, sizeof *b);
	b->cache = carc_tileset_cache_new();
	b->g[0] = carc_game_new();
	b->g[1] = carc_game_new();
}

static void bench_free(struct bench *b)
{
	for (int k = 0; k < 2; k++) {
		carc_buf_free(&b->out[k]);
		carc_result_free(&b->res[k]);
		carc_game_free(b->g[k]);
	}
	carc_record_free(&b->rec);
	carc_tileset_cache_free(b->cache);
}

/* Referees b->rec both ways, with and without turn records: the same. */
static void compare(struct bench *b, const char *what)
{
	for (int no_turns = 0; no_turns < 2; no_turns++) {
		referee(&b->rec, true, no_turns, b->g[0], &b->res[0], &b->out[0]);
		referee(&b->rec, false, no_turns, b->g[1], &b->res[1], &b->out[1]);
		if (strcmp(carc_buf_cstr(&b->out[0]), carc_buf_cstr(&b->out[1])))
			fail_msg("%s game %u (no_turns %d): the fast turn differs:\n%s\n---\n%s", what, b->rec.index,
				 no_turns, carc_buf_cstr(&b->out[0]), carc_buf_cstr(&b->out[1]));
	}
}

/* The first n games carc gen makes with o, each compared both ways. */
static void compare_generated(struct bench *b, const struct carc_gen_opts *o, uint64_t n, const char *what)
{
	struct carc_gen *gen = carc_gen_new(o, NULL);
	assert_non_null(gen);
	struct carc_buf text = {0};
	for (uint64_t k = 0; k < n; k++) {
		carc_buf_reset(&text);
		carc_gen_game(gen, k, &text);
		struct carc_diag_sink quiet = {0};
		assert_true(carc_parse_string(text.data, text.len, "gen.cgn", b->cache, carc_rules_registry(), &b->rec,
					      &quiet));
		carc_diag_free(&quiet);
		compare(b, what);
	}
	carc_buf_free(&text);
	carc_gen_free(gen);
}

/* Every game of every *.cgn in dir, both ways; returns the games compared. */
static int compare_dir(const char *dir)
{
	assert_int_equal(chdir(top), 0);
	if (chdir(dir) != 0)
		return 0; /* a folder the tree does not have */
	DIR *d = opendir(".");
	assert_non_null(d);
	struct bench b;
	bench_init(&b);
	int games = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 4, ".cgn"))
			continue;
		FILE *f = fopen(e->d_name, "rb");
		assert_non_null(f);
		struct carc_reader *rd = carc_reader_new(f, e->d_name, b.cache, carc_rules_registry());
		struct carc_diag_sink quiet = {0};
		for (; carc_reader_next(rd, &b.rec, &quiet); games++)
			compare(&b, e->d_name);
		carc_diag_free(&quiet);
		carc_reader_free(rd);
		fclose(f);
	}
	closedir(d);
	bench_free(&b);
	assert_int_equal(chdir(top), 0);
	return games;
}

static void test_fast_turn_rules(void **state)
{
	(void)state;
	assert_true(compare_dir("tests/rules") > 10);
	assert_true(compare_dir("tests/rules/illegal") > 10);
}

static void test_fast_turn_solo_hunters(void **state)
{
	(void)state;
	assert_true(compare_dir("tests/solo") > 5);
	assert_true(compare_dir("tests/hunters") > 10);
}

static void test_fast_turn_samples(void **state)
{
	(void)state;
	assert_true(compare_dir("samples") >= 4);
}

/* Generated games of every rule set, with claims on a third of the turns. */
static void test_fast_turn_generated(void **state)
{
	(void)state;
	struct bench b;
	bench_init(&b);
	for (int r = 0; r < carc_ruleset_count(); r++) {
		if (carc_ruleset_at(r)->expansion)
			continue;
		struct carc_gen_opts o = {.rules = carc_ruleset_at(r), .deploy_rate = 0.5, .claim_rate = 0.3, .seed = 5};
		compare_generated(&b, &o, 40, carc_ruleset_at(r)->name);
	}
	bench_free(&b);
}

/* Games with expansions, whose modules say which turns they leave alone
 * (module.h, untouched): those turns take the short way too. The records
 * of tests/river (its illegal ones too: river tiles misplaced or drawn out
 * of order, land tiles drawn too early, followers on the river) and
 * tests/abbot, and generated games of The River, The Abbot and both, 2 to 6
 * players. */
static void test_fast_turn_expansions(void **state)
{
	(void)state;
	assert_true(compare_dir("tests/river") > 5);
	assert_true(compare_dir("tests/river/illegal") > 10);
	assert_true(compare_dir("tests/abbot") >= 2);
	struct bench b;
	bench_init(&b);
	const struct carc_ruleset *river = carc_ruleset_find("river", 5), *abbot = carc_ruleset_find("abbot", 5);
	const struct carc_ruleset *sets[3][2] = {{river, NULL}, {abbot, NULL}, {river, abbot}};
	for (int x = 0; x < 3; x++) {
		struct carc_gen_opts o = {.rules = carc_ruleset_default(), .deploy_rate = 0.6, .claim_rate = 0.3,
					  .seed = 7, .players = 2 + x * 2, .nexpansions = sets[x][1] ? 2 : 1};
		o.expansions[0] = sets[x][0];
		o.expansions[1] = sets[x][1];
		compare_generated(&b, &o, 30, "expansions");
	}
	bench_free(&b);
}

/* Inns & Cathedrals and Traders & Builders: every usual turn takes the short
 * way (module.h, usual_untouched), and The Traders sees it after
 * (short_turn_end) to decide the builder's bonus turn. The records of
 * tests/inns and tests/traders (illegal moves, bonus turns owed, lost,
 * chained, of the wrong colour among them), and generated games of each
 * alone, both, and both with The River and The Abbot, 2 to 6 players. */
static void test_fast_turn_big_box(void **state)
{
	(void)state;
	assert_true(compare_dir("tests/inns") > 5);
	assert_true(compare_dir("tests/inns/illegal") >= 4);
	assert_true(compare_dir("tests/traders") > 5);
	assert_true(compare_dir("tests/traders/illegal") > 5);
	struct bench b;
	bench_init(&b);
	const struct carc_ruleset *river = carc_ruleset_find("river", 5), *abbot = carc_ruleset_find("abbot", 5);
	const struct carc_ruleset *inns = carc_ruleset_find("inns-cathedrals", 15);
	const struct carc_ruleset *traders = carc_ruleset_find("traders-builders", 16);
	assert_non_null(inns);
	assert_non_null(traders);
	const struct carc_ruleset *sets[4][4] = {
		{inns, NULL}, {traders, NULL}, {inns, traders}, {river, abbot, inns, traders},
	};
	for (int x = 0; x < 4; x++) {
		struct carc_gen_opts o = {.rules = carc_ruleset_default(), .deploy_rate = 0.6, .claim_rate = 0.3,
					  .seed = 11, .players = 2 + (x * 4) / 3};
		for (int k = 0; k < 4 && sets[x][k]; k++)
			o.expansions[o.nexpansions++] = sets[x][k];
		compare_generated(&b, &o, 30, "big box");
	}
	bench_free(&b);
}

int main(void)
{
	if (!getcwd(top, sizeof top))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_turn_rules),
		cmocka_unit_test(test_fast_turn_expansions),
		cmocka_unit_test(test_fast_turn_big_box),
		cmocka_unit_test(test_fast_turn_solo_hunters),
		cmocka_unit_test(test_fast_turn_samples),
		cmocka_unit_test(test_fast_turn_generated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
