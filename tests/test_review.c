/* Game review (src/engine/review.c, docs/analysis.md): the scholar's mate
 * reviewed, its blunder marked and the best move there shown to stop the
 * mate (checked by the rules: after it, no White move mates); the curve and
 * the marks' bounds; the same review twice under a node limit; a Klein
 * bottle game; `topochess review`'s PGN read back by the project's reader
 * with the same moves and an [%eval] after each move, and its bad
 * arguments refused by name. */
#include "harness.h"

#include "topochess_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The command's binary: $TC_BIN, else ./topochess; NULL when neither. */
static const char *th_bin(void)
{
    const char *env = getenv("TC_BIN");
    if (env && *env && access(env, X_OK) == 0)
        return env;
    return access("./topochess", X_OK) == 0 ? "./topochess" : NULL;
}

/* Everything a shell command prints (heap), or NULL. */
static char *th_run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n - 1, p)) > 0;) {
        n += k;
        if (cap - n < 2048) {
            char *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                buf = NULL;
            }
            buf = more;
        }
    }
    pclose(p);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* A scratch file with text (its path in a static buffer; removed at exit
 * of the suite by the caller). */
static const char *th_scratch_file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/tc-test-%ld-%s", (long)getpid(), name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static tc_position *game_of(tc_variant *v, const char *moves)
{
    tc_position *p = tc_position_new(v);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        tc_move m;
        tc_error err;
        CHECK(tc_move_parse(p, t, &m, &err) == 0, "move %s: %s", t, err.msg);
        tc_make_move(p, m);
    }
    return p;
}

/* Whether the side to move has a move that mates. */
static int has_mate_in_one(tc_position *p)
{
    tc_movelist *list = malloc(sizeof *list);
    int n = tc_generate_legal(p, list), mate = 0;
    for (int i = 0; i < n && !mate; i++) {
        tc_make_move(p, list->moves[i]);
        mate = tc_position_status(p) == TC_CHECKMATE;
        tc_unmake_move(p);
    }
    free(list);
    return mate;
}

static void test_scholar(void)
{
    th_case("the scholar's mate: 3...Nf6 is a blunder, the best move there stops the mate");
    tc_error err;
    tc_variant *v = th_variant("chess");
    tc_position *g = game_of(v, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
    tc_engine *e = tc_engine_new(v, 16, 1);
    tc_limits lim;
    tc_limits_init(&lim);
    lim.nodes = 30000;
    tc_review_move mv[7], again[7];
    tc_review_side sides[2];
    CHECK(tc_review_game(e, g, &lim, mv, sides, NULL, NULL, &err) == 0, "%s", err.msg);
    CHECK(mv[5].mark == TC_MARK_BLUNDER, "3...Nf6 is marked '%s'", tc_mark_name(mv[5].mark));
    CHECK(mv[5].mate > 0 && mv[5].chances_after == -1.0, "after 3...Nf6 White mates: mate %d, Black's chances %f",
          mv[5].mate, mv[5].chances_after);
    CHECK(sides[TC_BLACK].blunders == 1 && sides[TC_BLACK].moves == 3 && sides[TC_WHITE].moves == 4,
          "black %d blunders in %d moves, white %d moves", sides[TC_BLACK].blunders, sides[TC_BLACK].moves,
          sides[TC_WHITE].moves);
    CHECK(sides[TC_WHITE].blunders == 0 && sides[TC_WHITE].accuracy > sides[TC_BLACK].accuracy,
          "white %.1f, black %.1f", sides[TC_WHITE].accuracy, sides[TC_BLACK].accuracy);
    CHECK(mv[6].mark == TC_MARK_NONE && mv[6].accuracy == 100.0, "the mating move loses nothing");
    /* the engine's move instead of 3...Nf6: no White move mates after it */
    tc_position *p = game_of(v, "e4 e5 Qh5 Nc6 Bc4");
    CHECK(mv[5].best && mv[5].best != mv[5].played, "a best move other than Nf6");
    tc_make_move(p, mv[5].best);
    CHECK(!has_mate_in_one(p), "the best move still allows a mate");
    tc_position_free(p);
    /* the same review again, move for move */
    CHECK(tc_review_game(e, g, &lim, again, NULL, NULL, NULL, &err) == 0, "%s", err.msg);
    for (int i = 0; i < 7; i++)
        CHECK(again[i].score == mv[i].score && again[i].best == mv[i].best && again[i].mark == mv[i].mark,
              "ply %d differs on a second run", i + 1);
    tc_engine_free(e);

    th_case("the curve and the marks' bounds");
    CHECK(tc_review_chances(0, 0) == 0.0 && tc_review_chances(0, 3) == 1.0 && tc_review_chances(0, -2) == -1.0,
          "0 and mates");
    CHECK(fabs(tc_review_chances(100, 0) - (2 / (1 + exp(-0.368208)) - 1)) < 1e-12, "+1.00");
    CHECK(tc_review_chances(-300, 0) == -tc_review_chances(300, 0), "symmetric");
    CHECK(!strcmp(tc_mark_name(TC_MARK_MISTAKE), "mistake") && !strcmp(tc_mark_name(TC_MARK_NONE), ""), "names");

    th_case("another board's engine is refused");
    tc_variant *k = th_variant("klein-bottle");
    tc_engine *ke = tc_engine_new(k, 16, 1);
    CHECK(tc_review_game(ke, g, &lim, mv, NULL, NULL, NULL, &err) == -1 && strstr(err.msg, "another board"),
          "%s", err.msg);
    tc_position_free(g);

    th_case("a Klein bottle game: a value after every move, a capture around the twist judged");
    tc_position *kg = game_of(k, "d12 e11 c12 exc12 e12 g11");
    tc_review_move km[6];
    lim.nodes = 20000;
    CHECK(tc_review_game(ke, kg, &lim, km, sides, NULL, NULL, &err) == 0, "%s", err.msg);
    for (int i = 0; i < 6; i++)
        CHECK(km[i].depth > 0 && km[i].best && km[i].accuracy >= 0 && km[i].accuracy <= 100, "ply %d: depth %d",
              i + 1, km[i].depth);
    tc_position_free(kg);
    tc_engine_free(ke);
    tc_variant_free(k);
    tc_variant_free(v);
}

static void test_command(void)
{
    th_case("topochess review: PGN with [%%eval] after each move, read back with the same moves");
    if (!th_bin()) {
        fprintf(stderr, "note: no ./topochess and no $TC_BIN: the review command is not run\n");
        return;
    }
    const char *in = th_scratch_file("review-in.pgn", "[Event \"r\"]\n[Variant \"klein-bottle\"]\n[Result \"*\"]\n\n"
                                                     "1. d12 e11 2. c12 exc12 3. e12 g11 *\n");
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "%s review %s nodes 5000 2>/dev/null", th_bin(), in);
    char *out = th_run(cmd);
    CHECK(out && strstr(out, "[Annotator \"topochess review (5000 nodes a position)\"]"), "%s", out ? out : "");
    int evals = 0;
    for (const char *s = out; s && (s = strstr(s, "[%eval ")); s++)
        evals++;
    CHECK(evals == 6, "%d [%%eval] comments for 6 moves", evals);
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, out ? out : "", out ? strlen(out) : 0);
    tc_pgn_game gm;
    tc_error err;
    CHECK(tc_pgn_read_game(&r, &gm, &err) == 1, "read back: %s", err.msg);
    static const char *const moves[] = {"d12", "e11", "c12", "exc12", "e12", "g11"};
    CHECK(gm.nmoves == 6, "%d moves read back", gm.nmoves);
    for (int i = 0; i < gm.nmoves && i < 6; i++)
        CHECK(!strcmp(gm.moves[i], moves[i]), "move %d: %s", i + 1, gm.moves[i]);
    tc_pgn_game_free(&gm);
    free(out);

    th_case("pgn-extract (Debian's) reads a reviewed chess game without a complaint");
    const char *px = access("/usr/games/pgn-extract", X_OK) == 0 ? "/usr/games/pgn-extract" : "pgn-extract";
    const char *chess = th_scratch_file("review-chess.pgn", "[Event \"r\"]\n[Result \"1-0\"]\n\n"
                                                            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
    char reviewed[300];
    snprintf(reviewed, sizeof reviewed, "%s.out", chess);
    snprintf(cmd, sizeof cmd, "%s review %s nodes 5000 > %s 2>/dev/null && %s -s %s 2>&1; echo \"rc=$?\"", th_bin(),
             chess, reviewed, px, reviewed);
    out = th_run(cmd);
    CHECK(out && strstr(out, "rc=0") && strstr(out, "Nf6 $4 {") && !strstr(out, "rror"),
          "pgn-extract (tools/install-deps installs it) says: %s", out ? out : "");
    free(out);
    remove(chess);
    remove(reviewed);

    th_case("topochess review: bad budgets are named");
    static const char *const bad[][2] = {{"nodes 0", "expected 'nodes N'"},
                                         {"depth 999", "expected 'nodes N'"},
                                         {"speed 3", "expected 'nodes N'"},
                                         {"nodes", "takes 'nodes N' or 'depth N'"}};
    for (int i = 0; i < 4; i++) {
        snprintf(cmd, sizeof cmd, "%s review %s %s 2>&1", th_bin(), in, bad[i][0]);
        out = th_run(cmd);
        CHECK(out && strstr(out, bad[i][1]), "'%s': %s", bad[i][0], out ? out : "");
        free(out);
    }
    remove(in);
}

void suite_review(void)
{
    test_scholar();
    test_command();
}
