/* What the server writes: the JSON of docs/web-architecture.md, the HTML
 * documents around it, and the start-position pictures. */
#ifndef SRV_RENDER_H
#define SRV_RENDER_H

#include "buf.h"
#include "site_data.h"

#include <jansson.h>

/* JSON text of a value, safe inside <script type="application/json">:
 * '<', '>' and '&' are written as \u003c, \u003e, \u0026 (heap, NULL if
 * memory runs out). Takes a reference to v. */
char *srv_json_text(json_t *v, size_t *len);

/* VariantSummary and VariantDetail of a loaded page (new references). */
json_t *srv_json_summary(const srv_page *p);
json_t *srv_json_detail(const srv_page *p);

/* {"error": message} for the API (heap). */
char *srv_json_error(const char *message, size_t *len);

/* The start position drawn as SVG, joins marked (heap). */
char *srv_render_svg(const srv_page *p, int cell_px);
/* A position of a board (a FEN) drawn the same way, from Black's side when
 * flip, with label as its text alternative (heap; NULL for a bad FEN). */
char *srv_render_position_svg(const tc_variant *v, const char *fen, const char *label, int cell_px, int flip);

/* Markdown to HTML with CommonMark, raw HTML and unsafe links dropped. */
char *srv_render_markdown(const char *text, size_t len, size_t *out_len);

/// The parts of one HTML document.
typedef struct srv_doc {
    const char *data_page;  /* body's data-page: hub, variant, play, analysis */
    const char *title;      /* <title>, plain text */
    const char *main_html;  /* inside <main>, already HTML */
    const char *data_json;  /* tc-data (from srv_json_text), or NULL */
    const char *variant;    /* slug for the header's links, or NULL */
} srv_doc;

/* A whole document (heap, NULL if memory runs out). */
char *srv_render_document(const srv_doc *d, size_t *len);

/* The 4xx page: a document with data-page="error" (heap). */
char *srv_render_error_page(int status, const char *message, size_t *len);

/* The hub's list and the variant page's main part. */
/* size ("8x14"), topology (as the list shows it) and author (the page's
 * author: its account, else its front matter's author:) filter the list;
 * NULL or "": any. extra (HTML, or NULL) goes under the links (the
 * lobby's summary). */
char *srv_render_hub_main(const srv_site *s, const char *size, const char *topology, const char *author,
                          const char *extra);
/* extra_html (generated sections) goes between the page's text and the app. */
char *srv_render_variant_main(const srv_page *p, const char *extra_html);

#endif
