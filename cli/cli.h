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
    int xboard;    /* --xboard given to pgn (write games XBoard can load) */
    int ascii;     /* --ascii */
    int help;      /* --help or -h after the command */
    const char *fen_arg;
    const char *variant_name, *variant_file, *play_moves;
    int variant_given; /* --variant or --variant-file was given */
    int engine_side; /* play: the side topochess plays, -1 none */
    int level;       /* play: engine level 1..20 (20: no depth cap) */
    int movetime;    /* play: engine thinking time per move, ms */
    int movetime_given; /* --movetime was given (review: time, not nodes) */
    const char *pgn_in;  /* play --pgn: the game to continue */
    const char *pgn_out; /* play --pgn-out: where the game is saved at the end */
    int compact;     /* play --compact: the short board drawing */
    int json;        /* endgame --json */
    const char *out_dir; /* endgame --out DIR */
    int threads;     /* endgame --threads N (0: default) */
    int endgames;    /* topology --endgames */
    int symmetries;  /* topology --symmetries */
    const char *eval_file; /* play, uci --eval-file: a net file (docs/nnue.md) */
    int tune;              /* uci --tune: the search's parameters as options (docs/search.md) */
} cli_ctx;

/* The options, as bits of a command's `options` mask. */
enum {
    OPT_VARIANT = 1u << 0,
    OPT_VARIANT_FILE = 1u << 1,
    OPT_FEN = 1u << 2,
    OPT_PLAY = 1u << 3,
    OPT_ENGINE = 1u << 4,
    OPT_LEVEL = 1u << 5,
    OPT_MOVETIME = 1u << 6,
    OPT_UCI = 1u << 7,
    OPT_DIVIDE = 1u << 8,
    OPT_ASCII = 1u << 9,
    OPT_PGN = 1u << 10,
    OPT_PGN_OUT = 1u << 11,
    OPT_COMPACT = 1u << 12,
    /* options that the command reads itself from its arguments: the parser
     * checks that they apply and passes them on in c->argv */
    OPT_JSON = 1u << 13,
    OPT_OUT = 1u << 14,
    OPT_THREADS = 1u << 15,
    OPT_ENDGAMES = 1u << 16,
    OPT_XBOARD = 1u << 17,
    OPT_OWN = 1u << 18, /* the command reads every argument itself (serve) */
    OPT_EVAL_FILE = 1u << 19,
    OPT_SYMMETRIES = 1u << 20,
    OPT_TUNE = 1u << 21
};

/// One command: what it runs, which options and how many arguments it takes.
typedef struct cli_command {
    const char *name;
    int (*run)(struct cli_ctx *);
    int needs_position;
    unsigned options;
    int min_args, max_args; /* max -1: any number */
    const char *args_text;  /* "one DEPTH", for messages */
    const char *usage;      /* the usage line after "topochess " */
} cli_command;

/* args.c: reads the options and arguments after the command name into c
 * (c->argv must have room for argc entries); -1 after printing the
 * problem. cli_check_arg_count then holds the arguments against the
 * command's counts, with a hint for a stray one. */
int cli_parse_args(const cli_command *cmd, int argc, char **argv, cli_ctx *c);
int cli_check_arg_count(const cli_command *cmd, cli_ctx *c);
/* Reads a whole file (NULL with a message on standard error). */
char *cli_read_file(const char *path, size_t *len);
/* Writes s to standard output as a JSON string (quotes, backslashes and
 * control characters escaped; the puzzles' and tactics' --json). */
void cli_json_string(const char *s);
/* 1 (and a message) when a game's [Variant] tag names another variant
 * than the one given with --variant or --variant-file. */
int cli_pgn_variant_conflict(const tc_pgn_game *g, const cli_ctx *c, char *msg, size_t n);
/* moves CELL: that piece's moves (SAN, or coordinates with uci), each
 * with its path. */
void cli_print_piece_moves(const tc_position *p, int cell, int uci, FILE *out);
/* Writes "check: bishop c8 via ..." lines for the side to move's king,
 * with a legend of the join marks on the last one if legend_wanted. */
void cli_print_check(const tc_position *p, FILE *out, int legend_wanted);
/* Why the move text is not a legal move, as play and --play say it:
 * "illegal move 'a6': the pawn on a7 ...", or the explanation's message
 * alone when it names the text itself (syntax, ambiguous, promotion,
 * game over). */
struct tc_explanation;
void cli_explain_line(const char *text, const struct tc_explanation *x, char *buf, size_t n);
/* The compact drawing (board and coordinates only) for short terminals. */
void cli_draw_board_compact(const tc_position *p, FILE *out, int white_bottom, int unicode);
/* Lines that cli_draw_board writes for this position's board. */
int cli_board_lines(const tc_position *p);

/* analyse.c: `analyse [depth N] [time SECONDS] [lines K]` (play and
 * `topochess analyse`): the best lines in SAN, scores for White, and the
 * solved-ending verdict where the material has one. A cli_analysis keeps
 * the last solved ending between calls. cli_analyse returns -1 after
 * printing a problem with the words to err_out (as "topochess: ..." when
 * that is stderr). */
typedef struct cli_analysis cli_analysis;
typedef struct tc_engine tc_engine;
typedef struct tc_dead_table tc_dead_table;
cli_analysis *cli_analysis_new(void);
void cli_analysis_free(cli_analysis *a);
int cli_analyse(cli_analysis *a, tc_engine *eng, tc_dead_table *dead, const tc_position *p, const char *args,
                FILE *out, FILE *err_out);
int cmd_analyse(cli_ctx *c);

/* Each returns the exit status: 0 success, 1 bad input. */
int cmd_show(cli_ctx *c);
int cmd_play(cli_ctx *c);
int cmd_topology(cli_ctx *c);
int cmd_bench(cli_ctx *c);
int cmd_endgame(cli_ctx *c);
int cmd_dead(cli_ctx *c);
/* endgame_cmd.c: a table row per solved ending (share won, longest mate). */
void cli_endgame_summary(const tc_variant *v, const char *const *endings, int n, uint64_t max_entries,
                         FILE *out);
/* puzzle_cmd.c: mate puzzles from the solved endings (docs/puzzles.md). */
int cmd_puzzles(cli_ctx *c);
int cmd_puzzle(cli_ctx *c);
/* tactics_cmd.c: tactic puzzles from self-play and PGN games. */
int cmd_tactics(cli_ctx *c);
/* adapters.c: the engine protocols on stdio and the match runner. */
int cmd_uci(cli_ctx *c);
int cmd_xboard(cli_ctx *c);
int cmd_match(cli_ctx *c);
/* datagen.c: self-play training data (docs/nnue.md). */
int cmd_datagen(cli_ctx *c);
/* serve.c: the web hub (server/). */
int cmd_serve(cli_ctx *c);
/* page_cmd.c: page reflow FILE, page guess FILE */
int cmd_page(cli_ctx *c);
/* admin.c: admin editor NAME [--revoke] */
int cmd_admin(cli_ctx *c);

/* Draws the board with its joins; `white_bottom` chooses the orientation,
 * `unicode` allows box-drawing characters and piece glyphs. */
void cli_draw_board(const tc_position *p, FILE *out, int white_bottom, int unicode);

#endif
