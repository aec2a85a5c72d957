/* Accounts (docs/accounts.md): the rules for user names and passwords,
 * password hashing (Argon2id through libsodium), and sign-up and login
 * with their throttles, over the account store (games/account_store.h).
 *
 * Limits: names 2-20 ASCII letters, digits, '_' and '-', starting with a
 * letter; passwords 8-128 bytes; at most SRV_HASHES_AT_ONCE hashes run at
 * once (each takes SRV_PWHASH_MEMLIMIT bytes); logins (right or wrong)
 * SRV_LOGINS_PER_MINUTE a minute per address (in memory, per process);
 * failed logins 20 per address and 5 per pair of address and account in
 * 15 minutes (an IPv6 address counts by its /64); once an account has 5
 * failures in 15 minutes from anywhere, an address that failed on it
 * waits 2^k seconds (at most SRV_BACKOFF_MAX_S) after its k-th failure;
 * the owner's address without failures is never refused for the
 * account's; 5 sign-ups per address an hour. */
#ifndef SRV_ACCOUNTS_H
#define SRV_ACCOUNTS_H

#include "account_store.h"

#include <stddef.h>

#define SRV_NAME_MIN 2
#define SRV_PASSWORD_MIN 8
#define SRV_PASSWORD_MAX 128
/* Argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane). */
#define SRV_PWHASH_OPSLIMIT 2
#define SRV_PWHASH_MEMLIMIT (19u * 1024u * 1024u)
#define SRV_HASHES_AT_ONCE 4
#define SRV_THROTTLE_WINDOW_MS (15 * 60 * 1000)
#define SRV_FAILS_PER_ACCOUNT 5 /* from anywhere: the addresses that failed back off */
#define SRV_FAILS_PER_PAIR 5    /* from one address on one account: refused */
#define SRV_FAILS_PER_ADDRESS 20
#define SRV_BACKOFF_MAX_S 60
#define SRV_LOGINS_PER_MINUTE 30
#define SRV_SIGNUPS_PER_ADDRESS 5 /* an hour: accounts made; a refused sign-up does not count */
#define SRV_SIGNUP_FAILS_PER_ADDRESS 30 /* an hour: sign-ups refused for a taken name (probing names) */

typedef struct srv_accounts srv_accounts;

/* Starts libsodium and the hash gate; NULL with err. db stays the
 * caller's. */
srv_accounts *srv_accounts_new(tp_db *db, tc_error *err);
void srv_accounts_free(srv_accounts *A);

/* Checks a user name: 0, or -1 with the rule it breaks in msg. key gets
 * the name folded to lower case (room for TP_NAME_MAX + 1). */
int srv_name_check(const char *name, char *key, char *msg, size_t n);
/* Checks a new password (against the rules and the name). */
int srv_password_check(const char *password, const char *name, char *msg, size_t n);

/// What a sign-up or login came to.
typedef enum {
    SRV_ACC_OK = 0,
    SRV_ACC_BAD_INPUT,   /* 400: msg says which rule */
    SRV_ACC_TAKEN,       /* 409: the name is taken (in any case) */
    SRV_ACC_WRONG,       /* 401: unknown user or wrong password */
    SRV_ACC_THROTTLED,   /* 429: too many attempts */
    SRV_ACC_INTERNAL     /* 500 */
} srv_acc_code;

/* Signs up (the name and password checked, the password hashed): the new
 * user in out. addr counts sign-ups per address. */
srv_acc_code srv_accounts_signup(srv_accounts *A, const char *name, const char *password, const char *addr,
                                 int64_t now_ms, tp_user *out, char *msg, size_t n);
/* Checks a login, throttled per address, per pair of address and account,
 * with backoff for the addresses that failed on an attacked account. addr
 * is the client's address (srv_forwarded_client). */
srv_acc_code srv_accounts_login(srv_accounts *A, const char *name, const char *password, const char *addr,
                                int64_t now_ms, tp_user *out, char *msg, size_t n);

/* Every login, right or wrong, costs a hash: a bound per address before
 * any (SRV_LOGINS_PER_MINUTE, a token bucket in memory). Takes a token for
 * addr: 1, or 0 with the refusal in msg (429). */
int srv_accounts_login_take(srv_accounts *A, const char *addr, char *msg, size_t n);

/* Hashes one password as sign-up does (for the bench): 0 or -1. */
int srv_password_hash(srv_accounts *A, const char *password, char out[TP_HASH_MAX + 1]);

#endif
