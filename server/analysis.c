/* The analysis workers: see analysis.h. */
#define _GNU_SOURCE /* pthread_cond_timedwait's clock */
#include "analysis.h"

#include "game_state.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// One worker: its place in the pool and the name its leases carry.
typedef struct worker {
    struct srv_analysis *A;
    pthread_t thread;
    char owner[TA_OWNER_MAX + 1]; /* "PID@HOST/N": unique across processes */
    tc_engine *busy;              /* its engine while a job runs (under the pool's lock): stopped by a stop */
} worker;

struct srv_analysis {
    srv_gstore *store;
    tp_db *db;
    int n;
    int64_t nodes;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stopping, woken;
    worker workers[SRV_ANALYSIS_MAX_THREADS];
};

int srv_analysis_threads(const srv_analysis *A) { return A ? A->n : 0; }
int64_t srv_analysis_nodes(const srv_analysis *A) { return A ? A->nodes : SRV_ANALYSIS_NODES; }
tp_db *srv_analysis_db(const srv_analysis *A) { return A->db; }

void srv_analysis_wake(srv_analysis *A)
{
    pthread_mutex_lock(&A->lock);
    A->woken = 1;
    pthread_cond_broadcast(&A->cond);
    pthread_mutex_unlock(&A->lock);
}

static int stopping(srv_analysis *A)
{
    pthread_mutex_lock(&A->lock);
    int s = A->stopping;
    pthread_mutex_unlock(&A->lock);
    return s;
}

static void say(const char *what, const char *id, const tc_error *err)
{
    fprintf(stderr, "topochess serve: analysis %s: %s: %s\n", id, what, err->msg);
}

/* What the review keeps of a position beyond its value: the engine's line
 * (coordinates, from the best move) and, for a solved ending, its name
 * (the value is then the tables', exact). */
#define PV_MAX 8
typedef struct extra {
    char pv[PV_MAX * 8];
    char exact[16];
} extra;

/* The last completed line of the search (multipv 1). */
static void on_info(const tc_search_info *info, void *ctx)
{
    if (info->multipv <= 1 && info->bound == TC_BOUND_EXACT) {
        tc_search_info *keep = ctx;
        keep->pv_len = info->pv_len < PV_MAX ? info->pv_len : PV_MAX;
        memcpy(keep->pv, info->pv, (size_t)keep->pv_len * sizeof info->pv[0]);
    }
}

/* The line as coordinates from p (left as it was). */
static void pv_text(tc_position *p, const tc_search_info *line, char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    int made = 0;
    for (int k = 0; k < line->pv_len; k++) {
        char uci[16];
        tc_move_to_uci(p, line->pv[k], uci);
        if (len + strlen(uci) + 2 > n)
            break;
        len += (size_t)snprintf(out + len, n - len, "%s%s", k ? " " : "", uci);
        tc_make_move(p, line->pv[k]);
        made++;
        if (tc_position_status(p) != TC_ONGOING)
            break;
    }
    while (made--)
        tc_unmake_move(p);
}

/// The solved ending of the positions seen last (one at a time: a game
/// reaches few), solved here: 3 pieces without pawns, a moment on every
/// preset.
typedef struct ending_cache {
    char name[16];
    tc_egtb *table;
} ending_cache;

/* A pawnless position of at most SRV_ANALYSIS_EXACT_PIECES pieces valued
 * by the tables (for the side to move, as a search reports): 1, else 0. */
static int exact_value(ending_cache *ec, tc_position *p, tc_review_value *v, char name[16])
{
    char mat[16];
    if (!tc_egtb_material_of(p, mat) || strlen(mat) > SRV_ANALYSIS_EXACT_PIECES)
        return 0;
    if (strcmp(mat, ec->name)) {
        tc_egtb_free(ec->table);
        tc_egtb_options opt = {.threads = 1, .max_entries = 1u << 21};
        tc_error err;
        ec->table = tc_egtb_solve(tc_position_variant(p), mat, &opt, &err);
        snprintf(ec->name, sizeof ec->name, "%s", mat);
    }
    tc_egtb_result r;
    if (!ec->table || tc_egtb_probe(ec->table, p, &r))
        return 0;
    tc_move best = tc_egtb_best_move(ec->table, p, &r);
    /* plies to mate as moves: a win in 2k-1 plies is mate in k; a loss in
     * 2k plies is mated in k */
    *v = (tc_review_value){0, r.wdl > 0 ? (r.plies + 1) / 2 : r.wdl < 0 ? -(r.plies / 2) : 0, r.plies, best};
    snprintf(name, 16, "%s", tc_egtb_name(ec->table));
    return 1;
}

/* The result's JSON: the budget, the review (tc_review_json) and each
 * position's value as searched ({score, mate, depth, best} from the side
 * to move's view; what tc_review_judge takes), with its line (pv) and
 * solved ending (exact, "" for none). Heap, or NULL. */
static char *result_json(const tg_game *g, int64_t nodes, const tc_review_value *values, const extra *ex, int n,
                         const tc_review_move *moves, const tc_review_side sides[2])
{
    char *review = tc_review_json(g->pos, moves, sides);
    json_t *rv = review ? json_loads(review, 0, NULL) : NULL;
    free(review);
    json_t *vals = json_array();
    tc_position *p = tc_position_new(tc_position_variant(g->pos));
    tc_error err;
    if (!rv || !vals || !p || tc_position_set_fen(p, g->start_fen, &err)) {
        json_decref(rv);
        json_decref(vals);
        tc_position_free(p);
        return NULL;
    }
    for (int i = 0; i <= n; i++) {
        char uci[16] = "";
        if (values[i].best)
            tc_move_to_uci(p, values[i].best, uci);
        json_array_append_new(vals, json_pack("{s:i,s:i,s:i,s:s,s:s,s:s}", "score", values[i].score, "mate",
                                              values[i].mate, "depth", values[i].depth, "best", uci, "pv", ex[i].pv,
                                              "exact", ex[i].exact));
        if (i < n)
            tc_make_move(p, tc_history_move(g->pos, i));
    }
    tc_position_free(p);
    json_t *o = json_pack("{s:I,s:o,s:o}", "nodes", (json_int_t)nodes, "review", rv, "values", vals);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

int64_t srv_analysis_review(const tg_game *g, const char *result, tc_review_move *moves, tc_review_side sides[2])
{
    json_t *o = json_loads(result, 0, NULL);
    json_t *vals = o ? json_object_get(o, "values") : NULL;
    int n = tc_ply_count(g->pos);
    if (!json_is_array(vals) || (int)json_array_size(vals) != n + 1) {
        json_decref(o);
        return -1;
    }
    tc_review_value *v = calloc((size_t)n + 1, sizeof *v);
    tc_position *p = tc_position_new(tc_position_variant(g->pos));
    tc_error err;
    int bad = !v || !p || tc_position_set_fen(p, g->start_fen, &err);
    for (int i = 0; i <= n && !bad; i++) {
        json_t *x = json_array_get(vals, (size_t)i);
        const char *best = json_string_value(json_object_get(x, "best"));
        v[i].score = (int)json_integer_value(json_object_get(x, "score"));
        v[i].mate = (int)json_integer_value(json_object_get(x, "mate"));
        v[i].depth = (int)json_integer_value(json_object_get(x, "depth"));
        if (best && *best && tc_move_from_uci(p, best, &v[i].best, &err))
            bad = 1; /* a move that is not legal there: not this game's result */
        if (i < n)
            tc_make_move(p, tc_history_move(g->pos, i));
    }
    if (!bad)
        tc_review_judge(g->pos, v, moves, sides);
    int64_t nodes = (int64_t)json_integer_value(json_object_get(o, "nodes"));
    tc_position_free(p);
    free(v);
    json_decref(o);
    return bad ? -1 : nodes;
}

/* Runs a claimed job to its end: the result written, the job given back
 * (stopping), failed (a game that cannot be analysed), or dropped (the
 * lease lost to another worker). */
static void run(worker *w, const char *id)
{
    srv_analysis *A = w->A;
    tc_error err;
    tg_game g;
    tg_code rc = srv_gstore_load(A->store, id, &g, &err);
    if (rc != TG_OK) {
        if (rc == TG_ENOTFOUND)
            ta_release(A->db, id, w->owner, 1, "the game is gone", &err);
        else
            ta_release(A->db, id, w->owner, 0, NULL, &err); /* the store is down: later */
        return;
    }
    int n = tc_ply_count(g.pos), positions = n + 1;
    int64_t per = A->nodes;
    if (per * positions > A->nodes * SRV_ANALYSIS_GAME_POSITIONS)
        per = A->nodes * SRV_ANALYSIS_GAME_POSITIONS / positions;
    tc_engine *e = tc_engine_new(g.variant, 16, 1);
    tc_position *p = tc_position_new(g.variant);
    tc_review_value *values = calloc((size_t)positions, sizeof *values);
    tc_review_move *moves = calloc((size_t)positions, sizeof *moves);
    extra *ex = calloc((size_t)positions, sizeof *ex);
    ending_cache ec = {"", NULL};
    tc_search_info *line = malloc(sizeof *line);
    if (!e || !p || !values || !moves || !ex || !line || tc_position_set_fen(p, g.start_fen, &err)) {
        ta_release(A->db, id, w->owner, 0, NULL, &err);
        goto out;
    }
    tc_engine_new_game(e);
    pthread_mutex_lock(&A->lock);
    w->busy = e;
    pthread_mutex_unlock(&A->lock);
    int64_t t0 = srv_now_ms();
    for (int i = 0; i < positions; i++) {
        if (stopping(A)) {
            ta_release(A->db, id, w->owner, 0, NULL, &err);
            goto out;
        }
        if (tc_position_status(p) == TC_ONGOING && !exact_value(&ec, p, &values[i], ex[i].exact)) {
            tc_limits lim;
            tc_limits_init(&lim);
            lim.nodes = (uint64_t)per;
            tc_engine_set_position(e, p);
            line->pv_len = 0;
            tc_search_result r = tc_engine_search(e, &lim, on_info, line);
            values[i] = (tc_review_value){r.score, r.mate, r.depth, r.best};
            if (line->pv_len && line->pv[0] != r.best) /* the line of another iteration: the move alone */
                line->pv_len = 0;
            if (!line->pv_len && r.best)
                line->pv[0] = r.best, line->pv_len = 1;
            pv_text(p, line, ex[i].pv, sizeof ex[i].pv);
        } else if (values[i].best) {
            tc_move_to_uci(p, values[i].best, ex[i].pv);
        }
        int held = ta_progress(A->db, id, w->owner, i + 1, positions, srv_now_ms(), SRV_ANALYSIS_LEASE_MS, &err);
        if (held <= 0) { /* another worker has it (or the database is gone: the lease will run out) */
            if (held < 0)
                say("progress", id, &err);
            goto out;
        }
        if (i < n)
            tc_make_move(p, tc_history_move(g.pos, i));
    }
    tc_review_side sides[2];
    tc_review_judge(g.pos, values, moves, sides);
    char *json = result_json(&g, per, values, ex, n, moves, sides);
    if (!json)
        snprintf(err.msg, sizeof err.msg, "out of memory");
    int done = json ? ta_finish(A->db, id, w->owner, json, srv_now_ms(), &err) : -1;
    if (done < 0)
        say("finish", id, &err);
    else if (done)
        fprintf(stderr, "topochess serve: analysis %s done by %s: %d positions at %lld nodes in %lld ms\n", id,
                w->owner, positions, (long long)per, (long long)(srv_now_ms() - t0));
    free(json);
out:
    pthread_mutex_lock(&A->lock);
    w->busy = NULL;
    pthread_mutex_unlock(&A->lock);
    free(line);
    tc_egtb_free(ec.table);
    free(ex);
    free(moves);
    free(values);
    tc_position_free(p);
    tc_engine_free(e);
    tg_game_free(&g);
}

/* Waits for a wake-up or the poll's time. */
static void idle(srv_analysis *A)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += SRV_ANALYSIS_POLL_MS / 1000;
    until.tv_nsec += (long)(SRV_ANALYSIS_POLL_MS % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&A->lock);
    while (!A->stopping && !A->woken)
        if (pthread_cond_timedwait(&A->cond, &A->lock, &until) == ETIMEDOUT)
            break;
    A->woken = 0;
    pthread_mutex_unlock(&A->lock);
}

static void *work(void *arg)
{
    worker *w = arg;
    srv_analysis *A = w->A;
    while (!stopping(A)) {
        tc_error err;
        char ids[8][TG_ID_LEN + 1];
        int64_t now = srv_now_ms();
        if (ta_sweep(A->db, now, &err) < 0)
            say("sweep", "queue", &err);
        int k = ta_candidates(A->db, now, ids, 8, &err), took = 0;
        if (k < 0)
            say("queue", "queue", &err);
        for (int i = 0; i < k && !took; i++) {
            int c = ta_claim(A->db, ids[i], w->owner, now, SRV_ANALYSIS_LEASE_MS, &err);
            if (c > 0) {
                took = 1;
                run(w, ids[i]);
            }
        }
        if (!took)
            idle(A);
    }
    return NULL;
}

srv_analysis *srv_analysis_start(srv_gstore *store, tp_db *db, int threads, int64_t nodes)
{
    srv_analysis *A = calloc(1, sizeof *A);
    if (!A)
        return NULL;
    A->store = store;
    A->db = db;
    A->nodes = nodes > 0 ? nodes : SRV_ANALYSIS_NODES;
    pthread_mutex_init(&A->lock, NULL);
    pthread_cond_init(&A->cond, NULL);
    char host[64] = "";
    gethostname(host, sizeof host - 1);
    int want = threads < 0 ? 0 : threads > SRV_ANALYSIS_MAX_THREADS ? SRV_ANALYSIS_MAX_THREADS : threads;
    for (int i = 0; i < want; i++) {
        worker *w = &A->workers[i];
        w->A = A;
        snprintf(w->owner, sizeof w->owner, "%ld@%.24s/%d", (long)getpid(), host, i);
        if (pthread_create(&w->thread, NULL, work, w))
            break;
        A->n++;
    }
    return A;
}

void srv_analysis_stop(srv_analysis *A)
{
    if (!A)
        return;
    pthread_mutex_lock(&A->lock);
    A->stopping = 1;
    for (int i = 0; i < A->n; i++)
        if (A->workers[i].busy)
            tc_engine_stop(A->workers[i].busy);
    pthread_cond_broadcast(&A->cond);
    pthread_mutex_unlock(&A->lock);
    for (int i = 0; i < A->n; i++)
        pthread_join(A->workers[i].thread, NULL);
    pthread_mutex_destroy(&A->lock);
    pthread_cond_destroy(&A->cond);
    free(A);
}
