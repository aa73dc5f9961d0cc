/*
 * suggest.h - "did you mean": the known word closest to a misspelt one.
 *
 * For messages only: called on the error path, never on the fast one. The
 * distance is the number of letters inserted, deleted, changed or swapped
 * with their neighbour (ASCII letters compared in any case), and a word
 * that differs from a candidate only in case is nearest of all (a lower-
 * case tile letter u is U). A suggestion is made only when one candidate
 * is nearest and near enough: the same word in another case for a word of
 * 1 or 2 letters, one edit for 3 or 4, two for longer words.
 */
#ifndef CARC_SUGGEST_H
#define CARC_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

struct carc_suggest {
	const char *word;
	size_t len;
	const char *best;   /* the nearest candidate so far */
	unsigned dist;      /* its distance */
	bool tie;           /* another candidate is as near */
};

void carc_suggest_begin(struct carc_suggest *s, const char *word, size_t len);
/* Weighs a candidate (a NUL-terminated word; the same one twice counts once). */
void carc_suggest_try(struct carc_suggest *s, const char *candidate);
/* The one nearest candidate when it is near enough, else NULL. */
const char *carc_suggest_best(const struct carc_suggest *s);

/* The distance of two words as above; more than 3 is given as 4. */
unsigned carc_word_distance(const char *a, size_t alen, const char *b, size_t blen);

#endif
