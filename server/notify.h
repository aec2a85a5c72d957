/* What the players' inbox is told (docs/correspondence.md,
 * "Notifications"): a correspondence game's turn and end, a challenge, a
 * seek taken while its owner was away. The rows are notify_store.h's; on
 * PostgreSQL every process's lobby is woken (NOTIFY tg_lobby) so that the
 * player's pages hear the new count at once, on SQLite at the lobby's next
 * beat. Calls games/notify_store.h only. */
#ifndef SRV_NOTIFY_H
#define SRV_NOTIFY_H

#include "notify_store.h"

/* Puts one notification in a user's inbox (text and url are copied; url a
 * path of this site). 0, -1 (the reason on stderr: an inbox that fails
 * never fails the move that caused it). */
int srv_notify(tp_db *db, const char *user_id, const char *kind, const char *game_id, const char *text,
               const char *url);
/* After a saved change to a game: for a correspondence game between two
 * accounts, tells the player to move that it is their turn (moved: the
 * change was a move) and both players that it ended (when it did). */
void srv_notify_game(tp_db *db, const tg_game *g, int moved);

#endif
