/* A finished game judged move by move: see topochess_engine.h, "game
 * review", and docs/analysis.md. */
#include "topochess_engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A mate counts as this many centipawns in the curve (its chances are 1). */
#define REVIEW_MATE_CP 10000

double tc_review_chances(int score, int mate)
{
    if (mate)
        return mate > 0 ? 1.0 : -1.0;
    if (score >= TC_SCORE_MATE_BOUND)
        return 1.0;
    if (score <= -TC_SCORE_MATE_BOUND)
        return -1.0;
    double s = score > REVIEW_MATE_CP ? REVIEW_MATE_CP : score < -REVIEW_MATE_CP ? -REVIEW_MATE_CP : score;
    return 2.0 / (1.0 + exp(-0.00368208 * s)) - 1.0;
}

const char *tc_mark_name(tc_mark m)
{
    static const char *const names[] = {"", "inaccuracy", "mistake", "blunder"};
    return m >= TC_MARK_NONE && m <= TC_MARK_BLUNDER ? names[m] : "";
}

/// One position's value for White, searched or decided by the rules.
typedef struct {
    int score, mate, depth;
    tc_move best;
} judged;

/* The position as the rules leave it (checkmate, a draw), or searched. */
static void judge(tc_engine *e, const tc_position *p, const tc_limits *limits, judged *j)
{
    memset(j, 0, sizeof *j);
    int white = tc_side_to_move(p) == TC_WHITE;
    tc_status st = tc_position_status(p);
    if (st == TC_CHECKMATE) { /* the side to move is mated */
        j->score = white ? -TC_SCORE_MATE : TC_SCORE_MATE;
        return;
    }
    if (st != TC_ONGOING) /* stalemate, fifty moves, repetition, no mate possible */
        return;
    tc_engine_set_position(e, p);
    tc_search_result r = tc_engine_search(e, limits, NULL, NULL);
    j->best = r.best;
    j->depth = r.depth > 0 ? r.depth : 1;
    j->score = white ? r.score : -r.score;
    j->mate = white ? r.mate : -r.mate;
}

static double win_percent(double chances) { return 50.0 + 50.0 * chances; }

int tc_review_game(tc_engine *e, const tc_position *game, const tc_limits *limits, tc_review_move *out,
                   tc_review_side sides[2], tc_review_progress_fn progress, void *ctx, tc_error *err)
{
    const tc_variant *v = tc_position_variant(game);
    if (tc_engine_variant(e) != v) {
        snprintf(err->msg, sizeof err->msg, "the engine is of another board than the game");
        return -1;
    }
    int n = tc_ply_count(game);
    tc_position *p = tc_position_new(v);
    judged *at = malloc((size_t)(n + 1) * sizeof *at);
    if (!p || !at || tc_position_set_fen(p, tc_position_start_fen(game), err)) {
        if (!p || !at)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        tc_position_free(p);
        free(at);
        return -1;
    }
    tc_engine_new_game(e);
    for (int i = 0; i <= n; i++) {
        judge(e, p, limits, &at[i]);
        if (progress)
            progress(i + 1, n + 1, ctx);
        if (i < n)
            tc_make_move(p, tc_history_move(game, i));
    }
    tc_review_side sum[2];
    memset(sum, 0, sizeof sum);
    double acc[2] = {0, 0};
    tc_position_free(p);
    p = tc_position_new(v);
    tc_position_set_fen(p, tc_position_start_fen(game), err);
    for (int i = 0; i < n; i++) {
        tc_review_move *m = &out[i];
        memset(m, 0, sizeof *m);
        int mover = tc_side_to_move(p), sign = mover == TC_WHITE ? 1 : -1;
        m->played = tc_history_move(game, i);
        m->best = at[i].best;
        m->best_score = at[i].score;
        m->best_mate = at[i].mate;
        m->score = at[i + 1].score;
        m->mate = at[i + 1].mate;
        m->depth = at[i + 1].depth;
        m->chances_before = tc_review_chances(sign * at[i].score, sign * at[i].mate);
        m->chances_after = tc_review_chances(sign * at[i + 1].score, sign * at[i + 1].mate);
        /* the best move loses nothing, whatever the deeper look after it says */
        double drop = m->played == m->best ? 0.0 : m->chances_before - m->chances_after;
        if (drop < 0)
            drop = 0;
        m->mark = drop >= 0.3 ? TC_MARK_BLUNDER : drop >= 0.2 ? TC_MARK_MISTAKE : drop >= 0.1 ? TC_MARK_INACCURACY
                                                                                                : TC_MARK_NONE;
        double wdrop = win_percent(m->chances_before) - win_percent(m->chances_before - drop);
        double a = 103.1668 * exp(-0.04354 * wdrop) - 3.1669;
        m->accuracy = drop <= 0 || a > 100 ? 100 : a < 0 ? 0 : a;
        tc_review_side *s = &sum[mover];
        s->moves++;
        s->inaccuracies += m->mark == TC_MARK_INACCURACY;
        s->mistakes += m->mark == TC_MARK_MISTAKE;
        s->blunders += m->mark == TC_MARK_BLUNDER;
        acc[mover] += m->accuracy;
        tc_make_move(p, m->played);
    }
    tc_position_free(p);
    free(at);
    for (int s = 0; s < 2; s++)
        sum[s].accuracy = sum[s].moves ? acc[s] / sum[s].moves : 100.0;
    if (sides)
        memcpy(sides, sum, sizeof sum);
    return 0;
}
