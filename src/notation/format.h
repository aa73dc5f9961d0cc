/*
 * format.h - writing a record in canonical CGN (carc fmt, carc gen).
 *
 * Canonical form: the known tags in a fixed order (man cgn(5)), then the
 * players' names in seat order, then unknown tags as they came; a blank
 * line; one turn per line with the turn number filled in and the columns
 * aligned; lower-case colours and roles, upper-case spots; claims and the
 * Result in seat order; comments kept where they were. Formatting a
 * canonical record changes nothing.
 */
#ifndef CARC_FORMAT_H
#define CARC_FORMAT_H

#include "notation/record.h"

/* Appends the canonical text of rec (a game without syntax errors). */
void carc_format_record(const struct carc_record *rec, struct carc_buf *out);

#endif
