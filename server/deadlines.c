/* Deadlines for request heads and bodies: see deadlines.h. */
#include "deadlines.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum { HEAD, BODY, ANSWERED, CUT };

/// One open connection: its socket, its peer and its phase.
typedef struct conn {
    srv_deadlines *D;
    int fd;
    struct sockaddr_storage peer;
    socklen_t peer_len;
    atomic_int phase;
    _Atomic int64_t since; /* monotonic ms the phase began */
    struct conn *prev, *next;
} conn;

struct srv_deadlines {
    int64_t head_ms, body_ms, idle_ms;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    conn *all;
    int stopping;
    atomic_long cut;
    pthread_t thread;
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static conn *of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

static void enter(struct MHD_Connection *c, int phase)
{
    conn *k = of(c);
    if (k && atomic_load(&k->phase) != CUT) {
        /* on a kept connection the next head may start after the idle
         * timeout's allowance */
        atomic_store(&k->since, mono_ms() + (phase == HEAD ? k->D->idle_ms : 0));
        atomic_store(&k->phase, phase);
    }
}

void srv_deadlines_head_done(struct MHD_Connection *c) { enter(c, BODY); }
void srv_deadlines_answered(struct MHD_Connection *c) { enter(c, ANSWERED); }
void srv_deadlines_request_done(struct MHD_Connection *c) { enter(c, HEAD); }

void srv_deadlines_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    srv_deadlines *D = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        conn *k = calloc(1, sizeof *k);
        const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!k || !fd) {
            free(k);
            return;
        }
        k->D = D;
        k->fd = fd->connect_fd;
        k->peer_len = sizeof k->peer;
        if (getpeername(k->fd, (struct sockaddr *)&k->peer, &k->peer_len))
            k->peer_len = 0;
        atomic_store(&k->since, mono_ms());
        atomic_store(&k->phase, HEAD);
        pthread_mutex_lock(&D->lock);
        k->next = D->all;
        if (D->all)
            D->all->prev = k;
        D->all = k;
        pthread_mutex_unlock(&D->lock);
        *socket_context = k;
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        conn *k = *socket_context;
        pthread_mutex_lock(&D->lock);
        if (k->prev)
            k->prev->next = k->next;
        else
            D->all = k->next;
        if (k->next)
            k->next->prev = k->prev;
        pthread_mutex_unlock(&D->lock);
        free(k);
        *socket_context = NULL;
    }
}

/* Shuts down k's socket if it still belongs to k (under D->lock). */
static void cut(srv_deadlines *D, conn *k)
{
    struct sockaddr_storage now;
    socklen_t n = sizeof now;
    if (!k->peer_len || getpeername(k->fd, (struct sockaddr *)&now, &n) || n != k->peer_len ||
        memcmp(&now, &k->peer, n))
        return;
    atomic_store(&k->phase, CUT);
    shutdown(k->fd, SHUT_RDWR);
    atomic_fetch_add(&D->cut, 1);
}

static void *sweeper(void *arg)
{
    srv_deadlines *D = arg;
    pthread_mutex_lock(&D->lock);
    while (!D->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&D->cond, &D->lock, &ts);
        int64_t t = mono_ms();
        for (conn *k = D->all; k && !D->stopping; k = k->next) {
            int phase = atomic_load(&k->phase);
            int64_t age = t - atomic_load(&k->since);
            if ((phase == HEAD && age > D->head_ms) || (phase == BODY && age > D->body_ms))
                cut(D, k);
        }
    }
    pthread_mutex_unlock(&D->lock);
    return NULL;
}

srv_deadlines *srv_deadlines_start(int head_s, int body_s, int idle_s)
{
    srv_deadlines *D = calloc(1, sizeof *D);
    if (!D)
        return NULL;
    D->head_ms = (int64_t)head_s * 1000;
    D->body_ms = (int64_t)body_s * 1000;
    D->idle_ms = (int64_t)idle_s * 1000;
    pthread_mutex_init(&D->lock, NULL);
    pthread_cond_init(&D->cond, NULL);
    if (pthread_create(&D->thread, NULL, sweeper, D)) {
        free(D);
        return NULL;
    }
    return D;
}

void srv_deadlines_stop(srv_deadlines *D)
{
    if (!D)
        return;
    pthread_mutex_lock(&D->lock);
    D->stopping = 1;
    pthread_cond_broadcast(&D->cond);
    pthread_mutex_unlock(&D->lock);
    pthread_join(D->thread, NULL);
    while (D->all) {
        conn *k = D->all;
        D->all = k->next;
        free(k);
    }
    pthread_mutex_destroy(&D->lock);
    pthread_cond_destroy(&D->cond);
    free(D);
}

long srv_deadlines_cut(srv_deadlines *D) { return D ? atomic_load(&D->cut) : 0; }
