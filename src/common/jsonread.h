/*
 * jsonread.h - reading JSON from strangers: strict RFC 8259, bounded, located.
 *
 * The text is first scanned by carc itself, in one linear pass that accepts
 * exactly RFC 8259 (no comments, no trailing commas, no NaN or Infinity, no
 * leading zeros, no single quotes, no lone surrogates, well-formed UTF-8
 * only) and stops at the first byte past a cap, so that 100,000 nested '['
 * or a file of 64 MiB is answered at once. Only then does jansson build the
 * tree, with duplicate keys refused. Every problem is reported to a
 * diagnostic sink with the byte offset of the offending token, so messages
 * carry line and column.
 *
 * jansson keeps no positions, so the reader keeps them beside the tree: the
 * scan records where each value and each object key starts, in text order,
 * and a walk over the tree in the same (pre-)order pairs them with the nodes.
 * An importer can then report a problem at the value it found wrong.
 *
 * Caps (each refused with a message at the byte where it is exceeded):
 *   CARC_JSON_MAX_BYTES   64 MiB of text
 *   CARC_JSON_MAX_DEPTH   64 nested arrays and objects
 *   CARC_JSON_MAX_TOKENS  1,048,576 values and keys (so that the tree, some
 *                         100 bytes a value, stays near 100 MB at worst)
 * A string holding U+0000 (\u0000) is refused too: nothing carc writes can
 * hold a NUL, and a name cut at one would be silently wrong.
 */
#ifndef CARC_JSONREAD_H
#define CARC_JSONREAD_H

#include "common/diag.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define CARC_JSON_MAX_BYTES (64u << 20)
#define CARC_JSON_MAX_DEPTH 64
#define CARC_JSON_MAX_TOKENS (1u << 20)

/* Where a value or a key is in the text: its first byte and its length (the
 * whole token for a string, number or literal; the bracket for an array or
 * an object). */
struct carc_json_span {
	size_t off;
	size_t len;
};

struct carc_json_doc;

/* Reads the text of src (a UTF-8 byte-order mark is skipped) as one JSON
 * value. Returns NULL after reporting the first problem to sink with code,
 * at its position. */
struct carc_json_doc *carc_json_read(const struct carc_src *src, enum carc_code code,
				     struct carc_diag_sink *sink);
void carc_json_free(struct carc_json_doc *doc);

json_t *carc_json_root(const struct carc_json_doc *doc);

/* Where v is. jansson shares one node for each of true, false and null, so
 * those (unless they are the root) are found only through their container:
 * use the two functions below. False when v is not a node of doc, or is one
 * of the shared ones. */
bool carc_json_where(const struct carc_json_doc *doc, const json_t *v, struct carc_json_span *at);
/* Where member key of object obj is: its key and its value (either may be
 * NULL). False when obj has no such member. */
bool carc_json_member_where(const struct carc_json_doc *doc, const json_t *obj, const char *key,
			    struct carc_json_span *key_at, struct carc_json_span *value_at);
/* Where item i of array arr is. False when there is no such item. */
bool carc_json_item_where(const struct carc_json_doc *doc, const json_t *arr, size_t i,
			  struct carc_json_span *at);

/* The name of v's type for messages: "a string", "an object", "true or
 * false", ... */
const char *carc_json_type_name(const json_t *v);

#endif
