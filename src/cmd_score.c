#include "cli.h"
int cmd_score(int argc, char **argv) { (void)argc; (void)argv; return carc_usage_error("score", "not yet"); }
