/* "How this board works" on every variant page, and the page's relatives:
 * written from the variant's own tables (tc_step, the king and knight
 * destinations, the topology figures), never from its name, so that a page
 * written or imported by anyone gets it too. All text is escaped. */
#include "howto.h"

#include <stdlib.h>
#include <string.h>

/* Fewest and most cells a piece reaches from one cell of an empty board. */
static void reach(const tc_variant *v, int (*targets)(const tc_variant *, int, int *), int *lo, int *hi)
{
    int out[TC_MAX_CELLS];
    int n = tc_variant_width(v) * tc_variant_height(v);
    *lo = 1 << 30;
    *hi = 0;
    for (int c = 0; c < n; c++) {
        int k = targets(v, c, out);
        *lo = k < *lo ? k : *lo;
        *hi = k > *hi ? k : *hi;
    }
}

/* One step that crosses a join of kind `join`, written as "h4 -> a4 (east)". */
static int example_step(const tc_variant *v, int join, char *buf, size_t n)
{
    static const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const char *const names[4] = {"east", "west", "north", "south"};
    int W = tc_variant_width(v), H = tc_variant_height(v);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int d = 0; d < 4; d++) {
                tc_step_result r = tc_step(v, tc_cell(v, x, y), dirs[d][0], dirs[d][1]);
                if (r.cell >= 0 && (r.joins & join)) {
                    char a[8], b[8];
                    tc_cell_name(v, tc_cell(v, x, y), a);
                    tc_cell_name(v, r.cell, b);
                    snprintf(buf, n, "one step %s from %s lands on %s", names[d], a, b);
                    return 1;
                }
            }
    return 0;
}

static void join_item(srv_buf *b, const tc_variant *v, int join, const char *cls, const char *what)
{
    char ex[96];
    if (!example_step(v, join, ex, sizeof ex))
        return;
    srv_buf_printf(b, "<li><span class=\"tc-legend-%s\">", cls);
    srv_buf_html(b, what);
    srv_buf_str(b, "</span>: ");
    srv_buf_html(b, ex);
    srv_buf_str(b, ".</li>\n");
}

char *srv_render_howto(const srv_page *p)
{
    const tc_variant *v = p->variant;
    const tc_variant_def *d = &p->def;
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-howto\" id=\"how-this-board-works\">\n<h2>How this board works</h2>\n");
    srv_buf_printf(&b, "<p>%d files by %d ranks; the surface is ", d->width, d->height);
    srv_buf_html(&b, p->fig.surface);
    srv_buf_str(&b, p->fig.orientable ? " (orientable)" : " (not orientable: a piece that goes round comes back "
                                                         "mirrored)");
    srv_buf_str(&b, ".</p>\n<ul class=\"tc-howto-joins\">\n");
    int joins = 0;
    char what[160];
    if (d->files == TC_FILES_WRAP) {
        snprintf(what, sizeof what, "file %c and file a are joined", 'a' + d->width - 1);
        join_item(&b, v, TC_JOIN_FILE, "wrap", what);
        joins++;
    }
    if (d->ranks == TC_RANKS_WRAP || d->ranks == TC_RANKS_TWIST) {
        snprintf(what, sizeof what, "rank %d and rank 1 are joined", d->height);
        join_item(&b, v, TC_JOIN_RANK, "wrap", what);
        joins++;
    }
    if (d->ranks == TC_RANKS_TWIST) {
        snprintf(what, sizeof what, "ranks %d and %d are joined with a half-twist (files mirrored)", d->seam,
                 d->seam % d->height + 1);
        join_item(&b, v, TC_JOIN_TWIST, "twist", what);
        joins++;
    }
    if (d->ranks == TC_RANKS_FOLD) {
        join_item(&b, v, TC_JOIN_FOLD, "fold", "an end rank is folded onto itself (files mirrored, direction reversed)");
        joins++;
    }
    if (!joins)
        srv_buf_str(&b, "<li>No joins: the edges are edges, as on a chessboard.</li>\n");
    srv_buf_str(&b, "</ul>\n");

    /* reach here against the same board with no joins */
    tc_variant_def flat_def = *d;
    flat_def.files = TC_FILES_OPEN;
    flat_def.ranks = TC_RANKS_OPEN;
    flat_def.seam = 0;
    tc_error err;
    tc_variant *flat = tc_variant_new(&flat_def, &err); /* NULL: the setup is only legal with the joins */
    int klo, khi, nlo, nhi, fklo = 0, fkhi = 0, fnlo = 0, fnhi = 0;
    reach(v, tc_king_targets, &klo, &khi);
    reach(v, tc_knight_targets, &nlo, &nhi);
    if (flat) {
        reach(flat, tc_king_targets, &fklo, &fkhi);
        reach(flat, tc_knight_targets, &fnlo, &fnhi);
    }
    srv_buf_str(&b, "<table class=\"tc-howto-reach\"><tr><th>piece</th><th>cells reached from one cell</th>");
    if (flat)
        srv_buf_str(&b, "<th>on the same board without joins</th>");
    srv_buf_str(&b, "</tr>\n");
    srv_buf_printf(&b, "<tr><td>king</td><td>%d to %d</td>", klo, khi);
    if (flat)
        srv_buf_printf(&b, "<td>%d to %d</td>", fklo, fkhi);
    srv_buf_printf(&b, "</tr>\n<tr><td>knight</td><td>%d to %d</td>", nlo, nhi);
    if (flat)
        srv_buf_printf(&b, "<td>%d to %d</td>", fnlo, fnhi);
    srv_buf_str(&b, "</tr></table>\n");
    if (flat && nlo > fnlo)
        srv_buf_str(&b, "<p>Near an edge a knight has fewer squares on a flat board; here the joins carry its "
                        "jumps across, so from the edge cells it reaches more.</p>\n");
    tc_variant_free(flat);
    srv_buf_printf(&b, "<p>Bishops %s.</p>\n",
                   p->fig.colour_bound ? "keep their colour" : "can change colour by crossing a join");
    srv_buf_str(&b, "<p>The rules of moves, checks and joins are in <a href=\"/docs/cli\">the manual</a>.</p>\n"
                    "</section>\n");
    return srv_buf_take(&b, NULL);
}

static int one_join_changed(const tc_variant_def *a, const tc_variant_def *b)
{
    if (a->width != b->width || a->height != b->height)
        return 0;
    int diff = (a->files != b->files) + (a->ranks != b->ranks ||
                                         (a->ranks == TC_RANKS_TWIST && a->seam != b->seam));
    return diff == 1;
}

char *srv_render_relatives(const srv_site *s, const srv_page *p)
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
        srv_buf_str(&b, "<p>No variant of this size differs from it by one join yet.</p>\n");
    srv_buf_str(&b, "<p><a class=\"tc-variant-of\" href=\"/new?from=");
    srv_buf_html(&b, p->slug);
    srv_buf_str(&b, "\">Make a variant of this</a></p>\n</section>\n");
    return srv_buf_take(&b, NULL);
}
