/* Topology: the step function of docs/rules.md section 2 (worked examples, an
 * refgen's independent reading of the rules text, invertibility) and the
 * tables derived from it (rays, king and knight leaps), cell names, and
 * custom boards up to 16x16. */
#include "harness.h"
#include "refgen.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const int dir_dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_dy[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const char *const dir_name[8] = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};

static int dir_of(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (dir_dx[d] == dx && dir_dy[d] == dy)
            return d;
    return -1;
}

/* Checks one step: `to` NULL means OFF; otherwise the cell reached and the
 * direction (by name) the piece goes on in. */
static void check_step(const tc_variant *v, const char *from, const char *dir, const char *to,
                       const char *newdir)
{
    int d = -1;
    for (int i = 0; i < 8; i++)
        if (strcmp(dir_name[i], dir) == 0)
            d = i;
    int c = th_cell(v, from);
    if (c < 0 || d < 0)
        return;
    tc_step_result r = tc_step(v, c, dir_dx[d], dir_dy[d]);
    char got[8];
    tc_cell_name(v, r.cell, got);
    if (!to) {
        CHECK(r.cell < 0, "%s %s should leave the board, got %s", from, dir, got);
        return;
    }
    CHECK(r.cell == th_cell(v, to), "%s %s -> %s, expected %s", from, dir, got, to);
    int nd = dir_of(r.dx, r.dy);
    CHECK(nd >= 0 && strcmp(dir_name[nd], newdir) == 0, "%s %s: new direction (%d,%d), expected %s", from,
          dir, r.dx, r.dy, newdir);
}

static void check_against_rules(const tc_variant *v, const char *label)
{
    const tc_variant_def *def = tc_variant_def_of(v);
    int W = tc_variant_width(v), bad = 0;
    for (int c = 0; c < tc_variant_cells(v); c++)
        for (int d = 0; d < 8; d++) {
            rg_step e = rg_rules_step(def, c % W, c / W, dir_dx[d], dir_dy[d]);
            tc_step_result r = tc_step(v, c, dir_dx[d], dir_dy[d]);
            int ecell = e.off ? -1 : e.y * W + e.x;
            bool ok = r.cell == ecell;
            if (ok && ecell >= 0)
                ok = r.dx == e.dx && r.dy == e.dy && r.sx == e.sx && r.sy == e.sy;
            if (!ok && bad++ < 3) {
                char a[8], b[8], g[8];
                tc_cell_name(v, c, a);
                tc_cell_name(v, ecell, b);
                tc_cell_name(v, r.cell, g);
                CHECK(0, "%s: %s %s gives %s (%d,%d) tf (%d,%d); rules say %s (%d,%d) tf (%d,%d)", label, a,
                      dir_name[d], g, r.dx, r.dy, r.sx, r.sy, b, e.dx, e.dy, e.sx, e.sy);
            }
        }
    CHECK(bad == 0, "%s: %d steps differ from the rules text", label, bad);
}

/* step(c, d) = (c', d') implies step(c', -d') = (c, -d); and the new
 * direction is the old one under the step's frame transform. */
static void check_invertible(const tc_variant *v, const char *label)
{
    int bad = 0;
    for (int c = 0; c < tc_variant_cells(v); c++)
        for (int d = 0; d < 8; d++) {
            tc_step_result r = tc_step(v, c, dir_dx[d], dir_dy[d]);
            if (r.cell < 0)
                continue;
            tc_step_result b = tc_step(v, r.cell, -r.dx, -r.dy);
            bool ok = b.cell == c && b.dx == -dir_dx[d] && b.dy == -dir_dy[d];
            bool frame = r.dx == dir_dx[d] * r.sx && r.dy == dir_dy[d] * r.sy;
            if ((!ok || !frame) && bad++ < 3) {
                char a[8], m[8], z[8];
                tc_cell_name(v, c, a);
                tc_cell_name(v, r.cell, m);
                tc_cell_name(v, b.cell, z);
                CHECK(0, "%s: %s %s -> %s (%d,%d); stepping back gives %s (%d,%d); tf (%d,%d)", label, a,
                      dir_name[d], m, r.dx, r.dy, z, b.dx, b.dy, r.sx, r.sy);
            }
        }
    CHECK(bad == 0, "%s: %d steps are not invertible", label, bad);
}

static bool contains(const int *list, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (list[i] == x)
            return true;
    return false;
}

static void add_unique(int *list, int *n, int x, int self)
{
    if (x >= 0 && x != self && !contains(list, *n, x))
        list[(*n)++] = x;
}

/* Same elements, no duplicates in the library's list. */
static bool same_set(const int *got, int ng, const int *want, int nw)
{
    if (ng != nw)
        return false;
    for (int i = 0; i < ng; i++) {
        if (!contains(want, nw, got[i]))
            return false;
        for (int j = 0; j < i; j++)
            if (got[j] == got[i])
                return false;
    }
    return true;
}

static void check_tables(const tc_variant *v, const char *label)
{
    int n = tc_variant_cells(v), bad_ray = 0, bad_king = 0, bad_knight = 0;
    int *got = malloc(sizeof(int) * TC_MAX_CELLS), *want = malloc(sizeof(int) * TC_MAX_CELLS);
    if (!got || !want) {
        CHECK(0, "out of memory");
        free(got);
        free(want);
        return;
    }
    for (int c = 0; c < n; c++) {
        char a[8];
        tc_cell_name(v, c, a);
        for (int d = 0; d < 8; d++) {
            /* the ray by repeated steps: ends off board or at its own cell;
             * the (cell, direction) pairs form a cycle, so 8 * n steps bound it */
            int nw = 0, cur = c, dx = dir_dx[d], dy = dir_dy[d];
            for (int i = 0; i < 8 * n + 8; i++) {
                tc_step_result r = tc_step(v, cur, dx, dy);
                if (r.cell < 0 || r.cell == c)
                    break;
                cur = r.cell;
                dx = r.dx;
                dy = r.dy;
                if (!contains(want, nw, cur))
                    want[nw++] = cur;
            }
            int ng = tc_ray(v, c, d, got);
            bool ok = ng == nw && memcmp(got, want, sizeof(int) * (size_t)nw) == 0;
            if (!ok && bad_ray++ < 3)
                CHECK(0, "%s: ray %s %s has %d cells, repeated steps give %d (or a different order)", label, a,
                      dir_name[d], ng, nw);
        }
        int nw = 0;
        for (int d = 0; d < 8; d++)
            add_unique(want, &nw, tc_step(v, c, dir_dx[d], dir_dy[d]).cell, c);
        int ng = tc_king_targets(v, c, got);
        if (!same_set(got, ng, want, nw) && bad_king++ < 3)
            CHECK(0, "%s: king on %s has %d targets, the definition gives %d", label, a, ng, nw);

        nw = 0;
        for (int d = 0; d < 8; d += 2) {
            tc_step_result r1 = tc_step(v, c, dir_dx[d], dir_dy[d]);
            if (r1.cell < 0)
                continue;
            for (int side = -1; side <= 1; side += 2) {
                /* outward diagonal in the original frame, then carried into
                 * the frame reached by the first step */
                int ddx = dir_dx[d] != 0 ? dir_dx[d] : side;
                int ddy = dir_dy[d] != 0 ? dir_dy[d] : side;
                tc_step_result r2 = tc_step(v, r1.cell, ddx * r1.sx, ddy * r1.sy);
                add_unique(want, &nw, r2.cell, c);
            }
        }
        ng = tc_knight_targets(v, c, got);
        if (!same_set(got, ng, want, nw) && bad_knight++ < 3)
            CHECK(0, "%s: knight on %s has %d targets, the definition gives %d", label, a, ng, nw);
    }
    CHECK(bad_ray + bad_king + bad_knight == 0, "%s: %d rays, %d king and %d knight lists differ", label,
          bad_ray, bad_king, bad_knight);
    free(got);
    free(want);
}

static void worked_examples(void)
{
    static const char *const twisted[] = {"mobius", "klein-bottle"};
    for (int i = 0; i < 2; i++) {
        th_case("topology: %s worked examples (seam after 11)", twisted[i]);
        tc_variant *v = th_variant(twisted[i]);
        if (!v)
            continue;
        check_step(v, "a11", "N", "h12", "N");
        check_step(v, "b12", "S", "g11", "S");
        check_step(v, "f11", "NE", "b12", "NW");
        /* the way back undoes it */
        check_step(v, "h12", "S", "a11", "S");
        check_step(v, "b12", "SE", "f11", "SW");
        /* the plain 14|1 join does not mirror */
        check_step(v, "c14", "N", "c1", "N");
        check_step(v, "c1", "SW", "b14", "SW");
        tc_variant_free(v);
    }

    th_case("topology: klein-bottle h11 NE -> h12");
    tc_variant *k = th_variant("klein-bottle");
    if (k) {
        check_step(k, "h11", "NE", "h12", "NW");
        check_step(k, "h5", "E", "a5", "E");
        tc_variant_free(k);
    }

    th_case("topology: mobius h11 NE leaves the board");
    tc_variant *m = th_variant("mobius");
    if (m) {
        check_step(m, "h11", "NE", NULL, NULL);
        check_step(m, "h5", "E", NULL, NULL);
        check_step(m, "a5", "W", NULL, NULL);
        tc_variant_free(m);
    }

    th_case("topology: folding e8 N, NE, NW");
    tc_variant *f = th_variant("folding");
    if (f) {
        check_step(f, "e8", "N", "d8", "S");
        check_step(f, "e8", "NE", "c8", "SW");
        check_step(f, "e8", "NW", "e8", "SE");
        check_step(f, "e1", "S", "d1", "N");
        check_step(f, "e1", "SE", "c1", "NW");
        check_step(f, "a4", "W", "h4", "W");
        tc_variant_free(f);
    }

    th_case("topology: plain joins on cylinder, monteiro-cylinder, torus; chess edges");
    tc_variant *cy = th_variant("cylinder"), *mc = th_variant("monteiro-cylinder"), *to = th_variant("torus");
    tc_variant *ch = th_variant("chess");
    if (cy && mc && to && ch) {
        check_step(cy, "a1", "W", "h1", "W");
        check_step(cy, "h8", "N", NULL, NULL);
        check_step(mc, "e14", "N", "e1", "N");
        check_step(mc, "a3", "W", NULL, NULL);
        check_step(to, "a1", "SW", "h14", "SW");
        check_step(to, "h14", "NE", "a1", "NE");
        check_step(ch, "a1", "SW", NULL, NULL);
        check_step(ch, "h8", "NE", NULL, NULL);
        check_step(ch, "d4", "NE", "e5", "NE");
    }
    tc_variant_free(cy);
    tc_variant_free(mc);
    tc_variant_free(to);
    tc_variant_free(ch);
}

static void cell_names(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        th_case("topology: %s cell names round trip", def->name);
        tc_error err;
        tc_variant *v = tc_variant_new(def, &err);
        CHECK(v != NULL, "variant %s: %s", def->name, err.msg);
        if (!v)
            continue;
        for (int c = 0; c < tc_variant_cells(v); c++) {
            char buf[8];
            tc_cell_name(v, c, buf);
            CHECK(tc_cell_parse(v, buf) == c, "cell %d named '%s' parses back as %d", c, buf,
                  tc_cell_parse(v, buf));
            CHECK(tc_cell(v, tc_cell_x(v, c), tc_cell_y(v, c)) == c, "cell %d: x/y do not rebuild it", c);
        }
        tc_variant_free(v);
    }

    th_case("topology: multi-digit ranks and rejects");
    tc_variant *m = th_variant("mobius"), *c8 = th_variant("chess");
    if (m && c8) {
        CHECK(tc_cell_parse(m, "d12") == tc_cell(m, 3, 11), "d12");
        CHECK(tc_cell_parse(m, "h14") == tc_cell(m, 7, 13), "h14");
        CHECK(tc_cell_parse(m, "a10") == tc_cell(m, 0, 9), "a10");
        CHECK(tc_cell_parse(m, "a1") == 0, "a1");
        char buf[8];
        tc_cell_name(m, tc_cell(m, 3, 11), buf);
        CHECK(strcmp(buf, "d12") == 0, "name of (3,11) is '%s'", buf);
        tc_cell_name(m, tc_cell(m, 7, 13), buf);
        CHECK(strcmp(buf, "h14") == 0, "name of (7,13) is '%s'", buf);
        static const char *const bad14[] = {"i1", "a0", "a15", "a", "", "a1x", "1a", "A1", "a01", "a-1",
                                            "h140", "a 1"};
        for (size_t i = 0; i < sizeof bad14 / sizeof bad14[0]; i++)
            CHECK(tc_cell_parse(m, bad14[i]) < 0, "'%s' accepted on 8x14", bad14[i]);
        static const char *const bad8[] = {"a9", "i8", "a10", "h0"};
        for (size_t i = 0; i < sizeof bad8 / sizeof bad8[0]; i++)
            CHECK(tc_cell_parse(c8, bad8[i]) < 0, "'%s' accepted on 8x8", bad8[i]);
        CHECK(tc_cell(c8, 8, 0) < 0 && tc_cell(c8, 0, 8) < 0 && tc_cell(c8, -1, 0) < 0, "tc_cell bounds");
    }
    tc_variant_free(m);
    tc_variant_free(c8);
}

/* A W x H board with only two kings, on e1 and on the middle rank: kings
 * on the end ranks would touch across a rank join. */
static tc_variant *custom(int W, int H, tc_file_rule files, tc_rank_rule ranks, int seam)
{
    return th_kings_variant(W, H, files, ranks, seam, H / 2);
}

static void custom_boards(void)
{
    th_case("topology: custom 10x16 torus builds and steps at the corners");
    tc_variant *t = custom(10, 16, TC_FILES_WRAP, TC_RANKS_WRAP, 0);
    if (t) {
        CHECK(tc_variant_width(t) == 10 && tc_variant_height(t) == 16 && tc_variant_cells(t) == 160, "size");
        check_step(t, "a1", "SW", "j16", "SW");
        check_step(t, "j16", "NE", "a1", "NE");
        check_step(t, "j1", "E", "a1", "E");
        check_step(t, "a16", "N", "a1", "N");
        CHECK(tc_cell_parse(t, "j16") == 159 && tc_cell_parse(t, "k1") < 0 && tc_cell_parse(t, "a17") < 0,
              "10x16 cell names");
        check_against_rules(t, "10x16 torus");
        check_invertible(t, "10x16 torus");
        check_tables(t, "10x16 torus");
        tc_variant_free(t);
    }

    th_case("topology: custom 10x16 flat board corners");
    tc_variant *f = custom(10, 16, TC_FILES_OPEN, TC_RANKS_OPEN, 0);
    if (f) {
        check_step(f, "a1", "SW", NULL, NULL);
        check_step(f, "j16", "NE", NULL, NULL);
        check_step(f, "j16", "SW", "i15", "SW");
        int out[8];
        CHECK(tc_king_targets(f, tc_cell_parse(f, "a1"), out) == 3, "king in the corner has 3 targets");
        CHECK(tc_knight_targets(f, tc_cell_parse(f, "j16"), out) == 2, "knight in the corner has 2 targets");
        check_tables(f, "10x16 flat");
        tc_variant_free(f);
    }

    th_case("topology: custom 16x16 twist on the 16|1 join");
    tc_variant *m = custom(16, 16, TC_FILES_OPEN, TC_RANKS_TWIST, 16);
    if (m) {
        check_step(m, "a16", "N", "p1", "N");
        check_step(m, "p1", "S", "a16", "S");
        check_step(m, "b16", "NE", "n1", "NW");
        check_step(m, "p16", "NE", NULL, NULL);
        check_step(m, "p8", "N", "p9", "N");
        CHECK(tc_cell_parse(m, "p16") == 255, "p16 is the last cell");
        check_against_rules(m, "16x16 twist 16");
        check_invertible(m, "16x16 twist 16");
        check_tables(m, "16x16 twist 16");
        tc_variant_free(m);
    }

    th_case("topology: custom 16x16 folding board");
    tc_variant *fo = custom(16, 16, TC_FILES_WRAP, TC_RANKS_FOLD, 0);
    if (fo) {
        check_step(fo, "a16", "N", "p16", "S");
        check_step(fo, "p1", "SE", "p1", "NW"); /* x 15+1 wraps to 0, then is mirrored back to 15 */
        check_step(fo, "o1", "SE", "a1", "NW");
        check_step(fo, "h16", "NE", "h16", "SW");
        check_against_rules(fo, "16x16 fold");
        check_invertible(fo, "16x16 fold");
        check_tables(fo, "16x16 fold");
        tc_variant_free(fo);
    }

    th_case("topology: custom 16x10 klein bottle, seam 3");
    tc_variant *k = custom(16, 10, TC_FILES_WRAP, TC_RANKS_TWIST, 3);
    if (k) {
        check_step(k, "a3", "N", "p4", "N");
        check_step(k, "p3", "NE", "p4", "NW");
        check_step(k, "a10", "N", "a1", "N");
        check_against_rules(k, "16x10 klein seam 3");
        check_invertible(k, "16x10 klein seam 3");
        check_tables(k, "16x10 klein seam 3");
        tc_variant_free(k);
    }
}

void suite_topology(void)
{
    worked_examples();
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        tc_error err;
        th_case("topology: %s steps follow the rules text", def->name);
        tc_variant *v = tc_variant_new(def, &err);
        CHECK(v != NULL, "variant %s: %s", def->name, err.msg);
        if (!v)
            continue;
        check_against_rules(v, def->name);
        th_case("topology: %s steps are invertible", def->name);
        check_invertible(v, def->name);
        th_case("topology: %s rays and leaps match the step function", def->name);
        check_tables(v, def->name);
        tc_variant_free(v);
    }
    cell_names();
    custom_boards();
}
