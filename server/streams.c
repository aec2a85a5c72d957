/* Live streams: see streams.h. */
#include "streams.h"

#include "buf.h"
#include "game_state.h"
#include "respond.h"
#include "sse_queue.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NBUCKETS 256 /* game groups, hashed by id */

typedef struct watcher watcher;
typedef struct client client;

/// The open streams of one client address.
struct client {
    char addr[48];
    int n;
    client *next;
};
typedef struct group group;

/// One live connection. Its queue (sse_queue.h) is written by whoever
/// publishes and read by the daemon's content callback.
struct watcher {
    srv_sse_queue q;
    int player; /* opened by a player's page (?as=player): not a spectator */
    group *g;
    client *cl;
    watcher *next;
    srv_streams *S;
};

/// The watchers of one game on this process.
struct group {
    char id[TG_ID_LEN + 1];
    int64_t version;  /* the newest version published */
    int64_t deadline; /* when its running clock's flag falls (ms), or 0 */
    watcher *ws;
    int n;
    int players; /* of n, the players' own streams */
    group *next;
};

struct srv_streams {
    pthread_mutex_t lock; /* groups and their watchers */
    group *groups[NBUCKETS];
    _Atomic(struct MHD_Daemon *) daemon;
    const char *cors;
    const char *proxy; /* the trusted proxy's address, or NULL */
    int closing; /* no new streams */
    int total;   /* open streams */
    client *clients[NBUCKETS];
    void (*on_spectators)(const char *id, int n, void *ctx); /* or NULL: counts sent here */
    void *spectators_ctx;
};

void srv_streams_on_spectators(srv_streams *S, void (*fn)(const char *id, int n, void *ctx), void *ctx)
{
    S->on_spectators = fn;
    S->spectators_ctx = ctx;
}

static unsigned hash_text(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

srv_streams *srv_streams_new(const char *cors, const char *trusted_proxy)
{
    srv_streams *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    pthread_mutex_init(&S->lock, NULL);
    S->cors = cors;
    S->proxy = trusted_proxy;
    return S;
}

void srv_streams_free(srv_streams *S)
{
    if (!S)
        return;
    for (int b = 0; b < NBUCKETS; b++)
        while (S->groups[b]) {
            group *g = S->groups[b];
            S->groups[b] = g->next;
            free(g);
        }
    for (int b = 0; b < NBUCKETS; b++)
        while (S->clients[b]) {
            client *c = S->clients[b];
            S->clients[b] = c->next;
            free(c);
        }
    pthread_mutex_destroy(&S->lock);
    free(S);
}

void srv_streams_set_daemon(srv_streams *S, struct MHD_Daemon *d)
{
    /* under the lock: no push is under way when it turns NULL */
    pthread_mutex_lock(&S->lock);
    atomic_store(&S->daemon, d);
    pthread_mutex_unlock(&S->lock);
}

static void watcher_push(watcher *w, const char *text, size_t n) { srv_sse_push(&w->q, text, n); }

static group *group_find(srv_streams *S, const char *id, int make)
{
    unsigned b = hash_text(id) % NBUCKETS;
    for (group *g = S->groups[b]; g; g = g->next)
        if (!strcmp(g->id, id))
            return g;
    if (!make)
        return NULL;
    group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    snprintf(g->id, sizeof g->id, "%s", id);
    g->next = S->groups[b];
    S->groups[b] = g;
    return g;
}

/* Sends an event; a state (version > 0) newer than any sent sets the
 * group's flag deadline too (deadline < 0: leave it). */
static void push_event(srv_streams *S, const char *id, int64_t version, const char *event, const char *json,
                       int64_t deadline)
{
    srv_buf ev = {0};
    if (version > 0)
        srv_buf_printf(&ev, "id: %lld\n", (long long)version);
    srv_buf_printf(&ev, "event: %s\ndata: %s\n\n", event, json);
    if (ev.failed)
        return;
    pthread_mutex_lock(&S->lock);
    group *g = atomic_load(&S->daemon) ? group_find(S, id, 0) : NULL; /* none while the daemon stops */
    if (g && (version <= 0 || version > g->version)) {
        if (version > 0)
            g->version = version;
        if (deadline >= 0)
            g->deadline = deadline;
        for (watcher *w = g->ws; w; w = w->next)
            watcher_push(w, ev.p, ev.len);
    }
    pthread_mutex_unlock(&S->lock);
    srv_buf_free(&ev);
}

void srv_streams_event(srv_streams *S, const char *id, int64_t version, const char *event, const char *json)
{
    push_event(S, id, version, event, json, -1);
}

void srv_streams_publish(srv_streams *S, const tg_game *g)
{
    int64_t now = srv_now_ms();
    json_t *st = srv_state_json(g, now);
    char *text = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    if (text) {
        push_event(S, g->id, g->version, "state", text, srv_flag_deadline(g, now));
        free(text);
    }
}

void srv_streams_set_deadline(srv_streams *S, const char *id, int64_t deadline)
{
    pthread_mutex_lock(&S->lock);
    group *g = group_find(S, id, 0);
    if (g)
        g->deadline = deadline;
    pthread_mutex_unlock(&S->lock);
}

int srv_streams_wants(srv_streams *S, const char *id, int64_t version)
{
    pthread_mutex_lock(&S->lock);
    group *gr = group_find(S, id, 0);
    int want = gr && gr->n > 0 && version > gr->version;
    pthread_mutex_unlock(&S->lock);
    return want;
}

/* The ids of the watched games (due: only those whose flag deadline has
 * come by now). */
static char (*collect(srv_streams *S, int due, int64_t now, int *count))[TG_ID_LEN + 1]
{
    char (*ids)[TG_ID_LEN + 1] = NULL;
    int n = 0, cap = 0;
    pthread_mutex_lock(&S->lock);
    for (int b = 0; b < NBUCKETS; b++)
        for (group *g = S->groups[b]; g; g = g->next)
            if (g->n > 0 && (!due || (g->deadline && g->deadline <= now))) {
                if (n == cap) {
                    int nc = cap ? 2 * cap : 16;
                    void *p = realloc(ids, (size_t)nc * sizeof *ids);
                    if (!p)
                        goto out;
                    ids = p;
                    cap = nc;
                }
                memcpy(ids[n++], g->id, TG_ID_LEN + 1);
            }
out:
    pthread_mutex_unlock(&S->lock);
    *count = n;
    return ids;
}

char (*srv_streams_watched(srv_streams *S, int *count))[TG_ID_LEN + 1] { return collect(S, 0, 0, count); }

char (*srv_streams_due(srv_streams *S, int64_t now, int *count))[TG_ID_LEN + 1] { return collect(S, 1, now, count); }

/* The daemon asks for more of the stream: send what is queued, or suspend
 * the connection until something is (watcher_push resumes it). */
static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    return srv_sse_read(&((watcher *)cls)->q, buf, max);
}

/* The spectators of a game here, to its watchers: {"spectators": N}. */
static void push_spectators(srv_streams *S, const char *id, int n)
{
    if (S->on_spectators) {
        S->on_spectators(id, n, S->spectators_ctx);
        return;
    }
    char json[48];
    snprintf(json, sizeof json, "{\"spectators\":%d}", n);
    push_event(S, id, 0, "watchers", json, -1);
}

static void sse_free(void *cls)
{
    watcher *w = cls;
    srv_streams *S = w->S;
    pthread_mutex_lock(&S->lock);
    group *g = w->g;
    g->players -= w->player;
    char id[TG_ID_LEN + 1];
    memcpy(id, g->id, sizeof id);
    for (watcher **p = &g->ws; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    g->n--;
    S->total--;
    if (--w->cl->n == 0) {
        for (client **p = &S->clients[hash_text(w->cl->addr) % NBUCKETS]; *p; p = &(*p)->next)
            if (*p == w->cl) {
                *p = w->cl->next;
                break;
            }
        free(w->cl);
    }
    int spectators = g->n - g->players;
    pthread_mutex_unlock(&S->lock);
    srv_sse_destroy(&w->q);
    free(w);
    push_spectators(S, id, spectators);
}

enum MHD_Result srv_streams_open(srv_streams *S, struct MHD_Connection *c, const tg_game *g, int player)
{
    watcher *w = calloc(1, sizeof *w);
    if (!w)
        return MHD_NO;
    w->player = !!player;
    w->S = S;
    json_t *st = srv_state_json(g, srv_now_ms());
    char *text = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    srv_buf first = {0};
    srv_buf_printf(&first, "retry: 1000\nid: %lld\nevent: state\ndata: %s\n\n", (long long)g->version,
                   text ? text : "{}");
    free(text);
    srv_sse_init(&w->q, c, first.p);
    srv_buf_free(&first);
    char addr[48];
    srv_client_addr(c, S->proxy, addr);
    pthread_mutex_lock(&S->lock);
    client *cl = S->clients[hash_text(addr) % NBUCKETS];
    while (cl && strcmp(cl->addr, addr))
        cl = cl->next;
    int full = S->total >= SRV_MAX_STREAMS || (cl && cl->n >= SRV_STREAMS_PER_ADDR);
    if (!cl && !full && (cl = calloc(1, sizeof *cl))) {
        snprintf(cl->addr, sizeof cl->addr, "%s", addr);
        cl->next = S->clients[hash_text(addr) % NBUCKETS];
        S->clients[hash_text(addr) % NBUCKETS] = cl;
    }
    group *gr = S->closing || full || !cl ? NULL : group_find(S, g->id, 1);
    if (!gr) {
        int closing = S->closing;
        if (full && !closing) {
            pthread_mutex_unlock(&S->lock);
            srv_sse_destroy(&w->q);
            free(w);
            return srv_http_streams_full(c, S->total >= SRV_MAX_STREAMS, SRV_STREAMS_PER_ADDR, SRV_MAX_STREAMS,
                                         S->cors);
        }
        pthread_mutex_unlock(&S->lock);
        srv_sse_destroy(&w->q);
        free(w);
        if (!closing)
            return MHD_NO;
        srv_response r;
        memset(&r, 0, sizeof r);
        r.fd = -1;
        srv_route_error(&r, 503, 1, "the server is shutting down");
        r.retry_after = 2;
        return srv_http_send(c, &r, S->cors);
    }
    if (g->version > gr->version && gr->n == 0)
        gr->version = g->version;
    if (g->version >= gr->version)
        gr->deadline = srv_flag_deadline(g, srv_now_ms());
    w->g = gr;
    w->cl = cl;
    cl->n++;
    w->next = gr->ws;
    gr->ws = w;
    gr->n++;
    gr->players += w->player;
    int spectators = gr->n - gr->players;
    S->total++;
    pthread_mutex_unlock(&S->lock);
    push_spectators(S, g->id, spectators);
    /* a stream is idle between moves, but pinged every 5 s: a watcher
     * that reads nothing for SRV_STREAM_TIMEOUT is closed */
    return srv_sse_respond(c, sse_read, w, sse_free, S->cors, SRV_STREAM_TIMEOUT);
}

void srv_streams_close_all(srv_streams *S, int wait_ms)
{
    static const char bye[] = "event: shutdown\ndata: {}\n\n";
    pthread_mutex_lock(&S->lock);
    S->closing = 1;
    for (int b = 0; b < NBUCKETS; b++)
        for (group *g = S->groups[b]; g; g = g->next)
            for (watcher *w = g->ws; w; w = w->next)
                srv_sse_end(&w->q, bye);
    pthread_mutex_unlock(&S->lock);
    /* the streams drain (a watcher that does not read is cut by the daemon's stop) */
    for (int t = 0; t < wait_ms; t += 20) {
        pthread_mutex_lock(&S->lock);
        int open = S->total;
        pthread_mutex_unlock(&S->lock);
        if (!open)
            break;
        struct timespec ts = {0, 20 * 1000000L};
        nanosleep(&ts, NULL);
    }
}
