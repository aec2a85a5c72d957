/* Live streams (server-sent events): the watchers of each game on this
 * process and the events sent to them.
 *
 * Limits: SRV_STREAMS_PER_ADDR open streams per client address (behind
 * --trusted-proxy, the address it names: srv_client_addr) and
 * SRV_MAX_STREAMS in all (more: 429 with Retry-After). A watcher may leave
 * SRV_SSE_BACKLOG bytes unread (sse_queue.h, beside a kernel send buffer
 * cut to SRV_SSE_SNDBUF); past that its backlog is dropped, it
 * gets an "overflow" event and its stream ends; a stream that takes no
 * byte for SRV_STREAM_TIMEOUT seconds (pings come every 5 s) is closed, and
 * a watcher that left is noticed by the next ping.
 * Events older than the newest state sent for a game are dropped.
 *
 * Calls game_state.h, respond.h, sse_queue.h and libmicrohttpd only. */
#ifndef SRV_STREAMS_H
#define SRV_STREAMS_H

#include "game.h"

#include <microhttpd.h>
#include <stdint.h>

#define SRV_STREAMS_PER_ADDR 32
#define SRV_MAX_STREAMS 4096
#define SRV_STREAM_TIMEOUT 60

typedef struct srv_streams srv_streams;

/* trusted_proxy: see srv_client_addr (the per-address stream limit). */
srv_streams *srv_streams_new(const char *cors, const char *trusted_proxy);
void srv_streams_free(srv_streams *S);
/* The daemon that resumes suspended watchers; NULL while it stops (then
 * nothing more is pushed). */
void srv_streams_set_daemon(srv_streams *S, struct MHD_Daemon *d);

/* Opens a stream of g's states on c (its first event g's state). Each
 * opening and closing sends the game's watchers here a "watchers" event,
 * {"spectators": N}: the streams not opened by a player's page (player 1,
 * as the page says: a count, not a permission). */
enum MHD_Result srv_streams_open(srv_streams *S, struct MHD_Connection *c, const tg_game *g, int player);
/* Hands the spectator counts to fn (spectators.h sums them across
 * processes) instead of sending this process's own: fn(id, n, ctx) after
 * each stream of game id opened or closed here, n the spectators here.
 * Set before the daemon starts. */
void srv_streams_on_spectators(srv_streams *S, void (*fn)(const char *id, int n, void *ctx), void *ctx);
/* Sends an event to every watcher of game id here. When version > 0 the
 * event is a state newer than any sent so far (older ones are dropped). */
void srv_streams_event(srv_streams *S, const char *id, int64_t version, const char *event, const char *json);
/* Sends g's state as a "state" event. */
void srv_streams_publish(srv_streams *S, const tg_game *g);
/* True when game id has watchers here and version is newer than the
 * newest state they were sent. */
int srv_streams_wants(srv_streams *S, const char *id, int64_t version);
/* Shutting down: every stream gets a final "shutdown" event and ends once
 * it is sent; new streams are refused (503). Waits at most wait_ms for
 * the streams to drain. */
void srv_streams_close_all(srv_streams *S, int wait_ms);
/* The ids of the games watched here (heap, *n of them; NULL when none). */
char (*srv_streams_watched(srv_streams *S, int *n))[TG_ID_LEN + 1];
/* The same, only the games whose running clock's flag falls by now (as of
 * the newest state sent): the timer loads no other game. */
char (*srv_streams_due(srv_streams *S, int64_t now, int *n))[TG_ID_LEN + 1];
/* Sets a watched game's flag deadline (0: no clock runs). */
void srv_streams_set_deadline(srv_streams *S, const char *id, int64_t deadline);

#endif
