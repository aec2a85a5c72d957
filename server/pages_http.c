/* The variant pages' JSON API (pages_http.h). */
#include "pages_http.h"

#include "pages_flow.h"
#include "session.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int srv_pages_owns(const char *target) { return !strncmp(target, "/api/pages/", 11); }

static int query_int(const char *q, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = q; p && *p;) {
        if (!strncmp(p, name, n) && p[n] == '=')
            return atoi(p + n + 1);
        p = strchr(p, '&');
        p = p ? p + 1 : NULL;
    }
    return 0;
}

static void send_json(srv_response *out, int status, json_t *v)
{
    char *text = v ? json_dumps(v, JSON_COMPACT) : NULL;
    json_decref(v);
    if (!text) {
        srv_route_error(out, 500, 1, "out of memory");
        return;
    }
    out->status = status;
    out->type = "application/json; charset=utf-8";
    out->owned = text;
    out->body = text;
    out->len = strlen(text);
}

static void send_result(srv_response *out, srv_pf_result *r)
{
    send_json(out, r->status,
              json_pack("{s:i, s:s, s:i, s:s?}", "status", r->status, "message", r->msg, "rev", r->rev, "diff",
                        r->diff_html));
    srv_pf_result_free(r);
}

static void get_page(tp_db *d, const char *slug, srv_response *out)
{
    tc_error err;
    tp_page p;
    tp_revision head;
    int found = tp_page_get(d, slug, &p, &err);
    if (found <= 0) {
        srv_route_error(out, found < 0 ? 500 : 404, 1, found < 0 ? "database: %s" : "no page '%.63s'",
                        found < 0 ? err.msg : slug);
        return;
    }
    if (tp_revision_get(d, slug, 0, &head, &err) <= 0) {
        srv_route_error(out, 500, 1, "database: %s", err.msg);
        return;
    }
    send_json(out, 200,
              json_pack("{s:s, s:s, s:i, s:i, s:s, s:s}", "slug", p.slug, "state", tp_page_state_name(p.state), "rev",
                        p.head_rev, "published_rev", p.published_rev, "author", head.author_name, "text",
                        head.text));
    tp_revision_free(&head);
}

void srv_pages_http(tp_db *d, const tp_session *s, const srv_pages_call *c, int64_t now_ms, srv_response *out)
{
    char slug[TP_SLUG_MAX + 1], action[16] = "";
    const char *rest = c->path + 11;
    size_t sl = strcspn(rest, "/");
    if (sl == 0 || sl > TP_SLUG_MAX) {
        srv_route_error(out, 404, 1, "no such page: %.80s", c->path);
        return;
    }
    snprintf(slug, sizeof slug, "%.*s", (int)sl, rest);
    if (rest[sl] == '/')
        snprintf(action, sizeof action, "%.15s", rest + sl + 1);
    int get = !strcmp(c->method, "GET") || !strcmp(c->method, "HEAD"), post = !strcmp(c->method, "POST");
    srv_pf_result r;
    if (get && !action[0]) {
        get_page(d, slug, out);
        return;
    }
    if (get && !strcmp(action, "diff")) {
        srv_pf_diff(d, slug, query_int(c->query, "a"), query_int(c->query, "b"), &r);
        send_result(out, &r);
        return;
    }
    if (!post || (action[0] && strcmp(action, "submit") && strcmp(action, "publish") && strcmp(action, "unpublish"))) {
        out->allow = 2;
        srv_route_error(out, post ? 404 : 405, 1, "no %s for %.80s", c->method, c->path);
        return;
    }
    char msg[256];
    if (srv_same_origin(c->origin, c->host, c->fetch_site, msg, sizeof msg)) {
        srv_route_error(out, 403, 1, "%s", msg);
        return;
    }
    if (!s) {
        srv_route_error(out, 401, 1, "sign in to change pages");
        return;
    }
    if (!srv_csrf_ok(s, c->csrf)) {
        srv_route_error(out, 403, 1, "%s", c->csrf ? "the X-CSRF-Token does not match your session: reload the page"
                                                   : "the request has no X-CSRF-Token header");
        return;
    }
    tc_error err;
    int editor = tp_is_editor(d, s->user_id, &err);
    if (editor < 0) {
        srv_route_error(out, 500, 1, "database: %s", err.msg);
        return;
    }
    srv_pf_user u = {s->user_id, s->name, editor};
    if (!action[0]) {
        char *text = malloc(c->len + 1);
        if (!text) {
            srv_route_error(out, 500, 1, "out of memory");
            return;
        }
        memcpy(text, c->body ? c->body : "", c->len);
        text[c->len] = '\0';
        srv_pf_save(d, &u, slug, query_int(c->query, "base"), text, c->len, now_ms, &r);
        free(text);
    } else if (!strcmp(action, "submit")) {
        srv_pf_submit(d, &u, slug, now_ms, &r);
    } else if (!strcmp(action, "publish")) {
        srv_pf_publish(d, &u, slug, now_ms, &r);
    } else {
        srv_pf_unpublish(d, &u, slug, now_ms, &r);
    }
    send_result(out, &r);
}
