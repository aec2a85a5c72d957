/* topochess command line: a thin front end over the library. */
#include "cli.h"
#include "topochess_explain.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static int usage(FILE *out)
{
    fprintf(out,
            "usage: topochess COMMAND [--variant NAME | --variant-file PAGE] [--fen FEN] [--play \"MOVES\"]\n"
            "commands:\n"
            "  variants            list the preset variants\n"
            "  show [--ascii]      draw the position with the board's joins\n"
            "  fen                 print the position's FEN\n"
            "  moves [CELL] [--uci]  list the legal moves (SAN, or coordinates with --uci);\n"
            "                      with CELL, that piece's moves and the path of each\n"
            "  perft DEPTH [--divide]  count leaf nodes (per root move with --divide)\n"
            "  topology [--endgames]  report the board's topology, computed from its step function\n"
            "  topology --symmetries [--json]  the symmetries of the board's rules (mirrors, shifts, colour flip)\n"
            "  play [--engine white|black|off] [--level 1-20] [--movetime MS]\n"
            "       [--pgn FILE] [--pgn-out FILE] [--compact] [--ascii] [--eval-file NET]\n"
            "                      play a game in the terminal, alone or against topochess\n"
            "  analyse [depth N] [time SECONDS] [lines K]  the engine's best lines (SAN, scores for\n"
            "                      White) and the solved ending's verdict, if any; a second by default\n"
            "  pgn FILE [--fen]    replay every game of a PGN file\n"
            "  pgn FILE --xboard   write the games with coordinate moves, for XBoard's -lgf\n"
            "  review FILE [nodes N | depth N] [--movetime MS] [--json]\n"
            "                      every game judged move by move: PGN with [%%eval] after each move,\n"
            "                      inaccuracies, mistakes and blunders with the better move, accuracy\n"
            "  bench [PART]        perft and search speed on fixed positions of every preset\n"
            "                      (--eval-file NET|'<none>': the search's evaluation; default built-in nets)\n"
            "  dead [MATERIAL ...] dead positions (docs/rules.md section 6) per material on every preset:\n"
            "                      dead, partly (how many of how many) or not; --variant: one board;\n"
            "                      materials named (KBK KRKN): those rows only;\n"
            "                      --fen FEN: dead or not dead, and why; --out DIR: keep the marks there\n"
            "  endgame ENDING [--json] [--out DIR] [--threads N]\n"
            "                      solve a pawnless ending (KRK, KQKR, ...); --fen: that position's value\n"
            "  puzzles [--material KRK,...] [--count N] [--seed S] [--min-mate A] [--max-mate B] [--json]\n"
            "                      mate puzzles from the solved endings (docs/puzzles.md)\n"
            "  puzzle --fen FEN    solve one in the terminal, each move judged by the tables\n"
            "  tactics [--count N] [--games N] [--seed S] [--nodes N] [--pgn FILE ...] [--json | --epd]\n"
            "                      tactic puzzles from self-play and PGN games, confirmed deeper\n"
            "  uci | xboard        speak the UCI or CECP (XBoard) protocol on stdin/stdout\n"
            "                      (uci --eval-file NET: evaluate with that net, see docs/nnue.md)\n"
            "  match engine1=CMD engine2=CMD [key=value ...]  play two engines under our rules\n"
            "  datagen --out FILE [--variant NAME] [--nodes 5000] [--games N | --positions N] [--threads N]\n"
            "          [--seed N]  self-play positions scored by the search, to train a net (datagen --help)\n"
            "  serve [--port 8080] [--host 127.0.0.1] [--pages DIR] [--static DIR]\n"
            "                      the hub of variant pages in the browser (topochess serve --help)\n"
            "Options take their value as the next word or after '=' (--variant=torus).\n"
            "The rules of play: docs/rules.md (served by `topochess serve` at /docs/rules).\n");
    return out == stderr ? 1 : 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_variants(cli_ctx *c)
{
    (void)c;
    printf("%-18s %-6s %-26s %s\n", "name", "size", "topology", "description");
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *d = tc_preset(i);
        tc_error err;
        tc_variant *v = tc_variant_new(d, &err);
        char topo[64] = "?", size[16];
        if (v)
            tc_variant_topology_text(v, topo, sizeof topo);
        snprintf(size, sizeof size, "%dx%d", d->width, d->height);
        printf("%-18s %-6s %-26s %s\n", d->name, size, topo, d->description);
        const char *al = tc_preset_aliases(i);
        if (al && *al)
            printf("%-18s %-6s %-26s aliases: %s\n", "", "", "", al);
        tc_variant_free(v);
    }
    return 0;
}

static int cmd_fen(cli_ctx *c)
{
    char buf[800];
    tc_position_fen(c->pos, buf, sizeof buf);
    printf("%s\n", buf);
    return 0;
}

static int cmd_moves(cli_ctx *c)
{
    if (c->argc == 1) {
        int cell = tc_cell_parse(c->variant, c->argv[0]);
        if (cell < 0) {
            fprintf(stderr, "topochess: moves: '%s' is not a cell of this %dx%d board\n", c->argv[0],
                    tc_variant_width(c->variant), tc_variant_height(c->variant));
            return 1;
        }
        if (!tc_piece_at(c->pos, cell)) {
            fprintf(stderr, "topochess: moves: there is no piece on %s\n", c->argv[0]);
            return 1;
        }
        cli_print_piece_moves(c->pos, cell, c->uci, stdout);
        return 0;
    }
    tc_movelist *list = malloc(sizeof *list);
    if (!list)
        return 1;
    int n = tc_generate_legal(c->pos, list);
    for (int i = 0; i < n; i++) {
        char buf[32];
        if (c->uci)
            tc_move_to_uci(c->pos, list->moves[i], buf);
        else
            tc_move_to_san(c->pos, list->moves[i], buf);
        printf("%s\n", buf);
    }
    free(list);
    return 0;
}

static int parse_depth(const char *s, int *depth)
{
    char *end;
    long d = s ? strtol(s, &end, 10) : -1;
    if (!s || *end || d < 0 || d > 20) {
        fprintf(stderr, "topochess: perft needs a depth from 0 to 20, got '%s'\n", s ? s : "");
        return -1;
    }
    *depth = (int)d;
    return 0;
}

static void print_divide(const char *move, uint64_t nodes, void *ctx)
{
    (void)ctx;
    printf("%s: %llu\n", move, (unsigned long long)nodes);
}

static int cmd_perft(cli_ctx *c)
{
    int depth;
    if (parse_depth(c->argc > 0 ? c->argv[0] : NULL, &depth))
        return 1;
    double t0 = now_seconds();
    uint64_t total = 0;
    if (c->divide && depth > 0)
        total = tc_perft_divide(c->pos, depth, print_divide, NULL);
    else
        total = tc_perft(c->pos, depth);
    double dt = now_seconds() - t0;
    printf("nodes: %llu\n", (unsigned long long)total);
    fprintf(stderr, "time: %.3f s, %.2f Mnps\n", dt, dt > 0 ? total / dt / 1e6 : 0.0);
    return 0;
}

int cmd_pgn(cli_ctx *c);
int cmd_review(cli_ctx *c);

#define POSITION_OPTS (OPT_VARIANT | OPT_VARIANT_FILE | OPT_FEN | OPT_PLAY)
#define VARIANT_OPTS (OPT_VARIANT | OPT_VARIANT_FILE)

static const cli_command commands[] = {
    {"variants", cmd_variants, 0, 0, 0, 0, "", "variants"},
    {"show", cmd_show, 1, POSITION_OPTS | OPT_ASCII, 0, 0, "", "show [--ascii]"},
    {"fen", cmd_fen, 1, POSITION_OPTS, 0, 0, "", "fen"},
    {"moves", cmd_moves, 1, POSITION_OPTS | OPT_UCI, 0, 1, "one CELL", "moves [CELL] [--uci]"},
    {"perft", cmd_perft, 1, POSITION_OPTS | OPT_DIVIDE, 1, 1, "one DEPTH", "perft DEPTH [--divide]"},
    {"topology", cmd_topology, 1, VARIANT_OPTS | OPT_ENDGAMES | OPT_SYMMETRIES | OPT_JSON, 0, 0, "",
     "topology [--endgames | --symmetries [--json]]"},
    {"play", cmd_play, 1,
     POSITION_OPTS | OPT_ENGINE | OPT_LEVEL | OPT_MOVETIME | OPT_ASCII | OPT_PGN | OPT_PGN_OUT | OPT_COMPACT |
         OPT_EVAL_FILE, 0, 0, "",
     "play [--engine white|black|off] [--level N] [--movetime MS] [--pgn FILE] [--pgn-out FILE] [--compact] "
     "[--eval-file FILE]"},
    {"analyse", cmd_analyse, 1, POSITION_OPTS, 0, 6, "up to six words",
     "analyse [depth N] [time SECONDS] [lines K]"},
    {"pgn", cmd_pgn, 0, VARIANT_OPTS | OPT_FEN | OPT_XBOARD, 1, 1, "one FILE", "pgn FILE [--fen | --xboard]"},
    {"review", cmd_review, 0, VARIANT_OPTS | OPT_MOVETIME | OPT_JSON, 1, 3, "FILE [nodes N | depth N]",
     "review FILE [nodes N | depth N] [--movetime MS] [--json]"},
    {"bench", cmd_bench, 0, OPT_EVAL_FILE, 0, 1, "one PART", "bench [perft|search] [--eval-file FILE|<none>]"},
    {"uci", cmd_uci, 0, VARIANT_OPTS | OPT_EVAL_FILE | OPT_TUNE, 0, 0, "", "uci [--eval-file FILE] [--tune]"},
    {"xboard", cmd_xboard, 0, VARIANT_OPTS, 0, 0, "", "xboard"},
    {"match", cmd_match, 0, VARIANT_OPTS, 0, -1, "", "match engine1=CMD engine2=CMD [key=value ...]"},
    {"endgame", cmd_endgame, 1, POSITION_OPTS | OPT_JSON | OPT_OUT | OPT_THREADS, 1, 1, "one ENDING",
     "endgame ENDING [--json] [--out DIR] [--threads N] [--fen FEN]"},
    {"dead", cmd_dead, 0, VARIANT_OPTS | OPT_FEN | OPT_OUT, 0, -1, "",
     "dead [MATERIAL ...] [--variant NAME | --variant-file PAGE] [--fen FEN] [--out DIR]"},
    {"puzzles", cmd_puzzles, 0, OPT_OWN, 0, -1, "",
     "puzzles [--variant NAME] [--material KRK,...] [--count N] [--seed S] [--min-mate A] [--max-mate B] [--json]"},
    {"puzzle", cmd_puzzle, 0, OPT_OWN, 0, -1, "", "puzzle --fen FEN [--variant NAME] [--tables DIR]"},
    {"tactics", cmd_tactics, 0, OPT_OWN, 0, -1, "",
     "tactics [--variant NAME] [--count N] [--games N] [--seed S] [--nodes N] [--pgn FILE ...] [--json | --epd]"},
    {"datagen", cmd_datagen, 0, OPT_OWN, 0, -1, "", "datagen --out FILE [--variant NAME] [--nodes N] [--threads N] ..."},
    {"page", cmd_page, 0, 0, 2, 2, "ACTION and FILE", "page reflow|guess FILE"},
    {"admin", cmd_admin, 0, OPT_OWN, 0, -1, "", "admin editor NAME [--revoke] [--db FILE|postgresql://...]"},
    {"serve", cmd_serve, 0, OPT_OWN, 0, -1, "", "serve [--port 8080] [--host 127.0.0.1] [--pages DIR] [--static DIR]"},
};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

static const cli_command *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(name, commands[i].name))
            return &commands[i];
    const char *names[NCOMMANDS];
    for (int i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    int near = tc_closest_name(name, names, NCOMMANDS);
    if (near >= 0)
        fprintf(stderr, "topochess: unknown command '%s': did you mean '%s'? (try 'topochess help')\n", name,
                names[near]);
    else
        fprintf(stderr, "topochess: unknown command '%s' (try 'topochess help')\n", name);
    return NULL;
}

/* --play: the moves, or the reason the first bad one is not legal, as
 * play gives it. */
static int play_moves(tc_position *p, const char *moves)
{
    tc_explanation *x = malloc(sizeof *x);
    if (!x) {
        fprintf(stderr, "topochess: --play: out of memory\n");
        return -1;
    }
    char text[64], line[800];
    int colour = 0, bad = tc_play_moves_explain(p, moves, x, text, sizeof text, &colour);
    if (bad) {
        cli_explain_line(text, x, line, sizeof line);
        fprintf(stderr, "topochess: --play: move %d (%s): %s\n", bad, colour ? "black" : "white", line);
    }
    free(x);
    return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr);
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(stdout);
    const cli_command *cmd = find_command(argv[1]);
    if (!cmd)
        return 1;
    cli_ctx c;
    memset(&c, 0, sizeof c);
    c.engine_side = -1;
    c.level = 10;
    c.movetime = 1000;
    c.argv = calloc((size_t)argc, sizeof *c.argv);
    if (!c.argv)
        return 1;
    int status = 1;
    tc_error err;
    if (cli_parse_args(cmd, argc - 2, argv + 2, &c))
        goto done;
    if (c.help) {
        printf("usage: topochess %s\n", cmd->usage);
        status = usage(stdout);
        goto done;
    }
    if (c.variant_file ? tc_variant_file_load(c.variant_file, &c.def, &err)
                       : tc_preset_find(c.variant_name ? c.variant_name : "chess", &c.def, &err)) {
        fprintf(stderr, "topochess: %s\n", err.msg);
        goto done;
    }
    if (cmd->needs_position || c.variant_given || c.fen_arg || c.play_moves) {
        c.variant = tc_variant_new(&c.def, &err);
        if (!c.variant) {
            fprintf(stderr, "topochess: variant %s: %s\n", c.def.name, err.msg);
            goto done;
        }
        c.pos = tc_position_new(c.variant);
        if (!c.pos)
            goto done;
        if (c.fen_arg && tc_position_set_fen(c.pos, c.fen_arg, &err)) {
            fprintf(stderr, "topochess: %s\n", err.msg);
            goto done;
        }
        if (c.play_moves && play_moves(c.pos, c.play_moves))
            goto done;
    }
    if (cli_check_arg_count(cmd, &c))
        goto done;
    status = cmd->run(&c);
done:
    tc_position_free(c.pos);
    tc_variant_free(c.variant);
    free(c.argv);
    return status;
}
