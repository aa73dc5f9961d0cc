#include "cli.h"
int cmd_tiles(int argc, char **argv) { (void)argc; (void)argv; return carc_usage_error("tiles", "not yet"); }
