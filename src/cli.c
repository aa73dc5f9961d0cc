/*
 * cli.c - helpers shared by the subcommands.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

FILE *carc_open_input(const char *path)
{
	if (!strcmp(path, "-"))
		return stdin;
	return fopen(path, "rb");
}

void carc_close_input(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

const char *carc_input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

bool carc_use_color(FILE *f)
{
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		return false;
	return isatty(fileno(f));
}

void carc_print_diag(void *ctx, const struct carc_diag *d)
{
	struct carc_printer *p = ctx;
	if (p->quiet)
		return;
	if (d->severity == CARC_SEV_ERROR) {
		if (p->max_errors && p->printed_errors >= p->max_errors)
			return;
		p->printed_errors++;
	}
	carc_buf_reset(&p->buf);
	carc_diag_format(&p->buf, d, p->color);
	fwrite(p->buf.data, 1, p->buf.len, p->out);
	if (d->severity == CARC_SEV_ERROR && p->max_errors && p->printed_errors == p->max_errors)
		fprintf(p->out, "carc: stopping messages after %u errors (--max-errors)\n", p->max_errors);
}

int carc_print_version(void)
{
	printf("carc %s\n", CARC_VERSION);
	return CARC_EXIT_OK;
}

int carc_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "carc %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'carc %s --help'.\n", cmd);
	return CARC_EXIT_TROUBLE;
}
