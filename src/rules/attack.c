/* Attacks: whether a side attacks a cell, whether the side to move is in
 * check, and whether an en passant capture is legal (which the position's key
 * depends on). Below position.c and movegen.c, which both use them. */
#include "attack.h"

bool tc_attacked_occ(const tc_position *p, int cell, int by)
{
    return attacked_sim(p, cell, by, -1, -1, -1);
}

int tc_attacked(const tc_position *p, int cell, int colour)
{
    if (cell < 0 || cell >= p->v->ncells)
        return 0;
    return attacked_sim(p, cell, colour & 1, -1, -1, -1);
}

int tc_in_check(const tc_position *p)
{
    return attacked_sim(p, p->king[p->side], !p->side, -1, -1, -1);
}

bool tc_ep_capture_legal(const tc_position *p, int from)
{
    int us = p->side;
    return !attacked_sim(p, p->king[us], !us, from, p->ep_victim, p->ep);
}

bool tc_ep_possible(const tc_position *p)
{
    const tc_variant *v = p->v;
    int us = p->side, e = p->ep;
    if (e < 0)
        return false;
    for (int i = 0; i < v->npcap_from[us][e]; i++) {
        int c = v->pcap_from[us][e][i];
        if (p->board[c] == TC_PIECE(us, TC_PAWN) && tc_ep_capture_legal(p, c))
            return true;
    }
    return false;
}

