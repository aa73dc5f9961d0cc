/*
 * carc.h - libcarc, the Carcassonne referee as a library: the public C API.
 *
 * Installed as <carc.h>; link with `pkg-config --cflags --libs carc`.
 * man carc(3) is the overview; carc_read(3), carc_play(3) and carc_state(3)
 * document the groups below.
 *
 * Conventions (they hold for every function):
 *   - One prefix, carc_ (macros CARC_). Every handle is opaque and owned by
 *     the caller: what _open or _new returns, _close or _free releases.
 *   - No state that one handle's calls change under another's: different
 *     handles may be used from different threads at once; one handle is
 *     used by one thread at a time (as with an sqlite3 connection opened
 *     without its mutex). What is process-wide is set once and never
 *     changed after: the key of the hash tables (drawn once, thread-safely,
 *     from /dev/urandom, else from the clock and the process id; it changes
 *     the tables' layout from run to run, never a result); the rule sets'
 *     registry (constant) and the combinations of a rule set and its
 *     expansions, each composed on first use behind a mutex and kept until
 *     the process ends (at most 64); and the folders outside the bundled
 *     ones that a record's Tileset tag may name, which only the command
 *     line's --tileset-path adds to and which no library function sets, so
 *     that for the library the list is always empty. Clones of a game share
 *     its loaded tile sets, behind a lock of their own.
 *   - The library never prints, never exits and never reads the
 *     environment, with one exception: when an allocation fails it writes
 *     "carc: out of memory (N bytes)" to stderr and ends the process with
 *     exit status 2, as the command line does (libjq aborts the same way);
 *     CARC_ENOMEM is not returned today. Problems in the input are
 *     diagnostics, returned as values (carc_diagnostic: code, severity,
 *     message, file, line, column), with the same codes and messages `carc
 *     check` prints.
 *   - Functions that can fail return an int: CARC_OK (0), CARC_END (1: there
 *     is no more, as at the end of a file's games) or a negative CARC_E*
 *     code; carc_strerror() names it, and the handle's carc_*_error()
 *     gives the message of its last failure.
 *   - Strings given to the library are UTF-8 and copied when kept; strings
 *     it returns belong to the handle and stay valid until the next call
 *     that changes the handle (or its release). Tile ids, roles, spots and
 *     colours are the words of the CGN notation: "U", "knight", "NNE", "red".
 *   - Text written by the library goes into a caller's buffer, snprintf
 *     style: the function returns the length the whole text needs (without
 *     the NUL) and writes as much as fits, NUL-terminated when cap > 0.
 */
#ifndef CARC_H
#define CARC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && defined(CARC_API_BUILD)
#define CARC_API __attribute__((visibility("default")))
#else
#define CARC_API
#endif

/* ---- version ---------------------------------------------------------- */

#define CARC_VERSION_MAJOR 0
#define CARC_VERSION_MINOR 1
#define CARC_VERSION_PATCH 0
#define CARC_VERSION_STRING "0.1.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH: compare with carc_version_number() */
#define CARC_VERSION_NUMBER 100

/* The version of the library linked in: "0.1.0", and as a number. */
CARC_API const char *carc_version(void);
CARC_API int carc_version_number(void);

/* ---- return codes ----------------------------------------------------- */

#define CARC_OK 0
#define CARC_END 1        /* nothing more: the last game of a file was read */
#define CARC_EINVAL (-1)  /* a bad argument: NULL, an unknown rule set, tile, role, spot, colour */
#define CARC_ENOMEM (-2)  /* out of memory */
#define CARC_EIO (-3)     /* a file or stream cannot be opened, read or decompressed */
#define CARC_ESYNTAX (-4) /* the text is not CGN (a move given as text, a record) */
#define CARC_EILLEGAL (-5)/* the move breaks a rule: carc_match_error() has check's code and message */
#define CARC_ESTATE (-6)  /* not now: no tile drawn, a tile already drawn, the game is over */
#define CARC_ERANGE (-7)  /* an index or turn out of range */

/* A short sentence for a return code ("the move breaks a rule"); static. */
CARC_API const char *carc_strerror(int rc);

/* ---- diagnostics ------------------------------------------------------ */

#define CARC_SEVERITY_ERROR 0
#define CARC_SEVERITY_WARNING 1
#define CARC_SEVERITY_NOTE 2

/* One message, as `carc check` prints it:
 *   file:line:column: error[E203]: message
 * file is the name the record was opened with ("<memory>", "<stream>" when
 * none was given); line and column count from 1, and are 0 for a message
 * about the file as a whole. The strings belong to the handle. */
typedef struct carc_diagnostic {
	char code[8];         /* "E203", "W001" */
	int severity;         /* CARC_SEVERITY_* */
	const char *message;  /* without the position and code */
	const char *file;
	unsigned line, column;
} carc_diagnostic;

/* ---- moves ------------------------------------------------------------ */

/* A move: the drawn tile placed at x,y turned rotation degrees clockwise,
 * with a figure deployed at a spot of it, or a figure taken back (The
 * Abbot's "return abbot"), or nothing; or the tile discarded because it
 * fits nowhere. Empty strings mean "none". order is a solo game's scoring
 * order ("N 0,1:E"), empty elsewhere. */
typedef struct carc_move_spec {
	char tile[16];        /* tile id */
	int discard;          /* 1: discarded (x, y, rotation unused) */
	int x, y;
	int rotation;         /* 0, 90, 180, 270 */
	char role[16];        /* deployed: "knight", "thief", "monk", "farmer", "abbot", "hut", ... */
	char spot[4];         /* where on the tile: "N", "NNE", ..., "C" */
	char recall[16];      /* a role taken back instead of deploying: "abbot" */
	char order[64];       /* solo only: the scoring order, as CGN writes it after "order" */
} carc_move_spec;

/* The move as a CGN turn line writes it after the colour:
 * "U 1,0 90 thief W", "D discard", "V 0,2 0 return abbot". */
CARC_API size_t carc_move_format(const carc_move_spec *mv, char *buf, size_t cap);
/* Reads that text back; CARC_ESYNTAX when it is not a move. */
CARC_API int carc_move_parse(const char *text, carc_move_spec *mv);

/* ---- a game: carc_match ---------------------------------------------- */

/* One game: read from a record (carc_records_next), or started here
 * (carc_match_new) and played move by move. Either way it is a CGN record
 * replayed by the referee of `carc check`. */
typedef struct carc_match carc_match;

CARC_API void carc_match_free(carc_match *m);
/* The message of the handle's last failed call ("" when none). */
CARC_API const char *carc_match_error(const carc_match *m);

/* ==== group 1: read (carc_read(3)) ===================================== */

/* A source of records: a file (plain, .gz or .zst, told by content), a
 * buffer in memory, or an open stream. Games are read one at a time, in
 * constant memory whatever the file's size. */
typedef struct carc_records carc_records;

/* Opens path ("-": none; use carc_records_open_stream). On failure returns
 * NULL and, when why is not NULL, writes the reason (cap bytes at most). */
CARC_API carc_records *carc_records_open(const char *path, char *why, size_t cap);
/* The len bytes at data (copied, so they may go at once); name is what the
 * diagnostics call the file (NULL: "<memory>"). */
CARC_API carc_records *carc_records_open_memory(const void *data, size_t len, const char *name, char *why,
						size_t cap);
/* A stream the caller keeps open and closes (NULL name: "<stream>"). */
CARC_API carc_records *carc_records_open_stream(FILE *f, const char *name, char *why, size_t cap);
CARC_API void carc_records_close(carc_records *r);
/* The next game: CARC_OK with *out a new handle (free it with
 * carc_match_free), CARC_END after the last, CARC_EIO when reading failed.
 * A game with syntax errors is still returned, with its diagnostics. */
CARC_API int carc_records_next(carc_records *r, carc_match **out);
CARC_API const char *carc_records_error(const carc_records *r);

/* Tags, in the order of the record: tag i's name as written (into buf,
 * snprintf style) and its value, unescaped (NULL when i is out of range).
 * carc_match_tag: the value of the tag named (any case), NULL when
 * absent. */
CARC_API int carc_match_ntags(const carc_match *m);
CARC_API size_t carc_match_tag_name(const carc_match *m, int i, char *buf, size_t cap);
CARC_API const char *carc_match_tag_value(const carc_match *m, int i);
CARC_API const char *carc_match_tag(const carc_match *m, const char *name);

/* Diagnostics of the whole game (syntax, tags, every rule, the Result), as
 * `carc check` gives them, in its order. valid: 1 when none is an error. */
CARC_API int carc_match_ndiagnostics(const carc_match *m);
CARC_API int carc_match_diagnostic(const carc_match *m, int i, carc_diagnostic *out);
CARC_API int carc_match_valid(const carc_match *m);

/* The turns recorded (a discard and a bonus turn are turns too). */
typedef struct carc_turn_info {
	int number;           /* as the referee numbers it */
	int bonus;            /* 1: a bonus turn ("N+") */
	char colour[8];
	carc_move_spec move;
	int illegal;          /* 1: an error was reported on its line */
	unsigned line;        /* of the record, from 1 */
	int scores[8];        /* by seat: the running totals after the turn (`carc score`'s table) */
} carc_turn_info;

CARC_API int carc_match_nturns(const carc_match *m);
CARC_API int carc_match_turn(const carc_match *m, int i, carc_turn_info *out);

/* ==== the state after a turn (carc_state(3)): both groups ============== */

/* Moves the position the queries below answer for: after the first turn
 * turns of the record (0: before any), or, with CARC_POSITION_END, the end
 * with the final scoring when the game has one (the default for a record;
 * a played game is always at its last turn). */
#define CARC_POSITION_END (-1)
CARC_API int carc_match_seek(carc_match *m, int turns);
CARC_API int carc_match_position(const carc_match *m);

/* Players in order of play (seat 0 starts): colour, and the name the
 * colour's tag gives (NULL when none). */
CARC_API int carc_match_nplayers(const carc_match *m);
CARC_API const char *carc_match_colour(const carc_match *m, int seat);
CARC_API const char *carc_match_player(const carc_match *m, int seat);

/* Scores at the position: running totals, or final ones at the end;
 * projected: what each would have if the game ended now (`carc score
 * --projected`). Followers left in the seat's supply. */
CARC_API int carc_match_score(const carc_match *m, int seat);
CARC_API int carc_match_projected(carc_match *m, int seat);
CARC_API int carc_match_followers_left(const carc_match *m, int seat);
/* Tiles left in the supply; whether the game is over (supply used up, or
 * the rules ended it) and whether the final scoring was done. */
CARC_API int carc_match_supply_left(const carc_match *m);
CARC_API int carc_match_over(const carc_match *m);
CARC_API int carc_match_final(const carc_match *m);

/* The tiles on the map, in the order they were placed (0: the start tile). */
typedef struct carc_tile_info {
	char id[16];
	int x, y, rotation;
	int turn;             /* 0: the start tile */
	char colour[8];       /* who placed it, "" for the start tile */
} carc_tile_info;
CARC_API int carc_match_ntiles(const carc_match *m);
CARC_API int carc_match_tile(const carc_match *m, int i, carc_tile_info *out);

/* The features (roads, cities, fields, monasteries, ...) on the map, in
 * a fixed order for a position (a follower's feature indexes it). */
typedef struct carc_feature_info {
	char kind[16];        /* the tile set's word: "road", "city", "field", "cloister" */
	char name[64];        /* as messages name it: "the city at N of D (0,0)" */
	int ntiles;           /* tiles it spans */
	int complete;
	int scored;           /* 1: it has been scored (completed, or at the final scoring) */
	int points;           /* what its scoring paid each winner (0 until scored; the
				 projected final, carc_match_projected, counts the rest) */
	int followers;        /* figures on it */
	uint8_t owners;       /* bit s: seat s holds the majority */
} carc_feature_info;
CARC_API int carc_match_nfeatures(carc_match *m);
CARC_API int carc_match_feature(carc_match *m, int i, carc_feature_info *out);
/* Indexes (carc_match_tile) of the feature's tiles; returns their count,
 * writing max at most. */
CARC_API int carc_match_feature_tiles(carc_match *m, int i, int *tiles, int max);

/* The figures on the map. */
typedef struct carc_follower_info {
	char colour[8];
	char role[16];
	int tile;             /* index into carc_match_tile */
	char spot[4];
	int feature;          /* index into carc_match_feature */
	int turn;             /* deployed on */
} carc_follower_info;
CARC_API int carc_match_nfollowers(carc_match *m);
CARC_API int carc_match_follower(carc_match *m, int i, carc_follower_info *out);

/* ==== group 2: play (carc_play(3)) ===================================== */

/* A new game. Zero is the default of every field: the base rules, no
 * expansion, 2 players of random colours, the 3rd edition's farms. */
typedef struct carc_setup {
	const char *rules;      /* "base", "solo", "hunters"; NULL: base */
	const char *expansions; /* blank-separated: "river abbot"; NULL: none */
	int players;            /* 0: the rule set's default */
	const char *colours;    /* blank-separated, in order of play; NULL: random (from seed) */
	int edition;            /* farm scoring 1, 2, 3; 0: the rules' default */
	uint64_t seed;          /* the shuffle of the supply (and the colours) */
	/* carc_generator only: chances of a deployment and of a claim on a
	 * turn, 0..1; a negative value takes `carc gen`'s default (0.5, 0.1) */
	double deploy_rate, claim_rate;
} carc_setup;

/* Starts a game: its tags, the start tile, the supply shuffled from seed.
 * NULL on failure, with the reason in why. */
CARC_API carc_match *carc_match_new(const carc_setup *setup, char *why, size_t cap);

/* A deep copy, for tree search: playing on the copy leaves m as it is.
 * A game being played, at its last move, is copied as it stands (its
 * record, the engine's map, features, followers and scores, the referee's
 * state and each rule module's): time and memory linear in the game's size,
 * no replay, no tile-set loading. A game at another position (seek), or
 * over, is copied as its text, replayed when the copy is first asked. */
CARC_API carc_match *carc_match_clone(const carc_match *m);

/* The seat whose turn it is (-1 when the game is over). */
CARC_API int carc_match_to_move(const carc_match *m);
/* The number of the turn to play, as the referee will number its line
 * (carc_turn_info's number): after a discard the same number again, a bonus
 * turn (N+) the number of the turn that earned it, with *bonus (when not
 * NULL) set to 1. -1 when the game is over or m is not played on. */
CARC_API int carc_match_turn_number(const carc_match *m, int *bonus);
/* Draws the turn's tile: tile NULL takes the next of the shuffled supply
 * (as the rules allow: The River's tiles first, a bonus tile on a bonus
 * turn of Hunters and Gatherers, the next land tile on the builder's of
 * Traders & Builders), a tile id names it (as over a board where tiles are drawn by
 * hand): CARC_EINVAL when none of it is left. CARC_ESTATE when a tile is
 * already drawn or the game is over. */
CARC_API int carc_match_draw(carc_match *m, const char *tile);
/* The tile drawn and not yet played, NULL when none. */
CARC_API const char *carc_match_drawn(const carc_match *m);

/* Every legal move of the drawn tile, each placement with each deployment
 * the rules allow on it (every role on every feature it may take, at every
 * spot of that feature), and each without one, and each recall; a single
 * discard when the tile fits nowhere. Writes max at most into out and
 * returns how many there are (so a first call with max 0 sizes the array),
 * or a negative code (CARC_ESTATE: no tile drawn). */
CARC_API int carc_match_legal_moves(carc_match *m, carc_move_spec *out, int max);

/* Plays the drawn tile. CARC_EILLEGAL, the game unchanged, when the move
 * breaks a rule: carc_match_last_diagnostic() then gives the code and the
 * message `carc check` prints for it in a record. A move costs its one
 * line and one turn of the referee, whatever the game's length: the move's
 * line is read into the game's record and refereed from where the game
 * stands. (After a refused move, or when the game was last looked at at
 * another position, the next move first replays the game once.) */
CARC_API int carc_match_play(carc_match *m, const carc_move_spec *mv);
/* The same with the move as text (carc_move_format's). */
CARC_API int carc_match_play_text(carc_match *m, const char *move);
CARC_API int carc_match_last_diagnostic(const carc_match *m, carc_diagnostic *out);

/* The game as canonical CGN (as `carc fmt` writes it): tags, the turns
 * played, and when it is over the final scores as [Result]. */
CARC_API size_t carc_match_cgn(carc_match *m, char *buf, size_t cap);

/* Random complete legal games, exactly as `carc gen` writes them (the same
 * setup and seed give the same text; game index of a run depends on the
 * seed and index alone). */
typedef struct carc_generator carc_generator;
CARC_API carc_generator *carc_generator_new(const carc_setup *setup, char *why, size_t cap);
CARC_API size_t carc_generator_game(carc_generator *gen, uint64_t index, char *buf, size_t cap);
CARC_API void carc_generator_free(carc_generator *gen);

#ifdef __cplusplus
}
#endif

#endif
