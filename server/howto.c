/* "How this board works" on every variant page. The facts come from the library (tc_board_guide_compute: the variant's
 * own tables and start position, never its name) and from the solved
 * endings of the pages folder's endings.txt (tools/gen-endings), so that a
 * page written or imported by anyone gets them too. All text is escaped. */
#include "howto.h"

#include "buf.h"

#include <stdlib.h>
#include <string.h>

static const char *dir_name(int dx, int dy)
{
    return dx > 0 ? "east" : dx < 0 ? "west" : dy > 0 ? "north" : "south";
}

/* A small picture of the board: the step's start (filled) and landing
 * cell (ringed), the join's colour on both. */
static void step_svg(srv_buf *b, const tc_variant *v, int from, int to, const char *colour, const char *label)
{
    int W = tc_variant_width(v), H = tc_variant_height(v), c = W > 10 || H > 10 ? 9 : 12;
    srv_buf_printf(b, "<svg class=\"tc-howto-board\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
                      "aria-label=\"",
                   W * c + 2, H * c + 2, W * c + 2, H * c + 2);
    srv_buf_html(b, label);
    srv_buf_str(b, "\"><g transform=\"translate(1 1)\">");
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int cell = tc_cell(v, x, y);
            const char *fill = (x + y) & 1 ? "#f0d9b5" : "#b58863";
            srv_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", x * c,
                           (H - 1 - y) * c, c, c, fill);
            if (cell == from)
                srv_buf_printf(b, "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\"/>", x * c + c / 2,
                               (H - 1 - y) * c + c / 2, c / 3, colour);
            if (cell == to)
                srv_buf_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\" "
                                  "stroke-width=\"2\"/>",
                               x * c + 1, (H - 1 - y) * c + 1, c - 2, c - 2, colour);
        }
    srv_buf_str(b, "</g></svg>");
}

static void joins_part(srv_buf *b, const tc_variant *v, const tc_board_guide *g)
{
    const tc_variant_def *d = tc_variant_def_of(v);
    srv_buf_str(b, "<h3>The joins</h3>\n<ul class=\"tc-howto-joins\">\n");
    if (!g->njoins)
        srv_buf_str(b, "<li>No joins: the edges are edges, as on a chessboard.</li>\n");
    for (int i = 0; i < g->njoins; i++) {
        char what[160], ex[160], a[8], z[8];
        const char *cls = "wrap", *colour = "#2f6fb5";
        switch (g->joins[i].join) {
        case TC_JOIN_FILE:
            snprintf(what, sizeof what, "file %c and file a are joined", 'a' + d->width - 1);
            break;
        case TC_JOIN_RANK:
            snprintf(what, sizeof what, "rank %d and rank 1 are joined", d->height);
            break;
        case TC_JOIN_TWIST:
            snprintf(what, sizeof what, "ranks %d and %d are joined with a half-twist: the files are mirrored",
                     d->seam, d->seam % d->height + 1);
            cls = "twist", colour = "#c0392b";
            break;
        default:
            snprintf(what, sizeof what, "an end rank is folded onto itself: files mirrored, direction reversed");
            cls = "fold", colour = "#2e8b57";
        }
        tc_cell_name(v, g->joins[i].from, a);
        tc_cell_name(v, g->joins[i].to, z);
        snprintf(ex, sizeof ex, "one step %s from %s lands on %s", dir_name(g->joins[i].dx, g->joins[i].dy), a, z);
        srv_buf_str(b, "<li>");
        step_svg(b, v, g->joins[i].from, g->joins[i].to, colour, ex);
        srv_buf_printf(b, "<span><span class=\"tc-legend-%s\">", cls);
        srv_buf_html(b, what);
        srv_buf_str(b, "</span>: ");
        srv_buf_html(b, ex);
        srv_buf_str(b, " (dot: the start, square: where the step lands).</span></li>\n");
    }
    srv_buf_str(b, "</ul>\n");
}

static void pawns_part(srv_buf *b, const tc_board_guide *g, int H)
{
    static const char *const side[2] = {"White", "Black"};
    srv_buf_str(b, "<h3>Pawns and castling</h3>\n<ul class=\"tc-howto-pawns\">\n");
    for (int i = 0; i < g->npawns; i++) {
        int r = g->pawns[i].rank, dy = g->pawns[i].dy;
        srv_buf_printf(b, "<li>%s pawns on rank %d ", side[g->pawns[i].colour], r);
        if (dy)
            srv_buf_printf(b, "move %s the board (rank %d to %d)", dy > 0 ? "up" : "down", r,
                           (r - 1 + dy + H) % H + 1);
        else
            srv_buf_str(b, "cannot move at the start");
        srv_buf_printf(b, " and promote on rank %d.</li>\n", g->pawns[i].promotion);
    }
    if (!g->npawns)
        srv_buf_str(b, "<li>No pawns in the start position.</li>\n");
    static const char *const castles[4] = {
        "cannot castle: the start has no king on file e with a rook on file a or h",
        "castles short only (O-O, king e to g, rook h to f), on its back rank, never across a join",
        "castles long only (O-O-O, king e to c, rook a to d), on its back rank, never across a join",
        "castles as in chess, on its back rank, never across a join"};
    for (int c = 0; c < 2; c++)
        srv_buf_printf(b, "<li>%s %s.</li>\n", side[c], castles[g->castling[c] & 3]);
    srv_buf_str(b, "</ul>\n");
}

static void reach_part(srv_buf *b, const tc_board_guide *g, const tc_topology_figures *fig)
{
    static const char *const piece[3] = {"king", "knight", "bishop"};
    srv_buf_str(b, "<h3>How far the pieces reach</h3>\n<table class=\"tc-howto-reach\"><tr><th>piece</th>"
                   "<th>cells reached from one cell (empty board)</th>");
    if (g->has_flat)
        srv_buf_str(b, "<th>on the same board without joins</th>");
    srv_buf_str(b, "</tr>\n");
    for (int i = 0; i < 3; i++) {
        srv_buf_printf(b, "<tr><td>%s</td><td>%d to %d</td>", piece[i], g->reach_lo[i], g->reach_hi[i]);
        if (g->has_flat)
            srv_buf_printf(b, "<td>%d to %d</td>", g->flat_lo[i], g->flat_hi[i]);
        srv_buf_str(b, "</tr>\n");
    }
    srv_buf_str(b, "</table>\n");
    if (g->has_flat && g->reach_lo[1] > g->flat_lo[1])
        srv_buf_printf(b, "<p>On a flat board a knight near an edge or corner has as few as %d cells: its "
                          "jumps fall off the board. Here the joins carry those jumps across, so a knight "
                          "reaches at least %d cells from anywhere.</p>\n",
                       g->flat_lo[1], g->reach_lo[1]);
    srv_buf_printf(b, "<p>Bishops %s.</p>\n",
                   fig->colour_bound ? "keep the colour of their cell, as in chess"
                                     : "are not bound to one colour: crossing a join can change it");
}

static void endings_part(srv_buf *b, const tc_variant *v, const char *topology, const srv_ending *endings,
                         int nendings)
{
    char size[16];
    snprintf(size, sizeof size, "%dx%d", tc_variant_width(v), tc_variant_height(v));
    srv_buf_str(b, "<h3>Which endings can mate</h3>\n");
    int n = 0;
    for (int i = 0; i < nendings; i++) {
        const srv_ending *e = &endings[i];
        if (strcmp(e->size, size) || strcmp(e->topology, topology))
            continue;
        if (!n++)
            srv_buf_str(b, "<table class=\"tc-howto-reach\"><tr><th>ending</th><th>can mate</th>"
                           "<th>won with White to move</th><th>longest mate</th></tr>\n");
        srv_buf_str(b, "<tr><td>");
        srv_buf_html(b, e->ending);
        srv_buf_printf(b, "</td><td>%s</td><td>", e->possible ? "yes" : "no");
        srv_buf_html(b, e->won);
        srv_buf_printf(b, "%%</td><td>%d move%s</td></tr>\n", e->longest, e->longest == 1 ? "" : "s");
    }
    if (n)
        srv_buf_str(b, "</table>\n<p>Solved by retrograde analysis on this board "
                       "(<a href=\"/docs/endgames\">solved endings</a>).</p>\n");
    else
        srv_buf_str(b, "<p>The endings have not been solved for this board yet: <code>topochess endgame KQK "
                       "--variant-file PAGE</code> does it (<a href=\"/docs/endgames\">solved endings</a>).</p>\n");
}

char *srv_render_howto(const tc_variant *v, const char *topology, const tc_topology_figures *fig,
                       const srv_ending *endings, int nendings)
{
    tc_board_guide *g = malloc(sizeof *g);
    tc_error err;
    if (!g || tc_board_guide_compute(v, g, &err)) {
        free(g);
        return NULL;
    }
    srv_buf b = {0};
    srv_buf_str(&b, "<section class=\"tc-howto\" id=\"how-this-board-works\">\n<h2>How this board works</h2>\n");
    srv_buf_printf(&b, "<p>%d files by %d ranks; the surface is a ", tc_variant_width(v), tc_variant_height(v));
    srv_buf_html(&b, fig->surface);
    srv_buf_str(&b, fig->orientable ? "." : ", which is not orientable: a piece that goes round it comes back "
                                              "mirrored.");
    srv_buf_str(&b, "</p>\n");
    joins_part(&b, v, g);
    pawns_part(&b, g, tc_variant_height(v));
    reach_part(&b, g, fig);
    endings_part(&b, v, topology, endings, nendings);
    srv_buf_str(&b, "<p>How moves, checks and joins work in general: <a href=\"/docs/variant-pages\">variant "
                    "pages</a>.</p>\n</section>\n");
    free(g);
    return srv_buf_take(&b, NULL);
}
