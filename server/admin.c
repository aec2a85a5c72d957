/* Database commands for the server's operator (admin.h). */
#include "admin.h"

#include "page_store.h"
#include "puzzle_import.h"
#include "store.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int srv_admin_editor(const char *db, const char *name, int grant, char *msg, size_t n)
{
    tc_error err;
    tg_store *migrated = tg_store_open(db, &err); /* brings the schema up to date */
    if (!migrated) {
        snprintf(msg, n, "database %s: %s", db, err.msg);
        return 1;
    }
    tg_store_close(migrated);
    tp_db *d = tp_db_open(db, &err);
    if (!d) {
        snprintf(msg, n, "database %s: %s", db, err.msg);
        return 1;
    }
    char key[TP_NAME_MAX + 1];
    size_t i = 0;
    for (; name[i] && i < TP_NAME_MAX; i++)
        key[i] = (char)tolower((unsigned char)name[i]);
    key[i] = '\0';
    tp_user u;
    int found = strlen(name) > TP_NAME_MAX ? 0 : tp_user_by_key(d, key, &u, &err);
    int rc = 1;
    if (found < 0)
        snprintf(msg, n, "database: %s", err.msg);
    else if (!found)
        snprintf(msg, n, "no user named '%.40s'", name);
    else if ((grant ? tp_editor_grant(d, u.id, now_ms(), &err) : tp_editor_revoke(d, u.id, &err)) < 0)
        snprintf(msg, n, "database: %s", err.msg);
    else {
        snprintf(msg, n, "%s is %s an editor", u.name, grant ? "now" : "no longer");
        rc = 0;
    }
    tp_db_close(d);
    return rc;
}

int srv_admin_puzzles_import(const char *db, const char *text, size_t len, char *msg, size_t n)
{
    tc_error err;
    tg_store *migrated = tg_store_open(db, &err);
    if (!migrated) {
        snprintf(msg, n, "database %s: %s", db, err.msg);
        return 1;
    }
    tg_store_close(migrated);
    tp_db *d = tp_db_open(db, &err);
    if (!d) {
        snprintf(msg, n, "database %s: %s", db, err.msg);
        return 1;
    }
    srv_import_count c;
    char why[300];
    int rc = srv_puzzles_import(d, text, len, now_ms(), &c, why, sizeof why);
    tp_db_close(d);
    if (rc) {
        snprintf(msg, n, "puzzles-import: %s", why);
        return 1;
    }
    snprintf(msg, n, "puzzles-import: %d added, %d already there, %d refused%s%s", c.added, c.existing, c.refused,
             c.refused ? " (first: " : "", c.refused ? c.first_refusal : "");
    if (c.refused)
        snprintf(msg + strlen(msg), n - strlen(msg), ")");
    return c.refused && !c.added && !c.existing;
}
