/* Pieces shared by the UCI and CECP front ends. */
#include "protocols.h"

void proto_moves_text(const tc_position *p, const tc_move *moves, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    tc_position *q = tc_position_clone(p);
    if (!q)
        return;
    for (int i = 0; i < n && tc_is_legal(q, moves[i]); i++) {
        char m[32];
        tc_move_to_uci(q, moves[i], m);
        int w = snprintf(buf + len, size - len, "%s%s", i ? " " : "", m);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
        tc_make_move(q, moves[i]);
    }
    tc_position_free(q);
}

int proto_switch_variant(const tc_variant_def *def, size_t hash_mb, int threads, tc_variant **v,
                         tc_position **pos, tc_engine **eng, tc_error *err)
{
    tc_variant *nv = tc_variant_new(def, err);
    if (!nv)
        return -1;
    tc_position *np = tc_position_new(nv);
    tc_engine *ne = np ? tc_engine_new(nv, hash_mb, threads) : NULL;
    if (!ne) {
        tc_position_free(np);
        tc_variant_free(nv);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    proto_free_game(v, pos, eng);
    *v = nv;
    *pos = np;
    *eng = ne;
    return 0;
}

void proto_free_game(tc_variant **v, tc_position **pos, tc_engine **eng)
{
    /* the engine and the position refer to the variant: it goes last */
    tc_engine_free(*eng);
    tc_position_free(*pos);
    tc_variant_free(*v);
    *eng = NULL;
    *pos = NULL;
    *v = NULL;
}
