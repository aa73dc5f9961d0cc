/*
 * cmd_render_html.c - carc render --format html: the replay page of the
 * games of a file (replay.h), written by carc render.
 *
 * Every game is refereed in full (its diagnostics go to standard error, as
 * with check, and onto the page), projected turn by turn, and added to one
 * page with a game selector; --game N puts that game alone on the page.
 */
#include "cli/cli.h"
#include "output/replay.h"

#include <stdlib.h>
#include <string.h>

/* The most games on one page: past this, choose one with --game. */
enum { MAX_PAGE_GAMES = 500 };

/* Passes diagnostics on to the printer and keeps them for the page. */
struct keep {
	struct carc_diag_sink *inner;
	const char *path_name;   /* the file's name as given (in messages on standard error) */
	const char *page_name;   /* its name on the page: the base name, or the label of standard input */
	const char *game_text;   /* the text of the game being read */
	struct carc_replay_note *notes;
	size_t n, cap;
};

static void keep_diag(void *ctx, const struct carc_diag *d)
{
	struct keep *k = ctx;
	if (k->inner->emit)
		k->inner->emit(k->inner->ctx, d);
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 16;
		k->notes = xrealloc(k->notes, k->cap * sizeof *k->notes);
	}
	struct carc_replay_note *n = &k->notes[k->n++];
	memset(n, 0, sizeof *n);
	n->code = d->code;
	n->severity = d->severity;
	struct carc_buf text = {0};
	carc_diag_format(&text, d, false);
	/* the first line: "file:line:col: error[E209]: message" */
	const char *s = carc_buf_cstr(&text);
	size_t len = strcspn(s, "\n"), name = strlen(k->path_name);
	if (len > name && !strncmp(s, k->path_name, name) && s[name] == ':') {
		/* the page names the file by its base name, never by the path given */
		struct carc_buf m = {0};
		carc_buf_adds(&m, k->page_name);
		carc_buf_add(&m, s + name, len - name);
		n->message = xstrdup(carc_buf_cstr(&m));
		carc_buf_free(&m);
	} else {
		n->message = xstrndup(s, len);
	}
	carc_buf_free(&text);
	if (d->src && d->src->text) {
		carc_src_position(d->src, d->off, &n->line, &n->col);
		n->off = d->off;
		n->in_game = true;
	}
}

static void forget_notes(struct keep *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->notes[i].message);
	k->n = 0;
}

int carc_render_html(const char *path, const char *output, long game_wanted, long turn)
{
	FILE *in = carc_open_input_or_say(path);
	if (!in)
		return CARC_EXIT_TROUBLE;
	struct carc_printer printer = {stderr, carc_use_color(stderr), 0, 0, false, {0}};
	struct carc_diag_sink sink = {carc_print_diag, &printer};
	const char *page_name = carc_input_name(path);
	if (strcmp(path, "-") && strrchr(path, '/') && strrchr(path, '/')[1])
		page_name = strrchr(path, '/') + 1;
	struct keep kept = {&sink, carc_input_name(path), page_name, NULL, NULL, 0, 0};
	struct carc_diag_sink wrap = {keep_diag, &kept};
	struct carc_diag_sink quiet = {0};
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(in, carc_input_name(path), cache, carc_rules_registry());
	struct carc_record rec = {0};
	struct carc_result res = {0};
	struct carc_game *g = carc_game_new();
	struct carc_replay *page = carc_replay_new();
	struct carc_referee_opts opts = {0};
	bool invalid = false, trouble = false, found = false;
	long index = 0, added = 0;
	char *title = NULL;
	while (carc_reader_next(r, &rec, game_wanted && index + 1 != game_wanted ? &quiet : &wrap)) {
		index++;
		if (game_wanted && index != game_wanted)
			continue;
		found = true;
		if (++added > MAX_PAGE_GAMES) {
			fprintf(stderr, "carc render: %s has more than %d games, too many for one page: choose one with "
				"--game N\n", carc_input_name(path), MAX_PAGE_GAMES);
			trouble = true;
			break;
		}
		carc_referee_run(&res, &rec, g, &wrap, &opts);
		if (!rec.tileset)
			trouble = true;
		if (res.errors)
			invalid = true;
		if (!title) {
			const char *event = carc_record_tag(&rec, CARC_TAG_EVENT);
			struct carc_buf t = {0};
			carc_buf_adds(&t, event ? event : page_name);
			carc_buf_adds(&t, " - carc replay");
			title = t.data;
		}
		/* the report names the file as the page does */
		const char *given = rec.src.name;
		rec.src.name = page_name;
		bool added_ok = !rec.tileset || carc_replay_add(page, &res, &opts, kept.notes, kept.n);
		rec.src.name = given;
		if (!added_ok) {
			carc_say_too_long("render", &rec, res.nturns);
			trouble = true;
		}
		forget_notes(&kept);
	}
	int read_error = carc_reader_error(r);
	int status = CARC_EXIT_OK;
	if (read_error) {
		carc_say_cannot(carc_input_name(path), "read", read_error);
		status = CARC_EXIT_TROUBLE;
	} else if (game_wanted && !found) {
		fprintf(stderr, "carc render: %s has %ld game%s, not a game %ld\n", carc_input_name(path), index,
			index == 1 ? "" : "s", game_wanted);
		status = CARC_EXIT_TROUBLE;
	} else if (!index) {
		fprintf(stderr, "carc render: %s holds no game\n", carc_input_name(path));
		status = CARC_EXIT_TROUBLE;
	} else if (trouble) {
		status = CARC_EXIT_TROUBLE;
	} else {
		struct carc_buf html = {0};
		carc_replay_write(page, &html, title ? title : "carc replay", (int)turn);
		if (!carc_output_write("render", output, html.data, html.len))
			status = CARC_EXIT_TROUBLE;
		carc_buf_free(&html);
		if (status == CARC_EXIT_OK && invalid)
			status = CARC_EXIT_INVALID;
	}
	free(title);
	forget_notes(&kept);
	free(kept.notes);
	carc_replay_free(page);
	carc_game_free(g);
	carc_result_free(&res);
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_tileset_cache_free(cache);
	carc_close_input(in);
	carc_diag_free(&wrap);
	carc_diag_free(&quiet);
	carc_diag_free(&sink);
	carc_buf_free(&printer.buf);
	return status;
}
