/* Who can still mate, the flag rule of FIDE 6.9 (tc_dead_can_mate): the
 * one-sided help-mate pass against deadref's one-sided forward search. */
#include "dead_sample.h"
#include "deadref.h"
#include "harness.h"
#include "topochess_endgame.h"

#include <stdlib.h>
#include <string.h>

/* Who can still mate (the flag rule, tc_dead_can_mate) on random boards,
 * each side against a forward search of the other's checkmates only; the
 * two-sided verdict is the union of the one-sided ones. */
void suite_dead_side(void)
{
    static const char *const materials[] = {"KBKN", "KNKN", "KQKN", "KRKB", "KRK", "KNNK", "KBKB"};
    int boards = th_sanitize() ? 2 : 3;
    uint64_t seed = 0xf1a9f1a9ull;
    int yes = 0, no = 0, made = 0, differ = 0;
    th_case("dead: who can still mate (a flag's rule) agrees with a one-sided forward search on random boards");
    for (int b = 0; b < boards; b++) {
        char name[64];
        tc_variant *v = dead_random_board(&seed, name, sizeof name);
        tc_error err;
        tc_dead_table *d = v ? tc_dead_table_new(v, &err) : NULL;
        made += d != NULL;
        for (size_t m = 0; d && m < sizeof materials / sizeof materials[0]; m++)
            for (int k = 0; k < 2; k++) {
                tc_position *p = dead_random_position(v, materials[m], &seed);
                if (!p)
                    continue;
                char fen[800];
                int got[2];
                tc_position_fen(p, fen, sizeof fen);
                for (int side = 0; side < 2; side++) {
                    size_t seen;
                    int want = deadref_reach_mate_of(p, !side, 2000000, &seen);
                    got[side] = tc_dead_can_mate(d, p, side);
                    CHECK(want != DEADREF_UNKNOWN && got[side] == (want == DEADREF_ALIVE), "%s %s: %s can mate: "
                          "the library %d, the search %d", name, fen, side ? "Black" : "White", got[side], want);
                    yes += got[side] == 1;
                    no += got[side] == 0;
                }
                int dead = tc_dead_position(d, p);
                CHECK(dead == !(got[0] || got[1]), "%s %s: dead %d, but White %d and Black %d", name, fen, dead,
                      got[0], got[1]);
                differ += got[0] != got[1] && !dead;
                tc_position_free(p);
            }
        tc_dead_table_free(d);
        tc_variant_free(v);
    }
    CHECK(made >= boards / 2 && yes > 0 && no > 0 && differ > 0,
          "%d boards, %d sides can mate, %d cannot, %d live positions where only one side can", made, yes, no,
          differ);
    th_case("dead: who can still mate: a king alone never; beyond the tables not known");
    tc_variant *chess = th_variant("chess");
    tc_error err;
    tc_dead_table *d = chess ? tc_dead_table_new(chess, &err) : NULL;
    tc_position *p = chess ? tc_position_new(chess) : NULL;
    CHECK(p && !tc_position_set_fen(p, "8/8/8/4k3/8/8/3QK3/8 b - - 0 1", &err), "fen");
    CHECK(tc_dead_can_mate(d, p, TC_BLACK) == 0 && tc_dead_can_mate(d, p, TC_WHITE) == 1, "K+Q v K: %d %d",
          tc_dead_can_mate(d, p, TC_WHITE), tc_dead_can_mate(d, p, TC_BLACK));
    CHECK(p && !tc_position_set_fen(p, "kr6/8/1K6/3N4/8/8/8/8 w - - 0 1", &err), "fen");
    CHECK(tc_dead_can_mate(d, p, TC_WHITE) == 1 && tc_dead_can_mate(d, p, TC_BLACK) == 1,
          "K+N v K+R: the knight mates with the rook's help (1.Nc7#), the rook mates too: %d %d",
          tc_dead_can_mate(d, p, TC_WHITE), tc_dead_can_mate(d, p, TC_BLACK));
    CHECK(p && !tc_position_set_fen(p, "8/8/8/4k3/8/4P3/3NK3/8 w - - 0 1", &err), "fen");
    CHECK(tc_dead_can_mate(d, p, TC_WHITE) == -1 && tc_dead_can_mate(d, p, TC_BLACK) == 0,
          "a pawn: not known for White (%d), a bare king for Black", tc_dead_can_mate(d, p, TC_WHITE));
    CHECK(tc_dead_can_mate(d, p, 2) == -1 && tc_dead_can_mate(NULL, p, TC_WHITE) == -1, "bad arguments");
    tc_position_free(p);
    tc_dead_table_free(d);
    tc_variant_free(chess);
}

