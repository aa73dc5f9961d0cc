/*
 * referee.h - replays a parsed record through the rules engine.
 *
 * The referee walks the turns of a record, checks each against the rules
 * (turn order, supply, placement, deployment, claims), reports every illegal
 * move to the diagnostics sink, applies what is physically possible so that
 * one slip does not hide later problems, and keeps, turn by turn, what the
 * reports need: the scoring events and the running totals. What a rule set
 * adds to a turn it learns only through the play hooks of the game's
 * modules (rules/module.h), called in their order; a game whose modules
 * have none (the base game) takes the one-call turn of the engine.
 */
#ifndef CARC_REFEREE_H
#define CARC_REFEREE_H

#include "engine/game.h"
#include "notation/record.h"
#include "rules/module.h"

struct carc_turn {
	uint32_t move;           /* index into rec->moves */
	uint16_t number;         /* the turn number, as it should be written */
	bool bonus, discard;
	bool illegal;            /* an error was reported on this line */
	uint8_t colour;
	int placement;           /* index into the game's placements, -1 if none */
	uint32_t first_event;    /* events scored in this turn */
	uint32_t nevents;
	int scores[CARC_COLOURS];/* running totals after the turn */
};

struct carc_referee_opts {
	int edition;             /* 0: as the record says */
	bool final_anyway;       /* score an unfinished game as if it ended */
	int stop_after;          /* replay only the first N recorded turns (0: all); no final scoring then */
	int stop_turn;           /* or only the turns numbered up to N (0: all), bonus turns N+ with
				    turn N, as the referee numbers them; no final scoring then */
	bool no_turns;           /* keep no turn records (nturns stays 0): for a verdict and the totals
				    alone (check), which need not write a record per turn */
};

struct carc_result {
	const struct carc_record *rec;
	struct carc_game *game;
	struct carc_turn *turns;
	size_t nturns, turns_cap;
	bool refereed;           /* false when the header kept it from being played, or it has no turns */
	bool result_only;        /* a game whose moves were not recorded (carc_record_result_only): not
				    refereed; its Result, when it has one, is its final score (final_scored) */
	bool finished;           /* the supply was used up */
	bool final_scored;       /* final scoring was done */
	uint32_t final_first_event;
	unsigned errors, warnings; /* this game's, syntax included */
	int edition;
	int scores[CARC_COLOURS];  /* the last known totals */
	int last_turn;             /* number of the last turn played */
	/* the game's rule-set modules that have play hooks, in calling order
	 * (carc_rules_of), each with its state for this game */
	const struct carc_ruleset *mods[1 + CARC_MAX_EXPANSIONS];
	void *mod_state[1 + CARC_MAX_EXPANSIONS];
	int nmods;
	void *mod_cache[CARC_MAX_RULESETS]; /* by registry id: kept from game to game */
	struct carc_referee_live *live; /* carc_referee_begin's walk, between its calls */
};

/* The one-call turn: true (the default) lets a game whose modules have no
 * play hooks play its ordinary turns through carc_game_play, and its turns
 * in order by the short way; false sends every turn through each separate
 * check. The results are the same; tests set it to prove so. */
extern bool carc_referee_fast_turns;

/* Replays rec. res is reused from game to game; g is the engine to use.
 * It is carc_referee_begin, a step for each move and carc_referee_finish,
 * in one call, with the walk's state on its stack (the move loop is the
 * steps' own, walk_turns, run over all the moves at once). */
void carc_referee_run(struct carc_result *res, const struct carc_record *rec, struct carc_game *g,
		      struct carc_diag_sink *sink, const struct carc_referee_opts *opt);

/* The same replay a move at a time, for a game played as it goes (the
 * library, src/api): begin starts it (the header's verdict, the engine and
 * the modules started; with rec's moves not yet looked at), keeping the
 * walk in res; each step referees the next move, rec->moves[move], which
 * the record may have gained since the last call (the moves array may have
 * moved; rec itself, g and res may not); finish ends it as
 * carc_referee_run does (final scoring, the Result, the record's
 * warnings, the totals). sink: where this call's messages go (NULL: the
 * last call's); a module's messages from a step go to that step's sink.
 * Between steps, res->scores, errors and warnings are the game's so far.
 * A step returns how the game stands after it, or CARC_STEP_NONE when
 * there was nothing to referee (not begun, finished, not the next move, a
 * game not refereed). */
enum {
	CARC_STEP_NONE,
	CARC_STEP_PLAYED,   /* refereed; the game goes on */
	CARC_STEP_OVER,     /* refereed; the game is over (supply used up, or a module ended it) */
	CARC_STEP_ENDED,    /* a line after the end, or beyond the replay limit: not played; no more steps */
	CARC_STEP_STOPPED,  /* a syntax error on the line: the walk stops; no more steps */
};
void carc_referee_begin(struct carc_result *res, const struct carc_record *rec, struct carc_game *g,
			struct carc_diag_sink *sink, const struct carc_referee_opts *opt);
int carc_referee_step(struct carc_result *res, size_t move, struct carc_diag_sink *sink);
void carc_referee_finish(struct carc_result *res, struct carc_diag_sink *sink);
/* Makes dst (a result as carc_result_free leaves it, or one used before)
 * a copy of src, a replay begun and not finished, for a copy of its game:
 * rec and g are the copies of src's record and engine (carc_record_copy,
 * carc_game_copy), which dst's walk goes on with; the modules' states are
 * copied by their clone hooks (module.h). The next step's sink must be
 * given. False, and dst left as it was, when src is not such a replay or a
 * module with state has no clone hook. */
bool carc_referee_clone(struct carc_result *dst, const struct carc_result *src, const struct carc_record *rec,
			struct carc_game *g);
void carc_result_free(struct carc_result *res);

/* What the game's modules say for reports (module.h's hooks of the same
 * names), through the first module that has the hook: why an event paid or
 * not (false: nothing to say), how a turn's scoring order was decided (0
 * when no module keeps one), the result of a game with no winner and who
 * has it, why and when it ended early (0: it did not). */
bool carc_result_explain(const struct carc_result *res, size_t event, struct carc_buf *out);
int carc_result_order_of(const struct carc_result *res, int turn);
int carc_result_game_result(const struct carc_result *res, uint8_t *who);
int carc_result_ended(const struct carc_result *res, bool *forced, int *colour);

/* Scores the game as it stands now by its rules' final scoring, without a
 * message (a position part-way through: project.c). */
void carc_result_score_final_quiet(struct carc_result *res);

/* The game's winners (bit per colour): the Winner tag's colour, else by the
 * last known totals. */
uint8_t carc_result_winners(const struct carc_result *res);

#endif
