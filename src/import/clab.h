/*
 * clab.h - CarcassonneLab replay URLs: read into CGN, and written from it.
 *
 * Tournament sites publish Board Game Arena games as CarcassonneLab URLs:
 *   https://www.carcassonnelab.com/#/0/0/STACK/MOVES?players=A,B&colors=red,blue
 * STACK is the BGA tile types of the start tile and of each placed tile, as
 * one number in base 24 written in base64url; MOVES is four characters a
 * turn (column, row, rotation with the signs of the position, meeple zone).
 * Players alternate in the order of `players`. A game with discarded tiles
 * has "#/0/0.K1.K2/", Ki the tiles placed before the i-th discard, and its
 * stack holds the discarded tiles too. The URL carries no scores and no game
 * options. The encoding is notation/bga.md.
 */
#ifndef CARC_CLAB_H
#define CARC_CLAB_H

#include "common/diag.h"
#include "notation/record.h"

#include <stdbool.h>

/* Converts the text of src, one URL a line (blank lines and lines that
 * begin with '#' are skipped), into one game of canonical CGN per URL,
 * appended to out with a blank line between games. name is shown in each
 * record's opening comment (NULL: none). Problems are reported to sink
 * (codes E530-E533, located in src); returns false, appending nothing,
 * when any URL cannot be converted. */
bool carc_clab_import(const struct carc_src *src, const char *name, struct carc_buf *out,
		      struct carc_diag_sink *sink);

/* The same one URL at a time, for a file of any number of them: each URL
 * is converted on its own and its game (canonical CGN, without the blank
 * line between games) handed to game(ctx, cgn, len) at once, so memory
 * holds one game, not the file's; a URL that cannot be converted is
 * reported and the next one read. Returns false when any could not (or the
 * input holds none). */
bool carc_clab_import_each(const struct carc_src *src, const char *name,
			   void (*game)(void *ctx, const char *cgn, size_t len), void *ctx,
			   struct carc_diag_sink *sink);

/* Appends the URL of the game rec (a base game without syntax errors) and a
 * newline to out. Whatever the URL cannot carry (another rule set, tile
 * set, start tile, edition, follower count or table; a colour
 * or a position it has no character for; a turn out of seat order) is
 * reported to sink as E540 at its place in the record, and false returned
 * with nothing appended. Claims, Result and the other tags are left out. */
bool carc_clab_export(const struct carc_record *rec, struct carc_buf *out, struct carc_diag_sink *sink);

#endif
