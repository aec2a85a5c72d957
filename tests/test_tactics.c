/* Tactics from play (docs/puzzles.md, "Tactics from play"): a knight fork
 * and a back-rank mate are found with their lines; a quiet position is
 * refused; a position whose shallow best move the deeper search refutes is
 * refused by the confirmation (found by a self-play run at 2000 nodes, and
 * shown here to pass the shallow search alone); the themes of a check
 * uncovered and of a fork across the cylinder's file join (positions of
 * the bench's run), checked against the path API, and their flat twins
 * without them; the command: the same seed the same
 * output, a PGN file's tactic, bad options refused; and every puzzle of a
 * small generated batch searched again here with 16 times the nodes. */
#include "harness.h"
#include "topochess_explain.h"
#include "topochess_tactics.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the test's own searches read: the two lines of the deepest
 * iteration that completed both (independent of src/engine/tactics.c). */
typedef struct deep_lines {
    int depth1, value1, mate1;
    tc_move move1;
    int have, value[2], mate[2];
    tc_move move[2];
} deep_lines;

static int cp_of(const tc_search_info *in)
{
    return in->mate ? (in->mate > 0 ? 10000 : -10000) : in->score;
}

static void collect(const tc_search_info *in, void *ctx)
{
    deep_lines *d = ctx;
    if (in->bound != TC_BOUND_EXACT || in->pv_len < 1)
        return;
    if (in->multipv == 1) {
        d->depth1 = in->depth;
        d->value1 = cp_of(in);
        d->mate1 = in->mate;
        d->move1 = in->pv[0];
    } else if (in->multipv == 2 && in->depth == d->depth1) {
        d->have = 1;
        d->value[0] = d->value1;
        d->mate[0] = d->mate1;
        d->move[0] = d->move1;
        d->value[1] = cp_of(in);
        d->mate[1] = in->mate;
        d->move[1] = in->pv[0];
    }
}

static deep_lines two_lines(tc_engine *e, const tc_position *p, uint64_t nodes)
{
    deep_lines d;
    memset(&d, 0, sizeof d);
    tc_engine_new_game(e);
    tc_engine_set_position(e, p);
    tc_limits lim;
    tc_limits_init(&lim);
    lim.nodes = nodes;
    lim.multipv = 2;
    tc_engine_search(e, &lim, collect, &d);
    return d;
}

static int find(const char *variant, const char *fen, uint64_t nodes, tc_tactic *t, char *why)
{
    tc_variant *v = th_variant_cached(variant);
    tc_position *p = v ? th_at_fen(v, fen) : NULL;
    tc_engine *e = p ? tc_engine_new(v, 16, 1) : NULL;
    if (!e) {
        tc_position_free(p);
        return -1;
    }
    tc_tactic_options o;
    tc_tactic_options_default(&o);
    o.nodes = nodes;
    tc_error err;
    int r = tc_tactic_find(e, p, &o, t, why, 200, &err);
    CHECK(r >= 0, "%s: %s", fen, err.msg);
    tc_engine_free(e);
    tc_position_free(p);
    return r;
}

static void known_positions(void)
{
    tc_tactic t;
    char why[200];
    th_case("tactics: a knight fork of king and queen is found with its line");
    int r = find("chess", "3q3k/6pp/8/4N3/8/8/6PP/6K1 w - - 0 1", 3000, &t, why);
    CHECK(r == 1, "not found: %s", why);
    CHECK(r == 1 && t.nline == 3 && !strcmp(t.line_san[0], "Nf7+") && !strcmp(t.line_san[2], "Nxd8"),
          "line %s %s %s (%d plies)", t.line_san[0], t.line_san[1], t.line_san[2], t.nline);
    CHECK(r == 1 && !strcmp(t.line_uci[0], "e5f7") && t.side == TC_WHITE, "uci %s", t.line_uci[0]);
    CHECK(r == 1 && (t.themes & TC_THEME_FORK) && (t.themes & TC_THEME_MATERIAL) && !(t.themes & TC_THEME_MATE),
          "themes %x", t.themes);
    /* the queen (900) for nothing, or for the knight (600) */
    CHECK(r == 1 && (t.gain == 900 || t.gain == 600), "gain %d", t.gain);
    CHECK(r == 1 && t.joins == 0 && !(t.themes & (TC_THEME_WRAP | TC_THEME_CHECK_JOIN | TC_THEME_FORK_JOIN)),
          "a flat board has no join themes: %x", t.themes);
    CHECK(r == 1 && t.margin >= 200 && t.score >= 150 && t.second <= 300 && t.depth_confirmed > t.depth_found,
          "margin %d score %d second %d depths %d/%d", t.margin, t.score, t.second, t.depth_found,
          t.depth_confirmed);

    th_case("tactics: a back-rank mate in one, the queen on b2 no answer");
    r = find("chess", "6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 1", 3000, &t, why);
    CHECK(r == 1 && t.nline == 1 && !strcmp(t.line_san[0], "Rd8#") && t.mate == 1 && (t.themes & TC_THEME_MATE),
          "r %d (%s) line %s mate %d", r, why, t.line_san[0], t.mate);

    th_case("tactics: the start position and a quiet middlegame are no tactics");
    r = find("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3000, &t, why);
    CHECK(r == 0 && why[0], "r %d", r);
    r = find("chess", "r1b2rk1/ppq2ppp/2n5/8/8/2N2Q2/PPP2PPP/R4RK1 w - - 0 1", 3000, &t, why);
    CHECK(r == 0 && why[0], "r %d", r);
}

/* Found by running the self-play generator at 2000 nodes and keeping the
 * positions the confirmation refused. */
static void refuted_deeper(void)
{
    const char *fen = "4b2b/k7/p3p1pp/2p5/3P1P2/2B5/6PP/4R1K1 w - - 0 35";
    th_case("tactics: a shallow tactic that the deeper search refutes is refused");
    tc_variant *v = th_variant_cached("chess");
    tc_position *p = v ? th_at_fen(v, fen) : NULL;
    tc_engine *e = p ? tc_engine_new(v, 16, 1) : NULL;
    if (!e) {
        tc_position_free(p);
        return;
    }
    /* the finding search alone passes every rule of the root */
    deep_lines d = two_lines(e, p, 2000);
    CHECK(d.have && d.value[0] >= 150 && d.value[0] - d.value[1] >= 200 && d.value[1] <= 300,
          "at 2000 nodes: best %d second %d", d.value[0], d.value[1]);
    /* the confirming search (4 x 2000 nodes) does not */
    deep_lines c = two_lines(e, p, 8000);
    CHECK(c.have && !(c.value[0] >= 150 && c.value[0] - c.value[1] >= 200 && c.value[1] <= 300),
          "at 8000 nodes: best %d second %d", c.value[0], c.value[1]);
    tc_tactic_options o;
    tc_tactic_options_default(&o);
    o.nodes = 2000;
    tc_tactic t;
    char why[200];
    tc_error err;
    int r = tc_tactic_find(e, p, &o, &t, why, sizeof why, &err);
    CHECK(r == 0 && strstr(why, "deeper search disagrees"), "r %d: %s", r, why);
    tc_engine_free(e);
    tc_position_free(p);
}

/* 1 when, after `move` in fen on the variant, every line of attack on the
 * king of the side to move crosses a join (read from the path API). */
static int check_only_across(const char *variant, const char *fen, const char *move)
{
    tc_variant *v = th_variant_cached(variant);
    tc_position *p = v ? th_at_fen(v, fen) : NULL;
    tc_path_set *set = malloc(sizeof *set);
    tc_error err;
    int n = 0, plain = 0;
    if (p && set && tc_play_moves(p, move, &err) == 0) {
        n = tc_attack_paths(p, tc_king_cell(p, tc_side_to_move(p)), !tc_side_to_move(p), set);
        for (int i = 0; i < set->count; i++)
            plain += set->paths[i].joins_all == 0;
    } else {
        CHECK(0, "%s on %s: %s", move, variant, err.msg);
    }
    tc_position_free(p);
    free(set);
    return n >= 1 && plain == 0;
}

static void join_themes(void)
{
    /* Black's rook on h4 stands on the queen's diagonal d8 c7 b6 a5 ~ h4 g3
     * f2 e1, which goes on around the file join: taking on c4 uncovers
     * the check, and the queen on c2 falls */
    const char *fen = "r1bqkbn1/pp1npp2/2pp2p1/8/2P4r/5P2/PPQPP1NP/R1B1KBNR b KQq - 1 8";
    tc_tactic t;
    char why[200];
    th_case("tactics: on the cylinder a check uncovered around the file join wins the queen");
    int r = find("cylinder", fen, 3000, &t, why);
    CHECK(r == 1 && t.nline == 3 && !strcmp(t.line_san[0], "Rxc4+") && !strcmp(t.line_san[2], "Rxc2"),
          "r %d (%s) line %s %s %s", r, why, t.line_san[0], t.line_san[1], t.line_san[2]);
    CHECK(r == 1 && (t.themes & TC_THEME_CHECK_JOIN) && (t.themes & TC_THEME_MATERIAL) && t.joins == TC_JOIN_FILE,
          "themes %x joins %x", t.themes, t.joins);
    CHECK(check_only_across("cylinder", fen, "Rxc4"), "Rxc4: the check crosses the file join");

    th_case("tactics: the flat twin: Rxc4 is no check on the flat board, and no tactic");
    tc_variant *flat = th_variant_cached("chess");
    tc_position *p = flat ? th_at_fen(flat, fen) : NULL;
    tc_move m;
    tc_error err;
    CHECK(p && tc_move_parse(p, "Rxc4", &m, &err) == 0 && !tc_gives_check(p, m), "Rxc4 on the flat board");
    tc_position_free(p);
    r = find("chess", fen, 3000, &t, why);
    CHECK(r == 0 || !(t.themes & (TC_THEME_WRAP | TC_THEME_CHECK_JOIN | TC_THEME_FORK_JOIN | TC_THEME_MATE_JOIN)),
          "the flat twin: r %d themes %x", r, t.themes);

    /* the bishop on b4 takes on h6 around the join (b4 a5 ~ h6); the new
     * queen on g1 checks the king on d6 around it again (g1 h2 ~ a3 b4 c5
     * d6) and attacks the rook on a7 */
    const char *fork = "7k/R7/3K1p1P/4p2r/1B6/8/6p1/8 b - - 1 55";
    th_case("tactics: on the cylinder a promotion forks king and rook around the file join");
    r = find("cylinder", fork, 3000, &t, why);
    CHECK(r == 1 && t.nline == 3 && !strcmp(t.line_san[0], "Rxh6+") && !strcmp(t.line_san[2], "g1=Q+"),
          "r %d (%s) line %s %s %s", r, why, t.line_san[0], t.line_san[1], t.line_san[2]);
    CHECK(r == 1 && (t.themes & TC_THEME_FORK) && (t.themes & TC_THEME_FORK_JOIN) &&
              (t.themes & TC_THEME_CHECK_JOIN) && t.joins == TC_JOIN_FILE,
          "themes %x joins %x", t.themes, t.joins);
    CHECK(check_only_across("cylinder", fork, "Rxh6+ Bxh6 g1=Q+"), "g1=Q+: the check crosses the file join");
    r = find("chess", fork, 3000, &t, why);
    CHECK(r == 0 || !(t.themes & (TC_THEME_WRAP | TC_THEME_CHECK_JOIN | TC_THEME_FORK_JOIN)),
          "the flat twin: r %d themes %x", r, t.themes);
}

/* ---------------------------------------------------------------- the command */

/* `BIN args`: its exit status and standard output (or error with want_err). */
static int run(const char *args, int want_err, char **out)
{
    const char *bin = getenv("TC_BIN") ? getenv("TC_BIN") : "./topochess";
    size_t len = strlen(bin) + strlen(args) + 64;
    char *cmd = malloc(len);
    snprintf(cmd, len, "'%s' %s %s </dev/null", bin, args, want_err ? "2>&1 >/dev/null" : "2>/dev/null");
    FILE *f = popen(cmd, "r");
    free(cmd);
    size_t cap = 1 << 16, n = 0, got;
    *out = f ? malloc(cap) : NULL;
    while (*out && (got = fread(*out + n, 1, cap - n - 1, f)) > 0)
        if ((n += got) + 1 == cap)
            *out = realloc(*out, cap *= 2);
    if (*out)
        (*out)[n] = '\0';
    int st = f ? pclose(f) : -1;
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The n-th (from 0) JSON string array named key in text, as words. */
static int json_words(const char *text, const char *key, int nth, char words[][24], int max)
{
    const char *s = text;
    for (int i = 0; i <= nth && s; i++)
        if ((s = strstr(s, key)) != NULL)
            s += strlen(key);
    if (!s)
        return -1;
    int n = 0;
    while (*s == '"' && n < max) {
        const char *e = strchr(s + 1, '"');
        if (!e)
            break;
        snprintf(words[n++], 24, "%.*s", (int)(e - s - 1), s + 1);
        s = e + 1;
        if (*s == ',')
            s++;
    }
    return n;
}

/* Every puzzle of a small batch searched again with 16 x the nodes: each
 * winner's move of the line still the best (the last of a mate: a mate),
 * the first still clear of the second best by the margin. */
static void batch_deeper(const char *variant, uint64_t nodes)
{
    th_case("tactics: a batch on %s at %llu nodes, every puzzle searched again at 16 x", variant,
            (unsigned long long)nodes);
    char args[160], *out;
    snprintf(args, sizeof args, "tactics --variant %s --count 4 --seed 3 --nodes %llu --json", variant,
             (unsigned long long)nodes);
    int st = run(args, 0, &out);
    CHECK(st == 0 && out && strstr(out, "\"tactics\":["), "status %d", st);
    tc_variant *v = th_variant_cached(variant);
    tc_engine *e = v ? tc_engine_new(v, 16, 1) : NULL;
    int checked = 0;
    for (int k = 0; out && e; k++) {
        char line[TC_TACTIC_MAX_LINE][24];
        const char *f = out;
        for (int i = 0; i <= k && f; i++)
            if ((f = strstr(f, "\"fen\":\"")) != NULL)
                f += 7;
        if (!f)
            break;
        char fenbuf[720];
        snprintf(fenbuf, sizeof fenbuf, "%.*s", (int)(strchr(f, '"') - f), f);
        int n = json_words(out, "\"line_uci\":[", k, line, TC_TACTIC_MAX_LINE);
        tc_position *p = th_at_fen(v, fenbuf);
        if (!p || n < 1)
            break;
        for (int i = 0; i < n; i++) {
            tc_move m;
            tc_error err;
            if (tc_move_from_uci(p, line[i], &m, &err)) {
                CHECK(0, "%s: move %d '%s': %s", fenbuf, i, line[i], err.msg);
                break;
            }
            if (i % 2 == 0) {
                deep_lines d = two_lines(e, p, nodes * 16);
                tc_make_move(p, m);
                int mates = tc_position_status(p) == TC_CHECKMATE;
                tc_unmake_move(p);
                /* the last move of a mate: any mate in one will do */
                int last_mate = i == n - 1 && d.mate[0] == 1 && mates;
                CHECK(d.move[0] == m || last_mate, "%s: move %d %s is not the deeper search's best", fenbuf, i,
                      line[i]);
                if (i == 0)
                    CHECK(d.have && d.value[0] - d.value[1] >= 200 && d.value[0] >= 150,
                          "%s: at 16 x: best %d second %d", fenbuf, d.value[0], d.value[1]);
                else
                    CHECK(d.value[0] >= 150, "%s: move %d: best %d", fenbuf, i, d.value[0]);
            }
            tc_make_move(p, m);
        }
        tc_position_free(p);
        checked++;
    }
    CHECK(checked == 4, "%d puzzles checked", checked);
    tc_engine_free(e);
    free(out);
}

static void command(void)
{
    const char *bin = getenv("TC_BIN") ? getenv("TC_BIN") : "./topochess";
    if (access(bin, X_OK)) {
        fprintf(stderr, "note: no %s: the tactics command checks are skipped\n", bin);
        return;
    }
    char *a, *b;
    th_case("tactics: the same seed gives the same puzzles, another seed others");
    int s1 = run("tactics --count 3 --seed 5 --nodes 2000 --json", 0, &a);
    int s2 = run("tactics --count 3 --seed 5 --nodes 2000 --json", 0, &b);
    CHECK(s1 == 0 && s2 == 0 && a && b && !strcmp(a, b), "seed 5 twice differs");
    CHECK(a && strstr(a, "\"count\":3") && strstr(a, "\"line_uci\":[\""), "%.200s", a ? a : "");
    free(b);
    s2 = run("tactics --count 3 --seed 6 --nodes 2000 --json", 0, &b);
    CHECK(s2 == 0 && b && a && strcmp(a, b), "seed 6 gives the same as seed 5");
    free(a);
    free(b);

    th_case("tactics: a PGN file's fork is found; text and EPD");
    char path[] = "/tmp/tc_tactics_XXXXXX";
    int fd = mkstemp(path);
    const char *pgn = "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"3q3k/6pp/8/4N3/8/8/6PP/6K1 w - - 0 1\"]\n\n"
                      "1. Nf7+ Kg8 2. Nxd8 *\n";
    CHECK(fd >= 0 && write(fd, pgn, strlen(pgn)) == (ssize_t)strlen(pgn), "the PGN file");
    if (fd >= 0)
        close(fd);
    char args[200];
    snprintf(args, sizeof args, "tactics --pgn %s --nodes 3000", path);
    s1 = run(args, 0, &a);
    CHECK(s1 == 0 && a && strstr(a, "1 tactic on chess") && strstr(a, "line: 1. Nf7+ Kg8 2. Nxd8") &&
              strstr(a, "game 1 ply 0"),
          "status %d: %s", s1, a ? a : "");
    free(a);
    snprintf(args, sizeof args, "tactics --pgn %s --nodes 3000 --epd", path);
    s1 = run(args, 0, &a);
    CHECK(s1 == 0 && a && !strncmp(a, "3q3k/6pp/8/4N3/8/8/6PP/6K1 w - - bm Nf7+; pv Nf7+ Kg8 Nxd8;", 59),
          "status %d: %s", s1, a ? a : "");
    free(a);
    unlink(path);

    th_case("tactics: bad options are refused with what was wrong");
    static const char *const bad[][2] = {
        {"tactics --nodes 5", "--nodes takes a number from 100"},
        {"tactics --cont 3", "did you mean '--count'"},
        {"tactics --json --epd", "give --json or --epd, not both"},
        {"tactics --pgn /nonexistent/x.pgn", "/nonexistent/x.pgn"},
        {"tactics --variant nowhere", "nowhere"},
        {"tactics --seed x", "--seed takes a whole number"},
        {"tactics --max-line 99", "--max-line takes a number from 1 to 24"},
        {"tactics stray", "takes options only"},
        {"tactics --min-line 5 --max-line 3", "--min-line 5 is more than --max-line 3"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s1 = run(bad[i][0], 1, &a);
        CHECK(s1 == 1 && a && strstr(a, bad[i][1]), "%s: status %d: %s", bad[i][0], s1, a ? a : "");
        free(a);
    }
}

static void options(void)
{
    th_case("tactics: the library refuses options out of range");
    tc_tactic_options o;
    tc_tactic_options_default(&o);
    tc_error err;
    CHECK(tc_tactic_options_check(&o, &err) == 0, "the defaults pass");
    o.confirm = 1;
    CHECK(tc_tactic_options_check(&o, &err) == -1 && strstr(err.msg, "confirm"), "%s", err.msg);
    tc_tactic_options_default(&o);
    o.max_line = TC_TACTIC_MAX_LINE + 1;
    CHECK(tc_tactic_options_check(&o, &err) == -1 && strstr(err.msg, "max_line"), "%s", err.msg);
}

void suite_tactics(void)
{
    options();
    known_positions();
    refuted_deeper();
    join_themes();
    command();
    batch_deeper("chess", 2000);
    batch_deeper("cylinder", 2000);
}
