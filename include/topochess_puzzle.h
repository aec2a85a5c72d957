/* topochess puzzles: mate puzzles from the solved endings, and the checker
 * that judges a player's move against the tables (docs/puzzles.md).
 *
 *   tc_egtb *t = tc_egtb_solve(variant, "KRK", NULL, &err);
 *   tc_puzzle_options o;
 *   tc_puzzle_options_default(&o);
 *   tc_puzzle *list = calloc(20, sizeof *list);
 *   int n = tc_puzzles_generate(t, &o, list, 20, &err);
 *   ...
 *   tc_puzzle_answer a;
 *   tc_puzzle_check(t, pos, "Rh8", &a); // best, slower, not winning, illegal
 *
 * Everything is read from a solved set (tc_egtb): nothing is searched and
 * nothing is kept between calls, so one set serves any number of callers.
 * The defence is the tables' own: the move that delays mate longest.
 */
#ifndef TOPOCHESS_PUZZLE_H
#define TOPOCHESS_PUZZLE_H

#include "topochess_endgame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many moves count as best at the start of a puzzle. */
#define TC_PUZZLE_MAX_ACCEPTED 8
/* The longest line a puzzle keeps (plies): every mate the tables hold. */
#define TC_PUZZLE_MAX_LINE (TC_EGTB_MAX_PLIES + 1)

/// What tc_puzzles_generate selects (docs/puzzles.md, "Selection"):
/// mates of min_mate..max_mate moves for the side to move, with at most
/// max_best moves that mate that fast, drawn in an order fixed by seed.
typedef struct tc_puzzle_options {
    int min_mate, max_mate; /* moves of the winner, 1..126 (default 3..15) */
    int max_best;           /* 1..TC_PUZZLE_MAX_ACCEPTED (default 1: one best move) */
    int allow_check;        /* 1: the side to move may start in check (default 0) */
    uint64_t seed;          /* the same seed and tables give the same puzzles */
} tc_puzzle_options;

void tc_puzzle_options_default(tc_puzzle_options *o);

/// One puzzle: the position, who mates in how many moves, the moves that
/// count as best at the start, and the main line (the winner's best moves,
/// the first of the accepted ones where several are; the tables' longest
/// defence), in SAN and coordinates.
typedef struct tc_puzzle {
    char variant[64];   /* the variant's name, as tc_preset_find reads it for a preset */
    char material[16];  /* "KQKR": White's pieces first */
    char fen[720];
    int side;           /* TC_WHITE or TC_BLACK: the side to move, which mates */
    int mate_in;        /* moves of that side, the mating move included */
    int naccepted;
    char accepted_san[TC_PUZZLE_MAX_ACCEPTED][24];
    char accepted_uci[TC_PUZZLE_MAX_ACCEPTED][16];
    int nline;          /* plies: 2 * mate_in - 1 */
    char line_san[TC_PUZZLE_MAX_LINE][24];
    char line_uci[TC_PUZZLE_MAX_LINE][16];
    char title[128];    /* "White mates in 6 on the Klein bottle" */
} tc_puzzle;

/* Up to max puzzles of the set's main material into out, in the order a
 * walk of the table fixed by o->seed meets them; returns how many (fewer
 * when the table holds fewer that pass), or -1 with err set on bad
 * options. No two are the same position under the board's symmetries
 * (tc_symmetries). */
int tc_puzzles_generate(const tc_egtb *t, const tc_puzzle_options *o, tc_puzzle *out, int max, tc_error *err);

/* "White mates in 6 on the Klein bottle": the board named from its joins
 * (a flat board, a cylinder, a torus, a Moebius strip, a Klein bottle, a
 * folded board). */
void tc_puzzle_title(const tc_variant *v, int side, int mate_in, char *buf, size_t n);

/* The moves of the side to move that keep its win at the shortest
 * distance (at most max into out); returns how many there are in all, 0
 * when the side to move does not win, -1 when the set does not hold the
 * position's material. p is left as it was. */
int tc_puzzle_best_moves(const tc_egtb *t, tc_position *p, tc_move *out, int max);

/// The checker's verdict on one move of the solver.
typedef enum {
    TC_PUZZLE_BEST = 0,     /* keeps the win at the shortest distance: accepted */
    TC_PUZZLE_SLOWER,       /* keeps the win, slower_by moves slower */
    TC_PUZZLE_NOT_WINNING,  /* a draw or a loss (wdl_after) */
    TC_PUZZLE_ILLEGAL       /* not a legal move: message says why */
} tc_puzzle_verdict;

/// The checker's answer: the verdict, the distances, the tables' reply
/// and one line of text for a terminal or a page.
typedef struct tc_puzzle_answer {
    tc_puzzle_verdict verdict;
    tc_move move;           /* the move (0 when illegal) */
    char move_san[24];
    int mate_before;        /* the side to move mated in this many moves before the move */
    int wdl_after;          /* for the mover after the move: 1 win, 0 draw, -1 loss */
    int mate_after;         /* win: the mover's moves to mate counted from before the move */
    int slower_by;          /* SLOWER: mate_after - mate_before */
    int mates;              /* 1 when the move itself checkmates (the puzzle is solved) */
    tc_move reply;          /* the tables' defence to the move, 0 when the game is over */
    char reply_san[24];
    char reply_uci[16];
    char message[800];      /* "best: Rh8 keeps mate in 3", "illegal move 'Kb9': ..." */
} tc_puzzle_answer;

/* Judges the move text (SAN or coordinates) in p, whose side to move must
 * win by the tables. 0 with *a filled; -1 with err set when the set does
 * not hold p's material or the side to move does not win there. p is left
 * as it was: the caller plays a->move and a->reply to go on. */
int tc_puzzle_check(const tc_egtb *t, tc_position *p, const char *text, tc_puzzle_answer *a, tc_error *err);

#ifdef __cplusplus
}
#endif
#endif
