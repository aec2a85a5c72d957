/* Internal types shared by the library's modules. Not installed. */
#ifndef TC_INTERNAL_H
#define TC_INTERNAL_H

#include "topochess.h"

#include <stdbool.h>
#include <string.h>

/* ---------------------------------------------------------------- cell sets */

/// A set of cells, one bit per cell; 256 bits cover the largest board.
typedef struct {
    uint64_t w[4];
} tc_bits;

static inline void bits_clear(tc_bits *b) { b->w[0] = b->w[1] = b->w[2] = b->w[3] = 0; }
static inline void bits_fill(tc_bits *b) { b->w[0] = b->w[1] = b->w[2] = b->w[3] = ~0ull; }
static inline void bits_set(tc_bits *b, int c) { b->w[c >> 6] |= 1ull << (c & 63); }
static inline void bits_reset(tc_bits *b, int c) { b->w[c >> 6] &= ~(1ull << (c & 63)); }
static inline bool bits_has(const tc_bits *b, int c) { return (b->w[c >> 6] >> (c & 63)) & 1; }
static inline bool bits_any(const tc_bits *b) { return (b->w[0] | b->w[1] | b->w[2] | b->w[3]) != 0; }
static inline bool bits_meet(const tc_bits *a, const tc_bits *b)
{
    return ((a->w[0] & b->w[0]) | (a->w[1] & b->w[1]) | (a->w[2] & b->w[2]) | (a->w[3] & b->w[3])) != 0;
}
static inline void bits_and(tc_bits *a, const tc_bits *b)
{
    a->w[0] &= b->w[0]; a->w[1] &= b->w[1]; a->w[2] &= b->w[2]; a->w[3] &= b->w[3];
}
static inline void bits_or(tc_bits *a, const tc_bits *b)
{
    a->w[0] |= b->w[0]; a->w[1] |= b->w[1]; a->w[2] |= b->w[2]; a->w[3] |= b->w[3];
}
static inline int bits_count(const tc_bits *b)
{
    return __builtin_popcountll(b->w[0]) + __builtin_popcountll(b->w[1]) +
           __builtin_popcountll(b->w[2]) + __builtin_popcountll(b->w[3]);
}
/* Runs the trailing block for each cell c of a copy of set. */
#define BITS_FOREACH(c, set, ...)                                      \
    for (int bw_ = 0; bw_ < 4; bw_++) {                                 \
        uint64_t bv_ = (set).w[bw_];                                    \
        while (bv_) {                                                   \
            int c = bw_ * 64 + __builtin_ctzll(bv_);                    \
            bv_ &= bv_ - 1;                                             \
            __VA_ARGS__                                                 \
        }                                                               \
    }

/* ---------------------------------------------------------------- directions */

/* Direction index: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW. */
extern const int tc_dir_dx[8];
extern const int tc_dir_dy[8];
int tc_dir_index(int dx, int dy);
static inline bool dir_is_diag(int d) { return d & 1; }

/// Every table that movement reads, built once from a definition. Cells are
/// y * W + x; "none" is -1 in int16 tables. Rays, leaps and their reverses
/// live in pools addressed by offset and length so that any board fits.
struct tc_variant {
    tc_variant_def def;
    int W, H, ncells;

    /* step: destination (or -1), new direction, frame transform (bit0: x
     * mirrored, bit1: y mirrored). */
    int16_t step_to[TC_MAX_CELLS][8];
    uint8_t step_dir[TC_MAX_CELLS][8];
    uint8_t step_tf[TC_MAX_CELLS][8];
    uint8_t step_join[TC_MAX_CELLS][8]; /* TC_JOIN_* crossed by the step */

    /* rays: pool[ray_off .. ray_off + ray_len) */
    uint32_t ray_off[TC_MAX_CELLS][8];
    uint16_t ray_len[TC_MAX_CELLS][8];
    uint8_t *ray_pool;

    /* leaps and their reverses (cells that reach c), deduplicated */
    uint8_t knight[TC_MAX_CELLS][8], nknight[TC_MAX_CELLS];
    uint8_t king[TC_MAX_CELLS][8], nking[TC_MAX_CELLS];
    uint16_t knight_from_off[TC_MAX_CELLS], knight_from_len[TC_MAX_CELLS];
    uint16_t king_from_off[TC_MAX_CELLS], king_from_len[TC_MAX_CELLS];
    uint8_t *from_pool;

    /* pawns per colour and cell: forward dy (0: none), push cells, captures,
     * and the cells from which a pawn of that colour captures onto c */
    int8_t pawn_dy[2][TC_MAX_CELLS];
    int16_t push1[2][TC_MAX_CELLS];
    int16_t push2[2][TC_MAX_CELLS]; /* -1 unless a two-step start cell */
    uint8_t pcap[2][TC_MAX_CELLS][2], npcap[2][TC_MAX_CELLS];
    uint8_t pcap_from[2][TC_MAX_CELLS][8], npcap_from[2][TC_MAX_CELLS];
    tc_bits promo_cells[2];
    int back_rank[2];     /* rank index of each side's king in the setup */
    uint32_t double_ranks[2]; /* bit y: that colour has pawns on rank y at start */

    /* empty-board reach of rook-like and bishop-like rays, for filtering */
    tc_bits orth_reach[TC_MAX_CELLS], diag_reach[TC_MAX_CELLS];
    tc_bits all_cells;

    /* castling: castle_side[colour][s] when the setup has that colour's
     * king on file e of its back rank and the rook of castling s on its
     * file (h for s = 0, a for s = 1); castle_ok[colour] when either does.
     * The cells below are filled for both sides whenever castle_ok. */
    bool castle_ok[2];
    bool castle_side[2][2];
    int castle_king[2];
    int castle_rook[2][2]; /* [colour][0 kingside, 1 queenside] */
    int castle_king_to[2][2], castle_rook_to[2][2];
    tc_bits castle_empty[2][2]; /* cells strictly between king and rook */
    int castle_safe[2][2][3];   /* king start, passed cell, landing cell */
    uint8_t castle_clear[TC_MAX_CELLS]; /* rights kept when a cell is touched */
    bool castle_uci_rook[2][2]; /* write castling as king-takes-rook */

    /* Zobrist keys */
    uint64_t zob_piece[16][TC_MAX_CELLS];
    uint64_t zob_castle[16];
    uint64_t zob_ep[TC_MAX_CELLS];
    uint64_t zob_side;

    /* the empty-board maximum of destinations, for the move-count bound */
    int max_dest;
};

/// What tc_unmake_move needs to restore, one entry per ply played.
typedef struct {
    tc_move move;
    uint8_t captured;
    uint8_t castle;
    int16_t ep, ep_victim;
    int halfmove;
    uint64_t key;
    bool ep_hashed;
} tc_undo;

/// A position and its history. The board is a mailbox; per-colour and
/// per-piece cell sets let the generator filter attacks quickly.
struct tc_position {
    const tc_variant *v;
    uint8_t board[TC_MAX_CELLS];
    tc_bits occ[2];
    tc_bits pieces[16]; /* by piece code */
    int side;
    int castle;
    int ep;        /* en passant cell written in FEN, or -1 */
    int ep_victim; /* cell of the pawn that may be taken en passant */
    bool ep_hashed; /* the key includes the ep cell (a capture is possible) */
    int halfmove, fullmove;
    int king[2];
    uint64_t key;
    tc_undo *hist;
    int ply, cap;
    char start_fen[720];
};

/* The library's layers, bottom up. A file calls only into its own layer
 * and the ones below it (tools/check-layers checks this on the objects).
 *   base.c, placement.c    errors, directions, cell names, piece letters
 *   topology.c             the step function and board-only tables
 *   variant.c              presets, definition checks, variant construction
 *   names.c                presets found by name in any spelling, did-you-mean
 *   attack.c               attack tests (reads position cells only)
 *   position.c             board state, make/unmake, keys, repetitions
 *   movegen.c              legal moves
 *   fen.c, setup.c, status.c   FEN, legal setups, game end and perft
 *   symmetry.c             cell permutations under which the rules commute
 *   notation.c             coordinates and SAN
 *   paths.c                joins crossed, piece lines, attack and move paths
 *   explain.c              why a move is illegal
 *   pgn.c, pgn_board.c, frontmatter*.c  games, a game's board, variant pages
 *   page.c                 pages that lost their line breaks (topochess_page.h)
 *   page_guess.c           what a page without front matter shows */

/* base.c */
void tc_set_error(tc_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Puts prefix in front of the message already in err. */
void tc_error_prefix(tc_error *err, const char *prefix);

/* placement.c: piece letters (PNBRQK, lower case for Black) and the board
 * field of FEN read into W*H cells. */
char tc_piece_char(int piece);
int tc_piece_from_char(char ch);
int tc_board_parse(int W, int H, const char *text, size_t len, uint8_t *board, tc_error *err);
/* Writes the board field of W*H cells into buf (>= 600 bytes); returns its length. */
int tc_board_write(int W, int H, const uint8_t *board, char *buf);

/* topology.c */
int tc_topology_build(tc_variant *v); /* -1: out of memory */
void tc_topology_free(tc_variant *v);
/* A knight's second step after the orthogonal step from `from` in
 * direction d (even): the outward diagonal on one side (-1 or +1), in the
 * frame that first step reached (docs/rules.md section 4). */
int tc_knight_second_dir(const tc_variant *v, int from, int d, int side);
/* Appends cell to list unless it is negative, self or already there. */
int tc_cells_add_unique(uint8_t *list, uint8_t *n, int cell, int self);

/* variant.c: the tables of a checked definition, without judging whether
 * the setup is a legal position (tc_variant_new in setup.c does). */
int tc_variant_def_check(const tc_variant_def *def, tc_error *err);
tc_variant *tc_variant_build(const tc_variant_def *def, tc_error *err);
/* -1 with the reason in err when a pawn of colour on cell has no forward
 * direction (docs/rules.md sections 3 and 4: neither vertical walk reaches the
 * enemy back rank without first reaching its own), else 0. */
int tc_pawn_stuck(const tc_variant *v, int colour, int cell, tc_error *err);

/* attack.c */
bool tc_attacked_occ(const tc_position *p, int cell, int by);
bool tc_ep_capture_legal(const tc_position *p, int from);
bool tc_ep_possible(const tc_position *p);

/* position.c */
uint64_t tc_compute_key(const tc_position *p);
void tc_put_piece(tc_position *p, int cell, int piece);
void tc_remove_piece(tc_position *p, int cell);
void tc_position_clear(tc_position *p);

/* movegen.c */
int tc_gen_legal(const tc_position *p, tc_move *out);
/* Legal captures (en passant included) and promotions only. */
int tc_gen_noisy(const tc_position *p, tc_move *out);

/* notation.c */
/// A move text taken apart before any position is consulted (SAN, or
/// coordinates read as SAN with both source file and rank).
typedef struct {
    int type;                 /* piece type, TC_PAWN when no letter */
    int from_file, from_rank; /* -1 when not given */
    int to;                   /* destination cell */
    int promo;                /* promotion type or 0 */
    int lettered;             /* a piece letter was written */
} tc_san_parts;
int tc_san_split(const tc_variant *v, const char *s, const char *text, tc_san_parts *out, tc_error *err);
/* The next move text of a list like tc_play_moves reads ("1.e4" gives
 * "e4"; move numbers and results skipped) into tok; returns where reading
 * goes on, or NULL when no move text is left. */
const char *tc_moves_next(const char *s, char *tok, size_t size);
/* "O-O", "0-0-0", "oo"...: side 0 kingside, 1 queenside. */
bool tc_castle_text(const char *s, int *side);

/* pgn_board.c: a board's definition as the PGN tag [Topology "..."] */
/* Whether a game on d needs the tag: d is not a preset, by its own name,
 * with the preset's board. */
bool tc_pgn_board_needed(const tc_variant_def *d);
/* The tag's value for d into buf (n bytes); -1 if it does not fit. */
int tc_pgn_board_text(const tc_variant_def *d, char *buf, size_t n);
/* Reads a tag's value into out, named `name` (the Variant tag; NULL or ""
 * gives "custom"); -1 with err ("Topology tag: ...") if it is no board. */
int tc_pgn_board_read(const char *value, const char *name, tc_variant_def *out, tc_error *err);

#endif
