/* Static evaluation read from the board's own topology. */
#ifndef TC_EVAL_H
#define TC_EVAL_H

#include "internal.h"

/// Per-variant evaluation tables, derived once from the variant's movement
/// tables so that every term follows the board's joins: piece-cell values
/// from empty-board reach, pawn progress along each pawn's real path, the
/// cells whose enemy pawns can stop a pawn, and king zones.
typedef struct eval_table {
    const tc_variant *v;
    int16_t pst_mg[7][TC_MAX_CELLS], pst_eg[7][TC_MAX_CELLS]; /* by piece type */
    int16_t pawn_mg[2][TC_MAX_CELLS], pawn_eg[2][TC_MAX_CELLS]; /* progress, by colour */
    int8_t promo_dist[2][TC_MAX_CELLS]; /* pushes to a promotion cell, -1 never */
    int8_t start_dist;                  /* promo distance of a pawn at its start */
    tc_bits stop_mask[2][TC_MAX_CELLS]; /* enemy pawns here keep a pawn from passing */
    tc_bits path[2][TC_MAX_CELLS];      /* cells of the pawn's path to promotion */
    tc_bits zone[TC_MAX_CELLS];         /* a king's cell and its neighbours */
} eval_table;

eval_table *eval_table_new(const tc_variant *v);
void eval_table_free(eval_table *t);
/* Centipawns for the side to move. */
int eval_position(const eval_table *t, const tc_position *p);
/* Material only (the baseline the full evaluation is measured against). */
int eval_material(const tc_position *p);
/* Material of the piece types, for move ordering and pruning margins. */
extern const int eval_piece_value[7];

#endif
