/* topochess: rules library for chess on topological boards.
 *
 * One public header. Objects are created by the caller and hold all state:
 * the library has no mutable globals, so separate variants and positions may
 * be used from separate threads freely.
 *
 *   tc_variant   a board (size, joins, setup) plus every table derived from it
 *   tc_position  pieces, side to move, rights, clocks and the move history
 *
 * Functions that can fail on user input take a tc_error and return 0 on
 * success, -1 on failure with a message naming what was wrong and where.
 */
#ifndef TOPOCHESS_H
#define TOPOCHESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TC_MAX_FILES 16
#define TC_MAX_RANKS 16
#define TC_MAX_CELLS (TC_MAX_FILES * TC_MAX_RANKS)
/* Upper bound on legal moves in one position; tc_position_set_fen refuses
 * positions that could exceed it. */
#define TC_MAX_MOVES 8192
#define TC_SETUP_MAX 600

/// An error message for the caller to print; empty when nothing failed.
typedef struct tc_error {
    char msg[256];
} tc_error;

/* ---------------------------------------------------------------- pieces */

enum { TC_WHITE = 0, TC_BLACK = 1 };
enum { TC_NO_TYPE = 0, TC_PAWN, TC_KNIGHT, TC_BISHOP, TC_ROOK, TC_QUEEN, TC_KING };
/* A piece is colour * 8 + type; 0 is an empty cell. */
#define TC_PIECE(colour, type) ((colour) * 8 + (type))
#define TC_TYPE(piece) ((piece) & 7)
#define TC_COLOUR(piece) ((piece) >> 3)

/* ---------------------------------------------------------------- variants */

typedef enum { TC_FILES_OPEN, TC_FILES_WRAP } tc_file_rule;
typedef enum { TC_RANKS_OPEN, TC_RANKS_WRAP, TC_RANKS_TWIST, TC_RANKS_FOLD } tc_rank_rule;

/// A variant as data: what a preset or a variant page defines. Tables are
/// derived from it by tc_variant_new.
typedef struct tc_variant_def {
    char name[64];         /* e.g. "klein-bottle" */
    char title[96];        /* e.g. "Klein Bottle Chess" */
    char description[256]; /* one line */
    int width, height;     /* files and ranks, 2..16 each */
    tc_file_rule files;
    tc_rank_rule ranks;
    int seam;              /* twist between rank seam and seam+1 (1..height) */
    char setup[TC_SETUP_MAX]; /* FEN board field, rank `height` first */
} tc_variant_def;

typedef struct tc_variant tc_variant;

int tc_preset_count(void);
/* The i-th preset (0 <= i < tc_preset_count()), or NULL. */
const tc_variant_def *tc_preset(int i);
/* The preset's aliases as one comma-separated string ("" if none). */
const char *tc_preset_aliases(int i);
/* Finds a preset by name or alias. */
int tc_preset_find(const char *name, tc_variant_def *out, tc_error *err);

/* Reads a variant page (YAML front matter between `---` lines, or a page
 * whose whole front matter sits on one line) into a definition. */
int tc_frontmatter_parse(const char *text, size_t len, tc_variant_def *out, tc_error *err);
/* Reads a page and makes its variant (tc_frontmatter_parse, then
 * tc_variant_new), so that the refusals of the setup that only the board
 * can make (one king a side, kings on different ranks, kings that touch
 * across a join) name the setup's line too. def (may be NULL) gets the
 * definition. NULL with err on any problem. */
tc_variant *tc_frontmatter_variant(const char *text, size_t len, tc_variant_def *def, tc_error *err);
int tc_variant_file_load(const char *path, tc_variant_def *out, tc_error *err);
/* Writes a definition as a variant page that tc_frontmatter_parse reads. */
void tc_variant_def_write_page(const tc_variant_def *def, FILE *out);

/* Builds every table for a definition; NULL with err set if it is invalid. */
tc_variant *tc_variant_new(const tc_variant_def *def, tc_error *err);
void tc_variant_free(tc_variant *v);
const tc_variant_def *tc_variant_def_of(const tc_variant *v);
int tc_variant_width(const tc_variant *v);
int tc_variant_height(const tc_variant *v);
int tc_variant_cells(const tc_variant *v);
/* Writes a one-line summary of the joins, e.g. "files wrap, ranks twist 11". */
void tc_variant_topology_text(const tc_variant *v, char *buf, size_t n);

/* ---------------------------------------------------------------- topology */

/* Cells are numbered y * width + x (x = file index, y = rank index). */
int tc_cell(const tc_variant *v, int x, int y);
int tc_cell_x(const tc_variant *v, int cell);
int tc_cell_y(const tc_variant *v, int cell);
/* "d12" -> cell, or -1. Writes the name of a cell into buf (>= 4 bytes). */
int tc_cell_parse(const tc_variant *v, const char *text);
void tc_cell_name(const tc_variant *v, int cell, char *buf);

/* The joins a step can cross (bits of tc_step_result.joins; a step may
 * cross several, e.g. the file join then the twist on the Klein bottle:
 * h11 NE -> h12). */
enum {
    TC_JOIN_FILE = 1,  /* the last file and file a (files wrap) */
    TC_JOIN_RANK = 2,  /* rank H and rank 1 (ranks wrap or twist) */
    TC_JOIN_TWIST = 4, /* the half-twist between rank seam and seam+1: files mirrored */
    TC_JOIN_FOLD = 8   /* an end rank folded onto itself: files mirrored, direction reversed */
};

/// The result of one step: the cell reached and the direction to go on in,
/// plus the frame transform (sx, sy are +1 or -1) applied by the crossing
/// and the joins crossed (TC_JOIN_* flags; 0 for a step inside the board).
typedef struct tc_step_result {
    int cell; /* -1 when the step leaves the board */
    int dx, dy;
    int sx, sy;
    int joins;
} tc_step_result;

/* The step function of docs/rules.md section 2, from the variant's tables. */
tc_step_result tc_step(const tc_variant *v, int cell, int dx, int dy);

/* Destinations on an empty board, deduplicated, own cell excluded. */
int tc_king_targets(const tc_variant *v, int cell, int *out);
int tc_knight_targets(const tc_variant *v, int cell, int *out);
/* The cells of one ray in order (duplicates removed, stops before the own
 * cell); dir indexes N, NE, E, SE, S, SW, W, NW. */
int tc_ray(const tc_variant *v, int cell, int dir, int *out);

/* Writes the topology report of docs/rules.md section 10. */
void tc_topology_report(const tc_variant *v, FILE *out);

/* ---------------------------------------------------------------- moves */

/* A move packs from, to, promotion type and a kind. 0 is no move. */
typedef uint32_t tc_move;
enum { TC_MOVE_NORMAL = 0, TC_MOVE_DOUBLE = 1, TC_MOVE_EP = 2, TC_MOVE_CASTLE_K = 3, TC_MOVE_CASTLE_Q = 4 };
#define TC_MOVE_FROM(m) ((int)((m) & 0xff))
#define TC_MOVE_TO(m) ((int)(((m) >> 8) & 0xff))
#define TC_MOVE_PROMO(m) ((int)(((m) >> 16) & 7))
#define TC_MOVE_KIND(m) ((int)(((m) >> 19) & 7))
#define TC_MOVE_MAKE(from, to, promo, kind) \
    ((tc_move)((from) | ((to) << 8) | ((promo) << 16) | ((kind) << 19) | (1u << 24)))

typedef struct tc_movelist {
    int count;
    tc_move moves[TC_MAX_MOVES];
} tc_movelist;

/* ---------------------------------------------------------------- positions */

typedef struct tc_position tc_position;

/* A new position at the variant's start. The variant must outlive it. */
tc_position *tc_position_new(const tc_variant *v);
tc_position *tc_position_clone(const tc_position *p);
void tc_position_free(tc_position *p);
const tc_variant *tc_position_variant(const tc_position *p);
void tc_position_reset(tc_position *p);

/* Full FEN or board-only FEN (docs/rules.md section 7). On failure the position
 * is unchanged. */
int tc_position_set_fen(tc_position *p, const char *fen, tc_error *err);
/* Writes the FEN; returns its length. buf should hold >= 700 bytes. */
int tc_position_fen(const tc_position *p, char *buf, size_t n);

int tc_piece_at(const tc_position *p, int cell);
int tc_side_to_move(const tc_position *p);
int tc_ep_cell(const tc_position *p);      /* -1 if none */
int tc_castling(const tc_position *p);     /* bits: 1 K, 2 Q, 4 k, 8 q */
int tc_halfmove_clock(const tc_position *p);
int tc_fullmove_number(const tc_position *p);
int tc_king_cell(const tc_position *p, int colour);
uint64_t tc_key(const tc_position *p);
int tc_ply_count(const tc_position *p);   /* moves made since the FEN */

/* All legal moves; returns the count. */
int tc_generate_legal(const tc_position *p, tc_movelist *list);
int tc_is_legal(const tc_position *p, tc_move m);
/* 1 if `colour` attacks the cell in the current position. */
int tc_attacked(const tc_position *p, int cell, int colour);
int tc_in_check(const tc_position *p);
int tc_gives_check(tc_position *p, tc_move m);

/* Plays a legal move (unchecked) and takes back the last one. */
void tc_make_move(tc_position *p, tc_move m);
void tc_unmake_move(tc_position *p);
/* The null move for searches: passes the turn (not when in check). */
void tc_make_null(tc_position *p);
void tc_unmake_null(tc_position *p);
tc_move tc_last_move(const tc_position *p); /* 0 if none */

typedef enum {
    TC_ONGOING = 0,
    TC_CHECKMATE,
    TC_STALEMATE,
    TC_DRAW_FIFTY,
    TC_DRAW_REPETITION,
    TC_DRAW_DEAD
} tc_status;
/* Mate, stalemate and the draws the rules alone decide. Dead positions
 * here are those of the material alone: K v K, and on boards with open
 * files and ranks the FIDE cases. On other boards the solved endings
 * decide more (docs/rules.md section 6): tc_game_status in topochess_endgame.h. */
tc_status tc_position_status(const tc_position *p);
const char *tc_status_text(tc_status s);
/* Occurrences of the current position (placement, side, castling, en passant
 * possibility) in the history, counting this one. */
int tc_repetitions(const tc_position *p);
int tc_is_dead_position(const tc_position *p);

/* Perft with bulk counting at depth 1. */
uint64_t tc_perft(tc_position *p, int depth);
/* Perft per root move: calls fn with each move's coordinate form and count
 * (depth >= 1); returns the total. */
typedef void (*tc_divide_fn)(const char *move, uint64_t nodes, void *ctx);
uint64_t tc_perft_divide(tc_position *p, int depth, tc_divide_fn fn, void *ctx);

/* ---------------------------------------------------------------- notation */

/* Coordinate form: "e2e4", "b7b8q", castling as the king's move ("e1g1"),
 * or king-takes-rook where that is ambiguous (docs/rules.md section 7). */
void tc_move_to_uci(const tc_position *p, tc_move m, char *buf);
/* SAN with check and mate marks. buf should hold >= 24 bytes. */
void tc_move_to_san(const tc_position *p, tc_move m, char *buf);
/* Parses coordinate form only. */
int tc_move_from_uci(const tc_position *p, const char *text, tc_move *out, tc_error *err);
/* Parses lenient SAN or coordinate form. */
int tc_move_parse(const tc_position *p, const char *text, tc_move *out, tc_error *err);
/* Applies a whitespace-separated list of moves ("1. e4 e5 2. Nf3", move
 * numbers and results allowed). On failure the position is unchanged. */
int tc_play_moves(tc_position *p, const char *moves, tc_error *err);

/* ---------------------------------------------------------------- PGN */

/// One game read from PGN: its tags and its main-line move texts (as
/// written), without comments, NAGs or variations. Tags are as many as the
/// game has (heap, freed by tc_pgn_game_free).
typedef struct tc_pgn_game {
    int ntags, cap_tags;
    char **tag_name, **tag_value; /* ntags each */
    int nmoves, cap_moves;
    char **moves; /* move texts, heap */
    char result[8];
    int first_line; /* line of the game's first tag or move */
} tc_pgn_game;

/// Reads games one after another from a text held in memory.
typedef struct tc_pgn_reader {
    const char *text;
    size_t len, pos;
    int line;
} tc_pgn_reader;

void tc_pgn_reader_init(tc_pgn_reader *r, const char *text, size_t len);
/* 1 if a game was read, 0 at end of text, -1 on a syntax error ("line N:
 * ..."). g is overwritten (free the previous game first) and holds no moves
 * after 0 or -1; after an error the reader has moved on to the next line
 * that starts with '[', so reading can go on. Suffix annotations (!, ?) are
 * dropped from the move texts; check marks stay. */
int tc_pgn_read_game(tc_pgn_reader *r, tc_pgn_game *g, tc_error *err);
void tc_pgn_game_free(tc_pgn_game *g);
const char *tc_pgn_tag(const tc_pgn_game *g, const char *name);

/// Outcome of replaying one game.
typedef struct tc_pgn_replay {
    int ok;         /* 1 if every move was legal */
    int bad_ply;    /* index of the first illegal move (0-based ply) */
    char bad_text[64];
    tc_variant *variant; /* owned; freed by tc_pgn_replay_free */
    tc_position *position; /* final (or last legal) position */
} tc_pgn_replay;

/* The board a game is played on: the fallback when [Variant] names it (a
 * variant page's own name), else the board of a [Topology] tag (the
 * front matter's engine mapping in one line, written by tc_pgn_write for
 * every board that is not a preset; named by [Variant]), else the preset
 * [Variant] names, else the fallback, else chess. -1 with err if the tag
 * is no board or the name no preset. */
int tc_pgn_game_def(const tc_pgn_game *g, const tc_variant_def *fallback, tc_variant_def *out, tc_error *err);
/* Builds the game's variant (tc_pgn_game_def) and start position
 * ([SetUp]/[FEN]) and plays its moves. A [FEN] is used unless [SetUp "0"].
 * Returns -1 only when the variant or the FEN cannot be used (nothing is
 * left to free); an illegal move gives 0 with replay->ok == 0 and err like
 * "move 12 (black): illegal move 'Nxe5': the knight on f3 ..." (the reason
 * of tc_explain_move, as `topochess --play` gives it). */
int tc_pgn_replay_game(const tc_pgn_game *g, const tc_variant_def *fallback,
                       tc_pgn_replay *replay, tc_error *err);
/* The same for game after game: `replay` holds the previous game's replay
 * (or is zeroed before the first), whose variant is kept when this game has
 * the same one and whose position is reused, so that a file of games of
 * one variant builds its tables once. Free with tc_pgn_replay_free after
 * the last game (or after a -1). */
int tc_pgn_replay_next(const tc_pgn_game *g, const tc_variant_def *fallback,
                       tc_pgn_replay *replay, tc_error *err);
void tc_pgn_replay_free(tc_pgn_replay *replay);

/* Writes a game from the position's start FEN and its history in SAN
 * (with [Topology] when the board is not a preset's, so that the text
 * alone replays it),
 * movetext lines within 79 columns. tags (ntags name/value pairs, may be
 * NULL) override the Seven Tag Roster defaults; other names are added after
 * it. The FEN tag is written when the start is not the variant's own, or
 * always when tags hold SetUp "1". result NULL: the tags' Result, else the one the final position
 * implies (mate, draw) or "*". */
/* The same with annotations: before (may be NULL) a comment before the
 * first move; per ply i (either array may be NULL, an entry NULL or ""),
 * suffix[i] glued to the move ("?!", "??", at most 8 bytes) and
 * comment[i] written after it in braces (braces inside become spaces; a
 * "[%...]" command is never broken across lines). */
void tc_pgn_write_annotated(const tc_position *p, const char *const *tags, int ntags, const char *result,
                            const char *before, const char *const *suffix, const char *const *comment, FILE *out);
void tc_pgn_write(const tc_position *p, const char *const *tags, int ntags,
                  const char *result, FILE *out);

/* Start FEN of the position's history (the FEN it was set from). */
const char *tc_position_start_fen(const tc_position *p);
/* The i-th move of the history (0 <= i < tc_ply_count). */
tc_move tc_history_move(const tc_position *p, int i);

/* ---------------------------------------------------------------- symmetries */

/* At most this many candidates: files and ranks each mirrored or not and
 * shifted, times the colour swap. */
#define TC_MAX_SYMMETRIES (8 * TC_MAX_CELLS)

/// A symmetry of a variant's rules: a cell permutation (x -> mirror_files ?
/// W-1-x : x, then + shift_files mod W; ranks likewise) and a colour swap,
/// such that the legal moves of the mapped position are exactly the mapped
/// legal moves (docs/library.md, "Symmetries"). with_castling is 1 when the
/// castling tables map too, 0 when it holds only without castling rights.
typedef struct tc_symmetry {
    int mirror_files, shift_files;
    int mirror_ranks, shift_ranks;
    int swap_colours;
    int with_castling;
    char name[64];                /* "identity", "mirror-files", "flip-colours shift-files+3" */
    uint8_t cell[TC_MAX_CELLS];   /* cell -> mapped cell */
} tc_symmetry;

/* Builds the candidate (out is filled in any case) and checks it against
 * the variant's move tables: 1 if it is a symmetry, 0 if not. Shifts are
 * taken mod the board size. */
int tc_symmetry_make(const tc_variant *v, int mirror_files, int shift_files, int mirror_ranks,
                     int shift_ranks, int swap_colours, tc_symmetry *out);
/* Every symmetry among the candidates, the identity first; writes at most
 * max of them and returns how many there are. */
int tc_symmetries(const tc_variant *v, tc_symmetry *out, int max);
/* Sets out (a position of the same variant) to the mapped position: pieces
 * moved by the permutation (colours swapped with the swap), side to move
 * swapped likewise, en passant cell mapped, clocks kept. Castling rights
 * are mapped when with_castling, else the position must have none. */
int tc_symmetry_apply(const tc_symmetry *s, const tc_position *p, tc_position *out, tc_error *err);

#ifdef __cplusplus
}
#endif
#endif
