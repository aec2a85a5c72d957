/* Variant pages' workflow (pages_flow.h). */
#include "pages_flow.h"

#include "buf.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Words of the site's own paths, and names a reader would take for the site's. */
static const char *const reserved_words[] = {
    "new",    "edit",  "api",    "static", "docs",    "play",  "analysis", "lobby", "games",  "game",
    "login",  "logout", "signup", "account", "admin", "v",     "pages",    "page",  "about",  "help",
    "review", "diff",  "search", "editor", "editors", "users", "user",     "settings", "archive", "variants",
};

static int alias_listed(const char *list, const char *slug)
{
    size_t n = strlen(slug);
    for (const char *p = list; *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ',')
            e++;
        size_t l = (size_t)(e - p);
        while (l && p[l - 1] == ' ')
            l--;
        if (l == n && !strncasecmp(p, slug, n))
            return 1;
        p = e;
    }
    return 0;
}

int srv_pf_reserved(const char *slug)
{
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++)
        if (!strcasecmp(reserved_words[i], slug))
            return 1;
    for (int i = 0; i < tc_preset_count(); i++)
        if (!strcasecmp(tc_preset(i)->name, slug) || alias_listed(tc_preset_aliases(i), slug))
            return 1;
    return 0;
}

int srv_pf_slug_ok(const char *slug, char *msg, size_t n)
{
    size_t l = strlen(slug);
    if (l < 2 || l > TP_SLUG_MAX) {
        snprintf(msg, n, "slug: %zu characters; a slug has 2 to %d", l, TP_SLUG_MAX);
        return -1;
    }
    if (!(slug[0] >= 'a' && slug[0] <= 'z')) {
        snprintf(msg, n, "slug: must start with a lower-case letter a-z");
        return -1;
    }
    for (size_t i = 0; i < l; i++) {
        char c = slug[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
            snprintf(msg, n, "slug: character %zu is not one of a-z, 0-9 and '-'", i + 1);
            return -1;
        }
    }
    return 0;
}

int srv_pf_check(const char *text, size_t len, const char *slug, char *msg, size_t n)
{
    tc_variant_def def;
    tc_error err;
    long bad = srv_utf8_invalid(text, len);
    if (bad >= 0) {
        snprintf(msg, n, "the page is not UTF-8 text: byte %ld (0x%02x) begins no valid UTF-8 character", bad + 1,
                 (unsigned)(unsigned char)text[bad]);
        return -1;
    }
    tc_variant *v = tc_frontmatter_variant(text, len, &def, &err);
    if (!v) {
        snprintf(msg, n, "front matter: %s", err.msg);
        return -1;
    }
    tc_variant_free(v);
    if (strcmp(def.name, slug)) {
        snprintf(msg, n, "front matter: name '%.63s' is not the page's slug '%.63s'", def.name, slug);
        return -1;
    }
    return 0;
}

void srv_pf_result_free(srv_pf_result *r)
{
    free(r->diff_html);
    r->diff_html = NULL;
}

static void answer(srv_pf_result *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->status = status;
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
}

static int fault(srv_pf_result *r, const tc_error *err)
{
    answer(r, 500, "database: %s", err->msg);
    return 0;
}

/* The diff of two texts into r (0, or -1 when memory runs out). */
static int diff_into(srv_pf_result *r, const char *a, const char *b)
{
    tg_diff d;
    if (tg_diff_compute(a, strlen(a), b, strlen(b), &d))
        return -1;
    r->diff_html = tg_diff_html(&d, 3, NULL);
    tg_diff_free(&d);
    return r->diff_html ? 0 : -1;
}

/* The page of a slug into p; else answers 404 (or 500) and returns 0. */
static int find_page(tp_db *d, const char *slug, tp_page *p, srv_pf_result *r)
{
    tc_error err;
    int found = tp_page_get(d, slug, p, &err);
    if (found < 0)
        return fault(r, &err);
    if (!found) {
        answer(r, 404, "no page '%.63s'", slug);
        return 0;
    }
    return 1;
}

static int signed_in(const srv_pf_user *u, srv_pf_result *r, const char *what)
{
    if (u && u->id && *u->id)
        return 1;
    answer(r, 401, "sign in to %s", what);
    return 0;
}

static int may_edit(const srv_pf_user *u, const tp_page *p) { return u->editor || !strcmp(u->id, p->author_id); }

/* Before a change of a page's state: a signed-in user, the page (into p),
 * and the right to do it (editors only, else its author or an editor).
 * 1, or 0 with the refusal in r (refused: what only the allowed do). */
static int may_change(tp_db *d, const srv_pf_user *u, const char *slug, int editors_only, const char *what,
                      const char *refused, tp_page *p, srv_pf_result *r)
{
    memset(r, 0, sizeof *r);
    if (!signed_in(u, r, what) || !find_page(d, slug, p, r))
        return 0;
    if (editors_only ? !u->editor : !may_edit(u, p)) {
        answer(r, 403, "%s '%s'", refused, p->slug);
        return 0;
    }
    return 1;
}

static void save_stale(tp_db *d, const char *slug, int base_rev, const tp_page *p, srv_pf_result *r)
{
    tc_error err;
    tp_revision was, now;
    int a = base_rev >= 1 && base_rev <= p->head_rev ? tp_revision_get(d, slug, base_rev, &was, &err) : 0;
    int b = a >= 0 ? tp_revision_get(d, slug, 0, &now, &err) : -1;
    if (a < 0 || b <= 0) {
        if (a > 0)
            tp_revision_free(&was);
        fault(r, &err);
        return;
    }
    answer(r, 409,
           "stale edit: you started from revision %d, but revision %d was saved since by %.20s; nothing was "
           "saved: your text is still in the editor, the diff shows what changed meanwhile",
           base_rev, now.rev, *now.author_name ? now.author_name : "the site");
    r->rev = now.rev;
    if (diff_into(r, a > 0 ? was.text : "", now.text))
        answer(r, 500, "out of memory");
    else
        r->status = 409;
    if (a > 0)
        tp_revision_free(&was);
    tp_revision_free(&now);
}

void srv_pf_save(tp_db *d, const srv_pf_user *u, const char *slug, int base_rev, const char *text, size_t len,
                 int64_t now_ms, srv_pf_result *r)
{
    memset(r, 0, sizeof *r);
    tc_error err;
    if (!signed_in(u, r, "save a page"))
        return;
    if (len > SRV_PF_MAX_BYTES) {
        answer(r, 413, "the page is %zu bytes; a page may have up to %d", len, SRV_PF_MAX_BYTES);
        return;
    }
    if (memchr(text, '\0', len) || strlen(text) != len) {
        answer(r, 400, "the page holds a NUL byte");
        return;
    }
    long bad = srv_utf8_invalid(text, len);
    if (bad >= 0) { /* a draft too: every text kept is UTF-8 (issue 29) */
        answer(r, 400, "the page is not UTF-8 text: byte %ld (0x%02x) begins no valid UTF-8 character", bad + 1,
               (unsigned)(unsigned char)text[bad]);
        return;
    }
    if (!u->editor) {
        int made = tp_revisions_since(d, u->id, now_ms - 3600 * 1000, &err);
        if (made < 0) {
            fault(r, &err);
            return;
        }
        if (made >= SRV_PF_SAVES_PER_HOUR) {
            answer(r, 429, "you saved %d revisions in the last hour, the most there may be; try again later",
                   made);
            return;
        }
    }
    if (base_rev == 0) {
        if (srv_pf_slug_ok(slug, r->msg, sizeof r->msg)) {
            r->status = 400;
            return;
        }
        if (srv_pf_reserved(slug)) {
            answer(r, 400, "slug: '%s' is reserved (a preset's name or a word of the site's paths)", slug);
            return;
        }
        int rc = tp_page_create(d, slug, u->id, u->name ? u->name : "", text, TP_PAGE_DRAFT, now_ms, &err);
        if (rc == TP_EUNIQUE) {
            answer(r, 409, "slug: '%s' is taken by another page", slug);
            return;
        }
        if (rc < 0) {
            fault(r, &err);
            return;
        }
        r->rev = 1;
        answer(r, 200, "saved '%s' as a draft (revision 1)", slug);
        return;
    }
    tp_page p;
    if (!find_page(d, slug, &p, r))
        return;
    if (!may_edit(u, &p)) {
        answer(r, 403, "only the page's author and the editors may change '%s'", p.slug);
        return;
    }
    if (base_rev != p.head_rev) {
        save_stale(d, p.slug, base_rev, &p, r);
        return;
    }
    /* an editor's revision keeps the page where it stands; the author's
     * is a draft again (a published page keeps its published revision) */
    int rc = tp_page_revise(d, p.slug, base_rev, u->id, u->name ? u->name : "", text, u->editor, now_ms, &err);
    if (rc == TP_EUNIQUE) {
        if (tp_page_get(d, p.slug, &p, &err) < 0)
            fault(r, &err);
        else
            save_stale(d, p.slug, base_rev, &p, r);
        return;
    }
    if (rc < 0) {
        fault(r, &err);
        return;
    }
    r->rev = base_rev + 1;
    answer(r, 200, "saved revision %d of '%s'", r->rev, p.slug);
}

/* The newest revision of a page, checked for publishing; else answers. */
static int head_valid(tp_db *d, const tp_page *p, srv_pf_result *r, const char *what)
{
    tc_error err;
    tp_revision head;
    int got = tp_revision_get(d, p->slug, 0, &head, &err);
    if (got <= 0)
        return got < 0 ? fault(r, &err) : (answer(r, 404, "no revision of '%s'", p->slug), 0);
    char why[300];
    int bad = srv_pf_check(head.text, strlen(head.text), p->slug, why, sizeof why);
    tp_revision_free(&head);
    if (bad) {
        answer(r, 422, "revision %d cannot be %s: %s", p->head_rev, what, why);
        return 0;
    }
    return 1;
}

void srv_pf_submit(tp_db *d, const srv_pf_user *u, const char *slug, int64_t now_ms, srv_pf_result *r)
{
    tc_error err;
    tp_page p;
    if (!may_change(d, u, slug, 0, "submit a page", "only the page's author may submit", &p, r))
        return;
    if (p.state != TP_PAGE_DRAFT) {
        answer(r, 409, "'%s' is %s, not a draft", p.slug, tp_page_state_name(p.state));
        return;
    }
    char subj[64];
    snprintf(subj, sizeof subj, "page-submit:%s", u->id);
    int made = u->editor ? 0 : tp_attempt_count(d, subj, now_ms - 3600 * 1000, &err);
    if (made < 0) {
        fault(r, &err);
        return;
    }
    if (made >= SRV_PF_SUBMITS_PER_HOUR) {
        answer(r, 429, "you submitted %d pages in the last hour, the most there may be; try again later", made);
        return;
    }
    if (!head_valid(d, &p, r, "submitted"))
        return;
    if (tp_attempt_add(d, subj, now_ms, &err) < 0 ||
        tp_page_set_state(d, p.slug, TP_PAGE_REVIEW, p.published_rev, now_ms, &err) < 0) {
        fault(r, &err);
        return;
    }
    r->rev = p.head_rev;
    answer(r, 200, "revision %d of '%s' is waiting for an editor", p.head_rev, p.slug);
}

void srv_pf_publish(tp_db *d, const srv_pf_user *u, const char *slug, int64_t now_ms, srv_pf_result *r)
{
    tc_error err;
    tp_page p;
    if (!may_change(d, u, slug, 1, "publish a page", "only editors may publish", &p, r))
        return;
    if (!head_valid(d, &p, r, "published"))
        return;
    if (tp_page_set_state(d, p.slug, TP_PAGE_PUBLISHED, p.head_rev, now_ms, &err) < 0) {
        fault(r, &err);
        return;
    }
    r->rev = p.head_rev;
    answer(r, 200, "published revision %d of '%s'", p.head_rev, p.slug);
}

void srv_pf_unpublish(tp_db *d, const srv_pf_user *u, const char *slug, int64_t now_ms, srv_pf_result *r)
{
    tc_error err;
    tp_page p;
    if (!may_change(d, u, slug, 1, "unpublish a page", "only editors may unpublish", &p, r))
        return;
    if (tp_page_set_state(d, p.slug, TP_PAGE_DRAFT, 0, now_ms, &err) < 0) {
        fault(r, &err);
        return;
    }
    answer(r, 200, "'%s' is no longer published", p.slug);
}

void srv_pf_diff(tp_db *d, const char *slug, int a, int b, srv_pf_result *r)
{
    memset(r, 0, sizeof *r);
    tc_error err;
    tp_revision ra, rb;
    int ga = tp_revision_get(d, slug, a, &ra, &err);
    if (ga <= 0) {
        if (ga < 0)
            fault(r, &err);
        else
            answer(r, 404, "no revision %d of '%.63s'", a, slug);
        return;
    }
    int gb = tp_revision_get(d, slug, b, &rb, &err);
    if (gb <= 0) {
        if (gb < 0)
            fault(r, &err);
        else
            answer(r, 404, "no revision %d of '%.63s'", b, slug);
        tp_revision_free(&ra);
        return;
    }
    if (diff_into(r, ra.text, rb.text))
        answer(r, 500, "out of memory");
    else
        answer(r, 200, "revision %d to %d", ra.rev, rb.rev);
    tp_revision_free(&ra);
    tp_revision_free(&rb);
}

static char *read_small(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(SRV_PF_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, SRV_PF_MAX_BYTES + 1, f) : 0;
    fclose(f);
    if (!buf || n > SRV_PF_MAX_BYTES) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int srv_pf_seed(tp_db *d, const char *dir, int64_t now_ms, tc_error *err)
{
    int have = tp_pages_count(d, err);
    if (have != 0)
        return have < 0 ? -1 : 0;
    DIR *dp = opendir(dir);
    if (!dp)
        return 0; /* no folder: nothing to seed */
    enum { MAX_SEED = 512 };
    char *names[MAX_SEED];
    int n = 0;
    struct dirent *e;
    while (n < MAX_SEED && (e = readdir(dp)) != NULL) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] != '.' && l > 3 && !strcmp(e->d_name + l - 3, ".md") && (names[n] = strdup(e->d_name)))
            n++;
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof *names, by_name);
    /* as the folder's site settles two pages of one slug: the page named
     * <slug>.md first, then the others by name; the first keeps the slug */
    int stored = 0, rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        for (int i = 0; i < n && rc == 0; i++) {
            char path[4096 + 256];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            size_t len = 0;
            char *text = read_small(path, &len);
            tc_variant_def def;
            tc_error why;
            char msg[300], own[80];
            if (text && strlen(text) == len && !tc_frontmatter_parse(text, len, &def, &why) &&
                !srv_pf_check(text, len, def.name, msg, sizeof msg)) {
                snprintf(own, sizeof own, "%s.md", def.name);
                if ((pass == 0) == !strcmp(own, names[i])) {
                    int c = tp_page_create(d, def.name, "", "", text, TP_PAGE_PUBLISHED, now_ms, err);
                    if (c == 0)
                        stored++;
                    else if (c != TP_EUNIQUE)
                        rc = -1;
                }
            }
            free(text);
        }
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    return rc ? -1 : stored;
}
