/* Exact mate solvers (see matesolve.h). */
#include "matesolve.h"

#include <stdlib.h>
#include <string.h>

static int cmp_names(const void *a, const void *b) { return strcmp(a, b); }

/* ---------------------------------------------------------------- library */

typedef struct {
    tc_position *p;
    uint64_t nodes, budget;
} lib_ctx;

static int lib_defender_lost(lib_ctx *c, int n);

/* 1 if the side to move mates in at most n, 0 if not, -1 over budget. */
static int lib_mates(lib_ctx *c, int n)
{
    tc_movelist ml;
    tc_generate_legal(c->p, &ml);
    for (int i = 0; i < ml.count; i++) {
        if (c->budget && ++c->nodes > c->budget)
            return -1;
        tc_make_move(c->p, ml.moves[i]);
        int r = n == 1 && !tc_in_check(c->p) ? 0 : lib_defender_lost(c, n);
        tc_unmake_move(c->p);
        if (r)
            return r;
    }
    return 0;
}

/* The defender to move: 1 if every reply loses to a mate in n - 1 more
 * attacker moves (checkmated now counts), 0 if one escapes, -1 over budget. */
static int lib_defender_lost(lib_ctx *c, int n)
{
    tc_movelist ml;
    tc_generate_legal(c->p, &ml);
    if (ml.count == 0)
        return tc_in_check(c->p) ? 1 : 0;
    if (n == 1)
        return 0;
    for (int i = 0; i < ml.count; i++) {
        tc_make_move(c->p, ml.moves[i]);
        int r = lib_mates(c, n - 1);
        tc_unmake_move(c->p);
        if (r <= 0)
            return r < 0 ? -1 : 0;
    }
    return 1;
}

void ms_solve_lib(tc_position *p, int max_n, uint64_t budget, ms_result *r)
{
    lib_ctx c = {p, 0, budget};
    memset(r, 0, sizeof *r);
    for (int n = 1; n <= max_n && !r->n; n++) {
        int found = lib_mates(&c, n);
        if (found < 0) {
            r->n = -1;
            break;
        }
        if (found)
            r->n = n;
    }
    if (r->n > 0) {
        tc_movelist ml;
        tc_generate_legal(p, &ml);
        for (int i = 0; i < ml.count; i++) {
            tc_make_move(p, ml.moves[i]);
            int lost = lib_defender_lost(&c, r->n);
            tc_unmake_move(p);
            if (lost < 0) {
                r->n = -1;
                break;
            }
            if (lost && r->nfirst < MS_MAX_FIRST)
                tc_move_to_uci(p, ml.moves[i], r->first[r->nfirst++]);
        }
    }
    qsort(r->first, (size_t)r->nfirst, sizeof r->first[0], cmp_names);
    r->nodes = c.nodes;
}

/* ---------------------------------------------------------------- refgen */

typedef struct {
    uint64_t nodes, budget;
} ref_ctx;

static int ref_defender_lost(ref_ctx *c, const rg_board *b, int n);

static int ref_mates(ref_ctx *c, const rg_board *b, int n)
{
    rg_move *mv = malloc(sizeof *mv * RG_MAX_MOVES);
    if (!mv)
        return -1;
    int count = rg_legal(b, mv, RG_MAX_MOVES), r = 0;
    for (int i = 0; i < count && !r; i++) {
        if (c->budget && ++c->nodes > c->budget) {
            r = -1;
            break;
        }
        rg_board next = *b;
        rg_make(&next, &mv[i]);
        r = n == 1 && !rg_in_check(&next) ? 0 : ref_defender_lost(c, &next, n);
    }
    free(mv);
    return r;
}

static int ref_defender_lost(ref_ctx *c, const rg_board *b, int n)
{
    rg_move *mv = malloc(sizeof *mv * RG_MAX_MOVES);
    if (!mv)
        return -1;
    int count = rg_legal(b, mv, RG_MAX_MOVES), r = 1;
    if (count == 0)
        r = rg_in_check(b) ? 1 : 0;
    else if (n == 1)
        r = 0;
    for (int i = 0; i < count && r == 1 && n > 1; i++) {
        rg_board next = *b;
        rg_make(&next, &mv[i]);
        int m = ref_mates(c, &next, n - 1);
        if (m <= 0)
            r = m;
    }
    free(mv);
    return r;
}

/* The move in UCI: cells by the variant's names, the promotion's letter;
 * castling names the king's own destination, as the library does. */
static void ref_uci(const tc_variant *v, const rg_move *m, char *buf)
{
    char a[8], b[8];
    tc_cell_name(v, m->from, a);
    tc_cell_name(v, m->to, b);
    static const char promo[] = " pnbrqk";
    if (m->promo)
        snprintf(buf, 16, "%s%s%c", a, b, promo[m->promo]);
    else
        snprintf(buf, 16, "%s%s", a, b);
}

void ms_solve_ref(const tc_position *p, int max_n, uint64_t budget, ms_result *r)
{
    ref_ctx c = {0, budget};
    rg_board b;
    memset(r, 0, sizeof *r);
    if (rg_board_from(p, &b) != 0) {
        r->n = -1;
        return;
    }
    for (int n = 1; n <= max_n && !r->n; n++) {
        int found = ref_mates(&c, &b, n);
        if (found < 0) {
            r->n = -1;
            break;
        }
        if (found)
            r->n = n;
    }
    if (r->n > 0) {
        rg_move *mv = malloc(sizeof *mv * RG_MAX_MOVES);
        int count = mv ? rg_legal(&b, mv, RG_MAX_MOVES) : 0;
        for (int i = 0; i < count; i++) {
            rg_board next = b;
            rg_make(&next, &mv[i]);
            int lost = ref_defender_lost(&c, &next, r->n);
            if (lost < 0) {
                r->n = -1;
                break;
            }
            if (lost && r->nfirst < MS_MAX_FIRST)
                ref_uci(tc_position_variant(p), &mv[i], r->first[r->nfirst++]);
        }
        free(mv);
    }
    qsort(r->first, (size_t)r->nfirst, sizeof r->first[0], cmp_names);
    r->nodes = c.nodes;
}
