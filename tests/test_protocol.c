/* Protocol robustness: the UCI and CECP loops driven as a GUI (or a
 * hostile one) would drive them, through tests/proto_driver.h. Every go
 * ends, nothing is cut silently, no wait is timed: the watchdog only turns
 * a hang into a failure. */
#include "harness.h"
#include "proto_driver.h"
#include "protocols.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *q = text; (q = strstr(q, needle)); q += strlen(needle))
        n++;
    return n;
}

/* The line of `text` that starts with `prefix` (copied into line). */
static int line_with(const char *text, const char *prefix, char *line, size_t size)
{
    for (const char *q = text; q && *q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
        if (!strncmp(q, prefix, strlen(prefix))) {
            size_t n = strcspn(q, "\n");
            if (n >= size)
                n = size - 1;
            memcpy(line, q, n);
            line[n] = '\0';
            return 0;
        }
    return -1;
}

#define run th_proto_checked

/* The bestmove of `out` is a legal move of `variant`'s start position. */
static void check_bestmove_legal(const char *out, const char *variant)
{
    char line[128], mv[32];
    CHECK(count(out, "bestmove ") == 1, "want one bestmove:\n%.2000s", out);
    if (line_with(out, "bestmove ", line, sizeof line))
        return;
    sscanf(line, "bestmove %31s", mv);
    tc_variant *v = th_variant(variant);
    tc_position *p = v ? tc_position_new(v) : NULL;
    tc_move m;
    tc_error err;
    CHECK(p && tc_move_from_uci(p, mv, &m, &err) == 0, "bestmove '%s' not legal", mv);
    tc_position_free(p);
    tc_variant_free(v);
}

/* ---------------------------------------------------------------- UCI */

/* Issue 7.1: 10,001 moves on one line are all applied. */
static void test_uci_long_move_list(void)
{
    th_case("protocol: uci position with 10001 moves");
    static const char *const cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    size_t cap = 10001 * 5 + 256, len = 0;
    char *script = malloc(cap);
    if (!script)
        return;
    len += (size_t)snprintf(script + len, cap - len, "position startpos moves");
    for (int i = 0; i < 10000; i++)
        len += (size_t)snprintf(script + len, cap - len, " %s", cycle[i % 4]);
    snprintf(script + len, cap - len, " e2e4\nd\n");
    /* the expected position, from the rules library */
    tc_variant *v = th_variant("chess");
    tc_position *p = v ? tc_position_new(v) : NULL;
    char want[300] = "Fen: ";
    if (p) {
        tc_error err;
        for (int i = 0; i <= 10000; i++) {
            tc_move m;
            if (tc_move_from_uci(p, i < 10000 ? cycle[i % 4] : "e2e4", &m, &err))
                break;
            tc_make_move(p, m);
        }
        CHECK(tc_ply_count(p) == 10001, "library replay: %d plies", tc_ply_count(p));
        tc_position_fen(p, want + 5, sizeof want - 5);
    }
    char *out = run(uci_loop_opts, "chess", script);
    CHECK(strstr(out, want) != NULL, "want '%s':\n%.500s", want, out);
    CHECK(strstr(out, "b KQkq") != NULL, "Black to move after e2e4:\n%.500s", out);
    free(out);
    /* a bad move far down the list is named, and the position stays */
    memcpy(script + len + 1, "e2e5", 4); /* the last move, e2e4 */
    strcat(script, "d\n");
    out = run(uci_loop_opts, "chess", script);
    CHECK(strstr(out, "info string error: position: move 10001 (e2e5)") != NULL, "error names the move:\n%.500s",
          out);
    CHECK(strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") != NULL,
          "position changed by a refused list:\n%.500s", out);
    free(out);
    tc_position_free(p);
    tc_variant_free(v);
    free(script);
}

/* Issue 7.8: a 1 MB token is quoted cut, not whole. */
static void test_uci_long_echo(void)
{
    th_case("protocol: uci error lines quote a cut input");
    size_t n = 1000000;
    char *script = malloc(n + 64);
    if (!script)
        return;
    memset(script, 'x', n);
    strcpy(script + n, "\nisready\n");
    char *out = run(uci_loop_opts, "chess", script);
    char line[400];
    CHECK(line_with(out, "info string error: unknown command", line, sizeof line) == 0, "no error:\n%.300s", out);
    CHECK(strlen(out) < 400, "output is %zu bytes", strlen(out));
    CHECK(strstr(line, "(1000000 bytes)") != NULL, "the cut is not said: %s", line);
    CHECK(strstr(out, "readyok") != NULL, "no readyok");
    free(out);
    free(script);
}

/* Issue 7.2: the end of input ends a bare `go` and `go infinite`. */
static void test_uci_eof_ends_go(void)
{
    static const char *const gos[] = {"go", "go infinite"};
    for (size_t i = 0; i < sizeof gos / sizeof gos[0]; i++) {
        th_case("protocol: uci end of input ends '%s'", gos[i]);
        char script[128];
        snprintf(script, sizeof script, "position startpos\n%s\n", gos[i]);
        char *out = run(uci_loop_opts, "torus", script);
        check_bestmove_legal(out, "torus");
        free(out);
    }
}

/* Issue 30.4: a `go` with a bad or unknown parameter, or a limit of 0
 * (which would mean no limit), is refused whole with the reason and starts
 * no search; the next `go` is taken. Before the fix the bad value was
 * skipped and an endless search started, so `go depth 1` was refused as
 * "already running". */
static void test_uci_bad_limits(void)
{
    static const char *const gos[][2] = {
        {"go movetime abc", "go: movetime needs a whole number of at least 1, got 'abc'; no search started"},
        {"go depth 0", "go: depth needs a whole number of at least 1, got '0'; no search started"},
        {"go movetime 0", "go: movetime needs a whole number of at least 1, got '0'"},
        {"go nodes 0", "go: nodes needs a whole number of at least 1, got '0'"},
        {"go mate 0", "go: mate needs a whole number of at least 1, got '0'"},
        {"go movetime -1", "go: movetime needs a whole number of at least 1, got '-1'"},
        {"go depth x", "go: depth needs a whole number of at least 1, got 'x'"},
        {"go wtime", "go: wtime needs a whole number, got nothing; no search started"},
        {"go infinite depth 0", "go: depth needs a whole number of at least 1, got '0'"},
        {"go depht 5", "go: unknown parameter 'depht' (known: "},
        {"go searchmoves e2e5", "go: searchmoves: 'e2e5': "},
        {"go btime 1000 binc 100", "go: wtime is missing (White is to move), so the clocks give no limit"},
    };
    for (size_t i = 0; i < sizeof gos / sizeof gos[0]; i++) {
        th_case("protocol: uci '%s' is refused and starts no search", gos[i][0]);
        char script[160];
        snprintf(script, sizeof script, "position startpos\n%s\nisready\n#wait readyok\ngo depth 1\n", gos[i][0]);
        char *out = run(uci_loop_opts, "chess", script);
        CHECK(strstr(out, gos[i][1]) != NULL, "want '%s':\n%.1500s", gos[i][1], out);
        CHECK(strstr(out, "already running") == NULL, "the go after it was refused:\n%.1500s", out);
        CHECK(strstr(out, "info depth 2 ") == NULL, "a search beyond depth 1 ran:\n%.1500s", out);
        check_bestmove_legal(out, "chess"); /* exactly one: go depth 1's */
        free(out);
    }
}

/* Issue 30.4: an unknown UCI_Variant is refused with every preset's name
 * whole (the error was cut at 80 bytes, "mobiu..."). */
static void test_uci_variant_names(void)
{
    th_case("protocol: uci unknown UCI_Variant lists every name whole");
    char *out = run(uci_loop_opts, "chess", "setoption name UCI_Variant value donut\nisready\n#wait readyok\n");
    char line[1024];
    CHECK(line_with(out, "info string error: setoption: UCI_Variant: unknown variant 'donut'", line, sizeof line) == 0,
          "no error line:\n%s", out);
    for (int i = 0; i < tc_preset_count(); i++) {
        char want[80];
        snprintf(want, sizeof want, " %s%s", tc_preset(i)->name, i + 1 < tc_preset_count() ? "," : ")");
        CHECK(strstr(line, want) != NULL, "'%s' missing or cut in: %s", want, line);
    }
    CHECK(strstr(line, "...") == NULL, "the list is cut: %s", line);
    free(out);
}

/* Runs a loop on raw bytes (NULs included); its output (heap). */
static char *run_bytes(th_loop_fn loop, const char *bytes, size_t len)
{
    char *buf = malloc(len), *out = NULL;
    size_t out_len = 0;
    if (!buf)
        return NULL;
    memcpy(buf, bytes, len);
    FILE *in = fmemopen(buf, len, "r"), *o = open_memstream(&out, &out_len);
    tc_variant_def def;
    tc_error err;
    if (in && o && tc_preset_find("chess", &def, &err) == 0)
        loop(in, o, &def, NULL);
    if (in)
        fclose(in);
    if (o)
        fclose(o);
    free(buf);
    return out;
}

/* Issue 30.4: a line of binary data gets an error line in both protocols
 * (one starting with a NUL byte was read as an empty line and ignored
 * without a word), and the loop goes on. */
static void test_binary_lines(void)
{
    th_case("protocol: uci and xboard answer a line of binary data");
    static const char uci_in[] = "\0\x01\xfe\xffgarbage\x7f\nisready\n";
    char *out = run_bytes(uci_loop_opts, uci_in, sizeof uci_in - 1);
    CHECK(out && strstr(out, "info string error: unknown command: a line of 13 bytes with control characters"),
          "uci: no error line:\n%s", out ? out : "");
    CHECK(out && strstr(out, "readyok"), "uci: isready after it not answered:\n%s", out ? out : "");
    free(out);
    static const char xb_in[] = "xboard\n\0\x02junk\nping 1\n";
    out = run_bytes(xboard_loop_opts, xb_in, sizeof xb_in - 1);
    CHECK(out && strstr(out, "Error (unknown command): <a line of 7 bytes with control characters"),
          "xboard: no error line:\n%s", out ? out : "");
    CHECK(out && strstr(out, "pong 1"), "xboard: ping after it not answered:\n%s", out ? out : "");
    free(out);
}

/* Issue 30.4 (CECP side): bad limits are refused and a `go` afterwards
 * still moves within the limits set before them. */
static void test_xboard_bad_limits(void)
{
    th_case("protocol: xboard bad limits are refused, the last good ones kept");
    char *out = run(xboard_loop_opts, "chess", "xboard\nnew\nsd 2\nsd 0\nsd abc\nst abc\nst 0\nst -3\n"
                                               "level x 1 0\ntime abc\ngo\n#wait move \n");
    CHECK(count(out, "Error (bad depth)") == 2 && count(out, "Error (bad time)") == 4 &&
              count(out, "Error (bad level)") == 1,
          "want 2 bad depth, 4 bad time, 1 bad level:\n%s", out);
    CHECK(strstr(out, "move ") != NULL, "no move:\n%s", out);
    free(out);
}

/* Issue 7.3: a second `go` during a search is refused without touching
 * the running search's limits. Before the fix the refused `go depth 1`
 * overwrote them, so the end of input took the endless search for a
 * depth-1 one and waited for it forever (and ThreadSanitizer saw the
 * write race the search thread's read: `make tsan` runs this too). */
static void test_uci_go_while_searching(void)
{
    th_case("protocol: uci go during a search leaves it alone");
    char *out = run(uci_loop_opts, "chess", "position startpos\ngo infinite\ngo depth 1\ngo movetime 1\n");
    CHECK(count(out, "a search is already running") == 2, "the second and third go not refused:\n%.2000s", out);
    check_bestmove_legal(out, "chess");
    free(out);
    out = run(uci_loop_opts, "chess",
              "position startpos\ngo infinite\ngo depth 1\nstop\n#wait bestmove\nisready\n#wait readyok\n");
    check_bestmove_legal(out, "chess");
    free(out);
}

/* Issue 7.4: `go perft` runs beside the loop: isready is answered, stop
 * ends it, quit and the end of input too; a finished perft is right. */
static void test_uci_perft_stoppable(void)
{
    th_case("protocol: uci go perft answers isready and stops");
    char *out = run(uci_loop_opts, "chess",
                    "position startpos\ngo perft 9\nisready\n#wait readyok\nstop\n#wait stopped\n"
                    "isready\n#wait readyok\n");
    CHECK(strstr(out, "info string go perft 9 stopped after ") != NULL, "no stop line:\n%.1000s", out);
    CHECK(strstr(out, "Nodes searched") == NULL, "a stopped perft gave a total:\n%.1000s", out);
    free(out);

    th_case("protocol: uci go perft ends at quit and at the end of input");
    out = run(uci_loop_opts, "klein-bottle", "position startpos\ngo perft 10\nquit\n");
    CHECK(strstr(out, "stopped after") != NULL, "quit: no stop line:\n%.1000s", out);
    free(out);
    out = run(uci_loop_opts, "klein-bottle", "position startpos\ngo perft 10\n");
    CHECK(strstr(out, "stopped after") != NULL, "end of input: no stop line:\n%.1000s", out);
    free(out);

    th_case("protocol: uci a go right after an answer is taken");
    out = run(uci_loop_opts, "chess",
              "position startpos\ngo perft 1\n#wait Nodes searched\ngo perft 1\n#wait Nodes searched\n"
              "go depth 1\n#wait bestmove\ngo depth 1\n#wait bestmove\n");
    CHECK(count(out, "Nodes searched: 20\n") == 2 && count(out, "bestmove") == 2, "two answers each:\n%.2000s", out);
    CHECK(strstr(out, "already running") == NULL, "a go after the answer was refused:\n%.2000s", out);
    free(out);

    th_case("protocol: uci go perft 5 walks the tree and counts right");
    out = run(uci_loop_opts, "chess", "position startpos\ngo perft 5\n#wait Nodes searched\n");
    CHECK(strstr(out, "\nNodes searched: 4865609\n") != NULL, "perft 5 total:\n%.1000s", out);
    CHECK(strstr(out, "e2e4: 405385\n") != NULL, "perft 5 divide e2e4:\n%.1000s", out);
    free(out);
}

/* Issue 7.5 (UCI side): Hash above the limit is refused with the limit. */
static void test_uci_hash_limit(void)
{
    th_case("protocol: uci Hash above the limit refused");
    char *out = run(uci_loop_opts, "chess", "setoption name Hash value 999999999\nisready\n");
    char want[96];
    snprintf(want, sizeof want, "Hash needs a number from 1 to %d", PROTO_MAX_HASH_MB);
    CHECK(strstr(out, want) != NULL, "want '%s':\n%s", want, out);
    free(out);
}

/* ---------------------------------------------------------------- CECP */

/* Issue 7.5: memory is capped like Hash, and refused above the cap. */
static void test_xboard_memory(void)
{
    th_case("protocol: xboard memory above the limit refused");
    char *out = run(xboard_loop_opts, "chess",
                    "xboard\nmemory 20000\nmemory 999999999\nmemory 2\nping 1\n#wait pong 1\n");
    char want[96];
    snprintf(want, sizeof want, "Error (memory above %d MB refused): memory 20000\n", PROTO_MAX_HASH_MB);
    CHECK(strstr(out, want) != NULL, "want '%s':\n%s", want, out);
    CHECK(count(out, "refused") == 2, "two refusals expected:\n%s", out);
    CHECK(count(out, "Error") == 2, "memory 2 refused:\n%s", out);
    free(out);
}

/* Issue 7.5: a table the machine cannot hold is refused, never an abort
 * (the sanitizer build aborts on a failed calloc), and the old table
 * stays usable. */
static void test_engine_hash_too_big(void)
{
    th_case("protocol: engine refuses an impossible hash table");
    tc_variant *v = th_variant("chess");
    tc_engine *e = v ? tc_engine_new(v, 1, 1) : NULL;
    CHECK(e != NULL, "no engine");
    if (e) {
        int rc = tc_engine_set_hash(e, TC_ENGINE_MAX_HASH_MB);
        CHECK(rc == 0 || rc == -1, "set_hash gave %d", rc);
        if (rc)
            CHECK(tc_engine_hash_mb(e) == 1, "the old table is gone");
        tc_position *p = tc_position_new(v);
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 2;
        if (p && tc_engine_set_position(e, p) == 0)
            CHECK(tc_engine_search(e, &l, NULL, NULL).best != 0, "no move after a refused resize");
        tc_position_free(p);
        tc_engine_free(e);
    }
    tc_variant_free(v);
}

/* Issue 7.6: the end of input stops a search bounded by depth only, and a
 * ping during it is answered after the move. */
static void test_xboard_eof_stops(void)
{
    static const char *const scripts[] = {
        "xboard\nnew\nsd 40\ngo\n",
        "xboard\nnew\nsd 40\ngo\nping 3\n",
        "xboard\nnew\nst 100000\ngo\n",
        "xboard\nnew\nlevel 0 1000 0\ntime 6000000\notim 6000000\ngo\nping 4\n",
    };
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        th_case("protocol: xboard end of input stops the search (%zu)", i + 1);
        char *out = run(xboard_loop_opts, "chess", scripts[i]);
        const char *mv = strstr(out, "move ");
        CHECK(mv != NULL, "no move:\n%s", out);
        const char *pong = strstr(out, "pong ");
        CHECK(!pong || (mv && pong > mv), "pong before the move:\n%s", out);
        if (strstr(scripts[i], "ping"))
            CHECK(pong != NULL, "ping not answered:\n%s", out);
        free(out);
    }
}

/* A ping while thinking does not hold up the loop: `?` after it is heard. */
static void test_xboard_ping_while_thinking(void)
{
    th_case("protocol: xboard ping while thinking, then ?");
    char *out = run(xboard_loop_opts, "chess", "xboard\nnew\nsd 40\ngo\nping 5\n?\n#wait pong 5\nping 6\n#wait pong 6\n");
    const char *mv = strstr(out, "move "), *p5 = strstr(out, "pong 5"), *p6 = strstr(out, "pong 6");
    CHECK(mv && p5 && p6 && mv < p5 && p5 < p6, "want move, pong 5, pong 6:\n%s", out);
    free(out);
}

/* Issue 7.8: long lines are read whole and quoted cut. */
static void test_xboard_long_lines(void)
{
    th_case("protocol: xboard long lines");
    size_t n = 1000000;
    char *script = malloc(n + 64);
    if (!script)
        return;
    memset(script, 'y', n);
    strcpy(script + n, "\nping 1\n#wait pong 1\n");
    char *out = run(xboard_loop_opts, "chess", script);
    CHECK(strlen(out) < 300, "output is %zu bytes", strlen(out));
    CHECK(strstr(out, "(1000000 bytes)") != NULL, "the cut is not said:\n%.300s", out);
    free(out);
    /* an overlong move is refused quoted cut */
    memcpy(script, "usermove ", 9);
    strcpy(script + n, "\nping 2\n#wait pong 2\n");
    out = run(xboard_loop_opts, "chess", script);
    CHECK(strstr(out, "Illegal move: yyyy") != NULL && strlen(out) < 300, "overlong usermove:\n%.300s", out);
    free(out);
    /* a command after 5000 blanks is a command, not cut away */
    memset(script, ' ', 5000);
    strcpy(script + 5000, "ping 7\n#wait pong 7\n");
    out = run(xboard_loop_opts, "chess", script);
    CHECK(strstr(out, "pong 7\n") != NULL, "ping after blanks lost:\n%.300s", out);
    free(out);
    free(script);
}

void suite_protocol(void)
{
    test_uci_long_move_list();
    test_uci_long_echo();
    test_uci_eof_ends_go();
    test_uci_bad_limits();
    test_uci_variant_names();
    test_binary_lines();
    test_xboard_bad_limits();
    test_uci_go_while_searching();
    test_uci_perft_stoppable();
    test_uci_hash_limit();
    test_xboard_memory();
    test_engine_hash_too_big();
    test_xboard_eof_stops();
    test_xboard_ping_while_thinking();
    test_xboard_long_lines();
}
