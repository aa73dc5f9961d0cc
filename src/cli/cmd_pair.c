/*
 * cmd_pair.c - carc pair: the next round of a Swiss tournament (swiss.h)
 * or of a knock-out bracket, written as CGN tag sections.
 *
 * Inputs: the players file (registration order, ratings or draw numbers,
 * who is absent or withdrawn; carc-pair(1) has its grammar) and the games
 * so far (played.h reads their outcomes). The games are kept as a few
 * numbers each and replayed in round order to give each player a score,
 * byes, the roles played and the opponents met (a hash set of pairs), so
 * the time is linear in the games plus the pairing's own (swiss.h).
 */
#include "cli/archive.h"
#include "cli/cli.h"
#include "cli/played.h"
#include "cli/standings.h"
#include "cli/swiss.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

enum status { PRESENT, ABSENT, WITHDRAWN };

struct entrant {
	double number;             /* the rating or draw number */
	bool has_number;
	enum status status;
	unsigned line;
	/* from the games */
	double score;
	unsigned byes;             /* byes and wins without play */
	int balance;
	char last_role;
	unsigned streak;
	unsigned opponents;
	size_t seed_rank;          /* the knock-out's seeding: the rank in the Swiss standings */
};

/* A game as the pairing needs it. */
struct game {
	unsigned round;            /* Swiss: the number; knock-out: the bracket size */
	uint32_t a, b;             /* a started; b NONE for a bye */
	enum played_kind kind;
	int winner;                /* 0 a, 1 b, -1 level */
	uint64_t seq;
	const char *file_name;     /* (interned) */
	unsigned line, index;
};

struct pair {
	const char *players_path;
	const char *event;
	bool event_given;
	enum played_level level;
	bool draw_numbers;
	bool random;
	uint64_t seed;
	unsigned knockout;
	bool third_place;          /* --third-place: the semi-finals' losers meet */
	struct carc_names names;   /* players, in registration order */
	struct entrant *ent;
	struct carc_names files, events;
	struct game *games;
	size_t ngames, games_cap;
	struct carc_standings *seeding; /* --knockout: the standings of the Swiss games */
	uint64_t *met;             /* open addressing, key (lo << 32 | hi) + 1 */
	size_t met_cap, met_count;
	bool fault;                /* a fault in the inputs was reported */
	uint64_t seq;
	unsigned last_round;
	const uint32_t *rank_to_id; /* during a Swiss round */
};

static bool say(struct pair *pr, const char *fmt, ...) CARC_PRINTF(2, 3);
static bool say(struct pair *pr, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("carc pair: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	pr->fault = true;
	return false;
}

/* ---- the players file ---- */

static bool parse_number(const char *p, size_t len, double *v)
{
	size_t i = 0, digits = 0;
	while (i < len && p[i] >= '0' && p[i] <= '9')
		i++, digits++;
	if (i < len && p[i] == '.') {
		i++;
		while (i < len && p[i] >= '0' && p[i] <= '9')
			i++, digits++;
	}
	if (!digits || i != len || len > 12)
		return false;
	char buf[16];
	memcpy(buf, p, len);
	buf[len] = 0;
	*v = strtod(buf, NULL);
	return true;
}

/* One line: [NAME | "NAME"] [NUMBER] [absent | withdrawn] [; comment]. */
static bool players_line(struct pair *pr, const char *path, unsigned lineno, char *line)
{
	size_t len = strlen(line);
	if (len && line[len - 1] == '\r')
		line[--len] = 0;
	char name[512];
	size_t nlen = 0;
	size_t i = 0;
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	size_t name_col = i + 1;
	if (!line[i] || line[i] == ';')
		return true;
	for (size_t j = 0; j < len; j++) {
		unsigned char ch = (unsigned char)line[j];
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return say(pr, "%s:%u:%zu: a control character in a player's line", path, lineno, j + 1);
		if (ch >= 0x80) {
			size_t n = carc_utf8_len(line + j, len - j);
			if (!n)
				return say(pr, "%s:%u:%zu: malformed UTF-8 (byte 0x%02x); the players file is UTF-8 text",
					   path, lineno, j + 1, ch);
			j += n - 1;
		}
	}
	const char *rest;
	if (line[i] == '"') {
		size_t j = i + 1;
		for (; line[j] && line[j] != '"'; j++) {
			if (line[j] == '\\' && (line[j + 1] == '"' || line[j + 1] == '\\'))
				j++;
			if (nlen + 1 >= sizeof name)
				return say(pr, "%s:%u:%zu: a name longer than 500 bytes", path, lineno, name_col);
			name[nlen++] = line[j];
		}
		if (line[j] != '"')
			return say(pr, "%s:%u:%zu: the quoted name has no closing quote", path, lineno, name_col);
		rest = line + j + 1;
	} else {
		/* the words; from the end, a status word, then a number */
		char *end = strchr(line + i, ';');
		size_t stop = end ? (size_t)(end - line) : len;
		while (stop > i && (line[stop - 1] == ' ' || line[stop - 1] == '\t'))
			stop--;
		rest = line + stop;
		for (int part = 0; part < 2; part++) {
			size_t w = stop;
			while (w > i && line[w - 1] != ' ' && line[w - 1] != '\t')
				w--;
			if (w == i)
				break; /* the last word is the name */
			double v;
			bool status = part == 0 && ((stop - w == 6 && !strncmp(line + w, "absent", 6)) ||
						    (stop - w == 9 && !strncmp(line + w, "withdrawn", 9)));
			if (!status && !parse_number(line + w, stop - w, &v))
				break;
			rest = line + w;
			stop = w;
			while (stop > i && (line[stop - 1] == ' ' || line[stop - 1] == '\t'))
				stop--;
			if (status)
				continue;
			break;
		}
		if (stop - i >= sizeof name)
			return say(pr, "%s:%u:%zu: a name longer than 500 bytes", path, lineno, name_col);
		memcpy(name, line + i, stop - i);
		nlen = stop - i;
	}
	name[nlen] = 0;
	if (!nlen)
		return say(pr, "%s:%u:%zu: an empty name", path, lineno, name_col);
	struct entrant e = {.status = PRESENT, .line = lineno};
	/* what follows the name: a number, a status word, a comment */
	const char *p = rest;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == ';')
			break;
		size_t w = strcspn(p, " \t;");
		size_t col = (size_t)(p - line) + 1;
		double v;
		if (e.status == PRESENT && !e.has_number && parse_number(p, w, &v)) {
			e.number = v;
			e.has_number = true;
		} else if (e.status == PRESENT && w == 6 && !strncmp(p, "absent", 6)) {
			e.status = ABSENT;
		} else if (e.status == PRESENT && w == 9 && !strncmp(p, "withdrawn", 9)) {
			e.status = WITHDRAWN;
		} else {
			return say(pr, "%s:%u:%zu: '%.*s' is neither a rating (a number) nor absent or withdrawn", path,
				   lineno, col, (int)w, p);
		}
		p += w;
	}
	size_t before = pr->names.count;
	size_t id = carc_names_intern(&pr->names, name);
	if (id < before)
		return say(pr, "%s:%u:%zu: '%s' is listed twice (first on line %u)", path, lineno, name_col, name,
			   pr->ent[id].line);
	pr->ent = xrealloc(pr->ent, pr->names.count * sizeof *pr->ent);
	pr->ent[id] = e;
	return true;
}

static bool read_players(struct pair *pr)
{
	const char *path = pr->players_path;
	FILE *f = carc_open_input_or_say(path);
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;
	bool ok = true;
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if ((size_t)n != strlen(line)) {
			ok = say(pr, "%s:%u:1: a NUL byte in the players file", carc_input_name(path), lineno);
			break;
		}
		if (n > 4096) {
			ok = say(pr, "%s:%u:1: a line longer than 4096 bytes", carc_input_name(path), lineno);
			break;
		}
		if (n && line[n - 1] == '\n')
			line[n - 1] = 0;
		char *text = line;
		if (lineno == 1 && !strncmp(text, "\xef\xbb\xbf", 3))
			text += 3; /* a byte-order mark */
		if (!players_line(pr, carc_input_name(path), lineno, text))
			ok = false;
	}
	if (ok && ferror(f)) {
		carc_say_cannot(carc_input_name(path), "read", errno);
		ok = false;
	}
	free(line);
	carc_close_input(f);
	if (ok && !pr->names.count)
		ok = say(pr, "%s: no players", carc_input_name(path));
	return ok;
}

/* ---- the games ---- */

static uint64_t met_key(uint32_t a, uint32_t b)
{
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
	return ((uint64_t)lo << 32 | hi) + 1;
}

static size_t met_slot(const struct pair *pr, uint64_t key)
{
	size_t s = (size_t)(key * 0x9e3779b97f4a7c15u >> 20) & (pr->met_cap - 1);
	while (pr->met[s] && pr->met[s] != key)
		s = (s + 1) & (pr->met_cap - 1);
	return s;
}

static bool have_met(const struct pair *pr, uint32_t a, uint32_t b)
{
	return pr->met_cap && pr->met[met_slot(pr, met_key(a, b))];
}

/* Records that a and b met; true when it is the first time. */
static bool add_met(struct pair *pr, uint32_t a, uint32_t b)
{
	if (2 * (pr->met_count + 1) > pr->met_cap) {
		size_t cap = pr->met_cap ? 2 * pr->met_cap : 256;
		uint64_t *old = pr->met;
		size_t old_cap = pr->met_cap;
		pr->met = xcalloc(cap, sizeof *pr->met);
		pr->met_cap = cap;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				pr->met[met_slot(pr, old[i])] = old[i];
		free(old);
	}
	size_t s = met_slot(pr, met_key(a, b));
	if (pr->met[s])
		return false;
	pr->met[s] = met_key(a, b);
	pr->met_count++;
	return true;
}

/* The bracket size of a knock-out round name ("F" 2, "SF" 4, "QF" 8,
 * "R16" 16, ...; the match for third place "3rd", a round beside the final,
 * THIRD), 0 when name is none. */
enum { THIRD = 1 };
static unsigned knockout_size(const char *name)
{
	if (!strcmp(name, "3rd"))
		return THIRD;
	if (!strcmp(name, "F"))
		return 2;
	if (!strcmp(name, "SF"))
		return 4;
	if (!strcmp(name, "QF"))
		return 8;
	if (name[0] == 'R' && name[1] >= '1' && name[1] <= '9') {
		char *end;
		unsigned long v = strtoul(name + 1, &end, 10);
		if (!*end && v >= 16 && v <= 1024 && !(v & (v - 1)))
			return (unsigned)v;
	}
	return 0;
}

static void knockout_name(unsigned size, char *out, size_t cap)
{
	if (size <= 8)
		snprintf(out, cap, "%s", size == 2 ? "F" : size == 4 ? "SF" : "QF");
	else
		snprintf(out, cap, "R%u", size);
}

static uint32_t player_id(struct pair *pr, const struct carc_archive_game *game, const char *name)
{
	size_t before = pr->names.count;
	size_t id = carc_names_intern(&pr->names, name); /* (a new name is dropped below) */
	if (id < before)
		return (uint32_t)id;
	say(pr, "%s:%u: game %u: '%s' is not in the players file %s", game->file, game->rec->src.base_line,
	    game->rec->index, name, carc_input_name(pr->players_path));
	pr->ent = xrealloc(pr->ent, pr->names.count * sizeof *pr->ent);
	pr->ent[id] = (struct entrant){.status = WITHDRAWN};
	return NONE;
}

static void each_game(void *ctx, const struct carc_archive_game *game)
{
	struct pair *pr = ctx;
	struct played p;
	const char *why = played_read(game, pr->level, &p);
	if (pr->event_given && (!p.event || strcmp(p.event, pr->event)))
		return;
	if (!pr->event_given) {
		if (!p.event) {
			say(pr, "%s:%u: game %u has no Event tag (name the event with --event)", game->file,
			    game->rec->src.base_line, game->rec->index);
			return;
		}
		carc_names_intern(&pr->events, p.event);
	}
	const char *where = game->file;
	unsigned line = game->rec->src.base_line, index = game->rec->index;
	unsigned round = 0;
	bool ko = false;
	if (p.round && p.round[0] >= '1' && p.round[0] <= '9' && strlen(p.round) <= 4 &&
	    strspn(p.round, "0123456789") == strlen(p.round)) {
		round = (unsigned)atoi(p.round);
	} else if (p.round && knockout_size(p.round)) {
		round = knockout_size(p.round);
		ko = true;
	} else {
		say(pr, "%s:%u: game %u: its Round tag is %s%s%s, neither a Swiss round number nor a knock-out "
			"round (F, SF, QF, R16, R32, ..., 3rd)", where, line, index, p.round ? "'" : "",
		    p.round ? p.round : "missing", p.round ? "'" : "");
		return;
	}
	if (ko != (pr->knockout > 0) && ko)
		return; /* a Swiss pairing reads only the Swiss rounds */
	if (why) {
		say(pr, "%s:%u: game %u (round %s) cannot be counted: %s", where, line, index, p.round, why);
		return;
	}
	if (p.nseats > 2) {
		say(pr, "%s:%u: game %u: a Swiss or knock-out game is of two players", where, line, index);
		return;
	}
	uint32_t a = player_id(pr, game, p.names[0]);
	uint32_t b = p.nseats == 2 ? player_id(pr, game, p.names[1]) : NONE;
	if (a == NONE || (p.nseats == 2 && b == NONE))
		return;
	if (pr->ngames == pr->games_cap) {
		pr->games_cap = pr->games_cap ? 2 * pr->games_cap : 256;
		pr->games = xrealloc(pr->games, pr->games_cap * sizeof *pr->games);
	}
	struct game *g = &pr->games[pr->ngames++];
	*g = (struct game){.round = ko ? 0 : round, .a = a, .b = b, .kind = p.kind, .winner = p.winner,
			   .seq = pr->seq++, .line = line, .index = index,
			   .file_name = carc_names_get(&pr->files, carc_names_intern(&pr->files, where))};
	if (ko)
		g->round = round | 0x80000000u; /* a knock-out round, by its size */
	if (pr->seeding && !ko)
		carc_standings_add(pr->seeding, &p.outcome);
	if (!ko && round > pr->last_round)
		pr->last_round = round;
}

static int by_round(const void *x, const void *y)
{
	const struct game *a = x, *b = y;
	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Plays the Swiss games in round order into the entrants' state. */
static void replay(struct pair *pr)
{
	if (pr->ngames) /* (qsort takes no NULL, even for none) */
		qsort(pr->games, pr->ngames, sizeof *pr->games, by_round);
	for (size_t i = 0; i < pr->ngames; i++) {
		const struct game *g = &pr->games[i];
		if (g->round & 0x80000000u)
			continue;
		struct entrant *a = &pr->ent[g->a];
		if (g->b == NONE) { /* a bye */
			a->score += 1;
			a->byes++;
			continue;
		}
		struct entrant *b = &pr->ent[g->b];
		double sa = g->winner < 0 ? 0.5 : g->winner == 0;
		a->score += sa;
		b->score += 1 - sa;
		if (!PLAYED_OVER_THE_BOARD(g->kind)) { /* a win without play counts as a bye for the bye */
			if (g->winner >= 0)
				(g->winner == 0 ? a : b)->byes++;
			continue;
		}
		if (add_met(pr, g->a, g->b)) {
			a->opponents++;
			b->opponents++;
		}
		a->balance++;
		b->balance--;
		a->streak = a->last_role == 'F' ? a->streak + 1 : 1;
		a->last_role = 'F';
		b->streak = b->last_role == 'S' ? b->streak + 1 : 1;
		b->last_role = 'S';
	}
}

/* ---- writing sections ---- */

static void tag(struct carc_buf *b, const char *name, const char *value)
{
	carc_buf_printf(b, "[%s \"", name);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			carc_buf_addc(b, '\\');
		carc_buf_addc(b, *p);
	}
	carc_buf_adds(b, "\"]\n");
}

static void section(struct carc_buf *b, const struct pair *pr, const char *round, unsigned board, uint32_t first,
		    uint32_t second, const char *note)
{
	char num[32];
	if (b->len)
		carc_buf_addc(b, '\n');
	if (note)
		carc_buf_printf(b, "; %s\n", note);
	tag(b, "Event", pr->event);
	tag(b, "Round", round);
	snprintf(num, sizeof num, "%u", board);
	tag(b, "Board", num);
	tag(b, "Seats", second == NONE ? "red" : "red green");
	tag(b, "Red", carc_names_get(&pr->names, first));
	if (second != NONE)
		tag(b, "Green", carc_names_get(&pr->names, second));
	else
		tag(b, "Termination", "bye");
}

/* ---- the Swiss round ---- */

static const struct pair *ranking;
static int by_standing(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct entrant *a = &ranking->ent[i], *b = &ranking->ent[j];
	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (!ranking->draw_numbers && !ranking->random && a->has_number != b->has_number)
		return a->has_number ? -1 : 1;
	if (!ranking->draw_numbers && !ranking->random && a->number != b->number)
		return a->number > b->number ? -1 : 1;
	return i < j ? -1 : i > j;
}

static bool met_ranked(void *ctx, size_t a, size_t b)
{
	const struct pair *pr = ctx;
	return have_met(pr, pr->rank_to_id[a], pr->rank_to_id[b]);
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static const struct pair *numbering;
static int by_draw_number(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	double a = numbering->ent[i].number, b = numbering->ent[j].number;
	return a < b ? -1 : a > b;
}

static bool first_round(struct pair *pr, struct carc_buf *out)
{
	size_t n = pr->names.count, m = 0;
	uint32_t *list = xmalloc((n + 1) * sizeof *list);
	for (size_t i = 0; i < n; i++)
		if (pr->ent[i].status == PRESENT)
			list[m++] = (uint32_t)i;
	if (pr->draw_numbers) {
		for (size_t i = 0; i < m; i++) {
			if (!pr->ent[list[i]].has_number) {
				uint32_t x = list[i];
				free(list);
				return say(pr, "%s:%u: %s has no draw number (--draw-numbers)",
					   carc_input_name(pr->players_path), pr->ent[x].line, carc_names_get(&pr->names, x));
			}
		}
		numbering = pr;
		qsort(list, m, sizeof *list, by_draw_number);
		for (size_t i = 1; i < m; i++)
			if (pr->ent[list[i]].number == pr->ent[list[i - 1]].number) {
				uint32_t x = list[i];
				free(list);
				return say(pr, "%s:%u: %s has the draw number of another player",
					   carc_input_name(pr->players_path), pr->ent[x].line, carc_names_get(&pr->names, x));
			}
	} else if (pr->random) {
		uint64_t s = pr->seed;
		for (size_t i = m; i > 1; i--) {
			size_t j = (size_t)(splitmix(&s) % i);
			uint32_t t = list[i - 1];
			list[i - 1] = list[j];
			list[j] = t;
		}
	} else {
		ranking = pr; /* all scores 0: by rating, then registration */
		qsort(list, m, sizeof *list, by_standing);
	}
	uint32_t bye = NONE;
	if (m % 2)
		bye = list[--m];
	size_t half = m / 2;
	unsigned board = 1;
	for (size_t i = 0; i < half; i++, board++) {
		uint32_t top = list[i], bottom = list[i + half];
		bool top_starts = board % 2 == 1;
		section(out, pr, "1", board, top_starts ? top : bottom, top_starts ? bottom : top, NULL);
	}
	if (bye != NONE)
		section(out, pr, "1", board, bye, NONE, NULL);
	free(list);
	return true;
}

static bool swiss_round(struct pair *pr, struct carc_buf *out)
{
	size_t n = pr->names.count;
	uint32_t *order = xmalloc((n + 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	ranking = pr;
	qsort(order, n, sizeof *order, by_standing);
	struct swiss_player *sp = xmalloc((n + 1) * sizeof *sp);
	for (size_t k = 0; k < n; k++) {
		const struct entrant *e = &pr->ent[order[k]];
		sp[k] = (struct swiss_player){.score = e->score, .byes = e->byes, .balance = e->balance,
					      .last_role = e->last_role, .streak = e->streak,
					      .opponents = e->opponents, .active = e->status == PRESENT};
	}
	pr->rank_to_id = order;
	struct swiss_round r;
	swiss_pair_round(sp, n, met_ranked, pr, &r);
	char round[16];
	snprintf(round, sizeof round, "%u", pr->last_round + 1);
	unsigned board = 1;
	for (size_t g = 0; g < r.ngames; g++, board++) {
		char note[160];
		const char *why = NULL;
		if (r.games[g].rematch && r.games[g].role_forced)
			why = "a rematch, and a third start running or a start imbalance of 3: no pairing of the round "
			      "avoids the rematch, and both choices of starter break the role rule";
		else if (r.games[g].rematch)
			why = "a rematch: no pairing of the round avoids one";
		else if (r.games[g].role_forced)
			why = "both choices of starter give one of the players a third equal role running or a start "
			      "imbalance of 3";
		if (why)
			snprintf(note, sizeof note, "%s", why);
		section(out, pr, round, board, order[r.games[g].first], order[r.games[g].second], why ? note : NULL);
	}
	if (r.bye != SWISS_NONE)
		section(out, pr, round, board, order[r.bye], NONE, NULL);
	swiss_round_free(&r);
	free(sp);
	free(order);
	return true;
}

/* ---- the knock-out ---- */

static int by_seeding(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	const struct entrant *a = &ranking->ent[i], *b = &ranking->ent[j];
	if (a->seed_rank != b->seed_rank)
		return a->seed_rank < b->seed_rank ? -1 : 1;
	if (a->has_number != b->has_number)
		return a->has_number ? -1 : 1;
	if (a->number != b->number)
		return a->number > b->number ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The bracket's first-round order of seeds 0..size-1: 1-N, N/2-(N/2+1), ... */
static void bracket_order(unsigned size, unsigned *slot)
{
	slot[0] = 0;
	for (unsigned k = 1; k < size; k *= 2)
		for (unsigned i = k; i-- > 0;) {
			slot[2 * i] = slot[i];
			slot[2 * i + 1] = 2 * k - 1 - slot[i];
		}
}

/* Tallies the games of knock-out round `round` (a bracket size, or THIRD),
 * named `name`, between the players in slots: slot 2i meets slot 2i + 1.
 * pts gets each slot's points (a win 1, a level game half each), games the
 * games of each match. False, said, at a game that is not one of these
 * matches. */
static bool tally_round(struct pair *pr, unsigned round, const char *name, const uint32_t *slots, unsigned nslots,
			double *pts, unsigned *games)
{
	for (size_t i = 0; i < pr->ngames; i++) {
		const struct game *g = &pr->games[i];
		if (g->round != (round | 0x80000000u))
			continue;
		unsigned k = 0;
		while (k < nslots && slots[k] != g->a)
			k++;
		unsigned mate = k ^ 1;
		if (k == nslots || g->b == NONE || slots[mate] != g->b)
			return say(pr, "%s:%u: game %u: %s - %s is not a match of round %s of the bracket", g->file_name,
				   g->line, g->index, carc_names_get(&pr->names, g->a),
				   g->b == NONE ? "(bye)" : carc_names_get(&pr->names, g->b), name);
		double sa = g->winner < 0 ? 0.5 : g->winner == 0;
		pts[k] += sa;
		pts[mate] += 1 - sa;
		games[k / 2]++;
	}
	return true;
}

/* The match for third place between the semi-finals' losers, the better
 * seed first: written when none of its games is in, else its winner said. */
static bool third_place(struct pair *pr, struct carc_buf *out, const uint32_t losers[2], const unsigned *seed_of)
{
	bool first = seed_of[losers[0]] < seed_of[losers[1]];
	uint32_t pairing[2] = {first ? losers[0] : losers[1], first ? losers[1] : losers[0]};
	double pts[2] = {0, 0};
	unsigned games = 0;
	if (!tally_round(pr, THIRD, "3rd", pairing, 2, pts, &games))
		return false;
	if (!games)
		section(out, pr, "3rd", 1, pairing[0], pairing[1], NULL);
	else
		fprintf(stderr, "carc pair: the match for third place is decided: %s is third\n",
			carc_names_get(&pr->names, pairing[pts[1] > pts[0]]));
	return true;
}

static bool knockout(struct pair *pr, struct carc_buf *out)
{
	size_t n = pr->names.count, m = 0;
	unsigned size = pr->knockout;
	uint32_t *seeded = xmalloc((n + 1) * sizeof *seeded);
	size_t nranked;
	const struct carc_standing *table = carc_standings_rank(pr->seeding, &nranked);
	for (size_t i = 0; i < n; i++)
		pr->ent[i].seed_rank = (size_t)-1; /* no Swiss game: after the ranked */
	for (size_t k = 0; k < nranked; k++)
		pr->ent[carc_names_intern(&pr->names, table[k].player)].seed_rank = table[k].rank;
	for (size_t i = 0; i < n; i++)
		if (pr->ent[i].status != WITHDRAWN)
			seeded[m++] = (uint32_t)i;
	bool ok = true;
	if (m < size) {
		ok = say(pr, "--knockout %u: only %zu players are not withdrawn", size, m);
		goto done;
	}
	for (size_t i = 0; i < pr->ngames && !pr->third_place; i++) {
		const struct game *g = &pr->games[i];
		if (g->round == (THIRD | 0x80000000u))
			ok = say(pr, "%s:%u: game %u is of round 3rd, the match for third place, which is played only "
				 "with --third-place", g->file_name, g->line, g->index);
	}
	if (!ok)
		goto done;
	ranking = pr;
	qsort(seeded, m, sizeof *seeded, by_seeding);
	unsigned *slot = xmalloc(size * sizeof *slot);
	uint32_t *alive = xmalloc(size * sizeof *alive);
	unsigned *seed_of = xcalloc(n + 1, sizeof *seed_of); /* 1-based, 0: not seeded */
	uint32_t losers[2] = {NONE, NONE};                   /* of the semi-finals */
	unsigned written = 0;                                /* the round written, 0 none */
	bracket_order(size, slot);
	for (unsigned i = 0; i < size; i++) {
		alive[i] = seeded[slot[i]];
		seed_of[alive[i]] = slot[i] + 1;
	}
	for (unsigned s = size; s >= 2 && ok; s /= 2) {
		char name[16];
		knockout_name(s, name, sizeof name);
		/* the games of this round, per match: points of the upper slot */
		double *pts = xcalloc(s, sizeof *pts);
		unsigned *games = xcalloc(s / 2, sizeof *games);
		ok = tally_round(pr, s, name, alive, s, pts, games);
		unsigned decided = 0;
		for (unsigned i = 0; i < s / 2; i++)
			decided += games[i] > 0;
		if (ok && !decided) { /* the round to write */
			for (unsigned i = 0; i < s / 2; i++) {
				uint32_t x = alive[2 * i], y = alive[2 * i + 1];
				bool x_first = seed_of[x] < seed_of[y];
				section(out, pr, name, i + 1, x_first ? x : y, x_first ? y : x, NULL);
			}
			if (s == 2 && pr->third_place)
				ok = third_place(pr, out, losers, seed_of);
			written = s;
			free(pts);
			free(games);
			break;
		}
		if (ok && decided < s / 2) {
			for (unsigned i = 0; i < s / 2; i++)
				if (!games[i])
					say(pr, "round %s is not complete: %s - %s has no game", name,
					    carc_names_get(&pr->names, alive[2 * i]), carc_names_get(&pr->names, alive[2 * i + 1]));
			ok = false;
		}
		for (unsigned i = 0; ok && i < s / 2; i++) {
			uint32_t x = alive[2 * i], y = alive[2 * i + 1];
			bool x_on = pts[2 * i] > pts[2 * i + 1] ||
				    (pts[2 * i] == pts[2 * i + 1] && seed_of[x] < seed_of[y]);
			alive[i] = x_on ? x : y;
			if (s == 4)
				losers[i] = x_on ? y : x;
		}
		free(pts);
		free(games);
		if (ok && s == 2) {
			fprintf(stderr, "carc pair: the final is decided: %s wins the knock-out\n",
				carc_names_get(&pr->names, alive[0]));
			if (pr->third_place)
				ok = third_place(pr, out, losers, seed_of);
		}
	}
	/* a game of a round after the one written (the match for third place
	 * is beside the final): its players are not known yet */
	if (ok && written > 2) {
		char name[16];
		knockout_name(written, name, sizeof name);
		for (size_t i = 0; ok && i < pr->ngames; i++) {
			const struct game *g = &pr->games[i];
			if ((g->round & 0x80000000u) && (g->round & ~0x80000000u) < written)
				ok = say(pr, "%s:%u: game %u: %s - %s is of a later round than %s, which is not played yet",
					 g->file_name, g->line, g->index, carc_names_get(&pr->names, g->a),
					 g->b == NONE ? "(bye)" : carc_names_get(&pr->names, g->b), name);
		}
	}
	free(slot);
	free(alive);
	free(seed_of);
done:
	free(seeded);
	return ok;
}

/* ---- options ---- */

static void help(void)
{
	printf("usage: carc pair --players FILE [OPTIONS] [GAMES...]\n\n"
	       "Write the next round of a Swiss tournament (or, with --knockout, of a\n"
	       "knock-out bracket) as CGN tag sections, one a game: Event, Round, Board,\n"
	       "Seats (the first seat starts) and the players' colour tags, to be filled\n"
	       "with a Result or with moves; a bye is a section of one seat with\n"
	       "[Termination \"bye\"]. GAMES are the games so far (none: the first round).\n\n"
	       "The Swiss system is Monrad-style score-group pairing with backtracking:\n"
	       "from the top of the standings (score: 1 a win, a bye or a win without\n"
	       "play; 0.5 a level game under --level draw; then rating, then registration\n"
	       "order) each player meets the nearest player below with whom the rest of\n"
	       "the round can still be paired with the fewest rematches (none when\n"
	       "possible). The bye goes to the lowest-ranked player with the fewest byes.\n"
	       "The player who started fewer times starts, unless that would make anyone\n"
	       "play the same role three games running (or start 3 more times than\n"
	       "second, or the reverse) and the other choice would not. Round 1: the\n"
	       "players by rating (or registration order), or by draw number, or shuffled\n"
	       "(--seed), the odd one out last takes the bye, and the first half meets the\n"
	       "second (1 v m/2+1, ...). Forced rematches and role breaks are noted in\n"
	       "comments. carc-pair(1) has the details.\n\n"
	       "FILE: one player a line, in registration order: NAME [NUMBER]\n"
	       "[absent|withdrawn]; NUMBER a rating (or a draw number); \"quoted names\"\n"
	       "may end in a number; ';' starts a comment.\n\n"
	       "options:\n"
	       "  -p, --players FILE   the players (required)\n"
	       "  -e, --event NAME     the event: its games only, and the Event of the\n"
	       "                       sections (default: the one event of the games)\n"
	       "      --draw-numbers   NUMBER is a draw number: round 1 by it, lowest\n"
	       "                       first; no rating is used\n"
	       "      --seed S         round 1 in a random order from the number S\n"
	       "      --level RULE     a level final score: draw (default: half a win\n"
	       "                       each), second (the second player wins) or first\n"
	       "  -k, --knockout N     the next round of a knock-out of the best N (2, 4,\n"
	       "                       8, ...) of the Swiss standings (carc standings:\n"
	       "                       wins, buchholz-cut1, diff; then rating): 1 v N, ...; its\n"
	       "                       rounds are named R16, QF, SF, F; the better seed\n"
	       "                       starts and goes on when a match is level\n"
	       "      --third-place    with --knockout: the semi-finals' losers meet in\n"
	       "                       a match for third place, round 3rd, written\n"
	       "                       with the final\n"
	       "  -o, --output FILE    write the round to FILE\n"
	       CARC_TILESET_PATH_HELP
	       "      --label NAME     name standard input NAME in messages\n"
	       "  -h, --help           show this help\n"
	       "  -V, --version        show the version\n\n"
	       "exit status: 0 the round is written (or the knock-out is over), 1 a fault\n"
	       "in the players file or the games (named), 2 could not run.\n");
}

int cmd_pair(int argc, char **argv)
{
	enum { OPT_DRAW = 256, OPT_SEED, OPT_LEVEL, OPT_THIRD };
	static const struct option longopts[] = {
		{"players", required_argument, NULL, 'p'},   {"event", required_argument, NULL, 'e'},
		{"draw-numbers", no_argument, NULL, OPT_DRAW}, {"seed", required_argument, NULL, OPT_SEED},
		{"level", required_argument, NULL, OPT_LEVEL}, {"knockout", required_argument, NULL, 'k'},
		{"third-place", no_argument, NULL, OPT_THIRD},
		{"output", required_argument, NULL, 'o'},    CARC_TILESET_PATH_OPTION,
		{"label", required_argument, NULL, CARC_OPT_LABEL}, {"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},         {NULL, 0, NULL, 0},
	};
	struct pair pr = {0};
	const char *output = NULL;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":p:e:k:o:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			pr.players_path = optarg;
			break;
		case 'e':
			pr.event = optarg;
			pr.event_given = true;
			break;
		case OPT_DRAW:
			pr.draw_numbers = true;
			break;
		case OPT_SEED: {
			char *end;
			errno = 0;
			unsigned long long v = strtoull(optarg, &end, 10);
			if (end == optarg || *end || errno || optarg[0] == '-')
				return carc_usage_error("pair", "--seed takes a whole number, not '%s'", optarg);
			pr.seed = v;
			pr.random = true;
			break;
		}
		case OPT_LEVEL:
			if (!played_level_option(optarg, &pr.level))
				return carc_usage_error("pair", "--level is draw, second or first, not '%s'", optarg);
			break;
		case 'k': {
			char *end;
			errno = 0;
			unsigned long v = strtoul(optarg, &end, 10);
			if (end == optarg || *end || errno || v < 2 || v > 1024 || (v & (v - 1)))
				return carc_usage_error("pair", "--knockout takes 2, 4, 8, ... up to 1024, not '%s'", optarg);
			pr.knockout = (unsigned)v;
			break;
		}
		case OPT_THIRD:
			pr.third_place = true;
			break;
		case 'o':
			output = optarg;
			break;
		case CARC_OPT_TILESET_PATH:
		case CARC_OPT_LABEL:
			if (carc_record_option("pair", c, optarg))
				return CARC_EXIT_TROUBLE;
			break;
		case 'h':
			help();
			return CARC_EXIT_OK;
		case 'V':
			return carc_print_version();
		default:
			return carc_option_error("pair", c, argv);
		}
	}
	if (!pr.players_path)
		return carc_usage_error("pair", "--players FILE is required: the players, one a line");
	for (const char *e = pr.event; e && *e; e++) {
		unsigned char ch = (unsigned char)*e;
		size_t n = ch >= 0x80 ? carc_utf8_len(e, strlen(e)) : 1;
		if (ch < 0x20 || ch == 0x7f || !n)
			return carc_usage_error("pair", "--event takes UTF-8 text without control characters");
		e += n - 1;
	}
	if (pr.draw_numbers && pr.random)
		return carc_usage_error("pair", "--draw-numbers and --seed are two ways to order round 1: give one");
	if (pr.third_place && pr.knockout < 4)
		return carc_usage_error("pair", "--third-place is a match of the semi-finals' losers: it takes --knockout 4 "
					"or more");
	if (pr.knockout && optind >= argc)
		return carc_usage_error("pair", "--knockout seeds from the Swiss games: give them");
	int status = CARC_EXIT_OK;
	struct carc_buf out = {0};
	if (!read_players(&pr)) {
		status = pr.fault ? CARC_EXIT_INVALID : CARC_EXIT_TROUBLE;
		goto done;
	}
	size_t registered = pr.names.count;
	if (pr.knockout) { /* the World Championship's order: wins, Buchholz cut-1, score difference */
		struct carc_standings_opts so = {.win = 1, .draw = 0.5, .loss = 0, .ntiebreaks = 2,
						 .tiebreaks = {CARC_TB_CUT1, CARC_TB_DIFF}};
		so.level = pr.level == PLAYED_LEVEL_SECOND ? CARC_LEVEL_SECOND
			   : pr.level == PLAYED_LEVEL_FIRST ? CARC_LEVEL_FIRST : CARC_LEVEL_DRAW;
		pr.seeding = carc_standings_new(&so);
	}
	struct carc_archive_totals t = {0};
	carc_archive_each(argv + optind, argc - optind, true, 1, each_game, &pr, &t);
	if (t.unreadable || t.trouble) {
		status = CARC_EXIT_TROUBLE;
		goto done;
	}
	if (pr.fault) {
		status = CARC_EXIT_INVALID;
		goto done;
	}
	if (!pr.event_given) {
		if (!pr.events.count) {
			status = carc_usage_error("pair", "no games: name the event of the first round with --event");
			goto done;
		}
		if (pr.events.count > 1) {
			status = carc_usage_error("pair", "the games are of %zu events ('%s', '%s'%s): choose one with --event",
						  pr.events.count, carc_names_get(&pr.events, 0), carc_names_get(&pr.events, 1),
						  pr.events.count > 2 ? ", ..." : "");
			goto done;
		}
		pr.event = carc_names_get(&pr.events, 0);
	}
	size_t present = 0;
	for (size_t i = 0; i < registered; i++)
		present += pr.ent[i].status == PRESENT;
	if (present < 2 && !pr.knockout) {
		say(&pr, "%s: fewer than two players to pair (the others are absent or withdrawn)",
		    carc_input_name(pr.players_path));
		status = CARC_EXIT_INVALID;
		goto done;
	}
	replay(&pr);
	bool ok = pr.knockout ? knockout(&pr, &out) : pr.last_round ? swiss_round(&pr, &out) : first_round(&pr, &out);
	if (!ok) {
		status = CARC_EXIT_INVALID;
		goto done;
	}
	if (!carc_output_write("pair", output, out.data ? out.data : "", out.len))
		status = CARC_EXIT_TROUBLE;
done:
	carc_buf_free(&out);
	free(pr.ent);
	free(pr.games);
	if (pr.seeding)
		carc_standings_free(pr.seeding);
	free(pr.met);
	carc_names_free(&pr.names);
	carc_names_free(&pr.files);
	carc_names_free(&pr.events);
	return status;
}
