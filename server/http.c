/* The HTTP layer: libmicrohttpd in front of the router (server.h).
 *
 * The daemon polls with epoll in a small pool of threads; every handler
 * answers at once from texts rendered at start (or, for /play and
 * /analysis, from one FEN check), so no thread ever waits on another. The
 * daemon bounds what a client may cost: request line and headers share a
 * fixed memory pool per connection (too large: 414 or 431), idle
 * connections are closed after a timeout, and the number of open
 * connections is capped, in all and per client address. */
#include "server.h"

#include "deadlines.h"
#include "games_api.h"
#include "people.h"
#include "site_live.h"
#include "respond.h"
#include "route.h"
#include "site.h"

#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define SRV_CONN_MEMORY (32 * 1024) /* request line + headers, per connection */
#define SRV_MAX_BODY (64 * 1024)     /* request bodies (only the games API reads them) */
#define SRV_MAX_DISCARD (1024 * 1024) /* a chunked body read and dropped before its 413 */

/// One request: its target as sent and how far the daemon has got.
typedef struct {
    int started;     /* the handler has seen the headers */
    int refused;     /* the body is past SRV_MAX_BODY: answer 413 at its end */
    size_t body;     /* body bytes seen */
    char *data;      /* the body kept for the games API (at most SRV_MAX_BODY) */
    char target[];   /* the request target */
} srv_req;

typedef struct {
    _Atomic(const srv_site *) site; /* swapped whole on SIGHUP */
    int log;
    atomic_int started; /* the daemon listens: its per-connection notes go to --log only */
    srv_games *games;   /* hosted games, or NULL */
    srv_people *people; /* accounts (with the games), or NULL */
    const char *cors;
    srv_live *live;     /* the site from the database's pages (with the games), or NULL */
} srv_ctx;

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The site a request sees: with a database, as it stands there now. */
static const srv_site *current_site(const srv_ctx *ctx)
{
    return ctx->live ? srv_live_site(ctx->live, wall_ms()) : atomic_load(&ctx->site);
}

static const srv_site *site_for_pairer(void *ctx) { return current_site(ctx); }

/* The request target exactly as sent (MHD's URI log callback runs before
 * any decoding); the router decodes it itself. */
static void *keep_target(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls, (void)c;
    size_t n = uri ? strlen(uri) : 0;
    srv_req *r = malloc(sizeof *r + n + 1);
    if (r) {
        r->started = 0;
        r->refused = 0;
        r->body = 0;
        r->data = NULL;
        memcpy(r->target, uri ? uri : "", n + 1);
    }
    return r;
}

/* Leaves the path and query as sent: decoding is the router's. */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls, (void)c;
    return strlen(s);
}

static void completed(void *cls, struct MHD_Connection *c, void **req, enum MHD_RequestTerminationCode toe)
{
    const srv_ctx *ctx = cls;
    (void)toe;
    srv_deadlines_request_done(c);
    if (ctx->people) /* a login answered on a worker but never sent: the client left */
        srv_people_request_done(ctx->people, c);
    srv_req *q = *req;
    if (q)
        free(q->data);
    free(*req);
    *req = NULL;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **req)
{
    (void)url, (void)upload;
    const srv_ctx *ctx = cls;
    srv_req *q = *req;
    if (!q)
        return MHD_NO; /* out of memory: drop the connection */
    /* The first call brings the headers; answering only once the body (if
     * any) is in keeps the connection alive for the next request. */
    srv_request rq = {method, q->target, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match"),
                      MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING)};
    srv_response r;
    memset(&r, 0, sizeof r);
    r.fd = -1;
    if (q->started && !*upload_size) /* the request is whole: answered now */
        srv_deadlines_answered(c);
    if (!q->started) {
        q->started = 1;
        srv_deadlines_head_done(c);
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (!cl || strtoull(cl, NULL, 10) <= SRV_MAX_BODY)
            return MHD_YES;
        /* refused before it is sent (the connection then closes) */
        srv_deadlines_answered(c);
        srv_route_error(&r, 413, !strncmp(q->target, "/api/", 5), "request body larger than %d bytes", SRV_MAX_BODY);
    } else if (*upload_size) {
        int keep = (ctx->games && srv_games_owns(q->target)) || (ctx->people && srv_people_owns(q->target));
        if (keep && q->body + *upload_size <= SRV_MAX_BODY) {
            char *grown = realloc(q->data, q->body + *upload_size + 1);
            if (!grown)
                return MHD_NO;
            q->data = grown;
            memcpy(q->data + q->body, upload, *upload_size);
            q->data[q->body + *upload_size] = '\0';
        }
        q->body += *upload_size;
        *upload_size = 0;
        /* a chunked body without a length, past the limit: read on and
         * drop it, then answer the documented 413 (libmicrohttpd cannot
         * answer while a body still comes); far past it, drop the
         * connection */
        q->refused = q->body > SRV_MAX_BODY;
        return q->body <= SRV_MAX_DISCARD ? MHD_YES : MHD_NO;
    } else if (q->refused) {
        srv_route_error(&r, 413, !strncmp(q->target, "/api/", 5), "request body larger than %d bytes", SRV_MAX_BODY);
    } else if (!strcmp(version, MHD_HTTP_VERSION_1_1) && !MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST)) {
        srv_route_error(&r, 400, !strncmp(q->target, "/api/", 5), "an HTTP/1.1 request needs a Host header");
    } else if (ctx->games && srv_games_owns(q->target)) {
        if (ctx->log)
            fprintf(stderr, "%s %.200s\n", method, rq.target);
        return srv_games_answer(ctx->games, current_site(ctx), c, method, q->target, q->data ? q->data : "",
                                q->data ? q->body : 0);
    } else if (ctx->people && srv_people_owns(q->target)) {
        if (ctx->log)
            fprintf(stderr, "%s %.200s\n", method, rq.target);
        return srv_people_answer(ctx->people, current_site(ctx), c, method, q->target, q->data, q->data ? q->body : 0);
    } else {
        srv_route(current_site(ctx), &rq, &r);
    }
    if (ctx->log)
        fprintf(stderr, "%s %.200s %d\n", method, rq.target, r.status);
    return srv_http_send(c, &r, ctx->cors);
}

/* The daemon's notes: why it cannot start, always; afterwards (a refused
 * connection, a client gone mid-request) only with --log, so that a flood
 * of bad clients does not flood the terminal. */
static void log_error(void *cls, const char *fmt, va_list ap)
{
    srv_ctx *ctx = cls;
    if (atomic_load(&ctx->started) && !ctx->log)
        return;
    fprintf(stderr, "topochess serve: ");
    vfprintf(stderr, fmt, ap);
}

static void report_pages(const srv_site *site)
{
    for (int i = 0; i < site->npages; i++)
        if (!site->pages[i].ok)
            fprintf(stderr, "topochess serve: %s: %s\n", site->pages[i].file, site->pages[i].error);
}

/* dir if it exists here, else the same folder beside the executable. */
static const char *find_dir(const char *dir, char *buf, size_t n)
{
    if (access(dir, R_OK) == 0)
        return dir;
    char exe[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l > 0) {
        exe[l] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if ((size_t)snprintf(buf, n, "%s/%s", exe, dir) < n && access(buf, R_OK) == 0)
                return buf;
        }
    }
    return dir;
}

int srv_serve(const srv_options *o)
{
    const char *host = o->host ? o->host : "127.0.0.1";
    char pbuf[PATH_MAX], sbuf[PATH_MAX];
    const char *pages = o->pages_dir ? o->pages_dir : find_dir("variants", pbuf, sizeof pbuf);
    const char *statics = o->static_dir ? o->static_dir : find_dir("web/dist", sbuf, sizeof sbuf);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = o->threads > 0 ? o->threads : cores < 1 ? 1 : cores > 8 ? 8 : (int)cores;
    int timeout = o->timeout > 0 ? o->timeout : 10;
    int max_conn = o->max_connections > 0 ? o->max_connections : 1000;
    int per_ip = o->max_per_ip > 0 ? o->max_per_ip : 128;

    char port_text[16];
    snprintf(port_text, sizeof port_text, "%d", o->port);
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    int gai = getaddrinfo(host, port_text, &hints, &ai);
    if (gai) {
        fprintf(stderr, "topochess serve: --host %s: %s\n", host, gai_strerror(gai));
        return 1;
    }
    struct sockaddr_storage addr;
    memset(&addr, 0, sizeof addr);
    memcpy(&addr, ai->ai_addr, ai->ai_addrlen < sizeof addr ? ai->ai_addrlen : sizeof addr);
    int ipv6 = ai->ai_family == AF_INET6;
    freeaddrinfo(ai);

    tc_error err;
    srv_site *site = srv_site_load(pages, statics, &err);
    if (!site) {
        fprintf(stderr, "topochess serve: %s\n", err.msg);
        return 1;
    }
    report_pages(site);
    if (!site->static_dir[0])
        fprintf(stderr, "topochess serve: no static files in %s (run make web): pages load without the board\n",
                statics);

    /* SIGINT, SIGTERM and SIGHUP are taken by sigwait below; the daemon's
     * threads inherit the mask, so no handler runs inside them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);

    srv_games *games = NULL;
    srv_people *people = NULL;
    if (!o->no_games) {
        srv_games_options go = {o->db,           o->engine_threads, 0, o->create_per_minute, o->cors, o->trusted_proxy,
                                o->day_ms,       o->analysis_threads, o->analysis_nodes};
        games = srv_games_start(&go, &err);
        if (!games) {
            fprintf(stderr, "topochess serve: --db %s: %s\n", o->db ? o->db : "topochess.db", err.msg);
            srv_site_free(site);
            return 1;
        }
        srv_people_options po = {o->db, o->secure_cookies, o->trusted_proxy, o->day_ms, o->tournaments, 0};
        people = srv_people_start(&po, &err);
        if (!people) {
            fprintf(stderr, "topochess serve: accounts: %s\n", err.msg);
            srv_games_stop(games);
            srv_site_free(site);
            return 1;
        }
    }
    srv_live *live = NULL;
    if (people) {
        live = srv_live_start(o->db && o->db[0] ? o->db : "topochess.db", pages, statics, &err);
        if (!live) {
            fprintf(stderr, "topochess serve: the pages in --db: %s\n", err.msg);
            srv_people_stop(people);
            srv_games_stop(games);
            srv_site_free(site);
            return 1;
        }
    }
    if (live)
        srv_people_on_pages(people, srv_live_touch, live);
    srv_ctx ctx = {site, o->log, 0, games, people, o->cors, live};
    if (people) /* the tournaments' pairer makes games of the site's variants */
        srv_people_set_site(people, site_for_pairer, &ctx);
    srv_deadlines *dl = srv_deadlines_start(o->head_timeout > 0 ? o->head_timeout : 10,
                                            o->body_timeout > 0 ? o->body_timeout : 30, timeout, max_conn,
                                            o->trusted_proxy);
    if (!dl) {
        fprintf(stderr, "topochess serve: cannot start the deadline thread\n");
        srv_live_stop(live);
        srv_people_stop(people);
        srv_games_stop(games);
        srv_site_free(site);
        return 1;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ITC |
                     (ipv6 ? MHD_USE_IPv6 : 0);
    errno = 0;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)o->port, NULL, NULL, handle, &ctx, MHD_OPTION_EXTERNAL_LOGGER, log_error, &ctx,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)threads, MHD_OPTION_CONNECTION_LIMIT, (unsigned)max_conn,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)per_ip,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)timeout, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)SRV_CONN_MEMORY, MHD_OPTION_URI_LOG_CALLBACK, keep_target, NULL, MHD_OPTION_UNESCAPE_CALLBACK,
        no_unescape, NULL, MHD_OPTION_NOTIFY_COMPLETED, completed, &ctx, MHD_OPTION_NOTIFY_CONNECTION,
        srv_deadlines_notify, dl, MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "topochess serve: cannot listen on %s port %d%s%s\n", host, o->port, errno ? ": " : "",
                errno ? strerror(errno) : "");
        srv_deadlines_stop(dl);
        srv_live_stop(live);
        srv_people_stop(people);
        srv_games_stop(games);
        srv_site_free(site);
        return 1;
    }
    srv_games_set_daemon(games, d);
    atomic_store(&ctx.started, 1);
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    int port = info ? info->port : o->port;
    printf("topochess serve: http://%s%s%s:%d/ (%d variant pages from %s%s%s)\n", ipv6 ? "[" : "", host,
           ipv6 ? "]" : "", port, current_site(&ctx)->nvariants, pages, site->static_dir[0] ? ", static files from " : "",
           site->static_dir[0] ? statics : "");
    fflush(stdout);
    /* SIGHUP reads the pages again. A response being sent may still point
     * into the site it came from, so replaced sites are kept until the
     * daemon has stopped. */
    srv_site **old = NULL;
    int nold = 0;
    for (;;) {
        int sig = 0;
        if (sigwait(&stop, &sig) || sig != SIGHUP)
            break;
        if (live) {
            if (srv_live_reload(live, &err))
                fprintf(stderr, "topochess serve: reload: %s\n", err.msg);
            else {
                report_pages(current_site(&ctx));
                fprintf(stderr, "topochess serve: reloaded %d variant pages from %s and the database\n",
                        current_site(&ctx)->nvariants, pages);
            }
            continue;
        }
        srv_site *next = srv_site_load(pages, statics, &err);
        srv_site **grown = next ? realloc(old, (size_t)(nold + 1) * sizeof *old) : NULL;
        if (!grown) {
            fprintf(stderr, "topochess serve: reload: %s\n", next ? "out of memory" : err.msg);
            srv_site_free(next);
            continue;
        }
        old = grown;
        report_pages(next);
        fprintf(stderr, "topochess serve: reloaded %d variant pages from %s\n", next->nvariants, pages);
        old[nold++] = site;
        site = next;
        atomic_store(&ctx.site, site);
    }
    /* A clean stop: no new connections, every live stream ended with a
     * final event (a suspended stream would abort MHD_stop_daemon), then
     * the requests under way are finished by the daemon's stop. */
    MHD_socket ls = MHD_quiesce_daemon(d);
    if (ls != MHD_INVALID_SOCKET)
        close(ls);
    srv_games_close_streams(games, 3000);
    srv_games_set_daemon(games, NULL);
    srv_people_close_streams(people);
    MHD_stop_daemon(d);
    srv_deadlines_stop(dl);
    srv_people_stop(people);
    srv_games_stop(games);
    srv_live_stop(live);
    for (int i = 0; i < nold; i++)
        srv_site_free(old[i]);
    free(old);
    srv_site_free(site);
    return 0;
}
