#include "cli.h"
int cmd_uci(cli_ctx *c) { (void)c; fprintf(stderr, "topochess: uci is not built yet\n"); return 1; }
int cmd_xboard(cli_ctx *c) { (void)c; fprintf(stderr, "topochess: xboard is not built yet\n"); return 1; }
