/* The lobby's rows (lobby_store.h). */
#include "lobby_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEK_COLS                                                                                             \
    "id, user_id, name, variant, clock_kind, initial_ms, increment_ms, days, rated, color, min_rating, "       \
    "max_rating, rating, provisional, created_ms, seen_ms, taken_by, game_id, owner_token, target_user, "     \
    "target_name"

#define SQL_NUM2(x) #x
#define SQL_NUM(x) SQL_NUM2(x)

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

int tp_seek_insert(tp_db *d, const tp_seek *s, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(s->addr), TP_TEXT(s->id), TP_TEXT(s->user_id), TP_TEXT(s->name), TP_TEXT(s->variant),
                  TP_INT(s->clock.kind), TP_INT(s->clock.initial_ms), TP_INT(s->clock.increment_ms),
                  TP_INT(s->clock.days), TP_INT(s->rated), TP_TEXT(s->color), TP_INT(s->min_rating),
                  TP_INT(s->max_rating), TP_INT(s->rating), TP_INT(s->provisional), TP_INT(s->created_ms),
                  TP_INT(s->seen_ms), TP_TEXT(s->target_user), TP_TEXT(s->target_name)};
    return tp_db_exec(d,
                      "INSERT INTO seeks (addr, " SEEK_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                      "?11, ?12, ?13, ?14, ?15, ?16, ?17, '', '', '', ?18, ?19)",
                      a, 19, NULL, NULL, err) < 0
               ? -1
               : 0;
}

typedef struct {
    tp_seek *out;
    int n, max;
} seek_rows;

static int seek_row(void *ctx, int n, const char *const *v)
{
    seek_rows *sr = ctx;
    if (sr->n >= sr->max || n < 21)
        return sr->n >= sr->max;
    tp_seek *s = &sr->out[sr->n++];
    memset(s, 0, sizeof *s);
    copy(s->id, sizeof s->id, v[0]);
    copy(s->user_id, sizeof s->user_id, v[1]);
    copy(s->name, sizeof s->name, v[2]);
    copy(s->variant, sizeof s->variant, v[3]);
    s->clock.kind = (tg_clock_kind)atoi(v[4]);
    s->clock.initial_ms = strtoll(v[5], NULL, 10);
    s->clock.increment_ms = strtoll(v[6], NULL, 10);
    s->clock.days = atoi(v[7]);
    s->rated = atoi(v[8]);
    copy(s->color, sizeof s->color, v[9]);
    s->min_rating = atoi(v[10]);
    s->max_rating = atoi(v[11]);
    s->rating = atoi(v[12]);
    s->provisional = atoi(v[13]);
    s->created_ms = strtoll(v[14], NULL, 10);
    s->seen_ms = strtoll(v[15], NULL, 10);
    copy(s->taken_by, sizeof s->taken_by, v[16]);
    copy(s->game_id, sizeof s->game_id, v[17]);
    copy(s->owner_token, sizeof s->owner_token, v[18]);
    copy(s->target_user, sizeof s->target_user, v[19]);
    copy(s->target_name, sizeof s->target_name, v[20]);
    return 0;
}

int tp_seeks_open(tp_db *d, tp_seek *out, int max, tc_error *err)
{
    seek_rows sr = {out, 0, max};
    tp_arg a[] = {TP_INT(max)};
    int rc = tp_db_exec(d, "SELECT " SEEK_COLS " FROM seeks WHERE taken_by = '' AND target_user = '' "
                        "ORDER BY created_ms, id LIMIT ?1", a,
                        1, seek_row, &sr, err);
    return rc < 0 ? -1 : sr.n;
}

int tp_challenges(tp_db *d, const char *user_id, int to, tp_seek *out, int max, tc_error *err)
{
    seek_rows sr = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d,
                        to ? "SELECT " SEEK_COLS " FROM seeks WHERE target_user = ?1 AND taken_by = '' "
                             "ORDER BY created_ms LIMIT ?2"
                           : "SELECT " SEEK_COLS " FROM seeks WHERE user_id = ?1 AND target_user <> '' AND "
                             "taken_by = '' ORDER BY created_ms LIMIT ?2",
                        a, 2, seek_row, &sr, err);
    return rc < 0 ? -1 : sr.n;
}

int tp_challenge_decline(tp_db *d, const char *id, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id), TP_TEXT(user_id)};
    return tp_db_exec(d, "DELETE FROM seeks WHERE id = ?1 AND target_user = ?2 AND taken_by = ''", a, 2, NULL, NULL,
                      err);
}

int tp_seek_get(tp_db *d, const char *id, tp_seek *out, tc_error *err)
{
    seek_rows sr = {out, 0, 1};
    tp_arg a[] = {TP_TEXT(id)};
    int rc = tp_db_exec(d, "SELECT " SEEK_COLS " FROM seeks WHERE id = ?1", a, 1, seek_row, &sr, err);
    return rc < 0 ? -1 : sr.n;
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(long long *)ctx = n > 0 ? strtoll(v[0], NULL, 10) : 0;
    return 1;
}

int tp_seeks_count_user(tp_db *d, const char *user_id, tc_error *err)
{
    long long n = 0;
    tp_arg a[] = {TP_TEXT(user_id)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM seeks WHERE user_id = ?1 AND taken_by = ''", a, 1, first_int, &n,
                        err);
    return rc < 0 ? -1 : (int)n;
}

int tp_seeks_count_addr(tp_db *d, const char *addr, tc_error *err)
{
    long long n = 0;
    tp_arg a[] = {TP_TEXT(addr)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM seeks WHERE addr = ?1 AND taken_by = ''", a, 1, first_int, &n, err);
    return rc < 0 ? -1 : (int)n;
}

int tp_games_live(tp_db *d, int64_t since_ms, tc_error *err)
{
    long long n = 0;
    tp_arg a[] = {TP_INT(since_ms)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM games WHERE result = '*' AND updated_ms >= ?1", a, 1, first_int, &n,
                        err);
    return rc < 0 ? -1 : (int)n;
}

int tp_seeks_count_open(tp_db *d, tc_error *err)
{
    long long n = 0;
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM seeks WHERE taken_by = ''", NULL, 0, first_int, &n, err);
    return rc < 0 ? -1 : (int)n;
}

int tp_seek_take(tp_db *d, const char *id, const char *by, const char *game_id, const char *owner_token,
                 tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id), TP_TEXT(by), TP_TEXT(game_id), TP_TEXT(owner_token)};
    return tp_db_exec(d,
                      "UPDATE seeks SET taken_by = ?2, game_id = ?3, owner_token = ?4 WHERE id = ?1 AND "
                      "taken_by = ''",
                      a, 4, NULL, NULL, err);
}

int tp_seeks_taken_of(tp_db *d, const char *user_id, tp_seek *out, int max, tc_error *err)
{
    seek_rows sr = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d, "SELECT " SEEK_COLS " FROM seeks WHERE user_id = ?1 AND taken_by <> '' AND told = 0 LIMIT ?2", a, 2,
                        seek_row, &sr, err);
    return rc < 0 ? -1 : sr.n;
}

int tp_seek_delete(tp_db *d, const char *id, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id), TP_TEXT(user_id)};
    return tp_db_exec(d, "DELETE FROM seeks WHERE id = ?1 AND user_id = ?2 AND taken_by = ''", a, 2, NULL, NULL, err);
}

int tp_seek_told(tp_db *d, const char *id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id)};
    return tp_db_exec(d, "UPDATE seeks SET told = 1 WHERE id = ?1", a, 1, NULL, NULL, err);
}

int tp_seeks_delete_user_open(tp_db *d, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id)};
    return tp_db_exec(d, "DELETE FROM seeks WHERE user_id = ?1 AND taken_by = '' AND target_user = '' AND clock_kind <> 2",
                      a, 1, NULL, NULL, err);
}

int tp_seeks_touch(tp_db *d, const char *user_id, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(now_ms)};
    return tp_db_exec(d, "UPDATE seeks SET seen_ms = ?2 WHERE user_id = ?1 AND taken_by = ''", a, 2, NULL, NULL,
                      err);
}

int tp_seeks_sweep(tp_db *d, int64_t stale_ms, int64_t old_ms, int64_t corr_old_ms, tc_error *err)
{
    tp_arg a[] = {TP_INT(stale_ms), TP_INT(old_ms), TP_INT(corr_old_ms)};
    return tp_db_exec(d,
                      "DELETE FROM seeks WHERE (taken_by = '' AND clock_kind <> 2 AND "
                      "((target_user = '' AND seen_ms < ?1) OR created_ms < ?2)) OR "
                      "(taken_by = '' AND clock_kind = 2 AND created_ms < ?3) OR (taken_by <> '' AND created_ms < ?2)",
                      a, 3, NULL, NULL, err);
}

int tp_lobby_game_insert(tp_db *d, const tp_lobby_game *g, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(g->game_id), TP_TEXT(g->variant), TP_TEXT(g->white), TP_TEXT(g->black), TP_INT(g->rated),
                  TP_INT(now_ms)};
    /* the players' ratings as the game begins, kept with it (the start
     * rating for a player with none in the variant yet) */
#define RATING_AT(col, user)                                                                                    \
    "COALESCE((SELECT " col " FROM ratings WHERE user_id = " user " AND variant = ?2), "
    return tp_db_exec(d,
                      "INSERT INTO rated_games (game_id, variant, white_user, black_user, rated, applied, "
                      "created_ms, white_r, white_rd, black_r, black_rd) VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, "
                      RATING_AT("rating", "?3") SQL_NUM(TG_RATING_START) "), " RATING_AT("rd", "?3") SQL_NUM(TG_RD_START) "), "
                      RATING_AT("rating", "?4") SQL_NUM(TG_RATING_START) "), " RATING_AT("rd", "?4") SQL_NUM(TG_RD_START) "))",
                      a, 6, NULL, NULL, err) < 0
               ? -1
               : 0;
}

typedef struct {
    tp_lobby_game *out;
    int n, max;
} game_rows;

static int game_row(void *ctx, int n, const char *const *v)
{
    game_rows *gr = ctx;
    if (gr->n >= gr->max || n < 5)
        return 1;
    tp_lobby_game *g = &gr->out[gr->n++];
    copy(g->game_id, sizeof g->game_id, v[0]);
    copy(g->variant, sizeof g->variant, v[1]);
    copy(g->white, sizeof g->white, v[2]);
    copy(g->black, sizeof g->black, v[3]);
    g->rated = atoi(v[4]);
    return 0;
}

int tp_lobby_games_pending(tp_db *d, tp_lobby_game *out, int max, tc_error *err)
{
    game_rows gr = {out, 0, max};
    tp_arg a[] = {TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT game_id, variant, white_user, black_user, rated FROM rated_games WHERE applied = 0 "
                        "AND rated = 1 ORDER BY created_ms LIMIT ?1",
                        a, 1, game_row, &gr, err);
    return rc < 0 ? -1 : gr.n;
}

int tp_lobby_game_get(tp_db *d, const char *game_id, tp_lobby_game *out, tc_error *err)
{
    game_rows gr = {out, 0, 1};
    tp_arg a[] = {TP_TEXT(game_id)};
    int rc = tp_db_exec(d, "SELECT game_id, variant, white_user, black_user, rated FROM rated_games WHERE game_id = ?1",
                        a, 1, game_row, &gr, err);
    return rc < 0 ? -1 : gr.n;
}

int tp_lobby_game_claim(tp_db *d, const char *game_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(game_id)};
    return tp_db_exec(d, "UPDATE rated_games SET applied = 1 WHERE game_id = ?1 AND applied = 0", a, 1, NULL, NULL,
                      err);
}

static int rating_row(void *ctx, int n, const char *const *v)
{
    tg_rating *r = ctx;
    if (n >= 3)
        *r = (tg_rating){strtod(v[0], NULL), strtod(v[1], NULL), strtod(v[2], NULL)};
    return 1;
}

int tp_rating_of(tp_db *d, const char *user_id, const char *variant, tg_rating *out, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_TEXT(variant)};
    int rc = tp_db_exec(d, "SELECT rating, rd, vol FROM ratings WHERE user_id = ?1 AND variant = ?2", a, 2,
                        rating_row, out, err);
    return rc < 0 ? -1 : rc > 0;
}

typedef struct {
    tp_played *out;
    int n, max;
} played_rows;

static int played_row(void *ctx, int n, const char *const *v)
{
    played_rows *pr = ctx;
    if (pr->n >= pr->max || n < 13)
        return 1;
    tp_played *p = &pr->out[pr->n++];
    copy(p->game_id, sizeof p->game_id, v[0]);
    copy(p->variant, sizeof p->variant, v[1]);
    copy(p->white, sizeof p->white, v[2]);
    copy(p->black, sizeof p->black, v[3]);
    p->rated = atoi(v[4]);
    p->created_ms = strtoll(v[5], NULL, 10);
    /* stored as the game began; NULL (read as "") in older rows */
    p->white_r = v[6] && *v[6] ? (int)(strtod(v[6], NULL) + 0.5) : 0;
    p->black_r = v[8] && *v[8] ? (int)(strtod(v[8], NULL) + 0.5) : 0;
    p->white_prov = v[7] && *v[7] && strtod(v[7], NULL) > TG_RD_PROVISIONAL;
    p->black_prov = v[9] && *v[9] && strtod(v[9], NULL) > TG_RD_PROVISIONAL;
    copy(p->note, sizeof p->note, v[10]);
    copy(p->tournament_id, sizeof p->tournament_id, v[11]);
    copy(p->tournament, sizeof p->tournament, v[12]);
    return 0;
}

int tp_lobby_games_of(tp_db *d, const char *user_id, tp_played *out, int max, tc_error *err)
{
    played_rows pr = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT g.game_id, g.variant, w.name, b.name, g.rated, g.created_ms, g.white_r, g.white_rd, "
                        "g.black_r, g.black_rd, g.note, COALESCE(tn.id, ''), COALESCE(tn.name, '') FROM rated_games g "
                        "JOIN users w ON w.id = g.white_user JOIN users b ON b.id = g.black_user "
                        "LEFT JOIN tournament_games tg ON tg.game_id = g.game_id "
                        "LEFT JOIN tournaments tn ON tn.id = tg.tid "
                        "WHERE g.white_user = ?1 OR g.black_user = ?1 ORDER BY g.created_ms DESC LIMIT ?2",
                        a, 2, played_row, &pr, err);
    return rc < 0 ? -1 : pr.n;
}
