/*
 * jcz.c - JCloisterZone saved games (.jcz) into CGN.
 *
 * Import is a pipeline of four steps, each a section below:
 *   1. load: the strict JSON reader (jsonread.c) reads the text into a
 *      jansson tree and keeps where each value is, so that every later
 *      message points at the value it is about;
 *   2. header: setup, players and annotations become CGN tags;
 *   3. replay: the messages of each turn (PLACE_TILE, then DEPLOY_MEEPLE,
 *      RETURN_MEEPLE or PASS, then COMMIT) become one CGN turn line each;
 *   4. finish: the CGN text is read back with the CGN parser, which proves it
 *      well formed, and written out again in canonical form.
 * The first problem of the replay stops the conversion: what follows a
 * message carc cannot convert cannot be trusted either.
 *
 * The .jcz layout read here (JCZ 5):
 *   { "appVersion": "5.7.0", "name": "...", "created": "2020-09-13T...",
 *     "setup": { "sets": {"basic:1": 1}, "elements": {"small-follower": 7,
 *                "farmers": true}, "rules": {"tiny-city-scoring": "4"},
 *                "start": [{"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0}] },
 *     "players": [{"name": "Wendy", "slot": 0}, ...],
 *     "replay": [{"type": "PLACE_TILE", "payload": {"tileId": "BA/RCr",
 *                 "rotation": "R90", "position": [0, -1]}, "player": 0}, ...],
 *     "gameAnnotations": {"drawOrder": ["BA/RCr", ...], "endTurn": 9} }
 */
#include "import/jcz.h"

#include "import/bga.h"

#include "notation/format.h"
#include "common/jsonread.h"
#include "referee/referee.h"

#include <stdlib.h>
#include <string.h>

/* ---- the tile and location tables ---- */

/* JCZ's tiles, matched to CGN's ids by comparing the features of JCZ's tile
 * definitions (edges, half-edges, pennants, the cities each field borders)
 * with src/tilesets/base.yaml and river.yaml in all four rotations;
 * tests/unit/test_jcz.c repeats the comparison for every tile and rotation.
 * The garden tiles of JCZ's 2nd-edition sets (…G) are CGN's garden tiles
 * with The Abbot, and the tile of the plain letter without it: only the
 * abbot uses a garden. Each river tile's picture is JCZ's (issue 21).
 * Inns & Cathedrals (IC/) and Traders & Builders (TB/), from the facts table
 * of ../shared (jcz_id), are src/tilesets/inns.yaml and traders-builders.yaml,
 * whose tiles are pictured as JCZ pictures them (turn 0). There the garden
 * tiles IBg IHg TKg TUg replace IB IH TK TU under The Abbot, so with The
 * Abbot both JCZ tiles of such a pair are the garden tile: the record of a
 * JCZ game never puts the abbot on a garden JCZ's tile did not have. */
#define BA(id, tile, turn) {"BA/" id, tile, tile, CARC_JCZ_BASE, turn}
#define BG(id, tile, plain, turn) {"BA/" id, tile, plain, CARC_JCZ_BASE, turn}
#define RI(id, tile) {"RI" id, tile, tile, CARC_JCZ_RIVER, 0}
#define IC(id, tile) {"IC/" id, tile, tile, CARC_JCZ_INNS, 0}
#define IG(id, tile, plain) {"IC/" id, tile, plain, CARC_JCZ_INNS, 0}
#define TB(id, tile) {"TB/" id, tile, tile, CARC_JCZ_TRADERS, 0}
#define TG(id, tile, plain) {"TB/" id, tile, plain, CARC_JCZ_TRADERS, 0}
static const struct carc_jcz_tile jcz_tiles[] = {
	BA("LR", "A", 0),          BA("L", "B", 0),          BA("Cccc+", "C", 0),     BA("RCr", "D", 0),
	BA("C", "E", 0),           BG("CG", "Eg", "E", 0),   BA("CFc+", "F", 0),      BA("CFc.1", "G", 0),
	BA("CFC.2", "H", 1),       BG("CFCG", "Hg", "H", 1), BA("CC.2", "I", 3),      BG("CCG", "Ig", "I", 3),
	BA("CRr", "J", 0),         BA("RrC", "K", 0),        BA("CRRR", "L", 0),      BA("Cc+", "M", 0),
	BG("Cc+G", "Mg", "M", 0),  BA("Cc.1", "N", 0),       BG("CcG", "Ng", "N", 0), BA("CcRr+", "O", 0),
	BA("CcRr", "P", 0),        BA("Ccc+", "Q", 0),       BA("Ccc", "R", 0),       BG("CccG", "Rg", "R", 0),
	BA("CccR+", "S", 0),       BA("CccR", "T", 0),       BA("RFr", "U", 1),       BG("RFrG", "Ug", "U", 1),
	BA("Rr", "V", 0),          BG("RrG", "Vg", "V", 0),  BA("RRR", "W", 0),       BA("RRRR", "X", 0),
	RI("/s", "RA"),            RI(".1/CIRI", "RB"),      RI(".1/CICI", "RC"),     RI(".1/IFI", "RD"),
	RI(".1/CcII", "RE"),       RI(".1/II", "RG"),        RI(".1/LIRI", "RH"),     RI(".1/RrII", "RI"),
	{"RI.1/IIG", "RJ", "RG", CARC_JCZ_RIVER, 0},         RI(".1/RIrI", "RK"),     RI(".1/I.e", "RL"),
	IC("Rr.i", "IA"),          IG("RFr.i", "IBg", "IB"),        IG("RFr.iG", "IBg", "IB"), IC("RRR.i", "IC"),
	IC("LRFR", "ID"),          IC("RrRr", "IE"),         IC("CcR", "IF"),         IC("C!", "IG"),
	IG("CCCC", "IHg", "IH"),          IG("CCCCG", "IHg", "IH"), IC("CRCR", "II"),        IC("CFR", "IJ"),
	IC("Cccc.c", "IK"),        IC("CcRr+.i", "IL"),      IC("RrC.i", "IM"),       IC("RCc.i", "IN"),
	IC("CCC", "IO"),           IC("CCc+", "IP"),         IC("CRcR+", "IQ"),
	TB("CR", "TA"),            TB("RRrr", "TB"),         TB("RRC", "TC"),         TB("CcRC.g", "TD"),
	TB("CRc.g", "TE"),         TB("RCc.g", "TF"),        TB("Cc.g", "TG"),        TB("Ccc.g", "TH"),
	TB("RCc!.g", "TI"),        TB("LRRR", "TJ"),         TG("CcR.c", "TKg", "TK"),       TG("CcR.cG", "TKg", "TK"),
	TB("CcRC.c", "TL"),        TB("CcCC.c", "TM"),       TB("CCc.c", "TN"),       TB("CcRR!.c", "TO"),
	TB("CCc.w", "TP"),         TB("CFc.w", "TQ"),        TB("CRcR.w", "TR"),      TB("CRc.w", "TS"),
	TB("Cc.w", "TT"),          TG("CcRR.w", "TUg", "TU"),       TG("CcRR.wG", "TUg", "TU"), TB("CccR.w", "TV"),
	TB("CcR!.w", "TW"),        TB("CcCc.w", "TX"),
};
#undef BA
#undef BG
#undef RI
#undef IC
#undef IG
#undef TB
#undef TG

const struct carc_jcz_tile *carc_jcz_tiles(size_t *count)
{
	*count = CARC_ARRAY_LEN(jcz_tiles);
	return jcz_tiles;
}

const struct carc_jcz_tile *carc_jcz_tile_find(const char *id, size_t len)
{
	for (size_t i = 0; i < CARC_ARRAY_LEN(jcz_tiles); i++)
		if (carc_slice_eq(id, len, jcz_tiles[i].id))
			return &jcz_tiles[i];
	/* JCZ 4 writes the set's prefix with a dot: "IC.RFr.i" for "IC/RFr.i" */
	if (len > 3 && len < 40 && id[2] == '.' && id[0] != 'R') {
		char slash[40];
		memcpy(slash, id, len);
		slash[2] = '/';
		return carc_jcz_tile_find(slash, len);
	}
	return NULL;
}

/* JCZ's names for locations. Edge bits: N=1 E=2 S=4 W=8; half-edge bits in
 * CGN's order NNW..WNW, which is JCZ's NL NR EL ER SL SR WL WR. The first
 * name of each location is the one JCZ writes. */
static const struct {
	const char *name;
	uint8_t edges, halves;
	bool centre;
} location_names[] = {
	{"N", 1, 0, false},     {"E", 2, 0, false},     {"S", 4, 0, false},     {"W", 8, 0, false},
	{"NE", 3, 0, false},    {"SE", 6, 0, false},    {"SW", 12, 0, false},   {"NW", 9, 0, false},
	{"WE", 10, 0, false},   {"NS", 5, 0, false},    {"NWSE", 15, 0, false}, {"_N", 14, 0, false},
	{"_E", 13, 0, false},   {"_S", 11, 0, false},   {"_W", 7, 0, false},    {"NL", 0, 1, false},
	{"NR", 0, 2, false},    {"EL", 0, 4, false},    {"ER", 0, 8, false},    {"SL", 0, 16, false},
	{"SR", 0, 32, false},   {"WL", 0, 64, false},   {"WR", 0, 128, false},  {"I", 0, 0, true},
	{"CLOISTER", 0, 0, true},
};

bool carc_jcz_parse_location(const char *s, size_t len, struct carc_jcz_location *loc)
{
	memset(loc, 0, sizeof *loc);
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		bool found = false;
		for (size_t k = 0; k < CARC_ARRAY_LEN(location_names) && !found; k++)
			if (carc_slice_eq(s + start, i - start, location_names[k].name)) {
				loc->edges |= location_names[k].edges;
				loc->halves |= location_names[k].halves;
				loc->centre |= location_names[k].centre;
				found = true;
			}
		if (!found)
			return false;
		start = i + 1;
	}
	int kinds = (loc->edges != 0) + (loc->halves != 0) + loc->centre;
	return kinds == 1;
}

void carc_jcz_location_name(const struct carc_jcz_location *loc, struct carc_buf *out)
{
	if (loc->centre) {
		carc_buf_adds(out, "I");
		return;
	}
	if (loc->edges) {
		for (size_t k = 0; k < CARC_ARRAY_LEN(location_names); k++)
			if (location_names[k].edges == loc->edges) {
				carc_buf_adds(out, location_names[k].name);
				return;
			}
	}
	bool first = true;
	for (int h = 0; h < 8; h++)
		if (loc->halves & (1u << h)) {
			if (!first)
				carc_buf_addc(out, '.');
			carc_buf_adds(out, location_names[15 + h].name);
			first = false;
		}
}

struct carc_jcz_location carc_jcz_feature_location(const struct carc_tileset *ts, const struct carc_tile *t,
						   int rot, int f)
{
	struct carc_jcz_location loc = {0, 0, false};
	const struct carc_feature *ft = &t->features[f];
	switch (ts->kinds[ft->kind].klass) {
	case CARC_CLASS_PATH:
	case CARC_CLASS_ENCLOSURE:
		loc.edges = carc_rot_edges(ft->edges, rot);
		break;
	case CARC_CLASS_AREA:
		loc.halves = carc_rot_halves(ft->halves, rot);
		break;
	default:
		loc.centre = true;
		break;
	}
	return loc;
}

int carc_jcz_feature_at(const struct carc_tileset *ts, const struct carc_tile *t, int rot, const char *kind,
			const struct carc_jcz_location *loc)
{
	int k = carc_tileset_kind(ts, kind);
	for (int f = 0; f < t->nfeatures && k >= 0; f++) {
		if (t->features[f].kind != k)
			continue;
		struct carc_jcz_location at = carc_jcz_feature_location(ts, t, rot, f);
		if (at.edges == loc->edges && at.halves == loc->halves && at.centre == loc->centre)
			return f;
	}
	return -1;
}

/* The CGN spot that names feature f of a tile turned rot: its first edge
 * clockwise from N, its first half-edge clockwise from NNW, or C. */
static int feature_spot(const struct carc_tileset *ts, const struct carc_tile *t, int rot, int f)
{
	struct carc_jcz_location loc = carc_jcz_feature_location(ts, t, rot, f);
	for (int e = 0; e < 4; e++)
		if (loc.edges & (1u << e))
			return CARC_SPOT_N + e;
	for (int h = 0; h < 8; h++)
		if (loc.halves & (1u << h))
			return h;
	return CARC_SPOT_C;
}

/* What every refusal of an expansion says. */
#define CONVERTS "carc converts the base game, The River I and The Abbot"

/* JCZ's feature names and the tile-set kinds they stand for. */
static const struct {
	const char *jcz;
	const char *kind;
} feature_names[] = {
	{"City", "city"}, {"Road", "road"}, {"Field", "field"}, {"Farm", "field"},
	{"Monastery", "cloister"}, {"Cloister", "cloister"}, {"Garden", "garden"},
};

/* ---- step 1: loading the JSON ---- */

enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

#define MAX_COORD 100000
#define MAX_TEXT 1000   /* bytes of a name, so every tag line stays short */

typedef struct carc_json_span span;

struct conv {
	const struct carc_src *src;
	struct carc_diag_sink *sink;
	struct carc_json_doc *doc;
	unsigned errors;
	struct carc_buf msg;
	struct carc_buf path;     /* scratch for element paths in messages */

	struct carc_tileset_cache *cache;
	struct carc_tileset *sets[CARC_JCZ_NSETS]; /* base, river, inns, traders (NULL when not played) */
	const struct carc_ruleset *rules;
	struct carc_buf cgn;      /* the record as written, before canonical form */

	int nplayers;
	uint8_t colour[CARC_COLOURS]; /* per player index */
	int start_x, start_y;     /* JCZ position of the start tile */
	json_t *tiny_city;        /* setup.rules.tiny-city-scoring when it is "2" */
	json_t *draw_order;       /* gameAnnotations.drawOrder, or NULL */
	size_t draw_next;         /* its next entry */

	bool river, abbot;        /* The River I, The Abbot are played */
	bool inns, traders;       /* Inns & Cathedrals, Traders & Builders are played (JCZ 4) */
	bool jcz4;                /* the file is JCZ 4's shape (slots, setup.expansions) */
	const char *first_edition; /* a set of 1st-edition tiles named (basic:1, river/1:1), or NULL */
	struct abbot_at {         /* per player: where the abbot was last deployed */
		bool out;
		int x, y;
		char feature[16];
	} abbots[CARC_COLOURS];
};

static enum jtype jtype(const json_t *n)
{
	switch (json_typeof(n)) {
	case JSON_OBJECT:
		return J_OBJECT;
	case JSON_ARRAY:
		return J_ARRAY;
	case JSON_STRING:
		return J_STRING;
	case JSON_INTEGER:
	case JSON_REAL:
		return J_NUMBER;
	case JSON_TRUE:
	case JSON_FALSE:
		return J_BOOL;
	default:
		return J_NULL;
	}
}

static const char *const jtype_names[] = {"null", "true or false", "a number", "a string", "an array",
					  "an object"};

/* The reader refuses a string holding U+0000, so a C string is all of it. */
static const char *str(const json_t *n)
{
	return json_string_value(n);
}

/* Where things are, for messages: a node (not true, false or null, which
 * jansson shares: those are found through their container), a member's
 * value or key, an array's item. The start of the text when not found. */
static span at_node(const struct conv *cv, const json_t *v)
{
	span at = {0, 1};
	carc_json_where(cv->doc, v, &at);
	return at;
}

static span at_member(const struct conv *cv, const json_t *obj, const char *key)
{
	span at;
	return carc_json_member_where(cv->doc, obj, key, NULL, &at) ? at : at_node(cv, obj);
}

static span at_key(const struct conv *cv, const json_t *obj, const char *key)
{
	span at;
	return carc_json_member_where(cv->doc, obj, key, &at, NULL) ? at : at_node(cv, obj);
}

static span at_item(const struct conv *cv, const json_t *arr, size_t i)
{
	span at;
	return carc_json_item_where(cv->doc, arr, i, &at) ? at : at_node(cv, arr);
}

/* Reports at a place in the text: the whole token for a scalar or a key,
 * the bracket for a collection. */
static void fail(struct conv *cv, enum carc_code code, span at, const char *fmt, ...) CARC_PRINTF(4, 5);

static void fail(struct conv *cv, enum carc_code code, span at, const char *fmt, ...)
{
	carc_buf_reset(&cv->msg);
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&cv->msg, fmt, ap);
	va_end(ap);
	carc_diag_report(cv->sink, code, cv->src, at.off, at.len ? at.len : 1, "%s", carc_buf_cstr(&cv->msg));
	cv->errors++;
}

/* Loads the text; false after reporting when it is not one JSON object. */
static bool load(struct conv *cv)
{
	cv->doc = carc_json_read(cv->src, CARC_E501, cv->sink);
	if (!cv->doc) {
		cv->errors++;
		return false;
	}
	json_t *root = carc_json_root(cv->doc);
	if (jtype(root) != J_OBJECT) {
		fail(cv, CARC_E502, at_node(cv, root), "a .jcz file is a JSON object { ... }, not %s",
		     jtype_names[jtype(root)]);
		return false;
	}
	return true;
}

/* ---- typed access, with the element's path for messages ---- */

static json_t *member(const json_t *obj, const char *key)
{
	return json_object_get(obj, key);
}

static size_t items(const json_t *arr)
{
	return json_array_size(arr);
}

static json_t *item(const json_t *arr, size_t i)
{
	return json_array_get(arr, i);
}

/* The member key of obj (at path) with type want; reports and returns NULL
 * when it is missing (and required) or of another type. A null counts as
 * missing. */
static json_t *want(struct conv *cv, const json_t *obj, const char *path, const char *key, enum jtype type,
		    bool required)
{
	json_t *v = member(obj, key);
	if (!v || jtype(v) == J_NULL) {
		if (required)
			fail(cv, CARC_E502, at_node(cv, obj), "%s has no \"%s\"", path, key);
		return NULL;
	}
	if (jtype(v) != type) {
		fail(cv, CARC_E502, at_member(cv, obj, key), "%s.%s should be %s, not %s", path, key, jtype_names[type],
		     jtype_names[jtype(v)]);
		return NULL;
	}
	return v;
}

/* A whole number within [lo, hi] (7 or 7.0). */
static bool int_value(const json_t *n, long lo, long hi, long *out)
{
	if (json_is_integer(n)) {
		json_int_t v = json_integer_value(n);
		if (v < lo || v > hi)
			return false;
		*out = (long)v;
		return true;
	}
	if (!json_is_real(n))
		return false;
	double d = json_real_value(n);
	if (!(d >= (double)lo && d <= (double)hi) || d != (double)(long)d)
		return false;
	*out = (long)d;
	return true;
}

static bool want_int(struct conv *cv, const json_t *obj, const char *path, const char *key, long lo, long hi,
		     bool required, long *out)
{
	json_t *v = want(cv, obj, path, key, J_NUMBER, required);
	if (!v)
		return false;
	if (!int_value(v, lo, hi, out)) {
		span at = at_node(cv, v);
		fail(cv, CARC_E502, at, "%s.%s should be a whole number from %ld to %ld, not %.*s", path, key, lo, hi,
		     (int)(at.len > 40 ? 40 : at.len), cv->src->text + at.off);
		return false;
	}
	return true;
}

static const char *pathf(struct conv *cv, const char *fmt, ...) CARC_PRINTF(2, 3);

static const char *pathf(struct conv *cv, const char *fmt, ...)
{
	carc_buf_reset(&cv->path);
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&cv->path, fmt, ap);
	va_end(ap);
	return carc_buf_cstr(&cv->path);
}

/* ---- step 2: the header ---- */

/* A tag value: quotes and backslashes escaped, control characters blanked. */
static void add_tag(struct carc_buf *b, const char *name, const char *value)
{
	carc_buf_printf(b, "[%s \"", name);
	for (const char *p = value; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '"' || c == '\\')
			carc_buf_addc(b, '\\');
		carc_buf_addc(b, c < 0x20 || c == 0x7f ? ' ' : (char)c);
	}
	carc_buf_adds(b, "\"]\n");
}

/* A JCZ tile id to CGN's tile, in the bundled set that holds it, or reports
 * E505: with The Abbot a garden tile is CGN's garden tile, without it the
 * plain one. */
static const struct carc_tile *tile_of(struct conv *cv, const json_t *id_node, const char *path,
				       const struct carc_jcz_tile **jt)
{
	const char *id = str(id_node);
	*jt = carc_jcz_tile_find(id, strlen(id));
	if (*jt && (*jt)->set >= CARC_JCZ_INNS && !cv->jcz4)
		*jt = NULL; /* JCZ 5's Big Box sets are refused: so are their tiles */
	if (!*jt) {
		fail(cv, CARC_E505, at_node(cv, id_node), "%s: tile \"%s\" is an expansion's; " CONVERTS, path,
		     id);
		return NULL;
	}
	const struct carc_tileset *ts = cv->sets[(*jt)->set];
	if (!ts) {
		static const char *const unplayed[] = {"", "The River's, but setup.sets names no river (river/1)",
						       "Inns & Cathedrals', but setup.expansions names no INNS_AND_CATHEDRALS",
						       "Traders & Builders', but setup.expansions names no TRADERS_AND_BUILDERS"};
		fail(cv, CARC_E505, at_node(cv, id_node), "%s: tile \"%s\" is %s", path, id, unplayed[(*jt)->set]);
		return NULL;
	}
	const char *cgn = cv->abbot ? (*jt)->tile : (*jt)->plain;
	int i = carc_tileset_find(ts, cgn, strlen(cgn));
	if (i < 0) { /* never: tests/unit/test_jcz.c finds every tile */
		fail(cv, CARC_E505, at_node(cv, id_node), "%s: tile set %s has no tile %s for \"%s\"; this is a bug in carc "
		     "import", path, ts->name, cgn, id);
		return NULL;
	}
	return &ts->tiles[i];
}

/* "R90" (replay) or 90 / "R90" (setup.start) to quarter turns; -1 if neither. */
static int rotation_of(const json_t *n)
{
	static const char *const names[] = {"R0", "R90", "R180", "R270"};
	long deg;
	for (int r = 0; r < 4; r++)
		if (jtype(n) == J_STRING && !strcmp(str(n), names[r]))
			return r;
	if (int_value(n, 0, 270, &deg) && deg % 90 == 0)
		return (int)(deg / 90);
	return -1;
}

/* A JCZ [x, y] to CGN's x,y, relative to the start tile. */
static bool position_of(struct conv *cv, const json_t *n, const char *path, int *x, int *y)
{
	long v[2];
	if (jtype(n) != J_ARRAY || items(n) != 2 || !int_value(item(n, 0), -MAX_COORD, MAX_COORD, &v[0]) ||
	    !int_value(item(n, 1), -MAX_COORD, MAX_COORD, &v[1])) {
		fail(cv, CARC_E502, at_node(cv, n), "%s should be a position [x, y] of two whole numbers", path);
		return false;
	}
	*x = (int)v[0] - cv->start_x;
	*y = -((int)v[1] - cv->start_y);
	return true;
}

static bool truthy(const json_t *n)
{
	switch (jtype(n)) {
	case J_NULL:
		return false;
	case J_BOOL:
		return json_is_true(n);
	case J_NUMBER:
		return json_number_value(n) != 0;
	case J_STRING:
		return str(n)[0] != 0;
	default:
		return true;
	}
}

/* Rule keys of JCZ 5 that only concern expansions: with the expansions
 * themselves refused, they change nothing and are passed over. */
static const char *const expansion_rules[] = {
	"princess-action", "fairy-placement", "dragon-move", "barn-placement", "bazaar-auction",
	"hill-tiebreaker", "espace-variant", "gq11-pig-herd", "tunnelize-other-expansions",
	"more-tunnel-tokens", "festival-return", "keep-monasteries", "labyrinth-variant",
	"little-buildings-scoring", "king-and-robber-baron-scoring", "king-and-robber-scoring",
};

/* The River I as JCZ names its set: without an edition, or with the 1st
 * (two plain bends) or the 2nd (a plain bend and a garden bend). */
static const char *const river_sets[] = {"river/1", "river/1:1", "river/1:2"};

static void read_sets(struct conv *cv, const json_t *sets)
{
	int base = 0, river = 0;
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)sets, name, v) {
		long copies;
		if (!int_value(v, 0, 99, &copies)) {
			fail(cv, CARC_E502, at_member(cv, sets, name), "setup.sets.%s should be a number of copies, not %s", name,
			     jtype_names[jtype(v)]);
			continue;
		}
		if (copies == 0)
			continue;
		bool is_river = false;
		for (size_t i = 0; i < CARC_ARRAY_LEN(river_sets); i++)
			is_river |= !strcmp(name, river_sets[i]);
		if (!is_river && strcmp(name, "basic") && strcmp(name, "basic:1") && strcmp(name, "basic:2")) {
			fail(cv, CARC_E503, at_key(cv, sets, name), "setup.sets: \"%s\" is an expansion; " CONVERTS, name);
			continue;
		}
		const char *what = is_river ? "The River" : "the base game";
		if (copies != 1)
			fail(cv, CARC_E503, at_node(cv, v), "setup.sets.%s: %ld copies of %s; CGN's has one", name, copies, what);
		if (++*(is_river ? &river : &base) == 2)
			fail(cv, CARC_E503, at_key(cv, sets, name), "setup.sets: two sets of %s at once; CGN's has one", what);
		if (!strcmp(name, "basic:1") || !strcmp(name, "river/1:1"))
			cv->first_edition = name;
		cv->river |= is_river;
	}
	if (base == 0)
		fail(cv, CARC_E503, at_node(cv, sets), "setup.sets names no base set (basic:1 or basic:2)");
}

static void read_elements(struct conv *cv, const json_t *el, struct carc_buf *tags)
{
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)el, name, v) {
		long n;
		if (!strcmp(name, "small-follower")) {
			if (!int_value(v, cv->rules->min_followers, cv->rules->max_followers, &n))
				fail(cv, CARC_E502, at_member(cv, el, name), "setup.elements.small-follower should be a number of followers from %d "
				     "to %d", cv->rules->min_followers, cv->rules->max_followers);
			else if (n != cv->rules->followers)
				carc_buf_printf(tags, "[Followers \"%ld\"]\n", n);
		} else if (!strcmp(name, "farmers")) {
			/* Without farmers no follower stands in a field, and fields score nobody:
			 * the same game either way. */
		} else if (!strcmp(name, "garden") || !strcmp(name, "river")) {
			/* garden: the tiles of the 2nd edition, whose gardens only the abbot
			 * uses; river: The River's rules, which come with its tiles. */
		} else if (!strcmp(name, "abbot")) {
			if (jtype(v) == J_BOOL ? json_is_true(v) : int_value(v, 1, 1, &n)) {
				cv->abbot = true;
				if (cv->first_edition)
					fail(cv, CARC_E503, at_member(cv, el, name), "setup.elements.abbot with setup.sets.%s, tiles of the "
					     "1st edition: CGN's Abbot plays with the 2nd edition's, some with gardens (basic:2, "
					     "river/1:2)", cv->first_edition);
			} else if (truthy(v)) {
				fail(cv, CARC_E503, at_member(cv, el, name), "setup.elements.abbot should be 1 (or 0): The Abbot gives "
				     "each player one abbot");
			}
		} else if (truthy(v)) {
			fail(cv, CARC_E503, at_key(cv, el, name), "setup.elements: \"%s\" is an expansion figure or setting; "
			     CONVERTS, name);
		}
	}
}

static void read_rules(struct conv *cv, const json_t *rules)
{
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)rules, name, v) {
		if (!strcmp(name, "tiny-city-scoring")) {
			/* "4": a 2-tile city scores 4 (the 3rd edition); "2": it scores 2,
			 * the small-city rule of the 1st and 2nd editions. */
			if (jtype(v) == J_STRING && !strcmp(str(v), "4"))
				continue;
			if (jtype(v) == J_STRING && !strcmp(str(v), "2")) {
				cv->tiny_city = v;
				continue;
			}
			fail(cv, CARC_E504, at_member(cv, rules, name), "setup.rules.tiny-city-scoring should be \"4\" or \"2\"");
			continue;
		}
		bool known = false;
		for (size_t i = 0; i < CARC_ARRAY_LEN(expansion_rules) && !known; i++)
			known = !strcmp(name, expansion_rules[i]);
		if (!known)
			fail(cv, CARC_E504, at_key(cv, rules, name), "setup.rules: \"%s\" is not a rule carc knows how to convert", name);
	}
}

static void read_start(struct conv *cv, const json_t *start, struct carc_buf *tags)
{
	if (items(start) != 1) {
		fail(cv, CARC_E503, at_node(cv, start), "setup.start lists %zu start tiles; the base game has one", items(start));
		return;
	}
	json_t *st = item(start, 0);
	if (jtype(st) != J_OBJECT) {
		fail(cv, CARC_E502, at_item(cv, start, 0), "setup.start[0] should be an object {\"tile\", \"x\", \"y\", \"rotation\"}");
		return;
	}
	json_t *tile = want(cv, st, "setup.start[0]", "tile", J_STRING, true);
	long x = 0, y = 0;
	bool ok = want_int(cv, st, "setup.start[0]", "x", -MAX_COORD, MAX_COORD, true, &x);
	ok &= want_int(cv, st, "setup.start[0]", "y", -MAX_COORD, MAX_COORD, true, &y);
	json_t *rn = member(st, "rotation");
	int rot = rn ? rotation_of(rn) : 0;
	if (rot < 0)
		fail(cv, CARC_E502, at_member(cv, st, "rotation"), "setup.start[0].rotation should be 0, 90, 180 or 270");
	if (!tile || !ok || rot < 0)
		return;
	cv->start_x = (int)x;
	cv->start_y = (int)y;
	const struct carc_jcz_tile *jt;
	const struct carc_tile *t = tile_of(cv, tile, "setup.start[0].tile", &jt);
	if (!t)
		return;
	/* the game's start tile: the spring with The River, else the base set's */
	const struct carc_tileset *ts = cv->sets[cv->river ? CARC_JCZ_RIVER : CARC_JCZ_BASE];
	if (cv->river && t != &ts->tiles[ts->start_tile]) {
		fail(cv, CARC_E503, at_node(cv, tile), "setup.start[0].tile: with The River the spring (RI/s) starts the game, "
		     "not \"%s\"", str(tile));
		return;
	}
	int cgn_rot = (rot + jt->turn) & 3;
	if (t != &ts->tiles[ts->start_tile] || cgn_rot != 0)
		carc_buf_printf(tags, "[Start \"%s %d\"]\n", t->id, cgn_rot * 90);
}

/* Loads The River's tiles, puts the abbot's garden tiles in play, and names
 * the expansions in the Expansions tag. */
static void play_expansions(struct conv *cv, struct carc_buf *tags)
{
	if (cv->river && !cv->sets[CARC_JCZ_RIVER]) {
		cv->sets[CARC_JCZ_RIVER] = carc_tileset_load("river", cv->sink, NULL, 0, 0);
		if (!cv->sets[CARC_JCZ_RIVER]) {
			cv->errors++;
			return;
		}
	}
	static const char *const names[CARC_JCZ_NSETS] = {NULL, NULL, "inns", "traders-builders"};
	bool play[CARC_JCZ_NSETS] = {false, false, cv->inns, cv->traders};
	for (int i = CARC_JCZ_INNS; i < CARC_JCZ_NSETS; i++)
		if (play[i] && !cv->sets[i]) {
			cv->sets[i] = carc_tileset_load(names[i], cv->sink, NULL, 0, 0);
			if (!cv->sets[i]) {
				cv->errors++;
				return;
			}
		}
	char words[80];
	snprintf(words, sizeof words, "%s%s%s%s", cv->river ? " river" : "", cv->abbot ? " abbot" : "",
		 cv->inns ? " inns-cathedrals" : "", cv->traders ? " traders-builders" : "");
	if (!words[0])
		return;
	carc_buf_printf(tags, "[Expansions \"%s\"]\n", words + 1);
	for (int i = 0; i < CARC_JCZ_NSETS; i++)
		if (cv->sets[i])
			carc_tileset_play(cv->sets[i], words + 1, strlen(words + 1));
}

static void read_setup(struct conv *cv, const json_t *setup, struct carc_buf *tags)
{
	static const char *const keys[] = {"sets", "elements", "rules", "start", "timer", "options"};
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)setup, name, v) {
		bool known = false;
		for (size_t i = 0; i < CARC_ARRAY_LEN(keys) && !known; i++)
			known = !strcmp(name, keys[i]);
		/* an empty value (tiles: {}) changes nothing */
		bool empty = jtype(v) == J_NULL || (jtype(v) == J_OBJECT && json_object_size(v) == 0);
		if (!known && !empty)
			fail(cv, CARC_E503, at_key(cv, setup, name), "setup: \"%s\" is not a base-game setting carc can "
			     "convert", name);
	}
	json_t *sets = want(cv, setup, "setup", "sets", J_OBJECT, true);
	if (sets)
		read_sets(cv, sets);
	json_t *elements = want(cv, setup, "setup", "elements", J_OBJECT, false);
	if (elements)
		read_elements(cv, elements, tags);
	play_expansions(cv, tags);
	json_t *rules = want(cv, setup, "setup", "rules", J_OBJECT, false);
	if (rules)
		read_rules(cv, rules);
	json_t *start = want(cv, setup, "setup", "start", J_ARRAY, true);
	if (start)
		read_start(cv, start, tags);
}

/* JCZ 4's setup: {"expansions": {"BASIC": 1, "INNS_AND_CATHEDRALS": 1},
 * "rules": {}, "capabilities": ["StandardGame", "Inn", ...]}, and no start
 * tile: the base set's, at 0,0 unturned. The capabilities follow from the
 * expansions (JCZ 4 lists both), so only those of the expansions carc
 * converts are let through. */
static void read_setup4(struct conv *cv, const json_t *setup)
{
	static const char *const keys[] = {"expansions", "rules", "capabilities"};
	static const char *const caps[] = {"StandardGame", "Inn", "Cathedral", "BigFollower", "TradeGoods",
					   "Builder", "Pig"};
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)setup, name, v) {
		bool known = false;
		for (size_t i = 0; i < CARC_ARRAY_LEN(keys) && !known; i++)
			known = !strcmp(name, keys[i]);
		bool empty = jtype(v) == J_NULL || (jtype(v) == J_OBJECT && json_object_size(v) == 0);
		if (!known && !empty)
			fail(cv, CARC_E503, at_key(cv, setup, name), "setup: \"%s\" is not a setting carc can convert", name);
	}
	json_t *exp = want(cv, setup, "setup", "expansions", J_OBJECT, true);
	bool base = false;
	json_object_foreach(exp, name, v) {
		long copies;
		if (!int_value(v, 0, 99, &copies)) {
			fail(cv, CARC_E502, at_member(cv, exp, name), "setup.expansions.%s should be a number of copies", name);
			continue;
		}
		if (copies == 0)
			continue;
		bool *flag = !strcmp(name, "BASIC") ? &base : !strcmp(name, "INNS_AND_CATHEDRALS") ? &cv->inns :
			     !strcmp(name, "TRADERS_AND_BUILDERS") ? &cv->traders : NULL;
		if (!flag) {
			fail(cv, CARC_E503, at_key(cv, exp, name), "setup.expansions: \"%s\" is an expansion carc does not "
			     "convert from JCloisterZone 4 (BASIC, INNS_AND_CATHEDRALS, TRADERS_AND_BUILDERS)", name);
			continue;
		}
		if (copies != 1)
			fail(cv, CARC_E503, at_node(cv, v), "setup.expansions.%s: %ld copies; CGN plays one", name, copies);
		*flag = true;
	}
	if (exp && !base)
		fail(cv, CARC_E503, at_node(cv, exp), "setup.expansions names no base set (BASIC)");
	json_t *cap = want(cv, setup, "setup", "capabilities", J_ARRAY, false);
	for (size_t i = 0; cap && i < items(cap); i++) {
		json_t *c = item(cap, i);
		bool known = false;
		for (size_t k = 0; jtype(c) == J_STRING && k < CARC_ARRAY_LEN(caps) && !known; k++)
			known = !strcmp(str(c), caps[k]);
		if (!known)
			fail(cv, CARC_E503, at_item(cv, cap, i), "setup.capabilities[%zu] is not a capability of the sets carc "
			     "converts (%s)", i, jtype(c) == J_STRING ? str(c) : jtype_names[jtype(c)]);
	}
	json_t *rules = want(cv, setup, "setup", "rules", J_OBJECT, false);
	if (rules)
		read_rules(cv, rules);
}

/* JCZ 4's players: "slots": [{"number": 0, "serial": 1, "nickname": "Alice"}],
 * played in the order of serial; number is the slot, CGN's colour. */
static void read_slots(struct conv *cv, const json_t *slots, struct carc_buf *tags)
{
	size_t n = items(slots);
	if (n == 0 || n > (size_t)cv->rules->max_seats) {
		fail(cv, CARC_E510, at_node(cv, slots), "slots lists %zu players; a game has 1 to %d", n,
		     cv->rules->max_seats);
		return;
	}
	long number[CARC_COLOURS], serial[CARC_COLOURS];
	const json_t *nick[CARC_COLOURS];
	uint8_t taken = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *sl = item(slots, i);
		const char *path = pathf(cv, "slots[%zu]", i);
		if (jtype(sl) != J_OBJECT) {
			fail(cv, CARC_E502, at_item(cv, slots, i), "%s should be an object {\"number\", \"serial\", "
			     "\"nickname\"}", path);
			return;
		}
		if (!want_int(cv, sl, path, "number", 0, CARC_COLOURS - 1, true, &number[i]))
			return;
		serial[i] = (long)i;
		if (member(sl, "serial") && !want_int(cv, sl, path, "serial", 0, 1000000, true, &serial[i]))
			return;
		if (taken & (1u << number[i])) {
			fail(cv, CARC_E510, at_member(cv, sl, "number"), "%s.number %ld is taken by an earlier slot", path,
			     number[i]);
			return;
		}
		taken |= (uint8_t)(1u << number[i]);
		nick[i] = want(cv, sl, path, "nickname", J_STRING, false);
		if (nick[i] && strlen(str(nick[i])) > MAX_TEXT) {
			fail(cv, CARC_E502, at_node(cv, nick[i]), "%s.nickname is longer than %d bytes", path, MAX_TEXT);
			return;
		}
	}
	size_t order[CARC_COLOURS];
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		for (; j > 0 && serial[order[j - 1]] > serial[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	struct carc_buf names = {0};
	carc_buf_adds(tags, "[Seats \"");
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		cv->colour[k] = (uint8_t)number[i];
		carc_buf_printf(tags, "%s%s", k ? " " : "", carc_colour_name((int)number[i]));
		if (nick[i] && str(nick[i])[0]) {
			char tag[16];
			snprintf(tag, sizeof tag, "%s", carc_colour_name((int)number[i]));
			tag[0] = (char)(tag[0] - 'a' + 'A');
			add_tag(&names, tag, str(nick[i]));
		}
	}
	carc_buf_adds(tags, "\"]\n");
	if (names.len)
		carc_buf_add(tags, names.data, names.len);
	carc_buf_free(&names);
	cv->nplayers = (int)n;
}

static void read_players(struct conv *cv, const json_t *players, struct carc_buf *tags)
{
	size_t n = items(players);
	if (n == 0 || n > (size_t)cv->rules->max_seats) {
		fail(cv, CARC_E510, at_node(cv, players), "players lists %zu players; a base game has 1 to %d", n,
		     cv->rules->max_seats);
		return;
	}
	uint8_t taken = 0;
	struct carc_buf names = {0};
	carc_buf_adds(tags, "[Seats \"");
	for (size_t i = 0; i < n; i++) {
		json_t *pl = item(players, i);
		const char *path = pathf(cv, "players[%zu]", i);
		if (jtype(pl) != J_OBJECT) {
			fail(cv, CARC_E502, at_item(cv, players, i), "%s should be an object {\"name\", \"slot\"}", path);
			continue;
		}
		long slot;
		if (!want_int(cv, pl, path, "slot", 0, 1000, true, &slot))
			continue;
		if (slot >= CARC_COLOURS) {
			fail(cv, CARC_E510, at_member(cv, pl, "slot"), "%s.slot is %ld; CGN has colours for slots 0 to %d only",
			     path, slot, CARC_COLOURS - 1);
			continue;
		}
		if (taken & (1u << slot)) {
			fail(cv, CARC_E510, at_member(cv, pl, "slot"), "%s.slot %ld is taken by an earlier player", path, slot);
			continue;
		}
		taken |= (uint8_t)(1u << slot);
		cv->colour[i] = (uint8_t)slot;
		carc_buf_printf(tags, "%s%s", i ? " " : "", carc_colour_name((int)slot));
		json_t *name = want(cv, pl, path, "name", J_STRING, false);
		if (name && strlen(str(name)) > MAX_TEXT) {
			fail(cv, CARC_E502, at_node(cv, name), "%s.name is longer than %d bytes", path, MAX_TEXT);
		} else if (name && str(name)[0]) {
			char tag[16];
			snprintf(tag, sizeof tag, "%s", carc_colour_name((int)slot));
			tag[0] = (char)(tag[0] - 'a' + 'A');
			add_tag(&names, tag, str(name));
		}
	}
	carc_buf_adds(tags, "\"]\n");
	if (names.len)
		carc_buf_add(tags, names.data, names.len);
	carc_buf_free(&names);
	cv->nplayers = (int)n;
}

/* The date part of an ISO 8601 time, when it is a real date. */
static bool iso_date(const char *s, char out[11])
{
	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !(s[i] >= '0' && s[i] <= '9'))
			return false;
	int month = (s[5] - '0') * 10 + (s[6] - '0'), day = (s[8] - '0') * 10 + (s[9] - '0');
	if (month < 1 || month > 12 || day < 1 || day > 31 || (s[10] && s[10] != 'T' && s[10] != ' '))
		return false;
	memcpy(out, s, 10);
	out[10] = 0;
	return true;
}

static bool read_header(struct conv *cv, const json_t *root, const char *name, struct carc_buf *tags)
{
	json_t *version = want(cv, root, "the file", "appVersion", J_STRING, false);
	if (name)
		carc_import_comment(&cv->cgn, "Imported from %s (JCloisterZone %s) by carc import", name,
				version ? str(version) : "save");
	else
		carc_import_comment(&cv->cgn, "Imported from JCloisterZone %s by carc import",
				version ? str(version) : "save");
	json_t *title = want(cv, root, "the file", "name", J_STRING, false);
	if (title && strlen(str(title)) > MAX_TEXT)
		fail(cv, CARC_E502, at_node(cv, title), "the file's name is longer than %d bytes", MAX_TEXT);
	else if (title && str(title)[0])
		add_tag(tags, "Event", str(title));
	json_t *created = want(cv, root, "the file", "created", J_STRING, false);
	char date[11];
	if (created && iso_date(str(created), date))
		carc_buf_printf(tags, "[Date \"%s\"]\n", date);
	unsigned before = cv->errors;
	/* JCZ 4 (4.x) lists "slots" where JCZ 5 lists "players" */
	bool jcz4 = cv->jcz4 = member(root, "slots") && !member(root, "players");
	json_t *setup = want(cv, root, "the file", "setup", J_OBJECT, true);
	if (setup && jcz4) {
		read_setup4(cv, setup);
		play_expansions(cv, tags);
	} else if (setup) {
		read_setup(cv, setup, tags);
	}
	if (cv->tiny_city)
		carc_buf_adds(tags, "[Edition \"2\"]\n");
	json_t *players = want(cv, root, "the file", jcz4 ? "slots" : "players", J_ARRAY, true);
	if (players && jcz4)
		read_slots(cv, players, tags);
	else if (players)
		read_players(cv, players, tags);
	json_t *ann = want(cv, root, "the file", "gameAnnotations", J_OBJECT, false);
	long end_turn;
	if (ann && want_int(cv, ann, "gameAnnotations", "endTurn", 0, 100000, false, &end_turn))
		carc_import_comment(&cv->cgn, "JCloisterZone ends this game after turn %ld (gameAnnotations.endTurn) "
				"and scores it as finished, as carc score --final does", end_turn);
	/* JCZ 4: annotations.tilePack.params.drawOrder, ended by "#END" */
	json_t *ann4 = jcz4 ? want(cv, root, "the file", "annotations", J_OBJECT, false) : NULL;
	json_t *pack = ann4 ? want(cv, ann4, "annotations", "tilePack", J_OBJECT, false) : NULL;
	json_t *params = pack ? want(cv, pack, "annotations.tilePack", "params", J_OBJECT, false) : NULL;
	if (params) {
		ann = params;
		cv->draw_order = want(cv, ann, "annotations.tilePack.params", "drawOrder", J_ARRAY, false);
	} else if (ann) {
		cv->draw_order = want(cv, ann, "gameAnnotations", "drawOrder", J_ARRAY, false);
	}
	if (ann) {
		for (size_t i = 0; cv->draw_order && i < items(cv->draw_order); i++)
			if (jtype(item(cv->draw_order, i)) != J_STRING) {
				fail(cv, CARC_E502, at_item(cv, cv->draw_order, i), "gameAnnotations.drawOrder[%zu] should be a "
				     "tile id", i);
				cv->draw_order = NULL;
			}
	}
	return cv->errors == before;
}

/* ---- step 3: the replay ---- */

struct turn {
	bool open;              /* PLACE_TILE seen, COMMIT not yet */
	bool decided;           /* DEPLOY_MEEPLE or PASS seen */
	int player;
	const struct carc_tileset *ts;
	const struct carc_tile *tile;
	int rot, x, y;          /* in CGN terms */
	const struct carc_jcz_tile *jcz;
	int jcz_rot;
	const char *role;       /* the deployment's role, or NULL */
	char rolebuf[32];
	int spot;
	bool returned;          /* the abbot taken back instead */
	bool bonus;             /* the builder's second tile: CGN's bonus turn + */
};

/* The player of a message: its "player" field, or else whose turn it is. */
static bool message_player(struct conv *cv, const json_t *msg, const char *path, int dflt, int *player)
{
	long p;
	json_t *pn = member(msg, "player");
	if (!pn || jtype(pn) == J_NULL) {
		*player = dflt;
		return true;
	}
	if (!int_value(pn, 0, cv->nplayers - 1, &p)) {
		fail(cv, CARC_E502, at_member(cv, msg, "player"), "%s.player should be a player number from 0 to %d", path, cv->nplayers - 1);
		return false;
	}
	*player = (int)p;
	return true;
}

static void write_turn(struct conv *cv, const struct turn *t)
{
	if (t->bonus)
		carc_buf_adds(&cv->cgn, "+ ");
	carc_buf_printf(&cv->cgn, "%s %s %d,%d %d", carc_colour_name(cv->colour[t->player]), t->tile->id, t->x, t->y,
			t->rot * 90);
	if (t->role)
		carc_buf_printf(&cv->cgn, " %s %s", t->role, carc_spot_name(t->spot));
	else
		carc_buf_adds(&cv->cgn, t->returned ? " return abbot" : " -");
	carc_buf_addc(&cv->cgn, '\n');
}

/* Tiles of the draw order before the one placed were drawn and put aside:
 * CGN discards, which the referee proves fitted nowhere. */
static bool draw_until(struct conv *cv, const struct turn *t, const json_t *id_node, const char *path)
{
	if (!cv->draw_order || cv->draw_next >= items(cv->draw_order))
		return true;
	size_t n = items(cv->draw_order), j = cv->draw_next;
	while (j < n && strcmp(str(item(cv->draw_order, j)), str(id_node)))
		j++;
	if (j == n) {
		fail(cv, CARC_E511, at_node(cv, id_node), "%s: tile \"%s\" is placed, but gameAnnotations.drawOrder has \"%s\" next "
		     "and no \"%s\" after it", path, str(id_node), str(item(cv->draw_order, cv->draw_next)),
		     str(id_node));
		return false;
	}
	for (; cv->draw_next < j; cv->draw_next++) {
		json_t *d = item(cv->draw_order, cv->draw_next);
		const struct carc_jcz_tile *jt;
		char dpath[64];
		snprintf(dpath, sizeof dpath, "gameAnnotations.drawOrder[%zu]", cv->draw_next);
		const struct carc_tile *tile = tile_of(cv, d, dpath, &jt);
		if (!tile)
			return false;
		carc_buf_printf(&cv->cgn, "%s %s discard\n", carc_colour_name(cv->colour[t->player]), tile->id);
	}
	cv->draw_next++;
	return true;
}

static bool place_tile(struct conv *cv, const json_t *msg, const json_t *payload, const char *path,
		       int player, struct turn *t)
{
	/* With Traders & Builders a second PLACE_TILE of the turn, after its
	 * decision, is the builder's second tile: the turn is written, and the
	 * tile is its bonus turn (the referee proves the bonus owed, E296). */
	bool bonus = cv->traders && t->open && t->decided && !t->bonus;
	if (t->open && !bonus) {
		fail(cv, CARC_E507, at_node(cv, msg), "%s: a second PLACE_TILE before the COMMIT that ends the turn", path);
		return false;
	}
	if (bonus)
		write_turn(cv, t);
	bonus |= t->bonus; /* set by the caller: the same player again after a COMMIT */
	memset(t, 0, sizeof *t);
	t->player = player;
	t->bonus = bonus;
	char sub[96];
	snprintf(sub, sizeof sub, "%s.payload", path);
	json_t *id = want(cv, payload, sub, "tileId", J_STRING, true);
	json_t *rn = want(cv, payload, sub, "rotation", J_STRING, true);
	json_t *pos = want(cv, payload, sub, "position", J_ARRAY, true);
	if (!id || !rn || !pos)
		return false;
	const struct carc_jcz_tile *jt;
	snprintf(sub, sizeof sub, "%s.payload.tileId", path);
	t->tile = tile_of(cv, id, sub, &jt);
	if (!t->tile)
		return false;
	t->ts = cv->sets[jt->set];
	int rot = rotation_of(rn);
	if (rot < 0) {
		fail(cv, CARC_E502, at_node(cv, rn), "%s.payload.rotation should be R0, R90, R180 or R270", path);
		return false;
	}
	t->rot = (rot + jt->turn) & 3;
	t->jcz = jt;
	t->jcz_rot = rot;
	snprintf(sub, sizeof sub, "%s.payload.position", path);
	if (!position_of(cv, pos, sub, &t->x, &t->y))
		return false;
	if (!draw_until(cv, t, id, path))
		return false;
	t->open = true;
	return true;
}

/* What a meepleId "<player>.<figure>.<n>" names. */
enum figure { FIG_FOLLOWER, FIG_ABBOT, FIG_BIG, FIG_BUILDER, FIG_PIG, FIG_OTHER };

static enum figure figure_of(const char *m, long *owner)
{
	char *end;
	*owner = strtol(m, &end, 10);
	if (end == m || *m < '0' || *m > '9')
		*owner = -1;
	const char *dot = strchr(m, '.');
	if (dot && !strncmp(dot, ".small.", 7))
		return FIG_FOLLOWER;
	if (dot && !strncmp(dot, ".abbot.", 7))
		return FIG_ABBOT;
	if (dot && !strncmp(dot, ".big.", 5))
		return FIG_BIG;
	if (dot && !strncmp(dot, ".builder.", 9))
		return FIG_BUILDER;
	if (dot && !strncmp(dot, ".pig.", 5))
		return FIG_PIG;
	return FIG_OTHER;
}

/* A JCZ feature pointer {position, feature, location}. */
struct pointer {
	const json_t *pos, *feature, *where;
	int x, y;               /* in CGN terms */
	const char *kind;       /* the tile-set kind its feature names */
	struct carc_jcz_location loc;
};

static bool read_pointer(struct conv *cv, const json_t *ptr, const char *path, struct pointer *p)
{
	p->pos = want(cv, ptr, path, "position", J_ARRAY, true);
	/* JCZ 4 names no feature: the location alone finds it on the tile */
	p->feature = want(cv, ptr, path, "feature", J_STRING, !cv->jcz4);
	p->where = want(cv, ptr, path, "location", J_STRING, true);
	if (!p->pos || (!p->feature && !cv->jcz4) || !p->where)
		return false;
	if (!position_of(cv, p->pos, pathf(cv, "%s.position", path), &p->x, &p->y))
		return false;
	p->kind = NULL;
	for (size_t i = 0; p->feature && i < CARC_ARRAY_LEN(feature_names) && !p->kind; i++)
		if (!strcmp(str(p->feature), feature_names[i].jcz))
			p->kind = feature_names[i].kind;
	if (!p->kind && p->feature) {
		fail(cv, CARC_E508, at_node(cv, p->feature), "%s: \"%s\" is not a feature carc converts (City, Road, Field, "
		     "Monastery, Garden)", path, str(p->feature));
		return false;
	}
	if (!carc_jcz_parse_location(str(p->where), strlen(str(p->where)), &p->loc)) {
		fail(cv, CARC_E508, at_node(cv, p->where), "%s: \"%s\" is not a location of the base game", path,
		     str(p->where));
		return false;
	}
	return true;
}

static bool site(const char *kind)
{
	return !strcmp(kind, "cloister") || !strcmp(kind, "garden");
}

/* Whether the turn may take its decision (what: a deployment, a return, a
 * pass) now: after its tile, before any other decision; E507 at at if not. */
static bool may_decide(struct conv *cv, const json_t *at, const char *path, const char *what, const struct turn *t)
{
	if (t->open && !t->decided)
		return true;
	fail(cv, CARC_E507, at_node(cv, at), "%s: %s %s", path, what,
	     t->open ? "after the turn's follower was already decided" : "with no tile placed in this turn");
	return false;
}

static bool deploy_meeple(struct conv *cv, const json_t *msg, const json_t *payload, const char *path,
			  struct turn *t)
{
	if (!may_decide(cv, msg, path, "DEPLOY_MEEPLE", t))
		return false;
	char sub[96];
	snprintf(sub, sizeof sub, "%s.payload", path);
	json_t *ptr = want(cv, payload, sub, "pointer", J_OBJECT, true);
	json_t *meeple = want(cv, payload, sub, "meepleId", J_STRING, true);
	if (!ptr || !meeple)
		return false;
	long owner;
	enum figure fig = figure_of(str(meeple), &owner);
	if (!cv->jcz4 && fig != FIG_FOLLOWER && fig != FIG_ABBOT)
		fig = FIG_OTHER; /* JCZ 5's expansion sets are refused: so are their figures */
	if (fig == FIG_OTHER || (fig == FIG_ABBOT && !cv->abbot)) {
		fail(cv, CARC_E509, at_node(cv, meeple), "%s: \"%s\" is %s", path, str(meeple), fig == FIG_ABBOT ?
		     "an abbot, but setup.elements has no abbot" : "not a follower or an abbot (an expansion figure); "
		     CONVERTS);
		return false;
	}
	if ((fig == FIG_BIG && !cv->inns) || ((fig == FIG_BUILDER || fig == FIG_PIG) && !cv->traders)) {
		fail(cv, CARC_E509, at_node(cv, meeple), "%s: \"%s\" is a figure of %s, which setup.expansions does not "
		     "name", path, str(meeple), fig == FIG_BIG ? "Inns & Cathedrals" : "Traders & Builders");
		return false;
	}
	snprintf(sub, sizeof sub, "%s.payload.pointer", path);
	struct pointer p;
	if (!read_pointer(cv, ptr, sub, &p))
		return false;
	if (p.x != t->x || p.y != t->y) {
		fail(cv, CARC_E508, at_node(cv, p.pos), "%s: the %s goes onto another tile than the one just placed", path,
		     fig == FIG_ABBOT ? "abbot" : "follower");
		return false;
	}
	if (!p.kind) { /* JCZ 4: the feature at exactly that location, of any kind */
		for (int f = 0; f < t->tile->nfeatures && !p.kind; f++) {
			struct carc_jcz_location at = carc_jcz_feature_location(t->ts, t->tile, t->rot, f);
			if (at.edges == p.loc.edges && at.halves == p.loc.halves && at.centre == p.loc.centre)
				p.kind = t->ts->kinds[t->tile->features[f].kind].name;
		}
		if (!p.kind) {
			fail(cv, CARC_E508, at_node(cv, p.where), "%s: tile %s turned %d (JCZ's %s turned R%d) has no feature at "
			     "exactly \"%s\"", path, t->tile->id, t->rot * 90, t->jcz->id, t->jcz_rot * 90, str(p.where));
			return false;
		}
	}
	if (fig == FIG_ABBOT ? !site(p.kind) : !strcmp(p.kind, "garden")) {
		fail(cv, CARC_E508, at_node(cv, p.feature), "%s: %s", path, fig == FIG_ABBOT ? "the abbot goes only onto a "
		     "monastery or a garden" : "only the abbot goes onto a garden");
		return false;
	}
	int f = carc_jcz_feature_at(t->ts, t->tile, t->rot, p.kind, &p.loc);
	if (f < 0) {
		fail(cv, CARC_E508, at_node(cv, p.where), "%s: tile %s turned %d (JCZ's %s turned R%d) has no %s at exactly "
		     "\"%s\"", path, t->tile->id, t->rot * 90, t->jcz->id, t->jcz_rot * 90, p.kind, str(p.where));
		return false;
	}
	if (fig == FIG_ABBOT) {
		t->role = "abbot";
		cv->abbots[t->player].out = true;
		cv->abbots[t->player].x = p.x;
		cv->abbots[t->player].y = p.y;
		snprintf(cv->abbots[t->player].feature, sizeof cv->abbots[t->player].feature, "%s", p.kind);
	}
	if (fig == FIG_BUILDER)
		t->role = "builder";
	else if (fig == FIG_PIG)
		t->role = "pig";
	for (int r = 0; r < cv->rules->nroles && !t->role; r++)
		if (!strcmp(cv->rules->roles[r].kinds[0], p.kind)) {
			/* the large follower: CGN's role word big before the role */
			snprintf(t->rolebuf, sizeof t->rolebuf, "%s%s", fig == FIG_BIG ? "big " : "", cv->rules->roles[r].name);
			t->role = t->rolebuf;
		}
	t->spot = feature_spot(t->ts, t->tile, t->rot, f);
	t->decided = true;
	return true;
}

/* RETURN_MEEPLE with source ABBOT_RETURN: the player takes the abbot back
 * instead of deploying (CGN's "return abbot"). Its pointer is a meeple
 * pointer, {featurePointer: {position, feature, location}, meepleId}, which
 * must name the player's abbot where the player last deployed it. */
static bool return_meeple(struct conv *cv, const json_t *msg, const json_t *payload, const char *path,
			  struct turn *t)
{
	char sub[96];
	snprintf(sub, sizeof sub, "%s.payload", path);
	json_t *source = want(cv, payload, sub, "source", J_STRING, true);
	json_t *ptr = want(cv, payload, sub, "pointer", J_OBJECT, true);
	if (!source || !ptr)
		return false;
	if (strcmp(str(source), "ABBOT_RETURN")) {
		fail(cv, CARC_E506, at_node(cv, source), "%s: a figure returned by %s cannot be converted (an expansion's); carc "
		     "converts the abbot's return, ABBOT_RETURN", path, str(source));
		return false;
	}
	if (!may_decide(cv, msg, path, "the abbot's return", t))
		return false;
	snprintf(sub, sizeof sub, "%s.payload.pointer", path);
	json_t *meeple = want(cv, ptr, sub, "meepleId", J_STRING, true);
	if (!meeple)
		return false;
	json_t *fp = member(ptr, "featurePointer");
	if (fp) {
		fp = want(cv, ptr, sub, "featurePointer", J_OBJECT, true);
		if (!fp)
			return false;
		snprintf(sub, sizeof sub, "%s.payload.pointer.featurePointer", path);
	} else {
		fp = ptr; /* the feature pointer's keys beside meepleId */
	}
	long owner;
	if (figure_of(str(meeple), &owner) != FIG_ABBOT || !cv->abbot) {
		fail(cv, CARC_E509, at_node(cv, meeple), "%s: \"%s\" is %s", path, str(meeple), cv->abbot ? "not an abbot: "
		     "carc converts the abbot's return only" : "an abbot, but setup.elements has no abbot");
		return false;
	}
	if (owner != t->player) {
		fail(cv, CARC_E513, at_node(cv, meeple), "%s: player %d returns \"%s\", which is not the player's own abbot",
		     path, t->player, str(meeple));
		return false;
	}
	struct pointer p;
	if (!read_pointer(cv, fp, sub, &p))
		return false;
	const struct abbot_at *a = &cv->abbots[t->player];
	if (!a->out || a->x != p.x || a->y != p.y || strcmp(a->feature, p.kind)) {
		if (a->out)
			fail(cv, CARC_E513, at_node(cv, p.pos), "%s: player %d's abbot was deployed last onto the %s at [%d, %d], "
			     "not a %s at [%d, %d]", path, t->player, a->feature, a->x + cv->start_x, cv->start_y - a->y, p.kind,
			     p.x + cv->start_x, cv->start_y - p.y);
		else
			fail(cv, CARC_E513, at_node(cv, p.pos), "%s: player %d returns an abbot that was never deployed", path,
			     t->player);
		return false;
	}
	cv->abbots[t->player].out = false;
	t->returned = true;
	t->decided = true;
	return true;
}

static bool read_replay(struct conv *cv, const json_t *replay)
{
	struct turn t = {0};
	int turns = 0, last_player = -1;
	bool last_bonus = false;
	for (size_t i = 0; i < items(replay); i++) {
		json_t *msg = item(replay, i);
		char path[64];
		snprintf(path, sizeof path, "replay[%zu]", i);
		if (jtype(msg) != J_OBJECT) {
			fail(cv, CARC_E502, at_item(cv, replay, i), "%s should be a message object {\"type\", \"payload\"}", path);
			return false;
		}
		json_t *type = want(cv, msg, path, "type", J_STRING, true);
		if (!type)
			return false;
		const char *ty = str(type);
		size_t plen = strlen(path);
		snprintf(path + plen, sizeof path - plen, " (%s)", ty);
		bool known = !strcmp(ty, "PLACE_TILE") || !strcmp(ty, "DEPLOY_MEEPLE") || !strcmp(ty, "RETURN_MEEPLE") ||
			     !strcmp(ty, "PASS") || !strcmp(ty, "COMMIT") || !strcmp(ty, "GAME_OVER");
		if (!known) {
			fail(cv, CARC_E506, at_node(cv, type), "replay[%zu]: message type \"%s\" cannot be converted (carc converts "
			     "PLACE_TILE, DEPLOY_MEEPLE, RETURN_MEEPLE of the abbot, PASS and COMMIT)", i, ty);
			return false;
		}
		json_t *payload = member(msg, "payload");
		if (payload && jtype(payload) != J_OBJECT && jtype(payload) != J_NULL) {
			fail(cv, CARC_E502, at_member(cv, msg, "payload"), "%s.payload should be an object", path);
			return false;
		}
		if (!strcmp(ty, "GAME_OVER")) { /* JCZ 4's last message: the game is scored as finished */
			if (t.open) {
				fail(cv, CARC_E507, at_node(cv, type), "%s: GAME_OVER before the COMMIT that ends the turn", path);
				return false;
			}
			if (i + 1 < items(replay)) {
				fail(cv, CARC_E507, at_item(cv, replay, i + 1), "replay[%zu]: a message after GAME_OVER", i + 1);
				return false;
			}
			break;
		}
		if ((!payload || jtype(payload) == J_NULL) && strcmp(ty, "PASS") && strcmp(ty, "COMMIT")) {
			fail(cv, CARC_E502, at_node(cv, msg), "%s has no \"payload\"", path);
			return false;
		}
		int player;
		if (!message_player(cv, msg, path, t.open ? t.player : turns % cv->nplayers, &player))
			return false;
		if (t.open && player != t.player) {
			fail(cv, CARC_E507, at_member(cv, msg, "player"), "%s: player %d acts in the turn of player %d", path,
			     player, t.player);
			return false;
		}
		if (!strcmp(ty, "PLACE_TILE")) {
			/* JCZ 5 names the player: the same one again after a COMMIT, with
			 * Traders & Builders, plays the builder's bonus turn */
			bool again = !t.open && cv->traders && cv->nplayers > 1 && turns > 0 && !last_bonus &&
				     player == last_player && player != turns % cv->nplayers;
			t.bonus = again;
			if (!place_tile(cv, msg, payload, path, player, &t))
				return false;
		} else if (!strcmp(ty, "DEPLOY_MEEPLE")) {
			if (!deploy_meeple(cv, msg, payload, path, &t))
				return false;
		} else if (!strcmp(ty, "RETURN_MEEPLE")) {
			if (!return_meeple(cv, msg, payload, path, &t))
				return false;
		} else if (!strcmp(ty, "PASS")) {
			if (!may_decide(cv, type, path, "PASS", &t))
				return false;
			t.decided = true;
		} else { /* COMMIT */
			if (!t.open) {
				fail(cv, CARC_E507, at_node(cv, type), "%s: COMMIT with no tile placed in this turn", path);
				return false;
			}
			write_turn(cv, &t);
			t.open = false;
			/* a bonus turn does not move play on to the next player */
			if (!t.bonus || player != (turns - 1 + cv->nplayers) % cv->nplayers)
				turns++;
			last_player = t.player;
			last_bonus = t.bonus;
		}
	}
	if (t.open) {
		carc_import_comment(&cv->cgn, "JCloisterZone saved the game before this turn was committed");
		write_turn(cv, &t);
	}
	return true;
}

/* ---- step 4: read back, check, canonical form ---- */

struct capture {
	struct carc_buf first;
	enum carc_code code;
	unsigned n;
};

static void capture(void *ctx, const struct carc_diag *d)
{
	struct capture *c = ctx;
	if (d->severity == CARC_SEV_ERROR && c->n++ == 0) {
		carc_buf_adds(&c->first, d->message);
		c->code = d->code;
	}
}

/* Edition 2 brings the small-city rule that tiny-city-scoring "2" asks for,
 * and also its farm rule (a colour scores a city once however many of its
 * farms border it), which JCZ does not use: JCZ scores 3 per city per farm,
 * as the 3rd edition does. The record is true only if no colour's farms
 * score differently under the two; replaying the game settles it. */
static bool farms_agree(struct conv *cv, const struct carc_record *rec)
{
	struct carc_game *g = carc_game_new();
	struct carc_result res = {0};
	struct carc_diag_sink quiet = {0};
	int farm[2][CARC_COLOURS];
	for (int k = 0; k < 2; k++) {
		struct carc_referee_opts opt = {.edition = k ? 3 : 2, .final_anyway = true};
		carc_referee_run(&res, rec, g, &quiet, &opt);
		for (int c = 0; c < CARC_COLOURS; c++)
			farm[k][c] = res.refereed ? carc_game_points_from(g, c, CARC_SRC_AREA) : 0;
	}
	bool agree = true;
	for (int s = 0; s < rec->nseats && agree; s++) {
		int c = rec->seats[s];
		if (farm[0][c] != farm[1][c]) {
			fail(cv, CARC_E512, at_node(cv, cv->tiny_city), "setup.rules.tiny-city-scoring \"2\" is CGN's Edition 2, whose "
			     "farm rule would score %s %d for farms where JCloisterZone scores %d; CGN has no edition with "
			     "both rules", carc_colour_name(c), farm[0][c], farm[1][c]);
			agree = false;
		}
	}
	carc_result_free(&res);
	carc_game_free(g);
	carc_diag_free(&quiet);
	return agree;
}

static bool finish(struct conv *cv, struct carc_buf *out)
{
	struct carc_record rec = {0};
	struct capture cap = {{0}, CARC_E028, 0};
	struct carc_diag_sink sink = {capture, &cap};
	bool ok = carc_parse_string(cv->cgn.data, cv->cgn.len, "import", cv->cache, carc_rules_registry(), &rec, &sink);
	if (!ok || cap.n) {
		/* Never expected: the CGN parser's own complaint, with its code. */
		fail(cv, cap.code, (span){0, 1}, "the converted record does not read back as CGN (%s); this is a bug in "
			"carc import, please report it with the file", cap.n ? carc_buf_cstr(&cap.first) : "no game");
		ok = false;
	}
	if (ok && cv->tiny_city)
		ok = farms_agree(cv, &rec);
	if (ok)
		carc_format_record(&rec, out);
	carc_record_free(&rec);
	carc_buf_free(&cap.first);
	carc_diag_free(&sink);
	return ok;
}

bool carc_jcz_import(const struct carc_src *src, const char *name, struct carc_buf *out,
		     struct carc_diag_sink *sink)
{
	struct conv cv = {.src = src, .sink = sink};
	bool ok = load(&cv);
	if (ok) {
		cv.cache = carc_tileset_cache_new();
		cv.rules = carc_ruleset_default();
		cv.sets[CARC_JCZ_BASE] = carc_tileset_load(cv.rules->tileset, sink, NULL, 0, 0);
		ok = cv.sets[CARC_JCZ_BASE] != NULL;
	}
	json_t *root = ok ? carc_json_root(cv.doc) : NULL;
	struct carc_buf tags = {0};
	if (ok)
		ok = read_header(&cv, root, name, &tags);
	if (ok) {
		if (tags.len)
			carc_buf_add(&cv.cgn, tags.data, tags.len);
		carc_buf_addc(&cv.cgn, '\n');
		json_t *replay = want(&cv, root, "the file", "replay", J_ARRAY, true);
		ok = replay && read_replay(&cv, replay);
	}
	if (ok)
		ok = cv.errors == 0;
	if (ok)
		ok = finish(&cv, out);
	carc_buf_free(&tags);
	carc_buf_free(&cv.cgn);
	carc_buf_free(&cv.msg);
	carc_buf_free(&cv.path);
	carc_json_free(cv.doc);
	if (cv.cache)
		carc_tileset_cache_free(cv.cache);
	for (int i = 0; i < CARC_JCZ_NSETS; i++)
		if (cv.sets[i])
			carc_tileset_free(cv.sets[i]);
	return ok;
}
