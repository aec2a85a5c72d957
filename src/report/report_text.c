/* Topology report (docs/rules.md section 10), printed: a computed struct
 * tc_report written as plain text, with the variant pages' claims set
 * against the figures. The figures themselves come from report.c. */
#include "report.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- printing */

/// A line being written word by word, wrapped before column 78.
typedef struct {
    FILE *out;
    int col, indent;
} wrap_line;

static void wrap_word(wrap_line *w, const char *word)
{
    int len = (int)strlen(word);
    if (w->col > w->indent && w->col + 1 + len > 78) {
        fprintf(w->out, "\n%*s", w->indent, "");
        w->col = w->indent;
    } else if (w->col > w->indent) {
        fputc(' ', w->out);
        w->col++;
    }
    fputs(word, w->out);
    w->col += len;
}

static void wrap_start(wrap_line *w, FILE *out, int indent, const char *head)
{
    w->out = out;
    w->indent = indent;
    fputs(head, out);
    const char *nl = strrchr(head, '\n');
    w->col = (int)strlen(nl ? nl + 1 : head);
    if (w->col < indent) {
        fprintf(out, "%*s", indent - w->col, "");
        w->col = indent;
    }
}

static void wrap_end(wrap_line *w) { fputc('\n', w->out); }

static const char *colour_name(int colour) { return colour ? "light" : "dark"; }

static const char *piece_name(int pc)
{
    static const char *const names[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
    return names[TC_TYPE(pc) <= TC_KING ? TC_TYPE(pc) : 0];
}

static char piece_char(int pc)
{
    static const char letters[] = " pnbrqk";
    char ch = letters[TC_TYPE(pc) <= TC_KING ? TC_TYPE(pc) : 0];
    return TC_COLOUR(pc) == TC_WHITE ? (char)(ch - 'a' + 'A') : ch;
}

static void print_joins(const tc_variant *v, FILE *out)
{
    char last = (char)('a' + v->W - 1);
    if (v->def.files == TC_FILES_WRAP)
        fprintf(out, "  files a and %c are joined: a piece leaving one enters the other\n", last);
    else
        fprintf(out, "  files a and %c are edges: leaving them leaves the board\n", last);
    switch (v->def.ranks) {
    case TC_RANKS_OPEN:
        fprintf(out, "  ranks 1 and %d are edges\n", v->H);
        break;
    case TC_RANKS_WRAP:
        fprintf(out, "  ranks %d and 1 are joined\n", v->H);
        break;
    case TC_RANKS_TWIST:
        if (v->def.seam == v->H)
            fprintf(out, "  ranks %d and 1 are joined with a half-twist (files mirror, a <-> %c)\n",
                    v->H, last);
        else
            fprintf(out,
                    "  ranks %d and 1 are joined; crossing between ranks %d and %d\n"
                    "  is a half-twist that mirrors the file (a <-> %c)\n",
                    v->H, v->def.seam, v->def.seam + 1, last);
        break;
    case TC_RANKS_FOLD:
        fprintf(out,
                "  ranks 1 and %d are each folded onto themselves: stepping past one\n"
                "  comes back on it at the mirrored file (a <-> %c), turned around\n",
                v->H, last);
        break;
    }
}

static void print_path(const tc_variant *v, FILE *out, const int *cells, int n, const uint8_t *board)
{
    wrap_line w;
    wrap_start(&w, out, 7, "");
    for (int i = 0; i < n; i++) {
        char word[16], cell[4];
        tc_cell_name(v, cells[i], cell);
        if (board && board[cells[i]])
            snprintf(word, sizeof word, "%s[%c]", cell, piece_char(board[cells[i]]));
        else
            snprintf(word, sizeof word, "%s", cell);
        wrap_word(&w, word);
    }
    wrap_end(&w);
}

static void print_surface(const tc_variant *v, const tc_report *r, FILE *out)
{
    fprintf(out, "\nSurface (the cells glued side to side as the steps glue them)\n");
    if (r->orientable) {
        fprintf(out, "  orientable:        yes (no loop of steps comes back mirrored)\n");
    } else {
        fprintf(out, "  orientable:        no; this loop of orthogonal steps comes back mirrored:\n");
        print_path(v, out, r->flip_loop, r->flip_loop_len, NULL);
    }
    fprintf(out, "  Euler char.:       %d\n", r->euler);
    fprintf(out, "  boundary circles:  %d\n", r->boundaries);
    fprintf(out, "  surface:           %s\n", r->surface);
    if (r->ncones) {
        wrap_line w;
        wrap_start(&w, out, 4, "  corner points where the angle is not 360 degrees (cells meeting):\n");
        for (int i = 0; i < r->ncones; i++) {
            char word[48] = "", cell[4];
            for (int j = 0; j < 4 && r->cone_cells[i][j] >= 0; j++) {
                tc_cell_name(v, r->cone_cells[i][j], cell);
                if (j)
                    strcat(word, "/");
                strcat(word, cell);
            }
            snprintf(word + strlen(word), sizeof word - strlen(word), " %d%s", r->cone_angle[i],
                     i + 1 < r->ncones ? "," : "");
            wrap_word(&w, word);
        }
        wrap_end(&w);
    }
}

/* Prints one grid, or two side by side when they fit in 80 columns. */
static void print_grids(const tc_report *r, FILE *out, const char *t1, const int *g1, const char *t2,
                        const int *g2)
{
    int gw = 4 + 3 * r->W;
    bool pair = 2 * gw + 4 <= 80;
    const char *titles[2] = {t1, t2};
    const int *grids[2] = {g1, g2};
    for (int part = 0; part < (pair ? 1 : 2); part++) {
        int first = pair ? 0 : part, last = pair ? 1 : part;
        fputc('\n', out);
        for (int g = first; g <= last; g++)
            if (g < last)
                fprintf(out, "  %-*s    ", gw - 2, titles[g]);
            else
                fprintf(out, "  %s\n", titles[g]);
        for (int g = first; g <= last; g++) {
            fprintf(out, "    ");
            for (int x = 0; x < r->W; x++)
                fprintf(out, "  %c", 'a' + x);
            fprintf(out, "%s", g < last ? "    " : "\n");
        }
        for (int y = r->H - 1; y >= 0; y--)
            for (int g = first; g <= last; g++) {
                fprintf(out, "%3d ", y + 1);
                for (int x = 0; x < r->W; x++)
                    fprintf(out, "%3d", grids[g][y * r->W + x]);
                fprintf(out, "%s", g < last ? "    " : "\n");
            }
    }
}

static void moves_reason(char *buf, size_t n, const char *piece, const tc_report_moves *m)
{
    size_t len = (size_t)snprintf(buf, n, "%s %d", piece, m->distinct);
    const char *sep = " (";
    if (m->off && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%s%d off the board", sep, m->off), sep = ", ";
    if (m->self && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%s%d back to the cell", sep, m->self), sep = ", ";
    if (m->dup && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%s%d repeat a cell", sep, m->dup), sep = ", ";
    if (*sep == ',' && len < n)
        snprintf(buf + len, n - len, ")");
}

static void print_cells(const tc_variant *v, const tc_report *r, FILE *out)
{
    int *g = malloc(sizeof(int) * 4 * TC_MAX_CELLS);
    char(*why)[128] = malloc(sizeof *why * TC_MAX_CELLS);
    if (!g || !why) {
        free(g);
        free(why);
        return;
    }
    fprintf(out, "\nDistinct destinations per cell on an empty board (rank %d at the top)\n", v->H);
    for (int c = 0; c < v->ncells; c++) {
        g[c] = r->king[c].distinct;
        g[TC_MAX_CELLS + c] = r->knight[c].distinct;
        g[2 * TC_MAX_CELLS + c] = r->bishop[c];
        g[3 * TC_MAX_CELLS + c] = r->rook[c];
    }
    print_grids(r, out, "king", g, "knight", g + TC_MAX_CELLS);
    print_grids(r, out, "bishop", g + 2 * TC_MAX_CELLS, "rook", g + 3 * TC_MAX_CELLS);

    fprintf(out, "\nDegenerate cells (king < 8 or a step back to the cell; knight < 8): %d\n",
            r->ndegenerate);
    for (int c = 0; c < v->ncells; c++) {
        why[c][0] = '\0';
        if (r->degenerate[c] & 1)
            moves_reason(why[c], sizeof why[c], "king", &r->king[c]);
        if (r->degenerate[c] & 2) {
            size_t len = strlen(why[c]);
            if (len)
                len += (size_t)snprintf(why[c] + len, sizeof why[c] - len, "; ");
            moves_reason(why[c] + len, sizeof why[c] - len, "knight", &r->knight[c]);
        }
    }
    /* one line per reason, in order of first appearance */
    for (int c = 0; c < v->ncells; c++) {
        if (!r->degenerate[c])
            continue;
        bool seen = false;
        for (int p = 0; p < c && !seen; p++)
            seen = r->degenerate[p] && strcmp(why[p], why[c]) == 0;
        if (seen)
            continue;
        wrap_line w;
        char head[160];
        snprintf(head, sizeof head, "  %s:\n", why[c]);
        wrap_start(&w, out, 4, head);
        for (int q = c; q < v->ncells; q++) {
            char cell[4];
            if (r->degenerate[q] && strcmp(why[q], why[c]) == 0) {
                tc_cell_name(v, q, cell);
                wrap_word(&w, cell);
            }
        }
        wrap_end(&w);
    }
    free(g);
    free(why);
}

static void print_colour(const tc_variant *v, const tc_report *r, FILE *out)
{
    fprintf(out, "\nBishops and colour (colour = (file + rank) mod 2, a1 dark)\n");
    if (r->colour_bound) {
        fprintf(out, "  colour-bound: yes, no diagonal step changes the colour\n");
        return;
    }
    fprintf(out, "  colour-bound: no, a diagonal step across a join changes the colour\n");
    if (r->colour_path_len > 0) {
        char a[4], b[4];
        int last = r->colour_path[r->colour_path_len - 1];
        tc_cell_name(v, r->colour_path[0], a);
        tc_cell_name(v, last, b);
        fprintf(out, "  example, one bishop move from %s (%s) to %s (%s):\n", a,
                colour_name(tc_report_cell_colour(v, r->colour_path[0])), b,
                colour_name(tc_report_cell_colour(v, last)));
        print_path(v, out, r->colour_path, r->colour_path_len, NULL);
    }
}

static void print_files(const tc_variant *v, const tc_report *r, FILE *out)
{
    fprintf(out, "\nFile classes joined by vertical rook lines (N/S rays): %d\n ", r->nfile_classes);
    for (int x = 0; x < v->W; x++) {
        if (r->file_class[x] != x)
            continue;
        fprintf(out, " {");
        for (int y = x, first = 1; y < v->W; y++)
            if (r->file_class[y] == x) {
                fprintf(out, "%s%c", first ? "" : ",", 'a' + y);
                first = 0;
            }
        fprintf(out, "}");
    }
    fputc('\n', out);
}

static void print_looks(const tc_variant *v, const tc_report *r, const uint8_t *board, FILE *out)
{
    fprintf(out, "\nKings looking the long way round (N and S rays on an empty board up to\n"
                 "the first piece of the start position that is not a pawn; [x] marks\n"
                 "start-position pieces passed)\n");
    for (int col = 0; col < 2; col++) {
        char cell[4];
        if (r->king_cell[col] < 0)
            continue;
        tc_cell_name(v, r->king_cell[col], cell);
        fprintf(out, "  %s king %s\n", col ? "Black" : "White", cell);
        for (int k = 0; k < 2; k++) {
            const tc_report_look *l = &r->look[col][k];
            fprintf(out, "    %s: ", k ? "S" : "N");
            if (l->end == 0) {
                int pc = board[l->faced];
                tc_cell_name(v, l->faced, cell);
                fprintf(out, "faces %s %s on %s after %d step%s\n",
                        TC_COLOUR(pc) == col ? "its own" : (TC_COLOUR(pc) ? "the Black" : "the White"),
                        piece_name(pc), cell, l->len, l->len == 1 ? "" : "s");
            } else if (l->len == 0) {
                fprintf(out, "%s at once\n", l->end == 1 ? "leaves the board" : "comes back to the king");
            } else {
                fprintf(out, "%s after %d step%s\n",
                        l->end == 1 ? "leaves the board" : "comes back to the king", l->len,
                        l->len == 1 ? "" : "s");
            }
            if (l->len > 0)
                print_path(v, out, l->cells, l->len, board);
        }
    }
}

static void print_bishops(const tc_variant *v, const tc_report *r, FILE *out)
{
    fprintf(out, "\nBishop reach from the start cells (empty board, of %d cells)\n", v->ncells);
    if (!r->nbishops)
        fprintf(out, "  no bishops in the start position\n");
    for (int i = 0; i < r->nbishops; i++) {
        char cell[4];
        tc_cell_name(v, r->bishop_cell[i], cell);
        fprintf(out, "  %-3s one move: %3d (%5.1f%%)   any number of moves: %3d (%5.1f%%)\n", cell,
                r->bishop_reach1[i], 100.0 * r->bishop_reach1[i] / v->ncells, r->bishop_reach_all[i],
                100.0 * r->bishop_reach_all[i] / v->ncells);
    }
}

/* The variant pages' claims (seeds 000 and 001) set against the figures. */
static void print_claims(const tc_variant *v, const tc_report *r, FILE *out)
{
    bool klein = strcmp(v->def.name, "klein-bottle") == 0;
    if (!klein && strcmp(v->def.name, "mobius") != 0)
        return;
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(v->W, v->H, v->def.setup, strlen(v->def.setup), board, NULL))
        return;
    fprintf(out, "\nThe variant page's claims against the computed figures\n");
    fprintf(out, "  \"kings face the opponent's queen\":\n   ");
    for (int col = 0; col < 2; col++) {
        char cell[4];
        tc_cell_name(v, r->king_cell[col], cell);
        fprintf(out, "%s %s king %s", col ? ";" : "", col ? "Black" : "White", cell);
        bool any = false;
        for (int k = 0; k < 2; k++) {
            const tc_report_look *l = &r->look[col][k];
            if (l->end == 0 && board[l->faced] == TC_PIECE(!col, TC_QUEEN)) {
                fprintf(out, " %s going %s", any ? "and" : "does,", k ? "S" : "N");
                any = true;
            }
        }
        if (!any)
            fprintf(out, " does not");
    }
    fputc('\n', out);
    fprintf(out, "  \"bishops are not colour-bound\": %s\n", r->colour_bound ? "does not hold" : "holds");
    if (klein) {
        bool ad = r->file_class[0] == r->file_class[3];
        fprintf(out, "  \"files a and h equivalent to d and e\": %s; the classes are\n"
                     "    listed above\n", ad ? "holds" : "does not hold");
        int lo = 0, hi = 0;
        for (int i = 0; i < r->nbishops; i++) {
            if (!i || r->bishop_reach1[i] < lo)
                lo = r->bishop_reach1[i];
            if (!i || r->bishop_reach1[i] > hi)
                hi = r->bishop_reach1[i];
        }
        if (r->nbishops)
            fprintf(out, "  \"a bishop reaches only 3/8 of the board in one move\" (%d cells):\n"
                         "    computed %d to %d cells from the start cells (%.1f%% to %.1f%%)\n",
                    3 * v->ncells / 8, lo, hi, 100.0 * lo / v->ncells, 100.0 * hi / v->ncells);
    } else {
        char last = (char)('a' + v->W - 1);
        fprintf(out, "  \"files a and %c wrap normally\": not on this board (docs/rules.md 9): files\n"
                     "    are %s\n", last, v->def.files == TC_FILES_WRAP ? "joined" : "edges");
    }
}

void tc_report_write(const tc_variant *v, const tc_report *r, FILE *out)
{
    char topo[64];
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(v->W, v->H, v->def.setup, strlen(v->def.setup), board, NULL))
        memset(board, 0, sizeof board);
    tc_variant_topology_text(v, topo, sizeof topo);
    fprintf(out, "Topology report: %s%s%s%s\n", v->def.name, *v->def.title ? " (" : "", v->def.title,
            *v->def.title ? ")" : "");
    fprintf(out, "  board: %d files x %d ranks, %d cells; %s\n", v->W, v->H, v->ncells, topo);
    print_joins(v, out);
    print_surface(v, r, out);
    print_cells(v, r, out);
    print_colour(v, r, out);
    print_files(v, r, out);
    print_looks(v, r, board, out);
    print_bishops(v, r, out);
    print_claims(v, r, out);
}

void tc_topology_report(const tc_variant *v, FILE *out)
{
    tc_report *r = malloc(sizeof *r);
    if (!r) {
        fprintf(out, "topology report: out of memory\n");
        return;
    }
    tc_report_compute(v, r);
    tc_report_write(v, r, out);
    free(r);
}
