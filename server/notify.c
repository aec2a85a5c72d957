/* The players' inbox: see notify.h. */
#include "notify.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int srv_notify(tp_db *db, const char *user_id, const char *kind, const char *game_id, const char *text,
               const char *url)
{
    tp_note n;
    memset(&n, 0, sizeof n);
    unsigned char raw[TP_NOTE_ID_LEN / 2];
    randombytes_buf(raw, sizeof raw);
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(n.id + 2 * i, 3, "%02x", raw[i]);
    snprintf(n.kind, sizeof n.kind, "%s", kind);
    snprintf(n.game_id, sizeof n.game_id, "%s", game_id ? game_id : "");
    size_t len = strlen(text);
    if (len > TP_NOTE_TEXT_MAX) { /* cut where a character starts */
        len = TP_NOTE_TEXT_MAX;
        while (len > 0 && ((unsigned char)text[len] & 0xc0) == 0x80)
            len--;
    }
    memcpy(n.text, text, len);
    snprintf(n.url, sizeof n.url, "%s", url);
    n.created_ms = now_ms();
    tc_error err;
    if (tp_note_add(db, user_id, &n, &err)) {
        fprintf(stderr, "topochess serve: inbox: %s\n", err.msg);
        return -1;
    }
    if (tp_db_shared(db) && tp_db_notify(db, "tg_lobby", "inbox 1", &err))
        fprintf(stderr, "topochess serve: inbox: %s\n", err.msg);
    return 0;
}

/* "1-0" as the player of side reads it. */
static const char *outcome(const char *result, int side)
{
    if (!strcmp(result, "1/2-1/2"))
        return "drawn";
    if (!strcmp(result, "1-0"))
        return side == TC_WHITE ? "won" : "lost";
    if (!strcmp(result, "0-1"))
        return side == TC_BLACK ? "won" : "lost";
    return "aborted";
}

void srv_notify_game(tp_db *db, const tg_game *g, int moved)
{
    if (!db || g->clock.kind != TG_CLOCK_CORRESPONDENCE)
        return;
    tp_game_players p;
    tc_error err;
    if (tp_game_players_of(db, g->id, &p, &err) != 1)
        return;
    char text[512], url[160];
    if (tg_game_active(g)) {
        if (!moved)
            return;
        int turn = tg_game_turn(g);
        tp_notes_drop_game(db, p.user[!turn], g->id, "turn", &err); /* the mover has seen it */
        const tg_move_rec *last = g->nmoves ? &g->moves[g->nmoves - 1] : NULL;
        snprintf(text, sizeof text, "Your move against %s in %s%s%s (%d day%s a move).", p.name[!turn], g->def.title,
                 last ? ": they played " : "", last ? last->san : "", g->clock.days, g->clock.days == 1 ? "" : "s");
        snprintf(url, sizeof url, "/game/%s#token=%s", g->id, g->token[turn]);
        srv_notify(db, p.user[turn], "turn", g->id, text, url);
        return;
    }
    for (int side = 0; side < 2; side++) {
        tp_notes_drop_game(db, p.user[side], g->id, "turn", &err);
        snprintf(text, sizeof text, "Your game against %s in %s ended: you %s (%s, %s).", p.name[!side],
                 g->def.title, outcome(g->result, side), g->result, g->termination);
        snprintf(url, sizeof url, "/game/%s#token=%s", g->id, g->token[side]);
        srv_notify(db, p.user[side], "ended", g->id, text, url);
    }
}
