/*
 * cmd_check.c - carc check: validate every game of every file.
 *
 * Diagnostics go to standard error in GNU format; the last line on standard
 * output sums up: "N games, N valid, N invalid, N unreadable". With
 * --format json, standard output has one JSON object per game instead (JSON
 * Lines) and the diagnostics are inside them. With -j N, files are checked
 * by N threads; each file's output is kept and printed in the order the
 * files were given, so the output does not depend on -j. One plain file is
 * cut into parts that the N threads read, each with a reader of its own
 * (check_parts); standard input or compressed data is read here and its
 * games refereed by N threads in batches (check_split). --max-errors counts
 * the error messages of the whole run, in that order: one printer prints
 * every file's messages, as they come without -j, or when a file's turn
 * comes with -j (its messages are formatted by its thread and held till then).
 */
#include "cli/cli.h"
#include "cli/split.h"
#include "notation/gameid.h"
#include "common/input.h"
#include "common/json.h"
#include "referee/referee.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct check_opts {
	bool quiet, werror, json, color;
	unsigned max_errors;
	int jobs;
};

/* A diagnostic formatted by a thread, held for the run's printer. */
struct held_msg {
	size_t off, len; /* in file_job.held_text */
	bool error;
};

struct file_job {
	const char *path;
	const struct check_opts *opt;
	/* JSON goes to outf: standard output when files are checked one by
	 * one, a memory stream with -j */
	FILE *outf;
	char *out_data;
	size_t out_len;
	/* text diagnostics go to printer, the run's, when files are checked
	 * one by one; with -j (printer NULL) they are held, in order */
	struct carc_printer *printer;
	struct carc_buf held_text;
	struct held_msg *held;
	size_t nheld, held_cap;
	unsigned games, valid, invalid;
	unsigned results;    /* games whose moves were not recorded: not refereed */
	bool unreadable, trouble;
	bool done;           /* -j: checked (under the pool's lock) */
	struct carc_buf *json_buf; /* -j on one input: JSON goes here, not to outf */
};

static void held_add(struct held_msg **held, size_t *n, size_t *cap, struct held_msg m)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*held = xrealloc(*held, *cap * sizeof **held);
	}
	(*held)[(*n)++] = m;
}

/* Formats d into text and adds it to the held messages. */
static void hold_diag(struct carc_buf *text, struct held_msg **held, size_t *n, size_t *cap, const struct carc_diag *d,
		      bool color)
{
	size_t off = text->len;
	carc_diag_format(text, d, color);
	held_add(held, n, cap, (struct held_msg){off, text->len - off, d->severity == CARC_SEV_ERROR});
}

/* The text sink of a file (ctx: its job): prints the diagnostic with the
 * run's printer, or formats it and holds it till the file's turn (-j). */
static void text_diag(void *ctx, const struct carc_diag *d)
{
	struct file_job *job = ctx;
	if (job->printer) {
		carc_print_diag(job->printer, d);
		return;
	}
	if (job->opt->quiet)
		return;
	hold_diag(&job->held_text, &job->held, &job->nheld, &job->held_cap, d, job->opt->color);
}

/* Collects a game's diagnostics as JSON for --format json. */
struct json_diags {
	struct carc_buf *json;
	unsigned count;
};

static void json_diag(void *ctx, const struct carc_diag *d)
{
	struct json_diags *jd = ctx;
	struct carc_buf *b = jd->json;
	static const char *const sev[] = {"error", "warning", "note"};
	carc_buf_adds(b, jd->count++ ? ",{" : "{");
	carc_buf_printf(b, "\"code\":\"%s\",\"severity\":\"%s\",", carc_code_str(d->code), sev[d->severity]);
	if (d->src) {
		carc_buf_adds(b, "\"file\":");
		carc_json_cstr(b, d->src->name);
		carc_buf_addc(b, ',');
	}
	if (d->src && d->src->text) { /* (none: the file as a whole) */
		unsigned line, col;
		carc_src_position(d->src, d->off, &line, &col);
		carc_buf_printf(b, "\"line\":%u,\"column\":%u,", line, col);
	}
	carc_buf_adds(b, "\"message\":");
	carc_json_cstr(b, d->message);
	carc_buf_addc(b, '}');
}

static void json_game(struct carc_buf *out, const char *name, const struct carc_record *rec, uint64_t offset,
		      const struct carc_result *res, bool valid, const char *diags)
{
	char id[CARC_GAME_ID_HEX + 1];
	carc_buf_adds(out, "{\"file\":");
	carc_json_cstr(out, name);
	carc_buf_printf(out, ",\"game\":%u,\"line\":%u,\"offset\":%llu,\"id\":\"%s\",", rec->index,
			rec->src.base_line, (unsigned long long)offset, carc_game_id_hex(carc_game_id(rec), id));
	carc_buf_printf(out, "\"valid\":%s,\"finished\":%s,\"errors\":%u,\"warnings\":%u,", valid ? "true" : "false",
			res->finished ? "true" : "false", res->errors, res->warnings);
	if (res->result_only) /* the moves were not recorded: nothing was refereed */
		carc_buf_adds(out, "\"refereed\":false,\"result_only\":true,");
	carc_buf_printf(out, "\"rules\":\"%s\",\"turns\":%d,\"scores\":{", rec->rules->name, res->last_turn);
	for (int s = 0; s < rec->nseats; s++)
		carc_buf_printf(out, "%s\"%s\":%d", s ? "," : "", carc_colour_name(rec->seats[s]),
				res->scores[rec->seats[s]]);
	carc_buf_adds(out, "},\"tags\":{");
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_tag *t = &rec->tags[i];
		if (i)
			carc_buf_addc(out, ',');
		carc_json_string(out, rec->src.text + t->name.off, t->name.len);
		carc_buf_addc(out, ':');
		carc_json_string(out, carc_tag_text(rec, t), t->text_len);
	}
	carc_buf_printf(out, "},\"diagnostics\":[%s]}\n", diags);
}

/* A file that cannot be opened or read to the end (what: "open" or "read";
 * err: the errno): its message, E001, and in JSON an object of its own
 * after those of the games read before the failure, if any. */
static void unreadable(struct file_job *job, const char *name, const char *what, int err)
{
	struct carc_src whole = {.name = name}; /* no text: the file as a whole */
	struct carc_buf msg = {0};
	carc_buf_printf(&msg, "cannot %s: %s", what, carc_input_strerror(err));
	struct carc_diag d = {CARC_E001, CARC_SEV_ERROR, &whole, 0, 0, carc_buf_cstr(&msg)};
	if (job->opt->json) {
		struct carc_buf diags = {0}, line = {0};
		struct json_diags jd = {&diags, 0};
		json_diag(&jd, &d);
		carc_buf_adds(&line, "{\"file\":");
		carc_json_cstr(&line, name);
		carc_buf_printf(&line, ",\"unreadable\":true,\"diagnostics\":[%s]}\n", carc_buf_cstr(&diags));
		if (job->json_buf)
			carc_buf_add(job->json_buf, line.data, line.len);
		else
			fwrite(line.data, 1, line.len, job->outf);
		carc_buf_free(&diags);
		carc_buf_free(&line);
	} else {
		text_diag(job, &d);
	}
	job->unreadable = true;
	carc_buf_free(&msg);
}

/* What refereeing a game needs, kept from game to game: the engine, the
 * result, and the sink its diagnostics go to (text_diag, or json_diag
 * into diags). */
struct checker {
	struct file_job *job;
	struct carc_game *g;
	struct carc_result res;
	struct carc_buf diags, line;
	struct json_diags jd;
	struct carc_diag_sink sink;
};

static void checker_init(struct checker *c, const struct check_opts *opt)
{
	*c = (struct checker){.g = carc_game_new()};
	c->jd.json = &c->diags;
	c->sink = opt->json ? (struct carc_diag_sink){json_diag, &c->jd} : (struct carc_diag_sink){text_diag, NULL};
}

/* The job whose games c checks next (the engine is kept: it is big). */
static void checker_for(struct checker *c, struct file_job *job)
{
	c->job = job;
	if (!job->opt->json)
		c->sink.ctx = job;
}

static void checker_free(struct checker *c)
{
	carc_game_free(c->g);
	carc_result_free(&c->res);
	carc_buf_free(&c->diags);
	carc_buf_free(&c->line);
	carc_diag_free(&c->sink);
}

/* Referees rec, counts it in the job, and writes its JSON line (with the
 * diagnostics the sink collected since it was read, and those of play). */
static void check_record(struct checker *c, const char *name, const struct carc_record *rec, uint64_t offset)
{
	struct file_job *job = c->job;
	/* the verdict and the totals need no turn records */
	carc_referee_run(&c->res, rec, c->g, &c->sink, &(struct carc_referee_opts){.no_turns = true});
	carc_diag_flush(&c->sink); /* the game's messages, held, in the order of its lines */
	if (!rec->tileset)
		job->trouble = true;
	bool valid = c->res.errors == 0 && !(job->opt->werror && c->res.warnings);
	job->games++;
	job->results += c->res.result_only;
	if (valid)
		job->valid++;
	else
		job->invalid++;
	if (job->opt->json && job->json_buf) {
		json_game(job->json_buf, name, rec, offset, &c->res, valid, carc_buf_cstr(&c->diags));
	} else if (job->opt->json) {
		carc_buf_reset(&c->line);
		json_game(&c->line, name, rec, offset, &c->res, valid, carc_buf_cstr(&c->diags));
		fwrite(c->line.data, 1, c->line.len, job->outf);
	}
}

/* Checks the games of f, an open input named name, one after the other. */
static void check_stream(struct file_job *job, const char *name, FILE *f)
{
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(f, name, cache);
	struct carc_record rec = {0};
	struct checker c;
	checker_init(&c, job->opt);
	checker_for(&c, job);
	carc_diag_hold(&c.sink, &rec.src); /* each game's messages in the order of its lines */
	for (;;) {
		carc_buf_reset(&c.diags);
		c.jd.count = 0;
		if (!carc_reader_next(r, &rec, &c.sink))
			break;
		check_record(&c, name, &rec, carc_reader_game_offset(r));
	}
	carc_diag_flush(&c.sink);
	if (carc_reader_error(r))
		unreadable(job, name, "read", carc_reader_error(r));
	checker_free(&c);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
}

static void check_file(struct file_job *job)
{
	const char *name = carc_input_name(job->path);
	FILE *f = carc_open_input(job->path);
	if (!f) {
		unreadable(job, name, "open", errno);
		return;
	}
	check_stream(job, name, f);
	carc_close_input(f);
}

struct totals {
	unsigned games, valid, invalid, unreadable, results;
	bool trouble;
};

/* A checked file's turn: its held messages through the run's printer, its
 * JSON, its counts; then what it held is freed. */
static void print_held(struct carc_printer *printer, struct file_job *j, struct totals *t)
{
	for (size_t m = 0; m < j->nheld; m++)
		carc_print_text(printer, j->held[m].error, j->held_text.data + j->held[m].off, j->held[m].len);
	if (j->out_len)
		fwrite(j->out_data, 1, j->out_len, stdout);
	if (j->json_buf && j->json_buf->len)
		fwrite(j->json_buf->data, 1, j->json_buf->len, stdout);
	t->games += j->games;
	t->valid += j->valid;
	t->invalid += j->invalid;
	t->results += j->results;
	t->unreadable += j->unreadable;
	t->trouble |= j->trouble;
}

static void take(struct carc_printer *printer, struct file_job *j, struct totals *t)
{
	print_held(printer, j, t);
	carc_buf_free(&j->held_text);
	free(j->held);
	free(j->out_data);
	j->held = NULL;
	j->out_data = NULL;
}

/* ---- work for N threads, given and taken back in order ----
 *
 * This thread puts items (batches, parts) at the queue's end; the worker
 * threads take them in that order and say when each is done; this thread
 * takes them back from the front once done, in order, and prints them. At
 * most cap items are in the queue. */
struct work_queue {
	void **items;            /* a ring */
	bool *done;              /* (by slot) */
	size_t cap, first, count, next_todo;
	bool closing;
	pthread_mutex_t lock;
	pthread_cond_t todo, done_cond;
};

static void wq_init(struct work_queue *q, size_t cap)
{
	*q = (struct work_queue){.items = xcalloc(cap, sizeof *q->items), .done = xcalloc(cap, sizeof *q->done),
				 .cap = cap, .lock = PTHREAD_MUTEX_INITIALIZER, .todo = PTHREAD_COND_INITIALIZER,
				 .done_cond = PTHREAD_COND_INITIALIZER};
}

static void wq_free(struct work_queue *q)
{
	free(q->items);
	free(q->done);
}

static bool wq_full(struct work_queue *q)
{
	pthread_mutex_lock(&q->lock);
	bool full = q->count == q->cap;
	pthread_mutex_unlock(&q->lock);
	return full;
}

/* Puts item at the end (the queue is not full). */
static void wq_put(struct work_queue *q, void *item)
{
	pthread_mutex_lock(&q->lock);
	size_t slot = (q->first + q->count++) % q->cap;
	q->items[slot] = item;
	q->done[slot] = false;
	pthread_cond_signal(&q->todo);
	pthread_mutex_unlock(&q->lock);
}

/* A worker's next item and its slot, waiting for one; NULL once the queue
 * is closed and all is taken. */
static void *wq_take(struct work_queue *q, size_t *slot)
{
	pthread_mutex_lock(&q->lock);
	while (q->next_todo == q->count && !q->closing)
		pthread_cond_wait(&q->todo, &q->lock);
	void *item = NULL;
	if (q->next_todo < q->count) {
		*slot = (q->first + q->next_todo++) % q->cap;
		item = q->items[*slot];
	}
	pthread_mutex_unlock(&q->lock);
	return item;
}

static void wq_done(struct work_queue *q, size_t slot)
{
	pthread_mutex_lock(&q->lock);
	q->done[slot] = true;
	pthread_cond_broadcast(&q->done_cond);
	pthread_mutex_unlock(&q->lock);
}

/* Takes out the first item once it is done, waiting for that when wait;
 * NULL when the queue is empty, or the first is not done and not wait. */
static void *wq_first(struct work_queue *q, bool wait)
{
	pthread_mutex_lock(&q->lock);
	void *item = NULL;
	while (q->count && wait && !q->done[q->first])
		pthread_cond_wait(&q->done_cond, &q->lock);
	if (q->count && q->done[q->first]) {
		item = q->items[q->first];
		q->first = (q->first + 1) % q->cap;
		q->count--;
		q->next_todo--;
	}
	pthread_mutex_unlock(&q->lock);
	return item;
}

/* No more items: the workers return once all are taken. */
static void wq_close(struct work_queue *q)
{
	pthread_mutex_lock(&q->lock);
	q->closing = true;
	pthread_cond_broadcast(&q->todo);
	pthread_mutex_unlock(&q->lock);
}

/* ---- -j N on one input: reading here, refereeing in N threads ----
 *
 * The input is read in this thread by one reader, exactly as without -j,
 * so games, their numbers, lines, offsets and the reader's messages are
 * the same; each game's text is copied out with its parse messages into a
 * batch, and batches are refereed by the threads and printed here in the
 * order they were read. At most MAX_BATCHES(N) batches exist at once, each
 * of at most BATCH_GAMES games or BATCH_TEXT bytes of text (or one game,
 * when a game alone is bigger): that, with the reader's own buffer, bounds
 * the memory whatever the size of the input. */

enum { BATCH_GAMES = 64, BATCH_TEXT = 1 << 18 };
#define MAX_BATCHES(jobs) (2 * (size_t)(jobs) + 2)

/* A message of the reader about the game it was reading, kept as it came
 * (its text in the batch's raw_text), to be given to the sink of the
 * thread that referees the game, so that the game's messages are put in
 * the order of its lines as without -j. */
struct raw_msg {
	enum carc_code code;
	size_t off, len, text;
};

struct parsed_game {
	struct carc_record rec;  /* its arrays are reused when the batch is */
	size_t text_off;         /* its text, in the batch's */
	uint64_t offset;
	size_t raw_first, nraw;  /* its reader's messages about itself, in the batch's */
	size_t msg_first, nmsg;  /* text: its other parse messages, in the batch's */
	size_t json_off, json_len; /* json: its parse diagnostics, in the batch's */
	unsigned json_count;
};

struct batch {
	struct parsed_game *games;
	size_t ngames, games_cap;
	struct carc_buf text;
	/* the reader's messages, formatted: text (msgs) or JSON */
	struct carc_buf parsed;
	struct held_msg *msgs;
	size_t nmsgs, msgs_cap;
	struct raw_msg *raw;
	size_t nraw, raw_cap;
	struct carc_buf raw_text;
	struct file_job out;     /* what refereeing made: messages, JSON, counts */
	struct carc_buf json;    /* (out's json_buf) */
};

struct split {
	const struct check_opts *opt;
	const char *name;
	struct work_queue q;     /* batches read and not yet printed, in order */
	struct batch *filling;   /* (the reader's sink writes into it) */
	const struct carc_src *reading; /* the text of the game being read */
	unsigned json_count;
};

/* The reader's sink: a message goes with the game being read. */
static void parse_diag(void *ctx, const struct carc_diag *d)
{
	struct split *sp = ctx;
	struct batch *b = sp->filling;
	if (d->src && d->src == sp->reading) {
		if (b->nraw == b->raw_cap) {
			b->raw_cap = b->raw_cap ? 2 * b->raw_cap : 16;
			b->raw = xrealloc(b->raw, b->raw_cap * sizeof *b->raw);
		}
		b->raw[b->nraw++] = (struct raw_msg){d->code, d->off, d->len, b->raw_text.len};
		carc_buf_adds(&b->raw_text, d->message);
		carc_buf_addc(&b->raw_text, '\0');
		return;
	}
	if (sp->opt->json) {
		struct json_diags jd = {&b->parsed, sp->json_count};
		json_diag(&jd, d);
		sp->json_count = jd.count;
		return;
	}
	if (sp->opt->quiet)
		return;
	hold_diag(&b->parsed, &b->msgs, &b->nmsgs, &b->msgs_cap, d, sp->opt->color);
}

/* The reader's messages from raw message k of b on, given as the other
 * parse messages are (what it said after the last game: no game's). */
static void unraw(struct split *sp, struct batch *b, size_t k)
{
	size_t n = b->nraw;
	const struct carc_src *src = sp->reading;
	sp->reading = NULL;
	for (b->nraw = k; k < n; k++) {
		struct carc_diag d = {b->raw[k].code, carc_code_severity(b->raw[k].code), src, b->raw[k].off,
				      b->raw[k].len, b->raw_text.data + b->raw[k].text};
		parse_diag(sp, &d);
	}
}

/* Holds the reader's message m of batch b among the job's messages. */
static void hold_parsed(struct file_job *job, const struct batch *b, size_t m)
{
	held_add(&job->held, &job->nheld, &job->held_cap,
		 (struct held_msg){job->held_text.len, b->msgs[m].len, b->msgs[m].error});
	carc_buf_add(&job->held_text, b->parsed.data + b->msgs[m].off, b->msgs[m].len);
}

/* Referees a batch (in a thread): its games in order, each after the
 * messages the reader gave about it; then the reader's messages about
 * what followed its last game, if any. */
static void check_batch(struct split *sp, struct checker *c, struct batch *b)
{
	struct file_job *job = &b->out;
	job->json_buf = &b->json;
	checker_for(c, job);
	size_t msg = 0;
	for (size_t i = 0; i < b->ngames; i++) {
		struct parsed_game *pg = &b->games[i];
		struct carc_record *rec = &pg->rec;
		rec->src = (struct carc_src){rec->src.name, b->text.data + pg->text_off, rec->src.len, rec->src.base_line};
		for (; msg < pg->msg_first + pg->nmsg; msg++)
			hold_parsed(job, b, msg);
		carc_buf_reset(&c->diags);
		if (pg->json_len) /* (else b->parsed may have no data yet) */
			carc_buf_add(&c->diags, b->parsed.data + pg->json_off, pg->json_len);
		c->jd.count = pg->json_count;
		carc_diag_hold(&c->sink, &rec->src);
		for (size_t k = pg->raw_first; k < pg->raw_first + pg->nraw; k++)
			carc_diag_report(&c->sink, b->raw[k].code, &rec->src, b->raw[k].off, b->raw[k].len, "%s",
					 b->raw_text.data + b->raw[k].text);
		check_record(c, sp->name, rec, pg->offset);
		carc_diag_hold(&c->sink, NULL);
	}
	for (; msg < b->nmsgs; msg++)
		hold_parsed(job, b, msg);
}

static void *split_worker(void *arg)
{
	struct split *sp = arg;
	struct checker c;
	checker_init(&c, sp->opt);
	struct batch *b;
	size_t slot;
	while ((b = wq_take(&sp->q, &slot))) {
		check_batch(sp, &c, b);
		wq_done(&sp->q, slot);
	}
	checker_free(&c);
	return NULL;
}

/* Prints the first batch of the queue (waiting for it when wait, else only
 * when it is done) and empties it for reuse; returns it, or NULL. */
static struct batch *print_first(struct split *sp, struct carc_printer *printer, struct totals *t, bool wait)
{
	struct batch *b = wq_first(&sp->q, wait);
	if (!b)
		return NULL;
	/* (the batch's memory is kept for the next: to give it back and take
	 * it again costs more than the work with several threads) */
	print_held(printer, &b->out, t);
	b->out = (struct file_job){.opt = sp->opt, .held_text = b->out.held_text, .held = b->out.held,
				   .held_cap = b->out.held_cap};
	carc_buf_reset(&b->out.held_text);
	carc_buf_reset(&b->json);
	b->ngames = b->nmsgs = b->nraw = 0;
	carc_buf_reset(&b->raw_text);
	carc_buf_reset(&b->text);
	carc_buf_reset(&b->parsed);
	return b;
}

static void check_split(struct file_job *job, struct carc_printer *printer, struct totals *t)
{
	const struct check_opts *opt = job->opt;
	const char *name = carc_input_name(job->path);
	FILE *f = carc_open_input(job->path);
	if (!f) {
		job->outf = stdout;
		job->printer = printer;
		unreadable(job, name, "open", errno);
		take(printer, job, t);
		return;
	}
	struct split sp = {.opt = opt, .name = name};
	wq_init(&sp.q, MAX_BATCHES(opt->jobs));
	struct batch **all = xcalloc(sp.q.cap + 1, sizeof *all), *spare = NULL;
	size_t nall = 0;
	pthread_t *threads = xcalloc((size_t)opt->jobs, sizeof *threads);
	int nthreads = 0;
	while (nthreads < opt->jobs && !pthread_create(&threads[nthreads], NULL, split_worker, &sp))
		nthreads++;
	if (!nthreads) { /* (no thread to be had: this one does it all) */
		free(threads);
		wq_free(&sp.q);
		free(all);
		job->outf = stdout;
		job->printer = printer;
		check_stream(job, name, f);
		carc_close_input(f);
		take(printer, job, t);
		return;
	}

	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(f, name, cache);
	struct carc_diag_sink sink = {parse_diag, &sp};
	for (bool more = true; more;) {
		/* a batch to fill: one printed, or a new one while there are few */
		struct batch *b = spare;
		spare = NULL;
		if (!b && nall < sp.q.cap + 1) {
			b = all[nall++] = xcalloc(1, sizeof *b);
			b->out.opt = opt;
		}
		if (!b)
			b = print_first(&sp, printer, t, true);
		sp.filling = b;
		while (b->ngames < BATCH_GAMES && b->text.len < BATCH_TEXT) {
			if (b->ngames == b->games_cap) {
				b->games_cap = b->games_cap ? 2 * b->games_cap : 16;
				b->games = xrealloc(b->games, b->games_cap * sizeof *b->games);
				memset(b->games + b->ngames, 0, (b->games_cap - b->ngames) * sizeof *b->games);
			}
			struct parsed_game *pg = &b->games[b->ngames];
			pg->msg_first = b->nmsgs;
			pg->raw_first = b->nraw;
			sp.reading = &pg->rec.src;
			pg->json_off = b->parsed.len;
			sp.json_count = 0;
			if (!carc_reader_next(r, &pg->rec, &sink)) {
				more = false;
				unraw(&sp, b, pg->raw_first);
				if (opt->json) /* (what the reader said after the last game: not a game's) */
					b->parsed.len = pg->json_off;
				break;
			}
			pg->nmsg = b->nmsgs - pg->msg_first;
			pg->nraw = b->nraw - pg->raw_first;
			pg->json_len = b->parsed.len - pg->json_off;
			pg->json_count = sp.json_count;
			pg->offset = carc_reader_game_offset(r);
			pg->text_off = b->text.len;
			carc_buf_add(&b->text, pg->rec.src.text, pg->rec.src.len);
			b->ngames++;
		}
		if (!b->ngames && !b->nmsgs) {
			spare = b;
			continue;
		}
		wq_put(&sp.q, b);
		while ((b = print_first(&sp, printer, t, wq_full(&sp.q))))
			if (!spare)
				spare = b;
	}
	wq_close(&sp.q);
	while (print_first(&sp, printer, t, true))
		;
	for (int k = 0; k < nthreads; k++)
		pthread_join(threads[k], NULL);

	job->outf = stdout;
	job->printer = printer;
	if (carc_reader_error(r))
		unreadable(job, name, "read", carc_reader_error(r));
	take(printer, job, t);
	for (size_t i = 0; i < nall; i++) {
		for (size_t g = 0; g < all[i]->games_cap; g++)
			carc_record_free(&all[i]->games[g].rec);
		free(all[i]->games);
		carc_buf_free(&all[i]->text);
		carc_buf_free(&all[i]->parsed);
		carc_buf_free(&all[i]->json);
		carc_buf_free(&all[i]->out.held_text);
		free(all[i]->out.held);
		free(all[i]->msgs);
		free(all[i]->raw);
		carc_buf_free(&all[i]->raw_text);
		free(all[i]);
	}
	free(all);
	free(threads);
	wq_free(&sp.q);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_diag_free(&sink);
	carc_close_input(f);
}

/* ---- -j N on one plain file: N readers, each over parts of it ----
 *
 * A plain file (not standard input, not compressed) is cut into parts of
 * about a sixteenth of it for -j 2 (from 256 KiB to 4 MiB) at lines where a
 * game starts (cli/split.h, which also counts the lines and games before
 * each cut). Each thread opens the file again at a part's first byte and
 * reads, parses and referees the part's games with a reader of its own,
 * told the line and the number of games before it (carc_reader_start_at),
 * and holds what it says; the parts are printed here, in order.
 *
 * A reader reads on past its part's end up to the first game at or past
 * it, and says where that game starts. That must be where the next part
 * starts, on the line and after the games the scan said, and the reader's
 * count of lines with bad bytes (the input is given up at the eighth) must
 * not matter: no E002 before the next part, or none in it. Else the next
 * part is read again here, by a reader from the start of the last part
 * that was right with no E002 before it, passing over the games printed
 * already: so odd input costs time, never a different output. A reader
 * that comes to the end of the input (or gives it up: E002, E031) ends the
 * run; the parts after it are not printed.
 *
 * Memory: at most MAX_PARTS(N) parts are held at once, each with the
 * messages and JSON lines of its games, and each thread's reader holds
 * about its largest game (at most 1 MiB) and a few blocks. */

enum { PART_MIN = 1 << 14, PART_MAX = 1 << 22 };
#define MAX_PARTS(jobs) (2 * (size_t)(jobs) + 2)

struct part {
	struct carc_cut at;      /* where it starts, as the scan says */
	unsigned fix;            /* what had been added to the scan's count of games then */
	uint64_t end;            /* where the next part starts (UINT64_MAX: none) */
	struct file_job out;     /* what its games made: messages, JSON, counts */
	struct carc_buf json;    /* (out's json_buf) */
	unsigned e002;           /* E002 messages about its games */
	bool ended;              /* its reader came to the end of the input */
	struct carc_cut next;    /* else: the first game at or past end (its games unused) */
};

struct parts {
	const struct check_opts *opt;
	const char *path, *name;
	struct work_queue q;     /* parts cut and not yet printed, in order */
	atomic_bool stop;        /* the input has ended: the parts left are not read */
};

/* What a thread keeps from part to part. */
struct part_reader {
	struct checker c;
	struct carc_record rec;
	struct carc_tileset_cache *cache;
};

static void part_reader_init(struct part_reader *pr, const struct check_opts *opt)
{
	*pr = (struct part_reader){.cache = carc_tileset_cache_new()};
	checker_init(&pr->c, opt);
}

static void part_reader_free(struct part_reader *pr)
{
	checker_free(&pr->c);
	carc_record_free(&pr->rec);
	carc_tileset_cache_free(pr->cache);
}

/* Reads the file from `from` (its line, the games before it) with a new
 * reader, and checks into p the games that start from offset `first` to
 * p's end; passes over those before first (what was said about them is
 * dropped), and stops at the first game at or past the end. */
static void read_part(const struct parts *ps, struct part_reader *pr, struct part *p, struct carc_cut from,
		      uint64_t first)
{
	struct file_job *job = &p->out;
	struct checker *c = &pr->c;
	job->json_buf = &p->json;
	checker_for(c, job);
	FILE *f = fopen(ps->path, "rb");
	if (!f || fseeko(f, (off_t)from.off, SEEK_SET)) {
		int err = errno;
		if (f)
			fclose(f);
		unreadable(job, ps->name, "read", err);
		p->ended = true;
		return;
	}
	struct carc_reader *r = carc_reader_new(f, ps->name, pr->cache);
	if (from.off > 0)
		carc_reader_start_at(r, from.line, from.off, from.games);
	carc_diag_hold(&c->sink, &pr->rec.src);
	for (;;) {
		size_t nheld = job->nheld, held_len = job->held_text.len;
		unsigned e002 = c->sink.counts[CARC_E002];
		carc_buf_reset(&c->diags);
		c->jd.count = 0;
		if (!carc_reader_next(r, &pr->rec, &c->sink)) {
			p->ended = true;
			break;
		}
		uint64_t off = carc_reader_game_offset(r);
		if (off < first || off >= p->end) { /* not this part's */
			carc_diag_flush(&c->sink);
			job->nheld = nheld;
			job->held_text.len = held_len;
			if (off < first)
				continue;
			p->next = (struct carc_cut){off, pr->rec.src.base_line, 0};
			break;
		}
		p->e002 += c->sink.counts[CARC_E002] - e002;
		check_record(c, ps->name, &pr->rec, off);
	}
	carc_diag_flush(&c->sink);
	carc_diag_hold(&c->sink, NULL);
	if (p->ended && carc_reader_error(r))
		unreadable(job, ps->name, "read", carc_reader_error(r));
	carc_reader_free(r);
	fclose(f);
}

static void *part_worker(void *arg)
{
	struct parts *ps = arg;
	struct part_reader pr;
	part_reader_init(&pr, ps->opt);
	struct part *p;
	size_t slot;
	while ((p = wq_take(&ps->q, &slot))) {
		if (!atomic_load(&ps->stop))
			read_part(ps, &pr, p, p->at, p->at.off);
		wq_done(&ps->q, slot);
	}
	part_reader_free(&pr);
	return NULL;
}

/* Empties p for the part from `at` to `end` (fix: see struct part),
 * keeping its buffers: parts are reused, as they would otherwise be given
 * back and taken again, a few MiB each, over and over. */
static void part_reset(struct part *p, const struct check_opts *opt, struct carc_cut at, unsigned fix, uint64_t end)
{
	struct part was = *p;
	carc_buf_reset(&was.json);
	carc_buf_reset(&was.out.held_text);
	*p = (struct part){.at = at, .fix = fix, .end = end, .json = was.json,
			   .out = {.opt = opt, .held_text = was.out.held_text, .held = was.out.held,
				   .held_cap = was.out.held_cap}};
}

static void part_free(struct part *p)
{
	carc_buf_free(&p->json);
	carc_buf_free(&p->out.held_text);
	free(p->out.held);
	free(p);
}

/* Checks the one file of the run in parts, when it is a plain file; false,
 * having done nothing, when it is not (standard input, compressed data,
 * not a regular file, or no thread to be had). */
static bool check_parts(struct file_job *job, struct carc_printer *printer, struct totals *t)
{
	const struct check_opts *opt = job->opt;
	if (!strcmp(job->path, "-"))
		return false;
	FILE *f = carc_open_input(job->path);
	struct stat st;
	if (!f)
		return false;
	if (fileno(f) < 0 || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) { /* (compressed: no fileno) */
		carc_close_input(f);
		return false;
	}
	struct parts ps = {.opt = opt, .path = job->path, .name = carc_input_name(job->path)};
	atomic_init(&ps.stop, false);
	wq_init(&ps.q, MAX_PARTS(opt->jobs));
	pthread_t *threads = xcalloc((size_t)opt->jobs, sizeof *threads);
	int nthreads = 0;
	while (nthreads < opt->jobs && !pthread_create(&threads[nthreads], NULL, part_worker, &ps))
		nthreads++;
	if (!nthreads) {
		free(threads);
		wq_free(&ps.q);
		carc_close_input(f);
		return false;
	}
	uint64_t part_bytes = (uint64_t)st.st_size / (8 * (uint64_t)opt->jobs);
	part_bytes = part_bytes < PART_MIN ? PART_MIN : part_bytes > PART_MAX ? PART_MAX : part_bytes;

	struct carc_split_scan scan;
	carc_split_scan_init(&scan, f);
	struct carc_cut at = {0, 1, 0};   /* the next part's start, as the scan says */
	struct carc_cut want = {0, 1, 0}; /* where the next part must start: where the reader says */
	struct carc_cut safe = {0, 1, 0}; /* where a reader may start to read a part again */
	unsigned e002 = 0;                /* E002 messages printed */
	unsigned fix = 0;                 /* added to the scan's count of games (modulo 2^32) */
	bool cut_all = false, ended = false;
	struct part_reader mine;          /* (this thread's, for parts read again) */
	bool have_mine = false;
	struct part **spare = xcalloc(ps.q.cap + 1, sizeof *spare); /* parts printed, for reuse */
	size_t nspare = 0;
	for (;;) {
		while (!cut_all && !wq_full(&ps.q)) {
			struct part *p = nspare ? spare[--nspare] : xcalloc(1, sizeof *p);
			struct carc_cut start = at;
			uint64_t end = UINT64_MAX;
			if (carc_split_next(&scan, at.off + part_bytes, &at))
				end = at.off;
			else
				cut_all = true;
			part_reset(p, opt, start, fix, end);
			wq_put(&ps.q, p);
		}
		struct part *p = wq_first(&ps.q, true);
		if (!p)
			break;
		if (!ended) {
			unsigned d = want.games - (p->at.games + (fix - p->fix));
			if (p->at.off == want.off && p->at.line == want.line && d) {
				/* the scan took a line for a game's start that was none, or
				 * the other way round: the parts cut from now on are right */
				scan.games += d;
				at.games += d;
				fix += d;
			}
			bool right = p->at.off == want.off && p->at.line == want.line && p->at.games == want.games &&
				     (!e002 || !p->e002);
			if (!right) {
				part_reset(p, opt, p->at, p->fix, p->end);
				if (!have_mine)
					part_reader_init(&mine, opt);
				have_mine = true;
				read_part(&ps, &mine, p, safe, want.off);
			} else if (!e002) {
				safe = p->at;
			}
			print_held(printer, &p->out, t);
			want.games += p->out.games;
			e002 += p->e002;
			if (p->ended) {
				ended = cut_all = true;
				atomic_store(&ps.stop, true);
			} else {
				want.off = p->next.off;
				want.line = p->next.line;
			}
		}
		spare[nspare++] = p;
	}
	wq_close(&ps.q);
	for (int k = 0; k < nthreads; k++)
		pthread_join(threads[k], NULL);
	if (have_mine)
		part_reader_free(&mine);
	while (nspare)
		part_free(spare[--nspare]);
	free(spare);
	carc_split_scan_free(&scan);
	wq_free(&ps.q);
	free(threads);
	carc_close_input(f);
	return true;
}

struct pool {
	struct file_job *jobs;
	size_t njobs, next;
	pthread_mutex_t lock;
	pthread_cond_t done; /* a job is done */
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->njobs)
			return NULL;
		struct file_job *j = &p->jobs[i];
		j->outf = open_memstream(&j->out_data, &j->out_len);
		check_file(j);
		fclose(j->outf);
		pthread_mutex_lock(&p->lock);
		j->done = true;
		pthread_cond_broadcast(&p->done);
		pthread_mutex_unlock(&p->lock);
	}
}

static void help(void)
{
	printf("usage: carc check [OPTIONS] FILE...|-\n\n"
	       "Validate every game in every file: syntax, tile sets, the rules of play,\n"
	       "claims and results. Diagnostics go to standard error; the last line on\n"
	       "standard output sums up: N games, N valid, N invalid, N unreadable.\n"
	       "A game whose moves were not recorded (its tags alone, with a Result or a\n"
	       "Termination) is not refereed: its tags are checked and its Result taken\n"
	       "as its final score; the summary counts such games.\n\n"
	       "options:\n"
	       "  -q, --quiet          print only the summary line\n"
	       "  -m, --max-errors N   print at most N error messages in all, then only\n"
	       "                       warnings (0: no limit; checking goes on)\n"
	       "  -W, --werror         count warnings (such as an unfinished game) as errors\n"
	       "  -f, --format FORMAT  text (default) or json: one JSON object per game\n"
	       "  -j, --jobs N         use N threads: N files at a time, or one file's\n"
	       "                       games shared among them (the output is the same)\n"
	       "      --label NAME     name standard input NAME in messages and output\n"
	       CARC_TILESET_PATH_HELP
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 every game valid, 1 a game is invalid, 2 could not run\n"
	       "(usage, unreadable file, bad tile set, output not written).\n");
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"quiet", no_argument, NULL, 'q'},     {"max-errors", required_argument, NULL, 'm'},
		{"werror", no_argument, NULL, 'W'},    {"format", required_argument, NULL, 'f'},
		{"jobs", required_argument, NULL, 'j'}, CARC_TILESET_PATH_OPTION,
		{"label", required_argument, NULL, CARC_OPT_LABEL},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},   {NULL, 0, NULL, 0},
	};
	struct check_opts opt = {.jobs = 1};
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":qm:Wf:j:hV", longopts, NULL)) != -1) {
		char *end;
		long n;
		switch (c) {
		case 'q':
			opt.quiet = true;
			break;
		case 'm':
			n = strtol(optarg, &end, 10);
			if (*end || n < 0 || n > 1000000)
				return carc_usage_error("check", "--max-errors takes a whole number, not '%s'", optarg);
			opt.max_errors = (unsigned)n;
			break;
		case 'W':
			opt.werror = true;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				opt.json = true;
			else if (strcmp(optarg, "text"))
				return carc_usage_error("check", "--format is text or json, not '%s'", optarg);
			break;
		case 'j':
			n = strtol(optarg, &end, 10);
			if (*end || n < 1 || n > 256)
				return carc_usage_error("check", "--jobs takes a number from 1 to 256, not '%s'", optarg);
			opt.jobs = (int)n;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("check", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("check", c, argv);
		}
	}
	if (optind >= argc)
		return carc_usage_error("check", "no input: give one or more files, or - for standard input");
	opt.color = !opt.json && carc_use_color(stderr);

	/* the one printer of the run, so --max-errors counts every file */
	struct carc_printer printer = {stderr, opt.color, opt.max_errors, 0, opt.quiet, {0}};
	size_t njobs = (size_t)(argc - optind);
	struct file_job *jobs = xcalloc(njobs, sizeof *jobs);
	for (size_t i = 0; i < njobs; i++) {
		jobs[i].path = argv[optind + (int)i];
		jobs[i].opt = &opt;
	}
	struct totals t = {0};
	if (opt.jobs > 1 && njobs == 1) {
		if (!check_parts(&jobs[0], &printer, &t))
			check_split(&jobs[0], &printer, &t);
	} else if (opt.jobs > 1 && njobs > 1) {
		/* Each file's output is printed as soon as it and every file
		 * before it are done, so what is held is only what finished
		 * ahead of its turn. */
		struct pool pool = {jobs, njobs, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
		size_t nthreads = (size_t)opt.jobs < njobs ? (size_t)opt.jobs : njobs;
		pthread_t *threads = xcalloc(nthreads, sizeof *threads);
		for (size_t k = 0; k < nthreads; k++)
			pthread_create(&threads[k], NULL, worker, &pool);
		for (size_t i = 0; i < njobs; i++) {
			pthread_mutex_lock(&pool.lock);
			while (!jobs[i].done)
				pthread_cond_wait(&pool.done, &pool.lock);
			pthread_mutex_unlock(&pool.lock);
			take(&printer, &jobs[i], &t);
		}
		for (size_t k = 0; k < nthreads; k++)
			pthread_join(threads[k], NULL);
		free(threads);
	} else {
		for (size_t i = 0; i < njobs; i++) {
			jobs[i].outf = stdout;
			jobs[i].printer = &printer;
			check_file(&jobs[i]);
			take(&printer, &jobs[i], &t);
		}
	}
	free(jobs);
	carc_buf_free(&printer.buf);
	if (!opt.json) {
		printf("%u game%s, %u valid, %u invalid, %u unreadable", t.games, t.games == 1 ? "" : "s", t.valid,
		       t.invalid, t.unreadable);
		if (t.results) /* what was not refereed is said */
			printf(" (%u with results only, not refereed)", t.results);
		putchar('\n');
	}
	if (!carc_stdout_done("check"))
		return CARC_EXIT_TROUBLE;
	if (t.unreadable || t.trouble)
		return CARC_EXIT_TROUBLE;
	return t.invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
