/*
 * tileset_int.h - what the files of the tile-set loader share, in the
 * manner of cgn_int.h: the loader's state and its messages (tileset_yaml.c),
 * the schema's walk (tileset_schema.c), the tiles in play (tileset_play.c),
 * the path policy (tileset_path.c). Nothing outside src/notation/tileset*.c
 * includes it.
 */
#ifndef CARC_TILESET_INT_H
#define CARC_TILESET_INT_H

#include "notation/tileset.h"
#include "notation/ruleset.h"
#include "common/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_ERRORS 100 /* reported per tile set; the rest are counted */
#define MAX_DEPTH 32   /* YAML nesting; a tile set needs 6 */
#define MAX_WORDS 64   /* in one list of edges, halves, terrains or borders */
#define MAX_FILE_BYTES (64u << 20)
#ifndef CARC_NO_YAML /* the YAML reader (not in the WebAssembly engine: src/wasm/tileset_image_load.c) */
#include <yaml.h>

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

/* ---- messages (tileset_yaml.c) ---- */

/* Reports a problem at bytes [off, off + len) of the file. */
void tileset_fail_at(struct loader *ld, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
	CARC_PRINTF(5, 6);
/* Reports a problem at a node: the whole of a scalar, the first character of
 * a mapping or a list; the start of the file when node is NULL. */
void tileset_fail(struct loader *ld, enum carc_code code, const yaml_node_t *node, const char *fmt, ...)
	CARC_PRINTF(4, 5);
/* Reports a problem with one word of a scalar (the 'S' of "edges: N S"). */
void tileset_fail_word(struct loader *ld, enum carc_code code, const yaml_node_t *n, const char *w, size_t wlen,
		       const char *fmt, ...) CARC_PRINTF(6, 7);

/* ---- reading nodes (tileset_yaml.c) ---- */

static inline yaml_node_t *tileset_node_at(struct loader *ld, int id)
{
	return yaml_document_get_node(&ld->doc, id);
}

static inline const char *tileset_scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static inline const char *tileset_node_shape(const yaml_node_t *n)
{
	return n->type == YAML_MAPPING_NODE ? "a mapping" : n->type == YAML_SEQUENCE_NODE ? "a list" : "a value";
}

/* Expects a scalar; reports and returns NULL otherwise. */
static inline const char *tileset_want_scalar(struct loader *ld, const yaml_node_t *n, const char *what)
{
	const char *s = tileset_scalar(n);
	if (!s)
		tileset_fail(ld, CARC_E103, n, "%s must be a single value, not %s", what, tileset_node_shape(n));
	return s;
}
bool tileset_want_int(struct loader *ld, const yaml_node_t *n, const char *what, long lo, long hi, long *out);
bool tileset_want_bool(struct loader *ld, const yaml_node_t *n, const char *what, bool *out);
/* Ids of tiles and names of kinds (CARC_ID_MAX bytes of letters, digits
 * and _ - + / ., not starting with a digit, - or +). */
bool tileset_valid_id(const char *s);
/* Keys already seen in one mapping, so that a repeated key is reported
 * (libyaml keeps both and the second would silently win). */
struct keys {
	uint32_t seen;
	const char *where; /* "in a tile", for the message */
};

/* True the first time key number bit is met in this mapping. */
static inline bool tileset_key_once(struct loader *ld, struct keys *k, int bit, const yaml_node_t *kn)
{
	if (k->seen & (1u << bit)) {
		tileset_fail(ld, CARC_E103, kn, "key '%s' is given twice %s", tileset_scalar(kn), k->where);
		return false;
	}
	k->seen |= 1u << bit;
	return true;
}
/* Splits a scalar (or a list of scalars) into words, calling fn on each.
 * Words are separated by blanks or commas: "N E", "N, E" and [N, E] are the
 * same list. At most MAX_WORDS words are taken. */
typedef void (*tileset_word_fn)(struct loader *ld, const yaml_node_t *n, const char *w, size_t len, void *arg);

void tileset_each_word(struct loader *ld, const yaml_node_t *n, const char *what, tileset_word_fn fn, void *arg);
/* The index of the word in names (count of them), or -1. */
static inline int tileset_name_index(const char *const *names, int count, const char *w, size_t len)
{
	for (int i = 0; i < count; i++)
		if (carc_slice_eq(w, len, names[i]))
			return i;
	return -1;
}
#endif /* CARC_NO_YAML */

/* Loads a tile set from text (tileset.c's carc_tileset_parse and _load);
 * trusted: a bundled set, which skips the guard against strangers' files. */
struct carc_tileset *tileset_parse_text(const char *text, size_t len, const char *name, struct carc_diag_sink *sink,
					bool trusted);

/* ---- the schema (tileset_schema.c; the known attributes: tileset.c) ---- */

#ifndef CARC_NO_YAML
/* Walks the document's root: the whole tile set, into ld->ts. */
void tileset_parse_top(struct loader *ld, yaml_node_t *root);
#endif
/* The names of enum carc_class, in its order (tileset.c). */
extern const char *const tileset_class_names[CARC_CLASS_COUNT];
/* The attributes every tile set knows, first in ts->attrs. */
void tileset_known_attrs(struct carc_tileset *ts);

/* ---- the tiles in play (tileset_play.c) ---- */

/* A new serial for a tile set loaded or whose tiles changed. */
unsigned long tileset_new_serial(void);
/* Puts in play the types of the expansions in mask and those of no
 * expansion, less the tiles the played ones replace; sets the others aside. */
void tileset_select_tiles(struct carc_tileset *ts, unsigned mask);

/* ---- the path policy (tileset_path.c) ---- */

/* The file a record's Tileset tag v names (record: the record's file),
 * under the policy of tileset.h, malloc'd; NULL, reported to sink at (src,
 * off, len), when refused or not found. */
char *tileset_resolve(const char *record, const char *v, struct carc_diag_sink *sink, const struct carc_src *src,
		      size_t off, size_t len);

#endif
