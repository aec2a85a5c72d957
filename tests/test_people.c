/* People on the hub (server/people.h): user-name and password rules,
 * sign-up and login through the pages' handler, sessions (cookie flags, a
 * new id at every login, logout, log out everywhere, expiry), CSRF and
 * origin checks, login throttles, and the player page (the lobby and the
 * home page: test_people_lobby.c). Runs on a fresh
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

#include "people_client.h"

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
    th_case("passwords: 8 to 128 bytes, not the user name, not one of the most common");
    CHECK(srv_password_check("short", "bob", msg, sizeof msg) == -1 && strstr(msg, "at least 8"), "%s", msg);
    char longpw[200];
    memset(longpw, 'x', 129);
    longpw[129] = '\0';
    CHECK(srv_password_check(longpw, "bob", msg, sizeof msg) == -1 && strstr(msg, "at most 128"), "%s", msg);
    CHECK(srv_password_check("MoebiusKing", "moebiusking", msg, sizeof msg) == -1 && strstr(msg, "user name"),
          "%s", msg);
    CHECK(srv_password_check("correct horse", "bob", msg, sizeof msg) == 0, "%s", msg);
    CHECK(srv_password_check("PassWord1", "bob", msg, sizeof msg) == -1 && strstr(msg, "most common ones"), "%s", msg);
    CHECK(srv_password_check("12345678", "bob", msg, sizeof msg) == -1 && srv_password_check("qwertyuiop", "bob", msg,
          sizeof msg) == -1, "common passwords pass: %s", msg);
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
    /* Origin null is no origin of the hub's, with or without
     * Sec-Fetch-Site (issue 29, finding 7: login CSRF on older browsers) */
    a = ask(P, (call){"POST", "/login", NULL, "name=alice&password=klein+bottle", "null", NULL, NULL, NULL});
    CHECK(a.status == 403 && !a.set[0], "login with Origin null, no Sec-Fetch-Site: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/signup", NULL, "name=Nora&password=fold+queen&password2=fold+queen", "null", NULL,
                      NULL, "same-origin"});
    CHECK(a.status == 403 && !a.set[0], "Origin null, Sec-Fetch-Site same-origin: %d", a.status);
    free(a.body);
    /* the hub's own form under Referrer-Policy: same-origin */
    a = ask(P, (call){"POST", "/signup", NULL, "name=Nora&password=fold+queen&password2=fold+queen",
                      "http://hub.test", NULL, NULL, "same-origin"});
    CHECK(a.status == 303, "the hub's own origin, Sec-Fetch-Site same-origin: %d", a.status);
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
    th_case("failed logins from other addresses never lock the owner out (issue 29, finding 3)");
    answer a = ask(P, (call){"POST", "/signup", NULL, "name=Carol&password=torus+knight&password2=torus+knight",
                             NULL, "203.0.113.9", NULL, NULL});
    CHECK(a.status == 303, "signup %d", a.status);
    free(a.body);
    for (int i = 0; i < 2 * SRV_FAILS_PER_ACCOUNT; i++) {
        char addr[32];
        snprintf(addr, sizeof addr, "203.0.113.%d", 20 + i); /* from several addresses */
        a = ask(P, (call){"POST", "/login", NULL, "name=carol&password=wrong+guess", NULL, addr, NULL, NULL});
        CHECK(a.status == 401, "failure %d: %d", i, a.status);
        free(a.body);
    }
    a = ask(P, (call){"POST", "/login", NULL, "name=Carol&password=torus+knight", NULL, "203.0.113.99", NULL, NULL});
    CHECK(a.status == 303 && a.set[0], "the owner from an address without failures: %d", a.status);
    free(a.body);
    /* the account is attacked: an address that failed on it backs off, 2^k
     * seconds after its k-th failure. On the accounts' own clock, so that a
     * slow machine's hashes cannot outlast the wait (CI saw 401 here). */
    {
        tc_error err;
        tp_db *d = tp_db_open(db_url, &err);
        srv_accounts *A = d ? srv_accounts_new(d, &err) : NULL;
        CHECK(A != NULL, "accounts: %s", err.msg);
        if (A) {
            tp_user cu;
            char msg[256];
            int64_t t0 = 1000 * (int64_t)time(NULL) + 5000; /* after every HTTP failure above */
            msg[0] = '\0';
            srv_acc_code c = srv_accounts_login(A, "carol", "wrong again", "203.0.113.20", t0, &cu, msg, sizeof msg);
            CHECK(c == SRV_ACC_WRONG, "past the 2 s of the first failure the guess is heard: %d %s", c, msg);
            c = srv_accounts_login(A, "carol", "wrong again", "203.0.113.20", t0 + 3999, &cu, msg, sizeof msg);
            CHECK(c == SRV_ACC_THROTTLED && strstr(msg, "wait 4 seconds"), "after the second: %d %s", c, msg);
            c = srv_accounts_login(A, "Carol", "torus knight", "203.0.113.99", t0 + 3999, &cu, msg, sizeof msg);
            CHECK(c == SRV_ACC_OK, "the owner meanwhile: %d %s", c, msg);
            c = srv_accounts_login(A, "carol", "wrong again", "203.0.113.20", t0 + 4001, &cu, msg, sizeof msg);
            CHECK(c == SRV_ACC_WRONG, "after 4 s: %d %s", c, msg);
            c = srv_accounts_login(A, "carol", "wrong again", "203.0.113.20", t0 + 4002, &cu, msg, sizeof msg);
            CHECK(c == SRV_ACC_THROTTLED && strstr(msg, "wait 8 seconds"), "after the third: %d %s", c, msg);
            srv_accounts_free(A);
        }
        tp_db_close(d);
    }

    th_case("5 failures from one address on one account refuse that pair only");
    a = ask(P, (call){"POST", "/signup", NULL, "name=Fern&password=mobius+rook&password2=mobius+rook", NULL,
                      "203.0.113.11", NULL, NULL});
    free(a.body);
    for (int i = 0; i < SRV_FAILS_PER_PAIR; i++) {
        a = ask(P, (call){"POST", "/login", NULL, "name=fern&password=wrong+guess", NULL, "192.0.2.77", NULL, NULL});
        CHECK(a.status == 401, "failure %d: %d", i, a.status);
        free(a.body);
    }
    a = ask(P, (call){"POST", "/login", NULL, "name=Fern&password=mobius+rook", NULL, "192.0.2.77", NULL, NULL});
    CHECK(a.status == 429 && has(&a, "for this account from your address") && !a.set[0], "pair: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/login", NULL, "name=Fern&password=mobius+rook", NULL, "192.0.2.78", NULL, NULL});
    CHECK(a.status == 303, "the owner elsewhere: %d", a.status);
    free(a.body);

    th_case("logins: at most SRV_LOGINS_PER_MINUTE a minute from one address, right or wrong (finding 6)");
    int refused = 0, in = 0;
    time_t t0 = time(NULL);
    for (int i = 0; i < SRV_LOGINS_PER_MINUTE + 10; i++) {
        a = ask(P, (call){"POST", "/login", NULL, "name=Fern&password=mobius+rook", NULL, "192.0.2.90", NULL, NULL});
        refused += a.status == 429 && has(&a, "too many logins from your address");
        in += a.status == 303;
        free(a.body);
    }
    /* the bucket refills meanwhile: SRV_LOGINS_PER_MINUTE / 60 a second */
    double allowed = SRV_LOGINS_PER_MINUTE + (double)(time(NULL) - t0 + 1) * SRV_LOGINS_PER_MINUTE / 60.0;
    CHECK(refused > 0 && in + refused == SRV_LOGINS_PER_MINUTE + 10 && in <= allowed, "%d in, %d out", in, refused);
    tc_error err;
    tp_db *d = tp_db_open(db_url, &err);
    tp_user eu;
    CHECK(d && tp_user_by_key(d, "fern", &eu, &err) == 1, "fern");
    int open = d ? tp_sessions_count(d, eu.id, 1000 * (int64_t)time(NULL), &err) : -1;
    CHECK(open == SRV_SESSIONS_PER_USER, "sessions kept after %d logins: %d", SRV_LOGINS_PER_MINUTE + 1, open);
    tp_db_close(d);

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
                             "{}", 2, NULL, 0};
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


void suite_people(void)
{
    test_rules();
    test_signup_login();
    test_throttle();
    test_secure_and_input();
}
