/* The site's data: the variant pages as loaded and rendered ahead. Its own
 * header so that render.c (which fills and reads these) and site.c (which
 * loads the folder and calls render.c) share the types with one direction
 * of calls between them. */
#ifndef SRV_SITE_DATA_H
#define SRV_SITE_DATA_H

#include "topochess.h"
#include "howto.h"
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
    char author[64];       /* who wrote it: the account, else the front matter's author:, else "" */
    srv_text source;       /* the page's text as read (re-flowed), for "make a variant of this" */
    srv_text frontmatter;  /* the page's front matter, '---' lines included */
    srv_text body_html;    /* its Markdown rendered (raw HTML off) */
    srv_text svg;          /* the start position as a small picture */
    srv_text summary_json; /* VariantSummary */
    srv_text detail_json;  /* VariantDetail */
    srv_text html;         /* the whole /v/<slug> document */
    int order;             /* preset index, or after the presets */
} srv_page;

#define SRV_MAX_ENDINGS 256

typedef struct srv_site {
    char pages_dir[PATH_MAX];
    char static_dir[PATH_MAX]; /* resolved; "" when the folder is missing */
    int npages, nvariants;
    srv_page *pages;           /* variants first (hub order), then errors */
    srv_text hub_html;
    srv_text variants_json;    /* /api/variants */
    srv_text hub_data;         /* the hub's tc-data, for the filtered lists too */
    srv_ending *endings;       /* from <pages_dir>/endings.txt, if there */
    int nendings;
} srv_site;

#endif
