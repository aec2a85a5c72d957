/* The people pages on a libmicrohttpd connection (people.h): the headers
 * and the peer's address read, the answer sent with the hub's common
 * headers plus Set-Cookie and Location. */
#include "people.h"
#include "tourney_live.h"

#include "games_api.h"
#include "lobby.h"
#include "respond.h"
#include "session.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* Sends a handled answer (its body taken over). */
static enum MHD_Result send_out(struct MHD_Connection *c, srv_people_response *out)
{
    srv_response *r = &out->r;
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        r->len, (void *)r->body, r->owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        srv_response_release(r);
        return MHD_NO;
    }
    r->owned = NULL; /* the daemon frees it */
    srv_http_common_headers(resp, r, NULL);
    if (out->set_cookie[0]) {
        char hint[128];
        srv_session_hint(hint, sizeof hint, out->set_cookie);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, out->set_cookie);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_SET_COOKIE, hint);
    }
    if (out->location[0])
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, out->location);
    if (r->allow)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow == 2 ? "GET, POST" : "GET, HEAD");
    if (r->retry_after > 0) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", r->retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
    }
    enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

/// A login or sign-up run on a worker (jobs.h): the request's texts
/// copied, the answer kept until the daemon asks again.
typedef struct {
    srv_job j;
    srv_people *P;
    const srv_site *site;
    struct MHD_Connection *c;
    srv_people_request rq;
    srv_people_response out;
    char *texts;
} people_job;

static void job_run(srv_job *j)
{
    people_job *pj = (people_job *)j;
    srv_people_handle(pj->P, pj->site, &pj->rq, &pj->out);
}

static void job_resume(srv_job *j) { MHD_resume_connection(((people_job *)j)->c); }

static void job_free(srv_job *j)
{
    people_job *pj = (people_job *)j;
    srv_response_release(&pj->out.r);
    free(pj->texts);
    free(pj);
}

/* Copies the request's texts into one block (NULL stays NULL). */
static people_job *job_new(srv_people *P, const srv_site *site, struct MHD_Connection *c, const srv_people_request *rq)
{
    const char *const *f[] = {&rq->method, &rq->target, &rq->cookie, &rq->origin, &rq->host, &rq->fetch_site,
                              &rq->forwarded_proto, &rq->forwarded_for, &rq->content_type, &rq->addr,
                              &rq->csrf_header};
    size_t n = rq->len + 1;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        n += *f[i] ? strlen(*f[i]) + 1 : 0;
    people_job *pj = calloc(1, sizeof *pj);
    char *t = pj ? malloc(n) : NULL;
    if (!t) {
        free(pj);
        return NULL;
    }
    pj->texts = t;
    pj->P = P;
    pj->site = site;
    pj->c = c;
    pj->rq = *rq;
    const char **g[] = {&pj->rq.method, &pj->rq.target, &pj->rq.cookie, &pj->rq.origin, &pj->rq.host,
                        &pj->rq.fetch_site, &pj->rq.forwarded_proto, &pj->rq.forwarded_for,
                        &pj->rq.content_type, &pj->rq.addr, &pj->rq.csrf_header};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (*f[i]) {
            size_t l = strlen(*f[i]) + 1;
            memcpy(t, *f[i], l);
            *g[i] = t;
            t += l;
        }
    if (rq->body)
        memcpy(t, rq->body, rq->len);
    t[rq->len] = '\0';
    pj->rq.body = rq->body ? t : NULL;
    pj->j.key = c;
    pj->j.run = job_run;
    pj->j.resume = job_resume;
    pj->j.drop = job_free;
    return pj;
}

void srv_people_request_done(srv_people *P, struct MHD_Connection *c)
{
    srv_job *left = srv_jobs_claim(srv_people_jobs(P), c);
    if (left)
        job_free(left);
}

static int hashing_route(const char *method, const char *target)
{
    size_t n = strcspn(target, "?");
    return !strcmp(method, "POST") &&
           ((n == 6 && !strncmp(target, "/login", 6)) || (n == 7 && !strncmp(target, "/signup", 7)));
}

enum MHD_Result srv_people_answer(srv_people *P, const srv_site *site, struct MHD_Connection *c,
                                  const char *method, const char *target, const char *body, size_t len)
{
    srv_jobs *J = srv_people_jobs(P);
    srv_job *done = srv_jobs_claim(J, c);
    if (done) { /* a login or sign-up run on a worker: its answer */
        people_job *pj = (people_job *)done;
        enum MHD_Result ok = send_out(c, &pj->out);
        job_free(done);
        return ok;
    }
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
                             header(c, "X-CSRF-Token"),
                             0};
    if (!strcmp(method, "GET") && (!strcmp(target, "/api/lobby/events") || !strncmp(target, "/api/lobby/events?", 18))) {
        char user_id[TP_ID_LEN + 1];
        srv_people_user_of(P, rq.cookie, user_id);
        char client[48];
        srv_forwarded_client(ip, srv_people_proxy(P), rq.forwarded_for, client);
        return srv_lobby_stream(srv_people_lobby(P), c, user_id, client, 0);
    }
    if (!strcmp(method, "GET") && !strncmp(target, "/api/tournament/", 16) && strlen(target) == 16 + 12 + 7 &&
        !strcmp(target + 28, "/events") && strspn(target + 16, "0123456789abcdef") == 12) {
        char tid[13], client[48];
        memcpy(tid, target + 16, 12);
        tid[12] = '\0';
        srv_forwarded_client(ip, srv_people_proxy(P), rq.forwarded_for, client);
        return srv_tlive_stream(srv_people_tlive(P), c, tid, client);
    }
    if (!strcmp(method, "GET") && !strcmp(target, "/api/inbox/events")) {
        char user_id[TP_ID_LEN + 1];
        if (srv_people_user_of(P, rq.cookie, user_id) > 0 && user_id[0]) {
            char client[48];
            srv_forwarded_client(ip, srv_people_proxy(P), rq.forwarded_for, client);
            return srv_lobby_stream(srv_people_lobby(P), c, user_id, client, 1);
        }
    }
    srv_people_response out;
    if (hashing_route(method, target)) {
        /* a login's rate is checked at once, not after the wait */
        if (target[1] == 'l') {
            if (!srv_people_login_take(P, &rq, &out))
                return send_out(c, &out);
            rq.login_taken = 1;
        }
        /* a password hash: on a worker, while this connection waits */
        people_job *pj = job_new(P, site, c, &rq);
        if (!pj)
            return MHD_NO;
        if (!srv_jobs_reserve(J)) {
            MHD_suspend_connection(c);
            srv_jobs_submit(J, &pj->j);
            return MHD_YES;
        }
        job_free(&pj->j);
        memset(&out, 0, sizeof out);
        out.r.fd = -1;
        srv_route_error(&out.r, 503, 0, "too many logins are waiting: try again in a few seconds");
        out.r.retry_after = 5;
        return send_out(c, &out);
    }
    srv_people_handle(P, site, &rq, &out);
    return send_out(c, &out);
}
