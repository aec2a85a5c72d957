/* Dead positions (docs/rules.md section 6): the dead table's answer for each
 * material held against the solver's own tables (a material is dead when
 * its tables and those of every material its captures reach count no
 * checkmated position), on every preset with a join and on small boards of
 * every kind; then the game status, the engine and the board's limits.
 * TC_ENDGAME_FULL adds every 4-piece material on the torus. */
#include "harness.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>

static const char *const three[] = {"KQK", "KRK", "KBK", "KNK"};
static const char *const four[] = {"KQQK", "KQRK", "KQBK", "KQNK", "KRRK", "KRBK", "KRNK",
                                   "KBBK", "KBNK", "KNNK", "KQKQ", "KQKR", "KQKB", "KQKN",
                                   "KRKR", "KRKB", "KRKN", "KBKB", "KBKN", "KNKN"};

/// The solver's answers so far on one board: material name, then 1 dead,
/// 0 not.
typedef struct {
    int n;
    char name[32][8];
    int dead[32];
} solved;

/* Dead by the solver: no checkmated position in this material's tables,
 * for either side to move, nor in those of a material one capture away. */
static int solver_dead(const tc_variant *v, const char *material, solved *memo)
{
    char norm[8];
    if (tc_egtb_normalise(material, norm, NULL))
        return -1;
    if (!strcmp(norm, "KK"))
        return 1;
    for (int i = 0; i < memo->n; i++)
        if (!strcmp(memo->name[i], norm))
            return memo->dead[i];
    int dead = 1;
    size_t len = strlen(norm);
    for (size_t j = 1; j < len && dead; j++) {
        if (norm[j] == 'K')
            continue;
        char sub[8];
        size_t k = 0;
        for (size_t q = 0; q < len; q++)
            if (q != j)
                sub[k++] = norm[q];
        sub[k] = '\0';
        dead = solver_dead(v, sub, memo) == 1;
    }
    if (dead) {
        tc_error err;
        tc_egtb_options opt = {.threads = 2};
        tc_egtb *t = tc_egtb_solve(v, norm, &opt, &err);
        CHECK(t != NULL, "%s: %s", norm, err.msg);
        tc_egtb_stats s;
        if (t)
            tc_egtb_stats_get(t, &s);
        dead = t && s.mates[0] + s.mates[1] == 0;
        tc_egtb_free(t);
    }
    if (memo->n < 32) {
        snprintf(memo->name[memo->n], 8, "%s", norm);
        memo->dead[memo->n++] = dead;
    }
    return dead;
}

static void against_solver(const tc_variant *v, const char *label, const char *const *materials, int n)
{
    th_case("dead: %s: %d materials agree with the solver's tables", label, n);
    tc_error err;
    tc_dead_table *d = tc_dead_table_new(v, &err);
    CHECK(d != NULL, "%s", err.msg);
    solved *memo = calloc(1, sizeof *memo);
    for (int i = 0; d && memo && i < n; i++) {
        int want = solver_dead(v, materials[i], memo);
        int got = tc_dead_material(d, materials[i], &err);
        CHECK(got == want, "%s %s: dead table says %d, the solver's tables %d", label, materials[i], got, want);
    }
    free(memo);
    tc_dead_table_free(d);
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

static void tables_agree(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        if (def->files == TC_FILES_OPEN && def->ranks == TC_RANKS_OPEN)
            continue;
        tc_variant *v = th_variant(def->name);
        if (v)
            against_solver(v, def->name, three, 4);
        tc_variant_free(v);
    }
    /* every material on small boards of each kind of join */
    static const struct {
        const char *name;
        int w, h;
        tc_file_rule files;
        tc_rank_rule ranks;
        int seam;
        const char *setup;
    } small[] = {
        {"5x5 torus", 5, 5, TC_FILES_WRAP, TC_RANKS_WRAP, 0, "5/5/2k2/5/K4"},
        {"5x5 klein, twist 2", 5, 5, TC_FILES_WRAP, TC_RANKS_TWIST, 2, "5/5/2k2/5/K4"},
        {"4x5 mobius", 4, 5, TC_FILES_OPEN, TC_RANKS_TWIST, 5, "4/2k1/4/4/K3"},
        {"5x4 fold", 5, 4, TC_FILES_WRAP, TC_RANKS_FOLD, 0, "2k2/5/5/K4"},
        {"5x5 cylinder", 5, 5, TC_FILES_WRAP, TC_RANKS_OPEN, 0, "5/5/2k2/5/K4"},
    };
    int nsmall = th_sanitize() ? 2 : (int)(sizeof small / sizeof small[0]);
    for (int i = 0; i < nsmall; i++) {
        tc_variant *v = board(small[i].name, small[i].w, small[i].h, small[i].files, small[i].ranks, small[i].seam,
                              small[i].setup);
        if (!v)
            continue;
        against_solver(v, small[i].name, three, 4);
        against_solver(v, small[i].name, four, th_sanitize() ? 6 : 20);
        tc_variant_free(v);
    }
    if (getenv("TC_ENDGAME_FULL")) {
        tc_variant *v = th_variant("torus");
        if (v)
            against_solver(v, "torus", four, 20);
        tc_variant_free(v);
    }
}

/* A position from "Ke1 kh8 Qd4" style lists on a variant, side to move. */
static tc_position *at(const tc_variant *v, const char *fen)
{
    return th_at_fen(v, fen);
}

static void status_and_rules(void)
{
    th_case("dead: docs/rules.md section 6's examples and the game status");
    tc_variant *torus = th_variant("torus"), *chess = th_variant("chess");
    if (!torus || !chess) {
        tc_variant_free(torus);
        tc_variant_free(chess);
        return;
    }
    tc_error err;
    tc_dead_table *dt = tc_dead_table_new(torus, &err), *dc = tc_dead_table_new(chess, &err);
    CHECK(dt && dc, "%s", err.msg);
    if (dt && dc) {
        CHECK(tc_dead_material(dt, "KQK", &err) == 1, "K+Q v K is dead on the torus");
        CHECK(tc_dead_material(dt, "KK", &err) == 1, "K v K is dead");
        CHECK(tc_dead_material(dt, "KNK", &err) == 1, "K+N v K is dead on the torus");
        CHECK(tc_dead_material(dt, "KQKB", &err) == 0, "K+Q v K+B can mate on the torus");
        CHECK(tc_dead_material(dt, "KQPK", &err) == -1 && strstr(err.msg, "pawn"), "pawns: %s", err.msg);
        CHECK(tc_dead_material(dc, "KQK", &err) == -1 && strstr(err.msg, "FIDE"), "flat board: %s", err.msg);
        /* the torus: Q v K is a draw at once, but only the tables know */
        tc_position *p = at(torus, "8/8/8/8/8/8/8/3k4/8/8/8/2Q5/8/4K3 w - - 0 1");
        if (p) {
            CHECK(tc_position_status(p) == TC_ONGOING, "the rules alone do not see it");
            CHECK(tc_dead_position(dt, p) == 1 && tc_game_status(dt, p) == TC_DRAW_DEAD,
                  "tc_game_status: dead position");
        }
        tc_position_free(p);
        /* K+Q v K+B: mate positions exist, so not dead */
        p = at(torus, "8/8/8/8/8/8/8/3k4/3b4/8/8/2Q5/8/4K3 w - - 0 1");
        if (p)
            CHECK(tc_game_status(dt, p) == TC_ONGOING, "K+Q v K+B goes on");
        tc_position_free(p);
        /* pawns: never dead by the tables */
        p = at(torus, "8/8/8/8/8/8/8/3k4/8/8/8/2P5/8/4K3 w - - 0 1");
        if (p)
            CHECK(tc_game_status(dt, p) == TC_ONGOING, "K+P v K goes on");
        tc_position_free(p);
        /* flat chess: the FIDE cases */
        p = at(chess, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        if (p)
            CHECK(tc_game_status(dc, p) == TC_DRAW_DEAD, "K+B v K on chess");
        tc_position_free(p);
        p = at(chess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        if (p)
            CHECK(tc_game_status(dc, p) == TC_ONGOING, "K+R v K on chess");
        tc_position_free(p);
    }
    tc_dead_table_free(dt);
    tc_dead_table_free(dc);

    /* docs/rules.md section 6 also says K+B v K is dead on every preset, but
     * the Klein bottle's K+B v K tables hold checkmates that no move
     * reaches; by the section's test (any checkmate position) it is not */
    th_case("dead: klein-bottle K+B v K holds a checkmate position, so it is not dead");
    tc_variant *kb = th_variant("klein-bottle");
    tc_dead_table *dk = kb ? tc_dead_table_new(kb, &err) : NULL;
    if (dk) {
        tc_position *p = at(kb, "8/8/8/8/8/8/8/8/8/8/8/8/8/K1k3B1 b - - 0 1");
        if (p)
            CHECK(tc_position_status(p) == TC_CHECKMATE, "K a1, B g1 mate k c1 on the Klein bottle");
        tc_position_free(p);
        CHECK(tc_dead_material(dk, "KBK", &err) == 0, "klein-bottle K+B v K");
        CHECK(tc_dead_material(dk, "KNK", &err) == 1, "klein-bottle K+N v K");
    }
    tc_dead_table_free(dk);
    tc_variant_free(kb);
    tc_variant_free(torus);
    tc_variant_free(chess);
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

    th_case("dead: the engine scores a dead position as a draw");
    tc_variant *torus = th_variant("torus");
    tc_engine *e = torus ? tc_engine_new(torus, 8, 1) : NULL;
    tc_position *p = torus ? at(torus, "8/8/8/8/8/8/8/3k4/3n4/8/8/2R5/8/4K3 w - - 0 1") : NULL;
    d = torus ? tc_dead_table_new(torus, &err) : NULL;
    if (e && p && d) {
        CHECK(tc_dead_position(d, p) == 1, "K+R v K+N is dead on the torus");
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
static void docs_table(void)
{
    th_case("dead: the docs' table is the output of topochess dead");
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
        size_t cap = 8192, n = 0;
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

void suite_dead(void)
{
    docs_table();
    tables_agree();
    status_and_rules();
    limits_and_engine();
}
