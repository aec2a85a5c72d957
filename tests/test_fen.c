/* FEN (docs/rules.md section 7): round trips over every reference position and
 * its children, board-only FEN, wide boards, en passant handling, and the
 * errors for bad input (with the position left unchanged). */
#include "epd.h"
#include "harness.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Sets the FEN on a fresh position and checks that printing and reading it
 * again is stable; returns the printed FEN in out. */
static bool round_trip(const tc_variant *v, const char *fen, uint64_t want_key, bool check_key, char *out)
{
    tc_position *a = tc_position_new(v), *b = tc_position_new(v);
    tc_error err;
    bool ok = false;
    if (!a || !b)
        goto done;
    if (tc_position_set_fen(a, fen, &err)) {
        CHECK(0, "'%s' refused: %s", fen, err.msg);
        goto done;
    }
    char f1[1024], f2[1024];
    tc_position_fen(a, f1, sizeof f1);
    if (tc_position_set_fen(b, f1, &err)) {
        CHECK(0, "printed FEN '%s' refused: %s", f1, err.msg);
        goto done;
    }
    tc_position_fen(b, f2, sizeof f2);
    CHECK(strcmp(f1, f2) == 0, "FEN not stable: '%s' then '%s'", f1, f2);
    CHECK(tc_key(a) == tc_key(b), "key changes on a round trip of '%s'", f1);
    if (check_key)
        CHECK(tc_key(a) == want_key, "key of '%s' read from FEN differs from the key after the move", f1);
    if (out)
        strcpy(out, f1);
    ok = true;
done:
    tc_position_free(a);
    tc_position_free(b);
    return ok;
}

static void epd_round_trips(void)
{
    th_case("fen: reference positions found");
    th_epd *lines;
    int n = th_epd_load(&lines);
    CHECK(n >= 50, "only %d EPD lines in %s", n, th_perft_dir());
    tc_movelist *list = malloc(sizeof *list);
    for (int i = 0; i < n && list; i++) {
        th_case("fen: round trip %s %s", lines[i].variant, lines[i].fen);
        tc_variant *v = th_variant_cached(lines[i].variant);
        if (!v)
            continue;
        char printed[1024];
        if (!round_trip(v, lines[i].fen, 0, false, printed))
            continue;
        CHECK(strcmp(printed, lines[i].fen) == 0, "printed '%s' differs from the reference", printed);

        th_case("fen: round trip after each move of %s %s", lines[i].variant, lines[i].fen);
        tc_position *p = tc_position_new(v);
        tc_error err;
        if (!p || tc_position_set_fen(p, lines[i].fen, &err)) {
            tc_position_free(p);
            continue;
        }
        int nm = tc_generate_legal(p, list);
        char before[1024];
        tc_position_fen(p, before, sizeof before);
        for (int k = 0; k < nm; k++) {
            char child[1024];
            tc_make_move(p, list->moves[k]);
            tc_position_fen(p, child, sizeof child);
            round_trip(v, child, tc_key(p), true, NULL);
            tc_unmake_move(p);
        }
        char after[1024];
        tc_position_fen(p, after, sizeof after);
        CHECK(strcmp(before, after) == 0, "make/unmake changed the FEN: '%s'", after);
        tc_position_free(p);
    }
    free(list);
    th_epd_free(lines);
}

static void expect_fen(const tc_variant *v, const char *in, const char *want)
{
    tc_position *p = tc_position_new(v);
    tc_error err;
    if (!p)
        return;
    if (tc_position_set_fen(p, in, &err)) {
        CHECK(0, "'%s' refused: %s", in, err.msg);
    } else {
        char out[1024];
        tc_position_fen(p, out, sizeof out);
        CHECK(strcmp(out, want) == 0, "'%s' gives '%s', expected '%s'", in, out, want);
    }
    tc_position_free(p);
}

static void board_only(void)
{
    th_case("fen: board-only FEN gets defaults and allowed castling rights");
    tc_variant *ch = th_variant_cached("chess"), *mo = th_variant_cached("mobius");
    tc_variant *fo = th_variant_cached("folding");
    if (!ch || !mo || !fo)
        return;
    expect_fen(ch, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    expect_fen(ch, "r3k3/8/8/8/8/8/8/4K2R", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    expect_fen(ch, "r3k2r/8/8/8/8/8/8/R2K3R", "r3k2r/8/8/8/8/8/8/R2K3R w kq - 0 1");
    expect_fen(ch, "4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    expect_fen(fo, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    const char *L = "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    char want[800];
    snprintf(want, sizeof want, "%s w KQkq - 0 1", L);
    expect_fen(mo, L, want);
    /* fields after the board are optional one by one */
    expect_fen(ch, "4k3/8/8/8/8/8/8/4K3 b", "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    expect_fen(ch, "r3k3/8/8/8/8/8/8/4K2R b -", "r3k3/8/8/8/8/8/8/4K2R b - - 0 1");
    /* rights the placement contradicts are dropped */
    expect_fen(ch, "r3k3/8/8/8/8/8/8/4K2R w KQkq - 3 9", "r3k3/8/8/8/8/8/8/4K2R w Kq - 3 9");
    /* extra spaces are harmless */
    expect_fen(ch, "  4k3/8/8/8/8/8/8/4K3   w  -  -  5  7 ", "4k3/8/8/8/8/8/8/4K3 w - - 5 7");
}

/* A W x H board with wrapped files and kings on the end ranks. */
static tc_variant *wide(int W, int H)
{
    return th_kings_variant(W, H, TC_FILES_WRAP, TC_RANKS_OPEN, 0, H - 1);
}

static void wide_boards(void)
{
    th_case("fen: two-digit runs on a 16x16 board");
    tc_variant *v = wide(16, 16);
    if (v) {
        tc_position *p = tc_position_new(v);
        char out[1024];
        tc_position_fen(p, out, sizeof out);
        CHECK(strcmp(out, "4k11/16/16/16/16/16/16/16/16/16/16/16/16/16/16/4K11 w - - 0 1") == 0, "start '%s'",
              out);
        expect_fen(v, "4k11/16/2p10p2/16/16/16/16/16/16/16/16/16/16/10N5/16/4K11 b - - 0 1",
                   "4k11/16/2p10p2/16/16/16/16/16/16/16/16/16/16/10N5/16/4K11 b - - 0 1");
        /* 1 then 0 is not ten: a zero-length run is refused */
        tc_error err;
        CHECK(tc_position_set_fen(p, "4k11/16/16/16/16/16/16/16/16/16/16/16/16/16/16/4K1101 w", &err) != 0,
              "a run '1101' accepted");
        CHECK(tc_position_set_fen(p, "4k11/16/16/16/16/16/16/16/16/16/16/16/16/16/17/4K11 w", &err) != 0,
              "a run of 17 accepted on 16 files");
        tc_position_free(p);
        tc_variant_free(v);
    }
    th_case("fen: 10-file board");
    v = wide(10, 12);
    if (v) {
        expect_fen(v, "4k5/10/10/10/10/3P6/10/10/10/10/10/4K5", "4k5/10/10/10/10/3P6/10/10/10/10/10/4K5 w - - 0 1");
        expect_fen(v, "4k5/10/10/10/10/9P/10/10/10/10/10/4K5 w - - 0 1",
                   "4k5/10/10/10/10/9P/10/10/10/10/10/4K5 w - - 0 1");
        tc_position *p = tc_position_new(v);
        tc_error err;
        CHECK(tc_position_set_fen(p, "4k5/10/10/10/10/10/10/10/10/10/11/4K5 w", &err) != 0, "11 on 10 files");
        CHECK(tc_position_set_fen(p, "4k5/10/10/10/10/10/10/10/10/10/9/4K5 w", &err) != 0, "9 on 10 files");
        tc_position_free(p);
        tc_variant_free(v);
    }
}

static void en_passant(void)
{
    tc_variant *ch = th_variant_cached("chess"), *mc = th_variant_cached("monteiro-cylinder");
    if (!ch || !mc)
        return;
    tc_position *p = tc_position_new(ch);
    tc_error err;
    char out[1024];

    th_case("fen: en passant kept when a two-step explains it");
    const char *explained = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    CHECK(tc_position_set_fen(p, explained, &err) == 0, "%s", err.msg);
    CHECK(tc_ep_cell(p) == tc_cell_parse(ch, "d6"), "ep cell d6");
    tc_position_fen(p, out, sizeof out);
    CHECK(strcmp(out, explained) == 0, "printed '%s'", out);
    /* written after every two-step even when no capture is possible */
    const char *no_capture = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    CHECK(tc_position_set_fen(p, no_capture, &err) == 0, "%s", err.msg);
    CHECK(tc_ep_cell(p) == tc_cell_parse(ch, "e3"), "ep cell e3 kept");
    tc_position *s = tc_position_new(ch);
    tc_move m;
    CHECK(tc_move_parse(s, "e4", &m, &err) == 0, "e4");
    tc_make_move(s, m);
    CHECK(tc_key(s) == tc_key(p), "key after 1. e4 equals the key from its FEN");
    tc_position_fen(s, out, sizeof out);
    CHECK(strcmp(out, no_capture) == 0, "after 1. e4: '%s'", out);
    tc_position_free(s);

    th_case("fen: en passant dropped when nothing explains it");
    static const char *const dropped[][2] = {
        /* no pawn arrived on the cell beyond */
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
         "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"},
        /* the wrong side to move: White's pawn cannot have just moved */
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d6 0 2",
         "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"},
        /* the origin cell is occupied */
        {"rnbqkbnr/ppppbppp/8/3p4/4P3/8/PPPP1PPP/RNBQK1NR w KQkq d6 0 2",
         "rnbqkbnr/ppppbppp/8/3p4/4P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 2"},
        /* the passed cell is occupied */
        {"rnbqkbnr/ppp1pppp/3n4/3p4/4P3/8/PPPP1PPP/R1BQKBNR w KQkq d6 0 2",
         "rnbqkbnr/ppp1pppp/3n4/3p4/4P3/8/PPPP1PPP/R1BQKBNR w KQkq - 0 2"},
        /* a cell in the middle of the board */
        {"4k3/8/8/8/8/8/8/4K3 w - e4 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
    };
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++) {
        expect_fen(ch, dropped[i][0], dropped[i][1]);
    }

    th_case("fen: en passant on 8x14 boards");
    const char *l12 = "PPPP1PPP/8/4P3/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e13 0 1";
    expect_fen(mc, l12, l12);
    const char *l11 =
        "PPPP1PPP/8/4P3/3p4/8/ppp1pppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d10 0 2";
    expect_fen(mc, l11, l11);
    tc_position *q = tc_position_new(mc);
    CHECK(tc_play_moves(q, "e12 d11", &err) == 0, "%s", err.msg);
    tc_position_fen(q, out, sizeof out);
    CHECK(strcmp(out, l11) == 0, "after e12 d11: '%s'", out);
    tc_position_free(q);

    th_case("fen: an en passant field that is not a cell is an error");
    static const char *const bad[] = {"z9", "e99", "e0", "i3", "e15", "3e", "ee"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char fen[256];
        snprintf(fen, sizeof fen, "4k3/8/8/8/8/8/8/4K3 w - %s 0 1", bad[i]);
        err.msg[0] = '\0';
        CHECK(tc_position_set_fen(p, fen, &err) != 0, "'%s' accepted", fen);
        CHECK(strstr(err.msg, "en passant") != NULL, "'%s': message '%s'", bad[i], err.msg);
    }
    tc_position_free(p);
}

/// One bad FEN and the part of the message that must name the fault.
typedef struct {
    const char *variant;
    const char *fen;
    const char *msg;
} bad_fen;

static void bad_input(void)
{
    static char overlong[1200];
    memset(overlong, 0, sizeof overlong);
    strcpy(overlong, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    memset(overlong + strlen(overlong), ' ', 1001 - strlen(overlong));
    strcat(overlong, "x");
    static char huge_rank[1200];
    memset(huge_rank, 0, sizeof huge_rank);
    memset(huge_rank, 'p', 1100);

    const bad_fen cases[] = {
        {"chess", "", "empty"},
        {"chess", "    ", "empty"},
        {"chess", "\t\n", "empty"},
        {"chess", "rnbqkbnr/pppppppp/8", "3 ranks"},
        {"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/", "rank 1 has 0 cells"},
        {"mobius", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 8 ranks, the variant has 14"},
        {"chess", "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "has 14 ranks"},
        {"chess", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has more than 8 cells"},
        {"chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has more than 8 cells"},
        {"chess", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 cells"},
        {"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 has 7 cells"},
        {"chess", overlong, "too long"},
        {"chess", huge_rank, "too long"},
        {"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unexpected character 'X'"},
        {"chess", "rnbqkbnr/pppppppp/8/8/4?3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "character '?' in rank 4"},
        {"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "one king"},
        {"chess", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "one king"},
        {"chess", "8/8/8/8/8/8/8/8 w - - 0 1", "one king"},
        {"chess", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on a back rank (a8)"},
        {"chess", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on a back rank (a1)"},
        {"cylinder", "4k3/8/8/8/8/8/8/3PK3 w - - 0 1", "back rank (d1)"},
        {"mobius", "8/8/8/8/8/8/4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "back rank (h8)"},
        {"torus", "8/8/8/8/8/8/4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "back rank (a1)"},
        {"klein-bottle", "8/8/8/8/8/8/p3k3/8/8/8/8/8/8/4K3 b - - 0 1", "back rank (a8)"},
        {"chess", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move (black) is in check"},
        {"chess", "4k3/8/8/8/8/8/8/4r1K1 b - - 0 1", "side not to move (white) is in check"},
        {"cylinder", "8/8/8/8/8/8/8/R6k w - - 0 1", "one king"},
        {"cylinder", "K7/8/8/8/8/8/8/R6k w - - 0 1", "in check"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move 'x'"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 white - - 0 1", "side to move"},
        {"chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", "castling field 'KQkx'"},
        {"chess", "r3k2r/8/8/8/8/8/8/R3K2R w K-Q - 0 1", "castling"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - a 1", "halfmove clock 'a' is not a number"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock"},
        /* issue 30.6: a negative count is called negative, not "not a number" */
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - -5 1", "FEN: halfmove clock '-5' is negative: it counts plies"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "FEN: fullmove number '-3' is negative: it counts moves from 1"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - -5x 1", "halfmove clock '-5x' is not a number"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 x1", "fullmove number 'x1' is not a number"},
        {"chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "more than 6 fields"},
    };
    tc_variant *ch = th_variant_cached("chess");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("fen: bad input %zu (%s '%.40s')", i, cases[i].variant, cases[i].fen);
        tc_variant *v = th_variant_cached(cases[i].variant);
        if (!v || !ch)
            continue;
        tc_position *p = tc_position_new(v);
        /* a position that is not the start, with moves in its history */
        tc_error err;
        CHECK(tc_play_moves(p, tc_variant_height(v) == 8 ? "Nf3 Nc6" : "Nf3 Nc10", &err) == 0, "setup: %s", err.msg);
        char before[1024], after[1024];
        tc_position_fen(p, before, sizeof before);
        uint64_t key = tc_key(p);
        int ply = tc_ply_count(p);
        err.msg[0] = '\0';
        CHECK(tc_position_set_fen(p, cases[i].fen, &err) != 0, "accepted");
        CHECK(strstr(err.msg, cases[i].msg) != NULL, "message '%s' lacks '%s'", err.msg, cases[i].msg);
        tc_position_fen(p, after, sizeof after);
        CHECK(strcmp(before, after) == 0, "position changed: '%s' -> '%s'", before, after);
        CHECK(tc_key(p) == key && tc_ply_count(p) == ply, "key or history changed");
        tc_unmake_move(p);
        tc_unmake_move(p);
        tc_position_fen(p, after, sizeof after);
        tc_position *s = tc_position_new(v);
        char start[1024];
        tc_position_fen(s, start, sizeof start);
        CHECK(strcmp(start, after) == 0, "history lost: unmaking gives '%s'", after);
        tc_position_free(s);
        tc_position_free(p);
    }
}

void suite_fen(void)
{
    epd_round_trips();
    board_only();
    wide_boards();
    en_passant();
    bad_input();
    th_variants_free();
}
