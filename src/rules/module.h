/*
 * module.h - the hooks and words of a rule-set module, for the layers above
 * the engine: the referee, the generator, the reports and the commands.
 *
 * A module's table (struct carc_ruleset, rules.h) points at one struct
 * carc_play_hooks and one struct carc_rules_words. Every hook is optional:
 * a NULL hook means the base game's behaviour. Hooks that keep state during
 * a game get it from begin (referee) or gen_begin (generator), which keep
 * it in a cache slot from game to game.
 *
 * How the hooks of a game's modules compose. The referee and the generator
 * call them in one order, the calling order: the base rule set, then each
 * expansion in registry order (carc_rules_of(); the Expansions tag is read
 * into that order, so one combination has one order). By kind of hook:
 *   - hooks that add to a step are each module's, in calling order:
 *     check_record, begin, turn_begin, draw, recall, turn_end,
 *     short_turn_end, quiet,
 *     gen_recall (until one takes a figure back);
 *   - checks report every module's refusal: check_deploy (each refusal
 *     reported; what is then applied: check_deploy below);
 *   - questions are answered by any or all: is_bonus, game_over, after_end,
 *     gen_must_deploy (any module's yes), untouched (usual_untouched: a
 *     yes without asking), gen_may_draw (every module's yes);
 *   - hooks that replace a step of the game or answer for it alone (seat,
 *     score_turn, score_final, check_result, explain, order_of,
 *     game_result, ended, gen_draw, gen_score_turn, gen_score_final,
 *     gen_bonus_due, and the engine's score_final) cannot compose: two
 *     modules of one game that set the same one are refused when the game's
 *     rule set is composed (carc_rules_compose, carc_rules_conflict: the
 *     record gets E014 at its Expansions tag);
 *   - the engine's hooks (engine/game.h, struct carc_engine_hooks): values
 *     and events adjusted by each module in turn (feature_value and
 *     score_event, given the base game's value or event), closed_complete
 *     when every module agrees, check_place the first refusal.
 * Words (struct carc_rules_words) are looked up from the last module back:
 * a module names what it adds or renames, the base game's stand otherwise.
 * Event kinds (from CARC_EV_MODULE, each module's header numbering its
 * own, unique in the registry, named by its words' event_names) and points
 * paid more to some winners (carc_event.bonus, bonus_to) are a module's to
 * declare; the reports name them by the words.
 */
#ifndef CARC_MODULE_H
#define CARC_MODULE_H

#include "engine/game.h"
#include "notation/record.h"
#include "rules/rules.h"

/* How a module reports a problem of a turn: through the referee, which adds
 * "turn N, colour:" and remembers the game's first error. */
typedef void (*carc_rules_fault_fn)(void *ctx, enum carc_code code, struct carc_span at, const char *msg);

struct carc_play_hooks {
	/* ---- the referee (referee.c), in the order of a game ---- */

	/* Whether the module leaves the move alone, asked before each usual
	 * turn (the right colour, numbered right, no discard, no bonus mark):
	 * true when none of its hooks of a turn (is_bonus, seat, turn_begin,
	 * draw, recall, score_turn, turn_end, game_over) would do or report
	 * anything for it but what its short_turn_end does after it, and its check_deploy refuses no figure that the
	 * engine's one-call turn deploys itself (carc_game_play: a role on a
	 * kind it may stand on, from the followers' supply, on an unoccupied
	 * feature; any other deployment still goes through check_deploy).
	 * When every module of the game says so, the referee plays the move
	 * the base game's short way: the engine's own hooks still apply. NULL:
	 * the module touches every turn. It must cost little: it is asked on
	 * every turn (The River: whether river tiles are left, remembered once
	 * none is; The Abbot: whether the move takes a figure back). */
	bool (*untouched)(void *st, const struct carc_move *m);
	/* Instead of untouched: the module leaves every usual turn alone (as
	 * untouched would say of each), and the referee need not ask (Inns &
	 * Cathedrals; Traders & Builders, with short_turn_end). */
	bool usual_untouched;
	/* After a turn that every module left alone (untouched) and the
	 * referee played the short way: called as turn_end is after a usual
	 * turn (bonus false), with the same arguments, before the line's
	 * claims are checked. For a module that must see such turns but not
	 * change them (The Traders: whether the tile extended the road or
	 * city of its colour's builder, which earns a bonus turn), so that
	 * they keep the short way; its turn_begin must do nothing for a usual
	 * turn that turn_end does not undo. NULL: nothing. */
	void (*short_turn_end)(void *st, const struct carc_move *m, bool bonus, int turn, size_t first_event);

	/* Checks the record beyond the notation (the tile set fits the rules):
	 * reports to sink; the game is still refereed. */
	void (*check_record)(const struct carc_record *rec, struct carc_diag_sink *sink);
	/* Starts a game on g (already set up by carc_game_start): returns its
	 * state, kept in *cache and reused from game to game; NULL when it
	 * needs none. fault reports a turn's problems. */
	void *(*begin)(void **cache, const struct carc_record *rec, struct carc_game *g, carc_rules_fault_fn fault,
		       void *ctx);
	/* Frees what begin or gen_begin kept in a cache slot. */
	void (*free)(void *cache);
	/* Copies st, the state begin returned for a game, for a copy of that
	 * game (carc_referee_clone: the library's clone of a game being
	 * played): into *cache, the copy's slot, as begin keeps it, with the
	 * copy's record, engine (already a copy, carc_game_copy) and fault
	 * context in place of the original's; returns it. A module whose
	 * begin keeps state has one; the states are plain values but for
	 * these pointers and the arrays a module owns (solo's), which it copies.
	 * The modules with state: The River, The Abbot (carc_rules_plain:
	 * carc_rules_clone_plain), solo, Hunters and Gatherers, The Traders;
	 * the base game and Inns & Cathedrals keep none (no begin). */
	void *(*clone)(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g, void *ctx);
	/* Whether the line is a bonus turn (it then takes the number of the
	 * turn before). */
	bool (*is_bonus)(void *st, const struct carc_move *m);
	/* Whose turn: seat would play next in plain rotation; returns the seat
	 * that plays. */
	int (*seat)(void *st, int seat, int record_colour);
	/* Checks a line before its tile is drawn (turn: the line's number). */
	void (*turn_begin)(void *st, const struct carc_move *m, bool bonus, int turn);
	/* The move draws its tile (count: the turn's count). */
	void (*draw)(void *st, const struct carc_move *m, int count);
	/* Checks a figure of colour about to go onto a feature (by root):
	 * returns 0, or a code with the reason in why (after "turn N, colour:
	 * "). The referee asks it before its own checks of the figure (the
	 * kinds the role stands on, a figure left in the supply), and a code
	 * it gives names the fault in their place: the module knows its
	 * figures (The River: no follower on the river; The Abbot: an abbot
	 * on a road, a second abbot). The deployment is then applied as
	 * recorded when the referee's checks pass, else not. The generator
	 * asks it too, to leave such deployments out. */
	enum carc_code (*check_deploy)(struct carc_game *g, uint32_t root, const struct carc_role *role, int colour,
				       struct carc_buf *why);
	/* The move takes a figure back instead of deploying ("return ROLE":
	 * m->recall, a role with carc_role.recall): checks it and, when it
	 * may, takes it back and scores what that scores, after the tile is
	 * placed (placement; -1 when it was not) and before the turn's
	 * scoring. Called for each module that sets it. */
	void (*recall)(void *st, const struct carc_move *m, int placement, int turn);
	/* Scores what the turn completed, in place of the engine's order
	 * (placement: -1 when the tile was not placed; count: the turn's count). */
	void (*score_turn)(void *st, const struct carc_move *m, int placement, int count);
	/* After the line is played and scored (its events from first_event). */
	void (*turn_end)(void *st, const struct carc_move *m, bool bonus, int turn, size_t first_event);
	/* True when the game has ended before the supply is used up. */
	bool (*game_over)(const void *st);
	/* A line after the game ended by game_over: reports it and returns true;
	 * false when the game ended some other way. */
	bool (*after_end)(void *st, const struct carc_move *m);
	/* Final scoring in place of the engine's carc_game_score_final. */
	void (*score_final)(void *st);
	/* Stops reporting (a final scoring of a position part-way, project.c). */
	void (*quiet)(void *st);
	/* Compares the Result tag with the game, in place of the referee's. */
	void (*check_result)(void *st);
	/* Why scoring event number event paid or left out a colour holding the
	 * majority, in words appended to out ("red is not last: ..."); false
	 * when it has nothing to say. */
	bool (*explain)(const void *st, size_t event, struct carc_buf *out);
	/* How the scoring order of a turn (0: the final scoring) was decided:
	 * 0 nothing to choose, 1 given by the record, 2 chosen by carc. */
	int (*order_of)(const void *st, int turn);
	/* A game with no winner (CARC_RS_NO_WINNER): its result, and in *who
	 * the colours that have it (bit per colour). */
	int (*game_result)(const void *st, uint8_t *who);
	/* Why and when the game ended before the supply was used up: 0 while
	 * it goes on or when it did not, else the turn after which it ended;
	 * *forced and *colour say how (solo's forced end). */
	int (*ended)(const void *st, bool *forced, int *colour);

	/* ---- the reports ---- */

	/* Counts each colour holds beside its score that the rules keep (The
	 * Traders' goods tokens), as they stand after the game's first nevents
	 * scoring events: up to max of them, each a name (a word: its key in
	 * JSON and YAML) in names and a count per colour in counts; returns
	 * how many. The reports show them after every turn and at the end. */
	int (*tallies)(struct carc_game *g, size_t nevents, const char **names, int (*counts)[CARC_COLOURS], int max);

	/* ---- tile sets (carc tiles --check) ---- */

	/* For a tile set made for these rules, reports each way it does not fit
	 * them at its line of the file named name; returns their number. */
	int (*report_tileset)(const struct carc_tileset *ts, const char *name, struct carc_diag_sink *sink);

	/* ---- the generator (import/gen.c) ---- */

	/* Starts a generated game (seats in order of play, nsupply land tiles
	 * shuffled); returns its state, kept in *cache. */
	void *(*gen_begin)(void **cache, struct carc_game *g, const uint8_t *seats, int nseats, size_t nsupply);
	/* The index into the shuffled land tiles that the seat draws, drawn
	 * before; may pass *seat on to the next seat that can draw. */
	size_t (*gen_draw)(void *st, int *seat, size_t drawn);
	/* A follower must be deployed whenever one can be. */
	bool gen_must_deploy;
	/* The turn's tile is placed and nothing deployed: whether colour takes
	 * a figure back instead ("return ROLE"), chosen with roll, a uniform
	 * random number. When it does, takes it back and scores what that
	 * scores (before the turn's scoring), appends " return ROLE" to the
	 * turn line and returns true. */
	bool (*gen_recall)(struct carc_game *g, int colour, int turn, uint64_t roll, struct carc_buf *line);
	/* Scores the turn's placement, in place of carc_game_score_completed;
	 * may append to the turn line (" order ..."). Returns true when the game
	 * ends after this turn. */
	bool (*gen_score_turn)(void *st, int placement, int colour, int turn, bool deployed, struct carc_buf *line);
	/* Whether the turn (its events from first_event) earns a bonus turn,
	 * played by the same seat and written N+: its tile from the bonus stack
	 * when the tile set has one, else the next land tile. Never asked after
	 * a bonus turn, nor after the last land tile. */
	bool (*gen_bonus_due)(struct carc_game *g, size_t first_event);
	/* Final scoring, in place of carc_game_score_final; may write an
	 * EndOrder value to end_order. */
	void (*gen_score_final)(void *st, struct carc_buf *end_order);
	/* Whether the tile may be drawn now (The River: the river tiles first,
	 * the lake last of them); the generator then draws the next tile of
	 * the supply that may be. */
	bool (*gen_may_draw)(const struct carc_game *g, int tile);
};

/* The referee's state of a module that needs only the game and how to
 * report a turn's problems (The River, The Abbot): its begin hook is
 * carc_rules_begin_plain, its free hook free(). */
struct carc_rules_plain {
	struct carc_game *g;
	carc_rules_fault_fn fault;
	void *ctx;
};
void *carc_rules_begin_plain(void **cache, const struct carc_record *rec, struct carc_game *g,
			     carc_rules_fault_fn fault, void *ctx);
void *carc_rules_clone_plain(void **cache, const void *st, const struct carc_record *rec, struct carc_game *g,
			     void *ctx);

/* The words a rule set's reports need. */
struct carc_rules_words {
	const char *source_keys[CARC_SRC_COUNT];  /* JSON and YAML keys of the breakdown */
	const char *source_names[CARC_SRC_COUNT]; /* rows of the text breakdown */
	unsigned shown_sources;                   /* bit src: a text row even when nobody scored from it */
	/* names of the event kinds it makes (the base: completed, incomplete,
	 * farm; a module: its own, from CARC_EV_MODULE), NULL elsewhere */
	const char *event_names[CARC_EV_KINDS];
	/* words before an event's feature in text, by kind ("a follower left on ") */
	const char *event_prefix[CARC_EV_KINDS];
	/* what an event's items count (singular, plural), by event kind, else
	 * by the class of its feature */
	const char *item_by_event[CARC_EV_KINDS][2];
	const char *item_by_class[CARC_CLASS_COUNT][2];
	const char *tile;                         /* what the supply holds: "tile", "land tile" */
	/* the items a feature of --features lists, by the feature's class:
	 * each a key (JSON, YAML, and plural in text), a singular and the
	 * attribute counted; ended by a NULL key */
	const struct carc_rules_item *feature_items[CARC_CLASS_COUNT];
};

struct carc_rules_item {
	const char *key, *one;
	int attr;
};

/* The modules of a game in calling order: the base rule set, then its
 * expansions. Returns their count (at most 1 + CARC_MAX_EXPANSIONS). */
int carc_rules_of(const struct carc_record *rec, const struct carc_ruleset **out);
/* The union of the game's CARC_RS_* flags. */
unsigned carc_rules_flags(const struct carc_record *rec);
/* Words, looked up through the game's modules, the last that names it
 * winning, and where none does the base game's (a base rule set such as
 * solo names only what it changes): an event kind's name, an event's item
 * word (plural: 1), a source's key and name. */
const char *carc_rules_event_name(const struct carc_record *rec, int kind);
const char *carc_rules_item_word(const struct carc_record *rec, const struct carc_event *ev, bool plural);
const char *carc_rules_source_key(const struct carc_ruleset *rs, int source);
/* A source's key in a game's reports, looked up through its modules: NULL
 * for a source (CARC_SRC_MODULE on) that none of them declares. */
const char *carc_rules_game_source_key(const struct carc_record *rec, int source);
const char *carc_rules_source_name(const struct carc_record *rec, int source);
/* What the supply holds, for messages: "tile", "land tile". */
const char *carc_rules_tile_word(const struct carc_record *rec);
const char *carc_rules_event_prefix(const struct carc_record *rec, int kind);
/* The rows of the text breakdown shown even when nobody scored from them. */
unsigned carc_rules_shown_sources(const struct carc_record *rec);
/* The items of a feature of the given class (ended by a NULL key). */
const struct carc_rules_item *carc_rules_feature_items(const struct carc_record *rec, int klass);
/* The tallies of a game's modules (play hook tallies) after its first
 * nevents events, in calling order: at most max; returns how many. */
int carc_rules_tallies(const struct carc_record *rec, struct carc_game *g, size_t nevents, const char **names,
		       int (*counts)[CARC_COLOURS], int max);
/* The tile-set check of the first rule set whose name the tile set's rules
 * field gives (tileset.h), or 0 when there is none. */
int carc_rules_report_tileset(const struct carc_tileset *ts, const char *name, struct carc_diag_sink *sink);

#endif
