/* The lobby's lists and pages (lobby.h): the seeks as JSON for the live
 * stream, the lobby page, a player's games and "your games". */
#include "lobby_internal.h"

#include "accounts.h"
#include "rating_store.h"
#include "render.h"
#include "store.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---------------------------------------------------------------- clocks */

/// The clocks a seek may ask for.
static const struct {
    const char *key, *label;
    tg_clock clock;
} clocks[] = {
    {"3+2", "3+2", {TG_CLOCK_FISCHER, 180000, 2000, 0}},
    {"5+3", "5+3", {TG_CLOCK_FISCHER, 300000, 3000, 0}},
    {"10+5", "10+5", {TG_CLOCK_FISCHER, 600000, 5000, 0}},
    {"15+10", "15+10", {TG_CLOCK_FISCHER, 900000, 10000, 0}},
    {"30+20", "30+20", {TG_CLOCK_FISCHER, 1800000, 20000, 0}},
    {"corr1", "1 day a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 1}},
    {"corr3", "3 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 3}},
    {"corr7", "7 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 7}},
};
#define NCLOCKS ((int)(sizeof clocks / sizeof clocks[0]))

const tg_clock *srv_lobby_clock(const char *key)
{
    for (int i = 0; i < NCLOCKS; i++)
        if (!strcmp(key, clocks[i].key))
            return &clocks[i].clock;
    return NULL;
}

static const char *clock_label(const tg_clock *c, char *buf, size_t n)
{
    for (int i = 0; i < NCLOCKS; i++)
        if (clocks[i].clock.kind == c->kind && clocks[i].clock.initial_ms == c->initial_ms &&
            clocks[i].clock.increment_ms == c->increment_ms && clocks[i].clock.days == c->days)
            return clocks[i].label;
    snprintf(buf, n, "%s", c->kind == TG_CLOCK_NONE ? "untimed" : "?");
    return buf;
}

/* ---------------------------------------------------------------- lists */

static json_t *seek_json(const tp_seek *s)
{
    char buf[32];
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s, s:i, s:b, s:i, s:i}", "id", s->id, "name", s->name,
                     "variant", s->variant, "clock", clock_label(&s->clock, buf, sizeof buf), "kind",
                     s->clock.kind == TG_CLOCK_CORRESPONDENCE ? "correspondence" : "fischer", "rated", s->rated,
                     "color", s->color, "rating", s->rating, "provisional", s->provisional, "min_rating",
                     s->min_rating, "max_rating", s->max_rating);
}

char *srv_lobby_json(srv_lobby *L, size_t *len)
{
    tc_error err;
    tp_seek *list = malloc(SRV_SEEKS_MAX * sizeof *list);
    int n = list ? tp_seeks_open(L->db, list, SRV_SEEKS_MAX, &err) : -1;
    if (n < 0) {
        free(list);
        return NULL;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, seek_json(&list[i]));
    free(list);
    return srv_json_text(json_pack("{s:o}", "seeks", a), len);
}

char *srv_lobby_main(srv_lobby *L, const srv_site *site, const char *user_id, const char *csrf, const char *pick)
{
    tc_error err;
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-people tc-lobby\">\n<h1>Lobby</h1>\n");
    if (user_id) {
        srv_buf_str(&b, "<form method=\"post\" action=\"/lobby/seek\" class=\"tc-form tc-seek-form\">\n"
                        "<input type=\"hidden\" name=\"csrf\" value=\"");
        srv_buf_html(&b, csrf);
        srv_buf_str(&b, "\">\n<label>Variant <select name=\"variant\">");
        for (int i = 0; i < site->nvariants; i++) {
            srv_buf_str(&b, "<option value=\"");
            srv_buf_html(&b, site->pages[i].slug);
            srv_buf_str(&b, pick && !strcmp(pick, site->pages[i].slug) ? "\" selected>" : "\">");
            srv_buf_html(&b, site->pages[i].title);
            srv_buf_str(&b, "</option>");
        }
        srv_buf_str(&b, "</select></label>\n<label>Clock <select name=\"clock\">");
        for (int i = 0; i < NCLOCKS; i++)
            srv_buf_printf(&b, "<option value=\"%s\"%s>%s</option>", clocks[i].key, i == 1 ? " selected" : "",
                           clocks[i].label);
        srv_buf_str(&b, "</select></label>\n<label>Your side <select name=\"color\"><option value=\"random\">random"
                        "</option><option value=\"white\">White</option><option value=\"black\">Black</option>"
                        "</select></label>\n<label class=\"tc-check\"><input type=\"checkbox\" name=\"rated\" "
                        "value=\"1\"> Rated</label>\n<div class=\"tc-range\"><label>Rating from <input "
                        "name=\"min_rating\" inputmode=\"numeric\" placeholder=\"any\"></label><label>to <input "
                        "name=\"max_rating\" inputmode=\"numeric\" placeholder=\"any\"></label></div>\n"
                        "<button type=\"submit\">Post a seek</button>\n</form>\n");
    } else {
        srv_buf_str(&b, "<p class=\"tc-note\"><a href=\"/login\">Log in</a> or <a href=\"/signup\">sign up</a> to "
                        "post or accept seeks. Playing by link (from a variant's play page) needs no account.</p>\n");
    }
    if (user_id && csrf) {
        for (int to = 1; to >= 0; to--) {
            tp_seek ch[SRV_SEEKS_PER_USER * 8];
            int nc = tp_challenges(L->db, user_id, to, ch, (int)(sizeof ch / sizeof ch[0]), &err);
            if (nc <= 0)
                continue;
            srv_buf_printf(&b, "<h2>%s</h2>\n<ul class=\"tc-challenges\" data-to=\"%d\">\n",
                           to ? "Challenges to you" : "Your challenges", to);
            for (int i = 0; i < nc; i++) {
                const srv_page *p = srv_site_find(site, ch[i].variant);
                char buf[32];
                srv_buf_str(&b, "<li>");
                srv_buf_html(&b, to ? ch[i].name : ch[i].target_name);
                srv_buf_str(&b, to ? " challenges you: " : " is challenged: ");
                srv_buf_html(&b, p ? p->title : ch[i].variant);
                srv_buf_printf(&b, ", %s, %s", clock_label(&ch[i].clock, buf, sizeof buf), ch[i].rated ? "rated" : "casual");
                /* to you: accept or decline; yours: withdraw */
                static const char *const acts[3][2] = {{"accept", "Accept"}, {"decline", "Decline"}, {"cancel", "Withdraw"}};
                for (int k = to ? 0 : 2; k < (to ? 2 : 3); k++) {
                    srv_buf_printf(&b, " <form method=\"post\" action=\"/lobby/seek/%s/%s\"><input type=\"hidden\" "
                                       "name=\"csrf\" value=\"",
                                   ch[i].id, acts[k][0]);
                    srv_buf_html(&b, csrf);
                    srv_buf_printf(&b, "\"><button type=\"submit\">%s</button></form>", acts[k][1]);
                }
                srv_buf_str(&b, "</li>\n");
            }
            srv_buf_str(&b, "</ul>\n");
        }
    }
    tp_seek *list = malloc(SRV_SEEKS_MAX * sizeof *list);
    int n = list ? tp_seeks_open(L->db, list, SRV_SEEKS_MAX, &err) : -1;
    srv_buf_str(&b, "<h2>Open seeks</h2>\n<table class=\"tc-seeks\" id=\"tc-seeks\"><thead><tr><th>Player</th>"
                    "<th>Rating</th><th>Variant</th><th>Clock</th><th>Mode</th><th></th></tr></thead><tbody>\n");
    for (int i = 0; i < n; i++) {
        const tp_seek *s = &list[i];
        const srv_page *p = srv_site_find(site, s->variant);
        char buf[32];
        srv_buf_printf(&b, "<tr data-seek=\"%s\"><td><a href=\"/@/", s->id);
        srv_buf_html(&b, s->name);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, s->name);
        srv_buf_printf(&b, "</a></td><td>%d%s</td><td>", s->rating, s->provisional ? "?" : "");
        srv_buf_html(&b, p ? p->title : s->variant);
        srv_buf_printf(&b, "</td><td>%s</td><td>%s</td><td>", clock_label(&s->clock, buf, sizeof buf),
                       s->rated ? "rated" : "casual");
        if (user_id && csrf) {
            int own = !strcmp(s->user_id, user_id);
            srv_buf_printf(&b, "<form method=\"post\" action=\"/lobby/seek/%s/%s\"><input type=\"hidden\" "
                               "name=\"csrf\" value=\"",
                           s->id, own ? "cancel" : "accept");
            srv_buf_html(&b, csrf);
            srv_buf_printf(&b, "\"><button type=\"submit\">%s</button></form>", own ? "Withdraw" : "Play");
        }
        srv_buf_str(&b, "</td></tr>\n");
    }
    if (n <= 0)
        srv_buf_str(&b, "<tr class=\"tc-none\"><td colspan=\"6\">No open seeks: post one.</td></tr>\n");
    srv_buf_str(&b, "</tbody></table>\n</section>");
    free(list);
    return srv_buf_take(&b, NULL);
}

char *srv_lobby_summary(srv_lobby *L, const srv_site *site)
{
    tc_error err;
    tp_seek *list = malloc(SRV_SEEKS_MAX * sizeof *list);
    int n = list ? tp_seeks_open(L->db, list, SRV_SEEKS_MAX, &err) : -1;
    int live = n < 0 ? -1 : tp_games_live(L->db, now_ms() - SRV_LIVE_WINDOW_MS, &err);
    if (live < 0) {
        free(list);
        return NULL;
    }
    srv_buf b = {0};
    srv_buf_printf(&b, "<section class=\"tc-lobby-summary\"><h2><a href=\"/lobby\">Lobby</a></h2>\n<p>"
                       "<span class=\"tc-seek-count\">%d</span> open seek%s &middot; <span class=\"tc-live-count\">"
                       "%d</span> game%s being played</p>\n",
                   n, n == 1 ? "" : "s", live, live == 1 ? "" : "s");
    if (n > 0)
        srv_buf_str(&b, "<ul class=\"tc-home-seeks\">\n");
    for (int i = 0; i < n && i < SRV_HOME_SEEKS; i++) {
        const tp_seek *s = &list[i];
        const srv_page *p = srv_site_find(site, s->variant);
        char buf[32];
        srv_buf_printf(&b, "<li data-seek=\"%s\"><a href=\"/@/", s->id);
        srv_buf_html(&b, s->name);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, s->name);
        srv_buf_printf(&b, "</a> (%d%s): ", s->rating, s->provisional ? "?" : "");
        srv_buf_html(&b, p ? p->title : s->variant);
        srv_buf_printf(&b, ", %s, %s</li>\n", clock_label(&s->clock, buf, sizeof buf), s->rated ? "rated" : "casual");
    }
    if (n > 0)
        srv_buf_str(&b, "</ul>\n");
    srv_buf_printf(&b, "<p><a href=\"/lobby\">%s</a></p></section>\n",
                   n > SRV_HOME_SEEKS ? "every seek in the lobby" : n ? "play one in the lobby" : "post a seek in the lobby");
    free(list);
    return srv_buf_take(&b, NULL);
}

/* A side of a played game: the name linked, the rating it had as the
 * game began (when kept). */
static void player_cell(srv_buf *b, const char *name, int rating, int provisional)
{
    srv_buf_str(b, "<td><a href=\"/@/");
    srv_buf_html(b, name);
    srv_buf_str(b, "\">");
    srv_buf_html(b, name);
    srv_buf_str(b, "</a>");
    if (rating)
        srv_buf_printf(b, " <span class=\"tc-rating\">(%d%s)</span>", rating, provisional ? "?" : "");
    srv_buf_str(b, "</td>");
}

char *srv_lobby_player_games(srv_lobby *L, const srv_site *site, const char *user_id)
{
    tc_error err;
    tp_played list[SRV_PLAYER_GAMES];
    int n = tp_lobby_games_of(L->db, user_id, list, SRV_PLAYER_GAMES, &err);
    if (n < 0)
        return NULL;
    srv_buf b = {0};
    srv_buf_str(&b, "<h2>Games</h2>\n");
    if (!n)
        srv_buf_str(&b, "<p class=\"tc-none\">No games from the lobby yet.</p>\n");
    else
        srv_buf_str(&b, "<table class=\"tc-played\"><thead><tr><th>Date</th><th>Variant</th><th>White</th>"
                        "<th>Black</th><th>Result</th><th></th></tr></thead><tbody>\n");
    for (int i = 0; i < n; i++) {
        const tp_played *p = &list[i];
        tg_game g;
        char result[80] = "?";
        if (tg_store_load(L->games, p->game_id, &g, &err) == TG_OK) {
            snprintf(result, sizeof result, "%s", !strcmp(g.result, "*") ? "playing" : g.result);
            tg_game_free(&g);
        }
        time_t sec = (time_t)(p->created_ms / 1000);
        struct tm tm;
        char when[16];
        gmtime_r(&sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%d", &tm);
        const srv_page *pg = site ? srv_site_find(site, p->variant) : NULL;
        srv_buf_printf(&b, "<tr><td>%s</td><td>", when);
        srv_buf_html(&b, pg ? pg->title : p->variant);
        if (p->tournament_id[0]) { /* a tournament's game: which one */
            srv_buf_str(&b, " <a class=\"tc-game-tournament\" href=\"/tournament/");
            srv_buf_html(&b, p->tournament_id);
            srv_buf_str(&b, "\">");
            srv_buf_html(&b, p->tournament);
            srv_buf_str(&b, "</a>");
        }
        srv_buf_str(&b, "</td>");
        player_cell(&b, p->white, p->white_r, p->white_prov);
        player_cell(&b, p->black, p->black_r, p->black_prov);
        /* a rated result that changed no rating says why (rating_store.h) */
        int why = p->rated && p->note[0] && strcmp(p->note, TP_NOTE_ABORTED);
        srv_buf_printf(&b, "<td>%s%s%s%s%s</td><td><a href=\"/game/%s\">game</a></td></tr>\n", result,
                       p->rated ? "" : " (casual)", why ? " <span class=\"tc-uncounted\">(rated, " : "",
                       why ? p->note : "", why ? ")</span>" : "", p->game_id);
    }
    if (n)
        srv_buf_str(&b, "</tbody></table>\n");
    return srv_buf_take(&b, NULL);
}

char *srv_lobby_my_games(srv_lobby *L, const srv_site *site, const char *user_id, const char *name)
{
    tc_error err;
    tp_played list[SRV_PLAYER_GAMES];
    int n = tp_lobby_games_of(L->db, user_id, list, SRV_PLAYER_GAMES, &err);
    if (n < 0)
        return NULL;
    srv_buf mine = {0}, theirs = {0};
    int64_t t = now_ms();
    for (int i = 0; i < n; i++) {
        const tp_played *p = &list[i];
        tg_game g;
        if (tg_store_load(L->games, p->game_id, &g, &err) != TG_OK)
            continue;
        int side = !strcmp(p->white, name) ? TC_WHITE : TC_BLACK;
        if (strcmp(g.result, "*")) {
            tg_game_free(&g);
            continue;
        }
        if (tg_game_rebuild(&g, &err) != TG_OK) {
            tg_game_free(&g);
            continue;
        }
        int turn = tg_game_turn(&g);
        srv_buf *b = turn == side ? &mine : &theirs;
        const srv_page *pg = site ? srv_site_find(site, p->variant) : NULL;
        srv_buf_printf(b, "<li class=\"tc-my-game%s\"><a href=\"/game/%s#token=%s\">", turn == side ? " tc-my-turn" : "",
                       g.id, g.token[side]);
        srv_buf_html(b, pg ? pg->title : p->variant);
        srv_buf_str(b, " against ");
        srv_buf_html(b, side == TC_WHITE ? p->black : p->white);
        srv_buf_printf(b, "</a> <span>(%s, %s)</span>", side == TC_WHITE ? "you play White" : "you play Black",
                       turn == side ? "your turn" : "their turn");
        int64_t left = tg_game_clock_left(&g, turn, t);
        if (g.clock.kind == TG_CLOCK_CORRESPONDENCE && left >= 0)
            srv_buf_printf(b, " <span>%lld h left for the move</span>", (long long)(left / 3600000));
        srv_buf_str(b, "</li>\n");
        tg_game_free(&g);
    }
    srv_buf out = {0};
    if (mine.len || theirs.len) {
        srv_buf_str(&out, "<h2>Your games</h2>\n<ul class=\"tc-my-games\">\n");
        srv_buf_str(&out, mine.p ? mine.p : "");
        srv_buf_str(&out, theirs.p ? theirs.p : "");
        srv_buf_str(&out, "</ul>\n");
    } else {
        srv_buf_str(&out, "");
    }
    srv_buf_free(&mine);
    srv_buf_free(&theirs);
    return srv_buf_take(&out, NULL);
}

