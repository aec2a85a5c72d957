/* Endgame tables: the retrograde solver against the plain forward solver
 * of tests/egref.c on small boards of every topology, flat-chess values,
 * symmetries, main lines played out by the library, files, bad input.
 * The 4-piece flat endings (KBBK 19, KBNK 33, KNNK only mates in one,
 * KQKR 35, KRKB 29, KRKN 40 moves) run when TC_ENDGAME_FULL is set (make
 * endgame-check). */
#include "egref.h"
#include "egtb.h"
#include "harness.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int piece_code(char c, int colour)
{
    const char *types = "  NBRQK";
    return TC_PIECE(colour, (int)(strchr(types, c) - types));
}

/* "KRKN" -> piece codes in that order, White's until the second K. */
static int pieces_of(const char *name, int *pieces)
{
    int k = 0, colour = TC_WHITE;
    for (int i = 0; name[i]; i++) {
        if (i > 0 && name[i] == 'K')
            colour = TC_BLACK;
        pieces[k++] = piece_code(name[i], colour);
    }
    return k;
}

/* Every legal position of the material: the same value from both. */
static void compare_forward(const tc_variant *v, const char *label, const char *ending)
{
    th_case("endgame: %s on %s agrees with the forward solver", ending, label);
    tc_error err;
    tc_egtb_options opt = {.threads = 2};
    tc_egtb *t = tc_egtb_solve(v, ending, &opt, &err);
    CHECK(t != NULL, "%s: %s", ending, err.msg);
    if (!t)
        return;
    int pieces[4], k = pieces_of(ending, pieces), n = tc_variant_cells(v);
    egref_set rs;
    egref_table *ref = egref_solve(&rs, v, pieces, k);
    tc_position *p = tc_position_new(v);
    uint64_t fw[2][3] = {{0}}; /* [stm][win, draw, loss] */
    int bad = 0;
    for (uint64_t idx = 0; idx < ref->size; idx++) {
        int rv = ref->val[idx];
        if (rv == EGREF_ILLEGAL)
            continue;
        int cells[4], stm;
        uint64_t x = idx;
        for (int i = k - 1; i >= 0; i--) {
            cells[i] = (int)(x % (uint64_t)n);
            x /= (uint64_t)n;
        }
        stm = (int)x;
        egref_place(p, pieces, cells, k, stm);
        tc_egtb_result r;
        int wdl = rv < 0 ? 0 : (rv & 1) ? 1 : -1;
        fw[stm][wdl > 0 ? 0 : wdl == 0 ? 1 : 2]++;
        if (tc_egtb_probe(t, p, &r) || r.wdl != wdl || (wdl && r.plies != rv)) {
            if (bad++ < 3) {
                char fen[800];
                tc_position_fen(p, fen, sizeof fen);
                CHECK(0, "%s: %s: forward %d plies (wdl %d), tables wdl %d plies %d", label, fen, rv,
                      wdl, r.wdl, r.plies);
            }
        }
    }
    CHECK(bad == 0, "%s %s: %d positions differ", label, ending, bad);
    /* the counts weight each symmetry class by its size: real positions */
    tc_egtb_stats s;
    tc_egtb_stats_get(t, &s);
    int twin = 0; /* alike pieces: the forward solver counts both orders */
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            twin |= pieces[i] == pieces[j];
    for (int stm = 0; stm < 2; stm++) {
        uint64_t got[3] = {s.win[stm], s.draw[stm], s.loss[stm]};
        for (int i = 0; i < 3; i++)
            CHECK(got[i] * (twin ? 2 : 1) == fw[stm][i], "%s %s stm %d result %d: %llu classes-weighted, %llu placements",
                  label, ending, stm, i, (unsigned long long)got[i], (unsigned long long)fw[stm][i]);
    }
    tc_position_free(p);
    egref_free(&rs);
    tc_egtb_free(t);
}

static tc_variant *small_board(int w, tc_file_rule files, tc_rank_rule ranks, int seam, char *label)
{
    static const char *const fr[] = {"open", "wrap"}, *const rr[] = {"open", "wrap", "twist", "fold"};
    tc_variant_def d;
    char name[64];
    snprintf(name, sizeof name, "%dx%d-%s-%s%d", w, w, fr[files], rr[ranks], seam);
    th_def(&d, name, w, w, files, ranks, seam, w == 4 ? "4/2k1/4/K3" : "5/5/2k2/5/K4");
    tc_error err;
    tc_variant *v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "%s: %s", name, err.msg);
    snprintf(label, 64, "%s", name);
    return v;
}

static void forward_checks(void)
{
    static const char *const three[] = {"KQK", "KRK", "KBK", "KNK"};
    static const char *const four[] = {"KRKN", "KQKR", "KBNK", "KNNK", "KRKB"};
    for (int w = 4; w <= 5; w++)
        for (int files = 0; files < 2; files++)
            for (int ranks = 0; ranks < 4; ranks++)
                for (int seam = ranks == TC_RANKS_TWIST ? 2 : w; seam <= w; seam += w - 2) {
                    char label[64];
                    tc_variant *v = small_board(w, (tc_file_rule)files, (tc_rank_rule)ranks, seam, label);
                    if (!v)
                        continue;
                    for (int i = 0; i < 4; i++)
                        if (!th_sanitize() || i < 2)
                            compare_forward(v, label, three[i]);
                    /* 4 pieces on every 4x4 board; 5x5 (390625 placements a side) once */
                    if (w == 4)
                        for (int i = 0; i < 5; i++)
                            if (!th_sanitize() || i == 0)
                                compare_forward(v, label, four[i]);
                    if (w == 5 && files == TC_FILES_WRAP && ranks == TC_RANKS_TWIST && !th_sanitize())
                        compare_forward(v, label, "KRKN");
                    tc_variant_free(v);
                }
}

/* The longest mate, played out by the library with both sides following
 * the tables, ends in checkmate after exactly that many moves. */
static int play_out(const tc_egtb *t, const tc_variant *v, const char *fen)
{
    tc_position *p = th_at_fen(v, fen);
    int plies = 0;
    while (p && plies < 2 * TC_EGTB_MAX_PLIES) {
        tc_egtb_result r;
        tc_move m = tc_egtb_best_move(t, p, &r);
        if (!m)
            break;
        tc_make_move(p, m);
        plies++;
    }
    int mated = p && tc_position_status(p) == TC_CHECKMATE;
    tc_position_free(p);
    return mated ? plies : -1;
}

static void flat_value(const char *ending, int moves)
{
    th_case("endgame: %s on chess: longest mate %d moves", ending, moves);
    tc_variant *v = th_variant("chess");
    tc_error err;
    tc_egtb *t = v ? tc_egtb_solve(v, ending, NULL, &err) : NULL;
    CHECK(t != NULL, "%s", err.msg);
    if (t) {
        tc_egtb_stats s;
        tc_egtb_stats_get(t, &s);
        CHECK((s.longest_plies[TC_WHITE] + 1) / 2 == moves, "%s: longest mate %d plies", ending,
              s.longest_plies[TC_WHITE]);
        CHECK(play_out(t, v, s.longest_fen[TC_WHITE]) == s.longest_plies[TC_WHITE],
              "%s: the main line from %s is not a mate in %d plies", ending, s.longest_fen[TC_WHITE],
              s.longest_plies[TC_WHITE]);
    }
    tc_egtb_free(t);
    tc_variant_free(v);
}

static void symmetry_counts(void)
{
    /* chess: the 8 symmetries of the square; torus 8x14: 112 translations
     * times the 4 symmetries of a rectangle */
    static const struct {
        const char *name;
        int nsym;
    } cases[] = {{"chess", 8}, {"torus", 448}, {"cylinder", 32}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("endgame: %s has %d symmetries", cases[i].name, cases[i].nsym);
        tc_variant *v = th_variant(cases[i].name);
        tc_error err;
        tc_egtb *t = v ? tc_egtb_solve(v, "KK", NULL, &err) : NULL;
        CHECK(t && tc_egtb_symmetries(t) == cases[i].nsym, "%s: %d symmetries", cases[i].name,
              t ? tc_egtb_symmetries(t) : -1);
        tc_egtb_free(t);
        tc_variant_free(v);
    }
}

static void bad_input(void)
{
    th_case("endgame: bad endings are refused with the reason");
    tc_variant *v = th_variant("chess");
    static const struct {
        const char *ending, *msg;
    } cases[] = {
        {"KPK", "pawnless"}, {"KQRBK", "more than 4"}, {"QK", "must start"},
        {"KQ", "no K for Black"}, {"KXK", "not one of"}, {"", "must start"},
    };
    for (size_t i = 0; v && i < sizeof cases / sizeof cases[0]; i++) {
        tc_error err = {""};
        tc_egtb *t = tc_egtb_solve(v, cases[i].ending, NULL, &err);
        CHECK(!t && strstr(err.msg, cases[i].msg), "'%s': %s", cases[i].ending, err.msg);
        tc_egtb_free(t);
    }
    tc_variant_free(v);
    /* 4 pieces on a 16x16 open board: too many positions */
    tc_variant_def d;
    th_def(&d, "big", 16, 16, TC_FILES_OPEN, TC_RANKS_OPEN, 16, "16/16/16/16/16/16/16/16/16/16/16/16/16/k15/16/K15");
    tc_error err;
    tc_variant *big = tc_variant_new(&d, &err);
    tc_egtb *t = big ? tc_egtb_solve(big, "KQKR", NULL, &err) : NULL;
    CHECK(big && !t && strstr(err.msg, "more than"), "16x16 KQKR: %s", err.msg);
    tc_egtb_free(t);
    tc_variant_free(big);
}

/// What the pass callback saw: the last ending and ply, whether the plies
/// of each table ran 0, 2, 4, ..., and where to stop (-1: never).
typedef struct pass_log {
    char last[8];
    int plies, calls, in_order, stop_at;
    uint64_t entries;
} pass_log;

static int log_pass(void *ctx, const char *ending, int plies, uint64_t entries)
{
    pass_log *l = ctx;
    int same = !strcmp(l->last, ending);
    if (plies != (same ? l->plies + 2 : 0))
        l->in_order = 0;
    snprintf(l->last, sizeof l->last, "%s", ending);
    l->plies = plies;
    l->entries = entries;
    l->calls++;
    return l->stop_at >= 0 && l->calls > l->stop_at;
}

static void pass_callback(void)
{
    th_case("endgame: on_pass reports every pass of every table and stops a solve");
    tc_variant *v = th_variant("chess");
    tc_error err;
    pass_log l = {"", 0, 0, 1, -1, 0};
    tc_egtb_options opt = {.threads = 1, .on_pass = log_pass, .ctx = &l};
    tc_egtb *t = v ? tc_egtb_solve(v, "KRK", &opt, &err) : NULL;
    CHECK(t != NULL, "KRK: %s", t ? "" : err.msg);
    if (t) {
        tc_egtb_stats s;
        tc_egtb_stats_get(t, &s);
        /* KK first, then KRK; the last pass of KRK is past its longest mate */
        CHECK(!strcmp(l.last, "KRK") && l.in_order && l.plies + 2 >= s.longest_plies[TC_WHITE],
              "last %s at %d plies (in order %d), longest %d", l.last, l.plies, l.in_order,
              s.longest_plies[TC_WHITE]);
        CHECK(l.entries == s.table_entries, "entries %llu, table %llu", (unsigned long long)l.entries,
              (unsigned long long)s.table_entries);
    }
    tc_egtb_free(t);
    int all = l.calls;
    pass_log stop = {"", 0, 0, 1, all / 2, 0};
    opt.ctx = &stop;
    t = v ? tc_egtb_solve(v, "KRK", &opt, &err) : NULL;
    CHECK(!t && strstr(err.msg, "stopped") && stop.calls == all / 2 + 1, "stopped after %d of %d calls: %s",
          stop.calls, all, t ? "solved" : err.msg);
    tc_egtb_free(t);
    tc_variant_free(v);
}

static void files_round_trip(void)
{
    th_case("endgame: a saved set loads back and answers the same; other boards refuse it");
    tc_variant *v = th_variant("klein-bottle"), *m = th_variant("mobius");
    tc_error err;
    tc_egtb *t = v ? tc_egtb_solve(v, "KRK", NULL, &err) : NULL;
    char dir[] = "/tmp/tc-egtb-XXXXXX";
    CHECK(t && mkdtemp(dir), "setup");
    if (!t || !m) {
        tc_egtb_free(t);
        tc_variant_free(v);
        tc_variant_free(m);
        return;
    }
    CHECK(tc_egtb_save(t, dir, &err) == 0, "%s", err.msg);
    char name[128], path[256];
    tc_egtb_file_name(v, "KRK", name, sizeof name);
    CHECK(!strcmp(name, "8x14-wrap-twist11-KRK.egtb"), "%s", name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tc_egtb *u = tc_egtb_load(v, path, &err);
    CHECK(u != NULL, "%s", err.msg);
    tc_position *p = tc_position_new(v);
    int pieces[3] = {TC_PIECE(0, TC_KING), TC_PIECE(1, TC_KING), TC_PIECE(0, TC_ROOK)}, diff = 0;
    for (int a = 0; u && a < 112; a += 3)
        for (int b = 0; b < 112; b += 5)
            for (int c = 0; c < 112; c += 7) {
                int cells[3] = {a, b, c};
                if (a == b || b == c || a == c)
                    continue;
                for (int stm = 0; stm < 2; stm++) {
                    egref_place(p, pieces, cells, 3, stm);
                    tc_egtb_result r1, r2;
                    int e1 = tc_egtb_probe(t, p, &r1), e2 = tc_egtb_probe(u, p, &r2);
                    diff += e1 != e2 || r1.wdl != r2.wdl || r1.plies != r2.plies;
                }
            }
    CHECK(diff == 0, "%d probes differ after loading", diff);
    tc_egtb *w = tc_egtb_load(m, path, &err);
    CHECK(!w && strstr(err.msg, "another board"), "loading on mobius: %s", err.msg);
    tc_egtb_free(w);
    unlink(path);
    rmdir(dir);
    tc_position_free(p);
    tc_egtb_free(u);
    tc_egtb_free(t);
    tc_variant_free(v);
    tc_variant_free(m);
}

/* From the longest KRK mate of each preset, the engine (White) mates in
 * exactly that many moves against the tables' best defence. */
static void engine_plays_krk(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const char *name = tc_preset(i)->name;
        th_case("endgame: the engine mates in the longest KRK mate on %s", name);
        tc_variant *v = th_variant(name);
        tc_error err;
        tc_egtb *t = v ? tc_egtb_solve(v, "KRK", NULL, &err) : NULL;
        CHECK(t != NULL, "%s", err.msg);
        if (!t) {
            tc_variant_free(v);
            continue;
        }
        tc_egtb_stats s;
        tc_egtb_stats_get(t, &s);
        int moves = (s.longest_plies[TC_WHITE] + 1) / 2, played = 0;
        tc_position *p = moves ? th_at_fen(v, s.longest_fen[TC_WHITE]) : NULL;
        tc_engine *e = tc_engine_new(v, 4, 1);
        while (p && e && played <= moves) {
            tc_status st = tc_position_status(p);
            if (st != TC_ONGOING && st != TC_DRAW_REPETITION && st != TC_DRAW_FIFTY)
                break;
            tc_limits l;
            tc_limits_init(&l);
            l.depth = 2;
            tc_engine_set_position(e, p);
            tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
            CHECK(r.best && r.mate == moves - played, "%s: move %d: mate %d announced", name, played + 1, r.mate);
            if (!r.best)
                break;
            tc_make_move(p, r.best);
            played++;
            tc_egtb_result dr;
            tc_move reply = tc_egtb_best_move(t, p, &dr);
            if (reply)
                tc_make_move(p, reply);
        }
        CHECK(!p || (tc_position_status(p) == TC_CHECKMATE && played == moves), "%s: %d moves played, %s, longest %d",
              name, played, p ? tc_status_text(tc_position_status(p)) : "", moves);
        tc_engine_free(e);
        tc_position_free(p);
        tc_egtb_free(t);
        tc_variant_free(v);
    }
    /* in the search: KRKN has no table here, but taking the knight reaches
     * KRK, built on demand, and the search scores it as the mate it is */
    th_case("endgame: the search probes the ending a capture reaches");
    tc_variant *v = th_variant("chess");
    tc_error err;
    tc_egtb *krk = v ? tc_egtb_solve(v, "KRK", NULL, &err) : NULL;
    tc_position *p = v ? th_at_fen(v, "8/8/8/1n6/8/2k5/1R6/K7 w - - 0 1") : NULL;
    tc_engine *e = v ? tc_engine_new(v, 4, 1) : NULL;
    if (krk && p && e) {
        tc_move m;
        tc_error merr;
        tc_move_parse(p, "Rxb5", &m, &merr);
        tc_make_move(p, m);
        tc_egtb_result after;
        tc_egtb_probe(krk, p, &after);
        tc_unmake_move(p);
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 3;
        tc_engine_set_position(e, p);
        tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
        CHECK(after.wdl < 0 && r.mate == (after.plies + 2) / 2 && r.best == m,
              "mate %d announced with %x, the tables say %d after Rxb5", r.mate, r.best, (after.plies + 2) / 2);
    }
    tc_engine_free(e);
    tc_position_free(p);
    tc_egtb_free(krk);
    tc_variant_free(v);
}

/* A 4-piece set written to a folder is what the engine reads through
 * tc_engine_set_endgame_path (the UCI option EndgamePath). */
static void engine_reads_files(void)
{
    th_case("endgame: the engine plays a 4-piece ending from EndgamePath");
    char label[64];
    tc_variant *v = small_board(5, TC_FILES_WRAP, TC_RANKS_TWIST, 5, label);
    tc_error err;
    tc_egtb *t = v ? tc_egtb_solve(v, "KQKR", NULL, &err) : NULL;
    char dir[] = "/tmp/tc-egtb-XXXXXX";
    CHECK(t && mkdtemp(dir) && tc_egtb_save(t, dir, &err) == 0, "setup: %s", err.msg);
    if (!t) {
        tc_variant_free(v);
        return;
    }
    tc_egtb_stats s;
    tc_egtb_stats_get(t, &s);
    tc_position *p = th_at_fen(v, s.longest_fen[TC_WHITE]);
    tc_engine *e = tc_engine_new(v, 4, 1);
    if (p && e) {
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 1;
        tc_engine_set_position(e, p);
        tc_search_result before = tc_engine_search(e, &l, NULL, NULL);
        tc_engine_set_endgame_path(e, dir);
        tc_search_result after = tc_engine_search(e, &l, NULL, NULL);
        int moves = (s.longest_plies[TC_WHITE] + 1) / 2;
        CHECK(moves > 1 && before.mate != moves && after.mate == moves,
              "%s: mate %d without the file, %d with it; the tables say %d", s.longest_fen[TC_WHITE],
              before.mate, after.mate, moves);
    }
    char name[128], path[256];
    tc_egtb_file_name(v, "KQKR", name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    rmdir(dir);
    tc_engine_free(e);
    tc_position_free(p);
    tc_egtb_free(t);
    tc_variant_free(v);
}

/* The un-moves of sliders without reverse rays (asking every empty cell)
 * give the same tables as the reverse rays: the fallback for a board whose
 * steps were not reversible. */
static void unmoves_without_reverse_rays(void)
{
    th_case("endgame: un-moves by asking every cell agree with reverse rays");
    char label[64];
    tc_variant *v = small_board(5, TC_FILES_WRAP, TC_RANKS_FOLD, 5, label);
    tc_error err;
    tc_egtb *fast = v ? tc_egtb_solve(v, "KRKB", NULL, &err) : NULL;
    tc_egtb *slow = calloc(1, sizeof *slow);
    int ok = fast && slow && eg_board_init(&slow->b, v, &err) == 0;
    CHECK(ok && slow->b.reversible, "setup: %s", err.msg);
    if (ok) {
        slow->b.reversible = false;
        slow->main = eg_set_add(slow, "KRKB", &err);
        for (int i = 0; ok && slow->main && i < slow->ntables; i++)
            ok = eg_solve_table(slow, slow->tables[i], NULL, &err) == 0;
        CHECK(ok && slow->main, "%s", err.msg);
        const eg_table *a = fast->main, *b = ok ? slow->main : NULL;
        uint64_t diff = 0;
        for (uint64_t i = 0; b && i < a->size; i++)
            diff += atomic_load(&a->val[i]) != atomic_load(&b->val[i]);
        CHECK(b && a->size == b->size && diff == 0, "%llu entries differ", (unsigned long long)diff);
    }
    tc_egtb_free(slow);
    tc_egtb_free(fast);
    tc_variant_free(v);
}

/* Runs the command line and returns its output (heap) and exit status. */
static char *run_cli(const char *args, int *status)
{
    const char *bin = getenv("TC_BIN");
    if (!bin || access(bin, X_OK) != 0)
        return NULL;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    size_t got;
    while (out && (got = fread(out + n, 1, cap - 1 - n, p)) > 0)
        n += got;
    if (out)
        out[n] = '\0';
    *status = pclose(p);
    return out;
}

static void command_line(void)
{
    int status;
    th_case("endgame: topochess endgame prints the lines of the issue, and JSON");
    char *out = run_cli("endgame KRK", &status);
    if (!out)
        return; /* no binary: nothing to run */
    CHECK(status == 0 && strstr(out, "longest mate: 16 moves\n") && strstr(out, "mate possible: yes\n") &&
              strstr(out, "board symmetries: 8;"),
          "%s", out);
    free(out);
    out = run_cli("endgame KRK --variant torus --json", &status);
    CHECK(out && status == 0 && strstr(out, "\"mate_possible\":false") && strstr(out, "\"symmetries\":448"),
          "%s", out ? out : "");
    free(out);
    th_case("endgame: bad endings and options are refused with the reason");
    out = run_cli("endgame KPK", &status);
    CHECK(out && status != 0 && strstr(out, "pawnless"), "%s", out ? out : "");
    free(out);
    out = run_cli("endgame", &status);
    CHECK(out && status != 0 && strstr(out, "needs one ENDING"), "%s", out ? out : "");
    free(out);
    out = run_cli("endgame KRK --threads 0", &status);
    CHECK(out && status != 0 && strstr(out, "--threads takes"), "%s", out ? out : "");
    free(out);
}

void suite_endgame(void)
{
    command_line();
    unmoves_without_reverse_rays();
    engine_plays_krk();
    engine_reads_files();
    symmetry_counts();
    bad_input();
    flat_value("KQK", 10);
    flat_value("KRK", 16);
    files_round_trip();
    pass_callback();
    forward_checks();
    if (getenv("TC_ENDGAME_FULL")) {
        flat_value("KBBK", 19);
        flat_value("KBNK", 33);
        flat_value("KNNK", 1); /* only mates in one: no forced mate */
        flat_value("KQKR", 35);
        flat_value("KRKB", 29);
        flat_value("KRKN", 40);
        th_case("endgame: KNNK on chess: Black to move is never forced into mate");
        tc_variant *v = th_variant("chess");
        tc_error err;
        tc_egtb *t = v ? tc_egtb_solve(v, "KNNK", NULL, &err) : NULL;
        tc_egtb_stats s;
        if (t)
            tc_egtb_stats_get(t, &s);
        CHECK(t && s.loss[TC_BLACK] == s.mates[TC_BLACK], "Black loses %llu positions, %llu of them mated",
              t ? (unsigned long long)s.loss[TC_BLACK] : 0ull, t ? (unsigned long long)s.mates[TC_BLACK] : 0ull);
        tc_egtb_free(t);
        tc_variant_free(v);
    }
}
