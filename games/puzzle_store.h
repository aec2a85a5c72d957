/* Puzzles in the hosted games' database (docs/puzzles.md, "On the hub"):
 * the puzzles themselves with a Glicko-2 rating of their own, one overall
 * puzzle rating per player (as lichess keeps it), every attempt, and the
 * puzzle of each UTC day per variant. Rows and the rating arithmetic of
 * an attempt only: whether an attempt solved the puzzle is the server's
 * judgement (server/puzzle_judge.c), made with the solved endings.
 *
 * Limits: TP_PUZZLE_THEMES_MAX bytes of themes, TP_PUZZLE_LINE_MAX bytes
 * of a line in coordinates; the theme list of a variant reads at most
 * TP_PUZZLE_SCAN puzzles. Every function returns -1 with err on a
 * database fault. */
#ifndef TP_PUZZLE_STORE_H
#define TP_PUZZLE_STORE_H

#include "glicko2.h"
#include "people_db.h"

#define TP_PUZZLE_ID_LEN 16        /* 64-bit hash of variant and FEN, in hex */
#define TP_PUZZLE_THEMES_MAX 160
#define TP_PUZZLE_LINE_MAX 4096
#define TP_PUZZLE_SCAN 20000
#define TP_PUZZLE_START_RD 350.0   /* a new puzzle's deviation */

/// One puzzle. Moves are coordinates separated by single spaces.
typedef struct tp_puzzle_row {
    char id[TP_PUZZLE_ID_LEN + 1];
    char variant[64];
    char kind[16];              /* "ending" (solved endings) or "tactic" (from play) */
    char material[16];          /* "KRK"; "" for a tactic */
    char fen[720];
    int side;                   /* 0 White, 1 Black: the side to move, the solver */
    int mate_in;                /* an ending's mate; a tactic's moves of the solver */
    char accepted[160];         /* the first moves that count (an ending: every fastest mate's) */
    char line[TP_PUZZLE_LINE_MAX];     /* the main line */
    char line_san[TP_PUZZLE_LINE_MAX]; /* the same in SAN */
    char themes[TP_PUZZLE_THEMES_MAX]; /* "mate-in-3 KRK" */
    char title[128];
    tg_rating rating;
    int plays, solves;
    int64_t created_ms;
} tp_puzzle_row;

/// A player's puzzle rating.
typedef struct tp_puzzle_player {
    tg_rating rating;
    int attempts, solved; /* rated attempts, and how many solved */
} tp_puzzle_player;

/// What an attempt did.
typedef struct tp_puzzle_outcome {
    int rated;                     /* 1: the first attempt of this player at this puzzle */
    int n;                         /* this player's attempts at it before this one */
    tg_rating before, after;       /* the player's rating (after == before when unrated) */
    tg_rating puzzle_before, puzzle_after;
} tp_puzzle_outcome;

/// One line of a player's history.
typedef struct tp_puzzle_step {
    char puzzle_id[TP_PUZZLE_ID_LEN + 1];
    char variant[64], title[128];
    int solved, rated;
    double before, after;
    int64_t at_ms;
} tp_puzzle_step;

/* The id of a puzzle: FNV-1a 64 of "variant\nfen", 16 hex digits (the same
 * position on the same board is the same puzzle, however often imported). */
void tp_puzzle_make_id(const char *variant, const char *fen, char out[TP_PUZZLE_ID_LEN + 1]);
/* A new ending puzzle's rating: 1200 + 60 (mate_in - 1), capped at 2400,
 * deviation TP_PUZZLE_START_RD (docs/puzzles.md). */
tg_rating tp_puzzle_start_rating(int mate_in);

/* Adds a puzzle (its id, plays and solves are the row's): 1 added, 0 when
 * that id is there already (nothing changes), -1. */
int tp_puzzle_insert(tp_db *d, const tp_puzzle_row *p, tc_error *err);
/* 1 with out, 0 when there is no such id, -1. */
int tp_puzzle_get(tp_db *d, const char *id, tp_puzzle_row *out, tc_error *err);
/* The puzzles of a variant (theme NULL or "": any), -1. */
int tp_puzzle_count(tp_db *d, const char *variant, const char *theme, tc_error *err);
/* A puzzle of a variant (and theme) for a player: the one whose rating is
 * nearest theirs among those they never tried (all tried: nearest of
 * all, skip: the how-manyth); for a visitor (user_id NULL) the skip-th in
 * the order of ids, modulo the count. 1 with out, 0 none, -1. */
int tp_puzzle_pick(tp_db *d, const char *variant, const char *theme, const char *user_id, double rating,
                   unsigned skip, tp_puzzle_row *out, tc_error *err);
/* The puzzle of a UTC day (yyyymmdd) in a variant: chosen once, the first
 * time it is asked for (the day's hash picks it), then the same for
 * everyone that day across processes. 1 with out, 0 when the variant has
 * no puzzle, -1. */
int tp_puzzle_daily(tp_db *d, const char *variant, int day, tp_puzzle_row *out, tc_error *err);
/* The themes of a variant's puzzles, most puzzles first: the count written
 * (at most max, each up to 32 bytes), -1. */
int tp_puzzle_themes(tp_db *d, const char *variant, char (*out)[33], int *counts, int max, tc_error *err);

/* A player's puzzle rating: 1 with out, 0 when they never attempted one
 * (out gets the start rating), -1. */
int tp_puzzle_player_get(tp_db *d, const char *user_id, tp_puzzle_player *out, tc_error *err);
/* Records an attempt judged solved (1) or failed (0), with the moves sent.
 * The first attempt of a player at a puzzle is rated: in one transaction
 * both ratings move (tg_rating_after_game: the player scores solved
 * against the puzzle's rating, the puzzle 1 - solved against the
 * player's); later ones are kept unrated. 0 with out, -1. */
int tp_puzzle_attempt(tp_db *d, const char *user_id, const char *puzzle_id, int solved, const char *moves,
                      int64_t now_ms, tp_puzzle_outcome *out, tc_error *err);
/* The player's attempts, newest first: the count (at most max), -1. */
int tp_puzzle_history(tp_db *d, const char *user_id, tp_puzzle_step *out, int max, tc_error *err);

#endif
