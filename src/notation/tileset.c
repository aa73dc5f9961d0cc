/*
 * tileset.c - loading and checking tile sets (YAML, through libyaml).
 *
 * Loading goes in three steps, each of which can refuse the file with a
 * positioned message:
 *   1. the bytes: a tile set is UTF-8 text (no NUL bytes, no malformed
 *      sequences), so that binary garbage gets one clear message;
 *   2. the YAML: a first pass over libyaml's events checks that the text is
 *      one well-formed document nested no deeper than any tile set needs (a
 *      guard: libyaml slows down quadratically on very deep nesting), then
 *      the document is loaded as a node tree;
 *   3. the schema: the tree is walked key by key. Every problem is reported
 *      with the position of the node it concerns and the walk goes on, so one
 *      run shows all of them (up to MAX_ERRORS); the tile set is returned only
 *      when there were none.
 * The derived tables (which feature covers each edge and half-edge, the edge
 * terrains packed per rotation) are computed here once, so the rules engine
 * never searches a tile's feature list. The format is specified in
 * notation/tileset.md and man carc-tileset(5); the rules it checks are listed
 * there under "Derived rules".
 *
 * Positions: libyaml counts marks in characters, not bytes, so a mark's line
 * and column are turned into a byte offset here (mark_offset) before they are
 * handed to the diagnostics, which count bytes.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "notation/tileset.h"

#include "rules/rules.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#ifndef CARC_NO_YAML
#include <yaml.h>
#else
#include "notation/tileset_image.h"
/* WASI has no absolute paths: no tile-set file is resolved, only bundled
 * sets are had (tileset_image.h) */
#define realpath(path, resolved) ((void)(path), (void)(resolved), (char *)NULL)
#endif

const char *const carc_edge_names[4] = {"N", "E", "S", "W"};
const char *const carc_half_names[8] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"};

static const char *const class_names[CARC_CLASS_COUNT] = {"path", "enclosure", "site", "area", "lake"};
static const char *const attr_names[CARC_ATTR_COUNT] = {
	"pennant", "fish", "gold", "deer", "mammoth", "tiger", "aurochs",
	"mushroom", "fire", "shrine", "volcano"};
#ifndef CARC_NO_YAML
/* The names of enum carc_path_end, in its order. */
static const char *const end_names[] = {"cloister", "city", "junction", "crossroads", "spring", "lake", "volcano"};
#endif

const char *carc_class_name(enum carc_class c) { return class_names[c]; }
const char *carc_attr_name(enum carc_attr a) { return attr_names[a]; }

#define MAX_ERRORS 100 /* reported per tile set; the rest are counted */
#define MAX_DEPTH 32   /* YAML nesting; a tile set needs 6 */
#define MAX_WORDS 64   /* in one list of edges, halves, terrains or borders */
#define MAX_FILE_BYTES (64u << 20)
#ifndef CARC_NO_YAML
/* YAML nodes (scalars, lists, mappings) of a tile set: the bundled ones have
 * about 1,000, and the largest a tile set can describe (CARC_MAX_TILE_TYPES
 * types of CARC_MAX_FEATURES features) some 40,000. libyaml's tree costs
 * some 170 bytes a node, so the tree stays within about 17 MB besides the
 * text itself. */
#define MAX_NODES 100000
#define LINE_STEP 64

struct loader {
	yaml_document_t doc;
	struct carc_src src;
	struct carc_diag_sink *sink;
	struct carc_tileset *ts;
	unsigned errors;
	bool stop;            /* MAX_ERRORS reached: walk no further */
	size_t *line_start;   /* byte offset of every LINE_STEP-th line as libyaml counts them */
	size_t nlines;
	int start_claims;     /* tiles read with start: true, valid or not */
	bool too_many_terrains; /* reported once */
	const yaml_node_t **replaces; /* per tile type read: its replaces value, if any */
	const yaml_node_t **lasts;    /* per tile type read: its last value, if true */
};

/* ---- positions and messages ---- */

/* The length of a line break at s[i] as libyaml counts one (CR LF, CR, LF,
 * NEL, LS, PS), or 0. */
static size_t break_len(const unsigned char *s, size_t i, size_t n)
{
	if (s[i] == '\r')
		return i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
	if (s[i] == '\n')
		return 1;
	if (s[i] == 0xc2 && i + 1 < n && s[i + 1] == 0x85)
		return 2;
	if (s[i] == 0xe2 && i + 2 < n && s[i + 1] == 0x80 && (s[i + 2] == 0xa8 || s[i + 2] == 0xa9))
		return 3;
	return 0;
}

/* The byte offset of a libyaml mark (line and column, counted in characters
 * from 0, after a byte-order mark if there is one). */
static size_t mark_offset(struct loader *ld, yaml_mark_t m)
{
	const unsigned char *s = (const unsigned char *)ld->src.text;
	size_t n = ld->src.len;
	if (!ld->line_start) {
		/* the start of every LINE_STEP-th line: a file of newlines costs a
		 * sixty-fourth of an index of every line */
		size_t cap = 64, line = 0, i = n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf ? 3 : 0;
		ld->line_start = xmalloc(cap * sizeof *ld->line_start);
		ld->line_start[ld->nlines++] = i;
		while (i < n) {
			size_t b = break_len(s, i, n);
			if (!b) {
				i++;
				continue;
			}
			i += b;
			if (++line % LINE_STEP)
				continue;
			if (ld->nlines == cap)
				ld->line_start = xrealloc(ld->line_start, (cap *= 2) * sizeof *ld->line_start);
			ld->line_start[ld->nlines++] = i;
		}
	}
	if (m.line / LINE_STEP >= ld->nlines)
		return n;
	size_t off = ld->line_start[m.line / LINE_STEP];
	for (size_t l = m.line % LINE_STEP; l > 0; l--) {
		size_t b = 0;
		while (off < n && !(b = break_len(s, off, n)))
			off++;
		if (off >= n)
			return n;
		off += b;
	}
	for (size_t c = 0; c < m.column && off < n && !break_len(s, off, n); c++) {
		size_t w = s[off] >= 0x80 ? carc_utf8_len((const char *)s + off, n - off) : 1;
		off += w ? w : 1;
	}
	return off;
}

static void vreport(struct loader *ld, enum carc_code code, size_t off, size_t len, const char *fmt, va_list ap)
{
	ld->errors++;
	if (ld->errors > MAX_ERRORS)
		return;
	char msg[512];
	int n = vsnprintf(msg, sizeof msg, fmt, ap);
	if (n >= (int)sizeof msg) { /* a long value quoted: cut it on a character boundary */
		size_t end = sizeof msg - 4;
		while (end > 0 && ((unsigned char)msg[end] & 0xc0) == 0x80)
			end--;
		memcpy(msg + end, "...", 4);
	}
	if (ld->errors == MAX_ERRORS) {
		ld->stop = true;
		carc_diag_report(ld->sink, code, &ld->src, off, len,
				 "%s (that makes %d errors: the rest of the tile set is not checked)", msg, MAX_ERRORS);
	} else {
		carc_diag_report(ld->sink, code, &ld->src, off, len, "%s", msg);
	}
}

static void fail_at(struct loader *ld, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
	CARC_PRINTF(5, 6);
static void fail_at(struct loader *ld, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(ld, code, off, len, fmt, ap);
	va_end(ap);
}

/* Reports a problem at a node: the whole of a scalar, the first character of
 * a mapping or a list; the start of the file when node is NULL. */
static void fail(struct loader *ld, enum carc_code code, const yaml_node_t *node, const char *fmt, ...)
	CARC_PRINTF(4, 5);
static void fail(struct loader *ld, enum carc_code code, const yaml_node_t *node, const char *fmt, ...)
{
	size_t off = 0, len = 0;
	if (node) {
		off = mark_offset(ld, node->start_mark);
		len = 1;
		if (node->type == YAML_SCALAR_NODE) {
			size_t end = mark_offset(ld, node->end_mark);
			len = end > off ? end - off : 0;
		}
	}
	va_list ap;
	va_start(ap, fmt);
	vreport(ld, code, off, len, fmt, ap);
	va_end(ap);
}

/* Reports a problem with one word of a scalar (the 'S' of "edges: N S"):
 * at the word itself when it can be found in the source as it is, at the
 * whole scalar otherwise (an escape in a quoted string, a folded line). */
static void fail_word(struct loader *ld, enum carc_code code, const yaml_node_t *n, const char *w, size_t wlen,
		      const char *fmt, ...) CARC_PRINTF(6, 7);
static void fail_word(struct loader *ld, enum carc_code code, const yaml_node_t *n, const char *w, size_t wlen,
		      const char *fmt, ...)
{
	size_t off = mark_offset(ld, n->start_mark), end = mark_offset(ld, n->end_mark);
	size_t len = end > off ? end - off : 1;
	const char *v = (const char *)n->data.scalar.value;
	if (n->type == YAML_SCALAR_NODE && w >= v && w + wlen <= v + n->data.scalar.length) {
		yaml_scalar_style_t st = n->data.scalar.style;
		size_t at = off + (size_t)(w - v) + (st == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
						     st == YAML_DOUBLE_QUOTED_SCALAR_STYLE);
		if (at + wlen <= end && !memcmp(ld->src.text + at, w, wlen)) {
			off = at;
			len = wlen;
		}
	}
	va_list ap;
	va_start(ap, fmt);
	vreport(ld, code, off, len, fmt, ap);
	va_end(ap);
}

/* ---- reading nodes ---- */

static yaml_node_t *node_at(struct loader *ld, int id)
{
	return yaml_document_get_node(&ld->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *node_shape(const yaml_node_t *n)
{
	return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a value";
}

/* Expects a scalar; reports and returns NULL otherwise. */
static const char *want_scalar(struct loader *ld, const yaml_node_t *n, const char *what)
{
	const char *s = scalar(n);
	if (!s)
		fail(ld, CARC_E103, n, "%s must be a single value, not %s", what, node_shape(n));
	return s;
}

static bool want_int(struct loader *ld, const yaml_node_t *n, const char *what, long lo, long hi, long *out)
{
	const char *s = want_scalar(ld, n, what);
	if (!s)
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *s == ' ' || *end != '\0' || errno || v < lo || v > hi) {
		fail(ld, CARC_E103, n, "%s must be a whole number from %ld to %ld, not '%s'", what, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

static bool want_bool(struct loader *ld, const yaml_node_t *n, const char *what, bool *out)
{
	const char *s = want_scalar(ld, n, what);
	if (!s)
		return false;
	if (!strcasecmp(s, "true") || !strcasecmp(s, "yes")) {
		*out = true;
		return true;
	}
	if (!strcasecmp(s, "false") || !strcasecmp(s, "no")) {
		*out = false;
		return true;
	}
	fail(ld, CARC_E103, n, "%s must be true or false, not '%s'", what, s);
	return false;
}

/* Ids of tiles and names of kinds: letters, digits and _ - + / ., at most
 * CARC_ID_MAX bytes, not starting with a digit, - or +. Such a word cannot
 * be mistaken for a coordinate, a rotation or a number in a record. */
static bool valid_id(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CARC_ID_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '+' || c == '/' || c == '.'))
			return false;
	}
	return !(s[0] >= '0' && s[0] <= '9') && s[0] != '-' && s[0] != '+';
}

/* Keys already seen in one mapping, so that a repeated key is reported
 * (libyaml keeps both and the second would silently win). */
struct keys {
	uint32_t seen;
	const char *where; /* "in a tile", for the message */
};

/* True the first time key number bit is met in this mapping. */
static bool key_once(struct loader *ld, struct keys *k, int bit, const yaml_node_t *kn)
{
	if (k->seen & (1u << bit)) {
		fail(ld, CARC_E103, kn, "key '%s' is given twice %s", scalar(kn), k->where);
		return false;
	}
	k->seen |= 1u << bit;
	return true;
}

/* Splits a scalar (or a list of scalars) into words, calling fn on each.
 * Words are separated by blanks or commas: "N E", "N, E" and [N, E] are the
 * same list. At most MAX_WORDS words are taken. */
typedef void (*word_fn)(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg);

static void each_word(struct loader *ld, const yaml_node_t *n, const char *what, word_fn fn, void *arg)
{
	int words = 0;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
			yaml_node_t *item = node_at(ld, *it);
			const char *s = want_scalar(ld, item, what);
			if (!s)
				continue;
			if (++words > MAX_WORDS) {
				fail(ld, CARC_E109, item, "%s lists more than %d words", what, MAX_WORDS);
				return;
			}
			fn(ld, item, s, strlen(s), arg);
		}
		return;
	}
	if (n->type == YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, n, "%s must be words such as N E, or a list such as [N, E], not a mapping", what);
		return;
	}
	const char *s = scalar(n);
	while (*s) {
		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		size_t len = strcspn(s, " ,\t");
		if (len) {
			if (++words > MAX_WORDS) {
				fail_word(ld, CARC_E109, n, s, len, "%s lists more than %d words", what, MAX_WORDS);
				return;
			}
			fn(ld, n, s, len, arg);
		}
		s += len;
	}
}

static int name_index(const char *const *names, int count, const char *w, size_t len)
{
	for (int i = 0; i < count; i++)
		if (carc_slice_eq(w, len, names[i]))
			return i;
	return -1;
}

/* ---- terrains and kinds ---- */

static void terrain_name(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	if (ts->nterrains == CARC_MAX_TERRAINS) {
		if (!ld->too_many_terrains)
			fail_word(ld, CARC_E109, n, w, len, "more than %d terrains", CARC_MAX_TERRAINS);
		ld->too_many_terrains = true;
		return;
	}
	if (len > CARC_ID_MAX) {
		fail_word(ld, CARC_E104, n, w, len, "terrain name '%.*s' is longer than %d characters", (int)len, w,
			  CARC_ID_MAX);
		return;
	}
	if (carc_tileset_terrain(ts, w, len) >= 0) {
		fail_word(ld, CARC_E108, n, w, len, "terrain '%.*s' is named twice", (int)len, w);
		return;
	}
	memcpy(ts->terrains[ts->nterrains], w, len);
	ts->terrains[ts->nterrains][len] = '\0';
	ts->nterrains++;
}

#endif /* CARC_NO_YAML */

/* The known attributes, first of every set's. */
static void known_attrs(struct carc_tileset *ts)
{
	for (int a = 0; a < CARC_ATTR_COUNT; a++)
		snprintf(ts->attrs[a], sizeof ts->attrs[a], "%s", attr_names[a]);
	ts->nattrs = CARC_ATTR_COUNT;
}

#ifndef CARC_NO_YAML
/* An attribute the set declares (its attributes key): a new name. */
static void attribute_name(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	char word[CARC_ID_MAX + 1];
	snprintf(word, sizeof word, "%.*s", (int)(len > CARC_ID_MAX ? CARC_ID_MAX : len), w);
	if (len > CARC_ID_MAX || !valid_id(word)) {
		fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not a valid attribute name (letters, digits and "
			  "_ - + / ., at most %d, not starting with a digit)", (int)len, w, CARC_ID_MAX);
		return;
	}
	static const char *const feature_keys[] = {"kind", "edges", "halves", "borders", "end"};
	if (carc_tileset_attr(ts, w, len) >= 0 ||
	    name_index(feature_keys, (int)CARC_ARRAY_LEN(feature_keys), word, len) >= 0) {
		fail_word(ld, CARC_E108, n, w, len, "attribute '%.*s' is named twice (or is a key of a feature, or "
			  "one every tile set knows)", (int)len, w);
		return;
	}
	if (ts->nattrs == CARC_MAX_ATTRS) {
		fail_word(ld, CARC_E109, n, w, len, "more than %d attributes, the %d every set knows included",
			  CARC_MAX_ATTRS, CARC_ATTR_COUNT);
		return;
	}
	memcpy(ts->attrs[ts->nattrs++], word, sizeof word);
}

#endif /* CARC_NO_YAML */

int carc_tileset_attr(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int a = 0; a < ts->nattrs; a++)
		if (carc_slice_eq(name, len, ts->attrs[a]))
			return a;
	return -1;
}

#ifndef CARC_NO_YAML
static void expansion_name(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct carc_tileset *ts = arg;
	char word[CARC_ID_MAX + 1];
	snprintf(word, sizeof word, "%.*s", (int)(len > CARC_ID_MAX ? CARC_ID_MAX : len), w);
	if (len > CARC_ID_MAX || !valid_id(word)) {
		fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not a valid expansion name (letters, digits and "
			  "_ - + / ., at most %d, not starting with a digit)", (int)len, w, CARC_ID_MAX);
		return;
	}
	if (carc_tileset_expansion(ts, w, len) >= 0) {
		fail_word(ld, CARC_E108, n, w, len, "expansion '%.*s' is named twice", (int)len, w);
		return;
	}
	if (ts->nexpansions == CARC_MAX_EXPANSIONS) {
		fail_word(ld, CARC_E109, n, w, len, "more than %d expansions", CARC_MAX_EXPANSIONS);
		return;
	}
	memcpy(ts->expansions[ts->nexpansions++], word, len + 1);
}

static void parse_kinds(struct loader *ld, yaml_node_t *seq)
{
	struct carc_tileset *ts = ld->ts;
	if (seq->type != YAML_SEQUENCE_NODE) {
		fail(ld, CARC_E103, seq, "kinds must be a list of {name, class, terrain} mappings, not %s", node_shape(seq));
		return;
	}
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
		yaml_node_t *m = node_at(ld, *it);
		if (m->type != YAML_MAPPING_NODE) {
			fail(ld, CARC_E103, m, "each kind must be a mapping such as {name: road, class: path, terrain: road}");
			continue;
		}
		if (ts->nkinds == CARC_MAX_KINDS) {
			fail(ld, CARC_E109, m, "more than %d kinds of feature", CARC_MAX_KINDS);
			return;
		}
		struct carc_kind k = {.klass = 0xff, .terrain = CARC_NO_FEATURE};
		const yaml_node_t *terrain_node = NULL;
		bool named = false, classed = false; /* given, maybe refused */
		struct keys keys = {0, "in a kind"};
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
			const char *key = scalar(kn), *v;
			if (!key) {
				fail(ld, CARC_E103, kn, "a key must be a word, not %s", node_shape(kn));
			} else if (!strcmp(key, "name")) {
				if (key_once(ld, &keys, 0, kn) && (v = want_scalar(ld, vn, "a kind's name"))) {
					named = true;
					if (!valid_id(v))
						fail(ld, CARC_E104, vn, "'%s' is not a valid kind name (letters, digits and _ - + / ., "
						     "at most %d, not starting with a digit)", v, CARC_ID_MAX);
					else if (carc_tileset_kind(ts, v) >= 0)
						fail(ld, CARC_E108, vn, "kind '%s' is defined twice", v);
					else
						snprintf(k.name, sizeof k.name, "%s", v);
				}
			} else if (!strcmp(key, "class")) {
				classed = true;
				if (key_once(ld, &keys, 1, kn) && (v = want_scalar(ld, vn, "a kind's class"))) {
					int c = name_index(class_names, CARC_CLASS_COUNT, v, strlen(v));
					if (c < 0)
						fail(ld, CARC_E104, vn, "'%s' is not a class (path, enclosure, site, area, lake)", v);
					else
						k.klass = (uint8_t)c;
				}
			} else if (!strcmp(key, "terrain")) {
				if (key_once(ld, &keys, 2, kn) && (v = want_scalar(ld, vn, "a kind's terrain"))) {
					terrain_node = vn;
					int t = carc_tileset_terrain(ts, v, strlen(v));
					if (t < 0)
						fail(ld, CARC_E104, vn, "'%s' is not one of the tile set's terrains", v);
					else
						k.terrain = (uint8_t)t;
				}
			} else {
				fail(ld, CARC_E103, kn, "unknown key '%s' in a kind (name, class, terrain)", key);
			}
		}
		if (!k.name[0] || k.klass == 0xff) {
			if (!named || !classed)
				fail(ld, CARC_E103, m, "a kind needs a name and a class");
			continue;
		}
		bool centre = k.klass == CARC_CLASS_SITE || k.klass == CARC_CLASS_LAKE;
		if (centre && terrain_node)
			fail(ld, CARC_E103, terrain_node, "kind '%s' of class %s lies in the centre and has no terrain",
			     k.name, class_names[k.klass]);
		if (!centre && !terrain_node)
			fail(ld, CARC_E103, m, "kind '%s' needs the terrain its edges show", k.name);
		/* Edges match by terrain and features join by class: a terrain
		 * shown by kinds of two classes would let a road meet a field. */
		for (int i = 0; i < ts->nkinds && !centre && k.terrain != CARC_NO_FEATURE; i++)
			if (ts->kinds[i].terrain == k.terrain && ts->kinds[i].klass != k.klass) {
				fail(ld, CARC_E104, terrain_node, "terrain '%s' is already shown by kind '%s' of class %s; "
				     "a terrain belongs to kinds of one class", ts->terrains[k.terrain], ts->kinds[i].name,
				     class_names[ts->kinds[i].klass]);
				break;
			}
		ts->kinds[ts->nkinds++] = k;
	}
}

/* ---- features ---- */

struct mask_arg {
	uint8_t mask;
	const char *what;
};

static void edge_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct mask_arg *m = arg;
	int e = name_index(carc_edge_names, 4, w, len);
	if (e < 0) {
		int h = name_index(carc_half_names, 8, w, len);
		if (h >= 0)
			fail_word(ld, CARC_E104, n, w, len, "'%.*s' is a half-edge; %s names whole edges (N, E, S or W)",
				  (int)len, w, m->what);
		else
			fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not an edge (N, E, S or W) in %s", (int)len, w,
				  m->what);
		return;
	}
	if (m->mask & (1u << e))
		fail_word(ld, CARC_E104, n, w, len, "edge %s is named twice in %s", carc_edge_names[e], m->what);
	m->mask |= (uint8_t)(1u << e);
}

static void half_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct mask_arg *m = arg;
	int h = name_index(carc_half_names, 8, w, len);
	if (h < 0) {
		fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not a half-edge (NNW NNE ENE ESE SSE SSW WSW WNW) in %s",
			  (int)len, w, m->what);
		return;
	}
	if (m->mask & (1u << h))
		fail_word(ld, CARC_E104, n, w, len, "half-edge %s is named twice in %s", carc_half_names[h], m->what);
	m->mask |= (uint8_t)(1u << h);
}

/* What the loader keeps of a feature while its tile is being read. */
struct feature_src {
	const yaml_node_t *node;
	const yaml_node_t *borders; /* the borders value, checked once all edges are known */
};

/* Keys of a feature, numbered for key_once(); attributes follow. */
enum { FK_KIND, FK_EDGES, FK_HALVES, FK_BORDERS, FK_END, FK_ATTR };

/* Reads one feature into tile->features[tile->nfeatures]; counts it when
 * it has a kind. */
static void parse_feature(struct loader *ld, struct carc_tile *tile, yaml_node_t *m, struct feature_src *fs)
{
	struct carc_tileset *ts = ld->ts;
	struct carc_feature *f = &tile->features[tile->nfeatures];
	memset(f, 0, sizeof *f);
	f->kind = CARC_NO_FEATURE;
	f->end = CARC_NO_FEATURE;
	f->line = m->start_mark.line + 1;
	fs->node = m;
	fs->borders = NULL;
	const yaml_node_t *edges_node = NULL, *halves_node = NULL, *end_node = NULL;
	struct mask_arg edges = {0, "edges"}, halves = {0, "halves"};
	bool kind_given = false, words_bad = false; /* already reported */

	if (m->type == YAML_SCALAR_NODE) { /* shorthand: "- cloister" */
		int k = carc_tileset_kind(ts, scalar(m));
		if (k < 0)
			fail(ld, CARC_E104, m, "'%s' is not one of the tile set's kinds", scalar(m));
		f->kind = (uint8_t)k;
		kind_given = true;
	} else if (m->type != YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, m, "each feature must be a mapping such as {kind: road, edges: E W}");
		return;
	} else {
		struct keys keys = {0, "in a feature"};
		for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
			yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
			const char *key = scalar(kn), *v;
			int a;
			long num;
			if (!key) {
				fail(ld, CARC_E103, kn, "a key must be a word, not %s", node_shape(kn));
			} else if (!strcmp(key, "kind")) {
				kind_given = true;
				if (key_once(ld, &keys, FK_KIND, kn) && (v = want_scalar(ld, vn, "kind"))) {
					int k = carc_tileset_kind(ts, v);
					if (k < 0)
						fail(ld, CARC_E104, vn, "'%s' is not one of the tile set's kinds", v);
					else
						f->kind = (uint8_t)k;
				}
			} else if (!strcmp(key, "edges")) {
				if (key_once(ld, &keys, FK_EDGES, kn)) {
					unsigned before = ld->errors;
					edges_node = vn;
					each_word(ld, vn, "edges", edge_word, &edges);
					words_bad |= ld->errors != before;
				}
			} else if (!strcmp(key, "halves")) {
				if (key_once(ld, &keys, FK_HALVES, kn)) {
					unsigned before = ld->errors;
					halves_node = vn;
					each_word(ld, vn, "halves", half_word, &halves);
					words_bad |= ld->errors != before;
				}
			} else if (!strcmp(key, "borders")) {
				if (key_once(ld, &keys, FK_BORDERS, kn))
					fs->borders = vn;
			} else if (!strcmp(key, "end")) {
				if (key_once(ld, &keys, FK_END, kn) && (v = want_scalar(ld, vn, "end"))) {
					end_node = vn;
					int e = name_index(end_names, (int)CARC_ARRAY_LEN(end_names), v, strlen(v));
					if (e < 0)
						fail(ld, CARC_E104, vn, "'%s' is not a road or river end "
						     "(cloister, city, junction, crossroads, spring, lake, volcano)", v);
					else
						f->end = (uint8_t)e;
				}
			} else if ((a = carc_tileset_attr(ld->ts, key, strlen(key))) >= 0) {
				if (key_once(ld, &keys, FK_ATTR + a, kn) && want_int(ld, vn, key, 0, 99, &num))
					f->attr[a] = (uint8_t)num;
			} else {
				struct carc_buf own = {0};
				for (int i = CARC_ATTR_COUNT; i < ld->ts->nattrs; i++) {
					carc_buf_adds(&own, ", ");
					carc_buf_adds(&own, ld->ts->attrs[i]);
				}
				fail(ld, CARC_E103, kn, "unknown key '%s' in a feature (kind, edges, halves, borders, end, "
				     "or an attribute: pennant, fish, gold, deer, mammoth, tiger, aurochs, mushroom, fire, "
				     "shrine, volcano%s; the set's attributes key declares others)", key, carc_buf_cstr(&own));
				carc_buf_free(&own);
			}
		}
	}
	if (f->kind == CARC_NO_FEATURE) {
		if (!kind_given)
			fail(ld, CARC_E103, m, "a feature needs a kind (one of the tile set's kinds)");
		return;
	}
	const struct carc_kind *k = &ts->kinds[f->kind];
	if (end_node && k->klass != CARC_CLASS_PATH)
		fail(ld, CARC_E103, end_node, "end says what stops a road or river; a %s (class %s) has none", k->name,
		     class_names[k->klass]);
	switch ((enum carc_class)k->klass) {
	case CARC_CLASS_PATH:
		if (halves_node)
			fail(ld, CARC_E103, halves_node, "a %s runs through the middle of its edges and covers no "
			     "half-edges: the features beside it do", k->name);
		if (!edges.mask && !words_bad)
			fail(ld, CARC_E103, edges_node ? edges_node : m, "a %s needs the edges it leaves by", k->name);
		f->edges = edges.mask;
		break;
	case CARC_CLASS_ENCLOSURE:
		if (!edges.mask && !words_bad)
			fail(ld, CARC_E103, edges_node ? edges_node : m, "a %s needs the edges it covers", k->name);
		f->edges = edges.mask;
		for (int e = 0; e < 4; e++)
			if (edges.mask & (1u << e))
				f->halves |= (uint8_t)(3u << (2 * e));
		if (halves_node && halves.mask != f->halves)
			fail(ld, CARC_E105, halves_node, "a %s covers exactly the halves of its edges", k->name);
		break;
	case CARC_CLASS_AREA:
		if (edges_node)
			fail(ld, CARC_E103, edges_node, "a %s is given by its half-edges (halves), not edges", k->name);
		if (!halves.mask && !words_bad)
			fail(ld, CARC_E103, halves_node ? halves_node : m, "a %s needs the half-edges it covers", k->name);
		f->halves = halves.mask;
		for (int e = 0; e < 4; e++)
			if (((halves.mask >> (2 * e)) & 3) == 3)
				f->edges |= (uint8_t)(1u << e);
		break;
	case CARC_CLASS_SITE:
	case CARC_CLASS_LAKE:
		if (edges_node || halves_node)
			fail(ld, CARC_E103, edges_node ? edges_node : halves_node,
			     "a %s lies in the centre of the tile and covers no edge", k->name);
		break;
	default:
		break;
	}
	tile->nfeatures++;
}

struct borders_arg {
	struct carc_tile *tile;
	struct carc_feature *f;
};

static void border_word(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct borders_arg *b = arg;
	int e = name_index(carc_edge_names, 4, w, len);
	if (e < 0) {
		fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not an edge: borders names an edge (N, E, S or W) of "
			  "each city it touches", (int)len, w);
		return;
	}
	uint8_t fi = b->tile->edge_feature[e];
	if (fi == CARC_NO_FEATURE || ld->ts->kinds[b->tile->features[fi].kind].klass != CARC_CLASS_ENCLOSURE) {
		fail_word(ld, CARC_E104, n, w, len, "tile %s: borders names edge %s, but no city (no feature of class "
			  "enclosure) fills edge %s", b->tile->id, carc_edge_names[e], carc_edge_names[e]);
		return;
	}
	b->f->borders |= (uint16_t)(1u << fi);
}

/* Appends "N E S W"-style words for the bits of mask to buf. */
static void add_names(struct carc_buf *b, const char *const *names, int count, unsigned mask)
{
	bool first = true;
	for (int i = 0; i < count; i++)
		if (mask & (1u << i)) {
			carc_buf_printf(b, "%s%s", first ? "" : " ", names[i]);
			first = false;
		}
}

/* Fills the derived tables of a tile and checks the derived rules: its
 * features cover each edge and half-edge exactly once, the edges line agrees
 * with them, borders names cities. */
static void finish_tile(struct loader *ld, struct carc_tile *t, const yaml_node_t *tn,
			const yaml_node_t *edges_node, bool edges_given, const struct feature_src *fs)
{
	struct carc_tileset *ts = ld->ts;
	memset(t->edge_feature, CARC_NO_FEATURE, sizeof t->edge_feature);
	memset(t->half_feature, CARC_NO_FEATURE, sizeof t->half_feature);
	t->centre_feature = CARC_NO_FEATURE;
	/* An area takes an edge only where no road or city crosses it. */
	uint8_t crossed = 0;
	for (int i = 0; i < t->nfeatures; i++)
		if (ts->kinds[t->features[i].kind].klass != CARC_CLASS_AREA)
			crossed |= t->features[i].edges;
	for (int i = 0; i < t->nfeatures; i++)
		if (ts->kinds[t->features[i].kind].klass == CARC_CLASS_AREA)
			t->features[i].edges &= (uint8_t)~crossed;
	for (int i = 0; i < t->nfeatures; i++) {
		struct carc_feature *f = &t->features[i];
		uint8_t klass = ts->kinds[f->kind].klass;
		const char *name = ts->kinds[f->kind].name;
		for (int e = 0; e < 4; e++) {
			if (!(f->edges & (1u << e)))
				continue;
			uint8_t other = t->edge_feature[e];
			if (other != CARC_NO_FEATURE)
				fail(ld, CARC_E105, fs[i].node, "tile %s: edge %s is covered twice, by the %s on line %u and "
				     "by this %s", t->id, carc_edge_names[e], ts->kinds[t->features[other].kind].name,
				     t->features[other].line, name);
			else
				t->edge_feature[e] = (uint8_t)i;
		}
		for (int h = 0; h < 8; h++) {
			if (!(f->halves & (1u << h)))
				continue;
			uint8_t other = t->half_feature[h];
			if (other != CARC_NO_FEATURE)
				fail(ld, CARC_E105, fs[i].node, "tile %s: half-edge %s is covered twice, by the %s on line %u "
				     "and by this %s", t->id, carc_half_names[h], ts->kinds[t->features[other].kind].name,
				     t->features[other].line, name);
			else
				t->half_feature[h] = (uint8_t)i;
		}
		if (klass == CARC_CLASS_SITE || klass == CARC_CLASS_LAKE) {
			uint8_t other = t->centre_feature;
			if (other != CARC_NO_FEATURE)
				fail(ld, CARC_E105, fs[i].node, "tile %s: the %s on line %u already fills the centre; a tile "
				     "has at most one feature there", t->id, ts->kinds[t->features[other].kind].name,
				     t->features[other].line);
			else
				t->centre_feature = (uint8_t)i;
		}
	}
	unsigned bare = 0;
	for (int h = 0; h < 8; h++)
		if (t->half_feature[h] == CARC_NO_FEATURE)
			bare |= 1u << h;
	if (bare) {
		struct carc_buf b = {0};
		add_names(&b, carc_half_names, 8, bare);
		fail(ld, CARC_E105, tn, "tile %s: no feature covers half-edge%s %s", t->id, (bare & (bare - 1)) ? "s" : "",
		     carc_buf_cstr(&b));
		carc_buf_free(&b);
	}
	uint8_t derived[4];
	bool all_edges = true;
	for (int e = 0; e < 4; e++) {
		uint8_t fi = t->edge_feature[e];
		if (fi == CARC_NO_FEATURE) {
			all_edges = false;
			uint8_t a = t->half_feature[2 * e], b = t->half_feature[2 * e + 1];
			if (a != CARC_NO_FEATURE && b != CARC_NO_FEATURE) /* two areas, nothing between them */
				fail(ld, CARC_E105, fs[b].node, "tile %s: the halves of edge %s belong to two features (lines "
				     "%u and %u) and no road or other path crosses the edge between them", t->id,
				     carc_edge_names[e], t->features[a].line, t->features[b].line);
			continue;
		}
		derived[e] = ts->kinds[t->features[fi].kind].terrain;
		if (derived[e] == CARC_NO_FEATURE) /* its kind was refused a terrain, already reported */
			all_edges = false;
	}
	if (all_edges) {
		bool same = true;
		for (int e = 0; e < 4; e++)
			same &= !edges_given || t->edge_terrain[e] == derived[e];
		if (!same)
			fail(ld, CARC_E106, edges_node, "tile %s: edges says '%s %s %s %s', but its features make the edges "
			     "%s %s %s %s (N E S W)", t->id, ts->terrains[t->edge_terrain[0]],
			     ts->terrains[t->edge_terrain[1]], ts->terrains[t->edge_terrain[2]],
			     ts->terrains[t->edge_terrain[3]], ts->terrains[derived[0]], ts->terrains[derived[1]],
			     ts->terrains[derived[2]], ts->terrains[derived[3]]);
		memcpy(t->edge_terrain, derived, 4);
	}
	for (int i = 0; i < t->nfeatures; i++) {
		if (!fs[i].borders)
			continue;
		struct carc_feature *f = &t->features[i];
		if (ts->kinds[f->kind].klass != CARC_CLASS_AREA) {
			fail(ld, CARC_E103, fs[i].borders, "only a field (a feature of class area) has borders; this is a %s",
			     ts->kinds[f->kind].name);
			continue;
		}
		struct borders_arg b = {t, f};
		each_word(ld, fs[i].borders, "borders", border_word, &b);
	}
	for (int r = 0; r < 4; r++) {
		uint32_t packed = 0;
		for (int e = 0; e < 4; e++)
			packed |= (uint32_t)carc_tile_edge(t, r, e) << (8 * e);
		t->rot_edges[r] = packed;
	}
}

struct terrain_arg {
	struct carc_tile *tile;
	int count;
	bool ok;
};

static void edge_terrain(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg)
{
	struct terrain_arg *t = arg;
	int i = carc_tileset_terrain(ld->ts, w, len);
	if (i < 0) {
		fail_word(ld, CARC_E104, n, w, len, "'%.*s' is not one of the tile set's terrains", (int)len, w);
		t->ok = false;
	} else if (t->count < 4) {
		t->tile->edge_terrain[t->count] = (uint8_t)i;
	}
	t->count++;
}

/* Keys of a tile, numbered for key_once(). */
enum { TK_ID, TK_COUNT, TK_START, TK_BONUS, TK_NAME, TK_EDGES, TK_FEATURES, TK_EXPANSION, TK_REPLACES, TK_LAST };

/* Reads one tile type into ts->tiles[ts->ntiles]; start is set to the node of
 * its start key, if any. */
static void parse_tile(struct loader *ld, yaml_node_t *m, const yaml_node_t **start)
{
	struct carc_tileset *ts = ld->ts;
	*start = NULL;
	if (m->type != YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, m, "each tile must be a mapping with id, count, edges and features, not %s",
		     node_shape(m));
		return;
	}
	struct carc_tile *t = &ts->tiles[ts->ntiles];
	memset(t, 0, sizeof *t);
	t->line = m->start_mark.line + 1;
	yaml_node_t *edges_node = NULL, *features_node = NULL;
	bool id_given = false;
	struct keys keys = {0, "in a tile"};
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
		const char *key = scalar(kn), *v;
		if (!key) {
			fail(ld, CARC_E103, kn, "a key must be a word, not %s", node_shape(kn));
		} else if (!strcmp(key, "id")) {
			if (key_once(ld, &keys, TK_ID, kn) && (v = want_scalar(ld, vn, "id"))) {
				id_given = true;
				if (!valid_id(v))
					fail(ld, CARC_E104, vn, "'%s' is not a valid tile id (letters, digits and _ - + / ., "
					     "at most %d, not starting with a digit)", v, CARC_ID_MAX);
				else if (carc_tileset_find(ts, v, strlen(v)) >= 0)
					fail(ld, CARC_E108, vn, "tile id '%s' is used twice (first on line %u)", v,
					     ts->tiles[carc_tileset_find(ts, v, strlen(v))].line);
				else
					snprintf(t->id, sizeof t->id, "%s", v);
			}
		} else if (!strcmp(key, "count")) {
			if (key_once(ld, &keys, TK_COUNT, kn) && (v = want_scalar(ld, vn, "count"))) {
				char *end;
				errno = 0;
				long num = strtol(v, &end, 10);
				if (*v == '\0' || *v == ' ' || *end != '\0' || num < 1)
					fail(ld, CARC_E103, vn, "count must be a whole number of tiles, 1 or more, not '%s'", v);
				else if (errno || num > CARC_MAX_TILES)
					fail(ld, CARC_E109, vn, "count %s is more than a tile set may hold (%d tiles)", v,
					     CARC_MAX_TILES);
				else
					t->count = (uint16_t)num;
			}
		} else if (!strcmp(key, "start")) {
			if (key_once(ld, &keys, TK_START, kn)) {
				*start = vn;
				bool yes = false;
				want_bool(ld, vn, "start", &yes);
				t->start = yes;
				ld->start_claims += yes;
			}
		} else if (!strcmp(key, "bonus")) {
			if (key_once(ld, &keys, TK_BONUS, kn))
				want_bool(ld, vn, "bonus", &t->bonus);
		} else if (!strcmp(key, "name")) {
			if (key_once(ld, &keys, TK_NAME, kn) && (v = want_scalar(ld, vn, "name")))
				t->name = xstrdup(v);
		} else if (!strcmp(key, "expansion")) {
			if (key_once(ld, &keys, TK_EXPANSION, kn) && (v = want_scalar(ld, vn, "expansion"))) {
				int x = carc_tileset_expansion(ts, v, strlen(v));
				if (x < 0) {
					struct carc_buf names = {0};
					for (int i = 0; i < ts->nexpansions; i++)
						carc_buf_printf(&names, "%s%s", i ? ", " : "", ts->expansions[i]);
					fail(ld, CARC_E104, vn, "'%s' is not an expansion this set names (%s)", v,
					     ts->nexpansions ? carc_buf_cstr(&names) : "it names none: list them in expansions "
					     "at the top level");
					carc_buf_free(&names);
				} else
					t->expansion = (uint8_t)(x + 1);
			}
		} else if (!strcmp(key, "replaces")) {
			if (key_once(ld, &keys, TK_REPLACES, kn) && want_scalar(ld, vn, "replaces"))
				ld->replaces[ts->ntiles] = vn;
		} else if (!strcmp(key, "last")) {
			if (key_once(ld, &keys, TK_LAST, kn) && want_bool(ld, vn, "last", &t->last) && t->last)
				ld->lasts[ts->ntiles] = vn;
		} else if (!strcmp(key, "edges")) {
			if (key_once(ld, &keys, TK_EDGES, kn))
				edges_node = vn;
		} else if (!strcmp(key, "features")) {
			if (key_once(ld, &keys, TK_FEATURES, kn))
				features_node = vn;
		} else {
			fail(ld, CARC_E103, kn, "unknown key '%s' in a tile (id, count, start, bonus, last, expansion, "
			     "replaces, name, edges, features)", key);
		}
	}
	if (!t->id[0]) {
		if (!id_given)
			fail(ld, CARC_E103, m, "a tile needs an id");
		free(t->name);
		return;
	}
	if (!(keys.seen & (1u << TK_COUNT)))
		fail(ld, CARC_E103, m, "tile %s needs a count", t->id);
	t->box_count = t->count;
	t->order = (uint16_t)ts->ntiles;
	t->replaces = -1;
	if (!features_node || features_node->type != YAML_SEQUENCE_NODE) {
		if (features_node)
			fail(ld, CARC_E103, features_node, "tile %s: features must be a list, not %s", t->id,
			     node_shape(features_node));
		else
			fail(ld, CARC_E103, m, "tile %s needs a list of features", t->id);
		ts->ntiles++;
		return;
	}
	struct feature_src fs[CARC_MAX_FEATURES];
	unsigned before = ld->errors;
	for (yaml_node_item_t *it = features_node->data.sequence.items.start;
	     it < features_node->data.sequence.items.top && !ld->stop; it++) {
		if (t->nfeatures == CARC_MAX_FEATURES) {
			fail(ld, CARC_E109, node_at(ld, *it), "tile %s has more than %d features", t->id, CARC_MAX_FEATURES);
			break;
		}
		parse_feature(ld, t, node_at(ld, *it), &fs[t->nfeatures]);
	}
	/* Coverage is checked only when every feature was read: a feature
	 * that was refused would leave follow-on gaps. */
	bool features_read = ld->errors == before;
	bool edges_given = false;
	if (edges_node) {
		struct terrain_arg ta = {t, 0, true};
		each_word(ld, edges_node, "edges", edge_terrain, &ta);
		if (ta.ok && ta.count != 4)
			fail(ld, CARC_E103, edges_node, "tile %s: edges lists %d terrain%s; it needs 4, in the order N E S W",
			     t->id, ta.count, ta.count == 1 ? "" : "s");
		edges_given = ta.ok && ta.count == 4;
	}
	if (features_read)
		finish_tile(ld, t, m, edges_node, edges_given, fs);
	ts->ntiles++;
}

/* The start tile, the last one and the tiles of expansions, once every type
 * was read: all types are still in file order, tiles[i].order == i. */
static void check_stacks(struct loader *ld, const yaml_node_t *tiles, const yaml_node_t **starts)
{
	struct carc_tileset *ts = ld->ts;
	int start = -1, last = -1;
	long all = 0;
	/* replaced[i]: tiles of type i that expansions take out of play, all of
	 * them together, so that no mix of expansions leaves it fewer than none */
	long replaced[CARC_MAX_TILE_TYPES] = {0};
	for (int i = 0; i < ts->ntiles; i++) {
		struct carc_tile *t = &ts->tiles[i];
		all += t->count;
		if (t->start) {
			if (t->bonus)
				fail(ld, CARC_E107, starts[i], "tile %s: the start tile cannot be a bonus tile", t->id);
			else if (t->expansion)
				fail(ld, CARC_E107, starts[i], "tile %s: the start tile cannot belong to an expansion "
				     "(%s)", t->id, ts->expansions[t->expansion - 1]);
			else if (start >= 0)
				fail(ld, CARC_E107, starts[i], "tile %s is marked start: true, and so is tile %s (line %u): "
				     "exactly one tile type holds the start tile", t->id, ts->tiles[start].id,
				     ts->tiles[start].line);
			else
				start = i;
		}
		if (t->last) {
			if (t->start || t->bonus)
				fail(ld, CARC_E107, ld->lasts[i], "tile %s: the tile drawn last cannot be the %s tile", t->id,
				     t->start ? "start" : "a bonus");
			else if (last >= 0)
				fail(ld, CARC_E107, ld->lasts[i], "tile %s is marked last: true, and so is tile %s (line %u): "
				     "at most one tile type is drawn last", t->id, ts->tiles[last].id,
				     ts->tiles[last].line);
			else
				last = i;
		}
		const yaml_node_t *rn = ld->replaces[i];
		if (!rn)
			continue;
		const char *v = scalar(rn);
		int r = carc_tileset_find(ts, v, strlen(v));
		if (!t->expansion)
			fail(ld, CARC_E103, rn, "tile %s replaces %s but belongs to no expansion: only a tile of an "
			     "expansion takes another's place", t->id, v);
		else if (r < 0)
			fail(ld, CARC_E104, rn, "tile %s replaces '%s', which is no tile type of this set", t->id, v);
		else if (ts->tiles[r].expansion)
			fail(ld, CARC_E104, rn, "tile %s replaces %s, which belongs to an expansion itself: only a "
			     "tile that is always in play can be replaced", t->id, v);
		else if (ts->tiles[r].bonus != t->bonus)
			fail(ld, CARC_E104, rn, "tile %s replaces %s: one is a bonus tile and the other not", t->id, v);
		else if ((replaced[r] += t->count) > ts->tiles[r].count - ts->tiles[r].start)
			fail(ld, CARC_E104, rn, "tile %s makes %ld tiles of %s replaced, which has only %d%s", t->id,
			     replaced[r], v, ts->tiles[r].count - ts->tiles[r].start,
			     ts->tiles[r].start ? " besides the start tile" : "");
		else
			t->replaces = (int16_t)r;
	}
	if (start < 0 && ld->start_claims == 0)
		fail(ld, CARC_E107, tiles, "no tile type is marked start: true; exactly one must hold the start tile");
	if (all > CARC_MAX_TILES)
		fail(ld, CARC_E109, tiles, "%ld tiles in all; a tile set may hold at most %d", all, CARC_MAX_TILES);
}

#endif /* CARC_NO_YAML */

/* Tile sets get a new serial when loaded and whenever their tiles change
 * (carc_tileset_play), so that what a game derived from them is redone. */
static _Atomic unsigned long serials;

/* Orders tile types: those in play first, each group in file order. */
static int by_play_order(const void *a, const void *b)
{
	const struct carc_tile *x = a, *y = b;
	/* set aside: count 0 (see select_tiles) */
	int ox = x->count == 0, oy = y->count == 0;
	if (ox != oy)
		return ox - oy;
	return (int)x->order - (int)y->order;
}

/* Puts in play the types of the expansions in mask and those of no
 * expansion, less the tiles the played ones replace; sets the others aside
 * after them. Types set aside are marked by a count of 0 while sorting. */
static void select_tiles(struct carc_tileset *ts, unsigned mask)
{
	int all = ts->ntiles + ts->nextra;
	for (int i = 0; i < all; i++) /* back to file order */
		while (ts->tiles[i].order != i) {
			struct carc_tile tmp = ts->tiles[ts->tiles[i].order];
			ts->tiles[ts->tiles[i].order] = ts->tiles[i];
			ts->tiles[i] = tmp;
		}
	for (int i = 0; i < all; i++) {
		struct carc_tile *t = &ts->tiles[i];
		t->count = !t->expansion || (mask & (1u << (t->expansion - 1))) ? t->box_count : 0;
	}
	for (int i = 0; i < all; i++) {
		struct carc_tile *t = &ts->tiles[i];
		if (t->count && t->replaces >= 0)
			ts->tiles[t->replaces].count -= t->count;
	}
	qsort(ts->tiles, (size_t)all, sizeof *ts->tiles, by_play_order);
	ts->ntiles = 0;
	while (ts->ntiles < all && ts->tiles[ts->ntiles].count)
		ts->ntiles++;
	ts->nextra = all - ts->ntiles;
	for (int i = ts->ntiles; i < all; i++)
		ts->tiles[i].count = ts->tiles[i].box_count;
	ts->playing = mask;
	ts->start_tile = -1;
	ts->last_tile = -1;
	ts->total = ts->bonus_total = 0;
	memset(ts->by_letter, 0, sizeof ts->by_letter);
	memset(ts->by_pair, 0, sizeof ts->by_pair);
	for (int i = 0; i < ts->ntiles; i++) {
		struct carc_tile *t = &ts->tiles[i];
		if (t->bonus)
			ts->bonus_total += t->count;
		else
			ts->total += t->count;
		if (t->start && ts->start_tile < 0 && !t->bonus)
			ts->start_tile = i;
		if (t->last && ts->last_tile < 0)
			ts->last_tile = i;
		if (t->id[1] == '\0' && (unsigned char)t->id[0] < 128)
			ts->by_letter[(unsigned char)t->id[0]] = (uint8_t)(i + 1);
		else if (t->id[1] && t->id[2] == '\0' && (unsigned char)t->id[0] < 128 && (unsigned char)t->id[1] < 128)
			ts->by_pair[(unsigned char)t->id[0]][(unsigned char)t->id[1]] = (uint8_t)(i + 1);
	}
}

void carc_tileset_play(struct carc_tileset *ts, const char *words, size_t len)
{
	unsigned mask = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && (words[i] == ' ' || words[i] == ',' || words[i] == '\t'))
			i++;
		size_t j = i;
		while (j < len && words[j] != ' ' && words[j] != ',' && words[j] != '\t')
			j++;
		int x = j > i ? carc_tileset_expansion(ts, words + i, j - i) : -1;
		if (x >= 0)
			mask |= 1u << x;
		i = j;
	}
	select_tiles(ts, mask);
	ts->serial = ++serials;
}

/* ---- tile sets joined: a game's own set ---- */

/* Index of name in names (count of them), added at the end when absent;
 * -1 when there is no room for it (max). */
static int merge_name(char (*names)[CARC_ID_MAX + 1], int *count, int max, const char *name)
{
	for (int i = 0; i < *count; i++)
		if (!strcmp(names[i], name))
			return i;
	if (*count == max)
		return -1;
	memcpy(names[*count], name, CARC_ID_MAX + 1);
	return (*count)++;
}

/* Copies one tile type of from into to (types in file order), its kinds,
 * terrains and expansion renamed by the maps; base: the index of from's
 * first type in to. */
static void copy_tile(struct carc_tile *t, const struct carc_tile *from, const int *kind_map,
		      const int *terrain_map, const int *expansion_map, const int *attr_map, int base, bool keep_start)
{
	*t = *from;
	for (int f = 0; f < t->nfeatures; f++) { /* the set's own attributes renumbered */
		memset(t->features[f].attr + CARC_ATTR_COUNT, 0, CARC_MAX_ATTRS - CARC_ATTR_COUNT);
		for (int a = CARC_ATTR_COUNT; a < CARC_MAX_ATTRS; a++)
			if (from->features[f].attr[a])
				t->features[f].attr[attr_map[a]] = from->features[f].attr[a];
	}
	t->name = from->name ? xstrdup(from->name) : NULL;
	t->count = t->box_count;
	t->start = from->start && keep_start;
	t->order = (uint16_t)(base + from->order);
	t->replaces = (int16_t)(from->replaces >= 0 ? base + from->replaces : -1);
	t->expansion = (uint8_t)(from->expansion ? expansion_map[from->expansion - 1] + 1 : 0);
	for (int f = 0; f < t->nfeatures; f++)
		t->features[f].kind = (uint8_t)kind_map[from->features[f].kind];
	for (int e = 0; e < 4; e++)
		t->edge_terrain[e] = (uint8_t)terrain_map[from->edge_terrain[e]];
	for (int r = 0; r < 4; r++) {
		uint32_t packed = 0;
		for (int e = 0; e < 4; e++)
			packed |= (uint32_t)carc_tile_edge(t, r, e) << (8 * e);
		t->rot_edges[r] = packed;
	}
}

/* Adds the types of from (in file order) to ts after those it has, its
 * kinds, terrains and expansions merged by name; false when they do not
 * fit. The start tile stays the first set's. */
static bool add_tiles(struct carc_tileset *ts, const struct carc_tileset *from, bool keep_start)
{
	int kind_map[CARC_MAX_KINDS], terrain_map[CARC_MAX_TERRAINS], expansion_map[CARC_MAX_EXPANSIONS];
	int attr_map[CARC_MAX_ATTRS];
	if (!ts->nattrs)
		known_attrs(ts);
	for (int i = 0; i < CARC_MAX_ATTRS; i++)
		attr_map[i] = i < CARC_ATTR_COUNT ? i : 0; /* (a slot no feature fills) */
	for (int i = CARC_ATTR_COUNT; i < from->nattrs; i++)
		if ((attr_map[i] = merge_name(ts->attrs, &ts->nattrs, CARC_MAX_ATTRS, from->attrs[i])) < 0)
			return false;
	for (int i = 0; i < from->nterrains; i++)
		if ((terrain_map[i] = merge_name(ts->terrains, &ts->nterrains, CARC_MAX_TERRAINS, from->terrains[i])) < 0)
			return false;
	for (int i = 0; i < from->nexpansions; i++)
		if ((expansion_map[i] = merge_name(ts->expansions, &ts->nexpansions, CARC_MAX_EXPANSIONS,
						   from->expansions[i])) < 0)
			return false;
	for (int i = 0; i < from->nkinds; i++) {
		const struct carc_kind *k = &from->kinds[i];
		int j = carc_tileset_kind(ts, k->name);
		if (j < 0) {
			if (ts->nkinds == CARC_MAX_KINDS)
				return false;
			j = ts->nkinds++;
			ts->kinds[j] = *k;
			ts->kinds[j].terrain = (uint8_t)(k->terrain == CARC_NO_FEATURE ? CARC_NO_FEATURE
											 : terrain_map[k->terrain]);
		} else if (ts->kinds[j].klass != k->klass) {
			return false;
		}
		kind_map[i] = j;
	}
	int have = ts->ntiles + ts->nextra, more = from->ntiles + from->nextra;
	if (have + more > CARC_MAX_TILE_TYPES)
		return false;
	/* one id, one tile: a second tile of the same id could never be named */
	for (int i = 0; i < more; i++)
		if (carc_tileset_find(ts, from->tiles[i].id, strlen(from->tiles[i].id)) >= 0)
			return false;
	ts->tiles = xrealloc(ts->tiles, (size_t)(have + more) * sizeof *ts->tiles);
	for (int i = 0; i < more; i++) {
		const struct carc_tile *t = &from->tiles[i];
		copy_tile(&ts->tiles[have + t->order], t, kind_map, terrain_map, expansion_map, attr_map, have,
			  keep_start);
	}
	ts->ntiles = have + more;
	ts->nextra = 0;
	return true;
}

struct carc_tileset *carc_tileset_join(const struct carc_tileset *const *sets, int n)
{
	struct carc_tileset *ts = xcalloc(1, sizeof *ts);
	struct carc_buf name = {0};
	for (int i = 0; i < n; i++)
		carc_buf_printf(&name, "%s%s", i ? "+" : "", sets[i]->name);
	ts->name = xstrdup(carc_buf_cstr(&name));
	carc_buf_free(&name);
	const struct carc_tileset *last = sets[n - 1]; /* the base set: its title, rules and note */
	ts->title = last->title ? xstrdup(last->title) : NULL;
	ts->rules = last->rules ? xstrdup(last->rules) : NULL;
	ts->note = last->note ? xstrdup(last->note) : NULL;
	bool ok = true;
	long all = 0;
	for (int i = 0; i < n && ok; i++) {
		ok = add_tiles(ts, sets[i], i == 0);
		ts->provisional |= sets[i]->provisional;
	}
	for (int i = 0; i < ts->ntiles && ok; i++)
		all += ts->tiles[i].box_count;
	if (!ok || all > CARC_MAX_TILES) {
		carc_tileset_free(ts);
		return NULL;
	}
	select_tiles(ts, 0);
	ts->serial = ++serials;
	return ts;
}

static bool has_kind(const struct carc_tile *t, int kind)
{
	for (int f = 0; f < t->nfeatures; f++)
		if (t->features[f].kind == kind)
			return true;
	return false;
}

bool carc_kind_aside(const struct carc_tileset *ts, int kind)
{
	for (int i = 0; i < ts->ntiles; i++)
		if (has_kind(&ts->tiles[i], kind))
			return false;
	for (int i = ts->ntiles; i < ts->ntiles + ts->nextra; i++)
		if (has_kind(&ts->tiles[i], kind))
			return true;
	return false;
}

int carc_tileset_expansion(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int i = 0; i < ts->nexpansions; i++)
		if (carc_slice_ieq(name, len, ts->expansions[i]))
			return i;
	return -1;
}

#ifndef CARC_NO_YAML
/* Keys of the top level, numbered for key_once(). */
enum { TOP_NAME, TOP_TITLE, TOP_RULES, TOP_NOTE, TOP_PROVISIONAL, TOP_TERRAINS, TOP_KINDS, TOP_TILES,
       TOP_EXPANSIONS, TOP_ATTRIBUTES };

static void parse_top(struct loader *ld, yaml_node_t *root)
{
	struct carc_tileset *ts = ld->ts;
	if (!root) {
		fail(ld, CARC_E103, NULL, "the file is empty: a tile set is a mapping with name, terrains, kinds and tiles");
		return;
	}
	if (root->type != YAML_MAPPING_NODE) {
		fail(ld, CARC_E103, root, "the file holds %s; a tile set is a mapping with name, terrains, kinds and tiles",
		     node_shape(root));
		return;
	}
	yaml_node_t *terrains = NULL, *kinds = NULL, *tiles = NULL, *expansions = NULL, *attributes = NULL;
	struct keys keys = {0, "at the top level"};
	char **text_keys[] = {[TOP_NAME] = &ts->name, [TOP_TITLE] = &ts->title, [TOP_RULES] = &ts->rules,
			      [TOP_NOTE] = &ts->note};
	static const char *const top_names[] = {"name", "title", "rules", "note", "provisional",
						"terrains", "kinds", "tiles", "expansions", "attributes"};
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = node_at(ld, p->key), *vn = node_at(ld, p->value);
		const char *key = scalar(kn), *v;
		int k = key ? name_index(top_names, (int)CARC_ARRAY_LEN(top_names), key, strlen(key)) : -1;
		if (!key) {
			fail(ld, CARC_E103, kn, "a key must be a word, not %s", node_shape(kn));
		} else if (k < 0) {
			fail(ld, CARC_E103, kn, "unknown key '%s' (name, title, rules, note, provisional, expansions, "
			     "attributes, terrains, kinds, tiles)", key);
		} else if (!key_once(ld, &keys, k, kn)) {
			continue;
		} else if (k <= TOP_NOTE) {
			if ((v = want_scalar(ld, vn, key)))
				*text_keys[k] = xstrdup(v);
		} else if (k == TOP_PROVISIONAL) {
			want_bool(ld, vn, "provisional", &ts->provisional);
		} else if (k == TOP_TERRAINS) {
			terrains = vn;
		} else if (k == TOP_KINDS) {
			kinds = vn;
		} else if (k == TOP_EXPANSIONS) {
			expansions = vn;
		} else if (k == TOP_ATTRIBUTES) {
			attributes = vn;
		} else {
			tiles = vn;
		}
	}
	if (!(keys.seen & (1u << TOP_NAME)))
		fail(ld, CARC_E103, root, "the tile set needs a name");
	if (!terrains || !kinds || !tiles) {
		const char *missing[3];
		int nm = 0;
		if (!terrains)
			missing[nm++] = "terrains";
		if (!kinds)
			missing[nm++] = "kinds";
		if (!tiles)
			missing[nm++] = "tiles";
		fail(ld, CARC_E103, root, "the tile set needs %s%s%s%s%s", missing[0], nm == 3 ? ", " : nm == 2 ? " and " : "",
		     nm > 1 ? missing[1] : "", nm == 3 ? " and " : "", nm == 3 ? missing[2] : "");
		return;
	}
	each_word(ld, terrains, "terrains", terrain_name, ts);
	if (expansions)
		each_word(ld, expansions, "expansions", expansion_name, ts);
	known_attrs(ts);
	if (attributes)
		each_word(ld, attributes, "attributes", attribute_name, ts);
	parse_kinds(ld, kinds);
	if (tiles->type != YAML_SEQUENCE_NODE) {
		fail(ld, CARC_E103, tiles, "tiles must be a list, not %s", node_shape(tiles));
		return;
	}
	size_t n = (size_t)(tiles->data.sequence.items.top - tiles->data.sequence.items.start);
	if (n > CARC_MAX_TILE_TYPES) {
		fail(ld, CARC_E109, node_at(ld, tiles->data.sequence.items.start[CARC_MAX_TILE_TYPES]),
		     "more than %d tile types", CARC_MAX_TILE_TYPES);
		n = CARC_MAX_TILE_TYPES;
	}
	ts->tiles = xcalloc(n ? n : 1, sizeof *ts->tiles);
	const yaml_node_t **starts = xcalloc(n ? n : 1, sizeof *starts);
	ld->replaces = xcalloc(n ? n : 1, sizeof *ld->replaces);
	ld->lasts = xcalloc(n ? n : 1, sizeof *ld->lasts);
	for (size_t i = 0; i < n && !ld->stop; i++)
		parse_tile(ld, node_at(ld, tiles->data.sequence.items.start[i]), &starts[ts->ntiles]);
	if (!ld->stop)
		check_stacks(ld, tiles, starts);
	free(starts);
	free(ld->replaces);
	free(ld->lasts);
	if (!ld->stop)
		select_tiles(ts, 0);
}

/* ---- the bytes and the YAML ---- */

/* Refuses text that is not UTF-8 (a NUL byte or a malformed sequence): a
 * binary file gets one message instead of libyaml's guesses. */
static bool check_text(struct loader *ld)
{
	const char *s = ld->src.text;
	size_t n = ld->src.len;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 0) {
			fail_at(ld, CARC_E102, i, 1, "this is not a text file: a NUL byte at offset %zu; a tile set is YAML "
				"text in UTF-8", i);
			return false;
		}
		if (c < 0x80)
			continue;
		size_t w = carc_utf8_len(s + i, n - i);
		if (!w) {
			fail_at(ld, CARC_E102, i, 1, "this is not a UTF-8 text file: byte 0x%02x at offset %zu is not UTF-8; "
				"a tile set is YAML text in UTF-8", c, i);
			return false;
		}
		i += w - 1;
	}
	return true;
}

/* Reports the error that stopped a libyaml parser. */
static void yaml_failed(struct loader *ld, const yaml_parser_t *p)
{
	if (p->error == YAML_MEMORY_ERROR) {
		fail_at(ld, CARC_E102, 0, 0, "out of memory while reading the YAML");
		return;
	}
	size_t off = p->error == YAML_READER_ERROR ? p->problem_offset : mark_offset(ld, p->problem_mark);
	const char *problem = p->problem ? p->problem : "malformed YAML";
	const char *hint = strstr(problem, "tab") ? "; YAML indents with spaces, never tabs"
			   : off >= ld->src.len ? "; the file ends here: is it cut short?" : "";
	if (p->context && p->context_mark.line != p->problem_mark.line)
		fail_at(ld, CARC_E102, off, 1, "%s (%s that starts on line %lu)%s", problem, p->context,
			(unsigned long)p->context_mark.line + 1, hint);
	else if (p->context)
		fail_at(ld, CARC_E102, off, 1, "%s %s%s", problem, p->context, hint);
	else
		fail_at(ld, CARC_E102, off, 1, "%s%s", problem, hint);
}

/* The first pass: the events of the whole stream, to refuse a second
 * document, aliases, nesting deeper than MAX_DEPTH and more than MAX_NODES
 * nodes before the tree is built. The parser holds one event at a time, so
 * this pass costs no more memory than the longest token. */
static bool check_yaml(struct loader *ld)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		fail_at(ld, CARC_E102, 0, 0, "cannot start the YAML parser");
		return false;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)ld->src.text, ld->src.len);
	int depth = 0, docs = 0;
	size_t nodes = 0;
	bool ok = true, done = false;
	while (ok && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			yaml_failed(ld, &p);
			ok = false;
			break;
		}
		bool node = ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT ||
			    ev.type == YAML_MAPPING_START_EVENT;
		if (node && ++nodes > MAX_NODES) {
			fail_at(ld, CARC_E109, mark_offset(ld, ev.start_mark), 1,
				"more than %d YAML values (scalars, lists and mappings) in one tile set", MAX_NODES);
			ok = false;
		}
		switch (ok ? ev.type : YAML_NO_EVENT) {
		case YAML_ALIAS_EVENT:
			/* a tile set needs none, and a tree of aliases can stand for
			 * exponentially many nodes */
			fail_at(ld, CARC_E102, mark_offset(ld, ev.start_mark), 1,
				"a YAML alias (*name) is not taken in a tile set: write the value out");
			ok = false;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > MAX_DEPTH) {
				fail_at(ld, CARC_E102, mark_offset(ld, ev.start_mark), 1,
					"lists and mappings nested more than %d deep; a tile set needs 6", MAX_DEPTH);
				ok = false;
			}
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs == 2) {
				fail_at(ld, CARC_E102, mark_offset(ld, ev.start_mark), 1,
					"a second YAML document starts here; a tile-set file holds one");
				ok = false;
			}
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return ok;
}

/* trusted: a bundled set, compiled in from the project's own files (which
 * the tests load), skips the first pass that guards against strangers'
 * files: it would only cost every run of carc the time of a second parse. */
static struct carc_tileset *parse_text(const char *text, size_t len, const char *name, struct carc_diag_sink *sink,
				       bool trusted)
{
	struct loader ld = {.sink = sink};
	ld.src = (struct carc_src){name, text, len, 1};
	if (!trusted && (!check_text(&ld) || !check_yaml(&ld))) {
		free(ld.line_start);
		return NULL;
	}
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser)) {
		fail_at(&ld, CARC_E102, 0, 0, "cannot start the YAML parser");
		free(ld.line_start);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &ld.doc)) {
		yaml_failed(&ld, &parser);
		yaml_parser_delete(&parser);
		free(ld.line_start);
		return NULL;
	}
	yaml_parser_delete(&parser);

	ld.ts = xcalloc(1, sizeof *ld.ts);
	ld.ts->serial = ++serials;
	ld.ts->source = xstrndup(text, len);
	ld.ts->source_len = len;
	parse_top(&ld, yaml_document_get_root_node(&ld.doc));
	yaml_document_delete(&ld.doc);
	free(ld.line_start);
	if (ld.errors) {
		carc_tileset_free(ld.ts);
		return NULL;
	}
	return ld.ts;
}

struct carc_tileset *carc_tileset_parse(const char *text, size_t len, const char *name,
					struct carc_diag_sink *sink)
{
	return parse_text(text, len, name, sink, false);
}

#endif /* CARC_NO_YAML */

#ifdef CARC_NO_YAML
/* Without libyaml (the WebAssembly engine, tileset_image.h): a bundled set
 * is a copy of the image the host build made of it with the reader above;
 * any other tile set is refused. */
static struct carc_tileset *parse_text(const char *text, size_t len, const char *name, struct carc_diag_sink *sink,
				       bool trusted)
{
	for (const struct carc_tileset_image *im = carc_tileset_images; trusted && im->name; im++) {
		if (strcmp(im->name, name))
			continue;
		struct carc_tileset *ts = xcalloc(1, sizeof *ts);
		*ts = *im->set;
		int n = ts->ntiles + ts->nextra;
		ts->tiles = xcalloc(n ? (size_t)n : 1, sizeof *ts->tiles);
		memcpy(ts->tiles, im->tiles, (size_t)n * sizeof *ts->tiles);
		for (int i = 0; i < n; i++)
			ts->tiles[i].name = im->tiles[i].name ? xstrdup(im->tiles[i].name) : NULL;
		ts->name = im->set->name ? xstrdup(im->set->name) : NULL;
		ts->title = im->set->title ? xstrdup(im->set->title) : NULL;
		ts->rules = im->set->rules ? xstrdup(im->set->rules) : NULL;
		ts->note = im->set->note ? xstrdup(im->set->note) : NULL;
		ts->serial = ++serials;
		ts->source = xstrndup(text, len);
		ts->source_len = len;
		return ts;
	}
	struct carc_src src = {name, text, len, 1};
	carc_diag_report(sink, CARC_E101, &src, 0, 0,
			 "this build of carc reads only the bundled tile sets (it has no YAML reader)");
	return NULL;
}

struct carc_tileset *carc_tileset_parse(const char *text, size_t len, const char *name,
					struct carc_diag_sink *sink)
{
	return parse_text(text, len, name, sink, false);
}
#endif /* CARC_NO_YAML */

/* ---- files, bundled sets and lookups ---- */

char *carc_tileset_read(FILE *f, size_t *len)
{
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)MAX_FILE_BYTES) {
		errno = EFBIG; /* refused unread */
		return NULL;
	}
	struct carc_buf b = {0};
	char chunk[65536];
	size_t n;
	int err = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (b.len + n > MAX_FILE_BYTES) {
			err = EFBIG;
			break;
		}
		carc_buf_add(&b, chunk, n);
		/* text has no NUL: the loader refuses it at the first one, and an
		 * endless source (/dev/zero) is read no further */
		if (memchr(chunk, 0, n))
			break;
	}
	if (!err && ferror(f))
		err = errno ? errno : EIO;
	if (err) {
		carc_buf_free(&b);
		errno = err;
		return NULL;
	}
	carc_buf_cstr(&b);
	*len = b.len;
	return b.data;
}

/* Reads a whole file as carc_tileset_read does; NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *text = carc_tileset_read(f, len);
	int err = errno;
	fclose(f);
	errno = err;
	return text;
}

struct carc_tileset *carc_tileset_load(const char *name_or_path, struct carc_diag_sink *sink,
				       const struct carc_src *src, size_t off, size_t len)
{
	size_t text_len;
	/* Bundled names match in any case, as rule-set names do ("Base"). */
	for (size_t i = 0; i < carc_bundled_count(); i++) {
		const char *name = carc_bundled_name(i);
		if (carc_slice_ieq(name_or_path, strlen(name_or_path), name)) {
			const char *text = carc_bundled_text(name, &text_len);
			return parse_text(text, text_len, name, sink, true);
		}
	}
	errno = 0;
	char *data = name_or_path[0] ? read_file(name_or_path, &text_len) : NULL;
	if (!data) {
		int err = name_or_path[0] ? errno : ENOENT;
		struct carc_buf names = {0};
		for (size_t i = 0; i < carc_bundled_count(); i++)
			carc_buf_printf(&names, "%s%s", i ? ", " : "", carc_bundled_name(i));
		const char *why = err == EFBIG ? "it is larger than 64 MiB" : strerror(err);
		carc_diag_report(sink, CARC_E101, src, off, len,
				 "tile set '%s' is neither bundled (%s) nor a readable file: %s",
				 name_or_path, carc_buf_cstr(&names), why);
		carc_buf_free(&names);
		return NULL;
	}
	struct carc_tileset *ts = carc_tileset_parse(data, text_len, name_or_path, sink);
	free(data);
	return ts;
}
void carc_tileset_free(struct carc_tileset *ts)
{
	if (!ts)
		return;
	for (int i = 0; i < ts->ntiles + ts->nextra; i++)
		free(ts->tiles[i].name);
	free(ts->tiles);
	free(ts->name);
	free(ts->title);
	free(ts->rules);
	free(ts->note);
	free(ts->source);
	free(ts);
}

int carc_tileset_find(const struct carc_tileset *ts, const char *id, size_t len)
{
	if (len == 1 && (unsigned char)id[0] < 128 && ts->by_letter[(unsigned char)id[0]])
		return ts->by_letter[(unsigned char)id[0]] - 1;
	if (len == 2 && (unsigned char)id[0] < 128 && (unsigned char)id[1] < 128 &&
	    ts->by_pair[(unsigned char)id[0]][(unsigned char)id[1]])
		return ts->by_pair[(unsigned char)id[0]][(unsigned char)id[1]] - 1;
	for (int i = 0; i < ts->ntiles; i++)
		if (carc_slice_eq(id, len, ts->tiles[i].id))
			return i;
	return -1;
}

int carc_tileset_kind(const struct carc_tileset *ts, const char *name)
{
	for (int i = 0; i < ts->nkinds; i++)
		if (!strcmp(ts->kinds[i].name, name))
			return i;
	return -1;
}

int carc_tileset_terrain(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int i = 0; i < ts->nterrains; i++)
		if (carc_slice_eq(name, len, ts->terrains[i]))
			return i;
	return -1;
}

struct cache_entry {
	char *name;
	struct carc_tileset *ts;
};

struct carc_tileset_cache {
	struct cache_entry *entries;
	size_t count;
	/* the last tile set a record named by a path, and for which record and
	 * value: a file of many games naming one set resolves it once */
	char *memo_record, *memo_value;
	const struct carc_tileset *memo;
};

struct carc_tileset_cache *carc_tileset_cache_new(void)
{
	return xcalloc(1, sizeof(struct carc_tileset_cache));
}

const struct carc_tileset *carc_tileset_cache_get(struct carc_tileset_cache *c, const char *name_or_path,
						  struct carc_diag_sink *sink, const struct carc_src *src,
						  size_t off, size_t len)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].name, name_or_path))
			return c->entries[i].ts;
	struct carc_tileset *ts = carc_tileset_load(name_or_path, sink, src, off, len);
	if (!ts)
		return NULL;
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){xstrdup(name_or_path), ts};
	return ts;
}

const struct carc_tileset *carc_tileset_cache_join(struct carc_tileset_cache *c,
						   const struct carc_tileset *const *sets, int n, const char *play)
{
	/* its name in the cache: no file or bundled set has one like it */
	/* (made without printf: it is asked once a game) */
	struct carc_buf key = {0};
	carc_buf_addc(&key, '\n');
	for (int i = 0; i < n; i++) {
		char digits[24], *d = digits + sizeof digits;
		*--d = '\0';
		*--d = ' ';
		unsigned long v = sets[i]->serial;
		do
			*--d = (char)('0' + v % 10);
		while (v /= 10);
		carc_buf_adds(&key, d);
	}
	carc_buf_addc(&key, '\n');
	carc_buf_adds(&key, play);
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].name, carc_buf_cstr(&key))) {
			carc_buf_free(&key);
			return c->entries[i].ts;
		}
	struct carc_tileset *ts = carc_tileset_join(sets, n);
	if (!ts) {
		carc_buf_free(&key);
		return NULL;
	}
	carc_tileset_play(ts, play, strlen(play));
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){xstrdup(carc_buf_cstr(&key)), ts};
	carc_buf_free(&key);
	return ts;
}

const struct carc_tileset *carc_tileset_cache_expand(struct carc_tileset_cache *c, const struct carc_tileset *base,
						     const struct carc_ruleset *const *x, int n,
						     struct carc_diag_sink *sink, bool *loaded)
{
	const struct carc_tileset *sets[1 + CARC_MAX_EXPANSIONS];
	struct carc_buf play = {0};
	int nsets = 0;
	*loaded = true;
	for (int i = 0; i < n && *loaded; i++) {
		if (i)
			carc_buf_addc(&play, ' ');
		carc_buf_adds(&play, x[i]->name);
		if (x[i]->tileset)
			*loaded = (sets[nsets++] = carc_tileset_cache_get(c, x[i]->tileset, sink, NULL, 0, 0)) != NULL;
	}
	sets[nsets++] = base;
	const struct carc_tileset *ts = *loaded ? carc_tileset_cache_join(c, sets, nsets, carc_buf_cstr(&play)) : NULL;
	carc_buf_free(&play);
	return ts;
}

/* ---- tile sets named by records: the path policy ---- */

/* The folders that --tileset-path added, as realpath resolved them. Set
 * while the command line is read, before any record. */
static char **allowed_dirs;
static size_t nallowed_dirs;

bool carc_tileset_allow_dir(const char *dir)
{
	char *real = realpath(dir, NULL);
	struct stat st;
	if (!real)
		return false;
	if (stat(real, &st) || !S_ISDIR(st.st_mode)) {
		free(real);
		errno = ENOTDIR;
		return false;
	}
	allowed_dirs = xrealloc(allowed_dirs, (nallowed_dirs + 1) * sizeof *allowed_dirs);
	allowed_dirs[nallowed_dirs++] = real;
	return true;
}

void carc_tileset_allow_none(void)
{
	for (size_t i = 0; i < nallowed_dirs; i++)
		free(allowed_dirs[i]);
	free(allowed_dirs);
	allowed_dirs = NULL;
	nallowed_dirs = 0;
}

/* path (resolved) lies inside folder dir (resolved). */
static bool path_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && path[n] == '/';
}

/* v names a step up ("..") anywhere in it. */
static bool climbs(const char *v)
{
	for (const char *p = v; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == v || p[-1] == '/') && (p[2] == 0 || p[2] == '/'))
			return true;
	return false;
}

/* The resolved path of file v looked up in folder dir (NULL: the current
 * folder), when it is a file there that does not lead out of dir; NULL
 * otherwise, with *escapes set when it exists but leads out. */
static char *look_in(const char *dir, const char *v, bool *escapes)
{
	struct carc_buf cand = {0};
	if (dir) {
		carc_buf_adds(&cand, dir);
		carc_buf_addc(&cand, '/');
	}
	carc_buf_adds(&cand, v);
	char *real = realpath(carc_buf_cstr(&cand), NULL);
	char *home = realpath(dir ? dir : ".", NULL);
	carc_buf_free(&cand);
	if (real && home && !path_inside(real, home)) {
		*escapes = true;
		free(real);
		real = NULL;
	}
	free(home);
	return real;
}

/* Applies the policy: the path to load, or NULL after reporting. */
static char *resolve(const char *record, const char *v, struct carc_diag_sink *sink, const struct carc_src *src,
		     size_t off, size_t len)
{
	bool escapes = false, from_stdin = !strcmp(record, "<stdin>") || !strcmp(record, "-");
	char *found = NULL;
	if (v[0] == '/') {
		/* an absolute path: only inside a --tileset-path folder */
		char *real = realpath(v, NULL);
		for (size_t i = 0; real && i < nallowed_dirs && !found; i++)
			if (path_inside(real, allowed_dirs[i]))
				found = xstrdup(real);
		free(real);
		escapes = !found;
	} else {
		if (!from_stdin) {
			const char *slash = strrchr(record, '/');
			char *dir = slash ? xstrndup(record, (size_t)(slash - record) + (slash == record)) : NULL;
			found = look_in(dir, v, &escapes);
			free(dir);
		}
		for (size_t i = 0; i < nallowed_dirs && !found; i++)
			found = look_in(allowed_dirs[i], v, &escapes);
		escapes |= !found && climbs(v);
	}
	if (found)
		return found;
	struct carc_buf names = {0};
	for (size_t i = 0; i < carc_bundled_count(); i++)
		carc_buf_printf(&names, "%s%s", i ? ", " : "", carc_bundled_name(i));
	const char *where = from_stdin ? "a --tileset-path folder (a record on standard input has no folder of its own)"
				       : "the record's folder or a --tileset-path folder";
	if (escapes)
		carc_diag_report(sink, CARC_E110, src, off, len, "tile set '%s' is outside the folders a record may use: "
				 "it may name a bundled tile set (%s) or a file in %s", v, carc_buf_cstr(&names), where);
	else
		carc_diag_report(sink, CARC_E101, src, off, len, "tile set '%s' is neither bundled (%s) nor a file in %s",
				 v, carc_buf_cstr(&names), where);
	carc_buf_free(&names);
	return NULL;
}

struct first_problem {
	enum carc_code code;
	unsigned line, col, n;
};

static void keep_first(void *ctx, const struct carc_diag *d)
{
	struct first_problem *f = ctx;
	if (d->severity == CARC_SEV_ERROR && f->n++ == 0) {
		f->code = d->code;
		f->line = f->col = 0;
		if (d->src && d->src->text)
			carc_src_position(d->src, d->off, &f->line, &f->col);
	}
}

static const struct carc_tileset *remember(struct carc_tileset_cache *c, const char *record, const char *v,
					   const struct carc_tileset *ts)
{
	free(c->memo_record);
	free(c->memo_value);
	c->memo_record = xstrdup(record);
	c->memo_value = xstrdup(v);
	c->memo = ts;
	return ts;
}

const struct carc_tileset *carc_tileset_for_record(struct carc_tileset_cache *c, const char *record,
						   const char *v, struct carc_diag_sink *sink,
						   const struct carc_src *src, size_t off, size_t len)
{
	for (size_t i = 0; i < carc_bundled_count(); i++)
		if (carc_slice_ieq(v, strlen(v), carc_bundled_name(i)))
			return carc_tileset_cache_get(c, v, sink, src, off, len);
	if (c->memo && !strcmp(c->memo_record, record) && !strcmp(c->memo_value, v))
		return c->memo;
	char *path = resolve(record, v, sink, src, off, len);
	if (!path)
		return NULL;
	const struct carc_tileset *found = NULL;
	for (size_t i = 0; i < c->count && !found; i++)
		if (!strcmp(c->entries[i].name, path))
			found = c->entries[i].ts;
	if (found) {
		free(path);
		return remember(c, record, v, found);
	}
	/* The file's own problems are not shown: its text is not echoed, only
	 * what the first problem is and where (carc tiles --check shows all). */
	struct first_problem first = {CARC_E102, 0, 0, 0};
	struct carc_diag_sink quiet = {keep_first, &first};
	struct carc_tileset *ts = carc_tileset_load(path, &quiet, NULL, 0, 0);
	carc_diag_free(&quiet);
	if (!ts) {
		if (first.line)
			carc_diag_report(sink, first.code, src, off, len,
					 "tile set '%s' is not a valid tile set (%u error%s, the first %s at line %u, column %u "
					 "of that file; carc tiles --check shows them)", v, first.n, first.n == 1 ? "" : "s",
					 carc_code_str(first.code), first.line, first.col);
		else
			carc_diag_report(sink, first.n ? first.code : CARC_E101, src, off, len,
					 "tile set '%s' cannot be read as a tile set (%s)", v,
					 first.n ? carc_code_summary(first.code) : "unreadable");
		free(path);
		return NULL;
	}
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){path, ts};
	return remember(c, record, v, ts);
}

void carc_tileset_cache_free(struct carc_tileset_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->count; i++) {
		free(c->entries[i].name);
		carc_tileset_free(c->entries[i].ts);
	}
	free(c->entries);
	free(c->memo_record);
	free(c->memo_value);
	free(c);
}
