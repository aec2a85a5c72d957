/* Who a request on a hosted game speaks for: the side whose token it
 * carries (the link's #token, sent in the body or as "Authorization:
 * Bearer"), else the signed-in account that plays a side (a game from the
 * lobby, or its rematch: the rated_games row names both accounts). A
 * change made by a session must carry the session's CSRF token (the
 * X-CSRF-Token header, or the body's "csrf") and come from the hub's own
 * pages (session.h's origin rules), as every form a cookie authorises
 * does; a token needs neither (it is not sent by the browser on its own).
 *
 * Calls session.h, games/lobby_store.h and respond.h only. */
#ifndef SRV_GAME_AUTH_H
#define SRV_GAME_AUTH_H

#include "game.h"
#include "people_db.h"
#include "route.h"

#include <jansson.h>
#include <microhttpd.h>

#define SRV_NOBODY (-2) /* no token and no player's session: a watcher */

/* The side of g that the request on c (its JSON body b, or NULL) speaks
 * for. change: the request changes the game (then a session needs its
 * CSRF token and a same-origin request, and a watcher is refused).
 * Returns TC_WHITE or TC_BLACK; SRV_NOBODY for a watcher (only when
 * !change; r untouched); -1 with the refusal in r (401, 403, 500). */
int srv_game_side(tp_db *db, const tg_game *g, json_t *b, struct MHD_Connection *c, int change, srv_response *r);

/* True when a request carries a session cookie (a game's state is then
 * answered for it, not from the shared cache). */
int srv_game_has_session(struct MHD_Connection *c);

#endif
