/*
 * json.c - JSON string escaping.
 */
#include "json.h"

#include <string.h>

static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char b = s[0];
	size_t len = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void carc_json_string(struct carc_buf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	carc_buf_reserve(out, len + 2);
	carc_buf_addc(out, '"');
	for (size_t i = 0; i < len;) {
		/* a run of characters that need no escape goes in at once */
		size_t run = i;
		while (run < len && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '"' && p[run] != '\\')
			run++;
		if (run > i) {
			carc_buf_add(out, p + i, run - i);
			i = run;
			continue;
		}
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			carc_buf_addc(out, '\\');
			carc_buf_addc(out, (char)c);
			i++;
		} else if (c == '\n') {
			carc_buf_adds(out, "\\n");
			i++;
		} else if (c == '\t') {
			carc_buf_adds(out, "\\t");
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			carc_buf_printf(out, "\\u%04x", c);
			i++;
		} else {
			size_t n = utf8_len(p + i, len - i);
			if (n) {
				carc_buf_add(out, p + i, n);
				i += n;
			} else {
				carc_buf_adds(out, "\\ufffd");
				i++;
			}
		}
	}
	carc_buf_addc(out, '"');
}

void carc_json_cstr(struct carc_buf *out, const char *s)
{
	carc_json_string(out, s, strlen(s));
}
