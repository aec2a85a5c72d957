/* The hosted games' pages: see games_pages.h. */
#define _GNU_SOURCE /* open_memstream */
#include "games_pages.h"

#include "buf.h"
#include "game_state.h"
#include "games_body.h"
#include "render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static json_t *side_json(const tg_game_summary *g, int side)
{
    const char *name = side ? g->black : g->white;
    if (!name[0])
        return json_null();
    return json_pack("{s:s,s:i,s:b}", "name", name, "rating", side ? g->black_rating : g->white_rating,
                     "provisional", side ? g->black_provisional : g->white_provisional);
}

/* "Anonymous", "Engine" or the name linked to its page, with the rating. */
static void side_html(srv_buf *m, const tg_game_summary *g, int side)
{
    const char *name = side ? g->black : g->white;
    int rating = side ? g->black_rating : g->white_rating;
    if (g->engine_side == side) {
        srv_buf_str(m, "<span class=\"tc-player-anon\">Engine</span>");
    } else if (!name[0]) {
        srv_buf_str(m, "<span class=\"tc-player-anon\">Anonymous</span>");
    } else {
        srv_buf_str(m, "<a class=\"tc-player\" href=\"/@/");
        srv_buf_html(m, name);
        srv_buf_str(m, "\">");
        srv_buf_html(m, name);
        srv_buf_str(m, "</a>");
        srv_buf_printf(m, " <span class=\"tc-rating\">(%d%s)</span>", rating,
                       (side ? g->black_provisional : g->white_provisional) ? "?" : "");
    }
}

/* A query value as it goes into a link: unreserved bytes as they are,
 * every other one as %XX. */
static void put_query(srv_buf *m, const char *name, const char *value)
{
    if (!value || !value[0])
        return;
    srv_buf_printf(m, "&amp;%s=", name);
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-_.~:", *p))
            srv_buf_printf(m, "%c", *p);
        else
            srv_buf_printf(m, "%%%02X", *p);
    }
}

static void page_link(srv_buf *m, const tg_archive_query *q, int page, const char *rel, const char *label)
{
    srv_buf_printf(m, "<a rel=\"%s\" class=\"tc-archive-%s\" href=\"/games?page=%d", rel, rel, page);
    put_query(m, "variant", q->variant);
    put_query(m, "player", q->player);
    put_query(m, "result", q->result);
    srv_buf_printf(m, "\">%s</a>", label);
}

static const char *result_words(const char *result)
{
    return !strcmp(result, "1-0") ? "White won" : !strcmp(result, "0-1") ? "Black won"
           : !strcmp(result, "1/2-1/2")                                 ? "Draw"
           : !strcmp(result, TG_RESULT_ABORTED)                         ? "Aborted"
                                                                        : "Playing";
}

void srv_pages_list(const tg_game_summary *list, int n, const srv_archive_view *v, srv_response *r, int html,
                    const srv_site *site)
{
    const tg_archive_query *q = v->q;
    if (!html) {
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            char url[64];
            snprintf(url, sizeof url, "/game/%s", list[i].id);
            json_array_append_new(
                a, json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:o,s:I,s:I,s:o,s:o,s:b}", "id", list[i].id, "url", url,
                             "variant", list[i].variant, "result", list[i].result, "termination",
                             list[i].termination, "moves", list[i].nmoves, "engine",
                             srv_side_json(list[i].engine_side), "created_ms", (json_int_t)list[i].created_ms,
                             "updated_ms", (json_int_t)list[i].updated_ms, "white", side_json(&list[i], 0), "black",
                             side_json(&list[i], 1), "rated", list[i].rated));
            json_object_set_new(json_array_get(a, json_array_size(a) - 1), "tournament",
                                list[i].tournament_id[0] ? json_pack("{s:s,s:s}", "id", list[i].tournament_id, "name",
                                                                     list[i].tournament)
                                                         : json_null());
        }
        srv_api_json(r, 200, a);
        return;
    }
    const char *variant = q->variant, *player = q->player, *result = q->result;
    int page = q->offset / (v->per_page > 0 ? v->per_page : 1) + 1;
    srv_buf m = {0};
    srv_buf_str(&m, "<section class=\"tc-archive\">\n<h1>Games");
    if (variant && *variant) {
        const srv_page *p = srv_site_find(site, variant);
        srv_buf_str(&m, ": ");
        srv_buf_html(&m, p ? p->title : variant);
    }
    srv_buf_str(&m, "</h1>\n<form method=\"get\" action=\"/games\" class=\"tc-archive-filter\">"
                    "<label>Variant <select name=\"variant\"><option value=\"\">all variants</option>");
    for (int i = 0; i < site->nvariants; i++) {
        srv_buf_str(&m, "<option value=\"");
        srv_buf_html(&m, site->pages[i].slug);
        srv_buf_str(&m, variant && !strcmp(variant, site->pages[i].slug) ? "\" selected>" : "\">");
        srv_buf_html(&m, site->pages[i].title);
        srv_buf_str(&m, "</option>");
    }
    srv_buf_str(&m, "</select></label> <label>Player <input name=\"player\" size=\"12\" maxlength=\"39\" value=\"");
    srv_buf_html(&m, player ? player : "");
    srv_buf_str(&m, "\"></label> <label>Result <select name=\"result\">");
    static const char *const results[][2] = {{"", "any"}, {"1-0", "White won"}, {"0-1", "Black won"},
                                             {"1/2-1/2", "Draw"}, {"*", "Playing"}};
    for (int i = 0; i < 5; i++)
        srv_buf_printf(&m, "<option value=\"%s\"%s>%s</option>", results[i][0],
                       !strcmp(result ? result : "", results[i][0]) ? " selected" : "", results[i][1]);
    srv_buf_str(&m, "</select></label> <button type=\"submit\">Show</button></form>\n");
    if (n)
        srv_buf_str(&m, "<div class=\"tc-archive-scroll\"><table class=\"tc-games\">\n<thead><tr><th>White</th>"
                        "<th>Black</th><th>Variant</th><th>Result</th><th>Moves</th><th>Date</th><th></th></tr>"
                        "</thead>\n<tbody>\n");
    for (int i = 0; i < n; i++) {
        const tg_game_summary *g = &list[i];
        time_t sec = (time_t)(g->created_ms / 1000);
        struct tm tm;
        char when[32];
        gmtime_r(&sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", &tm);
        const srv_page *p = srv_site_find(site, g->variant);
        srv_buf_printf(&m, "<tr class=\"tc-game\" data-game=\"%s\"><td class=\"tc-game-white\">", g->id);
        side_html(&m, g, 0);
        srv_buf_str(&m, "</td><td class=\"tc-game-black\">");
        side_html(&m, g, 1);
        srv_buf_str(&m, "</td><td class=\"tc-game-variant\">");
        srv_buf_html(&m, p ? p->title : g->variant);
        if (g->rated)
            srv_buf_str(&m, " <span class=\"tc-rated\">rated</span>");
        if (g->tournament_id[0]) { /* the tournament it belongs to */
            srv_buf_str(&m, " <a class=\"tc-game-tournament\" href=\"/tournament/");
            srv_buf_html(&m, g->tournament_id);
            srv_buf_str(&m, "\">");
            srv_buf_html(&m, g->tournament);
            srv_buf_str(&m, "</a>");
        }
        srv_buf_printf(&m, "</td><td class=\"tc-game-result\" data-result=\"%s\">%s", g->result,
                       result_words(g->result));
        if (g->termination[0]) {
            srv_buf_str(&m, "<span class=\"tc-game-termination\">: ");
            srv_buf_html(&m, g->termination);
            srv_buf_str(&m, "</span>");
        }
        srv_buf_printf(&m, "</td><td class=\"tc-game-moves\">%d</td><td class=\"tc-game-when\">%s UTC</td>"
                           "<td><a href=\"/game/%s\">%s</a> <a class=\"tc-game-pgn\" href=\"/api/games/%s/pgn\">PGN</a>"
                           "</td></tr>\n",
                       (g->nmoves + 1) / 2, when, g->id, strcmp(g->result, "*") ? "replay" : "watch", g->id);
    }
    if (n)
        srv_buf_str(&m, "</tbody></table></div>\n<p class=\"tc-archive-note\">Ratings are the players' ratings in "
                        "the variant when the game began (? while provisional); games from the lobby name their players, games "
                        "made by link are anonymous.</p>\n");
    else
        srv_buf_str(&m, page > 1 ? "<p class=\"tc-game-none\">No more games.</p>\n"
                                 : "<p class=\"tc-game-none\">No games match.</p>\n");
    if (page > 1 || v->more) {
        srv_buf_printf(&m, "<nav class=\"tc-archive-pages\">Page %d ", page);
        if (page > 1)
            page_link(&m, q, page - 1, "prev", "&larr; newer");
        if (page > 1 && v->more)
            srv_buf_str(&m, " ");
        if (v->more)
            page_link(&m, q, page + 1, "next", "older &rarr;");
        srv_buf_str(&m, "</nav>\n");
    }
    srv_buf_str(&m, "</section>");
    char *main_html = srv_buf_take(&m, NULL);
    srv_doc d = {"archive", "Games", main_html ? main_html : "", NULL, NULL};
    size_t len = 0;
    char *doc = srv_render_document(&d, &len);
    free(main_html);
    srv_route_page(r, doc, len);
}

/* /game/<id>: the page that plays (with a side's token in the link's
 * fragment, which the server never sees) or watches a game. */
void srv_pages_game(const tg_game *g, const tg_game_summary *row, const srv_site *site, srv_response *r)
{
    json_t *variant;
    const srv_page *p = srv_site_find(site, g->def.name);
    if (p) {
        variant = srv_json_detail(p);
    } else { /* a custom page's game: its definition written back as a page */
        char *text = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&text, &n);
        if (f) {
            tc_variant_def_write_page(&g->def, f);
            fclose(f);
        }
        variant = json_pack("{s:s,s:s,s:s}", "slug", g->def.name, "title", g->def.title, "frontmatter",
                            text ? text : "");
        free(text);
    }
    json_t *data = json_pack("{s:o,s:o}", "variant", variant, "game", srv_state_json(g, srv_now_ms()));
    /* the players: accounts from the lobby, else anonymous (null) */
    json_t *players = json_object();
    for (int s = 0; s < 2; s++)
        json_object_set_new(players, s ? "black" : "white",
                            row && (s ? row->black : row->white)[0] ? side_json(row, s) : json_null());
    json_object_set_new(players, "rated", json_boolean(row && row->rated));
    json_object_set_new(data, "players", players);
    char *data_json = srv_json_text(data, NULL);
    char title[300];
    snprintf(title, sizeof title, "Game %s: %s", g->id, g->def.title);
    char main_html[512];
    snprintf(main_html, sizeof main_html,
             "<noscript>The board needs JavaScript; the moves are in the <a href=\"/api/games/%s/pgn\">PGN</a>."
             "</noscript>\n<div id=\"tc-app\"></div>",
             g->id);
    srv_doc d = {"game", title, main_html, data_json, p ? p->slug : NULL};
    size_t len = 0;
    char *doc = data_json ? srv_render_document(&d, &len) : NULL;
    free(data_json);
    srv_route_page(r, doc, len);
}

