/* Who speaks for a side of a game: see game_auth.h. */
#include "game_auth.h"

#include "game_state.h"
#include "lobby_store.h"
#include "respond.h"
#include "session.h"

#include <stdio.h>
#include <string.h>

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

int srv_game_has_session(struct MHD_Connection *c)
{
    const char *h = header(c, MHD_HTTP_HEADER_COOKIE);
    return h && strstr(h, SRV_SESSION_COOKIE "=") != NULL;
}

/* The side a token plays; -1 with a 403. */
static int token_side(const tg_game *g, const char *tok, srv_response *r)
{
    int side = tg_game_side_of(g, tok);
    if (side < 0)
        srv_route_error(r, 403, 1, "wrong token for this game");
    return side;
}

/* The side a session's account plays: SRV_NOBODY when the request has no
 * session or its account plays no side (a watcher), -1 with a refusal. */
static int session_side(tp_db *db, const tg_game *g, json_t *b, struct MHD_Connection *c, int change,
                        srv_response *r)
{
    tp_session s;
    char sid[TP_TOKEN_LEN + 1];
    tc_error err;
    int found = srv_session_find(db, header(c, MHD_HTTP_HEADER_COOKIE), srv_now_ms(), &s, sid, &err);
    if (found < 0) {
        fprintf(stderr, "topochess serve: sessions: %s\n", err.msg);
        srv_route_error(r, 503, 1, "the account store is unavailable for a moment: try again shortly");
        return -1;
    }
    if (!found) {
        if (!change)
            return SRV_NOBODY;
        srv_route_error(r, sid[0] ? 401 : 403, 1, "%s",
                        sid[0] ? "your session has ended or was logged out: log in again"
                               : "this needs a side's token, or to be logged in as one of the players");
        return -1;
    }
    tp_lobby_game lg;
    int known = tp_lobby_game_get(db, g->id, &lg, &err);
    if (known < 0) {
        fprintf(stderr, "topochess serve: lobby store: %s\n", err.msg);
        srv_route_error(r, 503, 1, "the account store is unavailable for a moment: try again shortly");
        return -1;
    }
    int side = known && !strcmp(lg.white, s.user_id) ? TC_WHITE : known && !strcmp(lg.black, s.user_id) ? TC_BLACK : -1;
    if (side < 0) {
        if (!change)
            return SRV_NOBODY;
        srv_route_error(r, 403, 1, "you are logged in as %s, who plays neither side of this game", s.name);
        return -1;
    }
    if (!change)
        return side;
    const char *csrf = header(c, "X-CSRF-Token");
    json_t *f = b ? json_object_get(b, "csrf") : NULL;
    if (!csrf && f && json_is_string(f))
        csrf = json_string_value(f);
    char why[256];
    int refused = srv_session_change_check(&s, 0, csrf, header(c, "Origin"), header(c, MHD_HTTP_HEADER_HOST),
                                           header(c, "Sec-Fetch-Site"), "", why, sizeof why);
    if (refused) {
        srv_route_error(r, refused, 1, "%s", why);
        return -1;
    }
    return side;
}

int srv_game_side(tp_db *db, const tg_game *g, json_t *b, struct MHD_Connection *c, int change, srv_response *r)
{
    const char *tok = NULL;
    json_t *t = b ? json_object_get(b, "token") : NULL;
    if (t && json_is_string(t))
        tok = json_string_value(t);
    if (!tok) {
        const char *h = header(c, MHD_HTTP_HEADER_AUTHORIZATION);
        if (h && !strncmp(h, "Bearer ", 7))
            tok = h + 7;
    }
    int side = tok ? token_side(g, tok, r) : db ? session_side(db, g, b, c, change, r) : SRV_NOBODY;
    if (side == SRV_NOBODY && change) {
        srv_route_error(r, 403, 1, "this needs a side's token, or to be logged in as one of the players");
        return -1;
    }
    if (side >= 0 && side == g->engine_side && change) {
        srv_route_error(r, 403, 1, "the engine's side is played by the server");
        return -1;
    }
    return side;
}
