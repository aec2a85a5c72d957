/* Where hosted games live: one interface, two backends. SQLite (a file, WAL
 * mode) is the embedded default; PostgreSQL (through libpq) lets several
 * server processes share the games, with LISTEN/NOTIFY to tell each other
 * that a game changed. A server process keeps no game state that another
 * process needs: every change is written, in one transaction, before it is
 * acknowledged. Statements are prepared, with every value bound. */
#ifndef TG_STORE_H
#define TG_STORE_H

#include "game.h"
#include "summary.h"

typedef struct tg_store tg_store;

/// What the archive asks for: every field optional ("" or 0: no filter).
typedef struct tg_archive_query {
    const char *id;      /* one game */
    const char *variant; /* a variant's slug */
    const char *player;  /* an account's name key (lower case): either side */
    const char *result;  /* "1-0", "0-1", "1/2-1/2" or "*" */
    int offset;          /* rows skipped (pages) */
} tg_archive_query;

/* Opens a store: "postgresql://..." or "postgres://..." (a libpq URI) for
 * PostgreSQL, anything else as the path of an SQLite file (created when
 * missing). Applies the schema migrations that the store lacks. NULL with
 * the reason in err. */
tg_store *tg_store_open(const char *url, tc_error *err);
void tg_store_close(tg_store *s);
/* "sqlite" or "postgresql". */
const char *tg_store_kind(const tg_store *s);
/* The schema version the store is at after opening. */
int tg_store_schema_version(const tg_store *s);

/* Writes a new game (its record and moves). TG_OK or TG_EINTERNAL. */
tg_code tg_store_insert(tg_store *s, const tg_game *g, tc_error *err);
/* Reads a game's record and moves into g (not rebuilt: call
 * tg_game_rebuild). TG_ENOTFOUND when there is no such game. */
tg_code tg_store_load(tg_store *s, const char *id, tg_game *g, tc_error *err);
/* Writes a changed game in one transaction, only if the stored version is
 * still `expected_version` (else TG_ECONFLICT: another request or process
 * changed it first; reload and retry). `stored_moves` is how many moves the
 * store held before (moves beyond the game's count are deleted, as after a
 * takeback; new ones are inserted). Notifies listeners on PostgreSQL. */
tg_code tg_store_save(tg_store *s, const tg_game *g, int64_t expected_version, int stored_moves,
                      tc_error *err);
/* The most recently changed games (of one variant when variant is not NULL
 * or empty), newest first; the count written, or -1 with err (-2 when the
 * database cannot be reached now: retry later).
 *
 * On PostgreSQL a lost connection is made again on a later call (backoff
 * 0.1 s doubling to 5 s); meanwhile every call fails at once with
 * TG_EUNAVAILABLE. */
int tg_store_list(tg_store *s, const char *variant, int max, tg_game_summary *out, tc_error *err);
/* The archive: games matching q, newest first, with their players from
 * the lobby's rated_games (tg_store_list is this with a variant only). The
 * count written, or -1 (-2: unreachable) with err. */
int tg_store_archive(tg_store *s, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err);

/* Tells the other processes' listeners that something about game id
 * changed without a new version (PostgreSQL NOTIFY "ID 0"; on SQLite,
 * with one process, nothing). TG_OK or an error. */
tg_code tg_store_announce(tg_store *s, const char *id, tc_error *err);

/* The active games that may wait for the server (ids after `after`, in id
 * order, at most max): the engine to move, or a clock whose flag may have
 * fallen by now_ms. A superset: the caller loads each and judges. Pages
 * through every such game, however old (a restart finds them all). The
 * count written, or -1 (-2: unreachable) with err. */
int tg_store_pending(tg_store *s, const char *after, int64_t now_ms, int max, tg_game_summary *out, tc_error *err);

/* The condition of tg_store_pending, with each backend's placeholders
 * (TG_ABANDON_MS written out: game.h's value). */
#define SQL_ABANDON_MS "300000"
_Static_assert(TG_ABANDON_MS == 300000, "SQL_ABANDON_MS must be TG_ABANDON_MS");
#define TG_PENDING_SQL(a, n, m)                                                                          \
    "SELECT id, variant, result, termination, nmoves, engine_side, created_ms, updated_ms "             \
    "FROM games WHERE result = '*' AND id > " a " AND ("                                                   \
    "(engine_side >= 0 AND (nmoves + CASE WHEN start_fen LIKE '% b %' THEN 1 ELSE 0 END) % 2 = engine_side) OR " \
    "(clock_kind = 1 AND nmoves < 2 AND turn_started_ms + " SQL_ABANDON_MS " <= " n ") OR "                   \
    "(clock_kind = 1 AND nmoves >= 2 AND "                                                                     \
    "turn_started_ms + CASE WHEN white_ms < black_ms THEN white_ms ELSE black_ms END <= " n ") OR "                \
    "(clock_kind = 2 AND turn_started_ms + days * day_ms <= " n ")) ORDER BY id LIMIT " m ""

/* The archive's query, with each backend's placeholders: limit, id,
 * variant, player, result, offset ("" for no filter). The ratings are
 * those kept with a lobby game when it began (today's for rows from
 * before migration 7). */
#define TG_ARCHIVE_SQL(lim, id, v, pl, res, off)                                                              \
    "SELECT g.id, g.variant, g.result, g.termination, g.nmoves, g.engine_side, g.created_ms, g.updated_ms, "    \
    "COALESCE(w.name, ''), COALESCE(b.name, ''), COALESCE(rg.white_r, wr.rating, 0), "                          \
    "COALESCE(rg.black_r, br.rating, 0), COALESCE(rg.rated, 0), COALESCE(rg.white_rd, wr.rd, -1), "             \
    "COALESCE(rg.black_rd, br.rd, -1), COALESCE(tn.id, ''), COALESCE(tn.name, '') "                              \
    "FROM games g LEFT JOIN rated_games rg ON rg.game_id = g.id "                                                \
    "LEFT JOIN tournament_games tg ON tg.game_id = g.id LEFT JOIN tournaments tn ON tn.id = tg.tid "            \
    "LEFT JOIN users w ON w.id = rg.white_user LEFT JOIN users b ON b.id = rg.black_user "                       \
    "LEFT JOIN ratings wr ON wr.user_id = rg.white_user AND wr.variant = g.variant "                             \
    "LEFT JOIN ratings br ON br.user_id = rg.black_user AND br.variant = g.variant "                             \
    "WHERE (CAST(" id " AS TEXT) = '' OR g.id = " id ") AND (CAST(" v " AS TEXT) = '' OR g.variant = " v ") "   \
    "AND (CAST(" pl " AS TEXT) = '' OR w.name_key = " pl " OR b.name_key = " pl ") "                            \
    "AND (CAST(" res " AS TEXT) = '' OR g.result = " res ") ORDER BY g.updated_ms DESC, g.id LIMIT " lim         \
    " OFFSET " off

/* Listening for changes made by other processes (PostgreSQL): the callback
 * gets the id of each game that changed. tg_store_listen starts a thread on
 * its own connection; on SQLite it does nothing and returns 0. When that
 * connection is lost the callback gets id NULL and version 0 (changes may
 * be missed from now); once it is made again (backoff 0.1 s doubling to
 * 5 s) and listens again, id NULL and version 1 (resynchronise: what
 * changed meanwhile was not announced). */
typedef void (*tg_change_fn)(const char *id, int64_t version, void *ctx);
typedef struct tg_listener tg_listener;
tg_listener *tg_store_listen(const char *url, tg_change_fn fn, void *ctx, tc_error *err);
/* The same on another channel (a plain identifier; the lobby's is
 * "tg_lobby"): payloads "WORD NUMBER" reach fn as (WORD, NUMBER). */
tg_listener *tg_store_listen_on(const char *url, const char *channel, tg_change_fn fn, void *ctx, tc_error *err);
void tg_listener_stop(tg_listener *l);

/* ---------------------------------------------------------------- backends */

/// What each backend provides; tg_store forwards to it.
typedef struct tg_store_ops {
    const char *kind;
    void (*close)(tg_store *s);
    tg_code (*insert)(tg_store *s, const tg_game *g, tc_error *err);
    tg_code (*load)(tg_store *s, const char *id, tg_game *g, tc_error *err);
    tg_code (*save)(tg_store *s, const tg_game *g, int64_t expected_version, int stored_moves, tc_error *err);
    int (*archive)(tg_store *s, const tg_archive_query *q, int max, tg_game_summary *out, tc_error *err);
    int (*pending)(tg_store *s, const char *after, int64_t now_ms, int max, tg_game_summary *out, tc_error *err);
    tg_code (*announce)(tg_store *s, const char *id, tc_error *err); /* NULL: nothing to do */
} tg_store_ops;

struct tg_store {
    const tg_store_ops *ops;
    void *conn;
    int schema_version;
};

tg_store *tg_store_open_sqlite(const char *path, tc_error *err);
tg_store *tg_store_open_pg(const char *url, tc_error *err);
tg_listener *tg_store_listen_pg(const char *url, const char *channel, tg_change_fn fn, void *ctx, tc_error *err);

/* The schema, as numbered migrations (migrations.c). Each is one SQL text
 * that runs on both SQLite and PostgreSQL. */
typedef struct tg_migration {
    int version;
    const char *sql;
} tg_migration;
extern const tg_migration tg_migrations[];
extern const int tg_nmigrations;

#endif
