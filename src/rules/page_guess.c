/* What a page without front matter shows about its variant
 * (topochess_page.h): the size and setup of its board diagram, read row by
 * row from the `NN| P | p |   |` lines that variant pages draw. The joins
 * are what makes the variant, and a diagram cannot show them, so they are
 * left for a person to choose: the suggested front matter does not load
 * until they are.
 */
#include "topochess_page.h"
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

static const char *skip_sp(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    return s;
}

/* A diagram row: `NN|` then cells between '|'. Fills rank, the cell
 * letters (' ' for empty, '?' for what is not a piece) and their count. */
static bool read_row(const char *s, const char *e, int *rank, char *cells, int *ncells)
{
    s = skip_sp(s, e);
    int r = 0, digits = 0;
    while (s < e && digits < 3 && isdigit((unsigned char)*s))
        r = r * 10 + (*s++ - '0'), digits++;
    if (!digits || digits > 2)
        return false;
    s = skip_sp(s, e);
    if (s >= e || *s != '|')
        return false;
    const char *last = s;
    for (const char *q = s; q < e; q++)
        if (*q == '|')
            last = q;
    int n = 0;
    for (const char *q = s + 1; q <= last && n < TC_MAX_FILES + 1;) {
        const char *bar = memchr(q, '|', (size_t)(last - q) + 1);
        const char *a = skip_sp(q, bar), *z = bar;
        while (z > a && (z[-1] == ' ' || z[-1] == '\t'))
            z--;
        if (z == a)
            cells[n++] = ' ';
        else if (z - a == 1 && strchr("PNBRQKpnbrqk", *a))
            cells[n++] = *a;
        else
            cells[n++] = '?';
        q = bar + 1;
    }
    *rank = r;
    *ncells = n;
    return n > 0;
}

static void add_fen_row(char *fen, size_t cap, const char *cells, int n)
{
    size_t len = strlen(fen);
    int empty = 0;
    if (len && len + 1 < cap)
        fen[len++] = '/';
    for (int i = 0; i <= n && len + 3 < cap; i++) {
        if (i < n && cells[i] == ' ') {
            empty++;
            continue;
        }
        if (empty)
            len += (size_t)snprintf(fen + len, cap - len, "%d", empty);
        empty = 0;
        if (i < n)
            fen[len++] = cells[i];
    }
    fen[len] = '\0';
}

/* The first short line that reads like a title: at most 12 words and
 * 95 bytes, not ending a sentence, not a diagram row. */
static void guess_title(const char *t, size_t len, tc_page_guess *g)
{
    for (size_t at = 0; at < len;) {
        const char *e = memchr(t + at, '\n', len - at);
        size_t le = e ? (size_t)(e - t) : len;
        const char *a = skip_sp(t + at, t + le), *z = t + le;
        while (z > a && isspace((unsigned char)z[-1]))
            z--;
        int words = 0, r, n;
        char cells[TC_MAX_FILES + 1];
        for (const char *q = a; q < z; q++)
            words += !isspace((unsigned char)*q) && (q == a || isspace((unsigned char)q[-1]));
        if (z > a && words <= 12 && z - a < (long)sizeof g->title && !strchr(".!?:", z[-1]) && a[0] != '#' &&
            a[0] != '-' && !read_row(a, z, &r, cells, &n)) {
            memcpy(g->title, a, (size_t)(z - a));
            g->title[z - a] = '\0';
            return;
        }
        at = le + 1;
    }
}

int tc_page_guess_read(const char *text, size_t len, tc_page_guess *out, tc_error *err)
{
    if (!text) {
        tc_set_error(err, "no page text");
        return -1;
    }
    char *flat = NULL;
    if (tc_page_is_flat(text, len)) {
        size_t n = 0;
        tc_error ignored;
        flat = tc_page_reflow(text, len, &n, &ignored);
        if (flat) {
            text = flat;
            len = n;
        }
    }
    tc_page_guess g;
    memset(&g, 0, sizeof g);
    guess_title(text, len, &g);
    int line = 0, top = 0, want = 0, width = 0;
    bool bad_cell = false, done = false;
    char fen[TC_SETUP_MAX] = "";
    for (size_t at = 0; at < len && !done;) {
        const char *e = memchr(text + at, '\n', len - at);
        size_t le = e ? (size_t)(e - text) : len;
        line++;
        int rank, n;
        char cells[TC_MAX_FILES + 1];
        if (read_row(text + at, text + le, &rank, cells, &n)) {
            if (!top) {
                if (rank < 2 || rank > TC_MAX_RANKS || n < 2 || n > TC_MAX_FILES) {
                    at = le + 1;
                    continue;
                }
                top = rank;
                want = rank;
                width = n;
                g.diagram_line = line;
            }
            if (rank != want || n != width) {
                snprintf(g.note, sizeof g.note,
                         "the board diagram at line %d has rank %d with %d cells at line %d, where rank %d with "
                         "%d cells was expected: size and setup left unknown",
                         g.diagram_line, rank, n, line, want, width);
                top = -1;
                break;
            }
            for (int i = 0; i < n; i++)
                bad_cell |= cells[i] == '?';
            add_fen_row(fen, sizeof fen, cells, n);
            if (--want == 0)
                done = true;
        }
        at = le + 1;
    }
    if (top > 0 && !done)
        snprintf(g.note, sizeof g.note,
                 "the board diagram at line %d stops before rank 1 (rank %d is missing): size and setup left unknown",
                 g.diagram_line, want);
    else if (top > 0) {
        g.width = width;
        g.height = top;
        if (bad_cell)
            snprintf(g.note, sizeof g.note,
                     "board diagram at line %d: %dx%d, but some cells are not piece letters: setup left unknown",
                     g.diagram_line, width, top);
        else {
            snprintf(g.setup, sizeof g.setup, "%s", fen);
            snprintf(g.note, sizeof g.note, "board diagram at line %d: %d files, %d ranks, setup read from it",
                     g.diagram_line, width, top);
        }
    } else if (top == 0) {
        snprintf(g.note, sizeof g.note, "no board diagram (rows like '8| r | n | b |...'): size and setup unknown");
    }
    free(flat);
    *out = g;
    return 0;
}

static void put_yaml_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
    }
    fputc('"', out);
}

void tc_page_guess_write(const tc_page_guess *g, FILE *out)
{
    char slug[64];
    size_t n = 0;
    for (const char *s = g->title; *s && n + 1 < sizeof slug; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c) && c < 0x80)
            slug[n++] = (char)tolower(c);
        else if (n && slug[n - 1] != '-')
            slug[n++] = '-';
    }
    while (n && slug[n - 1] == '-')
        n--;
    slug[n] = '\0';
    fprintf(out, "---\n# suggested from the page: %s\n", g->note);
    fputs("title: ", out);
    put_yaml_string(out, *g->title ? g->title : "");
    fprintf(out, "%s\nslug: %s%s\n", *g->title ? "" : "   # to be chosen", *slug ? slug : "~",
            *slug ? "" : "   # to be chosen");
    fputs("engine:\n  topology:\n    type: grid\n", out);
    if (g->height)
        fprintf(out, "    rows: %d          # from the board diagram\n    cols: %d\n", g->height, g->width);
    else
        fputs("    rows: ~   # to be chosen: the page shows no usable board diagram\n"
              "    cols: ~   # to be chosen\n",
              out);
    fputs("    wrap: ~   # to be chosen, never guessed: none, cylinder, rank-cylinder, torus, mobius, "
          "klein-bottle, fold\n",
          out);
    if (*g->setup) {
        fputs("  setup: ", out);
        put_yaml_string(out, g->setup);
        fputs("   # from the board diagram\n", out);
    } else {
        fputs("  setup: ~   # to be chosen (a FEN board field, top rank first)\n", out);
    }
    fputs("published: false\n---\n", out);
}
