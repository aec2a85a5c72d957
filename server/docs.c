/* The manual at /docs (docs.h). Limits: page and picture names are plain
 * (letters, digits, '-', '_', one extension), so no request reaches outside
 * the folder; a page is at most SRV_DOC_MAX bytes, a picture at most
 * SRV_DOC_PICTURE_MAX, the index lists at most SRV_DOC_PAGES pages. */
#include "docs.h"

#include "buf.h"
#include "render.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SRV_DOC_MAX (1L << 20)
#define SRV_DOC_PICTURE_MAX (8L << 20)
#define SRV_DOC_PAGES 200

/* The docs folder (see docs.h); 0 when there is none. */
static int docs_dir(char *out, size_t n)
{
    const char *env = getenv("TC_DOCS_DIR");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return access(out, R_OK | X_OK) == 0;
    }
    char exe[PATH_MAX / 2];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return 0;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    /* a clone: ./topochess beside docs/; an install: bin/ beside share/ */
    static const char *const where[] = {"%s/docs", "%s/../share/topochess/docs"};
    for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
        snprintf(out, n, where[i], exe);
        if (access(out, R_OK | X_OK) == 0)
            return 1;
    }
    return 0;
}

/* A plain name: [A-Za-z0-9_-]+, then the extension ext (with its dot). */
static int plain_name(const char *s, size_t n, const char *ext)
{
    size_t e = strlen(ext);
    if (n <= e || strncmp(s + n - e, ext, e))
        return 0;
    for (size_t i = 0; i < n - e; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

/* The whole file (heap, NUL-terminated), or NULL when missing or over max. */
static char *read_file(const char *path, long max, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *p = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && size <= max && fseek(f, 0, SEEK_SET) == 0 &&
        (p = malloc((size_t)size + 1)) && fread(p, 1, (size_t)size, f) == (size_t)size) {
        p[size] = '\0';
        *len = (size_t)size;
    } else {
        free(p);
        p = NULL;
    }
    fclose(f);
    return p;
}

/* The text of the page's first "# " heading, or its name. */
static void page_title(const char *text, const char *name, char *out, size_t n)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (l[0] == '#' && l[1] == ' ') {
            size_t k = strcspn(l + 2, "\r\n"), o = 0;
            for (size_t i = 0; i < k && o + 1 < n; i++)
                if (l[2 + i] != '`')
                    out[o++] = l[2 + i];
            out[o] = '\0';
            return;
        }
    }
    snprintf(out, n, "%s", name);
}

static void not_found(srv_docs_answer *a, const char *fmt, const char *what)
{
    a->status = 404;
    snprintf(a->message, sizeof a->message, fmt, what);
}

/* A 200 document around main_html (taken over); body NULL when memory ran
 * out (the router answers 500). */
static void answer_document(srv_docs_answer *a, const char *title, char *main_html)
{
    a->status = 200;
    a->page = 1;
    a->name = "page.html";
    if (!main_html)
        return;
    /* the manual's own few rules (the pages' stylesheet, web/src/styles, has
     * none for it): wide tables, code and pictures scroll or shrink on a
     * phone instead of widening the page */
    srv_buf m = {0};
    srv_buf_str(&m, "<style>.tc-docs pre,.tc-docs-table{overflow-x:auto}.tc-docs img{max-width:100%;height:auto}"
                    ".tc-docs table{border-collapse:collapse}.tc-docs th,.tc-docs td{border:1px solid #ddd5c6;"
                    "padding:3px 6px;vertical-align:top;text-align:left}</style>\n");
    srv_buf_str(&m, main_html);
    free(main_html);
    char *whole = srv_buf_take(&m, NULL);
    if (!whole)
        return;
    srv_doc d = {.data_page = "docs", .title = title, .main_html = whole};
    a->body = srv_render_document(&d, &a->len);
    free(whole);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* /docs: every *.md of the folder, by name, with its title. */
static void index_page(const char *dir, srv_docs_answer *a)
{
    DIR *d = opendir(dir);
    if (!d) {
        not_found(a, "the manual's folder cannot be read%s", "");
        return;
    }
    char *names[SRV_DOC_PAGES];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < SRV_DOC_PAGES;)
        if (plain_name(e->d_name, strlen(e->d_name), ".md") && (names[n] = strdup(e->d_name)))
            n++;
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-docs\"><h1>The topochess manual</h1>\n<ul class=\"tc-docs-index\">\n");
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 300], title[200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = 0;
        char *text = read_file(path, SRV_DOC_MAX, &len);
        names[i][strlen(names[i]) - 3] = '\0';
        page_title(text ? text : "", names[i], title, sizeof title);
        free(text);
        srv_buf_str(&b, "<li><a href=\"/docs/");
        srv_buf_html(&b, names[i]);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, title);
        srv_buf_str(&b, "</a> <code>docs/");
        srv_buf_html(&b, names[i]);
        srv_buf_str(&b, ".md</code></li>\n");
        free(names[i]);
    }
    srv_buf_str(&b, "</ul></section>");
    answer_document(a, "topochess manual", srv_buf_take(&b, NULL));
}

/* One cell's Markdown as inline HTML (cmark's paragraph taken off). */
static void cell_html(srv_buf *b, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    /* "\|" is a '|' of the cell's text, even in a code span (as GitHub reads it) */
    char *t = malloc(n + 1);
    if (!t)
        return;
    size_t tn = 0;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == '\\' && i + 1 < n && s[i + 1] == '|'))
            t[tn++] = s[i];
    size_t hl = 0;
    char *h = srv_render_markdown(t, tn, &hl);
    free(t);
    if (!h)
        return;
    char *in = h;
    if (!strncmp(in, "<p>", 3))
        in += 3, hl -= 3;
    while (hl && (in[hl - 1] == '\n'))
        hl--;
    if (hl >= 4 && !strncmp(in + hl - 4, "</p>", 4))
        hl -= 4;
    srv_buf_put(b, in, hl);
    free(h);
}

/* A table row "| a | `b|c` | d |" as <tr> cells (a '|' inside a code
 * span or after a backslash belongs to the cell). */
static void table_row(srv_buf *b, const char *l, size_t n, const char *tag)
{
    srv_buf_str(b, "<tr>");
    size_t i = (n && l[0] == '|') ? 1 : 0, start = i;
    int code = 0;
    for (; i <= n; i++) {
        int end = i == n;
        if (!end && l[i] == '`')
            code = !code;
        if (!end && l[i] == '\\' && i + 1 < n) {
            i++;
            continue;
        }
        if (end || (l[i] == '|' && !code)) {
            if (end && i == start)
                break; /* the closing '|' */
            srv_buf_printf(b, "<%s>", tag);
            cell_html(b, l + start, i - start);
            srv_buf_printf(b, "</%s>", tag);
            start = i + 1;
        }
    }
    srv_buf_str(b, "</tr>\n");
}

/* A delimiter row: | --- | :---: | */
static int delimiter_row(const char *l, size_t n)
{
    int dash = 0;
    for (size_t i = 0; i < n; i++) {
        if (l[i] == '-')
            dash = 1;
        else if (l[i] != '|' && l[i] != ':' && l[i] != ' ')
            return 0;
    }
    return dash && n && l[0] == '|';
}

/* Markdown to HTML with the variant pages' renderer (cmark, raw HTML off),
 * plus pipe tables, which CommonMark lacks and the manual uses: a table
 * (a '|' line, a delimiter row, more '|' lines, outside code fences) is
 * written here, its cells rendered by cmark, the text between by cmark. */
static char *render_page(const char *text, size_t len)
{
    srv_buf b = {0};
    size_t from = 0, at = 0;
    int fence = 0;
    while (at < len) {
        const char *l = text + at;
        size_t n = strcspn(l, "\n");
        size_t next = at + n + (at + n < len);
        if (!strncmp(l, "```", 3))
            fence = !fence;
        const char *l2 = text + next;
        size_t n2 = next < len ? strcspn(l2, "\n") : 0;
        if (!fence && n && l[0] == '|' && next < len && delimiter_row(l2, n2)) {
            size_t hl = 0;
            char *h = srv_render_markdown(text + from, at - from, &hl);
            if (h)
                srv_buf_put(&b, h, hl);
            free(h);
            srv_buf_str(&b, "<div class=\"tc-docs-table\"><table>\n<thead>");
            table_row(&b, l, n, "th");
            srv_buf_str(&b, "</thead>\n<tbody>\n");
            at = next + n2 + (next + n2 < len);
            while (at < len && text[at] == '|') {
                size_t rn = strcspn(text + at, "\n");
                table_row(&b, text + at, rn, "td");
                at += rn + (at + rn < len);
            }
            srv_buf_str(&b, "</tbody></table></div>\n");
            from = at;
            continue;
        }
        at = next;
    }
    size_t hl = 0;
    char *h = srv_render_markdown(text + from, len - from, &hl);
    if (h)
        srv_buf_put(&b, h, hl);
    free(h);
    return srv_buf_take(&b, NULL);
}

/* /docs/NAME or /docs/NAME.md: the page rendered. */
static void doc_page(const char *dir, const char *name, size_t n, srv_docs_answer *a)
{
    char path[PATH_MAX + 300], title[200], base[128];
    snprintf(base, sizeof base, "%.*s", (int)n, name);
    snprintf(path, sizeof path, "%s/%s.md", dir, base);
    size_t len = 0;
    char *text = read_file(path, SRV_DOC_MAX, &len);
    if (!text) {
        not_found(a, "no page '%.64s' in the manual (see /docs)", base);
        return;
    }
    page_title(text, base, title, sizeof title);
    char *html = render_page(text, len);
    free(text);
    srv_buf b = {0};
    srv_buf_str(&b, "<article class=\"tc-docs\"><p class=\"tc-docs-up\"><a href=\"/docs\">The manual</a></p>\n");
    if (html)
        srv_buf_str(&b, html);
    free(html);
    srv_buf_str(&b, "</article>");
    char full[240];
    snprintf(full, sizeof full, "%s - topochess manual", title);
    answer_document(a, full, html ? srv_buf_take(&b, NULL) : (srv_buf_free(&b), NULL));
}

static void picture(const char *dir, const char *name, srv_docs_answer *a)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    a->body = read_file(path, SRV_DOC_PICTURE_MAX, &a->len);
    if (!a->body) {
        not_found(a, "no picture '%.64s' in the manual", name);
        return;
    }
    a->status = 200;
    a->name = name;
}

int srv_docs_get(const char *path, srv_docs_answer *a)
{
    if (strncmp(path, "/docs", 5) || (path[5] != '\0' && path[5] != '/'))
        return 0;
    memset(a, 0, sizeof *a);
    char dir[PATH_MAX];
    if (!docs_dir(dir, sizeof dir)) {
        not_found(a, "%sthe manual is not installed (no docs folder; topochess serve --docs DIR)", "");
        return 1;
    }
    const char *name = path[5] ? path + 6 : "";
    size_t n = strlen(name);
    if (n == 0)
        index_page(dir, a);
    else if (plain_name(name, n, ".md"))
        doc_page(dir, name, n - 3, a);
    else if (plain_name(name, n, ".png") || plain_name(name, n, ".jpg") || plain_name(name, n, ".svg") ||
             plain_name(name, n, ".webp"))
        picture(dir, name, a);
    else if (plain_name(name, n, ""))
        doc_page(dir, name, n, a);
    else
        not_found(a, "no page '%.64s' in the manual (see /docs)", name);
    return 1;
}
