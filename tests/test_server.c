/* The server's router and loaders without sockets (server/): decoding,
 * page splitting, the site built from variants/, every route and the bad
 * requests, static files from a scratch folder. Runs under the sanitizers
 * with the rest of the suite. tests/server/run.sh does the same over HTTP. */
#include "harness.h"

#include "buf.h"
#include "respond.h"
#include "route.h"
#include "site.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void decode_cases(void)
{
    th_case("url decoding");
    char out[64];
    CHECK(srv_url_decode("a%20b+c", 7, 1, out) == 5 && !strcmp(out, "a b c"), "query: '%s'", out);
    CHECK(srv_url_decode("a%20b+c", 7, 0, out) == 5 && !strcmp(out, "a b+c"), "path: '%s'", out);
    CHECK(srv_url_decode("%2E%2e", 6, 0, out) == 2 && !strcmp(out, ".."), "dots: '%s'", out);
    const char *bad[] = {"%", "%2", "%zz", "%00", "a%0a", "%0D", "%7f", "x\ty"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(srv_url_decode(bad[i], strlen(bad[i]), 1, out) < 0, "'%s' accepted", bad[i]);

    th_case("UTF-8 repair");
    char *s = srv_utf8_clean("ok\xff", 3);
    CHECK(s && !strcmp(s, "ok\xEF\xBF\xBD"), "stray byte");
    free(s);
    s = srv_utf8_clean("\xC0\xAF\xED\xA0\x80", 5); /* overlong '/', a surrogate */
    CHECK(s && !strcmp(s, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"), "overlong, surrogate");
    free(s);
    s = srv_utf8_clean("Klein \xE2\x99\x9A", 9);
    CHECK(s && !strcmp(s, "Klein \xE2\x99\x9A"), "valid text changed");
    free(s);

    th_case("UTF-8 checked at entry: where it stops being UTF-8 (issue 29, finding 8)");
    CHECK(srv_utf8_invalid("Klein \xE2\x99\x9A", 9) == -1, "valid text refused");
    CHECK(srv_utf8_invalid("ab\xff", 3) == 2, "a stray byte");
    CHECK(srv_utf8_invalid("a\xC3\x28", 3) == 1, "a broken sequence");
    CHECK(srv_utf8_invalid("\xED\xA0\x80", 3) == 0, "a surrogate");
    CHECK(srv_utf8_invalid("a\0b", 3) == 1, "a NUL byte");
    CHECK(srv_utf8_invalid("\xE2\x99", 2) == 0, "a sequence cut at the end");

    th_case("the client behind a trusted proxy (issue 29, finding 4)");
    char who[48];
    static const char *const fwd[][2] = {
        {"203.0.113.5", "203.0.113.5"},           {"1.2.3.4, 203.0.113.5", "203.0.113.5"},
        {"203.0.113.5, 10.0.0.1", "203.0.113.5"}, {"203.0.113.5,10.0.0.1 , 10.0.0.1", "203.0.113.5"},
        {"junk1", "10.0.0.1"},                    {"203.0.113.5, junk", "10.0.0.1"},
        {"", "10.0.0.1"},                         {"203.0.113.5, ", "10.0.0.1"},
        {"203.0.113.5:80", "10.0.0.1"},           {" 2001:DB8::1 ", "2001:db8::1"},
        {"10.0.0.1", "10.0.0.1"}};
    for (size_t i = 0; i < sizeof fwd / sizeof fwd[0]; i++) {
        srv_forwarded_client("10.0.0.1", "10.0.0.1", fwd[i][0], who);
        CHECK(!strcmp(who, fwd[i][1]), "X-Forwarded-For '%s': %s, not %s", fwd[i][0], who, fwd[i][1]);
    }
    srv_forwarded_client("192.0.2.9", "10.0.0.1", "203.0.113.5", who);
    CHECK(!strcmp(who, "192.0.2.9"), "from another peer the header counts for nothing: %s", who);
    srv_forwarded_client("10.0.0.1", NULL, "203.0.113.5", who);
    CHECK(!strcmp(who, "10.0.0.1"), "without a trusted proxy: %s", who);

    th_case("HTML escaping");
    srv_buf b = {0};
    srv_buf_html(&b, "<a href=\"x\">'&'</a>");
    char *h = srv_buf_take(&b, NULL);
    CHECK(h && !strcmp(h, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"), "got %s", h ? h : "NULL");
    free(h);
}

static void split_cases(void)
{
    th_case("front matter and body");
    size_t n = 0;
    const char *block = "\n---\ntitle: x\n---\n# Body\n";
    CHECK(srv_split_page(block, strlen(block), &n) == 0 && n == strlen("\n---\ntitle: x\n---\n"), "block: %zu", n);
    const char *dots = "---\ntitle: x\n...\nbody";
    CHECK(srv_split_page(dots, strlen(dots), &n) == 0 && n == strlen("---\ntitle: x\n...\n"), "dots: %zu", n);
    const char *one = "--- title: \"a --- b\" slug: x --- body text";
    CHECK(srv_split_page(one, strlen(one), &n) == 0 && n == strlen("--- title: \"a --- b\" slug: x ---"),
          "one line: %zu", n);
    const char *one_nl = "--- title: x ---\nbody";
    CHECK(srv_split_page(one_nl, strlen(one_nl), &n) == 0 && n == strlen("--- title: x ---\n"), "one line: %zu", n);
    const char *none[] = {"# no front matter", "---\ntitle: x\n", "--- title: x", ""};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        CHECK(srv_split_page(none[i], strlen(none[i]), &n) < 0, "'%s' split", none[i]);
}

/* Routes a GET (or `method`) and returns the status; the body is kept in
 * *body (owned by the caller) when body is not NULL. */
static int route(const srv_site *s, const char *method, const char *target, char **body, const char **type)
{
    srv_request rq = {method, target, NULL, NULL};
    srv_response r;
    srv_route(s, &rq, &r);
    if (type)
        *type = r.type;
    if (body) {
        *body = malloc(r.len + 1);
        if (*body) {
            memcpy(*body, r.body ? r.body : "", r.len);
            (*body)[r.len] = '\0';
        }
    }
    int status = r.status;
    srv_response_release(&r);
    return status;
}

/* The manual at /docs (server/docs.c), from a scratch folder given as
 * TC_DOCS_DIR, then from the repository's docs/. */
static void docs_cases(const srv_site *s, const char *dir)
{
    th_case("the manual at /docs");
    struct {
        const char *name, *text;
    } files[] = {
        {"alpha.md", "# Alpha `page`\n\nSee [beta](beta.md) and ![a picture](pic.png).\n\n"
                     "| a | b |\n|---|:--:|\n| `x\\|y` | **z** |\n\n<script>alert(1)</script>\n"},
        {"beta.md", "No heading here.\n\n```\n| not | a table |\n|---|---|\n```\n"},
        {"pic.png", "\x89PNG\r\n"},
        {"notes.txt", "not a page"},
    };
    char path[512];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "cannot write %s", path);
        if (f) {
            fputs(files[i].text, f);
            fclose(f);
        }
    }
    setenv("TC_DOCS_DIR", dir, 1);
    struct {
        const char *target;
        int status;
        const char *type, *text, *absent;
    } cases[] = {
        {"/docs", 200, "text/html", "<a href=\"/docs/alpha\">Alpha page</a>", "notes"},
        {"/docs/", 200, "text/html", "<a href=\"/docs/beta\">beta</a>", NULL},
        {"/docs/alpha", 200, "text/html", "<title>Alpha page - topochess manual</title>", "<script>"},
        {"/docs/alpha", 200, "text/html", "<a href=\"beta.md\">beta</a>", NULL},
        {"/docs/alpha", 200, "text/html", "<img src=\"pic.png\"", NULL},
        {"/docs/alpha", 200, "text/html", "<th>a</th><th>b</th>", NULL},
        {"/docs/alpha", 200, "text/html", "<td><code>x|y</code></td><td><strong>z</strong></td>", NULL},
        {"/docs/alpha", 200, "text/html", "href=\"/docs\">docs</a>", NULL},
        {"/docs/alpha.md", 200, "text/html", "<h1>Alpha <code>page</code></h1>", NULL},
        {"/docs/beta", 200, "text/html", "<pre><code>| not | a table |", "<table>"},
        {"/docs/pic.png", 200, "image/png", "PNG", NULL},
        {"/docs/notes.txt", 404, "text/html", NULL, NULL},
        {"/docs/gamma", 404, "text/html", "no page &#39;gamma&#39; in the manual", NULL},
        {"/docs/a/b", 404, "text/html", NULL, NULL},
        {"/docs/.hidden.md", 404, "text/html", NULL, NULL},
        {"/docs/%2e%2e/Makefile", 400, "text/html", NULL, NULL},
        {"/docsalpha", 404, "text/html", NULL, NULL},
        {"/", 200, "text/html", "<a class=\"tc-docs-link\" href=\"/docs\">docs</a>", NULL},
        {"/", 200, "text/html", "<a class=\"tc-rules-link\" href=\"/docs/rules\">rules of play</a>", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *body = NULL;
        const char *type = NULL;
        int st = route(s, "GET", cases[i].target, &body, &type);
        CHECK(st == cases[i].status, "%s: %d, expected %d", cases[i].target, st, cases[i].status);
        CHECK(type && !strncmp(type, cases[i].type, strlen(cases[i].type)), "%s: type %s", cases[i].target,
              type ? type : "none");
        CHECK(!cases[i].text || (body && strstr(body, cases[i].text)), "%s: no '%s'", cases[i].target,
              cases[i].text);
        CHECK(!cases[i].absent || (body && !strstr(body, cases[i].absent)), "%s: has '%s'", cases[i].target,
              cases[i].absent);
        free(body);
    }
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/missing", dir);
    setenv("TC_DOCS_DIR", path, 1);
    char *body = NULL;
    CHECK(route(s, "GET", "/docs", &body, NULL) == 404 && body && strstr(body, "--docs DIR"),
          "a missing docs folder: %s", body ? body : "");
    free(body);

    /* every page of the repository's docs/ is on the index and renders */
    th_case("the manual: every page of docs/");
    setenv("TC_DOCS_DIR", "docs", 1);
    char *index = NULL;
    CHECK(route(s, "GET", "/docs", &index, NULL) == 200, "/docs");
    DIR *d = opendir("docs");
    int pages = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".md"))
            continue;
        pages++;
        char link[300], target[300];
        snprintf(link, sizeof link, "<a href=\"/docs/%.*s\">", (int)(n - 3), e->d_name);
        snprintf(target, sizeof target, "/docs/%.*s", (int)(n - 3), e->d_name);
        CHECK(index && strstr(index, link), "docs/%s is not on /docs", e->d_name);
        CHECK(route(s, "GET", target, NULL, NULL) == 200, "%s", target);
    }
    if (d)
        closedir(d);
    CHECK(pages >= 10, "only %d pages in docs/", pages);
    free(index);
    unsetenv("TC_DOCS_DIR");
}

static void site_cases(const char *static_dir)
{
    th_case("site from variants/");
    tc_error err;
    srv_site *s = srv_site_load("variants", static_dir, &err);
    CHECK(s != NULL, "load: %s", s ? "" : err.msg);
    if (!s)
        return;
    CHECK(s->nvariants == tc_preset_count() && s->npages == s->nvariants, "%d variants, %d pages", s->nvariants,
          s->npages);
    for (int i = 0; i < tc_preset_count(); i++) {
        const char *name = tc_preset(i)->name;
        const srv_page *p = srv_site_find(s, name);
        CHECK(p && p == &s->pages[i], "preset %s missing or out of order", name);
        if (!p)
            continue;
        tc_variant_def again;
        CHECK(tc_frontmatter_parse(p->frontmatter.p, p->frontmatter.len, &again, &err) == 0 &&
                  !memcmp(&again, &p->def, sizeof again),
              "%s: the front matter text does not read back as the page", name);
        CHECK(strstr(p->html.p, "<article class=\"tc-page\">") && strstr(p->html.p, "<div id=\"tc-app\"></div>"),
              "%s: page layout", name);
    }

    th_case("routes");
    struct {
        const char *method, *target;
        int status;
        const char *type, *text;
    } cases[] = {
        {"GET", "/", 200, "text/html", "data-page=\"hub\""},
        {"HEAD", "/", 200, "text/html", "data-page=\"hub\""},
        {"GET", "/v/klein-bottle", 200, "text/html", "<h2>Klein Bottle Chess</h2>"},
        {"GET", "/v/klein-bottle?anything=1", 200, "text/html", "data-page=\"variant\""},
        {"GET", "/play?variant=torus&engine=white&level=20", 200, "text/html", "\"engine\":\"white\",\"level\":20}"},
        {"GET", "/play?variant=mobius&fen=PP3PPP%2F8%2F2pPP3%2F6p1%2F8%2Fpppp1p1p%2Frnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR+w+KQkq+g10+0+4",
         200, "text/html", "KQkq g10 0 4\""},
        {"GET", "/analysis?variant=folding", 200, "text/html", "data-page=\"analysis\""},
        {"GET", "/api/variants", 200, "application/json", "[{\"slug\":\"chess\""},
        {"GET", "/api/variants/folding", 200, "application/json", "\"ranks\":\"fold\""},
        {"GET", "/assets/app.js", 200, "text/javascript", NULL},
        {"GET", "/topochess.wasm", 200, "application/wasm", NULL},
        {"GET", "/v/nope", 404, "text/html", "no variant page"},
        {"GET", "/api/variants/nope", 404, "application/json", "{\"error\":"},
        {"GET", "/api", 404, "application/json", "{\"error\":"},
        {"GET", "/play", 400, "text/html", "missing ?variant"},
        {"GET", "/play?variant=chess&fen=8/8/8/8/8/8/8/8+w+-+-+0+1", 400, "text/html", "bad FEN for chess"},
        {"GET", "/play?variant=chess&level=0", 400, "text/html", "level"},
        {"GET", "/play?variant=chess&engine=both", 400, "text/html", "engine"},
        {"GET", "/v/../etc/passwd", 400, "text/html", "not allowed in paths"},
        {"GET", "/v/%2e%2e%2fetc%2fpasswd", 400, "text/html", NULL},
        {"GET", "/assets/%2E%2E/%2E%2E/Makefile", 400, "text/html", NULL},
        {"GET", "/assets\\..\\Makefile", 400, "text/html", NULL},
        {"GET", "/v/chess%00", 400, "text/html", NULL},
        {"GET", "/.hidden", 404, "text/html", NULL},
        {"GET", "/assets//app.js", 404, "text/html", NULL},
        {"GET", "relative", 400, "text/html", NULL},
        {"GET", "http://localhost:8080/v/torus", 200, "text/html", "data-page=\"variant\""},
        {"GET", "https://localhost/api/variants/torus", 200, "application/json", "\"slug\":\"torus\""},
        {"GET", "http://localhost", 200, "text/html", "data-page=\"hub\""},
        {"GET", "http://localhost/v/../x", 400, "text/html", NULL},
        {"GET", "*", 400, "text/html", NULL},
        {"GET", "", 400, "text/html", NULL},
        {"POST", "/", 405, "text/html", "POST"},
        {"DELETE", "/api/variants", 405, "application/json", "{\"error\":"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *body = NULL;
        const char *type = NULL;
        int st = route(s, cases[i].method, cases[i].target, &body, &type);
        CHECK(st == cases[i].status, "%s %s: %d, expected %d", cases[i].method, cases[i].target, st,
              cases[i].status);
        CHECK(type && !strncmp(type, cases[i].type, strlen(cases[i].type)), "%s: type %s", cases[i].target,
              type ? type : "none");
        CHECK(!cases[i].text || (body && strstr(body, cases[i].text)), "%s: no '%s'", cases[i].target,
              cases[i].text);
        free(body);
    }
    char *big = malloc(SRV_MAX_TARGET + 2);
    if (big) {
        memset(big, 'a', SRV_MAX_TARGET + 1);
        big[0] = '/';
        big[SRV_MAX_TARGET + 1] = '\0';
        CHECK(route(s, "GET", big, NULL, NULL) == 414, "long target");
        free(big);
    }

    char docs_dir[] = "/tmp/tc-server-docs-XXXXXX";
    if (mkdtemp(docs_dir)) {
        docs_cases(s, docs_dir);
        rmdir(docs_dir);
    }

    th_case("random request targets");
    /* any bytes at all: a status from the routes' set, never a crash */
    unsigned long long x = 0x9E3779B97F4A7C15ull;
    const char alphabet[] = "/%.?&=+avp2eE0fF\\:x-_";
    for (int i = 0; i < 3000; i++) {
        char t[64];
        int n = 1 + (int)(x % 60);
        for (int k = 0; k < n; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            t[k] = (x & 3) ? alphabet[x % (sizeof alphabet - 1)] : (char)(x >> 8);
        }
        t[0] = (i & 1) ? '/' : t[0];
        t[n] = '\0';
        int st = route(s, "GET", t, NULL, NULL);
        CHECK(st == 200 || st == 400 || st == 404, "'%s': status %d", t, st);
    }
    srv_site_free(s);
}

static void own_pages_cases(const char *dir)
{
    th_case("own pages: errors listed, raw HTML off");
    char path[512];
    const char *pages[][2] = {
        {"a-raw.md", "---\ntitle: Raw <i>t</i>\nslug: raw\nengine:\n  topology: {type: grid, rows: 8, cols: 8, wrap: "
                     "cylinder}\n  setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n---\n<script>x()</script>\n\n*em* "
                     "<b onclick=\"y()\">b</b>\n"},
        {"b-broken.md", "---\ntitle: [unclosed\n---\n"},
        {"c-bad-utf8.md", "---\ntitle: \"Caf\xc3\xa9\"\nslug: cafe\nengine:\n  topology: {type: grid, rows: 8, cols: 8, wrap: none}\n"
                          "  setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n---\nbody \xff\n"},
        {"raw.md", "---\ntitle: Second\nslug: raw\nengine:\n  topology: {type: grid, rows: 8, cols: 8, wrap: none}\n"
                   "  setup: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n---\n"},
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, pages[i][0]);
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL, "cannot write %s", path);
        if (f) {
            fputs(pages[i][1], f);
            fclose(f);
        }
    }
    tc_error err;
    srv_site *s = srv_site_load(dir, NULL, &err);
    CHECK(s != NULL, "load: %s", s ? "" : err.msg);
    if (!s)
        return;
    CHECK(s->nvariants == 2 && s->npages == 4, "%d variants of %d pages", s->nvariants, s->npages);
    const srv_page *raw = srv_site_find(s, "raw");
    CHECK(raw && !strcmp(raw->file, "raw.md"), "raw.md keeps its slug");
    char *body = NULL;
    CHECK(route(s, "GET", "/", &body, NULL) == 200, "hub");
    CHECK(body && strstr(body, "b-broken.md") && strstr(body, "a-raw.md</span>: <span class=\"tc-entry-message\">slug "
                                                             "&#39;raw&#39; is already used by raw.md"),
          "hub lists the errors");
    free(body);
    CHECK(route(s, "GET", "/v/cafe", &body, NULL) == 200, "page with bad UTF-8");
    CHECK(body && strstr(body, "<title>Caf\xc3\xa9</title>") && strstr(body, "body \xEF\xBF\xBD") && !strstr(body, "\xff"),
          "bad UTF-8 repaired");
    free(body);
    CHECK(route(s, "GET", "/assets/app.js", &body, NULL) == 404, "no static folder");
    free(body);
    srv_site_free(s);
    /* the raw page alone, under its own slug */
    snprintf(path, sizeof path, "%s/raw.md", dir);
    unlink(path);
    s = srv_site_load(dir, NULL, &err);
    CHECK(s && route(s, "GET", "/v/raw", &body, NULL) == 200, "raw page");
    CHECK(body && strstr(body, "<em>em</em>") && !strstr(body, "<script>x()") && !strstr(body, "onclick"),
          "raw HTML left in: %s", body ? body : "");
    CHECK(body && strstr(body, "<title>Raw &lt;i&gt;t&lt;/i&gt;</title>"), "title escaped");
    free(body);
    srv_site_free(s);
}

static void static_cases(const char *dir)
{
    th_case("static files");
    char path[512];
    snprintf(path, sizeof path, "%s/assets", dir);
    mkdir(path, 0700);
    const char *files[] = {"assets/app.js", "assets/app.css", "assets/chunk-AbCdEf12.js", "topochess.wasm", ".hidden"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "wb");
        if (f) {
            fputs("x", f);
            fclose(f);
        }
    }
    snprintf(path, sizeof path, "%s/assets/out.js", dir);
    CHECK(symlink("/etc/passwd", path) == 0, "symlink");
    CHECK(!strcmp(srv_content_type("a/b.wasm"), "application/wasm"), "wasm type");
    CHECK(!strcmp(srv_content_type("a.b/c"), "application/octet-stream"), "no extension");
}

static void static_route_cases(const char *dir)
{
    tc_error err;
    srv_site *s = srv_site_load("variants", dir, &err);
    if (!s)
        return;
    srv_request rq = {"GET", "/assets/chunk-AbCdEf12.js", NULL, NULL};
    srv_response r;
    srv_route(s, &rq, &r);
    CHECK(r.status == 200 && r.fd >= 0 && r.size == 1, "chunk: %d", r.status);
    CHECK(r.cache && !strcmp(r.cache, "public, max-age=31536000, immutable"), "chunk cache: %s", r.cache);
    char etag[64];
    snprintf(etag, sizeof etag, "%s", r.etag);
    srv_response_release(&r);
    rq.if_none_match = etag;
    srv_route(s, &rq, &r);
    CHECK(r.status == 304 && r.fd < 0, "revalidated: %d", r.status);
    srv_response_release(&r);
    rq.target = "/assets/app.js";
    rq.if_none_match = NULL;
    srv_route(s, &rq, &r);
    CHECK(r.status == 200 && r.cache && !strcmp(r.cache, "no-cache"), "app.js: %d %s", r.status, r.cache);
    srv_response_release(&r);
    CHECK(route(s, "GET", "/assets/out.js", NULL, NULL) == 404, "symlink out of the folder");
    CHECK(route(s, "GET", "/.hidden", NULL, NULL) == 404, "hidden file");
    CHECK(route(s, "GET", "/assets", NULL, NULL) == 404, "folder");
    site_cases(dir);
    srv_site_free(s);
}

static void remove_tree(const char *dir)
{
    const char *files[] = {"assets/app.js", "assets/app.css", "assets/chunk-AbCdEf12.js", "assets/out.js",
                           "topochess.wasm", ".hidden", "a-raw.md", "b-broken.md", "c-bad-utf8.md", "raw.md"};
    char path[512];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/assets", dir);
    rmdir(path);
    rmdir(dir);
}

void suite_server(void)
{
    decode_cases();
    split_cases();
    char st[] = "/tmp/tc-server-static-XXXXXX", pg[] = "/tmp/tc-server-pages-XXXXXX";
    int have_st = mkdtemp(st) != NULL, have_pg = mkdtemp(pg) != NULL;
    th_case("scratch folders");
    CHECK(have_st && have_pg, "mkdtemp");
    if (have_st) {
        static_cases(st);
        static_route_cases(st);
        remove_tree(st);
    }
    if (have_pg) {
        own_pages_cases(pg);
        remove_tree(pg);
    }
}
