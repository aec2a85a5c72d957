/* The static evaluation: the net's when one is loaded for the board,
 * else the hand-written one (eval.c), or material alone for the material
 * style. A hybrid net's output is a correction added to the hand-written
 * evaluation. The search calls engine_static_eval; tc_engine_evaluate is the
 * public view of the root. Its own file so that the search and the engine
 * object each call it without calling each other. */
#include "search.h"

#include <assert.h>

/* A net's centipawns stay clear of the mate scores. */
#define NET_EVAL_LIMIT (MATE_BOUND - 1000)

static int net_clamp(int cp) { return cp > NET_EVAL_LIMIT ? NET_EVAL_LIMIT : cp < -NET_EVAL_LIMIT ? -NET_EVAL_LIMIT : cp; }

int engine_static_eval(search_thread *t)
{
    if (t->e->style & TC_STYLE_MATERIAL)
        return eval_material(t->pos);
    if (t->nn) {
        int cp = nnue_evaluate(t->nn, t->pos);
#ifdef TC_DEBUG
        /* debug builds (make sanitize): the accumulator the search kept
         * through its moves gives what a refresh gives */
        assert(cp == nnue_evaluate_fresh(t->e->net, t->pos, t->nn->simd));
#endif
        if (t->e->net->hybrid)
            cp += eval_position(t->e->et, t->pos);
        return net_clamp(cp);
    }
    return eval_position(t->e->et, t->pos);
}

int tc_engine_evaluate_parts(tc_engine *e, int *hand, int *net)
{
    int h = 0, n = 0, total;
    if (e->style & TC_STYLE_MATERIAL) {
        total = eval_material(e->root);
    } else if (e->net) {
        n = nnue_evaluate_fresh(e->net, e->root, nnue_simd_best());
        h = e->net->hybrid ? eval_position(e->et, e->root) : 0;
        total = net_clamp(h + n);
    } else {
        total = h = eval_position(e->et, e->root);
    }
    if (hand)
        *hand = h;
    if (net)
        *net = n;
    return total;
}

int tc_engine_evaluate(tc_engine *e) { return tc_engine_evaluate_parts(e, NULL, NULL); }

int tc_engine_net_is_hybrid(const tc_engine *e) { return e->net && e->net->hybrid; }
