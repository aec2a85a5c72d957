/* Accounts: names, passwords, sign-up and login (accounts.h). */
#include "accounts.h"

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
    return 0;
}

static void subject(char *out, size_t n, const char *kind, const char *what) { snprintf(out, n, "%s:%s", kind, what); }

srv_acc_code srv_accounts_signup(srv_accounts *A, const char *name, const char *password, const char *addr,
                                 int64_t now_ms, tp_user *out, char *msg, size_t n)
{
    char key[TP_NAME_MAX + 1], subj[96], fails_subj[96];
    tc_error err;
    if (srv_name_check(name, key, msg, n) || srv_password_check(password, name, msg, n))
        return SRV_ACC_BAD_INPUT;
    /* accounts made count toward the hourly limit; refusals for a taken
     * name have their own, higher one (they cost no hash, but probe names) */
    subject(subj, sizeof subj, "signup", addr);
    subject(fails_subj, sizeof fails_subj, "signup-fail", addr);
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

srv_acc_code srv_accounts_login(srv_accounts *A, const char *name, const char *password, const char *addr,
                                int64_t now_ms, tp_user *out, char *msg, size_t n)
{
    tc_error err;
    char key[TP_NAME_MAX + 1], by_user[96], by_addr[96];
    size_t len = strlen(name);
    if (!len || len > TP_NAME_MAX || !password[0] || strlen(password) > SRV_PASSWORD_MAX) {
        snprintf(msg, n, "%s", !len ? "the user name is missing" : !password[0] ? "the password is missing"
                                : len > TP_NAME_MAX ? "no user has a name that long"
                                                    : "no password is that long");
        return SRV_ACC_BAD_INPUT;
    }
    for (size_t i = 0; i <= len; i++)
        key[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]);
    subject(by_user, sizeof by_user, "user", key);
    subject(by_addr, sizeof by_addr, "addr", addr);
    int64_t since = now_ms - SRV_THROTTLE_WINDOW_MS;
    int fu = tp_attempt_count(A->db, by_user, since, &err), fa = fu < 0 ? -1 : tp_attempt_count(A->db, by_addr, since, &err);
    if (fu < 0 || fa < 0)
        goto fail;
    if (fu >= SRV_FAILS_PER_ACCOUNT || fa >= SRV_FAILS_PER_ADDRESS) {
        snprintf(msg, n, "too many failed logins %s: wait %d minutes", fu >= SRV_FAILS_PER_ACCOUNT ? "for this account" : "from your address",
                 SRV_THROTTLE_WINDOW_MS / 60000);
        return SRV_ACC_THROTTLED;
    }
    tp_user u;
    memset(&u, 0, sizeof u);
    int found = tp_user_by_key(A->db, key, &u, &err);
    if (found < 0)
        goto fail;
    /* an unknown user costs the same hash as a known one */
    int ok = password_verify(A, found ? u.pwhash : A->dummy, password) && found;
    if (!ok) {
        if (tp_attempt_add(A->db, by_user, now_ms, &err) < 0 || tp_attempt_add(A->db, by_addr, now_ms, &err) < 0)
            goto fail;
        snprintf(msg, n, "wrong user name or password");
        return SRV_ACC_WRONG;
    }
    tp_attempt_clear(A->db, by_user, &err);
    *out = u;
    return SRV_ACC_OK;
fail:
    snprintf(msg, n, "the account store failed: %s", err.msg);
    return SRV_ACC_INTERNAL;
}
