/* The analysis queue over HTTP (docs/api.md, docs/analysis.md):
 *
 *   POST /api/games/ID/analysis   queue the server's analysis of an ended game
 *   GET  /api/games/ID/analysis   its state: none, queued (with the place
 *                                 in the queue), running (with progress),
 *                                 done (with the result) or failed
 *   GET  /api/games/ID/pgn        the PGN, with [%eval] and the marks once
 *                                 the analysis is done
 *
 * Who may ask: any signed-in account (a session, with its CSRF token and
 * from the hub's own pages, as every change a cookie authorises), or a
 * player of the game by its side's token (the link's #token, as a Bearer
 * header or the body's "token"). The requester is the account, or for a
 * token the client's address: fairness and limits are per requester.
 *
 * Limits: SRV_ANALYSIS_PER_USER jobs queued or running a requester;
 * SRV_ANALYSIS_QUEUE jobs waiting in all (503 beyond: the page reviews in
 * the browser instead); SRV_ANALYSIS_PER_MINUTE requests that queue a job
 * a requester a minute (the rate_limit.h bucket, keyed by requester).
 *
 * Calls analysis.h, session.h, rate_limit.h, respond.h, games_body.h and
 * games/tourney_store.h (the PGN's Event). */
#ifndef SRV_ANALYSIS_HTTP_H
#define SRV_ANALYSIS_HTTP_H

#include "analysis.h"
#include "rate_limit.h"
#include "route.h"

#include <microhttpd.h>

#define SRV_ANALYSIS_PER_USER 3
#define SRV_ANALYSIS_QUEUE 200
#define SRV_ANALYSIS_PER_MINUTE 10

/// The workers and the requests' limits of one process.
typedef struct srv_analysis_api srv_analysis_api;

/* Starts the workers (analysis.h: threads 0 one, < 0 none; nodes 0 the
 * default);
 * proxy: serve --trusted-proxy (the client's address), or NULL. NULL when
 * out of memory. */
srv_analysis_api *srv_analysis_api_start(srv_gstore *store, tp_db *db, int threads, int64_t nodes, const char *proxy);
void srv_analysis_api_stop(srv_analysis_api *api);
/* GET (post 0) or POST (post 1) /api/games/ID/analysis for g, loaded. */
void srv_analysis_http(srv_analysis_api *api, struct MHD_Connection *c, const tg_game *g, int post, const char *body,
                       size_t len, srv_response *r);
/* g's PGN (a tournament's game: its name as the Event), with its analysis
 * when the server has one. */
void srv_analysis_pgn(srv_analysis_api *api, const tg_game *g, srv_response *r);

#endif
