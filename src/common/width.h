/*
 * width.h - how many columns text takes in a terminal.
 *
 * A character of the East Asian Wide or Fullwidth classes (Chinese,
 * Japanese, Korean, most emoji) takes two columns; a combining mark and a
 * zero-width character none; any other character one. A byte that is not
 * part of well-formed UTF-8, or a control character, is shown as one
 * character (diag.c shows them as '?' or a blank), so it counts one.
 */
#ifndef CARC_WIDTH_H
#define CARC_WIDTH_H

#include "common/util.h"

#include <stdint.h>

/* The columns of one code point: 0, 1 or 2. */
int carc_char_width(uint32_t cp);
/* The columns of the character at s (avail bytes); *len gets its bytes. */
int carc_utf8_width(const char *s, size_t avail, size_t *len);
/* The columns of n bytes of text. */
size_t carc_text_width(const char *s, size_t n);
static inline size_t carc_str_width(const char *s) { return carc_text_width(s, strlen(s)); }
/* Appends s and then blanks up to width columns (left-aligned), or the
 * blanks first (right-aligned); text wider than width is appended whole. */
void carc_buf_add_padded(struct carc_buf *out, const char *s, size_t width, bool right);

/* A name folded for comparison: ASCII letters and the Latin letters with
 * accents of U+00C0 to U+017F in lower case and without their accents
 * (Chloé: chloe; Ångström: angstrom), combining marks dropped; anything
 * else as it is. Two names that fold alike differ only in case or accents. */
void carc_name_fold(struct carc_buf *out, const char *name);

#endif
