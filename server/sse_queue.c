/* A live stream's queue: see sse_queue.h. */
#include "sse_queue.h"

#include "respond.h"

#include <string.h>
#include <sys/socket.h>

void srv_sse_init(srv_sse_queue *q, struct MHD_Connection *c, const char *first)
{
    memset(q, 0, sizeof *q);
    q->conn = c;
    pthread_mutex_init(&q->lock, NULL);
    if (first)
        srv_buf_str(&q->out, first);
}

void srv_sse_destroy(srv_sse_queue *q)
{
    pthread_mutex_destroy(&q->lock);
    srv_buf_free(&q->out);
}

/* Under the lock: a suspended connection goes on. */
static void wake(srv_sse_queue *q)
{
    if (q->suspended) {
        q->suspended = 0;
        MHD_resume_connection(q->conn);
    }
}

void srv_sse_push(srv_sse_queue *q, const char *text, size_t n)
{
    static const char over[] = "event: overflow\ndata: {\"error\":\"this stream was not read: reconnect\"}\n\n";
    pthread_mutex_lock(&q->lock);
    if (q->ending) {
        /* ended: nothing more */
    } else if (q->out.len - q->off + n > SRV_SSE_BACKLOG) {
        /* a client that does not read: its backlog is dropped, it is told
         * why, and its stream ends once that is sent (or the daemon's
         * timeout closes it) */
        srv_buf_free(&q->out);
        memset(&q->out, 0, sizeof q->out);
        q->off = 0;
        srv_buf_put(&q->out, over, sizeof over - 1);
        q->ending = 1;
        q->overflowed = 1;
    } else {
        srv_buf_put(&q->out, text, n);
    }
    wake(q);
    pthread_mutex_unlock(&q->lock);
}

void srv_sse_end(srv_sse_queue *q, const char *last)
{
    pthread_mutex_lock(&q->lock);
    if (!q->ending && last)
        srv_buf_str(&q->out, last);
    q->ending = 1;
    wake(q);
    pthread_mutex_unlock(&q->lock);
}

ssize_t srv_sse_read(srv_sse_queue *q, char *buf, size_t max)
{
    pthread_mutex_lock(&q->lock);
    size_t have = q->out.len - q->off;
    if (!have) {
        q->out.len = q->off = 0;
        if (q->out.p)
            q->out.p[0] = '\0';
        if (q->out.failed) { /* out of memory: the stream cannot go on */
            pthread_mutex_unlock(&q->lock);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
        if (q->ending) {
            pthread_mutex_unlock(&q->lock);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        q->suspended = 1;
        MHD_suspend_connection(q->conn);
        pthread_mutex_unlock(&q->lock);
        return 0;
    }
    size_t n = have < max ? have : max;
    memcpy(buf, q->out.p + q->off, n);
    q->off += n;
    pthread_mutex_unlock(&q->lock);
    return (ssize_t)n;
}

enum MHD_Result srv_sse_respond(struct MHD_Connection *c, MHD_ContentReaderCallback read, void *cls,
                                MHD_ContentReaderFreeCallback done, const char *cors, unsigned timeout_s)
{
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read, cls, done);
    if (!resp) {
        done(cls);
        return MHD_NO;
    }
    /* the kernel's buffer for the stream stays small (its autotuning
     * would let a client that does not read hold megabytes): the
     * backlog above is the limit that counts */
    const union MHD_ConnectionInfo *fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (fd) {
        int size = SRV_SSE_SNDBUF;
        setsockopt(fd->connect_fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    }
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, timeout_s);
    srv_response r;
    memset(&r, 0, sizeof r);
    r.fd = -1;
    r.type = "text/event-stream";
    r.cache = "no-store";
    srv_http_common_headers(resp, &r, cors);
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    enum MHD_Result ok = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    return ok;
}
