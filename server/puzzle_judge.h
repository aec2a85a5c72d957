/* The server's verdict on a puzzle attempt (docs/puzzles.md, "On the
 * hub"): the moves a player sent are replayed from the puzzle's position
 * and judged by the library, never by what the browser said.
 *
 * An ending puzzle is judged by the solved tables (tc_puzzle_check): every
 * move of the player must keep the win at the shortest distance (any such
 * move counts, not only the stored line's), and the defence is the tables'
 * own; the attempt is solved at the mate and failed at the first move that
 * is not best. The tables are solved on first use and kept, per board and
 * material, in a cache of SRV_JUDGE_TABLES sets (least recently used goes).
 * A tactic puzzle (kind "tactic", from play) is judged against its stored
 * line: the first move one of the accepted ones, each later move the
 * line's, the replies the line's.
 *
 * Limits: SRV_JUDGE_MAX_MOVES moves a try, each up to 15 bytes of SAN or
 * coordinates; tables of at most SRV_JUDGE_MAX_ENTRIES entries are solved
 * (a larger material is refused as unjudgeable: such puzzles are not
 * served); one solve at a time (a request that needs a set being solved
 * waits for it). */
#ifndef SRV_PUZZLE_JUDGE_H
#define SRV_PUZZLE_JUDGE_H

#include "topochess.h"

#define SRV_JUDGE_TABLES 6
#define SRV_JUDGE_MAX_ENTRIES 16000000ull
#define SRV_JUDGE_MAX_MOVES 64

typedef struct srv_judge srv_judge;

/// What the judge needs of a puzzle.
typedef struct srv_judge_puzzle {
    const tc_variant_def *def; /* the board (the site's page of the puzzle's variant) */
    const char *kind;          /* "ending" or "tactic" */
    const char *material;      /* an ending's "KRK" */
    const char *fen;
    const char *accepted;      /* a tactic's first moves (coordinates, spaces between) */
    const char *line;          /* a tactic's line */
} srv_judge_puzzle;

typedef enum {
    SRV_JUDGE_SOLVED = 1,
    SRV_JUDGE_FAILED = 0,
    SRV_JUDGE_BAD = -1,    /* the moves are malformed, illegal or stop short: message says which (400) */
    SRV_JUDGE_CANNOT = -2  /* the server cannot judge this puzzle (tables too large, out of memory): 503 */
} srv_judge_verdict;

typedef struct srv_judgement {
    srv_judge_verdict verdict;
    int failed_at;     /* FAILED: the player's move (0-based) that was not best */
    char moves[1200];  /* the moves as judged, coordinates, spaces between (stored with the attempt) */
    char message[800]; /* "solved: mate in 3", or the checker's sentence on the failing move */
} srv_judgement;

srv_judge *srv_judge_new(void);
void srv_judge_free(srv_judge *J);

/* Judges the moves (SAN or coordinates, separated by spaces or commas) of
 * the player from the puzzle's position; out says how it went. */
void srv_judge_attempt(srv_judge *J, const srv_judge_puzzle *p, const char *moves, srv_judgement *out);

/* Solves (or finds) the tables of a material on a board ahead of use:
 * 0, or -1 with err. */
int srv_judge_prepare(srv_judge *J, const tc_variant_def *def, const char *material, tc_error *err);

#endif
