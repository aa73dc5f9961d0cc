/*
 * referee.c - turn by turn: check, report, apply, score, compare claims.
 *
 * Each check reports with the turn and the colour first, then the rule and
 * the evidence. After the first error of a game, later messages say so. A
 * move that is physically possible (a follower on an occupied feature, a
 * tile whose edge clashes) is applied as recorded; one that is not (a tile on
 * a taken cell) is skipped, and the game goes on.
 */
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool carc_referee_fast_turns = true;

struct referee {
	struct carc_result *res;
	const struct carc_record *rec;
	struct carc_game *g;
	struct carc_diag_sink *sink;
	const struct carc_tileset *ts;
	unsigned first_error_line;  /* line of the game's first error, 0 if none */
	unsigned errors_before;
	const struct carc_move *m;  /* the move being refereed */
	int turn;                   /* its number */
	struct claim_mark {
		uint32_t event;     /* the engine's events before it */
		int32_t turn;       /* its turn */
	} last_claim[CARC_COLOURS]; /* each colour's last claim (one store a claim) */
	struct carc_buf msg;
	struct carc_turn *current;  /* the turn being refereed, NULL between turns */
	const struct carc_totals *totals; /* the engine's running totals */
	size_t keep_turns;          /* 1: a record per turn; 0: every turn writes turns[0] (no_turns) */
	uint8_t seated;             /* bit c: colour c plays */
	unsigned flags;             /* the game's CARC_RS_* */
	/* the game's modules with play hooks (res->mods), and for each hook
	 * that replaces a step, the module that sets it last (-1: none) */
	int nmods;
	int seat_by, score_by, final_by, result_by, explain_by;
	/* the record's turn numbers minus the count, as of the last line whose
	 * number was reported (E207): later lines that keep to it are not
	 * reported again, so that a slip in the numbering is one error */
	int number_offset;
	/* every module has an untouched hook: a move they all leave alone
	 * takes the base game's short way (carc_referee_run) */
	bool all_untouched;
	/* the modules with a short_turn_end hook, called after a turn played
	 * the short way */
	int nshort;
	int8_t short_by[1 + CARC_MAX_EXPANSIONS];
	/* the modules whose untouched hook is asked (those with usual_untouched
	 * leave every usual turn alone and are not) */
	int nask;
	bool (*ask[1 + CARC_MAX_EXPANSIONS])(void *st, const struct carc_move *m);
	void *ask_state[1 + CARC_MAX_EXPANSIONS]; /* (res->mod_state[ask_mod[k]]: a clone sets them again) */
	int8_t ask_mod[1 + CARC_MAX_EXPANSIONS];
	/* per tile type set aside: the turns that named it as its twin (rec->twins) */
	uint16_t *twin_named;
};

static void fault(struct referee *rf, enum carc_code code, struct carc_span at, const char *fmt, ...)
	CARC_PRINTF(4, 5);

static void fault(struct referee *rf, enum carc_code code, struct carc_span at, const char *fmt, ...)
{
	struct carc_buf *b = &rf->msg;
	carc_buf_reset(b);
	if (rf->m)
		carc_buf_printf(b, "turn %d%s, %s: ", rf->turn, rf->m->bonus ? "+" : "", carc_colour_name(rf->m->colour));
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(b, fmt, ap);
	va_end(ap);
	unsigned line, col;
	carc_src_position(&rf->rec->src, at.off, &line, &col);
	if (carc_code_severity(code) == CARC_SEV_ERROR) {
		if (rf->first_error_line && rf->first_error_line != line)
			carc_buf_printf(b, " (after an earlier error on line %u)", rf->first_error_line);
		if (!rf->first_error_line)
			rf->first_error_line = line;
		if (rf->current)
			rf->current->illegal = true;
	}
	carc_diag_report(rf->sink, code, &rf->rec->src, at.off, at.len ? at.len : 1, "%s", carc_buf_cstr(b));
}

/* fault() for the checks of the rule-set modules. */
static void module_fault(void *ctx, enum carc_code code, struct carc_span at, const char *msg)
{
	fault(ctx, code, at, "%s", msg);
}

/* The play hooks of the game's module k, and its state. */
static inline const struct carc_play_hooks *hooks(const struct referee *rf, int k)
{
	return rf->res->mods[k]->play;
}

static inline void *state(const struct referee *rf, int k)
{
	return rf->res->mod_state[k];
}


static const char *terrain(const struct referee *rf, uint8_t t)
{
	return t < rf->ts->nterrains ? rf->ts->terrains[t] : "?";
}

/* Lists colour c's scoring events from event index since on. */
static void list_events(struct referee *rf, int c, size_t since, struct carc_buf *out)
{
	size_t n;
	const struct carc_event *ev = carc_game_events(rf->g, &n);
	int listed = 0;
	for (size_t i = since; i < n; i++) {
		if (!(ev[i].winners & (1u << c)) && rf->explain_by >= 0 && (ev[i].skipped & (1u << c))) {
			/* it held the majority but the rules did not pay it */
			carc_buf_adds(out, listed++ ? ", " : "");
			if (ev[i].turn)
				carc_buf_printf(out, "turn %d ", ev[i].turn);
			else
				carc_buf_adds(out, "final ");
			carc_game_feature_name(rf->g, ev[i].feature, out);
			carc_buf_adds(out, " not paid (");
			hooks(rf, rf->explain_by)->explain(state(rf, rf->explain_by), i, out);
			carc_buf_addc(out, ')');
			continue;
		}
		if (!(ev[i].winners & (1u << c)))
			continue;
		carc_buf_adds(out, listed++ ? ", " : "");
		if (ev[i].turn)
			carc_buf_printf(out, "turn %d ", ev[i].turn);
		else
			carc_buf_adds(out, "final ");
		carc_game_feature_name(rf->g, ev[i].feature, out);
		carc_buf_printf(out, " +%d", carc_event_points_of(&ev[i], c));
	}
	if (!listed)
		carc_buf_adds(out, "nothing");
}

/* The claims from cl on, of which cl is wrong or names a colour that does
 * not play: each said, from there on (check_claims' way out). */
static __attribute__((noinline, cold)) void claims_wrong(struct referee *rf, const struct carc_claim *cl, const struct carc_claim *end,
							  struct claim_mark mark)
{
	const int *score = rf->totals->score;
	unsigned seated = rf->seated;
	for (; cl < end; cl++) {
		int c = cl->colour;
		if ((c >= CARC_COLOURS) | !(seated >> (c & 7) & 1)) {
			fault(rf, CARC_E214, cl->span, "the claim names %s, who does not play in this game",
			      carc_colour_name(c));
			continue;
		}
		int have = score[c];
		if (have != cl->points) {
			struct carc_buf why = {0};
			list_events(rf, c, rf->last_claim[c].event, &why);
			if (rf->last_claim[c].turn)
				fault(rf, CARC_E212, cl->span, "claim %s %d, but %s has %d; since the claim on turn %d %s scored: %s",
				      carc_colour_name(c), cl->points, carc_colour_name(c), have, rf->last_claim[c].turn,
				      carc_colour_name(c), carc_buf_cstr(&why));
			else
				fault(rf, CARC_E212, cl->span, "claim %s %d, but %s has %d; %s scored: %s",
				      carc_colour_name(c), cl->points, carc_colour_name(c), have, carc_colour_name(c),
				      carc_buf_cstr(&why));
			carc_buf_free(&why);
		}
		rf->last_claim[c] = mark;
	}
}

/* The claims of the move rf->m against the scores. Inlined where turns are
 * walked: a claim on every turn is common (JCloisterZone's exports claim
 * every score on every turn), and what the loop needs is read once; claims
 * are taken one by one, to say which is wrong and why, from the first one
 * that is. */
static inline void check_claims(struct referee *rf)
{
	const struct carc_move *m = rf->m;
	const struct carc_claim *cl = rf->rec->claims + m->claim_first, *end = cl + m->claim_count;
	const int *score = rf->totals->score;
	struct claim_mark mark = {(uint32_t)rf->totals->nevents, rf->turn};
	unsigned seated = rf->seated;
	for (; cl < end; cl++) {
		unsigned c = cl->colour;
		if (c >= CARC_COLOURS || !(seated >> c & 1) || score[c] != cl->points) {
			claims_wrong(rf, cl, end, mark);
			return;
		}
		rf->last_claim[c] = mark;
	}
}

static inline __attribute__((always_inline)) void check_result(struct referee *rf)
{
	const struct carc_record *rec = rf->rec;
	rf->m = NULL;
	for (int i = 0; i < rec->result_count; i++) {
		const struct carc_claim *cl = &rec->claims[rec->result_first + i];
		int c = cl->colour;
		bool seated = false;
		for (int s = 0; s < rec->nseats; s++)
			seated |= rec->seats[s] == c;
		if (!seated) {
			fault(rf, CARC_E213, cl->span, "Result names %s, who does not play in this game", carc_colour_name(c));
			continue;
		}
		int have = carc_game_score(rf->g, c);
		if (have == cl->points)
			continue;
		struct carc_buf why = {0};
		list_events(rf, c, rf->res->final_first_event, &why);
		fault(rf, CARC_E213, cl->span, "Result gives %s %d, but %s has %d: %d during play, %d in final "
		      "scoring (%s)", carc_colour_name(c), cl->points, carc_colour_name(c), have,
		      carc_game_points_from(rf->g, c, CARC_SRC_PLAY_PATH) +
			      carc_game_points_from(rf->g, c, CARC_SRC_PLAY_ENCLOSURE) +
			      carc_game_points_from(rf->g, c, CARC_SRC_PLAY_SITE),
		      carc_game_points_from(rf->g, c, CARC_SRC_END_PATH) +
			      carc_game_points_from(rf->g, c, CARC_SRC_END_ENCLOSURE) +
			      carc_game_points_from(rf->g, c, CARC_SRC_END_SITE) +
			      carc_game_points_from(rf->g, c, CARC_SRC_AREA) +
			      carc_game_points_from(rf->g, c, CARC_SRC_OTHER),
		      carc_buf_cstr(&why));
		carc_buf_free(&why);
	}
}

/* The modules' check_deploy hooks on a figure of the move's colour about
 * to go onto a feature (by root): reports each refusal; true when there
 * was one. */
static bool module_refusal(struct referee *rf, uint32_t root, const struct carc_role *role)
{
	bool refused = false;
	for (int k = 0; k < rf->nmods; k++) {
		if (!hooks(rf, k)->check_deploy)
			continue;
		struct carc_buf why = {0};
		enum carc_code code = hooks(rf, k)->check_deploy(rf->g, root, role, rf->m->colour, &why);
		if (code)
			fault(rf, code, rf->m->deploy_span, "%s", carc_buf_cstr(&why));
		refused |= code != 0;
		carc_buf_free(&why);
	}
	return refused;
}

static void deploy(struct referee *rf, int placement)
{
	const struct carc_move *m = rf->m;
	const struct carc_ruleset *rs = rf->rec->rules;
	const struct carc_role *role = &rs->roles[m->role];
	int f = carc_game_spot_feature(rf->g, placement, m->spot);
	const struct carc_tile *t = &rf->ts->tiles[m->tile];
	if (f == CARC_NO_FEATURE) {
		fault(rf, CARC_E211, m->deploy_span, "%s %s: tile %s has no feature at %s", role->name,
		      carc_spot_name(m->spot), t->id, carc_spot_name(m->spot));
		return;
	}
	int c = m->colour;
	uint32_t root = carc_game_feature_root(rf->g, placement, f);
	/* the modules first: a refusal of theirs names the fault in place of
	 * the checks below (module.h: The River's no follower on the river,
	 * The Abbot's abbot on a road or second abbot) */
	bool named = module_refusal(rf, root, role);
	const char *kind = rf->ts->kinds[t->features[f].kind].name;
	if (strcmp(role->kinds[0], kind) && (!role->kinds[1] || strcmp(role->kinds[1], kind))) {
		if (!named)
			fault(rf, CARC_E210, m->deploy_span, "a %s may not stand there: %s of tile %s is a %s, and a %s may "
			      "stand only on a %s%s%s", role->name, carc_spot_name(m->spot), t->id, kind, role->name,
			      role->kinds[0], role->kinds[1] ? " or " : "", role->kinds[1] ? role->kinds[1] : "");
		return;
	}
	if (carc_game_role_supply(rf->g, c, m->role) <= 0) {
		if (!named)
			fault(rf, CARC_E208, m->deploy_span, "%s has no %s left to deploy", carc_colour_name(c),
			      role->hut ? "hut" : role->own ? role->name : "follower");
		return;
	}
	/* a hut, or a figure that never counts in a majority (weight 0: The
	 * Traders' builder and pig), may join an occupied feature: where it may
	 * is its module's check_deploy's to say */
	const struct carc_follower *occ =
		role->hut || carc_role_weight(role) == 0 ? NULL : carc_game_feature_occupant(rf->g, root);
	if (occ) {
		size_t np;
		const struct carc_placement *pl = carc_game_placements(rf->g, &np);
		struct carc_buf name = {0};
		carc_game_feature_name(rf->g, root, &name);
		fault(rf, CARC_E209, m->deploy_span, "%s on %s, but that %s already holds %s's %s, deployed on turn %d at %d,%d",
		      role->name, carc_buf_cstr(&name), kind, carc_colour_name(occ->colour), rs->roles[occ->role].name,
		      occ->turn, pl[occ->placement].x, pl[occ->placement].y);
		carc_buf_free(&name);
		/* physically possible: applied as recorded */
	}
	carc_game_deploy(rf->g, placement, f, m->spot, c, m->role, rf->turn);
}

/* A new turn record; carc_referee_run has made room for one per move.
 * Without kept turns (no_turns) it is turns[0] every time. */
static inline struct carc_turn *new_turn(struct referee *rf, uint32_t move)
{
	struct carc_result *res = rf->res;
	struct carc_turn *t = &res->turns[res->nturns];
	res->nturns += rf->keep_turns;
	/* every field but the scores, which the turn's end copies */
	t->move = move;
	t->number = 0;
	t->bonus = t->discard = t->illegal = false;
	t->colour = 0;
	t->placement = -1;
	t->first_event = t->nevents = 0;
	return t;
}

/* The feature of tile t turned rot at a spot, or CARC_NO_FEATURE. */
static int tile_spot_feature(const struct carc_tile *t, int rot, int spot)
{
	if (spot <= CARC_SPOT_WNW)
		return carc_tile_half(t, rot, spot);
	if (spot <= CARC_SPOT_W)
		return carc_tile_edge_feature(t, rot, spot - CARC_SPOT_N);
	return spot == CARC_SPOT_C ? t->centre_feature : t->inner_feature;
}

/* The move's tile clashes with a neighbour turned as recorded: the
 * rotations that fit its cell, said in fits ("it fits turned 90 or 270").
 * Of those, the ones where its deployment stands on a feature its role may
 * take, if any do; when that leaves one, the tile is played so (returned,
 * and said: "played so"), so that the turns after it are judged against the
 * tile as it most likely lay; otherwise the recorded rotation. Only on this
 * error's path. */
static int fitting_rotation(struct referee *rf, struct carc_buf *fits)
{
	const struct carc_move *m = rf->m;
	const struct carc_tile *t = &rf->ts->tiles[m->tile];
	const struct carc_role *role = m->role >= 0 ? &rf->rec->rules->roles[m->role] : NULL;
	struct carc_place_problem why;
	int nfit = 0, ndeploy = 0, fit = -1, deploy_fit = -1;
	for (int r = 0; r < 4; r++) {
		if (r == m->rot || carc_game_check_place(rf->g, m->tile, r, m->x, m->y, &why))
			continue;
		carc_buf_printf(fits, "%s%d", nfit ? " or " : "", r * 90);
		nfit++;
		fit = r;
		int f = role ? tile_spot_feature(t, r, m->spot) : CARC_NO_FEATURE;
		if (f != CARC_NO_FEATURE) {
			const char *kind = rf->ts->kinds[t->features[f].kind].name;
			if (!strcmp(role->kinds[0], kind) || (role->kinds[1] && !strcmp(role->kinds[1], kind))) {
				ndeploy++;
				deploy_fit = r;
			}
		}
	}
	struct carc_buf said = {0};
	carc_buf_adds(&said, carc_buf_cstr(fits));
	carc_buf_reset(fits);
	if (!nfit) {
		carc_buf_adds(fits, "it fits no other way round at this cell");
		carc_buf_free(&said);
		return m->rot;
	}
	int take = ndeploy == 1 ? deploy_fit : nfit == 1 && !ndeploy ? fit : -1;
	if (nfit > 1 && ndeploy == 1)
		carc_buf_printf(fits, "it fits turned %s, and only turned %d with the %s at %s: played so",
				carc_buf_cstr(&said), take * 90, role->name, carc_spot_name(m->spot));
	else if (take >= 0)
		carc_buf_printf(fits, "it fits turned %s: played so", carc_buf_cstr(&said));
	else
		carc_buf_printf(fits, "it fits turned %s", carc_buf_cstr(&said));
	carc_buf_free(&said);
	return take >= 0 ? take : m->rot;
}

static void place(struct referee *rf, struct carc_turn *tr)
{
	const struct carc_move *m = rf->m;
	struct carc_place_problem why;
	const struct carc_tile *t = &rf->ts->tiles[m->tile];
	int code = carc_game_check_place(rf->g, m->tile, m->rot, m->x, m->y, &why);
	int rot = m->rot; /* as recorded, or the one rotation that fits */
	static const char *const edge_word[4] = {"north", "east", "south", "west"};
	switch (code) {
	case 0:
		break;
	case CARC_E201: {
		int at = carc_game_at(rf->g, m->x, m->y);
		size_t np;
		const struct carc_placement *pl = carc_game_placements(rf->g, &np);
		if (pl[at].turn)
			fault(rf, CARC_E201, m->coord_span, "cell %d,%d already holds tile %s, placed on turn %d", m->x, m->y,
			      rf->ts->tiles[pl[at].tile].id, pl[at].turn);
		else
			fault(rf, CARC_E201, m->coord_span, "cell %d,%d already holds the start tile", m->x, m->y);
		return; /* not physically possible: skipped */
	}
	case CARC_E202:
		fault(rf, CARC_E202, m->coord_span, "tile %s at %d,%d shares no edge with a placed tile", t->id, m->x, m->y);
		break;
	case CARC_E203: {
		size_t np;
		const struct carc_placement *pl = carc_game_placements(rf->g, &np);
		int n = carc_game_at(rf->g, why.nx, why.ny);
		struct carc_buf fits = {0};
		rot = fitting_rotation(rf, &fits);
		fault(rf, CARC_E203, m->rot_span.len ? (struct carc_span){m->coord_span.off,
			m->rot_span.off + m->rot_span.len - m->coord_span.off} : m->coord_span,
		      "tile %s at %d,%d turned %d: its %s edge is %s but the %s edge of %s (%d,%d) is %s; %s",
		      t->id, m->x, m->y, m->rot * 90, edge_word[why.edge], terrain(rf, why.mine),
		      edge_word[(why.edge + 2) & 3], rf->ts->tiles[pl[n].tile].id, why.nx, why.ny, terrain(rf, why.theirs),
		      carc_buf_cstr(&fits));
		carc_buf_free(&fits);
		break;
	}
	case CARC_E216:
		fault(rf, CARC_E216, m->coord_span, "tile %s at %d,%d lies beyond the %d x %d table", t->id, m->x, m->y,
		      rf->rec->table_w, rf->rec->table_h);
		break;
	default: /* the rule set's check_place: applied as recorded, as a clashing edge is */
		fault(rf, (enum carc_code)code, m->coord_span, "%s", why.rule);
		break;
	}
	tr->placement = carc_game_place(rf->g, m->tile, rot, m->x, m->y, m->colour, rf->turn);
	if (m->role >= 0)
		deploy(rf, tr->placement);
	else if (m->recall >= 0)
		for (int k = 0; k < rf->nmods; k++)
			if (hooks(rf, k)->recall)
				hooks(rf, k)->recall(state(rf, k), m, tr->placement, rf->turn);
}

/* What carc_game_play left undone of the turn (played: what it did): the
 * deployment it refused, with the reason; or the whole move, the draw and a
 * discard or a placement with every check. turn: the turn's count. */
static void play_rest(struct referee *rf, struct carc_turn *tr, int played, int turn)
{
	const struct carc_move *m = rf->m;
	struct carc_game *g = rf->g;
	if (played == CARC_PLAY_PLACED) {
		deploy(rf, tr->placement);
		carc_game_score_completed(g, rf->turn);
		return;
	}
	if (carc_game_tiles_left(g, m->tile) <= 0) {
		const struct carc_tile *t = &rf->ts->tiles[m->tile];
		int drawn = carc_game_tiles_drawn(g, m->tile);
		const char *id = rf->rec->src.text + m->tile_span.off;
		int aside = -1;
		if (rf->rec->twins && !carc_slice_eq(id, m->tile_span.len, t->id))
			carc_tileset_find_twin(rf->ts, id, m->tile_span.len, &aside);
		/* (one message: a tile the box no longer holds was check_twin's) */
		if (aside < 0 || !rf->twin_named || rf->twin_named[aside] <= rf->ts->tiles[aside].count)
			fault(rf, CARC_E204, m->tile_span, "no tile %s is left: the set has %d, %d %s been drawn%s%s%s%s%s%s",
			      t->id, t->count, drawn, drawn == 1 ? "has" : "have",
			      rf->rec->start_tile == m->tile ? " and one is the start tile" : "",
			      aside >= 0 ? " (" : "", aside >= 0 ? rf->ts->tiles[aside].id : "",
			      aside >= 0 ? " plays as " : "", aside >= 0 ? t->id : "",
			      aside >= 0 ? " and counts against its supply)" : "");
	} else {
		carc_game_draw(g, m->tile);
	}
	if (m->discard) {
		int fx, fy, fr;
		if (carc_game_find_fit(g, m->tile, &fx, &fy, &fr))
			fault(rf, CARC_E205, m->coord_span, "tile %s is discarded, but it fits at %d,%d turned %d",
			      rf->ts->tiles[m->tile].id, fx, fy, fr * 90);
	} else {
		place(rf, tr);
		if (rf->score_by >= 0)
			hooks(rf, rf->score_by)->score_turn(state(rf, rf->score_by), m, tr->placement, turn);
		else
			carc_game_score_completed(g, rf->turn);
	}
}

/* The end of every turn: the totals it leaves, the events it scored, the
 * claims on its line. True when it ended the game (the supply is used up,
 * or a module's game_over hook says so). */
static inline bool end_turn(struct referee *rf, struct carc_turn *tr, size_t ev0)
{
	const struct carc_totals *t = rf->totals;
	if (rf->keep_turns) {
		memcpy(tr->scores, t->score, sizeof tr->scores);
		tr->nevents = (uint32_t)(t->nevents - ev0);
	}
	if (rf->m->has_claim)
		check_claims(rf);
	rf->res->last_turn = rf->turn;
	if (t->land_left == 0)
		return true;
	for (int k = 0; k < rf->nmods; k++)
		if (hooks(rf, k)->game_over && hooks(rf, k)->game_over(state(rf, k)))
			return true;
	return false;
}

/* The game's modules that have play hooks, each started (begin), and which
 * of them replaces each step. */
static inline __attribute__((always_inline)) void start_modules(struct referee *rf, const struct carc_record *rec)
{
	struct carc_result *res = rf->res;
	const struct carc_ruleset *all[1 + CARC_MAX_EXPANSIONS];
	int n = carc_rules_of(rec, all);
	rf->nmods = res->nmods = 0;
	rf->seat_by = rf->score_by = rf->final_by = rf->result_by = rf->explain_by = -1;
	rf->flags = carc_rules_flags(rec);
	for (int i = 0; i < n; i++) {
		const struct carc_play_hooks *h = all[i]->play;
		if (!h)
			continue;
		int k = res->nmods++;
		res->mods[k] = all[i];
		if (h->check_record)
			h->check_record(rec, rf->sink);
		res->mod_state[k] = h->begin ? h->begin(&res->mod_cache[all[i]->id], rec, rf->g, module_fault, rf) : NULL;
		rf->seat_by = h->seat ? k : rf->seat_by;
		rf->score_by = h->score_turn ? k : rf->score_by;
		rf->final_by = h->score_final ? k : rf->final_by;
		rf->result_by = h->check_result ? k : rf->result_by;
		rf->explain_by = h->explain ? k : rf->explain_by;
	}
	rf->nmods = res->nmods;
	rf->all_untouched = true;
	rf->nshort = rf->nask = 0;
	for (int k = 0; k < rf->nmods; k++) {
		rf->all_untouched &= hooks(rf, k)->untouched != NULL || hooks(rf, k)->usual_untouched;
		if (hooks(rf, k)->untouched) {
			rf->ask[rf->nask] = hooks(rf, k)->untouched;
			rf->ask_mod[rf->nask] = (int8_t)k;
			rf->ask_state[rf->nask++] = state(rf, k);
		}
		if (hooks(rf, k)->short_turn_end)
			rf->short_by[rf->nshort++] = (int8_t)k;
	}
}

/* Whether every module leaves the usual turn m alone (module.h,
 * untouched, usual_untouched). */
static inline __attribute__((always_inline)) bool untouched(const struct referee *rf, const struct carc_move *m)
{
	for (int k = 0; k < rf->nask; k++)
		if (!rf->ask[k](rf->ask_state[k], m))
			return false;
	return true;
}

/* The rule sets that have bonus turns, for messages: "hunters". */
static const char *bonus_rules(void)
{
	static _Thread_local char names[128];
	size_t at = 0;
	names[0] = 0;
	for (int i = 0; i < carc_ruleset_count(); i++)
		if (carc_ruleset_at(i)->flags & CARC_RS_BONUS_TURNS)
			at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", at ? " or " : "",
					       carc_ruleset_at(i)->name);
	return names;
}

/* Whether the line is a bonus turn, by the modules. */
static bool is_bonus(const struct referee *rf, const struct carc_move *m)
{
	for (int k = 0; k < rf->nmods; k++)
		if (hooks(rf, k)->is_bonus && hooks(rf, k)->is_bonus(state(rf, k), m))
			return true;
	return false;
}

/* A line after the game ended: a module that ended it reports it (true). */
static bool after_end(const struct referee *rf, const struct carc_move *m)
{
	for (int k = 0; k < rf->nmods; k++)
		if (hooks(rf, k)->after_end && hooks(rf, k)->after_end(state(rf, k), m))
			return true;
	return false;
}

static void score_final(struct carc_result *res, int final_by)
{
	if (final_by >= 0)
		res->mods[final_by]->play->score_final(res->mod_state[final_by]);
	else
		carc_game_score_final(res->game);
}

/* The last of the game's modules with the hook, as for every hook that
 * answers for the game alone (module.h): the one the referee calls too
 * (explain_by). */
#define LAST_WITH(res, hook)                                                        \
	for (int k_ = (res)->nmods - 1; k_ >= 0; k_--)                              \
		if ((res)->mods[k_]->play->hook)

bool carc_result_explain(const struct carc_result *res, size_t event, struct carc_buf *out)
{
	LAST_WITH(res, explain) return res->mods[k_]->play->explain(res->mod_state[k_], event, out);
	return false;
}

int carc_result_order_of(const struct carc_result *res, int turn)
{
	LAST_WITH(res, order_of) return res->mods[k_]->play->order_of(res->mod_state[k_], turn);
	return 0;
}

int carc_result_game_result(const struct carc_result *res, uint8_t *who)
{
	LAST_WITH(res, game_result) return res->mods[k_]->play->game_result(res->mod_state[k_], who);
	*who = 0;
	return 0;
}

int carc_result_ended(const struct carc_result *res, bool *forced, int *colour)
{
	LAST_WITH(res, ended) return res->mods[k_]->play->ended(res->mod_state[k_], forced, colour);
	*forced = false;
	*colour = -1;
	return 0;
}

void carc_result_score_final_quiet(struct carc_result *res)
{
	int final_by = -1;
	for (int k = 0; k < res->nmods; k++) {
		const struct carc_play_hooks *h = res->mods[k]->play;
		if (h->quiet)
			h->quiet(res->mod_state[k]); /* its messages would go to a referee that has returned */
		final_by = h->score_final ? k : final_by;
	}
	score_final(res, final_by);
}

/* A result made ready for a new game (res is reused from game to game). */
static void reset_result(struct carc_result *res, const struct carc_record *rec, struct carc_game *g,
			 const struct carc_referee_opts *opt)
{
	res->rec = rec;
	res->game = g;
	res->nturns = 0;
	res->refereed = res->result_only = false;
	res->finished = res->final_scored = false;
	res->final_first_event = 0;
	res->last_turn = 0;
	res->nmods = 0;
	res->edition = opt && opt->edition ? opt->edition : rec->edition;
	memset(res->scores, 0, sizeof res->scores);
	res->errors = rec->syntax_errors;
	res->warnings = rec->read_warnings;
}

/* Where the walk over the turns stands: the seat and turn number next,
 * whether the game is over, and, after a line, whether the walk goes on. */
enum { STEP_ON, STEP_END, STEP_STOPPED };
struct walk {
	int seat, turn;
	bool over;
	bool one_call;               /* carc_game_play may play a turn */
	const int8_t *seat_of_colour; /* the seat of each colour, -1 if it does not play */
};
struct step {
	int seat, turn;
	bool over;
	int next;                    /* STEP_* */
};

/* The turn number of line m, which the count w.turn expects (its seat's
 * colour expect, the line's colour's seat seat_of): reports a number that
 * is neither the count's nor the one the record's numbering, as of its
 * last slip, leads to; then follows the record's numbering. When the
 * number and the colour agree with each other but not with the count (a
 * line missing, or one repeated), that is the one error of the line, and
 * true is returned: the colour is not reported as well. */
static bool check_number(struct referee *rf, const struct carc_move *m, struct walk w, int expect, int seat_of,
			 bool bonus)
{
	if (m->bonus && !(rf->flags & CARC_RS_BONUS_TURNS)) {
		fault(rf, CARC_E207, m->number, "bonus turns (N+) are played only in %s games", bonus_rules());
		return false;
	}
	if (m->turn < 0 || bonus)
		return false;
	int k = m->turn - w.turn;
	if (k == 0 || k == rf->number_offset) {
		rf->number_offset = k;
		return false;
	}
	rf->number_offset = k;
	int n = rf->rec->nseats;
	bool agree = m->colour != expect && (w.seat + k % n + n) % n == seat_of;
	if (!agree) {
		fault(rf, CARC_E207, m->number, "numbered %d, but this is turn %d", m->turn, w.turn);
		return false;
	}
	const struct carc_move *prev = m > rf->rec->moves ? m - 1 : NULL;
	if (k == 1 && prev && prev->discard && !prev->bad && prev->colour == expect)
		fault(rf, CARC_E207, m->number, "numbered %d and %s's, but after a discard the same colour draws again: "
		      "this is still turn %d, %s's", m->turn, carc_colour_name(m->colour), w.turn, carc_colour_name(expect));
	else if (k == 1)
		fault(rf, CARC_E207, m->number, "numbered %d and %s's, but this is turn %d, %s's: is the line of turn %d "
		      "missing?", m->turn, carc_colour_name(m->colour), w.turn, carc_colour_name(expect), w.turn);
	else if (k > 1)
		fault(rf, CARC_E207, m->number, "numbered %d and %s's, but this is turn %d, %s's: are the lines of turns "
		      "%d to %d missing?", m->turn, carc_colour_name(m->colour), w.turn, carc_colour_name(expect), w.turn,
		      m->turn - 1);
	else
		fault(rf, CARC_E207, m->number, "numbered %d and %s's, but this is turn %d, %s's: is the line repeated "
		      "or out of place?", m->turn, carc_colour_name(m->colour), w.turn, carc_colour_name(expect));
	return true;
}

/* A turn that names a tile type set aside, its expansion not played, plays
 * as its twin (carc_tileset_find_twin) and draws from the twin's supply;
 * and the box holds no more tiles of the type itself than its count: one
 * more is E204 (the twin's own supply is play_rest's). */
static void check_twin(struct referee *rf, const struct carc_move *m)
{
	const struct carc_tileset *ts = rf->ts;
	const char *id = rf->rec->src.text + m->tile_span.off;
	int aside;
	if (carc_slice_eq(id, m->tile_span.len, ts->tiles[m->tile].id) ||
	    carc_tileset_find_twin(ts, id, m->tile_span.len, &aside) != m->tile)
		return;
	if (!rf->twin_named)
		rf->twin_named = xcalloc((size_t)(ts->ntiles + ts->nextra), sizeof *rf->twin_named);
	const struct carc_tile *t = &ts->tiles[aside];
	if (++rf->twin_named[aside] > t->count)
		fault(rf, CARC_E204, m->tile_span, "no tile %s is left: the box has %d, and %d %s been drawn (without "
		      "expansion %s, %s plays as %s)", t->id, t->count, t->count, t->count == 1 ? "has" : "have",
		      t->expansion ? ts->expansions[t->expansion - 1] : "?", t->id, ts->tiles[m->tile].id);
}

/* A line by every check (move i): whose turn, its number, the modules'
 * hooks, the draw, the placement and deployment, the scoring. */
static struct step general_turn(struct referee *rf, size_t i, struct walk w, const struct carc_referee_opts *opt)
{
	const struct carc_record *rec = rf->rec;
	struct carc_result *res = rf->res;
	const struct carc_move *m = &rec->moves[i];
	struct step stop = {w.seat, w.turn, w.over, STEP_END};
	if (m->bad) {
		stop.next = STEP_STOPPED; /* syntax error: the rest cannot be trusted */
		return stop;
	}
	rf->m = m;
	rf->turn = w.turn;
	rf->current = NULL;
	/* a bonus turn (N+) takes the number of the turn that earned it */
	bool bonus = rf->nmods && is_bonus(rf, m);
	if (bonus)
		rf->turn = w.turn - 1;
	if (opt && opt->stop_after && res->nturns >= (size_t)opt->stop_after)
		return stop; /* the replay limit: stopped in finish() */
	if (opt && opt->stop_turn && rf->turn > opt->stop_turn)
		return stop; /* the same, by turn number */
	if (w.over && after_end(rf, m))
		return stop; /* after an end a module made (solo's E303), which ended
				the game like the last tile: it is scored as it ended */
	if (w.over) {
		fault(rf, CARC_E215, m->line, "the game ended on turn %d, when the last %s was placed",
		      res->last_turn, carc_rules_tile_word(rec));
		return stop; /* the game itself is over and is scored as it ended */
	}
	struct carc_turn *tr = new_turn(rf, (uint32_t)i);
	rf->current = tr;
	tr->number = (uint16_t)rf->turn;
	tr->colour = m->colour;
	tr->discard = m->discard;
	tr->bonus = m->bonus;
	size_t ev0;
	carc_game_events(rf->g, &ev0);
	tr->first_event = (uint32_t)ev0;

	/* Whose turn? */
	if (rf->seat_by >= 0)
		w.seat = hooks(rf, rf->seat_by)->seat(state(rf, rf->seat_by), w.seat, m->colour);
	int expect = rec->seats[w.seat];
	int seat_of = m->colour < CARC_COLOURS ? w.seat_of_colour[m->colour] : -1;
	if (seat_of < 0) {
		struct carc_buf seats = {0};
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_printf(&seats, "%s%s", s ? " " : "", carc_colour_name(rec->seats[s]));
		fault(rf, CARC_E214, m->colour_span, "%s does not play in this game (Seats: %s)",
		      carc_colour_name(m->colour), carc_buf_cstr(&seats));
		carc_buf_free(&seats);
		res->nturns -= rf->keep_turns;
		rf->current = NULL;
		return (struct step){w.seat, w.turn, w.over, STEP_ON};
	}
	if (!check_number(rf, m, w, expect, seat_of, bonus) && m->colour != expect && !bonus) {
		fault(rf, CARC_E206, m->colour_span, "it is %s's turn, not %s's", carc_colour_name(expect),
		      carc_colour_name(m->colour));
		w.seat = seat_of; /* follow the record from here */
	} else if (m->colour != expect && !bonus) {
		w.seat = seat_of; /* the line's number and colour agree: follow them */
	}
	for (int k = 0; k < rf->nmods; k++)
		if (hooks(rf, k)->turn_begin)
			hooks(rf, k)->turn_begin(state(rf, k), m, bonus, rf->turn);

	/* The draw. */
	if (rec->twins)
		check_twin(rf, m);
	for (int k = 0; k < rf->nmods; k++)
		if (hooks(rf, k)->draw)
			hooks(rf, k)->draw(state(rf, k), m, w.turn);
	/* An ordinary turn is played in one call; the engine hands back
	 * whatever it cannot do without a message. */
	int played = !w.one_call || m->discard
			     ? CARC_PLAY_NONE
			     : carc_game_play(rf->g, m->tile, m->rot, m->x, m->y, m->colour, rf->turn, m->role, m->spot,
					      &tr->placement);
	if (played != CARC_PLAY_DONE)
		play_rest(rf, tr, played, w.turn);
	for (int k = 0; k < rf->nmods; k++)
		if (hooks(rf, k)->turn_end)
			hooks(rf, k)->turn_end(state(rf, k), m, bonus, rf->turn, ev0);
	if (end_turn(rf, tr, ev0))
		w.over = true;
	if (!m->discard && !bonus) {
		if (++w.seat == rec->nseats)
			w.seat = 0;
		w.turn++;
	}
	return (struct step){w.seat, w.turn, w.over, STEP_ON};
}

/* After the turns: whether the game finished, its final scoring, the
 * Result, the warnings on the record as a whole, the totals. */
static inline __attribute__((always_inline)) void finish(struct referee *rf, const struct carc_referee_opts *opt, bool over, bool stopped)
{
	struct carc_result *res = rf->res;
	const struct carc_record *rec = rf->rec;
	struct carc_game *g = rf->g;
	struct carc_diag_sink *sink = rf->sink;
	rf->m = NULL;
	rf->current = NULL;
	/* finished: the supply was used up within the turns replayed, which
	 * with a replay limit means by its last turn */
	res->finished = over && !stopped;
	if (opt && (opt->stop_after || opt->stop_turn))
		stopped = true; /* a position part-way: no final scoring, no verdict on the end */
	size_t nev;
	carc_game_events(rf->g, &nev);
	res->final_first_event = (uint32_t)nev;
	if (!stopped && (over || (opt && opt->final_anyway) || rec->has_result)) {
		score_final(res, rf->final_by);
		res->final_scored = true;
	}
	if (!stopped && !over) {
		struct carc_span at = rec->nmoves ? rec->moves[rec->nmoves - 1].line : (struct carc_span){0, 0};
		carc_diag_report(sink, CARC_W001, &rec->src, at.off, at.len ? at.len : 1,
				 "game %u is unfinished: it stops after turn %d with %d tile%s left in the supply%s",
				 rec->index, res->last_turn, carc_game_supply_left(g),
				 carc_game_supply_left(g) == 1 ? "" : "s",
				 res->final_scored && !(opt && opt->final_anyway)
					 ? "; its Result is compared with a final scoring at this point" : "");
	}
	if (!stopped && rec->has_result && res->final_scored) {
		carc_diag_hold_late(sink, true); /* its messages after the turns' */
		if (rf->result_by >= 0)
			hooks(rf, rf->result_by)->check_result(state(rf, rf->result_by));
		else
			check_result(rf);
		carc_diag_hold_late(sink, false);
	}
	bool any_move = false;
	for (size_t i = 0; i < rec->nmoves && !any_move; i++)
		any_move = !rec->moves[i].bad;
	if (!rec->seats_given && any_move) { /* with no turn to read them from, nothing was inferred */
		struct carc_buf seats = {0};
		for (int s = 0; s < rec->nseats; s++)
			carc_buf_printf(&seats, "%s%s", s ? " " : "", carc_colour_name(rec->seats[s]));
		struct carc_span at = rec->nmoves ? rec->moves[0].line : (struct carc_span){0, 0};
		carc_diag_report(sink, CARC_W002, &rec->src, at.off, at.len ? at.len : 1,
				 "game %u has no Seats tag; the order of play is taken from the turns: [Seats \"%s\"]",
				 rec->index, carc_buf_cstr(&seats));
		carc_buf_free(&seats);
	}
	for (int c = 0; c < CARC_COLOURS; c++)
		res->scores[c] = carc_game_score(g, c);
}

/* The turns of moves from to to (before), in order, from the walk's seat
 * and turn (left in *w): the usual turn (the right colour, numbered right,
 * no discard, no bonus, no syntax error) by the short way while plain and
 * the game goes on, and with modules (mods: rf->all_untouched) only when
 * they all leave it alone; every other by general_turn. Returns STEP_ON
 * when the walk may go on after them, STEP_END when a line ended it (the
 * game was over, or the replay limit), STEP_STOPPED when a syntax error
 * stopped it. carc_referee_run walks all the moves in one call,
 * carc_referee_step one move a call. Inlined, with mods fixed. */
static inline __attribute__((always_inline)) int walk_turns(struct referee *rf, struct walk *w,
							    const struct carc_referee_opts *opt, bool plain,
							    const uint32_t *usual, const int8_t *next_seat, bool mods,
							    size_t from, size_t to)
{
	const struct carc_record *rec = rf->rec;
	struct carc_result *res = rf->res;
	struct carc_game *g = rf->g;
	int seat = w->seat, turn = w->turn;
	bool over = w->over;
	int next = STEP_ON;
	size_t nmoves = to;
	/* plain && !over, and no renumbering (as the loop keeps it below):
	 * from the first move, plain */
	bool fast = plain && !over && !rf->number_offset;
	/* (read once: through rf, each would be read again after every call) */
	const size_t keep_turns = rf->keep_turns;
	const struct carc_totals *totals = rf->totals;
	int fast_last = 0; /* the last turn played the short way and not yet in res->last_turn (0: none) */
	for (size_t i = from; i < nmoves; i++) {
		const struct carc_move *m = &rec->moves[i];
		uint32_t flags;
		memcpy(&flags, &m->bonus, sizeof flags);
		if (fast && flags == usual[seat] && (m->turn < 0 || m->turn == turn) &&
		    (!mods || untouched(rf, m))) {
			/* the usual turn: the right colour, numbered right, no
			 * discard, no bonus, no syntax error; without kept turns,
			 * turns[0] takes only the placement (and whether it was
			 * illegal) */
			struct carc_turn *tr = res->turns;
			if (keep_turns) {
				tr = new_turn(rf, (uint32_t)i);
				tr->number = (uint16_t)turn;
				tr->colour = m->colour;
				tr->first_event = (uint32_t)totals->nevents;
			}
			rf->m = m;
			rf->turn = turn;
			rf->current = tr;
			size_t ev0 = totals->nevents; /* (with modules only: short_turn_end) */
			int played = carc_game_play(g, m->tile, m->rot, m->x, m->y, m->colour, turn, m->role, m->spot,
						    &tr->placement);
			if (played != CARC_PLAY_DONE)
				play_rest(rf, tr, played, turn);
			/* what modules that left the turn alone see of it, as their
			 * turn_end would after a usual turn (module.h) */
			for (int k = 0; mods && k < rf->nshort; k++)
				hooks(rf, rf->short_by[k])->short_turn_end(state(rf, rf->short_by[k]), m, false, turn, ev0);
			/* end_turn, without modules, from locals: end_turn itself
			 * reads them again through rf (its address is taken),
			 * about 14 instructions more a turn */
			if (keep_turns) {
				memcpy(tr->scores, totals->score, sizeof tr->scores);
				tr->nevents = (uint32_t)totals->nevents - tr->first_event;
			}
			if (m->has_claim)
				check_claims(rf);
			fast_last = turn;
			over = totals->land_left == 0;
			fast = !over;
			seat = next_seat[seat];
			turn++;
			continue;
		}
		if (fast_last) { /* the last turn played the short way, for general_turn's messages */
			res->last_turn = fast_last;
			fast_last = 0;
		}
		struct step st = general_turn(rf, i, (struct walk){seat, turn, over, w->one_call, w->seat_of_colour}, opt);
		seat = st.seat, turn = st.turn, over = st.over;
		next = st.next;
		if (st.next != STEP_ON)
			break;
		fast = plain && !over && !rf->number_offset; /* a renumbered record's lines check their numbers there */
	}
	if (fast_last)
		res->last_turn = fast_last;
	w->seat = seat;
	w->turn = turn;
	w->over = over;
	return next;
}

/* A replay between its calls: the referee, the walk, what is fixed for
 * the game. carc_referee_run keeps it on its stack for one call;
 * carc_referee_begin keeps it in the result (res->live), for
 * carc_referee_step and carc_referee_finish. */
struct carc_referee_live {
	struct referee rf;
	struct walk w;
	int8_t seat_of_colour[CARC_COLOURS]; /* the seat of each colour, -1 if it does not play */
	uint32_t usual[CARC_COLOURS];        /* the usual turn's flags and colour, by seat (walk_turns) */
	int8_t next_seat[CARC_COLOURS];      /* the seat after, wrapping every round */
	bool plain;                          /* walk_turns may take the short way */
	bool started;                        /* the game is refereed (live_begin returned true) */
	bool done;                           /* a line ended the walk: no more steps */
	bool stopped;                        /* a syntax error stopped it */
	bool finished;                       /* live_finish was called */
	size_t next_move;                    /* the move the next step referees */
	struct carc_referee_opts opt;
	const struct carc_referee_opts *optp; /* &opt, or NULL when none was given */
	unsigned errors0, warnings0;         /* the sink's counts at the start (one sink: carc_referee_run) */
	unsigned errors, warnings;           /* reported to the sinks so far (a sink a call: the steps) */
};

/* Starts the replay of rec in L (the result res, the engine g): the
 * header's verdict, or the engine and the modules started. False when the
 * game is not refereed (header errors, no tile set, no moves recorded):
 * res is then complete. */
static inline __attribute__((always_inline)) bool live_begin(struct carc_referee_live *L, struct carc_result *res, const struct carc_record *rec,
		       struct carc_game *g, struct carc_diag_sink *sink, const struct carc_referee_opts *opt)
{
	L->rf = (struct referee){.res = res, .rec = rec, .g = g, .sink = sink, .ts = rec->tileset,
				 .totals = carc_game_totals(g), .keep_turns = !(opt && opt->no_turns)};
	L->started = L->done = L->stopped = L->finished = false;
	L->next_move = 0;
	L->opt = opt ? *opt : (struct carc_referee_opts){0};
	L->optp = opt ? &L->opt : NULL;
	unsigned errors0 = sink->errors, warnings0 = sink->warnings;
	reset_result(res, rec, g, opt);
	L->errors = L->warnings = 0;
	L->errors0 = errors0;
	L->warnings0 = warnings0;

	if (rec->header_errors || !rec->tileset) {
		res->errors = rec->syntax_errors + (sink->errors - errors0);
		return false;
	}
	if (carc_record_result_only(rec)) {
		/* the moves were not recorded: nothing to replay; the Result is
		 * the final score, as the players (or the organiser) wrote it */
		res->result_only = true;
		res->finished = true;
		res->final_scored = rec->has_result;
		for (unsigned k = 0; k < rec->result_count && rec->has_result; k++) {
			const struct carc_claim *cl = &rec->claims[rec->result_first + k];
			if (cl->colour < CARC_COLOURS)
				res->scores[cl->colour] = cl->points;
		}
		res->errors = rec->syntax_errors + (sink->errors - errors0);
		return false;
	}
	struct referee *rf = &L->rf;
	res->refereed = true;
	carc_game_start(g, rec->tileset, rec->rules, res->edition, rec->seats, rec->nseats, rec->followers,
			rec->huts, rec->start_tile, rec->start_rot);
	carc_game_set_table(g, rec->table_w, rec->table_h);
	start_modules(rf, rec);

	memset(L->seat_of_colour, -1, sizeof L->seat_of_colour);
	for (int s = 0; s < rec->nseats; s++) {
		L->seat_of_colour[rec->seats[s]] = (int8_t)s;
		rf->seated |= (uint8_t)(1u << rec->seats[s]);
	}
	/* A game whose modules have no play hooks (the base game), or only
	 * modules that say which turns they leave alone (untouched), without a
	 * replay limit, takes the short way (walk_turns) for the turns in order
	 * that they all leave alone; the others go through every check. Both
	 * give the same results. */
	bool one_call = carc_referee_fast_turns && !rf->nmods; /* general_turn: carc_game_play's turn */
	L->plain = carc_referee_fast_turns && (!rf->nmods || rf->all_untouched) &&
		   !(opt && (opt->stop_after || opt->stop_turn)); /* and no twins (check_twin): per walk */
	if (res->turns_cap < rec->nmoves) { /* a turn record per move at most */
		res->turns_cap = rec->nmoves < 128 ? 128 : rec->nmoves;
		res->turns = xrealloc(res->turns, res->turns_cap * sizeof *res->turns);
	}
	/* The usual turn's bonus, discard, bad and colour, read as one word:
	 * none of the flags, and the colour of the seat whose turn it is. */
	_Static_assert(offsetof(struct carc_move, discard) == offsetof(struct carc_move, bonus) + 1 &&
			       offsetof(struct carc_move, bad) == offsetof(struct carc_move, bonus) + 2 &&
			       offsetof(struct carc_move, colour) == offsetof(struct carc_move, bonus) + 3,
		       "a move's flags and colour are one word");
	for (int s = 0; s < CARC_COLOURS; s++) {
		const uint8_t bytes[4] = {0, 0, 0, rec->seats[s]}; /* bonus, discard, bad, colour */
		memcpy(&L->usual[s], bytes, sizeof L->usual[s]);
		L->next_seat[s] = (int8_t)(s + 1 < rec->nseats ? s + 1 : 0);
	}
	L->w = (struct walk){0, 1, false, one_call, L->seat_of_colour};
	L->errors = sink->errors - errors0;
	L->warnings = sink->warnings - warnings0;
	L->started = true;
	return true;
}

/* Walks the moves from to to (before) of the game started in L: see
 * walk_turns. per_call: the call's sink may be one of its own, so its
 * messages are counted (a step); else every call had the one sink, which
 * counts them (carc_referee_run). */
static inline __attribute__((always_inline)) void live_walk(struct carc_referee_live *L, size_t from, size_t to,
							    bool per_call)
{
	struct referee *rf = &L->rf;
	struct carc_diag_sink *sink = rf->sink;
	unsigned errors0 = per_call ? sink->errors : 0, warnings0 = per_call ? sink->warnings : 0;
	bool plain = L->plain && !rf->rec->twins;
	/* two copies of the walk: the one for games with modules asks them
	 * about each usual turn, the base game's asks nothing */
	int next = rf->nmods ? walk_turns(rf, &L->w, L->optp, plain, L->usual, L->next_seat, true, from, to)
			     : walk_turns(rf, &L->w, L->optp, plain, L->usual, L->next_seat, false, from, to);
	rf->m = NULL;
	rf->current = NULL;
	L->next_move = to;
	if (next != STEP_ON) {
		L->done = true;
		L->stopped = next == STEP_STOPPED;
	}
	if (per_call) {
		L->errors += sink->errors - errors0;
		L->warnings += sink->warnings - warnings0;
	}
}

/* The end of the replay started in L: finish(), the totals (per_call: as
 * live_walk). */
static inline __attribute__((always_inline)) void live_finish(struct carc_referee_live *L, bool per_call)
{
	struct referee *rf = &L->rf;
	struct carc_result *res = rf->res;
	struct carc_diag_sink *sink = rf->sink;
	unsigned errors0 = sink->errors, warnings0 = sink->warnings;
	finish(rf, L->optp, L->w.over, L->stopped);
	if (per_call) {
		L->errors += sink->errors - errors0;
		L->warnings += sink->warnings - warnings0;
	} else {
		L->errors = sink->errors - L->errors0;
		L->warnings = sink->warnings - L->warnings0;
	}
	res->errors = rf->rec->syntax_errors + L->errors;
	res->warnings = rf->rec->read_warnings + L->warnings;
	L->finished = true;
	carc_buf_free(&rf->msg);
	free(rf->twin_named);
	rf->twin_named = NULL;
}

void carc_referee_run(struct carc_result *res, const struct carc_record *rec, struct carc_game *g,
		      struct carc_diag_sink *sink, const struct carc_referee_opts *opt)
{
	struct carc_referee_live L;
	if (!live_begin(&L, res, rec, g, sink, opt))
		return;
	live_walk(&L, 0, rec->nmoves, false);
	live_finish(&L, false);
}

void carc_referee_begin(struct carc_result *res, const struct carc_record *rec, struct carc_game *g,
			struct carc_diag_sink *sink, const struct carc_referee_opts *opt)
{
	if (!res->live) {
		res->live = xcalloc(1, sizeof *res->live);
	} else { /* what the last game's walk kept */
		free(res->live->rf.twin_named);
		carc_buf_free(&res->live->rf.msg);
	}
	live_begin(res->live, res, rec, g, sink, opt);
}

int carc_referee_step(struct carc_result *res, size_t move, struct carc_diag_sink *sink)
{
	struct carc_referee_live *L = res->live;
	if (!L || !L->started || L->finished)
		return CARC_STEP_NONE;
	if (L->done)
		return L->stopped ? CARC_STEP_STOPPED : CARC_STEP_ENDED;
	if (move != L->next_move || move >= L->rf.rec->nmoves || (!sink && !L->rf.sink))
		return CARC_STEP_NONE;
	if (sink)
		L->rf.sink = sink;
	if (res->turns_cap <= res->nturns) {
		res->turns_cap = res->turns_cap ? 2 * res->turns_cap : 128;
		res->turns = xrealloc(res->turns, res->turns_cap * sizeof *res->turns);
	}
	live_walk(L, move, move + 1, true);
	for (int c = 0; c < CARC_COLOURS; c++)
		res->scores[c] = carc_game_score(L->rf.g, c);
	res->errors = L->rf.rec->syntax_errors + L->errors;
	res->warnings = L->rf.rec->read_warnings + L->warnings;
	if (L->done)
		return L->stopped ? CARC_STEP_STOPPED : CARC_STEP_ENDED;
	return L->w.over ? CARC_STEP_OVER : CARC_STEP_PLAYED;
}

void carc_referee_finish(struct carc_result *res, struct carc_diag_sink *sink)
{
	struct carc_referee_live *L = res->live;
	if (!L || !L->started || L->finished || (!sink && !L->rf.sink))
		return;
	if (sink)
		L->rf.sink = sink;
	live_finish(L, true);
}

bool carc_referee_clone(struct carc_result *dst, const struct carc_result *src, const struct carc_record *rec,
			struct carc_game *g)
{
	const struct carc_referee_live *from = src->live;
	if (!from || !from->started || from->finished)
		return false;
	for (int k = 0; k < src->nmods; k++)
		if (src->mods[k]->play->begin && !src->mods[k]->play->clone)
			return false;
	if (!dst->live)
		dst->live = xcalloc(1, sizeof *dst->live);
	struct carc_referee_live *L = dst->live;
	free(L->rf.twin_named);
	carc_buf_free(&L->rf.msg);
	/* the result: its values, its turns, and the modules' states */
	struct carc_turn *turns = dst->turns;
	size_t turns_cap = dst->turns_cap;
	void *cache[CARC_MAX_RULESETS];
	memcpy(cache, dst->mod_cache, sizeof cache);
	*dst = *src;
	memcpy(dst->mod_cache, cache, sizeof cache);
	dst->live = L;
	dst->rec = rec;
	dst->game = g;
	if (turns_cap < src->nturns + 1) {
		turns_cap = src->nturns + 1 < 128 ? 128 : 2 * (src->nturns + 1);
		turns = xrealloc(turns, turns_cap * sizeof *turns);
	}
	if (src->nturns)
		memcpy(turns, src->turns, src->nturns * sizeof *turns);
	dst->turns = turns;
	dst->turns_cap = turns_cap;
	/* the walk, bound to the copy: its result, record, engine and itself
	 * (the modules report through it); the sink is the next call's */
	*L = *from;
	struct referee *rf = &L->rf;
	rf->res = dst;
	rf->rec = rec;
	rf->g = g;
	rf->sink = NULL;
	rf->ts = rec->tileset;
	rf->totals = carc_game_totals(g);
	rf->m = NULL;
	rf->current = NULL;
	rf->msg = (struct carc_buf){0};
	rf->twin_named = NULL;
	if (from->rf.twin_named) {
		size_t n = (size_t)(rec->tileset->ntiles + rec->tileset->nextra);
		rf->twin_named = xmalloc(n * sizeof *rf->twin_named);
		memcpy(rf->twin_named, from->rf.twin_named, n * sizeof *rf->twin_named);
	}
	L->w.seat_of_colour = L->seat_of_colour;
	L->optp = from->optp ? &L->opt : NULL;
	for (int k = 0; k < src->nmods; k++) {
		const struct carc_ruleset *rs = src->mods[k];
		dst->mod_state[k] = rs->play->clone ? rs->play->clone(&dst->mod_cache[rs->id], src->mod_state[k], rec, g, rf)
						    : NULL;
	}
	for (int k = 0; k < rf->nask; k++) /* the untouched hooks ask the copy's states */
		rf->ask_state[k] = dst->mod_state[rf->ask_mod[k]];
	return true;
}

void carc_result_free(struct carc_result *res)
{
	free(res->turns);
	if (res->live) {
		free(res->live->rf.twin_named);
		carc_buf_free(&res->live->rf.msg);
		free(res->live);
	}
	for (int i = 0; i < CARC_MAX_RULESETS && i < carc_ruleset_count(); i++) {
		const struct carc_ruleset *rs = carc_ruleset_at(i);
		if (res->mod_cache[i] && rs->play && rs->play->free)
			rs->play->free(res->mod_cache[i]);
	}
	memset(res, 0, sizeof *res);
}

uint8_t carc_result_winners(const struct carc_result *res)
{
	const struct carc_record *rec = res->rec;
	if (rec->winner < CARC_COLOURS) /* the Winner tag: a result decided off the board, or a level score */
		return (uint8_t)(1u << rec->winner);
	int best = -1;
	uint8_t w = 0;
	for (int s = 0; s < rec->nseats; s++) {
		int c = rec->seats[s];
		if (res->scores[c] > best) {
			best = res->scores[c];
			w = 0;
		}
		if (res->scores[c] == best)
			w |= (uint8_t)(1u << c);
	}
	return w;
}
