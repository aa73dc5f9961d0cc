/*
 * test_input.c - where a game is in its input, and inputs that are
 * compressed (input.c, and the reader's offsets in cgn.c).
 *
 * Every machine-readable output names a game by file, line and byte
 * offset, and carc check -j splits one file among readers that start in
 * its middle, so these tests pin that the offset the reader gives is the
 * start of the game's first line however the input was laid out (comment
 * lines carried to the next game, blank lines, lines cut for being too
 * long, a first line itself cut), and that a reader started in the middle
 * (carc_reader_start_at) numbers games, lines and offsets as one that read
 * from the start. Then that gzip and zstd inputs read as the plain text,
 * multi-member and multi-frame ones included, and that damaged or cut
 * ones are read errors that say where.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "rules/rules.h"
#include "notation/gameid.h"
#include "common/input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

struct seen_game {
	unsigned index, line;
	uint64_t offset;
	struct carc_game_id id;
};

/* Reads every game of f (started at line, offset, after games) into out;
 * returns their number. */
static size_t read_games(FILE *f, unsigned line, uint64_t offset, unsigned games, struct seen_game *out, size_t max)
{
	struct carc_tileset_cache *cache = carc_tileset_cache_new();
	struct carc_reader *r = carc_reader_new(f, "t.cgn", cache, carc_rules_registry());
	if (line)
		carc_reader_start_at(r, line, offset, games);
	struct carc_record rec = {0};
	struct carc_diag_sink sink = {0};
	size_t n = 0;
	while (carc_reader_next(r, &rec, &sink) && n < max)
		out[n++] = (struct seen_game){rec.index, rec.src.base_line, carc_reader_game_offset(r), carc_game_id(&rec)};
	carc_record_free(&rec);
	carc_reader_free(r);
	carc_diag_free(&sink);
	carc_tileset_cache_free(cache);
	return n;
}

static size_t read_text(const char *text, size_t len, struct seen_game *out, size_t max)
{
	FILE *f = fmemopen((void *)text, len, "r");
	size_t n = read_games(f, 0, 0, 0, out, max);
	fclose(f);
	return n;
}

/* Each game's offset is the start of the line it says it starts on. */
static void assert_offsets_match_lines(const char *text, size_t len, const struct seen_game *g, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		assert_true(g[k].offset < len);
		bool after_mark = g[k].offset == 3 && !memcmp(text, "\xEF\xBB\xBF", 3);
		assert_true(g[k].offset == 0 || after_mark || text[g[k].offset - 1] == '\n');
		unsigned line = 1;
		for (size_t i = 0; i < g[k].offset; i++)
			line += text[i] == '\n';
		assert_int_equal(line, g[k].line);
	}
}

static const char game[] = "[Event \"E\"]\n[Seats \"red green\"]\n\n1. red U -1,0 90 thief E\n2. green E 0,1 180\n";

static char *three_games(size_t *len, const char *long_line)
{
	struct carc_buf b = {0};
	carc_buf_adds(&b, "\xEF\xBB\xBF"); /* a byte order mark, not text */
	carc_buf_adds(&b, game);
	carc_buf_adds(&b, long_line ? long_line : "");
	carc_buf_adds(&b, "\n\n; about the next game\n{ over\ntwo lines }\n\n");
	carc_buf_adds(&b, game);
	carc_buf_adds(&b, "\r\n\r\n");
	carc_buf_adds(&b, game);
	*len = b.len;
	return b.data;
}

static void test_input_offsets_are_line_starts(void **state)
{
	(void)state;
	size_t len;
	char *text = three_games(&len, NULL);
	struct seen_game g[4];
	assert_int_equal(read_text(text, len, g, 4), 3);
	assert_offsets_match_lines(text, len, g, 3);
	assert_int_equal(g[0].offset, 3);                               /* after the mark */
	assert_memory_equal(text + g[1].offset, "; about", 7);          /* its comment lines */
	assert_memory_equal(text + g[2].offset, "[Event", 6);
	assert_memory_equal(&g[0].id, &g[2].id, sizeof g[0].id);        /* one game, three places */
	free(text);
}

/* A line over 65536 bytes is cut in the reader's buffer: the offsets of
 * what follows are still those of the input. */
static void test_input_offsets_after_cut_lines(void **state)
{
	(void)state;
	char *big = malloc(200001);
	memset(big, 'x', 200000);
	big[0] = ';';
	big[200000] = '\0';
	size_t len;
	char *text = three_games(&len, big);
	struct seen_game g[4];
	assert_int_equal(read_text(text, len, g, 4), 3);
	assert_offsets_match_lines(text, len, g, 3);
	free(text);
	/* the next game's first line itself cut: a tag over 65536 bytes (after
	 * a blank, so that the reader has to look into the line to know it
	 * starts a game) */
	struct carc_buf b = {0};
	carc_buf_adds(&b, game);
	carc_buf_adds(&b, "\n [Site \"");
	carc_buf_adds(&b, big + 1);
	carc_buf_adds(&b, "\"]\n");
	carc_buf_adds(&b, game);
	assert_int_equal(read_text(b.data, b.len, g, 4), 2); /* (Site and the game after it are one) */
	assert_offsets_match_lines(b.data, b.len, g, 2);
	assert_memory_equal(b.data + g[1].offset, " [Site", 6);
	carc_buf_free(&b);
	free(big);
}

/* A reader of the part of a file from its second game on says what a
 * reader of the whole says about those games. */
static void test_input_reader_started_in_the_middle(void **state)
{
	(void)state;
	size_t len;
	char *text = three_games(&len, NULL);
	struct seen_game whole[4], part[4];
	assert_int_equal(read_text(text, len, whole, 4), 3);
	FILE *f = fmemopen(text + whole[1].offset, len - whole[1].offset, "r");
	assert_int_equal(read_games(f, whole[1].line, whole[1].offset, 1, part, 4), 2);
	fclose(f);
	assert_memory_equal(part, whole + 1, 2 * sizeof part[0]);
	free(text);
}

/* path, holding n bytes of data. */
static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* All of an input through carc_input_open; -1 and errno on a read error. */
static long read_all(const char *path, char *out, size_t max)
{
	FILE *f = carc_input_open(path);
	assert_non_null(f);
	size_t n = fread(out, 1, max, f);
	int err = ferror(f) ? errno : 0;
	carc_input_close(f);
	errno = err;
	return err ? -1 : (long)n;
}

static size_t gzip_member(const char *text, unsigned char *out, size_t max)
{
	z_stream z = {0};
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = out;
	z.avail_out = (uInt)max;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = z.total_out;
	deflateEnd(&z);
	return n;
}

static void test_input_gzip_and_zstd(void **state)
{
	(void)state;
	char path[] = "/tmp/carc-input-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	static unsigned char packed[1 << 16];
	static char got[1 << 16];
	/* two gzip members, as cat a.gz b.gz makes */
	size_t n = gzip_member(game, packed, sizeof packed);
	n += gzip_member("; and more\n", packed + n, sizeof packed - n);
	write_file(path, packed, n);
	long m = read_all(path, got, sizeof got);
	assert_int_equal(m, strlen(game) + 11);
	assert_memory_equal(got, game, strlen(game));
	/* cut short: an error that says where */
	write_file(path, packed, n - 5);
	assert_int_equal(read_all(path, got, sizeof got), -1);
	assert_int_equal(errno, EBADMSG);
	assert_non_null(strstr(carc_input_strerror(EBADMSG), "gzip data is cut short at byte"));
	/* damaged */
	packed[n / 2] ^= 0x55;
	packed[n / 2 + 1] ^= 0x55;
	write_file(path, packed, n);
	assert_int_equal(read_all(path, got, sizeof got), -1);
	assert_non_null(strstr(carc_input_strerror(errno), "gzip data"));
	/* zstd, two frames */
	n = ZSTD_compress(packed, sizeof packed, game, strlen(game), 3);
	n += ZSTD_compress(packed + n, sizeof packed - n, game, strlen(game), 3);
	write_file(path, packed, n);
	assert_int_equal(read_all(path, got, sizeof got), 2 * strlen(game));
	write_file(path, packed, n - 3);
	assert_int_equal(read_all(path, got, sizeof got), -1);
	assert_non_null(strstr(carc_input_strerror(errno), "zstd data is cut short at byte"));
	/* plain text that starts like the magic, and an empty file */
	write_file(path, "(\x1f\x8b", 3);
	assert_int_equal(read_all(path, got, sizeof got), 3);
	assert_memory_equal(got, "(\x1f\x8b", 3);
	write_file(path, "\x1f", 1);
	assert_int_equal(read_all(path, got, sizeof got), 1);
	write_file(path, "", 0);
	assert_int_equal(read_all(path, got, sizeof got), 0);
	/* an ordinary error keeps its own message */
	assert_string_equal(carc_input_strerror(ENOENT), strerror(ENOENT));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_offsets_are_line_starts),
		cmocka_unit_test(test_input_offsets_after_cut_lines),
		cmocka_unit_test(test_input_reader_started_in_the_middle),
		cmocka_unit_test(test_input_gzip_and_zstd),
	};
	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
