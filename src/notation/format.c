/*
 * format.c - the canonical form of a record.
 *
 * Two passes over the turns: the first measures each column, the second
 * writes the lines padded to those widths. No printf: a record is written
 * at about the speed it is read (decimal.h).
 */
#include "notation/format.h"

#include "common/decimal.h"

#include <stdlib.h>
#include <string.h>

enum { COL_NUM, COL_COLOUR, COL_TILE, COL_COORD, COL_ROT, COL_DEPLOY, COL_COUNT };

static void add_span(struct carc_buf *b, const struct carc_record *rec, struct carc_span s)
{
	carc_buf_add(b, rec->src.text + s.off, s.len);
}

static void add_comments(struct carc_buf *b, const struct carc_record *rec, int place, size_t index, bool trailing)
{
	for (size_t i = 0; i < rec->ncomments; i++) {
		const struct carc_comment *c = &rec->comments[i];
		if (c->place != place || c->index != index)
			continue;
		if (trailing)
			carc_buf_adds(b, "  ");
		add_span(b, rec, c->span);
		if (!trailing)
			carc_buf_addc(b, '\n');
	}
}

/* "red 12" after sep: a claim, or a score of the Result */
static void colour_points(struct carc_buf *b, const char *sep, const struct carc_claim *cl)
{
	carc_buf_adds(b, sep);
	carc_buf_adds(b, carc_colour_name(cl->colour));
	carc_buf_addc(b, ' ');
	carc_buf_addint(b, cl->points);
}

static void add_tag(struct carc_buf *b, const struct carc_record *rec, size_t i)
{
	const struct carc_tag *t = &rec->tags[i];
	if (i > 0) /* comments before the first tag stay at the top */
		add_comments(b, rec, CARC_BEFORE_TAG, i, false);
	int id = carc_tag_lookup(rec->src.text + t->name.off, t->name.len);
	carc_buf_addc(b, '[');
	if (id != CARC_TAG_UNKNOWN)
		carc_buf_adds(b, carc_tag_name(id)); /* known tags in their canonical spelling */
	else
		add_span(b, rec, t->name);
	carc_buf_adds(b, " \"");
	if (id == CARC_TAG_TERMINATION && rec->termination != CARC_TERM_NONE) {
		carc_buf_adds(b, carc_termination_name(rec->termination)); /* its canonical spelling */
	} else if (id == CARC_TAG_WINNER && rec->winner < CARC_COLOURS) {
		carc_buf_adds(b, carc_colour_name(rec->winner));
	} else if ((id == CARC_TAG_RESULT && rec->has_result) || id == CARC_TAG_SEATS || id == CARC_TAG_RULES) {
		/* normalised values */
		if (id == CARC_TAG_RESULT) {
			bool first = true;
			for (int s = 0; s < rec->nseats; s++)
				for (int k = 0; k < rec->result_count; k++) {
					const struct carc_claim *cl = &rec->claims[rec->result_first + k];
					if (cl->colour != rec->seats[s])
						continue;
					colour_points(b, first ? "" : ", ", cl);
					first = false;
				}
			/* colours that do not sit keep their place at the end */
			for (int k = 0; k < rec->result_count; k++) {
				const struct carc_claim *cl = &rec->claims[rec->result_first + k];
				bool seated = false;
				for (int s = 0; s < rec->nseats; s++)
					seated |= rec->seats[s] == cl->colour;
				if (!seated) {
					colour_points(b, first ? "" : ", ", cl);
					first = false;
				}
			}
		} else if (id == CARC_TAG_SEATS) {
			for (int s = 0; s < rec->nseats; s++) {
				if (s)
					carc_buf_addc(b, ' ');
				carc_buf_adds(b, carc_colour_name(rec->seats[s]));
			}
		} else {
			carc_buf_adds(b, rec->rules->name);
		}
	} else {
		const char *v = carc_tag_text(rec, t);
		for (size_t k = 0; k < t->text_len; k++) {
			if (v[k] == '"' || v[k] == '\\')
				carc_buf_addc(b, '\\');
			carc_buf_addc(b, v[k]);
		}
	}
	carc_buf_adds(b, "\"]");
	add_comments(b, rec, CARC_AFTER_TAG, i, true);
	carc_buf_addc(b, '\n');
}

/* "3,-1" */
static void coord(struct carc_buf *b, int x, int y)
{
	carc_buf_addint(b, x);
	carc_buf_addc(b, ',');
	carc_buf_addint(b, y);
}

/* The text of one column of a turn, into a small buffer. */
static void column(const struct carc_record *rec, const struct carc_move *m, int col, const char *number,
		   struct carc_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
	switch (col) {
	case COL_NUM:
		carc_buf_adds(b, number);
		break;
	case COL_COLOUR:
		carc_buf_adds(b, carc_colour_name(m->colour));
		break;
	case COL_TILE:
		add_span(b, rec, m->tile_span);
		break;
	case COL_COORD:
		if (m->discard)
			carc_buf_adds(b, "discard");
		else
			coord(b, m->x, m->y);
		break;
	case COL_ROT:
		if (!m->discard)
			carc_buf_addint(b, m->rot * 90);
		break;
	case COL_DEPLOY:
		if (m->role >= 0) {
			carc_buf_adds(b, rec->rules->roles[m->role].name);
			carc_buf_addc(b, ' ');
			carc_buf_adds(b, carc_spot_name(m->spot));
		} else if (m->recall >= 0) {
			carc_buf_adds(b, "return ");
			carc_buf_adds(b, rec->rules->roles[m->recall].name);
		}
		if (m->has_order) {
			carc_buf_adds(b, m->role >= 0 || m->recall >= 0 ? " order" : "order");
			for (int k = 0; k < m->order_count; k++) {
				const struct carc_order_item *it = &rec->order[m->order_first + k];
				carc_buf_addc(b, ' ');
				if (it->has_coord) {
					coord(b, it->x, it->y);
					carc_buf_addc(b, ':');
				}
				carc_buf_adds(b, carc_spot_name(it->spot));
			}
		}
		break;
	}
}

static void claims(const struct carc_record *rec, const struct carc_move *m, struct carc_buf *b)
{
	carc_buf_adds(b, "=");
	bool first = true;
	for (int pass = 0; pass < 2; pass++)
		for (int s = 0; s < (pass ? 1 : rec->nseats); s++)
			for (int k = 0; k < m->claim_count; k++) {
				const struct carc_claim *cl = &rec->claims[m->claim_first + k];
				bool seated = false;
				for (int q = 0; q < rec->nseats; q++)
					seated |= rec->seats[q] == cl->colour;
				if (pass == 0 ? cl->colour != rec->seats[s] : seated)
					continue;
				colour_points(b, first ? " " : ", ", cl);
				first = false;
			}
}

/* A turn's number: the one written, if any, as it was written (even a
 * wrong one: the referee checks it, E207, and formatting must not hide a
 * line left out); else the number the turn has: a discard keeps the
 * number for the next line; a bonus turn is N+ after turn N. */
static void numbers(const struct carc_record *rec, size_t i, int *turn, char out[static CARC_DECIMAL_MAX + 2])
{
	const struct carc_move *m = &rec->moves[i];
	long n = m->turn >= 0 ? (long)m->turn : m->bonus ? (*turn - 1 > 0 ? *turn - 1 : 1) : *turn;
	if (m->turn < 0 && *turn > 99999) {
		out[0] = '\0'; /* past what a number may be (a record of illegal lines): none */
	} else {
		char num[CARC_DECIMAL_MAX];
		char *p = carc_decimal(num + sizeof num, n);
		size_t len = (size_t)(num + sizeof num - p);
		memcpy(out, p, len);
		out[len] = m->bonus ? '+' : '.';
		out[len + 1] = '\0';
	}
	if (!m->bonus && !m->discard)
		(*turn)++;
}

void carc_format_record(const struct carc_record *rec, struct carc_buf *out)
{
	/* tags: known in fixed order, names in seat order, unknown as they came */
	bool *done = xcalloc(rec->ntags + 1, sizeof *done); /* any number of tags */
	size_t ntags = rec->ntags;
	if (ntags)
		add_comments(out, rec, CARC_BEFORE_TAG, 0, false);
	static const uint8_t order[] = {
		CARC_TAG_EVENT, CARC_TAG_SITE, CARC_TAG_DATE, CARC_TAG_TIME, CARC_TAG_ROUND, CARC_TAG_BOARD,
		CARC_TAG_MATCH, CARC_TAG_FORMAT, CARC_TAG_RULES, CARC_TAG_EXPANSIONS, CARC_TAG_TILESET,
		CARC_TAG_EDITION, CARC_TAG_SEATS, CARC_TAG_FOLLOWERS, CARC_TAG_HUTS, CARC_TAG_START, CARC_TAG_TABLE,
		CARC_TAG_ENDORDER,
	};
	/* the outcome last: Termination, Winner, Result */
	static const uint8_t outcome[] = {CARC_TAG_TERMINATION, CARC_TAG_WINNER};
	_Static_assert(sizeof order + sizeof outcome == CARC_TAG_KNOWN - 1, "every known tag but Result has its place");
	for (size_t k = 0; k < sizeof order; k++) {
		int id = order[k];
		if (rec->tag_index[id] >= 0) {
			add_tag(out, rec, (size_t)rec->tag_index[id]);
			done[rec->tag_index[id]] = true;
		}
	}
	for (int s = 0; s < rec->nseats; s++) {
		int i = rec->tag_index[CARC_TAG_KNOWN + rec->seats[s]];
		if (i >= 0 && !done[i]) {
			add_tag(out, rec, (size_t)i);
			done[i] = true;
		}
	}
	for (int c = 0; c < CARC_COLOURS; c++) {
		int i = rec->tag_index[CARC_TAG_KNOWN + c];
		if (i >= 0 && !done[i]) {
			add_tag(out, rec, (size_t)i);
			done[i] = true;
		}
	}
	for (size_t i = 0; i < ntags; i++)
		if (!done[i] && (int)i != rec->tag_index[CARC_TAG_RESULT] && (int)i != rec->tag_index[CARC_TAG_TERMINATION] &&
		    (int)i != rec->tag_index[CARC_TAG_WINNER]) {
			add_tag(out, rec, i);
			done[i] = true;
		}
	for (size_t k = 0; k < sizeof outcome; k++)
		if (rec->tag_index[outcome[k]] >= 0)
			add_tag(out, rec, (size_t)rec->tag_index[outcome[k]]);
	if (rec->tag_index[CARC_TAG_RESULT] >= 0)
		add_tag(out, rec, (size_t)rec->tag_index[CARC_TAG_RESULT]);
	if (ntags && rec->nmoves) /* (a game without turns is its tags alone) */
		carc_buf_addc(out, '\n');
	add_comments(out, rec, CARC_BEFORE_TAG, rec->ntags, false);

	/* movetext: measure, then write */
	size_t width[COL_COUNT] = {0};
	struct carc_buf cell[COL_COUNT] = {0};
	char num[CARC_DECIMAL_MAX + 2];
	int turn = 1;
	for (size_t i = 0; i < rec->nmoves; i++) {
		numbers(rec, i, &turn, num);
		for (int c = 0; c < COL_COUNT; c++) {
			column(rec, &rec->moves[i], c, num, &cell[0]);
			if (cell[0].len > width[c])
				width[c] = cell[0].len;
		}
	}
	size_t claims_at = 0; /* claims start in one column for the whole game */
	for (int c = 0; c < COL_COUNT; c++)
		claims_at += width[c] + 1;
	turn = 1;
	for (size_t i = 0; i < rec->nmoves; i++) {
		const struct carc_move *m = &rec->moves[i];
		add_comments(out, rec, CARC_BEFORE_MOVE, i, false);
		numbers(rec, i, &turn, num);
		size_t line_start = out->len;
		/* the last non-empty column ends the line, without padding */
		int last = COL_TILE;
		for (int c = 0; c < COL_COUNT; c++) {
			column(rec, m, c, num, &cell[c]);
			if (c >= COL_COORD && cell[c].len)
				last = c;
		}
		for (int c = 0; c <= last; c++) {
			bool more = c < last || m->has_claim;
			if (c == COL_NUM)
				carc_buf_spaces(out, width[c] - cell[c].len);
			carc_buf_add(out, cell[c].data, cell[c].len);
			if (more)
				carc_buf_spaces(out, (c == COL_NUM ? 0 : width[c] - cell[c].len) + 1);
		}
		if (m->has_claim) {
			if (out->len - line_start < claims_at)
				carc_buf_spaces(out, claims_at - (out->len - line_start));
			claims(rec, m, out);
		}
		add_comments(out, rec, CARC_AFTER_MOVE, i, true);
		carc_buf_addc(out, '\n');
	}
	add_comments(out, rec, CARC_BEFORE_MOVE, rec->nmoves, false);
	for (int c = 0; c < COL_COUNT; c++)
		carc_buf_free(&cell[c]);
	free(done);
}
