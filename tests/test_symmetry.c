/* Symmetries of the rules (src/rules/symmetry.c): standard chess has the
 * four its rules imply and no others; every found symmetry of every preset
 * maps legal move sets and perft counts on positions of real games; every
 * rejected candidate is caught out by one of those positions; a custom board
 * whose setup breaks the rank symmetries keeps only the file mirror. Each
 * preset's list is printed in the log. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#define NPOS 5

/* The position's FEN with no castling rights (the training data has none). */
static void strip_castling(tc_position *p)
{
    char fen[800], out[800];
    tc_position_fen(p, fen, sizeof fen);
    char *f[6] = {0};
    int n = 0;
    for (char *t = strtok(fen, " "); t && n < 6; t = strtok(NULL, " "))
        f[n++] = t;
    snprintf(out, sizeof out, "%s %s - %s %s %s", f[0], f[1], f[3], f[4], f[5]);
    tc_error err;
    CHECK(tc_position_set_fen(p, out, &err) == 0, "%s: %s", out, err.msg);
}

/* Positions of one pseudo-random game (fixed seed): the start and after
 * 6, 14, 24 and 36 plies (or where the game ended), castling removed. */
static int game_positions(const tc_variant *v, tc_position **out)
{
    static const int at[NPOS] = {0, 6, 14, 24, 36};
    tc_position *p = tc_position_new(v);
    tc_movelist *list = malloc(sizeof *list);
    uint32_t seed = 12345;
    int n = 0, ply = 0;
    for (int k = 0; k < NPOS; k++) {
        while (ply < at[k] && tc_generate_legal(p, list) > 0) {
            seed = seed * 1664525u + 1013904223u;
            tc_make_move(p, list->moves[(seed >> 8) % (uint32_t)list->count]);
            ply++;
        }
        tc_position *q = tc_position_clone(p);
        strip_castling(q);
        out[n++] = q;
    }
    free(list);
    tc_position_free(p);
    return n;
}

static int cmp_move(const void *a, const void *b)
{
    tc_move x = *(const tc_move *)a, y = *(const tc_move *)b;
    return x < y ? -1 : x > y;
}

/* 1 when the mapped position's legal moves are the mapped legal moves and
 * perft agrees to depth; 0 at the first difference (or when the mapped
 * position is refused). */
static int commutes(const tc_symmetry *s, tc_position *p, int depth)
{
    const tc_variant *v = tc_position_variant(p);
    tc_position *q = tc_position_new(v);
    tc_error err;
    int ok = tc_symmetry_apply(s, p, q, &err) == 0;
    tc_movelist *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (ok) {
        int n = tc_generate_legal(p, a);
        ok = n == tc_generate_legal(q, b);
        for (int i = 0; ok && i < n; i++) {
            tc_move m = a->moves[i];
            a->moves[i] = TC_MOVE_MAKE(s->cell[TC_MOVE_FROM(m)], s->cell[TC_MOVE_TO(m)], TC_MOVE_PROMO(m),
                                       TC_MOVE_KIND(m));
        }
        if (ok) {
            qsort(a->moves, (size_t)n, sizeof a->moves[0], cmp_move);
            qsort(b->moves, (size_t)n, sizeof b->moves[0], cmp_move);
            ok = !memcmp(a->moves, b->moves, (size_t)n * sizeof a->moves[0]);
        }
        for (int d = 2; ok && d <= depth; d++)
            ok = tc_perft(p, d) == tc_perft(q, d);
    }
    free(a);
    free(b);
    tc_position_free(q);
    return ok;
}

static void print_list(const char *name, const tc_symmetry *s, int n)
{
    int castling = 0;
    for (int i = 0; i < n; i++)
        castling += s[i].with_castling;
    printf("  symmetries of %s: %d (%d also with castling rights):", name, n, castling);
    for (int i = 0; i < n; i++)
        printf("%s %s", i ? "," : "", s[i].name);
    printf("\n");
    fflush(stdout);
}

/* Every candidate of the variant: a found one commutes on every position
 * (perft to `depth`; one that keeps castling also on the start with its
 * rights), a rejected one fails on at least one. */
static void cross_check(const tc_variant *v, const char *name, int depth)
{
    tc_position *pos[NPOS];
    int np = game_positions(v, pos), found = 0, W = tc_variant_width(v), H = tc_variant_height(v);
    tc_symmetry s;
    for (int swap = 0; swap < 2; swap++)
        for (int mr = 0; mr < 2; mr++)
            for (int sr = 0; sr < H; sr++)
                for (int mf = 0; mf < 2; mf++)
                    for (int sf = 0; sf < W; sf++) {
                        int holds = tc_symmetry_make(v, mf, sf, mr, sr, swap, &s), caught = 0;
                        found += holds;
                        for (int i = 0; i < np && (holds || !caught); i++) {
                            int ok = commutes(&s, pos[i], holds ? depth : 3);
                            if (holds)
                                CHECK(ok, "%s: symmetry '%s' does not commute at position %d", name, s.name, i);
                            else
                                caught |= !ok;
                        }
                        CHECK(holds || caught, "%s: rejected '%s' commutes on every test position", name, s.name);
                        if (holds && s.with_castling) {
                            /* the start keeps its castling rights */
                            tc_position *start = tc_position_new(v);
                            CHECK(commutes(&s, start, depth), "%s: '%s' with castling rights does not commute",
                                  name, s.name);
                            tc_position_free(start);
                        }
                    }
    tc_symmetry *all = malloc(TC_MAX_SYMMETRIES * sizeof *all);
    int n = tc_symmetries(v, all, TC_MAX_SYMMETRIES);
    CHECK(n == found, "%s: tc_symmetries found %d, the candidates %d", name, n, found);
    CHECK(n >= 1 && !strcmp(all[0].name, "identity") && all[0].with_castling, "%s: the identity comes first",
          name);
    print_list(name, all, n);
    free(all);
    for (int i = 0; i < np; i++)
        tc_position_free(pos[i]);
}

static void test_chess(void)
{
    th_case("chess: the file mirror, the colour flip, both, and nothing else");
    /* The rules of chess without castling see files only through the board's
     * edges (both open) and ranks through the pawns: White's move up from
     * rank 2 to promote on 8, Black's the other way. So x -> 7-x keeps every
     * table; a rank map must swap the pawn directions, hence the colours,
     * and keep the edges: y -> 7-y with the swap. Shifts break the edges. */
    tc_variant *v = th_variant("chess");
    if (!v)
        return;
    static const struct {
        int mf, mr, swap, castling;
        const char *name;
    } want[4] = {{0, 0, 0, 1, "identity"},
                 {1, 0, 0, 0, "mirror-files"},
                 {0, 1, 1, 1, "flip-colours"},
                 {1, 1, 1, 0, "mirror-files flip-colours"}};
    tc_symmetry s[TC_MAX_SYMMETRIES / 64];
    int n = tc_symmetries(v, s, TC_MAX_SYMMETRIES / 64);
    CHECK(n == 4, "chess: %d symmetries, expected 4", n);
    for (int i = 0; i < 4 && i < n; i++) {
        CHECK(s[i].mirror_files == want[i].mf && s[i].mirror_ranks == want[i].mr && s[i].swap_colours == want[i].swap &&
                  !s[i].shift_files && !s[i].shift_ranks,
              "chess: symmetry %d is '%s', expected '%s'", i, s[i].name, want[i].name);
        CHECK(!strcmp(s[i].name, want[i].name), "chess: name '%s', expected '%s'", s[i].name, want[i].name);
        CHECK(s[i].with_castling == want[i].castling, "%s: with_castling %d", s[i].name, s[i].with_castling);
    }
    /* e4 under the mirror is d4; under the flip a black pawn on e5 */
    tc_position *p = th_at_fen(v, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"), *q = tc_position_new(v);
    tc_error err;
    if (p && n == 4) {
        CHECK(tc_symmetry_apply(&s[1], p, q, &err) == 0, "%s", err.msg);
        CHECK(tc_piece_at(q, th_cell(v, "d4")) == TC_PIECE(TC_WHITE, TC_PAWN), "mirror: no white pawn on d4");
        CHECK(tc_king_cell(q, TC_WHITE) == th_cell(v, "d1"), "mirror: white king not on d1");
        CHECK(tc_symmetry_apply(&s[2], p, q, &err) == 0, "%s", err.msg);
        CHECK(tc_piece_at(q, th_cell(v, "e5")) == TC_PIECE(TC_BLACK, TC_PAWN), "flip: no black pawn on e5");
        CHECK(tc_side_to_move(q) == TC_BLACK, "flip: White still to move");
        /* en passant: e5xd6 maps to an en passant capture too */
        tc_position *e = th_at_fen(v, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        for (int i = 0; e && i < 4; i++) {
            CHECK(commutes(&s[i], e, 3), "'%s' does not commute with en passant", s[i].name);
            CHECK(tc_symmetry_apply(&s[i], e, q, &err) == 0 && tc_ep_cell(q) == s[i].cell[th_cell(v, "d6")],
                  "'%s': en passant cell not mapped", s[i].name);
        }
        tc_position_free(e);
        /* castling rights: kept (colours swapped) by the flip, refused by the mirror */
        tc_position *c = th_at_fen(v, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
        if (c) {
            CHECK(tc_symmetry_apply(&s[1], c, q, &err) == -1 && strstr(err.msg, "castling"),
                  "mirror with castling rights: not refused (%s)", err.msg);
            CHECK(tc_symmetry_apply(&s[2], c, q, &err) == 0 && tc_castling(q) == (2 | 4),
                  "flip: rights %d, expected Qk", tc_castling(q));
            CHECK(commutes(&s[2], c, 3), "flip with castling rights does not commute");
            tc_position_free(c);
        }
    }
    tc_position_free(p);
    tc_position_free(q);
    tc_variant_free(v);
}

static void test_presets(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const char *name = tc_preset(i)->name;
        th_case("%s: each symmetry commutes with the moves, each rejected candidate fails somewhere", name);
        tc_variant *v = th_variant_cached(name);
        if (v)
            cross_check(v, name, th_sanitize() ? 2 : 3);
    }
}

static void test_custom(void)
{
    th_case("a custom board whose setup breaks the rank symmetries keeps only the file mirror");
    /* 8x10 Moebius strip twisted after rank 3, kings on ranks 1 and 8: no
     * rank map keeps the seam between ranks 3 and 4 and the back ranks
     * together. The file mirror stays: every table is symmetric in x -> 7-x
     * (the twist itself mirrors files) except castling's. */
    tc_variant_def d;
    th_def(&d, "odd-seam", 8, 10, TC_FILES_OPEN, TC_RANKS_TWIST, 3,
           "8/8/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    tc_error err;
    tc_variant *v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "odd-seam: %s", err.msg);
    if (!v)
        return;
    tc_symmetry s[8];
    int n = tc_symmetries(v, s, 8);
    CHECK(n == 2 && !strcmp(s[0].name, "identity") && !strcmp(s[1].name, "mirror-files"),
          "odd-seam: %d symmetries, expected identity and mirror-files", n);
    cross_check(v, "odd-seam", 2);
    tc_variant_free(v);
}

void suite_symmetry(void)
{
    test_chess();
    test_presets();
    test_custom();
    th_variants_free();
}
