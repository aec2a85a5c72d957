/* Dead positions (docs/rules.md section 6), decided per position by the
 * library's help-mate pass, held against deadref.c (a plain forward search
 * over every reachable position with the public move generator, sharing
 * no code with the pass): sampled positions of every preset and of random
 * small boards with random gluings, for KBK, KNK, KQK, KRK, KNNK and KBKN,
 * through the library and through `topochess dead --fen`; then the
 * section's examples, the game status, the engine and the board's limits.
 * TC_ENDGAME_FULL (make dead-full-check, not in make check: a quarter of
 * an hour) compares the whole of docs/rules-dead-positions.md's table with
 * `topochess dead` and takes more samples. */
#include "dead_sample.h"
#include "deadref.h"
#include "game.h"
#include "harness.h"
#include "match.h"
#include "protocols.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Agreement counts of one comparison.
typedef struct {
    int compared, unknown, disagree, dead, alive;
    int certified; /* too large for the search: the verdict's certificate held */
} tally;

static int library_alive(void *ctx, const tc_position *p) { return !tc_dead_position(ctx, p); }

/* A verdict that the plain search cannot finish, checked another way. Not
 * dead: a help-mate line through positions the library calls not dead,
 * found and checked move by move. Dead: the position is no checkmate and
 * every legal move leads to a position the library calls dead (the
 * section's fixpoint, one step). 1 held, 0 failed, -1 undecided. */
static int certificate(tc_dead_table *d, const tc_position *p, int dead, size_t budget)
{
    size_t seen;
    if (!dead)
        return deadref_reach_through(p, budget, &seen, library_alive, d) == DEADREF_ALIVE ? 1 : -1;
    tc_position *q = tc_position_clone(p);
    tc_movelist *list = malloc(sizeof *list);
    int ok = q && list ? 1 : -1;
    int n = ok == 1 ? tc_generate_legal(q, list) : 0;
    if (ok == 1 && n == 0 && tc_in_check(q))
        ok = 0;
    for (int i = 0; i < n && ok == 1; i++) {
        tc_make_move(q, list->moves[i]);
        ok = tc_dead_position(d, q) == 1;
        tc_unmake_move(q);
    }
    free(list);
    tc_position_free(q);
    return ok;
}

/* One position: the library's verdict against deadref's. */
static void compare(tc_dead_table *d, const tc_position *p, size_t budget, const char *label, tally *t)
{
    size_t seen;
    int want = deadref_reach(p, budget, &seen);
    int got = tc_dead_position(d, p);
    char fen[800];
    tc_position_fen(p, fen, sizeof fen);
    if (want == DEADREF_UNKNOWN) {
        int c = certificate(d, p, got, budget);
        if (c < 0)
            t->unknown++;
        else
            t->certified++;
        if (!c)
            t->disagree++;
        CHECK(c != 0, "%s %s: the library says %s, but %s", label, fen, got ? "dead" : "not dead",
              got ? "a move leads to a position it calls not dead (or it is a checkmate)"
                  : "no help-mate line exists through positions it calls not dead");
        return;
    }
    t->compared++;
    t->dead += want == DEADREF_DEAD;
    t->alive += want == DEADREF_ALIVE;
    if (got != want) {
        t->disagree++;
        CHECK(0, "%s %s: the library says %s, the forward search (%zu positions) %s", label, fen,
              got ? "dead" : "not dead", seen, want == DEADREF_DEAD ? "dead" : "not dead");
    }
}

static const char *const ref_materials[] = {"KBK", "KNK", "KQK", "KRK", "KNNK", "KBKN"};
#define NREF ((int)(sizeof ref_materials / sizeof ref_materials[0]))

/* Sampled positions of every preset: deadref finds a mate when there is a
 * short help-mate; when it cannot finish within its budget the sample is
 * counted as undecided, not compared. */
static void presets_against_reference(void)
{
    bool full = getenv("TC_ENDGAME_FULL") != NULL;
    int per = th_sanitize() ? 2 : full ? 40 : 5;
    size_t budget = full ? 400000 : 20000;
    uint64_t seed = 0x5eedf00dull;
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        th_case("dead: %s: sampled positions agree with the forward search", def->name);
        tc_variant *v = th_variant(def->name);
        tc_error err;
        tc_dead_table *d = v ? tc_dead_table_new(v, &err) : NULL;
        tally t = {0};
        for (int m = 0; d && m < NREF; m++) {
            /* 4 pieces on the presets take seconds a sample: full runs only
             * (the random boards below hold them against the search) */
            if (strlen(ref_materials[m]) == 4 && !full)
                continue;
            for (int k = 0; k < per; k++) {
                tc_position *p = dead_random_position(v, ref_materials[m], &seed);
                if (p)
                    compare(d, p, budget, def->name, &t);
                tc_position_free(p);
            }
        }
        CHECK(t.disagree == 0 && t.compared + t.certified > 0 && t.unknown <= t.compared + t.certified,
              "%s: %d compared, %d certified, %d disagree, %d undecided", def->name, t.compared, t.certified,
              t.disagree, t.unknown);
        tc_dead_table_free(d);
        tc_variant_free(v);
    }
}

/* Random small boards with random gluings: every sampled position is
 * searched to the end, so every one is compared. */
static void random_boards_against_reference(void)
{
    bool full = getenv("TC_ENDGAME_FULL") != NULL;
    int boards = th_sanitize() ? 4 : full ? 60 : 12, per = th_sanitize() ? 2 : 3;
    uint64_t seed = 0xdeadbeefcafeull;
    th_case("dead: %d random small boards with random gluings agree with the forward search", boards);
    tally t = {0};
    int made = 0;
    for (int b = 0; b < boards; b++) {
        char name[64];
        tc_variant *v = dead_random_board(&seed, name, sizeof name);
        tc_error err;
        if (!v)
            continue;
        made++;
        tc_dead_table *d = tc_dead_table_new(v, &err);
        for (int m = 0; d && m < NREF; m++)
            for (int k = 0; k < per; k++) {
                tc_position *p = dead_random_position(v, ref_materials[m], &seed);
                if (p)
                    compare(d, p, 2000000, name, &t);
                tc_position_free(p);
            }
        tc_dead_table_free(d);
        tc_variant_free(v);
    }
    CHECK(made >= boards / 2, "only %d of %d random boards could be made", made, boards);
    th_case("dead: random boards: %d positions compared (%d dead, %d not)", t.compared, t.dead, t.alive);
    CHECK(t.disagree == 0 && t.unknown == 0 && t.dead > 0 && t.alive > 0,
          "%d compared (%d dead, %d not), %d disagree, %d undecided", t.compared, t.dead, t.alive, t.disagree,
          t.unknown);
}

/* `topochess dead --fen` says what the library says, in words. */
static void command_against_reference(void)
{
    th_case("dead: topochess dead --fen agrees with the library and the forward search");
    const char *bin = getenv("TC_BIN");
    if (!bin || !*bin)
        bin = "./topochess";
    uint64_t seed = 0xfe11ull;
    static const char *const boards[] = {"chess", "klein-bottle", "torus", "folding"};
    int compared = 0;
    for (int b = 0; b < 4; b++) {
        tc_variant *v = th_variant(boards[b]);
        tc_error err;
        tc_dead_table *d = v ? tc_dead_table_new(v, &err) : NULL;
        for (int m = 0; d && m < 4; m++) {
            tc_position *p = dead_random_position(v, ref_materials[m], &seed);
            size_t seen;
            int ref = p ? deadref_reach(p, 20000, &seen) : DEADREF_UNKNOWN;
            int want = p ? tc_dead_position(d, p) : -1;
            if (p && ref != DEADREF_UNKNOWN)
                CHECK(want == ref, "%s: the library and the forward search differ", boards[b]);
            if (p) {
                char fen[800], cmd[1200], out[600] = "";
                tc_position_fen(p, fen, sizeof fen);
                snprintf(cmd, sizeof cmd, "'%s' dead --variant %s --fen '%s' 2>&1", bin, boards[b], fen);
                FILE *f = popen(cmd, "r");
                size_t n = f ? fread(out, 1, sizeof out - 1, f) : 0;
                out[n] = '\0';
                int rc = f ? pclose(f) : -1;
                bool says_dead = !strncmp(out, "dead: ", 6), says_alive = !strncmp(out, "not dead: ", 10);
                CHECK(rc == 0 && (says_dead || says_alive), "%s: exit %d, output %s", cmd, rc, out);
                CHECK(says_dead == (want == 1), "%s %s: the command says %s", boards[b], fen, out);
                compared++;
            }
            tc_position_free(p);
        }
        tc_dead_table_free(d);
        tc_variant_free(v);
    }
    CHECK(compared >= 12, "only %d positions compared", compared);
}

static tc_variant *board(const char *name, int w, int h, tc_file_rule files, tc_rank_rule ranks, int seam,
                         const char *setup)
{
    tc_variant_def d;
    th_def(&d, name, w, h, files, ranks, seam, setup);
    tc_error err;
    tc_variant *v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "%s: %s", name, err.msg);
    return v;
}

/* A position from "Ke1 kh8 Qd4" style lists on a variant, side to move. */
static tc_position *at(const tc_variant *v, const char *fen)
{
    return th_at_fen(v, fen);
}

/* The verdict and reason of one position, by FEN. */
static int verdict(tc_dead_table *d, const tc_variant *v, const char *fen, char *why, size_t n)
{
    tc_position *p = at(v, fen);
    int dead = p ? tc_dead_explain(d, p, why, n) : -1;
    if (p)
        CHECK(dead == tc_dead_position(d, p), "%s: explain and position disagree", fen);
    tc_position_free(p);
    return dead;
}

static void status_and_rules(void)
{
    th_case("dead: docs/rules.md section 6's examples, per position, and the game status");
    tc_variant *torus = th_variant("torus"), *chess = th_variant("chess"), *kb = th_variant("klein-bottle");
    tc_error err;
    tc_dead_table *dt = torus ? tc_dead_table_new(torus, &err) : NULL;
    tc_dead_table *dc = chess ? tc_dead_table_new(chess, &err) : NULL;
    tc_dead_table *dk = kb ? tc_dead_table_new(kb, &err) : NULL;
    char why[400];
    if (dt && dc && dk) {
        CHECK(tc_dead_material(dt, "KQK", &err) == 1, "K+Q v K is dead on the torus (no checkmate at all)");
        CHECK(tc_dead_material(dt, "KK", &err) == 1 && tc_dead_material(dc, "KK", &err) == 1, "K v K is dead");
        CHECK(tc_dead_material(dt, "KQKB", &err) == 0, "K+Q v K+B can mate on the torus");
        CHECK(tc_dead_material(dt, "KQPK", &err) == -1 && strstr(err.msg, "pawn"), "pawns: %s", err.msg);
        /* the Klein bottle: K+B v K has checkmates, but no move reaches one,
         * so every other K+B v K position is dead */
        tc_dead_count c;
        CHECK(tc_dead_material_count(dk, "KBK", &c, &err) == 0 && c.tables && c.total - c.dead == 8736,
              "klein-bottle KBK: %llu of %llu dead, want all but the 8,736 checkmates",
              (unsigned long long)c.dead, (unsigned long long)c.total);
        CHECK(verdict(dk, kb, "8/8/8/8/8/8/8/8/8/8/8/8/8/K1k3B1 b - - 0 1", why, sizeof why) == 0 &&
                  strstr(why, "checkmate"),
              "a checkmate is not dead: %s", why);
        CHECK(verdict(dk, kb, "8/8/8/8/8/8/8/8/8/8/8/8/8/K3k1B1 w - - 0 1", why, sizeof why) == 1 &&
                  strstr(why, "help-mate"),
              "klein-bottle K+B v K, not a mate: dead (%s)", why);
        /* flat chess: the pass finds FIDE's cases and more */
        CHECK(verdict(dc, chess, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", why, sizeof why) == 1, "K+B v K on chess");
        CHECK(verdict(dc, chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", why, sizeof why) == 0, "K+R v K on chess: %s",
              why);
        /* K+Q v K with Black's only move taking the queen: dead */
        CHECK(verdict(dc, chess, "k7/1Q6/8/8/8/8/8/7K b - - 0 1", why, sizeof why) == 1,
              "Black's only move takes the queen: dead (%s)", why);
        CHECK(verdict(dc, chess, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", why, sizeof why) == 0, "Qb7 mate: %s", why);
        /* a stalemate is dead (and already ends the game) */
        CHECK(verdict(dc, chess, "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", why, sizeof why) == 1 && strstr(why, "stalemate"),
              "stalemate: %s", why);
        /* K+N+N v K: a help-mate exists although no side can force one */
        CHECK(verdict(dc, chess, "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", why, sizeof why) == 0, "KNNK on chess: %s",
              why);
        /* beyond the tables: pawns are not dead; FIDE's bishops on one
         * colour are, for any number of them */
        CHECK(verdict(dc, chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", why, sizeof why) == 0 && strstr(why, "pawn"),
              "K+P v K: %s", why);
        CHECK(verdict(dc, chess, "4kb2/8/8/8/8/8/5B2/2B1K3 w - - 0 1", why, sizeof why) == 1 && strstr(why, "FIDE"),
              "bishops on one colour: %s", why);
        /* the torus: Q v K is a draw at once, but only the tables know */
        tc_position *p = at(torus, "8/8/8/8/8/8/8/3k4/8/8/8/2Q5/8/4K3 w - - 0 1");
        if (p) {
            CHECK(tc_position_status(p) == TC_ONGOING, "the rules alone do not see it");
            CHECK(tc_dead_position(dt, p) == 1 && tc_game_status(dt, p) == TC_DRAW_DEAD,
                  "tc_game_status: dead position");
        }
        tc_position_free(p);
        p = at(torus, "8/8/8/8/8/8/8/3k4/3b4/8/8/2Q5/8/4K3 w - - 0 1");
        if (p)
            CHECK(tc_game_status(dt, p) == TC_ONGOING, "K+Q v K+B goes on");
        tc_position_free(p);
        p = at(chess, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        if (p)
            CHECK(tc_game_status(dc, p) == TC_DRAW_DEAD, "K+B v K on chess");
        tc_position_free(p);
    }
    tc_dead_table_free(dt);
    tc_dead_table_free(dc);
    tc_dead_table_free(dk);
    tc_variant_free(torus);
    tc_variant_free(chess);
    tc_variant_free(kb);
}

static void limits_and_engine(void)
{
    th_case("dead: a material too large for the tables is not dead");
    /* 16x16 folded with open files: few symmetries, so a 4-piece table
     * would pass the solver's limit */
    tc_variant *big = board("16x16 fold", 16, 16, TC_FILES_OPEN, TC_RANKS_FOLD, 0,
                            "16/16/16/16/16/16/16/16/16/16/16/16/16/16/7k8/K15");
    tc_error err;
    tc_dead_table *d = big ? tc_dead_table_new(big, &err) : NULL;
    if (d) {
        tc_egtb *t = tc_egtb_solve(big, "KNKN", NULL, &err);
        CHECK(t == NULL && strstr(err.msg, "more than"), "the solver refuses KNKN here: %s", err.msg);
        tc_egtb_free(t);
        CHECK(tc_dead_material(d, "KNKN", &err) == 0, "KNKN with no tables is not dead");
    }
    tc_dead_table_free(d);
    tc_variant_free(big);

    th_case("dead: a limit raised after a refusal decides the material (the browser's worker)");
    tc_variant *kb = th_variant("klein-bottle");
    tc_position *kp = kb ? at(kb, "1n6/3R4/8/8/8/8/8/8/4k1K1/8/8/8/8/8 b - - 1 1") : NULL;
    d = kb ? tc_dead_table_new(kb, &err) : NULL;
    if (kp && d) {
        tc_dead_table_set_limit(d, 1u << 22); /* K+R v K+N here: 5.6 million entries */
        CHECK(tc_dead_position(d, kp) == 0, "over the limit: not declared dead");
        tc_dead_table_set_limit(d, 16000000);
        CHECK(tc_dead_position(d, kp) == 1, "under the raised limit: dead (Black must take the rook; K+N v K)");
    }
    tc_dead_table_free(d);
    tc_position_free(kp);
    tc_variant_free(kb);

    th_case("dead: the engine scores a dead position as a draw");
    tc_variant *torus = th_variant("torus");
    tc_engine *e = torus ? tc_engine_new(torus, 8, 1) : NULL;
    tc_position *p = torus ? at(torus, "8/8/8/8/8/8/8/3k4/3n4/8/8/2R5/8/4K3 w - - 0 1") : NULL;
    d = torus ? tc_dead_table_new(torus, &err) : NULL;
    if (e && p && d) {
        CHECK(!tc_dead_position_ready(d, p) && !tc_dead_position_known(d, p), "not ready before marking");
        CHECK(tc_dead_position(d, p) == 1, "K+R v K+N is dead on the torus");
        CHECK(tc_dead_position_ready(d, p) && tc_dead_position_known(d, p), "ready and dead once marked");
        tc_limits lim;
        tc_limits_init(&lim);
        lim.depth = 4;
        CHECK(tc_engine_set_position(e, p) == 0, "set position");
        tc_search_result r = tc_engine_search(e, &lim, NULL, NULL);
        CHECK(r.score == 0, "a rook up in a dead position scores %d, not 0", r.score);
    }
    tc_dead_table_free(d);
    tc_position_free(p);
    tc_engine_free(e);
    tc_variant_free(torus);
}

/* docs/rules-dead-positions.md holds `topochess dead`'s output as it is. */
static void grouped(uint64_t x, char *buf, size_t n)
{
    char raw[32];
    snprintf(raw, sizeof raw, "%llu", (unsigned long long)x);
    size_t len = strlen(raw), k = 0;
    for (size_t i = 0; i < len && k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = raw[i];
    }
    buf[k] = '\0';
}

/* The 3-piece rows of the docs' table, from the library (seconds): each
 * row as `topochess dead` writes it must be on the page. */
static void docs_small_rows(const char *doc)
{
    static const char *const rows[] = {"KK", "KQK", "KRK", "KBK", "KNK"};
    for (int r = 0; r < 5; r++) {
        char line[2048];
        size_t len = (size_t)snprintf(line, sizeof line, "| %s |", rows[r]);
        for (int i = 0; i < tc_preset_count(); i++) {
            tc_variant *v = th_variant(tc_preset(i)->name);
            tc_error err;
            tc_dead_table *d = v ? tc_dead_table_new(v, &err) : NULL;
            tc_dead_count c = {0};
            if (d)
                CHECK(tc_dead_material_count(d, rows[r], &c, &err) == 0, "%s: %s", rows[r], err.msg);
            char a[32], b[32], cell[96];
            grouped(c.dead, a, sizeof a);
            grouped(c.total, b, sizeof b);
            if (!c.tables)
                snprintf(cell, sizeof cell, "no tables");
            else if (c.dead == c.total)
                snprintf(cell, sizeof cell, "dead");
            else if (!c.dead)
                snprintf(cell, sizeof cell, "not");
            else
                snprintf(cell, sizeof cell, "partly (%s of %s)", a, b);
            len += (size_t)snprintf(line + len, sizeof line - len, " %s |", cell);
            tc_dead_table_free(d);
            tc_variant_free(v);
        }
        snprintf(line + len, sizeof line - len, "\n");
        CHECK(strstr(doc, line) != NULL, "docs/rules-dead-positions.md lacks the row\n%s", line);
    }
}

static void docs_table(void)
{
    th_case("dead: the docs' table is the output of topochess dead");
    if (!getenv("TC_ENDGAME_FULL")) {
        /* every 4-piece material of every preset takes minutes: make test
         * checks the 3-piece rows, dead-full-check the whole table */
        char *doc = th_read_file("docs/rules-dead-positions.md", NULL);
        if (doc)
            docs_small_rows(doc);
        free(doc);
        return;
    }
    const char *bin = getenv("TC_BIN");
    if (!bin || !*bin)
        bin = "./topochess";
    if (strchr(bin, '\'')) {
        CHECK(0, "binary path '%s' has a quote", bin);
        return;
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' dead 2>&1", bin);
    FILE *p = popen(cmd, "r");
    char *out = NULL, *doc = NULL;
    if (p) {
        size_t cap = 65536, n = 0;
        out = malloc(cap);
        size_t got;
        while (out && (got = fread(out + n, 1, cap - n - 1, p)) > 0)
            n += got;
        if (out)
            out[n] = '\0';
        CHECK(pclose(p) == 0, "topochess dead failed: %s", out ? out : "");
    }
    FILE *f = fopen("docs/rules-dead-positions.md", "r");
    if (f) {
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        rewind(f);
        doc = len > 0 ? malloc((size_t)len + 1) : NULL;
        if (doc)
            doc[fread(doc, 1, (size_t)len, f)] = '\0';
        fclose(f);
    }
    CHECK(out && doc, "no output or no docs/rules-dead-positions.md");
    if (out && doc) {
        const char *open = "<!-- topochess dead -->\n", *start = strstr(doc, open);
        char *end = start ? strstr(start, "<!-- end -->") : NULL;
        CHECK(start && end, "the page has no <!-- topochess dead --> ... <!-- end --> block");
        if (start && end) {
            start += strlen(open);
            *end = '\0';
            CHECK(!strcmp(start, out), "the page's table is stale; the command prints:\n%s", out);
        }
    }
    free(out);
    free(doc);
}

/* Runs a protocol loop (UCI or CECP) on `input` from chess; its output. */
static char *protocol_run(int uci, const char *input)
{
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find("chess", &def, &err))
        return NULL;
    FILE *in = fmemopen((void *)input, strlen(input), "r");
    FILE *out = tmpfile();
    char *text = NULL;
    if (in && out) {
        if (uci)
            uci_loop(in, out, &def);
        else
            xboard_loop(in, out, &def);
        text = th_read_stream(out);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    return text;
}

/* K+Q v K where Black's only move takes the queen: dead by the pass,
 * though FIDE's list of materials does not see it. */
static void protocols_end_dead_games(void)
{
    th_case("dead: a CECP game ends 1/2-1/2 {dead position} when a move makes the position dead");
    char *out = protocol_run(0, "xboard\nprotover 2\nnew\nsetboard k7/8/8/8/8/8/1Q6/7K w - - 0 1\n"
                                "usermove b2b7\nquit\n");
    CHECK(out && strstr(out, "1/2-1/2 {dead position}\n"), "CECP output:\n%s", out ? out : "(none)");
    free(out);
    th_case("dead: UCI says the game is over as a dead position, and the search scores it 0");
    out = protocol_run(1, "uci\nposition fen k7/1Q6/8/8/8/8/8/7K b - - 0 1\ngo depth 3\nisready\n"
                          "d\nquit\n");
    CHECK(out && strstr(out, "info string game over: 1/2-1/2 {dead position} dead: "), "UCI output:\n%s",
          out ? out : "(none)");
    CHECK(out && strstr(out, "Status: draw: dead position"), "UCI d:\n%s", out ? out : "(none)");
    CHECK(out && strstr(out, "bestmove a8b7"), "the only move:\n%s", out ? out : "(none)");
    free(out);
    tc_variant *chess = th_variant("chess");
    tc_engine *e = chess ? tc_engine_new(chess, 8, 1) : NULL;
    tc_position *p = chess ? at(chess, "k7/1Q6/8/8/8/8/8/7K b - - 0 1") : NULL;
    if (e && p && tc_engine_set_position(e, p) == 0) {
        tc_limits lim;
        tc_limits_init(&lim);
        lim.depth = 3;
        tc_search_result r = tc_engine_search(e, &lim, NULL, NULL);
        CHECK(r.score == 0, "a queen up in a dead position scores %d, not 0", r.score);
    }
    tc_position_free(p);
    tc_engine_free(e);
    tc_variant_free(chess);
}

/* A hosted game: the server's game model ends it drawn, saying why. */
static void hosted_game_ends_dead(void)
{
    th_case("dead: a hosted game ends 1/2-1/2 when a move makes the position dead, saying why");
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find("chess", &def, &err))
        return;
    tg_game g;
    memset(&g, 0, sizeof g);
    tg_clock clock = {TG_CLOCK_NONE, 0, 0, 0, 0};
    CHECK(tg_game_new(&g, &def, "k7/8/8/8/8/8/1Q6/7K w - - 0 1", &clock, -1, 0, 1000, &err) == TG_OK, "new: %s",
          err.msg);
    CHECK(!strcmp(g.result, "*"), "K+Q v K goes on");
    CHECK(tg_game_move(&g, TC_WHITE, "Qb7", 2000, &err) == TG_OK, "Qb7: %s", err.msg);
    CHECK(!strcmp(g.result, "1/2-1/2") && strstr(g.termination, "dead position"),
          "after Qb7 Black's only move takes the queen: result %s, termination '%s'", g.result, g.termination);
    tg_game_free(&g);
}

/* The match runner: a fake UCI engine plays Qb7 from K+Q v K; the runner
 * adjudicates the dead position a draw and its PGN says why. */
static void match_ends_dead(void)
{
    th_case("dead: a UCI match ends a game drawn at a dead position, PGN Termination \"dead position\"");
    char engine_path[] = "/tmp/tc_dead_engine_XXXXXX", epd[] = "/tmp/tc_dead_open_XXXXXX";
    char pgn[64];
    int fd = mkstemp(engine_path), fe = mkstemp(epd);
    snprintf(pgn, sizeof pgn, "%s.pgn", epd);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    FILE *o = fe >= 0 ? fdopen(fe, "w") : NULL;
    CHECK(f && o, "temporary files");
    if (!f || !o) {
        if (f)
            fclose(f);
        if (o)
            fclose(o);
        return;
    }
    fprintf(f, "while read -r line; do\n  case \"$line\" in\n    uci) echo 'id name Fake'; echo uciok ;;\n"
               "    isready) echo readyok ;;\n    go*) echo 'bestmove b2b7' ;;\n    quit) exit 0 ;;\n  esac\ndone\n");
    fclose(f);
    fprintf(o, "k7/8/8/8/8/8/1Q6/7K w - -\n");
    fclose(o);
    char engine[96], openings[96], pgn_arg[96];
    snprintf(engine, sizeof engine, "engine=/bin/sh %s", engine_path);
    snprintf(openings, sizeof openings, "openings=%s", epd);
    snprintf(pgn_arg, sizeof pgn_arg, "pgn=%s", pgn);
    char *argv[] = {engine, "movetime=50", "margin=50", "games=2", openings, pgn_arg};
    tc_variant_def def;
    tc_error err;
    tc_preset_find("chess", &def, &err);
    match_config cfg;
    match_config_init(&cfg, &def);
    CHECK(match_parse_args(&cfg, 6, argv, "s", &err) == 0, "%s", err.msg);
    FILE *log = tmpfile();
    match_score sc;
    int status = log ? match_run(&cfg, log, &sc) : -1;
    char *text = log ? th_read_stream(log) : NULL;
    if (log)
        fclose(log);
    CHECK(status == 0 && sc.draws == 2, "status %d, draws %d:\n%s", status, sc.draws, text ? text : "");
    CHECK(text && strstr(text, "1/2-1/2 {draw: dead position}"), "log:\n%s", text ? text : "");
    free(text);
    char *games = th_read_file(pgn, NULL);
    CHECK(games && strstr(games, "[Termination \"dead position\"]") && strstr(games, "[Result \"1/2-1/2\"]"),
          "PGN:\n%s", games ? games : "");
    free(games);
    unlink(engine_path);
    unlink(epd);
    unlink(pgn);
}

/* The marks kept as files: written once, read back the same; a file that
 * does not fit (here: garbage) is ignored and the marks made again. */
static void cache_files(void)
{
    th_case("dead: marks written to the cache folder are read back, a bad file is made again");
    char dir[] = "/tmp/tc_dead_cache_XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    tc_variant *v = th_variant("chess");
    tc_error err;
    tc_dead_count a = {0}, b = {0}, c = {0};
    for (int round = 0; v && round < 3; round++) {
        tc_dead_table *d = tc_dead_table_new(v, &err);
        if (!d)
            break;
        tc_dead_table_set_dir(d, dir);
        CHECK(tc_dead_material_count(d, "KQK", round == 0 ? &a : round == 1 ? &b : &c, &err) == 0, "%s", err.msg);
        tc_dead_table_free(d);
        char path[200];
        snprintf(path, sizeof path, "%s/8x8-open-open-KQK.dead", dir);
        if (round == 0)
            CHECK(access(path, R_OK) == 0, "no file %s", path);
        if (round == 1) {
            FILE *f = fopen(path, "w");
            if (f) {
                fputs("topochess-dead 1\nKQK 8 0 1\ngarbage", f);
                fclose(f);
            }
        }
    }
    CHECK(a.tables && a.dead == b.dead && a.total == b.total && a.dead == c.dead && a.total == c.total,
          "KQK: %llu/%llu, read back %llu/%llu, after a bad file %llu/%llu", (unsigned long long)a.dead,
          (unsigned long long)a.total, (unsigned long long)b.dead, (unsigned long long)b.total,
          (unsigned long long)c.dead, (unsigned long long)c.total);
    tc_variant_free(v);
    char cmd[120];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "%s", cmd);
}

void suite_dead(void)
{
    docs_table();
    status_and_rules();
    random_boards_against_reference();
    presets_against_reference();
    command_against_reference();
    protocols_end_dead_games();
    hosted_game_ends_dead();
    match_ends_dead();
    cache_files();
    limits_and_engine();
}
