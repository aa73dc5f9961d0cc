/*
 * tileset_cache.c - loaded tile sets kept, so that a file of many games
 * loads each once: by name, joined for a game with expansions, and named by
 * a record's Tileset tag (under the path policy of tileset_path.c).
 */
#include "notation/tileset_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

struct cache_entry {
	char *name;
	struct carc_tileset *ts;
};

struct carc_tileset_cache {
	struct cache_entry *entries;
	size_t count;
	/* the last tile set a record named by a path, and for which record and
	 * value: a file of many games naming one set resolves it once */
	char *memo_record, *memo_value;
	const struct carc_tileset *memo;
};

struct carc_tileset_cache *carc_tileset_cache_new(void)
{
	return xcalloc(1, sizeof(struct carc_tileset_cache));
}

const struct carc_tileset *carc_tileset_cache_get(struct carc_tileset_cache *c, const char *name_or_path,
						  struct carc_diag_sink *sink, const struct carc_src *src,
						  size_t off, size_t len)
{
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].name, name_or_path))
			return c->entries[i].ts;
	struct carc_tileset *ts = carc_tileset_load(name_or_path, sink, src, off, len);
	if (!ts)
		return NULL;
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){xstrdup(name_or_path), ts};
	return ts;
}

const struct carc_tileset *carc_tileset_cache_join(struct carc_tileset_cache *c,
						   const struct carc_tileset *const *sets, int n, const char *play)
{
	/* its name in the cache: no file or bundled set has one like it */
	/* (made without printf: it is asked once a game) */
	struct carc_buf key = {0};
	carc_buf_addc(&key, '\n');
	for (int i = 0; i < n; i++) {
		char digits[24], *d = digits + sizeof digits;
		*--d = '\0';
		*--d = ' ';
		unsigned long v = sets[i]->serial;
		do
			*--d = (char)('0' + v % 10);
		while (v /= 10);
		carc_buf_adds(&key, d);
	}
	carc_buf_addc(&key, '\n');
	carc_buf_adds(&key, play);
	for (size_t i = 0; i < c->count; i++)
		if (!strcmp(c->entries[i].name, carc_buf_cstr(&key))) {
			carc_buf_free(&key);
			return c->entries[i].ts;
		}
	struct carc_tileset *ts = carc_tileset_join(sets, n);
	if (!ts) {
		carc_buf_free(&key);
		return NULL;
	}
	carc_tileset_play(ts, play, strlen(play));
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){xstrdup(carc_buf_cstr(&key)), ts};
	carc_buf_free(&key);
	return ts;
}

const struct carc_tileset *carc_tileset_cache_expand(struct carc_tileset_cache *c, const struct carc_tileset *base,
						     const struct carc_ruleset *const *x, int n,
						     struct carc_diag_sink *sink, bool *loaded)
{
	const struct carc_tileset *sets[1 + CARC_MAX_EXPANSIONS];
	struct carc_buf play = {0};
	int nsets = 0;
	*loaded = true;
	for (int i = 0; i < n && *loaded; i++) {
		if (i)
			carc_buf_addc(&play, ' ');
		carc_buf_adds(&play, x[i]->name);
		if (x[i]->tileset)
			*loaded = (sets[nsets++] = carc_tileset_cache_get(c, x[i]->tileset, sink, NULL, 0, 0)) != NULL;
	}
	sets[nsets++] = base;
	const struct carc_tileset *ts = *loaded ? carc_tileset_cache_join(c, sets, nsets, carc_buf_cstr(&play)) : NULL;
	carc_buf_free(&play);
	return ts;
}

struct first_problem {
	enum carc_code code;
	unsigned line, col, n;
};

static void keep_first(void *ctx, const struct carc_diag *d)
{
	struct first_problem *f = ctx;
	if (d->severity == CARC_SEV_ERROR && f->n++ == 0) {
		f->code = d->code;
		f->line = f->col = 0;
		if (d->src && d->src->text)
			carc_src_position(d->src, d->off, &f->line, &f->col);
	}
}

static const struct carc_tileset *remember(struct carc_tileset_cache *c, const char *record, const char *v,
					   const struct carc_tileset *ts)
{
	free(c->memo_record);
	free(c->memo_value);
	c->memo_record = xstrdup(record);
	c->memo_value = xstrdup(v);
	c->memo = ts;
	return ts;
}

const struct carc_tileset *carc_tileset_for_record(struct carc_tileset_cache *c, const char *record,
						   const char *v, struct carc_diag_sink *sink,
						   const struct carc_src *src, size_t off, size_t len)
{
	for (size_t i = 0; i < carc_bundled_count(); i++)
		if (carc_slice_ieq(v, strlen(v), carc_bundled_name(i)))
			return carc_tileset_cache_get(c, v, sink, src, off, len);
	if (c->memo && !strcmp(c->memo_record, record) && !strcmp(c->memo_value, v))
		return c->memo;
	char *path = tileset_resolve(record, v, sink, src, off, len);
	if (!path)
		return NULL;
	const struct carc_tileset *found = NULL;
	for (size_t i = 0; i < c->count && !found; i++)
		if (!strcmp(c->entries[i].name, path))
			found = c->entries[i].ts;
	if (found) {
		free(path);
		return remember(c, record, v, found);
	}
	/* The file's own problems are not shown: its text is not echoed, only
	 * what the first problem is and where (carc tiles --check shows all). */
	struct first_problem first = {CARC_E102, 0, 0, 0};
	struct carc_diag_sink quiet = {keep_first, &first};
	struct carc_tileset *ts = carc_tileset_load(path, &quiet, NULL, 0, 0);
	carc_diag_free(&quiet);
	if (!ts) {
		if (first.line)
			carc_diag_report(sink, first.code, src, off, len,
					 "tile set '%s' is not a valid tile set (%u error%s, the first %s at line %u, column %u "
					 "of that file; carc tiles --check shows them)", v, first.n, first.n == 1 ? "" : "s",
					 carc_code_str(first.code), first.line, first.col);
		else
			carc_diag_report(sink, first.n ? first.code : CARC_E101, src, off, len,
					 "tile set '%s' cannot be read as a tile set (%s)", v,
					 first.n ? carc_code_summary(first.code) : "unreadable");
		free(path);
		return NULL;
	}
	c->entries = xrealloc(c->entries, (c->count + 1) * sizeof *c->entries);
	c->entries[c->count++] = (struct cache_entry){path, ts};
	return remember(c, record, v, ts);
}

void carc_tileset_cache_free(struct carc_tileset_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->count; i++) {
		free(c->entries[i].name);
		carc_tileset_free(c->entries[i].ts);
	}
	free(c->entries);
	free(c->memo_record);
	free(c->memo_value);
	free(c);
}
