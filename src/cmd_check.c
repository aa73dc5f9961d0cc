/*
 * cmd_check.c - carc check: validate every game of every file.
 *
 * Diagnostics go to standard error in GNU format; the last line on standard
 * output sums up: "N games, N valid, N invalid, N unreadable". With
 * --format json, standard output has one JSON object per game instead (JSON
 * Lines) and the diagnostics are inside them. With -j N, files are checked
 * by N threads; each file's output is kept and printed in the order the
 * files were given, so the output does not depend on -j. --max-errors counts
 * the error messages of the whole run, in that order: one printer prints
 * every file's messages, as they come without -j, or when a file's turn
 * comes with -j (its messages are formatted by its thread and held till then).
 */
#include "cli.h"
#include "json.h"
#include "referee.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
	bool unreadable, trouble;
	bool done;           /* -j: checked (under the pool's lock) */
};

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
	if (job->nheld == job->held_cap) {
		job->held_cap = job->held_cap ? 2 * job->held_cap : 16;
		job->held = xrealloc(job->held, job->held_cap * sizeof *job->held);
	}
	size_t off = job->held_text.len;
	carc_diag_format(&job->held_text, d, job->opt->color);
	job->held[job->nheld++] = (struct held_msg){off, job->held_text.len - off, d->severity == CARC_SEV_ERROR};
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

static void json_game(struct carc_buf *out, const char *name, const struct carc_record *rec,
		      const struct carc_result *res, bool valid, const char *diags)
{
	carc_buf_adds(out, "{\"file\":");
	carc_json_cstr(out, name);
	carc_buf_printf(out, ",\"game\":%u,\"line\":%u,\"valid\":%s,\"finished\":%s,\"errors\":%u,\"warnings\":%u,",
			rec->index, rec->src.base_line, valid ? "true" : "false", res->finished ? "true" : "false",
			res->errors, res->warnings);
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
	carc_buf_printf(&msg, "cannot %s: %s", what, strerror(err));
	struct carc_diag d = {CARC_E001, CARC_SEV_ERROR, &whole, 0, 0, carc_buf_cstr(&msg)};
	if (job->opt->json) {
		struct carc_buf diags = {0}, line = {0};
		struct json_diags jd = {&diags, 0};
		json_diag(&jd, &d);
		carc_buf_adds(&line, "{\"file\":");
		carc_json_cstr(&line, name);
		carc_buf_printf(&line, ",\"unreadable\":true,\"diagnostics\":[%s]}\n", carc_buf_cstr(&diags));
		fwrite(line.data, 1, line.len, job->outf);
		carc_buf_free(&diags);
		carc_buf_free(&line);
	} else {
		text_diag(job, &d);
	}
	job->unreadable = true;
	carc_buf_free(&msg);
}

static void check_file(struct file_job *job)
{
	const struct check_opts *opt = job->opt;
	const char *name = carc_input_name(job->path);
	FILE *f = carc_open_input(job->path);
	struct carc_buf line = {0};
	if (!f) {
		unreadable(job, name, "open", errno);
		return;
	}
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(f, name, cache);
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_buf diags = {0};
	struct json_diags jd = {&diags, 0};
	struct carc_diag_sink sink = {0};
	if (opt->json) {
		sink.emit = json_diag;
		sink.ctx = &jd;
	} else {
		sink.emit = text_diag;
		sink.ctx = job;
	}
	carc_diag_hold(&sink, &rec.src); /* each game's messages in the order of its lines */
	for (;;) {
		carc_buf_reset(&diags);
		jd.count = 0;
		if (!carc_reader_next(r, &rec, &sink))
			break;
		/* the verdict and the totals need no turn records */
		carc_referee_run(&res, &rec, g, &sink, &(struct carc_referee_opts){.no_turns = true});
		carc_diag_flush(&sink);
		if (!rec.tileset)
			job->trouble = true;
		bool valid = res.errors == 0 && !(opt->werror && res.warnings);
		job->games++;
		if (valid)
			job->valid++;
		else
			job->invalid++;
		if (opt->json) {
			carc_buf_reset(&line);
			json_game(&line, name, &rec, &res, valid, carc_buf_cstr(&diags));
			fwrite(line.data, 1, line.len, job->outf);
		}
	}
	carc_diag_flush(&sink);
	if (carc_reader_error(r))
		unreadable(job, name, "read", carc_reader_error(r));
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_close_input(f);
	carc_buf_free(&diags);
	carc_diag_free(&sink);
	carc_buf_free(&line);
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

struct totals {
	unsigned games, valid, invalid, unreadable;
	bool trouble;
};

/* A checked file's turn: its held messages through the run's printer, its
 * JSON, its counts; then what it held is freed. */
static void take(struct carc_printer *printer, struct file_job *j, struct totals *t)
{
	for (size_t m = 0; m < j->nheld; m++)
		carc_print_text(printer, j->held[m].error, j->held_text.data + j->held[m].off, j->held[m].len);
	if (j->out_len)
		fwrite(j->out_data, 1, j->out_len, stdout);
	t->games += j->games;
	t->valid += j->valid;
	t->invalid += j->invalid;
	t->unreadable += j->unreadable;
	t->trouble |= j->trouble;
	carc_buf_free(&j->held_text);
	free(j->held);
	free(j->out_data);
	j->held = NULL;
	j->out_data = NULL;
}

static void help(void)
{
	printf("usage: carc check [OPTIONS] FILE...|-\n\n"
	       "Validate every game in every file: syntax, tile sets, the rules of play,\n"
	       "claims and results. Diagnostics go to standard error; the last line on\n"
	       "standard output sums up: N games, N valid, N invalid, N unreadable.\n\n"
	       "options:\n"
	       "  -q, --quiet          print only the summary line\n"
	       "  -m, --max-errors N   print at most N error messages in all, then only\n"
	       "                       warnings (0: no limit; checking goes on)\n"
	       "  -W, --werror         count warnings (such as an unfinished game) as errors\n"
	       "  -f, --format FORMAT  text (default) or json: one JSON object per game\n"
	       "  -j, --jobs N         check N files at a time\n"
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
			if (!carc_tileset_path_option("check", optarg))
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
	if (opt.jobs > 1 && njobs > 1) {
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
	if (!opt.json)
		printf("%u game%s, %u valid, %u invalid, %u unreadable\n", t.games, t.games == 1 ? "" : "s", t.valid,
		       t.invalid, t.unreadable);
	if (!carc_stdout_done("check"))
		return CARC_EXIT_TROUBLE;
	if (t.unreadable || t.trouble)
		return CARC_EXIT_TROUBLE;
	return t.invalid ? CARC_EXIT_INVALID : CARC_EXIT_OK;
}
