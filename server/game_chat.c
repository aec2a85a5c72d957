/* The players' chat: see game_chat.h. */
#include "game_chat.h"

#include "game_auth.h"
#include "game_state.h"
#include "games_body.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Valid UTF-8 with no control characters (C0, DEL, C1). */
static int clean_text(const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned c = *p;
        int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
        if (n < 0 || (n == 1 && c < 0xc2))
            return 0;
        if (n == 0 && (c < 0x20 || c == 0x7f))
            return 0;
        unsigned cp = n ? c & (0x3f >> n) : c;
        for (int i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (cp >= 0x80 && cp < 0xa0)
            return 0;
        p += n + 1;
    }
    return 1;
}

static int count_row(void *ctx, int ncols, const char *const *vals)
{
    (void)ncols;
    *(long *)ctx = strtol(vals[0], NULL, 10);
    return 0;
}

int srv_chat_post(tp_db *d, const char *game_id, int side, const char *text, int64_t now_ms, char *why,
                  size_t whylen)
{
    tc_error err;
    if (!text[0] || strlen(text) > SRV_CHAT_MAX) {
        snprintf(why, whylen, "a chat line holds 1 to %d bytes", SRV_CHAT_MAX);
        return 400;
    }
    if (!clean_text(text)) {
        snprintf(why, whylen, "a chat line must be UTF-8 text without control characters (no line breaks)");
        return 400;
    }
    long recent = 0, total = 0;
    tp_arg a[] = {TP_TEXT(game_id), TP_INT(side), TP_INT(now_ms - SRV_CHAT_WINDOW_MS)};
    if (tp_db_exec(d, "SELECT COUNT(*) FROM game_chat WHERE game_id = ?1 AND side = ?2 AND at_ms > ?3", a, 3,
                   count_row, &recent, &err) < 0 ||
        tp_db_exec(d, "SELECT COUNT(*) FROM game_chat WHERE game_id = ?1", a, 1, count_row, &total, &err) < 0)
        goto failed;
    if (recent >= SRV_CHAT_BURST) {
        snprintf(why, whylen, "too many chat lines: at most %d in %d seconds", SRV_CHAT_BURST,
                 SRV_CHAT_WINDOW_MS / 1000);
        return 429;
    }
    if (total >= SRV_CHAT_LINES) {
        snprintf(why, whylen, "this game's chat is full (%d lines)", SRV_CHAT_LINES);
        return 429;
    }
    /* the next number; a line written meanwhile (another process) makes
     * the key clash: count again */
    for (int attempt = 0; attempt < 8; attempt++) {
        long seq = 0;
        if (tp_db_exec(d, "SELECT COALESCE(MAX(seq), 0) FROM game_chat WHERE game_id = ?1", a, 1, count_row, &seq,
                       &err) < 0)
            goto failed;
        tp_arg ins[] = {TP_TEXT(game_id), TP_INT(seq + 1), TP_INT(side), TP_TEXT(text), TP_INT(now_ms)};
        int rc = tp_db_exec(d, "INSERT INTO game_chat (game_id, seq, side, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                            ins, 5, NULL, NULL, &err);
        if (rc == TP_EUNIQUE)
            continue;
        if (rc < 0)
            goto failed;
        return 0;
    }
    snprintf(why, whylen, "the chat is busy: try again");
    return 409;
failed:
    fprintf(stderr, "topochess serve: chat store: %s\n", err.msg);
    snprintf(why, whylen, "the chat cannot be stored now: try again shortly");
    return 503;
}

static int line_row(void *ctx, int ncols, const char *const *vals)
{
    (void)ncols;
    json_array_insert_new(ctx, 0,
                          json_pack("{s:s,s:s,s:I}", "side", srv_side_name(atoi(vals[0])), "text", vals[1], "at_ms",
                                    (json_int_t)strtoll(vals[2], NULL, 10)));
    return 0;
}

static int open_row(void *ctx, int ncols, const char *const *vals)
{
    (void)ncols;
    int side = atoi(vals[0]);
    if (side == 0 || side == 1)
        ((int *)ctx)[side] = 1;
    return 0;
}

/* Which sides opened the chat to watchers: 0, or -1 (logged). */
static int sides_open(tp_db *d, const char *game_id, int open[2])
{
    tc_error err;
    open[0] = open[1] = 0;
    tp_arg a[] = {TP_TEXT(game_id)};
    if (tp_db_exec(d, "SELECT side FROM chat_open WHERE game_id = ?1", a, 1, open_row, open, &err) < 0) {
        fprintf(stderr, "topochess serve: chat store: %s\n", err.msg);
        return -1;
    }
    return 0;
}

json_t *srv_chat_json(tp_db *d, const char *game_id)
{
    tc_error err;
    int open[2];
    json_t *lines = json_array();
    tp_arg a[] = {TP_TEXT(game_id), TP_INT(SRV_CHAT_SHOWN)};
    if (tp_db_exec(d, "SELECT side, text, at_ms FROM game_chat WHERE game_id = ?1 ORDER BY seq DESC LIMIT ?2", a, 2,
                   line_row, lines, &err) < 0) {
        fprintf(stderr, "topochess serve: chat store: %s\n", err.msg);
        json_decref(lines);
        return NULL;
    }
    if (sides_open(d, game_id, open)) {
        json_decref(lines);
        return NULL;
    }
    return json_pack("{s:o, s:{s:b, s:b}}", "chat", lines, "watchers", "white", open[TC_WHITE], "black",
                     open[TC_BLACK]);
}

int srv_chat_open(tp_db *d, const tg_game *g)
{
    int open[2];
    if (sides_open(d, g->id, open))
        return -1;
    if (g->engine_side == 0 || g->engine_side == 1)
        open[g->engine_side] = 1;
    return open[0] && open[1];
}

int srv_chat_set_open(tp_db *d, const char *game_id, int side, int on, char *why, size_t whylen)
{
    tc_error err;
    tp_arg a[] = {TP_TEXT(game_id), TP_INT(side)};
    int rc = tp_db_exec(d, "DELETE FROM chat_open WHERE game_id = ?1 AND side = ?2", a, 2, NULL, NULL, &err);
    if (rc >= 0 && on)
        rc = tp_db_exec(d, "INSERT INTO chat_open (game_id, side) VALUES (?1, ?2)", a, 2, NULL, NULL, &err);
    if (rc == TP_EUNIQUE) /* opened meanwhile by another request */
        rc = 0;
    if (rc < 0) {
        fprintf(stderr, "topochess serve: chat store: %s\n", err.msg);
        snprintf(why, whylen, "the chat cannot be changed now: try again shortly");
        return 503;
    }
    return 0;
}

void srv_chat_answer(tp_db *d, const tg_game *g, struct MHD_Connection *c, srv_response *r)
{
    int side = srv_game_side(d, g, NULL, c, 0, r);
    if (side == -1)
        return;
    int open = side >= 0 ? 1 : srv_chat_open(d, g);
    json_t *chat = open > 0 ? srv_chat_json(d, g->id) : NULL;
    if (chat)
        srv_api_json(r, 200, chat);
    else if (!open)
        srv_route_error(r, 403, 1, "the players' chat is for the two players: watchers read it only once both "
                                   "players open it to them");
    else
        srv_route_error(r, 503, 1, "the chat cannot be read now: try again shortly");
}

char *srv_chat_event(tp_db *d, const tg_game *g)
{
    tc_error err;
    long n = 0;
    tp_arg a[] = {TP_TEXT(g->id)};
    if (tp_db_exec(d, "SELECT COUNT(*) FROM game_chat WHERE game_id = ?1", a, 1, count_row, &n, &err) < 0) {
        fprintf(stderr, "topochess serve: chat store: %s\n", err.msg);
        return NULL;
    }
    int open = srv_chat_open(d, g);
    if (open < 0)
        return NULL;
    char *text = malloc(64);
    if (text)
        snprintf(text, 64, "{\"lines\":%ld,\"watchers\":%s}", n, open ? "true" : "false");
    return text;
}
