/*
 * gameid.h - a game's identity: a 128-bit hash of its canonical content.
 *
 * Two records of the same game have the same id whatever file, byte offset
 * or split of a file they come from, and however they are laid out: line
 * endings, spaces and alignment, comments, the case of colours, roles,
 * spots and known tag names, the order of the tags and of the colours in a
 * claim, and turn numbers left out where carc fmt would fill them in do not
 * change it. What does: every tag's value (unknown tags too), every turn's
 * colour, tile (as written), place, rotation, deployment, solo order and
 * claims. So a record and its `carc fmt` form share the id. A line with a
 * syntax error counts by its text, spaces collapsed. notation/reports.md
 * defines it in full.
 *
 * The hash is not cryptographic: it keeps apart games that differ by
 * accident (two of a billion games share an id with odds of about 1 in
 * 10^20), not games made to collide on purpose.
 */
#ifndef CARC_GAMEID_H
#define CARC_GAMEID_H

#include "notation/record.h"

#include <stdint.h>

#define CARC_GAME_ID_HEX 32 /* characters of the hexadecimal form */

struct carc_game_id {
	uint64_t hi, lo;
};

/* The id of a parsed record (rec as carc_reader_next or carc_parse_string
 * left it). Costs one pass over its tags and turns; allocates nothing. */
struct carc_game_id carc_game_id(const struct carc_record *rec);

/* The id as 32 lower-case hexadecimal digits and a NUL; returns out. */
char *carc_game_id_hex(struct carc_game_id id, char out[CARC_GAME_ID_HEX + 1]);

#endif
