/* libFuzzer target: tc_explain_move on move text at fixed positions of
 * several presets, plus attack paths and piece lines at a cell chosen by
 * the input. The explanation must agree with tc_move_parse (legal exactly
 * when it parses, to the same move), always carry a message when it
 * refuses, and leave the position unchanged. */
#include "spots.h"
#include "topochess.h"
#include "topochess_explain.h"

#include <stdlib.h>
#include <string.h>

static const spot spots[] = {
    {"chess", NULL},
    {"chess", "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1"},
    {"chess", "4k3/8/8/1N3N2/8/8/8/4K2R w K - 0 1"},
    {"cylinder", "4k3/8/8/8/8/8/8/K1r5 w - - 0 1"},
    {"folding", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
    {"mobius", NULL},
    {"klein-bottle", "PPP1PPPP/8/3P4/8/1p6/p1pppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2"},
    {"torus", "8/8/8/8/8/8/4k3/8/8/8/8/8/8/K3R3 b - - 0 1"},
};
#define NSPOTS (sizeof spots / sizeof spots[0])

static tc_variant *variants[NSPOTS];
static tc_position *pos[NSPOTS];
static tc_explanation *x;
static tc_path_set *set;
static int ready;

static void init(void)
{
    x = malloc(sizeof *x);
    set = malloc(sizeof *set);
    if (!x || !set)
        abort();
    spots_setup(spots, NSPOTS, variants, pos);
    ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        init();
    char *text = spots_text(data, size);
    if (!text)
        return 0;
    for (size_t i = 0; i < NSPOTS; i++) {
        tc_position *p = pos[i];
        char before[1024], after[1024];
        tc_position_fen(p, before, sizeof before);
        uint64_t key = tc_key(p);
        tc_move m = 0;
        tc_error err;
        int parsed = tc_move_parse(p, text, &m, &err) == 0;
        int r = tc_explain_move(p, text, x);
        if (parsed != (r == 0) || (parsed && x->move != m))
            abort(); /* explanation and parser disagree */
        if (r && !x->message[0])
            abort(); /* refused without a reason */
        if (x->ncandidates < 0 || x->ncandidates > TC_EXPLAIN_CANDIDATES || x->attackers.count > TC_PATHS_MAX)
            abort();
        if (size > 0) {
            int cell = data[0] % tc_variant_cells(variants[i]);
            for (int colour = 0; colour < 2; colour++) {
                int n = tc_attack_paths(p, cell, colour, set);
                if ((n > 0) != (tc_attacked(p, cell, colour) != 0))
                    abort(); /* attack paths and the attack test disagree */
            }
            tc_piece_lines(p, cell, size > 1 ? data[1] & 1 : 0, set);
            char buf[600];
            for (int k = 0; k < set->count; k++)
                tc_path_text(variants[i], &set->paths[k], buf, sizeof buf);
        }
        tc_position_fen(p, after, sizeof after);
        if (strcmp(before, after) != 0 || tc_key(p) != key)
            abort();
    }
    free(text);
    return 0;
}
