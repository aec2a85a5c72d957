/* Static exchange evaluation on the variant's own attack tables: the
 * material outcome of the captures on one cell, each side taking with its
 * least valuable piece, as the board's rays, leaps and pawn captures allow
 * (x-rays included: a slider behind a capturer joins in). Pins are ignored. */
#ifndef TC_SEE_H
#define TC_SEE_H

#include "internal.h"

/* Values the exchange counts in (the king: more than everything else). */
extern const int see_value[7];
/* The exchange's outcome for the side playing m, in centipawns. */
int see(const tc_position *p, tc_move m);
/* see(p, m) >= threshold, with an early exit. */
bool see_ge(const tc_position *p, tc_move m, int threshold);

#endif
