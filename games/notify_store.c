/* The players' inbox rows (see notify_store.h). */
#include "notify_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

int tp_note_add(tp_db *d, const char *user_id, const tp_note *n, tc_error *err)
{
    if (!strcmp(n->kind, "turn") && tp_notes_drop_game(d, user_id, n->game_id, "turn", err) < 0)
        return -1;
    tp_arg a[] = {TP_TEXT(n->id),   TP_TEXT(user_id), TP_TEXT(n->kind),       TP_TEXT(n->game_id),
                  TP_TEXT(n->text), TP_TEXT(n->url),  TP_INT(n->created_ms)};
    if (tp_db_exec(d,
                   "INSERT INTO notifications (id, user_id, kind, game_id, text, url, created_ms, read) "
                   "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)",
                   a, 7, NULL, NULL, err) < 0)
        return -1;
    tp_arg u[] = {TP_TEXT(user_id), TP_INT(TP_NOTES_PER_USER)};
    return tp_db_exec(d,
                      "DELETE FROM notifications WHERE user_id = ?1 AND id NOT IN (SELECT id FROM notifications "
                      "WHERE user_id = ?1 ORDER BY created_ms DESC, id DESC LIMIT ?2)",
                      u, 2, NULL, NULL, err) < 0
               ? -1
               : 0;
}

typedef struct {
    tp_note *out;
    int n, max;
} note_rows;

static int note_row(void *ctx, int n, const char *const *v)
{
    note_rows *nr = ctx;
    if (nr->n >= nr->max || n < 7)
        return 1;
    tp_note *o = &nr->out[nr->n++];
    copy(o->id, sizeof o->id, v[0]);
    copy(o->kind, sizeof o->kind, v[1]);
    copy(o->game_id, sizeof o->game_id, v[2]);
    copy(o->text, sizeof o->text, v[3]);
    copy(o->url, sizeof o->url, v[4]);
    o->created_ms = strtoll(v[5], NULL, 10);
    o->read = atoi(v[6]);
    return 0;
}

int tp_notes_of(tp_db *d, const char *user_id, tp_note *out, int max, tc_error *err)
{
    note_rows nr = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT id, kind, game_id, text, url, created_ms, read FROM notifications WHERE user_id = ?1 "
                        "ORDER BY created_ms DESC, id DESC LIMIT ?2",
                        a, 2, note_row, &nr, err);
    return rc < 0 ? -1 : nr.n;
}

static int count_row(void *ctx, int n, const char *const *v)
{
    if (n >= 1)
        *(int *)ctx = atoi(v[0]);
    return 1;
}

int tp_notes_unread(tp_db *d, const char *user_id, tc_error *err)
{
    int k = 0;
    tp_arg a[] = {TP_TEXT(user_id)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM notifications WHERE user_id = ?1 AND read = 0", a, 1, count_row,
                        &k, err);
    return rc < 0 ? -1 : k;
}

int tp_notes_mark_read(tp_db *d, const char *user_id, const char *id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_TEXT(id ? id : "")};
    return tp_db_exec(d,
                      id ? "UPDATE notifications SET read = 1 WHERE user_id = ?1 AND id = ?2 AND read = 0"
                         : "UPDATE notifications SET read = 1 WHERE user_id = ?1 AND read = 0 AND ?2 = ''",
                      a, 2, NULL, NULL, err);
}

int tp_notes_drop_game(tp_db *d, const char *user_id, const char *game_id, const char *kind, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_TEXT(game_id), TP_TEXT(kind)};
    return tp_db_exec(d, "DELETE FROM notifications WHERE user_id = ?1 AND game_id = ?2 AND kind = ?3 AND read = 0",
                      a, 3, NULL, NULL, err);
}

int tp_notes_prune(tp_db *d, int64_t before_ms, tc_error *err)
{
    tp_arg a[] = {TP_INT(before_ms)};
    return tp_db_exec(d, "DELETE FROM notifications WHERE created_ms < ?1", a, 1, NULL, NULL, err);
}

static int players_row(void *ctx, int n, const char *const *v)
{
    tp_game_players *p = ctx;
    if (n >= 4) {
        copy(p->user[0], sizeof p->user[0], v[0]);
        copy(p->user[1], sizeof p->user[1], v[1]);
        copy(p->name[0], sizeof p->name[0], v[2]);
        copy(p->name[1], sizeof p->name[1], v[3]);
    }
    return 1;
}

int tp_game_players_of(tp_db *d, const char *game_id, tp_game_players *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    tp_arg a[] = {TP_TEXT(game_id)};
    int rc = tp_db_exec(d,
                        "SELECT rg.white_user, rg.black_user, w.name, b.name FROM rated_games rg "
                        "JOIN users w ON w.id = rg.white_user JOIN users b ON b.id = rg.black_user "
                        "WHERE rg.game_id = ?1",
                        a, 1, players_row, out, err);
    return rc < 0 ? -1 : rc > 0;
}

typedef struct {
    tp_active_game *out;
    int n, max;
} active_rows;

static int active_row(void *ctx, int n, const char *const *v)
{
    active_rows *ar = ctx;
    if (ar->n >= ar->max || n < 4)
        return 1;
    tp_active_game *g = &ar->out[ar->n++];
    copy(g->game_id, sizeof g->game_id, v[0]);
    copy(g->variant, sizeof g->variant, v[1]);
    copy(g->white, sizeof g->white, v[2]);
    copy(g->black, sizeof g->black, v[3]);
    return 0;
}

int tp_active_games_of(tp_db *d, const char *user_id, tp_active_game *out, int max, tc_error *err)
{
    active_rows ar = {out, 0, max};
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT rg.game_id, rg.variant, w.name, b.name FROM rated_games rg "
                        "JOIN games g ON g.id = rg.game_id JOIN users w ON w.id = rg.white_user "
                        "JOIN users b ON b.id = rg.black_user "
                        "WHERE (rg.white_user = ?1 OR rg.black_user = ?1) AND g.result = '*' "
                        "ORDER BY rg.created_ms LIMIT ?2",
                        a, 2, active_row, &ar, err);
    return rc < 0 ? -1 : ar.n;
}
