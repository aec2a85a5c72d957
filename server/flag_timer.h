/* The timer of hosted games: ends games whose flag has fallen, keeps idle
 * streams alive, and every ten seconds rescans the store for games that a
 * stopped process left waiting (a flag to call, an engine move to make).
 *
 * Limits: wakes twice a second, and then loads only the watched games
 * whose running clock's flag has fallen by the newest state sent (an
 * untimed or idle game costs nothing); the rescan pages through the
 * store's pending games SRV_RESCAN_MAX at a time.
 *
 * Calls game_store.h, streams.h, engines.h and game_state.h. */
#ifndef SRV_FLAG_TIMER_H
#define SRV_FLAG_TIMER_H

#include "engines.h"
#include "game_store.h"
#include "people_db.h"
#include "streams.h"

#define SRV_RESCAN_MAX 200

typedef struct srv_timer srv_timer;

srv_timer *srv_timer_start(srv_gstore *store, srv_streams *streams, srv_engines *engines, tp_db *db);
void srv_timer_stop(srv_timer *T);

/* Ends g when its flag has fallen (saving and publishing it); 1 when it
 * did. */
int srv_flag_check(srv_gstore *store, srv_streams *streams, tp_db *db, tg_game *g);

#endif
