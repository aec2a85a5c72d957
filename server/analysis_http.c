/* The analysis queue over HTTP: see analysis_http.h. */
#define _GNU_SOURCE /* open_memstream */
#include "analysis_http.h"

#include "game_state.h"
#include "games_body.h"
#include "respond.h"
#include "session.h"
#include "tourney_store.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct srv_analysis_api {
    srv_analysis *A;
    srv_rate *rate; /* requests that queue a job, a requester */
    const char *proxy;
};

srv_analysis_api *srv_analysis_api_start(srv_gstore *store, tp_db *db, int threads, int64_t nodes, const char *proxy)
{
    srv_analysis_api *api = calloc(1, sizeof *api);
    if (!api)
        return NULL;
    api->proxy = proxy;
    api->rate = srv_rate_new(SRV_ANALYSIS_PER_MINUTE, proxy);
    api->A = api->rate ? srv_analysis_start(store, db, threads < 0 ? 0 : threads ? threads : 1, nodes) : NULL;
    if (!api->A) {
        srv_analysis_api_stop(api);
        return NULL;
    }
    return api;
}

void srv_analysis_api_stop(srv_analysis_api *api)
{
    if (!api)
        return;
    srv_analysis_stop(api->A);
    srv_rate_free(api->rate);
    free(api);
}

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

static void db_down(srv_response *r, const tc_error *err)
{
    fprintf(stderr, "topochess serve: analysis queue: %s\n", err->msg);
    srv_route_error(r, 503, 1, "the analysis queue is unavailable for a moment: try again shortly");
    r->retry_after = 2;
}

/* The job's state as the API tells it. */
static json_t *state_json(srv_analysis *A, const ta_job *j, int found)
{
    tc_error err;
    int waiting = ta_waiting(srv_analysis_db(A), &err);
    json_t *o = json_pack("{s:s,s:{s:i,s:I,s:i}}", "state", found ? ta_state_name(j->state) : "none", "server",
                          "threads", srv_analysis_threads(A), "nodes", (json_int_t)srv_analysis_nodes(A), "waiting",
                          waiting < 0 ? 0 : waiting);
    if (!found || !o)
        return o;
    json_object_set_new(o, "nodes", json_integer(j->nodes));
    if (j->state == TA_QUEUED) {
        int at = ta_position(srv_analysis_db(A), j->game_id, srv_now_ms(), &err);
        json_object_set_new(o, "position", json_integer(at < 0 ? 0 : at));
    } else if (j->state == TA_RUNNING) {
        json_object_set_new(o, "done", json_integer(j->done));
        json_object_set_new(o, "total", json_integer(j->total));
    } else if (j->state == TA_DONE) {
        json_t *res = j->result ? json_loads(j->result, 0, NULL) : NULL;
        json_object_set_new(o, "analysis", res ? res : json_null());
        json_object_set_new(o, "done_ms", json_integer(j->done_ms));
    } else if (j->state == TA_FAILED) {
        json_object_set_new(o, "error", json_string(j->result ? j->result : ""));
    }
    return o;
}

/* Who asks (the requester's key in who): 0, or -1 with the refusal in r. */
static int requester(srv_analysis *A, const char *proxy, struct MHD_Connection *c, const tg_game *g, json_t *b,
                     char who[TA_REQUESTER_MAX + 1], srv_response *r)
{
    const char *tok = json_string_value(json_object_get(b, "token"));
    const char *h = header(c, MHD_HTTP_HEADER_AUTHORIZATION);
    if (!tok && h && !strncmp(h, "Bearer ", 7))
        tok = h + 7;
    if (tok) {
        if (tg_game_side_of(g, tok) < 0) {
            srv_route_error(r, 403, 1, "wrong token for this game");
            return -1;
        }
        char addr[48];
        srv_client_addr(c, proxy, addr);
        snprintf(who, TA_REQUESTER_MAX + 1, "addr:%s", addr);
        return 0;
    }
    tp_session s;
    char sid[TP_TOKEN_LEN + 1];
    tc_error err;
    int found = srv_session_find(srv_analysis_db(A), header(c, MHD_HTTP_HEADER_COOKIE), srv_now_ms(), &s, sid, &err);
    if (found < 0) {
        db_down(r, &err);
        return -1;
    }
    if (!found) {
        srv_route_error(r, 401, 1, "%s",
                        sid[0] ? "your session has ended or was logged out: log in again"
                               : "log in (or use a player's link) to ask the server for an analysis; the game page "
                                 "can review the game in your browser instead");
        return -1;
    }
    const char *csrf = header(c, "X-CSRF-Token");
    if (!csrf)
        csrf = json_string_value(json_object_get(b, "csrf"));
    char why[256];
    int refused = srv_session_change_check(&s, 0, csrf, header(c, "Origin"), header(c, MHD_HTTP_HEADER_HOST),
                                           header(c, "Sec-Fetch-Site"), "", why, sizeof why);
    if (refused) {
        srv_route_error(r, refused, 1, "%s", why);
        return -1;
    }
    snprintf(who, TA_REQUESTER_MAX + 1, "user:%s", s.user_id);
    return 0;
}

/* POST: checks, then queues (or answers the job there is). */
static void request(srv_analysis *A, srv_rate *rate, const char *proxy, struct MHD_Connection *c, const tg_game *g,
                    const char *body, size_t len, srv_response *r)
{
    json_t *b = NULL;
    if (len) {
        json_error_t je;
        b = json_loadb(body, len, 0, &je);
        if (!json_is_object(b)) {
            srv_route_error(r, 400, 1, "the body must be a JSON object ({} or {\"token\": ...}): %s", je.text);
            json_decref(b);
            return;
        }
    }
    char who[TA_REQUESTER_MAX + 1];
    if (requester(A, proxy, c, g, b, who, r))
        goto out;
    if (tg_game_active(g)) {
        srv_route_error(r, 409, 1, "the game is not over yet: the server analyses ended games only");
        goto out;
    }
    if (g->nmoves == 0) {
        srv_route_error(r, 409, 1, "the game has no moves to analyse");
        goto out;
    }
    tc_error err;
    ta_job j;
    int found = ta_get(srv_analysis_db(A), g->id, &j, &err);
    if (found < 0) {
        db_down(r, &err);
        goto out;
    }
    if (found && j.state != TA_FAILED) { /* asked already: its state */
        srv_api_json(r, 200, state_json(A, &j, 1));
        ta_job_free(&j);
        goto out;
    }
    ta_job_free(&j);
    if (srv_analysis_threads(A) == 0) {
        srv_route_error(r, 503, 1, "the server's analysis is off here (serve --analysis-threads 0): review the game "
                                   "in your browser");
        goto out;
    }
    if (!srv_rate_take_key(rate, who)) {
        srv_route_error(r, 429, 1, "too many analyses asked for: at most %d a minute", SRV_ANALYSIS_PER_MINUTE);
        r->retry_after = 60 / SRV_ANALYSIS_PER_MINUTE;
        goto out;
    }
    int q = ta_queue(srv_analysis_db(A), g->id, who, srv_analysis_nodes(A), srv_now_ms(), SRV_ANALYSIS_PER_USER,
                     SRV_ANALYSIS_QUEUE, &err);
    if (q == TA_EUSER) {
        srv_route_error(r, 429, 1, "you have %d analyses waiting already: at most %d at a time", SRV_ANALYSIS_PER_USER,
                        SRV_ANALYSIS_PER_USER);
        r->retry_after = 30;
    } else if (q == TA_EFULL) {
        srv_route_error(r, 503, 1, "the server's analysis queue is full (%d games): review the game in your browser",
                        SRV_ANALYSIS_QUEUE);
        r->retry_after = 60;
    } else if (q < 0) {
        db_down(r, &err);
    } else {
        if (q)
            srv_analysis_wake(A);
        found = ta_get(srv_analysis_db(A), g->id, &j, &err);
        if (found < 0)
            db_down(r, &err);
        else
            srv_api_json(r, q ? 202 : 200, state_json(A, &j, found));
        ta_job_free(&j);
    }
out:
    json_decref(b);
}

void srv_analysis_http(srv_analysis_api *api, struct MHD_Connection *c, const tg_game *g, int post, const char *body,
                       size_t len, srv_response *r)
{
    srv_analysis *A = api->A;
    if (post) {
        request(A, api->rate, api->proxy, c, g, body, len, r);
        return;
    }
    tc_error err;
    ta_job j;
    int found = ta_get(srv_analysis_db(A), g->id, &j, &err);
    if (found < 0)
        db_down(r, &err);
    else
        srv_api_json(r, 200, state_json(A, &j, found));
    ta_job_free(&j);
}

void srv_analysis_pgn(srv_analysis_api *api, const tg_game *g, srv_response *r)
{
    tc_error err;
    char tid[TP_TOURNEY_ID_LEN + 1], event[TP_TOURNEY_NAME_MAX + 1];
    if (tp_tourney_of_game(srv_analysis_db(api->A), g->id, tid, event, &err) != 1)
        event[0] = '\0';
    ta_job j;
    int found = ta_get(srv_analysis_db(api->A), g->id, &j, &err);
    int n = tc_ply_count(g->pos);
    tc_review_move *moves = found == 1 && j.state == TA_DONE ? calloc((size_t)n + 1, sizeof *moves) : NULL;
    tc_review_side sides[2];
    int64_t nodes = moves ? srv_analysis_review(g, j.result, moves, sides) : -1;
    int reviewed = nodes >= 0;
    char *text = NULL, annotator[96];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        srv_route_error(r, 500, 1, "out of memory");
    } else {
        snprintf(annotator, sizeof annotator, "topochess server analysis (%lld nodes a position)",
                 (long long)nodes);
        tg_pgn_review rv = {moves, sides, annotator};
        tg_game_pgn_reviewed(g, event[0] ? event : NULL, reviewed ? &rv : NULL, f);
        fclose(f);
        r->status = 200;
        r->type = "application/x-chess-pgn; charset=utf-8";
        r->cache = "no-store";
        r->owned = text;
        r->body = text;
        r->len = len;
    }
    free(moves);
    if (found == 1)
        ta_job_free(&j);
}
