/* libFuzzer target: move text on fixed positions of several presets. A
 * parsed move must be legal and make/unmake cleanly; tc_play_moves must
 * leave the position unchanged when it fails. */
#include "spots.h"
#include "topochess.h"

#include <stdlib.h>
#include <string.h>

static const spot spots[] = {
    {"chess", NULL},
    {"chess", "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1"},
    {"chess", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1"},
    {"cylinder", "4k3/8/8/8/8/7p/P7/4K3 w - - 0 1"},
    {"folding", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
    {"monteiro-cylinder", "8/8/8/7k/8/3P4/8/3P4/8/8/8/8/8/7K w - - 0 1"},
    {"mobius", NULL},
    {"mobius", "PPPPPPPP/8/8/3P4/4p3/pppp1ppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2"},
    {"klein-bottle", NULL},
    {"torus", "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"},
};
#define NSPOTS (sizeof spots / sizeof spots[0])

static tc_variant *variants[NSPOTS];
static tc_position *pos[NSPOTS];
static tc_movelist *list;
static int ready;

static void init(void)
{
    list = malloc(sizeof *list);
    if (!list)
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
        tc_error err;
        char before[1024], after[1024];
        tc_position_fen(p, before, sizeof before);
        uint64_t key = tc_key(p);
        tc_move m = 0;
        if (tc_move_parse(p, text, &m, &err) == 0) {
            int n = tc_generate_legal(p, list), found = 0;
            for (int k = 0; k < n; k++)
                found |= list->moves[k] == m;
            if (!found || !tc_is_legal(p, m))
                abort(); /* parsed to a move that is not legal */
            char san[32], uci[32];
            tc_move_to_san(p, m, san);
            tc_move_to_uci(p, m, uci);
            tc_move back;
            if (tc_move_parse(p, san, &back, &err) || back != m)
                abort(); /* its SAN does not parse back */
            tc_make_move(p, m);
            tc_unmake_move(p);
        } else if (!err.msg[0]) {
            abort(); /* refused without a message */
        }
        tc_position_fen(p, after, sizeof after);
        if (strcmp(before, after) != 0 || tc_key(p) != key)
            abort();
        /* the whole input as a move list, taken back afterwards */
        int ply = tc_ply_count(p);
        if (tc_play_moves(p, text, &err) == 0) {
            while (tc_ply_count(p) > ply)
                tc_unmake_move(p);
        } else if (tc_ply_count(p) != ply) {
            abort(); /* a failed list left moves behind */
        }
        tc_position_fen(p, after, sizeof after);
        if (strcmp(before, after) != 0 || tc_key(p) != key)
            abort();
    }
    free(text);
    return 0;
}
