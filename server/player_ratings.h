/* The ratings part of a player page (/@/NAME): the table of the player's
 * rating in each variant and the newest steps of their rating history,
 * as HTML appended to a page that people.c renders. */
#ifndef SRV_PLAYER_RATINGS_H
#define SRV_PLAYER_RATINGS_H

#include "account_store.h"
#include "buf.h"
#include "site.h"

#define SRV_PEOPLE_MAX_RATINGS 64 /* variants listed on one player page */

/* Appends the "Ratings" section for user_id to b: 0, or -1 with err when
 * the account store failed (b then holds a part of the section). */
int srv_player_ratings_html(srv_buf *b, tp_db *db, const srv_site *site, const char *user_id, tc_error *err);

#endif
