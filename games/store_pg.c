/* The PostgreSQL backend, through libpq: several server processes share one
 * database, so every change is one transaction guarded by the game's
 * version, and each commit notifies the channel tg_games with "ID VERSION"
 * so that processes serving watchers of that game hear of it. */
#include "store.h"
#include "store_row.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

/// One connection. After it is lost it is re-established on the next use,
/// at most once per backoff (0.1 s doubling to 5 s), so that requests made
/// while the database is down fail fast with TG_EUNAVAILABLE.
typedef struct {
    PGconn *db;
    pthread_mutex_t lock;
    int64_t retry_at; /* monotonic ms before which no reconnect is tried */
    int backoff;      /* ms, 0 while connected */
} pg;

#define BACKOFF_MIN 100
#define BACKOFF_MAX 5000

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int next_backoff(int b) { return b ? (b * 2 > BACKOFF_MAX ? BACKOFF_MAX : b * 2) : BACKOFF_MIN; }

static tg_code unavailable(tc_error *err)
{
    snprintf(err->msg, sizeof err->msg, "postgresql: the database is unreachable; reconnecting");
    return TG_EUNAVAILABLE;
}

static tg_code pg_fail(pg *c, tc_error *err, const char *what, PGresult *r)
{
    const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(c->db);
    snprintf(err->msg, sizeof err->msg, "postgresql: %s: %.200s", what, m && m[0] ? m : "failed");
    size_t n = strlen(err->msg);
    if (n && err->msg[n - 1] == '\n')
        err->msg[n - 1] = '\0';
    return TG_EINTERNAL;
}

/* Runs a prepared statement (or plain text with parameters); NULL result on
 * error after pg_fail. */
static PGresult *run(pg *c, const char *name, int n, const char *const *vals, ExecStatusType want, tc_error *err,
                     const char *what)
{
    PGresult *r = PQexecPrepared(c->db, name, n, vals, NULL, NULL, 0);
    if (PQresultStatus(r) != want) {
        pg_fail(c, err, what, r);
        PQclear(r);
        return NULL;
    }
    return r;
}

static int simple(pg *c, const char *sql, tc_error *err)
{
    PGresult *r = PQexec(c->db, sql);
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok)
        pg_fail(c, err, sql, r);
    PQclear(r);
    return ok ? 0 : -1;
}

static const struct {
    const char *name, *sql;
    int nparams;
} prepared[] = {
    {"insert_game",
     "INSERT INTO games (" TG_GAME_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, "
     "$15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31)",
     31},
    {"insert_move", "INSERT INTO moves (game_id, ply, uci, san, at_ms, clock_ms) VALUES ($1, $2, $3, $4, $5, $6)", 6},
    {"load_game", "SELECT " TG_GAME_COLUMNS " FROM games WHERE id = $1", 1},
    {"load_moves", "SELECT uci, san, at_ms, clock_ms FROM moves WHERE game_id = $1 ORDER BY ply", 1},
    {"update_game",
     "UPDATE games SET white_ms = $2, black_ms = $3, turn_started_ms = $4, draw_offer = $5, takeback_offer = $6, "
     "result = $7, termination = $8, nmoves = $9, version = $10, updated_ms = $11 WHERE id = $1 AND version = $12",
     12},
    {"delete_moves", "DELETE FROM moves WHERE game_id = $1 AND ply >= $2", 2},
    {"notify", "SELECT pg_notify('tg_games', $1)", 1},
    {"archive", TG_ARCHIVE_SQL("$1", "$2", "$3", "$4", "$5", "$6"), 6},
    {"pending", TG_PENDING_SQL("$2", "$3", "$1"), 3},
};

static tg_code insert_moves(pg *c, const tg_game *g, int from, tc_error *err)
{
    for (int i = from; i < g->nmoves; i++) {
        char ply[16], at[24], clk[24];
        snprintf(ply, sizeof ply, "%d", i);
        snprintf(at, sizeof at, "%lld", (long long)g->moves[i].at_ms);
        snprintf(clk, sizeof clk, "%lld", (long long)g->moves[i].clock_ms);
        const char *v[] = {g->id, ply, g->moves[i].uci, g->moves[i].san, at, clk};
        PGresult *r = run(c, "insert_move", 6, v, PGRES_COMMAND_OK, err, "insert move");
        if (!r)
            return TG_EINTERNAL;
        PQclear(r);
    }
    return TG_OK;
}

static void row_text(const tg_value *row, const char **out)
{
    for (int i = 0; i < TG_GAME_NCOLUMNS; i++)
        out[i] = row[i].s;
}

static tg_code pg_insert_once(tg_store *st, const tg_game *g, tc_error *err)
{
    pg *c = st->conn;
    tg_value row[TG_GAME_NCOLUMNS];
    const char *v[TG_GAME_NCOLUMNS];
    tg_row_from_game(g, row);
    row_text(row, v);
    pthread_mutex_lock(&c->lock);
    tg_code rc = simple(c, "BEGIN", err) ? TG_EINTERNAL : TG_OK;
    PGresult *r = rc ? NULL : run(c, "insert_game", TG_GAME_NCOLUMNS, v, PGRES_COMMAND_OK, err, "insert game");
    if (!rc && !r)
        rc = TG_EINTERNAL;
    PQclear(r);
    if (!rc)
        rc = insert_moves(c, g, 0, err);
    if (!rc && simple(c, "COMMIT", err))
        rc = TG_EINTERNAL;
    if (rc)
        PQclear(PQexec(c->db, "ROLLBACK"));
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static tg_code pg_load_once(tg_store *st, const char *id, tg_game *g, tc_error *err)
{
    pg *c = st->conn;
    memset(g, 0, sizeof *g);
    const char *v[] = {id};
    pthread_mutex_lock(&c->lock);
    tg_code rc = TG_OK;
    /* one snapshot for the record and its moves */
    if (simple(c, "BEGIN ISOLATION LEVEL REPEATABLE READ", err)) {
        pthread_mutex_unlock(&c->lock);
        return TG_EINTERNAL;
    }
    PGresult *r = run(c, "load_game", 1, v, PGRES_TUPLES_OK, err, "load game");
    if (!r) {
        rc = TG_EINTERNAL;
    } else if (PQntuples(r) == 0) {
        snprintf(err->msg, sizeof err->msg, "no game '%.40s'", id);
        rc = TG_ENOTFOUND;
    } else {
        const char *text[TG_GAME_NCOLUMNS];
        for (int i = 0; i < TG_GAME_NCOLUMNS; i++)
            text[i] = PQgetisnull(r, 0, i) ? NULL : PQgetvalue(r, 0, i);
        if (tg_row_to_game(text, g, err))
            rc = TG_EINTERNAL;
    }
    PQclear(r);
    int want = g->nmoves;
    g->nmoves = 0;
    if (!rc) {
        r = run(c, "load_moves", 1, v, PGRES_TUPLES_OK, err, "load moves");
        if (!r)
            rc = TG_EINTERNAL;
        for (int i = 0; r && !rc && i < PQntuples(r); i++)
            if (tg_row_add_move(g, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), strtoll(PQgetvalue(r, i, 2), NULL, 10),
                                strtoll(PQgetvalue(r, i, 3), NULL, 10))) {
                snprintf(err->msg, sizeof err->msg, "out of memory");
                rc = TG_EINTERNAL;
            }
        PQclear(r);
    }
    PQclear(PQexec(c->db, "COMMIT"));
    pthread_mutex_unlock(&c->lock);
    if (!rc && g->nmoves != want) {
        snprintf(err->msg, sizeof err->msg, "stored game %s: %d moves recorded, %d stored", id, want, g->nmoves);
        rc = TG_EINTERNAL;
    }
    return rc;
}

static tg_code pg_save_once(tg_store *st, const tg_game *g, int64_t expected, int stored_moves, tc_error *err)
{
    pg *c = st->conn;
    tg_value row[TG_GAME_NCOLUMNS];
    tg_row_from_game(g, row);
    char exp[24], keep_s[16], note[64];
    snprintf(exp, sizeof exp, "%lld", (long long)expected);
    int keep = stored_moves < g->nmoves ? stored_moves : g->nmoves;
    snprintf(keep_s, sizeof keep_s, "%d", keep);
    snprintf(note, sizeof note, "%s %lld", g->id, (long long)g->version);
    /* id, then columns 19..29 of the row (clocks .. updated_ms, without
     * created_ms), then the expected version */
    const char *v[12] = {row[0].s, row[19].s, row[20].s, row[21].s, row[22].s, row[23].s,
                         row[24].s, row[25].s, row[26].s, row[27].s, row[29].s, exp};
    pthread_mutex_lock(&c->lock);
    tg_code rc = simple(c, "BEGIN", err) ? TG_EINTERNAL : TG_OK;
    PGresult *r = rc ? NULL : run(c, "update_game", 12, v, PGRES_COMMAND_OK, err, "update game");
    if (!rc && !r)
        rc = TG_EINTERNAL;
    if (r && strcmp(PQcmdTuples(r), "1")) {
        snprintf(err->msg, sizeof err->msg, "game %s changed meanwhile; reload it", g->id);
        rc = TG_ECONFLICT;
    }
    PQclear(r);
    if (!rc) {
        const char *d[] = {g->id, keep_s};
        r = run(c, "delete_moves", 2, d, PGRES_COMMAND_OK, err, "delete moves");
        rc = r ? TG_OK : TG_EINTERNAL;
        PQclear(r);
    }
    if (!rc)
        rc = insert_moves(c, g, keep, err);
    if (!rc) {
        const char *n[] = {note};
        r = run(c, "notify", 1, n, PGRES_TUPLES_OK, err, "notify");
        rc = r ? TG_OK : TG_EINTERNAL;
        PQclear(r);
    }
    if (!rc && simple(c, "COMMIT", err))
        rc = TG_EINTERNAL;
    if (rc)
        PQclear(PQexec(c->db, "ROLLBACK"));
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static int pg_rows(tg_store *st, const char *name, int nv, const char *const *v, int max, tg_game_summary *out,
                   tc_error *err)
{
    pg *c = st->conn;
    pthread_mutex_lock(&c->lock);
    PGresult *r = run(c, name, nv, v, PGRES_TUPLES_OK, err, "list games");
    int n = -1;
    if (r) {
        n = PQntuples(r) < max ? PQntuples(r) : max;
        for (int i = 0; i < n; i++) {
            tg_game_summary *g = &out[i];
            memset(g, 0, sizeof *g);
            snprintf(g->id, sizeof g->id, "%s", PQgetvalue(r, i, 0));
            snprintf(g->variant, sizeof g->variant, "%s", PQgetvalue(r, i, 1));
            snprintf(g->result, sizeof g->result, "%s", PQgetvalue(r, i, 2));
            snprintf(g->termination, sizeof g->termination, "%s", PQgetvalue(r, i, 3));
            g->nmoves = atoi(PQgetvalue(r, i, 4));
            g->engine_side = atoi(PQgetvalue(r, i, 5));
            g->created_ms = strtoll(PQgetvalue(r, i, 6), NULL, 10);
            g->updated_ms = strtoll(PQgetvalue(r, i, 7), NULL, 10);
            if (PQnfields(r) >= 15) { /* the archive */
                snprintf(g->white, sizeof g->white, "%s", PQgetvalue(r, i, 8));
                snprintf(g->black, sizeof g->black, "%s", PQgetvalue(r, i, 9));
                g->rated = atoi(PQgetvalue(r, i, 12));
                tg_summary_ratings(g, strtod(PQgetvalue(r, i, 10), NULL), strtod(PQgetvalue(r, i, 13), NULL),
                                   strtod(PQgetvalue(r, i, 11), NULL), strtod(PQgetvalue(r, i, 14), NULL));
                if (PQnfields(r) >= 17) {
                    snprintf(g->tournament_id, sizeof g->tournament_id, "%s", PQgetvalue(r, i, 15));
                    snprintf(g->tournament, sizeof g->tournament, "%s", PQgetvalue(r, i, 16));
                }
            }
        }
    }
    PQclear(r);
    pthread_mutex_unlock(&c->lock);
    return n;
}

static int pg_archive_once(tg_store *st, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err)
{
    char lim[16], off[16];
    snprintf(lim, sizeof lim, "%d", max);
    snprintf(off, sizeof off, "%d", q->offset);
    const char *v[] = {lim, q->id ? q->id : "", q->variant ? q->variant : "", q->player ? q->player : "",
                       q->result ? q->result : "", off};
    return pg_rows(st, "archive", 6, v, max, out, err);
}

static int pg_pending_once(tg_store *st, const char *after, int64_t now_ms, int max, tg_game_summary *out,
                           tc_error *err)
{
    char lim[16], now[24];
    snprintf(lim, sizeof lim, "%d", max);
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    const char *v[] = {lim, after, now};
    return pg_rows(st, "pending", 3, v, max, out, err);
}

static void pg_close(tg_store *st)
{
    pg *c = st->conn;
    if (c) {
        PQfinish(c->db);
        pthread_mutex_destroy(&c->lock);
        free(c);
    }
    free(st);
}

static int prepare_all(pg *c, tc_error *err);

/* The connection works, or is made again when its backoff allows: 0, or
 * -1 (the database is unreachable). */
static int ready(pg *c)
{
    if (PQstatus(c->db) == CONNECTION_OK)
        return 0;
    int64_t now = mono_ms();
    if (now < c->retry_at)
        return -1;
    PQreset(c->db);
    tc_error e;
    if (PQstatus(c->db) == CONNECTION_OK && !prepare_all(c, &e)) {
        c->backoff = 0;
        return 0;
    }
    c->backoff = next_backoff(c->backoff);
    c->retry_at = mono_ms() + c->backoff;
    return -1;
}

/* After a failed statement: TG_EUNAVAILABLE when the connection was lost
 * (the driver's text stays in the log, never in an answer), else rc. */
static tg_code judge(pg *c, tg_code rc, tc_error *err)
{
    if (rc == TG_EINTERNAL && PQstatus(c->db) != CONNECTION_OK) {
        c->retry_at = 0; /* the next use tries at once */
        return unavailable(err);
    }
    return rc;
}

static tg_code pg_insert(tg_store *st, const tg_game *g, tc_error *err)
{
    pg *c = st->conn;
    if (ready(c))
        return unavailable(err);
    return judge(c, pg_insert_once(st, g, err), err);
}

static tg_code pg_save(tg_store *st, const tg_game *g, int64_t expected, int stored_moves, tc_error *err)
{
    pg *c = st->conn;
    if (ready(c))
        return unavailable(err);
    return judge(c, pg_save_once(st, g, expected, stored_moves, err), err);
}

/* Reads are tried again once on a fresh connection (a restarted database
 * is found on the first read after it). */
static tg_code pg_load(tg_store *st, const char *id, tg_game *g, tc_error *err)
{
    pg *c = st->conn;
    for (int attempt = 0;; attempt++) {
        if (ready(c))
            return unavailable(err);
        tg_code rc = judge(c, pg_load_once(st, id, g, err), err);
        if (rc != TG_EUNAVAILABLE || attempt)
            return rc;
    }
}

static int pg_archive(tg_store *st, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err)
{
    pg *c = st->conn;
    for (int attempt = 0;; attempt++) {
        if (ready(c))
            return unavailable(err), -2;
        int n = pg_archive_once(st, q, max, out, err);
        if (n >= 0)
            return n;
        if (judge(c, TG_EINTERNAL, err) != TG_EUNAVAILABLE)
            return -1;
        if (attempt)
            return -2;
    }
}

static int pg_pending(tg_store *st, const char *after, int64_t now_ms, int max, tg_game_summary *out, tc_error *err)
{
    pg *c = st->conn;
    if (ready(c))
        return unavailable(err), -2;
    int n = pg_pending_once(st, after, now_ms, max, out, err);
    if (n < 0 && judge(c, TG_EINTERNAL, err) == TG_EUNAVAILABLE)
        return -2;
    return n;
}

static tg_code pg_announce(tg_store *st, const char *id, tc_error *err)
{
    pg *c = st->conn;
    if (ready(c))
        return unavailable(err);
    char note[64];
    snprintf(note, sizeof note, "%.16s 0", id);
    const char *n[] = {note};
    pthread_mutex_lock(&c->lock);
    PGresult *r = run(c, "notify", 1, n, PGRES_TUPLES_OK, err, "notify");
    pthread_mutex_unlock(&c->lock);
    tg_code rc = r ? TG_OK : TG_EINTERNAL;
    PQclear(r);
    return judge(c, rc, err);
}

static const tg_store_ops pg_ops = {"postgresql", pg_close, pg_insert, pg_load, pg_save, pg_archive, pg_pending, pg_announce};

/* Applies missing migrations under an advisory lock, so that servers that
 * start together do not race. */
static int migrate(pg *c, int *version, tc_error *err)
{
    if (simple(c, "BEGIN", err) || simple(c, "SELECT pg_advisory_xact_lock(7346001)", err) ||
        simple(c, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", err))
        return PQclear(PQexec(c->db, "ROLLBACK")), -1;
    PGresult *r = PQexec(c->db, "SELECT COALESCE(MAX(version), 0) FROM schema_version");
    int cur = PQresultStatus(r) == PGRES_TUPLES_OK ? atoi(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    for (int i = 0; i < tg_nmigrations; i++) {
        if (tg_migrations[i].version <= cur)
            continue;
        char ins[96];
        snprintf(ins, sizeof ins, "INSERT INTO schema_version (version) VALUES (%d)", tg_migrations[i].version);
        if (simple(c, tg_migrations[i].sql, err) || simple(c, ins, err))
            return PQclear(PQexec(c->db, "ROLLBACK")), -1;
        cur = tg_migrations[i].version;
    }
    if (simple(c, "COMMIT", err))
        return -1;
    *version = cur;
    return 0;
}

tg_store *tg_store_open_pg(const char *url, tc_error *err)
{
    pg *c = calloc(1, sizeof *c);
    tg_store *st = calloc(1, sizeof *st);
    if (!c || !st) {
        free(c);
        free(st);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    st->ops = &pg_ops;
    st->conn = c;
    c->db = PQconnectdb(url);
    if (PQstatus(c->db) != CONNECTION_OK) {
        pg_fail(c, err, "connect", NULL);
        pg_close(st);
        return NULL;
    }
    PQclear(PQexec(c->db, "SET client_min_messages = warning"));
    if (migrate(c, &st->schema_version, err)) {
        pg_close(st);
        return NULL;
    }
    if (prepare_all(c, err)) {
        pg_close(st);
        return NULL;
    }
    return st;
}

static int prepare_all(pg *c, tc_error *err)
{
    PQclear(PQexec(c->db, "SET client_min_messages = warning"));
    for (size_t i = 0; i < sizeof prepared / sizeof prepared[0]; i++) {
        PGresult *r = PQprepare(c->db, prepared[i].name, prepared[i].sql, prepared[i].nparams, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            pg_fail(c, err, prepared[i].name, r);
            PQclear(r);
            return -1;
        }
        PQclear(r);
    }
    return 0;
}

/* ---------------------------------------------------------------- listening */

struct tg_listener {
    PGconn *db;
    char channel[32];
    pthread_t thread;
    atomic_int stop;
    atomic_int lost, regained; /* connections lost and made again */
    tg_change_fn fn;
    void *ctx;
};

/* Sleeps ms in short steps; 1 when asked to stop. */
static int nap(tg_listener *l, int ms)
{
    for (; ms > 0 && !atomic_load(&l->stop); ms -= 100) {
        struct timespec ts = {0, (long)(ms < 100 ? ms : 100) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return atomic_load(&l->stop);
}

static int listen_now(PGconn *db, const char *channel)
{
    char sql[64];
    snprintf(sql, sizeof sql, "LISTEN %s", channel);
    PGresult *r = PQstatus(db) == CONNECTION_OK ? PQexec(db, sql) : NULL;
    int ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    return ok ? 0 : -1;
}

/* Reads notifications; when the connection is lost, tells the callback
 * (id NULL, version 0: changes may be missed from now), makes it again
 * with backoff, listens again and tells (id NULL, version 1: resynchronise
 * now). */
static void *listen_loop(void *arg)
{
    tg_listener *l = arg;
    while (!atomic_load(&l->stop)) {
        int sock = PQsocket(l->db);
        if (sock >= 0) {
            fd_set in;
            FD_ZERO(&in);
            FD_SET(sock, &in);
            struct timeval tv = {0, 100 * 1000}; /* wake to see stop */
            if (select(sock + 1, &in, NULL, NULL, &tv) < 0)
                continue;
        }
        if (sock >= 0 && PQconsumeInput(l->db) && PQstatus(l->db) == CONNECTION_OK) {
            PGnotify *n;
            while ((n = PQnotifies(l->db))) {
                char id[TG_ID_LEN + 1] = "";
                long long version = 0;
                if (sscanf(n->extra, "%16s %lld", id, &version) == 2)
                    l->fn(id, version, l->ctx);
                PQfreemem(n);
            }
            continue;
        }
        l->fn(NULL, 0, l->ctx);
        atomic_fetch_add(&l->lost, 1);
        for (int backoff = BACKOFF_MIN; !nap(l, backoff); backoff = next_backoff(backoff)) {
            PQreset(l->db);
            if (!listen_now(l->db, l->channel)) {
                atomic_fetch_add(&l->regained, 1);
                l->fn(NULL, 1, l->ctx);
                break;
            }
        }
    }
    return NULL;
}

tg_listener *tg_store_listen_pg(const char *url, const char *channel, tg_change_fn fn, void *ctx, tc_error *err)
{
    tg_listener *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    l->fn = fn;
    l->ctx = ctx;
    snprintf(l->channel, sizeof l->channel, "%s", channel);
    l->db = PQconnectdb(url);
    if (listen_now(l->db, l->channel)) {
        snprintf(err->msg, sizeof err->msg, "postgresql: listen: %.200s", PQerrorMessage(l->db));
        PQfinish(l->db);
        free(l);
        return NULL;
    }
    if (pthread_create(&l->thread, NULL, listen_loop, l)) {
        snprintf(err->msg, sizeof err->msg, "cannot start the listener thread");
        PQfinish(l->db);
        free(l);
        return NULL;
    }
    return l;
}

void tg_listener_stop(tg_listener *l)
{
    if (!l)
        return;
    atomic_store(&l->stop, 1);
    pthread_join(l->thread, NULL);
    PQfinish(l->db);
    free(l);
}
