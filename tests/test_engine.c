/* Engine tests: the UCI and CECP loops driven by transcripts, and mates the
 * search must find on flat and on wrapped boards (each mate first proved
 * by brute force with the rules library). */
#include "harness.h"
#include "protocols.h"
#include "proto_driver.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Runs a protocol loop on `input` as a GUI would (tests/proto_driver.h:
 * "#wait TEXT" lines hold the input until the output shows TEXT); returns
 * its output (heap, NUL-ended), NULL if a wait or the end timed out. */
static char *run_loop(th_loop_fn loop, const char *variant, const char *input, double *seconds)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    th_proto_run run;
    th_proto_script(loop, variant, NULL, input, &run);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (seconds)
        *seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK(run.waits_ok && run.ended, "loop %s: wait for '%s' timed out:\n%s",
          run.ended ? "ended" : "did not end", run.missed, run.out ? run.out : "");
    if (!run.waits_ok || !run.ended) {
        free(run.out);
        return NULL;
    }
    return run.out;
}

/* The word after the last occurrence of `key` (e.g. "bestmove "). */
static int word_after(const char *text, const char *key, char *word, size_t n)
{
    const char *s = NULL;
    for (const char *q = text; (q = strstr(q, key)); q++)
        s = q;
    if (!s)
        return -1;
    s += strlen(key);
    size_t i = 0;
    while (s[i] && s[i] != ' ' && s[i] != '\n' && i + 1 < n) {
        word[i] = s[i];
        i++;
    }
    word[i] = '\0';
    return 0;
}

static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t k = strlen(prefix);
    for (const char *s = text; s && *s;) {
        if (!strncmp(s, prefix, k))
            n++;
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    return n;
}

/* ---------------------------------------------------------------- mate proofs */

static int defender_lost(tc_position *p, int n);

/* 1 if the side to move mates within n moves. */
static int mate_in(tc_position *p, int n)
{
    tc_movelist *l = malloc(sizeof *l);
    int k = tc_generate_legal(p, l), found = 0;
    for (int i = 0; i < k && !found; i++) {
        tc_make_move(p, l->moves[i]);
        found = defender_lost(p, n);
        tc_unmake_move(p);
    }
    free(l);
    return found;
}

/* 1 if the side to move is mated now or mated in n-1 after every reply. */
static int defender_lost(tc_position *p, int n)
{
    tc_movelist *l = malloc(sizeof *l);
    int k = tc_generate_legal(p, l), lost = 1;
    if (k == 0)
        lost = tc_in_check(p);
    else if (n <= 1)
        lost = 0;
    for (int i = 0; i < k && lost && n > 1; i++) {
        tc_make_move(p, l->moves[i]);
        lost = mate_in(p, n - 1);
        tc_unmake_move(p);
    }
    free(l);
    return lost;
}

/* Proves "mate in exactly n" for the FEN, then checks that the engine
 * reports it at a modest depth and plays a move that keeps it. */
static void check_mate(const char *variant, const char *fen, int n, const char *flat_also)
{
    th_case("engine: %s mate in %d: %s", variant, n, fen);
    tc_variant *v = th_variant(variant);
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    tc_error err;
    CHECK(tc_position_set_fen(p, fen, &err) == 0, "FEN: %s", err.msg);
    CHECK(mate_in(p, n), "no mate in %d by brute force", n);
    CHECK(n == 1 || !mate_in(p, n - 1), "a shorter mate exists");
    if (flat_also) {
        /* on the flat board the same position holds no such mate: the join
         * is what makes it */
        tc_variant *f = th_variant(flat_also);
        tc_position *q = f ? tc_position_new(f) : NULL;
        CHECK(q && tc_position_set_fen(q, fen, &err) == 0, "flat FEN: %s", err.msg);
        if (q)
            CHECK(!mate_in(q, n), "the flat board has the mate too");
        tc_position_free(q);
        tc_variant_free(f);
    }
    tc_engine *e = tc_engine_new(v, 8, 1);
    tc_engine_set_position(e, p);
    tc_limits l;
    tc_limits_init(&l);
    l.depth = 2 * n + 2;
    tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
    CHECK(r.mate == n, "engine reports mate %d (score %d), expected mate %d", r.mate, r.score, n);
    CHECK(r.best && tc_is_legal(p, r.best), "best move illegal");
    if (r.best && tc_is_legal(p, r.best)) {
        tc_make_move(p, r.best);
        CHECK(defender_lost(p, n), "the engine's move lets the mate slip");
        tc_unmake_move(p);
    }
    tc_engine_free(e);
    tc_position_free(p);
    tc_variant_free(v);
}

/* ---------------------------------------------------------------- UCI */

static void test_uci_handshake(void)
{
    th_case("engine: uci handshake");
    char *out = run_loop(uci_loop_opts, "chess", "uci\nisready\nquit\n", NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    CHECK(strstr(out, "id name topochess\n") != NULL, "no id name");
    CHECK(strstr(out, "option name Hash type spin") != NULL, "no Hash option");
    CHECK(strstr(out, "option name Threads type spin") != NULL, "no Threads option");
    CHECK(strstr(out, "option name UCI_Variant type combo default chess") != NULL, "no UCI_Variant");
    for (int i = 0; i < tc_preset_count(); i++) {
        char want[96];
        snprintf(want, sizeof want, " var %s", tc_preset(i)->name);
        CHECK(strstr(out, want) != NULL, "UCI_Variant lacks %s", tc_preset(i)->name);
    }
    const char *ok = strstr(out, "uciok\n"), *ready = strstr(out, "readyok\n");
    CHECK(ok && ready && ok < ready, "uciok then readyok expected:\n%s", out);
    free(out);
}

static void test_uci_multipv(void)
{
    th_case("engine: uci MultiPV, searchmoves and limited strength");
    char *out = run_loop(uci_loop_opts, "chess", "uci\nsetoption name MultiPV value 2\nposition startpos\ngo depth 4\n#wait bestmove\n", NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    CHECK(strstr(out, "option name MultiPV type spin default 1") && strstr(out, "option name UCI_LimitStrength") &&
              strstr(out, "option name UCI_Elo type spin"),
          "options:\n%s", out);
    CHECK(count_lines(out, "info depth 4 ") == 2 && strstr(out, " multipv 2 "), "two lines:\n%s", out);
    free(out);

    out = run_loop(uci_loop_opts, "chess", "position startpos\ngo depth 4 searchmoves h2h3 a2a3\n#wait bestmove\n", NULL);
    char best[32] = "";
    CHECK(out && word_after(out, "bestmove ", best, sizeof best) == 0, "no bestmove");
    CHECK(!strcmp(best, "h2h3") || !strcmp(best, "a2a3"), "searchmoves: bestmove %s", best);
    free(out);

    out = run_loop(uci_loop_opts, "chess",
                   "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 850\n"
                   "setoption name UCI_Elo value 5000\nposition startpos\ngo depth 6\n#wait bestmove\n",
                   NULL);
    CHECK(out && count_lines(out, "info depth 1 ") == 1 && count_lines(out, "info depth 2 ") == 0,
          "Elo 850 searches one ply (depth 1 + (N - 800) / 100):\n%s", out ? out : "");
    CHECK(out && strstr(out, "UCI_Elo needs a number from 800 to 2400"), "bad Elo refused:\n%s", out ? out : "");
    CHECK(out && word_after(out, "bestmove ", best, sizeof best) == 0 && strcmp(best, "0000"), "a move");
    free(out);
}

static void test_uci_klein_game(void)
{
    th_case("engine: uci klein-bottle position and go depth 4");
    const char *moves = "e2e4 e7e5 d14d12 e9e11";
    char input[512];
    snprintf(input, sizeof input,
             "uci\nsetoption name UCI_Variant value klein-bottle\nucinewgame\nisready\n"
             "position startpos moves %s\ngo depth 4\n#wait bestmove\n",
             moves);
    char *out = run_loop(uci_loop_opts, "chess", input, NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    CHECK(count_lines(out, "info string error") == 0, "unexpected error:\n%s", out);
    CHECK(count_lines(out, "info depth 4 ") == 1, "no depth-4 info:\n%s", out);
    char best[32];
    CHECK(word_after(out, "bestmove ", best, sizeof best) == 0, "no bestmove:\n%s", out);
    tc_variant *v = th_variant("klein-bottle");
    tc_position *p = tc_position_new(v);
    tc_error err;
    tc_move m;
    CHECK(tc_play_moves(p, moves, &err) == 0, "moves: %s", err.msg);
    CHECK(tc_move_from_uci(p, best, &m, &err) == 0, "bestmove %s illegal: %s", best, err.msg);
    tc_position_free(p);
    tc_variant_free(v);
    free(out);
}

static void test_uci_stop(void)
{
    th_case("engine: uci stop after go infinite");
    /* no clock on it: an infinite search that ignored stop would hang,
     * and the driver's watchdog fails the case */
    char *out = run_loop(uci_loop_opts, "torus", "position startpos\ngo infinite\nstop\nisready\n", NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    const char *bm = strstr(out, "bestmove "), *ready = strstr(out, "readyok");
    CHECK(bm && ready && bm < ready, "bestmove then readyok expected:\n%s", out);
    char best[32];
    tc_variant *v = th_variant("torus");
    tc_position *p = tc_position_new(v);
    tc_move m;
    tc_error err;
    CHECK(word_after(out, "bestmove ", best, sizeof best) == 0 &&
              tc_move_from_uci(p, best, &m, &err) == 0,
          "bestmove not legal:\n%s", out);
    tc_position_free(p);
    tc_variant_free(v);
    free(out);
}

static void test_uci_errors(void)
{
    th_case("engine: uci bad commands answered, engine goes on");
    const char *input = "frobnicate\n"
                        "position startpos moves e2e4 e7e5\n"
                        "position startpos moves e2e4 e2e5\n"
                        "position fen 8/8 w - - 0 1\n"
                        "position sideways\n"
                        "setoption name Hash value lots\n"
                        "setoption name Colour value blue\n"
                        "setoption name UCI_Variant value flatland\n"
                        "go depth x\n"
                        "stop\n"
                        "d\n"
                        "go perft 2\n"
                        "#wait Nodes searched\n"
                        "isready\n";
    char *out = run_loop(uci_loop_opts, "chess", input, NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    CHECK(count_lines(out, "info string error: ") == 8, "expected 8 error lines:\n%s", out);
    /* the bad `position` commands left the good one in place */
    CHECK(strstr(out, "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2") != NULL,
          "position changed by a bad command:\n%s", out);
    tc_variant *v = th_variant("chess");
    tc_position *p = tc_position_new(v);
    tc_error err;
    char want[64];
    tc_play_moves(p, "e2e4 e7e5", &err);
    snprintf(want, sizeof want, "Nodes searched: %llu\n", (unsigned long long)tc_perft(p, 2));
    CHECK(strstr(out, want) != NULL, "perft 2 after 1.e4 e5, want %s:\n%s", want, out);
    tc_position_free(p);
    tc_variant_free(v);
    /* issue 30.4: a go with a bad value is refused whole, no search started */
    CHECK(strstr(out, "bestmove ") == NULL, "go with a bad value started a search:\n%s", out);
    CHECK(strstr(out, "readyok") != NULL, "engine stopped answering");
    free(out);
}

static void test_uci_perft(void)
{
    th_case("engine: uci go perft");
    char *out = run_loop(uci_loop_opts, "mobius", "position startpos\ngo perft 1\n#wait Nodes searched\n", NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    tc_variant *v = th_variant("mobius");
    tc_position *p = tc_position_new(v);
    char want[64];
    snprintf(want, sizeof want, "Nodes searched: %llu\n", (unsigned long long)tc_perft(p, 1));
    CHECK(strstr(out, want) != NULL, "want '%s':\n%s", want, out);
    CHECK(count_lines(out, "d14d12: 1") == 1, "no divide line for d14d12:\n%s", out);
    tc_position_free(p);
    tc_variant_free(v);
    free(out);
}

static void test_uci_no_moves(void)
{
    th_case("engine: uci bestmove 0000 when mated");
    char *out = run_loop(uci_loop_opts, "chess",
                         "position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1\ngo depth 3\n", NULL);
    CHECK(out && strstr(out, "bestmove 0000\n"), "want bestmove 0000:\n%s", out ? out : "");
    free(out);
}

/* ---------------------------------------------------------------- CECP */

static void test_xboard(void)
{
    th_case("engine: xboard transcript");
    const char *input = "xboard\nprotover 2\nnew\nvariant klein-bottle\nping 1\n"
                        "usermove e2e5\nlift e2\nforce\nusermove e2e4\nsd 3\ngo\nping 2\n#wait pong 2\n"
                        "flip the board\nundo\nundo\nundo\nsetboard nonsense\nquit\n";
    char *out = run_loop(xboard_loop_opts, "chess", input, NULL);
    CHECK(out != NULL, "no output");
    if (!out)
        return;
    CHECK(strstr(out, "feature ") && strstr(out, "myname=\"topochess\"") && strstr(out, "done=1"),
          "features:\n%s", out);
    CHECK(strstr(out, "klein-bottle") != NULL, "variant list lacks klein-bottle");
    CHECK(strstr(out, "setup (PNBRQKpnbrqk) 8x14+0_fairy PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/") != NULL,
          "no setup line:\n%s", out);
    CHECK(strstr(out, "pong 1\n") && strstr(out, "pong 2\n"), "no pongs:\n%s", out);
    CHECK(strstr(out, "Illegal move: e2e5\n") != NULL, "no illegal-move line:\n%s", out);
    /* e2 pawn on the 8x14 board: e3 and e4 (ranks 3 and 4 are the 12th and
     * 11th rows from the top) */
    CHECK(strstr(out, "highlight 8/8/8/8/8/8/8/8/8/8/4Y3/4Y3/8/8\n") != NULL, "highlight:\n%s", out);
    char mv[32];
    CHECK(word_after(out, "move ", mv, sizeof mv) == 0, "no engine move:\n%s", out);
    tc_variant *v = th_variant("klein-bottle");
    tc_position *p = tc_position_new(v);
    tc_error err;
    tc_move m;
    tc_play_moves(p, "e2e4", &err);
    CHECK(tc_move_from_uci(p, mv, &m, &err) == 0, "engine move %s illegal: %s", mv, err.msg);
    CHECK(strstr(out, "Error (unknown command): flip the board\n") != NULL, "unknown command:\n%s", out);
    CHECK(strstr(out, "Error (command not legal now): undo\n") != NULL, "third undo:\n%s", out);
    CHECK(strstr(out, "Error (illegal position") != NULL, "bad setboard:\n%s", out);
    tc_position_free(p);
    tc_variant_free(v);
    free(out);
}

/* Found by fuzz/fuzz_xboard: clock values that overflowed when scaled to
 * milliseconds (caught by `make sanitize`). */
static void test_xboard_huge_clocks(void)
{
    th_case("engine: xboard huge and odd clock values");
    const char *input = "st nan\nst 1e400\nst 1e-9\ntime 9223372036854775807\notim -9223372036854775807\n"
                        "level 0 999999999999999999 99999999999999999\nlevel 0 1:99999999999999999 0\n"
                        "sd 1\ngo\nping 1\n#wait pong 1\nquit\n";
    char *out = run_loop(xboard_loop_opts, "chess", input, NULL);
    CHECK(out && strstr(out, "Error (bad time): st nan\n"), "st nan accepted:\n%s", out ? out : "");
    CHECK(out && strstr(out, "move ") && strstr(out, "pong 1\n"), "no move before pong:\n%s", out ? out : "");
    free(out);
}

/* The search's parameters: listed with their ranges, set and refused by
 * name, and read by the search (a changed reduction table changes the
 * tree; back at the default the search is the fresh engine's again). */
static void test_search_params(void)
{
    th_case("engine: search parameters for tuning");
    int n = 0;
    for (const tc_param_info *pi; (pi = tc_engine_param_info(n)); n++) {
        CHECK(pi->name && pi->name[0] && pi->what && pi->what[0], "parameter %d has no name or meaning", n);
        CHECK(pi->min <= pi->def && pi->def <= pi->max, "%s: default %d outside %d..%d", pi->name, pi->def,
              pi->min, pi->max);
        for (int j = 0; j < n; j++)
            CHECK(strcmp(tc_engine_param_info(j)->name, pi->name), "%s listed twice", pi->name);
    }
    CHECK(n >= 10, "only %d parameters", n);
    CHECK(tc_engine_param_info(-1) == NULL, "a parameter at -1");

    tc_variant_def def;
    tc_error err;
    CHECK(tc_preset_find("torus", &def, &err) == 0, "no torus");
    tc_variant *v = tc_variant_new(&def, &err);
    tc_engine *e = v ? tc_engine_new(v, 4, 1) : NULL;
    CHECK(e != NULL, "no engine");
    if (!e) {
        tc_variant_free(v);
        return;
    }
    tc_limits lim = {0};
    lim.depth = 7;
    uint64_t fresh = tc_engine_search(e, &lim, NULL, NULL).nodes;

    int x = 0;
    CHECK(tc_engine_set_param(e, "LmrDiv", 150, &err) == 0, "LmrDiv 150 refused: %s", err.msg);
    CHECK(tc_engine_get_param(e, "LmrDiv", &x) == 0 && x == 150, "LmrDiv reads %d", x);
    tc_engine_new_game(e);
    uint64_t changed = tc_engine_search(e, &lim, NULL, NULL).nodes;
    CHECK(changed != fresh, "LmrDiv 150 searched the same %llu nodes", (unsigned long long)fresh);

    CHECK(tc_engine_set_param(e, "LmrDiv", 99999, &err) == -1, "LmrDiv 99999 taken");
    CHECK(strstr(err.msg, "LmrDiv") && strstr(err.msg, "99999"), "message: %s", err.msg);
    CHECK(tc_engine_get_param(e, "LmrDiv", &x) == 0 && x == 150, "a refused value changed LmrDiv to %d", x);
    CHECK(tc_engine_set_param(e, "NoSuch", 1, &err) == -1 && strstr(err.msg, "NoSuch"), "NoSuch: %s",
          err.msg);
    CHECK(tc_engine_get_param(e, "NoSuch", &x) == -1, "NoSuch read");

    tc_engine_reset_params(e);
    tc_engine_new_game(e);
    uint64_t again = tc_engine_search(e, &lim, NULL, NULL).nodes;
    CHECK(again == fresh, "after the reset %llu nodes, fresh %llu", (unsigned long long)again,
          (unsigned long long)fresh);
    tc_engine_free(e);
    tc_variant_free(v);
}

/* `uci --tune` lists the parameters as spin options and takes them; plain
 * uci neither lists nor takes them. */
static void test_uci_tune(void)
{
    th_case("engine: uci --tune options");
    proto_opts o = {0};
    o.tune = 1;
    th_proto_run run;
    th_proto_script(uci_loop_opts, "chess", &o,
                    "uci\nsetoption name lmrdiv value 300\nsetoption name LmrDiv value 5000\n"
                    "setoption name RfpMargin value x\nsetoption name UCI_Variant value torus\n"
                    "isready\nquit\n",
                    &run);
    const tc_param_info *first = tc_engine_param_info(0);
    char want[160];
    snprintf(want, sizeof want, "option name %s type spin default %d min %d max %d\n", first->name, first->def,
             first->min, first->max);
    CHECK(run.out && strstr(run.out, want), "no '%s' in:\n%s", want, run.out ? run.out : "");
    CHECK(run.out && strstr(run.out, "error: setoption: LmrDiv needs a number from 100 to 450, got '5000'"),
          "LmrDiv 5000 not refused:\n%s", run.out ? run.out : "");
    CHECK(run.out && strstr(run.out, "error: setoption: RfpMargin needs a number"), "RfpMargin x not refused");
    CHECK(run.out && !strstr(run.out, "setoption: LmrDiv needs a number from 100 to 450, got '300'"),
          "lmrdiv 300 refused");
    free(run.out);

    char *out = run_loop(uci_loop_opts, "chess", "uci\nsetoption name LmrDiv value 300\nisready\nquit\n", NULL);
    CHECK(out && !strstr(out, "option name LmrDiv"), "plain uci lists LmrDiv");
    CHECK(out && strstr(out, "unknown option 'LmrDiv'"), "plain uci takes LmrDiv:\n%s", out ? out : "");
    free(out);
}

/* ---------------------------------------------------------------- suite */

void suite_engine(void)
{
    test_uci_handshake();
    test_uci_klein_game();
    test_uci_multipv();
    test_uci_stop();
    test_uci_errors();
    test_uci_perft();
    test_uci_no_moves();
    test_xboard();
    test_xboard_huge_clocks();
    test_search_params();
    test_uci_tune();

    check_mate("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, NULL);
    check_mate("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2, NULL);
    /* Qa1-h8 checks a8 across the a/h join; flat, the c8 bishop blocks */
    check_mate("cylinder", "krb5/pp5p/6N1/8/8/8/8/Q3K3 w - - 0 1", 1, "chess");
    /* found by a brute-force scan: a mate in 2 on the Moebius board that the
     * same pieces cannot give without the twist (monteiro-cylinder) */
    check_mate("mobius", "8/4p3/2p5/R7/8/8/6Q1/8/8/8/8/5K2/8/4k3 w - - 0 1", 2, "monteiro-cylinder");
}
