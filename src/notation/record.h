/*
 * record.h - a game record as parsed from CGN: tags, turns, claims, comments.
 *
 * The record keeps every token's place in the source (a span of byte offsets
 * into the game's text), so the referee can point at the exact word it
 * objects to. It is syntax only: whether a move is legal is the referee's
 * business. Arrays are reused from game to game, so reading a file of a
 * million games needs no more memory than its largest game.
 */
#ifndef CARC_RECORD_H
#define CARC_RECORD_H

#include "common/diag.h"
#include "notation/ruleset.h"
#include "notation/tileset.h"

#include <stdint.h>

enum carc_colour {
	CARC_RED, CARC_GREEN, CARC_BLUE, CARC_YELLOW, CARC_BLACK, CARC_GRAY, CARC_PINK,
	CARC_COLOURS
};
#define CARC_NO_COLOUR 0xff

const char *carc_colour_name(int colour);           /* "red" */
int carc_colour_lookup(const char *p, size_t len);  /* case-insensitive, -1 if none */

/* Spots: where on the placed tile a follower stands, in board orientation. */
enum {
	CARC_SPOT_NNW, CARC_SPOT_NNE, CARC_SPOT_ENE, CARC_SPOT_ESE,
	CARC_SPOT_SSE, CARC_SPOT_SSW, CARC_SPOT_WSW, CARC_SPOT_WNW, /* 0-7: half-edges */
	CARC_SPOT_N, CARC_SPOT_E, CARC_SPOT_S, CARC_SPOT_W,         /* 8-11: edges */
	CARC_SPOT_C,                                                /* 12: centre */
	CARC_SPOT_I,                                                /* 13: the inner area: a field that touches no edge */
	CARC_SPOT_COUNT
};
const char *carc_spot_name(int spot);
int carc_spot_lookup(const char *p, size_t len); /* case-insensitive, -1 if none */

struct carc_span {
	uint32_t off;
	uint32_t len;
};

struct carc_claim {
	uint8_t colour;
	int32_t points;
	struct carc_span span;      /* "red 12" */
	struct carc_span points_span;
};

/* One entry of a solo "order" list: a spot on the placed tile, or x,y:C. */
struct carc_order_item {
	bool has_coord;
	int32_t x, y;
	uint8_t spot;
	struct carc_span span;
};

struct carc_move {
	struct carc_span line;     /* the whole line, comments excluded */
	struct carc_span number;   /* "12." or "12+": len 0 when absent */
	int32_t turn;              /* the number written, -1 when absent */
	bool bonus;                /* written with "+" */
	bool discard;
	bool bad;                  /* the line had a syntax error: not refereed */
	uint8_t colour;
	struct carc_span colour_span;
	uint16_t tile;
	struct carc_span tile_span;
	int32_t x, y;
	struct carc_span coord_span;
	uint8_t rot;               /* quarter turns clockwise, 0-3 */
	struct carc_span rot_span;
	int8_t role;               /* index into the rule set's roles, -1 for none */
	int8_t recall;             /* "return ROLE": the role of the figure taken back instead of
				      deploying (carc_role.recall; role_span names it), -1 for none */
	struct carc_span role_span;
	uint8_t spot;
	struct carc_span spot_span;
	struct carc_span deploy_span; /* "knight N", "return abbot", or "-" */
	bool has_order, has_claim;
	uint16_t order_count, claim_count; /* (a line holds at most a few hundred) */
	uint32_t order_first, claim_first; /* into the record's order and claims: a game may
					      hold more than 65536 of them */
	struct carc_span claim_span;
};

_Static_assert(offsetof(struct carc_move, recall) == offsetof(struct carc_move, role) + 1,
	       "the fast path writes a move's role and recall as one word");

struct carc_tag {
	struct carc_span span;   /* the whole tag */
	struct carc_span name;
	struct carc_span value;  /* between the quotes */
	uint32_t text;           /* offset of the unescaped value in record text arena */
	uint32_t text_len;
	uint32_t line;           /* its line in the file */
};

enum carc_comment_place { CARC_BEFORE_TAG, CARC_AFTER_TAG, CARC_BEFORE_MOVE, CARC_AFTER_MOVE };

struct carc_comment {
	struct carc_span span;   /* including ; or { } */
	uint8_t place;           /* enum carc_comment_place */
	uint32_t index;          /* the tag or move it belongs to */
};

/* Known tags, in canonical order. */
enum carc_tag_id {
	CARC_TAG_EVENT, CARC_TAG_SITE, CARC_TAG_DATE, CARC_TAG_ROUND, CARC_TAG_RULES,
	CARC_TAG_TILESET, CARC_TAG_EDITION, CARC_TAG_SEATS, CARC_TAG_FOLLOWERS, CARC_TAG_HUTS,
	CARC_TAG_START, CARC_TAG_TABLE, CARC_TAG_ENDORDER, CARC_TAG_RESULT,
	CARC_TAG_EXPANSIONS, /* the ids before it are in game ids as they were (gameid.c) */
	/* a tournament's record (notation/cgn.md, "Tournaments"); numbered in
	 * game ids after Expansions */
	CARC_TAG_BOARD, CARC_TAG_MATCH, CARC_TAG_FORMAT, CARC_TAG_TIME, CARC_TAG_TERMINATION, CARC_TAG_WINNER,
	CARC_TAG_KNOWN, /* colour name tags come next: CARC_TAG_KNOWN + colour */
	CARC_TAG_UNKNOWN = CARC_TAG_KNOWN + CARC_COLOURS
};
const char *carc_tag_name(int id);

/* How a game was decided off the board: the Termination tag. */
enum carc_termination {
	CARC_TERM_NONE,          /* no Termination tag: the scores decide */
	CARC_TERM_BYE,           /* a record of one seat: a win without an opponent */
	CARC_TERM_TIME_FORFEIT,
	CARC_TERM_NO_SHOW,
	CARC_TERM_WITHDRAWAL,
	CARC_TERM_DISQUALIFICATION,
	CARC_TERM_ADMIN_DECISION,
	CARC_TERM_ONE_ZERO,      /* "1-0": a win recorded without points */
	CARC_TERM_COUNT
};
const char *carc_termination_name(int kind);                 /* "time forfeit" */
int carc_termination_lookup(const char *p, size_t len);      /* any case; -1 if none */
int carc_tag_lookup(const char *p, size_t len); /* CARC_TAG_UNKNOWN if not known */

struct carc_record {
	struct carc_src src;     /* the game's text */
	/* the reader dropped bytes of this game to bound its memory (the rest
	 * of a line over 65536 bytes, E003; the rest of the input after E002's
	 * binary data or E031): src is then not the input's bytes, and no copy
	 * of the game (carc filter) may be written from it */
	bool text_cut;
	unsigned index;          /* 1 for the file's first game */
	bool has_moves;

	/* From the tags, with defaults filled in. */
	const struct carc_ruleset *rules;   /* the base rule set */
	const struct carc_ruleset *expansions[CARC_MAX_EXPANSIONS]; /* added to it, in calling order */
	int nexpansions;         /* 0 until a tag names expansions */
	const struct carc_tileset *tileset; /* NULL when it could not be loaded */
	int edition;             /* 1, 2 or 3 */
	int nseats;
	uint8_t seats[CARC_COLOURS];
	bool seats_given;
	int followers;
	int huts;
	int start_tile, start_rot;
	int table_w, table_h;    /* 0 when there is no Table tag */
	bool has_result;
	uint32_t result_first;
	uint16_t result_count;
	struct carc_span result_span;
	/* A tournament's tags (0 / -1 / CARC_NO_COLOUR when absent or wrong). */
	int board;               /* [Board "3"] */
	int format_games;        /* [Format "Bo3"]: 3 */
	int32_t time_of_day;     /* [Time "19:30:00"]: seconds since midnight, -1 */
	uint8_t termination;     /* enum carc_termination */
	uint8_t winner;          /* [Winner "red"]: a colour */
	bool has_end_order;      /* solo: [EndOrder "x,y:SPOT ..."], items in order[] */
	uint32_t end_order_first;
	uint16_t end_order_count;
	int tag_index[CARC_TAG_UNKNOWN]; /* index into tags, -1 when absent */

	struct carc_tag *tags;
	size_t ntags, tags_cap;
	struct carc_move *moves;
	size_t nmoves, moves_cap;
	struct carc_claim *claims;
	size_t nclaims, claims_cap;
	struct carc_order_item *order;
	size_t norder, order_cap;
	struct carc_comment *comments;
	size_t ncomments, comments_cap;
	struct carc_buf text;    /* unescaped tag values */

	bool twins;              /* a turn names a tile set aside that plays as its twin
				    (carc_tileset_find_twin): the referee counts them */
	unsigned syntax_errors;  /* errors reported while parsing this game */
	unsigned read_warnings;  /* warnings reported while parsing it (W003) */
	unsigned header_errors;  /* of those, the ones that keep the game from being
				    refereed: in the tags, or binary data */
	char *own_text;          /* carc_parse_string's copy of the text (src points in) */
	size_t own_cap;          /* its bytes */
};

/* A game whose moves were not recorded: no turn lines, and a Result or a
 * Termination (each read without fault). It is not refereed; its Result is
 * its final score. */
bool carc_record_result_only(const struct carc_record *rec);

/* The unescaped value of a tag (NUL-terminated), or NULL when absent. */
const char *carc_record_tag(const struct carc_record *rec, int tag_id);
const char *carc_tag_text(const struct carc_record *rec, const struct carc_tag *tag);
void carc_record_free(struct carc_record *rec);

/* The reader: streams a CGN file game by game. rules are the rule sets a
 * record may name (carc: carc_rules_registry() of rules/rules.h); they, and
 * the cache, must outlive the reader. */
struct carc_reader;
struct carc_reader *carc_reader_new(FILE *f, const char *name, struct carc_tileset_cache *cache,
				    const struct carc_rulesets *rules);
/* Reads the next game into rec (reusing its arrays). Returns false at the end
 * of the input; rec then holds the comments of what was left when that was
 * comments alone (a file without games), or none. Syntax problems are
 * reported to sink. rec->src stays valid until the next call. */
bool carc_reader_next(struct carc_reader *r, struct carc_record *rec, struct carc_diag_sink *sink);
/* 0, or the errno of the read that failed (the file could not be read to
 * the end). */
int carc_reader_error(const struct carc_reader *r);
/* The byte offset in the input of the text of the record last read (its
 * first line, rec->src.base_line): the same whatever lines were cut. */
uint64_t carc_reader_game_offset(const struct carc_reader *r);
/* For a reader of a part of an input (carc check -j splitting one file):
 * the part starts at line `line` and byte `offset` of the input, after
 * `games` games. Call before the first carc_reader_next. */
void carc_reader_start_at(struct carc_reader *r, unsigned line, uint64_t offset, unsigned games);
/* Whether the reader has dropped text to keep its memory bounded: the rest
 * of a line past 65536 bytes (E003), or of the input after binary data
 * (E002) or after a game past 1 MiB (E031). Records then do not hold all of
 * the file. */
bool carc_reader_lost_text(const struct carc_reader *r);
/* Bytes the reader holds (its buffer and look-ahead): the size of the
 * largest game read so far and a few blocks, whatever the number of games,
 * and so at most about 2 MiB (a game has at most 1 MiB). */
size_t carc_reader_memory(const struct carc_reader *r);
void carc_reader_free(struct carc_reader *r);

/* Adds a turn line (len bytes, no newline) to a record that
 * carc_parse_string read (it owns its text), as the reader would have read
 * it at the end of the game's text: the line and a newline are appended to
 * rec->src (which may move), and the general parser reads it into a new
 * move (marked bad, with its errors reported to sink and counted in
 * syntax_errors, when it is not a turn line). name and rules: as the
 * reader's. Costs the line's length, not the game's (the text grows by
 * doubling). Returns whether the line was read without an error (false,
 * and nothing added, for a record without its own text or rule set, or a
 * line holding a newline). The library plays a game so (src/api). */
bool carc_record_add_turn(struct carc_record *rec, const char *name, const struct carc_rulesets *rules,
			  const char *line, size_t len, struct carc_diag_sink *sink);

/* A deep copy of src into dst (freed first): its arrays and its own text;
 * the tile set and the rule sets are shared. */
void carc_record_copy(struct carc_record *dst, const struct carc_record *src);

/* Plain turn lines are read by a fast path that gives the same record as
 * the general parser; false turns it off (tests compare the two). */
extern bool carc_cgn_fast_turns;

/* Parses the first game of text (tests, the fuzzer, carc gen). Returns false
 * when text holds no game. The record keeps its own copy of the text, so
 * rec->src stays valid until rec is reused or freed. */
bool carc_parse_string(const char *text, size_t len, const char *name, struct carc_tileset_cache *cache,
		       const struct carc_rulesets *rules, struct carc_record *rec, struct carc_diag_sink *sink);
/* The same for a game that was game number games + 1 of its file, from its
 * line `line` on (the library's games, read again from their own text):
 * messages give the file's lines and the game's number. */
bool carc_parse_string_at(const char *text, size_t len, const char *name, struct carc_tileset_cache *cache,
			  const struct carc_rulesets *rules, struct carc_record *rec, struct carc_diag_sink *sink,
			  unsigned line, unsigned games);

#endif
