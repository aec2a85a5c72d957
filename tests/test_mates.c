/* The mate suite (tests/data/mates.epd, written by tools/mategen.c): every
 * position is solved again by the exact solver on the library's moves (the
 * shortest mate and the set of first moves must be the file's), then
 * searched by the engine to depth 2N + 2 from a cleared hash table and
 * history: it must report a mate in N and play one of the mating moves.
 * It is searched twice: with the board's built-in net (the default, when
 * nets/ has one) and with the hand-written evaluation, since a mate must
 * not depend on which evaluation judges the rest of the tree.
 * TC_MATES_REF=1 also solves each position on refgen's moves (slower). */
#include "harness.h"
#include "matesolve.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>

#define MATES_FILE "tests/data/mates.epd"

/// One line of the suite file.
typedef struct {
    char variant[64], fen[720], moves[600];
    int n, line;
} mate_line;

static char *trim(char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* `variant ; FEN ; mate N ; moves M... ; ...`: 0, or -1 if malformed. */
static int parse(char *text, mate_line *m)
{
    char *field[8];
    int n = 0;
    for (char *s = text; s && n < 8;) {
        char *semi = strchr(s, ';');
        if (semi)
            *semi = '\0';
        field[n++] = trim(s);
        s = semi ? semi + 1 : NULL;
    }
    if (n < 4 || strlen(field[0]) >= sizeof m->variant || strlen(field[1]) >= sizeof m->fen ||
        sscanf(field[2], "mate %d", &m->n) != 1 || m->n < 1 || m->n > MS_MAX_MATE ||
        strncmp(field[3], "moves ", 6) != 0 || strlen(field[3] + 6) >= sizeof m->moves)
        return -1;
    strcpy(m->variant, field[0]);
    strcpy(m->fen, field[1]);
    strcpy(m->moves, field[3] + 6);
    return 0;
}

/* 1 if `move` is one of the space-separated moves. */
static int listed(const char *moves, const char *move)
{
    size_t n = strlen(move);
    for (const char *s = moves; (s = strstr(s, move)) != NULL; s++)
        if ((s == moves || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
            return 1;
    return 0;
}

static void solver_agrees(const char *who, const ms_result *r, const mate_line *m)
{
    char got[600] = "";
    for (int i = 0; i < r->nfirst; i++) {
        if (i)
            strcat(got, " ");
        strcat(got, r->first[i]);
    }
    CHECK(r->n == m->n && strcmp(got, m->moves) == 0, "line %d: %s: %s solver: mate %d by %s; the file: mate %d by %s",
          m->line, m->variant, who, r->n, got, m->n, m->moves);
}

/* found[0], searched[0]: with the built-in net; [1]: hand-written. */
static void check_position(tc_engine **engine, const tc_variant **engine_v, const mate_line *m, int found[2],
                           int searched[2], int *unsolved)
{
    tc_variant *v = th_variant_cached(m->variant);
    if (!v)
        return;
    tc_position *p = th_at_fen(v, m->fen);
    if (!p)
        return;
    /* under the sanitizers the largest solves are left out (counted) */
    ms_result r;
    ms_solve_lib(p, m->n, th_sanitize() ? 200000 : 0, &r);
    if (r.n < 0)
        (*unsolved)++;
    else
        solver_agrees("library", &r, m);
    if (getenv("TC_MATES_REF")) {
        ms_solve_ref(p, m->n, 0, &r);
        solver_agrees("refgen", &r, m);
    }
    if (*engine_v != v) {
        tc_engine_free(*engine);
        *engine = tc_engine_new(v, 16, 1);
        *engine_v = v;
    }
    CHECK(*engine != NULL, "no engine for %s", m->variant);
    for (int hand = 0; *engine && hand < 2; hand++) {
        if (hand)
            tc_engine_clear_net(*engine);
        else if (tc_engine_use_builtin_net(*engine))
            continue; /* no built-in net for this board: the hand pass alone */
        tc_engine_new_game(*engine);
        tc_engine_set_position(*engine, p);
        tc_limits l;
        tc_limits_init(&l);
        l.depth = 2 * m->n + 2;
        tc_search_result res = tc_engine_search(*engine, &l, NULL, NULL);
        char best[16];
        tc_move_to_uci(p, res.best, best);
        int ok = res.mate == m->n && listed(m->moves, best);
        found[hand] += ok;
        searched[hand]++;
        const char *ev = hand ? "hand-written" : "built-in net";
        if (!ok) /* the harness shows a case's first failures only: list every miss */
            printf("  mates: missed line %d (%s, mate %d, %s): %s with %s %d\n", m->line, m->variant, m->n, ev, best,
                   res.mate ? "mate" : "cp", res.mate ? res.mate : res.score);
        CHECK(ok, "line %d: %s %s (%s): mate in %d (%s); go depth %d plays %s with %s %d", m->line, m->variant, m->fen,
              ev, m->n, m->moves, l.depth, best, res.mate ? "mate" : "cp", res.mate ? res.mate : res.score);
    }
    tc_position_free(p);
}

void suite_mates(void)
{
    th_case("mates: every position of the mate suite is a mate in N, found by go depth 2N+2");
    FILE *f = fopen(MATES_FILE, "r");
    CHECK(f != NULL, "cannot open %s", MATES_FILE);
    if (!f)
        return;
    char buf[2048];
    int line = 0, total = 0, found[2] = {0, 0}, searched[2] = {0, 0}, unsolved = 0, variants = 0;
    char seen[16][64];
    tc_engine *engine = NULL;
    const tc_variant *engine_v = NULL;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char *s = trim(buf);
        if (!*s || *s == '#')
            continue;
        mate_line m;
        m.line = line;
        if (parse(s, &m) != 0) {
            CHECK(0, "%s line %d: malformed", MATES_FILE, line);
            continue;
        }
        int known = 0;
        for (int i = 0; i < variants; i++)
            known |= strcmp(seen[i], m.variant) == 0;
        if (!known && variants < 16)
            strcpy(seen[variants++], m.variant);
        total++;
        check_position(&engine, &engine_v, &m, found, searched, &unsolved);
    }
    fclose(f);
    tc_engine_free(engine);
    /* the suite covers every preset */
    for (int i = 0; i < tc_preset_count(); i++) {
        int known = 0;
        for (int j = 0; j < variants; j++)
            known |= strcmp(seen[j], tc_preset(i)->name) == 0;
        CHECK(known, "%s has no position of %s", MATES_FILE, tc_preset(i)->name);
    }
    CHECK(total >= 50, "%s holds %d positions", MATES_FILE, total);
    printf("  mates: %d of %d found at depth 2N+2 with the built-in nets (%d of %d with the hand-written "
           "evaluation); %d re-solved exactly (%d left to the full run)\n",
           found[0], searched[0], found[1], searched[1], total - unsolved, unsolved);
}
