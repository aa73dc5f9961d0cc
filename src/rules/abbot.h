/*
 * abbot.h - The Abbot: what other layers may name of it (abbot.c has the
 * rules and the table).
 */
#ifndef CARC_ABBOT_H
#define CARC_ABBOT_H

#include "engine/game.h"

/* Its event kind (engine/game.h: from CARC_EV_MODULE, unique in the
 * registry): a cloister or garden scored when its abbot is taken back
 * ("return abbot"), as the final scoring would score it. */
enum { CARC_EV_ABBOT_RETURN = CARC_EV_MODULE + 3 };
_Static_assert((int)CARC_EV_ABBOT_RETURN < (int)CARC_EV_KINDS, "the abbot's event kind has room");

#endif
