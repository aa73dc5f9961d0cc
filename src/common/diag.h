/*
 * diag.h - diagnostics: the only way library code reports a problem.
 *
 * Library code never prints. It calls carc_diag_report() with a code from
 * diag_codes.h, the source text and the byte offset of the offending token;
 * the report goes to a sink (a callback) that the command line or a test
 * installs. Line and column are computed only when a message is formatted.
 */
#ifndef CARC_DIAG_H
#define CARC_DIAG_H

#include "common/diag_codes.h"
#include "common/util.h"

#include <stdio.h>

enum carc_severity { CARC_SEV_ERROR, CARC_SEV_WARNING, CARC_SEV_NOTE };

/* A piece of source text that diagnostics point into: a whole tile-set file,
 * or the text of one game within a record file. With no text, a diagnostic
 * is about the file as a whole (it cannot be opened or read) and has no
 * line or column. */
struct carc_src {
	const char *name;  /* file name as given, "-" shown as "<stdin>" */
	const char *text;  /* the bytes; need not be NUL-terminated; NULL: the file as a whole */
	size_t len;
	unsigned base_line; /* line number of text[0], from 1 */
	/* A memo of the last position computed, so that the messages of a game
	 * with an error on every line cost linear time. Zero it (as a compound
	 * literal does) whenever name, text or base_line change. */
	const char *memo_text;
	size_t memo_off, memo_line_start;
	unsigned memo_line;
};

struct carc_diag {
	enum carc_code code;
	enum carc_severity severity;
	const struct carc_src *src; /* NULL when there is no position */
	size_t off;                 /* byte offset into src->text */
	size_t len;                 /* length of the token, for the caret */
	const char *message;
};

typedef void (*carc_diag_fn)(void *ctx, const struct carc_diag *d);

struct carc_held_diag;

struct carc_diag_sink {
	carc_diag_fn emit; /* may be NULL: diagnostics are only counted */
	void *ctx;
	unsigned errors;
	unsigned warnings;
	unsigned counts[CARC_CODE_COUNT];
	unsigned reported; /* diagnostics counted since counts was last cleared (carc_diag_clear_counts) */
	struct carc_buf scratch;
	/* carc_diag_hold: the messages into this text wait for carc_diag_flush */
	const struct carc_src *hold;
	struct carc_held_diag *held;
	size_t nheld, held_cap;
	struct carc_buf held_text;
	bool hold_late; /* carc_diag_hold_late: held messages go after the game's lines */
};

const char *carc_code_str(enum carc_code code);     /* "E201" */
const char *carc_code_name(enum carc_code code);    /* "cell-taken" */
const char *carc_code_summary(enum carc_code code);
enum carc_severity carc_code_severity(enum carc_code code);
/* Looks a code up by its text ("E201"); returns CARC_CODE_COUNT if none. */
enum carc_code carc_code_lookup(const char *s);

void carc_diag_report(struct carc_diag_sink *sink, enum carc_code code,
		      const struct carc_src *src, size_t off, size_t len,
		      const char *fmt, ...) CARC_PRINTF(6, 7);
void carc_diag_free(struct carc_diag_sink *sink);

/* A game's messages in the order of its lines: the reader finds syntax
 * errors line by line, the tags' values once the tags are read, and the
 * referee the rules errors after that. Once carc_diag_hold(sink, &rec.src)
 * is called, the messages that point into that text are held (counted at
 * once) and carc_diag_flush gives them to emit sorted by line, those of one
 * line in the order they came. A message about another text (a tile-set
 * file) or none first flushes what is held, then goes straight on. Costs
 * nothing for a game without messages. A game with a great many (16384)
 * is flushed in parts, each in order, so that memory stays bounded. */
void carc_diag_hold(struct carc_diag_sink *sink, const struct carc_src *game);
void carc_diag_flush(struct carc_diag_sink *sink);
/* While late is true, the messages held are given after all the others of
 * the game, whatever line they point to: the comparison of the Result tag
 * (at the top of the game) with the final scores, which follows from the
 * turns and so reads best after their messages. */
static inline void carc_diag_hold_late(struct carc_diag_sink *sink, bool late)
{
	sink->hold_late = late;
}

/* The length of the well-formed UTF-8 character of 2 to 4 bytes at p (at
 * most avail bytes), or 0 when the bytes there are not one, or are a C1
 * control character (U+0080 to U+009F), which is not text either. */
size_t carc_utf8_len(const char *p, size_t avail);

/* Appends the n bytes of text as a message or a source line shows them:
 * control characters (C0, DEL) and bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A to U+202E, U+2066 to U+2069) as one blank each, a byte
 * that is not UTF-8 (so each byte of a C1 control) as '?', everything else
 * as it is. Every
 * message carc_diag_report formats goes through it. */
void carc_text_shown(struct carc_buf *out, const char *text, size_t n);

/* Line and column (both from 1) of an offset. The column counts characters:
 * a UTF-8 character is one column, and so is each byte that is not part of
 * a well-formed one. */
void carc_src_position(const struct carc_src *src, size_t off, unsigned *line, unsigned *col);

/* Formats a diagnostic in GNU style, with the source line and a caret:
 *   file:line:col: error[E201]: message
 *      14 | 3. red U 0,0 90
 *         |          ^~~
 * color adds ANSI colours. */
void carc_diag_format(struct carc_buf *out, const struct carc_diag *d, bool color);

#endif
