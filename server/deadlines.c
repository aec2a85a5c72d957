/* Deadlines for request heads and bodies: see deadlines.h. */
#include "deadlines.h"

#include <arpa/inet.h>
#include <linux/tcp.h> /* TCP_INFO: the bytes a connection has received */
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
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
    _Atomic int64_t bytes0; /* bytes received when the head phase began */
    struct conn *prev, *next;
} conn;

struct srv_deadlines {
    int64_t head_ms, body_ms, idle_ms;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    conn *all;
    int open;     /* connections in the list */
    int high, low; /* shedding starts above high and goes down to low */
    int per_host;  /* under pressure: heads coming at once from one address */
    struct sockaddr_storage proxy; /* the trusted proxy (family 0: none), spared that rule */
    int stopping;
    atomic_long cut, shed;
    pthread_t thread;
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The bytes a socket has received (TCP_INFO), 0 when unknown. */
static int64_t received(int fd)
{
    struct tcp_info ti;
    socklen_t n = sizeof ti;
    memset(&ti, 0, sizeof ti);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &n) || n < offsetof(struct tcp_info, tcpi_bytes_received) + 8)
        return 0;
    return (int64_t)ti.tcpi_bytes_received;
}

/* Whether two peers are the same host (address, not port). */
static int same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family)
        return 0;
    if (a->ss_family == AF_INET)
        return !memcmp(&((const struct sockaddr_in *)(const void *)a)->sin_addr,
                       &((const struct sockaddr_in *)(const void *)b)->sin_addr, sizeof(struct in_addr));
    if (a->ss_family == AF_INET6)
        return !memcmp(&((const struct sockaddr_in6 *)(const void *)a)->sin6_addr,
                       &((const struct sockaddr_in6 *)(const void *)b)->sin6_addr, sizeof(struct in6_addr));
    return 0;
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
        if (phase == HEAD)
            atomic_store(&k->bytes0, received(k->fd));
        atomic_store(&k->phase, phase);
    }
}

void srv_deadlines_head_done(struct MHD_Connection *c) { enter(c, BODY); }
void srv_deadlines_answered(struct MHD_Connection *c) { enter(c, ANSWERED); }
void srv_deadlines_request_done(struct MHD_Connection *c) { enter(c, HEAD); }

static int cut(srv_deadlines *D, conn *k);

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
        *socket_context = k;
        if (++D->open > D->high) {
            pthread_cond_signal(&D->cond); /* near the limit: shed now */
            /* an address that already holds its share of the slots with
             * heads still coming gets no more: its new connection is
             * closed at once (the queue of connections waiting to be
             * accepted then moves on to other clients) */
            int64_t t = mono_ms();
            int same = 0;
            for (conn *x = D->all; x && same < D->per_host; x = x->next)
                same += x != k && atomic_load(&x->phase) == HEAD && atomic_load(&x->since) <= t &&
                        same_host(&x->peer, &k->peer);
            if (same >= D->per_host && !same_host(&k->peer, &D->proxy) && cut(D, k))
                atomic_fetch_add(&D->shed, 1);
        }
        pthread_mutex_unlock(&D->lock);
    } else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        conn *k = *socket_context;
        pthread_mutex_lock(&D->lock);
        if (k->prev)
            k->prev->next = k->next;
        else
            D->all = k->next;
        if (k->next)
            k->next->prev = k->prev;
        D->open--;
        pthread_mutex_unlock(&D->lock);
        free(k);
        *socket_context = NULL;
    }
}

/* Shuts down k's socket if it still belongs to k (under D->lock). */
static int cut(srv_deadlines *D, conn *k)
{
    struct sockaddr_storage now;
    socklen_t n = sizeof now;
    if (atomic_load(&k->phase) == CUT || !k->peer_len || getpeername(k->fd, (struct sockaddr *)&now, &n) ||
        n != k->peer_len || memcmp(&now, &k->peer, n))
        return 0;
    atomic_store(&k->phase, CUT);
    shutdown(k->fd, SHUT_RDWR);
    atomic_fetch_add(&D->cut, 1);
    return 1;
}

/// A connection that may be shed, and how much it is worth keeping.
typedef struct {
    conn *k;
    int idle;      /* a kept connection between requests */
    double rate;   /* bytes a second of its head so far */
    int64_t age;
} victim;

static int worse_first(const void *a, const void *b)
{
    const victim *x = a, *y = b;
    if (x->idle != y->idle)
        return y->idle - x->idle;
    if (x->rate != y->rate)
        return x->rate < y->rate ? -1 : 1;
    return x->age > y->age ? -1 : x->age < y->age;
}

/* Under pressure (more than high connections open), shuts down the
 * connections still sending their request head (or idle between two
 * requests), slowest and oldest first, until low are left (under
 * D->lock). A connection younger than SRV_SHED_GRACE_MS is spared: a new
 * client's head is on its way. Returns how many it shed. */
static int shed(srv_deadlines *D, int64_t t)
{
    int live = 0;
    for (conn *k = D->all; k; k = k->next)
        live += atomic_load(&k->phase) != CUT;
    if (live <= D->high)
        return 0;
    victim *v = malloc((size_t)live * sizeof *v);
    if (!v)
        return 0;
    int n = 0;
    for (conn *k = D->all; k && n < live; k = k->next) {
        if (atomic_load(&k->phase) != HEAD)
            continue;
        int64_t since = atomic_load(&k->since), age = t - since;
        int idle = since > t; /* within the idle allowance of a kept connection */
        if (!idle && age < SRV_SHED_GRACE_MS)
            continue;
        int64_t got = received(k->fd) - atomic_load(&k->bytes0);
        v[n++] = (victim){k, idle, idle ? 0 : (double)(got < 0 ? 0 : got) * 1000.0 / (double)age, age};
    }
    qsort(v, (size_t)n, sizeof *v, worse_first);
    int done = 0;
    for (int i = 0; i < n && live - done > D->low; i++)
        if (cut(D, v[i].k))
            done++;
    free(v);
    atomic_fetch_add(&D->shed, done);
    return done;
}

static void *sweeper(void *arg)
{
    srv_deadlines *D = arg;
    pthread_mutex_lock(&D->lock);
    int pressed = 0;
    while (!D->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        /* four times a second; twenty while connections are shed */
        ts.tv_nsec += (pressed ? 50 : 250) * 1000000L;
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
        pressed = !D->stopping && D->open > D->high;
        if (pressed)
            shed(D, t);
    }
    pthread_mutex_unlock(&D->lock);
    return NULL;
}

srv_deadlines *srv_deadlines_start(int head_s, int body_s, int idle_s, int max_conn, const char *trusted_proxy)
{
    srv_deadlines *D = calloc(1, sizeof *D);
    if (!D)
        return NULL;
    struct sockaddr_in *p4 = (struct sockaddr_in *)(void *)&D->proxy;
    struct sockaddr_in6 *p6 = (struct sockaddr_in6 *)(void *)&D->proxy;
    if (trusted_proxy && inet_pton(AF_INET, trusted_proxy, &p4->sin_addr) == 1)
        D->proxy.ss_family = AF_INET;
    else if (trusted_proxy && inet_pton(AF_INET6, trusted_proxy, &p6->sin6_addr) == 1)
        D->proxy.ss_family = AF_INET6;
    /* a reserve of an eighth of the slots (at least 2) is kept free */
    int reserve = max_conn / 8 > 2 ? max_conn / 8 : 2;
    D->high = max_conn - reserve;
    D->low = max_conn - 2 * reserve;
    D->per_host = max_conn / 16 > 4 ? max_conn / 16 : 4;
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
long srv_deadlines_shed(srv_deadlines *D) { return D ? atomic_load(&D->shed) : 0; }
