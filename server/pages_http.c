/* The variant pages' JSON API (pages_http.h). */
#include "pages_http.h"

#include "pages_flow.h"
#include "session.h"
#include "buf.h"
#include "render.h"
#include "site.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void send_json(srv_response *out, int status, json_t *v);

static int edit_path(const char *path, char slug[TP_SLUG_MAX + 1])
{
    if (!strcmp(path, "/new")) {
        slug[0] = '\0';
        return 1;
    }
    if (strncmp(path, "/v/", 3))
        return 0;
    size_t n = strcspn(path + 3, "/");
    if (n == 0 || n > TP_SLUG_MAX || strcmp(path + 3 + n, "/edit"))
        return 0;
    snprintf(slug, TP_SLUG_MAX + 1, "%.*s", (int)n, path + 3);
    return 1;
}

int srv_pages_owns(const char *target)
{
    char path[128], slug[TP_SLUG_MAX + 1];
    size_t n = strcspn(target, "?");
    if (n >= sizeof path)
        return !strncmp(target, "/api/pages/", 11);
    snprintf(path, sizeof path, "%.*s", (int)n, target);
    return !strncmp(target, "/api/pages/", 11) || !strcmp(path, "/api/pages") || edit_path(path, slug);
}

/* GET /api/pages: the caller's own pages, and for an editor the pages
 * waiting for review (at most 100 each). */
static void list_pages(tp_db *d, const tp_session *s, srv_response *out)
{
    if (!s) {
        srv_route_error(out, 401, 1, "sign in to see your pages");
        return;
    }
    tc_error err;
    enum { MAX_LIST = 100 };
    tp_page *rows = malloc(MAX_LIST * sizeof *rows);
    int editor = rows ? tp_is_editor(d, s->user_id, &err) : -1;
    int mine = editor < 0 ? -1 : tp_pages_list(d, 0, s->user_id, rows, MAX_LIST, &err);
    json_t *a = json_array(), *b = json_array();
    for (int i = 0; i < mine; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:i, s:i}", "slug", rows[i].slug, "state",
                                           tp_page_state_name(rows[i].state), "rev", rows[i].head_rev,
                                           "published_rev", rows[i].published_rev));
    int review = mine < 0 || !editor ? 0 : tp_pages_list(d, TP_PAGE_REVIEW, NULL, rows, MAX_LIST, &err);
    for (int i = 0; i < review; i++)
        json_array_append_new(b, json_pack("{s:s, s:i}", "slug", rows[i].slug, "rev", rows[i].head_rev));
    free(rows);
    if (mine < 0 || review < 0) {
        json_decref(a), json_decref(b);
        srv_route_error(out, 500, 1, "database: %s", rows ? err.msg : "out of memory");
        return;
    }
    send_json(out, 200, json_pack("{s:o, s:o, s:b}", "mine", a, "review", b, "editor", editor));
}

/* A query's whole number from 0 to 1000000 (absent: 0), or -1 when it is
 * something else. */
static int query_int(const char *q, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = q; p && *p;) {
        if (!strncmp(p, name, n) && p[n] == '=') {
            char *end;
            long v = strtol(p + n + 1, &end, 10);
            return end == p + n + 1 || (*end && *end != '&') || v < 0 || v > 1000000 ? -1 : (int)v;
        }
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

/* Who may read a stored page through the API: its author and the
 * editors read every revision (2); anyone else only a published page, up
 * to its published revision (1); a page someone else has not published
 * is "no page" (0) so that drafts stay private, even by name. -1 with a
 * response sent on a database fault. */
static int read_access(tp_db *d, const tp_session *s, const char *slug, tp_page *p, srv_response *out)
{
    tc_error err;
    int found = tp_page_get(d, slug, p, &err);
    int editor = found > 0 && s ? tp_is_editor(d, s->user_id, &err) : 0;
    if (found < 0 || editor < 0) {
        srv_route_error(out, 500, 1, "database: %s", err.msg);
        return -1;
    }
    int level = found <= 0 ? 0 : editor || (s && !strcmp(p->author_id, s->user_id)) ? 2 : p->published_rev > 0 ? 1 : 0;
    if (!level)
        srv_route_error(out, 404, 1, "no page '%.63s'", slug);
    return level;
}

static void get_page(tp_db *d, const tp_session *s, const char *slug, srv_response *out)
{
    tc_error err;
    tp_page p;
    tp_revision shown;
    int level = read_access(d, s, slug, &p, out);
    if (level <= 0)
        return;
    if (tp_revision_get(d, slug, level == 2 ? 0 : p.published_rev, &shown, &err) <= 0) {
        srv_route_error(out, 500, 1, "database: %s", err.msg);
        return;
    }
    /* a revision saved before its text was checked as UTF-8 (issue 29) is
     * shown with U+FFFD for its bad bytes rather than not at all */
    char *text = srv_utf8_clean(shown.text, strlen(shown.text)), *author = srv_utf8_clean(shown.author_name, strlen(shown.author_name));
    send_json(out, 200,
              text && author ? json_pack("{s:s, s:s, s:i, s:i, s:s, s:s}", "slug", p.slug, "state",
                                         tp_page_state_name(p.state), "rev", level == 2 ? p.head_rev : p.published_rev,
                                         "published_rev", p.published_rev, "author", author, "text", text)
                             : NULL);
    free(text);
    free(author);
    tp_revision_free(&shown);
}

/* The editor's document: /new, or /v/SLUG/edit with the newest revision
 * (authors and editors only); the page itself is built by the script
 * (web/src/pages/editor.ts) from the data. */
/* "Make a variant of this" (/new?from=SLUG): the text the editor starts
 * from, into data as {"from": {"slug", "title", "text"}}: the database's
 * published revision of the page (or its newest, for its author and the
 * editors), else the site's page of that name (a shipped page). 0, or -1
 * with why set when there is no such page to start from. */
static int variant_of(tp_db *d, const tp_session *s, int editor, const srv_site *site, const char *from, json_t *data,
                      const char **why)
{
    tc_error err;
    tp_page p;
    tp_revision r = {0};
    int found = tp_page_get(d, from, &p, &err);
    if (found < 0) {
        *why = "The database failed; try again.";
        return -1;
    }
    const char *text = NULL, *slug = from;
    if (found) {
        int mine = s && (editor || !strcmp(p.author_id, s->user_id));
        int rev = p.published_rev > 0 ? p.published_rev : mine ? 0 : -1;
        if (rev >= 0 && tp_revision_get(d, p.slug, rev, &r, &err) > 0) {
            text = r.text;
            slug = p.slug;
        }
    } else if (site) {
        const srv_page *sp = srv_site_find(site, from);
        if (sp && sp->ok && sp->source.p) {
            text = sp->source.p;
            slug = sp->slug;
        }
    }
    if (!text) {
        tp_revision_free(&r);
        *why = "There is no published page of that name to make a variant of.";
        return -1;
    }
    json_t *j = json_pack("{s:s, s:s}", "slug", slug, "text", text);
    tp_revision_free(&r);
    if (!j) {
        *why = "Out of memory.";
        return -1;
    }
    json_object_set_new(data, "from", j);
    return 0;
}

/* The value of name=VALUE in a query, when it is 1..63 characters of a
 * slug (a-z, 0-9, '-', '_', '.'; upper case allowed, the store ignores
 * case), into out; else "". */
static void query_slug(const char *q, const char *name, char out[TP_SLUG_MAX + 1])
{
    out[0] = '\0';
    size_t n = strlen(name);
    for (const char *p = q; p && *p;) {
        if (!strncmp(p, name, n) && p[n] == '=') {
            const char *v = p + n + 1;
            size_t len = strcspn(v, "&");
            if (len == 0 || len > TP_SLUG_MAX || strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") < len)
                return;
            snprintf(out, TP_SLUG_MAX + 1, "%.*s", (int)len, v);
            return;
        }
        p = strchr(p, '&');
        p = p ? p + 1 : NULL;
    }
}

static void editor_page(tp_db *d, const tp_session *s, const char *slug, const srv_pages_call *c, srv_response *out)
{
    tc_error err;
    int editor = s ? tp_is_editor(d, s->user_id, &err) : 0;
    if (editor < 0) {
        srv_route_error(out, 500, 0, "database: %s", err.msg);
        return;
    }
    json_t *data = json_pack("{s:s, s:s?, s:s?, s:b}", "mode", slug[0] ? "edit" : "new", "user", s ? s->name : NULL,
                             "csrf", s ? s->csrf : NULL, "editor", editor);
    tp_page p;
    int status = s ? 200 : 401;
    const char *why = s ? NULL : "Log in to write a variant page.";
    if (slug[0] && s) {
        int found = tp_page_get(d, slug, &p, &err);
        tp_revision head;
        if (found < 0) {
            json_decref(data);
            srv_route_error(out, 500, 0, "database: %s", err.msg);
            return;
        }
        if (!found) {
            status = 404;
            why = "There is no page of that name to edit.";
        } else if (!editor && strcmp(p.author_id, s->user_id)) {
            status = 403;
            why = "Only the page's author and the editors may edit it.";
        } else if (tp_revision_get(d, slug, 0, &head, &err) > 0) {
            json_object_set_new(data, "slug", json_string(p.slug));
            json_object_set_new(data, "rev", json_integer(p.head_rev));
            json_object_set_new(data, "state", json_string(tp_page_state_name(p.state)));
            json_object_set_new(data, "published_rev", json_integer(p.published_rev));
            json_t *t = json_string(head.text);
            json_object_set_new(data, "text", t ? t : json_string(""));
            tp_revision_free(&head);
        }
    }
    char from[TP_SLUG_MAX + 1];
    query_slug(c->query, "from", from);
    if (!slug[0] && s && !why && c->query && strstr(c->query, "from=")) {
        if (!from[0]) {
            status = 400;
            why = "from: name the page to make a variant of (/new?from=SLUG).";
        } else if (variant_of(d, s, editor, c->site, from, data, &why)) {
            status = 404;
        }
    }
    if (why)
        json_object_set_new(data, "refused", json_string(why));
    size_t n = 0;
    char *js = srv_json_text(data, &n);
    srv_buf main = {0};
    srv_buf_str(&main, "<h1>");
    srv_buf_str(&main, slug[0] ? "Edit a variant page" : "Write a variant page");
    srv_buf_str(&main, "</h1><div id=\"tc-app\" class=\"tc-editor-app\">");
    if (why) {
        srv_buf_str(&main, "<p class=\"tc-error\">");
        srv_buf_html(&main, why);
        srv_buf_str(&main, s ? "</p>" : " <a href=\"/login\">Log in</a> or <a href=\"/signup\">sign up</a>.</p>");
    } else {
        srv_buf_str(&main, "<p>The editor needs JavaScript.</p>");
    }
    srv_buf_str(&main, "</div>");
    char *main_html = srv_buf_take(&main, NULL);
    srv_doc doc = {"editor", slug[0] ? "topochess: edit a variant page" : "topochess: new variant page", main_html, js,
                   NULL};
    char *html = js && main_html ? srv_render_document(&doc, &n) : NULL;
    free(js);
    free(main_html);
    if (!html) {
        srv_route_error(out, 500, 0, "out of memory");
        return;
    }
    out->status = status;
    out->type = "text/html; charset=utf-8";
    out->page = 1;
    out->owned = html;
    out->body = html;
    out->len = n;
}

int srv_pages_http(tp_db *d, const tp_session *s, const srv_pages_call *c, int64_t now_ms, srv_response *out)
{
    char eslug[TP_SLUG_MAX + 1];
    if (!strcmp(c->path, "/api/pages")) {
        if (strcmp(c->method, "GET") && strcmp(c->method, "HEAD")) {
            out->allow = 1;
            srv_route_error(out, 405, 1, "/api/pages only reads (GET, HEAD)");
        } else {
            list_pages(d, s, out);
        }
        return 0;
    }
    if (edit_path(c->path, eslug)) {
        if (strcmp(c->method, "GET") && strcmp(c->method, "HEAD")) {
            out->allow = 1;
            srv_route_error(out, 405, 0, "%s only reads (GET, HEAD): the editor saves through /api/pages", c->path);
            return 0;
        }
        editor_page(d, s, eslug, c, out);
        return 0;
    }
    char slug[TP_SLUG_MAX + 1], action[16] = "";
    const char *rest = c->path + 11;
    size_t sl = strcspn(rest, "/");
    if (sl == 0 || sl > TP_SLUG_MAX) {
        srv_route_error(out, 404, 1, "no such page: %.80s", c->path);
        return 0;
    }
    snprintf(slug, sizeof slug, "%.*s", (int)sl, rest);
    if (rest[sl] == '/')
        snprintf(action, sizeof action, "%.15s", rest + sl + 1);
    int get = !strcmp(c->method, "GET") || !strcmp(c->method, "HEAD"), post = !strcmp(c->method, "POST");
    srv_pf_result r;
    if (get && !action[0]) {
        get_page(d, s, slug, out);
        return 0;
    }
    tp_page page;
    int level = get ? read_access(d, s, slug, &page, out) : 2;
    if (level <= 0)
        return 0;
    if (get && !strcmp(action, "revisions")) {
        tc_error err;
        enum { MAX_LIST = 200 };
        tp_revision *list = malloc(MAX_LIST * sizeof *list);
        int n = list ? tp_revisions_list(d, slug, list, MAX_LIST, &err) : -1;
        if (n < 0) {
            free(list);
            srv_route_error(out, 500, 1, "database: %s", list ? err.msg : "out of memory");
            return 0;
        }
        json_t *a = json_array();
        for (int i = 0; i < n; i++)
            if (level == 2 || list[i].rev <= page.published_rev)
                json_array_append_new(a, json_pack("{s:i, s:s, s:I}", "rev", list[i].rev, "author",
                                                   list[i].author_name, "at_ms", (json_int_t)list[i].at_ms));
        free(list);
        send_json(out, 200, json_pack("{s:s, s:o}", "slug", slug, "revisions", a));
        return 0;
    }
    if (get && !strcmp(action, "diff")) {
        int a = query_int(c->query, "a"), b = query_int(c->query, "b");
        if (a < 0 || b < 0) {
            srv_route_error(out, 400, 1, "a and b: revision numbers (0: the newest)");
            return 0;
        }
        if (level == 1) {
            a = a ? a : page.published_rev, b = b ? b : page.published_rev;
            if (a > page.published_rev || b > page.published_rev) {
                srv_route_error(out, 404, 1, "no published revision %d of '%.63s'", a > b ? a : b, slug);
                return 0;
            }
        }
        srv_pf_diff(d, slug, a, b, &r);
        send_result(out, &r);
        return 0;
    }
    if (!post || (action[0] && strcmp(action, "submit") && strcmp(action, "publish") && strcmp(action, "unpublish"))) {
        out->allow = 2;
        srv_route_error(out, post ? 404 : 405, 1, "no %s for %.80s", c->method, c->path);
        return 0;
    }
    char msg[256];
    int refused = srv_session_change_check(s, 0, c->csrf, c->origin, c->host, c->fetch_site, "sign in to change pages",
                                           msg, sizeof msg);
    if (refused) {
        srv_route_error(out, refused, 1, "%s", msg);
        return 0;
    }
    tc_error err;
    int editor = tp_is_editor(d, s->user_id, &err);
    if (editor < 0) {
        srv_route_error(out, 500, 1, "database: %s", err.msg);
        return 0;
    }
    srv_pf_user u = {s->user_id, s->name, editor};
    int base = query_int(c->query, "base");
    if (!action[0] && (base < 0 || !c->query || !strstr(c->query, "base="))) {
        srv_route_error(out, 400, 1, "base: say which revision the text was made from (?base=N; 0 for a new page)");
        return 0;
    }
    if (!action[0]) {
        char *text = malloc(c->len + 1);
        if (!text) {
            srv_route_error(out, 500, 1, "out of memory");
            return 0;
        }
        memcpy(text, c->body ? c->body : "", c->len);
        text[c->len] = '\0';
        srv_pf_save(d, &u, slug, base, text, c->len, now_ms, &r);
        free(text);
    } else if (!strcmp(action, "submit")) {
        srv_pf_submit(d, &u, slug, now_ms, &r);
    } else if (!strcmp(action, "publish")) {
        srv_pf_publish(d, &u, slug, now_ms, &r);
    } else {
        srv_pf_unpublish(d, &u, slug, now_ms, &r);
    }
    int changed = r.status == 200 && (!strcmp(action, "publish") || !strcmp(action, "unpublish"));
    send_result(out, &r);
    return changed;
}
