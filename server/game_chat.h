/* The players' chat of a hosted game: lines kept in the store's game_chat
 * table (so every server process reads the same chat), written only by a
 * side of the game (the caller checks the token or session),
 * read by the two players only, and by watchers too once both players
 * opened it to them (off by default; a side the engine plays agrees).
 * The live stream tells of a new line without its text: each page then
 * reads the chat with its own credentials.
 *
 * Limits: a line holds 1 to SRV_CHAT_MAX bytes (games_body.h) of UTF-8
 * text without control characters; a side may write SRV_CHAT_BURST lines
 * in SRV_CHAT_WINDOW_MS, and a game holds at most SRV_CHAT_LINES lines;
 * reads give the newest SRV_CHAT_SHOWN lines.
 *
 * Calls games/people_db.h, game_auth.h and game_state.h only. */
#ifndef SRV_GAME_CHAT_H
#define SRV_GAME_CHAT_H

#include "game.h"
#include "people_db.h"
#include "route.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stdint.h>

#define SRV_CHAT_BURST 5
#define SRV_CHAT_WINDOW_MS 10000
#define SRV_CHAT_LINES 500
#define SRV_CHAT_SHOWN 100

/* Checks and stores a line of side's: 0, or the HTTP status of the refusal
 * (400 bad text, 429 too fast or too many, 500 store) with why. */
int srv_chat_post(tp_db *d, const char *game_id, int side, const char *text, int64_t now_ms, char *why,
                  size_t whylen);
/* {"chat": [{"side", "text", "at_ms"}...], "watchers": {"white": bool,
 * "black": bool}}: the lines oldest first, and which players opened the
 * chat to watchers; NULL on a store failure. */
json_t *srv_chat_json(tp_db *d, const char *game_id);
/* Whether watchers may read g's chat: both players opened it (a side the
 * engine plays counts as open). 1, 0, -1 on a store failure. */
int srv_chat_open(tp_db *d, const tg_game *g);
/* A player opens (on 1) or closes its side of the chat to watchers: 0, or
 * 503 with why. */
int srv_chat_set_open(tp_db *d, const char *game_id, int side, int on, char *why, size_t whylen);
/* GET /api/games/ID/chat: the players (token or session) read it;
 * watchers only when srv_chat_open; else 403 saying so. */
void srv_chat_answer(tp_db *d, const tg_game *g, struct MHD_Connection *c, srv_response *r);
/* The stream's "chat" event (heap JSON): {"lines": N, "watchers": bool},
 * no text. NULL on a store failure. */
char *srv_chat_event(tp_db *d, const tg_game *g);

#endif
