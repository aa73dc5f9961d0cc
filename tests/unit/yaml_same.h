/*
 * yaml_same.h - do a JSON report and a YAML report carry the same document?
 * For tests (header only).
 *
 * Both are loaded with libyaml (JSON is YAML's flow style) and compared node
 * by node: the same shape, the same texts, and the same types. A JSON
 * scalar's type is plain: quoted is a string, true and false booleans, null
 * null, the rest numbers. A YAML scalar's type is what a YAML 1.1 reader
 * (PyYAML, and most others) gives it: quoted is a string; a plain one is
 * typed by YAML 1.1's implicit resolvers, written out here as the
 * specification's regular expressions (booleans with y and n, null, ints in
 * every base and base 60, floats, timestamps, merge and value keys), apart
 * from carc's own quoting rule so that they cannot share a mistake.
 */
#ifndef CARC_TEST_YAML_SAME_H
#define CARC_TEST_YAML_SAME_H

#include <regex.h>
#include <stdbool.h>
#include <string.h>
#include <yaml.h>

enum yaml_same_type { YS_STRING, YS_BOOL, YS_NULL, YS_NUMBER, YS_TIMESTAMP, YS_MERGE, YS_VALUE };

/* The YAML 1.1 type of a plain scalar. */
static inline enum yaml_same_type yaml_same_plain_type(const char *v)
{
	static const struct {
		const char *re;
		enum yaml_same_type type;
	} resolvers[] = {
		{"^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$", YS_BOOL},
		{"^(~|null|Null|NULL|)$", YS_NULL},
		{"^([-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|"
		 "[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+)$",
		 YS_NUMBER},
		{"^([-+]?[0-9][0-9_]*\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9][0-9_]*([eE][-+][0-9]+)?|"
		 "[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$",
		 YS_NUMBER},
		{"^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
		 "(([Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](\\.[0-9]*)?([ \t]*(Z|[-+][0-9][0-9]?(:[0-9][0-9])?))?)?$",
		 YS_TIMESTAMP},
		{"^<<$", YS_MERGE},
		{"^=$", YS_VALUE},
	};
	enum { N = sizeof resolvers / sizeof resolvers[0] };
	static regex_t compiled[N];
	static bool ready;
	if (!ready) {
		for (int i = 0; i < N; i++)
			if (regcomp(&compiled[i], resolvers[i].re, REG_EXTENDED | REG_NOSUB))
				return YS_STRING; /* (cannot happen: the patterns are fixed) */
		ready = true;
	}
	for (int i = 0; i < N; i++)
		if (!regexec(&compiled[i], v, 0, NULL, 0))
			return resolvers[i].type;
	return YS_STRING;
}

static inline enum yaml_same_type yaml_same_json_type(const yaml_node_t *n)
{
	const char *v = (const char *)n->data.scalar.value;
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return YS_STRING;
	if (!strcmp(v, "true") || !strcmp(v, "false"))
		return YS_BOOL;
	return !strcmp(v, "null") ? YS_NULL : YS_NUMBER;
}

static inline enum yaml_same_type yaml_same_yaml_type(const yaml_node_t *n)
{
	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return YS_STRING;
	return yaml_same_plain_type((const char *)n->data.scalar.value);
}

/* Whether node x of the JSON document a and node y of the YAML document b
 * are the same tree; when not, *why says where (a scalar's text). */
static inline bool yaml_same(yaml_document_t *a, yaml_node_t *x, yaml_document_t *b, yaml_node_t *y,
			     const char **why)
{
	if (x->type != y->type) {
		*why = "a node of another kind";
		return false;
	}
	switch (x->type) {
	case YAML_SCALAR_NODE:
		if (x->data.scalar.length != y->data.scalar.length ||
		    memcmp(x->data.scalar.value, y->data.scalar.value, x->data.scalar.length)) {
			*why = (const char *)x->data.scalar.value;
			return false;
		}
		if (yaml_same_json_type(x) != yaml_same_yaml_type(y)) {
			*why = (const char *)x->data.scalar.value;
			return false;
		}
		return true;
	case YAML_SEQUENCE_NODE: {
		long n = x->data.sequence.items.top - x->data.sequence.items.start;
		if (n != y->data.sequence.items.top - y->data.sequence.items.start) {
			*why = "a list of another length";
			return false;
		}
		for (long i = 0; i < n; i++)
			if (!yaml_same(a, yaml_document_get_node(a, x->data.sequence.items.start[i]), b,
				       yaml_document_get_node(b, y->data.sequence.items.start[i]), why))
				return false;
		return true;
	}
	case YAML_MAPPING_NODE: {
		long n = x->data.mapping.pairs.top - x->data.mapping.pairs.start;
		if (n != y->data.mapping.pairs.top - y->data.mapping.pairs.start) {
			*why = "a mapping of another size";
			return false;
		}
		for (long i = 0; i < n; i++) {
			yaml_node_pair_t *p = &x->data.mapping.pairs.start[i], *q = &y->data.mapping.pairs.start[i];
			if (!yaml_same(a, yaml_document_get_node(a, p->key), b, yaml_document_get_node(b, q->key), why) ||
			    !yaml_same(a, yaml_document_get_node(a, p->value), b, yaml_document_get_node(b, q->value), why))
				return false;
		}
		return true;
	}
	default:
		return true;
	}
}

#endif
