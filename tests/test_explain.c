/* Explain: join marks, attack paths and reasons for illegal moves.
 *
 * Paths are checked against refgen's independent step function (the cells
 * of each line are walked again from docs/rules.md, and the joins are derived
 * from the flat coordinates, not from the library's tables), attacks
 * against refgen's attack test, and "legal or not" against refgen's legal
 * moves; then the worked positions of the issue: a check across three
 * joins, one rook attacking along two lines, a knight by two leaps, a king
 * that may not step back along a line through its own cell. */
#include "epd.h"
#include "harness.h"
#include "refgen.h"
#include "topochess_explain.h"

#include <stdlib.h>
#include <string.h>

static const int DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DY[8] = {1, 1, 0, -1, -1, -1, 0, 1};

/* The joins a step crosses, from the rules text: leaving the file range,
 * leaving the rank range (not a fold), a mirror by the twist or the fold. */
static int ref_joins(const tc_variant_def *d, int x, int y, int dx, int dy, rg_step s)
{
    int j = 0;
    if (x + dx < 0 || x + dx >= d->width)
        j |= TC_JOIN_FILE;
    if ((y + dy < 0 || y + dy >= d->height) && d->ranks != TC_RANKS_FOLD)
        j |= TC_JOIN_RANK;
    if (d->ranks == TC_RANKS_FOLD && s.sy < 0)
        j |= TC_JOIN_FOLD;
    if (d->ranks == TC_RANKS_TWIST && s.sx < 0)
        j |= TC_JOIN_TWIST;
    return j;
}

/* One step by refgen; 1 if it lands on `cell` with joins `joins`. */
static int ref_step_is(const tc_variant_def *d, int W, int *x, int *y, int *dx, int *dy, int cell, int joins,
                       rg_step *out)
{
    rg_step s = rg_rules_step(d, *x, *y, *dx, *dy);
    if (s.off || s.y * W + s.x != cell || ref_joins(d, *x, *y, *dx, *dy, s) != joins)
        return 0;
    if (out)
        *out = s;
    *x = s.x;
    *y = s.y;
    *dx = s.dx;
    *dy = s.dy;
    return 1;
}

/* Walks the path again with refgen's step function; "" when it holds,
 * else what is wrong. Ray cells before the last must be empty. */
static const char *path_wrong(const tc_position *p, const tc_path *pa)
{
    const tc_variant *v = tc_position_variant(p);
    const tc_variant_def *d = tc_variant_def_of(v);
    int W = d->width;
    int x = pa->from % W, y = pa->from / W;
    if (pa->len < 1 || pa->dir < 0 || pa->dir > 7)
        return "empty path or bad direction";
    int dx = DX[pa->dir], dy = DY[pa->dir];
    switch (pa->kind) {
    case TC_LINE_RAY:
        for (int i = 0; i < pa->len; i++) {
            if (!ref_step_is(d, W, &x, &y, &dx, &dy, pa->cells[i], pa->joins[i], NULL))
                return "a ray step differs from refgen";
            if (pa->cells[i] == pa->from)
                return "a ray passes its own cell";
            if (i + 1 < pa->len && tc_piece_at(p, pa->cells[i]))
                return "a ray passes an occupied cell";
        }
        return "";
    case TC_LINE_STEP:
    case TC_LINE_PAWN_CAPTURE:
        if (pa->len != 1 || !ref_step_is(d, W, &x, &y, &dx, &dy, pa->cells[0], pa->joins[0], NULL))
            return "a one-step line differs from refgen";
        if (pa->kind == TC_LINE_PAWN_CAPTURE && (pa->dir & 1) == 0)
            return "a pawn capture that is not diagonal";
        return "";
    case TC_LINE_PAWN_PUSH:
        if (pa->len > 2 || (pa->dir != 0 && pa->dir != 4))
            return "a bad push";
        for (int i = 0; i < pa->len; i++)
            if (!ref_step_is(d, W, &x, &y, &dx, &dy, pa->cells[i], pa->joins[i], NULL))
                return "a push step differs from refgen";
        return "";
    case TC_LINE_LEAP: {
        if (pa->len != 2 || (pa->dir & 1))
            return "a bad leap";
        int dx0 = dx, dy0 = dy;
        rg_step s1;
        if (!ref_step_is(d, W, &x, &y, &dx, &dy, pa->cells[0], pa->joins[0], &s1))
            return "a leap's first step differs from refgen";
        for (int side = -1; side <= 1; side += 2) {
            int ddx = (dx0 + (dx0 == 0 ? side : 0)) * s1.sx, ddy = (dy0 + (dy0 == 0 ? side : 0)) * s1.sy;
            int lx = x, ly = y;
            if (ref_step_is(d, W, &lx, &ly, &ddx, &ddy, pa->cells[1], pa->joins[1], NULL))
                return "";
        }
        return "a leap's diagonal step differs from refgen";
    }
    }
    return "unknown line kind";
}

static int path_has_join(const tc_path *pa, int join)
{
    return (pa->joins_all & join) != 0;
}

static void check_joins(void)
{
    th_case("explain: step joins agree with refgen's step function on every preset");
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *d = tc_preset(i);
        tc_variant *v = th_variant_cached(d->name);
        if (!v)
            continue;
        int seen = 0;
        for (int c = 0; c < d->width * d->height; c++)
            for (int k = 0; k < 8; k++) {
                rg_step s = rg_rules_step(d, c % d->width, c / d->width, DX[k], DY[k]);
                int want = s.off ? 0 : ref_joins(d, c % d->width, c / d->width, DX[k], DY[k], s);
                int got = tc_step_joins(v, c, k);
                seen |= got;
                CHECK(got == want, "%s cell %d dir %d: joins %d, refgen %d", d->name, c, k, got, want);
            }
        /* each board shows the joins it has, and only those */
        int expect = (d->files == TC_FILES_WRAP ? TC_JOIN_FILE : 0) |
                     (d->ranks == TC_RANKS_WRAP || d->ranks == TC_RANKS_TWIST ? TC_JOIN_RANK : 0) |
                     (d->ranks == TC_RANKS_TWIST ? TC_JOIN_TWIST : 0) | (d->ranks == TC_RANKS_FOLD ? TC_JOIN_FOLD : 0);
        CHECK(seen == expect, "%s: joins seen %d, expected %d", d->name, seen, expect);
    }
    th_case("explain: join markers and legend");
    char buf[96];
    tc_join_legend(TC_JOIN_FILE | TC_JOIN_TWIST | TC_JOIN_RANK, buf, sizeof buf);
    CHECK(!strcmp(buf, "~ file join, = twist, | rank join"), "legend '%s'", buf);
    tc_join_legend(0, buf, sizeof buf);
    CHECK(buf[0] == '\0', "empty legend '%s'", buf);
    CHECK(!strcmp(tc_join_marker(TC_JOIN_FOLD), "^"), "fold marker");
}

/* Attacks and lines at every cell of a position against refgen. */
static void check_position_paths(const tc_position *p, tc_path_set *set, const char *where)
{
    const tc_variant *v = tc_position_variant(p);
    rg_board rb;
    if (rg_board_from(p, &rb)) {
        CHECK(0, "%s: refgen cannot read the position", where);
        return;
    }
    int n = tc_variant_cells(v);
    for (int c = 0; c < n; c++)
        for (int col = 0; col < 2; col++) {
            int got = tc_attack_paths(p, c, col, set);
            int want = rg_attacked(&rb, c, col);
            CHECK((got > 0) == (want != 0), "%s: cell %d colour %d: %d paths, refgen %d", where, c, col, got, want);
            for (int i = 0; i < set->count; i++) {
                const tc_path *pa = &set->paths[i];
                const char *w = path_wrong(p, pa);
                CHECK(!*w, "%s: attack on %d from %d: %s", where, c, pa->from, w);
                CHECK(pa->cells[pa->len - 1] == c && pa->end == TC_END_TARGET, "%s: path does not end on %d",
                      where, c);
                CHECK(TC_COLOUR(pa->piece) == col && tc_piece_at(p, pa->from) == pa->piece, "%s: wrong attacker",
                      where);
            }
        }
    /* every line of every piece, in both modes */
    for (int c = 0; c < n; c++) {
        if (!tc_piece_at(p, c))
            continue;
        for (int mode = 0; mode < 2; mode++) {
            tc_piece_lines(p, c, mode, set);
            for (int i = 0; i < set->count; i++) {
                const char *w = path_wrong(p, &set->paths[i]);
                CHECK(!*w, "%s: line %d of %d (mode %d): %s", where, i, c, mode, w);
            }
        }
    }
}

/* Each coordinate text from a piece of the side to move: explained as
 * legal exactly when refgen has that move; an illegal one that a line
 * reaches names the attacks on the king, which refgen confirms. */
static void check_position_reasons(tc_position *p, tc_explanation *x, const char *where)
{
    const tc_variant *v = tc_position_variant(p);
    rg_board rb;
    if (rg_board_from(p, &rb))
        return;
    rg_move *ref = malloc(sizeof *ref * RG_MAX_MOVES);
    int nref = rg_legal(&rb, ref, RG_MAX_MOVES);
    int n = tc_variant_cells(v), us = tc_side_to_move(p);
    if (tc_position_status(p) != TC_ONGOING) {
        free(ref);
        return;
    }
    for (int from = 0; from < n; from++) {
        int pc = tc_piece_at(p, from);
        if (!pc || TC_COLOUR(pc) != us)
            continue;
        for (int to = 0; to < n; to++) {
            if (to == from)
                continue;
            int legal = 0, castle = 0;
            for (int i = 0; i < nref; i++)
                if (ref[i].from == from && ref[i].to == to) {
                    if (ref[i].kind == TC_MOVE_CASTLE_K || ref[i].kind == TC_MOVE_CASTLE_Q)
                        castle = 1;
                    else
                        legal = 1;
                }
            /* castling's coordinate forms and king-takes-own-rook have their own tests */
            if (castle || (TC_TYPE(pc) == TC_KING && tc_piece_at(p, to) == TC_PIECE(us, TC_ROOK)))
                continue;
            char text[16], a[8], b[8];
            tc_cell_name(v, from, a);
            tc_cell_name(v, to, b);
            snprintf(text, sizeof text, "%s%s", a, b);
            tc_explain_move(p, text, x);
            int said_legal = x->why == TC_WHY_LEGAL || x->why == TC_WHY_NEEDS_PROMOTION;
            CHECK(said_legal == legal, "%s: %s explained as %d (%s), refgen legal %d", where, text, x->why,
                  x->message, legal);
            CHECK(x->why != TC_WHY_SYNTAX && x->why != TC_WHY_NO_PIECE, "%s: %s: %s", where, text, x->message);
            if (x->why == TC_WHY_KING_ATTACKED) {
                CHECK(x->attackers.count > 0, "%s: %s: no attacker named", where, text);
                tc_position *q = tc_position_clone(p);
                tc_make_move(q, x->move);
                rg_board after;
                rg_board_from(q, &after);
                CHECK(rg_attacked(&after, x->king, !us), "%s: %s: refgen sees no attack on the king", where, text);
                for (int i = 0; i < x->attackers.count; i++) {
                    const char *w = path_wrong(q, &x->attackers.paths[i]);
                    CHECK(!*w, "%s: %s: attacker path: %s", where, text, w);
                }
                tc_position_free(q);
            }
            if (x->why == TC_WHY_CANNOT_REACH && x->blocker >= 0)
                CHECK(tc_piece_at(p, x->blocker) != 0, "%s: %s: blocker on an empty cell", where, text);
        }
    }
    free(ref);
}

/* EPD positions of every preset, and a few plies of each, through both
 * checks; the reasons, which cost several move generations per text, at
 * every other position (under the sanitizers every fourth position). */
static void check_against_refgen(void)
{
    th_case("explain: attack paths, piece lines and reasons against refgen at the EPD positions");
    th_epd *lines = NULL;
    int n = th_epd_load(&lines);
    CHECK(n > 0, "no EPD positions");
    tc_path_set *set = malloc(sizeof *set);
    tc_explanation *x = malloc(sizeof *x);
    tc_movelist *list = malloc(sizeof *list);
    int step = th_sanitize() ? 4 : 1;
    for (int i = 0; i < n; i += step) {
        tc_variant *v = th_variant_cached(lines[i].variant);
        if (!v)
            continue;
        tc_position *p = th_at_fen(v, lines[i].fen);
        if (!p)
            continue;
        char where[128];
        for (int ply = 0; ply < 3; ply++) {
            snprintf(where, sizeof where, "%s:%d ply %d", lines[i].file, lines[i].line, ply);
            check_position_paths(p, set, where);
            if (i % 2 == 0)
                check_position_reasons(p, x, where);
            int nm = tc_generate_legal(p, list);
            if (!nm)
                break;
            tc_make_move(p, list->moves[(i * 7 + ply * 13) % nm]);
        }
        tc_position_free(p);
    }
    free(set);
    free(x);
    free(list);
    th_epd_free(lines);
}

static tc_position *at(const char *variant, const char *fen, const char *moves)
{
    tc_variant *v = th_variant_cached(variant);
    if (!v)
        return NULL;
    tc_position *p = tc_position_new(v);
    tc_error err;
    if (fen && tc_position_set_fen(p, fen, &err)) {
        CHECK(0, "%s: FEN refused: %s", variant, err.msg);
        tc_position_free(p);
        return NULL;
    }
    if (moves && tc_play_moves(p, moves, &err)) {
        CHECK(0, "%s: moves refused: %s", variant, err.msg);
        tc_position_free(p);
        return NULL;
    }
    return p;
}

static void worked_positions(void)
{
    tc_path_set *set = malloc(sizeof *set);
    char text[512];

    th_case("explain: 1. d12 b10+ on the Klein bottle, the bishop's check across three joins");
    tc_position *p = at("klein-bottle", NULL, "d12 b10");
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        int n = tc_attack_paths(p, tc_king_cell(p, TC_WHITE), TC_BLACK, set);
        CHECK(n == 1 && set->count == 1, "%d attacks on the white king", n);
        if (set->count == 1) {
            const tc_path *pa = &set->paths[0];
            tc_path_text(v, pa, text, sizeof text);
            CHECK(pa->from == th_cell(v, "c8") && TC_TYPE(pa->piece) == TC_BISHOP, "attacker not the c8 bishop");
            CHECK(!strcmp(text, "b9 a10 ~ h11 = b12 c13 d14 | e1"), "path '%s'", text);
            CHECK(pa->joins_all == (TC_JOIN_FILE | TC_JOIN_TWIST | TC_JOIN_RANK), "joins %d", pa->joins_all);
            CHECK(!*path_wrong(p, pa), "refgen: %s", path_wrong(p, pa));
        }
        tc_position_free(p);
    }

    th_case("explain: a torus rook attacks the king along two lines at once");
    p = at("torus", "8/8/8/8/8/8/4k3/8/8/8/8/8/8/K3R3 b - - 0 1", NULL);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        int n = tc_attack_paths(p, th_cell(v, "e8"), TC_WHITE, set);
        CHECK(n == 2, "%d lines", n);
        int north = 0, south = 0;
        for (int i = 0; i < set->count; i++) {
            const tc_path *pa = &set->paths[i];
            CHECK(pa->from == th_cell(v, "e1") && pa->len == 7, "line from %d, %d cells", pa->from, pa->len);
            north += pa->dir == 0 && !pa->joins_all;
            south += pa->dir == 4 && pa->joins_all == TC_JOIN_RANK && pa->joins[0] == TC_JOIN_RANK;
            CHECK(!*path_wrong(p, pa), "refgen: %s", path_wrong(p, pa));
        }
        CHECK(north == 1 && south == 1, "north %d, south (over the rank join) %d", north, south);
        tc_position_free(p);
    }

    th_case("explain: a folding knight attacks one cell by two different leaps");
    p = at("folding", "8/8/8/8/4K3/8/4k3/2N5 b - - 0 1", NULL);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        int n = tc_attack_paths(p, th_cell(v, "e2"), TC_WHITE, set);
        CHECK(n == 2, "%d lines from the c1 knight to e2", n);
        if (set->count == 2) {
            CHECK(set->paths[0].kind == TC_LINE_LEAP && set->paths[1].kind == TC_LINE_LEAP, "not leaps");
            CHECK(set->paths[0].cells[0] != set->paths[1].cells[0], "the two leaps pass the same cell");
            int folds = path_has_join(&set->paths[0], TC_JOIN_FOLD) + path_has_join(&set->paths[1], TC_JOIN_FOLD);
            CHECK(folds == 1, "one leap crosses the fold, %d do", folds);
            for (int i = 0; i < 2; i++)
                CHECK(!*path_wrong(p, &set->paths[i]), "refgen: %s", path_wrong(p, &set->paths[i]));
        }
        tc_position_free(p);
    }

    th_case("explain: the king may not step back along the checking line through its own cell");
    p = at("cylinder", "4k3/8/8/8/8/8/8/K1r5 w - - 0 1", NULL);
    tc_explanation *x = malloc(sizeof *x);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        CHECK(tc_explain_move(p, "Kh1", x) == -1 && x->why == TC_WHY_KING_ATTACKED, "Kh1: %d %s", x->why, x->message);
        /* the rook reaches h1 both ways round the cylinder; the western
         * line passes a1, the cell the king stands on now */
        CHECK(x->king == th_cell(v, "h1") && x->attackers.count == 2, "king %d, %d attackers", x->king,
              x->attackers.count);
        int west = 0, east = 0;
        for (int i = 0; i < x->attackers.count; i++) {
            tc_path_text(v, &x->attackers.paths[i], text, sizeof text);
            west += !strcmp(text, "b1 a1 ~ h1");
            east += !strcmp(text, "d1 e1 f1 g1 h1");
        }
        CHECK(west == 1 && east == 1, "west %d east %d", west, east);
        CHECK(strstr(x->message, "rook c1 via b1 a1 ~ h1") != NULL, "message: %s", x->message);
        tc_position_free(p);
    }

    th_case("explain: a piece's lines and a move's path");
    p = at("klein-bottle", NULL, "d12 b10");
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        int n = tc_piece_lines(p, th_cell(v, "c8"), TC_LINES_ATTACKS, set);
        int to_king = 0;
        for (int i = 0; i < set->count; i++)
            to_king += set->paths[i].cells[set->paths[i].len - 1] == th_cell(v, "e1");
        CHECK(n >= 1 && to_king == 1, "%d lines, %d end on e1", n, to_king);
        CHECK(tc_piece_lines(p, th_cell(v, "e5"), TC_LINES_MOVES, set) == 0, "an empty cell has lines");
        CHECK(tc_piece_lines(p, -3, TC_LINES_MOVES, set) == -1, "a bad cell was accepted");
        tc_position_free(p);
    }
    p = at("chess", NULL, NULL);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        tc_move m;
        tc_error err;
        tc_path mp;
        CHECK(tc_move_parse(p, "e4", &m, &err) == 0 && tc_move_path(p, m, &mp) == 0, "e4 path");
        tc_path_text(v, &mp, text, sizeof text);
        CHECK(!strcmp(text, "e3 e4") && mp.kind == TC_LINE_PAWN_PUSH, "e4 path '%s'", text);
        CHECK(tc_move_parse(p, "Nf3", &m, &err) == 0 && tc_move_path(p, m, &mp) == 0, "Nf3 path");
        CHECK(mp.kind == TC_LINE_LEAP && mp.len == 2 && mp.cells[1] == th_cell(v, "f3"), "Nf3 leap");
        tc_position_free(p);
    }
    p = at("folding", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL);
    if (p) {
        /* e1 reaches d1 by a step W and by a step S across the fold: the
         * plain one is the move's path; c1 only across the fold */
        const tc_variant *v = tc_position_variant(p);
        tc_move m;
        tc_error err;
        tc_path mp;
        CHECK(tc_move_parse(p, "Kd1", &m, &err) == 0 && tc_move_path(p, m, &mp) == 0, "Kd1 path");
        CHECK(mp.len == 1 && mp.joins_all == 0 && mp.dir == 6, "Kd1 by dir %d, joins %d", mp.dir, mp.joins_all);
        CHECK(tc_move_parse(p, "Kc1", &m, &err) == 0 && tc_move_path(p, m, &mp) == 0, "Kc1 path");
        CHECK(mp.cells[0] == th_cell(v, "c1") && mp.joins_all == TC_JOIN_FOLD, "Kc1 joins %d", mp.joins_all);
        tc_position_free(p);
    }
    p = at("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        tc_move m;
        tc_error err;
        tc_path mp;
        CHECK(tc_move_parse(p, "O-O-O", &m, &err) == 0 && tc_move_path(p, m, &mp) == 0, "O-O-O path");
        tc_path_text(v, &mp, text, sizeof text);
        CHECK(!strcmp(text, "d1 c1") && mp.kind == TC_LINE_CASTLE, "castle path '%s'", text);
        tc_position_free(p);
    }
    free(set);
    free(x);
}

/* One explanation: its kind, and text that the message must contain. */
static void expect(tc_position *p, tc_explanation *x, const char *text, tc_why why, const char *part)
{
    int r = tc_explain_move(p, text, x);
    CHECK(x->why == why && r == (why == TC_WHY_LEGAL ? 0 : -1), "'%s': why %d (want %d): %s", text, x->why, why,
          x->message);
    if (part)
        CHECK(strstr(x->message, part) != NULL, "'%s': message '%s' lacks '%s'", text, x->message, part);
}

static void reasons(void)
{
    tc_explanation *x = malloc(sizeof *x);

    th_case("explain: syntax hints");
    tc_position *p = at("klein-bottle", NULL, NULL);
    if (p) {
        expect(p, x, "nf3", TC_WHY_SYNTAX, "pieces are upper case: 'Nf3'");
        expect(p, x, "E4", TC_WHY_SYNTAX, "files are lower case: 'e4'");
        expect(p, x, "i9", TC_WHY_SYNTAX, "files a-h and ranks 1-14");
        expect(p, x, "a15", TC_WHY_SYNTAX, "files a-h and ranks 1-14");
        expect(p, x, "hello", TC_WHY_SYNTAX, "coordinates (e2e4");
        expect(p, x, "Nf3", TC_WHY_LEGAL, NULL);
        expect(p, x, "", TC_WHY_SYNTAX, "empty");
        expect(p, x, "d12", TC_WHY_LEGAL, NULL);
        tc_position_free(p);
    }

    th_case("explain: no piece, the other side's piece, cannot reach (with the blocker)");
    p = at("chess", NULL, NULL);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        expect(p, x, "e3e4", TC_WHY_NO_PIECE, "no piece on e3");
        expect(p, x, "g1-f3", TC_WHY_LEGAL, NULL);
        expect(p, x, "g1-g3", TC_WHY_CANNOT_REACH, "the knight on g1 cannot reach g3");
        expect(p, x, "e7e5", TC_WHY_NOT_YOURS, "the pawn on e7 is Black's");
        expect(p, x, "Bc4", TC_WHY_CANNOT_REACH, "blocked by the white pawn on e2");
        CHECK(x->blocker == th_cell(v, "e2") && x->blocked.len == 1, "blocker %d, line %d", x->blocker, x->blocked.len);
        expect(p, x, "Qd3", TC_WHY_CANNOT_REACH, "the queen on d1 cannot reach d3");
        expect(p, x, "Ng3", TC_WHY_CANNOT_REACH, "no white knight can reach g3; they can play: Na3, Nc3, Nf3 or Nh3");
        CHECK(x->ncandidates == 4, "%d candidates", x->ncandidates);
        expect(p, x, "g1g3", TC_WHY_CANNOT_REACH, "the knight on g1 cannot reach g3; it can play: Nf3 or Nh3");
        expect(p, x, "Nbd2", TC_WHY_CANNOT_REACH, "d2 holds a white pawn");
        expect(p, x, "Nc1d3", TC_WHY_NO_PIECE, "White has no knight on c1");
        expect(p, x, "Kd2", TC_WHY_CANNOT_REACH, "it has no legal move");
        expect(p, x, "exd3", TC_WHY_CANNOT_REACH, "diagonally only to capture");
        tc_position_free(p);
    }

    th_case("explain: a pinned piece names the pinning line");
    p = at("chess", NULL, "e4 e5 Nf3 Nc6 Bb5 d6 d4");
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        expect(p, x, "Nd4", TC_WHY_KING_ATTACKED, "expose the black king on e8 to bishop b5 via c6 d7 e8");
        CHECK(x->attackers.count == 1 && x->attackers.paths[0].from == th_cell(v, "b5"), "pinner");
        CHECK(x->from == th_cell(v, "c6") && x->to == th_cell(v, "d4") && x->move, "move fields");
        tc_position_free(p);
    }

    th_case("explain: ambiguous moves list the candidates");
    p = at("chess", "4k3/8/8/8/1N3N2/8/8/4K3 w - - 0 1", NULL);
    if (p) {
        expect(p, x, "Nd5", TC_WHY_AMBIGUOUS, "Nbd5 or Nfd5");
        CHECK(x->ncandidates == 2, "%d candidates", x->ncandidates);
        expect(p, x, "Nbd5", TC_WHY_LEGAL, NULL);
        tc_position_free(p);
    }

    th_case("explain: promotion, castling and the end of the game");
    p = at("chess", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", NULL);
    if (p) {
        expect(p, x, "b8", TC_WHY_NEEDS_PROMOTION, "b8=Q");
        CHECK(x->ncandidates == 4, "%d promotions", x->ncandidates);
        expect(p, x, "b8=Q", TC_WHY_LEGAL, NULL);
        expect(p, x, "Ke2=Q", TC_WHY_SYNTAX, "promotes");
        tc_position_free(p);
    }
    p = at("chess", "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", NULL);
    if (p) {
        const tc_variant *v = tc_position_variant(p);
        expect(p, x, "O-O", TC_WHY_CANNOT_CASTLE, "pass f1, attacked by bishop c4 via d3 e2 f1");
        CHECK(x->king == th_cell(v, "f1") && x->attackers.count == 1, "castling attack fields");
        expect(p, x, "e1g1", TC_WHY_CANNOT_CASTLE, "f1");
        expect(p, x, "O-O-O", TC_WHY_LEGAL, NULL);
        tc_position_free(p);
    }
    p = at("chess", "r3k2r/8/8/8/8/8/8/RN2K2R w Kkq - 0 1", NULL);
    if (p) {
        expect(p, x, "O-O-O", TC_WHY_CANNOT_CASTLE, "right is lost");
        tc_position_free(p);
    }
    p = at("chess", "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1", NULL);
    if (p) {
        expect(p, x, "O-O-O", TC_WHY_CANNOT_CASTLE, "b1 is not empty");
        expect(p, x, "0-0", TC_WHY_CANNOT_CASTLE, "g1 is not empty");
        tc_position_free(p);
    }
    p = at("chess", NULL, "f3 e5 g4 Qh4");
    if (p) {
        expect(p, x, "e4", TC_WHY_GAME_OVER, "checkmate, Black wins");
        CHECK(x->status == TC_CHECKMATE, "status %d", x->status);
        tc_position_free(p);
    }
    free(x);
}

/* tc_explain_line: the sentence of every interface, on the torus where the
 * browser once said only "illegal move 'Bb5'". */
static void lines(void)
{
    th_case("explain: tc_explain_line words a bad move text once for every interface");
    tc_explanation *x = malloc(sizeof *x);
    tc_position *p = at("torus", NULL, NULL);
    if (p && x) {
        char buf[800];
        tc_explain_move(p, "Bb5", x);
        tc_explain_line("Bb5", x, buf, sizeof buf);
        CHECK(!strcmp(buf, "illegal move 'Bb5': the bishop on f1 cannot reach b5: its line f1 e2 d3 c4 b5 is "
                           "blocked by the white pawn on e2; it has no legal move"),
              "Bb5: %s", buf);
        tc_explain_move(p, "f1b5", x);
        tc_explain_line("f1b5", x, buf, sizeof buf);
        CHECK(!strncmp(buf, "illegal move 'f1b5': the bishop on f1 cannot reach b5", 53), "f1b5: %s", buf);
        tc_explain_move(p, "nf3", x);
        tc_explain_line("nf3", x, buf, sizeof buf);
        CHECK(!strcmp(buf, "'nf3' is not a move: pieces are upper case: 'Nf3'"), "nf3: %s", buf);
        tc_explain_move(p, "Nf3", x);
        tc_explain_line("Nf3", x, buf, sizeof buf);
        CHECK(!strcmp(buf, "'Nf3' is a legal move"), "Nf3: %s", buf);
        char small[16];
        tc_explain_move(p, "Bb5", x);
        int len = tc_explain_line("Bb5", x, small, sizeof small);
        CHECK(len > (int)sizeof small && strlen(small) == sizeof small - 1, "truncated: %d '%s'", len, small);
    }
    tc_position_free(p);
    free(x);
}

static void names(void)
{
    th_case("explain: presets by title, spelling and case; did-you-mean");
    struct {
        const char *text, *name;
    } ok[] = {{"moebius", "mobius"},           {"Klein Bottle", "klein-bottle"}, {"Klein Bottle Chess", "klein-bottle"},
              {"KLEIN", "klein-bottle"},       {"Toroidal Chess", "torus"},      {"Moebius Strip Chess", "mobius"},
              {"folding_magnetic", "folding"}, {"chess", "chess"}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        tc_variant_def d;
        tc_error err;
        int r = tc_preset_find(ok[i].text, &d, &err);
        CHECK(r == 0 && !strcmp(d.name, ok[i].name), "'%s' -> %s", ok[i].text, r ? err.msg : d.name);
    }
    tc_error err;
    tc_variant_def d;
    CHECK(tc_preset_find("kelin-botle", &d, &err) == -1 && strstr(err.msg, "did you mean 'klein-bottle'"), "%s",
          err.msg);
    CHECK(tc_preset_find("toruss", &d, &err) == -1 && strstr(err.msg, "did you mean 'torus'"), "%s", err.msg);
    CHECK(tc_preset_find("xyzzy", &d, &err) == -1 && !strstr(err.msg, "did you mean") && strstr(err.msg, "known:"),
          "%s", err.msg);
    const char *cmds[] = {"show", "fen", "moves", "perft", "play"};
    CHECK(tc_closest_name("shwo", cmds, 5) == 0, "shwo");
    CHECK(tc_closest_name("pefrt", cmds, 5) == 3, "pefrt");
    CHECK(tc_closest_name("zzzzzz", cmds, 5) == -1, "zzzzzz");
    CHECK(tc_closest_name("", cmds, 5) == -1, "empty word");
}

void suite_explain(void)
{
    check_joins();
    worked_positions();
    reasons();
    lines();
    names();
    check_against_refgen();
}
