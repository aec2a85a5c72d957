/* The password change (docs/accounts.md); a new password follows
 * srv_password_check (which refuses the most common ones,
 * common_passwords.h). The change needs a
 * signed-in session, its CSRF token (checked by the caller) and the
 * current password (a wrong one counts as a failed login for the
 * account's and the address's throttles), and ends every session of the
 * account: the browser that changed it gets a new one. */
#ifndef SRV_PASSWORDS_H
#define SRV_PASSWORDS_H

#include "accounts.h"

/// The fields of the change form (NULL when absent).
typedef struct srv_password_form {
    const char *current, *password, *password2;
} srv_password_form;

/* Changes the password of the session's user and ends all of the
 * account's sessions, then opens a new one for this browser (new_sid, the
 * cookie's value). The HTTP status: 303 changed, 400 a missing field,
 * differing new passwords or a rule broken, 401 a wrong current password,
 * 429 throttled, 500; msg says which. */
int srv_password_change(srv_accounts *A, tp_db *db, const tp_session *s, const char *addr,
                        const srv_password_form *f, int64_t now_ms, char new_sid[TP_TOKEN_LEN + 1], char *msg,
                        size_t n);

#endif
