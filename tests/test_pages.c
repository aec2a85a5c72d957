/* Variant pages written in the browser: the line diff
 * (games/textdiff.h), the page store (games/page_store.h) and the
 * workflow's rules and refusals (server/pages_flow.h). Runs on a fresh
 * SQLite file, or on the PostgreSQL database named by TG_TEST_DB (make
 * pages-pg-test). Every refusal is checked to change nothing. */
#include "harness.h"
#include "pages_flow.h"
#include "store.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- diff */

/* Applies a diff's kept and added lines: it must give the new text back;
 * its kept and removed lines must give the old one. */
static void rebuild(const tg_diff *d, char want, char *out, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < d->n; i++) {
        if (d->lines[i].op != ' ' && d->lines[i].op != want)
            continue;
        at += (size_t)snprintf(out + at, n - at, "%.*s\n", (int)d->lines[i].len, d->lines[i].text);
        if (at >= n)
            return;
    }
}

static int lcs_len(const char *const *a, int na, const char *const *b, int nb)
{
    int t[16][16] = {{0}};
    for (int i = na - 1; i >= 0; i--)
        for (int j = nb - 1; j >= 0; j--)
            t[i][j] = !strcmp(a[i], b[j]) ? t[i + 1][j + 1] + 1 : t[i + 1][j] > t[i][j + 1] ? t[i + 1][j] : t[i][j + 1];
    return t[0][0];
}

static void test_diff_random(void)
{
    th_case("diff: 500 random pairs of texts over 4 words: old and new rebuilt, kept lines a longest common subsequence");
    const char *words[] = {"a", "b", "c", "d"};
    unsigned s = 12345;
    for (int round = 0; round < 500; round++) {
        const char *A[15], *Bv[15];
        s = s * 1103515245u + 12345u;
        int na = (int)(s >> 16) % 15;
        s = s * 1103515245u + 12345u;
        int nb = (int)(s >> 16) % 15;
        char ta[128] = "", tb[128] = "";
        for (int i = 0; i < na; i++) {
            s = s * 1103515245u + 12345u;
            A[i] = words[(s >> 16) % 4];
            strcat(ta, A[i]), strcat(ta, "\n");
        }
        for (int i = 0; i < nb; i++) {
            s = s * 1103515245u + 12345u;
            Bv[i] = words[(s >> 16) % 4];
            strcat(tb, Bv[i]), strcat(tb, "\n");
        }
        tg_diff d;
        CHECK(tg_diff_compute(ta, strlen(ta), tb, strlen(tb), &d) == 0, "compute");
        char back[256];
        rebuild(&d, '-', back, sizeof back);
        CHECK(!strcmp(back, ta), "round %d: old text not rebuilt", round);
        rebuild(&d, '+', back, sizeof back);
        CHECK(!strcmp(back, tb), "round %d: new text not rebuilt", round);
        for (int i = 1; i < d.n; i++)
            CHECK(!(d.lines[i - 1].op == '+' && d.lines[i].op == '-'), "round %d: an addition before a removal", round);
        int kept = d.n - d.added - d.removed;
        CHECK(kept == lcs_len(A, na, Bv, nb), "round %d: %d kept, LCS %d", round, kept, lcs_len(A, na, Bv, nb));
        tg_diff_free(&d);
    }
}

static void test_diff_html(void)
{
    th_case("diff as HTML: markup in the texts escaped, lines marked, long unchanged stretches cut");
    const char *a = "one\ntwo\n<b>three</b>\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
    const char *b = "one\ntwo\n<i>3</i> & \"x\"\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven";
    tg_diff d;
    CHECK(tg_diff_compute(a, strlen(a), b, strlen(b), &d) == 0, "compute");
    CHECK(d.added == 2 && d.removed == 1, "%d added, %d removed", d.added, d.removed);
    char *h = tg_diff_html(&d, 1, NULL);
    CHECK(h != NULL, "html");
    if (h) {
        CHECK(!strstr(h, "<b>") && !strstr(h, "<i>"), "markup of the texts not escaped: %s", h);
        CHECK(strstr(h, "<span class=\"del\">- &lt;b&gt;three&lt;/b&gt;</span>") != NULL, "removed line: %s", h);
        CHECK(strstr(h, "<span class=\"add\">+ &lt;i&gt;3&lt;/i&gt; &amp; &quot;x&quot;</span>") != NULL,
              "added line: %s", h);
        CHECK(strstr(h, "<span class=\"add\">+ eleven</span>") != NULL, "last line without newline: %s", h);
        CHECK(strstr(h, "@@ 5 lines unchanged @@") != NULL, "five to ten minus context cut: %s", h);
        CHECK(strstr(h, "five") == NULL && strstr(h, "four") != NULL && strstr(h, "ten") != NULL,
              "context of one line each side: %s", h);
    }
    free(h);
    tg_diff_free(&d);
    CHECK(tg_diff_compute("", 0, "", 0, &d) == 0 && d.n == 0, "two empty texts: no lines");
    tg_diff_free(&d);
}

/* ---------------------------------------------------------------- store */

static char db_url[256];

static tp_db *open_db(void)
{
    tc_error e;
    th_test_db("pages", db_url, sizeof db_url);
    tg_store *s = tg_store_open(db_url, &e);
    CHECK(s != NULL, "store: %s", e.msg);
    if (!s)
        return NULL;
    CHECK(tg_store_schema_version(s) >= 5, "schema %d", tg_store_schema_version(s));
    tg_store_close(s);
    tp_db *d = tp_db_open(db_url, &e);
    CHECK(d != NULL, "db: %s", e.msg);
    return d;
}

/* A unique suffix per run (the PostgreSQL database may be reused). */
static char run_tag[16];

static void user(tp_db *d, const char *name, char id[TP_ID_LEN + 1])
{
    tp_user u;
    memset(&u, 0, sizeof u);
    snprintf(u.id, sizeof u.id, "%.12s%s", name, run_tag);
    snprintf(u.name, sizeof u.name, "%.12s%.6s", name, run_tag);
    snprintf(u.pwhash, sizeof u.pwhash, "x");
    char key[TP_NAME_MAX + 1];
    snprintf(key, sizeof key, "%s", u.name);
    for (char *p = key; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    tc_error e;
    CHECK(tp_user_create(d, &u, key, &e) == 0, "user %s: %s", u.name, e.msg);
    snprintf(id, TP_ID_LEN + 1, "%s", u.id);
}

static const char *page_text(const char *slug, int seam, const char *title)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "---\ntitle: \"%s\"\nslug: %s\nengine:\n  topology:\n    type: grid\n    rows: 10\n    cols: 6\n"
             "    wrap: mobius\n    ranks: twist\n    seam: %d\n"
             "  setup: \"PPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR\"\n---\n\n## %s\n\nA strip.\n",
             title, slug, seam, title);
    return buf;
}

static void test_store_rows(void)
{
    th_case("store: pages, revisions, slugs unique without regard to case, stale revision refused, version");
    tp_db *d = open_db();
    if (!d)
        return;
    tc_error e;
    char a[TP_ID_LEN + 1], slug[40], upper[40];
    user(d, "rowan", a);
    snprintf(slug, sizeof slug, "strip-%s", run_tag);
    snprintf(upper, sizeof upper, "STRIP-%s", run_tag);
    int64_t v0 = tp_pages_version(d, &e);
    CHECK(v0 >= 0, "version: %s", e.msg);
    CHECK(tp_page_create(d, slug, a, "rowan", "one\n", TP_PAGE_DRAFT, 1000, &e) == 0, "create: %s", e.msg);
    CHECK(tp_page_create(d, upper, a, "rowan", "other\n", TP_PAGE_DRAFT, 1000, &e) == TP_EUNIQUE,
          "the slug in upper case is the same slug");
    tp_page p;
    CHECK(tp_page_get(d, upper, &p, &e) == 1 && !strcmp(p.slug, slug), "found by any case");
    CHECK(p.head_rev == 1 && p.published_rev == 0 && p.state == TP_PAGE_DRAFT, "new page: draft, revision 1");
    CHECK(tp_page_revise(d, slug, 1, a, "rowan", "one\ntwo\n", 0, 2000, &e) == 0, "revision 2: %s", e.msg);
    CHECK(tp_page_revise(d, slug, 1, a, "rowan", "lost?\n", 0, 2001, &e) == TP_EUNIQUE, "second edit from 1 refused");
    CHECK(tp_page_revise(d, slug, 7, a, "rowan", "future\n", 0, 2002, &e) == TP_EUNIQUE, "a base beyond the head refused");
    CHECK(tp_page_revise(d, slug, 2, a, "rowan", "one\ntwo\nthree\n", 0, 2003, &e) == 0,
          "revision 3 (the refused base 7 left no row behind): %s", e.msg);
    tp_revision r;
    CHECK(tp_revision_get(d, slug, 0, &r, &e) == 1 && r.rev == 3 && !strcmp(r.text, "one\ntwo\nthree\n"),
          "head is revision 3");
    tp_revision_free(&r);
    CHECK(tp_revision_get(d, slug, 2, &r, &e) == 1 && !strcmp(r.text, "one\ntwo\n") && r.at_ms == 2000 &&
              !strcmp(r.author_name, "rowan"),
          "revision 2: its text, time and author");
    tp_revision_free(&r);
    CHECK(tp_revision_get(d, slug, 9, &r, &e) == 0, "no revision 9");
    tp_revision list[8];
    CHECK(tp_revisions_list(d, slug, list, 8, &e) == 3 && list[0].rev == 3 && list[2].rev == 1, "three, newest first");
    CHECK(tp_pages_version(d, &e) == v0, "drafts do not change what is published");
    CHECK(tp_page_set_state(d, slug, TP_PAGE_PUBLISHED, 3, 3000, &e) == 1, "publish");
    CHECK(tp_pages_version(d, &e) == v0 + 1, "publishing raises the version");
    CHECK(tp_revisions_since(d, a, 2000, &e) == 2, "revisions since 2000 (2 and 3; the refused ones wrote none)");
    CHECK(tp_is_editor(d, a, &e) == 0, "not an editor");
    CHECK(tp_editor_grant(d, a, 1, &e) == 0 && tp_editor_grant(d, a, 2, &e) == 0 && tp_is_editor(d, a, &e) == 1,
          "granted (twice is once)");
    CHECK(tp_editor_revoke(d, a, &e) == 0 && tp_is_editor(d, a, &e) == 0, "revoked");
    CHECK(tp_page_set_state(d, slug, TP_PAGE_DRAFT, 0, 4000, &e) == 1 && tp_pages_version(d, &e) == v0 + 2,
          "unpublishing raises the version");
    tp_db_close(d);
}

/* ---------------------------------------------------------------- workflow */

typedef struct {
    char slugs[64][64];
    int n;
} seen;

static void note_slug(void *ctx, const char *slug, const char *text, const char *author)
{
    seen *s = ctx;
    (void)text;
    (void)author;
    if (s->n < 64)
        snprintf(s->slugs[s->n++], 64, "%s", slug);
}

static int published(tp_db *d, const char *slug)
{
    seen s = {.n = 0};
    tc_error e;
    tp_pages_published(d, note_slug, &s, &e);
    for (int i = 0; i < s.n; i++)
        if (!strcmp(s.slugs[i], slug))
            return 1;
    return 0;
}

static void test_workflow(void)
{
    th_case("workflow: draft, submit, publish by an editor; every refusal with its status and a message naming it");
    tp_db *d = open_db();
    if (!d)
        return;
    tc_error e;
    char ida[TP_ID_LEN + 1], idb[TP_ID_LEN + 1], ide[TP_ID_LEN + 1], slug[40];
    user(d, "ann", ida);
    user(d, "bob", idb);
    user(d, "eda", ide);
    snprintf(slug, sizeof slug, "moebius-%s", run_tag);
    srv_pf_user ann = {ida, "ann", 0}, bob = {idb, "bob", 0}, ed = {ide, "eda", 1}, nobody = {NULL, NULL, 0};
    srv_pf_result r;
    char text[1024];
    snprintf(text, sizeof text, "%s", page_text(slug, 9, "Moebius 6x10"));
    int64_t t = (int64_t)time(NULL) * 1000;

    srv_pf_save(d, &nobody, slug, 0, text, strlen(text), t, &r);
    CHECK(r.status == 401 && strstr(r.msg, "sign in"), "not signed in: %d %s", r.status, r.msg);
    srv_pf_save(d, &ann, "mobius", 0, text, strlen(text), t, &r);
    CHECK(r.status == 400 && strstr(r.msg, "reserved"), "a preset's name: %d %s", r.status, r.msg);
    srv_pf_save(d, &ann, "Edit", 0, text, strlen(text), t, &r);
    CHECK(r.status == 400 && strstr(r.msg, "slug"), "upper case: %d %s", r.status, r.msg);
    srv_pf_save(d, &ann, "edit", 0, text, strlen(text), t, &r);
    CHECK(r.status == 400 && strstr(r.msg, "reserved"), "a path word: %d %s", r.status, r.msg);
    srv_pf_save(d, &ann, "mobius-strip", 0, text, strlen(text), t, &r);
    CHECK(r.status == 400 && strstr(r.msg, "reserved"), "an alias of a preset: %d %s", r.status, r.msg);
    char *big = malloc(SRV_PF_MAX_BYTES + 2);
    memset(big, 'x', SRV_PF_MAX_BYTES + 1);
    big[SRV_PF_MAX_BYTES + 1] = '\0';
    srv_pf_save(d, &ann, slug, 0, big, SRV_PF_MAX_BYTES + 1, t, &r);
    CHECK(r.status == 413 && strstr(r.msg, "bytes"), "too big: %d %s", r.status, r.msg);
    free(big);
    tp_page p;
    CHECK(tp_page_get(d, slug, &p, &e) == 0, "no refusal stored anything");

    /* an invalid draft may be saved, never submitted nor published */
    char bad[1024];
    snprintf(bad, sizeof bad, "%s", page_text(slug, 12, "Moebius 6x10"));
    srv_pf_save(d, &ann, slug, 0, bad, strlen(bad), t, &r);
    CHECK(r.status == 200 && r.rev == 1, "invalid draft saved: %d %s", r.status, r.msg);
    srv_pf_save(d, &bob, slug, 0, text, strlen(text), t, &r);
    CHECK(r.status == 409 && strstr(r.msg, "taken"), "slug taken: %d %s", r.status, r.msg);
    srv_pf_submit(d, &ann, slug, t, &r);
    CHECK(r.status == 422 && strstr(r.msg, "seam"), "invalid page submitted: %d %s", r.status, r.msg);
    srv_pf_publish(d, &ed, slug, t, &r);
    CHECK(r.status == 422 && strstr(r.msg, "seam"), "invalid page published: %d %s", r.status, r.msg);
    CHECK(!published(d, slug), "not published");

    srv_pf_save(d, &bob, slug, 1, text, strlen(text), t, &r);
    CHECK(r.status == 403 && strstr(r.msg, "author"), "not the author: %d %s", r.status, r.msg);
    srv_pf_save(d, &ann, slug, 1, text, strlen(text), t + 1, &r);
    CHECK(r.status == 200 && r.rev == 2, "revision 2: %d %s", r.status, r.msg);
    srv_pf_save(d, &ann, slug, 1, bad, strlen(bad), t + 2, &r);
    CHECK(r.status == 409 && strstr(r.msg, "stale") && strstr(r.msg, "revision 2") && r.diff_html &&
              strstr(r.diff_html, "seam: 9"),
          "stale edit refused with the diff: %d %s", r.status, r.msg);
    srv_pf_result_free(&r);
    CHECK(tp_page_get(d, slug, &p, &e) == 1 && p.head_rev == 2, "the stale edit stored nothing");

    srv_pf_submit(d, &bob, slug, t, &r);
    CHECK(r.status == 403, "someone else submits: %d", r.status);
    srv_pf_publish(d, &ann, slug, t, &r);
    CHECK(r.status == 403 && strstr(r.msg, "editors"), "the author publishes: %d %s", r.status, r.msg);
    srv_pf_submit(d, &ann, slug, t, &r);
    CHECK(r.status == 200, "submitted: %d %s", r.status, r.msg);
    srv_pf_submit(d, &ann, slug, t, &r);
    CHECK(r.status == 409 && strstr(r.msg, "review"), "submitted twice: %d %s", r.status, r.msg);
    srv_pf_publish(d, &ed, slug, t, &r);
    CHECK(r.status == 200 && r.rev == 2, "published: %d %s", r.status, r.msg);
    CHECK(published(d, slug), "listed as published");

    /* the editor revises: the page stays published at revision 2 until republished */
    snprintf(text, sizeof text, "%s", page_text(slug, 9, "Moebius 6x10, revised"));
    srv_pf_save(d, &ed, slug, 2, text, strlen(text), t + 3, &r);
    CHECK(r.status == 200 && r.rev == 3, "editor's revision: %d %s", r.status, r.msg);
    CHECK(tp_page_get(d, slug, &p, &e) == 1 && p.state == TP_PAGE_PUBLISHED && p.published_rev == 2,
          "still published at 2");
    srv_pf_diff(d, slug, 2, 3, &r);
    CHECK(r.status == 200 && r.diff_html && strstr(r.diff_html, "<span class=\"add\">+ ## Moebius 6x10, revised"),
          "diff 2 to 3: %d %s", r.status, r.diff_html ? r.diff_html : r.msg);
    srv_pf_result_free(&r);
    srv_pf_diff(d, slug, 2, 40, &r);
    CHECK(r.status == 404, "diff to a missing revision: %d", r.status);
    srv_pf_unpublish(d, &ann, slug, t, &r);
    CHECK(r.status == 403, "the author unpublishes: %d", r.status);
    srv_pf_unpublish(d, &ed, slug, t, &r);
    CHECK(r.status == 200 && !published(d, slug), "unpublished: %d %s", r.status, r.msg);
    tp_db_close(d);
}

static void test_rate_limit(void)
{
    th_case("workflow: at most SRV_PF_SAVES_PER_HOUR revisions an hour by one user (429), editors not limited");
    tp_db *d = open_db();
    if (!d)
        return;
    char id[TP_ID_LEN + 1], slug[40];
    user(d, "cat", id);
    snprintf(slug, sizeof slug, "busy-%s", run_tag);
    srv_pf_user cat = {id, "cat", 0};
    srv_pf_result r;
    int64_t t = (int64_t)time(NULL) * 1000;
    int rev = 0, ok = 0;
    for (int i = 0; i < SRV_PF_SAVES_PER_HOUR; i++) {
        srv_pf_save(d, &cat, slug, rev, "draft\n", 6, t + i, &r);
        ok += r.status == 200;
        rev = r.status == 200 ? r.rev : rev;
    }
    CHECK(ok == SRV_PF_SAVES_PER_HOUR, "%d saves accepted", ok);
    srv_pf_save(d, &cat, slug, rev, "one more\n", 9, t + 100, &r);
    CHECK(r.status == 429 && strstr(r.msg, "hour"), "one more: %d %s", r.status, r.msg);
    srv_pf_save(d, &cat, slug, rev, "an hour later\n", 14, t + 3600 * 1000 + 100, &r);
    CHECK(r.status == 200, "an hour later: %d %s", r.status, r.msg);
    tp_db_close(d);
}

static void test_seed(void)
{
    th_case("seed: the shipped variants/ pages become the published set on first start, once");
    if (getenv("TG_TEST_DB") && *getenv("TG_TEST_DB"))
        return; /* needs a database with no pages yet: SQLite only */
    char dir[] = "/tmp/tc-pages-seed-XXXXXX", url[128];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(url, sizeof url, "%s/seed.db", dir);
    tc_error e;
    tg_store *s = tg_store_open(url, &e);
    CHECK(s != NULL, "store: %s", e.msg);
    tg_store_close(s);
    tp_db *d = tp_db_open(url, &e);
    if (!d)
        return;
    int n = srv_pf_seed(d, "variants", 1000, &e);
    CHECK(n >= 7, "seeded %d: %s", n, e.msg);
    CHECK(published(d, "klein-bottle") && published(d, "mobius") && published(d, "chess"), "the presets' pages");
    CHECK(srv_pf_seed(d, "variants", 2000, &e) == 0, "a second start seeds nothing");
    tp_db_close(d);
    unlink(url);
    rmdir(dir);
}

static void test_check(void)
{
    th_case("check: a valid page passes; the library's message names the field and line; the name must be the slug");
    char msg[300];
    const char *ok = page_text("strip-six", 9, "Six");
    CHECK(srv_pf_check(ok, strlen(ok), "strip-six", msg, sizeof msg) == 0, "valid: %s", msg);
    CHECK(srv_pf_check(ok, strlen(ok), "other", msg, sizeof msg) == -1 && strstr(msg, "slug"), "name: %s", msg);
    const char *bad = "---\nslug: x1\nengine:\n  topology:\n    type: grid\n    rows: 10\n    cols: banana\n    wrap: none\n---\n";
    CHECK(srv_pf_check(bad, strlen(bad), "x1", msg, sizeof msg) == -1 && strstr(msg, "cols") && strstr(msg, "line"),
          "bad cols: %s", msg);
    CHECK(srv_pf_reserved("KLEIN-BOTTLE") && srv_pf_reserved("api") && srv_pf_reserved("new") &&
              !srv_pf_reserved("strip-six"),
          "reserved slugs");
}

void suite_pages(void)
{
    snprintf(run_tag, sizeof run_tag, "%lx%x", (long)time(NULL) % 0xfffff, (unsigned)getpid() % 0xfff);
    test_diff_random();
    test_diff_html();
    test_check();
    test_store_rows();
    test_workflow();
    test_rate_limit();
    test_seed();
}
