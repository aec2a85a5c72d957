/* Accounts in the hosted games' database: users, their sessions, failed
 * logins (for throttling), ratings per variant and their history. Rows
 * only: the rules (names, passwords, limits) are the server's
 * (server/accounts.c). Every function returns -1 with err on a database
 * fault. */
#ifndef TP_ACCOUNT_STORE_H
#define TP_ACCOUNT_STORE_H

#include "glicko2.h"
#include "people_db.h"

#define TP_ID_LEN 32     /* user ids: 128 random bits in hex */
#define TP_NAME_MAX 20   /* user names, in bytes (ASCII) */
#define TP_HASH_MAX 128  /* an encoded password hash (libsodium's crypto_pwhash_STRBYTES) */
#define TP_TOKEN_LEN 43  /* session ids and CSRF tokens: 256 bits, base64url without padding */

/// A user's row.
typedef struct tp_user {
    char id[TP_ID_LEN + 1];
    char name[TP_NAME_MAX + 1]; /* as the user wrote it */
    char pwhash[TP_HASH_MAX + 1];
    int64_t created_ms;
} tp_user;

/// A live session: whose, and the CSRF token its forms carry.
typedef struct tp_session {
    char user_id[TP_ID_LEN + 1];
    char name[TP_NAME_MAX + 1];
    char csrf[TP_TOKEN_LEN + 1];
    int64_t expires_ms;
} tp_session;

/// A rating of one user in one variant.
typedef struct tp_rating_row {
    char variant[64];
    tg_rating rating;
    int games;
    int64_t updated_ms;
} tp_rating_row;

/* A new user; key is the name folded to lower case. 0, TP_EUNIQUE when the
 * key is taken, -1. */
int tp_user_create(tp_db *d, const tp_user *u, const char *key, tc_error *err);
/* The user of a folded name: 1 found, 0 none, -1. */
int tp_user_by_key(tp_db *d, const char *key, tp_user *out, tc_error *err);

/* Sets a user's password hash: the rows changed (1), -1. */
int tp_user_set_password(tp_db *d, const char *user_id, const char *pwhash, tc_error *err);

/* A session row under the hash of its id (the id itself is never stored). */
int tp_session_create(tp_db *d, const char *id_hash, const char *user_id, const char *csrf, int64_t now_ms,
                      int64_t expires_ms, tc_error *err);
/* The session of an id hash if it has not expired: 1, else 0 (an expired
 * row is deleted), -1. */
int tp_session_get(tp_db *d, const char *id_hash, int64_t now_ms, tp_session *out, tc_error *err);
/* Ends one session, or all of a user's: the rows deleted, -1. */
int tp_session_delete(tp_db *d, const char *id_hash, tc_error *err);
int tp_sessions_delete_user(tp_db *d, const char *user_id, tc_error *err);
/* Keeps the user's keep newest sessions, deleting the older ones: the rows
 * deleted, -1. */
int tp_sessions_trim(tp_db *d, const char *user_id, int keep, tc_error *err);
/* The user's sessions still open. */
int tp_sessions_count(tp_db *d, const char *user_id, int64_t now_ms, tc_error *err);

/* Failed logins (and other counted attempts) by subject ("user:NAME",
 * "addr:IP"): add one, count those since a time, forget a subject's. */
int tp_attempt_add(tp_db *d, const char *subject, int64_t now_ms, tc_error *err);
int tp_attempt_count(tp_db *d, const char *subject, int64_t since_ms, tc_error *err);
int tp_attempt_clear(tp_db *d, const char *subject, tc_error *err);

/* The user's ratings, most games first: the count written (at most max). */
int tp_ratings_of(tp_db *d, const char *user_id, tp_rating_row *out, int max, tc_error *err);
/// One step of a rating's history.
typedef struct tp_rating_step {
    char variant[64];
    int64_t at_ms;
    double rating, rd;
    char game_id[24];
} tp_rating_step;

/* The user's rating history, newest first: the count (at most max), -1. */
int tp_rating_history(tp_db *d, const char *user_id, tp_rating_step *out, int max, tc_error *err);

/* Sets a user's rating in a variant after a game, and records it in the
 * history. 0 or -1. */
int tp_rating_record(tp_db *d, const char *user_id, const char *variant, tg_rating r, int64_t now_ms,
                     const char *game_id, tc_error *err);

#endif
