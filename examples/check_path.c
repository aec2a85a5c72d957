/* The check of 1. d12 b10+ on the Klein bottle as paths, and the reason
 * that 2. Nf3 is illegal, from include/topochess_explain.h. */
#include <stdio.h>
#include <stdlib.h>
#include <topochess.h>
#include <topochess_explain.h>

int main(void)
{
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find("Klein Bottle", &def, &err)) return 1;
    tc_variant *v = tc_variant_new(&def, &err);
    tc_position *pos = tc_position_new(v);
    if (tc_play_moves(pos, "d12 b10", &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }

    tc_path_set *set = malloc(sizeof *set);  /* large: a path holds up to 256 cells */
    int king = tc_king_cell(pos, TC_WHITE);
    tc_attack_paths(pos, king, TC_BLACK, set);
    for (int i = 0; i < set->count; i++) {
        char from[8], path[600];
        tc_cell_name(v, set->paths[i].from, from);
        tc_path_text(v, &set->paths[i], path, sizeof path);
        printf("%s %s: %s\n", tc_piece_name(set->paths[i].piece), from, path);
    }

    tc_explanation *x = malloc(sizeof *x);
    if (tc_explain_move(pos, "Nf3", x) != 0)
        printf("Nf3: %s\n", x->message);   /* x->attackers holds the same path */
    free(x);
    free(set);
    tc_position_free(pos);
    tc_variant_free(v);
    return 0;
}
