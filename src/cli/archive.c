/*
 * archive.c - one pass over the games of many files, and player names.
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "common/keyhash.h"
#include "common/width.h"

#include <stdio.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void carc_archive_each(char *const *paths, int npaths, bool referee, carc_archive_fn fn, void *ctx,
		       struct carc_archive_totals *t)
{
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_diag_sink sink = {0}; /* counts only */
	const struct carc_referee_opts opts = {.no_turns = true};
	for (int i = 0; i < npaths; i++) {
		const char *name = carc_input_name(paths[i]);
		t->files++;
		FILE *f = carc_open_input(paths[i]);
		if (!f) {
			carc_say_cannot(name, "open", errno);
			t->unreadable++;
			continue;
		}
		struct carc_reader *r = carc_reader_new(f, name, cache);
		for (;;) {
			memset(sink.counts, 0, sizeof sink.counts);
			sink.errors = sink.warnings = 0;
			if (!carc_reader_next(r, &rec, &sink))
				break;
			struct carc_archive_game game = {name, &rec, NULL, NULL, sink.counts, 0, 0};
			if (referee) {
				carc_referee_run(&res, &rec, g, &sink, &opts);
				game.res = &res;
				game.game = g;
			}
			if (!rec.tileset)
				t->trouble = true;
			/* the referee's counts include the reader's */
			game.errors = sink.errors;
			game.warnings = sink.warnings;
			t->games++;
			fn(ctx, &game);
		}
		if (carc_reader_error(r)) {
			carc_say_cannot(name, "read", carc_reader_error(r));
			t->unreadable++;
		}
		carc_reader_free(r);
		carc_close_input(f);
	}
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_tileset_cache_free(cache);
	carc_diag_free(&sink);
}

uint8_t carc_archive_winners(const struct carc_archive_game *game)
{
	if (!game->res || !game->res->final_scored || (carc_rules_flags(game->res->rec) & CARC_RS_NO_WINNER))
		return 0;
	return carc_result_winners(game->res);
}

const char *carc_archive_player(const struct carc_record *rec, int seat)
{
	const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[seat]);
	return name ? name : carc_colour_name(rec->seats[seat]);
}

struct largest_walk {
	struct carc_game *g;
	int *tiles;
};

static void largest_feature(void *ctx, uint32_t root)
{
	struct largest_walk *w = ctx;
	int kind = carc_game_feature_kind(w->g, root);
	int tiles = carc_game_feature_tiles(w->g, root);
	if (kind >= 0 && kind < CARC_MAX_KINDS && tiles > w->tiles[kind])
		w->tiles[kind] = tiles;
}

void carc_archive_largest(struct carc_game *g, int tiles[CARC_MAX_KINDS])
{
	memset(tiles, 0, CARC_MAX_KINDS * sizeof *tiles);
	struct largest_walk w = {g, tiles};
	carc_game_each_feature(g, largest_feature, &w);
}

bool carc_archive_format(const char *arg, enum carc_archive_format *format)
{
	static const char *const names[] = {"text", "json", "csv"};
	for (size_t i = 0; i < CARC_ARRAY_LEN(names); i++)
		if (!strcmp(arg, names[i])) {
			*format = (enum carc_archive_format)i;
			return true;
		}
	return false;
}

/* Keyed (common/keyhash.h): names are strangers' text, and with a plain
 * hash they could be written to share one slot (quadratic time). */
static size_t name_hash(const char *s)
{
	return (size_t)carc_keyed_hash(s, strlen(s));
}

size_t carc_names_intern(struct carc_names *n, const char *name)
{
	if (2 * (n->count + 1) > n->nslots) { /* keep it at most half full */
		size_t nslots = n->nslots ? 2 * n->nslots : 64;
		uint32_t *slots = xcalloc(nslots, sizeof *slots);
		for (size_t i = 0; i < n->count; i++) {
			size_t s = name_hash(n->text.data + n->at[i]) & (nslots - 1);
			for (n->probes++; slots[s]; n->probes++)
				s = (s + 1) & (nslots - 1);
			slots[s] = (uint32_t)(i + 1);
		}
		free(n->slots);
		n->slots = slots;
		n->nslots = nslots;
	}
	size_t s = name_hash(name) & (n->nslots - 1);
	for (n->probes++; n->slots[s]; n->probes++) {
		size_t i = n->slots[s] - 1;
		if (!strcmp(n->text.data + n->at[i], name))
			return i;
		s = (s + 1) & (n->nslots - 1);
	}
	if (n->count == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 32;
		n->at = xrealloc(n->at, n->cap * sizeof *n->at);
	}
	n->at[n->count] = n->text.len;
	carc_buf_add(&n->text, name, strlen(name) + 1);
	n->slots[s] = (uint32_t)(n->count + 1);
	return n->count++;
}

const char *carc_names_get(const struct carc_names *n, size_t index)
{
	return n->text.data + n->at[index];
}

void carc_names_free(struct carc_names *n)
{
	carc_buf_free(&n->text);
	free(n->at);
	free(n->slots);
	*n = (struct carc_names){0};
}

struct folded {
	const char *key;
	size_t index;
};

static int by_fold(const void *a, const void *b)
{
	const struct folded *x = a, *y = b;
	int d = strcmp(x->key, y->key);
	return d ? d : (x->index > y->index) - (x->index < y->index);
}

size_t carc_names_warn_alike(const struct carc_names *n, const char *cmd)
{
	if (n->count < 2)
		return 0;
	struct carc_buf keys = {0};
	size_t *at = xmalloc(n->count * sizeof *at);
	for (size_t i = 0; i < n->count; i++) {
		at[i] = keys.len;
		carc_name_fold(&keys, carc_names_get(n, i));
		carc_buf_addc(&keys, '\0');
	}
	struct folded *f = xmalloc(n->count * sizeof *f);
	for (size_t i = 0; i < n->count; i++)
		f[i] = (struct folded){keys.data + at[i], i};
	qsort(f, n->count, sizeof *f, by_fold);
	size_t warned = 0;
	for (size_t i = 0, j; i < n->count; i = j) {
		for (j = i + 1; j < n->count && !strcmp(f[j].key, f[i].key); j++)
			;
		for (size_t k = i + 1; k < j; k++) {
			fprintf(stderr, "carc %s: warning: players '%s' and '%s' differ only in case or accents; they are "
					"counted as two players\n", cmd, carc_names_get(n, f[i].index), carc_names_get(n, f[k].index));
			warned++;
		}
	}
	free(f);
	free(at);
	carc_buf_free(&keys);
	return warned;
}
