/* CECP transcripts for what XBoard does on the 8x14 boards (issue 13,
 * docs/xboard.md): the piece letter XBoard adds to moves of White's rank-14
 * pawns, and the blue marks plus `choice P` that keep it from adding one.
 * Every game runs in force mode, so the engine never searches. */
#include "harness.h"
#include "protocols.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs the CECP loop on `input` from preset `variant`; its output (heap). */
static char *cecp(const char *variant, const char *input)
{
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find(variant, &def, &err)) {
        CHECK(0, "preset %s: %s", variant, err.msg);
        return NULL;
    }
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    FILE *out = tmpfile();
    char *text = NULL;
    if (in && out) {
        xboard_loop(in, out, &def);
        text = th_read_stream(out);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    CHECK(text != NULL, "no output from the loop");
    return text;
}

/* 1 if `line` (without its newline) is a whole line of `text`. */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *s = text; s && *s;) {
        if (!strncmp(s, line, n) && (s[n] == '\n' || s[n] == '\0'))
            return 1;
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    return 0;
}

/* The `highlight` board the loop must send for a lift of `sq` after
 * `moves` from the preset's start: every legal target of the piece there,
 * coloured by `colour` (called with the move). Built from the library. */
static void expected_highlight(const char *variant, const char *moves, const char *sq,
                               char (*colour)(const tc_position *, tc_move), char *buf, size_t n)
{
    tc_variant *v = th_variant(variant);
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    tc_error err;
    CHECK(p && tc_play_moves(p, moves, &err) == 0, "moves %s: %s", moves, err.msg);
    int from = th_cell(v, sq);
    char mark[TC_MAX_CELLS] = {0};
    tc_movelist list;
    int count = tc_generate_legal(p, &list);
    for (int i = 0; i < count; i++)
        if (TC_MOVE_FROM(list.moves[i]) == from)
            mark[TC_MOVE_TO(list.moves[i])] = colour(p, list.moves[i]);
    size_t len = (size_t)snprintf(buf, n, "highlight ");
    int W = tc_variant_width(v), H = tc_variant_height(v);
    for (int y = H - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < W; x++) {
            char c = mark[tc_cell(v, x, y)];
            if (!c) {
                run++;
                continue;
            }
            if (run)
                len += (size_t)snprintf(buf + len, n - len, "%d", run);
            run = 0;
            len += (size_t)snprintf(buf + len, n - len, "%c", c);
        }
        if (run)
            len += (size_t)snprintf(buf + len, n - len, "%d", run);
        if (y)
            len += (size_t)snprintf(buf + len, n - len, "/");
    }
    tc_position_free(p);
    tc_variant_free(v);
}

static char blue(const tc_position *p, tc_move m)
{
    (void)p;
    (void)m;
    return 'B';
}

static char yellow_or_red(const tc_position *p, tc_move m)
{
    return tc_piece_at(p, TC_MOVE_TO(m)) ? 'R' : 'Y';
}

/* The suffix rule of cmd_usermove, on every 8x14 preset: accepted when the
 * move without it is legal and no promotion, refused otherwise. */
static void test_suffix_rule(const char *variant)
{
    th_case("cecp %s: piece letter on a rank-14 pawn move", variant);
    /* d14d12q is taken as d14d12 (then d9d10 is Black's legal reply, and
     * d12 keeps a pawn: its lift shows pawn moves only); d14d11q (three
     * steps), d12d11q (XBoard adds no letter there) and a second d14d12q
     * (d12 is occupied now) stay refused. */
    const char *input = "xboard\nprotover 2\nforce\n"
                        "usermove d14d11q\nusermove d14d12q\nusermove d9d10\n"
                        "usermove d12d11q\nusermove c14c12k\nusermove b7b6\n"
                        "lift d12\nusermove d14d13p\nping 1\nquit\n";
    char *out = cecp(variant, input);
    if (!out)
        return;
    CHECK(has_line(out, "Illegal move: d14d11q"), "three-step push accepted:\n%s", out);
    CHECK(!has_line(out, "Illegal move: d14d12q"), "d14d12q refused:\n%s", out);
    CHECK(!has_line(out, "Illegal move: d9d10"), "Black's reply refused (d14d12q not played?):\n%s", out);
    CHECK(has_line(out, "Illegal move: d12d11q"), "letter accepted where XBoard adds none:\n%s", out);
    CHECK(!has_line(out, "Illegal move: c14c12k"), "c14c12k refused:\n%s", out);
    CHECK(!has_line(out, "Illegal move: b7b6"), "b7b6 refused:\n%s", out);
    CHECK(has_line(out, "Illegal move: d14d13p"), "d14d13p accepted with d14 empty:\n%s", out);
    char want[256];
    expected_highlight(variant, "d14d12 d9d10 c14c12 b7b6", "d12", yellow_or_red, want, sizeof want);
    CHECK(has_line(out, want), "lift d12: want '%s' (a pawn's moves):\n%s", want, out);
    CHECK(has_line(out, "pong 1"), "no pong:\n%s", out);
    free(out);
}

/* A real promotion keeps needing one of q, r, b, n. */
static void test_promotion_letters(void)
{
    th_case("cecp klein-bottle: a real promotion with a wrong letter");
    const char *input = "xboard\nprotover 2\nforce\n"
                        "setboard 8/8/8/8/7k/8/8/3P4/8/8/8/8/4p3/K7 w - - 0 1\n"
                        "usermove d7d8k\nusermove d7d8p\nusermove d7d8\nusermove d7d8n\n"
                        "usermove e2e1k\nusermove e2e1p\nusermove e2e1r\nping 1\nquit\n";
    char *out = cecp("klein-bottle", input);
    if (!out)
        return;
    CHECK(!strstr(out, "Error (illegal position"), "setboard refused:\n%s", out);
    CHECK(has_line(out, "Illegal move: d7d8k"), "promotion to a king accepted:\n%s", out);
    CHECK(has_line(out, "Illegal move: d7d8p"), "promotion to a pawn accepted:\n%s", out);
    CHECK(has_line(out, "Illegal move: d7d8"), "promotion without a piece accepted:\n%s", out);
    CHECK(!has_line(out, "Illegal move: d7d8n"), "d7d8n refused:\n%s", out);
    /* Black's e2-e1 is a promotion for XBoard too */
    CHECK(has_line(out, "Illegal move: e2e1k"), "Black's promotion to a king accepted:\n%s", out);
    CHECK(has_line(out, "Illegal move: e2e1p"), "Black's promotion to a pawn accepted:\n%s", out);
    CHECK(!has_line(out, "Illegal move: e2e1r"), "e2e1r refused:\n%s", out);
    free(out);
}

/* The lift of a rank-14 pawn: blue targets and `choice P` right after the
 * highlight; other pawns keep yellow marks and get no `choice`. */
static void test_lift_marks(void)
{
    th_case("cecp mobius: blue marks and choice P for White's rank-14 pawns");
    char *out = cecp("mobius", "xboard\nprotover 2\nforce\nlift d14\nlift e2\nusermove e2e4\nlift d9\nquit\n");
    if (!out)
        return;
    char want[256];
    expected_highlight("mobius", "", "d14", blue, want, sizeof want);
    strcat(want, "\nchoice P\n");
    CHECK(strstr(out, want) != NULL, "lift d14: want\n%s\nin:\n%s", want, out);
    expected_highlight("mobius", "", "e2", yellow_or_red, want, sizeof want);
    strcat(want, "\n");
    const char *at = strstr(out, want);
    CHECK(at != NULL, "lift e2: want %s in:\n%s", want, out);
    CHECK(at && strncmp(at + strlen(want), "choice", 6), "choice sent for e2:\n%s", out);
    /* Black's pawns on rank 9 go north, away from XBoard's rank 1 */
    expected_highlight("mobius", "e2e4", "d9", yellow_or_red, want, sizeof want);
    CHECK(has_line(out, want), "lift d9: want %s in:\n%s", want, out);
    CHECK(strstr(out, "choice") == strstr(out, "choice P\n") && strstr(strstr(out, "choice") + 1, "choice") == NULL,
          "more than one choice line:\n%s", out);
    free(out);
}

/* Runs `$TC_BIN args` (stdout only); its output (heap) and exit status. */
static char *run_bin(const char *args, int *status)
{
    const char *bin = getenv("TC_BIN");
    if (!bin)
        bin = "./topochess";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", bin, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t len = 0, cap = 1 << 14;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, p)) > 0)
        if ((len += got) + 1 >= cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    if (buf)
        buf[len] = '\0';
    int st = pclose(p);
    *status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return buf;
}

/* `topochess pgn FILE --xboard`: coordinate moves only, XBoard's variant
 * tags, and the same games when read back. */
static void test_pgn_for_xboard(void)
{
    th_case("cecp: pgn --xboard writes games XBoard can load");
    const char *bin = getenv("TC_BIN");
    if (!bin && access("./topochess", X_OK)) {
        fprintf(stderr, "note: no TC_BIN and no ./topochess, pgn --xboard not run\n");
        return;
    }
    char in_path[] = "/tmp/tc_cecp_in_XXXXXX", out_path[] = "/tmp/tc_cecp_out_XXXXXX";
    int fd_in = mkstemp(in_path), fd_out = mkstemp(out_path);
    CHECK(fd_in >= 0 && fd_out >= 0, "cannot create temporary files");
    if (fd_in < 0 || fd_out < 0)
        return;
    close(fd_out);
    FILE *f = fdopen(fd_in, "w");
    fputs("[Event \"Klein bottle\"]\n[Variant \"klein-bottle\"]\n[Result \"*\"]\n\n"
          "1. d12 e11 2. c12 exc12 3. e12 g11 4. Nc13 *\n\n"
          "[Event \"Chess\"]\n[Result \"1-0\"]\n\n"
          "1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=Q e5 6. Nf3 Bc5 7. Bc4 O-O 8. O-O 1-0\n",
          f);
    fclose(f);
    char args[256];
    int st;
    snprintf(args, sizeof args, "pgn %s --xboard > %s", in_path, out_path);
    free(run_bin(args, &st));
    CHECK(st == 0, "pgn --xboard exit status %d", st);
    FILE *written = fopen(out_path, "r");
    char *text = NULL;
    if (written) {
        fseek(written, 0, SEEK_END);
        text = th_read_stream(written);
    }
    CHECK(text && strstr(text, "[Variant \"fairy\"]\n[SetUp \"1\"]\n[FEN \"PPPPPPPP/8/8/8/8/pppppppp/"),
          "8x14 game not tagged fairy with its FEN:\n%s", text ? text : "");
    CHECK(text && strstr(text, "[Variant \"normal\"]"), "chess not tagged normal:\n%s", text ? text : "");
    CHECK(text && strstr(text, "1. d14d12 e9e11 2. c14c12 e11c12 3. e14e12 g9g11 4. b1c13 *"),
          "klein-bottle moves:\n%s", text ? text : "");
    CHECK(text && strstr(text, "5. b7a8q e7e5") && strstr(text, "7. f1c4 e8g8 8. e1g1 1-0"),
          "promotion or castling moves:\n%s", text ? text : "");
    /* read back under our names for the variants: the same games */
    char *fairy = text ? strstr(text, "[Variant \"fairy\"]") : NULL;
    char *normal = text ? strstr(text, "[Variant \"normal\"]") : NULL;
    if (written)
        fclose(written);
    written = fairy && normal && fairy < normal ? fopen(out_path, "w") : NULL;
    CHECK(written != NULL, "cannot rewrite %s", out_path);
    if (written) {
        fwrite(text, 1, (size_t)(fairy - text), written);
        fputs("[Variant \"klein-bottle\"]", written);
        fwrite(fairy + strlen("[Variant \"fairy\"]"), 1, (size_t)(normal - fairy) - strlen("[Variant \"fairy\"]"),
               written);
        fputs("[Variant \"chess\"]", written);
        fputs(normal + strlen("[Variant \"normal\"]"), written);
        fclose(written);
    }
    snprintf(args, sizeof args, "pgn %s --fen", in_path);
    char *want = run_bin(args, &st);
    snprintf(args, sizeof args, "pgn %s --fen", out_path);
    char *got = run_bin(args, &st);
    CHECK(want && got && !strcmp(want, got), "read back:\n%s\nwant:\n%s", got ? got : "", want ? want : "");
    CHECK(want && strstr(want, "game 2: 8 moves, result 1-0, ok"), "the sample games:\n%s", want ? want : "");
    free(text);
    free(want);
    free(got);
    unlink(in_path);
    unlink(out_path);
}

void suite_cecp(void)
{
    static const char *const boards[] = {"monteiro-cylinder", "torus", "mobius", "klein-bottle"};
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        test_suffix_rule(boards[i]);
    test_promotion_letters();
    test_lift_marks();
    test_pgn_for_xboard();
}
