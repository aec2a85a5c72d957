/* The puzzle checker: a player's move judged by the solved tables (best,
 * slower win, not winning, illegal with the rules' reason) and the
 * tables' reply; the best moves of a position; puzzle titles. */
#include "egtb.h"
#include "topochess_explain.h"
#include "topochess_puzzle.h"

#include <stdlib.h>

void tc_puzzle_title(const tc_variant *v, int side, int mate_in, char *buf, size_t n)
{
    const tc_variant_def *d = tc_variant_def_of(v);
    const char *board = "flat board";
    int wrap = d->files == TC_FILES_WRAP;
    switch (d->ranks) {
    case TC_RANKS_OPEN: board = wrap ? "cylinder" : "flat board"; break;
    case TC_RANKS_WRAP: board = wrap ? "torus" : "cylinder"; break;
    case TC_RANKS_TWIST: board = wrap ? "Klein bottle" : "Moebius strip"; break;
    case TC_RANKS_FOLD: board = "folded board"; break;
    }
    snprintf(buf, n, "%s mates in %d on the %s", side ? "Black" : "White", mate_in, board);
}

/* The mover's result after the move m from p, read from the tables: -1
 * when the position after it is not held (cannot happen for a set's own
 * material: captures lead to the smaller endings it holds). */
static int after_move(const tc_egtb *t, tc_position *p, tc_move m, tc_egtb_result *mine, int *mates)
{
    tc_make_move(p, m);
    tc_egtb_result cr;
    int ok = tc_egtb_probe(t, p, &cr);
    *mates = tc_position_status(p) == TC_CHECKMATE;
    tc_unmake_move(p);
    if (ok)
        return -1;
    mine->wdl = -cr.wdl;
    mine->plies = cr.wdl ? cr.plies + 1 : 0;
    return 0;
}

int tc_puzzle_best_moves(const tc_egtb *t, tc_position *p, tc_move *out, int max)
{
    tc_egtb_result here;
    if (tc_egtb_probe(t, p, &here))
        return -1;
    if (here.wdl <= 0)
        return 0;
    tc_movelist *list = malloc(sizeof *list);
    if (!list)
        return 0;
    int n = tc_generate_legal(p, list), count = 0;
    for (int i = 0; i < n; i++) {
        tc_egtb_result mine;
        int mates;
        if (after_move(t, p, list->moves[i], &mine, &mates) == 0 && mine.wdl > 0 && mine.plies == here.plies) {
            if (count < max)
                out[count] = list->moves[i];
            count++;
        }
    }
    free(list);
    return count;
}

static const char *side_name(int side) { return side ? "Black" : "White"; }

int tc_puzzle_check(const tc_egtb *t, tc_position *p, const char *text, tc_puzzle_answer *a, tc_error *err)
{
    memset(a, 0, sizeof *a);
    tc_egtb_result here;
    if (tc_egtb_probe(t, p, &here)) {
        tc_set_error(err, "puzzle: the position is not of the ending %s", tc_egtb_name(t));
        return -1;
    }
    int us = tc_side_to_move(p);
    if (here.wdl <= 0) {
        tc_set_error(err, "puzzle: %s to move does not win this position (%s by the tables)", side_name(us),
                     here.wdl ? "a loss" : "a draw");
        return -1;
    }
    a->mate_before = (here.plies + 1) / 2;
    tc_explanation *x = malloc(sizeof *x);
    if (!x) {
        tc_set_error(err, "puzzle: out of memory");
        return -1;
    }
    int illegal = tc_explain_move(p, text ? text : "", x);
    if (illegal) {
        a->verdict = TC_PUZZLE_ILLEGAL;
        tc_explain_line(text ? text : "", x, a->message, sizeof a->message);
        free(x);
        return 0;
    }
    a->move = x->move;
    free(x);
    tc_move_to_san(p, a->move, a->move_san);
    tc_egtb_result mine;
    if (after_move(t, p, a->move, &mine, &a->mates)) {
        tc_set_error(err, "puzzle: the tables do not hold the position after %s", a->move_san);
        return -1;
    }
    a->wdl_after = mine.wdl;
    if (mine.wdl > 0) {
        a->mate_after = (mine.plies + 1) / 2;
        a->slower_by = a->mate_after - a->mate_before;
        a->verdict = a->slower_by ? TC_PUZZLE_SLOWER : TC_PUZZLE_BEST;
    } else
        a->verdict = TC_PUZZLE_NOT_WINNING;
    /* the tables' defence, unless the move ended the game */
    tc_make_move(p, a->move);
    if (tc_position_status(p) == TC_ONGOING) {
        tc_egtb_result r;
        a->reply = tc_egtb_best_move(t, p, &r);
        if (a->reply) {
            tc_move_to_san(p, a->reply, a->reply_san);
            tc_move_to_uci(p, a->reply, a->reply_uci);
        }
    }
    tc_unmake_move(p);
    switch (a->verdict) {
    case TC_PUZZLE_BEST:
        if (a->mates)
            snprintf(a->message, sizeof a->message, "best: %s is checkmate", a->move_san);
        else
            snprintf(a->message, sizeof a->message, "best: %s keeps mate in %d (%d to go after it)", a->move_san,
                     a->mate_before, a->mate_before - 1);
        break;
    case TC_PUZZLE_SLOWER:
        snprintf(a->message, sizeof a->message,
                 "slower: %s still wins, but mates in %d instead of %d (%d move%s slower)", a->move_san,
                 a->mate_after, a->mate_before, a->slower_by, a->slower_by == 1 ? "" : "s");
        break;
    case TC_PUZZLE_NOT_WINNING:
        snprintf(a->message, sizeof a->message, "not winning: after %s the position is %s", a->move_san,
                 mine.wdl ? (us ? "won for White" : "won for Black") : "a draw");
        break;
    case TC_PUZZLE_ILLEGAL: break;
    }
    size_t len = strlen(a->message);
    if (a->verdict != TC_PUZZLE_BEST && a->reply)
        snprintf(a->message + len, sizeof a->message - len, "; the tables answer %s", a->reply_san);
    return 0;
}
