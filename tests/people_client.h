/* The people suites' client (test_people.c, test_people_lobby.c): a
 * srv_people on a fresh test database (SQLite, or TG_TEST_DB's
 * PostgreSQL), and requests through its handler with no sockets. */
#ifndef PEOPLE_CLIENT_H
#define PEOPLE_CLIENT_H

#include "people.h"

#include <stddef.h>

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

extern char db_url[256];          /* the suite's database */
extern int seed_puzzles;          /* start() seeds the puzzle table (test_puzzles_hub.c) */
extern const srv_site *the_site; /* the site the requests see, or NULL */

srv_people *start(int secure, const char *proxy);
answer ask(srv_people *P, call c);
int has(const answer *a, const char *text);
/* GET /account with a cookie: 200 when it opens a session. */
int account_status(srv_people *P, const char *cookie);
/* The CSRF token on the account page of a cookie ("" if none). */
void csrf_of(srv_people *P, const char *cookie, char *out, size_t n);

#endif
