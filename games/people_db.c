/* The accounts' database connection (people_db.h), SQLite or libpq. */
#include "people_db.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TP_MAX_ARGS 20
#define TP_MAX_COLS 24 /* columns of a result row handed on */

struct tp_db {
    sqlite3 *lite;
    PGconn *pg;
    pthread_mutex_t lock;
};

tp_db *tp_db_open(const char *url, tc_error *err)
{
    tp_db *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    /* recursive: a transaction (tp_db_begin) holds it across statements */
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&d->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    if (!strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11)) {
        d->pg = PQconnectdb(url);
        if (PQstatus(d->pg) != CONNECTION_OK) {
            snprintf(err->msg, sizeof err->msg, "postgresql: %.200s", PQerrorMessage(d->pg));
            tp_db_close(d);
            return NULL;
        }
        PQclear(PQexec(d->pg, "SET client_min_messages = warning"));
    } else {
        if (sqlite3_open_v2(url, &d->lite, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
            snprintf(err->msg, sizeof err->msg, "sqlite: cannot open '%.100s': %s", url,
                     d->lite ? sqlite3_errmsg(d->lite) : "out of memory");
            tp_db_close(d);
            return NULL;
        }
        sqlite3_busy_timeout(d->lite, 5000);
        sqlite3_exec(d->lite, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    }
    return d;
}

void tp_db_close(tp_db *d)
{
    if (!d)
        return;
    if (d->lite)
        sqlite3_close(d->lite);
    if (d->pg)
        PQfinish(d->pg);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

static int lite_exec(tp_db *d, const char *sql, const tp_arg *args, int n, tp_row_fn fn, void *ctx, tc_error *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(d->lite, sql, -1, &st, NULL) != SQLITE_OK) {
        snprintf(err->msg, sizeof err->msg, "sqlite: %s", sqlite3_errmsg(d->lite));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (args[i].s)
            sqlite3_bind_text(st, i + 1, args[i].s, -1, SQLITE_STATIC);
        else
            sqlite3_bind_int64(st, i + 1, args[i].i);
    }
    int rows = 0, rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int nc = sqlite3_column_count(st);
        const char *vals[TP_MAX_COLS];
        if (nc > TP_MAX_COLS)
            nc = TP_MAX_COLS;
        for (int c = 0; c < nc; c++) {
            const unsigned char *t = sqlite3_column_text(st, c);
            vals[c] = t ? (const char *)t : "";
        }
        rows++;
        stop = fn ? fn(ctx, nc, vals) : 0;
    }
    if (!stop && rc != SQLITE_DONE) {
        int code = sqlite3_extended_errcode(d->lite);
        snprintf(err->msg, sizeof err->msg, "sqlite: %s", sqlite3_errmsg(d->lite));
        sqlite3_finalize(st);
        return code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY ? TP_EUNIQUE : -1;
    }
    if (sqlite3_column_count(st) == 0)
        rows = sqlite3_changes(d->lite);
    sqlite3_finalize(st);
    return rows;
}

static int pg_exec(tp_db *d, const char *sql, const tp_arg *args, int n, tp_row_fn fn, void *ctx, tc_error *err)
{
    /* ?N -> $N */
    size_t len = strlen(sql);
    char *text = malloc(len + 1);
    if (!text) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    for (size_t i = 0; i <= len; i++)
        text[i] = sql[i] == '?' ? '$' : sql[i];
    char nums[TP_MAX_ARGS][24];
    const char *vals[TP_MAX_ARGS];
    for (int i = 0; i < n && i < TP_MAX_ARGS; i++) {
        if (args[i].s) {
            vals[i] = args[i].s;
        } else {
            snprintf(nums[i], sizeof nums[i], "%lld", (long long)args[i].i);
            vals[i] = nums[i];
        }
    }
    PGresult *r = PQexecParams(d->pg, text, n, NULL, vals, NULL, NULL, 0);
    free(text);
    ExecStatusType s = PQresultStatus(r);
    int rows = -1;
    if (s == PGRES_TUPLES_OK) {
        rows = PQntuples(r);
        int nc = PQnfields(r) > TP_MAX_COLS ? TP_MAX_COLS : PQnfields(r);
        for (int i = 0; i < rows && fn; i++) {
            const char *v[TP_MAX_COLS];
            for (int c = 0; c < nc; c++)
                v[c] = PQgetvalue(r, i, c);
            if (fn(ctx, nc, v))
                break;
        }
    } else if (s == PGRES_COMMAND_OK) {
        rows = atoi(PQcmdTuples(r));
    } else {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        snprintf(err->msg, sizeof err->msg, "postgresql: %.200s", PQresultErrorMessage(r));
        size_t m = strlen(err->msg);
        if (m && err->msg[m - 1] == '\n')
            err->msg[m - 1] = '\0';
        rows = state && !strcmp(state, "23505") ? TP_EUNIQUE : -1;
        /* a dropped connection: try once to reconnect for the next request */
        if (PQstatus(d->pg) == CONNECTION_BAD)
            PQreset(d->pg);
    }
    PQclear(r);
    return rows;
}

int tp_db_exec(tp_db *d, const char *sql, const tp_arg *args, int n, tp_row_fn fn, void *ctx, tc_error *err)
{
    if (n > TP_MAX_ARGS) {
        snprintf(err->msg, sizeof err->msg, "more than %d values in one statement", TP_MAX_ARGS);
        return -1;
    }
    pthread_mutex_lock(&d->lock);
    int rc = d->lite ? lite_exec(d, sql, args, n, fn, ctx, err) : pg_exec(d, sql, args, n, fn, ctx, err);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

int tp_db_shared(const tp_db *d) { return d->pg != NULL; }

int tp_db_begin(tp_db *d, tc_error *err)
{
    pthread_mutex_lock(&d->lock);
    /* SQLite: the write lock at once (one writer, across processes too) */
    if (tp_db_exec(d, d->lite ? "BEGIN IMMEDIATE" : "BEGIN", NULL, 0, NULL, NULL, err) < 0) {
        pthread_mutex_unlock(&d->lock);
        return -1;
    }
    return 0;
}

int tp_db_end(tp_db *d, int commit, tc_error *err)
{
    tc_error ignored;
    int rc = tp_db_exec(d, commit ? "COMMIT" : "ROLLBACK", NULL, 0, NULL, NULL, commit ? err : &ignored);
    if (rc < 0 && commit)
        tp_db_exec(d, "ROLLBACK", NULL, 0, NULL, NULL, &ignored);
    pthread_mutex_unlock(&d->lock);
    return rc < 0 ? -1 : 0;
}

int tp_db_notify(tp_db *d, const char *channel, const char *payload, tc_error *err)
{
    if (!d->pg)
        return 0;
    tp_arg a[] = {TP_TEXT(channel), TP_TEXT(payload)};
    return tp_db_exec(d, "SELECT pg_notify(?1, ?2)", a, 2, NULL, NULL, err) < 0 ? -1 : 0;
}
