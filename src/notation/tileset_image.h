/*
 * tileset_image.h - the bundled tile sets as C data, for a build without
 * libyaml (the WebAssembly engine of carc recorder's page, CARC_NO_YAML).
 *
 * The host build reads each bundled set with the one tile-set reader and
 * writes the result as initializers (src/tools/tileset_image.c); in the
 * build without libyaml, tileset.c copies the image of a bundled set where
 * it would parse its text, and refuses every other tile set.
 */
#ifndef CARC_TILESET_IMAGE_H
#define CARC_TILESET_IMAGE_H

#include "notation/tileset.h"

struct carc_tileset_image {
	const char *name;                /* the bundled name; NULL ends the table */
	const struct carc_tileset *set;  /* tiles and source are not set here */
	const struct carc_tile *tiles;   /* ntiles + nextra of them */
};

/* Generated: one entry a bundled set, then {NULL}. */
extern const struct carc_tileset_image carc_tileset_images[];

#endif
