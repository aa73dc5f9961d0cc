/*
 * read.c - carc.h's read group: records from a file, a buffer in memory or
 * a stream (plain, gzip or zstd, told by content, as every command reads
 * them), each game a carc_match with its tags, turns and diagnostics; and
 * the map of a match at its position: tiles, features, followers.
 *
 * The reader streams, one game's text at a time, and each game is refereed
 * at once as `carc check` referees it: the reader's messages and the
 * referee's held together and given in the order of the game's lines, so
 * that a game's diagnostics are check's, those only the reader can see
 * (a line cut at 64 KiB, binary data) included. The game's record, with
 * its text copied into the match, and the replay of the whole game are
 * handed to the match as built (api_int.h), so nothing is read twice.
 */
#define _GNU_SOURCE /* fmemopen */
#include "api/api_int.h"
#include "common/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- records ---- */

struct carc_records {
	struct api_shared *shared;  /* the tile sets, shared with the games read */
	char *name;                 /* the file, as the diagnostics call it */
	FILE *in;                   /* what the reader reads (decompressed) */
	FILE *raw;                  /* under it: the file, the buffer, the caller's stream */
	bool keep_raw;              /* raw is the caller's */
	char *data;                 /* carc_records_open_memory's copy */
	struct carc_reader *reader;
	struct carc_record rec;     /* the game being read, then handed to its match */
	struct carc_diag_sink sink;
	carc_match *taking;         /* the match the sink's messages go to */
	bool ended;
	char error[512];
};

/* A message of the game being read, kept by its match (none when the
 * input holds no more game: then it is dropped). */
static void keep_diag(void *ctx, const struct carc_diag *d)
{
	carc_records *r = ctx;
	carc_match *m = r->taking;
	if (!m)
		return;
	if (m->ndiags == m->diags_cap) {
		m->diags_cap = m->diags_cap ? 2 * m->diags_cap : 8;
		m->diags = xrealloc(m->diags, m->diags_cap * sizeof *m->diags);
	}
	struct api_diag *k = &m->diags[m->ndiags++];
	*k = (struct api_diag){.severity = (int)d->severity, .msg = m->diag_text.len};
	api_copy(k->code, sizeof k->code, carc_code_str(d->code));
	if (d->src && d->src->text)
		carc_src_position(d->src, d->off, &k->line, &k->column);
	carc_buf_add(&m->diag_text, d->message, strlen(d->message) + 1);
	m->errors += d->severity == CARC_SEV_ERROR;
}

/* Records over raw (plain or compressed), named name; NULL after saying
 * why. keep_raw: raw is the caller's and stays open. */
static carc_records *records_over(FILE *raw, bool keep_raw, const char *name, char *why, size_t cap)
{
	FILE *in = carc_input_stream(raw, keep_raw);
	if (!in) {
		char msg[512];
		snprintf(msg, sizeof msg, "cannot read %s: %s", name, strerror(errno));
		api_why(why, cap, msg);
		return NULL;
	}
	carc_records *r = xcalloc(1, sizeof *r);
	r->shared = api_shared_new();
	r->name = xstrdup(name);
	r->in = in;
	r->raw = raw;
	r->keep_raw = keep_raw;
	r->reader = carc_reader_new(in, r->name, r->shared->cache);
	r->sink = (struct carc_diag_sink){.emit = keep_diag, .ctx = r};
	return r;
}

carc_records *carc_records_open(const char *path, char *why, size_t cap)
{
	if (!path) {
		api_why(why, cap, "no file given");
		return NULL;
	}
	FILE *raw = fopen(path, "rb");
	if (!raw) {
		char msg[512];
		snprintf(msg, sizeof msg, "cannot open %s: %s", path, strerror(errno));
		api_why(why, cap, msg);
		return NULL;
	}
	carc_records *r = records_over(raw, false, path, why, cap);
	if (!r)
		fclose(raw);
	return r;
}

carc_records *carc_records_open_memory(const void *data, size_t len, const char *name, char *why, size_t cap)
{
	if (!data && len) {
		api_why(why, cap, "no data given");
		return NULL;
	}
	if (!name)
		name = "<memory>";
	char *copy = xmalloc(len + 1); /* (fmemopen wants a buffer of a byte at least) */
	if (len)
		memcpy(copy, data, len);
	/* an empty buffer is an empty stream (fmemopen may refuse size 0) */
	FILE *raw = len ? fmemopen(copy, len, "rb") : fopen("/dev/null", "rb");
	if (!raw) {
		char msg[512];
		snprintf(msg, sizeof msg, "cannot read %s: %s", name, strerror(errno));
		api_why(why, cap, msg);
		free(copy);
		return NULL;
	}
	carc_records *r = records_over(raw, false, name, why, cap);
	if (!r) {
		fclose(raw);
		free(copy);
		return NULL;
	}
	r->data = copy;
	return r;
}

carc_records *carc_records_open_stream(FILE *f, const char *name, char *why, size_t cap)
{
	if (!f) {
		api_why(why, cap, "no stream given");
		return NULL;
	}
	return records_over(f, true, name ? name : "<stream>", why, cap);
}

void carc_records_close(carc_records *r)
{
	if (!r)
		return;
	carc_reader_free(r->reader);
	if (r->in != r->raw) /* the decompressing stream: it closes raw unless raw is the caller's */
		fclose(r->in);
	else if (!r->keep_raw)
		fclose(r->raw);
	free(r->data);
	carc_record_free(&r->rec);
	carc_diag_free(&r->sink);
	api_shared_unref(r->shared);
	free(r->name);
	free(r);
}

/* The game the reader has just read into r->rec, made a match: the record
 * moved into it over its own copy of the text, refereed, and its messages
 * (the reader's held with the referee's) kept in the order of its lines. */
static carc_match *take_game(carc_records *r)
{
	struct carc_record *rec = &r->rec;
	carc_match *m = api_match_new(api_shared_ref(r->shared), r->name, rec->src.text, rec->src.len,
				      rec->src.base_line, rec->index);
	if (!m)
		return NULL;
	m->rec = *rec;
	memset(rec, 0, sizeof *rec); /* (the reader makes new arrays for the next game) */
	m->rec.src = (struct carc_src){.name = m->name, .text = m->text.data ? m->text.data : "",
				       .len = m->text.len, .base_line = m->rec.src.base_line};
	/* the reader's messages are held by offset: they point into the
	 * match's copy now as well as they did into the reader's */
	carc_diag_hold(&r->sink, &m->rec.src);
	r->taking = m;
	carc_referee_run(&m->res, &m->rec, m->g, &r->sink, NULL);
	carc_diag_flush(&r->sink);
	r->taking = NULL;
	m->built = true;
	m->replayed = CARC_POSITION_END;
	m->position = CARC_POSITION_END;
	m->diagnosed = true;
	return m;
}

int carc_records_next(carc_records *r, carc_match **out)
{
	if (!r || !out)
		return CARC_EINVAL;
	*out = NULL;
	r->error[0] = '\0';
	if (r->ended)
		return CARC_END;
	/* the game's counts from nothing, its messages held for their order */
	memset(r->sink.counts, 0, sizeof r->sink.counts);
	r->sink.errors = r->sink.warnings = 0;
	carc_diag_hold(&r->sink, &r->rec.src);
	pthread_mutex_lock(&r->shared->lock); /* (the tile sets: the games read may load some too) */
	bool more = carc_reader_next(r->reader, &r->rec, &r->sink);
	pthread_mutex_unlock(&r->shared->lock);
	if (more) {
		*out = take_game(r);
		carc_diag_hold(&r->sink, NULL);
		if (!*out) {
			snprintf(r->error, sizeof r->error, "out of memory");
			return CARC_ENOMEM;
		}
		return CARC_OK;
	}
	carc_diag_flush(&r->sink); /* (comments alone after the last game: nothing to say) */
	carc_diag_hold(&r->sink, NULL);
	r->ended = true;
	int err = carc_reader_error(r->reader);
	if (err) {
		snprintf(r->error, sizeof r->error, "cannot read %s: %s", r->name, carc_input_strerror(err));
		return CARC_EIO;
	}
	return CARC_END;
}

const char *carc_records_error(const carc_records *r)
{
	return r ? r->error : "";
}

/* ---- tags ---- */

/* The record, parsed from the text when a played game changed it. */
static const struct carc_record *record_of(const carc_match *m)
{
	if (!m)
		return NULL;
	if (!m->built && api_replay((carc_match *)m, CARC_POSITION_END, NULL) != CARC_OK)
		return NULL;
	return &m->rec;
}

int carc_match_ntags(const carc_match *m)
{
	const struct carc_record *rec = record_of(m);
	return rec ? (int)rec->ntags : 0;
}

size_t carc_match_tag_name(const carc_match *m, int i, char *buf, size_t cap)
{
	const struct carc_record *rec = record_of(m);
	struct carc_buf name = {0};
	if (rec && i >= 0 && (size_t)i < rec->ntags)
		carc_buf_add(&name, rec->src.text + rec->tags[i].name.off, rec->tags[i].name.len);
	size_t n = api_out(&name, buf, cap);
	carc_buf_free(&name);
	return n;
}

const char *carc_match_tag_value(const carc_match *m, int i)
{
	const struct carc_record *rec = record_of(m);
	if (!rec || i < 0 || (size_t)i >= rec->ntags)
		return NULL;
	return carc_tag_text(rec, &rec->tags[i]);
}

const char *carc_match_tag(const carc_match *m, const char *name)
{
	const struct carc_record *rec = record_of(m);
	if (!rec || !name)
		return NULL;
	size_t len = strlen(name);
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_span *n = &rec->tags[i].name;
		if (n->len == len && !strncasecmp(rec->src.text + n->off, name, len))
			return carc_tag_text(rec, &rec->tags[i]);
	}
	return NULL;
}

/* ---- diagnostics ---- */

int carc_match_ndiagnostics(const carc_match *m)
{
	if (!m || api_diagnose((carc_match *)m) == CARC_ESYNTAX) /* (a text of no game: none) */
		return 0;
	return (int)m->ndiags;
}

int carc_match_diagnostic(const carc_match *m, int i, carc_diagnostic *out)
{
	if (!out || i < 0 || i >= carc_match_ndiagnostics(m))
		return CARC_ERANGE;
	api_diag_out(m, &m->diags[i], out);
	return CARC_OK;
}

int carc_match_valid(const carc_match *m)
{
	return carc_match_ndiagnostics(m) >= 0 && m && m->errors == 0;
}

/* ---- turns ---- */

/* The record and the replay of the whole game (its turns). */
static const struct carc_result *whole_game(const carc_match *m)
{
	if (!m || api_replay((carc_match *)m, CARC_POSITION_END, NULL) != CARC_OK)
		return NULL;
	return &m->res;
}

/* The word of a role of the game's rules, or "". */
static const char *role_word(const struct carc_ruleset *rules, int role)
{
	return role >= 0 && role < CARC_MAX_ROLES && rules->roles[role].name ? rules->roles[role].name : "";
}

/* n bytes of text into a field of cap bytes, cut to fit. */
static void put_text(char *field, size_t cap, const char *text, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(field, text, n);
	field[n] = '\0';
}

/* A solo turn's scoring order, as CGN writes it after "order". */
static void put_order(char *field, size_t cap, const struct carc_record *rec, const struct carc_move *mv)
{
	struct carc_buf b = {0};
	for (unsigned k = 0; k < mv->order_count; k++) {
		const struct carc_order_item *it = &rec->order[mv->order_first + k];
		if (k)
			carc_buf_addc(&b, ' ');
		if (it->has_coord)
			carc_buf_printf(&b, "%d,%d:", (int)it->x, (int)it->y);
		carc_buf_adds(&b, carc_spot_name(it->spot));
	}
	put_text(field, cap, b.len ? b.data : "", b.len);
	carc_buf_free(&b);
}

int carc_match_nturns(const carc_match *m)
{
	const struct carc_result *res = whole_game(m);
	return res ? (int)res->nturns : 0;
}

int carc_match_turn(const carc_match *m, int i, carc_turn_info *out)
{
	const struct carc_result *res = whole_game(m);
	if (!res || !out || i < 0 || (size_t)i >= res->nturns)
		return CARC_ERANGE;
	const struct carc_record *rec = &m->rec;
	const struct carc_turn *t = &res->turns[i];
	const struct carc_move *mv = &rec->moves[t->move];
	memset(out, 0, sizeof *out);
	out->number = t->number;
	out->bonus = t->bonus;
	out->illegal = t->illegal;
	api_copy(out->colour, sizeof out->colour, carc_colour_name(t->colour));
	unsigned column;
	carc_src_position(&rec->src, mv->line.off, &out->line, &column);
	carc_move_spec *s = &out->move;
	put_text(s->tile, sizeof s->tile, rec->src.text + mv->tile_span.off, mv->tile_span.len);
	s->discard = t->discard;
	if (!t->discard) {
		s->x = mv->x;
		s->y = mv->y;
		s->rotation = mv->rot * 90;
		if (mv->role >= 0) {
			api_copy(s->role, sizeof s->role, role_word(rec->rules, mv->role));
			api_copy(s->spot, sizeof s->spot, carc_spot_name(mv->spot));
		} else if (mv->recall >= 0) {
			api_copy(s->recall, sizeof s->recall, role_word(rec->rules, mv->recall));
		}
		if (mv->has_order)
			put_order(s->order, sizeof s->order, rec, mv);
	}
	for (int seat = 0; seat < rec->nseats && seat < 8; seat++)
		out->scores[seat] = t->scores[rec->seats[seat]];
	return CARC_OK;
}

/* ---- the map at the position ---- */

/* The engine at the match's position (carc_match_seek); NULL when the
 * game was not refereed (nothing on the map). */
static struct carc_game *board(const carc_match *m)
{
	if (!m || api_replay((carc_match *)m, m->position, NULL) != CARC_OK || !m->res.refereed)
		return NULL;
	return m->g;
}

int carc_match_ntiles(const carc_match *m)
{
	const struct carc_game *g = board(m);
	size_t n = 0;
	if (g)
		carc_game_placements(g, &n);
	return (int)n;
}

int carc_match_tile(const carc_match *m, int i, carc_tile_info *out)
{
	const struct carc_game *g = board(m);
	size_t n = 0;
	const struct carc_placement *pl = g ? carc_game_placements(g, &n) : NULL;
	if (!out || i < 0 || (size_t)i >= n)
		return CARC_ERANGE;
	const struct carc_placement *p = &pl[i];
	memset(out, 0, sizeof *out);
	api_copy(out->id, sizeof out->id, carc_game_tileset(g)->tiles[p->tile].id);
	out->x = p->x;
	out->y = p->y;
	out->rotation = p->rot * 90;
	out->turn = p->turn;
	if (p->colour < CARC_COLOURS)
		api_copy(out->colour, sizeof out->colour, carc_colour_name(p->colour));
	return CARC_OK;
}

/* Features are numbered in the order of their roots: carc_game_each_feature's. */
struct feature_walk {
	int want;          /* the index looked for, or -1 */
	uint32_t root;     /* ... its root; or the root whose index is looked for */
	int n;             /* features walked */
	int found;         /* the index found, or -1 */
};

static void walk_feature(void *ctx, uint32_t root)
{
	struct feature_walk *w = ctx;
	if (w->want >= 0 ? w->n == w->want : root == w->root) {
		if (w->found < 0) {
			w->found = w->n;
			w->root = root;
		}
	}
	w->n++;
}

/* The root of feature i (true), or false when there is none. */
static bool feature_root(struct carc_game *g, int i, uint32_t *root)
{
	struct feature_walk w = {.want = i, .found = -1};
	if (i < 0)
		return false;
	carc_game_each_feature(g, walk_feature, &w);
	*root = w.root;
	return w.found >= 0;
}

/* The index of the feature with this root. */
static int feature_index(struct carc_game *g, uint32_t root)
{
	struct feature_walk w = {.want = -1, .root = root, .found = -1};
	carc_game_each_feature(g, walk_feature, &w);
	return w.found;
}

/* The root of the feature a follower stands on. */
static uint32_t follower_root(struct carc_game *g, const struct carc_follower *f)
{
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	return carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
}

/* Follower i of those on the map, or NULL. */
static const struct carc_follower *on_map(const struct carc_game *g, int i)
{
	size_t nf;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	for (size_t k = 0; k < nf && i >= 0; k++)
		if (fl[k].active && i-- == 0)
			return &fl[k];
	return NULL;
}

int carc_match_nfeatures(carc_match *m)
{
	struct carc_game *g = board(m);
	struct feature_walk w = {.want = -1, .root = UINT32_MAX, .found = -1};
	if (g)
		carc_game_each_feature(g, walk_feature, &w);
	return w.n;
}

int carc_match_feature(carc_match *m, int i, carc_feature_info *out)
{
	struct carc_game *g = board(m);
	uint32_t root;
	if (!g || !out || !feature_root(g, i, &root))
		return CARC_ERANGE;
	memset(out, 0, sizeof *out);
	api_copy(out->kind, sizeof out->kind, carc_game_tileset(g)->kinds[carc_game_feature_kind(g, root)].name);
	struct carc_buf name = {0};
	carc_game_feature_name(g, root, &name);
	api_copy(out->name, sizeof out->name, carc_buf_cstr(&name));
	carc_buf_free(&name);
	out->ntiles = carc_game_feature_tiles(g, root);
	out->complete = carc_game_feature_complete(g, root);
	size_t nev;
	const struct carc_event *ev = carc_game_events(g, &nev);
	for (size_t k = 0; k < nev; k++)
		if (ev[k].feature == root) {
			out->scored = 1;
			out->points += ev[k].points;
		}
	size_t nf;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	for (size_t k = 0; k < nf; k++)
		out->followers += fl[k].active && follower_root(g, &fl[k]) == root;
	uint8_t colours = carc_game_majority(g, carc_game_feature_followers(g, root));
	for (int s = 0; s < m->rec.nseats; s++)
		if (colours >> m->rec.seats[s] & 1)
			out->owners |= (uint8_t)(1u << s);
	return CARC_OK;
}

int carc_match_feature_tiles(carc_match *m, int i, int *tiles, int max)
{
	struct carc_game *g = board(m);
	uint32_t root;
	if (!g || max < 0 || (max > 0 && !tiles) || !feature_root(g, i, &root))
		return CARC_ERANGE;
	int none[1];
	return carc_game_feature_placements(g, root, max ? tiles : none, max);
}

int carc_match_nfollowers(carc_match *m)
{
	struct carc_game *g = board(m);
	size_t nf = 0;
	const struct carc_follower *fl = g ? carc_game_followers(g, &nf) : NULL;
	int n = 0;
	for (size_t k = 0; k < nf; k++)
		n += fl[k].active != 0;
	return n;
}

int carc_match_follower(carc_match *m, int i, carc_follower_info *out)
{
	struct carc_game *g = board(m);
	const struct carc_follower *f = g ? on_map(g, i) : NULL;
	if (!f || !out)
		return CARC_ERANGE;
	memset(out, 0, sizeof *out);
	api_copy(out->colour, sizeof out->colour, carc_colour_name(f->colour));
	api_copy(out->role, sizeof out->role, role_word(carc_game_rules(g), f->role));
	out->tile = f->placement;
	api_copy(out->spot, sizeof out->spot, carc_spot_name(f->spot));
	out->feature = feature_index(g, follower_root(g, f));
	out->turn = f->turn;
	return CARC_OK;
}
