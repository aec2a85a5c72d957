/* The players' inbox (docs/correspondence.md, "Notifications"): one row a
 * notification, kept per account, newest first, read or unread. Rows only;
 * what is said, and when, is server/notify.c's.
 *
 * Limits: TP_NOTES_PER_USER rows an account (adding one drops the oldest
 * beyond it); tp_notes_prune deletes rows older than a time. */
#ifndef TP_NOTIFY_STORE_H
#define TP_NOTIFY_STORE_H

#include "account_store.h"
#include "game.h"

#define TP_NOTE_ID_LEN 16
#define TP_NOTE_TEXT_MAX 240
#define TP_NOTES_PER_USER 200
/* A notification is kept this long, read or not. */
#define TP_NOTE_LIFE_MS (30LL * 24 * 3600 * 1000)

/// One notification.
typedef struct tp_note {
    char id[TP_NOTE_ID_LEN + 1];
    char kind[16];               /* "turn", "ended", "challenge", "start", "tournament" */
    char game_id[TG_ID_LEN + 1]; /* "" when about no game */
    char text[TP_NOTE_TEXT_MAX + 1];
    char url[160];               /* a path on this site */
    int64_t created_ms;
    int read;
} tp_note;

/* Adds a notification for a user; a "turn" note replaces the user's unread "turn" note
 * of the same game. 0, -1. */
int tp_note_add(tp_db *d, const char *user_id, const tp_note *n, tc_error *err);
/* The newest notifications of a user (at most max): the count, -1. */
int tp_notes_of(tp_db *d, const char *user_id, tp_note *out, int max, tc_error *err);
/* The number of unread notifications of a user, -1. */
int tp_notes_unread(tp_db *d, const char *user_id, tc_error *err);
/* Marks one notification (id) or all of them (id NULL) read: the rows
 * changed, -1. Only the user's own. */
int tp_notes_mark_read(tp_db *d, const char *user_id, const char *id, tc_error *err);
/* Deletes the user's unread notes of one kind about one game (a "turn"
 * note once the player has moved or the game ended). */
int tp_notes_drop_game(tp_db *d, const char *user_id, const char *game_id, const char *kind, tc_error *err);
/* Deletes every notification created before before_ms: the rows, -1. */
int tp_notes_prune(tp_db *d, int64_t before_ms, tc_error *err);

/// The accounts that play a lobby game, and their names.
typedef struct tp_game_players {
    char user[2][TP_ID_LEN + 1];     /* [TC_WHITE], [TC_BLACK] */
    char name[2][TP_NAME_MAX + 1];
} tp_game_players;
/* 1 when the game came from the lobby (both sides have accounts), 0 when
 * not, -1. */
int tp_game_players_of(tp_db *d, const char *game_id, tp_game_players *out, tc_error *err);

/// A game in progress of a user, for the "your turn" lists.
typedef struct tp_active_game {
    char game_id[TG_ID_LEN + 1];
    char variant[64];
    char white[TP_NAME_MAX + 1], black[TP_NAME_MAX + 1];
} tp_active_game;
/* The user's lobby games still in progress, oldest first (at most max):
 * the count, -1. */
int tp_active_games_of(tp_db *d, const char *user_id, tp_active_game *out, int max, tc_error *err);

#endif
