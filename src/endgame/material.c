/* Materials: parsing and normalising ending names ("KQKR", White the
 * stronger side), and the set of tables an ending needs (itself and every
 * ending its captures reach, smaller ones first). */
#include "egtb.h"

#include <stdlib.h>

static int type_of(char c)
{
    switch (c) {
    case 'Q': return TC_QUEEN;
    case 'R': return TC_ROOK;
    case 'B': return TC_BISHOP;
    case 'N': return TC_KNIGHT;
    default: return 0;
    }
}

static const char type_letter[] = " PNBRQK";

int eg_material(const char *name, eg_table *t, tc_error *err)
{
    size_t len = strlen(name);
    memset(t, 0, sizeof *t);
    if (len < 2 || name[0] != 'K') {
        tc_set_error(err, "ending '%s': must start with White's K, like KRK or KQKR", name);
        return -1;
    }
    const char *second = strchr(name + 1, 'K');
    if (!second) {
        tc_set_error(err, "ending '%s': no K for Black's king", name);
        return -1;
    }
    int k = 2;
    t->colour[0] = TC_WHITE, t->type[0] = TC_KING;
    t->colour[1] = TC_BLACK, t->type[1] = TC_KING;
    for (const char *s = name + 1; *s; s++) {
        if (s == second)
            continue;
        int ty = type_of(*s);
        if (!ty) {
            tc_set_error(err, "ending '%s': '%c' is not one of Q R B N%s", name, *s,
                         *s == 'P' ? " (only pawnless endings are solved)" : "");
            return -1;
        }
        if (k == EG_MAXP) {
            tc_set_error(err, "ending '%s': more than %d pieces", name, EG_MAXP);
            return -1;
        }
        t->colour[k] = s < second ? TC_WHITE : TC_BLACK;
        t->type[k++] = ty;
    }
    t->k = k;
    /* Q R B N order within each side */
    for (int i = 2; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (t->colour[j] < t->colour[i] ||
                (t->colour[j] == t->colour[i] && t->type[j] > t->type[i])) {
                int c = t->colour[i], y = t->type[i];
                t->colour[i] = t->colour[j], t->type[i] = t->type[j];
                t->colour[j] = c, t->type[j] = y;
            }
    int n = 0;
    t->name[n++] = 'K';
    for (int i = 2; i < k; i++)
        if (t->colour[i] == TC_WHITE)
            t->name[n++] = type_letter[t->type[i]];
    t->name[n++] = 'K';
    for (int i = 2; i < k; i++)
        if (t->colour[i] == TC_BLACK)
            t->name[n++] = type_letter[t->type[i]];
    t->name[n] = '\0';
    t->twin = k == 4 && t->colour[2] == t->colour[3] && t->type[2] == t->type[3];
    return 0;
}

/* Which side is stronger: more pieces, then the better pieces in order. */
static int side_rank(const char *side)
{
    static const char order[] = "QRBN";
    int r = (int)strlen(side) * 10000;
    for (int i = 1; side[i] && i < 4; i++)
        r += (4 - (int)(strchr(order, side[i]) - order)) * (i == 1 ? 1000 : i == 2 ? 100 : 10);
    return r;
}

int tc_egtb_normalise(const char *ending, char *buf, tc_error *err)
{
    eg_table t;
    if (!ending || strlen(ending) > 7) {
        tc_set_error(err, "ending '%s': too long", ending ? ending : "");
        return -1;
    }
    if (eg_material(ending, &t, err))
        return -1;
    const char *second = strchr(t.name + 1, 'K');
    char w[8], b[8];
    snprintf(w, sizeof w, "%.*s", (int)(second - t.name), t.name);
    snprintf(b, sizeof b, "%s", second);
    char out[16];
    if (side_rank(b) > side_rank(w))
        snprintf(out, sizeof out, "%s%s", b, w);
    else
        snprintf(out, sizeof out, "%s%s", w, b);
    memcpy(buf, out, 8); /* at most 4 pieces: 7 letters */
    buf[7] = '\0';
    return 0;
}

static eg_table *set_find(tc_egtb *set, const char *name)
{
    for (int i = 0; i < set->ntables; i++)
        if (!strcmp(set->tables[i]->name, name))
            return set->tables[i];
    return NULL;
}

/* The name of the material left when piece j is taken. */
static void name_without(const eg_table *t, int j, char *buf)
{
    int n = 0;
    buf[n++] = 'K';
    for (int i = 2; i < t->k; i++)
        if (i != j && t->colour[i] == TC_WHITE)
            buf[n++] = type_letter[t->type[i]];
    buf[n++] = 'K';
    for (int i = 2; i < t->k; i++)
        if (i != j && t->colour[i] == TC_BLACK)
            buf[n++] = type_letter[t->type[i]];
    buf[n] = '\0';
}

eg_table *eg_set_add(tc_egtb *set, const char *name, tc_error *err)
{
    char norm[8];
    if (tc_egtb_normalise(name, norm, err))
        return NULL;
    eg_table *have = set_find(set, norm);
    if (have)
        return have;
    eg_table *t = calloc(1, sizeof *t);
    if (!t) {
        tc_set_error(err, "out of memory");
        return NULL;
    }
    eg_material(norm, t, err);
    for (int j = 2; j < t->k; j++) {
        char left[8], sub_norm[8];
        name_without(t, j, left);
        eg_table *s = eg_set_add(set, left, err);
        tc_egtb_normalise(left, sub_norm, err);
        if (!s) {
            free(t);
            return NULL;
        }
        t->sub[j] = s;
        t->sub_swap[j] = strcmp(left, sub_norm) != 0;
        /* match the sub table's pieces with the parent's survivors */
        bool taken[EG_MAXP] = {false};
        taken[j] = true;
        for (int i = 0; i < s->k; i++) {
            int want_colour = s->colour[i] ^ (t->sub_swap[j] ? 1 : 0);
            t->sub_map[j][i] = -1;
            for (int q = 0; q < t->k; q++)
                if (!taken[q] && t->colour[q] == want_colour && t->type[q] == s->type[i]) {
                    t->sub_map[j][i] = q;
                    taken[q] = true;
                    break;
                }
        }
    }
    if (set->ntables == EG_MAX_TABLES) {
        free(t);
        tc_set_error(err, "too many endings");
        return NULL;
    }
    set->tables[set->ntables++] = t;
    return t;
}


int tc_egtb_material_of(const tc_position *p, char *name)
{
    tc_bits all = p->occ[0];
    bits_or(&all, &p->occ[1]);
    if (bits_count(&all) > TC_EGTB_MAX_PIECES || bits_any(&p->pieces[TC_PIECE(0, TC_PAWN)]) ||
        bits_any(&p->pieces[TC_PIECE(1, TC_PAWN)]))
        return 0;
    static const char letters[] = "QRBN";
    static const int types[] = {TC_QUEEN, TC_ROOK, TC_BISHOP, TC_KNIGHT};
    int n = 0;
    for (int col = 0; col < 2; col++) {
        name[n++] = 'K';
        for (int i = 0; i < 4; i++)
            for (int k = bits_count(&p->pieces[TC_PIECE(col, types[i])]); k > 0; k--)
                name[n++] = letters[i];
    }
    name[n] = '\0';
    return 1;
}
