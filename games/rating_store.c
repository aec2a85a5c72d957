/* Counting rated results (rating_store.h). */
#include "rating_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

typedef struct {
    int found;
    char game_id[TG_ID_LEN + 1], variant[64], white[TP_ID_LEN + 1], black[TP_ID_LEN + 1], result[8];
    int nmoves;
    int64_t ended_ms;
} next_game;

static int next_row(void *ctx, int n, const char *const *v)
{
    next_game *g = ctx;
    if (n >= 7) {
        g->found = 1;
        copy(g->game_id, sizeof g->game_id, v[0]);
        copy(g->variant, sizeof g->variant, v[1]);
        copy(g->white, sizeof g->white, v[2]);
        copy(g->black, sizeof g->black, v[3]);
        copy(g->result, sizeof g->result, v[4]);
        g->nmoves = atoi(v[5]);
        g->ended_ms = strtoll(v[6], NULL, 10);
    }
    return 1;
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(long long *)ctx = n > 0 ? strtoll(v[0], NULL, 10) : 0;
    return 1;
}

typedef struct {
    const char *white, *black;
    tg_rating w, b;
    int got;
} locked;

static int rating_row(void *ctx, int n, const char *const *v)
{
    locked *l = ctx;
    if (n >= 4) {
        tg_rating r = {strtod(v[1], NULL), strtod(v[2], NULL), strtod(v[3], NULL)};
        if (!strcmp(v[0], l->white))
            l->w = r, l->got |= 1;
        if (!strcmp(v[0], l->black))
            l->b = r, l->got |= 2;
    }
    return 0;
}

/* The new ratings of both players, from rows locked in this transaction. */
static int update_ratings(tp_db *d, const next_game *g, int64_t now_ms, tp_counted *out, tc_error *err)
{
    int pg = tp_db_shared(d);
    /* both rows exist before they are locked (a first game inserts the
     * start rating), in one order (by user id) so that two transactions
     * never wait for each other in a circle */
    const char *first = strcmp(g->white, g->black) < 0 ? g->white : g->black;
    const char *second = first == g->white ? g->black : g->white;
    tg_rating s = tg_rating_new();
    char r[32], rd[32], vol[32];
    snprintf(r, sizeof r, "%.17g", s.r);
    snprintf(rd, sizeof rd, "%.17g", s.rd);
    snprintf(vol, sizeof vol, "%.17g", s.vol);
    const char *users[2] = {first, second};
    for (int i = 0; i < 2; i++) {
        tp_arg a[] = {TP_TEXT(users[i]), TP_TEXT(g->variant), TP_TEXT(r), TP_TEXT(rd), TP_TEXT(vol), TP_INT(now_ms)};
        if (tp_db_exec(d,
                       "INSERT INTO ratings (user_id, variant, rating, rd, vol, games, updated_ms) VALUES (?1, ?2, "
                       "CAST(?3 AS DOUBLE PRECISION), CAST(?4 AS DOUBLE PRECISION), CAST(?5 AS DOUBLE PRECISION), 0, "
                       "?6) ON CONFLICT (user_id, variant) DO NOTHING",
                       a, 6, NULL, NULL, err) < 0)
            return -1;
    }
    locked l = {g->white, g->black, s, s, 0};
    tp_arg a[] = {TP_TEXT(g->variant), TP_TEXT(first), TP_TEXT(second)};
    if (tp_db_exec(d,
                   pg ? "SELECT user_id, rating, rd, vol FROM ratings WHERE variant = ?1 AND user_id IN (?2, ?3) "
                        "ORDER BY user_id FOR UPDATE"
                      : "SELECT user_id, rating, rd, vol FROM ratings WHERE variant = ?1 AND user_id IN (?2, ?3) "
                        "ORDER BY user_id",
                   a, 3, rating_row, &l, err) < 0)
        return -1;
    if (l.got != 3) {
        snprintf(err->msg, sizeof err->msg, "the ratings of game %s's players are missing", g->game_id);
        return -1;
    }
    double ws = !strcmp(g->result, "1-0") ? 1.0 : !strcmp(g->result, "0-1") ? 0.0 : 0.5;
    out->white = tg_rating_after_game(l.w, l.b, ws);
    out->black = tg_rating_after_game(l.b, l.w, 1.0 - ws);
    if (tp_rating_record(d, g->white, g->variant, out->white, now_ms, g->game_id, err) ||
        tp_rating_record(d, g->black, g->variant, out->black, now_ms, g->game_id, err))
        return -1;
    return 0;
}

/* Whether the result counts: 1, or 0 with the note saying why not. */
static int counts(tp_db *d, const next_game *g, char *note, size_t n, tc_error *err)
{
    if (!strcmp(g->result, TG_RESULT_ABORTED)) {
        snprintf(note, n, "%s", TP_NOTE_ABORTED);
        return 0;
    }
    if (g->nmoves < TP_MIN_PLIES) {
        snprintf(note, n, "%s", TP_NOTE_UNPLAYED);
        return 0;
    }
    tp_arg a[] = {TP_TEXT(g->white), TP_TEXT(g->black), TP_INT(g->ended_ms - TP_PAIR_WINDOW_MS)};
    long long pair = 0;
    if (tp_db_exec(d,
                   "SELECT COUNT(*) FROM rated_games r JOIN games g ON g.id = r.game_id WHERE r.counted = 1 AND "
                   "((r.white_user = ?1 AND r.black_user = ?2) OR (r.white_user = ?2 AND r.black_user = ?1)) AND "
                   "g.updated_ms > ?3",
                   a, 3, first_int, &pair, err) < 0)
        return -1;
    if (pair >= TP_PAIR_LIMIT) {
        snprintf(note, n, "%s", TP_NOTE_FARMING);
        return 0;
    }
    return 1;
}

static int count_in(tp_db *d, int64_t now_ms, tp_counted *out, tc_error *err)
{
    next_game g;
    memset(&g, 0, sizeof g);
    /* the oldest end first; on PostgreSQL its row is locked, so a second
     * process waits for it and then finds it handled */
    if (tp_db_exec(d,
                   tp_db_shared(d)
                       ? "SELECT rg.game_id, rg.variant, rg.white_user, rg.black_user, g.result, g.nmoves, g.updated_ms "
                         "FROM rated_games rg JOIN games g ON g.id = rg.game_id WHERE rg.applied = 0 AND rg.rated = 1 "
                         "AND g.result <> '*' ORDER BY g.updated_ms, rg.game_id LIMIT 1 FOR UPDATE OF rg"
                       : "SELECT rg.game_id, rg.variant, rg.white_user, rg.black_user, g.result, g.nmoves, g.updated_ms "
                         "FROM rated_games rg JOIN games g ON g.id = rg.game_id WHERE rg.applied = 0 AND rg.rated = 1 "
                         "AND g.result <> '*' ORDER BY g.updated_ms, rg.game_id LIMIT 1",
                   NULL, 0, next_row, &g, err) < 0)
        return -1;
    if (!g.found)
        return 0;
    copy(out->game_id, sizeof out->game_id, g.game_id);
    int c = counts(d, &g, out->note, sizeof out->note, err);
    if (c < 0 || (c == 1 && update_ratings(d, &g, now_ms, out, err)))
        return -1;
    out->counted = c;
    tp_arg a[] = {TP_TEXT(g.game_id), TP_INT(c), TP_TEXT(c ? "" : out->note)};
    int rc = tp_db_exec(d, "UPDATE rated_games SET applied = 1, counted = ?2, note = ?3 WHERE game_id = ?1 AND applied = 0",
                        a, 3, NULL, NULL, err);
    if (rc < 0)
        return -1;
    if (rc != 1) {
        snprintf(err->msg, sizeof err->msg, "the result of game %s was counted meanwhile", g.game_id);
        return -1;
    }
    return 1;
}

int tp_result_count_next(tp_db *d, int64_t now_ms, tp_counted *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    if (tp_db_begin(d, err))
        return -1;
    int rc = count_in(d, now_ms, out, err);
    if (rc == 1)
        return tp_db_end(d, 1, err) ? -1 : 1;
    tp_db_end(d, 0, err);
    return rc;
}
