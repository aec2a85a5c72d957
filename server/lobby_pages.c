/* The lobby's lists and pages (lobby.h): the seeks as JSON for the live
 * stream, the lobby page, a player's games and "your games". */
#include "lobby_internal.h"

#include "accounts.h"
#include "notify_store.h"
#include "rating_store.h"
#include "render.h"
#include "store.h"

#include <stdint.h>
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
#define FISCHER(ini, inc) {.kind = TG_CLOCK_FISCHER, .initial_ms = (ini), .increment_ms = (inc)}
#define DAYS(n) {.kind = TG_CLOCK_CORRESPONDENCE, .days = (n)}
    {"3+2", "3+2", FISCHER(180000, 2000)},
    {"5+3", "5+3", FISCHER(300000, 3000)},
    {"10+5", "10+5", FISCHER(600000, 5000)},
    {"15+10", "15+10", FISCHER(900000, 10000)},
    {"30+20", "30+20", FISCHER(1800000, 20000)},
    {"corr1", "1 day a move", DAYS(1)},
    {"corr2", "2 days a move", DAYS(2)},
    {"corr3", "3 days a move", DAYS(3)},
    {"corr5", "5 days a move", DAYS(5)},
    {"corr7", "7 days a move", DAYS(7)},
    {"corr14", "14 days a move", DAYS(14)},
#undef FISCHER
#undef DAYS
};
#define NCLOCKS ((int)(sizeof clocks / sizeof clocks[0]))

const tg_clock *srv_lobby_clock(const char *key)
{
    for (int i = 0; i < NCLOCKS; i++)
        if (!strcmp(key, clocks[i].key))
            return &clocks[i].clock;
    return NULL;
}

void srv_lobby_clock_options(srv_buf *b)
{
    for (int i = 0; i < NCLOCKS; i++)
        srv_buf_printf(b, "<option value=\"%s\"%s>%s</option>", clocks[i].key, i == 1 ? " selected" : "",
                       clocks[i].label);
}

const char *srv_lobby_clock_label(const tg_clock *c, char *buf, size_t n)
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
                     "variant", s->variant, "clock", srv_lobby_clock_label(&s->clock, buf, sizeof buf), "kind",
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
        srv_lobby_clock_options(&b);
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
                srv_buf_printf(&b, ", %s, %s", srv_lobby_clock_label(&ch[i].clock, buf, sizeof buf), ch[i].rated ? "rated" : "casual");
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
        srv_buf_printf(&b, "</td><td>%s</td><td>%s</td><td>", srv_lobby_clock_label(&s->clock, buf, sizeof buf),
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
        srv_buf_printf(&b, ", %s, %s</li>\n", srv_lobby_clock_label(&s->clock, buf, sizeof buf), s->rated ? "rated" : "casual");
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

/* "2 days 3 h", "5 h", "12 min", "40 s": the time left for a move. */
static void left_text(int64_t ms, char *buf, size_t n)
{
    int64_t s = ms / 1000;
    if (s >= 86400)
        snprintf(buf, n, "%lld day%s %lld h", (long long)(s / 86400), s >= 2 * 86400 ? "s" : "",
                 (long long)(s % 86400 / 3600));
    else if (s >= 3600)
        snprintf(buf, n, "%lld h %lld min", (long long)(s / 3600), (long long)(s % 3600 / 60));
    else if (s >= 60)
        snprintf(buf, n, "%lld min", (long long)(s / 60));
    else
        snprintf(buf, n, "%lld s", (long long)s);
}

void srv_my_games_free(srv_my_game *list, int n)
{
    for (int i = 0; list && i < n; i++)
        free(list[i].svg);
    free(list);
}

int srv_lobby_my_games_list(srv_lobby *L, const char *user_id, const char *name, srv_my_game *out, int max,
                            int with_svg)
{
    tc_error err;
    tp_active_game *list = malloc((size_t)max * sizeof *list);
    int n = list ? tp_active_games_of(L->db, user_id, list, max, &err) : -1;
    if (n < 0) {
        free(list);
        return -1;
    }
    int k = 0;
    int64_t t = now_ms();
    for (int i = 0; i < n; i++) {
        tg_game g;
        if (tg_store_load(L->games, list[i].game_id, &g, &err) != TG_OK)
            continue;
        if (strcmp(g.result, "*") || tg_game_rebuild(&g, &err) != TG_OK) {
            tg_game_free(&g);
            continue;
        }
        srv_my_game *m = &out[k++];
        memset(m, 0, sizeof *m);
        m->side = !strcmp(list[i].white, name) ? TC_WHITE : TC_BLACK;
        m->my_turn = tg_game_turn(&g) == m->side;
        snprintf(m->game_id, sizeof m->game_id, "%s", g.id);
        snprintf(m->token, sizeof m->token, "%s", g.token[m->side]);
        snprintf(m->variant, sizeof m->variant, "%s", list[i].variant);
        snprintf(m->title, sizeof m->title, "%s", g.def.title);
        snprintf(m->opponent, sizeof m->opponent, "%s", m->side == TC_WHITE ? list[i].black : list[i].white);
        m->correspondence = g.clock.kind == TG_CLOCK_CORRESPONDENCE;
        m->left_ms = tg_game_clock_left(&g, tg_game_turn(&g), t);
        m->nmoves = g.nmoves;
        if (with_svg) { /* small, from the player's side; the board built from the game's own definition */
            char fen[720], label[256];
            tc_position_fen(g.pos, fen, sizeof fen);
            snprintf(label, sizeof label, "%s against %s: the position now", g.def.title, m->opponent);
            m->svg = srv_render_position_svg(tc_position_variant(g.pos), fen, label, 12, m->side == TC_BLACK);
        }
        tg_game_free(&g);
    }
    free(list);
    /* the player's turn first, then the least time left */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0; j--) {
            srv_my_game *a = &out[j - 1], *b = &out[j];
            int64_t la = a->left_ms < 0 ? INT64_MAX : a->left_ms, lb = b->left_ms < 0 ? INT64_MAX : b->left_ms;
            if (a->my_turn > b->my_turn || (a->my_turn == b->my_turn && la <= lb))
                break;
            srv_my_game tmp = *a;
            *a = *b;
            *b = tmp;
        }
    return k;
}

char *srv_lobby_my_games(srv_lobby *L, const srv_site *site, const char *user_id, const char *name)
{
    (void)site;
    srv_my_game *list = malloc(SRV_MY_GAMES * sizeof *list);
    int n = list ? srv_lobby_my_games_list(L, user_id, name, list, SRV_MY_GAMES, 1) : -1;
    if (n < 0) {
        free(list);
        return NULL;
    }
    srv_buf out = {0};
    int turns = 0;
    for (int i = 0; i < n; i++)
        turns += list[i].my_turn;
    if (n) {
        srv_buf_printf(&out, "<section class=\"tc-my-games-box\"><h2>Your games <span class=\"tc-turn-count\">(%d "
                             "your turn)</span></h2>\n<ul class=\"tc-my-games\">\n",
                       turns);
    }
    for (int i = 0; i < n; i++) {
        const srv_my_game *m = &list[i];
        srv_buf_printf(&out, "<li class=\"tc-my-game%s\" data-game=\"%s\"><a href=\"/game/%s#token=%s\">",
                       m->my_turn ? " tc-my-turn" : "", m->game_id, m->game_id, m->token);
        if (m->svg)
            srv_buf_printf(&out, "<span class=\"tc-my-board\">%s</span>", m->svg);
        srv_buf_html(&out, m->title);
        srv_buf_str(&out, " against ");
        srv_buf_html(&out, m->opponent);
        srv_buf_printf(&out, "</a> <span>(%s, %s)</span>", m->side == TC_WHITE ? "you play White" : "you play Black",
                       m->my_turn ? "your turn" : "their turn");
        if (m->correspondence && m->left_ms >= 0) {
            char left[48];
            left_text(m->left_ms, left, sizeof left);
            srv_buf_printf(&out, " <span class=\"tc-left\">%s left for the move</span>", left);
        }
        srv_buf_str(&out, "</li>\n");
    }
    if (n)
        srv_buf_str(&out, "</ul></section>\n");
    else
        srv_buf_str(&out, "");
    srv_my_games_free(list, n);
    return srv_buf_take(&out, NULL);
}


json_t *srv_lobby_my_games_json(srv_lobby *L, const char *user_id, const char *name)
{
    srv_my_game *list = malloc(SRV_MY_GAMES * sizeof *list);
    int n = list ? srv_lobby_my_games_list(L, user_id, name, list, SRV_MY_GAMES, 0) : -1;
    json_t *games = n < 0 ? NULL : json_array();
    for (int i = 0; i < n; i++) {
        char url[128];
        snprintf(url, sizeof url, "/game/%s#token=%s", list[i].game_id, list[i].token);
        json_array_append_new(games, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:b, s:I, s:i}", "id",
                                               list[i].game_id, "url", url, "token", list[i].token, "variant",
                                               list[i].variant, "opponent", list[i].opponent, "side",
                                               list[i].side == TC_WHITE ? "white" : "black", "your_turn",
                                               list[i].my_turn, "correspondence", list[i].correspondence, "left_ms",
                                               (json_int_t)list[i].left_ms, "plies", list[i].nmoves));
    }
    free(list);
    return games;
}
