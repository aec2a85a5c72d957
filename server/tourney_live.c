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
    struct twatch *next;
} twatch;

/// The state last sent for a watched tournament (the beat sends it again
/// only when its text differs).
typedef struct tsent {
    char tid[TP_TOURNEY_ID_LEN + 1];
    char *json;
} tsent;

struct srv_tlive {
    srv_tourneys *T;
    pthread_mutex_t reg; /* ws, closing */
    twatch *ws;
    int closing;
    tsent *sent; /* the beat's own (one thread) */
    int nsent;
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
    for (int i = 0; i < X->nsent; i++)
        free(X->sent[i].json);
    free(X->sent);
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

/* 1 when the tournament's JSON says it is over (finished or cancelled). */
static int over(const char *json)
{
    json_t *o = json_loads(json, 0, NULL);
    const char *st = o ? json_string_value(json_object_get(o, "state")) : NULL;
    int done = st && (!strcmp(st, "finished") || !strcmp(st, "cancelled"));
    json_decref(o);
    return done;
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
    int ended = over(json);
    free(json);
    twatch *w = first ? calloc(1, sizeof *w) : NULL;
    if (!w) {
        free(first);
        return MHD_NO;
    }
    w->X = X;
    snprintf(w->tid, sizeof w->tid, "%s", tid);
    snprintf(w->addr, sizeof w->addr, "%s", addr && addr[0] ? addr : "?");
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

/* The slot of tid in the sent states (made when missing), or -1. */
static int sent_slot(srv_tlive *X, const char tid[TP_TOURNEY_ID_LEN + 1])
{
    for (int i = 0; i < X->nsent; i++)
        if (!strcmp(X->sent[i].tid, tid))
            return i;
    tsent *grown = realloc(X->sent, (size_t)(X->nsent + 1) * sizeof *grown);
    if (!grown)
        return -1;
    X->sent = grown;
    memcpy(X->sent[X->nsent].tid, tid, TP_TOURNEY_ID_LEN + 1); /* tid: one of the beat's ids */
    X->sent[X->nsent].json = NULL;
    return X->nsent++;
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
    /* forget what was sent for tournaments nobody watches here now */
    int kept = 0;
    for (int i = 0; i < X->nsent; i++) {
        int watched = 0;
        for (int k = 0; k < nt && !watched; k++)
            watched = !strcmp(tids[k], X->sent[i].tid);
        if (watched)
            X->sent[kept++] = X->sent[i];
        else
            free(X->sent[i].json);
    }
    X->nsent = kept;
    for (int i = 0; i < nt; i++) {
        int status = 200, slot = sent_slot(X, tids[i]);
        size_t len = 0, n = 0;
        char *json = slot >= 0 ? srv_tourney_json(X->T, tids[i], &status, &len) : NULL;
        if (!json || status != 200 || (X->sent[slot].json && !strcmp(X->sent[slot].json, json))) {
            free(json);
            continue;
        }
        char *ev = event_text(json, 0, &n);
        int ended = over(json);
        free(X->sent[slot].json);
        X->sent[slot].json = json;
        if (!ev)
            continue;
        pthread_mutex_lock(&X->reg);
        for (twatch *w = X->ws; w; w = w->next)
            if (!strcmp(w->tid, tids[i])) {
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
