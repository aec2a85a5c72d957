/* topochess command line: a thin front end over the library. */
#include "cli.h"

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
            "  moves [--uci]       list the legal moves (SAN, or coordinates with --uci)\n"
            "  perft DEPTH [--divide]  count leaf nodes (per root move with --divide)\n"
            "  topology            report the board's topology, computed from its step function\n"
            "  play [--engine white|black] [--level 1-20] [--movetime MS]\n"
            "                      play a game in the terminal, alone or against topochess\n"
            "  pgn FILE [--fen]    replay every game of a PGN file\n"
            "  bench               perft speed on fixed positions of every preset\n"
            "  uci | xboard        speak the UCI or CECP (XBoard) protocol on stdin/stdout\n"
            "  match engine1=CMD engine2=CMD [key=value ...]  play two engines under our rules\n"
            "  serve [--port 8080] [--host 127.0.0.1] [--pages DIR] [--static DIR]\n"
            "                      the hub of variant pages in the browser (topochess serve --help)\n");
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

typedef struct {
    const char *name;
    int (*run)(cli_ctx *);
    int needs_position;
} command;

static const command commands[] = {
    {"variants", cmd_variants, 0}, {"show", cmd_show, 1},   {"fen", cmd_fen, 1},
    {"moves", cmd_moves, 1},       {"perft", cmd_perft, 1}, {"topology", cmd_topology, 1},
    {"play", cmd_play, 1},         {"pgn", cmd_pgn, 0},     {"bench", cmd_bench, 0},
    {"uci", cmd_uci, 0},           {"xboard", cmd_xboard, 0}, {"match", cmd_match, 0},
    {"serve", cmd_serve, 0},
};

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr);
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(stdout);
    const command *cmd = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            cmd = &commands[i];
    if (!cmd) {
        fprintf(stderr, "topochess: unknown command '%s' (try 'topochess help')\n", argv[1]);
        return 1;
    }
    cli_ctx c;
    memset(&c, 0, sizeof c);
    c.engine_side = -1;
    c.level = 10;
    c.movetime = 1000;
    const char *variant = NULL, *variant_file = NULL, *play = NULL;
    char **rest = calloc((size_t)argc, sizeof *rest);
    if (!rest)
        return 1;
    int status = 1;
    tc_error err;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--variant") && has_value)
            variant = argv[++i];
        else if (!strcmp(a, "--variant-file") && has_value)
            variant_file = argv[++i];
        else if (!strcmp(a, "--fen") && !strcmp(cmd->name, "pgn"))
            c.print_fen = 1;
        else if (!strcmp(a, "--fen") && has_value)
            c.fen_arg = argv[++i];
        else if (!strcmp(a, "--play") && has_value)
            play = argv[++i];
        else if (!strcmp(a, "--engine") && has_value) {
            const char *side = argv[++i];
            c.engine_side = !strcmp(side, "white") ? TC_WHITE : !strcmp(side, "black") ? TC_BLACK
                          : !strcmp(side, "none")  ? -1 : -2;
            if (c.engine_side == -2) {
                fprintf(stderr, "topochess: --engine takes white, black or none, not '%s'\n", side);
                goto done;
            }
        } else if ((!strcmp(a, "--level") || !strcmp(a, "--movetime")) && has_value) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            int level = !strcmp(a, "--level");
            if (*end || n < 1 || n > (level ? 20 : 600000)) {
                fprintf(stderr, "topochess: %s takes a number from 1 to %d, not '%s'\n", a,
                        level ? 20 : 600000, argv[i]);
                goto done;
            }
            *(level ? &c.level : &c.movetime) = (int)n;
        } else if (!strcmp(a, "--uci"))
            c.uci = 1;
        else if (!strcmp(a, "--divide"))
            c.divide = 1;
        else if (!strcmp(a, "--ascii"))
            c.ascii = 1;
        else if (a[0] == '-' && a[1] == '-' && cmd->run != cmd_serve) { /* serve reads its own */
            fprintf(stderr, "topochess: unknown or incomplete option '%s'\n", a);
            goto done;
        } else
            rest[c.argc++] = argv[i];
    }
    c.argv = rest;
    if (variant && variant_file) {
        fprintf(stderr, "topochess: give --variant or --variant-file, not both\n");
        goto done;
    }
    if (variant_file ? tc_variant_file_load(variant_file, &c.def, &err)
                     : tc_preset_find(variant ? variant : "chess", &c.def, &err)) {
        fprintf(stderr, "topochess: %s\n", err.msg);
        goto done;
    }
    if (cmd->needs_position || variant || variant_file || c.fen_arg || play) {
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
        if (play && tc_play_moves(c.pos, play, &err)) {
            fprintf(stderr, "topochess: --play: %s\n", err.msg);
            goto done;
        }
    }
    status = cmd->run(&c);
done:
    tc_position_free(c.pos);
    tc_variant_free(c.variant);
    free(rest);
    return status;
}
