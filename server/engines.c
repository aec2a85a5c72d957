/* The engine's worker pool: see engines.h. */
#include "engines.h"

#include "game_state.h"
#include "topochess_engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// A game waiting for an engine move.
typedef struct job {
    char id[TG_ID_LEN + 1];
    struct job *next;
} job;

/// The jobs one client caused, first in first out.
typedef struct lane {
    char client[48];
    job *head, *tail;
    struct lane *next;
} lane;

struct srv_engines {
    srv_gstore *store;
    srv_streams *streams;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    lane *lanes; /* the clients with jobs; served in turn from `turn` */
    lane *turn;
    int len;     /* jobs in all lanes */
    int stopping;
    int n;
    pthread_t workers[SRV_MAX_ENGINE_THREADS];
};

void srv_engines_enqueue(srv_engines *E, const char *id, const char *client)
{
    pthread_mutex_lock(&E->lock);
    int dup = 0;
    lane *l = NULL;
    for (lane *x = E->lanes; x && !dup; x = x->next) {
        if (!strcmp(x->client, client))
            l = x;
        for (job *j = x->head; j && !dup; j = j->next)
            dup = !strcmp(j->id, id);
    }
    job *j = dup || E->len >= SRV_ENGINE_QUEUE ? NULL : calloc(1, sizeof *j);
    if (j && !l && (l = calloc(1, sizeof *l))) {
        snprintf(l->client, sizeof l->client, "%s", client);
        l->next = E->lanes;
        E->lanes = l;
    }
    if (j && l) {
        snprintf(j->id, sizeof j->id, "%s", id);
        if (l->tail)
            l->tail->next = j;
        else
            l->head = j;
        l->tail = j;
        E->len++;
        pthread_cond_signal(&E->cond);
    } else {
        free(j);
    }
    pthread_mutex_unlock(&E->lock);
}

/* The next job, one client after another (under the lock, len > 0). */
static void next_job(srv_engines *E, char id[TG_ID_LEN + 1])
{
    lane *l = E->turn ? E->turn : E->lanes;
    job *j = l->head;
    memcpy(id, j->id, TG_ID_LEN + 1);
    l->head = j->next;
    if (!l->head)
        l->tail = NULL;
    free(j);
    E->len--;
    E->turn = l->next;
    if (!l->head) { /* the client has no more jobs: its lane goes */
        lane **p = &E->lanes;
        while (*p != l)
            p = &(*p)->next;
        *p = l->next;
        free(l);
    }
}

/* One engine move for a game (when it is still the engine's turn). */
static void engine_move(srv_engines *E, const char *id)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        tg_game g;
        tc_error err;
        if (srv_gstore_load(E->store, id, &g, &err) != TG_OK)
            return;
        int64_t t0 = srv_now_ms();
        int flagged = tg_game_check_flag(&g, t0);
        if (!flagged && !srv_engine_to_move(&g)) {
            tg_game_free(&g);
            return;
        }
        int64_t version = g.version - flagged;
        int stored = g.nmoves;
        if (!flagged) {
            tc_engine *e = tc_engine_new(g.variant, 8, 1);
            if (!e) {
                tg_game_free(&g);
                return;
            }
            tc_engine_set_position(e, g.pos);
            tc_limits lim;
            tc_limits_init(&lim);
            lim.level = g.engine_level;
            lim.movetime = 1000;
            if (g.clock.kind == TG_CLOCK_FISCHER) {
                int64_t left = tg_game_clock_left(&g, g.engine_side, t0);
                int64_t budget = left / 40 + g.clock.increment_ms / 2;
                lim.movetime = budget < 50 ? 50 : budget > 1000 ? 1000 : budget;
            }
            tc_search_result r = tc_engine_search(e, &lim, NULL, NULL);
            tc_engine_free(e);
            char uci[32];
            if (!r.best) {
                tg_game_free(&g);
                return;
            }
            tc_move_to_uci(g.pos, r.best, uci);
            if (tg_game_move(&g, g.engine_side, uci, srv_now_ms(), &err) != TG_OK) {
                tg_game_free(&g);
                return;
            }
        }
        tg_code rc = srv_gstore_save(E->store, &g, version, stored, &err);
        if (rc == TG_OK)
            srv_streams_publish(E->streams, &g);
        tg_game_free(&g);
        if (rc != TG_ECONFLICT)
            return;
    }
}

static void *worker(void *arg)
{
    srv_engines *E = arg;
    for (;;) {
        pthread_mutex_lock(&E->lock);
        while (!E->len && !E->stopping)
            pthread_cond_wait(&E->cond, &E->lock);
        if (E->stopping) {
            pthread_mutex_unlock(&E->lock);
            return NULL;
        }
        char id[TG_ID_LEN + 1];
        next_job(E, id);
        pthread_mutex_unlock(&E->lock);
        engine_move(E, id);
    }
}

srv_engines *srv_engines_start(srv_gstore *store, srv_streams *streams, int threads)
{
    srv_engines *E = calloc(1, sizeof *E);
    if (!E)
        return NULL;
    E->store = store;
    E->streams = streams;
    pthread_mutex_init(&E->lock, NULL);
    pthread_cond_init(&E->cond, NULL);
    E->n = threads < 1 ? 1 : threads > SRV_MAX_ENGINE_THREADS ? SRV_MAX_ENGINE_THREADS : threads;
    for (int i = 0; i < E->n; i++)
        pthread_create(&E->workers[i], NULL, worker, E);
    return E;
}

void srv_engines_stop(srv_engines *E)
{
    if (!E)
        return;
    pthread_mutex_lock(&E->lock);
    E->stopping = 1;
    pthread_cond_broadcast(&E->cond);
    pthread_mutex_unlock(&E->lock);
    for (int i = 0; i < E->n; i++)
        pthread_join(E->workers[i], NULL);
    while (E->lanes) {
        lane *l = E->lanes;
        E->lanes = l->next;
        while (l->head) {
            job *j = l->head;
            l->head = j->next;
            free(j);
        }
        free(l);
    }
    pthread_mutex_destroy(&E->lock);
    pthread_cond_destroy(&E->cond);
    free(E);
}
