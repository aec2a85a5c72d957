/* The tournaments' routes (tourney_http.h), answered inside the people
 * pages' handler, which has read the session, checked origin and CSRF
 * token of a POST and parsed its form. */
#include "tourney_http.h"

#include "buf.h"
#include "render.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *const TYPE_JSON = "application/json; charset=utf-8";

/* path is prefix, or prefix followed by '/' or a query */
static int under(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    return !strncmp(path, prefix, n) && (!path[n] || path[n] == '/' || path[n] == '?');
}

int srv_tourney_owns(const char *path)
{
    return under(path, "/tournaments") || under(path, "/api/tournaments") || !strncmp(path, "/tournament/", 12) ||
           !strncmp(path, "/api/tournament/", 16);
}

static void json_body(srv_response *r, int status, char *text, size_t len)
{
    if (!text) {
        srv_route_error(r, 500, 1, "the tournaments' store failed");
        return;
    }
    r->status = status;
    r->type = TYPE_JSON;
    r->owned = text;
    r->body = text;
    r->len = len;
    r->cache = "no-store";
}

static void page(srv_response *r, int status, const char *title, char *main_html, const char *data)
{
    srv_doc d = {"tournament", title, main_html ? main_html : "", data, NULL};
    size_t len = 0;
    char *doc = main_html ? srv_render_document(&d, &len) : NULL;
    free(main_html);
    srv_route_page(r, doc, len);
    if (doc)
        r->status = status;
    r->cache = "no-store";
}

/* The id of /tournament/ID[/ACTION] or /api/tournament/ID[/ACTION] and
 * the action ("" when none): 0, or -1 for a malformed path. */
static int split(const char *path, char id[TP_TOURNEY_ID_LEN + 1], const char **action)
{
    const char *p = !strncmp(path, "/api/tournament/", 16) ? path + 16 : path + 12;
    size_t n = strcspn(p, "/");
    if (n != TP_TOURNEY_ID_LEN)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
            return -1;
    memcpy(id, p, n);
    id[n] = '\0';
    *action = p + n;
    return 0;
}

void srv_tourney_get(srv_tourneys *T, const srv_site *site, const tp_session *s, const char *path,
                     srv_response *r)
{
    int api = !strncmp(path, "/api/", 5);
    size_t len = 0;
    if (!strcmp(path, "/api/tournaments")) {
        char *text = srv_tourneys_json(T, &len);
        json_body(r, 200, text, len);
        return;
    }
    if (!strcmp(path, "/tournaments")) {
        page(r, 200, "Tournaments", srv_tourneys_main(T, site, s ? s->user_id : NULL, s ? s->csrf : NULL), NULL);
        return;
    }
    char id[TP_TOURNEY_ID_LEN + 1];
    const char *action = NULL;
    if (split(path, id, &action) || *action) {
        if (action && *action) {
            r->allow = 3;
            srv_route_error(r, 405, api, "%s takes a form (POST)", path);
        } else {
            srv_route_error(r, 404, api, "no tournament at %.100s", path);
        }
        return;
    }
    if (api) {
        int status = 200;
        char *text = srv_tourney_json(T, id, &status, &len);
        json_body(r, status, text, len);
        return;
    }
    int status = 200;
    char *main_html = srv_tourney_main(T, site, id, s ? s->user_id : NULL, s ? s->csrf : NULL, &status);
    if (status != 200) {
        srv_route_error(r, status, 0, status == 404 ? "no tournament '%s'" : "the tournaments' store failed (%s)",
                        id);
        return;
    }
    char *data = srv_json_text(json_pack("{s:s, s:s?}", "id", id, "name", s ? s->name : NULL), NULL);
    page(r, 200, "Tournament", main_html, data);
    free(data);
}

void srv_tourney_post(srv_tourneys *T, const srv_site *site, const tp_session *s, const char *path,
                      const srv_tourney_form *f, int64_t now_ms, srv_response *r, char *location, size_t ln)
{
    int api = !strncmp(path, "/api/", 5);
    char msg[300];
    location[0] = '\0';
    if (!strcmp(path, "/tournaments/new") || !strcmp(path, "/api/tournaments")) {
        char id[TP_TOURNEY_ID_LEN + 1];
        int st = srv_tourney_create(T, site, s->user_id, s->name, f, now_ms, id, msg, sizeof msg);
        if (st != 201) {
            srv_route_error(r, st, api, "%s", msg);
        } else if (api) {
            size_t len = 0;
            char url[48];
            snprintf(url, sizeof url, "/tournament/%s", id);
            char *text = srv_json_text(json_pack("{s:s, s:s}", "id", id, "url", url), &len);
            json_body(r, 201, text, len);
        } else {
            r->status = 303;
            snprintf(location, ln, "/tournament/%s", id);
        }
        return;
    }
    char id[TP_TOURNEY_ID_LEN + 1];
    const char *action = NULL;
    int join = 0;
    if (!strncmp(path, "/tournaments/", 13) || split(path, id, &action) ||
        (!(join = !strcmp(action, "/join")) && strcmp(action, "/withdraw"))) {
        srv_route_error(r, 404, api, "no such tournament action: %.100s", path);
        return;
    }
    int st = join ? srv_tourney_join(T, s->user_id, s->name, id, now_ms, msg, sizeof msg)
                  : srv_tourney_withdraw(T, s->user_id, id, msg, sizeof msg);
    if (st != 200) {
        srv_route_error(r, st, api, "%s", msg);
    } else if (api) {
        size_t len = 0;
        char *text = srv_json_text(json_pack("{s:s}", "ok", msg), &len);
        json_body(r, 200, text, len);
    } else {
        r->status = 303;
        snprintf(location, ln, "/tournament/%s", id);
    }
}
