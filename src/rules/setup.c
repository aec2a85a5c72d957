/* Starting a game: a variant is made only when its setup is a legal
 * position (tc_variant_new), and positions start from that setup. This sits
 * above FEN and move generation, which judge the setup. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Names the joins in a set of TC_JOIN_* flags, as "rank 14 and rank 1 are
 * joined" and the like. */
static void joins_text(const tc_variant *v, int joins, char *buf, size_t n)
{
    const tc_variant_def *d = &v->def;
    size_t k = 0;
    buf[0] = '\0';
    if (joins & TC_JOIN_FILE)
        k += (size_t)snprintf(buf + k, n - k, "%sfile %c and file a are joined", k ? ", " : "",
                              'a' + v->W - 1);
    if ((joins & TC_JOIN_TWIST) && k < n)
        k += (size_t)snprintf(buf + k, n - k, "%srank %d and rank %d are joined with a half-twist",
                              k ? ", " : "", d->seam, d->seam % v->H + 1);
    if ((joins & TC_JOIN_RANK) && k < n)
        k += (size_t)snprintf(buf + k, n - k, "%srank %d and rank 1 are joined", k ? ", " : "", v->H);
    if ((joins & TC_JOIN_FOLD) && k < n)
        snprintf(buf + k, n - k, "%san end rank is folded onto itself", k ? ", " : "");
}

/* The joins crossed on the way from `from` to `to` by a piece of type t, or
 * -1 when it does not attack `to` on this board (the occupancy of p counts
 * for rays). Pawns capture by colour. */
static int attack_joins(const tc_position *p, int t, int colour, int from, int to)
{
    const tc_variant *v = p->v;
    if (t == TC_KING || t == TC_PAWN) {
        for (int d = 0; d < 8; d++) {
            if (v->step_to[from][d] != to)
                continue;
            if (t == TC_KING)
                return v->step_join[from][d];
            for (int i = 0; i < v->npcap[colour][from]; i++)
                if (v->pcap[colour][from][i] == to)
                    return v->step_join[from][d];
        }
        return -1;
    }
    if (t == TC_KNIGHT) {
        for (int i = 0; i < v->nknight[from]; i++)
            if (v->knight[from][i] == to) {
                /* a leap's joins: those of its two-step legs, whichever way */
                int joins = 0;
                for (int d = 0; d < 8; d += 2)
                    for (int e = 0; e < 8; e++) {
                        int a = v->step_to[from][d];
                        if (a < 0)
                            continue;
                        int da = v->step_dir[from][d];
                        int b = v->step_to[a][da];
                        if (b < 0)
                            continue;
                        int c = v->step_to[b][e];
                        if (c == to)
                            joins |= v->step_join[from][d] | v->step_join[a][da] | v->step_join[b][e];
                    }
                return joins;
            }
        return -1;
    }
    for (int d = 0; d < 8; d++) {
        bool diag = dir_is_diag(d);
        if ((t == TC_ROOK && diag) || (t == TC_BISHOP && !diag))
            continue;
        int cur = from, dir = d, joins = 0;
        for (int guard = 0; guard < 8 * v->ncells + 8; guard++) {
            int nx = v->step_to[cur][dir];
            if (nx < 0 || nx == from)
                break;
            joins |= v->step_join[cur][dir];
            dir = v->step_dir[cur][dir];
            cur = nx;
            if (cur == to)
                return joins;
            if (p->board[cur])
                break;
        }
    }
    return -1;
}

/* When the setup in p failed because a king stands attacked, says which
 * piece attacks it across which join; 0 when it wrote that reason. */
static int setup_check_reason(tc_position *p, const char *setup, tc_error *err)
{
    static const char *const names[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
    const tc_variant *v = p->v;
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(v->W, v->H, setup, strlen(setup), board, NULL))
        return -1;
    tc_position_clear(p);
    for (int c = 0; c < v->ncells; c++)
        if (board[c])
            tc_put_piece(p, c, board[c]);
    for (int col = 1; col >= 0; col--) {
        int k = -1;
        for (int c = 0; c < v->ncells; c++)
            if (board[c] == TC_PIECE(col, TC_KING))
                k = c;
        if (k < 0)
            continue;
        /* kings that touch first: that is the reason people overlook */
        for (int i = 0; i < 2 * v->ncells; i++) {
            int c = i % v->ncells, pc = board[c];
            if (!pc || TC_COLOUR(pc) == col || (i < v->ncells) != (TC_TYPE(pc) == TC_KING))
                continue;
            int j = attack_joins(p, TC_TYPE(pc), !col, c, k);
            if (j < 0)
                continue;
            char kc[8], ac[8], why[200];
            tc_cell_name(v, k, kc);
            tc_cell_name(v, c, ac);
            joins_text(v, j, why, sizeof why);
            if (TC_TYPE(pc) == TC_KING)
                tc_set_error(err, "setup: the kings on %s and %s touch%s%s%s, and a king may not stand "
                             "next to the other", ac, kc, why[0] ? " (" : "", why, why[0] ? ")" : "");
            else
                tc_set_error(err, "setup: the %s king on %s is attacked by the %s %s on %s%s%s%s",
                             col ? "black" : "white", kc, col ? "white" : "black", names[TC_TYPE(pc)], ac,
                             why[0] ? " (" : "", why, why[0] ? ")" : "");
            return 0;
        }
    }
    return -1;
}

tc_variant *tc_variant_new(const tc_variant_def *def, tc_error *err)
{
    tc_variant *v = tc_variant_build(def, err);
    if (!v)
        return NULL;
    /* the setup must be a legal position on this board: for instance the
     * kings may not touch or attack each other across a join */
    tc_position *start = tc_position_new(v);
    if (!start) {
        tc_set_error(err, "out of memory");
        tc_variant_free(v);
        return NULL;
    }
    int bad = tc_position_set_fen(start, def->setup, err);
    /* a king attacked in the setup: say by what and across which join */
    if (bad && setup_check_reason(start, def->setup, err))
        tc_error_prefix(err, "setup: ");
    tc_position_free(start);
    if (bad) {
        tc_variant_free(v);
        return NULL;
    }
    return v;
}

tc_position *tc_position_new(const tc_variant *v)
{
    tc_position *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->v = v;
    tc_position_reset(p);
    return p;
}

void tc_position_reset(tc_position *p)
{
    tc_error err;
    if (tc_position_set_fen(p, p->v->def.setup, &err)) {
        /* the setup was validated when the variant was built; a setup whose
         * side not to move is in check can still fail here */
        tc_position_clear(p);
        p->ep = p->ep_victim = -1;
    }
}
