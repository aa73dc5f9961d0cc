/*
 * test_jcz.c - importing JCloisterZone saved games (jcz.c).
 *
 * An import is only worth having if it is right tile by tile, so the first
 * test restates JCloisterZone's own definition of every base tile (its
 * basic.xml, transcribed below in JCZ's terms) and proves, for every tile in
 * every JCZ rotation, that carc's letter turned as the import turns it has
 * the same edges, and that every JCZ feature (city, road, farm, cloister),
 * turned as JCZ turns it, is exactly one feature of carc's tile, with the
 * same pennant and the same bordering cities. Then the five JCZ test records
 * are imported and refereed to the scores their assertions state; and each
 * thing the import refuses (not JSON, an expansion, an unknown message, a
 * follower where the tile has no such feature, ...) is shown to be refused
 * with its own code, at the right line and column, with no output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/jcz.h"
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JCZ's base tiles as its basic.xml defines them, in JCZ's picture
 * orientation: features separated by ';', a city with a pennant marked +,
 * a farm's bordering cities named by one of their edges. */
static const struct {
	const char *id;
	const char *features;
} jcz_defs[] = {
	{"BA/L", "cloister; farm NL NR EL ER SL SR WL WR"},
	{"BA/LR", "cloister; road S; farm NL NR EL ER SL SR WL WR"},
	{"BA/RCr", "road W E; city N; farm EL WR city=N; farm ER SL SR WL"},
	{"BA/Cccc+", "city N W S E +"},
	{"BA/CccR+", "road S; city N W E +; farm SL city=N; farm SR city=N"},
	{"BA/CccR", "road S; city N W E; farm SL city=N; farm SR city=N"},
	{"BA/CFc+", "city W E +; farm NL NR city=W; farm SL SR city=W"},
	{"BA/CFc.1", "city W E; farm NL NR city=W; farm SL SR city=W"},
	{"BA/Cc.1", "city N W; farm SL SR EL ER city=N"},
	{"BA/CcG", "garden; city N W; farm SL SR EL ER city=N"},
	{"BA/Cc+", "city N W +; farm SL SR EL ER city=N"},
	{"BA/Cc+G", "garden; city N W +; farm SL SR EL ER city=N"},
	{"BA/CcRr", "road E S; city N W; farm EL SR city=N; farm ER SL"},
	{"BA/CcRr+", "road E S; city N W +; farm EL SR city=N; farm ER SL"},
	{"BA/Ccc", "city N E W; farm SL SR city=N"},
	{"BA/CccG", "garden; city N E W; farm SL SR city=N"},
	{"BA/Ccc+", "city N E W +; farm SL SR city=N"},
	{"BA/CRr", "road E S; city N; farm EL WL WR SR city=N; farm ER SL"},
	{"BA/CRRR", "road E; road S; road W; city N; farm WR EL city=N; farm WL SR; farm ER SL"},
	{"BA/RrC", "road S W; city N; farm WR EL ER SL city=N; farm WL SR"},
	{"BA/C", "city N; farm WL WR SL SR EL ER city=N"},
	{"BA/CG", "garden; city N; farm WL WR SL SR EL ER city=N"},
	{"BA/CFC.2", "city N; city S; farm WL WR EL ER city=N,S"},
	{"BA/CFCG", "garden; city N; city S; farm WL WR EL ER city=N,S"},
	{"BA/CC.2", "city N; city W; farm EL ER SL SR city=N,W"},
	{"BA/CCG", "garden; city N; city W; farm EL ER SL SR city=N,W"},
	{"BA/RRRR", "road N; road E; road S; road W; farm WR NL; farm NR EL; farm ER SL; farm SR WL"},
	{"BA/RRR", "road E; road S; road W; farm WR NL NR EL; farm ER SL; farm SR WL"},
	{"BA/Rr", "road W S; farm WR NL NR EL ER SL; farm SR WL"},
	{"BA/RrG", "garden; road W S; farm WR NL NR EL ER SL; farm SR WL"},
	{"BA/RFr", "road W E; farm WR NL NR EL; farm ER SL SR WL"},
	{"BA/RFrG", "garden; road W E; farm WR NL NR EL; farm ER SL SR WL"},
	/* The River I, as JCZ's river.xml defines it (River II is not converted) */
	{"RI/s", "farm NL NR EL ER SL SR WL WR; river E"},
	{"RI.1/I.e", "farm NL NR EL ER SL SR WL WR; river W"},
	{"RI.1/CICI", "city N; city S; farm EL WR city=N; farm ER WL city=S; river W E"},
	{"RI.1/CIRI", "city N; road S; farm EL city=N; farm WR city=N; farm ER SL; farm WL SR; river W E"},
	{"RI.1/LIRI", "cloister; road S; farm WR NL NR EL; farm ER SL; farm WL SR; river W E"},
	{"RI.1/RIrI", "road W E; farm WR NL; farm NR EL; farm ER SL; farm WL SR; river N S"},
	{"RI.1/IFI", "farm WR NL NR EL; farm WL SL SR ER; river W E"},
	{"RI.1/CcII", "city N W; farm SR EL city=N; farm ER SL; river S E"},
	{"RI.1/RrII", "road N E; farm WR NL ER SL; farm NR EL; farm WL SR; river W S"},
	{"RI.1/II", "farm WR NL NR EL ER SL; farm WL SR; river W S"},
	{"RI.1/IIG", "garden; farm WR NL NR EL ER SL; farm WL SR; river W S"},
};

/* The bundled set a JCZ tile belongs to, with The Abbot played or not. */
static const struct carc_tileset *tiles_of(const struct carc_jcz_tile *jt, bool abbot)
{
	static struct carc_tileset *sets[2][2];
	struct carc_tileset **ts = &sets[jt->set][abbot];
	if (!*ts) {
		struct carc_diag_sink sink = {0};
		*ts = carc_tileset_load(jt->set == CARC_JCZ_RIVER ? "river" : "base", &sink, NULL, 0, 0);
		carc_diag_free(&sink);
		assert_non_null(*ts);
		carc_tileset_play(*ts, abbot ? "abbot" : "", abbot ? 5 : 0);
	}
	return *ts;
}

static int edge_bit(char c)
{
	const char *p = strchr("NESW", c);
	return p ? (int)(p - "NESW") : -1;
}

static int half_bit(const char *w)
{
	static const char *const names[] = {"NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"};
	for (int h = 0; h < 8; h++)
		if (!strncmp(w, names[h], 2))
			return h;
	return -1;
}

/* The feature of tile t turned rot that crosses board edge e and is a city. */
static int city_at_edge(const struct carc_tileset *ts, const struct carc_tile *t, int rot, int e)
{
	int city = carc_tileset_kind(ts, "city");
	for (int f = 0; f < t->nfeatures; f++)
		if (t->features[f].kind == city && (carc_rot_edges(t->features[f].edges, rot) & (1u << e)))
			return f;
	return -1;
}

/* One JCZ tile in one JCZ rotation against carc's tile, as the import turns
 * it: with The Abbot the garden tile (garden included), without it the
 * plain one. Returns carc's tile. */
static const struct carc_tile *check_tile(const char *id, const char *defs, int jrot, bool abbot)
{
	const struct carc_jcz_tile *jt = carc_jcz_tile_find(id, strlen(id));
	assert_non_null(jt);
	const struct carc_tileset *ts = tiles_of(jt, abbot);
	const char *cgn = abbot ? jt->tile : jt->plain;
	int ti = carc_tileset_find(ts, cgn, strlen(cgn));
	if (ti < 0)
		fail_msg("%s: no tile %s in set %s", id, cgn, ts->name);
	const struct carc_tile *t = &ts->tiles[ti];
	int rot = (jrot + jt->turn) & 3;
	char terrain[4][CARC_ID_MAX + 1] = {"field", "field", "field", "field"};
	unsigned matched = 0;
	int nfeatures = 0;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", defs);
	for (char *save = NULL, *part = strtok_r(buf, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
		while (*part == ' ')
			part++;
		char kind[16];
		sscanf(part, "%15s", kind);
		if (!strcmp(kind, "garden") && !abbot)
			continue; /* the abbot's only */
		struct carc_jcz_location loc = {0, 0, !strcmp(kind, "cloister") || !strcmp(kind, "garden")};
		bool pennant = false;
		unsigned borders = 0;
		int nborders = 0;
		for (char *w = part + strlen(kind); *w;) {
			while (*w == ' ')
				w++;
			if (!*w)
				break;
			if (*w == '+') {
				pennant = true;
			} else if (!strncmp(w, "city=", 5)) {
				for (char *c = w + 5; *c && *c != ' '; c++)
					if (*c != ',') {
						int f = city_at_edge(ts, t, rot, (edge_bit(*c) + jrot) & 3);
						assert_true(f >= 0);
						borders |= 1u << f;
						nborders++;
					}
			} else if (w[1] == 'L' || w[1] == 'R') {
				loc.halves |= (uint8_t)(1u << ((half_bit(w) + 2 * jrot) & 7));
			} else {
				loc.edges |= (uint8_t)(1u << ((edge_bit(*w) + jrot) & 3));
			}
			while (*w && *w != ' ')
				w++;
		}
		const char *carc_kind = !strcmp(kind, "farm") ? "field" : kind;
		int f = carc_jcz_feature_at(ts, t, rot, carc_kind, &loc);
		if (f < 0)
			fail_msg("%s turned R%d: JCZ's %s has no twin in tile %s turned %d", id, jrot * 90, part, t->id,
				 rot * 90);
		assert_false(matched & (1u << f));
		matched |= 1u << f;
		nfeatures++;
		assert_int_equal(t->features[f].attr[CARC_ATTR_PENNANT] > 0, pennant);
		if (!strcmp(kind, "farm")) {
			assert_int_equal(t->features[f].borders, borders);
			(void)nborders;
		}
		for (int e = 0; e < 4; e++)
			if (loc.edges & (1u << e))
				snprintf(terrain[e], sizeof terrain[e], "%s", kind);
	}
	/* JCZ draws no lake: the river just ends on the tile */
	int lake = carc_tileset_kind(ts, "lake");
	for (int f = 0; f < t->nfeatures; f++)
		nfeatures += t->features[f].kind == lake;
	assert_int_equal(nfeatures, t->nfeatures);
	for (int e = 0; e < 4; e++)
		assert_string_equal(ts->terrains[carc_tile_edge(t, rot, e)], terrain[e]);
	return t;
}

static void test_jcz_every_tile_in_every_rotation_matches_jcz(void **state)
{
	(void)state;
	/* every type of both sets, with and without the abbot, is some JCZ tile */
	bool seen[2][2][CARC_MAX_TILE_TYPES] = {{{false}}};
	for (size_t i = 0; i < CARC_ARRAY_LEN(jcz_defs); i++) {
		const struct carc_jcz_tile *jt = carc_jcz_tile_find(jcz_defs[i].id, strlen(jcz_defs[i].id));
		assert_non_null(jt);
		for (int abbot = 0; abbot < 2; abbot++)
			for (int jrot = 0; jrot < 4; jrot++) {
				const struct carc_tile *t = check_tile(jcz_defs[i].id, jcz_defs[i].features, jrot, abbot);
				seen[jt->set][abbot][t - tiles_of(jt, abbot)->tiles] = true;
			}
	}
	for (int set = 0; set < 2; set++)
		for (int abbot = 0; abbot < 2; abbot++) {
			const struct carc_tileset *ts = tiles_of(&(struct carc_jcz_tile){.set = (uint8_t)set}, abbot);
			assert_int_equal(ts->ntiles, set ? (abbot ? 11 : 10) : (abbot ? 32 : 24));
			for (int k = 0; k < ts->ntiles; k++)
				if (!seen[set][abbot][k])
					fail_msg("tile %s of set %s is no JCZ tile", ts->tiles[k].id, ts->name);
		}
	size_t n, base_river = 0;
	const struct carc_jcz_tile *all = carc_jcz_tiles(&n);
	for (size_t i = 0; i < n; i++)
		base_river += all[i].set <= CARC_JCZ_RIVER;
	assert_int_equal(base_river, CARC_ARRAY_LEN(jcz_defs));
	assert_null(carc_jcz_tile_find("AM/CCc+", 7));
	assert_null(carc_jcz_tile_find("BA/RCr ", 7));
	assert_null(carc_jcz_tile_find("RI.2/II", 7)); /* River II */
}

static void test_jcz_locations_parse_and_print(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		uint8_t edges, halves;
		bool centre;
	} ok[] = {
		{"N", 1, 0, false},     {"NE", 3, 0, false},   {"NS", 5, 0, false},     {"WE", 10, 0, false},
		{"_S", 11, 0, false},   {"_N", 14, 0, false},  {"NWSE", 15, 0, false},  {"I", 0, 0, true},
		{"NL", 0, 1, false},    {"WR", 0, 128, false}, {"NL.NR.EL.ER.WL.WR", 0, 0xCF, false},
		{"ER.SL.SR.WL", 0, 0x78, false},
	};
	for (size_t i = 0; i < CARC_ARRAY_LEN(ok); i++) {
		struct carc_jcz_location loc;
		assert_true(carc_jcz_parse_location(ok[i].text, strlen(ok[i].text), &loc));
		assert_int_equal(loc.edges, ok[i].edges);
		assert_int_equal(loc.halves, ok[i].halves);
		assert_int_equal(loc.centre, ok[i].centre);
		struct carc_buf name = {0};
		carc_jcz_location_name(&loc, &name);
		assert_string_equal(carc_buf_cstr(&name), ok[i].text);
		carc_buf_free(&name);
	}
	struct carc_jcz_location loc;
	assert_true(carc_jcz_parse_location("CLOISTER", 8, &loc));
	assert_true(loc.centre);
	static const char *const bad[] = {"", "X", "n", "N.NL", "NL..NR", "NL.", "I.N", "INNER_FARM", "TOWER"};
	for (size_t i = 0; i < CARC_ARRAY_LEN(bad); i++)
		assert_false(carc_jcz_parse_location(bad[i], strlen(bad[i]), &loc));
	/* every union of edges has a JCZ name that reads back */
	for (uint8_t m = 1; m < 16; m++) {
		struct carc_jcz_location in = {m, 0, false}, back;
		struct carc_buf name = {0};
		carc_jcz_location_name(&in, &name);
		assert_true(carc_jcz_parse_location(name.data, name.len, &back));
		assert_int_equal(back.edges, m);
		carc_buf_free(&name);
	}
}

/* ---- importing ---- */

struct import {
	bool ok;
	struct carc_buf cgn;
	struct carc_diag_sink sink;
	unsigned line, col;   /* of the first diagnostic */
	char first[512];
	struct carc_src src;
};

static void remember(void *ctx, const struct carc_diag *d)
{
	struct import *im = ctx;
	if (im->first[0])
		return;
	snprintf(im->first, sizeof im->first, "%s", d->message);
	if (d->src)
		carc_src_position(d->src, d->off, &im->line, &im->col);
}

static void run_import(struct import *im, const char *json)
{
	memset(im, 0, sizeof *im);
	im->sink.emit = remember;
	im->sink.ctx = im;
	im->src = (struct carc_src){"test.jcz", json, strlen(json), 1};
	im->ok = carc_jcz_import(&im->src, "test.jcz", &im->cgn, &im->sink);
}

static void free_import(struct import *im)
{
	carc_buf_free(&im->cgn);
	carc_diag_free(&im->sink);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (run the tests from the top of the tree)", path);
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	char chunk[4096];
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (len + n + 1 > cap) {
			cap = 2 * (len + n + 1);
			text = realloc(text, cap);
			assert_non_null(text);
		}
		memcpy(text + len, chunk, n);
		len += n;
	}
	fclose(f);
	assert_non_null(text);
	text[len] = 0;
	return text;
}

/* Imports a record, referees it and checks the scores of the seats in order;
 * final: score it as finished (JCZ's endTurn). */
static void check_scores(const char *file, bool final, const int *want, int nwant, const char *tag)
{
	char *json = read_file(file);
	struct import im;
	run_import(&im, json);
	if (!im.ok)
		fail_msg("%s: %s", file, im.first);
	if (tag)
		assert_non_null(strstr(im.cgn.data, tag));
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	assert_true(carc_parse_string(im.cgn.data, im.cgn.len, file, cache, carc_rules_registry(), &rec, &sink));
	struct carc_game *g = carc_game_new();
	struct carc_result res = {0};
	struct carc_referee_opts opt = {.final_anyway = final};
	carc_referee_run(&res, &rec, g, &sink, &opt);
	assert_int_equal(sink.errors, 0);
	assert_int_equal(sink.counts[CARC_W001], 1); /* JCZ's test games stop early */
	assert_int_equal(rec.nseats, nwant);
	for (int s = 0; s < nwant; s++)
		assert_int_equal(res.scores[rec.seats[s]], want[s]);
	carc_result_free(&res);
	carc_game_free(g);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
	free_import(&im);
	free(json);
}

/* Whether colour scored kind for points in one event of the refereed game. */
static bool scored(const char *cgn, int colour, const char *kind, int points)
{
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	assert_true(carc_parse_string(cgn, strlen(cgn), "x", cache, carc_rules_registry(), &rec, &sink));
	struct carc_game *g = carc_game_new();
	struct carc_result res = {0};
	struct carc_referee_opts opt = {.final_anyway = true};
	carc_referee_run(&res, &rec, g, &sink, &opt);
	size_t n;
	const struct carc_event *ev = carc_game_events(g, &n);
	bool found = false;
	for (size_t i = 0; i < n; i++)
		found |= (ev[i].winners & (1u << colour)) && ev[i].points == points &&
			 !strcmp(rec.tileset->kinds[ev[i].kind].name, kind);
	carc_result_free(&res);
	carc_game_free(g);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
	return found;
}

static void test_jcz_test_records_score_as_jcz_asserts(void **state)
{
	(void)state;
	/* "David has 7 points", "Wendy has 16 points"; no final scoring in JCZ's test */
	check_scores("tests/import/city-and-road-scoring.jcz", false, (const int[]){7, 16}, 2, "[Red \"David\"]");
	check_scores("tests/import/city-and-road-scoring.jcz", true, (const int[]){7, 16}, 2, NULL);
	/* "Oscar has 9 points", "Carol has 0 points": endTurn 3, final scoring */
	check_scores("tests/import/field-scoring.jcz", true, (const int[]){9, 0}, 2, "[Green \"Carol\"]");
	/* "Eva has 9 points", "Carol has 4 points": endTurn 9, final scoring */
	check_scores("tests/import/monastery-scoring.jcz", true, (const int[]){9, 4}, 2, NULL);
	/* "Wendy has 8 points" with tiny-city-scoring 2: CGN's Edition 2 */
	check_scores("tests/import/tiny-city-rule.jcz", false, (const int[]){8}, 1, "[Edition \"2\"]");

	/* the "scored ... for N points" assertions, event by event */
	struct import im;
	char *json = read_file("tests/import/city-and-road-scoring.jcz");
	run_import(&im, json);
	assert_true(scored(im.cgn.data, CARC_RED, "road", 3));
	assert_true(scored(im.cgn.data, CARC_RED, "road", 4));
	assert_true(scored(im.cgn.data, CARC_GREEN, "city", 8));
	free_import(&im);
	free(json);
	json = read_file("tests/import/field-scoring.jcz");
	run_import(&im, json);
	assert_true(scored(im.cgn.data, CARC_RED, "field", 3));
	assert_true(scored(im.cgn.data, CARC_RED, "field", 6));
	free_import(&im);
	free(json);
	json = read_file("tests/import/tiny-city-rule.jcz");
	run_import(&im, json);
	assert_true(scored(im.cgn.data, CARC_RED, "city", 6));
	assert_true(scored(im.cgn.data, CARC_RED, "city", 2));
	free_import(&im);
	free(json);
}

/* The reference folder beside the repository ($CARC_SHARED, by default
 * ../shared), which holds JCZ's garden-scoring game; not committed here. */
static const char *shared_dir(void)
{
	const char *dir = getenv("CARC_SHARED");
	return dir && *dir ? dir : "../shared";
}

/* JCZ's own test of The Abbot: "Alice has 9 points", "Bob has 4 points",
 * "Alice scored garden for 9 points", "Bob scored garden for 4 points"
 * (endTurn 8: Bob's garden scores at the end). */
static void test_jcz_garden_scoring_scores_as_jcz_asserts(void **state)
{
	(void)state;
	char path[600];
	snprintf(path, sizeof path, "%s/reference/jcz/garden-scoring.jcz", shared_dir());
	FILE *f = fopen(path, "rb");
	if (!f) {
		print_message("skipped: %s is absent (set CARC_SHARED)\n", path);
		skip();
		return;
	}
	fclose(f);
	/* the garden tiles BA/RFrG and BA/RrG are Ug and Vg; abbots on their gardens */
	static const char want[] =
		"; Imported from test.jcz (JCloisterZone 5.7.0) by carc import\n"
		"; JCloisterZone ends this game after turn 8 (gameAnnotations.endTurn) and scores it as finished, as carc "
		"score --final does\n"
		"[Date \"2021-05-22\"]\n"
		"[Expansions \"abbot\"]\n"
		"[Seats \"red green\"]\n"
		"[Red \"Alice\"]\n"
		"[Green \"Bob\"]\n"
		"\n"
		"1. red   Ug 1,0  90  abbot C\n"
		"2. green Vg 0,-1 0   abbot C\n"
		"3. red   U  2,0  90\n"
		"4. green B  1,-1 0\n"
		"5. red   V  2,-1 270\n"
		"6. green E  0,1  180\n"
		"7. red   E  1,1  90\n"
		"8. green E  2,1  270\n";
	char *json = read_file(path);
	struct import im;
	run_import(&im, json);
	if (!im.ok)
		fail_msg("%s: %s", path, im.first);
	assert_string_equal(im.cgn.data, want);
	assert_true(scored(im.cgn.data, CARC_RED, "garden", 9));
	assert_true(scored(im.cgn.data, CARC_GREEN, "garden", 4));
	free_import(&im);
	check_scores(path, true, (const int[]){9, 4}, 2, "[Expansions \"abbot\"]");
	free(json);
}

/* The Big Box's tiles: every entry names a tile of inns.yaml or
 * traders-builders.yaml (its garden tile with The Abbot, the plain one
 * without), each tile of the two sets is named, and JCZ 4's dotted ids find
 * the same entries. Their orientation is JCZ's by the sets' definition. */
static void test_jcz_big_box_tiles(void **state)
{
	(void)state;
	static const char *const names[] = {"inns", "traders-builders"};
	size_t n;
	const struct carc_jcz_tile *all = carc_jcz_tiles(&n);
	for (int k = 0; k < 2; k++)
		for (int abbot = 0; abbot < 2; abbot++) {
			struct carc_diag_sink sink = {0};
			struct carc_tileset *ts = carc_tileset_load(names[k], &sink, NULL, 0, 0);
			assert_non_null(ts);
			carc_tileset_play(ts, abbot ? "abbot" : "", abbot ? 5 : 0);
			bool seen[CARC_MAX_TILE_TYPES] = {false};
			int entries = 0;
			for (size_t i = 0; i < n; i++) {
				if (all[i].set != CARC_JCZ_INNS + k)
					continue;
				entries++;
				assert_int_equal(all[i].turn, 0);
				const char *id = abbot ? all[i].tile : all[i].plain;
				int t = carc_tileset_find(ts, id, strlen(id));
				if (t < 0)
					fail_msg("%s: no tile %s in %s", all[i].id, id, ts->name);
				seen[t] = true;
				char dotted[40];
				snprintf(dotted, sizeof dotted, "%s", all[i].id);
				dotted[2] = '.';
				assert_ptr_equal(carc_jcz_tile_find(dotted, strlen(dotted)), &all[i]);
			}
			assert_int_equal(entries, k ? 26 : 19);
			for (int t = 0; t < ts->ntiles; t++)
				if (!seen[t])
					fail_msg("tile %s of set %s is no JCZ tile", ts->tiles[t].id, ts->name);
			carc_tileset_free(ts);
			carc_diag_free(&sink);
		}
	assert_null(carc_jcz_tile_find("IC.Nope", 7));
	assert_null(carc_jcz_tile_find("TB.", 3));
}

/* JCZ 4's three Big Box test games (../shared): inns-scoring "Alice 8, Bob
 * 0", cathedrals-scoring "Alice 15, Bob 0", trade-goods-scoring "Alice 16,
 * Bob 20" (goods at the end). */
static void test_jcz_big_box_games_score_as_jcz_asserts(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		int want[2];
		const char *tag;
	} games[] = {
		{"inns-scoring", {8, 0}, "[Expansions \"inns-cathedrals\"]"},
		{"cathedrals-scoring", {15, 0}, "IK 0,3"},
		{"trade-goods-scoring", {16, 20}, "[Expansions \"traders-builders\"]"},
	};
	for (size_t i = 0; i < CARC_ARRAY_LEN(games); i++) {
		char path[600];
		snprintf(path, sizeof path, "%s/reference/jcz/%s.jcz", shared_dir(), games[i].file);
		FILE *f = fopen(path, "rb");
		if (!f) {
			print_message("skipped: %s is absent (set CARC_SHARED)\n", path);
			skip();
			return;
		}
		fclose(f);
		check_scores(path, true, games[i].want, 2, games[i].tag);
	}
}

/* A hand-made JCZ 4 save (tests/import/big-box-4x.jcz): slots played in the
 * order of serial, setup.expansions, dotted tile ids, pointers with a
 * location and no feature, the large follower and the pig, GAME_OVER. */
static void test_jcz_4_save_converts(void **state)
{
	(void)state;
	static const char want[] =
		"; Imported from test.jcz (JCloisterZone 4.4.0) by carc import\n"
		"[Event \"Hand-made JCloisterZone 4 save: a large knight, a farmer and his pig\"]\n"
		"[Date \"2026-11-28\"]\n"
		"[Expansions \"inns-cathedrals traders-builders\"]\n"
		"[Seats \"blue red\"]\n"
		"[Blue \"Ines\"]\n"
		"[Red \"Theo\"]\n"
		"\n"
		"1. blue IK 0,1 0   big knight N\n"
		"2. red  IB 1,0 0   farmer NNW\n"
		"3. blue E  1,1 270\n"
		"4. red  E  2,1 0   pig ENE\n";
	char *json = read_file("tests/import/big-box-4x.jcz");
	struct import im;
	run_import(&im, json);
	if (!im.ok)
		fail_msg("%s", im.first);
	assert_string_equal(im.cgn.data, want);
	free_import(&im);
	check_scores("tests/import/big-box-4x.jcz", true, (const int[]){0, 0}, 2, NULL);

	/* the pig without Traders & Builders; a message after GAME_OVER; a location with no feature */
	static const struct {
		const char *from, *to;
		enum carc_code code;
	} bad[] = {
		{", \"TRADERS_AND_BUILDERS\": 1", "", CARC_E509},
		{"{\"type\": \"GAME_OVER\", \"payload\": {}}", "{\"type\": \"GAME_OVER\"}, {\"type\": \"PASS\"}", CARC_E507},
		{"\"location\": \"NWSE\"", "\"location\": \"NL\"", CARC_E508},
		{"\"BASIC\": 1,", "\"BASIC\": 1, \"PRINCESS_AND_DRAGON\": 1,", CARC_E503},
	};
	for (size_t i = 0; i < CARC_ARRAY_LEN(bad); i++) {
		const char *at = strstr(json, bad[i].from);
		assert_non_null(at);
		size_t head = (size_t)(at - json), fl = strlen(bad[i].from), tl = strlen(bad[i].to);
		char *text = malloc(strlen(json) + tl + 1);
		assert_non_null(text);
		memcpy(text, json, head);
		memcpy(text + head, bad[i].to, tl);
		strcpy(text + head + tl, at + fl);
		run_import(&im, text);
		assert_false(im.ok);
		if (im.sink.counts[bad[i].code] == 0)
			fail_msg("case %zu: %s", i, im.first);
		assert_true(im.line > 0);
		free_import(&im);
		free(text);
	}
	free(json);
}

/* The builder's double turn in a JCZ 4 save: the second PLACE_TILE of red's
 * turn 5, after its PASS, is the bonus turn 5+ (the builder stands on the
 * road it extends); with a COMMIT between and the player named again, the
 * same. */
static void test_jcz_4_builder_bonus_turn(void **state)
{
	(void)state;
	static const char save[] =
		"{\"appVersion\": \"4.4.0\", \"name\": \"builder\", \"slots\": [{\"number\": 0, \"serial\": 1, \"nickname\": \"A\"}"
		", {\"number\": 1, \"serial\": 2, \"nickname\": \"B\"}]"
		", \"setup\": {\"expansions\": {\"BASIC\": 1, \"TRADERS_AND_BUILDERS\": 1}, \"rules\": {}, \"capabilities\": [\"StandardGame\", \"Builder\"]}"
		", \"replay\": ["
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.RFr\", \"rotation\": \"R0\", \"position\": [1, 0]}},"
		"  {\"type\": \"DEPLOY_MEEPLE\", \"payload\": {\"pointer\": {\"position\": [1, 0], \"location\": \"WE\"}, \"meepleId\": \"0.small.1\"}},"
		"  {\"type\": \"COMMIT\", \"payload\": {}},"
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.C\", \"rotation\": \"R180\", \"position\": [0, -1]}},"
		"  {\"type\": \"PASS\", \"payload\": {}},"
		"  {\"type\": \"COMMIT\", \"payload\": {}},"
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.RFr\", \"rotation\": \"R0\", \"position\": [2, 0]}},"
		"  {\"type\": \"DEPLOY_MEEPLE\", \"payload\": {\"pointer\": {\"position\": [2, 0], \"location\": \"WE\"}, \"meepleId\": \"0.builder.1\"}},"
		"  {\"type\": \"COMMIT\", \"payload\": {}},"
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.C\", \"rotation\": \"R180\", \"position\": [0, 1]}},"
		"  {\"type\": \"PASS\", \"payload\": {}},"
		"  {\"type\": \"COMMIT\", \"payload\": {}},"
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.RFr\", \"rotation\": \"R0\", \"position\": [3, 0]}},"
		"  {\"type\": \"PASS\", \"payload\": {}},"
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.RFr\", \"rotation\": \"R0\", \"position\": [-1, 0]}},"
		"  {\"type\": \"PASS\", \"payload\": {}},"
		"  {\"type\": \"COMMIT\", \"payload\": {}},"
		"  {\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"BA.C\", \"rotation\": \"R90\", \"position\": [1, 1]}},"
		"  {\"type\": \"PASS\", \"payload\": {}},"
		"  {\"type\": \"COMMIT\", \"payload\": {}},"
		"  {\"type\": \"GAME_OVER\", \"payload\": {}} ]}";
	static const char turns[] = "3. red   U 2,0  90  builder E\n4. green E 0,-1 180\n5. red   U 3,0  90\n"
				    "5+ red   U -1,0 90\n6. green E 1,-1 90\n";
	struct import im;
	run_import(&im, save);
	if (!im.ok)
		fail_msg("%s", im.first);
	assert_non_null(strstr(im.cgn.data, turns));
	assert_true(scored(im.cgn.data, CARC_RED, "road", 5));
	free_import(&im);
	/* JCZ 5's way: the turn committed, the next PLACE_TILE names player 0 again */
	const char *from = "\"position\": [3, 0]}},  {\"type\": \"PASS\", \"payload\": {}},  {\"type\": \"PLACE_TILE\", \"payload\"";
	const char *to = "\"position\": [3, 0]}},  {\"type\": \"PASS\", \"payload\": {}}, {\"type\": \"COMMIT\"}, "
			 "{\"type\": \"PLACE_TILE\", \"player\": 0, \"payload\"";
	const char *at = strstr(save, from);
	assert_non_null(at);
	char text[sizeof save + 200];
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - save), save, to, at + strlen(from));
	run_import(&im, text);
	if (!im.ok)
		fail_msg("%s", im.first);
	assert_non_null(strstr(im.cgn.data, turns));
	free_import(&im);
	/* a second tile after a turn that owes no bonus: the referee's E296 */
	char *bad = strdup(save);
	assert_non_null(bad);
	char *b = strstr(bad, "0.builder.1");
	assert_non_null(b);
	memcpy(b, "0.small.1\"", 10);
	memmove(b + 10, b + 12, strlen(b + 12) + 1);
	run_import(&im, bad);
	assert_true(im.ok);
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	assert_true(carc_parse_string(im.cgn.data, im.cgn.len, "x", cache, carc_rules_registry(), &rec, &sink));
	struct carc_game *g = carc_game_new();
	struct carc_result res = {0};
	struct carc_referee_opts opt = {.final_anyway = true};
	carc_referee_run(&res, &rec, g, &sink, &opt);
	assert_true(sink.errors > 0);
	carc_result_free(&res);
	carc_game_free(g);
	carc_record_free(&rec);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
	free_import(&im);
	free(bad);
}

static void test_jcz_expansion_record_is_refused(void **state)
{
	(void)state;
	char *json = read_file("tests/import/tiny-city-coa.jcz");
	struct import im;
	run_import(&im, json);
	assert_false(im.ok);
	assert_int_equal(im.cgn.len, 0);
	assert_int_equal(im.sink.counts[CARC_E503], 5); /* the set abbey-and-mayor and 4 figures */
	assert_int_equal(im.line, 18);
	assert_int_equal(im.col, 7);
	free_import(&im);
	free(json);
}

/* A minimal game around a replay: two players, the usual start. */
#define GAME(setup_extra, replay)                                                                             \
	"{\"appVersion\": \"5.7.0\", \"setup\": {\"sets\": {\"basic:1\": 1}, \"elements\": {\"small-follower\": 7, " \
	"\"farmers\": true}, \"rules\": {}" setup_extra ", \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0, " \
	"\"rotation\": 0}]}, \"players\": [{\"name\": \"Ann\", \"slot\": 0}, {\"name\": \"Ben\", \"slot\": 1}], "   \
	"\"replay\": [" replay "]}"
#define PLACE(id, rot, x, y) "{\"type\": \"PLACE_TILE\", \"payload\": {\"tileId\": \"" id "\", \"rotation\": \"" rot \
	"\", \"position\": [" #x ", " #y "]}}"
#define DEPLOY(x, y, feature, loc) "{\"type\": \"DEPLOY_MEEPLE\", \"payload\": {\"pointer\": {\"position\": [" #x  \
	", " #y "], \"feature\": \"" feature "\", \"location\": \"" loc "\"}, \"meepleId\": \"0.small.1\"}}"
#define PASS "{\"type\": \"PASS\", \"payload\": {}}"
/* The same with The Abbot (2nd-edition tiles), and with The River I too. */
#define ABBOT_GAME(replay)                                                                                    \
	"{\"setup\": {\"sets\": {\"basic:2\": 1}, \"elements\": {\"abbot\": 1, \"garden\": true}, \"start\": "         \
	"[{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]}, \"players\": [{\"name\": \"Ann\", \"slot\": 0}, "             \
	"{\"name\": \"Ben\", \"slot\": 1}], \"replay\": [" replay "]}"
#define RIVER_GAME(sets, elements, replay)                                                                    \
	"{\"setup\": {\"sets\": {" sets "}, \"elements\": {" elements "}, \"start\": [{\"tile\": \"RI/s\", \"x\": 0, " \
	"\"y\": 0, \"rotation\": 0}]}, \"players\": [{\"name\": \"Ann\", \"slot\": 0}, {\"name\": \"Ben\", "           \
	"\"slot\": 1}], \"replay\": [" replay "]}"
#define ABBOT(p, x, y, feature) "{\"type\": \"DEPLOY_MEEPLE\", \"payload\": {\"pointer\": {\"position\": [" #x  \
	", " #y "], \"feature\": \"" feature "\", \"location\": \"I\"}, \"meepleId\": \"" #p ".abbot.1\"}}"
#define RETURN(p, x, y, feature, source) "{\"type\": \"RETURN_MEEPLE\", \"payload\": {\"pointer\": "          \
	"{\"featurePointer\": {\"position\": [" #x ", " #y "], \"feature\": \"" feature "\", \"location\": \"I\"}, "    \
	"\"meepleId\": \"" #p ".abbot.1\"}, \"source\": \"" source "\"}}"
#define COMMIT "{\"type\": \"COMMIT\", \"payload\": {\"random\": 0.0}}"

static void expect_refused(const char *json, enum carc_code code, unsigned line, unsigned col)
{
	struct import im;
	run_import(&im, json);
	if (im.ok)
		fail_msg("accepted, expected %s:\n%s", carc_code_str(code), im.cgn.data);
	assert_int_equal(im.cgn.len, 0);
	if (!im.sink.counts[code])
		fail_msg("expected %s, got: %s", carc_code_str(code), im.first);
	if (line) {
		assert_int_equal(im.line, line);
		assert_int_equal(im.col, col);
	}
	free_import(&im);
}

static void test_jcz_refusals_have_their_codes(void **state)
{
	(void)state;
	expect_refused("", CARC_E501, 1, 1);
	expect_refused("{\"a\": 1,\n \"b\": }", CARC_E501, 2, 7);
	expect_refused("{\"a\": 1, \"a\": 2}", CARC_E501, 1, 10);
	expect_refused("{\"a\": yes}", CARC_E501, 1, 7);
	expect_refused("a: 1\n", CARC_E501, 1, 1);
	expect_refused("{\"a\": 1} {\"b\": 2}", CARC_E501, 0, 0);
	expect_refused("[1, 2]", CARC_E502, 1, 1);
	expect_refused("{\"players\": []}", CARC_E502, 1, 1);
	/* the caret counts characters: é is one column, two bytes */
	expect_refused("{\"name\": \"Zoé\", \"setup\": 5}", CARC_E502, 1, 26);
	expect_refused(GAME("", PLACE("BA/RCr", "R45", 0, -1) "," PASS "," COMMIT), CARC_E502, 0, 0);
	{
		/* a name longer than 1000 bytes would make a tag line nobody wants */
		char json[1200];
		snprintf(json, sizeof json, "{\"name\": \"%01001d\"}", 7);
		expect_refused(json, CARC_E502, 1, 10);
	}
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 0, "x") "," PASS "," COMMIT), CARC_E502, 0, 0);
	expect_refused(GAME(", \"tiles\": {\"BA/L\": 9}", ""), CARC_E503, 0, 0);
	expect_refused(GAME(", \"timer\": null, \"rules2\": 1", ""), CARC_E503, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 2}, \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]},"
		       " \"players\": [{\"slot\": 0}], \"replay\": []}", CARC_E503, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"river/2:1\": 1, \"basic:1\": 1}, \"start\": [{\"tile\": \"BA/RCr\", "
		       "\"x\": 0, \"y\": 0}]}, \"players\": [{\"slot\": 0}], \"replay\": []}", CARC_E503, 1, 21);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"rules\": {\"tiny-city-scoring\": \"3\"}, \"start\": "
		       "[{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]}, \"players\": [{\"slot\": 0}], \"replay\": []}",
		       CARC_E504, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"rules\": {\"farm-scoring\": \"4\"}, \"start\": "
		       "[{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]}, \"players\": [{\"slot\": 0}], \"replay\": []}",
		       CARC_E504, 0, 0);
	expect_refused(GAME("", PLACE("AM/CCc+", "R0", 0, -1) "," PASS "," COMMIT), CARC_E505, 1, 312);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," PASS "," COMMIT ",{\"type\": \"UNDO\", \"payload\": "
		       "{}}"), CARC_E506, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," PLACE("BA/RCr", "R0", 2, 0)), CARC_E507, 0, 0);
	expect_refused(GAME("", PASS), CARC_E507, 0, 0);
	expect_refused(GAME("", COMMIT), CARC_E507, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," PASS "," PASS), CARC_E507, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," DEPLOY(1, 0, "City", "N") "," PASS), CARC_E507, 0, 0);
	/* D placed east of the start, turned R0: its city is at N, not S */
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," DEPLOY(1, 0, "City", "S")), CARC_E508, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," DEPLOY(1, 0, "Road", "N")), CARC_E508, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," DEPLOY(2, 0, "City", "N")), CARC_E508, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," DEPLOY(1, 0, "Tower", "N")), CARC_E508, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) "," DEPLOY(1, 0, "Field", "EL")), CARC_E508, 0, 0);
	expect_refused(GAME("", PLACE("BA/RCr", "R0", 1, 0) ",{\"type\": \"DEPLOY_MEEPLE\", \"payload\": {\"pointer\": "
		       "{\"position\": [1, 0], \"feature\": \"City\", \"location\": \"N\"}, \"meepleId\": \"0.big.1\"}}"),
		       CARC_E509, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]},"
		       " \"players\": [{\"slot\": 0}, {\"slot\": 0}], \"replay\": []}", CARC_E510, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]},"
		       " \"players\": [{\"slot\": 8}], \"replay\": []}", CARC_E510, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]},"
		       " \"players\": [], \"replay\": []}", CARC_E510, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0}]},"
		       " \"players\": [{\"slot\": 0}], \"replay\": [" PLACE("BA/C", "R0", 0, -1) "," PASS "," COMMIT
		       "], \"gameAnnotations\": {\"drawOrder\": [\"BA/L\"]}}", CARC_E511, 0, 0);
}

/* Imports src and checks that its text holds each of the lines want lists. */
static void expect_lines(const char *src, const char *const *want, size_t n)
{
	struct import im;
	run_import(&im, src);
	if (!im.ok)
		fail_msg("%s", im.first);
	for (size_t i = 0; i < n; i++)
		if (!strstr(im.cgn.data, want[i]))
			fail_msg("no line \"%s\" in:\n%s", want[i], im.cgn.data);
	free_import(&im);
}

/* The River's spring starts the game (turned as JCZ turns it); the garden
 * bend is RJ with The Abbot and the plain bend RG without it; an abbot on a
 * garden or a monastery is "abbot C". */
static void test_jcz_river_and_abbot_convert(void **state)
{
	(void)state;
	expect_lines(RIVER_GAME("\"basic:2\": 1, \"river/1:2\": 1", "\"abbot\": 1, \"garden\": true, \"river\": true",
				PLACE("RI.1/IIG", "R0", 1, 0) "," ABBOT(0, 1, 0, "Garden") "," COMMIT ","
				PLACE("RI.1/LIRI", "R90", 1, 1) "," ABBOT(1, 1, 1, "Monastery") "," COMMIT),
		     (const char *const[]){"[Expansions \"river abbot\"]\n", "1. red   RJ 1,0  0  abbot C\n",
					   "2. green RH 1,-1 90 abbot C\n"}, 3);
	expect_lines(RIVER_GAME("\"basic:2\": 1, \"river/1:2\": 1", "\"garden\": true",
				PLACE("RI.1/IIG", "R0", 1, 0) "," PASS "," COMMIT),
		     (const char *const[]){"[Expansions \"river\"]\n", "1. red RG 1,0 0\n"}, 2);
	expect_lines("{\"setup\": {\"sets\": {\"basic\": 1, \"river/1\": 1}, \"start\": [{\"tile\": \"RI/s\", \"x\": 3, "
		     "\"y\": 4, \"rotation\": 90}]}, \"players\": [{\"slot\": 2}], \"replay\": ["
		     PLACE("RI.1/CcII", "R180", 3, 5) "," DEPLOY(3, 5, "City", "SE") "," COMMIT "]}",
		     (const char *const[]){"[Start \"RA 90\"]\n", "1. blue RE 0,-1 180 knight E\n"}, 2);
	expect_lines(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," ABBOT(0, 0, 1, "Garden") "," COMMIT),
		     (const char *const[]){"[Expansions \"abbot\"]\n", "1. red Eg 0,-1 180 abbot C\n"}, 2);
}

/* What carc does not convert of The River and The Abbot, and what does not
 * hold together, each with its code. */
static void test_jcz_river_and_abbot_refusals(void **state)
{
	(void)state;
	/* a river tile with no river set; River II; the abbot's figure without the abbot */
	expect_refused(GAME("", PLACE("RI.1/IFI", "R0", 1, 0) "," PASS "," COMMIT), CARC_E505, 0, 0);
	expect_refused(RIVER_GAME("\"basic:2\": 1, \"river/1:2\": 1", "", PLACE("RI.2/II", "R0", 1, 0) "," PASS ","
				  COMMIT), CARC_E505, 0, 0);
	expect_refused(GAME("", PLACE("BA/L", "R0", 0, -1) "," ABBOT(0, 0, -1, "Monastery") "," COMMIT), CARC_E509, 0, 0);
	/* the abbot with 1st-edition tiles; two abbots each; two rivers; a river game begun elsewhere */
	expect_refused(RIVER_GAME("\"basic:1\": 1, \"river/1:1\": 1", "\"abbot\": 1", ""), CARC_E503, 1, 74);
	expect_refused(RIVER_GAME("\"basic:2\": 1, \"river/1:2\": 1", "\"abbot\": 2", ""), CARC_E503, 1, 74);
	expect_refused(RIVER_GAME("\"basic:2\": 1, \"river/1:2\": 1, \"river/1\": 1", "", ""), CARC_E503, 0, 0);
	expect_refused("{\"setup\": {\"sets\": {\"basic:2\": 1, \"river/1:2\": 1}, \"start\": [{\"tile\": \"BA/RCr\", "
		       "\"x\": 0, \"y\": 0}]}, \"players\": [{\"slot\": 0}], \"replay\": []}", CARC_E503, 1, 71);
	/* the abbot on a city; a follower on a garden */
	expect_refused(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," ABBOT(0, 0, 1, "City") "," COMMIT), CARC_E508, 0, 0);
	expect_refused(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," DEPLOY(0, 1, "Garden", "I") "," COMMIT), CARC_E508, 0,
		       0);
	/* a return by the princess; the abbot returned in a turn that deployed */
	expect_refused(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," ABBOT(0, 0, 1, "Garden") "," COMMIT ","
				  PLACE("BA/Rr", "R0", 1, 0) "," RETURN(1, 0, 1, "Garden", "PRINCESS") "," COMMIT),
		       CARC_E506, 0, 0);
	expect_refused(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," ABBOT(0, 0, 1, "Garden") ","
				  RETURN(0, 0, 1, "Garden", "ABBOT_RETURN") "," COMMIT), CARC_E507, 0, 0);
	/* returns of another's abbot, of one never deployed, of one deployed elsewhere */
	expect_refused(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," ABBOT(0, 0, 1, "Garden") "," COMMIT ","
				  PLACE("BA/Rr", "R0", 1, 0) "," RETURN(0, 0, 1, "Garden", "ABBOT_RETURN") "," COMMIT),
		       CARC_E513, 0, 0);
	expect_refused(ABBOT_GAME(PLACE("BA/CG", "R180", 0, 1) "," PASS "," COMMIT "," PLACE("BA/Rr", "R0", 1, 0) ","
				  RETURN(1, 0, 1, "Garden", "ABBOT_RETURN") "," COMMIT), CARC_E513, 0, 0);
	expect_refused(ABBOT_GAME(PLACE("BA/L", "R0", 0, 1) "," ABBOT(0, 0, 1, "Monastery") "," COMMIT ","
				  PLACE("BA/Rr", "R0", 1, 0) "," PASS "," COMMIT "," PLACE("BA/RFr", "R0", -1, 0) ","
				  RETURN(0, 0, 1, "Garden", "ABBOT_RETURN") "," COMMIT), CARC_E513, 0, 0);
}

/* The tiny-city rule is Edition 2 only while the farms agree: here red's two
 * farms border one city, which the 2nd edition pays once and JCZ twice. */
static void test_jcz_tiny_city_with_farms_that_disagree(void **state)
{
	(void)state;
	expect_refused("{\"setup\": {\"sets\": {\"basic:1\": 1}, \"rules\": {\"tiny-city-scoring\": \"2\"}, "
		       "\"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0, \"rotation\": 0}]}, "
		       "\"players\": [{\"name\": \"Ann\", \"slot\": 0}], \"replay\": ["
		       PLACE("BA/C", "R180", 0, -1) "," DEPLOY(0, -1, "Field", "NL.NR.EL.ER.WL.WR") "," COMMIT ","
		       PLACE("BA/Rr", "R0", 1, 0) "," DEPLOY(1, 0, "Field", "NL.NR.EL.ER.SL.WR") "," COMMIT "]}",
		       CARC_E512, 1, 67);
	/* one farm only: the editions agree, and the import goes through */
	struct import im;
	run_import(&im, "{\"setup\": {\"sets\": {\"basic:1\": 1}, \"rules\": {\"tiny-city-scoring\": \"2\"}, "
		   "\"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, \"y\": 0, \"rotation\": 0}]}, "
		   "\"players\": [{\"name\": \"Ann\", \"slot\": 0}], \"replay\": ["
		   PLACE("BA/C", "R180", 0, -1) "," DEPLOY(0, -1, "Field", "NL.NR.EL.ER.WL.WR") "," COMMIT "]}");
	if (!im.ok)
		fail_msg("%s", im.first);
	assert_non_null(strstr(im.cgn.data, "[Edition \"2\"]"));
	assert_non_null(strstr(im.cgn.data, "1. red E 0,1 180 farmer NNW\n"));
	free_import(&im);
}

static void test_jcz_start_elsewhere_draw_order_and_discards(void **state)
{
	(void)state;
	/* JCZ's start H turned R0 at 5,5 is carc's H turned 90 at 0,0; a tile one
	 * step south in JCZ (y + 1) is one step south in carc (y - 1). */
	struct import im;
	run_import(&im, "{\"name\": \"Club \\\"night\\\"\", \"created\": \"2023-01-31T10:00:00Z\", "
		   "\"setup\": {\"sets\": {\"basic:2\": 1}, \"elements\": {\"small-follower\": 5, \"abbot\": 0}, "
		   "\"start\": [{\"tile\": \"BA/CFC.2\", \"x\": 5, \"y\": 5, \"rotation\": \"R0\"}]}, "
		   "\"players\": [{\"name\": \"Ann\", \"slot\": 3}, {\"name\": \"Ben\", \"slot\": 1}], \"replay\": ["
		   PLACE("BA/RFrG", "R0", 4, 5) "," PASS "," COMMIT "," PLACE("BA/L", "R0", 5, 4) "," COMMIT "],"
		   "\"gameAnnotations\": {\"drawOrder\": [\"BA/Cccc+\", \"BA/RFrG\", \"BA/CccR\", \"BA/L\", \"BA/X\"]}}");
	if (!im.ok)
		fail_msg("%s", im.first);
	static const char want[] =
		"; Imported from test.jcz (JCloisterZone save) by carc import\n"
		"[Event \"Club \\\"night\\\"\"]\n"
		"[Date \"2023-01-31\"]\n"
		"[Seats \"yellow green\"]\n"
		"[Followers \"5\"]\n"
		"[Start \"H 90\"]\n"
		"[Yellow \"Ann\"]\n"
		"[Green \"Ben\"]\n"
		"\n"
		"1. yellow C discard\n"
		"1. yellow U -1,0    90\n"
		"2. green  T discard\n"
		"2. green  B 0,1     0\n";
	assert_string_equal(im.cgn.data, want);
	free_import(&im);
}

static void test_jcz_unfinished_turn_and_player_fields(void **state)
{
	(void)state;
	struct import im;
	/* the player field names who acts; a turn not committed is still recorded */
	run_import(&im, GAME("", "{\"type\": \"PLACE_TILE\", \"player\": 1, \"payload\": {\"tileId\": \"BA/L\", "
			     "\"rotation\": \"R0\", \"position\": [0, 1]}}"));
	if (!im.ok)
		fail_msg("%s", im.first);
	assert_non_null(strstr(im.cgn.data, "; JCloisterZone saved the game before this turn was committed\n"
					    "1. green B 0,-1 0\n"));
	free_import(&im);
	expect_refused(GAME("", "{\"type\": \"PLACE_TILE\", \"player\": 1, \"payload\": {\"tileId\": \"BA/L\", "
			    "\"rotation\": \"R0\", \"position\": [0, 1]}}, {\"type\": \"PASS\", \"player\": 0}"),
		       CARC_E507, 0, 0);
	expect_refused(GAME("", "{\"type\": \"PLACE_TILE\", \"player\": 2, \"payload\": {\"tileId\": \"BA/L\", "
			    "\"rotation\": \"R0\", \"position\": [0, 1]}}"), CARC_E502, 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jcz_every_tile_in_every_rotation_matches_jcz),
		cmocka_unit_test(test_jcz_locations_parse_and_print),
		cmocka_unit_test(test_jcz_test_records_score_as_jcz_asserts),
		cmocka_unit_test(test_jcz_garden_scoring_scores_as_jcz_asserts),
		cmocka_unit_test(test_jcz_expansion_record_is_refused),
		cmocka_unit_test(test_jcz_refusals_have_their_codes),
		cmocka_unit_test(test_jcz_big_box_tiles),
		cmocka_unit_test(test_jcz_big_box_games_score_as_jcz_asserts),
		cmocka_unit_test(test_jcz_4_save_converts),
		cmocka_unit_test(test_jcz_4_builder_bonus_turn),
		cmocka_unit_test(test_jcz_river_and_abbot_convert),
		cmocka_unit_test(test_jcz_river_and_abbot_refusals),
		cmocka_unit_test(test_jcz_tiny_city_with_farms_that_disagree),
		cmocka_unit_test(test_jcz_start_elsewhere_draw_order_and_discards),
		cmocka_unit_test(test_jcz_unfinished_turn_and_player_fields),
	};
	return cmocka_run_group_tests_name("jcz", tests, NULL, NULL);
}
