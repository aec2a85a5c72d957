/* The players' inbox on the web (docs/correspondence.md, "Notifications"):
 *
 *   GET  /inbox            the page: newest first, unread ones marked, each
 *                          a link; the page marks what it showed read
 *   POST /inbox/read       form (csrf): marks every notification read
 *   GET  /api/inbox        {"unread": N, "notifications": [{id, kind,
 *                          game_id, text, url, at_ms, read}]}, newest first
 *   POST /api/inbox/read   JSON {"id": ID} or {} (all), X-CSRF-Token:
 *                          {"unread": N}
 *
 * (/api/inbox/events, the live count, is the lobby's stream: lobby.h.)
 * Signed-in users only (401 otherwise). Calls notify_store.h, session.h,
 * render.h and route.h. */
#ifndef SRV_INBOX_H
#define SRV_INBOX_H

#include "account_store.h"
#include "route.h"

#define SRV_INBOX_SHOWN 50 /* notifications a page or an answer lists */

/// The parts of a request the inbox reads.
typedef struct srv_inbox_call {
    const char *method, *path;
    const char *body;
    size_t len;
    const char *csrf, *origin, *host, *fetch_site; /* X-CSRF-Token (or the form's), Origin, Host, Sec-Fetch-Site */
} srv_inbox_call;

/* True for the paths above (and /api/inbox/events, answered 401 here when
 * the request carries no session). */
int srv_inbox_owns(const char *path);
/* Answers one of them into r (s: the session, or NULL; stale: a cookie
 * naming no live session). A form's answer is a 303 to location. */
void srv_inbox_http(tp_db *db, const tp_session *s, int stale, const srv_inbox_call *c, srv_response *r,
                    char *location, size_t ln);

#endif
