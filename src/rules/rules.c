/*
 * rules.c - the registry of rule-set modules, and the lookups through a
 * game's modules (module.h).
 *
 * Adding a rule set: its module file under src/rules/ defines its table,
 * and one line here lists it. Nothing else changes.
 */
#include "rules/module.h"
#include "notation/ruleset.h"

#include "common/util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The modules' tables (base.c, solo.c, hunters.c; the expansions river.c,
 * abbot.c). */
extern const struct carc_ruleset carc_rules_base, carc_rules_solo, carc_rules_hunters, carc_rules_river,
	carc_rules_abbot;
extern const struct carc_ruleset carc_rules_inns;
extern const struct carc_ruleset carc_rules_traders; /* traders.c */

static const struct carc_ruleset *const registry[] = {
	[CARC_RULES_BASE] = &carc_rules_base,
	[CARC_RULES_SOLO] = &carc_rules_solo,
	[CARC_RULES_HUNTERS] = &carc_rules_hunters,
	[CARC_RULES_RIVER] = &carc_rules_river,
	[CARC_RULES_ABBOT] = &carc_rules_abbot,
	[CARC_RULES_INNS] = &carc_rules_inns,
	[CARC_RULES_TRADERS] = &carc_rules_traders,
};
_Static_assert(sizeof registry / sizeof *registry == CARC_RULES_COUNT && CARC_RULES_COUNT <= CARC_MAX_RULESETS,
	       "every rule set is in the registry, in id order");

int carc_ruleset_count(void) { return CARC_RULES_COUNT; }

const struct carc_ruleset *carc_ruleset_at(int index) { return registry[index]; }

const struct carc_ruleset *carc_ruleset_default(void) { return &carc_rules_base; }

const struct carc_ruleset *carc_ruleset_get(enum carc_ruleset_id id) { return registry[id]; }

/* The registry as a reader sees it (notation/ruleset.h). */
static const struct carc_rulesets view = {
	.sets = registry,
	.count = CARC_RULES_COUNT,
	.default_rules = &carc_rules_base,
	.compose = carc_rules_compose,
	.conflict = carc_rules_conflict,
};

const struct carc_rulesets *carc_rules_registry(void) { return &view; }

const struct carc_ruleset *carc_ruleset_find(const char *name, size_t len)
{
	return carc_rulesets_find(&view, name, len);
}

/* The lists are made once, before any thread reads them. */
static pthread_once_t names_once = PTHREAD_ONCE_INIT;
static char base_names[256], expansion_names[256];

static void make_names(void)
{
	carc_rulesets_names(&view, false, base_names, sizeof base_names);
	carc_rulesets_names(&view, true, expansion_names, sizeof expansion_names);
}

const char *carc_ruleset_names(void)
{
	pthread_once(&names_once, make_names);
	return base_names;
}

const char *carc_ruleset_expansion_names(void)
{
	pthread_once(&names_once, make_names);
	return expansion_names;
}

int carc_rules_read_expansions(const struct carc_ruleset *base, const char *words, size_t len,
			       const struct carc_ruleset **out, int *names, carc_expansion_fault_fn fault, void *ctx)
{
	return carc_rulesets_read_expansions(&view, base, words, len, out, names, fault, ctx);
}

/* ---- composed rule sets ---- */

/* A base rule set with expansions: one per combination, kept for the
 * process. A combination is the base's id and a bit per expansion id. */
struct composed {
	unsigned key;
	struct carc_ruleset rs;
	struct carc_engine_hooks engine;
};

static pthread_mutex_t composed_lock = PTHREAD_MUTEX_INITIALIZER;
/* room for every combination: a few base rule sets times the subsets of a
 * few expansions (carc_rules_compose returns NULL past it) */
static struct composed *composed[64];
static int ncomposed;

/* The engine hooks, field by field, the last module that sets one: the
 * composed table shows them (one module's, or one of several); the engine
 * itself combines every module's (engines[], engine/game.h). */
static void merge_engine(struct carc_engine_hooks *to, const struct carc_engine_hooks *from)
{
	if (!from)
		return;
	if (from->feature_value)
		to->feature_value = from->feature_value;
	if (from->score_event)
		to->score_event = from->score_event;
	if (from->closed_complete) {
		to->closed_complete = from->closed_complete;
		to->closed_classes = from->closed_classes;
		to->closed_final = from->closed_final;
	}
	if (from->score_final)
		to->score_final = from->score_final;
	if (from->check_place) {
		to->check_place = from->check_place;
		to->checks_tile = from->checks_tile;
	}
}

/* The hooks that replace a step of the game rather than add to it: two
 * modules of one game may not both set one (module.h). */
#define REPLACING(X)                                                                                       \
	X(play, seat) X(play, score_turn) X(play, score_final) X(play, check_result) X(play, explain)      \
	X(play, order_of) X(play, game_result) X(play, ended) X(play, gen_draw) X(play, gen_score_turn)    \
	X(play, gen_score_final) X(play, gen_bonus_due) X(engine, score_final)

bool carc_rules_conflict(const struct carc_ruleset *const *mods, int n, char *why, size_t size)
{
#define CHECK(part, hook)                                                                                 \
	{                                                                                                 \
		const struct carc_ruleset *by = NULL;                                                     \
		for (int i = 0; i < n; i++) {                                                             \
			if (!mods[i]->part || !mods[i]->part->hook)                                       \
				continue;                                                                 \
			if (by) {                                                                         \
				snprintf(why, size, "%s and %s both replace the %s step (%s hook %s): they " \
					 "cannot be played together", by->name, mods[i]->name,            \
					 #hook, #part, #hook);                                            \
				return true;                                                              \
			}                                                                                 \
			by = mods[i];                                                                     \
		}                                                                                         \
	}
	REPLACING(CHECK)
#undef CHECK
	if (size)
		why[0] = '\0';
	return false;
}

static struct composed *compose(unsigned key, const struct carc_ruleset *base,
				const struct carc_ruleset *const *expansions, int n)
{
	const struct carc_ruleset *mods[1 + CARC_MAX_EXPANSIONS];
	char why[256];
	mods[0] = base;
	memcpy(mods + 1, expansions, (size_t)n * sizeof *mods);
	if (carc_rules_conflict(mods, 1 + n, why, sizeof why))
		return NULL; /* refused: see carc_rules_conflict */
	struct composed *c = xcalloc(1, sizeof *c);
	c->key = key;
	c->rs = *base;
	merge_engine(&c->engine, base->engine);
	c->rs.nengines = 0;
	for (int i = 0; i < 1 + n; i++)
		if (mods[i]->engine)
			c->rs.engines[c->rs.nengines++] = mods[i]->engine;
	for (int i = 0; i < n; i++) {
		const struct carc_ruleset *x = expansions[i];
		if (c->rs.nroles + x->nroles > CARC_MAX_ROLES) {
			free(c);
			return NULL;
		}
		memcpy(&c->rs.roles[c->rs.nroles], x->roles, (size_t)x->nroles * sizeof *x->roles);
		c->rs.nroles += x->nroles;
		c->rs.flags |= x->flags;
		if (x->huts)
			c->rs.huts = x->huts;
		merge_engine(&c->engine, x->engine);
	}
	c->rs.engine = &c->engine;
	return c;
}

const struct carc_ruleset *carc_rules_compose(const struct carc_ruleset *base,
					      const struct carc_ruleset *const *expansions, int n)
{
	if (n == 0)
		return base;
	unsigned key = (unsigned)base->id;
	for (int i = 0; i < n; i++)
		key |= 1u << (8 + expansions[i]->id);
	const struct carc_ruleset *found = NULL;
	pthread_mutex_lock(&composed_lock);
	for (int i = 0; i < ncomposed && !found; i++)
		if (composed[i]->key == key)
			found = &composed[i]->rs;
	if (!found && ncomposed < (int)(sizeof composed / sizeof *composed)) {
		struct composed *c = compose(key, base, expansions, n);
		if (c) {
			composed[ncomposed++] = c;
			found = &c->rs;
		}
	}
	pthread_mutex_unlock(&composed_lock);
	return found;
}

const struct carc_ruleset *carc_ruleset_expansion_with_role(const char *name, size_t len)
{
	return carc_rulesets_expansion_with_role(&view, name, len);
}

/* ---- a game's modules ---- */

void *carc_rules_begin_plain(void **cache, const struct carc_record *rec, struct carc_game *g,
			     carc_rules_fault_fn fault, void *ctx)
{
	(void)rec;
	if (!*cache)
		*cache = xcalloc(1, sizeof(struct carc_rules_plain));
	struct carc_rules_plain *s = *cache;
	*s = (struct carc_rules_plain){g, fault, ctx};
	return s;
}


void *carc_rules_clone_plain(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g,
			     void *ctx)
{
	const struct carc_rules_plain *from = st;
	return carc_rules_begin_plain(cache, rec, g, from->fault, ctx);
}

int carc_rules_of(const struct carc_record *rec, const struct carc_ruleset **out)
{
	int n = 0;
	out[n++] = rec->rules;
	for (int i = 0; i < rec->nexpansions && i < CARC_MAX_EXPANSIONS; i++)
		out[n++] = rec->expansions[i];
	return n;
}

unsigned carc_rules_flags(const struct carc_record *rec)
{
	unsigned f = rec->rules->flags;
	for (int i = 0; i < rec->nexpansions; i++)
		f |= rec->expansions[i]->flags;
	return f;
}

/* The last of the game's modules whose words give a non-NULL entry: the
 * base rule set's words stand unless an expansion names it again. */
#define LAST_WORD(rec, expr)                                                               \
	do {                                                                               \
		const struct carc_ruleset *mods_[1 + CARC_MAX_EXPANSIONS];                 \
		for (int k_ = carc_rules_of(rec, mods_) - 1; k_ >= 0; k_--) {              \
			const struct carc_rules_words *w = mods_[k_]->words;               \
			if (expr)                                                          \
				return expr;                                               \
		}                                                                          \
	} while (0)

const char *carc_rules_event_name(const struct carc_record *rec, int kind)
{
	if (kind < 0 || kind >= CARC_EV_KINDS)
		return "?";
	LAST_WORD(rec, w->event_names[kind]);
	/* a kind made by a module the game does not hold: the registry's */
	for (int i = 0; i < CARC_RULES_COUNT; i++)
		if (registry[i]->words->event_names[kind])
			return registry[i]->words->event_names[kind];
	return "?";
}

const char *carc_rules_item_word(const struct carc_record *rec, const struct carc_event *ev, bool plural)
{
	int p = plural;
	if (ev->type < CARC_EV_KINDS)
		LAST_WORD(rec, w->item_by_event[ev->type][p]);
	int klass = rec->tileset ? rec->tileset->kinds[ev->kind].klass : CARC_CLASS_ENCLOSURE;
	LAST_WORD(rec, w->item_by_class[klass][p]);
	const char *base = carc_rules_base.words->item_by_class[klass][p];
	return base ? base : plural ? "items" : "item";
}

const char *carc_rules_source_key(const struct carc_ruleset *rs, int source)
{
	const char *k = rs->words->source_keys[source];
	return k ? k : carc_rules_base.words->source_keys[source]; /* NULL: a source nobody names */
}

const char *carc_rules_game_source_key(const struct carc_record *rec, int source)
{
	LAST_WORD(rec, w->source_keys[source]);
	return carc_rules_base.words->source_keys[source]; /* NULL: a source nobody names */
}

const char *carc_rules_source_name(const struct carc_record *rec, int source)
{
	LAST_WORD(rec, w->source_names[source]);
	const char *base = carc_rules_base.words->source_names[source];
	return base ? base : ""; /* a module's source it does not name */
}

const char *carc_rules_tile_word(const struct carc_record *rec)
{
	LAST_WORD(rec, w->tile);
	return "tile";
}

const char *carc_rules_event_prefix(const struct carc_record *rec, int kind)
{
	if (kind >= 0 && kind < CARC_EV_KINDS)
		LAST_WORD(rec, w->event_prefix[kind]);
	return "";
}

unsigned carc_rules_shown_sources(const struct carc_record *rec)
{
	LAST_WORD(rec, w->shown_sources);
	return carc_rules_base.words->shown_sources;
}

const struct carc_rules_item *carc_rules_feature_items(const struct carc_record *rec, int klass)
{
	static const struct carc_rules_item none[] = {{NULL, NULL, 0}};
	if (klass < 0 || klass >= CARC_CLASS_COUNT)
		return none;
	LAST_WORD(rec, w->feature_items[klass]);
	const struct carc_rules_item *base = carc_rules_base.words->feature_items[klass];
	return base ? base : none;
}

int carc_rules_tallies(const struct carc_record *rec, struct carc_game *g, size_t nevents, const char **names,
		       int (*counts)[CARC_COLOURS], int max)
{
	const struct carc_ruleset *mods[1 + CARC_MAX_EXPANSIONS];
	int n = 0, nmods = carc_rules_of(rec, mods);
	for (int k = 0; k < nmods && n < max; k++)
		if (mods[k]->play && mods[k]->play->tallies)
			n += mods[k]->play->tallies(g, nevents, names + n, counts + n, max - n);
	return n;
}

int carc_rules_report_tileset(const struct carc_tileset *ts, const char *name, struct carc_diag_sink *sink)
{
	if (!ts->rules)
		return 0;
	const struct carc_ruleset *rs = carc_ruleset_find(ts->rules, strlen(ts->rules));
	if (!rs || !rs->play || !rs->play->report_tileset)
		return 0;
	return rs->play->report_tileset(ts, name, sink);
}

bool carc_role_word_before(const char *word, size_t len)
{
	return carc_rulesets_role_word_before(&view, word, len);
}
