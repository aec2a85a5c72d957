/* Deadlines for requests: libmicrohttpd's own timeout counts only
 * idleness, so a client that sends its request head or body a byte at a
 * time would hold its connection for ever. This module keeps, for every
 * open connection, when its current phase began, and a sweeper thread
 * shuts down the socket of any connection past its deadline (the daemon
 * then sees the end of the stream and closes it):
 *
 *   head: from the accept to the end of the request head, head_s
 *         seconds (on a kept connection, from the end of the previous
 *         answer, idle_s + head_s: the daemon's idle timeout comes first);
 *   body: from the end of the head to the end of the body, body_s seconds;
 *   answered: no deadline (a live stream lives on; its own limits are in
 *         streams.h).
 *
 * Shedding: a deadline alone cannot keep a slot for new clients while an
 * attacker reconnects as fast as its connections are cut. So when more
 * than max_conn - R connections are open (R = max_conn / 8, at least 2),
 * the connections still sending their request head (and kept connections
 * idle between requests) are shut down until max_conn - 2R are left:
 * idle ones first, then the lowest byte rate of the head so far (bytes
 * received, from TCP_INFO, over its age), then the oldest. A connection
 * younger than SRV_SHED_GRACE_MS is spared (its head is on its way), and
 * a connection whose head is in (a request being answered, a live
 * stream) is never shed. Past max_conn - R, too, a new connection from
 * an address that already has max_conn / 16 (at least 4) connections
 * sending their heads is closed at once (except from the trusted proxy,
 * whose connections are every client's): the connections queued for
 * accepting then reach the other clients' quickly. This is what nginx's and Apache's minimum-rate
 * rules (mod_reqtimeout's MinRate) do, applied only when slots run out.
 *
 * Limits: one record per open connection (the daemon's connection limit
 * bounds them); the sweeper wakes four times a second, twenty while it
 * sheds, and at once when a new connection passes max_conn - R. Before it
 * shuts a socket down it checks that the socket's peer is still the
 * connection's (a closed descriptor reused by a new connection is left
 * alone).
 *
 * Calls libmicrohttpd and the C library only. */
#ifndef SRV_DEADLINES_H
#define SRV_DEADLINES_H

#include <microhttpd.h>

typedef struct srv_deadlines srv_deadlines;

#define SRV_SHED_GRACE_MS 250

/* max_conn: the daemon's connection limit (shedding starts near it);
 * trusted_proxy (or NULL): an address every client's connections come
 * from, spared the rule for one address's heads. */
srv_deadlines *srv_deadlines_start(int head_s, int body_s, int idle_s, int max_conn, const char *trusted_proxy);
void srv_deadlines_stop(srv_deadlines *D);
/* For MHD_OPTION_NOTIFY_CONNECTION (cls: the srv_deadlines). */
void srv_deadlines_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe);
/* The request's head is in: its body's deadline runs. */
void srv_deadlines_head_done(struct MHD_Connection *c);
/* The request is answered: no deadline until its answer is sent. */
void srv_deadlines_answered(struct MHD_Connection *c);
/* The answer is sent: the next request's head deadline runs. */
void srv_deadlines_request_done(struct MHD_Connection *c);
/* Connections cut so far (for the log and tests). */
long srv_deadlines_cut(srv_deadlines *D);
/* Of those, the connections shed under pressure. */
long srv_deadlines_shed(srv_deadlines *D);

#endif
