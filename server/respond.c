/* Sending a response: see respond.h. */
#include "respond.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <string.h>

void srv_http_common_headers(struct MHD_Response *resp, const srv_response *r, const char *cors)
{
    if (r->type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, r->cache ? r->cache : "no-cache");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    /* same-origin: no Referer to other sites, and the hub's own forms
     * carry their Origin (under no-referrer a browser sends "Origin:
     * null", which the origin checks refuse: session.h) */
    MHD_add_response_header(resp, "Referrer-Policy", "same-origin");
    /* Cross-origin isolation: the engine worker can then be stopped through
     * a SharedArrayBuffer flag instead of being restarted (web/src/lib).
     * Every resource of the hub is its own, so nothing else is blocked. */
    MHD_add_response_header(resp, "Cross-Origin-Opener-Policy", "same-origin");
    MHD_add_response_header(resp, "Cross-Origin-Embedder-Policy", "require-corp");
    MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", cors ? "cross-origin" : "same-origin");
    if (cors) { /* only when configured (--cors ORIGIN) */
        MHD_add_response_header(resp, "Access-Control-Allow-Origin", cors);
        MHD_add_response_header(resp, "Access-Control-Allow-Headers", "Content-Type, Authorization");
        MHD_add_response_header(resp, "Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Origin");
    }
    if (r->page) {
        MHD_add_response_header(resp, "Content-Security-Policy", srv_csp);
        MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    }
}

enum MHD_Result srv_http_send(struct MHD_Connection *c, srv_response *rr, const char *cors)
{
    srv_response r = *rr;
    struct MHD_Response *resp;
    if (r.fd >= 0) {
        resp = MHD_create_response_from_fd64((uint64_t)r.size, r.fd);
        if (resp)
            r.fd = -1; /* the daemon closes it */
    } else {
        resp = MHD_create_response_from_buffer(r.len, (void *)r.body,
                                               r.owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
        if (resp)
            r.owned = NULL; /* the daemon frees it */
    }
    srv_response_release(&r);
    if (!resp)
        return MHD_NO;
    srv_http_common_headers(resp, &r, cors);
    if (r.etag[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, r.etag);
    if (r.encoding)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, r.encoding);
    if (r.vary)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
    if (r.retry_after > 0) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", r.retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
    }
    if (r.allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r.allow == 3   ? "POST"
                                                         : r.allow == 2 ? "GET, POST, OPTIONS"
                                                                        : "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r.status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/* One X-Forwarded-For entry (spaces trimmed) as an address, or 0. */
static int forwarded_entry(const char *e, size_t n, char out[48])
{
    while (n && (*e == ' ' || *e == '\t'))
        e++, n--;
    while (n && (e[n - 1] == ' ' || e[n - 1] == '\t'))
        n--;
    unsigned char bin[16];
    if (n == 0 || n >= 48)
        return 0;
    memcpy(out, e, n);
    out[n] = '\0';
    if (inet_pton(AF_INET, out, bin) == 1)
        return 1;
    if (inet_pton(AF_INET6, out, bin) == 1) /* the canonical text, so one address is one key */
        return inet_ntop(AF_INET6, bin, out, 48) != NULL;
    return 0;
}

void srv_forwarded_client(const char *peer, const char *trusted_proxy, const char *forwarded_for, char out[48])
{
    snprintf(out, 48, "%s", peer && *peer ? peer : "?");
    if (!trusted_proxy || !*trusted_proxy || !peer || strcmp(peer, trusted_proxy) || !forwarded_for)
        return;
    /* right to left: the entries the proxy itself added name it, the
     * first other one is the client it saw; anything not an address
     * there (or nothing) leaves the peer */
    const char *end = forwarded_for + strlen(forwarded_for);
    while (end > forwarded_for) {
        const char *start = end;
        while (start > forwarded_for && start[-1] != ',')
            start--;
        char cand[48];
        if (!forwarded_entry(start, (size_t)(end - start), cand))
            return;
        if (strcmp(cand, trusted_proxy)) {
            snprintf(out, 48, "%s", cand);
            return;
        }
        end = start > forwarded_for ? start - 1 : start;
    }
}

void srv_client_addr(struct MHD_Connection *c, const char *trusted_proxy, char out[48])
{
    char peer[48] = "?";
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, peer, sizeof peer);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, peer, sizeof peer);
    }
    srv_forwarded_client(peer, trusted_proxy, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-For"),
                         out);
}

enum MHD_Result srv_http_streams_full(struct MHD_Connection *c, int all, int per_addr, int max, const char *cors)
{
    srv_response r;
    memset(&r, 0, sizeof r);
    r.fd = -1;
    srv_route_error(&r, 429, 1, "too many live streams %s (at most %d per address, %d in all)",
                    all ? "on this server" : "from this address", per_addr, max);
    r.retry_after = 10;
    return srv_http_send(c, &r, cors);
}
