/* Move-ordering statistics: allocation and the updates after a cutoff. */
#include "history.h"

void search_hist_free(search_thread *t)
{
    if (!t->h)
        return;
    free(t->h->cont[0]);
    free(t->h->cont[1]);
    free(t->h);
    t->h = NULL;
}

void search_hist_clear(search_thread *t)
{
    search_hist *h = t->h;
    if (!h)
        return;
    size_t n = (size_t)8 * h->n;
    memset(h->capture, 0, sizeof h->capture);
    memset(h->corr, 0, sizeof h->corr);
    memset(h->counter, 0, sizeof h->counter);
    memset(h->cont[0], 0, n * n * sizeof(int16_t));
    memset(h->cont[1], 0, n * n * sizeof(int16_t));
}

/* Makes the tables on a thread's first search (and for a new variant
 * size); false if memory runs out, and the search then orders without them. */
bool search_hist_ready(search_thread *t)
{
    int n = t->e->v->ncells;
    if (t->h && t->h->n == n)
        return true;
    search_hist_free(t);
    search_hist *h = calloc(1, sizeof *h);
    if (!h)
        return false;
    size_t cells = (size_t)8 * n;
    h->n = n;
    h->cont[0] = calloc(cells * cells, sizeof(int16_t));
    h->cont[1] = calloc(cells * cells, sizeof(int16_t));
    t->h = h;
    if (!h->cont[0] || !h->cont[1]) {
        search_hist_free(t);
        return false;
    }
    return true;
}

static inline int hist_bonus(int depth) { return depth * depth * 8 + 16 * depth < 2400 ? depth * depth * 8 + 16 * depth : 2400; }

void history_update_quiets(search_thread *t, int ply, int depth, tc_move m, const tc_move *quiets, int nquiets)
{
    const tc_position *p = t->pos;
    if (t->killers[ply][0] != m) {
        t->killers[ply][1] = t->killers[ply][0];
        t->killers[ply][0] = m;
    }
    int bonus = hist_bonus(depth);
    int16_t *c1 = cont_row(t, ply, 1), *c2 = cont_row(t, ply, 2);
    if (t->h && ply > 0 && t->stack_piece[ply])
        t->h->counter[t->stack_piece[ply]][t->stack_to[ply]] = m;
    for (int k = -1; k < nquiets; k++) {
        tc_move q = k < 0 ? m : quiets[k];
        int b = k < 0 ? bonus : -bonus;
        int piece = p->board[TC_MOVE_FROM(q)], to = TC_MOVE_TO(q);
        history_update(&t->history[piece][to], b);
        if (c1)
            history_update(&c1[cont_index(t, piece, to)], b);
        if (c2)
            history_update(&c2[cont_index(t, piece, to)], b);
    }
}

void history_update_captures(search_thread *t, int depth, tc_move best, const tc_move *caps, int ncaps)
{
    if (!t->h)
        return;
    const tc_position *p = t->pos;
    int bonus = hist_bonus(depth);
    for (int k = -1; k < ncaps; k++) {
        tc_move q = k < 0 ? best : caps[k];
        if (k >= 0 && q == best)
            continue;
        int victim = is_capture(p, q) ? victim_type(p, q) : 0;
        history_update(&t->h->capture[p->board[TC_MOVE_FROM(q)]][TC_MOVE_TO(q)][victim], k < 0 ? bonus : -bonus);
    }
}
