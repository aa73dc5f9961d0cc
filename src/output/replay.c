/*
 * replay.c - the replay page: the data of every game, its board, and the
 * page around them.
 */
#include "output/replay.h"

#include "common/json.h"
#include "referee/project.h"
#include "output/report.h"
#include "output/svg.h"
#include "rules/module.h"

#include <stdlib.h>
#include <string.h>

/* When a follower came onto the map and went (step numbers; -1: not yet). */
struct life {
	int came, went;
};

struct carc_replay {
	struct carc_buf data;    /* the games' JSON objects, comma-separated */
	struct carc_buf boards;  /* their boards */
	size_t ngames;
	struct carc_projector *proj;
	/* the game being added */
	const struct carc_result *res;
	struct life *life;
	size_t nlife, life_cap;
	struct carc_buf steps;   /* its steps' JSON objects */
	struct carc_buf name;
};

struct carc_replay *carc_replay_new(void)
{
	struct carc_replay *p = xcalloc(1, sizeof *p);
	p->proj = carc_projector_new();
	return p;
}

void carc_replay_free(struct carc_replay *p)
{
	if (!p)
		return;
	carc_buf_free(&p->data);
	carc_buf_free(&p->boards);
	carc_buf_free(&p->steps);
	carc_buf_free(&p->name);
	carc_projector_free(p->proj);
	free(p->life);
	free(p);
}

static void json_key(struct carc_buf *b, const char *key)
{
	carc_json_cstr(b, key);
	carc_buf_addc(b, ':');
}

/* {"red":1,"green":2}: a value per seated colour. */
static void json_colours(struct carc_buf *b, const struct carc_record *rec, const int *v)
{
	carc_buf_addc(b, '{');
	for (int s = 0; s < rec->nseats; s++) {
		carc_buf_adds(b, s ? "," : "");
		json_key(b, carc_colour_name(rec->seats[s]));
		carc_buf_printf(b, "%d", v[rec->seats[s]]);
	}
	carc_buf_addc(b, '}');
}

/* One step of the projection (before its final scoring): the supply, the
 * followers left to each colour, and the followers taken off since the
 * step before. */
static void on_step(void *ctx, size_t step, struct carc_game *g, const struct carc_result *r)
{
	struct carc_replay *p = ctx;
	const struct carc_record *rec = r->rec;
	const struct carc_tileset *ts = rec->tileset;
	struct carc_buf *b = &p->steps;
	size_t nf, np;
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	const struct carc_placement *pl = carc_game_placements(g, &np);
	if (nf > p->life_cap) {
		p->life_cap = nf * 2;
		p->life = xrealloc(p->life, p->life_cap * sizeof *p->life);
	}
	for (size_t i = p->nlife; i < nf; i++)
		p->life[i] = (struct life){-1, -1};
	if (nf > p->nlife)
		p->nlife = nf;
	carc_buf_adds(b, step ? ",{" : "{");
	json_key(b, "land_left");
	carc_buf_printf(b, "%d,", carc_game_supply_left(g));
	json_key(b, "bonus_left");
	carc_buf_printf(b, "%d,", carc_game_bonus_left(g));
	json_key(b, "left");
	carc_buf_addc(b, '{');
	bool first = true;
	for (int t = 0; t < ts->ntiles; t++) {
		int n = carc_game_tiles_left(g, t);
		if (!n)
			continue;
		carc_buf_adds(b, first ? "" : ",");
		json_key(b, ts->tiles[t].id);
		carc_buf_printf(b, "%d", n);
		first = false;
	}
	carc_buf_adds(b, "},");
	int supply[CARC_COLOURS];
	for (int c = 0; c < CARC_COLOURS; c++)
		supply[c] = carc_game_supply(g, c);
	json_key(b, "supply");
	json_colours(b, rec, supply);
	carc_buf_addc(b, ',');
	/* the other figures off the map: huts, and each role's own supply (the abbot) */
	const struct carc_ruleset *rules = rec->rules;
	bool own = false;
	for (int role = 0; role < rules->nroles; role++)
		own |= rules->roles[role].own != 0;
	if (rules->huts || own) {
		json_key(b, "figures");
		carc_buf_addc(b, '{');
		for (int s = 0; s < rec->nseats; s++) {
			int c = rec->seats[s];
			carc_buf_reset(&p->name);
			if (rules->huts)
				carc_buf_printf(&p->name, "%d hut%s", carc_game_huts(g, c), carc_game_huts(g, c) == 1 ? "" : "s");
			for (int role = 0; role < rules->nroles; role++) {
				const char *name = carc_role_supply_name(rules, role);
				if (name)
					carc_buf_printf(&p->name, "%s%d %s", p->name.len ? ", " : "",
							carc_game_role_supply(g, c, role), name);
			}
			carc_buf_adds(b, s ? "," : "");
			json_key(b, carc_colour_name(c));
			carc_json_cstr(b, carc_buf_cstr(&p->name));
		}
		carc_buf_adds(b, "},");
	}
	json_key(b, "returned");
	carc_buf_addc(b, '[');
	first = true;
	for (size_t i = 0; i < nf; i++) {
		struct life *l = &p->life[i];
		if (fl[i].active) {
			if (l->came < 0)
				l->came = (int)step;
			continue;
		}
		if (l->went >= 0)
			continue;
		if (l->came < 0) /* deployed and scored in one turn */
			l->came = (int)step;
		l->went = (int)step;
		carc_buf_reset(&p->name);
		carc_buf_printf(&p->name, "%s %s from ", carc_colour_name(fl[i].colour), rec->rules->roles[fl[i].role].name);
		uint32_t root = carc_game_feature_root(g, fl[i].placement, (int)(fl[i].segment - pl[fl[i].placement].seg0));
		carc_game_feature_name(g, root, &p->name);
		carc_buf_adds(b, first ? "" : ",");
		carc_json_cstr(b, carc_buf_cstr(&p->name));
		first = false;
	}
	carc_buf_adds(b, "]}");
}

/* The step whose turn line holds offset off (turn k is step k + 1), or 0. */
static size_t step_at(const struct carc_result *res, size_t off)
{
	for (size_t k = 0; k < res->nturns; k++) {
		struct carc_span line = res->rec->moves[res->turns[k].move].line;
		if (off >= line.off && off <= (size_t)line.off + line.len)
			return k + 1;
	}
	return 0;
}

/* The board: every tile and follower of the game, tagged with its steps. */
static void add_board(struct carc_replay *p, const struct carc_result *res, const struct carc_replay_note *notes,
		      size_t nnotes)
{
	const struct carc_record *rec = res->rec;
	struct carc_game *g = res->game;
	size_t np, nf;
	const struct carc_placement *pl = carc_game_placements(g, &np);
	const struct carc_follower *fl = carc_game_followers(g, &nf);
	char letters[CARC_MAX_ROLES];
	carc_role_letters(rec->rules, letters);
	struct carc_view v = {.ts = rec->tileset};
	v.tiles = xcalloc(np + 1, sizeof *v.tiles);
	v.ntiles = np;
	int *tile_step = xcalloc(np + 1, sizeof *tile_step);
	for (size_t i = 0; i < np; i++)
		v.tiles[i] = (struct carc_view_tile){.x = pl[i].x, .y = pl[i].y, .tile = pl[i].tile, .rot = pl[i].rot};
	struct carc_svg_timed_mark *marks = xcalloc(2 * res->nturns + 1, sizeof *marks);
	size_t nmarks = 0;
	for (size_t k = 0; k < res->nturns; k++) {
		const struct carc_turn *t = &res->turns[k];
		const struct carc_move *m = &rec->moves[t->move];
		if (t->placement >= 0) {
			tile_step[t->placement] = (int)k + 1;
			marks[nmarks++] = (struct carc_svg_timed_mark){m->x, m->y, (int)k + 1, CARC_MARK_LAST, NULL};
		}
		if (t->illegal && !t->discard) {
			const char *why = NULL;
			for (size_t i = 0; i < nnotes && !why; i++)
				if (notes[i].in_game && notes[i].severity == CARC_SEV_ERROR &&
				    step_at(res, notes[i].off) == k + 1)
					why = notes[i].message;
			marks[nmarks++] = (struct carc_svg_timed_mark){m->x, m->y, (int)k + 1, CARC_MARK_ILLEGAL, why};
		}
	}
	v.followers = xcalloc(nf + 1, sizeof *v.followers);
	int (*steps)[2] = xcalloc(nf + 1, sizeof *steps);
	for (size_t i = 0; i < nf && i < p->nlife; i++) {
		const struct life *l = &p->life[i];
		if (l->came < 0 || l->went == l->came)
			continue; /* never stood on the map at the end of a turn */
		const struct carc_role *role = &rec->rules->roles[fl[i].role];
		steps[v.nfollowers][0] = l->came;
		steps[v.nfollowers][1] = l->went;
		v.followers[v.nfollowers++] = (struct carc_view_follower){
			.tile = fl[i].placement, .feature = (uint8_t)(fl[i].segment - pl[fl[i].placement].seg0),
			.colour = fl[i].colour, .letter = letters[fl[i].role], .hut = role->hut,
			.large = carc_role_weight(role) > 1, .role = role->name};
	}
	struct carc_shape_cache *shapes = carc_shape_cache_new(rec->tileset);
	carc_buf_printf(&p->boards, "<div class=\"board\" id=\"board-%zu\" hidden>\n", p->ngames);
	carc_svg_replay_board(&p->boards, &v, shapes, tile_step, (const int(*)[2])steps, marks, nmarks);
	carc_buf_adds(&p->boards, "</div>\n");
	carc_shape_cache_free(shapes);
	free(steps);
	free(marks);
	free(tile_step);
	free(v.tiles);
	free(v.followers);
}

/* The words of the game's rules, as carc score's text has them: "rules"
 * (the rules, edition and expansions), "sources" (the breakdown's rows in
 * order: where in the JSON breakdown, the label, and whether the row shows
 * when nobody scored from it), "prefix" (the words before an event's
 * feature, by event type). */
static void add_words(struct carc_buf *b, const struct carc_result *res)
{
	const struct carc_record *rec = res->rec;
	struct carc_buf words = {0};
	carc_report_rules_words(rec, res->edition, &words);
	json_key(b, "rules");
	carc_json_cstr(b, carc_buf_cstr(&words));
	carc_buf_free(&words);
	carc_buf_addc(b, ',');
	json_key(b, "sources");
	carc_buf_addc(b, '[');
	unsigned shown = carc_rules_shown_sources(rec);
	bool start = (carc_rules_flags(rec) & CARC_RS_START_SCORES) != 0;
	bool first = true;
	for (int src = 0; src < CARC_SRC_COUNT; src++) {
		if (src == CARC_SRC_START && !start)
			continue;
		const char *key = carc_rules_game_source_key(rec, src);
		if (!key) /* a module's source that no module of the game declares */
			continue;
		carc_buf_adds(b, first ? "{" : ",{");
		first = false;
		json_key(b, "path");
		carc_buf_addc(b, '[');
		if (src <= CARC_SRC_PLAY_SITE)
			carc_buf_adds(b, "\"play\",");
		else if (src <= CARC_SRC_END_SITE)
			carc_buf_adds(b, "\"end\",");
		carc_json_cstr(b, key);
		carc_buf_adds(b, "],");
		json_key(b, "label");
		carc_json_cstr(b, carc_rules_source_name(rec, src));
		carc_buf_printf(b, ",\"always\":%s}", shown >> src & 1 ? "true" : "false");
	}
	carc_buf_adds(b, "],");
	json_key(b, "prefix");
	carc_buf_addc(b, '{');
	first = true;
	for (int kind = 0; kind < CARC_EV_KINDS; kind++) {
		const char *lead = carc_rules_event_prefix(rec, kind);
		if (!lead || !*lead)
			continue;
		carc_buf_adds(b, first ? "" : ",");
		first = false;
		json_key(b, carc_rules_event_name(rec, kind));
		carc_json_cstr(b, lead);
	}
	carc_buf_adds(b, "},");
}

bool carc_replay_add(struct carc_replay *p, const struct carc_result *res, const struct carc_referee_opts *opts,
		     const struct carc_replay_note *notes, size_t nnotes)
{
	const struct carc_record *rec = res->rec;
	struct carc_buf *b = &p->data;
	p->res = res;
	p->nlife = 0;
	carc_buf_reset(&p->steps);
	const int *rows = res->refereed ? carc_project(p->proj, res, opts, on_step, p) : NULL;
	if (res->refereed && !rows)
		return false;

	carc_buf_adds(b, p->ngames ? ",\n{" : "{");
	json_key(b, "report");
	char *doc = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&doc, &len);
	if (mem) {
		struct carc_emitter *em = carc_emitter_json(mem);
		struct carc_report_opts ro = {.projected = rows};
		carc_report_doc(em, res, &ro);
		carc_emitter_close(em);
		fclose(mem);
	}
	while (len && doc[len - 1] == '\n')
		len--;
	if (len)
		carc_buf_add(b, doc, len);
	else
		carc_buf_adds(b, "null");
	free(doc);
	carc_buf_addc(b, ',');
	json_key(b, "steps");
	carc_buf_addc(b, '[');
	if (p->steps.len)
		carc_buf_add(b, p->steps.data, p->steps.len);
	carc_buf_adds(b, "],");
	if (rows) {
		json_key(b, "projected_start");
		json_colours(b, rec, rows);
		carc_buf_addc(b, ',');
	}
	json_key(b, "start");
	carc_json_cstr(b, rec->tileset ? rec->tileset->tiles[rec->start_tile].id : "");
	carc_buf_addc(b, ',');
	add_words(b, res);
	json_key(b, "notes");
	carc_buf_addc(b, '[');
	for (size_t i = 0; i < nnotes; i++) {
		const struct carc_replay_note *n = &notes[i];
		carc_buf_adds(b, i ? ",{" : "{");
		json_key(b, "line");
		carc_buf_printf(b, "%u,", n->line);
		json_key(b, "col");
		carc_buf_printf(b, "%u,", n->col);
		json_key(b, "code");
		carc_json_cstr(b, carc_code_str(n->code));
		carc_buf_addc(b, ',');
		json_key(b, "severity");
		carc_json_cstr(b, n->severity == CARC_SEV_ERROR ? "error" : n->severity == CARC_SEV_WARNING ? "warning"
													  : "note");
		carc_buf_addc(b, ',');
		json_key(b, "step");
		size_t step = n->in_game && res->refereed ? step_at(res, n->off) : 0;
		if (step)
			carc_buf_printf(b, "%zu,", step);
		else
			carc_buf_adds(b, "null,");
		json_key(b, "message");
		carc_json_cstr(b, n->message);
		carc_buf_addc(b, '}');
	}
	carc_buf_adds(b, "],");
	json_key(b, "board");
	carc_buf_adds(b, res->refereed ? "true}" : "false}");
	if (res->refereed)
		add_board(p, res, notes, nnotes);
	else
		carc_buf_printf(&p->boards, "<div class=\"board\" id=\"board-%zu\" hidden></div>\n", p->ngames);
	p->ngames++;
	return true;
}

/* Appends text with every '<' written as \u003c: inside a script element,
 * JSON must not close it ("</script>") or open a comment. The JSON has '<'
 * only within strings, where the escape means the same. */
static void add_script_safe(struct carc_buf *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '<')
			carc_buf_adds(out, "\\u003c");
		else
			carc_buf_addc(out, text[i]);
	}
}

static void add_page_file(struct carc_buf *out, const char *name)
{
	size_t len = 0;
	const char *text = carc_page_text(name, &len);
	if (text)
		carc_buf_add(out, text, len);
}

void carc_replay_write(struct carc_replay *p, struct carc_buf *out, const char *title, int open_turn)
{
	size_t len = 0;
	const char *tpl = carc_page_text("replay.html", &len);
	const char *end = tpl + len;
	/* the template's @NAME@ markers, each replaced by its part */
	while (tpl < end) {
		const char *at = memchr(tpl, '@', (size_t)(end - tpl));
		if (!at) {
			carc_buf_add(out, tpl, (size_t)(end - tpl));
			break;
		}
		carc_buf_add(out, tpl, (size_t)(at - tpl));
		const char *close = memchr(at + 1, '@', (size_t)(end - at - 1));
		size_t n = close ? (size_t)(close - at - 1) : 0;
		if (close && n == 5 && !memcmp(at + 1, "TITLE", 5)) {
			carc_svg_escape(out, title);
		} else if (close && n == 5 && !memcmp(at + 1, "STYLE", 5)) {
			add_page_file(out, "replay.css");
		} else if (close && n == 6 && !memcmp(at + 1, "SCRIPT", 6)) {
			add_page_file(out, "replay.js");
		} else if (close && n == 6 && !memcmp(at + 1, "BOARDS", 6)) {
			carc_buf_add(out, p->boards.data ? p->boards.data : "", p->boards.len);
		} else if (close && n == 4 && !memcmp(at + 1, "DATA", 4)) {
			carc_buf_printf(out, "{\"version\":\"%s\",\"open_turn\":%d,\"games\":[", CARC_VERSION, open_turn);
			add_script_safe(out, p->data.data ? p->data.data : "", p->data.len);
			carc_buf_adds(out, "]}");
		} else {
			carc_buf_addc(out, '@'); /* not a marker */
			tpl = at + 1;
			continue;
		}
		tpl = close + 1;
	}
}
