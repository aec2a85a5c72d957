/* The tournament page's live stream (server-sent events): a watcher of a
 * tournament gets its JSON (as /api/tournament/ID answers it) when it
 * opens, then again whenever it changes: standings, pairings, games,
 * state. The lobby's thread calls srv_tlive_beat at each beat (every
 * SRV_LOBBY_BEAT_MS), after the pairer, on every process: each process
 * reads the tournaments watched on it, so a change made by the pairer on
 * another process reaches its watchers within a beat.
 *
 * Limits: as the other streams (streams.h): SRV_STREAMS_PER_ADDR open
 * streams per client address and SRV_MAX_STREAMS in all (counted over
 * these streams), SRV_SSE_BACKLOG bytes unread; a stream that takes no
 * byte for SRV_LOBBY_TIMEOUT seconds is closed (pinged every beat); at
 * most SRV_TLIVE_PER_BEAT different tournaments are read a beat (the
 * others the next). An ended tournament's stream gets its last state
 * and ends.
 *
 * Calls tourney.h, sse_queue.h and respond.h (lobby.h and streams.h for
 * their limits). */
#ifndef SRV_TOURNEY_LIVE_H
#define SRV_TOURNEY_LIVE_H

#include "tourney.h"

#include <microhttpd.h>

#define SRV_TLIVE_PER_BEAT 64

typedef struct srv_tlive srv_tlive;

/* The streams of the tournaments of T (kept, the caller's). NULL when out
 * of memory. */
srv_tlive *srv_tlive_new(srv_tourneys *T);
/* After srv_tlive_close_all and once no stream is left (the daemon
 * stopped). */
void srv_tlive_free(srv_tlive *X);
/* Opens a stream of tournament tid (12 hex digits, checked by the
 * caller) on c for a client at addr: 404 for an unknown one, 429 past
 * the limits. */
enum MHD_Result srv_tlive_stream(srv_tlive *X, struct MHD_Connection *c, const char *tid, const char *addr);
/* Sends every watched tournament's state when it changed, and a ping. */
void srv_tlive_beat(srv_tlive *X);
/* Shutting down: every stream ends; new ones end at once. */
void srv_tlive_close_all(srv_tlive *X);

#endif
