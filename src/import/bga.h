/*
 * bga.h - Board Game Arena's Carcassonne: tile types, meeple positions, and
 * replay logs into CGN.
 *
 * BGA numbers the 24 base tile types 1 to 24 and pictures some of them
 * turned from the base tile set's pictures; it names the place of a meeple
 * on a tile by a small number per type (its zone). The table in bga.c says,
 * for each BGA type, the base tile's letter, the quarter turns clockwise
 * that take the base picture to BGA's, and for each zone the spot (in the
 * base picture's orientation) of the feature the zone stands for. These
 * facts serve both the replay-log importer here and the CarcassonneLab URL
 * reader and writer (clab.h), which use BGA's numbers too.
 *
 * Positions: BGA's y grows to the south, CGN's to the north; both put the
 * start tile at 0,0. Rotations: BGA's ori 1-4 is 0, 90, 180 or 270 degrees
 * clockwise from BGA's picture, so CGN's rotation is (turn + ori - 1)
 * quarter turns. The mapping of every log event is notation/bga.md.
 */
#ifndef CARC_BGA_H
#define CARC_BGA_H

#include "common/diag.h"
#include "notation/tileset.h"

#include <stdbool.h>
#include <stdint.h>

#define CARC_BGA_TYPES 24
#define CARC_BGA_MAX_POS 8

/* One BGA tile type. */
struct carc_bga_type {
	uint8_t type;    /* 1-24 */
	char letter;     /* the base tile set's id */
	uint8_t turn;    /* BGA's picture is the base picture turned this many quarters clockwise */
	/* zone -> spot in the base picture, blank-separated from zone 1; "-" for
	 * a zone number the type does not use */
	const char *zones;
};

/* The BGA type numbered type (1-24), or NULL. */
const struct carc_bga_type *carc_bga_type(long type);
/* The BGA type of a base tile letter, or NULL. */
const struct carc_bga_type *carc_bga_type_of(char letter);

/* The feature of the base tile of bt (in ts) that meeple zone pos stands for,
 * or -1 when the type has no such zone. */
int carc_bga_zone_feature(const struct carc_tileset *ts, const struct carc_bga_type *bt, long pos);
/* The zone of feature f of the base tile of bt, or 0 when none names it. */
int carc_bga_feature_zone(const struct carc_tileset *ts, const struct carc_bga_type *bt, int f);
/* The tile index in ts of bt's letter, or -1. */
int carc_bga_tile(const struct carc_tileset *ts, const struct carc_bga_type *bt);

/* The spot that names feature f of tile t turned rot quarter turns in a
 * record: its first edge clockwise from N, else its first half-edge
 * clockwise from NNW, else C. */
int carc_bga_spot(const struct carc_tile *t, int rot, int f);
/* The feature of tile t turned rot at board spot, or -1. */
int carc_bga_spot_feature(const struct carc_tile *t, int rot, int spot);
struct carc_ruleset;
/* The role of rule set rs that stands on features of kind (a tile-set kind
 * name: "city"), or -1. */
int carc_bga_role(const struct carc_ruleset *rs, const char *kind);
/* The CGN colour of a BGA colour ("ff0000", with or without '#'), or -1. */
int carc_bga_colour(const char *hex, size_t len);

/* Appends the tag line [name "value"], value escaped, control characters
 * blanked. */
void carc_bga_add_tag(struct carc_buf *b, const char *name, const char *value);

/* Appends one comment line, "; " and the formatted text and a newline, with
 * the text shown as a message is (carc_text_shown: control and bidirectional
 * characters blanked, bytes that are not UTF-8 as '?'), so that nothing an
 * input names (a file name, an application's version) can end the comment
 * and write tags or turns of its own. Every importer writes its comments
 * through it. */
void carc_import_comment(struct carc_buf *b, const char *fmt, ...) CARC_PRINTF(2, 3);

struct carc_tileset_cache;
/* Reads the CGN an importer wrote back and appends it to out in canonical
 * form; reports at the start of src (the input) and returns false if it
 * does not read back, which would be a bug. */
bool carc_bga_finish(const struct carc_buf *cgn, struct carc_tileset_cache *cache, struct carc_buf *out,
		     const struct carc_src *src, struct carc_diag_sink *sink);

/* Converts the BGA replay log (JSON) of src into one game of canonical CGN,
 * appended to out. name is shown in the record's opening comment (NULL:
 * none). Every problem is reported to sink (codes E520-E525, located in the
 * JSON); returns false, appending nothing, when the log cannot be converted. */
bool carc_bga_import(const struct carc_src *src, const char *name, struct carc_buf *out,
		     struct carc_diag_sink *sink);

#endif
