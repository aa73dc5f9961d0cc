/*
 * suggest.c - "did you mean": the known word closest to a misspelt one.
 */
#include "common/suggest.h"

#include <string.h>

#define FAR 4u       /* "more than 3 edits" */
#define MAX_WORD 32  /* longer words get no suggestion */

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

unsigned carc_word_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen > MAX_WORD || blen > MAX_WORD)
		return FAR;
	if ((alen > blen ? alen - blen : blen - alen) >= FAR)
		return FAR;
	/* optimal string alignment: three rows of the edit table */
	unsigned rows[3][MAX_WORD + 1];
	unsigned *two = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= blen; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= alen; i++) {
		cur[0] = (unsigned)i;
		unsigned char ca = fold((unsigned char)a[i - 1]);
		for (size_t j = 1; j <= blen; j++) {
			unsigned char cb = fold((unsigned char)b[j - 1]);
			unsigned d = prev[j - 1] + (ca != cb);
			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) && fold((unsigned char)a[i - 2]) == cb &&
			    two[j - 2] + 1 < d)
				d = two[j - 2] + 1;
			cur[j] = d;
		}
		unsigned *t = two;
		two = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen] < FAR ? prev[blen] : FAR;
}

void carc_suggest_begin(struct carc_suggest *s, const char *word, size_t len)
{
	*s = (struct carc_suggest){word, len, NULL, FAR, false};
}

void carc_suggest_try(struct carc_suggest *s, const char *candidate)
{
	size_t n = strlen(candidate);
	if (n == s->len && !memcmp(candidate, s->word, n))
		return; /* the word itself is no suggestion */
	unsigned d = carc_word_distance(s->word, s->len, candidate, n);
	if (d == FAR || d > s->dist)
		return;
	if (s->best && !strcmp(s->best, candidate))
		return;
	s->tie = d == s->dist && s->best;
	s->best = candidate;
	s->dist = d;
}

const char *carc_suggest_best(const struct carc_suggest *s)
{
	unsigned near = s->len <= 2 ? 0 : s->len <= 4 ? 1 : 2;
	return s->best && !s->tie && s->dist <= near ? s->best : NULL;
}
