/* The engine object and its search: iterative deepening over a principal
 * variation search with a shared transposition table, quiescence, null
 * move, late-move reductions and aspiration windows; Lazy SMP for more than
 * one thread (each thread searches its own copy of the position and they
 * meet only in the table). */
#include "topochess_engine.h"

#include "eval.h"
#include "tt.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define MAX_PLY TC_ENGINE_MAX_PLY
#define INF 32767
#define MATE TC_SCORE_MATE
#define MATE_BOUND TC_SCORE_MATE_BOUND
#define HIST_MAX 16384
#define POLL_MASK 1023
#define EVAL_CACHE 65536 /* entries per thread, a power of two */

/// A cached static evaluation, keyed by the full Zobrist key.
typedef struct {
    uint64_t key;
    int score;
} eval_slot;

/// Everything one search thread owns: its position, per-ply move buffers
/// (heap: TC_MAX_MOVES per ply), move-ordering tables and its result.
typedef struct search_thread {
    struct tc_engine *e;
    int id;
    tc_position *pos;
    tc_move (*moves)[TC_MAX_MOVES];
    int (*scores)[TC_MAX_MOVES];
    eval_slot *eval_cache;
    tc_move killers[MAX_PLY + 1][2];
    int16_t history[16][TC_MAX_CELLS];
    tc_move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    int static_eval[MAX_PLY + 1];
    bool null_at[MAX_PLY + 1]; /* the move into this ply was a null move */
    uint64_t nodes;
    _Atomic uint64_t nodes_pub; /* nodes, published every POLL_MASK+1 */
    int seldepth;
    int completed;              /* deepest finished iteration */
    int root_depth;             /* depth of the iteration in progress */
    tc_move best;
    int best_score;
    tc_move root_pv[MAX_PLY];
    int root_pv_len;
    pthread_t handle;
} search_thread;

/// The engine: variant tables, hash table, threads and the position to
/// search, plus the limits of the search in progress.
struct tc_engine {
    const tc_variant *v;
    eval_table *et;
    tt_table tt;
    int nthreads;
    search_thread *threads[TC_ENGINE_MAX_THREADS];
    tc_position *root;
    atomic_bool stop;
    int8_t lmr[64][64];
    int style; /* TC_STYLE_* flags */

    /* the search in progress */
    tc_limits limits;
    int max_depth;
    int64_t start_ms, soft_ms, hard_ms; /* soft/hard: 0 when untimed */
    tc_info_fn info;
    void *ctx;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void tc_limits_init(tc_limits *l) { memset(l, 0, sizeof *l); }

/* ---------------------------------------------------------------- threads */

static void thread_free(search_thread *t)
{
    if (!t)
        return;
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
    e->style = style;
    for (int i = 0; i < TC_ENGINE_MAX_THREADS; i++)
        if (e->threads[i]) /* cached evaluations belong to the old style */
            memset(e->threads[i]->eval_cache, 0, sizeof *e->threads[i]->eval_cache * EVAL_CACHE);
}

int tc_engine_set_threads(tc_engine *e, int n)
{
    if (n < 1)
        n = 1;
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
    e->et = eval_table_new(v);
    e->root = tc_position_new(v);
    if (!e->et || !e->root || tt_init(&e->tt, hash_mb) || tc_engine_set_threads(e, threads)) {
        tc_engine_free(e);
        return NULL;
    }
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            e->lmr[d][m] = (int8_t)(0.75 + log((double)d) * log((double)m) / 2.25);
    return e;
}

void tc_engine_free(tc_engine *e)
{
    if (!e)
        return;
    for (int i = 0; i < TC_ENGINE_MAX_THREADS; i++)
        thread_free(e->threads[i]);
    tt_free(&e->tt);
    eval_table_free(e->et);
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
    return 0;
}

void tc_engine_new_game(tc_engine *e)
{
    tt_clear(&e->tt);
    for (int i = 0; i < e->nthreads; i++) {
        memset(e->threads[i]->history, 0, sizeof e->threads[i]->history);
        memset(e->threads[i]->killers, 0, sizeof e->threads[i]->killers);
    }
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

void tc_engine_stop(tc_engine *e) { atomic_store(&e->stop, true); }

int tc_engine_evaluate(tc_engine *e) { return eval_position(e->et, e->root); }

/* ---------------------------------------------------------------- helpers */

static inline bool stopped(const search_thread *t)
{
    return atomic_load_explicit(&t->e->stop, memory_order_relaxed);
}

static uint64_t total_nodes(const tc_engine *e)
{
    uint64_t n = e->threads[0]->nodes;
    for (int i = 1; i < e->nthreads; i++)
        n += atomic_load_explicit(&e->threads[i]->nodes_pub, memory_order_relaxed);
    return n;
}

/* Counts a node; the main thread watches the clock and the node limit. A
 * node limit lets the first iteration complete; the clock does not wait,
 * since the root keeps the best move found so far (or the first legal). */
static inline void count_node(search_thread *t)
{
    t->nodes++;
    tc_engine *e = t->e;
    if (t->id == 0 && e->limits.nodes && t->completed > 0 && total_nodes(e) >= e->limits.nodes)
        atomic_store(&e->stop, true);
    if ((t->nodes & POLL_MASK) == 0) {
        atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
        if (t->id == 0 && e->hard_ms && now_ms() - e->start_ms >= e->hard_ms)
            atomic_store(&e->stop, true);
    }
}

static inline bool aborting(const search_thread *t) { return stopped(t); }

static inline int evaluate(search_thread *t)
{
    eval_slot *slot = &t->eval_cache[t->pos->key & (EVAL_CACHE - 1)];
    if (slot->key != t->pos->key || !slot->key) {
        slot->key = t->pos->key;
        slot->score = (t->e->style & TC_STYLE_MATERIAL) ? eval_material(t->pos)
                                                        : eval_position(t->e->et, t->pos);
    }
    return slot->score;
}

static inline bool is_capture(const tc_position *p, tc_move m)
{
    return p->board[TC_MOVE_TO(m)] || TC_MOVE_KIND(m) == TC_MOVE_EP;
}

static inline int victim_type(const tc_position *p, tc_move m)
{
    return TC_MOVE_KIND(m) == TC_MOVE_EP ? TC_PAWN : TC_TYPE(p->board[TC_MOVE_TO(m)]);
}

static bool has_pieces(const tc_position *p, int col)
{
    for (int type = TC_KNIGHT; type <= TC_QUEEN; type++)
        if (bits_any(&p->pieces[TC_PIECE(col, type)]))
            return true;
    return false;
}

/* Move ordering: hash move, good captures and queen promotions by MVV-LVA,
 * killers, then quiet moves by history; captures into a defended cell by a
 * more valuable piece go after the killers. */
static void score_moves(search_thread *t, int ply, int n, tc_move tt_move, bool captures_only)
{
    const tc_position *p = t->pos;
    tc_move *mv = t->moves[ply];
    int *sc = t->scores[ply];
    for (int i = 0; i < n; i++) {
        tc_move m = mv[i];
        int promo = TC_MOVE_PROMO(m);
        int attacker = TC_TYPE(p->board[TC_MOVE_FROM(m)]);
        if (m == tt_move)
            sc[i] = 1 << 30;
        else if (is_capture(p, m) || promo == TC_QUEEN) {
            int victim = is_capture(p, m) ? victim_type(p, m) : 0;
            int s = 1000000 + eval_piece_value[victim] * 10 - attacker + (promo == TC_QUEEN ? 9000 : 0);
            if (!promo && eval_piece_value[attacker] > eval_piece_value[victim] + 50 &&
                tc_attacked_occ(p, TC_MOVE_TO(m), !p->side))
                s -= 600000;
            sc[i] = s;
        } else if (promo)
            sc[i] = -1000000 + promo;
        else if (captures_only)
            sc[i] = -2000000;
        else if (m == t->killers[ply][0])
            sc[i] = 900000;
        else if (m == t->killers[ply][1])
            sc[i] = 800000;
        else
            sc[i] = t->history[p->board[TC_MOVE_FROM(m)]][TC_MOVE_TO(m)];
    }
}

/* Moves the best-scored remaining move to index i and returns it. */
static inline tc_move pick(search_thread *t, int ply, int n, int i)
{
    tc_move *mv = t->moves[ply];
    int *sc = t->scores[ply];
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (sc[j] > sc[best])
            best = j;
    tc_move m = mv[best];
    int s = sc[best];
    mv[best] = mv[i];
    sc[best] = sc[i];
    mv[i] = m;
    sc[i] = s;
    return m;
}

static inline void history_update(int16_t *h, int bonus)
{
    int v = *h + bonus - *h * abs(bonus) / HIST_MAX;
    *h = (int16_t)(v > HIST_MAX ? HIST_MAX : v < -HIST_MAX ? -HIST_MAX : v);
}

static inline void update_pv(search_thread *t, int ply, tc_move m)
{
    t->pv[ply][ply] = m;
    for (int i = ply + 1; i < t->pv_len[ply + 1]; i++)
        t->pv[ply][i] = t->pv[ply + 1][i];
    t->pv_len[ply] = t->pv_len[ply + 1] > ply + 1 ? t->pv_len[ply + 1] : ply + 1;
}

/* ---------------------------------------------------------------- search */

static int qsearch(search_thread *t, int alpha, int beta, int ply)
{
    tc_position *p = t->pos;
    count_node(t);
    t->pv_len[ply] = ply;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (aborting(t))
        return 0;
    if (ply >= MAX_PLY - 1)
        return evaluate(t);

    bool in_check = tc_in_check(p);
    tt_entry te;
    tc_move tt_move = 0;
    bool pv = beta - alpha > 1;
    if (tt_probe(&t->e->tt, p->key, &te)) {
        tt_move = te.move;
        int s = tt_score_from(te.score, ply);
        if (!pv && (te.bound == TT_EXACT || (te.bound == TT_LOWER && s >= beta) ||
                    (te.bound == TT_UPPER && s <= alpha)))
            return s;
    }

    int best, stand = -INF;
    if (in_check)
        best = -MATE + ply;
    else {
        stand = evaluate(t);
        if (stand >= beta)
            return stand;
        if (stand > alpha)
            alpha = stand;
        best = stand;
    }

    int n = tc_gen_legal(p, t->moves[ply]);
    if (n == 0)
        return in_check ? -MATE + ply : 0;
    /* a quiet hash move (stored by the main search) is not a quiescence
     * move: playing it would let quiet moves chain without end */
    if (tt_move && !in_check && !is_capture(p, tt_move) && TC_MOVE_PROMO(tt_move) != TC_QUEEN)
        tt_move = 0;
    score_moves(t, ply, n, tt_move, !in_check);
    for (int i = 0; i < n; i++) {
        tc_move m = pick(t, ply, n, i);
        if (!in_check) {
            if (t->scores[ply][i] < 0)
                break; /* quiet moves and under-promotions */
            int gain = is_capture(p, m) ? eval_piece_value[victim_type(p, m)] : 0;
            if (TC_MOVE_PROMO(m))
                gain += eval_piece_value[TC_QUEEN] - 100;
            if (stand + gain + 200 < alpha && !(t->e->style & TC_STYLE_NO_PRUNING))
                continue;
            if (t->scores[ply][i] < 500000 && m != tt_move)
                continue; /* a losing capture */
        }
        tc_make_move(p, m);
        tt_prefetch(&t->e->tt, p->key);
        int s = -qsearch(t, -beta, -alpha, ply + 1);
        tc_unmake_move(p);
        if (aborting(t))
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                update_pv(t, ply, m);
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}

static int negamax(search_thread *t, int alpha, int beta, int depth, int ply)
{
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply);
    tc_position *p = t->pos;
    tc_engine *e = t->e;
    bool pv = beta - alpha > 1, root = ply == 0;
    count_node(t);
    t->pv_len[ply] = ply;
    if (ply > t->seldepth)
        t->seldepth = ply;

    if (!root) {
        if (aborting(t))
            return 0;
        if (p->halfmove >= 100 || tc_repetitions(p) >= 2)
            return 0;
        /* mate distance pruning */
        if (alpha < -MATE + ply)
            alpha = -MATE + ply;
        if (beta > MATE - ply - 1)
            beta = MATE - ply - 1;
        if (alpha >= beta)
            return alpha;
    }
    if (ply >= MAX_PLY - 1)
        return evaluate(t);

    bool in_check = tc_in_check(p);
    if (in_check && ply < 2 * t->root_depth)
        depth++;

    tt_entry te;
    tc_move tt_move = 0;
    bool tt_hit = tt_probe(&e->tt, p->key, &te);
    if (tt_hit) {
        tt_move = te.move;
        int s = tt_score_from(te.score, ply);
        if (!pv && te.depth >= depth &&
            (te.bound == TT_EXACT || (te.bound == TT_LOWER && s >= beta) ||
             (te.bound == TT_UPPER && s <= alpha)))
            return s;
    }

    int static_eval = in_check ? -INF : evaluate(t);
    t->static_eval[ply] = static_eval;
    bool improving = !in_check && (ply < 2 || static_eval > t->static_eval[ply - 2]);
    t->killers[ply + 1][0] = t->killers[ply + 1][1] = 0;

    bool pruning = !(e->style & TC_STYLE_NO_PRUNING);
    if (pruning && !pv && !in_check && abs(beta) < MATE_BOUND) {
        /* reverse futility: far above beta at low depth */
        if (depth <= 6 && static_eval - 90 * depth + (improving ? 30 : 0) >= beta &&
            static_eval < MATE_BOUND)
            return static_eval;
        /* null move: not with only king and pawns (zugzwang), not twice */
        if (depth >= 3 && static_eval >= beta && !t->null_at[ply] && has_pieces(p, p->side)) {
            int r = 3 + depth / 6 + ((static_eval - beta) / 200 < 2 ? (static_eval - beta) / 200 : 2);
            tc_make_null(p);
            t->null_at[ply + 1] = true;
            int s = -negamax(t, -beta, -beta + 1, depth - 1 - r, ply + 1);
            t->null_at[ply + 1] = false;
            tc_unmake_null(p);
            if (aborting(t))
                return 0;
            if (s >= beta)
                return s >= MATE_BOUND ? beta : s;
        }
    }
    /* without a hash move this node is probably new: search it shallower */
    if (pruning && !tt_move && depth >= 4)
        depth--;

    int n = tc_gen_legal(p, t->moves[ply]);
    if (n == 0)
        return in_check ? -MATE + ply : 0;
    score_moves(t, ply, n, tt_move, false);

    int orig_alpha = alpha, best = -INF, searched = 0, nquiets = 0;
    tc_move best_move = 0, quiets[64];
    for (int i = 0; i < n; i++) {
        tc_move m = pick(t, ply, n, i);
        bool quiet = !is_capture(p, m) && !TC_MOVE_PROMO(m);
        int piece = p->board[TC_MOVE_FROM(m)];
        /* late-move and futility pruning near the leaves, except checks */
        bool prunable = pruning && !root && !pv && quiet && !in_check && best > -MATE_BOUND && depth <= 3 &&
                        (searched >= 3 + depth * depth * (improving ? 2 : 1) ||
                         (static_eval + 120 * depth + 80 <= alpha && alpha < MATE_BOUND));
        tc_make_move(p, m);
        bool gives_check = tc_in_check(p);
        if (prunable && !gives_check) {
            tc_unmake_move(p);
            continue;
        }
        tt_prefetch(&e->tt, p->key);
        t->null_at[ply + 1] = false;
        int nd = depth - 1, s;
        if (searched == 0) {
            s = -negamax(t, -beta, -alpha, nd, ply + 1);
        } else {
            int r = 0;
            if (pruning && depth >= 3 && quiet && !in_check && !gives_check) {
                r = e->lmr[depth < 64 ? depth : 63][searched < 64 ? searched : 63];
                if (pv)
                    r -= root ? 2 : 1;
                if (m == t->killers[ply][0] || m == t->killers[ply][1])
                    r--;
                if (!improving)
                    r++;
                r -= t->history[piece][TC_MOVE_TO(m)] / 6000;
                if (r > nd - 1)
                    r = nd - 1;
                if (r < 0)
                    r = 0;
            }
            s = -negamax(t, -alpha - 1, -alpha, nd - r, ply + 1);
            if (s > alpha && r > 0)
                s = -negamax(t, -alpha - 1, -alpha, nd, ply + 1);
            if (s > alpha && s < beta)
                s = -negamax(t, -beta, -alpha, nd, ply + 1);
        }
        tc_unmake_move(p);
        if (aborting(t))
            return 0;
        searched++;
        if (s > best) {
            best = s;
            best_move = m;
            if (root && t->completed == 0)
                t->best = m; /* what a stop in the first iteration plays */
            if (s > alpha) {
                alpha = s;
                update_pv(t, ply, m);
                if (s >= beta) {
                    if (quiet) {
                        if (t->killers[ply][0] != m) {
                            t->killers[ply][1] = t->killers[ply][0];
                            t->killers[ply][0] = m;
                        }
                        int bonus = depth * depth < 1200 ? depth * depth * 8 : 9600;
                        history_update(&t->history[piece][TC_MOVE_TO(m)], bonus);
                        for (int k = 0; k < nquiets; k++) {
                            tc_move q = quiets[k];
                            history_update(&t->history[p->board[TC_MOVE_FROM(q)]][TC_MOVE_TO(q)], -bonus);
                        }
                    }
                    break;
                }
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
    }
    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&e->tt, p->key, best_move, tt_score_to(best, ply), depth, bound);
    return best;
}

/* ---------------------------------------------------------------- driver */

static int mate_moves(int score)
{
    if (score >= MATE_BOUND)
        return (MATE - score + 1) / 2;
    if (score <= -MATE_BOUND)
        return -((MATE + score) / 2);
    return 0;
}

static void report(search_thread *t, int depth, int score, tc_bound bound)
{
    tc_engine *e = t->e;
    if (!e->info || t->id != 0)
        return;
    tc_search_info in;
    memset(&in, 0, sizeof in);
    in.depth = depth;
    in.seldepth = t->seldepth;
    in.score = score;
    in.mate = mate_moves(score);
    in.bound = bound;
    in.nodes = total_nodes(e);
    in.time_ms = now_ms() - e->start_ms;
    in.nps = in.time_ms > 0 ? in.nodes * 1000 / (uint64_t)in.time_ms : 0;
    in.hashfull = tt_hashfull(&e->tt);
    in.pv_len = t->pv_len[0];
    for (int i = 0; i < in.pv_len; i++)
        in.pv[i] = t->pv[0][i];
    e->info(&in, e->ctx);
}

/* Iterative deepening for one thread. Helpers start at staggered depths so
 * that the threads spread over the tree instead of repeating each other. */
static void iterate(search_thread *t)
{
    tc_engine *e = t->e;
    int prev = 0;
    for (int depth = 1 + (t->id & 1); depth <= e->max_depth; depth++) {
        int alpha = -INF, beta = INF, window = 25, score;
        if (depth >= 5 && abs(prev) < MATE_BOUND) {
            alpha = prev - window;
            beta = prev + window;
        }
        t->seldepth = 0;
        t->root_depth = depth;
        for (;;) {
            score = negamax(t, alpha, beta, depth, 0);
            if (aborting(t))
                break;
            if (score <= alpha) {
                beta = (alpha + beta) / 2;
                alpha = score - window > -INF ? score - window : -INF;
                if (now_ms() - e->start_ms > 1000)
                    report(t, depth, score, TC_BOUND_UPPER);
            } else if (score >= beta) {
                beta = score + window < INF ? score + window : INF;
                if (now_ms() - e->start_ms > 1000)
                    report(t, depth, score, TC_BOUND_LOWER);
            } else
                break;
            window += window / 2 + 10;
            if (window > 1000) {
                alpha = -INF;
                beta = INF;
            }
        }
        if (aborting(t))
            break;
        prev = score;
        t->completed = depth;
        t->best_score = score;
        t->root_pv_len = t->pv_len[0];
        for (int i = 0; i < t->pv_len[0]; i++)
            t->root_pv[i] = t->pv[0][i];
        if (t->pv_len[0] > 0)
            t->best = t->pv[0][0];
        if (t->id != 0)
            continue;
        report(t, depth, score, TC_BOUND_EXACT);
        int64_t elapsed = now_ms() - e->start_ms;
        if (e->soft_ms && elapsed >= e->soft_ms * 6 / 10)
            break;
        if (!e->limits.infinite && abs(score) >= MATE_BOUND && depth >= 2 * (MATE - abs(score)) + 4)
            break;
    }
    atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
}

static void *helper_main(void *arg)
{
    iterate(arg);
    return NULL;
}

/* Soft and hard time limits from the clock, the increment and the moves
 * left; the hard limit leaves a margin for the answer to reach the GUI. */
static void plan_time(tc_engine *e, int side)
{
    const tc_limits *l = &e->limits;
    e->soft_ms = e->hard_ms = 0;
    if (l->infinite)
        return;
    if (l->movetime > 0) {
        int64_t t = l->movetime - 20 > 1 ? l->movetime - 20 : 1;
        e->soft_ms = e->hard_ms = t;
        e->soft_ms = t * 2; /* iterations run until the hard limit */
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
    e->soft_ms = soft > 1 ? soft : 1;
    e->hard_ms = hard > 1 ? hard : 1;
}

tc_search_result tc_engine_search(tc_engine *e, const tc_limits *limits, tc_info_fn info, void *ctx)
{
    tc_search_result res;
    memset(&res, 0, sizeof res);
    e->start_ms = now_ms();
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
    plan_time(e, e->root->side);
    tt_new_search(&e->tt);

    tc_move *rootmoves = e->threads[0]->moves[0];
    int n = tc_gen_legal(e->root, rootmoves);
    if (n == 0) {
        res.score = tc_in_check(e->root) ? -MATE : 0;
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
            t->nodes = 0;
            atomic_store(&t->nodes_pub, 0);
            t->completed = 0;
            t->best = rootmoves[0];
            t->best_score = 0;
            t->root_pv_len = 0;
            memset(t->killers, 0, sizeof t->killers);
            memset(t->null_at, 0, sizeof t->null_at);
            for (int a = 0; a < 16; a++)
                for (int c = 0; c < TC_MAX_CELLS; c++)
                    t->history[a][c] /= 2;
        }
        if (!e->threads[0]->pos) {
            res.best = rootmoves[0];
            return res;
        }
        int started = 1;
        for (int i = 1; i < e->nthreads; i++) {
            if (pthread_create(&e->threads[i]->handle, NULL, helper_main, e->threads[i]))
                break;
            started++;
        }
        iterate(e->threads[0]);
        /* `go infinite` must not answer before it is told to stop */
        while (e->limits.infinite && !stopped(e->threads[0])) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        atomic_store(&e->stop, true);
        for (int i = 1; i < started; i++)
            pthread_join(e->threads[i]->handle, NULL);
        search_thread *m = e->threads[0];
        res.best = m->best;
        res.score = m->best_score;
        res.depth = m->completed;
        if (m->root_pv_len > 1 && m->root_pv[0] == m->best)
            res.ponder = m->root_pv[1];
    }
    res.mate = mate_moves(res.score);
    res.nodes = 0;
    for (int i = 0; i < e->nthreads; i++)
        res.nodes += e->threads[i]->nodes;
    res.time_ms = now_ms() - e->start_ms;
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
