/*
 * tileset.h - tile sets: the tile types of a game, their edges and features.
 *
 * A tile set is data (a YAML file, see man carc-tileset(5)); the bundled ones
 * are compiled into the binary. Everything the rules need to know about a
 * tile is here: the terrain of each edge, and each feature with the edges and
 * half-edges it covers, its kind (road, city, river, ...) and its attributes
 * (pennants, fish, animals, ...). Feature kinds carry a scoring class, so the
 * rules engine works on classes and the same code serves every tile set.
 *
 * Directions. Edges are numbered clockwise from north: N=0 E=1 S=2 W=3.
 * Half-edges are numbered clockwise from the north-west corner:
 *   NNW=0 NNE=1 ENE=2 ESE=3 SSE=4 SSW=5 WSW=6 WNW=7
 * (NNW is the west half of the north edge). Half-edge h lies on edge h/2.
 * Rotating a tile by r quarter turns clockwise moves edge e to (e+r)&3 and
 * half-edge h to (h+2r)&7.
 */
#ifndef CARC_TILESET_H
#define CARC_TILESET_H

#include "common/diag.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { CARC_N, CARC_E, CARC_S, CARC_W };

#define CARC_NO_FEATURE 0xff
#define CARC_MAX_TERRAINS 8
#define CARC_MAX_KINDS 12
#define CARC_MAX_FEATURES 16   /* per tile type */
#define CARC_MAX_TILE_TYPES 250
#define CARC_MAX_TILES 1000    /* in all, so the board stays small */
#define CARC_ID_MAX 15
#define CARC_MAX_EXPANSIONS 8

/* How a kind of feature behaves on the board and in scoring. */
enum carc_class {
	CARC_CLASS_PATH,      /* road, river: runs through the middle of edges */
	CARC_CLASS_ENCLOSURE, /* city, forest: fills whole edges, closes to complete */
	CARC_CLASS_SITE,      /* cloister: the centre, complete with 8 neighbours */
	CARC_CLASS_AREA,      /* field, meadow: covers half-edges, scored at the end */
	CARC_CLASS_LAKE,      /* lake: the centre, where rivers end (Hunters and Gatherers) */
	CARC_CLASS_COUNT
};

/* Countable attributes of a feature: those every tile set knows, in this
 * order; a tile set may declare more by name (its attributes key, up to
 * CARC_MAX_ATTRS in all), numbered after them in the order it names them,
 * which rule-set modules look up by name (carc_tileset_attr). */
#define CARC_MAX_ATTRS 16
enum carc_attr {
	CARC_ATTR_PENNANT,
	CARC_ATTR_FISH,
	CARC_ATTR_GOLD,
	CARC_ATTR_DEER,
	CARC_ATTR_MAMMOTH,
	CARC_ATTR_TIGER,
	CARC_ATTR_AUROCHS,
	CARC_ATTR_MUSHROOM,
	CARC_ATTR_FIRE,
	CARC_ATTR_SHRINE,
	CARC_ATTR_VOLCANO,
	CARC_ATTR_COUNT
};

struct carc_kind {
	char name[CARC_ID_MAX + 1];
	uint8_t klass;   /* enum carc_class */
	uint8_t terrain; /* edge terrain it crosses; CARC_NO_FEATURE for sites */
};

/* What stops a path on its tile (the `end` key), in the order of the names
 * tileset.c accepts. Informational for roads; for rivers, CARC_END_LAKE ties
 * the river to the lake in the centre of its tile (Hunters and Gatherers). */
enum carc_path_end {
	CARC_END_CLOISTER, CARC_END_CITY, CARC_END_JUNCTION, CARC_END_CROSSROADS,
	CARC_END_SPRING, CARC_END_LAKE, CARC_END_VOLCANO
};

struct carc_feature {
	uint8_t kind;    /* index into carc_tileset.kinds */
	uint8_t edges;   /* bit e: the feature crosses edge e (areas: both halves) */
	uint8_t halves;  /* bit h: the feature covers half-edge h */
	uint8_t end;     /* for paths: enum carc_path_end, or CARC_NO_FEATURE */
	uint16_t borders; /* for areas: bit i: borders feature i of the same tile */
	uint8_t attr[CARC_MAX_ATTRS]; /* by attribute: the known ones (enum carc_attr), then the set's own */
	bool inner;      /* an area that touches no edge (a field walled in by cities): spot I */
	unsigned line;   /* where it is defined in the tile-set file */
};

struct carc_tile {
	char id[CARC_ID_MAX + 1];
	char *name;       /* description, may be NULL */
	uint16_t count;   /* how many tiles of this type, the start tile included */
	bool start;       /* one of them is the start tile */
	bool bonus;       /* drawn from the bonus stack (Hunters and Gatherers) */
	uint8_t nfeatures;
	uint8_t edge_terrain[4];
	uint8_t edge_feature[4]; /* feature crossing edge e, or CARC_NO_FEATURE */
	uint8_t half_feature[8]; /* feature covering half-edge h */
	uint8_t centre_feature;  /* the site or lake at spot C, or CARC_NO_FEATURE */
	uint8_t inner_feature;   /* the area that touches no edge (inner: true) at spot I, or CARC_NO_FEATURE */
	uint32_t rot_edges[4];   /* edge terrains packed per rotation, byte e = edge e */
	struct carc_feature features[CARC_MAX_FEATURES];
	unsigned line;
	/* Expansions (see carc_tileset_play): a type that exists only with an
	 * expansion is set aside until that expansion is played. */
	uint8_t expansion;  /* index + 1 into carc_tileset.expansions, 0: always */
	bool last;          /* drawn last of its stack (the lake of The River) */
	uint16_t box_count; /* count in the file, before any replacement */
	int16_t replaces;   /* a type it takes the place of, one tile each: its
			     * index among all types in file order, or -1 */
	uint16_t order;     /* its index among all types in file order */
};

struct carc_tileset {
	char *name;
	char *title;
	char *rules;        /* the rule set it is made for, may be NULL */
	char *note;         /* shown by carc tiles, may be NULL */
	bool provisional;   /* not the printed distribution */
	bool joins;         /* its tiles join a base set's supply (joins: true): it may have no start
			       tile, and is not played alone */
	int nterrains;
	char terrains[CARC_MAX_TERRAINS][CARC_ID_MAX + 1];
	int nkinds;
	struct carc_kind kinds[CARC_MAX_KINDS];
	int nattrs;         /* attributes: CARC_ATTR_COUNT known, then those the set declares */
	char attrs[CARC_MAX_ATTRS][CARC_ID_MAX + 1];
	int ntiles;
	struct carc_tile *tiles;
	int start_tile;     /* index into tiles */
	int total;          /* land tiles, the start tile included */
	int bonus_total;    /* tiles in the bonus stack */
	uint8_t by_letter[128]; /* single-character id -> tile index + 1 */
	uint8_t by_pair[128][128]; /* two-character id (ASCII) -> tile index + 1 */
	int nexpansions;    /* the expansions the set's tiles may name */
	char expansions[CARC_MAX_EXPANSIONS][CARC_ID_MAX + 1];
	unsigned playing;   /* bit i: expansions[i] is played */
	int nextra;         /* types set aside: tiles[ntiles .. ntiles + nextra) */
	int last_tile;      /* index of the type marked last, or -1 */
	unsigned long serial; /* unique among the tile sets loaded by this process,
			       * renewed when carc_tileset_play changes the tiles */
	char *source;       /* the YAML text, for diagnostics */
	size_t source_len;
};

/* Loads a tile set from YAML text. name is used in messages. Returns NULL
 * after reporting every problem found to sink. */
struct carc_tileset *carc_tileset_parse(const char *text, size_t len, const char *name,
					struct carc_diag_sink *sink);
/* Loads a bundled tile set by name, or else a file by path. Problems are
 * reported to sink, located at (src, off, len) when the file cannot be found
 * (the tag that named it), and inside the file otherwise. */
struct carc_tileset *carc_tileset_load(const char *name_or_path, struct carc_diag_sink *sink,
				       const struct carc_src *src, size_t off, size_t len);
void carc_tileset_free(struct carc_tileset *ts);
/* Reads a tile-set file from f, bounded: a regular file over 64 MiB is
 * refused unread, any other source (a pipe, /dev/zero) is read no further
 * than 64 MiB, or than the chunk that holds its first NUL byte (which the
 * loader refuses with its offset). NULL with errno set (EFBIG when too
 * large). The text is NUL-terminated; free() it. */
char *carc_tileset_read(FILE *f, size_t *len);

/* Bundled tile sets, in the order they are listed. */
size_t carc_bundled_count(void);
const char *carc_bundled_name(size_t i);
const char *carc_bundled_text(const char *name, size_t *len);

/* Puts into play the tile types of the expansions named in words (blank-
 * or comma-separated, any case) and takes out of play the tiles they
 * replace; an expansion this set does not name is no error (its tiles live
 * in another set). Expansions not named go out of play again, so a set can
 * be switched back and forth. Tile indices change: types keep the file's
 * order, those set aside after them; so does the serial, so that a game
 * does not keep what it derived from the tiles before. */
void carc_tileset_play(struct carc_tileset *ts, const char *words, size_t len);
/* One tile set of several, for a game whose expansions bring tiles of
 * their own (The River): the types of each set in turn (sets[0]'s first),
 * the kinds, terrains and expansions merged by name, the start tile the
 * first set's that has one (an expansion's set of tiles for the base
 * supply, Inns & Cathedrals', has none; the others' start tiles are
 * ordinary tiles of the set), the
 * title, rules and note of the last (the base set); no expansion in play.
 * NULL when they do not fit in one set (too many kinds, terrains, types or
 * tiles, or a kind of one name but two classes). free with
 * carc_tileset_free. */
struct carc_tileset *carc_tileset_join(const struct carc_tileset *const *sets, int n);
/* True when only tile types set aside (an expansion not played) have a
 * feature of this kind: listings leave such a kind out. */
bool carc_kind_aside(const struct carc_tileset *ts, int kind);
/* Index of an expansion the set names, or -1. */
int carc_tileset_expansion(const struct carc_tileset *ts, const char *name, size_t len);

/* The index of the tile type with this id, or -1. */
int carc_tileset_find(const struct carc_tileset *ts, const char *id, size_t len);
/* A tile type set aside, its expansion not played, that takes the place of
 * a type in play (`replaces`: The Abbot's garden tiles): the box still
 * holds it, so a record may name it, and it then plays as that type, its
 * twin, counted against the twin's supply (RULINGS: without The Abbot a
 * garden is scenery). The twin's index, and the set-aside type's in *aside
 * (may be NULL); -1 when id names no such type. */
int carc_tileset_find_twin(const struct carc_tileset *ts, const char *id, size_t len, int *aside);
/* Attribute index by name (a known one or one the set declares), or -1. */
int carc_tileset_attr(const struct carc_tileset *ts, const char *name, size_t len);
/* Kind index by name, or -1. */
int carc_tileset_kind(const struct carc_tileset *ts, const char *name);
/* Terrain index by name, or -1. */
int carc_tileset_terrain(const struct carc_tileset *ts, const char *name, size_t len);

const char *carc_class_name(enum carc_class c);
const char *carc_attr_name(enum carc_attr a);
extern const char *const carc_edge_names[4];  /* "N" "E" "S" "W" */
extern const char *const carc_half_names[8];  /* "NNW" ... "WNW" */

/* Terrain of board edge e of a tile turned by rot quarter turns. */
static inline uint8_t carc_tile_edge(const struct carc_tile *t, int rot, int e)
{
	return t->edge_terrain[(e - rot) & 3];
}
/* Feature of a turned tile at board half-edge h / board edge e. */
static inline uint8_t carc_tile_half(const struct carc_tile *t, int rot, int h)
{
	return t->half_feature[(h - 2 * rot) & 7];
}
static inline uint8_t carc_tile_edge_feature(const struct carc_tile *t, int rot, int e)
{
	return t->edge_feature[(e - rot) & 3];
}
/* Edge and half-edge masks of a feature, turned to the board. */
static inline uint8_t carc_rot_edges(uint8_t mask, int rot)
{
	rot &= 3;
	return (uint8_t)(((mask << rot) | (mask >> (4 - rot))) & 0xf);
}
static inline uint8_t carc_rot_halves(uint8_t mask, int rot)
{
	int r = (2 * rot) & 7;
	return (uint8_t)(((mask << r) | (mask >> (8 - r))) & 0xff);
}



/* A cache of loaded tile sets, so that a file of many games loads each tile
 * set once. Not shared between threads: each worker has its own. */
struct carc_tileset_cache;
struct carc_tileset_cache *carc_tileset_cache_new(void);
/* Like carc_tileset_load(), remembering what it loaded. Failures are not
 * remembered, so each game that names a bad tile set gets its message. */
const struct carc_tileset *carc_tileset_cache_get(struct carc_tileset_cache *c, const char *name_or_path,
						  struct carc_diag_sink *sink, const struct carc_src *src,
						  size_t off, size_t len);
/* The tile set of a game with expansions, remembered: carc_tileset_join of
 * the sets (each remembered by this cache, or else alive as long as it),
 * with the expansions named in play (carc_tileset_play) in play. NULL when
 * they do not fit in one set. */
const struct carc_tileset *carc_tileset_cache_join(struct carc_tileset_cache *c,
						   const struct carc_tileset *const *sets, int n, const char *play);
/* The tile set of a game whose base set is base and whose expansions are
 * x (n of them, a record's rec->expansions): the own tiles of those that
 * have a set of them (The River's) before base's, every expansion's tiles
 * in play; remembered (carc_tileset_cache_join). NULL with *loaded false
 * when an expansion's set cannot be loaded (reported to sink), with
 * *loaded true when the sets do not fit in one. */
struct carc_ruleset;
const struct carc_tileset *carc_tileset_cache_expand(struct carc_tileset_cache *c, const struct carc_tileset *base,
						     const struct carc_ruleset *const *x, int n,
						     struct carc_diag_sink *sink, bool *loaded);
void carc_tileset_cache_free(struct carc_tileset_cache *c);

/* Records come from strangers, so the tile set a record's Tileset tag names
 * (value v; record is the record's file name as given, "-" or "<stdin>" for
 * standard input) is looked up under a policy:
 *   - a bundled name (base, hunters, inns, river, in any case) always works;
 *   - a relative path is looked up in the record's own folder, then in each
 *     folder carc_tileset_allow_dir() added, and must not lead out of the
 *     folder it was found in (no "..", no symbolic link out: the path is
 *     resolved with realpath and its prefix checked);
 *   - an absolute path only inside a folder carc_tileset_allow_dir() added;
 *   - a record on standard input has no folder of its own.
 * A path refused is E110 at (src, off, len), one not found E101. A file that
 * is not a valid tile set gets one message there, with the code, line and
 * column of its first problem and no text of the file. */
const struct carc_tileset *carc_tileset_for_record(struct carc_tileset_cache *c, const char *record,
						   const char *v, struct carc_diag_sink *sink,
						   const struct carc_src *src, size_t off, size_t len);
/* Adds a folder (--tileset-path) whose tile sets records may use; false
 * with errno set when it is no folder. */
bool carc_tileset_allow_dir(const char *dir);
/* Forgets those folders (for tests). */
void carc_tileset_allow_none(void);
#endif
