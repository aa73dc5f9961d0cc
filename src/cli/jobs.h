/*
 * jobs.h - the one parallel driver of the commands that read games: every
 * game of the inputs read, refereed and worked on by N threads (-j N), and
 * what each game's work made handed to the command in file order, so that
 * the output does not depend on N.
 *
 * A command gives two halves of its work on a game: `work`, which runs in
 * the thread that read and refereed the game, with the record, the result
 * and the engine, and writes what it makes of the game into bytes (and may
 * say lines on standard error); and `take`, which runs in the command's own
 * thread, one game after the other in the order of the inputs, with those
 * bytes. With -j 1 the one thread does both, game by game; with -j N the
 * same two halves run, so the output is the same by construction, as long
 * as `work` keeps no state from game to game that `take` would see.
 *
 * How the inputs are shared (README, "Archives"): many files, a file to a
 * thread; one plain file, cut into parts at lines where games start, each
 * part read by a thread with a reader of its own; standard input or
 * compressed data, read by the command's thread and refereed by the others
 * in batches. Memory stays bounded: at most 2N+2 parts of at most 4 MiB of
 * text (or batches of 64 games) are held at once, with what their games'
 * work made.
 */
#ifndef CARC_CLI_JOBS_H
#define CARC_CLI_JOBS_H

#include "cli/cli.h"
#include "referee/referee.h"

/* One game, as `work` sees it; valid until work returns. */
struct carc_jobs_game {
	const char *file;              /* the input's name */
	struct carc_record *rec;
	struct carc_result *res;       /* NULL when the run does not referee */
	struct carc_game *game;        /* the engine after the game */
	uint64_t offset;               /* the byte where the game starts in its input */
	const unsigned *codes;         /* its diagnostics by code, the reader's included */
	unsigned errors, warnings;     /* (their sums by severity) */
	const char *json;              /* CARC_JOBS_JSON: its diagnostics as JSON objects,
					  comma-separated ("" for none) */
};

/* Where a game's work goes. */
struct carc_jobs_out;
/* The bytes that `take` will be given for the game. */
struct carc_buf *carc_jobs_data(struct carc_jobs_out *out);
/* A line (with its newline) for standard error, in its place among the
 * games' diagnostics. */
void carc_jobs_say(struct carc_jobs_out *out, const char *fmt, ...) CARC_PRINTF(2, 3);

/* What becomes of the diagnostics of reading and refereeing. */
enum carc_jobs_diags {
	CARC_JOBS_COUNT, /* counted only (codes, errors, warnings) */
	CARC_JOBS_PRINT, /* printed by the run's printer, each game's in the order of its lines */
	CARC_JOBS_JSON,  /* collected as JSON for work (carc_jobs_game.json) */
};

struct carc_jobs {
	int jobs;                      /* threads: 1 or more */
	enum carc_jobs_diags diags;
	struct carc_printer *printer;  /* CARC_JOBS_PRINT, and carc_jobs_say (NULL: standard error) */
	bool referee;                  /* referee each game, with opts */
	struct carc_referee_opts opts;
	unsigned long only_game;       /* N > 0: only the Nth game of each input is worked on (its
					  diagnostics alone printed); the run is then on one thread */
	void *ctx;                     /* the command's, for take and cannot */
	/* a thread's own state for work, and its end (NULL: work is given
	 * ctx itself, which it must then only read) */
	void *(*worker_new)(void *ctx);
	void (*worker_free)(void *wctx);
	void (*work)(void *wctx, const struct carc_jobs_game *game, struct carc_jobs_out *out);
	void (*take)(void *ctx, const char *data, size_t len);
	/* With one thread (-j 1), a buffer of the command's that work's bytes
	 * go straight into (carc_jobs_data), so that they need not be copied
	 * there: take is given the bytes the game added at the buffer's end,
	 * and the driver never empties it (take may keep them, drop some of
	 * its own end, or write and empty it). NULL: the driver's buffer,
	 * emptied after each take. With -j N take is given copies' sources in
	 * the threads' buffers as before, so it must not assume where data is. */
	struct carc_buf *direct_data;
	/* an input that could not be opened or read to the end (what: "open"
	 * or "read"), in its place after the games read from it */
	void (*cannot)(void *ctx, const char *name, const char *what, int err);
};

struct carc_jobs_totals {
	unsigned files, unreadable;    /* inputs given, and those that could not be opened or read */
	unsigned long games;           /* read (all of them, with only_game too) */
	bool trouble;                  /* a game's tile set could not be loaded */
};

/* Runs over the inputs paths[0..npaths-1] ("-": standard input), in
 * order. */
void carc_jobs_run(const struct carc_jobs *run, char *const *paths, int npaths, struct carc_jobs_totals *t);

/* -j N, --jobs N: N from 1 to 256; false (and a usage error printed) when
 * arg is not. */
bool carc_jobs_option(const char *cmd, const char *arg, int *jobs);
#define CARC_JOBS_OPTION {"jobs", required_argument, NULL, 'j'}

#endif
