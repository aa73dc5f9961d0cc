/*
 * split.h - where a CGN file may be cut into parts for several readers.
 *
 * carc check -j N gives the parts of one file to N threads, each with a
 * reader of its own that starts at its part's first byte. A part must start
 * where a reader of the whole file would start a game, with the line number
 * and the number of games before it that that reader would have counted.
 * The scan finds such places without parsing, at about memory speed: it
 * looks only at the lines that begin (after blanks) with '[', and at the
 * lines before each back to the last one that is not empty or a comment
 * (';' or '{'). A '[' line after a turn line starts a game; it is a cut when
 * only empty lines are between them (comment lines there would go with the
 * game: they are not cut from it) and it is at most 4096 bytes long. The
 * scan is a guess for odd input (a '[' line inside a { comment } of many
 * lines, a line that a { comment } makes a turn, lines of more than 64 KiB
 * before a '[' line): whoever uses a cut checks it against the reader of
 * the part before, which reads up to the first game at or past the cut.
 */
#ifndef CARC_CLI_SPLIT_H
#define CARC_CLI_SPLIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A place in the file: its byte offset, its line (1 for the first), and
 * the games that start before it. */
struct carc_cut {
	uint64_t off;
	unsigned line, games;
};

struct carc_split_scan {
	FILE *f;
	char *buf;             /* the tail of the last block read (to look back in), then the next */
	size_t len, at;        /* bytes in buf; where to look for the next '[' */
	uint64_t buf_off;      /* the offset of buf[0] in the file */
	uint64_t text_start;   /* 0, or 3 after a byte order mark */
	size_t counted;        /* newlines are counted in buf up to here, */
	unsigned line;         /* and this is the line there */
	unsigned games;        /* games that start before buf[at] */
	bool eof, begun;
};

/* Starts a scan of f from its current place, which is offset 0. */
void carc_split_scan_init(struct carc_split_scan *s, FILE *f);
/* The first cut that starts at or after offset `from`; false at the end of
 * the file (or of what could be read of it). from must not be less than
 * the last cut's offset. */
bool carc_split_next(struct carc_split_scan *s, uint64_t from, struct carc_cut *cut);
void carc_split_scan_free(struct carc_split_scan *s);

#endif
