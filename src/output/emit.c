/*
 * emit.c - the JSON and YAML emitters behind emit.h.
 *
 * JSON is written by hand into a buffer (escaping in json.c) and handed to
 * the stream when a document ends and the buffer holds CARC_EMIT_BATCH
 * bytes or more (at each document's end on a terminal): a document is a
 * few kilobytes, and a write of each cost more than writing it. YAML goes through libyaml's event emitter; a
 * string that would read back as another type (a number, true, null, ...)
 * is double-quoted so that the YAML document has the same types as the JSON.
 */
#include "output/emit.h"

#include "common/decimal.h"
#include "common/diag.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

static int yaml_write(void *data, unsigned char *buffer, size_t size)
{
	struct carc_emitter *e = data;
	if (!e->out) { /* into memory (carc_emitter_take) */
		carc_buf_add(&e->buf, (const char *)buffer, size);
		return 1;
	}
	return fwrite(buffer, 1, size, e->out) == size;
}

struct carc_emitter *carc_emitter_json(FILE *out)
{
	struct carc_emitter *e = xcalloc(1, sizeof *e);
	e->out = out;
	e->batch = !out || !isatty(fileno(out)); /* (a terminal sees each document when done) */
	return e;
}

/* JSON: hands the documents written so far to the stream. */
static void json_flush(struct carc_emitter *e)
{
	if (!e->out) /* into memory: kept for carc_emitter_take */
		return;
	if (e->buf.len && fwrite(e->buf.data, 1, e->buf.len, e->out) != e->buf.len)
		e->failed = true;
	carc_buf_reset(&e->buf);
}

struct carc_emitter *carc_emitter_yaml(FILE *out)
{
	struct carc_emitter *e = xcalloc(1, sizeof *e);
	e->yaml = true;
	e->out = out;
	e->ye = xcalloc(1, sizeof *e->ye);
	yaml_emitter_initialize(e->ye);
	yaml_emitter_set_output(e->ye, yaml_write, e);
	yaml_emitter_set_unicode(e->ye, 1);
	yaml_emitter_set_width(e->ye, 120);
	yaml_event_t ev;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	if (!yaml_emitter_emit(e->ye, &ev))
		e->failed = true;
	return e;
}

/* Hands the event to libyaml, which owns it from then on; once the emitter
 * has failed, the event is freed here instead. */
static void yemit(struct carc_emitter *e, yaml_event_t *ev)
{
	if (e->failed)
		yaml_event_delete(ev);
	else if (!yaml_emitter_emit(e->ye, ev))
		e->failed = true;
}

bool carc_emitter_close(struct carc_emitter *e)
{
	bool ok;
	if (e->yaml) {
		yaml_event_t ev;
		yaml_stream_end_event_initialize(&ev);
		yemit(e, &ev);
		yaml_emitter_flush(e->ye);
		yaml_emitter_delete(e->ye);
		free(e->ye);
	} else {
		json_flush(e);
	}
	ok = !e->failed && (!e->out || !ferror(e->out));
	carc_buf_free(&e->buf);
	free(e);
	return ok;
}

void carc_emitter_into(struct carc_emitter *e, struct carc_buf *to)
{
	struct carc_buf own = e->buf;
	e->buf = *to;
	*to = own;
}

void carc_emitter_back(struct carc_emitter *e, struct carc_buf *to)
{
	if (e->yaml && !e->failed && !yaml_emitter_flush(e->ye))
		e->failed = true;
	carc_emitter_into(e, to);
}

/* JSON: a comma before every element but its container's first. One flag
 * (e->first) is enough for any depth: opening a container makes its first
 * element next, and closing one leaves its parent with at least one
 * element, so after a close the next element is never its parent's first. */
static inline void json_sep(struct carc_emitter *e)
{
	carc_emit_json_done(e, carc_emit_json_room(e, 0));
}

void carc_emit_doc_begin(struct carc_emitter *e)
{
	if (e->yaml) {
		yaml_event_t ev;
		yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
		yemit(e, &ev);
		return;
	}
	e->after_key = false;
	e->first = true;
}

void carc_emit_doc_end(struct carc_emitter *e)
{
	if (e->yaml) {
		yaml_event_t ev;
		yaml_document_end_event_initialize(&ev, 1);
		yemit(e, &ev);
		return;
	}
	carc_buf_addc(&e->buf, '\n');
	if (!e->batch || e->buf.len >= CARC_EMIT_BATCH)
		json_flush(e);
}

void carc_emit_yaml_open(struct carc_emitter *e, bool map)
{
	yaml_event_t ev;
	if (map)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	yemit(e, &ev);
}

void carc_emit_yaml_close(struct carc_emitter *e, bool map)
{
	yaml_event_t ev;
	if (map)
		yaml_mapping_end_event_initialize(&ev);
	else
		yaml_sequence_end_event_initialize(&ev);
	yemit(e, &ev);
}

/* The length of the character at s[i] (n bytes in all) if it is one libyaml
 * writes: ASCII, a C1 control (which it escapes) or any other well-formed
 * UTF-8; 0 for a byte that is not, which would stop the emitter. */
static size_t yaml_char_len(const char *s, size_t i, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	if (p[i] < 0x80)
		return 1;
	if (p[i] == 0xC2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9F)
		return 2;
	return carc_utf8_len(s + i, n - i);
}

static void yaml_scalar(struct carc_emitter *e, const char *s, size_t n, bool quoted)
{
	/* a text that is not UTF-8 (a file name from the command line, say)
	 * has U+FFFD for each byte that is not, as the JSON has (json.c) */
	struct carc_buf fixed = {0};
	size_t i = 0, k;
	while (i < n && (k = yaml_char_len(s, i, n)))
		i += k;
	if (i < n) {
		carc_buf_add(&fixed, s, i);
		while (i < n) {
			k = yaml_char_len(s, i, n);
			if (k)
				carc_buf_add(&fixed, s + i, k);
			else
				carc_buf_adds(&fixed, "\xef\xbf\xbd");
			i += k ? k : 1;
		}
		s = carc_buf_cstr(&fixed);
		n = fixed.len;
	}
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)n, !quoted, 1,
				     quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
	yemit(e, &ev);
	carc_buf_free(&fixed);
}

static bool looks_typed(const char *s, size_t n);

void carc_emit_keyn(struct carc_emitter *e, const char *key, size_t n)
{
	if (e->yaml) {
		yaml_scalar(e, key, n, looks_typed(key, n));
		return;
	}
	json_sep(e);
	carc_json_string(&e->buf, key, n);
	carc_buf_addc(&e->buf, ':');
	e->after_key = true;
}

bool carc_key_make(struct carc_key *k, const char *text)
{
	size_t n = strlen(text);
	if (n + 3 > sizeof k->json)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f)
			return false;
	}
	memset(k->json, 0, sizeof k->json);
	k->json[0] = '"';
	memcpy(k->json + 1, text, n);
	memcpy(k->json + 1 + n, "\":", 2);
	k->len = n;
	return true;
}

void carc_emit_yaml_text(struct carc_emitter *e, const char *s, size_t n)
{
	yaml_scalar(e, s, n, looks_typed(s, n));
}

void carc_emit_yaml_plain(struct carc_emitter *e, const char *s, size_t n)
{
	yaml_scalar(e, s, n, false);
}

/* Would a plain YAML scalar with this text read back as something other
 * than a string? Under YAML 1.1 (PyYAML and most loaders) as under 1.2,
 * only a text that begins with a digit, a sign, a dot, '~', '<' (the
 * merge key <<) or '=' (the value key), or that is a word of the booleans
 * or of null, resolves to another type: numbers in every base and form,
 * dates and times, infinities, NaN. Those are double-quoted; a few
 * strings that would have read back as strings anyway ("../x.cgn") are
 * too, which changes nothing for a reader. */
static bool looks_typed(const char *s, size_t n)
{
	static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"};
	if (n == 0 || memchr("0123456789+-.~<=", s[0], 16))
		return true;
	for (size_t i = 0; i < CARC_ARRAY_LEN(words); i++)
		if (carc_slice_ieq(s, n, words[i]))
			return true;
	return false;
}

void carc_emit_strn(struct carc_emitter *e, const char *s, size_t n)
{
	if (e->yaml) {
		yaml_scalar(e, s, n, looks_typed(s, n));
		return;
	}
	json_sep(e);
	carc_json_string(&e->buf, s, n);
}
