/*
 * gen.c - random legal games (see gen.h).
 *
 * A game, turn by turn, as the referee will replay it:
 *   draw     the next tile of the shuffled supply;
 *   place    at one of carc_game_legal_places(), uniformly; none: a discard,
 *            and the same colour draws again under the same turn number;
 *   deploy   with probability deploy_rate, one of the legal (role, feature)
 *            pairs of the placed tile, uniformly, at one of the feature's
 *            spots, uniformly; roles and feature kinds come from the rule set
 *            and the tile set, so nothing here knows "knight" or "city";
 *            or, when nothing is deployed, a figure taken back (a module's
 *            gen_recall: The Abbot's return abbot, now and then);
 *   score    what the placement completed;
 *   claim    with probability claim_rate, every colour's running score.
 * The game ends when the supply is empty; final scoring fills [Result].
 *
 * The PRNG is xoshiro256** (Blackman and Vigna), seeded by splitmix64, both
 * written here from their published descriptions.
 */
#include "import/gen.h"

#include "notation/format.h"
#include "rules/module.h"

#include <stdlib.h>
#include <string.h>

/* ---- PRNG ---- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void carc_rng_seed(struct carc_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t carc_rng_next(struct carc_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint32_t carc_rng_below(struct carc_rng *rng, uint32_t n)
{
	/* Lemire's multiply-and-reject: unbiased, rarely loops. */
	uint64_t m = (uint64_t)(uint32_t)(carc_rng_next(rng) >> 32) * n;
	uint32_t low = (uint32_t)m;
	if (low < n) {
		uint32_t threshold = (uint32_t)-n % n;
		while (low < threshold) {
			m = (uint64_t)(uint32_t)(carc_rng_next(rng) >> 32) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

bool carc_rng_chance(struct carc_rng *rng, double p)
{
	if (p <= 0)
		return false;
	if (p >= 1)
		return true;
	return (double)(carc_rng_next(rng) >> 11) * 0x1.0p-53 < p;
}

/* ---- the generator ---- */


struct carc_gen {
	struct carc_gen_opts opt;
	struct carc_tileset *owned_ts;  /* loaded here, freed here */
	const struct carc_tileset *ts;
	struct carc_game *g;
	struct carc_rng rng;
	uint16_t *supply;               /* land tiles in draw order */
	size_t nsupply;
	int32_t *xs, *ys;
	uint8_t *rots;
	int places_cap;
	uint8_t seats[CARC_COLOURS];
	int nseats;
	carc_gen_turn_fn on_turn;
	void *on_turn_ctx;
	/* The game is written plainly, then parsed and written again by
	 * carc_format_record(), so that it is canonical by construction. */
	struct carc_buf raw, turns;
	struct carc_tileset_cache *cache;
	struct carc_record rec;
	/* the game's modules (the base rule set, then its expansions) with
	 * play hooks, each one's state in a game and kept from game to game
	 * (by rule-set id); for each generator hook that replaces a step, the
	 * module that sets it last (-1: none); and the EndOrder value they may
	 * write */
	int nmods;
	const struct carc_play_hooks *mods[1 + CARC_MAX_EXPANSIONS];
	void *mod_state[1 + CARC_MAX_EXPANSIONS];
	int mod_id[1 + CARC_MAX_EXPANSIONS];
	void *state_cache[CARC_MAX_RULESETS];
	int draw_by, score_by, final_by, bonus_by;
	bool must_deploy, may_draw;
	uint8_t *taken;                 /* supply[i] has been drawn (when a module limits the draw) */
	struct carc_buf end_order;
	/* bonus tiles, when the tile set has them: shuffled, kept in supply
	 * after the land tiles */
	size_t bonus_next, bonus_end;
};

/* The game's modules with play hooks, and which of them replaces each step
 * of the generator: the last that sets the hook, as the referee takes them
 * (module.h). */
static void take_modules(struct carc_gen *gen)
{
	const struct carc_ruleset *all[1 + CARC_MAX_EXPANSIONS];
	int n = 0;
	all[n++] = gen->opt.rules;
	for (int i = 0; i < gen->opt.nexpansions && i < CARC_MAX_EXPANSIONS; i++)
		all[n++] = gen->opt.expansions[i];
	gen->nmods = 0;
	gen->draw_by = gen->score_by = gen->final_by = gen->bonus_by = -1;
	for (int i = 0; i < n; i++) {
		const struct carc_play_hooks *h = all[i]->play;
		if (!h)
			continue;
		int k = gen->nmods++;
		gen->mods[k] = h;
		gen->mod_id[k] = all[i]->id;
		gen->draw_by = h->gen_draw ? k : gen->draw_by;
		gen->score_by = h->gen_score_turn ? k : gen->score_by;
		gen->final_by = h->gen_score_final ? k : gen->final_by;
		gen->bonus_by = h->gen_bonus_due ? k : gen->bonus_by;
		gen->must_deploy |= h->gen_must_deploy;
		gen->may_draw |= h->gen_may_draw != NULL;
	}
}

/* A game with expansions, as a record's Expansions tag makes it
 * (cgn_header.c): the expansions in registry order, each once and each
 * one that may join the rules; the rule set composed of them; the tile set
 * joined from the expansions' own sets and the base set, their tiles in
 * play. False, with *why, when they cannot be played. */
static bool with_expansions(struct carc_gen *gen, const char **why)
{
	struct carc_gen_opts *o = &gen->opt;
	const struct carc_ruleset *sorted[CARC_MAX_EXPANSIONS];
	int n = 0;
	for (int id = 0; id < carc_ruleset_count(); id++) {
		int times = 0;
		for (int i = 0; i < o->nexpansions; i++)
			times += o->expansions[i] == carc_ruleset_at(id);
		if (times > 1) {
			*why = "an expansion is named twice";
			return false;
		}
		if (times && n < CARC_MAX_EXPANSIONS)
			sorted[n++] = carc_ruleset_at(id);
	}
	for (int i = 0; i < o->nexpansions; i++)
		if (!o->expansions[i]->expansion || !carc_ruleset_joins(o->expansions[i], o->rules)) {
			*why = "an expansion does not go with the rule set";
			return false;
		}
	memcpy(o->expansions, sorted, (size_t)n * sizeof *sorted);
	o->nexpansions = n;
	const struct carc_ruleset *game = carc_rules_compose(o->rules, o->expansions, n);
	if (!game) {
		*why = "the expansions bring more roles than a game can hold, or two of them replace the same step of "
		       "the game";
		return false;
	}
	struct carc_diag_sink sink = {0};
	const struct carc_tileset *base =
		o->tileset ? o->tileset : carc_tileset_cache_get(gen->cache, o->rules->tileset, &sink, NULL, 0, 0);
	bool loaded; /* (either way the message below: the sets are bundled ones) */
	bool ok = base && (gen->ts = carc_tileset_cache_expand(gen->cache, base, o->expansions, n, &sink, &loaded));
	carc_diag_free(&sink);
	if (!ok) {
		*why = "the tiles of the expansions and of the rule set's tile set do not make one tile set";
		return false;
	}
	o->rules = game;
	return true;
}

struct carc_gen *carc_gen_new(const struct carc_gen_opts *opts, const char **why)
{
	static const char *ignored;
	if (!why)
		why = &ignored;
	*why = NULL;
	const struct carc_ruleset *rs = opts->rules ? opts->rules : carc_ruleset_default();
	if (rs->expansion) {
		*why = "an expansion is played with a base rule set, not alone";
		return NULL;
	}
	int players = opts->players ? opts->players : rs->default_seats;
	if (players < rs->min_seats || players > rs->max_seats) {
		*why = "the number of players is outside the rule set's range";
		return NULL;
	}
	if (opts->edition < 0 || opts->edition > 3) {
		*why = "the edition is not 1, 2 or 3";
		return NULL;
	}
	struct carc_gen *gen = xcalloc(1, sizeof *gen);
	gen->opt = *opts;
	gen->opt.rules = rs;
	gen->opt.players = players;
	gen->cache = carc_tileset_cache_new();
	if (opts->nexpansions && !with_expansions(gen, why)) {
		carc_tileset_cache_free(gen->cache);
		free(gen);
		return NULL;
	}
	if (!gen->ts)
		gen->ts = opts->tileset;
	if (!gen->ts) {
		struct carc_diag_sink sink = {0};
		gen->owned_ts = carc_tileset_load(rs->tileset, &sink, NULL, 0, 0);
		carc_diag_free(&sink);
		if (!gen->owned_ts) {
			*why = "the rule set's tile set cannot be loaded";
			carc_tileset_cache_free(gen->cache);
			free(gen);
			return NULL;
		}
		gen->ts = gen->owned_ts;
	}
	take_modules(gen);
	gen->g = carc_game_new();
	gen->supply = xmalloc((size_t)(gen->ts->total + gen->ts->bonus_total + 1) * sizeof *gen->supply);
	gen->taken = xmalloc((size_t)(gen->ts->total + gen->ts->bonus_total + 1));
	return gen;
}

void carc_gen_free(struct carc_gen *gen)
{
	if (!gen)
		return;
	carc_game_free(gen->g);
	carc_tileset_free(gen->owned_ts);
	free(gen->supply);
	free(gen->xs);
	free(gen->ys);
	free(gen->rots);
	carc_buf_free(&gen->raw);
	carc_buf_free(&gen->turns);
	carc_record_free(&gen->rec);
	carc_tileset_cache_free(gen->cache);
	for (int i = 0; i < CARC_MAX_RULESETS && i < carc_ruleset_count(); i++) {
		const struct carc_ruleset *rs = carc_ruleset_at(i);
		if (gen->state_cache[i] && rs->play && rs->play->free)
			rs->play->free(gen->state_cache[i]);
	}
	free(gen->taken);
	carc_buf_free(&gen->end_order);
	free(gen);
}

void carc_gen_on_turn(struct carc_gen *gen, carc_gen_turn_fn fn, void *ctx)
{
	gen->on_turn = fn;
	gen->on_turn_ctx = ctx;
}

int carc_gen_seats(const struct carc_gen *gen, uint8_t seats[CARC_COLOURS])
{
	memcpy(seats, gen->seats, (size_t)gen->nseats);
	return gen->nseats;
}

struct carc_game *carc_gen_engine(struct carc_gen *gen)
{
	return gen->g;
}

/* Fisher-Yates over the land tiles (the start tile taken out). */
static void shuffle_supply(struct carc_gen *gen)
{
	const struct carc_tileset *ts = gen->ts;
	gen->nsupply = 0;
	for (int i = 0; i < ts->ntiles; i++) {
		if (ts->tiles[i].bonus)
			continue;
		int n = ts->tiles[i].count - (i == ts->start_tile);
		for (int k = 0; k < n; k++)
			gen->supply[gen->nsupply++] = (uint16_t)i;
	}
	for (size_t i = gen->nsupply; i > 1; i--) {
		size_t j = carc_rng_below(&gen->rng, (uint32_t)i);
		uint16_t t = gen->supply[i - 1];
		gen->supply[i - 1] = gen->supply[j];
		gen->supply[j] = t;
	}
}

/* Chooses the seats: players distinct colours in a random order. */
static void choose_seats(struct carc_gen *gen)
{
	uint8_t all[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		all[c] = (uint8_t)c;
	for (int i = 0; i < gen->opt.players; i++) {
		int j = i + (int)carc_rng_below(&gen->rng, (uint32_t)(CARC_COLOURS - i));
		uint8_t t = all[i];
		all[i] = all[j];
		all[j] = t;
		gen->seats[i] = all[i];
	}
	gen->nseats = gen->opt.players;
}

static bool role_fits(const struct carc_role *role, const char *kind)
{
	for (int k = 0; k < 2; k++)
		if (role->kinds[k] && !strcmp(role->kinds[k], kind))
			return true;
	return false;
}

/* Whether a module's check_deploy hook refuses colour's figure on the
 * feature. */
static bool refused(const struct carc_play_hooks *const *mods, int nmods, struct carc_game *g, uint32_t root,
		    const struct carc_role *role, int colour)
{
	for (int k = 0; k < nmods; k++) {
		if (!mods[k]->check_deploy)
			continue;
		struct carc_buf why = {0};
		enum carc_code code = mods[k]->check_deploy(g, root, role, colour, &why);
		carc_buf_free(&why);
		if (code)
			return true;
	}
	return false;
}

/* Whether every module lets the tile be drawn now (gen_may_draw). */
static bool may_draw(struct carc_gen *gen, int tile)
{
	for (int k = 0; k < gen->nmods; k++)
		if (gen->mods[k]->gen_may_draw && !gen->mods[k]->gen_may_draw(gen->g, tile))
			return false;
	return true;
}

/* The slot of the supply drawn when the draw chose slot i: i itself, or,
 * when a module does not let its tile be drawn now (The River: the river
 * tiles first), the first slot after it (wrapping) not yet drawn whose tile
 * may be, swapped into slot i. The shuffle left every order of the tiles
 * not yet drawn equally likely, so the swap keeps the draw random. */
static size_t draw_slot(struct carc_gen *gen, size_t i)
{
	if (gen->may_draw && !may_draw(gen, gen->supply[i])) {
		for (size_t k = 1; k < gen->nsupply; k++) {
			size_t j = (i + k) % gen->nsupply;
			if (gen->taken[j] || !may_draw(gen, gen->supply[j]))
				continue;
			uint16_t t = gen->supply[i];
			gen->supply[i] = gen->supply[j];
			gen->supply[j] = t;
			break;
		}
	}
	gen->taken[i] = 1;
	return i;
}

int carc_deploy_choices(struct carc_game *g, const struct carc_play_hooks *const *mods, int nmods, int pl, int c,
			struct carc_deploy_choice *out)
{
	const struct carc_ruleset *rs = carc_game_rules(g);
	const struct carc_tileset *ts = carc_game_tileset(g);
	size_t np;
	const struct carc_placement *p = &carc_game_placements(g, &np)[pl];
	const struct carc_tile *t = &ts->tiles[p->tile];
	int n = 0;
	for (int f = 0; f < t->nfeatures; f++) {
		const char *kind = ts->kinds[t->features[f].kind].name;
		uint32_t root = carc_game_feature_root(g, pl, f);
		bool occupied = carc_game_feature_occupant(g, root) != NULL;
		for (int r = 0; r < rs->nroles; r++) {
			const struct carc_role *role = &rs->roles[r];
			if (!role_fits(role, kind))
				continue;
			if (carc_game_role_supply(g, c, r) <= 0 || (!role->hut && occupied))
				continue;
			if (refused(mods, nmods, g, root, role, c))
				continue; /* the rules' own checks (one hut per river system) */
			out[n++] = (struct carc_deploy_choice){(uint8_t)r, (uint8_t)f};
		}
	}
	return n;
}

/* The legal deployments on placement pl for colour c; returns their count. */
static int deploy_choices(struct carc_gen *gen, int pl, int c, struct carc_deploy_choice *out)
{
	return carc_deploy_choices(gen->g, gen->mods, gen->nmods, pl, c, out);
}

static void add_scores(struct carc_gen *gen, struct carc_buf *out)
{
	for (int s = 0; s < gen->nseats; s++)
		carc_buf_printf(out, "%s%s %d", s ? ", " : "", carc_colour_name(gen->seats[s]),
				carc_game_score(gen->g, gen->seats[s]));
}

static void write_header(struct carc_gen *gen, struct carc_buf *out);

/* Shuffles the bonus tiles (Hunters and Gatherers') into supply after the
 * land tiles. */
static void shuffle_bonus(struct carc_gen *gen)
{
	const struct carc_tileset *ts = gen->ts;
	gen->bonus_next = gen->bonus_end = gen->nsupply;
	for (int i = 0; i < ts->ntiles; i++)
		for (int k = 0; ts->tiles[i].bonus && k < ts->tiles[i].count; k++)
			gen->supply[gen->bonus_end++] = (uint16_t)i;
	for (size_t i = gen->bonus_end - gen->bonus_next; i > 1; i--) {
		size_t j = carc_rng_below(&gen->rng, (uint32_t)i);
		uint16_t t = gen->supply[gen->bonus_next + i - 1];
		gen->supply[gen->bonus_next + i - 1] = gen->supply[gen->bonus_next + j];
		gen->supply[gen->bonus_next + j] = t;
	}
}

/* The bonus turn that colour c earned on this turn (gen_bonus_due: in
 * Hunters and Gatherers, a forest with gold), written "N+". Bonus tiles that fit nowhere are set
 * aside until one fits or the stack is empty. */
static void bonus_turn(struct carc_gen *gen, int c, int turn, struct carc_buf *turns)
{
	const struct carc_ruleset *rs = gen->opt.rules;
	while (gen->bonus_next < gen->bonus_end) {
		int tile = gen->supply[gen->bonus_next++];
		carc_game_draw(gen->g, tile);
		int n = carc_game_legal_places(gen->g, tile, gen->xs, gen->ys, gen->rots, gen->places_cap);
		carc_buf_printf(turns, "%d+ %s %s ", turn, carc_colour_name(c), gen->ts->tiles[tile].id);
		if (n == 0) {
			carc_buf_adds(turns, "discard\n");
			if (gen->on_turn)
				gen->on_turn(gen->on_turn_ctx, gen->g, turn, c, true);
			continue;
		}
		if (n > gen->places_cap)
			n = gen->places_cap;
		int k = (int)carc_rng_below(&gen->rng, (uint32_t)n);
		int pl = carc_game_place(gen->g, tile, gen->rots[k], gen->xs[k], gen->ys[k], c, turn);
		carc_buf_printf(turns, "%d,%d %d", gen->xs[k], gen->ys[k], gen->rots[k] * 90);
		struct carc_deploy_choice choices[CARC_MAX_FEATURES * CARC_MAX_ROLES];
		int nc = deploy_choices(gen, pl, c, choices);
		if (nc && carc_rng_chance(&gen->rng, gen->opt.deploy_rate)) {
			struct carc_deploy_choice ch = choices[carc_rng_below(&gen->rng, (uint32_t)nc)];
			uint8_t spots[CARC_SPOT_COUNT];
			int ns = 0;
			for (int s = 0; s < CARC_SPOT_COUNT; s++)
				if (carc_game_spot_feature(gen->g, pl, s) == ch.feature)
					spots[ns++] = (uint8_t)s;
			if (ns) {
				int spot = spots[carc_rng_below(&gen->rng, (uint32_t)ns)];
				carc_game_deploy(gen->g, pl, ch.feature, spot, c, ch.role, turn);
				carc_buf_printf(turns, " %s %s", rs->roles[ch.role].name, carc_spot_name(spot));
			}
		}
		carc_game_score_completed(gen->g, turn);
		if (carc_rng_chance(&gen->rng, gen->opt.claim_rate)) {
			carc_buf_adds(turns, " = ");
			add_scores(gen, turns);
		}
		carc_buf_addc(turns, '\n');
		if (gen->on_turn)
			gen->on_turn(gen->on_turn_ctx, gen->g, turn, c, false);
		return;
	}
}

void carc_gen_game(struct carc_gen *gen, uint64_t index, struct carc_buf *out)
{
	const struct carc_tileset *ts = gen->ts;
	const struct carc_ruleset *rs = gen->opt.rules;
	carc_rng_seed(&gen->rng, gen->opt.seed ^ (index * 0xd1342543de82ef95u + 0x2545f4914f6cdd1du));
	choose_seats(gen);
	shuffle_supply(gen);
	if (ts->bonus_total)
		shuffle_bonus(gen);
	carc_game_start(gen->g, ts, rs, gen->opt.edition ? gen->opt.edition : 3, gen->seats, gen->nseats,
			rs->followers, rs->huts, ts->start_tile, 0);
	for (int k = 0; k < gen->nmods; k++) {
		const struct carc_play_hooks *h = gen->mods[k];
		gen->mod_state[k] = h->gen_begin ? h->gen_begin(&gen->state_cache[gen->mod_id[k]], gen->g, gen->seats, gen->nseats,
								  gen->nsupply)
						 : NULL;
	}
	memset(gen->taken, 0, gen->nsupply);

	/* The turns go to a buffer of their own: the Result tag comes first. */
	struct carc_buf turns = gen->turns;
	carc_buf_reset(&turns);
	int seat = 0, turn = 1;
	for (size_t drawn = 0; drawn < gen->nsupply; drawn++) {
		size_t i = gen->draw_by >= 0 ? gen->mods[gen->draw_by]->gen_draw(gen->mod_state[gen->draw_by], &seat, drawn)
					     : drawn;
		int tile = gen->supply[draw_slot(gen, i)];
		int c = gen->seats[seat];
		carc_game_draw(gen->g, tile);
		size_t np;
		carc_game_placements(gen->g, &np);
		int cap = ((int)np * 4 + 4) * 4;
		if (cap > gen->places_cap) {
			gen->places_cap = cap;
			gen->xs = xrealloc(gen->xs, (size_t)cap * sizeof *gen->xs);
			gen->ys = xrealloc(gen->ys, (size_t)cap * sizeof *gen->ys);
			gen->rots = xrealloc(gen->rots, (size_t)cap * sizeof *gen->rots);
		}
		int n = carc_game_legal_places(gen->g, tile, gen->xs, gen->ys, gen->rots, cap);
		carc_buf_printf(&turns, "%d. %s %s ", turn, carc_colour_name(c), ts->tiles[tile].id);
		if (n == 0) {
			carc_buf_adds(&turns, "discard\n");
			if (gen->on_turn)
				gen->on_turn(gen->on_turn_ctx, gen->g, turn, c, true);
			continue;
		}
		if (n > cap)
			n = cap;
		int k = (int)carc_rng_below(&gen->rng, (uint32_t)n);
		size_t ev0;
		carc_game_events(gen->g, &ev0);
		int pl = carc_game_place(gen->g, tile, gen->rots[k], gen->xs[k], gen->ys[k], c, turn);
		carc_buf_printf(&turns, "%d,%d %d", gen->xs[k], gen->ys[k], gen->rots[k] * 90);

		struct carc_deploy_choice choices[CARC_MAX_FEATURES * CARC_MAX_ROLES];
		int nc = deploy_choices(gen, pl, c, choices);
		/* a follower must be deployed when one can be (solo) */
		bool deployed = false;
		if (nc && (gen->must_deploy || carc_rng_chance(&gen->rng, gen->opt.deploy_rate))) {
			struct carc_deploy_choice ch = choices[carc_rng_below(&gen->rng, (uint32_t)nc)];
			uint8_t spots[CARC_SPOT_COUNT];
			int ns = 0;
			for (int s = 0; s < CARC_SPOT_COUNT; s++)
				if (carc_game_spot_feature(gen->g, pl, s) == ch.feature)
					spots[ns++] = (uint8_t)s;
			/* Every feature lies at some spot (the tile-set loader checks coverage). */
			if (ns) {
				int spot = spots[carc_rng_below(&gen->rng, (uint32_t)ns)];
				carc_game_deploy(gen->g, pl, ch.feature, spot, c, ch.role, turn);
				carc_buf_printf(&turns, " %s %s", rs->roles[ch.role].name, carc_spot_name(spot));
				deployed = true;
			}
		}
		/* or a figure taken back instead (The Abbot's return abbot) */
		for (int m = 0; m < gen->nmods && !deployed; m++)
			if (gen->mods[m]->gen_recall &&
			    gen->mods[m]->gen_recall(gen->g, c, turn, carc_rng_next(&gen->rng), &turns))
				break;
		/* the rules may score the turn their own way, and end the game
		 * after it (solo: a free feature and no follower left) */
		bool ends = false;
		if (gen->score_by >= 0)
			ends = gen->mods[gen->score_by]->gen_score_turn(gen->mod_state[gen->score_by], pl, c, turn, deployed,
									&turns);
		else
			carc_game_score_completed(gen->g, turn);
		if (carc_rng_chance(&gen->rng, gen->opt.claim_rate)) {
			carc_buf_adds(&turns, " = ");
			add_scores(gen, &turns);
		}
		carc_buf_addc(&turns, '\n');
		if (gen->on_turn)
			gen->on_turn(gen->on_turn_ctx, gen->g, turn, c, false);
		/* a bonus turn (a forest with gold), unless this was the last land tile */
		if (gen->bonus_by >= 0 && drawn + 1 < gen->nsupply && gen->mods[gen->bonus_by]->gen_bonus_due(gen->g, ev0))
			bonus_turn(gen, c, turn, &turns);
		seat = (seat + 1) % gen->nseats;
		turn++;
		if (ends)
			break;
	}
	carc_buf_reset(&gen->end_order);
	if (gen->final_by >= 0)
		gen->mods[gen->final_by]->gen_score_final(gen->mod_state[gen->final_by], &gen->end_order);
	else
		carc_game_score_final(gen->g);

	struct carc_buf *raw = &gen->raw;
	carc_buf_reset(raw);
	write_header(gen, raw);
	carc_buf_add(raw, turns.data, turns.len);
	gen->turns = turns;

	struct carc_diag_sink sink = {0};
	bool got = carc_parse_string(raw->data, raw->len, "carc gen", gen->cache, &gen->rec, &sink);
	if (got && !sink.errors)
		carc_format_record(&gen->rec, out);
	else
		carc_buf_add(out, raw->data, raw->len); /* cannot happen; carc check will say what is wrong */
	carc_diag_free(&sink);
}

static void write_header(struct carc_gen *gen, struct carc_buf *out)
{
	const struct carc_ruleset *rs = gen->opt.rules;
	carc_buf_adds(out, "[Event \"carc gen\"]\n");
	carc_buf_printf(out, "[Rules \"%s\"]\n", rs->name);
	if (gen->opt.nexpansions) {
		carc_buf_adds(out, "[Expansions \"");
		for (int i = 0; i < gen->opt.nexpansions; i++)
			carc_buf_printf(out, "%s%s", i ? " " : "", gen->opt.expansions[i]->name);
		carc_buf_adds(out, "\"]\n");
	}
	/* the tile set the rules (and their expansions) take by default is
	 * not named */
	const struct carc_tileset *own = gen->opt.tileset ? gen->opt.tileset : gen->opt.nexpansions ? NULL : gen->ts;
	if (own && own->name && strcmp(own->name, rs->tileset))
		carc_buf_printf(out, "[Tileset \"%s\"]\n", own->name);
	if (gen->opt.edition)
		carc_buf_printf(out, "[Edition \"%d\"]\n", gen->opt.edition);
	carc_buf_adds(out, "[Seats \"");
	for (int s = 0; s < gen->nseats; s++)
		carc_buf_printf(out, "%s%s", s ? " " : "", carc_colour_name(gen->seats[s]));
	carc_buf_adds(out, "\"]\n");
	if (gen->end_order.len)
		carc_buf_printf(out, "[EndOrder \"%.*s\"]\n", (int)gen->end_order.len, gen->end_order.data);
	carc_buf_adds(out, "[Result \"");
	add_scores(gen, out);
	carc_buf_adds(out, "\"]\n\n");
}
