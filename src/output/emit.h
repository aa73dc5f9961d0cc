/*
 * emit.h - one document, two syntaxes: the reports of carc score (and any
 * other structured output) are written once against this interface and come
 * out as JSON (compact, one document per line) or as YAML (through libyaml's
 * emitter, one document per game), so both always carry the same data.
 *
 * The JSON paths of the calls a report makes most (keys, numbers, colours,
 * brackets) are inline: a report is mostly those, and each is a few stores
 * into the document's buffer. Keys are made once, with their quotes and
 * colon (struct carc_key); a flag, not the bytes written, says whether a
 * comma goes before the next element.
 */
#ifndef CARC_EMIT_H
#define CARC_EMIT_H

#include "common/decimal.h"
#include "common/util.h"

#include <stdio.h>

struct yaml_emitter_s;

enum { CARC_EMIT_BATCH = 1 << 16 };

/* (its fields are for the inline calls below, and emit.c) */
struct carc_emitter {
	bool yaml;
	bool after_key;   /* JSON: a key was written; its value comes next */
	bool first;       /* JSON: nothing written yet in the innermost open container */
	bool failed;
	bool batch;       /* JSON: documents are kept until CARC_EMIT_BATCH bytes */
	struct carc_buf buf; /* JSON: the documents not yet written */
	FILE *out;
	struct yaml_emitter_s *ye;
};

/* out NULL: into memory, a buffer of the caller's (a thread of carc score
 * -j N writes its games so): after carc_emitter_into(e, to) the documents
 * are added to `to`, which carc_emitter_back(e, to) hands back once they
 * have ended (with nothing of them kept in the emitter: no copy is made). */
struct carc_emitter *carc_emitter_json(FILE *out);
struct carc_emitter *carc_emitter_yaml(FILE *out);
void carc_emitter_into(struct carc_emitter *e, struct carc_buf *to);
void carc_emitter_back(struct carc_emitter *e, struct carc_buf *to);
/* Finishes the stream (YAML) and frees the emitter. false on a write error. */
bool carc_emitter_close(struct carc_emitter *e);

/* A key made once: its JSON text ("key": with its quotes and colon, then
 * zeros to 32 bytes, so that it is copied whole), and the key's length.
 * The compiler makes one for a literal: CARC_KEY("turns"); carc_key_make
 * one for a name known when running (a colour's). As a string value
 * (carc_emit_strk) it is "key". */
struct carc_key {
	char json[32];
	size_t len;
};
#define CARC_KEY(lit) (&(const struct carc_key){"\"" lit "\":", sizeof(lit) - 1})
/* false (and k unusable) if text needs escaping in JSON or is too long. */
bool carc_key_make(struct carc_key *k, const char *text);

void carc_emit_doc_begin(struct carc_emitter *e);
void carc_emit_doc_end(struct carc_emitter *e);
void carc_emit_keyn(struct carc_emitter *e, const char *key, size_t n);
void carc_emit_strn(struct carc_emitter *e, const char *s, size_t n);
/* (inline, so that the length of a literal is known when compiling) */
static inline void carc_emit_key(struct carc_emitter *e, const char *key) { carc_emit_keyn(e, key, strlen(key)); }
static inline void carc_emit_str(struct carc_emitter *e, const char *s) { carc_emit_strn(e, s, strlen(s)); }

/* the YAML halves of the inline calls */
void carc_emit_yaml_open(struct carc_emitter *e, bool map);
void carc_emit_yaml_close(struct carc_emitter *e, bool map);
void carc_emit_yaml_plain(struct carc_emitter *e, const char *s, size_t n); /* a number, true, null */
void carc_emit_yaml_text(struct carc_emitter *e, const char *s, size_t n);  /* a key or a string */

/* JSON: room for n bytes and the comma before them; where to write them. */
static inline char *carc_emit_json_room(struct carc_emitter *e, size_t n)
{
	carc_buf_reserve(&e->buf, n + 1);
	char *d = e->buf.data + e->buf.len;
	*d = ','; /* (kept only when needed: a store, not a branch on data) */
	d += !(e->after_key | e->first);
	e->after_key = false;
	e->first = false;
	return d;
}

/* JSON: room for n bytes with no comma before them (what closes a
 * container, or goes on from what was written); where to write them. */
static inline char *carc_emit_json_tail(struct carc_emitter *e, size_t n)
{
	carc_buf_reserve(&e->buf, n);
	return e->buf.data + e->buf.len;
}

/* JSON: the element written ends at d. */
static inline void carc_emit_json_done(struct carc_emitter *e, char *d)
{
	*d = '\0';
	e->buf.len = (size_t)(d - e->buf.data);
}

static inline void carc_emit_open(struct carc_emitter *e, bool map)
{
	if (e->yaml) {
		carc_emit_yaml_open(e, map);
		return;
	}
	char *d = carc_emit_json_room(e, 1);
	*d++ = map ? '{' : '[';
	carc_emit_json_done(e, d);
	e->first = true;
}

static inline void carc_emit_close(struct carc_emitter *e, bool map)
{
	if (e->yaml) {
		carc_emit_yaml_close(e, map);
		return;
	}
	char *d = carc_emit_json_tail(e, 1);
	*d++ = map ? '}' : ']';
	carc_emit_json_done(e, d);
	e->first = false; /* the parent holds at least what just closed */
}

static inline void carc_emit_map_begin(struct carc_emitter *e) { carc_emit_open(e, true); }
static inline void carc_emit_map_end(struct carc_emitter *e) { carc_emit_close(e, true); }
static inline void carc_emit_seq_begin(struct carc_emitter *e) { carc_emit_open(e, false); }
static inline void carc_emit_seq_end(struct carc_emitter *e) { carc_emit_close(e, false); }

/* k as a key ("red":) or as a string value ("red"). */
static inline void carc_emit_k(struct carc_emitter *e, const struct carc_key *k, bool as_key)
{
	if (e->yaml) {
		carc_emit_yaml_text(e, k->json + 1, k->len);
		return;
	}
	char *d = carc_emit_json_room(e, sizeof k->json);
	memcpy(d, k->json, sizeof k->json);
	carc_emit_json_done(e, d + k->len + 2 + as_key);
	e->after_key = as_key;
}

/* JSON pieces for a writer that writes several elements at once between
 * carc_emit_json_room (or _tail) and carc_emit_json_done: a literal's
 * text, and a key's ("red": or "red"); each returns the piece's end. */
#define CARC_JSON_LIT(d, lit) carc_json_put((d), (lit), sizeof(lit) - 1)
static inline char *carc_json_put(char *d, const char *s, size_t n)
{
	memcpy(d, s, n);
	return d + n;
}
static inline char *carc_json_k(char *d, const struct carc_key *k, bool as_key)
{
	memcpy(d, k->json, sizeof k->json);
	return d + k->len + 2 + as_key;
}

static inline void carc_emit_keyk(struct carc_emitter *e, const struct carc_key *k) { carc_emit_k(e, k, true); }
static inline void carc_emit_strk(struct carc_emitter *e, const struct carc_key *k) { carc_emit_k(e, k, false); }

static inline void carc_emit_int(struct carc_emitter *e, long v)
{
	if (e->yaml) {
		char num[CARC_DECIMAL_MAX];
		char *p = carc_decimal(num + sizeof num, v);
		carc_emit_yaml_plain(e, p, (size_t)(num + sizeof num - p));
		return;
	}
	char *d = carc_emit_json_room(e, CARC_DECIMAL_MAX);
	carc_emit_json_done(e, carc_decimal_put(d, v));
}

/* A key and its value in one step (the same as carc_emit_keyk, then
 * carc_emit_int or carc_emit_strk). */
static inline void carc_emit_key_int(struct carc_emitter *e, const struct carc_key *k, long v)
{
	if (e->yaml) {
		carc_emit_keyk(e, k);
		carc_emit_int(e, v);
		return;
	}
	char *d = carc_emit_json_room(e, sizeof k->json + CARC_DECIMAL_MAX);
	memcpy(d, k->json, sizeof k->json);
	carc_emit_json_done(e, carc_decimal_put(d + k->len + 3, v));
}

static inline void carc_emit_key_strk(struct carc_emitter *e, const struct carc_key *k, const struct carc_key *v)
{
	if (e->yaml) {
		carc_emit_keyk(e, k);
		carc_emit_strk(e, v);
		return;
	}
	char *d = carc_emit_json_room(e, 2 * sizeof k->json);
	memcpy(d, k->json, sizeof k->json);
	d += k->len + 3;
	memcpy(d, v->json, sizeof v->json);
	carc_emit_json_done(e, d + v->len + 2);
}

static inline void carc_emit_bool(struct carc_emitter *e, bool v)
{
	if (e->yaml) {
		carc_emit_yaml_plain(e, v ? "true" : "false", v ? 4 : 5);
		return;
	}
	char *d = carc_emit_json_room(e, 8);
	memcpy(d, v ? "true\0\0\0" : "false\0\0", 8);
	carc_emit_json_done(e, d + (v ? 4 : 5));
}

static inline void carc_emit_null(struct carc_emitter *e)
{
	if (e->yaml) {
		carc_emit_yaml_plain(e, "null", 4);
		return;
	}
	char *d = carc_emit_json_room(e, 4);
	memcpy(d, "null", 4);
	carc_emit_json_done(e, d + 4);
}

#endif
