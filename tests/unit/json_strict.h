/*
 * json_strict.h - a strict checker of JSON text, for tests (header only).
 *
 * Written apart from carc's own JSON writer and UTF-8 check, so that it
 * cannot share their mistakes. It follows RFC 8259 to the letter and adds
 * what carc's reports promise besides: text that is valid UTF-8 (no
 * overlong forms, no surrogates, nothing past U+10FFFF), escapes of
 * surrogates only in pairs, and no key twice in one object (compared as
 * written: carc writes a key one way only).
 *
 *   json_strict_check(text, len, &at)   one value, blanks around it allowed
 *   json_strict_lines(text, len, &at)   JSON Lines: one value per line, each
 *                                       line ended by a newline
 *
 * Each returns NULL when the text is valid, else what is wrong, with *at
 * the offset where it was found.
 */
#ifndef CARC_TEST_JSON_STRICT_H
#define CARC_TEST_JSON_STRICT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct json_strict {
	const unsigned char *s;
	size_t n, i;
	const char *err;
	int depth;
};

enum { JSON_STRICT_MAX_DEPTH = 512 };

static inline bool json_strict_fail(struct json_strict *j, const char *why)
{
	if (!j->err)
		j->err = why;
	return false;
}

static inline void json_strict_blanks(struct json_strict *j)
{
	while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r'))
		j->i++;
}

static inline bool json_strict_word(struct json_strict *j, const char *w)
{
	size_t len = strlen(w);
	if (j->n - j->i < len || memcmp(j->s + j->i, w, len))
		return json_strict_fail(j, "not a value");
	j->i += len;
	return true;
}

/* One UTF-8 character of 2 to 4 bytes at j->i (its first byte >= 0x80). */
static inline bool json_strict_utf8(struct json_strict *j)
{
	const unsigned char *p = j->s + j->i;
	size_t left = j->n - j->i, len;
	unsigned long cp;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		len = 2, cp = p[0] & 0x1Fu;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF)
		len = 3, cp = p[0] & 0x0Fu;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		len = 4, cp = p[0] & 0x07u;
	else
		return json_strict_fail(j, "a byte that starts no UTF-8 character");
	if (left < len)
		return json_strict_fail(j, "a UTF-8 character cut short");
	for (size_t k = 1; k < len; k++) {
		if ((p[k] & 0xC0) != 0x80)
			return json_strict_fail(j, "a UTF-8 character cut short");
		cp = cp << 6 | (p[k] & 0x3Fu);
	}
	static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (cp < least[len])
		return json_strict_fail(j, "an overlong UTF-8 form");
	if (cp >= 0xD800 && cp <= 0xDFFF)
		return json_strict_fail(j, "a surrogate in UTF-8");
	if (cp > 0x10FFFF)
		return json_strict_fail(j, "a code point past U+10FFFF");
	j->i += len;
	return true;
}

/* Four hex digits at j->i, as a number; -1 when they are not. */
static inline long json_strict_hex4(struct json_strict *j)
{
	if (j->n - j->i < 4)
		return -1;
	long v = 0;
	for (int k = 0; k < 4; k++) {
		unsigned char c = j->s[j->i + (size_t)k];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	j->i += 4;
	return v;
}

static inline bool json_strict_string(struct json_strict *j)
{
	j->i++; /* the opening quote */
	for (;;) {
		if (j->i >= j->n)
			return json_strict_fail(j, "a string without its closing quote");
		unsigned char c = j->s[j->i];
		if (c == '"') {
			j->i++;
			return true;
		}
		if (c < 0x20)
			return json_strict_fail(j, "a control character in a string");
		if (c >= 0x80) {
			if (!json_strict_utf8(j))
				return false;
			continue;
		}
		if (c != '\\') {
			j->i++;
			continue;
		}
		j->i++;
		if (j->i >= j->n)
			return json_strict_fail(j, "a string without its closing quote");
		c = j->s[j->i++];
		if (strchr("\"\\/bfnrt", c) && c)
			continue;
		if (c != 'u')
			return json_strict_fail(j, "an unknown escape");
		long u = json_strict_hex4(j);
		if (u < 0)
			return json_strict_fail(j, "\\u without four hex digits");
		if (u >= 0xDC00 && u <= 0xDFFF)
			return json_strict_fail(j, "a low surrogate escape on its own");
		if (u >= 0xD800 && u <= 0xDBFF) {
			if (j->n - j->i < 2 || j->s[j->i] != '\\' || j->s[j->i + 1] != 'u')
				return json_strict_fail(j, "a high surrogate escape on its own");
			j->i += 2;
			long low = json_strict_hex4(j);
			if (low < 0xDC00 || low > 0xDFFF)
				return json_strict_fail(j, "a high surrogate escape on its own");
		}
	}
}

static inline bool json_strict_digits(struct json_strict *j)
{
	size_t from = j->i;
	while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
		j->i++;
	return j->i > from || json_strict_fail(j, "a number without digits");
}

static inline bool json_strict_number(struct json_strict *j)
{
	if (j->s[j->i] == '-')
		j->i++;
	if (j->i < j->n && j->s[j->i] == '0') {
		j->i++;
		if (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
			return json_strict_fail(j, "a number with a leading zero");
	} else if (!json_strict_digits(j)) {
		return false;
	}
	if (j->i < j->n && j->s[j->i] == '.') {
		j->i++;
		if (!json_strict_digits(j))
			return false;
	}
	if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
		j->i++;
		if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-'))
			j->i++;
		if (!json_strict_digits(j))
			return false;
	}
	return true;
}

static inline bool json_strict_value(struct json_strict *j);

/* An object's keys so far, as written (offsets of the quoted texts), to find
 * one given twice. */
struct json_strict_keys {
	size_t from[256], len[256];
	size_t count;
};

static inline bool json_strict_object(struct json_strict *j)
{
	struct json_strict_keys keys;
	keys.count = 0;
	j->i++; /* { */
	json_strict_blanks(j);
	if (j->i < j->n && j->s[j->i] == '}') {
		j->i++;
		return true;
	}
	for (;;) {
		if (j->i >= j->n || j->s[j->i] != '"')
			return json_strict_fail(j, "an object member without a string key");
		size_t from = j->i;
		if (!json_strict_string(j))
			return false;
		size_t len = j->i - from;
		for (size_t k = 0; k < keys.count && k < 256; k++)
			if (keys.len[k] == len && !memcmp(j->s + keys.from[k], j->s + from, len)) {
				j->i = from;
				return json_strict_fail(j, "a key given twice in one object");
			}
		if (keys.count < 256) {
			keys.from[keys.count] = from;
			keys.len[keys.count] = len;
		}
		keys.count++;
		json_strict_blanks(j);
		if (j->i >= j->n || j->s[j->i] != ':')
			return json_strict_fail(j, "a key without a colon after it");
		j->i++;
		if (!json_strict_value(j))
			return false;
		json_strict_blanks(j);
		if (j->i < j->n && j->s[j->i] == ',') {
			j->i++;
			json_strict_blanks(j);
			continue;
		}
		if (j->i < j->n && j->s[j->i] == '}') {
			j->i++;
			return true;
		}
		return json_strict_fail(j, "an object member without a comma or a closing brace after it");
	}
}

static inline bool json_strict_array(struct json_strict *j)
{
	j->i++; /* [ */
	json_strict_blanks(j);
	if (j->i < j->n && j->s[j->i] == ']') {
		j->i++;
		return true;
	}
	for (;;) {
		if (!json_strict_value(j))
			return false;
		json_strict_blanks(j);
		if (j->i < j->n && j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->i < j->n && j->s[j->i] == ']') {
			j->i++;
			return true;
		}
		return json_strict_fail(j, "an array element without a comma or a closing bracket after it");
	}
}

static inline bool json_strict_value(struct json_strict *j)
{
	json_strict_blanks(j);
	if (j->i >= j->n)
		return json_strict_fail(j, "no value");
	if (++j->depth > JSON_STRICT_MAX_DEPTH)
		return json_strict_fail(j, "nested too deep");
	bool ok;
	switch (j->s[j->i]) {
	case '{': ok = json_strict_object(j); break;
	case '[': ok = json_strict_array(j); break;
	case '"': ok = json_strict_string(j); break;
	case 't': ok = json_strict_word(j, "true"); break;
	case 'f': ok = json_strict_word(j, "false"); break;
	case 'n': ok = json_strict_word(j, "null"); break;
	default:
		ok = (j->s[j->i] == '-' || (j->s[j->i] >= '0' && j->s[j->i] <= '9')) ? json_strict_number(j)
										  : json_strict_fail(j, "not a value");
	}
	j->depth--;
	return ok;
}

static inline const char *json_strict_check(const char *text, size_t len, size_t *at)
{
	struct json_strict j = {(const unsigned char *)text, len, 0, NULL, 0};
	if (json_strict_value(&j)) {
		json_strict_blanks(&j);
		if (j.i < j.n)
			json_strict_fail(&j, "more after the value");
	}
	*at = j.i;
	return j.err;
}

static inline const char *json_strict_lines(const char *text, size_t len, size_t *at)
{
	size_t from = 0;
	while (from < len) {
		const char *nl = memchr(text + from, '\n', len - from);
		if (!nl) {
			*at = len;
			return "a line without its newline";
		}
		size_t end = (size_t)(nl - text);
		size_t off;
		const char *err = json_strict_check(text + from, end - from, &off);
		if (err) {
			*at = from + off;
			return err;
		}
		from = end + 1;
	}
	*at = len;
	return NULL;
}

#endif
