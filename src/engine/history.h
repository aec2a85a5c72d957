/* Move-ordering statistics of one search thread: killers, butterfly,
 * capture and continuation histories, counter moves and the correction
 * history; their updates after a cutoff, and the lookups move ordering and
 * pruning make on every node. The search (search.c) calls into this
 * module, never the other way: it knows positions and moves, not threads. */
#ifndef TC_HISTORY_H
#define TC_HISTORY_H

#include "movekind.h"
#include "topochess_engine.h"

#include <stdint.h>
#include <stdlib.h>

#define HIST_MAX 16384
#define CORR_SIZE 16384 /* correction entries per side, a power of two */
#define CORR_GRAIN 256  /* a correction entry counts 1/256 centipawns */
#define CORR_LIMIT (CORR_GRAIN * 64)

/// The tables sized by the variant (heap, made on a thread's first search):
/// the correction history (what searches found beyond the static
/// evaluation, by pawn structure and by each colour's other pieces, added
/// to later static evaluations of that structure and those pieces);
/// capture history by moving piece, target and victim type;
/// the counter move to the previous move; continuation histories one and
/// two plies back, indexed by (piece type, cell) of that earlier move and
/// of this one (the colours follow from the distance). n is the cell count.
typedef struct hist_tables {
    int n;
    int32_t corr[2][CORR_SIZE];       /* by side to move and pawn structure */
    int32_t corr_np[2][2][CORR_SIZE]; /* by side to move, colour and that colour's other pieces */
    int16_t capture[16][TC_MAX_CELLS][8];
    tc_move counter[16][TC_MAX_CELLS];
    int16_t *cont[2]; /* [(8 * n) * (8 * n)] each */
} hist_tables;

/// Everything one thread learns about moves: killers per ply, butterfly
/// history, the piece and target of the move that left each ply (for the
/// continuation histories and counter moves; index ply + 1, piece 0 for a
/// null move) and the variant-sized tables (NULL until made, or when memory
/// ran out: ordering then does without them).
typedef struct move_history {
    tc_move killers[TC_ENGINE_MAX_PLY + 1][2];
    int16_t butterfly[16][TC_MAX_CELLS];
    int stack_piece[TC_ENGINE_MAX_PLY + 2];
    int stack_to[TC_ENGINE_MAX_PLY + 2];
    hist_tables *h;
} move_history;

/* Makes the tables for a variant of `ncells` cells (again for a new size);
 * false if memory runs out. */
bool history_ready(move_history *mh, int ncells);
void history_free(move_history *mh);
/* Forgets everything (a new game). */
void history_clear(move_history *mh);
/* Before a search: killers forgotten, the butterfly history halved. */
void history_age(move_history *mh);
/* After a quiet move m caused a cutoff at `depth` in position p: killers,
 * counter move, butterfly and continuation histories up for m, down for the
 * quiets tried before it. */
void history_update_quiets(move_history *mh, const tc_position *p, int ply, int depth, tc_move m,
                           const tc_move *quiets, int nquiets);
/* After a cutoff: capture history up for `best` (0: a quiet move) and down
 * for the captures tried before it. */
void history_update_captures(move_history *mh, const tc_position *p, int depth, tc_move best, const tc_move *caps,
                             int ncaps);

static inline void history_update(int16_t *h, int bonus)
{
    int v = *h + bonus - *h * abs(bonus) / HIST_MAX;
    *h = (int16_t)(v > HIST_MAX ? HIST_MAX : v < -HIST_MAX ? -HIST_MAX : v);
}

/* The continuation-history row of the move `back` plies before ply (1 or
 * 2), or NULL (a null move, or before the root). */
static inline int16_t *cont_row(const move_history *mh, int ply, int back)
{
    int i = ply + 1 - back;
    if (!mh->h || i < 1 || !mh->stack_piece[i])
        return NULL;
    size_t n = (size_t)mh->h->n;
    return mh->h->cont[back - 1] + ((size_t)TC_TYPE(mh->stack_piece[i]) * n + (size_t)mh->stack_to[i]) * 8 * n;
}

static inline int cont_index(const move_history *mh, int piece, int to) { return TC_TYPE(piece) * mh->h->n + to; }

/* Quiet-move history: butterfly plus both continuations. */
static inline int quiet_history(const move_history *mh, int ply, int piece, int to)
{
    int s = mh->butterfly[piece][to];
    if (mh->h) {
        const int16_t *c1 = cont_row(mh, ply, 1), *c2 = cont_row(mh, ply, 2);
        int k = cont_index(mh, piece, to);
        if (c1)
            s += c1[k];
        if (c2)
            s += c2[k];
    }
    return s;
}

/* The counter move to the move that left ply, or 0. */
static inline tc_move counter_move(const move_history *mh, int ply)
{
    return mh->h && ply > 0 && mh->stack_piece[ply] ? mh->h->counter[mh->stack_piece[ply]][mh->stack_to[ply]] : 0;
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

/* A hash of one colour's pieces other than pawns (the king included). */
static inline uint64_t pieces_hash(const tc_position *p, int col)
{
    uint64_t h = 0x6a09e667f3bcc909ull * (uint64_t)(col + 1);
    for (int type = TC_KNIGHT; type <= TC_KING; type++) {
        const tc_bits *b = &p->pieces[TC_PIECE(col, type)];
        for (int w = 0; w < 4; w++) {
            h ^= b->w[w] + 0x9e3779b97f4a7c15ull * (uint64_t)(4 * type + w + 1);
            h *= 0xbf58476d1ce4e5b9ull;
            h ^= h >> 29;
        }
    }
    return h;
}

/* The correction entries of p: by pawn structure, then by White's and by
 * Black's other pieces (all NULL without the tables). A node looks them up
 * once, for its static value and for the update after its search. */
static inline void corr_slots(const move_history *mh, const tc_position *p, int32_t *out[3])
{
    if (!mh->h) {
        out[0] = out[1] = out[2] = NULL;
        return;
    }
    out[0] = &mh->h->corr[p->side][pawn_hash(p) & (CORR_SIZE - 1)];
    for (int c = 0; c < 2; c++)
        out[1 + c] = &mh->h->corr_np[p->side][c][pieces_hash(p, c) & (CORR_SIZE - 1)];
}

/* The static evaluation with the adjustment of the correction entries c
 * (from corr_slots, or NULL): the pawn structure's entry, and half of
 * each colour's piece entry. */
static inline int corrected_by(int32_t *const c[3], int raw)
{
    int v = raw;
    if (c[0])
        v += (2 * *c[0] + *c[1] + *c[2]) / (2 * CORR_GRAIN);
    return v > 20000 ? 20000 : v < -20000 ? -20000 : v;
}

/* After a search of depth `depth` found `best` where the static value was
 * `static_eval`: moves the entries c (from corr_slots) toward the
 * difference. */
static inline void corr_update(int32_t *const c[3], int depth, int best, int static_eval)
{
    if (!c[0])
        return;
    int w = depth + 1 < 16 ? depth + 1 : 16;
    for (int k = 0; k < 3; k++) {
        int64_t v = ((int64_t)*c[k] * (256 - w) + (int64_t)(best - static_eval) * CORR_GRAIN * w) / 256;
        *c[k] = (int32_t)(v > CORR_LIMIT ? CORR_LIMIT : v < -CORR_LIMIT ? -CORR_LIMIT : v);
    }
}

#endif
