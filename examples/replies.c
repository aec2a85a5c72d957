/* Loads klein-bottle, plays d12 and lists Black's legal replies in SAN. */
#include <stdio.h>
#include <topochess.h>

int main(void)
{
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find("klein-bottle", &def, &err)) return 1;
    tc_variant *v = tc_variant_new(&def, &err);
    tc_position *pos = tc_position_new(v);
    if (tc_play_moves(pos, "d12", &err)) { fprintf(stderr, "%s\n", err.msg); return 1; }
    tc_movelist moves;
    tc_generate_legal(pos, &moves);
    for (int i = 0; i < moves.count; i++) {
        char san[32];
        tc_move_to_san(pos, moves.moves[i], san);
        printf("%s%c", san, i + 1 < moves.count ? ' ' : '\n');
    }
    tc_position_free(pos);
    tc_variant_free(v);
    return 0;
}
