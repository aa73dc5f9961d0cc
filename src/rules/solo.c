/*
 * solo.c - the official solo variant (its rule book, in Russian, is the authority).
 *
 * The referee calls the hooks of solo.h at the steps of a turn that the
 * variant changes; the engine pays a completed feature through award(),
 * which applies the lowest-on-track rule. Everything else (placement, the
 * deployment's own checks, completion, the value of a feature) is the base
 * game's, in game.c and referee.c.
 *
 * Rulings where the rule book is silent (restated in notation/solo.md):
 * - Stacks. The book splits the 71 tiles into thirds, 24 24 23. With N
 *   colours each stack holds total / N tiles and the first total % N seats
 *   take one more: four colours have 18 18 18 17. The extra tiles go to the
 *   first seats as in the book, and then a game without discards uses up
 *   every stack on the same turn (seat k plays turns k, k + N, ...).
 * - A discarded tile (one that fits nowhere) comes from the colour's stack,
 *   and the colour draws again from it. A colour whose stack is used up
 *   (possible only after discards) is passed over; the game ends when the
 *   last tile of the last stack is placed.
 * - Must-deploy. A free feature is a road, city or cloister of the placed
 *   tile with no follower anywhere on it, including a feature the placement
 *   completed (quick points). A written deployment that is illegal is
 *   reported for what is wrong with it (E208-E211), not a second time here.
 * - Forced end: the tile has a free feature, the colour has no follower in
 *   supply, and none was deployed. The game ends after that turn's scoring.
 * - Order. `order` may name only some of the completed features: those score
 *   first, in that order, and the others after them in the order that earns
 *   the most. A feature that nobody holds pays nobody, so where it comes in
 *   the order does not matter; such features score after the held ones.
 * - The order that earns the most: the most points paid in all; among those,
 *   the one that leaves the last colour highest (that is the game's result);
 *   then the first in play order (the engine's order of completed features:
 *   roads, cities, cloisters; for the end, the followers in the order they
 *   were deployed). When carc chooses and the choice changes the track, it
 *   says so in an E307 note, with the `order` (or EndOrder) that writes it.
 * - EndOrder names followers by where they stand, x,y:SPOT (the parser
 *   reads it). It may be partial, like `order`; an entry that names no
 *   follower, or one already named, is an error.
 * - Result may list every colour's final score (what `carc fmt` and `carc gen`
 *   write) or only some; one that leaves a colour out states the game's
 *   result, so it must name a colour that is last.
 */
#include "rules/solo.h"
#include "rules/module.h"

#include <stdlib.h>
#include <string.h>

struct carc_solo {
	const struct carc_record *rec; /* NULL when carc gen plays the game */
	struct carc_game *g;
	const struct carc_ruleset *rules;
	const struct carc_tileset *ts;
	carc_solo_report_fn report;
	void *report_ctx;

	int nseats;
	uint8_t seats[CARC_COLOURS];
	int seat_of[CARC_COLOURS];   /* -1 when the colour does not play */
	uint8_t seated;
	int start[CARC_COLOURS];     /* by colour */
	int stack[CARC_COLOURS];     /* by seat */
	int drawn[CARC_COLOURS];     /* by colour */

	int last_turn;
	int end_turn;                /* 0 while the game goes on */
	bool forced;
	int forced_colour;
	char forced_what[96];        /* "monk C on tile A at -4,-1" */

	uint8_t *how;                /* enum carc_solo_order, by turn */
	size_t how_cap;
	uint8_t final_how;

	int (*track)[CARC_COLOURS];  /* the track before each event */
	size_t ntrack, track_cap;

	struct carc_buf msg, text;

	/* carc gen: each seat's stack, a slice [next, end) of the shuffled supply */
	size_t gen_next[CARC_COLOURS], gen_end[CARC_COLOURS];
};

static void say(struct carc_solo *s, enum carc_code code, struct carc_span at, const char *fmt, ...)
	CARC_PRINTF(4, 5);

static void say(struct carc_solo *s, enum carc_code code, struct carc_span at, const char *fmt, ...)
{
	carc_buf_reset(&s->msg);
	va_list ap;
	va_start(ap, fmt);
	carc_buf_vprintf(&s->msg, fmt, ap);
	va_end(ap);
	if (s->report)
		s->report(s->report_ctx, code, at, carc_buf_cstr(&s->msg));
}

/* ---- the pieces ---- */

int carc_solo_stack_size(int total, int nseats, int seat)
{
	if (nseats <= 0 || total <= 0)
		return 0;
	return total / nseats + (seat < total % nseats);
}

static int lowest(const int *score, uint8_t seated)
{
	int low = 0;
	bool any = false;
	for (int c = 0; c < CARC_COLOURS; c++)
		if ((seated & (1u << c)) && (!any || score[c] < low)) {
			low = score[c];
			any = true;
		}
	return low;
}

uint8_t carc_solo_paid(const int *score, uint8_t seated, uint8_t winners)
{
	int low = lowest(score, seated);
	for (int c = 0; c < CARC_COLOURS; c++)
		if ((winners & seated & (1u << c)) && score[c] == low)
			return winners;
	return 0;
}

static int popcount8(uint8_t m)
{
	int n = 0;
	for (; m; m &= (uint8_t)(m - 1))
		n++;
	return n;
}

/* The search for the order that earns the most. Only orders in which every
 * item scored before the last paying one pays are tried: an item that pays
 * nothing now changes nothing, so moving it to the end never earns less.
 * The items that pay nothing go last, in their own order. */
struct search {
	const struct carc_solo_item *items;
	int n;
	uint8_t seated;
	int score[CARC_COLOURS];
	bool used[CARC_SOLO_MAX_ITEMS];
	int path[CARC_SOLO_MAX_ITEMS];
	int depth;
	int best[CARC_SOLO_MAX_ITEMS];
	int best_total, best_low;
	bool found;
	long budget;
};

/* True when item i repeats an earlier unused item: trying both would only
 * try the same orders twice. */
static bool repeats_earlier(const struct search *st, int i)
{
	for (int j = 0; j < i; j++)
		if (!st->used[j] && st->items[j].winners == st->items[i].winners && st->items[j].points == st->items[i].points)
			return true;
	return false;
}

static void leaf(struct search *st, int total)
{
	int low = lowest(st->score, st->seated);
	if (st->found && (total < st->best_total || (total == st->best_total && low <= st->best_low)))
		return;
	int d = 0;
	for (; d < st->depth; d++)
		st->best[d] = st->path[d];
	for (int i = 0; i < st->n; i++)
		if (!st->used[i])
			st->best[d++] = i;
	st->best_total = total;
	st->best_low = low;
	st->found = true;
}

static void dfs(struct search *st, int total, int still)
{
	if (st->found && (total + still < st->best_total || st->budget <= 0))
		return;
	st->budget--;
	bool any = false;
	for (int i = 0; i < st->n; i++) {
		const struct carc_solo_item *it = &st->items[i];
		if (st->used[i] || !it->winners || repeats_earlier(st, i))
			continue;
		uint8_t paid = carc_solo_paid(st->score, st->seated, it->winners);
		if (!paid)
			continue;
		any = true;
		st->used[i] = true;
		st->path[st->depth++] = i;
		for (int c = 0; c < CARC_COLOURS; c++)
			if (paid & (1u << c))
				st->score[c] += it->points;
		dfs(st, total + it->points * popcount8(paid), still - it->points * popcount8(it->winners));
		for (int c = 0; c < CARC_COLOURS; c++)
			if (paid & (1u << c))
				st->score[c] -= it->points;
		st->depth--;
		st->used[i] = false;
	}
	if (!any)
		leaf(st, total);
}

/* Plays the items in the given order from score[] (changed in place);
 * returns the points paid. */
static int play(int *score, uint8_t seated, const struct carc_solo_item *items, const int *order, int n)
{
	int total = 0;
	for (int k = 0; k < n; k++) {
		const struct carc_solo_item *it = &items[order[k]];
		uint8_t paid = carc_solo_paid(score, seated, it->winners);
		for (int c = 0; c < CARC_COLOURS; c++)
			if (paid & (1u << c))
				score[c] += it->points;
		total += it->points * popcount8(paid);
	}
	return total;
}

/* Does some order of the unused items end with a track other than want? Tries
 * every distinct order (identical items are not told apart). */
static bool some_order_differs(struct search *st, const int *want, int left)
{
	if (!left) {
		for (int c = 0; c < CARC_COLOURS; c++)
			if ((st->seated & (1u << c)) && st->score[c] != want[c])
				return true;
		return false;
	}
	for (int i = 0; i < st->n; i++) {
		const struct carc_solo_item *it = &st->items[i];
		if (st->used[i] || repeats_earlier(st, i))
			continue;
		uint8_t paid = carc_solo_paid(st->score, st->seated, it->winners);
		st->used[i] = true;
		for (int c = 0; c < CARC_COLOURS; c++)
			if (paid & (1u << c))
				st->score[c] += it->points;
		bool differs = some_order_differs(st, want, left - 1);
		for (int c = 0; c < CARC_COLOURS; c++)
			if (paid & (1u << c))
				st->score[c] -= it->points;
		st->used[i] = false;
		if (differs)
			return true;
	}
	return false;
}

/* How many distinct orders the items have (identical items are not told
 * apart: n! over the factorials of the groups), or more than cap. */
static double distinct_orders(const struct carc_solo_item *items, int n, double cap)
{
	double count = 1;
	for (int k = 0; k < n; k++) {
		int same = 0;
		for (int j = 0; j <= k; j++)
			same += items[j].winners == items[k].winners && items[j].points == items[k].points;
		count = count * (k + 1) / same;
		if (count > cap)
			return cap + 1;
	}
	return count;
}

int carc_solo_best_order(const int *score, uint8_t seated, const struct carc_solo_item *items, int n, int *order,
			 bool *matters)
{
	if (n > CARC_SOLO_MAX_ITEMS)
		n = CARC_SOLO_MAX_ITEMS;
	struct search st = {.items = items, .n = n, .seated = seated, .budget = 200000};
	memcpy(st.score, score, sizeof st.score);
	int still = 0;
	for (int i = 0; i < n; i++)
		still += items[i].points * popcount8(items[i].winners);
	dfs(&st, 0, still);
	memcpy(order, st.best, (size_t)n * sizeof *order);
	if (matters) {
		int want[CARC_COLOURS];
		memcpy(want, score, sizeof want);
		play(want, seated, items, order, n);
		/* the items nobody holds change nothing: leave them out */
		struct carc_solo_item held[CARC_SOLO_MAX_ITEMS];
		int nheld = 0;
		for (int i = 0; i < n; i++)
			if (items[i].winners)
				held[nheld++] = items[i];
		if (distinct_orders(held, nheld, 100000) > 100000) {
			*matters = true;
		} else {
			struct search all = {.items = held, .n = nheld, .seated = seated};
			memcpy(all.score, score, sizeof all.score);
			*matters = some_order_differs(&all, want, nheld);
		}
	}
	return st.best_total;
}

/* ---- state ---- */

static uint8_t award(void *ctx, struct carc_game *g, uint8_t winners, int points)
{
	(void)points;
	struct carc_solo *s = ctx;
	int score[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		score[c] = carc_game_score(g, c);
	return carc_solo_paid(score, s->seated, winners);
}

static void set_how(struct carc_solo *s, int turn, enum carc_solo_order how)
{
	if (turn < 0)
		return;
	if ((size_t)turn >= s->how_cap) {
		size_t cap = s->how_cap ? s->how_cap : 128;
		while (cap <= (size_t)turn)
			cap *= 2;
		s->how = xrealloc(s->how, cap);
		memset(s->how + s->how_cap, 0, cap - s->how_cap);
		s->how_cap = cap;
	}
	s->how[turn] = (uint8_t)how;
}

/* Brings the per-event track up to date with the engine's events. */
static void sync_track(struct carc_solo *s)
{
	size_t n;
	const struct carc_event *ev = carc_game_events(s->g, &n);
	if (n <= s->ntrack)
		return;
	if (n > s->track_cap) {
		s->track_cap = n + 64;
		s->track = xrealloc(s->track, s->track_cap * sizeof *s->track);
	}
	int run[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		run[c] = carc_game_score(s->g, c);
	for (size_t i = n; i-- > s->ntrack;)
		for (int c = 0; c < CARC_COLOURS; c++)
			if (ev[i].winners & (1u << c))
				run[c] -= ev[i].points;
	for (size_t i = s->ntrack; i < n; i++) {
		memcpy(s->track[i], run, sizeof run);
		for (int c = 0; c < CARC_COLOURS; c++)
			if (ev[i].winners & (1u << c))
				run[c] += ev[i].points;
	}
	s->ntrack = n;
}

/* Sets up the state and the engine for a game of seats[] on g. */
static struct carc_solo *begin(struct carc_solo **cache, const struct carc_record *rec, struct carc_game *g,
			       const uint8_t *seats, int nseats, carc_solo_report_fn report, void *ctx)
{
	if (!*cache)
		*cache = xcalloc(1, sizeof **cache);
	struct carc_solo *s = *cache;
	s->rec = rec;
	s->g = g;
	s->rules = carc_game_rules(g);
	s->ts = carc_game_tileset(g);
	s->report = report;
	s->report_ctx = ctx;
	s->nseats = nseats;
	s->seated = 0;
	for (int c = 0; c < CARC_COLOURS; c++) {
		s->seat_of[c] = -1;
		s->start[c] = 0;
		s->drawn[c] = 0;
		s->stack[c] = 0;
	}
	int total = carc_game_supply_left(g);
	for (int i = 0; i < nseats; i++) {
		int c = seats[i];
		s->seats[i] = (uint8_t)c;
		s->seat_of[c] = i;
		s->seated |= (uint8_t)(1u << c);
		s->stack[i] = carc_solo_stack_size(total, nseats, i);
		s->start[c] = CARC_SOLO_START_SCORE + i;
		carc_game_add_points(g, c, s->start[c], CARC_SRC_START);
	}
	s->last_turn = s->end_turn = 0;
	s->forced = false;
	s->forced_colour = -1;
	s->forced_what[0] = 0;
	if (s->how)
		memset(s->how, 0, s->how_cap);
	s->final_how = CARC_SOLO_ORDER_NONE;
	s->ntrack = 0;
	carc_game_set_award(g, award, s);
	return s;
}

struct carc_solo *carc_solo_begin(struct carc_solo **cache, const struct carc_record *rec, struct carc_game *g,
				  carc_solo_report_fn report, void *ctx)
{
	return begin(cache, rec, g, rec->seats, rec->nseats, report, ctx);
}

struct carc_solo *carc_solo_begin_play(struct carc_solo **cache, struct carc_game *g, const uint8_t *seats,
				       int nseats)
{
	return begin(cache, NULL, g, seats, nseats, NULL, NULL);
}

void carc_solo_free(struct carc_solo *s)
{
	if (!s)
		return;
	free(s->how);
	free(s->track);
	carc_buf_free(&s->msg);
	carc_buf_free(&s->text);
	free(s);
}

/* ---- turns ---- */

static const char *ordinal(int n)
{
	return n % 10 == 1 && n % 100 != 11 ? "st" : n % 10 == 2 && n % 100 != 12 ? "nd"
					      : n % 10 == 3 && n % 100 != 13 ? "rd" : "th";
}

int carc_solo_seat(struct carc_solo *s, int seat, int record_colour)
{
	if (s->drawn[s->seats[seat]] < s->stack[seat] || s->seats[seat] == record_colour)
		return seat;
	for (int k = 1; k < s->nseats; k++) {
		int t = (seat + k) % s->nseats;
		if (s->drawn[s->seats[t]] < s->stack[t])
			return t;
	}
	return seat;
}

bool carc_solo_draw(struct carc_solo *s, const struct carc_move *m, int turn)
{
	int c = m->colour;
	int seat = s->seat_of[c];
	s->last_turn = turn;
	if (seat < 0)
		return true;
	s->drawn[c]++;
	if (s->drawn[c] <= s->stack[seat])
		return true;
	int total = 0;
	for (int i = 0; i < s->nseats; i++)
		total += s->stack[i];
	say(s, CARC_E302, m->tile_span, "%s's stack is used up: it held %d of the %d tiles, and this is %s's %d%s draw",
	    carc_colour_name(c), s->stack[seat], total, carc_colour_name(c), s->drawn[c], ordinal(s->drawn[c]));
	return false;
}

/* The spot by which a feature of a placement is written: an edge, C, or a
 * half-edge, the first that lies on it. -1 if none. */
static int spot_of(struct carc_game *g, int placement, uint32_t root)
{
	static const uint8_t pref[CARC_SPOT_COUNT] = {
		CARC_SPOT_N, CARC_SPOT_E, CARC_SPOT_S, CARC_SPOT_W, CARC_SPOT_C,
		CARC_SPOT_NNW, CARC_SPOT_NNE, CARC_SPOT_ENE, CARC_SPOT_ESE,
		CARC_SPOT_SSE, CARC_SPOT_SSW, CARC_SPOT_WSW, CARC_SPOT_WNW, CARC_SPOT_I,
	};
	for (int k = 0; k < CARC_SPOT_COUNT; k++) {
		int f = carc_game_spot_feature(g, placement, pref[k]);
		if (f != CARC_NO_FEATURE && carc_game_feature_root(g, placement, f) == root)
			return pref[k];
	}
	return -1;
}

void carc_solo_order_ref(struct carc_game *g, int placement, uint32_t root, struct carc_buf *out)
{
	int spot = spot_of(g, placement, root);
	if (spot >= 0) {
		carc_buf_adds(out, carc_spot_name(spot));
		return;
	}
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	for (int dy = 1; dy >= -1; dy--)
		for (int dx = -1; dx <= 1; dx++) {
			int q = carc_game_at(g, pl[placement].x + dx, pl[placement].y + dy);
			if (q < 0)
				continue;
			int sp = spot_of(g, q, root);
			if (sp >= 0) {
				carc_buf_printf(out, "%d,%d:%s", pl[q].x, pl[q].y, carc_spot_name(sp));
				return;
			}
		}
	carc_buf_adds(out, "?");
}

static int role_for_kind(const struct carc_solo *s, const char *kind)
{
	const struct carc_ruleset *rs = s->rules;
	for (int r = 0; r < rs->nroles; r++) {
		const struct carc_role *role = &rs->roles[r];
		if (role->hut)
			continue;
		if (!strcmp(role->kinds[0], kind) || (role->kinds[1] && !strcmp(role->kinds[1], kind)))
			return r;
	}
	return -1;
}

/* The free features of a placement (a road, city or cloister with no
 * follower on it): lists them in list ("thief E (the road at ...)") when
 * given, describes the first in first[96] when given, returns how many. */
static int free_features(struct carc_solo *s, int placement, struct carc_buf *list, char *first)
{
	struct carc_game *g = s->g;
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_tile *t = &s->ts->tiles[pl[placement].tile];
	uint32_t seen[CARC_MAX_FEATURES];
	int nseen = 0;
	for (int f = 0; f < t->nfeatures; f++) {
		int role = role_for_kind(s, s->ts->kinds[t->features[f].kind].name);
		if (role < 0)
			continue;
		uint32_t root = carc_game_feature_root(g, placement, f);
		bool dup = false;
		for (int k = 0; k < nseen; k++)
			dup |= seen[k] == root;
		if (dup || carc_game_feature_occupant(g, root))
			continue;
		seen[nseen++] = root;
		int spot = spot_of(g, placement, root);
		const char *spot_name = spot >= 0 ? carc_spot_name(spot) : "?";
		if (list) {
			if (nseen > 1)
				carc_buf_adds(list, ", ");
			carc_buf_printf(list, "%s %s (", s->rules->roles[role].name, spot_name);
			carc_game_feature_name(g, root, list);
			carc_buf_addc(list, ')');
		}
		if (first && nseen == 1)
			snprintf(first, 96, "%s %s on tile %s at %d,%d", s->rules->roles[role].name, spot_name, t->id,
				 pl[placement].x, pl[placement].y);
	}
	return nseen;
}

bool carc_solo_has_free_feature(struct carc_solo *s, int placement)
{
	return free_features(s, placement, NULL, NULL) > 0;
}

/* After the placement: was a follower deployed where one had to be? */
static void check_deploy(struct carc_solo *s, const struct carc_move *m, int placement, int turn)
{
	struct carc_game *g = s->g;
	size_t nf;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	if (nf && fl[nf - 1].turn == turn && fl[nf - 1].placement == placement)
		return; /* one was deployed */
	struct carc_buf *list = &s->text;
	carc_buf_reset(list);
	char first[96] = "";
	if (!free_features(s, placement, list, first))
		return;
	int c = m->colour;
	if (carc_game_supply(g, c) > 0) {
		if (m->role >= 0)
			return; /* the written deployment was illegal, and reported as such */
		say(s, CARC_E301, m->deploy_span.len ? m->deploy_span : m->rot_span,
		    "no follower deployed, but in solo one must be when the tile has a free feature, and %s has %d in "
		    "supply; free: %s", carc_colour_name(c), carc_game_supply(g, c), carc_buf_cstr(list));
		return;
	}
	carc_solo_forced_end_by(s, c, turn);
	memcpy(s->forced_what, first, sizeof first);
}

void carc_solo_forced_end_by(struct carc_solo *s, int colour, int turn)
{
	s->forced = true;
	s->forced_colour = colour;
	s->end_turn = turn;
	s->forced_what[0] = 0;
}

/* "red", "red and green", "red, green and blue" */
static void colour_list(struct carc_buf *out, uint8_t mask, const char *and)
{
	int n = popcount8(mask), k = 0;
	for (int c = 0; c < CARC_COLOURS; c++) {
		if (!(mask & (1u << c)))
			continue;
		if (k)
			carc_buf_adds(out, k == n - 1 ? and : ", ");
		carc_buf_adds(out, carc_colour_name(c));
		k++;
	}
}

static void track_text(const struct carc_solo *s, const int *score, struct carc_buf *out)
{
	for (int i = 0; i < s->nseats; i++)
		carc_buf_printf(out, "%s%s %d", i ? ", " : "", carc_colour_name(s->seats[i]), score[s->seats[i]]);
}

/* Resolves the turn's `order` list to indices into roots[]; returns how
 * many entries were good, writing them to seq[] and marking used[]. */
static int resolve_order(struct carc_solo *s, const struct carc_move *m, int placement, const uint32_t *roots, int n,
			 int *seq, bool *used)
{
	struct carc_game *g = s->g;
	const struct carc_record *rec = s->rec;
	size_t np;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	int nseq = 0;
	for (int k = 0; k < m->order_count; k++) {
		const struct carc_order_item *it = &rec->order[m->order_first + k];
		const char *word = rec->src.text + it->span.off;
		int wl = (int)it->span.len;
		int at = it->has_coord ? carc_game_at(g, it->x, it->y) : placement;
		if (at < 0) {
			say(s, CARC_E305, it->span, "order: %.*s names no tile: %d,%d is empty", wl, word, it->x, it->y);
			continue;
		}
		const struct carc_tile *t = &s->ts->tiles[pl[at].tile];
		int f = carc_game_spot_feature(g, at, it->spot);
		if (f == CARC_NO_FEATURE) {
			say(s, CARC_E305, it->span, "order: %.*s names nothing: tile %s at %d,%d has no feature at %s", wl, word,
			    t->id, pl[at].x, pl[at].y, carc_spot_name(it->spot));
			continue;
		}
		uint32_t root = carc_game_feature_root(g, at, f);
		int i = 0;
		while (i < n && roots[i] != root)
			i++;
		if (i == n) {
			struct carc_buf *name = &s->text;
			carc_buf_reset(name);
			carc_game_feature_name(g, root, name);
			uint8_t klass = s->ts->kinds[t->features[f].kind].klass;
			if (klass == CARC_CLASS_AREA)
				say(s, CARC_E304, it->span, "order: %.*s names %s, a field: fields are never scored in solo", wl, word,
				    carc_buf_cstr(name));
			else if (carc_game_feature_complete(g, root))
				say(s, CARC_E304, it->span, "order: %.*s names %s, which was completed and scored before this turn",
				    wl, word, carc_buf_cstr(name));
			else
				say(s, CARC_E304, it->span, "order: %.*s names %s, which this tile did not complete", wl, word,
				    carc_buf_cstr(name));
			continue;
		}
		if (used[i]) {
			struct carc_buf *name = &s->text;
			carc_buf_reset(name);
			carc_game_feature_name(g, root, name);
			say(s, CARC_E306, it->span, "order: %.*s names %s a second time", wl, word, carc_buf_cstr(name));
			continue;
		}
		used[i] = true;
		seq[nseq++] = i;
	}
	return nseq;
}

/* Scores the features the placement completed, in the recorded order (m,
 * when given) and then the order that earns the most. When two or more of
 * them hold followers and order_out is given, appends " order REF..." (the
 * order used) to it. */
static void score_completed(struct carc_solo *s, const struct carc_move *m, int placement, int turn,
			    struct carc_buf *order_out)
{
	struct carc_game *g = s->g;
	uint32_t roots[CARC_SOLO_MAX_ITEMS];
	int n = carc_game_completed(g, roots, CARC_SOLO_MAX_ITEMS);
	if (n > CARC_SOLO_MAX_ITEMS)
		n = CARC_SOLO_MAX_ITEMS; /* the rest are scored below in play order */
	struct carc_solo_item items[CARC_SOLO_MAX_ITEMS];
	int held = 0;
	for (int i = 0; i < n; i++) {
		items[i].winners = carc_game_majority(g, carc_game_feature_followers(g, roots[i]));
		items[i].points = carc_game_feature_value(g, roots[i]);
		held += items[i].winners != 0;
	}
	int seq[CARC_SOLO_MAX_ITEMS];
	bool used[CARC_SOLO_MAX_ITEMS] = {0};
	bool has_order = m && m->has_order;
	int nseq = has_order ? resolve_order(s, m, placement, roots, n, seq, used) : 0;
	int named_held = 0;
	for (int k = 0; k < nseq; k++)
		named_held += items[seq[k]].winners != 0;

	/* The others, from the track as the named ones leave it. */
	int score[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		score[c] = carc_game_score(g, c);
	play(score, s->seated, items, seq, nseq);
	struct carc_solo_item rest[CARC_SOLO_MAX_ITEMS];
	int rest_index[CARC_SOLO_MAX_ITEMS], nrest = 0;
	for (int i = 0; i < n; i++)
		if (!used[i]) {
			rest_index[nrest] = i;
			rest[nrest++] = items[i];
		}
	int order[CARC_SOLO_MAX_ITEMS];
	bool matters = false;
	carc_solo_best_order(score, s->seated, rest, nrest, order, &matters);
	size_t ev0;
	carc_game_events(g, &ev0);
	for (int k = 0; k < nseq; k++)
		carc_game_score_feature(g, roots[seq[k]], turn);
	for (int k = 0; k < nrest; k++)
		carc_game_score_feature(g, roots[rest_index[order[k]]], turn);
	carc_game_score_completed(g, turn); /* anything beyond CARC_SOLO_MAX_ITEMS */

	enum carc_solo_order how = CARC_SOLO_ORDER_NONE;
	if (held >= 2 && held - named_held >= 2 && matters)
		how = CARC_SOLO_ORDER_CHOSEN;
	else if (held >= 2 && has_order)
		how = CARC_SOLO_ORDER_GIVEN;
	set_how(s, turn, how);
	bool note = how == CARC_SOLO_ORDER_CHOSEN && m;
	if (!note && !(order_out && held >= 2))
		return;

	/* Say which order carc used, and how to write it. */
	size_t ev1;
	const struct carc_event *ev = carc_game_events(g, &ev1);
	struct carc_buf *list = &s->text;
	carc_buf_reset(list);
	struct carc_buf refs = {0};
	int paid = 0, k = 0;
	for (size_t e = ev0; e < ev1; e++) {
		uint8_t holders = ev[e].winners | ev[e].skipped;
		if (!holders)
			continue;
		if (k++) {
			carc_buf_adds(list, ", ");
			carc_buf_addc(&refs, ' ');
		}
		size_t mark = refs.len;
		carc_solo_order_ref(g, placement, ev[e].feature, &refs);
		carc_buf_add(list, refs.data + mark, refs.len - mark);
		carc_buf_adds(list, " (");
		colour_list(list, holders, " and ");
		carc_buf_printf(list, "'s %s, %s)", s->ts->kinds[ev[e].kind].name,
				ev[e].winners ? "paid" : "not paid");
		paid += ev[e].points * popcount8(ev[e].winners);
	}
	if (order_out && held >= 2)
		carc_buf_printf(order_out, " order %s", carc_buf_cstr(&refs));
	if (note && nseq)
		say(s, CARC_E307, m->line, "the order leaves out %d features held by followers, and their order matters: "
		    "carc scored them after the named ones in the order that earns the most (%d points in all this turn): "
		    "%s; to choose yourself, write: order %s", held - named_held, paid, carc_buf_cstr(list),
		    carc_buf_cstr(&refs));
	else if (note)
		say(s, CARC_E307, m->line, "no order is written for the %d features this tile completed, and the order "
		    "matters: carc scored them in the order that earns the most (%d points): %s; to choose yourself, "
		    "write: order %s", held, paid, carc_buf_cstr(list), carc_buf_cstr(&refs));
	carc_buf_free(&refs);
}

void carc_solo_turn(struct carc_solo *s, const struct carc_move *m, int placement, int turn)
{
	s->last_turn = turn;
	set_how(s, turn, CARC_SOLO_ORDER_NONE);
	if (placement >= 0) {
		check_deploy(s, m, placement, turn);
		score_completed(s, m, placement, turn, NULL);
	}
	sync_track(s);
	if (!s->end_turn && carc_game_supply_left(s->g) == 0)
		s->end_turn = turn;
}

void carc_solo_score_best(struct carc_solo *s, int placement, int turn, struct carc_buf *order_out)
{
	s->last_turn = turn;
	set_how(s, turn, CARC_SOLO_ORDER_NONE);
	score_completed(s, NULL, placement, turn, order_out);
	sync_track(s);
	if (!s->end_turn && carc_game_supply_left(s->g) == 0)
		s->end_turn = turn;
}

bool carc_solo_forced_end(const struct carc_solo *s)
{
	return s->forced;
}

bool carc_solo_after_end(struct carc_solo *s, const struct carc_move *m)
{
	if (!s->forced)
		return false;
	say(s, CARC_E303, m->line, "the game ended after turn %d: %s had to deploy a follower (%s) and had none left",
	    s->end_turn, carc_colour_name(s->forced_colour), s->forced_what);
	return true;
}

/* ---- the end ---- */

static void say_final_order(struct carc_solo *s, const struct carc_follower *fl, const struct carc_placement *pl,
			    const int *on_map, const int *seq, size_t ev0, int n, bool has_end_order, bool note,
			    struct carc_buf *endorder_out);

/* The final award: the followers left on the map, in the EndOrder order
 * (from the record, when there is one) and then the order that earns the
 * most. When endorder_out is given, appends the order used to it, as an
 * EndOrder value. */
static void final_award(struct carc_solo *s, struct carc_buf *endorder_out)
{
	struct carc_game *g = s->g;
	if (!s->end_turn)
		s->end_turn = s->last_turn;
	size_t nf, np;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	const struct carc_placement *pl = carc_game_placements(g, &np);
	/* The followers left on the map, in the order they were deployed. */
	size_t cap = nf ? nf : 1;
	int *on_map = xmalloc(cap * sizeof *on_map), *seq = xmalloc(cap * sizeof *seq);
	int *rest_index = xmalloc(cap * sizeof *rest_index), *order = xmalloc(cap * sizeof *order);
	bool *done = xcalloc(cap, sizeof *done);
	struct carc_solo_item *items = xcalloc(cap, sizeof *items);
	int n = 0, nseq = 0;
	for (size_t i = 0; i < nf; i++)
		if (fl[i].active && s->seat_of[fl[i].colour] >= 0)
			on_map[n++] = (int)i;
	const struct carc_record *rec = s->rec;
	bool has_end_order = rec && rec->has_end_order;
	for (int k = 0; has_end_order && k < rec->end_order_count; k++) {
		const struct carc_order_item *it = &rec->order[rec->end_order_first + k];
		const char *word = rec->src.text + it->span.off;
		int wl = (int)it->span.len;
		int q = carc_game_at(g, it->x, it->y);
		if (q < 0) {
			say(s, CARC_E308, it->span, "EndOrder: %.*s names no follower: %d,%d holds no tile", wl, word, it->x,
			    it->y);
			continue;
		}
		int feature = carc_game_spot_feature(g, q, it->spot);
		const struct carc_tile *t = &s->ts->tiles[pl[q].tile];
		if (feature == CARC_NO_FEATURE) {
			say(s, CARC_E308, it->span, "EndOrder: %.*s names no follower: tile %s at %d,%d has no feature at %s",
			    wl, word, t->id, it->x, it->y, carc_spot_name(it->spot));
			continue;
		}
		int i = 0, twice = -1;
		for (; i < n; i++) {
			const struct carc_follower *f = &fl[on_map[i]];
			if (f->placement != q || f->segment - pl[q].seg0 != (uint32_t)feature)
				continue;
			if (!done[i])
				break;
			twice = i;
		}
		if (i == n) {
			struct carc_buf *name = &s->text;
			carc_buf_reset(name);
			carc_game_feature_name(g, carc_game_feature_root(g, q, feature), name);
			if (twice >= 0)
				say(s, CARC_E309, it->span, "EndOrder: %.*s names %s's follower on %s a second time", wl, word,
				    carc_colour_name(fl[on_map[twice]].colour), carc_buf_cstr(name));
			else
				say(s, CARC_E308, it->span, "EndOrder: %.*s names no follower: none stands on %s of tile %s at "
				    "%d,%d (%s)", wl, word, carc_spot_name(it->spot), t->id, it->x, it->y, carc_buf_cstr(name));
			continue;
		}
		done[i] = true;
		seq[nseq++] = i;
	}
	/* The rest: by the order that earns the most, from the track as the named
	 * ones leave it. The first CARC_SOLO_MAX_ITEMS are weighed and any others
	 * follow in the order they were deployed (so many followers left on the
	 * map take a large tile set of one's own). */
	int score[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		score[c] = carc_game_score(g, c);
	for (int i = 0; i < n; i++)
		items[i] = (struct carc_solo_item){(uint8_t)(1u << fl[on_map[i]].colour), CARC_SOLO_FOLLOWER_POINTS};
	play(score, s->seated, items, seq, nseq);
	struct carc_solo_item rest[CARC_SOLO_MAX_ITEMS];
	int nrest = 0;
	for (int i = 0; i < n; i++)
		if (!done[i])
			rest_index[nrest++] = i;
	int weigh = nrest < CARC_SOLO_MAX_ITEMS ? nrest : CARC_SOLO_MAX_ITEMS;
	for (int i = 0; i < weigh; i++)
		rest[i] = items[rest_index[i]];
	bool matters = false;
	carc_solo_best_order(score, s->seated, rest, weigh, order, &matters);
	for (int i = weigh; i < nrest; i++)
		order[i] = i;
	for (int k = 0; k < nrest; k++)
		seq[nseq++] = rest_index[order[k]];

	size_t ev0;
	carc_game_events(g, &ev0);
	for (int k = 0; k < nseq; k++) {
		const struct carc_follower *f = &fl[on_map[seq[k]]];
		int colour = f->colour;
		int now[CARC_COLOURS];
		for (int c = 0; c < CARC_COLOURS; c++)
			now[c] = carc_game_score(g, c);
		uint8_t paid = carc_solo_paid(now, s->seated, (uint8_t)(1u << colour));
		uint32_t root = carc_game_feature_root(g, f->placement, (int)(f->segment - pl[f->placement].seg0));
		struct carc_event *ev = carc_game_add_event(g);
		ev->type = CARC_EV_SOLO_END;
		ev->kind = (uint8_t)carc_game_feature_kind(g, root);
		ev->source = CARC_SRC_OTHER;
		ev->turn = 0;
		ev->feature = root;
		ev->tiles = (uint16_t)carc_game_feature_tiles(g, root);
		ev->points = CARC_SOLO_FOLLOWER_POINTS;
		ev->followers[colour] = 1;
		ev->winners = paid;
		ev->skipped = (uint8_t)((1u << colour) & ~paid);
		if (paid)
			carc_game_add_points(g, colour, CARC_SOLO_FOLLOWER_POINTS, CARC_SRC_OTHER);
	}
	sync_track(s);

	if (n < 2)
		s->final_how = CARC_SOLO_ORDER_NONE;
	else if (nrest >= 2 && matters)
		s->final_how = CARC_SOLO_ORDER_CHOSEN;
	else
		s->final_how = has_end_order ? CARC_SOLO_ORDER_GIVEN : CARC_SOLO_ORDER_NONE;
	bool note = s->final_how == CARC_SOLO_ORDER_CHOSEN && rec;
	if (note || endorder_out)
		say_final_order(s, fl, pl, on_map, seq, ev0, n, has_end_order, note, endorder_out);
	free(on_map);
	free(seq);
	free(rest_index);
	free(order);
	free(done);
	free(items);
}

/* Writes the order of the final award (followers on_map[seq[k]], events from
 * ev0 on) as an EndOrder value to endorder_out, and in an E307 note. */
static void say_final_order(struct carc_solo *s, const struct carc_follower *fl, const struct carc_placement *pl,
			    const int *on_map, const int *seq, size_t ev0, int n, bool has_end_order, bool note,
			    struct carc_buf *endorder_out)
{
	const struct carc_record *rec = s->rec;
	size_t ev1;
	const struct carc_event *ev = carc_game_events(s->g, &ev1);
	struct carc_buf *list = &s->text;
	carc_buf_reset(list);
	struct carc_buf words = {0};
	int points = 0;
	for (size_t e = ev0; e < ev1; e++) {
		const struct carc_follower *f = &fl[on_map[seq[e - ev0]]];
		carc_buf_printf(list, "%s%s %s", e > ev0 ? ", " : "", carc_colour_name(f->colour),
				ev[e].winners ? "+2" : "0");
		carc_buf_printf(&words, "%s%d,%d:%s", e > ev0 ? " " : "", pl[f->placement].x, pl[f->placement].y,
				carc_spot_name(f->spot));
		points += ev[e].winners ? ev[e].points : 0;
	}
	if (endorder_out)
		carc_buf_add(endorder_out, words.data, words.len);
	if (note) {
		struct carc_span at = rec->nmoves ? rec->moves[rec->nmoves - 1].line : (struct carc_span){0, 0};
		say(s, CARC_E307, at, "%s the order of the %d followers left on the map matters: carc awarded %s in the "
		    "order that earns the most (%d points): %s; to choose yourself, write: [EndOrder \"%s\"]",
		    has_end_order ? "EndOrder leaves out some followers, and" : "no EndOrder tag is given, and", n,
		    has_end_order ? "the rest" : "them", points, carc_buf_cstr(list), carc_buf_cstr(&words));
	}
	carc_buf_free(&words);
}

void carc_solo_score_final(struct carc_solo *s)
{
	final_award(s, NULL);
}

void carc_solo_quiet(struct carc_solo *s)
{
	s->report = NULL;
	s->report_ctx = NULL;
}

void carc_solo_final_best(struct carc_solo *s, struct carc_buf *endorder_out)
{
	final_award(s, endorder_out);
}

void carc_solo_check_result(struct carc_solo *s)
{
	const struct carc_record *rec = s->rec;
	struct carc_game *g = s->g;
	uint8_t listed = 0;
	for (int i = 0; i < rec->result_count; i++) {
		const struct carc_claim *cl = &rec->claims[rec->result_first + i];
		int c = cl->colour;
		if (s->seat_of[c] < 0) {
			say(s, CARC_E213, cl->span, "Result names %s, who does not play in this game", carc_colour_name(c));
			continue;
		}
		listed |= (uint8_t)(1u << c);
		int have = carc_game_score(g, c);
		if (have == cl->points)
			continue;
		int play_points = carc_game_points_from(g, c, CARC_SRC_PLAY_PATH) +
				  carc_game_points_from(g, c, CARC_SRC_PLAY_ENCLOSURE) +
				  carc_game_points_from(g, c, CARC_SRC_PLAY_SITE);
		say(s, CARC_E213, cl->span, "Result gives %s %d, but %s has %d: %d at the start, %d during play, %d for "
		    "followers left on the map", carc_colour_name(c), cl->points, carc_colour_name(c), have,
		    carc_game_points_from(g, c, CARC_SRC_START), play_points, carc_game_points_from(g, c, CARC_SRC_OTHER));
	}
	if (!listed || listed == s->seated)
		return;
	uint8_t last;
	int result = carc_solo_result(s, &last);
	if (listed & last)
		return;
	struct carc_buf *b = &s->text;
	carc_buf_reset(b);
	colour_list(b, last, " and ");
	carc_buf_printf(b, " %s last with %d (", popcount8(last) > 1 ? "are" : "is", result);
	int score[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		score[c] = carc_game_score(g, c);
	track_text(s, score, b);
	carc_buf_addc(b, ')');
	struct carc_buf names = {0};
	colour_list(&names, listed, " and ");
	say(s, CARC_E310, rec->result_span, "Result names only %s, but a solo game's result is the score of the colour "
	    "last on the track: %s", carc_buf_cstr(&names), carc_buf_cstr(b));
	carc_buf_free(&names);
}

/* ---- for reports ---- */

int carc_solo_stack(const struct carc_solo *s, int seat)
{
	return seat >= 0 && seat < s->nseats ? s->stack[seat] : 0;
}

int carc_solo_drawn(const struct carc_solo *s, int colour)
{
	return s->drawn[colour];
}

int carc_solo_start_score(const struct carc_solo *s, int colour)
{
	return s->start[colour];
}

const int *carc_solo_track_before(const struct carc_solo *s, size_t event)
{
	return event < s->ntrack ? s->track[event] : NULL;
}

bool carc_solo_explain(const struct carc_solo *s, size_t event, struct carc_buf *out)
{
	size_t n;
	const struct carc_event *ev = carc_game_events(s->g, &n);
	if (event >= n || event >= s->ntrack)
		return false;
	const struct carc_event *e = &ev[event];
	uint8_t holders = e->winners | e->skipped;
	if (!holders) {
		carc_buf_adds(out, "nobody holds it");
		return false;
	}
	const int *before = s->track[event];
	int low = lowest(before, s->seated);
	uint8_t last = 0;
	for (int c = 0; c < CARC_COLOURS; c++)
		if ((holders & (1u << c)) && before[c] == low)
			last |= (uint8_t)(1u << c);
	int nh = popcount8(holders);
	if (nh == 1) {
		colour_list(out, holders, " and ");
		carc_buf_adds(out, last ? " is last: " : " is not last: ");
	} else {
		colour_list(out, holders, " and ");
		carc_buf_adds(out, " hold it, ");
		if (last) {
			colour_list(out, last, " and ");
			carc_buf_adds(out, popcount8(last) > 1 ? " are last: " : " is last: ");
		} else {
			carc_buf_adds(out, nh == 2 ? "neither is last: " : "none of them is last: ");
		}
	}
	track_text(s, before, out);
	return e->skipped != 0;
}

enum carc_solo_order carc_solo_order_of(const struct carc_solo *s, int turn)
{
	if (turn == 0)
		return (enum carc_solo_order)s->final_how;
	return turn > 0 && (size_t)turn < s->how_cap ? (enum carc_solo_order)s->how[turn] : CARC_SOLO_ORDER_NONE;
}

int carc_solo_end(const struct carc_solo *s, bool *forced, int *colour)
{
	if (forced)
		*forced = s->forced;
	if (colour)
		*colour = s->forced ? s->forced_colour : -1;
	return s->end_turn;
}

int carc_solo_result(const struct carc_solo *s, uint8_t *last)
{
	int score[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		score[c] = carc_game_score(s->g, c);
	int low = lowest(score, s->seated);
	if (last) {
		*last = 0;
		for (int c = 0; c < CARC_COLOURS; c++)
			if ((s->seated & (1u << c)) && score[c] == low)
				*last |= (uint8_t)(1u << c);
	}
	return low;
}

/* ---- the module ---- */

static void *ref_begin(void **cache, const struct carc_record *rec, struct carc_game *g, carc_rules_fault_fn fault,
		       void *ctx)
{
	return carc_solo_begin((struct carc_solo **)cache, rec, g, fault, ctx);
}

static void ref_free(void *cache) { carc_solo_free(cache); }

/* The clone hook: the state, its arrays copied, on the copy's engine
 * (whose award is this state's again). */
static void *ref_clone(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g, void *ctx)
{
	const struct carc_solo *from = st;
	struct carc_solo *s = *cache;
	if (!s)
		s = *cache = xcalloc(1, sizeof *s);
	free(s->how);
	free(s->track);
	carc_buf_free(&s->msg);
	carc_buf_free(&s->text);
	*s = *from;
	s->rec = rec;
	s->g = g;
	s->report_ctx = ctx;
	s->how = NULL;
	s->track = NULL;
	if (from->how_cap) {
		s->how = xmalloc(from->how_cap);
		memcpy(s->how, from->how, from->how_cap);
	}
	if (from->track_cap) {
		s->track = xmalloc(from->track_cap * sizeof *s->track);
		memcpy(s->track, from->track, from->ntrack * sizeof *s->track);
	}
	s->msg = (struct carc_buf){0};
	s->text = (struct carc_buf){0};
	carc_game_set_award(g, award, s);
	return s;
}
static int ref_seat(void *st, int seat, int colour) { return carc_solo_seat(st, seat, colour); }
static void ref_draw(void *st, const struct carc_move *m, int count) { carc_solo_draw(st, m, count); }
static bool ref_game_over(const void *st) { return carc_solo_forced_end(st); }
static bool ref_after_end(void *st, const struct carc_move *m) { return carc_solo_after_end(st, m); }
static void ref_score_final(void *st) { carc_solo_score_final(st); }
static void ref_quiet(void *st) { carc_solo_quiet(st); }
static void ref_check_result(void *st) { carc_solo_check_result(st); }

static void ref_score_turn(void *st, const struct carc_move *m, int placement, int count)
{
	carc_solo_turn(st, m, placement, count);
}

/* carc gen: the shuffled supply dealt into one stack per seat, as the
 * referee counts them. */
static void *gen_begin(void **cache, struct carc_game *g, const uint8_t *seats, int nseats, size_t nsupply)
{
	struct carc_solo *s = carc_solo_begin_play((struct carc_solo **)cache, g, seats, nseats);
	size_t at = 0;
	for (int i = 0; i < nseats; i++) {
		s->gen_next[i] = at;
		at += (size_t)carc_solo_stack_size((int)nsupply, nseats, i);
		s->gen_end[i] = at;
	}
	return s;
}

/* The seat draws from its own stack; a seat whose stack is used up is
 * passed over (then *seat changes). */
static size_t gen_draw(void *st, int *seat, size_t drawn)
{
	struct carc_solo *s = st;
	(void)drawn;
	for (int k = 0; k < s->nseats; k++) {
		int i = (*seat + k) % s->nseats;
		if (s->gen_next[i] < s->gen_end[i]) {
			*seat = i;
			return s->gen_next[i]++;
		}
	}
	return 0; /* not reached: the game draws as many tiles as the stacks hold */
}

/* A free feature and no follower left end the game after this turn; the
 * completed features score in the order that earns the most. */
static bool gen_score_turn(void *st, int placement, int colour, int turn, bool deployed, struct carc_buf *line)
{
	struct carc_solo *s = st;
	bool forced = !deployed && carc_game_supply(s->g, colour) <= 0 && carc_solo_has_free_feature(s, placement);
	if (forced)
		carc_solo_forced_end_by(s, colour, turn);
	carc_solo_score_best(s, placement, turn, line);
	return forced;
}

static bool ref_explain(const void *st, size_t event, struct carc_buf *out)
{
	carc_solo_explain(st, event, out);
	return true;
}

static int ref_order_of(const void *st, int turn) { return (int)carc_solo_order_of(st, turn); }
static int ref_game_result(const void *st, uint8_t *who) { return carc_solo_result(st, who); }
static int ref_ended(const void *st, bool *forced, int *colour) { return carc_solo_end(st, forced, colour); }

static void gen_score_final(void *st, struct carc_buf *end_order) { carc_solo_final_best(st, end_order); }

static const struct carc_play_hooks play_hooks = {
	.begin = ref_begin,
	.free = ref_free,
	.clone = ref_clone,
	.seat = ref_seat,
	.draw = ref_draw,
	.score_turn = ref_score_turn,
	.game_over = ref_game_over,
	.after_end = ref_after_end,
	.score_final = ref_score_final,
	.quiet = ref_quiet,
	.check_result = ref_check_result,
	.explain = ref_explain,
	.order_of = ref_order_of,
	.game_result = ref_game_result,
	.ended = ref_ended,
	.gen_begin = gen_begin,
	.gen_draw = gen_draw,
	.gen_must_deploy = true,
	.gen_score_turn = gen_score_turn,
	.gen_score_final = gen_score_final,
};

static const struct carc_rules_words words = {
	.source_names = {[CARC_SRC_OTHER] = "followers left on the map"},
	.event_names = {[CARC_EV_SOLO_END] = "solo-end"},
	.event_prefix = {[CARC_EV_SOLO_END] = "a follower left on "},
	.tile = "tile",
};

const struct carc_ruleset carc_rules_solo = {
	.id = CARC_RULES_SOLO, .name = "solo", .title = "Carcassonne solo variant",
	.flags = CARC_RS_ORDERS | CARC_RS_NO_WINNER | CARC_RS_ANY_END | CARC_RS_START_SCORES,
	.tileset = "base", .followers = 4, .min_followers = 3, .max_followers = 99,
	.min_seats = 3, .max_seats = 4, .default_seats = 3,
	.nroles = 3,
	.roles = {
		{"knight", {"city"}, true, false},
		{"thief", {"road"}, true, false},
		{"monk", {"cloister"}, true, false},
	},
	.play = &play_hooks,
	.words = &words,
};
