/* A finished game judged move by move: see topochess_engine.h, "game
 * review", and docs/analysis.md. */
#include "topochess_engine.h"

#include <math.h>
#include <stdarg.h>
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

/* The value of a position for White: by the rules where the game ended
 * there (checkmate, a draw), else the given search's. */
static void for_white(const tc_position *p, const tc_review_value *given, tc_review_value *out)
{
    memset(out, 0, sizeof *out);
    int white = tc_side_to_move(p) == TC_WHITE;
    tc_status st = tc_position_status(p);
    if (st == TC_CHECKMATE) { /* the side to move is mated */
        out->score = white ? -TC_SCORE_MATE : TC_SCORE_MATE;
        return;
    }
    if (st != TC_ONGOING) /* stalemate, fifty moves, repetition, no mate possible */
        return;
    out->best = given->best;
    out->depth = given->depth > 0 ? given->depth : 1;
    out->score = white ? given->score : -given->score;
    out->mate = white ? given->mate : -given->mate;
}

static double win_percent(double chances) { return 50.0 + 50.0 * chances; }

void tc_review_judge(const tc_position *game, const tc_review_value *values, tc_review_move *out,
                     tc_review_side sides[2])
{
    int n = tc_ply_count(game);
    tc_review_side sum[2];
    memset(sum, 0, sizeof sum);
    double acc[2] = {0, 0};
    tc_position *p = tc_position_new(tc_position_variant(game));
    tc_error err;
    if (!p || tc_position_set_fen(p, tc_position_start_fen(game), &err)) {
        tc_position_free(p);
        return;
    }
    tc_review_value before, after;
    for_white(p, &values[0], &before);
    for (int i = 0; i < n; i++) {
        tc_review_move *m = &out[i];
        memset(m, 0, sizeof *m);
        int mover = tc_side_to_move(p), sign = mover == TC_WHITE ? 1 : -1;
        m->played = tc_history_move(game, i);
        tc_make_move(p, m->played);
        for_white(p, &values[i + 1], &after);
        m->best = before.best;
        m->best_score = before.score;
        m->best_mate = before.mate;
        m->score = after.score;
        m->mate = after.mate;
        m->depth = after.depth;
        m->chances_before = tc_review_chances(sign * before.score, sign * before.mate);
        m->chances_after = tc_review_chances(sign * after.score, sign * after.mate);
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
        before = after;
    }
    tc_position_free(p);
    for (int s2 = 0; s2 < 2; s2++)
        sum[s2].accuracy = sum[s2].moves ? acc[s2] / sum[s2].moves : 100.0;
    if (sides)
        memcpy(sides, sum, sizeof sum);
}

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
    tc_review_value *at = calloc((size_t)(n + 1), sizeof *at);
    if (!p || !at || tc_position_set_fen(p, tc_position_start_fen(game), err)) {
        if (!p || !at)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        tc_position_free(p);
        free(at);
        return -1;
    }
    tc_engine_new_game(e);
    for (int i = 0; i <= n; i++) {
        if (tc_position_status(p) == TC_ONGOING) { /* an ended game's last position is the rules' */
            tc_engine_set_position(e, p);
            tc_search_result r = tc_engine_search(e, limits, NULL, NULL);
            at[i] = (tc_review_value){r.score, r.mate, r.depth, r.best};
        }
        if (progress)
            progress(i + 1, n + 1, ctx);
        if (i < n)
            tc_make_move(p, tc_history_move(game, i));
    }
    tc_position_free(p);
    tc_review_judge(game, at, out, sides);
    free(at);
    return 0;
}

/* A growing heap string for the JSON. */
typedef struct {
    char *p;
    size_t len, cap;
    int failed;
} jbuf;

static void jput(jbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (int tries = 0; tries < 2 && !b->failed; tries++) {
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->failed = 1;
        } else if (b->p && (size_t)k < b->cap - b->len) {
            b->len += (size_t)k;
            return;
        } else {
            size_t cap = (b->cap + (size_t)k + 1) * 2;
            char *q = realloc(b->p, cap);
            if (!q)
                b->failed = 1;
            else
                b->p = q, b->cap = cap;
        }
    }
}

char *tc_review_json(const tc_position *game, const tc_review_move *moves, const tc_review_side sides[2])
{
    jbuf b = {0};
    jput(&b, "{\"sides\":{");
    for (int s = 0; s < 2; s++)
        jput(&b, "%s\"%s\":{\"accuracy\":%.1f,\"moves\":%d,\"inaccuracies\":%d,\"mistakes\":%d,\"blunders\":%d}",
             s ? "," : "", s ? "black" : "white", sides[s].accuracy, sides[s].moves, sides[s].inaccuracies,
             sides[s].mistakes, sides[s].blunders);
    jput(&b, "},\"moves\":[");
    tc_position *p = tc_position_new(tc_position_variant(game));
    tc_error err;
    if (!p || tc_position_set_fen(p, tc_position_start_fen(game), &err))
        b.failed = 1;
    int n = tc_ply_count(game);
    for (int i = 0; i < n && !b.failed; i++) {
        const tc_review_move *m = &moves[i];
        char san[32], best[32] = "", uci[16];
        tc_move_to_san(p, m->played, san);
        tc_move_to_uci(p, m->played, uci);
        if (m->best)
            tc_move_to_san(p, m->best, best);
        jput(&b,
             "%s{\"ply\":%d,\"san\":\"%s\",\"uci\":\"%s\",\"score\":%d,\"mate\":%d,\"best\":\"%s\","
             "\"best_score\":%d,\"best_mate\":%d,\"chances_before\":%.4f,\"chances_after\":%.4f,"
             "\"accuracy\":%.1f,\"mark\":\"%s\",\"depth\":%d}",
             i ? "," : "", i + 1, san, uci, m->score, m->mate, best, m->best_score, m->best_mate, m->chances_before,
             m->chances_after, m->accuracy, tc_mark_name(m->mark), m->depth);
        tc_make_move(p, m->played);
    }
    tc_position_free(p);
    jput(&b, "]}");
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* "0.35", "-1.20", "#3", "#-2" for White. */
static void eval_text(int score, int mate, char *buf, size_t n)
{
    if (mate)
        snprintf(buf, n, "#%d", mate);
    else
        snprintf(buf, n, "%.2f", score / 100.0);
}

static void side_text(const tc_review_side *s, char *buf, size_t n)
{
    snprintf(buf, n, "accuracy %.0f%%, %d inaccurac%s, %d mistake%s, %d blunder%s", s->accuracy, s->inaccuracies,
             s->inaccuracies == 1 ? "y" : "ies", s->mistakes, s->mistakes == 1 ? "" : "s", s->blunders,
             s->blunders == 1 ? "" : "s");
}

void tc_review_pgn(const tc_position *game, const tc_review_move *moves, const tc_review_side sides[2],
                   const char *const *tags, int ntags, const char *result, FILE *out)
{
    static const char *const suffix_of[] = {"", "?!", "?", "??"};
    static const char *const word[] = {"", "Inaccuracy", "Mistake", "Blunder"};
    int n = tc_ply_count(game);
    const char **suffix = calloc((size_t)n + 1, sizeof *suffix);
    char **comment = calloc((size_t)n + 1, sizeof *comment);
    tc_position *p = tc_position_new(tc_position_variant(game));
    tc_error err;
    if (!suffix || !comment || !p || tc_position_set_fen(p, tc_position_start_fen(game), &err)) {
        tc_pgn_write(game, tags, ntags, result, out); /* no memory for the notes: the moves alone */
        goto done;
    }
    for (int i = 0; i < n; i++) {
        const tc_review_move *m = &moves[i];
        char best[32] = "", ev[24], was[24], text[200];
        if (m->mark && m->best)
            tc_move_to_san(p, m->best, best);
        tc_make_move(p, m->played);
        suffix[i] = suffix_of[m->mark];
        eval_text(m->score, m->mate, ev, sizeof ev);
        eval_text(m->best_score, m->best_mate, was, sizeof was);
        int mated = tc_position_status(p) == TC_CHECKMATE;
        if (mated && !m->mark)
            continue;
        if (mated)
            snprintf(text, sizeof text, "%s. %s was best.", word[m->mark], best);
        else if (m->mark)
            snprintf(text, sizeof text, "[%%eval %s] (%s -> %s) %s. %s was best.", ev, was, ev, word[m->mark], best);
        else
            snprintf(text, sizeof text, "[%%eval %s]", ev);
        comment[i] = strdup(text);
    }
    char w[120], b[120], before[300];
    side_text(&sides[TC_WHITE], w, sizeof w);
    side_text(&sides[TC_BLACK], b, sizeof b);
    snprintf(before, sizeof before, "White: %s. Black: %s.", w, b);
    tc_pgn_write_annotated(game, tags, ntags, result, before, suffix, (const char *const *)comment, out);
done:
    for (int i = 0; comment && i < n; i++)
        free(comment[i]);
    free(comment);
    free((void *)suffix);
    tc_position_free(p);
}
