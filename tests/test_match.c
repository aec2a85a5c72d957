/* `topochess match`: the Elo arithmetic, colours and openings of game
 * pairs, argument parsing, and real matches against tiny fake engines
 * (shell scripts) and, when installed, fairymax. */
#include "harness.h"
#include "match.h"
#include "topochess_engine.h"

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

static void test_sprt(void)
{
    th_case("match: SPRT log-likelihood ratios");
    /* reference values computed apart from this code (fishtest's normal
     * approximation of the GSPRT, empty bins regularised to 1e-3) */
    match_penta up = {{10, 40, 100, 60, 20}}, down = {{20, 60, 100, 40, 10}};
    double a = match_sprt_llr_penta(&up, 0, 5), b = match_sprt_llr_penta(&down, 0, 5);
    CHECK(near(a, 1.14000, 1e-4), "penta up: %.5f", a);
    CHECK(near(b, -1.34568, 1e-4), "penta down: %.5f", b);
    match_score tri = {60, 30, 40};
    double c = match_sprt_llr_trinomial(&tri, 0, 10);
    CHECK(near(c, 1.26658, 1e-4), "trinomial: %.5f", c);
    match_penta none = {{0, 0, 0, 0, 0}};
    CHECK(match_sprt_llr_penta(&none, 0, 5) == 0, "no pairs, no evidence");

    match_sprt t = {1, 0, 5, 0.05, 0.05, {{0, 0, 0, 0, 0}}};
    double lo, hi;
    match_sprt_bounds(&t, &lo, &hi);
    CHECK(near(lo, -2.94444, 1e-4) && near(hi, 2.94444, 1e-4), "bounds %.5f %.5f", lo, hi);
    CHECK(match_sprt_decide(&t, 3.0) == 1 && match_sprt_decide(&t, -3.0) == -1 && match_sprt_decide(&t, 1.0) == 0,
          "decisions");
    /* more of the same evidence moves the ratio the same way, further */
    match_penta up2 = {{20, 80, 200, 120, 40}};
    CHECK(match_sprt_llr_penta(&up2, 0, 5) > 2 * a - 1e-9, "evidence adds up");
    /* a one-sided start stays finite and points the right way */
    match_penta lost = {{3, 0, 0, 0, 0}};
    double l = match_sprt_llr_penta(&lost, 0, 5);
    CHECK(isfinite(l) && l < lo, "three lost pairs: %.3f", l);

    th_case("match: an SPRT continued from an earlier run's pairs");
    /* the continued test decides on both runs' pairs: the sum of `up`
     * and `down` is the sample {30, 100, 200, 100, 30}, even */
    match_sprt cont = {1, 0, 5, 0.05, 0.05, up};
    match_penta all = match_sprt_pairs(&cont, &down);
    CHECK(all.n[0] == 30 && all.n[1] == 100 && all.n[2] == 200 && all.n[3] == 100 && all.n[4] == 30,
          "pairs %d %d %d %d %d", all.n[0], all.n[1], all.n[2], all.n[3], all.n[4]);
    double even = match_sprt_llr_penta(&all, 0, 5);
    CHECK(even < a && even > b, "llr of both runs %.5f between %.5f and %.5f", even, b, a);
    FILE *out = tmpfile();
    match_print_sprt(&cont, &down, out);
    char *text = th_read_stream(out);
    fclose(out);
    char want[64];
    snprintf(want, sizeof want, "SPRT: llr %.2f ", even);
    CHECK(text && strstr(text, "SPRT counts 230 earlier pairs (sprt-prior) and this match's 230") && strstr(text, want) &&
              strstr(text, "Ptnml(0-2): 30, 100, 200, 100, 30"),
          "%s", text ? text : "");
    free(text);
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
    /* options: up to MATCH_MAX_OPTIONS an engine (SPSA sets every search
     * parameter), the next refused with the limit */
    char words[MATCH_MAX_OPTIONS + 2][32], *opts[MATCH_MAX_OPTIONS + 2];
    snprintf(words[0], sizeof words[0], "engine=x");
    for (int i = 1; i < MATCH_MAX_OPTIONS + 2; i++)
        snprintf(words[i], sizeof words[i], "option1=P%d=%d", i, i);
    for (int i = 0; i < MATCH_MAX_OPTIONS + 2; i++)
        opts[i] = words[i];
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, MATCH_MAX_OPTIONS + 1, opts, "s", &err) == 0, "%d options: %s", MATCH_MAX_OPTIONS,
          err.msg);
    CHECK(cfg.eng[0].noptions == MATCH_MAX_OPTIONS && cfg.eng[1].noptions == 0 &&
              !strcmp(cfg.eng[0].option[MATCH_MAX_OPTIONS - 1][0], "P32") &&
              !strcmp(cfg.eng[0].option[MATCH_MAX_OPTIONS - 1][1], "32"),
          "options kept: %d", cfg.eng[0].noptions);
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, MATCH_MAX_OPTIONS + 2, opts, "s", &err) && strstr(err.msg, "at most 32"),
          "option %d: %s", MATCH_MAX_OPTIONS + 1, err.msg);
    char *badtc[] = {"engine=x", "tc=5+"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 2, badtc, "s", &err), "tc=5+ refused");

    th_case("match: per-engine limits, SPRT and adjudication arguments");
    char *per[] = {"engine=x", "movetime=200", "nodes2=5000", "tc1=2+0.05", "sprt=0,5,0.05,0.1",
                   "resign=3,700", "draw=40,8,10", "balance=30", "balancedepth=4"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 9, per, "s", &err) == 0, "%s", err.msg);
    CHECK(cfg.eng[0].tc_base_ms == 2000 && cfg.eng[0].tc_inc_ms == 50 && cfg.eng[0].movetime_ms == 0 &&
              cfg.eng[0].nodes == 0,
          "engine 1: tc %d+%d", cfg.eng[0].tc_base_ms, cfg.eng[0].tc_inc_ms);
    CHECK(cfg.eng[1].nodes == 5000 && cfg.eng[1].movetime_ms == 0 && cfg.eng[1].tc_base_ms == 0, "engine 2: nodes");
    CHECK(cfg.sprt.on && cfg.sprt.elo0 == 0 && cfg.sprt.elo1 == 5 && near(cfg.sprt.alpha, 0.05, 1e-12) &&
              near(cfg.sprt.beta, 0.1, 1e-12),
          "sprt");
    CHECK(cfg.adj.resign_moves == 3 && cfg.adj.resign_cp == 700, "resign");
    CHECK(cfg.adj.draw_movenumber == 40 && cfg.adj.draw_moves == 8 && cfg.adj.draw_cp == 10, "draw");
    CHECK(cfg.balance_cp == 30 && cfg.balance_depth == 4, "balance");
    char *prior[] = {"engine=x", "sprt-prior=1,2,30,4,5", "sprt=0,10,0.05,0.05"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 3, prior, "s", &err) == 0, "%s", err.msg);
    CHECK(cfg.sprt.prior.n[0] == 1 && cfg.sprt.prior.n[2] == 30 && cfg.sprt.prior.n[4] == 5 && cfg.sprt.elo1 == 10,
          "sprt-prior before sprt= is kept");
    char *lone_prior[] = {"engine=x", "sprt-prior=1,2,3,4,5"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 2, lone_prior, "s", &err) && strstr(err.msg, "give sprt="), "%s", err.msg);
    char *one[] = {"engine=x", "movetime2=300"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 2, one, "s", &err) == 0, "%s", err.msg);
    CHECK(cfg.eng[0].movetime_ms == 100 && cfg.eng[1].movetime_ms == 300, "default for engine 1, own for 2");
    const char *refused[][2] = {{"sprt=5,0,0.05,0.05", "ELO0"}, {"sprt=0,5,0.05", "ELO0"},
                                {"sprt=0,5,0.7,0.05", "alpha"}, {"resign=3", "2 whole numbers"},
                                {"draw=40,8", "3 whole numbers"}, {"draw=40,-8,10", "3 whole numbers"},
                                {"nodes1=0", "nodes1=0"}, {"sprt-prior=1,2,3,4", "5 whole numbers"},
                                {"sprt-prior=1,2,-3,4,5", "5 whole numbers"}};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char *args[] = {"engine=x", (char *)refused[i][0]};
        match_config_init(&cfg, &def);
        CHECK(match_parse_args(&cfg, 2, args, "s", &err) && strstr(err.msg, refused[i][1]), "%s: %s",
              refused[i][0], err.msg);
    }
    char *twice[] = {"engine=x", "movetime1=10", "nodes1=500"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 3, twice, "s", &err) && strstr(err.msg, "movetime1="), "two limits for engine 1: %s",
          err.msg);
    char *cecp[] = {"engine=x", "proto1=cecp", "nodes2=100"};
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 3, cecp, "s", &err) == 0, "nodes for the UCI engine alone: %s", err.msg);

    th_case("match: the default margin grows with the move time");
    char *mt[] = {"engine=x", "movetime1=100", "movetime2=1000"};
    match_config_init(&cfg, &def);
    match_parse_args(&cfg, 3, mt, "s", &err);
    CHECK(match_margin(&cfg, 0) == 150 && match_margin(&cfg, 1) == 600, "margins %d %d", match_margin(&cfg, 0),
          match_margin(&cfg, 1));
    char *fixed[] = {"engine=x", "movetime=1000", "margin=20"};
    match_config_init(&cfg, &def);
    match_parse_args(&cfg, 3, fixed, "s", &err);
    CHECK(match_margin(&cfg, 0) == 20 && match_margin(&cfg, 1) == 20, "margin= is kept");
    char *clk[] = {"engine=x", "tc=60+1"};
    match_config_init(&cfg, &def);
    match_parse_args(&cfg, 2, clk, "s", &err);
    CHECK(match_margin(&cfg, 0) == 100 + 150 + 1000, "clock margin %d", match_margin(&cfg, 0));
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

/* Writes a fake UCI engine that shuffles a knight (Ng1-f3-g1 as White,
 * Nb8-c6-b8 as Black), so games end by repetition unless adjudicated. It
 * reports `score` with each move; `want` (if not NULL) must appear in the
 * go command, else it plays an illegal move. */
static int shuffle_engine(char *path, size_t size, int score, const char *want)
{
    snprintf(path, size, "/tmp/tc_fake_shuffle_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    fprintf(f,
            "n=0\n"
            "while read -r line; do\n"
            "  case \"$line\" in\n"
            "    uci) echo 'id name Shuffle'; echo uciok ;;\n"
            "    isready) echo readyok ;;\n"
            "    position*) set -- $line; n=0; [ $# -gt 2 ] && n=$(($# - 3)) ;;\n"
            "    go*)\n"
            "      case \"$line\" in *\"%s\"*) ;; *) echo 'bestmove a1a1'; continue ;; esac\n"
            "      if [ $((n %% 2)) -eq 0 ]; then\n"
            "        if [ $((n / 2 %% 2)) -eq 0 ]; then m=g1f3; else m=f3g1; fi\n"
            "      else\n"
            "        if [ $((n / 2 %% 2)) -eq 0 ]; then m=b8c6; else m=c6b8; fi\n"
            "      fi\n"
            "      echo \"info depth 1 score cp %d nodes 10 pv $m\"; echo \"bestmove $m\" ;;\n"
            "    quit) exit 0 ;;\n"
            "  esac\n"
            "done\n",
            want ? want : "go", score);
    fclose(f);
    return 0;
}

/* A match of two shuffle engines (scores s1, s2; engine 1 insists on
 * want1 in its go line) with extra arguments (margin=5000 before them);
 * returns the log (heap). */
static char *shuffle_match(int s1, int s2, const char *want1, char **extra, int nextra, match_score *score,
                           match_penta *penta, int *status)
{
    char p1[64], p2[64], e1[96], e2[96];
    char *argv[16];
    tc_variant_def def;
    tc_error err;
    tc_preset_find("chess", &def, &err);
    if (shuffle_engine(p1, sizeof p1, s1, want1) || shuffle_engine(p2, sizeof p2, s2, NULL)) {
        CHECK(0, "cannot write a fake engine");
        return NULL;
    }
    snprintf(e1, sizeof e1, "engine1=/bin/sh %s", p1);
    snprintf(e2, sizeof e2, "engine2=/bin/sh %s", p2);
    int argc = 0;
    argv[argc++] = e1;
    argv[argc++] = e2;
    argv[argc++] = (char *)"movetime=50";
    /* these cases are about adjudication and limits, not clocks: a shell
     * engine on a loaded machine (the sanitizer suite beside others) may
     * answer later than the default 125 ms grace */
    argv[argc++] = (char *)"margin=5000";
    for (int i = 0; i < nextra && argc < 16; i++)
        argv[argc++] = extra[i];
    match_config cfg;
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, argc, argv, "s", &err) == 0, "%s", err.msg);
    FILE *log = tmpfile();
    *status = match_run_penta(&cfg, log, score, penta);
    char *text = th_read_stream(log);
    fclose(log);
    unlink(p1);
    unlink(p2);
    return text;
}

static void test_runner_features(void)
{
    match_score s;
    match_penta pt;
    int status;

    th_case("match: engine 1's own node limit reaches it");
    char *nodes[] = {"nodes1=777", "games=2"};
    char *log = shuffle_match(0, 0, "go nodes 777", nodes, 2, &s, &pt, &status);
    CHECK(status == 0 && s.draws == 2, "score %d-%d-%d: %s", s.wins, s.losses, s.draws, log ? log : "");
    CHECK(log && strstr(log, "threefold"), "log: %s", log ? log : "");
    free(log);
    char *wrong[] = {"nodes2=777", "games=2"};
    log = shuffle_match(0, 0, "go nodes 777", wrong, 2, &s, &pt, &status);
    CHECK(status == 0 && s.losses == 2, "engine 1 without its limit: %d-%d-%d", s.wins, s.losses, s.draws);
    free(log);

    th_case("match: resign adjudication by both engines' scores");
    char *resign[] = {"resign=3,600", "games=2"};
    log = shuffle_match(-900, 900, NULL, resign, 2, &s, &pt, &status);
    CHECK(status == 0 && s.losses == 2, "score %d-%d-%d", s.wins, s.losses, s.draws);
    CHECK(log && strstr(log, "wins by adjudication"), "log: %s", log ? log : "");
    free(log);
    th_case("match: one engine's opinion does not adjudicate");
    log = shuffle_match(-900, 0, NULL, resign, 2, &s, &pt, &status);
    CHECK(status == 0 && s.draws == 2, "score %d-%d-%d", s.wins, s.losses, s.draws);
    free(log);

    th_case("match: draw adjudication");
    char *draw[] = {"draw=1,2,10", "games=2"};
    log = shuffle_match(5, -3, NULL, draw, 2, &s, &pt, &status);
    CHECK(status == 0 && s.draws == 2, "score %d-%d-%d", s.wins, s.losses, s.draws);
    CHECK(log && strstr(log, "draw by adjudication") && !strstr(log, "threefold"), "log: %s", log ? log : "");
    free(log);

    th_case("match: the SPRT stops a lopsided match");
    char *sprt[] = {"sprt=0,10,0.05,0.05", "games=200"};
    log = shuffle_match(0, 0, "never", sprt, 2, &s, &pt, &status);
    int played = s.wins + s.losses + s.draws;
    CHECK(status == 0 && s.losses == played && played >= 2 * MATCH_SPRT_MIN_PAIRS && played < 200, "played %d, lost %d",
          played, s.losses);
    CHECK(pt.n[0] * 2 == played, "pairs: %d lost of %d games", pt.n[0], played);
    CHECK(log && strstr(log, "H0 was accepted") && strstr(log, "SPRT: llr"), "log: %s", log ? log : "");
    free(log);

    th_case("match: a continued SPRT weighs the earlier pairs");
    /* the same lopsided match, continuing a run whose 8 pairs were all
     * won: the SPRT needs more lost pairs to outweigh them */
    char *cont[] = {"sprt=0,10,0.05,0.05", "games=200", "sprt-prior=0,0,0,0,8"};
    log = shuffle_match(0, 0, "never", cont, 3, &s, &pt, &status);
    int more = s.wins + s.losses + s.draws;
    CHECK(status == 0 && s.losses == more && more > played && more < 200, "played %d (without the prior %d)", more,
          played);
    CHECK(log && strstr(log, "H0 was accepted") && strstr(log, "SPRT counts 8 earlier pairs"), "log: %s",
          log ? log : "");
    free(log);
}

/* Writes `text` to openings.SUFFIX in a new temporary folder; 0 or -1. */
static int temp_file(char *path, size_t size, const char *suffix, const char *text)
{
    char dir[] = "/tmp/tc_openings_XXXXXX";
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, size, "%s/openings%s", dir, suffix);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    fclose(f);
    return 0;
}

static void temp_remove(const char *path)
{
    unlink(path);
    char dir[64];
    snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
    rmdir(dir);
}

static void test_opening_files(void)
{
    tc_variant_def def;
    tc_error err;
    tc_preset_find("chess", &def, &err);
    tc_variant *v = tc_variant_new(&def, &err);
    match_config cfg;
    match_opening *list = NULL;
    int n = 0;
    char path[96];
    FILE *log = tmpfile();

    th_case("match: openings from an EPD file");
    temp_file(path, sizeof path, ".epd",
              "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm Nf3; id \"open game\";\n"
              "# a comment\n"
              "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -\n");
    match_config_init(&cfg, &def);
    snprintf(cfg.openings_file, sizeof cfg.openings_file, "%s", path);
    CHECK(match_make_openings(&cfg, v, &list, &n, log) == 0 && n == 2, "%d openings", n);
    tc_position *p = tc_position_new(v);
    if (n == 2) {
        CHECK(match_apply_opening(p, &list[1], &err) == 0 && tc_side_to_move(p) == TC_WHITE, "%s", err.msg);
        char fen[256];
        tc_position_fen(p, fen, sizeof fen);
        CHECK(!strncmp(fen, "r1bqkbnr/pppp1ppp/2n5/", 22), "fen %s", fen);
    }
    match_free_openings(list, n);
    temp_remove(path);

    th_case("match: openings from a PGN file");
    temp_file(path, sizeof path, ".pgn",
              "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
              "[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n");
    match_config_init(&cfg, &def);
    snprintf(cfg.openings_file, sizeof cfg.openings_file, "%s", path);
    CHECK(match_make_openings(&cfg, v, &list, &n, log) == 0 && n == 2, "%d openings", n);
    if (n == 2) {
        CHECK(!list[0].fen && !strcmp(list[0].moves, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"), "game 1: %s", list[0].moves);
        CHECK(list[1].fen && !strcmp(list[1].moves, "e2e4 e8d7"), "game 2: %s", list[1].moves);
    }
    match_free_openings(list, n);
    cfg.plies = 2;
    cfg.plies_given = 1;
    CHECK(match_make_openings(&cfg, v, &list, &n, log) == 0 && n == 2 && !strcmp(list[0].moves, "e2e4 e7e5"),
          "plies= caps PGN openings: %s", n ? list[0].moves : "");
    match_free_openings(list, n);
    temp_remove(path);
    temp_file(path, sizeof path, ".pgn", "1. e4 e5 2. Ke3 *\n");
    snprintf(cfg.openings_file, sizeof cfg.openings_file, "%s", path);
    char *text;
    list = NULL, n = 0;
    CHECK(match_make_openings(&cfg, v, &list, &n, log) == 0, "a cap of 2 plies stops before the bad move");
    match_free_openings(list, n);
    cfg.plies_given = 0;
    list = NULL, n = 0;
    CHECK(match_make_openings(&cfg, v, &list, &n, log) == -1, "an illegal PGN move is refused");
    text = th_read_stream(log);
    CHECK(text && strstr(text, "ply 3 'Ke3'"), "log: %s", text ? text : "");
    free(text);
    temp_remove(path);

    th_case("match: balanced random openings");
    tc_variant_free(v);
    tc_preset_find("cylinder", &def, &err);
    v = tc_variant_new(&def, &err);
    tc_position_free(p);
    p = tc_position_new(v);
    match_config_init(&cfg, &def);
    cfg.openings = 4;
    cfg.plies = 4;
    cfg.balance_cp = 40;
    cfg.balance_depth = 3;
    cfg.seed = 5;
    CHECK(match_make_openings(&cfg, v, &list, &n, log) == 0 && n == 4, "%d openings", n);
    tc_engine *e = tc_engine_new(v, 16, 1);
    for (int i = 0; e && i < n; i++) {
        CHECK(match_apply_opening(p, &list[i], &err) == 0, "%s", err.msg);
        tc_engine_set_position(e, p);
        tc_engine_new_game(e);
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 3;
        tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
        CHECK(r.score >= -40 && r.score <= 40, "opening %d (%s) scores %d", i + 1, list[i].moves, r.score);
    }
    tc_engine_free(e);
    match_free_openings(list, n);
    tc_position_free(p);
    tc_variant_free(v);
    fclose(log);
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
    char *argv[] = {("engine=" FAIRYMAX), "proto=cecp", "games=2", "movetime=50", "openings=1",
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
    test_sprt();
    test_pairs();
    test_args();
    test_fake_engines();
    test_runner_features();
    test_opening_files();
    test_fairymax();
    test_levels();
}
