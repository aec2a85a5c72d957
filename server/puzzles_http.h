/* Puzzles on the hub with a rating (docs/puzzles.md, "On the hub"):
 *
 *   GET  /puzzles?variant=SLUG[&theme=T][&id=ID]  the page: a puzzle from
 *        the table (near a signed-in player's rating, any for a visitor;
 *        ID: that one), the variant's themes; with no puzzle in the table
 *        the page makes its own in the browser, unrated (as with
 *        &practice=1)
 *   GET  /api/puzzles/next?variant=SLUG[&theme=T]  the same puzzle as JSON
 *   GET  /api/puzzles/daily?variant=SLUG           the day's puzzle (UTC)
 *   GET  /api/puzzles/ID                           one puzzle
 *   POST /api/puzzles/ID/attempt   form moves=e2e4+e7e5..., csrf (or
 *        X-CSRF-Token): judged here (puzzle_judge.h), recorded, rated once
 *   GET  /api/puzzles/me           the player's rating and history
 *
 * and the parts other pages show: the day's puzzle (home and variant
 * pages), the history (account page), the rating (player page).
 *
 * Limits: SRV_PUZZLE_ATTEMPTS_PER_MINUTE attempts a player a minute (429
 * beyond); SRV_PUZZLE_HISTORY attempts shown; SRV_PUZZLE_THEMES themes
 * listed; the judge's (puzzle_judge.h). Calls puzzle_store.h,
 * puzzle_judge.h, puzzle_import.h, session.h, render.h, route.h. */
#ifndef SRV_PUZZLES_HTTP_H
#define SRV_PUZZLES_HTTP_H

#include "account_store.h"
#include "buf.h"
#include "route.h"
#include "site.h"

#define SRV_PUZZLE_ATTEMPTS_PER_MINUTE 20
#define SRV_PUZZLE_HISTORY 20
#define SRV_PUZZLE_THEMES 40

typedef struct srv_puzzles srv_puzzles;

/* The puzzles over db; seed: fill the table for the cheap presets that
 * have none (puzzle_import.h). NULL with err. */
srv_puzzles *srv_puzzles_start(tp_db *db, int seed, tc_error *err);
void srv_puzzles_stop(srv_puzzles *Z);

/// The parts of a request the puzzles read.
typedef struct srv_puzzles_call {
    const char *method, *path, *query; /* query: after '?', or NULL */
    const char *body;
    size_t len;
    const char *csrf, *origin, *host, *fetch_site; /* X-CSRF-Token (else the form's), Origin, Host, Sec-Fetch-Site */
    const char *content_type;
    const srv_site *site;
} srv_puzzles_call;

/* True for the paths above (path without the query). */
int srv_puzzles_owns(const char *path);
/* Answers one of them into r (s: the session or NULL; stale: a cookie that
 * names no live session). */
void srv_puzzles_http(srv_puzzles *Z, const tp_session *s, int stale, const srv_puzzles_call *c, int64_t now_ms,
                      srv_response *r);

/* The day's puzzle of a variant as a block (a board, its title, a link),
 * appended to b; variant NULL: the hub's, one variant a day in turn among
 * those with puzzles. Nothing when there is none. */
void srv_puzzles_daily_html(srv_puzzles *Z, const srv_site *site, const char *variant, int64_t now_ms, srv_buf *b);
/* GET /v/SLUG: the variant page the site rendered, with the day's puzzle
 * in its place (the <!--tc-daily--> mark of srv_render_variant_main). */
void srv_puzzles_variant_page(srv_puzzles *Z, const srv_site *site, const char *slug, int64_t now_ms,
                              srv_response *r);
/* The account page's puzzle rating and last attempts. 0, -1 with err. */
int srv_puzzles_history_html(srv_puzzles *Z, const srv_site *site, const char *user_id, srv_buf *b, tc_error *err);
/* The player page's puzzle rating line. 0, -1 with err. */
int srv_puzzles_rating_html(srv_puzzles *Z, const char *user_id, srv_buf *b, tc_error *err);

#endif
