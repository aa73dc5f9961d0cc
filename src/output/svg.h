/*
 * svg.h - standalone SVG pictures: a tile set's reference sheet, and the map
 * at any turn with followers, marks and a legend.
 *
 * Tiles are drawn from their shapes (picture.h), so every tile set draws
 * without new code: fields, roads and rivers, cities and forests with their
 * walls, cloisters, lakes, and a symbol for each attribute (pennant, fish,
 * gold, animals, ...). The output is a complete SVG 1.1 document.
 */
#ifndef CARC_SVG_H
#define CARC_SVG_H

#include "output/picture.h"
#include "notation/record.h"

/* One row of the legend: a colour's name, player and score. */
struct carc_svg_player {
	uint8_t colour;
	const char *name;      /* the player's name, may be NULL */
	int score;
	const char *supply;    /* the figures left in supply, in words; NULL to leave out */
};

struct carc_svg_legend {
	const char *title;     /* first line, may be NULL */
	const char *subtitle;  /* "after turn 12: red V 1,0 0 farmer NNE" */
	const char *note;      /* a last line, such as an illegal move's message */
	const char *score_label; /* "scores" or "final scores" */
	struct carc_svg_player players[8];
	int nplayers;
	const char *const *role_names; /* role letter key: "K knight", ... may be NULL */
	int nroles;
	const char *rules;     /* under the subtitle: "base rules, edition 3, with The River"; may be NULL */
};

/* The whole tile set (or the listed tile types) on one sheet, the id, count
 * and start or bonus mark under each tile. */
void carc_svg_tile_sheet(struct carc_buf *out, const struct carc_tileset *ts, const int *tiles, int ntiles);

/* One tile type upright at 0,0 in a box of 100 x 100 units, as the maps
 * draw it: markup for inside an <svg> (carc recorder's page places its
 * tiles itself). */
void carc_svg_tile(struct carc_buf *out, const struct carc_tileset *ts, struct carc_shape_cache *shapes, int tile);

/* The map of the view with coordinates on its margins and the legend. */
void carc_svg_map(struct carc_buf *out, const struct carc_view *v, struct carc_shape_cache *shapes,
		  const struct carc_svg_legend *legend);

/* A mark on the replay board, shown at one step only. */
struct carc_svg_timed_mark {
	int32_t x, y;
	int step;
	uint8_t mark;          /* enum carc_mark */
	const char *title;     /* its tooltip, may be NULL (then the mark's own) */
};

/* The board of a whole game for the replay page (carc render --format
 * html), with no legend: every tile of v drawn once, in a group with
 * class "tile" and data-s, the step that placed it (tile_step, one per
 * view tile); every follower of v in a group with class "follower", data-s
 * and, when it was taken off, data-e (follower_steps: [came, went], went
 * -1 for never); and the marks, each in a group with class "mark" and
 * data-m, its step (an illegal move's: data-s, shown from then on). The page's script shows what belongs to a step.
 * Coordinates not on the board drop their marks. */
void carc_svg_replay_board(struct carc_buf *out, const struct carc_view *v, struct carc_shape_cache *shapes,
			   const int *tile_step, const int (*follower_steps)[2], const struct carc_svg_timed_mark *marks,
			   size_t nmarks);

/* Appends s with XML's special characters escaped, so that the text is
 * well-formed XML 1.0 whatever s holds: control characters other than tab
 * and newline are dropped; U+FFFE, U+FFFF, a C1 control and a byte that is
 * not UTF-8 become U+FFFD. */
void carc_svg_escape(struct carc_buf *out, const char *s);

/* The SVG colour of a player colour. */
const char *carc_svg_colour(int colour);

#endif
