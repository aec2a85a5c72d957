/* Speed of the learned evaluation (bench/nnue.sh runs it): for each preset,
 * the same fixed-depth search from the start position with the
 * hand-written evaluation and with a random net of the given hidden size
 * (its values mean nothing; its cost is a real net's), and the raw
 * evaluation rates: refresh + layers, and make + evaluate + unmake with the
 * accumulator, per SIMD level. Times are the process's CPU time (the search
 * runs in the calling thread), so that a loaded machine slows the figures
 * less. Prints figures; asserts nothing.
 *   build/nnue_bench [--depth D] [--hidden H] [--smoke] [--search-only] */
#include "nnue.h"
#include "topochess_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One search: nodes and seconds. */
static void search(const tc_variant *v, const unsigned char *net, size_t len, int depth, uint64_t *nodes,
                   double *secs)
{
    tc_engine *e = tc_engine_new(v, 16, 1);
    tc_error err;
    if (net && tc_engine_load_net_data(e, net, len, &err))
        fprintf(stderr, "nnue_bench: %s\n", err.msg);
    if (!net)
        tc_engine_clear_net(e);
    tc_position *p = tc_position_new(v);
    tc_engine_set_position(e, p);
    tc_limits l;
    tc_limits_init(&l);
    l.depth = depth;
    double t0 = now_s();
    tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
    *secs = now_s() - t0;
    *nodes = r.nodes;
    tc_position_free(p);
    tc_engine_free(e);
}

/* Evaluations per second along a fixed random game: from scratch, and
 * incrementally (make, evaluate, unmake at each ply of the game). */
static void eval_rates(const tc_variant *v, const nnue_net *n, int level, int reps, double *fresh, double *inc)
{
    tc_position *p = tc_position_new(v);
    tc_movelist *ml = malloc(sizeof *ml);
    tc_move game[64];
    int plies = 0;
    uint64_t s = 12345;
    while (plies < 64 && tc_generate_legal(p, ml) > 0) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        game[plies] = ml->moves[s % (uint64_t)ml->count];
        tc_make_move(p, game[plies++]);
    }
    while (tc_ply_count(p) > 0)
        tc_unmake_move(p);
    volatile int sink = 0;
    double t0 = now_s();
    long count = 0;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < plies; i++) {
            tc_make_move(p, game[i]);
            sink += nnue_evaluate_fresh(n, p, level);
            count++;
        }
        while (tc_ply_count(p) > 0)
            tc_unmake_move(p);
    }
    *fresh = count / (now_s() - t0);
    nnue_state *st = nnue_state_new(n, 80);
    nnue_state_set_simd(st, level);
    nnue_refresh(st, p);
    t0 = now_s();
    count = 0;
    for (int r = 0; r < reps * 8; r++) {
        for (int i = 0; i < plies; i++) {
            nnue_make(st, p, game[i]);
            sink += nnue_evaluate(st, p);
            count++;
        }
        for (int i = 0; i < plies; i++)
            nnue_unmake(st, p);
    }
    *inc = count / (now_s() - t0);
    (void)sink;
    nnue_state_free(st);
    free(ml);
    tc_position_free(p);
}

int main(int argc, char **argv)
{
    int depth = 9, hidden = 256, smoke = 0, search_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--depth") && i + 1 < argc)
            depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--hidden") && i + 1 < argc)
            hidden = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--smoke"))
            smoke = 1;
        else if (!strcmp(argv[i], "--search-only"))
            search_only = 1;
        else {
            fprintf(stderr, "usage: nnue_bench [--depth D] [--hidden H] [--smoke] [--search-only]\n");
            return 2;
        }
    }
    if (smoke && depth > 5)
        depth = 5;
    printf("search from the start position, depth %d, 1 thread, 16 MB hash; net: random (seed 7), H %d, L1 32, "
           "L2 32, kernels %s; nps by CPU time\n",
           depth, hidden, nnue_simd_name(nnue_simd_best()));
    printf("%-18s %10s %10s %10s %10s %7s %12s %10s\n", "preset", "hand nodes", "hand nps", "net nodes", "net nps",
           "ratio", "hybrid nodes", "hybrid nps");
    uint64_t th = 0, tn = 0, ty = 0;
    double sh = 0, sn = 0, sy = 0;
    int count = smoke ? 2 : tc_preset_count();
    for (int i = 0; i < count; i++) {
        tc_variant_def d = *tc_preset(i);
        tc_error err;
        tc_variant *v = tc_variant_new(&d, &err);
        size_t len;
        unsigned char *net = nnue_random_file(d.width, d.height, hidden, 32, 32, 0, 7, &len);
        /* the same weights as a hybrid net: hand-written evaluation + net */
        unsigned char *hyb = nnue_random_file(d.width, d.height, hidden, 32, 32, NNUE_FLAG_HYBRID, 7, &len);
        uint64_t nh, nn, ny;
        double th_s, tn_s, ty_s;
        search(v, NULL, 0, depth, &nh, &th_s);
        search(v, net, len, depth, &nn, &tn_s);
        search(v, hyb, len, depth, &ny, &ty_s);
        printf("%-18s %10llu %10.0f %10llu %10.0f %6.2fx %12llu %10.0f\n", d.name, (unsigned long long)nh,
               nh / th_s, (unsigned long long)nn, nn / tn_s, (nn / tn_s) / (nh / th_s), (unsigned long long)ny,
               ny / ty_s);
        th += nh, tn += nn, ty += ny, sh += th_s, sn += tn_s, sy += ty_s;
        free(net);
        free(hyb);
        tc_variant_free(v);
    }
    printf("%-18s %10llu %10.0f %10llu %10.0f %6.2fx %12llu %10.0f\n", "total", (unsigned long long)th, th / sh,
           (unsigned long long)tn, tn / sn, (tn / sn) / (th / sh), (unsigned long long)ty, ty / sy);

    if (search_only)
        return 0;
    const char *boards[] = {"chess", "klein-bottle"};
    printf("\nevaluations per second along a 64-ply random game (H %d)\n", hidden);
    printf("%-14s %-8s %12s %14s\n", "board", "kernels", "from scratch", "incremental");
    for (int b = 0; b < 2; b++) {
        tc_variant_def d;
        tc_error err;
        tc_preset_find(boards[b], &d, &err);
        tc_variant *v = tc_variant_new(&d, &err);
        size_t len;
        unsigned char *bytes = nnue_random_file(d.width, d.height, hidden, 32, 32, 0, 1, &len);
        nnue_net *n = nnue_net_load(bytes, len, v, &err);
        for (int l = 0; n && l < NNUE_SIMD_COUNT; l++) {
            if (!nnue_simd_available(l))
                continue;
            double fresh, inc;
            eval_rates(v, n, l, smoke ? 20 : 400, &fresh, &inc);
            printf("%-14s %-8s %12.0f %14.0f\n", boards[b], nnue_simd_name(l), fresh, inc);
        }
        nnue_net_free(n);
        free(bytes);
        tc_variant_free(v);
    }
    return 0;
}
