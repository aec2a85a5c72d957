/* The hosted games' schema, as numbered migrations applied in order at
 * start (store.c). A migration, once released, is never edited: changes
 * come as a new one. Each runs on SQLite and PostgreSQL alike (portable
 * types: TEXT, INTEGER, BIGINT). */
#include "store.h"

const tg_migration tg_migrations[] = {
    {1, "CREATE TABLE games ("
        " id TEXT PRIMARY KEY,"
        " white_token TEXT NOT NULL, black_token TEXT NOT NULL,"
        " variant TEXT NOT NULL, title TEXT NOT NULL, description TEXT NOT NULL,"
        " width INTEGER NOT NULL, height INTEGER NOT NULL,"
        " files INTEGER NOT NULL, ranks INTEGER NOT NULL, seam INTEGER NOT NULL,"
        " setup TEXT NOT NULL, start_fen TEXT NOT NULL,"
        " clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL,"
        " days INTEGER NOT NULL,"
        " engine_side INTEGER NOT NULL, engine_level INTEGER NOT NULL,"
        " white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL, turn_started_ms BIGINT NOT NULL,"
        " draw_offer INTEGER NOT NULL, takeback_offer INTEGER NOT NULL,"
        " result TEXT NOT NULL, termination TEXT NOT NULL,"
        " nmoves INTEGER NOT NULL, version BIGINT NOT NULL,"
        " created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL);"
        "CREATE TABLE moves ("
        " game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
        " ply INTEGER NOT NULL,"
        " uci TEXT NOT NULL, san TEXT NOT NULL,"
        " at_ms BIGINT NOT NULL, clock_ms BIGINT NOT NULL,"
        " PRIMARY KEY (game_id, ply));"
        "CREATE INDEX games_by_update ON games (updated_ms);"
        "CREATE INDEX games_by_variant ON games (variant, updated_ms);"},
    /* the active games, for the rescan of games waiting for the server */
    {2, "CREATE INDEX games_active ON games (id) WHERE result = '*';"},
};
const int tg_nmigrations = (int)(sizeof tg_migrations / sizeof tg_migrations[0]);
