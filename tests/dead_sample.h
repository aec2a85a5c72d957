/* Random positions and random small glued boards for the dead-position
 * tests (test_dead.c, test_dead_side.c). */
#ifndef TC_DEAD_SAMPLE_H
#define TC_DEAD_SAMPLE_H

#include "topochess.h"

#include <stddef.h>
#include <stdint.h>

/* A number below n from the seed (xorshift). */
int dead_pick(uint64_t *seed, int n);
/* A random legal position of a material ("KQK": White's pieces, then
 * Black's) on v, the side not to move not in check; NULL after many tries. */
tc_position *dead_random_position(const tc_variant *v, const char *material, uint64_t *seed);
/* A random board of 3 to 5 files and ranks with a random gluing, the
 * kings in opposite corners (NULL when the gluing makes them touch); name
 * gets its description. */
tc_variant *dead_random_board(uint64_t *seed, char *name, size_t n);

#endif
