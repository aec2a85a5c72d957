/* The hosted games' pages and documents: the archive (/games, and the
 * JSON list of /api/games) and the page of one game (/game/<id>); the PGN
 * is analysis_http.h's.
 * Renders what it is given; loads nothing.
 *
 * Calls render.h, games_body.h, game_state.h and games/. */
#ifndef SRV_GAMES_PAGES_H
#define SRV_GAMES_PAGES_H

#include "route.h"
#include "site.h"
#include "store.h"

/// What a list answers: the query it ran, the page size, and whether
/// more games follow (a next page).
typedef struct srv_archive_view {
    const tg_archive_query *q;
    int per_page;
    int more;
} srv_archive_view;

/* The list as JSON (html 0) or as the archive's page (html 1): players
 * ("Anonymous" for a side without an account, "Engine" for the server's),
 * ratings, variant, result, date, filters and pages. */
void srv_pages_list(const tg_game_summary *list, int n, const srv_archive_view *v, srv_response *r, int html,
                    const srv_site *site);
/* The page that plays (with a side's token in the link's fragment, which
 * the server never sees) or watches g; row (or NULL) names its players. */
void srv_pages_game(const tg_game *g, const tg_game_summary *row, const srv_site *site, srv_response *r);

#endif
