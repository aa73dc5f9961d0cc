/*
 * json.h - writing JSON text (carc reads no JSON of its own; import uses
 * libyaml). Strings are escaped per RFC 8259; bytes that are not valid
 * UTF-8 are written as U+FFFD.
 */
#ifndef CARC_JSON_H
#define CARC_JSON_H

#include "util.h"

void carc_json_string(struct carc_buf *out, const char *s, size_t len);
void carc_json_cstr(struct carc_buf *out, const char *s);

#endif
