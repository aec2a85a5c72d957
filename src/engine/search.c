/* The search: iterative deepening over a principal variation search with
 * a shared transposition table, quiescence, null move, late-move
 * reductions and aspiration windows; move ordering and the PV. The engine
 * object and the driver that runs it on threads are in engine.c. */
#include "search.h"

#include <stdlib.h>

#define HIST_MAX 16384

/* ---------------------------------------------------------------- helpers */

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
        if (t->id == 0 && ((e->hard_ms && search_now_ms() - e->start_ms >= e->hard_ms) ||
                           (e->poll && e->poll(e->poll_ctx))))
            atomic_store(&e->stop, true);
    }
}

static inline bool aborting(const search_thread *t) { return search_stopped(t); }

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

    /* out of check only captures and promotions are searched, so finding
     * none says nothing about stalemate */
    int n = in_check ? tc_gen_legal(p, t->moves[ply]) : tc_gen_noisy(p, t->moves[ply]);
    if (n == 0)
        return in_check ? -MATE + ply : best;
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

/* ---------------------------------------------------------------- iteration */

int search_mate_moves(int score)
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
    in.mate = search_mate_moves(score);
    in.bound = bound;
    in.nodes = total_nodes(e);
    in.time_ms = search_now_ms() - e->start_ms;
    in.nps = in.time_ms > 0 ? in.nodes * 1000 / (uint64_t)in.time_ms : 0;
    in.hashfull = tt_hashfull(&e->tt);
    in.pv_len = t->pv_len[0];
    for (int i = 0; i < in.pv_len; i++)
        in.pv[i] = t->pv[0][i];
    e->info(&in, e->ctx);
}

/* Iterative deepening for one thread. Helpers start at staggered depths so
 * that the threads spread over the tree instead of repeating each other. */
void search_iterate(search_thread *t)
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
                if (search_now_ms() - e->start_ms > 1000)
                    report(t, depth, score, TC_BOUND_UPPER);
            } else if (score >= beta) {
                beta = score + window < INF ? score + window : INF;
                if (search_now_ms() - e->start_ms > 1000)
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
        int64_t elapsed = search_now_ms() - e->start_ms;
        if (e->soft_ms && elapsed >= e->soft_ms * 6 / 10)
            break;
        if (!e->limits.infinite && abs(score) >= MATE_BOUND && depth >= 2 * (MATE - abs(score)) + 4)
            break;
    }
    atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
}

