/* Variant pages as text (topochess_page.h): the four seed pages. 000 and 001
 * lost every line break (front matter and body); 002 and 004 are plain text
 * pages without front matter. Reflowed pages must read to the same variant,
 * keep their headings, lists and paragraphs, and give back a diagram with
 * one row per rank that shows the front matter's own setup. */
#include "harness.h"
#include "topochess_page.h"
#include "topochess_report.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SEED_KLEIN "tests/data/seeds/000_95dbf7b39fde5649.txt"
#define SEED_MOBIUS "tests/data/seeds/001_e2abbc470f38c59c.txt"
#define SEED_CYLINDER "tests/data/seeds/002_0dcf0b8d1377ef06.txt"
#define SEED_FOLD "tests/data/seeds/004_71cc5d98ad8e7ae6.txt"

/* Lines of text that start with prefix, copied (without it) into out. */
static int lines_with(const char *text, const char *prefix, char out[][128], int max)
{
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *s = text; s && *s;) {
        const char *e = strchr(s, '\n');
        size_t l = e ? (size_t)(e - s) : strlen(s);
        if (l >= pl && !memcmp(s, prefix, pl)) {
            if (n < max)
                snprintf(out[n], 128, "%.*s", (int)(l - pl), s + pl);
            n++;
        }
        s = e ? e + 1 : NULL;
    }
    return n;
}

static bool has(char lines[][128], int n, const char *want)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(lines[i], want))
            return true;
    return false;
}

/* The diagram rows between the page's first fence pair: their rank labels
 * must count down from the height to 1, each row with width cells. */
static void check_diagram(const char *page, const tc_variant_def *d, const char *what)
{
    const char *a = strstr(page, "\n```\n"), *z = a ? strstr(a + 5, "\n```\n") : NULL;
    CHECK(a && z, "%s: no fenced block after reflow", what);
    if (!a || !z)
        return;
    int rows = 0, want = d->height;
    for (const char *s = a + 5; s < z;) {
        const char *e = strchr(s, '\n');
        int rank = 0, used = 0;
        if (sscanf(s, "%d|%n", &rank, &used) == 1 && used > 0 && s[used - 1] == '|') {
            int bars = 0;
            for (const char *q = s; q < e; q++)
                bars += *q == '|';
            CHECK(rank == want, "%s: diagram row %d has rank %d, want %d", what, rows + 1, rank, want);
            CHECK(bars == d->width + 1, "%s: rank %d has %d bars, want %d", what, rank, bars, d->width + 1);
            rows++;
            want--;
        }
        s = e + 1;
    }
    CHECK(rows == d->height, "%s: %d diagram rows, the board has %d ranks", what, rows, d->height);
}

static void check_flat_seed(const char *path, const char *const *h3, int nh3, int bullets, int bold_paras)
{
    th_case("page reflow: %s", path);
    size_t len = 0, n = 0, n2 = 0;
    char *text = th_read_file(path, &len);
    if (!text)
        return;
    tc_error err;
    tc_variant_def before, after;
    CHECK(tc_page_is_flat(text, len) == 1, "%s: should be flat", path);
    CHECK(tc_frontmatter_parse(text, len, &before, &err) == 0, "%s: %s", path, err.msg);
    char *page = tc_page_reflow(text, len, &n, &err);
    CHECK(page != NULL, "%s: reflow failed: %s", path, err.msg);
    if (!page) {
        free(text);
        return;
    }
    CHECK(!tc_page_is_flat(page, n), "%s: still flat after reflow", path);
    CHECK(!strncmp(page, "---\n", 4), "%s: front matter not in block form", path);
    CHECK(tc_frontmatter_parse(page, n, &after, &err) == 0, "%s: reflowed page: %s", path, err.msg);
    CHECK(!memcmp(&before, &after, sizeof before), "%s: reflowed page reads to another variant", path);
    char *again = tc_page_reflow(page, n, &n2, &err);
    CHECK(again && n2 == n && !memcmp(again, page, n), "%s: a second reflow changed the page", path);
    free(again);

    char lines[32][128];
    int n2h = lines_with(page, "## ", lines, 32);
    CHECK(n2h == 1 && !strcmp(lines[0], before.title), "%s: %d '## ' headings, first '%s', want one: '%s'",
          path, n2h, n2h ? lines[0] : "", before.title);
    int n3h = lines_with(page, "### ", lines, 32);
    CHECK(n3h == nh3, "%s: %d '### ' headings, want %d", path, n3h, nh3);
    for (int i = 0; i < nh3; i++)
        CHECK(has(lines, n3h, h3[i]), "%s: heading '### %s' not found", path, h3[i]);
    CHECK(lines_with(page, "- **", lines, 32) == bullets, "%s: want %d list items", path, bullets);
    CHECK(lines_with(page, "**", lines, 32) >= bold_paras, "%s: want >= %d paragraphs led by bold", path,
          bold_paras);
    check_diagram(page, &before, path);

    /* the diagram shows what the front matter says */
    tc_page_guess g;
    CHECK(tc_page_guess_read(page, n, &g, &err) == 0, "%s: guess: %s", path, err.msg);
    CHECK(g.width == before.width && g.height == before.height, "%s: diagram %dx%d, front matter %dx%d", path,
          g.width, g.height, before.width, before.height);
    CHECK(!strcmp(g.setup, before.setup), "%s: diagram setup '%s', front matter '%s'", path, g.setup,
          before.setup);
    free(page);
    free(text);
}

static void test_flat_seeds(void)
{
    static const char *const klein[] = {"Why 8×14, not 8×8", "The Board and Starting Position",
                                        "Consequences of the Topology", "Rules", "Attribution"};
    static const char *const mobius[] = {"The Board and Starting Position", "Consequences of the Topology",
                                         "Sample Opening", "Rules",
                                         "Relationship to Other Variants in This Family", "Attribution"};
    check_flat_seed(SEED_KLEIN, klein, 5, 0, 5);
    check_flat_seed(SEED_MOBIUS, mobius, 6, 3, 4);

    th_case("page reflow: the numbered list of 001 ends where its sentence does");
    size_t len = 0, n = 0;
    char *text = th_read_file(SEED_MOBIUS, &len);
    tc_error err;
    char *page = text ? tc_page_reflow(text, len, &n, &err) : NULL;
    char lines[8][128];
    CHECK(page && lines_with(page, "1. d12", lines, 8) == 1 && lines_with(page, "2. c12", lines, 8) == 1 &&
              lines_with(page, "3. e12", lines, 8) == 1 && lines_with(page, "This is offered", lines, 8) == 1,
          "the sample opening is not a three-item list followed by its paragraph");
    free(page);
    free(text);
}

/* text without its lines that hold only a fence */
static char *drop_fence_lines(const char *t)
{
    char *out = malloc(strlen(t) + 1), *o = out;
    for (const char *s = t; out && *s;) {
        const char *e = strchr(s, '\n');
        size_t l = e ? (size_t)(e - s) + 1 : strlen(s);
        if (strncmp(s, "```\n", 4) != 0) {
            memcpy(o, s, l);
            o += l;
        }
        s += l;
    }
    if (out)
        *o = '\0';
    return out;
}

static void test_plain_seeds(void)
{
    th_case("page reflow: 004 has its lines and no diagram, stays as it is");
    size_t len = 0, n = 0;
    char *text = th_read_file(SEED_FOLD, &len);
    tc_error err;
    CHECK(text && !tc_page_is_flat(text, len), "004 taken as flat");
    char *page = text ? tc_page_reflow(text, len, &n, &err) : NULL;
    CHECK(page && n == len && !memcmp(page, text, len), "004 changed by reflow");
    free(page);
    free(text);

    th_case("page reflow: 002's plain-text diagram gets a fence, nothing else changes");
    text = th_read_file(SEED_CYLINDER, &len);
    CHECK(text && !tc_page_is_flat(text, len), "002 taken as flat");
    page = text ? tc_page_reflow(text, len, &n, &err) : NULL;
    char lines[4][128];
    CHECK(page && lines_with(page, "```", lines, 4) == 2, "002: want one fence pair");
    char *back = page ? drop_fence_lines(page) : NULL;
    CHECK(back && !strcmp(back, text), "002: more than the fence lines changed");
    tc_variant_def d = {.width = 8, .height = 14};
    tc_page_guess g;
    if (page && tc_page_guess_read(page, n, &g, &err) == 0) {
        d.width = g.width;
        d.height = g.height;
    }
    check_diagram(page ? page : "", &d, "002 fenced");
    CHECK(strstr(page ? page : "", "```\n\t       Black") && strstr(page ? page : "", "\t     White\n```"),
          "002: the fence does not hold the 'Black' and 'White' lines");
    char *again = page ? tc_page_reflow(page, n, &len, &err) : NULL;
    CHECK(again && !strcmp(again, page), "002: a second reflow changed the page");
    free(again);
    free(back);
    free(page);
    free(text);
}

static void test_guess(void)
{
    th_case("page guess: 002 (a 14-rank diagram with +---+ borders)");
    size_t len = 0, klen = 0;
    char *text = th_read_file(SEED_CYLINDER, &len), *klein = th_read_file(SEED_KLEIN, &klen);
    tc_variant_def kdef, d0;
    tc_error err;
    tc_page_guess g;
    if (!text || !klein || tc_frontmatter_parse(klein, klen, &kdef, &err)) {
        CHECK(0, "seeds not readable");
        free(text), free(klein);
        return;
    }
    CHECK(tc_frontmatter_parse(text, len, &d0, &err) != 0, "002 has no front matter, yet it reads");
    CHECK(tc_page_guess_read(text, len, &g, &err) == 0, "guess: %s", err.msg);
    /* 002 draws the same 8x14 start as Monteiro's other pages (000's front matter) */
    CHECK(g.width == kdef.width && g.height == kdef.height, "002: %dx%d, want %dx%d", g.width, g.height, kdef.width,
          kdef.height);
    CHECK(!strcmp(g.setup, kdef.setup), "002: setup '%s', want '%s'", g.setup, kdef.setup);
    CHECK(g.diagram_line > 1, "002: diagram line %d", g.diagram_line);
    CHECK(!strcmp(g.title, "Chess in a Cylindrical Board - but glued in a non-stardard way"), "002: title '%s'",
          g.title);

    th_case("page guess: the suggested front matter asks for the joins, then loads");
    char *out = NULL;
    size_t on = 0;
    FILE *mem = open_memstream(&out, &on);
    tc_page_guess_write(&g, mem);
    fclose(mem);
    tc_variant_def d;
    CHECK(out && strstr(out, "wrap: ~"), "no 'wrap: ~' to be chosen in:\n%s", out ? out : "");
    CHECK(out && tc_frontmatter_parse(out, on, &d, &err) != 0 && strstr(err.msg, "wrap"),
          "the suggestion loads before its joins are chosen, or the error does not name wrap: %s", err.msg);
    char *w = out ? strstr(out, "wrap: ~") : NULL;
    if (w) {
        /* 002 glues rank 14 to rank 1: a person chooses rank-cylinder */
        char *fixed = malloc(on + 32);
        snprintf(fixed, on + 32, "%.*swrap: rank-cylinder%s", (int)(w - out), out, strchr(w, '\n'));
        CHECK(tc_frontmatter_parse(fixed, strlen(fixed), &d, &err) == 0, "completed suggestion: %s", err.msg);
        tc_variant *v = tc_variant_new(&d, &err);
        CHECK(v != NULL, "completed suggestion is not a variant: %s", err.msg);
        tc_variant_free(v);
        free(fixed);
    }
    free(out);
    free(text);
    free(klein);

    th_case("page guess: 004 (no diagram): nothing guessed");
    text = th_read_file(SEED_FOLD, &len);
    CHECK(text && tc_page_guess_read(text, len, &g, &err) == 0, "guess 004");
    CHECK(g.width == 0 && g.height == 0 && g.setup[0] == '\0' && g.diagram_line == 0,
          "004: found %dx%d '%s' at line %d", g.width, g.height, g.setup, g.diagram_line);
    CHECK(strstr(g.note, "no board diagram") != NULL, "004: note '%s'", g.note);
    CHECK(!strcmp(g.title, "Folding Magnetic Chess"), "004: title '%s'", g.title);
    free(text);
}

static void test_bad_pages(void)
{
    tc_error err;
    tc_page_guess g;
    size_t n = 0;
    th_case("page: bad input gets a message, not a crash");
    CHECK(tc_page_reflow(NULL, 0, &n, &err) == NULL && err.msg[0], "NULL text accepted");
    char *p = tc_page_reflow("", 0, &n, &err);
    CHECK(p && n == 0, "empty page");
    free(p);
    const char *open_quote = "--- title: \"Never closed slug: x --- ## Body text that goes on and on";
    CHECK(tc_page_reflow(open_quote, strlen(open_quote), &n, &err) == NULL && strstr(err.msg, "unterminated"),
          "unterminated quote: '%s'", err.msg);
    const char *no_end = "--- title: X slug: x";
    CHECK(tc_page_reflow(no_end, strlen(no_end), &n, &err) == NULL && strstr(err.msg, "'---'"),
          "no closing marker: '%s'", err.msg);
    const char *skip = "Game\n\n 3| r | k | r |\n 1| R | K | R |\n";
    CHECK(tc_page_guess_read(skip, strlen(skip), &g, &err) == 0 && g.width == 0 && strstr(g.note, "rank 2"),
          "a skipped rank: %dx%d '%s'", g.width, g.height, g.note);
    const char *odd = " 2| r | X1 | k |\n 1| R | . | K |\n";
    CHECK(tc_page_guess_read(odd, strlen(odd), &g, &err) == 0 && g.width == 3 && g.height == 2 && !g.setup[0] &&
              strstr(g.note, "not piece letters"),
          "odd cells: %dx%d '%s' '%s'", g.width, g.height, g.setup, g.note);
    const char *fence = "## Heading with an unclosed fence ``` 2| r | k | 1| R | K | and words enough to be flat";
    p = tc_page_reflow(fence, strlen(fence), &n, &err);
    CHECK(p != NULL, "unclosed fence: %s", err.msg);
    free(p);
}

/* The pawn entry of a guide for colour and rank, or NULL. */
static const int *guide_pawn(const tc_board_guide *g, int colour, int rank)
{
    for (int i = 0; i < g->npawns; i++)
        if (g->pawns[i].colour == colour && g->pawns[i].rank == rank)
            return &g->pawns[i].colour;
    return NULL;
}

static void test_guide(void)
{
    tc_board_guide g;
    tc_error err;
    th_case("board guide: Klein bottle, as the seed page 000 describes it");
    tc_variant *v = th_variant("klein-bottle");
    if (v && tc_board_guide_compute(v, &g, &err) == 0) {
        /* "White's near pawns move forward (2->3->4...)", "far pawns move
         * backward (14->13->12...)", Black's mirrored; promotion on the
         * enemy back rank (docs/rules.md section 4) */
        static const int want[4][3] = {{0, 2, 1}, {0, 14, -1}, {1, 7, -1}, {1, 9, 1}};
        CHECK(g.npawns == 4, "%d pawn ranks, want 4", g.npawns);
        for (int i = 0; i < 4; i++) {
            const int *pw = guide_pawn(&g, want[i][0], want[i][1]);
            CHECK(pw && pw[2] == want[i][2], "colour %d rank %d: direction %d, want %d", want[i][0], want[i][1],
                  pw ? pw[2] : 99, want[i][2]);
            CHECK(pw && pw[3] == (want[i][0] ? 1 : 8), "colour %d rank %d: promotes on %d", want[i][0],
                  want[i][1], pw ? pw[3] : 0);
        }
        CHECK(g.castling[0] && g.castling[1], "castling %d %d", g.castling[0], g.castling[1]);
        CHECK(g.njoins == 3, "%d joins, want file, rank and twist", g.njoins);
        char a[8], z[8];
        for (int i = 0; i < g.njoins; i++)
            if (g.joins[i].join == TC_JOIN_TWIST) {
                tc_cell_name(v, g.joins[i].from, a);
                tc_cell_name(v, g.joins[i].to, z);
                /* the seed: "file a on rank 12 connects to file h on rank 11" */
                CHECK(!strcmp(a, "a11") && !strcmp(z, "h12"), "twist step %s -> %s", a, z);
            }
        /* no edges: 8 king and knight moves from every cell; on the flat
         * 8x14 board a corner knight has 2 */
        CHECK(g.reach_lo[0] == 8 && g.reach_hi[0] == 8 && g.reach_lo[1] == 8, "king %d-%d knight %d-%d",
              g.reach_lo[0], g.reach_hi[0], g.reach_lo[1], g.reach_hi[1]);
        CHECK(g.has_flat && g.flat_lo[0] == 3 && g.flat_lo[1] == 2 && g.flat_hi[1] == 8,
              "flat: king from %d, knight %d-%d", g.flat_lo[0], g.flat_lo[1], g.flat_hi[1]);
    } else {
        CHECK(0, "klein-bottle guide: %s", v ? err.msg : "no variant");
    }
    tc_variant_free(v);

    th_case("board guide: chess has no joins, pawns one way, bishops 7 to 13 cells");
    v = th_variant("chess");
    if (v && tc_board_guide_compute(v, &g, &err) == 0) {
        CHECK(g.njoins == 0, "%d joins on chess", g.njoins);
        const int *w = guide_pawn(&g, 0, 2), *b = guide_pawn(&g, 1, 7);
        CHECK(g.npawns == 2 && w && w[2] == 1 && w[3] == 8 && b && b[2] == -1 && b[3] == 1, "chess pawns");
        CHECK(g.reach_lo[2] == 7 && g.reach_hi[2] == 13, "bishop %d-%d", g.reach_lo[2], g.reach_hi[2]);
        CHECK(g.reach_lo[1] == g.flat_lo[1] && g.reach_hi[1] == g.flat_hi[1], "chess is its own flat board");
    }
    tc_variant_free(v);

    th_case("board guide: the folded board's fold sends a step back onto its own rank");
    v = th_variant("folding");
    if (v && tc_board_guide_compute(v, &g, &err) == 0) {
        int fold = -1;
        for (int i = 0; i < g.njoins; i++)
            if (g.joins[i].join == TC_JOIN_FOLD)
                fold = i;
        CHECK(fold >= 0, "no fold found");
        if (fold >= 0)
            CHECK(g.joins[fold].from / 8 == g.joins[fold].to / 8, "a fold step changes rank: %d -> %d",
                  g.joins[fold].from, g.joins[fold].to);
    }
    tc_variant_free(v);
}

void suite_page(void)
{
    test_guide();
    test_flat_seeds();
    test_plain_seeds();
    test_guess();
    test_bad_pages();
}
