/* The tournaments' state, shared by tourney.c (forms, the pairer, the
 * schedule) and tourney_pages.c (JSON and HTML). Private to the two. */
#ifndef SRV_TOURNEY_INTERNAL_H
#define SRV_TOURNEY_INTERNAL_H

#include "tourney.h"

#include <pthread.h>

/// One line of the operator's schedule.
typedef struct srv_sched {
    tp_tourney_kind kind;
    int weekday;  /* 0 Sunday .. 6 Saturday; -1 daily */
    int minute;   /* of the day, UTC */
    int size;     /* an arena's minutes, a round-robin's players */
    char variant[64];
    tg_clock clock;
    int rated;
    char name[TP_TOURNEY_NAME_MAX + 1];
    int line;        /* in the file, for messages */
    int64_t made;    /* the last start this process made or found made */
    int warned;      /* its variant was missing, said once */
} srv_sched;

struct srv_tourneys {
    tp_db *db;
    tg_store *games;
    pthread_mutex_t lock; /* the site getter */
    const srv_site *(*site_fn)(void *ctx);
    void *site_ctx;
    char owner[33]; /* this process's name in the lease */
    int64_t day_ms;  /* a correspondence game's day (0: a real day; serve --day-ms) */
    srv_sched sched[SRV_TOURNEY_SCHEDULE_MAX];
    int nsched;
};

/* The site the pairer reads variants from, or NULL before it is set. */
const srv_site *srv_tourneys_site(srv_tourneys *T);
/* Makes the schedule's events that start within SRV_TOURNEY_ANNOUNCE_MS
 * (each once: their sched_key is unique), tourney_sched.c. */
void srv_tourneys_sched_make(srv_tourneys *T, int64_t now_ms);

#endif
