/* Hosted games over HTTP: see games_api.h and docs/api.md. */
#define _GNU_SOURCE /* open_memstream, pthread */
#include "games_api.h"

#include "buf.h"
#include "render.h"
#include "store.h"
#include "topochess_engine.h"
#include "topochess_explain.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define TYPE_JSON "application/json; charset=utf-8"
#define MAX_STORES 16
#define NBUCKETS 256       /* watcher groups and rate-limit slots, hashed */
#define RATE_SLOTS 1024
#define QUEUE_MAX 4096     /* engine jobs waiting */
#define MAX_PAGE_TEXT 16384 /* a custom page's front matter in a create request */
#define LIST_MAX 200
#define CACHE_SLOTS 512    /* games kept rebuilt for reads */

/* ---------------------------------------------------------------- types */

typedef struct watcher watcher;
typedef struct group group;

/// One live connection (server-sent events). Its queue is written by
/// whoever publishes and read by the daemon's content callback.
struct watcher {
    struct MHD_Connection *conn;
    pthread_mutex_t lock;
    srv_buf out;  /* bytes not yet sent */
    size_t off;   /* how far out has been sent */
    int suspended;
    group *g;
    watcher *next;
    srv_games *G;
};

/// The watchers of one game on this process.
struct group {
    char id[TG_ID_LEN + 1];
    int64_t version; /* the newest version published */
    watcher *ws;
    int n;
    group *next;
};

typedef struct {
    char ip[48];
    double tokens;
    int64_t last_ms;
} rate_slot;

/// A rebuilt game kept for reads of its state. Dropped by every save here
/// and by every change another process announces (LISTEN/NOTIFY), so it
/// never outlives the version it holds. gen counts the drops: a reader puts
/// what it loaded only if no drop came between its load and its put.
typedef struct {
    pthread_mutex_t lock;
    int valid;
    uint64_t gen;
    tg_game g;
} cache_slot;

struct srv_games {
    char url[1024];
    cache_slot cache[CACHE_SLOTS];
    tg_store *stores[MAX_STORES];
    int busy[MAX_STORES];
    int nstores;
    pthread_mutex_t store_lock;
    pthread_cond_t store_free;
    tg_listener *listener;
    const char *cors;

    pthread_mutex_t reg_lock; /* groups and their watchers */
    group *groups[NBUCKETS];
    _Atomic(struct MHD_Daemon *) daemon;

    pthread_mutex_t rate_lock;
    rate_slot rate[RATE_SLOTS];
    double per_minute;

    pthread_mutex_t q_lock; /* engine jobs */
    pthread_cond_t q_cond;
    char queue[QUEUE_MAX][TG_ID_LEN + 1];
    int qhead, qlen;
    int nworkers;
    pthread_t workers[16];
    pthread_t timer;
    pthread_mutex_t stop_lock;
    pthread_cond_t stop_cond;
    int stopping;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static unsigned hash_text(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int valid_id(const char *s)
{
    size_t n = strlen(s);
    if (n != TG_ID_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

static const char *side_name(int side) { return side == TC_WHITE ? "white" : side == TC_BLACK ? "black" : NULL; }

/* ---------------------------------------------------------------- stores */

static tg_store *store_get(srv_games *G, int *slot)
{
    pthread_mutex_lock(&G->store_lock);
    for (;;) {
        for (int i = 0; i < G->nstores; i++)
            if (!G->busy[i]) {
                G->busy[i] = 1;
                pthread_mutex_unlock(&G->store_lock);
                *slot = i;
                return G->stores[i];
            }
        pthread_cond_wait(&G->store_free, &G->store_lock);
    }
}

static void store_put(srv_games *G, int slot)
{
    pthread_mutex_lock(&G->store_lock);
    G->busy[slot] = 0;
    pthread_cond_signal(&G->store_free);
    pthread_mutex_unlock(&G->store_lock);
}

static void cache_drop(srv_games *G, const char *id);

/* Loads and rebuilds a game. */
static tg_code load_game(srv_games *G, const char *id, tg_game *g, tc_error *err)
{
    int slot;
    tg_store *s = store_get(G, &slot);
    tg_code rc = tg_store_load(s, id, g, err);
    store_put(G, slot);
    if (rc == TG_OK && (rc = tg_game_rebuild(g, err)) != TG_OK)
        tg_game_free(g);
    return rc;
}

static tg_code save_game(srv_games *G, const tg_game *g, int64_t expected, int stored_moves, tc_error *err)
{
    int slot;
    tg_store *s = store_get(G, &slot);
    tg_code rc = tg_store_save(s, g, expected, stored_moves, err);
    store_put(G, slot);
    if (rc != TG_ECONFLICT)
        cache_drop(G, g->id);
    return rc;
}

static cache_slot *slot_of(srv_games *G, const char *id) { return &G->cache[hash_text(id) % CACHE_SLOTS]; }

static void cache_drop(srv_games *G, const char *id)
{
    cache_slot *c = slot_of(G, id);
    pthread_mutex_lock(&c->lock);
    c->gen++;
    if (c->valid && !strcmp(c->g.id, id)) {
        tg_game_free(&c->g);
        c->valid = 0;
    }
    pthread_mutex_unlock(&c->lock);
}

static uint64_t cache_gen(srv_games *G, const char *id)
{
    cache_slot *c = slot_of(G, id);
    pthread_mutex_lock(&c->lock);
    uint64_t gen = c->gen;
    pthread_mutex_unlock(&c->lock);
    return gen;
}

/* Keeps g (taking it over) unless a drop came since gen; else frees it. */
static void cache_put(srv_games *G, tg_game *g, uint64_t gen)
{
    cache_slot *c = slot_of(G, g->id);
    pthread_mutex_lock(&c->lock);
    if (c->gen == gen) {
        if (c->valid)
            tg_game_free(&c->g);
        c->g = *g;
        c->valid = 1;
    } else {
        tg_game_free(g);
    }
    pthread_mutex_unlock(&c->lock);
}

/* ---------------------------------------------------------------- state JSON */

static json_t *clock_json(const tg_clock *c)
{
    switch (c->kind) {
    case TG_CLOCK_FISCHER:
        return json_pack("{s:s,s:I,s:I}", "kind", "fischer", "initial_ms", (json_int_t)c->initial_ms, "increment_ms",
                         (json_int_t)c->increment_ms);
    case TG_CLOCK_CORRESPONDENCE:
        return json_pack("{s:s,s:i}", "kind", "correspondence", "days", c->days);
    default:
        return json_null();
    }
}

static json_t *side_or_null(int side)
{
    const char *n = side_name(side);
    return n ? json_string(n) : json_null();
}

/* The public state of a game (no tokens). */
static json_t *state_json(const tg_game *g, int64_t now)
{
    char fen[800];
    tc_position_fen(g->pos, fen, sizeof fen);
    json_t *moves = json_array();
    for (int i = 0; i < g->nmoves; i++)
        json_array_append_new(moves, json_pack("{s:s,s:s,s:I,s:I}", "san", g->moves[i].san, "uci", g->moves[i].uci,
                                               "at_ms", (json_int_t)g->moves[i].at_ms, "clock_ms",
                                               (json_int_t)g->moves[i].clock_ms));
    int active = tg_game_active(g);
    json_t *clocks = json_null();
    if (g->clock.kind != TG_CLOCK_NONE) {
        int64_t w = tg_game_clock_left(g, TC_WHITE, now), b = tg_game_clock_left(g, TC_BLACK, now);
        clocks = json_pack("{s:I,s:I}", "white", (json_int_t)(w < 0 ? 0 : w), "black", (json_int_t)(b < 0 ? 0 : b));
    }
    json_t *engine = g->engine_side < 0 ? json_null()
                                        : json_pack("{s:s,s:i}", "side", side_name(g->engine_side), "level",
                                                    g->engine_level);
    json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:I,s:I,s:I,s:I,s:I}",
                          "id", g->id, "variant", g->def.name, "title", g->def.title, "start_fen", g->start_fen, "fen",
                          fen, "moves", moves, "turn", side_name(tg_game_turn(g)), "status",
                          active ? "active" : "ended", "result", g->result, "termination", g->termination, "clock",
                          clock_json(&g->clock), "clocks", clocks, "engine", engine, "draw_offer",
                          side_or_null(g->draw_offer), "takeback_offer", side_or_null(g->takeback_offer), "running",
                          side_or_null(active && (g->clock.kind == TG_CLOCK_CORRESPONDENCE || (g->clock.kind == TG_CLOCK_FISCHER && g->nmoves >= 2)) ? tg_game_turn(g) : -1),
                          "check", tc_in_check(g->pos) != 0, "version", (json_int_t)g->version, "now_ms",
                          (json_int_t)now, "turn_started_ms", (json_int_t)g->turn_started_ms, "created_ms",
                          (json_int_t)g->created_ms, "updated_ms", (json_int_t)g->updated_ms);
    return o;
}

static json_t *state_json(const tg_game *g, int64_t now);

/* The state of a cached game at now, or NULL (not cached, or its flag may
 * have fallen: the caller loads it and judges). */
static json_t *cached_state(srv_games *G, const char *id, int64_t now)
{
    cache_slot *c = slot_of(G, id);
    json_t *st = NULL;
    pthread_mutex_lock(&c->lock);
    if (c->valid && !strcmp(c->g.id, id) &&
        !(tg_game_active(&c->g) && c->g.clock.kind != TG_CLOCK_NONE &&
          tg_game_clock_left(&c->g, tg_game_turn(&c->g), now) <= 0))
        st = state_json(&c->g, now);
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* ---------------------------------------------------------------- watchers */

#define WATCHER_BACKLOG (1 << 20) /* bytes a watcher may leave unread before it is dropped */

static void watcher_push(watcher *w, const char *text, size_t n)
{
    pthread_mutex_lock(&w->lock);
    if (w->out.len - w->off + n > WATCHER_BACKLOG)
        w->out.failed = 1; /* a client that does not read: its stream ends */
    else
        srv_buf_put(&w->out, text, n);
    if (w->suspended) {
        w->suspended = 0;
        MHD_resume_connection(w->conn);
    }
    pthread_mutex_unlock(&w->lock);
}

static group *group_find(srv_games *G, const char *id, int make)
{
    unsigned b = hash_text(id) % NBUCKETS;
    for (group *g = G->groups[b]; g; g = g->next)
        if (!strcmp(g->id, id))
            return g;
    if (!make)
        return NULL;
    group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    snprintf(g->id, sizeof g->id, "%s", id);
    g->next = G->groups[b];
    G->groups[b] = g;
    return g;
}

/* Sends an event to every watcher of a game here. When version > 0 the
 * event is a state newer than any sent so far (older ones are dropped:
 * PostgreSQL's notification of our own change comes after it). */
static void publish_event(srv_games *G, const char *id, int64_t version, const char *event, const char *json)
{
    srv_buf ev = {0};
    if (version > 0)
        srv_buf_printf(&ev, "id: %lld\n", (long long)version);
    srv_buf_printf(&ev, "event: %s\ndata: %s\n\n", event, json);
    if (ev.failed)
        return;
    pthread_mutex_lock(&G->reg_lock);
    group *g = atomic_load(&G->daemon) ? group_find(G, id, 0) : NULL; /* none while the daemon stops */
    if (g && (version <= 0 || version > g->version)) {
        if (version > 0)
            g->version = version;
        for (watcher *w = g->ws; w; w = w->next)
            watcher_push(w, ev.p, ev.len);
    }
    pthread_mutex_unlock(&G->reg_lock);
    srv_buf_free(&ev);
}

static void publish(srv_games *G, const tg_game *g)
{
    json_t *st = state_json(g, now_ms());
    char *text = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    if (text) {
        publish_event(G, g->id, g->version, "state", text);
        free(text);
    }
}


/* The daemon asks for more of the stream: send what is queued, or suspend
 * the connection until something is (watcher_push resumes it). */
static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    watcher *w = cls;
    pthread_mutex_lock(&w->lock);
    size_t have = w->out.len - w->off;
    if (!have) {
        w->out.len = w->off = 0;
        if (w->out.p)
            w->out.p[0] = '\0';
        if (w->out.failed) {
            pthread_mutex_unlock(&w->lock);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        w->suspended = 1;
        MHD_suspend_connection(w->conn);
        pthread_mutex_unlock(&w->lock);
        return 0;
    }
    size_t n = have < max ? have : max;
    memcpy(buf, w->out.p + w->off, n);
    w->off += n;
    pthread_mutex_unlock(&w->lock);
    return (ssize_t)n;
}

static void sse_free(void *cls)
{
    watcher *w = cls;
    srv_games *G = w->G;
    pthread_mutex_lock(&G->reg_lock);
    group *g = w->g;
    for (watcher **p = &g->ws; *p; p = &(*p)->next)
        if (*p == w) {
            *p = w->next;
            break;
        }
    g->n--;
    pthread_mutex_unlock(&G->reg_lock);
    pthread_mutex_destroy(&w->lock);
    srv_buf_free(&w->out);
    free(w);
}

/* ---------------------------------------------------------------- engine pool */

static void enqueue_engine(srv_games *G, const char *id)
{
    pthread_mutex_lock(&G->q_lock);
    int dup = 0;
    for (int i = 0; i < G->qlen && !dup; i++)
        dup = !strcmp(G->queue[(G->qhead + i) % QUEUE_MAX], id);
    if (!dup && G->qlen < QUEUE_MAX) {
        snprintf(G->queue[(G->qhead + G->qlen) % QUEUE_MAX], TG_ID_LEN + 1, "%s", id);
        G->qlen++;
        pthread_cond_signal(&G->q_cond);
    }
    pthread_mutex_unlock(&G->q_lock);
}

static int engine_to_move(const tg_game *g)
{
    return g->engine_side >= 0 && tg_game_active(g) && tg_game_turn(g) == g->engine_side;
}

/* One engine move for a game (when it is still the engine's turn). */
static void engine_move(srv_games *G, const char *id)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        tg_game g;
        tc_error err;
        if (load_game(G, id, &g, &err) != TG_OK)
            return;
        int64_t t0 = now_ms();
        int flagged = tg_game_check_flag(&g, t0);
        if (!flagged && !engine_to_move(&g)) {
            tg_game_free(&g);
            return;
        }
        int64_t version = g.version - flagged;
        int stored = g.nmoves;
        if (!flagged) {
            tc_engine *e = tc_engine_new(g.variant, 8, 1);
            if (!e) {
                tg_game_free(&g);
                return;
            }
            tc_engine_set_position(e, g.pos);
            tc_limits lim;
            tc_limits_init(&lim);
            lim.level = g.engine_level;
            lim.movetime = 1000;
            if (g.clock.kind == TG_CLOCK_FISCHER) {
                int64_t left = tg_game_clock_left(&g, g.engine_side, t0);
                int64_t budget = left / 40 + g.clock.increment_ms / 2;
                lim.movetime = budget < 50 ? 50 : budget > 1000 ? 1000 : budget;
            }
            tc_search_result r = tc_engine_search(e, &lim, NULL, NULL);
            tc_engine_free(e);
            char uci[32];
            if (!r.best) {
                tg_game_free(&g);
                return;
            }
            tc_move_to_uci(g.pos, r.best, uci);
            if (tg_game_move(&g, g.engine_side, uci, now_ms(), &err) != TG_OK) {
                tg_game_free(&g);
                return;
            }
        }
        tg_code rc = save_game(G, &g, version, stored, &err);
        if (rc == TG_OK)
            publish(G, &g);
        tg_game_free(&g);
        if (rc != TG_ECONFLICT)
            return;
    }
}

static void *engine_worker(void *arg)
{
    srv_games *G = arg;
    for (;;) {
        pthread_mutex_lock(&G->q_lock);
        while (!G->qlen && !G->stopping)
            pthread_cond_wait(&G->q_cond, &G->q_lock);
        if (G->stopping) {
            pthread_mutex_unlock(&G->q_lock);
            return NULL;
        }
        char id[TG_ID_LEN + 1];
        memcpy(id, G->queue[G->qhead], sizeof id);
        G->qhead = (G->qhead + 1) % QUEUE_MAX;
        G->qlen--;
        pthread_mutex_unlock(&G->q_lock);
        engine_move(G, id);
    }
}

/* ---------------------------------------------------------------- timer */

/* Ends a game whose flag has fallen; 1 when it did (and saved it). */
static int flag_check(srv_games *G, tg_game *g)
{
    int64_t before = g->version;
    if (!tg_game_check_flag(g, now_ms()))
        return 0;
    tc_error err;
    if (save_game(G, g, before, g->nmoves, &err) == TG_OK) {
        publish(G, g);
        return 1;
    }
    return 0;
}

/* Every half second: the watched games here are checked for flag falls;
 * every ten seconds the recently changed games of the store too (flags
 * and engine moves that a stopped process left pending). */
static void *timer_main(void *arg)
{
    srv_games *G = arg;
    int tick = 0;
    pthread_mutex_lock(&G->stop_lock);
    while (!G->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 500 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&G->stop_cond, &G->stop_lock, &ts);
        if (G->stopping)
            break;
        pthread_mutex_unlock(&G->stop_lock);
        tick++;
        /* the watched games */
        char (*ids)[TG_ID_LEN + 1] = NULL;
        int n = 0, cap = 0;
        pthread_mutex_lock(&G->reg_lock);
        for (int b = 0; b < NBUCKETS; b++)
            for (group *g = G->groups[b]; g; g = g->next)
                if (g->n > 0) {
                    if (n == cap) {
                        int nc = cap ? 2 * cap : 16;
                        void *p = realloc(ids, (size_t)nc * sizeof *ids);
                        if (!p)
                            break;
                        ids = p;
                        cap = nc;
                    }
                    memcpy(ids[n++], g->id, TG_ID_LEN + 1);
                }
        pthread_mutex_unlock(&G->reg_lock);
        if (tick % 30 == 0) /* a comment line keeps idle streams (and proxies) alive */
            for (int i = 0; i < n; i++)
                publish_event(G, ids[i], 0, "ping", "{}");
        for (int i = 0; i < n; i++) {
            tg_game g;
            tc_error err;
            if (load_game(G, ids[i], &g, &err) == TG_OK) {
                if (tg_game_active(&g) && g.clock.kind != TG_CLOCK_NONE)
                    flag_check(G, &g);
                tg_game_free(&g);
            }
        }
        free(ids);
        if (tick % 20 == 1) {
            tg_game_summary *list = malloc(LIST_MAX * sizeof *list);
            int slot, k = -1;
            tc_error err;
            if (list) {
                tg_store *s = store_get(G, &slot);
                k = tg_store_list(s, NULL, LIST_MAX, list, &err);
                store_put(G, slot);
            }
            for (int i = 0; i < k; i++) {
                if (strcmp(list[i].result, "*"))
                    continue;
                tg_game g;
                if (load_game(G, list[i].id, &g, &err) != TG_OK)
                    continue;
                if (!flag_check(G, &g) && engine_to_move(&g))
                    enqueue_engine(G, g.id);
                tg_game_free(&g);
            }
            free(list);
        }
        pthread_mutex_lock(&G->stop_lock);
    }
    pthread_mutex_unlock(&G->stop_lock);
    return NULL;
}

/* Changes made by other processes (PostgreSQL NOTIFY). */
static void on_change(const char *id, int64_t version, void *ctx)
{
    srv_games *G = ctx;
    cache_drop(G, id);
    pthread_mutex_lock(&G->reg_lock);
    group *gr = group_find(G, id, 0);
    int want = gr && gr->n > 0 && version > gr->version;
    pthread_mutex_unlock(&G->reg_lock);
    if (!want)
        return;
    tg_game g;
    tc_error err;
    if (load_game(G, id, &g, &err) == TG_OK) {
        publish(G, &g);
        tg_game_free(&g);
    }
}

/* ---------------------------------------------------------------- life */

srv_games *srv_games_start(const srv_games_options *o, tc_error *err)
{
    srv_games *G = calloc(1, sizeof *G);
    if (!G) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    snprintf(G->url, sizeof G->url, "%s", o->db && *o->db ? o->db : "topochess.db");
    int pg = !strncmp(G->url, "postgresql://", 13) || !strncmp(G->url, "postgres://", 11);
    G->nstores = o->stores > 0 ? o->stores : 4; /* SQLite in WAL mode reads beside a writer */
    if (G->nstores > MAX_STORES)
        G->nstores = MAX_STORES;
    for (int i = 0; i < CACHE_SLOTS; i++)
        pthread_mutex_init(&G->cache[i].lock, NULL);
    pthread_mutex_init(&G->store_lock, NULL);
    pthread_cond_init(&G->store_free, NULL);
    pthread_mutex_init(&G->reg_lock, NULL);
    pthread_mutex_init(&G->rate_lock, NULL);
    pthread_mutex_init(&G->q_lock, NULL);
    pthread_cond_init(&G->q_cond, NULL);
    pthread_mutex_init(&G->stop_lock, NULL);
    pthread_cond_init(&G->stop_cond, NULL);
    G->cors = o->cors;
    G->per_minute = o->create_per_minute > 0 ? o->create_per_minute : 60;
    for (int i = 0; i < G->nstores; i++) {
        G->stores[i] = tg_store_open(G->url, err);
        if (!G->stores[i]) {
            for (int k = 0; k < i; k++)
                tg_store_close(G->stores[k]);
            free(G);
            return NULL;
        }
    }
    if (pg) {
        G->listener = tg_store_listen(G->url, on_change, G, err);
        if (!G->listener) {
            for (int k = 0; k < G->nstores; k++)
                tg_store_close(G->stores[k]);
            free(G);
            return NULL;
        }
    }
    G->nworkers = o->engine_threads > 0 ? (o->engine_threads > 16 ? 16 : o->engine_threads) : 1;
    for (int i = 0; i < G->nworkers; i++)
        pthread_create(&G->workers[i], NULL, engine_worker, G);
    pthread_create(&G->timer, NULL, timer_main, G);
    return G;
}

void srv_games_set_daemon(srv_games *G, struct MHD_Daemon *d)
{
    if (G) { /* under the registry's lock: no push is under way when it turns NULL */
        pthread_mutex_lock(&G->reg_lock);
        atomic_store(&G->daemon, d);
        pthread_mutex_unlock(&G->reg_lock);
    }
}

void srv_games_stop(srv_games *G)
{
    if (!G)
        return;
    pthread_mutex_lock(&G->stop_lock);
    G->stopping = 1;
    pthread_cond_broadcast(&G->stop_cond);
    pthread_mutex_unlock(&G->stop_lock);
    pthread_mutex_lock(&G->q_lock);
    pthread_cond_broadcast(&G->q_cond);
    pthread_mutex_unlock(&G->q_lock);
    for (int i = 0; i < G->nworkers; i++)
        pthread_join(G->workers[i], NULL);
    pthread_join(G->timer, NULL);
    if (G->listener)
        tg_listener_stop(G->listener);
    for (int i = 0; i < G->nstores; i++)
        tg_store_close(G->stores[i]);
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (G->cache[i].valid)
            tg_game_free(&G->cache[i].g);
    for (int b = 0; b < NBUCKETS; b++)
        while (G->groups[b]) {
            group *g = G->groups[b];
            G->groups[b] = g->next;
            free(g);
        }
    free(G);
}

/* ---------------------------------------------------------------- requests */

int srv_games_owns(const char *t)
{
    return !strncmp(t, "/api/games", 10) && (t[10] == '\0' || t[10] == '/' || t[10] == '?') ? 1
           : !strncmp(t, "/game/", 6)                                                       ? 1
           : !strncmp(t, "/games", 6) && (t[6] == '\0' || t[6] == '?')                      ? 1
                                                                                            : 0;
}


static void json_answer(srv_response *r, int status, json_t *v)
{
    size_t len = 0;
    char *text = srv_json_text(v, &len);
    if (!text) {
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    r->status = status;
    r->type = TYPE_JSON;
    r->cache = "no-store";
    r->owned = text;
    r->body = text;
    r->len = len;
}

static void reset(srv_response *r)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->status = 200;
    r->cache = "no-cache";
}

/* A request's rate allowance for creating games: a bucket of per_minute
 * tokens per client address, refilled continuously. */
static int rate_ok(srv_games *G, struct MHD_Connection *c)
{
    char ip[48] = "?";
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, ip, sizeof ip);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, ip, sizeof ip);
    }
    int64_t t = now_ms();
    pthread_mutex_lock(&G->rate_lock);
    rate_slot *s = &G->rate[hash_text(ip) % RATE_SLOTS];
    if (strcmp(s->ip, ip)) { /* a new address (or one that shares the slot) */
        snprintf(s->ip, sizeof s->ip, "%s", ip);
        s->tokens = G->per_minute;
        s->last_ms = t;
    }
    s->tokens += (double)(t - s->last_ms) * G->per_minute / 60000.0;
    if (s->tokens > G->per_minute)
        s->tokens = G->per_minute;
    s->last_ms = t;
    int ok = s->tokens >= 1;
    if (ok)
        s->tokens -= 1;
    pthread_mutex_unlock(&G->rate_lock);
    return ok;
}

/* Reads a JSON object body with only the named fields. NULL with the
 * answer set on bad input. */
static json_t *read_body(const char *body, size_t len, const char *const *fields, srv_response *r)
{
    json_error_t je;
    json_t *v = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        srv_route_error(r, 400, 1, "malformed JSON at line %d column %d: %s", je.line, je.column, je.text);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_decref(v);
        srv_route_error(r, 400, 1, "the body must be a JSON object");
        return NULL;
    }
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val)
    {
        int known = 0;
        for (int i = 0; fields[i] && !known; i++)
            known = !strcmp(key, fields[i]);
        if (!known) {
            srv_route_error(r, 400, 1, "unknown field '%.64s'", key);
            json_decref(v);
            return NULL;
        }
    }
    return v;
}

/* An optional string field: -1 (answer set) when present but not a string
 * of at most max bytes. */
static int str_field(json_t *o, const char *name, size_t max, const char **out, srv_response *r)
{
    json_t *v = json_object_get(o, name);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v)) {
        srv_route_error(r, 400, 1, "field '%s' must be a string", name);
        return -1;
    }
    if (json_string_length(v) > max || strlen(json_string_value(v)) != json_string_length(v)) {
        srv_route_error(r, 400, 1, "field '%s' is longer than %zu bytes or holds a NUL", name, max);
        return -1;
    }
    *out = json_string_value(v);
    return 0;
}

static int int_field(json_t *o, const char *name, long long lo, long long hi, long long *out, srv_response *r)
{
    json_t *v = json_object_get(o, name);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        srv_route_error(r, 400, 1, "field '%s' must be an integer from %lld to %lld", name, lo, hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 1;
}

/* The side a request speaks for: its token from the body or an
 * "Authorization: Bearer" header; -1 with a 403 answer. */
static int request_side(const tg_game *g, json_t *body, struct MHD_Connection *c, srv_response *r)
{
    const char *tok = NULL;
    json_t *t = body ? json_object_get(body, "token") : NULL;
    if (t && json_is_string(t))
        tok = json_string_value(t);
    if (!tok) {
        const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
        if (h && !strncmp(h, "Bearer ", 7))
            tok = h + 7;
    }
    int side = tok ? tg_game_side_of(g, tok) : -1;
    if (side < 0)
        srv_route_error(r, 403, 1, tok ? "wrong token for this game" : "this needs a side's token");
    else if (side == g->engine_side)
        side = -1, srv_route_error(r, 403, 1, "the engine's side is played by the server");
    return side;
}

static void finish_create(srv_games *G, tg_game *g, srv_response *r)
{
    json_t *o = json_pack("{s:s,s:s,s:o}", "id", g->id, "url", "", "state", state_json(g, now_ms()));
    char url[64];
    snprintf(url, sizeof url, "/game/%s", g->id);
    json_object_set_new(o, "url", json_string(url));
    for (int side = 0; side < 2; side++) {
        if (side == g->engine_side)
            continue;
        char link[128];
        snprintf(link, sizeof link, "/game/%s#token=%s", g->id, g->token[side]);
        json_object_set_new(o, side_name(side), json_pack("{s:s,s:s}", "token", g->token[side], "url", link));
    }
    json_answer(r, 201, o);
    if (engine_to_move(g))
        enqueue_engine(G, g->id);
}

/// A create request, its fields checked (pointers into body).
typedef struct {
    json_t *body;
    const char *slug, *page, *fen;
    int engine_side;
    long long level;
    tg_clock clock;
} create_req;

/* Reads and checks a create request: 0, or -1 with the answer set. */
static int parse_create(const char *body, size_t len, create_req *q, srv_response *r)
{
    static const char *const fields[] = {"variant", "page", "fen", "clock", "engine", "level", NULL};
    memset(q, 0, sizeof *q);
    q->engine_side = -1;
    q->level = 10;
    json_t *b = q->body = read_body(body, len, fields, r);
    if (!b)
        return -1;
    const char *engine;
    if (str_field(b, "variant", 63, &q->slug, r) || str_field(b, "page", MAX_PAGE_TEXT, &q->page, r) ||
        str_field(b, "fen", 700, &q->fen, r) || str_field(b, "engine", 8, &engine, r) ||
        int_field(b, "level", 1, 20, &q->level, r) < 0)
        goto bad;
    if (!q->slug == !q->page) {
        srv_route_error(r, 400, 1, "give either 'variant' (a slug) or 'page' (a page's front matter)");
        goto bad;
    }
    if (engine && strcmp(engine, "none")) {
        if (!strcmp(engine, "white"))
            q->engine_side = TC_WHITE;
        else if (!strcmp(engine, "black"))
            q->engine_side = TC_BLACK;
        else {
            srv_route_error(r, 400, 1, "field 'engine' must be \"white\", \"black\" or null");
            goto bad;
        }
    }
    json_t *cj = json_object_get(b, "clock");
    if (cj && !json_is_null(cj)) {
        static const char *const cf[] = {"kind", "initial_ms", "increment_ms", "days", NULL};
        const char *kind = NULL;
        if (!json_is_object(cj)) {
            srv_route_error(r, 400, 1, "field 'clock' must be an object or null");
            goto bad;
        }
        const char *key;
        json_t *val;
        json_object_foreach(cj, key, val)
        {
            int known = 0;
            for (int i = 0; cf[i]; i++)
                known |= !strcmp(cf[i], key);
            if (!known) {
                srv_route_error(r, 400, 1, "unknown field 'clock.%.64s'", key);
                goto bad;
            }
        }
        if (str_field(cj, "kind", 20, &kind, r))
            goto bad;
        long long ini = 0, inc = 0, days = 0;
        if (int_field(cj, "initial_ms", 0, 30LL * 86400000, &ini, r) < 0 ||
            int_field(cj, "increment_ms", 0, 86400000, &inc, r) < 0 || int_field(cj, "days", 0, 365, &days, r) < 0)
            goto bad;
        if (kind && !strcmp(kind, "fischer")) {
            q->clock.kind = TG_CLOCK_FISCHER;
            q->clock.initial_ms = ini;
            q->clock.increment_ms = inc;
        } else if (kind && !strcmp(kind, "correspondence")) {
            q->clock.kind = TG_CLOCK_CORRESPONDENCE;
            q->clock.days = (int)days;
        } else if (!kind || strcmp(kind, "none")) {
            srv_route_error(r, 400, 1, "clock.kind must be \"fischer\", \"correspondence\" or \"none\"");
            goto bad;
        }
    }
    return 0;
bad:
    json_decref(b);
    q->body = NULL;
    return -1;
}

/* The variant a create request names: 0, or -1 with the answer set. */
static int create_variant(const srv_site *site, const create_req *q, tc_variant_def *def, srv_response *r)
{
    tc_error err;
    if (q->slug) {
        const srv_page *p = site ? srv_site_find(site, q->slug) : NULL;
        if (p)
            *def = p->def;
        else if (tc_preset_find(q->slug, def, &err)) {
            srv_route_error(r, 404, 1, "no variant '%.64s'", q->slug);
            return -1;
        }
    } else if (tc_frontmatter_parse(q->page, strlen(q->page), def, &err)) {
        srv_route_error(r, 400, 1, "page: %s", err.msg);
        return -1;
    }
    return 0;
}

static void create_game(srv_games *G, const srv_site *site, struct MHD_Connection *c, const char *body, size_t len,
                        srv_response *r)
{
    create_req q;
    tc_variant_def def;
    tc_error err;
    if (parse_create(body, len, &q, r))
        return;
    json_t *b = q.body;
    const char *fen = q.fen;
    if (create_variant(site, &q, &def, r))
        goto out;
    if (!rate_ok(G, c)) {
        srv_route_error(r, 429, 1, "too many games created from this address: at most %.0f a minute", G->per_minute);
        goto out;
    }
    tg_game g;
    tg_code rc = tg_game_new(&g, &def, fen && *fen ? fen : NULL, &q.clock, q.engine_side, (int)q.level, now_ms(), &err);
    if (rc != TG_OK) {
        srv_route_error(r, rc == TG_EBADINPUT ? 400 : 500, 1, "%s", err.msg);
        goto out;
    }
    int slot;
    tg_store *s = store_get(G, &slot);
    rc = tg_store_insert(s, &g, &err);
    store_put(G, slot);
    if (rc != TG_OK)
        srv_route_error(r, 500, 1, "store: %s", err.msg);
    else
        finish_create(G, &g, r);
    tg_game_free(&g);
out:
    json_decref(b);
}

/* The rematch's id, the same for both players' requests: derived from the
 * game's id, so the second request finds the game the first one made. */
static void rematch_id(const char *id, char *out)
{
    uint64_t h = 1469598103934665603ull;
    const char *salt = "rematch:";
    for (const char *p = salt; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = id; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    snprintf(out, TG_ID_LEN + 1, "%016llx", (unsigned long long)h);
}

static void rematch(srv_games *G, tg_game *old, int side, srv_response *r)
{
    if (tg_game_active(old)) {
        srv_route_error(r, 409, 1, "the game is not over yet");
        return;
    }
    char nid[TG_ID_LEN + 1];
    rematch_id(old->id, nid);
    tg_game g;
    tc_error err;
    int other = 1 - side;
    /* colours swap: the side's token in the new game is the one it had */
    tg_code rc = load_game(G, nid, &g, &err);
    if (rc == TG_OK) {
        int nside = tg_game_side_of(&g, old->token[side]);
        json_t *o = json_pack("{s:s,s:s,s:s,s:o}", "id", g.id, "side", side_name(nside), "token", old->token[side],
                              "state", state_json(&g, now_ms()));
        char url[160];
        snprintf(url, sizeof url, "/game/%s#token=%s", g.id, old->token[side]);
        json_object_set_new(o, "url", json_string(url));
        json_answer(r, 200, o);
        tg_game_free(&g);
        return;
    }
    rc = tg_game_new(&g, &old->def, old->start_fen, &old->clock,
                     old->engine_side < 0 ? -1 : 1 - old->engine_side, old->engine_level, now_ms(), &err);
    if (rc != TG_OK) {
        srv_route_error(r, 500, 1, "%s", err.msg);
        return;
    }
    memcpy(g.id, nid, sizeof nid);
    memcpy(g.token[other], old->token[side], TG_TOKEN_LEN + 1);
    memcpy(g.token[side], old->token[other], TG_TOKEN_LEN + 1);
    int slot;
    tg_store *s = store_get(G, &slot);
    rc = tg_store_insert(s, &g, &err);
    store_put(G, slot);
    if (rc != TG_OK) { /* the opponent's request made it meanwhile */
        tg_game_free(&g);
        tg_game again;
        if (load_game(G, nid, &again, &err) != TG_OK) {
            srv_route_error(r, 500, 1, "store: %s", err.msg);
            return;
        }
        g = again;
    }
    json_t *o = json_pack("{s:s,s:s,s:s,s:o}", "id", g.id, "side", side_name(other), "token", old->token[side],
                          "state", state_json(&g, now_ms()));
    char url[160];
    snprintf(url, sizeof url, "/game/%s#token=%s", g.id, old->token[side]);
    json_object_set_new(o, "url", json_string(url));
    json_answer(r, 201, o);
    char ev[64];
    snprintf(ev, sizeof ev, "{\"id\":\"%s\"}", g.id);
    publish_event(G, old->id, 0, "rematch", ev);
    if (engine_to_move(&g))
        enqueue_engine(G, g.id);
    tg_game_free(&g);
}

/* Reads and checks the body of an action: the body (the caller's to
 * free), or NULL with the answer set. */
static json_t *parse_action(const char *action, const char *body, size_t len, const char **move_out,
                            const char **what_out, srv_response *r)
{
    static const char *const fields[] = {"token", "move", "action", NULL};
    json_t *b = read_body(body, len, fields, r);
    if (!b)
        return NULL;
    const char *tok = NULL, *move = NULL, *what = NULL;
    if (str_field(b, "token", 64, &tok, r) || str_field(b, "move", 32, &move, r) ||
        str_field(b, "action", 16, &what, r)) {
        json_decref(b);
        return NULL;
    }
    int is_move = !strcmp(action, "move"), is_draw = !strcmp(action, "draw"), is_tb = !strcmp(action, "takeback"),
        is_resign = !strcmp(action, "resign"), is_rematch = !strcmp(action, "rematch");
    if (!is_move && !is_draw && !is_tb && !is_resign && !is_rematch) {
        srv_route_error(r, 404, 1, "no such action '%.32s': move, draw, takeback, resign or rematch", action);
        json_decref(b);
        return NULL;
    }
    if (is_move && !move) {
        srv_route_error(r, 400, 1, "field 'move' (SAN or coordinates) is missing");
        json_decref(b);
        return NULL;
    }
    if ((is_draw || is_tb) && !what) {
        srv_route_error(r, 400, 1, "field 'action' is missing: %s", is_draw ? "offer, accept or decline" : "request, accept or decline");
        json_decref(b);
        return NULL;
    }
    *move_out = move;
    *what_out = what;
    return b;
}

/* POST /api/games/<id>/<action>: load, apply, save (retrying on a
 * conflicting save), publish. */
static void game_action(srv_games *G, struct MHD_Connection *c, const char *id, const char *action, const char *body,
                        size_t len, srv_response *r)
{
    const char *move = NULL, *what = NULL;
    json_t *b = parse_action(action, body, len, &move, &what, r);
    if (!b)
        return;
    int is_move = !strcmp(action, "move"), is_draw = !strcmp(action, "draw"),
        is_resign = !strcmp(action, "resign"), is_rematch = !strcmp(action, "rematch");
    for (int attempt = 0; attempt < 8; attempt++) {
        tg_game g;
        tc_error err;
        tg_code rc = load_game(G, id, &g, &err);
        if (rc != TG_OK) {
            srv_route_error(r, rc == TG_ENOTFOUND ? 404 : 500, 1, rc == TG_ENOTFOUND ? "no game '%s'" : "%s",
                            rc == TG_ENOTFOUND ? id : err.msg);
            break;
        }
        int side = request_side(&g, b, c, r);
        if (side < 0) {
            tg_game_free(&g);
            break;
        }
        if (is_rematch) {
            rematch(G, &g, side, r);
            tg_game_free(&g);
            break;
        }
        int64_t before = g.version;
        int stored = g.nmoves;
        int64_t t = now_ms();
        char reason[512] = "";
        int flagged = tg_game_check_flag(&g, t);
        if (flagged) {
            rc = TG_ECONFLICT;
            snprintf(err.msg, sizeof err.msg, "the game is over: %s", g.termination);
        } else if (is_move) {
            rc = tg_game_move(&g, side, move, t, &err);
            /* an illegal move: the library's own reason, naming cells */
            tc_explanation *why = rc == TG_EBADINPUT ? malloc(sizeof *why) : NULL;
            if (why && tc_explain_move(g.pos, move, why) && why->message[0])
                snprintf(reason, sizeof reason, "%.500s", why->message);
            free(why);
        } else if (is_resign) {
            rc = tg_game_resign(&g, side, t, &err);
        } else if (is_draw) {
            if (!strcmp(what, "offer") || !strcmp(what, "accept")) {
                if (!strcmp(what, "accept") && g.draw_offer != 1 - side) {
                    rc = TG_ECONFLICT;
                    snprintf(err.msg, sizeof err.msg, "there is no draw offer from the opponent to accept");
                } else {
                    rc = tg_game_offer_draw(&g, side, t, &err);
                }
            } else if (!strcmp(what, "decline")) {
                rc = tg_game_decline_draw(&g, side, t, &err);
            } else {
                rc = TG_EBADINPUT;
                snprintf(err.msg, sizeof err.msg, "draw action must be offer, accept or decline");
            }
        } else { /* takeback */
            if (!strcmp(what, "request")) {
                rc = tg_game_request_takeback(&g, side, t, &err);
                /* the engine accepts every takeback */
                if (rc == TG_OK && g.engine_side >= 0)
                    rc = tg_game_accept_takeback(&g, g.engine_side, t, &err);
            } else if (!strcmp(what, "accept")) {
                rc = tg_game_accept_takeback(&g, side, t, &err);
            } else if (!strcmp(what, "decline")) {
                rc = tg_game_decline_takeback(&g, side, t, &err);
            } else {
                rc = TG_EBADINPUT;
                snprintf(err.msg, sizeof err.msg, "takeback action must be request, accept or decline");
            }
        }
        if (rc != TG_OK && !flagged) {
            srv_route_error(r, rc == TG_EINTERNAL ? 500 : (int)rc, 1, "%s", reason[0] ? reason : err.msg);
            tg_game_free(&g);
            break;
        }
        /* a flag fall found here is stored too, then the request refused */
        tg_code sv = save_game(G, &g, before, stored, &err);
        if (sv == TG_ECONFLICT) { /* changed meanwhile: judge the request again */
            tg_game_free(&g);
            if (attempt == 7)
                srv_route_error(r, 409, 1, "the game changed while this request was judged: try again");
            continue;
        }
        if (sv != TG_OK) {
            srv_route_error(r, 500, 1, "store: %s", err.msg);
            tg_game_free(&g);
            break;
        }
        publish(G, &g);
        if (flagged)
            srv_route_error(r, 409, 1, "the game is over: %s", g.termination);
        else
            json_answer(r, 200, state_json(&g, now_ms()));
        if (engine_to_move(&g))
            enqueue_engine(G, g.id);
        tg_game_free(&g);
        break;
    }
    json_decref(b);
}

int srv_games_check_body(const char *action, const char *body, size_t len)
{
    srv_response r;
    reset(&r);
    if (action) {
        const char *move, *what;
        json_t *b = parse_action(action, body, len, &move, &what, &r);
        json_decref(b);
    } else {
        create_req q;
        tc_variant_def def;
        if (!parse_create(body, len, &q, &r)) {
            if (!create_variant(NULL, &q, &def, &r)) {
                tg_game g;
                tc_error err;
                if (tg_game_new(&g, &def, q.fen && *q.fen ? q.fen : NULL, &q.clock, q.engine_side, (int)q.level,
                                now_ms(), &err) == TG_OK)
                    tg_game_free(&g);
                else
                    r.status = 400;
            }
            json_decref(q.body);
        }
    }
    int status = r.status;
    srv_response_release(&r);
    return status;
}

/* Loads a game for reading, ending it first when its flag has fallen. */
static int read_game(srv_games *G, const char *id, tg_game *g, srv_response *r, int api)
{
    tc_error err;
    tg_code rc = load_game(G, id, g, &err);
    if (rc != TG_OK) {
        srv_route_error(r, rc == TG_ENOTFOUND ? 404 : 500, api, rc == TG_ENOTFOUND ? "no game '%s'" : "%s",
                        rc == TG_ENOTFOUND ? id : err.msg);
        return -1;
    }
    if (tg_game_active(g) && g->clock.kind != TG_CLOCK_NONE)
        flag_check(G, g);
    return 0;
}

static void pgn_answer(const tg_game *g, srv_response *r)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f) {
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    tg_game_pgn(g, f);
    fclose(f);
    r->status = 200;
    r->type = "application/x-chess-pgn; charset=utf-8";
    r->cache = "no-store";
    r->owned = text;
    r->body = text;
    r->len = n;
}

static void list_games(srv_games *G, const char *variant, int max, srv_response *r, int html,
                       const srv_site *site)
{
    tg_game_summary *list = malloc((size_t)max * sizeof *list);
    tc_error err;
    int n = -1;
    if (list) {
        int slot;
        tg_store *s = store_get(G, &slot);
        n = tg_store_list(s, variant, max, list, &err);
        store_put(G, slot);
    } else {
        snprintf(err.msg, sizeof err.msg, "out of memory");
    }
    if (n < 0) {
        free(list);
        srv_route_error(r, 500, !html, "store: %s", err.msg);
        return;
    }
    if (!html) {
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            char url[64];
            snprintf(url, sizeof url, "/game/%s", list[i].id);
            json_array_append_new(
                a, json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:o,s:I,s:I}", "id", list[i].id, "url", url, "variant",
                             list[i].variant, "result", list[i].result, "termination", list[i].termination, "moves",
                             list[i].nmoves, "engine", side_or_null(list[i].engine_side), "created_ms",
                             (json_int_t)list[i].created_ms, "updated_ms", (json_int_t)list[i].updated_ms));
        }
        free(list);
        json_answer(r, 200, a);
        return;
    }
    srv_buf m = {0};
    srv_buf_str(&m, "<section class=\"tc-archive\">\n<h1>Games");
    if (variant && *variant) {
        srv_buf_str(&m, ": ");
        srv_buf_html(&m, variant);
    }
    srv_buf_str(&m, "</h1>\n<form method=\"get\" action=\"/games\" class=\"tc-archive-filter\"><select name=\"variant\">"
                    "<option value=\"\">all variants</option>");
    for (int i = 0; i < site->nvariants; i++) {
        srv_buf_str(&m, "<option value=\"");
        srv_buf_html(&m, site->pages[i].slug);
        srv_buf_str(&m, variant && !strcmp(variant, site->pages[i].slug) ? "\" selected>" : "\">");
        srv_buf_html(&m, site->pages[i].title);
        srv_buf_str(&m, "</option>");
    }
    srv_buf_str(&m, "</select> <button type=\"submit\">Show</button></form>\n<ul class=\"tc-games\">\n");
    for (int i = 0; i < n; i++) {
        time_t sec = (time_t)(list[i].updated_ms / 1000);
        struct tm tm;
        char when[32];
        gmtime_r(&sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
        srv_buf_printf(&m, "<li class=\"tc-game\" data-game=\"%s\"><a href=\"/game/%s\">", list[i].id, list[i].id);
        srv_buf_html(&m, list[i].variant);
        srv_buf_printf(&m, "</a> <span class=\"tc-game-result\">%s</span> <span class=\"tc-game-moves\">%d plies</span>",
                       list[i].result, list[i].nmoves);
        if (list[i].termination[0]) {
            srv_buf_str(&m, " <span class=\"tc-game-termination\">");
            srv_buf_html(&m, list[i].termination);
            srv_buf_str(&m, "</span>");
        }
        srv_buf_printf(&m, " <span class=\"tc-game-when\">%s</span> <a class=\"tc-game-pgn\" href=\"/api/games/%s/pgn\">PGN</a></li>\n",
                       when, list[i].id);
    }
    if (!n)
        srv_buf_str(&m, "<li class=\"tc-game-none\">No games yet.</li>\n");
    srv_buf_str(&m, "</ul>\n</section>");
    free(list);
    char *main_html = srv_buf_take(&m, NULL);
    srv_doc d = {"archive", "Games", main_html ? main_html : "", NULL, NULL};
    size_t len = 0;
    char *doc = srv_render_document(&d, &len);
    free(main_html);
    srv_route_page(r, doc, len);
}

/* /game/<id>: the page that plays (with a side's token in the link's
 * fragment, which the server never sees) or watches a game. */
static void game_page(srv_games *G, const srv_site *site, const char *id, srv_response *r)
{
    tg_game g;
    if (read_game(G, id, &g, r, 0))
        return;
    json_t *variant;
    const srv_page *p = srv_site_find(site, g.def.name);
    if (p) {
        variant = srv_json_detail(p);
    } else { /* a custom page's game: its definition written back as a page */
        char *text = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&text, &n);
        if (f) {
            tc_variant_def_write_page(&g.def, f);
            fclose(f);
        }
        variant = json_pack("{s:s,s:s,s:s}", "slug", g.def.name, "title", g.def.title, "frontmatter",
                            text ? text : "");
        free(text);
    }
    json_t *data = json_pack("{s:o,s:o}", "variant", variant, "game", state_json(&g, now_ms()));
    char *data_json = srv_json_text(data, NULL);
    char title[300];
    snprintf(title, sizeof title, "Game %s: %s", g.id, g.def.title);
    char main_html[512];
    snprintf(main_html, sizeof main_html,
             "<noscript>The board needs JavaScript; the moves are in the <a href=\"/api/games/%s/pgn\">PGN</a>."
             "</noscript>\n<div id=\"tc-app\"></div>",
             g.id);
    srv_doc d = {"game", title, main_html, data_json, p ? p->slug : NULL};
    size_t len = 0;
    char *doc = data_json ? srv_render_document(&d, &len) : NULL;
    free(data_json);
    tg_game_free(&g);
    srv_route_page(r, doc, len);
}

/* GET /api/games/<id>/events: a stream of the game's states. */
static enum MHD_Result open_stream(srv_games *G, struct MHD_Connection *c, const char *id)
{
    srv_response r;
    reset(&r);
    tg_game g;
    if (read_game(G, id, &g, &r, 1))
        return srv_http_send(c, &r, G->cors);
    watcher *w = calloc(1, sizeof *w);
    if (!w) {
        tg_game_free(&g);
        return MHD_NO;
    }
    w->conn = c;
    w->G = G;
    pthread_mutex_init(&w->lock, NULL);
    json_t *st = state_json(&g, now_ms());
    char *text = json_dumps(st, JSON_COMPACT);
    json_decref(st);
    srv_buf_printf(&w->out, "retry: 1000\nid: %lld\nevent: state\ndata: %s\n\n", (long long)g.version,
                   text ? text : "{}");
    free(text);
    pthread_mutex_lock(&G->reg_lock);
    group *gr = group_find(G, id, 1);
    if (!gr) {
        pthread_mutex_unlock(&G->reg_lock);
        srv_buf_free(&w->out);
        free(w);
        tg_game_free(&g);
        return MHD_NO;
    }
    if (g.version > gr->version && gr->n == 0)
        gr->version = g.version;
    w->g = gr;
    w->next = gr->ws;
    gr->ws = w;
    gr->n++;
    pthread_mutex_unlock(&G->reg_lock);
    tg_game_free(&g);
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, w, sse_free);
    if (!resp) {
        sse_free(w);
        return MHD_NO;
    }
    /* a stream is idle between moves: no idle timeout for it */
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)0);
    r.type = "text/event-stream";
    r.cache = "no-store";
    srv_http_common_headers(resp, &r, G->cors);
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    enum MHD_Result ok = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* Query value of name in q ("a=1&b=2", raw), decoded into out. */
static int query_get(const char *q, const char *name, char *out, size_t n)
{
    size_t nl = strlen(name);
    while (q && *q) {
        size_t seg = strcspn(q, "&");
        if (seg > nl && !strncmp(q, name, nl) && q[nl] == '=') {
            size_t vl = seg - nl - 1;
            if (vl >= n)
                return -1;
            return srv_url_decode(q + nl + 1, vl, 1, out) < 0 ? -1 : 1;
        }
        q += seg + (q[seg] == '&');
    }
    return 0;
}

enum MHD_Result srv_games_answer(srv_games *G, const srv_site *site, struct MHD_Connection *c, const char *method,
                                 const char *target, const char *body, size_t len)
{
    srv_response r;
    reset(&r);
    int api = !strncmp(target, "/api/", 5);
    char path[256];
    const char *q = strchr(target, '?');
    size_t pl = q ? (size_t)(q - target) : strlen(target);
    if (q)
        q++;
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST");
    if (pl >= sizeof path) {
        srv_route_error(&r, 404, api, "no such route");
        return srv_http_send(c, &r, G->cors);
    }
    memcpy(path, target, pl);
    path[pl] = '\0';
    if (!strcmp(method, "OPTIONS") && G->cors) { /* a CORS preflight, only when configured */
        r.status = 204;
        r.body = "";
        return srv_http_send(c, &r, G->cors);
    }
    if (!get && !post) {
        r.allow = 2;
        srv_route_error(&r, 405, api, "method %.16s is not allowed here", method);
        return srv_http_send(c, &r, G->cors);
    }
    char id[64] = "", action[32] = "";
    if (!strcmp(path, "/api/games")) {
        if (post) {
            create_game(G, site, c, body, len, &r);
        } else {
            char variant[64] = "", lim[16] = "";
            long max = 50;
            if (query_get(q, "variant", variant, sizeof variant) < 0 || query_get(q, "limit", lim, sizeof lim) < 0 ||
                (lim[0] && ((max = strtol(lim, NULL, 10)) < 1 || max > LIST_MAX))) {
                srv_route_error(&r, 400, 1, "bad query: variant=SLUG (up to 63 bytes), limit=1..%d", LIST_MAX);
            } else {
                list_games(G, variant, (int)max, &r, 0, site);
            }
        }
    } else if (!strcmp(path, "/games")) {
        char variant[64] = "";
        if (!get)
            r.allow = 2, srv_route_error(&r, 405, 0, "the archive only reads");
        else if (query_get(q, "variant", variant, sizeof variant) < 0)
            srv_route_error(&r, 400, 0, "bad query: variant=SLUG");
        else
            list_games(G, variant, 100, &r, 1, site);
    } else if (!strncmp(path, "/game/", 6)) {
        if (!get)
            r.allow = 2, srv_route_error(&r, 405, 0, "the game page only reads");
        else if (!valid_id(path + 6))
            srv_route_error(&r, 404, 0, "no game '%.32s'", path + 6);
        else
            game_page(G, site, path + 6, &r);
    } else {
        int n = sscanf(path, "/api/games/%63[^/]/%31s", id, action);
        if (n < 1 || !valid_id(id) || (n == 2 && strchr(action, '/'))) {
            srv_route_error(&r, 404, 1, "no such game or route: %.100s", path);
        } else if (n == 1 && strlen(path) == 11 + strlen(id)) {
            tg_game g;
            const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
            json_t *hit = get && !h ? cached_state(G, id, now_ms()) : NULL;
            uint64_t gen = cache_gen(G, id);
            if (hit)
                json_answer(&r, 200, hit);
            else if (!get)
                r.allow = 2, srv_route_error(&r, 405, 1, "a game's state only reads; post to /move, /draw, ...");
            else if (!read_game(G, id, &g, &r, 1)) {
                json_t *st = state_json(&g, now_ms());
                /* with a side's token (Authorization: Bearer): which side it is */
                if (h && !strncmp(h, "Bearer ", 7)) {
                    int side = tg_game_side_of(&g, h + 7);
                    if (side < 0) {
                        json_decref(st);
                        srv_route_error(&r, 403, 1, "wrong token for this game");
                        tg_game_free(&g);
                        return srv_http_send(c, &r, G->cors);
                    }
                    json_object_set_new(st, "you", json_string(side_name(side)));
                }
                json_answer(&r, 200, st);
                cache_put(G, &g, gen);
            }
        } else if (n == 2 && !strcmp(action, "pgn") && get) {
            tg_game g;
            if (!read_game(G, id, &g, &r, 1)) {
                pgn_answer(&g, &r);
                tg_game_free(&g);
            }
        } else if (n == 2 && !strcmp(action, "events") && !strcmp(method, "GET")) {
            return open_stream(G, c, id);
        } else if (n == 2 && post) {
            game_action(G, c, id, action, body, len, &r);
        } else {
            r.allow = 2;
            srv_route_error(&r, n == 2 && (!strcmp(action, "pgn") || !strcmp(action, "events")) ? 405 : 404, 1,
                            "no such route: %s %.100s", method, path);
        }
    }
    return srv_http_send(c, &r, G->cors);
}
