/* The accumulator (two perspectives, each with its own weights) kept up to
 * date move by move, and the layers that turn it into centipawns. */
#include "kernels.h"
#include "nnue.h"

#include <stdlib.h>

nnue_state *nnue_state_new(const nnue_net *net, int plies)
{
    nnue_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->net = net;
    s->simd = nnue_simd_best();
    s->cap = plies + 1;
    size_t bytes = (size_t)s->cap * 2 * (size_t)net->H * sizeof *s->acc;
    s->acc = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    s->delta = malloc(sizeof *s->delta * (size_t)s->cap);
    s->done = calloc((size_t)s->cap, sizeof *s->done);
    if (!s->acc || !s->delta || !s->done) {
        nnue_state_free(s);
        return NULL;
    }
    return s;
}

void nnue_state_free(nnue_state *s)
{
    if (!s)
        return;
    free(s->acc);
    free(s->delta);
    free(s->done);
    free(s);
}

int nnue_state_set_simd(nnue_state *s, int level)
{
    if (!nnue_simd_available(level))
        return -1;
    s->simd = level;
    return 0;
}

/* The feature-transformer row of a piece on a cell in perspective p. */
static inline const int16_t *row(const nnue_net *n, int persp, int piece, int cell)
{
    int f = ((TC_COLOUR(piece) == persp ? 0 : 6) + TC_TYPE(piece) - 1) * n->cells + cell;
    return n->ft_weight + ((size_t)persp * n->in + (size_t)f) * n->H;
}

/* acc[2][H] from every piece of p. */
static void refresh_into(const nnue_net *n, int simd, const tc_position *p, int16_t *acc)
{
    const int16_t *rows[TC_MAX_CELLS];
    for (int persp = 0; persp < 2; persp++) {
        int k = 0;
        for (int c = 0; c < n->cells; c++)
            if (p->board[c])
                rows[k++] = row(n, persp, p->board[c], c);
        nnue_k_update(simd, acc + persp * n->H, n->ft_bias + persp * n->H, rows, k, NULL, 0, n->H);
    }
}

void nnue_refresh(nnue_state *s, const tc_position *p)
{
    s->top = s->over = 0;
    refresh_into(s->net, s->simd, p, s->acc);
    s->done[0] = true;
}

/* Entry i from entry i - 1 and the move's delta. */
static void apply_delta(nnue_state *s, int i)
{
    const nnue_net *n = s->net;
    const nnue_delta *d = &s->delta[i];
    int16_t *next = s->acc + (size_t)i * 2 * n->H, *prev = next - 2 * n->H;
    for (int persp = 0; persp < 2; persp++) {
        const int16_t *add[4], *sub[4];
        int na = 0, ns = 0;
        for (int k = 0; k < d->n; k++) {
            if (d->before[k])
                sub[ns++] = row(n, persp, d->before[k], d->cell[k]);
            if (d->after[k])
                add[na++] = row(n, persp, d->after[k], d->cell[k]);
        }
        nnue_k_update(s->simd, next + persp * n->H, prev + persp * n->H, add, na, sub, ns, n->H);
    }
    s->done[i] = true;
}

/* The top entry, computed: from the nearest computed entry below it. */
static const int16_t *current(nnue_state *s)
{
    int i = s->top;
    while (!s->done[i])
        i--; /* entry 0 is always computed */
    while (i < s->top)
        apply_delta(s, ++i);
    return s->acc + (size_t)s->top * 2 * s->net->H;
}

const int16_t *nnue_accumulator(nnue_state *s) { return current(s); }

void nnue_make(nnue_state *s, tc_position *p, tc_move m)
{
    const tc_variant *v = p->v;
    int us = p->side, kind = TC_MOVE_KIND(m);
    /* the cells the move can touch, and what stood on them */
    int cells[4], old[4], nc = 0;
    int cand[4] = {TC_MOVE_FROM(m), TC_MOVE_TO(m), -1, -1};
    if (kind == TC_MOVE_EP)
        cand[2] = p->ep_victim;
    else if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q) {
        int side = kind == TC_MOVE_CASTLE_Q;
        cand[1] = v->castle_king_to[us][side];
        cand[2] = v->castle_rook[us][side];
        cand[3] = v->castle_rook_to[us][side];
    }
    for (int i = 0; i < 4; i++) {
        bool seen = cand[i] < 0;
        for (int j = 0; j < nc && !seen; j++)
            seen = cells[j] == cand[i];
        if (!seen) {
            cells[nc] = cand[i];
            old[nc++] = p->board[cand[i]];
        }
    }
    tc_make_move(p, m);
    if (s->over || s->top + 1 >= s->cap) {
        s->over++; /* evaluated by a refresh until taken back */
        return;
    }
    s->top++;
    nnue_delta *d = &s->delta[s->top];
    int changes = 0;
    d->n = 0;
    for (int i = 0; i < nc; i++) {
        int now = p->board[cells[i]];
        if (old[i] == now)
            continue;
        d->cell[d->n] = (int16_t)cells[i];
        d->before[d->n] = (uint8_t)old[i];
        d->after[d->n++] = (uint8_t)now;
        changes += (old[i] != 0) + (now != 0);
    }
    /* a refresh reads every piece: cheaper when the move changes more (it
     * needs this position, so it is done now) */
    if (changes > bits_count(&p->occ[0]) + bits_count(&p->occ[1])) {
        refresh_into(s->net, s->simd, p, s->acc + (size_t)s->top * 2 * s->net->H);
        s->done[s->top] = true;
    } else
        s->done[s->top] = false;
}

void nnue_unmake(nnue_state *s, tc_position *p)
{
    tc_unmake_move(p);
    if (s->over)
        s->over--;
    else if (s->top > 0)
        s->top--;
    else
        nnue_refresh(s, p); /* taken back beyond the last refresh */
}

/* A null move changes no piece: the accumulator stands. */
void nnue_make_null(nnue_state *s, tc_position *p)
{
    (void)s;
    tc_make_null(p);
}

void nnue_unmake_null(nnue_state *s, tc_position *p)
{
    (void)s;
    tc_unmake_null(p);
}

/* The layers over an accumulator, for the side to move `us`. */
static int forward(const nnue_net *n, int simd, const int16_t *acc, int us)
{
    _Alignas(64) uint8_t a0[2 * 1024];
    _Alignas(64) uint8_t a1[64], a2[64];
    int32_t z[64];
    nnue_k_clamp(simd, acc + us * n->H, a0, n->H);
    nnue_k_clamp(simd, acc + (1 - us) * n->H, a0 + n->H, n->H);
    nnue_k_layer(simd, a0, 2 * n->H, n->l1_weight, n->l1_bias, n->L1, z);
    for (int i = 0; i < n->L1; i++) {
        int32_t x = z[i] >> 6; /* arithmetic: floor division by 64 */
        a1[i] = (uint8_t)(x < 0 ? 0 : x > 127 ? 127 : x);
    }
    nnue_k_layer(simd, a1, n->L1, n->l2_weight, n->l2_bias, n->L2, z);
    for (int i = 0; i < n->L2; i++) {
        int32_t x = z[i] >> 6;
        a2[i] = (uint8_t)(x < 0 ? 0 : x > 127 ? 127 : x);
    }
    uint32_t out = (uint32_t)n->out_bias;
    for (int i = 0; i < n->L2; i++)
        out += (uint32_t)((int32_t)a2[i] * n->out_weight[i]);
    return (int)((int64_t)(int32_t)out * n->scale / (127 * 64));
}

int nnue_evaluate(nnue_state *s, const tc_position *p)
{
    if (s->over)
        return nnue_evaluate_fresh(s->net, p, s->simd);
    return forward(s->net, s->simd, current(s), p->side);
}

int nnue_evaluate_fresh(const nnue_net *net, const tc_position *p, int simd)
{
    _Alignas(64) int16_t acc[2 * 1024];
    refresh_into(net, simd, p, acc);
    return forward(net, simd, acc, p->side);
}
