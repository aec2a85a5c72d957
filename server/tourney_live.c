/* The tournament page's live stream (tourney_live.h). */
#include "tourney_live.h"

#include "lobby.h"
#include "respond.h"
#include "sse_queue.h"
#include "streams.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/// One open stream: the tournament it watches and its client's address
/// (the per-address limit).
typedef struct twatch {
    struct srv_tlive *X;
    srv_sse_queue q;
    char tid[TP_TOURNEY_ID_LEN + 1];
    char addr[48];
    /* The version of the last state this stream was sent. Every change of
     * a tournament is followed by a bump of its version, and a state is read
     * version first: a stream is sent a state only when its version is newer
     * than the last it was sent. So versions only grow on a stream, and a
     * state read between a change and its bump waits for the bump's state
     * (which has the change). */
    long long version;
    struct twatch *next;
} twatch;

struct srv_tlive {
    srv_tourneys *T;
    pthread_mutex_t reg; /* ws, closing */
    twatch *ws;
    int closing;
};

srv_tlive *srv_tlive_new(srv_tourneys *T)
{
    srv_tlive *X = calloc(1, sizeof *X);
    if (!X)
        return NULL;
    X->T = T;
    pthread_mutex_init(&X->reg, NULL);
    return X;
}

void srv_tlive_free(srv_tlive *X)
{
    if (!X)
        return;
    pthread_mutex_destroy(&X->reg);
    free(X);
}

static ssize_t tlive_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    return srv_sse_read(&((twatch *)cls)->q, buf, max);
}

static void tlive_done(void *cls)
{
    twatch *w = cls;
    srv_tlive *X = w->X;
    pthread_mutex_lock(&X->reg);
    for (twatch **p = &X->ws; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    pthread_mutex_unlock(&X->reg);
    srv_sse_destroy(&w->q);
    free(w);
}

/* The version the tournament's JSON gives (-1 when it has none); *over
 * is 1 when it says the tournament is over (finished or cancelled). */
static long long version_of(const char *json, int *over)
{
    json_t *o = json_loads(json, 0, NULL);
    const char *st = o ? json_string_value(json_object_get(o, "state")) : NULL;
    json_t *v = o ? json_object_get(o, "version") : NULL;
    long long version = json_is_integer(v) ? (long long)json_integer_value(v) : -1;
    *over = st && (!strcmp(st, "finished") || !strcmp(st, "cancelled"));
    json_decref(o);
    return version;
}

/* "event: tournament\ndata: JSON\n\n" (heap), with a "retry" first when
 * first is set; NULL when out of memory. */
static char *event_text(const char *json, int first, size_t *n)
{
    srv_buf b = {0};
    if (first)
        srv_buf_str(&b, "retry: 2000\n");
    srv_buf_printf(&b, "event: tournament\ndata: %s\n\n", json);
    if (b.failed) {
        srv_buf_free(&b);
        return NULL;
    }
    *n = b.len;
    return b.p;
}

enum MHD_Result srv_tlive_stream(srv_tlive *X, struct MHD_Connection *c, const char *tid, const char *addr)
{
    int status = 200;
    size_t len = 0;
    char *json = srv_tourney_json(X->T, tid, &status, &len);
    if (!json || status != 200) {
        free(json);
        srv_response r;
        memset(&r, 0, sizeof r);
        r.fd = -1;
        if (!json)
            srv_route_error(&r, 500, 1, "the tournaments' store failed");
        else
            srv_route_error(&r, 404, 1, "no tournament '%s'", tid);
        return srv_http_send(c, &r, NULL);
    }
    size_t n = 0;
    char *first = event_text(json, 1, &n);
    int ended = 0;
    long long version = version_of(json, &ended);
    free(json);
    twatch *w = first ? calloc(1, sizeof *w) : NULL;
    if (!w) {
        free(first);
        return MHD_NO;
    }
    w->X = X;
    snprintf(w->tid, sizeof w->tid, "%s", tid);
    snprintf(w->addr, sizeof w->addr, "%s", addr && addr[0] ? addr : "?");
    w->version = version;
    srv_sse_init(&w->q, c, first);
    free(first);
    pthread_mutex_lock(&X->reg);
    int mine = 0, all = 0;
    for (twatch *x = X->ws; x; x = x->next) {
        all++;
        mine += !strcmp(x->addr, w->addr);
    }
    if (!X->closing && (mine >= SRV_STREAMS_PER_ADDR || all >= SRV_MAX_STREAMS)) {
        pthread_mutex_unlock(&X->reg);
        srv_sse_destroy(&w->q);
        free(w);
        return srv_http_streams_full(c, all >= SRV_MAX_STREAMS, SRV_STREAMS_PER_ADDR, SRV_MAX_STREAMS, NULL);
    }
    if (X->closing || ended)
        srv_sse_end(&w->q, NULL); /* its last state is sent: nothing more will come */
    w->next = X->ws;
    X->ws = w;
    pthread_mutex_unlock(&X->reg);
    return srv_sse_respond(c, tlive_read, w, tlive_done, NULL, SRV_LOBBY_TIMEOUT);
}

void srv_tlive_beat(srv_tlive *X)
{
    if (!X)
        return;
    /* the tournaments watched here, each once */
    char tids[SRV_TLIVE_PER_BEAT][TP_TOURNEY_ID_LEN + 1];
    int nt = 0;
    pthread_mutex_lock(&X->reg);
    for (twatch *w = X->ws; w && nt < SRV_TLIVE_PER_BEAT; w = w->next) {
        int seen = 0;
        for (int i = 0; i < nt && !seen; i++)
            seen = !strcmp(tids[i], w->tid);
        if (!seen)
            snprintf(tids[nt++], sizeof tids[0], "%s", w->tid);
    }
    for (twatch *w = X->ws; w; w = w->next)
        srv_sse_push(&w->q, ": ping\n\n", 8);
    pthread_mutex_unlock(&X->reg);
    for (int i = 0; i < nt; i++) {
        int status = 200, ended = 0;
        size_t len = 0, n = 0;
        char *json = srv_tourney_json(X->T, tids[i], &status, &len);
        long long version = json && status == 200 ? version_of(json, &ended) : -1;
        if (version < 0) {
            free(json);
            continue;
        }
        char *ev = event_text(json, 0, &n);
        free(json);
        if (!ev)
            continue;
        pthread_mutex_lock(&X->reg);
        for (twatch *w = X->ws; w; w = w->next)
            if (!strcmp(w->tid, tids[i]) && w->version < version) {
                w->version = version;
                srv_sse_push(&w->q, ev, n);
                if (ended)
                    srv_sse_end(&w->q, NULL);
            }
        pthread_mutex_unlock(&X->reg);
        free(ev);
    }
}

void srv_tlive_close_all(srv_tlive *X)
{
    if (!X)
        return;
    pthread_mutex_lock(&X->reg);
    X->closing = 1;
    for (twatch *w = X->ws; w; w = w->next)
        srv_sse_end(&w->q, NULL);
    pthread_mutex_unlock(&X->reg);
}
