/* Endgame tables: internals shared by the board geometry (board.c),
 * materials (material.c), the retrograde solver (solve.c) and probing,
 * statistics and files (probe.c).
 * Not installed; the public API is topochess_endgame.h. */
#ifndef TC_EGTB_H
#define TC_EGTB_H

#include "internal.h"
#include "topochess_endgame.h"

#include <stdatomic.h>

#define EG_MAXP TC_EGTB_MAX_PIECES
#define EG_NOT_ON_RAY 255

/* Stored values, one byte per position, for the side to move: 0 draw (or
 * not yet known while solving); 1 + plies to mate, odd plies a win, even a
 * loss; then two markers. */
#define EG_DRAW 0
#define EG_NONCANON 254 /* a symmetric copy of another entry, never read */
#define EG_ILLEGAL 255  /* pieces overlap, or the side not to move is in check */

static inline bool eg_is_value(int b) { return b >= 1 && b <= TC_EGTB_MAX_PLIES + 1; }
static inline bool eg_is_win(int b) { return eg_is_value(b) && ((b - 1) & 1); }
static inline bool eg_is_loss(int b) { return eg_is_value(b) && !((b - 1) & 1); }

/// The board as the solver sees it: the symmetries found from the step
/// tables, the orbits of cells under them (the first piece, White's king,
/// is kept on an orbit's representative) and attack tables that answer
/// "does a piece on f reach t past these blockers" in a few lookups.
typedef struct eg_board {
    const tc_variant *v;
    int n;                           /* cells */
    int nsym;                        /* symmetries, the identity first */
    uint8_t (*sym)[TC_MAX_CELLS];    /* cell permutations */
    int nrep;                        /* orbits of cells */
    uint8_t reps[TC_MAX_CELLS];      /* representative of each orbit */
    int16_t rep_index[TC_MAX_CELLS]; /* orbit number of a representative, else -1 */
    uint16_t to_rep[TC_MAX_CELLS];   /* a symmetry taking the cell to its representative */
    uint16_t *stab;                  /* per orbit: the symmetries fixing its representative */
    int stab_off[TC_MAX_CELLS], stab_len[TC_MAX_CELLS];
    uint8_t leap[TC_MAX_CELLS][TC_MAX_CELLS];   /* bit 0 king step, bit 1 knight leap */
    uint8_t raydir[TC_MAX_CELLS][TC_MAX_CELLS]; /* bit d: t lies on the ray from f in direction d */
    uint8_t (*raypos)[TC_MAX_CELLS][TC_MAX_CELLS]; /* [d][f][t]: index on that ray */
    bool reversible; /* each step undone by the reverse step: rays from t are reverse rays */
} eg_board;

/// One material: its pieces (0 White's king, 1 Black's king, then White's
/// and Black's other pieces, Q R B N order), its values, and for each
/// capturable piece the table of the material left and how pieces map.
typedef struct eg_table {
    char name[8];
    int k;
    int colour[EG_MAXP], type[EG_MAXP];
    bool twin; /* pieces 2 and 3 are alike: entries keep them sorted */
    uint64_t size;
    _Atomic uint8_t *val;
    uint64_t *mark; /* dead.c's help-mate pass: bit set when a checkmate is reachable */
    _Atomic int mark_state; /* 0 not made, 1 made, 2 no tables (too large, or out of memory) */
    /* the one-sided passes (tc_dead_can_mate): bit set when a checkmate of
     * the side of colour c (as the table colours its pieces) is reachable */
    uint64_t *mated[2];
    _Atomic int mated_state[2]; /* as mark_state */
    struct eg_table *sub[EG_MAXP];
    bool sub_swap[EG_MAXP];      /* the smaller material has the colours swapped */
    int sub_map[EG_MAXP][EG_MAXP]; /* sub piece i = parent piece sub_map[j][i] */
} eg_table;

#define EG_MAX_TABLES 32
/* At most this many entries in one table (two times 128^4 bytes). */
#define EG_MAX_ENTRIES (2ull * 128 * 128 * 128 * 128)

struct tc_egtb {
    eg_board b;
    int ntables;
    eg_table *tables[EG_MAX_TABLES]; /* smaller endings first, the main one last */
    eg_table *main;
    double seconds;
};

/* board.c */
int eg_board_init(eg_board *b, const tc_variant *v, tc_error *err);
void eg_board_free(eg_board *b);
/* 1 if a piece of `type` on f attacks t; blockers are the other occupied
 * cells (f and t themselves may be among them). */
bool eg_attacks(const eg_board *b, int type, int f, int t, const uint8_t *occ, int nocc);

/// A move of the solver: which piece goes where, and which piece (if any)
/// it takes.
typedef struct {
    uint8_t piece, to;
    int8_t victim;
} eg_move;

/* Called with each legal move as it is found (sq still the position
 * before it); false stops the generator. */
typedef bool (*eg_move_visit)(void *ctx, uint8_t *sq, const eg_move *m);
/* Called with each predecessor position of an un-move. */
typedef void (*eg_unmove_fn)(void *ctx, const uint8_t *sq);

/* solve.c */
/* Every legal move of the side to move, to fn until it answers false;
 * returns how many were visited. */
int eg_visit_moves(const eg_board *b, const eg_table *t, uint8_t *sq, int stm, eg_move_visit fn, void *ctx);
/* Calls back with every predecessor by a non-capturing un-move of a piece
 * of `mover` (the side that just moved): the cells from which that piece
 * could have come, from the reverse leap tables and the reverse rays. No
 * legality test of the predecessor. */
void eg_gen_unmoves(const eg_board *b, const eg_table *t, uint8_t *sq, int mover, eg_unmove_fn fn, void *ctx);
/* Is the king of `side` attacked, with piece `gone` taken off (-1: none)? */
bool eg_king_attacked(const eg_board *b, const eg_table *t, const uint8_t *sq, int side, int gone);
/* The side to move is checkmated (in check, no legal move). */
bool eg_mated(const eg_board *b, const eg_table *t, uint8_t *sq, int stm);
uint64_t eg_index_raw(const eg_board *b, const eg_table *t, int stm, const uint8_t *sq);
uint64_t eg_canon(const eg_board *b, const eg_table *t, int stm, const uint8_t *sq);
void eg_decode(const eg_board *b, const eg_table *t, uint64_t idx, int *stm, uint8_t *sq);
/* The stored value of a position given by cells in the table's order. */
int eg_lookup(const eg_board *b, const eg_table *t, int stm, const uint8_t *sq);
int eg_solve_table(tc_egtb *set, eg_table *t, const tc_egtb_options *opt, tc_error *err);

/* probe.c */
/* The table of the position's material in the set and its cells in the
 * table's order; *swap says White and Black are exchanged. NULL if the set
 * does not hold it. */
const eg_table *eg_match(const tc_egtb *set, const tc_position *p, uint8_t *sq, int *swap);
/* The FEN of a position given by cells in the table's order (no rights,
 * clocks 0 1); size >= 720. */
void eg_table_fen(const tc_egtb *set, const eg_table *t, int stm, const uint8_t *sq, char *buf, size_t size);

/* helpmate.c */
/* The help-mate pass of docs/rules.md section 6 over table t, whose smaller
 * tables (t->sub) are marked already: sets t->mark and t->mark_state. */
int eg_helpmate(const eg_board *b, eg_table *t, tc_error *err);
/* The same pass, one-sided: only checkmates of the side of colour c (0 or
 * 1, the table's colours) start it, and captures lead into the smaller
 * tables' marks of that side (t->sub[j]->mated[c ^ t->sub_swap[j]], made
 * already): sets t->mated[c] and t->mated_state[c]. When the flag of
 * the side of colour c falls, FIDE 6.9 asks whether its opponent can
 * still mate it: whether the position is marked here. */
int eg_helpmate_side(const eg_board *b, eg_table *t, int c, tc_error *err);
/* Bit i of a mark set. */
static inline bool eg_marked(const eg_table *t, uint64_t i) { return (t->mark[i >> 6] >> (i & 63)) & 1; }
/* The help-mate marks of t as a cache file DIR/<board>-<MATERIAL>.dead:
 * 0 when loaded (and t marked), -1 when there is none that fits. */
int eg_dead_load(const eg_board *b, eg_table *t, const char *dir);
int eg_dead_save(const eg_board *b, const eg_table *t, const char *dir);
/* Real positions in the class of entry idx (symmetric copies counted). */
uint64_t eg_class_size(const eg_board *b, const eg_table *t, uint64_t idx);

/* material.c */
/* Parses "KQKR" into a table's pieces (not normalised); -1 if invalid. */
int eg_material(const char *name, eg_table *t, tc_error *err);
/* Adds the table of `name` (normalised) and every smaller one to the set. */
eg_table *eg_set_add(tc_egtb *set, const char *name, tc_error *err);

#endif
