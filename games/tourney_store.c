/* The tournaments' rows (tourney_store.h). */
#include "tourney_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_COLS                                                                                                 \
    "id, name, kind, variant, clock_kind, initial_ms, increment_ms, days, rated, creator_id, creator_name, "  \
    "sched_key, starts_ms, minutes, ends_ms, max_players, state, round, winner_id, winner_name, created_ms, "  \
    "finished_ms, version"
#define E_COLS                                                                                                 \
    "user_id, name, active, seat, score, streak, games, wins, draws, whites, last_opp, playing, waiting_ms, "  \
    "joined_ms"
#define G_COLS "game_id, round, white_user, black_user, result, white_pts, black_pts, counted, created_ms, ended_ms"

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }
static int64_t num(const char *s) { return s && *s ? strtoll(s, NULL, 10) : 0; }

typedef struct {
    void *out;
    int n, max;
} rows;

static int t_row(void *ctx, int n, const char *const *v)
{
    rows *r = ctx;
    if (r->n >= r->max || n < 23)
        return r->n >= r->max;
    tp_tourney *t = (tp_tourney *)r->out + r->n++;
    memset(t, 0, sizeof *t);
    copy(t->id, sizeof t->id, v[0]);
    copy(t->name, sizeof t->name, v[1]);
    t->kind = (tp_tourney_kind)num(v[2]);
    copy(t->variant, sizeof t->variant, v[3]);
    t->clock.kind = (tg_clock_kind)num(v[4]);
    t->clock.initial_ms = num(v[5]);
    t->clock.increment_ms = num(v[6]);
    t->clock.days = (int)num(v[7]);
    t->rated = (int)num(v[8]);
    copy(t->creator_id, sizeof t->creator_id, v[9]);
    copy(t->creator_name, sizeof t->creator_name, v[10]);
    copy(t->sched_key, sizeof t->sched_key, v[11]);
    t->starts_ms = num(v[12]);
    t->minutes = (int)num(v[13]);
    t->ends_ms = num(v[14]);
    t->max_players = (int)num(v[15]);
    t->state = (tp_tourney_state)num(v[16]);
    t->round = (int)num(v[17]);
    copy(t->winner_id, sizeof t->winner_id, v[18]);
    copy(t->winner_name, sizeof t->winner_name, v[19]);
    t->created_ms = num(v[20]);
    t->finished_ms = num(v[21]);
    t->version = num(v[22]);
    return 0;
}

static int e_row(void *ctx, int n, const char *const *v)
{
    rows *r = ctx;
    if (r->n >= r->max || n < 14)
        return r->n >= r->max;
    tp_entrant *e = (tp_entrant *)r->out + r->n++;
    memset(e, 0, sizeof *e);
    copy(e->user_id, sizeof e->user_id, v[0]);
    copy(e->name, sizeof e->name, v[1]);
    e->active = (int)num(v[2]);
    e->seat = (int)num(v[3]);
    e->score = (int)num(v[4]);
    e->streak = (int)num(v[5]);
    e->games = (int)num(v[6]);
    e->wins = (int)num(v[7]);
    e->draws = (int)num(v[8]);
    e->whites = (int)num(v[9]);
    copy(e->last_opp, sizeof e->last_opp, v[10]);
    copy(e->playing, sizeof e->playing, v[11]);
    e->waiting_ms = num(v[12]);
    e->joined_ms = num(v[13]);
    return 0;
}

static int g_row(void *ctx, int n, const char *const *v)
{
    rows *r = ctx;
    if (r->n >= r->max || n < 10)
        return r->n >= r->max;
    tp_tgame *g = (tp_tgame *)r->out + r->n++;
    memset(g, 0, sizeof *g);
    copy(g->game_id, sizeof g->game_id, v[0]);
    g->round = (int)num(v[1]);
    copy(g->white, sizeof g->white, v[2]);
    copy(g->black, sizeof g->black, v[3]);
    copy(g->result, sizeof g->result, v[4]);
    g->white_pts = (int)num(v[5]);
    g->black_pts = (int)num(v[6]);
    g->counted = (int)num(v[7]);
    g->created_ms = num(v[8]);
    g->ended_ms = num(v[9]);
    return 0;
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(int *)ctx = n > 0 ? (int)num(v[0]) : 0;
    return 1;
}

int tp_tourney_insert(tp_db *d, const tp_tourney *t, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(t->id),           TP_TEXT(t->name),         TP_INT(t->kind),
                  TP_TEXT(t->variant),      TP_INT(t->clock.kind),    TP_INT(t->clock.initial_ms),
                  TP_INT(t->clock.increment_ms), TP_INT(t->clock.days), TP_INT(t->rated),
                  TP_TEXT(t->creator_id),   TP_TEXT(t->creator_name), TP_TEXT(t->sched_key),
                  TP_INT(t->starts_ms),     TP_INT(t->minutes),       TP_INT(t->ends_ms),
                  TP_INT(t->max_players),   TP_INT(t->created_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO tournaments (" T_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                        "?12, ?13, ?14, ?15, ?16, 0, 0, '', '', ?17, 0, 1)",
                        a, 17, NULL, NULL, err);
    return rc == TP_EUNIQUE ? TP_EUNIQUE : rc < 0 ? -1 : 0;
}

int tp_tourney_get(tp_db *d, const char *id, tp_tourney *out, tc_error *err)
{
    rows r = {out, 0, 1};
    tp_arg a[] = {TP_TEXT(id)};
    int rc = tp_db_exec(d, "SELECT " T_COLS " FROM tournaments WHERE id = ?1", a, 1, t_row, &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_tourney_list(tp_db *d, tp_tourney *out, int max, tc_error *err)
{
    rows r = {out, 0, max};
    tp_arg a[] = {TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT " T_COLS " FROM tournaments WHERE state < 2 ORDER BY state DESC, starts_ms, id "
                        "LIMIT ?1",
                        a, 1, t_row, &r, err);
    if (rc < 0)
        return -1;
    rows f = {(tp_tourney *)out + r.n, 0, max - r.n};
    tp_arg b[] = {TP_INT(max - r.n)};
    if (r.n < max && tp_db_exec(d,
                                "SELECT " T_COLS " FROM tournaments WHERE state >= 2 ORDER BY finished_ms DESC, id "
                                "LIMIT ?1",
                                b, 1, t_row, &f, err) < 0)
        return -1;
    return r.n + f.n;
}

int tp_tourney_due(tp_db *d, int state, int64_t t, tp_tourney *out, int max, tc_error *err)
{
    rows r = {out, 0, max};
    tp_arg a[] = {TP_INT(state < 0 ? TP_RUNNING : state), TP_INT(t), TP_INT(max), TP_INT(state < 0)};
    int rc = tp_db_exec(d,
                        "SELECT " T_COLS " FROM tournaments WHERE state = ?1 AND (?4 = 1 OR starts_ms <= ?2) "
                        "ORDER BY starts_ms, id LIMIT ?3",
                        a, 4, t_row, &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_tourney_count_created(tp_db *d, const char *user_id, tc_error *err)
{
    int n = 0;
    tp_arg a[] = {TP_TEXT(user_id)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM tournaments WHERE creator_id = ?1 AND state < 2", a, 1, first_int,
                        &n, err);
    return rc < 0 ? -1 : n;
}

int tp_tourney_count_open(tp_db *d, tc_error *err)
{
    int n = 0;
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM tournaments WHERE state < 2", NULL, 0, first_int, &n, err);
    return rc < 0 ? -1 : n;
}

int tp_tourney_move(tp_db *d, const char *id, int from, int to, int round, const char *winner_id,
                    const char *winner_name, int64_t finished_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id), TP_INT(from), TP_INT(to), TP_INT(round), TP_TEXT(winner_id ? winner_id : ""),
                  TP_TEXT(winner_name ? winner_name : ""), TP_INT(finished_ms)};
    return tp_db_exec(d,
                      "UPDATE tournaments SET state = ?3, round = ?4, winner_id = ?5, winner_name = ?6, "
                      "finished_ms = ?7, version = version + 1 WHERE id = ?1 AND state = ?2",
                      a, 7, NULL, NULL, err);
}

int tp_tourney_bump(tp_db *d, const char *id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id)};
    return tp_db_exec(d, "UPDATE tournaments SET version = version + 1 WHERE id = ?1", a, 1, NULL, NULL, err);
}

int tp_entrant_join(tp_db *d, const char *tid, const char *user_id, const char *name, int seat, int64_t now_ms,
                    tc_error *err)
{
    tp_arg a[] = {TP_TEXT(tid), TP_TEXT(user_id), TP_TEXT(name), TP_INT(seat), TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO tournament_players (tid, " E_COLS ") VALUES (?1, ?2, ?3, 1, ?4, 0, 0, 0, 0, 0, "
                        "0, '', '', ?5, ?5)",
                        a, 5, NULL, NULL, err);
    if (rc == TP_EUNIQUE) { /* in already: back if withdrawn */
        tp_arg b[] = {TP_TEXT(tid), TP_TEXT(user_id), TP_INT(now_ms)};
        rc = tp_db_exec(d,
                        "UPDATE tournament_players SET active = 1, waiting_ms = ?3 WHERE tid = ?1 AND user_id = ?2 "
                        "AND active = 0",
                        b, 3, NULL, NULL, err);
        if (rc > 0)
            tp_tourney_bump(d, tid, err);
        return rc < 0 ? -1 : rc > 0;
    }
    if (rc >= 0)
        tp_tourney_bump(d, tid, err);
    return rc < 0 ? -1 : 1;
}

int tp_entrant_withdraw(tp_db *d, const char *tid, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(tid), TP_TEXT(user_id)};
    int rc = tp_db_exec(d, "UPDATE tournament_players SET active = 0 WHERE tid = ?1 AND user_id = ?2 AND active = 1",
                        a, 2, NULL, NULL, err);
    if (rc > 0)
        tp_tourney_bump(d, tid, err);
    return rc;
}

int tp_entrants(tp_db *d, const char *tid, tp_entrant *out, int max, tc_error *err)
{
    rows r = {out, 0, max};
    tp_arg a[] = {TP_TEXT(tid), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT " E_COLS " FROM tournament_players WHERE tid = ?1 "
                        "ORDER BY score DESC, games, seat, user_id LIMIT ?2",
                        a, 2, e_row, &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_entrant_get(tp_db *d, const char *tid, const char *user_id, tp_entrant *out, tc_error *err)
{
    rows r = {out, 0, 1};
    tp_arg a[] = {TP_TEXT(tid), TP_TEXT(user_id)};
    int rc = tp_db_exec(d, "SELECT " E_COLS " FROM tournament_players WHERE tid = ?1 AND user_id = ?2", a, 2, e_row,
                        &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_entrants_count(tp_db *d, const char *tid, tc_error *err)
{
    int n = 0;
    tp_arg a[] = {TP_TEXT(tid)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM tournament_players WHERE tid = ?1", a, 1, first_int, &n, err);
    return rc < 0 ? -1 : n;
}

int tp_entrant_update(tp_db *d, const char *tid, const tp_entrant *e, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(tid),     TP_TEXT(e->user_id), TP_INT(e->score),  TP_INT(e->streak),
                  TP_INT(e->games), TP_INT(e->wins),     TP_INT(e->draws),  TP_INT(e->whites),
                  TP_TEXT(e->last_opp), TP_TEXT(e->playing), TP_INT(e->waiting_ms)};
    return tp_db_exec(d,
                      "UPDATE tournament_players SET score = ?3, streak = ?4, games = ?5, wins = ?6, draws = ?7, "
                      "whites = ?8, last_opp = ?9, playing = ?10, waiting_ms = ?11 WHERE tid = ?1 AND user_id = ?2",
                      a, 11, NULL, NULL, err);
}

int tp_entrant_seat(tp_db *d, const char *tid, const char *user_id, int seat, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(tid), TP_TEXT(user_id), TP_INT(seat)};
    return tp_db_exec(d, "UPDATE tournament_players SET seat = ?3 WHERE tid = ?1 AND user_id = ?2", a, 3, NULL, NULL,
                      err);
}

int tp_entrant_claim(tp_db *d, const char *tid, const char *user_id, const char *from, const char *to,
                     tc_error *err)
{
    tp_arg a[] = {TP_TEXT(tid), TP_TEXT(user_id), TP_TEXT(from), TP_TEXT(to)};
    return tp_db_exec(d,
                      to[0] ? "UPDATE tournament_players SET playing = ?4 WHERE tid = ?1 AND user_id = ?2 "
                              "AND playing = ?3 AND active = 1"
                            : "UPDATE tournament_players SET playing = ?4 WHERE tid = ?1 AND user_id = ?2 "
                              "AND playing = ?3",
                      a, 4, NULL, NULL, err);
}

int tp_tgame_insert(tp_db *d, const char *tid, const tp_tgame *g, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(tid), TP_TEXT(g->game_id), TP_INT(g->round), TP_TEXT(g->white), TP_TEXT(g->black),
                  TP_INT(g->created_ms)};
    return tp_db_exec(d,
                      "INSERT INTO tournament_games (tid, " G_COLS ") VALUES (?1, ?2, ?3, ?4, ?5, '*', 0, 0, 0, "
                      "?6, 0)",
                      a, 6, NULL, NULL, err) < 0
               ? -1
               : 0;
}

int tp_tgames(tp_db *d, const char *tid, tp_tgame *out, int max, tc_error *err)
{
    rows r = {out, 0, max};
    tp_arg a[] = {TP_TEXT(tid), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT " G_COLS " FROM tournament_games WHERE tid = ?1 ORDER BY created_ms DESC, game_id "
                        "LIMIT ?2",
                        a, 2, g_row, &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_tgames_ended(tp_db *d, const char *tid, tp_tgame *out, int max, tc_error *err)
{
    rows r = {out, 0, max};
    tp_arg a[] = {TP_TEXT(tid), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT t.game_id, t.round, t.white_user, t.black_user, g.result, t.white_pts, t.black_pts, "
                        "t.counted, t.created_ms, g.updated_ms FROM tournament_games t JOIN games g ON g.id = "
                        "t.game_id WHERE t.tid = ?1 AND t.counted = 0 AND g.result <> '*' "
                        "ORDER BY g.updated_ms, t.game_id LIMIT ?2",
                        a, 2, g_row, &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_tgames_open(tp_db *d, const char *tid, tc_error *err)
{
    int n = 0;
    tp_arg a[] = {TP_TEXT(tid)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM tournament_games WHERE tid = ?1 AND counted = 0", a, 1, first_int,
                        &n, err);
    return rc < 0 ? -1 : n;
}

int tp_tgame_count(tp_db *d, const tp_tgame *g, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(g->game_id), TP_TEXT(g->result), TP_INT(g->white_pts), TP_INT(g->black_pts),
                  TP_INT(g->ended_ms)};
    return tp_db_exec(d,
                      "UPDATE tournament_games SET result = ?2, white_pts = ?3, black_pts = ?4, ended_ms = ?5, "
                      "counted = 1 WHERE game_id = ?1 AND counted = 0",
                      a, 5, NULL, NULL, err);
}

typedef struct {
    char *id, *name;
    int found;
} of_game;

static int of_row(void *ctx, int n, const char *const *v)
{
    of_game *o = ctx;
    if (n >= 2) {
        copy(o->id, TP_TOURNEY_ID_LEN + 1, v[0]);
        copy(o->name, TP_TOURNEY_NAME_MAX + 1, v[1]);
        o->found = 1;
    }
    return 1;
}

int tp_tourney_of_game(tp_db *d, const char *game_id, char id[TP_TOURNEY_ID_LEN + 1],
                       char name[TP_TOURNEY_NAME_MAX + 1], tc_error *err)
{
    of_game o = {id, name, 0};
    tp_arg a[] = {TP_TEXT(game_id)};
    int rc = tp_db_exec(d,
                        "SELECT t.id, t.name FROM tournament_games g JOIN tournaments t ON t.id = g.tid "
                        "WHERE g.game_id = ?1",
                        a, 1, of_row, &o, err);
    return rc < 0 ? -1 : o.found;
}

int tp_tourney_won(tp_db *d, const char *user_id, tp_tourney *out, int max, tc_error *err)
{
    rows r = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT " T_COLS " FROM tournaments WHERE winner_id = ?1 AND state = 2 "
                        "ORDER BY finished_ms DESC, id LIMIT ?2",
                        a, 2, t_row, &r, err);
    return rc < 0 ? -1 : r.n;
}

int tp_tourney_lease(tp_db *d, const char *owner, int64_t now_ms, int64_t ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(owner), TP_INT(now_ms + ms), TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "UPDATE tournament_lease SET owner = ?1, until_ms = ?2 WHERE name = 'pairer' "
                        "AND (owner = ?1 OR until_ms < ?3)",
                        a, 3, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int tp_tourney_lease_held(tp_db *d, const char *owner, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(owner), TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "UPDATE tournament_lease SET owner = ?1 WHERE name = 'pairer' AND owner = ?1 "
                        "AND until_ms >= ?2",
                        a, 2, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int tp_tourney_lease_drop(tp_db *d, const char *owner, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(owner)};
    return tp_db_exec(d, "UPDATE tournament_lease SET until_ms = 0 WHERE name = 'pairer' AND owner = ?1", a, 1, NULL,
                      NULL, err);
}
