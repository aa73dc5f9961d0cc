/*
 * picture.h - pictures of tiles and of the map: the shapes of a tile's
 * features, and drawing them as characters in a terminal.
 *
 * Everything is computed from the tile set: a feature's class (path,
 * enclosure, site, area, lake), the edges and half-edges it covers and its
 * attributes decide its shape, so a new tile set draws without new code.
 *
 * Shapes. A tile is the unit square in its pictured orientation, x to the
 * east and y to the SOUTH (as on a screen), (0,0) the north-west corner:
 *   - an enclosure (city, forest) fills the edges it covers: a cap on one
 *     edge, a diagonal half on two adjacent edges, a band across two
 *     opposite ones, all but a cap on three, the whole tile on four; its
 *     walls are the curves that bound it inside the tile;
 *   - a path (road, river) is a centre line: a curve between two adjacent
 *     edges, a straight line between opposite ones, and a line from each
 *     edge to the centre when it has one edge or more than two;
 *   - a site (cloister, garden) is a square in the centre, a lake a disc
 *     there;
 *   - an area (field, meadow) covers the half-edges it touches, out to the
 *     paths and walls that bound it.
 * The same shapes serve the SVG pictures (svg.c) and the terminal ones.
 */
#ifndef CARC_PICTURE_H
#define CARC_PICTURE_H

#include "notation/tileset.h"
#include "common/util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct carc_pt {
	float x, y;
};

#define CARC_POLY_MAX 56
struct carc_poly {
	int n;
	struct carc_pt p[CARC_POLY_MAX];
};

struct carc_feature_shape {
	uint8_t nregions;               /* filled polygons */
	uint8_t nlines;                 /* paths: centre lines; enclosures: walls */
	struct carc_poly region[4];
	struct carc_poly line[4];
	struct carc_pt label;           /* inside the visible part: symbols, followers */
};

struct carc_tile_shape {
	int tile;
	int nfeatures;
	bool hub;                       /* paths end in the centre: draw a junction */
	struct carc_feature_shape f[CARC_MAX_FEATURES];
};

/* Computes the shapes of every feature of a tile type, in its pictured
 * orientation. Labels are found by sampling, so this costs a little: callers
 * drawing many tiles keep one shape per tile type (carc_shape_cache). */
void carc_tile_shape(const struct carc_tileset *ts, int tile, struct carc_tile_shape *out);

/* The feature that shows at a point of the pictured tile (sites and lakes
 * over enclosures over paths over areas), or CARC_NO_FEATURE. With
 * no_paths, paths and sites are ignored (the terminal draws them itself). */
int carc_shape_hit(const struct carc_tileset *ts, const struct carc_tile_shape *s, struct carc_pt p,
		   bool no_paths);

/* Shapes of the tile types of one tile set, computed on first use. */
struct carc_shape_cache;
struct carc_shape_cache *carc_shape_cache_new(const struct carc_tileset *ts);
const struct carc_tile_shape *carc_shape_get(struct carc_shape_cache *c, int tile);
void carc_shape_cache_free(struct carc_shape_cache *c);

/* A point of a tile turned rot quarter turns clockwise, on the board (same
 * axes: y to the south within the tile). */
struct carc_pt carc_pt_turn(struct carc_pt p, int rot);

/* What a kind of feature looks like: chosen by its name when it is a
 * well-known one (road, river, city, forest, field, meadow, cloister,
 * garden, lake),
 * else by its class and its rank among the kinds of that class. */
struct carc_kind_look {
	const char *fill;      /* SVG colours */
	const char *edge;      /* outline, wall */
	const char *glyph;     /* terminal, Unicode */
	const char *ascii;     /* terminal, ASCII */
	int ansi;              /* SGR colour for the terminal */
	bool water;            /* paths: drawn as waves in the terminal */
	bool trees;            /* enclosures: trees drawn on it */
	bool flowers;          /* sites: a garden (SVG: a flower bed, not a cloister) */
};
const struct carc_kind_look *carc_kind_look(const struct carc_tileset *ts, int kind);

/* How attributes are drawn: terminal glyphs; svg.c draws its own symbols.
 * An attribute the tile set declares (attr >= CARC_ATTR_COUNT) is known by
 * its name (inn, cathedral, wine, grain, cloth), else drawn as its first
 * letter; ts may be NULL for the known ones. */
const char *carc_attr_glyph(const struct carc_tileset *ts, int attr, bool ascii);

/* The letters used in the terminal: a role's letter is the first letter of
 * its name not already taken by an earlier role of the rule set; a colour's
 * letter is r g b y k a p. */
char carc_colour_letter(int colour);

/* ---- the board as it is to be drawn ---- */

enum carc_mark {
	CARC_MARK_NONE,
	CARC_MARK_LAST,       /* the last placed tile */
	CARC_MARK_HIGHLIGHT,  /* a cell asked for with --highlight */
	CARC_MARK_ILLEGAL,    /* the offending tile of an illegal move */
};

struct carc_view_tile {
	int32_t x, y;
	uint16_t tile;
	uint8_t rot;
	uint8_t mark;                         /* enum carc_mark */
	uint8_t owners[CARC_MAX_FEATURES];    /* bit c: colour c holds the feature (majority) */
};

struct carc_view_follower {
	uint32_t tile;        /* index into view tiles */
	uint8_t feature;      /* feature of that tile's type */
	uint8_t colour;
	char letter;          /* role letter */
	bool hut;             /* drawn as a hut */
	bool large;           /* counts more than 1 in a majority (a large follower): drawn larger */
	const char *role;
};

struct carc_view_cell {   /* a mark on a cell, tile or not */
	int32_t x, y;
	uint8_t mark;
};

struct carc_view {
	const struct carc_tileset *ts;
	struct carc_view_tile *tiles;
	size_t ntiles;
	struct carc_view_follower *followers;
	size_t nfollowers;
	struct carc_view_cell cells[8];
	int ncells;
	bool features;        /* colour features by owner (SVG) */
};

/* The columns (or rows) a map draws, ascending: every coordinate from the
 * least to the greatest, except that a run of CARC_AXIS_GAP or more empty
 * ones is left out and marked as a gap before the next slot. So a tile put
 * far away by an illegal move cannot make the picture huge. */
enum { CARC_AXIS_GAP = 3 };
struct carc_axis {
	int n;
	struct carc_axis_slot {
		int32_t value;
		bool gap;             /* empty coordinates were left out before this one */
	} *slot;
};
void carc_view_axis(const struct carc_view *v, bool rows, struct carc_axis *out);
/* The slot of a coordinate (which must be one of the view's), or -1. */
int carc_axis_find(const struct carc_axis *a, int32_t value);
void carc_axis_free(struct carc_axis *a);

/* ---- terminal drawing ---- */

/* A grid of character cells: each a glyph (UTF-8, up to 4 bytes) and an
 * SGR colour (0: none; negative: a follower's colour, as background). */
struct carc_canvas {
	int w, h;
	struct carc_canvas_cell {
		char glyph[5];
		int16_t sgr;
	} *cell;
};
void carc_canvas_init(struct carc_canvas *cv, int w, int h);
void carc_canvas_free(struct carc_canvas *cv);
void carc_canvas_put(struct carc_canvas *cv, int x, int y, const char *glyph, int sgr);
/* Writes a string of single-width characters from (x, y). */
void carc_canvas_text(struct carc_canvas *cv, int x, int y, const char *s, int sgr);
/* Appends the canvas to out, trailing blanks cut; color adds SGR codes. */
void carc_canvas_render(const struct carc_canvas *cv, struct carc_buf *out, bool color);

/* Draws a tile turned rot quarter turns, w x h characters (both odd) with
 * its north-west corner at (x, y). */
void carc_picture_tile(struct carc_canvas *cv, int x, int y, int w, int h, const struct carc_tileset *ts,
		       const struct carc_tile_shape *s, int rot, bool ascii);

/* Tile size on the map, in characters. */
enum { CARC_MAP_TILE_W = 7, CARC_MAP_TILE_H = 3 };

/* Draws the whole view: each tile a CARC_MAP_TILE_W x _H block, a blank
 * column and row between tiles (where marked cells get their frame),
 * x coordinates above and y coordinates left of the map; left-out empty
 * columns and rows (see carc_view_axis) show as "..." in the margins. */
void carc_picture_map(struct carc_buf *out, const struct carc_view *v, struct carc_shape_cache *shapes, bool ascii,
		      bool color);

/* One line naming the glyphs a tile set uses, for under a picture:
 * "▓ city  ═ road  · field  † cloister  ♦ pennant". */
void carc_picture_key(struct carc_buf *out, const struct carc_tileset *ts, bool ascii);

#endif
