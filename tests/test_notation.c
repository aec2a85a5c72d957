/* Notation (docs/rules.md section 7): SAN and coordinate round trips over every
 * legal move of the reference positions and their children, SAN
 * uniqueness, lenient parsing, disambiguation (pieces, pawns on 8x14
 * boards), wrapped pawn captures, errors and tc_play_moves. */
#include "epd.h"
#include "harness.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- round trips */

/* Every legal move: SAN and coordinate form print and parse back to the
 * same move; no two moves share a SAN or a coordinate form. */
static void round_trip_position(tc_position *p, tc_movelist *list, char (*sans)[24], char (*ucis)[24])
{
    int n = tc_generate_legal(p, list), bad = 0;
    char fen[1024];
    tc_position_fen(p, fen, sizeof fen);
    for (int i = 0; i < n; i++) {
        tc_move m = list->moves[i], back = 0;
        tc_error err;
        tc_move_to_san(p, m, sans[i]);
        tc_move_to_uci(p, m, ucis[i]);
        if ((tc_move_parse(p, sans[i], &back, &err) || back != m) && bad++ < 3)
            CHECK(0, "%s: SAN '%s' parses to %08x, not %08x (%s)", fen, sans[i], back, m, err.msg);
        back = 0;
        if ((tc_move_from_uci(p, ucis[i], &back, &err) || back != m) && bad++ < 3)
            CHECK(0, "%s: coordinate '%s' parses to %08x, not %08x (%s)", fen, ucis[i], back, m, err.msg);
        back = 0;
        if ((tc_move_parse(p, ucis[i], &back, &err) || back != m) && bad++ < 3)
            CHECK(0, "%s: tc_move_parse('%s') gives %08x, not %08x (%s)", fen, ucis[i], back, m, err.msg);
        for (int k = 0; k < i; k++) {
            if (strcmp(sans[k], sans[i]) == 0 && bad++ < 3)
                CHECK(0, "%s: two moves print as '%s'", fen, sans[i]);
            if (strcmp(ucis[k], ucis[i]) == 0 && bad++ < 3)
                CHECK(0, "%s: two moves print as '%s'", fen, ucis[i]);
        }
    }
    CHECK(bad == 0, "%s: %d notation failures", fen, bad);
}

static void epd_round_trips(void)
{
    th_case("notation: reference positions found");
    th_epd *lines;
    int n = th_epd_load(&lines);
    tc_movelist *list = malloc(sizeof *list), *outer = malloc(sizeof *outer);
    char(*sans)[24] = malloc(sizeof *sans * TC_MAX_MOVES);
    char(*ucis)[24] = malloc(sizeof *ucis * TC_MAX_MOVES);
    CHECK(n >= 50, "only %d EPD lines", n);
    for (int i = 0; i < n && list && outer && sans && ucis; i++) {
        th_case("notation: round trips in %s %s and its children", lines[i].variant, lines[i].fen);
        tc_variant *v = th_variant_cached(lines[i].variant);
        if (!v)
            continue;
        tc_position *p = th_at_fen(v, lines[i].fen);
        if (!p)
            continue;
        round_trip_position(p, list, sans, ucis);
        int nm = tc_generate_legal(p, outer);
        for (int k = 0; k < nm; k++) {
            tc_make_move(p, outer->moves[k]);
            round_trip_position(p, list, sans, ucis);
            tc_unmake_move(p);
        }
        tc_position_free(p);
    }
    free(list);
    free(outer);
    free(sans);
    free(ucis);
    th_epd_free(lines);
}

/* ---------------------------------------------------------------- parsing */

/* `text` parses to the move from -> to (promotion `promo`, 0 for none). */
static void parses_to(const tc_position *p, const char *text, const char *from, const char *to, int promo)
{
    const tc_variant *v = tc_position_variant(p);
    tc_move m = 0;
    tc_error err;
    if (tc_move_parse(p, text, &m, &err)) {
        CHECK(0, "'%s' refused: %s", text, err.msg);
        return;
    }
    CHECK(TC_MOVE_FROM(m) == th_cell(v, from) && TC_MOVE_TO(m) == th_cell(v, to) && TC_MOVE_PROMO(m) == promo,
          "'%s' should be %s-%s (promotion %d)", text, from, to, promo);
}

static void refused(const tc_position *p, const char *text, const char *msg)
{
    tc_move m;
    tc_error err;
    err.msg[0] = '\0';
    CHECK(tc_move_parse(p, text, &m, &err) != 0, "'%s' accepted", text);
    CHECK(strstr(err.msg, msg) != NULL, "'%s': message '%s' lacks '%s'", text, err.msg, msg);
}

/* The SAN of the move from -> to (first match, promotion `promo`). */
static void san_is(const tc_position *p, const char *from, const char *to, int promo, const char *want)
{
    const tc_variant *v = tc_position_variant(p);
    tc_movelist *l = malloc(sizeof *l);
    if (!l)
        return;
    int n = tc_generate_legal(p, l), found = 0;
    for (int i = 0; i < n; i++) {
        tc_move m = l->moves[i];
        if (TC_MOVE_FROM(m) != th_cell(v, from) || TC_MOVE_TO(m) != th_cell(v, to) || TC_MOVE_PROMO(m) != promo)
            continue;
        char buf[24];
        tc_move_to_san(p, m, buf);
        CHECK(strcmp(buf, want) == 0, "%s-%s prints as '%s', expected '%s'", from, to, buf, want);
        found = 1;
        break;
    }
    CHECK(found, "no legal move %s-%s", from, to);
    free(l);
}

static void lenient(void)
{
    tc_variant *ch = th_variant_cached("chess");
    if (!ch)
        return;
    th_case("notation: lenient SAN");
    tc_position *p = tc_position_new(ch);
    static const char *const nf3[] = {"Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "Nf3+", "Nf3#", "Nf3!", "Nf3?",
                                      "Nf3!?", "Nf3?!", "Nf3!!", "g1f3", " Nf3 "};
    for (size_t i = 0; i < sizeof nf3 / sizeof nf3[0]; i++)
        parses_to(p, nf3[i], "g1", "f3", 0);
    static const char *const e4[] = {"e4", "e2e4", "e2-e4", "Pe4", "e4!", "Pe2e4"};
    for (size_t i = 0; i < sizeof e4 / sizeof e4[0]; i++)
        parses_to(p, e4[i], "e2", "e4", 0);
    tc_position_free(p);

    th_case("notation: lenient pawn captures");
    p = th_at_fen(ch, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    if (p) {
        static const char *const exd5[] = {"exd5", "ed5", "e4xd5", "e4d5", "4xd5", "exd5+", "e4-d5", "e:d5",
                                           "Pxd5", "Pexd5"};
        for (size_t i = 0; i < sizeof exd5 / sizeof exd5[0]; i++)
            parses_to(p, exd5[i], "e4", "d5", 0);
        san_is(p, "e4", "d5", 0, "exd5");
    }
    tc_position_free(p);

    th_case("notation: check and mate marks");
    p = tc_position_new(ch);
    tc_error perr;
    CHECK(tc_play_moves(p, "f3 e5 g4", &perr) == 0, "%s", perr.msg);
    san_is(p, "d8", "h4", 0, "Qh4#");
    parses_to(p, "Qh4", "d8", "h4", 0);
    tc_position_free(p);
    p = th_at_fen(ch, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    if (p) {
        san_is(p, "a1", "a8", 0, "Ra8+");
        san_is(p, "e1", "c1", 0, "O-O-O");
    }
    tc_position_free(p);
    {
        tc_variant *fo = th_variant_cached("folding");
        p = fo ? th_at_fen(fo, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1") : NULL;
        if (p) {
            tc_movelist *l = malloc(sizeof *l);
            int n = l ? tc_generate_legal(p, l) : 0, plain = 0, castle = 0;
            for (int i = 0; i < n; i++) {
                if (TC_MOVE_FROM(l->moves[i]) != th_cell(fo, "e1") || TC_MOVE_TO(l->moves[i]) != th_cell(fo, "c1"))
                    continue;
                char buf[24];
                tc_move_to_san(p, l->moves[i], buf);
                if (TC_MOVE_KIND(l->moves[i]) == TC_MOVE_CASTLE_Q)
                    castle += strcmp(buf, "O-O-O+") == 0; /* d1 rook: d-file, then over the fold to e8 */
                else
                    plain += strcmp(buf, "Kc1") == 0;
            }
            CHECK(plain == 1 && castle == 1, "folding: e1-c1 should print as Kc1 and as O-O-O+");
            parses_to(p, "Kc1", "e1", "c1", 0);
            free(l);
        }
        tc_position_free(p);
    }

    th_case("notation: castling spellings");
    p = th_at_fen(ch, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    if (p) {
        static const char *const oo[] = {"O-O", "0-0", "OO", "O-O+", "0-0!"};
        static const char *const ooo[] = {"O-O-O", "0-0-0", "OOO", "O-O-O+"};
        for (size_t i = 0; i < sizeof oo / sizeof oo[0]; i++) {
            tc_move m = 0;
            tc_error err;
            CHECK(tc_move_parse(p, oo[i], &m, &err) == 0 && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_K, "'%s'", oo[i]);
        }
        for (size_t i = 0; i < sizeof ooo / sizeof ooo[0]; i++) {
            tc_move m = 0;
            tc_error err;
            CHECK(tc_move_parse(p, ooo[i], &m, &err) == 0 && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_Q, "'%s'", ooo[i]);
        }
        san_is(p, "e1", "g1", 0, "O-O");
        san_is(p, "e1", "c1", 0, "O-O-O");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1");
    if (p)
        refused(p, "O-O", "castling");
    tc_position_free(p);

    th_case("notation: promotion with and without '='");
    p = th_at_fen(ch, "1n2k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
    if (p) {
        parses_to(p, "c8=Q", "c7", "c8", TC_QUEEN);
        parses_to(p, "c8Q", "c7", "c8", TC_QUEEN);
        parses_to(p, "c8=N", "c7", "c8", TC_KNIGHT);
        parses_to(p, "c7c8r", "c7", "c8", TC_ROOK);
        parses_to(p, "cxb8=B", "c7", "b8", TC_BISHOP);
        parses_to(p, "cxb8Q+", "c7", "b8", TC_QUEEN);
        parses_to(p, "c7xb8=N", "c7", "b8", TC_KNIGHT);
        san_is(p, "c7", "c8", TC_QUEEN, "c8=Q+");
        san_is(p, "c7", "b8", TC_ROOK, "cxb8=R+");
        san_is(p, "c7", "b8", TC_KNIGHT, "cxb8=N");
        refused(p, "c8", "promotion");
        refused(p, "c7c8", "promotion");
        refused(p, "c8=K", "promotion");
    }
    tc_position_free(p);
}

static void wrapped_captures(void)
{
    tc_variant *cy = th_variant_cached("cylinder"), *to = th_variant_cached("torus");
    tc_variant *mo = th_variant_cached("mobius");
    if (!cy || !to || !mo)
        return;
    th_case("notation: pawn capture across the cylinder join");
    tc_position *p = th_at_fen(cy, "4k3/8/8/8/8/7p/P7/4K3 w - - 0 1");
    if (p) {
        san_is(p, "a2", "h3", 0, "axh3");
        parses_to(p, "axh3", "a2", "h3", 0);
        parses_to(p, "ah3", "a2", "h3", 0);
        parses_to(p, "a2h3", "a2", "h3", 0);
    }
    tc_position_free(p);

    th_case("notation: pawn capture across the torus join");
    p = th_at_fen(to, "8/8/8/8/8/8/4k3/8/8/8/8/p7/7P/4K3 b - - 0 1");
    if (p) {
        /* Black a3 (rank 3: goes S) takes h2 over the a/h join */
        san_is(p, "a3", "h2", 0, "axh2");
        parses_to(p, "axh2", "a3", "h2", 0);
    }
    tc_position_free(p);

    th_case("notation: exc12 across the mobius twist");
    p = tc_position_new(mo);
    tc_error err;
    CHECK(tc_play_moves(p, "1. d12 e11 2. c12", &err) == 0, "%s", err.msg);
    san_is(p, "e11", "c12", 0, "exc12");
    parses_to(p, "exc12", "e11", "c12", 0);
    parses_to(p, "e11c12", "e11", "c12", 0);
    parses_to(p, "11xc12", "e11", "c12", 0);
    tc_position_free(p);
}

static void disambiguation(void)
{
    tc_variant *ch = th_variant_cached("chess"), *mc = th_variant_cached("monteiro-cylinder");
    if (!ch || !mc)
        return;
    th_case("notation: d7d8=Q and d9d8=Q on 8x14");
    tc_position *p = th_at_fen(mc, "8/8/8/7k/8/3P4/8/3P4/8/8/8/8/8/7K w - - 0 1");
    if (p) {
        san_is(p, "d7", "d8", TC_QUEEN, "d7d8=Q");
        san_is(p, "d9", "d8", TC_QUEEN, "d9d8=Q");
        san_is(p, "d9", "d8", TC_KNIGHT, "d9d8=N");
        parses_to(p, "d7d8=Q", "d7", "d8", TC_QUEEN);
        parses_to(p, "d9d8=Q", "d9", "d8", TC_QUEEN);
        parses_to(p, "d9d8Q", "d9", "d8", TC_QUEEN);
        parses_to(p, "d7d8q", "d7", "d8", TC_QUEEN);
        parses_to(p, "d9d8n", "d9", "d8", TC_KNIGHT);
        parses_to(p, "9d8=R", "d9", "d8", TC_ROOK);
        refused(p, "d8=Q", "ambiguous");
        refused(p, "dd8=Q", "ambiguous");
        refused(p, "d7d8", "promotion");
        /* the other pushes are not ambiguous */
        san_is(p, "d7", "d8", TC_BISHOP, "d7d8=B");
    }
    tc_position_free(p);

    th_case("notation: d7xe8 and d9xe8 name the source rank");
    p = th_at_fen(mc, "8/8/8/7k/8/3P4/4r3/3P4/8/8/8/8/8/7K w - - 0 1");
    if (p) {
        san_is(p, "d7", "e8", TC_ROOK, "d7xe8=R");
        san_is(p, "d9", "e8", TC_ROOK, "d9xe8=R");
        san_is(p, "d9", "e8", TC_QUEEN, "d9xe8=Q+");
        parses_to(p, "d7xe8=R", "d7", "e8", TC_ROOK);
        parses_to(p, "9xe8=R", "d9", "e8", TC_ROOK);
        parses_to(p, "d9e8r", "d9", "e8", TC_ROOK);
        refused(p, "dxe8=R", "ambiguous");
        refused(p, "xe8=R", "ambiguous");
    }
    tc_position_free(p);

    th_case("notation: 8x14 pawn pushes that are not ambiguous stay short");
    p = tc_position_new(mc);
    san_is(p, "e2", "e3", 0, "e3");
    san_is(p, "e14", "e12", 0, "e12");
    san_is(p, "e14", "e13", 0, "e13");
    parses_to(p, "e13", "e14", "e13", 0);
    parses_to(p, "e14e13", "e14", "e13", 0);
    tc_position_free(p);

    th_case("notation: piece disambiguation by file and by rank");
    p = th_at_fen(ch, "4k3/8/8/R7/8/8/4K3/R6R w - - 0 1");
    if (p) {
        san_is(p, "a1", "d1", 0, "Rad1");
        san_is(p, "h1", "d1", 0, "Rhd1");
        san_is(p, "a1", "a3", 0, "R1a3");
        san_is(p, "a5", "a3", 0, "R5a3");
        san_is(p, "a5", "b5", 0, "Rb5");
        parses_to(p, "Rad1", "a1", "d1", 0);
        parses_to(p, "Rhd1", "h1", "d1", 0);
        parses_to(p, "R1a3", "a1", "a3", 0);
        parses_to(p, "R5a3", "a5", "a3", 0);
        parses_to(p, "Ra5a3", "a5", "a3", 0);
        refused(p, "Rd1", "ambiguous");
        refused(p, "Ra3", "ambiguous");
        refused(p, "Rb2", "illegal");
    }
    tc_position_free(p);

    th_case("notation: piece disambiguation by file and rank");
    p = th_at_fen(ch, "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    if (p) {
        san_is(p, "a1", "b2", 0, "Qa1b2");
        san_is(p, "c1", "b2", 0, "Qcb2");
        san_is(p, "a3", "b2", 0, "Q3b2");
        parses_to(p, "Qa1b2", "a1", "b2", 0);
        parses_to(p, "Qa1xb2", "a1", "b2", 0);
        parses_to(p, "Qcb2", "c1", "b2", 0);
        parses_to(p, "Q3b2", "a3", "b2", 0);
        refused(p, "Qb2", "ambiguous");
        refused(p, "Qab2", "ambiguous");
        refused(p, "Q1b2", "ambiguous");
    }
    tc_position_free(p);
}

static void errors(void)
{
    tc_variant *ch = th_variant_cached("chess"), *mo = th_variant_cached("mobius");
    if (!ch || !mo)
        return;
    th_case("notation: illegal moves are refused as illegal");
    tc_position *p = tc_position_new(ch);
    static const char *const illegal[] = {"Ke3", "e5", "Nf6", "Bc4", "e2e5", "e1g1", "Qxd7", "Nd2", "exd3",
                                          "a2a4q", "h3h4"};
    for (size_t i = 0; i < sizeof illegal / sizeof illegal[0]; i++)
        refused(p, illegal[i], "illegal");
    refused(p, "O-O", "castling");
    refused(p, "e9", "e9");
    refused(p, "", "empty");
    refused(p, "hello", "hello");
    refused(p, "Zf3", "Zf3");
    refused(p, "+", "not a move");
    tc_move m;
    tc_error err;
    CHECK(tc_move_from_uci(p, "Nf3", &m, &err) != 0, "coordinate parser takes SAN");
    CHECK(tc_move_from_uci(p, "e2e4x", &m, &err) != 0, "bad promotion suffix accepted");
    CHECK(tc_move_from_uci(p, "e2", &m, &err) != 0, "half a move accepted");
    tc_position_free(p);

    th_case("notation: 8x14 coordinate and SAN cells with two digits");
    p = tc_position_new(mo);
    parses_to(p, "d14d12", "d14", "d12", 0);
    parses_to(p, "d12", "d14", "d12", 0);
    parses_to(p, "d14-d12", "d14", "d12", 0);
    tc_error perr;
    CHECK(tc_play_moves(p, "a3", &perr) == 0, "%s", perr.msg);
    parses_to(p, "e9e11", "e9", "e11", 0);
    parses_to(p, "e11", "e9", "e11", 0);
    parses_to(p, "e5", "e7", "e5", 0);
    refused(p, "e8", "illegal");
    tc_position_free(p);
}

static void play_moves(void)
{
    tc_variant *ch = th_variant_cached("chess");
    if (!ch)
        return;
    th_case("notation: tc_play_moves with move numbers");
    tc_position *p = tc_position_new(ch);
    tc_error err;
    CHECK(tc_play_moves(p, "1. e4 e5 2.Nf3 Nc6 3.Bb5", &err) == 0, "%s", err.msg);
    char fen[1024];
    tc_position_fen(p, fen, sizeof fen);
    CHECK(strcmp(fen, "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3") == 0, "got '%s'", fen);
    CHECK(tc_play_moves(p, "3... a6 4. Ba4 *", &err) == 0, "%s", err.msg);
    CHECK(tc_ply_count(p) == 7, "7 plies, got %d", tc_ply_count(p));
    CHECK(tc_play_moves(p, "", &err) == 0 && tc_ply_count(p) == 7, "empty list");

    th_case("notation: tc_play_moves leaves the position unchanged on an error");
    char before[1024], after[1024];
    tc_position_fen(p, before, sizeof before);
    uint64_t key = tc_key(p);
    err.msg[0] = '\0';
    CHECK(tc_play_moves(p, "4... Nf6 5. O-O Be7 6. Ke3", &err) != 0, "Ke3 accepted");
    CHECK(strstr(err.msg, "illegal") != NULL && strstr(err.msg, "Ke3") != NULL, "message '%s'", err.msg);
    tc_position_fen(p, after, sizeof after);
    CHECK(strcmp(before, after) == 0, "position changed to '%s'", after);
    CHECK(tc_key(p) == key && tc_ply_count(p) == 7, "key or history changed");
    CHECK(tc_play_moves(p, "Nf6 Qd8", &err) != 0, "garbage accepted");
    CHECK(tc_ply_count(p) == 7, "history changed");
    CHECK(tc_play_moves(p, "Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O", &err) == 0, "%s", err.msg);
    CHECK(tc_ply_count(p) == 16, "16 plies, got %d", tc_ply_count(p));
    tc_position_free(p);
}

void suite_notation(void)
{
    epd_round_trips();
    lenient();
    wrapped_captures();
    disambiguation();
    errors();
    play_moves();
    th_variants_free();
}
