/* The lobby's state, shared by lobby.c (seeks, streams, the thread) and
 * lobby_pages.c (the lists and pages it renders). Private to the two. */
#ifndef TC_LOBBY_INTERNAL_H
#define TC_LOBBY_INTERNAL_H

#include "lobby.h"

#include "buf.h"
#include "sse_queue.h"
#include "store.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct lwatch lwatch;

/// One lobby stream on this process: whose (or "" for a watcher), and the
/// bytes queued for it.
struct lwatch {
    srv_sse_queue q;
    char user_id[TP_ID_LEN + 1];
    char addr[48]; /* the client's address: the per-address limit */
    int inbox_only; /* /api/inbox/events: the inbox's count and challenges, no seeks */
    srv_lobby *L;
    lwatch *next;
};

struct srv_lobby {
    tp_db *db;
    tg_store *games;
    pthread_mutex_t reg; /* the watchers */
    lwatch *ws;
    char *last;          /* the list last published */
    struct seen_count { char user_id[TP_ID_LEN + 1]; int n, unread; } *counts; /* challenges and unread notes last told, by user */
    int ncounts;
    int closing;         /* streams are being ended: no new ones (under reg) */
    pthread_t thread;
    atomic_int stop;
    pthread_mutex_t sleep_lock;
    pthread_cond_t wake;
    int dirty;             /* changed since the thread last looked (under sleep_lock) */
    tg_listener *listener; /* PostgreSQL: the other processes' changes (NOTIFY tg_lobby), else NULL */
    long long day_ms;      /* a correspondence day (serve --day-ms; 0: a real one) */
    int64_t pruned_ms;     /* when old notifications were last deleted */
    int (*on_beat)(void *ctx, int64_t now_ms); /* under reg */
    void *on_beat_ctx;
};

/* The clock a seek's form names by key ("3+2", "corr3"), or NULL. */
const tg_clock *srv_lobby_clock(const char *key);
/* Its words ("5+3", "3 days a move"; buf for one not in the list). */
const char *srv_lobby_clock_label(const tg_clock *c, char *buf, size_t n);

#endif
