/*
 * archive.c - one pass over the games of many files (on N threads), and
 * player names.
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "common/keyhash.h"
#include "common/width.h"

#include <stdio.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the pass, through the parallel driver (jobs.h) ----
 *
 * A game is read and refereed in a thread of the driver, which copies what
 * the commands look at into bytes (snapshot); the command's callback runs
 * here, in file order, on a record and a result rebuilt over those bytes
 * (unsnap). The copy has the record whole (its tags, turns, claims,
 * comments and text), the result's figures without its turns, and what
 * the commands ask of the engine after the game (points by source, the
 * largest features, the scorings). */

struct pass {
	carc_archive_fn fn;
	void *ctx;
};

/* The fixed part of a snapshot; the arrays follow, each at a multiple of
 * 16 bytes from its start. */
struct snapshot {
	struct carc_record rec;
	struct carc_result res;
	bool refereed, figures;
	unsigned errors, warnings;
	unsigned codes[CARC_CODE_COUNT];
	int points[CARC_COLOURS][CARC_SRC_COUNT];
	int largest[CARC_MAX_KINDS];
	size_t nevents;
	/* offsets of the arrays from the snapshot's start */
	size_t tags, moves, claims, order, comments, text, src_text, events;
};

#define SNAP_ALIGN 16

static void pad(struct carc_buf *b)
{
	while (b->len % SNAP_ALIGN)
		carc_buf_addc(b, '\0');
}

/* Adds n bytes at p (aligned); their offset from `start`. */
static size_t put(struct carc_buf *b, size_t start, const void *p, size_t n)
{
	pad(b);
	size_t at = b->len - start;
	if (n)
		carc_buf_add(b, p, n);
	return at;
}

static void snapshot(void *ctx, const struct carc_jobs_game *game, struct carc_jobs_out *out)
{
	(void)ctx;
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	struct carc_buf *b = carc_jobs_data(out);
	pad(b);
	size_t start = b->len;
	struct snapshot s = {.rec = *rec, .refereed = res != NULL, .errors = game->errors,
			     .warnings = game->warnings};
	memcpy(s.codes, game->codes, sizeof s.codes);
	if (res)
		s.res = *res;
	size_t nevents = 0;
	const struct carc_event *events = NULL;
	if (res && res->refereed && rec->tileset) {
		s.figures = true;
		for (int c = 0; c < CARC_COLOURS; c++)
			for (int src = 0; src < CARC_SRC_COUNT; src++)
				s.points[c][src] = carc_game_points_from(game->game, c, src);
		struct largest_walk w = {game->game, s.largest};
		carc_game_each_feature(game->game, largest_feature, &w);
		events = carc_game_events(game->game, &nevents);
	}
	s.nevents = nevents;
	carc_buf_add(b, (const char *)&s, sizeof s); /* (its offsets are filled in below) */
	s.tags = put(b, start, rec->tags, rec->ntags * sizeof *rec->tags);
	s.moves = put(b, start, rec->moves, rec->nmoves * sizeof *rec->moves);
	s.claims = put(b, start, rec->claims, rec->nclaims * sizeof *rec->claims);
	s.order = put(b, start, rec->order, rec->norder * sizeof *rec->order);
	s.comments = put(b, start, rec->comments, rec->ncomments * sizeof *rec->comments);
	s.text = put(b, start, rec->text.data, rec->text.len);
	s.src_text = put(b, start, rec->src.text, rec->src.len);
	s.events = put(b, start, events, nevents * sizeof *events);
	carc_buf_addc(b, '\0'); /* (the record's texts end with a NUL) */
	memcpy(b->data + start, &s, sizeof s);
}

static void unsnap(void *ctx, const char *data, size_t len)
{
	(void)len;
	const struct pass *p = ctx;
	const char *base = data + (-(uintptr_t)data & (SNAP_ALIGN - 1));
	struct snapshot s;
	memcpy(&s, base, sizeof s);
	struct carc_record *rec = &s.rec;
	rec->tags = (struct carc_tag *)(uintptr_t)(base + s.tags);
	rec->moves = (struct carc_move *)(uintptr_t)(base + s.moves);
	rec->claims = (struct carc_claim *)(uintptr_t)(base + s.claims);
	rec->order = (struct carc_order_item *)(uintptr_t)(base + s.order);
	rec->comments = (struct carc_comment *)(uintptr_t)(base + s.comments);
	rec->tags_cap = rec->ntags;
	rec->moves_cap = rec->nmoves;
	rec->claims_cap = rec->nclaims;
	rec->order_cap = rec->norder;
	rec->comments_cap = rec->ncomments;
	rec->text = (struct carc_buf){(char *)(uintptr_t)(base + s.text), rec->text.len, 0};
	rec->src.text = base + s.src_text;
	rec->own_text = NULL;
	struct carc_result *res = &s.res;
	res->rec = rec;
	res->game = NULL;
	res->turns = NULL;
	res->nturns = res->turns_cap = 0;
	res->nmods = 0;
	struct carc_archive_game game = {rec->src.name, rec, s.refereed ? res : NULL, s.codes, s.errors, s.warnings,
					 s.figures ? (const int(*)[CARC_SRC_COUNT])s.points : NULL,
					 s.figures ? s.largest : NULL,
					 (const struct carc_event *)(const void *)(base + s.events), s.nevents};
	p->fn(p->ctx, &game);
}

static void say_cannot(void *ctx, const char *name, const char *what, int err)
{
	(void)ctx;
	carc_say_cannot(name, what, err);
}

void carc_archive_each(char *const *paths, int npaths, bool referee, int jobs, carc_archive_fn fn, void *ctx,
		       struct carc_archive_totals *t)
{
	struct pass p = {fn, ctx};
	struct carc_jobs run = {.jobs = jobs, .diags = CARC_JOBS_COUNT, .referee = referee,
				.opts = {.no_turns = true}, .ctx = &p, .work = snapshot, .take = unsnap,
				.cannot = say_cannot};
	struct carc_jobs_totals jt = {0};
	carc_jobs_run(&run, paths, npaths, &jt);
	t->files += jt.files;
	t->unreadable += jt.unreadable;
	t->games += jt.games;
	t->trouble |= jt.trouble;
}

int carc_archive_points_from(const struct carc_archive_game *game, int colour, int source)
{
	return game->points ? game->points[colour][source] : 0;
}

const struct carc_event *carc_archive_events(const struct carc_archive_game *game, size_t *count)
{
	*count = game->points ? game->nevents : 0;
	return game->events;
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

void carc_archive_largest(const struct carc_archive_game *game, int tiles[CARC_MAX_KINDS])
{
	memset(tiles, 0, CARC_MAX_KINDS * sizeof *tiles);
	if (game->largest)
		memcpy(tiles, game->largest, CARC_MAX_KINDS * sizeof *tiles);
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
