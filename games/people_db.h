/* The accounts' own connection to the hosted games' database (SQLite file
 * or PostgreSQL URL, the same --db): one statement at a time, every value
 * bound, rows handed to a callback as text. The schema comes from the
 * games' migrations (migrations.c), applied when the game store opened, so
 * tp_db_open expects the tables to be there. One connection behind a
 * mutex: account requests are few next to moves. */
#ifndef TP_DB_H
#define TP_DB_H

#include "topochess.h"

#include <stdint.h>

typedef struct tp_db tp_db;

/// One bound value: text (s not NULL) or a 64-bit integer.
typedef struct tp_arg {
    const char *s;
    int64_t i;
} tp_arg;
#define TP_TEXT(x) ((tp_arg){(x), 0})
#define TP_INT(x) ((tp_arg){NULL, (int64_t)(x)})

/* Each result row: ncols values as text ("" for NULL). Return nonzero to
 * stop reading. */
typedef int (*tp_row_fn)(void *ctx, int ncols, const char *const *vals);

#define TP_EUNIQUE (-2) /* a UNIQUE or PRIMARY KEY constraint refused the row */

tp_db *tp_db_open(const char *url, tc_error *err);
void tp_db_close(tp_db *d);
/* Runs one statement written with ?1, ?2, ... placeholders (the PostgreSQL
 * backend rewrites them as $1, $2). Returns the rows read (SELECT) or
 * changed (INSERT, UPDATE, DELETE); -1 with err on failure; TP_EUNIQUE
 * when a uniqueness constraint refused it. */
int tp_db_exec(tp_db *d, const char *sql, const tp_arg *args, int n, tp_row_fn fn, void *ctx, tc_error *err);
/* Whether other server processes may share the database (PostgreSQL). */
int tp_db_shared(const tp_db *d);
/* A transaction on this connection: tp_db_begin holds the connection (no
 * other thread's statement runs on it) until tp_db_end commits (commit 1;
 * a failed COMMIT rolls back) or rolls back (0). On SQLite it takes the
 * write lock at once (BEGIN IMMEDIATE); on PostgreSQL rows are locked by
 * the statements (SELECT ... FOR UPDATE). 0, or -1 with err. */
int tp_db_begin(tp_db *d, tc_error *err);
int tp_db_end(tp_db *d, int commit, tc_error *err);
/* PostgreSQL: NOTIFY channel with payload (every process listening hears
 * it); SQLite: nothing (one process). 0, or -1 with err. */
int tp_db_notify(tp_db *d, const char *channel, const char *payload, tc_error *err);

#endif
