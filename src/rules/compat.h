/*
 * compat.h - the names report.c used before the rule-set interface, for it
 * alone, until it reads the modules' words and hooks (module.h): the solo
 * calls on res->solo, the modules' event kinds, and the old name of the
 * areas' source. Nothing else includes it; it goes with report.c's change.
 */
#ifndef CARC_RULES_COMPAT_H
#define CARC_RULES_COMPAT_H

#include "rules/hunters.h"
#include "rules/solo.h"

#define CARC_SRC_FARM CARC_SRC_AREA

#endif
