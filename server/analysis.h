/* The server's computer analysis of finished games (docs/analysis.md):
 * workers that take jobs from the database's queue (games/analysis_store.h)
 * under a lease, search every position of the game to a node budget,
 * judge the moves (tc_review_judge) and store the result with the game.
 * A position of a solved ending (SRV_ANALYSIS_EXACT_PIECES pieces or
 * fewer, no pawns) is not searched: its value is the tables', exact.
 *
 * Once across processes: a worker claims a job by a conditional UPDATE
 * with an expiry and renews it after every position; a process killed
 * mid-job loses nothing (its lease runs out and another worker takes the
 * job again from the start), and a worker that lost its lease stops
 * without writing. A job started TA_MAX_ATTEMPTS times is given up.
 *
 * Limits: SRV_ANALYSIS_MAX_THREADS workers a process (serve
 * --analysis-threads K, default 1, 0 = off), each searching on one
 * thread with a 16 MiB table; nodes a position (serve --analysis-nodes N,
 * default SRV_ANALYSIS_NODES), and at most SRV_ANALYSIS_GAME_POSITIONS
 * times that for a whole game (a longer game gets fewer a position); an
 * idle worker looks at the queue every SRV_ANALYSIS_POLL_MS (at once when
 * a request here queued a job).
 *
 * Calls game_store.h, game_state.h and games/analysis_store.h. */
#ifndef SRV_ANALYSIS_H
#define SRV_ANALYSIS_H

#include "analysis_store.h"
#include "game_store.h"

#define SRV_ANALYSIS_MAX_THREADS 8
#define SRV_ANALYSIS_NODES 100000
#define SRV_ANALYSIS_GAME_POSITIONS 241 /* a 120-move game at the full budget */
#define SRV_ANALYSIS_LEASE_MS 10000
#define SRV_ANALYSIS_POLL_MS 1000
/* positions of this many pieces or fewer, without pawns, are valued by
 * their solved ending (solved by the worker: a moment for 3 pieces) */
#define SRV_ANALYSIS_EXACT_PIECES 3

typedef struct srv_analysis srv_analysis;

/* Starts threads workers (0: none; the queue still answers) searching
 * nodes a position (0: SRV_ANALYSIS_NODES). NULL when out of memory. */
srv_analysis *srv_analysis_start(srv_gstore *store, tp_db *db, int threads, int64_t nodes);
/* Stops the workers: a job in progress goes back to the queue. */
void srv_analysis_stop(srv_analysis *A);
int srv_analysis_threads(const srv_analysis *A);
int64_t srv_analysis_nodes(const srv_analysis *A);
tp_db *srv_analysis_db(const srv_analysis *A);
/* A job was queued here: an idle worker looks now. */
void srv_analysis_wake(srv_analysis *A);

/* Rebuilds a stored result's review of g (result: the JSON of a done job):
 * moves (tc_ply_count(g->pos) of them) and sides. The nodes a position it
 * was searched with, or -1 when the result does not fit the game. */
int64_t srv_analysis_review(const tg_game *g, const char *result, tc_review_move *moves, tc_review_side sides[2]);

#endif
