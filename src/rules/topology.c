/* Topology: the step function of RULES.md section 2 and every table derived
 * from it (steps, rays, leaps, pawn steps, reverse leaps). Built once per
 * variant by tc_variant_new; move generation only reads the tables. */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>

const int tc_dir_dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
const int tc_dir_dy[8] = {1, 1, 0, -1, -1, -1, 0, 1};

int tc_dir_index(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (tc_dir_dx[d] == dx && tc_dir_dy[d] == dy)
            return d;
    return -1;
}

void tc_set_error(tc_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

void tc_error_prefix(tc_error *err, const char *prefix)
{
    if (!err)
        return;
    size_t pl = strlen(prefix), ml = strnlen(err->msg, sizeof err->msg - 1);
    if (pl >= sizeof err->msg)
        return;
    if (pl + ml >= sizeof err->msg)
        ml = sizeof err->msg - 1 - pl;
    memmove(err->msg + pl, err->msg, ml);
    memcpy(err->msg, prefix, pl);
    err->msg[pl + ml] = '\0';
}

/// One step computed from the rules text, before any table exists.
typedef struct {
    int x, y, dx, dy, sx, sy; /* off board when x < 0 */
} raw_step;

static raw_step step_rule(const tc_variant_def *d, int x, int y, int dx, int dy)
{
    raw_step r = {x + dx, y + dy, dx, dy, 1, 1};
    int W = d->width, H = d->height;
    if (r.x < 0 || r.x >= W) {
        if (d->files != TC_FILES_WRAP) {
            r.x = -1;
            return r;
        }
        r.x = (r.x + W) % W;
    }
    if (d->ranks == TC_RANKS_TWIST && dy != 0) {
        int s = d->seam; /* boundary between rank s and s+1, rank H+1 = 1 */
        bool up = dy > 0 && y == s - 1;
        bool down = dy < 0 && y == s % H;
        if (up || down) {
            r.x = W - 1 - r.x;
            r.dx = -r.dx;
            r.sx = -1;
        }
    }
    if (r.y < 0 || r.y >= H) {
        if (d->ranks == TC_RANKS_WRAP || d->ranks == TC_RANKS_TWIST) {
            r.y = (r.y + H) % H;
        } else if (d->ranks == TC_RANKS_FOLD) {
            r.y = r.y < 0 ? 0 : H - 1;
            r.x = W - 1 - r.x;
            r.dx = -r.dx;
            r.dy = -r.dy;
            r.sx = -r.sx;
            r.sy = -1;
        } else {
            r.x = -1;
        }
    }
    return r;
}

/* ---------------------------------------------------------------- accessors */

int tc_cell(const tc_variant *v, int x, int y)
{
    if (x < 0 || y < 0 || x >= v->W || y >= v->H)
        return -1;
    return y * v->W + x;
}
int tc_cell_x(const tc_variant *v, int cell) { return cell % v->W; }
int tc_cell_y(const tc_variant *v, int cell) { return cell / v->W; }
int tc_variant_width(const tc_variant *v) { return v->W; }
int tc_variant_height(const tc_variant *v) { return v->H; }
int tc_variant_cells(const tc_variant *v) { return v->ncells; }
const tc_variant_def *tc_variant_def_of(const tc_variant *v) { return &v->def; }

int tc_cell_parse(const tc_variant *v, const char *t)
{
    if (!t || t[0] < 'a' || t[0] > 'a' + v->W - 1)
        return -1;
    int x = t[0] - 'a';
    if (t[1] < '1' || t[1] > '9')
        return -1;
    int r = t[1] - '0';
    if (t[2] >= '0' && t[2] <= '9') {
        r = r * 10 + (t[2] - '0');
        if (t[3] != '\0')
            return -1;
    } else if (t[2] != '\0') {
        return -1;
    }
    if (r < 1 || r > v->H)
        return -1;
    return (r - 1) * v->W + x;
}

void tc_cell_name(const tc_variant *v, int cell, char *buf)
{
    if (cell < 0 || cell >= v->ncells) {
        strcpy(buf, "-");
        return;
    }
    sprintf(buf, "%c%d", 'a' + cell % v->W, cell / v->W + 1);
}

tc_step_result tc_step(const tc_variant *v, int cell, int dx, int dy)
{
    tc_step_result r = {-1, dx, dy, 1, 1};
    int d = tc_dir_index(dx, dy);
    if (d < 0 || cell < 0 || cell >= v->ncells)
        return r;
    r.cell = v->step_to[cell][d];
    int nd = v->step_dir[cell][d];
    r.dx = tc_dir_dx[nd];
    r.dy = tc_dir_dy[nd];
    r.sx = (v->step_tf[cell][d] & 1) ? -1 : 1;
    r.sy = (v->step_tf[cell][d] & 2) ? -1 : 1;
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
                continue;
            }
            v->step_to[c][d] = (int16_t)(r.y * v->W + r.x);
            v->step_dir[c][d] = (uint8_t)tc_dir_index(r.dx, r.dy);
            v->step_tf[c][d] = (uint8_t)((r.sx < 0 ? 1 : 0) | (r.sy < 0 ? 2 : 0));
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

static int add_unique(uint8_t *list, uint8_t *n, int cell, int self)
{
    if (cell < 0 || cell == self)
        return 0;
    for (int i = 0; i < *n; i++)
        if (list[i] == cell)
            return 0;
    list[(*n)++] = (uint8_t)cell;
    return 1;
}

static void build_leaps(tc_variant *v)
{
    for (int c = 0; c < v->ncells; c++) {
        v->nking[c] = v->nknight[c] = 0;
        for (int d = 0; d < 8; d++)
            add_unique(v->king[c], &v->nking[c], v->step_to[c][d], c);
        for (int d = 0; d < 8; d += 2) { /* orthogonal first step */
            int c1 = v->step_to[c][d];
            if (c1 < 0)
                continue;
            int tf = v->step_tf[c][d];
            for (int side = -1; side <= 1; side += 2) {
                /* outward diagonal: the orthogonal plus a perpendicular unit,
                 * expressed in the frame reached after the first step */
                int dx = tc_dir_dx[d] + (tc_dir_dx[d] == 0 ? side : 0);
                int dy = tc_dir_dy[d] + (tc_dir_dy[d] == 0 ? side : 0);
                if (tf & 1)
                    dx = -dx;
                if (tf & 2)
                    dy = -dy;
                int c2 = v->step_to[c1][tc_dir_index(dx, dy)];
                add_unique(v->knight[c], &v->nknight[c], c2, c);
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

/* Steps vertically from cell c in direction dy until the enemy back rank
 * (returns the step count) or own back rank, off board or a loop (-1). */
static int pawn_walk(const tc_variant *v, int colour, int c, int dy)
{
    int dir = dy > 0 ? 0 : 4, cur = c;
    for (int n = 1; n <= 2 * v->H + 2; n++) {
        int nx = v->step_to[cur][dir];
        if (nx < 0)
            return -1;
        dir = v->step_dir[cur][dir];
        cur = nx;
        int y = cur / v->W;
        if (y == v->back_rank[!colour])
            return n;
        if (y == v->back_rank[colour])
            return -1;
    }
    return -1;
}

static void build_pawns(tc_variant *v)
{
    for (int col = 0; col < 2; col++) {
        bits_clear(&v->promo_cells[col]);
        for (int c = 0; c < v->ncells; c++) {
            int y = c / v->W;
            v->pawn_dy[col][c] = 0;
            v->push1[col][c] = v->push2[col][c] = -1;
            v->npcap[col][c] = v->npcap_from[col][c] = 0;
            if (y == v->back_rank[!col])
                bits_set(&v->promo_cells[col], c);
        }
        for (int c = 0; c < v->ncells; c++) {
            int y = c / v->W;
            if (y == v->back_rank[0] || y == v->back_rank[1])
                continue;
            int n = pawn_walk(v, col, c, 1), s = pawn_walk(v, col, c, -1);
            int dy = 0;
            if (n > 0 && (s < 0 || n <= s))
                dy = 1;
            else if (s > 0)
                dy = -1;
            v->pawn_dy[col][c] = (int8_t)dy;
            if (!dy)
                continue;
            int f = dy > 0 ? 0 : 4;
            int c1 = v->step_to[c][f];
            v->push1[col][c] = (int16_t)c1;
            if (c1 >= 0 && ((v->double_ranks[col] >> y) & 1))
                v->push2[col][c] = v->step_to[c1][v->step_dir[c][f]];
            for (int side = -1; side <= 1; side += 2) {
                int d = dy > 0 ? (side > 0 ? 1 : 7) : (side > 0 ? 3 : 5);
                int t = v->step_to[c][d];
                add_unique(v->pcap[col][c], &v->npcap[col][c], t, c);
            }
        }
        for (int c = 0; c < v->ncells; c++)
            for (int i = 0; i < v->npcap[col][c]; i++) {
                int t = v->pcap[col][c][i];
                if (v->npcap_from[col][t] < 8)
                    v->pcap_from[col][t][v->npcap_from[col][t]++] = (uint8_t)c;
            }
    }
}

static void build_castling(tc_variant *v, const uint8_t *board)
{
    memset(v->castle_clear, 0xff, sizeof v->castle_clear);
    for (int col = 0; col < 2; col++) {
        int y = v->back_rank[col];
        int e = y * v->W + 4, a = y * v->W, h = y * v->W + 7;
        v->castle_ok[col] = false;
        if (v->W < 8 || board[e] != TC_PIECE(col, TC_KING) || board[a] != TC_PIECE(col, TC_ROOK) ||
            board[h] != TC_PIECE(col, TC_ROOK))
            continue;
        v->castle_ok[col] = true;
        v->castle_king[col] = e;
        v->castle_rook[col][0] = h;
        v->castle_rook[col][1] = a;
        v->castle_king_to[col][0] = e + 2;
        v->castle_rook_to[col][0] = e + 1;
        v->castle_king_to[col][1] = e - 2;
        v->castle_rook_to[col][1] = e - 1;
        for (int s = 0; s < 2; s++) {
            bits_clear(&v->castle_empty[col][s]);
            int lo = s == 0 ? e + 1 : a + 1, hi = s == 0 ? h - 1 : e - 1;
            for (int c = lo; c <= hi; c++)
                bits_set(&v->castle_empty[col][s], c);
            int step = s == 0 ? 1 : -1;
            v->castle_safe[col][s][0] = e;
            v->castle_safe[col][s][1] = e + step;
            v->castle_safe[col][s][2] = e + 2 * step;
            /* a plain king step with the same two cells keeps the short
             * coordinate form; castling is then written king-takes-rook */
            bool clash = false;
            for (int i = 0; i < v->nking[e]; i++)
                if (v->king[e][i] == e + 2 * step)
                    clash = true;
            v->castle_uci_rook[col][s] = clash;
        }
        int bit = col == 0 ? 1 : 4;
        v->castle_clear[e] &= (uint8_t)~(bit | bit << 1);
        v->castle_clear[h] &= (uint8_t)~bit;
        v->castle_clear[a] &= (uint8_t)~(bit << 1);
    }
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void build_zobrist(tc_variant *v)
{
    uint64_t s = 0x70c0c4e55ull;
    for (int p = 0; p < 16; p++)
        for (int c = 0; c < TC_MAX_CELLS; c++)
            v->zob_piece[p][c] = (p & 7) && (p & 7) <= 6 ? splitmix(&s) : 0;
    v->zob_castle[0] = 0;
    uint64_t single[4];
    for (int i = 0; i < 4; i++)
        single[i] = splitmix(&s);
    for (int m = 0; m < 16; m++) {
        v->zob_castle[m] = 0;
        for (int i = 0; i < 4; i++)
            if (m & (1 << i))
                v->zob_castle[m] ^= single[i];
    }
    for (int c = 0; c < TC_MAX_CELLS; c++)
        v->zob_ep[c] = splitmix(&s);
    v->zob_side = splitmix(&s);
}

tc_variant *tc_variant_new(const tc_variant_def *def, tc_error *err)
{
    if (tc_variant_def_check(def, err))
        return NULL;
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(def->width, def->height, def->setup, strlen(def->setup), board, err)) {
        tc_error_prefix(err, "setup: ");
        return NULL;
    }
    tc_variant *v = calloc(1, sizeof *v);
    if (!v) {
        tc_set_error(err, "out of memory");
        return NULL;
    }
    v->def = *def;
    v->W = def->width;
    v->H = def->height;
    v->ncells = v->W * v->H;
    bits_clear(&v->all_cells);
    for (int c = 0; c < v->ncells; c++)
        bits_set(&v->all_cells, c);

    int kings[2] = {0, 0};
    for (int c = 0; c < v->ncells; c++) {
        int pc = board[c];
        if (TC_TYPE(pc) == TC_KING) {
            kings[TC_COLOUR(pc)]++;
            v->back_rank[TC_COLOUR(pc)] = c / v->W;
        }
        if (TC_TYPE(pc) == TC_PAWN)
            v->double_ranks[TC_COLOUR(pc)] |= 1u << (c / v->W);
    }
    if (kings[0] != 1 || kings[1] != 1) {
        tc_set_error(err, "setup: needs exactly one king per side (white %d, black %d)", kings[0], kings[1]);
        free(v);
        return NULL;
    }
    if (v->back_rank[0] == v->back_rank[1]) {
        tc_set_error(err, "setup: both kings stand on rank %d; the back ranks must differ",
                     v->back_rank[0] + 1);
        free(v);
        return NULL;
    }
    for (int col = 0; col < 2; col++)
        if (v->double_ranks[col] & ((1u << v->back_rank[0]) | (1u << v->back_rank[1]))) {
            tc_set_error(err, "setup: a %s pawn stands on a back rank", col ? "black" : "white");
            free(v);
            return NULL;
        }

    pool pl = {0}, fp = {0};
    build_steps(v);
    build_leaps(v);
    if (build_rays(v, &pl) ||
        build_reverse(v, &fp, v->knight, v->nknight, v->knight_from_off, v->knight_from_len) ||
        build_reverse(v, &fp, v->king, v->nking, v->king_from_off, v->king_from_len)) {
        free(pl.data);
        free(fp.data);
        free(v);
        tc_set_error(err, "out of memory");
        return NULL;
    }
    v->ray_pool = pl.data;
    v->from_pool = fp.data;
    build_pawns(v);
    build_castling(v, board);
    build_zobrist(v);

    v->max_dest = 16;
    for (int c = 0; c < v->ncells; c++) {
        int q = bits_count(&v->orth_reach[c]) + bits_count(&v->diag_reach[c]);
        if (q > v->max_dest)
            v->max_dest = q;
    }
    /* the setup must be a legal position on this board (for instance the
     * kings may not attack each other across a join) */
    tc_position *start = tc_position_new(v);
    int bad = !start || tc_position_set_fen(start, def->setup, err);
    tc_position_free(start);
    if (bad) {
        tc_error_prefix(err, "setup: ");
        tc_variant_free(v);
        return NULL;
    }
    return v;
}

void tc_variant_free(tc_variant *v)
{
    if (!v)
        return;
    free(v->ray_pool);
    free(v->from_pool);
    free(v);
}
