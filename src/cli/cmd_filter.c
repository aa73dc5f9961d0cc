/*
 * cmd_filter.c - carc filter: the games of an archive that meet every
 * condition given, written unchanged.
 *
 * Conditions (all must hold):
 *   --tag 'NAME OP VALUE'   a tag relation: = != (equal, ignoring case),
 *                           ~ (contains, ignoring case), < <= > >= (as
 *                           numbers when both sides are, else byte by byte,
 *                           so that YYYY-MM-DD dates compare as dates)
 *   --player NAME           a colour tag names NAME
 *   --winner NAME|COLOUR    a winner of the game (final scoring) is NAME
 *   --valid, --invalid      the referee's verdict
 *   --code CODE             a diagnostic CODE was reported on the game
 *   --where 'MEASURE OP N'  a figure of the refereed game (see measures[])
 * A selected game is written as its bytes in the input, the comments before
 * its tags included, so that filter | check | stats compose.
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/jobs.h"
#include "common/keyhash.h"
#include "notation/gameid.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum op { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_HAS };

enum cond_type { C_TAG, C_PLAYER, C_WINNER, C_VALID, C_INVALID, C_CODE, C_WHERE };

/* The figures --where compares, of the game as it stands at the end of its
 * record (after final scoring when it had one). */
enum measure {
	M_SCORE,    /* the highest score */
	M_LOW,      /* the lowest score */
	M_MARGIN,   /* the highest minus the second highest (0: a shared lead) */
	M_PLAYERS,  /* colours seated */
	M_TURNS,    /* the number of the last turn played */
	M_DISCARDS, /* discard lines */
	M_TILES,    /* KIND.tiles: tiles of the largest feature of that kind on the map */
	M_POINTS,   /* KIND.points: the most points one scoring of that kind paid a player */
};
static const char *const measures[] = {"score", "low", "margin", "players", "turns", "discards"};

struct cond {
	enum cond_type type;
	enum op op;
	const char *name;     /* C_TAG: the tag; C_WHERE: the kind (M_TILES, M_POINTS); C_PLAYER, C_WINNER */
	const char *value;    /* C_TAG */
	enum measure measure; /* C_WHERE */
	long number;          /* C_WHERE */
	enum carc_code code;  /* C_CODE */
	bool kind_seen;       /* M_TILES, M_POINTS: a game's tile set had the kind */
};

/* The ids of the games written, for --dedupe: open addressing, 16 bytes
 * a distinct game. */
struct id_set {
	struct carc_game_id *ids; /* {0, 0}: an empty slot (an id that is 0 is kept apart in zero_seen) */
	size_t count, cap;
	bool zero_seen;
};

struct filter {
	struct cond *conds;
	size_t nconds;
	FILE *out;
	bool ids, dedupe;
	struct id_set seen;
	unsigned long selected, repeats;
	unsigned long uncopied; /* selected games whose text the reader did not keep whole */
	bool kind_conds;                      /* a --where KIND.tiles or KIND.points */
	const struct carc_tileset *last_set;  /* the tile set whose kinds were noted last */
	struct carc_names kinds;              /* the kinds of the tile sets seen, for a message */
};

/* An id's first slot: under the keyed hash, since an id is a hash that a
 * writer of games can search for low bits in common (common/keyhash.h). */
static size_t id_slot(struct carc_game_id id, size_t cap)
{
	uint64_t w[2] = {id.hi, id.lo};
	return (size_t)carc_keyed_hash(w, sizeof w) & (cap - 1);
}

/* Adds an id; false when it was there already. */
static bool id_set_add(struct id_set *set, struct carc_game_id id)
{
	if (!id.hi && !id.lo) {
		bool fresh = !set->zero_seen;
		set->zero_seen = true;
		return fresh;
	}
	if (2 * (set->count + 1) > set->cap) { /* keep it at most half full */
		size_t cap = set->cap ? 2 * set->cap : 1024;
		struct carc_game_id *ids = xcalloc(cap, sizeof *ids);
		for (size_t i = 0; i < set->cap; i++) {
			if (!set->ids[i].hi && !set->ids[i].lo)
				continue;
			size_t s = id_slot(set->ids[i], cap);
			while (ids[s].hi || ids[s].lo)
				s = (s + 1) & (cap - 1);
			ids[s] = set->ids[i];
		}
		free(set->ids);
		set->ids = ids;
		set->cap = cap;
	}
	size_t s = id_slot(id, set->cap);
	for (; set->ids[s].hi || set->ids[s].lo; s = (s + 1) & (set->cap - 1))
		if (set->ids[s].hi == id.hi && set->ids[s].lo == id.lo)
			return false;
	set->ids[s] = id;
	set->count++;
	return true;
}

/* -1, 0 or 1 as a is less than, equal to or more than b: as whole numbers
 * when both are, else byte by byte. */
static int compare_values(const char *a, const char *b)
{
	char *ea, *eb;
	errno = 0;
	long long na = strtoll(a, &ea, 10), nb = strtoll(b, &eb, 10);
	if (*a && *b && !*ea && !*eb && !errno)
		return (na > nb) - (na < nb);
	int c = strcmp(a, b);
	return (c > 0) - (c < 0);
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return n == 0;
}

static bool relation(enum op op, const char *have, const char *want)
{
	switch (op) {
	case OP_EQ:
		return !strcasecmp(have, want);
	case OP_NE:
		return strcasecmp(have, want) != 0;
	case OP_HAS:
		return contains_nocase(have, want);
	case OP_LT:
		return compare_values(have, want) < 0;
	case OP_LE:
		return compare_values(have, want) <= 0;
	case OP_GT:
		return compare_values(have, want) > 0;
	default:
		return compare_values(have, want) >= 0;
	}
}

static bool compare_numbers(enum op op, long have, long want)
{
	switch (op) {
	case OP_EQ:
		return have == want;
	case OP_NE:
		return have != want;
	case OP_LT:
		return have < want;
	case OP_LE:
		return have <= want;
	case OP_GT:
		return have > want;
	default:
		return have >= want;
	}
}

/* A tag's value as the game has it: Rules and Edition are the rule set and
 * edition played, written or by default; other tags as written (unescaped),
 * NULL when absent. Unknown tags are found by name, ignoring case. */
static const char *tag_value(const struct carc_record *rec, const char *name, char *scratch, size_t size)
{
	int id = carc_tag_lookup(name, strlen(name));
	if (id == CARC_TAG_RULES)
		return rec->rules->name;
	if (id == CARC_TAG_EDITION) {
		snprintf(scratch, size, "%d", rec->edition);
		return scratch;
	}
	if (id != CARC_TAG_UNKNOWN)
		return carc_record_tag(rec, id);
	for (size_t i = 0; i < rec->ntags; i++) {
		const struct carc_tag *t = &rec->tags[i];
		if (carc_slice_ieq(rec->src.text + t->name.off, t->name.len, name))
			return carc_tag_text(rec, t);
	}
	return NULL;
}

/* Does a tile-set kind answer to the name in a --where? Its own name, or
 * "farm" for the fields and meadows (the area class). */
static bool kind_named(const struct carc_tileset *ts, int kind, const char *name)
{
	return !strcasecmp(ts->kinds[kind].name, name) ||
	       (!strcasecmp(name, "farm") && ts->kinds[kind].klass == CARC_CLASS_AREA);
}

/* Whether the tile set has a kind that answers to name ("farm": any field). */
static bool has_kind(const struct carc_tileset *ts, const char *name)
{
	for (int k = 0; k < ts->nkinds; k++)
		if (kind_named(ts, k, name) || (!strcasecmp(name, "farm") && ts->kinds[k].klass == CARC_CLASS_AREA))
			return true;
	return false;
}

/* The figure of a --where for a refereed game; false when the game has
 * none (it was not refereed). */
static bool has_kind(const struct carc_tileset *ts, const char *name);

static bool measure(const struct carc_archive_game *game, const struct cond *c, long *value)
{
	const struct carc_record *rec = game->rec;
	const struct carc_result *res = game->res;
	if (c->measure == M_PLAYERS) {
		*value = rec->nseats;
		return true;
	}
	if (c->measure == M_DISCARDS) {
		long n = 0;
		for (size_t i = 0; i < rec->nmoves; i++)
			n += rec->moves[i].discard;
		*value = n;
		return true;
	}
	if (!res || !res->refereed || !rec->tileset)
		return false;
	if ((c->measure == M_TILES || c->measure == M_POINTS) && !has_kind(rec->tileset, c->name))
		return false; /* a kind the game's tile set has not: no figure (said at the end if none has) */
	long best = LONG_MIN, second = LONG_MIN, low = LONG_MAX;
	switch (c->measure) {
	case M_SCORE:
	case M_LOW:
	case M_MARGIN:
		for (int s = 0; s < rec->nseats; s++) {
			long v = res->scores[rec->seats[s]];
			if (v > best) {
				second = best;
				best = v;
			} else if (v > second) {
				second = v;
			}
			if (v < low)
				low = v;
		}
		if (!rec->nseats)
			return false;
		*value = c->measure == M_SCORE ? best : c->measure == M_LOW ? low
					: best - (second == LONG_MIN ? 0 : second);
		return true;
	case M_TURNS:
		*value = res->last_turn;
		return true;
	case M_TILES: {
		int tiles[CARC_MAX_KINDS];
		carc_archive_largest(game, tiles);
		long most = 0;
		for (int k = 0; k < rec->tileset->nkinds && k < CARC_MAX_KINDS; k++)
			if (kind_named(rec->tileset, k, c->name) && tiles[k] > most)
				most = tiles[k];
		*value = most;
		return true;
	}
	default: { /* M_POINTS */
		size_t n;
		const struct carc_event *ev = carc_archive_events(game, &n);
		const struct carc_tileset *ts = rec->tileset;
		/* fields and meadows score as farms: "farm", "field" and
		 * "meadow" ask for the farms' scorings (whatever kind a 1st
		 * edition farm scoring names: the city) */
		bool farm = false;
		for (int k = 0; k < ts->nkinds; k++)
			farm |= ts->kinds[k].klass == CARC_CLASS_AREA && kind_named(ts, k, c->name);
		farm |= !strcasecmp(c->name, "farm");
		long most = 0;
		for (size_t i = 0; i < n; i++) {
			bool is_farm = ev[i].source == CARC_SRC_AREA; /* farms, meadows */
			bool match = farm ? is_farm
					  : !is_farm && ev[i].kind < ts->nkinds && kind_named(ts, ev[i].kind, c->name);
			if (match && ev[i].winners && ev[i].points > most)
				most = ev[i].points;
		}
		*value = most;
		return true;
	}
	}
}

static bool named(const struct carc_record *rec, int seat, const char *who)
{
	const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[seat]);
	return (name && !strcasecmp(name, who)) || !strcasecmp(carc_colour_name(rec->seats[seat]), who);
}

static bool holds(const struct carc_archive_game *game, const struct cond *c)
{
	const struct carc_record *rec = game->rec;
	char scratch[16];
	const char *v;
	long value;
	switch (c->type) {
	case C_TAG:
		v = tag_value(rec, c->name, scratch, sizeof scratch);
		return v ? relation(c->op, v, c->value) : c->op == OP_NE;
	case C_PLAYER:
		for (int s = 0; s < rec->nseats; s++) {
			const char *name = carc_record_tag(rec, CARC_TAG_KNOWN + rec->seats[s]);
			if (name && !strcasecmp(name, c->name))
				return true;
		}
		return false;
	case C_WINNER: {
		uint8_t winners = carc_archive_winners(game);
		for (int s = 0; s < rec->nseats; s++)
			if ((winners & (1u << rec->seats[s])) && named(rec, s, c->name))
				return true;
		return false;
	}
	case C_VALID:
		return game->errors == 0;
	case C_INVALID:
		return game->errors != 0;
	case C_CODE:
		return game->codes[c->code] != 0;
	default:
		return measure(game, c, &value) && compare_numbers(c->op, value, c->number);
	}
}

/* Notes which kinds of the --where conditions the game's tile set has, and
 * its kinds' names (once a tile set). */
static void note_kinds(struct filter *f, const struct carc_tileset *ts)
{
	if (!ts || ts == f->last_set)
		return;
	f->last_set = ts;
	for (int k = 0; k < ts->nkinds; k++)
		carc_names_intern(&f->kinds, ts->kinds[k].name);
	for (size_t i = 0; i < f->nconds; i++) {
		struct cond *c = &f->conds[i];
		if (c->type == C_WHERE && (c->measure == M_TILES || c->measure == M_POINTS) && !c->kind_seen)
			c->kind_seen = has_kind(ts, c->name);
	}
}

/* Letters to change, add or drop to make a into b (case ignored), for a
 * suggestion; both are short (a kind's name). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(b), row[64];
	if (n >= 64 || strlen(a) >= 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= n; j++)
		row[j] = j;
	for (size_t i = 1; a[i - 1]; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= n; j++) {
			size_t up = row[j];
			size_t best = diag + ((a[i - 1] | 0x20) != (b[j - 1] | 0x20));
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[n];
}

/* After the pass: a KIND that no game's tile set has is an error that names
 * the kinds there are (and the closest, when one is close). */
static bool kinds_known(const struct filter *f)
{
	bool ok = true;
	for (size_t i = 0; i < f->nconds; i++) {
		const struct cond *c = &f->conds[i];
		if (c->type != C_WHERE || (c->measure != M_TILES && c->measure != M_POINTS) || c->kind_seen ||
		    !f->kinds.count)
			continue;
		struct carc_buf msg = {0};
		const char *close = NULL;
		size_t best = 3; /* a suggestion within two edits */
		for (size_t k = 0; k < f->kinds.count; k++) {
			const char *kind = carc_names_get(&f->kinds, k);
			carc_buf_printf(&msg, "%s%s", k ? ", " : "", kind);
			size_t d = edit_distance(c->name, kind);
			if (d < best) {
				best = d;
				close = kind;
			}
		}
		if (edit_distance(c->name, "farm") < best)
			close = "farm";
		fprintf(stderr, "carc filter: --where %s.%s: no game's tile set has a feature kind '%s' (the kinds "
			"are %s, and farm for any field)%s%s%s\n", c->name, c->measure == M_TILES ? "tiles" : "points",
			c->name, carc_buf_cstr(&msg), close ? "; did you mean '" : "", close ? close : "",
			close ? "'?" : "");
		carc_buf_free(&msg);
		ok = false;
	}
	return ok;
}

static void each_game(void *ctx, const struct carc_archive_game *game)
{
	struct filter *f = ctx;
	if (f->kind_conds)
		note_kinds(f, game->rec->tileset);
	for (size_t i = 0; i < f->nconds; i++)
		if (!holds(game, &f->conds[i]))
			return;
	if (game->rec->text_cut) {
		/* The reader kept only part of this game's bytes (to bound its
		 * memory): what it holds is another game, which must not go out
		 * as this one, nor its id as this one's. */
		struct carc_buf name = {0};
		carc_text_shown(&name, game->file, strlen(game->file));
		fprintf(stderr, "carc filter: %s:%u: game %u is left out: the reader skipped part of its text (a line "
			"over 65536 bytes, E003, or the rest of the input, E002 or E031), so it cannot be copied byte "
			"for byte\n", carc_buf_cstr(&name), game->rec->src.base_line, game->rec->index);
		carc_buf_free(&name);
		f->uncopied++;
		return;
	}
	if (f->ids || f->dedupe) {
		struct carc_game_id id = carc_game_id(game->rec);
		if (f->dedupe && !id_set_add(&f->seen, id)) {
			f->repeats++;
			return;
		}
		if (f->ids) {
			char hex[CARC_GAME_ID_HEX + 1];
			fprintf(f->out, "%s\n", carc_game_id_hex(id, hex));
			f->selected++;
			return;
		}
	}
	f->selected++;
	const struct carc_src *src = &game->rec->src;
	fwrite(src->text, 1, src->len, f->out);
	/* a file's last game may end without a newline: the next game written
	 * must still start on a line of its own */
	if (src->len && src->text[src->len - 1] != '\n')
		fputc('\n', f->out);
}

/* Splits "NAME OP VALUE" at its operator (the first of = ! < > ~ after the
 * name). Returns the operator's length, 0 when there is none. */
static size_t split_relation(const char *s, size_t *name_len, enum op *op, bool tilde)
{
	size_t n = strcspn(s, tilde ? "=!<>~" : "=!<>");
	*name_len = n;
	const char *p = s + n;
	if (!strncmp(p, "!=", 2))
		return *op = OP_NE, 2;
	if (!strncmp(p, "<=", 2))
		return *op = OP_LE, 2;
	if (!strncmp(p, ">=", 2))
		return *op = OP_GE, 2;
	if (*p == '=')
		return *op = OP_EQ, 1;
	if (*p == '<')
		return *op = OP_LT, 1;
	if (*p == '>')
		return *op = OP_GT, 1;
	if (*p == '~' && tilde)
		return *op = OP_HAS, 1;
	return 0;
}

/* Trims blanks on both sides, in place. */
static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

static bool is_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* --tag 'NAME OP VALUE': false (having said why) when it is not one. */
static bool parse_tag(char *arg, struct cond *c)
{
	size_t n, oplen = split_relation(arg, &n, &c->op, true);
	if (!oplen) {
		carc_usage_error("filter", "--tag '%s' has no operator: write NAME=VALUE (or != < <= > >= ~)", arg);
		return false;
	}
	char *value = arg + n + oplen;
	arg[n] = '\0';
	c->type = C_TAG;
	c->name = trim(arg);
	c->value = trim(value);
	if (!is_name(c->name)) {
		carc_usage_error("filter", "--tag: '%s' is not a tag name (a letter, then letters, digits or _)",
				 c->name);
		return false;
	}
	return true;
}

/* --where 'MEASURE OP N': false (having said why) when it is not one. */
static bool parse_where(char *arg, struct cond *c)
{
	size_t n, oplen = split_relation(arg, &n, &c->op, false);
	if (!oplen) {
		carc_usage_error("filter", "--where '%s' has no operator: write MEASURE OP NUMBER, as in city.tiles>=10",
				 arg);
		return false;
	}
	char *number = trim(arg + n + oplen), *end;
	arg[n] = '\0';
	char *what = trim(arg);
	c->type = C_WHERE;
	errno = 0;
	c->number = strtol(number, &end, 10);
	if (!*number || *end || errno || c->number < -1000000000L || c->number > 1000000000L) {
		carc_usage_error("filter", "--where %s: '%s' is not a whole number", what, number);
		return false;
	}
	for (size_t i = 0; i < CARC_ARRAY_LEN(measures); i++)
		if (!strcasecmp(what, measures[i])) {
			c->measure = (enum measure)i;
			return true;
		}
	char *dot = strchr(what, '.');
	if (dot && is_name(dot + 1) && dot > what) {
		*dot = '\0';
		c->name = what;
		if (is_name(what) && (!strcasecmp(dot + 1, "tiles") || !strcasecmp(dot + 1, "points"))) {
			c->measure = !strcasecmp(dot + 1, "tiles") ? M_TILES : M_POINTS;
			return true;
		}
		*dot = '.';
	}
	carc_usage_error("filter",
			 "--where: '%s' is not a measure: score, low, margin, players, turns, discards, "
			 "KIND.tiles or KIND.points",
			 what);
	return false;
}

static void help(void)
{
	printf("usage: carc filter [OPTIONS] FILE...|-\n\n"
	       "Write the games of the files that meet every condition given, each exactly\n"
	       "as it is in its file (its comments included), so that the output is an\n"
	       "archive itself: carc filter ... | carc check -.\n\n"
	       "conditions (each may be given several times; a game must meet them all):\n"
	       "  -t, --tag 'NAME OP VALUE'  a tag: = and != (ignoring case), ~ (contains),\n"
	       "                       < <= > >= (as numbers, else as text: dates work);\n"
	       "                       Rules and Edition are those played, written or not;\n"
	       "                       a missing tag meets only !=\n"
	       "  -p, --player NAME    a colour tag names NAME\n"
	       "      --winner NAME    NAME (a player's name or a colour) won or shared the win\n"
	       "      --valid          the game is valid (no error)\n"
	       "      --invalid        the game has an error\n"
	       "  -c, --code CODE      a diagnostic CODE (E205, W001, ...) was reported on it\n"
	       "  -w, --where 'MEASURE OP N'  a figure of the game compared with N (= != < <=\n"
	       "                       > >=): score (the highest), low (the lowest), margin,\n"
	       "                       players, turns, discards, KIND.tiles (the largest\n"
	       "                       feature of a kind: city.tiles>=10), KIND.points (the\n"
	       "                       most one scoring of a kind paid: farm.points>=30);\n"
	       "                       a KIND no game's tile set has is an error\n\n"
	       "options:\n"
	       "      --ids            write each selected game's id (see carc-filter(1)),\n"
	       "                       one a line, instead of the game\n"
	       "  -u, --dedupe         write a game only the first time its id is met\n"
	       "  -o, --output FILE    write the games to FILE\n"
	       "  -j, --jobs N         use N threads (the output is the same)\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME     name standard input NAME in messages and output\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "A game the reader could not keep whole (a line over 65536 bytes) is\n"
	       "never written: it is named on standard error, and the exit status is 2.\n\n"
	       "exit status: 0 a game was selected, 1 none was, 2 could not run or a\n"
	       "selected game could not be copied whole.\n");
}

int cmd_filter(int argc, char **argv)
{
	enum { OPT_WINNER = 256, OPT_VALID, OPT_INVALID, OPT_IDS };
	static const struct option longopts[] = {
		{"tag", required_argument, NULL, 't'},     {"player", required_argument, NULL, 'p'},
		{"winner", required_argument, NULL, OPT_WINNER}, {"valid", no_argument, NULL, OPT_VALID},
		{"invalid", no_argument, NULL, OPT_INVALID}, {"code", required_argument, NULL, 'c'},
		{"where", required_argument, NULL, 'w'},   {"output", required_argument, NULL, 'o'},
		{"ids", no_argument, NULL, OPT_IDS},       {"dedupe", no_argument, NULL, 'u'},
		CARC_TILESET_PATH_OPTION, {"label", required_argument, NULL, CARC_OPT_LABEL},
		CARC_JOBS_OPTION,
		{"help", no_argument, NULL, 'h'},          {"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct filter f = {0};
	f.conds = xcalloc((size_t)argc, sizeof *f.conds); /* at most one a word */
	const char *output = NULL;
	int jobs = 1;
	bool referee = false;
	int c, status = CARC_EXIT_TROUBLE;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":t:p:c:w:uo:j:hV", longopts, NULL)) != -1) {
		struct cond *cd = &f.conds[f.nconds];
		switch (c) {
		case 't':
			if (!parse_tag(optarg, cd))
				goto done;
			f.nconds++;
			break;
		case 'p':
		case OPT_WINNER:
			*cd = (struct cond){.type = c == 'p' ? C_PLAYER : C_WINNER, .name = optarg};
			referee |= c == OPT_WINNER;
			f.nconds++;
			break;
		case OPT_VALID:
		case OPT_INVALID:
			*cd = (struct cond){.type = c == OPT_VALID ? C_VALID : C_INVALID};
			referee = true;
			f.nconds++;
			break;
		case 'c':
			*cd = (struct cond){.type = C_CODE, .code = carc_code_lookup(optarg)};
			if (cd->code == CARC_CODE_COUNT) {
				carc_usage_error("filter", "--code: '%s' is not a diagnostic code (see cgn(5))", optarg);
				goto done;
			}
			referee = true;
			f.nconds++;
			break;
		case 'w':
			if (!parse_where(optarg, cd))
				goto done;
			f.kind_conds |= cd->measure == M_TILES || cd->measure == M_POINTS;
			referee = true;
			f.nconds++;
			break;
		case OPT_IDS:
			f.ids = true;
			break;
		case 'u':
			f.dedupe = true;
			break;
		case 'j':
			if (!carc_jobs_option("filter", optarg, &jobs))
				goto done;
			break;
		case 'o':
			output = optarg;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("filter", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			status = CARC_EXIT_OK;
			goto done;
		case 'V':
			status = carc_print_version();
			goto done;
		default:
			status = carc_option_error("filter", c, argv);
			goto done;
		}
	}
	if (optind >= argc) {
		carc_usage_error("filter", "no input: give one or more files, or - for standard input");
		goto done;
	}
	struct carc_output to;
	if (!carc_output_open(&to, "filter", output))
		goto done;
	f.out = to.f;
	struct carc_archive_totals t = {0};
	carc_archive_each(argv + optind, argc - optind, referee, jobs, each_game, &f, &t);
	bool written = carc_output_close(&to, !t.unreadable);
	bool kinds_ok = kinds_known(&f);
	if (!written || t.unreadable || (t.trouble && referee) || f.uncopied || !kinds_ok)
		status = CARC_EXIT_TROUBLE;
	else
		status = f.selected ? CARC_EXIT_OK : CARC_EXIT_INVALID;
done:
	free(f.conds);
	free(f.seen.ids);
	carc_names_free(&f.kinds);
	return status;
}
