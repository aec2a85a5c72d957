/* Pondering through both protocols, driven as a GUI drives it
 * (tests/proto_driver.h): a UCI `go ponder` answers only after `ponderhit`
 * or `stop`, whatever its limits and even at a mate; the ponder move is
 * legal; CECP's `hard` ponders on the expected reply, a hit goes on with
 * the same search, a miss searches afresh, and the commands that change
 * the game drop the ponder search without a stray move. Nothing here is
 * timed: orders of lines and counts only, the watchdog turns a hang into a
 * failure. */
#include "harness.h"
#include "proto_driver.h"
#include "protocols.h"
#include "topochess_engine.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* White mates with a1a8. */
#define MATE_IN_ONE "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
/* White to move has one legal move, b6b2; Black then has two: c1d1, after
 * which c6a4 mates, and a3b2, after which White's only move is a1a2. The
 * expected reply is a3b2 whatever the search's details. */
#define FORCED "8/4q3/1QB3p1/8/8/b7/1q3B2/K1k5 w - - 0 1"

#define run th_proto_checked

/* Lines of text[0, end) (end NULL: all) that start with prefix. */
static int lines_from(const char *text, const char *end, const char *prefix)
{
    int n = 0;
    for (const char *q = text; q && *q && (!end || q < end); q = strchr(q, '\n'), q = q ? q + 1 : NULL)
        n += !strncmp(q, prefix, strlen(prefix));
    return n;
}

/* The start of the first line that starts with prefix, or NULL. */
static const char *line_at(const char *text, const char *prefix)
{
    for (const char *q = text; q && *q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
        if (!strncmp(q, prefix, strlen(prefix)))
            return q;
    return NULL;
}

/// A UCI answer: the move and the ponder move ("" if none).
typedef struct {
    char best[32], ponder[32];
} bestmove_line;

static int parse_bestmove(const char *out, bestmove_line *b)
{
    const char *q = line_at(out, "bestmove ");
    b->best[0] = b->ponder[0] = '\0';
    if (!q)
        return -1;
    int got = sscanf(q, "bestmove %31s ponder %31s", b->best, b->ponder);
    if (got == 1)
        b->ponder[0] = '\0';
    return got >= 1 ? 0 : -1;
}

/* The answer is legal in p (which it leaves as it was) and so is its
 * ponder move after it. */
static void check_answer_legal(tc_position *p, const bestmove_line *b, const char *out)
{
    tc_move m, r;
    tc_error err;
    CHECK(tc_move_from_uci(p, b->best, &m, &err) == 0, "bestmove '%s' illegal: %s\n%.2000s", b->best, err.msg,
          out);
    if (!b->ponder[0] || tc_move_from_uci(p, b->best, &m, &err))
        return;
    tc_make_move(p, m);
    CHECK(tc_move_from_uci(p, b->ponder, &r, &err) == 0, "ponder '%s' illegal after %s: %s\n%.2000s", b->ponder,
          b->best, err.msg, out);
    tc_unmake_move(p);
}

/* ---------------------------------------------------------------- UCI */

/* out (freed here) holds one bestmove, legal after `moves` from the start
 * of `variant`, with a legal ponder move. */
static void check_one_answer(char *out, const char *variant, const char *moves)
{
    CHECK(lines_from(out, NULL, "bestmove ") == 1, "want one bestmove:\n%.2000s", out);
    bestmove_line b;
    tc_variant *v = th_variant(variant);
    tc_position *p = v ? tc_position_new(v) : NULL;
    tc_error err;
    if (p && parse_bestmove(out, &b) == 0 && (!*moves || tc_play_moves(p, moves, &err) == 0))
        check_answer_legal(p, &b, out);
    else
        CHECK(0, "no bestmove:\n%.2000s", out);
    tc_position_free(p);
    tc_variant_free(v);
    free(out);
}

static void test_uci_option(void)
{
    th_case("ponder: uci advertises the Ponder option and takes true/false");
    char *out = run(uci_loop_opts, "chess",
                    "uci\n#wait uciok\nsetoption name Ponder value true\nsetoption name Ponder value maybe\n"
                    "setoption name Ponder value false\nisready\n#wait readyok\n");
    CHECK(strstr(out, "option name Ponder type check default false\n") != NULL, "no Ponder option:\n%s", out);
    CHECK(lines_from(out, NULL, "info string error") == 1 &&
              strstr(out, "Ponder takes 'true' or 'false', got 'maybe'") != NULL,
          "want one error, for 'maybe':\n%s", out);
    free(out);
}

/* go ponder with limits that would end a normal search at once, at a mate
 * in one: the answer comes only after ponderhit (or stop), and it mates. */
static void test_uci_ponder_waits(void)
{
    static const char *const gos[] = {"go ponder",           "go ponder depth 1",
                                      "go ponder movetime 1", "go ponder nodes 30",
                                      "go ponder wtime 5 btime 5", "go ponder depth 1 movetime 1 wtime 5 btime 5"};
    static const char *const ends[] = {"ponderhit", "stop"};
    for (size_t i = 0; i < sizeof gos / sizeof gos[0]; i++)
        for (int e = 0; e < 2; e++) {
            th_case("ponder: uci '%s' at a mate answers only after %s", gos[i], ends[e]);
            char script[512];
            snprintf(script, sizeof script,
                     "position fen " MATE_IN_ONE "\n%s\n#wait info depth 1 \nisready\n#wait readyok\n"
                     "isready\n#wait readyok\n%s\n#wait bestmove\n",
                     gos[i], ends[e]);
            char *out = run(uci_loop_opts, "chess", script);
            const char *ready = strstr(out, "readyok"), *bm = line_at(out, "bestmove ");
            CHECK(ready && bm && ready < bm, "bestmove before the second readyok:\n%.2000s", out);
            CHECK(lines_from(out, NULL, "bestmove ") == 1, "want one bestmove:\n%.2000s", out);
            bestmove_line b;
            CHECK(parse_bestmove(out, &b) == 0 && !strcmp(b.best, "a1a8"), "want the mate a1a8:\n%.2000s", out);
            free(out);
        }
}

/* A ponder search in a position without moves (the expected reply mated
 * us) also waits, then answers 0000. */
static void test_uci_ponder_no_moves(void)
{
    th_case("ponder: uci go ponder when mated waits for stop");
    char *out = run(uci_loop_opts, "chess",
                    "position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1\ngo ponder\nisready\n#wait readyok\n"
                    "stop\n#wait bestmove\n");
    const char *ready = strstr(out, "readyok"), *bm = strstr(out, "bestmove 0000");
    CHECK(ready && bm && ready < bm, "want readyok, then bestmove 0000:\n%s", out);
    free(out);
}

/* ponderhit turns the search into a timed one that answers by itself, also
 * when the hit comes before the search has begun. */
static void test_uci_ponderhit(void)
{
    static const char *const scripts[] = {
        "go ponder movetime 150\n#wait info depth 2 \nponderhit\n#wait bestmove\n",
        "go ponder movetime 150\nponderhit\n#wait bestmove\n",
        "go ponder wtime 3000 btime 3000 winc 10 binc 10\n#wait info depth 2 \nponderhit\n#wait bestmove\n",
        "go ponder wtime 3000 btime 3000 movestogo 20\nponderhit\n#wait bestmove\n",
    };
    static const char *const variants[] = {"chess", "torus", "mobius"};
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        const char *variant = variants[i % 3];
        th_case("ponder: uci ponderhit answers (%s, script %zu)", variant, i);
        char script[512];
        snprintf(script, sizeof script, "position startpos moves e2e4 e7e5\n%s", scripts[i]);
        check_one_answer(run(uci_loop_opts, variant, script), variant, "e2e4 e7e5");
    }
}

/* stop while pondering answers at once with a legal move; the end of
 * input too. */
static void test_uci_ponder_stop(void)
{
    static const char *const variants[] = {"chess", "cylinder", "klein-bottle", "folding"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        bool eof = i % 2;
        th_case("ponder: uci %s while pondering (%s)", eof ? "end of input" : "stop", variants[i]);
        char *out = run(uci_loop_opts, variants[i],
                        eof ? "position startpos\ngo ponder wtime 100 btime 100\n#wait info depth 2 \n"
                            : "position startpos\ngo ponder wtime 100 btime 100\n#wait info depth 2 \nstop\n"
                              "#wait bestmove\nisready\n#wait readyok\n");
        check_one_answer(out, variants[i], "");
    }
}

/* A ponderhit with no ponder search is ignored and leaves nothing behind:
 * the next ponder search still waits. */
static void test_uci_stray_ponderhit(void)
{
    th_case("ponder: uci ponderhit without a ponder search is ignored");
    char *out = run(uci_loop_opts, "chess",
                    "position startpos\nponderhit\ngo depth 2\n#wait bestmove\nponderhit\nposition startpos\n"
                    "go ponder depth 1\n#wait info depth 1 \nisready\n#wait readyok\nstop\n#wait bestmove\n");
    CHECK(lines_from(out, NULL, "bestmove ") == 2, "want two bestmoves:\n%s", out);
    const char *ready = strstr(out, "readyok"), *second = strstr(strstr(out, "bestmove ") + 1, "bestmove ");
    CHECK(ready && second && ready < second, "the ponder search answered before stop:\n%s", out);
    CHECK(lines_from(out, NULL, "info string error") == 0, "errors:\n%s", out);
    free(out);
}

/* The ponder move: the line's second move when the line has one, else
 * what the table holds; always legal after the best move. */
static void test_uci_ponder_move(void)
{
    static const char *const variants[] = {"chess", "torus", "mobius", "klein-bottle", "monteiro-cylinder"};
    static const char *const starts[] = {"", " moves e2e4", " moves e2e4 e7e5 g1f3"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        for (int depth = 1; depth <= 4; depth++) {
            const char *moves = starts[(i + (size_t)depth) % 3];
            th_case("ponder: uci ponder move legal (%s%s, depth %d)", variants[i], moves, depth);
            char script[256];
            snprintf(script, sizeof script, "position startpos%s\ngo depth %d\n#wait bestmove\n", moves, depth);
            char *out = run(uci_loop_opts, variants[i], script);
            bestmove_line b;
            tc_variant *v = th_variant(variants[i]);
            tc_position *p = v ? tc_position_new(v) : NULL;
            tc_error err;
            if (!p || parse_bestmove(out, &b) || (moves[0] && tc_play_moves(p, moves + 7, &err))) {
                CHECK(0, "no bestmove or start:\n%.2000s", out);
            } else {
                check_answer_legal(p, &b, out);
                /* the last full line before the answer */
                char want[32] = "";
                const char *bm = line_at(out, "bestmove "), *last = NULL;
                for (const char *q = out; q && q < bm; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
                    if (!strncmp(q, "info depth ", 11) && !strstr(q, "bound") && strstr(q, " pv "))
                        last = q;
                char first[32], pv[256] = "";
                if (last)
                    snprintf(pv, sizeof pv, "%.*s", (int)strcspn(strstr(last, " pv ") + 4, "\n"),
                             strstr(last, " pv ") + 4);
                if (sscanf(pv, "%31s %31s", first, want) < 2 || strcmp(first, b.best))
                    want[0] = '\0'; /* a line of one move, or not the answer's */
                if (want[0])
                    CHECK(!strcmp(b.ponder, want), "want ponder %s from the line, got '%s':\n%.2000s", want,
                          b.ponder, out);
            }
            tc_position_free(p);
            tc_variant_free(v);
            free(out);
        }
}

/* ---------------------------------------------------------------- CECP */

/* Lines that start with "1 ": the first iteration of a search, with post.
 * Before the engine's second move: one for the first search, one for the
 * ponder search and, only if the engine searched afresh, a third. */
static int first_iterations(const char *out, const char *end) { return lines_from(out, end, "1 "); }

#define XB_FORCED "xboard\nprotover 2\nnew\nforce\nsetboard " FORCED "\nhard\npost\nsd 3\ngo\n#wait move b6b2\n"

static void test_xboard_ponder_hit(void)
{
    static const char *const between[] = {"", "#wait \ta1a2\n", "#wait \ta1a2\n?\nping 4\n#wait pong 4\n",
                                          "ping 4\n#wait pong 4\n"};
    static const char *const what[] = {"at once", "after it began", "after a ? (no-op)", "after a ping"};
    for (size_t i = 0; i < sizeof between / sizeof between[0]; i++) {
        th_case("ponder: xboard ponder hit %s goes on with the ponder search", what[i]);
        char script[1024];
        snprintf(script, sizeof script, XB_FORCED "%susermove a3b2\n#wait move a1a2\nping 5\n#wait pong 5\n",
                 between[i]);
        char *out = run(xboard_loop_opts, "chess", script);
        const char *second = line_at(out, "move a1a2");
        CHECK(second && first_iterations(out, second) == 2, "want 2 first iterations before move a1a2:\n%.3000s",
              out);
        CHECK(lines_from(out, NULL, "move ") == 2, "want 2 moves:\n%.3000s", out);
        if (i == 3) {
            const char *pong = strstr(out, "pong 4");
            CHECK(pong && pong < second, "the ping while pondering waited for a move:\n%.3000s", out);
        }
        free(out);
    }
}

static void test_xboard_ponder_miss(void)
{
    static const char *const before[] = {"", "easy\n"};
    for (int i = 0; i < 2; i++) {
        th_case("ponder: xboard %s searches afresh", i ? "easy while pondering, then the expected reply,"
                                                       : "ponder miss");
        char script[1024];
        snprintf(script, sizeof script,
                 XB_FORCED "#wait \ta1a2\n%susermove %s\n#wait move \nping 5\n#wait pong 5\n", before[i],
                 i ? "a3b2" : "c1d1");
        char *out = run(xboard_loop_opts, "chess", script);
        const char *first = line_at(out, "move b6b2");
        const char *second = first ? line_at(first + 1, "move ") : NULL;
        CHECK(second && first_iterations(out, second) == 3,
              "want 3 first iterations before the second move:\n%.3000s", out);
        CHECK(lines_from(out, NULL, "move ") == 2, "want 2 moves:\n%.3000s", out);
        if (!i)
            CHECK(strstr(out, "move c6a4\n1-0 {White mates}") != NULL, "want the mate c6a4:\n%.3000s", out);
        else
            CHECK(second && !strncmp(second, "move a1a2", 9), "want a1a2:\n%.3000s", out);
        free(out);
    }
}

/* Without `hard` the engine does not ponder: after its move it prints no
 * thinking until the opponent moves. */
static void test_xboard_easy(void)
{
    th_case("ponder: xboard easy does not ponder");
    char *out = run(xboard_loop_opts, "chess",
                    "xboard\nprotover 2\nnew\nforce\nsetboard " FORCED "\neasy\npost\nsd 3\ngo\n#wait move b6b2\n"
                    "ping 1\n#wait pong 1\nping 2\n#wait pong 2\n");
    const char *mv = line_at(out, "move b6b2");
    CHECK(mv && lines_from(mv, NULL, "1 ") == 0 && !strstr(mv, "\ta1a2"), "thinking after the move:\n%s", out);
    free(out);
}

/* Commands that change the game stop the ponder search first; none of
 * them lets a move out, and the engine plays on afterwards. */
static void test_xboard_commands_while_pondering(void)
{
    static const char *const cmds[][2] = {
        {"force", "ping 8\n#wait pong 8\n"},
        {"new", "usermove d2d4\n#wait move \n"},
        {"undo", "ping 8\n#wait pong 8\n"},
        {"remove", "usermove d2d4\n#wait move \n"},
        {"?", "ping 8\n#wait pong 8\n"},
        {"result 1-0 {White resigns}", "ping 8\n#wait pong 8\n"},
        {"setboard " MATE_IN_ONE, "go\n#wait move a1a8\n"},
        {"quit", ""},
        {"", ""}, /* the end of input */
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        th_case("ponder: xboard '%s' while pondering", cmds[i][0][0] ? cmds[i][0] : "end of input");
        char script[512];
        snprintf(script, sizeof script,
                 "xboard\nprotover 2\nnew\nhard\nst 0.05\nusermove e2e4\n#wait move \n%s%s%s", cmds[i][0],
                 cmds[i][0][0] ? "\n" : "", cmds[i][1]);
        char *out = run(xboard_loop_opts, "chess", script);
        int want = strstr(cmds[i][1], "move") ? 2 : 1;
        CHECK(lines_from(out, NULL, "move ") == want, "want %d moves:\n%.3000s", want, out);
        CHECK(!strstr(out, "Error"), "an error:\n%.3000s", out);
        free(out);
    }
}

void suite_ponder(void)
{
    test_uci_option();
    test_uci_ponder_waits();
    test_uci_ponder_no_moves();
    test_uci_ponderhit();
    test_uci_ponder_stop();
    test_uci_stray_ponderhit();
    test_uci_ponder_move();
    test_xboard_ponder_hit();
    test_xboard_ponder_miss();
    test_xboard_easy();
    test_xboard_commands_while_pondering();
}
