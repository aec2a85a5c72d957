/* Puzzles from a solved table: a walk over the main table in an order fixed
 * by the seed, keeping the positions that pass the criteria of
 * docs/puzzles.md ("Selection"), one per class of the board's symmetries,
 * each with its accepted first moves and its main line. */
#include "egtb.h"
#include "topochess_puzzle.h"

#include <stdlib.h>

void tc_puzzle_options_default(tc_puzzle_options *o)
{
    memset(o, 0, sizeof *o);
    o->min_mate = 3;
    o->max_mate = 15;
    o->max_best = 1;
}

/* splitmix64: a small generator whose sequence depends on the seed only. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/// What a generation run shares: the options, the board's symmetries for
/// the duplicate test, and scratch positions.
typedef struct gen_ctx {
    const tc_egtb *t;
    const tc_puzzle_options *o;
    tc_symmetry *sym;
    int nsym;
    tc_position *pos, *image;
    uint64_t *keys; /* the smallest key over the symmetries of each puzzle kept */
    int nkeys;
} gen_ctx;

/* The smallest Zobrist key over the images of p: the same for every
 * position of one symmetry class (0 when a symmetry does not apply). */
static uint64_t class_key(gen_ctx *g)
{
    uint64_t best = tc_key(g->pos);
    for (int i = 0; i < g->nsym; i++) {
        tc_error err;
        if (tc_symmetry_apply(&g->sym[i], g->pos, g->image, &err))
            continue;
        uint64_t k = tc_key(g->image);
        if (k < best)
            best = k;
    }
    return best;
}

/* A piece of the side to move that the other side attacks and no piece of
 * its own defends: the first move would only rescue it. */
static int hanging_piece(const tc_position *p)
{
    const tc_variant *v = tc_position_variant(p);
    int us = tc_side_to_move(p);
    for (int c = 0; c < tc_variant_cells(v); c++) {
        int pc = tc_piece_at(p, c);
        if (pc && TC_COLOUR(pc) == us && TC_TYPE(pc) != TC_KING && tc_attacked(p, c, !us) && !tc_attacked(p, c, us))
            return 1;
    }
    return 0;
}

/* Plays the main line from the puzzle's position: the winner's first best
 * move, the tables' defence; 0 when it ends in checkmate after exactly
 * 2 * mate_in - 1 plies. p is left as it was. */
static int main_line(const tc_egtb *t, tc_position *p, tc_puzzle *z)
{
    int played = 0, ok = -1;
    while (played < TC_PUZZLE_MAX_LINE) {
        tc_status st = tc_position_status(p);
        if (st != TC_ONGOING) {
            ok = st == TC_CHECKMATE && played == 2 * z->mate_in - 1 ? 0 : -1;
            break;
        }
        tc_move m = 0;
        if (tc_side_to_move(p) == z->side) {
            if (tc_puzzle_best_moves(t, p, &m, 1) < 1)
                break;
        } else {
            tc_egtb_result r;
            m = tc_egtb_best_move(t, p, &r);
        }
        if (!m)
            break;
        tc_move_to_san(p, m, z->line_san[played]);
        tc_move_to_uci(p, m, z->line_uci[played]);
        tc_make_move(p, m);
        played++;
    }
    for (int i = 0; i < played; i++)
        tc_unmake_move(p);
    z->nline = ok ? 0 : played;
    return ok;
}

/* The criteria of docs/puzzles.md for the position in g->pos; fills z. */
static int select_position(gen_ctx *g, const char *fen, tc_puzzle *z)
{
    const tc_puzzle_options *o = g->o;
    tc_position *p = g->pos;
    tc_error err;
    if (tc_position_set_fen(p, fen, &err))
        return 0;
    tc_egtb_result r;
    if (tc_egtb_probe(g->t, p, &r) || r.wdl <= 0)
        return 0;
    int mate_in = (r.plies + 1) / 2;
    if (mate_in < o->min_mate || mate_in > o->max_mate)
        return 0;
    if (!o->allow_check && tc_in_check(p))
        return 0;
    if (hanging_piece(p))
        return 0;
    tc_move best[TC_PUZZLE_MAX_ACCEPTED];
    int nbest = tc_puzzle_best_moves(g->t, p, best, TC_PUZZLE_MAX_ACCEPTED);
    if (nbest < 1 || nbest > o->max_best)
        return 0;
    for (int i = 0; i < nbest; i++)
        if (tc_piece_at(p, TC_MOVE_TO(best[i])))
            return 0; /* a capture at once decides nothing */
    uint64_t key = class_key(g);
    for (int i = 0; i < g->nkeys; i++)
        if (g->keys[i] == key)
            return 0;
    memset(z, 0, sizeof *z);
    snprintf(z->variant, sizeof z->variant, "%s", tc_variant_def_of(tc_egtb_variant(g->t))->name);
    tc_egtb_material_of(p, z->material);
    tc_position_fen(p, z->fen, sizeof z->fen);
    z->side = tc_side_to_move(p);
    z->mate_in = mate_in;
    z->naccepted = nbest;
    for (int i = 0; i < nbest; i++) {
        tc_move_to_san(p, best[i], z->accepted_san[i]);
        tc_move_to_uci(p, best[i], z->accepted_uci[i]);
    }
    if (main_line(g->t, p, z))
        return 0;
    tc_puzzle_title(tc_egtb_variant(g->t), z->side, mate_in, z->title, sizeof z->title);
    g->keys[g->nkeys++] = key;
    return 1;
}

int tc_puzzles_generate(const tc_egtb *t, const tc_puzzle_options *o, tc_puzzle *out, int max, tc_error *err)
{
    if (o->min_mate < 1 || o->max_mate < o->min_mate || o->max_mate > (TC_EGTB_MAX_PLIES + 1) / 2) {
        tc_set_error(err, "puzzles: mate distances must run from 1 to %d moves, low to high (got %d..%d)",
                     (TC_EGTB_MAX_PLIES + 1) / 2, o->min_mate, o->max_mate);
        return -1;
    }
    if (o->max_best < 1 || o->max_best > TC_PUZZLE_MAX_ACCEPTED) {
        tc_set_error(err, "puzzles: the number of best moves allowed must be 1 to %d (got %d)",
                     TC_PUZZLE_MAX_ACCEPTED, o->max_best);
        return -1;
    }
    if (max <= 0)
        return 0;
    const tc_variant *v = tc_egtb_variant(t);
    gen_ctx g = {.t = t, .o = o};
    g.nsym = tc_symmetries(v, NULL, 0);
    g.sym = malloc((size_t)g.nsym * sizeof *g.sym);
    g.pos = tc_position_new(v);
    g.image = tc_position_new(v);
    g.keys = malloc((size_t)max * sizeof *g.keys);
    int found = -1;
    if (!g.sym || !g.pos || !g.image || !g.keys) {
        tc_set_error(err, "puzzles: out of memory");
        goto done;
    }
    tc_symmetries(v, g.sym, g.nsym);
    found = 0;
    const eg_board *b = &t->b;
    const eg_table *m = t->main;
    uint64_t size = m->size, state = o->seed;
    /* every entry once, in an order fixed by the seed: a start and a step
     * prime to the size */
    uint64_t at = next_random(&state) % size, step = 1;
    if (size > 2)
        do
            step = 1 + next_random(&state) % (size - 1);
        while (gcd(step, size) != 1);
    for (uint64_t i = 0; i < size && found < max; i++, at = at + step >= size ? at + step - size : at + step) {
        int val = atomic_load_explicit(&m->val[at], memory_order_relaxed);
        if (!eg_is_win(val))
            continue;
        int mate_in = val / 2; /* val - 1 plies, odd */
        if (mate_in < o->min_mate || mate_in > o->max_mate)
            continue;
        uint8_t sq[EG_MAXP];
        int stm;
        eg_decode(b, m, at, &stm, sq);
        char fen[720];
        eg_table_fen(t, m, stm, sq, fen, sizeof fen);
        found += select_position(&g, fen, &out[found]);
    }
done:
    free(g.keys);
    tc_position_free(g.image);
    tc_position_free(g.pos);
    free(g.sym);
    return found;
}
