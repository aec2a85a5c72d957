/* The players' chat of a hosted game: lines kept in the store's game_chat
 * table (so every server process reads the same chat), written only by a
 * side of the game (the caller checks the token), read by anyone with the
 * game's link (the page shows it to watchers only when they ask).
 *
 * Limits: a line holds 1 to SRV_CHAT_MAX bytes (games_body.h) of UTF-8
 * text without control characters; a side may write SRV_CHAT_BURST lines
 * in SRV_CHAT_WINDOW_MS, and a game holds at most SRV_CHAT_LINES lines;
 * reads give the newest SRV_CHAT_SHOWN lines.
 *
 * Calls games/people_db.h and game_state.h only. */
#ifndef SRV_GAME_CHAT_H
#define SRV_GAME_CHAT_H

#include "people_db.h"

#include <jansson.h>
#include <stdint.h>

#define SRV_CHAT_BURST 5
#define SRV_CHAT_WINDOW_MS 10000
#define SRV_CHAT_LINES 500
#define SRV_CHAT_SHOWN 100

/* Checks and stores a line of side's: 0, or the HTTP status of the refusal
 * (400 bad text, 429 too fast or too many, 500 store) with why. */
int srv_chat_post(tp_db *d, const char *game_id, int side, const char *text, int64_t now_ms, char *why,
                  size_t whylen);
/* {"chat": [{"side", "text", "at_ms"}...]}, oldest first; NULL on a store
 * failure. */
json_t *srv_chat_json(tp_db *d, const char *game_id);

#endif
