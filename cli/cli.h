/* The command line's shared context: the variant and position every command
 * starts from, built from --variant/--variant-file, --fen and --play. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include "topochess.h"

/// What the common options produced, plus the command's own arguments.
typedef struct cli_ctx {
    tc_variant_def def;
    tc_variant *variant;
    tc_position *pos;
    int argc;      /* the command's remaining arguments */
    char **argv;
    int uci;       /* --uci */
    int divide;    /* --divide */
    int print_fen; /* --fen given to pgn (print final FENs) */
    int ascii;     /* --ascii */
    const char *fen_arg;
    int engine_side; /* play: the side topochess plays, -1 none */
    int level;       /* play: engine level 1..20 (20: no depth cap) */
    int movetime;    /* play: engine thinking time per move, ms */
} cli_ctx;

/* Each returns the exit status: 0 success, 1 bad input. */
int cmd_show(cli_ctx *c);
int cmd_play(cli_ctx *c);
int cmd_topology(cli_ctx *c);
int cmd_bench(cli_ctx *c);
/* adapters.c: the engine protocols on stdio and the match runner. */
int cmd_uci(cli_ctx *c);
int cmd_xboard(cli_ctx *c);
int cmd_match(cli_ctx *c);
/* serve.c: the web hub (server/). */
int cmd_serve(cli_ctx *c);

/* Draws the board with its joins; `white_bottom` chooses the orientation,
 * `unicode` allows box-drawing characters and piece glyphs. */
void cli_draw_board(const tc_position *p, FILE *out, int white_bottom, int unicode);

#endif
