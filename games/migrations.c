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
    {3, "CREATE TABLE users ("
        " id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
        " pwhash TEXT NOT NULL, created_ms BIGINT NOT NULL);"
        "CREATE TABLE sessions ("
        " id_hash TEXT PRIMARY KEY,"
        " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
        " csrf TEXT NOT NULL, created_ms BIGINT NOT NULL, expires_ms BIGINT NOT NULL, seen_ms BIGINT NOT NULL);"
        "CREATE INDEX sessions_by_user ON sessions (user_id);"
        "CREATE TABLE login_failures (subject TEXT NOT NULL, at_ms BIGINT NOT NULL);"
        "CREATE INDEX login_failures_by_subject ON login_failures (subject, at_ms);"
        "CREATE TABLE ratings ("
        " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, variant TEXT NOT NULL,"
        " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, vol DOUBLE PRECISION NOT NULL,"
        " games INTEGER NOT NULL, updated_ms BIGINT NOT NULL, PRIMARY KEY (user_id, variant));"
        "CREATE TABLE rating_history ("
        " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, variant TEXT NOT NULL,"
        " at_ms BIGINT NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
        " game_id TEXT NOT NULL);"
        "CREATE INDEX rating_history_by_user ON rating_history (user_id, variant, at_ms);"},
    {4, "CREATE TABLE seeks ("
        " id TEXT PRIMARY KEY,"
        " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, name TEXT NOT NULL,"
        " variant TEXT NOT NULL, clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL,"
        " increment_ms BIGINT NOT NULL, days INTEGER NOT NULL, rated INTEGER NOT NULL, color TEXT NOT NULL,"
        " min_rating INTEGER NOT NULL, max_rating INTEGER NOT NULL, rating INTEGER NOT NULL,"
        " provisional INTEGER NOT NULL, created_ms BIGINT NOT NULL, seen_ms BIGINT NOT NULL,"
        " taken_by TEXT NOT NULL, game_id TEXT NOT NULL, owner_token TEXT NOT NULL,"
        " target_user TEXT NOT NULL, target_name TEXT NOT NULL);"
        "CREATE INDEX seeks_by_user ON seeks (user_id);"
        "CREATE TABLE rated_games ("
        " game_id TEXT PRIMARY KEY, variant TEXT NOT NULL,"
        " white_user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
        " black_user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
        " rated INTEGER NOT NULL, applied INTEGER NOT NULL, created_ms BIGINT NOT NULL);"
        "CREATE INDEX rated_games_pending ON rated_games (applied, created_ms);"},
    /* the players' chat of a game (server/game_chat.c) */
    {5, "CREATE TABLE game_chat ("
        " game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, seq INTEGER NOT NULL,"
        " side INTEGER NOT NULL, text TEXT NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (game_id, seq));"},
    /* variant pages written in the browser (page_store.h) */
    {6, "CREATE TABLE pages ("
        " slug_key TEXT PRIMARY KEY, slug TEXT NOT NULL, author_id TEXT NOT NULL,"
        " state INTEGER NOT NULL, head_rev INTEGER NOT NULL, published_rev INTEGER NOT NULL,"
        " created_ms BIGINT NOT NULL, updated_ms BIGINT NOT NULL);"
        "CREATE INDEX pages_by_state ON pages (state, updated_ms);"
        "CREATE TABLE page_revisions ("
        " slug_key TEXT NOT NULL REFERENCES pages(slug_key) ON DELETE CASCADE, rev INTEGER NOT NULL,"
        " author_id TEXT NOT NULL, author_name TEXT NOT NULL, at_ms BIGINT NOT NULL, body TEXT NOT NULL,"
        " PRIMARY KEY (slug_key, rev));"
        "CREATE INDEX page_revisions_by_author ON page_revisions (author_id, at_ms);"
        "CREATE TABLE editors ("
        " user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE, granted_ms BIGINT NOT NULL);"
        "CREATE TABLE pages_version (id INTEGER PRIMARY KEY, version BIGINT NOT NULL);"
        "INSERT INTO pages_version (id, version) VALUES (1, 0);"},
    /* people (docs/accounts.md): the address a seek came from (the limit
     * per address), the players' ratings when a lobby game began (the
     * archive shows them, not today's), the spectators each process has of
     * a game (summed across processes; rows of a process that stopped
     * beating expire), and the players who opened their chat to watchers */
    {7, "ALTER TABLE seeks ADD COLUMN addr TEXT NOT NULL DEFAULT '';"
        "ALTER TABLE rated_games ADD COLUMN white_r DOUBLE PRECISION;"
        "ALTER TABLE rated_games ADD COLUMN white_rd DOUBLE PRECISION;"
        "ALTER TABLE rated_games ADD COLUMN black_r DOUBLE PRECISION;"
        "ALTER TABLE rated_games ADD COLUMN black_rd DOUBLE PRECISION;"
        "CREATE INDEX seeks_by_addr ON seeks (addr);"
        "CREATE TABLE game_watchers ("
        " game_id TEXT NOT NULL, process TEXT NOT NULL, n INTEGER NOT NULL, seen_ms BIGINT NOT NULL,"
        " PRIMARY KEY (game_id, process));"
        "CREATE TABLE chat_open ("
        " game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, side INTEGER NOT NULL,"
        " PRIMARY KEY (game_id, side));"},
    /* ratings (docs/accounts.md): whether a lobby game's result changed
     * the ratings (counted) or why not (note: aborted, too few moves, the
     * farming limit), and taken seeks kept (told: the owner's stream was
     * sent its game) so that a late accept is told "taken" (409), not
     * "no such seek". Results counted before this migration counted. */
    {8, "ALTER TABLE rated_games ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;"
        "ALTER TABLE rated_games ADD COLUMN note TEXT NOT NULL DEFAULT '';"
        "UPDATE rated_games SET counted = 1 WHERE applied = 1 AND rated = 1 AND game_id IN "
        "(SELECT id FROM games WHERE result IN ('1-0', '0-1', '1/2-1/2'));"
        "ALTER TABLE seeks ADD COLUMN told INTEGER NOT NULL DEFAULT 0;"
        "CREATE INDEX games_ended ON games (updated_ms) WHERE result <> '*';"},
    /* correspondence (docs/correspondence.md): the length of a game's day
     * (serve --day-ms shortens it for tests; a game keeps the length it was
     * made with), and the players' inbox (notify_store.h) */
    {9, "ALTER TABLE games ADD COLUMN day_ms BIGINT NOT NULL DEFAULT 86400000;"
        "CREATE TABLE notifications ("
        " id TEXT PRIMARY KEY,"
        " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
        " kind TEXT NOT NULL, game_id TEXT NOT NULL, text TEXT NOT NULL, url TEXT NOT NULL,"
        " created_ms BIGINT NOT NULL, read INTEGER NOT NULL);"
        "CREATE INDEX notifications_by_user ON notifications (user_id, created_ms);"
        "CREATE INDEX notifications_by_age ON notifications (created_ms);"
        "CREATE INDEX rated_games_by_white ON rated_games (white_user);"
        "CREATE INDEX rated_games_by_black ON rated_games (black_user);"},
    /* tournaments (docs/tournaments.md):
     * the events (arena or round-robin; sched_key names an operator's
     * scheduled one, so that every process makes it once), their players
     * with the arena's score and streak, the games with their round and
     * the points counted, and the pairer's lease (one pairer at a time
     * across processes) */
    {10, "CREATE TABLE tournaments ("
         " id TEXT PRIMARY KEY, name TEXT NOT NULL, kind INTEGER NOT NULL, variant TEXT NOT NULL,"
         " clock_kind INTEGER NOT NULL, initial_ms BIGINT NOT NULL, increment_ms BIGINT NOT NULL,"
         " days INTEGER NOT NULL, rated INTEGER NOT NULL,"
         " creator_id TEXT NOT NULL, creator_name TEXT NOT NULL, sched_key TEXT NOT NULL,"
         " starts_ms BIGINT NOT NULL, minutes INTEGER NOT NULL, ends_ms BIGINT NOT NULL,"
         " max_players INTEGER NOT NULL, state INTEGER NOT NULL, round INTEGER NOT NULL,"
         " winner_id TEXT NOT NULL, winner_name TEXT NOT NULL,"
         " created_ms BIGINT NOT NULL, finished_ms BIGINT NOT NULL, version BIGINT NOT NULL);"
         "CREATE INDEX tournaments_by_state ON tournaments (state, starts_ms);"
         "CREATE INDEX tournaments_by_creator ON tournaments (creator_id, state);"
         "CREATE UNIQUE INDEX tournaments_sched ON tournaments (sched_key) WHERE sched_key <> '';"
         "CREATE TABLE tournament_players ("
         " tid TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,"
         " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE, name TEXT NOT NULL,"
         " active INTEGER NOT NULL, seat INTEGER NOT NULL, score INTEGER NOT NULL, streak INTEGER NOT NULL,"
         " games INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL, whites INTEGER NOT NULL,"
         " last_opp TEXT NOT NULL, playing TEXT NOT NULL, waiting_ms BIGINT NOT NULL, joined_ms BIGINT NOT NULL,"
         " PRIMARY KEY (tid, user_id));"
         "CREATE INDEX tournament_players_by_user ON tournament_players (user_id);"
         "CREATE TABLE tournament_games ("
         " game_id TEXT PRIMARY KEY, tid TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,"
         " round INTEGER NOT NULL, white_user TEXT NOT NULL, black_user TEXT NOT NULL,"
         " result TEXT NOT NULL, white_pts INTEGER NOT NULL, black_pts INTEGER NOT NULL,"
         " counted INTEGER NOT NULL, created_ms BIGINT NOT NULL, ended_ms BIGINT NOT NULL);"
         "CREATE INDEX tournament_games_by_tid ON tournament_games (tid, created_ms);"
         "CREATE TABLE tournament_lease (name TEXT PRIMARY KEY, owner TEXT NOT NULL, until_ms BIGINT NOT NULL);"
         "INSERT INTO tournament_lease (name, owner, until_ms) VALUES ('pairer', '', 0);"},
    /* the inbox tells a tournament's players once that it is about to start
     * (server/tourney_pairer.c) */
    {11, "ALTER TABLE tournaments ADD COLUMN told INTEGER NOT NULL DEFAULT 0;"},
    /* the server's computer analysis of finished games (docs/analysis.md,
     * games/analysis_store.h): a job a game, its requester (fairness and
     * limits), its lease (one worker at a time) and, once done, its result */
    {12, "CREATE TABLE analysis ("
         " game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,"
         " requester TEXT NOT NULL, state INTEGER NOT NULL, nodes BIGINT NOT NULL,"
         " owner TEXT NOT NULL, lease_ms BIGINT NOT NULL,"
         " done INTEGER NOT NULL, total INTEGER NOT NULL, attempts INTEGER NOT NULL,"
         " created_ms BIGINT NOT NULL, started_ms BIGINT NOT NULL, done_ms BIGINT NOT NULL,"
         " result TEXT NOT NULL);"
         "CREATE INDEX analysis_by_state ON analysis (state, created_ms);"
         "CREATE INDEX analysis_by_requester ON analysis (requester, state);"},
    /* puzzles on the hub (docs/puzzles.md, "On the hub"): the puzzles
     * (kind 'ending' from the solved endings, 'tactic' from play; themes
     * space-separated; moves in coordinates, space-separated; a Glicko-2
     * rating of their own), one overall puzzle rating per player, every
     * attempt (n = 0 is the rated one: the key makes it once), and the
     * puzzle of each UTC day per variant, chosen once */
    {13, "CREATE TABLE puzzles ("
         " id TEXT PRIMARY KEY, variant TEXT NOT NULL, kind TEXT NOT NULL, material TEXT NOT NULL,"
         " fen TEXT NOT NULL, side INTEGER NOT NULL, mate_in INTEGER NOT NULL,"
         " accepted TEXT NOT NULL, line TEXT NOT NULL, line_san TEXT NOT NULL,"
         " themes TEXT NOT NULL, title TEXT NOT NULL,"
         " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, vol DOUBLE PRECISION NOT NULL,"
         " plays INTEGER NOT NULL, solves INTEGER NOT NULL, created_ms BIGINT NOT NULL);"
         "CREATE INDEX puzzles_by_variant ON puzzles (variant, rating);"
         "CREATE TABLE puzzle_players ("
         " user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,"
         " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, vol DOUBLE PRECISION NOT NULL,"
         " attempts INTEGER NOT NULL, solved INTEGER NOT NULL, updated_ms BIGINT NOT NULL);"
         "CREATE TABLE puzzle_attempts ("
         " user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,"
         " puzzle_id TEXT NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE, n INTEGER NOT NULL,"
         " solved INTEGER NOT NULL, rated INTEGER NOT NULL,"
         " before_r DOUBLE PRECISION NOT NULL, after_r DOUBLE PRECISION NOT NULL,"
         " moves TEXT NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (user_id, puzzle_id, n));"
         "CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, at_ms);"
         "CREATE TABLE puzzle_daily ("
         " day INTEGER NOT NULL, variant TEXT NOT NULL, puzzle_id TEXT NOT NULL, PRIMARY KEY (day, variant));"},
};
const int tg_nmigrations = (int)(sizeof tg_migrations / sizeof tg_migrations[0]);
