/* Rate limits for creating games: see rate_limit.h. */
#include "rate_limit.h"

#include "game_state.h"
#include "respond.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE_BUCKETS 1024
#define RATE_MAX SRV_RATE_CLIENTS

typedef struct rate_entry {
    char ip[48];
    double tokens;
    int64_t last_ms;
    struct rate_entry *next;
} rate_entry;

struct srv_rate {
    pthread_mutex_t lock;
    rate_entry *rate[RATE_BUCKETS];
    int nrate;
    double per_minute;
    const char *proxy; /* the trusted proxy's address, or NULL */
};

static unsigned hash_text(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

srv_rate *srv_rate_new(double per_minute, const char *trusted_proxy)
{
    srv_rate *R = calloc(1, sizeof *R);
    if (!R)
        return NULL;
    pthread_mutex_init(&R->lock, NULL);
    R->per_minute = per_minute;
    R->proxy = trusted_proxy;
    return R;
}

void srv_rate_free(srv_rate *R)
{
    if (!R)
        return;
    for (int b = 0; b < RATE_BUCKETS; b++)
        while (R->rate[b]) {
            rate_entry *e = R->rate[b];
            R->rate[b] = e->next;
            free(e);
        }
    pthread_mutex_destroy(&R->lock);
    free(R);
}

/* A request's rate allowance for creating games (creates and rematches):
 * a bucket of per_minute tokens per client address, refilled continuously.
 * Keyed by the whole address in a chained table, so two addresses never
 * share a bucket; full buckets (idle clients) are swept when the table
 * holds RATE_MAX clients, and a new client beyond that is refused. */
int srv_rate_take(srv_rate *R, struct MHD_Connection *c)
{
    char ip[48];
    srv_client_addr(c, R->proxy, ip);
    return srv_rate_take_key(R, ip);
}

int srv_rate_take_key(srv_rate *R, const char *key)
{
    char ip[48];
    snprintf(ip, sizeof ip, "%s", key);
    int64_t t = srv_now_ms();
    pthread_mutex_lock(&R->lock);
    unsigned b = hash_text(ip) % RATE_BUCKETS;
    rate_entry *e = R->rate[b];
    while (e && strcmp(e->ip, ip))
        e = e->next;
    if (!e && R->nrate >= RATE_MAX) { /* sweep the clients whose buckets have refilled */
        for (int k = 0; k < RATE_BUCKETS; k++)
            for (rate_entry **p = &R->rate[k]; *p;) {
                rate_entry *x = *p;
                if (x->tokens + (double)(t - x->last_ms) * R->per_minute / 60000.0 >= R->per_minute) {
                    *p = x->next;
                    free(x);
                    R->nrate--;
                } else {
                    p = &x->next;
                }
            }
    }
    if (!e && R->nrate < RATE_MAX && (e = calloc(1, sizeof *e))) {
        snprintf(e->ip, sizeof e->ip, "%s", ip);
        e->tokens = R->per_minute;
        e->last_ms = t;
        e->next = R->rate[b];
        R->rate[b] = e;
        R->nrate++;
    }
    int ok = 0;
    if (e) {
        e->tokens += (double)(t - e->last_ms) * R->per_minute / 60000.0;
        if (e->tokens > R->per_minute)
            e->tokens = R->per_minute;
        e->last_ms = t;
        ok = e->tokens >= 1;
        if (ok)
            e->tokens -= 1;
    }
    pthread_mutex_unlock(&R->lock);
    return ok;
}

