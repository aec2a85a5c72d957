/* What kind of move a move is, read from the position before it is made:
 * shared by move ordering (search.c), the histories (history.c) and the
 * searches' pruning. */
#ifndef TC_MOVEKIND_H
#define TC_MOVEKIND_H

#include "internal.h"

static inline bool is_capture(const tc_position *p, tc_move m)
{
    int k = TC_MOVE_KIND(m);
    return (p->board[TC_MOVE_TO(m)] && k != TC_MOVE_CASTLE_K && k != TC_MOVE_CASTLE_Q) || k == TC_MOVE_EP;
}

static inline bool quiet_move(const tc_position *p, tc_move m) { return !is_capture(p, m) && !TC_MOVE_PROMO(m); }

static inline int victim_type(const tc_position *p, tc_move m)
{
    return TC_MOVE_KIND(m) == TC_MOVE_EP ? TC_PAWN : TC_TYPE(p->board[TC_MOVE_TO(m)]);
}

#endif
