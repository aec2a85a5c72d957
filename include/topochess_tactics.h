/* topochess tactics: puzzles from play (docs/puzzles.md, "Tactics from
 * play"). A position is a tactic when one move of the side to move wins
 * clearly more than every other one: a mate, or a material gain, found by
 * a two-line (MultiPV 2) search and confirmed by a second one with four
 * times the nodes; the solution line is the winner's only good moves and
 * the engine's best defence, down to the mate or to the gain kept.
 *
 *   tc_engine *e = tc_engine_new(variant, 16, 1);
 *   tc_tactic_options o;
 *   tc_tactic_options_default(&o);
 *   tc_tactic t;
 *   tc_error err;
 *   int r = tc_tactic_find(e, pos, &o, &t, &err); // 1 tactic, 0 not, -1 error
 *
 * Every search starts from a cleared hash table (tc_engine_new_game) with
 * node limits, so with a one-thread engine the verdict and the line are a
 * function of the position and the options alone: the same on every run.
 * Themes come from what the solution's moves do on the board's joins
 * (tc_move_path, tc_attack_paths, tc_piece_lines of topochess_explain.h).
 */
#ifndef TOPOCHESS_TACTICS_H
#define TOPOCHESS_TACTICS_H

#include "topochess_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest solution line kept (plies). */
#define TC_TACTIC_MAX_LINE 24
/* A mate counts as this many centipawns when margins are taken. */
#define TC_TACTIC_MATE_VALUE 10000

/// What makes a tactic (docs/puzzles.md, "Selection rules").
typedef struct tc_tactic_options {
    uint64_t nodes;    /* nodes of the finding searches (default 20000) */
    int confirm;       /* the confirming search gets nodes * confirm (2..64, default 4) */
    int margin;        /* best minus second best, centipawns (default 200) */
    int min_score;     /* the best move's score at least (default 150) */
    int max_second;    /* the second best's score at most (default 300): not won anyway */
    int min_gain;      /* material the line must win, centipawns (default 200) */
    int line_margin;   /* margin of each later winner's move (default 150) */
    int max_line;      /* plies of the solution at most (1..TC_TACTIC_MAX_LINE, default 15) */
} tc_tactic_options;

void tc_tactic_options_default(tc_tactic_options *o);
/* 0, or -1 with err naming the first option out of range. */
int tc_tactic_options_check(const tc_tactic_options *o, tc_error *err);

/* Themes (bits of tc_tactic.themes); names by tc_tactic_theme_name. */
enum {
    TC_THEME_MATE = 1,          /* the line ends in checkmate */
    TC_THEME_MATERIAL = 2,      /* the line wins material (gain >= min_gain) */
    TC_THEME_FORK = 4,          /* a winner's move attacks two pieces worth taking */
    TC_THEME_WRAP = 8,          /* a winner's move crosses a join */
    TC_THEME_CHECK_JOIN = 16,   /* a winner's check along a line that crosses a join */
    TC_THEME_FORK_JOIN = 32,    /* a fork one of whose attacking lines crosses a join */
    TC_THEME_MATE_JOIN = 64     /* the mating move's check crosses a join */
};
#define TC_THEME_COUNT 7

/// One tactic puzzle.
typedef struct tc_tactic {
    char variant[64];
    char fen[720];
    int side;              /* the side to move: the winner */
    int mate;              /* moves to mate (the mating move included), 0 when material */
    int score, second;     /* the confirming search's two lines, centipawns (mates as +-10000) */
    int margin;            /* score - second */
    int found_score, found_second; /* the finding search's */
    int depth_found, depth_confirmed; /* completed iterations of the two searches */
    uint64_t nodes_found, nodes_confirmed;
    int gain;              /* material won by the line (P 1, N B 3, R 5, Q 9: in centipawns) */
    unsigned themes;       /* TC_THEME_* bits */
    int joins;             /* TC_JOIN_* bits crossed by the topological themes' moves and lines */
    int nline;             /* plies: the winner's moves and the replies between them */
    tc_move line[TC_TACTIC_MAX_LINE];
    char line_san[TC_TACTIC_MAX_LINE][24];
    char line_uci[TC_TACTIC_MAX_LINE][16];
    uint64_t key;          /* tc_tactic_class_key of the position */
} tc_tactic;

/* Decides whether the position is a tactic for e (of p's variant; hash
 * cleared first). 1 and *out filled; 0 when it is not one (why, in one
 * line, in reason when not NULL: n bytes); -1 with err on bad options or
 * a position of another variant. p is left as it was. */
int tc_tactic_find(tc_engine *e, const tc_position *p, const tc_tactic_options *o, tc_tactic *out,
                   char *reason, size_t n, tc_error *err);

/* A key for de-duplication: the smallest tc_key of the position under
 * every symmetry of the board's rules that applies to it (tc_symmetries;
 * syms/nsyms from the caller, who computes them once per variant; nsyms 0:
 * the position's own key). Two positions with the same key are the same
 * puzzle up to a mirror or a shift of the board. */
uint64_t tc_tactic_class_key(const tc_position *p, const tc_symmetry *syms, int nsyms);

/* "mate", "material", "fork", "wrap", "check-across-join",
 * "fork-across-join", "mate-across-join" for one TC_THEME_* bit; "" else. */
const char *tc_tactic_theme_name(unsigned theme);
/* The themes as words, e.g. "mate in 2, check across the file join":
 * what a page or a terminal shows (n bytes). */
void tc_tactic_theme_text(const tc_tactic *t, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
