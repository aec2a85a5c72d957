/* Counting the results of rated lobby games (docs/accounts.md, "Ratings:
 * Glicko-2"): one result at a time, in the order the games ended, each in
 * one transaction that claims the game, decides whether it counts, and
 * updates both ratings from the values it locked (SELECT ... FOR UPDATE
 * on PostgreSQL, where several server processes count; BEGIN IMMEDIATE
 * on SQLite, one writer). A result counts exactly once: the claim and
 * the rating updates commit together or not at all.
 *
 * What counts: a decisive or drawn result of a game in which both sides
 * moved (at least TP_MIN_PLIES plies), and, between one pair of accounts,
 * only the first TP_PAIR_LIMIT results that end within TP_PAIR_WINDOW_MS
 * of each other (any variant, either colours). Other results are kept
 * with a note saying why they changed no rating. */
#ifndef TP_RATING_STORE_H
#define TP_RATING_STORE_H

#include "account_store.h"
#include "game.h"

#define TP_MIN_PLIES 2
#define TP_PAIR_LIMIT 3
#define TP_PAIR_WINDOW_MS (24LL * 3600 * 1000)

/* The notes of results that did not count. */
#define TP_NOTE_ABORTED "aborted"
#define TP_NOTE_UNPLAYED "not counted: a side never moved"
#define TP_NOTE_FARMING "not counted: farming limit"

/// One result handled.
typedef struct tp_counted {
    char game_id[TG_ID_LEN + 1];
    int counted; /* 1: both ratings changed; 0: note says why not */
    char note[64];
    tg_rating white, black; /* the ratings after it (counted only) */
} tp_counted;

/* Handles the rated lobby game that ended first among those whose result
 * is not handled yet (games still going on are passed over): 1 with out,
 * 0 when there is none (or another process holds it now), -1 with err
 * (nothing changed). */
int tp_result_count_next(tp_db *d, int64_t now_ms, tp_counted *out, tc_error *err);

#endif
