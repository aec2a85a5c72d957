/* The tournaments' lists and pages (tourney.h): JSON for scripts and the
 * page's live refresh, HTML for /tournaments and /tournament/ID. Every
 * name and title is escaped (srv_buf_html). */
#include "tourney_internal.h"

#include "buf.h"
#include "render.h"
#include "respond.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP SRV_ARENA_MAX_PLAYERS
#define LIST_MAX 50
#define GAMES_MAX 400

static const char *const kinds[] = {"arena", "round-robin"};
static const char *const states[] = {"upcoming", "running", "finished", "cancelled"};

static const char *kind_of(const tp_tourney *t) { return kinds[t->kind == TP_ROUND_ROBIN]; }
static const char *state_of(const tp_tourney *t)
{
    return t->state >= TP_UPCOMING && t->state <= TP_CANCELLED ? states[t->state] : "?";
}

static json_t *summary_json(const tp_tourney *t, int players)
{
    char buf[32];
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:s, s:I, s:I, s:i, s:i, s:i, s:i, s:s, s:s, s:s}", "id", t->id,
                     "name", t->name, "kind", kind_of(t), "variant", t->variant, "clock",
                     srv_tourney_clock_label(&t->clock, buf, sizeof buf), "rated", t->rated, "state", state_of(t),
                     "starts_ms", (json_int_t)t->starts_ms, "ends_ms", (json_int_t)t->ends_ms, "minutes", t->minutes,
                     "max_players", t->max_players, "players", players, "round", t->round, "creator",
                     t->creator_name[0] ? t->creator_name : "the hub", "winner", t->winner_name, "url", "");
}

char *srv_tourneys_json(srv_tourneys *T, size_t *len)
{
    tc_error err;
    tp_tourney *ts = malloc(LIST_MAX * sizeof *ts);
    int n = ts ? tp_tourney_list(T->db, ts, LIST_MAX, &err) : -1;
    if (n < 0) {
        free(ts);
        return NULL;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        json_t *o = summary_json(&ts[i], tp_entrants_count(T->db, ts[i].id, &err));
        char url[48];
        snprintf(url, sizeof url, "/tournament/%s", ts[i].id);
        json_object_set_new(o, "url", json_string(url));
        json_array_append_new(a, o);
    }
    free(ts);
    return srv_json_text(json_pack("{s:o}", "tournaments", a), len);
}

/// A tournament with everything its page shows.
typedef struct full {
    tp_tourney t;
    tp_entrant es[MAXP];
    int ne;
    tp_tgame gs[GAMES_MAX];
    int ng;
} full;

static const char *name_of(const full *f, const char *user_id)
{
    for (int i = 0; i < f->ne; i++)
        if (!strcmp(f->es[i].user_id, user_id))
            return f->es[i].name;
    return "?";
}

/* 1 loaded, 0 no such tournament, -1 a fault. */
static int load_full(srv_tourneys *T, const char *tid, full *f)
{
    tc_error err;
    int found = tid && strlen(tid) == TP_TOURNEY_ID_LEN ? tp_tourney_get(T->db, tid, &f->t, &err) : 0;
    if (found <= 0)
        return found;
    f->ne = tp_entrants(T->db, tid, f->es, MAXP, &err);
    f->ng = f->ne < 0 ? -1 : tp_tgames(T->db, tid, f->gs, GAMES_MAX, &err);
    return f->ne < 0 || f->ng < 0 ? -1 : 1;
}

char *srv_tourney_json(srv_tourneys *T, const char *tid, int *status, size_t *len)
{
    full *f = malloc(sizeof *f);
    int rc = f ? load_full(T, tid, f) : -1;
    *status = rc == 0 ? 404 : 200;
    if (rc <= 0) {
        free(f);
        return rc == 0 ? srv_json_text(json_pack("{s:s}", "error", "no such tournament"), len) : NULL;
    }
    json_t *o = summary_json(&f->t, f->ne);
    json_t *st = json_array(), *gs = json_array();
    for (int i = 0; i < f->ne; i++) {
        const tp_entrant *e = &f->es[i];
        json_array_append_new(
            st, json_pack("{s:i, s:s, s:i, s:i, s:i, s:i, s:i, s:b, s:b, s:s?}", "rank", i + 1, "name", e->name,
                          "score", e->score, "games", e->games, "wins", e->wins, "draws", e->draws, "streak",
                          e->streak, "fire", f->t.kind == TP_ARENA && e->streak >= TT_FIRE_AFTER, "active",
                          e->active, "playing", e->playing[0] ? e->playing : NULL));
    }
    for (int i = 0; i < f->ng; i++) {
        const tp_tgame *g = &f->gs[i];
        json_array_append_new(gs, json_pack("{s:s, s:i, s:s, s:s, s:s, s:i, s:i, s:b, s:I}", "id", g->game_id,
                                            "round", g->round, "white", name_of(f, g->white), "black",
                                            name_of(f, g->black), "result", g->result, "white_pts", g->white_pts,
                                            "black_pts", g->black_pts, "counted", g->counted, "created_ms",
                                            (json_int_t)g->created_ms));
    }
    json_object_set_new(o, "standings", st);
    json_object_set_new(o, "games", gs);
    json_object_set_new(o, "version", json_integer((json_int_t)f->t.version));
    char url[48];
    snprintf(url, sizeof url, "/tournament/%s", f->t.id);
    json_object_set_new(o, "url", json_string(url));
    free(f);
    return srv_json_text(o, len);
}

/* ---------------------------------------------------------------- HTML */

static void when(srv_buf *b, int64_t ms)
{
    time_t s = (time_t)(ms / 1000);
    struct tm tm;
    char text[40];
    gmtime_r(&s, &tm);
    strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    srv_buf_str(b, text);
}

static void title_of(srv_buf *b, const srv_site *site, const char *slug)
{
    const srv_page *p = site ? srv_site_find(site, slug) : NULL;
    srv_buf_html(b, p ? p->title : slug);
}

static void score_text(srv_buf *b, const tp_tourney *t, int score)
{
    if (t->kind == TP_ARENA)
        srv_buf_printf(b, "%d", score);
    else
        srv_buf_printf(b, "%d%s", score / 2, score % 2 ? "&frac12;" : "");
}

static void csrf_input(srv_buf *b, const char *csrf)
{
    srv_buf_str(b, "<input type=\"hidden\" name=\"csrf\" value=\"");
    srv_buf_html(b, csrf);
    srv_buf_str(b, "\">");
}

char *srv_tourneys_main(srv_tourneys *T, const srv_site *site, const char *user_id, const char *csrf)
{
    tc_error err;
    tp_tourney *ts = malloc(LIST_MAX * sizeof *ts);
    int n = ts ? tp_tourney_list(T->db, ts, LIST_MAX, &err) : -1;
    if (n < 0) {
        free(ts);
        return NULL;
    }
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-people tc-tournaments\">\n<h1>Tournaments</h1>\n");
    srv_buf_str(&b, "<p>Arenas last a fixed time: when your game ends you are paired again with a waiting player "
                    "of similar score (never the one you just played). A win scores 2, a draw 1; after two wins "
                    "in a row a win scores 4 and a draw 2, until a game you do not win. Round-robins: everyone "
                    "plays everyone once. <a href=\"/docs/tournaments\">How tournaments work</a>.</p>\n");
    srv_buf_str(&b, "<table class=\"tc-table tc-tourney-list\"><thead><tr><th>Name</th><th>Kind</th><th>Variant"
                    "</th><th>Clock</th><th>Starts</th><th>Players</th><th>State</th></tr></thead><tbody>\n");
    for (int i = 0; i < n; i++) {
        srv_buf_printf(&b, "<tr><td><a href=\"/tournament/%s\">", ts[i].id);
        srv_buf_html(&b, ts[i].name);
        srv_buf_printf(&b, "</a></td><td>%s", kind_of(&ts[i]));
        if (ts[i].kind == TP_ARENA)
            srv_buf_printf(&b, ", %d min", ts[i].minutes);
        srv_buf_str(&b, "</td><td>");
        title_of(&b, site, ts[i].variant);
        char buf[32];
        srv_buf_printf(&b, "</td><td>%s%s</td><td>", srv_tourney_clock_label(&ts[i].clock, buf, sizeof buf),
                       ts[i].rated ? ", rated" : "");
        when(&b, ts[i].starts_ms);
        srv_buf_printf(&b, "</td><td>%d/%d</td><td>%s", tp_entrants_count(T->db, ts[i].id, &err), ts[i].max_players,
                       state_of(&ts[i]));
        if (ts[i].winner_name[0]) {
            srv_buf_str(&b, ": won by ");
            srv_buf_html(&b, ts[i].winner_name);
        }
        srv_buf_str(&b, "</td></tr>\n");
    }
    if (!n)
        srv_buf_str(&b, "<tr><td colspan=\"7\">No tournament yet: make one below.</td></tr>\n");
    srv_buf_str(&b, "</tbody></table>\n");
    free(ts);
    if (!user_id || !csrf || !site) {
        srv_buf_str(&b, "<p><a href=\"/login\">Log in</a> to make or join a tournament.</p>\n</section>");
        return srv_buf_take(&b, NULL);
    }
    srv_buf_str(&b, "<h2>Make a tournament</h2>\n<form method=\"post\" action=\"/tournaments/new\" "
                    "class=\"tc-form tc-seek-form\">");
    csrf_input(&b, csrf);
    srv_buf_printf(&b, "<label>Name <input name=\"name\" required minlength=\"3\" maxlength=\"%d\"></label>",
                   TP_TOURNEY_NAME_MAX);
    srv_buf_str(&b, "<label>Kind <select name=\"kind\"><option value=\"arena\">arena</option>"
                    "<option value=\"round-robin\">round-robin</option></select></label>"
                    "<label>Variant <select name=\"variant\">");
    for (int i = 0; i < site->nvariants; i++) {
        srv_buf_str(&b, "<option value=\"");
        srv_buf_html(&b, site->pages[i].slug);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, site->pages[i].title);
        srv_buf_str(&b, "</option>");
    }
    srv_buf_str(&b, "</select></label><label>Clock <select name=\"clock\"><option>1+0</option><option>2+1</option>"
                    "<option selected>3+2</option><option>5+3</option><option>10+5</option><option>15+10</option>"
                    "<option>30+20</option><option value=\"corr1\">1 day a move (round-robin)</option>"
                    "<option value=\"corr3\">3 days a move (round-robin)</option>"
                    "<option value=\"corr7\">7 days a move (round-robin)</option></select></label>");
    srv_buf_printf(&b,
                   "<label>Starts in (minutes) <input name=\"starts_in\" type=\"number\" min=\"0\" max=\"%d\" "
                   "value=\"10\"></label><label>Arena length (minutes) <input name=\"minutes\" type=\"number\" "
                   "min=\"1\" max=\"%d\" value=\"30\"></label><label>Most players <input name=\"max_players\" "
                   "type=\"number\" min=\"2\" max=\"%d\"></label><label class=\"tc-check\"><input type=\"checkbox\" "
                   "name=\"rated\" value=\"1\" checked> Rated</label><button type=\"submit\">Make it</button></form>\n"
                   "<p class=\"tc-note\">At most %d upcoming or running tournaments of yours at once; an arena "
                   "lasts 1 to %d minutes with up to %d players; a round-robin has 2 to %d players and ends when its "
                   "games end.</p>\n</section>",
                   SRV_TOURNEY_AHEAD_MIN, SRV_ARENA_MAX_MIN, SRV_ARENA_MAX_PLAYERS, SRV_TOURNEYS_PER_USER,
                   SRV_ARENA_MAX_MIN, SRV_ARENA_MAX_PLAYERS, TT_RR_MAX);
    return srv_buf_take(&b, NULL);
}

char *srv_tourney_main(srv_tourneys *T, const srv_site *site, const char *tid, const char *user_id,
                       const char *csrf, int *status)
{
    full *f = malloc(sizeof *f);
    int rc = f ? load_full(T, tid, f) : -1;
    *status = rc == 0 ? 404 : rc < 0 ? 500 : 200;
    if (rc <= 0) {
        free(f);
        return NULL;
    }
    const tp_tourney *t = &f->t;
    srv_buf b = {0};
    srv_buf_printf(&b, "<section class=\"tc-people tc-tournament\" data-tournament=\"%s\">\n<h1>", t->id);
    srv_buf_html(&b, t->name);
    char buf[32];
    srv_buf_printf(&b, "</h1>\n<p class=\"tc-tourney-facts\">%s", kind_of(t));
    if (t->kind == TP_ARENA)
        srv_buf_printf(&b, " of %d minutes", t->minutes);
    srv_buf_str(&b, ", ");
    title_of(&b, site, t->variant);
    srv_buf_printf(&b, ", %s, %s; starts ", srv_tourney_clock_label(&t->clock, buf, sizeof buf),
                   t->rated ? "rated" : "casual");
    when(&b, t->starts_ms);
    if (t->kind == TP_ARENA) {
        srv_buf_str(&b, ", ends ");
        when(&b, t->ends_ms);
    }
    srv_buf_str(&b, "; made by ");
    srv_buf_html(&b, t->creator_name[0] ? t->creator_name : "the hub");
    srv_buf_printf(&b, ".</p>\n<p class=\"tc-tourney-state\" id=\"tc-tourney-state\">%s", state_of(t));
    if (t->kind == TP_ROUND_ROBIN && t->state == TP_RUNNING)
        srv_buf_printf(&b, ": round %d of %d", t->round, tt_berger_rounds(f->ne));
    if (t->winner_name[0]) {
        srv_buf_str(&b, ": won by ");
        srv_buf_html(&b, t->winner_name);
    }
    srv_buf_str(&b, "</p>\n");
    int in = 0, mine = -1;
    for (int i = 0; i < f->ne; i++)
        if (user_id && !strcmp(f->es[i].user_id, user_id))
            in = f->es[i].active ? 1 : 2, mine = i;
    if (mine >= 0 && f->es[mine].playing[0])
        srv_buf_printf(&b, "<p class=\"tc-done\" role=\"status\" id=\"tc-your-game\">Your game: <a "
                           "href=\"/game/%s\">play it</a>.</p>\n", f->es[mine].playing);
    if (user_id && csrf && t->state <= TP_RUNNING) {
        const char *act = in == 1 ? "withdraw" : "join";
        srv_buf_printf(&b, "<form method=\"post\" action=\"/tournament/%s/%s\" class=\"tc-actions\">", t->id, act);
        csrf_input(&b, csrf);
        srv_buf_printf(&b, "<button type=\"submit\">%s</button></form>\n",
                       in == 1 ? (t->kind == TP_ARENA ? "Pause (withdraw)" : "Withdraw")
                       : in == 2 ? "Come back" : "Join");
    } else if (!user_id && t->state <= TP_RUNNING) {
        srv_buf_str(&b, "<p><a href=\"/login\">Log in</a> to join.</p>\n");
    }
    srv_buf_str(&b, "<h2>Standings</h2>\n<table class=\"tc-table\" id=\"tc-standings\"><thead><tr><th>#</th>"
                    "<th>Player</th><th>Score</th><th>Games</th><th>Won</th><th>Drawn</th><th></th></tr></thead>"
                    "<tbody>\n");
    for (int i = 0; i < f->ne; i++) {
        const tp_entrant *e = &f->es[i];
        srv_buf_printf(&b, "<tr><td>%d</td><td><a href=\"/@/", i + 1);
        srv_buf_html(&b, e->name);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, e->name);
        srv_buf_str(&b, "</a></td><td>");
        score_text(&b, t, e->score);
        srv_buf_printf(&b, "</td><td>%d</td><td>%d</td><td>%d</td><td>%s%s%s</td></tr>\n", e->games, e->wins,
                       e->draws, t->kind == TP_ARENA && e->streak >= TT_FIRE_AFTER ? "on fire " : "",
                       e->playing[0] ? "playing" : "", e->active ? "" : "withdrawn");
    }
    srv_buf_str(&b, "</tbody></table>\n<h2>Games</h2>\n<table class=\"tc-table\" id=\"tc-tourney-games\"><thead><tr>"
                    "<th>Round</th><th>White</th><th>Black</th><th>Result</th><th>Points</th></tr></thead><tbody>\n");
    for (int i = 0; i < f->ng; i++) {
        const tp_tgame *g = &f->gs[i];
        srv_buf_str(&b, "<tr><td>");
        if (g->round)
            srv_buf_printf(&b, "%d", g->round);
        srv_buf_str(&b, "</td><td>");
        srv_buf_html(&b, name_of(f, g->white));
        srv_buf_str(&b, "</td><td>");
        srv_buf_html(&b, name_of(f, g->black));
        srv_buf_printf(&b, "</td><td><a href=\"/game/%s\">%s</a></td><td>", g->game_id,
                       g->counted ? g->result : "playing");
        if (g->counted) {
            score_text(&b, t, g->white_pts);
            srv_buf_str(&b, "-");
            score_text(&b, t, g->black_pts);
        }
        srv_buf_str(&b, "</td></tr>\n");
    }
    srv_buf_str(&b, "</tbody></table>\n</section>");
    free(f);
    return srv_buf_take(&b, NULL);
}

char *srv_tourney_wins_html(srv_tourneys *T, const char *user_id)
{
    tc_error err;
    tp_tourney won[10];
    int n = tp_tourney_won(T->db, user_id, won, 10, &err);
    srv_buf b = {0};
    srv_buf_str(&b, "");
    if (n > 0) {
        srv_buf_str(&b, "<h2>Tournaments won</h2>\n<ul class=\"tc-tourney-wins\">");
        for (int i = 0; i < n; i++) {
            srv_buf_printf(&b, "<li><a href=\"/tournament/%s\">", won[i].id);
            srv_buf_html(&b, won[i].name);
            srv_buf_str(&b, "</a> (");
            when(&b, won[i].finished_ms);
            srv_buf_str(&b, ")</li>");
        }
        srv_buf_str(&b, "</ul>\n");
    }
    return srv_buf_take(&b, NULL);
}
