/* The archive: /games (a page) and GET /api/games (JSON), the hosted
 * games newest first with their players (from the lobby's rated_games),
 * filtered by variant, player and result, in pages.
 *
 * Limits: a page of /games holds ARCHIVE_PAGE games, the API's lists at
 * most LIST_MAX (limit=, default 50); page= runs 1..ARCHIVE_PAGES.
 *
 * Calls game_store.h, games_pages.h and respond.h. */
#ifndef SRV_ARCHIVE_H
#define SRV_ARCHIVE_H

#include "game_store.h"
#include "route.h"
#include "site.h"

#define LIST_MAX 200
#define ARCHIVE_PAGE 50    /* games on a page of /games */
#define ARCHIVE_PAGES 1000 /* pages one may ask for */

/* Answers a list: q is the raw query string (or NULL), api 1 for JSON. */
void srv_archive_answer(srv_gstore *S, const srv_site *site, const char *q, int api, srv_response *r);

#endif
