/* docs/rules.md section 3 as clarified: `wrap` only sets defaults and `files:`,
 * `ranks:` and `seam:` override their part; the boards such pages describe
 * step as the step function says and give the perft counts of the plain
 * reference generator; refused setups say why. Also: every step's join flags
 * agree with the reference step function. */
#include "harness.h"
#include "refgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A page with the given topology line and setup. */
static tc_variant *page_variant(const char *topology, const char *setup, tc_error *e)
{
    char page[1024];
    snprintf(page, sizeof page, "---\ntitle: Override\nengine:\n  topology: {%s}\n  setup: \"%s\"\n---\n",
             topology, setup);
    tc_variant_def d;
    e->msg[0] = '\0';
    if (tc_frontmatter_parse(page, strlen(page), &d, e))
        return NULL;
    return tc_variant_new(&d, e);
}

/* Perft of the start position by the library and by refgen agree. */
static void check_perft_against_refgen(tc_variant *v, int depth, const char *what)
{
    tc_position *p = tc_position_new(v);
    rg_board b;
    CHECK(p && rg_board_from(p, &b) == 0, "%s: refgen cannot read the position", what);
    if (p && rg_board_from(p, &b) == 0)
        for (int d = 1; d <= depth; d++) {
            uint64_t lib = tc_perft(p, d), ref = rg_perft(&b, d);
            CHECK(lib == ref && lib > 0, "%s: perft %d library %llu, refgen %llu", what, d,
                  (unsigned long long)lib, (unsigned long long)ref);
        }
    tc_position_free(p);
}

static int cell(tc_variant *v, const char *name) { return tc_cell_parse(v, name); }

#define LONG "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#define STD "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

static void test_overrides(void)
{
    tc_error e;
    th_case("wrap: none with ranks: fold is a fold with open files");
    {
        tc_variant *v = page_variant("type: grid, rows: 8, cols: 8, wrap: none, ranks: fold", STD, &e);
        CHECK(v != NULL, "%s", e.msg);
        if (v) {
            const tc_variant_def *d = tc_variant_def_of(v);
            CHECK(d->files == TC_FILES_OPEN && d->ranks == TC_RANKS_FOLD, "files %d ranks %d", d->files, d->ranks);
            tc_step_result r = tc_step(v, cell(v, "e8"), 0, 1);
            CHECK(r.cell == cell(v, "d8") && r.dy == -1 && r.joins == TC_JOIN_FOLD, "e8 N: cell %d dy %d joins %d",
                  r.cell, r.dy, r.joins);
            r = tc_step(v, cell(v, "h4"), 1, 0);
            CHECK(r.cell == -1, "h4 E must leave the board (files open)");
            check_perft_against_refgen(v, 3, "open fold");
            tc_variant_free(v);
        }
    }
    th_case("wrap: torus with ranks: twist and seam: 3 is a Klein bottle twisted between ranks 3 and 4");
    {
        tc_variant *v =
            page_variant("type: grid, rows: 14, cols: 8, wrap: torus, ranks: twist, seam: 3", LONG, &e);
        CHECK(v != NULL, "%s", e.msg);
        if (v) {
            const tc_variant_def *d = tc_variant_def_of(v);
            CHECK(d->files == TC_FILES_WRAP && d->ranks == TC_RANKS_TWIST && d->seam == 3, "files %d ranks %d seam %d",
                  d->files, d->ranks, d->seam);
            tc_step_result r = tc_step(v, cell(v, "a3"), 0, 1);
            CHECK(r.cell == cell(v, "h4") && r.joins == TC_JOIN_TWIST, "a3 N: cell %d joins %d", r.cell, r.joins);
            r = tc_step(v, cell(v, "a14"), 0, 1);
            CHECK(r.cell == cell(v, "a1") && r.joins == TC_JOIN_RANK, "a14 N: plain rank join, joins %d", r.joins);
            r = tc_step(v, cell(v, "h3"), 1, 1);
            CHECK(r.cell == cell(v, "h4") && r.joins == (TC_JOIN_FILE | TC_JOIN_TWIST), "h3 NE: cell %d joins %d",
                  r.cell, r.joins);
            check_perft_against_refgen(v, 3, "klein seam 3");
            tc_variant_free(v);
        }
    }
    th_case("wrap: cylinder with files: open is flat chess");
    {
        tc_variant *v = page_variant("type: grid, rows: 8, cols: 8, wrap: cylinder, files: open", STD, &e);
        CHECK(v != NULL, "%s", e.msg);
        if (v) {
            tc_position *p = tc_position_new(v);
            /* the well-known counts of chess */
            CHECK(p && tc_perft(p, 3) == 8902 && tc_perft(p, 4) == 197281, "perft of flat chess");
            tc_position_free(p);
            tc_variant_free(v);
        }
    }
    th_case("wrap: mobius with files: wrap is the Klein bottle");
    {
        tc_variant *v = page_variant("type: grid, rows: 14, cols: 8, wrap: mobius, files: wrap", LONG, &e);
        tc_variant_def k;
        CHECK(v && tc_preset_find("klein-bottle", &k, &e) == 0, "%s", e.msg);
        if (v) {
            const tc_variant_def *d = tc_variant_def_of(v);
            CHECK(d->files == k.files && d->ranks == k.ranks && d->seam == k.seam, "not the Klein bottle's topology");
            check_perft_against_refgen(v, 3, "mobius + files wrap");
            tc_variant_free(v);
        }
    }
    th_case("a 5x6 board with open files folded at both ends, perft against refgen");
    {
        tc_variant *v = page_variant("type: grid, rows: 6, cols: 5, wrap: fold, files: open",
                                     "rnbkr/ppppp/5/5/PPPPP/RNBKR", &e);
        CHECK(v != NULL, "%s", e.msg);
        if (v) {
            check_perft_against_refgen(v, 3, "5x6 open fold");
            tc_variant_free(v);
        }
    }
}

static void test_refused_setups(void)
{
    tc_error e;
    th_case("a 6x6 torus with a normal setup: rank 6 and rank 1 are joined, so the kings touch");
    {
        tc_variant *v = page_variant("type: grid, rows: 6, cols: 6, wrap: torus", "rnbqkr/pppppp/6/6/PPPPPP/RNBQKR", &e);
        CHECK(v == NULL, "accepted");
        tc_variant_free(v);
        CHECK(strstr(e.msg, "kings on e1 and e6 touch") && strstr(e.msg, "rank 6 and rank 1 are joined"),
              "message: %s", e.msg);
    }
    th_case("a rook that attacks the king across the file join");
    {
        tc_variant *v = page_variant("type: grid, rows: 8, cols: 8, wrap: cylinder", "kn5R/8/8/8/8/8/8/4K3", &e);
        CHECK(v == NULL, "accepted");
        tc_variant_free(v);
        CHECK(strstr(e.msg, "black king on a8 is attacked by the white rook on h8") &&
                  strstr(e.msg, "file h and file a are joined"),
              "message: %s", e.msg);
    }
    th_case("the same setup on a flat board is fine");
    {
        tc_variant *v = page_variant("type: grid, rows: 8, cols: 8, wrap: none", "kn5R/8/8/8/8/8/8/4K3", &e);
        CHECK(v != NULL, "%s", e.msg);
        tc_variant_free(v);
    }
}

/* joins == 0 exactly for plain steps; a fold flips y, a twist only x. */
static void test_join_flags(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *d = tc_preset(i);
        th_case("join flags of every step agree with the reference step function: %s", d->name);
        tc_error e;
        tc_variant *v = tc_variant_new(d, &e);
        CHECK(v != NULL, "%s", e.msg);
        if (!v)
            continue;
        int bad = 0;
        for (int c = 0; c < tc_variant_cells(v) && !bad; c++)
            for (int dx = -1; dx <= 1; dx++)
                for (int dy = -1; dy <= 1; dy++) {
                    if (!dx && !dy)
                        continue;
                    int x = tc_cell_x(v, c), y = tc_cell_y(v, c);
                    rg_step s = rg_rules_step(d, x, y, dx, dy);
                    tc_step_result r = tc_step(v, c, dx, dy);
                    if (s.off) {
                        bad += r.cell != -1;
                        continue;
                    }
                    int plain = s.x == x + dx && s.y == y + dy && s.sx == 1 && s.sy == 1;
                    bad += (r.joins == 0) != plain;
                    bad += ((r.joins & TC_JOIN_FOLD) != 0) != (s.sy == -1);
                    bad += ((r.joins & TC_JOIN_TWIST) != 0) != (s.sx == -1 && s.sy == 1);
                    bad += ((r.joins & TC_JOIN_FILE) != 0) != (x + dx < 0 || x + dx >= d->width);
                    if (bad) {
                        CHECK(0, "%s: cell %d step (%d,%d) joins %d", d->name, c, dx, dy, r.joins);
                        break;
                    }
                }
        tc_variant_free(v);
    }
}

void suite_overrides(void)
{
    test_overrides();
    test_refused_setups();
    test_join_flags();
}
