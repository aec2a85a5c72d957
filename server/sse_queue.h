/* One server-sent-events stream's queue: the bytes waiting for a client,
 * written by whoever publishes and read by libmicrohttpd's content
 * callback, which suspends the connection while the queue is empty (a push
 * resumes it). The game streams (streams.c) and the lobby's (lobby.c) both
 * keep theirs here.
 *
 * Limits: a client may leave SRV_SSE_BACKLOG bytes unread in the queue
 * (beside a kernel send buffer cut to SRV_SSE_SNDBUF); past that its
 * backlog is dropped, it gets an "overflow" event and its stream ends once
 * that is sent.
 *
 * Calls buf.h and libmicrohttpd only. */
#ifndef SRV_SSE_QUEUE_H
#define SRV_SSE_QUEUE_H

#include "buf.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#define SRV_SSE_BACKLOG (64 * 1024)
#define SRV_SSE_SNDBUF (32 * 1024)

/// A stream's queue (its own lock: a push never waits for other streams).
typedef struct srv_sse_queue {
    struct MHD_Connection *conn;
    pthread_mutex_t lock;
    srv_buf out;   /* bytes not yet sent */
    size_t off;    /* how far out has been sent */
    int suspended; /* the connection waits for a push */
    int ending;    /* end the stream once out is sent */
    int overflowed;
} srv_sse_queue;

/* A queue for connection c holding first (its first events, may be NULL). */
void srv_sse_init(srv_sse_queue *q, struct MHD_Connection *c, const char *first);
void srv_sse_destroy(srv_sse_queue *q);
/* Queues text; a client too far behind gets the overflow event instead,
 * and its stream ends. Nothing is queued once the stream ends. */
void srv_sse_push(srv_sse_queue *q, const char *text, size_t n);
/* Ends the stream after last (NULL: nothing more), once it is sent. */
void srv_sse_end(srv_sse_queue *q, const char *last);
/* The content reader's work (MHD_ContentReaderCallback): the queued bytes,
 * else suspends the connection, or ends the stream. */
ssize_t srv_sse_read(srv_sse_queue *q, char *buf, size_t max);
/* The response for the stream (its reader calls srv_sse_read through
 * cls): text/event-stream, no caching, headers from respond.h; the
 * connection's kernel buffer cut to SRV_SSE_SNDBUF and its idle timeout
 * set (0: none). Queues it with status 200; on failure frees cls through
 * done. */
enum MHD_Result srv_sse_respond(struct MHD_Connection *c, MHD_ContentReaderCallback read, void *cls,
                                MHD_ContentReaderFreeCallback done, const char *cors, unsigned timeout_s);

#endif
