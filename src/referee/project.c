/*
 * project.c - projected finals, by replaying each step and scoring it.
 */
#include "referee/project.h"

#include <stdlib.h>
#include <string.h>

struct carc_projector {
	struct carc_game *game;   /* the scratch engine */
	struct carc_result res;   /* its result, reused from step to step */
	int *rows;                /* (steps) x CARC_COLOURS */
	size_t cap;               /* rows allocated */
};

struct carc_projector *carc_projector_new(void)
{
	struct carc_projector *p = xcalloc(1, sizeof *p);
	p->game = carc_game_new();
	return p;
}

void carc_projector_free(struct carc_projector *p)
{
	if (!p)
		return;
	carc_game_free(p->game);
	carc_result_free(&p->res);
	free(p->rows);
	free(p);
}

const int *carc_project(struct carc_projector *p, const struct carc_result *res, const struct carc_referee_opts *opts,
			carc_project_fn fn, void *ctx)
{
	if (!res->refereed || res->nturns > CARC_PROJECT_MAX_TURNS)
		return NULL;
	size_t steps = res->nturns + 1;
	if (p->cap < steps) {
		p->cap = steps;
		p->rows = xrealloc(p->rows, steps * CARC_COLOURS * sizeof *p->rows);
	}
	struct carc_referee_opts o = {.edition = opts ? opts->edition : 0};
	struct carc_diag_sink quiet = {0};
	for (size_t k = 0; k < steps; k++) {
		/* stop_after cannot say "none": step 0 plays a copy with no turns */
		struct carc_record start_only = *res->rec;
		const struct carc_record *rec = res->rec;
		if (k == 0) {
			start_only.nmoves = 0;
			start_only.has_result = false;
			start_only.termination = CARC_TERM_NONE; /* (the position before the first turn, played) */
			rec = &start_only;
		}
		o.stop_after = (int)k;
		carc_referee_run(&p->res, rec, p->game, &quiet, &o);
		if (fn)
			fn(ctx, k, p->game, &p->res);
		/* a limited replay is never scored at its end; an empty one is
		 * not either (no moves, no Result) */
		carc_result_score_final_quiet(&p->res);
		memcpy(&p->rows[k * CARC_COLOURS], carc_game_scores(p->game), CARC_COLOURS * sizeof *p->rows);
	}
	carc_diag_free(&quiet);
	return p->rows;
}
