/* Legal move generation (attack queries are in attack.c).
 *
 * Legality is decided without making moves: from the king's own rays we find
 * every checking line and every pinned piece, each as a set of cells (a
 * piece may be pinned, or the king checked, along several lines at once on
 * these boards). A non-king move must land inside the intersection of the
 * check lines and of its pin lines; king moves and en passant are tested on
 * the position after the move. */
#include "attack.h"
#include "internal.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- generation */

static inline int add_pawn_moves(tc_move *out, int n, const tc_variant *v, int us, int from, int to,
                                 int kind)
{
    if (bits_has(&v->promo_cells[us], to)) {
        out[n++] = TC_MOVE_MAKE(from, to, TC_QUEEN, kind);
        out[n++] = TC_MOVE_MAKE(from, to, TC_ROOK, kind);
        out[n++] = TC_MOVE_MAKE(from, to, TC_BISHOP, kind);
        out[n++] = TC_MOVE_MAKE(from, to, TC_KNIGHT, kind);
    } else {
        out[n++] = TC_MOVE_MAKE(from, to, 0, kind);
    }
    return n;
}

/// Lines through which the side to move's king is checked or its pieces pinned.
typedef struct {
    tc_bits check_mask; /* non-king moves must land here */
    int checks;
    int npins;
    int pin_cell[16];
    tc_bits pin_mask[16];
    tc_bits pinned;
} king_lines;

static void find_lines(const tc_position *p, king_lines *kl)
{
    const tc_variant *v = p->v;
    const uint8_t *b = p->board;
    int us = p->side, them = !us, ksq = p->king[us];
    bits_fill(&kl->check_mask);
    kl->checks = 0;
    kl->npins = 0;
    bits_clear(&kl->pinned);
    tc_bits one;

    int pawn = TC_PIECE(them, TC_PAWN), knight = TC_PIECE(them, TC_KNIGHT);
    for (int i = 0; i < v->npcap_from[them][ksq]; i++) {
        int c = v->pcap_from[them][ksq][i];
        if (b[c] == pawn) {
            bits_clear(&one);
            bits_set(&one, c);
            bits_and(&kl->check_mask, &one);
            kl->checks++;
        }
    }
    const uint8_t *lf = v->from_pool + v->knight_from_off[ksq];
    for (int i = 0; i < v->knight_from_len[ksq]; i++)
        if (b[lf[i]] == knight) {
            bits_clear(&one);
            bits_set(&one, lf[i]);
            bits_and(&kl->check_mask, &one);
            kl->checks++;
        }

    int rook = TC_PIECE(them, TC_ROOK), bishop = TC_PIECE(them, TC_BISHOP), queen = TC_PIECE(them, TC_QUEEN);
    tc_bits orth = p->pieces[rook], diag = p->pieces[bishop];
    bits_or(&orth, &p->pieces[queen]);
    bits_or(&diag, &p->pieces[queen]);
    bool do_orth = bits_meet(&orth, &v->orth_reach[ksq]);
    bool do_diag = bits_meet(&diag, &v->diag_reach[ksq]);
    for (int d = 0; d < 8; d++) {
        if (!(dir_is_diag(d) ? do_diag : do_orth))
            continue;
        int slider = dir_is_diag(d) ? bishop : rook;
        const uint8_t *r = v->ray_pool + v->ray_off[ksq][d];
        int len = v->ray_len[ksq][d], i = 0;
        while (i < len && !b[r[i]])
            i++;
        if (i == len)
            continue;
        int pc = b[r[i]];
        if (TC_COLOUR(pc) == them) {
            if (pc == slider || pc == queen) {
                tc_bits seg;
                bits_clear(&seg);
                for (int k = 0; k <= i; k++)
                    bits_set(&seg, r[k]);
                bits_and(&kl->check_mask, &seg);
                kl->checks++;
            }
            continue;
        }
        int j = i + 1;
        while (j < len && !b[r[j]])
            j++;
        if (j == len || (b[r[j]] != slider && b[r[j]] != queen) || kl->npins == 16)
            continue;
        tc_bits *seg = &kl->pin_mask[kl->npins];
        kl->pin_cell[kl->npins++] = r[i];
        bits_clear(seg);
        for (int k = 0; k <= j; k++)
            bits_set(seg, r[k]);
        bits_set(&kl->pinned, r[i]);
    }
}

static int gen_castling(const tc_position *p, tc_move *out, int n)
{
    const tc_variant *v = p->v;
    int us = p->side, them = !us;
    tc_bits occ = p->occ[0];
    bits_or(&occ, &p->occ[1]);
    for (int s = 0; s < 2; s++) {
        if (!(p->castle & (1 << (us * 2 + s))) || bits_meet(&occ, &v->castle_empty[us][s]))
            continue;
        const int *safe = v->castle_safe[us][s];
        if (attacked_sim(p, safe[1], them, -1, -1, -1))
            continue;
        /* the landing cell is judged on the position after the move */
        int kfrom = v->castle_king[us], rfrom = v->castle_rook[us][s];
        if (attacked_sim(p, safe[2], them, kfrom, rfrom, v->castle_rook_to[us][s]))
            continue;
        out[n++] = TC_MOVE_MAKE(kfrom, v->castle_king_to[us][s], 0,
                                s ? TC_MOVE_CASTLE_Q : TC_MOVE_CASTLE_K);
    }
    return n;
}

/* Legal moves; with `noisy` only captures (en passant included) and
 * promotions, for the quiescence search. */
static inline int gen_moves(const tc_position *p, tc_move *out, bool noisy)
{
    const tc_variant *v = p->v;
    const uint8_t *b = p->board;
    int us = p->side, them = !us, ksq = p->king[us];
    int n = 0;
    king_lines kl;
    find_lines(p, &kl);

    for (int i = 0; i < v->nking[ksq]; i++) {
        int t = v->king[ksq][i];
        if (b[t] ? TC_COLOUR(b[t]) == us : noisy)
            continue;
        if (!attacked_sim(p, t, them, ksq, -1, -1))
            out[n++] = TC_MOVE_MAKE(ksq, t, 0, TC_MOVE_NORMAL);
    }
    if (kl.checks && !bits_any(&kl.check_mask))
        return n;
    if (!noisy && !kl.checks && p->castle && v->castle_ok[us] && ksq == v->castle_king[us])
        n = gen_castling(p, out, n);

    tc_bits mine = p->occ[us];
    bits_reset(&mine, ksq);
    BITS_FOREACH(from, mine, {
        tc_bits mask = kl.check_mask;
        if (bits_has(&kl.pinned, from))
            for (int k = 0; k < kl.npins; k++)
                if (kl.pin_cell[k] == from)
                    bits_and(&mask, &kl.pin_mask[k]);
        int pc = b[from];
        switch (TC_TYPE(pc)) {
        case TC_PAWN: {
            int t = v->push1[us][from];
            if (t >= 0 && !b[t]) {
                if (bits_has(&mask, t) && (!noisy || bits_has(&v->promo_cells[us], t)))
                    n = add_pawn_moves(out, n, v, us, from, t, TC_MOVE_NORMAL);
                int t2 = v->push2[us][from];
                if (t2 >= 0 && !b[t2] && bits_has(&mask, t2) && (!noisy || bits_has(&v->promo_cells[us], t2)))
                    n = add_pawn_moves(out, n, v, us, from, t2, TC_MOVE_DOUBLE);
            }
            for (int i = 0; i < v->npcap[us][from]; i++) {
                int c = v->pcap[us][from][i];
                if (b[c] && TC_COLOUR(b[c]) == them) {
                    if (bits_has(&mask, c))
                        n = add_pawn_moves(out, n, v, us, from, c, TC_MOVE_NORMAL);
                } else if (c == p->ep && tc_ep_capture_legal(p, from)) {
                    out[n++] = TC_MOVE_MAKE(from, c, 0, TC_MOVE_EP);
                }
            }
            break;
        }
        case TC_KNIGHT:
            for (int i = 0; i < v->nknight[from]; i++) {
                int t = v->knight[from][i];
                if ((b[t] ? TC_COLOUR(b[t]) == them : !noisy) && bits_has(&mask, t))
                    out[n++] = TC_MOVE_MAKE(from, t, 0, TC_MOVE_NORMAL);
            }
            break;
        default: {
            int type = TC_TYPE(pc);
            int d0 = type == TC_BISHOP ? 1 : 0, dstep = type == TC_QUEEN ? 1 : 2;
            tc_bits seen;
            bits_clear(&seen);
            for (int d = d0; d < 8; d += dstep) {
                const uint8_t *r = v->ray_pool + v->ray_off[from][d];
                int len = v->ray_len[from][d];
                for (int i = 0; i < len; i++) {
                    int t = r[i];
                    int occ = b[t];
                    if (occ && TC_COLOUR(occ) == us)
                        break;
                    if (bits_has(&mask, t) && !bits_has(&seen, t) && (occ || !noisy)) {
                        bits_set(&seen, t);
                        out[n++] = TC_MOVE_MAKE(from, t, 0, TC_MOVE_NORMAL);
                    }
                    if (occ)
                        break;
                }
            }
            break;
        }
        }
    })
    return n;
}

int tc_gen_legal(const tc_position *p, tc_move *out) { return gen_moves(p, out, false); }

int tc_gen_noisy(const tc_position *p, tc_move *out) { return gen_moves(p, out, true); }

int tc_generate_legal(const tc_position *p, tc_movelist *list)
{
    list->count = tc_gen_legal(p, list->moves);
    return list->count;
}

int tc_is_legal(const tc_position *p, tc_move m)
{
    tc_movelist *list = malloc(sizeof *list);
    if (!list)
        return 0;
    int n = tc_generate_legal(p, list), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = list->moves[i] == m;
    free(list);
    return ok;
}

static bool in_list(const uint8_t *list, int n, int cell)
{
    for (int i = 0; i < n; i++)
        if (list[i] == cell)
            return true;
    return false;
}

/* The attack test on the board after the move, read off this one: the cells
 * the move empties (its start, an en passant victim) and the piece it puts
 * down. Most moves are settled by the empty-board tables alone: no line
 * from the king through an emptied cell, and no reach from the landing
 * cell to the king, means no check (the side that moved was not giving
 * check before: its opponent is to move in no legal position in check).
 * Castling moves two pieces and is rare: it is made. */
int tc_gives_check(tc_position *p, tc_move m)
{
    int kind = TC_MOVE_KIND(m);
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q) {
        tc_make_move(p, m);
        int c = tc_in_check(p);
        tc_unmake_move(p);
        return c;
    }
    const tc_variant *v = p->v;
    int us = p->side, from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), promo = TC_MOVE_PROMO(m), k = p->king[!us];
    int put = promo ? TC_PIECE(us, promo) : p->board[from];
    int victim = kind == TC_MOVE_EP ? p->ep_victim : -1;
    bool opens = bits_has(&v->orth_reach[k], from) || bits_has(&v->diag_reach[k], from) ||
                 (victim >= 0 && (bits_has(&v->orth_reach[k], victim) || bits_has(&v->diag_reach[k], victim)));
    if (!opens) {
        /* only the piece put down can give check */
        switch (TC_TYPE(put)) {
        case TC_PAWN:
            return in_list(v->pcap_from[us][k], v->npcap_from[us][k], to);
        case TC_KNIGHT:
            return in_list(v->from_pool + v->knight_from_off[k], v->knight_from_len[k], to);
        case TC_KING:
            return in_list(v->from_pool + v->king_from_off[k], v->king_from_len[k], to);
        case TC_ROOK:
            if (!bits_has(&v->orth_reach[k], to))
                return 0;
            break;
        case TC_BISHOP:
            if (!bits_has(&v->diag_reach[k], to))
                return 0;
            break;
        default:
            if (!bits_has(&v->orth_reach[k], to) && !bits_has(&v->diag_reach[k], to))
                return 0;
        }
    }
    return attacked_after(p, k, us, from, victim, to, put);
}
