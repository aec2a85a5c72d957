/* The attack test that move generation inlines in its hot paths and that
 * attack.c offers to the layers above. It reads the position's cells and
 * the variant's tables only, so make/unmake (position.c) can use it too. */
#ifndef TC_ATTACK_H
#define TC_ATTACK_H

#include "internal.h"

/* Is `t` attacked by `by` once cells e1 and e2 are emptied and piece `put`
 * stands on cell `at`? (-1 for unused cells; put 0xff is a piece that
 * attacks nothing, a blocker.) With the cells a move empties and fills this
 * is the attack test of the position after the move, without making it. */
static inline bool attacked_after(const tc_position *p, int t, int by, int e1, int e2, int at, int put)
{
    const tc_variant *v = p->v;
    const uint8_t *b = p->board;
#define PIECE_AT(c) (((c) == e1 || (c) == e2) ? 0 : (c) == at ? put : b[c])
    int pawn = TC_PIECE(by, TC_PAWN);
    for (int i = 0; i < v->npcap_from[by][t]; i++) {
        int c = v->pcap_from[by][t][i];
        if (PIECE_AT(c) == pawn)
            return true;
    }
    int knight = TC_PIECE(by, TC_KNIGHT);
    const uint8_t *lf = v->from_pool + v->knight_from_off[t];
    for (int i = 0; i < v->knight_from_len[t]; i++)
        if (PIECE_AT(lf[i]) == knight)
            return true;
    int king = TC_PIECE(by, TC_KING);
    lf = v->from_pool + v->king_from_off[t];
    for (int i = 0; i < v->king_from_len[t]; i++)
        if (PIECE_AT(lf[i]) == king)
            return true;
    int rook = TC_PIECE(by, TC_ROOK), bishop = TC_PIECE(by, TC_BISHOP), queen = TC_PIECE(by, TC_QUEEN);
    tc_bits orth = p->pieces[rook], diag = p->pieces[bishop];
    bits_or(&orth, &p->pieces[queen]);
    bits_or(&diag, &p->pieces[queen]);
    /* the sets filter only: cells emptied may stay in them, the put piece
     * must be added */
    if (put == rook || put == queen)
        bits_set(&orth, at);
    if (put == bishop || put == queen)
        bits_set(&diag, at);
    bool do_orth = bits_meet(&orth, &v->orth_reach[t]);
    bool do_diag = bits_meet(&diag, &v->diag_reach[t]);
    if (!do_orth && !do_diag)
        return false;
    for (int d = do_orth ? 0 : 1; d < 8; d += (do_orth && do_diag) ? 1 : 2) {
        const uint8_t *r = v->ray_pool + v->ray_off[t][d];
        int len = v->ray_len[t][d];
        for (int i = 0; i < len; i++) {
            int pc = PIECE_AT(r[i]);
            if (!pc)
                continue;
            if (pc == queen || pc == (dir_is_diag(d) ? bishop : rook))
                return true;
            break;
        }
    }
    return false;
#undef PIECE_AT
}

/* Is `t` attacked by `by` once cells e1 and e2 are emptied and cell blk is
 * filled with a piece of the other side? (-1 for unused.) */
static inline bool attacked_sim(const tc_position *p, int t, int by, int e1, int e2, int blk)
{
    return attacked_after(p, t, by, e1, e2, blk, 0xff);
}

#endif
