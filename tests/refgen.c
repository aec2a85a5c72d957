/* refgen: the plain reference move generator (see refgen.h). Every rule is
 * taken from docs/rules.md sections 2, 4 and 5 and recomputed at each use. */
#include "refgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* docs/rules.md section 2, line by line, on a board of w x h cells with the
 * given edge rules and seam; unit steps only. */
static rg_step step_on(int w, int h, tc_file_rule files, tc_rank_rule ranks, int seam, int x, int y,
                       int dx, int dy)
{
    rg_step r = {0, x + dx, y + dy, dx, dy, 1, 1};
    if (r.x < 0 || r.x >= w) {
        if (files != TC_FILES_WRAP) {
            r.off = 1;
            return r;
        }
        r.x = (r.x + w) % w;
    }
    if (ranks == TC_RANKS_TWIST && dy != 0) {
        /* the boundary crossed lies above rank index lo; seam S sits above
         * rank index S-1, and the H|1 join above index H-1 (i.e. -1) */
        int lo = dy > 0 ? y : y - 1;
        lo = (lo + h) % h;
        if (lo == seam - 1) {
            r.x = w - 1 - r.x;
            r.dx = -r.dx;
            r.sx = -1;
        }
    }
    if (r.y < 0 || r.y >= h) {
        if (ranks == TC_RANKS_WRAP || ranks == TC_RANKS_TWIST) {
            r.y = (r.y + h) % h;
        } else if (ranks == TC_RANKS_FOLD) {
            r.y = r.y < 0 ? 0 : h - 1;
            r.x = w - 1 - r.x;
            r.dx = -r.dx;
            r.dy = -r.dy;
            r.sx = -r.sx;
            r.sy = -r.sy;
        } else {
            r.off = 1;
        }
    }
    return r;
}

static rg_step step(const rg_board *b, int x, int y, int dx, int dy)
{
    return step_on(b->w, b->h, b->files, b->ranks, b->seam, x, y, dx, dy);
}

rg_step rg_rules_step(const tc_variant_def *d, int x, int y, int dx, int dy)
{
    return step_on(d->width, d->height, d->files, d->ranks, d->seam, x, y, dx, dy);
}

static int cell_of(const rg_board *b, int x, int y) { return y * b->w + x; }

static int add_unique(int *out, int n, int c)
{
    for (int i = 0; i < n; i++)
        if (out[i] == c)
            return n;
    out[n] = c;
    return n + 1;
}

/* ---------------------------------------------------------------- setup */

int rg_board_setup(const tc_variant_def *d, rg_board *b)
{
    memset(b, 0, sizeof *b);
    b->w = d->width;
    b->h = d->height;
    b->files = d->files;
    b->ranks = d->ranks;
    b->seam = d->seam;
    b->back[0] = b->back[1] = -1;
    b->ep = -1;

    /* the setup's board, rank H first */
    int x = 0, y = b->h - 1;
    for (const char *s = d->setup; *s; s++) {
        if (*s == '/') {
            if (x != b->w || y == 0)
                return -1;
            x = 0;
            y--;
        } else if (*s >= '0' && *s <= '9') {
            int run = 0;
            while (*s >= '0' && *s <= '9')
                run = run * 10 + (*s++ - '0');
            s--;
            x += run;
        } else {
            static const char letters[] = "pnbrqk";
            const char *l = strchr(letters, *s | 0x20);
            if (!l || x >= b->w)
                return -1;
            int colour = (*s >= 'a') ? TC_BLACK : TC_WHITE;
            b->cell[cell_of(b, x, y)] = (unsigned char)TC_PIECE(colour, (int)(l - letters) + 1);
            x++;
        }
        if (x > b->w)
            return -1;
    }
    if (y != 0 || x != b->w)
        return -1;

    for (int c = 0; c < b->w * b->h; c++) {
        int pc = b->cell[c];
        if (!pc)
            continue;
        if (TC_TYPE(pc) == TC_KING)
            b->back[TC_COLOUR(pc)] = c / b->w;
        if (TC_TYPE(pc) == TC_PAWN)
            b->two_step[TC_COLOUR(pc)] |= 1u << (c / b->w);
    }
    /* docs/rules.md section 4: each castling needs the king on file e of its
     * back rank and only its own rook, on h (short) or a (long) */
    for (int col = 0; col < 2; col++) {
        int r = b->back[col];
        if (b->w < 8 || r < 0 || b->cell[cell_of(b, 4, r)] != TC_PIECE(col, TC_KING))
            continue;
        if (b->cell[cell_of(b, 7, r)] == TC_PIECE(col, TC_ROOK))
            b->can_castle[col] |= 1;
        if (b->cell[cell_of(b, 0, r)] == TC_PIECE(col, TC_ROOK))
            b->can_castle[col] |= 2;
        b->castling |= b->can_castle[col] << (col * 2);
    }
    return 0;
}

int rg_board_from(const tc_position *p, rg_board *b)
{
    if (rg_board_setup(tc_variant_def_of(tc_position_variant(p)), b))
        return -1;
    for (int c = 0; c < b->w * b->h; c++)
        b->cell[c] = (unsigned char)tc_piece_at(p, c);
    b->side = tc_side_to_move(p);
    b->castling = tc_castling(p);
    b->ep = tc_ep_cell(p);
    return 0;
}

/* ---------------------------------------------------------------- pieces */

/* Steps of the vertical walk from (x, y) that starts going dy until it
 * reaches the enemy back rank, or 0 if it leaves the board or reaches the
 * pawn's own back rank first (docs/rules.md section 4). */
static int pawn_walk(const rg_board *b, int colour, int x, int y, int dy)
{
    for (int k = 0; k < 2 * b->h + 2; k++) {
        rg_step r = step(b, x, y, 0, dy);
        if (r.off || r.y == b->back[colour])
            return 0;
        if (r.y == b->back[!colour])
            return k + 1;
        x = r.x;
        y = r.y;
        dy = r.dy;
    }
    return 0;
}

/* The pawn's forward dy at (x, y): the vertical direction whose walk meets
 * the enemy back rank before the own back rank, the shorter one when both
 * do (a fold can bring either walk there; docs/rules.md says two walks never
 * tie: a tie gives 0, so that the setup check disagrees with the library
 * and the test names the board), 0 when neither does (refused, section 3). */
static int pawn_dir(const rg_board *b, int colour, int x, int y)
{
    int n = pawn_walk(b, colour, x, y, 1), s = pawn_walk(b, colour, x, y, -1);
    if (n && s)
        return n < s ? 1 : n > s ? -1 : 0;
    return n ? 1 : s ? -1 : 0;
}

/* Cells a slider, king or knight on `from` reaches: empty cells plus the
 * first occupied cell of each ray, whatever its colour; own cell excluded. */
static int reach(const rg_board *b, int from, int *out)
{
    int type = TC_TYPE(b->cell[from]);
    int x = from % b->w, y = from / b->w, n = 0;
    static const int dirs[8][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0},
                                   {1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
    if (type == TC_KING) {
        for (int i = 0; i < 8; i++) {
            rg_step r = step(b, x, y, dirs[i][0], dirs[i][1]);
            if (!r.off && cell_of(b, r.x, r.y) != from)
                n = add_unique(out, n, cell_of(b, r.x, r.y));
        }
    } else if (type == TC_KNIGHT) {
        for (int i = 0; i < 4; i++) {
            int ox = dirs[i][0], oy = dirs[i][1];
            rg_step r1 = step(b, x, y, ox, oy);
            if (r1.off)
                continue;
            for (int side = -1; side <= 1; side += 2) {
                /* the outward diagonal in the original frame, then mapped
                 * into the frame reached after the first step */
                int ddx = ox ? ox : side, ddy = oy ? oy : side;
                rg_step r2 = step(b, r1.x, r1.y, ddx * r1.sx, ddy * r1.sy);
                if (!r2.off && cell_of(b, r2.x, r2.y) != from)
                    n = add_unique(out, n, cell_of(b, r2.x, r2.y));
            }
        }
    } else {
        int lo = type == TC_BISHOP ? 4 : 0, hi = type == TC_ROOK ? 4 : 8;
        for (int i = lo; i < hi; i++) {
            int cx = x, cy = y, dx = dirs[i][0], dy = dirs[i][1];
            for (int k = 0; k < 4 * b->w * b->h; k++) {
                rg_step r = step(b, cx, cy, dx, dy);
                if (r.off)
                    break;
                int c = cell_of(b, r.x, r.y);
                if (c == from)
                    break;
                n = add_unique(out, n, c);
                if (b->cell[c])
                    break;
                cx = r.x;
                cy = r.y;
                dx = r.dx;
                dy = r.dy;
            }
        }
    }
    return n;
}

int rg_attacked(const rg_board *b, int cell, int by)
{
    int targets[TC_MAX_CELLS];
    for (int c = 0; c < b->w * b->h; c++) {
        int pc = b->cell[c];
        if (!pc || TC_COLOUR(pc) != by)
            continue;
        if (TC_TYPE(pc) == TC_PAWN) {
            int x = c % b->w, y = c / b->w, f = pawn_dir(b, by, x, y);
            for (int side = -1; f && side <= 1; side += 2) {
                rg_step r = step(b, x, y, side, f);
                if (!r.off && cell_of(b, r.x, r.y) == cell)
                    return 1;
            }
            continue;
        }
        int n = reach(b, c, targets);
        for (int i = 0; i < n; i++)
            if (targets[i] == cell)
                return 1;
    }
    return 0;
}

static int king_cell(const rg_board *b, int colour)
{
    for (int c = 0; c < b->w * b->h; c++)
        if (b->cell[c] == TC_PIECE(colour, TC_KING))
            return c;
    return -1;
}

int rg_in_check(const rg_board *b)
{
    int k = king_cell(b, b->side);
    return k >= 0 && rg_attacked(b, k, !b->side);
}

/* The cell of the pawn that en passant would capture, or -1: the pawn of
 * the side not to move whose two-step push passed over the ep cell. */
static int ep_victim(const rg_board *b)
{
    if (b->ep < 0 || b->cell[b->ep])
        return -1;
    int mover = !b->side, ex = b->ep % b->w, ey = b->ep / b->w;
    for (int d = 1; d >= -1; d -= 2) {
        rg_step o = step(b, ex, ey, 0, d); /* a candidate origin */
        if (o.off || b->cell[cell_of(b, o.x, o.y)] || !(b->two_step[mover] >> o.y & 1))
            continue;
        int f = pawn_dir(b, mover, o.x, o.y);
        if (!f)
            continue;
        rg_step s1 = step(b, o.x, o.y, 0, f);
        if (s1.off || cell_of(b, s1.x, s1.y) != b->ep)
            continue;
        rg_step s2 = step(b, s1.x, s1.y, s1.dx, s1.dy);
        if (!s2.off && b->cell[cell_of(b, s2.x, s2.y)] == TC_PIECE(mover, TC_PAWN))
            return cell_of(b, s2.x, s2.y);
    }
    return -1;
}

/* ---------------------------------------------------------------- moves */

static int push_move(rg_move *out, int n, int from, int to, int promo, int kind, int aux)
{
    if (n < RG_MAX_MOVES)
        out[n++] = (rg_move){from, to, promo, kind, aux};
    return n;
}

/* A pawn move, expanded into the four promotions on the enemy back rank. */
static int push_pawn(const rg_board *b, rg_move *out, int n, int from, int to, int kind, int aux)
{
    int us = TC_COLOUR(b->cell[from]);
    if (to / b->w != b->back[!us])
        return push_move(out, n, from, to, 0, kind, aux);
    static const int promos[4] = {TC_QUEEN, TC_ROOK, TC_BISHOP, TC_KNIGHT};
    for (int i = 0; i < 4; i++)
        n = push_move(out, n, from, to, promos[i], kind, aux);
    return n;
}

static int gen_pawn(const rg_board *b, int from, rg_move *out, int n)
{
    int us = b->side, x = from % b->w, y = from / b->w;
    int f = pawn_dir(b, us, x, y);
    if (!f)
        return n;
    rg_step s1 = step(b, x, y, 0, f);
    if (!s1.off && !b->cell[cell_of(b, s1.x, s1.y)]) {
        int c1 = cell_of(b, s1.x, s1.y);
        n = push_pawn(b, out, n, from, c1, TC_MOVE_NORMAL, -1);
        /* a pawn whose first step reaches its promotion rank stops and
         * promotes there: no two-step (docs/rules.md section 4) */
        if ((b->two_step[us] >> y & 1) && s1.y != b->back[!us]) {
            rg_step s2 = step(b, s1.x, s1.y, s1.dx, s1.dy);
            int c2 = s2.off ? -1 : cell_of(b, s2.x, s2.y);
            /* moves are their cells: a second step back onto c1 or onto
             * the pawn's own cell adds no move (docs/rules.md section 4) */
            if (c2 >= 0 && c2 != c1 && c2 != from && !b->cell[c2])
                n = push_pawn(b, out, n, from, cell_of(b, s2.x, s2.y), TC_MOVE_DOUBLE, c1);
        }
    }
    int victim = ep_victim(b);
    for (int side = -1; side <= 1; side += 2) {
        rg_step r = step(b, x, y, side, f);
        if (r.off)
            continue;
        int c = cell_of(b, r.x, r.y), pc = b->cell[c];
        if (pc && TC_COLOUR(pc) != us)
            n = push_pawn(b, out, n, from, c, TC_MOVE_NORMAL, -1);
        else if (!pc && c == b->ep && victim >= 0)
            n = push_move(out, n, from, c, 0, TC_MOVE_EP, victim);
    }
    return n;
}

/* Castling per docs/rules.md section 4: plain file letters on the back rank. */
static int gen_castling(const rg_board *b, rg_move *out, int n)
{
    int us = b->side, r = b->back[us];
    if (!b->can_castle[us])
        return n;
    int e = cell_of(b, 4, r);
    if (b->cell[e] != TC_PIECE(us, TC_KING))
        return n;
    for (int s = 0; s < 2; s++) {
        if (!(b->can_castle[us] & (1 << s)) || !(b->castling & (1 << (us * 2 + s))))
            continue;
        int rook_x = s ? 0 : 7, pass_x = s ? 3 : 5, land_x = s ? 2 : 6;
        if (b->cell[cell_of(b, rook_x, r)] != TC_PIECE(us, TC_ROOK))
            continue;
        int clear = 1;
        for (int xx = (s ? 1 : 5); xx <= (s ? 3 : 6); xx++)
            clear &= !b->cell[cell_of(b, xx, r)];
        if (!clear || rg_attacked(b, e, !us) || rg_attacked(b, cell_of(b, pass_x, r), !us))
            continue;
        /* the landing cell is judged after the move, by the legality test */
        n = push_move(out, n, e, cell_of(b, land_x, r), 0,
                      s ? TC_MOVE_CASTLE_Q : TC_MOVE_CASTLE_K, -1);
    }
    return n;
}

static int gen_pseudo(const rg_board *b, rg_move *out)
{
    int n = 0, targets[TC_MAX_CELLS];
    for (int c = 0; c < b->w * b->h; c++) {
        int pc = b->cell[c];
        if (!pc || TC_COLOUR(pc) != b->side)
            continue;
        if (TC_TYPE(pc) == TC_PAWN) {
            n = gen_pawn(b, c, out, n);
            continue;
        }
        int k = reach(b, c, targets);
        for (int i = 0; i < k; i++) {
            int t = b->cell[targets[i]];
            if (!t || TC_COLOUR(t) != b->side)
                n = push_move(out, n, c, targets[i], 0, TC_MOVE_NORMAL, -1);
        }
    }
    return gen_castling(b, out, n);
}

/* Clears the right of any king or castling rook that the move touches. */
static void update_castling(rg_board *b, int cell)
{
    for (int col = 0; col < 2; col++) {
        if (!b->can_castle[col])
            continue;
        int r = b->back[col];
        if (cell == cell_of(b, 4, r))
            b->castling &= ~(3 << (col * 2));
        if (cell == cell_of(b, 7, r))
            b->castling &= ~(1 << (col * 2));
        if (cell == cell_of(b, 0, r))
            b->castling &= ~(2 << (col * 2));
    }
}

void rg_make(rg_board *b, const rg_move *m)
{
    int us = b->side, pc = b->cell[m->from];
    if (m->kind == TC_MOVE_CASTLE_K || m->kind == TC_MOVE_CASTLE_Q) {
        int r = b->back[us], q = m->kind == TC_MOVE_CASTLE_Q;
        b->cell[cell_of(b, q ? 0 : 7, r)] = 0;
        b->cell[m->from] = 0;
        b->cell[m->to] = (unsigned char)pc;
        b->cell[cell_of(b, q ? 3 : 5, r)] = (unsigned char)TC_PIECE(us, TC_ROOK);
    } else {
        if (m->kind == TC_MOVE_EP)
            b->cell[m->aux] = 0;
        b->cell[m->from] = 0;
        b->cell[m->to] = (unsigned char)(m->promo ? TC_PIECE(us, m->promo) : pc);
    }
    update_castling(b, m->from);
    update_castling(b, m->to);
    b->ep = m->kind == TC_MOVE_DOUBLE ? m->aux : -1;
    b->side = !us;
}

int rg_legal(const rg_board *b, rg_move *out, int max)
{
    rg_move *pseudo = malloc(sizeof *pseudo * RG_MAX_MOVES);
    if (!pseudo)
        return 0;
    int np = gen_pseudo(b, pseudo), n = 0;
    for (int i = 0; i < np && n < max; i++) {
        rg_board after = *b;
        rg_make(&after, &pseudo[i]);
        int k = king_cell(&after, b->side);
        if (k >= 0 && !rg_attacked(&after, k, after.side))
            out[n++] = pseudo[i];
    }
    free(pseudo);
    return n;
}

uint64_t rg_perft(const rg_board *b, int depth)
{
    if (depth <= 0)
        return 1;
    rg_move *moves = malloc(sizeof *moves * RG_MAX_MOVES);
    if (!moves)
        return 0;
    int n = rg_legal(b, moves, RG_MAX_MOVES);
    uint64_t total = 0;
    if (depth == 1) {
        total = (uint64_t)n;
    } else {
        for (int i = 0; i < n; i++) {
            rg_board next = *b;
            rg_make(&next, &moves[i]);
            total += rg_perft(&next, depth - 1);
        }
    }
    free(moves);
    return total;
}

int rg_setup_legal(const tc_variant_def *d, char *why, size_t n)
{
    rg_board b;
    if (d->width < 2 || d->width > TC_MAX_FILES || d->height < 2 || d->height > TC_MAX_RANKS ||
        rg_board_setup(d, &b)) {
        snprintf(why, n, "the setup cannot be read");
        return 0;
    }
    int kings[2] = {0, 0};
    for (int c = 0; c < b.w * b.h; c++)
        if (TC_TYPE(b.cell[c]) == TC_KING)
            kings[TC_COLOUR(b.cell[c])]++;
    if (kings[0] != 1 || kings[1] != 1) {
        snprintf(why, n, "%d white and %d black kings", kings[0], kings[1]);
        return 0;
    }
    if (b.back[0] == b.back[1]) {
        snprintf(why, n, "both kings on rank %d", b.back[0] + 1);
        return 0;
    }
    for (int c = 0; c < b.w * b.h; c++)
        if (TC_TYPE(b.cell[c]) == TC_PAWN && (c / b.w == b.back[0] || c / b.w == b.back[1])) {
            snprintf(why, n, "a pawn on a back rank");
            return 0;
        }
    /* docs/rules.md section 3: a pawn with no forward direction is refused */
    for (int c = 0; c < b.w * b.h; c++)
        if (TC_TYPE(b.cell[c]) == TC_PAWN && !pawn_dir(&b, TC_COLOUR(b.cell[c]), c % b.w, c / b.w)) {
            snprintf(why, n, "a pawn with no forward direction");
            return 0;
        }
    /* White moves first: Black's king may not stand attacked */
    if (rg_attacked(&b, king_cell(&b, TC_BLACK), TC_WHITE)) {
        snprintf(why, n, "the black king is attacked");
        return 0;
    }
    snprintf(why, n, "legal");
    return 1;
}
