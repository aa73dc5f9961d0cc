/*
 * bga.c - Board Game Arena's tile types and meeple zones, and its replay
 * logs into CGN (bga.h; the mapping of every event is notation/bga.md).
 *
 * The log is JSON (read strictly by jsonread.c). Its packets
 * hold events in play order; carc keeps playTile, playPartisan, cantPlay,
 * winPoints, the realizationAchieved that opens the final scoring and the
 * gameStateChange that carries the final result, and passes over the rest
 * (state changes, notes, timers). The game is written as CGN, read back and
 * put in canonical form; nothing is written when anything is wrong. Every
 * message points at the value it is about (or at the object that lacks a
 * member), with its path from the root in the text: data.data[3].data[0].
 */
#include "import/bga.h"

#include "notation/format.h"
#include "common/jsonread.h"
#include "notation/record.h"
#include "rules/rules.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the tile types ---- */

/* From BGA's numbering of the base tiles and of the meeple zones on each,
 * as translated to the base tile set's features (notation/bga.md). */
static const struct carc_bga_type bga_types[CARC_BGA_TYPES] = {
	{1, 'T', 0, "S N SSW SSE"},
	{2, 'S', 0, "S N SSW SSE"},
	{3, 'N', 0, "N ENE"},
	{4, 'M', 0, "N ENE"},
	{5, 'P', 0, "E N ENE ESE"},
	{6, 'O', 0, "E N ENE ESE"},
	{7, 'G', 0, "E NNW SSE"},
	{8, 'F', 0, "E NNW SSE"},
	{9, 'I', 3, "E N SSE"},
	{10, 'H', 1, "W E NNW"},
	{11, 'E', 0, "N ENE"},
	{12, 'K', 0, "S N ENE SSW"},
	{13, 'J', 0, "E N ENE ESE"},
	{14, 'L', 0, "W E S N ENE SSW ESE"},
	{15, 'D', 0, "E N ENE ESE"},
	{16, 'U', 0, "N - NNW NNE"},
	{17, 'V', 0, "S NNW SSW"},
	{18, 'W', 0, "W E S NNW SSW ESE"},
	{19, 'X', 0, "W E S N NNW NNE ESE SSW"},
	{20, 'B', 0, "C NNW"},
	{21, 'A', 0, "C S NNW"},
	{22, 'C', 0, "N"},
	{23, 'R', 0, "N SSE"},
	{24, 'Q', 0, "N SSE"},
};

const struct carc_bga_type *carc_bga_type(long type)
{
	return type >= 1 && type <= CARC_BGA_TYPES ? &bga_types[type - 1] : NULL;
}

const struct carc_bga_type *carc_bga_type_of(char letter)
{
	for (size_t i = 0; i < CARC_BGA_TYPES; i++)
		if (bga_types[i].letter == letter)
			return &bga_types[i];
	return NULL;
}

int carc_bga_tile(const struct carc_tileset *ts, const struct carc_bga_type *bt)
{
	return carc_tileset_find(ts, &bt->letter, 1);
}

int carc_bga_spot_feature(const struct carc_tile *t, int rot, int spot)
{
	int f;
	if (spot >= CARC_SPOT_NNW && spot <= CARC_SPOT_WNW)
		f = carc_tile_half(t, rot, spot);
	else if (spot >= CARC_SPOT_N && spot <= CARC_SPOT_W)
		f = carc_tile_edge_feature(t, rot, spot - CARC_SPOT_N);
	else if (spot == CARC_SPOT_C)
		f = t->centre_feature;
	else
		return -1;
	return f == CARC_NO_FEATURE ? -1 : f;
}

/* The spot word of zone pos in a zones string, as a slice; false if none. */
static bool zone_word(const char *zones, long pos, const char **w, size_t *n)
{
	const char *p = zones;
	for (long z = 1; *p; z++) {
		size_t len = strcspn(p, " ");
		if (z == pos) {
			*w = p;
			*n = len;
			return !(len == 1 && *p == '-');
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	return false;
}

int carc_bga_zone_feature(const struct carc_tileset *ts, const struct carc_bga_type *bt, long pos)
{
	const char *w;
	size_t n;
	int tile = carc_bga_tile(ts, bt);
	if (tile < 0 || pos < 1 || pos > CARC_BGA_MAX_POS || !zone_word(bt->zones, pos, &w, &n))
		return -1;
	return carc_bga_spot_feature(&ts->tiles[tile], 0, carc_spot_lookup(w, n));
}

int carc_bga_feature_zone(const struct carc_tileset *ts, const struct carc_bga_type *bt, int f)
{
	for (int pos = 1; pos <= CARC_BGA_MAX_POS; pos++)
		if (carc_bga_zone_feature(ts, bt, pos) == f)
			return pos;
	return 0;
}

int carc_bga_spot(const struct carc_tile *t, int rot, int f)
{
	const struct carc_feature *ft = &t->features[f];
	uint8_t edges = carc_rot_edges(ft->edges, rot), halves = carc_rot_halves(ft->halves, rot);
	if (edges)
		return CARC_SPOT_N + carc_lowest_bit(edges);
	if (halves)
		return carc_lowest_bit(halves);
	return CARC_SPOT_C;
}

int carc_bga_role(const struct carc_ruleset *rs, const char *kind)
{
	for (int r = 0; r < rs->nroles; r++)
		if (!strcmp(rs->roles[r].kinds[0], kind))
			return r;
	return -1;
}

int carc_bga_colour(const char *hex, size_t len)
{
	static const struct {
		const char *hex;
		int colour;
	} colours[] = {
		{"ff0000", CARC_RED}, {"008000", CARC_GREEN}, {"0000ff", CARC_BLUE},
		{"ffa500", CARC_YELLOW}, {"000000", CARC_BLACK},
	};
	if (len && hex[0] == '#') {
		hex++;
		len--;
	}
	for (size_t i = 0; i < CARC_ARRAY_LEN(colours); i++)
		if (carc_slice_ieq(hex, len, colours[i].hex))
			return colours[i].colour;
	return -1;
}

/* A tag line: quotes and backslashes escaped, control characters (C0, DEL
 * and C1) blanked, so that any name makes one well-formed line. */
void carc_bga_add_tag(struct carc_buf *b, const char *name, const char *value)
{
	carc_buf_printf(b, "[%s \"", name);
	for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
		if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { /* U+0080 to U+009F */
			carc_buf_addc(b, ' ');
			p++;
			continue;
		}
		if (*p == '"' || *p == '\\')
			carc_buf_addc(b, '\\');
		carc_buf_addc(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
	}
	carc_buf_adds(b, "\"]\n");
}

void carc_import_comment(struct carc_buf *b, const char *fmt, ...)
{
	struct carc_buf text = {0};
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&text, fmt, ap);
	va_end(ap);
	carc_buf_adds(b, "; ");
	carc_text_shown(b, text.data, text.len);
	carc_buf_addc(b, '\n');
	carc_buf_free(&text);
}

/* The first error the CGN reader reports, if any. */
struct first_error {
	struct carc_buf text;
	enum carc_code code;
	unsigned n;
};

static void keep_first(void *ctx, const struct carc_diag *d)
{
	struct first_error *c = ctx;
	if (d->severity == CARC_SEV_ERROR && c->n++ == 0) {
		carc_buf_adds(&c->text, d->message);
		c->code = d->code;
	}
}

bool carc_bga_finish(const struct carc_buf *cgn, struct carc_tileset_cache *cache, struct carc_buf *out,
		     const struct carc_src *src, struct carc_diag_sink *sink)
{
	struct carc_record rec = {0};
	struct first_error first = {{0}, CARC_E028, 0};
	struct carc_diag_sink quiet = {keep_first, &first};
	bool ok = carc_parse_string(cgn->data ? cgn->data : "", cgn->len, "import", cache, carc_rules_registry(),
				    &rec, &quiet);
	if (!ok || first.n) {
		/* Never expected: the reader's own complaint, with its code. */
		carc_diag_report(sink, first.code, src, 0, 0, "the converted record does not read back as CGN (%s); "
				 "this is a bug in carc, please report it with the input",
				 first.n ? carc_buf_cstr(&first.text) : "no game");
		ok = false;
	} else {
		carc_format_record(&rec, out);
	}
	carc_record_free(&rec);
	carc_buf_free(&first.text);
	carc_diag_free(&quiet);
	return ok;
}

/* ---- the JSON: values with their paths ---- */

/* A value of the log and the way to it from the root: the member key of
 * the object above it, or its index in the array above it. */
struct jv {
	json_t *v;               /* NULL: absent */
	const struct jv *up;
	const char *key;
	size_t index;
};

static struct jv jv_member(const struct jv *obj, const char *key)
{
	struct jv m = {json_is_object(obj->v) ? json_object_get(obj->v, key) : NULL, obj, key, 0};
	return m;
}

static struct jv jv_item(const struct jv *arr, size_t i)
{
	struct jv m = {json_is_array(arr->v) ? json_array_get(arr->v, i) : NULL, arr, NULL, i};
	return m;
}

#define MAX_PLAYERS 5     /* BGA's five colours */
#define MAX_COORD 100000
#define MAX_NAME 200      /* bytes of a player's name */
#define MAX_TURNS 1000    /* tiles placed and put aside: more than any tile set holds */

struct bturn {
	bool discard;
	bool scored;             /* a winPoints during the turn: it gets a claim */
	int player;              /* index into players */
	int tile, rot, x, y;     /* CGN terms */
	long bx, by;             /* BGA's position, for the meeple's */
	const struct carc_bga_type *bt;
	int role, spot;          /* role index or -1 */
	long score[MAX_PLAYERS]; /* the track after the turn */
};

struct bplayer {
	char id[32];
	char *name;
	int colour;              /* CGN colour, -1 until known */
	long score;              /* the track, from winPoints */
	long result;             /* the final score, -1 when the log has none */
};

struct bconv {
	const struct carc_src *src;
	const struct carc_json_doc *doc;
	struct carc_diag_sink *sink;
	unsigned errors;
	struct carc_buf msg, path;

	struct carc_tileset_cache *cache;
	const struct carc_tileset *ts;
	const struct carc_ruleset *rules;

	struct bplayer players[MAX_PLAYERS];
	int nplayers;
	int nseats;              /* 0 until the order of play is known */
	struct bturn *turns;
	size_t nturns, cap;
	int played;              /* turns played (discards not counted) */
	bool meeple_open;        /* the last turn placed a tile and may still get its meeple */
	bool final;              /* the final scoring has begun */
	struct jv result;        /* v: the final result list, or NULL */
	size_t result_packet, result_event; /* where: event SIZE_MAX when the packet's data is the event */
	char table[32];
	char date[11];
};

/* Where x is in the text: its own span, or its parent's when it is absent. */
static struct carc_json_span jv_where(const struct bconv *cv, const struct jv *x)
{
	struct carc_json_span at = {0, 1};
	for (; x; x = x->up) {
		if (!x->up) {
			carc_json_where(cv->doc, x->v, &at);
			break;
		}
		if (x->v && (x->key ? carc_json_member_where(cv->doc, x->up->v, x->key, NULL, &at)
				    : carc_json_item_where(cv->doc, x->up->v, x->index, &at)))
			break;
	}
	return at;
}

/* The path of x for messages: data.data[3].data[0].args.x */
static const char *jv_path(struct bconv *cv, const struct jv *x)
{
	const struct jv *chain[16];
	size_t n = 0;
	for (const struct jv *p = x; p->up && n < CARC_ARRAY_LEN(chain); p = p->up)
		chain[n++] = p;
	carc_buf_reset(&cv->path);
	while (n--) {
		if (chain[n]->key)
			carc_buf_printf(&cv->path, "%s%s", cv->path.len ? "." : "", chain[n]->key);
		else
			carc_buf_printf(&cv->path, "[%zu]", chain[n]->index);
	}
	return cv->path.len ? carc_buf_cstr(&cv->path) : "the log";
}

static void fail(struct bconv *cv, enum carc_code code, const struct jv *at, const char *fmt, ...) CARC_PRINTF(4, 5);

/* Reports at the value x (at the member of its parent when x is absent). */
static void fail(struct bconv *cv, enum carc_code code, const struct jv *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	carc_buf_reset(&cv->msg);
	carc_buf_vprintf(&cv->msg, fmt, ap);
	va_end(ap);
	struct carc_json_span where = jv_where(cv, at);
	carc_diag_report(cv->sink, code, cv->src, where.off, where.len, "%s", carc_buf_cstr(&cv->msg));
	cv->errors++;
}

/* A whole number, written as a JSON number or as a string of digits. */
static bool int_of(const json_t *v, long lo, long hi, long *out)
{
	long x;
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);
		if (i < lo || i > hi)
			return false;
		x = (long)i;
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v), *p = s + (*s == '-');
		if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 12)
			return false;
		x = strtol(s, NULL, 10);
		if (x < lo || x > hi)
			return false;
	} else {
		return false;
	}
	*out = x;
	return true;
}

/* args.KEY of an event as a whole number from lo to hi, or reports E521. */
static bool want_int(struct bconv *cv, const struct jv *args, const char *key, long lo, long hi, long *out)
{
	struct jv m = jv_member(args, key);
	if (!m.v) {
		fail(cv, CARC_E521, args, "%s has no \"%s\"", jv_path(cv, args), key);
		return false;
	}
	if (!int_of(m.v, lo, hi, out)) {
		fail(cv, CARC_E521, &m, "%s should be a whole number from %ld to %ld", jv_path(cv, &m), lo, hi);
		return false;
	}
	return true;
}

/* A player id (a number, or a string of digits) into buf; false if none. */
static bool id_of(const json_t *v, char *buf, size_t size)
{
	long x;
	if (!int_of(v, 0, 999999999999L, &x))
		return false;
	snprintf(buf, size, "%ld", x);
	return true;
}

/* args.player_id (m) as an id into id[32], or false after reporting. */
static bool want_id(struct bconv *cv, const struct jv *args, const struct jv *m, char *id)
{
	if (m->v && id_of(m->v, id, 32))
		return true;
	fail(cv, CARC_E521, m->v ? m : args, "%s should %s a player id (a whole number)", jv_path(cv, m->v ? m : args),
	     m->v ? "be" : "have \"player_id\":");
	return false;
}

/* The index of the player with this id, or nplayers when none has it. */
static int find_player(const struct bconv *cv, const char *id)
{
	int p = 0;
	while (p < cv->nplayers && strcmp(cv->players[p].id, id))
		p++;
	return p;
}

/* ---- the events ---- */

static const char *player_name(const struct bconv *cv, int p)
{
	return cv->players[p].name ? cv->players[p].name : cv->players[p].id;
}

static struct bturn *new_turn(struct bconv *cv, int player)
{
	if (cv->nturns == cv->cap) {
		cv->cap = cv->cap ? 2 * cv->cap : 128;
		cv->turns = xrealloc(cv->turns, cv->cap * sizeof *cv->turns);
	}
	struct bturn *t = &cv->turns[cv->nturns++];
	memset(t, 0, sizeof *t);
	t->player = player;
	t->role = -1;
	if (cv->nturns > 1)
		memcpy(t->score, t[-1].score, sizeof t->score);
	return t;
}

/* Whether player p (new: seen for the first time, which the caller allows
 * only in the first round) plays the turn now due; reports E524 if not. The
 * order of play is the order of the first round. */
static bool in_turn(struct bconv *cv, int p, bool is_new, int expected, const struct jv *at)
{
	int k = cv->played;
	if (!cv->nseats && (is_new || (p == cv->nplayers - 1 && k == p)))
		return true; /* a new player, or one a discard seated, in the first round */
	if (!cv->nseats && p == 0 && k == cv->nplayers && (!expected || expected == cv->nplayers)) {
		cv->nseats = cv->nplayers;
		return true;
	}
	if (cv->nseats && !is_new && p == k % cv->nseats)
		return true;
	if (!cv->nseats)
		fail(cv, CARC_E524, at, "%s: %s plays turn %d out of turn: %s", jv_path(cv, at), player_name(cv, p), k + 1,
		     expected > cv->nplayers ? "the final result seats players who have not played yet"
					     : "players take turns in the order of their first tiles");
	else
		fail(cv, CARC_E524, at, "%s: %s plays turn %d, which is %s's turn", jv_path(cv, at), player_name(cv, p),
		     k + 1, player_name(cv, k % cv->nseats));
	return false;
}

/* The player of a tile event (args.player_id), seated if new and checked
 * to be in turn; -1 after reporting. */
static int turn_player(struct bconv *cv, const struct jv *args, int expected)
{
	struct jv m = jv_member(args, "player_id");
	char id[32];
	if (!want_id(cv, args, &m, id))
		return -1;
	int p = find_player(cv, id);
	bool is_new = p == cv->nplayers;
	if (is_new) {
		if (cv->nseats || cv->nplayers == MAX_PLAYERS || (expected && cv->nplayers == expected)) {
			fail(cv, CARC_E524, &m, "%s: player %s joins at turn %d, after every player has played",
			     jv_path(cv, &m), id, cv->played + 1);
			return -1;
		}
		struct bplayer *pl = &cv->players[cv->nplayers++];
		snprintf(pl->id, sizeof pl->id, "%s", id);
		pl->colour = -1;
		pl->result = -1;
		struct jv name = jv_member(args, "player_name");
		if (json_is_string(name.v) && json_string_length(name.v) > MAX_NAME) {
			fail(cv, CARC_E521, &name, "%s is longer than %d bytes", jv_path(cv, &name), MAX_NAME);
			return -1;
		}
		if (json_is_string(name.v))
			pl->name = xstrdup(json_string_value(name.v));
	}
	return in_turn(cv, p, is_new, expected, &m) ? p : -1;
}

/* args.type as a base tile: its BGA type and tile index; -1 after reporting. */
static int tile_of(struct bconv *cv, const struct jv *args, const struct carc_bga_type **bt)
{
	struct jv m = jv_member(args, "type");
	long type;
	if (!m.v || !int_of(m.v, LONG_MIN / 2, LONG_MAX / 2, &type)) {
		fail(cv, CARC_E521, m.v ? &m : args, "%s should %s a BGA tile type (a whole number)",
		     jv_path(cv, m.v ? &m : args), m.v ? "be" : "have \"type\":");
		return -1;
	}
	*bt = carc_bga_type(type);
	int tile = *bt ? carc_bga_tile(cv->ts, *bt) : -1;
	if (tile < 0)
		fail(cv, CARC_E522, &m, "%s: tile type %ld is not one of the base game's 24 (an expansion tile); only "
		     "base games can be imported", jv_path(cv, &m), type);
	return tile;
}

static bool play_tile(struct bconv *cv, const struct jv *args, int expected)
{
	const struct carc_bga_type *bt;
	long x, y, ori;
	int p = turn_player(cv, args, expected);
	if (p < 0)
		return false;
	int tile = tile_of(cv, args, &bt);
	if (tile < 0 || !want_int(cv, args, "x", -MAX_COORD, MAX_COORD, &x) ||
	    !want_int(cv, args, "y", -MAX_COORD, MAX_COORD, &y) || !want_int(cv, args, "ori", 1, 4, &ori))
		return false;
	struct bturn *t = new_turn(cv, p);
	t->tile = tile;
	t->bt = bt;
	t->rot = (int)((bt->turn + ori - 1) & 3);
	t->bx = x;
	t->by = y;
	t->x = (int)x;
	t->y = (int)-y;
	cv->played++;
	cv->meeple_open = true;
	return true;
}

static bool cant_play(struct bconv *cv, const struct jv *args, int expected)
{
	const struct carc_bga_type *bt;
	int p = turn_player(cv, args, expected);
	if (p < 0)
		return false;
	int tile = tile_of(cv, args, &bt);
	if (tile < 0)
		return false;
	struct bturn *t = new_turn(cv, p);
	t->discard = true;
	t->tile = tile;
	t->bt = bt;
	cv->meeple_open = false;
	return true;
}

/* The feature kinds of BGA's meeple targets. */
static const char *target_kind(const char *target)
{
	static const char *const names[][2] = {
		{"city", "city"}, {"road", "road"}, {"field", "field"}, {"abbey", "cloister"},
	};
	for (size_t i = 0; i < CARC_ARRAY_LEN(names); i++)
		if (!strcmp(target, names[i][0]))
			return names[i][1];
	return NULL;
}

static bool play_partisan(struct bconv *cv, const struct jv *args)
{
	struct jv player = jv_member(args, "player_id"), ptype = jv_member(args, "ptype"),
		  target = jv_member(args, "target"), pos = jv_member(args, "pos");
	char id[32];
	long x, y, zone;
	if (!cv->meeple_open) {
		fail(cv, CARC_E524, args, "%s: a meeple %s", jv_path(cv, args),
		     cv->nturns ? "with no tile placed in this turn to stand on (one a turn, on the tile just placed)"
				: "before any tile is placed");
		return false;
	}
	struct bturn *t = &cv->turns[cv->nturns - 1];
	if (!want_id(cv, args, &player, id))
		return false;
	if (strcmp(id, cv->players[t->player].id)) {
		fail(cv, CARC_E524, &player, "%s: a meeple of player %s in the turn of %s", jv_path(cv, &player), id,
		     player_name(cv, t->player));
		return false;
	}
	if (!json_is_string(ptype.v) || strcmp(json_string_value(ptype.v), "normal")) {
		if (json_is_string(ptype.v))
			fail(cv, CARC_E522, &ptype, "%s: \"%s\" is an expansion figure (a base game has \"normal\" meeples "
			     "only); only base games can be imported", jv_path(cv, &ptype), json_string_value(ptype.v));
		else
			fail(cv, CARC_E521, ptype.v ? &ptype : args, "%s should %s the figure as a string (\"normal\")",
			     jv_path(cv, ptype.v ? &ptype : args), ptype.v ? "name" : "have \"ptype\" naming");
		return false;
	}
	if (!want_int(cv, args, "x", -MAX_COORD, MAX_COORD, &x) || !want_int(cv, args, "y", -MAX_COORD, MAX_COORD, &y))
		return false;
	if (x != t->bx || y != t->by) {
		struct jv xm = jv_member(args, "x");
		fail(cv, CARC_E524, &xm, "%s: a meeple on the tile at %ld,%ld (BGA's x,y), but the tile just placed "
		     "is at %ld,%ld", jv_path(cv, args), x, y, t->bx, t->by);
		return false;
	}
	if (!want_int(cv, args, "pos", 0, 1000, &zone))
		return false;
	const struct carc_tile *tile = &cv->ts->tiles[t->tile];
	int f = carc_bga_zone_feature(cv->ts, t->bt, zone);
	if (f < 0) {
		fail(cv, CARC_E523, &pos, "%s: tile type %d (%s) has no meeple position %ld", jv_path(cv, &pos),
		     t->bt->type, tile->id, zone);
		return false;
	}
	const char *kind = cv->ts->kinds[tile->features[f].kind].name;
	if (!json_is_string(target.v) || !target_kind(json_string_value(target.v))) {
		fail(cv, CARC_E521, target.v ? &target : args, "%s should %s city, road, field or abbey",
		     jv_path(cv, target.v ? &target : args), target.v ? "be" : "have \"target\":");
		return false;
	}
	if (strcmp(target_kind(json_string_value(target.v)), kind)) {
		fail(cv, CARC_E523, &target, "%s: the meeple's target is a %s, but position %ld of tile type %d (%s) is a "
		     "%s", jv_path(cv, &target), json_string_value(target.v), zone, t->bt->type, tile->id, kind);
		return false;
	}
	t->role = carc_bga_role(cv->rules, kind);
	t->spot = carc_bga_spot(tile, t->rot, f);
	cv->meeple_open = false;
	return true;
}

static bool win_points(struct bconv *cv, const struct jv *args)
{
	struct jv player = jv_member(args, "player_id");
	char id[32];
	long score, points;
	if (!want_id(cv, args, &player, id))
		return false;
	int p = find_player(cv, id);
	if (p == cv->nplayers) {
		fail(cv, CARC_E524, &player, "%s: points for player %s, who has not played a tile", jv_path(cv, &player),
		     id);
		return false;
	}
	if (!want_int(cv, args, "score", 0, 99999, &score))
		return false;
	struct jv pm = jv_member(args, "points");
	if (pm.v && !int_of(pm.v, 0, 99999, &points)) {
		fail(cv, CARC_E521, &pm, "%s should be a whole number from 0 to 99999", jv_path(cv, &pm));
		return false;
	}
	if (pm.v && points != score - cv->players[p].score) {
		fail(cv, CARC_E524, &pm, "%s: %s wins %ld points, but the score goes from %ld to %ld", jv_path(cv, &pm),
		     player_name(cv, p), points, cv->players[p].score, score);
		return false;
	}
	cv->players[p].score = score;
	if (!cv->final) {
		struct bturn *t = &cv->turns[cv->nturns - 1];
		t->scored = true;
		t->score[p] = score;
	}
	return true;
}

/* In-play scoring says this; the final scoring says something else. */
#define IN_PLAY_LOG "${player_name} achieved a ${real_type}"

static bool read_event(struct bconv *cv, const struct jv *ev, int expected)
{
	struct jv type = jv_member(ev, "type"), args = jv_member(ev, "args");
	if (!json_is_object(ev->v) || !json_is_string(type.v)) {
		fail(cv, CARC_E521, ev, "%s should be an event object with a \"type\"", jv_path(cv, ev));
		return false;
	}
	const char *ty = json_string_value(type.v);
	bool tile = !strcmp(ty, "playTile"), meeple = !strcmp(ty, "playPartisan"), discard = !strcmp(ty, "cantPlay"),
	     points = !strcmp(ty, "winPoints");
	if (!tile && !meeple && !discard && !points) {
		if (!strcmp(ty, "realizationAchieved")) {
			struct jv log = jv_member(ev, "log");
			if (cv->nturns && !(json_is_string(log.v) && !strcmp(json_string_value(log.v), IN_PLAY_LOG)))
				cv->final = true;
		}
		return true;
	}
	if (!json_is_object(args.v)) {
		fail(cv, CARC_E521, args.v ? &args : ev, "%s should %s", jv_path(cv, args.v ? &args : ev),
		     args.v ? "be an object" : "have \"args\"");
		return false;
	}
	if (cv->final && !points) {
		fail(cv, CARC_E524, &type, "%s: %s after the final scoring began", jv_path(cv, &type), ty);
		return false;
	}
	if (!cv->nturns && points) {
		fail(cv, CARC_E524, &type, "%s: points before any tile is placed", jv_path(cv, &type));
		return false;
	}
	if ((tile || discard) && cv->nturns == MAX_TURNS) {
		fail(cv, CARC_E524, &type, "%s: more than %d tiles placed or put aside; a base game has 71", jv_path(cv, &type),
		     MAX_TURNS);
		return false;
	}
	if (tile)
		return play_tile(cv, &args, expected);
	if (discard)
		return cant_play(cv, &args, expected);
	if (meeple)
		return play_partisan(cv, &args);
	return win_points(cv, &args);
}

/* ---- the whole log ---- */

/* The packets: data.data, or data.logs; NULL v after reporting. */
static struct jv packets_of(struct bconv *cv, const struct jv *root, struct jv *data)
{
	*data = jv_member(root, "data");
	struct jv list = jv_member(data, "data");
	if (!json_is_array(list.v))
		list = jv_member(data, "logs");
	if (!json_is_object(root->v) || !json_is_object(data->v) || !json_is_array(list.v)) {
		fail(cv, CARC_E521, json_is_object(data->v) ? data : root, "%s should hold the packets of a replay log "
		     "as a list, %s", jv_path(cv, json_is_object(data->v) ? data : root),
		     json_is_object(data->v) ? "\"data\" or \"logs\"" : "under \"data\": {\"data\": [...]}");
		list.v = NULL;
	}
	return list;
}

/* Calls fn on every event of every packet until it returns false. */
static bool each_event(struct bconv *cv, const struct jv *packets, bool (*fn)(struct bconv *, const struct jv *, int),
		       int arg)
{
	for (size_t i = 0; i < json_array_size(packets->v); i++) {
		struct jv packet = jv_item(packets, i), events = jv_member(&packet, "data");
		if (!json_is_object(packet.v) || !(json_is_array(events.v) || json_is_object(events.v))) {
			fail(cv, CARC_E521, json_is_object(packet.v) ? &packet : &packet, "%s should be a packet whose "
			     "\"data\" is an event or a list of events", jv_path(cv, &packet));
			return false;
		}
		if (json_is_object(events.v)) {
			if (!fn(cv, &events, arg))
				return false;
			continue;
		}
		for (size_t j = 0; j < json_array_size(events.v); j++) {
			struct jv ev = jv_item(&events, j);
			if (!fn(cv, &ev, arg))
				return false;
		}
	}
	return true;
}

/* The first pass: where the final result is (the last gameStateChange
 * whose args.args.result is a list), so the number of players is known. */
static bool find_result(struct bconv *cv, const struct jv *ev, int unused)
{
	(void)unused;
	struct jv type = jv_member(ev, "type"), args = jv_member(ev, "args"), inner = jv_member(&args, "args"),
		  result = jv_member(&inner, "result");
	if (json_is_string(type.v) && !strcmp(json_string_value(type.v), "gameStateChange") && json_is_array(result.v)) {
		/* ev is [j] of a packet's data, or the data itself */
		const struct jv *packet = ev->key ? ev->up : ev->up->up;
		cv->result_packet = packet->index;
		cv->result_event = ev->key ? SIZE_MAX : ev->index;
		cv->result.v = result.v;
	}
	return true;
}

/* The final result's entries: colours, and the Result; false after reporting. */
static bool read_result(struct bconv *cv, const struct jv *result)
{
	unsigned taken = 0;
	size_t n = json_array_size(result->v);
	for (size_t i = 0; i < n; i++) {
		struct jv e = jv_item(result, i), player = jv_member(&e, "player"), color = jv_member(&e, "color");
		char id[32];
		long score;
		if (!json_is_object(e.v) || !player.v || !id_of(player.v, id, sizeof id)) {
			fail(cv, CARC_E521, &e, "%s should be a player's result with \"player\" (an id), \"color\" and "
			     "\"score\"", jv_path(cv, &e));
			return false;
		}
		int p = 0;
		while (p < cv->nplayers && strcmp(cv->players[p].id, id))
			p++;
		if (p == cv->nplayers) {
			fail(cv, CARC_E525, &player, "%s: player %s has a result but never plays a tile", jv_path(cv, &player),
			     id);
			return false;
		}
		if (cv->players[p].colour >= 0) {
			fail(cv, CARC_E525, &player, "%s: player %s has two results", jv_path(cv, &player), id);
			return false;
		}
		int c = json_is_string(color.v) ? carc_bga_colour(json_string_value(color.v), json_string_length(color.v))
						: -1;
		if (c < 0) {
			fail(cv, CARC_E525, color.v ? &color : &e, "%s should be one of BGA's colours ff0000, 008000, 0000ff, "
			     "ffa500, 000000", jv_path(cv, color.v ? &color : &e));
			return false;
		}
		if (taken & (1u << c)) {
			fail(cv, CARC_E525, &color, "%s: %s has a colour another player has", jv_path(cv, &color),
			     player_name(cv, p));
			return false;
		}
		taken |= 1u << c;
		if (!want_int(cv, &e, "score", 0, 99999, &score))
			return false;
		cv->players[p].colour = c;
		cv->players[p].result = score;
		struct jv name = jv_member(&e, "name");
		if (json_is_string(name.v) && json_string_length(name.v) > MAX_NAME) {
			fail(cv, CARC_E521, &name, "%s is longer than %d bytes", jv_path(cv, &name), MAX_NAME);
			return false;
		}
		if (!cv->players[p].name && json_is_string(name.v))
			cv->players[p].name = xstrdup(json_string_value(name.v));
	}
	for (int p = 0; p < cv->nplayers; p++)
		if (cv->players[p].colour < 0) {
			fail(cv, CARC_E525, result, "%s has no entry for player %s, who plays", jv_path(cv, result),
			     player_name(cv, p));
			return false;
		}
	return true;
}

static void write_record(struct bconv *cv, const char *name, struct carc_buf *out)
{
	bool has_result = cv->players[0].result >= 0;
	carc_import_comment(out, "Imported from %s%sBoard Game Arena replay log by carc import", name ? name : "",
			name ? ", a " : "a ");
	if (!has_result)
		carc_import_comment(out, "the log has no final result: colours go to the players in the order of play");
	if (cv->table[0]) {
		carc_buf_printf(out, "[Event \"Board Game Arena table %s\"]\n", cv->table);
		carc_buf_printf(out, "[BGATable \"%s\"]\n", cv->table);
	}
	carc_buf_adds(out, "[Site \"Board Game Arena\"]\n");
	if (cv->date[0])
		carc_buf_printf(out, "[Date \"%s\"]\n", cv->date);
	carc_buf_adds(out, "[Edition \"3\"]\n[Seats \"");
	for (int p = 0; p < cv->nplayers; p++)
		carc_buf_printf(out, "%s%s", p ? " " : "", carc_colour_name(cv->players[p].colour));
	carc_buf_adds(out, "\"]\n");
	for (int p = 0; p < cv->nplayers; p++)
		if (cv->players[p].name && cv->players[p].name[0]) {
			char tag[16];
			snprintf(tag, sizeof tag, "%s", carc_colour_name(cv->players[p].colour));
			tag[0] = (char)(tag[0] - 'a' + 'A');
			carc_bga_add_tag(out, tag, cv->players[p].name);
		}
	if (has_result) {
		carc_buf_adds(out, "[Result \"");
		for (int p = 0; p < cv->nplayers; p++)
			carc_buf_printf(out, "%s%s %ld", p ? ", " : "", carc_colour_name(cv->players[p].colour),
					cv->players[p].result);
		carc_buf_adds(out, "\"]\n");
	}
	carc_buf_addc(out, '\n');
	for (size_t i = 0; i < cv->nturns; i++) {
		const struct bturn *t = &cv->turns[i];
		const char *colour = carc_colour_name(cv->players[t->player].colour), *id = cv->ts->tiles[t->tile].id;
		if (t->discard) {
			carc_buf_printf(out, "%s %s discard\n", colour, id);
			continue;
		}
		carc_buf_printf(out, "%s %s %d,%d %d", colour, id, t->x, t->y, t->rot * 90);
		if (t->role >= 0)
			carc_buf_printf(out, " %s %s", cv->rules->roles[t->role].name, carc_spot_name(t->spot));
		if (t->scored)
			for (int p = 0; p < cv->nplayers; p++)
				carc_buf_printf(out, "%s%s %ld", p ? ", " : " = ", carc_colour_name(cv->players[p].colour),
						t->score[p]);
		carc_buf_addc(out, '\n');
	}
}

/* The table id and the date of the first packet, when they are there. */
static void read_table(struct bconv *cv, const struct jv *packets)
{
	struct jv first = jv_item(packets, 0), table = jv_member(&first, "table_id"), when = jv_member(&first, "time");
	long id, secs;
	if (int_of(table.v, 1, 999999999999L, &id))
		snprintf(cv->table, sizeof cv->table, "%ld", id);
	if (int_of(when.v, 0, 253402300799L, &secs)) { /* up to 9999-12-31 */
		time_t tt = (time_t)secs;
		struct tm tm;
		if (gmtime_r(&tt, &tm))
			strftime(cv->date, sizeof cv->date, "%Y-%m-%d", &tm);
	}
}

static bool event_fn(struct bconv *cv, const struct jv *ev, int expected)
{
	return read_event(cv, ev, expected);
}

static void free_conv(struct bconv *cv)
{
	for (int p = 0; p < cv->nplayers; p++)
		free(cv->players[p].name);
	free(cv->turns);
	carc_buf_free(&cv->msg);
	carc_buf_free(&cv->path);
	if (cv->cache)
		carc_tileset_cache_free(cv->cache);
}

bool carc_bga_import(const struct carc_src *src, const char *name, struct carc_buf *out,
		     struct carc_diag_sink *sink)
{
	struct bconv cv = {.src = src, .sink = sink};
	struct carc_json_doc *doc = carc_json_read(src, CARC_E520, sink);
	if (!doc)
		return false;
	cv.doc = doc;
	cv.cache = carc_tileset_cache_new();
	cv.rules = carc_ruleset_default();
	cv.ts = carc_tileset_cache_get(cv.cache, cv.rules->tileset, sink, NULL, 0, 0);
	struct jv root = {carc_json_root(doc), NULL, NULL, 0}, data;
	struct jv packets = packets_of(&cv, &root, &data);
	bool ok = cv.ts && packets.v;
	if (ok) {
		read_table(&cv, &packets);
		ok = each_event(&cv, &packets, find_result, 0);
	}
	if (ok)
		ok = each_event(&cv, &packets, event_fn, (int)json_array_size(cv.result.v));
	if (ok && !cv.nturns) {
		fail(&cv, CARC_E521, &packets, "%s holds no playTile event: no game to import", jv_path(&cv, &packets));
		ok = false;
	}
	if (ok && cv.result.v) {
		struct jv packet = jv_item(&packets, cv.result_packet), events = jv_member(&packet, "data");
		struct jv event = cv.result_event == SIZE_MAX ? events : jv_item(&events, cv.result_event);
		struct jv args = jv_member(&event, "args"), inner = jv_member(&args, "args"),
			  result = jv_member(&inner, "result");
		ok = read_result(&cv, &result);
	} else if (ok) {
		for (int p = 0; p < cv.nplayers; p++)
			cv.players[p].colour = p; /* red, green, blue, yellow, black */
	}
	if (ok) {
		struct carc_buf cgn = {0};
		write_record(&cv, name, &cgn);
		ok = carc_bga_finish(&cgn, cv.cache, out, src, sink);
		carc_buf_free(&cgn);
	}
	carc_json_free(doc);
	free_conv(&cv);
	return ok;
}
