/* The store pool and the read cache: see game_store.h. */
#include "game_store.h"

#include "game_state.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/// A rebuilt game kept for reads of its state. gen counts the drops: a
/// reader puts what it loaded only if no drop came between its load and
/// its put.
typedef struct {
    pthread_mutex_t lock;
    int valid;
    uint64_t gen;
    tg_game g;
} cache_slot;

struct srv_gstore {
    tg_store *stores[SRV_MAX_STORES];
    int busy[SRV_MAX_STORES];
    int n;
    pthread_mutex_t lock;
    pthread_cond_t free_one;
    cache_slot cache[SRV_CACHE_SLOTS];
    atomic_int off; /* the cache is not used */
};

static unsigned hash_text(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

srv_gstore *srv_gstore_open(const char *url, int n, tc_error *err)
{
    srv_gstore *S = calloc(1, sizeof *S);
    if (!S) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    S->n = n < 1 ? 1 : n > SRV_MAX_STORES ? SRV_MAX_STORES : n;
    pthread_mutex_init(&S->lock, NULL);
    pthread_cond_init(&S->free_one, NULL);
    for (int i = 0; i < SRV_CACHE_SLOTS; i++)
        pthread_mutex_init(&S->cache[i].lock, NULL);
    for (int i = 0; i < S->n; i++) {
        S->stores[i] = tg_store_open(url, err);
        if (!S->stores[i]) {
            S->n = i;
            srv_gstore_close(S);
            return NULL;
        }
    }
    return S;
}

void srv_gstore_close(srv_gstore *S)
{
    if (!S)
        return;
    for (int i = 0; i < S->n; i++)
        tg_store_close(S->stores[i]);
    for (int i = 0; i < SRV_CACHE_SLOTS; i++) {
        if (S->cache[i].valid)
            tg_game_free(&S->cache[i].g);
        pthread_mutex_destroy(&S->cache[i].lock);
    }
    pthread_mutex_destroy(&S->lock);
    pthread_cond_destroy(&S->free_one);
    free(S);
}

static tg_store *get(srv_gstore *S, int *slot)
{
    pthread_mutex_lock(&S->lock);
    for (;;) {
        for (int i = 0; i < S->n; i++)
            if (!S->busy[i]) {
                S->busy[i] = 1;
                pthread_mutex_unlock(&S->lock);
                *slot = i;
                return S->stores[i];
            }
        pthread_cond_wait(&S->free_one, &S->lock);
    }
}

static void put(srv_gstore *S, int slot)
{
    pthread_mutex_lock(&S->lock);
    S->busy[slot] = 0;
    pthread_cond_signal(&S->free_one);
    pthread_mutex_unlock(&S->lock);
}

tg_code srv_gstore_load(srv_gstore *S, const char *id, tg_game *g, tc_error *err)
{
    int slot;
    tg_store *s = get(S, &slot);
    tg_code rc = tg_store_load(s, id, g, err);
    put(S, slot);
    if (rc == TG_OK && (rc = tg_game_rebuild(g, err)) != TG_OK)
        tg_game_free(g);
    return rc;
}

tg_code srv_gstore_save(srv_gstore *S, const tg_game *g, int64_t expected, int stored_moves, tc_error *err)
{
    int slot;
    tg_store *s = get(S, &slot);
    tg_code rc = tg_store_save(s, g, expected, stored_moves, err);
    put(S, slot);
    if (rc != TG_ECONFLICT)
        srv_gstore_cache_drop(S, g->id);
    return rc;
}

tg_code srv_gstore_insert(srv_gstore *S, const tg_game *g, tc_error *err)
{
    int slot;
    tg_store *s = get(S, &slot);
    tg_code rc = tg_store_insert(s, g, err);
    put(S, slot);
    return rc;
}

int srv_gstore_archive(srv_gstore *S, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err)
{
    int slot;
    tg_store *s = get(S, &slot);
    int n = tg_store_archive(s, q, max, out, err);
    put(S, slot);
    return n;
}

tg_code srv_gstore_announce(srv_gstore *S, const char *id, tc_error *err)
{
    int slot;
    tg_store *s = get(S, &slot);
    tg_code rc = tg_store_announce(s, id, err);
    put(S, slot);
    return rc;
}

int srv_gstore_pending(srv_gstore *S, const char *after, int64_t now_ms, int max, tg_game_summary *out,
                       tc_error *err)
{
    int slot;
    tg_store *s = get(S, &slot);
    int n = tg_store_pending(s, after, now_ms, max, out, err);
    put(S, slot);
    return n;
}

/* ---------------------------------------------------------------- cache */

static cache_slot *slot_of(srv_gstore *S, const char *id) { return &S->cache[hash_text(id) % SRV_CACHE_SLOTS]; }

void srv_gstore_cache_drop(srv_gstore *S, const char *id)
{
    cache_slot *c = slot_of(S, id);
    pthread_mutex_lock(&c->lock);
    c->gen++;
    if (c->valid && !strcmp(c->g.id, id)) {
        tg_game_free(&c->g);
        c->valid = 0;
    }
    pthread_mutex_unlock(&c->lock);
}

uint64_t srv_gstore_cache_gen(srv_gstore *S, const char *id)
{
    cache_slot *c = slot_of(S, id);
    pthread_mutex_lock(&c->lock);
    uint64_t gen = c->gen;
    pthread_mutex_unlock(&c->lock);
    return gen;
}

void srv_gstore_cache_use(srv_gstore *S, int use)
{
    atomic_store(&S->off, !use);
    for (int i = 0; i < SRV_CACHE_SLOTS; i++) {
        cache_slot *c = &S->cache[i];
        pthread_mutex_lock(&c->lock);
        c->gen++;
        if (c->valid)
            tg_game_free(&c->g);
        c->valid = 0;
        pthread_mutex_unlock(&c->lock);
    }
}

void srv_gstore_cache_put(srv_gstore *S, tg_game *g, uint64_t gen)
{
    cache_slot *c = slot_of(S, g->id);
    pthread_mutex_lock(&c->lock);
    if (c->gen == gen && !atomic_load(&S->off)) {
        if (c->valid)
            tg_game_free(&c->g);
        c->g = *g;
        c->valid = 1;
    } else {
        tg_game_free(g);
    }
    pthread_mutex_unlock(&c->lock);
}

json_t *srv_gstore_cached_state(srv_gstore *S, const char *id, int64_t now)
{
    cache_slot *c = slot_of(S, id);
    json_t *st = NULL;
    pthread_mutex_lock(&c->lock);
    if (!atomic_load(&S->off) && c->valid && !strcmp(c->g.id, id) &&
        !(tg_game_active(&c->g) && c->g.clock.kind != TG_CLOCK_NONE &&
          tg_game_clock_left(&c->g, tg_game_turn(&c->g), now) <= 0))
        st = srv_state_json(&c->g, now);
    pthread_mutex_unlock(&c->lock);
    return st;
}
