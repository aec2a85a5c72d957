/* Paths: the lines of pieces as cells in order with the joins each step
 * crosses, attacks on a cell, the path of a move. Everything is read from
 * the variant's tables (steps and their frame transforms, pawn and castling
 * tables); nothing here recomputes the board's geometry. No I/O. */
#include "paths.h"

#include <stdarg.h>
#include <stdio.h>

/* ---------------------------------------------------------------- joins */

int tc_step_joins(const tc_variant *v, int cell, int dir)
{
    if (!v || cell < 0 || cell >= v->ncells || dir < 0 || dir > 7)
        return 0;
    return v->step_join[cell][dir];
}

const char *tc_join_marker(int join)
{
    switch (join) {
    case TC_JOIN_FILE: return "~";
    case TC_JOIN_RANK: return "|";
    case TC_JOIN_TWIST: return "=";
    case TC_JOIN_FOLD: return "^";
    }
    return "";
}

static const int join_order[4] = {TC_JOIN_FILE, TC_JOIN_TWIST, TC_JOIN_FOLD, TC_JOIN_RANK};
static const char *const join_words[4] = {"file join", "twist", "fold", "rank join"};

void tc_join_legend(int joins, char *buf, size_t n)
{
    if (!buf || !n)
        return;
    buf[0] = '\0';
    size_t len = 0;
    for (int i = 0; i < 4; i++)
        if (joins & join_order[i]) {
            int w = snprintf(buf + len, n - len, "%s%s %s", len ? ", " : "", tc_join_marker(join_order[i]),
                             join_words[i]);
            if (w < 0 || (size_t)w >= n - len)
                return;
            len += (size_t)w;
        }
}

const char *tc_piece_name(int piece)
{
    static const char *const names[] = {"piece", "pawn", "knight", "bishop", "rook", "queen", "king", "piece"};
    return names[TC_TYPE(piece)];
}

const char *tc_colour_word(int colour) { return colour == TC_WHITE ? "white" : "black"; }

void tc_appendf(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strnlen(buf, n);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

int tc_path_text(const tc_variant *v, const tc_path *path, char *buf, size_t n)
{
    if (!buf || !n)
        return 0;
    buf[0] = '\0';
    for (int i = 0; i < path->len; i++) {
        char cell[8];
        tc_cell_name(v, path->cells[i], cell);
        for (int k = 0; k < 4; k++)
            if (path->joins[i] & join_order[k])
                tc_appendf(buf, n, "%s%s", buf[0] ? " " : "", tc_join_marker(join_order[k]));
        tc_appendf(buf, n, "%s%s", buf[0] ? " " : "", cell);
    }
    if (path->truncated)
        tc_appendf(buf, n, " ...");
    return (int)strlen(buf);
}

/* ---------------------------------------------------------------- lines */

static void path_init(tc_path *pa, int piece, int from, int kind, int dir)
{
    pa->piece = piece;
    pa->from = from;
    pa->kind = kind;
    pa->dir = dir;
    pa->end = TC_END_SHORT;
    pa->len = 0;
    pa->truncated = 0;
    pa->joins_all = 0;
}

static int path_push(tc_path *pa, int cell, int joins)
{
    if (pa->len >= TC_PATH_MAX_CELLS) {
        pa->truncated = 1;
        return -1;
    }
    pa->cells[pa->len] = (int16_t)cell;
    pa->joins[pa->len++] = (uint8_t)joins;
    pa->joins_all |= joins;
    return 0;
}

static int same_cells(const tc_path *a, const tc_path *b)
{
    if (a->from != b->from || a->len != b->len)
        return 0;
    for (int i = 0; i < a->len; i++)
        if (a->cells[i] != b->cells[i])
            return 0;
    return 1;
}

static int join_count(const tc_path *pa)
{
    int n = 0;
    for (int i = 0; i < pa->len; i++)
        n += __builtin_popcount(pa->joins[i]);
    return n;
}

/* Of two lines to one cell, the shorter, then the one with fewer joins
 * (on folding, e1 reaches d1 by a plain step W and across the fold). */
static int plainer(const tc_path *a, const tc_path *b)
{
    return a->len != b->len ? a->len < b->len : join_count(a) < join_count(b);
}

void tc_sink_add(tc_sink *s, const tc_path *pa)
{
    if (s->set) {
        for (int i = 0; i < s->set->count; i++)
            if (same_cells(&s->set->paths[i], pa))
                return; /* e.g. two king steps that land on one cell */
        if (s->set->count < TC_PATHS_MAX)
            s->set->paths[s->set->count++] = *pa;
        s->set->total++;
    }
    if (s->first && (!s->found || plainer(pa, s->first)))
        *s->first = *pa;
    s->found++;
}

static int occupant(const tc_line_query *q, int cell) { return q->board ? q->board[cell] : 0; }

static void gen_ray(const tc_line_query *q, int piece, int from, int dir, tc_sink *s)
{
    const tc_variant *v = q->p->v;
    int colour = TC_COLOUR(piece);
    tc_path pa;
    path_init(&pa, piece, from, TC_LINE_RAY, dir);
    int cur = from, d = dir;
    pa.end = TC_END_OFF;
    /* the step map is a bijection on (cell, direction): a ray comes back to
     * its start or leaves the board within 8 * cells steps */
    for (int guard = 0; guard <= 8 * v->ncells; guard++) {
        int nx = v->step_to[cur][d];
        if (nx < 0) {
            pa.end = TC_END_OFF;
            break;
        }
        if (nx == from) {
            pa.end = TC_END_RETURN;
            break;
        }
        int occ = occupant(q, nx);
        if (q->mode == TC_LINES_MOVES && occ && TC_COLOUR(occ) == colour) {
            pa.end = TC_END_OWN;
            break;
        }
        int j = tc_step_joins(v, cur, d);
        d = v->step_dir[cur][d];
        cur = nx;
        if (path_push(&pa, nx, j))
            break;
        if (nx == q->target) {
            pa.end = TC_END_TARGET;
            break;
        }
        if (occ) {
            pa.end = TC_END_PIECE;
            break;
        }
    }
    if (q->target < 0 ? pa.len > 0 : pa.end == TC_END_TARGET)
        tc_sink_add(s, &pa);
}

/* One line of a short mover, kept when it ends on the target (if any). */
static void emit_short(const tc_line_query *q, tc_path *pa, tc_sink *s)
{
    if (q->target >= 0) {
        if (!pa->len || pa->cells[pa->len - 1] != q->target)
            return;
        pa->end = TC_END_TARGET;
    }
    tc_sink_add(s, pa);
}

static int blocked_by_own(const tc_line_query *q, int colour, int cell)
{
    int occ = occupant(q, cell);
    return q->mode == TC_LINES_MOVES && occ && TC_COLOUR(occ) == colour;
}

static void gen_king(const tc_line_query *q, int piece, int from, tc_sink *s)
{
    const tc_variant *v = q->p->v;
    for (int d = 0; d < 8; d++) {
        int nx = v->step_to[from][d];
        if (nx < 0 || nx == from || blocked_by_own(q, TC_COLOUR(piece), nx))
            continue;
        tc_path pa;
        path_init(&pa, piece, from, TC_LINE_STEP, d);
        path_push(&pa, nx, tc_step_joins(v, from, d));
        if (occupant(q, nx))
            pa.end = TC_END_PIECE;
        emit_short(q, &pa, s);
    }
}

static void gen_knight(const tc_line_query *q, int piece, int from, tc_sink *s)
{
    const tc_variant *v = q->p->v;
    for (int d = 0; d < 8; d += 2) {
        int c1 = v->step_to[from][d];
        if (c1 < 0)
            continue;
        for (int side = -1; side <= 1; side += 2) {
            /* the second leg, as the leap tables are built */
            int dd = tc_knight_second_dir(v, from, d, side);
            int c2 = v->step_to[c1][dd];
            if (c2 < 0 || c2 == from || blocked_by_own(q, TC_COLOUR(piece), c2))
                continue;
            tc_path pa;
            path_init(&pa, piece, from, TC_LINE_LEAP, d);
            path_push(&pa, c1, tc_step_joins(v, from, d));
            path_push(&pa, c2, tc_step_joins(v, c1, dd));
            if (occupant(q, c2))
                pa.end = TC_END_PIECE;
            emit_short(q, &pa, s);
        }
    }
}

static void gen_pawn(const tc_line_query *q, int piece, int from, tc_sink *s)
{
    const tc_variant *v = q->p->v;
    int us = TC_COLOUR(piece), dy = v->pawn_dy[us][from];
    if (!dy)
        return;
    if (q->mode == TC_LINES_MOVES) {
        int f = dy > 0 ? 0 : 4;
        int c1 = v->push1[us][from];
        if (c1 >= 0 && !occupant(q, c1)) {
            tc_path pa;
            path_init(&pa, piece, from, TC_LINE_PAWN_PUSH, f);
            path_push(&pa, c1, tc_step_joins(v, from, f));
            int c2 = v->push2[us][from];
            if (c2 >= 0 && !occupant(q, c2) && c1 != q->target)
                path_push(&pa, c2, tc_step_joins(v, c1, v->step_dir[from][f]));
            emit_short(q, &pa, s);
        }
    }
    for (int side = -1; side <= 1; side += 2) {
        int d = dy > 0 ? (side > 0 ? 1 : 7) : (side > 0 ? 3 : 5);
        int t = v->step_to[from][d];
        if (t < 0 || t == from)
            continue;
        int occ = occupant(q, t);
        if (q->mode == TC_LINES_MOVES && !(occ ? TC_COLOUR(occ) != us : t == q->p->ep))
            continue;
        tc_path pa;
        path_init(&pa, piece, from, TC_LINE_PAWN_CAPTURE, d);
        path_push(&pa, t, tc_step_joins(v, from, d));
        if (occ)
            pa.end = TC_END_PIECE;
        emit_short(q, &pa, s);
    }
}

/* Every line of `piece` standing on `from` (the board may hold another
 * piece there: explanations ask about pieces that are not yet placed). */
void tc_gen_lines(const tc_line_query *q, int piece, int from, tc_sink *s)
{
    switch (TC_TYPE(piece)) {
    case TC_PAWN: gen_pawn(q, piece, from, s); break;
    case TC_KNIGHT: gen_knight(q, piece, from, s); break;
    case TC_KING: gen_king(q, piece, from, s); break;
    case TC_BISHOP:
    case TC_ROOK:
    case TC_QUEEN: {
        int t = TC_TYPE(piece);
        for (int d = t == TC_BISHOP ? 1 : 0; d < 8; d += t == TC_QUEEN ? 1 : 2)
            gen_ray(q, piece, from, d, s);
        break;
    }
    default: break;
    }
}

int tc_attack_paths(const tc_position *p, int cell, int colour, tc_path_set *out)
{
    out->count = out->total = 0;
    if (!p || cell < 0 || cell >= p->v->ncells || (colour != TC_WHITE && colour != TC_BLACK))
        return -1;
    tc_line_query q = {p, p->board, TC_LINES_ATTACKS, cell};
    tc_sink s = {out, NULL, 0};
    BITS_FOREACH(from, p->occ[colour], {
        if (from != cell)
            tc_gen_lines(&q, p->board[from], from, &s);
    })
    return out->total;
}

int tc_piece_lines(const tc_position *p, int cell, int mode, tc_path_set *out)
{
    out->count = out->total = 0;
    if (!p || cell < 0 || cell >= p->v->ncells || (mode != TC_LINES_MOVES && mode != TC_LINES_ATTACKS))
        return -1;
    if (!p->board[cell])
        return 0;
    tc_line_query q = {p, p->board, mode, -1};
    tc_sink s = {out, NULL, 0};
    tc_gen_lines(&q, p->board[cell], cell, &s);
    return out->total;
}

/* The castling king's cells along its back rank (plain file letters). */
void tc_castle_path(const tc_position *p, int colour, int side, tc_path *out)
{
    const tc_variant *v = p->v;
    int from = v->castle_king[colour], to = v->castle_king_to[colour][side];
    path_init(out, TC_PIECE(colour, TC_KING), from, TC_LINE_CASTLE, side ? 6 : 2);
    int step = to > from ? 1 : -1;
    for (int c = from + step;; c += step) {
        path_push(out, c, 0);
        if (c == to)
            break;
    }
    out->end = TC_END_TARGET;
}

int tc_move_path(const tc_position *p, tc_move m, tc_path *out)
{
    int from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), kind = TC_MOVE_KIND(m);
    if (!p || !m || from >= p->v->ncells || to >= p->v->ncells || !p->board[from])
        return -1;
    int colour = TC_COLOUR(p->board[from]);
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q) {
        if (!p->v->castle_ok[colour])
            return -1;
        tc_castle_path(p, colour, kind == TC_MOVE_CASTLE_Q, out);
        return 0;
    }
    tc_line_query q = {p, p->board, TC_LINES_MOVES, to};
    tc_sink s = {NULL, out, 0};
    tc_gen_lines(&q, p->board[from], from, &s);
    return s.found ? 0 : -1;
}

