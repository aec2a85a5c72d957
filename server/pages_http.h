/* The variant pages' JSON API (docs/variant-pages.md), answered for
 * people.c, which owns the database and the session:
 *   GET  /api/pages                       the caller's pages; for an editor, those in review
 *   GET  /api/pages/SLUG                  the newest revision, its state and text
 *   GET  /api/pages/SLUG/revisions        the revisions, newest first (at most 200)
 *   GET  /api/pages/SLUG/diff?a=N&b=M     the diff from revision N to M (0: newest), as HTML
 *   POST /api/pages/SLUG?base=N           save the body (the page's text) from revision N (0: a new page)
 *   POST /api/pages/SLUG/submit|publish|unpublish
 * A POST needs the session's CSRF token in an X-CSRF-Token header and
 * passes the same-origin check; its body is the page as plain text, up
 * to SRV_PF_MAX_BYTES. */
#ifndef SRV_PAGES_HTTP_H
#define SRV_PAGES_HTTP_H

#include "account_store.h"
#include "route.h"

struct srv_site;

/// What the API reads of a request.
typedef struct srv_pages_call {
    const char *method, *path, *query; /* path decoded, query raw (or NULL) */
    const char *csrf, *origin, *host, *fetch_site;
    const char *body;
    size_t len;
    const struct srv_site *site; /* the site this process shows (for /new?from=SLUG), or NULL */
} srv_pages_call;

/* True for the paths this API answers. */
int srv_pages_owns(const char *target);
/* Answers one call; s is the caller's session or NULL. Returns 1 when the
 * published set changed (a publish or unpublish done), else 0. */
int srv_pages_http(tp_db *d, const tp_session *s, const srv_pages_call *c, int64_t now_ms, srv_response *out);

#endif
