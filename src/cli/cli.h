/*
 * cli.h - what the subcommands share: the dispatch table's entry type,
 * exit codes, opening inputs, and printing diagnostics to a terminal.
 */
#ifndef CARC_CLI_H
#define CARC_CLI_H

#include "common/diag.h"

#include <stdio.h>

/* Exit codes, the same for every command (man carc(1), EXIT STATUS). */
enum {
	CARC_EXIT_OK = 0,      /* every game valid */
	CARC_EXIT_INVALID = 1, /* an illegal move, a false claim or a syntax error */
	CARC_EXIT_TROUBLE = 2, /* could not run: usage, unreadable file, bad tile set */
};

struct carc_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

int cmd_check(int argc, char **argv);
int cmd_score(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_tiles(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_recorder(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_standings(int argc, char **argv);
int cmd_filter(int argc, char **argv);
int cmd_pair(int argc, char **argv);
int cmd_ratings(int argc, char **argv);

/* Opens an input: "-" is standard input; gzip and zstd data is
 * decompressed as it is read (input.h). NULL (with errno) on failure. */
FILE *carc_open_input(const char *path);
void carc_close_input(FILE *f);
/* The name shown in messages and output: "<stdin>" for "-", or what
 * --label set. */
const char *carc_input_name(const char *path);
void carc_set_stdin_label(const char *label);
/* --label NAME, the option of every command that reads records: sets the
 * name of standard input, or prints the usage error and returns
 * CARC_EXIT_TROUBLE. */
#define CARC_OPT_LABEL 0x4c42 /* (long option only) */
int carc_label_option(const char *cmd, const char *label);

/* A sink context that prints diagnostics to a stream. With max_errors, it
 * prints that many error messages, then the line "carc: stopping messages
 * after N errors (--max-errors)", then no more errors; warnings and notes
 * are still printed. One printer counts every message given to it, so a
 * command that uses one printer for all its files limits the whole run. */
struct carc_printer {
	FILE *out;
	bool color;
	unsigned max_errors;   /* 0: no limit */
	unsigned printed_errors;
	bool quiet;
	struct carc_buf buf;
};
void carc_print_diag(void *ctx, const struct carc_diag *d);
/* Prints a diagnostic already formatted by carc_diag_format() (error: it is
 * an error, which counts against max_errors), as carc_print_diag() would
 * have printed it: for messages formatted in one place and printed later. */
void carc_print_text(struct carc_printer *p, bool error, const char *text, size_t len);

/* Colour only on a terminal and when NO_COLOR is unset. */
bool carc_use_color(FILE *f);

/* --tileset-path DIR, taken by every command that reads records: its
 * getopt_long value, its line of --help, and its handling (adds DIR to the
 * folders records may take tile sets from; a usage error, returning false,
 * when DIR is no folder). */
#define CARC_OPT_TILESET_PATH 1000 /* clear of the commands' own long-only values (256 up) */
#define CARC_TILESET_PATH_OPTION {"tileset-path", required_argument, NULL, CARC_OPT_TILESET_PATH}
#define CARC_TILESET_PATH_HELP "      --tileset-path DIR  records may also use tile-set files in DIR (repeatable)\n"
bool carc_tileset_path_option(const char *cmd, const char *dir);
/* The options of every command that reads records, c being
 * CARC_OPT_TILESET_PATH or CARC_OPT_LABEL: 0, or CARC_EXIT_TROUBLE after a
 * message. */
int carc_record_option(const char *cmd, int c, const char *arg);

/* The end of every option loop: a missing value (c == ':') or an unknown
 * option. Prints the usage error and returns CARC_EXIT_TROUBLE. */
int carc_option_error(const char *cmd, int c, char **argv);
/* Commands that read exactly one FILE (or -): sets *path and returns 0, or
 * prints the usage error and returns CARC_EXIT_TROUBLE. */
int carc_one_input(const char *cmd, int argc, char **argv, const char **path);
/* Prints "NAME: error[E001]: cannot WHAT: REASON" (what: "open" or "read",
 * err: the errno) on standard error: the one message for a file that
 * cannot be opened or read, whatever the command. */
void carc_say_cannot(const char *name, const char *what, int err);
/* Opens an input like carc_open_input(), and on failure prints
 * "FILE: error[E001]: cannot open: REASON" and returns NULL. */
FILE *carc_open_input_or_say(const char *path);
/* Where a command writes (-o FILE, or standard output). A regular FILE (or
 * a new one, or the file a symbolic link leads to) is written as a
 * temporary file beside it, which replaces it only when the command
 * finishes its work: the input may be the output (fmt -o game.cgn
 * game.cgn), and a run that cannot finish leaves FILE as it was. Other
 * files (devices, pipes) are written in place. */
struct carc_output {
	FILE *f;            /* write here */
	const char *cmd;
	const char *path;   /* NULL: standard output */
	char *tmp;          /* the temporary file, or NULL */
	char *target;       /* the file it replaces: path, or where its links lead */
	bool copy;          /* f is a tmpfile() whose bytes go into target at the end
			     * (its folder cannot hold a temporary file) */
};
/* Opens the output (path NULL or "-": standard output). On failure prints
 * "carc CMD: cannot write FILE: REASON" and returns false. */
bool carc_output_open(struct carc_output *o, const char *cmd, const char *path);
/* Finishes it: flushes it and, when keep, puts the temporary file in place
 * of FILE (else removes it). Returns false, having printed "carc CMD:
 * cannot write FILE: REASON", when anything could not be written. */
bool carc_output_close(struct carc_output *o, bool keep);
/* The whole of data to path (NULL or "-": standard output) as above: open,
 * write, close. False, having said why, when it could not be written. */
bool carc_output_write(const char *cmd, const char *path, const void *data, size_t len);
/* Flushes standard output, for the commands that write only there (and
 * main, after every command, for what they leave unchecked: --help); false,
 * having said "carc CMD: cannot write standard output: REASON" (cmd NULL:
 * "carc: ..."), when any of it was lost. */
bool carc_stdout_done(const char *cmd);

/* Prints "carc CMD: FILE:LINE: game N has T turns, more than the 1000 that
 * a projection replays", for score --projected and render --format html. */
struct carc_record;
void carc_say_too_long(const char *cmd, const struct carc_record *rec, size_t nturns);
/* (the same message, with its newline, added to b) */
void carc_too_long_message(struct carc_buf *b, const char *cmd, const struct carc_record *rec, size_t nturns);

/* Prints "carc VERSION" and returns 0. */
int carc_print_version(void);
/* Standard reporting of a bad option: "carc check: ..." and a hint. */
int carc_usage_error(const char *cmd, const char *fmt, ...) CARC_PRINTF(2, 3);

#endif
