/*
 * json.h - writing JSON text (jsonread.h reads it). Strings are escaped
 * per RFC 8259: control characters (C1 ones, U+0080 to U+009F, too) as
 * \uXXXX, and each byte that is not part of a well-formed UTF-8 character
 * (see carc_utf8_len: no overlong forms, no surrogates, nothing past
 * U+10FFFF) as U+FFFD, so that the text is always valid UTF-8.
 */
#ifndef CARC_JSON_H
#define CARC_JSON_H

#include "common/util.h"

void carc_json_string(struct carc_buf *out, const char *s, size_t len);
void carc_json_cstr(struct carc_buf *out, const char *s);

#endif
