/* The players' inbox on the web: see inbox.h. */
#include "inbox.h"

#include "buf.h"
#include "games_body.h"
#include "notify_store.h"
#include "render.h"
#include "respond.h"
#include "session.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int srv_inbox_owns(const char *path)
{
    return !strcmp(path, "/inbox") || !strcmp(path, "/inbox/read") || !strcmp(path, "/api/inbox") ||
           !strcmp(path, "/api/inbox/read") || !strcmp(path, "/api/inbox/events");
}

/* "3 min ago" and the like, from the notification's time. */
static void age_text(int64_t at_ms, int64_t now, char *buf, size_t n)
{
    int64_t s = (now - at_ms) / 1000;
    if (s < 60)
        snprintf(buf, n, "just now");
    else if (s < 3600)
        snprintf(buf, n, "%lld min ago", (long long)(s / 60));
    else if (s < 86400)
        snprintf(buf, n, "%lld h ago", (long long)(s / 3600));
    else
        snprintf(buf, n, "%lld days ago", (long long)(s / 86400));
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void inbox_page(tp_db *db, const tp_session *s, const tp_note *list, int n, int unread, srv_response *r)
{
    srv_buf b = {0};
    int64_t t = now_ms();
    srv_buf_printf(&b, "<section class=\"tc-people tc-inbox\">\n<h1>Inbox</h1>\n<p class=\"tc-inbox-summary\">%d unread"
                       " of %d shown. Notifications are kept 30 days.</p>\n",
                   unread, n);
    if (unread) {
        srv_buf_str(&b, "<form method=\"post\" action=\"/inbox/read\" class=\"tc-inbox-read\">"
                        "<input type=\"hidden\" name=\"csrf\" value=\"");
        srv_buf_html(&b, s->csrf);
        srv_buf_str(&b, "\"><button type=\"submit\">Mark all read</button></form>\n");
    }
    if (!n)
        srv_buf_str(&b, "<p class=\"tc-empty\">Nothing yet: a move in a correspondence game, a challenge or a game's "
                        "end comes here.</p>\n");
    else
        srv_buf_str(&b, "<ul class=\"tc-notes\">\n");
    json_t *ids = json_array();
    for (int i = 0; i < n; i++) {
        char age[32];
        age_text(list[i].created_ms, t, age, sizeof age);
        srv_buf_printf(&b, "<li class=\"tc-inbox-item tc-inbox-%s%s\" data-id=\"", list[i].kind,
                       list[i].read ? "" : " tc-unread");
        srv_buf_html(&b, list[i].id);
        srv_buf_str(&b, "\"><a href=\"");
        srv_buf_html(&b, list[i].url);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, list[i].text);
        srv_buf_printf(&b, "</a> <span class=\"tc-inbox-age\">%s</span></li>\n", age);
        if (!list[i].read)
            json_array_append_new(ids, json_string(list[i].id));
    }
    if (n)
        srv_buf_str(&b, "</ul>\n");
    srv_buf_str(&b, "</section>");
    (void)db;
    char *main_html = srv_buf_take(&b, NULL);
    char *data = srv_json_text(json_pack("{s:s, s:o}", "csrf", s->csrf, "unread_ids", ids), NULL);
    srv_doc d = {"inbox", "Inbox", main_html ? main_html : "", data, NULL};
    size_t len = 0;
    char *doc = main_html ? srv_render_document(&d, &len) : NULL;
    free(main_html);
    free(data);
    srv_route_page(r, doc, len);
    r->cache = "no-store";
}

static json_t *notes_json(const tp_note *list, int n, int unread)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:b}", "id", list[i].id, "kind",
                                           list[i].kind, "game_id", list[i].game_id, "text", list[i].text, "url",
                                           list[i].url, "at_ms", (json_int_t)list[i].created_ms, "read",
                                           list[i].read));
    return json_pack("{s:i, s:o}", "unread", unread, "notifications", a);
}

/* The form's csrf field (urlencoded), decoded into out; "" if none. */
static void form_csrf(const char *body, size_t len, char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < len;) {
        size_t seg = i;
        while (seg < len && body[seg] != '&')
            seg++;
        if (seg - i > 5 && !strncmp(body + i, "csrf=", 5) && seg - i - 5 < n)
            if (srv_url_decode(body + i + 5, seg - i - 5, 1, out) < 0)
                out[0] = '\0';
        i = seg + 1;
    }
}

void srv_inbox_http(tp_db *db, const tp_session *s, int stale, const srv_inbox_call *c, srv_response *r,
                    char *location, size_t ln)
{
    int api = !strncmp(c->path, "/api/", 5);
    int post = !strcmp(c->method, "POST"), get = !strcmp(c->method, "GET") || !strcmp(c->method, "HEAD");
    int read_route = !strcmp(c->path, "/inbox/read") || !strcmp(c->path, "/api/inbox/read");
    tc_error err;
    if (read_route ? !post : !get) {
        r->allow = read_route ? 2 : 1;
        srv_route_error(r, 405, api, read_route ? "%s marks notifications read: POST" : "%s only reads (GET, HEAD)",
                        c->path);
        return;
    }
    if (!read_route) {
        if (!s) {
            srv_route_error(r, 401, api, "%s", stale ? "your session has ended: log in again to see your inbox"
                                                     : "log in to see your inbox");
            return;
        }
        tp_note *list = malloc(SRV_INBOX_SHOWN * sizeof *list);
        int n = list ? tp_notes_of(db, s->user_id, list, SRV_INBOX_SHOWN, &err) : -1;
        int unread = n < 0 ? -1 : tp_notes_unread(db, s->user_id, &err);
        if (unread < 0)
            srv_route_error(r, 500, api, "the inbox's store failed: %s", list ? err.msg : "out of memory");
        else if (api)
            srv_api_json(r, 200, notes_json(list, n, unread));
        else
            inbox_page(db, s, list, n, unread, r);
        free(list);
        return;
    }
    char token[128] = "", msg[256];
    const char *csrf = c->csrf;
    json_t *body = NULL;
    const char *id = NULL;
    if (api) {
        json_error_t jerr;
        body = json_loadb(c->body ? c->body : "", c->len, JSON_REJECT_DUPLICATES, &jerr);
        if (!body || !json_is_object(body)) {
            srv_route_error(r, 400, 1, "the body must be a JSON object: {\"id\": ID} or {} for all");
            json_decref(body);
            return;
        }
        json_t *v = json_object_get(body, "id");
        if (v && (!json_is_string(v) || json_string_length(v) > TP_NOTE_ID_LEN)) {
            srv_route_error(r, 400, 1, "id must be a notification's id (a string of at most %d characters)",
                            TP_NOTE_ID_LEN);
            json_decref(body);
            return;
        }
        id = v ? json_string_value(v) : NULL;
    } else {
        form_csrf(c->body ? c->body : "", c->len, token, sizeof token);
        csrf = token;
    }
    int refused = srv_session_change_check(s, stale, csrf, c->origin, c->host, c->fetch_site,
                                           "log in to mark your notifications read", msg, sizeof msg);
    if (refused) {
        srv_route_error(r, refused, api, "%s", msg);
    } else if (tp_notes_mark_read(db, s->user_id, id, &err) < 0) {
        srv_route_error(r, 500, api, "the inbox's store failed: %s", err.msg);
    } else if (tp_db_shared(db) && tp_db_notify(db, "tg_lobby", "inbox 0", &err)) { /* every page's count */
        srv_route_error(r, 500, api, "the inbox's store failed: %s", err.msg);
    } else if (api) {
        int unread = tp_notes_unread(db, s->user_id, &err);
        srv_api_json(r, 200, json_pack("{s:i}", "unread", unread < 0 ? 0 : unread));
    } else {
        r->status = 303;
        r->body = "";
        r->len = 0;
        r->cache = "no-store";
        snprintf(location, ln, "/inbox");
    }
    json_decref(body);
}
