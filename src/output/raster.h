/*
 * raster.h - an SVG picture of carc's as a PNG image or a one-page PDF.
 *
 * The work is librsvg's and cairo's. They are not linked into carc: loading
 * them (and glib, pango, fontconfig behind them) would cost every carc
 * start, so they are opened at run time, and only by a command that was
 * asked for a PNG or a PDF.
 */
#ifndef CARC_RASTER_H
#define CARC_RASTER_H

#include "common/util.h"

enum carc_raster_format { CARC_RASTER_PNG, CARC_RASTER_PDF };

/* The largest picture carc draws: this many pixels a side, and this many in
 * all (256 MiB of 4-byte pixels), so that memory stays bounded whatever the
 * map and the options. A PDF's page is measured in the same pixels. */
#define CARC_RASTER_MAX_SIDE 16384
#define CARC_RASTER_MAX_PIXELS (1L << 26)
/* The largest --scale. */
#define CARC_RASTER_MAX_SCALE 100.0

/* The library loaded, and the file name dlopen() is given for it unless the
 * environment variable CARC_LIBRSVG names another (a test hook). */
#define CARC_RASTER_LIBRARY "librsvg-2.so.2"
#define CARC_RASTER_LIBRARY_ENV "CARC_LIBRSVG"

struct carc_raster_options {
	enum carc_raster_format format;
	int width;          /* the picture's width in pixels; 0: the SVG's own times scale */
	double scale;       /* when width is 0; 0 counts as 1 */
	const char *title;  /* a PDF's title, may be NULL */
};

/* Loads librsvg and cairo, once. False, with why set to a sentence naming
 * the library and the Debian package to install, when they cannot be
 * loaded or lack a function carc needs. */
bool carc_raster_load(struct carc_buf *why);

/* The size in pixels of a picture of an SVG whose own size is w x h pixels,
 * under o's width or scale. False, with why saying what the limits are,
 * when it would exceed CARC_RASTER_MAX_SIDE or CARC_RASTER_MAX_PIXELS. */
bool carc_raster_size(double w, double h, const struct carc_raster_options *o, int *pw, int *ph,
		      struct carc_buf *why);

/* Draws the SVG document in svg as o asks and replaces svg's bytes with the
 * PNG or PDF file. Loads the libraries if need be. False, with why set and
 * svg left as it was, when they cannot be loaded, the picture would be too
 * large, or drawing fails. */
bool carc_raster(struct carc_buf *svg, const struct carc_raster_options *o, struct carc_buf *why);

#endif
