/*
 * game.h - the rules engine: the map, features, followers and scoring.
 *
 * A carc_game holds one game in play. It knows the base rules but not the
 * notation: the referee (referee.c) and the generator drive it, one call per
 * step of a turn (check, place, deploy, score), and it never prints. What a
 * rule set changes it learns only through the hooks of struct
 * carc_engine_hooks, read once a game (carc_game_start): it never names a
 * rule set.
 *
 * Features are tracked incrementally: every feature of every placed tile is a
 * segment; segments that join across tile edges are merged in a union-find
 * structure whose roots carry the feature's totals (open edges, segments,
 * pennants, followers per colour, ...). A placement costs the same at turn 70
 * as at turn 2; completion is "no open edge left".
 */
#ifndef CARC_GAME_H
#define CARC_GAME_H

#include "notation/record.h"
#include "notation/ruleset.h"
#include "notation/tileset.h"

#include <stdint.h>

/* Why a feature scored: during play, at the end, or as an area (a farm).
 * The kinds from CARC_EV_MODULE on are a rule set's own: each module's
 * header names the ones it makes (numbers unique across the registry), and
 * its words (rules/module.h) give their names. */
enum carc_event_type {
	CARC_EV_COMPLETED,   /* completed during play */
	CARC_EV_INCOMPLETE,  /* final scoring of an unfinished path, enclosure, site */
	CARC_EV_FARM,        /* final scoring of an area by the base rules (or, 1st edition, a city's farms) */
	CARC_EV_MODULE,      /* the first kind a rule set defines */
	CARC_EV_KINDS = 16   /* room for every kind (a power of two: reports mask by it) */
};
_Static_assert((CARC_EV_KINDS & (CARC_EV_KINDS - 1)) == 0, "CARC_EV_KINDS is a power of two");

/* Points by source, for the final breakdown; the rule set's words name them. */
enum carc_source {
	CARC_SRC_PLAY_PATH, CARC_SRC_PLAY_ENCLOSURE, CARC_SRC_PLAY_SITE,
	CARC_SRC_END_PATH, CARC_SRC_END_ENCLOSURE, CARC_SRC_END_SITE,
	CARC_SRC_AREA,       /* areas scored at the end: farms, meadows */
	CARC_SRC_OTHER,      /* a rule set's own final scoring */
	CARC_SRC_START,      /* points a colour starts with (a rule set's start_score hook) */
	CARC_SRC_MODULE,     /* the first of the sources a rule set declares: its words name them
				(source_keys, source_names), each module's header numbers its own */
	CARC_SRC_COUNT = CARC_SRC_MODULE + 4 /* room for them */
};

struct carc_event {
	uint8_t type;          /* enum carc_event_type */
	uint8_t kind;          /* the feature's kind in the tile set */
	uint8_t source;        /* enum carc_source */
	uint8_t bonus_to;      /* the winners who score bonus more than points (a rule set's
				  score_event hook: a pig's owner one point more a city) */
	uint16_t turn;         /* the turn that scored it; 0 for final scoring */
	uint32_t feature;      /* root segment, for naming it (carc_game_feature_name) */
	uint16_t tiles;        /* distinct tiles in the feature */
	uint16_t items;        /* the feature's bonus items: pennants, fish, mushrooms, animals (the
				  rule set's words name them) */
	uint16_t cities;       /* farms: completed cities bordering it */
	int16_t points;        /* to each winner */
	uint8_t winners;       /* bit c: colour c scored */
	uint8_t followers[CARC_COLOURS]; /* each colour's figures on it, by their weight in the majority
					    (carc_role_weight: a follower 1, so in the base game its followers) */
	uint8_t skipped;       /* the winners the award hook did not pay */
	int16_t bonus;         /* more points to each winner in bonus_to */
};

/* What the event paid colour c: points to every winner, and bonus more to
 * those in bonus_to. */
static inline int carc_event_points_of(const struct carc_event *ev, int c)
{
	return (ev->winners >> c & 1) ? ev->points + ((ev->bonus_to & ev->winners) >> c & 1) * ev->bonus : 0;
}

/* A follower on the map. */
struct carc_follower {
	uint8_t colour;
	uint8_t role;          /* index into the rule set's roles */
	uint8_t active;        /* still on the map */
	uint8_t spot;
	uint32_t segment;
	uint16_t turn;         /* turn it was deployed */
	uint16_t placement;    /* the tile it stands on */
};

struct carc_placement {
	int32_t x, y;
	uint16_t tile;
	uint8_t rot;
	uint8_t colour;        /* who placed it; CARC_NO_COLOUR for the start tile */
	uint16_t turn;
	uint8_t site_scored;   /* its site (cloister) has been scored */
	uint32_t seg0;         /* its features are segments seg0 .. seg0 + nfeatures - 1 */
	uint16_t orient;       /* tile * 4 + rot: the engine's table of the tile so turned */
};

/* What is wrong with a placement. */
struct carc_place_problem {
	enum carc_code code;   /* CARC_E201, E202 or E203 */
	int edge;              /* E203: the board edge of the new tile */
	uint8_t mine, theirs;  /* E203: the terrains that clash */
	int nx, ny;            /* E203: the neighbour's cell */
	char rule[192];        /* the rule set's check_place hook: why it refused (after "turn N, colour: ") */
};

struct carc_game;

/* What a rule set changes in the engine (its table, rules/rules.h, points
 * here through .engine). Each hook is optional; carc_game_start reads them
 * once, so a hook the game's rules do not set costs nothing per turn.
 *
 * A game's modules (its base rule set, then each expansion: the composed
 * rule set's engines[], rules.h) combine their hooks so, in calling order:
 *   - feature_value, score_event: each module's in turn, each given what the
 *     one before made of it (first the base game's value, or event);
 *   - closed_complete: complete when every module whose closed_classes hold
 *     the feature's class says so; closed_final when every such module's is;
 *   - check_place: each module's in turn, the first refusal wins; a tile is
 *     checked when one of them checks it (checks_tile);
 *   - score_final replaces the base final scoring: two modules that set it
 *     cannot be played together (carc_rules_compose refuses them). */
struct carc_engine_hooks {
	/* The value of a feature (by root; tiles: its distinct tiles; complete:
	 * during play), adjusting value, which the hook is given: the base
	 * game's value (a path 1 a tile, an enclosure 2 a tile and a pennant,
	 * 1 each at the end, a site 9 or 1 and its neighbours), or what the
	 * modules before made of it. *items holds the bonus items counted (the
	 * event's items: the base game's pennants) and may be changed too. */
	int (*feature_value)(struct carc_game *g, uint32_t root, int tiles, bool complete, int value,
			     uint16_t *items);
	/* An event of the engine's scoring (a feature during play or at the
	 * end, a farm), filled and not yet paid: the hook may change its points
	 * (to every winner) or give some winners more (bonus_to, bonus), as
	 * The Traders' pig does for its owner. */
	void (*score_event)(struct carc_game *g, struct carc_event *ev);
	/* Whether a closed feature (a path or enclosure with no open edge) of
	 * a class in closed_classes (bit 1 << class) is complete; when not, the
	 * engine asks again after every later placement until it is. */
	bool (*closed_complete)(struct carc_game *g, uint32_t root);
	unsigned closed_classes;
	/* closed_complete's no is final (The River: a river never scores): a
	 * closed feature found not complete is not asked again, so it costs
	 * later turns nothing. */
	bool closed_final;
	/* Final scoring in place of the base one (unfinished features, farms). */
	void (*score_final)(struct carc_game *g);
	/* A placement the base rules allow that the rule set forbids (The
	 * River: a river tile must continue the river, no U-turn): 0, or the
	 * code with the reason written to why (size bytes; size 0 when only
	 * the code is asked for: legal_places). carc_game_check_place
	 * asks it last, and so legal_places and find_fit (a discard's check)
	 * follow it; carc_game_play leaves such games' turns to the caller. */
	int (*check_place)(const struct carc_game *g, int tile, int rot, int x, int y, char *why, size_t size);
	/* Whether check_place may refuse a tile of this type (The River: its
	 * river tiles), asked once a game for each type; NULL: every type. The
	 * tiles it may not refuse keep the one-call turn (carc_game_play), so a
	 * rule set that checks a few tiles costs the others nothing. */
	bool (*checks_tile)(const struct carc_tileset *ts, int tile);
};

struct carc_game *carc_game_new(void);
void carc_game_free(struct carc_game *g);
/* Makes dst a copy of src as it stands (dst's arrays reused or freed):
 * the map, the features, followers, scores and events, the supply. It
 * costs the size of the game, not its replay: the cells around the tiles,
 * and the arrays of placements, segments, followers and events (the tables
 * of the tile types are kept when dst had them for the same tile set and
 * rules). The award function and its context are copied as they are: a
 * module that set them sets them again on the copy (its clone hook). */
void carc_game_copy(struct carc_game *dst, const struct carc_game *src);

/* Sets up a new game: the tile set, the rules, the colours and supplies, and
 * the start tile at 0,0. */
void carc_game_start(struct carc_game *g, const struct carc_tileset *ts, const struct carc_ruleset *rules,
		     int edition, const uint8_t *seats, int nseats, int followers, int huts,
		     int start_tile, int start_rot);
/* Limits the table (Hunters and Gatherers' Table tag): a tile must lie within
 * a w x h rectangle that holds every placed tile. 0 for no limit. */
void carc_game_set_table(struct carc_game *g, int w, int h);

const struct carc_tileset *carc_game_tileset(const struct carc_game *g);
const struct carc_ruleset *carc_game_rules(const struct carc_game *g);

/* Supply: how many tiles of a type are left to draw (the start tile excluded). */
int carc_game_tiles_left(const struct carc_game *g, int tile);
int carc_game_tiles_drawn(const struct carc_game *g, int tile);
/* Land tiles left in the supply, in all (bonus tiles excluded). */
int carc_game_supply_left(const struct carc_game *g);
int carc_game_bonus_left(const struct carc_game *g);
/* Takes a tile from the supply. */
void carc_game_draw(struct carc_game *g, int tile);

/* 0 when the tile fits; otherwise fills why and returns its code. */
int carc_game_check_place(const struct carc_game *g, int tile, int rot, int x, int y,
			  struct carc_place_problem *why);
/* Finds some position and rotation where the tile fits. */
bool carc_game_find_fit(const struct carc_game *g, int tile, int *x, int *y, int *rot);
/* Every legal (x, y, rot) for the tile; returns the count, writing at most max. */
int carc_game_legal_places(const struct carc_game *g, int tile, int32_t *xs, int32_t *ys, uint8_t *rots, int max);
/* Places the tile (legal or not: the caller has checked), on an empty cell
 * (a tile on a taken cell is not physically possible). Returns its index. */
int carc_game_place(struct carc_game *g, int tile, int rot, int x, int y, int colour, int turn);

/* A whole ordinary turn in one call, for the referee: when the tile is in
 * the supply and fits at x,y turned rot (carc_game_check_place), draws it
 * and places it (carc_game_draw, carc_game_place), setting *placement;
 * then, when role >= 0 and the deployment is plainly legal (a feature at
 * spot of a kind the role may stand on, not occupied, a follower in the
 * supply; not a hut, nor a role with a supply of its own or a weight in
 * majorities other than 1), deploys (carc_game_deploy); and scores what the tile
 * completed (carc_game_score_completed). The state afterwards is exactly
 * what those calls give. Returns CARC_PLAY_DONE then; CARC_PLAY_NONE, with
 * nothing done and *placement -1, when the tile is not in the supply or
 * does not fit; CARC_PLAY_PLACED when the tile is drawn and placed but the
 * deployment is not plainly legal: then the caller deploys (or not) and
 * calls carc_game_score_completed itself. For a tile that the rule set's
 * check_place hook may refuse (checks_tile) it always returns
 * CARC_PLAY_NONE. */
enum { CARC_PLAY_NONE = -1, CARC_PLAY_DONE = 0, CARC_PLAY_PLACED = 1 };
int carc_game_play(struct carc_game *g, int tile, int rot, int x, int y, int colour, int turn, int role, int spot,
		   int *placement);

/* The feature of the last placed tile at a spot, or CARC_NO_FEATURE. */
int carc_game_spot_feature(const struct carc_game *g, int placement, int spot);
/* The root segment of a feature of a placement. */
uint32_t carc_game_feature_root(struct carc_game *g, int placement, int feature);
/* Followers on the feature (by root), per colour, each by its weight in the
 * majority (carc_role_weight: a follower 1, a large follower 2, a builder 0). */
const uint8_t *carc_game_feature_followers(struct carc_game *g, uint32_t root);
/* A follower standing on the feature (by root), or NULL. */
const struct carc_follower *carc_game_feature_occupant(struct carc_game *g, uint32_t root);
bool carc_game_feature_complete(struct carc_game *g, uint32_t root);
/* The kind and class of a feature (by root). */
int carc_game_feature_kind(const struct carc_game *g, uint32_t root);
/* Names a feature for messages: "the city at N of R (1,0)". */
void carc_game_feature_name(struct carc_game *g, uint32_t root, struct carc_buf *out);
/* Distinct tiles of a feature. */
int carc_game_feature_tiles(struct carc_game *g, uint32_t root);
/* The placements a feature covers, each once, in placement order; returns
 * the count, writing at most max indices. */
int carc_game_feature_placements(struct carc_game *g, uint32_t root, int *out, int max);
/* A feature's summed attribute (pennants, fish, ...). */
int carc_game_feature_attr(struct carc_game *g, uint32_t root, int attr);

int carc_game_supply(const struct carc_game *g, int colour);
int carc_game_huts(const struct carc_game *g, int colour);
/* The figures of a role a colour has left: the followers, the huts, or the
 * role's own supply (carc_role.own). */
int carc_game_role_supply(const struct carc_game *g, int colour, int role);
/* Deploys a follower of the given role onto a feature of the placement,
 * from the role's supply. */
void carc_game_deploy(struct carc_game *g, int placement, int feature, int spot, int colour, int role, int turn);

/* Scores every feature the last placement completed, in play order: roads,
 * cities, cloisters by their first segment. Appends events; returns how many. */
int carc_game_score_completed(struct carc_game *g, int turn);
/* Features completed by the last placement, not yet scored (for the solo
 * order). Returns the count, writing their roots. */
int carc_game_completed(struct carc_game *g, uint32_t *roots, int max);
/* Scores one completed feature now (roots from carc_game_completed). */
void carc_game_score_feature(struct carc_game *g, uint32_t root, int turn);
/* What a completed feature would score now, before any award hook (solo:
 * to weigh scoring orders). */
int carc_game_feature_value(struct carc_game *g, uint32_t root);
/* Final scoring: incomplete features, then farms. */
void carc_game_score_final(struct carc_game *g);
/* Scores a feature (by root) now, during play, as the final scoring would
 * (its value as an incomplete feature, the tiles placed so far counted),
 * and lifts its followers, those whose role returns going back to their
 * supply (The Abbot's "return abbot"): one event of the given type (a
 * module's kind, CARC_EV_MODULE on) and source, for the turn. The feature
 * then counts as scored: a later completion scores it no more. */
void carc_game_score_now(struct carc_game *g, uint32_t root, int turn, int type, int source);

/* A game's running totals, kept current by the engine: the referee reads
 * them after every turn through one pointer (carc_game_totals, valid for
 * the engine's life) rather than a call each. */
struct carc_totals {
	int score[CARC_COLOURS]; /* indexed by colour */
	size_t nevents;          /* scoring events so far */
	int land_left;           /* land tiles left in the supply */
};
const struct carc_totals *carc_game_totals(const struct carc_game *g);

int carc_game_score(const struct carc_game *g, int colour);
/* Every colour's score, indexed by colour (CARC_COLOURS of them). */
const int *carc_game_scores(const struct carc_game *g);
/* Points of a colour from one source (enum carc_source). */
int carc_game_points_from(const struct carc_game *g, int colour, int source);
void carc_game_add_points(struct carc_game *g, int colour, int points, int source);
/* Appends a zeroed scoring event, for rule modules that score on their own
 * (hunters.c); the pointer is valid until the next event is added. */
struct carc_event *carc_game_add_event(struct carc_game *g);

const struct carc_event *carc_game_events(const struct carc_game *g, size_t *count);
const struct carc_placement *carc_game_placements(const struct carc_game *g, size_t *count);
const struct carc_follower *carc_game_followers(const struct carc_game *g, size_t *count);
/* The placement index at a cell, or -1. */
int carc_game_at(const struct carc_game *g, int x, int y);

/* Every feature (root) of the map, for reports: calls fn for each. */
typedef void (*carc_feature_fn)(void *ctx, uint32_t root);
void carc_game_each_feature(struct carc_game *g, carc_feature_fn fn, void *ctx);

/* The colours with the most followers in count[] (by colour, each follower
 * by its weight: carc_role_weight), among those who play; 0 when it holds
 * none of theirs (or only figures of weight 0). The one majority rule, for
 * the engine and every rule set. */
uint8_t carc_game_majority(const struct carc_game *g, const uint8_t *count);

/* The award hook (solo): when set, a feature's winners score only if allowed. */
typedef uint8_t (*carc_award_fn)(void *ctx, struct carc_game *g, uint8_t winners, int points);
void carc_game_set_award(struct carc_game *g, carc_award_fn fn, void *ctx);

#endif
