/* Perft: every line of every reference EPD file, the standard
 * chessprogramming positions on `chess`, and refgen's own depth-2 perft
 * (an independent generator) against the library's on every EPD line;
 * then two pawn-step counts the random boards found (docs/rules.md section 4),
 * castling with one rook, and the pawns that a setup may not hold
 * (issue 28). */
#include "epd.h"
#include "harness.h"
#include "refgen.h"

#include <stdlib.h>
#include <string.h>

/* Depths above this are run from startpos.epd only, and not under the
 * sanitizers, so that the suite stays fast. */
#define EPD_DEPTH 3

static void run_epd_line(const th_epd *e, int max_depth)
{
    th_case("perft %s:%d %s", e->file, e->line, e->variant);
    tc_variant *v = th_variant(e->variant);
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    tc_error err;
    if (tc_position_set_fen(p, e->fen, &err) != 0) {
        CHECK(0, "%s: %s", e->fen, err.msg);
    } else {
        for (int d = 1; d <= max_depth; d++) {
            if (!e->count[d])
                continue;
            uint64_t got = tc_perft(p, d);
            CHECK(got == e->count[d], "%s: D%d gives %llu, expected %llu", e->fen, d,
                  (unsigned long long)got, (unsigned long long)e->count[d]);
        }
        /* the independent generator agrees at depth 2 */
        rg_board rb;
        if (rg_board_from(p, &rb) != 0) {
            CHECK(0, "refgen cannot read the setup of %s", e->variant);
        } else {
            uint64_t ref = rg_perft(&rb, 2), lib = tc_perft(p, 2);
            CHECK(ref == lib, "%s: refgen D2 %llu, library D2 %llu", e->fen,
                  (unsigned long long)ref, (unsigned long long)lib);
            CHECK(!e->count[2] || ref == e->count[2], "%s: refgen D2 %llu, expected %llu",
                  e->fen, (unsigned long long)ref, (unsigned long long)e->count[2]);
        }
    }
    tc_position_free(p);
    tc_variant_free(v);
}

static void run_epd_file(const char *file)
{
    th_case("perft %s", file);
    th_epd *lines;
    int n = th_epd_read(file, &lines);
    if (n < 0)
        return;
    int deep = strcmp(file, "startpos.epd") == 0 && !th_sanitize();
    for (int i = 0; i < n; i++)
        run_epd_line(&lines[i], deep ? TH_EPD_MAX_DEPTH : EPD_DEPTH);
    th_epd_free(lines);
    th_case("perft %s: lines", file);
    CHECK(n > 0, "%s/%s holds no positions", th_perft_dir(), file);
}

/// A standard position with its published counts (chessprogramming wiki,
/// "Perft Results"); 0 ends the list.
typedef struct {
    const char *name, *fen;
    uint64_t count[7];
} std_pos;

static const std_pos standard[] = {
    {"startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {20, 400, 8902, 197281, 4865609, 119060324}},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {48, 2039, 97862, 4085603}},
    {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812, 43238, 674624}},
    {"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {6, 264, 9467, 422333}},
    {"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     {6, 264, 9467, 422333}},
    {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {44, 1486, 62379, 2103487}},
    {"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {46, 2079, 89890, 3894594}},
};

static void run_standard(void)
{
    /* under the sanitizers only the depths with small counts */
    uint64_t limit = th_sanitize() ? 200000 : UINT64_MAX;
    tc_variant *v = th_variant("chess");
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        const std_pos *s = &standard[i];
        th_case("perft chess %s", s->name);
        tc_error err;
        if (tc_position_set_fen(p, s->fen, &err) != 0) {
            CHECK(0, "%s: %s", s->fen, err.msg);
            continue;
        }
        for (int d = 1; d <= 7 && s->count[d - 1]; d++) {
            if (s->count[d - 1] > limit)
                break;
            uint64_t got = tc_perft(p, d);
            CHECK(got == s->count[d - 1], "%s: D%d gives %llu, expected %llu", s->fen, d,
                  (unsigned long long)got, (unsigned long long)s->count[d - 1]);
        }
        rg_board rb;
        CHECK(rg_board_from(p, &rb) == 0, "refgen cannot read the chess setup");
        uint64_t ref = rg_perft(&rb, 2);
        CHECK(ref == s->count[1], "%s: refgen D2 %llu, expected %llu", s->fen,
              (unsigned long long)ref, (unsigned long long)s->count[1]);
    }
    tc_position_free(p);
    tc_variant_free(v);
}

/* docs/rules.md section 4: a two-step whose second step a fold sends back onto
 * the first step's cell is no move of its own (issue 22's board). */
static void fold_two_step(void)
{
    th_case("rules: a fold sending a two-step back onto its first cell adds no move");
    tc_variant_def d;
    th_def(&d, "fold-5x11", 5, 11, TC_FILES_WRAP, TC_RANKS_FOLD, 0, "1k3/5/2p2/1b3/5/2b2/n4/5/q4/2p2/KN3");
    tc_error err;
    tc_variant *f = tc_variant_new(&d, &err);
    CHECK(f != NULL, "%s", err.msg);
    tc_position *p = f ? tc_position_new(f) : NULL;
    tc_movelist *l = malloc(sizeof *l);
    if (p && l) {
        CHECK(tc_play_moves(p, "Nxa3", &err) == 0, "Nxa3: %s", err.msg);
        int n = tc_generate_legal(p, l), c2c1 = 0, dup = 0;
        for (int i = 0; i < n; i++) {
            tc_move m = l->moves[i];
            if (TC_MOVE_FROM(m) == th_cell(f, "c2") && TC_MOVE_TO(m) == th_cell(f, "c1")) {
                c2c1++;
                CHECK(TC_MOVE_KIND(m) == TC_MOVE_NORMAL, "c2c1 is a one-step, not a two-step");
            }
            for (int j = 0; j < i; j++)
                dup += TC_MOVE_FROM(m) == TC_MOVE_FROM(l->moves[j]) && TC_MOVE_TO(m) == TC_MOVE_TO(l->moves[j]) &&
                       TC_MOVE_PROMO(m) == TC_MOVE_PROMO(l->moves[j]);
        }
        CHECK(n == 61, "Black has %d moves after Nxa3, docs/rules.md section 4 says 61", n);
        CHECK(c2c1 == 4 && dup == 0, "c2c1: %d moves (one per promotion piece), %d duplicates", c2c1, dup);
        CHECK(tc_ep_cell(p) == -1, "no en passant cell before Black moves");
        tc_move m;
        CHECK(tc_move_parse(p, "c2c1q", &m, &err) == 0, "%s", err.msg);
        tc_make_move(p, m);
        CHECK(tc_ep_cell(p) == -1, "c2c1=Q leaves no en passant cell");
    }
    tc_position_free(p);
    tc_variant_free(f);

    th_case("rules: a pawn whose first step reaches the last rank makes no two-step");
    /* 11x3, ranks wrap: the pawn on h1 goes S over the join to h3, Black's
     * back rank; a second step would land on White's own back rank */
    th_def(&d, "wrap-11x3", 11, 3, TC_FILES_OPEN, TC_RANKS_WRAP, 0, "10k/4K6/7P3");
    f = tc_variant_new(&d, &err);
    CHECK(f != NULL, "%s", err.msg);
    p = f ? tc_position_new(f) : NULL;
    if (p && l) {
        int n = tc_generate_legal(p, l), pawn = 0, promo = 0;
        for (int i = 0; i < n; i++)
            if (TC_MOVE_FROM(l->moves[i]) == th_cell(f, "h1")) {
                pawn++;
                promo += TC_MOVE_TO(l->moves[i]) == th_cell(f, "h3") && TC_MOVE_PROMO(l->moves[i]) &&
                         TC_MOVE_KIND(l->moves[i]) == TC_MOVE_NORMAL;
            }
        CHECK(pawn == 4 && promo == 4, "h1: %d moves, %d of them h1-h3 promotions (want 4 and 4)", pawn, promo);
    }
    free(l);
    tc_position_free(p);
    tc_variant_free(f);
}

/* Whether the legal moves hold the move written `uci`. */
static int has_uci(tc_position *p, const char *uci)
{
    tc_movelist *l = malloc(sizeof *l);
    int n = l ? tc_generate_legal(p, l) : 0, found = 0;
    for (int i = 0; i < n; i++) {
        char t[16];
        tc_move_to_uci(p, l->moves[i], t);
        found |= !strcmp(t, uci);
    }
    free(l);
    return found;
}

/* docs/rules.md section 4: each castling needs only its own rook on its file;
 * section 7: the board-only FEN gets the rights the placement allows. The
 * board of issue 28, where the generator left out O-O-O. */
static void castling_per_rook(void)
{
    th_case("rules: castling with one rook (11x8, ranks twist at 3, rook on a1 only)");
    tc_variant_def d;
    th_def(&d, "one-rook", 11, 8, TC_FILES_OPEN, TC_RANKS_TWIST, 3, "6k4/11/11/8p2/11/11/5P5/R3K6");
    tc_error err;
    tc_variant *v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "%s", err.msg);
    tc_position *p = v ? tc_position_new(v) : NULL;
    if (p) {
        char fen[800];
        tc_position_fen(p, fen, sizeof fen);
        CHECK(strstr(fen, " w Q - 0 1") != NULL, "board-only FEN: %s, want the rights 'Q'", fen);
        CHECK(tc_perft(p, 1) == 26, "White has %llu moves, want 26 (O-O-O among them)",
              (unsigned long long)tc_perft(p, 1));
        CHECK(has_uci(p, "e1c1"), "e1c1 (O-O-O) is missing");
        tc_move m;
        CHECK(tc_move_parse(p, "O-O-O", &m, &err) == 0 && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_Q, "O-O-O: %s",
              err.msg);
        CHECK(tc_move_parse(p, "O-O", &m, &err) != 0, "O-O is accepted without a rook on h1");
        /* a rook put on h1 by a FEN gives no short castling: the setup has none */
        CHECK(tc_position_set_fen(p, "6k4/11/11/8p2/11/11/5P5/R3K2R3 w KQ - 0 1", &err) == 0, "%s", err.msg);
        tc_position_fen(p, fen, sizeof fen);
        CHECK(strstr(fen, " w Q - ") != NULL, "K kept where the setup has no rook on h1: %s", fen);
        rg_board rb;
        CHECK(rg_board_from(p, &rb) == 0 && rg_perft(&rb, 3) == tc_perft(p, 3), "refgen perft 3 differs");
    }
    tc_position_free(p);
    tc_variant_free(v);

    th_case("rules: castling with one rook, Black on the h-file side");
    th_def(&d, "one-rook-b", 8, 8, TC_FILES_OPEN, TC_RANKS_OPEN, 0, "4k2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "%s", err.msg);
    p = v ? tc_position_new(v) : NULL;
    if (p) {
        char fen[800];
        tc_position_fen(p, fen, sizeof fen);
        CHECK(strstr(fen, " w KQk - ") != NULL, "board-only FEN: %s, want KQk", fen);
        CHECK(tc_play_moves(p, "e4", &err) == 0, "%s", err.msg);
        CHECK(has_uci(p, "e8g8"), "black O-O is missing");
    }
    tc_position_free(p);
    tc_variant_free(v);
}

/* docs/rules.md section 3: a pawn on either king's rank, or with no forward
 * direction, is an error in the setup (and in a FEN), with the reason. */
static void stuck_pawns(void)
{
    static const struct {
        const char *what;
        int w, h;
        tc_file_rule files;
        tc_rank_rule ranks;
        const char *setup, *want;
    } bad[] = {
        /* docs/rules.md's example: a White pawn on c1 below its king on e2 */
        {"a white pawn below its own king", 8, 8, TC_FILES_OPEN, TC_RANKS_OPEN, "4k3/8/8/8/8/8/4K3/2P5",
         "the white pawn on c1 has no forward direction"},
        {"a black pawn beyond the white king", 8, 8, TC_FILES_OPEN, TC_RANKS_OPEN, "8/2p5/4k3/8/8/4K3/8/8",
         "the black pawn on c7 has no forward direction"},
        {"a pawn on a king's rank", 8, 8, TC_FILES_OPEN, TC_RANKS_OPEN, "4k3/8/8/8/8/8/8/2P1K3",
         "the white pawn on c1 stands on rank 1, the white king's rank"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        th_case("rules: setup refused: %s", bad[i].what);
        tc_variant_def d;
        th_def(&d, "stuck", bad[i].w, bad[i].h, bad[i].files, bad[i].ranks, 0, bad[i].setup);
        tc_error err = {{0}};
        tc_variant *v = tc_variant_new(&d, &err);
        CHECK(v == NULL, "accepted");
        CHECK(strstr(err.msg, bad[i].want) != NULL, "reason '%s', want '%s'", err.msg, bad[i].want);
        char why[96];
        CHECK(!rg_setup_legal(&d, why, sizeof why), "refgen accepts it");
        tc_variant_free(v);
    }

    th_case("rules: a FEN with a pawn that could never move is refused");
    tc_variant_def d;
    th_def(&d, "kings-1-3", 8, 8, TC_FILES_OPEN, TC_RANKS_OPEN, 0, "8/8/8/8/8/4k3/8/4K3");
    tc_error err;
    tc_variant *v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "%s", err.msg);
    tc_position *p = v ? tc_position_new(v) : NULL;
    if (p) {
        /* White promotes on rank 3: its pawn on c5 walks down to it */
        CHECK(tc_position_set_fen(p, "8/8/8/2P5/8/4k3/8/4K3 w - - 0 1", &err) == 0, "%s", err.msg);
        /* a Black pawn on c5 walks up off the board or down to its own rank */
        CHECK(tc_position_set_fen(p, "8/8/8/2p5/8/4k3/8/4K3 w - - 0 1", &err) != 0, "accepted");
        CHECK(strstr(err.msg, "FEN: the black pawn on c5 has no forward direction") != NULL, "%s", err.msg);
    }
    tc_position_free(p);
    tc_variant_free(v);
}

void suite_perft(void)
{
    run_standard();

    th_case("perft directory %s", th_perft_dir());
    char names[TH_EPD_MAX_FILES][64];
    int nfiles = th_epd_files(names, TH_EPD_MAX_FILES);
    CHECK(nfiles > 0, "no .epd files in %s", th_perft_dir());
    for (int i = 0; i < nfiles; i++)
        run_epd_file(names[i]);
    fold_two_step();
    castling_per_rook();
    stuck_pawns();
}
