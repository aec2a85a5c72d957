/* The engine's worker pool: engine moves of hosted games, searched off the
 * request threads. A job is a game id; the worker loads the game, searches
 * when it is still the engine's turn, saves (retrying on a conflicting
 * save) and publishes.
 *
 * Fairness: each client (the address whose request caused the job; ""
 * for the server's own rescans) has its own queue, and the workers take
 * one job from each client in turn, so one client's thirty games do not
 * delay another's reply.
 *
 * Limits: SRV_ENGINE_QUEUE jobs waiting in all (more are dropped: the
 * timer's rescan finds them again); a game is queued at most once; a
 * search takes at most one second.
 *
 * Calls game_store.h, streams.h and game_state.h. */
#ifndef SRV_ENGINES_H
#define SRV_ENGINES_H

#include "game_store.h"
#include "streams.h"

#define SRV_ENGINE_QUEUE 4096
#define SRV_MAX_ENGINE_THREADS 16

typedef struct srv_engines srv_engines;

srv_engines *srv_engines_start(srv_gstore *store, srv_streams *streams, int threads);
void srv_engines_stop(srv_engines *E);
/* Queues an engine move for game id, caused by client. */
void srv_engines_enqueue(srv_engines *E, const char *id, const char *client);

#endif
