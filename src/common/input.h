/*
 * input.h - opening an input: a file or standard input, plain or compressed.
 *
 * Whatever the input holds, the rest of carc reads text from a FILE*: a
 * gzip (.gz) or zstd (.zst) stream, told by its first bytes (magic numbers,
 * not the file's name, so standard input works too), is decompressed as it
 * is read, through zlib or libzstd. Plain text is the FILE itself. Damaged
 * or truncated compressed data is a read error whose message says where
 * (carc_input_strerror). The reader's limits apply to the text that comes
 * out, so a small file that inflates to a huge one is answered like the
 * huge one.
 */
#ifndef CARC_INPUT_H
#define CARC_INPUT_H

#include <stdbool.h>
#include <stdio.h>

/* Opens path ("-": standard input). NULL, with errno, when it cannot. */
FILE *carc_input_open(const char *path);
/* The same over a stream already open (the library's carc_records_open_stream
 * and _memory): raw itself when it holds plain text, else a stream that
 * decompresses it. keep_raw: closing that stream leaves raw open (the
 * caller's); raw is never closed here. NULL, with errno, when the
 * decompressing stream cannot be made. */
FILE *carc_input_stream(FILE *raw, bool keep_raw);
/* Closes what carc_input_open gave (standard input itself stays open). */
void carc_input_close(FILE *f);
/* The reason for a read error err on an input of this thread: for damaged
 * compressed data, what and where ("the gzip data is cut short at byte
 * 4096 of the file, after 20480 bytes of text"); else strerror(err). */
const char *carc_input_strerror(int err);

#endif
