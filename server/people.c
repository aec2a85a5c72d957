/* The people pages (people.h): sign-up, login, logout, the account page
 * with "log out everywhere", and the player pages; the router in front of
 * the lobby's forms, the inbox, the pages' API, the puzzles and the
 * tournaments. Forms work without JavaScript; the form parser, the answers
 * and the credential pages are in people_forms.c. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include "people.h"
#include "people_forms.h"
#include "pages_http.h"

#include "accounts.h"
#include "inbox.h"
#include "notify_store.h"
#include "buf.h"
#include "lobby.h"
#include "lobby_store.h"
#include "passwords.h"
#include "player_ratings.h"
#include "puzzles_http.h"
#include "render.h"
#include "respond.h"
#include "session.h"
#include "store.h"
#include "tourney_http.h"
#include "tourney_live.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct srv_people {
    tp_db *db;
    srv_accounts *acc;
    srv_lobby *lobby;
    srv_tourneys *tourneys;
    srv_tlive *tlive; /* the tournament pages' streams */
    srv_puzzles *puzzles;
    srv_jobs *jobs; /* logins and sign-ups, off the daemon's threads */
    int secure;
    char proxy[64];
    void (*on_pages)(void *ctx);
    void *on_pages_ctx;
};

void srv_people_on_pages(srv_people *P, void (*fn)(void *ctx), void *ctx)
{
    P->on_pages = fn;
    P->on_pages_ctx = ctx;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The lobby's beat: the pairer (where this process holds its lease), then
 * the tournament pages watched here. */
static int tourney_beat(void *ctx, int64_t now)
{
    srv_people *P = ctx;
    int rc = srv_tourneys_beat(P->tourneys, now);
    srv_tlive_beat(P->tlive);
    return rc;
}

srv_people *srv_people_start(const srv_people_options *o, tc_error *err)
{
    const char *url = o->db && o->db[0] ? o->db : "topochess.db";
    tg_store *migrated = tg_store_open(url, err); /* brings the schema up to date */
    if (!migrated)
        return NULL;
    tg_store_close(migrated);
    srv_people *P = calloc(1, sizeof *P);
    if (!P) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    P->secure = o->secure_cookies;
    snprintf(P->proxy, sizeof P->proxy, "%s", o->trusted_proxy ? o->trusted_proxy : "");
    P->db = tp_db_open(url, err);
    P->acc = P->db ? srv_accounts_new(P->db, err) : NULL;
    P->lobby = P->acc ? srv_lobby_start(P->db, url, o->day_ms, err) : NULL;
    P->tourneys = P->lobby ? srv_tourneys_start(P->db, url, o->day_ms, err) : NULL;
    if (P->tourneys && o->tournaments && srv_tourneys_schedule(P->tourneys, o->tournaments, err)) {
        srv_people_stop(P);
        return NULL;
    }
    P->tlive = P->tourneys ? srv_tlive_new(P->tourneys) : NULL;
    if (P->tlive)
        srv_lobby_on_beat(P->lobby, tourney_beat, P);
    else if (P->tourneys)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    P->puzzles = P->tlive ? srv_puzzles_start(P->db, !o->no_puzzle_seed, err) : NULL;
    P->jobs = P->puzzles ? srv_jobs_start(SRV_HASHES_AT_ONCE, SRV_PEOPLE_JOBS_WAITING) : NULL;
    if (P->puzzles && !P->jobs)
        snprintf(err->msg, sizeof err->msg, "cannot start the login threads");
    if (!P->jobs) {
        srv_people_stop(P);
        return NULL;
    }
    return P;
}

void srv_people_stop(srv_people *P)
{
    if (!P)
        return;
    srv_jobs_stop(P->jobs);
    srv_lobby_stop(P->lobby); /* its thread ran the pairer: stopped first */
    srv_tlive_free(P->tlive);
    srv_tourneys_stop(P->tourneys);
    srv_puzzles_stop(P->puzzles);
    srv_accounts_free(P->acc);
    tp_db_close(P->db);
    free(P);
}

static int path_is(const char *target, const char *path)
{
    size_t n = strlen(path);
    return !strncmp(target, path, n) && (target[n] == '\0' || target[n] == '?');
}

/* A variant page's slug, as the site writes them: anything else (an
 * escape, a query, '.' or '..') is left to route.c's checks. */
#define SLUG_CHARS "abcdefghijklmnopqrstuvwxyz0123456789-_."

int srv_people_owns(const char *target)
{
    return path_is(target, "/signup") || path_is(target, "/login") || path_is(target, "/logout") ||
           path_is(target, "/account") || path_is(target, "/account/logout-all") ||
           path_is(target, "/account/password") || !strncmp(target, "/@/", 3) ||
           path_is(target, "/api/account") || path_is(target, "/lobby") || !strncmp(target, "/lobby/", 7) ||
           path_is(target, "/api/lobby") || path_is(target, "/api/lobby/events") || srv_pages_owns(target) ||
           path_is(target, "/inbox") || path_is(target, "/inbox/read") || path_is(target, "/api/inbox") ||
           path_is(target, "/api/inbox/read") || path_is(target, "/api/inbox/events") ||
           srv_tourney_owns(target) || path_is(target, "/puzzles") || !strncmp(target, "/api/puzzles/", 13) ||
           (!strncmp(target, "/v/", 3) && target[3 + strspn(target + 3, SLUG_CHARS)] == '\0' &&
            strcmp(target + 3, ".") && strcmp(target + 3, "..") && target[3]) || !strcmp(target, "/");
}

srv_lobby *srv_people_lobby(srv_people *P) { return P->lobby; }
srv_tlive *srv_people_tlive(srv_people *P) { return P->tlive; }
void srv_people_set_site(srv_people *P, const srv_site *(*fn)(void *ctx), void *ctx)
{
    srv_tourneys_set_site(P->tourneys, fn, ctx);
}
const char *srv_people_proxy(const srv_people *P) { return P->proxy; }
srv_jobs *srv_people_jobs(srv_people *P) { return P->jobs; }

int srv_people_login_take(srv_people *P, const srv_people_request *rq, srv_people_response *out)
{
    char addr[48], msg[160];
    srv_forwarded_client(rq->addr, P->proxy, rq->forwarded_for, addr);
    if (srv_accounts_login_take(P->acc, addr, msg, sizeof msg))
        return 1;
    memset(out, 0, sizeof *out);
    out->r.fd = -1;
    srv_people_credentials_page(out, 429, 0, NULL, msg, NULL);
    out->r.retry_after = 2;
    return 0;
}

void srv_people_close_streams(srv_people *P)
{
    if (!P)
        return;
    srv_jobs_close(P->jobs);
    srv_lobby_close_streams(P->lobby);
    srv_tlive_close_all(P->tlive);
}

int srv_people_user_of(srv_people *P, const char *cookie, char user_id[TP_ID_LEN + 1])
{
    tp_session s;
    char sid[TP_TOKEN_LEN + 1];
    tc_error err;
    user_id[0] = '\0';
    if (srv_session_find(P->db, cookie, now_ms(), &s, sid, &err) != 1)
        return 0;
    snprintf(user_id, TP_ID_LEN + 1, "%s", s.user_id);
    return 1;
}

static void account_page(srv_people *P, const srv_site *site, srv_people_response *out, const tp_session *s,
                         int status, const char *msg,
                         int changed)
{
    tc_error err;
    int open = tp_sessions_count(P->db, s->user_id, now_ms(), &err);
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-people tc-account\">\n<h1>Account</h1>\n");
    srv_people_who_line(&b, s);
    srv_people_error_line(&b, msg);
    if (changed)
        srv_buf_str(&b, "<p class=\"tc-done\" role=\"status\">Your password was changed; every other session of "
                        "this account was ended.</p>\n");
    /* the games in progress, the player's turn first */
    char *mine = srv_lobby_my_games(P->lobby, NULL, s->user_id, s->name);
    srv_buf_str(&b, mine ? mine : "");
    free(mine);
    if (srv_puzzles_history_html(P->puzzles, site, s->user_id, &b, &err) < 0)
        srv_people_error_line(&b, err.msg);
    srv_buf_printf(&b, "<p>%d session%s open (this browser and any other where you logged in).</p>\n",
                   open < 0 ? 0 : open, open == 1 ? "" : "s");
    srv_buf_str(&b, "<div class=\"tc-actions\"><form method=\"post\" action=\"/logout\">");
    srv_people_csrf_input(&b, s);
    srv_buf_str(&b, "<button type=\"submit\">Log out</button></form>\n"
                    "<form method=\"post\" action=\"/account/logout-all\">");
    srv_people_csrf_input(&b, s);
    srv_buf_str(&b, "<button type=\"submit\">Log out everywhere</button></form></div>\n"
                    "<p class=\"tc-note\">Log out everywhere ends every session of this account, on every device: "
                    "use it if you logged in on a computer that is not yours.</p>\n"
                    "<h2>Change the password</h2>\n<form method=\"post\" action=\"/account/password\" "
                    "class=\"tc-form\">");
    srv_people_csrf_input(&b, s);
    srv_buf_printf(&b,
                   "<label>Current password <input type=\"password\" name=\"current\" "
                   "autocomplete=\"current-password\" required maxlength=\"%d\"></label>\n"
                   "<label>New password <input type=\"password\" name=\"password\" autocomplete=\"new-password\" "
                   "required minlength=\"%d\" maxlength=\"%d\"></label>\n"
                   "<label>New password again <input type=\"password\" name=\"password2\" "
                   "autocomplete=\"new-password\" required minlength=\"%d\" maxlength=\"%d\"></label>\n"
                   "<button type=\"submit\">Change the password</button>\n</form>\n<p class=\"tc-note\">Changing "
                   "the password logs out every other browser and device; a common password (such as "
                   "<q>password1</q> or <q>12345678</q>) or the user name is refused.</p>\n</section>",
                   SRV_PASSWORD_MAX, SRV_PASSWORD_MIN, SRV_PASSWORD_MAX, SRV_PASSWORD_MIN, SRV_PASSWORD_MAX);
    srv_people_page(out, status, "account", "Account", &b);
}

static void player_page(srv_people *P, const srv_site *site, srv_people_response *out, const char *name,
                        const tp_session *s, int api)
{
    tc_error err;
    char key[TP_NAME_MAX + 1], msg[200];
    size_t n = strlen(name);
    if (n > TP_NAME_MAX || srv_name_check(name, key, msg, sizeof msg)) {
        /* reserved and malformed names have no page either */
        srv_route_error(&out->r, 404, api, "no player '%.40s'", name);
        return;
    }
    tp_user u;
    int found = tp_user_by_key(P->db, key, &u, &err);
    if (found <= 0) {
        if (found < 0)
            srv_route_error(&out->r, 500, api, "the account store failed: %s", err.msg);
        else
            srv_route_error(&out->r, 404, api, "no player '%.40s'", name);
        return;
    }
    time_t sec = (time_t)(u.created_ms / 1000);
    struct tm tm;
    char since[32];
    gmtime_r(&sec, &tm);
    strftime(since, sizeof since, "%Y-%m-%d", &tm);
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-people tc-player\">\n<h1>");
    srv_buf_html(&b, u.name);
    srv_buf_str(&b, "</h1>\n");
    srv_people_who_line(&b, s);
    srv_buf_printf(&b, "<p>Member since %s.</p>\n", since);
    if (srv_player_ratings_html(&b, P->db, site, u.id, &err) < 0) {
        srv_buf_free(&b);
        srv_route_error(&out->r, 500, api, "the account store failed: %s", err.msg);
        return;
    }
    if (s && strcmp(s->user_id, u.id) && site) {
        srv_buf_str(&b, "<h2>Challenge</h2>\n<form method=\"post\" action=\"/@/");
        srv_buf_html(&b, u.name);
        srv_buf_str(&b, "/challenge\" class=\"tc-form tc-seek-form\">");
        srv_people_csrf_input(&b, s);
        srv_buf_str(&b, "<label>Variant <select name=\"variant\">");
        for (int i = 0; i < site->nvariants; i++) {
            srv_buf_str(&b, "<option value=\"");
            srv_buf_html(&b, site->pages[i].slug);
            srv_buf_str(&b, "\">");
            srv_buf_html(&b, site->pages[i].title);
            srv_buf_str(&b, "</option>");
        }
        srv_buf_str(&b, "</select></label><label>Clock <select name=\"clock\">");
        srv_lobby_clock_options(&b);
        srv_buf_str(&b, "</select></label><label class=\"tc-check\"><input type=\"checkbox\" name=\"rated\" "
                        "value=\"1\"> Rated</label><button type=\"submit\">Challenge</button></form>\n");
    }
    if (srv_puzzles_rating_html(P->puzzles, u.id, &b, &err) < 0)
        srv_people_error_line(&b, err.msg);
    char *won = srv_tourney_wins_html(P->tourneys, u.id); /* the tournaments won */
    srv_buf_str(&b, won ? won : "");
    free(won);
    char *games = srv_lobby_player_games(P->lobby, site, u.id);
    srv_buf_str(&b, games ? games : "");
    free(games);
    srv_buf_str(&b, "</section>");
    char title[64];
    snprintf(title, sizeof title, "%s: player", u.name);
    srv_people_page(out, 200, "player", title, &b);
}

/* query's variant=SLUG (slugs need no decoding; anything else picks
 * nothing, as srv_lobby_main only compares it with the pages' slugs). */
static void lobby_pick(const char *query, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *q = query; q && *q; q += strcspn(q, "&"), q += *q == '&') {
        size_t seg = strcspn(q, "&");
        if (seg > 8 && !strncmp(q, "variant=", 8) && seg - 8 < n) {
            memcpy(out, q + 8, seg - 8);
            out[seg - 8] = '\0';
        }
    }
}

static void lobby_page(srv_people *P, const srv_site *site, srv_people_response *out, const tp_session *s,
                       const char *query)
{
    char pick[80];
    lobby_pick(query, pick, sizeof pick);
    char *main_html = srv_lobby_main(P->lobby, site, s ? s->user_id : NULL, s ? s->csrf : NULL, pick);
    char *mine = s ? srv_lobby_my_games(P->lobby, site, s->user_id, s->name) : NULL;
    srv_buf b = {0};
    /* the player's own games go first, inside the lobby's section */
    const char *cut = main_html && mine && *mine ? strstr(main_html, "</h1>\n") : NULL;
    if (cut) {
        srv_buf_put(&b, main_html, (size_t)(cut + 6 - main_html));
        srv_buf_str(&b, mine);
        srv_buf_str(&b, cut + 6);
    } else {
        srv_buf_str(&b, main_html ? main_html : "");
    }
    free(main_html);
    free(mine);
    char *data = srv_json_text(json_pack("{s:s?, s:s?}", "name", s ? s->name : NULL, "csrf", s ? s->csrf : NULL),
                               NULL);
    char *m = srv_buf_take(&b, NULL);
    srv_doc d = {"lobby", "Lobby", m ? m : "", data, NULL};
    size_t len = 0;
    char *doc = m && data ? srv_render_document(&d, &len) : NULL;
    free(m);
    free(data);
    srv_route_page(&out->r, doc, len);
    out->r.cache = "no-store";
}

/* POST /lobby/seek, /lobby/seek/ID/accept, /lobby/seek/ID/cancel. */
static void lobby_post(srv_people *P, const srv_site *site, srv_people_response *out, const tp_session *s,
                       const char *path, const srv_form *f, const char *addr)
{
    char msg[256], where[200];
    if (!strcmp(path, "/lobby/seek")) {
        srv_seek_form sf = {srv_form_field(f, "variant"),    srv_form_field(f, "clock"),      srv_form_field(f, "rated"), srv_form_field(f, "color"),
                            srv_form_field(f, "min_rating"), srv_form_field(f, "max_rating"), NULL, addr};
        char id[TP_SEEK_ID_LEN + 1];
        int st = srv_lobby_seek(P->lobby, site, s->user_id, s->name, &sf, id, msg, sizeof msg);
        if (st == 201)
            srv_people_redirect(out, "/lobby");
        else
            srv_route_error(&out->r, st, 0, "%s", msg);
        return;
    }
    if (!strncmp(path, "/@/", 3)) { /* /@/NAME/challenge */
        char target[TP_NAME_MAX + 1];
        const char *end = strchr(path + 3, '/');
        size_t tn = end ? (size_t)(end - path - 3) : 0;
        if (!end || strcmp(end, "/challenge") || !tn || tn > TP_NAME_MAX) {
            srv_route_error(&out->r, 404, 0, "no such page: %.100s", path);
            return;
        }
        memcpy(target, path + 3, tn);
        target[tn] = '\0';
        srv_seek_form sf = {srv_form_field(f, "variant"),    srv_form_field(f, "clock"),      srv_form_field(f, "rated"), srv_form_field(f, "color"),
                            srv_form_field(f, "min_rating"), srv_form_field(f, "max_rating"), target, addr};
        char cid[TP_SEEK_ID_LEN + 1];
        int st = srv_lobby_seek(P->lobby, site, s->user_id, s->name, &sf, cid, msg, sizeof msg);
        if (st == 201)
            srv_people_redirect(out, "/lobby");
        else
            srv_route_error(&out->r, st, 0, "%s", msg);
        return;
    }
    const char *id = path + strlen("/lobby/seek/");
    const char *slash = strncmp(path, "/lobby/seek/", 12) ? NULL : strchr(id, '/');
    char sid[TP_SEEK_ID_LEN + 1];
    if (!slash || slash - id != TP_SEEK_ID_LEN ||
        (strcmp(slash, "/accept") && strcmp(slash, "/cancel") && strcmp(slash, "/decline"))) {
        srv_route_error(&out->r, 404, 0, "no such lobby action: %.100s", path);
        return;
    }
    memcpy(sid, id, TP_SEEK_ID_LEN);
    sid[TP_SEEK_ID_LEN] = '\0';
    int st = !strcmp(slash, "/accept")    ? srv_lobby_accept(P->lobby, site, s->user_id, sid, where, sizeof where, msg, sizeof msg)
             : !strcmp(slash, "/decline") ? srv_lobby_decline(P->lobby, s->user_id, sid, msg, sizeof msg)
                                          : srv_lobby_cancel(P->lobby, s->user_id, sid, msg, sizeof msg);
    if (st == 303)
        srv_people_redirect(out, !strcmp(slash, "/accept") ? where : "/lobby");
    else
        srv_route_error(&out->r, st, 0, "%s", msg);
}

/* ---------------------------------------------------------------- routing */

void srv_people_handle(srv_people *P, const srv_site *site, const srv_people_request *rq, srv_people_response *out)
{
    memset(out, 0, sizeof *out);
    out->r.fd = -1;
    out->r.status = 200;
    out->r.cache = "no-store";
    const char *t = rq->target;
    int api = !strncmp(t, "/api/", 5);
    char path[256];
    size_t plen = strcspn(t, "?");
    if (plen >= sizeof path || srv_url_decode(t, plen, 0, path) < 0) {
        srv_route_error(&out->r, plen >= sizeof path ? 414 : 400, api, "malformed or over-long path");
        return;
    }
    int post = !strcmp(rq->method, "POST"), get = !strcmp(rq->method, "GET") || !strcmp(rq->method, "HEAD");
    int64_t now = now_ms();
    tc_error err;

    /* who asks: the peer, or the client a trusted proxy names (an address,
     * else the peer: srv_forwarded_client) */
    char addr[48];
    int trusted = P->proxy[0] && rq->addr && !strcmp(rq->addr, P->proxy);
    srv_forwarded_client(rq->addr, P->proxy, rq->forwarded_for, addr);
    int secure = P->secure || (trusted && rq->forwarded_proto && !strcmp(rq->forwarded_proto, "https"));

    tp_session sess, *s = NULL;
    char sid[TP_TOKEN_LEN + 1];
    int has = srv_session_find(P->db, rq->cookie, now, &sess, sid, &err);
    if (has < 0) {
        srv_route_error(&out->r, 500, api, "the account store failed: %s", err.msg);
        return;
    }
    if (has)
        s = &sess;
    int stale = !has && sid[0]; /* a cookie that names no live session */
    if (srv_inbox_owns(path)) {
        srv_inbox_call ic = {rq->method, path,      rq->body,  rq->len,
                             rq->csrf_header, rq->origin, rq->host, rq->fetch_site};
        srv_inbox_http(P->db, s, stale, &ic, &out->r, out->location, sizeof out->location);
        if (stale) /* an ended session: its cookie and the pages' hint go */
            srv_session_cookie(out->set_cookie, sizeof out->set_cookie, NULL, secure);
        return;
    }
    if (srv_pages_owns(path)) {
        const char *q = strchr(t, '?');
        srv_pages_call pc = {rq->method, path, q ? q + 1 : NULL, rq->csrf_header, rq->origin, rq->host,
                             rq->fetch_site, rq->body, rq->len, site};
        if (srv_pages_http(P->db, s, &pc, now, &out->r) && P->on_pages)
            P->on_pages(P->on_pages_ctx);
        return;
    }
    if (srv_puzzles_owns(path)) {
        const char *q = strchr(t, '?');
        srv_puzzles_call zc = {rq->method, path, q ? q + 1 : NULL, rq->body, rq->len, rq->csrf_header,
                               rq->origin, rq->host, rq->fetch_site, rq->content_type, site};
        srv_puzzles_http(P->puzzles, s, stale, &zc, now, &out->r);
        return;
    }
    if (!strncmp(path, "/v/", 3)) { /* a variant page, with the day's puzzle */
        if (!get) {
            out->r.allow = 1;
            srv_route_error(&out->r, 405, 0, "a variant page only reads (GET, HEAD)");
        } else {
            srv_puzzles_variant_page(P->puzzles, site, path + 3, now, &out->r);
        }
        return;
    }
    int challenge = !strncmp(path, "/@/", 3) && strchr(path + 3, '/') != NULL;

    if (!strcmp(t, "/")) { /* the home page, with the lobby's summary */
        if (!get) {
            out->r.allow = 1;
            srv_route_error(&out->r, 405, 0, "the home page only reads (GET, HEAD)");
            return;
        }
        char *summary = srv_lobby_summary(P->lobby, site);
        /* a signed-in player's games in progress, their turn first, above it */
        char *mine = s ? srv_lobby_my_games(P->lobby, site, s->user_id, s->name) : NULL;
        srv_buf both = {0};
        srv_buf_str(&both, mine ? mine : "");
        srv_buf_str(&both, summary ? summary : "");
        free(mine);
        free(summary);
        srv_puzzles_daily_html(P->puzzles, site, NULL, now, &both);
        char *top = srv_buf_take(&both, NULL);
        size_t len = 0;
        char *doc = srv_site_home(site, top ? top : "", &len);
        free(top);
        srv_route_page(&out->r, doc, len);
        out->r.cache = s ? "no-store" : "no-cache";
        return;
    }

    if (!strcmp(path, "/lobby") || !strcmp(path, "/api/lobby")) {
        if (!get) {
            out->r.allow = 1;
            srv_route_error(&out->r, 405, api, "%s only reads (GET, HEAD): post seeks to /lobby/seek", path);
        } else if (api) {
            size_t len = 0;
            char *list = srv_lobby_json(P->lobby, &len);
            srv_people_json_text(out, 200, list, len, "the lobby's store failed");
        } else {
            const char *q = strchr(t, '?');
            lobby_page(P, site, out, s, q ? q + 1 : NULL);
        }
        return;
    }
    int tourney = srv_tourney_owns(path);
    if (tourney && get) {
        srv_tourney_get(P->tourneys, site, s, path, &out->r);
        return;
    }
    int page_route = tourney || !strcmp(path, "/signup") || !strcmp(path, "/login") || !strcmp(path, "/logout") ||
                     !strcmp(path, "/account") || !strcmp(path, "/account/logout-all") ||
                     !strcmp(path, "/account/password") ||
                     !strncmp(path, "/lobby/", 7) || challenge;
    if ((!strncmp(path, "/@/", 3) && !challenge) || !strcmp(path, "/api/account")) {
        if (!get) {
            out->r.allow = 1;
            srv_route_error(&out->r, 405, api, "%s only reads (GET, HEAD)", path);
            return;
        }
        if (api) {
            if (!s) {
                srv_route_error(&out->r, 401, 1, "%s", stale ? "your session has ended: log in again" : "not logged in");
                return;
            }
            /* the games in progress (their turn first) and the inbox's count */
            json_t *games = srv_lobby_my_games_json(P->lobby, s->user_id, s->name);
            int unread = games ? tp_notes_unread(P->db, s->user_id, &err) : -1;
            if (unread < 0) {
                json_decref(games);
                srv_route_error(&out->r, 500, 1, "the account store failed");
                return;
            }
            srv_people_json(out, 200, json_pack("{s:s, s:s, s:i, s:o}", "name", s->name, "csrf", s->csrf, "unread", unread,
                                     "games", games));
            return;
        }
        player_page(P, site, out, path + 3, s, 0);
        return;
    }
    if (!page_route) {
        srv_route_error(&out->r, 404, api, "no such page: %.200s", path);
        return;
    }
    if (get) {
        if (!strcmp(path, "/signup"))
            srv_people_credentials_page(out, 200, 1, NULL, NULL, s);
        else if (!strcmp(path, "/login"))
            srv_people_credentials_page(out, 200, 0, NULL, NULL, s);
        else if (!strcmp(path, "/account") && s)
            account_page(P, site, out, s, 200, NULL, strstr(t, "?password=changed") != NULL);
        else if (!strcmp(path, "/account")) /* 401, with the login form to hand */
            srv_people_credentials_page(out, 401, 0, NULL, stale ? "your session has ended or was logged out: log in again"
                                             : "log in to see your account", NULL);
        else {
            out->r.allow = 2;
            srv_route_error(&out->r, 405, 0, "%s takes a form (POST) from the hub's pages", path);
        }
        return;
    }
    if (!post) {
        out->r.allow = 2;
        srv_route_error(&out->r, 405, 0, "method %.16s is not allowed here", rq->method);
        return;
    }
    char msg[256];
    if (srv_same_origin(rq->origin, rq->host, rq->fetch_site, msg, sizeof msg)) {
        srv_route_error(&out->r, 403, api, "%s", msg);
        return;
    }
    if (!rq->content_type || strncasecmp(rq->content_type, "application/x-www-form-urlencoded", 33)) {
        srv_route_error(&out->r, 415, api, "send the form as application/x-www-form-urlencoded");
        return;
    }
    srv_form *f = malloc(sizeof *f);
    if (!f) {
        srv_route_error(&out->r, 500, 0, "out of memory");
        return;
    }
    if (srv_form_parse(rq->body ? rq->body : "", rq->len, f, msg, sizeof msg)) {
        srv_route_error(&out->r, rq->len > SRV_PEOPLE_MAX_BODY ? 413 : 400, api, "%s", msg);
        free(f);
        return;
    }
    if (!strcmp(path, "/signup") || !strcmp(path, "/login")) {
        int signup = path[1] == 's';
        const char *name = srv_form_field(f, "name"), *pw = srv_form_field(f, "password"), *pw2 = srv_form_field(f, "password2");
        tp_user u;
        srv_acc_code rc;
        if (!name || !pw) {
            rc = SRV_ACC_BAD_INPUT;
            snprintf(msg, sizeof msg, "the form needs the fields name and password");
        } else if (signup && (!pw2 || strcmp(pw, pw2))) {
            rc = SRV_ACC_BAD_INPUT;
            snprintf(msg, sizeof msg, "the two passwords differ");
        } else if (!signup && !rq->login_taken && !srv_accounts_login_take(P->acc, addr, msg, sizeof msg)) {
            rc = SRV_ACC_THROTTLED;
        } else {
            rc = signup ? srv_accounts_signup(P->acc, name, pw, addr, now, &u, msg, sizeof msg)
                        : srv_accounts_login(P->acc, name, pw, addr, now, &u, msg, sizeof msg);
        }
        if (rc == SRV_ACC_OK) {
            /* a new session at every login; the one this browser had ends */
            if (s || stale)
                srv_session_close(P->db, sid, &err);
            if (srv_session_open(P->db, u.id, now, sid, &err)) {
                srv_route_error(&out->r, 500, 0, "the account store failed: %s", err.msg);
            } else {
                srv_session_cookie(out->set_cookie, sizeof out->set_cookie, sid, secure);
                char to[64];
                snprintf(to, sizeof to, signup ? "/@/%s" : "/account", u.name);
                srv_people_redirect(out, to);
            }
        } else {
            static const int status[] = {200, 400, 409, 401, 429, 500};
            srv_people_credentials_page(out, status[rc], signup, name, msg, s);
        }
        free(f);
        return;
    }
    /* the rest: a session and its CSRF token (an /api/ form's may come as X-CSRF-Token) */
    const char *token = srv_form_field(f, "csrf") ? srv_form_field(f, "csrf") : api ? rq->csrf_header : NULL;
    int lobby = !strncmp(path, "/lobby/", 7) || challenge;
    int refused = srv_session_change_check(s, stale, token, rq->origin, rq->host, rq->fetch_site,
                                           tourney ? "log in to make or join a tournament"
                                           : lobby ? "log in to post or accept a seek (rated or casual)"
                                           : !strcmp(path, "/account/password") ? "log in to change your password"
                                                                                : "not logged in: nothing to log out of",
                                           msg, sizeof msg);
    if (refused) {
        srv_route_error(&out->r, refused, api, "%s", msg);
    } else if (tourney) {
        srv_tourney_form tf = {srv_form_field(f, "name"),  srv_form_field(f, "kind"),      srv_form_field(f, "variant"), srv_form_field(f, "clock"),
                               srv_form_field(f, "rated"), srv_form_field(f, "starts_in"), srv_form_field(f, "minutes"), srv_form_field(f, "max_players")};
        char to[sizeof out->location];
        srv_tourney_post(P->tourneys, site, s, path, &tf, now, &out->r, to, sizeof to);
        if (to[0])
            srv_people_redirect(out, to);
    } else if (lobby) {
        lobby_post(P, site, out, s, path, f, addr);
    } else if (!strcmp(path, "/account/password")) {
        srv_password_form pf = {srv_form_field(f, "current"), srv_form_field(f, "password"), srv_form_field(f, "password2")};
        char fresh[TP_TOKEN_LEN + 1];
        int st = srv_password_change(P->acc, P->db, s, addr, &pf, now, fresh, msg, sizeof msg);
        if (st == 303) { /* every session ended: this browser gets a new one */
            srv_session_cookie(out->set_cookie, sizeof out->set_cookie, fresh, secure);
            srv_people_redirect(out, "/account?password=changed");
        } else {
            account_page(P, site, out, s, st, msg, 0);
        }
    } else {
        int rc = !strcmp(path, "/logout") ? srv_session_close(P->db, sid, &err)
                                          : tp_sessions_delete_user(P->db, s->user_id, &err);
        if (rc < 0) {
            srv_route_error(&out->r, 500, 0, "the account store failed: %s", err.msg);
        } else {
            srv_session_cookie(out->set_cookie, sizeof out->set_cookie, NULL, secure);
            srv_people_redirect(out, "/login");
        }
    }
    free(f);
}
