/*
 * report.h - what carc score prints: the per-turn table, the final scoring,
 * the breakdown by source, the winners and, on request, every feature.
 *
 * One document model, three writers: carc_report_doc() for JSON and YAML
 * (through emit.h; the schema is in man carc-score(1) and notation/cgn.md),
 * carc_report_text() for people, carc_report_csv() for spreadsheets.
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

void carc_report_doc(struct carc_emitter *e, const struct carc_result *res, const struct carc_report_opts *o);
void carc_report_text(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o);
/* The header row; projected: with the --projected columns. */
void carc_report_csv_header(struct carc_buf *out, bool projected);
void carc_report_csv(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o);

/* One CSV field, RFC 4180: quoted when it holds a comma, a quote or a line
 * break, its quotes doubled (for the other commands' CSV). */
void carc_report_csv_field(struct carc_buf *out, const char *s, size_t n);
/* The breakdown's key of a source of points (enum carc_source) in a rule
 * set (enum carc_ruleset_id): "roads", "farms"; "rivers", "meadows". */
const char *carc_report_source_key(int rules, int source);

#endif
