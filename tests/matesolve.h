/* Exact mate solvers for the mate suite (tests/data/mates.epd): plain
 * minimax over every move of both sides, with no pruning but the one that
 * cannot change the answer (a defence that escapes ends its node; the
 * attacker's last move must give check). One runs on the library's move
 * generator, the other on refgen's, which shares no code with the engine;
 * the generator (tools/mategen.c) and the suite (test_mates.c) compare
 * them. n counts the attacker's moves: a mate in n is 2n - 1 plies. */
#ifndef TC_MATESOLVE_H
#define TC_MATESOLVE_H

#include "refgen.h"
#include "topochess.h"

#include <stdint.h>

#define MS_MAX_MATE 6
#define MS_MAX_FIRST 64

/// What a solve found: the shortest mate (0: none within the limit, -1:
/// the node budget ran out) and every first move (UCI) that mates that
/// fast, sorted.
typedef struct ms_result {
    int n;
    int nfirst;
    char first[MS_MAX_FIRST][16];
    uint64_t nodes;
} ms_result;

/* Solves the side to move's shortest mate of at most max_n moves, with at
 * most `budget` positions visited (0: no limit). p is left as it was. */
void ms_solve_lib(tc_position *p, int max_n, uint64_t budget, ms_result *r);
/* The same on refgen's board and moves (cell names from p's variant). */
void ms_solve_ref(const tc_position *p, int max_n, uint64_t budget, ms_result *r);

#endif
