/*
 * report.h - what carc score prints: the per-turn table, the final scoring,
 * the breakdown by source, the winners and, on request, every feature.
 *
 * One document model, three writers. carc_report_walk() walks a game's
 * result once, in document order, and hands each part to a writer as a
 * typed item (the structs below): it alone decides what a report holds and
 * in which order, and it alone asks what differs by rule set (the words of
 * the breakdown, what a pennant counts, solo's result). A writer is a table
 * of callbacks (struct carc_report_writer) that only renders: JSON and YAML
 * through emit.h (carc_report_doc; the schema is in man carc-score(1) and
 * notation/cgn.md), text for people (carc_report_text), CSV for
 * spreadsheets (carc_report_csv).
 */
#ifndef CARC_REPORT_H
#define CARC_REPORT_H

#include "output/emit.h"
#include "referee/referee.h"

struct carc_report_opts {
	bool features;   /* list every feature of the map */
	int turn;        /* the standings after this turn (0: the whole game) */
	bool color;      /* text: ANSI colours */
	const int *projected; /* per step (0: the start, k: after turns[k - 1]), the CARC_COLOURS totals
				 a final scoring would give then (carc_project); NULL: not reported */
	uint64_t offset; /* the game's byte offset in its input (carc_reader_game_offset) */
};

/* Tallies of one game at most (the rules' counts beside the score). */
#define CARC_MAX_TALLIES 8

/* ---- the document ---- */

/* The game: first of every report. */
struct carc_report_head {
	const struct carc_result *res;
	const struct carc_record *rec;
	const struct carc_report_opts *opts;
	const char *id;  /* the game's id in hex (gameid.h) */
	bool final;      /* the report has the final scoring (not --turn, and scored) */
	size_t nturns;   /* the turns shown: all, or up to --turn */
};

/* A turn of the per-turn table. */
struct carc_report_turn {
	const struct carc_turn *turn; /* number, colour, bonus, discard, illegal */
	const char *tile;             /* as written */
	size_t tile_len;
	int x, y, rotation;           /* (not for a discard) */
	const char *role, *spot;      /* the deployment; NULL: none */
	const char *recall;           /* the role of a figure taken back instead ("return abbot"); NULL */
	int role_id, spot_id;         /* (their indexes: rules' roles, enum carc_spot) */
	const char *order;            /* solo: "given" or "chosen" (by carc); NULL */
	const int *scores;            /* per colour, after the turn */
	const int *projected;         /* per colour, the projected final then; NULL: not asked */
	int ntallies;                 /* counts the rules keep beside the score (goods tokens) */
	const char *const *tally_names;
	const int (*tallies)[CARC_COLOURS]; /* per tally, per colour, after the turn */
};

/* A scoring, of a turn or of the final scoring. */
struct carc_report_event {
	const struct carc_event *ev;
	const char *type;       /* "completed", "incomplete", "farm", ... */
	const char *kind;       /* the tile set's word: "road", "forest" */
	const char *feature;    /* "the road at E of U (0,-1)" */
	const char *lead;       /* words before the feature in text ("a follower left on "), or "" */
	const char *bonus_one;  /* what ev->items counts, one: "pennant", "fish", "mushroom" */
	const char *bonus_many; /* and more than one: "pennants", "fish" (also its key) */
	const char *why;        /* solo: why it paid or did not; NULL */
};

/* The breakdown of the final scoring by source (enum carc_source). */
struct carc_report_breakdown {
	const char *key[CARC_SRC_COUNT];   /* "roads", "farms"; "rivers", "meadows" */
	const char *label[CARC_SRC_COUNT]; /* "completed roads", "roads at the end" */
	bool always[CARC_SRC_COUNT];       /* a text row even when nobody scored from it */
	bool has_start;                    /* the documents give "start" (solo's track) */
	int points[CARC_SRC_COUNT][CARC_COLOURS];
	const int *total;                  /* per colour */
};

/* The standings after the last turn shown, or at the end. */
struct carc_report_standings {
	int after_turn;       /* the last turn shown (0: none) */
	const int *scores;    /* per colour; NULL when the game was not refereed */
	const int *projected; /* per colour; NULL: not asked or not refereed */
	int ntallies;         /* counts the rules keep beside the score, then (goods tokens) */
	const char *const *tally_names;
	const int (*tallies)[CARC_COLOURS];
};

/* Who won: the winners, or solo's result (a score, not a winner). */
struct carc_report_outcome {
	bool final;           /* false: no outcome (only the fields' nulls) */
	bool no_winner;       /* the rules give a result, no winner (CARC_RS_NO_WINNER) */
	uint8_t winners;      /* with a winner: a bit per colour */
	int result;           /* no winner: the score of the colour(s) last on the track */
	uint8_t last;         /* no winner: those colours */
	int end_turn;         /* no winner: the turn the game ended (0: it did not end early) */
	bool forced;          /* no winner: ended by a colour that had to deploy and could not */
	int forced_colour;    /* (or -1) */
};

/* One thing a feature counts ("2 pennants", "1 deer"). */
struct carc_report_count {
	const char *key; /* its key in JSON and YAML, and its plural in text */
	const char *one; /* its singular in text */
	int n;
};

/* A feature of the map (--features). */
struct carc_report_feature {
	const char *name;
	const char *kind;
	bool complete;
	int ntiles;                          /* all of them ... */
	const int *cells;                    /* ... the first ncells, placements by index */
	int ncells;
	const struct carc_report_count *counts;
	size_t ncounts;
	const struct carc_follower *const *followers; /* on it, in the order deployed */
	size_t nfollowers;
	const struct carc_event *const *events; /* its scorings */
	size_t nevents;
};

/* A writer: any callback may be NULL. An event comes between turn_begin and
 * turn_end, or between final_begin and final_end. When the game was not
 * refereed, the walk still gives its (empty) turns, standings and outcome. */
struct carc_report_writer {
	void (*head)(void *w, const struct carc_report_head *h);
	void (*turns_begin)(void *w);
	void (*turn_begin)(void *w, const struct carc_report_turn *t);
	void (*event)(void *w, const struct carc_report_event *e);
	void (*turn_end)(void *w, const struct carc_report_turn *t);
	void (*turns_end)(void *w);
	void (*final_begin)(void *w);
	void (*final_end)(void *w);
	void (*breakdown)(void *w, const struct carc_report_breakdown *b);
	void (*standings)(void *w, const struct carc_report_standings *s);
	void (*outcome)(void *w, const struct carc_report_outcome *o);
	void (*features_begin)(void *w);
	void (*feature)(void *w, const struct carc_report_feature *f);
	void (*features_end)(void *w);
	void (*end)(void *w);
};

/* The rules a game plays, for a reader: "base rules, edition 3, with The
 * River and The Abbot" (the edition is the base game's alone). */
void carc_report_rules_words(const struct carc_record *rec, int edition, struct carc_buf *out);

/* Walks res for writer wr (its state: w): head, the turns, the final
 * scoring and breakdown (when final), the standings, the outcome, the
 * features (when asked and refereed), end. */
void carc_report_walk(const struct carc_result *res, const struct carc_report_opts *o,
		      const struct carc_report_writer *wr, void *w);

/* ---- the writers ---- */

void carc_report_doc(struct carc_emitter *e, const struct carc_result *res, const struct carc_report_opts *o);
void carc_report_text(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o);
/* The header row; projected: with the --projected columns. */
void carc_report_csv_header(struct carc_buf *out, bool projected);
void carc_report_csv(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o);

/* One CSV field, RFC 4180: quoted when it holds a comma, a quote or a line
 * break, its quotes doubled; a text that a spreadsheet would take for a
 * formula quoted with a ' before it (for the other commands' CSV). */
void carc_report_csv_field(struct carc_buf *out, const char *s, size_t n);

/* The widest a column of a text table gets, in terminal columns (common/width.h):
 * a longer cell (a 60,000-byte name) is cut to CARC_CELL_MAX - 1 columns and "…", so
 * that one cell cannot pad every row of its table. */
#define CARC_CELL_MAX 40

/* The columns of text s as carc_report_cell shows it, at most
 * CARC_CELL_MAX. */
size_t carc_report_cell_width(const char *s);

/* Appends s as a cell of a text table width columns wide (at most
 * CARC_CELL_MAX): shown as messages are (control and bidirectional
 * characters blanked, carc_text_shown), cut with "…" when longer, padded
 * with blanks when shorter (pad false: not padded, for a last column). */
void carc_report_cell(struct carc_buf *out, const char *s, size_t width, bool pad);

#endif
