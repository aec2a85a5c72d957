/* The spectators of each game across every server process: each process
 * keeps a row per game it has spectators of (game_watchers: the game, the
 * process's random id, its count, when it last beat); a change is written,
 * then told to every process (PostgreSQL NOTIFY on the games' channel,
 * "ID -1"), and each sends its own watchers of the game the sum over the
 * rows that still beat. A process that dies stops beating: its rows count
 * for nobody after SRV_SPECTATORS_STALE_MS, and the next beat of the
 * others sends the smaller sum. On SQLite (one process) the sum is this
 * process's count, sent at once.
 *
 * Limits: a beat every SRV_SPECTATORS_BEAT_MS (one UPDATE, then one SUM
 * per game watched here); rows of stopped processes are deleted after
 * 2 * SRV_SPECTATORS_STALE_MS.
 *
 * Calls games/people_db.h and streams.h only. */
#ifndef SRV_SPECTATORS_H
#define SRV_SPECTATORS_H

#include "people_db.h"
#include "streams.h"

#define SRV_SPECTATORS_BEAT_MS 3000
#define SRV_SPECTATORS_STALE_MS 10000

typedef struct srv_spectators srv_spectators;

/* Starts the beat (a thread) for the streams S over db (both the
 * caller's, kept); NULL when memory runs out. */
srv_spectators *srv_spectators_start(tp_db *db, srv_streams *S);
/* Stops the beat and deletes this process's rows. */
void srv_spectators_stop(srv_spectators *X);
/* This process's spectators of game id are now n (the streams' hook). */
void srv_spectators_here(srv_spectators *X, const char *id, int n);
/* Another process told of a change: the sum to the watchers here. */
void srv_spectators_push(srv_spectators *X, const char *id);

#endif
