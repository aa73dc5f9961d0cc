/*
 * tests/bench/floor.c - the parse-only floor for bench.sh: what reading a
 * CGN file costs with no rules at all.
 *
 * It does what any referee must do before it can judge a game, and no
 * more: reads the input in blocks, splits it into lines, tells tag lines
 * from turn lines and games apart (a tag line after a turn line starts the
 * next game), and reads every number of the turn lines and of their
 * claims (turn number, position, rotation, claimed points) into a value.
 * It keeps no record, checks no word and plays no tile. The numbers are
 * summed into a checksum that is printed, so that none of the work can be
 * left out by the compiler. bench.sh divides each command's time by this
 * program's on the same corpus.
 *
 *   floor FILE        prints "games N lines N numbers N sum N"
 *
 * Exit 0, or 2 when FILE cannot be read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK (1 << 20)

struct tally {
	uint64_t games, lines, numbers, sum;
	int in_turns;
};

/* The numbers of the turn line [p, e): runs of digits, a '-' right
 * before one makes it negative. */
static void turn_numbers(struct tally *t, const unsigned char *p, const unsigned char *e)
{
	while (p < e) {
		if (*p - (unsigned)'0' > 9) {
			p++;
			continue;
		}
		int neg = p[-1] == '-';
		uint32_t v = 0;
		while (p < e && *p - (unsigned)'0' <= 9)
			v = v * 10 + (*p++ - '0');
		t->sum += neg ? (uint64_t)-(int64_t)v : v;
		t->numbers++;
	}
}

/* One line [p, e), its newline not included. */
static void line(struct tally *t, const unsigned char *p, const unsigned char *e)
{
	t->lines++;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == e || *p == ';' || *p == '{')
		return; /* blank, or a comment */
	if (*p == '[') {
		if (t->in_turns)
			t->games++;
		t->in_turns = 0;
		return;
	}
	t->in_turns = 1;
	turn_numbers(t, p, e);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: floor FILE\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	/* one byte before the text, so that p[-1] may be read at its start */
	unsigned char *mem = malloc(2 * BLOCK + 1), *buf = mem + 1;
	if (!mem)
		return 2;
	mem[0] = '\n';
	struct tally t = {0, 0, 0, 0, 0};
	size_t have = 0, n;
	while ((n = fread(buf + have, 1, 2 * BLOCK - have, f)) > 0) {
		have += n;
		const unsigned char *p = buf, *end = buf + have, *nl;
		while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
			line(&t, p, nl);
			p = nl + 1;
		}
		have = (size_t)(end - p); /* a partial line: to the front */
		memmove(buf, p, have);
		if (have == 2 * BLOCK) { /* a line longer than the buffer: skipped */
			have = 0;
		}
	}
	if (ferror(f)) {
		perror(argv[1]);
		return 2;
	}
	if (have)
		line(&t, buf, buf + have);
	if (t.in_turns)
		t.games++;
	printf("games %llu lines %llu numbers %llu sum %llu\n", (unsigned long long)t.games,
	       (unsigned long long)t.lines, (unsigned long long)t.numbers, (unsigned long long)t.sum);
	fclose(f);
	free(mem);
	return 0;
}
