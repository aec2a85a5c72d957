/* Static evaluation read from the board's own topology. */
#ifndef TC_EVAL_H
#define TC_EVAL_H

#include "internal.h"

/// The evaluation's weights, in centipawns (tuned by bench/tune, see
/// eval_params.c): piece values, scales of the reach-derived cell values,
/// pawn progress, passed pawns by pushes left (1..7), pawn structure,
/// mobility per cell, king danger per attacked zone cell, king shield,
/// bishop pair, tempo; isolated pawns, rooks on open and half-open lines,
/// passed pawns' king distances and free paths, threats (pieces attacked by
/// pawns, majors by minors, queens by rooks, undefended pieces attacked);
/// pawns side by side, minor pieces on outposts, safe checks and open
/// lines at the king.
enum {
    EP_PAWN_MG, EP_PAWN_EG,
    EP_KNIGHT_MG, EP_KNIGHT_EG, EP_BISHOP_MG, EP_BISHOP_EG, EP_ROOK_MG, EP_ROOK_EG, EP_QUEEN_MG, EP_QUEEN_EG,
    EP_PST_N_MG, EP_PST_N_EG, EP_PST_B_MG, EP_PST_B_EG, EP_PST_R_MG, EP_PST_R_EG, EP_PST_Q_MG, EP_PST_Q_EG,
    EP_PST_K_MG, EP_PST_K_EG,
    EP_PAWN_PROG_MG, EP_PAWN_PROG_EG, /* halves of a centipawn per squared step */
    EP_PASSED_MG, EP_PASSED_EG = EP_PASSED_MG + 7,
    EP_DOUBLED_MG = EP_PASSED_EG + 7, EP_DOUBLED_EG, EP_DEFENDED_MG, EP_DEFENDED_EG,
    EP_MOB_N_MG, EP_MOB_N_EG, EP_MOB_B_MG, EP_MOB_B_EG, EP_MOB_R_MG, EP_MOB_R_EG, EP_MOB_Q_MG, EP_MOB_Q_EG,
    EP_DANGER_N, EP_DANGER_B, EP_DANGER_R, EP_DANGER_Q,
    EP_SHIELD, EP_BISHOP_PAIR_MG, EP_BISHOP_PAIR_EG, EP_TEMPO,
    EP_ISOLATED_MG, EP_ISOLATED_EG, EP_ROOK_OPEN_MG, EP_ROOK_OPEN_EG, EP_ROOK_SEMI_MG, EP_ROOK_SEMI_EG,
    EP_PASSER_KING_OWN, EP_PASSER_KING_THEM, EP_PASSER_FREE,
    EP_THREAT_PAWN_MG, EP_THREAT_PAWN_EG, EP_THREAT_MINOR_MG, EP_THREAT_MINOR_EG,
    EP_THREAT_ROOK_MG, EP_THREAT_ROOK_EG, EP_HANGING_MG, EP_HANGING_EG,
    EP_PHALANX_MG, EP_PHALANX_EG, EP_OUTPOST_N, EP_OUTPOST_B,
    EP_CHECK_N, EP_CHECK_B, EP_CHECK_R, EP_CHECK_Q, EP_KING_OPEN,
    EP_PST_P_MG, EP_PST_P_EG, EP_WEAK_PAWN_MG, EP_WEAK_PAWN_EG,
    EP_COUNT
};

typedef struct eval_params {
    int v[EP_COUNT];
} eval_params;

/* eval_params.c: the weights in use, and the names the tuner writes. */
extern const eval_params eval_default_params;
extern const char *const eval_param_names[EP_COUNT];

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
    tc_bits reach_mask[2][TC_MAX_CELLS]; /* enemy pawns here can come to attack the cell */
    tc_bits path[2][TC_MAX_CELLS];      /* cells of the pawn's path to promotion */
    tc_bits zone[TC_MAX_CELLS];         /* a king's cell and its neighbours */
    tc_bits line[TC_MAX_CELLS];         /* the cell and its north and south rays: its "file" */
    tc_bits beside[TC_MAX_CELLS];       /* king steps off that line: the "adjacent files" */
    uint8_t (*kdist)[TC_MAX_CELLS];     /* king steps between two cells (heap) */
    eval_params w;                      /* the weights the tables were built with */
} eval_table;

eval_table *eval_table_new(const tc_variant *v);
void eval_table_free(eval_table *t);
/* Rebuilds the weighted tables with other weights (the tuner). */
void eval_table_set_params(eval_table *t, const eval_params *w);
/* Centipawns for the side to move. */
int eval_position(const eval_table *t, const tc_position *p);
/* Material only (the baseline the full evaluation is measured against). */
int eval_material(const tc_position *p);
/* Material of the piece types, for move ordering and pruning margins. */
extern const int eval_piece_value[7];

#endif
