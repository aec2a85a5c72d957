/* The archive: see archive.h. */
#include "archive.h"

#include "buf.h"
#include "games_pages.h"
#include "respond.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* unknown: a variant slug that the site no longer serves (an unpublished
 * page): its games are listed still, and only a slug without games is
 * answered 404. */
static void list_games(srv_gstore *S, const tg_archive_query *aq, int max, srv_response *r, int html,
                       const srv_site *site, int unknown)
{
    tg_game_summary *list = malloc((size_t)(max + 1) * sizeof *list);
    tc_error err;
    int n = -1;
    if (list)
        n = srv_gstore_archive(S, aq, max + 1, list, &err); /* one more: is there a next page? */
    else
        snprintf(err.msg, sizeof err.msg, "out of memory");
    if (n < 0) { /* the driver's text to the log only, as games_api.c does */
        fprintf(stderr, "topochess serve: store: %s\n", err.msg);
        if (n == -2) {
            srv_route_error(r, 503, !html, "the game store is unavailable for a moment: try again shortly");
            r->retry_after = 2;
        } else {
            srv_route_error(r, 500, !html, "internal error in the game store (logged on the server)");
        }
    } else if (unknown && n == 0) {
        srv_route_error(r, 404, 0, "no variant '%s' on this hub: the archive lists the games of the hub's "
                                   "variants (see /variants)", aq->variant);
    } else {
        srv_archive_view v = {aq, max, n > max};
        srv_pages_list(list, n > max ? max : n, &v, r, html, site);
    }
    free(list);
}


/* Query value of name in q ("a=1&b=2", raw), decoded into out. */
static int query_get(const char *q, const char *name, char *out, size_t n)
{
    size_t nl = strlen(name);
    while (q && *q) {
        size_t seg = strcspn(q, "&");
        if (seg > nl && !strncmp(q, name, nl) && q[nl] == '=') {
            size_t vl = seg - nl - 1;
            if (vl >= n)
                return -1;
            return srv_url_decode(q + nl + 1, vl, 1, out) < 0 ? -1 : 1;
        }
        q += seg + (q[seg] == '&');
    }
    return 0;
}

/* The archive's filters besides the variant: player=NAME (any case),
 * result=1-0|0-1|1/2-1/2|*, page=1..ARCHIVE_PAGES. 1, or 0 with a 400 in r.
 * player comes back as the name's key (lower case). */
static int archive_filters(const char *q, char player[40], char result[16], char page[16], long *pg,
                           srv_response *r, int api)
{
    if (query_get(q, "player", player, 40) < 0) {
        srv_route_error(r, 400, api, "bad query: player=NAME (up to 39 bytes)");
        return 0;
    }
    for (char *p = player; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    if (query_get(q, "result", result, 16) < 0 ||
        (result[0] && strcmp(result, "1-0") && strcmp(result, "0-1") && strcmp(result, "1/2-1/2") &&
         strcmp(result, "*"))) {
        srv_route_error(r, 400, api, "bad query: result is 1-0, 0-1, 1/2-1/2 or * (unfinished)");
        return 0;
    }
    if (query_get(q, "page", page, 16) < 0 ||
        (page[0] && (strspn(page, "0123456789") != strlen(page) || (*pg = strtol(page, NULL, 10)) < 1 ||
                     *pg > ARCHIVE_PAGES))) {
        srv_route_error(r, 400, api, "bad query: page is 1..%d", ARCHIVE_PAGES);
        return 0;
    }
    return 1;
}

void srv_archive_answer(srv_gstore *S, const srv_site *site, const char *q, int api, srv_response *r)
{
    char variant[64] = "", lim[16] = "", player[40] = "", result[16] = "", page[16] = "";
    long max = api ? 50 : ARCHIVE_PAGE, pg = 1;
    if (query_get(q, "variant", variant, sizeof variant) < 0 || query_get(q, "limit", lim, sizeof lim) < 0 ||
        (lim[0] && (!api || strspn(lim, "0123456789") != strlen(lim) || (max = strtol(lim, NULL, 10)) < 1 ||
                    max > LIST_MAX))) {
        srv_route_error(r, 400, api, api ? "bad query: variant=SLUG (up to 63 bytes), limit=1..%d"
                                         : "bad query: variant=SLUG (up to 63 bytes)", LIST_MAX);
    } else if (archive_filters(q, player, result, page, &pg, r, api)) {
        tg_archive_query aq = {NULL, variant, player, result, (int)((pg - 1) * max)};
        int unknown = !api && variant[0] && !srv_site_find(site, variant) && strncmp(variant, "custom:", 7);
        list_games(S, &aq, (int)max, r, !api, site, unknown);
    }
}
