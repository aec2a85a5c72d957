/* topochess engine: search and evaluation over the rules library.
 *
 * An engine object owns everything a search needs: the evaluation tables
 * derived from its variant, the transposition table, the search threads and
 * a copy of the position to search. It reports through callbacks, so the
 * UCI and CECP front ends stay thin.
 *
 *   tc_engine *e = tc_engine_new(variant, 64, 1);
 *   tc_engine_set_position(e, pos);            // copied, history included
 *   tc_limits lim; tc_limits_init(&lim); lim.depth = 8;
 *   tc_search_result r = tc_engine_search(e, &lim, on_info, ctx);
 *   tc_engine_free(e);
 *
 * tc_engine_search runs in the caller's thread and returns when a limit is
 * reached or tc_engine_stop is called from another thread. With threads = 1,
 * a fresh engine (or one after tc_engine_new_game) and a depth or node limit,
 * the node count and the move are deterministic: `bench` relies on that.
 */
#ifndef TOPOCHESS_ENGINE_H
#define TOPOCHESS_ENGINE_H

#include "topochess.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC_ENGINE_MAX_PLY 128
#define TC_ENGINE_MAX_THREADS 64
#define TC_ENGINE_MAX_HASH_MB 65536
#define TC_ENGINE_MAX_SEARCHMOVES 256
#define TC_ENGINE_MAX_MULTIPV 64

/* Scores are centipawns from the side to move's point of view; a mate in
 * n plies scores TC_SCORE_MATE - n (mated: -(TC_SCORE_MATE - n)). */
#define TC_SCORE_MATE 32000
#define TC_SCORE_MATE_BOUND (TC_SCORE_MATE - 2 * TC_ENGINE_MAX_PLY)

/// What limits one search. Times are in milliseconds; 0 (or a negative
/// value) means "not given". A search with no limit at all runs until it is
/// stopped, like `infinite`.
typedef struct tc_limits {
    int64_t wtime, btime; /* clocks of White and Black */
    int64_t winc, binc;   /* increments per move */
    int movestogo;        /* moves to the next time control, 0: sudden death */
    int64_t movetime;     /* exactly this long per move */
    int depth;            /* iterations to complete */
    uint64_t nodes;       /* stop after about this many nodes */
    int infinite;         /* search until tc_engine_stop */
    int ponder;           /* pondering: searched as if infinite (it neither
                             answers by itself nor watches the clock) until
                             tc_engine_ponderhit makes it a timed search by
                             the time fields, or tc_engine_stop ends it */
    int level;            /* 0 full strength; 1..20 weaker play (caps depth) */
    int elo;              /* 0 full strength; TC_ELO_MIN..TC_ELO_MAX: a weak
                             player that picks among the best few moves */
    int multipv;          /* lines to search and report (0 or 1: one) */
    int nsearchmoves;     /* > 0: only these root moves are searched */
    tc_move searchmoves[TC_ENGINE_MAX_SEARCHMOVES];
} tc_limits;

/* The Elo range of limited strength (UCI_Elo). */
#define TC_ELO_MIN 800
#define TC_ELO_MAX 2400

void tc_limits_init(tc_limits *l);

typedef enum { TC_BOUND_EXACT = 0, TC_BOUND_LOWER = 1, TC_BOUND_UPPER = 2 } tc_bound;

/// One progress report: sent after each completed iteration and after an
/// aspiration-window fail (bound != exact).
typedef struct tc_search_info {
    int multipv;     /* which line, from 1 (best) */
    int depth, seldepth;
    int score;       /* centipawns from the side to move's view */
    int mate;        /* 0, or moves to mate: > 0 we mate, < 0 we are mated */
    tc_bound bound;
    uint64_t nodes;
    uint64_t nps;
    int64_t time_ms;
    int hashfull;    /* permille of the hash table in use by this search */
    int pv_len;
    tc_move pv[TC_ENGINE_MAX_PLY];
} tc_search_info;

/// The outcome of a search. best is 0 only when the root has no legal move.
typedef struct tc_search_result {
    tc_move best;
    tc_move ponder; /* expected reply, or 0 */
    int score;
    int mate;
    int depth;
    uint64_t nodes;
    int64_t time_ms;
} tc_search_result;

/* Called from the searching thread; `ctx` is passed through unchanged. */
typedef void (*tc_info_fn)(const tc_search_info *info, void *ctx);

typedef struct tc_engine tc_engine;

/* Builds the evaluation tables for `v` (which must outlive the engine), a
 * hash table of hash_mb MiB (at least 1) and `threads` search threads (1 to
 * TC_ENGINE_MAX_THREADS). The engine starts at the variant's start
 * position. NULL if memory runs out. */
tc_engine *tc_engine_new(const tc_variant *v, size_t hash_mb, int threads);
void tc_engine_free(tc_engine *e);
const tc_variant *tc_engine_variant(const tc_engine *e);

/* Copies the position, its history included (for repetitions). The
 * position must be of the engine's variant: -1 otherwise. */
int tc_engine_set_position(tc_engine *e, const tc_position *p);
/* Clears the hash table and the move-ordering history. */
void tc_engine_new_game(tc_engine *e);
/* Resizes (and clears) the hash table; -1 if the memory cannot be had, in
 * which case the old table stays. */
int tc_engine_set_hash(tc_engine *e, size_t hash_mb);
/* The hash table's size as last asked for (after clamping), in MiB. */
size_t tc_engine_hash_mb(const tc_engine *e);
int tc_engine_set_threads(tc_engine *e, int threads);

/* Searches the position set last. `info` may be NULL. */
tc_search_result tc_engine_search(tc_engine *e, const tc_limits *limits, tc_info_fn info,
                                  void *ctx);
/* Asks a running search to return as soon as it can; safe from any thread.
 * A stop that arrives before the search has begun still counts (the search
 * then returns at once with the best move found so far, at worst the first
 * legal move). The flag is cleared when a
 * search returns and by tc_engine_set_position. */
void tc_engine_stop(tc_engine *e);
/* The expected reply was played: a ponder search (limits.ponder) goes on,
 * tree and table kept, as a timed search whose time counts from this call.
 * `now` gives the clocks as they stand (only wtime, btime, winc, binc,
 * movestogo and movetime are read); NULL keeps those the search was given.
 * Under a clock, a search that has already pondered as long as the move's
 * time stops at once (the time is saved); a movetime is used in full from
 * the hit. Safe from any thread; a hit that arrives before the
 * search has begun still counts (cleared like the stop flag). */
void tc_engine_ponderhit(tc_engine *e, const tc_limits *now);

/* Solved endings: 3-piece ones are built when the root needs them, 4-piece
 * ones are read from DIR (files of `topochess endgame --out DIR`); "" for
 * none. At a root the tables hold, the engine plays their best move. */
int tc_engine_set_endgame_path(tc_engine *e, const char *dir);

/* A callback the searching thread calls every thousand nodes or so; a
 * nonzero answer stops the search like tc_engine_stop. For builds where no
 * other thread can call tc_engine_stop while the search runs (TC_NO_THREADS,
 * the wasm module: the host answers from a shared stop flag). NULL, the
 * default, asks nothing. */
typedef int (*tc_poll_fn)(void *ctx);
void tc_engine_set_poll(tc_engine *e, tc_poll_fn fn, void *ctx);

/* Styles for measuring what the engine's parts are worth: a material-only
 * evaluation, and/or a search without pruning or reductions (plain
 * alpha-beta with the hash table and quiescence). */
enum { TC_STYLE_FULL = 0, TC_STYLE_MATERIAL = 1, TC_STYLE_NO_PRUNING = 2 };
void tc_engine_set_style(tc_engine *e, int style);

/* The search's tunable parameters (margins, reduction sizes, windows;
 * docs/search.md): what tuning (bench/spsa) moves. Each engine holds its
 * own values, the defaults when made. tc_engine_param_info gives the i-th
 * parameter's name, default, range and meaning (NULL past the last);
 * tc_engine_set_param sets one by name, refusing an unknown name or a value
 * outside its range with err naming the problem (-1); tc_engine_get_param
 * reads one into *value (-1: no such name). Not during a search. */
typedef struct tc_param_info {
    const char *name;
    int def, min, max;
    const char *what;
} tc_param_info;
const tc_param_info *tc_engine_param_info(int i);
int tc_engine_set_param(tc_engine *e, const char *name, int value, tc_error *err);
int tc_engine_get_param(const tc_engine *e, const char *name, int *value);
void tc_engine_reset_params(tc_engine *e);

/* The learned evaluation (NNUE, docs/nnue.md). A new engine evaluates with
 * the net built into the binary for its board when there is one (nets/ at
 * build time), else with the hand-written evaluation. tc_engine_load_net
 * reads a net file (the UCI option EvalFile), tc_engine_load_net_data the
 * same bytes from memory; either checks the file against the engine's board
 * and, when it is refused, leaves the engine on the hand-written evaluation
 * and returns -1 with err naming the problem. tc_engine_use_builtin_net goes
 * back to the built-in net (-1: none for this board, hand-written then);
 * tc_engine_clear_net to the hand-written evaluation. Not during a search. */
int tc_engine_load_net(tc_engine *e, const char *path, tc_error *err);
int tc_engine_load_net_data(tc_engine *e, const void *data, size_t len, tc_error *err);
int tc_engine_use_builtin_net(tc_engine *e);
void tc_engine_clear_net(tc_engine *e);
/* What evaluates, one line: "net 'klein-bottle' (built in, 8x12, H 256,
 * avx2)", "net 'x' (file.tcnn, ...)" or "hand-written". */
const char *tc_engine_eval_text(const tc_engine *e);
/* 1 when a net evaluates. */
int tc_engine_has_net(const tc_engine *e);
/* The CRC-32 its file ends with (which names the net) of the net that
 * evaluates; 0 for the hand-written evaluation. */
uint32_t tc_engine_net_crc(const tc_engine *e);
/* CRC-32 (IEEE 802.3, zlib's) of len bytes: the checksum a net file ends
 * with. */
uint32_t tc_crc32(const void *data, size_t len);

/* Static evaluation of the engine's position, centipawns for the side to
 * move. */
int tc_engine_evaluate(tc_engine *e);
/* The same value and its parts: *hand the hand-written static evaluation
 * (0 under a pure net), *net the net's output before the clamp (0 without
 * a net); under the material style both are 0. Either may be NULL. A
 * hybrid net's value is clamp(*hand + *net). */
int tc_engine_evaluate_parts(tc_engine *e, int *hand, int *net);
/* 1 when a hybrid net evaluates: its output is added to the hand-written
 * evaluation (docs/nnue.md). */
int tc_engine_net_is_hybrid(const tc_engine *e);

/* ---------------------------------------------------------------- game review */

/* A finished game judged move by move (docs/analysis.md): every position
 * of the game searched to the same limits, each move's loss in winning
 * chances, and a mark for the bad ones.
 *
 * Winning chances of a score s (centipawns, a mate counted as +-10000):
 *   chances(s) = 2 / (1 + exp(-0.00368208 s)) - 1        (-1 .. 1)
 * (lichess's curve). A move loses drop = chances before - chances after,
 * both for the side that moved (the score before is the best move's). Its
 * mark: a blunder from 0.3, a mistake from 0.2, an inaccuracy from 0.1.
 * Its accuracy, from the win percentages w = 50 + 50 chances:
 *   accuracy = 103.1668 exp(-0.04354 (w_before - w_after)) - 3.1669,
 * kept within 0..100 (100 for no loss); a player's accuracy is the mean of
 * theirs. A position where the game ended is scored by the rules, not
 * searched: checkmate, or 0 for a draw. */
typedef enum { TC_MARK_NONE = 0, TC_MARK_INACCURACY, TC_MARK_MISTAKE, TC_MARK_BLUNDER } tc_mark;

/// One move of a reviewed game.
typedef struct tc_review_move {
    tc_move played, best; /* best: the engine's move in the position before */
    int score, mate;      /* after the move, for White: centipawns, or moves to mate (> 0 White mates) */
    int best_score, best_mate; /* before the move, for White, with the best move */
    double chances_before, chances_after; /* for the side that moved */
    double accuracy;
    tc_mark mark;
    int depth;            /* of the search after the move (0: the rules decided) */
} tc_review_move;

/// The summary of one side.
typedef struct tc_review_side {
    double accuracy; /* mean of the moves', 0..100; 100 with no move */
    int moves, inaccuracies, mistakes, blunders;
} tc_review_side;

/* Called after each position searched (done of total), may be NULL. */
typedef void (*tc_review_progress_fn)(int done, int total, void *ctx);

/* Reviews the game that led to `game` (its history from its start FEN),
 * with e (of the game's variant; its hash is cleared first) searching each
 * position to `limits` (a node or depth limit gives the same review on
 * every run). out holds tc_ply_count(game) moves; sides[TC_WHITE] and
 * sides[TC_BLACK] the summaries (either may be NULL). 0, or -1 with err
 * (another variant's engine, no memory). */
int tc_review_game(tc_engine *e, const tc_position *game, const tc_limits *limits, tc_review_move *out,
                   tc_review_side sides[2], tc_review_progress_fn progress, void *ctx, tc_error *err);
/// What a search said of one position, from the side to move's view (as
/// searches report it): for callers that search the positions themselves
/// (the browser's engine worker) and let tc_review_judge judge.
typedef struct tc_review_value {
    int score, mate, depth;
    tc_move best; /* 0: none (the game ended there) */
} tc_review_value;
/* Judges the game from the values of its positions (values[0] the start,
 * values[tc_ply_count(game)] the end), as tc_review_game does after its
 * searches; a position where the game ended is scored by the rules, its
 * value ignored. */
void tc_review_judge(const tc_position *game, const tc_review_value *values, tc_review_move *out,
                     tc_review_side sides[2]);
/* The review as JSON (heap; NULL if memory runs out): {"sides": {"white":
 * {accuracy, moves, inaccuracies, mistakes, blunders}, "black": ...},
 * "moves": [{ply, san, uci, score, mate, best, best_score, best_mate,
 * chances_before, chances_after, accuracy, mark, depth}]} (docs/analysis.md). */
char *tc_review_json(const tc_position *game, const tc_review_move *moves, const tc_review_side sides[2]);
/* The reviewed game as PGN (tc_pgn_write_annotated): tags as tc_pgn_write
 * takes them, each side's accuracy and marks in a comment before the
 * moves, after each move its [%eval] for White (none after a checkmate),
 * and on a marked move its NAG suffix (?!, ?, ??), the drop and the move
 * that was best. */
void tc_review_pgn(const tc_position *game, const tc_review_move *moves, const tc_review_side sides[2],
                   const char *const *tags, int ntags, const char *result, FILE *out);
/* The winning chances of a score (centipawns; mate: moves to mate, > 0 the
 * side mates), -1 .. 1. */
double tc_review_chances(int score, int mate);
/* "inaccuracy", "mistake", "blunder" or "". */
const char *tc_mark_name(tc_mark m);

/* Searches one position to `depth` with a fresh single-threaded engine and
 * a 16 MiB table; returns the node count (deterministic), 0 on failure.
 * best (may be NULL) receives the move found. */
uint64_t tc_engine_bench_position(const tc_position *p, int depth, tc_move *best);

#ifdef __cplusplus
}
#endif
#endif
