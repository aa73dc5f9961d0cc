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

#include "emit.h"
#include "referee.h"

struct carc_report_opts {
	bool features;   /* list every feature of the map */
	int turn;        /* the standings after this turn (0: the whole game) */
	bool color;      /* text: ANSI colours */
	uint64_t offset; /* the game's byte offset in its input (carc_reader_game_offset) */
};

void carc_report_doc(struct carc_emitter *e, const struct carc_result *res, const struct carc_report_opts *o);
void carc_report_text(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o);
void carc_report_csv_header(struct carc_buf *out);
void carc_report_csv(struct carc_buf *out, const struct carc_result *res, const struct carc_report_opts *o);

#endif
