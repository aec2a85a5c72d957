/* topochess endgame: solved pawnless endings on any board of docs/rules.md.
 *
 * tc_egtb_solve builds, by retrograde analysis, the value of every position
 * of one material (kings included, at most 4 pieces on boards up to 128
 * cells, 3 pieces on any board) with either side to move: win, draw or
 * loss for the side to move and the distance to mate in plies. The
 * endings a capture leads to are solved first and kept in the same set,
 * so a set answers for its own material and every smaller one.
 *
 *   tc_egtb *t = tc_egtb_solve(variant, "KRK", NULL, &err);
 *   tc_egtb_result r;
 *   if (tc_egtb_probe(t, pos, &r) == 0 && r.wdl > 0) ... // side to move wins
 *   tc_egtb_free(t);
 *
 * Un-moves come from the variant's own tables (reverse leaps and rays),
 * and the board's symmetries (cell permutations that commute with its step
 * function, found from the tables) cut the work and the memory.
 */
#ifndef TOPOCHESS_ENDGAME_H
#define TOPOCHESS_ENDGAME_H

#include "topochess.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC_EGTB_MAX_PIECES 4
/* Distances are stored in one byte: at most this many plies. */
#define TC_EGTB_MAX_PLIES 252

typedef struct tc_egtb tc_egtb;

/// How a solve runs: worker threads (0: two), where progress lines go
/// (NULL: nowhere), and a size limit. Progress is written at most once a second, and only
/// once the solve has run for a second. on_pass (NULL: none) is called
/// after every pass over a table (the ending it solves, 0 after the first
/// pass that classifies the positions, then the plies done, and the
/// table's entries); a nonzero answer stops the solve, which then fails
/// with "stopped". For hosts without threads or files (the wasm module).
typedef struct tc_egtb_options {
    int threads;
    FILE *progress;
    uint64_t max_entries; /* refuse a main table larger than this (0: no limit of its own) */
    int (*on_pass)(void *ctx, const char *ending, int plies, uint64_t entries);
    void *ctx;
} tc_egtb_options;

/* Solves ENDING ("KQK", "KBNK", "KQKR": White's pieces from its king, then
 * Black's) and every ending its captures lead to. The side with more (or
 * stronger) pieces is made White. NULL with err set on a bad name, pawns,
 * too many pieces for the board, or no memory. */
tc_egtb *tc_egtb_solve(const tc_variant *v, const char *ending, const tc_egtb_options *opt,
                       tc_error *err);
void tc_egtb_free(tc_egtb *t);
/* The solved ending's normalised name (White the stronger side). */
const char *tc_egtb_name(const tc_egtb *t);
const tc_variant *tc_egtb_variant(const tc_egtb *t);
/* Symmetries of the board used by the solver (1: only the identity). */
int tc_egtb_symmetries(const tc_egtb *t);
/* 1 if the set holds the material of the position (either colours). */
int tc_egtb_has(const tc_egtb *t, const tc_position *p);

/// A probe's answer, for the side to move.
typedef struct tc_egtb_result {
    int wdl;   /* 1 win, 0 draw, -1 loss */
    int plies; /* to mate, when wdl != 0 (0: checkmated now) */
} tc_egtb_result;

/* 0 and the result if the set holds the position's material, else -1.
 * Castling rights, en passant and the move clocks are ignored. */
int tc_egtb_probe(const tc_egtb *t, const tc_position *p, tc_egtb_result *r);
/* The best legal move by the tables (quickest mate, slowest loss, a
 * drawing move), or 0 if the material is not held or nothing is legal. */
tc_move tc_egtb_best_move(const tc_egtb *t, tc_position *p, tc_egtb_result *r);

/// Positions of the solved ending by result, counted as real positions
/// (each symmetry class weighted by its size), for White and for Black to
/// move; the longest mate for the stronger side with it to move.
typedef struct tc_egtb_stats {
    uint64_t win[2], draw[2], loss[2]; /* [side to move]: for the side to move */
    uint64_t mates[2];                 /* checkmated side to move */
    int longest_plies[2];              /* longest win for the side to move */
    char longest_fen[2][720];          /* an example position of each, "" if none */
    char mate_fen[2][720];             /* a checkmate with that side to move, "" if none */
    uint64_t table_entries;            /* bytes of the main table */
    double seconds;                    /* time the solve took (all endings) */
} tc_egtb_stats;

void tc_egtb_stats_get(const tc_egtb *t, tc_egtb_stats *s);

/* The position's material as an ending name ("KQKR", White's pieces
 * first, not normalised) into name (16 bytes at least): 1 when the
 * position is pawnless with at most TC_EGTB_MAX_PIECES pieces. */
int tc_egtb_material_of(const tc_position *p, char *name);

/* Writes the set to DIR/<board>-<ENDING>.egtb (see tc_egtb_file_name) and
 * loads one back; loading checks that the file was made for this board. */
int tc_egtb_save(const tc_egtb *t, const char *dir, tc_error *err);
tc_egtb *tc_egtb_load(const tc_variant *v, const char *path, tc_error *err);
/* File name (no directory) of an ending on a board, like
 * "8x14-wrap-twist11-KQKR.egtb". */
void tc_egtb_file_name(const tc_variant *v, const char *ending, char *buf, size_t n);
/* Normalises an ending name into buf (>= 8 bytes), White the stronger side;
 * -1 with err set if it is not a pawnless material of 2..4 pieces. */
int tc_egtb_normalise(const char *ending, char *buf, tc_error *err);

/* ---------------------------------------------------------------- dead positions */

/* docs/rules.md section 6: a position is dead when no sequence of legal moves,
 * by either side, reaches a checkmate. Decided per position, on every
 * board (the flat one too), by a cooperative (help-mate) retrograde pass
 * over each pawnless material of at most TC_EGTB_MAX_PIECES pieces: start
 * from the checkmates of the material and the positions whose captures
 * reach a marked position of a smaller material, mark every position with
 * a legal move into a marked one, repeat until nothing changes. A legal
 * position of such a material is dead exactly when it is unmarked (a
 * checkmate is not dead, a stalemate is; K v K always). A position with
 * pawns, more pieces, or whose material's tables are over the size limit
 * is not dead, except on boards with open files and ranks the FIDE case of
 * kings and bishops all on one colour (tc_is_dead_position).
 *
 * A tc_dead_table keeps these marks for one board, one bit a position of
 * each material (after the board's symmetries): a material is marked the
 * first time it is needed (from the cache folder when one is set and holds
 * it, else computed and written there) and read after that. One table may
 * be shared by threads. */
typedef struct tc_dead_table tc_dead_table;

tc_dead_table *tc_dead_table_new(const tc_variant *v, tc_error *err);
void tc_dead_table_free(tc_dead_table *d);
/* Materials whose table has more entries than this are not computed (their
 * positions are not declared dead); 0: the solver's own limit. A raised
 * limit asks again about the materials left undecided so far. */
void tc_dead_table_set_limit(tc_dead_table *d, uint64_t max_entries);
/* A folder for the marks as files DIR/<board>-<MATERIAL>.dead (beside the
 * solved tables of tc_egtb_save); "" or NULL: none. */
void tc_dead_table_set_dir(tc_dead_table *d, const char *dir);

/// How many positions of one material are dead, counted as real positions
/// (symmetric copies counted, both sides to move, legal positions only).
typedef struct tc_dead_count {
    int tables;       /* 1 when the material was decided; 0 over the size limit */
    uint64_t entries; /* its table's entries */
    uint64_t dead, total;
} tc_dead_count;

/* The counts of a material ("KBKN", either side first), marking it if
 * needed: 0, or -1 with err set for a name that is no pawnless material
 * of 2..4 pieces. */
int tc_dead_material_count(tc_dead_table *d, const char *material, tc_dead_count *c, tc_error *err);
/* 1 if every position of the material is dead, 0 if not (or no tables),
 * -1 with err set for a bad name. */
int tc_dead_material(tc_dead_table *d, const char *material, tc_error *err);
/* 1 if the position is dead (marking its material if needed), else 0.
 * d NULL: tc_is_dead_position. */
int tc_dead_position(tc_dead_table *d, const tc_position *p);
/* The same from what is marked already: materials not marked yet count as
 * not dead. Never computes: for searches. */
int tc_dead_position_known(const tc_dead_table *d, const tc_position *p);
/* 1 when tc_dead_position_known's answer for p is final (its material is
 * marked, has no tables, or p is beyond them), 0 while the material still
 * waits to be marked. Never computes. */
int tc_dead_position_ready(const tc_dead_table *d, const tc_position *p);
/* tc_dead_position and the reason in words ("dead: ...", "not dead: ...")
 * into buf. */
int tc_dead_explain(tc_dead_table *d, const tc_position *p, char *buf, size_t n);
/* Can `side` (TC_WHITE or TC_BLACK) still checkmate its opponent from p by
 * some sequence of legal moves, both sides' moves chosen freely? The
 * question of FIDE 6.9 when the opponent's flag falls (a game lost on
 * time is drawn when the winner could never mate). 1 yes, 0 no (a king
 * alone, on any board, or the one-sided help-mate pass over the tables
 * of p's material and those its captures reach, made on first use: as
 * long as the two-sided pass), -1 not known (pawns, more than 4 pieces, a
 * table over the size limit). */
int tc_dead_can_mate(tc_dead_table *d, const tc_position *p, int side);
/* Marks, ahead of a search from p, every material that captures from p
 * can reach (none when p has pawns) whose table has at most max_entries
 * entries (0: the table's limit). */
void tc_dead_table_prepare(tc_dead_table *d, const tc_position *p, uint64_t max_entries);
/* tc_position_status with dead positions decided as above. */
tc_status tc_game_status(tc_dead_table *d, const tc_position *p);

#ifdef __cplusplus
}
#endif
#endif
