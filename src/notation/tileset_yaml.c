/*
 * tileset_yaml.c - the loader of a tile set: the bytes and the YAML, the
 * positions of its messages, and reading its nodes.
 *
 * Loading goes in three steps, each of which can refuse the file with a
 * positioned message:
 *   1. the bytes: a tile set is UTF-8 text (no NUL bytes, no malformed
 *      sequences), so that binary garbage gets one clear message;
 *   2. the YAML: a first pass over libyaml's events checks that the text is
 *      one well-formed document nested no deeper than any tile set needs (a
 *      guard: libyaml slows down quadratically on very deep nesting), then
 *      the document is loaded as a node tree;
 *   3. the schema (tileset_schema.c): the tree is walked key by key. Every
 *      problem is reported with the position of the node it concerns and
 *      the walk goes on, so one run shows all of them (up to MAX_ERRORS);
 *      the tile set is returned only when there were none.
 *
 * Positions: libyaml counts marks in characters, not bytes, so a mark's line
 * and column are turned into a byte offset here (mark_offset) before they are
 * handed to the diagnostics, which count bytes.
 */
#include "notation/tileset_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

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

void tileset_fail_at(struct loader *ld, enum carc_code code, size_t off, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(ld, code, off, len, fmt, ap);
	va_end(ap);
}

/* Reports a problem at a node: the whole of a scalar, the first character of
 * a mapping or a list; the start of the file when node is NULL. */
void tileset_fail(struct loader *ld, enum carc_code code, const yaml_node_t *node, const char *fmt, ...)
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
void tileset_fail_word(struct loader *ld, enum carc_code code, const yaml_node_t *n, const char *w, size_t wlen,
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

bool tileset_want_int(struct loader *ld, const yaml_node_t *n, const char *what, long lo, long hi, long *out)
{
	const char *s = tileset_want_scalar(ld, n, what);
	if (!s)
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *s == ' ' || *end != '\0' || errno || v < lo || v > hi) {
		tileset_fail(ld, CARC_E103, n, "%s must be a whole number from %ld to %ld, not '%s'", what, lo, hi, s);
		return false;
	}
	*out = v;
	return true;
}

bool tileset_want_bool(struct loader *ld, const yaml_node_t *n, const char *what, bool *out)
{
	const char *s = tileset_want_scalar(ld, n, what);
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
	tileset_fail(ld, CARC_E103, n, "%s must be true or false, not '%s'", what, s);
	return false;
}

/* Ids of tiles and names of kinds: letters, digits and _ - + / ., at most
 * CARC_ID_MAX bytes, not starting with a digit, - or +. Such a word cannot
 * be mistaken for a coordinate, a rotation or a number in a record. */
bool tileset_valid_id(const char *s)
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

void tileset_each_word(struct loader *ld, const yaml_node_t *n, const char *what, tileset_word_fn fn, void *arg)
{
	int words = 0;
	if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
			yaml_node_t *item = tileset_node_at(ld, *it);
			const char *s = tileset_want_scalar(ld, item, what);
			if (!s)
				continue;
			if (++words > MAX_WORDS) {
				tileset_fail(ld, CARC_E109, item, "%s lists more than %d words", what, MAX_WORDS);
				return;
			}
			fn(ld, item, s, strlen(s), arg);
		}
		return;
	}
	if (n->type == YAML_MAPPING_NODE) {
		tileset_fail(ld, CARC_E103, n, "%s must be words such as N E, or a list such as [N, E], not a mapping", what);
		return;
	}
	const char *s = tileset_scalar(n);
	while (*s) {
		while (*s == ' ' || *s == ',' || *s == '\t')
			s++;
		size_t len = strcspn(s, " ,\t");
		if (len) {
			if (++words > MAX_WORDS) {
				tileset_fail_word(ld, CARC_E109, n, s, len, "%s lists more than %d words", what, MAX_WORDS);
				return;
			}
			fn(ld, n, s, len, arg);
		}
		s += len;
	}
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
			tileset_fail_at(ld, CARC_E102, i, 1, "this is not a text file: a NUL byte at offset %zu; a tile set is YAML "
				"text in UTF-8", i);
			return false;
		}
		if (c < 0x80)
			continue;
		size_t w = carc_utf8_len(s + i, n - i);
		if (!w) {
			tileset_fail_at(ld, CARC_E102, i, 1, "this is not a UTF-8 text file: byte 0x%02x at offset %zu is not UTF-8; "
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
		tileset_fail_at(ld, CARC_E102, 0, 0, "out of memory while reading the YAML");
		return;
	}
	size_t off = p->error == YAML_READER_ERROR ? p->problem_offset : mark_offset(ld, p->problem_mark);
	const char *problem = p->problem ? p->problem : "malformed YAML";
	const char *hint = strstr(problem, "tab") ? "; YAML indents with spaces, never tabs"
			   : off >= ld->src.len ? "; the file ends here: is it cut short?" : "";
	if (p->context && p->context_mark.line != p->problem_mark.line)
		tileset_fail_at(ld, CARC_E102, off, 1, "%s (%s that starts on line %lu)%s", problem, p->context,
			(unsigned long)p->context_mark.line + 1, hint);
	else if (p->context)
		tileset_fail_at(ld, CARC_E102, off, 1, "%s %s%s", problem, p->context, hint);
	else
		tileset_fail_at(ld, CARC_E102, off, 1, "%s%s", problem, hint);
}

/* The first pass: the events of the whole stream, to refuse a second
 * document, aliases, nesting deeper than MAX_DEPTH and more than MAX_NODES
 * nodes before the tree is built. The parser holds one event at a time, so
 * this pass costs no more memory than the longest token. */
static bool check_yaml(struct loader *ld)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		tileset_fail_at(ld, CARC_E102, 0, 0, "cannot start the YAML parser");
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
			tileset_fail_at(ld, CARC_E109, mark_offset(ld, ev.start_mark), 1,
				"more than %d YAML values (scalars, lists and mappings) in one tile set", MAX_NODES);
			ok = false;
		}
		switch (ok ? ev.type : YAML_NO_EVENT) {
		case YAML_ALIAS_EVENT:
			/* a tile set needs none, and a tree of aliases can stand for
			 * exponentially many nodes */
			tileset_fail_at(ld, CARC_E102, mark_offset(ld, ev.start_mark), 1,
				"a YAML alias (*name) is not taken in a tile set: write the value out");
			ok = false;
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > MAX_DEPTH) {
				tileset_fail_at(ld, CARC_E102, mark_offset(ld, ev.start_mark), 1,
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
				tileset_fail_at(ld, CARC_E102, mark_offset(ld, ev.start_mark), 1,
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
struct carc_tileset *tileset_parse_text(const char *text, size_t len, const char *name, struct carc_diag_sink *sink,
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
		tileset_fail_at(&ld, CARC_E102, 0, 0, "cannot start the YAML parser");
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
	ld.ts->serial = tileset_new_serial();
	ld.ts->source = xstrndup(text, len);
	ld.ts->source_len = len;
	tileset_parse_top(&ld, yaml_document_get_root_node(&ld.doc));
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
	return tileset_parse_text(text, len, name, sink, false);
}
