/* refgen: a second, deliberately plain legal move generator for the tests.
 *
 * It is written straight from docs/rules.md and shares nothing with the library
 * but the public accessors used to read a position: its own step function
 * (from the variant's W, H, file rule, rank rule and seam, exported as
 * rg_rules_step for the topology tests), its own reading
 * of the setup string, its own board copy and its own make. Legality is
 * decided by making the move and generating every enemy capture from
 * scratch. It is slow on purpose: the point is to be obviously right. */
#ifndef TC_REFGEN_H
#define TC_REFGEN_H

#include "topochess.h"

#include <stddef.h>
#include <stdint.h>

#define RG_MAX_MOVES 2048

/// One move in the library's cell numbering (y * W + x). kind uses the
/// library's TC_MOVE_* values, so castling is TC_MOVE_CASTLE_K/Q with `to`
/// the king's destination; aux is the cell passed over by a two-step push,
/// or the captured pawn's cell for en passant, else -1.
typedef struct rg_move {
    int from, to, promo, kind, aux;
} rg_move;

/// A position as refgen sees it: the variant's topology and the facts read
/// from its setup string, plus pieces, side, castling rights and en passant.
typedef struct rg_board {
    int w, h;
    tc_file_rule files;
    tc_rank_rule ranks;
    int seam;
    int back[2];          /* rank index of each colour's king in the setup */
    unsigned two_step[2]; /* bit y: that colour has pawns on rank y in the setup */
    int can_castle[2];    /* bits per colour: 1 O-O, 2 O-O-O: the setup has the king on
                           * e and that castling's rook on h or a, W >= 8 */
    unsigned char cell[TC_MAX_CELLS]; /* pieces as TC_PIECE values */
    int side, castling, ep;
} rg_board;

/// The result of one step: the cell reached (x, y) unless off, the
/// direction to go on in, and the frame transform (sx, sy) that the
/// crossing applied (-1 where it mirrored that axis).
typedef struct rg_step {
    int off;
    int x, y, dx, dy;
    int sx, sy;
} rg_step;

/* One unit step (dx, dy in -1..1) from (x, y) by docs/rules.md section 2. It
 * reads only the definition's size, file and rank rules and seam, so the
 * tests can hold the library's step tables against it. */
rg_step rg_rules_step(const tc_variant_def *d, int x, int y, int dx, int dy);

/* Reads a definition's setup (White to move, the castling rights its
 * placement allows). Returns 0, or -1 if the setup cannot be read. */
int rg_board_setup(const tc_variant_def *d, rg_board *b);
/* 1 if the setup is a legal start (docs/rules.md section 3 and the FEN rules of
 * section 7: one king a side, on different ranks, no pawn on a back rank,
 * the side not to move not in check), else 0; why says which. */
int rg_setup_legal(const tc_variant_def *d, char *why, size_t n);
/* Reads the variant and the position through the public API. Returns 0, or
 * -1 if the setup string cannot be read. */
int rg_board_from(const tc_position *p, rg_board *b);
/* Every legal move; returns the count (at most max). */
int rg_legal(const rg_board *b, rg_move *out, int max);
/* 1 if `by` attacks the cell. */
int rg_attacked(const rg_board *b, int cell, int by);
/* 1 if the side to move is in check. */
int rg_in_check(const rg_board *b);
/* Plays a move from rg_legal on the board (no legality check). */
void rg_make(rg_board *b, const rg_move *m);
uint64_t rg_perft(const rg_board *b, int depth);

#endif
