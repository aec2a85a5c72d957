/* The engine object: variant, evaluation and hash tables, threads and the
 * position to search; time planning; and tc_engine_search, which starts the
 * helper threads (Lazy SMP: each searches its own copy of the position and
 * they meet only in the table) and runs the main thread's search from
 * search.c. */
#include "search.h"

#include "egtb_probe.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

void tc_limits_init(tc_limits *l) { memset(l, 0, sizeof *l); }

/* ---------------------------------------------------------------- threads */

static void thread_free(search_thread *t)
{
    if (!t)
        return;
    history_free(&t->mh);
    nnue_state_free(t->nn);
    tc_position_free(t->pos);
    free(t->moves);
    free(t->scores);
    free(t->eval_cache);
    free(t);
}

static search_thread *thread_new(tc_engine *e, int id)
{
    search_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->e = e;
    t->id = id;
    t->moves = malloc(sizeof *t->moves * (MAX_PLY + 1));
    t->scores = malloc(sizeof *t->scores * (MAX_PLY + 1));
    t->eval_cache = calloc(EVAL_CACHE, sizeof *t->eval_cache);
    if (!t->moves || !t->scores || !t->eval_cache) {
        thread_free(t);
        return NULL;
    }
    return t;
}

void tc_engine_set_style(tc_engine *e, int style)
{
    if (style == e->style)
        return; /* the cached evaluations are still this style's */
    e->style = style;
    for (int i = 0; i < TC_ENGINE_MAX_THREADS; i++)
        if (e->threads[i]) /* cached evaluations belong to the old style */
            memset(e->threads[i]->eval_cache, 0, sizeof *e->threads[i]->eval_cache * EVAL_CACHE);
}

int tc_engine_set_threads(tc_engine *e, int n)
{
    if (n < 1)
        n = 1;
#ifdef TC_NO_THREADS
    n = 1; /* the search runs in the calling thread only */
#endif
    if (n > TC_ENGINE_MAX_THREADS)
        n = TC_ENGINE_MAX_THREADS;
    int have = 0;
    while (have < n && (e->threads[have] || (e->threads[have] = thread_new(e, have))))
        have++;
    for (int i = have; i < TC_ENGINE_MAX_THREADS; i++) {
        thread_free(e->threads[i]);
        e->threads[i] = NULL;
    }
    e->nthreads = have > 0 ? have : 1;
    return have == n ? 0 : -1;
}

/* ---------------------------------------------------------------- engine */

tc_engine *tc_engine_new(const tc_variant *v, size_t hash_mb, int threads)
{
    tc_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->v = v;
    atomic_init(&e->stop, false);
    atomic_init(&e->halt, false);
    atomic_init(&e->ponder, 0);
    atomic_init(&e->soft_ms, 0);
    atomic_init(&e->hard_ms, 0);
    e->et = eval_table_new(v);
    e->root = tc_position_new(v);
    e->egtb = egtb_cache_new(v);
    if (!e->et || !e->root || !e->egtb || tt_init(&e->tt, hash_mb) || tc_engine_set_threads(e, threads)) {
        tc_engine_free(e);
        return NULL;
    }
    tc_engine_reset_params(e); /* params.c: the defaults and the reduction table */
    tc_engine_use_builtin_net(e);
    return e;
}

void tc_engine_free(tc_engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < TC_ENGINE_MAX_THREADS; i++)
        thread_free(e->threads[i]);
    tt_free(&e->tt);
    egtb_cache_free(e->egtb);
    eval_table_free(e->et);
    nnue_net_free(e->net);
    tc_position_free(e->root);
    free(e);
}

const tc_variant *tc_engine_variant(const tc_engine *e) { return e->v; }

int tc_engine_set_position(tc_engine *e, const tc_position *p)
{
    if (tc_position_variant(p) != e->v)
        return -1;
    tc_position *q = tc_position_clone(p);
    if (!q)
        return -1;
    tc_position_free(e->root);
    e->root = q;
    atomic_store(&e->stop, false);
    atomic_store(&e->halt, false);
    atomic_store(&e->ponder, 0);
    return 0;
}

void tc_engine_new_game(tc_engine *e)
{
    tt_clear(&e->tt);
    for (int i = 0; i < e->nthreads; i++)
        history_clear(&e->threads[i]->mh);
}

int tc_engine_set_hash(tc_engine *e, size_t mb)
{
    tt_table t;
    if (mb > TC_ENGINE_MAX_HASH_MB)
        mb = TC_ENGINE_MAX_HASH_MB;
    if (tt_init(&t, mb))
        return -1;
    tt_free(&e->tt);
    e->tt = t;
    return 0;
}

size_t tc_engine_hash_mb(const tc_engine *e) { return e->tt.mb; }

void tc_engine_stop(tc_engine *e)
{
    atomic_store(&e->halt, true);
    atomic_store(&e->stop, true);
}

void tc_engine_set_poll(tc_engine *e, tc_poll_fn fn, void *ctx)
{
    e->poll = fn;
    e->poll_ctx = ctx;
}

/* ---------------------------------------------------------------- evaluation */

/* Puts a net in place (NULL: the hand-written evaluation); the threads'
 * accumulators and cached evaluations belong to the old one. */
static void set_net(tc_engine *e, nnue_net *n, const char *source)
{
    nnue_net_free(e->net);
    e->net = n;
    e->net_builtin = false;
    for (int i = 0; i < TC_ENGINE_MAX_THREADS; i++)
        if (e->threads[i]) {
            nnue_state_free(e->threads[i]->nn);
            e->threads[i]->nn = NULL;
            memset(e->threads[i]->eval_cache, 0, sizeof *e->threads[i]->eval_cache * EVAL_CACHE);
        }
    if (n)
        snprintf(e->eval_text, sizeof e->eval_text, "%snet '%s' (%s, %dx%d, H %d, L1 %d, L2 %d, %s)",
                 n->hybrid ? "hand-written + hybrid " : "", n->name, source,
                 n->W, n->R, n->H, n->L1, n->L2, nnue_simd_name(nnue_simd_best()));
    else
        snprintf(e->eval_text, sizeof e->eval_text, "hand-written");
}

int tc_engine_load_net_data(tc_engine *e, const void *data, size_t len, tc_error *err)
{
    nnue_net *n = nnue_net_load(data, len, e->v, err);
    set_net(e, n, "from memory");
    return n ? 0 : -1;
}

/* The largest net file read: a 16x16 board at H 1024 is about 13 MB. */
#define NET_FILE_MAX (64u << 20)

int tc_engine_load_net(tc_engine *e, const char *path, tc_error *err)
{
    set_net(e, NULL, "");
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open net file '%.150s': %s", path, strerror(errno));
        return -1;
    }
    unsigned char *buf = malloc(NET_FILE_MAX + 1);
    size_t len = buf ? fread(buf, 1, NET_FILE_MAX + 1, f) : 0;
    int bad = !buf || ferror(f);
    fclose(f);
    if (bad || len > NET_FILE_MAX) {
        snprintf(err->msg, sizeof err->msg, "net file '%.150s': %s", path,
                 !buf ? "out of memory" : bad ? "read error" : "larger than 64 MB, not a net");
        free(buf);
        return -1;
    }
    tc_error e2;
    nnue_net *n = nnue_net_load(buf, len, e->v, &e2);
    free(buf);
    if (!n) {
        snprintf(err->msg, sizeof err->msg, "'%.60s': %.180s", path, e2.msg);
        return -1;
    }
    const char *base = strrchr(path, '/');
    char source[96];
    snprintf(source, sizeof source, "%.80s", base ? base + 1 : path);
    set_net(e, n, source);
    return 0;
}

int tc_engine_use_builtin_net(tc_engine *e)
{
    const unsigned char *data;
    const char *preset;
    size_t len;
    tc_error err;
    nnue_net *n = NULL;
    if (e->net_builtin)
        return 0;
    if (nnue_builtin_find(e->v, &data, &len, &preset) == 0)
        n = nnue_net_load(data, len, e->v, &err);
    set_net(e, n, "built in");
    e->net_builtin = n != NULL;
    return n ? 0 : -1;
}

void tc_engine_clear_net(tc_engine *e) { set_net(e, NULL, ""); }

const char *tc_engine_eval_text(const tc_engine *e) { return e->eval_text; }

uint32_t tc_crc32(const void *data, size_t len) { return nnue_crc32(data, len); }

int tc_engine_has_net(const tc_engine *e) { return e->net != NULL; }

uint32_t tc_engine_net_crc(const tc_engine *e) { return e->net ? e->net->crc : 0; }

/* A thread's accumulators for the engine's net, following its position. */
static void thread_net_ready(tc_engine *e, search_thread *t)
{
    if (!e->net)
        return;
    if (!t->nn)
        t->nn = nnue_state_new(e->net, MAX_PLY + 8);
    if (t->nn)
        nnue_refresh(t->nn, t->pos);
}

/* ---------------------------------------------------------------- driver */

#ifndef TC_NO_THREADS
static void *helper_main(void *arg)
{
    search_iterate(arg);
    return NULL;
}
#endif

/* Soft and hard time limits from the clock, the increment and the moves
 * left (both 0: untimed); the hard limit leaves a margin for the answer to
 * reach the GUI. */
static void time_budget(const tc_limits *l, int side, int64_t *soft_ms, int64_t *hard_ms)
{
    *soft_ms = *hard_ms = 0;
    if (l->infinite)
        return;
    if (l->movetime > 0) {
        /* the answer needs a few ms to reach the GUI: keep 1/20 of the
         * time, 3 to 20 ms */
        int64_t keep = l->movetime / 20 < 3 ? 3 : l->movetime / 20 > 20 ? 20 : l->movetime / 20;
        int64_t t = l->movetime - keep > 1 ? l->movetime - keep : 1;
        *hard_ms = t;
        *soft_ms = t * 2; /* iterations run until the hard limit */
        return;
    }
    int64_t mine = side == TC_WHITE ? l->wtime : l->btime;
    int64_t inc = side == TC_WHITE ? l->winc : l->binc;
    if (mine <= 0)
        return;
    int mtg = l->movestogo > 0 ? (l->movestogo < 40 ? l->movestogo : 40) : 30;
    int64_t avail = mine - 30 > 1 ? mine - 30 : 1;
    int64_t soft = avail / mtg + (inc > 0 ? inc * 3 / 4 : 0);
    int64_t hard = mtg == 1 ? avail * 8 / 10 : avail / 2;
    if (hard > soft * 4)
        hard = soft * 4;
    if (soft > hard)
        soft = hard;
    *soft_ms = soft > 1 ? soft : 1;
    *hard_ms = hard > 1 ? hard : 1;
}

/* ---------------------------------------------------------------- pondering */

/// Where a ponder search is: none runs; it ponders (untimed, waiting for
/// its hit); hit (timed now, or a hit came before the search began). The
/// move to PONDER_ON publishes start_ms, limits and ponder_side to the
/// thread that calls tc_engine_ponderhit.
enum { PONDER_IDLE = 0, PONDER_ON = 1, PONDER_HIT = 2 };

/* A ponder search becomes timed by l, `used` ms into it: its time counts
 * from now. Under a clock, time not spent now is there for later moves, so
 * a search that has already pondered as long as the move's soft limit
 * stops at once; a movetime is the move's own and is used in full. */
static void ponder_to_timed(tc_engine *e, const tc_limits *l, int64_t used)
{
    int64_t soft, hard;
    time_budget(l, e->ponder_side, &soft, &hard);
    if (!soft && !hard)
        return; /* no clock: it goes on up to its other limits */
    if (l->movetime <= 0 && used >= soft) {
        atomic_store(&e->stop, true);
        return;
    }
    /* a movetime's soft limit is twice its hard one, as in time_budget,
     * so that its iterations run until the hard limit */
    atomic_store(&e->hard_ms, used + hard);
    atomic_store(&e->soft_ms, l->movetime > 0 ? 2 * (used + hard) : used + soft);
}

void tc_engine_ponderhit(tc_engine *e, const tc_limits *now)
{
    int state = atomic_load(&e->ponder);
    if (state == PONDER_IDLE) {
        /* the search has not begun (or is no ponder search): it reads
         * these only after seeing PONDER_HIT */
        if (now)
            e->hit_limits = *now;
        e->hit_has_limits = now != NULL;
        if (atomic_compare_exchange_strong(&e->ponder, &state, PONDER_HIT))
            return;
    }
    if (state != PONDER_ON || !atomic_compare_exchange_strong(&e->ponder, &state, PONDER_HIT))
        return;
    ponder_to_timed(e, now ? now : &e->limits, search_now_ms() - e->start_ms);
}

/* Runs in the searching thread before the search: a ponder search starts
 * untimed, or timed from the start when its hit came first. */
static void ponder_begin(tc_engine *e)
{
    e->ponder_side = e->root->side;
    int state = PONDER_IDLE;
    if (!atomic_compare_exchange_strong(&e->ponder, &state, PONDER_ON))
        ponder_to_timed(e, e->hit_has_limits ? &e->hit_limits : &e->limits, 0);
}

/* `go infinite` answers only once stopped, a ponder search only after its
 * hit (then as its limits say) or a stop from outside: not when it reaches
 * its depth, finds a mate or runs out of nodes. */
static void wait_to_answer(tc_engine *e)
{
#ifndef TC_NO_THREADS /* no other thread could end the wait */
    for (;;) {
        if (atomic_load(&e->ponder) == PONDER_ON ? atomic_load(&e->halt)
                                                 : !e->limits.infinite || atomic_load(&e->stop))
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
#else
    (void)e;
#endif
}

/* The reply expected after `best`: the line's second move, else the
 * table's move in the position after best; 0 when neither is legal. */
static tc_move expected_reply(tc_engine *e, tc_move best, const tc_move *pv, int pv_len)
{
    tc_position *q = best ? tc_position_clone(e->root) : NULL;
    if (!q)
        return 0;
    tc_make_move(q, best);
    tc_move reply = 0;
    tt_entry te;
    if (pv_len > 1 && pv[0] == best && tc_is_legal(q, pv[1]))
        reply = pv[1];
    else if (tt_probe(&e->tt, q->key, &te) && te.move && tc_is_legal(q, te.move))
        reply = te.move;
    tc_position_free(q);
    return reply;
}

int tc_engine_set_endgame_path(tc_engine *e, const char *dir)
{
    egtb_cache_set_path(e->egtb, dir);
    return 0;
}

/* The root is a solved ending: report the tables' line as one iteration,
 * and still wait for the stop of `go infinite`. */
static void egtb_root_answer(tc_engine *e, tc_search_result *res)
{
    tc_search_info in;
    memset(&in, 0, sizeof in);
    in.depth = in.seldepth = res->depth = 1;
    in.score = res->score;
    in.mate = search_mate_moves(res->score);
    in.pv_len = egtb_root_pv(e->egtb, e->root, in.pv, MAX_PLY);
    res->ponder = expected_reply(e, res->best, in.pv, in.pv_len);
    in.time_ms = search_now_ms() - e->start_ms;
    if (e->info)
        e->info(&in, e->ctx);
    wait_to_answer(e);
}

tc_search_result tc_engine_search(tc_engine *e, const tc_limits *limits, tc_info_fn info, void *ctx)
{
    tc_search_result res;
    memset(&res, 0, sizeof res);
    e->start_ms = search_now_ms();
    tc_limits_init(&e->limits);
    if (limits)
        e->limits = *limits;
    e->info = info;
    e->ctx = ctx;
    e->max_depth = MAX_PLY - 8;
    if (e->limits.depth > 0 && e->limits.depth < e->max_depth)
        e->max_depth = e->limits.depth;
    if (e->limits.level > 0 && e->limits.level < e->max_depth)
        e->max_depth = e->limits.level;
    if (e->limits.elo > 0 && search_level_depth(e->limits.elo) < e->max_depth)
        e->max_depth = search_level_depth(e->limits.elo);
#ifdef TC_NO_THREADS
    e->limits.ponder = 0; /* no other thread could send the hit */
#endif
    int64_t soft = 0, hard = 0;
    if (!e->limits.ponder)
        time_budget(&e->limits, e->root->side, &soft, &hard);
    atomic_store(&e->soft_ms, soft);
    atomic_store(&e->hard_ms, hard);
    if (e->limits.ponder)
        ponder_begin(e);
    tt_new_search(&e->tt);

    tc_move *rootmoves = e->threads[0]->moves[0];
    int n = tc_gen_legal(e->root, rootmoves);
    egtb_prepare(e->egtb, e->root);
    if (n == 0) {
        res.score = tc_in_check(e->root) ? -MATE : 0;
        wait_to_answer(e);
    } else if ((res.best = egtb_root_move(e->egtb, e->root, &res.score)) != 0) {
        egtb_root_answer(e, &res);
    } else {
        for (int i = 0; i < e->nthreads; i++) {
            search_thread *t = e->threads[i];
            tc_position *q = tc_position_clone(e->root);
            if (!q) {
                e->nthreads = i > 0 ? i : 1;
                break;
            }
            tc_position_free(t->pos);
            t->pos = q;
            thread_net_ready(e, t);
            t->nodes = 0;
            atomic_store(&t->nodes_pub, 0);
            t->completed = 0;
            t->best = rootmoves[0];
            t->best_score = 0;
            t->root_pv_len = 0;
            history_age(&t->mh);
            memset(t->null_at, 0, sizeof t->null_at);
        }
        if (!e->threads[0]->pos) {
            res.best = rootmoves[0];
            return res;
        }
        int started = 1;
#ifndef TC_NO_THREADS
        for (int i = 1; i < e->nthreads; i++) {
            if (pthread_create(&e->threads[i]->handle, NULL, helper_main, e->threads[i]))
                break;
            started++;
        }
        search_iterate(e->threads[0]);
        wait_to_answer(e); /* the helpers search on meanwhile */
        atomic_store(&e->stop, true);
        for (int i = 1; i < started; i++)
            pthread_join(e->threads[i]->handle, NULL);
#else
        /* no thread can stop an infinite search here: it ends at the depth
         * cap or when the poll callback says so */
        search_iterate(e->threads[0]);
        (void)started;
#endif
        search_thread *m = e->threads[0];
        res.best = search_level_choice(e, &res.score);
        res.depth = m->completed;
        res.ponder = expected_reply(e, res.best, m->root_pv, m->root_pv_len);
    }
    res.mate = search_mate_moves(res.score);
    res.nodes = 0;
    for (int i = 0; i < e->nthreads; i++)
        res.nodes += e->threads[i]->nodes;
    res.time_ms = search_now_ms() - e->start_ms;
    atomic_store(&e->ponder, PONDER_IDLE);
    atomic_store(&e->halt, false);
    atomic_store(&e->stop, false);
    return res;
}

uint64_t tc_engine_bench_position(const tc_position *p, int depth, tc_move *best)
{
    tc_engine *e = tc_engine_new(tc_position_variant(p), 16, 1);
    if (!e)
        return 0;
    uint64_t nodes = 0;
    if (tc_engine_set_position(e, p) == 0) {
        tc_limits l;
        tc_limits_init(&l);
        l.depth = depth;
        tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
        nodes = r.nodes;
        if (best)
            *best = r.best;
    }
    tc_engine_free(e);
    return nodes;
}
