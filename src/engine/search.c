/* The search: iterative deepening (MultiPV lines one after another) over a
 * principal variation search with a shared transposition table,
 * quiescence, pruning, reductions, extensions and aspiration windows; move
 * ordering and the PV. The statistics move ordering learns are in
 * history.c, exchange evaluation in see.c, limited strength in level.c; the
 * engine object and the driver that runs the threads in engine.c. */
#include "search.h"
#include "see.h"
#include "egtb_probe.h"

#include <stdlib.h>


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
        slot->score = engine_static_eval(t);
    }
    return slot->score;
}

/* Only the king left (no pawns either). */
static bool bare_king(const tc_position *p, int col) { return bits_count(&p->occ[col]) == 1; }

static bool has_pieces(const tc_position *p, int col)
{
    for (int type = TC_KNIGHT; type <= TC_QUEEN; type++)
        if (bits_any(&p->pieces[TC_PIECE(col, type)]))
            return true;
    return false;
}

/* Move ordering: hash move; captures and queen promotions that do not lose
 * material (SEE), by victim then capture history; killers; the counter
 * move; quiet moves by history; losing captures last but for
 * under-promotions. */
enum { SC_TT = 1 << 30, SC_GOOD = 1 << 28, SC_SEEN = 1 << 27, SC_KILLER1 = (1 << 27) + 2, SC_KILLER2 = (1 << 27) + 1,
       SC_COUNTER = 1 << 27, SC_BAD = -(1 << 28), SC_UNDER = -(1 << 29) };

static void score_moves(search_thread *t, int ply, int n, tc_move tt_move, bool captures_only)
{
    const tc_position *p = t->pos;
    tc_move *mv = t->moves[ply];
    int *sc = t->scores[ply];
    tc_move counter = counter_move(&t->mh, ply);
    for (int i = 0; i < n; i++) {
        tc_move m = mv[i];
        int promo = TC_MOVE_PROMO(m);
        int piece = p->board[TC_MOVE_FROM(m)];
        int to = TC_MOVE_TO(m);
        if (m == tt_move)
            sc[i] = SC_TT;
        else if (is_capture(p, m) || promo == TC_QUEEN) {
            int victim = is_capture(p, m) ? victim_type(p, m) : 0;
            int s = eval_piece_value[victim] * 16 + (promo == TC_QUEEN ? 8000 : 0);
            if (t->mh.h)
                s += t->mh.h->capture[piece][to][victim];
            sc[i] = SC_GOOD + s; /* SEE when picked (pick_checked) */
        } else if (promo)
            sc[i] = SC_UNDER + promo;
        else if (captures_only)
            sc[i] = SC_UNDER - 1;
        else if (m == t->mh.killers[ply][0])
            sc[i] = SC_KILLER1;
        else if (m == t->mh.killers[ply][1])
            sc[i] = SC_KILLER2;
        else if (m == counter)
            sc[i] = SC_COUNTER;
        else
            sc[i] = quiet_history(&t->mh, ply, piece, to);
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

/* pick() for captures scored SC_GOOD before their exchange was evaluated:
 * the exchange is evaluated when such a capture comes up, and one that
 * loses material goes back among the bad captures. */
static inline tc_move pick_checked(search_thread *t, int ply, int n, int i)
{
    for (;;) {
        tc_move m = pick(t, ply, n, i);
        int *sc = &t->scores[ply][i];
        if (*sc < SC_GOOD || *sc >= SC_GOOD + SC_SEEN)
            return m;
        if (see_ge(t->pos, m, 0)) {
            *sc += SC_SEEN;
            return m;
        }
        *sc += SC_BAD - SC_GOOD;
    }
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
    bool pv = beta - alpha > 1, tt_hit = tt_probe(&t->e->tt, p->key, &te);
    int tt_score = 0;
    if (tt_hit) {
        tt_move = te.move;
        tt_score = tt_score_from(te.score, ply);
        if (!pv && (te.bound == TT_EXACT || (te.bound == TT_LOWER && tt_score >= beta) ||
                    (te.bound == TT_UPPER && tt_score <= alpha)))
            return tt_score;
    }

    int best, stand = -INF, orig_alpha = alpha;
    tc_move best_move = 0;
    if (in_check)
        best = -MATE + ply;
    else {
        int32_t *cs[3];
        corr_slots(&t->mh, p, cs);
        stand = corrected_by(cs, evaluate(t));
        /* a hash bound tighter than the static value is a better guess */
        if (tt_hit && abs(tt_score) < MATE_BOUND &&
            (te.bound == TT_EXACT || (te.bound == TT_LOWER && tt_score > stand) ||
             (te.bound == TT_UPPER && tt_score < stand)))
            stand = tt_score;
        if (stand >= beta) {
            if (!tt_move)
                tt_store(&t->e->tt, p->key, 0, tt_score_to(stand, ply), 0, TT_LOWER);
            return stand;
        }
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
        tc_move m = pick_checked(t, ply, n, i);
        if (!in_check) {
            if (t->scores[ply][i] < SC_GOOD / 2 && m != tt_move)
                break; /* losing captures, quiet moves and under-promotions */
            int gain = is_capture(p, m) ? eval_piece_value[victim_type(p, m)] : 0;
            if (TC_MOVE_PROMO(m))
                gain += eval_piece_value[TC_QUEEN] - 100;
            /* delta pruning: even winning this piece leaves us below alpha */
            if (stand + gain + t->e->sp[SP_DELTA] < alpha && !(t->e->style & TC_STYLE_NO_PRUNING))
                continue;
        }
        t->mh.stack_piece[ply + 1] = p->board[TC_MOVE_FROM(m)];
        t->mh.stack_to[ply + 1] = TC_MOVE_TO(m);
        search_make(t, m);
        tt_prefetch(&t->e->tt, p->key);
        int s = -qsearch(t, -beta, -alpha, ply + 1);
        search_unmake(t);
        if (aborting(t))
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                best_move = m;
                update_pv(t, ply, m);
                if (s >= beta)
                    break;
            }
        }
    }
    int bound = best >= beta ? TT_LOWER : pv && best > orig_alpha ? TT_EXACT : TT_UPPER;
    tt_store(&t->e->tt, p->key, best_move, tt_score_to(best, ply), 0, bound);
    return best;
}

static bool root_allowed(const search_thread *t, tc_move m)
{
    if (!t->nroot_moves)
        return true;
    for (int i = 0; i < t->nroot_moves; i++)
        if (t->root_moves[i] == m)
            return true;
    return false;
}

static int negamax(search_thread *t, int alpha, int beta, int depth, int ply, bool cut)
{
    int egtb;
    if (ply > 0 && egtb_score(t->e->egtb, t->pos, ply, &egtb))
        return egtb;
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply);
    tc_position *p = t->pos;
    tc_engine *e = t->e;
    const int *sp = e->sp;
    bool pv = beta - alpha > 1, root = ply == 0;
    tc_move excluded = t->excluded[ply];
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
    bool tt_hit = !excluded && tt_probe(&e->tt, p->key, &te);
    int tt_score = 0;
    if (tt_hit) {
        tt_move = te.move;
        tt_score = tt_score_from(te.score, ply);
        if (!pv && te.depth >= depth &&
            (te.bound == TT_EXACT || (te.bound == TT_LOWER && tt_score >= beta) ||
             (te.bound == TT_UPPER && tt_score <= alpha)))
            return tt_score;
    }
    if (root && tt_move && !root_allowed(t, tt_move))
        tt_move = 0;

    int32_t *cs[3] = {NULL, NULL, NULL};
    if (!in_check)
        corr_slots(&t->mh, p, cs);
    int static_eval = in_check ? -INF : corrected_by(cs, evaluate(t));
    /* a hash bound tighter than the static value is a better guess */
    int eval = static_eval;
    if (tt_hit && !in_check && abs(tt_score) < MATE_BOUND &&
        (te.bound == TT_EXACT || (te.bound == TT_LOWER && tt_score > eval) ||
         (te.bound == TT_UPPER && tt_score < eval)))
        eval = tt_score;
    t->static_eval[ply] = static_eval;
    bool improving = !in_check && ply >= 2 && static_eval > t->static_eval[ply - 2];
    if (!in_check && ply >= 2 && t->static_eval[ply - 2] == -INF && ply >= 4)
        improving = static_eval > t->static_eval[ply - 4];
    t->mh.killers[ply + 1][0] = t->mh.killers[ply + 1][1] = 0;
    t->excluded[ply + 1] = 0;
    t->cutoffs[ply + 2] = 0;
    if (root)
        t->cutoffs[1] = 0;

    bool pruning = !(e->style & TC_STYLE_NO_PRUNING);
    /* a decided node (the static value, or the whole window, about a queen
     * or more from 0): all that is left to find is a mate, and no margin of
     * the evaluation bounds what a quiet move toward it is worth, nor does
     * a shallow search after a null move see a quiet mating threat; so
     * reverse futility, razoring, the null move, the reductions and the
     * futility pruning of quiet moves stay off. Such nodes are rare while
     * a game is still open. (Futility joined the list with the hybrid
     * nets: their correction moves static values by hundreds of
     * centipawns in won positions, enough to drop a quiet mating move.)
     * A bare king against more is decided too: with the hand-written
     * evaluation KBNK scores below DECIDED, and the reductions then pushed
     * its quiet mating moves under the horizon. */
    bool decided = !in_check && (abs(static_eval) >= DECIDED || alpha >= DECIDED || beta <= -DECIDED ||
                                 bare_king(p, 0) != bare_king(p, 1));
    if (pruning && !pv && !in_check && !excluded && abs(beta) < MATE_BOUND) {
        /* reverse futility: far above beta at low depth */
        if (!decided && depth <= sp[SP_RFP_DEPTH] && eval - sp[SP_RFP_MARGIN] * (depth - improving) >= beta &&
            eval < MATE_BOUND)
            return eval;
        /* razoring: far below alpha, ask quiescence whether anything helps */
        if (!decided && depth <= 3 && eval + sp[SP_RAZOR_BASE] + sp[SP_RAZOR_DEPTH] * depth <= alpha) {
            int q = qsearch(t, alpha, alpha + 1, ply);
            if (aborting(t))
                return 0;
            if (q <= alpha)
                return q;
        }
        /* null move: not with only king and pawns (zugzwang), not twice */
        if (!decided && depth >= 3 && eval >= beta &&
            static_eval >= beta - sp[SP_NMP_DEPTH] * depth + sp[SP_NMP_BASE] &&
            !t->null_at[ply] && has_pieces(p, p->side)) {
            int r = 3 + depth / 4 + ((eval - beta) / sp[SP_NMP_DIV] < 3 ? (eval - beta) / sp[SP_NMP_DIV] : 3);
            tc_make_null(p);
            t->null_at[ply + 1] = true;
            t->mh.stack_piece[ply + 1] = 0;
            int s = -negamax(t, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
            t->null_at[ply + 1] = false;
            tc_unmake_null(p);
            if (aborting(t))
                return 0;
            if (s >= beta)
                return s >= MATE_BOUND ? beta : s;
        }
        /* probcut: a capture that beats beta by a margin in a shallow
         * search very likely beats beta in the full one */
        int pc_beta = beta + sp[SP_PROBCUT_MARGIN] - sp[SP_PROBCUT_IMPROVING] * improving;
        if (depth >= 5 && !(tt_hit && te.depth >= depth - 3 && tt_score < pc_beta)) {
            int n = tc_gen_noisy(p, t->moves[ply]);
            score_moves(t, ply, n, tt_move, true);
            for (int i = 0; i < n; i++) {
                tc_move m = pick_checked(t, ply, n, i);
                if (t->scores[ply][i] < SC_GOOD / 2 && m != tt_move)
                    break;
                if (!see_ge(p, m, pc_beta - static_eval))
                    continue;
                t->mh.stack_piece[ply + 1] = p->board[TC_MOVE_FROM(m)];
                t->mh.stack_to[ply + 1] = TC_MOVE_TO(m);
                search_make(t, m);
                t->null_at[ply + 1] = false;
                int s = -qsearch(t, -pc_beta, -pc_beta + 1, ply + 1);
                if (s >= pc_beta)
                    s = -negamax(t, -pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut);
                search_unmake(t);
                if (aborting(t))
                    return 0;
                if (s >= pc_beta) {
                    tt_store(&e->tt, p->key, m, tt_score_to(s, ply), depth - 3, TT_LOWER);
                    return s;
                }
            }
        }
    }
    /* internal iterative reduction: without a hash move this node is
     * probably new, so search it shallower */
    if (pruning && !tt_move && depth >= 4 && (pv || cut))
        depth--;

    int n = tc_gen_legal(p, t->moves[ply]);
    if (n == 0)
        return excluded ? alpha : in_check ? -MATE + ply : 0;
    score_moves(t, ply, n, tt_move, false);

    int orig_alpha = alpha, best = -INF, searched = 0, nquiets = 0, ncaps = 0;
    tc_move best_move = 0, quiets[64], caps[32];
    for (int i = 0; i < n; i++) {
        tc_move m = pick_checked(t, ply, n, i);
        if (m == excluded || (root && !root_allowed(t, m)))
            continue;
        bool quiet = !is_capture(p, m) && !TC_MOVE_PROMO(m);
        int piece = p->board[TC_MOVE_FROM(m)], to = TC_MOVE_TO(m);
        int hist = quiet ? quiet_history(&t->mh, ply, piece, to) : 0;
        int lmr_depth = depth - 1 - e->lmr[depth < 64 ? depth : 63][searched < 64 ? searched : 63];
        if (lmr_depth < 0)
            lmr_depth = 0;
        /* pruning near the leaves: late, badly scored or losing moves and
         * futile quiet moves; quiet ones wait for the gives-check test, so
         * as to spare checks (a mating check is often a late quiet move) */
        bool futile = false;
        if (pruning && !root && best > -MATE_BOUND) {
            bool drop = false;
            if (quiet) {
                drop = !in_check &&
                       ((!pv && depth <= 4 && searched >= sp[SP_LMP_BASE] + depth * depth * (improving ? 2 : 1)) ||
                        (lmr_depth <= 3 && hist < -sp[SP_HIST_PRUNE] * depth) ||
                        (lmr_depth <= 7 && !see_ge(p, m, -sp[SP_SEE_QUIET] * lmr_depth * lmr_depth)));
                futile = !in_check && !decided && lmr_depth <= 5 &&
                         static_eval + sp[SP_FUT_BASE] + sp[SP_FUT_DEPTH] * lmr_depth <= alpha && alpha < MATE_BOUND;
            } else if (depth <= 6 && t->scores[ply][i] < SC_GOOD / 2) {
                drop = !see_ge(p, m, -sp[SP_SEE_NOISY] * depth);
            }
            if (drop && !quiet)
                continue;
            futile |= drop;
        }
        /* singular extension: the hash move alone holds the score, so it
         * is searched one ply deeper */
        int ext = 0;
        if (!root && m == tt_move && !futile && depth >= 7 && !excluded && te.depth >= depth - 3 &&
            te.bound != TT_UPPER && abs(tt_score) < MATE_BOUND && ply < 2 * t->root_depth) {
            int sbeta = tt_score - sp[SP_SE_MARGIN] * depth / 8;
            t->excluded[ply] = m;
            int s = negamax(t, sbeta - 1, sbeta, (depth - 1) / 2, ply, cut);
            t->excluded[ply] = 0;
            if (aborting(t))
                return 0;
            if (s < sbeta)
                ext = 1;
            else if (sbeta >= beta)
                return sbeta; /* several moves beat beta: multi-cut */
            else if (tt_score >= beta)
                ext = -1;
            /* the singular search reused this ply's move buffer */
            n = tc_gen_legal(p, t->moves[ply]);
            score_moves(t, ply, n, tt_move, false);
            for (int j = 0; j < n; j++)
                if (t->moves[ply][j] == m) {
                    t->moves[ply][j] = t->moves[ply][0];
                    t->moves[ply][0] = m;
                    int sj = t->scores[ply][j];
                    t->scores[ply][j] = t->scores[ply][0];
                    t->scores[ply][0] = sj;
                }
            i = 0;
        }
        /* read off the board, not by making the move: a futile quiet move
         * that gives no check is dropped unmade */
        bool gives_check = tc_gives_check(p, m);
        if (futile && !gives_check)
            continue;
        t->mh.stack_piece[ply + 1] = piece;
        t->mh.stack_to[ply + 1] = to;
        search_make(t, m);
        tt_prefetch(&e->tt, p->key);
        t->null_at[ply + 1] = false;
        int nd = depth - 1 + ext, s;
        if (searched == 0) {
            s = -negamax(t, -beta, -alpha, nd, ply + 1, false);
        } else {
            int r = 0;
            if (pruning && !decided && depth >= 3 && searched >= (pv ? 2 : 1) &&
                (quiet || t->scores[ply][i] < SC_GOOD / 2)) {
                r = e->lmr[depth < 64 ? depth : 63][searched < 64 ? searched : 63];
                if (pv)
                    r--;
                if (cut)
                    r++;
                if (!improving)
                    r++;
                if (in_check || gives_check)
                    r--;
                if (m == t->mh.killers[ply][0] || m == t->mh.killers[ply][1] || t->scores[ply][i] == SC_COUNTER)
                    r--;
                if (tt_move && !quiet_move(p, tt_move))
                    r++;
                /* the nodes beside the child kept failing high */
                if (t->cutoffs[ply + 1] > 3)
                    r++;
                if (quiet)
                    r -= hist / sp[SP_LMR_HIST];
                else
                    r = r > 1 ? r - 1 : r;
                if (r > nd - 1)
                    r = nd - 1;
                if (r < 0)
                    r = 0;
            }
            s = -negamax(t, -alpha - 1, -alpha, nd - r, ply + 1, true);
            if (s > alpha && r > 0)
                s = -negamax(t, -alpha - 1, -alpha, nd, ply + 1, !cut);
            if (s > alpha && s < beta)
                s = -negamax(t, -beta, -alpha, nd, ply + 1, false);
        }
        search_unmake(t);
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
                    t->cutoffs[ply]++;
                    if (quiet)
                        history_update_quiets(&t->mh, p, ply, depth, m, quiets, nquiets);
                    history_update_captures(&t->mh, p, depth, quiet ? 0 : m, caps, ncaps);
                    break;
                }
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
        else if (!quiet && ncaps < 32)
            caps[ncaps++] = m;
    }
    if (searched == 0) /* every move was excluded or left out */
        return excluded ? alpha : in_check ? -MATE + ply : best > -INF ? best : alpha;
    if (!excluded) {
        int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
        tt_store(&e->tt, p->key, best_move, tt_score_to(best, ply), depth, bound);
        /* the correction history learns from quiet results that bound the
         * static value on the side they were searched */
        if (!in_check && (!best_move || quiet_move(p, best_move)) && abs(best) < MATE_BOUND &&
            !(bound == TT_LOWER && best <= static_eval) && !(bound == TT_UPPER && best >= static_eval))
            corr_update(cs, depth, best, static_eval);
    }
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

static void report(search_thread *t, int depth, int score, tc_bound bound, int line, const root_line *l)
{
    tc_engine *e = t->e;
    if (!e->info || t->id != 0)
        return;
    int shown = e->limits.multipv > 1 ? e->limits.multipv : 1;
    if (line > shown)
        return;
    tc_search_info in;
    memset(&in, 0, sizeof in);
    in.multipv = line;
    in.depth = depth;
    in.seldepth = l ? l->seldepth : t->seldepth;
    in.score = score;
    in.mate = search_mate_moves(score);
    in.bound = bound;
    in.nodes = total_nodes(e);
    in.time_ms = search_now_ms() - e->start_ms;
    in.nps = in.time_ms > 0 ? in.nodes * 1000 / (uint64_t)in.time_ms : 0;
    in.hashfull = tt_hashfull(&e->tt);
    in.pv_len = l ? l->pv_len : t->pv_len[0];
    for (int i = 0; i < in.pv_len; i++)
        in.pv[i] = l ? l->pv[i] : t->pv[0][i];
    e->info(&in, e->ctx);
}

/* Keeps the line just searched as lines[k]. */
static void keep_line(search_thread *t, int k, int score)
{
    root_line *l = &t->lines[k];
    l->score = score;
    l->seldepth = t->seldepth;
    l->pv_len = t->pv_len[0] < MAX_PLY ? t->pv_len[0] : MAX_PLY;
    for (int i = 0; i < l->pv_len; i++)
        l->pv[i] = t->pv[0][i];
}

/* Orders the n lines of a finished iteration best first (stable: of equal
 * scores the line searched first stays first), and prev[] with them.
 * Line k is searched without the moves of the lines before it, so it can
 * score above one of them (its window and its hash entries differ). */
static void sort_lines(search_thread *t, int n, int prev[])
{
    for (int i = 1; i < n; i++) {
        root_line l = t->lines[i];
        int p = prev[i], j = i;
        for (; j > 0 && t->lines[j - 1].score < l.score; j--) {
            t->lines[j] = t->lines[j - 1];
            prev[j] = prev[j - 1];
        }
        t->lines[j] = l;
        prev[j] = p;
    }
}

/* The root's best line is l. */
static void take_best(search_thread *t, const root_line *l)
{
    t->best_score = l->score;
    t->root_pv_len = l->pv_len;
    for (int i = 0; i < l->pv_len; i++)
        t->root_pv[i] = l->pv[i];
    t->best = l->pv[0];
}

/* The legal root moves that `searchmoves` allows (all when it names none
 * of them); their count. */
static int root_list(search_thread *t)
{
    const tc_limits *l = &t->e->limits;
    tc_move *legal = t->moves[MAX_PLY];
    int n = tc_gen_legal(t->pos, legal), k = 0;
    for (int i = 0; i < n; i++) {
        bool ok = l->nsearchmoves <= 0;
        for (int j = 0; !ok && j < l->nsearchmoves && j < TC_ENGINE_MAX_SEARCHMOVES; j++)
            ok = l->searchmoves[j] == legal[i];
        if (ok)
            t->root_base[k++] = legal[i];
    }
    if (k == 0) {
        memcpy(t->root_base, legal, sizeof *legal * (size_t)n);
        k = n;
    }
    return k;
}

/* One iteration's search of one line, with an aspiration window around
 * `prev`; the score (meaningless when aborted). */
static int search_line(search_thread *t, int depth, int prev, int line)
{
    tc_engine *e = t->e;
    int alpha = -INF, beta = INF, window = e->sp[SP_ASP_WINDOW], score;
    if (depth >= 5 && abs(prev) < MATE_BOUND) {
        alpha = prev - window;
        beta = prev + window;
    }
    int fail_highs = 0; /* after a fail high the root goes shallower, by up to 3 plies */
    for (;;) {
        int d = depth - fail_highs > 1 ? depth - fail_highs : 1;
        score = negamax(t, alpha, beta, d, 0, false);
        if (aborting(t))
            break;
        if (score <= alpha) {
            fail_highs = 0;
            beta = (alpha + beta) / 2;
            alpha = score - window > -INF ? score - window : -INF;
            if (search_now_ms() - e->start_ms > 1000)
                report(t, depth, score, TC_BOUND_UPPER, line, NULL);
        } else if (score >= beta) {
            if (fail_highs < 3)
                fail_highs++;
            beta = score + window < INF ? score + window : INF;
            if (search_now_ms() - e->start_ms > 1000)
                report(t, depth, score, TC_BOUND_LOWER, line, NULL);
        } else
            break;
        window += window / 2 + 10;
        if (window > 1000) {
            alpha = -INF;
            beta = INF;
        }
    }
    return score;
}

/* Iterative deepening for one thread. Helpers start at staggered depths so
 * that the threads spread over the tree instead of repeating each other.
 * The main thread searches MultiPV lines one after the other, each without
 * the moves of the lines before it, and when the iteration ends shows them
 * best first and plays the first. */
void search_iterate(search_thread *t)
{
    tc_engine *e = t->e;
    history_ready(&t->mh, e->v->ncells);
    int nbase = root_list(t);
    if (nbase > 0)
        t->best = t->root_base[0]; /* what a stop before any iteration plays */
    int lines = e->limits.multipv > 1 ? e->limits.multipv : 1;
    if (e->limits.elo > 0 && lines < LEVEL_LINES)
        lines = LEVEL_LINES;
    if (lines > TC_ENGINE_MAX_MULTIPV)
        lines = TC_ENGINE_MAX_MULTIPV;
    if (t->id != 0)
        lines = 1;
    if (lines > nbase)
        lines = nbase;
    bool restrict_roots = lines > 1 || nbase < tc_gen_legal(t->pos, t->moves[MAX_PLY]);
    int prev[TC_ENGINE_MAX_MULTIPV] = {0};
    int changes = 0; /* best-move changes, decaying */
    t->mpv_count = 0;
    t->nroot_moves = 0;
    for (int depth = 1 + (t->id & 1); depth <= e->max_depth; depth++) {
        t->root_depth = depth;
        int done = 0;
        tc_move last_best = t->best;
        for (int k = 0; k < lines; k++) {
            if (restrict_roots) {
                t->nroot_moves = 0;
                for (int i = 0; i < nbase; i++) {
                    bool taken = false;
                    for (int j = 0; j < k; j++)
                        taken |= t->lines[j].pv[0] == t->root_base[i];
                    if (!taken)
                        t->root_moves[t->nroot_moves++] = t->root_base[i];
                }
                if (!t->nroot_moves)
                    break;
            }
            t->seldepth = 0;
            int score = search_line(t, depth, prev[k], k + 1);
            if (aborting(t) || t->pv_len[0] < 1)
                break;
            prev[k] = score;
            keep_line(t, k, score);
            done++;
            if (k == 0) { /* what a stop before the other lines plays */
                t->completed = depth;
                take_best(t, &t->lines[0]);
            }
            if (lines == 1)
                report(t, depth, score, TC_BOUND_EXACT, 1, &t->lines[0]);
        }
        if (done == lines && lines > 1) { /* shown best first, and the best is played */
            sort_lines(t, lines, prev);
            take_best(t, &t->lines[0]);
            for (int k = 0; k < lines; k++)
                report(t, depth, t->lines[k].score, TC_BOUND_EXACT, k + 1, &t->lines[k]);
        }
        if (done == lines) {
            t->mpv_count = lines;
            for (int k = 0; k < lines; k++) {
                t->mpv_move[k] = t->lines[k].pv[0];
                t->mpv_score[k] = t->lines[k].score;
            }
        }
        if (aborting(t))
            break;
        if (t->id != 0)
            continue;
        changes = changes / 2 + (depth > 1 && t->best != last_best ? 2 : 0);
        int64_t elapsed = search_now_ms() - e->start_ms;
        /* more time while the best move keeps changing, less when it holds */
        int scale = 50 + 25 * (changes < 6 ? changes : 6);
        if (e->soft_ms && elapsed >= e->soft_ms * scale / 100)
            break;
        int score = t->best_score;
        if (!e->limits.infinite && abs(score) >= MATE_BOUND && depth >= 2 * (MATE - abs(score)) + 4)
            break;
    }
    t->nroot_moves = 0;
    atomic_store_explicit(&t->nodes_pub, t->nodes, memory_order_relaxed);
}
