/*
 * tileset_path.c - tile sets named by records: the path policy (tileset.h),
 * the folders --tileset-path allows and the lookup of a record's Tileset
 * tag in them.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "notation/tileset_int.h"
#ifdef __wasi__
/* WASI has no absolute paths: no tile-set file is resolved there, only the
 * bundled sets are had (the WebAssembly engine, src/wasm/) */
#define realpath(path, resolved) ((void)(path), (void)(resolved), (char *)NULL)
#endif

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- tile sets named by records: the path policy ---- */

/* The folders that --tileset-path added, as realpath resolved them. Set
 * while the command line is read, before any record. */
static char **allowed_dirs;
static size_t nallowed_dirs;

bool carc_tileset_allow_dir(const char *dir)
{
	char *real = realpath(dir, NULL);
	struct stat st;
	if (!real)
		return false;
	if (stat(real, &st) || !S_ISDIR(st.st_mode)) {
		free(real);
		errno = ENOTDIR;
		return false;
	}
	allowed_dirs = xrealloc(allowed_dirs, (nallowed_dirs + 1) * sizeof *allowed_dirs);
	allowed_dirs[nallowed_dirs++] = real;
	return true;
}

void carc_tileset_allow_none(void)
{
	for (size_t i = 0; i < nallowed_dirs; i++)
		free(allowed_dirs[i]);
	free(allowed_dirs);
	allowed_dirs = NULL;
	nallowed_dirs = 0;
}

/* path (resolved) lies inside folder dir (resolved). */
static bool path_inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, n) && path[n] == '/';
}

/* v names a step up ("..") anywhere in it. */
static bool climbs(const char *v)
{
	for (const char *p = v; (p = strstr(p, "..")) != NULL; p += 2)
		if ((p == v || p[-1] == '/') && (p[2] == 0 || p[2] == '/'))
			return true;
	return false;
}

/* The resolved path of file v looked up in folder dir (NULL: the current
 * folder), when it is a file there that does not lead out of dir; NULL
 * otherwise, with *escapes set when it exists but leads out. */
static char *look_in(const char *dir, const char *v, bool *escapes)
{
	struct carc_buf cand = {0};
	if (dir) {
		carc_buf_adds(&cand, dir);
		carc_buf_addc(&cand, '/');
	}
	carc_buf_adds(&cand, v);
	char *real = realpath(carc_buf_cstr(&cand), NULL);
	char *home = realpath(dir ? dir : ".", NULL);
	carc_buf_free(&cand);
	if (real && home && !path_inside(real, home)) {
		*escapes = true;
		free(real);
		real = NULL;
	}
	free(home);
	return real;
}

/* Applies the policy: the path to load, or NULL after reporting. */
char *tileset_resolve(const char *record, const char *v, struct carc_diag_sink *sink, const struct carc_src *src,
		     size_t off, size_t len)
{
	bool escapes = false, from_stdin = !strcmp(record, "<stdin>") || !strcmp(record, "-");
	char *found = NULL;
	if (v[0] == '/') {
		/* an absolute path: only inside a --tileset-path folder */
		char *real = realpath(v, NULL);
		for (size_t i = 0; real && i < nallowed_dirs && !found; i++)
			if (path_inside(real, allowed_dirs[i]))
				found = xstrdup(real);
		free(real);
		escapes = !found;
	} else {
		if (!from_stdin) {
			const char *slash = strrchr(record, '/');
			char *dir = slash ? xstrndup(record, (size_t)(slash - record) + (slash == record)) : NULL;
			found = look_in(dir, v, &escapes);
			free(dir);
		}
		for (size_t i = 0; i < nallowed_dirs && !found; i++)
			found = look_in(allowed_dirs[i], v, &escapes);
		escapes |= !found && climbs(v);
	}
	if (found)
		return found;
	struct carc_buf names = {0};
	for (size_t i = 0; i < carc_bundled_count(); i++)
		carc_buf_printf(&names, "%s%s", i ? ", " : "", carc_bundled_name(i));
	const char *where = from_stdin ? "a --tileset-path folder (a record on standard input has no folder of its own)"
				       : "the record's folder or a --tileset-path folder";
	if (escapes)
		carc_diag_report(sink, CARC_E110, src, off, len, "tile set '%s' is outside the folders a record may use: "
				 "it may name a bundled tile set (%s) or a file in %s", v, carc_buf_cstr(&names), where);
	else
		carc_diag_report(sink, CARC_E101, src, off, len, "tile set '%s' is neither bundled (%s) nor a file in %s",
				 v, carc_buf_cstr(&names), where);
	carc_buf_free(&names);
	return NULL;
}
