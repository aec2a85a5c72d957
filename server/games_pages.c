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

void srv_pages_pgn(const tg_game *g, srv_response *r)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f) {
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    tg_game_pgn(g, f);
    fclose(f);
    r->status = 200;
    r->type = "application/x-chess-pgn; charset=utf-8";
    r->cache = "no-store";
    r->owned = text;
    r->body = text;
    r->len = n;
}

void srv_pages_list(const tg_game_summary *list, int n, const char *variant, srv_response *r, int html,
                    const srv_site *site)
{
    if (!html) {
        json_t *a = json_array();
        for (int i = 0; i < n; i++) {
            char url[64];
            snprintf(url, sizeof url, "/game/%s", list[i].id);
            json_array_append_new(
                a, json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:o,s:I,s:I}", "id", list[i].id, "url", url, "variant",
                             list[i].variant, "result", list[i].result, "termination", list[i].termination, "moves",
                             list[i].nmoves, "engine", srv_side_json(list[i].engine_side), "created_ms",
                             (json_int_t)list[i].created_ms, "updated_ms", (json_int_t)list[i].updated_ms));
        }
        srv_api_json(r, 200, a);
        return;
    }
    srv_buf m = {0};
    srv_buf_str(&m, "<section class=\"tc-archive\">\n<h1>Games");
    if (variant && *variant) {
        srv_buf_str(&m, ": ");
        srv_buf_html(&m, variant);
    }
    srv_buf_str(&m, "</h1>\n<form method=\"get\" action=\"/games\" class=\"tc-archive-filter\"><select name=\"variant\">"
                    "<option value=\"\">all variants</option>");
    for (int i = 0; i < site->nvariants; i++) {
        srv_buf_str(&m, "<option value=\"");
        srv_buf_html(&m, site->pages[i].slug);
        srv_buf_str(&m, variant && !strcmp(variant, site->pages[i].slug) ? "\" selected>" : "\">");
        srv_buf_html(&m, site->pages[i].title);
        srv_buf_str(&m, "</option>");
    }
    srv_buf_str(&m, "</select> <button type=\"submit\">Show</button></form>\n<ul class=\"tc-games\">\n");
    for (int i = 0; i < n; i++) {
        time_t sec = (time_t)(list[i].updated_ms / 1000);
        struct tm tm;
        char when[32];
        gmtime_r(&sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
        srv_buf_printf(&m, "<li class=\"tc-game\" data-game=\"%s\"><a href=\"/game/%s\">", list[i].id, list[i].id);
        srv_buf_html(&m, list[i].variant);
        srv_buf_printf(&m, "</a> <span class=\"tc-game-result\">%s</span> <span class=\"tc-game-moves\">%d plies</span>",
                       list[i].result, list[i].nmoves);
        if (list[i].termination[0]) {
            srv_buf_str(&m, " <span class=\"tc-game-termination\">");
            srv_buf_html(&m, list[i].termination);
            srv_buf_str(&m, "</span>");
        }
        srv_buf_printf(&m, " <span class=\"tc-game-when\">%s</span> <a class=\"tc-game-pgn\" href=\"/api/games/%s/pgn\">PGN</a></li>\n",
                       when, list[i].id);
    }
    if (!n)
        srv_buf_str(&m, "<li class=\"tc-game-none\">No games yet.</li>\n");
    srv_buf_str(&m, "</ul>\n</section>");
    char *main_html = srv_buf_take(&m, NULL);
    srv_doc d = {"archive", "Games", main_html ? main_html : "", NULL, NULL};
    size_t len = 0;
    char *doc = srv_render_document(&d, &len);
    free(main_html);
    srv_route_page(r, doc, len);
}

/* /game/<id>: the page that plays (with a side's token in the link's
 * fragment, which the server never sees) or watches a game. */
void srv_pages_game(const tg_game *g, const srv_site *site, srv_response *r)
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

