/*
 * legal.c - the command line's side of the comparison in tests/recorder:
 * the legal moves of every turn of every game of a CGN file, as the
 * library built for this machine lists them through the page's own export
 * layer (src/wasm/recorder.c, compiled here natively), one line a turn.
 * legal.js prints the same from the WebAssembly build; run.sh compares.
 *
 *   legal FILE.cgn
 *
 * A line: "G.T TILE N HASH", the game and turn (from 1), the tile entered,
 * the number of legal moves and the FNV-1a hash of their texts sorted and
 * joined by "|"; with -v, the texts themselves. Exit 1 when a recorded move
 * is refused or a game cannot be set up (the message on standard error).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rec_input(size_t len);
const char *rec_output(void);
size_t rec_output_len(void);
int rec_open(size_t len);
int rec_enter(size_t len);
int rec_moves(void);
int rec_play(size_t len);

static size_t put(const char *s, size_t n)
{
	memcpy(rec_input(n), s, n);
	return n;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The "text" values of the engine's JSON array of moves. */
static int texts(const char *json, char ***out)
{
	int n = 0, cap = 16;
	char **v = malloc((size_t)cap * sizeof *v);
	for (const char *p = json; (p = strstr(p, "\"text\":\"")); ) {
		p += 8;
		const char *e = strchr(p, '"');
		if (n == cap)
			v = realloc(v, (size_t)(cap *= 2) * sizeof *v);
		v[n++] = strndup(p, (size_t)(e - p));
		p = e;
	}
	qsort(v, (size_t)n, sizeof *v, by_text);
	*out = v;
	return n;
}

/* The move of a turn line: after the number and the colour, before "=". */
static bool move_of(const char *line, char *tile, char *move, size_t cap)
{
	const char *p = line;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p != '.' && *p != '+')
		return false;
	p++;
	while (*p == ' ')
		p++;
	while (*p && *p != ' ') /* the colour */
		p++;
	while (*p == ' ')
		p++;
	size_t n = strcspn(p, "=\n");
	while (n && p[n - 1] == ' ')
		n--;
	if (!n || n >= cap)
		return false;
	snprintf(move, cap, "%.*s", (int)n, p);
	snprintf(tile, 16, "%.*s", (int)strcspn(move, " "), move);
	return true;
}

int main(int argc, char **argv)
{
	bool verbose = argc > 2 && !strcmp(argv[1], "-v");
	if (argc < 2 + verbose) {
		fprintf(stderr, "usage: legal [-v] FILE.cgn\n");
		return 2;
	}
	FILE *f = fopen(argv[1 + verbose], "r");
	if (!f) {
		perror(argv[1 + verbose]);
		return 2;
	}
	char line[1024], header[8192];
	size_t hlen = 0;
	int game = 0, turn = 0, status = 0;
	bool in_turns = false;
	while (fgets(line, sizeof line, f)) {
		char tile[16], move[256];
		if (line[0] == '[') {
			if (in_turns || !hlen) {
				hlen = 0;
				in_turns = false;
			}
			size_t n = strlen(line);
			if (hlen + n < sizeof header) {
				memcpy(header + hlen, line, n);
				hlen += n;
			}
			continue;
		}
		if (!move_of(line, tile, move, sizeof move))
			continue;
		if (!in_turns) {
			in_turns = true;
			game++;
			turn = 0;
			if (rec_open(put(header, hlen))) {
				fprintf(stderr, "game %d: %s\n", game, rec_output());
				return 1;
			}
		}
		turn++;
		if (rec_enter(put(tile, strlen(tile)))) {
			fprintf(stderr, "game %d turn %d: enter %s: %s\n", game, turn, tile, rec_output());
			return 1;
		}
		rec_moves();
		char **v;
		int n = texts(rec_output(), &v);
		uint32_t h = 2166136261u;
		for (int i = 0; i < n; i++) {
			for (const char *c = v[i]; *c; c++)
				h = (h ^ (unsigned char)*c) * 16777619u;
			h = (h ^ '|') * 16777619u;
		}
		printf("%d.%d %s %d %08x\n", game, turn, tile, n, (unsigned)h);
		for (int i = 0; verbose && i < n; i++)
			printf("  %s\n", v[i]);
		for (int i = 0; i < n; i++)
			free(v[i]);
		free(v);
		if (rec_play(put(move, strlen(move)))) {
			fprintf(stderr, "game %d turn %d: %s refused: %s\n", game, turn, move, rec_output());
			status = 1;
		}
	}
	fclose(f);
	return status;
}
