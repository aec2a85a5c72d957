#include "cli.h"
int cmd_show(cli_ctx *c) { (void)c; return 1; }
int cmd_play(cli_ctx *c) { (void)c; return 1; }
int cmd_topology(cli_ctx *c) { (void)c; return 1; }
int cmd_bench(cli_ctx *c) { (void)c; return 1; }
int cmd_pgn(cli_ctx *c) { (void)c; return 1; }
