/* Accounts' rows (account_store.h): plain statements over people_db. */
#include "account_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

int tp_user_create(tp_db *d, const tp_user *u, const char *key, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(u->id), TP_TEXT(u->name), TP_TEXT(key), TP_TEXT(u->pwhash), TP_INT(u->created_ms)};
    int rc = tp_db_exec(d, "INSERT INTO users (id, name, name_key, pwhash, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                        a, 5, NULL, NULL, err);
    return rc < 0 ? rc : 0;
}

static int user_row(void *ctx, int n, const char *const *v)
{
    tp_user *u = ctx;
    if (n >= 4) {
        copy(u->id, sizeof u->id, v[0]);
        copy(u->name, sizeof u->name, v[1]);
        copy(u->pwhash, sizeof u->pwhash, v[2]);
        u->created_ms = strtoll(v[3], NULL, 10);
    }
    return 1;
}

int tp_user_by_key(tp_db *d, const char *key, tp_user *out, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(key)};
    int rc = tp_db_exec(d, "SELECT id, name, pwhash, created_ms FROM users WHERE name_key = ?1", a, 1, user_row, out,
                        err);
    return rc < 0 ? -1 : rc > 0;
}

int tp_user_set_password(tp_db *d, const char *user_id, const char *pwhash, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_TEXT(pwhash)};
    return tp_db_exec(d, "UPDATE users SET pwhash = ?2 WHERE id = ?1", a, 2, NULL, NULL, err);
}

int tp_session_create(tp_db *d, const char *id_hash, const char *user_id, const char *csrf, int64_t now_ms,
                      int64_t expires_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id_hash), TP_TEXT(user_id), TP_TEXT(csrf), TP_INT(now_ms), TP_INT(expires_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO sessions (id_hash, user_id, csrf, created_ms, expires_ms, seen_ms) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?4)",
                        a, 5, NULL, NULL, err);
    return rc < 0 ? -1 : 0;
}

static int session_row(void *ctx, int n, const char *const *v)
{
    tp_session *s = ctx;
    if (n >= 4) {
        copy(s->user_id, sizeof s->user_id, v[0]);
        copy(s->name, sizeof s->name, v[1]);
        copy(s->csrf, sizeof s->csrf, v[2]);
        s->expires_ms = strtoll(v[3], NULL, 10);
    }
    return 1;
}

int tp_session_get(tp_db *d, const char *id_hash, int64_t now_ms, tp_session *out, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id_hash)};
    memset(out, 0, sizeof *out);
    int rc = tp_db_exec(d,
                        "SELECT s.user_id, u.name, s.csrf, s.expires_ms FROM sessions s JOIN users u "
                        "ON u.id = s.user_id WHERE s.id_hash = ?1",
                        a, 1, session_row, out, err);
    if (rc <= 0)
        return rc < 0 ? -1 : 0;
    if (out->expires_ms <= now_ms) {
        tp_session_delete(d, id_hash, err);
        return 0;
    }
    return 1;
}

int tp_session_delete(tp_db *d, const char *id_hash, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(id_hash)};
    return tp_db_exec(d, "DELETE FROM sessions WHERE id_hash = ?1", a, 1, NULL, NULL, err);
}

int tp_sessions_delete_user(tp_db *d, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id)};
    return tp_db_exec(d, "DELETE FROM sessions WHERE user_id = ?1", a, 1, NULL, NULL, err);
}

int tp_sessions_trim(tp_db *d, const char *user_id, int keep, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(keep)};
    return tp_db_exec(d,
                      "DELETE FROM sessions WHERE user_id = ?1 AND id_hash NOT IN (SELECT id_hash FROM sessions "
                      "WHERE user_id = ?1 ORDER BY created_ms DESC, id_hash DESC LIMIT ?2)",
                      a, 2, NULL, NULL, err);
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(long long *)ctx = n > 0 ? strtoll(v[0], NULL, 10) : 0;
    return 1;
}

int tp_sessions_count(tp_db *d, const char *user_id, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(now_ms)};
    long long n = 0;
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM sessions WHERE user_id = ?1 AND expires_ms > ?2", a, 2, first_int,
                        &n, err);
    return rc < 0 ? -1 : (int)n;
}

int tp_attempt_add(tp_db *d, const char *subject, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(subject), TP_INT(now_ms)};
    /* old rows go as new ones come: a day is longer than any window */
    tp_arg old[] = {TP_INT(now_ms - 86400000)};
    if (tp_db_exec(d, "DELETE FROM login_failures WHERE at_ms < ?1", old, 1, NULL, NULL, err) < 0)
        return -1;
    return tp_db_exec(d, "INSERT INTO login_failures (subject, at_ms) VALUES (?1, ?2)", a, 2, NULL, NULL, err) < 0
               ? -1
               : 0;
}

int tp_attempt_count(tp_db *d, const char *subject, int64_t since_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(subject), TP_INT(since_ms)};
    long long n = 0;
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM login_failures WHERE subject = ?1 AND at_ms >= ?2", a, 2,
                        first_int, &n, err);
    return rc < 0 ? -1 : (int)n;
}

int tp_attempt_clear(tp_db *d, const char *subject, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(subject)};
    return tp_db_exec(d, "DELETE FROM login_failures WHERE subject = ?1", a, 1, NULL, NULL, err);
}

typedef struct {
    tp_rating_row *out;
    int n, max;
} rating_rows;

static int rating_row(void *ctx, int n, const char *const *v)
{
    rating_rows *rr = ctx;
    if (rr->n >= rr->max)
        return 1;
    if (n >= 6) {
        tp_rating_row *r = &rr->out[rr->n++];
        copy(r->variant, sizeof r->variant, v[0]);
        r->rating = (tg_rating){strtod(v[1], NULL), strtod(v[2], NULL), strtod(v[3], NULL)};
        r->games = atoi(v[4]);
        r->updated_ms = strtoll(v[5], NULL, 10);
    }
    return 0;
}

int tp_ratings_of(tp_db *d, const char *user_id, tp_rating_row *out, int max, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    rating_rows rr = {out, 0, max};
    int rc = tp_db_exec(d,
                        "SELECT variant, rating, rd, vol, games, updated_ms FROM ratings WHERE user_id = ?1 "
                        "ORDER BY games DESC, variant LIMIT ?2",
                        a, 2, rating_row, &rr, err);
    return rc < 0 ? -1 : rr.n;
}

int tp_rating_record(tp_db *d, const char *user_id, const char *variant, tg_rating r, int64_t now_ms,
                     const char *game_id, tc_error *err)
{
    char rt[32], rd[32], vol[32];
    snprintf(rt, sizeof rt, "%.17g", r.r);
    snprintf(rd, sizeof rd, "%.17g", r.rd);
    snprintf(vol, sizeof vol, "%.17g", r.vol);
    /* text values cast to the column's type by both databases */
    tp_arg a[] = {TP_TEXT(user_id), TP_TEXT(variant), TP_TEXT(rt), TP_TEXT(rd), TP_TEXT(vol), TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO ratings (user_id, variant, rating, rd, vol, games, updated_ms) VALUES "
                        "(?1, ?2, CAST(?3 AS DOUBLE PRECISION), CAST(?4 AS DOUBLE PRECISION), "
                        "CAST(?5 AS DOUBLE PRECISION), 1, ?6) ON CONFLICT (user_id, variant) DO UPDATE SET "
                        "rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, "
                        "games = ratings.games + 1, updated_ms = excluded.updated_ms",
                        a, 6, NULL, NULL, err);
    if (rc < 0)
        return -1;
    tp_arg h[] = {TP_TEXT(user_id), TP_TEXT(variant), TP_INT(now_ms), TP_TEXT(rt), TP_TEXT(rd), TP_TEXT(game_id)};
    rc = tp_db_exec(d,
                    "INSERT INTO rating_history (user_id, variant, at_ms, rating, rd, game_id) VALUES "
                    "(?1, ?2, ?3, CAST(?4 AS DOUBLE PRECISION), CAST(?5 AS DOUBLE PRECISION), ?6)",
                    h, 6, NULL, NULL, err);
    return rc < 0 ? -1 : 0;
}

typedef struct {
    tp_rating_step *out;
    int n, max;
} step_rows;

static int step_row(void *ctx, int n, const char *const *v)
{
    step_rows *sr = ctx;
    if (sr->n >= sr->max || n < 5)
        return 1;
    tp_rating_step *s = &sr->out[sr->n++];
    copy(s->variant, sizeof s->variant, v[0]);
    s->at_ms = strtoll(v[1], NULL, 10);
    s->rating = strtod(v[2], NULL);
    s->rd = strtod(v[3], NULL);
    copy(s->game_id, sizeof s->game_id, v[4]);
    return 0;
}

int tp_rating_history(tp_db *d, const char *user_id, tp_rating_step *out, int max, tc_error *err)
{
    step_rows sr = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT variant, at_ms, rating, rd, game_id FROM rating_history WHERE user_id = ?1 "
                        "ORDER BY at_ms DESC LIMIT ?2",
                        a, 2, step_row, &sr, err);
    return rc < 0 ? -1 : sr.n;
}
