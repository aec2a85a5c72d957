/* Puzzle rows, ratings and attempts (puzzle_store.h). */
#include "puzzle_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

void tp_puzzle_make_id(const char *variant, const char *fen, char out[TP_PUZZLE_ID_LEN + 1])
{
    uint64_t h = fnv1a(14695981039346656037ull, variant);
    h = fnv1a(h, "\n");
    h = fnv1a(h, fen);
    snprintf(out, TP_PUZZLE_ID_LEN + 1, "%016llx", (unsigned long long)h);
}

tg_rating tp_puzzle_start_rating(int mate_in)
{
    double r = 1200.0 + 60.0 * (mate_in > 1 ? mate_in - 1 : 0);
    tg_rating s = {r > 2400.0 ? 2400.0 : r, TP_PUZZLE_START_RD, TG_VOL_START};
    return s;
}

static void num(char *buf, size_t n, double x) { snprintf(buf, n, "%.17g", x); }

#define COLS                                                                                                          \
    "id, variant, kind, material, fen, side, mate_in, accepted, line, line_san, themes, title, rating, rd, vol, "    \
    "plays, solves, created_ms"

static int puzzle_row(void *ctx, int n, const char *const *v)
{
    tp_puzzle_row *p = ctx;
    if (n < 18)
        return 1;
    copy(p->id, sizeof p->id, v[0]);
    copy(p->variant, sizeof p->variant, v[1]);
    copy(p->kind, sizeof p->kind, v[2]);
    copy(p->material, sizeof p->material, v[3]);
    copy(p->fen, sizeof p->fen, v[4]);
    p->side = atoi(v[5]);
    p->mate_in = atoi(v[6]);
    copy(p->accepted, sizeof p->accepted, v[7]);
    copy(p->line, sizeof p->line, v[8]);
    copy(p->line_san, sizeof p->line_san, v[9]);
    copy(p->themes, sizeof p->themes, v[10]);
    copy(p->title, sizeof p->title, v[11]);
    p->rating.r = strtod(v[12], NULL);
    p->rating.rd = strtod(v[13], NULL);
    p->rating.vol = strtod(v[14], NULL);
    p->plays = atoi(v[15]);
    p->solves = atoi(v[16]);
    p->created_ms = strtoll(v[17], NULL, 10);
    return 1;
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(long long *)ctx = n > 0 ? strtoll(v[0], NULL, 10) : 0;
    return 1;
}

int tp_puzzle_insert(tp_db *d, const tp_puzzle_row *p, tc_error *err)
{
    char r[32], rd[32], vol[32];
    num(r, sizeof r, p->rating.r);
    num(rd, sizeof rd, p->rating.rd);
    num(vol, sizeof vol, p->rating.vol);
    tp_arg a[] = {TP_TEXT(p->id),       TP_TEXT(p->variant),  TP_TEXT(p->kind),   TP_TEXT(p->material),
                  TP_TEXT(p->fen),      TP_INT(p->side),      TP_INT(p->mate_in), TP_TEXT(p->accepted),
                  TP_TEXT(p->line),     TP_TEXT(p->line_san), TP_TEXT(p->themes), TP_TEXT(p->title),
                  TP_TEXT(r),           TP_TEXT(rd),          TP_TEXT(vol),       TP_INT(p->plays),
                  TP_INT(p->solves),    TP_INT(p->created_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO puzzles (" COLS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                        "CAST(?13 AS DOUBLE PRECISION), CAST(?14 AS DOUBLE PRECISION), "
                        "CAST(?15 AS DOUBLE PRECISION), ?16, ?17, ?18) ON CONFLICT (id) DO NOTHING",
                        a, 18, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int tp_puzzle_get(tp_db *d, const char *id, tp_puzzle_row *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    tp_arg a[] = {TP_TEXT(id)};
    return tp_db_exec(d, "SELECT " COLS " FROM puzzles WHERE id = ?1", a, 1, puzzle_row, out, err);
}

/* The theme filter's LIKE pattern: " theme " inside " themes ". */
static void theme_like(const char *theme, char *out, size_t n)
{
    snprintf(out, n, "%% %s %%", theme && *theme ? theme : "");
}

#define THEME_SQL "(?2 = '' OR (' ' || themes || ' ') LIKE ?3)"

int tp_puzzle_count(tp_db *d, const char *variant, const char *theme, tc_error *err)
{
    char like[48];
    theme_like(theme, like, sizeof like);
    long long c = 0;
    tp_arg a[] = {TP_TEXT(variant), TP_TEXT(theme ? theme : ""), TP_TEXT(like)};
    if (tp_db_exec(d, "SELECT COUNT(*) FROM puzzles WHERE variant = ?1 AND " THEME_SQL, a, 3, first_int, &c, err) <
        0)
        return -1;
    return (int)c;
}

int tp_puzzle_pick(tp_db *d, const char *variant, const char *theme, const char *user_id, double rating,
                   unsigned skip, tp_puzzle_row *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    int count = tp_puzzle_count(d, variant, theme, err);
    if (count <= 0)
        return count;
    char like[48], r[32];
    theme_like(theme, like, sizeof like);
    num(r, sizeof r, rating);
    if (user_id) {
        tp_arg a[] = {TP_TEXT(variant), TP_TEXT(theme ? theme : ""), TP_TEXT(like), TP_TEXT(user_id), TP_TEXT(r)};
        int got = tp_db_exec(d,
                             "SELECT " COLS " FROM puzzles p WHERE variant = ?1 AND " THEME_SQL
                             " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = ?4 AND "
                             "a.puzzle_id = p.id) ORDER BY ABS(rating - CAST(?5 AS DOUBLE PRECISION)), id LIMIT 1",
                             a, 5, puzzle_row, out, err);
        if (got)
            return got;
        tp_arg b[] = {TP_TEXT(variant), TP_TEXT(theme ? theme : ""), TP_TEXT(like), TP_TEXT(r),
                      TP_INT(skip % (unsigned)count)};
        return tp_db_exec(d,
                          "SELECT " COLS " FROM puzzles WHERE variant = ?1 AND " THEME_SQL
                          " ORDER BY ABS(rating - CAST(?4 AS DOUBLE PRECISION)), id LIMIT 1 OFFSET ?5",
                          b, 5, puzzle_row, out, err);
    }
    tp_arg a[] = {TP_TEXT(variant), TP_TEXT(theme ? theme : ""), TP_TEXT(like), TP_INT(skip % (unsigned)count)};
    return tp_db_exec(d, "SELECT " COLS " FROM puzzles WHERE variant = ?1 AND " THEME_SQL " ORDER BY id LIMIT 1 OFFSET ?4",
                      a, 4, puzzle_row, out, err);
}

static int id_row(void *ctx, int n, const char *const *v)
{
    if (n > 0)
        copy(ctx, TP_PUZZLE_ID_LEN + 1, v[0]);
    return 1;
}

int tp_puzzle_daily(tp_db *d, const char *variant, int day, tp_puzzle_row *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    char id[TP_PUZZLE_ID_LEN + 1] = "";
    tp_arg k[] = {TP_INT(day), TP_TEXT(variant)};
    const char *sel = "SELECT puzzle_id FROM puzzle_daily WHERE day = ?1 AND variant = ?2";
    if (tp_db_exec(d, sel, k, 2, id_row, id, err) < 0)
        return -1;
    if (!id[0]) {
        int count = tp_puzzle_count(d, variant, NULL, err);
        if (count <= 0)
            return count;
        char key[96];
        snprintf(key, sizeof key, "%d", day);
        /* FNV-1a of the day and the variant, mixed so that near days differ */
        uint64_t h = fnv1a(fnv1a(14695981039346656037ull, key), variant);
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 32;
        tp_arg a[] = {TP_TEXT(variant), TP_INT(h % (uint64_t)count)};
        char pick[TP_PUZZLE_ID_LEN + 1] = "";
        if (tp_db_exec(d, "SELECT id FROM puzzles WHERE variant = ?1 ORDER BY id LIMIT 1 OFFSET ?2", a, 2, id_row,
                       pick, err) < 0)
            return -1;
        if (!pick[0])
            return 0;
        tp_arg ins[] = {TP_INT(day), TP_TEXT(variant), TP_TEXT(pick)};
        int rc = tp_db_exec(d, "INSERT INTO puzzle_daily (day, variant, puzzle_id) VALUES (?1, ?2, ?3)", ins, 3, NULL,
                            NULL, err);
        if (rc == TP_EUNIQUE) { /* another process chose first: its choice */
            if (tp_db_exec(d, sel, k, 2, id_row, id, err) < 0)
                return -1;
        } else if (rc < 0) {
            return -1;
        } else {
            copy(id, sizeof id, pick);
        }
    }
    return id[0] ? tp_puzzle_get(d, id, out, err) : 0;
}

typedef struct {
    char (*names)[33];
    int *counts, n, max;
} theme_acc;

static int theme_row(void *ctx, int n, const char *const *v)
{
    theme_acc *t = ctx;
    if (n < 1)
        return 1;
    const char *s = v[0];
    while (*s) {
        size_t len = strcspn(s, " ");
        if (len > 0 && len <= 32) {
            int k = 0;
            while (k < t->n && (strlen(t->names[k]) != len || strncmp(t->names[k], s, len)))
                k++;
            if (k < t->n) {
                t->counts[k]++;
            } else if (t->n < t->max) {
                memcpy(t->names[t->n], s, len);
                t->names[t->n][len] = '\0';
                t->counts[t->n++] = 1;
            }
        }
        s += len;
        while (*s == ' ')
            s++;
    }
    return 0;
}

int tp_puzzle_themes(tp_db *d, const char *variant, char (*out)[33], int *counts, int max, tc_error *err)
{
    theme_acc t = {out, counts, 0, max};
    tp_arg a[] = {TP_TEXT(variant), TP_INT(TP_PUZZLE_SCAN)};
    if (tp_db_exec(d, "SELECT themes FROM puzzles WHERE variant = ?1 ORDER BY id LIMIT ?2", a, 2, theme_row, &t, err) <
        0)
        return -1;
    for (int i = 1; i < t.n; i++) /* most puzzles first, then by name: insertion sort of a short list */
        for (int j = i; j > 0 && (counts[j] > counts[j - 1] ||
                                  (counts[j] == counts[j - 1] && strcmp(out[j], out[j - 1]) < 0));
             j--) {
            char tmp[33];
            memcpy(tmp, out[j], sizeof tmp);
            memcpy(out[j], out[j - 1], sizeof tmp);
            memcpy(out[j - 1], tmp, sizeof tmp);
            int c = counts[j];
            counts[j] = counts[j - 1];
            counts[j - 1] = c;
        }
    return t.n;
}

typedef struct {
    tg_rating r;
    int a, b, got;
} rating_read;

static int rating_row(void *ctx, int n, const char *const *v)
{
    rating_read *rr = ctx;
    if (n >= 3) {
        rr->r.r = strtod(v[0], NULL);
        rr->r.rd = strtod(v[1], NULL);
        rr->r.vol = strtod(v[2], NULL);
        rr->a = n > 3 ? atoi(v[3]) : 0;
        rr->b = n > 4 ? atoi(v[4]) : 0;
        rr->got = 1;
    }
    return 1;
}

int tp_puzzle_player_get(tp_db *d, const char *user_id, tp_puzzle_player *out, tc_error *err)
{
    rating_read rr = {tg_rating_new(), 0, 0, 0};
    tp_arg a[] = {TP_TEXT(user_id)};
    if (tp_db_exec(d, "SELECT rating, rd, vol, attempts, solved FROM puzzle_players WHERE user_id = ?1", a, 1,
                   rating_row, &rr, err) < 0)
        return -1;
    out->rating = rr.r;
    out->attempts = rr.a;
    out->solved = rr.b;
    return rr.got;
}

/* One try of the attempt's transaction: 0, TP_EUNIQUE (another attempt of
 * the same player at the same puzzle took the number: try again), -1. */
static int attempt_once(tp_db *d, const char *user_id, const char *puzzle_id, int solved, const char *moves,
                        int64_t now_ms, tp_puzzle_outcome *out, tc_error *err)
{
    int pg = tp_db_shared(d);
    tg_rating s = tg_rating_new();
    char r[32], rd[32], vol[32];
    num(r, sizeof r, s.r);
    num(rd, sizeof rd, s.rd);
    num(vol, sizeof vol, s.vol);
    tp_arg ins[] = {TP_TEXT(user_id), TP_TEXT(r), TP_TEXT(rd), TP_TEXT(vol), TP_INT(now_ms)};
    if (tp_db_exec(d,
                   "INSERT INTO puzzle_players (user_id, rating, rd, vol, attempts, solved, updated_ms) VALUES (?1, "
                   "CAST(?2 AS DOUBLE PRECISION), CAST(?3 AS DOUBLE PRECISION), CAST(?4 AS DOUBLE PRECISION), 0, 0, "
                   "?5) ON CONFLICT (user_id) DO NOTHING",
                   ins, 5, NULL, NULL, err) < 0)
        return -1;
    /* the player's row, then the puzzle's: one order, no waiting in a circle */
    rating_read me = {s, 0, 0, 0}, pz = {s, 0, 0, 0};
    tp_arg u[] = {TP_TEXT(user_id)}, p[] = {TP_TEXT(puzzle_id)};
    if (tp_db_exec(d,
                   pg ? "SELECT rating, rd, vol FROM puzzle_players WHERE user_id = ?1 FOR UPDATE"
                      : "SELECT rating, rd, vol FROM puzzle_players WHERE user_id = ?1",
                   u, 1, rating_row, &me, err) < 0 ||
        tp_db_exec(d,
                   pg ? "SELECT rating, rd, vol FROM puzzles WHERE id = ?1 FOR UPDATE"
                      : "SELECT rating, rd, vol FROM puzzles WHERE id = ?1",
                   p, 1, rating_row, &pz, err) < 0)
        return -1;
    if (!me.got || !pz.got) {
        snprintf(err->msg, sizeof err->msg, "no puzzle '%.20s' (or no player row)", puzzle_id);
        return -1;
    }
    long long n = 0;
    tp_arg k[] = {TP_TEXT(user_id), TP_TEXT(puzzle_id)};
    if (tp_db_exec(d, "SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = ?1 AND puzzle_id = ?2", k, 2, first_int,
                   &n, err) < 0)
        return -1;
    out->n = (int)n;
    out->rated = n == 0;
    out->before = me.r;
    out->puzzle_before = pz.r;
    out->after = me.r;
    out->puzzle_after = pz.r;
    if (out->rated) {
        out->after = tg_rating_after_game(me.r, pz.r, solved ? 1.0 : 0.0);
        out->puzzle_after = tg_rating_after_game(pz.r, me.r, solved ? 0.0 : 1.0);
        char a1[32], a2[32], a3[32];
        num(a1, sizeof a1, out->after.r);
        num(a2, sizeof a2, out->after.rd);
        num(a3, sizeof a3, out->after.vol);
        tp_arg up[] = {TP_TEXT(a1), TP_TEXT(a2), TP_TEXT(a3), TP_INT(solved != 0), TP_INT(now_ms), TP_TEXT(user_id)};
        if (tp_db_exec(d,
                       "UPDATE puzzle_players SET rating = CAST(?1 AS DOUBLE PRECISION), rd = CAST(?2 AS DOUBLE "
                       "PRECISION), vol = CAST(?3 AS DOUBLE PRECISION), attempts = attempts + 1, solved = solved + "
                       "?4, updated_ms = ?5 WHERE user_id = ?6",
                       up, 6, NULL, NULL, err) < 0)
            return -1;
        num(a1, sizeof a1, out->puzzle_after.r);
        num(a2, sizeof a2, out->puzzle_after.rd);
        num(a3, sizeof a3, out->puzzle_after.vol);
        tp_arg uz[] = {TP_TEXT(a1), TP_TEXT(a2), TP_TEXT(a3), TP_TEXT(puzzle_id)};
        if (tp_db_exec(d,
                       "UPDATE puzzles SET rating = CAST(?1 AS DOUBLE PRECISION), rd = CAST(?2 AS DOUBLE PRECISION), "
                       "vol = CAST(?3 AS DOUBLE PRECISION) WHERE id = ?4",
                       uz, 4, NULL, NULL, err) < 0)
            return -1;
    }
    tp_arg pl[] = {TP_INT(solved != 0), TP_TEXT(puzzle_id)};
    if (tp_db_exec(d, "UPDATE puzzles SET plays = plays + 1, solves = solves + ?1 WHERE id = ?2", pl, 2, NULL, NULL,
                   err) < 0)
        return -1;
    char b1[32], b2[32];
    num(b1, sizeof b1, out->before.r);
    num(b2, sizeof b2, out->after.r);
    tp_arg at[] = {TP_TEXT(user_id), TP_TEXT(puzzle_id), TP_INT(n),       TP_INT(solved != 0),
                   TP_INT(out->rated), TP_TEXT(b1),      TP_TEXT(b2),     TP_TEXT(moves ? moves : ""),
                   TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO puzzle_attempts (user_id, puzzle_id, n, solved, rated, before_r, after_r, moves, "
                        "at_ms) VALUES (?1, ?2, ?3, ?4, ?5, CAST(?6 AS DOUBLE PRECISION), CAST(?7 AS DOUBLE "
                        "PRECISION), ?8, ?9)",
                        at, 9, NULL, NULL, err);
    return rc == TP_EUNIQUE ? TP_EUNIQUE : rc < 0 ? -1 : 0;
}

int tp_puzzle_attempt(tp_db *d, const char *user_id, const char *puzzle_id, int solved, const char *moves,
                      int64_t now_ms, tp_puzzle_outcome *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    for (int tries = 0; tries < 3; tries++) {
        if (tp_db_begin(d, err))
            return -1;
        err->msg[0] = '\0';
        int rc = attempt_once(d, user_id, puzzle_id, solved, moves, now_ms, out, err);
        if (rc == 0)
            return tp_db_end(d, 1, err) ? -1 : 0;
        tc_error ignore;
        tp_db_end(d, 0, &ignore);
        if (rc != TP_EUNIQUE)
            return -1;
    }
    snprintf(err->msg, sizeof err->msg, "the attempt was refused three times (attempts at once)");
    return -1;
}

typedef struct {
    tp_puzzle_step *out;
    int n, max;
} step_rows;

static int step_row(void *ctx, int n, const char *const *v)
{
    step_rows *s = ctx;
    if (s->n >= s->max || n < 8)
        return 1;
    tp_puzzle_step *o = &s->out[s->n++];
    copy(o->puzzle_id, sizeof o->puzzle_id, v[0]);
    copy(o->variant, sizeof o->variant, v[1]);
    copy(o->title, sizeof o->title, v[2]);
    o->solved = atoi(v[3]);
    o->rated = atoi(v[4]);
    o->before = strtod(v[5], NULL);
    o->after = strtod(v[6], NULL);
    o->at_ms = strtoll(v[7], NULL, 10);
    return 0;
}

int tp_puzzle_history(tp_db *d, const char *user_id, tp_puzzle_step *out, int max, tc_error *err)
{
    step_rows s = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    if (tp_db_exec(d,
                   "SELECT a.puzzle_id, p.variant, p.title, a.solved, a.rated, a.before_r, a.after_r, a.at_ms FROM "
                   "puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle_id WHERE a.user_id = ?1 "
                   "ORDER BY a.at_ms DESC, a.n DESC LIMIT ?2",
                   a, 2, step_row, &s, err) < 0)
        return -1;
    return s.n;
}
