/* Spectators across processes: see spectators.h. */
#define _GNU_SOURCE /* pthread */
#include "spectators.h"

#include "game_state.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct srv_spectators {
    tp_db *db;
    srv_streams *S;
    char me[17]; /* this process's id in the rows */
    pthread_t thread;
    atomic_int stop;
    pthread_mutex_t sleep_lock;
    pthread_cond_t wake;
};

static int first_int(void *ctx, int n, const char *const *v)
{
    *(long long *)ctx = n > 0 ? strtoll(v[0], NULL, 10) : 0;
    return 1;
}

/* The sum over the rows that still beat; -1 on a fault (logged). */
static long long total(srv_spectators *X, const char *id)
{
    tc_error err;
    long long n = 0;
    tp_arg a[] = {TP_TEXT(id), TP_INT(srv_now_ms() - SRV_SPECTATORS_STALE_MS)};
    if (tp_db_exec(X->db, "SELECT COALESCE(SUM(n), 0) FROM game_watchers WHERE game_id = ?1 AND seen_ms >= ?2", a, 2,
                   first_int, &n, &err) < 0) {
        fprintf(stderr, "topochess serve: spectators: %s\n", err.msg);
        return -1;
    }
    return n;
}

static void send_count(srv_spectators *X, const char *id, long long n)
{
    char json[48];
    snprintf(json, sizeof json, "{\"spectators\":%lld}", n);
    srv_streams_event(X->S, id, 0, "watchers", json);
}

void srv_spectators_push(srv_spectators *X, const char *id)
{
    if (!X || !srv_streams_wants(X->S, id, INT64_MAX))
        return;
    long long n = total(X, id);
    if (n >= 0)
        send_count(X, id, n);
}

/* The beat's sums: every game's rows that still beat, in one query, handed
 * to the watched games here (ids sorted, sum[i] for ids[i]). */
typedef struct {
    char (*ids)[TG_ID_LEN + 1];
    int n;
    long long *sum;
} beat_sums;

static int cmp_id(const void *a, const void *b) { return strcmp(a, b); }

static int add_sum(void *ctx, int nc, const char *const *v)
{
    beat_sums *s = ctx;
    if (nc < 2 || !v[0] || !v[1])
        return 0;
    char(*hit)[TG_ID_LEN + 1] = bsearch(v[0], s->ids, (size_t)s->n, sizeof *s->ids, cmp_id);
    if (hit)
        s->sum[hit - s->ids] = strtoll(v[1], NULL, 10);
    return 0;
}

/* Every watched game here gets the sum again: one query for all of them
 * (a query per game made a beat cost as many transactions as games). */
static void push_all(srv_spectators *X)
{
    int n = 0;
    char(*ids)[TG_ID_LEN + 1] = srv_streams_watched(X->S, &n);
    long long *sum = n > 0 ? calloc((size_t)n, sizeof *sum) : NULL;
    if (n > 0 && ids && sum) {
        qsort(ids, (size_t)n, sizeof *ids, cmp_id);
        beat_sums s = {ids, n, sum};
        tc_error err;
        tp_arg a[] = {TP_INT(srv_now_ms() - SRV_SPECTATORS_STALE_MS)};
        if (tp_db_exec(X->db, "SELECT game_id, SUM(n) FROM game_watchers WHERE seen_ms >= ?1 GROUP BY game_id", a, 1,
                       add_sum, &s, &err) < 0)
            fprintf(stderr, "topochess serve: spectators: %s\n", err.msg);
        else
            for (int i = 0; i < n && !atomic_load(&X->stop); i++)
                if (srv_streams_wants(X->S, ids[i], INT64_MAX))
                    send_count(X, ids[i], sum[i]);
    }
    free(sum);
    free(ids);
}

void srv_spectators_here(srv_spectators *X, const char *id, int n)
{
    tc_error err;
    tp_arg a[] = {TP_TEXT(id), TP_TEXT(X->me), TP_INT(n), TP_INT(srv_now_ms())};
    int rc = n > 0 ? tp_db_exec(X->db,
                                "INSERT INTO game_watchers (game_id, process, n, seen_ms) VALUES (?1, ?2, ?3, ?4) "
                                "ON CONFLICT (game_id, process) DO UPDATE SET n = excluded.n, seen_ms = excluded.seen_ms",
                                a, 4, NULL, NULL, &err)
                   : tp_db_exec(X->db, "DELETE FROM game_watchers WHERE game_id = ?1 AND process = ?2", a, 2, NULL,
                                NULL, &err);
    char note[48];
    snprintf(note, sizeof note, "%.16s -1", id);
    if (rc < 0 || (tp_db_shared(X->db) && tp_db_notify(X->db, "tg_games", note, &err))) {
        fprintf(stderr, "topochess serve: spectators: %s\n", err.msg);
        return;
    }
    if (!tp_db_shared(X->db)) /* no other process: the sum to the watchers here now */
        srv_spectators_push(X, id);
}

/* A beat: this process's rows stay fresh, and the watchers here get the
 * sum again (a process that stopped beating no longer counts). */
static void beat(srv_spectators *X, int round)
{
    tc_error err;
    int64_t now = srv_now_ms();
    tp_arg a[] = {TP_TEXT(X->me), TP_INT(now), TP_INT(now - 2 * SRV_SPECTATORS_STALE_MS)};
    if (tp_db_exec(X->db, "UPDATE game_watchers SET seen_ms = ?2 WHERE process = ?1", a, 2, NULL, NULL, &err) < 0)
        fprintf(stderr, "topochess serve: spectators: %s\n", err.msg);
    if (round % 10 == 0)
        tp_db_exec(X->db, "DELETE FROM game_watchers WHERE seen_ms < ?3", a, 3, NULL, NULL, &err);
    if (!tp_db_shared(X->db))
        return; /* one process: its counts are sent as they change */
    push_all(X);
}

static void *beat_main(void *arg)
{
    srv_spectators *X = arg;
    for (int round = 1; !atomic_load(&X->stop); round++) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(SRV_SPECTATORS_BEAT_MS % 1000) * 1000000L;
        until.tv_sec += SRV_SPECTATORS_BEAT_MS / 1000 + until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_mutex_lock(&X->sleep_lock);
        if (!atomic_load(&X->stop))
            pthread_cond_timedwait(&X->wake, &X->sleep_lock, &until);
        pthread_mutex_unlock(&X->sleep_lock);
        if (!atomic_load(&X->stop))
            beat(X, round);
    }
    return NULL;
}

srv_spectators *srv_spectators_start(tp_db *db, srv_streams *S)
{
    srv_spectators *X = calloc(1, sizeof *X);
    if (!X)
        return NULL;
    X->db = db;
    X->S = S;
    unsigned char raw[8];
    tg_random_bytes(raw, sizeof raw);
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(X->me + 2 * i, 3, "%02x", raw[i]);
    pthread_mutex_init(&X->sleep_lock, NULL);
    pthread_cond_init(&X->wake, NULL);
    if (pthread_create(&X->thread, NULL, beat_main, X)) {
        pthread_mutex_destroy(&X->sleep_lock);
        pthread_cond_destroy(&X->wake);
        free(X);
        return NULL;
    }
    return X;
}

void srv_spectators_stop(srv_spectators *X)
{
    if (!X)
        return;
    pthread_mutex_lock(&X->sleep_lock);
    atomic_store(&X->stop, 1);
    pthread_cond_signal(&X->wake);
    pthread_mutex_unlock(&X->sleep_lock);
    pthread_join(X->thread, NULL);
    tc_error err;
    tp_arg a[] = {TP_TEXT(X->me)};
    tp_db_exec(X->db, "DELETE FROM game_watchers WHERE process = ?1", a, 1, NULL, NULL, &err);
    pthread_mutex_destroy(&X->sleep_lock);
    pthread_cond_destroy(&X->wake);
    free(X);
}
