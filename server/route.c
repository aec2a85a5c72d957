/* The routes of docs/web-architecture.md (route.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "route.h"

#include "buf.h"
#include "docs.h"
#include "render.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Scripts and styles come from this origin only; the wasm module needs
 * 'wasm-unsafe-eval'; no inline scripts (tc-data is a JSON data block,
 * which CSP does not treat as a script); inline style attributes are
 * allowed because the board and 3-D view set positions through them. */
const char *const srv_csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
                            "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
                            "font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
                            "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

static const char *const TYPE_HTML = "text/html; charset=utf-8";
static const char *const TYPE_JSON = "application/json; charset=utf-8";

typedef struct {
    char name[33];
    char value[SRV_MAX_VALUE + 1];
} param;

typedef struct {
    int n;
    param p[SRV_MAX_PARAMS];
} params;

static void reset(srv_response *r)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->status = 200;
    r->cache = "no-cache";
}

void srv_route_error(srv_response *r, int status, int api, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int allow = r->allow;
    srv_response_release(r);
    reset(r);
    r->allow = allow;
    r->status = status;
    r->cache = "no-store";
    size_t len = 0;
    if (api) {
        r->owned = srv_json_error(msg, &len);
        r->type = TYPE_JSON;
    } else {
        r->owned = srv_render_error_page(status, msg, &len);
        r->type = TYPE_HTML;
        r->page = 1;
    }
    r->body = r->owned ? r->owned : "";
    r->len = r->owned ? len : 0;
}

static void serve_text(srv_response *r, const srv_text *t, const char *type)
{
    r->status = 200;
    r->type = type;
    r->body = t->p;
    r->len = t->len;
    r->page = type == TYPE_HTML;
}

/* ---------------------------------------------------------------- query */

/* Reads "a=1&b=2" (raw, percent-encoded); -1 with a message on bad input. */
static int parse_query(const char *q, size_t n, params *out, char *msg, size_t msg_n)
{
    out->n = 0;
    size_t i = 0;
    while (i < n) {
        size_t end = i;
        while (end < n && q[end] != '&')
            end++;
        if (end > i) {
            size_t eq = i;
            while (eq < end && q[eq] != '=')
                eq++;
            if (out->n == SRV_MAX_PARAMS) {
                snprintf(msg, msg_n, "more than %d query parameters", SRV_MAX_PARAMS);
                return -1;
            }
            param *p = &out->p[out->n];
            if (eq - i > 32 || (end > eq && end - eq - 1 > 3 * SRV_MAX_VALUE)) {
                snprintf(msg, msg_n, "query parameter too long");
                return -1;
            }
            char tmp[3 * SRV_MAX_VALUE + 1];
            if (srv_url_decode(q + i, eq - i, 1, p->name) < 0) {
                snprintf(msg, msg_n, "malformed query parameter name");
                return -1;
            }
            long vl = eq < end ? srv_url_decode(q + eq + 1, end - eq - 1, 1, tmp) : 0;
            if (eq >= end)
                tmp[0] = '\0';
            if (vl < 0) {
                snprintf(msg, msg_n, "malformed value of query parameter '%.32s'", p->name);
                return -1;
            }
            if (vl > SRV_MAX_VALUE) {
                snprintf(msg, msg_n, "value of query parameter '%.32s' is longer than %d bytes", p->name,
                         SRV_MAX_VALUE);
                return -1;
            }
            memcpy(p->value, tmp, (size_t)vl + 1);
            for (int k = 0; k < out->n; k++)
                if (!strcmp(out->p[k].name, p->name)) {
                    snprintf(msg, msg_n, "query parameter '%.32s' given twice", p->name);
                    return -1;
                }
            out->n++;
        }
        i = end + 1;
    }
    return 0;
}

static const char *get(const params *ps, const char *name)
{
    for (int i = 0; i < ps->n; i++)
        if (!strcmp(ps->p[i].name, name))
            return ps->p[i].value;
    return NULL;
}

/* ---------------------------------------------------------------- pages */

/* No page by that name: the 404 names the closest ones. */
static void not_found(const srv_site *s, const char *name, srv_response *r)
{
    char hint[300];
    srv_site_suggest(s, name, hint, sizeof hint);
    srv_route_error(r, 404, 0, "no variant page '%.64s': %s", name, hint);
}

/* /puzzles?variant=SLUG (docs/puzzles.md): the page's script makes the
 * board's mate puzzles from its solved endings in the browser. */
static void puzzles_page(const srv_site *s, const params *ps, srv_response *r)
{
    const char *slug = get(ps, "variant");
    slug = slug && *slug ? slug : "chess";
    const srv_page *p = srv_site_find(s, slug);
    if (!p) {
        not_found(s, slug, r);
        return;
    }
    srv_buf data = {0};
    srv_buf_str(&data, "{\"variant\":");
    srv_buf_str(&data, p->detail_json.p);
    srv_buf_str(&data, "}");
    char *data_json = srv_buf_take(&data, NULL);
    char title[256];
    snprintf(title, sizeof title, "Puzzles: %s", p->title);
    srv_doc d = {"puzzles", title, "<noscript>The puzzles need JavaScript.</noscript>\n<div id=\"tc-app\"></div>",
                 data_json, p->slug};
    size_t len = 0;
    char *doc = data_json ? srv_render_document(&d, &len) : NULL;
    free(data_json);
    srv_route_page(r, doc, len);
}

static void game_page(const srv_site *s, const params *ps, int play, srv_response *r)
{
    const char *slug = get(ps, "variant"), *fen = get(ps, "fen");
    if (!slug || !*slug) {
        srv_route_error(r, 400, 0, "missing ?variant=SLUG: pick a variant on the hub");
        return;
    }
    const srv_page *p = srv_site_find(s, slug);
    if (!p) {
        not_found(s, slug, r);
        return;
    }
    const char *engine = NULL;
    long level = 10;
    if (play) {
        const char *e = get(ps, "engine"), *l = get(ps, "level");
        if (e && *e && strcmp(e, "none")) {
            if (strcmp(e, "white") && strcmp(e, "black")) {
                srv_route_error(r, 400, 0, "engine must be white, black or none, not '%.32s'", e);
                return;
            }
            engine = e;
        }
        if (l && *l) {
            char *end;
            level = strtol(l, &end, 10);
            if (*end || level < 1 || level > 20 || l[0] == '+' || l[0] == '-' || l[0] == ' ') {
                srv_route_error(r, 400, 0, "level must be a number from 1 to 20, not '%.32s'", l);
                return;
            }
        }
    }
    char norm[800];
    char *fen_error = NULL; /* analysis: a bad FEN opens the editor with the reason */
    if (fen && *fen) {
        tc_position *pos = tc_position_new(p->variant);
        tc_error err;
        if (!pos) {
            srv_route_error(r, 400, 0, "out of memory");
            return;
        }
        int bad = tc_position_set_fen(pos, fen, &err);
        if (!bad)
            tc_position_fen(pos, norm, sizeof norm);
        tc_position_free(pos);
        if (bad && play) {
            srv_route_error(r, 400, 0, "bad FEN for %s: %s", p->slug, err.msg);
            return;
        }
        if (bad) {
            char *given = srv_utf8_clean(fen, strlen(fen)), *why = srv_utf8_clean(err.msg, strlen(err.msg));
            json_t *fe = given && why ? json_pack("{s:s, s:s}", "fen", given, "error", why) : NULL;
            fen_error = fe ? srv_json_text(fe, NULL) : NULL;
            free(given);
            free(why);
            if (!fen_error) {
                srv_route_error(r, 500, 0, "out of memory");
                return;
            }
            snprintf(norm, sizeof norm, "%s", p->start_fen);
        }
    } else {
        snprintf(norm, sizeof norm, "%s", p->start_fen);
    }
    char *fen_json = srv_json_text(json_string(norm), NULL);
    srv_buf data = {0};
    srv_buf_str(&data, "{\"variant\":");
    srv_buf_str(&data, p->detail_json.p);
    srv_buf_str(&data, ",\"fen\":");
    srv_buf_str(&data, fen_json ? fen_json : "null");
    if (fen_error) {
        srv_buf_str(&data, ",\"fen_error\":");
        srv_buf_str(&data, fen_error);
        free(fen_error);
    }
    if (play) {
        srv_buf_str(&data, ",\"engine\":");
        srv_buf_str(&data, engine ? (engine[0] == 'w' ? "\"white\"" : "\"black\"") : "null");
        srv_buf_printf(&data, ",\"level\":%ld", level);
    }
    srv_buf_str(&data, "}");
    free(fen_json);
    char *data_json = srv_buf_take(&data, NULL);
    char title[256];
    snprintf(title, sizeof title, "%s: %s", play ? "Play" : "Analysis", p->title);
    srv_doc d = {play ? "play" : "analysis", title,
                 "<noscript>The board needs JavaScript.</noscript>\n<div id=\"tc-app\"></div>", data_json, p->slug};
    size_t len = 0;
    char *doc = data_json ? srv_render_document(&d, &len) : NULL;
    free(data_json);
    srv_route_page(r, doc, len);
}

void srv_route_page(srv_response *r, char *doc, size_t len)
{
    if (!doc) {
        srv_route_error(r, 500, 0, "out of memory");
        return;
    }
    r->status = 200;
    r->type = TYPE_HTML;
    r->page = 1;
    r->owned = doc;
    r->body = doc;
    r->len = len;
}

/* ---------------------------------------------------------------- static files */

const char *srv_content_type(const char *name)
{
    static const char *const types[][2] = {
        {".html", "text/html; charset=utf-8"},  {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".wasm", "application/wasm"},          {".json", "application/json; charset=utf-8"},
        {".map", "application/json; charset=utf-8"}, {".svg", "image/svg+xml"},
        {".png", "image/png"},                  {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},                {".webp", "image/webp"},
        {".ico", "image/x-icon"},               {".gif", "image/gif"},
        {".woff2", "font/woff2"},               {".woff", "font/woff"},
        {".ttf", "font/ttf"},                   {".txt", "text/plain; charset=utf-8"},
        {".md", "text/markdown; charset=utf-8"}, {".glb", "model/gltf-binary"},
    };
    const char *dot = strrchr(name, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (!strcmp(dot, types[i][0]))
                return types[i][1];
    return "application/octet-stream";
}

/* A bundler's content-hashed name ("three-BcdE12_4.js"): its content never
 * changes, so it may be cached for good. */
static int hashed_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strchr(base, '.');
    if (!dot)
        return 0;
    const char *dash = NULL;
    for (const char *c = base; c < dot; c++)
        if (*c == '-')
            dash = c;
    if (!dash || dot - dash - 1 < 8)
        return 0;
    for (const char *c = dash + 1; c < dot; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
            return 0;
    return 1;
}

/* Accept-Encoding lists the coding (gzip, br) without refusing it ("br;q=0"). */
static int accepts_coding(const char *h, const char *coding)
{
    size_t cl = strlen(coding);
    while (h && *h) {
        size_t n = strcspn(h, ",");
        char item[64];
        if (n < sizeof item) {
            size_t k = 0;
            for (size_t i = 0; i < n; i++)
                if (h[i] != ' ' && h[i] != '\t')
                    item[k++] = h[i];
            item[k] = '\0';
            if (!strncmp(item, coding, cl) && (item[cl] == '\0' || item[cl] == ';')) {
                const char *q = strstr(item, ";q=");
                return !q || strtod(q + 3, NULL) > 0;
            }
        }
        h += n + (h[n] == ',');
    }
    return 0;
}

static int etag_matches(const char *header, const char *etag)
{
    if (!header)
        return 0;
    if (!strcmp(header, "*"))
        return 1;
    size_t n = strlen(etag);
    for (const char *h = strstr(header, etag); h; h = strstr(h + 1, etag)) {
        char after = h[n];
        if (after == '\0' || after == ',' || after == ' ')
            return 1;
    }
    return 0;
}

static void static_file(const srv_site *s, const char *path, const srv_request *rq, srv_response *r)
{
    if (!s->static_dir[0]) {
        srv_route_error(r, 404, 0, "no such page: %.200s (and the static files are not built: run make web)", path);
        return;
    }
    /* plain names only: letters, digits, . _ - and / between them, no
     * hidden or empty parts */
    const char *rel = path + 1;
    int ok = *rel != '\0';
    for (const char *c = rel; *c && ok; c++) {
        int start = c == rel || c[-1] == '/';
        ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
             *c == '-' || (*c == '.' && !start) || (*c == '/' && !start && c[1]);
    }
    char full[2 * PATH_MAX], real[PATH_MAX];
    size_t root = strlen(s->static_dir);
    if (!ok || (size_t)snprintf(full, sizeof full, "%s/%s", s->static_dir, rel) >= sizeof full ||
        !realpath(full, real) || strncmp(real, s->static_dir, root) || real[root] != '/') {
        srv_route_error(r, 404, 0, "no such page: %.200s", path);
        return;
    }
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        srv_route_error(r, 404, 0, "no such page: %.200s", path);
        return;
    }
    /* A compressed copy beside the file (NAME.br, NAME.gz, as `brotli -k`
     * and `gzip -k` write them; make web writes both), no older than the
     * file, for clients that take that coding; brotli first (smaller). */
    r->vary = 1;
    static const char *const codings[][2] = {{"br", ".br"}, {"gzip", ".gz"}};
    for (int c = 0; c < 2 && !r->encoding; c++) {
        char zname[PATH_MAX + 4];
        struct stat zst;
        if (!accepts_coding(rq->accept_encoding, codings[c][0]) ||
            (size_t)snprintf(zname, sizeof zname, "%s%s", real, codings[c][1]) >= sizeof zname)
            continue;
        int zfd = open(zname, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        if (zfd >= 0 && !fstat(zfd, &zst) && S_ISREG(zst.st_mode) && zst.st_mtime >= st.st_mtime) {
            close(fd);
            fd = zfd;
            st = zst;
            r->encoding = codings[c][0];
        } else if (zfd >= 0) {
            close(zfd);
        }
    }
    r->type = srv_content_type(real);
    r->cache = !strncmp(path, "/assets/", 8) && hashed_name(path) ? "public, max-age=31536000, immutable" : "no-cache";
    snprintf(r->etag, sizeof r->etag, "\"%llx-%llx%s\"", (unsigned long long)st.st_size,
             (unsigned long long)st.st_mtim.tv_sec * 1000000000ull + (unsigned long long)st.st_mtim.tv_nsec,
             r->encoding ? (r->encoding[0] == 'b' ? "-br" : "-gz") : "");
    if (etag_matches(rq->if_none_match, r->etag)) {
        close(fd);
        r->status = 304;
        r->body = "";
        r->len = 0;
        return;
    }
    r->fd = fd;
    r->size = (long long)st.st_size;
}

/* ---------------------------------------------------------------- routing */

void srv_response_release(srv_response *r)
{
    free(r->owned);
    r->owned = NULL;
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
}

/* The manual's answer (docs.c) as a response. */
static void docs_answer(srv_docs_answer *a, srv_response *r)
{
    if (a->status != 200) {
        srv_route_error(r, a->status, 0, "%s", a->message);
    } else if (a->page) {
        srv_route_page(r, a->body, a->len);
    } else {
        r->status = 200;
        r->type = srv_content_type(a->name);
        r->cache = "no-cache";
        r->owned = a->body;
        r->body = a->body;
        r->len = a->len;
    }
}

void srv_route(const srv_site *s, const srv_request *rq, srv_response *r)
{
    reset(r);
    const char *t = rq->target ? rq->target : "";
    int api = !strncmp(t, "/api/", 5) || !strcmp(t, "/api");
    if (strcmp(rq->method, "GET") && strcmp(rq->method, "HEAD")) {
        r->allow = 1;
        srv_route_error(r, 405, api, "method %.16s is not allowed here: the hub only reads (GET, HEAD)", rq->method);
        return;
    }
    size_t tl = strlen(t);
    if (tl > SRV_MAX_TARGET) {
        srv_route_error(r, 414, api, "request target longer than %d bytes", SRV_MAX_TARGET);
        return;
    }
    /* absolute form (as proxies send it): the path after the authority */
    if (!strncmp(t, "http://", 7) || !strncmp(t, "https://", 8)) {
        const char *p = strchr(t + (t[4] == 's' ? 8 : 7), '/');
        t = p ? p : "/";
        tl = strlen(t);
        api = !strncmp(t, "/api/", 5) || !strcmp(t, "/api");
    }
    if (t[0] != '/') {
        srv_route_error(r, 400, api, "the request target must be a path starting with '/'");
        return;
    }
    const char *q = strchr(t, '?');
    size_t plen = q ? (size_t)(q - t) : tl;
    char *path = malloc(plen + 1);
    if (!path || srv_url_decode(t, plen, 0, path) < 0) {
        free(path);
        srv_route_error(r, 400, api, "malformed path (bad %%-escape or a control character)");
        return;
    }
    for (const char *seg = path; seg; seg = strchr(seg + 1, '/')) {
        const char *a = seg + 1, *b = strchr(a, '/');
        size_t n = b ? (size_t)(b - a) : strlen(a);
        if ((n == 1 && a[0] == '.') || (n == 2 && a[0] == '.' && a[1] == '.') || memchr(a, '\\', n)) {
            free(path);
            srv_route_error(r, 400, api, "'.', '..' and '\\' are not allowed in paths");
            return;
        }
    }
    params ps;
    char msg[200];
    if (q && parse_query(q + 1, tl - plen - 1, &ps, msg, sizeof msg)) {
        free(path);
        srv_route_error(r, 400, api, "%s", msg);
        return;
    }
    if (!q)
        ps.n = 0;

    srv_docs_answer doc;
    if (!strcmp(path, "/") && (get(&ps, "size") || get(&ps, "topology") || get(&ps, "author"))) {
        /* the filters work without JavaScript: the list is written per request */
        char *main_html =
            srv_render_hub_main(s, get(&ps, "size"), get(&ps, "topology"), get(&ps, "author"), NULL);
        srv_doc d = {"hub", "topochess: variants", main_html ? main_html : "", s->hub_data.p, NULL};
        size_t len = 0;
        r->owned = main_html ? srv_render_document(&d, &len) : NULL;
        free(main_html);
        r->status = r->owned ? 200 : 500;
        r->type = TYPE_HTML;
        r->body = r->owned ? r->owned : "";
        r->len = r->owned ? len : 0;
        r->page = 1;
    } else if (!strcmp(path, "/")) {
        serve_text(r, &s->hub_html, TYPE_HTML);
    } else if (!strncmp(path, "/v/", 3)) {
        const srv_page *p = strchr(path + 3, '/') ? NULL : srv_site_find(s, path + 3);
        if (p)
            serve_text(r, &p->html, TYPE_HTML);
        else
            not_found(s, path + 3, r);
    } else if (!strcmp(path, "/play") || !strcmp(path, "/analysis")) {
        game_page(s, &ps, path[1] == 'p', r);
    } else if (!strcmp(path, "/puzzles")) {
        puzzles_page(s, &ps, r);
    } else if (!strcmp(path, "/api/variants")) {
        serve_text(r, &s->variants_json, TYPE_JSON);
    } else if (!strncmp(path, "/api/variants/", 14)) {
        const srv_page *p = strchr(path + 14, '/') ? NULL : srv_site_find(s, path + 14);
        if (p)
            serve_text(r, &p->detail_json, TYPE_JSON);
        else
            srv_route_error(r, 404, 1, "no variant '%.64s'", path + 14);
    } else if (srv_docs_get(path, &doc)) {
        docs_answer(&doc, r);
    } else if (api) {
        srv_route_error(r, 404, 1, "no such API route: %.200s", path);
    } else {
        static_file(s, path, rq, r);
    }
    free(path);
}
