/* `topochess match`: the Elo arithmetic, colours and openings of game
 * pairs, argument parsing, and real matches against tiny fake engines
 * (shell scripts) and, when installed, fairymax. */
#include "harness.h"
#include "match.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAIRYMAX "/usr/games/fairymax"

static int near(double a, double b, double eps) { return fabs(a - b) <= eps; }

static void test_elo(void)
{
    th_case("match: Elo of a score");
    CHECK(near(match_elo(0.75), 190.85, 0.01), "75%% gives %.2f", match_elo(0.75));
    CHECK(near(match_elo(0.5), 0, 1e-9), "50%% gives %.2f", match_elo(0.5));
    CHECK(near(match_elo(0.25), -190.85, 0.01), "25%% gives %.2f", match_elo(0.25));
    CHECK(isinf(match_elo(1.0)) && match_elo(1.0) > 0, "100%% is +inf");
    CHECK(isinf(match_elo(0.0)) && match_elo(0.0) < 0, "0%% is -inf");

    th_case("match: Elo error bars");
    double elo, error;
    match_score a = {30, 10, 20};
    match_elo_range(&a, &elo, &error);
    CHECK(near(elo, 120.41, 0.01) && near(error, 75.26, 0.01), "30-10-20: %.2f +/- %.2f", elo, error);
    match_score b = {10, 10, 0};
    match_elo_range(&b, &elo, &error);
    CHECK(near(elo, 0, 1e-9) && near(error, 163.32, 0.01), "10-10-0: %.2f +/- %.2f", elo, error);
    match_score c = {6, 2, 2};
    match_elo_range(&c, &elo, &error);
    CHECK(near(elo, 147.19, 0.01) && near(error, 268.72, 0.01), "6-2-2: %.2f +/- %.2f", elo, error);
    match_score all = {5, 0, 0}, none = {0, 4, 0};
    match_elo_range(&all, &elo, &error);
    CHECK(isinf(elo) && elo > 0 && isinf(error), "5-0-0: %f +/- %f", elo, error);
    match_elo_range(&none, &elo, &error);
    CHECK(isinf(elo) && elo < 0 && isinf(error), "0-4-0: %f +/- %f", elo, error);
}

static void test_pairs(void)
{
    th_case("match: opening pairs alternate colours");
    for (int g = 0; g < 20; g += 2) {
        CHECK(match_white_engine(g) == 0 && match_white_engine(g + 1) == 1, "game %d", g);
        CHECK(match_opening_index(g, 3) == match_opening_index(g + 1, 3), "pair %d shares its opening", g);
        CHECK(match_opening_index(g, 3) == g / 2 % 3, "pair %d uses opening %d", g, g / 2 % 3);
    }
}

static void test_args(void)
{
    tc_variant_def def;
    tc_error err;
    tc_preset_find("cylinder", &def, &err);
    match_config cfg;

    th_case("match: arguments");
    char *ok[] = {"engine1=self:3", "engine2=fairymax", "proto2=cecp", "tc=10+0.1", "games=6",
                  "openings=3", "plies=6", "seed=42", "concurrency=2"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 9, ok, "topochess uci", &err) == 0, "%s", err.msg);
    CHECK(!strcmp(cfg.eng[0].cmd, "topochess uci") && cfg.eng[0].skill == 3, "self engine");
    CHECK(cfg.eng[1].proto == EP_CECP && cfg.eng[0].proto == EP_UCI, "protocols");
    CHECK(cfg.tc_base_ms == 10000 && cfg.tc_inc_ms == 100, "tc %d+%d", cfg.tc_base_ms, cfg.tc_inc_ms);
    CHECK(cfg.games == 6 && cfg.openings == 3 && cfg.plies == 6 && cfg.seed == 42 && cfg.concurrency == 2,
          "numbers");

    char *unknown[] = {"engine=x", "colour=red"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 2, unknown, "s", &err) && strstr(err.msg, "colour"), "unknown key: %s", err.msg);
    char *nodes[] = {"engine=x", "proto2=cecp", "nodes=1000"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 3, nodes, "s", &err) && strstr(err.msg, "UCI"), "nodes with CECP: %s", err.msg);
    char *two[] = {"engine=x", "movetime=10", "tc=5"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 3, two, "s", &err), "two limits refused");
    char *badtc[] = {"engine=x", "tc=5+"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 2, badtc, "s", &err), "tc=5+ refused");
}

/* Writes a fake UCI engine whose answer to `go` is `on_go` (a shell
 * command list); path receives the script's name. */
static int fake_engine(char *path, size_t size, const char *on_go)
{
    snprintf(path, size, "/tmp/tc_fake_engine_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    fprintf(f,
            "while read -r line; do\n"
            "  case \"$line\" in\n"
            "    uci) echo 'id name Fake'; echo uciok ;;\n"
            "    isready) echo readyok ;;\n"
            "    go*) %s ;;\n"
            "    quit) exit 0 ;;\n"
            "  esac\n"
            "done\n",
            on_go);
    fclose(f);
    return 0;
}

/* Plays a fake engine against itself; returns the log (heap). */
static char *fake_match(const char *on_go, const char *extra, match_score *score, int *status)
{
    char path[64], engine[96], *argv[4];
    tc_variant_def def;
    tc_error err;
    tc_preset_find("chess", &def, &err);
    if (fake_engine(path, sizeof path, on_go)) {
        CHECK(0, "cannot write a fake engine");
        return NULL;
    }
    snprintf(engine, sizeof engine, "engine=/bin/sh %s", path);
    argv[0] = engine;
    argv[1] = (char *)"movetime=50";
    argv[2] = (char *)"margin=50";
    argv[3] = (char *)extra;
    match_config cfg;
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, extra ? 4 : 3, argv, "s", &err) == 0, "%s", err.msg);
    FILE *log = tmpfile();
    *status = match_run(&cfg, log, score);
    char *text = th_read_stream(log);
    fclose(log);
    unlink(path);
    return text;
}

static void test_fake_engines(void)
{
    match_score s;
    int status;
    th_case("match: an illegal move loses and is named");
    char *log = fake_match("echo 'bestmove a1a1'", NULL, &s, &status);
    CHECK(status == 0 && s.wins == 1 && s.losses == 1 && s.draws == 0, "score %d-%d-%d", s.wins, s.losses,
          s.draws);
    CHECK(log && strstr(log, "illegal move 'a1a1'"), "log: %s", log ? log : "");
    CHECK(log && strstr(log, "Finished game 1 (Fake vs Fake (2)): 0-1"), "log: %s", log ? log : "");
    CHECK(log && strstr(log, "Score of Fake vs Fake (2): 1 - 1 - 0"), "log: %s", log ? log : "");
    free(log);

    th_case("match: a silent engine loses on time, without a hang");
    long t0 = ep_now_ms();
    log = fake_match(":", "games=1", &s, &status);
    CHECK(status == 0 && s.losses == 1, "score %d-%d-%d", s.wins, s.losses, s.draws);
    CHECK(log && strstr(log, "did not move within 100 ms"), "log: %s", log ? log : "");
    CHECK(ep_now_ms() - t0 < 5000, "took %ld ms", ep_now_ms() - t0);
    free(log);

    th_case("match: an engine that exits loses");
    log = fake_match("exit 3", "games=1", &s, &status);
    CHECK(status == 0 && s.losses == 1, "score %d-%d-%d", s.wins, s.losses, s.draws);
    CHECK(log && strstr(log, "exit status 3"), "log: %s", log ? log : "");
    free(log);

    th_case("match: a missing engine is refused");
    tc_variant_def def;
    tc_error err;
    tc_preset_find("chess", &def, &err);
    match_config cfg;
    match_config_init(&cfg, &def);
    char *argv[] = {"engine=/nonexistent/engine"};
    CHECK(match_parse_args(&cfg, 1, argv, "s", &err) == 0, "%s", err.msg);
    FILE *out = tmpfile();
    CHECK(match_run(&cfg, out, &s) == -1, "match ran");
    log = th_read_stream(out);
    fclose(out);
    CHECK(log && strstr(log, "did not start"), "log: %s", log ? log : "");
    free(log);
}

/* Runs a 2-game match from argv and checks its PGN: both games replay
 * legally under the variant's rules, colours swap, the opening is shared. */
static void play_and_check(const char *variant, char **args, int nargs)
{
    tc_variant_def def;
    tc_error err;
    tc_preset_find(variant, &def, &err);
    char pgn[] = "/tmp/tc_match_pgn_XXXXXX";
    int fd = mkstemp(pgn);
    CHECK(fd >= 0, "temporary file");
    if (fd < 0)
        return;
    close(fd);
    char pgn_arg[64];
    snprintf(pgn_arg, sizeof pgn_arg, "pgn=%s", pgn);
    char *argv[16];
    int argc = 0;
    for (int i = 0; i < nargs && argc < 15; i++)
        argv[argc++] = args[i];
    argv[argc++] = pgn_arg;
    const char *bin = getenv("TC_BIN");
    char self[600];
    snprintf(self, sizeof self, "%s uci", bin && *bin ? bin : "./topochess");
    match_config cfg;
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, argc, argv, self, &err) == 0, "%s", err.msg);
    match_score s;
    FILE *log = tmpfile();
    CHECK(match_run(&cfg, log, &s) == 0, "match failed");
    fclose(log);
    CHECK(s.wins + s.losses + s.draws == 2, "games %d", s.wins + s.losses + s.draws);

    FILE *f = fopen(pgn, "r");
    char *text = NULL;
    if (f) {
        fseek(f, 0, SEEK_END);
        text = th_read_stream(f);
        fclose(f);
    }
    unlink(pgn);
    CHECK(text != NULL, "no PGN");
    if (!text)
        return;
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, strlen(text));
    tc_pgn_game g[2];
    memset(g, 0, sizeof g);
    int n = 0;
    while (n < 2 && tc_pgn_read_game(&r, &g[n], &err) == 1) {
        tc_pgn_replay rep;
        int replayed = tc_pgn_replay_game(&g[n], NULL, &rep, &err) == 0;
        CHECK(replayed, "game %d: %s", n + 1, err.msg);
        CHECK(replayed && rep.ok, "game %d replays: %s", n + 1, err.msg);
        CHECK(tc_pgn_tag(&g[n], "Termination") != NULL, "game %d has a Termination tag", n + 1);
        const char *tag = tc_pgn_tag(&g[n], "Variant");
        CHECK(!strcmp(variant, "chess") || (tag && !strcmp(tag, variant)), "game %d variant", n + 1);
        if (replayed)
            tc_pgn_replay_free(&rep);
        n++;
    }
    CHECK(n == 2, "PGN holds %d games", n);
    if (n == 2) {
        const char *w0 = tc_pgn_tag(&g[0], "White"), *b0 = tc_pgn_tag(&g[0], "Black");
        const char *w1 = tc_pgn_tag(&g[1], "White"), *b1 = tc_pgn_tag(&g[1], "Black");
        CHECK(w0 && b1 && !strcmp(w0, b1) && b0 && w1 && !strcmp(b0, w1), "colours swapped");
        int same = g[0].nmoves >= 4 && g[1].nmoves >= 4;
        for (int i = 0; same && i < 4; i++)
            same = !strcmp(g[0].moves[i], g[1].moves[i]);
        CHECK(same, "both games start with the same 4-ply opening");
    }
    for (int i = 0; i < n; i++)
        tc_pgn_game_free(&g[i]);
    free(text);
}

static void test_fairymax(void)
{
    th_case("match: fairymax vs fairymax on cylinder");
    if (access(FAIRYMAX, X_OK)) {
        printf("  (skipped: %s not installed)\n", FAIRYMAX);
        return;
    }
    char *argv[] = {"engine=" FAIRYMAX, "proto=cecp", "games=2", "movetime=50", "openings=1",
                    "maxplies=40", "concurrency=2"};
    play_and_check("cylinder", argv, 7);
}

/* Two levels of topochess itself on the Klein bottle (needs the binary:
 * $TC_BIN or ./topochess). */
static void test_levels(void)
{
    th_case("match: topochess level 1 vs level 4 on klein-bottle");
    const char *bin = getenv("TC_BIN");
    if (access(bin && *bin ? bin : "./topochess", X_OK)) {
        printf("  (skipped: no topochess binary)\n");
        return;
    }
    char *argv[] = {"engine1=self:1", "engine2=self:4", "games=2", "movetime=40", "openings=1",
                    "maxplies=80", "concurrency=2"};
    play_and_check("klein-bottle", argv, 7);
}

void suite_match(void)
{
    test_elo();
    test_pairs();
    test_args();
    test_fake_engines();
    test_fairymax();
    test_levels();
}
