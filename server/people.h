/* People on the hub (docs/accounts.md): the pages /signup, /login,
 * /logout, /account, the player pages /@/NAME and /api/account, over
 * accounts.h and session.h. srv_people_handle answers one request with no
 * sockets (tests call it); srv_people_answer (people_http.c) is the same
 * on a libmicrohttpd connection, for http.c to hand the targets that
 * srv_people_owns claims to.
 *
 * Limits: form bodies up to SRV_PEOPLE_MAX_BODY bytes and
 * SRV_PEOPLE_MAX_FIELDS fields (people_forms.h); a player page lists at
 * most SRV_PEOPLE_MAX_RATINGS variants (player_ratings.h). */
#ifndef SRV_PEOPLE_H
#define SRV_PEOPLE_H

#include "jobs.h"
#include "people_forms.h"
#include "route.h"
#include "site.h"

#include <microhttpd.h>

#define SRV_PEOPLE_JOBS_WAITING 256 /* logins and sign-ups queued for a hash (more: 503) */

typedef struct srv_people srv_people;

typedef struct srv_people_options {
    const char *db;            /* the hosted games' --db (default topochess.db) */
    int secure_cookies;        /* always mark the cookie Secure (served over HTTPS) */
    const char *trusted_proxy; /* the address of a proxy whose X-Forwarded-Proto/-For are believed, or NULL */
    long long day_ms;          /* a correspondence day for the lobby's games (0: a real day) */
    const char *tournaments;   /* the operator's schedule of tournaments (docs/tournaments.md), or NULL */
    int no_puzzle_seed;        /* 1: leave an empty puzzle table empty (puzzle_import.h) */
} srv_people_options;

/* Opens the database (applying the migrations, as the game store does)
 * and the accounts. NULL with err. */
srv_people *srv_people_start(const srv_people_options *o, tc_error *err);
void srv_people_stop(srv_people *P);

/* True for the targets this module answers. */
int srv_people_owns(const char *target);

/// A request as this module reads it: the headers it needs, the peer's
/// address and the body (complete).
typedef struct srv_people_request {
    const char *method, *target;
    const char *cookie, *origin, *host, *fetch_site; /* headers, or NULL */
    const char *forwarded_proto, *forwarded_for;     /* believed only from the trusted proxy */
    const char *content_type;
    const char *addr; /* the peer's address as text */
    const char *body;
    size_t len;
    const char *csrf_header; /* X-CSRF-Token, or NULL (the pages' API) */
    int login_taken;         /* a login whose rate token srv_people_login_take took already */
} srv_people_request;

void srv_people_handle(srv_people *P, const srv_site *site, const srv_people_request *rq, srv_people_response *out);

/* The lobby of these pages, and the user a Cookie header's session
 * belongs to (1 with user_id, else 0), for the lobby's stream. */
struct srv_lobby *srv_people_lobby(srv_people *P);
/* The tournament pages' streams (tourney_live.h). */
struct srv_tlive *srv_people_tlive(srv_people *P);
/* For a login (POST /login), the per-address login rate's token, taken
 * before the request waits for a worker: 1, or 0 with out answered (429). */
int srv_people_login_take(srv_people *P, const srv_people_request *rq, srv_people_response *out);
/* The workers that run logins and sign-ups (people_http.c). */
srv_jobs *srv_people_jobs(srv_people *P);
/* A request on c has ended (the daemon's completion callback): an answer
 * run for it on a worker and never sent is dropped, so that no later
 * connection at the same address in memory could claim it. */
void srv_people_request_done(srv_people *P, struct MHD_Connection *c);
/* The --trusted-proxy address ("" for none). */
const char *srv_people_proxy(const srv_people *P);
int srv_people_user_of(srv_people *P, const char *cookie, char user_id[33]);

/* Called (from a request's thread) after a page was published or
 * unpublished through this process, so that its site is rebuilt before
 * the next request rather than at the next version check. */
void srv_people_on_pages(srv_people *P, void (*fn)(void *ctx), void *ctx);

/* Where the tournaments' pairer (tourney.h) finds the site (set once the
 * site is known; before, it waits). */
void srv_people_set_site(srv_people *P, const srv_site *(*fn)(void *ctx), void *ctx);

/* Ends the lobby's streams: before MHD_stop_daemon (lobby.h). */
void srv_people_close_streams(srv_people *P);

/* srv_people_handle on a connection: reads the headers and the address,
 * sends the answer (people_http.c). */
enum MHD_Result srv_people_answer(srv_people *P, const srv_site *site, struct MHD_Connection *c,
                                  const char *method, const char *target, const char *body, size_t len);

#endif
