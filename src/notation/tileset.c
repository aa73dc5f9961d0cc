/*
 * tileset.c - a tile set: its names, lookups in it, loading one from a file
 * or the bundled sets, and freeing it.
 *
 * A tile set is loaded from YAML through libyaml in the files beside this
 * one, which share tileset_int.h: the bytes, the YAML and the loader's
 * messages (tileset_yaml.c), the schema's walk and the derived tables
 * (tileset_schema.c), the tiles in play and joined sets (tileset_play.c),
 * the cache (tileset_cache.c) and the path policy for records
 * (tileset_path.c). The format is specified in notation/tileset.md and man
 * carc-tileset(5).
 */
#include "notation/tileset_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const char *const carc_edge_names[4] = {"N", "E", "S", "W"};
const char *const carc_half_names[8] = {"NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"};

static bool has_kind(const struct carc_tile *t, int kind)
{
	for (int f = 0; f < t->nfeatures; f++)
		if (t->features[f].kind == kind)
			return true;
	return false;
}

bool carc_kind_aside(const struct carc_tileset *ts, int kind)
{
	for (int i = 0; i < ts->ntiles; i++)
		if (has_kind(&ts->tiles[i], kind))
			return false;
	for (int i = ts->ntiles; i < ts->ntiles + ts->nextra; i++)
		if (has_kind(&ts->tiles[i], kind))
			return true;
	return false;
}

int carc_tileset_expansion(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int i = 0; i < ts->nexpansions; i++)
		if (carc_slice_ieq(name, len, ts->expansions[i]))
			return i;
	return -1;
}

/* ---- files, bundled sets and lookups ---- */

char *carc_tileset_read(FILE *f, size_t *len)
{
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)MAX_FILE_BYTES) {
		errno = EFBIG; /* refused unread */
		return NULL;
	}
	struct carc_buf b = {0};
	char chunk[65536];
	size_t n;
	int err = 0;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (b.len + n > MAX_FILE_BYTES) {
			err = EFBIG;
			break;
		}
		carc_buf_add(&b, chunk, n);
		/* text has no NUL: the loader refuses it at the first one, and an
		 * endless source (/dev/zero) is read no further */
		if (memchr(chunk, 0, n))
			break;
	}
	if (!err && ferror(f))
		err = errno ? errno : EIO;
	if (err) {
		carc_buf_free(&b);
		errno = err;
		return NULL;
	}
	carc_buf_cstr(&b);
	*len = b.len;
	return b.data;
}

/* Reads a whole file as carc_tileset_read does; NULL with errno set. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *text = carc_tileset_read(f, len);
	int err = errno;
	fclose(f);
	errno = err;
	return text;
}

struct carc_tileset *carc_tileset_load(const char *name_or_path, struct carc_diag_sink *sink,
				       const struct carc_src *src, size_t off, size_t len)
{
	size_t text_len;
	/* Bundled names match in any case, as rule-set names do ("Base"). */
	for (size_t i = 0; i < carc_bundled_count(); i++) {
		const char *name = carc_bundled_name(i);
		if (carc_slice_ieq(name_or_path, strlen(name_or_path), name)) {
			const char *text = carc_bundled_text(name, &text_len);
			return tileset_parse_text(text, text_len, name, sink, true);
		}
	}
	errno = 0;
	char *data = name_or_path[0] ? read_file(name_or_path, &text_len) : NULL;
	if (!data) {
		int err = name_or_path[0] ? errno : ENOENT;
		struct carc_buf names = {0};
		for (size_t i = 0; i < carc_bundled_count(); i++)
			carc_buf_printf(&names, "%s%s", i ? ", " : "", carc_bundled_name(i));
		const char *why = err == EFBIG ? "it is larger than 64 MiB" : strerror(err);
		carc_diag_report(sink, CARC_E101, src, off, len,
				 "tile set '%s' is neither bundled (%s) nor a readable file: %s",
				 name_or_path, carc_buf_cstr(&names), why);
		carc_buf_free(&names);
		return NULL;
	}
	struct carc_tileset *ts = carc_tileset_parse(data, text_len, name_or_path, sink);
	free(data);
	return ts;
}
void carc_tileset_free(struct carc_tileset *ts)
{
	if (!ts)
		return;
	for (int i = 0; i < ts->ntiles + ts->nextra; i++)
		free(ts->tiles[i].name);
	free(ts->tiles);
	free(ts->name);
	free(ts->title);
	free(ts->rules);
	free(ts->note);
	free(ts->source);
	free(ts);
}

/* ---- names and lookups ---- */

const char *const tileset_class_names[CARC_CLASS_COUNT] = {"path", "enclosure", "site", "area", "lake"};
static const char *const attr_names[CARC_ATTR_COUNT] = {
	"pennant", "fish", "gold", "deer", "mammoth", "tiger", "aurochs",
	"mushroom", "fire", "shrine", "volcano"};

const char *carc_class_name(enum carc_class c) { return tileset_class_names[c]; }
const char *carc_attr_name(enum carc_attr a) { return attr_names[a]; }

int carc_tileset_kind(const struct carc_tileset *ts, const char *name)
{
	for (int i = 0; i < ts->nkinds; i++)
		if (!strcmp(ts->kinds[i].name, name))
			return i;
	return -1;
}

int carc_tileset_terrain(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int i = 0; i < ts->nterrains; i++)
		if (carc_slice_eq(name, len, ts->terrains[i]))
			return i;
	return -1;
}

/* The known attributes, first of every set's. */
void tileset_known_attrs(struct carc_tileset *ts)
{
	for (int a = 0; a < CARC_ATTR_COUNT; a++)
		snprintf(ts->attrs[a], sizeof ts->attrs[a], "%s", attr_names[a]);
	ts->nattrs = CARC_ATTR_COUNT;
}

int carc_tileset_attr(const struct carc_tileset *ts, const char *name, size_t len)
{
	for (int a = 0; a < ts->nattrs; a++)
		if (carc_slice_eq(name, len, ts->attrs[a]))
			return a;
	return -1;
}

int carc_tileset_find(const struct carc_tileset *ts, const char *id, size_t len)
{
	if (len == 1 && (unsigned char)id[0] < 128 && ts->by_letter[(unsigned char)id[0]])
		return ts->by_letter[(unsigned char)id[0]] - 1;
	if (len == 2 && (unsigned char)id[0] < 128 && (unsigned char)id[1] < 128 &&
	    ts->by_pair[(unsigned char)id[0]][(unsigned char)id[1]])
		return ts->by_pair[(unsigned char)id[0]][(unsigned char)id[1]] - 1;
	for (int i = 0; i < ts->ntiles; i++)
		if (carc_slice_eq(id, len, ts->tiles[i].id))
			return i;
	return -1;
}

int carc_tileset_find_twin(const struct carc_tileset *ts, const char *id, size_t len, int *aside)
{
	for (int i = ts->ntiles; i < ts->ntiles + ts->nextra; i++) {
		const struct carc_tile *t = &ts->tiles[i];
		if (t->replaces < 0 || !carc_slice_eq(id, len, t->id))
			continue;
		for (int j = 0; j < ts->ntiles; j++) /* (replaces counts in file order) */
			if (ts->tiles[j].order == t->replaces) {
				if (aside)
					*aside = i;
				return j;
			}
		return -1;
	}
	return -1;
}

