/* Hosted games over HTTP: the API's routes, the actions on a game and the
 * life of the modules under it (see games_api.h).
 *
 * Every request loads the game from the store and writes it back before
 * it answers. The modules, each with its limits at its top, are called in
 * one direction: games_api -> games_pages, games_body, flag_timer ->
 * engines -> streams, game_store -> game_state; respond.c sends.
 *
 * Limits: creates and rematches from one client address (rate_limit.h);
 * the lists' are archive.h's. */
#define _GNU_SOURCE /* pthread */
#include "games_api.h"

#include "analysis_http.h"
#include "buf.h"
#include "engines.h"
#include "flag_timer.h"
#include "game_state.h"
#include "game_store.h"
#include "games_body.h"
#include "games_pages.h"
#include "rate_limit.h"
#include "archive.h"
#include "game_auth.h"
#include "game_chat.h"
#include "lobby_store.h"
#include "notify.h"
#include "respond.h"
#include "spectators.h"
#include "streams.h"
#include "topochess_explain.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct srv_games {
    char url[1024];
    const char *cors;
    const char *proxy; /* --trusted-proxy, or NULL */
    srv_gstore *store;
    srv_streams *streams;
    srv_engines *engines;
    srv_timer *timer;
    tg_listener *listener;
    srv_rate *rate;
    double per_minute;
    long long day_ms; /* serve --day-ms (0: a real day) */
    tp_db *db; /* the chat's rows (game_chat.h), the spectators', the analysis queue */
    srv_analysis_api *analysis;
    srv_spectators *_Atomic spectators; /* set after the listener starts */
};

static void on_spectators(const char *id, int n, void *ctx)
{
    srv_spectators_here(((srv_games *)ctx)->spectators, id, n);
}

/* A failure of the store as an answer: 503 with Retry-After while the
 * database is being reconnected, else 500. The store's own text (the
 * driver's) goes to the log only, never into an answer. */
static void store_error(srv_response *r, tg_code rc, int api, const tc_error *err)
{
    fprintf(stderr, "topochess serve: store: %s\n", err->msg);
    if (rc == TG_EUNAVAILABLE) {
        srv_route_error(r, 503, api, "the game store is unavailable for a moment: try again shortly");
        r->retry_after = 2;
    } else {
        srv_route_error(r, 500, api, "internal error in the game store (logged on the server)");
    }
}

static void rate_refused(srv_games *G, srv_response *r)
{
    srv_route_error(r, 429, 1, "too many games created from this address: at most %.0f a minute", G->per_minute);
    r->retry_after = 60 / (G->per_minute < 60 ? (int)G->per_minute : 60);
}

static int valid_id(const char *s)
{
    size_t n = strlen(s);
    if (n != TG_ID_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return 1;
}

/* Changes made by other processes (PostgreSQL NOTIFY). */
/* The listener lost its connection (id NULL, version 0): reads skip the
 * cache until it is back, since changes from elsewhere go unheard. It is
 * back (version 1): every watched game is loaded again and its watchers
 * sent what they missed. */
static void resync(srv_games *G, int back)
{
    srv_gstore_cache_use(G->store, back);
    fprintf(stderr, "topochess serve: change listener %s\n", back ? "listening again: resynchronising" : "lost: reconnecting");
    if (!back)
        return;
    int n = 0;
    char (*ids)[TG_ID_LEN + 1] = srv_streams_watched(G->streams, &n);
    for (int i = 0; i < n; i++) {
        tg_game g;
        tc_error err;
        if (srv_gstore_load(G->store, ids[i], &g, &err) == TG_OK) {
            if (srv_streams_wants(G->streams, g.id, g.version))
                srv_streams_publish(G->streams, &g);
            tg_game_free(&g);
        }
    }
    free(ids);
}

static void rematch_id(const char *id, char *out);

/* The game's chat to its watchers here. */
static void send_chat(srv_games *G, const char *id)
{
    if (!srv_streams_wants(G->streams, id, INT64_MAX))
        return;
    tg_game g;
    tc_error err;
    if (srv_gstore_load(G->store, id, &g, &err) != TG_OK)
        return;
    char *text = srv_chat_event(G->db, &g); /* no text: each page reads the chat as it may */
    if (text)
        srv_streams_event(G->streams, id, 0, "chat", text);
    free(text);
    tg_game_free(&g);
}

/* Another process made game id's rematch (version 0): its watchers here
 * are told too. */
static void on_rematch(srv_games *G, const char *id)
{
    if (!srv_streams_wants(G->streams, id, INT64_MAX))
        return;
    char nid[TG_ID_LEN + 1];
    rematch_id(id, nid);
    tg_game g;
    tc_error err;
    if (srv_gstore_load(G->store, nid, &g, &err) == TG_OK) {
        char ev[64];
        snprintf(ev, sizeof ev, "{\"id\":\"%s\"}", g.id);
        srv_streams_event(G->streams, id, 0, "rematch", ev);
        tg_game_free(&g);
    }
}

static void on_change(const char *id, int64_t version, void *ctx)
{
    srv_games *G = ctx;
    if (!id) {
        resync(G, (int)version);
        return;
    }
    if (version == -1) { /* the spectators of a game changed somewhere */
        srv_spectators_push(G->spectators, id);
        return;
    }
    if (version == 0) { /* a rematch made, or a chat line */
        on_rematch(G, id);
        send_chat(G, id);
        return;
    }
    srv_gstore_cache_drop(G->store, id);
    if (!srv_streams_wants(G->streams, id, version))
        return;
    tg_game g;
    tc_error err;
    if (srv_gstore_load(G->store, id, &g, &err) == TG_OK) {
        srv_streams_publish(G->streams, &g);
        tg_game_free(&g);
    }
}

srv_games *srv_games_start(const srv_games_options *o, tc_error *err)
{
    srv_games *G = calloc(1, sizeof *G);
    if (!G) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    snprintf(G->url, sizeof G->url, "%s", o->db && *o->db ? o->db : "topochess.db");
    int pg = !strncmp(G->url, "postgresql://", 13) || !strncmp(G->url, "postgres://", 11);
    G->cors = o->cors;
    G->per_minute = o->create_per_minute > 0 ? o->create_per_minute : 60;
    G->day_ms = o->day_ms;
    G->proxy = o->trusted_proxy;
    G->rate = srv_rate_new(G->per_minute, G->proxy);
    if (!G->rate) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        free(G);
        return NULL;
    }
    /* SQLite in WAL mode reads beside a writer */
    G->store = srv_gstore_open(G->url, o->stores > 0 ? o->stores : 4, err);
    G->streams = G->store ? srv_streams_new(o->cors, G->proxy) : NULL;
    if (G->store && !G->streams)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    if (G->streams && pg)
        G->listener = tg_store_listen(G->url, on_change, G, err);
    if (!G->streams || (pg && !G->listener)) {
        srv_streams_free(G->streams);
        srv_gstore_close(G->store);
        free(G);
        return NULL;
    }
    G->db = tp_db_open(G->url, err);
    if (!G->db) {
        srv_games_stop(G);
        return NULL;
    }
    G->spectators = srv_spectators_start(G->db, G->streams);
    if (!G->spectators) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        srv_games_stop(G);
        return NULL;
    }
    srv_streams_on_spectators(G->streams, on_spectators, G);
    G->engines = srv_engines_start(G->store, G->streams, o->engine_threads > 0 ? o->engine_threads : 1);
    G->timer = srv_timer_start(G->store, G->streams, G->engines, G->db);
    G->analysis = srv_analysis_api_start(G->store, G->db, o->analysis_threads, o->analysis_nodes, G->proxy);
    if (!G->engines || !G->timer || !G->analysis) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        srv_games_stop(G);
        return NULL;
    }
    return G;
}

void srv_games_close_streams(srv_games *G, int wait_ms)
{
    if (G)
        srv_streams_close_all(G->streams, wait_ms);
}

void srv_games_set_daemon(srv_games *G, struct MHD_Daemon *d)
{
    if (G)
        srv_streams_set_daemon(G->streams, d);
}

void srv_games_stop(srv_games *G)
{
    if (!G)
        return;
    srv_timer_stop(G->timer);
    srv_engines_stop(G->engines);
    srv_analysis_api_stop(G->analysis);
    if (G->listener)
        tg_listener_stop(G->listener);
    srv_spectators_stop(G->spectators);
    srv_streams_free(G->streams);
    srv_gstore_close(G->store);
    srv_rate_free(G->rate);
    if (G->db)
        tp_db_close(G->db);
    free(G);
}

/* ---------------------------------------------------------------- requests */

int srv_games_owns(const char *t)
{
    return !strncmp(t, "/api/games", 10) && (t[10] == '\0' || t[10] == '/' || t[10] == '?') ? 1
           : !strncmp(t, "/game/", 6)                                                       ? 1
           : !strncmp(t, "/games", 6) && (t[6] == '\0' || t[6] == '?')                      ? 1
                                                                                            : 0;
}

static void finish_create(srv_games *G, struct MHD_Connection *c, tg_game *g, srv_response *r)
{
    json_t *o = json_pack("{s:s,s:s,s:o}", "id", g->id, "url", "", "state", srv_state_json(g, srv_now_ms()));
    char url[64];
    snprintf(url, sizeof url, "/game/%s", g->id);
    json_object_set_new(o, "url", json_string(url));
    for (int side = 0; side < 2; side++) {
        if (side == g->engine_side)
            continue;
        char link[128];
        snprintf(link, sizeof link, "/game/%s#token=%s", g->id, g->token[side]);
        json_object_set_new(o, srv_side_name(side), json_pack("{s:s,s:s}", "token", g->token[side], "url", link));
    }
    srv_api_json(r, 201, o);
    if (srv_engine_to_move(g)) {
        char client[48];
        srv_client_addr(c, G->proxy, client);
        srv_engines_enqueue(G->engines, g->id, client);
    }
}

static void create_game(srv_games *G, const srv_site *site, struct MHD_Connection *c, const char *body, size_t len,
                        srv_response *r)
{
    srv_create_req q;
    tc_variant_def def;
    tc_error err;
    if (srv_api_create_body(body, len, &q, r))
        return;
    json_t *b = q.body;
    const char *fen = q.fen;
    if (srv_api_create_variant(site, &q, &def, r))
        goto out;
    if (!srv_rate_take(G->rate, c)) {
        rate_refused(G, r);
        goto out;
    }
    tg_game g;
    q.clock.day_ms = q.clock.kind == TG_CLOCK_CORRESPONDENCE ? G->day_ms : 0;
    tg_code rc = tg_game_new(&g, &def, fen && *fen ? fen : NULL, &q.clock, q.engine_side, (int)q.level, srv_now_ms(), &err);
    if (rc != TG_OK) {
        if (rc == TG_EBADINPUT)
            srv_route_error(r, 400, 1, "%s", err.msg);
        else
            store_error(r, rc, 1, &err);
        goto out;
    }
    rc = srv_gstore_insert(G->store, &g, &err);
    if (rc != TG_OK)
        store_error(r, rc, 1, &err);
    else
        finish_create(G, c, &g, r);
    tg_game_free(&g);
out:
    json_decref(b);
}

/* The rematch's id, the same for both players' requests: derived from the
 * game's id, so the second request finds the game the first one made. */
static void rematch_id(const char *id, char *out)
{
    uint64_t h = 1469598103934665603ull;
    const char *salt = "rematch:";
    for (const char *p = salt; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (const char *p = id; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    snprintf(out, TG_ID_LEN + 1, "%016llx", (unsigned long long)h);
}

/* A lobby game's rematch is the same players' (rated when it was), with
 * colours swapped. */
static void rematch_players(srv_games *G, const char *old_id, const char *new_id)
{
    tp_lobby_game lg;
    tc_error err;
    if (tp_lobby_game_get(G->db, old_id, &lg, &err) != 1)
        return;
    char w[sizeof lg.white];
    memcpy(w, lg.white, sizeof w);
    memcpy(lg.white, lg.black, sizeof w);
    memcpy(lg.black, w, sizeof w);
    snprintf(lg.game_id, sizeof lg.game_id, "%s", new_id);
    if (tp_lobby_game_insert(G->db, &lg, srv_now_ms(), &err) < 0)
        fprintf(stderr, "topochess serve: rematch players: %s\n", err.msg);
}

/* A rematch request: answers it (1) when the new game exists, is made now
 * (the opponent's offer stands, or the opponent is the engine) or cannot
 * be; else 0: the caller records side's offer or declines. */
static int rematch(srv_games *G, struct MHD_Connection *c, tg_game *old, int side, const char *what,
                   srv_response *r)
{
    if (tg_game_active(old)) {
        srv_route_error(r, 409, 1, "the game is not over yet");
        return 1;
    }
    if (what && !strcmp(what, "decline"))
        return 0;
    char nid[TG_ID_LEN + 1];
    rematch_id(old->id, nid);
    tg_game g;
    tc_error err;
    int other = 1 - side;
    /* colours swap: the side's token in the new game is the one it had */
    tg_code rc = srv_gstore_load(G->store, nid, &g, &err);
    if (rc == TG_OK) {
        int nside = tg_game_side_of(&g, old->token[side]);
        json_t *o = json_pack("{s:s,s:s,s:s,s:o}", "id", g.id, "side", srv_side_name(nside), "token", old->token[side],
                              "state", srv_state_json(&g, srv_now_ms()));
        char url[160];
        snprintf(url, sizeof url, "/game/%s#token=%s", g.id, old->token[side]);
        json_object_set_new(o, "url", json_string(url));
        srv_api_json(r, 200, o);
        tg_game_free(&g);
        return 1;
    }
    if (old->engine_side < 0 && old->draw_offer != other) {
        if (!what || strcmp(what, "accept"))
            return 0; /* an offer, for the opponent to accept */
        srv_route_error(r, 409, 1, "there is no rematch offer from the opponent to accept");
        return 1;
    }
    if (!srv_rate_take(G->rate, c)) { /* a rematch is a game this client causes */
        rate_refused(G, r);
        return 1;
    }
    rc = tg_game_new(&g, &old->def, old->start_fen, &old->clock,
                     old->engine_side < 0 ? -1 : 1 - old->engine_side, old->engine_level, srv_now_ms(), &err);
    if (rc != TG_OK) {
        store_error(r, rc, 1, &err);
        return 1;
    }
    memcpy(g.id, nid, sizeof nid);
    memcpy(g.token[other], old->token[side], TG_TOKEN_LEN + 1);
    memcpy(g.token[side], old->token[other], TG_TOKEN_LEN + 1);
    rc = srv_gstore_insert(G->store, &g, &err);
    int made = rc == TG_OK;
    if (made)
        rematch_players(G, old->id, g.id);
    if (!made) { /* the opponent's request (here or on another process) made it meanwhile */
        tg_game_free(&g);
        tg_game again;
        tg_code lc = srv_gstore_load(G->store, nid, &again, &err);
        if (lc != TG_OK) {
            store_error(r, rc == TG_EUNAVAILABLE ? rc : lc, 1, &err);
            return 1;
        }
        g = again;
    }
    json_t *o = json_pack("{s:s,s:s,s:s,s:o}", "id", g.id, "side", srv_side_name(other), "token", old->token[side],
                          "state", srv_state_json(&g, srv_now_ms()));
    char url[160];
    snprintf(url, sizeof url, "/game/%s#token=%s", g.id, old->token[side]);
    json_object_set_new(o, "url", json_string(url));
    srv_api_json(r, made ? 201 : 200, o);
    /* the old game's watchers: here directly when no other process can
     * exist (SQLite), else through the store's notification, which
     * reaches every process, this one too (on_rematch) */
    if (made && !G->listener) {
        char ev[64];
        snprintf(ev, sizeof ev, "{\"id\":\"%s\"}", g.id);
        srv_streams_event(G->streams, old->id, 0, "rematch", ev);
    } else if (made && srv_gstore_announce(G->store, old->id, &err) != TG_OK) {
        fprintf(stderr, "topochess serve: store: %s\n", err.msg);
    }
    if (srv_engine_to_move(&g)) {
        char client[48];
        srv_client_addr(c, G->proxy, client);
        srv_engines_enqueue(G->engines, g.id, client);
    }
    tg_game_free(&g);
    return 1;
}

/* A chat line of side's (or, open >= 0, side opening or closing the chat
 * to watchers), stored, then told to the game's watchers: here directly
 * when no other process can exist (SQLite), else through the store's
 * notification (on_change, version 0), which reaches every process. */
static void post_chat(srv_games *G, const tg_game *g, int side, const char *text, int open, srv_response *r)
{
    char why[160];
    int st = open >= 0 ? srv_chat_set_open(G->db, g->id, side, open, why, sizeof why)
                       : srv_chat_post(G->db, g->id, side, text, srv_now_ms(), why, sizeof why);
    if (st) {
        srv_route_error(r, st, 1, "%s", why);
        if (st == 429)
            r->retry_after = SRV_CHAT_WINDOW_MS / 1000;
        return;
    }
    tc_error err;
    if (!G->listener)
        send_chat(G, g->id);
    else if (srv_gstore_announce(G->store, g->id, &err) != TG_OK)
        fprintf(stderr, "topochess serve: store: %s\n", err.msg);
    json_t *chat = srv_chat_json(G->db, g->id);
    if (chat)
        srv_api_json(r, 201, chat);
    else
        srv_route_error(r, 503, 1, "the chat cannot be read now: try again shortly");
}

/* The actions of docs/api.md's table (each taken by POST only). */
static int is_action(const char *a)
{
    static const char *const names[] = {"move", "draw", "takeback", "resign", "abort", "rematch", "chat-watchers"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(a, names[i]))
            return 1;
    return 0;
}

/* POST /api/games/<id>/<action>: load, apply, save (retrying on a
 * conflicting save), publish. */
static void game_action(srv_games *G, struct MHD_Connection *c, const char *id, const char *action, const char *body,
                        size_t len, srv_response *r)
{
    const char *move = NULL, *what = NULL;
    json_t *b = srv_api_action_body(action, body, len, &move, &what, r);
    if (!b)
        return;
    int is_move = !strcmp(action, "move"), is_draw = !strcmp(action, "draw"),
        is_resign = !strcmp(action, "resign"), is_rematch = !strcmp(action, "rematch"),
        is_abort = !strcmp(action, "abort"), is_chat = !strcmp(action, "chat"),
        is_cw = !strcmp(action, "chat-watchers");
    for (int attempt = 0; attempt < 8; attempt++) {
        tg_game g;
        tc_error err;
        tg_code rc = srv_gstore_load(G->store, id, &g, &err);
        if (rc != TG_OK) {
            if (rc == TG_ENOTFOUND)
                srv_route_error(r, 404, 1, "no game '%s'", id);
            else
                store_error(r, rc, 1, &err);
            break;
        }
        int side = srv_game_side(G->db, &g, b, c, 1, r);
        if (side < 0) {
            tg_game_free(&g);
            break;
        }
        if (is_chat || is_cw) {
            post_chat(G, &g, side, move, is_cw ? !strcmp(what, "on") : -1, r);
            tg_game_free(&g);
            break;
        }
        if (is_rematch && rematch(G, c, &g, side, what, r)) {
            tg_game_free(&g);
            break;
        }
        int64_t before = g.version;
        int stored = g.nmoves;
        int64_t t = srv_now_ms();
        char reason[512] = "";
        int flagged = tg_game_check_flag(&g, t);
        if (is_rematch) { /* after the end: no flag to find */
            rc = what && !strcmp(what, "decline") ? tg_game_decline_rematch(&g, side, t, &err)
                                                  : tg_game_offer_rematch(&g, side, t, &err);
        } else if (flagged) {
            rc = TG_ECONFLICT;
            snprintf(err.msg, sizeof err.msg, "the game is over: %s", g.termination);
        } else if (is_move) {
            rc = tg_game_move(&g, side, move, t, &err);
            /* an illegal move: the library's own reason, naming cells */
            tc_explanation *why = rc == TG_EBADINPUT ? malloc(sizeof *why) : NULL;
            if (why && tc_explain_move(g.pos, move, why) && why->message[0])
                tc_explain_line(move, why, reason, sizeof reason); /* as the terminal and the pages say it */
            free(why);
        } else if (is_resign) {
            rc = tg_game_resign(&g, side, t, &err);
        } else if (is_abort) {
            rc = tg_game_abort(&g, side, t, &err);
        } else if (is_draw) {
            if (!strcmp(what, "offer") || !strcmp(what, "accept")) {
                if (!strcmp(what, "accept") && g.draw_offer != 1 - side) {
                    rc = TG_ECONFLICT;
                    snprintf(err.msg, sizeof err.msg, "there is no draw offer from the opponent to accept");
                } else {
                    rc = tg_game_offer_draw(&g, side, t, &err);
                }
            } else if (!strcmp(what, "decline")) {
                rc = tg_game_decline_draw(&g, side, t, &err);
            } else {
                rc = TG_EBADINPUT;
                snprintf(err.msg, sizeof err.msg, "draw action must be offer, accept or decline");
            }
        } else { /* takeback */
            if (!strcmp(what, "request")) {
                rc = tg_game_request_takeback(&g, side, t, &err);
                /* the engine accepts every takeback */
                if (rc == TG_OK && g.engine_side >= 0)
                    rc = tg_game_accept_takeback(&g, g.engine_side, t, &err);
            } else if (!strcmp(what, "accept")) {
                rc = tg_game_accept_takeback(&g, side, t, &err);
            } else if (!strcmp(what, "decline")) {
                rc = tg_game_decline_takeback(&g, side, t, &err);
            } else {
                rc = TG_EBADINPUT;
                snprintf(err.msg, sizeof err.msg, "takeback action must be request, accept or decline");
            }
        }
        if (rc != TG_OK && !flagged) {
            if (rc == TG_EINTERNAL || rc == TG_EUNAVAILABLE)
                store_error(r, rc, 1, &err);
            else
                srv_route_error(r, (int)rc, 1, "%s", reason[0] ? reason : err.msg);
            tg_game_free(&g);
            break;
        }
        /* a flag fall found here is stored too, then the request refused */
        tg_code sv = srv_gstore_save(G->store, &g, before, stored, &err);
        if (sv == TG_ECONFLICT) { /* changed meanwhile: judge the request again */
            tg_game_free(&g);
            if (attempt == 7)
                srv_route_error(r, 409, 1, "the game changed while this request was judged: try again");
            continue;
        }
        if (sv != TG_OK) {
            store_error(r, sv, 1, &err);
            tg_game_free(&g);
            break;
        }
        srv_streams_publish(G->streams, &g);
        srv_notify_game(G->db, &g, is_move && !flagged);
        if (flagged)
            srv_route_error(r, 409, 1, "the game is over: %s", g.termination);
        else
            srv_api_json(r, 200, srv_state_json(&g, srv_now_ms()));
        if (srv_engine_to_move(&g)) {
            char client[48];
            srv_client_addr(c, G->proxy, client);
            srv_engines_enqueue(G->engines, g.id, client);
        }
        tg_game_free(&g);
        break;
    }
    json_decref(b);
}

int srv_games_check_body(const char *action, const char *body, size_t len)
{
    srv_response r;
    srv_api_reset(&r);
    if (action) {
        const char *move, *what;
        json_t *b = srv_api_action_body(action, body, len, &move, &what, &r);
        json_decref(b);
    } else {
        srv_create_req q;
        tc_variant_def def;
        if (!srv_api_create_body(body, len, &q, &r)) {
            if (!srv_api_create_variant(NULL, &q, &def, &r)) {
                tg_game g;
                tc_error err;
                if (tg_game_new(&g, &def, q.fen && *q.fen ? q.fen : NULL, &q.clock, q.engine_side, (int)q.level,
                                srv_now_ms(), &err) == TG_OK)
                    tg_game_free(&g);
                else
                    r.status = 400;
            }
            json_decref(q.body);
        }
    }
    int status = r.status;
    srv_response_release(&r);
    return status;
}

/* Loads a game for reading, ending it first when its flag has fallen. */
static int read_game(srv_games *G, const char *id, tg_game *g, srv_response *r, int api)
{
    tc_error err;
    tg_code rc = srv_gstore_load(G->store, id, g, &err);
    if (rc != TG_OK) {
        if (rc == TG_ENOTFOUND)
            srv_route_error(r, 404, api, "no game '%s'", id);
        else
            store_error(r, rc, api, &err);
        return -1;
    }
    if (tg_game_active(g) && g->clock.kind != TG_CLOCK_NONE)
        srv_flag_check(G->store, G->streams, G->db, g);
    return 0;
}

static void game_page(srv_games *G, const srv_site *site, const char *id, srv_response *r)
{
    tg_game g;
    if (read_game(G, id, &g, r, 0))
        return;
    /* the players, when the game came from the lobby */
    tg_archive_query aq = {id, NULL, NULL, NULL, 0};
    tg_game_summary row;
    tc_error err;
    int n = srv_gstore_archive(G->store, &aq, 1, &row, &err);
    srv_pages_game(&g, n == 1 ? &row : NULL, site, r);
    tg_game_free(&g);
}

/* GET /api/games/<id>/events: a stream of the game's states. */
static enum MHD_Result open_stream(srv_games *G, struct MHD_Connection *c, const char *id, int player)
{
    srv_response r;
    srv_api_reset(&r);
    tg_game g;
    if (read_game(G, id, &g, &r, 1))
        return srv_http_send(c, &r, G->cors);
    enum MHD_Result ok = srv_streams_open(G->streams, c, &g, player);
    tg_game_free(&g);
    return ok;
}

enum MHD_Result srv_games_answer(srv_games *G, const srv_site *site, struct MHD_Connection *c, const char *method,
                                 const char *target, const char *body, size_t len)
{
    srv_response r;
    srv_api_reset(&r);
    int api = !strncmp(target, "/api/", 5);
    char path[256];
    const char *q = strchr(target, '?');
    size_t pl = q ? (size_t)(q - target) : strlen(target);
    if (q)
        q++;
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), post = !strcmp(method, "POST");
    if (strlen(target) > SRV_MAX_TARGET) { /* as the site's routes answer */
        srv_route_error(&r, 414, api, "request target longer than %d bytes", SRV_MAX_TARGET);
        return srv_http_send(c, &r, G->cors);
    }
    if (pl >= sizeof path) {
        srv_route_error(&r, 404, api, "no such route");
        return srv_http_send(c, &r, G->cors);
    }
    memcpy(path, target, pl);
    path[pl] = '\0';
    if (!strcmp(method, "OPTIONS") && G->cors) { /* a CORS preflight, only when configured */
        r.status = 204;
        r.body = "";
        return srv_http_send(c, &r, G->cors);
    }
    if (!get && !post) {
        r.allow = 2;
        srv_route_error(&r, 405, api, "method %.16s is not allowed here", method);
        return srv_http_send(c, &r, G->cors);
    }
    char id[64] = "", action[32] = "";
    if (!strcmp(path, "/api/games")) {
        if (post) {
            create_game(G, site, c, body, len, &r);
        } else {
            srv_archive_answer(G->store, site, q, 1, &r);
        }
    } else if (!strcmp(path, "/games")) {
        if (!get)
            r.allow = 2, srv_route_error(&r, 405, 0, "the archive only reads");
        else
            srv_archive_answer(G->store, site, q, 0, &r);
    } else if (!strncmp(path, "/game/", 6)) {
        if (!get)
            r.allow = 2, srv_route_error(&r, 405, 0, "the game page only reads");
        else if (!valid_id(path + 6))
            srv_route_error(&r, 404, 0, "no game '%.32s'", path + 6);
        else
            game_page(G, site, path + 6, &r);
    } else {
        int n = sscanf(path, "/api/games/%63[^/]/%31s", id, action);
        if (n < 1 || !valid_id(id) || (n == 2 && strchr(action, '/'))) {
            srv_route_error(&r, 404, 1, "no such game or route: %.100s", path);
        } else if (n == 1 && strlen(path) == 11 + strlen(id)) {
            tg_game g;
            const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
            json_t *hit = get && !h && !srv_game_has_session(c) ? srv_gstore_cached_state(G->store, id, srv_now_ms()) : NULL;
            uint64_t gen = srv_gstore_cache_gen(G->store, id);
            if (hit)
                srv_api_json(&r, 200, hit);
            else if (!get)
                r.allow = 2, srv_route_error(&r, 405, 1, "a game's state only reads; post to /move, /draw, ...");
            else if (!read_game(G, id, &g, &r, 1)) {
                json_t *st = srv_state_json(&g, srv_now_ms());
                /* with a side's token (Authorization: Bearer) or a
                 * player's session: which side it is */
                int side = srv_game_side(G->db, &g, NULL, c, 0, &r);
                if (side == -1) {
                    json_decref(st);
                    tg_game_free(&g);
                    return srv_http_send(c, &r, G->cors);
                }
                if (side >= 0)
                    json_object_set_new(st, "you", json_string(srv_side_name(side)));
                srv_api_json(&r, 200, st);
                srv_gstore_cache_put(G->store, &g, gen);
            }
        } else if (n == 2 && ((!strcmp(action, "pgn") && get) || (!strcmp(action, "analysis") && (get || post)))) {
            tg_game g;
            if (!read_game(G, id, &g, &r, 1)) {
                if (action[0] == 'a')
                    srv_analysis_http(G->analysis, c, &g, post, body, len, &r);
                else /* with the analysis, once there is one */
                    srv_analysis_pgn(G->analysis, &g, &r);
                tg_game_free(&g);
            }
        } else if (n == 2 && !strcmp(action, "chat") && get) {
            tg_game g;
            if (!read_game(G, id, &g, &r, 1)) {
                srv_chat_answer(G->db, &g, c, &r);
                tg_game_free(&g);
            }
        } else if (n == 2 && !strcmp(action, "events") && !strcmp(method, "GET")) {
            return open_stream(G, c, id, q && strstr(q, "as=player") != NULL);
        } else if (n == 2 && post) {
            game_action(G, c, id, action, body, len, &r);
        } else if (n == 2 && is_action(action)) { /* an action read: the route takes POST only */
            r.allow = 3;
            srv_route_error(&r, 405, 1, "%s takes POST only (docs/api.md), not %s", action, method);
        } else {
            r.allow = 2;
            srv_route_error(&r, n == 2 && (!strcmp(action, "pgn") || !strcmp(action, "events")) ? 405 : 404, 1,
                            "no such route: %s %.100s", method, path);
        }
    }
    return srv_http_send(c, &r, G->cors);
}
