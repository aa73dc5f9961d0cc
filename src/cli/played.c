/*
 * played.c - a tournament game's outcome (played.h).
 */
#include "cli/played.h"

#include <stdio.h>
#include <string.h>

const char *const played_kind_names[PLAYED_KINDS] = {
	"", "1-0", "time forfeit", "admin decision", "no-show", "withdrawal", "disqualification", "bye",
};

/* The notation's Termination (record.h) as a kind here. */
static enum played_kind kind_of(int termination)
{
	switch (termination) {
	case CARC_TERM_BYE:
		return PLAYED_BYE;
	case CARC_TERM_TIME_FORFEIT:
		return PLAYED_TIME_FORFEIT;
	case CARC_TERM_NO_SHOW:
		return PLAYED_NO_SHOW;
	case CARC_TERM_WITHDRAWAL:
		return PLAYED_WITHDRAWAL;
	case CARC_TERM_DISQUALIFICATION:
		return PLAYED_DISQUALIFIED;
	case CARC_TERM_ADMIN_DECISION:
		return PLAYED_ADMIN;
	case CARC_TERM_ONE_ZERO:
		return PLAYED_ONE_ZERO;
	default:
		return PLAYED_BOARD;
	}
}

bool played_level_option(const char *arg, enum played_level *level)
{
	if (!strcmp(arg, "draw"))
		*level = PLAYED_LEVEL_DRAW;
	else if (!strcmp(arg, "second"))
		*level = PLAYED_LEVEL_SECOND;
	else if (!strcmp(arg, "first"))
		*level = PLAYED_LEVEL_FIRST;
	else
		return false;
	return true;
}

const char *played_read(const struct carc_archive_game *game, enum played_level level, struct played *p)
{
	const struct carc_record *rec = game->rec;
	*p = (struct played){.winner = -1};
	p->event = carc_record_tag(rec, CARC_TAG_EVENT);
	p->round = carc_record_tag(rec, CARC_TAG_ROUND);
	p->date = carc_record_tag(rec, CARC_TAG_DATE);
	p->time = carc_record_tag(rec, CARC_TAG_TIME);
	p->board = carc_record_tag(rec, CARC_TAG_BOARD);
	p->match = carc_record_tag(rec, CARC_TAG_MATCH);
	p->format = carc_record_tag(rec, CARC_TAG_FORMAT);
	if (game->errors) {
		static char why[160]; /* (one game at a time) */
		size_t len = (size_t)snprintf(why, sizeof why, "invalid:");
		for (int c = 0; c < CARC_CODE_COUNT && len + 8 < sizeof why; c++)
			if (game->codes[c] && carc_code_severity((enum carc_code)c) == CARC_SEV_ERROR)
				len += (size_t)snprintf(why + len, sizeof why - len, " %s", carc_code_str((enum carc_code)c));
		return why;
	}
	p->kind = kind_of(rec->termination);
	p->nseats = rec->nseats;
	for (int s = 0; s < rec->nseats; s++)
		p->names[s] = carc_archive_player(rec, s);
	for (int s = 0; s < rec->nseats; s++)
		for (int t = s + 1; t < rec->nseats; t++)
			if (!strcmp(p->names[s], p->names[t]))
				return "one player on two seats";
	if (p->kind == PLAYED_BYE) {
		p->winner = 0;
		return NULL;
	}
	if (rec->nseats < 2)
		return "a game of one player";
	if (game->res && game->res->final_scored) {
		p->has_scores = true;
		for (int s = 0; s < rec->nseats; s++)
			p->scores[s] = game->res->scores[rec->seats[s]];
	}
	if (rec->winner != CARC_NO_COLOUR) {
		for (int s = 0; s < rec->nseats; s++)
			if (rec->seats[s] == rec->winner)
				p->winner = s;
		if (p->winner < 0)
			return "the Winner tag names no seat of the game";
		return NULL;
	}
	if (!p->has_scores)
		return "no final scores and no Winner tag";
	int best = 0, tops = 0;
	for (int s = 0; s < rec->nseats; s++)
		if (!s || p->scores[s] > p->scores[best]) {
			best = s;
			tops = 1;
		} else if (p->scores[s] == p->scores[best]) {
			tops++;
		}
	if (tops == 1)
		p->winner = best;
	else if (rec->nseats == 2 && level == PLAYED_LEVEL_SECOND)
		p->winner = 1;
	else if (rec->nseats == 2 && level == PLAYED_LEVEL_FIRST)
		p->winner = 0;
	return NULL;
}
