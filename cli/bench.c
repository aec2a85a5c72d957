/* `topochess bench`: move generation speed as perft with bulk counting on
 * fixed positions of every preset. The node total is a fixed signature: a
 * change in it means the rules changed. */
#include "cli.h"

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

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_bench(cli_ctx *c)
{
    (void)c;
    uint64_t total = 0;
    double total_time = 0;
    printf("perft (bulk counting at the leaves)\n");
    printf("%-18s %-9s %5s %12s %9s %8s\n", "variant", "position", "depth", "nodes", "seconds", "Mnps");
    for (size_t i = 0; i < sizeof perft_positions / sizeof perft_positions[0]; i++) {
        const bench_pos *b = &perft_positions[i];
        tc_variant_def def;
        tc_error err;
        tc_variant *v = NULL;
        tc_position *p = NULL;
        if (tc_preset_find(b->variant, &def, &err) || !(v = tc_variant_new(&def, &err)) ||
            !(p = tc_position_new(v)) || (b->fen && tc_position_set_fen(p, b->fen, &err))) {
            fprintf(stderr, "topochess: bench %s: %s\n", b->variant, err.msg);
            tc_position_free(p);
            tc_variant_free(v);
            return 1;
        }
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
    printf("Bench: %llu\n", (unsigned long long)total);
    return 0;
}
