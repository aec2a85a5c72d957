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
 * Limits: one record per open connection (the daemon's connection limit
 * bounds them); the sweeper wakes four times a second. Before it shuts a
 * socket down it checks that the socket's peer is still the connection's
 * (a closed descriptor reused by a new connection is left alone).
 *
 * Calls libmicrohttpd and the C library only. */
#ifndef SRV_DEADLINES_H
#define SRV_DEADLINES_H

#include <microhttpd.h>

typedef struct srv_deadlines srv_deadlines;

srv_deadlines *srv_deadlines_start(int head_s, int body_s, int idle_s);
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

#endif
