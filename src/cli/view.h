/*
 * view.h - one game of a record at a chosen turn, ready to be drawn.
 *
 * carc show and carc render share this: read a file up to the wanted game,
 * referee the whole game once (so every diagnostic is reported), choose the
 * turn to show (the one asked for; else the first illegal move; else the end
 * of the game), replay up to it, and turn the engine's state into a
 * carc_view (picture.h) with the scores of that moment.
 */
#ifndef CARC_VIEW_H
#define CARC_VIEW_H

#include "output/picture.h"
#include "referee/referee.h"

struct carc_scene {
	/* what was shown */
	struct carc_record rec;
	struct carc_result res;
	struct carc_game *game;
	struct carc_view view;
	int lines;               /* turn lines replayed (0: only the start tile) */
	int turn_number;         /* number of the last turn shown, 0 for the start */
	int turn_line;           /* its line in the file, 0 for the start */
	bool final;              /* the scores are the final ones */
	bool illegal_shown;      /* the turn shown is the first illegal move */
	int scores[CARC_COLOURS];
	char role_letter[CARC_MAX_ROLES];
	char *first_error;       /* message of the first error on the turn shown, or NULL */
	int bad_line;            /* a syntax error stopped the replay at this line, or 0 */
	int last_number;         /* the number of the game's last turn */
	unsigned errors;         /* the game's errors, syntax included */
	struct carc_shape_cache *shapes;
	/* kept alive for rec */
	FILE *file;
	struct carc_tileset_cache *cache;
	struct carc_reader *reader;
};

/* Loads game `game` (from 1) of path ("-": standard input) at turn `turn`
 * (-1: the first illegal move, else the end). Diagnostics go to sink.
 * Returns CARC_EXIT_OK, CARC_EXIT_INVALID (the game has errors; a view was
 * still made when view.ts is set) or CARC_EXIT_TROUBLE (nothing to show;
 * a message was printed on standard error for `cmd`). */
int carc_scene_load(struct carc_scene *s, const char *cmd, const char *path, int game, int turn,
		    struct carc_diag_sink *sink);
void carc_scene_free(struct carc_scene *s);


/* The rules played: "base rules, edition 3, with The River and The Abbot". */
void carc_scene_rules(const struct carc_scene *s, struct carc_buf *out);
/* A colour's figures off the map in the position shown (at the end of a
 * game: when its last tile was laid, before final scoring): "6 followers in
 * supply", then the huts and each role's own supply when the rules have
 * them ("2 huts", "1 abbot"). Every figure is either there or standing on
 * the map, in every rule set. */
void carc_scene_supply(const struct carc_scene *s, int colour, struct carc_buf *out);

/* "after turn 12: red V at 1,0 turned 90, farmer NNE" */
void carc_scene_describe(const struct carc_scene *s, struct carc_buf *out);

#endif
