/* The API's requests and answers: request bodies read and checked field
 * by field (each refusal a 4xx naming the field), JSON answers written.
 *
 * Limits: a body is a JSON object with only the fields named for its
 * route; strings are bounded (a page's front matter SRV_MAX_PAGE_TEXT
 * bytes, a FEN 700, a move 32), integers ranged.
 *
 * Calls route.h, site.h, render.h and the library; no store, no sockets. */
#ifndef SRV_GAMES_BODY_H
#define SRV_GAMES_BODY_H

#include "route.h"
#include "site.h"
#include "game.h"

#include <jansson.h>

#define SRV_MAX_PAGE_TEXT 16384 /* a custom page's front matter in a create request */
#define SRV_CHAT_MAX 280 /* bytes of a chat line (game_chat.h) */
#define SRV_TYPE_JSON "application/json; charset=utf-8"

/// A create request, its fields checked (pointers into body).
typedef struct {
    json_t *body;
    const char *slug, *page, *fen;
    int engine_side;
    long long level;
    tg_clock clock;
} srv_create_req;


/* r made a 200 answer with no body yet (no-cache). */
void srv_api_reset(srv_response *r);
/* r made the JSON answer v (taken over) with status. */
void srv_api_json(srv_response *r, int status, json_t *v);
/* Reads and checks a create request: 0, or -1 with the answer set. */
int srv_api_create_body(const char *body, size_t len, srv_create_req *q, srv_response *r);
/* The variant a create request names (site may be NULL: presets only): 0,
 * or -1 with the answer set. */
int srv_api_create_variant(const srv_site *site, const srv_create_req *q, tc_variant_def *def, srv_response *r);
/* Reads and checks the body of an action ("move", "draw", ...): the body
 * (the caller's to free), or NULL with the answer set. */
json_t *srv_api_action_body(const char *action, const char *body, size_t len, const char **move_out,
                            const char **what_out, srv_response *r);

#endif
