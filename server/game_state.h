/* A hosted game as the API shows it: its public state as JSON (no tokens)
 * and the few facts about its clock that the streams and the timer need.
 * Pure functions of a game and a time; calls only games/ and jansson. */
#ifndef SRV_GAME_STATE_H
#define SRV_GAME_STATE_H

#include "game.h"

#include <jansson.h>
#include <stdint.h>

/* Wall-clock milliseconds (what the store's times are in). */
int64_t srv_now_ms(void);
/* "white", "black", or NULL for any other side. */
const char *srv_side_name(int side);
/* The side's name as JSON, or null. */
json_t *srv_side_json(int side);
/* The public state of g at now (a new reference). */
json_t *srv_state_json(const tg_game *g, int64_t now);
/* The side whose clock runs in g, or -1 (no clock, game over, or a Fischer
 * clock before each side's first move). */
int srv_running_side(const tg_game *g);
/* When the running side's flag falls (ms), or 0 when no clock runs. */
int64_t srv_flag_deadline(const tg_game *g, int64_t now);
/* True when the engine is to move in g. */
int srv_engine_to_move(const tg_game *g);

#endif
