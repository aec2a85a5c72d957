/* The ratings section of a player page (player_ratings.h). */
#include "player_ratings.h"

#include "glicko2.h"
#include "lobby.h"

#include <time.h>

static const char *variant_title(const srv_site *site, const char *slug)
{
    const srv_page *p = site ? srv_site_find(site, slug) : NULL;
    return p ? p->title : slug;
}

static void history_html(srv_buf *b, const srv_site *site, const tp_rating_step *steps, int ns)
{
    srv_buf_str(b, "<h2>Rating history</h2>\n<table class=\"tc-history\"><thead><tr><th>Date</th>"
                   "<th>Variant</th><th>Rating</th><th>Deviation</th><th></th></tr></thead><tbody>\n");
    for (int i = 0; i < ns; i++) {
        time_t at = (time_t)(steps[i].at_ms / 1000);
        struct tm atm;
        char day[16];
        gmtime_r(&at, &atm);
        strftime(day, sizeof day, "%Y-%m-%d", &atm);
        srv_buf_printf(b, "<tr><td>%s</td><td>", day);
        srv_buf_html(b, variant_title(site, steps[i].variant));
        srv_buf_printf(b, "</td><td>%.0f</td><td>%.0f</td><td><a href=\"/game/", steps[i].rating, steps[i].rd);
        srv_buf_html(b, steps[i].game_id);
        srv_buf_str(b, "\">game</a></td></tr>\n");
    }
    srv_buf_str(b, "</tbody></table>\n");
}

int srv_player_ratings_html(srv_buf *b, tp_db *db, const srv_site *site, const char *user_id, tc_error *err)
{
    tp_rating_row rows[SRV_PEOPLE_MAX_RATINGS];
    int nr = tp_ratings_of(db, user_id, rows, SRV_PEOPLE_MAX_RATINGS, err);
    if (nr < 0)
        return -1;
    srv_buf_str(b, "<h2>Ratings</h2>\n");
    if (!nr) {
        srv_buf_printf(b,
                       "<p class=\"tc-none\">No rated games yet. A rating starts at %.0f in each variant and is "
                       "provisional (marked ?) while its deviation is above %.0f.</p>\n",
                       TG_RATING_START, TG_RD_PROVISIONAL);
        return 0;
    }
    srv_buf_str(b, "<table class=\"tc-ratings\"><thead><tr><th>Variant</th><th>Rating</th><th>Deviation</th>"
                   "<th>Games</th></tr></thead><tbody>\n");
    for (int i = 0; i < nr; i++) {
        int prov = tg_rating_provisional(rows[i].rating);
        srv_buf_str(b, "<tr><td><a href=\"/v/");
        srv_buf_html(b, rows[i].variant);
        srv_buf_str(b, "\">");
        srv_buf_html(b, variant_title(site, rows[i].variant));
        srv_buf_printf(b, "</a></td><td class=\"tc-rating\">%.0f%s</td><td>%.0f</td><td>%d</td></tr>\n",
                       rows[i].rating.r, prov ? "<abbr title=\"provisional: too few games\">?</abbr>" : "",
                       rows[i].rating.rd, rows[i].games);
    }
    srv_buf_str(b, "</tbody></table>\n");
    tp_rating_step steps[SRV_PLAYER_GAMES];
    int ns = tp_rating_history(db, user_id, steps, SRV_PLAYER_GAMES, err);
    if (ns > 0)
        history_html(b, site, steps, ns);
    return 0;
}
