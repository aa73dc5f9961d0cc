/*
 * test_rules.c - the rule-set interface (rules.h, module.h): the registry,
 * the modules' data, and the words a game's modules give its reports.
 *
 * The words are those report.c spelled out for each rule set before the
 * modules held them; these tests pin them, so that report.c can ask the
 * modules and write the same bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/hunters.h"
#include "rules/module.h"
#include "rules/solo.h"

#include <stdio.h>
#include <string.h>

static const struct carc_ruleset *named(const char *name)
{
	const struct carc_ruleset *rs = carc_ruleset_find(name, strlen(name));
	assert_non_null(rs);
	return rs;
}

/* A record of the rule set with no tile set, for the lookups by game. */
static struct carc_record game_of(const char *name)
{
	struct carc_record rec;
	memset(&rec, 0, sizeof rec);
	rec.rules = named(name);
	return rec;
}

static void test_registry(void **state)
{
	(void)state;
	assert_true(carc_ruleset_count() >= 3 && carc_ruleset_count() <= CARC_MAX_RULESETS);
	for (int i = 0; i < carc_ruleset_count(); i++) {
		const struct carc_ruleset *rs = carc_ruleset_at(i);
		assert_int_equal(rs->id, i);
		assert_ptr_equal(carc_ruleset_find(rs->name, strlen(rs->name)), rs);
		assert_non_null(rs->words);
	}
	assert_ptr_equal(carc_ruleset_default(), named("BASE"));
	assert_null(carc_ruleset_find("inns", 4));
	assert_true(named("river")->expansion);
	assert_string_equal(carc_ruleset_names(), "base, solo or hunters");
	assert_string_equal(carc_ruleset_expansion_names(), "river, abbot, inns-cathedrals or traders-builders");
	assert_true(carc_ruleset_joins(named("river"), named("solo")));
	assert_true(carc_ruleset_joins(named("abbot"), named("base")));
	assert_false(carc_ruleset_joins(named("abbot"), named("solo")));
	assert_false(carc_ruleset_joins(named("river"), named("hunters")));
}

/* A module's own event kinds and point sources are numbers unique in the
 * registry: two modules that named the same number would have their events
 * reported under each other's name in a game that holds both (inns' inn
 * and traders' wine were both CARC_EV_MODULE + 8). The base game's words
 * name the engine's kinds and sources, which modules may rename. */
static void test_module_numbers_unique(void **state)
{
	(void)state;
	const struct carc_ruleset *base = named("base");
	for (int k = CARC_EV_MODULE; k < CARC_EV_KINDS; k++) {
		int owner = -1;
		for (int i = 0; i < carc_ruleset_count(); i++) {
			const struct carc_ruleset *rs = carc_ruleset_at(i);
			if (!rs->words->event_names[k] || rs == base)
				continue;
			if (owner >= 0)
				fail_msg("event kind CARC_EV_MODULE + %d is named by both %s ('%s') and %s ('%s')",
					 k - CARC_EV_MODULE, carc_ruleset_at(owner)->name,
					 carc_ruleset_at(owner)->words->event_names[k], rs->name, rs->words->event_names[k]);
			owner = i;
		}
	}
	for (int src = CARC_SRC_MODULE; src < CARC_SRC_COUNT; src++) {
		int owner = -1;
		for (int i = 0; i < carc_ruleset_count(); i++) {
			const struct carc_ruleset *rs = carc_ruleset_at(i);
			if (!rs->words->source_keys[src] || rs == base)
				continue;
			if (owner >= 0)
				fail_msg("point source CARC_SRC_MODULE + %d is named by both %s and %s",
					 src - CARC_SRC_MODULE, carc_ruleset_at(owner)->name, rs->name);
			owner = i;
		}
	}
}

/* A game's rule set with expansions: the base's table with the expansions'
 * roles after its own and their engine hooks merged, one per combination. */
static void test_compose(void **state)
{
	(void)state;
	const struct carc_ruleset *base = named("base"), *xs[2] = {named("river"), named("abbot")};
	assert_ptr_equal(carc_rules_compose(base, xs, 0), base);
	const struct carc_ruleset *both = carc_rules_compose(base, xs, 2);
	assert_non_null(both);
	assert_ptr_equal(carc_rules_compose(base, xs, 2), both);
	assert_ptr_not_equal(carc_rules_compose(base, xs + 1, 1), both);
	assert_int_equal(both->id, CARC_RULES_BASE);
	assert_string_equal(both->name, "base");
	assert_int_equal(both->nroles, base->nroles + 1);
	assert_int_equal(carc_ruleset_role(both, "abbot", 5), base->nroles);
	assert_int_equal(carc_ruleset_role(both, "farmer", 6), carc_ruleset_role(base, "farmer", 6));
	assert_ptr_equal(both->words, base->words);
	assert_non_null(both->engine);
	assert_non_null(xs[0]->engine); /* The River's placement rule, carried into the game's */
	assert_non_null(xs[0]->engine->check_place);
	assert_ptr_equal(both->engine->check_place, xs[0]->engine->check_place);
	assert_ptr_equal(both->engine->closed_complete, xs[0]->engine->closed_complete);
	const struct carc_ruleset *solo_river = carc_rules_compose(named("solo"), xs, 1);
	assert_int_equal(solo_river->id, CARC_RULES_SOLO);
	assert_int_equal(solo_river->flags, named("solo")->flags | xs[0]->flags);
	assert_ptr_equal(solo_river->play, named("solo")->play);
}

static void test_flags(void **state)
{
	(void)state;
	assert_true(named("solo")->flags & CARC_RS_ORDERS);
	assert_false(named("base")->flags & CARC_RS_ORDERS);
	assert_false(named("hunters")->flags & CARC_RS_ORDERS);
	assert_true(named("hunters")->flags & CARC_RS_BONUS_TURNS);
	assert_true(named("solo")->flags & CARC_RS_NO_WINNER);
	assert_null(named("base")->play); /* the base game's turns take the one-call way */
	assert_null(named("base")->engine);
	struct carc_record rec = game_of("hunters");
	assert_int_equal(carc_rules_flags(&rec), CARC_RS_BONUS_TURNS);
}

static void test_words(void **state)
{
	(void)state;
	struct carc_record base = game_of("base"), solo = game_of("solo"), hunters = game_of("hunters");
	assert_string_equal(carc_rules_source_key(named("base"), CARC_SRC_AREA), "farms");
	assert_string_equal(carc_rules_source_key(named("solo"), CARC_SRC_PLAY_ENCLOSURE), "cities");
	assert_string_equal(carc_rules_source_key(named("hunters"), CARC_SRC_AREA), "meadows");
	assert_string_equal(carc_rules_source_key(named("hunters"), CARC_SRC_OTHER), "river_systems");
	assert_string_equal(carc_rules_source_name(&solo, CARC_SRC_OTHER), "followers left on the map");
	assert_string_equal(carc_rules_source_name(&solo, CARC_SRC_AREA), "farms");
	assert_string_equal(carc_rules_source_name(&hunters, CARC_SRC_AREA), "meadows (hunters)");
	assert_string_equal(carc_rules_event_name(&base, CARC_EV_FARM), "farm");
	assert_string_equal(carc_rules_event_name(&solo, CARC_EV_SOLO_END), "solo-end");
	assert_string_equal(carc_rules_event_name(&hunters, CARC_EV_MEADOW), "meadow");
	assert_string_equal(carc_rules_event_name(&hunters, CARC_EV_COMPLETED), "completed");
	assert_string_equal(carc_rules_event_prefix(&solo, CARC_EV_SOLO_END), "a follower left on ");
	assert_string_equal(carc_rules_event_prefix(&base, CARC_EV_COMPLETED), "");
	struct carc_event meadow = {.type = CARC_EV_MEADOW}, system = {.type = CARC_EV_RIVER_SYSTEM};
	assert_string_equal(carc_rules_item_word(&hunters, &meadow, true), "animals");
	assert_string_equal(carc_rules_item_word(&hunters, &system, false), "fish");
	assert_string_equal(carc_rules_tile_word(&hunters), "land tile");
	assert_string_equal(carc_rules_tile_word(&solo), "tile");
	assert_int_equal(carc_rules_shown_sources(&solo), carc_rules_shown_sources(&base));
	assert_int_equal(carc_rules_shown_sources(&hunters), 1u << CARC_SRC_PLAY_PATH | 1u << CARC_SRC_PLAY_ENCLOSURE);
	assert_string_equal(carc_rules_feature_items(&hunters, CARC_CLASS_ENCLOSURE)[1].key, "mushrooms");
	assert_string_equal(carc_rules_feature_items(&base, CARC_CLASS_AREA)[0].key, "pennants");
	assert_null(carc_rules_feature_items(&hunters, CARC_CLASS_SITE)[0].key);
	/* solo names no items: the base game's pennants stand */
	assert_string_equal(carc_rules_feature_items(&solo, CARC_CLASS_ENCLOSURE)[0].key, "pennants");
	static struct carc_tileset ts; /* kind 0 a city, kind 1 a site */
	ts.nkinds = 2;
	ts.kinds[0].klass = CARC_CLASS_ENCLOSURE;
	ts.kinds[1].klass = CARC_CLASS_SITE;
	solo.tileset = hunters.tileset = &ts;
	struct carc_event city = {.type = CARC_EV_COMPLETED, .kind = 0}, site = {.type = CARC_EV_COMPLETED, .kind = 1};
	assert_string_equal(carc_rules_item_word(&solo, &city, false), "pennant");
	assert_string_equal(carc_rules_item_word(&solo, &site, true), "pennants");
	/* Hunters and Gatherers: a site's items are spoken of as mushrooms, as
	 * the reports always did */
	assert_string_equal(carc_rules_item_word(&hunters, &site, true), "mushrooms");
}

/* An expansion's words come after the base rule set's: the last that
 * names a thing wins, and what it leaves out stays the base's. */
static void test_expansion_order(void **state)
{
	(void)state;
	static const struct carc_rules_words words = {.tile = "land tile", .event_names = {[CARC_EV_MODULE + 4] = "x"}};
	static const struct carc_ruleset expansion = {.name = "test", .expansion = true, .words = &words};
	struct carc_record rec = game_of("base");
	rec.expansions[0] = &expansion;
	rec.nexpansions = 1;
	const struct carc_ruleset *mods[1 + CARC_MAX_EXPANSIONS];
	assert_int_equal(carc_rules_of(&rec, mods), 2);
	assert_ptr_equal(mods[0], named("base"));
	assert_ptr_equal(mods[1], &expansion);
	assert_string_equal(carc_rules_tile_word(&rec), "land tile");
	assert_string_equal(carc_rules_event_name(&rec, CARC_EV_MODULE + 4), "x");
	assert_string_equal(carc_rules_source_name(&rec, CARC_SRC_AREA), "farms");
}

/* A rule set's check_place hook: here, nothing west of the start tile. */
static int no_west(const struct carc_game *g, int tile, int rot, int x, int y, char *why, size_t size)
{
	(void)g, (void)rot, (void)y;
	if (x >= 0)
		return 0;
	snprintf(why, size, "tile %d may not go west of the start", tile);
	return CARC_E203;
}

/* The engine asks the hook last, in carc_game_check_place and so in
 * legal_places and find_fit, and leaves such a game's turns to the caller
 * (carc_game_play plays none). */
static void test_check_place_hook(void **state)
{
	(void)state;
	struct carc_diag_sink sink = {0};
	struct carc_tileset *ts = carc_tileset_load("base", &sink, NULL, 0, 0);
	assert_non_null(ts);
	static const struct carc_engine_hooks hooks = {.check_place = no_west};
	struct carc_ruleset west = *carc_ruleset_default();
	west.engine = &hooks;
	const uint8_t seats[2] = {0, 1};
	struct carc_game *g = carc_game_new();
	int tile = -1, rot = 0;
	carc_game_start(g, ts, carc_ruleset_default(), 3, seats, 2, 7, 0, ts->start_tile, 0);
	for (int t = 0; t < ts->ntiles && tile < 0; t++)
		for (int r = 0; r < 4 && tile < 0; r++)
			if (!ts->tiles[t].bonus && carc_game_check_place(g, t, r, -1, 0, NULL) == 0)
				tile = t, rot = r;
	assert_true(tile >= 0);
	int32_t xs[512], ys[512];
	uint8_t rots[512];
	int n = carc_game_legal_places(g, tile, xs, ys, rots, 512);
	bool west_seen = false;
	for (int i = 0; i < n; i++)
		west_seen |= xs[i] < 0;
	assert_true(west_seen);

	carc_game_start(g, ts, &west, 3, seats, 2, 7, 0, ts->start_tile, 0);
	struct carc_place_problem why;
	assert_int_equal(carc_game_check_place(g, tile, rot, -1, 0, &why), CARC_E203);
	assert_non_null(strstr(why.rule, "may not go west"));
	n = carc_game_legal_places(g, tile, xs, ys, rots, 512);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		assert_true(xs[i] >= 0);
	int placement = 0;
	assert_int_equal(carc_game_play(g, tile, rot, -1, 0, 0, 1, -1, 0, &placement), CARC_PLAY_NONE);
	assert_int_equal(placement, -1);
	carc_game_free(g);
	carc_tileset_free(ts);
	carc_diag_free(&sink);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_module_numbers_unique),
		cmocka_unit_test(test_compose),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_expansion_order),
		cmocka_unit_test(test_check_place_hook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
