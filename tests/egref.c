/* A deliberately plain forward solver for the endgame tests: every
 * placement of the pieces in the given order (no symmetry, alike pieces
 * kept apart), moves from the library's own generator, and values found in
 * rounds of increasing distance. Slow and simple, so that the retrograde
 * solver of src/endgame can be checked against it on small boards. */
#include "egref.h"

#include "internal.h"

#include <stdlib.h>

static uint64_t ipow(int n, int k)
{
    uint64_t r = 1;
    for (int i = 0; i < k; i++)
        r *= (uint64_t)n;
    return r;
}

void egref_place(tc_position *p, const int *pieces, const int *cells, int k, int stm)
{
    tc_position_clear(p);
    for (int i = 0; i < k; i++)
        tc_put_piece(p, cells[i], pieces[i]);
    p->side = stm;
    p->castle = 0;
    p->ep = p->ep_victim = -1;
    p->ep_hashed = false;
    p->halfmove = 0;
    p->fullmove = 1;
    p->key = tc_compute_key(p);
}

static void decode(uint64_t idx, int n, int k, int *cells, int *stm)
{
    for (int i = k - 1; i >= 0; i--) {
        cells[i] = (int)(idx % (uint64_t)n);
        idx /= (uint64_t)n;
    }
    *stm = (int)idx;
}

static uint64_t encode(const int *cells, int n, int k, int stm)
{
    uint64_t idx = (uint64_t)stm;
    for (int i = 0; i < k; i++)
        idx = idx * (uint64_t)n + (uint64_t)cells[i];
    return idx;
}

/* The table of the pieces left when piece j is taken, solved on demand. */
static egref_table *sub_table(egref_set *s, const int *pieces, int k, int j);

static egref_table *solve(egref_set *s, const int *pieces, int k)
{
    egref_table *t = calloc(1, sizeof *t);
    t->k = k;
    memcpy(t->pieces, pieces, sizeof(int) * (size_t)k);
    int n = tc_variant_cells(s->v);
    t->size = 2 * ipow(n, k);
    t->val = malloc(sizeof *t->val * t->size);
    s->tables[s->ntables++] = t;

    egref_table *subs[4] = {NULL};
    for (int j = 0; j < k; j++)
        if (TC_TYPE(pieces[j]) != TC_KING)
            subs[j] = sub_table(s, pieces, k, j);

    /* children of every legal position: (table, index) pairs */
    uint64_t *off = calloc(t->size + 1, sizeof *off);
    size_t cap = 1 << 16, used = 0;
    egref_table **ct = malloc(sizeof *ct * cap);
    uint64_t *ci = malloc(sizeof *ci * cap);
    tc_position *p = tc_position_new(s->v);
    tc_movelist *list = malloc(sizeof *list);
    for (uint64_t idx = 0; idx < t->size; idx++) {
        int cells[4], stm;
        decode(idx, n, k, cells, &stm);
        off[idx] = used;
        t->val[idx] = EGREF_ILLEGAL;
        bool clash = false;
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++)
                clash |= cells[i] == cells[j];
        if (clash)
            continue;
        egref_place(p, pieces, cells, k, stm);
        if (tc_attacked(p, tc_king_cell(p, !stm), stm))
            continue;
        int nm = tc_generate_legal(p, list);
        t->val[idx] = nm == 0 && tc_in_check(p) ? 0 : EGREF_UNKNOWN;
        for (int m = 0; m < nm; m++) {
            int from = TC_MOVE_FROM(list->moves[m]), to = TC_MOVE_TO(list->moves[m]);
            int moved = -1, taken = -1;
            for (int i = 0; i < k; i++) {
                if (cells[i] == from)
                    moved = i;
                if (cells[i] == to)
                    taken = i;
            }
            int nc[4], nk = 0;
            for (int i = 0; i < k; i++)
                if (i != taken)
                    nc[nk++] = i == moved ? to : cells[i];
            if (used == cap) {
                cap *= 2;
                ct = realloc(ct, sizeof *ct * cap);
                ci = realloc(ci, sizeof *ci * cap);
            }
            ct[used] = taken >= 0 ? subs[taken] : t;
            ci[used++] = encode(nc, n, nk, !stm);
        }
    }
    off[t->size] = used;
    free(list);
    tc_position_free(p);

    /* round d decides the positions whose distance is exactly d */
    int sub_max = 0;
    for (uint64_t c = 0; c < used; c++)
        if (ct[c] != t && ct[c]->val[ci[c]] > sub_max)
            sub_max = ct[c]->val[ci[c]];
    int16_t *next = malloc(sizeof *next * t->size);
    for (int d = 1; d <= EGREF_MAX_PLIES; d++) {
        memcpy(next, t->val, sizeof *next * t->size);
        bool changed = false;
        for (uint64_t idx = 0; idx < t->size; idx++) {
            if (t->val[idx] != EGREF_UNKNOWN)
                continue;
            bool win = false, all_won = off[idx + 1] > off[idx];
            int longest = -1;
            for (uint64_t c = off[idx]; c < off[idx + 1]; c++) {
                int cv = ct[c]->val[ci[c]];
                if (cv >= 0 && (cv & 1) == 0 && cv == d - 1)
                    win = true;
                if (cv >= 0 && (cv & 1) == 1) {
                    if (cv > longest)
                        longest = cv;
                } else
                    all_won = false;
            }
            if (win)
                next[idx] = (int16_t)d;
            else if (all_won && longest + 1 == d)
                next[idx] = (int16_t)d;
            changed |= next[idx] != t->val[idx];
        }
        memcpy(t->val, next, sizeof *next * t->size);
        if (!changed && d > sub_max + 1)
            break;
    }
    free(next);
    free(off);
    free(ct);
    free(ci);
    return t;
}

static egref_table *sub_table(egref_set *s, const int *pieces, int k, int j)
{
    int rest[4], nk = 0;
    for (int i = 0; i < k; i++)
        if (i != j)
            rest[nk++] = pieces[i];
    for (int i = 0; i < s->ntables; i++)
        if (s->tables[i]->k == nk && !memcmp(s->tables[i]->pieces, rest, sizeof(int) * (size_t)nk))
            return s->tables[i];
    return solve(s, rest, nk);
}

egref_table *egref_solve(egref_set *s, const tc_variant *v, const int *pieces, int k)
{
    memset(s, 0, sizeof *s);
    s->v = v;
    return solve(s, pieces, k);
}

void egref_free(egref_set *s)
{
    for (int i = 0; i < s->ntables; i++) {
        free(s->tables[i]->val);
        free(s->tables[i]);
    }
    s->ntables = 0;
}

int egref_value(const egref_table *t, int n, const int *cells, int stm)
{
    return t->val[encode(cells, n, t->k, stm)];
}
