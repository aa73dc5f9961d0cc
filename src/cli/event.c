/*
 * event.c - a game as a tournament counts it (event.h).
 */
#include "cli/event.h"

#include <string.h>

/* Why the game cannot be counted, or NULL. */
static const char *unfit(const struct carc_archive_game *game, bool include_invalid, const struct carc_outcome *o,
			 struct carc_buf *why)
{
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	carc_buf_reset(why);
	if (game->errors) {
		carc_buf_adds(why, "invalid:");
		for (int c = 0; c < CARC_CODE_COUNT; c++)
			if (game->codes[c] && carc_code_severity((enum carc_code)c) == CARC_SEV_ERROR)
				carc_buf_printf(why, " %s", carc_code_str((enum carc_code)c));
		if (!include_invalid || !(res->refereed || res->result_only))
			return carc_buf_cstr(why);
	}
	if (rec->rules->flags & CARC_RS_NO_WINNER) {
		carc_buf_reset(why);
		carc_buf_printf(why, "a %s game has no opponents", rec->rules->name);
		return carc_buf_cstr(why);
	}
	if (o->bye)
		return NULL;
	if (rec->nseats < 2)
		return "a game of one player";
	if (!o->scores && o->winner < 0)
		return "unfinished, with no Result: no final scores";
	for (int s = 0; s < rec->nseats; s++)
		for (int t = s + 1; t < rec->nseats; t++)
			if (!strcmp(o->player[s], o->player[t])) {
				carc_buf_reset(why);
				carc_buf_printf(why, "%s plays two seats", o->player[s]);
				return carc_buf_cstr(why);
			}
	return NULL;
}

const char *carc_outcome_of(const struct carc_archive_game *game, bool include_invalid, struct carc_outcome *o,
			    struct carc_buf *why)
{
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	memset(o, 0, sizeof *o);
	o->nseats = rec->nseats;
	o->winner = -1;
	o->termination = (enum carc_termination)rec->termination;
	o->event = carc_record_tag(rec, CARC_TAG_EVENT);
	o->round = carc_record_tag(rec, CARC_TAG_ROUND);
	o->match = carc_record_tag(rec, CARC_TAG_MATCH);
	o->date = carc_record_tag(rec, CARC_TAG_DATE);
	o->board = rec->board;
	o->format_games = rec->format_games;
	o->time_of_day = rec->time_of_day;
	int winner_seat = -1;
	for (int s = 0; s < rec->nseats; s++) {
		o->player[s] = carc_archive_player(rec, s);
		o->colour[s] = rec->seats[s];
		if (rec->seats[s] == rec->winner)
			winner_seat = s;
	}
	o->bye = rec->termination == CARC_TERM_BYE && rec->nseats == 1;
	/* technical: decided off the board; an admin decision without a
	 * Winner is its Result's */
	o->technical = rec->termination != CARC_TERM_NONE && !o->bye &&
		       !(rec->termination == CARC_TERM_ADMIN_DECISION && winner_seat < 0);
	if (o->bye) {
		o->winner = 0;
	} else if (o->technical) {
		o->winner = winner_seat;
	} else if (res->final_scored) {
		o->scores = true;
		int best = 0;
		for (int s = 0; s < rec->nseats; s++) {
			o->score[s] = res->scores[rec->seats[s]];
			if (!s || o->score[s] > best)
				best = o->score[s], o->top = 1u << s;
			else if (o->score[s] == best)
				o->top |= 1u << s;
		}
		if (winner_seat >= 0)
			o->winner = winner_seat; /* a level score decided, as the Winner tag says */
		else if (!(o->top & (o->top - 1)))
			o->winner = carc_lowest_bit(o->top);
	}
	return unfit(game, include_invalid, o, why);
}
