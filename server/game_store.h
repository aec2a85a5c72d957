/* The server's side of the game store: a pool of store connections shared
 * by the request threads, the engine workers and the timer, and a read
 * cache of rebuilt games.
 *
 * Limits: at most SRV_MAX_STORES connections (a caller waits for a free
 * one); SRV_CACHE_SLOTS cached games (one per hashed slot, the newest
 * read wins). A cached game is dropped by every save made here and by
 * every change another process announces, so it never outlives the
 * version it holds.
 *
 * Calls games/store.h and game_state.h only. */
#ifndef SRV_GAME_STORE_H
#define SRV_GAME_STORE_H

#include "store.h"

#include <jansson.h>
#include <stdint.h>

#define SRV_MAX_STORES 16
#define SRV_CACHE_SLOTS 512

typedef struct srv_gstore srv_gstore;

/* Opens n connections to url (applying migrations). NULL with err. */
srv_gstore *srv_gstore_open(const char *url, int n, tc_error *err);
void srv_gstore_close(srv_gstore *S);

/* Loads and rebuilds a game. */
tg_code srv_gstore_load(srv_gstore *S, const char *id, tg_game *g, tc_error *err);
/* Saves a changed game (see tg_store_save) and drops its cached copy. */
tg_code srv_gstore_save(srv_gstore *S, const tg_game *g, int64_t expected, int stored_moves, tc_error *err);
tg_code srv_gstore_insert(srv_gstore *S, const tg_game *g, tc_error *err);
int srv_gstore_archive(srv_gstore *S, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err);
tg_code srv_gstore_announce(srv_gstore *S, const char *id, tc_error *err);
int srv_gstore_pending(srv_gstore *S, const char *after, int64_t now_ms, int max, tg_game_summary *out,
                       tc_error *err);

/* The state of a cached game at now, or NULL (not cached, or its flag may
 * have fallen: the caller loads it and judges). */
json_t *srv_gstore_cached_state(srv_gstore *S, const char *id, int64_t now);
/* The drop count of id's slot: read it before a load, hand it to put. */
uint64_t srv_gstore_cache_gen(srv_gstore *S, const char *id);
/* Keeps g (taking it over) unless a drop came since gen; else frees it. */
void srv_gstore_cache_put(srv_gstore *S, tg_game *g, uint64_t gen);
void srv_gstore_cache_drop(srv_gstore *S, const char *id);
/* Turns the cache off (use 0: everything cached dropped, nothing kept or
 * served) or on again, as when changes from other processes cannot be
 * heard. */
void srv_gstore_cache_use(srv_gstore *S, int use);

#endif
