/* `topochess bench [perft|search] [--eval-file FILE|<none>]`: move
 * generation speed as perft with bulk counting, and search speed at fixed
 * depth, on fixed positions of every preset. Each node total is a fixed
 * signature: a change in Perft means the rules changed, in Bench that the
 * search or the evaluation did. The search evaluates with each preset's
 * built-in net, or with --eval-file's net, or hand-written (`<none>`), so
 * that both speeds can be measured by the same build. */
#include "cli.h"
#include "topochess_engine.h"

#include <string.h>
#include <time.h>

/// One benchmark position: a preset, a FEN (NULL: the start) and a depth.
typedef struct {
    const char *variant;
    const char *label;
    const char *fen;
    int depth;
} bench_pos;

static const bench_pos perft_positions[] = {
    {"chess", "start", NULL, 6},
    {"chess", "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    {"cylinder", "start", NULL, 5},
    {"folding", "start", NULL, 5},
    {"monteiro-cylinder", "start", NULL, 5},
    {"torus", "start", NULL, 5},
    {"mobius", "start", NULL, 5},
    {"klein-bottle", "start", NULL, 5},
};

/* Search: each preset's start and one middlegame from its reference file. */
static const bench_pos search_positions[] = {
    {"chess", "start", NULL, 10},
    {"chess", "middle", "rnbqkb1r/1pp2p1p/p2p1n2/6p1/PP1PpP1P/6RN/2P1P1P1/1NBQKB1R b Kkq d3 0 9", 9},
    {"cylinder", "start", NULL, 10},
    {"cylinder", "middle", "rnbqkr2/ppppp2n/2B4b/2B1Pppp/6PP/1PNP3N/P1P1QP2/R3K2R w KQq - 7 16", 9},
    {"folding", "start", NULL, 9},
    {"folding", "middle", "rnbqk2r/ppppbppp/5n2/4p3/8/3PPP2/PPPN2PP/R1BQKBNR b KQkq - 2 4", 9},
    {"monteiro-cylinder", "start", NULL, 9},
    {"monteiro-cylinder", "middle",
     "PPP1PPPP/3P4/8/8/7p/ppppppp1/rnbqkbnr/1ppppp1p/p7/5Pp1/8/8/PPPPP1PP/RNBQKBNR w KQkq g6 0 4", 8},
    {"torus", "start", NULL, 9},
    {"torus", "middle",
     "P1PP1PPP/3BPN2/1P1n3r/p3p3/5Bp1/1pppqp2/r1b3Q1/ppppkp2/8/4pn1p/5PpP/2P1P3/PP1N2P1/R2K2R1 b - f3 0 18", 8},
    {"mobius", "start", NULL, 9},
    {"mobius", "middle",
     "1P1PPPPR/P1P4P/8/8/5np1/ppppppbp/rnbqk2r/1ppppppp/8/p7/6P1/8/PPPPPP1P/RNBQKBN1 b Qkq - 2 5", 8},
    {"klein-bottle", "start", NULL, 9},
    {"klein-bottle", "middle",
     "PPPPPPPP/5N2/8/2p5/8/pp1ppppp/rnb1kbnr/pppqpppp/3p4/1B6/4P3/8/PPPP1PPP/RNBQK2R w KQkq c10 0 4", 8},
};

/* CPU time of the process, not the wall clock: the bench runs one thread,
 * and on a shared machine the wall clock counts the other jobs' turns. */
static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Builds the variant and position of a bench entry; 0 or -1 (reported). */
static int bench_setup(const bench_pos *b, tc_variant **v, tc_position **p)
{
    tc_variant_def def;
    tc_error err;
    *v = NULL;
    *p = NULL;
    if (tc_preset_find(b->variant, &def, &err) || !(*v = tc_variant_new(&def, &err)) ||
        !(*p = tc_position_new(*v)) || (b->fen && tc_position_set_fen(*p, b->fen, &err))) {
        fprintf(stderr, "topochess: bench %s: %s\n", b->variant, *v && !*p ? "out of memory" : err.msg);
        tc_position_free(*p);
        tc_variant_free(*v);
        return -1;
    }
    return 0;
}

/* The perft table and its signature line; 0, or 1 after a message. */
static int bench_perft(void)
{
    uint64_t total = 0;
    double total_time = 0;
    printf("perft (bulk counting at the leaves)\n");
    printf("%-18s %-9s %5s %12s %9s %8s\n", "variant", "position", "depth", "nodes", "seconds", "Mnps");
    for (size_t i = 0; i < sizeof perft_positions / sizeof perft_positions[0]; i++) {
        const bench_pos *b = &perft_positions[i];
        tc_variant *v;
        tc_position *p;
        if (bench_setup(b, &v, &p))
            return 1;
        double t0 = seconds();
        uint64_t n = tc_perft(p, b->depth);
        double dt = seconds() - t0;
        printf("%-18s %-9s %5d %12llu %9.3f %8.1f\n", b->variant, b->label, b->depth, (unsigned long long)n,
               dt, dt > 0 ? n / dt / 1e6 : 0.0);
        fflush(stdout);
        total += n;
        total_time += dt;
        tc_position_free(p);
        tc_variant_free(v);
    }
    printf("perft total: %llu nodes, %.3f s, %.1f Mnps\n", (unsigned long long)total, total_time,
           total_time > 0 ? total / total_time / 1e6 : 0.0);
    printf("Perft: %llu\n\n", (unsigned long long)total);
    return 0;
}

#define EVAL_NONE "<none>"

/* Searches one bench position with a fresh engine (one thread, 16 MiB)
 * evaluating as eval_file says (NULL: the built-in net); the nodes, or -1
 * after a message when the net is refused. */
static long long bench_one(const bench_pos *b, const tc_position *p, const char *eval_file, tc_move *best)
{
    tc_engine *e = tc_engine_new(tc_position_variant(p), 16, 1);
    tc_error err;
    if (!e) {
        fprintf(stderr, "topochess: bench %s: out of memory\n", b->variant);
        return -1;
    }
    if (eval_file && !strcmp(eval_file, EVAL_NONE)) {
        tc_engine_clear_net(e);
    } else if (eval_file && tc_engine_load_net(e, eval_file, &err)) {
        fprintf(stderr, "topochess: bench %s: --eval-file: %s\n", b->variant, err.msg);
        tc_engine_free(e);
        return -1;
    }
    long long nodes = 0;
    if (tc_engine_set_position(e, p) == 0) {
        tc_limits l;
        tc_limits_init(&l);
        l.depth = b->depth;
        tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
        nodes = (long long)r.nodes;
        *best = r.best;
    }
    tc_engine_free(e);
    return nodes;
}

/* The search table: one thread, a fresh 16 MiB table per position, fixed
 * depth; its node total is the signature. */
static int bench_search(const char *eval_file)
{
    uint64_t snodes = 0;
    double stime = 0;
    printf("search (fixed depth, 1 thread, fresh hash table; evaluation: %s)\n",
           !eval_file ? "built-in nets" : !strcmp(eval_file, EVAL_NONE) ? "hand-written" : eval_file);
    printf("%-18s %-9s %5s %12s %9s %8s  %s\n", "variant", "position", "depth", "nodes", "seconds", "knps",
           "move");
    for (size_t i = 0; i < sizeof search_positions / sizeof search_positions[0]; i++) {
        const bench_pos *b = &search_positions[i];
        tc_variant *v;
        tc_position *p;
        if (bench_setup(b, &v, &p))
            return 1;
        tc_move best = 0;
        double t0 = seconds();
        long long got = bench_one(b, p, eval_file, &best);
        double dt = seconds() - t0;
        if (got < 0) {
            tc_position_free(p);
            tc_variant_free(v);
            return 1;
        }
        uint64_t n = (uint64_t)got;
        char mv[32];
        tc_move_to_uci(p, best, mv);
        printf("%-18s %-9s %5d %12llu %9.3f %8.0f  %s\n", b->variant, b->label, b->depth, (unsigned long long)n,
               dt, dt > 0 ? n / dt / 1e3 : 0.0, mv);
        fflush(stdout);
        snodes += n;
        stime += dt;
        tc_position_free(p);
        tc_variant_free(v);
    }
    printf("search total: %llu nodes, %.3f s, %.0f nps\n", (unsigned long long)snodes, stime,
           stime > 0 ? snodes / stime : 0.0);
    printf("Bench: %llu\n", (unsigned long long)snodes);
    return 0;
}

int cmd_bench(cli_ctx *c)
{
    const char *part = c->argc > 0 ? c->argv[0] : "";
    if (part[0] && strcmp(part, "perft") && strcmp(part, "search")) {
        fprintf(stderr, "topochess: bench: unknown part '%s' (perft or search)\n", part);
        return 1;
    }
    if (strcmp(part, "search") && bench_perft())
        return 1;
    return strcmp(part, "perft") ? bench_search(c->eval_file) : 0;
}
