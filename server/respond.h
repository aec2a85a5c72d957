/* Sending a response through libmicrohttpd with the headers every answer
 * of the hub carries. The bottom of the server's HTTP side: http.c and the
 * games modules call it; it calls neither. */
#ifndef SRV_RESPOND_H
#define SRV_RESPOND_H

#include "route.h"

#include <microhttpd.h>

/* Sends r on c (taking over its body or file). */
enum MHD_Result srv_http_send(struct MHD_Connection *c, srv_response *r, const char *cors);
/* The 429 (Retry-After 10) of a live stream refused past its limits:
 * SRV_STREAMS_PER_ADDR from one address (all 0) or SRV_MAX_STREAMS on the
 * server (all 1), as every stream module counts its own (streams.h). */
enum MHD_Result srv_http_streams_full(struct MHD_Connection *c, int all, int per_addr, int max,
                                      const char *cors);
/* The headers every response carries (type, caching, isolation, CORS when
 * configured, the page policy for HTML documents). */
void srv_http_common_headers(struct MHD_Response *resp, const srv_response *r, const char *cors);

/* The client's address as text ("127.0.0.1", "::1"), the whole of it:
 * limits per client are keyed by it. "?" when unknown. When the peer is
 * trusted_proxy (not NULL or empty): the right-most entry of its
 * X-Forwarded-For that is not trusted_proxy itself (the client that proxy
 * saw), if that entry parses as an IPv4 or IPv6 address (inet_pton),
 * otherwise the peer; from any other peer that header is ignored. */
void srv_client_addr(struct MHD_Connection *c, const char *trusted_proxy, char out[48]);
/* The same from the texts: the peer's address, the proxy's and the
 * X-Forwarded-For header (NULL: none). */
void srv_forwarded_client(const char *peer, const char *trusted_proxy, const char *forwarded_for, char out[48]);

#endif
