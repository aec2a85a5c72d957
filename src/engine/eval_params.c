/* The evaluation's weights. Written by hand at first; bench/tune (see the
 * README) rewrites this file with weights fitted to game results. */
#include "eval.h"

const char *const eval_param_names[EP_COUNT] = {
    "PAWN_MG", "PAWN_EG", "KNIGHT_MG", "KNIGHT_EG", "BISHOP_MG", "BISHOP_EG",
    "ROOK_MG", "ROOK_EG", "QUEEN_MG", "QUEEN_EG", "PST_N_MG", "PST_N_EG",
    "PST_B_MG", "PST_B_EG", "PST_R_MG", "PST_R_EG", "PST_Q_MG", "PST_Q_EG",
    "PST_K_MG", "PST_K_EG", "PAWN_PROG_MG", "PAWN_PROG_EG", "PASSED_MG_1", "PASSED_MG_2",
    "PASSED_MG_3", "PASSED_MG_4", "PASSED_MG_5", "PASSED_MG_6", "PASSED_MG_7", "PASSED_EG_1",
    "PASSED_EG_2", "PASSED_EG_3", "PASSED_EG_4", "PASSED_EG_5", "PASSED_EG_6", "PASSED_EG_7",
    "DOUBLED_MG", "DOUBLED_EG", "DEFENDED_MG", "DEFENDED_EG", "MOB_N_MG", "MOB_N_EG",
    "MOB_B_MG", "MOB_B_EG", "MOB_R_MG", "MOB_R_EG", "MOB_Q_MG", "MOB_Q_EG",
    "DANGER_N", "DANGER_B", "DANGER_R", "DANGER_Q", "SHIELD", "BISHOP_PAIR_MG",
    "BISHOP_PAIR_EG", "TEMPO", "ISOLATED_MG", "ISOLATED_EG", "ROOK_OPEN_MG", "ROOK_OPEN_EG",
    "ROOK_SEMI_MG", "ROOK_SEMI_EG", "PASSER_KING_OWN", "PASSER_KING_THEM", "PASSER_FREE",
    "THREAT_PAWN_MG", "THREAT_PAWN_EG", "THREAT_MINOR_MG", "THREAT_MINOR_EG", "THREAT_ROOK_MG",
    "THREAT_ROOK_EG", "HANGING_MG", "HANGING_EG", "PHALANX_MG", "PHALANX_EG", "OUTPOST_N",
    "OUTPOST_B", "CHECK_N", "CHECK_B", "CHECK_R", "CHECK_Q", "KING_OPEN",
    "PST_P_MG", "PST_P_EG", "WEAK_PAWN_MG", "WEAK_PAWN_EG",
};

const eval_params eval_default_params = {{
    100, 100, 320, 300, 330, 320, 480, 530, 950, 1000,
    8, 6, 5, 4, 2, 2, 2, 3, -3, 4,
    3, 6, 70, 45, 28, 16, 10, 6, 4, 130,
    85, 52, 32, 20, 12, 8, 8, 16, 6, 8,
    4, 4, 4, 4, 2, 4, 1, 2, 3, 3,
    4, 6, 10, 30, 50, 10,
    12, 16, 40, 15, 18, 8,
    2, 5, 30,
    60, 45, 45, 35,
    40, 20, 25, 15,
    8, 10, 25, 12,
    8, 6, 8, 6, 15,
    2, 0, 5, 15,
}};
