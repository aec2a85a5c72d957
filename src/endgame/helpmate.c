/* The cooperative (help-mate) retrograde pass of docs/rules.md section 6 over
 * one material's table: a bit per entry, set when some sequence of legal
 * moves, by either side, reaches a checkmate. It starts from the
 * checkmated positions of the table and from the positions with a capture
 * into a marked position of a smaller table (marked before), then marks,
 * pass after pass, every legal predecessor by an un-move of a marked
 * position, until a pass marks nothing. An unmarked legal position is
 * dead. Only the bits of canonical entries (eg_canon) are ever set.
 *
 * The one-sided pass (eg_helpmate_side) is the same with only the
 * checkmates of one side as its start: the flag rule's question (can the
 * side whose flag stands still mate the other?). The two-sided marks are
 * the union of the two one-sided ones. */
#include "egtb.h"

#include <stdlib.h>

/* A smaller table's marks that a pass reads: the two-sided ones (side <
 * 0), or those of checkmates of the side of colour side. */
static const uint64_t *marks_of(const eg_table *s, int side) { return side < 0 ? s->mark : s->mated[side]; }

/* Does the side to move have a legal capture into a marked position of a
 * smaller table (the marks of `only`: -1 two-sided, else the checkmates
 * of that colour, in t's colours)? Only captures are tried: each of its
 * pieces against each of the other side's men but the king. */
static bool capture_marked(const eg_board *b, const eg_table *t, const uint8_t *sq, int stm, int only)
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
            uint64_t q = eg_canon(b, s, side, c);
            if ((marks_of(s, only < 0 ? -1 : only ^ (t->sub_swap[j] ? 1 : 0))[q >> 6] >> (q & 63)) & 1)
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
    uint64_t *mark; /* the pass's marks */
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
    if (s->mark[q >> 6] & bit)
        return;
    s->mark[q >> 6] |= bit;
    s->next[q >> 6] |= bit;
    s->added++;
}

/* One pass: marks (out, allocated here) every position of t from which a
 * checkmate is reachable, of either side (only < 0) or of the side of
 * colour only. 0, or -1 out of memory (*out NULL). */
static int pass(const eg_board *b, eg_table *t, int only, uint64_t **out, tc_error *err)
{
    t->size = 2 * (uint64_t)b->nrep;
    for (int j = 1; j < t->k; j++)
        t->size *= (uint64_t)b->n;
    size_t words = (size_t)((t->size + 63) / 64);
    uint64_t *mark = calloc(words, sizeof *mark);
    uint64_t *front = calloc(words, sizeof *front), *next = calloc(words, sizeof *next);
    *out = NULL;
    if (!mark || !front || !next) {
        free(mark);
        free(front);
        free(next);
        tc_set_error(err, "%s: out of memory for %llu entries", t->name, (unsigned long long)t->size);
        return -1;
    }
    /* the start: checkmates, and captures into marked smaller positions */
    for (uint64_t idx = 0; idx < t->size; idx++) {
        uint8_t sq[EG_MAXP];
        int stm;
        if (!legal_entry(b, t, idx, &stm, sq))
            continue;
        bool mated = (only < 0 || stm == only) && eg_king_attacked(b, t, sq, stm, -1) &&
                     eg_visit_moves(b, t, sq, stm, any_move, NULL) == 0;
        if (mated || capture_marked(b, t, sq, stm, only))
            mark[idx >> 6] |= 1ull << (idx & 63);
    }
    memcpy(front, mark, words * sizeof *front);
    /* then the un-moves of each newly marked position, until none is new */
    for (;;) {
        spread s = {b, t, mark, 0, next, 0};
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
    *out = mark;
    return 0;
}

int eg_helpmate(const eg_board *b, eg_table *t, tc_error *err)
{
    int rc = pass(b, t, -1, &t->mark, err);
    t->mark_state = rc ? 2 : 1;
    return rc;
}

int eg_helpmate_side(const eg_board *b, eg_table *t, int c, tc_error *err)
{
    int rc = pass(b, t, c, &t->mated[c], err);
    t->mated_state[c] = rc ? 2 : 1;
    return rc;
}
