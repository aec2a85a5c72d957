/* The people suites' client (people_client.h). */
#include "people_client.h"

#include "harness.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char db_url[256];
int seed_puzzles; /* 0: the people suites leave the puzzle table empty (quicker) */

srv_people *start(int secure, const char *proxy)
{
    tc_error e;
    th_test_db("people", db_url, sizeof db_url);
    srv_people_options o = {db_url, secure, proxy, 0, NULL, !seed_puzzles};
    srv_people *P = srv_people_start(&o, &e);
    CHECK(P != NULL, "start: %s", e.msg);
    return P;
}

const srv_site *the_site;

answer ask(srv_people *P, call c)
{
    srv_people_request rq = {c.method,
                             c.target,
                             c.cookie,
                             c.origin,
                             "hub.test",
                             c.site,
                             c.proto,
                             NULL,
                             c.body ? "application/x-www-form-urlencoded" : NULL,
                             c.addr ? c.addr : "192.0.2.1",
                             c.body,
                             c.body ? strlen(c.body) : 0,
                             NULL,
                             0};
    srv_people_response out;
    srv_people_handle(P, the_site, &rq, &out);
    answer a;
    memset(&a, 0, sizeof a);
    a.status = out.r.status;
    snprintf(a.set, sizeof a.set, "%s", out.set_cookie);
    snprintf(a.location, sizeof a.location, "%s", out.location);
    const char *v = strstr(out.set_cookie, SRV_SESSION_COOKIE "=");
    if (v)
        snprintf(a.cookie, sizeof a.cookie, "%.*s", (int)strcspn(v, ";"), v);
    if (!strcmp(a.cookie, SRV_SESSION_COOKIE "="))
        a.cookie[0] = '\0';
    a.body = malloc(out.r.len + 1);
    if (a.body) {
        memcpy(a.body, out.r.body, out.r.len);
        a.body[out.r.len] = '\0';
    }
    srv_response_release(&out.r);
    return a;
}

int has(const answer *a, const char *text) { return a->body && strstr(a->body, text) != NULL; }

/* GET /account with a cookie: 200 when it opens a session. */
int account_status(srv_people *P, const char *cookie)
{
    answer a = ask(P, (call){"GET", "/account", cookie, NULL, NULL, NULL, NULL, NULL});
    free(a.body);
    return a.status;
}

/* The CSRF token on the account page of a cookie ("" if none). */
void csrf_of(srv_people *P, const char *cookie, char *out, size_t n)
{
    answer a = ask(P, (call){"GET", "/account", cookie, NULL, NULL, NULL, NULL, NULL});
    const char *v = a.body ? strstr(a.body, "name=\"csrf\" value=\"") : NULL;
    snprintf(out, n, "%.*s", v ? (int)strcspn(v + 19, "\"") : 0, v ? v + 19 : "");
    free(a.body);
}

