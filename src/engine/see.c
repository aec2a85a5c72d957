/* Static exchange evaluation. Attackers are found from the target cell
 * outwards, through the same tables move generation reads (reverse pawn
 * captures, knight and king reverses, rays), with the cells already used in
 * the exchange treated as empty, so that x-rays appear by themselves. */
#include "see.h"

const int see_value[7] = {0, 100, 320, 330, 500, 950, 20000};

/* The least valuable piece of `by` that attacks t once the cells in `gone`
 * are empty: its cell, or -1; *type receives its type. */
static int least_attacker(const tc_position *p, int t, int by, const tc_bits *gone, int *type)
{
    const tc_variant *v = p->v;
    const uint8_t *b = p->board;
#define LIVE(c) (!bits_has(gone, (c)))
    int pawn = TC_PIECE(by, TC_PAWN);
    for (int i = 0; i < v->npcap_from[by][t]; i++) {
        int c = v->pcap_from[by][t][i];
        if (b[c] == pawn && LIVE(c))
            return *type = TC_PAWN, c;
    }
    int knight = TC_PIECE(by, TC_KNIGHT);
    const uint8_t *lf = v->from_pool + v->knight_from_off[t];
    for (int i = 0; i < v->knight_from_len[t]; i++)
        if (b[lf[i]] == knight && LIVE(lf[i]))
            return *type = TC_KNIGHT, lf[i];
    /* the nearest piece on each ray: a bishop beats a rook beats a queen */
    int best = -1, best_type = 7;
    int bishop = TC_PIECE(by, TC_BISHOP), rook = TC_PIECE(by, TC_ROOK), queen = TC_PIECE(by, TC_QUEEN);
    tc_bits orth = p->pieces[rook], diag = p->pieces[bishop];
    bits_or(&orth, &p->pieces[queen]);
    bits_or(&diag, &p->pieces[queen]);
    bool do_orth = bits_meet(&orth, &v->orth_reach[t]), do_diag = bits_meet(&diag, &v->diag_reach[t]);
    for (int d = do_orth ? 0 : 1; (do_orth || do_diag) && d < 8; d += do_orth && do_diag ? 1 : 2) {
        const uint8_t *r = v->ray_pool + v->ray_off[t][d];
        int len = v->ray_len[t][d];
        for (int i = 0; i < len; i++) {
            int c = r[i], pc = b[c];
            if (!pc || !LIVE(c))
                continue;
            int ty = pc == queen ? TC_QUEEN : pc == (dir_is_diag(d) ? bishop : rook) ? TC_TYPE(pc) : 0;
            if (ty && ty < best_type) {
                best_type = ty;
                best = c;
            }
            break;
        }
        if (best_type == TC_BISHOP && dir_is_diag(d))
            break;
    }
    if (best >= 0)
        return *type = best_type, best;
    int king = TC_PIECE(by, TC_KING);
    lf = v->from_pool + v->king_from_off[t];
    for (int i = 0; i < v->king_from_len[t]; i++)
        if (b[lf[i]] == king && LIVE(lf[i]))
            return *type = TC_KING, lf[i];
    return -1;
#undef LIVE
}

int see(const tc_position *p, tc_move m)
{
    int from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), kind = TC_MOVE_KIND(m);
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q)
        return 0;
    int gain[64], d = 0;
    int victim = kind == TC_MOVE_EP ? TC_PAWN : TC_TYPE(p->board[to]);
    int promo = TC_MOVE_PROMO(m);
    int mover = TC_TYPE(p->board[from]);
    tc_bits gone;
    bits_clear(&gone);
    bits_set(&gone, from);
    if (kind == TC_MOVE_EP)
        bits_set(&gone, p->ep_victim);
    gain[0] = see_value[victim] + (promo ? see_value[promo] - see_value[TC_PAWN] : 0);
    int on_cell = promo ? promo : mover; /* what stands on `to` now */
    int side = !TC_COLOUR(p->board[from]);
    while (d < 62) {
        int type, c = least_attacker(p, to, side, &gone, &type);
        if (c < 0)
            break;
        if (type == TC_KING) {
            /* the king takes only if nothing can take it back */
            int t2;
            bits_set(&gone, c);
            int back = least_attacker(p, to, !side, &gone, &t2);
            bits_reset(&gone, c);
            if (back >= 0)
                break;
        }
        d++;
        gain[d] = see_value[on_cell] - gain[d - 1];
        on_cell = type;
        bits_set(&gone, c);
        side = !side;
    }
    while (d > 0) {
        int stand = -gain[d - 1];
        gain[d - 1] = -(stand > gain[d] ? stand : gain[d]);
        d--;
    }
    return gain[0];
}

bool see_ge(const tc_position *p, tc_move m, int threshold)
{
    int kind = TC_MOVE_KIND(m), to = TC_MOVE_TO(m);
    /* quick answers: a capture of more than the capturer is worth */
    int victim = kind == TC_MOVE_EP ? TC_PAWN : TC_TYPE(p->board[to]);
    if (!TC_MOVE_PROMO(m) && kind != TC_MOVE_CASTLE_K && kind != TC_MOVE_CASTLE_Q &&
        see_value[victim] - see_value[TC_TYPE(p->board[TC_MOVE_FROM(m)])] >= threshold &&
        see_value[TC_TYPE(p->board[TC_MOVE_FROM(m)])] < see_value[TC_KING])
        return true;
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q)
        return threshold <= 0;
    /* nor can it win more than the victim (and a promotion) */
    if (see_value[victim] + (TC_MOVE_PROMO(m) ? see_value[TC_QUEEN] : 0) < threshold)
        return false;
    return see(p, m) >= threshold;
}
