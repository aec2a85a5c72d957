/* Game status (mate, stalemate and the draws of docs/rules.md section 6) and
 * perft, both built on legal move generation. */
#include "internal.h"

#include <stdlib.h>

int tc_is_dead_position(const tc_position *p)
{
    const tc_variant *v = p->v;
    int minors = 0, knights = 0, colours = 0;
    for (int c = 0; c < v->ncells; c++) {
        int t = TC_TYPE(p->board[c]);
        if (!p->board[c] || t == TC_KING)
            continue;
        if (t != TC_BISHOP && t != TC_KNIGHT)
            return 0;
        minors++;
        if (t == TC_KNIGHT)
            knights++;
        else
            colours |= 1 << ((c % v->W + c / v->W) & 1);
    }
    if (minors == 0)
        return 1;
    /* beyond bare kings only flat boards: wraps, twists and folds allow
     * mates that a flat board forbids */
    if (v->def.files != TC_FILES_OPEN || v->def.ranks != TC_RANKS_OPEN)
        return 0;
    if (knights == 1 && minors == 1)
        return 1;
    return knights == 0 && colours != 3;
}

tc_status tc_position_status(const tc_position *p)
{
    tc_movelist *list = malloc(sizeof *list);
    int n = list ? tc_generate_legal(p, list) : 1;
    free(list);
    if (n == 0)
        return tc_in_check(p) ? TC_CHECKMATE : TC_STALEMATE;
    if (p->halfmove >= 100)
        return TC_DRAW_FIFTY;
    if (tc_repetitions(p) >= 3)
        return TC_DRAW_REPETITION;
    if (tc_is_dead_position(p))
        return TC_DRAW_DEAD;
    return TC_ONGOING;
}

const char *tc_status_text(tc_status s)
{
    switch (s) {
    case TC_ONGOING: return "game goes on";
    case TC_CHECKMATE: return "checkmate";
    case TC_STALEMATE: return "stalemate";
    case TC_DRAW_FIFTY: return "draw by the 50-move rule";
    case TC_DRAW_REPETITION: return "draw by threefold repetition";
    case TC_DRAW_DEAD: return "draw: dead position";
    }
    return "?";
}

static uint64_t perft_rec(tc_position *p, int depth, tc_move *buf)
{
    int n = tc_gen_legal(p, buf);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        tc_make_move(p, buf[i]);
        total += perft_rec(p, depth - 1, buf + n);
        tc_unmake_move(p);
    }
    return total;
}

uint64_t tc_perft(tc_position *p, int depth)
{
    if (depth <= 0)
        return 1;
    /* one buffer for the whole tree: each level uses the slice after its
     * parent's moves */
    tc_move *buf = malloc(sizeof(tc_move) * (size_t)TC_MAX_MOVES * (size_t)(depth + 1));
    if (!buf)
        return 0;
    uint64_t n = perft_rec(p, depth, buf);
    free(buf);
    return n;
}
