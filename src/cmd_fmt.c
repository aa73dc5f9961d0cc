#include "cli.h"
int cmd_fmt(int argc, char **argv) { (void)argc; (void)argv; return carc_usage_error("fmt", "not yet"); }
