/*
 * traders.h - Traders & Builders: what other layers may name of it
 * (traders.c has the rules and the table).
 */
#ifndef CARC_TRADERS_H
#define CARC_TRADERS_H

#include "engine/game.h"

/* Its event kinds (engine/game.h: from CARC_EV_MODULE, unique in the
 * registry): the final bonus of each good, 10 to each colour holding the
 * most tokens of it (items: their count; followers[]: every colour's). */
enum {
	CARC_EV_WINE = CARC_EV_MODULE + 4, /* (+8..+11 are the inns') */
	CARC_EV_GRAIN = CARC_EV_MODULE + 5,
	CARC_EV_CLOTH = CARC_EV_MODULE + 6,
};
_Static_assert((int)CARC_EV_CLOTH < (int)CARC_EV_KINDS, "the goods' event kinds have room");

/* Its point sources (engine/game.h: from CARC_SRC_MODULE): the goods
 * bonus, and the pigs' extra point a city (paid in the farms' events as a
 * per-winner bonus, counted here in the breakdown). */
enum { CARC_SRC_GOODS = CARC_SRC_MODULE + 2, CARC_SRC_PIGS = CARC_SRC_MODULE + 3 };
_Static_assert((int)CARC_SRC_PIGS < (int)CARC_SRC_COUNT, "the traders' sources have room");

/* The goods, in the order of the event kinds. */
enum { CARC_GOODS_KINDS = 3 };
extern const char *const carc_goods_names[CARC_GOODS_KINDS]; /* "wine", "grain", "cloth" */

/* Each colour's goods tokens after the events of the game so far (a
 * completed city's goods go to the colour that placed the tile of the turn
 * that completed it): tokens[good][colour]. Counts every event up to
 * nevents. */
void carc_traders_tokens(struct carc_game *g, size_t nevents, int tokens[CARC_GOODS_KINDS][CARC_COLOURS]);

#endif
