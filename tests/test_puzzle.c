/* Puzzles from the solved endings (docs/puzzles.md): every generated
 * puzzle's claims checked again here, by probing every move of the line
 * rather than trusting the generator, and the short ones by the plain mate
 * solver of tests/matesolve.c on refgen's moves, which shares no code
 * with the tables; no two puzzles the same under the board's symmetries;
 * the checker's four answers on hand-picked positions of the flat board,
 * the cylinder and the Klein bottle (their facts shown by the rules and
 * the mate solver, not by the tables); the same puzzles for the same
 * seed; bad options and bad input to the library and the command. */
#include "harness.h"
#include "matesolve.h"
#include "topochess_explain.h"
#include "topochess_puzzle.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static tc_egtb *solve(const tc_variant *v, const char *ending)
{
    tc_error err;
    tc_egtb_options opt = {.threads = 2};
    tc_egtb *t = tc_egtb_solve(v, ending, &opt, &err);
    CHECK(t != NULL, "%s: %s", ending, err.msg);
    return t;
}

/* The mover's result after m by a probe: wdl for the mover, plies to mate
 * counted from before m. */
static void result_after(const tc_egtb *t, tc_position *p, tc_move m, int *wdl, int *plies)
{
    tc_make_move(p, m);
    tc_egtb_result r;
    int held = tc_egtb_probe(t, p, &r) == 0;
    CHECK(held, "the tables hold the position after a move");
    tc_unmake_move(p);
    *wdl = held ? -r.wdl : 0;
    *plies = held && r.wdl ? r.plies + 1 : 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(a, b); }

/* The puzzle's claims, checked from its FEN alone. */
static void verify_puzzle(const tc_egtb *t, const tc_variant *v, const tc_puzzle *z, int max_best, int allow_check)
{
    tc_position *p = th_at_fen(v, z->fen);
    if (!p)
        return;
    char title[64];
    snprintf(title, sizeof title, "%s mates in %d on the ", z->side ? "Black" : "White", z->mate_in);
    CHECK(!strncmp(z->title, title, strlen(title)), "%s: title '%s'", z->fen, z->title);
    CHECK(tc_side_to_move(p) == z->side, "%s: side", z->fen);
    CHECK(allow_check || !tc_in_check(p), "%s: the side to move starts in check", z->fen);
    tc_egtb_result r;
    CHECK(tc_egtb_probe(t, p, &r) == 0 && r.wdl == 1 && r.plies == 2 * z->mate_in - 1,
          "%s: the tables say wdl %d in %d plies, the puzzle mate in %d", z->fen, r.wdl, r.plies, z->mate_in);
    /* no piece of the winner hangs */
    for (int c = 0; c < tc_variant_cells(v); c++) {
        int pc = tc_piece_at(p, c);
        if (pc && TC_COLOUR(pc) == z->side && TC_TYPE(pc) != TC_KING)
            CHECK(!tc_attacked(p, c, !z->side) || tc_attacked(p, c, z->side), "%s: a piece hangs", z->fen);
    }
    /* the accepted moves are exactly those that keep the shortest mate,
     * and none takes a piece */
    tc_movelist *list = malloc(sizeof *list);
    int n = tc_generate_legal(p, list), nbest = 0;
    char best[64][16];
    for (int i = 0; i < n; i++) {
        int wdl, plies;
        result_after(t, p, list->moves[i], &wdl, &plies);
        CHECK(!(wdl > 0 && plies < r.plies), "%s: a move mates faster than the tables' distance", z->fen);
        if (wdl > 0 && plies == r.plies && nbest < 64) {
            CHECK(!tc_piece_at(p, TC_MOVE_TO(list->moves[i])), "%s: a best move captures", z->fen);
            tc_move_to_uci(p, list->moves[i], best[nbest++]);
        }
    }
    CHECK(nbest >= 1 && nbest <= max_best && nbest == z->naccepted, "%s: %d best moves, the puzzle says %d",
          z->fen, nbest, z->naccepted);
    char acc[TC_PUZZLE_MAX_ACCEPTED][16];
    for (int i = 0; i < z->naccepted && i < TC_PUZZLE_MAX_ACCEPTED; i++)
        snprintf(acc[i], sizeof acc[i], "%s", z->accepted_uci[i]);
    qsort(best, (size_t)nbest, sizeof best[0], cmp_str);
    qsort(acc, (size_t)z->naccepted, sizeof acc[0], cmp_str);
    for (int i = 0; i < nbest && i < z->naccepted; i++)
        CHECK(!strcmp(best[i], acc[i]), "%s: accepted %s, best by probing %s", z->fen, acc[i], best[i]);
    /* the short ones again by the mate solver on refgen's moves */
    if (z->mate_in <= 2 || (z->mate_in == 3 && !th_sanitize())) {
        ms_result ms;
        ms_solve_ref(p, z->mate_in, 3000000, &ms);
        if (ms.n >= 0) {
            CHECK(ms.n == z->mate_in, "%s: the mate solver finds mate in %d, the puzzle %d", z->fen, ms.n,
                  z->mate_in);
            CHECK(ms.nfirst == nbest, "%s: the mate solver has %d first moves, the tables %d", z->fen, ms.nfirst,
                  nbest);
            for (int i = 0; i < ms.nfirst && i < nbest; i++)
                CHECK(!strcmp(ms.first[i], best[i]), "%s: first move %s, solver %s", z->fen, best[i], ms.first[i]);
        }
    }
    /* the line: legal, the winner's moves keep the shortest mate, the
     * defence delays it longest, one ply less each time, mate at the end */
    CHECK(z->nline == 2 * z->mate_in - 1, "%s: a line of %d plies for mate in %d", z->fen, z->nline, z->mate_in);
    int plies = r.plies;
    for (int i = 0; i < z->nline; i++) {
        tc_move m;
        tc_error err;
        if (tc_move_parse(p, z->line_san[i], &m, &err)) {
            CHECK(0, "%s: line move %d '%s': %s", z->fen, i + 1, z->line_san[i], err.msg);
            break;
        }
        char uci[16];
        tc_move_to_uci(p, m, uci);
        CHECK(!strcmp(uci, z->line_uci[i]), "%s: ply %d is %s in SAN, %s in coordinates", z->fen, i, uci,
              z->line_uci[i]);
        int winner = tc_side_to_move(p) == z->side;
        n = tc_generate_legal(p, list);
        int extreme = winner ? 1000 : -1, wdl, got;
        for (int k = 0; k < n; k++) {
            result_after(t, p, list->moves[k], &wdl, &got);
            if (winner && wdl > 0 && got < extreme)
                extreme = got;
            if (!winner && wdl < 0 && got > extreme)
                extreme = got;
        }
        result_after(t, p, m, &wdl, &got);
        CHECK(winner ? wdl > 0 : wdl < 0, "%s: ply %d %s changes the result", z->fen, i, z->line_san[i]);
        CHECK(got == plies && got == extreme, "%s: ply %d %s: %d plies, %d before, best %d", z->fen, i,
              z->line_san[i], got, plies, extreme);
        tc_make_move(p, m);
        plies--;
    }
    CHECK(plies == 0 && tc_position_status(p) == TC_CHECKMATE && tc_side_to_move(p) != z->side,
          "%s: the line does not end in the loser's checkmate", z->fen);
    free(list);
    tc_position_free(p);
}

/* No puzzle is the image of another under a symmetry of the board. */
static void verify_distinct(const tc_variant *v, const tc_puzzle *z, int n)
{
    int nsym = tc_symmetries(v, NULL, 0);
    tc_symmetry *sym = malloc((size_t)nsym * sizeof *sym);
    tc_symmetries(v, sym, nsym);
    tc_position *a = tc_position_new(v), *b = tc_position_new(v);
    for (int i = 0; i < n; i++) {
        tc_error err;
        CHECK(tc_position_set_fen(a, z[i].fen, &err) == 0, "%s: %s", z[i].fen, err.msg);
        for (int s = 0; s < nsym; s++) {
            char fen[800];
            if (tc_symmetry_apply(&sym[s], a, b, &err))
                continue;
            tc_position_fen(b, fen, sizeof fen);
            for (int j = 0; j < n; j++)
                CHECK(j == i || strcmp(fen, z[j].fen), "puzzles %d and %d are the same under '%s'", i, j,
                      sym[s].name);
        }
    }
    tc_position_free(a);
    tc_position_free(b);
    free(sym);
}

static int checks_seen; /* puzzles that start in check, in the last run */

static void generated_on(tc_variant *v, const char *ending, int min, int max, int max_best, int count,
                         uint64_t seed, int want_all, int allow_check)
{
    th_case("puzzle: %s %s mate in %d..%d: every claim holds", tc_variant_def_of(v)->name, ending, min, max);
    tc_egtb *t = solve(v, ending);
    if (!t)
        return;
    tc_puzzle_options o;
    tc_puzzle_options_default(&o);
    o.min_mate = min;
    o.max_mate = max;
    o.max_best = max_best;
    o.seed = seed;
    o.allow_check = allow_check;
    checks_seen = 0;
    tc_puzzle *z = calloc((size_t)count, sizeof *z);
    tc_error err;
    int n = tc_puzzles_generate(t, &o, z, count, &err);
    CHECK(n >= 0, "%s", err.msg);
    CHECK(!want_all || n == count, "%d of %d puzzles", n, count);
    int several = 0;
    for (int i = 0; i < n; i++) {
        CHECK(z[i].mate_in >= min && z[i].mate_in <= max, "%s: mate in %d", z[i].fen, z[i].mate_in);
        CHECK(!strcmp(z[i].variant, tc_variant_def_of(v)->name), "variant '%s'", z[i].variant);
        verify_puzzle(t, v, &z[i], max_best, allow_check);
        tc_position *q = th_at_fen(v, z[i].fen);
        checks_seen += q && tc_in_check(q);
        tc_position_free(q);
        several |= z[i].naccepted > 1;
    }
    if (max_best > 1)
        CHECK(several, "max_best %d: every puzzle still had one best move", max_best);
    verify_distinct(v, z, n);
    free(z);
    tc_egtb_free(t);
}

static void generated(const char *variant, const char *ending, int min, int max, int max_best, int count,
                      uint64_t seed, int want_all)
{
    tc_variant *v = th_variant(variant);
    if (v)
        generated_on(v, ending, min, max, max_best, count, seed, want_all, 0);
    tc_variant_free(v);
}

/* A board of a variant page: a 6x6 Moebius strip. */
#define SMALL_MOBIUS_SETUP "6/2k3/6/6/2K3/6"
static void generated_custom(void)
{
    tc_variant_def d;
    th_def(&d, "small-mobius", 6, 6, TC_FILES_OPEN, TC_RANKS_TWIST, 6, SMALL_MOBIUS_SETUP);
    tc_error err;
    tc_variant *v = tc_variant_new(&d, &err);
    CHECK(v != NULL, "small-mobius: %s", err.msg);
    if (v)
        generated_on(v, "KRK", 2, 15, 1, 15, 11, 1, 0);
    tc_variant_free(v);
}

/* ---------------------------------------------------------------- the checker */

/* The mover's mate after m by the mate solver: 1 when m mates, else 1 +
 * the longest of the attacker's shortest mates over every reply; 0 when m
 * stalemates or some reply escapes mate within max moves. */
static int ref_mate_after(tc_position *p, tc_move m, int max)
{
    tc_make_move(p, m);
    int worst = -1;
    tc_status st = tc_position_status(p);
    if (st == TC_CHECKMATE)
        worst = 0;
    else if (st == TC_ONGOING) {
        tc_movelist *list = malloc(sizeof *list);
        int n = tc_generate_legal(p, list);
        for (int i = 0; i < n && worst != -2; i++) {
            tc_make_move(p, list->moves[i]);
            ms_result ms;
            ms_solve_ref(p, max, 0, &ms);
            worst = ms.n <= 0 ? -2 : ms.n > worst ? ms.n : worst;
            tc_unmake_move(p);
        }
        free(list);
    }
    tc_unmake_move(p);
    return worst < 0 ? 0 : worst + 1;
}

/// One hand-picked move and what the checker must say of it.
typedef struct {
    const char *text;
    tc_puzzle_verdict verdict;
} pick;

static void checker(const char *variant, const char *ending, const char *fen, int mate_before, const pick *picks,
                    int npicks)
{
    th_case("puzzle: checker on %s: %s", variant, fen);
    tc_variant *v = th_variant(variant);
    tc_egtb *t = v ? solve(v, ending) : NULL;
    tc_position *p = t ? th_at_fen(v, fen) : NULL;
    if (!p) {
        tc_egtb_free(t);
        tc_variant_free(v);
        return;
    }
    char before[800], after[800];
    tc_position_fen(p, before, sizeof before);
    for (int i = 0; i < npicks; i++) {
        tc_puzzle_answer a;
        tc_error err;
        const char *text = picks[i].text;
        if (tc_puzzle_check(t, p, text, &a, &err)) {
            CHECK(0, "%s: %s", text, err.msg);
            continue;
        }
        tc_position_fen(p, after, sizeof after);
        CHECK(!strcmp(before, after), "%s: the checker changed the position", text);
        CHECK(a.verdict == picks[i].verdict, "%s: verdict %d, expected %d (%s)", text, a.verdict, picks[i].verdict,
              a.message);
        CHECK(a.mate_before == mate_before, "%s: mate before %d, expected %d", text, a.mate_before, mate_before);
        if (a.verdict == TC_PUZZLE_ILLEGAL) {
            /* the rules' own reason, as every surface gives it */
            tc_explanation *x = malloc(sizeof *x);
            char line[800];
            CHECK(tc_explain_move(p, text, x) != 0, "%s is legal", text);
            tc_explain_line(text, x, line, sizeof line);
            CHECK(!strcmp(line, a.message), "%s: '%s', the rules say '%s'", text, a.message, line);
            free(x);
            CHECK(a.move == 0 && a.reply == 0, "%s: an illegal move with a move or reply", text);
            continue;
        }
        tc_move m = a.move;
        int ref = ref_mate_after(p, m, mate_before + 2);
        switch (a.verdict) {
        case TC_PUZZLE_BEST:
            CHECK(ref == mate_before && a.mate_after == mate_before && a.slower_by == 0,
                  "%s: best, mate after %d, the solver %d", text, a.mate_after, ref);
            break;
        case TC_PUZZLE_SLOWER:
            CHECK(ref > mate_before && a.mate_after == ref && a.slower_by == ref - mate_before && a.wdl_after == 1,
                  "%s: slower by %d (mate in %d), the solver mate in %d", text, a.slower_by, a.mate_after, ref);
            CHECK(strstr(a.message, "slower") != NULL, "%s: message '%s'", text, a.message);
            break;
        case TC_PUZZLE_NOT_WINNING:
            CHECK(a.wdl_after <= 0, "%s: wdl after %d", text, a.wdl_after);
            break;
        case TC_PUZZLE_ILLEGAL: break;
        }
        /* the reply: legal, and no other reply delays the mate longer */
        tc_make_move(p, m);
        CHECK(a.mates == (tc_position_status(p) == TC_CHECKMATE), "%s: mates %d", text, a.mates);
        if (tc_position_status(p) == TC_ONGOING) {
            CHECK(a.reply && tc_is_legal(p, a.reply), "%s: no legal reply", text);
            tc_movelist *list = malloc(sizeof *list);
            int n = tc_generate_legal(p, list), wdl, plies, rw = 0, rp = 0;
            if (a.reply)
                result_after(t, p, a.reply, &rw, &rp);
            for (int k = 0; k < n && a.reply; k++) {
                result_after(t, p, list->moves[k], &wdl, &plies);
                int better = wdl > rw || (wdl == rw && wdl < 0 && plies > rp) || (wdl == rw && wdl > 0 && plies < rp);
                CHECK(!better, "%s: reply %s, but another holds out better", text, a.reply_san);
            }
            free(list);
        } else
            CHECK(a.reply == 0, "%s: a reply after the game ended", text);
        tc_unmake_move(p);
    }
    tc_position_free(p);
    tc_egtb_free(t);
    tc_variant_free(v);
}

static void checker_cases(void)
{
    /* flat: Qb7 mates (defended by the king), Qb6 stalemates, Qh1+ Ka7
     * lets Qa1 mate a move later, the king may not step beside the king */
    static const pick flat[] = {{"Qb7", TC_PUZZLE_BEST},       {"Qb6", TC_PUZZLE_NOT_WINNING},
                                {"Qh1", TC_PUZZLE_SLOWER},     {"Kb8", TC_PUZZLE_ILLEGAL},
                                {"Qb9", TC_PUZZLE_ILLEGAL},    {"b1b8", TC_PUZZLE_BEST}};
    checker("chess", "KQK", "k7/2K5/8/8/8/8/8/1Q6 w - - 0 1", 1, flat, 6);
    /* the cylinder: a8 and h8 touch, so Ra8+ is met by Kxa8 (docs/endgames.md) */
    static const pick cyl[] = {{"Ra8", TC_PUZZLE_NOT_WINNING}, {"Ra2", TC_PUZZLE_BEST},
                               {"Kf6", TC_PUZZLE_NOT_WINNING}, {"Kh7", TC_PUZZLE_ILLEGAL}};
    checker("cylinder", "KRK", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", 2, cyl, 4);
    /* the Klein bottle: every KQK position with White to move is a mate in one */
    static const pick klein[] = {{"Qd5", TC_PUZZLE_BEST},
                                 {"Qe3", TC_PUZZLE_BEST},
                                 {"Qd4", TC_PUZZLE_SLOWER},
                                 {"Qd2", TC_PUZZLE_NOT_WINNING},
                                 {"Kb1", TC_PUZZLE_ILLEGAL}};
    checker("klein-bottle", "KQK", "8/8/8/8/8/8/8/8/8/8/8/3Q4/8/K1k5 w - - 0 1", 1, klein, 5);

    th_case("puzzle: checker: the reply to Ra8+ on the cylinder takes the rook");
    tc_variant *v = th_variant("cylinder");
    tc_egtb *t = v ? solve(v, "KRK") : NULL;
    tc_position *p = t ? th_at_fen(v, "7k/8/6K1/8/8/8/8/R7 w - - 0 1") : NULL;
    if (p) {
        tc_puzzle_answer a;
        tc_error err;
        CHECK(tc_puzzle_check(t, p, "Ra8+", &a, &err) == 0 && !strcmp(a.reply_san, "Kxa8") && a.wdl_after == 0,
              "reply '%s', wdl %d", a.reply_san, a.wdl_after);
        /* refused: the side to move loses, or the material is another */
        tc_position *q = th_at_fen(v, "k7/8/K7/8/8/8/8/1R6 b - - 0 1");
        CHECK(q && tc_puzzle_check(t, q, "Kb8", &a, &err) == -1 && strstr(err.msg, "does not win"), "%s", err.msg);
        tc_position_free(q);
        q = th_at_fen(v, "7k/8/6K1/8/8/8/8/3Q4 w - - 0 1");
        CHECK(q && tc_puzzle_check(t, q, "Qb7", &a, &err) == -1 && strstr(err.msg, "not of the ending"), "%s",
              err.msg);
        tc_position_free(q);
    }
    tc_position_free(p);
    tc_egtb_free(t);
    tc_variant_free(v);
}

/* ---------------------------------------------------------------- seeds, options */

static void seeds_and_options(void)
{
    th_case("puzzle: the same seed gives the same puzzles, another seed others");
    tc_variant *v = th_variant("chess");
    tc_egtb *t = v ? solve(v, "KRK") : NULL;
    if (!t) {
        tc_variant_free(v);
        return;
    }
    tc_puzzle_options o;
    tc_puzzle_options_default(&o);
    enum { N = 12 };
    tc_puzzle *a = calloc(3 * N, sizeof *a), *b = a + N, *c = a + 2 * N;
    tc_error err;
    o.seed = 5;
    int na = tc_puzzles_generate(t, &o, a, N, &err), nb = tc_puzzles_generate(t, &o, b, N, &err);
    o.seed = 6;
    int nc = tc_puzzles_generate(t, &o, c, N, &err);
    CHECK(na == N && nb == N && nc == N, "%d %d %d puzzles", na, nb, nc);
    int same = 1, differ = 0;
    for (int i = 0; i < N; i++) {
        same &= !strcmp(a[i].fen, b[i].fen) && a[i].nline == b[i].nline &&
                !memcmp(a[i].line_uci, b[i].line_uci, sizeof a[i].line_uci);
        differ |= strcmp(a[i].fen, c[i].fen) != 0;
    }
    CHECK(same, "seed 5 twice gave different puzzles");
    CHECK(differ, "seeds 5 and 6 gave the same puzzles");

    th_case("puzzle: bad options are refused with their numbers");
    o.min_mate = 0;
    CHECK(tc_puzzles_generate(t, &o, a, N, &err) == -1 && strstr(err.msg, "0..15"), "%s", err.msg);
    o.min_mate = 9;
    o.max_mate = 4;
    CHECK(tc_puzzles_generate(t, &o, a, N, &err) == -1 && strstr(err.msg, "9..4"), "%s", err.msg);
    o.max_mate = 200;
    CHECK(tc_puzzles_generate(t, &o, a, N, &err) == -1, "max mate 200 taken");
    tc_puzzle_options_default(&o);
    o.max_best = TC_PUZZLE_MAX_ACCEPTED + 1;
    CHECK(tc_puzzles_generate(t, &o, a, N, &err) == -1 && strstr(err.msg, "best moves"), "%s", err.msg);
    tc_puzzle_options_default(&o);
    o.min_mate = o.max_mate = 17; /* KRK never needs more than 16 */
    CHECK(tc_puzzles_generate(t, &o, a, N, &err) == 0, "mates in 17 found in KRK");
    CHECK(tc_puzzles_generate(t, &o, a, 0, &err) == 0, "max 0");
    free(a);
    tc_egtb_free(t);
    tc_variant_free(v);
}

/* ---------------------------------------------------------------- the command */

/* `BIN args` with input on stdin: its exit status, and its standard
 * output (or standard error with want_err) into a heap string. */
static int run(const char *args, const char *input, int want_err, char **out)
{
    const char *bin = getenv("TC_BIN") ? getenv("TC_BIN") : "./topochess";
    char in_path[] = "/tmp/tc_puzzle_in_XXXXXX";
    int fd = mkstemp(in_path);
    *out = NULL;
    if (fd < 0 || write(fd, input, strlen(input)) != (ssize_t)strlen(input)) {
        CHECK(0, "cannot write a temporary input file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    size_t len = strlen(bin) + strlen(args) + 128;
    char *cmd = malloc(len);
    snprintf(cmd, len, "'%s' %s <'%s' %s", bin, args, in_path, want_err ? "2>&1 >/dev/null" : "2>/dev/null");
    FILE *f = popen(cmd, "r");
    free(cmd);
    int status = -1;
    if (f) {
        size_t cap = 1 << 16, n = 0, got;
        *out = malloc(cap);
        while ((got = fread(*out + n, 1, cap - n - 1, f)) > 0)
            if ((n += got) + 1 == cap)
                *out = realloc(*out, cap *= 2);
        (*out)[n] = '\0';
        int st = pclose(f);
        status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    unlink(in_path);
    return status;
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *s = text; (s = strstr(s, what)) != NULL; s++)
        n++;
    return n;
}

static void command(void)
{
    const char *bin = getenv("TC_BIN") ? getenv("TC_BIN") : "./topochess";
    if (access(bin, X_OK)) {
        fprintf(stderr, "note: no %s: the puzzle command checks are skipped\n", bin);
        return;
    }
    char *out;
    th_case("puzzle: topochess puzzles makes 200 on chess, as text and as JSON");
    int st = run("puzzles --variant chess --count 200 --seed 1", "", 0, &out);
    CHECK(st == 0 && out && !strncmp(out, "200 puzzles on chess", 20), "status %d: %.80s", st, out ? out : "");
    CHECK(out && count_of(out, " mates in ") == 200 && count_of(out, "   FEN: ") == 200, "200 puzzles listed");
    free(out);
    st = run("puzzles --variant torus --material KRRK --min-mate 2 --count 3 --seed 2 --json", "", 0, &out);
    CHECK(st == 0 && out && strstr(out, "\"puzzles\":[") && count_of(out, "\"fen\":") == 3 &&
              count_of(out, "\"material\":\"KRRK\"") == 3 && strstr(out, "on the torus"),
          "status %d: %.200s", st, out ? out : "");
    free(out);

    char *again;
    st = run("puzzles --variant mobius --count 30 --seed 9", "", 0, &out);
    int st2 = run("puzzles --variant mobius --count 30 --seed 9", "", 0, &again);
    CHECK(st == 0 && st2 == 0 && out && again && !strcmp(out, again) && count_of(out, "   FEN: ") == 30,
          "seed 9 twice: status %d and %d, the same text: %d", st, st2, out && again && !strcmp(out, again));
    free(out);
    free(again);

    th_case("puzzle: topochess puzzle judges the moves typed and plays the defence");
    st = run("puzzle --fen 'k7/2K5/8/8/8/8/8/1Q6 w - - 0 1'", "Kb8\nQb6\nQh1\nhint\nQb7\n", 0, &out);
    CHECK(st == 0 && out, "status %d", st);
    if (out) {
        CHECK(strstr(out, "White mates in 1 on the flat board (KQK, chess)") != NULL, "title: %.200s", out);
        CHECK(strstr(out, "illegal move 'Kb8'") != NULL, "Kb8: %s", out);
        CHECK(strstr(out, "not winning: after Qb6 the position is a draw") != NULL, "Qb6: %s", out);
        CHECK(strstr(out, "slower: Qh1+ still wins, but mates in 2 instead of 1 (1 move slower)") != NULL, "Qh1: %s",
              out);
        CHECK(strstr(out, "hint: ") != NULL && strstr(out, "solved: mate in 1") != NULL, "end: %s", out);
    }
    free(out);
    st = run("puzzle --variant klein-bottle --fen '8/8/8/8/8/8/8/8/8/8/8/3Q4/8/K1k5 w - - 0 1'", "Qd4\nsolution\n",
             0, &out);
    CHECK(st == 0 && out && strstr(out, "on the Klein bottle") && strstr(out, "slower: Qd4+") &&
              strstr(out, "solution: 1. Q") && strstr(out, "#"),
          "status %d: %s", st, out ? out : "");
    free(out);

    th_case("puzzle: topochess puzzles on the board of a variant page");
    char page[] = "/tmp/tc_puzzle_page_XXXXXX";
    int fd = mkstemp(page);
    static const char text[] = "---\ntitle: Small Moebius\nslug: small-mobius\nengine:\n  topology:\n"
                               "    type: grid\n    rows: 6\n    cols: 6\n    wrap: mobius\n    files: open\n"
                               "    ranks: twist\n    seam: 6\n  setup: \"" SMALL_MOBIUS_SETUP "\"\n---\n";
    CHECK(fd >= 0 && write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1), "cannot write %s", page);
    if (fd >= 0)
        close(fd);
    char args[128];
    snprintf(args, sizeof args, "puzzles --variant-file %s --material KQK --min-mate 2 --count 3", page);
    st = run(args, "", 0, &out);
    CHECK(st == 0 && out && strstr(out, "3 puzzles on small-mobius") &&
              count_of(out, "on the Moebius strip (KQK)") == 3,
          "status %d: %s", st, out ? out : "");
    free(out);
    unlink(page);

    th_case("puzzle: bad options and bad positions name the problem");
    static const char *const bad[][2] = {
        {"puzzles --count 0", "--count takes a number from 1"},
        {"puzzles --count x", "--count takes a number"},
        {"puzzles --material KPK", "--material"},
        {"puzzles --material KQKQKQ", "--material"},
        {"puzzles --min-mate 5 --max-mate 3", "--min-mate 5 is more than --max-mate 3"},
        {"puzzles --max-best 9", "--max-best takes a number from 1 to 8"},
        {"puzzles --seed -3", "--seed takes a whole number"},
        {"puzzles --cont 3", "did you mean '--count'"},
        {"puzzles --fen x", "--fen does not apply to 'puzzles'"},
        {"puzzles --variant klien", "klein-bottle"},
        {"puzzles --variant torus --count", "--count needs a value"},
        {"puzzles stray", "takes options only"},
        {"puzzles --allow-check=1", "--allow-check takes no value"},
        {"puzzle --json --fen x", "--json does not apply to 'puzzle'"},
        {"puzzle", "needs --fen"},
        {"puzzle --count 3 --fen x", "--count does not apply to 'puzzle'"},
        {"puzzle --fen 'not a fen'", "puzzle: "},
        {"puzzle --fen '4k3/4p3/8/8/8/8/8/4K3 w - - 0 1'", "not a pawnless ending"},
        {"puzzle --fen 'k7/8/K7/8/8/8/8/1R6 b - - 0 1'", "Black to move does not win"},
        {"puzzle --fen 'k7/1Q6/1K6/8/8/8/8/8 b - - 0 1'", "does not win"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        st = run(bad[i][0], "", 1, &out);
        CHECK(st == 1 && out && strstr(out, bad[i][1]) && !strstr(out, "Sanitizer"),
              "%s: status %d, '%s' (wanted '%s')", bad[i][0], st, out ? out : "", bad[i][1]);
        free(out);
    }
    st = run("puzzles --help", "", 0, &out);
    CHECK(st == 0 && out && strstr(out, "usage: topochess puzzles"), "help: %d", st);
    free(out);
}

void suite_puzzle(void)
{
    generated("chess", "KQK", 3, 15, 1, 25, 3, 1);
    generated("chess", "KRK", 3, 15, 1, 25, 3, 1);
    generated("chess", "KQK", 2, 15, 3, 30, 9, 1);
    generated("cylinder", "KRK", 1, 3, 1, 12, 1, 1);
    generated("mobius", "KRK", 3, 15, 1, 15, 1, 1);
    generated("folding", "KQK", 3, 15, 1, 15, 1, 1);
    generated("klein-bottle", "KRK", 1, 1, 2, 10, 4, 1);
    generated("torus", "KRRK", 2, 15, 1, 12, 1, 1);
    generated("cylinder", "KQKR", 2, 15, 1, 10, 1, 1); /* a piece to take: skewers */
    generated_custom();
    /* allow_check: puzzles that start by getting out of a rook's check */
    tc_variant *cyl = th_variant("cylinder");
    if (cyl)
        generated_on(cyl, "KQKR", 3, 15, 1, 20, 1, 1, 1);
    CHECK(checks_seen > 0, "allow_check: no puzzle starts in check");
    tc_variant_free(cyl);
    checker_cases();
    seeds_and_options();
    command();
}
