/* deadref: dead positions (docs/rules.md section 6) by a plain forward search,
 * for the tests; see deadref.c. */
#ifndef TC_DEADREF_H
#define TC_DEADREF_H

#include "topochess.h"

#include <stddef.h>
#include <stdint.h>

enum { DEADREF_ALIVE = 0, DEADREF_DEAD = 1, DEADREF_UNKNOWN = -1 };

/* Searches every position reachable from start (pawnless, at most 4
 * pieces) for a checkmate: DEADREF_ALIVE when one is found (start itself
 * included), DEADREF_DEAD when every reachable position was seen and none
 * is one, DEADREF_UNKNOWN when more than `budget` positions would be
 * needed. *seen: the positions it queued. */
int deadref_reach(const tc_position *start, size_t budget, size_t *seen);

/* The same, going only through the positions for which keep answers 1:
 * with keep "the library says not dead", a mate found is a help-mate line
 * checked move by move, so it confirms every "not dead" on it. */
typedef int (*deadref_keep)(void *ctx, const tc_position *p);
int deadref_reach_through(const tc_position *start, size_t budget, size_t *seen, deadref_keep keep, void *ctx);

/* The same, a checkmate of the side `victim` only (TC_WHITE or
 * TC_BLACK): DEADREF_ALIVE when its opponent can still mate it. */
int deadref_reach_mate_of(const tc_position *start, int victim, size_t budget, size_t *seen);

#endif
