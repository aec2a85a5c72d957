/* The SQLite backend: one file in WAL mode. A transaction is committed
 * before a change is acknowledged, so killing the server loses no
 * acknowledged move (synchronous=NORMAL in WAL mode survives a crash of the
 * process; only a power cut can lose the last commits). One connection, its
 * statements prepared once, guarded by a mutex. */
#include "store.h"
#include "store_row.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum { ST_INSERT_GAME, ST_INSERT_MOVE, ST_LOAD_GAME, ST_LOAD_MOVES, ST_UPDATE_GAME, ST_DELETE_MOVES,
       ST_ARCHIVE, ST_PENDING, ST_COUNT };

static const char *const sql_text[ST_COUNT] = {
    [ST_INSERT_GAME] = "INSERT INTO games (" TG_GAME_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                       "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, "
                       "?28, ?29, ?30, ?31)",
    [ST_INSERT_MOVE] = "INSERT INTO moves (game_id, ply, uci, san, at_ms, clock_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [ST_LOAD_GAME] = "SELECT " TG_GAME_COLUMNS " FROM games WHERE id = ?1",
    [ST_LOAD_MOVES] = "SELECT uci, san, at_ms, clock_ms FROM moves WHERE game_id = ?1 ORDER BY ply",
    [ST_UPDATE_GAME] = "UPDATE games SET white_ms = ?20, black_ms = ?21, turn_started_ms = ?22, draw_offer = ?23, "
                       "takeback_offer = ?24, result = ?25, termination = ?26, nmoves = ?27, version = ?28, "
                       "updated_ms = ?30 WHERE id = ?1 AND version = ?32",
    [ST_DELETE_MOVES] = "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
    [ST_ARCHIVE] = TG_ARCHIVE_SQL("?1", "?2", "?3", "?4", "?5", "?6"),
    [ST_PENDING] = TG_PENDING_SQL("?2", "?3", "?1"),
};

typedef struct {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
    pthread_mutex_t lock;
} lite;

static tg_code db_fail(lite *l, tc_error *err, const char *what)
{
    snprintf(err->msg, sizeof err->msg, "sqlite: %s: %s", what, sqlite3_errmsg(l->db));
    return TG_EINTERNAL;
}

static sqlite3_stmt *stmt(lite *l, int k)
{
    sqlite3_stmt *s = l->st[k];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

static int exec(lite *l, const char *sql) { return sqlite3_exec(l->db, sql, NULL, NULL, NULL); }

static void bind_row(sqlite3_stmt *s, const tg_value *row)
{
    int n = sqlite3_bind_parameter_count(s);
    for (int i = 0; i < TG_GAME_NCOLUMNS && i < n; i++) {
        if (row[i].is_int)
            sqlite3_bind_int64(s, i + 1, row[i].i);
        else
            sqlite3_bind_text(s, i + 1, row[i].s, -1, SQLITE_STATIC);
    }
}

static tg_code insert_moves(lite *l, const tg_game *g, int from, tc_error *err)
{
    for (int i = from; i < g->nmoves; i++) {
        sqlite3_stmt *s = stmt(l, ST_INSERT_MOVE);
        sqlite3_bind_text(s, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 2, i);
        sqlite3_bind_text(s, 3, g->moves[i].uci, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 4, g->moves[i].san, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 5, g->moves[i].at_ms);
        sqlite3_bind_int64(s, 6, g->moves[i].clock_ms);
        if (sqlite3_step(s) != SQLITE_DONE)
            return db_fail(l, err, "insert move");
    }
    return TG_OK;
}

static tg_code lite_insert(tg_store *st, const tg_game *g, tc_error *err)
{
    lite *l = st->conn;
    tg_value row[TG_GAME_NCOLUMNS];
    tg_row_from_game(g, row);
    pthread_mutex_lock(&l->lock);
    tg_code rc = TG_OK;
    if (exec(l, "BEGIN IMMEDIATE") != SQLITE_OK) {
        rc = db_fail(l, err, "begin");
        goto out;
    }
    sqlite3_stmt *s = stmt(l, ST_INSERT_GAME);
    bind_row(s, row);
    if (sqlite3_step(s) != SQLITE_DONE)
        rc = db_fail(l, err, "insert game");
    if (!rc)
        rc = insert_moves(l, g, 0, err);
    if (rc || exec(l, "COMMIT") != SQLITE_OK) {
        if (!rc)
            rc = db_fail(l, err, "commit");
        exec(l, "ROLLBACK");
    }
out:
    pthread_mutex_unlock(&l->lock);
    return rc;
}

static tg_code lite_load(tg_store *st, const char *id, tg_game *g, tc_error *err)
{
    lite *l = st->conn;
    memset(g, 0, sizeof *g);
    pthread_mutex_lock(&l->lock);
    tg_code rc = TG_OK;
    sqlite3_stmt *s = stmt(l, ST_LOAD_GAME);
    sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
    int r = sqlite3_step(s);
    if (r == SQLITE_DONE) {
        snprintf(err->msg, sizeof err->msg, "no game '%.40s'", id);
        rc = TG_ENOTFOUND;
    } else if (r != SQLITE_ROW) {
        rc = db_fail(l, err, "load game");
    } else {
        const char *text[TG_GAME_NCOLUMNS];
        for (int i = 0; i < TG_GAME_NCOLUMNS; i++)
            text[i] = (const char *)sqlite3_column_text(s, i);
        if (tg_row_to_game(text, g, err))
            rc = TG_EINTERNAL;
    }
    int want = g->nmoves;
    g->nmoves = 0;
    if (!rc) {
        s = stmt(l, ST_LOAD_MOVES);
        sqlite3_bind_text(s, 1, id, -1, SQLITE_TRANSIENT);
        while ((r = sqlite3_step(s)) == SQLITE_ROW)
            if (tg_row_add_move(g, (const char *)sqlite3_column_text(s, 0), (const char *)sqlite3_column_text(s, 1),
                                sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3))) {
                rc = TG_EINTERNAL;
                snprintf(err->msg, sizeof err->msg, "out of memory");
                break;
            }
        if (!rc && r != SQLITE_DONE)
            rc = db_fail(l, err, "load moves");
    }
    sqlite3_reset(l->st[ST_LOAD_GAME]);
    sqlite3_reset(l->st[ST_LOAD_MOVES]);
    pthread_mutex_unlock(&l->lock);
    if (!rc && g->nmoves != want) {
        snprintf(err->msg, sizeof err->msg, "stored game %s: %d moves recorded, %d stored", id, want, g->nmoves);
        rc = TG_EINTERNAL;
    }
    return rc;
}

static tg_code lite_save(tg_store *st, const tg_game *g, int64_t expected, int stored_moves, tc_error *err)
{
    lite *l = st->conn;
    tg_value row[TG_GAME_NCOLUMNS + 1];
    tg_row_from_game(g, row);
    row[TG_GAME_NCOLUMNS].is_int = true;
    row[TG_GAME_NCOLUMNS].i = expected;
    pthread_mutex_lock(&l->lock);
    tg_code rc = TG_OK;
    if (exec(l, "BEGIN IMMEDIATE") != SQLITE_OK) {
        rc = db_fail(l, err, "begin");
        goto out;
    }
    sqlite3_stmt *s = stmt(l, ST_UPDATE_GAME);
    for (int i = 0; i <= TG_GAME_NCOLUMNS; i++) {
        char name[16];
        snprintf(name, sizeof name, "?%d", i + 1);
        int k = sqlite3_bind_parameter_index(s, name);
        if (!k)
            continue;
        if (row[i].is_int)
            sqlite3_bind_int64(s, k, row[i].i);
        else
            sqlite3_bind_text(s, k, row[i].s, -1, SQLITE_STATIC);
    }
    if (sqlite3_step(s) != SQLITE_DONE)
        rc = db_fail(l, err, "update game");
    else if (sqlite3_changes(l->db) != 1) {
        snprintf(err->msg, sizeof err->msg, "game %s changed meanwhile; reload it", g->id);
        rc = TG_ECONFLICT;
    }
    int keep = stored_moves < g->nmoves ? stored_moves : g->nmoves;
    if (!rc) {
        s = stmt(l, ST_DELETE_MOVES);
        sqlite3_bind_text(s, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(s, 2, keep);
        if (sqlite3_step(s) != SQLITE_DONE)
            rc = db_fail(l, err, "delete moves");
    }
    if (!rc)
        rc = insert_moves(l, g, keep, err);
    if (rc || exec(l, "COMMIT") != SQLITE_OK) {
        if (!rc)
            rc = db_fail(l, err, "commit");
        exec(l, "ROLLBACK");
    }
out:
    pthread_mutex_unlock(&l->lock);
    return rc;
}

static int lite_rows(tg_store *st, int k, const char *text, int64_t now_ms, const tg_archive_query *q, int max,
                     tg_game_summary *out, tc_error *err)
{
    lite *l = st->conn;
    pthread_mutex_lock(&l->lock);
    sqlite3_stmt *s = stmt(l, k);
    sqlite3_bind_int(s, 1, max);
    if (text)
        sqlite3_bind_text(s, 2, text, -1, SQLITE_TRANSIENT);
    if (k == ST_PENDING)
        sqlite3_bind_int64(s, 3, now_ms);
    if (q) {
        const char *f[] = {q->id, q->variant, q->player, q->result};
        for (int i = 0; i < 4; i++)
            sqlite3_bind_text(s, 2 + i, f[i] ? f[i] : "", -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(s, 6, q->offset);
    }
    int n = 0, r;
    while (n < max && (r = sqlite3_step(s)) == SQLITE_ROW) {
        tg_game_summary *g = &out[n++];
        memset(g, 0, sizeof *g);
        snprintf(g->id, sizeof g->id, "%s", (const char *)sqlite3_column_text(s, 0));
        snprintf(g->variant, sizeof g->variant, "%s", (const char *)sqlite3_column_text(s, 1));
        snprintf(g->result, sizeof g->result, "%s", (const char *)sqlite3_column_text(s, 2));
        snprintf(g->termination, sizeof g->termination, "%s", (const char *)sqlite3_column_text(s, 3));
        g->nmoves = sqlite3_column_int(s, 4);
        g->engine_side = sqlite3_column_int(s, 5);
        g->created_ms = sqlite3_column_int64(s, 6);
        g->updated_ms = sqlite3_column_int64(s, 7);
        if (q) {
            snprintf(g->white, sizeof g->white, "%s", (const char *)sqlite3_column_text(s, 8));
            snprintf(g->black, sizeof g->black, "%s", (const char *)sqlite3_column_text(s, 9));
            g->rated = sqlite3_column_int(s, 12);
            tg_summary_ratings(g, sqlite3_column_double(s, 10), sqlite3_column_double(s, 13),
                               sqlite3_column_double(s, 11), sqlite3_column_double(s, 14));
            const unsigned char *tid = sqlite3_column_text(s, 15), *tname = sqlite3_column_text(s, 16);
            snprintf(g->tournament_id, sizeof g->tournament_id, "%s", tid ? (const char *)tid : "");
            snprintf(g->tournament, sizeof g->tournament, "%s", tname ? (const char *)tname : "");
        }
    }
    if (n < max && r != SQLITE_DONE) {
        db_fail(l, err, "list games");
        n = -1;
    }
    sqlite3_reset(s);
    pthread_mutex_unlock(&l->lock);
    return n;
}

static int lite_archive(tg_store *st, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err)
{
    return lite_rows(st, ST_ARCHIVE, NULL, 0, q, max, out, err);
}

static int lite_pending(tg_store *st, const char *after, int64_t now_ms, int max, tg_game_summary *out, tc_error *err)
{
    return lite_rows(st, ST_PENDING, after, now_ms, NULL, max, out, err);
}

static void lite_close(tg_store *st)
{
    lite *l = st->conn;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(l->st[i]);
    sqlite3_close(l->db);
    pthread_mutex_destroy(&l->lock);
    free(l);
    free(st);
}

static const tg_store_ops lite_ops = {"sqlite", lite_close, lite_insert, lite_load, lite_save, lite_archive, lite_pending, NULL};

/* Applies the migrations the file lacks, in one transaction. */
static int migrate(lite *l, int *version, tc_error *err)
{
    if (exec(l, "BEGIN IMMEDIATE") != SQLITE_OK ||
        exec(l, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)") != SQLITE_OK)
        return db_fail(l, err, "schema_version"), -1;
    sqlite3_stmt *s;
    int cur = 0;
    if (sqlite3_prepare_v2(l->db, "SELECT COALESCE(MAX(version), 0) FROM schema_version", -1, &s, NULL) ==
        SQLITE_OK) {
        if (sqlite3_step(s) == SQLITE_ROW)
            cur = sqlite3_column_int(s, 0);
        sqlite3_finalize(s);
    }
    for (int i = 0; i < tg_nmigrations; i++) {
        if (tg_migrations[i].version <= cur)
            continue;
        char ins[96];
        snprintf(ins, sizeof ins, "INSERT INTO schema_version (version) VALUES (%d)", tg_migrations[i].version);
        if (exec(l, tg_migrations[i].sql) != SQLITE_OK || exec(l, ins) != SQLITE_OK) {
            db_fail(l, err, "migration");
            exec(l, "ROLLBACK");
            return -1;
        }
        cur = tg_migrations[i].version;
    }
    if (exec(l, "COMMIT") != SQLITE_OK)
        return db_fail(l, err, "commit migrations"), -1;
    *version = cur;
    return 0;
}

tg_store *tg_store_open_sqlite(const char *path, tc_error *err)
{
    err->msg[0] = '\0';
    lite *l = calloc(1, sizeof *l);
    tg_store *st = calloc(1, sizeof *st);
    if (!l || !st) {
        free(l);
        free(st);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&l->lock, NULL);
    st->ops = &lite_ops;
    st->conn = l;
    if (sqlite3_open_v2(path, &l->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        snprintf(err->msg, sizeof err->msg, "sqlite: cannot open '%.100s': %s", path,
                 l->db ? sqlite3_errmsg(l->db) : "out of memory");
        lite_close(st);
        return NULL;
    }
    sqlite3_busy_timeout(l->db, 5000);
    if (exec(l, "PRAGMA journal_mode = WAL") != SQLITE_OK || exec(l, "PRAGMA synchronous = NORMAL") != SQLITE_OK ||
        exec(l, "PRAGMA foreign_keys = ON") != SQLITE_OK || migrate(l, &st->schema_version, err)) {
        if (!err->msg[0])
            db_fail(l, err, "set up");
        lite_close(st);
        return NULL;
    }
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v2(l->db, sql_text[i], -1, &l->st[i], NULL) != SQLITE_OK) {
            db_fail(l, err, "prepare");
            lite_close(st);
            return NULL;
        }
    return st;
}
