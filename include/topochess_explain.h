/* topochess explain: why the board is as it is.
 *
 * On these boards a line of attack can cross the file join, a twist, a fold
 * or the rank join, so "the bishop gives check" is not enough for a player:
 * the path matters. This header turns the rules library's tables into
 * paths (cells in order plus the joins each step crosses) and into reasons
 * (why a move text is not a legal move here).
 *
 * Everything here fills caller-owned structs and buffers and does no I/O, so
 * that a GUI or a WebAssembly module can draw the same paths that the
 * terminal prints. The structs are large (a path holds up to TC_MAX_CELLS
 * cells): allocate tc_path_set and tc_explanation on the heap.
 *
 *   tc_path_set *set = malloc(sizeof *set);
 *   tc_attack_paths(pos, tc_king_cell(pos, side), !side, set);
 *   for (int i = 0; i < set->count; i++) {
 *       char text[512];
 *       tc_path_text(tc_position_variant(pos), &set->paths[i], text, sizeof text);
 *   }
 */
#ifndef TOPOCHESS_EXPLAIN_H
#define TOPOCHESS_EXPLAIN_H

#include "topochess.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- joins */

/* The joins (TC_JOIN_* of topochess.h) crossed by the step from `cell` in
 * direction dir (0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW); 0 for a plain
 * step or a step off the board. Read from the variant's step tables, which
 * record what the step function did at each step. */
int tc_step_joins(const tc_variant *v, int cell, int dir);

/* The marker tc_path_text writes for a join bit: "~" file join, "|" rank
 * join, "=" twist, "^" fold ("" for anything else). */
const char *tc_join_marker(int join);
/* Writes a legend of the markers present in `joins` (an OR of TC_JOIN_*
 * bits), e.g. "~ file join, = twist, | rank join"; "" when joins is 0. */
void tc_join_legend(int joins, char *buf, size_t n);

/* ---------------------------------------------------------------- paths */

#define TC_PATH_MAX_CELLS TC_MAX_CELLS
#define TC_PATHS_MAX 64

/// How a path was made: which rule of docs/rules.md section 4 moves the piece.
typedef enum {
    TC_LINE_RAY = 0,     /* rook, bishop or queen: repeated steps */
    TC_LINE_STEP,        /* king: one step */
    TC_LINE_LEAP,        /* knight: one orthogonal step, then one diagonal */
    TC_LINE_PAWN_PUSH,   /* pawn: one or two forward steps */
    TC_LINE_PAWN_CAPTURE,/* pawn: one forward-diagonal step */
    TC_LINE_CASTLE       /* king's part of castling, along its back rank */
} tc_line_kind;

/// Why a line ends where it does.
typedef enum {
    TC_END_TARGET = 0, /* it reached the cell asked about (attack paths, move paths) */
    TC_END_OFF,        /* the next step leaves the board */
    TC_END_OWN,        /* the next cell holds a piece of the mover's side (not included) */
    TC_END_PIECE,      /* the last cell holds a piece: an enemy to capture, or
                        * in attack lines any piece (attacked or defended) */
    TC_END_RETURN,     /* the next step returns to the piece's own cell */
    TC_END_SHORT       /* leaps, steps and pawn moves: the move is complete */
} tc_line_end;

/// One line of a piece: the cells it passes, in order, starting after its
/// own cell, and the joins crossed by the step into each of them. For a
/// knight the first cell is the one its orthogonal step passes over (the
/// leap does not need it empty), the second where it lands.
typedef struct tc_path {
    int piece;     /* TC_PIECE value of the piece on `from` */
    int from;      /* the piece's cell */
    int kind;      /* tc_line_kind */
    int dir;       /* direction of the first step, 0..7 */
    int end;       /* tc_line_end */
    int len;       /* cells in cells[] */
    int truncated; /* 1 if the line had more than TC_PATH_MAX_CELLS cells */
    int joins_all; /* OR of joins[] */
    int16_t cells[TC_PATH_MAX_CELLS];
    uint8_t joins[TC_PATH_MAX_CELLS]; /* TC_JOIN_* bits of the step into cells[i] */
} tc_path;

/// A list of paths. `total` counts every path found; at most TC_PATHS_MAX
/// of them are stored (count).
typedef struct tc_path_set {
    int count;
    int total;
    tc_path paths[TC_PATHS_MAX];
} tc_path_set;

/* Every line along which a piece of `colour` attacks `cell` in the current
 * position: one path per attacking line, ending at `cell` (end
 * TC_END_TARGET). One piece may attack along several lines at once (a rook
 * on a torus file, from both sides; a knight by two different leaps), and
 * each line is listed. Pawns attack with their capture steps only. Returns
 * total (0 when the cell is not attacked, -1 for a bad cell). A piece on
 * `cell` itself is not an attacker of it. */
int tc_attack_paths(const tc_position *p, int cell, int colour, tc_path_set *out);

/* What the piece on `cell` can do, as lines from its cell.
 * TC_LINES_MOVES: where it may move if its own king's safety is ignored:
 *   rays up to an own piece (excluded) or an enemy (included), pushes onto
 *   empty cells, captures of enemies or en passant, castling not included.
 * TC_LINES_ATTACKS: the cells it attacks: rays up to the first piece of
 *   either colour (included), pawn capture steps whether a piece stands
 *   there or not, no pushes.
 * Returns total, 0 for an empty cell, -1 for a bad cell or mode. */
enum { TC_LINES_MOVES = 0, TC_LINES_ATTACKS = 1 };
int tc_piece_lines(const tc_position *p, int cell, int mode, tc_path_set *out);

/* The path a move of the side to move takes, ending at its destination
 * (castling: the king's cells). When several lines lead there, the
 * shortest, then the one crossing fewest joins. Returns 0, or -1 when no
 * line of the piece reaches the destination (not a move of that piece). */
int tc_move_path(const tc_position *p, tc_move m, tc_path *out);

/* Writes a path's cells with the joins marked between them:
 * "b9 a10 ~ h11 = b12 c13 d14 | e1" (see tc_join_marker). Truncated lines
 * end in "...". Returns the length written (as snprintf). */
int tc_path_text(const tc_variant *v, const tc_path *path, char *buf, size_t n);

/* "pawn", "knight", "bishop", "rook", "queen", "king" for a piece or type;
 * "piece" for anything else. */
const char *tc_piece_name(int piece);

/* ---------------------------------------------------------------- reasons */

/// Why a move text is or is not a legal move in a position.
typedef enum {
    TC_WHY_LEGAL = 0,       /* it is legal: move holds it */
    TC_WHY_SYNTAX,          /* not a move text (message has a hint) */
    TC_WHY_NO_PIECE,        /* no piece of the side to move where the text says */
    TC_WHY_NOT_YOURS,       /* the named cell holds a piece of the other side */
    TC_WHY_CANNOT_REACH,    /* the piece(s) cannot go there; candidates lists where they can */
    TC_WHY_KING_ATTACKED,   /* a move of the piece, but the own king would be
                             * attacked after it: attackers holds each line */
    TC_WHY_AMBIGUOUS,       /* several legal moves fit: candidates lists them */
    TC_WHY_NEEDS_PROMOTION, /* a pawn reaching the last rank needs a piece letter */
    TC_WHY_CANNOT_CASTLE,   /* castling is not possible: the reason, and the
                             * attacking lines when a cell is attacked */
    TC_WHY_GAME_OVER        /* the position is mate, stalemate or drawn: status says which */
} tc_why;

#define TC_EXPLAIN_CANDIDATES 64

/// The answer of tc_explain_move: the reason as data (cells, moves, paths)
/// for a GUI, and as one line of text naming cells for a terminal.
typedef struct tc_explanation {
    tc_why why;
    tc_move move;   /* LEGAL: the move; KING_ATTACKED: the move that would expose the king */
    int from, to;   /* the cells the text names or implies, -1 when unknown */
    int piece;      /* the moving piece (TC_PIECE value), 0 when unknown */
    tc_status status; /* GAME_OVER: why the game is over */
    int king;       /* KING_ATTACKED, CANNOT_CASTLE: the cell that would be attacked */
    /* AMBIGUOUS: the legal moves the text could mean. CANNOT_REACH: the
     * legal moves of the piece(s) the text names. */
    int ncandidates;
    tc_move candidates[TC_EXPLAIN_CANDIDATES];
    /* CANNOT_REACH: the piece's line towards `to` up to the piece that
     * blocks it (len 0 when no line of the piece leads there at all). */
    tc_path blocked;
    int blocker;    /* the blocking cell, -1 if none */
    /* KING_ATTACKED, CANNOT_CASTLE: the attacking lines. */
    tc_path_set attackers;
    char message[640];
} tc_explanation;

/* Explains a move text (SAN or coordinates, as tc_move_parse reads them) in
 * the position. Returns 0 with why == TC_WHY_LEGAL and move set when the
 * text is a legal move, else -1 with the reason in out. The position is not
 * changed. A position that is over (mate, stalemate, a draw by rule) gives
 * TC_WHY_GAME_OVER for every text. */
int tc_explain_move(const tc_position *p, const char *text, tc_explanation *out);

/* The one sentence every surface shows for a move text that is not a
 * legal move (the terminal's play and --play, `topochess pgn`, the
 * browser's typed and clicked moves): "illegal move 'Bb5': the bishop on f1
 * cannot reach b5: ..." for a move of a piece that may not go there; the
 * message alone when the message already names the text (not a move text,
 * ambiguous, missing promotion piece, game over). `text` is the move text
 * as the player wrote it (for a clicked move, its coordinates "f1b5"), x
 * what tc_explain_move said of it. Returns the length written (as
 * snprintf). */
int tc_explain_line(const char *text, const tc_explanation *x, char *buf, size_t n);

/* Plays a list of moves as tc_play_moves does. When a move text is not a
 * legal move, explains it as tc_explain_move does in the position before
 * it, takes back the moves played (the position is unchanged) and returns
 * its number (1 for the first move text), with the text in text (n bytes;
 * may be NULL) and the side that was to move in *colour (may be NULL).
 * Returns 0 when every move was played. */
int tc_play_moves_explain(tc_position *p, const char *moves, tc_explanation *out, char *text, size_t n,
                          int *colour);

/* ---------------------------------------------------------------- names */

/* The name in names[0..n) closest to `word` for a "did you mean" hint:
 * compared case-insensitively, ignoring '-', '_', ' ' and reading "oe" as
 * "o", with at most max(1, len/3) edits (insert, delete, substitute or swap
 * two neighbours). Returns its index, or -1 if none is close. */
int tc_closest_name(const char *word, const char *const *names, int n);

/* Finds a preset by a name a person would write: its name or an alias in any
 * case, its title ("Klein Bottle", "Klein Bottle Chess"), spaced or
 * hyphenated, "moebius" for "mobius". Returns the preset index (for
 * tc_preset), or -1 with err naming the closest preset ("did you mean
 * 'klein-bottle'?") and listing the known names. */
int tc_preset_lookup(const char *name, tc_error *err);

#ifdef __cplusplus
}
#endif
#endif
