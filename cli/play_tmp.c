#include "cli.h"
int cmd_play(cli_ctx *c) { (void)c; return 1; }
