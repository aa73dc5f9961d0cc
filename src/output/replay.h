/*
 * replay.h - the replay page: one self-contained HTML file (carc render
 * --format html) that steps through the games of a record in a browser.
 *
 * Each game brings its board (svg.c's replay board: every tile and
 * follower drawn once, tagged with the steps it shows in), the score
 * report of carc score --format json with --projected, and what the page
 * shows per step: the supply, the followers taken off, the followers
 * left to each colour, the projected final. The page's markup, style and
 * script (src/output/page/) are built into the binary; the page needs nothing
 * from the network (its Content-Security-Policy forbids it).
 */
#ifndef CARC_REPLAY_H
#define CARC_REPLAY_H

#include "referee/referee.h"

/* A diagnostic of a game, as printed. */
struct carc_replay_note {
	unsigned line, col;      /* 0: about the file as a whole */
	size_t off;              /* offset in the game's text, when in_game */
	bool in_game;            /* its source is the game's text */
	enum carc_code code;
	enum carc_severity severity;
	char *message;           /* "file:line:col: error[E209]: ..." */
};

struct carc_replay;

struct carc_replay *carc_replay_new(void);
void carc_replay_free(struct carc_replay *p);

/* Adds a game refereed in full with opts (res->rec and res->game as the
 * run left them) and the diagnostics it had. False, having added nothing,
 * when it has more turns than can be projected (CARC_PROJECT_MAX_TURNS). */
bool carc_replay_add(struct carc_replay *p, const struct carc_result *res, const struct carc_referee_opts *opts,
		     const struct carc_replay_note *notes, size_t nnotes);

/* The whole page: title, and the step to open at (-1: the start). */
void carc_replay_write(struct carc_replay *p, struct carc_buf *out, const char *title, int open_turn);

/* carc render --format html (cmd_render_html.c): the page of FILE's games,
 * or of game game_wanted alone (0: all); open at turn (-1: the start).
 * Returns an exit status, having printed what went wrong. */
int carc_render_html(const char *path, const char *output, long game_wanted, long turn);

/* The built-in page files (generated from src/output/page/ by the build). */
const char *carc_page_text(const char *name, size_t *len);

#endif
