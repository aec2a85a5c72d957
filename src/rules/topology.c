/* Topology: the step function of docs/rules.md section 2 and the tables that
 * depend on the board alone (steps with the joins they cross, rays, king and
 * knight leaps and their reverses, empty-board reach). Built once per variant
 * (tc_topology_build, called by variant construction); move generation only
 * reads the tables. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>


/// One step computed from the rules text, before any table exists.
typedef struct {
    int x, y, dx, dy, sx, sy; /* off board when x < 0 */
    int joins;                /* TC_JOIN_* crossed by the step */
} raw_step;

static raw_step step_rule(const tc_variant_def *d, int x, int y, int dx, int dy)
{
    raw_step r = {x + dx, y + dy, dx, dy, 1, 1, 0};
    int W = d->width, H = d->height;
    if (r.x < 0 || r.x >= W) {
        if (d->files != TC_FILES_WRAP) {
            r.x = -1;
            return r;
        }
        r.x = (r.x + W) % W;
        r.joins |= TC_JOIN_FILE;
    }
    if (d->ranks == TC_RANKS_TWIST && dy != 0) {
        int s = d->seam; /* boundary between rank s and s+1, rank H+1 = 1 */
        bool up = dy > 0 && y == s - 1;
        bool down = dy < 0 && y == s % H;
        if (up || down) {
            r.x = W - 1 - r.x;
            r.dx = -r.dx;
            r.sx = -1;
            r.joins |= TC_JOIN_TWIST;
        }
    }
    if (r.y < 0 || r.y >= H) {
        if (d->ranks == TC_RANKS_WRAP || d->ranks == TC_RANKS_TWIST) {
            r.y = (r.y + H) % H;
            r.joins |= TC_JOIN_RANK;
        } else if (d->ranks == TC_RANKS_FOLD) {
            r.y = r.y < 0 ? 0 : H - 1;
            r.x = W - 1 - r.x;
            r.dx = -r.dx;
            r.dy = -r.dy;
            r.sx = -r.sx;
            r.sy = -1;
            r.joins |= TC_JOIN_FOLD;
        } else {
            r.x = -1;
        }
    }
    return r;
}

/* ---------------------------------------------------------------- accessors */

int tc_variant_width(const tc_variant *v) { return v->W; }
int tc_variant_height(const tc_variant *v) { return v->H; }
int tc_variant_cells(const tc_variant *v) { return v->ncells; }
const tc_variant_def *tc_variant_def_of(const tc_variant *v) { return &v->def; }



tc_step_result tc_step(const tc_variant *v, int cell, int dx, int dy)
{
    tc_step_result r = {-1, dx, dy, 1, 1, 0};
    int d = tc_dir_index(dx, dy);
    if (d < 0 || cell < 0 || cell >= v->ncells)
        return r;
    r.cell = v->step_to[cell][d];
    int nd = v->step_dir[cell][d];
    r.dx = tc_dir_dx[nd];
    r.dy = tc_dir_dy[nd];
    r.sx = (v->step_tf[cell][d] & 1) ? -1 : 1;
    r.sy = (v->step_tf[cell][d] & 2) ? -1 : 1;
    r.joins = v->step_join[cell][d];
    return r;
}

int tc_king_targets(const tc_variant *v, int cell, int *out)
{
    for (int i = 0; i < v->nking[cell]; i++)
        out[i] = v->king[cell][i];
    return v->nking[cell];
}

int tc_knight_targets(const tc_variant *v, int cell, int *out)
{
    for (int i = 0; i < v->nknight[cell]; i++)
        out[i] = v->knight[cell][i];
    return v->nknight[cell];
}

int tc_ray(const tc_variant *v, int cell, int dir, int *out)
{
    const uint8_t *r = v->ray_pool + v->ray_off[cell][dir];
    for (int i = 0; i < v->ray_len[cell][dir]; i++)
        out[i] = r[i];
    return v->ray_len[cell][dir];
}

void tc_variant_topology_text(const tc_variant *v, char *buf, size_t n)
{
    static const char *const rk[] = {"open", "wrap", "twist", "fold"};
    if (v->def.ranks == TC_RANKS_TWIST)
        snprintf(buf, n, "files %s, ranks twist %d", v->def.files == TC_FILES_WRAP ? "wrap" : "open",
                 v->def.seam);
    else
        snprintf(buf, n, "files %s, ranks %s", v->def.files == TC_FILES_WRAP ? "wrap" : "open",
                 rk[v->def.ranks]);
}

/* ---------------------------------------------------------------- tables */

/// A growable byte pool for rays and reverse leaps.
typedef struct {
    uint8_t *data;
    size_t len, cap;
} pool;

static int pool_push(pool *p, uint8_t b)
{
    if (p->len == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 4096;
        uint8_t *nd = realloc(p->data, ncap);
        if (!nd)
            return -1;
        p->data = nd;
        p->cap = ncap;
    }
    p->data[p->len++] = (uint8_t)b;
    return 0;
}

static void build_steps(tc_variant *v)
{
    for (int c = 0; c < v->ncells; c++)
        for (int d = 0; d < 8; d++) {
            raw_step r = step_rule(&v->def, c % v->W, c / v->W, tc_dir_dx[d], tc_dir_dy[d]);
            if (r.x < 0) {
                v->step_to[c][d] = -1;
                v->step_dir[c][d] = (uint8_t)d;
                v->step_tf[c][d] = 0;
                v->step_join[c][d] = 0;
                continue;
            }
            v->step_to[c][d] = (int16_t)(r.y * v->W + r.x);
            v->step_dir[c][d] = (uint8_t)tc_dir_index(r.dx, r.dy);
            v->step_tf[c][d] = (uint8_t)((r.sx < 0 ? 1 : 0) | (r.sy < 0 ? 2 : 0));
            v->step_join[c][d] = (uint8_t)r.joins;
        }
}

static int build_rays(tc_variant *v, pool *pl)
{
    int seen[TC_MAX_CELLS];
    int stamp = 0;
    memset(seen, -1, sizeof seen);
    for (int c = 0; c < v->ncells; c++) {
        bits_clear(&v->orth_reach[c]);
        bits_clear(&v->diag_reach[c]);
        for (int d = 0; d < 8; d++, stamp++) {
            v->ray_off[c][d] = (uint32_t)pl->len;
            int len = 0, cur = c, dir = d;
            /* the step map is a bijection on (cell, direction) pairs, so a
             * ray ends within 8 * cells steps; the bound is a safeguard */
            for (int guard = 0; guard < 8 * v->ncells + 8; guard++) {
                int nx = v->step_to[cur][dir];
                if (nx < 0 || nx == c)
                    break;
                dir = v->step_dir[cur][dir];
                cur = nx;
                if (seen[cur] == stamp)
                    continue;
                seen[cur] = stamp;
                if (pool_push(pl, (uint8_t)cur))
                    return -1;
                len++;
                bits_set(dir_is_diag(d) ? &v->diag_reach[c] : &v->orth_reach[c], cur);
            }
            v->ray_len[c][d] = (uint16_t)len;
        }
    }
    return 0;
}

int tc_cells_add_unique(uint8_t *list, uint8_t *n, int cell, int self)
{
    if (cell < 0 || cell == self)
        return 0;
    for (int i = 0; i < *n; i++)
        if (list[i] == cell)
            return 0;
    list[(*n)++] = (uint8_t)cell;
    return 1;
}

int tc_knight_second_dir(const tc_variant *v, int from, int d, int side)
{
    /* outward diagonal: the orthogonal plus a perpendicular unit, expressed
     * in the frame reached after the first step */
    int tf = v->step_tf[from][d];
    int dx = tc_dir_dx[d] + (tc_dir_dx[d] == 0 ? side : 0);
    int dy = tc_dir_dy[d] + (tc_dir_dy[d] == 0 ? side : 0);
    if (tf & 1)
        dx = -dx;
    if (tf & 2)
        dy = -dy;
    return tc_dir_index(dx, dy);
}

static void build_leaps(tc_variant *v)
{
    for (int c = 0; c < v->ncells; c++) {
        v->nking[c] = v->nknight[c] = 0;
        for (int d = 0; d < 8; d++)
            tc_cells_add_unique(v->king[c], &v->nking[c], v->step_to[c][d], c);
        for (int d = 0; d < 8; d += 2) { /* orthogonal first step */
            int c1 = v->step_to[c][d];
            if (c1 < 0)
                continue;
            for (int side = -1; side <= 1; side += 2) {
                int c2 = v->step_to[c1][tc_knight_second_dir(v, c, d, side)];
                tc_cells_add_unique(v->knight[c], &v->nknight[c], c2, c);
            }
        }
    }
}

static int build_reverse(tc_variant *v, pool *pl, uint8_t (*fwd)[8], uint8_t *nfwd, uint16_t *off,
                         uint16_t *len)
{
    for (int t = 0; t < v->ncells; t++) {
        off[t] = (uint16_t)pl->len;
        len[t] = 0;
        for (int c = 0; c < v->ncells; c++)
            for (int i = 0; i < nfwd[c]; i++)
                if (fwd[c][i] == t) {
                    if (pool_push(pl, (uint8_t)c))
                        return -1;
                    len[t]++;
                }
    }
    return 0;
}

int tc_topology_build(tc_variant *v)
{
    pool pl = {0}, fp = {0};
    build_steps(v);
    build_leaps(v);
    if (build_rays(v, &pl) ||
        build_reverse(v, &fp, v->knight, v->nknight, v->knight_from_off, v->knight_from_len) ||
        build_reverse(v, &fp, v->king, v->nking, v->king_from_off, v->king_from_len)) {
        free(pl.data);
        free(fp.data);
        return -1;
    }
    v->ray_pool = pl.data;
    v->from_pool = fp.data;
    v->max_dest = 16;
    for (int c = 0; c < v->ncells; c++) {
        int q = bits_count(&v->orth_reach[c]) + bits_count(&v->diag_reach[c]);
        if (q > v->max_dest)
            v->max_dest = q;
    }
    return 0;
}

void tc_topology_free(tc_variant *v)
{
    free(v->ray_pool);
    free(v->from_pool);
    v->ray_pool = v->from_pool = NULL;
}
