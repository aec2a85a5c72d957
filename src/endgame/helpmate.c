/* The cooperative (help-mate) retrograde pass of docs/rules.md section 6 over
 * one material's table: a bit per entry, set when some sequence of legal
 * moves, by either side, reaches a checkmate. It starts from the
 * checkmated positions of the table and from the positions with a capture
 * into a marked position of a smaller table (marked before), then marks,
 * pass after pass, every legal predecessor by an un-move of a marked
 * position, until a pass marks nothing. An unmarked legal position is
 * dead. Only the bits of canonical entries (eg_canon) are ever set. */
#include "egtb.h"

#include <stdlib.h>

/* Does the side to move have a legal capture into a marked position of a
 * smaller table? Only captures are tried: each of its pieces against each
 * of the other side's men but the king. */
static bool capture_marked(const eg_board *b, const eg_table *t, const uint8_t *sq, int stm)
{
    for (int j = 2; j < t->k; j++) {
        if (t->colour[j] == stm)
            continue;
        const eg_table *s = t->sub[j];
        for (int i = 0; i < t->k; i++) {
            if (t->colour[i] != stm || !eg_attacks(b, t->type[i], sq[i], sq[j], sq, t->k))
                continue;
            uint8_t moved[EG_MAXP], c[EG_MAXP];
            memcpy(moved, sq, sizeof moved);
            moved[i] = sq[j];
            if (eg_king_attacked(b, t, moved, stm, j))
                continue; /* the capture leaves its own king in check */
            for (int q = 0; q < s->k; q++)
                c[q] = moved[t->sub_map[j][q]];
            int side = !stm ^ (t->sub_swap[j] ? 1 : 0);
            if (eg_marked(s, eg_canon(b, s, side, c)))
                return true;
        }
    }
    return false;
}

static bool any_move(void *ctx, uint8_t *sq, const eg_move *m)
{
    (void)ctx, (void)sq, (void)m;
    return false;
}

/* A legal canonical entry: no two pieces on one cell, the entry is its
 * class's canonical one, and the side not to move is not in check. */
static bool legal_entry(const eg_board *b, const eg_table *t, uint64_t idx, int *stm, uint8_t *sq)
{
    eg_decode(b, t, idx, stm, sq);
    for (int i = 0; i < t->k; i++)
        for (int j = i + 1; j < t->k; j++)
            if (sq[i] == sq[j])
                return false;
    return eg_canon(b, t, *stm, sq) == idx && !eg_king_attacked(b, t, sq, !*stm, -1);
}

/// One pass's state: the table and the bits marked by this pass.
typedef struct {
    const eg_board *b;
    eg_table *t;
    int mover; /* the side to move in the predecessors */
    uint64_t *next;
    uint64_t added;
} spread;

static void mark_predecessor(void *ctx, const uint8_t *sq)
{
    spread *s = ctx;
    /* legal only if the side that did not move is not in check */
    if (eg_king_attacked(s->b, s->t, sq, !s->mover, -1))
        return;
    uint64_t q = eg_canon(s->b, s->t, s->mover, sq);
    uint64_t bit = 1ull << (q & 63);
    if (s->t->mark[q >> 6] & bit)
        return;
    s->t->mark[q >> 6] |= bit;
    s->next[q >> 6] |= bit;
    s->added++;
}

int eg_helpmate(const eg_board *b, eg_table *t, tc_error *err)
{
    t->size = 2 * (uint64_t)b->nrep;
    for (int j = 1; j < t->k; j++)
        t->size *= (uint64_t)b->n;
    size_t words = (size_t)((t->size + 63) / 64);
    t->mark = calloc(words, sizeof *t->mark);
    uint64_t *front = calloc(words, sizeof *front), *next = calloc(words, sizeof *next);
    if (!t->mark || !front || !next) {
        free(t->mark);
        free(front);
        free(next);
        t->mark = NULL;
        t->mark_state = 2;
        tc_set_error(err, "%s: out of memory for %llu entries", t->name, (unsigned long long)t->size);
        return -1;
    }
    /* the start: checkmates, and captures into marked smaller positions */
    for (uint64_t idx = 0; idx < t->size; idx++) {
        uint8_t sq[EG_MAXP];
        int stm;
        if (!legal_entry(b, t, idx, &stm, sq))
            continue;
        bool mated = eg_king_attacked(b, t, sq, stm, -1) && eg_visit_moves(b, t, sq, stm, any_move, NULL) == 0;
        if (mated || capture_marked(b, t, sq, stm))
            t->mark[idx >> 6] |= 1ull << (idx & 63);
    }
    memcpy(front, t->mark, words * sizeof *front);
    /* then the un-moves of each newly marked position, until none is new */
    for (;;) {
        spread s = {b, t, 0, next, 0};
        for (size_t w = 0; w < words; w++) {
            uint64_t bits = front[w];
            while (bits) {
                uint64_t idx = (uint64_t)w * 64 + (uint64_t)__builtin_ctzll(bits);
                bits &= bits - 1;
                uint8_t sq[EG_MAXP];
                int stm;
                eg_decode(b, t, idx, &stm, sq);
                s.mover = !stm;
                eg_gen_unmoves(b, t, sq, !stm, mark_predecessor, &s);
            }
        }
        if (!s.added)
            break;
        uint64_t *x = front;
        front = next;
        next = x;
        memset(next, 0, words * sizeof *next);
    }
    free(front);
    free(next);
    t->mark_state = 1;
    return 0;
}
