/* Accounts: names, passwords, sign-up and login (accounts.h). */
#include "accounts.h"
#include "common_passwords.h"

#include "rate_limit.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct srv_accounts {
    tp_db *db;
    pthread_mutex_t lock; /* the hash gate */
    pthread_cond_t free_slot;
    int hashing;
    srv_rate *logins; /* login attempts per address (SRV_LOGINS_PER_MINUTE) */
    char dummy[crypto_pwhash_STRBYTES]; /* verified against for unknown users */
};

/* Names a user may not take: the site's own paths and roles. */
static const char *const reserved[] = {
    "admin", "administrator", "api", "root", "system", "sysop", "moderator", "mod", "staff", "support", "help",
    "official", "owner", "lobby", "login", "logout", "signup", "account", "accounts", "games", "game", "play",
    "analysis", "assets", "static", "variants", "topochess", "anonymous", "guest", "null", "undefined", "none",
    "engine", "www", "security", "abuse", "postmaster", "webmaster", "settings", "inbox", "tv", "player", "players",
};

static void gate_enter(srv_accounts *A)
{
    pthread_mutex_lock(&A->lock);
    while (A->hashing >= SRV_HASHES_AT_ONCE)
        pthread_cond_wait(&A->free_slot, &A->lock);
    A->hashing++;
    pthread_mutex_unlock(&A->lock);
}

static void gate_leave(srv_accounts *A)
{
    pthread_mutex_lock(&A->lock);
    A->hashing--;
    pthread_cond_signal(&A->free_slot);
    pthread_mutex_unlock(&A->lock);
}

int srv_password_hash(srv_accounts *A, const char *password, char out[TP_HASH_MAX + 1])
{
    char h[crypto_pwhash_STRBYTES];
    gate_enter(A);
    int rc = crypto_pwhash_str_alg(h, password, strlen(password), SRV_PWHASH_OPSLIMIT, SRV_PWHASH_MEMLIMIT,
                                   crypto_pwhash_ALG_ARGON2ID13);
    gate_leave(A);
    if (rc)
        return -1;
    snprintf(out, TP_HASH_MAX + 1, "%s", h);
    return 0;
}

static int password_verify(srv_accounts *A, const char *hash, const char *password)
{
    gate_enter(A);
    int rc = crypto_pwhash_str_verify(hash, password, strlen(password));
    gate_leave(A);
    return rc == 0;
}

srv_accounts *srv_accounts_new(tp_db *db, tc_error *err)
{
    if (sodium_init() < 0) {
        snprintf(err->msg, sizeof err->msg, "libsodium cannot start");
        return NULL;
    }
    srv_accounts *A = calloc(1, sizeof *A);
    if (!A) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    A->db = db;
    A->logins = srv_rate_new(SRV_LOGINS_PER_MINUTE, NULL);
    if (!A->logins) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        free(A);
        return NULL;
    }
    pthread_mutex_init(&A->lock, NULL);
    pthread_cond_init(&A->free_slot, NULL);
    unsigned char pw[16];
    char text[33];
    randombytes_buf(pw, sizeof pw);
    sodium_bin2hex(text, sizeof text, pw, sizeof pw);
    char h[TP_HASH_MAX + 1];
    if (srv_password_hash(A, text, h)) {
        snprintf(err->msg, sizeof err->msg, "cannot hash a password (out of memory?)");
        srv_accounts_free(A);
        return NULL;
    }
    memcpy(A->dummy, h, sizeof A->dummy);
    return A;
}

void srv_accounts_free(srv_accounts *A)
{
    if (!A)
        return;
    srv_rate_free(A->logins);
    pthread_mutex_destroy(&A->lock);
    pthread_cond_destroy(&A->free_slot);
    free(A);
}

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

int srv_name_check(const char *name, char *key, char *msg, size_t n)
{
    size_t len = strlen(name);
    if (len < SRV_NAME_MIN || len > TP_NAME_MAX) {
        snprintf(msg, n, "a user name has %d to %d characters (this one has %zu)", SRV_NAME_MIN, TP_NAME_MAX, len);
        return -1;
    }
    if (!is_alpha(name[0])) {
        snprintf(msg, n, "a user name starts with a letter (a-z or A-Z)");
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (!is_alpha(c) && !is_digit(c) && c != '_' && c != '-') {
            snprintf(msg, n, "a user name has only letters a-z and A-Z, digits, '_' and '-' (not '%s%c')",
                     (unsigned char)c >= 0x80 ? "non-ASCII " : "", (unsigned char)c >= 0x80 ? '?' : c);
            return -1;
        }
        if ((c == '_' || c == '-') && (i + 1 == len || name[i + 1] == '_' || name[i + 1] == '-')) {
            snprintf(msg, n, "'_' and '-' stand between letters or digits: not at the end, not two in a row");
            return -1;
        }
        key[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    key[len] = '\0';
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (!strcmp(key, reserved[i])) {
            snprintf(msg, n, "'%s' is reserved for the site: pick another name", name);
            return -1;
        }
    return 0;
}

int srv_password_check(const char *password, const char *name, char *msg, size_t n)
{
    size_t len = strlen(password);
    if (len < SRV_PASSWORD_MIN) {
        snprintf(msg, n, "a password has at least %d characters", SRV_PASSWORD_MIN);
        return -1;
    }
    if (len > SRV_PASSWORD_MAX) {
        snprintf(msg, n, "a password has at most %d bytes", SRV_PASSWORD_MAX);
        return -1;
    }
    if (name && !strcasecmp(password, name)) {
        snprintf(msg, n, "the password must not be the user name");
        return -1;
    }
    if (srv_password_common(password)) {
        snprintf(msg, n, "this password is one of the most common ones, which are tried first: pick another");
        return -1;
    }
    return 0;
}

static void subject(char *out, size_t n, const char *kind, const char *what) { snprintf(out, n, "%s:%s", kind, what); }

/* The key an address counts under: an IPv6 address by its /64 (one
 * host's whole allotment), anything else whole. */
static void addr_key(const char *addr, char out[64])
{
    unsigned char bin[16];
    if (addr && strchr(addr, ':') && inet_pton(AF_INET6, addr, bin) == 1) {
        char net[48];
        memset(bin + 8, 0, 8);
        inet_ntop(AF_INET6, bin, net, sizeof net);
        snprintf(out, 64, "%s/64", net);
    } else {
        snprintf(out, 64, "%s", addr && *addr ? addr : "?");
    }
}

srv_acc_code srv_accounts_signup(srv_accounts *A, const char *name, const char *password, const char *addr,
                                 int64_t now_ms, tp_user *out, char *msg, size_t n)
{
    char key[TP_NAME_MAX + 1], subj[96], fails_subj[96];
    tc_error err;
    if (srv_name_check(name, key, msg, n) || srv_password_check(password, name, msg, n))
        return SRV_ACC_BAD_INPUT;
    /* accounts made count toward the hourly limit; refusals for a taken
     * name have their own, higher one (they cost no hash, but probe names) */
    char akey[64];
    addr_key(addr, akey);
    subject(subj, sizeof subj, "signup", akey);
    subject(fails_subj, sizeof fails_subj, "signup-fail", akey);
    int made = tp_attempt_count(A->db, subj, now_ms - 3600 * 1000, &err);
    int failed = made < 0 ? -1 : tp_attempt_count(A->db, fails_subj, now_ms - 3600 * 1000, &err);
    if (made < 0 || failed < 0)
        goto fail;
    if (made >= SRV_SIGNUPS_PER_ADDRESS) {
        snprintf(msg, n, "too many new accounts from your address: at most %d an hour", SRV_SIGNUPS_PER_ADDRESS);
        return SRV_ACC_THROTTLED;
    }
    if (failed >= SRV_SIGNUP_FAILS_PER_ADDRESS) {
        snprintf(msg, n, "too many refused sign-ups from your address: at most %d an hour",
                 SRV_SIGNUP_FAILS_PER_ADDRESS);
        return SRV_ACC_THROTTLED;
    }
    tp_user u;
    memset(&u, 0, sizeof u);
    int found = tp_user_by_key(A->db, key, &u, &err);
    if (found < 0)
        goto fail;
    if (found) {
        if (tp_attempt_add(A->db, fails_subj, now_ms, &err) < 0)
            goto fail;
        snprintf(msg, n, "the name '%s' is taken (names are the same in any case): pick another", name);
        return SRV_ACC_TAKEN;
    }
    unsigned char id[TP_ID_LEN / 2];
    randombytes_buf(id, sizeof id);
    sodium_bin2hex(u.id, sizeof u.id, id, sizeof id);
    snprintf(u.name, sizeof u.name, "%s", name);
    u.created_ms = now_ms;
    if (srv_password_hash(A, password, u.pwhash)) {
        snprintf(msg, n, "the server cannot hash a password now (out of memory): try again");
        return SRV_ACC_INTERNAL;
    }
    int rc = tp_user_create(A->db, &u, key, &err);
    if (rc == TP_EUNIQUE) { /* taken meanwhile, by another request or process */
        if (tp_attempt_add(A->db, fails_subj, now_ms, &err) < 0)
            goto fail;
        snprintf(msg, n, "the name '%s' is taken (names are the same in any case): pick another", name);
        return SRV_ACC_TAKEN;
    }
    if (rc < 0 || tp_attempt_add(A->db, subj, now_ms, &err) < 0)
        goto fail;
    *out = u;
    return SRV_ACC_OK;
fail:
    snprintf(msg, n, "the account store failed: %s", err.msg);
    return SRV_ACC_INTERNAL;
}

int srv_accounts_login_take(srv_accounts *A, const char *addr, char *msg, size_t n)
{
    char akey[64];
    addr_key(addr, akey);
    if (srv_rate_take_key(A->logins, akey))
        return 1;
    snprintf(msg, n, "too many logins from your address: at most %d a minute, wait a few seconds",
             SRV_LOGINS_PER_MINUTE);
    return 0;
}

/* Seconds a pair (address, account) waits after its latest failure while
 * the account is attacked: 2, 4, 8, ... up to SRV_BACKOFF_MAX_S. */
static int backoff_s(int pair_fails)
{
    int s = 1;
    for (int i = 0; i < pair_fails && s < SRV_BACKOFF_MAX_S; i++)
        s *= 2;
    return s < SRV_BACKOFF_MAX_S ? s : SRV_BACKOFF_MAX_S;
}

srv_acc_code srv_accounts_login(srv_accounts *A, const char *name, const char *password, const char *addr,
                                int64_t now_ms, tp_user *out, char *msg, size_t n)
{
    tc_error err;
    char key[TP_NAME_MAX + 1], akey[64], by_user[96], by_addr[96], by_pair[192];
    size_t len = strlen(name);
    if (!len || len > TP_NAME_MAX || !password[0] || strlen(password) > SRV_PASSWORD_MAX) {
        snprintf(msg, n, "%s", !len ? "the user name is missing" : !password[0] ? "the password is missing"
                                : len > TP_NAME_MAX ? "no user has a name that long"
                                                    : "no password is that long");
        return SRV_ACC_BAD_INPUT;
    }
    addr_key(addr, akey);
    for (size_t i = 0; i <= len; i++)
        key[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
    subject(by_user, sizeof by_user, "user", key);
    subject(by_addr, sizeof by_addr, "addr", akey);
    snprintf(by_pair, sizeof by_pair, "pair:%s|%s", akey, key);
    int64_t since = now_ms - SRV_THROTTLE_WINDOW_MS;
    int fa = tp_attempt_count(A->db, by_addr, since, &err);
    int fp = fa < 0 ? -1 : tp_attempt_count(A->db, by_pair, since, &err);
    int fu = fp < 0 ? -1 : tp_attempt_count(A->db, by_user, since, &err);
    if (fa < 0 || fp < 0 || fu < 0)
        goto fail;
    /* the failures of other addresses never refuse this one: an account
     * attacked from many addresses only makes the addresses that failed
     * on it wait longer after each failure */
    if (fa >= SRV_FAILS_PER_ADDRESS || fp >= SRV_FAILS_PER_PAIR) {
        snprintf(msg, n, "too many failed logins %s: wait %d minutes",
                 fa >= SRV_FAILS_PER_ADDRESS ? "from your address" : "for this account from your address",
                 SRV_THROTTLE_WINDOW_MS / 60000);
        return SRV_ACC_THROTTLED;
    }
    if (fu >= SRV_FAILS_PER_ACCOUNT && fp > 0) {
        int wait = backoff_s(fp);
        int recent = tp_attempt_count(A->db, by_pair, now_ms - (int64_t)wait * 1000, &err);
        if (recent < 0)
            goto fail;
        if (recent > 0) {
            snprintf(msg, n,
                     "this account had many failed logins: wait %d seconds before trying again from your address",
                     wait);
            return SRV_ACC_THROTTLED;
        }
    }
    tp_user u;
    memset(&u, 0, sizeof u);
    int found = tp_user_by_key(A->db, key, &u, &err);
    if (found < 0)
        goto fail;
    /* an unknown user costs the same hash as a known one */
    int ok = password_verify(A, found ? u.pwhash : A->dummy, password) && found;
    if (!ok) {
        if (tp_attempt_add(A->db, by_user, now_ms, &err) < 0 || tp_attempt_add(A->db, by_addr, now_ms, &err) < 0 ||
            tp_attempt_add(A->db, by_pair, now_ms, &err) < 0)
            goto fail;
        snprintf(msg, n, "wrong user name or password");
        return SRV_ACC_WRONG;
    }
    tp_attempt_clear(A->db, by_pair, &err);
    *out = u;
    return SRV_ACC_OK;
fail:
    snprintf(msg, n, "the account store failed: %s", err.msg);
    return SRV_ACC_INTERNAL;
}
