/*
 * match.c - the carc_match handle: a game's text, its record and replay;
 * versions, return codes, diagnostics, and the state queries on scores,
 * followers and supply (api_int.h says who does what).
 */
#include "api/api_int.h"
#include "rules/rules.h"
#include "referee/project.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *carc_version(void)
{
	return CARC_VERSION_STRING;
}

int carc_version_number(void)
{
	return CARC_VERSION_NUMBER;
}

const char *carc_strerror(int rc)
{
	switch (rc) {
	case CARC_OK: return "success";
	case CARC_END: return "no more games";
	case CARC_EINVAL: return "invalid argument";
	case CARC_ENOMEM: return "out of memory";
	case CARC_EIO: return "cannot read the input";
	case CARC_ESYNTAX: return "not CGN";
	case CARC_EILLEGAL: return "the move breaks a rule";
	case CARC_ESTATE: return "not possible in the game's state";
	case CARC_ERANGE: return "out of range";
	default: return "unknown return code";
	}
}

/* ---- what clones share ---- */

struct api_shared *api_shared_new(void)
{
	struct api_shared *s = xcalloc(1, sizeof *s);
	s->cache = carc_tileset_cache_new();
	pthread_mutex_init(&s->lock, NULL);
	atomic_init(&s->refs, 1);
	return s;
}

struct api_shared *api_shared_ref(struct api_shared *s)
{
	atomic_fetch_add(&s->refs, 1);
	return s;
}

void api_shared_unref(struct api_shared *s)
{
	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	carc_tileset_cache_free(s->cache);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* ---- little helpers ---- */

int api_fail(carc_match *m, int rc, const char *fmt, ...)
{
	if (!m)
		return rc;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->error, sizeof m->error, fmt, ap);
	va_end(ap);
	return rc;
}

void api_copy(char *dst, size_t cap, const char *src)
{
	size_t n = src ? strlen(src) : 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src ? src : "", n);
	dst[n] = 0;
}

size_t api_out(const struct carc_buf *b, char *buf, size_t cap)
{
	if (buf && cap) {
		size_t n = b->len < cap ? b->len : cap - 1;
		memcpy(buf, b->data, n);
		buf[n] = 0;
	}
	return b->len;
}

void api_why(char *why, size_t cap, const char *msg)
{
	if (why && cap)
		api_copy(why, cap, msg);
}

const char *carc_match_error(const carc_match *m)
{
	return m ? m->error : "no game";
}

/* ---- the handle ---- */

carc_match *api_match_new(struct api_shared *shared, const char *name, const char *text, size_t len,
			  unsigned base_line, unsigned index)
{
	carc_match *m = xcalloc(1, sizeof *m);
	m->shared = shared;
	m->name = xstrdup(name ? name : "<memory>");
	carc_buf_add(&m->text, text, len);
	m->base_line = base_line ? base_line : 1;
	m->index = index ? index : 1;
	m->g = carc_game_new();
	m->position = CARC_POSITION_END;
	return m;
}

void carc_match_free(carc_match *m)
{
	if (!m)
		return;
	api_play_free(m->play);
	carc_result_free(&m->res);
	carc_game_free(m->g);
	carc_record_free(&m->rec);
	carc_buf_free(&m->text);
	carc_buf_free(&m->diag_text);
	free(m->diags);
	free(m->name);
	api_shared_unref(m->shared);
	free(m);
}

/* ---- the replay ---- */

/* The record from the text: parsed again when the text changed. */
static int build(carc_match *m, struct carc_diag_sink *sink)
{
	if (m->built)
		return CARC_OK;
	m->live = false;
	struct carc_diag_sink quiet = {0};
	pthread_mutex_lock(&m->shared->lock);
	bool got = carc_parse_string_at(m->text.data ? m->text.data : "", m->text.len, m->name, m->shared->cache, carc_rules_registry(), &m->rec,
					sink ? sink : &quiet, m->base_line, m->index - 1);
	pthread_mutex_unlock(&m->shared->lock);
	carc_diag_free(&quiet);
	m->built = true;
	m->replayed = -2; /* none yet */
	return got ? CARC_OK : CARC_ESYNTAX;
}

int api_replay(carc_match *m, int turns, struct carc_diag_sink *sink)
{
	int rc = build(m, sink);
	if (rc)
		return rc;
	if (m->replayed == turns && !sink)
		return CARC_OK;
	m->live = false;
	struct carc_diag_sink quiet = {0};
	struct carc_referee_opts o = {.stop_after = turns > 0 ? turns : 0};
	const struct carc_record *rec = &m->rec;
	if (turns == 0) { /* stop_after cannot say "none" (project.c): a copy with no turns */
		m->start_only = m->rec;
		m->start_only.nmoves = 0;
		m->start_only.has_result = false;
		m->start_only.termination = CARC_TERM_NONE;
		rec = &m->start_only;
	}
	carc_referee_run(&m->res, rec, m->g, sink ? sink : &quiet, turns == CARC_POSITION_END ? NULL : &o);
	carc_diag_free(&quiet);
	m->res.rec = &m->rec;
	m->replayed = turns;
	m->steps += m->rec.nmoves;
	return CARC_OK;
}

int api_live(carc_match *m)
{
	if (m->live)
		return CARC_OK;
	int rc = build(m, NULL);
	if (rc)
		return rc;
	struct carc_diag_sink quiet = {0};
	carc_referee_begin(&m->res, &m->rec, m->g, &quiet, NULL);
	int step = CARC_STEP_PLAYED;
	for (size_t i = 0; i < m->rec.nmoves && step == CARC_STEP_PLAYED; i++)
		step = carc_referee_step(&m->res, i, &quiet);
	m->steps += m->rec.nmoves;
	if (step != CARC_STEP_PLAYED)
		carc_referee_finish(&m->res, &quiet);
	carc_diag_free(&quiet);
	m->res.rec = &m->rec;
	m->replayed = CARC_POSITION_END;
	m->live = true;
	return CARC_OK;
}

/* ---- diagnostics ---- */

static void collect(void *ctx, const struct carc_diag *d)
{
	carc_match *m = ctx;
	if (m->ndiags == m->diags_cap) {
		m->diags_cap = m->diags_cap ? 2 * m->diags_cap : 8;
		m->diags = xrealloc(m->diags, m->diags_cap * sizeof *m->diags);
	}
	struct api_diag *k = &m->diags[m->ndiags++];
	api_copy(k->code, sizeof k->code, carc_code_str(d->code));
	k->severity = d->severity == CARC_SEV_ERROR ? CARC_SEVERITY_ERROR
		      : d->severity == CARC_SEV_WARNING ? CARC_SEVERITY_WARNING
							  : CARC_SEVERITY_NOTE;
	k->line = k->column = 0;
	if (d->src && d->src->text)
		carc_src_position(d->src, d->off, &k->line, &k->column);
	k->msg = m->diag_text.len;
	carc_buf_adds(&m->diag_text, d->message);
	carc_buf_addc(&m->diag_text, 0);
	m->errors += d->severity == CARC_SEV_ERROR;
}

int api_diagnose(carc_match *m)
{
	if (m->diagnosed)
		return CARC_OK;
	m->ndiags = 0;
	m->errors = 0;
	carc_buf_reset(&m->diag_text);
	struct carc_diag_sink sink = {.emit = collect, .ctx = m};
	carc_diag_hold(&sink, &m->rec.src); /* the messages in the order of the lines, as check gives them */
	m->built = false; /* parsed again, for the reader's messages */
	int rc = api_replay(m, CARC_POSITION_END, &sink);
	carc_diag_flush(&sink);
	carc_diag_hold(&sink, NULL);
	carc_diag_free(&sink);
	m->diagnosed = true;
	return rc;
}

void api_diag_out(const carc_match *m, const struct api_diag *d, carc_diagnostic *out)
{
	memcpy(out->code, d->code, sizeof out->code);
	out->severity = d->severity;
	out->message = m->diag_text.data + d->msg;
	out->file = m->name;
	out->line = d->line;
	out->column = d->column;
}

/* ---- the position and what stands there ---- */

/* The replay at the position asked for. */
static bool at_position(carc_match *m)
{
	if (!m)
		return false;
	return api_replay(m, m->position, NULL) == CARC_OK && m->rec.tileset;
}

int carc_match_seek(carc_match *m, int turns)
{
	if (!m || turns < CARC_POSITION_END)
		return CARC_EINVAL;
	int rc = build(m, NULL);
	if (rc)
		return api_fail(m, rc, "the game's text holds no game");
	if (turns != CARC_POSITION_END && (size_t)turns > m->rec.nmoves)
		return api_fail(m, CARC_ERANGE, "the game has %zu turns, not %d", m->rec.nmoves, turns);
	m->position = turns;
	return api_replay(m, turns, NULL);
}

int carc_match_position(const carc_match *m)
{
	return m ? m->position : CARC_EINVAL;
}

int carc_match_nplayers(const carc_match *m)
{
	carc_match *w = (carc_match *)m;
	if (!m || build(w, NULL))
		return 0;
	return m->rec.nseats;
}

static int colour_of(const carc_match *m, int seat)
{
	carc_match *w = (carc_match *)m;
	if (!m || build(w, NULL) || seat < 0 || seat >= m->rec.nseats)
		return -1;
	return m->rec.seats[seat];
}

const char *carc_match_colour(const carc_match *m, int seat)
{
	int c = colour_of(m, seat);
	return c < 0 ? NULL : carc_colour_name(c);
}

const char *carc_match_player(const carc_match *m, int seat)
{
	int c = colour_of(m, seat);
	return c < 0 ? NULL : carc_record_tag(&m->rec, CARC_TAG_KNOWN + c);
}

int carc_match_score(const carc_match *m, int seat)
{
	int c = colour_of(m, seat);
	if (c < 0 || !at_position((carc_match *)m))
		return 0;
	return m->res.result_only ? m->res.scores[c] : carc_game_score(m->g, c);
}

int carc_match_projected(carc_match *m, int seat)
{
	int c = colour_of(m, seat);
	if (c < 0 || !at_position(m))
		return 0;
	if (m->res.final_scored || !m->res.refereed)
		return carc_match_score(m, seat);
	/* the final scoring of the position, on the replay itself, which is
	 * then replayed again for the next question */
	carc_result_score_final_quiet(&m->res);
	int points = carc_game_score(m->g, c);
	m->replayed = -2;
	m->live = false;
	return points;
}

int carc_match_followers_left(const carc_match *m, int seat)
{
	int c = colour_of(m, seat);
	if (c < 0 || !at_position((carc_match *)m) || !m->res.refereed)
		return 0;
	return carc_game_supply(m->g, c);
}

int carc_match_supply_left(const carc_match *m)
{
	if (!at_position((carc_match *)m) || !m->res.refereed)
		return 0;
	return carc_game_supply_left(m->g);
}

int carc_match_over(const carc_match *m)
{
	if (!at_position((carc_match *)m))
		return 0;
	bool forced;
	int colour;
	return m->res.finished || m->res.result_only || carc_result_ended(&m->res, &forced, &colour) != 0;
}

int carc_match_final(const carc_match *m)
{
	if (!at_position((carc_match *)m))
		return 0;
	return m->res.final_scored;
}
