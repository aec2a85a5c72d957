/* The site from the database's published pages (site_live.h). */
#include "site_live.h"

#include "page_store.h"
#include "pages_flow.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct srv_live {
    tp_db *db;
    char pages_dir[PATH_MAX], static_dir[PATH_MAX];
    _Atomic(const srv_site *) site;
    atomic_llong checked_ms;    /* when the version was last read */
    atomic_llong version;       /* the version the site was built at */
    pthread_mutex_t rebuild;    /* one rebuild at a time */
    srv_site **old;             /* replaced sites, freed at stop */
    int nold;
};

/// The published pages, gathered for srv_site_from_texts.
typedef struct {
    char **names, **texts, **authors;
    int n, cap, failed;
} gathered;

static void add(gathered *g, const char *name, const char *text, const char *author)
{
    if (g->failed || g->n >= SRV_MAX_PAGES)
        return;
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 16;
        char **nn = realloc(g->names, (size_t)cap * sizeof *nn), **nt = nn ? realloc(g->texts, (size_t)cap * sizeof *nt) : NULL;
        char **na = nt ? realloc(g->authors, (size_t)cap * sizeof *na) : NULL;
        if (nn)
            g->names = nn;
        if (nt)
            g->texts = nt;
        if (na)
            g->authors = na;
        if (!nn || !nt || !na) {
            g->failed = 1;
            return;
        }
        g->cap = cap;
    }
    char *nm = strdup(name), *t = strdup(text), *a = strdup(author);
    if (!nm || !t || !a) {
        free(nm), free(t), free(a);
        g->failed = 1;
        return;
    }
    g->names[g->n] = nm;
    g->authors[g->n] = a;
    g->texts[g->n++] = t;
}

static void gather(void *ctx, const char *slug, const char *text, const char *author)
{
    char name[TP_SLUG_MAX + 8];
    snprintf(name, sizeof name, "%s.md", slug);
    add(ctx, name, text, author);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The folder's pages whose slug the database does not hold (the database
 * decides about every slug it holds, published or not), the pages that
 * are not variants, and other files of a published slug (their errors
 * shown as with a folder alone). */
static int gather_folder(srv_live *L, gathered *g, tc_error *err)
{
    DIR *dp = opendir(L->pages_dir);
    if (!dp)
        return 0;
    char *names[SRV_MAX_PAGES];
    int n = 0;
    struct dirent *e;
    while (n < SRV_MAX_PAGES && (e = readdir(dp)) != NULL) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] != '.' && l > 3 && l < 256 && !strcmp(e->d_name + l - 3, ".md") && (names[n] = strdup(e->d_name)))
            n++;
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof *names, by_name);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", L->pages_dir, names[i]);
        FILE *f = rc ? NULL : fopen(path, "rb");
        char *text = f ? malloc(SRV_MAX_PAGE_BYTES + 1) : NULL;
        size_t len = text ? fread(text, 1, SRV_MAX_PAGE_BYTES, f) : 0;
        if (f)
            fclose(f);
        if (text) {
            text[len] = '\0';
            tc_variant_def def;
            tc_error why;
            tp_page p;
            int held = 0;
            if (strlen(text) == len && !tc_frontmatter_parse(text, len, &def, &why)) {
                held = tp_page_get(L->db, def.name, &p, err);
                if (held < 0)
                    rc = -1;
            }
            char own[80];
            snprintf(own, sizeof own, "%.70s.md", held > 0 ? def.name : "");
            /* a second file of a published slug: shown as the duplicate it is */
            if (!held || (held > 0 && p.published_rev > 0 && strcmp(own, names[i])))
                add(g, names[i], text, "");
        }
        free(text);
        free(names[i]);
    }
    return rc;
}

static srv_site *build(srv_live *L, int64_t *version, tc_error *err)
{
    *version = tp_pages_version(L->db, err);
    if (*version < 0)
        return NULL;
    gathered g = {0};
    int n = gather_folder(L, &g, err) ? -1 : tp_pages_published(L->db, gather, &g, err);
    srv_site *s = NULL;
    if (n >= 0 && !g.failed)
        s = srv_site_from_texts(L->pages_dir, L->static_dir, g.n, (const char *const *)g.names,
                                (const char *const *)g.texts, (const char *const *)g.authors, err);
    else if (g.failed)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    for (int i = 0; i < g.n; i++)
        free(g.names[i]), free(g.texts[i]), free(g.authors[i]);
    free(g.names), free(g.texts), free(g.authors);
    return s;
}

static int64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

srv_live *srv_live_start(const char *db, const char *pages_dir, const char *static_dir, tc_error *err)
{
    srv_live *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&L->rebuild, NULL);
    snprintf(L->static_dir, sizeof L->static_dir, "%s", static_dir ? static_dir : "");
    snprintf(L->pages_dir, sizeof L->pages_dir, "%s", pages_dir);
    L->db = tp_db_open(db, err);
    int64_t v = 0;
    srv_site *s = NULL;
    if (L->db && srv_pf_seed(L->db, pages_dir, wall_ms(), err) >= 0)
        s = build(L, &v, err);
    if (!s) {
        srv_live_stop(L);
        return NULL;
    }
    atomic_store(&L->site, s);
    atomic_store(&L->version, v);
    atomic_store(&L->checked_ms, wall_ms());
    return L;
}

void srv_live_stop(srv_live *L)
{
    if (!L)
        return;
    for (int i = 0; i < L->nold; i++)
        srv_site_free(L->old[i]);
    free(L->old);
    srv_site_free((srv_site *)atomic_load(&L->site));
    tp_db_close(L->db);
    pthread_mutex_destroy(&L->rebuild);
    free(L);
}

/* Builds and swaps in a new site; the caller holds L->rebuild. */
static int swap_in(srv_live *L, tc_error *err)
{
    int64_t v = 0;
    srv_site *next = build(L, &v, err);
    srv_site **grown = next ? realloc(L->old, (size_t)(L->nold + 1) * sizeof *grown) : NULL;
    if (!grown) {
        if (next)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        srv_site_free(next);
        return -1;
    }
    L->old = grown;
    L->old[L->nold++] = (srv_site *)atomic_load(&L->site);
    atomic_store(&L->site, next);
    atomic_store(&L->version, v);
    return 0;
}

const srv_site *srv_live_site(srv_live *L, int64_t now_ms)
{
    long long last = atomic_load(&L->checked_ms);
    if (now_ms - last >= SRV_LIVE_RECHECK_MS && pthread_mutex_trylock(&L->rebuild) == 0) {
        atomic_store(&L->checked_ms, now_ms);
        tc_error err;
        int64_t v = tp_pages_version(L->db, &err);
        if (v >= 0 && v != atomic_load(&L->version) && swap_in(L, &err))
            fprintf(stderr, "topochess serve: the published pages: %s (the previous site stays)\n", err.msg);
        pthread_mutex_unlock(&L->rebuild);
    }
    return atomic_load(&L->site);
}

void srv_live_touch(void *L) { atomic_store(&((srv_live *)L)->checked_ms, 0); }

int srv_live_reload(srv_live *L, tc_error *err)
{
    pthread_mutex_lock(&L->rebuild);
    int rc = swap_in(L, err);
    pthread_mutex_unlock(&L->rebuild);
    return rc;
}
