/* Tournaments on the hub (docs/tournaments.md): arenas (a fixed length;
 * a player who ends a game is paired again at the next beat with the
 * waiting player of nearest score, never the last opponent; 2/1/0 points,
 * doubled on a streak) and round-robins (Berger tables, 2 to 16 players,
 * a round at a time). Created by signed-in users or from the operator's
 * schedule (--tournaments FILE). Games are made as lobby games are (the
 * game store and a rated_games row, so the players play them signed in
 * and rated ones count), with the event's variant and clock.
 *
 * The pairer runs in the lobby's beat (every SRV_LOBBY_BEAT_MS) of each
 * process, but works only while it holds the database's lease (one
 * conditional UPDATE of tournament_lease, renewed every beat, lapsing
 * after SRV_TOURNEY_LEASE_MS): one pairer at a time across processes,
 * another taking over within that time when its holder dies.
 *
 * Limits: SRV_TOURNEYS_PER_USER upcoming or running events created per
 * account, SRV_TOURNEYS_OPEN in all; a start at most SRV_TOURNEY_AHEAD_MIN
 * minutes ahead; an arena lasts 1 to SRV_ARENA_MAX_MIN minutes and has up
 * to SRV_ARENA_MAX_PLAYERS players; a round-robin 2 to TT_RR_MAX; games
 * still going at an arena's end count when they end within
 * SRV_ARENA_GRACE_MS (then the arena finishes; later results do not
 * count); names 3 to TP_TOURNEY_NAME_MAX bytes. */
#ifndef SRV_TOURNEY_H
#define SRV_TOURNEY_H

#include "site.h"
#include "store.h"
#include "tourney_rules.h"
#include "tourney_store.h"

#define SRV_TOURNEYS_PER_USER 2
#define SRV_TOURNEYS_OPEN 100
#define SRV_TOURNEY_AHEAD_MIN (7 * 24 * 60)
#define SRV_ARENA_MAX_MIN 360
#define SRV_ARENA_MAX_PLAYERS 200
#define SRV_ARENA_GRACE_MS (10 * 60 * 1000)
#define SRV_TOURNEY_LEASE_MS 10000
/* Its players are told this long before a tournament starts (the inbox). */
#define SRV_TOURNEY_WARN_MS (5 * 60 * 1000)
#define SRV_TOURNEY_SCHEDULE_MAX 32
#define SRV_TOURNEY_ANNOUNCE_MS (24LL * 3600 * 1000) /* a scheduled event is listed this long before it starts */

typedef struct srv_tourneys srv_tourneys;

/* On the hub's database (the caller's connection, kept) and the games'
 * store at url; day_ms: the length of a correspondence game's day (0: a
 * real day; shortened for tests, as the lobby's: serve --day-ms). NULL
 * with err. */
srv_tourneys *srv_tourneys_start(tp_db *db, const char *url, int64_t day_ms, tc_error *err);
void srv_tourneys_stop(srv_tourneys *T);
/* Where the pairer finds the variants (the site a request would see);
 * until set, the pairer waits. */
void srv_tourneys_set_site(srv_tourneys *T, const srv_site *(*fn)(void *ctx), void *ctx);
/* Reads the operator's schedule (docs/tournaments.md): 0, or -1 with err
 * naming the line and what is wrong. */
int srv_tourneys_schedule(srv_tourneys *T, const char *path, tc_error *err);

/* One beat of the pairer (the lobby's thread calls it; tests call it with
 * their own clock): makes scheduled events, starts due ones, counts ended
 * games, pairs, finishes. Nothing unless this process holds the lease.
 * 1 when it held it, 0 not, -1 a database fault (logged). */
int srv_tourneys_beat(srv_tourneys *T, int64_t now_ms);

/// A tournament as a form asks for it (strings as sent, NULL when absent).
typedef struct srv_tourney_form {
    const char *name, *kind, *variant, *clock, *rated, *starts_in, *minutes, *max_players;
} srv_tourney_form;

/* Creates a tournament for a signed-in user: 201 with id, or 400 (a bad
 * field), 429 (too many) with msg. */
int srv_tourney_create(srv_tourneys *T, const srv_site *site, const char *user_id, const char *name,
                       const srv_tourney_form *f, int64_t now_ms, char *id, char *msg, size_t n);
/* Joins (or comes back to) a tournament: 200, 404, 409 (finished, full, a
 * round-robin under way, in already) with msg. */
int srv_tourney_join(srv_tourneys *T, const char *user_id, const char *name, const char *tid, int64_t now_ms,
                     char *msg, size_t n);
/* Withdraws (an arena: pauses; joining again comes back): 200, 404, 409. */
int srv_tourney_withdraw(srv_tourneys *T, const char *user_id, const char *tid, char *msg, size_t n);

/* The list (heap JSON), and one tournament with its standings and games
 * (heap JSON; *status 200 or 404; NULL on a fault). */
char *srv_tourneys_json(srv_tourneys *T, size_t *len);
char *srv_tourney_json(srv_tourneys *T, const char *tid, int *status, size_t *len);
/* The pages' main parts (heap HTML): the list with the form (for a
 * signed-in user: its CSRF token), and one tournament. */
char *srv_tourneys_main(srv_tourneys *T, const srv_site *site, const char *user_id, const char *csrf);
char *srv_tourney_main(srv_tourneys *T, const srv_site *site, const char *tid, const char *user_id,
                       const char *csrf, int *status);
/* A player page's list of the tournaments the user won (heap HTML, ""
 * when none). */
char *srv_tourney_wins_html(srv_tourneys *T, const char *user_id);
/* The name of the tournament a game belongs to (1), 0, -1. */
int srv_tourney_of_game(srv_tourneys *T, const char *game_id, char id[TP_TOURNEY_ID_LEN + 1],
                        char name[TP_TOURNEY_NAME_MAX + 1]);

/* The clock a tournament's form names by key ("1+0", "3+2", "corr3"), or
 * NULL; and its label. */
const tg_clock *srv_tourney_clock(const char *key);
const char *srv_tourney_clock_label(const tg_clock *c, char *buf, size_t n);

#endif
