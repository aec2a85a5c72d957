/* bench/tune: fits the evaluation's weights to game results (the Texel
 * method). Every position of the given PGN games (after the opening plies,
 * not in check, with no winning capture for the side to move) is a sample;
 * the error is the mean of (result - sigmoid(K * eval / 400))^2 over them.
 * K is fitted first, and again near its value after each sweep. The pawn's
 * two values stay at 100, the unit the search's margins assume; every other
 * weight moves in steps of 1/16 of its size (at least 1) up or down, up to
 * four steps a sweep, while that lowers the error (coordinate descent).
 * TUNE_ONLY=PREFIX,... moves only the weights whose names start so.
 * TUNE_THREADS (default 2) threads share the error sums. The weights are
 * written as the C source of src/engine/eval_params.c. Games of any preset
 * may be mixed: each position is evaluated with its own variant's tables.
 *
 *   build/tune OUT.c SWEEPS GAMES.pgn...
 */
#include "eval.h"
#include "see.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARIANTS 16
#define SKIP_PLIES 8

/// One variant the games use: its tables, built with the weights on trial.
typedef struct {
    char name[64];
    tc_variant *v;
    eval_table *et;
} tune_variant;

/// One sample: a position and its game's result for White (0, 0.5, 1).
typedef struct {
    tc_position *p;
    int variant;
    double result;
} sample;

typedef struct {
    tune_variant var[MAX_VARIANTS];
    int nvar;
    sample *s;
    size_t n, cap;
} tuner;

static int variant_index(tuner *t, const char *name)
{
    for (int i = 0; i < t->nvar; i++)
        if (!strcmp(t->var[i].name, name))
            return i;
    if (t->nvar == MAX_VARIANTS)
        return -1;
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find(name, &def, &err))
        return -1;
    tune_variant *tv = &t->var[t->nvar];
    snprintf(tv->name, sizeof tv->name, "%s", name);
    tv->v = tc_variant_new(&def, &err);
    tv->et = tv->v ? eval_table_new(tv->v) : NULL;
    if (!tv->et)
        return -1;
    return t->nvar++;
}

/* A quiet position: not in check, and no capture that wins material. */
static int quiet(const tc_position *p, tc_move *buf)
{
    if (tc_in_check(p))
        return 0;
    int n = tc_gen_noisy(p, buf);
    for (int i = 0; i < n; i++)
        if (see_ge(p, buf[i], 1))
            return 0;
    return 1;
}

static int add_game(tuner *t, const tc_pgn_game *g, tc_move *buf)
{
    const char *res = g->result;
    double r = !strcmp(res, "1-0") ? 1 : !strcmp(res, "0-1") ? 0 : !strcmp(res, "1/2-1/2") ? 0.5 : -1;
    if (r < 0)
        return 0;
    tc_pgn_replay rep;
    tc_error err;
    if (tc_pgn_replay_game(g, NULL, &rep, &err))
        return 0;
    int vi = rep.ok ? variant_index(t, tc_variant_def_of(rep.variant)->name) : -1;
    int added = 0;
    if (vi >= 0) {
        tc_position *q = tc_position_new(t->var[vi].v);
        int plies = tc_ply_count(rep.position);
        if (q && tc_position_set_fen(q, tc_position_start_fen(rep.position), &err) == 0) {
            for (int i = 0; i < plies; i++) {
                tc_make_move(q, tc_history_move(rep.position, i));
                if (i + 1 < SKIP_PLIES || !quiet(q, buf) || tc_position_status(q) != TC_ONGOING)
                    continue;
                if (t->n == t->cap) {
                    t->cap = t->cap ? t->cap * 2 : 4096;
                    sample *grown = realloc(t->s, t->cap * sizeof *grown);
                    if (!grown)
                        break;
                    t->s = grown;
                }
                char fen[800];
                tc_position_fen(q, fen, sizeof fen);
                tc_position *copy = tc_position_new(t->var[vi].v);
                if (!copy || tc_position_set_fen(copy, fen, &err)) {
                    tc_position_free(copy);
                    continue;
                }
                t->s[t->n++] = (sample){copy, vi, r};
                added++;
            }
        }
        tc_position_free(q);
    }
    tc_pgn_replay_free(&rep);
    return added;
}

static int read_pgn(tuner *t, const char *path, tc_move *buf)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tune: cannot open %s\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        free(text);
        return -1;
    }
    fclose(f);
    text[len] = '\0';
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, (size_t)len);
    tc_pgn_game *g = calloc(1, sizeof *g);
    tc_error err;
    int games = 0, got;
    while (g && (got = tc_pgn_read_game(&r, g, &err)) == 1) {
        add_game(t, g, buf);
        tc_pgn_game_free(g);
        games++;
    }
    free(g);
    free(text);
    return games;
}

/// One thread's share of an error sum.
typedef struct {
    const tuner *t;
    double k, sum;
    size_t lo, hi;
} error_part;

static void *error_run(void *arg)
{
    error_part *w = arg;
    const tuner *t = w->t;
    double sum = 0;
    for (size_t i = w->lo; i < w->hi; i++) {
        const sample *s = &t->s[i];
        int e = eval_position(t->var[s->variant].et, s->p);
        if (tc_side_to_move(s->p) == TC_BLACK)
            e = -e;
        double pred = 1.0 / (1.0 + exp(-w->k * e * (2.302585092994046 / 400.0)));
        sum += (s->result - pred) * (s->result - pred);
    }
    w->sum = sum;
    return NULL;
}

/* The mean squared error over every sample, on TUNE_THREADS threads (the
 * tables are only read while it runs). */
static double error_of(const tuner *t, double k)
{
    enum { MAX_THREADS = 16 };
    const char *env = getenv("TUNE_THREADS");
    int nt = env ? atoi(env) : 2;
    nt = nt < 1 ? 1 : nt > MAX_THREADS ? MAX_THREADS : nt;
    error_part part[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (int i = 0; i < nt; i++) {
        part[i] = (error_part){t, k, 0, t->n * (size_t)i / (size_t)nt, t->n * (size_t)(i + 1) / (size_t)nt};
        started[i] = i > 0 && pthread_create(&th[i], NULL, error_run, &part[i]) == 0;
        if (i > 0 && !started[i])
            error_run(&part[i]);
    }
    error_run(&part[0]);
    double sum = part[0].sum;
    for (int i = 1; i < nt; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        sum += part[i].sum;
    }
    return sum / (double)t->n;
}

/* TUNE_ONLY: a comma-separated list of weight-name prefixes; only the
 * weights they name move (default: all). */
static bool tunable(int i)
{
    const char *only = getenv("TUNE_ONLY");
    if (!only || !*only)
        return true;
    const char *name = eval_param_names[i];
    for (const char *p = only; *p;) {
        size_t len = strcspn(p, ",");
        if (len && !strncmp(name, p, len))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

static void set_params(tuner *t, const eval_params *w)
{
    for (int i = 0; i < t->nvar; i++)
        eval_table_set_params(t->var[i].et, w);
}

static int write_params(const char *path, const eval_params *w, size_t samples, double before, double after)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "/* The evaluation's weights, fitted by bench/tune to %zu positions of\n"
               " * games (mean squared error %.6f, was %.6f); see docs/engine.md. */\n"
               "#include \"eval.h\"\n\nconst char *const eval_param_names[EP_COUNT] = {\n",
            samples, after, before);
    for (int i = 0; i < EP_COUNT; i++)
        fprintf(f, "%s\"%s\",%s", i % 6 ? " " : "    ", eval_param_names[i], i % 6 == 5 || i + 1 == EP_COUNT ? "\n" : "");
    fprintf(f, "};\n\nconst eval_params eval_default_params = {{\n");
    for (int i = 0; i < EP_COUNT; i++)
        fprintf(f, "%s%d,%s", i % 10 ? " " : "    ", w->v[i], i % 10 == 9 || i + 1 == EP_COUNT ? "\n" : "");
    fprintf(f, "}};\n");
    return fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: tune OUT.c SWEEPS GAMES.pgn...\n");
        return 1;
    }
    int sweeps = atoi(argv[2]);
    tuner t;
    memset(&t, 0, sizeof t);
    tc_move *buf = malloc(sizeof(tc_move) * TC_MAX_MOVES);
    for (int i = 3; i < argc; i++) {
        int games = read_pgn(&t, argv[i], buf);
        if (games < 0)
            return 1;
        printf("%s: %d games\n", argv[i], games);
    }
    if (t.n == 0) {
        fprintf(stderr, "tune: no positions\n");
        return 1;
    }
    for (int i = 0; i < t.nvar; i++)
        printf("variant %s\n", t.var[i].name);
    eval_params w = eval_default_params;
    set_params(&t, &w);
    /* K: the scale that fits the current weights best */
    double k = 1.0, best_e = error_of(&t, k);
    for (double kk = 0.2; kk <= 3.0; kk += 0.05) {
        double e = error_of(&t, kk);
        if (e < best_e)
            best_e = e, k = kk;
    }
    double start = best_e;
    printf("%zu positions, K %.2f, error %.6f\n", t.n, k, best_e);
    fflush(stdout);
    for (int sweep = 0; sweep < sweeps; sweep++) {
        int improved = 0;
        for (int i = 0; i < EP_COUNT; i++) {
            if (i == EP_PAWN_MG || i == EP_PAWN_EG || !tunable(i))
                continue; /* the unit: a pawn stays 100, as the search's margins assume */
            int step = abs(w.v[i]) / 16 > 1 ? abs(w.v[i]) / 16 : 1;
            /* steps up or down while the error falls, at most four per
             * weight and sweep */
            for (int dir = 1; dir >= -1; dir -= 2) {
                int moved = 0;
                while (moved < 4) {
                    w.v[i] += dir * step;
                    set_params(&t, &w);
                    double e = error_of(&t, k);
                    if (e >= best_e) {
                        w.v[i] -= dir * step;
                        break;
                    }
                    best_e = e;
                    improved = 1;
                    moved++;
                }
                if (moved)
                    break;
            }
        }
        set_params(&t, &w);
        /* K again, near the old one, for the weights as they now stand */
        for (double kk = k - 0.1; kk <= k + 0.1001; kk += 0.02) {
            double e = error_of(&t, kk);
            if (e < best_e)
                best_e = e, k = kk;
        }
        printf("sweep %d: error %.6f, K %.2f\n", sweep + 1, best_e, k);
        fflush(stdout);
        if (!improved)
            break;
    }
    for (int i = 0; i < EP_COUNT; i++)
        if (w.v[i] != eval_default_params.v[i])
            printf("  %-16s %5d -> %5d\n", eval_param_names[i], eval_default_params.v[i], w.v[i]);
    if (write_params(argv[1], &w, t.n, start, best_e)) {
        fprintf(stderr, "tune: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("wrote %s\n", argv[1]);
    return 0;
}
