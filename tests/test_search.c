/* Search features: static exchange evaluation on flat and wrapped boards,
 * MultiPV lines, searchmoves, limited strength; the check test that pruning
 * asks before a move is made. */
#include "attack.h"
#include "harness.h"
#include "internal.h"
#include "see.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>

static int see_of(const char *variant, const char *fen, const char *uci, int *ok)
{
    tc_variant *v = th_variant_cached(variant);
    *ok = 0;
    if (!v)
        return 0;
    tc_position *p = th_at_fen(v, fen);
    if (!p)
        return 0;
    tc_move m;
    tc_error err;
    int r = 0;
    if (tc_move_from_uci(p, uci, &m, &err) == 0) {
        r = see(p, m);
        *ok = 1;
        CHECK(see_ge(p, m, r) && !see_ge(p, m, r + 1), "%s %s: see_ge agrees with see %d", variant, uci, r);
    } else {
        CHECK(0, "%s %s: %s", variant, uci, err.msg);
    }
    tc_position_free(p);
    return r;
}

static void test_see(void)
{
    int ok;
    th_case("search: static exchange evaluation, flat board");
    /* Rxe5 wins a pawn; Nxe5 loses a knight for pawns (the classic pair) */
    CHECK(see_of("chess", "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", &ok) == 100 && ok, "Rxe5");
    CHECK(see_of("chess", "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", &ok) == -220 && ok,
          "Nxe5");
    /* x-ray: the queen behind the rook joins the exchange */
    CHECK(see_of("chess", "3rk3/8/8/3r4/8/3R4/3Q4/4K3 w - - 0 1", "d3d5", &ok) == 500 && ok, "Rxd5 with the queen behind");
    CHECK(see_of("chess", "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", &ok) == -850 && ok, "Qxd5 defended by a pawn");
    /* a king recaptures only where nothing takes it back */
    CHECK(see_of("chess", "8/8/8/8/8/4k3/3p4/3RK3 w - - 0 1", "d1d2", &ok) == 100 && ok, "Rxd2, Ke3 cannot retake");
    CHECK(see_of("chess", "8/8/8/8/8/4k3/3p4/3R2K1 w - - 0 1", "d1d2", &ok) == -400 && ok, "Rxd2 Kxd2");
    CHECK(see_of("chess", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "e1d2", &ok) == 100 && ok, "Kxd2");
    /* a quiet move onto a cell a pawn attacks loses the piece */
    CHECK(see_of("chess", "4k3/8/8/3p4/8/8/3N4/4K3 w - - 0 1", "d2c4", &ok) == -320 && ok, "Nc4 hangs");
    CHECK(see_of("chess", "4k3/8/8/3p4/8/8/3N4/4K3 w - - 0 1", "d2f3", &ok) == 0 && ok, "Nf3 is safe");

    th_case("search: static exchange evaluation across the file join");
    /* the h6 pawn guards a5 only where files a and h meet */
    const char *fen = "4k3/8/7p/p7/8/1N6/8/4K3 w - - 0 1";
    CHECK(see_of("chess", fen, "b3a5", &ok) == 100 && ok, "flat: Nxa5 wins a pawn");
    CHECK(see_of("cylinder", fen, "b3a5", &ok) == -220 && ok, "cylinder: h6 recaptures on a5");
    /* the h1 rook takes on a1 through the join; the d1 knight blocks the
     * rank on the flat board */
    CHECK(see_of("cylinder", "4k3/8/8/8/8/8/4K3/R2N3r b - - 0 1", "h1a1", &ok) == 500 && ok, "cylinder: Rxa1");
    CHECK(see_of("cylinder", "4k3/8/8/8/8/8/4K3/RR1N3r b - - 0 1", "h1a1", &ok) == 0 && ok, "cylinder: Rxa1 Rxa1");
}

/// The lines a search reported at its deepest depth.
typedef struct {
    int depth, count;
    tc_move first[8];
    int line[8];
} lines_seen;

static void collect(const tc_search_info *in, void *ctx)
{
    lines_seen *s = ctx;
    if (in->bound != TC_BOUND_EXACT)
        return;
    if (in->depth > s->depth) {
        s->depth = in->depth;
        s->count = 0;
    }
    if (in->depth == s->depth && s->count < 8 && in->pv_len > 0) {
        s->first[s->count] = in->pv[0];
        s->line[s->count] = in->multipv;
        s->count++;
    }
}

static void test_multipv(void)
{
    th_case("search: MultiPV reports distinct lines");
    tc_variant *v = th_variant_cached("klein-bottle");
    if (!v)
        return;
    tc_engine *e = tc_engine_new(v, 16, 1);
    tc_position *p = tc_position_new(v);
    tc_engine_set_position(e, p);
    tc_limits l;
    tc_limits_init(&l);
    l.depth = 5;
    l.multipv = 3;
    lines_seen s = {0, 0, {0}, {0}};
    tc_search_result r = tc_engine_search(e, &l, collect, &s);
    CHECK(s.depth == 5 && s.count == 3, "depth %d, %d lines", s.depth, s.count);
    CHECK(s.line[0] == 1 && s.line[1] == 2 && s.line[2] == 3, "line numbers %d %d %d", s.line[0], s.line[1], s.line[2]);
    CHECK(s.first[0] != s.first[1] && s.first[0] != s.first[2] && s.first[1] != s.first[2], "distinct moves");
    CHECK(r.best == s.first[0], "the best move is line 1's");

    th_case("search: searchmoves restricts the root");
    tc_move allowed[2];
    tc_error err;
    tc_move_from_uci(p, "a14a13", &allowed[0], &err);
    tc_move_from_uci(p, "h9h10", &allowed[1], &err);
    tc_limits_init(&l);
    l.depth = 4;
    l.nsearchmoves = 1;
    l.searchmoves[0] = allowed[0];
    r = tc_engine_search(e, &l, NULL, NULL);
    CHECK(r.best == allowed[0], "the only allowed move is played");
    tc_limits_init(&l);
    l.depth = 4;
    l.multipv = 4;
    l.nsearchmoves = 2;
    l.searchmoves[0] = allowed[0];
    l.searchmoves[1] = allowed[1];
    memset(&s, 0, sizeof s);
    r = tc_engine_search(e, &l, collect, &s);
    /* h9h10 is Black's pawn: not legal for White, so one line is left */
    CHECK(s.count == 1 && s.first[0] == allowed[0] && r.best == allowed[0], "%d lines", s.count);
    tc_position_free(p);
    tc_engine_free(e);
}

/// Each depth's lines as reported: in order, and never a line above the
/// one before it.
typedef struct {
    int depth, next, prev_score, bad, lines, best_move_line1;
    tc_move line1;
} order_seen;

static void ordered(const tc_search_info *in, void *ctx)
{
    order_seen *s = ctx;
    if (in->bound != TC_BOUND_EXACT || in->pv_len < 1)
        return;
    if (in->multipv == 1) {
        s->depth = in->depth;
        s->line1 = in->pv[0];
    } else if (in->depth != s->depth || in->multipv != s->next || in->score > s->prev_score)
        s->bad++;
    s->next = in->multipv + 1;
    s->prev_score = in->score;
    s->lines++;
}

static void test_multipv_order(void)
{
    th_case("search: MultiPV shows each depth's lines best first, and plays line 1");
    /* on the torus after e4 e5, line 2 searched without line 1's move
     * scored above it at depth 6 (+0.17 against +0.08) */
    tc_variant *v = th_variant_cached("torus");
    if (!v)
        return;
    tc_engine *e = tc_engine_new(v, 16, 1);
    tc_position *p = tc_position_new(v);
    tc_error err;
    const char *moves[] = {"e4", "e5"};
    for (int i = 0; i < 2; i++) {
        tc_move m;
        CHECK(tc_move_parse(p, moves[i], &m, &err) == 0, "%s: %s", moves[i], err.msg);
        tc_make_move(p, m);
    }
    tc_engine_set_position(e, p);
    for (int lines = 2; lines <= 4; lines++) {
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 7;
        l.multipv = lines;
        order_seen s;
        memset(&s, 0, sizeof s);
        tc_engine_new_game(e);
        tc_search_result r = tc_engine_search(e, &l, ordered, &s);
        CHECK(s.lines == 7 * lines, "%d lines: %d reported", lines, s.lines);
        CHECK(s.bad == 0, "%d lines: %d out of order", lines, s.bad);
        CHECK(r.best == s.line1, "%d lines: the best move is line 1's", lines);
    }
    tc_position_free(p);
    tc_engine_free(e);
}

static void test_levels(void)
{
    th_case("search: limited strength picks plausible, sometimes weaker moves");
    tc_variant *v = th_variant_cached("chess");
    if (!v)
        return;
    tc_engine *e = tc_engine_new(v, 16, 1);
    tc_position *p = tc_position_new(v);
    uint64_t rng = 12345;
    int differ = 0, positions = 0;
    for (int game = 0; game < 12; game++) {
        tc_position_reset(p);
        tc_movelist list;
        for (int ply = 0; ply < 8; ply++) {
            int n = tc_generate_legal(p, &list);
            if (!n)
                break;
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            tc_make_move(p, list.moves[(rng >> 33) % (uint64_t)n]);
        }
        if (tc_position_status(p) != TC_ONGOING)
            continue;
        tc_engine_set_position(e, p);
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 4;
        tc_search_result strong = tc_engine_search(e, &l, NULL, NULL);
        l.elo = TC_ELO_MIN;
        tc_search_result weak = tc_engine_search(e, &l, NULL, NULL);
        CHECK(tc_is_legal(p, weak.best), "the weak move is legal");
        CHECK(weak.depth <= 1, "Elo %d searches depth %d", TC_ELO_MIN, weak.depth);
        differ += weak.best != strong.best;
        positions++;
    }
    CHECK(positions >= 8 && differ > 0, "the weak player differs from the strong in %d of %d", differ, positions);
    tc_position_free(p);
    tc_engine_free(e);
}

/* tc_gives_check reads the check off the board before the move; making the
 * move and asking tc_in_check is the reference. Every legal move of every
 * position along random games of every preset; the kinds of check counted,
 * so that a walk that met no discovered or promoting check fails. */
static void test_gives_check(void)
{
    tc_movelist *list = malloc(sizeof *list);
    long moves = 0, checks = 0, discovered = 0, promo = 0, special = 0;
    int games = th_sanitize() ? 2 : 6;
    for (int i = 0; list && i < tc_preset_count(); i++) {
        const tc_variant_def *d = tc_preset(i);
        th_case("search: fast gives-check equals make-and-test along random games (%s)", d->name);
        tc_variant *v = th_variant_cached(d->name);
        tc_position *p = v ? tc_position_new(v) : NULL;
        uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
        int bad = 0;
        for (int g = 0; p && g < games && !bad; g++) {
            tc_position_reset(p);
            for (int ply = 0; ply < 300 && !bad; ply++) {
                int n = tc_generate_legal(p, list);
                if (n == 0 || tc_position_status(p) != TC_ONGOING)
                    break;
                for (int k = 0; k < n && !bad; k++) {
                    tc_move m = list->moves[k];
                    int fast = tc_gives_check(p, m);
                    tc_make_move(p, m);
                    int ref = tc_in_check(p);
                    tc_unmake_move(p);
                    moves++;
                    if (ref) {
                        int us = p->side, to = TC_MOVE_TO(m);
                        checks++;
                        /* the king still attacked with a blocker on `to` */
                        discovered += attacked_sim(p, p->king[!us], us, TC_MOVE_FROM(m), -1, to);
                        promo += TC_MOVE_PROMO(m) != 0;
                        special += TC_MOVE_KIND(m) >= TC_MOVE_EP;
                    }
                    if (!fast != !ref) {
                        char fen[720], uci[16];
                        tc_position_fen(p, fen, sizeof fen);
                        tc_move_to_uci(p, m, uci);
                        CHECK(0, "%s: %s in %s: fast says %d, made says %d", d->name, uci, fen, fast, ref);
                        bad = 1;
                    }
                }
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                tc_make_move(p, list->moves[(rng >> 33) % (uint64_t)n]);
            }
        }
        tc_position_free(p);
    }
    th_case("search: the random games met checks of every kind");
    CHECK(checks > 1000 && discovered > 0 && promo > 0,
          "%ld moves: %ld checks, %ld discovered, %ld promoting, %ld by castling or en passant", moves, checks,
          discovered, promo, special);
    if (getenv("TC_VERBOSE"))
        printf("gives-check: %ld moves, %ld checks, %ld discovered, %ld promoting, %ld by castling or en passant\n",
               moves, checks, discovered, promo, special);
    free(list);
}

void suite_search(void)
{
    test_gives_check();
    test_see();
    test_multipv();
    test_multipv_order();
    test_levels();
}
