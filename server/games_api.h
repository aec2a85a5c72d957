/* Hosted games over HTTP (docs/api.md): the JSON API under /api/games, the
 * live stream (server-sent events), the game and archive pages, the
 * engine's worker pool and the timer that ends games on time. Every request
 * loads the game from the store and writes it back before it answers, so a
 * server process holds no game state that another process needs; watchers
 * of a game on this process hear of changes made here directly and of
 * changes made by other processes through the store's listener
 * (PostgreSQL LISTEN/NOTIFY). */
#ifndef SRV_GAMES_API_H
#define SRV_GAMES_API_H

#include "route.h"
#include "site.h"

#include <microhttpd.h>

typedef struct srv_games srv_games;

typedef struct srv_games_options {
    const char *db;        /* SQLite file or postgresql:// URL (default topochess.db) */
    int engine_threads;    /* engine workers (default 1) */
    int stores;            /* store connections (default 4 on PostgreSQL, 1 on SQLite) */
    int create_per_minute; /* games one client address may create a minute (default 60) */
    const char *cors;      /* an origin allowed to call the API, or NULL (no CORS) */
    const char *trusted_proxy; /* whose X-Forwarded-For names the client (limits per address), or NULL */
    long long day_ms;      /* a correspondence day for the games made here (0: a real day) */
    int analysis_threads;  /* analysis workers (0: 1, < 0: none; analysis.h) */
    long long analysis_nodes; /* nodes a position (0: SRV_ANALYSIS_NODES) */
} srv_games_options;

/* Opens the store (applying migrations), starts the listener, the engine
 * pool and the timer. NULL with err. */
srv_games *srv_games_start(const srv_games_options *o, tc_error *err);
void srv_games_stop(srv_games *G);
/* Before the daemon stops: ends every live stream with a final event and
 * waits (at most wait_ms) for them to be sent. */
void srv_games_close_streams(srv_games *G, int wait_ms);
/* Needs the daemon for resuming suspended watchers: set once it runs. */
void srv_games_set_daemon(srv_games *G, struct MHD_Daemon *d);

/* Checks a request body as the API would, with no store or connection:
 * action NULL for a create request (the variant as a preset or a page,
 * the game made and dropped), else "move", "draw", ... The status the
 * request would get so far (200: acceptable). For the fuzz target. */
int srv_games_check_body(const char *action, const char *body, size_t len);

/* True for the targets this module answers (/api/games..., /game/..., /games). */
int srv_games_owns(const char *target);
/* Answers one request (body complete) on connection c. */
enum MHD_Result srv_games_answer(srv_games *G, const srv_site *site, struct MHD_Connection *c, const char *method,
                                 const char *target, const char *body, size_t len);

#endif
