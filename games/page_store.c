/* Variant pages' rows (page_store.h): plain statements over people_db. */
#include "page_store.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy(char *dst, size_t n, const char *src) { snprintf(dst, n, "%s", src ? src : ""); }

static void key_of(const char *slug, char key[TP_SLUG_MAX + 1])
{
    size_t i = 0;
    for (; slug[i] && i < TP_SLUG_MAX; i++)
        key[i] = (char)tolower((unsigned char)slug[i]);
    key[i] = '\0';
}

const char *tp_page_state_name(tp_page_state s)
{
    return s == TP_PAGE_PUBLISHED ? "published" : s == TP_PAGE_REVIEW ? "in review" : "draft";
}

static int first_int(void *ctx, int n, const char *const *v)
{
    *(long long *)ctx = n > 0 ? strtoll(v[0], NULL, 10) : 0;
    return 1;
}

static int add_revision(tp_db *d, const char *key, int rev, const char *author_id, const char *author_name,
                        const char *text, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(key), TP_INT(rev), TP_TEXT(author_id), TP_TEXT(author_name), TP_INT(now_ms),
                  TP_TEXT(text)};
    return tp_db_exec(d,
                      "INSERT INTO page_revisions (slug_key, rev, author_id, author_name, at_ms, body) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                      a, 6, NULL, NULL, err);
}

int tp_page_create(tp_db *d, const char *slug, const char *author_id, const char *author_name, const char *text,
                   tp_page_state state, int64_t now_ms, tc_error *err)
{
    char key[TP_SLUG_MAX + 1];
    key_of(slug, key);
    int pub = state == TP_PAGE_PUBLISHED ? 1 : 0;
    tp_arg a[] = {TP_TEXT(key), TP_TEXT(slug), TP_TEXT(author_id), TP_INT(state), TP_INT(pub), TP_INT(now_ms)};
    int rc = tp_db_exec(d,
                        "INSERT INTO pages (slug_key, slug, author_id, state, head_rev, published_rev, created_ms, "
                        "updated_ms) VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?6)",
                        a, 6, NULL, NULL, err);
    if (rc < 0)
        return rc;
    if (add_revision(d, key, 1, author_id, author_name, text, now_ms, err) < 0) {
        tp_arg k[] = {TP_TEXT(key)};
        tc_error ignored;
        tp_db_exec(d, "DELETE FROM pages WHERE slug_key = ?1", k, 1, NULL, NULL, &ignored);
        return -1;
    }
    if (pub) {
        tp_arg none[1] = {TP_INT(0)};
        if (tp_db_exec(d, "UPDATE pages_version SET version = version + 1 WHERE id = 1", none, 0, NULL, NULL, err) < 0)
            return -1;
    }
    return 0;
}

int tp_page_revise(tp_db *d, const char *slug, int base, const char *author_id, const char *author_name,
                   const char *text, int keep_state, int64_t now_ms, tc_error *err)
{
    char key[TP_SLUG_MAX + 1];
    key_of(slug, key);
    if (base < 1)
        return TP_EUNIQUE;
    /* the primary key (slug_key, rev) refuses a second revision base + 1 */
    int rc = add_revision(d, key, base + 1, author_id, author_name, text, now_ms, err);
    if (rc < 0)
        return rc;
    tp_arg a[] = {TP_TEXT(key), TP_INT(base + 1), TP_INT(base), TP_INT(now_ms), TP_INT(keep_state ? 1 : 0)};
    rc = tp_db_exec(d,
                    "UPDATE pages SET head_rev = ?2, updated_ms = ?4, "
                    "state = CASE WHEN ?5 = 1 THEN state ELSE 0 END WHERE slug_key = ?1 AND head_rev = ?3",
                    a, 5, NULL, NULL, err);
    if (rc < 0)
        return -1;
    if (rc == 0) { /* base was not the head (a base from the future): take the row back */
        tp_arg k[] = {TP_TEXT(key), TP_INT(base + 1)};
        if (tp_db_exec(d, "DELETE FROM page_revisions WHERE slug_key = ?1 AND rev = ?2 AND rev > "
                          "(SELECT head_rev FROM pages WHERE slug_key = ?1)",
                       k, 2, NULL, NULL, err) < 0)
            return -1;
        return TP_EUNIQUE;
    }
    return 0;
}

static int page_row(void *ctx, int n, const char *const *v)
{
    tp_page *p = ctx;
    if (n >= 7) {
        copy(p->slug, sizeof p->slug, v[0]);
        copy(p->author_id, sizeof p->author_id, v[1]);
        p->state = (tp_page_state)atoi(v[2]);
        p->head_rev = atoi(v[3]);
        p->published_rev = atoi(v[4]);
        p->created_ms = strtoll(v[5], NULL, 10);
        p->updated_ms = strtoll(v[6], NULL, 10);
    }
    return 1;
}

#define PAGE_COLUMNS "slug, author_id, state, head_rev, published_rev, created_ms, updated_ms"

int tp_page_get(tp_db *d, const char *slug, tp_page *out, tc_error *err)
{
    char key[TP_SLUG_MAX + 1];
    key_of(slug, key);
    memset(out, 0, sizeof *out);
    tp_arg a[] = {TP_TEXT(key)};
    int rc = tp_db_exec(d, "SELECT " PAGE_COLUMNS " FROM pages WHERE slug_key = ?1", a, 1, page_row, out, err);
    return rc < 0 ? -1 : rc > 0;
}

static int revision_row(void *ctx, int n, const char *const *v)
{
    tp_revision *r = ctx;
    if (n >= 5) {
        r->rev = atoi(v[0]);
        copy(r->author_id, sizeof r->author_id, v[1]);
        copy(r->author_name, sizeof r->author_name, v[2]);
        r->at_ms = strtoll(v[3], NULL, 10);
        if (n >= 6)
            r->text = strdup(v[5]);
    }
    return 1;
}

int tp_revision_get(tp_db *d, const char *slug, int rev, tp_revision *out, tc_error *err)
{
    char key[TP_SLUG_MAX + 1];
    key_of(slug, key);
    memset(out, 0, sizeof *out);
    tp_arg a[] = {TP_TEXT(key), TP_INT(rev)};
    int rc = tp_db_exec(d,
                        "SELECT r.rev, r.author_id, r.author_name, r.at_ms, 0, r.body FROM page_revisions r "
                        "JOIN pages p ON p.slug_key = r.slug_key WHERE r.slug_key = ?1 "
                        "AND r.rev = CASE WHEN ?2 = 0 THEN p.head_rev ELSE ?2 END",
                        a, 2, revision_row, out, err);
    if (rc < 0)
        return -1;
    if (rc > 0 && !out->text) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    return rc > 0;
}

void tp_revision_free(tp_revision *r)
{
    free(r->text);
    r->text = NULL;
}

typedef struct {
    void *out;
    int n, max;
} rows;

static int revision_list_row(void *ctx, int n, const char *const *v)
{
    rows *rr = ctx;
    if (rr->n >= rr->max)
        return 1;
    tp_revision *r = (tp_revision *)rr->out + rr->n++;
    memset(r, 0, sizeof *r);
    revision_row(r, n < 5 ? n : 5, v);
    return 0;
}

int tp_revisions_list(tp_db *d, const char *slug, tp_revision *out, int max, tc_error *err)
{
    char key[TP_SLUG_MAX + 1];
    key_of(slug, key);
    rows rr = {out, 0, max};
    tp_arg a[] = {TP_TEXT(key), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT rev, author_id, author_name, at_ms, 0 FROM page_revisions WHERE slug_key = ?1 "
                        "ORDER BY rev DESC LIMIT ?2",
                        a, 2, revision_list_row, &rr, err);
    return rc < 0 ? -1 : rr.n;
}

int tp_page_set_state(tp_db *d, const char *slug, tp_page_state state, int published_rev, int64_t now_ms,
                      tc_error *err)
{
    tp_page before;
    int found = tp_page_get(d, slug, &before, err);
    if (found <= 0)
        return found;
    char key[TP_SLUG_MAX + 1];
    key_of(slug, key);
    tp_arg a[] = {TP_TEXT(key), TP_INT(state), TP_INT(published_rev), TP_INT(now_ms)};
    int rc = tp_db_exec(d, "UPDATE pages SET state = ?2, published_rev = ?3, updated_ms = ?4 WHERE slug_key = ?1", a,
                        4, NULL, NULL, err);
    if (rc < 0)
        return -1;
    if (before.published_rev != published_rev) {
        tp_arg none[1] = {TP_INT(0)};
        if (tp_db_exec(d, "UPDATE pages_version SET version = version + 1 WHERE id = 1", none, 0, NULL, NULL, err) < 0)
            return -1;
    }
    return rc > 0;
}

typedef struct {
    tp_published_fn fn;
    void *ctx;
    int n;
} published_rows;

static int published_row(void *ctx, int n, const char *const *v)
{
    published_rows *pr = ctx;
    if (n >= 3) {
        pr->fn(pr->ctx, v[0], v[1], v[2] ? v[2] : "");
        pr->n++;
    }
    return 0;
}

int tp_pages_published(tp_db *d, tp_published_fn fn, void *ctx, tc_error *err)
{
    published_rows pr = {fn, ctx, 0};
    tp_arg none[1] = {TP_INT(0)};
    int rc = tp_db_exec(d,
                        "SELECT p.slug, r.body, (SELECT a.author_name FROM page_revisions a WHERE a.slug_key = p.slug_key "
                        "AND a.rev = 1) FROM pages p JOIN page_revisions r ON r.slug_key = p.slug_key "
                        "AND r.rev = p.published_rev WHERE p.published_rev > 0 ORDER BY p.slug_key",
                        none, 0, published_row, &pr, err);
    return rc < 0 ? -1 : pr.n;
}

static int page_list_row(void *ctx, int n, const char *const *v)
{
    rows *rr = ctx;
    if (rr->n >= rr->max)
        return 1;
    page_row((tp_page *)rr->out + rr->n++, n, v);
    return 0;
}

int tp_pages_list(tp_db *d, int state, const char *author_id, tp_page *out, int max, tc_error *err)
{
    rows rr = {out, 0, max};
    tp_arg a[] = {TP_INT(state), TP_TEXT(author_id ? author_id : ""), TP_INT(author_id ? 1 : 0), TP_INT(max)};
    int rc = tp_db_exec(d,
                        "SELECT " PAGE_COLUMNS " FROM pages WHERE "
                        "(CASE WHEN ?3 = 1 THEN author_id = ?2 ELSE state = ?1 END) "
                        "ORDER BY updated_ms DESC, slug_key LIMIT ?4",
                        a, 4, page_list_row, &rr, err);
    return rc < 0 ? -1 : rr.n;
}

int tp_pages_count(tp_db *d, tc_error *err)
{
    long long n = 0;
    tp_arg none[1] = {TP_INT(0)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM pages", none, 0, first_int, &n, err);
    return rc < 0 ? -1 : (int)n;
}

int64_t tp_pages_version(tp_db *d, tc_error *err)
{
    long long n = 0;
    tp_arg none[1] = {TP_INT(0)};
    int rc = tp_db_exec(d, "SELECT version FROM pages_version WHERE id = 1", none, 0, first_int, &n, err);
    return rc < 0 ? -1 : (int64_t)n;
}

int tp_editor_grant(tp_db *d, const char *user_id, int64_t now_ms, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id), TP_INT(now_ms)};
    int rc = tp_db_exec(d, "INSERT INTO editors (user_id, granted_ms) VALUES (?1, ?2) ON CONFLICT (user_id) DO NOTHING",
                        a, 2, NULL, NULL, err);
    return rc < 0 ? -1 : 0;
}

int tp_editor_revoke(tp_db *d, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id)};
    return tp_db_exec(d, "DELETE FROM editors WHERE user_id = ?1", a, 1, NULL, NULL, err) < 0 ? -1 : 0;
}

int tp_is_editor(tp_db *d, const char *user_id, tc_error *err)
{
    tp_arg a[] = {TP_TEXT(user_id)};
    int rc = tp_db_exec(d, "SELECT 1 FROM editors WHERE user_id = ?1", a, 1, NULL, NULL, err);
    return rc < 0 ? -1 : rc > 0;
}

int tp_revisions_since(tp_db *d, const char *author_id, int64_t since_ms, tc_error *err)
{
    long long n = 0;
    tp_arg a[] = {TP_TEXT(author_id), TP_INT(since_ms)};
    int rc = tp_db_exec(d, "SELECT COUNT(*) FROM page_revisions WHERE author_id = ?1 AND at_ms >= ?2", a, 2,
                        first_int, &n, err);
    return rc < 0 ? -1 : (int)n;
}
