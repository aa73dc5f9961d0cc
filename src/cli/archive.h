/*
 * archive.h - what the commands over whole archives share (carc stats,
 * standings, filter): one pass over every game of every file, each game
 * read and refereed once with its diagnostics counted, not printed; and a
 * table of player names, whose memory grows with the players, not the games.
 */
#ifndef CARC_ARCHIVE_H
#define CARC_ARCHIVE_H

#include "referee/referee.h"

/* One game as the pass hands it over; valid until the callback returns. */
struct carc_archive_game {
	const char *file;                  /* the input's name ("<stdin>" for -) */
	const struct carc_record *rec;
	const struct carc_result *res;     /* NULL when the pass does not referee; without turn records */
	const unsigned *codes;             /* diagnostics of this game, by code (CARC_CODE_COUNT) */
	unsigned errors, warnings;         /* this game's, syntax included */
	/* the engine after a game that was refereed (NULL when it was not):
	 * read them with the functions below */
	const int (*points)[CARC_SRC_COUNT];
	const int *largest;
	const struct carc_event *events;
	size_t nevents;
};

typedef void (*carc_archive_fn)(void *ctx, const struct carc_archive_game *game);

struct carc_archive_totals {
	unsigned files, unreadable;        /* inputs given, and those that could not be opened or read */
	unsigned long games;
	bool trouble;                      /* a game's tile set could not be loaded */
};

/* Reads every game of paths[0..npaths-1] ("-": standard input) in order and
 * calls fn for each, refereed when referee is true (without turn records:
 * a verdict, the totals, the events and the final scoring), with `jobs`
 * threads reading and refereeing (cli/jobs.h); fn is called in this
 * thread, in file order, whatever jobs is. A file that cannot be opened or
 * read is reported on standard error (E001) and counted; the pass goes on
 * with the next. */
void carc_archive_each(char *const *paths, int npaths, bool referee, int jobs, carc_archive_fn fn, void *ctx,
		       struct carc_archive_totals *t);

/* The points colour scored from source in a refereed game (the engine's
 * carc_game_points_from), 0 when it was not refereed. */
int carc_archive_points_from(const struct carc_archive_game *game, int colour, int source);
/* The scorings of a refereed game (carc_game_events); none when it was not. */
const struct carc_event *carc_archive_events(const struct carc_archive_game *game, size_t *count);

/* The winners of a refereed game: a bit per colour, 0 when the game has no
 * final scoring or is solo (which has no winners, only a result). */
uint8_t carc_archive_winners(const struct carc_archive_game *game);

/* The player on a seat: the colour tag's name, or the colour's own name
 * ("red") when the tag is absent. */
const char *carc_archive_player(const struct carc_record *rec, int seat);

/* The tiles of the largest feature of each kind (by index in the game's
 * tile set, complete or not) on the map of a refereed game (0s when it
 * was not refereed). */
void carc_archive_largest(const struct carc_archive_game *game, int tiles[CARC_MAX_KINDS]);

/* The report shapes of the archive commands: --format text, json or csv.
 * false when arg names none of them. */
enum carc_archive_format { CARC_FORMAT_TEXT, CARC_FORMAT_JSON, CARC_FORMAT_CSV };
bool carc_archive_format(const char *arg, enum carc_archive_format *format);

/* Interned names: each distinct string gets the next index from 0. The
 * slots are found by a keyed hash (common/keyhash.h), so that no input can
 * make its names share slots; probes counts the slots looked at, so that a
 * test can tell that the work stays linear in the names. */
struct carc_names {
	struct carc_buf text;   /* the names, each NUL-terminated */
	size_t *at;             /* index -> offset in text */
	uint32_t *slots;        /* open addressing: index + 1, 0 when empty */
	size_t count, cap, nslots;
	size_t probes;
};
/* The index of name (adding it when new). */
size_t carc_names_intern(struct carc_names *n, const char *name);
const char *carc_names_get(const struct carc_names *n, size_t index);
void carc_names_free(struct carc_names *n);
/* Warns on standard error, "carc CMD: warning: ...", for each two names
 * that differ only in case or in the accents of Latin letters (Chloe and
 * Chloé: carc_name_fold), which are most likely one player written two
 * ways; they are not merged. Returns how many pairs it named. */
size_t carc_names_warn_alike(const struct carc_names *n, const char *cmd);

#endif
