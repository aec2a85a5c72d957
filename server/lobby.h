/* The lobby (docs/accounts.md): seeks with a variant, a clock, rated or
 * casual, a colour and an optional rating range; a live list by
 * server-sent events; accepting a seek makes the game (through the game
 * store, as the games API would) and sends each player into it, the owner
 * by an event on its lobby stream. Seeks and the games they made are rows
 * in the shared database, so any server process serves them; a thread per
 * process republishes the list when it changes, tells its owners of taken
 * seeks and its players of challenges, woken by each change made here and,
 * on PostgreSQL, by the other processes' (LISTEN/NOTIFY on tg_lobby: no
 * polling of the list); every SRV_LOBBY_BEAT_MS it sweeps stale seeks,
 * keeps its owners' seeks alive, pings its streams and counts the results
 * of rated games (Glicko-2) once they end.
 *
 * Limits: SRV_SEEKS_PER_USER open seeks per account, SRV_SEEKS_PER_ADDR
 * per client address (several accounts behind one address) and
 * SRV_SEEKS_MAX in all; a seek lives SRV_SEEK_LIFE_MS at most, and SRV_SEEK_STALE_MS after
 * its owner's last lobby stream went away; a stream may leave
 * SRV_SSE_BACKLOG bytes unread (sse_queue.h: past that it gets an
 * "overflow" event and ends) and is closed after SRV_LOBBY_TIMEOUT
 * seconds without a byte taken (pings come every 3 s). */
#ifndef SRV_LOBBY_H
#define SRV_LOBBY_H

#include "buf.h"
#include "lobby_store.h"
#include "route.h"
#include "site.h"

#include <jansson.h>
#include <microhttpd.h>

#define SRV_SEEKS_PER_USER 3
#define SRV_SEEKS_PER_ADDR 5
#define SRV_SEEKS_MAX 200
#define SRV_SEEK_LIFE_MS (30 * 60 * 1000)
#define SRV_SEEK_STALE_MS (30 * 1000)
/* A correspondence seek or challenge waits this long for a taker, its
 * owner present or not. */
#define SRV_CORR_SEEK_LIFE_MS (7LL * 24 * 3600 * 1000)
#define SRV_LOBBY_TIMEOUT 60
#define SRV_LOBBY_BEAT_MS 3000

typedef struct srv_lobby srv_lobby;

/* Starts the lobby on a database (the caller's, kept) and the games'
 * store at url; NULL with err. */
srv_lobby *srv_lobby_start(tp_db *db, const char *url, long long day_ms, tc_error *err);
void srv_lobby_stop(srv_lobby *L);
/* Work to do at each beat of the lobby's thread (the tournaments'
 * pairer), with the time: set once, before or after the start. */
void srv_lobby_on_beat(srv_lobby *L, int (*fn)(void *ctx, int64_t now_ms), void *ctx);

/// A seek as a form asks for it (strings as sent, NULL when absent).
typedef struct srv_seek_form {
    const char *variant, *clock, *rated, *color, *min_rating, *max_rating;
    const char *target; /* a challenge: the name of the one player who may accept, else NULL */
    const char *addr;   /* the client's address as the rate limits read it (--trusted-proxy honoured) */
} srv_seek_form;

/* Posts a seek (or a challenge) for a signed-in user. The HTTP status (201
 * made, 400 a bad field or a challenge to oneself, 404 no such player, 429
 * too many from the account, the address or in all) with msg; id gets the seek's id. */
int srv_lobby_seek(srv_lobby *L, const srv_site *site, const char *user_id, const char *name,
                   const srv_seek_form *f, char *id, char *msg, size_t n);
/* Accepts a seek: 303 with location (the game with the taker's token),
 * 404 no such seek, 409 taken or one's own, 403 outside the rating range,
 * with msg. */
int srv_lobby_accept(srv_lobby *L, const srv_site *site, const char *user_id, const char *seek_id,
                     char *location, size_t ln, char *msg, size_t n);
/* Declines a challenge to user_id: 303, or 404. */
int srv_lobby_decline(srv_lobby *L, const char *user_id, const char *seek_id, char *msg, size_t n);
/* Withdraws one's own seek: 303, or 404. */
int srv_lobby_cancel(srv_lobby *L, const char *user_id, const char *seek_id, char *msg, size_t n);

/* The open seeks as JSON (heap text; NULL on a database fault). */
char *srv_lobby_json(srv_lobby *L, size_t *len);
/* The lobby page's main part (heap): the form (for a signed-in user,
 * with its CSRF token, its variant `pick` when that is a page's slug:
 * /lobby?variant=SLUG, linked from the page), the list. */
char *srv_lobby_main(srv_lobby *L, const srv_site *site, const char *user_id, const char *csrf, const char *pick);

/* The home page's summary of the lobby (heap HTML; NULL on a fault): the
 * number of open seeks and the first SRV_HOME_SEEKS of them, the number
 * of games being played (in progress, a move in the last
 * SRV_LIVE_WINDOW_MS), a link to /lobby. */
#define SRV_HOME_SEEKS 5
#define SRV_LIVE_WINDOW_MS (30 * 60 * 1000)
char *srv_lobby_summary(srv_lobby *L, const srv_site *site);

/* The player page's list of a user's games from the lobby (heap HTML;
 * NULL on a fault): at most SRV_PLAYER_GAMES, newest first, with the
 * result each game has now. */
#define SRV_PLAYER_GAMES 20
char *srv_lobby_player_games(srv_lobby *L, const srv_site *site, const char *user_id);

/* A signed-in player's games in progress (heap HTML, "" when none; NULL
 * on a fault): the ones where it is their turn first, each linked with
 * their side's token, so a game stays reachable from any browser they log
 * in on (the "your turn" list of the lobby, home and account pages). */
/* The <option>s of the clocks a seek or a challenge may ask for (5+3
 * selected). */
void srv_lobby_clock_options(srv_buf *b);

char *srv_lobby_my_games(srv_lobby *L, const srv_site *site, const char *user_id, const char *name);

/// One of a player's games in progress ("your turn" lists).
typedef struct srv_my_game {
    char game_id[TG_ID_LEN + 1], token[TG_TOKEN_LEN + 1];
    char variant[64], title[96], opponent[TP_NAME_MAX + 1];
    int side, my_turn, correspondence, nmoves;
    char *svg; /* srv_lobby_my_games_list: the position from the player's side (heap, or NULL) */
    int64_t left_ms; /* the time left for the move being waited for; -1 untimed */
} srv_my_game;
#define SRV_MY_GAMES 100
/* The player's games in progress (at most max), their turn first, then
 * the least time left: the count, -1. with_svg: each with its position
 * drawn (free them with srv_my_games_free). */
int srv_lobby_my_games_list(srv_lobby *L, const char *user_id, const char *name, srv_my_game *out, int max,
                            int with_svg);
void srv_my_games_free(srv_my_game *list, int n);
/* The same as a JSON array ({id, url, token, variant, opponent, side,
 * your_turn, correspondence, left_ms, plies}), or NULL on a fault. */
json_t *srv_lobby_my_games_json(srv_lobby *L, const char *user_id, const char *name);

/* Handles the results of rated games that have ended, oldest end first
 * (games/rating_store.h: each once, in one transaction; those that do not
 * count keep a note why), at most SRV_RESULTS_PER_BEAT a call (the lobby's
 * thread calls it every beat; tests call it directly). The results
 * handled, counted or not. */
#define SRV_RESULTS_PER_BEAT 64
int srv_lobby_count_results(srv_lobby *L);

/* Ends every lobby stream (each is resumed and closes): call before
 * MHD_stop_daemon, which refuses to stop with suspended connections. New
 * streams are refused from then on. */
void srv_lobby_close_streams(srv_lobby *L);

/* Opens a lobby stream on c for a user ("" for a watcher) from a client
 * address (srv_client_addr), under the game streams' limits (streams.h):
 * SRV_STREAMS_PER_ADDR lobby and inbox streams per address,
 * SRV_MAX_STREAMS in all; beyond them 429 with Retry-After. inbox_only
 * (/api/inbox/events, a signed-in user's every page): the inbox's unread
 * count and the challenges only; it keeps no seek alive and its end
 * withdraws none. Every stream of a signed-in user hears `inbox`
 * ({"unread": N}) when it opens and whenever the count changes (checked
 * at a change in the lobby, a NOTIFY from another process, and every
 * beat). */
enum MHD_Result srv_lobby_stream(srv_lobby *L, struct MHD_Connection *c, const char *user_id, const char *addr,
                                 int inbox_only);

#endif
