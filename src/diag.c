/*
 * diag.c - the diagnostics table, reporting and GNU-style formatting.
 */
#include "diag.h"

#include <string.h>

struct code_info {
	const char *str;
	enum carc_severity severity;
	const char *name;
	const char *summary;
};

static const struct code_info codes[CARC_CODE_COUNT] = {
#define CARC_X(code, sev, name, summary) {#code, CARC_SEV_##sev, name, summary},
	CARC_DIAG_LIST(CARC_X)
#undef CARC_X
};

const char *carc_code_str(enum carc_code code) { return codes[code].str; }
const char *carc_code_name(enum carc_code code) { return codes[code].name; }
const char *carc_code_summary(enum carc_code code) { return codes[code].summary; }
enum carc_severity carc_code_severity(enum carc_code code) { return codes[code].severity; }

enum carc_code carc_code_lookup(const char *s)
{
	for (int i = 0; i < CARC_CODE_COUNT; i++)
		if (strcmp(codes[i].str, s) == 0)
			return (enum carc_code)i;
	return CARC_CODE_COUNT;
}

void carc_diag_report(struct carc_diag_sink *sink, enum carc_code code,
		      const struct carc_src *src, size_t off, size_t len,
		      const char *fmt, ...)
{
	struct carc_diag d = {code, codes[code].severity, src, off, len, NULL};
	if (d.severity == CARC_SEV_ERROR)
		sink->errors++;
	else if (d.severity == CARC_SEV_WARNING)
		sink->warnings++;
	sink->counts[code]++;
	if (!sink->emit)
		return;
	carc_buf_reset(&sink->scratch);
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&sink->scratch, fmt, ap);
	va_end(ap);
	d.message = carc_buf_cstr(&sink->scratch);
	sink->emit(sink->ctx, &d);
}

void carc_diag_free(struct carc_diag_sink *sink)
{
	carc_buf_free(&sink->scratch);
}

void carc_src_position(const struct carc_src *src, size_t off, unsigned *line, unsigned *col)
{
	unsigned l = src->base_line, c = 1;
	if (off > src->len)
		off = src->len;
	for (size_t i = 0; i < off; i++) {
		unsigned char ch = (unsigned char)src->text[i];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xC0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*col = c;
}

/* Appends the bytes of the source line holding off, without its newline,
 * with control characters and over-long tails made harmless. */
static void add_source_line(struct carc_buf *out, const struct carc_src *src, size_t off,
			    size_t *line_start, size_t *shown)
{
	size_t s = off, e = off;
	while (s > 0 && src->text[s - 1] != '\n')
		s--;
	while (e < src->len && src->text[e] != '\n')
		e++;
	if (e > s && src->text[e - 1] == '\r')
		e--;
	size_t max = 200;
	/* Show a window of the line around the offset when it is very long. */
	if (e - s > max) {
		size_t from = off > s + max / 2 ? off - max / 2 : s;
		while (from > s && ((unsigned char)src->text[from] & 0xC0) == 0x80)
			from--;
		s = from;
		if (e - s > max)
			e = s + max;
	}
	for (size_t i = s; i < e; i++) {
		unsigned char ch = (unsigned char)src->text[i];
		carc_buf_addc(out, (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch);
	}
	*line_start = s;
	*shown = e;
}

void carc_diag_format(struct carc_buf *out, const struct carc_diag *d, bool color)
{
	static const char *sev_word[] = {"error", "warning", "note"};
	static const char *sev_color[] = {"\033[1;31m", "\033[1;35m", "\033[1;36m"};
	const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
	unsigned line = 0, col = 0;

	if (d->src) {
		carc_src_position(d->src, d->off, &line, &col);
		carc_buf_printf(out, "%s%s:%u:%u:%s ", bold, d->src->name, line, col, reset);
	}
	carc_buf_printf(out, "%s%s[%s]:%s %s\n", color ? sev_color[d->severity] : "",
			sev_word[d->severity], codes[d->code].str, reset, d->message);
	if (!d->src || d->src->len == 0 || !d->src->text)
		return;

	size_t start, end;
	char num[16];
	int w = snprintf(num, sizeof num, "%u", line);
	carc_buf_printf(out, " %s | ", num);
	add_source_line(out, d->src, d->off, &start, &end);
	carc_buf_printf(out, "\n %*s | ", w, "");
	size_t off = d->off < start ? start : d->off;
	for (size_t i = start; i < off && i < end; i++) {
		unsigned char ch = (unsigned char)d->src->text[i];
		if ((ch & 0xC0) != 0x80)
			carc_buf_addc(out, ' ');
	}
	carc_buf_adds(out, color ? sev_color[d->severity] : "");
	carc_buf_addc(out, '^');
	for (size_t i = off + 1; i < off + d->len && i < end; i++)
		if (((unsigned char)d->src->text[i] & 0xC0) != 0x80)
			carc_buf_addc(out, '~');
	carc_buf_adds(out, reset);
	carc_buf_addc(out, '\n');
}
