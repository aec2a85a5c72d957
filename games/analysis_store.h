/* The server's queue of computer analyses of finished games (migration
 * 12, docs/analysis.md): one row a game, from queued to done. Rows only;
 * the workers are server/analysis.c's.
 *
 * A job is owned by one worker at a time through a lease: a conditional
 * UPDATE claims a queued row (or a running one whose lease has expired:
 * its worker died) and sets an expiry that the worker renews after every
 * position; a worker that lost its lease stops, so a job's result is
 * written once, by the worker that holds it, whatever the number of
 * server processes (lichess's fishnet works the same way).
 *
 * Order (fairness): the queued jobs are taken round-robin between their
 * requesters: a job's rank is how many of its requester's jobs are
 * queued or running before it, and the lowest rank goes first, then the
 * oldest. So one account's three requests wait behind another's first. */
#ifndef TA_ANALYSIS_STORE_H
#define TA_ANALYSIS_STORE_H

#include "game.h"
#include "people_db.h"

typedef enum { TA_NONE = 0, TA_QUEUED = 1, TA_RUNNING = 2, TA_DONE = 3, TA_FAILED = 4 } ta_state;

#define TA_REQUESTER_MAX 63
#define TA_OWNER_MAX 47
/* a job whose worker died this many times is given up (state failed) */
#define TA_MAX_ATTEMPTS 3

/// One game's analysis: who asked, where it stands, and (done) its result.
typedef struct ta_job {
    char game_id[TG_ID_LEN + 1];
    char requester[TA_REQUESTER_MAX + 1]; /* "user:<id>" or "addr:<address>" */
    ta_state state;
    int64_t nodes;                        /* the budget a position */
    char owner[TA_OWNER_MAX + 1];         /* the worker holding the lease */
    int64_t lease_ms;                     /* until when */
    int done, total, attempts;            /* positions searched of total; claims */
    int64_t created_ms, started_ms, done_ms;
    char *result;                         /* heap JSON when done (ta_job_free), else NULL */
} ta_job;

void ta_job_free(ta_job *j);
const char *ta_state_name(ta_state s); /* "none", "queued", "running", "done", "failed" */

/* The game's row: 1 with out, 0 none, -1 with err. */
int ta_get(tp_db *d, const char *game_id, ta_job *out, tc_error *err);

#define TA_EUSER (-3)  /* the requester has per_user jobs waiting already */
#define TA_EFULL (-4)  /* queue_max jobs wait in all */
/* Queues game_id for requester (a failed one again): 1 queued, 0 when the
 * game has a row already (queued, running or done: nothing changes),
 * TA_EUSER, TA_EFULL, or -1 with err. One transaction. */
int ta_queue(tp_db *d, const char *game_id, const char *requester, int64_t nodes, int64_t now_ms, int per_user,
             int queue_max, tc_error *err);
/* The jobs a worker may take now, in the order of fairness (queued ones,
 * and running ones whose lease expired before now_ms): up to max ids. */
int ta_candidates(tp_db *d, int64_t now_ms, char (*ids)[TG_ID_LEN + 1], int max, tc_error *err);
/* A queued job's place in that order (1: next), 0 when it is not queued. */
int ta_position(tp_db *d, const char *game_id, int64_t now_ms, tc_error *err);
/* Jobs waiting in all (queued). */
int ta_waiting(tp_db *d, tc_error *err);
/* Claims a job for owner until now_ms + lease_ms: 1 when this caller won
 * it (it was queued, or running with an expired lease), else 0; -1. */
int ta_claim(tp_db *d, const char *game_id, const char *owner, int64_t now_ms, int64_t lease_ms, tc_error *err);
/* Progress, renewing the lease: 1 while owner holds it, 0 when it was lost
 * (another worker took the job: stop), -1. */
int ta_progress(tp_db *d, const char *game_id, const char *owner, int done, int total, int64_t now_ms,
                int64_t lease_ms, tc_error *err);
/* The result (JSON), written only by the lease's holder: 1, 0 (lost), -1. */
int ta_finish(tp_db *d, const char *game_id, const char *owner, const char *result, int64_t now_ms, tc_error *err);
/* Gives a job up: back to queued (a stopping worker), or failed (a game
 * that cannot be analysed) with result as the reason. 1, 0, -1. */
int ta_release(tp_db *d, const char *game_id, const char *owner, int failed, const char *why, tc_error *err);
/* Jobs whose worker died TA_MAX_ATTEMPTS times become failed: the count. */
int ta_sweep(tp_db *d, int64_t now_ms, tc_error *err);

#endif
