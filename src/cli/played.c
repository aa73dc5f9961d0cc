/*
 * played.c - a tournament game's outcome (played.h).
 */
#include "cli/played.h"

#include <string.h>

const char *const played_kind_names[PLAYED_KINDS] = {
	"", "1-0", "time forfeit", "admin decision", "no-show", "withdrawal", "disqualification", "bye",
};

/* The value of the tag called name (an unknown tag to the notation, or a
 * known one), or NULL. */
static const char *tag_named(const struct carc_record *rec, const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_tag *t = &rec->tags[i];
		if (t->name.len == len && !strncmp(rec->src.text + t->name.off, name, len))
			return carc_tag_text(rec, t);
	}
	return NULL;
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
	p->time = tag_named(rec, "Time");
	p->board = tag_named(rec, "Board");
	p->match = tag_named(rec, "Match");
	p->format = tag_named(rec, "Format");
	if (rec->header_errors)
		return "its tags have an error";
	p->nseats = rec->nseats;
	for (int s = 0; s < rec->nseats; s++)
		p->names[s] = carc_archive_player(rec, s);
	for (int s = 0; s < rec->nseats; s++)
		for (int t = s + 1; t < rec->nseats; t++)
			if (!strcmp(p->names[s], p->names[t]))
				return "one player on two seats";
	const char *termination = tag_named(rec, "Termination");
	if (termination) {
		int k = 1;
		while (k < PLAYED_KINDS && strcmp(termination, played_kind_names[k]))
			k++;
		if (k == PLAYED_KINDS)
			return "an unknown Termination";
		p->kind = (enum played_kind)k;
	}
	if (p->kind == PLAYED_BYE) {
		if (rec->nseats != 1)
			return "a bye with more than one seat";
		p->winner = 0;
		return NULL;
	}
	if (rec->nseats < 2)
		return "a game of one player";
	if (rec->has_moves) {
		if (game->errors)
			return "invalid";
		if (!game->res || !game->res->final_scored)
			p->has_scores = false;
		else {
			p->has_scores = true;
			for (int s = 0; s < rec->nseats; s++)
				p->scores[s] = game->res->scores[rec->seats[s]];
		}
	} else if (rec->has_result) {
		p->has_scores = true;
		bool named[CARC_COLOURS] = {0};
		for (unsigned i = 0; i < rec->result_count; i++) {
			const struct carc_claim *c = &rec->claims[rec->result_first + i];
			for (int s = 0; s < rec->nseats; s++)
				if (rec->seats[s] == c->colour) {
					p->scores[s] = c->points;
					named[s] = true;
				}
		}
		for (int s = 0; s < rec->nseats; s++)
			p->has_scores &= named[s];
	}
	const char *winner = tag_named(rec, "Winner");
	if (winner) {
		int colour = carc_colour_lookup(winner, strlen(winner));
		for (int s = 0; s < rec->nseats; s++)
			if (rec->seats[s] == colour)
				p->winner = s;
		if (p->winner < 0)
			return "the Winner tag names no seat of the game";
		return NULL;
	}
	if (!p->has_scores)
		return p->kind == PLAYED_BOARD ? "no final scores and no Winner tag" : "no Winner tag";
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
