/* The site the server shows: every variant page of a folder, read once at
 * start and rendered ahead (HTML, JSON, a picture of the start position),
 * then only read, so that any number of threads may serve it. */
#ifndef SRV_SITE_H
#define SRV_SITE_H

#include "topochess.h"
#include "topochess_report.h"

#include <limits.h>
#include <stddef.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define SRV_MAX_PAGES 512
#define SRV_MAX_PAGE_BYTES (1L << 20)

/// A text made once, served many times.
typedef struct srv_text {
    char *p;
    size_t len;
} srv_text;

/// One file of the pages folder: a variant, or the reason it is not one.
typedef struct srv_page {
    char file[256];   /* name in the folder */
    int ok;
    char error[320];  /* when !ok: what is wrong with the page */
    tc_variant_def def;
    tc_variant *variant;
    const char *slug; /* def.name */
    char title[200];  /* def.title, UTF-8 repaired */
    char topology[64];
    char start_fen[800];
    tc_topology_figures fig;
    srv_text frontmatter;  /* the page's front matter, '---' lines included */
    srv_text body_html;    /* its Markdown rendered (raw HTML off) */
    srv_text svg;          /* the start position as a small picture */
    srv_text summary_json; /* VariantSummary */
    srv_text detail_json;  /* VariantDetail */
    srv_text html;         /* the whole /v/<slug> document */
    int order;             /* preset index, or after the presets */
} srv_page;

typedef struct srv_site {
    char pages_dir[PATH_MAX];
    char static_dir[PATH_MAX]; /* resolved; "" when the folder is missing */
    int npages, nvariants;
    srv_page *pages;           /* variants first (hub order), then errors */
    srv_text hub_html;
    srv_text variants_json;    /* /api/variants */
} srv_site;

/* Reads every *.md page of pages_dir. Fails (NULL, err) only when the
 * folder cannot be read or memory runs out; a bad page becomes an entry
 * with ok == 0. static_dir may be missing (pages then load no script). */
srv_site *srv_site_load(const char *pages_dir, const char *static_dir, tc_error *err);
/* The same from pages held in memory (the database's published pages):
 * names[i] (shown where a file name would be) and texts[i], n of them;
 * label stands for the folder. */
srv_site *srv_site_from_texts(const char *label, const char *static_dir, int n, const char *const *names,
                              const char *const *texts, tc_error *err);
void srv_site_free(srv_site *s);
/* The variant page with this slug, or NULL. */
const srv_page *srv_site_find(const srv_site *s, const char *slug);

/* Splits a page into its front matter (text[0..*fm_len), '---' lines
 * included) and Markdown body (the rest). Returns -1 when the page does not
 * begin with a front matter. */
int srv_split_page(const char *text, size_t len, size_t *fm_len);

#endif
