/* Requests to responses, with no sockets: the HTTP layer (http.c) hands
 * over the method and the request target exactly as received, and sends
 * what comes back. Tests call srv_route directly. */
#ifndef SRV_ROUTE_H
#define SRV_ROUTE_H

#include "site.h"

#include <stddef.h>

#define SRV_MAX_TARGET 4096   /* longer request targets get 414 */
#define SRV_MAX_PARAMS 16     /* query parameters */
#define SRV_MAX_VALUE 1024    /* bytes of one decoded query value */

typedef struct srv_request {
    const char *method;        /* "GET" */
    const char *target;        /* "/v/klein-bottle?x=1", still percent-encoded */
    const char *if_none_match; /* header value, or NULL */
    const char *accept_encoding; /* header value, or NULL */
} srv_request;

typedef struct srv_response {
    int status;
    const char *type;  /* Content-Type */
    const char *cache; /* Cache-Control */
    int page;          /* an HTML document: send the Content-Security-Policy */
    int allow;         /* 405: send Allow: GET, HEAD (1), GET, POST, OPTIONS (2), POST (3) */
    const char *body;  /* body bytes (unless fd >= 0) */
    size_t len;
    char *owned;       /* heap body to free, or NULL when the site owns it */
    int fd;            /* a static file to send, or -1 */
    long long size;    /* its size */
    char etag[64];     /* "" or a strong ETag */
    const char *encoding; /* Content-Encoding ("gzip"), or NULL */
    int vary;          /* send Vary: Accept-Encoding */
    int retry_after;   /* seconds: send Retry-After (with 503 and 429), or 0 */
} srv_response;

/* The Content-Security-Policy of every page. */
extern const char *const srv_csp;

void srv_route(const srv_site *s, const srv_request *rq, srv_response *out);
/* Makes r (a response from srv_route, or zeroed with fd = -1) the 4xx
 * answer with the message: an HTML page, or JSON when api. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void srv_route_error(srv_response *r, int status, int api, const char *fmt, ...);
/* Makes r a 200 HTML page from a server-made document (heap, taken over),
 * or a 500 when doc is NULL (out of memory). */
void srv_route_page(srv_response *r, char *doc, size_t len);
/* Frees an owned body and closes an unsent file. */
void srv_response_release(srv_response *r);

/* The Content-Type for a file name, by its extension. */
const char *srv_content_type(const char *name);

#endif
