/* The timer of hosted games: see flag_timer.h. */
#include "flag_timer.h"

#include "game_state.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct srv_timer {
    srv_gstore *store;
    srv_streams *streams;
    srv_engines *engines;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stopping;
};

int srv_flag_check(srv_gstore *store, srv_streams *streams, tg_game *g)
{
    int64_t before = g->version;
    if (!tg_game_check_flag(g, srv_now_ms()))
        return 0;
    tc_error err;
    if (srv_gstore_save(store, g, before, g->nmoves, &err) == TG_OK) {
        srv_streams_publish(streams, g);
        return 1;
    }
    return 0;
}

/* The recently changed games of the store: flags and engine moves that a
 * stopped process left pending. */
static void rescan(srv_timer *T)
{
    tg_game_summary *list = malloc(SRV_RESCAN_MAX * sizeof *list);
    int k = -1;
    tc_error err;
    if (list)
        k = srv_gstore_list(T->store, NULL, SRV_RESCAN_MAX, list, &err);
    for (int i = 0; i < k; i++) {
        if (strcmp(list[i].result, "*"))
            continue;
        tg_game g;
        if (srv_gstore_load(T->store, list[i].id, &g, &err) != TG_OK)
            continue;
        if (!srv_flag_check(T->store, T->streams, &g) && srv_engine_to_move(&g))
            srv_engines_enqueue(T->engines, g.id);
        tg_game_free(&g);
    }
    free(list);
}

/* Every half second: the watched games here are checked for flag falls;
 * every ten seconds the store is rescanned. */
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
        char (*ids)[TG_ID_LEN + 1] = srv_streams_watched(T->streams, &n);
        if (tick % 30 == 0) /* a comment line keeps idle streams (and proxies) alive */
            for (int i = 0; i < n; i++)
                srv_streams_event(T->streams, ids[i], 0, "ping", "{}");
        for (int i = 0; i < n; i++) {
            tg_game g;
            tc_error err;
            if (srv_gstore_load(T->store, ids[i], &g, &err) == TG_OK) {
                if (tg_game_active(&g) && g.clock.kind != TG_CLOCK_NONE)
                    srv_flag_check(T->store, T->streams, &g);
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

srv_timer *srv_timer_start(srv_gstore *store, srv_streams *streams, srv_engines *engines)
{
    srv_timer *T = calloc(1, sizeof *T);
    if (!T)
        return NULL;
    T->store = store;
    T->streams = streams;
    T->engines = engines;
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
