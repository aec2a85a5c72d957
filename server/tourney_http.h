/* The tournaments' routes (docs/tournaments.md), inside the people pages'
 * handler (people.c reads the session and, for a POST, checks origin and
 * CSRF token and parses the form before calling these):
 *
 *     GET  /tournaments, /api/tournaments             the list (and the form)
 *     GET  /tournament/ID, /api/tournament/ID         standings, games
 *     POST /tournaments/new, /api/tournaments         make one (303 / 201)
 *     POST /tournament/ID/join, .../withdraw          (303 / 200; /api/... too) */
#ifndef SRV_TOURNEY_HTTP_H
#define SRV_TOURNEY_HTTP_H

#include "account_store.h"
#include "route.h"
#include "tourney.h"

/* True for the paths these routes answer (a query may follow). */
int srv_tourney_owns(const char *path);
/* A GET (s: the session, or NULL). */
void srv_tourney_get(srv_tourneys *T, const srv_site *site, const tp_session *s, const char *path,
                     srv_response *r);
/* A POST of a signed-in user: location gets where a 303 sends the
 * browser (the pages), else the answer is JSON (/api/) or an error page. */
void srv_tourney_post(srv_tourneys *T, const srv_site *site, const tp_session *s, const char *path,
                      const srv_tourney_form *f, int64_t now_ms, srv_response *r, char *location, size_t ln);

#endif
