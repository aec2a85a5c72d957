/* `topochess datagen`: plays self-play games at a fixed node budget and
 * appends their quiet positions, each with its search score and the game's
 * result, to a data file (datagen_file.c, docs/nnue.md).
 *
 * Game g is a function of the seed and g alone (its own random opening, a
 * fresh single-threaded engine state), and games are written in the order
 * of g whatever thread finished them first: the file depends on the seed
 * and the settings, not on the number of threads or on interruptions. */
#include "cli.h"
#include "datagen.h"
#include "topochess_engine.h"
#include "topochess_explain.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Adjudication: a game is won once the score stays this high for this many
 * plies in a row, drawn once it stays this close to 0 after DRAW_AFTER. */
#define WIN_SCORE 2500
#define WIN_PLIES 4
#define DRAW_SCORE 8
#define DRAW_PLIES 12
#define DRAW_AFTER 80

void dg_usage(FILE *out)
{
    fprintf(out,
            "usage: topochess datagen --out FILE [--variant NAME | --variant-file PAGE] [--nodes 5000]\n"
            "                         [--games N | --positions N] [--threads N] [--seed 1] [--random-plies 8]\n"
            "                         [--hash 16] [--max-plies 400] [--eval-file NET]\n"
            "       topochess datagen --to-text FILE\n"
            "       topochess datagen --hand-eval FILE --out SIDE [--threads N] [--variant NAME | --variant-file PAGE]\n"
            "Plays self-play games at a node budget per move and appends their quiet positions\n"
            "(search score and game result) to FILE; a second run continues the file. Without\n"
            "--games or --positions it runs until stopped. --eval-file: the net that evaluates\n"
            "(its checksum goes into the file's header; default the board's built-in net,\n"
            "'<none>' the hand-written evaluation). --to-text writes a file as text.\n"
            "--hand-eval writes the hand-written static evaluation of each record of FILE to SIDE\n"
            "(the side file hybrid nets are trained with, docs/nnue-training.md).\n");
}

void dg_config_init(dg_config *c)
{
    memset(c, 0, sizeof *c);
    tc_error err;
    tc_preset_find("chess", &c->def, &err);
    c->nodes = 5000;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    c->threads = cores < 1 ? 1 : cores > TC_ENGINE_MAX_THREADS ? TC_ENGINE_MAX_THREADS : (int)cores;
    c->seed = 1;
    c->random_plies = 8;
    c->hash_mb = 16;
    c->max_plies = 400;
    c->progress_seconds = 10;
}

/* ---------------------------------------------------------------- options */

static int number(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out, tc_error *err)
{
    char *end;
    unsigned long long n = 0;
    int ok = s && *s >= '0' && *s <= '9';
    if (ok) {
        n = strtoull(s, &end, 10);
        ok = !*end && n >= lo && n <= hi;
    }
    if (!ok) {
        snprintf(err->msg, sizeof err->msg, "datagen: %s takes a number from %llu to %llu, not '%s'", opt,
                 (unsigned long long)lo, (unsigned long long)hi, s ? s : "");
        return -1;
    }
    *out = n;
    return 0;
}

int dg_parse_args(dg_config *c, int argc, char **argv, const char **to_text, tc_error *err)
{
    static const char *const value_opts[] = {"--variant", "--variant-file", "--out",  "--nodes",
                                             "--games",   "--positions",    "--threads", "--seed",
                                             "--random-plies", "--hash",    "--max-plies", "--eval-file", "--to-text",
                                             "--hand-eval"};
    enum { NOPTS = sizeof value_opts / sizeof value_opts[0] };
    const char *vals[NOPTS] = {0};
    *to_text = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        if (a[0] != '-') {
            snprintf(err->msg, sizeof err->msg, "datagen takes no arguments (got '%s'): the data file is --out FILE",
                     a);
            return -1;
        }
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        int k = 0;
        while (k < NOPTS && !(strlen(value_opts[k]) == len && !strncmp(value_opts[k], a, len)))
            k++;
        if (k == NOPTS) {
            int near = tc_closest_name(a, value_opts, NOPTS);
            if (near >= 0)
                snprintf(err->msg, sizeof err->msg, "datagen: unknown option '%.*s': did you mean '%s'?", (int)len, a,
                         value_opts[near]);
            else
                snprintf(err->msg, sizeof err->msg, "datagen: unknown option '%.*s' (try 'topochess datagen --help')",
                         (int)len, a);
            return -1;
        }
        if (vals[k]) {
            snprintf(err->msg, sizeof err->msg, "datagen: %s given twice", value_opts[k]);
            return -1;
        }
        if (eq)
            vals[k] = eq + 1;
        else if (i + 1 < argc)
            vals[k] = argv[++i];
        else {
            snprintf(err->msg, sizeof err->msg, "datagen: %s needs a value", value_opts[k]);
            return -1;
        }
        if (!*vals[k]) {
            snprintf(err->msg, sizeof err->msg, "datagen: %s needs a value", value_opts[k]);
            return -1;
        }
    }
    const char *variant = vals[0], *page = vals[1];
    if (vals[12]) {
        for (int k = 0; k < NOPTS; k++)
            if (vals[k] && k != 12) {
                snprintf(err->msg, sizeof err->msg,
                         "datagen: --to-text converts a file and takes no other option (got %s)", value_opts[k]);
                return -1;
            }
        *to_text = vals[12];
        return 0;
    }
    if (vals[13]) {
        /* only the board, the side file and the threads go with --hand-eval */
        for (int k = 3; k < NOPTS - 1; k++)
            if (vals[k] && k != 6) {
                snprintf(err->msg, sizeof err->msg,
                         "datagen: --hand-eval takes only --out, --threads and the board (got %s)", value_opts[k]);
                return -1;
            }
        c->hand_eval = vals[13];
    }
    if (variant && page) {
        snprintf(err->msg, sizeof err->msg, "datagen: give --variant or --variant-file, not both");
        return -1;
    }
    if (vals[4] && vals[5]) {
        snprintf(err->msg, sizeof err->msg, "datagen: give --games or --positions, not both");
        return -1;
    }
    tc_error e;
    c->board_given = page || variant;
    if (page ? tc_variant_file_load(page, &c->def, &e) : variant ? tc_preset_find(variant, &c->def, &e) : 0) {
        snprintf(err->msg, sizeof err->msg, "datagen: %.240s", e.msg);
        return -1;
    }
    uint64_t n;
    if (vals[3] && number("--nodes", vals[3], 1, 100000000, &c->nodes, err))
        return -1;
    if (vals[4] && number("--games", vals[4], 1, UINT32_MAX, &c->games, err))
        return -1;
    if (vals[5] && number("--positions", vals[5], 1, UINT64_MAX / 2, &c->positions, err))
        return -1;
    if (vals[6]) {
        if (number("--threads", vals[6], 1, TC_ENGINE_MAX_THREADS, &n, err))
            return -1;
        c->threads = (int)n;
    }
    if (vals[7] && number("--seed", vals[7], 0, UINT64_MAX, &c->seed, err))
        return -1;
    if (vals[8]) {
        if (number("--random-plies", vals[8], 0, 200, &n, err))
            return -1;
        c->random_plies = (int)n;
    }
    if (vals[9]) {
        if (number("--hash", vals[9], 1, 4096, &n, err))
            return -1;
        c->hash_mb = (int)n;
    }
    if (vals[10]) {
        if (number("--max-plies", vals[10], 10, 60000, &n, err))
            return -1;
        c->max_plies = (int)n;
    }
    c->eval_file = vals[11];
    if (!vals[2]) {
        snprintf(err->msg, sizeof err->msg,
                 c->hand_eval ? "datagen: --hand-eval needs --out FILE (the side file to write)"
                              : "datagen needs --out FILE (the data file to write or continue)");
        return -1;
    }
    c->out = vals[2];
    return 0;
}

/* ---------------------------------------------------------------- games */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/// One game's positions, held until every game before it is written.
typedef struct dg_game {
    uint32_t index;
    int n, cap;
    dg_record *rec;
    struct dg_game *next; /* finished games waiting, in index order */
} dg_game;

static int game_push(dg_game *g, const dg_record *r)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 64;
        dg_record *grown = realloc(g->rec, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        g->rec = grown;
        g->cap = cap;
    }
    g->rec[g->n++] = *r;
    return 0;
}

/// What one thread needs to play games.
typedef struct dg_worker {
    struct dg_shared *sh;
    tc_engine *e;
    tc_position *p;
    tc_movelist *list;
} dg_worker;

/// The state the threads share, under `lock`.
typedef struct dg_shared {
    const dg_config *cfg;
    tc_variant *v;
    dg_file df;
    pthread_mutex_t lock;
    uint32_t next_claim; /* the next game to hand out */
    uint32_t next_write; /* the next game to write */
    dg_game *waiting;    /* finished, not yet written (sorted by index) */
    int stop, failed;
    tc_error err;
    uint64_t start_records, games_this_run;
    double t0, last_progress;
} dg_shared;

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Plays random legal moves from the start: random_plies or one more, so
 * that either side may be to move; retried while they end the game. */
static int random_start(dg_worker *w, uint64_t *rng, int random_plies)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        tc_position_reset(w->p);
        int plies = random_plies + (int)(splitmix(rng) & 1);
        for (int i = 0; i < plies; i++) {
            int n = tc_generate_legal(w->p, w->list);
            if (n == 0)
                break;
            tc_make_move(w->p, w->list->moves[splitmix(rng) % (uint64_t)n]);
        }
        if (tc_position_status(w->p) == TC_ONGOING)
            return 0;
    }
    return -1;
}

static int is_noisy(const tc_position *p, tc_move m)
{
    int kind = TC_MOVE_KIND(m);
    if (kind == TC_MOVE_EP || TC_MOVE_PROMO(m))
        return 1;
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q)
        return 0;
    return tc_piece_at(p, TC_MOVE_TO(m)) != 0;
}

/* Plays game g into out (records without results until the end); -1 if
 * memory runs out. */
static int play_game(dg_worker *w, uint32_t g, dg_game *out)
{
    const dg_config *c = w->sh->cfg;
    uint64_t rng = c->seed ^ (0x5851f42d4c957f2dull * ((uint64_t)g + 1));
    splitmix(&rng);
    tc_engine_new_game(w->e);
    if (random_start(w, &rng, c->random_plies))
        return 0; /* this board has no long enough game: no positions */
    int white_result = 0, win_run = 0, win_sign = 0, draw_run = 0;
    for (int ply = tc_ply_count(w->p); ply < c->max_plies; ply++) {
        tc_status st = tc_position_status(w->p);
        if (st != TC_ONGOING) {
            if (st == TC_CHECKMATE)
                white_result = tc_side_to_move(w->p) == TC_WHITE ? -1 : 1;
            break;
        }
        if (tc_engine_set_position(w->e, w->p))
            return -1;
        tc_limits lim;
        tc_limits_init(&lim);
        lim.nodes = c->nodes;
        tc_search_result r = tc_engine_search(w->e, &lim, NULL, NULL);
        if (!r.best)
            break;
        int score = r.mate > 0 ? DG_SCORE_MAX : r.mate < 0 ? -DG_SCORE_MAX : r.score;
        score = score > DG_SCORE_MAX ? DG_SCORE_MAX : score < -DG_SCORE_MAX ? -DG_SCORE_MAX : score;
        if (!tc_in_check(w->p) && !is_noisy(w->p, r.best)) {
            dg_record rec;
            dg_record_from_position(&rec, w->p);
            rec.score = score;
            rec.ply = ply > 65535 ? 65535 : ply;
            rec.game = g;
            rec.result = 0;
            if (game_push(out, &rec))
                return -1;
        }
        int white_score = tc_side_to_move(w->p) == TC_WHITE ? score : -score;
        int sign = white_score > 0 ? 1 : -1;
        if (abs(white_score) >= WIN_SCORE) {
            win_run = win_sign == sign ? win_run + 1 : 1;
            win_sign = sign;
        } else {
            win_run = 0;
        }
        draw_run = abs(score) <= DRAW_SCORE ? draw_run + 1 : 0;
        if (win_run >= WIN_PLIES) {
            white_result = win_sign;
            break;
        }
        if (ply >= DRAW_AFTER && draw_run >= DRAW_PLIES)
            break;
        tc_make_move(w->p, r.best);
    }
    for (int i = 0; i < out->n; i++)
        out->rec[i].result = out->rec[i].stm == TC_WHITE ? white_result : -white_result;
    return 0;
}

static void progress(dg_shared *sh, int last)
{
    double now = seconds();
    if (!sh->cfg->progress || (!last && now - sh->last_progress < sh->cfg->progress_seconds))
        return;
    sh->last_progress = now;
    double dt = now - sh->t0;
    uint64_t made = sh->df.records - sh->start_records;
    fprintf(sh->cfg->progress,
            "datagen: %s: %u games, %llu positions in the file; this run %llu games, %llu positions, %.0f s, %.1f "
            "positions/s\n",
            sh->df.h.name, (unsigned)sh->next_write, (unsigned long long)sh->df.records,
            (unsigned long long)sh->games_this_run, (unsigned long long)made, dt, dt > 0 ? made / dt : 0.0);
    fflush(sh->cfg->progress);
}

/* Adds a finished game to the waiting list and writes every game that is
 * next in order. Called under the lock. */
static void finish_game(dg_shared *sh, dg_game *g)
{
    dg_game **at = &sh->waiting;
    while (*at && (*at)->index < g->index)
        at = &(*at)->next;
    g->next = *at;
    *at = g;
    while (sh->waiting && sh->waiting->index == sh->next_write) {
        dg_game *w = sh->waiting;
        sh->waiting = w->next;
        if (!sh->stop && dg_append(&sh->df, w->rec, w->n, &sh->err)) {
            sh->failed = 1;
            sh->stop = 1;
        }
        if (!sh->stop) {
            sh->next_write++;
            sh->games_this_run++;
            const dg_config *c = sh->cfg;
            if ((c->games && sh->next_write >= c->games) || (c->positions && sh->df.records >= c->positions))
                sh->stop = 1;
        }
        free(w->rec);
        free(w);
    }
    progress(sh, 0);
}

static void *worker_main(void *arg)
{
    dg_worker *w = arg;
    dg_shared *sh = w->sh;
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        int stop = sh->stop;
        uint32_t g = sh->next_claim;
        if (!stop && sh->cfg->games && g >= sh->cfg->games)
            stop = 1;
        if (!stop)
            sh->next_claim++;
        pthread_mutex_unlock(&sh->lock);
        if (stop)
            break;
        dg_game *game = calloc(1, sizeof *game);
        int bad = !game || play_game(w, g, game);
        pthread_mutex_lock(&sh->lock);
        if (bad) {
            snprintf(sh->err.msg, sizeof sh->err.msg, "datagen: out of memory in game %u", (unsigned)g);
            sh->failed = sh->stop = 1;
            if (game)
                free(game->rec);
            free(game);
        } else {
            game->index = g;
            finish_game(sh, game);
        }
        pthread_mutex_unlock(&sh->lock);
    }
    return NULL;
}

/* Sets the evaluation --eval-file names: NULL keeps the engine's default
 * (the built-in net of its board, if any), <none> the hand-written one (as
 * UCI's EvalFile <none>), else that net file; -1 with err if refused. */
static int use_eval_file(tc_engine *e, const char *f, tc_error *err)
{
    if (!f)
        return 0;
    if (!strcmp(f, "<none>")) {
        tc_engine_clear_net(e);
        return 0;
    }
    return tc_engine_load_net(e, f, err);
}

/* Which evaluation scores the games (the engine's default, or the net of
 * --eval-file), as the header records it; -1 with err if the net is refused. */
static int scorer(const dg_config *c, const tc_variant *v, dg_header *h, tc_error *err)
{
    tc_engine *e = tc_engine_new(v, 1, 1);
    tc_error e2;
    if (!e) {
        snprintf(err->msg, sizeof err->msg, "datagen: out of memory");
        return -1;
    }
    int bad = use_eval_file(e, c->eval_file, &e2);
    if (bad)
        snprintf(err->msg, sizeof err->msg, "datagen: --eval-file: %.220s", e2.msg);
    h->scored_by_net = tc_engine_has_net(e) ? 1 : 0;
    h->net_crc = tc_engine_net_crc(e);
    tc_engine_free(e);
    return bad ? -1 : 0;
}

int dg_run(const dg_config *c, tc_error *err)
{
    dg_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = c;
    tc_error e;
    sh.v = tc_variant_new(&c->def, &e);
    if (!sh.v) {
        snprintf(err->msg, sizeof err->msg, "datagen: variant %.40s: %.180s", c->def.name, e.msg);
        return -1;
    }
    dg_header h;
    memset(&h, 0, sizeof h);
    if (scorer(c, sh.v, &h, err)) {
        tc_variant_free(sh.v);
        return -1;
    }
    h.version = DG_VERSION;
    h.width = (uint32_t)c->def.width;
    h.height = (uint32_t)c->def.height;
    h.record_size = (uint32_t)dg_record_size(c->def.width * c->def.height);
    h.seed = c->seed;
    h.nodes = c->nodes;
    h.random_plies = (uint32_t)c->random_plies;
    h.hash_mb = (uint32_t)c->hash_mb;
    h.max_plies = (uint32_t)c->max_plies;
    snprintf(h.name, sizeof h.name, "%s", c->def.name);
    if (dg_open_append(&sh.df, c->out, &h, &e)) {
        snprintf(err->msg, sizeof err->msg, "datagen: %.240s", e.msg);
        tc_variant_free(sh.v);
        return -1;
    }
    if (c->progress && (sh.df.records || sh.df.dropped))
        fprintf(c->progress, "datagen: %s: continuing at game %u with %llu positions (%llu bytes of an unfinished game cut)\n",
                c->out, (unsigned)sh.df.next_game, (unsigned long long)sh.df.records,
                (unsigned long long)sh.df.dropped);
    sh.next_claim = sh.next_write = sh.df.next_game;
    sh.start_records = sh.df.records;
    sh.t0 = sh.last_progress = seconds();
    if ((c->games && sh.next_write >= c->games) || (c->positions && sh.df.records >= c->positions))
        sh.stop = 1;
    pthread_mutex_init(&sh.lock, NULL);
    int nt = c->threads < 1 ? 1 : c->threads;
    dg_worker *w = calloc((size_t)nt, sizeof *w);
    pthread_t *tid = calloc((size_t)nt, sizeof *tid);
    int started = 0, status = 0;
    if (!w || !tid) {
        snprintf(err->msg, sizeof err->msg, "datagen: out of memory");
        status = -1;
    }
    for (int i = 0; !status && i < nt; i++) {
        w[i].sh = &sh;
        w[i].e = tc_engine_new(sh.v, (size_t)c->hash_mb, 1);
        w[i].p = tc_position_new(sh.v);
        w[i].list = malloc(sizeof *w[i].list);
        if (!w[i].e || !w[i].p || !w[i].list) {
            snprintf(err->msg, sizeof err->msg, "datagen: out of memory for thread %d", i + 1);
            status = -1;
        } else if (c->eval_file && (use_eval_file(w[i].e, c->eval_file, &e) ||
                                    tc_engine_net_crc(w[i].e) != h.net_crc)) {
            snprintf(err->msg, sizeof err->msg, "datagen: --eval-file: %.220s",
                     tc_engine_has_net(w[i].e) ? "the net file changed while the threads started" : e.msg);
            status = -1;
        }
    }
    for (int i = 0; !status && i < nt; i++) {
        if (pthread_create(&tid[i], NULL, worker_main, &w[i])) {
            snprintf(err->msg, sizeof err->msg, "datagen: cannot start thread %d", i + 1);
            pthread_mutex_lock(&sh.lock);
            sh.stop = 1;
            pthread_mutex_unlock(&sh.lock);
            status = -1;
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    if (!status && sh.failed) {
        *err = sh.err;
        status = -1;
    }
    if (started)
        progress(&sh, 1);
    while (sh.waiting) {
        dg_game *g = sh.waiting;
        sh.waiting = g->next;
        free(g->rec);
        free(g);
    }
    for (int i = 0; w && i < nt; i++) {
        tc_engine_free(w[i].e);
        tc_position_free(w[i].p);
        free(w[i].list);
    }
    free(w);
    free(tid);
    pthread_mutex_destroy(&sh.lock);
    dg_close(&sh.df);
    tc_variant_free(sh.v);
    return status;
}

/* ---------------------------------------------------------------- command */

int cmd_datagen(cli_ctx *ctx)
{
    dg_config c;
    dg_config_init(&c);
    c.progress = stderr;
    const char *to_text;
    tc_error err;
    int r = dg_parse_args(&c, ctx->argc, ctx->argv, &to_text, &err);
    if (r > 0) {
        dg_usage(stdout);
        return 0;
    }
    if (r < 0) {
        fprintf(stderr, "topochess: %s\n", err.msg);
        return 1;
    }
    if (to_text) {
        if (dg_file_to_text(to_text, stdout, &err)) {
            fprintf(stderr, "topochess: datagen: %s\n", err.msg);
            return 1;
        }
        return 0;
    }
    if (c.hand_eval) {
        if (dg_hand_eval(c.hand_eval, c.out, c.board_given ? &c.def : NULL, c.threads, stderr, &err)) {
            fprintf(stderr, "topochess: datagen: --hand-eval: %s\n", err.msg);
            return 1;
        }
        return 0;
    }
    if (dg_run(&c, &err)) {
        fprintf(stderr, "topochess: %s\n", err.msg);
        return 1;
    }
    return 0;
}
