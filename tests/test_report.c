/* Topology report: the computed figures against facts worked out here from
 * the docs/rules.md step function (refgen's, which reads no library table), the
 * seed facts of docs/rules.md section 8, and the classification of the surfaces
 * the presets are meant to be. */
#include "harness.h"
#include "refgen.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const int DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DY[8] = {1, 1, 0, -1, -1, -1, 0, 1};

/* Cells of a ray by the rules: each once, stopping off the board or on
 * returning to the start. Returns the count. */
static int rules_ray(const tc_variant_def *d, int c, int dx, int dy, int *out)
{
    int W = d->width, x = c % W, y = c / W, n = 0;
    char seen[TC_MAX_CELLS] = {0};
    for (int guard = 0; guard < 8 * TC_MAX_CELLS; guard++) {
        rg_step s = rg_rules_step(d, x, y, dx, dy);
        if (s.off)
            break;
        int to = s.y * W + s.x;
        if (to == c)
            break;
        if (!seen[to]) {
            seen[to] = 1;
            out[n++] = to;
        }
        x = s.x, y = s.y, dx = s.dx, dy = s.dy;
    }
    return n;
}

/* Distinct cells in a list, the own cell and -1 excluded. */
static int distinct(const int *list, int n, int self)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (list[i] < 0 || list[i] == self)
            continue;
        int j = 0;
        while (j < i && list[j] != list[i])
            j++;
        count += j == i;
    }
    return count;
}

static int rules_king(const tc_variant_def *d, int c)
{
    int W = d->width, to[8];
    for (int k = 0; k < 8; k++) {
        rg_step s = rg_rules_step(d, c % W, c / W, DX[k], DY[k]);
        to[k] = s.off ? -1 : s.y * W + s.x;
    }
    return distinct(to, 8, c);
}

static int rules_knight(const tc_variant_def *d, int c)
{
    int W = d->width, to[8], n = 0;
    for (int k = 0; k < 8; k += 2)
        for (int side = -1; side <= 1; side += 2) {
            rg_step a = rg_rules_step(d, c % W, c / W, DX[k], DY[k]);
            if (a.off) {
                to[n++] = -1;
                continue;
            }
            /* the outward diagonal in the frame reached after step one */
            int dx = (DX[k] ? DX[k] : side) * a.sx, dy = (DY[k] ? DY[k] : side) * a.sy;
            rg_step b = rg_rules_step(d, a.x, a.y, dx, dy);
            to[n++] = b.off ? -1 : b.y * W + b.x;
        }
    return distinct(to, 8, c);
}

static int rules_slider(const tc_variant_def *d, int c, int diagonal)
{
    char hit[TC_MAX_CELLS] = {0};
    int ray[TC_MAX_CELLS], count = 0;
    for (int k = diagonal ? 1 : 0; k < 8; k += 2) {
        int n = rules_ray(d, c, DX[k], DY[k], ray);
        for (int i = 0; i < n; i++)
            if (!hit[ray[i]]) {
                hit[ray[i]] = 1;
                count++;
            }
    }
    return count;
}

static tc_report *report_of(const tc_variant *v)
{
    tc_report *r = malloc(sizeof *r);
    if (r)
        tc_report_compute(v, r);
    return r;
}

/// What each preset's board is as a surface, and its bishop and file facts.
typedef struct {
    const char *name;
    int orientable, euler, boundaries;
    const char *surface;
    int colour_bound;
    const char *files; /* the file classes as printed */
} t_expect;

static const t_expect expected[] = {
    {"chess", 1, 1, 1, "disk", 1, "{a} {b} {c} {d} {e} {f} {g} {h}"},
    {"cylinder", 1, 0, 2, "annulus (cylinder)", 1, "{a} {b} {c} {d} {e} {f} {g} {h}"},
    {"monteiro-cylinder", 1, 0, 2, "annulus (cylinder)", 1, "{a} {b} {c} {d} {e} {f} {g} {h}"},
    {"torus", 1, 0, 0, "torus", 1, "{a} {b} {c} {d} {e} {f} {g} {h}"},
    {"mobius", 0, 0, 1, "Moebius band", 0, "{a,h} {b,g} {c,f} {d,e}"},
    {"klein-bottle", 0, 0, 0, "Klein bottle", 0, "{a,h} {b,g} {c,f} {d,e}"},
    {"folding", 1, 2, 0, "sphere", 1, "{a,h} {b,g} {c,f} {d,e}"},
};

static void file_classes_text(const tc_report *r, char *buf)
{
    buf[0] = '\0';
    for (int x = 0; x < r->W; x++) {
        if (r->file_class[x] != x)
            continue;
        strcat(buf, *buf ? " {" : "{");
        for (int y = x, first = 1; y < r->W; y++)
            if (r->file_class[y] == x) {
                char f[3] = {',', (char)('a' + y), 0};
                strcat(buf, first ? f + 1 : f);
                first = 0;
            }
        strcat(buf, "}");
    }
}

/* A closed walk of orthogonal steps whose mirrors multiply to -1. */
static void check_flip_loop(const tc_variant *v, const tc_report *r)
{
    const tc_variant_def *d = tc_variant_def_of(v);
    int W = d->width, sign = 1;
    CHECK(r->flip_loop_len >= 3, "loop too short: %d", r->flip_loop_len);
    CHECK(r->flip_loop[0] == r->flip_loop[r->flip_loop_len - 1], "loop not closed");
    for (int i = 0; i + 1 < r->flip_loop_len; i++) {
        int p = r->flip_loop[i], q = r->flip_loop[i + 1], found = 0;
        for (int k = 0; k < 8 && !found; k += 2) {
            rg_step s = rg_rules_step(d, p % W, p / W, DX[k], DY[k]);
            if (!s.off && s.y * W + s.x == q) {
                found = 1;
                sign *= s.sx * s.sy;
            }
        }
        CHECK(found, "loop step %d is not an orthogonal step", i);
    }
    CHECK(sign == -1, "loop does not reverse orientation");
}

static void test_presets(void)
{
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const t_expect *e = &expected[i];
        th_case("report %s: surface, colour, file classes", e->name);
        tc_variant *v = th_variant(e->name);
        tc_report *r = v ? report_of(v) : NULL;
        if (!r) {
            tc_variant_free(v);
            continue;
        }
        CHECK(r->orientable == e->orientable, "orientable %d", r->orientable);
        CHECK(r->is_surface, "not a surface");
        CHECK(r->euler == e->euler, "Euler characteristic %d, want %d", r->euler, e->euler);
        CHECK(r->boundaries == e->boundaries, "boundaries %d, want %d", r->boundaries, e->boundaries);
        CHECK(strcmp(r->surface, e->surface) == 0, "surface '%s', want '%s'", r->surface, e->surface);
        CHECK(r->colour_bound == e->colour_bound, "colour bound %d", r->colour_bound);
        char files[80];
        file_classes_text(r, files);
        CHECK(strcmp(files, e->files) == 0, "file classes '%s', want '%s'", files, e->files);
        if (!r->orientable)
            check_flip_loop(v, r);

        th_case("report %s: per-cell counts match a walk of the rules", e->name);
        const tc_variant_def *d = tc_variant_def_of(v);
        for (int c = 0; c < r->ncells; c++) {
            int k = rules_king(d, c), n = rules_knight(d, c);
            int b = rules_slider(d, c, 1), ro = rules_slider(d, c, 0);
            CHECK(r->king[c].distinct == k, "cell %d king %d want %d", c, r->king[c].distinct, k);
            CHECK(r->knight[c].distinct == n, "cell %d knight %d want %d", c, r->knight[c].distinct, n);
            CHECK(r->bishop[c] == b, "cell %d bishop %d want %d", c, r->bishop[c], b);
            CHECK(r->rook[c] == ro, "cell %d rook %d want %d", c, r->rook[c], ro);
            int tally = r->king[c].distinct + r->king[c].off + r->king[c].self + r->king[c].dup;
            CHECK(tally == 8, "cell %d king tally %d", c, tally);
            bool degenerate = k < 8 || r->king[c].self > 0 || n < 8;
            CHECK(degenerate == (r->degenerate[c] != 0), "cell %d degenerate flag", c);
        }
        free(r);
        tc_variant_free(v);
    }
}

static void test_folding_king(void)
{
    th_case("report folding: 56 cells with 8 king moves, 8 with 6 (RULES 8.5)");
    tc_variant *v = th_variant("folding");
    tc_report *r = v ? report_of(v) : NULL;
    if (!r) {
        tc_variant_free(v);
        return;
    }
    static const char *const six[] = {"a1", "d1", "e1", "h1", "a8", "d8", "e8", "h8"};
    int eight = 0;
    for (int c = 0; c < r->ncells; c++)
        eight += r->king[c].distinct == 8 && r->king[c].self == 0;
    CHECK(eight == 56, "%d cells with 8", eight);
    for (int i = 0; i < 8; i++) {
        int c = th_cell(v, six[i]);
        CHECK(r->king[c].distinct == 6, "%s: %d", six[i], r->king[c].distinct);
        CHECK(r->king[c].self == 1 && r->king[c].dup == 1 && r->king[c].off == 0,
              "%s: self %d dup %d off %d", six[i], r->king[c].self, r->king[c].dup, r->king[c].off);
        CHECK(r->degenerate[c] & 1, "%s not flagged", six[i]);
    }
    /* the four corners where only two cells meet are the fold's fixed points */
    CHECK(r->ncones == 4, "cone points %d", r->ncones);
    for (int i = 0; i < r->ncones; i++)
        CHECK(r->cone_angle[i] == 180, "cone angle %d", r->cone_angle[i]);
    free(r);
    tc_variant_free(v);
}

static void test_colour(void)
{
    th_case("report mobius: a bishop changes colour (RULES 8.4)");
    tc_variant *v = th_variant("mobius");
    tc_report *r = v ? report_of(v) : NULL;
    if (!r) {
        tc_variant_free(v);
        return;
    }
    const tc_variant_def *d = tc_variant_def_of(v);
    /* the seed's own example, walked with the rules */
    int ray[TC_MAX_CELLS], a6 = th_cell(v, "a6");
    int n = rules_ray(d, a6, 1, 1, ray);
    static const char *const want[] = {"b7", "c8", "d9", "e10", "f11", "b12"};
    CHECK(n >= 6, "a6 NE ray has %d cells", n);
    for (int i = 0; i < 6 && i < n; i++)
        CHECK(ray[i] == th_cell(v, want[i]), "a6 NE ray cell %d", i);
    /* the report's example is one real bishop move ending on the other colour */
    CHECK(!r->colour_bound && r->colour_path_len >= 2, "no example path");
    if (r->colour_path_len >= 2) {
        int s = r->colour_path[0], e = r->colour_path[r->colour_path_len - 1];
        CHECK((s % 8 + s / 8) % 2 != (e % 8 + e / 8) % 2, "example keeps the colour");
        int ok = 0;
        for (int k = 1; k < 8 && !ok; k += 2) {
            n = rules_ray(d, s, DX[k], DY[k], ray);
            ok = n >= r->colour_path_len - 1 &&
                 memcmp(ray, r->colour_path + 1, sizeof(int) * (size_t)(r->colour_path_len - 1)) == 0;
        }
        CHECK(ok, "example is not a bishop ray");
    }
    free(r);
    tc_variant_free(v);
}

static void test_looks(void)
{
    static const struct {
        const char *name, *faced;
        int len;
    } cases[] = {
        {"mobius", "d1", 7}, {"klein-bottle", "d1", 7}, {"monteiro-cylinder", "e1", 7}, {"torus", "e1", 7},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("report %s: e8 looking N faces %s (RULES 8.3)", cases[i].name, cases[i].faced);
        tc_variant *v = th_variant(cases[i].name);
        tc_report *r = v ? report_of(v) : NULL;
        if (!r) {
            tc_variant_free(v);
            continue;
        }
        const tc_report_look *l = &r->look[TC_BLACK][0];
        CHECK(r->king_cell[TC_BLACK] == th_cell(v, "e8"), "black king cell");
        CHECK(l->end == 0 && l->faced == th_cell(v, cases[i].faced), "faced %d", l->faced);
        /* the rules' ray from e8 going N, cut at the faced cell */
        int ray[TC_MAX_CELLS];
        int n = rules_ray(tc_variant_def_of(v), th_cell(v, "e8"), 0, 1, ray);
        CHECK(l->len == cases[i].len && n >= l->len, "length %d", l->len);
        for (int j = 0; j < l->len && j < n; j++)
            CHECK(l->cells[j] == ray[j], "cell %d differs", j);
        free(r);
        tc_variant_free(v);
    }
    th_case("report chess: e8 looking N leaves the board at once");
    tc_variant *v = th_variant("chess");
    tc_report *r = v ? report_of(v) : NULL;
    if (r) {
        CHECK(r->look[TC_BLACK][0].end == 1 && r->look[TC_BLACK][0].len == 0, "chess e8 N");
        CHECK(r->look[TC_WHITE][0].faced == th_cell(v, "e8"), "chess e1 N faces e8");
    }
    free(r);
    tc_variant_free(v);
}

static void test_bishop_reach(void)
{
    static const struct {
        const char *name;
        int all;
    } cases[] = {{"chess", 32}, {"torus", 56}, {"mobius", 112}, {"klein-bottle", 112}, {"folding", 32}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("report %s: bishop reach from the start cells", cases[i].name);
        tc_variant *v = th_variant(cases[i].name);
        tc_report *r = v ? report_of(v) : NULL;
        if (!r) {
            tc_variant_free(v);
            continue;
        }
        CHECK(r->nbishops == 4, "%d bishops", r->nbishops);
        for (int b = 0; b < r->nbishops; b++) {
            int c = r->bishop_cell[b];
            CHECK(r->bishop_reach1[b] == rules_slider(tc_variant_def_of(v), c, 1), "one-move reach");
            CHECK(r->bishop_reach_all[b] == cases[i].all, "any-move reach %d", r->bishop_reach_all[b]);
        }
        free(r);
        tc_variant_free(v);
    }
}

/* Boards built from fields rather than presets. */
static void test_custom(void)
{
    static const struct {
        int W, H;
        tc_file_rule files;
        tc_rank_rule ranks;
        int seam;
        const char *setup, *surface;
        int euler;
    } cases[] = {
        {5, 6, TC_FILES_WRAP, TC_RANKS_FOLD, 0, "k4/5/5/5/5/4K", "sphere", 2},
        {5, 6, TC_FILES_OPEN, TC_RANKS_TWIST, 6, "2k2/5/5/5/5/K4", "Moebius band", 0},
        {6, 5, TC_FILES_WRAP, TC_RANKS_TWIST, 5, "2k3/6/6/6/K5", "Klein bottle", 0},
        {6, 5, TC_FILES_OPEN, TC_RANKS_WRAP, 0, "k5/6/6/6/5K", "annulus (cylinder)", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("report custom %dx%d board is a %s", cases[i].W, cases[i].H, cases[i].surface);
        tc_variant_def def;
        tc_error err;
        th_def(&def, "custom", cases[i].W, cases[i].H, cases[i].files, cases[i].ranks, cases[i].seam,
               cases[i].setup);
        tc_variant *v = tc_variant_new(&def, &err);
        CHECK(v != NULL, "variant: %s", err.msg);
        tc_report *r = v ? report_of(v) : NULL;
        if (r) {
            CHECK(r->is_surface, "not a surface");
            CHECK(r->euler == cases[i].euler, "Euler %d", r->euler);
            CHECK(strcmp(r->surface, cases[i].surface) == 0, "surface '%s'", r->surface);
            for (int c = 0; c < r->ncells; c++)
                CHECK(r->king[c].distinct == rules_king(&def, c), "cell %d king", c);
        }
        free(r);
        tc_variant_free(v);
    }
}

static void test_text(void)
{
    th_case("report klein-bottle: printed text");
    tc_variant *v = th_variant("klein-bottle");
    if (!v)
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL, "open_memstream");
    if (f) {
        tc_topology_report(v, f);
        fclose(f);
        static const char *const lines[] = {
            "Topology report: klein-bottle",
            "files wrap, ranks twist 11",
            "orientable:        no",
            "surface:           Klein bottle",
            "colour-bound: no",
            "{a,h} {b,g} {c,f} {d,e}",
            "N: faces the White queen on d1 after 7 steps",
            "e9[p] e10 e11 d12 d13 d14[P] d1[Q]",
            "\"files a and h equivalent to d and e\": does not hold",
        };
        for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
            CHECK(strstr(text, lines[i]) != NULL, "missing '%s'", lines[i]);
        /* lines stay readable in a terminal */
        int longest = 0, col = 0;
        for (size_t i = 0; i < len; i++) {
            col = text[i] == '\n' ? 0 : col + 1;
            if (col > longest)
                longest = col;
        }
        CHECK(longest <= 80, "a line has %d columns", longest);
    }
    free(text);
    tc_variant_free(v);
}

/* The CLI binary: $TC_BIN, else `topochess` beside the test runner (the
 * Makefile's B=... BIN=... layout), else a fresh ./topochess (`make test`). */
static int find_cli(char *buf, size_t n)
{
    const char *env = getenv("TC_BIN");
    if (env) {
        snprintf(buf, n, "%s", env);
        return access(buf, X_OK) == 0;
    }
    char exe[400];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, n, "%s/topochess", exe);
            if (access(buf, X_OK) == 0)
                return 1;
        }
    }
    /* ./topochess only when built after this runner, so never a stale one */
    struct stat cli, self;
    snprintf(buf, n, "./topochess");
    return access(buf, X_OK) == 0 && stat(buf, &cli) == 0 && stat("/proc/self/exe", &self) == 0 &&
           cli.st_mtime >= self.st_mtime;
}

static void test_cli(void)
{
    char bin[420];
    if (!find_cli(bin, sizeof bin))
        return; /* no binary built: nothing to run */
    th_case("report: topochess topology --variant klein-bottle");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s topology --variant klein-bottle", bin);
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL, "popen");
    if (!p)
        return;
    char line[256];
    int surface = 0;
    while (fgets(line, sizeof line, p))
        surface |= strstr(line, "Klein bottle") != NULL;
    int status = pclose(p);
    CHECK(status == 0, "exit status %d", status);
    CHECK(surface, "no surface line");
}

void suite_report(void)
{
    test_presets();
    test_folding_king();
    test_colour();
    test_looks();
    test_bishop_reach();
    test_custom();
    test_text();
    test_cli();
}
