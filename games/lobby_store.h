/* The lobby's rows: seeks (open, or taken by a game) and the games that
 * came from them (rated_games: whose sides they were, whether the result
 * has been counted). Rows only; the rules are server/lobby.c's. */
#ifndef TP_LOBBY_STORE_H
#define TP_LOBBY_STORE_H

#include "account_store.h"
#include "game.h"

#define TP_SEEK_ID_LEN 12

/// A seek as the lobby lists it.
typedef struct tp_seek {
    char id[TP_SEEK_ID_LEN + 1];
    char user_id[TP_ID_LEN + 1];
    char name[TP_NAME_MAX + 1];
    char variant[64];
    tg_clock clock;
    int rated;
    char color[8];       /* "white", "black", "random": the owner's side */
    int min_rating, max_rating; /* 0: no bound */
    int rating, provisional;    /* the owner's in this variant when posted */
    int64_t created_ms, seen_ms;
    char taken_by[TP_ID_LEN + 1]; /* "" while open */
    char game_id[TG_ID_LEN + 1];
    char owner_token[TG_TOKEN_LEN + 1];
    char target_user[TP_ID_LEN + 1]; /* a challenge: the one player who may accept ("" for everyone) */
    char target_name[TP_NAME_MAX + 1];
    char addr[48]; /* the client address it was posted from (written, not read back) */
} tp_seek;

int tp_seek_insert(tp_db *d, const tp_seek *s, tc_error *err);
/* The open seeks for everyone (not challenges), oldest first: the count
 * (at most max), -1. */
int tp_seeks_open(tp_db *d, tp_seek *out, int max, tc_error *err);
/* Open challenges to a user (to 1) or from a user (to 0), oldest first. */
int tp_challenges(tp_db *d, const char *user_id, int to, tp_seek *out, int max, tc_error *err);
/* Deletes a challenge to user_id: the rows deleted, -1. */
int tp_challenge_decline(tp_db *d, const char *id, const char *user_id, tc_error *err);
int tp_seek_get(tp_db *d, const char *id, tp_seek *out, tc_error *err); /* 1, 0, -1 */
/* Open seeks of a user, and in all. */
int tp_seeks_count_user(tp_db *d, const char *user_id, tc_error *err);
int tp_seeks_count_open(tp_db *d, tc_error *err);
/* Games in progress (any, not only the lobby's) that moved or began since
 * since_ms. */
int tp_games_live(tp_db *d, int64_t since_ms, tc_error *err);
/* Open seeks (and challenges) posted from a client address. */
int tp_seeks_count_addr(tp_db *d, const char *addr, tc_error *err);
/* Marks an open seek taken by a user for a game: 1 when this call took it,
 * 0 when it was taken (or gone) before, -1. */
int tp_seek_take(tp_db *d, const char *id, const char *by, const char *game_id, const char *owner_token,
                 tc_error *err);
/* Taken seeks whose owner is user_id and has not been told (for the
 * owner's stream to learn its game), then marked by tp_seek_told: a taken
 * seek stays (until the sweep) so that a late accept is told it was taken. */
int tp_seeks_taken_of(tp_db *d, const char *user_id, tp_seek *out, int max, tc_error *err);
int tp_seek_told(tp_db *d, const char *id, tc_error *err);
/* Withdraws user_id's open seek (not a taken one): the rows deleted, -1. */
int tp_seek_delete(tp_db *d, const char *id, const char *user_id, tc_error *err);
int tp_seeks_delete_user_open(tp_db *d, const char *user_id, tc_error *err);
/* Refreshes seen_ms of a user's open seeks. */
int tp_seeks_touch(tp_db *d, const char *user_id, int64_t now_ms, tc_error *err);
/* Deletes open seeks not seen since stale_ms (challenges wait for their
 * player: only their age counts) or created before old_ms, open
 * correspondence seeks and challenges created before corr_old_ms (they
 * wait for a taker without their owner), and taken ones older than
 * old_ms. The rows deleted. tp_seeks_delete_user_open leaves a user's
 * challenges and correspondence seeks. */
int tp_seeks_sweep(tp_db *d, int64_t stale_ms, int64_t old_ms, int64_t corr_old_ms, tc_error *err);

/// A game that came from a seek.
typedef struct tp_lobby_game {
    char game_id[TG_ID_LEN + 1];
    char variant[64];
    char white[TP_ID_LEN + 1], black[TP_ID_LEN + 1];
    int rated;
} tp_lobby_game;

/* Stores the row with both players' ratings in the variant as they are
 * now (the archive shows these, not later ones). */
int tp_lobby_game_insert(tp_db *d, const tp_lobby_game *g, int64_t now_ms, tc_error *err);
/* Rated games whose result is not counted yet, oldest first. */
int tp_lobby_games_pending(tp_db *d, tp_lobby_game *out, int max, tc_error *err);
/* The lobby's row of a game: 1 with out, 0 (not from the lobby), -1. */
int tp_lobby_game_get(tp_db *d, const char *game_id, tp_lobby_game *out, tc_error *err);
/* Claims a game's result for counting: 1 when this call claimed it (no
 * other process will), 0, -1. */
int tp_lobby_game_claim(tp_db *d, const char *game_id, tc_error *err);
/// A game of a player's list: the sides' names and when it began.
typedef struct tp_played {
    char game_id[TG_ID_LEN + 1];
    char variant[64];
    char white[TP_NAME_MAX + 1], black[TP_NAME_MAX + 1];
    int rated;
    int64_t created_ms;
    int white_r, black_r;         /* the ratings as the game began (0: not kept, a game from before migration 7) */
    int white_prov, black_prov;   /* and whether they were provisional */
    char note[64];                /* why a rated result changed no rating ("" when it did, or not yet counted) */
    char tournament_id[16], tournament[64]; /* the tournament it belongs to ("" for none) */
} tp_played;

/* The games a user began from the lobby, newest first: the count, -1. */
int tp_lobby_games_of(tp_db *d, const char *user_id, tp_played *out, int max, tc_error *err);

/* A user's rating in a variant (1 with out, 0 none yet, -1). */
int tp_rating_of(tp_db *d, const char *user_id, const char *variant, tg_rating *out, tc_error *err);

#endif
