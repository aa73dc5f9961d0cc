/*
 * emit.h - one document, two syntaxes: the reports of carc score (and any
 * other structured output) are written once against this interface and come
 * out as JSON (compact, one document per line) or as YAML (through libyaml's
 * emitter, one document per game), so both always carry the same data.
 */
#ifndef CARC_EMIT_H
#define CARC_EMIT_H

#include "common/util.h"

#include <stdio.h>

struct carc_emitter;

struct carc_emitter *carc_emitter_json(FILE *out);
struct carc_emitter *carc_emitter_yaml(FILE *out);
/* Finishes the stream (YAML) and frees the emitter. false on a write error. */
bool carc_emitter_close(struct carc_emitter *e);

void carc_emit_doc_begin(struct carc_emitter *e);
void carc_emit_doc_end(struct carc_emitter *e);
void carc_emit_map_begin(struct carc_emitter *e);
void carc_emit_map_end(struct carc_emitter *e);
void carc_emit_seq_begin(struct carc_emitter *e);
void carc_emit_seq_end(struct carc_emitter *e);
void carc_emit_keyn(struct carc_emitter *e, const char *key, size_t n);
void carc_emit_strn(struct carc_emitter *e, const char *s, size_t n);
/* (inline, so that the length of a literal is known when compiling) */
static inline void carc_emit_key(struct carc_emitter *e, const char *key) { carc_emit_keyn(e, key, strlen(key)); }
static inline void carc_emit_str(struct carc_emitter *e, const char *s) { carc_emit_strn(e, s, strlen(s)); }
/* A key whose JSON text ("key":, quotes and colon) is made once: by the
 * compiler for a literal (CARC_KEY("turns")), or by carc_key_make for a
 * name known when running (a colour's). Writing one is a copy. */
struct carc_key {
	const char *json;
	size_t json_len;
	const char *text; /* the key itself, for YAML */
	size_t len;
};
#define CARC_KEY(lit) (&(const struct carc_key){"\"" lit "\":", sizeof(lit) + 2, lit, sizeof(lit) - 1})
void carc_emit_keyk(struct carc_emitter *e, const struct carc_key *k);
/* k's text as a string value ("red" of "red":). */
void carc_emit_strk(struct carc_emitter *e, const struct carc_key *k);
/* k for text, written into store (size bytes); false if text needs escaping
 * in JSON or does not fit (then use carc_emit_key). */
bool carc_key_make(struct carc_key *k, char *store, size_t size, const char *text);
void carc_emit_int(struct carc_emitter *e, long v);
void carc_emit_bool(struct carc_emitter *e, bool v);
void carc_emit_null(struct carc_emitter *e);

#endif
