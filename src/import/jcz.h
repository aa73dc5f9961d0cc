/*
 * jcz.h - JCloisterZone saved games (.jcz) into CGN.
 *
 * JCloisterZone (JCZ) saves a game as JSON: a setup (tile sets, figures,
 * rules, the start tile), the players, and a replay of messages: PLACE_TILE,
 * DEPLOY_MEEPLE, RETURN_MEEPLE, PASS and COMMIT, one group per turn. carc
 * reads the JSON with its strict reader (jsonread.h) and converts base games
 * and games with The River I and The Abbot (notation/jcz.md): anything it
 * cannot convert faithfully (another expansion's set, tile or figure, a rule
 * CGN has no word for, an unknown message) is refused with a diagnostic
 * located in the JSON text, never turned into a wrong record.
 *
 * The conventions, worked out from both formats' tile definitions and
 * checked against JCZ's own test games (tests/import/):
 * - Positions: JCZ's y grows southward, CGN's northward, so y = -y_jcz.
 *   Both put the start tile at 0,0; a JCZ start elsewhere is moved there.
 * - Rotations: R0 R90 R180 R270, clockwise, from JCZ's picture of the tile.
 *   JCZ pictures H, I and U (and their garden tiles) turned from CGN's
 *   (turn in the table below); every other tile, the river's too, the same
 *   way up.
 * - Follower locations are in board orientation: an edge N E S W or a union
 *   of edges (NE SE SW NW WE NS NWSE, and _N _E _S _W for all edges but
 *   one); half-edges NL NR EL ER SL SR WL WR, left and right as seen from the
 *   centre of the tile looking out (NL = NNW, EL = ENE, SL = SSE, WL = WSW),
 *   joined by '.'; I (or CLOISTER) for the cloister or the garden.
 */
#ifndef CARC_JCZ_H
#define CARC_JCZ_H

#include "common/diag.h"
#include "notation/tileset.h"

#include <stdbool.h>
#include <stdint.h>

/* The bundled tile sets a JCZ tile comes from. */
enum carc_jcz_set { CARC_JCZ_BASE, CARC_JCZ_RIVER, CARC_JCZ_INNS, CARC_JCZ_TRADERS, CARC_JCZ_NSETS };

/* A tile as JCZ names it. */
struct carc_jcz_tile {
	const char *id;    /* "BA/CFCG" */
	const char *tile;  /* "Hg": CGN's id of the tile in its bundled set */
	const char *plain; /* "H": the id without The Abbot, whose gardens only the
			    * abbot uses (the same as tile for a tile with no garden) */
	uint8_t set;       /* enum carc_jcz_set */
	uint8_t turn;      /* JCZ's picture is CGN's turned this many quarters clockwise */
};

/* The JCZ tiles carc converts: the base set (the garden tiles of the 2nd
 * edition included) and The River I. */
const struct carc_jcz_tile *carc_jcz_tiles(size_t *count);
/* The tile JCZ calls id, or NULL. */
const struct carc_jcz_tile *carc_jcz_tile_find(const char *id, size_t len);

/* A feature location in board orientation: edge bits (bit e: edge e), half-edge
 * bits (bit h: half-edge h, NL..WR in JCZ's order, which is CGN's), centre. */
struct carc_jcz_location {
	uint8_t edges;
	uint8_t halves;
	bool centre;
};

/* Parses a JCZ location ("N", "_S", "NL.NR.EL", "I"). False if a part is not
 * a base-game location or edges and half-edges are mixed. */
bool carc_jcz_parse_location(const char *s, size_t len, struct carc_jcz_location *loc);
/* Appends the location as JCZ writes it (the inverse of parsing). */
void carc_jcz_location_name(const struct carc_jcz_location *loc, struct carc_buf *out);
/* The feature of tile t turned rot quarters clockwise whose kind is kind (a
 * kind name of the tile set: "city") and which covers exactly loc, or -1. */
int carc_jcz_feature_at(const struct carc_tileset *ts, const struct carc_tile *t, int rot, const char *kind,
			const struct carc_jcz_location *loc);
/* The location of feature f of tile t turned rot, as JCZ states it. */
struct carc_jcz_location carc_jcz_feature_location(const struct carc_tileset *ts, const struct carc_tile *t,
						   int rot, int f);

/* Converts the .jcz text of src into one game of canonical CGN, appended to
 * out. name is shown in the record's opening comment (NULL: none). Every
 * problem is reported to sink (codes E501-E513, located in src); returns
 * false, appending nothing, when the game cannot be converted. */
bool carc_jcz_import(const struct carc_src *src, const char *name, struct carc_buf *out,
		     struct carc_diag_sink *sink);

#endif
