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
	static struct carc_buf why; /* (one game at a time; kept for the next) */
	struct carc_outcome o;
	const char *unfit = carc_outcome_of(game, false, &o, &why);
	*p = (struct played){.winner = o.winner, .nseats = o.nseats, .has_scores = o.scores, .outcome = o};
	p->kind = kind_of(o.termination);
	if (o.termination == CARC_TERM_ADMIN_DECISION && !o.technical)
		p->kind = PLAYED_BOARD; /* an admin decision without a Winner: its Result's */
	p->event = o.event;
	p->round = o.round;
	p->date = o.date;
	p->match = o.match;
	p->format_games = o.format_games > 0 ? (unsigned)o.format_games : 0;
	p->time = p->time_text;
	if (o.time_of_day >= 0)
		snprintf(p->time_text, sizeof p->time_text, "%02d:%02d:%02d", (int)(o.time_of_day / 3600),
			 (int)(o.time_of_day / 60 % 60), (int)(o.time_of_day % 60));
	for (int s = 0; s < o.nseats; s++) {
		p->names[s] = o.player[s];
		p->scores[s] = o.score[s];
	}
	if (unfit)
		return unfit;
	if (p->winner < 0 && o.technical)
		return "no Winner tag";
	if (p->winner < 0 && p->nseats == 2 && level == PLAYED_LEVEL_SECOND)
		p->winner = 1;
	else if (p->winner < 0 && p->nseats == 2 && level == PLAYED_LEVEL_FIRST)
		p->winner = 0;
	return NULL;
}
