/* Topology report (docs/rules.md section 10): the figures computed from the step
 * tables alone, into a struct tc_report. Nothing here is taken from the
 * variant pages; report_text.c prints the figures, and where a page makes a
 * claim, it prints the computed figure beside it. */
#include "report.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- helpers */

static int uf_find(int *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_join(int *parent, int a, int b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    /* the smaller root wins so that classes are named by their first member */
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

/* Walks one ray on an empty board: the cells reached in order, each once.
 * *end is 1 when the next step leaves the board, 2 when it comes back to
 * the start cell. */
static int walk_ray(const tc_variant *v, int start, int dir, int *out, int *end)
{
    tc_bits seen;
    bits_clear(&seen);
    int n = 0, cur = start;
    *end = 1;
    /* steps are a bijection on (cell, direction) pairs, so the walk ends
     * within 8 * cells steps; the bound is only a safeguard */
    for (int guard = 0; guard < 8 * v->ncells + 8; guard++) {
        int nx = v->step_to[cur][dir];
        if (nx < 0)
            return n;
        if (nx == start) {
            *end = 2;
            return n;
        }
        dir = v->step_dir[cur][dir];
        cur = nx;
        if (!bits_has(&seen, cur)) {
            bits_set(&seen, cur);
            out[n++] = cur;
        }
    }
    return n;
}

/* Adds a landing cell to a tally of eight steps or leaps. */
static void tally(tc_report_moves *m, int *list, int self, int to)
{
    if (to < 0) {
        m->off++;
        return;
    }
    if (to == self) {
        m->self++;
        return;
    }
    for (int i = 0; i < m->distinct; i++)
        if (list[i] == to) {
            m->dup++;
            return;
        }
    list[m->distinct++] = to;
}

/* ---------------------------------------------------------------- surface */

/* Item numbering for the glued complex. Each cell contributes 4 corners and
 * 4 side midpoints (vertices) and 8 half-sides (edges); splitting the sides
 * keeps the complex proper when a side is glued to itself, reversed. */
static int corner_id(int c, int side, int t)
{
    int cx, cy;
    switch (side) {
    case 0: cx = t, cy = 1; break;  /* N */
    case 1: cx = 1, cy = t; break;  /* E */
    case 2: cx = t, cy = -1; break; /* S */
    default: cx = -1, cy = t; break;
    }
    return c * 4 + (cx > 0) + 2 * (cy > 0);
}
static int mid_id(int ncells, int c, int side) { return 4 * ncells + c * 4 + side; }
static int half_id(int c, int side, int t) { return (c * 4 + side) * 2 + (t > 0); }

/* Names the surface from orientability, Euler characteristic and boundary
 * circles (classification of compact surfaces). */
static void name_surface(tc_report *r)
{
    int n = 2 - r->euler - r->boundaries;
    r->genus = -1;
    if (!r->is_surface) {
        snprintf(r->surface, sizeof r->surface, "not a surface (sides glued inconsistently)");
        return;
    }
    if (r->orientable) {
        if (n < 0 || n % 2) {
            snprintf(r->surface, sizeof r->surface, "unclassified");
            return;
        }
        r->genus = n / 2;
        static const char *const small[2][3] = {{"sphere", "disk", "annulus (cylinder)"},
                                                {"torus", "torus with a hole", ""}};
        if (r->genus < 2 && r->boundaries < 3 && *small[r->genus][r->boundaries])
            snprintf(r->surface, sizeof r->surface, "%s", small[r->genus][r->boundaries]);
        else
            snprintf(r->surface, sizeof r->surface, "orientable, genus %d, %d boundary circles",
                     r->genus, r->boundaries);
        return;
    }
    if (n < 1) {
        snprintf(r->surface, sizeof r->surface, "unclassified");
        return;
    }
    r->genus = n;
    if (n == 1 && r->boundaries == 0)
        snprintf(r->surface, sizeof r->surface, "projective plane");
    else if (n == 1 && r->boundaries == 1)
        snprintf(r->surface, sizeof r->surface, "Moebius band");
    else if (n == 2 && r->boundaries == 0)
        snprintf(r->surface, sizeof r->surface, "Klein bottle");
    else
        snprintf(r->surface, sizeof r->surface, "non-orientable, %d crosscaps, %d boundary circles",
                 n, r->boundaries);
}

/* An orientation sign per cell, carried over every orthogonal step: a
 * mirror (exactly one axis flipped) reverses it, a half-turn does not. A
 * step that contradicts the signs closes a loop through the search tree
 * that reverses orientation; it is kept as the witness. */
static void compute_orientation(const tc_variant *v, tc_report *r)
{
    int sign[TC_MAX_CELLS] = {0}, parent[TC_MAX_CELLS], queue[TC_MAX_CELLS];
    r->orientable = 1;
    r->flip_loop_len = 0;
    for (int root = 0; root < v->ncells; root++) {
        if (sign[root])
            continue;
        int head = 0, tail = 0;
        sign[root] = 1;
        parent[root] = -1;
        queue[tail++] = root;
        while (head < tail) {
            int c = queue[head++];
            for (int d = 0; d < 8; d += 2) {
                int to = v->step_to[c][d];
                if (to < 0)
                    continue;
                int tf = v->step_tf[c][d];
                int want = (tf == 1 || tf == 2) ? -sign[c] : sign[c];
                if (!sign[to]) {
                    sign[to] = want;
                    parent[to] = c;
                    queue[tail++] = to;
                } else if (sign[to] != want && r->orientable) {
                    r->orientable = 0;
                    /* loop: meet ... c, to ... meet, where meet is the
                     * deepest common ancestor of c and to */
                    tc_bits up;
                    bits_clear(&up);
                    for (int a = c; a >= 0; a = parent[a])
                        bits_set(&up, a);
                    int meet = to;
                    while (!bits_has(&up, meet))
                        meet = parent[meet];
                    int n = 0, tmp[TC_MAX_CELLS], k = 0;
                    for (int a = c; a != meet; a = parent[a])
                        tmp[k++] = a;
                    r->flip_loop[n++] = meet;
                    while (k > 0)
                        r->flip_loop[n++] = tmp[--k];
                    for (int a = to; a != meet; a = parent[a])
                        r->flip_loop[n++] = a;
                    r->flip_loop[n++] = meet;
                    r->flip_loop_len = n;
                }
            }
        }
    }
}

static void compute_surface(const tc_variant *v, tc_report *r)
{
    int n = v->ncells, nv = 8 * n, ne = 8 * n;
    int *vp = malloc(sizeof(int) * (size_t)(2 * nv + ne));
    bool *vbound = calloc((size_t)nv, sizeof(bool));
    if (!vp || !vbound) {
        free(vp);
        free(vbound);
        r->is_surface = 0;
        snprintf(r->surface, sizeof r->surface, "not computed (out of memory)");
        return;
    }
    int *bp = vp + nv, *ep = vp + 2 * nv;
    for (int i = 0; i < nv; i++)
        vp[i] = bp[i] = i;
    for (int i = 0; i < ne; i++)
        ep[i] = i;

    r->is_surface = 1;
    for (int c = 0; c < n; c++)
        for (int s = 0; s < 4; s++) {
            int d = 2 * s, to = v->step_to[c][d];
            if (to < 0)
                continue;
            int s2 = ((v->step_dir[c][d] + 4) & 7) / 2; /* the side it enters by */
            int tf = v->step_tf[c][d];
            /* the side's own axis is x for N/S sides, y for E/W sides */
            int flip = (s % 2 == 0) ? (tf & 1) : (tf & 2);
            int k = flip ? -1 : 1;
            for (int t = -1; t <= 1; t += 2) {
                uf_join(vp, corner_id(c, s, t), corner_id(to, s2, k * t));
                uf_join(ep, half_id(c, s, t), half_id(to, s2, k * t));
            }
            uf_join(vp, mid_id(n, c, s), mid_id(n, to, s2));
            int back = v->step_to[to][2 * s2];
            if (back != c || ((v->step_dir[to][2 * s2] + 4) & 7) / 2 != s)
                r->is_surface = 0;
        }

    /* boundary circles: boundary sides join their endpoints and midpoint */
    for (int c = 0; c < n; c++)
        for (int s = 0; s < 4; s++) {
            if (v->step_to[c][2 * s] >= 0)
                continue;
            int m = uf_find(vp, mid_id(n, c, s));
            vbound[m] = true;
            for (int t = -1; t <= 1; t += 2) {
                int k = uf_find(vp, corner_id(c, s, t));
                vbound[k] = true;
                uf_join(bp, m, k);
            }
        }

    int V = 0, E = 0, B = 0;
    int *angle = calloc((size_t)nv, sizeof(int));
    for (int i = 0; i < nv; i++) {
        int root = uf_find(vp, i);
        if (root == i) {
            V++;
            if (vbound[i] && uf_find(bp, i) == i)
                B++;
        }
        if (angle)
            angle[root] += i < 4 * n ? 90 : 180;
    }
    for (int i = 0; i < ne; i++)
        E += uf_find(ep, i) == i;
    r->euler = V - E + n;
    r->boundaries = B;

    r->ncones = 0;
    for (int i = 0; angle && i < nv; i++) {
        if (uf_find(vp, i) != i || vbound[i] || angle[i] == 360 || r->ncones >= TC_REPORT_MAX_CONES)
            continue;
        int k = r->ncones++, m = 0;
        r->cone_angle[k] = angle[i];
        for (int j = 0; j < 4; j++)
            r->cone_cells[k][j] = -1;
        for (int j = 0; j < nv && m < 4; j++) {
            if (uf_find(vp, j) != i)
                continue;
            int cell = j < 4 * n ? j / 4 : (j - 4 * n) / 4;
            bool have = false;
            for (int q = 0; q < m; q++)
                have |= r->cone_cells[k][q] == cell;
            if (!have)
                r->cone_cells[k][m++] = cell;
        }
    }
    free(angle);
    free(vp);
    free(vbound);
    name_surface(r);
}

/* ---------------------------------------------------------------- pieces */

static void compute_cells(const tc_variant *v, tc_report *r, tc_bits *diag)
{
    int list[8], ray[TC_MAX_CELLS], end;
    r->ndegenerate = 0;
    for (int c = 0; c < v->ncells; c++) {
        tc_report_moves *k = &r->king[c], *n = &r->knight[c];
        memset(k, 0, sizeof *k);
        memset(n, 0, sizeof *n);
        for (int d = 0; d < 8; d++)
            tally(k, list, c, v->step_to[c][d]);
        for (int d = 0; d < 8; d += 2) {
            int c1 = v->step_to[c][d], tf = v->step_tf[c][d];
            for (int side = -1; side <= 1; side += 2) {
                if (c1 < 0) {
                    n->off++;
                    continue;
                }
                /* the outward diagonal, turned by the frame of the first step */
                int dx = tc_dir_dx[d] ? tc_dir_dx[d] : side;
                int dy = tc_dir_dy[d] ? tc_dir_dy[d] : side;
                dx = (tf & 1) ? -dx : dx;
                dy = (tf & 2) ? -dy : dy;
                tally(n, list, c, v->step_to[c1][tc_dir_index(dx, dy)]);
            }
        }
        tc_bits orth;
        bits_clear(&orth);
        bits_clear(&diag[c]);
        for (int d = 0; d < 8; d++) {
            int len = walk_ray(v, c, d, ray, &end);
            for (int i = 0; i < len; i++)
                bits_set(dir_is_diag(d) ? &diag[c] : &orth, ray[i]);
        }
        r->bishop[c] = (int16_t)bits_count(&diag[c]);
        r->rook[c] = (int16_t)bits_count(&orth);
        r->degenerate[c] = (uint8_t)((k->distinct < 8 || k->self ? 1 : 0) | (n->distinct < 8 ? 2 : 0));
        r->ndegenerate += r->degenerate[c] != 0;
    }
}

/* Shortest single bishop move from one of `starts` whose path reaches the
 * other colour; returns 1 and fills the path if there is one. */
static int find_colour_path(const tc_variant *v, tc_report *r, const int *starts, int nstarts)
{
    int ray[TC_MAX_CELLS], end, best = 0;
    for (int i = 0; i < nstarts; i++)
        for (int d = 1; d < 8; d += 2) {
            int s = starts[i], len = walk_ray(v, s, d, ray, &end);
            for (int j = 0; j < len; j++) {
                if (tc_report_cell_colour(v, ray[j]) == tc_report_cell_colour(v, s))
                    continue;
                if (!best || j + 2 < best) {
                    best = j + 2;
                    r->colour_path[0] = s;
                    memcpy(r->colour_path + 1, ray, sizeof(int) * (size_t)(j + 1));
                }
                break;
            }
        }
    r->colour_path_len = best;
    return best > 0;
}

static void compute_colour(const tc_variant *v, tc_report *r)
{
    r->colour_bound = 1;
    for (int c = 0; c < v->ncells; c++)
        for (int d = 1; d < 8; d += 2) {
            int to = v->step_to[c][d];
            if (to >= 0 && tc_report_cell_colour(v, to) != tc_report_cell_colour(v, c))
                r->colour_bound = 0;
        }
    r->colour_path_len = 0;
    if (r->colour_bound)
        return;
    int all[TC_MAX_CELLS];
    for (int c = 0; c < v->ncells; c++)
        all[c] = c;
    if (!find_colour_path(v, r, r->bishop_cell, r->nbishops))
        find_colour_path(v, r, all, v->ncells);
}

static void compute_files(const tc_variant *v, tc_report *r)
{
    int parent[TC_MAX_FILES], ray[TC_MAX_CELLS], end;
    for (int x = 0; x < v->W; x++)
        parent[x] = x;
    for (int c = 0; c < v->ncells; c++)
        for (int d = 0; d <= 4; d += 4) {
            int len = walk_ray(v, c, d, ray, &end);
            for (int i = 0; i < len; i++)
                uf_join(parent, c % v->W, ray[i] % v->W);
        }
    r->nfile_classes = 0;
    for (int x = 0; x < v->W; x++) {
        r->file_class[x] = uf_find(parent, x);
        r->nfile_classes += r->file_class[x] == x;
    }
}

static void compute_looks(const tc_variant *v, tc_report *r, const uint8_t *board)
{
    for (int col = 0; col < 2; col++) {
        r->king_cell[col] = -1;
        for (int c = 0; c < v->ncells; c++)
            if (board[c] == TC_PIECE(col, TC_KING))
                r->king_cell[col] = c;
        for (int k = 0; k < 2; k++) {
            tc_report_look *l = &r->look[col][k];
            l->len = 0;
            l->faced = -1;
            l->end = 1;
            if (r->king_cell[col] < 0)
                continue;
            int len = walk_ray(v, r->king_cell[col], k ? 4 : 0, l->cells, &l->end);
            for (int i = 0; i < len; i++) {
                int pc = board[l->cells[i]];
                if (pc && TC_TYPE(pc) != TC_PAWN) {
                    l->faced = l->cells[i];
                    l->end = 0;
                    len = i + 1;
                    break;
                }
            }
            l->len = len;
        }
    }
}

static void compute_bishops(const tc_variant *v, tc_report *r, const uint8_t *board, const tc_bits *diag)
{
    r->nbishops = 0;
    for (int c = 0; c < v->ncells && r->nbishops < TC_REPORT_MAX_BISHOPS; c++) {
        if (TC_TYPE(board[c]) != TC_BISHOP)
            continue;
        int i = r->nbishops++, queue[TC_MAX_CELLS], head = 0, tail = 0;
        r->bishop_cell[i] = c;
        r->bishop_reach1[i] = r->bishop[c];
        tc_bits seen;
        bits_clear(&seen);
        bits_set(&seen, c);
        queue[tail++] = c;
        while (head < tail) {
            int at = queue[head++];
            BITS_FOREACH(t, diag[at], {
                if (!bits_has(&seen, t)) {
                    bits_set(&seen, t);
                    queue[tail++] = t;
                }
            })
        }
        r->bishop_reach_all[i] = tail;
    }
}

void tc_report_compute(const tc_variant *v, tc_report *r)
{
    uint8_t board[TC_MAX_CELLS];
    tc_bits diag[TC_MAX_CELLS];
    r->W = v->W;
    r->H = v->H;
    r->ncells = v->ncells;
    if (tc_board_parse(v->W, v->H, v->def.setup, strlen(v->def.setup), board, NULL))
        memset(board, 0, sizeof board); /* tc_variant_new parsed it already */
    compute_orientation(v, r);
    compute_surface(v, r);
    compute_cells(v, r, diag);
    compute_bishops(v, r, board, diag);
    compute_colour(v, r);
    compute_files(v, r);
    compute_looks(v, r, board);
}
