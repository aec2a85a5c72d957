/* Sessions (docs/accounts.md): a random id in an HttpOnly, SameSite=Lax
 * cookie, only its hash in the database (a copied table opens no
 * session), a new id at every login, a CSRF token per session that every
 * form a cookie authorises must send back, and the origin checks of
 * state-changing requests.
 *
 * Limits: sessions last SRV_SESSION_DAYS days, SRV_SESSIONS_PER_USER per
 * account (the oldest goes); a Cookie header is read up
 * to its first tc_session value. */
#ifndef SRV_SESSION_H
#define SRV_SESSION_H

#include "account_store.h"

#include <stddef.h>

#define SRV_SESSION_COOKIE "tc_session"
#define SRV_SESSION_DAYS 30
#define SRV_SESSIONS_PER_USER 10 /* a new one past that ends the oldest */

/* A new session for a user: its id (the cookie's value) and the row; the
 * user's oldest sessions beyond SRV_SESSIONS_PER_USER end. 0 or -1 with
 * err. */
int srv_session_open(tp_db *db, const char *user_id, int64_t now_ms, char id[TP_TOKEN_LEN + 1], tc_error *err);
/* The session a Cookie header names: 1 with out, 0 when the header names
 * none or one that is unknown, revoked or expired, -1 with err. id gets
 * the cookie's value when there is one (else ""). */
int srv_session_find(tp_db *db, const char *cookie_header, int64_t now_ms, tp_session *out,
                     char id[TP_TOKEN_LEN + 1], tc_error *err);
/* Ends the session of an id (0 or -1). */
int srv_session_close(tp_db *db, const char *id, tc_error *err);

/* The Set-Cookie value that sets (id) or clears (id NULL) the cookie. */
void srv_session_cookie(char *out, size_t n, const char *id, int secure);

/* A form's CSRF token against the session's, in constant time. */
/* The cookie sent beside a session cookie (the value srv_session_cookie
 * wrote): tc_in=1 while signed in, removed with the session. It holds no
 * secret: it only tells the pages' script that asking for the inbox's
 * count is worth a request (a visitor without it asks for nothing). */
void srv_session_hint(char *out, size_t n, const char *session_cookie);
int srv_csrf_ok(const tp_session *s, const char *token);

/* Whether a state-changing request comes from the hub's own pages: an
 * Origin header must name the Host it was sent to ("null" names none: it
 * is refused); without one, a Sec-Fetch-Site header must be same-origin
 * or none. A request with neither (not from a browser) passes. 0, or -1
 * with the reason. */
int srv_same_origin(const char *origin, const char *host, const char *fetch_site, char *msg, size_t n);

/* The checks every change that a cookie authorises must pass, in order:
 * from the hub's own pages (srv_same_origin), a live session s (stale:
 * the request's cookie named one that ended), its CSRF token (a form's
 * field csrf or a script's X-CSRF-Token header). 0, or the status of the
 * refusal (403, or 401 without a session: login_for says what to do) with
 * the reason in msg. */
int srv_session_change_check(const tp_session *s, int stale, const char *csrf, const char *origin, const char *host,
                             const char *fetch_site, const char *login_for, char *msg, size_t n);

#endif
