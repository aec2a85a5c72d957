/* libFuzzer target: FEN input on every preset. A FEN that is accepted must
 * print as a FEN that reads back to the same FEN and key; a FEN that is
 * refused must leave the position as it was; every legal move must make
 * and unmake cleanly. */
#include "topochess.h"

#include <stdlib.h>
#include <string.h>

#define NV 16

static tc_variant *variants[NV];
static tc_position *pos[NV], *copy[NV];
static tc_movelist *list;
static int nv;

static void init(void)
{
    list = malloc(sizeof *list);
    for (int i = 0; i < tc_preset_count() && nv < NV; i++) {
        tc_error err;
        tc_variant *v = tc_variant_new(tc_preset(i), &err);
        if (!v)
            abort();
        variants[nv] = v;
        pos[nv] = tc_position_new(v);
        copy[nv] = tc_position_new(v);
        nv++;
    }
    if (!list)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!nv)
        init();
    char *fen = malloc(size + 1);
    if (!fen)
        return 0;
    memcpy(fen, data, size);
    fen[size] = '\0';
    for (int i = 0; i < nv; i++) {
        tc_position *p = pos[i], *q = copy[i];
        tc_error err;
        char before[1024], f1[1024], f2[1024];
        tc_position_reset(p);
        tc_position_fen(p, before, sizeof before);
        if (tc_position_set_fen(p, fen, &err)) {
            tc_position_fen(p, f1, sizeof f1);
            if (strcmp(before, f1) != 0 || !err.msg[0])
                abort(); /* a refused FEN changed the position, or no message */
            continue;
        }
        tc_position_fen(p, f1, sizeof f1);
        if (tc_position_set_fen(q, f1, &err))
            abort(); /* the printed FEN is refused */
        tc_position_fen(q, f2, sizeof f2);
        if (strcmp(f1, f2) != 0 || tc_key(p) != tc_key(q))
            abort(); /* the round trip is not stable */
        int n = tc_generate_legal(p, list);
        for (int k = 0; k < n; k++) {
            tc_make_move(p, list->moves[k]);
            tc_unmake_move(p);
        }
        tc_position_fen(p, f2, sizeof f2);
        if (strcmp(f1, f2) != 0 || tc_key(p) != tc_key(q))
            abort(); /* make/unmake did not restore the position */
        (void)tc_position_status(p);
    }
    free(fen);
    return 0;
}
