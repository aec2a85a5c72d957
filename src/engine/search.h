/* Search internals shared by the engine object (engine.c) and the search
 * itself (search.c): the engine and per-thread structs and the constants
 * both read. Not installed; the public API is topochess_engine.h. */
#ifndef TC_SEARCH_H
#define TC_SEARCH_H

#include "topochess_engine.h"

#include "eval.h"
#include "history.h"
#include "nnue.h"
#include "tt.h"

#ifndef TC_NO_THREADS /* single-threaded builds (the wasm module) have no pthreads */
#include <pthread.h>
#endif
#include <stdatomic.h>
#include <time.h>

#define MAX_PLY TC_ENGINE_MAX_PLY
#define INF 32767
#define MATE TC_SCORE_MATE
#define MATE_BOUND TC_SCORE_MATE_BOUND
#define DECIDED 1000 /* a static value this far from 0 decides the game but for the mate */
#define POLL_MASK 1023
#define EVAL_CACHE 16384 /* entries per thread, a power of two (256 KiB: faster than 1 MiB, see search.md) */

/* The search's tunable parameters (margins, reductions, windows), each
 * with its default (the value every test of docs/engine.md was played
 * with), its range and what it is, in the units the search reads.
 * X(ID, name, default, min, max, what); the names are UCI option names
 * (`topochess uci --tune`) and SPSA's (bench/spsa). */
#define SEARCH_PARAMS(X)                                                                                     \
    X(RFP_MARGIN, "RfpMargin", 80, 30, 200, "reverse futility: centipawns a ply above beta")               \
    X(RFP_DEPTH, "RfpDepth", 7, 3, 12, "reverse futility: deepest ply")                                     \
    X(RAZOR_BASE, "RazorBase", 200, 50, 500, "razoring: centipawns below alpha")                            \
    X(RAZOR_DEPTH, "RazorDepth", 150, 40, 400, "razoring: and centipawns a ply")                            \
    X(NMP_BASE, "NullBase", 160, 0, 400, "null move: the static value may be this much below beta")         \
    X(NMP_DEPTH, "NullDepth", 20, 0, 60, "null move: less so by this much a ply")                           \
    X(NMP_DIV, "NullDiv", 200, 80, 500, "null move: one more ply of reduction per this much above beta")    \
    X(PROBCUT_MARGIN, "ProbcutMargin", 200, 60, 500, "ProbCut: centipawns above beta")                      \
    X(PROBCUT_IMPROVING, "ProbcutImproving", 50, 0, 150, "ProbCut: less when improving")                    \
    X(LMP_BASE, "LmpBase", 3, 1, 10, "late-move pruning: quiet moves kept at depth 0")                       \
    X(HIST_PRUNE, "HistPrune", 3000, 500, 10000, "history pruning: below minus this a ply")                 \
    X(SEE_QUIET, "SeeQuiet", 25, 5, 100, "exchange pruning of quiet moves: loss a ply squared")             \
    X(FUT_BASE, "FutBase", 100, 20, 300, "futility of quiet moves: centipawns")                             \
    X(FUT_DEPTH, "FutDepth", 110, 30, 300, "futility: and centipawns a ply")                                \
    X(SEE_NOISY, "SeeNoisy", 90, 20, 250, "exchange pruning of captures: loss a ply")                       \
    X(SE_MARGIN, "SingularMargin", 16, 4, 48, "singular extension: eighths of a centipawn a ply below")     \
    X(LMR_BASE, "LmrBase", 75, 0, 200, "reduction table: hundredths of a ply added")                        \
    X(LMR_DIV, "LmrDiv", 225, 100, 450, "reduction table: log(depth) log(moves) over hundredths this")      \
    X(LMR_HIST, "LmrHistory", 8000, 2000, 24000, "reduction: one ply less per this much history")           \
    X(DELTA, "QsDelta", 200, 50, 500, "quiescence delta pruning: centipawns")                               \
    X(ASP_WINDOW, "AspWindow", 20, 5, 80, "aspiration window: first half-width")

#define SP_ENUM(id, name, def, lo, hi, what) SP_##id,
enum { SEARCH_PARAMS(SP_ENUM) SP_COUNT };
#undef SP_ENUM

/// A cached static evaluation, keyed by the full Zobrist key.
typedef struct {
    uint64_t key;
    int score;
} eval_slot;

/// Everything one search thread owns: its position, per-ply move buffers
/// (heap: TC_MAX_MOVES per ply), move-ordering tables and its result.
/// One MultiPV line as its search ended: score, principal variation, the
/// selective depth it reached.
typedef struct root_line {
    int score;
    int seldepth;
    int pv_len;
    tc_move pv[MAX_PLY];
} root_line;

typedef struct search_thread {
    struct tc_engine *e;
    int id;
    tc_position *pos;
    tc_move (*moves)[TC_MAX_MOVES];
    int (*scores)[TC_MAX_MOVES];
    eval_slot *eval_cache;
    move_history mh; /* killers, histories, the moves that led here */
    tc_move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    int static_eval[MAX_PLY + 1];
    bool null_at[MAX_PLY + 1]; /* the move into this ply was a null move */
    int cutoffs[MAX_PLY + 2];  /* beta cutoffs among the nodes at this ply under one grandparent */
    nnue_state *nn; /* the net's accumulators when a net evaluates, else NULL */
    tc_move excluded[MAX_PLY + 1]; /* singular search: the move left out */
    tc_move root_moves[TC_MAX_MOVES]; /* searchmoves / MultiPV: roots allowed */
    int nroot_moves;                  /* 0: every legal move */
    tc_move root_base[TC_MAX_MOVES];  /* the legal roots searchmoves allows */
    /* MultiPV: the lines of the iteration in progress, in the order searched
     * until the iteration ends, then best first */
    root_line lines[TC_ENGINE_MAX_MULTIPV];
    /* MultiPV: best move and score of each line of the last full iteration */
    tc_move mpv_move[TC_ENGINE_MAX_MULTIPV];
    int mpv_score[TC_ENGINE_MAX_MULTIPV];
    int mpv_count;
    uint64_t nodes;
    _Atomic uint64_t nodes_pub; /* nodes, published every POLL_MASK+1 */
    int seldepth;
    int completed;              /* deepest finished iteration */
    int root_depth;             /* depth of the iteration in progress */
    tc_move best;
    int best_score;
    tc_move root_pv[MAX_PLY];
    int root_pv_len;
#ifndef TC_NO_THREADS
    pthread_t handle;
#endif
} search_thread;

/// The engine: variant tables, hash table, threads and the position to
/// search, plus the limits of the search in progress.
struct tc_engine {
    const tc_variant *v;
    eval_table *et;
    nnue_net *net;       /* the learned evaluation, or NULL: hand-written */
    bool net_builtin;    /* net is the one built in for the board */
    char eval_text[160]; /* tc_engine_eval_text */
    tt_table tt;
    int nthreads;
    search_thread *threads[TC_ENGINE_MAX_THREADS];
    tc_position *root;
    atomic_bool stop;
    atomic_bool halt; /* tc_engine_stop was called (stop also means a limit hit) */
    int8_t lmr[64][64]; /* from sp[SP_LMR_BASE] and sp[SP_LMR_DIV] */
    int sp[SP_COUNT];   /* the search's parameters (SEARCH_PARAMS) */
    int style;          /* TC_STYLE_* flags */
    struct egtb_cache *egtb; /* solved endings (egtb_probe.c) */
    tc_poll_fn poll; /* asked every POLL_MASK+1 nodes whether to stop */
    void *poll_ctx;

    /* the search in progress */
    tc_limits limits;
    int max_depth;
    int64_t start_ms;
    _Atomic int64_t soft_ms, hard_ms; /* 0 when untimed; a ponder hit sets them */
    /* pondering (engine.c): its state, and what a hit turns it into */
    atomic_int ponder;         /* PONDER_* */
    int ponder_side;           /* the side to move at the root */
    tc_limits hit_limits;      /* clocks of a hit before the search began */
    bool hit_has_limits;
    tc_info_fn info;
    void *ctx;
};

static inline int64_t search_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline bool search_stopped(const search_thread *t)
{
    return atomic_load_explicit(&t->e->stop, memory_order_relaxed);
}

/* Make and unmake in the search: the net's accumulator follows the board. */
static inline void search_make(search_thread *t, tc_move m)
{
    if (t->nn)
        nnue_make(t->nn, t->pos, m);
    else
        tc_make_move(t->pos, m);
}

static inline void search_unmake(search_thread *t)
{
    if (t->nn)
        nnue_unmake(t->nn, t->pos);
    else
        tc_unmake_move(t->pos);
}

/* evaluate.c: the static evaluation the search uses (material, net or
 * hand-written, as the engine is set), centipawns for the side to move. */
int engine_static_eval(search_thread *t);

/* search.c: iterative deepening for one thread (the main thread or a helper). */
void search_iterate(search_thread *t);
/* level.c: with limits.elo set, the move a player of that strength picks
 * among the main thread's lines (else its best move). */
tc_move search_level_choice(const tc_engine *e, int *score);
/* level.c: the depth cap of a limited-strength search. */
int search_level_depth(int elo);
#define LEVEL_LINES 4
/* search.c: moves to mate for a mate score (negative: getting mated), else 0. */
int search_mate_moves(int score);

#endif
