#include "cli.h"
int cmd_topology(cli_ctx *c) { (void)c; return 1; }
