/* The analysis queue's rows (analysis_store.h). */
#include "analysis_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A_COLS                                                                                                   \
    "game_id, requester, state, nodes, owner, lease_ms, done, total, attempts, created_ms, started_ms, done_ms, " \
    "result"

/* The order in which workers take jobs: round-robin between requesters
 * (rank: the requester's own jobs queued or running before this one),
 * then the oldest. ?1 is now: a running job whose lease expired counts as
 * queued. */
#define TA_TAKEABLE "(a.state = 1 OR (a.state = 2 AND a.lease_ms < ?1)) AND a.attempts < " TA_ATTEMPTS_SQL
#define TA_ATTEMPTS_SQL "3"
_Static_assert(TA_MAX_ATTEMPTS == 3, "TA_ATTEMPTS_SQL must be TA_MAX_ATTEMPTS");
#define TA_ORDER                                                                                                 \
    "ORDER BY (SELECT COUNT(*) FROM analysis b WHERE b.requester = a.requester AND b.state IN (1, 2) AND "       \
    "(b.created_ms < a.created_ms OR (b.created_ms = a.created_ms AND b.game_id < a.game_id))), a.created_ms, "  \
    "a.game_id"

static int64_t num(const char *s) { return s && *s ? strtoll(s, NULL, 10) : 0; }

void ta_job_free(ta_job *j)
{
    if (j) {
        free(j->result);
        j->result = NULL;
    }
}

const char *ta_state_name(ta_state s)
{
    static const char *const names[] = {"none", "queued", "running", "done", "failed"};
    return s >= TA_NONE && s <= TA_FAILED ? names[s] : "none";
}

static int job_row(void *ctx, int n, const char *const *v)
{
    ta_job *j = ctx;
    if (n < 13)
        return 1;
    snprintf(j->game_id, sizeof j->game_id, "%s", v[0]);
    snprintf(j->requester, sizeof j->requester, "%s", v[1]);
    j->state = (ta_state)num(v[2]);
    j->nodes = num(v[3]);
    snprintf(j->owner, sizeof j->owner, "%s", v[4]);
    j->lease_ms = num(v[5]);
    j->done = (int)num(v[6]);
    j->total = (int)num(v[7]);
    j->attempts = (int)num(v[8]);
    j->created_ms = num(v[9]);
    j->started_ms = num(v[10]);
    j->done_ms = num(v[11]);
    j->result = j->state == TA_DONE || j->state == TA_FAILED ? strdup(v[12]) : NULL;
    return 1;
}

int ta_get(tp_db *d, const char *game_id, ta_job *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    tp_arg a[] = {TP_TEXT(game_id)};
    int rc = tp_db_exec(d, "SELECT " A_COLS " FROM analysis WHERE game_id = ?1", a, 1, job_row, out, err);
    if (rc < 0)
        return -1;
    return out->game_id[0] != '\0';
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(int *)ctx = n > 0 ? (int)num(v[0]) : 0;
    return 1;
}

int ta_waiting(tp_db *d, tc_error *err)
{
    int n = 0;
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM analysis WHERE state = 1", NULL, 0, first_int, &n, err);
    return rc < 0 ? -1 : n;
}

int ta_queue(tp_db *d, const char *game_id, const char *requester, int64_t nodes, int64_t now_ms, int per_user,
             int queue_max, tc_error *err)
{
    if (tp_db_begin(d, err))
        return -1;
    ta_job j;
    int rc = ta_get(d, game_id, &j, err);
    ta_job_free(&j);
    int mine = 0, all = 0;
    tp_arg r[] = {TP_TEXT(requester)};
    if (rc == 0 || (rc == 1 && j.state == TA_FAILED)) {
        if (tp_db_exec(d, "SELECT COUNT(*) FROM analysis WHERE requester = ?1 AND state IN (1, 2)", r, 1, first_int,
                       &mine, err) < 0 ||
            (all = ta_waiting(d, err)) < 0)
            rc = -1;
        else if (mine >= per_user)
            rc = TA_EUSER;
        else if (all >= queue_max)
            rc = TA_EFULL;
        else {
            tp_arg a[] = {TP_TEXT(game_id), TP_TEXT(requester), TP_INT(nodes), TP_INT(now_ms)};
            int w = tp_db_exec(d,
                               rc == 0 ? "INSERT INTO analysis (" A_COLS ") VALUES (?1, ?2, 1, ?3, '', 0, 0, 0, 0, ?4, "
                                         "0, 0, '')"
                                       : "UPDATE analysis SET requester = ?2, state = 1, nodes = ?3, owner = '', "
                                         "lease_ms = 0, done = 0, total = 0, attempts = 0, created_ms = ?4, "
                                         "started_ms = 0, done_ms = 0, result = '' WHERE game_id = ?1",
                               a, 4, NULL, NULL, err);
            rc = w == TP_EUNIQUE ? 0 : w < 0 ? -1 : 1; /* another process queued it first */
        }
    } else if (rc == 1) {
        rc = 0;
    }
    if (tp_db_end(d, rc >= 0, err))
        return -1;
    return rc;
}

typedef struct {
    char (*ids)[TG_ID_LEN + 1];
    int n, max;
    const char *find; /* ta_position: the id sought */
    int found;
} idlist;

static int id_row(void *ctx, int n, const char *const *v)
{
    idlist *l = ctx;
    if (n < 1)
        return 1;
    if (l->find) {
        l->n++;
        if (!strcmp(v[0], l->find)) {
            l->found = l->n;
            return 1;
        }
        return 0;
    }
    if (l->n >= l->max)
        return 1;
    snprintf(l->ids[l->n++], TG_ID_LEN + 1, "%s", v[0]);
    return 0;
}

int ta_candidates(tp_db *d, int64_t now_ms, char (*ids)[TG_ID_LEN + 1], int max, tc_error *err)
{
    idlist l = {ids, 0, max, NULL, 0};
    tp_arg a[] = {TP_INT(now_ms), TP_INT(max)};
    int rc = tp_db_exec(d, "SELECT a.game_id FROM analysis a WHERE " TA_TAKEABLE " " TA_ORDER " LIMIT ?2", a, 2, id_row,
                        &l, err);
    return rc < 0 ? -1 : l.n;
}

int ta_position(tp_db *d, const char *game_id, int64_t now_ms, tc_error *err)
{
    idlist l = {NULL, 0, 0, game_id, 0};
    tp_arg a[] = {TP_INT(now_ms)};
    int rc = tp_db_exec(d, "SELECT a.game_id FROM analysis a WHERE " TA_TAKEABLE " " TA_ORDER, a, 1, id_row, &l, err);
    return rc < 0 ? -1 : l.found;
}

int ta_claim(tp_db *d, const char *game_id, const char *owner, int64_t now_ms, int64_t lease_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(game_id), TP_TEXT(owner), TP_INT(now_ms), TP_INT(now_ms + lease_ms)};
    int rc = tp_db_exec(d,
                        "UPDATE analysis SET state = 2, owner = ?2, lease_ms = ?4, attempts = attempts + 1, "
                        "started_ms = ?3, done = 0 WHERE game_id = ?1 AND attempts < " TA_ATTEMPTS_SQL
                        " AND (state = 1 OR (state = 2 AND lease_ms < ?3))",
                        a, 4, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int ta_progress(tp_db *d, const char *game_id, const char *owner, int done, int total, int64_t now_ms,
                int64_t lease_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(game_id), TP_TEXT(owner), TP_INT(done), TP_INT(total), TP_INT(now_ms + lease_ms)};
    int rc = tp_db_exec(d,
                        "UPDATE analysis SET done = ?3, total = ?4, lease_ms = ?5 WHERE game_id = ?1 AND owner = ?2 "
                        "AND state = 2",
                        a, 5, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int ta_finish(tp_db *d, const char *game_id, const char *owner, const char *result, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(game_id), TP_TEXT(owner), TP_TEXT(result), TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "UPDATE analysis SET state = 3, result = ?3, done_ms = ?4, done = total, lease_ms = 0 "
                        "WHERE game_id = ?1 AND owner = ?2 AND state = 2",
                        a, 4, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int ta_release(tp_db *d, const char *game_id, const char *owner, int failed, const char *why, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(game_id), TP_TEXT(owner), TP_TEXT(why ? why : "")};
    int rc = tp_db_exec(d,
                        failed ? "UPDATE analysis SET state = 4, result = ?3, lease_ms = 0 WHERE game_id = ?1 AND "
                                 "owner = ?2 AND state = 2"
                               : "UPDATE analysis SET state = 1, owner = '', lease_ms = 0, attempts = attempts - 1, "
                                 "done = 0 WHERE game_id = ?1 AND owner = ?2 AND state = 2",
                        a, failed ? 3 : 2, NULL, NULL, err); /* PostgreSQL refuses a parameter it is not given a use for */
    return rc < 0 ? -1 : rc > 0;
}

int ta_sweep(tp_db *d, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_INT(now_ms)};
    return tp_db_exec(d,
                      "UPDATE analysis SET state = 4, result = 'the analysis stopped " TA_ATTEMPTS_SQL
                      " times (its worker died)', lease_ms = 0 WHERE state = 2 AND lease_ms < ?1 AND attempts >= "
                      TA_ATTEMPTS_SQL,
                      a, 1, NULL, NULL, err);
}
