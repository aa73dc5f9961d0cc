/*
 * jobs.c - the one parallel driver (jobs.h).
 *
 * A unit of work (a file, a part of one, a batch of games) is read and
 * refereed by one thread, a worker, into an output of its own (struct
 * carc_jobs_out): the bytes each game's work made, and the messages for
 * standard error (diagnostics formatted, and the command's lines), each
 * game's marked by an entry. The command's thread takes the units back in
 * order and delivers them: each game's messages through the run's printer
 * (so that --max-errors counts them in file order), then its bytes to the
 * command's take. With one thread there are no units: a game's messages are
 * printed as they come and its bytes taken at once.
 */
#include "cli/jobs.h"
#include "cli/split.h"
#include "common/input.h"
#include "common/json.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool carc_jobs_option(const char *cmd, const char *arg, int *jobs)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (*end || *arg == '\0' || n < 1 || n > 256) {
		carc_usage_error(cmd, "--jobs takes a number from 1 to 256, not '%s'", arg);
		return false;
	}
	*jobs = (int)n;
	return true;
}

/* ---- what a unit's games made ---- */

enum msg_kind { MSG_OTHER, MSG_ERROR, MSG_PLAIN };

struct held_msg {
	size_t off, len; /* in msg_text */
	enum msg_kind kind;
};

/* A game (what == NULL), or an input that could not be opened or read. */
struct entry {
	size_t data_end, msg_end; /* where its bytes and messages end */
	const char *name, *what;
	int err;
};

struct carc_jobs_out {
	const struct carc_jobs *run;
	bool direct;              /* one thread: printed and taken at once, no entries */
	struct carc_buf data, msg_text;
	struct carc_buf *to;      /* direct: run->direct_data, where work's bytes go (NULL: data) */
	size_t start;             /* direct: where the game's bytes start in *to */
	struct held_msg *msgs;
	size_t nmsgs, msgs_cap;
	struct entry *entries;
	size_t nentries, entries_cap;
	unsigned long games;
	unsigned unreadable;
	bool trouble;
};

struct carc_buf *carc_jobs_data(struct carc_jobs_out *out) { return out->to ? out->to : &out->data; }

static void out_init(struct carc_jobs_out *out, const struct carc_jobs *run, bool direct)
{
	*out = (struct carc_jobs_out){.run = run, .direct = direct};
	out->to = direct ? run->direct_data : NULL;
}

/* Empties out for another unit, keeping its memory. */
static void out_reset(struct carc_jobs_out *out)
{
	carc_buf_reset(&out->data);
	carc_buf_reset(&out->msg_text);
	out->nmsgs = out->nentries = 0;
	out->games = out->unreadable = 0;
	out->trouble = false;
}

static void out_free(struct carc_jobs_out *out)
{
	carc_buf_free(&out->data);
	carc_buf_free(&out->msg_text);
	free(out->msgs);
	free(out->entries);
}

static FILE *say_to(const struct carc_jobs *run) { return run->printer ? run->printer->out : stderr; }

static void print_msg(const struct carc_jobs *run, enum msg_kind kind, const char *text, size_t len)
{
	if (kind == MSG_PLAIN)
		fwrite(text, 1, len, say_to(run));
	else
		carc_print_text(run->printer, kind == MSG_ERROR, text, len);
}

/* Holds the last len bytes of out->msg_text as a message. */
static void hold_msg(struct carc_jobs_out *out, size_t off, enum msg_kind kind)
{
	if (out->nmsgs == out->msgs_cap) {
		out->msgs_cap = out->msgs_cap ? 2 * out->msgs_cap : 16;
		out->msgs = xrealloc(out->msgs, out->msgs_cap * sizeof *out->msgs);
	}
	out->msgs[out->nmsgs++] = (struct held_msg){off, out->msg_text.len - off, kind};
}

void carc_jobs_say(struct carc_jobs_out *out, const char *fmt, ...)
{
	size_t off = out->msg_text.len;
	va_list ap;
	va_start(ap, fmt);
	struct carc_buf line = {0};
	carc_buf_vprintf(&line, fmt, ap);
	va_end(ap);
	if (out->direct) {
		fwrite(line.data, 1, line.len, say_to(out->run));
	} else {
		carc_buf_add(&out->msg_text, line.data, line.len);
		hold_msg(out, off, MSG_PLAIN);
	}
	carc_buf_free(&line);
}

static void add_entry(struct carc_jobs_out *out, struct entry e)
{
	if (out->nentries == out->entries_cap) {
		out->entries_cap = out->entries_cap ? 2 * out->entries_cap : 64;
		out->entries = xrealloc(out->entries, out->entries_cap * sizeof *out->entries);
	}
	out->entries[out->nentries++] = e;
}

/* The game whose work is done: taken now (one thread), or marked. */
static void end_game(struct carc_jobs_out *out)
{
	if (out->to) {
		struct carc_buf *b = out->to;
		out->run->take(out->run->ctx, b->data ? b->data + out->start : "", b->len - out->start);
		return;
	}
	if (out->direct) {
		out->run->take(out->run->ctx, out->data.data, out->data.len);
		carc_buf_reset(&out->data);
		return;
	}
	add_entry(out, (struct entry){out->data.len, out->nmsgs, NULL, NULL, 0});
}

static void out_cannot(struct carc_jobs_out *out, const char *name, const char *what, int err)
{
	out->unreadable++;
	if (out->direct)
		out->run->cannot(out->run->ctx, name, what, err);
	else
		add_entry(out, (struct entry){out->data.len, out->nmsgs, name, what, err});
}

static void add_totals(struct carc_jobs_totals *t, const struct carc_jobs_out *out)
{
	t->games += out->games;
	t->unreadable += out->unreadable;
	t->trouble |= out->trouble;
}

/* A unit's turn: its games' messages and bytes, in order, then the
 * messages after its last game. */
static void deliver(const struct carc_jobs *run, struct carc_jobs_out *out, struct carc_jobs_totals *t)
{
	size_t m = 0, d = 0;
	for (size_t i = 0; i < out->nentries; i++) {
		const struct entry *e = &out->entries[i];
		for (; m < e->msg_end; m++)
			print_msg(run, out->msgs[m].kind, out->msg_text.data + out->msgs[m].off, out->msgs[m].len);
		if (e->what)
			run->cannot(run->ctx, e->name, e->what, e->err);
		else
			run->take(run->ctx, out->data.data + d, e->data_end - d);
		d = e->data_end;
	}
	for (; m < out->nmsgs; m++)
		print_msg(run, out->msgs[m].kind, out->msg_text.data + out->msgs[m].off, out->msgs[m].len);
	add_totals(t, out);
}

/* ---- a worker: reads and referees games, and calls work ---- */

struct worker {
	const struct carc_jobs *run;
	struct carc_tileset_cache *cache; /* for the whole run: records point into it till delivered */
	struct carc_record rec;
	struct carc_game *g;
	struct carc_result res;
	struct carc_diag_sink sink, quiet;
	struct carc_buf json;             /* CARC_JOBS_JSON: the game's diagnostics */
	unsigned json_count;
	struct carc_jobs_out *out;        /* where the game goes */
	void *wctx;
};

/* A diagnostic as JSON, after those before it. */
static void json_diag(struct carc_buf *b, unsigned *count, const struct carc_diag *d)
{
	static const char *const sev[] = {"error", "warning", "note"};
	carc_buf_adds(b, (*count)++ ? ",{" : "{");
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

static void worker_diag(void *ctx, const struct carc_diag *d)
{
	struct worker *w = ctx;
	const struct carc_jobs *run = w->run;
	if (run->diags == CARC_JOBS_JSON) {
		json_diag(&w->json, &w->json_count, d);
	} else if (w->out->direct) {
		carc_print_diag(run->printer, d);
	} else if (!run->printer->quiet) {
		size_t off = w->out->msg_text.len;
		carc_diag_format(&w->out->msg_text, d, run->printer->color);
		hold_msg(w->out, off, d->severity == CARC_SEV_ERROR ? MSG_ERROR : MSG_OTHER);
	}
}

static void worker_init(struct worker *w, const struct carc_jobs *run)
{
	*w = (struct worker){.run = run, .cache = carc_tileset_cache_new(), .g = carc_game_new()};
	w->sink = (struct carc_diag_sink){run->diags == CARC_JOBS_COUNT ? NULL : worker_diag, w};
	w->wctx = run->worker_new ? run->worker_new(run->ctx) : run->ctx;
}

static void worker_free(struct worker *w)
{
	if (w->run->worker_free)
		w->run->worker_free(w->wctx);
	carc_game_free(w->g);
	carc_result_free(&w->res);
	carc_record_free(&w->rec);
	carc_diag_free(&w->sink);
	carc_diag_free(&w->quiet);
	carc_buf_free(&w->json);
	carc_tileset_cache_free(w->cache);
}

/* Before a game is read: its counts start from nothing. */
static void game_begin(struct worker *w, struct carc_diag_sink *sink)
{
	if (sink->reported) /* (most games report nothing: then no memset of every code's count) */
		memset(sink->counts, 0, sizeof sink->counts);
	sink->reported = sink->errors = sink->warnings = 0;
	carc_buf_reset(&w->json);
	w->json_count = 0;
}

/* The game just read into rec: refereed, its messages flushed, and its
 * work done into the worker's output. */
static void game_done(struct worker *w, const char *name, struct carc_record *rec, uint64_t offset)
{
	const struct carc_jobs *run = w->run;
	struct carc_jobs_out *out = w->out;
	if (run->referee)
		carc_referee_run(&w->res, rec, w->g, &w->sink, &run->opts);
	carc_diag_flush(&w->sink);
	out->games++;
	if (!rec->tileset)
		out->trouble = true;
	struct carc_jobs_game game = {name, rec, run->referee ? &w->res : NULL, w->g, offset, w->sink.counts,
				      w->sink.errors, w->sink.warnings, w->json.len ? w->json.data : ""};
	if (out->to)
		out->start = out->to->len;
	run->work(w->wctx, &game, out);
	end_game(out);
}

/* Every game of f, an open input named name, one after the other. */
static void stream_input(struct worker *w, const char *name, FILE *f)
{
	const struct carc_jobs *run = w->run;
	struct carc_reader *r = carc_reader_new(f, name, w->cache, carc_rules_registry());
	carc_diag_hold(&w->sink, &w->rec.src); /* each game's messages in the order of its lines */
	unsigned long index = 0;
	for (;;) {
		/* (only_game: the others are read with no word said) */
		bool skip = run->only_game && index + 1 != run->only_game;
		struct carc_diag_sink *sink = skip ? &w->quiet : &w->sink;
		game_begin(w, sink);
		if (!carc_reader_next(r, &w->rec, sink))
			break;
		index++;
		if (skip) {
			w->out->games++;
			continue;
		}
		game_done(w, name, &w->rec, carc_reader_game_offset(r));
	}
	carc_diag_flush(&w->sink);
	carc_diag_hold(&w->sink, NULL);
	if (carc_reader_error(r))
		out_cannot(w->out, name, "read", carc_reader_error(r));
	carc_reader_free(r);
}

/* One input, whole, into w's output. */
static void one_input(struct worker *w, const char *path)
{
	const char *name = carc_input_name(path);
	FILE *f = carc_open_input(path);
	if (!f) {
		out_cannot(w->out, name, "open", errno);
		return;
	}
	stream_input(w, name, f);
	carc_close_input(f);
}

/* ---- work for N threads, given and taken back in order ----
 *
 * The command's thread puts items (parts, batches) at the queue's end; the
 * workers take them in that order and say when each is done; the command's
 * thread takes them back from the front once done, in order, and delivers
 * them. At most cap items are in the queue. */
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

/* A worker's end: what it had is given to the thread that joins it, which
 * frees it (worker_free) once the units it worked on are delivered: their
 * games may point to its tile sets. */
static void *kept(const struct worker *w)
{
	struct worker *k = xmalloc(sizeof *k);
	*k = *w; /* (its sink's ctx is not used again) */
	return k;
}

/* Joins the n threads, and frees their workers. */
static void join_threads(pthread_t *threads, int n)
{
	for (int k = 0; k < n; k++) {
		void *w = NULL;
		pthread_join(threads[k], &w);
		if (w)
			worker_free(w);
		free(w);
	}
}

/* Starts up to n threads running fn(arg); how many started. */
static int start_threads(pthread_t *threads, int n, void *(*fn)(void *), void *arg)
{
	int started = 0;
	while (started < n && !pthread_create(&threads[started], NULL, fn, arg))
		started++;
	return started;
}

/* ---- many files: a file to a thread ----
 *
 * Each file's output is delivered as soon as it and every file before it
 * are done, so what is held is only what finished ahead of its turn. */

struct pool {
	const struct carc_jobs *run;
	char *const *paths;
	struct carc_jobs_out *outs;
	bool *done;
	size_t n, next;
	pthread_mutex_t lock;
	pthread_cond_t done_cond;
};

static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	struct worker w;
	worker_init(&w, p->run);
	for (;;) {
		pthread_mutex_lock(&p->lock);
		size_t i = p->next++;
		pthread_mutex_unlock(&p->lock);
		if (i >= p->n)
			break;
		w.out = &p->outs[i];
		one_input(&w, p->paths[i]);
		pthread_mutex_lock(&p->lock);
		p->done[i] = true;
		pthread_cond_broadcast(&p->done_cond);
		pthread_mutex_unlock(&p->lock);
	}
	return kept(&w);
}

/* false, having done nothing, when no thread could be started. */
static bool run_pool(const struct carc_jobs *run, char *const *paths, size_t n, struct carc_jobs_totals *t)
{
	struct pool p = {run, paths, xcalloc(n, sizeof *p.outs), xcalloc(n, sizeof *p.done), n, 0,
			 PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
	for (size_t i = 0; i < n; i++)
		out_init(&p.outs[i], run, false);
	size_t want = (size_t)run->jobs < n ? (size_t)run->jobs : n;
	pthread_t *threads = xcalloc(want, sizeof *threads);
	int nthreads = start_threads(threads, (int)want, pool_worker, &p);
	if (nthreads) {
		for (size_t i = 0; i < n; i++) {
			pthread_mutex_lock(&p.lock);
			while (!p.done[i])
				pthread_cond_wait(&p.done_cond, &p.lock);
			pthread_mutex_unlock(&p.lock);
			deliver(run, &p.outs[i], t);
			out_free(&p.outs[i]);
		}
		join_threads(threads, nthreads);
	}
	free(threads);
	free(p.outs);
	free(p.done);
	return nthreads > 0;
}

/* ---- one stream: read here, refereed by N threads in batches ----
 *
 * The input is read in this thread by one reader, exactly as with one
 * thread, so games, their numbers, lines, offsets and the reader's messages
 * are the same; each game's text is copied out with its reader's messages
 * into a batch, and batches are refereed and worked on by the threads and
 * delivered here in the order they were read. At most MAX_UNITS(N)
 * batches exist at once, each of at most BATCH_GAMES games or BATCH_TEXT
 * bytes of text (or one game, when a game alone is bigger): that, with the
 * reader's own buffer, bounds the memory whatever the size of the input. */

enum { BATCH_GAMES = 64, BATCH_TEXT = 1 << 18 };
#define MAX_UNITS(jobs) (2 * (size_t)(jobs) + 2)

/* A message of the reader about the game it was reading, kept as it came
 * (its text in the batch's raw_text), to be given to the sink of the
 * thread that referees the game, so that the game's messages are put in
 * the order of its lines as with one thread. */
struct raw_msg {
	enum carc_code code;
	size_t off, len, text;
};

struct parsed_game {
	struct carc_record rec;  /* its arrays are reused when the batch is */
	size_t text_off;         /* its text, in the batch's */
	uint64_t offset;
	size_t raw_first, nraw;  /* its reader's messages, in the batch's */
};

struct batch {
	struct parsed_game *games;
	size_t ngames, games_cap;
	struct carc_buf text;
	struct raw_msg *raw;
	size_t nraw, raw_cap;
	struct carc_buf raw_text;
	struct carc_jobs_out tail; /* what the reader said after the last game (printed diagnostics) */
	struct carc_jobs_out out;  /* what the games made */
};

struct stream {
	const struct carc_jobs *run;
	const char *name;
	struct work_queue q;     /* batches read and not yet delivered, in order */
	struct batch *filling;   /* (the reader's sink writes into it) */
};

static void raw_diag(void *ctx, const struct carc_diag *d)
{
	struct batch *b = ((struct stream *)ctx)->filling;
	if (b->nraw == b->raw_cap) {
		b->raw_cap = b->raw_cap ? 2 * b->raw_cap : 16;
		b->raw = xrealloc(b->raw, b->raw_cap * sizeof *b->raw);
	}
	b->raw[b->nraw++] = (struct raw_msg){d->code, d->off, d->len, b->raw_text.len};
	carc_buf_adds(&b->raw_text, d->message);
	carc_buf_addc(&b->raw_text, '\0');
}

/* Referees and works on a batch (in a worker): its games in order, each
 * with the messages the reader gave about it; then what the reader said
 * after its last game, if anything. */
static void work_batch(struct stream *sp, struct worker *w, struct batch *b)
{
	w->out = &b->out;
	for (size_t i = 0; i < b->ngames; i++) {
		struct parsed_game *pg = &b->games[i];
		struct carc_record *rec = &pg->rec;
		rec->src = (struct carc_src){rec->src.name, b->text.data + pg->text_off, rec->src.len, rec->src.base_line};
		game_begin(w, &w->sink);
		carc_diag_hold(&w->sink, &rec->src);
		for (size_t k = pg->raw_first; k < pg->raw_first + pg->nraw; k++)
			carc_diag_report(&w->sink, b->raw[k].code, &rec->src, b->raw[k].off, b->raw[k].len, "%s",
					 b->raw_text.data + b->raw[k].text);
		game_done(w, sp->name, rec, pg->offset);
		carc_diag_hold(&w->sink, NULL);
	}
	for (size_t m = 0; m < b->tail.nmsgs; m++) {
		size_t off = b->out.msg_text.len;
		carc_buf_add(&b->out.msg_text, b->tail.msg_text.data + b->tail.msgs[m].off, b->tail.msgs[m].len);
		hold_msg(&b->out, off, b->tail.msgs[m].kind);
	}
}

static void *stream_worker(void *arg)
{
	struct stream *sp = arg;
	struct worker w;
	worker_init(&w, sp->run);
	struct batch *b;
	size_t slot;
	while ((b = wq_take(&sp->q, &slot))) {
		work_batch(sp, &w, b);
		wq_done(&sp->q, slot);
	}
	return kept(&w);
}

/* Delivers the first batch of the queue (waiting for it when wait, else
 * only when it is done) and empties it for reuse; returns it, or NULL. */
static struct batch *deliver_first(struct stream *sp, struct carc_jobs_totals *t, bool wait)
{
	struct batch *b = wq_first(&sp->q, wait);
	if (!b)
		return NULL;
	deliver(sp->run, &b->out, t);
	out_reset(&b->out);
	out_reset(&b->tail);
	b->ngames = b->nraw = 0;
	carc_buf_reset(&b->raw_text);
	carc_buf_reset(&b->text);
	return b;
}

static void batch_free(struct batch *b)
{
	for (size_t g = 0; g < b->games_cap; g++)
		carc_record_free(&b->games[g].rec);
	free(b->games);
	carc_buf_free(&b->text);
	free(b->raw);
	carc_buf_free(&b->raw_text);
	out_free(&b->tail);
	out_free(&b->out);
	free(b);
}

/* The reader's messages from raw message k of b on (what it said after
 * the last game: no game's): printed after the batch's games when the run
 * prints diagnostics; else, like those of one thread, not a game's. */
static void raw_tail(struct stream *sp, struct batch *b, size_t k, const struct carc_src *src)
{
	const struct carc_jobs *run = sp->run;
	for (; k < b->nraw && run->diags == CARC_JOBS_PRINT && !run->printer->quiet; k++) {
		struct carc_diag d = {b->raw[k].code, carc_code_severity(b->raw[k].code), src, b->raw[k].off,
				      b->raw[k].len, b->raw_text.data + b->raw[k].text};
		size_t off = b->tail.msg_text.len;
		carc_diag_format(&b->tail.msg_text, &d, run->printer->color);
		hold_msg(&b->tail, off, d.severity == CARC_SEV_ERROR ? MSG_ERROR : MSG_OTHER);
	}
}

/* false, having done nothing, when no thread could be started. */
static bool run_stream(const struct carc_jobs *run, const char *path, struct carc_jobs_totals *t)
{
	const char *name = carc_input_name(path);
	struct stream sp = {.run = run, .name = name};
	wq_init(&sp.q, MAX_UNITS(run->jobs));
	pthread_t *threads = xcalloc((size_t)run->jobs, sizeof *threads);
	int nthreads = start_threads(threads, run->jobs, stream_worker, &sp);
	if (!nthreads) {
		free(threads);
		wq_free(&sp.q);
		return false;
	}
	struct batch **all = xcalloc(sp.q.cap + 1, sizeof *all), *spare = NULL;
	size_t nall = 0;
	struct carc_jobs_out mine; /* (what is not a batch's: the input cannot be opened or read) */
	out_init(&mine, run, false);
	FILE *f = carc_open_input(path);
	int open_err = f ? 0 : errno;
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = f ? carc_reader_new(f, name, cache, carc_rules_registry()) : NULL;
	struct carc_diag_sink sink = {raw_diag, &sp};
	for (bool more = f != NULL; more;) {
		/* a batch to fill: one delivered, or a new one while there are few */
		struct batch *b = spare;
		spare = NULL;
		if (!b && nall < sp.q.cap + 1) {
			b = all[nall++] = xcalloc(1, sizeof *b);
			out_init(&b->out, run, false);
			out_init(&b->tail, run, false);
		}
		if (!b)
			b = deliver_first(&sp, t, true);
		sp.filling = b;
		while (b->ngames < BATCH_GAMES && b->text.len < BATCH_TEXT) {
			if (b->ngames == b->games_cap) {
				b->games_cap = b->games_cap ? 2 * b->games_cap : 16;
				b->games = xrealloc(b->games, b->games_cap * sizeof *b->games);
				memset(b->games + b->ngames, 0, (b->games_cap - b->ngames) * sizeof *b->games);
			}
			struct parsed_game *pg = &b->games[b->ngames];
			pg->raw_first = b->nraw;
			if (!carc_reader_next(r, &pg->rec, &sink)) {
				more = false;
				raw_tail(&sp, b, pg->raw_first, &pg->rec.src);
				b->nraw = pg->raw_first;
				break;
			}
			pg->nraw = b->nraw - pg->raw_first;
			pg->offset = carc_reader_game_offset(r);
			pg->text_off = b->text.len;
			carc_buf_add(&b->text, pg->rec.src.text, pg->rec.src.len);
			b->ngames++;
		}
		if (!b->ngames && !b->tail.nmsgs) {
			spare = b;
			continue;
		}
		wq_put(&sp.q, b);
		while ((b = deliver_first(&sp, t, wq_full(&sp.q))))
			if (!spare)
				spare = b;
	}
	wq_close(&sp.q);
	while (deliver_first(&sp, t, true))
		;
	join_threads(threads, nthreads);
	if (!f)
		out_cannot(&mine, name, "open", open_err);
	else if (carc_reader_error(r))
		out_cannot(&mine, name, "read", carc_reader_error(r));
	deliver(run, &mine, t);
	out_free(&mine);
	for (size_t i = 0; i < nall; i++)
		batch_free(all[i]);
	free(all);
	free(threads);
	wq_free(&sp.q);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_diag_free(&sink);
	if (f)
		carc_close_input(f);
	return true;
}

/* ---- one plain file: N readers, each over parts of it ----
 *
 * A plain file (not standard input, not compressed) is cut into parts of
 * about a sixteenth of it for -j 2 (from 16 KiB to 4 MiB) at lines where a
 * game starts (cli/split.h, which also counts the lines and games before
 * each cut). Each thread opens the file again at a part's first byte and
 * reads, referees and works on the part's games with a reader of its own,
 * told the line and the number of games before it (carc_reader_start_at);
 * the parts are delivered here, in order.
 *
 * A reader reads on past its part's end up to the first game at or past
 * it, and says where that game starts. That must be where the next part
 * starts, on the line and after the games the scan said, and the reader's
 * count of lines with bad bytes (the input is given up at the eighth) must
 * not matter: no E002 before the next part, or none in it. Else the next
 * part is read again here, by a reader from the start of the last part
 * that was right with no E002 before it, passing over the games delivered
 * already: so odd input costs time, never a different output. A reader
 * that comes to the end of the input (or gives it up: E002, E031) ends the
 * run; the parts after it are not delivered.
 *
 * Memory: at most MAX_UNITS(N) parts are held at once, each with what its
 * games made, and each thread's reader holds about its largest game (at
 * most 1 MiB) and a few blocks. */

enum { PART_MIN = 1 << 14, PART_MAX = 1 << 22 };

struct part {
	struct carc_cut at;      /* where it starts, as the scan says */
	unsigned fix;            /* what had been added to the scan's count of games then */
	uint64_t end;            /* where the next part starts (UINT64_MAX: none) */
	struct carc_jobs_out out; /* what its games made */
	unsigned e002;           /* E002 messages about its games */
	bool ended;              /* its reader came to the end of the input */
	struct carc_cut next;    /* else: the first game at or past end (its games unused) */
};

struct parts {
	const struct carc_jobs *run;
	const char *path, *name;
	struct work_queue q;     /* parts cut and not yet delivered, in order */
	atomic_bool stop;        /* the input has ended: the parts left are not read */
};

/* Reads the file from `from` (its line, the games before it) with a new
 * reader, and works into p the games that start from offset `first` to
 * p's end; passes over those before first (what was said about them is
 * dropped), and stops at the first game at or past the end. */
static void read_part(const struct parts *ps, struct worker *w, struct part *p, struct carc_cut from, uint64_t first)
{
	struct carc_jobs_out *out = &p->out;
	w->out = out;
	FILE *f = fopen(ps->path, "rb");
	if (!f || fseeko(f, (off_t)from.off, SEEK_SET)) {
		int err = errno;
		if (f)
			fclose(f);
		out_cannot(out, ps->name, "read", err);
		p->ended = true;
		return;
	}
	struct carc_reader *r = carc_reader_new(f, ps->name, w->cache, carc_rules_registry());
	if (from.off > 0)
		carc_reader_start_at(r, from.line, from.off, from.games);
	carc_diag_hold(&w->sink, &w->rec.src);
	for (;;) {
		size_t nmsgs = out->nmsgs, msg_len = out->msg_text.len;
		game_begin(w, &w->sink);
		if (!carc_reader_next(r, &w->rec, &w->sink)) {
			p->ended = true;
			break;
		}
		uint64_t off = carc_reader_game_offset(r);
		if (off < first || off >= p->end) { /* not this part's */
			carc_diag_flush(&w->sink);
			out->nmsgs = nmsgs;
			out->msg_text.len = msg_len;
			if (off < first)
				continue;
			p->next = (struct carc_cut){off, w->rec.src.base_line, 0};
			break;
		}
		p->e002 += w->sink.counts[CARC_E002];
		game_done(w, ps->name, &w->rec, off);
	}
	carc_diag_flush(&w->sink);
	carc_diag_hold(&w->sink, NULL);
	if (p->ended && carc_reader_error(r))
		out_cannot(out, ps->name, "read", carc_reader_error(r));
	carc_reader_free(r);
	fclose(f);
}

static void *part_worker(void *arg)
{
	struct parts *ps = arg;
	struct worker w;
	worker_init(&w, ps->run);
	struct part *p;
	size_t slot;
	while ((p = wq_take(&ps->q, &slot))) {
		if (!atomic_load(&ps->stop))
			read_part(ps, &w, p, p->at, p->at.off);
		wq_done(&ps->q, slot);
	}
	return kept(&w);
}

/* Empties p for the part from `at` to `end` (fix: see struct part),
 * keeping its buffers: parts are reused, as they would otherwise be given
 * back and taken again, a few MiB each, over and over. */
static void part_reset(struct part *p, struct carc_cut at, unsigned fix, uint64_t end)
{
	struct carc_jobs_out out = p->out;
	out_reset(&out);
	*p = (struct part){.at = at, .fix = fix, .end = end, .out = out};
}

static void part_free(struct part *p)
{
	out_free(&p->out);
	free(p);
}

/* One plain file in parts; false, having done nothing, when it is not one
 * (standard input, compressed data, not a regular file), or no thread
 * could be started. */
static bool run_parts(const struct carc_jobs *run, const char *path, struct carc_jobs_totals *t)
{
	if (!strcmp(path, "-"))
		return false;
	FILE *f = carc_open_input(path);
	struct stat st;
	if (!f)
		return false;
	if (fileno(f) < 0 || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) { /* (compressed: no fileno) */
		carc_close_input(f);
		return false;
	}
	struct parts ps = {.run = run, .path = path, .name = carc_input_name(path)};
	atomic_init(&ps.stop, false);
	wq_init(&ps.q, MAX_UNITS(run->jobs));
	pthread_t *threads = xcalloc((size_t)run->jobs, sizeof *threads);
	int nthreads = start_threads(threads, run->jobs, part_worker, &ps);
	if (!nthreads) {
		free(threads);
		wq_free(&ps.q);
		carc_close_input(f);
		return false;
	}
	uint64_t part_bytes = (uint64_t)st.st_size / (8 * (uint64_t)run->jobs);
	part_bytes = part_bytes < PART_MIN ? PART_MIN : part_bytes > PART_MAX ? PART_MAX : part_bytes;

	struct carc_split_scan scan;
	carc_split_scan_init(&scan, f);
	struct carc_cut at = {0, 1, 0};   /* the next part's start, as the scan says */
	struct carc_cut want = {0, 1, 0}; /* where the next part must start: where the reader says */
	struct carc_cut safe = {0, 1, 0}; /* where a reader may start to read a part again */
	unsigned e002 = 0;                /* E002 messages delivered */
	unsigned fix = 0;                 /* added to the scan's count of games (modulo 2^32) */
	bool cut_all = false, ended = false;
	struct worker mine;               /* (this thread's, for parts read again) */
	bool have_mine = false;
	struct part **spare = xcalloc(ps.q.cap + 1, sizeof *spare); /* parts delivered, for reuse */
	size_t nspare = 0;
	for (;;) {
		while (!cut_all && !wq_full(&ps.q)) {
			struct part *p = nspare ? spare[--nspare] : xcalloc(1, sizeof *p);
			if (!p->out.run)
				out_init(&p->out, run, false);
			struct carc_cut start = at;
			uint64_t end = UINT64_MAX;
			if (carc_split_next(&scan, at.off + part_bytes, &at))
				end = at.off;
			else
				cut_all = true;
			part_reset(p, start, fix, end);
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
				part_reset(p, p->at, p->fix, p->end);
				if (!have_mine)
					worker_init(&mine, run);
				have_mine = true;
				read_part(&ps, &mine, p, safe, want.off);
			} else if (!e002) {
				safe = p->at;
			}
			deliver(run, &p->out, t);
			want.games += (unsigned)p->out.games;
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
	join_threads(threads, nthreads);
	if (have_mine)
		worker_free(&mine);
	while (nspare)
		part_free(spare[--nspare]);
	free(spare);
	carc_split_scan_free(&scan);
	wq_free(&ps.q);
	free(threads);
	carc_close_input(f);
	return true;
}

void carc_jobs_run(const struct carc_jobs *run, char *const *paths, int npaths, struct carc_jobs_totals *t)
{
	t->files += (unsigned)npaths;
	if (run->jobs > 1 && !run->only_game) {
		if (npaths == 1 && (run_parts(run, paths[0], t) || run_stream(run, paths[0], t)))
			return;
		if (npaths > 1 && run_pool(run, paths, (size_t)npaths, t))
			return;
	}
	/* one thread (or none to be had but this one) */
	struct worker w;
	struct carc_jobs_out out;
	worker_init(&w, run);
	out_init(&out, run, true);
	w.out = &out;
	for (int i = 0; i < npaths; i++)
		one_input(&w, paths[i]);
	add_totals(t, &out);
	out_free(&out);
	worker_free(&w);
}
