/* One dead-position verdict table per board per process, shared by every
 * hosted game (docs/rules-dead-positions.md, "Hosted games"). A material
 * not yet marked is marked by one background thread; a request waits for
 * it at most tg_dead_wait_ms and meanwhile the position is not declared
 * dead (the next move or status check ends the game once it is ready). */
#ifndef TG_DEAD_SHARE_H
#define TG_DEAD_SHARE_H

#include "topochess.h"

/* at most this many boards keep tables; positions of further boards are
 * decided by the rules' own cases only (tc_is_dead_position) */
#define TG_DEAD_BOARDS 8
/* a material whose tables are larger than this is not declared dead
 * (the 4-piece materials of the 8x14 presets have 11.2 million entries) */
#define TG_DEAD_MAX_ENTRIES (16u * 1000 * 1000)

/* tc_game_status for a position of a game on def, over the board's shared
 * table. Thread-safe; waits at most tg_dead_wait_ms. */
tc_status tg_dead_status(const tc_variant_def *def, const tc_position *p);

/* Can `side` still checkmate its opponent in the game's position (the
 * flag rule: tc_dead_can_mate over the board's shared table)? 1, 0, or
 * -1 not known. Marks the material for that side at the first flag that
 * asks (seconds for the largest 4-piece materials, once a process: a
 * flag is rare and its verdict final, so it is not left to the worker). */
int tg_dead_can_mate(const tc_variant_def *def, const tc_position *p, int side);

/* Test hooks: the longest wait of a request (default 250 ms), and the
 * board's shared table (NULL before its first pawnless position of at
 * most 4 pieces), to see that two games share one. */
void tg_dead_set_wait_ms(int ms);
const void *tg_dead_shared_table(const tc_variant_def *def);

#endif
