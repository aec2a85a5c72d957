/* Perft: every line of every reference EPD file, the standard
 * chessprogramming positions on `chess`, and refgen's own depth-2 perft
 * (an independent generator) against the library's on every EPD line. */
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

void suite_perft(void)
{
    run_standard();

    th_case("perft directory %s", th_perft_dir());
    char names[TH_EPD_MAX_FILES][64];
    int nfiles = th_epd_files(names, TH_EPD_MAX_FILES);
    CHECK(nfiles > 0, "no .epd files in %s", th_perft_dir());
    for (int i = 0; i < nfiles; i++)
        run_epd_file(names[i]);
}
