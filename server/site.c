/* Loading the pages folder and rendering everything ahead (site.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "site.h"

#include "buf.h"
#include "howto.h"
#include "render.h"
#include "topochess_explain.h"
#include "topochess_page.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- splitting */

static size_t line_end(const char *s, size_t len, size_t at)
{
    while (at < len && s[at] != '\n')
        at++;
    return at;
}

static int only_marker(const char *s, size_t n, const char *marker)
{
    if (n < 3 || memcmp(s, marker, 3) != 0)
        return 0;
    for (size_t i = 3; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return 0;
    return 1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int srv_split_page(const char *text, size_t len, size_t *fm_len)
{
    size_t pos = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    for (;;) { /* blank lines before the front matter */
        size_t e = line_end(text, len, pos), i = pos;
        while (i < e && is_blank(text[i]))
            i++;
        if (i < e || e >= len)
            break;
        pos = e + 1;
    }
    if (len - pos < 3 || memcmp(text + pos, "---", 3) != 0)
        return -1;
    size_t e = line_end(text, len, pos);
    if (only_marker(text + pos, e - pos, "---")) {
        /* block form: up to a line holding only --- or ... */
        for (size_t at = e + 1; at < len;) {
            size_t le = line_end(text, len, at);
            if (only_marker(text + at, le - at, "---") || only_marker(text + at, le - at, "...")) {
                *fm_len = le < len ? le + 1 : le;
                return 0;
            }
            at = le + 1;
        }
        return -1;
    }
    /* one-line form: up to the next bare --- word outside quotes */
    char quote = 0;
    for (size_t i = pos + 3; i < len; i++) {
        char c = text[i];
        if (quote) {
            if (c == '\\' && quote == '"')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            if (is_blank(text[i - 1]))
                quote = c;
        } else if (c == '-' && is_blank(text[i - 1]) && len - i >= 3 && !memcmp(text + i, "---", 3) &&
                   (len - i == 3 || is_blank(text[i + 3]))) {
            size_t end = i + 3;
            size_t le = line_end(text, len, end);
            int rest_blank = 1;
            for (size_t k = end; k < le; k++)
                rest_blank &= is_blank(text[k]);
            *fm_len = rest_blank ? (le < len ? le + 1 : le) : end;
            return 0;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- loading */

static int set_text(srv_text *t, char *p, size_t len)
{
    t->p = p;
    t->len = p ? len : 0;
    return p ? 0 : -1;
}

static char *read_file(const char *path, size_t *len, char *why, size_t why_n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(why, why_n, "cannot open: %s", strerror(errno));
        return NULL;
    }
    char *buf = malloc((size_t)SRV_MAX_PAGE_BYTES + 1);
    size_t n = buf ? fread(buf, 1, (size_t)SRV_MAX_PAGE_BYTES + 1, fp) : 0;
    int bad = ferror(fp);
    fclose(fp);
    if (!buf || bad || n > (size_t)SRV_MAX_PAGE_BYTES) {
        snprintf(why, why_n, "%s", !buf ? "out of memory" : bad ? "cannot read" : "larger than 1 MB");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* The front matter text handed to the browser: the page's own, when the
 * library reads it alone as it read the whole page; else the definition
 * written back as a page. */
static char *frontmatter_text(const char *text, size_t fm_len, const tc_variant_def *def,
                              size_t *out_len)
{
    tc_variant_def again;
    tc_error err;
    if (fm_len > 0 && tc_frontmatter_parse(text, fm_len, &again, &err) == 0 && !memcmp(&again, def, sizeof again)) {
        char *clean = srv_utf8_clean(text, fm_len);
        if (clean && strlen(clean) == fm_len) {
            *out_len = fm_len;
            return clean;
        }
        free(clean);
    }
    char *p = NULL;
    size_t n = 0;
    FILE *mem = open_memstream(&p, &n);
    if (!mem)
        return NULL;
    tc_variant_def_write_page(def, mem);
    fclose(mem);
    *out_len = n;
    return p;
}

/* The front matter's top-level `author:` (quotes taken off, cut to fit),
 * or "" when it has none. */
static void frontmatter_author(const char *text, size_t fm_len, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *p = text; p < text + fm_len;) {
        const char *eol = memchr(p, '\n', (size_t)(text + fm_len - p));
        size_t len = eol ? (size_t)(eol - p) : (size_t)(text + fm_len - p);
        if (len > 7 && !strncmp(p, "author:", 7)) {
            const char *v = p + 7, *end = p + len;
            while (v < end && (*v == ' ' || *v == '\t'))
                v++;
            while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
                end--;
            if (end - v >= 2 && (*v == '"' || *v == '\'') && end[-1] == *v)
                v++, end--;
            char *clean = srv_utf8_clean(v, (size_t)(end - v));
            snprintf(out, n, "%s", clean ? clean : "");
            free(clean);
            return;
        }
        p += len + 1;
    }
}

static int preset_order(const char *slug)
{
    for (int i = 0; i < tc_preset_count(); i++)
        if (!strcmp(tc_preset(i)->name, slug))
            return i;
    return tc_preset_count();
}

static int valid_slug(const char *s)
{
    if (!*s || strlen(s) > 63)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static int load_page_text(srv_page *p, const char *text, size_t len);

/* Fills a page from its text; on a problem of the page, ok = 0 and error
 * says what; returns -1 only when memory runs out. A page that lost its
 * line breaks is read with its lines put back (tc_page_reflow). */
static int load_page(srv_page *p, const char *text, size_t len)
{
    tc_error err;
    if (tc_page_is_flat(text, len)) {
        size_t n = 0;
        char *flowed = tc_page_reflow(text, len, &n, &err);
        if (flowed) {
            int rc = load_page_text(p, flowed, n);
            free(flowed);
            return rc;
        }
    }
    return load_page_text(p, text, len);
}

static int load_page_text(srv_page *p, const char *text, size_t len)
{
    tc_error err;
    /* the setup's refusals by the board name its line too */
    p->variant = tc_frontmatter_variant(text, len, &p->def, &err);
    if (!p->variant) {
        snprintf(p->error, sizeof p->error, "%s", err.msg);
        return 0;
    }
    p->slug = p->def.name;
    if (!valid_slug(p->slug)) {
        snprintf(p->error, sizeof p->error, "slug '%.64s' is not usable in a link (letters a-z, digits, '-')",
                 p->slug);
        tc_variant_free(p->variant);
        p->variant = NULL;
        return 0;
    }
    tc_position *pos = tc_position_new(p->variant);
    if (!pos)
        return -1;
    tc_position_fen(pos, p->start_fen, sizeof p->start_fen);
    tc_position_free(pos);
    tc_variant_topology_text(p->variant, p->topology, sizeof p->topology);
    if (tc_topology_figures_compute(p->variant, &p->fig, &err))
        return -1;
    char *title = srv_utf8_clean(p->def.title, strlen(p->def.title));
    if (!title)
        return -1;
    snprintf(p->title, sizeof p->title, "%s", *title ? title : p->slug);
    free(title);
    p->order = preset_order(p->slug);

    size_t fm_len = 0, n = 0;
    if (srv_split_page(text, len, &fm_len))
        fm_len = 0; /* the library read it another way: render no body */
    char *source = srv_utf8_clean(text, len);
    if (set_text(&p->source, source, source ? strlen(source) : 0))
        return -1;
    if (!p->author[0])
        frontmatter_author(text, fm_len, p->author, sizeof p->author);
    char *fm = frontmatter_text(text, fm_len, &p->def, &n);
    if (set_text(&p->frontmatter, fm, n))
        return -1;
    const char *body = fm_len ? text + fm_len : "";
    char *html = srv_render_markdown(body, fm_len ? len - fm_len : 0, &n);
    if (set_text(&p->body_html, html, n))
        return -1;
    int W = p->def.width, H = p->def.height, big = W > H ? W : H;
    int cell = big <= 8 ? 14 : big <= 14 ? 11 : 9;
    char *svg = srv_render_svg(p, cell);
    if (set_text(&p->svg, svg, svg ? strlen(svg) : 0))
        return -1;
    char *js = srv_json_text(srv_json_summary(p), &n);
    if (set_text(&p->summary_json, js, n))
        return -1;
    js = srv_json_text(srv_json_detail(p), &n);
    if (set_text(&p->detail_json, js, n))
        return -1;
    p->ok = 1;
    return 0;
}

static int one_join_changed(const tc_variant_def *a, const tc_variant_def *b)
{
    if (a->width != b->width || a->height != b->height)
        return 0;
    int ranks_differ = a->ranks != b->ranks || (a->ranks == TC_RANKS_TWIST && a->seam != b->seam);
    return (a->files != b->files) + ranks_differ == 1;
}

/* The page's relatives (same size, one join changed) and "make a variant
 * of this" (heap HTML). */
static char *render_relatives(const srv_site *s, const srv_page *p)
{
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-relatives\">\n<h2>Relatives</h2>\n");
    int n = 0;
    for (int i = 0; i < s->npages; i++) {
        const srv_page *q = &s->pages[i];
        if (!q->ok || q == p || !one_join_changed(&p->def, &q->def))
            continue;
        if (!n++)
            srv_buf_str(&b, "<p>Same size, one join changed:</p>\n<ul>\n");
        srv_buf_str(&b, "<li><a href=\"/v/");
        srv_buf_html(&b, q->slug);
        srv_buf_str(&b, "\">");
        srv_buf_html(&b, q->title);
        srv_buf_str(&b, "</a> (");
        srv_buf_html(&b, q->topology);
        srv_buf_str(&b, ")</li>\n");
    }
    if (n)
        srv_buf_str(&b, "</ul>\n");
    else
        srv_buf_str(&b, "<p>No page of this size differs from it by one join yet.</p>\n");
    srv_buf_str(&b, "<p><a class=\"tc-variant-of\" href=\"/new?from=");
    srv_buf_html(&b, p->slug);
    srv_buf_str(&b, "\">Make a variant of this</a></p>\n</section>\n");
    return srv_buf_take(&b, NULL);
}

/* Reads <pages_dir>/endings.txt (lines "8x14|files wrap, ranks wrap|KQK|yes|100.00|11",
 * '#' comments) when it is there; a bad line is skipped. */
static void load_endings(srv_site *s)
{
    char path[PATH_MAX + 16], line[256];
    snprintf(path, sizeof path, "%s/endings.txt", s->pages_dir);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    s->endings = calloc(SRV_MAX_ENDINGS, sizeof *s->endings);
    while (s->endings && s->nendings < SRV_MAX_ENDINGS && fgets(line, sizeof line, fp)) {
        srv_ending *e = &s->endings[s->nendings];
        char possible[8];
        if (line[0] == '#' ||
            sscanf(line, "%15[^|]|%63[^|]|%7[^|]|%7[^|]|%15[^|]|%d", e->size, e->topology, e->ending, possible,
                   e->won, &e->longest) != 6)
            continue;
        e->possible = !strcmp(possible, "yes");
        s->nendings++;
    }
    fclose(fp);
}

/* The /v/<slug> document: the page's text, "How this board works", its
 * relatives among the loaded pages. -1 when memory runs out. */
static int build_page_doc(const srv_site *s, srv_page *p)
{
    char *howto = srv_render_howto(p->variant, p->topology, &p->fig, s->endings, s->nendings);
    char *rel = render_relatives(s, p);
    srv_buf extra = {0};
    srv_buf_str(&extra, howto ? howto : "");
    srv_buf_str(&extra, rel ? rel : "");
    char *extra_html = srv_buf_take(&extra, NULL);
    int failed = !howto || !rel || !extra_html;
    free(howto);
    free(rel);
    char *main_html = failed ? NULL : srv_render_variant_main(p, extra_html);
    free(extra_html);
    if (!main_html)
        return -1;
    srv_buf data = {0};
    srv_buf_str(&data, "{\"variant\":");
    srv_buf_str(&data, p->detail_json.p);
    srv_buf_str(&data, "}");
    char *data_json = srv_buf_take(&data, NULL);
    srv_doc d = {"variant", p->title, main_html, data_json, p->slug};
    size_t n = 0;
    char *doc = data_json ? srv_render_document(&d, &n) : NULL;
    free(main_html);
    free(data_json);
    return set_text(&p->html, doc, n);
}

static void page_free(srv_page *p);

/* Two pages with one slug: the one named <slug>.md keeps it, else the
 * first by name; the other becomes an error entry. */
static void drop_duplicate(srv_page *a, srv_page *b)
{
    char own[80];
    snprintf(own, sizeof own, "%s.md", b->slug);
    srv_page *loser = !strcmp(b->file, own) && strcmp(a->file, own) ? a : b;
    const srv_page *winner = loser == a ? b : a;
    char file[256], msg[320];
    snprintf(file, sizeof file, "%s", loser->file);
    snprintf(msg, sizeof msg, "slug '%.63s' is already used by %.200s", loser->slug, winner->file);
    page_free(loser);
    memset(loser, 0, sizeof *loser);
    snprintf(loser->file, sizeof loser->file, "%s", file);
    snprintf(loser->error, sizeof loser->error, "%s", msg);
}

static void page_free(srv_page *p)
{
    tc_variant_free(p->variant);
    free(p->source.p);
    free(p->frontmatter.p);
    free(p->body_html.p);
    free(p->svg.p);
    free(p->summary_json.p);
    free(p->detail_json.p);
    free(p->html.p);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int hub_order(const void *a, const void *b)
{
    const srv_page *x = a, *y = b;
    if (x->ok != y->ok)
        return y->ok - x->ok;
    if (x->ok && x->order != y->order)
        return x->order - y->order;
    return strcmp(x->file, y->file);
}

static int is_page_name(const char *n)
{
    size_t l = strlen(n);
    return n[0] != '.' && l > 3 && l < 256 && !strcmp(n + l - 3, ".md");
}

/* Every *.md name of the folder, sorted (heap array of heap strings). */
static char **list_pages(const char *dir, int *count, int *too_many, tc_error *err)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err->msg, sizeof err->msg, "pages folder '%.200s': %s", dir, strerror(errno));
        return NULL;
    }
    char **names = calloc(SRV_MAX_PAGES, sizeof *names);
    if (!names) {
        closedir(d);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    int n = 0;
    *too_many = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_page_name(e->d_name))
            continue;
        if (n == SRV_MAX_PAGES) {
            *too_many = 1;
            break;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    *count = n;
    return names;
}

static int build_site_texts(srv_site *s)
{
    json_t *list = json_array(), *hub = json_object(), *hub_list = json_array(), *errors = json_array();
    if (!list || !hub || !hub_list || !errors) {
        json_decref(list), json_decref(hub), json_decref(hub_list), json_decref(errors);
        return -1;
    }
    for (int i = 0; i < s->npages; i++) {
        const srv_page *p = &s->pages[i];
        if (p->ok) {
            json_array_append_new(list, srv_json_summary(p));
            json_array_append_new(hub_list, srv_json_summary(p));
        } else {
            json_t *e = json_object();
            char *file = srv_utf8_clean(p->file, strlen(p->file)), *msg = srv_utf8_clean(p->error, strlen(p->error));
            json_object_set_new(e, "file", json_string(file ? file : "?"));
            json_object_set_new(e, "error", json_string(msg ? msg : "?"));
            free(file);
            free(msg);
            json_array_append_new(errors, e);
        }
    }
    json_object_set_new(hub, "variants", hub_list);
    json_object_set_new(hub, "errors", errors);
    size_t n = 0;
    char *js = srv_json_text(list, &n);
    if (set_text(&s->variants_json, js, n))
        return json_decref(hub), -1;
    char *data = srv_json_text(hub, &n);
    if (set_text(&s->hub_data, data, n))
        return -1;
    char *main_html = srv_render_hub_main(s, NULL, NULL, NULL, NULL);
    srv_doc d = {"hub", "topochess: variants", main_html, data, NULL};
    char *doc = main_html ? srv_render_document(&d, &n) : NULL;
    free(main_html);
    return set_text(&s->hub_html, doc, n);
}

/* Sorts the loaded pages, settles duplicate slugs and renders the lists;
 * frees s and says so in err when memory runs out. */
static srv_site *finish(srv_site *s, int failed, tc_error *err)
{
    for (int i = 0; i < s->npages && !failed; i++)
        for (int j = 0; j < i && s->pages[i].ok; j++)
            if (s->pages[j].ok && !strcmp(s->pages[j].slug, s->pages[i].slug))
                drop_duplicate(&s->pages[j], &s->pages[i]);
    if (!failed) {
        qsort(s->pages, (size_t)s->npages, sizeof *s->pages, hub_order);
        for (int i = 0; i < s->npages; i++) {
            s->pages[i].slug = s->pages[i].def.name; /* the array moved */
            s->nvariants += s->pages[i].ok;
        }
        load_endings(s);
        for (int i = 0; i < s->nvariants && !failed; i++)
            failed = build_page_doc(s, &s->pages[i]);
        failed = failed || build_site_texts(s);
    }
    if (failed) {
        srv_site_free(s);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    return s;
}

static srv_site *new_site(const char *label, const char *static_dir, int n, tc_error *err)
{
    srv_site *s = calloc(1, sizeof *s);
    if (s)
        s->pages = calloc((size_t)n + 1, sizeof *s->pages);
    if (!s || !s->pages) {
        free(s);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    snprintf(s->pages_dir, sizeof s->pages_dir, "%s", label);
    if (!static_dir || !realpath(static_dir, s->static_dir))
        s->static_dir[0] = '\0';
    return s;
}

srv_site *srv_site_from_texts(const char *label, const char *static_dir, int n, const char *const *names,
                              const char *const *texts, const char *const *authors, tc_error *err)
{
    if (n > SRV_MAX_PAGES)
        n = SRV_MAX_PAGES;
    srv_site *s = new_site(label, static_dir, n, err);
    if (!s)
        return NULL;
    int failed = 0;
    for (int i = 0; i < n && !failed; i++) {
        srv_page *p = &s->pages[s->npages++];
        snprintf(p->file, sizeof p->file, "%s", names[i]);
        if (authors && authors[i]) {
            char *clean = srv_utf8_clean(authors[i], strlen(authors[i]));
            snprintf(p->author, sizeof p->author, "%s", clean ? clean : "");
            free(clean);
        }
        size_t len = strlen(texts[i]);
        if (len > (size_t)SRV_MAX_PAGE_BYTES)
            snprintf(p->error, sizeof p->error, "larger than 1 MB");
        else if (load_page(p, texts[i], len))
            failed = 1;
    }
    return finish(s, failed, err);
}

srv_site *srv_site_load(const char *pages_dir, const char *static_dir, tc_error *err)
{
    int n = 0, too_many = 0;
    char **names = list_pages(pages_dir, &n, &too_many, err);
    if (!names)
        return NULL;
    srv_site *s = new_site(pages_dir, static_dir, n, err);
    int failed = 0;
    for (int i = 0; s && i < n && !failed; i++) {
        srv_page *p = &s->pages[s->npages++];
        snprintf(p->file, sizeof p->file, "%s", names[i]);
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", pages_dir, names[i]);
        struct stat st;
        size_t len = 0;
        char *text = NULL;
        if (stat(path, &st) || !S_ISREG(st.st_mode))
            snprintf(p->error, sizeof p->error, "not a regular file");
        else
            text = read_file(path, &len, p->error, sizeof p->error);
        if (text && load_page(p, text, len))
            failed = 1;
        free(text);
    }
    if (s && too_many && !failed) {
        srv_page *p = &s->pages[s->npages++];
        snprintf(p->file, sizeof p->file, "%s", pages_dir);
        snprintf(p->error, sizeof p->error, "more than %d pages: the rest are not shown", SRV_MAX_PAGES);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return s ? finish(s, failed, err) : NULL;
}

void srv_site_free(srv_site *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->npages; i++)
        page_free(&s->pages[i]);
    free(s->pages);
    free(s->hub_html.p);
    free(s->variants_json.p);
    free(s->hub_data.p);
    free(s->endings);
    free(s);
}

static const srv_page *find_slug(const srv_site *s, const char *slug)
{
    for (int i = 0; i < s->nvariants; i++)
        if (!strcmp(s->pages[i].slug, slug))
            return &s->pages[i];
    return NULL;
}

const srv_page *srv_site_find(const srv_site *s, const char *name)
{
    const srv_page *p = find_slug(s, name);
    if (p)
        return p;
    tc_error err;
    int i = tc_preset_lookup(name, &err);
    if (i >= 0 && (p = find_slug(s, tc_preset(i)->name)))
        return p;
    for (i = 0; i < s->nvariants; i++)
        if (!strcasecmp(s->pages[i].title, name))
            return &s->pages[i];
    return NULL;
}

void srv_site_suggest(const srv_site *s, const char *name, char *out, size_t size)
{
    /* candidates: every page's slug and title, and the command line's
     * aliases of the presets served ("klein" is closer to "kleinn" than
     * "klein-bottle"); owner[] is the page of each */
    enum { MAXC = 256, ALIAS = 48 };
    const char *cand[MAXC];
    int owner[MAXC], nc = 0, na = 0;
    char alias[64][ALIAS];
    for (int i = 0; i < s->nvariants && nc + 2 <= MAXC; i++) {
        cand[nc] = s->pages[i].slug;
        owner[nc++] = i;
        cand[nc] = s->pages[i].title;
        owner[nc++] = i;
        for (int k = 0; k < tc_preset_count(); k++) {
            if (strcmp(tc_preset(k)->name, s->pages[i].slug))
                continue;
            for (const char *a = tc_preset_aliases(k); a && *a && na < 64 && nc < MAXC;) {
                size_t len = strcspn(a, ",");
                snprintf(alias[na], ALIAS, "%.*s", (int)(len < ALIAS ? len : ALIAS - 1), a);
                cand[nc] = alias[na++];
                owner[nc++] = i;
                a += len + (a[len] == ',');
            }
        }
    }
    int best = tc_closest_name(name, cand, nc);
    size_t n = 0;
    out[0] = '\0';
    if (best >= 0)
        n = (size_t)snprintf(out, size, "did you mean '%s'? ", s->pages[owner[best]].slug);
    for (int i = 0; i < s->nvariants && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, "%s%s", i ? ", " : "known: ", s->pages[i].slug);
}

char *srv_site_home(const srv_site *s, const char *extra, size_t *len)
{
    char *main_html = srv_render_hub_main(s, NULL, NULL, NULL, extra);
    srv_doc d = {"hub", "topochess: variants", main_html ? main_html : "", s->hub_data.p, NULL};
    char *doc = main_html ? srv_render_document(&d, len) : NULL;
    free(main_html);
    return doc;
}
