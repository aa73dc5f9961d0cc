/*
 * test_cgn_fast.c - the parser's fast path for plain turn lines (cgn_fast.c, cgn_fast.h).
 *
 * Most turn lines have one shape, "12. red D 1,0 90 knight N = red 4", and
 * the reader reads those with a short path of its own, handing everything else
 * to the general parser. The fast path is only allowed to be faster: for
 * any input, the record (every move, claim, comment and span) and the
 * messages must be what the general parser alone gives. These tests parse
 * generated games of every rule set, and thousands of copies altered byte
 * by byte and token by token (so that lines fall off the fast path at every
 * place it can refuse them, and into errors), once with the fast path and
 * once without, and require the two results to be identical.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "import/gen.h"
#include "notation/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every message, with its code and place, one per line. */
static void keep_message(void *ctx, const struct carc_diag *d)
{
	carc_buf_printf(ctx, "%d %zu %zu %s\n", (int)d->code, d->off, d->len, d->message);
}

struct parsed {
	struct carc_record rec;
	struct carc_buf messages;
	bool got;
};

static void parse(const char *text, size_t len, bool fast, struct carc_tileset_cache *cache, struct parsed *out)
{
	struct carc_diag_sink sink = {.emit = keep_message, .ctx = &out->messages};
	carc_cgn_fast_turns = fast;
	out->got = carc_parse_string(text, len, "game.cgn", cache, carc_rules_registry(), &out->rec, &sink);
	carc_cgn_fast_turns = true;
	carc_diag_free(&sink);
}

static bool same_span(struct carc_span a, struct carc_span b)
{
	return a.off == b.off && a.len == b.len;
}

static bool same_move(const struct carc_move *a, const struct carc_move *b)
{
	return same_span(a->line, b->line) && same_span(a->number, b->number) && a->turn == b->turn &&
	       a->bonus == b->bonus && a->discard == b->discard && a->bad == b->bad && a->colour == b->colour &&
	       same_span(a->colour_span, b->colour_span) && a->tile == b->tile &&
	       same_span(a->tile_span, b->tile_span) && a->x == b->x && a->y == b->y &&
	       same_span(a->coord_span, b->coord_span) && a->rot == b->rot && same_span(a->rot_span, b->rot_span) &&
	       a->role == b->role && a->recall == b->recall && same_span(a->role_span, b->role_span) &&
	       a->spot == b->spot &&
	       same_span(a->spot_span, b->spot_span) && same_span(a->deploy_span, b->deploy_span) &&
	       a->has_order == b->has_order && a->order_first == b->order_first &&
	       a->order_count == b->order_count && a->has_claim == b->has_claim &&
	       a->claim_first == b->claim_first && a->claim_count == b->claim_count &&
	       same_span(a->claim_span, b->claim_span);
}

/* Fails, showing the text, unless both parses of text agree in everything. */
static void assert_same_parse(const char *text, size_t len, struct carc_tileset_cache *cache)
{
	struct parsed a = {0}, b = {0};
	parse(text, len, true, cache, &a);
	parse(text, len, false, cache, &b);
	bool same = a.got == b.got && a.messages.len == b.messages.len &&
		    (!a.messages.len || !memcmp(a.messages.data, b.messages.data, a.messages.len)) &&
		    a.rec.nmoves == b.rec.nmoves && a.rec.nclaims == b.rec.nclaims && a.rec.norder == b.rec.norder &&
		    a.rec.ncomments == b.rec.ncomments && a.rec.ntags == b.rec.ntags &&
		    a.rec.has_moves == b.rec.has_moves && a.rec.syntax_errors == b.rec.syntax_errors &&
		    a.rec.header_errors == b.rec.header_errors && a.rec.nseats == b.rec.nseats &&
		    !memcmp(a.rec.seats, b.rec.seats, sizeof a.rec.seats) && a.rec.src.len == b.rec.src.len &&
		    a.rec.has_result == b.rec.has_result && a.rec.result_first == b.rec.result_first &&
		    a.rec.result_count == b.rec.result_count && same_span(a.rec.result_span, b.rec.result_span);
	for (size_t i = 0; same && i < a.rec.nmoves; i++)
		same = same_move(&a.rec.moves[i], &b.rec.moves[i]);
	for (size_t i = 0; same && i < a.rec.nclaims; i++) {
		const struct carc_claim *x = &a.rec.claims[i], *y = &b.rec.claims[i];
		same = x->colour == y->colour && x->points == y->points && same_span(x->span, y->span) &&
		       same_span(x->points_span, y->points_span);
	}
	for (size_t i = 0; same && i < a.rec.ncomments; i++) {
		const struct carc_comment *x = &a.rec.comments[i], *y = &b.rec.comments[i];
		same = same_span(x->span, y->span) && x->place == y->place && x->index == y->index;
	}
	for (size_t i = 0; same && i < a.rec.ntags; i++) {
		const struct carc_tag *x = &a.rec.tags[i], *y = &b.rec.tags[i];
		same = same_span(x->span, y->span) && same_span(x->name, y->name) && same_span(x->value, y->value) &&
		       x->text == y->text && x->text_len == y->text_len && x->line == y->line;
	}
	same = same && a.rec.text.len == b.rec.text.len &&
	       (!a.rec.text.len || !memcmp(a.rec.text.data, b.rec.text.data, a.rec.text.len)) &&
	       !memcmp(a.rec.tag_index, b.rec.tag_index, sizeof a.rec.tag_index) && a.rec.rules == b.rec.rules &&
	       a.rec.tileset == b.rec.tileset && a.rec.edition == b.rec.edition &&
	       a.rec.followers == b.rec.followers && a.rec.seats_given == b.rec.seats_given;
	for (size_t i = 0; same && i < a.rec.norder; i++) {
		const struct carc_order_item *x = &a.rec.order[i], *y = &b.rec.order[i];
		same = x->has_coord == y->has_coord && x->x == y->x && x->y == y->y && x->spot == y->spot &&
		       same_span(x->span, y->span);
	}
	if (!same)
		print_error("fast and general parsers differ on:\n%.*s\n--- fast:\n%s--- general:\n%s", (int)len, text,
			    carc_buf_cstr(&a.messages), carc_buf_cstr(&b.messages));
	assert_true(same);
	carc_record_free(&a.rec);
	carc_record_free(&b.rec);
	carc_buf_free(&a.messages);
	carc_buf_free(&b.messages);
}

/* Replacements that land on the edges of what the fast path takes. */
static const char *const words[] = {
	"red", "Red", "grey", "gray", "green", "blue", "black", "yellow", "pink", "purple", "re", "redd", "blu",
	"knight", "KNIGHT", "thief", "monk", "farmer", "hunter", "hut", "order", "-", "--", "discard",
	"N", "n", "E", "S", "W", "C", "c", "NNW", "nne", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW", "NWN", "NN", "X",
	"0", "90", "180", "270", "360", "00", "090", "-90", "1,0", "-1,-1", "1000000,0", "1000001,0", "0,-1000000",
	"1,", ",1", "1,,1", "1 ,0", "+1,0", "0x1,0", "12.", "12+", "+", "0.", "100000.", "007.", "1.2.", "123456789.",
	"1234567890.", "A", "a", "Z", "AB", "=", "= red 3", "= red", "= red 3,", ",", ";", "; c", "{x}", "{", "}",
	"\t", "\r", "  ", "\"", "[", "]", "99999", "100000", "0003", "\xc3\xa9", "\xff", "\x01",
};

/* A copy of text with one change at a place and of a kind chosen by rng. */
static void alter(struct carc_rng *rng, const char *text, size_t len, struct carc_buf *out)
{
	size_t at = carc_rng_below(rng, (uint32_t)len);
	/* the start of the word at `at`, and its end */
	size_t ws = at, we = at;
	while (ws > 0 && text[ws - 1] != ' ' && text[ws - 1] != '\n')
		ws--;
	while (we < len && text[we] != ' ' && text[we] != '\n')
		we++;
	const char *w = words[carc_rng_below(rng, sizeof words / sizeof *words)];
	carc_buf_reset(out);
	switch (carc_rng_below(rng, 6)) {
	case 0: /* replace the word */
		carc_buf_add(out, text, ws);
		carc_buf_adds(out, w);
		carc_buf_add(out, text + we, len - we);
		break;
	case 1: /* insert a word before it */
		carc_buf_add(out, text, ws);
		carc_buf_adds(out, w);
		carc_buf_add(out, text + ws, len - ws);
		break;
	case 2: /* insert it right after the word, with no blank */
		carc_buf_add(out, text, we);
		carc_buf_adds(out, w);
		carc_buf_add(out, text + we, len - we);
		break;
	case 3: /* delete a byte */
		carc_buf_add(out, text, at);
		carc_buf_add(out, text + at + 1, len - at - 1);
		break;
	case 4: /* replace a byte by a byte of a word */
		carc_buf_add(out, text, at);
		carc_buf_addc(out, w[0] ? w[0] : ' ');
		carc_buf_add(out, text + at + 1, len - at - 1);
		break;
	default: /* end the text here */
		carc_buf_add(out, text, at);
		break;
	}
}

static void check_rules_with(int rules, const int *expansions, int players, uint64_t seed, int games,
			     int alterations)
{
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_gen_opts o = {.rules = carc_ruleset_get(rules), .players = players, .deploy_rate = 0.6,
				  .claim_rate = 0.5, .seed = seed};
	for (; expansions && *expansions >= 0; expansions++)
		o.expansions[o.nexpansions++] = carc_ruleset_get(*expansions);
	const char *why = NULL;
	struct carc_gen *gen = carc_gen_new(&o, &why);
	assert_non_null(gen);
	struct carc_buf text = {0}, changed = {0};
	struct carc_rng rng;
	carc_rng_seed(&rng, seed);
	for (int k = 0; k < games; k++) {
		carc_buf_reset(&text);
		carc_gen_game(gen, (uint64_t)k, &text);
		assert_same_parse(text.data, text.len, cache);
		for (int a = 0; a < alterations; a++) {
			alter(&rng, text.data, text.len, &changed);
			assert_same_parse(changed.data, changed.len, cache);
			/* and a second change on top of the first */
			struct carc_buf twice = {0};
			alter(&rng, changed.data, changed.len, &twice);
			assert_same_parse(twice.data, twice.len, cache);
			carc_buf_free(&twice);
		}
	}
	carc_buf_free(&text);
	carc_buf_free(&changed);
	carc_gen_free(gen);
	carc_tileset_cache_free(cache);
}

static void check_rules(int rules, int players, uint64_t seed, int games, int alterations)
{
	check_rules_with(rules, NULL, players, seed, games, alterations);
}

/* Generated base games for 2 to 5 players, as written and altered. */
static void test_cgn_fast_base_games_parse_the_same(void **state)
{
	(void)state;
	for (int players = 2; players <= 5; players++)
		check_rules(CARC_RULES_BASE, players, 1000 + (uint64_t)players, 25, 60);
}

/* Hunters games (bonus turns, huts, other roles) and solo games (orders). */
static void test_cgn_fast_hunters_and_solo_games_parse_the_same(void **state)
{
	(void)state;
	check_rules(CARC_RULES_HUNTERS, 3, 77, 15, 40);
	check_rules(CARC_RULES_SOLO, 0, 78, 15, 40);
}

/* Inns & Cathedrals and Traders & Builders games: turns numbered from 100
 * on (114 land tiles), two-letter tiles, the large follower's two-word
 * roles, the builder, the pig, bonus turns. */
static void test_cgn_fast_big_box_games_parse_the_same(void **state)
{
	(void)state;
	static const int both[] = {CARC_RULES_INNS, CARC_RULES_TRADERS, -1};
	static const int all[] = {CARC_RULES_RIVER, CARC_RULES_ABBOT, CARC_RULES_INNS, CARC_RULES_TRADERS, -1};
	check_rules_with(CARC_RULES_BASE, both, 2, 79, 10, 30);
	check_rules_with(CARC_RULES_BASE, both, 6, 80, 5, 30);
	check_rules_with(CARC_RULES_BASE, all, 3, 81, 10, 30);
	/* tiles of three letters: the garden tiles with The Abbot, their plain
	 * twins without it, and ids near them */
	static const char *const texts[] = {
		("[Expansions \"abbot inns-cathedrals traders-builders\"]\n\n1. red IBg 0,-1 0\n2. blue TKg 1,0 90 -\n"
		 "3. red TUg 2,0 0 abbot C\n4. blue IHg 0,1 180 big knight N\n"),
		"[Expansions \"inns-cathedrals traders-builders\"]\n\n1. red IBg 0,-1 0\n2. blue TKg 1,0 90\n",
		"[Expansions \"abbot inns-cathedrals\"]\n\n1. red IBx 0,-1 0\n2. blue IBgg 0,1 0\n3. red ibg 0,2 0\n",
		"\n1. red IBg 0,-1 0\n2. blue ABC 0,1 0\n3. red Eg 0,2 0\n",
	};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		assert_same_parse(texts[i], strlen(texts[i]), cache);
	carc_tileset_cache_free(cache);
}

/* A game with The Abbot: its role among the fast path's, "return abbot"
 * read by it too (in the lines the general reader finds) or else by the
 * general parser, and the errors of both alike. */
static void test_cgn_fast_abbot_lines_parse_the_same(void **state)
{
	(void)state;
	static const char *const texts[] = {
		("[Expansions \"abbot\"]\n[Seats \"red blue\"]\n\n1. red Eg 0,-1 180 abbot C\n2. blue U -1,0 90 -\n"
		 "3. red U 1,0 90 return abbot = red 4, blue 0\n4. blue Vg 2,0 0 abbot C\n"),
		"[Expansions \"abbot\"]\n\n1. red Eg 0,-1 180 return\n",
		"[Expansions \"abbot\"]\n\n1. red Eg 0,-1 180 return monk\n",
		"[Expansions \"abbot\"]\n\n1. red Eg 0,-1 180 return abbot C\n",
		"[Expansions \"abbot\"]\n\n1. red Eg 0,-1 180 abbot\n",
		"\n1. red B 0,-1 0 abbot C\n",
		"\n1. red B 0,-1 0 return abbot\n",
	};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		assert_same_parse(texts[i], strlen(texts[i]), cache);
	carc_tileset_cache_free(cache);
}

/* Hand-written lines at the edges of the fast path's shape. */
static void test_cgn_fast_edge_lines_parse_the_same(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"1. red D 0,1 0\n",
		"1. red D 0,1 0",
		"1.  red\tD  0,1   180   knight   N   =   red 4 ,  green 0  \r\n",
		"red D 0,1 0 - = red 0, green 0\n",
		"1. red D 0,1 0 -= red 0\n",
		"1. red D 0,1 0 knight N= red 0\n",
		"1. red D 0,1 0 knight NNE\n",
		"1. red D 0,1 0 knight NN\n",
		"1. red D 0,1 0 knight N ; a note\n",
		"1. red D 0,1 0 knight N { a note }\n",
		"1. red D 0,1 0 = red 3;x\n",
		"1. red D 0,1 0 = red 3 green 4\n",
		"1. red D 0,1 0 = red 3, red 4\n",
		"1. red D 0,1 0 = green 3, red 4\n",
		"1. red D -0,-0 270\n",
		"1. red D 0,1 0 = red 99999\n",
		"1. red D 0,1 0 = red 099999\n",
		"1. red D 0,1 0 = red 100000\n",
		"1. red D 0,1 0 =\n",
		"1. red D 0,1 0 = \n",
		"1. red D 0,1\n",
		"1. red D\n",
		"1. red\n",
		"1. red D 0,1 0 farmer\n",
		"1. red D 0,1 0 farmer \n",
		"1. grey D 0,1 0\n",
		"1. green D 0,1 0\n1. gr\n",
		"1. bl\n",
		"1. b\n",
		"1. g",
		"1. red D 0,1 9",
		"1. red D 0,1 18",
		"1. red D 0,1 0 N",
		/* turn numbers of three digits up to 254 are read by the fast
		 * path, longer ones and other numbers of three digits or more
		 * by the general parser */
		"100. red D 0,1 0\n", "99. red D 0,1 0\n100. green E 0,2 0\n101. red D 0,3 0\n",
		"254. red D 0,1 0\n255. green E 0,2 0\n", "255. red D 0,1 0\n", "256. red D 0,1 0\n",
		"999. red D 0,1 0\n", "1000. red D 0,1 0\n", "099. red D 0,1 0\n", "0100. red D 0,1 0\n",
		"100.red D 0,1 0\n", "100 red D 0,1 0\n", "000. red D 0,1 0\n", "120. red D 0,1 0 = red 3\n",
		"1. red D 100,-100 0\n",
		"1. red D -1000000,1000000 0\n",
		"1. red D 0,1 0 = red 12345, green 0\n",
		/* line ends: CR before the newline, and not */
		"1. red D 0,1 0\r\n",
		"1. red D 0,1 0 knight NNE = red 3\r\n",
		"1. red D 0,1 0 -\r\n",
		"1. red D 0,1 0 \r\n",
		"1. red D 0,1 0\r\r\n",
		"1. red D 0,1 0\r",
		"1. red D 0,1 0\rx\n",
		"1. red D 0,1\t0\n",
		/* words near the ones the fast path knows */
		"1. gre D 0,1 0\n", "1. blu D 0,1 0\n", "1. yellowD 0,1 0\n", "1. pinkk D 0,1 0\n",
		"1. gray D 0,1 0 = grey 3\n", "1. black D 0,1 0 = black 3, blue 4, pink 0, yellow 9\n",
		"1. red D 0,1 1\n", "1. red D 0,1 9\n", "1. red D 0,1 18\n", "1. red D 0,1 27\n", "1. red D 0,1 2700\n",
		"1. red D 0,1 0 knight NNW\n", "1. red D 0,1 0 knight WNW\n", "1. red D 0,1 0 knight ESE\n",
		"1. red D 0,1 0 knight ENE\n", "1. red D 0,1 0 knight SSW\n", "1. red D 0,1 0 knight WSW\n",
		"1. red D 0,1 0 knight NWN\n", "1. red D 0,1 0 knight ENS\n", "1. red D 0,1 0 knight SES\n",
		"1. red D 0,1 0 knight C\n", "1. red D 0,1 0 knight CC\n", "1. red D 0,1 0 knightN\n",
		"1. red D 0,1 0 monk C\n", "1. red D 0,1 0 monks C\n", "1. red D 0,1 0 thief\tS\n",
		"1. red D 0,1 0 -x\n", "1. red D 0,1 0 - - \n", "1. red D 0,1 0 = red 3 ,green 4\n",
		"1. red D 0,1 0 = red 3,green 4\n", "1. red D 0,1 0 = red  3 , green  4   \n",
		"1. red D 0,1 0 = red 3,\n", "1. red D 0,1 0 = red 3 =\n", "1. red D 01,-01 0\n",
		"1. red D -0,0 0\n", "1. red D --1,0 0\n", "1. red D 1,-\n", "0. red D 0,1 0\n", "00. red D 0,1 0\n",
		"01. red D 0,1 0\n", "1.red D 0,1 0\n", "1 . red D 0,1 0\n", "1. red  D  0,1  0\n",
		"1. red D\x01 0,1 0\n", "1. red D 0,1 0 knight N\x01\n", "1. red D 0,1 0\x01\n",
		/* blanks the fast path reads from masks of the line's first 64 bytes */
		"   1. red D 0,1 0\n", "\t1. red D 0,1 0\n", " \r\n", "\r\n", "1. red D 0,1 0\r \n",
		"1. red D 0,1 0 \r\r\n", "1. red D 0,1 0 knight N\r\n", "1. red D 0,1 0 = red 3 \r\n",
		"1. red D 0,1 0 - \r\n", "1. red\rD 0,1 0\n", "1. red D 0,1 0\v\n", "1. red D 0,1 0 knight\n",
		"1. red D 0,1 0 knight \n", "1. red D 0,1 0 - knight N\n", "1. red D 0,1 0 knight N -\n",
		"1. red D 0,1 0 knight N knight N\n", "1. red D 0,1 0 = red 3 knight N\n",
		/* "return ROLE" (The Abbot) goes to the general parser, which
		 * refuses it for a role that is not taken back or not played */
		"1. red D 0,1 0 return knight\n", "1. red D 0,1 0 return abbot\n", "1. red D 0,1 0 return\n",
		"1. red D 0,1 0 return = red 0\n", "1. red D 0,1 0 returns knight\n",
	};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
		/* the first turn line, found by the general reader; and a later
		 * one, read straight from the buffer after a plain line */
		for (int later = 0; later < 2; later++) {
			struct carc_buf text = {0};
			carc_buf_adds(&text, "[Seats \"red green\"]\n\n");
			if (later)
				carc_buf_adds(&text, "1. green D 1,0 0\n");
			carc_buf_adds(&text, lines[i]);
			assert_same_parse(text.data, text.len, cache);
			carc_buf_free(&text);
		}
	}
	/* With The Abbot and Inns & Cathedrals, the fast path reads "return
	 * abbot" and the large follower's roles of two words too: the same
	 * moves and errors as the general parser's, in lines of every length
	 * (a long one is not read from masks of its first 64 bytes) */
	static const char *const deploys[] = {
		"abbot C", "return abbot", "return  abbot", "return abbot = red 0", "return abbot ", "return abbot N",
		"return abbots", "return abbot=red 0", "return knight", "return big knight", "return", "return return",
		"Return abbot", "return Abbot", "big knight N", "big  knight N", "big knight", "big knight ",
		"big knights N", "big knight NN", "Big knight N", "big Knight N", "big abbot C", "big big N",
		"big return", "big farmer NNW = red 0", "big monk C", "big thief S", "big", "big knight N = red 3",
		"knight N", "bigknight N", "return\tabbot", "big\tknight N",
	};
	for (size_t i = 0; i < sizeof deploys / sizeof *deploys; i++)
		for (int later = 0; later < 2; later++)
			for (int wide = 0; wide < 2; wide++) {
				struct carc_buf text = {0};
				carc_buf_adds(&text, "[Seats \"red green\"]\n[Expansions \"abbot inns-cathedrals\"]\n\n");
				if (later)
					carc_buf_adds(&text, "1. green D 1,0 0\n");
				carc_buf_printf(&text, "%d. red D 0,1 0 %*s%s\n", 1 + later, wide ? 60 : 0, "", deploys[i]);
				assert_same_parse(text.data, text.len, cache);
				carc_buf_free(&text);
			}
	/* such a line at the end of the input, with no newline: the NUL after
	 * the input is no word of the tables */
	static const char *const last_lines[] = {
		"[Expansions \"abbot inns-cathedrals\"]\n\n1. red D 0,1 0 return ",
		"[Expansions \"abbot inns-cathedrals\"]\n\n1. red D 0,1 0 big ",
		"[Expansions \"abbot inns-cathedrals\"]\n\n1. red D 0,1 0 return abbot",
		"[Expansions \"abbot inns-cathedrals\"]\n\n1. red D 0,1 0 big knight N",
	};
	for (size_t i = 0; i < sizeof last_lines / sizeof *last_lines; i++)
		assert_same_parse(last_lines[i], strlen(last_lines[i]), cache);
	/* tiles of two and three letters on such lines, and bytes from 0x80
	 * on where they stand (\311 is 'I' in its low 7 bits: "\311A" is not
	 * IA, "I\301" not IA, "IB\347" not IBg) */
	static const char *const tiles[] = {"IA", "IBg", "\311A", "I\301", "IB\347", "\311Bg", "Eg", "IAA", "IA,"};
	for (size_t i = 0; i < sizeof tiles / sizeof *tiles; i++)
		for (int later = 0; later < 2; later++) {
			struct carc_buf text = {0};
			carc_buf_adds(&text, "[Seats \"red green\"]\n[Expansions \"abbot inns-cathedrals\"]\n\n");
			if (later)
				carc_buf_adds(&text, "1. green D 1,0 0\n");
			carc_buf_printf(&text, "%d. red %s 0,1 0 big knight N\n%d. green %s 0,2 0 return abbot\n", 1 + later,
					tiles[i], 2 + later, tiles[i]);
			assert_same_parse(text.data, text.len, cache);
			carc_buf_free(&text);
		}
	/* Result tags: their claims are read as a turn's are */
	static const char *const results[] = {
		"red 3, green 4", "red 3,green 4", " red 3 , green 4 ", "red 3 ", "red 3", "Red 3", "red 3, red 4",
		"red\t3", "red 03", "red 99999", "red 100000", "red 3,", "red", "", " ", "red 3 green 4", "red 3\\\"",
		"red 3;", "red 3 {x}", "red  3", "grey 3", "red -3", "red 3,, green 4", "red 3=", "red 3,\tgreen 4",
		"green 0, red 12, blue 7, yellow 99, black 1, gray 2, pink 3", "red 3\\", "re 3", "redd 3", ",red 3",
		"red 3 \r", "red 3\xc3\xa9", "red 3 x", "red 3 =", "red 3 ;", "red 3, green 4 x", "red 3 3",
	};
	for (size_t i = 0; i < sizeof results / sizeof *results; i++) {
		struct carc_buf text = {0};
		carc_buf_printf(&text, "[Seats \"red green\"]\n[Result \"%s\"]\n\n1. green D 1,0 0 = red 0\n",
				results[i]);
		assert_same_parse(text.data, text.len, cache);
		carc_buf_free(&text);
	}
	/* Lines whose newline falls on either side of the 64-byte window the
	 * fast path reads plain lines in (longer ones take another way) */
	static const char *const shapes[] = {
		"1. red D 0,1 0%s\n", "1. red D 0,1 0%sknight N\n", "1. red D 0,1 0 knight N%s= red 3, green 0\n",
		"%s1. red D 0,1 0 -\n", "1. red D 0,1 0 -%s\r\n", "1. red D 0,1 0%s\x01\n",
		"%s1. red D 0,1 0 -\r\n", "1. red D 0,1 0 -%s\r\r\n", "1. red D 0,1 0%s\xc3\xa9\n",
		"1. red D 0,1 0%s\r", "1. red D 0,1 0%s\r\x01\n",
	};
	char pad[80], line[200];
	for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
		for (int n = 1; n < (int)sizeof pad; n++) {
			memset(pad, ' ', (size_t)n);
			pad[n] = '\0';
			snprintf(line, sizeof line, shapes[i], pad);
			struct carc_buf text = {0};
			carc_buf_adds(&text, "[Seats \"red green\"]\n\n1. green D 1,0 0\n");
			carc_buf_adds(&text, line);
			carc_buf_adds(&text, "2. green D 2,0 0\n");
			assert_same_parse(text.data, text.len, cache);
			carc_buf_free(&text);
		}
	}
	/* Turn numbers: the fast path compares a line's first bytes with the
	 * mark after the last line's number, and reads any other one digit by
	 * digit. Lines numbered up to past 100, with one of them changed. */
	static const char *const marks[] = {
		"%d. ", "%d.  ", "%d.\t", "%d.", "%d .", "%d.. ", "%d.x ", "0%d. ", "%d0. ", "%d+ ", "%d ", "", "+ ",
		"%d.red ", " %d. ", "%d.\r\n%d. ",
	};
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		for (int at = 1; at <= 104; at += (at < 12 || at > 96) ? 1 : 9) {
			struct carc_buf text = {0};
			carc_buf_adds(&text, "[Seats \"red green\"]\n\n");
			for (int t = 1; t <= 105; t++) {
				if (t == at)
					carc_buf_printf(&text, marks[i], t + (int)(i % 3) - 1, t);
				else
					carc_buf_printf(&text, "%d. ", t);
				carc_buf_printf(&text, "%s D %d,0 0\n", t % 2 ? "red" : "green", t);
			}
			assert_same_parse(text.data, text.len, cache);
			carc_buf_free(&text);
		}
	}
	/* and games whose lines have no numbers, or stop having them */
	for (int from = 0; from <= 12; from += 3) {
		struct carc_buf text = {0};
		carc_buf_adds(&text, "[Seats \"red green\"]\n\n");
		for (int t = 1; t <= 14; t++)
			carc_buf_printf(&text, t <= from ? "%d. red D %d,0 0\n" : "red D %d,0 0\n", t, t);
		assert_same_parse(text.data, text.len, cache);
		carc_buf_free(&text);
	}
	carc_tileset_cache_free(cache);
}

/* Claims written as on the line before: the fast path compares their text
 * with that line's and copies its claims. Lines that match it, that go on
 * past it or differ from it at the edges, after a plain line or one the
 * general parser read, and across games. */
static void test_cgn_fast_repeated_claims_parse_the_same(void **state)
{
	(void)state;
	static const char *const before[] = {
		"1. green D 1,0 0 = red 3, green 4\n",
		"1. green D 1,0 0 = red 3, green 4 \r\n",
		"1. green D 1,0 0 = red 3, green 4 ; x\n",
		"1. green D 1,0 0 = red 3, {x} green 4\n",
		"1. green D 1,0 0 = red 3,  green 4\n",
		"1. green D 1,0 0 knight N = red 3, green 4\n1. green D 1,0 0 = red 3, green 4\n",
		"[Seats \"red green\"]\n\n1. green D 1,0 0 = red 3, green 4\n\n[Seats \"red green\"]\n\n",
		"1. green D 1,0 0 = red 3\n",
		"1. green D 1,0 0 = red 3, green 4, blue 5\n",
	};
	static const char *const after[] = {
		"2. red D 0,1 0 = red 3, green 4\n", "2. red D 0,1 0 = red 3, green 45\n",
		"2. red D 0,1 0 = red 3, green 4, blue 5\n", "2. red D 0,1 0 = red 3, green 4 x\n",
		"2. red D 0,1 0 = red 3, green 4\t\n", "2. red D 0,1 0 = red 3, green 4 \r\n",
		"2. red D 0,1 0 = red 3, green 4;c\n", "2. red D 0,1 0 = red 3, green 4 {c}\n",
		"2. red D 0,1 0 = red 3, green\n", "2. red D 0,1 0 = red 3, green 4", "2. red D 0,1 0 = red 3, green 4,\n",
		"2. red D 0,1 0 = red 3, green 4 ,\n", "2. red D 0,1 0 = red 3, green 4\r\r\n",
		"2. red D 0,1 0 knight N = red 3, green 4\n", "2. red D 0,1 0 = red 3, green 4 = red 3\n",
		"2. red D 0,1 0 = red 3,  green 4\n", "2. red D 0,1 0 = red 3, green 4\x01\n",
		"2. red D 0,1 0                                 thief N = red 3, green 4\n",
		"2. red D 0,1 0 = red 3, green 4\n3. green D 2,0 0 = red 3, green 4\n4. red D 3,0 0 = red 3, green 4\n",
		"2. red D 0,1 0 = red 3, green 4 ;x\n3. green D 2,0 0 = red 3, green 4\n",
		"2. red D 0,1 0\n3. green D 2,0 0 = red 3, green 4\n",
	};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t i = 0; i < sizeof before / sizeof *before; i++) {
		for (size_t j = 0; j < sizeof after / sizeof *after; j++) {
			struct carc_buf text = {0};
			carc_buf_adds(&text, "[Seats \"red green\"]\n\n");
			carc_buf_adds(&text, before[i]);
			carc_buf_adds(&text, after[j]);
			assert_same_parse(text.data, text.len, cache);
			carc_buf_free(&text);
		}
	}
	carc_tileset_cache_free(cache);
}

/* Tag lines at the edges of the shape the reader takes without scanning
 * them, [Name "value"]: each in a game's header, first and after another. */
static void test_cgn_fast_tag_lines_parse_the_same(void **state)
{
	(void)state;
	static const char *const tags[] = {
		"[Event \"x\"]\n", "[Event \"x\"]", "[Event \"x\"] \n", "[Event \"x\"]  \r\n", "[Event \"x\"]\r\n",
		"[Event \"x\"]\r", "[Event \"x\"]\r\r\n", "[Event \"x\"]\rx\n", "[Event\"x\"]\n", "[Event  \"x\" ]\n",
		"[ Event \"x\"]\n", " [Event \"x\"]\n", "[Event\t\"x\"]\n", "[Event \"x\"\t]\n", "[Event \"x\"]\t\n",
		"[Event \"\"]\n", "[Event \"x\"\n", "[Event \"x]\n", "[Event x]\n", "[Event \"x\"] ]\n", "[Event \"x\"]]\n",
		"[Event \"x\"] ; c\n", "[Event \"x\"] {c}\n", "[Event \"x\"]{c}\n", "[Event \"a{b\"]\n",
		"[Event \"a{b\"] {c\n", "[Event \"a;b\"]\n", "[Event \"a}b\"]\n", "[Event \"a\\\"b\"]\n",
		"[Event \"a\\\\b\"]\n", "[Event \"a\\b\"]\n", "[Event \"a\tb\"]\n", "[Event \"a\rb\"]\n",
		"[Event \"a\x01b\"]\n", "[Event \"a\x7f\"]\n", "[Event \"\xc3\xa9\"]\n", "[Event \"\xff\"]\n",
		"[Event \"~ !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}\"]\n", "[event \"x\"]\n", "[EVENT \"x\"]\n",
		"[Even \"x\"]\n", "[Events \"x\"]\n", "[Event_2 \"x\"]\n", "[2Event \"x\"]\n", "[_Event \"x\"]\n",
		"[ \"x\"]\n", "[\"x\"]\n", "[\n", "[", "[Ev\xc3\xa9nt \"x\"]\n", "[Followers \"5\"]\n",
		"[FOLLOWERSS \"5\"]\n", "[Followerz \"5\"]\n", "[Grey \"Ann\"]\n", "[Gray \"Ann\"]\n", "[Mine \"x\"]\n",
		"[MINE \"y\"]\n", "[Rules \"solo\"]\n", "[Rules \"chess\"]\n", "[Seats \"blue red\"]\n",
		"[Result \"red 3, green 4\"]\n", "[Result \"red 3, green\"]\n", "[Event \"x\"]\x01\n",
		"[Event \"x\"] 1. red D 0,1 0\n", "[Event \"x\"]\n[Event \"y\"]\n", "[Mine \"x\"]\n[mine \"y\"]\n",
		"[Gray \"x\"]\n[Grey \"y\"]\n", ("[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n[D \"4\"]\n[E \"5\"]\n[F \"6\"]\n"
		 "[G \"7\"]\n[H \"8\"]\n[I \"9\"]\n[a \"10\"]\n[b \"11\"]\n"), /* one file of 11 tags */
	};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t i = 0; i < sizeof tags / sizeof *tags; i++) {
		for (int after = 0; after < 3; after++) {
			struct carc_buf text = {0};
			if (after == 1)
				carc_buf_adds(&text, "[Seats \"red green\"]\n");
			if (after == 2)
				carc_buf_adds(&text, "; a note\n\n{ and another }\n[Mine \"z\"]\n");
			carc_buf_adds(&text, tags[i]);
			carc_buf_adds(&text, "\n1. green D 1,0 0\n");
			assert_same_parse(text.data, text.len, cache);
			/* and a long value, on either side of a 16-byte step */
			for (int n = 1; n < 40; n += 7) {
				carc_buf_reset(&text);
				carc_buf_printf(&text, "[Event \"%.*s\"]\n", n, "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH");
				carc_buf_adds(&text, tags[i]);
				assert_same_parse(text.data, text.len, cache);
			}
			carc_buf_free(&text);
		}
	}
	carc_tileset_cache_free(cache);
}

/* Every game of a file read from a stream, with the fast paths and without:
 * the records, and the messages, one after another (header: only what the
 * header's tags give, and the messages). */
static void read_all(const char *text, size_t len, bool fast, bool header, struct carc_tileset_cache *cache,
		     struct carc_buf *out)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, len, "r");
	assert_non_null(f);
	struct carc_diag_sink sink = {.emit = keep_message, .ctx = out};
	struct carc_reader *r = carc_reader_new(f, "games.cgn", cache, carc_rules_registry());
	struct carc_record rec = {0};
	carc_cgn_fast_turns = fast;
	while (carc_reader_next(r, &rec, &sink)) {
		carc_buf_printf(out, "rules %s tileset %s edition %d followers %d huts %d seats", rec.rules->name,
				rec.tileset ? rec.tileset->name : "-", rec.edition, rec.followers, rec.huts);
		for (int i = 0; i < rec.nseats; i++)
			carc_buf_printf(out, " %d", rec.seats[i]);
		carc_buf_printf(out, " result %d %u %u errors %u\n", (int)rec.has_result, rec.result_first,
				rec.result_count, rec.header_errors);
		if (header)
			continue;
		carc_buf_printf(out, "game %u line %u len %zu tags %zu moves %zu claims %zu comments %zu errors %u %u\n",
				rec.index, rec.src.base_line, rec.src.len, rec.ntags, rec.nmoves, rec.nclaims,
				rec.ncomments, rec.syntax_errors, rec.header_errors);
		for (size_t i = 0; i < rec.ntags; i++)
			carc_buf_printf(out, " tag %u %u %u %u %s\n", rec.tags[i].span.off, rec.tags[i].span.len,
					rec.tags[i].line, rec.tags[i].text_len, carc_tag_text(&rec, &rec.tags[i]));
		for (size_t i = 0; i < rec.ncomments; i++)
			carc_buf_printf(out, " comment %u %u %d %u\n", rec.comments[i].span.off, rec.comments[i].span.len,
					(int)rec.comments[i].place, rec.comments[i].index);
		for (size_t i = 0; i < rec.nmoves; i++)
			carc_buf_printf(out, " move %u %u %d\n", rec.moves[i].line.off, rec.moves[i].line.len,
					rec.moves[i].turn);
	}
	carc_cgn_fast_turns = true;
	if (!header)
		carc_buf_printf(out, "end %d %d\n", carc_reader_error(r), (int)carc_reader_lost_text(r));
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_diag_free(&sink);
	fclose(f);
}

/* Fails unless text reads the same with the fast paths as without (every
 * game, with read_all). */
static void assert_fast_reads_as_general(struct carc_buf *text, struct carc_tileset_cache *cache)
{
	struct carc_buf a = {0}, b = {0};
	read_all(text->data, text->len, true, false, cache, &a);
	read_all(text->data, text->len, false, false, cache, &b);
	if (strcmp(carc_buf_cstr(&a), carc_buf_cstr(&b)))
		print_error("fast and general readers differ on:\n%s\n--- fast:\n%s--- general:\n%s",
			    carc_buf_cstr(text), carc_buf_cstr(&a), carc_buf_cstr(&b));
	assert_string_equal(carc_buf_cstr(&a), carc_buf_cstr(&b));
	carc_buf_free(&a);
	carc_buf_free(&b);
}

/* Files of several games, with the lines between them (blank, comments,
 * tags in odd places) in many shapes. */
static void test_cgn_fast_games_of_a_file_read_the_same(void **state)
{
	(void)state;
	static const char *const between[] = {
		"", "\n", "\n\n", "; after\n", "\n; before the next\n\n", "{ x }\n", "{ open\n", " \n", "\r\n", "\t\n",
		" [Event \"indented\"]\n", "{c} [Event \"after a comment\"]\n", "[Event \"x\"] ; trailing\n",
		"[Event \"x\"\n", "[Bad\n", "\x01\n", "; c\n[Event \"y\"]\n; d\n",
	};
	static const char *const turns[] = {
		"1. red D 0,1 0\n2. green D 0,-1 0\n", "red D 0,1 0\n", "1. red D 0,1 0 ; c\n", "1. red D 0,1 0",
		"1. red D 0,1 0\n\n2. green D 0,-1 0\n", "1. red D 0,1 0\r\n2. green D 0,-1 0\r\n",
	};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t i = 0; i < sizeof between / sizeof *between; i++) {
		for (size_t j = 0; j < sizeof turns / sizeof *turns; j++) {
			struct carc_buf text = {0};
			for (int g = 0; g < 3; g++) {
				carc_buf_adds(&text, g == 1 ? between[i] : "\n");
				carc_buf_adds(&text, "[Event \"e\"]\n[Seats \"red green\"]\n");
				if (g == 2)
					carc_buf_adds(&text, between[i]);
				carc_buf_adds(&text, "\n");
				carc_buf_adds(&text, turns[(j + (size_t)g) % (sizeof turns / sizeof *turns)]);
			}
			assert_fast_reads_as_general(&text, cache);
			carc_buf_free(&text);
		}
	}
	/* headers that change from game to game: the rule set and the tile
	 * set it names are remembered from one game to the next */
	static const char *const headers[] = {
		"[Rules \"base\"]\n", "[Rules \"solo\"]\n", "[Rules \"hunters\"]\n", "[Rules \"BASE\"]\n",
		"[Rules \"Hunters\"]\n", "[Rules \"bases\"]\n", "[Rules \"bas\"]\n", "[Rules \"\"]\n", "[Event \"e\"]\n",
		"[Tileset \"base\"]\n", "[Rules \"solo\"]\n[Tileset \"base\"]\n", "[Tileset \"nowhere\"]\n",
		"[Rules \"hunters\"]\n[Tileset \"nowhere\"]\n", "[Followers \"3\"]\n[Huts \"2\"]\n",
		"[Followers \"0\"]\n", "[Huts \"x\"]\n", "[Seats \"red,blue  green\tyellow\"]\n", "[Seats \"red red\"]\n",
		"[Seats \"red purple\"]\n", "[Seats \"red\"]\n", "[Seats \" , \"]\n", "[Result \"red 3, green 4\"]\n",
	};
	size_t nh = sizeof headers / sizeof *headers;
	for (size_t i = 0; i < nh; i++) {
		struct carc_buf text = {0}, a = {0}, b = {0}, one = {0};
		for (size_t g = 0; g < 2 * nh; g++) {
			carc_buf_reset(&one);
			carc_buf_adds(&one, headers[(i * g + g / 3) % nh]);
			carc_buf_adds(&one, "\n1. red D 0,1 0\n\n");
			carc_buf_add(&text, one.data, one.len);
			/* and each game read on its own, by a reader of its own */
			read_all(one.data, one.len, true, true, cache, &b);
		}
		read_all(text.data, text.len, true, true, cache, &a);
		if (strcmp(carc_buf_cstr(&a), carc_buf_cstr(&b)))
			print_error("the games of a file and each alone differ on:\n%s\n--- file:\n%s--- alone:\n%s",
				    carc_buf_cstr(&text), carc_buf_cstr(&a), carc_buf_cstr(&b));
		assert_string_equal(carc_buf_cstr(&a), carc_buf_cstr(&b));
		assert_fast_reads_as_general(&text, cache);
		carc_buf_free(&text);
		carc_buf_free(&a);
		carc_buf_free(&b);
		carc_buf_free(&one);
	}
	carc_tileset_cache_free(cache);
}

/* Games of around the cap of 8192 turn lines (notation/cgn.md, "Limits"),
 * whose plain lines the fast path reads: it counts its turns only when the
 * array of moves grows, and past the cap reads on in the same room; the
 * first turn past the cap must still be reported where the general reader
 * reports it (E032), kept as a line that is not replayed, and the turns
 * after it skipped, up to the next game. */
static void test_cgn_fast_turn_cap_reads_as_general(void **state)
{
	(void)state;
	static const size_t counts[] = {8191, 8192, 8193, 8194, 16383, 16384, 16385, 20000};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
		for (int shape = 0; shape < 3; shape++) {
			struct carc_buf text = {0};
			carc_buf_adds(&text, "[Seats \"red green\"]\n\n");
			for (size_t i = 1; i <= counts[k]; i++) {
				const char *colour = i % 2 ? "red" : "green";
				if (shape == 1 && i < 100)
					carc_buf_printf(&text, "%zu. %s D %zu,1 0\n", i, colour, i);
				else if (shape == 2 && i == 8193)
					carc_buf_printf(&text, "%s D %zu,1 45\n", colour, i); /* a bad line at the cap */
				else
					carc_buf_printf(&text, "%s D %zu,1 0\n", colour, i);
			}
			carc_buf_adds(&text, "[Seats \"red green\"]\n\n1. red D 0,1 0\n");
			assert_fast_reads_as_general(&text, cache);

			struct carc_buf out = {0};
			read_all(text.data, text.len, true, false, cache, &out);
			const char *report = strstr(carc_buf_cstr(&out), "more than 8192 turns");
			if (counts[k] > 8192) {
				assert_non_null(report);
				assert_null(strstr(report + 1, "more than 8192 turns"));
				assert_non_null(strstr(out.data, "moves 8193 "));
			} else {
				assert_null(report);
			}
			assert_non_null(strstr(out.data, "game 2 line")); /* the next game is read */
			carc_buf_free(&out);
			carc_buf_free(&text);
		}
	}
	carc_tileset_cache_free(cache);
}

/* The E002 messages, as line:column, one after another. */
static void keep_e002(void *ctx, const struct carc_diag *d)
{
	unsigned line, col;
	if (d->code != CARC_E002)
		return;
	carc_src_position(d->src, d->off, &line, &col);
	carc_buf_printf(ctx, "%u:%u ", line, col);
}

/* A CR anywhere but before its newline is reported, once, where it is,
 * whatever the line (turn, tag, comment, short or long, the last one) and
 * wherever the CR falls in the bytes the reader looks at together. */
static void test_cgn_fast_lone_cr_reported_where_it_is(void **state)
{
	(void)state;
	static const char text[] =
		"[Event \"a game whose lines are of many kinds and lengths\"]\n[Seats \"red green\"]\n"
		"; a comment line, long enough to take more than 32 bytes\n\n"
		"1. red D 0,1 0\n2. green D 0,-1 0 { a comment that runs on past 64 bytes, to the line's end }\n"
		"3. red D 0,2 0 ; and a note\n{ a comment\nover lines }\n4. green D 0,-2 0\n\n"
		"[Event \"the next game\"]\n\n1.  red  D  0,1  0   knight  N   =   red  0 ,  green  0\n2. green D 0,-1 0";
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	size_t len = sizeof text - 1;
	for (size_t at = 0; at <= len; at++) {
		struct carc_buf in = {0}, got = {0}, want = {0};
		carc_buf_add(&in, text, at);
		carc_buf_addc(&in, '\r');
		carc_buf_add(&in, text + at, len - at);
		if (at == len || text[at] != '\n') {
			unsigned line = 1, col = 1;
			for (size_t i = 0; i < at; i++, col++)
				if (text[i] == '\n')
					line++, col = 0;
			carc_buf_printf(&want, "%u:%u ", line, col);
		}
		FILE *f = fmemopen(in.data, in.len, "r");
		assert_non_null(f);
		struct carc_diag_sink sink = {.emit = keep_e002, .ctx = &got};
		struct carc_reader *r = carc_reader_new(f, "cr.cgn", cache, carc_rules_registry());
		struct carc_record rec = {0};
		while (carc_reader_next(r, &rec, &sink))
			;
		if (strcmp(carc_buf_cstr(&got), carc_buf_cstr(&want)))
			print_error("a CR at %zu: E002 at %s, expected at %s\n", at, carc_buf_cstr(&got),
				    carc_buf_cstr(&want));
		assert_string_equal(carc_buf_cstr(&got), carc_buf_cstr(&want));
		carc_record_free(&rec);
		carc_reader_free(r);
		carc_diag_free(&sink);
		fclose(f);
		carc_buf_free(&in);
		carc_buf_free(&got);
		carc_buf_free(&want);
	}
	carc_tileset_cache_free(cache);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgn_fast_base_games_parse_the_same),
		cmocka_unit_test(test_cgn_fast_hunters_and_solo_games_parse_the_same),
		cmocka_unit_test(test_cgn_fast_big_box_games_parse_the_same),
		cmocka_unit_test(test_cgn_fast_edge_lines_parse_the_same),
		cmocka_unit_test(test_cgn_fast_abbot_lines_parse_the_same),
		cmocka_unit_test(test_cgn_fast_repeated_claims_parse_the_same),
		cmocka_unit_test(test_cgn_fast_tag_lines_parse_the_same),
		cmocka_unit_test(test_cgn_fast_games_of_a_file_read_the_same),
		cmocka_unit_test(test_cgn_fast_lone_cr_reported_where_it_is),
		cmocka_unit_test(test_cgn_fast_turn_cap_reads_as_general),
	};
	return cmocka_run_group_tests_name("cgn_fast", tests, NULL, NULL);
}
