/* Issue 30.5 and 30.6: the terminal as a newcomer meets it. `play` after
 * `undo` against the engine, the record's names when the engine changed
 * sides, `analyse` in play and as a command, and an empty PGN file. The
 * built binary ($TC_BIN, else ./topochess) runs with its input piped from
 * a file; without it the suite passes with a notice. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *bin;

/* Runs `bin args` with `input` on stdin; stdout (with stderr when
 * `with_stderr`) into *out (heap); returns the exit status or -1. */
static int run(const char *args, const char *input, int with_stderr, char **out)
{
    char in_path[] = "/tmp/tc_term_in_XXXXXX";
    *out = NULL;
    int fd = mkstemp(in_path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return -1;
    FILE *in = fdopen(fd, "w");
    if (in) {
        fputs(input ? input : "", in);
        fclose(in);
    } else
        close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s <'%s' %s", bin, args, in_path, with_stderr ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    int status = -1;
    if (p && buf) {
        size_t got;
        while ((got = fread(buf + len, 1, cap - len - 1, p)) > 0) {
            len += got;
            if (cap - len < 4096) {
                char *bigger = realloc(buf, cap *= 2);
                if (!bigger)
                    break;
                buf = bigger;
            }
        }
        buf[len] = '\0';
    }
    if (p) {
        int st = pclose(p);
        status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    unlink(in_path);
    *out = buf;
    return status;
}

/* The value of PGN tag `name` in text ("" if absent), into buf. */
static const char *tag_of(const char *text, const char *name, char *buf, size_t n)
{
    char want[32];
    snprintf(want, sizeof want, "[%s \"", name);
    const char *q = text ? strstr(text, want) : NULL;
    buf[0] = '\0';
    if (q) {
        q += strlen(want);
        size_t k = strcspn(q, "\"");
        if (k >= n)
            k = n - 1;
        memcpy(buf, q, k);
        buf[k] = '\0';
    }
    return buf;
}

/* Before the fix the drawing after `undo` still showed the engine's line
 * for the reply just taken back. */
static void test_undo_clears_engine_line(void)
{
    th_case("terminal: undo against the engine drops its line from under the board");
    char *out;
    int st = run("play --engine black --movetime 30 --ascii", "e4\nundo\nquit\n", 0, &out);
    CHECK(st == 0, "exit %d", st);
    const char *reply = out ? strstr(out, "(topochess, depth") : NULL;
    const char *undo = out ? strstr(out, "took back e4") : NULL;
    CHECK(reply && undo && reply < undo, "no engine reply before the undo:\n%s", out ? out : "");
    CHECK(undo && !strstr(undo, "(topochess, depth"), "the engine's line is still shown after undo:\n%s", undo);
    free(out);
}

/* Before the fix the record named a side after --engine at the end, not
 * after who played its moves: `go` moved the engine to Black and White,
 * whose only move the engine had played, became "Player". */
static void test_record_names(void)
{
    char *out, tag[200];
    th_case("terminal: the record names the engine for the side it played, after go switched it");
    int st = run("play --engine white --movetime 30 --ascii", "go\nquit\n", 0, &out);
    CHECK(st == 0, "exit %d", st);
    CHECK(strstr(tag_of(out, "White", tag, sizeof tag), "topochess (level") == tag, "White is '%s':\n%s", tag,
          out ? out : "");
    CHECK(strstr(tag_of(out, "Black", tag, sizeof tag), "topochess (level") == tag, "Black is '%s'", tag);
    free(out);

    th_case("terminal: a side played by both is named after both");
    st = run("play --movetime 30 --ascii", "e4\ne5\ngo\nquit\n", 0, &out);
    CHECK(st == 0, "exit %d", st);
    CHECK(strstr(tag_of(out, "White", tag, sizeof tag), "Player and topochess (level") == tag, "White is '%s':\n%s",
          tag, out ? out : "");
    CHECK(!strcmp(tag_of(out, "Black", tag, sizeof tag), "Player"), "Black is '%s'", tag);
    free(out);
}

/* The number of lines of out that start with `prefix`. */
static int lines_starting(const char *out, const char *prefix)
{
    int n = 0;
    for (const char *q = out; q && *q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
        n += !strncmp(q, prefix, strlen(prefix));
    return n;
}

/* Before the fix `analyse` was "not a legal move or a command". */
static void test_analyse(void)
{
    char *out;
    th_case("terminal: analyse in play, three lines in SAN");
    int st = run("play --ascii", "e4\nanalyse depth 4 lines 3\nquit\n", 0, &out);
    CHECK(st == 0, "exit %d", st);
    CHECK(out && strstr(out, "analysis: depth 4,") && strstr(out, "(scores for White)"), "no analysis:\n%s",
          out ? out : "");
    CHECK(out && strstr(out, "  1. ") && strstr(out, "  2. ") && strstr(out, "  3. ") && !strstr(out, "  4. "),
          "want three lines:\n%s", out ? out : "");
    /* Black is to move: each line starts with "1... " and a SAN move */
    CHECK(lines_starting(out, "  1. ") + lines_starting(out, "  2. ") + lines_starting(out, "  3. ") == 3 &&
              strstr(out, "  1... ") != NULL && strstr(out, "  1... e4") == NULL,
          "lines not in SAN from Black's move:\n%s", out ? out : "");
    CHECK(out && !strstr(out, "not a legal move or a command"), "analyse unknown:\n%s", out ? out : "");
    free(out);

    th_case("terminal: analyse refuses bad words with the usage");
    st = run("play --ascii", "analyse depth 0\nanalyse time abc\nanalyse deep\nquit\n", 0, &out);
    CHECK(out && strstr(out, "analyse: depth takes a whole number from 1 to 128, not '0'") &&
              strstr(out, "analyse: time takes seconds above 0") &&
              strstr(out, "analyse: unknown word 'deep' (usage: analyse [depth N] [time SECONDS] [lines K])"),
          "refusals:\n%s", out ? out : "");
    CHECK(out && !strstr(out, "analysis:"), "a refused analyse searched:\n%s", out ? out : "");
    free(out);

    th_case("terminal: analyse gives the solved ending's verdict (KRK)");
    st = run("analyse --fen '8/8/8/4k3/8/8/8/R3K3 w - - 0 1' depth 2", NULL, 0, &out);
    CHECK(st == 0, "exit %d", st);
    CHECK(out && strstr(out, "verdict (solved ending KRK): White wins, mate in 14 moves (27 plies)"),
          "no verdict:\n%s", out ? out : "");
    free(out);
    st = run("analyse --fen '8/8/8/4k3/8/8/8/R3K3 b - - 0 1' depth 2", NULL, 0, &out);
    CHECK(out && strstr(out, "verdict (solved ending KRK): White wins, mate in "), "Black to move:\n%s",
          out ? out : "");
    CHECK(out && strstr(out, "  1. ") && strstr(out, " 1... K"), "Black's line:\n%s", out ? out : "");
    free(out);

    th_case("terminal: analyse on a dead position and after mate");
    st = run("analyse --fen '8/8/8/4k3/8/8/8/4K3 w - - 0 1' depth 2", NULL, 0, &out);
    CHECK(out && strstr(out, "verdict: dead position, a draw"), "KK:\n%s", out ? out : "");
    free(out);
    st = run("analyse --play 'f3 e5 g4 Qh4#'", NULL, 0, &out);
    CHECK(st == 0 && out && strstr(out, "nothing to analyse: checkmate"), "after mate (exit %d):\n%s", st,
          out ? out : "");
    free(out);
    st = run("analyse lines 99", NULL, 1, &out);
    CHECK(st == 1 && out && strstr(out, "analyse: lines takes a whole number from 1 to 64, not '99'"),
          "lines 99 (exit %d):\n%s", st, out ? out : "");
    free(out);
}

/* Issue 30.6: an empty PGN file was "no games found" with exit status 0. */
static void test_empty_pgn(void)
{
    th_case("terminal: pgn on an empty file fails and says so");
    char path[] = "/tmp/tc_term_pgn_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    char args[64], *out;
    snprintf(args, sizeof args, "pgn %s", path);
    int st = run(args, NULL, 1, &out);
    CHECK(st == 1 && out && strstr(out, "no games found (the file is empty)"), "exit %d:\n%s", st, out ? out : "");
    free(out);
    unlink(path);
}

void suite_terminal(void)
{
    bin = getenv("TC_BIN") ? getenv("TC_BIN") : "./topochess";
    if (access(bin, X_OK) != 0) {
        th_case("terminal: no binary at %s (skipped)", bin);
        return;
    }
    test_undo_clears_engine_line();
    test_record_names();
    test_analyse();
    test_empty_pgn();
}
