/*
 * test_cgn.c - the CGN reader and parser (src/notation/cgn_*.c).
 *
 * Everything the referee and the reports know about a record comes through
 * the parser, and every message points at a span it recorded, so these tests
 * pin what it builds from each piece of the notation: tags (known, unknown,
 * escaped, case-insensitive), comments anywhere (between tokens, over several
 * lines, before the next game), several games in one stream, turn marks,
 * claims, discards, deployments, solo orders and the exact byte spans of
 * tokens. Then the robustness promises: every syntax error of a game is
 * reported and the next game is still read; an unclosed { or an over-long
 * line costs one message, not the rest of the file; and reading a stream of
 * many games takes no more memory than reading one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/rules.h"
#include "notation/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sink that keeps each diagnostic's code, line and column. */
struct seen {
	int n;
	enum carc_code code[64];
	unsigned line[64], col[64];
};

static void collect(void *ctx, const struct carc_diag *d)
{
	struct seen *s = ctx;
	if (s->n >= 64)
		return;
	s->code[s->n] = d->code;
	s->line[s->n] = s->col[s->n] = 0;
	if (d->src)
		carc_src_position(d->src, d->off, &s->line[s->n], &s->col[s->n]);
	s->n++;
}

struct fixture {
	struct carc_tileset_cache *cache;
	struct carc_record rec;
	struct seen seen;
	struct carc_diag_sink sink;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);
	f->cache = carc_tileset_cache_new();
	f->sink.emit = collect;
	f->sink.ctx = &f->seen;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	carc_record_free(&f->rec);
	carc_diag_free(&f->sink);
	carc_tileset_cache_free(f->cache);
	free(f);
	return 0;
}

/* Parses the first game of text into f->rec, collecting diagnostics. */
static bool parse(struct fixture *f, const char *text)
{
	memset(&f->seen, 0, sizeof f->seen);
	return carc_parse_string(text, strlen(text), "t.cgn", f->cache, carc_rules_registry(), &f->rec, &f->sink);
}

/* The text of a span of the record. */
static bool span_is(const struct carc_record *rec, struct carc_span s, const char *want)
{
	return s.len == strlen(want) && !memcmp(rec->src.text + s.off, want, s.len);
}

static bool saw(const struct fixture *f, enum carc_code code, unsigned line, unsigned col)
{
	for (int i = 0; i < f->seen.n; i++)
		if (f->seen.code[i] == code && f->seen.line[i] == line && f->seen.col[i] == col)
			return true;
	return false;
}

static const struct carc_tag *tag_named(const struct carc_record *rec, const char *name)
{
	for (size_t i = 0; i < rec->ntags; i++)
		if (span_is(rec, rec->tags[i].name, name))
			return &rec->tags[i];
	return NULL;
}

static void test_cgn_tags_known_unknown_and_defaults(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Event \"Club night\"]\n"
			     "[Date \"2026-11-20\"]\n"
			     "[Seats \"green, red\"]\n"
			     "[Green \"Boris\"]\n"
			     "[grey \"Gus\"]\n"
			     "[Venue \"Back room\"]\n"
			     "[RULES \"Base\"]\n"
			     "\n"
			     "1. green U -1,0 90\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(rec->ntags, 7);
	assert_string_equal(carc_record_tag(rec, CARC_TAG_EVENT), "Club night");
	assert_string_equal(carc_record_tag(rec, CARC_TAG_KNOWN + CARC_GREEN), "Boris");
	/* names match whatever their case, and grey is gray */
	assert_string_equal(carc_record_tag(rec, CARC_TAG_KNOWN + CARC_GRAY), "Gus");
	assert_string_equal(carc_record_tag(rec, CARC_TAG_RULES), "Base");
	/* an unknown tag is kept, name and value, in its place */
	const struct carc_tag *venue = tag_named(rec, "Venue");
	assert_non_null(venue);
	assert_ptr_equal(venue, &rec->tags[5]);
	assert_string_equal(carc_tag_text(rec, venue), "Back room");
	assert_int_equal(venue->text_len, 9);
	assert_true(span_is(rec, venue->span, "[Venue \"Back room\"]"));
	assert_true(span_is(rec, venue->value, "Back room"));
	/* the known tags resolved, the rest from the rule set */
	assert_int_equal(rec->rules->id, CARC_RULES_BASE);
	assert_int_equal(rec->nseats, 2);
	assert_int_equal(rec->seats[0], CARC_GREEN);
	assert_int_equal(rec->seats[1], CARC_RED);
	assert_true(rec->seats_given);
	assert_int_equal(rec->edition, 3);
	assert_int_equal(rec->followers, 7);
	assert_non_null(rec->tileset);
	assert_string_equal(rec->tileset->name, "base");
	assert_string_equal(rec->tileset->tiles[rec->start_tile].id, "D");
	assert_int_equal(rec->start_rot, 0);
	assert_false(rec->has_result);
}

static void test_cgn_tag_values_unescaped(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Event \"say \\\"hi\\\" \\\\ and \\n stays\"]\n"
			     "[Site \"Room {2}; upstairs\"]   ; the comment\n"
			     "[Round \"\"]\n"
			     "[Red \"Ren\xc3\xa9" "e\"]\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	/* \" and \\ are escapes; any other backslash is itself */
	assert_string_equal(carc_record_tag(rec, CARC_TAG_EVENT), "say \"hi\" \\ and \\n stays");
	assert_int_equal(rec->tags[0].text_len, strlen("say \"hi\" \\ and \\n stays"));
	/* ; and { inside the quotes are text, after them a comment */
	assert_string_equal(carc_record_tag(rec, CARC_TAG_SITE), "Room {2}; upstairs");
	assert_int_equal(rec->ncomments, 1);
	assert_true(span_is(rec, rec->comments[0].span, "; the comment"));
	assert_int_equal(rec->comments[0].place, CARC_AFTER_TAG);
	assert_int_equal(rec->comments[0].index, 1);
	assert_string_equal(carc_record_tag(rec, CARC_TAG_ROUND), "");
	assert_string_equal(carc_record_tag(rec, CARC_TAG_KNOWN + CARC_RED), "Ren\xc3\xa9" "e");
}

static void test_cgn_bad_tags_reported_and_block_refereeing(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Event Club night]\n"
			     "[Seats \"red green\"]\n"
			     "[seats \"green red\"]\n"
			     "[Edition \"4\"]\n"
			     "[Date \"2026-02-30\"]\n"
			     "1. red U -1,0 90\n"));
	assert_int_equal(f->seen.n, 4);
	assert_true(saw(f, CARC_E005, 1, 8));
	assert_true(saw(f, CARC_E006, 3, 2));   /* the same tag, whatever its case */
	assert_true(saw(f, CARC_E008, 4, 11));
	assert_true(saw(f, CARC_E009, 5, 8));   /* no 30 February */
	assert_int_equal(f->rec.syntax_errors, 4);
	assert_int_equal(f->rec.header_errors, 4);
	/* the first Seats counts; the turn itself is fine */
	assert_int_equal(f->rec.seats[0], CARC_RED);
	assert_int_equal(f->rec.nmoves, 1);
	assert_false(f->rec.moves[0].bad);
}

/* Followers and Huts: each read, and checked, whether the other is given
 * or not; else the rule set's. */
/* Expansions: any order, case and separator give one combination, kept
 * in registry order; its roles and tiles are the game's. */
static void test_cgn_expansions(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Expansions \"Abbot, RIVER\"]\n\n1. red RB 1,0 0 abbot C\n"));
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(f->rec.nexpansions, 2);
	assert_string_equal(f->rec.expansions[0]->name, "river");
	assert_string_equal(f->rec.expansions[1]->name, "abbot");
	const struct carc_ruleset *both = f->rec.rules;
	const struct carc_tileset *ts = f->rec.tileset;
	assert_string_equal(both->name, "base");
	assert_int_equal(f->rec.moves[0].role, carc_ruleset_role(both, "abbot", 5));
	assert_string_equal(ts->tiles[f->rec.start_tile].id, "RA");
	assert_int_equal(ts->total, 84);
	carc_record_free(&f->rec);
	assert_true(parse(f, "[Expansions \"river abbot\"]\n\n1. red RB 1,0 0 -\n"));
	assert_ptr_equal(f->rec.rules, both);
	assert_ptr_equal(f->rec.tileset, ts); /* assembled once */
	carc_record_free(&f->rec);
	/* without it, abbot is no role and RB no tile */
	parse(f, "\n1. red RB 1,0 0 abbot C\n");
	assert_true(saw(f, CARC_E022, 2, 8));
	carc_record_free(&f->rec);
	parse(f, "[Expansions \"river inns river\"]\n[Rules \"solo\"]\n\n1. red U -1,0 90\n");
	assert_true(saw(f, CARC_E014, 1, 20));
	assert_true(saw(f, CARC_E014, 1, 25));
	assert_int_equal(f->rec.nexpansions, 1);
	carc_record_free(&f->rec);
	parse(f, "[Rules \"hunters\"]\n[Expansions \"river\"]\n\n1. red U -1,0 90\n");
	assert_true(saw(f, CARC_E014, 2, 14));
	carc_record_free(&f->rec);
}

static void test_cgn_followers_and_huts(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Rules \"hunters\"]\n[Huts \"3\"]\n1. red U -1,0 90\n"));
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(f->rec.huts, 3);
	assert_int_equal(f->rec.followers, f->rec.rules->followers);
	assert_true(parse(f, "[Huts \"x\"]\n1. red U -1,0 90\n"));
	assert_int_equal(f->seen.n, 1);
	assert_true(saw(f, CARC_E011, 1, 8));
	assert_int_equal(f->rec.huts, f->rec.rules->huts);
	assert_true(parse(f, "[Followers \"5\"]\n1. red U -1,0 90\n"));
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(f->rec.followers, 5);
	assert_true(parse(f, "[Followers \"0\"]\n[Huts \"100\"]\n1. red U -1,0 90\n"));
	assert_int_equal(f->seen.n, 2);
	assert_true(saw(f, CARC_E011, 1, 13));
	assert_true(saw(f, CARC_E011, 2, 8));
	assert_int_equal(f->rec.followers, f->rec.rules->followers);
	assert_int_equal(f->rec.header_errors, 2);
}

static void test_cgn_comments_anywhere(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "; before the tags\n"                         /* 1 */
			     "[Event \"x\"]  { after a tag }\n"             /* 2 */
			     "{ after the tags }\n"                         /* 3 */
			     "1. red {between} U -1,0 90 ; after a turn\n"  /* 4 */
			     "{ a comment\n"                                /* 5 */
			     "  over two lines } 2. green E 0,1 180\n"      /* 6 */
			     "3. red E 1,1 {it\n"                           /* 7 */
			     "turns} 270\n"                                 /* 8 */
			     "; at the end\n"));                            /* 9 */
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(rec->ntags, 1);
	assert_int_equal(rec->nmoves, 3);
	static const struct {
		const char *text;
		int place;
		unsigned index;
	} want[] = {
		{"; before the tags", CARC_BEFORE_TAG, 0},
		{"{ after a tag }", CARC_AFTER_TAG, 0},
		{"{ after the tags }", CARC_BEFORE_TAG, 1},
		{"{between}", CARC_AFTER_MOVE, 0},
		{"; after a turn", CARC_AFTER_MOVE, 0},
		{"{ a comment\n  over two lines }", CARC_BEFORE_MOVE, 1},
		{"{it\nturns}", CARC_AFTER_MOVE, 2},
		{"; at the end", CARC_BEFORE_MOVE, 3},
	};
	assert_int_equal(rec->ncomments, CARC_ARRAY_LEN(want));
	for (size_t i = 0; i < CARC_ARRAY_LEN(want); i++) {
		assert_true(span_is(rec, rec->comments[i].span, want[i].text));
		assert_int_equal(rec->comments[i].place, want[i].place);
		assert_int_equal(rec->comments[i].index, want[i].index);
	}
	/* the turns around the comments are whole, and their tokens keep their lines */
	assert_int_equal(rec->moves[0].x, -1);
	assert_int_equal(rec->moves[0].rot, 1);
	assert_int_equal(rec->moves[1].colour, CARC_GREEN);
	assert_int_equal(rec->moves[2].rot, 3);
	unsigned line, col;
	carc_src_position(&rec->src, rec->moves[1].tile_span.off, &line, &col);
	assert_int_equal(line, 6);
	assert_int_equal(col, 29);
	carc_src_position(&rec->src, rec->moves[2].rot_span.off, &line, &col);
	assert_int_equal(line, 8);
	assert_int_equal(col, 8);
}

static void test_cgn_comment_then_tag_or_turn_on_one_line(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "{ the\n  heading } [Event \"x\"]\n"
			     "{ first } 1. red U -1,0 90\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(rec->ntags, 1);
	assert_int_equal(rec->nmoves, 1);
	assert_int_equal(rec->ncomments, 2);
	assert_int_equal(rec->comments[0].place, CARC_BEFORE_TAG);
	assert_int_equal(rec->comments[0].index, 0);
	assert_int_equal(rec->comments[1].place, CARC_BEFORE_MOVE);
	assert_int_equal(rec->comments[1].index, 0);
	assert_true(span_is(rec, rec->moves[0].line, "1. red U -1,0 90"));
}

static FILE *stream_of(const char *text)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(in);
	return in;
}

static void test_cgn_several_games_in_one_stream(void **state)
{
	struct fixture *f = *state;
	static const char text[] = "[Event \"one\"]\n"         /* 1 */
				   "1. red U -1,0 90\n"        /* 2 */
				   "2. green E 0,1 180\n"      /* 3 */
				   "\n"                        /* 4 */
				   "; game two\n"              /* 5 */
				   "[Event \"two\"]\n"         /* 6 */
				   "[Seats \"blue red\"]\n"    /* 7 */
				   "1. blue U -1,0 90\n"       /* 8 */
				   "[Event \"three\"]\n";      /* 9 */
	FILE *in = stream_of(text);
	struct carc_reader *r = carc_reader_new(in, "s.cgn", f->cache, carc_rules_registry());

	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->rec.index, 1);
	assert_int_equal(f->rec.src.base_line, 1);
	assert_string_equal(carc_record_tag(&f->rec, CARC_TAG_EVENT), "one");
	assert_int_equal(f->rec.nmoves, 2);
	assert_int_equal(f->rec.ncomments, 0);
	/* the game's text ends before the comment line that heads the next game */
	assert_int_equal(f->rec.src.len, strlen("[Event \"one\"]\n1. red U -1,0 90\n2. green E 0,1 180\n\n"));
	/* no Seats: inferred from the turns */
	assert_false(f->rec.seats_given);
	assert_int_equal(f->rec.nseats, 2);

	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->rec.index, 2);
	assert_int_equal(f->rec.src.base_line, 5);
	assert_string_equal(carc_record_tag(&f->rec, CARC_TAG_EVENT), "two");
	assert_int_equal(f->rec.ncomments, 1);
	assert_true(span_is(&f->rec, f->rec.comments[0].span, "; game two"));
	assert_int_equal(f->rec.comments[0].place, CARC_BEFORE_TAG);
	assert_int_equal(f->rec.comments[0].index, 0);
	assert_int_equal(f->rec.seats[0], CARC_BLUE);
	assert_int_equal(f->rec.nmoves, 1);
	unsigned line, col;
	carc_src_position(&f->rec.src, f->rec.moves[0].colour_span.off, &line, &col);
	assert_int_equal(line, 8);
	assert_int_equal(col, 4);

	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->rec.index, 3);
	assert_int_equal(f->rec.src.base_line, 9);
	assert_false(f->rec.has_moves);
	assert_string_equal(carc_record_tag(&f->rec, CARC_TAG_EVENT), "three");

	assert_false(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(carc_reader_error(r), 0);
	assert_int_equal(f->sink.errors, 0);
	carc_reader_free(r);
	fclose(in);
}

static void test_cgn_turn_marks(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1,0 90\n"
			     "green E 0,1 180\n"
			     "1+ green U 1,0 90\n"
			     "+ red U 2,0 90\n"
			     "003. red U 3,0 90\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	assert_int_equal(rec->nmoves, 5);
	assert_int_equal(rec->moves[0].turn, 1);
	assert_false(rec->moves[0].bonus);
	assert_true(span_is(rec, rec->moves[0].number, "1."));
	assert_int_equal(rec->moves[1].turn, -1);  /* the number is optional */
	assert_int_equal(rec->moves[1].number.len, 0);
	assert_int_equal(rec->moves[2].turn, 1);   /* N+: a bonus turn after turn N */
	assert_true(rec->moves[2].bonus);
	assert_int_equal(rec->moves[3].turn, -1);  /* + alone: a bonus turn, unnumbered */
	assert_true(rec->moves[3].bonus);
	assert_int_equal(rec->moves[4].turn, 3);

	/* malformed marks */
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1 red U -1,0 90\n"
			     "2.green E 0,1 180\n"
			     "0. red U 1,0 90\n"
			     "-1. red U 1,0 90\n"));
	assert_true(saw(f, CARC_E020, 2, 1));
	assert_true(saw(f, CARC_E020, 3, 1));
	assert_true(saw(f, CARC_E020, 4, 1));
	assert_true(saw(f, CARC_E021, 5, 1));  /* not a number, so a colour is expected */
	for (size_t i = 0; i < f->rec.nmoves; i++)
		assert_true(f->rec.moves[i].bad);
}

static void test_cgn_claims_and_result(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "[Result \"red 96, green 95\"]\n"
			     "3. red V 1,0 0 farmer NNE = red 0, GREEN 4 ; a claim\n"
			     "4. green K 0,-1 270=green 7\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	assert_true(rec->has_result);
	assert_int_equal(rec->result_count, 2);
	assert_int_equal(rec->claims[rec->result_first].colour, CARC_RED);
	assert_int_equal(rec->claims[rec->result_first + 1].points, 95);
	assert_true(span_is(rec, rec->result_span, "red 96, green 95"));

	const struct carc_move *m = &rec->moves[0];
	assert_true(m->has_claim);
	assert_int_equal(m->claim_count, 2);
	const struct carc_claim *c = &rec->claims[m->claim_first];
	assert_int_equal(c[0].colour, CARC_RED);
	assert_int_equal(c[0].points, 0);
	assert_true(span_is(rec, c[0].span, "red 0"));
	assert_int_equal(c[1].colour, CARC_GREEN);
	assert_int_equal(c[1].points, 4);
	assert_true(span_is(rec, c[1].span, "GREEN 4"));
	assert_true(span_is(rec, c[1].points_span, "4"));
	assert_true(span_is(rec, m->claim_span, "= red 0, GREEN 4"));
	/* no blanks are needed around = */
	assert_true(rec->moves[1].has_claim);
	assert_int_equal(rec->claims[rec->moves[1].claim_first].points, 7);

	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1,0 90 = red 0 green 0\n"
			     "2. green E 0,1 180 = green\n"
			     "3. red U 1,0 90 = red 1, red 2\n"
			     "4. green U 2,0 90 = blue -3\n"));
	assert_true(saw(f, CARC_E027, 2, 26));   /* a missing comma */
	assert_true(saw(f, CARC_E027, 3, 22));   /* no points */
	assert_true(saw(f, CARC_E027, 4, 26));   /* red twice */
	assert_true(saw(f, CARC_E027, 5, 26));   /* points are not negative */
	assert_int_equal(f->seen.n, 4);
}

static void test_cgn_discard(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "5. red X DISCARD = red 2\n"
			     "5. red U -1,0 90\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	assert_true(rec->moves[0].discard);
	assert_true(span_is(rec, rec->moves[0].coord_span, "DISCARD"));
	assert_true(rec->moves[0].has_claim);
	assert_int_equal(rec->moves[0].turn, 5);
	assert_false(rec->moves[1].discard);
	assert_int_equal(rec->moves[1].turn, 5);  /* the same number again */

	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red X discard thief N\n"));
	assert_true(saw(f, CARC_E028, 2, 18));
}

static void test_cgn_deployments(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1,0 90 thief E\n"
			     "2. green V 1,0 0 Farmer nne\n"
			     "3. red E 0,1 180 -\n"
			     "4. green B 0,-1 0 monk C\n"
			     "5. red U -2,0 90\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	const struct carc_ruleset *rs = rec->rules;
	assert_string_equal(rs->roles[rec->moves[0].role].name, "thief");
	assert_int_equal(rec->moves[0].spot, CARC_SPOT_E);
	assert_true(span_is(rec, rec->moves[0].deploy_span, "thief E"));
	assert_true(span_is(rec, rec->moves[0].role_span, "thief"));
	assert_true(span_is(rec, rec->moves[0].spot_span, "E"));
	assert_string_equal(rs->roles[rec->moves[1].role].name, "farmer");
	assert_int_equal(rec->moves[1].spot, CARC_SPOT_NNE);
	assert_int_equal(rec->moves[2].role, -1);         /* "-": no deployment */
	assert_true(span_is(rec, rec->moves[2].deploy_span, "-"));
	assert_int_equal(rec->moves[3].spot, CARC_SPOT_C);
	assert_int_equal(rec->moves[4].role, -1);         /* nothing: no deployment */
	assert_int_equal(rec->moves[4].deploy_span.len, 0);

	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1,0 90 robber E\n"
			     "2. green U 1,0 90 thief X\n"
			     "3. red U 2,0 90 thief\n"
			     "4. green U 3,0 90 E thief\n"
			     "5. red U 4,0 90 thief E ; fine\n"));
	assert_true(saw(f, CARC_E025, 2, 18));
	assert_true(saw(f, CARC_E026, 3, 25));
	assert_true(saw(f, CARC_E029, 4, 22));  /* just after the role */
	assert_true(saw(f, CARC_E025, 5, 19));  /* the spot before the role */
	assert_int_equal(f->seen.n, 4);
	assert_false(f->rec.moves[4].bad);
}

static void test_cgn_order_in_solo_games(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Rules \"solo\"]\n"
			     "[Seats \"red green blue\"]\n"
			     "[EndOrder \"0,1:N -2,0:c\"]\n"
			     "1. red U -1,0 90 thief E order E 0,1:C\n"
			     "2. green E 0,1 180 order N\n"));
	const struct carc_record *rec = &f->rec;
	assert_int_equal(f->seen.n, 0);
	const struct carc_move *m = &rec->moves[0];
	assert_true(m->has_order);
	assert_int_equal(m->order_count, 2);
	const struct carc_order_item *it = &rec->order[m->order_first];
	assert_false(it[0].has_coord);
	assert_int_equal(it[0].spot, CARC_SPOT_E);
	assert_true(it[1].has_coord);
	assert_int_equal(it[1].x, 0);
	assert_int_equal(it[1].y, 1);
	assert_int_equal(it[1].spot, CARC_SPOT_C);
	assert_true(span_is(rec, it[1].span, "0,1:C"));
	assert_true(rec->moves[1].has_order);       /* order without a deployment */
	assert_int_equal(rec->moves[1].role, -1);
	assert_true(rec->has_end_order);
	assert_int_equal(rec->end_order_count, 2);
	it = &rec->order[rec->end_order_first];
	assert_int_equal(it[1].x, -2);
	assert_int_equal(it[1].spot, CARC_SPOT_C);

	/* order is solo-only; EndOrder needs positions */
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1,0 90 thief E order E\n"));
	assert_true(saw(f, CARC_E028, 2, 26));
	assert_true(parse(f, "[Rules \"solo\"]\n"
			     "[EndOrder \"0,1:N C\"]\n"
			     "1. red U -1,0 90 order\n"
			     "2. green U 1,0 90 order 1,1:Q\n"));
	assert_true(saw(f, CARC_E030, 2, 18));
	assert_true(saw(f, CARC_E029, 3, 18));
	assert_true(saw(f, CARC_E026, 4, 25));
}

static void test_cgn_token_spans(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "  12. green  K 0,-1 270  knight W = green 3   ; note\n"));
	const struct carc_record *rec = &f->rec;
	const struct carc_move *m = &rec->moves[0];
	assert_int_equal(f->seen.n, 0);
	assert_true(span_is(rec, m->number, "12."));
	assert_true(span_is(rec, m->colour_span, "green"));
	assert_true(span_is(rec, m->tile_span, "K"));
	assert_true(span_is(rec, m->coord_span, "0,-1"));
	assert_true(span_is(rec, m->rot_span, "270"));
	assert_true(span_is(rec, m->deploy_span, "knight W"));
	assert_true(span_is(rec, m->claim_span, "= green 3"));
	/* the line: from its first token to its last, without the comment */
	assert_true(span_is(rec, m->line, "12. green  K 0,-1 270  knight W = green 3"));
	assert_int_equal(m->x, 0);
	assert_int_equal(m->y, -1);
	assert_int_equal(m->rot, 3);
	assert_string_equal(rec->tileset->tiles[m->tile].id, "K");
	/* offsets count from the start of the game's text */
	assert_int_equal(m->number.off, strlen("[Seats \"red green\"]\n  "));
}

static void test_cgn_bad_positions_and_rotations(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1.0 90\n"
			     "2. green U 1, 0 90\n"
			     "3. red U +1,0 90\n"
			     "4. green U 1,0 090\n"
			     "5. red U 1,0 -90\n"
			     "6. green U 1000001,0 0\n"
			     "7. red Z 1,0 0\n"
			     "8. green U 1,0\n"));
	assert_true(saw(f, CARC_E023, 2, 10));
	assert_true(saw(f, CARC_E023, 3, 12));
	assert_true(saw(f, CARC_E023, 4, 10));
	assert_true(saw(f, CARC_E024, 5, 16));  /* exactly 0, 90, 180 or 270 */
	assert_true(saw(f, CARC_E024, 6, 14));
	assert_true(saw(f, CARC_E023, 7, 12));
	assert_true(saw(f, CARC_E022, 8, 8));
	assert_true(saw(f, CARC_E029, 9, 15));
	assert_int_equal(f->seen.n, 8);
}

static void test_cgn_every_error_reported_then_next_game(void **state)
{
	struct fixture *f = *state;
	static const char text[] = "[Seats \"red green\"]\n"
				   "1. red U -1,0 45\n"
				   "2. purple E 0,1 180\n"
				   "3. red U 1,0 90 thief E extra\n"
				   "[Event \"next\"]\n"
				   "1. red U -1,0 90\n";
	FILE *in = stream_of(text);
	struct carc_reader *r = carc_reader_new(in, "s.cgn", f->cache, carc_rules_registry());
	memset(&f->seen, 0, sizeof f->seen);
	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->seen.n, 3);
	assert_true(saw(f, CARC_E024, 2, 15));
	assert_true(saw(f, CARC_E021, 3, 4));
	assert_true(saw(f, CARC_E028, 4, 25));
	assert_int_equal(f->rec.syntax_errors, 3);
	assert_int_equal(f->rec.header_errors, 0);
	assert_int_equal(f->rec.nmoves, 3);
	for (int i = 0; i < 3; i++)
		assert_true(f->rec.moves[i].bad);
	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->rec.syntax_errors, 0);
	assert_false(f->rec.moves[0].bad);
	assert_false(carc_reader_next(r, &f->rec, &f->sink));
	carc_reader_free(r);
	fclose(in);
}

static void test_cgn_unclosed_brace_ends_with_its_line(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "[Seats \"red green\"]\n"
			     "1. red U -1,0 90 { forgot to close\n"
			     "2. green E 0,1 180\n"));
	assert_int_equal(f->seen.n, 1);
	assert_true(saw(f, CARC_E004, 2, 18));
	assert_int_equal(f->rec.nmoves, 2);
	assert_false(f->rec.moves[0].bad);  /* the turn before the { is whole */
	assert_int_equal(f->rec.moves[1].colour, CARC_GREEN);
}

/* A '}' more than 65536 bytes after its '{' does not close it (E004), and
 * the lines after the '{' are read: whether the reader has that '}' in its
 * buffer already (all of the text, as here) or not (a stream read in
 * blocks) makes no difference. Before, a '}' in the buffer closed the
 * comment at any distance, and the line then ran past 65536 bytes (E003). */
static void test_cgn_brace_closed_too_far_is_open(void **state)
{
	struct fixture *f = *state;
	struct carc_buf text = {0};
	carc_buf_adds(&text, "[Seats \"red green\"]\n1. red U -1,0 90 { opens\n");
	for (int i = 0; i < 8000; i++)
		carc_buf_adds(&text, "; filler\n"); /* 72,000 bytes */
	carc_buf_adds(&text, "; } closes\n2. green E 0,1 180\n");
	for (int way = 0; way < 2; way++) {
		memset(&f->seen, 0, sizeof f->seen);
		if (way == 0) {
			assert_true(carc_parse_string(text.data, text.len, "t.cgn", f->cache, carc_rules_registry(),
						      &f->rec, &f->sink));
		} else {
			FILE *in = fmemopen(text.data, text.len, "r");
			struct carc_reader *r = carc_reader_new(in, "t.cgn", f->cache, carc_rules_registry());
			assert_true(carc_reader_next(r, &f->rec, &f->sink));
			carc_reader_free(r);
			fclose(in);
		}
		assert_int_equal(f->seen.n, 1);
		assert_true(saw(f, CARC_E004, 2, 18));
		assert_int_equal(f->rec.nmoves, 2);
		assert_false(f->rec.moves[0].bad);
		assert_int_equal(f->rec.moves[1].colour, CARC_GREEN);
	}
	/* within 65536 bytes it closes: the line is then too long (E003) */
	carc_buf_reset(&text);
	carc_buf_adds(&text, "[Seats \"red green\"]\n1. red U -1,0 90 {");
	for (int i = 0; i < 7280; i++)
		carc_buf_adds(&text, " filler\n\n"); /* 65,520 bytes */
	/* closed 65,521 bytes after the {, in a line of 65,539 bytes */
	carc_buf_adds(&text, "}\n2. green E 0,1 180\n");
	assert_true(parse(f, text.data));
	assert_int_equal(f->seen.n, 1);
	assert_true(saw(f, CARC_E003, 2, 1));
	assert_int_equal(f->rec.nmoves, 2);
	assert_true(f->rec.moves[0].bad);
	unsigned line, col;
	carc_src_position(&f->rec.src, f->rec.moves[1].tile_span.off, &line, &col);
	assert_int_equal(line, 2 + 2 * 7280 + 1);
	carc_buf_free(&text);
}

static void test_cgn_faulty_comment_line_stays_with_its_game(void **state)
{
	struct fixture *f = *state;
	/* the { line is reported with game 1, so it must not move to game 2,
	 * which would then have an error nobody reported for it */
	static const char text[] = "1. red U -1,0 90\n; fine\n{ unclosed\n; after\n[Event \"two\"]\n";
	FILE *in = stream_of(text);
	struct carc_reader *r = carc_reader_new(in, "s.cgn", f->cache, carc_rules_registry());
	memset(&f->seen, 0, sizeof f->seen);
	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_true(saw(f, CARC_E004, 3, 1));
	assert_int_equal(f->rec.syntax_errors, 1);
	assert_int_equal(f->rec.ncomments, 2);    /* "; fine" and the { line */
	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->rec.syntax_errors, 0);
	assert_int_equal(f->rec.ncomments, 1);    /* "; after" */
	assert_true(span_is(&f->rec, f->rec.comments[0].span, "; after"));
	assert_int_equal(f->rec.src.base_line, 4);
	carc_reader_free(r);
	fclose(in);
}

static void test_cgn_long_line_cut(void **state)
{
	struct fixture *f = *state;
	size_t n = 200000;
	char *text = malloc(n + 200);
	int k = snprintf(text, n + 200, "[Seats \"red green\"]\n1. red U -1,0 90 ; ");
	memset(text + k, 'x', n);
	strcpy(text + k + n, "\n2. green E 0,1 180\n");
	FILE *in = stream_of(text);
	struct carc_reader *r = carc_reader_new(in, "s.cgn", f->cache, carc_rules_registry());
	memset(&f->seen, 0, sizeof f->seen);
	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->seen.n, 1);
	assert_true(saw(f, CARC_E003, 2, 1));
	assert_int_equal(f->rec.nmoves, 2);
	assert_true(f->rec.moves[0].bad);           /* the cut turn is not refereed */
	assert_false(f->rec.moves[1].bad);
	unsigned line, col;
	carc_src_position(&f->rec.src, f->rec.moves[1].tile_span.off, &line, &col);
	assert_int_equal(line, 3);
	/* the reader did not keep the long line */
	assert_true(carc_reader_memory(r) < n);
	carc_reader_free(r);
	fclose(in);
	free(text);
}

static void test_cgn_binary_input_given_up(void **state)
{
	struct fixture *f = *state;
	static const char text[] = "[Seats \"red green\"]\n1. red U\0 -1,0 90\n2. green E 0,1 180\n[Event \"x\"]\n";
	FILE *in = fmemopen((void *)text, sizeof text - 1, "r");
	struct carc_reader *r = carc_reader_new(in, "s.cgn", f->cache, carc_rules_registry());
	memset(&f->seen, 0, sizeof f->seen);
	assert_true(carc_reader_next(r, &f->rec, &f->sink));
	assert_int_equal(f->seen.n, 1);
	assert_true(saw(f, CARC_E002, 2, 9));
	assert_int_equal(f->rec.nmoves, 1);         /* the rest is skipped */
	assert_true(f->rec.header_errors > 0);
	assert_false(carc_reader_next(r, &f->rec, &f->sink));
	carc_reader_free(r);
	fclose(in);
}

static void test_cgn_byte_order_mark_skipped(void **state)
{
	struct fixture *f = *state;
	assert_true(parse(f, "\xef\xbb\xbf[Event \"x\"]\n1. red U -1,0 9\n"));
	assert_string_equal(carc_record_tag(&f->rec, CARC_TAG_EVENT), "x");
	assert_true(saw(f, CARC_E024, 2, 15));
}

/* Reading many games: the reader's memory and the record's arrays stay at
 * what the largest game needs. */
static void test_cgn_memory_bounded_over_many_games(void **state)
{
	struct fixture *f = *state;
	static const char game[] = "[Event \"game\"]\n[Seats \"red green\"]\n\n"
				   "1. red U -1,0 90 thief E\n2. green E 0,1 180 knight S = red 0, green 4\n"
				   "3. red V 1,0 0 farmer NNE ; a comment\n4. green K 0,-1 270 knight W\n\n";
	size_t games = 30000, len = strlen(game);
	char *text = malloc(games * len + 1);
	for (size_t i = 0; i < games; i++)
		memcpy(text + i * len, game, len);
	FILE *in = fmemopen(text, games * len, "r");
	struct carc_reader *r = carc_reader_new(in, "many.cgn", f->cache, carc_rules_registry());
	size_t mem_early = 0, moves_cap = 0, claims_cap = 0, n = 0;
	while (carc_reader_next(r, &f->rec, &f->sink)) {
		n++;
		assert_int_equal(f->rec.nmoves, 4);
		assert_int_equal(f->rec.index, n);
		if (n == 100) {
			mem_early = carc_reader_memory(r);
			moves_cap = f->rec.moves_cap;
			claims_cap = f->rec.claims_cap;
		}
	}
	assert_int_equal(n, games);
	assert_int_equal(f->sink.errors, 0);
	assert_true(mem_early > 0);
	assert_int_equal(carc_reader_memory(r), mem_early);
	assert_true(carc_reader_memory(r) <= 4 * 65536);
	assert_int_equal(f->rec.moves_cap, moves_cap);
	assert_int_equal(f->rec.claims_cap, claims_cap);
	carc_reader_free(r);
	fclose(in);
	free(text);
}

static void test_cgn_parse_string_keeps_its_text(void **state)
{
	struct fixture *f = *state;
	struct carc_record other = {0};
	char text[] = "[Event \"first\"]\n1. red U -1,0 90\n";
	assert_true(carc_parse_string(text, strlen(text), "a.cgn", f->cache, carc_rules_registry(), &other, &f->sink));
	memset(text, 'z', sizeof text - 1);  /* the caller's text is not needed */
	assert_true(parse(f, "[Event \"second\"]\n1. green E 0,1 180\n"));
	assert_true(span_is(&other, other.moves[0].colour_span, "red"));
	assert_true(span_is(&f->rec, f->rec.moves[0].colour_span, "green"));
	carc_record_free(&other);
	/* no game in text */
	assert_false(parse(f, "\n\n   \n"));
}

/* The reader finds a tag's name, and whether it is a known one, its own
 * way (by words of bytes and a hashed table): it must find the name that
 * carc_tag_lookup is given, whatever its case and length. */
static void test_cgn_tag_names_found_as_carc_tag_lookup_finds_them(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = {
		"Event", "EVENT", "event", "Even", "Events", "Event1", "Event_", "Site", "Date", "Round", "Rules",
		"Tileset", "TILESET", "Tilesets", "Edition", "Seats", "Followers", "FOLLOWERS", "Followerz", "Follower",
		"Followersx", "Followers_", "Huts", "Start", "Table", "EndOrder", "endorder", "EndOrderx", "Result",
		"Red", "red", "Redd", "Re", "R", "Green", "Blue", "Yellow", "Black", "Gray", "Grey", "GREY", "Gre",
		"Greyy", "Pink", "P1nk", "Venue", "x", "X_1", "Tileset0123456789", "abcdefghijklmnop",
		"abcdefghijklmnopq", "A_very_long_tag_name_of_40_bytes_or_so_x"};
	char text[128];
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		snprintf(text, sizeof text, "[%s \"1\"]\n", names[k]);
		assert_true(parse(f, text));
		const struct carc_record *rec = &f->rec;
		assert_int_equal(rec->ntags, 1);
		assert_true(span_is(rec, rec->tags[0].name, names[k]));
		int id = carc_tag_lookup(names[k], strlen(names[k]));
		for (int i = 0; i < CARC_TAG_UNKNOWN; i++)
			assert_int_equal(rec->tag_index[i], i == id ? 0 : -1);
	}
}

/* What carc_colour_lookup is to give: the names, in any case, and Grey. */
static int colour_by_names(const char *p, size_t len)
{
	static const char *const names[] = {"red", "green", "blue", "yellow", "black", "gray", "pink", "grey"};
	for (int i = 0; i < 8; i++) {
		bool same = strlen(names[i]) == len;
		for (size_t k = 0; k < len && same; k++)
			same = p[k] == names[i][k] || (p[k] >= 'A' && p[k] <= 'Z' && p[k] - 'A' + 'a' == names[i][k]);
		if (same)
			return i < 7 ? i : CARC_GRAY;
	}
	return -1;
}

/* carc_colour_lookup compares a word with one name, chosen by a hash of
 * it: colour names altered every way (case, length, bytes of all kinds)
 * must get the same answer as from a comparison with every name. */
static void test_cgn_colour_lookup_as_by_names(void **state)
{
	(void)state;
	static const char *const names[] = {"red", "green", "blue", "yellow", "black", "gray", "pink", "grey"};
	static const char bytes[] = "redgrnbluyowackpiREDGRNBLUYOWACKPI@`[{_0 \x7f\x80\xc5\xe5\x01";
	uint64_t seed = 12345;
	char w[16];
	for (int n = 0; n < 200000; n++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		const char *name = names[(seed >> 33) % 8];
		size_t len = strlen(name);
		memcpy(w, name, len);
		for (int changes = (int)(seed >> 40) % 4; changes > 0; changes--) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			size_t at = (seed >> 33) % len;
			switch ((seed >> 50) % 4) {
			case 0: w[at] = (char)(w[at] ^ 0x20); break;           /* case, or not a letter */
			case 1: w[at] = bytes[(seed >> 20) % (sizeof bytes - 1)]; break;
			case 2: if (len < 8) w[len++] = bytes[(seed >> 20) % (sizeof bytes - 1)]; break;
			case 3: if (len > 1) len--; break;
			}
		}
		assert_int_equal(carc_colour_lookup(w, len), colour_by_names(w, len));
	}
}

static void test_cgn_lookups(void **state)
{
	(void)state;
	assert_int_equal(carc_colour_lookup("Yellow", 6), CARC_YELLOW);
	assert_int_equal(carc_colour_lookup("GREY", 4), CARC_GRAY);
	assert_int_equal(carc_colour_lookup("gre", 3), -1);
	assert_int_equal(carc_colour_lookup("redd", 4), -1);
	assert_int_equal(carc_spot_lookup("wnw", 3), CARC_SPOT_WNW);
	assert_int_equal(carc_spot_lookup("c", 1), CARC_SPOT_C);
	assert_int_equal(carc_spot_lookup("NE", 2), -1);
	for (int i = 0; i < CARC_SPOT_COUNT; i++)
		assert_int_equal(carc_spot_lookup(carc_spot_name(i), strlen(carc_spot_name(i))), i);
	for (int i = 0; i < CARC_COLOURS; i++)
		assert_int_equal(carc_colour_lookup(carc_colour_name(i), strlen(carc_colour_name(i))), i);
	for (int i = 0; i < CARC_TAG_UNKNOWN; i++)
		assert_int_equal(carc_tag_lookup(carc_tag_name(i), strlen(carc_tag_name(i))), i);
	assert_int_equal(carc_tag_lookup("endorder", 8), CARC_TAG_ENDORDER);
	assert_int_equal(carc_tag_lookup("Venue", 5), CARC_TAG_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cgn_tags_known_unknown_and_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_tag_values_unescaped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_bad_tags_reported_and_block_refereeing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_followers_and_huts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_expansions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_comments_anywhere, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_comment_then_tag_or_turn_on_one_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_several_games_in_one_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_turn_marks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_claims_and_result, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_discard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_deployments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_order_in_solo_games, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_token_spans, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_bad_positions_and_rotations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_every_error_reported_then_next_game, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_unclosed_brace_ends_with_its_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_brace_closed_too_far_is_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_faulty_comment_line_stays_with_its_game, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_long_line_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_binary_input_given_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_byte_order_mark_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_memory_bounded_over_many_games, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_parse_string_keeps_its_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgn_tag_names_found_as_carc_tag_lookup_finds_them, setup, teardown),
		cmocka_unit_test(test_cgn_colour_lookup_as_by_names),
		cmocka_unit_test(test_cgn_lookups),
	};
	return cmocka_run_group_tests_name("cgn", tests, NULL, NULL);
}
