/* JSON, HTML and SVG that the server writes (render.h). */
#include "render.h"

#include <cmark.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- JSON */

char *srv_json_text(json_t *v, size_t *len)
{
    if (!v)
        return NULL;
    char *raw = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(v);
    if (!raw)
        return NULL;
    srv_buf b = {0};
    const char *run = raw, *s = raw;
    for (; *s; s++) {
        const char *rep = *s == '<' ? "\\u003c" : *s == '>' ? "\\u003e" : *s == '&' ? "\\u0026" : NULL;
        if (!rep)
            continue;
        srv_buf_put(&b, run, (size_t)(s - run));
        srv_buf_str(&b, rep);
        run = s + 1;
    }
    srv_buf_put(&b, run, (size_t)(s - run));
    free(raw);
    return srv_buf_take(&b, len);
}

static const char *files_name(tc_file_rule f) { return f == TC_FILES_WRAP ? "wrap" : "open"; }

static const char *ranks_name(tc_rank_rule r)
{
    switch (r) {
    case TC_RANKS_WRAP: return "wrap";
    case TC_RANKS_TWIST: return "twist";
    case TC_RANKS_FOLD: return "fold";
    default: return "open";
    }
}

/* A string member from text the loader has already made valid UTF-8. */
static void set_str(json_t *o, const char *key, const char *value)
{
    json_t *s = json_string(value);
    json_object_set_new(o, key, s ? s : json_string("\xEF\xBF\xBD"));
}

json_t *srv_json_summary(const srv_page *p)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    const tc_variant_def *d = &p->def;
    set_str(o, "slug", p->slug);
    set_str(o, "title", p->title);
    json_object_set_new(o, "rows", json_integer(d->height));
    json_object_set_new(o, "cols", json_integer(d->width));
    set_str(o, "files", files_name(d->files));
    set_str(o, "ranks", ranks_name(d->ranks));
    json_object_set_new(o, "seam", d->ranks == TC_RANKS_TWIST ? json_integer(d->seam) : json_null());
    set_str(o, "start_fen", p->start_fen);
    set_str(o, "topology", p->topology);
    char *desc = srv_utf8_clean(d->description, strlen(d->description));
    set_str(o, "description", desc ? desc : "");
    free(desc);
    return o;
}

json_t *srv_json_detail(const srv_page *p)
{
    json_t *o = srv_json_summary(p);
    if (!o)
        return NULL;
    set_str(o, "frontmatter", p->frontmatter.p ? p->frontmatter.p : "");
    const tc_topology_figures *f = &p->fig;
    json_t *r = json_object(), *classes = json_array();
    json_object_set_new(r, "orientable", json_boolean(f->orientable));
    json_object_set_new(r, "euler", json_integer(f->euler));
    json_object_set_new(r, "boundaries", json_integer(f->boundaries));
    set_str(r, "surface", f->surface);
    json_object_set_new(r, "colour_bound", json_boolean(f->colour_bound));
    for (int x = 0; x < p->def.width; x++) {
        if (f->file_class[x] != x)
            continue;
        json_t *cls = json_array();
        for (int y = x; y < p->def.width; y++)
            if (f->file_class[y] == x) {
                char name[2] = {(char)('a' + y), 0};
                json_array_append_new(cls, json_string(name));
            }
        json_array_append_new(classes, cls);
    }
    json_object_set_new(r, "file_classes", classes);
    json_object_set_new(o, "report", r);
    return o;
}

char *srv_json_error(const char *message, size_t *len)
{
    json_t *o = json_object();
    char *clean = srv_utf8_clean(message, strlen(message));
    if (o)
        set_str(o, "error", clean ? clean : "error");
    free(clean);
    return srv_json_text(o, len);
}

/* ---------------------------------------------------------------- SVG */

static const char *glyph(int piece)
{
    /* The solid set for both sides (white ones filled white), each with
     * VS15 so that no font draws the pawn as an emoji. */
    static const char *const solid[7] = {"", "\u265F\uFE0E", "\u265E\uFE0E", "\u265D\uFE0E",
                                         "\u265C\uFE0E", "\u265B\uFE0E", "\u265A\uFE0E"};
    int t = TC_TYPE(piece);
    return t >= 1 && t <= 6 ? solid[t] : "";
}

/* How a step across a cell side glues: 0 as on a flat board, -1 off the
 * board, else 1 a plain join, 2 a mirror (twist), 3 a half-turn (fold). */
static int side_kind(const tc_variant *v, int x, int y, int dx, int dy)
{
    int W = tc_variant_width(v), H = tc_variant_height(v);
    tc_step_result r = tc_step(v, tc_cell(v, x, y), dx, dy);
    int nx = x + dx, ny = y + dy;
    int inside = nx >= 0 && nx < W && ny >= 0 && ny < H;
    if (r.cell < 0)
        return inside ? 1 : -1; /* an inner side that is cut: mark it */
    if (r.sx < 0 && r.sy < 0)
        return 3;
    if (r.sx < 0 || r.sy < 0)
        return 2;
    if (inside && r.cell == tc_cell(v, nx, ny))
        return 0;
    return 1;
}

static void svg_side(srv_buf *b, int kind, int x1, int y1, int x2, int y2)
{
    static const char *const cls[4] = {"", "tc-join", "tc-twist", "tc-fold"};
    static const char *const colour[4] = {"", "#2a6fdb", "#d62728", "#2ca02c"};
    if (kind <= 0)
        return;
    srv_buf_printf(b, "<path class=\"%s\" d=\"M%d %dL%d %d\" stroke=\"%s\" stroke-width=\"2.5\"%s/>", cls[kind], x1,
                   y1, x2, y2, colour[kind], kind == 1 ? " stroke-dasharray=\"3 2\"" : "");
}

/* The board of pos drawn as SVG (heap): flip draws it from Black's side. */
static char *board_svg(const tc_variant *v, const tc_position *pos, const char *label, int c, int flip)
{
    int W = tc_variant_width(v), H = tc_variant_height(v), m = 3;
    srv_buf b = {0};
    srv_buf_printf(&b,
                   "<svg class=\"tc-thumb\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"",
                   W * c + 2 * m, H * c + 2 * m, W * c + 2 * m, H * c + 2 * m);
    srv_buf_html(&b, label);
    srv_buf_printf(&b, "\"><g transform=\"translate(%d %d)\">", m, m);
    /* where cell (x, y) is drawn: rank 1 at the bottom, or at the top flipped */
#define PX(x) ((flip ? W - 1 - (x) : (x)) * c)
#define PY(y) ((flip ? (y) : H - 1 - (y)) * c)
    /* light board, dark cells (a1 dark) on it, then each side's pieces */
    srv_buf_printf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"#f0d9b5\"/><g fill=\"#b58863\">", W * c, H * c);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (!((x + y) & 1))
                srv_buf_printf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", PX(x), PY(y), c, c);
    srv_buf_str(&b, "</g>");
    for (int side = 0; side < 2; side++) {
        srv_buf_printf(&b, "<g font-size=\"%d\" text-anchor=\"middle\" stroke-width=\"0.5\" fill=\"%s\" stroke=\"%s\">",
                       c - c / 8, side ? "#000" : "#fff", side ? "#000" : "#222");
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int piece = tc_piece_at(pos, tc_cell(v, x, y));
                if (piece && TC_COLOUR(piece) == side)
                    srv_buf_printf(&b, "<text x=\"%d\" y=\"%d\">%s</text>", PX(x) + c / 2, PY(y) + c - c / 6,
                                   glyph(piece));
            }
        srv_buf_str(&b, "</g>");
    }
    /* each cell's east and north sides (and the west and south of the
     * first file and rank), drawn where they are seen */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int px = PX(x), py = PY(y), east = flip ? px : px + c, west = flip ? px + c : px;
            int north = flip ? py + c : py, south = flip ? py : py + c;
            svg_side(&b, side_kind(v, x, y, 1, 0), east, py, east, py + c);
            svg_side(&b, side_kind(v, x, y, 0, 1), px, north, px + c, north);
            if (x == 0)
                svg_side(&b, side_kind(v, x, y, -1, 0), west, py, west, py + c);
            if (y == 0)
                svg_side(&b, side_kind(v, x, y, 0, -1), px, south, px + c, south);
        }
#undef PX
#undef PY
    srv_buf_str(&b, "</g></svg>");
    return srv_buf_take(&b, NULL);
}

char *srv_render_svg(const srv_page *p, int c)
{
    tc_position *pos = tc_position_new(p->variant);
    if (!pos)
        return NULL;
    char label[512];
    snprintf(label, sizeof label, "%s: start position, %dx%d, %s", p->title, tc_variant_width(p->variant),
             tc_variant_height(p->variant), p->topology);
    char *svg = board_svg(p->variant, pos, label, c, 0);
    tc_position_free(pos);
    return svg;
}

char *srv_render_position_svg(const tc_variant *v, const char *fen, const char *label, int c, int flip)
{
    tc_position *pos = tc_position_new(v);
    tc_error err;
    if (!pos || tc_position_set_fen(pos, fen, &err)) {
        tc_position_free(pos);
        return NULL;
    }
    char *svg = board_svg(v, pos, label, c, flip);
    tc_position_free(pos);
    return svg;
}

/* ---------------------------------------------------------------- Markdown */

char *srv_render_markdown(const char *text, size_t len, size_t *out_len)
{
    /* CMARK_OPT_DEFAULT is safe since cmark 0.29: raw HTML becomes a
     * comment and javascript:/vbscript:/file:/data: links are dropped;
     * CMARK_OPT_UNSAFE is deliberately not given. */
    char *html = cmark_markdown_to_html(text, len, CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8);
    if (html && out_len)
        *out_len = strlen(html);
    return html;
}

/* ---------------------------------------------------------------- HTML */

char *srv_render_document(const srv_doc *d, size_t *len)
{
    srv_buf b = {0};
    srv_buf_str(&b, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    srv_buf_html(&b, d->title);
    /* an empty icon: the browser asks for no /favicon.ico */
    srv_buf_str(&b, "</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"/assets/app.css\">\n"
                    "<script type=\"module\" src=\"/assets/app.js\"></script>\n</head>\n<body data-page=\"");
    srv_buf_html(&b, d->data_page);
    srv_buf_str(&b, "\">\n<header class=\"tc-header\"><a class=\"tc-home\" href=\"/\">topochess</a>");
    srv_buf_str(&b, "<nav class=\"tc-nav\">");
    if (d->variant) {
        srv_buf_str(&b, "<a href=\"/v/");
        srv_buf_html(&b, d->variant);
        srv_buf_str(&b, "\">rules</a> <a href=\"/play?variant=");
        srv_buf_html(&b, d->variant);
        srv_buf_str(&b, "\">play</a> <a href=\"/analysis?variant=");
        srv_buf_html(&b, d->variant);
        srv_buf_str(&b, "\">analysis</a> <a href=\"/puzzles?variant=");
        srv_buf_html(&b, d->variant);
        srv_buf_str(&b, "\">puzzles</a> ");
    }
    /* the rules of play (docs/rules.md) from every page */
    srv_buf_str(&b, "<a class=\"tc-rules-link\" href=\"/docs/rules\">rules of play</a> "
                    "<a class=\"tc-docs-link\" href=\"/docs\">docs</a></nav>");
    /* the inbox link shows (with its unread count) for a signed-in player:
     * the script reveals it (web/src/app/inbox.ts) */
    srv_buf_str(&b, "<nav class=\"tc-nav tc-site-nav\"><a href=\"/lobby\">lobby</a> <a href=\"/tournaments\">tournaments</a> "
                    "<a href=\"/games\">games</a> "
                    "<a class=\"tc-inbox-link\" href=\"/inbox\" hidden>inbox<span class=\"tc-unread\" hidden></span></a> "
                    "<a href=\"/account\">account</a></nav>");
    srv_buf_str(&b, "</header>\n<main>\n");
    srv_buf_str(&b, d->main_html);
    srv_buf_str(&b, "\n</main>\n");
    if (d->data_json) {
        srv_buf_str(&b, "<script type=\"application/json\" id=\"tc-data\">");
        srv_buf_str(&b, d->data_json);
        srv_buf_str(&b, "</script>\n");
    }
    srv_buf_str(&b, "</body>\n</html>\n");
    return srv_buf_take(&b, len);
}

static const char *status_text(int status)
{
    switch (status) {
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    default: return "Error";
    }
}

char *srv_render_error_page(int status, const char *message, size_t *len)
{
    srv_buf m = {0};
    char title[64];
    snprintf(title, sizeof title, "%d %s", status, status_text(status));
    srv_buf_str(&m, "<section class=\"tc-error\"><h1>");
    srv_buf_html(&m, title);
    srv_buf_str(&m, "</h1>\n<p>");
    char *clean = srv_utf8_clean(message, strlen(message));
    srv_buf_html(&m, clean ? clean : "");
    free(clean);
    srv_buf_str(&m, "</p>\n<p><a href=\"/\">All variants</a></p></section>");
    char *main_html = srv_buf_take(&m, NULL);
    if (!main_html)
        return NULL;
    srv_doc d = {"error", title, main_html, NULL, NULL};
    char *doc = srv_render_document(&d, len);
    free(main_html);
    return doc;
}

/* The filter's choices: every distinct size, topology or author of the pages. */
enum { BY_SIZE, BY_TOPOLOGY, BY_AUTHOR };

static void entry_key(const srv_page *p, int by, char *v, size_t n)
{
    if (by == BY_SIZE)
        snprintf(v, n, "%dx%d", p->def.width, p->def.height);
    else
        snprintf(v, n, "%s", by == BY_TOPOLOGY ? p->topology : p->author);
}

static void hub_select(srv_buf *b, const srv_site *s, const char *name, int by, const char *chosen)
{
    srv_buf_printf(b, "<label>%s <select name=\"%s\"><option value=\"\">any</option>", name, name);
    for (int i = 0; i < s->nvariants; i++) {
        char v[80], w[80];
        entry_key(&s->pages[i], by, v, sizeof v);
        int seen = !v[0]; /* a page without an author offers no choice */
        for (int j = 0; j < i && !seen; j++) {
            entry_key(&s->pages[j], by, w, sizeof w);
            seen = !strcmp(v, w);
        }
        if (seen)
            continue;
        srv_buf_str(b, "<option value=\"");
        srv_buf_html(b, v);
        srv_buf_str(b, chosen && !strcmp(chosen, v) ? "\" selected>" : "\">");
        srv_buf_html(b, v);
        srv_buf_str(b, "</option>");
    }
    srv_buf_str(b, "</select></label> ");
}

static void hub_entry(srv_buf *b, const srv_page *p)
{
    srv_buf_str(b, "<li class=\"tc-entry\" data-slug=\"");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "\"><a class=\"tc-entry-link\" href=\"/v/");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "\">");
    srv_buf_str(b, p->svg.p ? p->svg.p : "");
    srv_buf_str(b, "<span class=\"tc-entry-title\">");
    srv_buf_html(b, p->title);
    srv_buf_printf(b, "</span></a> <span class=\"tc-entry-size\">%dx%d</span> <span class=\"tc-entry-topology\">",
                   p->def.width, p->def.height);
    srv_buf_html(b, p->topology);
    srv_buf_str(b, "</span>");
    if (p->author[0]) {
        srv_buf_str(b, " <span class=\"tc-entry-author\">by ");
        srv_buf_html(b, p->author);
        srv_buf_str(b, "</span>");
    }
    srv_buf_str(b, " <a class=\"tc-entry-play\" href=\"/play?variant=");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "\">play</a> <a class=\"tc-entry-analysis\" href=\"/analysis?variant=");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "\">analysis</a>");
    if (p->def.description[0]) {
        char *desc = srv_utf8_clean(p->def.description, strlen(p->def.description));
        srv_buf_str(b, "<p class=\"tc-entry-description\">");
        srv_buf_html(b, desc ? desc : "");
        srv_buf_str(b, "</p>");
        free(desc);
    }
    srv_buf_str(b, "</li>\n");
}

char *srv_render_hub_main(const srv_site *s, const char *size, const char *topology, const char *author,
                          const char *extra)
{
    srv_buf b = {0};
    if (size && !*size)
        size = NULL;
    if (topology && !*topology)
        topology = NULL;
    if (author && !*author)
        author = NULL;
    srv_buf_str(&b, "<h1>Chess on topological boards</h1>\n<p class=\"tc-intro\">Chess on boards whose edges "
                    "are glued together: the cylinder, the torus, the Moebius strip, the Klein bottle and the "
                    "folded board. Every variant below is a page that says how its board is joined; the hub plays "
                    "it against the engine or against people, with every join, twist and fold taken into "
                    "account, and explains on each page what the joins do.</p>\n");
    srv_buf_str(&b, "<p class=\"tc-links\"><a href=\"/lobby\">lobby</a> &middot; <a href=\"/tournaments\">tournaments</a> "
                    "&middot; <a href=\"/games\">archive of games</a> &middot; <a href=\"/puzzles?variant=chess\">puzzle "
                    "of the day</a> &middot; <a href=\"/new\">new variant</a></p>\n");
    srv_buf_str(&b, extra ? extra : "");
    srv_buf_str(&b, "<p class=\"tc-legend\">Lines on the boards: "
                    "<span class=\"tc-legend-wrap\">blue</span>, an edge wraps round to the opposite edge; "
                    "<span class=\"tc-legend-twist\">red</span>, a join with a half-twist (files mirrored); "
                    "<span class=\"tc-legend-fold\">green</span>, the board folds back onto itself.</p>\n");
    srv_buf_str(&b, "<form class=\"tc-filter\" method=\"get\" action=\"/\">");
    hub_select(&b, s, "size", BY_SIZE, size);
    hub_select(&b, s, "topology", BY_TOPOLOGY, topology);
    hub_select(&b, s, "author", BY_AUTHOR, author);
    srv_buf_str(&b, "<button type=\"submit\">show</button></form>\n<ul class=\"tc-hub\">\n");
    int shown = 0;
    for (int i = 0; i < s->npages; i++) {
        const srv_page *p = &s->pages[i];
        char dims[32];
        if (p->ok) {
            snprintf(dims, sizeof dims, "%dx%d", p->def.width, p->def.height);
            if ((size && strcmp(size, dims)) || (topology && strcmp(topology, p->topology)) ||
                (author && strcmp(author, p->author)))
                continue;
            hub_entry(&b, p);
            shown++;
        } else if (!size && !topology && !author) {
            srv_buf_str(&b, "<li class=\"tc-entry tc-entry-error\"><span class=\"tc-entry-file\">");
            srv_buf_html(&b, p->file);
            srv_buf_str(&b, "</span>: <span class=\"tc-entry-message\">");
            srv_buf_html(&b, p->error);
            srv_buf_str(&b, "</span></li>\n");
        }
    }
    srv_buf_str(&b, "</ul>");
    if (!shown && (size || topology || author))
        srv_buf_str(&b, "\n<p class=\"tc-none\">No variant matches: <a href=\"/\">show all</a>.</p>");
    return srv_buf_take(&b, NULL);
}

char *srv_render_variant_main(const srv_page *p, const char *extra_html)
{
    srv_buf b = {0};
    srv_buf_str(&b, "<article class=\"tc-page\">\n");
    srv_buf_str(&b, p->body_html.p ? p->body_html.p : "");
    srv_buf_str(&b, "</article>\n");
    /* published means playable: every way to play it, near the top */
    static const char *const ways[][2] = {
        {"/play?engine=black&amp;level=5&amp;variant=", "against the engine"},
        {"/play?variant=", "online, with a friend or the server's engine"},
        {"/lobby?variant=", "a seek in the lobby"},
        {"/games?variant=", "its games"},
    };
    srv_buf_str(&b, "<p class=\"tc-variant-ways\" data-play-links>Play it: ");
    for (int i = 0; i < 4; i++) {
        srv_buf_printf(&b, "%s<a href=\"%s", i ? " · " : "", ways[i][0]);
        srv_buf_html(&b, p->slug);
        srv_buf_printf(&b, "\">%s</a>", ways[i][1]);
    }
    srv_buf_str(&b, "</p>\n");
    srv_buf_str(&b, "<!--tc-daily-->"); /* the day's puzzle, filled per request (puzzles_http.h) */
    srv_buf_str(&b, extra_html ? extra_html : "");
    srv_buf_str(&b, "<div id=\"tc-app\"></div>");
    return srv_buf_take(&b, NULL);
}
