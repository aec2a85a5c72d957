/* The timer of hosted games: see flag_timer.h. */
#include "flag_timer.h"

#include "game_state.h"
#include "notify.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct srv_timer {
    srv_gstore *store;
    srv_streams *streams;
    srv_engines *engines;
    tp_db *db; /* the players' inbox: a correspondence game adjudicated */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stopping;
};

static int stopping(srv_timer *T)
{
    pthread_mutex_lock(&T->lock);
    int s = T->stopping;
    pthread_mutex_unlock(&T->lock);
    return s;
}

int srv_flag_check(srv_gstore *store, srv_streams *streams, tp_db *db, tg_game *g)
{
    int64_t before = g->version;
    if (!tg_game_check_flag(g, srv_now_ms()))
        return 0;
    tc_error err;
    if (srv_gstore_save(store, g, before, g->nmoves, &err) == TG_OK) {
        srv_streams_publish(streams, g);
        srv_notify_game(db, g, 0); /* once: only the process whose save won tells */
        return 1;
    }
    return 0;
}

/* Every game of the store that may wait for the server (an engine move, a
 * flag), however old: flags and engine moves that a stopped process left
 * pending. Paged by id. */
static void rescan(srv_timer *T)
{
    tg_game_summary *list = malloc(SRV_RESCAN_MAX * sizeof *list);
    char after[TG_ID_LEN + 1] = "";
    int k = SRV_RESCAN_MAX;
    tc_error err;
    while (list && k == SRV_RESCAN_MAX && !stopping(T)) {
        k = srv_gstore_pending(T->store, after, srv_now_ms(), SRV_RESCAN_MAX, list, &err);
        for (int i = 0; i < k; i++) {
            tg_game g;
            memcpy(after, list[i].id, sizeof after);
            if (srv_gstore_load(T->store, list[i].id, &g, &err) != TG_OK)
                continue;
            if (!srv_flag_check(T->store, T->streams, T->db, &g) && srv_engine_to_move(&g))
                srv_engines_enqueue(T->engines, g.id, "");
            tg_game_free(&g);
        }
    }
    free(list);
}

/* Every half second: the watched games here whose flag deadline has come
 * are loaded and judged (no other game is loaded); every ten seconds the
 * store is rescanned. */
static void *timer_main(void *arg)
{
    srv_timer *T = arg;
    int tick = 0;
    pthread_mutex_lock(&T->lock);
    while (!T->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 500 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&T->cond, &T->lock, &ts);
        if (T->stopping)
            break;
        pthread_mutex_unlock(&T->lock);
        tick++;
        int n = 0;
        char (*ids)[TG_ID_LEN + 1];
        /* an event every 5 s keeps idle streams (and proxies) alive and
         * finds the watchers that left: a suspended stream notices a
         * closed socket only when it writes */
        if (tick % 10 == 0) {
            ids = srv_streams_watched(T->streams, &n);
            for (int i = 0; i < n; i++)
                srv_streams_event(T->streams, ids[i], 0, "ping", "{}");
            free(ids);
        }
        /* only the watched games whose flag may have fallen are loaded */
        ids = srv_streams_due(T->streams, srv_now_ms(), &n);
        for (int i = 0; i < n; i++) {
            tg_game g;
            tc_error err;
            if (srv_gstore_load(T->store, ids[i], &g, &err) == TG_OK) {
                if (!srv_flag_check(T->store, T->streams, T->db, &g)) /* the clock moved on meanwhile */
                    srv_streams_set_deadline(T->streams, g.id, srv_flag_deadline(&g, srv_now_ms()));
                tg_game_free(&g);
            }
        }
        free(ids);
        if (tick % 20 == 1)
            rescan(T);
        pthread_mutex_lock(&T->lock);
    }
    pthread_mutex_unlock(&T->lock);
    return NULL;
}

srv_timer *srv_timer_start(srv_gstore *store, srv_streams *streams, srv_engines *engines, tp_db *db)
{
    srv_timer *T = calloc(1, sizeof *T);
    if (!T)
        return NULL;
    T->store = store;
    T->streams = streams;
    T->engines = engines;
    T->db = db;
    pthread_mutex_init(&T->lock, NULL);
    pthread_cond_init(&T->cond, NULL);
    pthread_create(&T->thread, NULL, timer_main, T);
    return T;
}

void srv_timer_stop(srv_timer *T)
{
    if (!T)
        return;
    pthread_mutex_lock(&T->lock);
    T->stopping = 1;
    pthread_cond_broadcast(&T->cond);
    pthread_mutex_unlock(&T->lock);
    pthread_join(T->thread, NULL);
    pthread_mutex_destroy(&T->lock);
    pthread_cond_destroy(&T->cond);
    free(T);
}
