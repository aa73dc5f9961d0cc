/*
 * view.c - one game at a chosen turn, for carc show and carc render.
 *
 * The game is refereed twice at most: once in full, printing its
 * diagnostics and finding its first illegal move, then (when an earlier turn
 * is wanted, or the game was scored at its end) again up to that turn in
 * silence, without final scoring: the last picture of a game shows who stood
 * where when the last tile was laid, with the final scores.
 */
#include "cli/view.h"
#include "cli/cli.h"
#include "output/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Passes diagnostics on, remembering the first error message of each line. */
struct catch {
	struct carc_diag_sink *inner;
	struct carc_caught {
		unsigned line;
		char *message;
	} *caught;
	size_t n, cap;
};

static void catch_diag(void *ctx, const struct carc_diag *d)
{
	struct catch *c = ctx;
	if (c->inner->emit)
		c->inner->emit(c->inner->ctx, d);
	if (d->severity != CARC_SEV_ERROR || !d->src)
		return;
	unsigned line, col;
	carc_src_position(d->src, d->off, &line, &col);
	for (size_t i = 0; i < c->n; i++)
		if (c->caught[i].line == line)
			return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->caught = xrealloc(c->caught, c->cap * sizeof *c->caught);
	}
	struct carc_buf b = {0};
	carc_buf_printf(&b, "%s:%u:%u: error[%s]: %s", d->src->name, line, col, carc_code_str(d->code), d->message);
	c->caught[c->n].line = line;
	c->caught[c->n++].message = b.data;
}

static unsigned line_of(const struct carc_record *rec, uint32_t off)
{
	unsigned line, col;
	carc_src_position(&rec->src, off, &line, &col);
	return line;
}

/* Fills s->view from the engine's state: the followers standing. */
static void build_view(struct carc_scene *s)
{
	struct carc_game *g = s->game;
	const struct carc_record *rec = &s->rec;
	const struct carc_result *res = &s->res;
	struct carc_view *v = &s->view;
	size_t np, nf;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	v->ts = rec->tileset;
	v->tiles = xcalloc(np + 1, sizeof *v->tiles);
	v->ntiles = np;
	for (size_t i = 0; i < np; i++) {
		v->tiles[i].x = pl[i].x;
		v->tiles[i].y = pl[i].y;
		v->tiles[i].tile = pl[i].tile;
		v->tiles[i].rot = pl[i].rot;
	}
	/* followers */
	v->followers = xcalloc(nf + 1, sizeof *v->followers);
	uint32_t nsegs = 0;
	for (size_t i = 0; i < np; i++) {
		uint32_t end = pl[i].seg0 + rec->tileset->tiles[pl[i].tile].nfeatures;
		if (end > nsegs)
			nsegs = end;
	}
	uint8_t (*count)[CARC_COLOURS] = xcalloc(nsegs + 1, sizeof *count);
	for (size_t i = 0; i < nf; i++) {
		const struct carc_follower *f = &fl[i];
		if (!f->active)
			continue;
		uint32_t root = carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
		struct carc_view_follower *vf = &v->followers[v->nfollowers++];
		vf->tile = f->placement;
		vf->feature = (uint8_t)(f->segment - pl[f->placement].seg0);
		vf->colour = f->colour;
		vf->letter = s->role_letter[f->role];
		vf->hut = rec->rules->roles[f->role].hut;
		vf->large = carc_role_weight(&rec->rules->roles[f->role]) > 1;
		vf->role = rec->rules->roles[f->role].name;
		int weight = carc_role_weight(&rec->rules->roles[f->role]); /* a large follower 2 */
		if (root < nsegs && count[root][f->colour] <= 255 - weight)
			count[root][f->colour] = (uint8_t)(count[root][f->colour] + weight);
	}
	/* owners: the colours with the most followers on each feature */
	for (size_t i = 0; i < np; i++) {
		int nfeat = rec->tileset->tiles[pl[i].tile].nfeatures;
		for (int f = 0; f < nfeat; f++) {
			uint32_t root = carc_game_feature_root(g, (int)i, f);
			if (root >= nsegs)
				continue;
			int best = 0;
			uint8_t owners = 0;
			for (int c = 0; c < CARC_COLOURS; c++) {
				if (count[root][c] > best) {
					best = count[root][c];
					owners = 0;
				}
				if (best && count[root][c] == best)
					owners |= (uint8_t)(1u << c);
			}
			v->tiles[i].owners[f] = owners;
		}
	}
	free(count);
	/* marks: the last tile placed, and every illegal move up to here */
	for (int t = s->lines - 1; t >= 0; t--)
		if (res->turns[t].placement >= 0) {
			v->tiles[res->turns[t].placement].mark = CARC_MARK_LAST;
			break;
		}
	for (int t = 0; t < s->lines; t++) {
		const struct carc_turn *tr = &res->turns[t];
		if (!tr->illegal)
			continue;
		if (tr->placement >= 0) {
			v->tiles[tr->placement].mark = CARC_MARK_ILLEGAL;
		} else if (!tr->discard && v->ncells < (int)CARC_ARRAY_LEN(v->cells)) {
			const struct carc_move *m = &rec->moves[tr->move];
			v->cells[v->ncells++] = (struct carc_view_cell){m->x, m->y, CARC_MARK_ILLEGAL};
		}
	}
}

int carc_scene_load(struct carc_scene *s, const char *cmd, const char *path, int game, int turn,
		    struct carc_diag_sink *sink)
{
	memset(s, 0, sizeof *s);
	const char *name = carc_input_name(path);
	s->file = carc_open_input(path);
	if (!s->file) {
		carc_say_cannot(name, "open", errno);
		return CARC_EXIT_TROUBLE;
	}
	s->cache = carc_tileset_cache_new();
	s->reader = carc_reader_new(s->file, name, s->cache, carc_rules_registry());
	struct catch caught = {sink, NULL, 0, 0};
	struct carc_diag_sink wrap = {catch_diag, &caught};
	struct carc_diag_sink quiet = {0};
	carc_diag_hold(&wrap, &s->rec.src); /* the game's messages in the order of its lines */
	int index = 0;
	bool found = false;
	while (carc_reader_next(s->reader, &s->rec, index + 1 == game ? &wrap : &quiet))
		if (++index == game) {
			found = true;
			break;
		}
	int status = CARC_EXIT_OK;
	if (!found) {
		carc_diag_flush(&wrap);
		if (carc_reader_error(s->reader))
			carc_say_cannot(name, "read", carc_reader_error(s->reader));
		else
			fprintf(stderr, "carc %s: %s has %d game%s, not a game %d\n", cmd, name, index,
				index == 1 ? "" : "s", game);
		status = CARC_EXIT_TROUBLE;
		goto out;
	}
	if (!s->rec.tileset) {
		carc_diag_flush(&wrap);
		status = CARC_EXIT_TROUBLE; /* the tile set's message is printed */
		goto out;
	}
	carc_role_letters(s->rec.rules, s->role_letter);
	s->game = carc_game_new();
	carc_referee_run(&s->res, &s->rec, s->game, &wrap, NULL);
	carc_diag_flush(&wrap);
	s->errors = s->res.errors;
	if (s->res.result_only) { /* (no map: its moves were not recorded) */
		fprintf(stderr, "carc %s: game %d has no map to draw: its moves were not recorded, only its result\n",
			cmd, game);
		status = CARC_EXIT_INVALID;
		goto out;
	}
	if (!s->res.refereed) {
		fprintf(stderr, "carc %s: game %d cannot be played: its tags have errors\n", cmd, game);
		status = CARC_EXIT_INVALID;
		goto out;
	}
	for (size_t i = 0; i < s->rec.nmoves; i++)
		if (s->rec.moves[i].bad) {
			s->bad_line = (int)line_of(&s->rec, s->rec.moves[i].line.off);
			break;
		}
	int full = (int)s->res.nturns, illegal = -1;
	for (int t = 0; t < full && illegal < 0; t++)
		if (s->res.turns[t].illegal)
			illegal = t;
	s->last_number = full ? s->res.turns[full - 1].number : 0;
	int lines = full;
	if (turn >= 0) {
		if (turn > s->last_number) {
			fprintf(stderr, "carc %s: game %d has %d turn%s, not a turn %d\n", cmd, game, s->last_number,
				s->last_number == 1 ? "" : "s", turn);
			status = CARC_EXIT_TROUBLE;
			goto out;
		}
		lines = 0;
		while (lines < full && s->res.turns[lines].number <= turn)
			lines++;
	} else if (illegal >= 0) {
		lines = illegal + 1;
		s->illegal_shown = true;
	}
	s->lines = lines;
	/* The picture is the position when the turn shown ended: at the end of
	 * a game, before final scoring took anyone off (each rule set takes
	 * them off its own way, or not at all), so that every follower counts
	 * once, standing on the map or in supply, in every rule set. */
	s->final = lines == full && turn < 0 && s->res.final_scored;
	int final_scores[CARC_COLOURS];
	memcpy(final_scores, s->res.scores, sizeof final_scores);
	if (lines < full || s->res.final_scored) {
		struct carc_referee_opts opts = {.stop_after = lines};
		struct carc_record start_only;
		const struct carc_record *rec = &s->rec;
		if (!lines) { /* stop_after cannot say "none": play a copy with no turns */
			start_only = s->rec;
			start_only.nmoves = 0;
			start_only.has_result = false;
			rec = &start_only;
			opts.stop_after = 0;
		}
		carc_referee_run(&s->res, rec, s->game, &quiet, &opts);
		carc_diag_free(&quiet);
	}
	for (int c = 0; c < CARC_COLOURS; c++)
		s->scores[c] = s->final ? final_scores[c] : lines ? s->res.turns[lines - 1].scores[c] : 0;
	if (lines) {
		const struct carc_turn *tr = &s->res.turns[lines - 1];
		s->turn_number = tr->number;
		s->turn_line = (int)line_of(&s->rec, s->rec.moves[tr->move].line.off);
		for (size_t i = 0; i < caught.n; i++)
			if (caught.caught[i].line == (unsigned)s->turn_line && tr->illegal)
				s->first_error = xstrdup(caught.caught[i].message);
	}
	build_view(s);
	s->shapes = carc_shape_cache_new(s->rec.tileset);
	if (s->errors)
		status = CARC_EXIT_INVALID;
out:
	for (size_t i = 0; i < caught.n; i++)
		free(caught.caught[i].message);
	free(caught.caught);
	carc_diag_free(&wrap);
	carc_diag_free(&quiet);
	return status;
}

void carc_scene_free(struct carc_scene *s)
{
	free(s->view.tiles);
	free(s->view.followers);
	free(s->first_error);
	carc_shape_cache_free(s->shapes);
	if (s->game)
		carc_game_free(s->game);
	carc_result_free(&s->res);
	carc_record_free(&s->rec);
	if (s->reader)
		carc_reader_free(s->reader);
	if (s->cache)
		carc_tileset_cache_free(s->cache);
	if (s->file)
		carc_close_input(s->file);
	memset(s, 0, sizeof *s);
}

void carc_scene_describe(const struct carc_scene *s, struct carc_buf *out)
{
	if (!s->lines) {
		carc_buf_printf(out, "the start: tile %s at 0,0", s->rec.tileset->tiles[s->rec.start_tile].id);
		return;
	}
	const struct carc_turn *tr = &s->res.turns[s->lines - 1];
	const struct carc_move *m = &s->rec.moves[tr->move];
	const struct carc_tileset *ts = s->rec.tileset;
	carc_buf_printf(out, "after turn %d%s: %s %s", tr->number, tr->bonus ? "+" : "", carc_colour_name(m->colour),
			ts->tiles[m->tile].id);
	if (m->discard) {
		carc_buf_adds(out, " discarded");
		return;
	}
	carc_buf_printf(out, " at %d,%d turned %d", (int)m->x, (int)m->y, m->rot * 90);
	if (m->role >= 0)
		carc_buf_printf(out, ", %s %s", s->rec.rules->roles[m->role].name, carc_spot_name(m->spot));
	else if (m->recall >= 0)
		carc_buf_printf(out, ", %s taken back", s->rec.rules->roles[m->recall].name);
}

void carc_scene_rules(const struct carc_scene *s, struct carc_buf *out)
{
	carc_report_rules_words(&s->rec, s->res.edition, out);
}

void carc_scene_supply(const struct carc_scene *s, int colour, struct carc_buf *out)
{
	const struct carc_ruleset *rules = s->rec.rules;
	int n = carc_game_supply(s->game, colour);
	carc_buf_printf(out, "%d follower%s in supply", n, n == 1 ? "" : "s");
	if (rules->huts) { /* a second supply */
		n = carc_game_huts(s->game, colour);
		carc_buf_printf(out, ", %d hut%s", n, n == 1 ? "" : "s");
	}
	for (int r = 0; r < rules->nroles; r++) { /* the supplies of their own: the abbot, the large follower */
		const char *name = carc_role_supply_name(rules, r);
		if (name)
			carc_buf_printf(out, ", %d %s", carc_game_role_supply(s->game, colour, r), name);
	}
}
