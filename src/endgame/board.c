/* The board as the endgame solver sees it: symmetries found from the step
 * tables, orbits of cells, and attack tables over the variant's rays. */
#include "egtb.h"

#include <stdlib.h>

/// A frame change as a 2x2 matrix acting on (dx, dy); the eight of them are
/// the symmetries of the square.
typedef struct {
    int a, b, c, d;
} frame;

static const frame frames[8] = {
    {1, 0, 0, 1}, {-1, 0, 0, 1}, {1, 0, 0, -1}, {-1, 0, 0, -1},
    {0, 1, 1, 0}, {0, -1, 1, 0}, {0, 1, -1, 0}, {0, -1, -1, 0},
};

static frame frame_mul(frame x, frame y)
{
    frame r = {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
               x.c * y.b + x.d * y.d};
    return r;
}

static int frame_index(frame f)
{
    for (int i = 0; i < 8; i++)
        if (frames[i].a == f.a && frames[i].b == f.b && frames[i].c == f.c && frames[i].d == f.d)
            return i;
    return -1;
}

static int frame_dir(frame f, int dir)
{
    int dx = tc_dir_dx[dir], dy = tc_dir_dy[dir];
    return tc_dir_index(f.a * dx + f.b * dy, f.c * dx + f.d * dy);
}

static frame tf_frame(int tf)
{
    frame f = {(tf & 1) ? -1 : 1, 0, 0, (tf & 2) ? -1 : 1};
    return f;
}

/* Tries the map that sends cell 0 to `to` with frame `f0`, carried along
 * every step: a cell permutation under which steps go to steps (with the
 * frames following the crossings). Returns 1 and fills perm on success. */
static int try_symmetry(const tc_variant *v, int to, int f0, uint8_t *perm)
{
    int n = v->ncells;
    int img[TC_MAX_CELLS], fr[TC_MAX_CELLS], queue[TC_MAX_CELLS], used[TC_MAX_CELLS];
    for (int c = 0; c < n; c++)
        img[c] = -1, used[c] = 0;
    img[0] = to;
    fr[0] = f0;
    used[to] = 1;
    int head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int c = queue[head++];
        frame F = frames[fr[c]];
        for (int d = 0; d < 8; d++) {
            int c1 = v->step_to[c][d];
            int e = frame_dir(F, d);
            int c2 = v->step_to[img[c]][e];
            if ((c1 < 0) != (c2 < 0))
                return 0;
            if (c1 < 0)
                continue;
            /* frame at c1 = T'' F T^-1 (T diagonal, its own inverse) */
            frame nf = frame_mul(tf_frame(v->step_tf[img[c]][e]), frame_mul(F, tf_frame(v->step_tf[c][d])));
            int nfi = frame_index(nf);
            if (img[c1] < 0) {
                if (used[c2])
                    return 0;
                img[c1] = c2;
                fr[c1] = nfi;
                used[c2] = 1;
                queue[tail++] = c1;
            } else if (img[c1] != c2 || fr[c1] != nfi)
                return 0;
        }
    }
    if (tail != n)
        return 0;
    for (int c = 0; c < n; c++)
        perm[c] = (uint8_t)img[c];
    return 1;
}

static int same_set(const uint8_t *a, int na, const uint8_t *b, int nb, const uint8_t *perm)
{
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        int found = 0;
        for (int j = 0; j < nb && !found; j++)
            found = perm[a[i]] == b[j];
        if (!found)
            return 0;
    }
    return 1;
}

/* The moves themselves must map: king and knight sets, and every ray cell
 * by cell onto a ray of the same kind from the image cell. */
static int moves_preserved(const tc_variant *v, const uint8_t *perm)
{
    for (int c = 0; c < v->ncells; c++) {
        int pc = perm[c];
        if (!same_set(v->king[c], v->nking[c], v->king[pc], v->nking[pc], perm) ||
            !same_set(v->knight[c], v->nknight[c], v->knight[pc], v->nknight[pc], perm))
            return 0;
        for (int d = 0; d < 8; d++) {
            const uint8_t *r = v->ray_pool + v->ray_off[c][d];
            int len = v->ray_len[c][d], ok = 0;
            for (int e = d & 1; e < 8 && !ok; e += 2) {
                const uint8_t *q = v->ray_pool + v->ray_off[pc][e];
                if (v->ray_len[pc][e] != len)
                    continue;
                ok = 1;
                for (int i = 0; i < len && ok; i++)
                    ok = perm[r[i]] == q[i];
            }
            if (!ok)
                return 0;
        }
    }
    return 1;
}

static int find_symmetries(eg_board *b)
{
    const tc_variant *v = b->v;
    int n = b->n, cap = 16;
    b->sym = malloc(sizeof *b->sym * (size_t)cap);
    if (!b->sym)
        return -1;
    b->nsym = 0;
    uint8_t perm[TC_MAX_CELLS];
    /* the identity first: cell 0 to itself, plain frame */
    for (int pass = 0; pass < 2; pass++)
        for (int to = 0; to < n; to++)
            for (int f = 0; f < 8; f++) {
                if ((pass == 0) != (to == 0 && f == 0))
                    continue;
                if (!try_symmetry(v, to, f, perm) || !moves_preserved(v, perm))
                    continue;
                int dup = 0;
                for (int s = 0; s < b->nsym && !dup; s++)
                    dup = !memcmp(b->sym[s], perm, (size_t)n);
                if (dup)
                    continue;
                if (b->nsym == cap) {
                    cap *= 2;
                    void *ns = realloc(b->sym, sizeof *b->sym * (size_t)cap);
                    if (!ns)
                        return -1;
                    b->sym = ns;
                }
                memcpy(b->sym[b->nsym++], perm, (size_t)n);
            }
    return b->nsym > 0 ? 0 : -1;
}

static int build_orbits(eg_board *b)
{
    int n = b->n;
    b->nrep = 0;
    for (int c = 0; c < n; c++) {
        int best = c, via = 0;
        for (int s = 0; s < b->nsym; s++)
            if (b->sym[s][c] < best)
                best = b->sym[s][c], via = s;
        b->to_rep[c] = (uint16_t)via;
        b->rep_index[c] = -1;
        if (best == c)
            b->reps[b->nrep++] = (uint8_t)c;
    }
    for (int r = 0; r < b->nrep; r++)
        b->rep_index[b->reps[r]] = (int16_t)r;
    b->stab = malloc(sizeof *b->stab * (size_t)b->nsym * (size_t)b->nrep);
    if (!b->stab)
        return -1;
    int k = 0;
    for (int r = 0; r < b->nrep; r++) {
        b->stab_off[r] = k;
        for (int s = 0; s < b->nsym; s++)
            if (b->sym[s][b->reps[r]] == b->reps[r])
                b->stab[k++] = (uint16_t)s;
        b->stab_len[r] = k - b->stab_off[r];
    }
    return 0;
}

static void build_attacks(eg_board *b)
{
    const tc_variant *v = b->v;
    int n = b->n;
    memset(b->leap, 0, sizeof b->leap);
    memset(b->raydir, 0, sizeof b->raydir);
    memset(b->raypos, EG_NOT_ON_RAY, sizeof *b->raypos * 8);
    for (int f = 0; f < n; f++) {
        for (int i = 0; i < v->nking[f]; i++)
            b->leap[f][v->king[f][i]] |= 1;
        for (int i = 0; i < v->nknight[f]; i++)
            b->leap[f][v->knight[f][i]] |= 2;
        for (int d = 0; d < 8; d++) {
            const uint8_t *r = v->ray_pool + v->ray_off[f][d];
            for (int i = 0; i < v->ray_len[f][d]; i++) {
                b->raydir[f][r[i]] |= (uint8_t)(1u << d);
                b->raypos[d][f][r[i]] = (uint8_t)i;
            }
        }
    }
    /* step (c, d) -> (c', d') is undone by (c', -d') -> (c, -d) on every
     * board of docs/rules.md; then the cells that reach t along a ray are those
     * on t's own rays, and un-moves can read them from the tables */
    b->reversible = true;
    for (int c = 0; c < n; c++)
        for (int d = 0; d < 8; d++) {
            int c1 = v->step_to[c][d];
            if (c1 < 0)
                continue;
            int back = (v->step_dir[c][d] + 4) & 7;
            if (v->step_to[c1][back] != c || v->step_dir[c1][back] != ((d + 4) & 7))
                b->reversible = false;
        }
}

int eg_board_init(eg_board *b, const tc_variant *v, tc_error *err)
{
    memset(b, 0, sizeof *b);
    b->v = v;
    b->n = v->ncells;
    b->raypos = malloc(sizeof *b->raypos * 8);
    if (!b->raypos || find_symmetries(b) || build_orbits(b)) {
        eg_board_free(b);
        tc_set_error(err, "out of memory");
        return -1;
    }
    build_attacks(b);
    return 0;
}

void eg_board_free(eg_board *b)
{
    free(b->sym);
    free(b->stab);
    free(b->raypos);
    b->sym = NULL;
    b->stab = NULL;
    b->raypos = NULL;
}

bool eg_attacks(const eg_board *b, int type, int f, int t, const uint8_t *occ, int nocc)
{
    if (type == TC_KING)
        return b->leap[f][t] & 1;
    if (type == TC_KNIGHT)
        return b->leap[f][t] & 2;
    unsigned mask = type == TC_ROOK ? 0x55u : type == TC_BISHOP ? 0xaau : 0xffu;
    unsigned dirs = b->raydir[f][t] & mask;
    while (dirs) {
        int d = __builtin_ctz(dirs);
        dirs &= dirs - 1;
        int p = b->raypos[d][f][t];
        bool blocked = false;
        for (int i = 0; i < nocc && !blocked; i++)
            blocked = occ[i] != f && occ[i] != t && b->raypos[d][f][occ[i]] < p;
        if (!blocked)
            return true;
    }
    return false;
}
