/* The retrograde solver: the index of a position (White's king on an orbit
 * representative, the smallest index over the symmetries that keep it
 * there), and the solve itself: mates and captures first, then by increasing distance, wins from the un-moves of
 * lost positions and losses from the un-moves of won ones, each checked
 * by generating the candidate's moves. */
#include "egtb.h"

#ifndef TC_NO_THREADS
#include <pthread.h>
#endif
#include <stdlib.h>
#include <time.h>

/* ---------------------------------------------------------------- index */

uint64_t eg_index_raw(const eg_board *b, const eg_table *t, int stm, const uint8_t *sq)
{
    uint64_t i = (uint64_t)stm * (uint64_t)b->nrep + (uint64_t)b->rep_index[sq[0]];
    for (int j = 1; j < t->k; j++)
        i = i * (uint64_t)b->n + sq[j];
    return i;
}

uint64_t eg_canon(const eg_board *b, const eg_table *t, int stm, const uint8_t *sq)
{
    const uint8_t *g = b->sym[b->to_rep[sq[0]]];
    uint8_t a[EG_MAXP] = {0};
    for (int j = 0; j < t->k; j++)
        a[j] = g[sq[j]];
    int r = b->rep_index[a[0]];
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < b->stab_len[r]; i++) {
        const uint8_t *s = b->sym[b->stab[b->stab_off[r] + i]];
        uint8_t c[EG_MAXP] = {0};
        for (int j = 0; j < t->k; j++)
            c[j] = s[a[j]];
        if (t->twin && c[3] < c[2]) {
            uint8_t x = c[2];
            c[2] = c[3];
            c[3] = x;
        }
        uint64_t idx = eg_index_raw(b, t, stm, c);
        if (idx < best)
            best = idx;
    }
    return best;
}

void eg_decode(const eg_board *b, const eg_table *t, uint64_t idx, int *stm, uint8_t *sq)
{
    for (int j = t->k - 1; j >= 1; j--) {
        sq[j] = (uint8_t)(idx % (uint64_t)b->n);
        idx /= (uint64_t)b->n;
    }
    sq[0] = b->reps[idx % (uint64_t)b->nrep];
    *stm = (int)(idx / (uint64_t)b->nrep);
}

int eg_lookup(const eg_board *b, const eg_table *t, int stm, const uint8_t *sq)
{
    return atomic_load_explicit(&t->val[eg_canon(b, t, stm, sq)], memory_order_relaxed);
}

/* ---------------------------------------------------------------- moves */

static int piece_at(const eg_table *t, const uint8_t *sq, int cell)
{
    for (int i = 0; i < t->k; i++)
        if (sq[i] == cell)
            return i;
    return -1;
}

/* Is the king of `side` attacked, with piece `gone` taken off (-1: none)? */
bool eg_king_attacked(const eg_board *b, const eg_table *t, const uint8_t *sq, int side, int gone)
{
    uint8_t occ[EG_MAXP];
    int nocc = 0;
    for (int i = 0; i < t->k; i++)
        if (i != gone)
            occ[nocc++] = sq[i];
    int king = sq[side]; /* piece 0 is White's king, 1 Black's */
    for (int i = 0; i < t->k; i++)
        if (i != gone && t->colour[i] != side && eg_attacks(b, t->type[i], sq[i], king, occ, nocc))
            return true;
    return false;
}

/// Where generated moves go: an array, or a visitor that may stop early.
typedef struct {
    eg_move *out;
    eg_move_visit visit;
    void *ctx;
    bool stopped;
} move_sink;

static int try_add(const eg_board *b, const eg_table *t, uint8_t *sq, int stm, int i, int to,
                   move_sink *sink, int n)
{
    int victim = piece_at(t, sq, to);
    if (victim >= 0 && (t->colour[victim] == stm || t->type[victim] == TC_KING))
        return n;
    uint8_t from = sq[i];
    sq[i] = (uint8_t)to;
    bool bad = eg_king_attacked(b, t, sq, stm, victim);
    sq[i] = from;
    if (!bad) {
        eg_move m = {(uint8_t)i, (uint8_t)to, (int8_t)victim};
        if (sink->visit)
            sink->stopped = !sink->visit(sink->ctx, sq, &m);
        else
            sink->out[n] = m;
        n++;
    }
    return n;
}

/* Every legal move of the side to move (a cell reached along two rays may
 * come twice, which changes nothing here). */
static int gen_moves_to(const eg_board *b, const eg_table *t, uint8_t *sq, int stm, move_sink *out)
{
    const tc_variant *v = b->v;
    int n = 0;
    for (int i = 0; i < t->k; i++) {
        if (t->colour[i] != stm)
            continue;
        int f = sq[i], ty = t->type[i];
        if (ty == TC_KING || ty == TC_KNIGHT) {
            const uint8_t *to = ty == TC_KING ? v->king[f] : v->knight[f];
            int cnt = ty == TC_KING ? v->nking[f] : v->nknight[f];
            for (int j = 0; j < cnt && !out->stopped; j++)
                n = try_add(b, t, sq, stm, i, to[j], out, n);
            continue;
        }
        for (int d = ty == TC_BISHOP ? 1 : 0; d < 8; d += ty == TC_QUEEN ? 1 : 2) {
            const uint8_t *r = v->ray_pool + v->ray_off[f][d];
            for (int j = 0; j < v->ray_len[f][d] && !out->stopped; j++) {
                n = try_add(b, t, sq, stm, i, r[j], out, n);
                if (piece_at(t, sq, r[j]) >= 0)
                    break;
            }
        }
    }
    return n;
}

static int gen_moves(const eg_board *b, const eg_table *t, uint8_t *sq, int stm, eg_move *out)
{
    move_sink sink = {out, NULL, NULL, false};
    return gen_moves_to(b, t, sq, stm, &sink);
}

int eg_visit_moves(const eg_board *b, const eg_table *t, uint8_t *sq, int stm, eg_move_visit fn, void *ctx)
{
    move_sink sink = {NULL, fn, ctx, false};
    return gen_moves_to(b, t, sq, stm, &sink);
}

static bool stop_at_first(void *ctx, uint8_t *sq, const eg_move *m)
{
    (void)ctx, (void)sq, (void)m;
    return false;
}

bool eg_mated(const eg_board *b, const eg_table *t, uint8_t *sq, int stm)
{
    if (!eg_king_attacked(b, t, sq, stm, -1))
        return false;
    move_sink sink = {NULL, stop_at_first, NULL, false};
    gen_moves_to(b, t, sq, stm, &sink);
    return !sink.stopped;
}

void eg_gen_unmoves(const eg_board *b, const eg_table *t, uint8_t *sq, int mover, eg_unmove_fn fn,
                    void *ctx)
{
    const tc_variant *v = b->v;
    for (int i = 0; i < t->k; i++) {
        if (t->colour[i] != mover)
            continue;
        int to = sq[i], ty = t->type[i];
        if (ty == TC_KING || ty == TC_KNIGHT) {
            const uint8_t *from = v->from_pool + (ty == TC_KING ? v->king_from_off[to] : v->knight_from_off[to]);
            int cnt = ty == TC_KING ? v->king_from_len[to] : v->knight_from_len[to];
            for (int j = 0; j < cnt; j++)
                if (piece_at(t, sq, from[j]) < 0) {
                    sq[i] = from[j];
                    fn(ctx, sq);
                    sq[i] = (uint8_t)to;
                }
            continue;
        }
        if (b->reversible) {
            for (int d = ty == TC_BISHOP ? 1 : 0; d < 8; d += ty == TC_QUEEN ? 1 : 2) {
                const uint8_t *r = v->ray_pool + v->ray_off[to][d];
                for (int j = 0; j < v->ray_len[to][d]; j++) {
                    if (piece_at(t, sq, r[j]) >= 0)
                        break;
                    sq[i] = r[j];
                    fn(ctx, sq);
                    sq[i] = (uint8_t)to;
                }
            }
        } else {
            /* no reverse rays: ask every empty cell whether it reaches `to` */
            uint8_t occ[EG_MAXP];
            for (int q = 0; q < t->k; q++)
                occ[q] = sq[q];
            for (int c = 0; c < b->n; c++)
                if (piece_at(t, sq, c) < 0 && eg_attacks(b, ty, c, to, occ, t->k)) {
                    sq[i] = (uint8_t)c;
                    fn(ctx, sq);
                    sq[i] = (uint8_t)to;
                }
        }
    }
}

/* The value of the position after a capture, from the sub table, for the
 * side to move there. */
static int capture_value(const eg_board *b, const eg_table *t, const uint8_t *sq, int stm,
                         const eg_move *m)
{
    const eg_table *s = t->sub[m->victim];
    uint8_t c[EG_MAXP], moved[EG_MAXP];
    for (int i = 0; i < t->k; i++)
        moved[i] = sq[i];
    moved[m->piece] = m->to;
    for (int i = 0; i < s->k; i++)
        c[i] = moved[t->sub_map[m->victim][i]];
    int side = !stm ^ (t->sub_swap[m->victim] ? 1 : 0);
    return eg_lookup(b, s, side, c);
}

/* ---------------------------------------------------------------- workers */

/// State of one solve shared by its worker threads.
typedef struct {
    const eg_board *b;
    eg_table *t;
    int phase;               /* 0 init, 1 wins from losses, 2 losses from wins */
    int n;                   /* plies of the losses being spread (phases 1 and 2) */
    _Atomic uint64_t next;   /* next chunk of entries to take */
    _Atomic uint64_t changed;
    _Atomic int maxv;        /* largest stored distance so far */
    _Atomic int overflow;
} solve_ctx;

/// One worker's scratch: move buffer and the current phase's context.
typedef struct {
    solve_ctx *s;
    eg_move *moves;
    uint64_t changed;
    int maxv;
} worker;

#define CHUNK 4096
#define MOVE_BUF (EG_MAXP * 8 * TC_MAX_CELLS)

static void note_value(worker *w, int stored)
{
    if (stored > w->maxv)
        w->maxv = stored;
}

static void init_entry(worker *w, uint64_t idx)
{
    const eg_board *b = w->s->b;
    eg_table *t = w->s->t;
    uint8_t sq[EG_MAXP];
    int stm, val = EG_DRAW;
    eg_decode(b, t, idx, &stm, sq);
    for (int i = 0; i < t->k; i++)
        for (int j = i + 1; j < t->k; j++)
            if (sq[i] == sq[j])
                val = EG_ILLEGAL;
    if (val == EG_DRAW && eg_canon(b, t, stm, sq) != idx)
        val = EG_NONCANON;
    if (val == EG_DRAW && eg_king_attacked(b, t, sq, !stm, -1))
        val = EG_ILLEGAL;
    if (val == EG_DRAW) {
        int nm = gen_moves(b, t, sq, stm, w->moves);
        if (nm == 0) {
            if (eg_king_attacked(b, t, sq, stm, -1))
                val = 1; /* checkmated: a loss in 0 plies */
        } else {
            int best_win = 1000, worst = 0;
            bool quiet = false, all_lost = true;
            for (int i = 0; i < nm; i++) {
                if (w->moves[i].victim < 0) {
                    quiet = true;
                    continue;
                }
                int cv = capture_value(b, t, sq, stm, &w->moves[i]);
                if (eg_is_loss(cv) && cv + 1 < best_win)
                    best_win = cv + 1;
                if (eg_is_win(cv)) {
                    if (cv + 1 > worst)
                        worst = cv + 1;
                } else
                    all_lost = false;
            }
            if (best_win < 1000)
                val = best_win;
            else if (!quiet && all_lost)
                val = worst;
            if (val > TC_EGTB_MAX_PLIES + 1) {
                atomic_store(&w->s->overflow, 1);
                val = EG_DRAW;
            }
        }
    }
    if (eg_is_value(val))
        note_value(w, val);
    atomic_store_explicit(&t->val[idx], (uint8_t)val, memory_order_relaxed);
}

/* Phase 1: a predecessor of a lost position wins in n + 1 plies. */
static void mark_win(void *ctx, const uint8_t *sq)
{
    worker *w = ctx;
    solve_ctx *s = w->s;
    const eg_table *t = s->t;
    int stm = s->phase; /* set by the caller: the mover */
    uint64_t q = eg_canon(s->b, t, stm, sq);
    uint8_t cur = atomic_load_explicit(&t->val[q], memory_order_relaxed);
    uint8_t want = (uint8_t)(s->n + 2);
    /* another thread may be writing the same value: count it once */
    while ((cur == EG_DRAW || (eg_is_win(cur) && cur > want)) &&
           !atomic_compare_exchange_weak_explicit(&t->val[q], &cur, want, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
    if (cur == EG_DRAW || (eg_is_win(cur) && cur > want)) {
        w->changed++;
        note_value(w, want);
    }
}

/// A loss check in progress: the candidate and the longest win found.
typedef struct {
    const eg_board *b;
    const eg_table *t;
    int stm, n, worst;
} loss_check;

/* One move of the candidate: it must lead to a win for the other side
 * whose distance is already final (at most n + 1 plies in this table). */
static bool child_lost(void *ctx, uint8_t *sq, const eg_move *m)
{
    loss_check *lc = ctx;
    int cv;
    if (m->victim >= 0)
        cv = capture_value(lc->b, lc->t, sq, lc->stm, m);
    else {
        uint8_t from = sq[m->piece];
        sq[m->piece] = m->to;
        cv = eg_lookup(lc->b, lc->t, !lc->stm, sq);
        sq[m->piece] = from;
        if (cv > lc->n + 2)
            return false; /* not final yet */
    }
    if (!eg_is_win(cv))
        return false;
    if (cv > lc->worst)
        lc->worst = cv;
    return true;
}

/* Phase 2: a predecessor of a won position loses if every move it has
 * leads to a win for the other side; the first move that does not ends
 * the check. */
static void check_loss(void *ctx, const uint8_t *sq_in)
{
    worker *w = ctx;
    solve_ctx *s = w->s;
    const eg_board *b = s->b;
    const eg_table *t = s->t;
    int stm = s->phase;
    uint64_t q = eg_canon(b, t, stm, sq_in);
    if (atomic_load_explicit(&t->val[q], memory_order_relaxed) != EG_DRAW)
        return;
    uint8_t sq[EG_MAXP];
    memcpy(sq, sq_in, sizeof sq);
    loss_check lc = {b, t, stm, s->n, 0};
    move_sink sink = {NULL, child_lost, &lc, false};
    int nm = gen_moves_to(b, t, sq, stm, &sink);
    if (sink.stopped || nm == 0)
        return;
    if (lc.worst + 1 > TC_EGTB_MAX_PLIES + 1) {
        atomic_store(&s->overflow, 1);
        return;
    }
    uint8_t cur = EG_DRAW;
    if (atomic_compare_exchange_strong_explicit(&t->val[q], &cur, (uint8_t)(lc.worst + 1),
                                                memory_order_relaxed, memory_order_relaxed)) {
        w->changed++;
        note_value(w, lc.worst + 1);
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    solve_ctx *s = w->s;
    const eg_board *b = s->b;
    eg_table *t = s->t;
    w->changed = 0;
    for (;;) {
        uint64_t lo = atomic_fetch_add(&s->next, CHUNK);
        if (lo >= t->size)
            break;
        uint64_t hi = lo + CHUNK < t->size ? lo + CHUNK : t->size;
        for (uint64_t idx = lo; idx < hi; idx++) {
            if (s->phase == 0) {
                init_entry(w, idx);
                continue;
            }
            int v = atomic_load_explicit(&t->val[idx], memory_order_relaxed);
            if (v != s->n + (s->phase == 1 ? 1 : 2))
                continue;
            uint8_t sq[EG_MAXP];
            int stm;
            eg_decode(b, t, idx, &stm, sq);
            /* the predecessors have the other side to move; the callbacks
             * read it from a worker-local copy of the context */
            solve_ctx local = {.b = b, .t = t, .phase = !stm, .n = s->n};
            worker lw = {.s = &local, .moves = w->moves, .changed = 0, .maxv = w->maxv};
            eg_gen_unmoves(b, t, sq, !stm, s->phase == 1 ? mark_win : check_loss, &lw);
            w->changed += lw.changed;
            w->maxv = lw.maxv;
            if (atomic_load_explicit(&local.overflow, memory_order_relaxed))
                atomic_store(&s->overflow, 1);
        }
    }
    atomic_fetch_add(&s->changed, w->changed);
    int m = atomic_load(&s->maxv);
    while (w->maxv > m && !atomic_compare_exchange_weak(&s->maxv, &m, w->maxv))
        ;
    return NULL;
}

static int run_phase(solve_ctx *s, worker *ws, int nthreads)
{
    atomic_store(&s->next, 0);
    atomic_store(&s->changed, 0);
#ifdef TC_NO_THREADS
    /* builds without threads (the wasm module): the calling thread does all */
    (void)nthreads;
    worker_main(&ws[0]);
#else
    pthread_t th[8];
    int started = 0;
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&th[i], NULL, worker_main, &ws[i]))
            break;
        started = i;
    }
    worker_main(&ws[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(th[i], NULL);
#endif
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int eg_solve_table(tc_egtb *set, eg_table *t, const tc_egtb_options *opt, tc_error *err)
{
    const eg_board *b = &set->b;
    t->size = 2 * (uint64_t)b->nrep;
    for (int j = 1; j < t->k; j++)
        t->size *= (uint64_t)b->n;
    t->val = malloc(t->size);
    if (!t->val) {
        tc_set_error(err, "%s: out of memory for %llu entries", t->name, (unsigned long long)t->size);
        return -1;
    }
    int nthreads = opt && opt->threads > 0 ? opt->threads : 2;
    if (nthreads > 8)
        nthreads = 8;
    if (t->size < (1u << 20))
        nthreads = 1; /* a small table is done before a second thread gets going */
    FILE *progress = opt ? opt->progress : NULL;
    solve_ctx s = {.b = b, .t = t, .phase = 0, .n = 0};
    atomic_init(&s.next, 0);
    atomic_init(&s.changed, 0);
    atomic_init(&s.maxv, 0);
    atomic_init(&s.overflow, 0);
    worker ws[8];
    eg_move *buf = malloc(sizeof *buf * MOVE_BUF * (size_t)nthreads);
    if (!buf) {
        tc_set_error(err, "out of memory");
        return -1;
    }
    for (int i = 0; i < nthreads; i++)
        ws[i] = (worker){.s = &s, .moves = buf + (size_t)i * MOVE_BUF, .changed = 0, .maxv = 0};
    double t0 = now_s(), last = t0;
    run_phase(&s, ws, nthreads);
    for (int n = 0;; n += 2) {
        if (n + 2 > TC_EGTB_MAX_PLIES + 1 || atomic_load(&s.overflow)) {
            free(buf);
            tc_set_error(err, "%s: a distance beyond %d plies", t->name, TC_EGTB_MAX_PLIES);
            return -1;
        }
        if (opt && opt->on_pass && opt->on_pass(opt->ctx, t->name, n, t->size)) {
            free(buf);
            tc_set_error(err, "%s: stopped", t->name);
            return -1;
        }
        s.n = n;
        s.phase = 1;
        run_phase(&s, ws, nthreads);
        uint64_t changed = atomic_load(&s.changed);
        s.phase = 2;
        run_phase(&s, ws, nthreads);
        changed += atomic_load(&s.changed);
        double now = now_s();
        if (progress && now - t0 >= 1.0 && now - last >= 1.0) {
            fprintf(progress, "endgame %s: %d plies done, %llu new this pass, %.1f s\n", t->name,
                    n + 1, (unsigned long long)changed, now - t0);
            fflush(progress);
            last = now;
        }
        if (changed == 0 && n + 2 >= atomic_load(&s.maxv))
            break;
    }
    free(buf);
    return 0;
}
