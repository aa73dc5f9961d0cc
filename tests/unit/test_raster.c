/*
 * test_raster.c - carc render --format png and pdf, pixel by pixel.
 *
 * The PNGs are made by the command itself (cmd_render, in this process) and
 * read back with a small PNG decoder below (zlib for the pixels), so the
 * test sees what a user's file holds. A golden test pins the size and known
 * pixels of the start of the club-night sample: the background, the start
 * tile's city, field and road, and red's thief on the board and the two
 * meeples of the legend, at coordinates worked out by hand from the SVG's
 * geometry. An agreement test draws generated games both ways and checks
 * that the PNG has the SVG's size and, at each follower and at the last
 * tile's frame the SVG names, the SVG's colour. The size rules are tested
 * without the library. When librsvg cannot be loaded, the drawing tests
 * are skipped with a message (the shell suite tests that case).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "cli/cli.h"
#include "output/raster.h"
#include "output/svg.h"

/* ---- a PNG reader: 8-bit RGB or RGBA, not interlaced (what cairo writes) ---- */

struct image {
	unsigned width, height, channels;
	unsigned char *pixels; /* rows of width * channels bytes */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Decodes the PNG of n bytes at data; fails the test when it is not one. */
static struct image decode_png(const unsigned char *data, size_t n)
{
	struct image im = {0};
	assert_true(n > 8 + 25);
	assert_memory_equal(data, "\x89PNG\r\n\x1a\n", 8);
	size_t pos = 8, zlen = 0;
	unsigned char *z = NULL;
	bool end = false;
	while (!end) {
		assert_true(pos + 12 <= n);
		uint32_t len = be32(data + pos);
		assert_true(len <= n - pos - 12);
		const unsigned char *kind = data + pos + 4, *body = data + pos + 8;
		if (!memcmp(kind, "IHDR", 4)) {
			assert_int_equal(len, 13);
			im.width = be32(body);
			im.height = be32(body + 4);
			assert_int_equal(body[8], 8);                      /* bits a channel */
			assert_true(body[9] == 2 || body[9] == 6);        /* RGB or RGBA */
			assert_int_equal(body[12], 0);                     /* not interlaced */
			im.channels = body[9] == 6 ? 4 : 3;
		} else if (!memcmp(kind, "IDAT", 4)) {
			z = realloc(z, zlen + len);
			assert_non_null(z);
			memcpy(z + zlen, body, len);
			zlen += len;
		} else if (!memcmp(kind, "IEND", 4)) {
			end = true;
		}
		pos += 12 + (size_t)len;
	}
	assert_true(im.width > 0 && im.height > 0 && im.channels > 0);
	size_t stride = (size_t)im.width * im.channels;
	uLongf rawlen = (uLongf)((stride + 1) * im.height);
	unsigned char *raw = malloc(rawlen);
	assert_non_null(raw);
	uLongf got = rawlen;
	assert_int_equal(uncompress(raw, &got, z, (uLong)zlen), Z_OK);
	assert_int_equal(got, rawlen);
	free(z);
	im.pixels = malloc(stride * im.height);
	assert_non_null(im.pixels);
	for (unsigned y = 0; y < im.height; y++) {
		const unsigned char *in = raw + y * (stride + 1) + 1;
		unsigned char *row = im.pixels + y * stride, *up = y ? row - stride : NULL;
		int filter = in[-1];
		assert_in_range(filter, 0, 4);
		for (size_t x = 0; x < stride; x++) {
			int a = x >= im.channels ? row[x - im.channels] : 0, b = up ? up[x] : 0;
			int c = up && x >= im.channels ? up[x - im.channels] : 0;
			int pred = filter == 1 ? a : filter == 2 ? b : filter == 3 ? (a + b) / 2 : filter == 4 ? paeth(a, b, c) : 0;
			row[x] = (unsigned char)(in[x] + pred);
		}
	}
	free(raw);
	return im;
}

/* The pixel at (x, y) as 0xRRGGBB; *alpha its opacity. */
static uint32_t pixel(const struct image *im, unsigned x, unsigned y, unsigned *alpha)
{
	assert_true(x < im->width && y < im->height);
	const unsigned char *p = im->pixels + ((size_t)y * im->width + x) * im->channels;
	*alpha = im->channels == 4 ? p[3] : 255;
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* The pixel at (x, y) is opaque and within 3 of colour in each channel
 * (anti-aliasing aside, the inside of a shape is its exact colour). */
static void assert_colour_at(const struct image *im, double x, double y, uint32_t colour, const char *what)
{
	unsigned alpha;
	uint32_t got = pixel(im, (unsigned)x, (unsigned)y, &alpha);
	bool near = alpha == 255;
	for (int shift = 0; shift <= 16; shift += 8) {
		int d = (int)((got >> shift) & 255) - (int)((colour >> shift) & 255);
		near = near && d >= -3 && d <= 3;
	}
	if (!near)
		fail_msg("%s at pixel (%u, %u): #%06x alpha %u, not #%06x", what, (unsigned)x, (unsigned)y, (unsigned)got,
			 alpha, (unsigned)colour);
}

static uint32_t hex_colour(const char *s)
{
	assert_int_equal(s[0], '#');
	return (uint32_t)strtoul(s + 1, NULL, 16);
}

/* ---- running carc render in this process ---- */

static bool have_librsvg(void)
{
	struct carc_buf why = {0};
	bool ok = carc_raster_load(&why);
	if (!ok)
		print_message("skipped: %s\n", carc_buf_cstr(&why));
	carc_buf_free(&why);
	return ok;
}

/* A new empty temporary file's name (the caller unlinks and frees it). */
static char *temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char *name = malloc(4096);
	assert_non_null(name);
	snprintf(name, 4096, "%s/carc-raster-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(name);
	assert_true(fd >= 0);
	close(fd);
	return name;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static unsigned char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	struct carc_buf b = {0};
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		carc_buf_add(&b, chunk, got);
	fclose(f);
	*n = b.len;
	return (unsigned char *)b.data;
}

/* carc render OPTIONS... -o OUT RECORD; returns its exit status. */
static int render(const char *record, const char *out, const char *const *options)
{
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"render";
	for (; *options; options++)
		argv[argc++] = (char *)*options;
	argv[argc++] = (char *)"-o";
	argv[argc++] = (char *)out;
	argv[argc++] = (char *)record;
	argv[argc] = NULL;
	assert_true(argc < 16);
	return cmd_render(argc, argv);
}

static const char club_night[] = "[Event \"Club night\"]\n[Date \"2026-11-20\"]\n[Seats \"red green\"]\n"
				 "[Red \"Anna\"]\n[Green \"Boris\"]\n\n"
				 "1. red   U -1,0 90   thief E\n"
				 "2. green E 0,1 180   knight S\n"
				 "3. red   V 1,0 0     farmer NNE   = red 0, green 4\n"
				 "4. green K 0,-1 270  knight W\n";

/* ---- the tests ---- */

static void test_raster_size(void **state)
{
	(void)state;
	struct carc_buf why = {0};
	int w = 0, h = 0;
	struct carc_raster_options o = {CARC_RASTER_PNG, 0, 0, NULL};
	assert_true(carc_raster_size(482, 217, &o, &w, &h, &why)); /* scale 0 counts as 1 */
	assert_int_equal(w, 482);
	assert_int_equal(h, 217);
	o.scale = 2.5;
	assert_true(carc_raster_size(482, 217, &o, &w, &h, &why));
	assert_int_equal(w, 1205);
	assert_int_equal(h, 543); /* 542.5, rounded */
	o.scale = 0.001;          /* never below a pixel */
	assert_true(carc_raster_size(482, 217, &o, &w, &h, &why));
	assert_int_equal(w, 1);
	assert_int_equal(h, 1);
	o.scale = 0;
	o.width = 1200; /* the width given, the height in proportion */
	assert_true(carc_raster_size(482, 217, &o, &w, &h, &why));
	assert_int_equal(w, 1200);
	assert_int_equal(h, 540); /* 540.2 */
	o.width = CARC_RASTER_MAX_SIDE;
	assert_true(carc_raster_size(4000, 4000, &o, &w, &h, &why) == false); /* 16384 x 16384: too many pixels */
	assert_non_null(strstr(carc_buf_cstr(&why), "the picture would be 16384 x 16384 pixels; carc draws at most "
						     "16384 a side and 67108864 in all"));
	assert_true(carc_raster_size(16384, 4096, &o, &w, &h, &why)); /* exactly the most */
	assert_int_equal(h, 4096);
	o.width = 0;
	o.scale = 100;
	assert_false(carc_raster_size(200, 10, &o, &w, &h, &why)); /* 20000 a side */
	o.scale = 1;
	assert_false(carc_raster_size(16385, 1, &o, &w, &h, &why));
	assert_true(carc_raster_size(16384.4, 1, &o, &w, &h, &why));
	assert_int_equal(w, 16384);
	assert_false(carc_raster_size(1e300, 1e300, &o, &w, &h, &why)); /* no overflow */
	carc_buf_free(&why);
}

/* The start of the club night at twice the SVG's size, turn 1: the start
 * tile D at 0,0 and red's U at -1,0 with a thief. The SVG's viewBox is
 * 602 x 288 units (the legend naming the rules) drawn at 482 x 230 pixels (0.8 a unit), so here a unit is
 * 1.6 pixels. In units: the map's cells start at x 36 (-1) and 136 (0),
 * y 36; a tile is 100. */
static void test_raster_png_golden(void **state)
{
	(void)state;
	if (!have_librsvg()) {
		skip();
		return;
	}
	char *record = temp_file(), *out = temp_file();
	write_file(record, club_night);
	static const char *const options[] = {"--format", "png", "--turn", "1", "--scale", "2", NULL};
	assert_int_equal(render(record, out, options), CARC_EXIT_OK);
	size_t n;
	unsigned char *png = read_file(out, &n);
	struct image im = decode_png(png, n);
	assert_int_equal(im.width, 964);
	assert_int_equal(im.height, 460);
	const double u = 1.6;
	assert_colour_at(&im, 2, 2, 0xf6f1e6, "the background");
	assert_colour_at(&im, (136 + 50) * u, (36 + 12) * u, 0xcf9a5c, "the start tile's city");
	assert_colour_at(&im, (136 + 50) * u, (36 + 85) * u, 0x93c45a, "the start tile's field");
	assert_colour_at(&im, (136 + 20) * u, (36 + 50) * u, 0xf4ecd9, "the start tile's road");
	/* a meeple's head is 10.2 units above its centre: red's thief stands at
	 * (83.9, 88.1), the legend's red and green meeples at (284, 164) and
	 * (284, 196), under the line of the rules */
	assert_colour_at(&im, 83.9 * u, (88.1 - 10) * u, hex_colour(carc_svg_colour(CARC_RED)), "red's thief");
	assert_colour_at(&im, 284 * u, (164 - 10) * u, hex_colour(carc_svg_colour(CARC_RED)), "the legend's red");
	assert_colour_at(&im, 284 * u, (196 - 10) * u, hex_colour(carc_svg_colour(CARC_GREEN)), "the legend's green");
	/* the map's corner outside the tiles' row is the page, not a tile */
	assert_colour_at(&im, 20 * u, 20 * u, 0xf6f1e6, "the margin");
	free(im.pixels);
	free(png);
	unlink(record);
	unlink(out);
	free(record);
	free(out);
}

/* One follower or mark found in the SVG: where and what colour. */
struct spot {
	double x, y;
	uint32_t colour;
	char what[64];
};

/* The spots of an SVG map that must have one colour in the PNG: a point in
 * each follower's body (below its letter, left of it; turned with a lying
 * farmer) and the middle of the last tile's orange frame's left side. */
static int find_spots(const char *svg, struct spot *spots, int max)
{
	int n = 0;
	for (const char *p = strstr(svg, "<g transform=\"translate("); p && n < max;
	     p = strstr(p + 1, "<g transform=\"translate(")) {
		double x, y;
		char rest[32], colour[16], role[24];
		if (sscanf(p, "<g transform=\"translate(%lf,%lf)%31[^>]><title>%15[a-z] %23[a-z]</title>", &x, &y, rest,
			   colour, role) != 5)
			continue;
		bool lying = !strcmp(rest, " rotate(-90)\"");
		if (!lying && strcmp(rest, "\""))
			continue;
		int c = 0;
		while (c < CARC_COLOURS && strcmp(carc_colour_name(c), colour))
			c++;
		if (c == CARC_COLOURS)
			continue; /* a symbol's title, not a follower's */
		/* the body point (-5.1, 5.8); lying, turned a quarter left: (5.8, 5.1) */
		spots[n] = (struct spot){lying ? x + 5.8 : x - 5.1, lying ? y + 5.1 : y + 5.8,
					 hex_colour(carc_svg_colour(c)), ""};
		snprintf(spots[n].what, sizeof spots[n].what, "%s %s at %.1f,%.1f", colour, role, x, y);
		n++;
	}
	const char *frame = strstr(svg, "stroke=\"#ff9800\"");
	if (frame && n < max) {
		while (frame > svg && strncmp(frame, "<rect ", 6))
			frame--;
		double x, y;
		assert_int_equal(sscanf(frame, "<rect x=\"%lf\" y=\"%lf\"", &x, &y), 2);
		spots[n++] = (struct spot){x, y + 47.5, 0xff9800, "the last tile's frame"};
	}
	return n;
}

/* Generated games, several turns each, drawn as SVG and as PNG at a scale:
 * the PNG is the SVG's size times the scale, and every spot of the SVG has
 * its colour in the PNG. */
static void test_raster_png_agrees_with_svg(void **state)
{
	(void)state;
	if (!have_librsvg()) {
		skip();
		return;
	}
	char *record = temp_file(), *svg_path = temp_file(), *png_path = temp_file();
	static const char *const seeds[] = {"3", "11"};
	int followers = 0;
	for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++) {
		char *gen_argv[] = {(char *)"gen", (char *)"--players", (char *)"5", (char *)"--seed", (char *)seeds[k],
				    (char *)"--deploy-rate", (char *)"0.8", (char *)"-o", record, NULL};
		assert_int_equal(cmd_gen(9, gen_argv), CARC_EXIT_OK);
		static const char *const turns[] = {"5", "30", "71"};
		static const char *const scales[] = {"1.5", "2", "3"};
		for (size_t t = 0; t < 3; t++) {
			const char *svg_options[] = {"--turn", turns[t], NULL};
			assert_int_equal(render(record, svg_path, svg_options), CARC_EXIT_OK);
			const char *png_options[] = {"--turn", turns[t], "--format", "png", "--scale", scales[t], NULL};
			assert_int_equal(render(record, png_path, png_options), CARC_EXIT_OK);
			size_t n;
			char *svg = (char *)read_file(svg_path, &n);
			unsigned char *png = read_file(png_path, &n);
			struct image im = decode_png(png, n);
			double scale = atof(scales[t]), w, h;
			assert_int_equal(sscanf(strstr(svg, "<svg "), "<svg xmlns=\"http://www.w3.org/2000/svg\" "
								   "version=\"1.1\" width=\"%lf\" height=\"%lf\"", &w, &h), 2);
			assert_int_equal(im.width, (unsigned)(w * scale + 0.5));
			assert_int_equal(im.height, (unsigned)(h * scale + 0.5));
			double u = im.width / (w / 0.8); /* pixels a unit of the viewBox */
			struct spot spots[64];
			int ns = find_spots(svg, spots, 64);
			assert_true(ns >= 6); /* 5 meeples in the legend, the frame */
			for (int i = 0; i < ns; i++) {
				char what[128];
				snprintf(what, sizeof what, "seed %s turn %s: %s", seeds[k], turns[t], spots[i].what);
				assert_colour_at(&im, spots[i].x * u, spots[i].y * u, spots[i].colour, what);
			}
			followers += ns;
			free(im.pixels);
			free(png);
			free(svg);
		}
	}
	assert_true(followers > 40);
	unlink(record);
	unlink(svg_path);
	unlink(png_path);
	free(record);
	free(svg_path);
	free(png_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raster_size),
		cmocka_unit_test(test_raster_png_golden),
		cmocka_unit_test(test_raster_png_agrees_with_svg),
	};
	return cmocka_run_group_tests_name("raster", tests, NULL, NULL);
}
