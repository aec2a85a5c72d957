/* People on the hub (server/people.h): user-name and password rules,
 * sign-up and login through the pages' handler, sessions (cookie flags, a
 * new id at every login, logout, log out everywhere, expiry), CSRF and
 * origin checks, login throttles, and the player page. Runs on a fresh
 * SQLite file, or on the PostgreSQL database named by TG_TEST_DB (make
 * people-pg-test). Every refused request is checked to change nothing. */
#define _DEFAULT_SOURCE
#include "accounts.h"
#include "harness.h"
#include "lobby.h"
#include "store.h"
#include "people.h"
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char db_url[256];

static srv_people *start(int secure, const char *proxy)
{
    tc_error e;
    th_test_db("people", db_url, sizeof db_url);
    srv_people_options o = {db_url, secure, proxy};
    srv_people *P = srv_people_start(&o, &e);
    CHECK(P != NULL, "start: %s", e.msg);
    return P;
}

/// One request's parts (NULL: header absent).
typedef struct {
    const char *method, *target, *cookie, *body, *origin, *addr, *proto, *site;
} call;

typedef struct {
    int status;
    char cookie[64];   /* the session id a Set-Cookie set, "" when cleared or none */
    char set[160];     /* the whole Set-Cookie */
    char location[200];
    char *body;
} answer;

static const srv_site *the_site;

static answer ask(srv_people *P, call c)
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
                             NULL};
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

static int has(const answer *a, const char *text) { return a->body && strstr(a->body, text) != NULL; }

/* GET /account with a cookie: 200 when it opens a session. */
static int account_status(srv_people *P, const char *cookie)
{
    answer a = ask(P, (call){"GET", "/account", cookie, NULL, NULL, NULL, NULL, NULL});
    free(a.body);
    return a.status;
}

/* The CSRF token on the account page of a cookie ("" if none). */
static void csrf_of(srv_people *P, const char *cookie, char *out, size_t n)
{
    answer a = ask(P, (call){"GET", "/account", cookie, NULL, NULL, NULL, NULL, NULL});
    const char *v = a.body ? strstr(a.body, "name=\"csrf\" value=\"") : NULL;
    snprintf(out, n, "%.*s", v ? (int)strcspn(v + 19, "\"") : 0, v ? v + 19 : "");
    free(a.body);
}

static void test_rules(void)
{
    char key[TP_NAME_MAX + 1], msg[200];
    th_case("user names: length, characters, first letter, separators, reserved names; each with its message");
    struct {
        const char *name, *needle;
    } bad[] = {{"a", "2 to 20"},          {"abcdefghijklmnopqrstu", "2 to 20"}, {"1abc", "starts with a letter"},
               {"_abc", "starts with a letter"}, {"ab c", "not ' '"},       {"ab\xc3\xa9", "non-ASCII"},
               {"ab--c", "two in a row"}, {"abc_", "not at the end"},      {"Admin", "reserved"},
               {"API", "reserved"},       {"lobby", "reserved"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        CHECK(srv_name_check(bad[i].name, key, msg, sizeof msg) == -1 && strstr(msg, bad[i].needle),
              "'%s': %s", bad[i].name, msg);
    }
    CHECK(srv_name_check("Kb-Walker_2", key, msg, sizeof msg) == 0 && !strcmp(key, "kb-walker_2"), "%s %s", msg,
          key);
    CHECK(srv_name_check("ab", key, msg, sizeof msg) == 0, "two letters: %s", msg);
    th_case("passwords: 8 to 128 bytes, not the user name");
    CHECK(srv_password_check("short", "bob", msg, sizeof msg) == -1 && strstr(msg, "at least 8"), "%s", msg);
    char longpw[200];
    memset(longpw, 'x', 129);
    longpw[129] = '\0';
    CHECK(srv_password_check(longpw, "bob", msg, sizeof msg) == -1 && strstr(msg, "at most 128"), "%s", msg);
    CHECK(srv_password_check("MoebiusKing", "moebiusking", msg, sizeof msg) == -1 && strstr(msg, "user name"),
          "%s", msg);
    CHECK(srv_password_check("correct horse", "bob", msg, sizeof msg) == 0, "%s", msg);
}

static void test_signup_login(void)
{
    srv_people *P = start(0, NULL);
    if (!P)
        return;
    th_case("sign-up: a session cookie (HttpOnly, SameSite=Lax, not Secure on plain HTTP) and the player page");
    answer a = ask(P, (call){"POST", "/signup", NULL, "name=Alice&password=klein+bottle&password2=klein+bottle",
                             NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strcmp(a.location, "/@/Alice"), "status %d location %s", a.status, a.location);
    CHECK(strstr(a.set, "HttpOnly") && strstr(a.set, "SameSite=Lax") && strstr(a.set, "Path=/") &&
              !strstr(a.set, "Secure") && strlen(a.cookie) == strlen(SRV_SESSION_COOKIE) + 1 + TP_TOKEN_LEN,
          "Set-Cookie %s", a.set);
    char alice[64];
    snprintf(alice, sizeof alice, "%s", a.cookie);
    free(a.body);
    CHECK(account_status(P, alice) == 200, "the new session opens /account");
    a = ask(P, (call){"GET", "/@/alice", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "<h1>Alice</h1>") && has(&a, "No rated games yet"), "player page %d",
          a.status);
    free(a.body);

    th_case("sign-up refusals: a taken name in another case (409), a bad name, differing passwords (400)");
    struct {
        const char *body;
        int status;
        const char *needle;
    } refusals[] = {
        {"name=ALICE&password=another+pass&password2=another+pass", 409, "is taken"},
        {"name=admin&password=another+pass&password2=another+pass", 400, "reserved"},
        {"name=B%C3%B6b&password=another+pass&password2=another+pass", 400, "non-ASCII"},
        {"name=Bob&password=another+pass&password2=another+pas", 400, "two passwords differ"},
        {"name=Bob&password=bob", 400, "two passwords differ"},
        {"name=Bob&password=Bob&password2=Bob", 400, "at least 8"},
        {"name=Bob&name=Eve&password=x", 400, "given twice"},
        {"name=Bob&password=%zz", 400, "malformed"},
    };
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        a = ask(P, (call){"POST", "/signup", NULL, refusals[i].body, NULL, NULL, NULL, NULL});
        CHECK(a.status == refusals[i].status && has(&a, refusals[i].needle) && !a.set[0], "%s: %d",
              refusals[i].body, a.status);
        free(a.body);
    }
    a = ask(P, (call){"GET", "/@/bob", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "no account Bob was made: %d", a.status);
    free(a.body);

    th_case("login: wrong password and unknown user are one 401 with no cookie; the right one a new session");
    a = ask(P, (call){"POST", "/login", NULL, "name=alice&password=klein+bottlE", NULL, "192.0.2.7", NULL, NULL});
    CHECK(a.status == 401 && has(&a, "wrong user name or password") && !a.set[0], "wrong password: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/login", NULL, "name=nobody&password=klein+bottle", NULL, "192.0.2.7", NULL, NULL});
    CHECK(a.status == 401 && has(&a, "wrong user name or password") && !a.set[0], "unknown user: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/login", alice, "name=ALICE&password=klein+bottle", NULL, "192.0.2.7", NULL, NULL});
    CHECK(a.status == 303 && a.cookie[0] && strcmp(a.cookie, alice), "login: %d, cookie %s", a.status, a.cookie);
    char alice2[64];
    snprintf(alice2, sizeof alice2, "%s", a.cookie);
    free(a.body);
    CHECK(account_status(P, alice2) == 200, "the new session works");
    CHECK(account_status(P, alice) == 401, "the browser's old session id ended at the login");

    th_case("CSRF: logout without the token, with a wrong one, from another origin: 403, session kept");
    char token[64], form[160];
    csrf_of(P, alice2, token, sizeof token);
    CHECK(strlen(token) == TP_TOKEN_LEN, "token '%s'", token);
    a = ask(P, (call){"POST", "/logout", alice2, "x=1", NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "no CSRF token") && !a.set[0], "no token: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/account/logout-all", alice2, "csrf=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                      NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "does not match"), "wrong token: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", token);
    a = ask(P, (call){"POST", "/logout", alice2, form, "https://evil.test", NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "another site"), "cross-origin: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/signup", NULL, "name=Mallory&password=evil+password&password2=evil+password",
                      "http://evil.test", NULL, NULL, NULL});
    CHECK(a.status == 403 && !a.set[0], "cross-origin sign-up: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/@/mallory", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "no account Mallory: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/signup", NULL, "name=Mallory&password=evil+password&password2=evil+password",
                      "null", NULL, NULL, "cross-site"});
    CHECK(a.status == 403 && !a.set[0], "Origin null from a cross-site frame: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/@/mallory", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "still no account Mallory: %d", a.status);
    free(a.body);
    /* the hub's own form under Referrer-Policy: no-referrer */
    a = ask(P, (call){"POST", "/signup", NULL, "name=Nora&password=fold+queen&password2=fold+queen", "null", NULL,
                      NULL, "same-origin"});
    CHECK(a.status == 303, "Origin null, Sec-Fetch-Site same-origin: %d", a.status);
    free(a.body);
    CHECK(account_status(P, alice2) == 200, "the session survived every refused logout");

    th_case("log out everywhere ends every session; a stolen copy of a cookie then opens nothing (401)");
    a = ask(P, (call){"POST", "/login", NULL, "name=alice&password=klein+bottle", NULL, "198.51.100.3", NULL, NULL});
    char other[64];
    snprintf(other, sizeof other, "%s", a.cookie);
    free(a.body);
    CHECK(account_status(P, other) == 200 && account_status(P, alice2) == 200, "two sessions");
    a = ask(P, (call){"POST", "/account/logout-all", alice2, form, "http://hub.test", NULL, NULL, NULL});
    CHECK(a.status == 303 && !a.cookie[0] && strstr(a.set, "Max-Age=0"), "logout-all: %d %s", a.status, a.set);
    free(a.body);
    CHECK(account_status(P, alice2) == 401 && account_status(P, other) == 401, "both ended");
    a = ask(P, (call){"POST", "/logout", other, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 401 && has(&a, "ended"), "a revoked cookie: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/api/account", other, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 401 && has(&a, "\"error\""), "api with a revoked cookie: %d", a.status);
    free(a.body);

    th_case("one logout ends only its session; an expired session opens nothing");
    a = ask(P, (call){"POST", "/login", NULL, "name=alice&password=klein+bottle", NULL, "198.51.100.4", NULL, NULL});
    char s1[64], s2[64], t1[64];
    snprintf(s1, sizeof s1, "%s", a.cookie);
    free(a.body);
    a = ask(P, (call){"POST", "/login", NULL, "name=alice&password=klein+bottle", NULL, "198.51.100.4", NULL, NULL});
    snprintf(s2, sizeof s2, "%s", a.cookie);
    free(a.body);
    csrf_of(P, s1, t1, sizeof t1);
    snprintf(form, sizeof form, "csrf=%s", t1);
    a = ask(P, (call){"POST", "/logout", s1, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && account_status(P, s1) == 401 && account_status(P, s2) == 200, "logout %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/api/account", s2, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"name\":\"Alice\""), "api: %d %s", a.status, a.body);
    free(a.body);
    tc_error e;
    tp_db *db = tp_db_open(db_url, &e);
    tp_user u;
    char id[TP_TOKEN_LEN + 1], cookie[64];
    CHECK(db && tp_user_by_key(db, "alice", &u, &e) == 1, "%s", e.msg);
    int64_t long_ago = (int64_t)time(NULL) * 1000 - (int64_t)(SRV_SESSION_DAYS + 1) * 86400000;
    CHECK(srv_session_open(db, u.id, long_ago, id, &e) == 0, "%s", e.msg);
    snprintf(cookie, sizeof cookie, "%s=%s", SRV_SESSION_COOKIE, id);
    CHECK(account_status(P, cookie) == 401, "a session past its %d days", SRV_SESSION_DAYS);
    CHECK(account_status(P, "tc_session=garbage") == 401 && account_status(P, NULL) == 401, "no session");

    th_case("the player page shows ratings per variant, '?' while provisional");
    tg_rating r = tg_rating_new();
    CHECK(tp_rating_record(db, u.id, "klein-bottle", tg_rating_after_game(r, r, 1), 1000, "g1", &e) == 0, "%s",
          e.msg);
    a = ask(P, (call){"GET", "/@/Alice", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "klein-bottle") && has(&a, ">provisional") == 0 && has(&a, "?</abbr>") &&
              has(&a, "<td>1</td>"),
          "one game: %s", a.body);
    free(a.body);
    tg_rating sure = {1712.4, 60, 0.06};
    CHECK(tp_rating_record(db, u.id, "torus", sure, 2000, "g2", &e) == 0, "%s", e.msg);
    a = ask(P, (call){"GET", "/@/Alice", NULL, NULL, NULL, NULL, NULL, NULL});
    const char *torus = a.body ? strstr(a.body, "torus") : NULL;
    CHECK(torus && strstr(torus, "1712</td>"), "an established rating has no mark: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/@/admin", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "a reserved name has no page: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/@/Alice", NULL, "x=1", NULL, NULL, NULL, NULL});
    CHECK(a.status == 405, "the player page only reads: %d", a.status);
    free(a.body);
    tp_db_close(db);
    srv_people_stop(P);
}

static void test_throttle(void)
{
    srv_people *P = start(0, NULL);
    if (!P)
        return;
    th_case("5 failed logins lock the account for 15 minutes (429), even with the right password");
    answer a = ask(P, (call){"POST", "/signup", NULL, "name=Carol&password=torus+knight&password2=torus+knight",
                             NULL, "203.0.113.9", NULL, NULL});
    CHECK(a.status == 303, "signup %d", a.status);
    free(a.body);
    for (int i = 0; i < SRV_FAILS_PER_ACCOUNT; i++) {
        char addr[32];
        snprintf(addr, sizeof addr, "203.0.113.%d", 20 + i); /* from several addresses */
        a = ask(P, (call){"POST", "/login", NULL, "name=carol&password=wrong+guess", NULL, addr, NULL, NULL});
        CHECK(a.status == 401, "failure %d: %d", i, a.status);
        free(a.body);
    }
    a = ask(P, (call){"POST", "/login", NULL, "name=Carol&password=torus+knight", NULL, "203.0.113.99", NULL, NULL});
    CHECK(a.status == 429 && has(&a, "for this account") && !a.set[0], "locked: %d", a.status);
    free(a.body);

    th_case("20 failed logins from one address lock that address for every account");
    a = ask(P, (call){"POST", "/signup", NULL, "name=Dave&password=fold+bishop&password2=fold+bishop", NULL,
                      "203.0.113.10", NULL, NULL});
    free(a.body);
    for (int i = 0; i < SRV_FAILS_PER_ADDRESS; i++) {
        char body[64];
        snprintf(body, sizeof body, "name=ghost%d&password=whatever1", i);
        a = ask(P, (call){"POST", "/login", NULL, body, NULL, "198.51.100.66", NULL, NULL});
        free(a.body);
    }
    a = ask(P, (call){"POST", "/login", NULL, "name=Dave&password=fold+bishop", NULL, "198.51.100.66", NULL, NULL});
    CHECK(a.status == 429 && has(&a, "from your address"), "address locked: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/login", NULL, "name=Dave&password=fold+bishop", NULL, "198.51.100.67", NULL, NULL});
    CHECK(a.status == 303, "another address still logs in: %d", a.status);
    free(a.body);

    th_case("sign-ups: at most 5 an hour from one address");
    int last = 0;
    for (int i = 0; i < SRV_SIGNUPS_PER_ADDRESS + 1; i++) {
        char body[96];
        snprintf(body, sizeof body, "name=spam%d&password=spam+spam+spam&password2=spam+spam+spam", i);
        a = ask(P, (call){"POST", "/signup", NULL, body, NULL, "192.0.2.200", NULL, NULL});
        last = a.status;
        if (i < SRV_SIGNUPS_PER_ADDRESS)
            CHECK(a.status == 303, "sign-up %d: %d", i, a.status);
        free(a.body);
    }
    CHECK(last == 429, "the 6th: %d", last);
    a = ask(P, (call){"GET", "/@/spam5", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "spam5 was not made: %d", a.status);
    free(a.body);

    /* issue 30.6: refused sign-ups do not use up the five accounts an hour,
     * but have a bound of their own */
    th_case("sign-ups: refusals do not count toward the 5 an hour; taken names have their own bound");
    for (int i = 0; i < SRV_SIGNUPS_PER_ADDRESS + 2; i++) {
        a = ask(P, (call){"POST", "/signup", NULL, "name=spam0&password=spam+spam+spam&password2=spam+spam+spam", NULL,
                          "192.0.2.201", NULL, NULL});
        CHECK(a.status == 409 && has(&a, "is taken"), "taken name %d: %d", i, a.status);
        free(a.body);
        a = ask(P, (call){"POST", "/signup", NULL, "name=x&password=short&password2=short", NULL, "192.0.2.201",
                          NULL, NULL});
        CHECK(a.status == 400, "bad name %d: %d", i, a.status);
        free(a.body);
    }
    a = ask(P, (call){"POST", "/signup", NULL, "name=Grace&password=torus+queen&password2=torus+queen", NULL,
                      "192.0.2.201", NULL, NULL});
    CHECK(a.status == 303, "a sign-up after refusals is taken: %d", a.status);
    free(a.body);
    for (int i = SRV_SIGNUPS_PER_ADDRESS + 2; i < SRV_SIGNUP_FAILS_PER_ADDRESS; i++) {
        a = ask(P, (call){"POST", "/signup", NULL, "name=Spam1&password=spam+spam+spam&password2=spam+spam+spam", NULL,
                          "192.0.2.201", NULL, NULL});
        CHECK(a.status == 409, "taken name %d: %d", i, a.status);
        free(a.body);
    }
    a = ask(P, (call){"POST", "/signup", NULL, "name=Heidi&password=torus+queen&password2=torus+queen", NULL,
                      "192.0.2.201", NULL, NULL});
    CHECK(a.status == 429 && has(&a, "too many refused sign-ups from your address"), "after %d refusals: %d",
          SRV_SIGNUP_FAILS_PER_ADDRESS, a.status);
    free(a.body);
    srv_people_stop(P);
}

static void test_secure_and_input(void)
{
    th_case("Secure cookies: with --secure-cookies, or X-Forwarded-Proto https from the trusted proxy only");
    srv_people *P = start(1, NULL);
    if (!P)
        return;
    answer a = ask(P, (call){"POST", "/signup", NULL, "name=Erin&password=mobius+rook&password2=mobius+rook", NULL,
                             "192.0.2.50", NULL, NULL});
    CHECK(a.status == 303 && strstr(a.set, "; Secure"), "secure option: %s", a.set);
    free(a.body);
    srv_people_stop(P);
    P = start(0, "10.0.0.1");
    if (!P)
        return;
    a = ask(P, (call){"POST", "/login", NULL, "name=erin&password=mobius+rook", NULL, "10.0.0.1", "https", NULL});
    CHECK(a.status == 303 && strstr(a.set, "; Secure"), "through the proxy: %s", a.set);
    free(a.body);
    a = ask(P, (call){"POST", "/login", NULL, "name=erin&password=mobius+rook", NULL, "10.0.0.2", "https", NULL});
    CHECK(a.status == 303 && !strstr(a.set, "Secure"), "a header from anyone else is ignored: %s", a.set);
    free(a.body);

    th_case("bad requests: wrong content type 415, a huge form 413, an unknown route 404, GET /logout 405");
    srv_people_request rq = {"POST", "/login", NULL, NULL, "hub.test", NULL, NULL, NULL, "application/json", "192.0.2.1",
                             "{}", 2, NULL};
    srv_people_response out;
    srv_people_handle(P, NULL, &rq, &out);
    CHECK(out.r.status == 415, "json body: %d", out.r.status);
    srv_response_release(&out.r);
    char *big = malloc(SRV_PEOPLE_MAX_BODY + 100);
    if (big) {
        memset(big, 'a', SRV_PEOPLE_MAX_BODY + 99);
        big[SRV_PEOPLE_MAX_BODY + 99] = '\0';
        a = ask(P, (call){"POST", "/login", NULL, big, NULL, NULL, NULL, NULL});
        CHECK(a.status == 413, "huge: %d", a.status);
        free(a.body);
        free(big);
    }
    a = ask(P, (call){"GET", "/account/nope", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "unknown: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/logout", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 405, "GET /logout: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/signup", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "No e-mail address is asked for"), "the sign-up page says: no e-mail");
    free(a.body);
    CHECK(srv_people_owns("/@/x") && srv_people_owns("/login?next=/") && !srv_people_owns("/loginx") &&
              !srv_people_owns("/api/games"),
          "owned targets");
    srv_people_stop(P);
}


/* Signs up NAME (password "lobby password") from its own address; the
 * cookie and the CSRF token. */
static void member(srv_people *P, const char *name, char *cookie, char *token)
{
    char body[160], addr[32];
    snprintf(body, sizeof body, "name=%s&password=lobby+password&password2=lobby+password", name);
    snprintf(addr, sizeof addr, "192.0.2.%d", 100 + (int)(strlen(name) * 7 + (unsigned char)name[0]) % 100);
    answer a = ask(P, (call){"POST", "/signup", NULL, body, NULL, addr, NULL, NULL});
    CHECK(a.status == 303, "sign-up %s: %d %s", name, a.status, a.body);
    snprintf(cookie, 64, "%s", a.cookie);
    free(a.body);
    csrf_of(P, cookie, token, 64);
}

/* The id of the n-th open seek in /api/lobby ("" if none). */
static void seek_id(srv_people *P, int n, char *out)
{
    answer a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    const char *p = a.body;
    for (int i = 0; p && i <= n; i++) {
        p = strstr(p, "\"id\":\"");
        if (p)
            p += 6;
    }
    snprintf(out, TP_SEEK_ID_LEN + 1, "%.*s", p ? TP_SEEK_ID_LEN : 0, p ? p : "");
    free(a.body);
}

/* The id of the listed seek whose JSON holds `mark` (seeks made in one
 * millisecond are listed in id order, so a place in the list is no way to
 * name one); "" when none does. */
static void seek_with(srv_people *P, const char *mark, char *out)
{
    answer a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    const char *hit = a.body ? strstr(a.body, mark) : NULL, *id = NULL;
    for (const char *p = a.body; hit && (p = strstr(p, "\"id\":\"")) && p < hit; p += 6)
        id = p + 6;
    snprintf(out, TP_SEEK_ID_LEN + 1, "%.*s", id ? TP_SEEK_ID_LEN : 0, id ? id : "");
    free(a.body);
}

static void test_lobby(void)
{
    tc_error e;
    srv_site *site = srv_site_load("variants", NULL, &e);
    CHECK(site != NULL, "site: %s", e.msg);
    if (!site)
        return;
    the_site = site;
    srv_people *P = start(0, NULL);
    if (!P) {
        srv_site_free(site);
        return;
    }
    char ann[64], at[64], ben[64], bt[64], cid[64], ct[64], form[256], sid[TP_SEEK_ID_LEN + 1], url[96];
    member(P, "Ann", ann, at);
    member(P, "Ben", ben, bt);
    member(P, "Cid", cid, ct);

    th_case("seeks: anonymous 401, no CSRF token 403, bad fields 400 with the reason, none made");
    answer a = ask(P, (call){"POST", "/lobby/seek", NULL, "variant=klein-bottle&clock=5%2B3", NULL, NULL, NULL, NULL});
    CHECK(a.status == 401 && has(&a, "log in to post"), "anonymous: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/lobby/seek", ann, "variant=klein-bottle&clock=5%2B3", NULL, NULL, NULL, NULL});
    CHECK(a.status == 403, "no token: %d", a.status);
    free(a.body);
    struct {
        const char *fields, *needle;
    } bad[] = {{"variant=nope&clock=5%2B3", "no variant"},
               {"variant=torus&clock=1%2B0", "clock must be one of"},
               {"variant=torus&clock=5%2B3&color=green", "color must be"},
               {"variant=torus&clock=5%2B3&rated=yes", "rated must be"},
               {"variant=torus&clock=5%2B3&min_rating=1800&max_rating=1600", "is above the highest"},
               {"variant=torus&clock=5%2B3&min_rating=12", "400 to 3500"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(form, sizeof form, "csrf=%s&%s", at, bad[i].fields);
        a = ask(P, (call){"POST", "/lobby/seek", ann, form, NULL, NULL, NULL, NULL});
        CHECK(a.status == 400 && has(&a, bad[i].needle), "%s: %d", bad[i].fields, a.status);
        free(a.body);
    }
    seek_id(P, 0, sid);
    CHECK(!sid[0], "no seek was made: %s", sid);

    th_case("a rated Klein-bottle seek; its owner cannot take it; another player can, once; both land in the game");
    snprintf(form, sizeof form, "csrf=%s&variant=klein-bottle&clock=5%%2B3&rated=1&color=white", at);
    a = ask(P, (call){"POST", "/lobby/seek", ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strcmp(a.location, "/lobby"), "seek: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"name\":\"Ann\"") && has(&a, "\"variant\":\"klein-bottle\"") &&
              has(&a, "\"rated\":true") && has(&a, "\"clock\":\"5+3\"") && has(&a, "\"rating\":1500") &&
              has(&a, "\"provisional\":true"),
          "list: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "Klein Bottle") && has(&a, "/accept\"") && has(&a, "Post a seek"),
          "lobby page for Ben");
    free(a.body);
    seek_id(P, 0, sid);
    CHECK(strlen(sid) == TP_SEEK_ID_LEN, "seek id '%s'", sid);
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", sid);
    snprintf(form, sizeof form, "csrf=%s", at);
    a = ask(P, (call){"POST", url, ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 409 && has(&a, "your own seek"), "own seek: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, "https://evil.test", NULL, NULL, NULL});
    CHECK(a.status == 403, "cross-origin accept: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strncmp(a.location, "/game/", 6) && strstr(a.location, "#token="), "accept: %d %s",
          a.status, a.location);
    char game[TG_ID_LEN + 1], ben_token[TG_TOKEN_LEN + 1];
    snprintf(game, sizeof game, "%.16s", a.location + 6);
    snprintf(ben_token, sizeof ben_token, "%s", strstr(a.location, "#token=") ? strstr(a.location, "#token=") + 7 : "");
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", ct);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 409 && has(&a, "taken"), "a taken seek: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ann, NULL, NULL, NULL, NULL, NULL});
    char mylink[96];
    snprintf(mylink, sizeof mylink, "/game/%s#token=", game);
    const char *mine = a.body ? strstr(a.body, mylink) : NULL;
    CHECK(has(&a, "Your games") && mine && strlen(mine) > 23 + TG_TOKEN_LEN &&
              strncmp(mine + strlen(mylink), ben_token, TG_TOKEN_LEN) && has(&a, "against Ben") &&
              has(&a, "you play White, your turn"),
          "Ann's lobby lists the game with her own token: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    char benlink[96];
    snprintf(benlink, sizeof benlink, "/game/%s#token=%s", game, ben_token);
    CHECK(has(&a, benlink) && has(&a, "you play Black, their turn"), "Ben's lobby: his token, their turn");
    free(a.body);
    tg_store *st = tg_store_open(db_url, &e);
    tg_game g;
    CHECK(st && tg_store_load(st, game, &g, &e) == TG_OK, "the game is stored: %s", e.msg);
    if (st && !strcmp(g.id, game)) {
        CHECK(tg_game_side_of(&g, ben_token) == TC_BLACK, "Ann asked for White: Ben's token is Black's");
        CHECK(g.clock.kind == TG_CLOCK_FISCHER && g.clock.initial_ms == 300000 && g.clock.increment_ms == 3000,
              "the seek's clock");
        CHECK(!strcmp(g.def.name, "klein-bottle"), "variant %s", g.def.name);

        th_case("the result of a rated game moves both ratings as Glicko-2 says, once");
        srv_lobby *L = srv_people_lobby(P);
        CHECK(srv_lobby_count_results(L) == 0, "nothing to count while the game goes on");
        int64_t v = g.version;
        CHECK(tg_game_rebuild(&g, &e) == TG_OK && tg_game_resign(&g, TC_WHITE, (int64_t)time(NULL) * 1000, &e) == TG_OK,
              "resign: %s", e.msg);
        CHECK(tg_store_save(st, &g, v, 0, &e) == TG_OK, "save: %s", e.msg);
        /* the lobby's thread may count it first: either way, once */
        srv_lobby_count_results(L);
        CHECK(srv_lobby_count_results(L) == 0, "nothing left to count");
        tg_rating n0 = tg_rating_new();
        tg_rating won = tg_rating_after_game(n0, n0, 1), lost = tg_rating_after_game(n0, n0, 0);
        char want[64];
        a = ask(P, (call){"GET", "/@/Ben", NULL, NULL, NULL, NULL, NULL, NULL});
        snprintf(want, sizeof want, ">%.0f<abbr", won.r);
        CHECK(won.r > 1600 && has(&a, want) && has(&a, "<td>1</td>"), "Ben won: %s not in %s", want, a.body);
        free(a.body);
        a = ask(P, (call){"GET", "/@/Ann", NULL, NULL, NULL, NULL, NULL, NULL});
        snprintf(want, sizeof want, ">%.0f<abbr", lost.r);
        CHECK(lost.r < 1400 && has(&a, want) && has(&a, "<td>1</td>"), "Ann lost: %s", want);
        char link[64];
        snprintf(link, sizeof link, "<td>0-1</td><td><a href=\"/game/%s\">", game);
        CHECK(has(&a, "Rating history") && has(&a, "<h2>Games</h2>") && has(&a, link) &&
                  has(&a, "<a href=\"/@/Ann\">Ann</a> <span class=\"tc-rating\">(1500?)</span></td><td><a "
                          "href=\"/@/Ben\">Ben</a> <span class=\"tc-rating\">(1500?)</span>"),
              "Ann's page lists the game (White Ann, Black Ben, 0-1, the ratings they began with) and her "
              "history: %s", a.body);
        free(a.body);
        tg_game_free(&g);
    }
    tg_store_close(st);

    th_case("limits: 3 open seeks an account (429); withdrawing one; rating ranges keep others out (403)");
    int last = 0;
    for (int i = 0; i < SRV_SEEKS_PER_USER + 1; i++) {
        snprintf(form, sizeof form, "csrf=%s&variant=torus&clock=corr3", ct);
        a = ask(P, (call){"POST", "/lobby/seek", cid, form, NULL, NULL, NULL, NULL});
        last = a.status;
        free(a.body);
    }
    CHECK(last == 429, "the 4th seek: %d", last);
    seek_id(P, 0, sid);
    snprintf(url, sizeof url, "/lobby/seek/%s/cancel", sid);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "withdrawing another's seek: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", ct);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "withdraw: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s&variant=klein-bottle&clock=10%%2B5&min_rating=1580", ct);
    a = ask(P, (call){"POST", "/lobby/seek", cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "a seek with a range: %d", a.status);
    free(a.body);
    seek_with(P, "\"min_rating\":1580", sid);
    CHECK(sid[0], "the seek with a range is listed");
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", sid);
    snprintf(form, sizeof form, "csrf=%s", at);
    a = ask(P, (call){"POST", url, ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "outside this seek"), "Ann's rating is below the range: %d %s", a.status, a.body);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "Ben's is within it: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"POST", "/lobby/seek/000000000000/accept", ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "no such seek: %d", a.status);
    free(a.body);

    th_case("challenges: to oneself 400, to nobody 404, anonymous 401; only the named player may accept");
    snprintf(form, sizeof form, "csrf=%s&variant=torus&clock=corr3", ct);
    a = ask(P, (call){"POST", "/@/cid/challenge", cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 400 && has(&a, "challenge yourself"), "self: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s&variant=torus&clock=corr3", at);
    a = ask(P, (call){"POST", "/@/Nobody/challenge", ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404 && has(&a, "no player"), "nobody: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/@/Ben/challenge", NULL, "variant=torus&clock=corr3", NULL, NULL, NULL, NULL});
    CHECK(a.status == 401, "anonymous: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/@/Ben/challenge", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 405, "GET: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/@/Ben", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(has(&a, "action=\"/@/Ben/challenge\""), "Ben's page has a challenge form for Ann");
    free(a.body);
    a = ask(P, (call){"GET", "/@/Ann", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(!has(&a, "/challenge\""), "but not her own page");
    free(a.body);
    a = ask(P, (call){"POST", "/@/BEN/challenge", ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "Ann challenges Ben: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(!has(&a, "\"name\":\"Ann\""), "a challenge is not in the public list: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    const char *ch = a.body ? strstr(a.body, "Challenges to you") : NULL;
    const char *dec = ch ? strstr(ch, "/decline\"") : NULL;
    char chid[TP_SEEK_ID_LEN + 1] = "";
    if (dec && dec - ch > TP_SEEK_ID_LEN)
        snprintf(chid, sizeof chid, "%.12s", dec - TP_SEEK_ID_LEN);
    CHECK(ch && strstr(ch, "Ann challenges you") && strlen(chid) == TP_SEEK_ID_LEN, "Ben sees it: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(has(&a, "Your challenges") && has(&a, "Ben is challenged"), "Ann sees hers");
    free(a.body);
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", chid);
    snprintf(form, sizeof form, "csrf=%s", ct);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "is for Ben"), "Cid cannot take Ben's challenge: %d", a.status);
    free(a.body);
    snprintf(url, sizeof url, "/lobby/seek/%s/decline", chid);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "nor decline it: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "Ben declines: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(!has(&a, "Your challenges"), "declined: gone from Ann's lobby");
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s&variant=mobius&clock=10%%2B5&color=black", at);
    a = ask(P, (call){"POST", "/@/Ben/challenge", ann, form, NULL, NULL, NULL, NULL});
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    ch = a.body ? strstr(a.body, "Challenges to you") : NULL;
    const char *acc = ch ? strstr(ch, "/accept\"") : NULL;
    if (acc && acc - ch > TP_SEEK_ID_LEN)
        snprintf(chid, sizeof chid, "%.12s", acc - TP_SEEK_ID_LEN);
    free(a.body);
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", chid);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strncmp(a.location, "/game/", 6), "Ben accepts the second: %d %s", a.status, a.location);
    free(a.body);
    srv_people_stop(P);
    the_site = NULL;
    srv_site_free(site);
}

/* The home page's lobby summary escapes what it shows: a seek on a page
 * whose title is markup shows the title as text. */
static void test_home_summary(void)
{
    th_case("home page: the lobby summary, a page title of markup shown as text");
    FILE *f = fopen("variants/torus.md", "rb");
    CHECK(f != NULL, "variants/torus.md");
    if (!f)
        return;
    static char text[64 * 1024];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *title = strstr(text, "title: Toroidal Chess\n"), *slug = strstr(text, "slug: torus\n");
    CHECK(title && slug, "torus.md's front matter changed");
    if (!title || !slug)
        return;
    static char page[64 * 1024 + 64];
    snprintf(page, sizeof page, "%.*stitle: \"<b>Tor & us</b>\"\n%.*sslug: tor-us\n%s", (int)(title - text), text,
             (int)(slug - title - 22), title + 22, slug + 12);
    const char *names[] = {"tor-us.md"}, *texts[] = {page};
    tc_error e;
    srv_site *site = srv_site_from_texts("test", NULL, 1, names, texts, NULL, &e);
    CHECK(site && srv_site_find(site, "tor-us"), "site: %s", site ? "no page tor-us" : e.msg);
    if (!site || !srv_site_find(site, "tor-us")) {
        srv_site_free(site);
        return;
    }
    the_site = site;
    srv_people *P = start(0, NULL);
    if (P) {
        char esc[64], et[64], form[160];
        member(P, "Esc", esc, et);
        snprintf(form, sizeof form, "csrf=%s&variant=tor-us&clock=corr3", et);
        answer a = ask(P, (call){"POST", "/lobby/seek", esc, form, NULL, "198.51.100.77", NULL, NULL});
        CHECK(a.status == 303, "seek on tor-us: %d %s", a.status, a.body);
        free(a.body);
        a = ask(P, (call){"GET", "/", NULL, NULL, NULL, NULL, NULL, NULL});
        CHECK(a.status == 200 && has(&a, "href=\"/@/Esc\">Esc</a> (1500?): &lt;b&gt;Tor &amp; us&lt;/b&gt;, 3 days a move, casual") &&
                  !has(&a, "<b>Tor"),
              "the summary: %s", a.body ? strstr(a.body, "tc-lobby-summary") : "");
        free(a.body);
        srv_people_stop(P);
    }
    the_site = NULL;
    srv_site_free(site);
}

void suite_people(void)
{
    test_rules();
    test_signup_login();
    test_throttle();
    test_secure_and_input();
    test_lobby();
    test_home_summary();
}
