/* The password change (passwords.h). */
#include "passwords.h"

#include "session.h"

#include <stdio.h>
#include <string.h>

int srv_password_change(srv_accounts *A, tp_db *db, const tp_session *s, const char *addr,
                        const srv_password_form *f, int64_t now_ms, char new_sid[TP_TOKEN_LEN + 1], char *msg,
                        size_t n)
{
    tc_error err;
    new_sid[0] = '\0';
    if (!f->current || !f->current[0] || !f->password || !f->password2) {
        snprintf(msg, n, "the form needs the current password and the new one twice");
        return 400;
    }
    if (strcmp(f->password, f->password2)) {
        snprintf(msg, n, "the two new passwords differ");
        return 400;
    }
    if (srv_password_check(f->password, s->name, msg, n))
        return 400;
    if (!strcmp(f->password, f->current)) {
        snprintf(msg, n, "the new password is the current one: pick another");
        return 400;
    }
    /* the current password, checked as a login is (and throttled with it) */
    tp_user u;
    srv_acc_code rc = srv_accounts_login(A, s->name, f->current, addr, now_ms, &u, msg, n);
    if (rc == SRV_ACC_WRONG || (rc == SRV_ACC_OK && strcmp(u.id, s->user_id))) {
        snprintf(msg, n, "the current password is wrong");
        return 401;
    }
    if (rc != SRV_ACC_OK)
        return rc == SRV_ACC_THROTTLED ? 429 : rc == SRV_ACC_BAD_INPUT ? 400 : 500;
    char hash[TP_HASH_MAX + 1];
    if (srv_password_hash(A, f->password, hash)) {
        snprintf(msg, n, "the server cannot hash a password now (out of memory): try again");
        return 500;
    }
    if (tp_user_set_password(db, s->user_id, hash, &err) != 1 || tp_sessions_delete_user(db, s->user_id, &err) < 0 ||
        srv_session_open(db, s->user_id, now_ms, new_sid, &err)) {
        snprintf(msg, n, "the account store failed: %s", err.msg);
        return 500;
    }
    return 303;
}
