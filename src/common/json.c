/*
 * json.c - JSON string escaping.
 */
#include "common/json.h"

#include "common/diag.h"

#include <stdint.h>
#include <string.h>

/* plain[c]: the byte c stands for itself in a JSON string (printable
 * ASCII but '"' and '\\'). */
static const unsigned char plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The longest a byte of the input can become: \u00XX, or \ufffd. */
enum { MAX_ESCAPE = 6, CHUNK = 4096 };

/* Whether any of the 8 bytes of w (as memcpy reads them) is not plain (see
 * plain[]). A plain byte next to one that is not may be flagged too (a carry
 * or borrow between bytes), which only sends the word the slow way. */
static inline bool any_special(uint64_t w)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
	uint64_t quote = w ^ ('"' * ones), backslash = w ^ ('\\' * ones);
	uint64_t control = (w - 0x20 * ones) & ~w; /* a byte below 0x20 (or next to one) */
	uint64_t beyond = (w + ones) | w;          /* a byte above 0x7e (or next to one) */
	quote = (quote - ones) & ~quote;           /* a '"' (or next to one) */
	backslash = (backslash - ones) & ~backslash; /* a '\\' (or next to one) */
	return ((control | beyond | quote | backslash) & high) != 0;
}

/* Most of a report's strings: short and plain. Writes one with its quotes,
 * a word of 8 bytes at a time (the last word overlapping the one before
 * it, so that no loop runs byte by byte but for a string below 8 bytes),
 * and returns true; false, with nothing written, when it needs escaping. */
static bool short_plain(struct carc_buf *out, const unsigned char *p, size_t len)
{
	carc_buf_reserve(out, len + 2);
	char *q = out->data + out->len + 1;
	uint64_t w;
	if (len < 8) {
		for (size_t k = 0; k < len; k++) {
			if (!plain[p[k]])
				return false;
			q[k] = (char)p[k];
		}
	} else {
		size_t k = 0;
		for (; k + 8 < len; k += 8) {
			memcpy(&w, p + k, 8);
			if (any_special(w))
				return false;
			memcpy(q + k, &w, 8);
		}
		memcpy(&w, p + len - 8, 8);
		if (any_special(w))
			return false;
		memcpy(q + len - 8, &w, 8);
	}
	q[-1] = '"';
	q[len] = '"';
	q[len + 1] = '\0';
	out->len += len + 2;
	return true;
}

void carc_json_string(struct carc_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	static const char hex[] = "0123456789abcdef";
	/* A chunk of the input at a time, with room for its worst case (and the
	 * quotes), so that the text is written straight into the buffer
	 * without a check per byte: the keys and values of a report are short,
	 * and writing them is most of what a report costs. A character of
	 * UTF-8 may end up to 3 bytes past the chunk: the room has that to
	 * spare. Runs of 8 plain bytes are copied as one word. */
	if (len <= 64 && short_plain(out, p, len))
		return;
	size_t i = 0;
	char *d = NULL;
	do {
		size_t stop = len - i > CHUNK ? i + CHUNK : len;
		carc_buf_reserve(out, MAX_ESCAPE * (stop - i) + 2);
		d = out->data + out->len;
		if (i == 0)
			*d++ = '"';
		while (i < stop) {
			uint64_t w;
			if (stop - i >= 8 && (memcpy(&w, p + i, 8), !any_special(w))) {
				memcpy(d, &w, 8);
				d += 8;
				i += 8;
				continue;
			}
			unsigned char c = p[i];
			if (plain[c]) {
				*d++ = (char)c;
				i++;
			} else if (c == '"' || c == '\\') {
				*d++ = '\\';
				*d++ = (char)c;
				i++;
			} else if (c == '\n' || c == '\t') {
				*d++ = '\\';
				*d++ = c == '\n' ? 'n' : 't';
				i++;
			} else if (c < 0x20 || c == 0x7f) {
				memcpy(d, "\\u00", 4);
				d[4] = hex[c >> 4];
				d[5] = hex[c & 15];
				d += 6;
				i++;
			} else if (c == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
				/* a C1 control (which carc_utf8_len does not count as
				 * text): escaped, like those of ASCII */
				memcpy(d, "\\u00", 4);
				d[4] = hex[p[i + 1] >> 4];
				d[5] = hex[p[i + 1] & 15];
				d += 6;
				i += 2;
			} else {
				size_t n = carc_utf8_len((const char *)p + i, len - i);
				if (n) {
					memcpy(d, p + i, n);
					d += n;
					i += n;
				} else {
					memcpy(d, "\\ufffd", 6);
					d += 6;
					i++;
				}
			}
		}
		out->len = (size_t)(d - out->data);
	} while (i < len);
	*d++ = '"';
	*d = '\0';
	out->len = (size_t)(d - out->data);
}

void carc_json_cstr(struct carc_buf *out, const char *s)
{
	carc_json_string(out, s, strlen(s));
}
