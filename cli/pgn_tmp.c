#include "cli.h"
int cmd_pgn(cli_ctx *c) { (void)c; return 1; }
