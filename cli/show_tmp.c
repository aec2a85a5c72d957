#include "cli.h"
int cmd_show(cli_ctx *c) { (void)c; return 1; }
void cli_draw_board(const tc_position *p, FILE *out, int white_bottom, int unicode) { (void)p; (void)out; (void)white_bottom; (void)unicode; }
