/* Move-ordering statistics of one search thread: butterfly, capture and
 * continuation histories and counter moves (the tables are described in
 * search.h), their updates after a cutoff, and the lookups move ordering
 * and pruning make on every node. */
#ifndef TC_HISTORY_H
#define TC_HISTORY_H

#include "search.h"

#include <stdlib.h>

#define HIST_MAX 16384

/* Makes the tables on a thread's first search (and for a new variant
 * size); false if memory runs out, and the search then orders without them. */
bool search_hist_ready(search_thread *t);
/* After a quiet move m caused a cutoff at `depth`: killers, counter move,
 * butterfly and continuation histories up for m, down for the quiets tried
 * before it. */
void history_update_quiets(search_thread *t, int ply, int depth, tc_move m, const tc_move *quiets, int nquiets);
/* After a cutoff: capture history up for `best` (0: a quiet move) and down
 * for the captures tried before it. */
void history_update_captures(search_thread *t, int depth, tc_move best, const tc_move *caps, int ncaps);

static inline void history_update(int16_t *h, int bonus)
{
    int v = *h + bonus - *h * abs(bonus) / HIST_MAX;
    *h = (int16_t)(v > HIST_MAX ? HIST_MAX : v < -HIST_MAX ? -HIST_MAX : v);
}

/* The continuation-history row of the move `back` plies before ply (1 or
 * 2), or NULL (a null move, or before the root). */
static inline int16_t *cont_row(const search_thread *t, int ply, int back)
{
    int i = ply + 1 - back;
    if (!t->h || i < 1 || !t->stack_piece[i])
        return NULL;
    size_t n = (size_t)t->h->n;
    return t->h->cont[back - 1] + ((size_t)TC_TYPE(t->stack_piece[i]) * n + (size_t)t->stack_to[i]) * 8 * n;
}

static inline int cont_index(const search_thread *t, int piece, int to)
{
    return TC_TYPE(piece) * t->h->n + to;
}

/* Quiet-move history: butterfly plus both continuations. */
static inline int quiet_history(const search_thread *t, int ply, int piece, int to)
{
    int s = t->history[piece][to];
    if (t->h) {
        const int16_t *c1 = cont_row(t, ply, 1), *c2 = cont_row(t, ply, 2);
        int k = cont_index(t, piece, to);
        if (c1)
            s += c1[k];
        if (c2)
            s += c2[k];
    }
    return s;
}

/* A hash of both sides' pawn cells, for the correction history. */
static inline uint64_t pawn_hash(const tc_position *p)
{
    const tc_bits *w = &p->pieces[TC_PIECE(TC_WHITE, TC_PAWN)], *b = &p->pieces[TC_PIECE(TC_BLACK, TC_PAWN)];
    uint64_t h = w->w[0] * 0x9e3779b97f4a7c15ull ^ (w->w[1] + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull ^
                 (w->w[2] ^ b->w[2]) * 0x94d049bb133111ebull ^ (b->w[0] + 0x2545f4914f6cdd1dull) * 0xd6e8feb86659fd93ull ^
                 (b->w[1] ^ w->w[3] ^ (b->w[3] << 1)) * 0xff51afd7ed558ccdull;
    h ^= h >> 31;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

static inline int32_t *corr_slot(const search_thread *t)
{
    return t->h ? &t->h->corr[t->pos->side][pawn_hash(t->pos) & (CORR_SIZE - 1)] : NULL;
}

/* The static evaluation with the correction history's adjustment. */
static inline int corrected(const search_thread *t, int raw)
{
    const int32_t *c = corr_slot(t);
    int v = raw + (c ? *c / CORR_GRAIN : 0);
    return v > 20000 ? 20000 : v < -20000 ? -20000 : v;
}

/* After a search of depth `depth` found `best` where the static value was
 * `static_eval`: moves the entry toward the difference. */
static inline void corr_update(search_thread *t, int depth, int best, int static_eval)
{
    int32_t *c = corr_slot(t);
    if (!c)
        return;
    int w = depth + 1 < 16 ? depth + 1 : 16;
    int64_t v = ((int64_t)*c * (256 - w) + (int64_t)(best - static_eval) * CORR_GRAIN * w) / 256;
    *c = (int32_t)(v > CORR_LIMIT ? CORR_LIMIT : v < -CORR_LIMIT ? -CORR_LIMIT : v);
}

#endif
