/*
 * cli.c - helpers shared by the subcommands.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli/cli.h"
#include "notation/tileset.h"

#include "referee/project.h"
#include "common/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *carc_open_input(const char *path) { return carc_input_open(path); }

void carc_close_input(FILE *f) { carc_input_close(f); }

static const char *stdin_label = "<stdin>";

void carc_set_stdin_label(const char *label) { stdin_label = label; }

int carc_label_option(const char *cmd, const char *label)
{
	if (!*label)
		return carc_usage_error(cmd, "--label takes a name for standard input, not an empty one");
	carc_set_stdin_label(label);
	return 0;
}

int carc_record_option(const char *cmd, int c, const char *arg)
{
	if (c == CARC_OPT_LABEL)
		return carc_label_option(cmd, arg);
	return carc_tileset_path_option(cmd, arg) ? 0 : CARC_EXIT_TROUBLE;
}

const char *carc_input_name(const char *path)
{
	return strcmp(path, "-") ? path : stdin_label;
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
	bool error = d->severity == CARC_SEV_ERROR;
	if (error && p->max_errors && p->printed_errors >= p->max_errors)
		return; /* (not even formatted) */
	carc_buf_reset(&p->buf);
	carc_diag_format(&p->buf, d, p->color);
	carc_print_text(p, error, p->buf.data, p->buf.len);
}

void carc_print_text(struct carc_printer *p, bool error, const char *text, size_t len)
{
	if (p->quiet)
		return;
	if (error) {
		if (p->max_errors && p->printed_errors >= p->max_errors)
			return;
		p->printed_errors++;
	}
	fwrite(text, 1, len, p->out);
	if (error && p->max_errors && p->printed_errors == p->max_errors)
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

bool carc_tileset_path_option(const char *cmd, const char *dir)
{
	if (carc_tileset_allow_dir(dir))
		return true;
	carc_usage_error(cmd, "--tileset-path '%s': %s", dir, strerror(errno));
	return false;
}

int carc_option_error(const char *cmd, int c, char **argv)
{
	extern int optind;
	if (c == ':')
		return carc_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
	return carc_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

int carc_one_input(const char *cmd, int argc, char **argv, const char **path)
{
	extern int optind;
	if (optind >= argc)
		return carc_usage_error(cmd, "no input: give a file, or - for standard input");
	if (optind != argc - 1)
		return carc_usage_error(cmd, "give one file (or -) at a time");
	*path = argv[optind];
	return 0;
}

void carc_say_cannot(const char *name, const char *what, int err)
{
	struct carc_src src = {.name = name}; /* no text: the file as a whole */
	struct carc_buf msg = {0};
	carc_buf_printf(&msg, "cannot %s: %s", what, carc_input_strerror(err));
	struct carc_printer printer = {.out = stderr, .color = carc_use_color(stderr)};
	carc_print_diag(&printer, &(struct carc_diag){CARC_E001, CARC_SEV_ERROR, &src, 0, 0, carc_buf_cstr(&msg)});
	carc_buf_free(&printer.buf);
	carc_buf_free(&msg);
}

FILE *carc_open_input_or_say(const char *path)
{
	FILE *f = carc_open_input(path);
	if (!f)
		carc_say_cannot(carc_input_name(path), "open", errno);
	return f;
}

static bool cannot_write(const struct carc_output *o, int err)
{
	fprintf(stderr, "carc%s%s: cannot write %s: %s\n", o->cmd ? " " : "", o->cmd ? o->cmd : "",
		o->path ? o->path : "standard output", strerror(err));
	return false;
}

bool carc_output_open(struct carc_output *o, const char *cmd, const char *path)
{
	*o = (struct carc_output){stdout, cmd, NULL, NULL, NULL};
	if (!path || !strcmp(path, "-"))
		return true;
	o->path = path;
	struct stat st;
	bool exists = stat(path, &st) == 0; /* (through links) */
	if (exists && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, "w");
		return o->f || cannot_write(o, errno);
	}
	if (exists && access(path, W_OK) != 0) /* as writing it in place would */
		return o->f = NULL, cannot_write(o, errno);
	/* a link is kept, and the file it leads to replaced */
	o->target = exists ? realpath(path, NULL) : NULL;
	if (!o->target)
		o->target = xstrdup(path);
	size_t n = strlen(o->target);
	o->tmp = xmalloc(n + 8);
	memcpy(o->tmp, o->target, n);
	memcpy(o->tmp + n, ".XXXXXX", 8);
	int fd = mkstemp(o->tmp);
	if (fd < 0 && exists && (errno == EACCES || errno == EPERM)) {
		/* A file that may be written in a folder that may not: the output
		 * goes to a temporary file elsewhere, copied over the file once it
		 * is whole (so a failed run still leaves the file as it was). */
		free(o->tmp);
		o->tmp = NULL;
		o->f = tmpfile();
		o->copy = o->f != NULL;
		if (o->f)
			return true;
		fd = -1;
	}
	if (fd < 0) {
		int err = errno;
		free(o->tmp);
		free(o->target);
		o->tmp = o->target = NULL;
		o->f = NULL;
		return cannot_write(o, err);
	}
	/* the mode FILE has, or a new file's (mkstemp's is 0600) */
	mode_t mode = st.st_mode & 07777;
	if (!exists) {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	(void)fchmod(fd, mode);
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int err = errno;
		close(fd);
		unlink(o->tmp);
		free(o->tmp);
		free(o->target);
		o->tmp = o->target = NULL;
		return cannot_write(o, err);
	}
	return true;
}

bool carc_stdout_done(const char *cmd)
{
	struct carc_output o = {stdout, cmd, NULL, NULL, NULL};
	return carc_output_close(&o, true);
}

bool carc_output_close(struct carc_output *o, bool keep)
{
	bool ok = true;
	int err = 0;
	if (!o->f)
		return false;
	if (fflush(o->f) != 0 || ferror(o->f))
		ok = false, err = errno ? errno : EIO;
	if (o->f == stdout)
		clearerr(stdout); /* said once, here, and not again by main */
	if (o->copy && ok && keep) { /* the whole output over the file, in place */
		FILE *to = fopen(o->target, "w");
		char block[65536];
		size_t n;
		rewind(o->f);
		if (!to)
			ok = false, err = errno;
		while (ok && (n = fread(block, 1, sizeof block, o->f)) > 0)
			if (fwrite(block, 1, n, to) != n)
				ok = false, err = errno ? errno : EIO;
		if (ok && ferror(o->f))
			ok = false, err = EIO;
		if (to && fclose(to) != 0 && ok)
			ok = false, err = errno;
	}
	if (o->copy) {
		free(o->target);
		o->target = NULL;
		o->copy = false;
	}
	if (o->f != stdout && fclose(o->f) != 0 && ok)
		ok = false, err = errno;
	o->f = NULL;
	if (o->tmp) {
		if (ok && keep && rename(o->tmp, o->target) != 0)
			ok = false, err = errno;
		if (!ok || !keep)
			unlink(o->tmp);
		free(o->tmp);
		free(o->target);
		o->tmp = o->target = NULL;
	}
	return ok || cannot_write(o, err);
}

bool carc_output_write(const char *cmd, const char *path, const void *data, size_t len)
{
	struct carc_output to;
	if (!carc_output_open(&to, cmd, path))
		return false;
	if (len)
		fwrite(data, 1, len, to.f);
	return carc_output_close(&to, true);
}

void carc_too_long_message(struct carc_buf *b, const char *cmd, const struct carc_record *rec, size_t nturns)
{
	carc_buf_printf(b, "carc %s: %s:%u: game %u has %zu turns, more than the %d that a projection replays (a game "
			"played from a tile set's supply has about 100 at most): left out\n", cmd, rec->src.name,
			rec->src.base_line, rec->index, nturns, CARC_PROJECT_MAX_TURNS);
}

void carc_say_too_long(const char *cmd, const struct carc_record *rec, size_t nturns)
{
	struct carc_buf b = {0};
	carc_too_long_message(&b, cmd, rec, nturns);
	fputs(carc_buf_cstr(&b), stderr);
	carc_buf_free(&b);
}
