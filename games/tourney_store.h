/* The tournaments' rows (migration 10): the events, their players, their
 * games and the pairer's lease. Rows only; the rules are tourney.h's and
 * the pairing loop server/tourney.c's. */
#ifndef TP_TOURNEY_STORE_H
#define TP_TOURNEY_STORE_H

#include "account_store.h"
#include "game.h"
#include "people_db.h"

#define TP_TOURNEY_ID_LEN 12
#define TP_TOURNEY_NAME_MAX 60

typedef enum { TP_ARENA = 0, TP_ROUND_ROBIN = 1 } tp_tourney_kind;
typedef enum { TP_UPCOMING = 0, TP_RUNNING = 1, TP_FINISHED = 2, TP_CANCELLED = 3 } tp_tourney_state;

/// A tournament: what it plays, when, and how far it has gone.
typedef struct tp_tourney {
    char id[TP_TOURNEY_ID_LEN + 1];
    char name[TP_TOURNEY_NAME_MAX + 1];
    tp_tourney_kind kind;
    char variant[64];
    tg_clock clock;
    int rated;
    char creator_id[TP_ID_LEN + 1]; /* "" for the operator's */
    char creator_name[TP_NAME_MAX + 1];
    char sched_key[80];             /* the operator's schedule entry and week, "" for a user's */
    int64_t starts_ms;
    int minutes;                    /* an arena's length (0 for a round-robin) */
    int64_t ends_ms;                /* an arena's end; a round-robin's when finished */
    int max_players;
    tp_tourney_state state;
    int round;                      /* a round-robin's current round, from 1 (0 before the start) */
    char winner_id[TP_ID_LEN + 1], winner_name[TP_NAME_MAX + 1];
    int64_t created_ms, finished_ms, version;
} tp_tourney;

/// A player of a tournament, with the arena's tallies.
typedef struct tp_entrant {
    char user_id[TP_ID_LEN + 1];
    char name[TP_NAME_MAX + 1];
    int active;     /* 0 once withdrawn (the score stays; joining again comes back) */
    int seat;       /* a round-robin's seat (join order), from 0 */
    int score;      /* points: arena 2/1/0 with streaks; round-robin 2/1/0 */
    int streak;     /* wins in a row now */
    int games, wins, draws, whites;
    char last_opp[TP_ID_LEN + 1];
    char playing[TG_ID_LEN + 1]; /* the game in progress, "" when waiting */
    int64_t waiting_ms, joined_ms;
} tp_entrant;

/// A tournament's game.
typedef struct tp_tgame {
    char game_id[TG_ID_LEN + 1];
    int round;
    char white[TP_ID_LEN + 1], black[TP_ID_LEN + 1];
    char result[8];   /* "*" until counted, then the game's */
    int white_pts, black_pts;
    int counted;
    int64_t created_ms, ended_ms;
} tp_tgame;

int tp_tourney_insert(tp_db *d, const tp_tourney *t, tc_error *err); /* 0, TP_EUNIQUE (a schedule's event made already), -1 */
int tp_tourney_get(tp_db *d, const char *id, tp_tourney *out, tc_error *err); /* 1, 0, -1 */
/* Upcoming and running ones (soonest first), then the last finished:
 * the count, -1. */
int tp_tourney_list(tp_db *d, tp_tourney *out, int max, tc_error *err);
/* Tournaments in a state whose start (upcoming) or end (running arenas)
 * is at or before t (state < 0: every running one): the count, -1. */
int tp_tourney_due(tp_db *d, int state, int64_t t, tp_tourney *out, int max, tc_error *err);
/* A user's upcoming and running tournaments (those it created). */
int tp_tourney_count_created(tp_db *d, const char *user_id, tc_error *err);
/* Upcoming and running tournaments in all. */
int tp_tourney_count_open(tp_db *d, tc_error *err);
/* Moves a tournament from state `from` to `to` (one caller wins: 1, else
 * 0), setting round, winner (may be NULL) and finished_ms, and bumping
 * the version. */
int tp_tourney_move(tp_db *d, const char *id, int from, int to, int round, const char *winner_id,
                    const char *winner_name, int64_t finished_ms, tc_error *err);
int tp_tourney_bump(tp_db *d, const char *id, tc_error *err); /* version + 1 (a change to show) */

/* Joins (or comes back: active again): 1 joined or back, 0 already in. */
int tp_entrant_join(tp_db *d, const char *tid, const char *user_id, const char *name, int seat, int64_t now_ms,
                    tc_error *err);
int tp_entrant_withdraw(tp_db *d, const char *tid, const char *user_id, tc_error *err); /* rows changed */
/* The players, best score first (then fewer games, then join order). */
int tp_entrants(tp_db *d, const char *tid, tp_entrant *out, int max, tc_error *err);
/* One player's row: 1, 0 (not in it), -1. */
int tp_entrant_get(tp_db *d, const char *tid, const char *user_id, tp_entrant *out, tc_error *err);
int tp_entrants_count(tp_db *d, const char *tid, tc_error *err);
/* The player's row after a game: tallies, streak, last opponent, not
 * playing, waiting since now. */
int tp_entrant_update(tp_db *d, const char *tid, const tp_entrant *e, tc_error *err);
/* Sets a round-robin player's seat (at the start). */
int tp_entrant_seat(tp_db *d, const char *tid, const char *user_id, int seat, tc_error *err);
/* Moves a player's game from `from` to `to` ("" for none): 1 when it was
 * `from` (and, to claim a player for a new game, the player still takes
 * part), 0 when not, -1. A pairing claims both of its players so, in
 * one transaction with tp_tourney_lease_held. */
int tp_entrant_claim(tp_db *d, const char *tid, const char *user_id, const char *from, const char *to,
                     tc_error *err);

int tp_tgame_insert(tp_db *d, const char *tid, const tp_tgame *g, tc_error *err);
/* The games, newest first. */
int tp_tgames(tp_db *d, const char *tid, tp_tgame *out, int max, tc_error *err);
/* A tournament's games not counted yet whose game has ended, in the order
 * they ended, each with the game's result and end in out (result,
 * ended_ms). */
int tp_tgames_ended(tp_db *d, const char *tid, tp_tgame *out, int max, tc_error *err);
int tp_tgames_open(tp_db *d, const char *tid, tc_error *err); /* not counted yet */
/* Marks a game counted with its points: 1 when this call did, 0 when it
 * was counted before. */
int tp_tgame_count(tp_db *d, const tp_tgame *g, tc_error *err);
/* The tournament a game belongs to: 1 with its id and name, 0, -1. */
int tp_tourney_of_game(tp_db *d, const char *game_id, char id[TP_TOURNEY_ID_LEN + 1],
                       char name[TP_TOURNEY_NAME_MAX + 1], tc_error *err);
/* The finished tournaments a user won, newest first. */
int tp_tourney_won(tp_db *d, const char *user_id, tp_tourney *out, int max, tc_error *err);

/* The pairer's lease: 1 when owner holds it until now + ms (taken when
 * free or expired, or renewed by its holder), 0 held by another, -1. */
int tp_tourney_lease(tp_db *d, const char *owner, int64_t now_ms, int64_t ms, tc_error *err);
/* 1 when owner still holds the lease at now (a pairer's write checks it
 * in its own transaction: a holder that stalled past its lease writes
 * nothing once another has taken it), 0 not, -1. On PostgreSQL the row
 * stays locked to the transaction's end, so a taker waits for it. */
int tp_tourney_lease_held(tp_db *d, const char *owner, int64_t now_ms, tc_error *err);
/* Gives the lease up (a stopping process). */
int tp_tourney_lease_drop(tp_db *d, const char *owner, tc_error *err);

#endif
