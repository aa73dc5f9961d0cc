/*
 * inns.h - Inns & Cathedrals: what other layers may name of it (inns.c has
 * the rules and the table).
 */
#ifndef CARC_INNS_H
#define CARC_INNS_H

#include "engine/game.h"

/* Its event kinds (engine/game.h: from CARC_EV_MODULE, unique in the
 * registry): a road with an inn, or a city with a cathedral, scored when
 * completed (2 a tile; 3 a tile and a pennant) or left open at the end (0).
 * Named inn, inn-open, cathedral, cathedral-open. */
enum {
	CARC_EV_INN = CARC_EV_MODULE + 8,
	CARC_EV_INN_OPEN = CARC_EV_MODULE + 9,
	CARC_EV_CATHEDRAL = CARC_EV_MODULE + 10,
	CARC_EV_CATHEDRAL_OPEN = CARC_EV_MODULE + 11,
};
_Static_assert((int)CARC_EV_CATHEDRAL_OPEN < (int)CARC_EV_KINDS, "the inns' event kinds have room");

#endif
