/* The people pages on a libmicrohttpd connection (people.h): the headers
 * and the peer's address read, the answer sent with the hub's common
 * headers plus Set-Cookie and Location. */
#include "people.h"

#include "games_api.h"
#include "lobby.h"
#include "respond.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

enum MHD_Result srv_people_answer(srv_people *P, const srv_site *site, struct MHD_Connection *c,
                                  const char *method, const char *target, const char *body, size_t len)
{
    char ip[48] = "?";
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, ip, sizeof ip);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, ip, sizeof ip);
    }
    srv_people_request rq = {method,
                             target,
                             header(c, MHD_HTTP_HEADER_COOKIE),
                             header(c, "Origin"),
                             header(c, MHD_HTTP_HEADER_HOST),
                             header(c, "Sec-Fetch-Site"),
                             header(c, "X-Forwarded-Proto"),
                             header(c, "X-Forwarded-For"),
                             header(c, MHD_HTTP_HEADER_CONTENT_TYPE),
                             ip,
                             body,
                             len,
                             header(c, "X-CSRF-Token")};
    if (!strcmp(method, "GET") && (!strcmp(target, "/api/lobby/events") || !strncmp(target, "/api/lobby/events?", 18))) {
        char user_id[TP_ID_LEN + 1];
        srv_people_user_of(P, rq.cookie, user_id);
        char client[48];
        srv_forwarded_client(ip, srv_people_proxy(P), rq.forwarded_for, client);
        return srv_lobby_stream(srv_people_lobby(P), c, user_id, client);
    }
    srv_people_response out;
    srv_people_handle(P, site, &rq, &out);
    srv_response *r = &out.r;
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        r->len, (void *)r->body, r->owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        srv_response_release(r);
        return MHD_NO;
    }
    r->owned = NULL; /* the daemon frees it */
    srv_http_common_headers(resp, r, NULL);
    if (out.set_cookie[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, out.set_cookie);
    if (out.location[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, out.location);
    if (r->allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow == 2 ? "GET, POST" : "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}
