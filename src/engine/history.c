/* Move-ordering statistics: allocation and the updates after a cutoff. */
#include "history.h"

#include <string.h>

void history_free(move_history *mh)
{
    if (!mh->h)
        return;
    free(mh->h->cont[0]);
    free(mh->h->cont[1]);
    free(mh->h);
    mh->h = NULL;
}

void history_clear(move_history *mh)
{
    memset(mh->butterfly, 0, sizeof mh->butterfly);
    memset(mh->killers, 0, sizeof mh->killers);
    hist_tables *h = mh->h;
    if (!h)
        return;
    size_t n = (size_t)8 * h->n;
    memset(h->capture, 0, sizeof h->capture);
    memset(h->corr, 0, sizeof h->corr);
    memset(h->corr_np, 0, sizeof h->corr_np);
    memset(h->counter, 0, sizeof h->counter);
    memset(h->cont[0], 0, n * n * sizeof(int16_t));
    memset(h->cont[1], 0, n * n * sizeof(int16_t));
}

void history_age(move_history *mh)
{
    memset(mh->killers, 0, sizeof mh->killers);
    for (int a = 0; a < 16; a++)
        for (int c = 0; c < TC_MAX_CELLS; c++)
            mh->butterfly[a][c] /= 2;
}

bool history_ready(move_history *mh, int ncells)
{
    if (mh->h && mh->h->n == ncells)
        return true;
    history_free(mh);
    hist_tables *h = calloc(1, sizeof *h);
    if (!h)
        return false;
    size_t cells = (size_t)8 * ncells;
    h->n = ncells;
    h->cont[0] = calloc(cells * cells, sizeof(int16_t));
    h->cont[1] = calloc(cells * cells, sizeof(int16_t));
    mh->h = h;
    if (!h->cont[0] || !h->cont[1]) {
        history_free(mh);
        return false;
    }
    return true;
}

static inline int hist_bonus(int depth) { return depth * depth * 8 + 16 * depth < 2400 ? depth * depth * 8 + 16 * depth : 2400; }

void history_update_quiets(move_history *mh, const tc_position *p, int ply, int depth, tc_move m,
                           const tc_move *quiets, int nquiets)
{
    if (mh->killers[ply][0] != m) {
        mh->killers[ply][1] = mh->killers[ply][0];
        mh->killers[ply][0] = m;
    }
    int bonus = hist_bonus(depth);
    int16_t *c1 = cont_row(mh, ply, 1), *c2 = cont_row(mh, ply, 2);
    if (mh->h && ply > 0 && mh->stack_piece[ply])
        mh->h->counter[mh->stack_piece[ply]][mh->stack_to[ply]] = m;
    for (int k = -1; k < nquiets; k++) {
        tc_move q = k < 0 ? m : quiets[k];
        int b = k < 0 ? bonus : -bonus;
        int piece = p->board[TC_MOVE_FROM(q)], to = TC_MOVE_TO(q);
        history_update(&mh->butterfly[piece][to], b);
        if (c1)
            history_update(&c1[cont_index(mh, piece, to)], b);
        if (c2)
            history_update(&c2[cont_index(mh, piece, to)], b);
    }
}

void history_update_captures(move_history *mh, const tc_position *p, int depth, tc_move best, const tc_move *caps,
                             int ncaps)
{
    if (!mh->h)
        return;
    int bonus = hist_bonus(depth);
    for (int k = -1; k < ncaps; k++) {
        tc_move q = k < 0 ? best : caps[k];
        if (k >= 0 && q == best)
            continue;
        int victim = is_capture(p, q) ? victim_type(p, q) : 0;
        history_update(&mh->h->capture[p->board[TC_MOVE_FROM(q)]][TC_MOVE_TO(q)][victim], k < 0 ? bonus : -bonus);
    }
}
